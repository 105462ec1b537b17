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
use yomi_othello::{Bitboard, Move, Othello, Square};

use crate::bits::{final_score, flips, moves, CORNERS};
use crate::table::{hash, Entry, Table, NO_MOVE};

/// From this many empties on, nodes use the transposition table.
const TABLE_MIN: u32 = 10;
/// From this many empties on, moves are ordered by the opponent's mobility (fastest first);
/// below, by parity.
const MOBILITY_MIN: u32 = 6;
/// From this many empties on, moves are ordered by a shallow search with an evaluation.
const SHALLOW_MIN: u32 = 12;
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
/// From this many empties on, nodes look for an enhanced transposition cutoff.
const ETC_MIN: u32 = 11;
/// Above every score.
const INF: i32 = 127;
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
    /// the score range.
    pub wld_first: bool,
}

impl Features {
    /// The names of the techniques, as [`Features::without`] takes them.
    pub const NAMES: [&'static str; 7] = [
        "table",
        "mobility",
        "shallow",
        "parity",
        "stability",
        "etc",
        "wld-first",
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
            _ => return Err(ParseFeatureError(name.to_string())),
        }
        Ok(self)
    }
}

/// A technique name that [`Features::without`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown solver technique `{0}` (expected one of: table, mobility, shallow, parity, stability, etc, wld-first)")]
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
}

