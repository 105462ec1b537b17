//! The endgame solver: negamax alpha-beta with null-window searches (PVS) to the end of the
//! game, in exact or win/loss/draw mode. `docs/solver.md` describes every technique and what it
//! saves.
//!
//! # Layers, by the number of empty squares `e`
//! - `e >= TABLE_MIN`: [`Search::deep`]: stability cutoff, transposition table, enhanced
//!   transposition cutoff (from `ETC_MIN`), ordering by the table's move then fastest first
//!   (by a shallow evaluation search from `SHALLOW_MIN` empties), PVS; in a parallel solve
//!   the moves after the first run on all threads (young brothers wait, from `split_min`).
//! - `5 <= e < TABLE_MIN`: [`Search::mid`]: stability cutoff, no table; fastest-first from
//!   `MOBILITY_MIN` empties, parity order below.
//! - `e <= 4`: [`Search::small`] (3-4) and [`Search::small2`] walk the empty squares, odd
//!   quadrants first, and try each (no move generation); [`Search::last1`] counts the final
//!   flips directly.
//!
//! An exact solve first solves WLD, then finds the exact score inside the half of the score
//! range that is left by null-window probes ("is the score at least v?"): galloping away from
//! the proved bound (2, 4, 8, ... discs), then bisecting. A null-window search only proves a
//! bound, and a bound far from a subtree's value is cheap to prove (often by the stability
//! cutoff alone); an open window at the root instead asks for the exact value of every
//! subtree on the principal variation, which explodes in positions such as FFO #59 (a +64
//! wipeout, where proving exact values of +40-ish lines costs far more than proving `>= 64`).
//!
//! From 20 empties on, an exact solve first runs selective passes (ProbCut with the learned
//! evaluation at four margins, from 1.5 to 12 discs): their best moves order the proof and
//! their score is its guess, but their bounds are tagged in the table and never used by it.
//!
//! A solve runs under [`Limits`] (time, nodes, a stop flag); a stopped solve returns the
//! bounds it proved and the best move known.
//!
//! Every score is a bound on the exact final disc difference (empties to the winner) from the
//! side to move: a result `v` of a search with window `(alpha, beta)` means the score is at most
//! `v` when `v <= alpha`, at least `v` when `v >= beta`, and exactly `v` in between. The table
//! stores such bounds, which is why exact and WLD solves can share it.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use yomi_core::{Game, Limits, StopReason, Watch};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Bitboard, Move, Othello, Square};

use crate::bits::{final_score, flips, moves, CORNERS};
use crate::midgame::{MidgameSearch, FINAL_SCALE};
use crate::table::{hash, Entry, Table, NO_MOVE};
use crate::{Weights, EVAL_LIMIT};

