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
//! The passes and the guess read the solver's own weights ([`solver_weights`]), not the
//! agents' built-in set, so new agent weights move no solver node.
//!
//! A solve runs under [`Limits`] (time, nodes, a stop flag); a stopped solve returns the
//! bounds it proved and the best move known.
//!
//! Every score is a bound on the exact final disc difference (empties to the winner) from the
//! side to move: a result `v` of a search with window `(alpha, beta)` means the score is at most
//! `v` when `v <= alpha`, at least `v` when `v >= beta`, and exactly `v` in between. The table
//! stores such bounds, which is why exact and WLD solves can share it.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use yomi_core::{Game, Limits, Watch};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Board, Othello};

use crate::bits::squares;
use crate::midgame::{MidgameSearch, FINAL_SCALE};
use crate::table::{hash, EndgameTable, Entry};
use crate::Weights;

mod config;
mod knowledge;
mod ordering;
mod pv;
mod search;

pub use config::{
    BestFrom, Features, Mode, MoveValue, ParseFeatureError, ParseModeError, Solution, SolveError,
    SolverConfig,
};
pub use knowledge::{solver_weights, solver_weights_file};
use pv::legal_moves;
use search::{clamp, new_search, RootPlan, RootSearch};

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
/// From this many empties on, an exact solve runs selective passes before its proof
/// (`Features::selective`).
const SELECTIVE_MIN: u32 = 20;
/// The selective passes' margins in hundredths of a disc, one pass each, in this order: a
/// ProbCut test cuts a node when a shallow search with the evaluation clears the window by the
/// margin. FFO #40-#49: 2.08 G nodes without passes, 1.42 G with these four; the last margin
/// decides #49 (12 discs 521 M nodes, 10 discs 849 M, 16 discs 559 M), and a fifth pass at 32
/// discs costs more than it saves (1.94 G with the margins 2 to 32 discs).
const SELECTIVE_MARGINS: [i32; 4] = [150, 300, 600, 1200];

/// The endgame solver: owns a transposition table (kept between solves, so repeated solves of
/// related positions get faster) and, for more than one thread, a thread pool.
pub struct Solver {
    table: EndgameTable,
    config: SolverConfig,
    pool: Option<rayon::ThreadPool>,
    date: u8,
    /// The midgame search that guesses an exact solve's score, made on first use.
    guesser: Option<MidgameSearch>,
    /// The evaluation of the selective passes: the solver's own ([`solver_weights`]).
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
            table: EndgameTable::new(hash_mb).ok_or(SolveError::OutOfMemory(hash_mb))?,
            config,
            pool,
            date: 0,
            guesser: None,
            weights: solver_weights(),
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
    ///
    /// Every board size is solved by the same search: an `N`x`N` [`Board`] lies in the
    /// top-left corner of the 8x8 bitboard, so moves name its squares as on 8x8, and scores
    /// count its `N * N` squares (empties go to the winner). The selective passes and the guess
    /// at the score use the 8x8 evaluation, so they run only on 8x8.
    pub fn solve<const N: usize>(&mut self, pos: &Board<N>, mode: Mode) -> Solution {
        self.solve_limited(pos, mode, &Limits::none())
    }

    /// Solves `pos` in `mode` under `limits` (a time limit, a node budget, a stop flag). A
    /// solve stopped by a limit returns what it proved: [`Solution::stopped`] says why,
    /// [`Solution::lower`] and [`Solution::upper`] bound the score, [`Solution::best`] is the
    /// best move known and [`Solution::best_from`] how it was found; `score` is then the lower
    /// bound and the principal variation is the best move alone.
    pub fn solve_limited<const N: usize>(
        &mut self,
        pos: &Board<N>,
        mode: Mode,
        limits: &Limits,
    ) -> Solution {
        self.solve_guessed(pos, mode, limits, None)
    }

