//! A depth-limited midgame search with a static evaluation (any [`Evaluator`]) at its leaves.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use yomi_core::{Game, Limits, Watch};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Move, Othello};

use yomi_othello_eval::{Evaluator, EVAL_LIMIT};

use crate::bits::final_score;

/// The score of a finished game in the midgame search is its final disc difference (empty
/// squares to the winner, from the side to move) times this: a won game, however narrowly,
/// outscores every evaluation ([`EVAL_LIMIT`](crate::EVAL_LIMIT) is far smaller), and a lost
/// one is worse than any.
pub const FINAL_SCALE: i32 = 100_000;

/// Above every score (`64 * FINAL_SCALE` at most).
const INFINITY: i32 = 10_000_000;

/// The clock is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;

/// Multi-ProbCut's statistics for one search depth: how the value of a search to `depth`
/// plies follows the value of a search to `shallow` plies of the same position,
/// `deep ~ slope * shallow + offset`, with `sigma` the standard deviation of the rest (all in
/// evaluation units, hundredths of a disc for the learned evaluation).
///
/// A [`MidgameSearch`] with ProbCut on ([`MidgameSearch::set_probcut`]) tests every node of
/// `depth` plies or more first with two null-window searches to `shallow` plies: when the
/// shallow value predicts, with `threshold * sigma` to spare, that the deep value is at least
/// beta (or at most alpha), the node returns beta (alpha) without the deep search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutPair {
    /// The depth of the node, in plies.
    pub depth: u32,
    /// The depth of the test searches ([`probcut_shallow`]).
    pub shallow: u32,
    /// The regression's slope.
    pub slope: f64,
    /// The regression's offset, in evaluation units.
    pub offset: f64,
    /// The standard deviation of the deep value around the prediction, in evaluation units.
    pub sigma: f64,
}

/// The shallowest node ProbCut tests, in plies.
pub const PROBCUT_MIN_DEPTH: u32 = 3;

/// The depth of ProbCut's test searches at a node of `depth` plies: about half of it, of the
/// same parity (so that both searches end on the same side's move; in Othello the side that
/// moved last is evaluated too well). Used by the search and by the calibration alike.
#[must_use]
pub fn probcut_shallow(depth: u32) -> u32 {
    let half = depth / 2;
    let s = if (depth - half) % 2 == 1 {
        half.saturating_sub(1)
    } else {
        half
    };
    s.max(1)
}

/// The statistics the search uses with the learned evaluation (the built-in weights), one
/// row per depth from [`PROBCUT_MIN_DEPTH`]; deeper nodes use the last row. Measured by
/// `yomi train probcut` (see `docs/eval.md`, "Multi-ProbCut"), which prints this table.
pub const PROBCUT_LEARNED: &[ProbCutPair] = &[
    ProbCutPair {
        depth: 3,
        shallow: 1,
        slope: 1.0013,
        offset: -10.2,
        sigma: 345.0,
    },
    ProbCutPair {
        depth: 4,
        shallow: 2,
        slope: 1.0068,
        offset: 0.7,
        sigma: 313.7,
    },
    ProbCutPair {
        depth: 5,
        shallow: 1,
        slope: 1.0103,
        offset: 1.4,
        sigma: 461.1,
    },
    ProbCutPair {
        depth: 6,
        shallow: 2,
        slope: 1.0196,
        offset: 1.0,
        sigma: 422.9,
    },
    ProbCutPair {
        depth: 7,
        shallow: 3,
        slope: 1.0246,
        offset: 16.0,
        sigma: 387.3,
    },
    ProbCutPair {
        depth: 8,
        shallow: 4,
        slope: 1.0301,
        offset: 0.6,
        sigma: 348.4,
    },
    ProbCutPair {
        depth: 9,
        shallow: 3,
        slope: 1.0409,
        offset: 18.7,
        sigma: 456.5,
    },
    ProbCutPair {
        depth: 10,
        shallow: 4,
        slope: 1.0456,
        offset: 12.4,
        sigma: 419.0,
    },
];

/// The default ProbCut threshold, in standard deviations (see [`ProbCutPair`]).
pub const PROBCUT_THRESHOLD: f64 = 1.5;