impl Default for SolverConfig {
    fn default() -> SolverConfig {
        SolverConfig {
            threads: 1,
            hash_mb: 64,
            features: Features::default(),
            split_min: 14,
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
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &SolverConfig {
        &self.config
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
        let watch = limits.start();
        self.date = self.date.wrapping_add(1);
        let (p, o) = (pos.player().0, pos.opponent().0);
        let nodes = AtomicU64::new(0);
        let wld_first = self.config.features.wld_first;
        let root = self.run(&watch, |search| {
            let r = search.solve_root(p, o, mode, wld_first);
            nodes.fetch_add(search.nodes, Ordering::Relaxed);
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
        let wld_first = self.config.features.wld_first;
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let child = pos.play_unchecked(mv);
                let (cp, co) = (child.player().0, child.opponent().0);
                let (r, nodes) = self.run(&watch, |search| {
                    let r = search.solve_root(cp, co, mode, wld_first);
                    (r, search.nodes)
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
    fn run<R: Send>(&mut self, watch: &Watch, f: impl FnOnce(&mut Search<'_>) -> R + Send) -> R {
        let mut search = Search::new(
            &self.table,
            &self.config,
            self.date,
            self.pool.is_some(),
            watch,
        );
        match &self.pool {
            Some(pool) => pool.install(|| f(&mut search)),
            None => f(&mut search),
        }
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
        let mut search = Search::new(&self.table, &self.config, self.date, false, watch);
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
        nodes.fetch_add(search.nodes, Ordering::Relaxed);
        pv
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

/// The opponent's mobility with corners counted twice: the fastest-first key.
#[inline(always)]
fn weighted_mobility(p: u64, o: u64) -> i32 {
    let m = moves(p, o);
    (m.count_ones() + (m & CORNERS).count_ones()) as i32
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

/// One thread's search: node count and access to the shared table.
struct Search<'t> {
    table: &'t Table,
    nodes: u64,
    features: Features,
    date: u8,
    parallel: bool,
    split_min: u32,
    /// The limits of the solve, shared by all its threads.
    watch: &'t Watch,
    /// The nodes already reported to `watch`.
    reported: u64,
    /// The node count at which to poll `watch` next.
    next_poll: u64,
    /// The stop flags of the parallel splits this search works under: when one is set (or
    /// the watch stops the solve), the work is no longer needed, and the search returns at
    /// once with a meaningless score that no caller uses or stores.
    stops: Vec<Arc<AtomicBool>>,
}

impl<'t> Search<'t> {
    /// A search of one solve over `table` under `watch`, splitting between threads when
    /// `parallel`.
    fn new(
        table: &'t Table,
        config: &SolverConfig,
        date: u8,
        parallel: bool,
        watch: &'t Watch,
    ) -> Search<'t> {
        Search {
            table,
            nodes: 0,
            features: config.features,
            date,
            parallel,
            split_min: config.split_min,
            watch,
            reported: 0,
            next_poll: POLL_EVERY,
            stops: Vec::new(),
        }
    }

    /// A search for another thread of a parallel split whose stop flag is `stop`.
    fn fork(&self, stop: &Arc<AtomicBool>) -> Search<'t> {
        let mut stops = self.stops.clone();
        stops.push(Arc::clone(stop));
        Search {
            nodes: 0,
            reported: 0,
            next_poll: POLL_EVERY,
            parallel: true,
            stops,
            ..*self
        }
    }

    /// Reports the nodes searched since the last poll to the watch, which checks the limits.
    #[cold]
    fn poll(&mut self) {
        self.watch.poll(self.nodes - self.reported);
        self.reported = self.nodes;
        self.next_poll = self.nodes + POLL_EVERY;
    }

    /// Solves the root: in [`Mode::Wld`] one search with the window `(-1, 1)`; in
    /// [`Mode::Exact`] (after that WLD search when `wld_first`) null-window probes "is the
    /// score at least v?" that narrow the proved range `[lower, upper]` until it is one
    /// score: galloping away from the proved bound by 2, 4, 8, ... discs, then bisecting once
    /// a probe has gone past the score. Stops early, keeping what it proved, when the watch
    /// stops the solve.
    fn solve_root(&mut self, p: u64, o: u64, mode: Mode, wld_first: bool) -> RootResult {
        if moves(p, o) == 0 && moves(o, p) == 0 {
            self.nodes += 1;
            let v = final_score(p, o);
            return RootResult {
                lower: v,
                upper: v,
                best: None,
                proved: true,
            };
        }
        let (mut lo, mut hi) = (-64, 64);
        // The best move proved to reach `lo`, and a fallback: the move the last search
        // preferred (the ordering's first when nothing is proved).
        let (mut proved, mut fallback) = (None, None);
        if mode == Mode::Wld || wld_first {
            let (v, mv) = self.root(p, o, -1, 1);
            fallback = mv;
            if !self.aborted() {
                if v >= 1 {
                    lo = even_up(v);
                    proved = mv;
                } else if v <= -1 {
                    hi = even_down(v);
                } else {
                    (lo, hi) = (0, 0);
                    proved = mv;
                }
            }
        }
        if mode == Mode::Exact {
            let (mut step, mut bisect) = (2, false);
            while lo < hi && !self.aborted() {
                let up = lo >= 0;
                let down = hi <= 0;
                let v = if !up && !down {
                    // The sign is unknown (no WLD solve first): is the score at least 0?
                    0
                } else if bisect {
                    lo + 2 * ((hi - lo + 2) / 4)
                } else if up {
                    (lo + step).min(hi)
                } else {
                    (hi - step + 2).max(lo + 2)
                };
                let (r, mv) = self.root(p, o, v - 1, v);
                if self.aborted() {
                    break;
                }
                fallback = mv;
                if r >= v {
                    lo = even_up(r).min(hi);
                    proved = mv;
                    // Galloping down went past the score: bisect what is left.
                    bisect |= down && !up;
                } else {
                    hi = even_down(r).max(lo);
                    bisect |= up && !down;
                }
                if up || down {
                    step *= 2;
                }
            }
        }
        let solved = lo == hi;
        RootResult {
            lower: lo,
            upper: hi,
            best: proved.or(fallback),
            proved: proved.is_some() || solved,
        }
    }

    /// The score of the position, searched with window `(alpha, beta)` (see the module docs).
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if empties >= TABLE_MIN || (self.parallel && empties >= self.split_min) {
            self.deep(p, o, alpha, beta)
        } else if empties > 4 {
            self.mid(p, o, alpha, beta)
        } else {
            self.small_entry(p, o, alpha, beta)
        }
    }

    /// The root: like [`Search::deep`] but returns the best move too.
    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                self.nodes += 1;
                return (final_score(p, o), None);
            }
            let (v, _) = self.root(o, p, -beta, -alpha);
            return (-v, Some(Move::Pass));
        }
        self.nodes += 1;
        let empties = 64 - (p | o).count_ones();
        let key = hash(p, o);
        let entry = if self.features.table {
            self.table.probe(key)
        } else {
            None
        };
        let mut list = [Candidate::default(); MAX_MOVES];
        let n = self.order(p, o, mv, entry, empties, true, alpha, &mut list);
        let list = &list[..n];
        let (best, best_sq) = self.pvs(p, o, alpha, beta, list, empties);
        if !self.aborted() {
            self.store(key, (alpha, beta), (best, best_sq), empties, entry);
        }
        (best, Some(Move::Place(Square::new(best_sq as u8))))
    }

    /// Stores a search result with window `(alpha, beta)`.
    #[inline]
    fn store(
        &self,
        key: u64,
        (alpha, beta): (i32, i32),
        (best, best_sq): (i32, u32),
        empties: u32,
        old: Option<Entry>,
    ) {
        if !self.features.table {
            return;
        }
        let (mut lower, mut upper) = if best <= alpha {
            (-64, best)
        } else if best >= beta {
            (best, 64)
        } else {
            (best, best)
        };
        let best_sq = best_sq as u8;
        if let Some(e) = old {
            // Bounds from earlier searches of the same position stay valid.
            lower = lower.max(i32::from(e.lower));
            upper = upper.min(i32::from(e.upper));
        }
        self.table.store(
            key,
            Entry {
                lower: lower.clamp(-64, 64) as i8,
                upper: upper.clamp(-64, 64) as i8,
                best: best_sq,
                empties: empties as u8,
                date: self.date,
            },
        );
    }

    /// Fills `list` with the moves in `mv`, sorted best first; returns how many. Nodes on the
    /// principal variation (`pv`) search deeper to order.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &mut self,
        p: u64,
        o: u64,
        mv: u64,
        entry: Option<Entry>,
        empties: u32,
        pv: bool,
        alpha: i32,
        list: &mut [Candidate; MAX_MOVES],
    ) -> usize {
        // A node that must prove a near-wipeout orders by fastest-first alone (see
        // `WIPEOUT_ZONE`).
        let zone = alpha >= WIPEOUT_ZONE;
        let tt_move = if zone {
            NO_MOVE
        } else {
            entry.map_or(NO_MOVE, |e| e.best)
        };
        let par = if self.features.parity {
            parity(!(p | o))
        } else {
            0
        };
        let shallow = self.features.shallow_ordering && empties >= SHALLOW_MIN && !zone;
        let depth = if empties >= 20 {
            3
        } else if empties >= 16 {
            2
        } else {
            1
        } + if pv { PV_EXTRA_DEPTH } else { 0 };
        let mut n = 0;
        let mut bits = mv;
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let f = flips(p, o, sq as usize);
            let (cp, co) = (o ^ f, p ^ f ^ 1 << sq);
            let mut key = 0;
            if shallow {
                key -= 64 * self.shallow(cp, co, -INF * 64, INF * 64, depth);
                key -= SHALLOW_MOBILITY * weighted_mobility(cp, co);
            } else if self.features.mobility_ordering {
                key -= 1024 * weighted_mobility(cp, co);
                key += 64 * i32::from(CORNERS & 1 << sq != 0);
                key -= 16 * potential(co, cp) as i32;
            }
            if par & 1 << quadrant(sq) != 0 {
                key += 64;
            }
            if f == o {
                // A wipeout ends the game at +64: nothing is better.
                key = i32::MAX - 1;
            }
            if sq as u8 == tt_move {
                key = i32::MAX;
            }
            list[n] = Candidate { sq, flips: f, key };
            n += 1;
        }
        sort(&mut list[..n]);
        n
    }

    /// Principal variation search over the ordered `list` with window `(alpha, beta)`; returns
    /// the best score and move. In a parallel solve, once the first move has been searched and
    /// has not cut off, a node with at least `split_min` empties searches the others on all
    /// threads (young brothers wait).
    fn pvs(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        list: &[Candidate],
        empties: u32,
    ) -> (i32, u32) {
        let first = list[0];
        let (cp, co) = (o ^ first.flips, p ^ first.flips ^ 1 << first.sq);
        let mut best = -self.search(cp, co, -beta, -alpha);
        let mut best_sq = first.sq;
        if self.aborted() {
            return (0, best_sq);
        }
        if best > alpha {
            alpha = best;
            if alpha >= beta {
                return (best, best_sq);
            }
        }
        let rest = &list[1..];
        if self.parallel && empties >= self.split_min && rest.len() > 1 {
            return self.pvs_parallel(p, o, alpha, beta, rest, best, best_sq);
        }
        for c in rest {
            let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
            let mut v = -self.search(cp, co, -alpha - 1, -alpha);
            if v > alpha && v < beta {
                v = -self.search(cp, co, -beta, -v);
            }
            if self.aborted() {
                return (0, best_sq);
            }
            if v > best {
                best = v;
                best_sq = c.sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best, best_sq)
    }

    /// The moves after the first, on all threads. Each move gets a null-window test against
    /// the best score found so far at this node (shared between the threads); a move that
    /// fails high is searched again at once with the full window and raises the shared score.
    /// A move that reaches beta stops the others. The score is the same as a sequential
    /// search's: every value is either an upper bound at most the final best or searched with
    /// the full window.
    #[allow(clippy::too_many_arguments)]
    fn pvs_parallel(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        rest: &[Candidate],
        mut best: i32,
        mut best_sq: u32,
    ) -> (i32, u32) {
        use rayon::prelude::*;
        let shared_alpha = AtomicI32::new(alpha);
        // Set when a move proves a cutoff: the others are then not needed.
        let stop = Arc::new(AtomicBool::new(false));
        let this: &Search<'_> = self;
        let results: Vec<(SplitResult, (u64, u64))> = rest
            .par_iter()
            .map(|c| {
                let mut search = this.fork(&stop);
                if search.aborted() {
                    return (None, (0, 0));
                }
                let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                let a = shared_alpha.load(Ordering::Relaxed);
                let mut v = -search.search(cp, co, -a - 1, -a);
                // Whether `v` is more than an upper bound at most the shared score.
                let mut above = v > a;
                if v > a && v < beta && !search.aborted() {
                    // Failed high: a lower bound only. Search it with the full window from
                    // the best score now known (another move may have raised it).
                    let a = shared_alpha.load(Ordering::Relaxed).max(a);
                    if a >= beta {
                        return (None, (search.nodes, search.reported));
                    }
                    v = -search.search(cp, co, -beta, -a);
                    above = v > a;
                }
                if search.aborted() {
                    return (None, (search.nodes, search.reported));
                }
                if above {
                    shared_alpha.fetch_max(v.min(beta), Ordering::Relaxed);
                }
                if v >= beta {
                    stop.store(true, Ordering::Relaxed);
                }
                (Some((v, above)), (search.nodes, search.reported))
            })
            .collect();
        // The forks' nodes count here; what they had not reported yet is reported now.
        let (forked, unreported) = results
            .iter()
            .fold((0, 0), |(n, u), &(_, (fn_, fr))| (n + fn_, u + fn_ - fr));
        self.watch.poll(unreported);
        self.nodes += forked;
        self.reported += forked;
        if self.aborted() {
            return (0, best_sq);
        }
        // A move that proved a cutoff settles the node (the first such in order).
        if let Some((c, v)) = rest
            .iter()
            .zip(&results)
            .find_map(|(c, &(r, _))| r.filter(|&(v, _)| v >= beta).map(|(v, _)| (c, v)))
        {
            return (v, c.sq);
        }
        // The best move is the first with the highest value searched for real; a move known
        // only to be at most the shared score can raise the returned bound (when the whole
        // node fails low) but is never the best move.
        let mut bound = best;
        for (c, &(result, _)) in rest.iter().zip(&results) {
            let (v, above) = match result {
                Some(r) => r,
                // Stopped without a cutoff found (cannot happen: only a cutoff stops the
                // moves); search it here rather than trust nothing.
                None => {
                    let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                    let v = -self.search(cp, co, -beta, -alpha.max(best));
                    if self.aborted() {
                        return (0, best_sq);
                    }
                    (v, true)
                }
            };
            if above && v > best {
                best = v;
                best_sq = c.sq;
            }
            bound = bound.max(v);
        }
        (best.max(bound), best_sq)
    }

    /// Whether a parallel split this search works under no longer needs its result.
    #[inline(always)]
    fn aborted(&self) -> bool {
        self.watch.stopped() || self.stops.iter().any(|s| s.load(Ordering::Relaxed))
    }

    /// The stability cutoff: a bound that already settles the window, if any.
    #[inline(always)]
    fn stability_cut(&self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        if !self.features.stability {
            return None;
        }
        // The opponent's stable discs M cap the score at 64 - 2M; only worth computing when
        // its disc count could reach the cut.
        if 64 - 2 * o.count_ones() as i32 <= alpha {
            let m = yomi_othello::stable_discs(Bitboard(o), Bitboard(p)).count() as i32;
            let upper = 64 - 2 * m;
            if upper <= alpha {
                return Some(upper);
            }
        }
        if 2 * p.count_ones() as i32 - 64 >= beta {
            let s = yomi_othello::stable_discs(Bitboard(p), Bitboard(o)).count() as i32;
            let lower = 2 * s - 64;
            if lower >= beta {
                return Some(lower);
            }
        }
        None
    }

    /// A node with the transposition table.
    fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        if self.aborted() {
            return 0;
        }
        if let Some(v) = self.stability_cut(p, o, alpha, beta) {
            return v;
        }
        let empties = 64 - (p | o).count_ones();
        let key = hash(p, o);
        let entry = if self.features.table {
            self.table.probe(key)
        } else {
            None
        };
        if let Some(e) = entry {
            let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.deep(o, p, -beta, -alpha);
        }
        // Enhanced transposition cutoff: a child whose stored upper bound already proves a
        // score of at least beta for the mover settles the node.
        if self.features.table && self.features.etc && empties >= ETC_MIN {
            let mut bits = mv;
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                let f = flips(p, o, sq as usize);
                if let Some(e) = self.table.probe(hash(o ^ f, p ^ f ^ 1 << sq)) {
                    let v = -i32::from(e.upper);
                    if v >= beta {
                        self.store(key, (alpha, beta), (v, sq), empties, entry);
                        return v;
                    }
                }
            }
        }
        let mut list = [Candidate::default(); MAX_MOVES];
        let n = self.order(p, o, mv, entry, empties, beta - alpha > 1, alpha, &mut list);
        let (best, best_sq) = self.pvs(p, o, alpha, beta, &list[..n], empties);
        if self.aborted() {
            return 0;
        }
        self.store(key, (alpha, beta), (best, best_sq), empties, entry);
        best
    }

    /// A node between 5 empties and the table: no table, fastest-first or parity order.
    fn mid(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if let Some(v) = self.stability_cut(p, o, alpha, beta) {
            return v;
        }
        let empty = !(p | o);
        let empties = empty.count_ones();
        debug_assert!(empties < TABLE_MIN);
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.mid(o, p, -beta, -alpha);
        }
        let par = if self.features.parity {
            parity(empty)
        } else {
            0
        };
        // At most one move per empty square, and `mid` has fewer than `TABLE_MIN` of them: a
        // short list is cheaper to set up than a full one.
        let mut list = [Candidate::default(); TABLE_MIN as usize];
        let mut n = 0;
        let mut bits = mv;
        let by_mobility = self.features.mobility_ordering && empties >= MOBILITY_MIN;
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let f = flips(p, o, sq as usize);
            let mut key = 0;
            if by_mobility {
                key -= 16 * weighted_mobility(o ^ f, p ^ f ^ 1 << sq);
            }
            if par & 1 << quadrant(sq) != 0 {
                key += 8;
            }
            list[n] = Candidate { sq, flips: f, key };
            n += 1;
        }
        let list = &mut list[..n];
        sort(list);
        let mut best = -INF;
        for c in list.iter() {
            let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
            let v = if empties - 1 > 4 {
                -self.mid(cp, co, -beta, -alpha)
            } else {
                -self.small_entry(cp, co, -beta, -alpha)
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Enters the last-4 code: lists the empty squares, those in odd quadrants first.
    fn small_entry(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(p | o);
        let mut squares = [0u8; 4];
        let mut n = 0;
        let par = if self.features.parity {
            parity(empty)
        } else {
            0
        };
        // Odd quadrants first, then the rest, each in index order.
        for odd in [true, false] {
            let mut bits = empty;
            while bits != 0 {
                let sq = bits.trailing_zeros();
                bits &= bits - 1;
                if (par & 1 << quadrant(sq) != 0) == odd {
                    squares[n] = sq as u8;
                    n += 1;
                }
            }
        }
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => self.last1(p, o, squares[0] as usize),
            2 => self.small2(p, o, alpha, beta, squares[0] as usize, squares[1] as usize),
            _ => self.small(p, o, alpha, beta, &squares[..n]),
        }
    }

    /// Three or four empties, listed in `squares`: tries each square, no move generation.
    fn small(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, squares: &[u8]) -> i32 {
        self.nodes += 1;
        let n = squares.len();
        let mut best = -INF;
        for i in 0..n {
            let sq = squares[i] as usize;
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            let mut rest = [0u8; 4];
            let mut k = 0;
            for (j, &s) in squares.iter().enumerate() {
                if j != i {
                    rest[k] = s;
                    k += 1;
                }
            }
            let (cp, co) = (o ^ f, p ^ f ^ 1 << sq);
            let v = if k == 2 {
                -self.small2(cp, co, -beta, -alpha, rest[0] as usize, rest[1] as usize)
            } else {
                -self.small(cp, co, -beta, -alpha, &rest[..k])
            };
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        return best;
                    }
                }
            }
        }
        if best > -INF {
            return best;
        }
        // No move: pass if the opponent has one, else the game is over.
        if squares.iter().any(|&s| flips(o, p, s as usize) != 0) {
            -self.small(o, p, -beta, -alpha, squares)
        } else {
            final_score(p, o)
        }
    }

    /// Two empties, `a` and `b`.
    fn small2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: usize, b: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let f = flips(p, o, a);
        if f != 0 {
            best = -self.last1(o ^ f, p ^ f ^ 1 << a, b);
            if best >= beta {
                return best;
            }
        }
        let f = flips(p, o, b);
        if f != 0 {
            let v = -self.last1(o ^ f, p ^ f ^ 1 << b, a);
            best = best.max(v);
        }
        if best > -INF {
            return best;
        }
        // No move: pass if the opponent has one, else the game is over.
        if flips(o, p, a) | flips(o, p, b) != 0 {
            -self.small2(o, p, -beta, -alpha, a, b)
        } else {
            final_score(p, o)
        }
    }

    /// The last empty square: the exact final score.
    #[inline]
    fn last1(&mut self, p: u64, o: u64, sq: usize) -> i32 {
        self.nodes += 1;
        let pc = p.count_ones() as i32;
        let f = flips(p, o, sq).count_ones() as i32;
        if f > 0 {
            return 2 * (pc + f + 1) - 64;
        }
        let f = flips(o, p, sq).count_ones() as i32;
        if f > 0 {
            return 2 * (pc - f) - 64;
        }
        // Neither side can play: 63 discs, the empty square goes to the winner.
        let diff = 2 * pc - 63;
        diff + diff.signum()
    }

    /// A shallow alpha-beta search with [`order_eval`] at the leaves, for move ordering.
    fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, depth: u32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return order_eval(p, o);
        }
        let mv = moves(p, o);
        if mv == 0 {
            if moves(o, p) == 0 {
                return 64 * 64 * final_score(p, o).signum() + final_score(p, o);
            }
            return -self.shallow(o, p, -beta, -alpha, depth);
        }
        let mut best = -INF * 64;
        let mut bits = mv;
        while bits != 0 {
            let sq = bits.trailing_zeros();
            bits &= bits - 1;
            let f = flips(p, o, sq as usize);
            let v = -self.shallow(o ^ f, p ^ f ^ 1 << sq, -beta, -alpha, depth - 1);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The empty squares next to the discs of `o`: where `p` may play later.
#[inline(always)]
fn potential(p: u64, o: u64) -> u32 {
    yomi_othello::potential_mobility(Bitboard(p), Bitboard(o))
}

/// A cheap evaluation for move ordering, from the side with discs `p`: mobility, potential
/// mobility and corners.
#[inline]
fn order_eval(p: u64, o: u64) -> i32 {
    let mp = weighted_mobility(p, o);
    let mo = weighted_mobility(o, p);
    let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
    8 * (mp - mo) + 3 * (potential(p, o) as i32 - potential(o, p) as i32) + 24 * corners
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

    #[test]
    fn quadrants_and_parity() {
        assert_eq!(quadrant(0), 0);
        assert_eq!(quadrant(7), 1);
        assert_eq!(quadrant(56), 2);
        assert_eq!(quadrant(63), 3);
        assert_eq!(parity(1 | 1 << 63 | 1 << 62), 0b0001);
    }
}