    /// [`Solver::solve_limited`] with a guess at the score (a final disc difference from the
    /// side to move): an exact solve's first search is a window of 3 discs either side of the
    /// guess (instead of a win/loss/draw search), and the probes move from there by 2 discs, so
    /// a good guess saves the probes far from the score. `None`: the solver's own guess (see
    /// [`Features::guess`]; none on boards smaller than 8x8). The result never depends on the
    /// guess, only the work.
    pub fn solve_guessed<const N: usize>(
        &mut self,
        pos: &Board<N>,
        mode: Mode,
        limits: &Limits,
        guess: Option<i32>,
    ) -> Solution {
        let watch = limits.start();
        let (p, o) = (pos.player().0, pos.opponent().0);
        let (guess, guess_nodes) = match guess {
            Some(g) => (Some(g), 0),
            None if N == 8 => {
                let pos = Othello::from_sides(pos.player(), pos.opponent(), pos.side_to_move());
                self.guess(&pos, mode, limits)
            }
            None => (None, 0),
        };
        self.solve_board::<N>(p, o, mode, &watch, guess, guess_nodes)
    }

    /// The solve of an `N`x`N` board from its guess (whose midgame search cost `guess_nodes`).
    fn solve_board<const N: usize>(
        &mut self,
        p: u64,
        o: u64,
        mode: Mode,
        watch: &Watch,
        guess: Option<i32>,
        guess_nodes: u64,
    ) -> Solution {
        self.date = self.date.wrapping_add(1);
        if guess_nodes > 0 && self.config.features.hints {
            self.seed_hints();
        }
        let nodes = AtomicU64::new(guess_nodes);
        let plan = RootPlan::new(mode, self.config.features.wld_first, guess);
        let passes: &[i32] = if N == 8
            && mode == Mode::Exact
            && self.config.features.selective
            && self.config.features.table
            && squares::<N>() - (p | o).count_ones() >= SELECTIVE_MIN
        {
            &SELECTIVE_MARGINS
        } else {
            &[]
        };
        let wld_first = self.config.features.wld_first;
        let root = self.run::<N, _>(watch, |search| {
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
        // The only move (a placement, or a pass), if the mover has no choice.
        let forced = match legal_moves::<N>(p, o).as_slice() {
            [mv] => Some(*mv),
            _ => None,
        };
        let stopped = watch.reason();
        let (lower, upper) = (clamp(root.lower, mode), clamp(root.upper, mode));
        let (best, best_from) = match root.best {
            _ if forced.is_some() => (forced, BestFrom::Forced),
            None => (None, BestFrom::Forced),
            Some(mv) if root.proved => (Some(mv), BestFrom::Proof),
            Some(mv) => (Some(mv), BestFrom::Ordering),
        };
        let score = lower;
        let pv = match (stopped, best) {
            (None, _) => self.principal_variation::<N>((p, o), score, best, mode, &nodes, watch),
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
            .get_or_insert_with(|| MidgameSearch::with_cpu(4, solver_weights(), cpu));
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
    /// index order); a lone [`Move::Pass`](yomi_othello::Move::Pass) when the mover must pass; empty when the game is
    /// over.
    pub fn move_values<const N: usize>(&mut self, pos: &Board<N>, mode: Mode) -> Vec<MoveValue> {
        self.move_values_limited(pos, mode, &Limits::none())
    }

    /// [`Solver::move_values`] under `limits` shared by all the moves: once a limit stops the
    /// solve, the moves not yet finished keep the bounds proved so far
    /// ([`MoveValue::is_exact`] tells; `score` is then the lower bound).
    pub fn move_values_limited<const N: usize>(
        &mut self,
        pos: &Board<N>,
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
                let (r, nodes) = self.run::<N, _>(&watch, |search| {
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
    fn run<const N: usize, R: Send>(
        &mut self,
        watch: &Watch,
        f: impl FnOnce(&mut (dyn RootSearch + Send)) -> R + Send,
    ) -> R {
        let mut search = self.search::<N>(watch, self.pool.is_some());
        match &self.pool {
            Some(pool) => pool.install(|| f(&mut *search)),
            None => f(&mut *search),
        }
    }

    /// A fresh search of one solve over this solver's table under `watch`, in the copy of the
    /// search this solver runs, splitting between threads when `parallel`.
    fn search<'s, const N: usize>(
        &'s self,
        watch: &'s Watch,
        parallel: bool,
    ) -> Box<dyn RootSearch + Send + 's> {
        new_search::<N>(
            self.config.cpu,
            &self.table,
            &self.config,
            self.date,
            parallel,
            watch,
            &self.weights,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let (broken, proved) = solver.run::<8, _>(&watch, |search| {
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
}
