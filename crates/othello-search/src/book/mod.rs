//! An Othello opening book ([`Book`]): positions unique up to the 8 symmetries, each stored as
//! its full board in canonical form (no hash keys, so no collisions), with its negamaxed
//! value, the depth that valued it, the best move not yet in the book (the *leaf*) with that
//! move's value, and how many lines went through it. [`BookBuilder`] adds positions, valuing
//! their leaves with the midgame search or the exact solver.
//!
//! Values are in discs, from the side to move of the position, as every score of this crate.
//! A position whose side to move must pass is stored after its pass, so every stored position
//! has a legal move; a finished game is never stored.
//!
//! The file is the project's checked container (magic `YOMIBOOK`, a version, a checksum;
//! `docs/formats.md`), whose payload is the digest of the evaluation weights that valued the
//! book and its positions in canonical order, 24 bytes each.

mod builder;
mod round;
mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{fnv1a64, Container, ContainerError, Game, Player, Symmetric};
use yomi_othello::{Bitboard, Move, Othello, Square};

pub use builder::{BookBuilder, BuildConfig};
pub use round::{RoundPart, RoundStamp};

pub use text::{depth_text, ParseBookError};

/// The container of book files.
const CONTAINER: Container = Container {
    magic: *b"YOMIBOOK",
    version: 1,
    what: "book file",
};

/// The tag of book files (the game).
const TAG: &str = "othello";

/// How many books [`Book::shared`] keeps.
pub const SHARED_BOOKS: usize = 4;

/// One book kept by [`Book::shared`]: its path, the file's length and modification time when
/// it was read, and the book.
type SharedBook = (PathBuf, u64, Option<SystemTime>, Arc<Book>);

/// The books [`Book::shared`] read, the most recently asked for first.
static SHARED: Mutex<Vec<SharedBook>> = Mutex::new(Vec::new());

/// The bytes of one position in a book file.
pub const ENTRY_BYTES: usize = 24;

/// The `depth` of a value proved by an exact solve.
pub const EXACT_DEPTH: u8 = u8::MAX;

/// The `depth` of a midgame value whose sign a win/loss/draw solve proved
/// ([`BuildConfig::wld`]); midgame depths are below it.
pub const WLD_DEPTH: u8 = u8::MAX - 1;

/// No leaf: every legal move of the position leads into the book.
const NO_LEAF: u8 = u8::MAX;

/// What the book knows of one position, from its side to move. Moves are in the orientation
/// of the position they were asked for ([`Book::get`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's value: the best of its leaf's value and its book moves' values
    /// (negamaxed by [`Book::fix`]).
    pub value: i8,
    /// The midgame depth that valued the leaf, [`WLD_DEPTH`] for a win/loss/draw proof,
    /// [`EXACT_DEPTH`] for an exact solve (or a move
    /// that ends the game), 0 without a leaf.
    pub depth: u8,
    /// The best move whose position is not in the book, if any.
    pub leaf: Option<Move>,
    /// The leaf's value (meaningless without a leaf).
    pub leaf_value: i8,
    /// How many games or lines went through the position.
    pub lines: u32,
}

/// One legal move of a book position ([`Book::moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// Its value for the side that plays it.
    pub value: i8,
    /// The depth behind the value ([`EXACT_DEPTH`] for an exact one, [`WLD_DEPTH`] for a
    /// proved win, draw or loss).
    pub depth: u8,
    /// Lines through the position it leads to (0 for the leaf).
    pub lines: u32,
    /// Whether the move is the position's leaf (its position is not in the book).
    pub leaf: bool,
}

