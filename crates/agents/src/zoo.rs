//! Registration: which agents each game's zoo holds, with their parameters and defaults.

use yomi_core::{Game, LeafEval};
use yomi_nim::Nim;
use yomi_othello::{Othello, Othello4, Othello6};
use yomi_tictactoe::TicTacToe;

use crate::{
    register_generic, register_tree, AgentInfo, BlunderAgent, BuildAgentError, MctsAgent,
    ParamInfo, Params, PmcAgent, Registry, SearchAgent, SearchMethod, StudyAgent, StudyRule,
    Weight,
};

/// The longest time limit accepted, in seconds (a bit over 11 days).
const MAX_SECONDS: f64 = 1e6;

/// The deepest search accepted.
const MAX_DEPTH: u64 = 64;

/// The most playouts per decision accepted.
const MAX_PLAYOUTS: u64 = 1_000_000_000;

/// The most MCTS iterations accepted (each may add a node per legal move to the tree).
const MAX_ITERS: u64 = 5_000_000;

/// How deeply `blunder` specs may nest.
const MAX_NESTING: usize = 8;

/// A game with a zoo: the registry of every agent that plays it.
pub trait Zoo: Game {
    /// A registry holding every agent for this game, except `engine`, which starts programs
    /// (see [`zoo_with_engines`](crate::zoo_with_engines)).
    fn zoo() -> Registry<Self>;
}

/// The default depths of the search agents for one game, written as in specs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchDefaults {
    /// `minimax:depth` (no pruning: keep it small for games with many moves).
    pub minimax: &'static str,
    /// `alphabeta:depth`.
    pub alphabeta: &'static str,
    /// `average:depth` (no pruning).
    pub average: &'static str,
}

impl SearchDefaults {
    /// Depths for a game of a few dozen moves: minimax 4, alpha-beta 6, average 4.
    pub const GENERIC: SearchDefaults = SearchDefaults {
        minimax: "4",
        alphabeta: "6",
        average: "4",
    };

    /// Tic-tac-toe: alpha-beta to 9 plies is exact (the whole game); minimax and average stay
    /// at 4 (a full-depth minimax costs about 550 000 nodes a decision from the empty board).
    pub const TICTACTOE: SearchDefaults = SearchDefaults {
        minimax: "4",
        alphabeta: "9",
        average: "4",
    };

    /// The stone game: 15 plies, the whole standard 15-stone game, for every search.
    pub const NIM: SearchDefaults = SearchDefaults {
        minimax: "15",
        alphabeta: "15",
        average: "15",
    };

    /// Othello on 4x4: alpha-beta to 16 plies sees every game to its end (12 empty squares,
    /// passes included); minimax and average stay at 6.
    pub const OTHELLO4: SearchDefaults = SearchDefaults {
        minimax: "6",
        alphabeta: "16",
        average: "6",
    };
}

fn time_param() -> ParamInfo {
    ParamInfo {
        name: "time",
        default: "0",
        help: "time limit per decision in seconds (0: none)",
    }
}

fn depth_param(default: &'static str) -> ParamInfo {
    ParamInfo {
        name: "depth",
        default,
        help: "plies to look ahead (1 = one move)",
    }
}

fn pnum_param() -> ParamInfo {
    ParamInfo {
        name: "pnum",
        default: "1000",
        help: "total random playouts per decision",
    }
}

/// Adds primitive Monte Carlo (`pmc`, `pmc2`) and UCT (`mcts`): they need only the rules.
pub fn register_montecarlo<G: Game>(registry: &mut Registry<G>) {
    registry.register(
        AgentInfo {
            name: "pmc",
            summary: "primitive Monte Carlo: random playouts per first move; best win rate, then draw rate",
            params: vec![pnum_param(), time_param()],
        },
        |p| {
            Ok(Box::new(PmcAgent::pmc(
                p.u64_in("pnum", 1, MAX_PLAYOUTS)?,
                p.time_limit("time", MAX_SECONDS)?,
            )))
        },
    );
    registry.register(
        AgentInfo {
            name: "pmc2",
            summary: "primitive Monte Carlo scoring (wins + alpha*draws) / playouts",
            params: vec![
                pnum_param(),
                time_param(),
                ParamInfo {
                    name: "alpha",
                    default: "0.5",
                    help: "the worth of a draw (a win is 1)",
                },
            ],
        },
        |p| {
            Ok(Box::new(PmcAgent::pmc2(
                p.u64_in("pnum", 1, MAX_PLAYOUTS)?,
                p.time_limit("time", MAX_SECONDS)?,
                p.weight_in("alpha", Weight::units(0), Weight::units(1))?,
            )))
        },
    );
    registry.register(
        AgentInfo {
            name: "mcts",
            summary: "UCT tree search with random playouts; plays the most visited move",
            params: vec![
                ParamInfo {
                    name: "iters",
                    default: "1000",
                    help: "iterations (one playout each) per decision",
                },
                time_param(),
                ParamInfo {
                    name: "c",
                    default: "1.4",
                    help: "exploration constant of the UCB1 bound",
                },
            ],
        },
        |p| {
            Ok(Box::new(MctsAgent::new(
                p.u64_in("iters", 1, MAX_ITERS)?,
                p.time_limit("time", MAX_SECONDS)?,
                p.f64_in("c", 0.0, 100.0)?,
            )))
        },
    );
}

