//! What a solve is asked and what it answers: the mode, the techniques, the solver's
//! configuration, its errors and results.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;
use yomi_core::StopReason;
use yomi_othello::cpu::Cpu;
use yomi_othello::Move;

/// Which kind of solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The exact final disc difference.
    Exact,
    /// Only win, draw or loss: the score is 1, 0 or -1.
    Wld,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mode::Exact => "exact",
            Mode::Wld => "wld",
        })
    }
}

/// A mode name that is neither `exact` nor `wld`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown solve mode `{0}` (expected `exact` or `wld`)")]
pub struct ParseModeError(pub String);

impl FromStr for Mode {
    type Err = ParseModeError;

    fn from_str(s: &str) -> Result<Mode, ParseModeError> {
        match s.to_ascii_lowercase().as_str() {
            "exact" => Ok(Mode::Exact),
            "wld" => Ok(Mode::Wld),
            _ => Err(ParseModeError(s.to_string())),
        }
    }
}

/// The techniques a solve may use; each can be switched off to measure what it saves (all on
/// by default). The score never depends on them, only the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The transposition table.
    pub table: bool,
    /// Fastest-first ordering by the opponent's mobility.
    pub mobility_ordering: bool,
    /// Ordering by a shallow evaluation search far from the end.
    pub shallow_ordering: bool,
    /// From `LEARNED_ORDER_MIN` (14) empties on, the shallow ordering searches evaluate their
    /// leaves with the solver's own learned evaluation ([`solver_weights`](crate::solver_weights))
    /// instead of the cheap mobility evaluation (Othello 8x8 only; needs `shallow_ordering`).
    pub learned_ordering: bool,
    /// Parity ordering near the end (moves into regions with an odd number of empties first).
    pub parity: bool,
    /// The stability cutoff.
    pub stability: bool,
    /// Enhanced transposition cutoff: before searching a node's moves, look up the children
    /// in the table for one that already proves a cutoff.
    pub etc: bool,
    /// An exact solve first solves for win/loss/draw, then searches the remaining half of
    /// the score range (when it has no guess at the score, see `guess`).
    pub wld_first: bool,
    /// An exact solve from `GUESS_MIN` empties on starts its probes at a guess of the score:
    /// the value of a short midgame search with the solver's own learned evaluation
    /// ([`solver_weights`](crate::solver_weights)), then moves by 2 discs at a time (see
    /// `docs/solver.md`).
    pub guess: bool,
    /// With a guess (see `guess`): the best moves of the guess's midgame search, in the
    /// positions it searched deeply (near the root), go into the table as the moves to try
    /// first, with no bounds.
    pub hints: bool,
    /// An exact solve from `SELECTIVE_MIN` (20) empties on first solves the root in selective
    /// passes (ProbCut: a node is cut when a shallow search with the solver's own learned
    /// evaluation clears its window by a margin, 1.5, 3, 6, then 12 discs), which leave their best moves
    /// in the table and their score as the next search's guess; their bounds never enter the
    /// proof (see `docs/solver.md`). Needs the table.
    pub selective: bool,
}

impl Features {
    /// The names of the techniques, as [`Features::without`] takes them.
    pub const NAMES: [&'static str; 11] = [
        "table",
        "mobility",
        "shallow",
        "learned",
        "parity",
        "stability",
        "etc",
        "wld-first",
        "guess",
        "hints",
        "selective",
    ];

    /// These features with the technique called `name` (one of [`Features::NAMES`]) off.
    ///
    /// # Errors
    /// [`ParseFeatureError`] for an unknown name.
    pub fn without(mut self, name: &str) -> Result<Features, ParseFeatureError> {
        match name {
            "table" => self.table = false,
            "mobility" => self.mobility_ordering = false,
            "shallow" => self.shallow_ordering = false,
            "learned" => self.learned_ordering = false,
            "parity" => self.parity = false,
            "stability" => self.stability = false,
            "etc" => self.etc = false,
            "wld-first" => self.wld_first = false,
            "guess" => self.guess = false,
            "hints" => self.hints = false,
            "selective" => self.selective = false,
            _ => return Err(ParseFeatureError(name.to_string())),
        }
        Ok(self)
    }
}

/// A technique name that [`Features::without`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown solver technique `{0}` (expected one of: table, mobility, shallow, learned, parity, stability, etc, wld-first, guess, hints, selective)")]
pub struct ParseFeatureError(pub String);

