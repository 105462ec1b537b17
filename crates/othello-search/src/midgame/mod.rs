//! A depth-limited midgame search with a static evaluation (any [`Evaluator`]) at its leaves.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use yomi_core::{Game, Limits};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Move, Othello};

use yomi_othello_eval::Evaluator;

use crate::table::{MidgameTable, NO_MOVE};

mod negamax;
mod probcut;
mod profile;

use negamax::Searcher;
use probcut::probcut_rows;
pub use probcut::{
    probcut_shallow, ProbCutPair, PROBCUT_LEARNED, PROBCUT_MIN_DEPTH, PROBCUT_THRESHOLD,
};
pub use profile::{depth_profile, DepthRow};

/// The score of a finished game in the midgame search is its final disc difference (empty
/// squares to the winner, from the side to move) times this: a won game, however narrowly,
/// outscores every evaluation ([`EVAL_LIMIT`](crate::EVAL_LIMIT) is far smaller), and a lost
/// one is worse than any.
pub const FINAL_SCALE: i32 = 100_000;

/// Above every score (`64 * FINAL_SCALE` at most).
const INFINITY: i32 = 10_000_000;

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
    /// Whether `score` is the move's value at the depth; `false` when it is only an upper
    /// bound, below the best move's value (a [`RootValues::Best`] search proves no more of
    /// the moves it finds worse than the best).
    pub exact: bool,
}

/// How much a [`MidgameSearch`] finds out about the root's moves; written `all` or `best`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RootValues {
    /// Every legal move gets its value at the depth: each is searched with a full window
    /// (the default; for analysis, where every move's value is shown).
    #[default]
    All,
    /// Only the best moves get their values: the first move (the previous iteration's best)
    /// is searched with a full window, every other one first with a null window at the best
    /// value so far, and searched again with a window open above when it reaches it. Every
    /// move tied for best still gets its exact value (so ties are broken as with
    /// [`All`](Self::All)); the others get an upper bound below the best
    /// ([`RootScore::exact`] is `false`). Without ProbCut the best value and the set of best
    /// moves are those of [`All`](Self::All), in far fewer nodes (for play).
    Best,
}

/// A root-values name that is neither `all` nor `best`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown root values {0:?}: all or best")]
pub struct ParseRootValuesError(pub String);

impl fmt::Display for RootValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RootValues::All => "all",
            RootValues::Best => "best",
        })
    }
}

impl std::str::FromStr for RootValues {
    type Err = ParseRootValuesError;

    fn from_str(s: &str) -> Result<RootValues, ParseRootValuesError> {
        match s {
            "all" => Ok(RootValues::All),
            "best" => Ok(RootValues::Best),
            _ => Err(ParseRootValuesError(s.to_string())),
        }
    }
}

/// What a midgame search spent its nodes on, counted by every search (a few additions per
/// node): the measure of where the time to a depth goes (`yomi bench midgame`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MidgameStats {
    /// Nodes inside ProbCut's test searches (part of the search's nodes; nested tests count
    /// once).
    pub probcut_nodes: u64,
    /// ProbCut test searches run (each bound tried is one).
    pub probcut_tests: u64,
    /// ProbCut tests that cut their node.
    pub probcut_cuts: u64,
    /// Table probes (interior nodes).
    pub table_probes: u64,
    /// Probes that found the position (its best move then goes first).
    pub table_hits: u64,
    /// Probes whose stored bound ended the node.
    pub table_cuts: u64,
    /// Interior nodes whose moves failed high (a beta cutoff).
    pub beta_cuts: u64,
    /// Beta cutoffs by the first move tried.
    pub first_move_cuts: u64,
    /// Leaf evaluations.
    pub evaluations: u64,
}

impl MidgameStats {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &MidgameStats) {
        self.probcut_nodes += other.probcut_nodes;
        self.probcut_tests += other.probcut_tests;
        self.probcut_cuts += other.probcut_cuts;
        self.table_probes += other.table_probes;
        self.table_hits += other.table_hits;
        self.table_cuts += other.table_cuts;
        self.beta_cuts += other.beta_cuts;
        self.first_move_cuts += other.first_move_cuts;
        self.evaluations += other.evaluations;
    }
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
    /// What the nodes of all iterations were spent on.
    pub stats: MidgameStats,
}

impl MidgameResult {
    /// The highest score, if there is a legal move.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|s| s.score).max()
    }
}

