//! Game review by disc loss: for every move of a game, its value, the best move's value and
//! the discs it gave away, from a midgame search or, near the end, an exact or win/loss/draw
//! solve ([`Reviewer`]).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use yomi_core::{Game, Limits, Player};
use yomi_othello::{Move, Othello};
use yomi_othello_eval::Evaluator;

use crate::midgame::{MidgameSearch, RootValues, FINAL_SCALE};
use crate::solver::{Mode, SolveError, Solver, SolverConfig};

/// How the values of a position's moves were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// Solved: the exact final disc difference with perfect play by both sides.
    Exact,
    /// Solved for the result only: 1 (win), 0 (draw) or -1 (loss).
    Wld,
    /// A midgame search's estimate at this depth, in discs (a line that ended the game
    /// within the depth counts its final disc difference).
    Estimate {
        /// The depth the search completed.
        depth: u32,
    },
}

impl ValueKind {
    /// The kind's name in records: `exact`, `wld` or `estimate` (for `yomi analyse --json`
    /// and `--csv` and Python's `yomi.analyse`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Exact => "exact",
            ValueKind::Wld => "wld",
            ValueKind::Estimate { .. } => "estimate",
        }
    }

    /// The depth of an estimate, `None` for a solve.
    #[must_use]
    pub fn depth(self) -> Option<u32> {
        match self {
            ValueKind::Estimate { depth } => Some(depth),
            ValueKind::Exact | ValueKind::Wld => None,
        }
    }
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueKind::Exact => f.write_str("exact"),
            ValueKind::Wld => f.write_str("wld"),
            ValueKind::Estimate { depth } => write!(f, "depth {depth}"),
        }
    }
}

/// How a [`Reviewer`] values positions.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewConfig {
    /// The midgame search's depth, in plies (1 to 64).
    pub depth: u32,
    /// A time limit for each midgame position (the deepest completed depth then counts);
    /// `None` for none, so that the values depend only on the game.
    pub time: Option<Duration>,
    /// At this many empty squares or fewer, every move is solved exactly.
    pub exact: u32,
    /// At this many empty squares or fewer (and more than `exact`), every move is solved for
    /// win, draw or loss.
    pub wld: u32,
    /// Threads of each solve (the values never depend on it).
    pub threads: usize,
    /// The size of each table (the midgame search's and the solver's), in MiB.
    pub hash_mb: usize,
}