/// How far a [`MidgameSearch`] may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MidgameLimits {
    /// The deepest iteration, in plies (at least 1; 0 counts as 1). A pass does not use up a
    /// ply.
    pub depth: u32,
    /// A time limit for the whole search, `None` for none.
    pub time: Option<Duration>,
}

/// The value one root move was found to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootScore {
    /// The move.
    pub mv: Move,
    /// Its value from the side to move at the root: an evaluation, or a final disc
    /// difference times [`FINAL_SCALE`] where every line ended the game.
    pub score: i32,
    /// Nodes searched below the move in the iteration that gave the score.
    pub nodes: u64,
}

/// What a [`MidgameSearch`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MidgameResult {
    /// The value of every legal move, in the order of the legal moves (empty when the game is
    /// over), from the deepest completed iteration.
    pub scores: Vec<RootScore>,
    /// The depth of the scores: the last iteration that completed (0 when the game is over).
    pub depth: u32,
    /// Whether every line of that iteration reached the end of the game: the scores are then
    /// exact final disc differences times [`FINAL_SCALE`].
    pub exact: bool,
    /// Whether a limit (time, nodes, the stop flag) stopped a deeper iteration.
    pub timed_out: bool,
    /// Nodes visited in all iterations.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl MidgameResult {
    /// The highest score, if there is a legal move.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|s| s.score).max()
    }
}

/// Whether a stored score is exact or a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least the score.
    Lower,
    /// The value is at most the score.
    Upper,
}

/// A transposition-table slot. `generation` 0 never matches a search, so a zeroed slot is empty.
#[derive(Clone, Copy)]
struct Entry {
    player: u64,
    opponent: u64,
    score: i32,
    generation: u32,
    depth: u8,
    bound: Bound,
    /// The best move's square index, or `NO_MOVE`.
    best: u8,
}

const NO_MOVE: u8 = 64;

const EMPTY_ENTRY: Entry = Entry {
    player: 0,
    opponent: 0,
    score: 0,
    generation: 0,
    depth: 0,
    bound: Bound::Exact,
    best: NO_MOVE,
};

/// An iterative-deepening alpha-beta search (principal variation search with a transposition
/// table) over Othello positions, scoring positions at its depth limit with its [`Evaluator`]
/// (the learned [`Weights`](crate::Weights), the hand-made [`HandEval`](crate::HandEval), or
/// any other) and finished games with their final disc difference times [`FINAL_SCALE`].
///
/// # Method
/// - **Negamax** from the side to move. A player who must pass passes without using up a ply
///   (two passes in a row end the game, so this cannot loop); a position at the depth limit
///   whose mover must pass is scored after the pass.
/// - **Every root move gets its exact value** at the depth: each is searched with a full
///   window (so equal moves tie exactly and can be broken at random). Below the root, the
///   first child is searched with the full window and the others with a null window, searched
///   again when they beat it (fail-soft).
/// - **Move ordering**: the transposition table's move first, then (two or more plies from
///   the leaves) fewest replies for the opponent and a square bonus (corners first, squares
///   next to an empty corner last). At the root: by the previous iteration's values.
/// - **Transposition table** keyed by both bitboards (checked in full, so never wrong),
///   two slots per bucket (one keeps the deeper entry, the other is always replaced), storing
///   a bound, its depth and the best move. Each search starts with an empty table (entries of
///   earlier searches are ignored), so results never depend on what was searched before.
/// - **Iterative deepening** 1, 2, ... up to the limit; the clock is read once per 1024 nodes.
///   When time runs out during a depth, the scores of the last completed depth are returned
///   (depth 1 always completes); no deeper iteration starts once half of the time is gone
///   (it could not finish). Deepening stops early when every line of a depth ended the game.
///
/// Without a time limit the result depends only on the position and the depth; with one, on
/// how far the machine got.
///
/// ```
/// use std::sync::Arc;
/// use yomi_othello_search::{HandEval, MidgameLimits, MidgameSearch, Weights};
/// use yomi_othello::Othello;
/// let mut search = MidgameSearch::new(1, Weights::builtin());
/// assert_eq!(search.evaluator().name(), "learned");
/// let mut search = MidgameSearch::new(1, Arc::new(HandEval));
/// let result = search.search(&Othello::new(), MidgameLimits { depth: 4, time: None });
/// assert_eq!(result.depth, 4);
/// // The four opening moves are symmetric: they tie.
/// assert!(result.scores.iter().all(|s| s.score == result.scores[0].score));
/// ```
pub struct MidgameSearch {
    evaluator: Arc<dyn Evaluator>,
    /// The compiled copy of the search below the root that runs.
    cpu: Cpu,
    /// ProbCut's threshold and table, when on.
    probcut: Option<(f64, Vec<ProbCutPair>)>,
    table: Vec<Entry>,
    /// The table's size once allocated (a power of two).
    entries: usize,
    generation: u32,
}