/// An iterative-deepening alpha-beta search (principal variation search with a transposition
/// table) over Othello positions, scoring positions at its depth limit with its [`Evaluator`]
/// (the learned [`Weights`](crate::Weights), the hand-made [`HandEval`](crate::HandEval), or
/// any other) and finished games with their final disc difference times [`FINAL_SCALE`].
///
/// # Method
/// - **Negamax** from the side to move. A player who must pass passes without using up a ply
///   (two passes in a row end the game, so this cannot loop); a position at the depth limit
///   whose mover must pass is scored after the pass.
/// - **At the root**, with [`RootValues::All`] (the default) every move gets its exact value
///   at the depth: each is searched with a full window (so equal moves tie exactly and can be
///   broken at random); with [`RootValues::Best`] only the moves tied for best do, the others
///   an upper bound below them. Below the root, the first child is searched with the full
///   window and the others with a null window, searched again when they beat it (fail-soft).
/// - **Move ordering**: the transposition table's move first, then (two or more plies from
///   the leaves) fewest replies for the opponent and a square bonus (corners first, X- and
///   C-squares last), and from four plies the static evaluation after the move. At the root:
///   by the previous iteration's values.
/// - **Multi-ProbCut** when on ([`set_probcut`](Self::set_probcut)): a bound is tested with a
///   shallow search only where the node's static evaluation makes the cut plausible.
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
    /// Which root moves get their values.
    root: RootValues,
    /// The transposition table, allocated on first use.
    table: Option<MidgameTable>,
    /// The table's size in slots once allocated (a power of two).
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
            .field("root", &self.root)
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
        while entries
            .saturating_mul(2)
            .saturating_mul(size_of::<crate::table::MidgameSlot>())
            <= bytes
        {
            entries *= 2;
        }
        MidgameSearch {
            evaluator,
            cpu,
            probcut: None,
            root: RootValues::All,
            table: None,
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

    /// Forgets what earlier searches stored in the table (keeping its memory), so the next
    /// search gives what a new search with the same settings would.
    pub fn clear(&mut self) {
        if let Some(table) = self.table.as_mut() {
            table.clear();
        }
        self.generation = 0;
    }

    /// Sets which root moves get their values (see [`RootValues`]; the default is
    /// [`RootValues::All`]).
    pub fn set_root_values(&mut self, root: RootValues) {
        self.root = root;
    }

    /// Which root moves get their values.
    #[must_use]
    pub fn root_values(&self) -> RootValues {
        self.root
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
        let slots = self.table.as_ref().map_or(&[][..], MidgameTable::slots);
        slots.iter().filter_map(move |e| {
            (e.generation == generation && u32::from(e.depth) >= min_depth && e.best != NO_MOVE)
                .then_some((e.player, e.opponent, e.best))
        })
    }

    /// How full the last search left the table: the entries it wrote (or kept) and the
    /// table's capacity (0 and the capacity before the first search).
    #[must_use]
    pub fn table_usage(&self) -> (usize, usize) {
        let generation = self.generation;
        let Some(table) = self.table.as_ref() else {
            return (0, self.entries);
        };
        let slots = table.slots();
        let used = slots
            .iter()
            .filter(|e| e.generation == generation && e.depth > 0)
            .count();
        (used, slots.len())
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
        let table = self.table.get_or_insert_with(|| {
            MidgameTable::with_buckets(self.entries / 2).expect("memory for the midgame table")
        });
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            table.clear();
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
                stats: MidgameStats::default(),
            };
        }
        let max_depth = depth.clamp(1, 64);
        let cuts = probcut_rows(self.probcut.as_ref());
        let mut s = Searcher::new(&*self.evaluator, cuts, table, self.generation, &watch);
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
            // The best value so far (used by `RootValues::Best`).
            let mut best = -INFINITY;
            for (k, &i) in order.iter().enumerate() {
                let mv = legal[i];
                let before = s.nodes;
                let child = pos.play_unchecked(mv);
                // A pass at the root does not use up a ply either.
                let d = if mv == Move::Pass { depth } else { depth - 1 };
                let (cp, co) = (child.player().bits(), child.opponent().bits());
                let search = |s: &mut Searcher<'_>, alpha: i32, beta: i32| -> i32 {
                    -match self.cpu {
                        #[cfg(target_arch = "x86_64")]
                        Cpu::X86v3(token) => s.negamax_fast(token, cp, co, d, -beta, -alpha),
                        _ => s.negamax(cp, co, d, -beta, -alpha),
                    }
                };
                let (v, exact) = if self.root == RootValues::All || k == 0 {
                    (search(&mut s, -INFINITY, INFINITY), true)
                } else {
                    // Does the move reach the best value? A fail-soft null window at it
                    // tells; one that does is searched again for its exact value.
                    let v = search(&mut s, best - 1, best);
                    if v >= best && !s.aborted {
                        (search(&mut s, best - 1, INFINITY), true)
                    } else {
                        (v, false)
                    }
                };
                if s.aborted {
                    break;
                }
                best = best.max(v);
                scores[i] = Some(RootScore {
                    mv,
                    score: v,
                    nodes: s.nodes - before,
                    exact,
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
            stats: s.stats,
        }
    }
}