/// Why a book could not be read or written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum BookError {
    /// The file container (I/O, magic, version, checksum, truncation).
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// A position record that no book writes.
    #[error("book file: position {index}: {reason}")]
    BadEntry {
        /// The record's index, from 0.
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// The evaluation weights could not be encoded for their digest.
    #[error("cannot take the digest of the weights: {0}")]
    Weights(String),
    /// The book's text form does not read.
    #[error(transparent)]
    Text(#[from] ParseBookError),
    /// A search needed to value a position failed.
    #[error("book: {0}")]
    Search(String),
    /// Parts that are not the whole of one deviate round of this book
    /// ([`Book::merge_round`]).
    #[error("cannot merge the round: {0}")]
    Round(String),
}

/// The canonical form of a position for the book: the least `(player, opponent)` pair over
/// the 8 images, and the symmetry that gives it.
fn canonical(pos: &Othello) -> ((u64, u64), usize) {
    (0..8)
        .map(|s| {
            let t = pos.transform(s);
            ((t.player().0, t.opponent().0), s)
        })
        .min()
        .unwrap_or(((pos.player().0, pos.opponent().0), 0))
}

/// The position a book stores for `pos`: `pos` itself, or the position after its pass when
/// its side to move must pass; `None` for a finished game. The flag says whether a pass was
/// played (the stored position's side to move is then the other one).
pub(crate) fn stored_form(pos: &Othello) -> Option<(Othello, bool)> {
    if pos.is_over() {
        return None;
    }
    let legal = pos.legal_moves();
    if legal.len() == 1 && legal[0] == Move::Pass {
        Some((pos.play_unchecked(Move::Pass), true))
    } else {
        Some((*pos, false))
    }
}

/// Which leaves a deviate round expands ([`Book::frontier`]), in discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviateBudget {
    /// The most a move may lose against its position's value (a book move to be followed, a
    /// leaf to be expanded).
    pub per_move: i32,
    /// The most the moves of a line from the start may lose in all.
    pub total: i32,
    /// Up to this many plies from the start every move is followed and every leaf expanded,
    /// whatever it loses (so the book covers every opening to that depth).
    pub min_ply: u32,
}

/// The stored data of one position (canonical orientation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stored {
    value: i8,
    depth: u8,
    leaf: u8,
    leaf_value: i8,
    lines: u32,
}

impl Stored {
    /// The entry, with the leaf given in the orientation wanted.
    fn entry(self, leaf: Option<Move>) -> BookEntry {
        BookEntry {
            value: self.value,
            depth: self.depth,
            leaf,
            leaf_value: self.leaf_value,
            lines: self.lines,
        }
    }
}

/// An Othello opening book: positions unique up to the 8 symmetries, each stored as its full
/// board in canonical form (no hash keys, so no collisions), with its negamaxed value, the
/// depth that valued it, its leaf (the best move whose position is not in the book) with that
/// move's value, and the lines through it. Values are in discs for the side to move. A
/// position whose side to move must pass is stored after its pass; finished games are not
/// stored. The file is the checked container (magic `YOMIBOOK`), 24 bytes a position, with
/// the digest of the weights that valued the book ([`weights_digest`]); `docs/formats.md` and
/// `docs/book.md` describe it. [`BookBuilder`] adds and values positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    weights: u64,
    entries: BTreeMap<(u64, u64), Stored>,
}

/// The payload of a book file.
#[derive(Serialize, Deserialize)]
struct Payload {
    weights: u64,
    entries: Vec<u8>,
}

impl Book {
    /// An empty book whose values come from evaluation weights of digest `weights`
    /// ([`weights_digest`]).
    #[must_use]
    pub fn new(weights: u64) -> Book {
        Book {
            weights,
            entries: BTreeMap::new(),
        }
    }

    /// The digest of the evaluation weights that valued the book.
    #[must_use]
    pub fn weights(&self) -> u64 {
        self.weights
    }

    /// Positions in the book.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's knowledge of `pos` (or of the position after its forced pass, whose side
    /// to move is then the other one), with the leaf in `pos`'s orientation; `None` when it
    /// is not in the book.
    #[must_use]
    pub fn get(&self, pos: &Othello) -> Option<BookEntry> {
        let (pos, _) = stored_form(pos)?;
        let (key, sym) = canonical(&pos);
        let s = self.entries.get(&key)?;
        let leaf = (s.leaf != NO_LEAF).then(|| {
            let canon_move = Move::Place(Square::new(s.leaf));
            Othello::transform_move(canon_move, Othello::inverse(sym))
        });
        Some(s.entry(leaf))
    }

    /// Whether `pos` (or the position after its forced pass) is in the book.
    #[must_use]
    pub fn contains(&self, pos: &Othello) -> bool {
        stored_form(pos).is_some_and(|(p, _)| self.entries.contains_key(&canonical(&p).0))
    }