impl fmt::Debug for MidgameSearch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MidgameSearch")
            .field("evaluator", &self.evaluator.name())
            .field("table_entries", &self.entries)
            .field("cpu", &self.cpu.name())
            .field("probcut", &self.probcut.as_ref().map(|(t, _)| *t))
            .finish_non_exhaustive()
    }
}

impl MidgameSearch {
    /// A search scoring its leaves with `evaluator`, whose transposition table takes at most
    /// `hash_mb` megabytes (at least 1024 entries of 32 bytes whatever the size; the table is
    /// allocated on first use).
    ///
    /// The search runs the compiled copy [`Cpu::detect`] picks (see
    /// [`with_cpu`](Self::with_cpu)).
    #[must_use]
    pub fn new(hash_mb: usize, evaluator: Arc<dyn Evaluator>) -> MidgameSearch {
        MidgameSearch::with_cpu(hash_mb, evaluator, Cpu::detect())
    }

    /// As [`new`](Self::new), running the compiled copy `cpu` of the search below the root,
    /// as the solver does: it is compiled for the target's baseline ([`Cpu::Portable`]) and,
    /// on x86-64, for CPUs with AVX2, BMI1/2, POPCNT and LZCNT ([`Cpu::X86v3`]). Both search
    /// the same tree (same scores and node counts). The evaluator keeps its own choice (the
    /// learned [`Weights`](crate::Weights) take theirs when made).
    #[must_use]
    pub fn with_cpu(hash_mb: usize, evaluator: Arc<dyn Evaluator>, cpu: Cpu) -> MidgameSearch {
        let bytes = hash_mb.saturating_mul(1 << 20);
        let mut entries = 1024usize;
        while entries.saturating_mul(2).saturating_mul(size_of::<Entry>()) <= bytes {
            entries *= 2;
        }
        MidgameSearch {
            evaluator,
            cpu,
            probcut: None,
            table: Vec::new(),
            entries,
            generation: 0,
        }
    }

    /// Which compiled copy of the search runs (see [`with_cpu`](Self::with_cpu)).
    #[must_use]
    pub fn cpu(&self) -> Cpu {
        self.cpu
    }

    /// The evaluation at the leaves.
    #[must_use]
    pub fn evaluator(&self) -> &Arc<dyn Evaluator> {
        &self.evaluator
    }

    /// Switches Multi-ProbCut on with `threshold` standard deviations and the statistics
    /// `table` (one row per depth from [`PROBCUT_MIN_DEPTH`], in order; deeper nodes use the
    /// last row), or off with `None` (the default). ProbCut prunes nodes whose shallow search
    /// predicts a cutoff (see [`ProbCutPair`]): the search gets deeper in the same time, and
    /// its values are no longer the exact minimax values at its depth. Rows whose `sigma` is
    /// not finite and positive, or whose `slope` is not positive, are never used. The search
    /// stays deterministic.
    pub fn set_probcut(&mut self, probcut: Option<(f64, &[ProbCutPair])>) {
        self.probcut = probcut.map(|(t, table)| (t, table.to_vec()));
    }

    /// ProbCut's threshold, when it is on.
    #[must_use]
    pub fn probcut(&self) -> Option<f64> {
        self.probcut.as_ref().map(|(t, _)| *t)
    }

