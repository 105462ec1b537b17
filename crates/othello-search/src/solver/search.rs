//! One thread's search state ([`Search`]), its root driver (the probes of [`Search::solve_root`])
//! and the two compiled copies of the node functions (`crate::kernel`): the portable copy and,
//! on x86-64, the copy for the x86-64-v3 features, entered with the token of
//! [`yomi_othello::cpu`].

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use yomi_core::Watch;
use yomi_othello::{Bitboard, Move, Square};

use super::config::{Features, Mode, SolverConfig};
// The node functions (`crate::kernel`, expanded in the modules below) use these too.
use super::ordering::*;
use super::{GUESS_STEPS, GUESS_WINDOW};
use crate::bits::{board_mask, corners, final_score_n, flips, moves, squares};
use crate::table::{hash, EndgameTable, Entry, NO_MOVE};
use crate::{Weights, EVAL_LIMIT};

/// From this many empties on, nodes use the transposition table.
const TABLE_MIN: u32 = 10;
/// From this many empties on, nodes look for an enhanced transposition cutoff.
const ETC_MIN: u32 = 11;
/// Above every score.
const INF: i32 = 127;
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

/// The copy type of the portable node functions (a [`Search`] of this copy runs on every
/// CPU).
#[derive(Clone, Copy, Debug)]
pub(super) struct Portable;

/// One thread's search of one solve: node count, limits and access to the shared table. `C` is
/// the compiled copy of the node functions that runs: [`Portable`], or the
/// [`X86v3`](yomi_othello::cpu::X86v3) token (which a search of that copy holds, proving the
/// CPU has its features).
pub(super) struct Search<'t, C, const N: usize> {
    /// The copy's token.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    cpu: C,
    table: &'t EndgameTable,
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
    /// The evaluation of the selective passes' cut tests.
    eval: &'t Weights,
    /// 0 in a proof; else the number of the selective pass running (see `Search::deep`),
    /// whose cuts need a shallow search to clear the window by `margin` hundredths of a
    /// disc.
    sel: u8,
    /// See `sel`.
    margin: i32,
}

impl<'t, C: Copy, const N: usize> Search<'t, C, N> {
    /// A search of one solve over `table` under `watch`, splitting between threads when
    /// `parallel`.
    fn new(
        cpu: C,
        table: &'t EndgameTable,
        config: &SolverConfig,
        date: u8,
        parallel: bool,
        watch: &'t Watch,
        eval: &'t Weights,
    ) -> Search<'t, C, N> {
        Search {
            cpu,
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
            eval,
            sel: 0,
            margin: 0,
        }
    }

    /// A search for another thread of a parallel split whose stop flag is `stop`.
    #[inline]
    fn fork(&self, stop: &Arc<AtomicBool>) -> Search<'t, C, N> {
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

    /// Makes the search a proof (`sel` 0) or selective pass `sel` with a cut margin of
    /// `margin` hundredths of a disc.
    fn set_pass(&mut self, sel: u8, margin: i32) {
        self.sel = sel;
        self.margin = margin;
    }

    /// Whether a parallel split this search works under no longer needs its result.
    #[inline(always)]
    fn aborted(&self) -> bool {
        self.watch.stopped() || self.stops.iter().any(|s| s.load(Ordering::Relaxed))
    }

    /// Whether the bounds of `e` hold in this search: proved bounds always, a selective
    /// pass's only in that pass.
    #[inline(always)]
    fn holds(&self, e: &Entry) -> bool {
        e.sel == 0 || e.sel == self.sel
    }

    /// The stability cutoff: a bound that already settles the window, if any.
    #[inline(always)]
    fn stability_cut(&self, p: u64, o: u64, alpha: i32, beta: i32) -> Option<i32> {
        if !self.features.stability {
            return None;
        }
        // The opponent's stable discs M cap the score at 64 - 2M; only worth computing when
        // its disc count could reach the cut.
        let all = squares::<N>() as i32;
        if all - 2 * o.count_ones() as i32 <= alpha {
            let m = yomi_othello::stable_discs(Bitboard(o), Bitboard(p)).count() as i32;
            let upper = all - 2 * m;
            if upper <= alpha {
                return Some(upper);
            }
        }
        if 2 * p.count_ones() as i32 - all >= beta {
            let s = yomi_othello::stable_discs(Bitboard(p), Bitboard(o)).count() as i32;
            let lower = 2 * s - all;
            if lower >= beta {
                return Some(lower);
            }
        }
        None
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
            if self.sel != 0 && e.sel == 0 && (e.lower > -64 || e.upper < 64) {
                // A selective pass keeps proved bounds.
                return;
            }
            if self.holds(&e) {
                // Bounds from earlier searches of the same position stay valid.
                lower = lower.max(i32::from(e.lower));
                upper = upper.min(i32::from(e.upper));
            }
        }
        self.table.store(
            key,
            Entry {
                lower: lower.clamp(-64, 64) as i8,
                upper: upper.clamp(-64, 64) as i8,
                best: best_sq,
                empties: empties as u8,
                date: self.date,
                sel: self.sel,
            },
        );
    }
}