impl Default for ReviewConfig {
    /// Depth 10, no time limit, exact from 18 empties, no separate WLD stage, 1 thread,
    /// 64 MiB tables.
    fn default() -> ReviewConfig {
        ReviewConfig {
            depth: 10,
            time: None,
            exact: 18,
            wld: 18,
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// One move of a reviewed game. Values are from the side that moved, before its move: in
/// discs for [`ValueKind::Exact`] and [`ValueKind::Estimate`], 1 / 0 / -1 for
/// [`ValueKind::Wld`].
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The move's number in the game, from 1 (passes count).
    pub number: usize,
    /// Who played it.
    pub player: Player,
    /// Empty squares before it.
    pub empties: u32,
    /// The move played.
    pub played: Move,
    /// Its value.
    pub played_value: f64,
    /// The best move (the first in square order among equals).
    pub best: Move,
    /// The best move's value: the position's value for the side that moved.
    pub best_value: f64,
    /// What the move gave away: `best_value - played_value`, never negative (0 for the best
    /// move and for a forced one).
    pub loss: f64,
    /// How the values were found.
    pub kind: ValueKind,
    /// Whether the move was the only legal one (a pass, or a single move): valued by the
    /// position after it, with no loss.
    pub forced: bool,
}

/// A reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameReview {
    /// Every move, in order.
    pub moves: Vec<MoveReview>,
    /// The discs each side gave away in all ([`Player::First`], black, then white): the sum
    /// of its moves' losses where they are in discs (exact and estimated values; the losses
    /// of win/loss/draw solves are results, not discs, and are left out).
    pub loss: [f64; 2],
    /// The final disc difference for black where the game ended on the board.
    pub result: Option<i32>,
    /// Where the values are exact: the index in [`moves`](Self::moves) of the move that
    /// decided the game, the last move of the loser after which it could still have drawn or
    /// won (its best value at least 0, its move's value below 0). `None` for a draw, an
    /// unfinished game, or a loss decided where the values are estimates.
    pub decisive: Option<usize>,
}

/// Why a game cannot be reviewed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ReviewError {
    /// A move of the game is not legal where it is played.
    #[error("move {number} ({mv}) is not legal in {position}")]
    IllegalMove {
        /// The move's number, from 1.
        number: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        position: String,
    },
    /// The settings are out of range.
    #[error("{0}")]
    Config(String),
    /// The solver could not be made.
    #[error(transparent)]
    Solver(#[from] SolveError),
    /// A solve did not finish (only with a stop from outside: solves have no time limit).
    #[error("the {mode} solve of {position} did not finish")]
    Unsolved {
        /// The solve's mode.
        mode: Mode,
        /// The position.
        position: String,
    },
}

/// What is known of a position (not finished, with a choice of moves), from its side to move:
/// how its values are found, its best move and value, and the values found so far of other
/// moves.
#[derive(Clone, Debug, PartialEq)]
struct Known {
    kind: ValueKind,
    best: Move,
    value: f64,
    moves: Vec<(Move, f64)>,
}

/// Reviews games: values every move of a game, and the best move of its position, with a
/// midgame search (no ProbCut, so the values are the minimax values at the depth and those of
/// a position's moves are comparable) or a solve, and keeps what it found of each position so
/// that a position met again, in the same game or another, is not searched twice.
///
/// Only the played move and the best move are valued: the best by a search that proves the
/// best moves' values only ([`RootValues::Best`]; with a time limit or below depth 3, every
/// move's, [`RootValues::All`]) or a solve of the position, the played move, when it is not the
/// best, by a search of the position after it one ply shallower (the same value as a search
/// of every move would give it) or a solve of that position.
///
/// ```
/// use yomi_othello::{MoveSequence, Othello};
/// use yomi_othello_search::{ReviewConfig, Reviewer, Weights};
///
/// let config = ReviewConfig { depth: 2, ..ReviewConfig::default() };
/// let mut reviewer = Reviewer::new(config, Weights::builtin())?;
/// let line: MoveSequence = "f5 d6 c3".parse()?;
/// let review = reviewer.review(&Othello::new(), &line.0)?;
/// assert_eq!(review.moves.len(), 3);
/// assert!(review.moves.iter().all(|m| m.loss >= 0.0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Reviewer {
    config: ReviewConfig,
    midgame: MidgameSearch,
    solver: Solver,
    cache: HashMap<(u64, u64), Known>,
    hits: u64,
    searched: u64,
}

impl fmt::Debug for Reviewer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reviewer")
            .field("config", &self.config)
            .field("cached", &self.cache.len())
            .field("hits", &self.hits)
            .field("searched", &self.searched)
            .finish_non_exhaustive()
    }
}

/// A [`MidgameSearch`] score in discs, the one reading of its scores that game reviews, the
/// page's analysis and labels from search share: a line that ended the game within the depth
/// counts its final disc difference (a multiple of [`FINAL_SCALE`]), any other score is an
/// evaluation in hundredths of a disc.
#[must_use]
pub fn score_in_discs(score: i32) -> f64 {
    let (s, scale) = (f64::from(score), f64::from(FINAL_SCALE));
    if s.abs() >= scale / 2.0 {
        (s / scale).round()
    } else {
        s / 100.0
    }
}