/// From this many empties on, nodes use the transposition table.
const TABLE_MIN: u32 = 10;
/// From this many empties on, moves are ordered by the opponent's mobility (fastest first);
/// below, by parity.
const MOBILITY_MIN: u32 = 6;
/// From this many empties on, moves are ordered by a shallow search with an evaluation.
const SHALLOW_MIN: u32 = 12;
/// From this many empties on, the shallow ordering searches look 4 plies ahead (3 from 20
/// empties, 2 from 16, 1 from `SHALLOW_MIN`): FFO #40-#49 with the guess's hints, 1.87 G
/// nodes with 3 plies, 1.72 G with 4.
const SHALLOW_DEEPEST: u32 = 22;
/// Nodes on the principal variation (open windows) order their moves by a shallow search this
/// many plies deeper than other nodes.
const PV_EXTRA_DEPTH: u32 = 2;
/// In the shallow-search ordering, the weight of the opponent's weighted mobility after the
/// move, next to 64 times the shallow search's value: fastest-first keeps a say, as in the
/// strongest engines' ordering. It fixes FFO #59, where the evaluation alone prefers `h4`,
/// whose proof of +64 runs to the end of the game, to `e8`, a quick wipeout; on FFO #40-#44
/// it saves 11% of the nodes.
const SHALLOW_MOBILITY: i32 = 1024;
/// A node whose window asks for at least this score (`alpha >= WIPEOUT_ZONE`) orders by
/// fastest-first alone and ignores the table's move: such proofs are won by leaving the
/// opponent without moves and discs, which the shallow evaluation does not measure, and the
/// table's move comes from probes at lower scores, where another line may have been best.
const WIPEOUT_ZONE: i32 = 48;
/// From this many empties on, an exact solve starts from a guess at its score (`Features::guess`).
const GUESS_MIN: u32 = 22;
/// The guess's midgame search looks this many plies ahead at `e` empties: `e - GUESS_SHORT`
/// plies, at most `GUESS_DEPTH`.
const GUESS_SHORT: u32 = 16;
/// See `GUESS_SHORT`.
const GUESS_DEPTH: u32 = 10;
/// The guess may use at most 1/`GUESS_SHARE` of a limited solve's time and nodes.
const GUESS_SHARE: u32 = 8;
/// The first search from a guess `g` has the window `(g - GUESS_WINDOW, g + GUESS_WINDOW)`:
/// it settles a score within 2 discs of the guess (FFO #40-#49: 1.97 G nodes, against 2.10 G
/// with the window `(g - 1, g + 1)` and 2.13 G with `(g - 5, g + 5)`).
const GUESS_WINDOW: i32 = 3;
/// After the first search from a guess, the probes step by 2 discs this many times before
/// they gallop.
const GUESS_STEPS: u32 = 3;
/// The guess's midgame search leaves its best move, as a hint for the ordering
/// (`Features::hints`), in every position it searched at least this many plies deep:
/// near the root, where its deeper look beats the solver's shallow ordering searches (FFO
/// #46-#47: 728 M nodes without hints, 663 M with hints from 4 plies, 642 M from 7; from 2
/// plies, more nodes than without).
const HINT_DEPTH: u32 = 7;
/// From this many empties on, nodes look for an enhanced transposition cutoff.
const ETC_MIN: u32 = 11;
/// Above every score.
const INF: i32 = 127;

/// From this many empties on, an exact solve runs selective passes before its proof
/// (`Features::selective`).
const SELECTIVE_MIN: u32 = 20;
/// The selective passes' margins in hundredths of a disc, one pass each, in this order: a
/// ProbCut test cuts a node when a shallow search with the evaluation clears the window by the
/// margin. FFO #40-#49: 2.08 G nodes without passes, 1.42 G with these four; the last margin
/// decides #49 (12 discs 521 M nodes, 10 discs 849 M, 16 discs 559 M), and a fifth pass at 32
/// discs costs more than it saves (1.94 G with the margins 2 to 32 discs).
const SELECTIVE_MARGINS: [i32; 4] = [150, 300, 600, 1200];
/// From this many empties on, nodes of a selective pass try a ProbCut test (from 14: 1.68 G
/// nodes on #40-#49 against 1.57 G from 12, margins 2 to 16 discs).
const SELECTIVE_NODE_MIN: u32 = 12;
/// The depth of a ProbCut test's shallow search at `e` empties: `(e - 4) / 4` plies (2 at 12
/// empties, 4 at 20, 5 at 24-27). FFO #45-#49 with one pass at 4 discs: 1.74 G nodes with
/// `(e - 8) / 4` plies, 1.50 G with `(e - 4) / 4`, 1.66 G with `e / 4`.
#[inline]
const fn sel_depth(e: u32) -> u32 {
    let d = e.saturating_sub(4) / 4;
    if d == 0 {
        1
    } else {
        d
    }
}
/// A search reports its nodes to the [`Watch`] and checks the limits every this many nodes.
const POLL_EVERY: u64 = 4096;

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
    /// the value of a short midgame search with the learned evaluation (the built-in
    /// [`Weights`](crate::Weights)), then moves by 2 discs at a time (see `docs/solver.md`).
    pub guess: bool,
    /// With a guess (see `guess`): the best moves of the guess's midgame search, in the
    /// positions it searched deeply (near the root), go into the table as the moves to try
    /// first, with no bounds.
    pub hints: bool,
    /// An exact solve from `SELECTIVE_MIN` (20) empties on first solves the root in selective
    /// passes (ProbCut: a node is cut when a shallow search with the learned evaluation
    /// clears its window by a margin, 1.5, 3, 6, then 12 discs), which leave their best moves
    /// in the table and their score as the next search's guess; their bounds never enter the
    /// proof (see `docs/solver.md`). Needs the table.
    pub selective: bool,
}

