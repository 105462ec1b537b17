//! `othello` on the small boards (4x4, 6x6): iterative-deepening alpha-beta with a
//! size-independent evaluation (mobility, corners, discs), then the exact endgame [`Solver`]
//! near the end.

use std::fmt;
use std::time::Duration;

use yomi_core::{Agent, AgentError, Explanation, Game, Limits, MoveScore, Rng, Watch};
use yomi_othello::{Board, Move};
use yomi_othello_search::{Mode, Solver, SolverConfig};

use crate::analysis::EXACT_SOLVE;
use crate::common::{explain_best, moves_of, time_text};
use crate::{AgentInfo, BuildAgentError, ParamInfo, Registry};

/// The longest time limit accepted, in seconds.
const MAX_SECONDS: f64 = 1e6;
/// A finished game is worth its final score times this in evaluation units (the 8x8 agent's
/// [`FINAL_SCALE`](yomi_othello_search::FINAL_SCALE)).
pub const SMALL_FINAL_SCALE: i32 = yomi_othello_search::FINAL_SCALE;
/// The evaluations the small boards accept.
const EVALS: &str = "general";
/// Evaluations that only exist for 8x8 (the 8x8 `othello` agent's hand-made evaluation and
/// the learned patterns of yomi-othello-eval).
const EVALS_8X8: [&str; 3] = ["hand", "learned", "patterns"];

/// How a [`SmallOthelloAgent`] picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallOthelloSettings {
    /// The time per move; `None` for none.
    pub time: Option<Duration>,
    /// The deepest midgame iteration, in plies.
    pub depth: u32,
    /// At this many empty squares or fewer, play by exact solves.
    pub exact: u32,
    /// The solver's table: `24 * 2^hash_bits` bytes, rounded up to whole MiB.
    pub hash_bits: u32,
}

impl SmallOthelloSettings {
    /// `time=0.1,depth=36,exact=16,hash_bits=18` (on 4x4 the whole game is within `exact`).
    #[must_use]
    pub const fn new() -> SmallOthelloSettings {
        SmallOthelloSettings {
            time: Some(Duration::from_millis(100)),
            depth: 36,
            exact: 16,
            hash_bits: 18,
        }
    }
}

impl Default for SmallOthelloSettings {
    fn default() -> SmallOthelloSettings {
        SmallOthelloSettings::new()
    }
}

/// The size-independent evaluation, from the side to move's view, in hundredths of a disc as
/// the 8x8 agent's: 300 per move of mobility more than the opponent, 1000 per corner more,
/// 100 per disc more (a finished game: its final score times [`SMALL_FINAL_SCALE`]).
#[must_use]
pub fn small_evaluation<const N: usize>(pos: &Board<N>) -> i32 {
    if pos.game_over() {
        return pos.final_score_for_mover() * SMALL_FINAL_SCALE;
    }
    let corners = Board::<N>::CORNERS;
    let (p, o) = (pos.player(), pos.opponent());
    let mob = pos.moves().count() as i32 - pos.passed().moves().count() as i32;
    let corner = (p & corners).count() as i32 - (o & corners).count() as i32;
    let discs = p.count() as i32 - o.count() as i32;
    300 * mob + 1000 * corner + 100 * discs
}

/// `othello` on the small [`Board`]s (4x4, 6x6): iterative-deepening alpha-beta with
/// [`small_evaluation`] while more than `exact` squares are empty, exact solves by
/// the endgame [`Solver`] (the value of every move, one thread) from there.
///
/// Every legal move gets a value and ties are broken at random: the search's value at the
/// deepest completed depth (evaluation units), or the exact final score. A solve stopped by
/// the time limit (or [`Agent::set_limits`]) falls back to the midgame search; depth 1 always
/// completes.
#[derive(Debug)]
pub struct SmallOthelloAgent {
    settings: SmallOthelloSettings,
    solver: Option<Solver>,
    limits: Limits,
}

