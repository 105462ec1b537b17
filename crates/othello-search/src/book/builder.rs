//! [`BookBuilder`]: adds positions to a [`Book`], valuing their leaves.

use std::sync::Arc;

use yomi_core::{Game, Symmetric};
use yomi_othello::{Move, Othello};

use yomi_core::Shard;

use super::{
    canonical, square_order, stored_form, Book, BookEntry, BookError, EXACT_DEPTH, WLD_DEPTH,
};

use crate::midgame::{MidgameSearch, RootValues};
use crate::review::score_in_discs;
use crate::solver::{Mode, Solver, SolverConfig};
use crate::Evaluator;

/// How a [`BookBuilder`] values the moves of a new position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// The midgame search's depth (1 to 60), full width.
    pub depth: u32,
    /// At this many empty squares or fewer the moves are solved exactly instead (at most 24).
    pub exact: u32,
    /// Above `exact` and at this many empty squares or fewer, each move's midgame value is
    /// also proved by a win/loss/draw solve, and kept within what the proof allows: at least
    /// +2 discs for a win, 0 for a draw, at most -2 for a loss (final disc differences are
    /// even), with depth [`WLD_DEPTH`]. 0 (or at most `exact`): none. At most 26.
    pub wld: u32,
    /// The size of the search's and the solver's tables, in MiB.
    pub hash_mb: usize,
}

impl Default for BuildConfig {
    /// Depth 8, exact from 20 empties, no WLD solves, 64 MiB tables.
    fn default() -> BuildConfig {
        BuildConfig {
            depth: 8,
            exact: 20,
            wld: 0,
            hash_mb: 64,
        }
    }
}

/// Adds positions to a book: each new position gets its leaf (its best move whose position is
/// not in the book) valued by a full-width midgame search of every move, or exact solves near
/// the end. The tables are cleared before each position and nothing is timed, so a value
/// depends only on the position, the book around it, the weights and the settings: never on
/// the machine or on what the builder valued before.
pub struct BookBuilder {
    config: BuildConfig,
    evaluator: Arc<dyn Evaluator>,
    midgame: MidgameSearch,
    solver: Solver,
}