    /// The best moves the last search stored for positions it searched at least `min_depth`
    /// plies deep: `(player, opponent, square)` (for the solver's move ordering).
    pub(crate) fn best_moves(&self, min_depth: u32) -> impl Iterator<Item = (u64, u64, u8)> + '_ {
        let generation = self.generation;
        self.table.iter().filter_map(move |e| {
            (e.generation == generation && u32::from(e.depth) >= min_depth && e.best != NO_MOVE)
                .then_some((e.player, e.opponent, e.best))
        })
    }

    /// Searches every legal move of `pos` within `limits`.
    pub fn search(&mut self, pos: &Othello, limits: MidgameLimits) -> MidgameResult {
        let mut stop = Limits::none();
        stop.time = limits.time;
        self.search_limited(pos, limits.depth, &stop)
    }

    /// Searches every legal move of `pos` to at most `depth` plies under `limits` (a time
    /// limit, a node budget, a stop flag): the iteration a limit interrupts is dropped, and
    /// the scores are those of the last completed depth (depth 1 always completes). No deeper
    /// iteration starts once half of the time limit is gone.
    pub fn search_limited(&mut self, pos: &Othello, depth: u32, limits: &Limits) -> MidgameResult {
        let watch = limits.start();
        let start = Instant::now();
        if self.table.is_empty() {
            self.table = vec![EMPTY_ENTRY; self.entries];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(EMPTY_ENTRY);
            self.generation = 1;
        }
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return MidgameResult {
                scores: Vec::new(),
                depth: 0,
                exact: true,
                timed_out: false,
                nodes: 0,
                elapsed: start.elapsed(),
            };
        }
        let max_depth = depth.clamp(1, 64);
        let mask = self.table.len() - 1;
        let cuts = probcut_rows(self.probcut.as_ref());
        let mut s = Searcher {
            evaluator: &*self.evaluator,
            cuts,
            table: &mut self.table,
            mask,
            generation: self.generation,
            nodes: 0,
            watch: &watch,
            check_time: false,
            aborted: false,
            horizon: false,
        };
        // Root moves in search order, with the last completed scores.
        let mut order: Vec<usize> = (0..legal.len()).collect();
        let mut done: Option<(Vec<RootScore>, u32, bool)> = None;
        for depth in 1..=max_depth {
            if depth > 1 {
                let half_gone = limits
                    .time
                    .is_some_and(|limit| start.elapsed() * 2 >= limit);
                if half_gone || watch.poll(0).is_some() {
                    s.aborted = true;
                    break;
                }
            }
            s.check_time = depth > 1;
            s.horizon = false;
            let mut scores: Vec<Option<RootScore>> = vec![None; legal.len()];
            for &i in &order {
                let mv = legal[i];
                let before = s.nodes;
                let child = pos.play_unchecked(mv);
                // A pass at the root does not use up a ply either.
                let d = if mv == Move::Pass { depth } else { depth - 1 };
                let (cp, co) = (child.player().bits(), child.opponent().bits());
                let v = -match self.cpu {
                    #[cfg(target_arch = "x86_64")]
                    Cpu::X86v3(token) => s.negamax_fast(token, cp, co, d, -INFINITY, INFINITY),
                    _ => s.negamax(cp, co, d, -INFINITY, INFINITY),
                };
                if s.aborted {
                    break;
                }
                scores[i] = Some(RootScore {
                    mv,
                    score: v,
                    nodes: s.nodes - before,
                });
            }
            if s.aborted {
                break;
            }
            let scores: Vec<RootScore> = scores.into_iter().flatten().collect();
            // Best first next time (a stable sort keeps the natural order among equals).
            order.sort_by_key(|&i| -scores[i].score);
            let exact = !s.horizon;
            done = Some((scores, depth, exact));
            if exact {
                break;
            }
        }
        let (scores, depth, exact) = done.expect("depth 1 always completes");
        MidgameResult {
            scores,
            depth,
            exact,
            timed_out: s.aborted,
            nodes: s.nodes,
            elapsed: start.elapsed(),
        }
    }
}

/// ProbCut's test at a node of some depth: the test searches' depth and how a deep bound
/// maps to a shallow one.
#[derive(Clone, Copy, Debug)]
struct Cut {
    shallow: u32,
    slope: f64,
    offset: f64,
    /// `threshold * sigma`.
    margin: f64,
}