impl Features {
    /// The names of the techniques, as [`Features::without`] takes them.
    pub const NAMES: [&'static str; 10] = [
        "table",
        "mobility",
        "shallow",
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
#[error("unknown solver technique `{0}` (expected one of: table, mobility, shallow, parity, stability, etc, wld-first, guess, hints, selective)")]
pub struct ParseFeatureError(pub String);

impl Default for Features {
    fn default() -> Features {
        Features {
            table: true,
            mobility_ordering: true,
            shallow_ordering: true,
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

/// How to build a [`Solver`].
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

/// Why a [`Solver`] could not be built.
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

/// The endgame solver: owns a transposition table (kept between solves, so repeated solves of
/// related positions get faster) and, for more than one thread, a thread pool.
pub struct Solver {
    table: Table,
    config: SolverConfig,
    pool: Option<rayon::ThreadPool>,
    date: u8,
    /// The midgame search that guesses an exact solve's score, made on first use.
    guesser: Option<MidgameSearch>,
    /// The evaluation of the selective passes.
    weights: Arc<Weights>,
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("config", &self.config)
            .field("table_entries", &self.table.capacity())
            .finish_non_exhaustive()
    }
}

impl Solver {
    /// A solver with this configuration.
    ///
    /// # Errors
    /// [`SolveError`] for a table size or thread count out of range, or threads that cannot
    /// start.
    pub fn new(config: SolverConfig) -> Result<Solver, SolveError> {
        if !(1..=16384).contains(&config.hash_mb) {
            return Err(SolveError::HashSize(config.hash_mb));
        }
        if !(1..=256).contains(&config.threads) {
            return Err(SolveError::Threads(config.threads));
        }
        let pool = if config.threads > 1 {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .build()
                    .map_err(|e| SolveError::ThreadPool(e.to_string()))?,
            )
        } else {
            None
        };
        let features = config.features;
        let hash_mb = if features.table { config.hash_mb } else { 0 };
        Ok(Solver {
            table: Table::new(hash_mb).ok_or(SolveError::OutOfMemory(hash_mb))?,
            config,
            pool,
            date: 0,
            guesser: None,
            weights: Weights::builtin(),
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The compiled copy of the search this solver runs ([`SolverConfig::cpu`]).
    #[must_use]
    pub fn cpu(&self) -> Cpu {
        self.config.cpu
    }

    /// Forgets what earlier solves stored (to measure a solve from scratch).
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Solves `pos` in `mode`: score, best move, principal variation, nodes and time. Runs
    /// until it finishes (see [`Solver::solve_limited`] for a solve that can be stopped).
    pub fn solve(&mut self, pos: &Othello, mode: Mode) -> Solution {
        self.solve_limited(pos, mode, &Limits::none())
    }

    /// Solves `pos` in `mode` under `limits` (a time limit, a node budget, a stop flag). A
    /// solve stopped by a limit returns what it proved: [`Solution::stopped`] says why,
    /// [`Solution::lower`] and [`Solution::upper`] bound the score, [`Solution::best`] is the
    /// best move known and [`Solution::best_from`] how it was found; `score` is then the lower
    /// bound and the principal variation is the best move alone.
    pub fn solve_limited(&mut self, pos: &Othello, mode: Mode, limits: &Limits) -> Solution {
        self.solve_guessed(pos, mode, limits, None)
    }

    /// [`Solver::solve_limited`] with a guess at the score (a final disc difference from the
    /// side to move): an exact solve's first search is a window of 3 discs either side of the
    /// guess (instead of a win/loss/draw search), and the probes move from there by 2 discs, so
    /// a good guess saves the probes far from the score. `None`: the solver's own guess (see
    /// [`Features::guess`]). The result never depends on the guess, only the work.
    pub fn solve_guessed(
        &mut self,
        pos: &Othello,
        mode: Mode,
        limits: &Limits,
        guess: Option<i32>,
    ) -> Solution {
        let watch = limits.start();
        let (guess, guess_nodes) = match guess {
            Some(g) => (Some(g), 0),
            None => self.guess(pos, mode, limits),
        };
        self.date = self.date.wrapping_add(1);
        if guess_nodes > 0 && self.config.features.hints {
            self.seed_hints();
        }
        let (p, o) = (pos.player().0, pos.opponent().0);
        let nodes = AtomicU64::new(guess_nodes);
        let plan = RootPlan::new(mode, self.config.features.wld_first, guess);
        let passes: &[i32] = if mode == Mode::Exact
            && self.config.features.selective
            && self.config.features.table
            && pos.empties().count() >= SELECTIVE_MIN
        {
            &SELECTIVE_MARGINS
        } else {
            &[]
        };
        let wld_first = self.config.features.wld_first;
        let root = self.run(&watch, |search| {
            let mut plan = plan;
            // The selective passes: each solves the root with ProbCut cuts, leaving its best
            // moves in the table, and its score is the next search's guess. Only the proof
            // (pass 0) sets the result.
            for (i, &margin) in passes.iter().enumerate() {
                search.set_pass(i as u8 + 1, margin);
                let r = search.solve_root(p, o, plan);
                if search.aborted() {
                    break;
                }
                plan = RootPlan::new(mode, wld_first, Some(r.lower));
            }
            search.set_pass(0, 0);
            let r = search.solve_root(p, o, plan);
            nodes.fetch_add(search.nodes(), Ordering::Relaxed);
            r
        });
        let legal = pos.legal_moves();
        let forced = legal.len() == 1;
        let stopped = watch.reason();
        let (lower, upper) = (clamp(root.lower, mode), clamp(root.upper, mode));
        let (best, best_from) = match root.best {
            _ if forced => (legal.iter().next().copied(), BestFrom::Forced),
            None => (None, BestFrom::Forced),
            Some(mv) if root.proved => (Some(mv), BestFrom::Proof),
            Some(mv) => (Some(mv), BestFrom::Ordering),
        };
        let score = lower;
        let pv = match (stopped, best) {
            (None, _) => self.principal_variation(pos, score, best, mode, &nodes, &watch),
            (Some(_), Some(mv)) => vec![mv],
            (Some(_), None) => Vec::new(),
        };
        Solution {
            score,
            mode,
            best,
            pv,
            nodes: nodes.into_inner(),
            elapsed: watch.elapsed(),
            stopped,
            lower,
            upper,
            best_from,
        }
    }

    /// Seeds the table with the best moves of the guess's midgame search (positions it
    /// searched at least `HINT_DEPTH` plies deep that the table does not hold yet): bounds
    /// `[-64, 64]`, so they only order moves and never change a score.
    fn seed_hints(&self) {
        let Some(guesser) = &self.guesser else {
            return;
        };
        if !self.config.features.table {
            return;
        }
        for (p, o, best) in guesser.best_moves(HINT_DEPTH) {
            let key = hash(p, o);
            if self.table.probe(key).is_none() {
                self.table.store(
                    key,
                    Entry {
                        lower: -64,
                        upper: 64,
                        best,
                        empties: (64 - (p | o).count_ones()) as u8,
                        date: self.date,
                        sel: 0,
                    },
                );
            }
        }
    }

    /// The solver's own guess at the exact score of `pos` and the nodes it cost: the best value
    /// of a midgame search with the learned evaluation, `e - GUESS_SHORT` plies deep (at most
    /// `GUESS_DEPTH`) at `e` empties, within 1/`GUESS_SHARE` of `limits`; `None` in WLD
    /// mode, below `GUESS_MIN` empties, with the feature off, or when the position has no
    /// move.
    fn guess(&mut self, pos: &Othello, mode: Mode, limits: &Limits) -> (Option<i32>, u64) {
        let empties = pos.empties().count();
        if mode != Mode::Exact || !self.config.features.guess || empties < GUESS_MIN {
            return (None, 0);
        }
        let cpu = self.config.cpu;
        let guesser = self
            .guesser
            .get_or_insert_with(|| MidgameSearch::with_cpu(4, Weights::builtin(), cpu));
        // An eighth of the solve's time and node budget, and its stop flag: a limited
        // solve keeps most of its budget for the proof (the guess's nodes count in the
        // solve's total but not in its budget).
        let short = Limits {
            time: limits.time.map(|t| t / GUESS_SHARE),
            nodes: limits.nodes.map(|n| n / u64::from(GUESS_SHARE)),
            flag: limits.flag.clone(),
        };
        let depth = (empties - GUESS_SHORT).min(GUESS_DEPTH);
        let r = guesser.search_limited(pos, depth, &short);
        // The deepest iteration that completed (a limit may have stopped a deeper one).
        let guess = r.best_score().filter(|_| r.depth > 0).map(|v| {
            if r.exact {
                v / FINAL_SCALE
            } else {
                // Hundredths of a disc, rounded to the nearest disc.
                (v + 50 * v.signum()) / 100
            }
        });
        (guess, r.nodes)
    }

    /// The solved value of every legal move of `pos`, in the order of the legal moves (square
    /// index order); a lone [`Move::Pass`] when the mover must pass; empty when the game is
    /// over.
    pub fn move_values(&mut self, pos: &Othello, mode: Mode) -> Vec<MoveValue> {
        self.move_values_limited(pos, mode, &Limits::none())
    }

    /// [`Solver::move_values`] under `limits` shared by all the moves: once a limit stops the
    /// solve, the moves not yet finished keep the bounds proved so far
    /// ([`MoveValue::is_exact`] tells; `score` is then the lower bound).
    pub fn move_values_limited(
        &mut self,
        pos: &Othello,
        mode: Mode,
        limits: &Limits,
    ) -> Vec<MoveValue> {
        let watch = limits.start();
        self.date = self.date.wrapping_add(1);
        let plan = RootPlan::new(mode, self.config.features.wld_first, None);
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let child = pos.play_unchecked(mv);
                let (cp, co) = (child.player().0, child.opponent().0);
                let (r, nodes) = self.run(&watch, |search| {
                    let r = search.solve_root(cp, co, plan);
                    (r, search.nodes())
                });
                let (lower, upper) = (clamp(-r.upper, mode), clamp(-r.lower, mode));
                MoveValue {
                    mv,
                    score: lower,
                    nodes,
                    lower,
                    upper,
                }
            })
            .collect()
    }

    /// Runs `f` on a fresh [`Search`] over this solver's table under `watch`, inside the
    /// thread pool when there is one.
    fn run<R: Send>(
        &mut self,
        watch: &Watch,
        f: impl FnOnce(&mut (dyn RootSearch + Send)) -> R + Send,
    ) -> R {
        let mut search = self.search(watch, self.pool.is_some());
        match &self.pool {
            Some(pool) => pool.install(|| f(&mut *search)),
            None => f(&mut *search),
        }
    }

    /// A fresh search of one solve over this solver's table under `watch`, in the copy of the
    /// search this solver runs, splitting between threads when `parallel`.
    fn search<'s>(&'s self, watch: &'s Watch, parallel: bool) -> Box<dyn RootSearch + Send + 's> {
        #[cfg(target_arch = "x86_64")]
        if let Cpu::X86v3(token) = self.config.cpu {
            return x86v3::search(
                token,
                &self.table,
                &self.config,
                self.date,
                parallel,
                watch,
                &self.weights,
            );
        }
        portable::search(
            &self.table,
            &self.config,
            self.date,
            parallel,
            watch,
            &self.weights,
        )
    }

    /// A line from `pos` that keeps `score`: `best`, then at each step the first move whose
    /// value equals the score (the table's move first, then index order); cut short if
    /// `watch` stops.
    fn principal_variation(
        &mut self,
        pos: &Othello,
        score: i32,
        best: Option<Move>,
        mode: Mode,
        nodes: &AtomicU64,
        watch: &Watch,
    ) -> Vec<Move> {
        let Some(best) = best else {
            return Vec::new();
        };
        let mut search = self.search(watch, false);
        // Whether the mover's score in `pos` equals `target` (in this mode); `None` if the
        // search was stopped.
        let mut equals = |pos: &Othello, target: i32| -> Option<bool> {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let r = match mode {
                Mode::Exact => search.search(p, o, target - 1, target + 1) == target,
                Mode::Wld => clamp(search.search(p, o, -1, 1), Mode::Wld) == target,
            };
            (!search.aborted()).then_some(r)
        };
        let mut pv = vec![best];
        let mut pos = pos.play_unchecked(best);
        let mut score = -score;
        let table = &self.table;
        'line: while !pos.game_over() {
            // The table's best move first (the move the solve proved its bound with, whose
            // proof is stored), then the others in index order: a move in index order may
            // reach the score only by a proof far longer than the solve's own.
            let mut legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            let (p, o) = (pos.player().0, pos.opponent().0);
            if let Some(e) = table.probe(hash(p, o)) {
                let stored =
                    |m: &Move| matches!(m, Move::Place(sq) if sq.index() == usize::from(e.best));
                // A stable sort: the stored move first, the others in index order.
                legal.sort_by_key(|m| !stored(m));
            }
            for &mv in &legal {
                let child = pos.play_unchecked(mv);
                // A forced pass keeps the score without a search.
                let keeps = mv == Move::Pass || {
                    match equals(&child, -score) {
                        Some(keeps) => keeps,
                        None => break 'line,
                    }
                };
                if keeps {
                    pv.push(mv);
                    pos = child;
                    score = -score;
                    continue 'line;
                }
            }
            // Unreachable when the score is right; stop rather than loop.
            break;
        }
        nodes.fetch_add(search.nodes(), Ordering::Relaxed);
        pv
    }
}

/// How a root solve starts and moves (see `Search::solve_root`).
#[derive(Clone, Copy, Debug)]
struct RootPlan {
    /// The mode solved.
    mode: Mode,
    /// The first search, `(c, half)` for the window `(c - half, c + half)` around an even
    /// score `c`; `None` for none (an exact solve without WLD first: the probes start at 0).
    first: Option<(i32, i32)>,
    /// Whether the probes after the first search step by 2 discs `GUESS_STEPS` times before
    /// they gallop (after a search around a guess), instead of galloping at once.
    stepping: bool,
}

impl RootPlan {
    /// The plan of a solve in `mode`: around the `guess` in an exact solve that has one
    /// (the window `(g - GUESS_WINDOW, g + GUESS_WINDOW)`, `g` rounded up to even); else the
    /// WLD window `(-1, 1)` in WLD mode or when `wld_first`, or no first search.
    fn new(mode: Mode, wld_first: bool, guess: Option<i32>) -> RootPlan {
        let (first, stepping) = match (mode, guess) {
            (Mode::Exact, Some(g)) => (Some((even_up(g).clamp(-64, 64), GUESS_WINDOW)), true),
            (Mode::Exact, None) if !wld_first => (None, false),
            _ => (Some((0, 1)), false),
        };
        RootPlan {
            mode,
            first,
            stepping,
        }
    }
}

/// What a root solve proved.
#[derive(Clone, Copy, Debug)]
struct RootResult {
    /// The score is at least this...
    lower: i32,
    /// ...and at most this (equal when solved).
    upper: i32,
    /// The best move known.
    best: Option<Move>,
    /// Whether `best` was proved to reach `lower`.
    proved: bool,
}

/// The smallest even number at least `v` (scores are always even).
fn even_up(v: i32) -> i32 {
    v + (v & 1)
}

/// The largest even number at most `v`.
fn even_down(v: i32) -> i32 {
    v - (v & 1)
}

/// A search result as the mode reports it.
fn clamp(score: i32, mode: Mode) -> i32 {
    match mode {
        Mode::Exact => score,
        Mode::Wld => score.signum(),
    }
}

/// The quadrant (0..4) of a square index.
#[inline(always)]
fn quadrant(sq: u32) -> u32 {
    (sq >> 2 & 1) | (sq >> 4 & 2)
}

/// Bit `q` set when quadrant `q` holds an odd number of `empty` squares.
#[inline(always)]
fn parity(empty: u64) -> u32 {
    const Q: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut bits = 0;
    for (q, mask) in Q.iter().enumerate() {
        bits |= ((empty & mask).count_ones() & 1) << q;
    }
    bits
}

/// `NEIGHBOURS[sq]`: the up to 8 squares next to square index `sq`. A move flips nothing
/// unless one of them holds an opponent disc, which the last-empties code checks before
/// computing the flips.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    t[sq] |= 1 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};

/// The index of the candidate with the highest key among those whose bit is set in `left`
/// (not zero), the first of them on a tie: picking until `left` is empty visits the
/// candidates in the order [`sort`] would give them.
#[inline(always)]
fn next_best(list: &[Candidate], left: u32) -> usize {
    let mut bits = left;
    let mut best = bits.trailing_zeros() as usize;
    bits &= bits - 1;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if list[i].key > list[best].key {
            best = i;
        }
    }
    best
}

/// One move of a parallel split: its value and whether it is more than an upper bound at
/// most the shared score (`None` when the split stopped before it was searched).
type SplitResult = Option<(i32, bool)>;

/// A candidate move with its flips and ordering key (higher first).
#[derive(Clone, Copy, Default)]
struct Candidate {
    sq: u32,
    flips: u64,
    key: i32,
}

/// At most this many legal moves in any position (the known maximum is 33).
const MAX_MOVES: usize = 64;

/// Sorts the candidates by descending key (insertion sort: lists are short).
#[inline]
fn sort(list: &mut [Candidate]) {
    for i in 1..list.len() {
        let c = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].key < c.key {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = c;
    }
}

/// What [`Solver`] asks of a search, whichever compiled copy runs it.
trait RootSearch {
    /// See `Search::solve_root`.
    fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult;
    /// See `Search::search`.
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32;
    /// The nodes searched so far.
    fn nodes(&self) -> u64;
    /// Whether the solve's limits stopped it.
    fn aborted(&self) -> bool;
    /// See `Search::set_pass`.
    fn set_pass(&mut self, sel: u8, margin: i32);
}

/// The search compiled for the target's baseline: runs on every CPU.
mod portable {
    use super::*;

    crate::kernel::search_kernel!([#[inline(always)]] []);

    impl RootSearch for Search<'_> {
        fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult {
            Search::solve_root(self, p, o, plan)
        }
        fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            Search::search(self, p, o, alpha, beta)
        }
        fn nodes(&self) -> u64 {
            self.nodes
        }
        fn aborted(&self) -> bool {
            Search::aborted(self)
        }
        fn set_pass(&mut self, sel: u8, margin: i32) {
            Search::set_pass(self, sel, margin);
        }
    }

    /// A search of one solve (see `Search::new`).
    pub(super) fn search<'t>(
        table: &'t Table,
        config: &SolverConfig,
        date: u8,
        parallel: bool,
        watch: &'t Watch,
        eval: &'t Weights,
    ) -> Box<dyn RootSearch + Send + 't> {
        Box::new(Search::new(table, config, date, parallel, watch, eval))
    }
}