/// Adds the look-ahead searches (`greedy`, `minimax`, `alphabeta`, `average`) with the given
/// default depths.
pub fn register_search<G: Game + LeafEval>(registry: &mut Registry<G>, defaults: SearchDefaults) {
    fn build<G: Game + LeafEval>(
        method: SearchMethod,
        p: &Params<'_>,
    ) -> Result<Box<dyn yomi_core::Agent<G>>, BuildAgentError> {
        let depth = if method == SearchMethod::Greedy {
            1
        } else {
            p.u64_in("depth", 1, MAX_DEPTH)? as u32
        };
        let time = p.time_limit("time", MAX_SECONDS)?;
        Ok(Box::new(SearchAgent::new(method, depth, time)))
    }
    registry.register(
        AgentInfo {
            name: "greedy",
            summary: "one ply: the best evaluation after the move",
            params: vec![time_param()],
        },
        |p| build(SearchMethod::Greedy, p),
    );
    registry.register(
        AgentInfo {
            name: "minimax",
            summary: "plain minimax (negamax) to a depth; exact when the depth reaches the end",
            params: vec![depth_param(defaults.minimax), time_param()],
        },
        |p| build(SearchMethod::Minimax, p),
    );
    registry.register(
        AgentInfo {
            name: "alphabeta",
            summary: "negamax with alpha-beta pruning and move ordering; the values of minimax",
            params: vec![depth_param(defaults.alphabeta), time_param()],
        },
        |p| build(SearchMethod::AlphaBeta, p),
    );
    registry.register(
        AgentInfo {
            name: "average",
            summary: "best move at the root; below it the mean of the children's values",
            params: vec![depth_param(defaults.average), time_param()],
        },
        |p| build(SearchMethod::Average, p),
    );
}