/// ProbCut's tests by node depth (`None` below [`PROBCUT_MIN_DEPTH`], with ProbCut off, and
/// for unusable rows).
fn probcut_rows(probcut: Option<&(f64, Vec<ProbCutPair>)>) -> [Option<Cut>; 65] {
    let mut cuts = [None; 65];
    let Some((t, table)) = probcut else {
        return cuts;
    };
    if table.is_empty() || !(t.is_finite() && *t >= 0.0) {
        return cuts;
    }
    for (depth, cut) in cuts.iter_mut().enumerate().skip(PROBCUT_MIN_DEPTH as usize) {
        let i = (depth - PROBCUT_MIN_DEPTH as usize).min(table.len() - 1);
        let row = table[i];
        let usable = row.sigma.is_finite()
            && row.sigma > 0.0
            && row.slope.is_finite()
            && row.slope > 0.0
            && row.offset.is_finite()
            && probcut_shallow(depth as u32) < depth as u32;
        if usable {
            *cut = Some(Cut {
                shallow: probcut_shallow(depth as u32),
                slope: row.slope,
                offset: row.offset,
                margin: t * row.sigma,
            });
        }
    }
    cuts
}

/// Bounds a ProbCut test may use: inside the evaluations' range, away from final scores.
const CUT_LIMIT: f64 = EVAL_LIMIT as f64;

/// One search's state.
struct Searcher<'a> {
    evaluator: &'a dyn Evaluator,
    /// ProbCut's tests by node depth.
    cuts: [Option<Cut>; 65],
    table: &'a mut [Entry],
    mask: usize,
    generation: u32,
    nodes: u64,
    /// The limits of the search.
    watch: &'a Watch,
    /// Whether to read the clock (off during depth 1, which always completes).
    check_time: bool,
    aborted: bool,
    /// Whether some line stopped at the depth limit before the game ended.
    horizon: bool,
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

#[inline]
fn bucket_of(p: u64, o: u64, mask: usize) -> usize {
    let h = (p ^ o.rotate_left(23))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
        ^ o.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h ^ (h >> 31)) as usize & mask & !1
}

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
                    return self.evaluator.evaluate(p, o);
                }

                // The transposition table.
                let bucket = bucket_of(p, o, self.mask);
                let mut tt_move = NO_MOVE;
                for slot in bucket..bucket + 2 {
                    let e = self.table[slot];
                    if e.generation == self.generation && e.player == p && e.opponent == o {
                        tt_move = e.best;
                        if u32::from(e.depth) >= depth {
                            let cut = match e.bound {
                                Bound::Exact => true,
                                Bound::Lower => e.score >= beta,
                                Bound::Upper => e.score <= alpha,
                            };
                            if cut {
                                return e.score;
                            }
                        }
                        break;
                    }
                }

                // Multi-ProbCut: a shallow null-window search predicts a cutoff.
                if let Some(cut) = self.cuts[depth.min(64) as usize] {
                    let up = ((f64::from(beta) + cut.margin - cut.offset) / cut.slope).ceil();
                    if f64::from(beta).abs() < CUT_LIMIT && up.abs() < CUT_LIMIT {
                        let bound = up as i32;
                        let v = self.$name(p, o, cut.shallow, bound - 1, bound);
                        if self.aborted {
                            return 0;
                        }
                        if v >= bound {
                            return beta;
                        }
                    }
                    let down = ((f64::from(alpha) - cut.margin - cut.offset) / cut.slope).floor();
                    if f64::from(alpha).abs() < CUT_LIMIT && down.abs() < CUT_LIMIT {
                        let bound = down as i32;
                        let v = self.$name(p, o, cut.shallow, bound, bound + 1);
                        if self.aborted {
                            return 0;
                        }
                        if v <= bound {
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
                        ORDER_BONUS[usize::from(sq)] - 16 * moves(cp, co).count_ones() as i32
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
                let entry = Entry {
                    player: p,
                    opponent: o,
                    score: best,
                    generation: self.generation,
                    depth: depth.min(255) as u8,
                    bound,
                    best: best_sq,
                };
                // Slot 0 keeps the deeper entry of this search; slot 1 takes the rest.
                let first = self.table[bucket];
                let same = |e: &Entry| e.player == p && e.opponent == o;
                let slot = if first.generation != self.generation
                    || same(&first)
                    || u32::from(first.depth) <= depth
                {
                    if first.generation == self.generation && !same(&first) {
                        // The deeper-or-equal newcomer takes slot 0; the old one moves to slot 1.
                        self.table[bucket + 1] = first;
                    }
                    bucket
                } else {
                    bucket + 1
                };
                self.table[slot] = entry;
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
        pub(super) fn negamax(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
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
        pub(super) fn negamax_fast(
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
