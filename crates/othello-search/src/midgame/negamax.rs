//! The midgame search below the root: negamax PVS with the transposition table, Multi-ProbCut
//! and move ordering, written once as a macro and compiled twice (portably, and for the
//! x86-64-v3 features, entered with the token of `yomi_othello::cpu`).

use yomi_core::Watch;
use yomi_othello_eval::Evaluator;

use super::probcut::{Cut, CUT_LIMIT};
use super::{MidgameStats, FINAL_SCALE, INFINITY};
use crate::bits::final_score;
use crate::table::{midgame_hash, Bound, MidgameSlot, MidgameTable, NO_MOVE};

/// ProbCut's test for a bound runs only where the node's static evaluation lies within this
/// many margins (`threshold * sigma`) of the shallow bound, on the side of a cut: elsewhere the
/// test would almost never cut, and skipping it costs one evaluation instead of a shallow
/// search. Skipping a test never prunes more. On the midgame set at depth 12: 40.0 M nodes
/// against 45.5 M without the filter, 64% of the tests cut against 48% (0.5 margins: 39.8 M;
/// 0: 48.7 M, too many cuts lost).
const PREFILTER: f64 = 1.0;

/// From this many plies left, the move ordering also weighs the static evaluation of the
/// position after each move (half of it, in evaluation units, against 16 a reply of
/// mobility). At depth 12 on the midgame set: 33.7 M nodes against 40.0 M without (from 3
/// plies 32.7 M, from 5 34.7 M, from 6 36.4 M); the evaluations cost less than the nodes they
/// save from 4 plies on.
const EVAL_ORDER_DEPTH: u32 = 4;

/// The clock is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;

/// One search's state.
pub(super) struct Searcher<'a> {
    evaluator: &'a dyn Evaluator,
    /// ProbCut's tests by node depth.
    cuts: [Option<Cut>; 65],
    table: &'a mut MidgameTable,
    generation: u32,
    /// The nodes visited.
    pub(super) nodes: u64,
    /// The limits of the search.
    watch: &'a Watch,
    /// Whether to read the clock (off during depth 1, which always completes).
    pub(super) check_time: bool,
    /// Whether a limit stopped the search (its values are then meaningless).
    pub(super) aborted: bool,
    /// Whether some line stopped at the depth limit before the game ended.
    pub(super) horizon: bool,
    /// What the nodes were spent on.
    pub(super) stats: MidgameStats,
    /// How many ProbCut test searches are running (nested tests count once).
    in_probcut: u32,
}

impl<'a> Searcher<'a> {
    /// A search of generation `generation` over `table`, scoring leaves with `evaluator`,
    /// with ProbCut's tests `cuts`, under `watch`.
    pub(super) fn new(
        evaluator: &'a dyn Evaluator,
        cuts: [Option<Cut>; 65],
        table: &'a mut MidgameTable,
        generation: u32,
        watch: &'a Watch,
    ) -> Searcher<'a> {
        Searcher {
            evaluator,
            cuts,
            table,
            generation,
            nodes: 0,
            watch,
            check_time: false,
            aborted: false,
            horizon: false,
            stats: MidgameStats::default(),
            in_probcut: 0,
        }
    }

    /// Starts a ProbCut test search: counts it, and returns the node count to pass to
    /// [`probcut_done`](Self::probcut_done) after it.
    #[inline(always)]
    fn probcut_start(&mut self) -> u64 {
        self.stats.probcut_tests += 1;
        self.in_probcut += 1;
        self.nodes
    }

    /// Ends a ProbCut test search started when the node count was `before`: its nodes go to
    /// [`MidgameStats::probcut_nodes`] once however deeply tests nest.
    #[inline(always)]
    fn probcut_done(&mut self, before: u64) {
        self.in_probcut -= 1;
        if self.in_probcut == 0 {
            self.stats.probcut_nodes += self.nodes - before;
        }
    }
}