/// The search with every function compiled for x86-64 CPUs with AVX2, BMI1/2, POPCNT and
/// LZCNT (x86-64-v3 without the rest), entered only with an [`X86v3`] token.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86v3 {
    use super::*;
    // The AVX2 move generation and flips, in place of the portable ones.
    use yomi_othello::cpu::{flips_x86v3 as flips, moves_x86v3 as moves, X86v3};

    crate::kernel::search_kernel!(
        [#[inline] #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]]
        [#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]]
    );

    // SAFETY (every `unsafe` block below): the methods need only the CPU features they are
    // compiled with, and a `Search` of this module exists only through `search`, which takes
    // the token that proves this CPU has them (see the safety argument of
    // `yomi_othello::cpu`). The methods are safe code.
    impl RootSearch for Search<'_> {
        fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult {
            unsafe { Search::solve_root(self, p, o, plan) }
        }
        fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            unsafe { Search::search(self, p, o, alpha, beta) }
        }
        fn nodes(&self) -> u64 {
            self.nodes
        }
        fn aborted(&self) -> bool {
            unsafe { Search::aborted(self) }
        }
        fn set_pass(&mut self, sel: u8, margin: i32) {
            Search::set_pass(self, sel, margin);
        }
    }

    /// A search of one solve (see `Search::new`), made with the token.
    pub(super) fn search<'t>(
        _token: X86v3,
        table: &'t Table,
        config: &SolverConfig,
        date: u8,
        parallel: bool,
        watch: &'t Watch,
        eval: &'t Weights,
    ) -> Box<dyn RootSearch + Send + 't> {
        Box::new(Search::new(table, config, date, parallel, watch, eval))
    }
}