    /// Stores `entry` for `pos` (its leaf in `pos`'s orientation), replacing what was there.
    /// A position whose side to move must pass is refused: store the position after the pass.
    ///
    /// # Panics
    /// If `pos` is finished or its side to move must pass, or if the leaf is a pass.
    pub fn insert(&mut self, pos: &Othello, entry: BookEntry) {
        assert!(
            matches!(stored_form(pos), Some((_, false))),
            "a book stores positions with a move to play"
        );
        let (key, sym) = canonical(pos);
        let leaf = match entry.leaf.map(|m| Othello::transform_move(m, sym)) {
            None => NO_LEAF,
            Some(Move::Place(sq)) => sq.index() as u8,
            Some(Move::Pass) => panic!("a leaf is a move to a square"),
        };
        self.entries.insert(
            key,
            Stored {
                value: entry.value,
                depth: entry.depth,
                leaf,
                leaf_value: entry.leaf_value,
                lines: entry.lines,
            },
        );
    }

    /// Adds `n` to the lines through `pos`, if it is in the book.
    pub fn add_lines(&mut self, pos: &Othello, n: u32) {
        if let Some((p, _)) = stored_form(pos) {
            if let Some(s) = self.entries.get_mut(&canonical(&p).0) {
                s.lines = s.lines.saturating_add(n);
            }
        }
    }

    /// The value of playing `mv` at `pos` for its player, if the book knows the position it
    /// leads to (a finished game counts its final score), with the depth and lines behind it.
    fn child_value(&self, pos: &Othello, mv: Move) -> Option<(i8, u8, u32)> {
        let child = pos.play_unchecked(mv);
        if child.is_over() {
            let score = -child.final_score_for_mover();
            return Some((score as i8, EXACT_DEPTH, 0));
        }
        let (stored, passed) = stored_form(&child)?;
        let s = self.entries.get(&canonical(&stored).0)?;
        let v = if passed { s.value } else { -s.value };
        Some((v, s.depth, s.lines))
    }

    /// The legal moves of `pos` whose positions are in the book (or end the game), with
    /// their values for the side that plays them.
    pub(crate) fn moves_in_book(&self, pos: &Othello) -> Vec<(Move, i8)> {
        pos.legal_moves()
            .iter()
            .filter_map(|&mv| self.child_value(pos, mv).map(|(v, _, _)| (mv, v)))
            .collect()
    }

    /// The book moves of `pos` (each legal move whose position is in the book, and the leaf),
    /// best first (ties in square order); empty when `pos` is not in the book.
    #[must_use]
    pub fn moves(&self, pos: &Othello) -> Vec<BookMove> {
        let Some((pos, _)) = stored_form(pos) else {
            return Vec::new();
        };
        let Some(entry) = self.get(&pos) else {
            return Vec::new();
        };
        let mut out: Vec<BookMove> = pos
            .legal_moves()
            .iter()
            .filter_map(|&mv| {
                let (value, depth, lines) = self.child_value(&pos, mv)?;
                Some(BookMove {
                    mv,
                    value,
                    depth,
                    lines,
                    leaf: false,
                })
            })
            .collect();
        if let Some(leaf) = entry.leaf {
            if !out.iter().any(|m| m.mv == leaf) {
                out.push(BookMove {
                    mv: leaf,
                    value: entry.leaf_value,
                    depth: entry.depth,
                    lines: 0,
                    leaf: true,
                });
            }
        }
        out.sort_by_key(|m| (-i32::from(m.value), square_order(m.mv)));
        out
    }