/// The deepest bracket nesting in a spec value.
fn nesting(text: &str) -> usize {
    let mut depth = 0usize;
    let mut most = 0;
    for c in text.chars() {
        match c {
            '(' => {
                depth += 1;
                most = most.max(depth);
            }
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    most
}

/// Adds `blunder`, which wraps any agent of the registry it is built from.
pub fn register_blunder<G: Game>(registry: &mut Registry<G>) {
    registry.register_nested(
        AgentInfo {
            name: "blunder",
            summary: "wraps an agent; with probability p plays its second-best move",
            params: vec![
                ParamInfo {
                    name: "p",
                    default: "0.1",
                    help: "probability of a blunder per move",
                },
                ParamInfo {
                    name: "agent",
                    default: "alphabeta",
                    help: "the wrapped agent's spec, in brackets if it has parameters",
                },
            ],
        },
        |p, registry| {
            let prob = p.f64_in("p", 0.0, 1.0)?;
            let text = p.text("agent");
            if nesting(text) >= MAX_NESTING {
                return Err(BuildAgentError::BadValue {
                    agent: "blunder".into(),
                    param: "agent".into(),
                    value: text.into(),
                    expected: format!("an agent spec nested at most {MAX_NESTING} deep"),
                });
            }
            let inner = registry.build(text).map_err(|e| BuildAgentError::Inner {
                agent: "blunder".into(),
                param: "agent".into(),
                source: Box::new(e),
            })?;
            Ok(Box::new(BlunderAgent::new(prob, inner)))
        },
    );
}

/// Adds every generic agent: `random`, `first`, `pmc`, `pmc2`, `greedy`, `minimax`,
/// `alphabeta`, `average`, `mcts` and `blunder`.
pub fn register_standard<G: Game + LeafEval>(registry: &mut Registry<G>, defaults: SearchDefaults) {
    register_generic(registry);
    register_montecarlo(registry);
    register_search(registry, defaults);
    register_blunder(registry);
}

/// The study's tic-tac-toe agents, in the study's order, with one-line summaries.
const STUDY: [(&str, StudyRule, &str); 18] = [
    ("ai1", StudyRule::First, "the first empty square in row-major order"),
    ("ai1s", StudyRule::First, "as ai1"),
    ("ai2", StudyRule::Random, "a random legal move"),
    ("ai2s", StudyRule::Random, "as ai2"),
    ("ai3", StudyRule::Centre, "the centre if empty, else random"),
    ("ai3s", StudyRule::Centre, "as ai3"),
    ("ai4", StudyRule::CentreCorner, "the centre, else the first empty corner, else random"),
    ("ai4s", StudyRule::CentreCorner, "as ai4"),
    ("ai5", StudyRule::Win, "a winning move, else random"),
    ("ai5s", StudyRule::Win, "as ai5"),
    ("ai6", StudyRule::WinBlock, "win, else block the opponent's line, else random"),
    ("ai6s", StudyRule::Ai6s, "score: win 1; opponent threat (021>0) -1; else 0"),
    ("ai7", StudyRule::CentreWinBlock, "the centre if empty, else as ai6"),
    ("ai7s", StudyRule::Ai7s, "score: centre 2; win 1; 021>0 -1; else 0"),
    ("ai8s", StudyRule::Ai8s, "score: centre 3; win 2; 021>0 -1; 201>=1 1; else 0"),
    ("ai9s", StudyRule::Ai9s, "score: centre 4; win 3; 021>0 -1; 201>=2 2; 201=1 1; else 0"),
    ("ai10s", StudyRule::AI10S, "score: centre 300; win 200; 021>0 -100; 201>=2 100; else [201=1] + 102"),
    ("ai14s", StudyRule::Ai14s, "score: win 300; -100*021, or 201>=2 200; diagonal trap 100; else 2*[201=1] + 0.5*102 - 012"),
];

/// Adds the study's agents (`ai1` .. `ai14s`; `pmc` and `pmc2` are generic, see
/// [`register_montecarlo`]).
pub fn register_study(registry: &mut Registry<TicTacToe>) {
    for (name, rule, summary) in STUDY {
        registry.register(
            AgentInfo {
                name,
                summary,
                params: vec![],
            },
            move |_| Ok(Box::new(StudyAgent::new(name, rule))),
        );
        if name == "ai10s" {
            register_ai11s(registry);
        }
    }
}

fn register_ai11s(registry: &mut Registry<TicTacToe>) {
    let weight = |name, default, help| ParamInfo {
        name,
        default,
        help,
    };
    registry.register(
        AgentInfo {
            name: "ai11s",
            summary: "as ai10s, the last line weighted: score_201*[201=1] + score_102*102 + score_012*012",
            params: vec![
                weight("score_201", "1", "weight of [count(2,0,1) = 1]"),
                weight("score_102", "1", "weight of count(1,0,2)"),
                weight("score_012", "-1", "weight of count(0,1,2)"),
            ],
        },
        |p| {
            let w = |name| p.weight_in(name, Weight::units(-1_000_000), Weight::units(1_000_000));
            let rule = StudyRule::Ai11s {
                score_201: w("score_201")?,
                score_102: w("score_102")?,
                score_012: w("score_012")?,
            };
            Ok(Box::new(StudyAgent::new("ai11s", rule)))
        },
    );
}

impl Zoo for TicTacToe {
    /// `random`, `first`, the study's `ai1` .. `ai14s`, then `pmc`, `pmc2`, `mcts`, `greedy`,
    /// `minimax`, `alphabeta`, `average`, the tree agents (`perfect`, `perfect-sv`, `pmc-exact`,
    /// `pmc2-exact`, `table`) and `blunder` (alpha-beta defaults to the full 9 plies).
    fn zoo() -> Registry<TicTacToe> {
        let mut r = Registry::empty();
        register_generic(&mut r);
        register_study(&mut r);
        register_montecarlo(&mut r);
        register_search(&mut r, SearchDefaults::TICTACTOE);
        register_tree(&mut r);
        register_blunder(&mut r);
        r
    }
}

impl Zoo for Nim {
    /// Every generic agent ([`register_standard`]; searches see the whole 15-stone game) and
    /// the tree agents ([`register_tree`]).
    fn zoo() -> Registry<Nim> {
        let mut r = Registry::empty();
        register_standard(&mut r, SearchDefaults::NIM);
        register_tree(&mut r);
        r
    }
}

impl Zoo for Othello {
    /// Every generic agent ([`register_standard`]) with the generic depths (minimax 4,
    /// alpha-beta 6, average 4; the leaf evaluation is the disc difference), then the Othello
    /// engine `othello` ([`OthelloAgent`](crate::OthelloAgent)).
    fn zoo() -> Registry<Othello> {
        let mut r = Registry::empty();
        register_standard(&mut r, SearchDefaults::GENERIC);
        crate::othello_agent::register_othello(&mut r);
        r
    }
}

impl Zoo for Othello4 {
    /// Every generic agent ([`register_standard`]; alpha-beta sees the whole 4x4 game, the
    /// leaf evaluation is the disc difference), the tree agents ([`register_tree`]: the
    /// 4x4 tree is small enough to build) and `othello`
    /// ([`SmallOthelloAgent`](crate::SmallOthelloAgent)).
    fn zoo() -> Registry<Othello4> {
        let mut r = Registry::empty();
        register_standard(&mut r, SearchDefaults::OTHELLO4);
        register_tree(&mut r);
        crate::register_small_othello(&mut r);
        r
    }
}

impl Zoo for Othello6 {
    /// Every generic agent ([`register_standard`]) with the generic depths (minimax 4,
    /// alpha-beta 6, average 4; the leaf evaluation is the disc difference) and `othello`
    /// ([`SmallOthelloAgent`](crate::SmallOthelloAgent)).
    fn zoo() -> Registry<Othello6> {
        let mut r = Registry::empty();
        register_standard(&mut r, SearchDefaults::GENERIC);
        crate::register_small_othello(&mut r);
        r
    }
}