impl SmallOthelloAgent {
    /// An agent with these settings.
    #[must_use]
    pub fn new(settings: SmallOthelloSettings) -> SmallOthelloAgent {
        SmallOthelloAgent {
            settings,
            solver: None,
            limits: Limits::none(),
        }
    }

    fn move_limits(&self) -> Limits {
        let mut limits = self.limits.clone();
        limits.time = match (self.settings.time, limits.time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        limits
    }
}

impl fmt::Display for SmallOthelloAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.settings;
        write!(
            f,
            "othello:time={},depth={},exact={},hash_bits={},eval={EVALS}",
            time_text(s.time),
            s.depth,
            s.exact,
            s.hash_bits
        )
    }
}

impl<const N: usize> Agent<Board<N>> for SmallOthelloAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(
        &mut self,
        state: &Board<N>,
        rng: &mut Rng,
    ) -> Result<Explanation<Move>, AgentError> {
        let moves = moves_of(state)?;
        if moves.len() == 1 {
            let scored = vec![MoveScore::new(moves[0], 0.0).with_note("only legal move")];
            let mut e = explain_best(self.to_string(), scored, rng);
            e.notes.push("only one legal move: not searched".into());
            return Ok(e);
        }
        let empties = state.empties().count();
        let limits = self.move_limits();
        let mut notes = Vec::new();
        if empties <= self.settings.exact {
            let spec = self.to_string();
            let solver = match &mut self.solver {
                Some(solver) => solver,
                None => self.solver.insert(
                    Solver::new(SolverConfig {
                        threads: 1,
                        hash_mb: table_mb(self.settings.hash_bits),
                        ..SolverConfig::default()
                    })
                    .map_err(|e| AgentError::Failed {
                        agent: spec,
                        reason: e.to_string(),
                    })?,
                ),
            };
            let values = solver.move_values_limited(state, Mode::Exact, &limits);
            let nodes: u64 = values.iter().map(|v| v.nodes).sum();
            let stopped = values.iter().any(|v| !v.is_exact());
            let scored: Vec<MoveScore<Move>> = values
                .iter()
                .map(|v| {
                    MoveScore::new(v.mv, f64::from(v.score))
                        .with_note(EXACT_SOLVE)
                        .with_part("nodes", v.nodes as f64)
                })
                .collect();
            if !stopped {
                let mut e = explain_best(self.to_string(), scored, rng);
                e.notes.push(format!(
                    "exact solve at {empties} empties, {nodes} nodes; scores: final disc \
                     difference (empties to the winner)"
                ));
                return Ok(e);
            }
            notes.push(format!(
                "the exact solve at {empties} empties stopped at a limit after {nodes} nodes: \
                 playing by the midgame search"
            ));
        }
        Ok(self.midgame_move(state, &moves, &limits, notes, rng))
    }

    fn set_limits(&mut self, limits: &Limits) {
        self.limits = limits.clone();
    }
}

/// The table size in MiB for `hash_bits`: `24 * 2^hash_bits` bytes, rounded up, at least 1.
fn table_mb(hash_bits: u32) -> usize {
    ((24u64 << hash_bits).div_ceil(1 << 20)).max(1) as usize
}