/// The entry points of a compiled copy of the node functions (`crate::kernel`).
pub(super) trait Nodes {
    /// The root: like `Search::deep` but returns the best move too.
    fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>);
    /// The score of the position, searched with window `(alpha, beta)` (see the module docs
    /// of `solver`).
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32;
}

impl<C: Copy, const N: usize> Search<'_, C, N>
where
    Self: Nodes,
{
    /// Solves the root as `plan` says: its first search (in [`Mode::Wld`] the window
    /// `(-1, 1)`, which is the whole solve), then in [`Mode::Exact`] null-window probes
    /// "is the score at least v?" that narrow the proved range `[lower, upper]` until it
    /// is one score. The probes move away from the proved bound in the direction the
    /// last search pointed: by 2 discs `GUESS_STEPS` times when `plan.stepping` (after a
    /// search around a guess), galloping by 2, 4, 8, ... discs otherwise (from 0 when
    /// there was no first search); they bisect once a probe has gone past the score.
    /// Stops early, keeping what it proved, when the watch stops the solve.
    fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult {
        let mask = board_mask::<N>();
        if moves(p, o) & mask == 0 && moves(o, p) & mask == 0 {
            self.nodes += 1;
            let v = final_score_n::<N>(p, o);
            return RootResult {
                lower: v,
                upper: v,
                best: None,
                proved: true,
            };
        }
        let all = squares::<N>() as i32;
        let (mut lo, mut hi) = (-all, all);
        // The best move proved to reach `lo`, and a fallback: the move the last search
        // preferred (the ordering's first when nothing is proved).
        let (mut proved, mut fallback) = (None, None);
        // The direction of the probes: up after a probe proved a lower bound, down after
        // one proved an upper bound; `None` before the first.
        let mut up = None;
        // The first search: a window around an even score c, which proves the score
        // (when it falls inside) or a bound on the side where it lies.
        if let Some((c, half)) = plan.first {
            let (v, mv) = self.root(p, o, c - half, c + half);
            fallback = mv;
            if !self.aborted() {
                if v >= c + half {
                    lo = even_up(v);
                    proved = mv;
                    up = Some(true);
                } else if v <= c - half {
                    hi = even_down(v);
                    up = Some(false);
                } else {
                    (lo, hi) = (v, v);
                    proved = mv;
                }
            }
        }
        if plan.mode == Mode::Exact {
            let (mut step, mut steps, mut bisect) = (2, 0, false);
            while lo < hi && !self.aborted() {
                let galloping = up.is_some() && !bisect;
                let v = match up {
                    // No first search: is the score at least 0?
                    None => 0,
                    Some(_) if bisect => lo + 2 * ((hi - lo + 2) / 4),
                    Some(true) => (lo + step).min(hi),
                    Some(false) => (hi - step + 2).max(lo + 2),
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
                    bisect |= up == Some(false);
                    up = Some(true);
                } else {
                    hi = even_down(r).max(lo);
                    bisect |= up == Some(true);
                    up = Some(false);
                }
                // From a guess, 2 discs at a time for the first steps (a probe above the
                // score costs about as much however far above it is), then galloping, for
                // a guess far from the score (a wipeout the evaluation does not see).
                if galloping {
                    steps += 1;
                    if !plan.stepping || steps > GUESS_STEPS {
                        step *= 2;
                    }
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
}

/// What [`Solver`](super::Solver) asks of a search, whichever compiled copy runs it.
pub(super) trait RootSearch {
    /// See `Search::solve_root`.
    fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult;
    /// See `Nodes::search`.
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32;
    /// The nodes searched so far.
    fn nodes(&self) -> u64;
    /// Whether the solve's limits stopped it.
    fn aborted(&self) -> bool;
    /// See `Search::set_pass`.
    fn set_pass(&mut self, sel: u8, margin: i32);
}

impl<C: Copy, const N: usize> RootSearch for Search<'_, C, N>
where
    Self: Nodes,
{
    fn solve_root(&mut self, p: u64, o: u64, plan: RootPlan) -> RootResult {
        Search::solve_root(self, p, o, plan)
    }
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        Nodes::search(self, p, o, alpha, beta)
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

/// A search of one solve (see `Search::new`) in the compiled copy `cpu`.
pub(super) fn new_search<'t, const N: usize>(
    cpu: yomi_othello::cpu::Cpu,
    table: &'t EndgameTable,
    config: &SolverConfig,
    date: u8,
    parallel: bool,
    watch: &'t Watch,
    eval: &'t Weights,
) -> Box<dyn RootSearch + Send + 't> {
    match cpu {
        #[cfg(target_arch = "x86_64")]
        yomi_othello::cpu::Cpu::X86v3(token) => Box::new(Search::<_, N>::new(
            token, table, config, date, parallel, watch, eval,
        )),
        _ => Box::new(Search::<_, N>::new(
            Portable, table, config, date, parallel, watch, eval,
        )),
    }
}

/// One move of a parallel split: its value and whether it is more than an upper bound at
/// most the shared score (`None` when the split stopped before it was searched).
type SplitResult = Option<(i32, bool)>;

/// How a root solve starts and moves (see `Search::solve_root`).
#[derive(Clone, Copy, Debug)]
pub(super) struct RootPlan {
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
    pub(super) fn new(mode: Mode, wld_first: bool, guess: Option<i32>) -> RootPlan {
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
pub(super) struct RootResult {
    /// The score is at least this...
    pub(super) lower: i32,
    /// ...and at most this (equal when solved).
    pub(super) upper: i32,
    /// The best move known.
    pub(super) best: Option<Move>,
    /// Whether `best` was proved to reach `lower`.
    pub(super) proved: bool,
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
pub(super) fn clamp(score: i32, mode: Mode) -> i32 {
    match mode {
        Mode::Exact => score,
        Mode::Wld => score.signum(),
    }
}

/// The node functions compiled for the target's baseline: run on every CPU.
mod portable {
    use super::*;

    crate::kernel::search_kernel!(Portable, [#[inline(always)]] []);

    impl<const N: usize> Nodes for Search<'_, Portable, N> {
        fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
            Search::root(self, p, o, alpha, beta)
        }
        fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            Search::search(self, p, o, alpha, beta)
        }
    }
}

/// The node functions with every function compiled for x86-64 CPUs with AVX2, BMI1/2, POPCNT
/// and LZCNT (x86-64-v3 without the rest), on a [`Search`] that holds an [`X86v3`] token.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86v3 {
    use super::*;
    // The AVX2 move generation and flips, in place of the portable ones.
    use yomi_othello::cpu::{flips_x86v3 as flips, moves_x86v3 as moves, X86v3};

    crate::kernel::search_kernel!(
        X86v3,
        [#[inline] #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]]
        [#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]]
    );

    // SAFETY (both `unsafe` blocks): the methods need only the CPU features they are compiled
    // with, and a `Search<'_, X86v3, N>` holds the token that proves this CPU has them (see the
    // safety argument of `yomi_othello::cpu`). The methods are safe code.
    impl<const N: usize> Nodes for Search<'_, X86v3, N> {
        fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
            let _proof: X86v3 = self.cpu;
            unsafe { Search::root(self, p, o, alpha, beta) }
        }
        fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
            let _proof: X86v3 = self.cpu;
            unsafe { Search::search(self, p, o, alpha, beta) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::flips;
    use crate::solver::ordering::NEIGHBOURS;

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