impl std::fmt::Debug for BookBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BookBuilder")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl BookBuilder {
    /// A builder with these settings whose midgame search scores its leaves with `evaluator`.
    ///
    /// # Errors
    /// [`BookError::Search`] for a depth outside 1 to 60, `exact` above 24, `wld` above 26,
    /// or a solver table that cannot be made.
    pub fn new(
        config: BuildConfig,
        evaluator: Arc<dyn Evaluator>,
    ) -> Result<BookBuilder, BookError> {
        if !(1..=60).contains(&config.depth) {
            return Err(BookError::Search(format!(
                "the book's search depth must be 1 to 60, not {}",
                config.depth
            )));
        }
        if config.exact > 24 {
            return Err(BookError::Search(format!(
                "the book solves exactly from at most 24 empties, not {}",
                config.exact
            )));
        }
        if config.wld > 26 {
            return Err(BookError::Search(format!(
                "the book solves for win, loss or draw from at most 26 empties, not {}",
                config.wld
            )));
        }
        let solver = Solver::new(SolverConfig {
            threads: 1,
            hash_mb: config.hash_mb,
            ..SolverConfig::default()
        })
        .map_err(|e| BookError::Search(e.to_string()))?;
        let mut midgame = MidgameSearch::new(config.hash_mb, Arc::clone(&evaluator));
        midgame.set_root_values(RootValues::All);
        Ok(BookBuilder {
            config,
            evaluator,
            midgame,
            solver,
        })
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &BuildConfig {
        &self.config
    }

    /// The best move of `pos` whose position is not in `book`, with its value and the depth
    /// behind it (the first in square order among equals); `None` when every move leads into
    /// the book.
    fn best_outside(
        &mut self,
        book: &Book,
        pos: &Othello,
        also: Option<Move>,
    ) -> Option<(Move, i8, u8)> {
        let outside: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| {
                let child = pos.play_unchecked(mv);
                Some(mv) != also && !child.is_over() && !book.contains(&child)
            })
            .collect();
        // A move that ends the game is valued by its score and never needs the book either.
        let mut candidates: Vec<(Move, i8, u8)> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&mv| Some(mv) != also)
            .filter_map(|mv| {
                let child = pos.play_unchecked(mv);
                child
                    .is_over()
                    .then(|| (mv, (-child.final_score_for_mover()) as i8, EXACT_DEPTH))
            })
            .collect();
        if !outside.is_empty() {
            let empties = pos.empties().count();
            if empties <= self.config.exact {
                self.solver.clear();
                for v in self.solver.move_values(pos, Mode::Exact) {
                    if outside.contains(&v.mv) {
                        candidates.push((v.mv, v.score as i8, EXACT_DEPTH));
                    }
                }
            } else {
                // A cleared table for each position, so a value does not depend on what the
                // builder searched before.
                self.midgame.clear();
                let r =
                    self.midgame
                        .search_limited(pos, self.config.depth, &yomi_core::Limits::none());
                let depth = if r.exact {
                    EXACT_DEPTH
                } else {
                    r.depth.min(u32::from(WLD_DEPTH - 1)) as u8
                };
                // The win/loss/draw proofs of the moves, where asked for.
                let proofs = if depth != EXACT_DEPTH && empties <= self.config.wld {
                    self.solver.clear();
                    self.solver.move_values(pos, Mode::Wld)
                } else {
                    Vec::new()
                };
                for s in &r.scores {
                    if outside.contains(&s.mv) {
                        let v = score_in_discs(s.score).round().clamp(-64.0, 64.0) as i8;
                        match proofs.iter().find(|p| p.mv == s.mv) {
                            Some(p) => candidates.push((s.mv, within_proof(v, p.score), WLD_DEPTH)),
                            None => candidates.push((s.mv, v, depth)),
                        }
                    }
                }
            }
        }
        candidates
            .into_iter()
            .min_by_key(|&(mv, v, _)| (-i32::from(v), square_order(mv)))
    }

    /// The value of `pos` for its side to move by these settings, searched afresh as if no
    /// move led into a book: the best of its moves' values, with the depth behind it
    /// ([`EXACT_DEPTH`], [`WLD_DEPTH`] or a midgame depth); `None` for a finished game. A
    /// book's value is checked against a deeper builder's this way (`yomi book check`).
    pub fn value(&mut self, pos: &Othello) -> Option<(i8, u8)> {
        let (pos, passed) = stored_form(pos)?;
        let (_, v, depth) = self.best_outside(&Book::new(0), &pos, None)?;
        Some((if passed { -v } else { v }, depth))
    }

    /// Adds `pos` (after its forced pass, if any) to `book` with its leaf valued, if it is not
    /// there and the game is not over; its value is the best of its leaf and its moves already
    /// in the book. Returns whether it was added. Run [`Book::fix`] (and
    /// [`BookBuilder::refresh`] on its parents) after adding positions.
    ///
    /// # Errors
    /// None today; the signature leaves room for searches that can fail.
    pub fn add(&mut self, book: &mut Book, pos: &Othello) -> Result<bool, BookError> {
        let Some((pos, _)) = stored_form(pos) else {
            return Ok(false);
        };
        if book.contains(&pos) {
            return Ok(false);
        }
        let entry = self.entry(book, &pos, None, 0);
        book.insert(&pos, entry);
        Ok(true)
    }

    /// Values the leaf of `pos` (a position with a move to play) again, given the book as it
    /// is now (a move whose position was added since is no longer the leaf), keeping its
    /// lines. Does nothing for a position not in the book.
    pub fn refresh(&mut self, book: &mut Book, pos: &Othello) {
        let Some((pos, _)) = stored_form(pos) else {
            return;
        };
        let Some(old) = book.get(&pos) else {
            return;
        };
        let entry = self.entry(book, &pos, None, old.lines);
        book.insert(&pos, entry);
    }

    /// The entry of `pos` against `book`, where `added` (a move of `pos` whose position is
    /// being added, worth the given value) counts as in the book.
    fn entry(
        &mut self,
        book: &Book,
        pos: &Othello,
        added: Option<(Move, i8)>,
        lines: u32,
    ) -> BookEntry {
        // Valued in the canonical orientation, and the leaf turned back: a tie between moves
        // is then broken the same way whichever image of the position was reached (from
        // parents in different shards of a round, say), so the book does not depend on it.
        let (_, sym) = canonical(pos);
        let back = Othello::inverse(sym);
        let pos = &pos.transform(sym);
        let added = added.map(|(m, v)| (Othello::transform_move(m, sym), v));
        let leaf = self
            .best_outside(book, pos, added.map(|(m, _)| m))
            .map(|(m, v, d)| (Othello::transform_move(m, back), v, d));
        let inside = book
            .moves_in_book(pos)
            .into_iter()
            .map(|(_, v)| i32::from(v))
            .chain(added.map(|(_, v)| i32::from(v)))
            .max();
        let value = match (leaf, inside) {
            (Some((_, v, _)), Some(b)) => i32::from(v).max(b),
            (Some((_, v, _)), None) => i32::from(v),
            (None, Some(b)) => b,
            (None, None) => 0,
        };
        BookEntry {
            value: value as i8,
            depth: leaf.map_or(0, |(_, _, d)| d),
            leaf: leaf.map(|(m, _, _)| m),
            leaf_value: leaf.map_or(0, |(_, v, _)| v),
            lines,
        }
    }

    /// One shard of a deviate round over `frontier` ([`Book::frontier`] of `book`): for each
    /// frontier position in the shard (the `i`-th position is in shard `i mod N`), the position
    /// its leaf leads to is valued and added, and the frontier position gets its next leaf.
    /// Everything is valued against `book` as it was at the round's start, so the shards
    /// are independent: applying every shard's updates ([`Book::apply`]) then
    /// [`Book::fix`] gives the same book, byte for byte, as the whole round in one.
    ///
    /// Returns the updates, a book of the new and changed positions.
    ///
    /// # Errors
    /// None today; the signature leaves room for searches that can fail.
    pub fn deviate(
        &mut self,
        book: &Book,
        frontier: &[Othello],
        shard: Shard,
        progress: impl FnMut(usize),
    ) -> Result<Book, BookError> {
        let mine = (0..frontier.len()).filter(|&i| shard.contains(i as u64));
        self.deviate_at(book, frontier, mine, progress)
    }

    /// [`BookBuilder::deviate`] on `threads` threads, each with a builder of its own (its own
    /// tables, [`BuildConfig::hash_mb`] each): the shard's frontier positions are dealt to the
    /// threads in turn. Each value depends only on the position, the book and the settings,
    /// so the updates are the same, byte for byte, at any thread count. `progress` gets the
    /// index of each frontier position done, from any thread.
    ///
    /// # Errors
    /// [`BookError::Search`] when a thread's builder cannot be made.
    pub fn deviate_threads(
        &mut self,
        book: &Book,
        frontier: &[Othello],
        shard: Shard,
        threads: usize,
        progress: impl Fn(usize) + Sync,
    ) -> Result<Book, BookError> {
        let mine: Vec<usize> = (0..frontier.len())
            .filter(|&i| shard.contains(i as u64))
            .collect();
        if threads <= 1 || mine.len() <= 1 {
            return self.deviate_at(book, frontier, mine.into_iter(), progress);
        }
        let threads = threads.min(mine.len());
        let mut builders = vec![];
        for _ in 1..threads {
            builders.push(BookBuilder::new(
                self.config.clone(),
                Arc::clone(&self.evaluator),
            )?);
        }
        let (mine, progress) = (&mine, &progress);
        let parts: Vec<Result<Book, BookError>> = std::thread::scope(|scope| {
            let handles: Vec<_> = builders
                .iter_mut()
                .enumerate()
                .map(|(t, b)| {
                    let dealt = mine.iter().copied().skip(t + 1).step_by(threads);
                    scope.spawn(move || b.deviate_at(book, frontier, dealt, progress))
                })
                .collect();
            let own = mine.iter().copied().step_by(threads);
            let mut parts = vec![self.deviate_at(book, frontier, own, progress)];
            for h in handles {
                parts.push(
                    h.join()
                        .unwrap_or_else(|_| Err(BookError::Search("a book thread failed".into()))),
                );
            }
            parts
        });
        let mut updates = Book::new(book.weights());
        for part in parts {
            updates.apply(&part?);
        }
        Ok(updates)
    }

    /// The deviate round's work at the frontier positions of `indices`.
    fn deviate_at(
        &mut self,
        book: &Book,
        frontier: &[Othello],
        indices: impl Iterator<Item = usize>,
        mut progress: impl FnMut(usize),
    ) -> Result<Book, BookError> {
        let mut updates = Book::new(book.weights());
        for i in indices {
            let parent = &frontier[i];
            let Some(e) = book.get(parent) else { continue };
            let Some(leaf) = e.leaf else { continue };
            let child = parent.play_unchecked(leaf);
            let Some((stored, passed)) = stored_form(&child) else {
                continue;
            };
            // A leaf whose position another line has put in the book since it was chosen is
            // not valued again (its entry and lines stay): the parent only gets a new leaf.
            let child_entry = match book.get(&stored) {
                Some(known) => known,
                None => {
                    let fresh = self.entry(book, &stored, None, 0);
                    updates.insert(&stored, fresh);
                    fresh
                }
            };
            let child_value = if passed {
                child_entry.value
            } else {
                -child_entry.value
            };
            let parent_entry = self.entry(book, parent, Some((leaf, child_value)), e.lines);
            updates.insert(parent, parent_entry);
            progress(i);
        }
        Ok(updates)
    }

    /// A book of the start position and every position of `lines` (move lists from the start;
    /// a pass may be left out where forced), each line counted once in the lines of the
    /// positions it goes through, then negamaxed.
    ///
    /// # Errors
    /// [`BookError::Search`] for a move that is not legal, naming the line and move.
    pub fn new_book(&mut self, weights: u64, lines: &[Vec<Move>]) -> Result<Book, BookError> {
        let mut book = Book::new(weights);
        self.store(&mut book, lines, None)?;
        Ok(book)
    }

    /// Adds to `book` the start position (if it is not there) and every position of `lines`
    /// (move lists from the start; a pass may be left out where forced) up to `plies` moves
    /// into each line (`None`: to its end), each new one valued; each line counts once in the
    /// lines of the positions it goes through; the positions the lines leave get their leaf
    /// valued again, and the book is negamaxed. Returns how many positions were added.
    /// Every line is checked before the book changes.
    ///
    /// # Errors
    /// [`BookError::Search`] for a move that is not legal, naming the line and move.
    pub fn store(
        &mut self,
        book: &mut Book,
        lines: &[Vec<Move>],
        plies: Option<usize>,
    ) -> Result<usize, BookError> {
        let start = Othello::new();
        // The positions of each line, checked first: a bad line leaves the book as it was.
        let mut walks: Vec<Vec<Othello>> = Vec::with_capacity(lines.len());
        for (k, line) in lines.iter().enumerate() {
            let mut pos = start;
            let mut walk = vec![pos];
            for (i, &mv) in line.iter().enumerate().take(plies.unwrap_or(usize::MAX)) {
                // A forced pass the line leaves out.
                if mv != Move::Pass && pos.legal_moves().as_slice() == [Move::Pass] {
                    pos = pos.play_unchecked(Move::Pass);
                }
                if !pos.legal_moves().contains(&mv) {
                    return Err(BookError::Search(format!(
                        "line {}: move {} ({mv}) is not legal",
                        k + 1,
                        i + 1
                    )));
                }
                pos = pos.play_unchecked(mv);
                walk.push(pos);
                if pos.is_over() {
                    break;
                }
            }
            walks.push(walk);
        }
        let before = book.len();
        self.add(book, &start)?;
        let mut parents: Vec<Othello> = Vec::new();
        for walk in &walks {
            book.add_lines(&start, 1);
            for pair in walk.windows(2) {
                let (parent, pos) = (pair[0], pair[1]);
                parents.push(parent);
                if pos.is_over() {
                    break;
                }
                self.add(book, &pos)?;
                book.add_lines(&pos, 1);
            }
        }
        let mut seen = std::collections::HashSet::new();
        for p in &parents {
            if seen.insert(canonical(p).0) {
                self.refresh(book, p);
            }
        }
        book.fix();
        Ok(book.len() - before)
    }
}

/// A midgame value `v` kept within what a win/loss/draw proof allows (`proof` 1, 0 or -1 for
/// the mover): a win is worth at least +2 discs, a draw 0, a loss at most -2 (a final disc
/// difference is even).
fn within_proof(v: i8, proof: i32) -> i8 {
    match proof.signum() {
        1 => v.max(2),
        -1 => v.min(-2),
        _ => 0,
    }
}