impl Default for Features {
    fn default() -> Features {
        Features {
            table: true,
            mobility_ordering: true,
            shallow_ordering: true,
            learned_ordering: true,
            parity: true,
            stability: true,
            etc: true,
            wld_first: true,
            guess: true,
            hints: true,
            selective: true,
        }
    }
}

/// How to build a [`Solver`](super::Solver).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverConfig {
    /// Threads for a solve (1: single-threaded). The score never depends on it.
    pub threads: usize,
    /// The transposition table's size in MiB (1 to 16384).
    pub hash_mb: usize,
    /// The techniques used.
    pub features: Features,
    /// In a parallel solve, nodes with at least this many empties search their moves after
    /// the first on all threads.
    pub split_min: u32,
    /// Which compiled copy of the search runs (default: [`Cpu::detect`]): the search is
    /// compiled for the target's baseline and, on x86-64, for CPUs with AVX2, BMI1/2, POPCNT
    /// and LZCNT, which runs markedly faster (see `docs/benchmarks.md`). Node counts, scores
    /// and moves are the same whichever runs; only the speed differs.
    pub cpu: Cpu,
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            threads: 1,
            hash_mb: 64,
            features: Features::default(),
            split_min: 14,
            cpu: Cpu::detect(),
        }
    }
}

/// Why a [`Solver`](super::Solver) could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The table size is outside 1..=16384 MiB.
    #[error("hash size {0} MiB is out of range (1 to 16384)")]
    HashSize(usize),
    /// The memory for the table could not be allocated.
    #[error("cannot allocate a {0} MiB transposition table")]
    OutOfMemory(usize),
    /// The thread count is outside 1..=256.
    #[error("thread count {0} is out of range (1 to 256)")]
    Threads(usize),
    /// The thread pool could not be started.
    #[error("could not start the solver's threads: {0}")]
    ThreadPool(String),
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The score from the side to move: the exact final disc difference, or 1/0/-1 in
    /// [`Mode::Wld`].
    pub score: i32,
    /// The mode solved.
    pub mode: Mode,
    /// The best move ([`Move::Pass`] when the mover must pass); `None` when the game is over.
    pub best: Option<Move>,
    /// A principal variation to the end of the game (the first of the best moves at each step,
    /// in the solver's order); in WLD mode, a line that keeps the result.
    pub pv: Vec<Move>,
    /// Positions searched (including the shallow ordering searches).
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Why the solve stopped before it finished (`None`: it finished and `score` is exact).
    pub stopped: Option<StopReason>,
    /// The proved lower bound of the score (equal to `score` when solved).
    pub lower: i32,
    /// The proved upper bound of the score (equal to `score` when solved).
    pub upper: i32,
    /// How `best` was found.
    pub best_from: BestFrom,
}

/// How a [`Solution`]'s best move was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BestFrom {
    /// The solve proved that the move reaches the score (for a stopped solve: the lower
    /// bound).
    Proof,
    /// Nothing was proved about any move: the move the solver's ordering (the table, a
    /// shallow search, mobility) puts first.
    Ordering,
    /// The mover has no choice (a single legal move or a pass) or the game is over.
    Forced,
}

impl fmt::Display for BestFrom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BestFrom::Proof => "proved to reach the lower bound",
            BestFrom::Ordering => "first in the solver's move ordering (nothing proved yet)",
            BestFrom::Forced => "the only move",
        })
    }
}

impl Solution {
    /// Whether the solve finished (the score is exact, or the exact WLD result).
    #[must_use]
    pub fn is_solved(&self) -> bool {
        self.stopped.is_none()
    }

    /// Nodes per second of wall-clock time (0 when no time was measured).
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }
}

/// The solved value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Its score for the side to move (exact, or 1/0/-1 in WLD mode).
    pub score: i32,
    /// Nodes searched for it.
    pub nodes: u64,
    /// The proved lower bound (equal to `score` when solved).
    pub lower: i32,
    /// The proved upper bound (equal to `score` when solved).
    pub upper: i32,
}

impl MoveValue {
    /// Whether the value is exact (not stopped by a limit).
    #[must_use]
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_round_trip() {
        for mode in [Mode::Exact, Mode::Wld] {
            assert_eq!(mode.to_string().parse::<Mode>(), Ok(mode));
        }
        assert!("fast".parse::<Mode>().is_err());
    }
}