impl Reviewer {
    /// A reviewer with these settings whose midgame search scores its leaves with
    /// `evaluator`.
    ///
    /// # Errors
    /// [`ReviewError::Config`] for a depth outside 1 to 64, `exact` above `wld`, or no
    /// thread; [`ReviewError::Solver`] when the solver's table cannot be made.
    pub fn new(
        config: ReviewConfig,
        evaluator: Arc<dyn Evaluator>,
    ) -> Result<Reviewer, ReviewError> {
        if !(1..=64).contains(&config.depth) {
            return Err(ReviewError::Config(format!(
                "the review depth must be 1 to 64, not {}",
                config.depth
            )));
        }
        if config.exact > config.wld {
            return Err(ReviewError::Config(format!(
                "exact solves start at {} empties, after the WLD solves at {}: exact must be at \
                 most wld",
                config.exact, config.wld
            )));
        }
        if config.threads == 0 {
            return Err(ReviewError::Config(
                "a review needs at least one thread".into(),
            ));
        }
        let solver = Solver::new(SolverConfig {
            threads: config.threads,
            hash_mb: config.hash_mb,
            ..SolverConfig::default()
        })?;
        let mut midgame = MidgameSearch::new(config.hash_mb, evaluator);
        midgame.set_root_values(RootValues::All);
        Ok(Reviewer {
            config,
            midgame,
            solver,
            cache: HashMap::new(),
            hits: 0,
            searched: 0,
        })
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ReviewConfig {
        &self.config
    }

    /// Positions answered from the reviewer's memory, and positions searched or solved, so
    /// far.
    #[must_use]
    pub fn cache_stats(&self) -> (u64, u64) {
        (self.hits, self.searched)
    }

    /// Reviews the game of `moves` played from `start` (passes may be given or left out
    /// where forced).
    ///
    /// # Errors
    /// [`ReviewError::IllegalMove`] for the first move that is not legal, naming its number;
    /// [`ReviewError::Unsolved`] if a solve did not finish.
    pub fn review(&mut self, start: &Othello, moves: &[Move]) -> Result<GameReview, ReviewError> {
        self.review_with(start, moves, |_| {})
    }

    /// [`review`](Self::review), calling `progress` with each move's number once it is valued.
    ///
    /// # Errors
    /// As [`review`](Self::review).
    pub fn review_with(
        &mut self,
        start: &Othello,
        moves: &[Move],
        mut progress: impl FnMut(usize),
    ) -> Result<GameReview, ReviewError> {
        let mut pos = *start;
        let mut reviews = Vec::with_capacity(moves.len());
        let mut given = moves.iter().copied().peekable();
        while let Some(&next) = given.peek() {
            let legal = pos.legal_moves();
            let number = reviews.len() + 1;
            // A forced pass the line leaves out.
            let mv = if legal.len() == 1 && legal[0] == Move::Pass && next != Move::Pass {
                Move::Pass
            } else {
                given.next();
                next
            };
            if !legal.contains(&mv) {
                return Err(ReviewError::IllegalMove {
                    number,
                    mv,
                    position: pos.to_string(),
                });
            }
            let empties = pos.empties().count();
            let player = pos.side_to_move();
            let review = if legal.len() == 1 {
                // Valued by what follows it (the next position is reviewed anyway).
                let (after, kind) = self.position_value(&pos.play_unchecked(mv))?;
                MoveReview {
                    number,
                    player,
                    empties,
                    played: mv,
                    played_value: -after,
                    best: mv,
                    best_value: -after,
                    loss: 0.0,
                    kind,
                    forced: true,
                }
            } else {
                let (best, best_value, kind) = self.best(&pos)?;
                let played_value = self.move_value(&pos, mv)?;
                MoveReview {
                    number,
                    player,
                    empties,
                    played: mv,
                    played_value,
                    best,
                    best_value,
                    loss: (best_value - played_value).max(0.0),
                    kind,
                    forced: false,
                }
            };
            progress(number);
            reviews.push(review);
            pos = pos.play_unchecked(mv);
        }
        let result = pos
            .is_over()
            .then(|| pos.final_score_for_mover() * pos.side_to_move().sign());
        let mut loss = [0.0; 2];
        for m in &reviews {
            if m.kind != ValueKind::Wld {
                loss[usize::from(m.player == Player::Second)] += m.loss;
            }
        }
        let decisive = result.and_then(|r| {
            let loser = match r.signum() {
                1 => Player::Second,
                -1 => Player::First,
                _ => return None,
            };
            reviews.iter().rposition(|m| {
                m.player == loser
                    && !m.forced
                    && matches!(m.kind, ValueKind::Exact | ValueKind::Wld)
                    && m.best_value >= 0.0
                    && m.played_value < 0.0
            })
        });
        Ok(GameReview {
            moves: reviews,
            loss,
            result,
            decisive,
        })
    }

    /// The value of `pos` for its side to move and how it was found: the final disc
    /// difference of a finished game, the best move's value, or, with a single legal move,
    /// the value after it.
    fn position_value(&mut self, pos: &Othello) -> Result<(f64, ValueKind), ReviewError> {
        if pos.is_over() {
            return Ok((f64::from(pos.final_score_for_mover()), ValueKind::Exact));
        }
        let legal = pos.legal_moves();
        if legal.len() == 1 {
            let (after, kind) = self.position_value(&pos.play_unchecked(legal[0]))?;
            return Ok((-after, kind));
        }
        let (_, value, kind) = self.best(pos)?;
        Ok((value, kind))
    }

    /// How a position with `empties` empty squares is valued (the depth of an estimate is
    /// the configured one).
    fn kind_at(&self, empties: u32) -> ValueKind {
        if empties <= self.config.exact {
            ValueKind::Exact
        } else if empties <= self.config.wld {
            ValueKind::Wld
        } else {
            ValueKind::Estimate {
                depth: self.config.depth,
            }
        }
    }

    /// The solver's mode for `kind`, `None` for an estimate.
    fn mode(kind: ValueKind) -> Option<Mode> {
        match kind {
            ValueKind::Exact => Some(Mode::Exact),
            ValueKind::Wld => Some(Mode::Wld),
            ValueKind::Estimate { .. } => None,
        }
    }

    /// The value of a finished game for its side to move, as `kind` counts it.
    fn final_value(pos: &Othello, kind: ValueKind) -> f64 {
        let score = pos.final_score_for_mover();
        f64::from(if kind == ValueKind::Wld {
            score.signum()
        } else {
            score
        })
    }

    /// A solve of `pos` in `mode`: its value and best move.
    fn solve(&mut self, pos: &Othello, mode: Mode) -> Result<(i32, Option<Move>), ReviewError> {
        let s = self.solver.solve(pos, mode);
        if s.lower != s.upper {
            return Err(ReviewError::Unsolved {
                mode,
                position: pos.to_string(),
            });
        }
        Ok((s.score, s.best))
    }

    /// The best move of `pos` (not finished, with a choice of moves), its value and how it was
    /// found, from memory or searched.
    fn best(&mut self, pos: &Othello) -> Result<(Move, f64, ValueKind), ReviewError> {
        let key = (pos.player().bits(), pos.opponent().bits());
        if let Some(k) = self.cache.get(&key) {
            self.hits += 1;
            return Ok((k.best, k.value, k.kind));
        }
        self.searched += 1;
        let kind = self.kind_at(pos.empties().count());
        let known = if let Some(mode) = Self::mode(kind) {
            let (score, best) = self.solve(pos, mode)?;
            let best = best.expect("a position with moves has a best move");
            Known {
                kind,
                best,
                value: f64::from(score),
                moves: vec![(best, f64::from(score))],
            }
        } else {
            let mut limits = Limits::none();
            limits.time = self.config.time;
            let all = self.config.time.is_some() || self.config.depth < 3;
            self.midgame.set_root_values(if all {
                RootValues::All
            } else {
                RootValues::Best
            });
            let r = self.midgame.search_limited(pos, self.config.depth, &limits);
            let kind = if r.exact {
                ValueKind::Exact
            } else {
                ValueKind::Estimate { depth: r.depth }
            };
            let mut best = r.scores[0];
            for s in &r.scores[1..] {
                if s.score > best.score {
                    best = *s;
                }
            }
            Known {
                kind,
                best: best.mv,
                value: score_in_discs(best.score),
                moves: r
                    .scores
                    .iter()
                    .filter(|s| s.exact)
                    .map(|s| (s.mv, score_in_discs(s.score)))
                    .collect(),
            }
        };
        let out = (known.best, known.value, known.kind);
        self.cache.insert(key, known);
        Ok(out)
    }

    /// The value of the legal move `mv` of `pos` (whose best move is known), as `pos`'s values
    /// count it: from memory, or by a search (one ply shallower) or a solve of the position
    /// after it.
    fn move_value(&mut self, pos: &Othello, mv: Move) -> Result<f64, ReviewError> {
        let key = (pos.player().bits(), pos.opponent().bits());
        let known = &self.cache[&key];
        if let Some(&(_, v)) = known.moves.iter().find(|(m, _)| *m == mv) {
            return Ok(v);
        }
        let kind = known.kind;
        let child = pos.play_unchecked(mv);
        let value = if child.is_over() {
            -Self::final_value(&child, kind)
        } else if let Some(mode) = Self::mode(kind) {
            let (score, best) = self.solve(&child, mode)?;
            // The solve is the child's own review where the child is valued the same way
            // (and has a choice of moves): remembered for the next move.
            let child_key = (child.player().bits(), child.opponent().bits());
            if let Some(best) = best.filter(|_| {
                self.kind_at(child.empties().count()) == kind && child.legal_moves().len() > 1
            }) {
                self.cache.entry(child_key).or_insert(Known {
                    kind,
                    best,
                    value: f64::from(score),
                    moves: vec![(best, f64::from(score))],
                });
            }
            -f64::from(score)
        } else {
            // The search of `pos` would have searched `child` one ply shallower (a pass does
            // not use up a ply). Its depth is at least 3 here: shallower reviews and timed
            // ones value every move in `best`.
            let ValueKind::Estimate { depth } = kind else {
                unreachable!("an exact midgame search values every move")
            };
            let d = if mv == Move::Pass { depth } else { depth - 1 };
            self.midgame.set_root_values(RootValues::Best);
            let r = self.midgame.search_limited(&child, d, &Limits::none());
            let best = r.best_score().expect("an unfinished position has a move");
            -score_in_discs(best)
        };
        self.cache
            .get_mut(&key)
            .expect("known above")
            .moves
            .push((mv, value));
        Ok(value)
    }
}