    /// Negamaxes the book from its leaves to its root: each position's value becomes the best
    /// of its leaf's value and its book moves' values. Positions are visited from the most
    /// discs to the fewest (a move adds a disc, a pass none, so children come first), so one
    /// pass settles every value. Returns how many values changed.
    pub fn fix(&mut self) -> usize {
        let mut keys: Vec<(u64, u64)> = self.entries.keys().copied().collect();
        keys.sort_by_key(|&(p, o)| (std::cmp::Reverse((p | o).count_ones()), p, o));
        let mut changed = 0;
        for key in keys {
            let pos = Othello::from_sides(Bitboard(key.0), Bitboard(key.1), Player::First);
            let s = self.entries[&key];
            let mut best = if s.leaf == NO_LEAF {
                i32::MIN
            } else {
                i32::from(s.leaf_value)
            };
            for &mv in pos.legal_moves().iter() {
                if let Some((v, _, _)) = self.child_value(&pos, mv) {
                    best = best.max(i32::from(v));
                }
            }
            if best != i32::MIN && best != i32::from(s.value) {
                if let Some(e) = self.entries.get_mut(&key) {
                    e.value = best as i8;
                }
                changed += 1;
            }
        }
        changed
    }

    /// Every position with its entry, in canonical form (side to move first as black) and
    /// canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Othello, BookEntry)> + '_ {
        self.entries.iter().map(|(&(p, o), s)| {
            let pos = Othello::from_sides(Bitboard(p), Bitboard(o), Player::First);
            let leaf = (s.leaf != NO_LEAF).then(|| Move::Place(Square::new(s.leaf)));
            (pos, s.entry(leaf))
        })
    }

    /// The frontier of a deviate round: the book positions whose leaf lies within `budget`,
    /// reached from the start through book moves within it, in canonical order. A position
    /// is reached with the least cumulative loss of the lines to it (ply by ply, so the
    /// result does not depend on the order of the moves). A leaf that ends the game is never
    /// expanded.
    #[must_use]
    pub fn frontier(&self, budget: &DeviateBudget) -> Vec<Othello> {
        let within = |ply: u32, loss: i32, total: i32| {
            ply < budget.min_ply || (loss <= budget.per_move && total <= budget.total)
        };
        let mut level: BTreeMap<(u64, u64), (Othello, i32)> = BTreeMap::new();
        let mut seen = std::collections::HashSet::new();
        let mut out = BTreeMap::new();
        if let Some((start, _)) = stored_form(&Othello::new()) {
            if self.contains(&start) {
                level.insert(canonical(&start).0, (start, 0));
            }
        }
        let mut ply = 0;
        while !level.is_empty() {
            let mut next: BTreeMap<(u64, u64), (Othello, i32)> = BTreeMap::new();
            for (key, (pos, spent)) in level {
                if !seen.insert(key) {
                    continue;
                }
                let Some(e) = self.get(&pos) else { continue };
                let value = i32::from(e.value);
                for &mv in pos.legal_moves().iter() {
                    let child = pos.play_unchecked(mv);
                    let Some((stored, _)) = stored_form(&child) else {
                        continue;
                    };
                    let Some((v, _, _)) = self.child_value(&pos, mv) else {
                        continue;
                    };
                    let loss = (value - i32::from(v)).max(0);
                    if !within(ply, loss, spent + loss) {
                        continue;
                    }
                    let k = canonical(&stored).0;
                    let slot = next.entry(k).or_insert((stored, spent + loss));
                    slot.1 = slot.1.min(spent + loss);
                }
                if let Some(leaf) = e.leaf {
                    let loss = (value - i32::from(e.leaf_value)).max(0);
                    let ends = pos.play_unchecked(leaf).is_over();
                    if !ends && within(ply, loss, spent + loss) {
                        out.insert(key, pos);
                    }
                }
            }
            level = next;
            ply += 1;
        }
        out.into_values().collect()
    }

    /// Opening lines from the book: one move line from the start to each book position
    /// (unique up to symmetry) `ply` discs into the game, reached through book positions,
    /// whose value is within `within` discs of even, with that value for black. Forced passes
    /// are in the lines (`PA`). The line to a position is the first in move order of the
    /// positions before it, so the list depends on the book only; it is in that order.
    #[must_use]
    pub fn lines_at(&self, ply: u32, within: i32) -> Vec<(Vec<Move>, i32)> {
        let mut level: BTreeMap<(u64, u64), (Othello, Vec<Move>)> = BTreeMap::new();
        let start = Othello::new();
        if self.contains(&start) {
            level.insert(canonical(&start).0, (start, Vec::new()));
        }
        for _ in 0..ply {
            let mut next: BTreeMap<(u64, u64), (Othello, Vec<Move>)> = BTreeMap::new();
            // Parents in the order of their lines, so each child keeps the first line to it.
            let mut parents: Vec<(Othello, Vec<Move>)> = level.into_values().collect();
            parents.sort_by(|a, b| a.1.cmp(&b.1));
            for (pos, line) in parents {
                for &mv in pos.legal_moves().iter() {
                    let child = pos.play_unchecked(mv);
                    let Some((stored, passed)) = stored_form(&child) else {
                        continue;
                    };
                    if !self.contains(&stored) {
                        continue;
                    }
                    next.entry(canonical(&stored).0).or_insert_with(|| {
                        let mut l = line.clone();
                        l.push(mv);
                        if passed {
                            l.push(Move::Pass);
                        }
                        (stored, l)
                    });
                }
            }
            level = next;
        }
        let mut out: Vec<(Vec<Move>, i32)> = level
            .into_values()
            .filter_map(|(pos, line)| {
                let v = i32::from(self.get(&pos)?.value);
                let black = if pos.side_to_move() == Player::First {
                    v
                } else {
                    -v
                };
                (black.abs() <= within).then_some((line, black))
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// Applies a deviate round's updates ([`BookBuilder::deviate`]): each of their positions
    /// replaces this book's entry or is added. Run [`Book::fix`] after the last shard.
    pub fn apply(&mut self, updates: &Book) {
        for (key, s) in &updates.entries {
            self.entries.insert(*key, *s);
        }
    }

    /// Merges `other` into this book: a position in both keeps the entry valued deeper (an
    /// exact one before any depth; at equal depth, this book's), with the lines of both
    /// added. Run [`Book::fix`] after.
    pub fn merge(&mut self, other: &Book) {
        for (key, theirs) in &other.entries {
            match self.entries.get_mut(key) {
                None => {
                    self.entries.insert(*key, *theirs);
                }
                Some(ours) => {
                    let lines = ours.lines.saturating_add(theirs.lines);
                    if theirs.depth > ours.depth {
                        *ours = *theirs;
                    }
                    ours.lines = lines;
                }
            }
        }
    }

    /// The book as the bytes of its file.
    ///
    /// # Errors
    /// [`BookError::Container`] if the container refuses the payload.
    pub fn to_bytes(&self) -> Result<Vec<u8>, BookError> {
        let mut entries = Vec::with_capacity(self.entries.len() * ENTRY_BYTES);
        for (&(p, o), s) in &self.entries {
            entries.extend_from_slice(&p.to_le_bytes());
            entries.extend_from_slice(&o.to_le_bytes());
            entries.push(s.value as u8);
            entries.push(s.depth);
            entries.push(s.leaf);
            entries.push(s.leaf_value as u8);
            entries.extend_from_slice(&s.lines.to_le_bytes());
        }
        let payload = Payload {
            weights: self.weights,
            entries,
        };
        Ok(CONTAINER.encode(TAG, self.entries.len() as u64, &payload)?)
    }

    /// Reads a book from the bytes of its file, checking the container, then every record:
    /// a legal position in canonical form, in canonical order, with a move to play, a value
    /// and a leaf value from -64 to 64 and a leaf on an empty square.
    ///
    /// # Errors
    /// [`BookError::Container`] for a foreign, truncated, corrupt or newer file;
    /// [`BookError::BadEntry`] naming the first bad record.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let header = CONTAINER.read_header(TAG, bytes)?;
        let (_, payload): (_, Payload) = CONTAINER.decode(TAG, bytes)?;
        let count = usize::try_from(header.records).unwrap_or(usize::MAX);
        if payload.entries.len() != count.saturating_mul(ENTRY_BYTES) {
            return Err(BookError::BadEntry {
                index: payload.entries.len() / ENTRY_BYTES,
                reason: format!(
                    "{} bytes of positions for {} positions of {ENTRY_BYTES} bytes",
                    payload.entries.len(),
                    header.records
                ),
            });
        }
        let mut entries = BTreeMap::new();
        let mut previous: Option<(u64, u64)> = None;
        for (index, r) in payload.entries.chunks_exact(ENTRY_BYTES).enumerate() {
            let bad = |reason: String| BookError::BadEntry { index, reason };
            let word = |at: usize| {
                let mut b = [0u8; 8];
                b.copy_from_slice(&r[at..at + 8]);
                u64::from_le_bytes(b)
            };
            let (p, o) = (word(0), word(8));
            let (value, depth, leaf, leaf_value) = (r[16] as i8, r[17], r[18], r[19] as i8);
            let lines = u32::from_le_bytes([r[20], r[21], r[22], r[23]]);
            if p & o != 0 {
                return Err(bad("a square holds discs of both sides".into()));
            }
            let pos = Othello::from_sides(Bitboard(p), Bitboard(o), Player::First);
            if canonical(&pos).0 != (p, o) {
                return Err(bad("the position is not in canonical form".into()));
            }
            if previous.is_some_and(|q| q >= (p, o)) {
                return Err(bad("the positions are not in canonical order".into()));
            }
            previous = Some((p, o));
            if !matches!(stored_form(&pos), Some((_, false))) {
                return Err(bad("the side to move has no move to play".into()));
            }
            if !(-64..=64).contains(&value) || !(-64..=64).contains(&leaf_value) {
                return Err(bad(format!(
                    "value {value} or leaf value {leaf_value} outside -64..64"
                )));
            }
            if leaf != NO_LEAF
                && (leaf >= 64 || !pos.legal_moves().contains(&Move::Place(Square::new(leaf))))
            {
                return Err(bad(format!("leaf {leaf} is not a legal move")));
            }
            entries.insert(
                (p, o),
                Stored {
                    value,
                    depth,
                    leaf,
                    leaf_value,
                    lines,
                },
            );
        }
        Ok(Book {
            weights: payload.weights,
            entries,
        })
    }

    /// Writes the book's file.
    ///
    /// # Errors
    /// [`BookError::Container`] when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        Ok(Container::write_bytes(path, &self.to_bytes()?)?)
    }

    /// Reads a book file.
    ///
    /// # Errors
    /// As [`Book::from_bytes`], and [`BookError::Container`] when the file cannot be read.
    pub fn read(path: &Path) -> Result<Book, BookError> {
        let bytes = CONTAINER.read_bytes(TAG, path)?;
        Book::from_bytes(&bytes)
    }

    /// The book of the file at `path`, read once and shared by the whole process: agents
    /// built for every game of a match, or for every request of a server, share one copy
    /// instead of each reading the file. A later call for the same path returns the same
    /// book while the file's length and modification time are those it had when read, and
    /// reads it again when either changed. The [`SHARED_BOOKS`] books asked for most recently
    /// are kept.
    ///
    /// # Errors
    /// As [`Book::read`]; a file that no longer reads is not answered from the copy kept.
    pub fn shared(path: &Path) -> Result<Arc<Book>, BookError> {
        let meta = std::fs::metadata(path).map_err(|source| ContainerError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let (len, modified) = (meta.len(), meta.modified().ok());
        // One reader at a time: two agents asking for the same new book read it once.
        let mut books = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = books.iter().position(|(p, ..)| p == path) {
            let kept = books.remove(i);
            if kept.1 == len && kept.2.is_some() && kept.2 == modified {
                let book = Arc::clone(&kept.3);
                books.insert(0, kept);
                return Ok(book);
            }
        }
        let book = Arc::new(Book::read(path)?);
        books.insert(0, (path.to_path_buf(), len, modified, Arc::clone(&book)));
        books.truncate(SHARED_BOOKS);
        Ok(book)
    }
}

/// A move's place in square order (a1 first, passes last), for stable ties.
fn square_order(mv: Move) -> u8 {
    match mv {
        Move::Place(sq) => sq.index() as u8,
        Move::Pass => u8::MAX,
    }
}

/// The digest a book records of the evaluation weights that valued it: FNV-1a 64 of the
/// weights' file bytes.
///
/// # Errors
/// [`BookError::Weights`] when the weights cannot be encoded.
pub fn weights_digest(weights: &crate::Weights) -> Result<u64, BookError> {
    let bytes = weights
        .encode()
        .map_err(|e| BookError::Weights(e.to_string()))?;
    Ok(fnv1a64(&bytes))
}