impl SmallOthelloAgent {
    fn midgame_move<const N: usize>(
        &self,
        state: &Board<N>,
        moves: &[Move],
        limits: &Limits,
        mut notes: Vec<String>,
        rng: &mut Rng,
    ) -> Explanation<Move> {
        let watch = limits.start();
        let mut search = Midgame { nodes: 0, watch };
        let mut values: Vec<i32> = Vec::new();
        let mut depth_done = 0;
        let max_depth = self.settings.depth.max(1);
        for depth in 1..=max_depth {
            let mut these = Vec::with_capacity(moves.len());
            for &mv in moves {
                let v = -search.negamax(&state.play_unchecked(mv), depth - 1, -i32::MAX, i32::MAX);
                these.push(v);
            }
            // Depth 1 always completes (its leaves are plain evaluations).
            if depth > 1 && search.watch.stopped() {
                notes.push(format!(
                    "a limit stopped depth {depth} before it completed: playing by depth \
                     {depth_done}"
                ));
                break;
            }
            values = these;
            depth_done = depth;
            if search.watch.stopped() || depth >= state.empties().count() {
                break;
            }
        }
        let how = format!("depth {depth_done} search");
        let scored = moves
            .iter()
            .zip(&values)
            .map(|(&mv, &v)| {
                MoveScore::new(mv, f64::from(v))
                    .with_note(how.clone())
                    .with_part("depth", depth_done)
            })
            .collect();
        let mut e = explain_best(self.to_string(), scored, rng);
        e.notes.extend(notes);
        e.notes.push(format!(
            "{how}, {} nodes; scores: evaluation units (about 1/100 disc: 300 per move of \
             mobility, 1000 per corner, 100 per disc; a finished game {SMALL_FINAL_SCALE} per \
             disc)",
            search.nodes
        ));
        e
    }
}

struct Midgame {
    nodes: u64,
    watch: Watch,
}

impl Midgame {
    fn negamax<const N: usize>(
        &mut self,
        pos: &Board<N>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) {
            let _ = self.watch.poll(4096);
        }
        if depth == 0 || pos.is_over() || self.watch.stopped() {
            return small_evaluation(pos);
        }
        let moves = pos.legal_moves();
        let mut best = -i32::MAX;
        for &mv in &moves {
            // A pass keeps the depth (it is not a choice).
            let d = if mv.square().is_none() {
                depth
            } else {
                depth - 1
            };
            let v = -self.negamax(&pos.play_unchecked(mv), d, -beta, -alpha);
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

/// Adds `othello` (a [`SmallOthelloAgent`]) to a small-board registry.
pub fn register_small_othello<const N: usize>(registry: &mut Registry<Board<N>>) {
    registry.register(
        AgentInfo {
            name: "othello",
            summary: "alpha-beta with a size-independent evaluation (mobility, corners, discs); \
                      exact solves near the end",
            params: vec![
                ParamInfo {
                    name: "time",
                    default: "0.1",
                    help: "time per move in seconds (0: none)",
                },
                ParamInfo {
                    name: "depth",
                    default: "36",
                    help: "deepest midgame iteration in plies",
                },
                ParamInfo {
                    name: "exact",
                    default: "16",
                    help: "exact solve at this many empty squares or fewer",
                },
                ParamInfo {
                    name: "hash_bits",
                    default: "18",
                    help: "solver table of 24 * 2^hash_bits bytes (rounded up to whole MiB)",
                },
                ParamInfo {
                    name: "eval",
                    default: EVALS,
                    help: "evaluation: general (mobility, corners, discs); the 8x8 evaluations \
                           are refused",
                },
            ],
        },
        |p| {
            let eval = p.text("eval");
            if eval != EVALS {
                let why = if EVALS_8X8.contains(&eval) {
                    format!(
                        "`general`: the evaluation `{eval}` is made for 8x8 and does not work \
                         on {N}x{N}"
                    )
                } else {
                    "`general`".to_string()
                };
                return Err(BuildAgentError::BadValue {
                    agent: "othello".into(),
                    param: "eval".into(),
                    value: eval.into(),
                    expected: why,
                });
            }
            let settings = SmallOthelloSettings {
                time: p.time_limit("time", MAX_SECONDS)?,
                depth: p.u64_in("depth", 1, 64)? as u32,
                exact: p.u64_in("exact", 0, 64)? as u32,
                hash_bits: p.u64_in("hash_bits", 10, 26)? as u32,
            };
            Ok(Box::new(SmallOthelloAgent::new(settings)))
        },
    );
}