/// A square's bonus in move ordering: corners first, X- and C-squares last.
const ORDER_BONUS: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = (i / 8, i % 8);
        let edge_r = r == 0 || r == 7;
        let edge_c = c == 0 || c == 7;
        let near_r = r == 1 || r == 6;
        let near_c = c == 1 || c == 6;
        t[i] = if edge_r && edge_c {
            60
        } else if near_r && near_c {
            -40
        } else if (edge_r && near_c) || (edge_c && near_r) {
            -15
        } else if edge_r || edge_c {
            10
        } else {
            0
        };
        i += 1;
    }
    t
};

/// The search below the root (`Searcher::$name`), compiled once per copy (see
/// [`Cpu`]): `$name` is the method's name in the copy, the attributes its code
/// generation.
macro_rules! negamax {
    ($name:ident, $(#[$attr:meta])*) => {
        impl Searcher<'_> {
            /// Fail-soft negamax PVS: the exact value when it lies strictly inside `(alpha, beta)`,
            /// else a bound on the correct side.
            $(#[$attr])*
            fn $name(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
                self.nodes += 1;
                if self.check_time
                    && self.nodes.is_multiple_of(CLOCK_EVERY)
                    && self.watch.poll(CLOCK_EVERY).is_some()
                {
                    self.aborted = true;
                }
                if self.aborted {
                    return 0;
                }
                let mut my_moves = moves(p, o);
                if my_moves == 0 {
                    /// Whether the side with discs `o` has no move either. Out of line so
                    /// that the hot path holds only two calls of `moves`: LLVM then compiles
                    /// them into each copy of the search (with three, it called the board
                    /// crate's portable function from the fast copy).
                    #[cold]
                    $(#[$attr])*
                    fn stuck(p: u64, o: u64) -> bool {
                        moves(o, p) == 0
                    }
                    if stuck(p, o) {
                        return final_score(p, o) * FINAL_SCALE;
                    }
                    return -self.$name(o, p, depth, -beta, -alpha);
                }
                if depth == 0 {
                    self.horizon = true;
                    self.stats.evaluations += 1;
                    return self.evaluator.evaluate_with_moves(p, o, my_moves);
                }

                // The transposition table.
                let key = midgame_hash(p, o);
                let mut tt_move = NO_MOVE;
                self.stats.table_probes += 1;
                if let Some(e) = self.table.probe(key, p, o, self.generation) {
                    self.stats.table_hits += 1;
                    tt_move = e.best;
                    if u32::from(e.depth) >= depth {
                        let cut = match e.bound {
                            Bound::Exact => true,
                            Bound::Lower => e.score >= beta,
                            Bound::Upper => e.score <= alpha,
                        };
                        if cut {
                            self.stats.table_cuts += 1;
                            return e.score;
                        }
                    }
                }

                // Multi-ProbCut: a shallow null-window search predicts a cutoff, tried for a
                // bound only where the static evaluation makes a cut plausible.
                if let Some(cut) = self.cuts[depth.min(64) as usize] {
                    let here = f64::from(self.evaluator.evaluate_with_moves(p, o, my_moves));
                    let up = ((f64::from(beta) + cut.margin - cut.offset) / cut.slope).ceil();
                    if f64::from(beta).abs() < CUT_LIMIT && up.abs() < CUT_LIMIT && here >= up - PREFILTER * cut.margin {
                        let bound = up as i32;
                        let before = self.probcut_start();
                        let v = self.$name(p, o, cut.shallow, bound - 1, bound);
                        self.probcut_done(before);
                        if self.aborted {
                            return 0;
                        }
                        if v >= bound {
                            self.stats.probcut_cuts += 1;
                            return beta;
                        }
                    }
                    let down = ((f64::from(alpha) - cut.margin - cut.offset) / cut.slope).floor();
                    if f64::from(alpha).abs() < CUT_LIMIT && down.abs() < CUT_LIMIT && here <= down + PREFILTER * cut.margin {
                        let bound = down as i32;
                        let before = self.probcut_start();
                        let v = self.$name(p, o, cut.shallow, bound, bound + 1);
                        self.probcut_done(before);
                        if self.aborted {
                            return 0;
                        }
                        if v <= bound {
                            self.stats.probcut_cuts += 1;
                            return alpha;
                        }
                    }
                }

                // Order the moves.
                let mut list = [(0i32, 0u8); 64];
                let mut n = 0;
                while my_moves != 0 {
                    let sq = my_moves.trailing_zeros() as u8;
                    my_moves &= my_moves - 1;
                    let key = if sq == tt_move {
                        i32::MAX
                    } else if depth >= 2 {
                        let f = flips(p, o, usize::from(sq));
                        let (cp, co) = (o ^ f, p | f | 1 << sq);
                        let replies = moves(cp, co);
                        let k = ORDER_BONUS[usize::from(sq)] - 16 * replies.count_ones() as i32;
                        if depth >= EVAL_ORDER_DEPTH {
                            k - self.evaluator.evaluate_with_moves(cp, co, replies) / 2
                        } else {
                            k
                        }
                    } else {
                        0
                    };
                    list[n] = (key, sq);
                    n += 1;
                }
                let list = &mut list[..n];
                if depth >= 2 {
                    list.sort_unstable_by_key(|&(key, sq)| (-key, sq));
                } else if let Some(k) = list.iter().position(|&(_, sq)| sq == tt_move) {
                    list.swap(0, k);
                }

                let mut best = -INFINITY;
                let mut best_sq = NO_MOVE;
                let mut a = alpha;
                for (i, &(_, sq)) in list.iter().enumerate() {
                    let f = flips(p, o, usize::from(sq));
                    let (cp, co) = (o ^ f, p | f | 1 << sq);
                    let v = if i == 0 {
                        -self.$name(cp, co, depth - 1, -beta, -a)
                    } else {
                        let v = -self.$name(cp, co, depth - 1, -a - 1, -a);
                        if v > a && v < beta && !self.aborted {
                            -self.$name(cp, co, depth - 1, -beta, -a)
                        } else {
                            v
                        }
                    };
                    if self.aborted {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        best_sq = sq;
                        if v > a {
                            a = v;
                            if a >= beta {
                                self.stats.beta_cuts += 1;
                                if i == 0 {
                                    self.stats.first_move_cuts += 1;
                                }
                                break;
                            }
                        }
                    }
                }

                let bound = if best <= alpha {
                    Bound::Upper
                } else if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let entry = MidgameSlot {
                    player: p,
                    opponent: o,
                    score: best,
                    generation: self.generation,
                    depth: depth.min(255) as u8,
                    bound,
                    best: best_sq,
                };
                self.table.store(key, entry);
                best
            }
        }
    };
}

/// The search compiled for the target's baseline: runs on every CPU.
mod portable {
    use super::*;
    use crate::bits::{flips, moves};

    negamax!(negamax_portable, #[inline]);

    impl Searcher<'_> {
        /// See `negamax!`.
        pub(in crate::midgame) fn negamax(
            &mut self,
            p: u64,
            o: u64,
            depth: u32,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            self.negamax_portable(p, o, depth, alpha, beta)
        }
    }
}

/// The search with every function compiled for x86-64 CPUs with AVX2, BMI1/2, POPCNT and
/// LZCNT, entered only with an [`X86v3`] token.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod x86v3 {
    use super::*;
    // The AVX2 move generation and flips (same results as the portable ones).
    use yomi_othello::cpu::{flips_x86v3 as flips, moves_x86v3 as moves, X86v3};

    negamax!(negamax_v3, #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]);

    impl Searcher<'_> {
        /// See `negamax!`.
        pub(in crate::midgame) fn negamax_fast(
            &mut self,
            _token: X86v3,
            p: u64,
            o: u64,
            depth: u32,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            // SAFETY: `negamax_v3` needs only the CPU features it is compiled with, which the
            // token proves this CPU has (see the safety argument of `yomi_othello::cpu`).
            unsafe { self.negamax_v3(p, o, depth, alpha, beta) }
        }
    }
}