/// The empty squares next to the discs of `o`: where `p` may play later.
#[inline(always)]
fn potential(p: u64, o: u64) -> u32 {
    yomi_othello::potential_mobility(Bitboard(p), Bitboard(o))
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

    #[test]
    fn bad_configs_are_errors() {
        let config = |threads, hash_mb| SolverConfig {
            threads,
            hash_mb,
            ..SolverConfig::default()
        };
        assert_eq!(
            Solver::new(config(1, 0)).unwrap_err(),
            SolveError::HashSize(0)
        );
        assert_eq!(
            Solver::new(config(0, 1)).unwrap_err(),
            SolveError::Threads(0)
        );
        assert!(Solver::new(config(2, 1)).is_ok());
    }

    /// A selective pass's bounds never enter a proof: after a pass whose every ProbCut test
    /// cuts (a margin far below zero, so its values are nonsense), the proof over the same
    /// table still finds FFO #40's score (+38, 20 empties), in both copies of the search.
    #[test]
    fn a_selective_pass_never_changes_the_proof() {
        let pos: Othello = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
            .parse()
            .unwrap();
        let (p, o) = (pos.player().0, pos.opponent().0);
        for cpu in [Cpu::Portable, Cpu::detect()] {
            let mut solver = Solver::new(SolverConfig {
                cpu,
                ..SolverConfig::default()
            })
            .unwrap();
            let watch = Limits::none().start();
            let (broken, proved) = solver.run(&watch, |search| {
                search.set_pass(1, -100_000);
                let broken = search.solve_root(p, o, RootPlan::new(Mode::Exact, true, None));
                search.set_pass(0, 0);
                let plan = RootPlan::new(Mode::Exact, true, Some(broken.lower));
                (broken, search.solve_root(p, o, plan))
            });
            assert_ne!(broken.lower, 38, "the broken pass found the score");
            assert_eq!((proved.lower, proved.upper), (38, 38));
        }
    }

    #[test]
    fn quadrants_and_parity() {
        assert_eq!(quadrant(0), 0);
        assert_eq!(quadrant(7), 1);
        assert_eq!(quadrant(56), 2);
        assert_eq!(quadrant(63), 3);
        assert_eq!(parity(1 | 1 << 63 | 1 << 62), 0b0001);
    }

    #[test]
    fn neighbours_and_the_flip_shortcut() {
        assert_eq!(NEIGHBOURS[0], 1 << 1 | 1 << 8 | 1 << 9);
        assert_eq!(NEIGHBOURS[27].count_ones(), 8);
        assert_eq!(NEIGHBOURS.iter().map(|m| m.count_ones()).sum::<u32>(), 420);
        // Every square of random boards: the shortcut agrees with the full computation.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (p, o) = (
                x & 0x5555_5555_5555_5555,
                x.rotate_left(29) & 0xAAAA_AAAA_AAAA_AAAA,
            );
            let o = o & !p;
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(portable::flips_near(p, o, sq), flips(p, o, sq));
                }
            }
        }
    }
}
