//! Registration of the agents that read the exact game tree (`yomi-tree`): `perfect`,
//! `perfect-sv`, `pmc-exact`, `pmc2-exact` and `table`.

use yomi_core::Game;
use yomi_tree::{PlayoutRule, Scoring, TreeAgent, TreeError, TreeRule};

use crate::{AgentInfo, BuildAgentError, ParamInfo, Params, Registry};

fn build<G: Game>(
    name: &str,
    rule: TreeRule,
) -> Result<Box<dyn yomi_core::Agent<G>>, BuildAgentError> {
    TreeAgent::<G>::new(rule)
        .map(|a| Box::new(a) as Box<dyn yomi_core::Agent<G>>)
        .map_err(|e: TreeError| BuildAgentError::Data {
            agent: name.to_string(),
            reason: e.to_string(),
        })
}

fn scoring(p: &Params<'_>) -> Result<Scoring, BuildAgentError> {
    p.text("scoring")
        .parse()
        .map_err(|_| p.bad("scoring", "plain or sv"))
}

/// Adds the agents that read the solved game tree. The solution is built once per process
/// and game (about a millisecond for tic-tac-toe) and shared by every agent and thread; a
/// `table` file is read and checked once per path.
///
/// `table` has no default file: a spec must name one (`table:file=data/tictactoe.tree`), so
/// [`AgentInfo::builds_bare`] is false for it.
pub fn register_tree<G: Game>(registry: &mut Registry<G>) {
    registry.register(
        AgentInfo {
            name: "perfect",
            summary: "random among the plain-minimax best moves (reads the game tree)",
            params: vec![],
        },
        |_| build("perfect", TreeRule::Minimax(Scoring::Plain)),
    );
    registry.register(
        AgentInfo {
            name: "perfect-sv",
            summary: "random among the shortest-victory best moves: fastest win, slowest loss",
            params: vec![],
        },
        |_| build("perfect-sv", TreeRule::Minimax(Scoring::ShortestVictory)),
    );
    registry.register(
        AgentInfo {
            name: "pmc-exact",
            summary: "pmc with infinitely many playouts: highest exact P(win), ties by P(draw)",
            params: vec![],
        },
        |_| build("pmc-exact", TreeRule::Playout(PlayoutRule::Pmc)),
    );
    registry.register(
        AgentInfo {
            name: "pmc2-exact",
            summary: "pmc2 with infinitely many playouts: highest exact P(win) + alpha*P(draw)",
            params: vec![ParamInfo {
                name: "alpha",
                default: "1/2",
                help: "weight of a draw, exact (a fraction or a decimal)",
            }],
        },
        |p| {
            let alpha = yomi_tree::parse_alpha(p.text("alpha"))
                .map_err(|_| p.bad("alpha", "a fraction or decimal from 0 to 1, such as 1/2"))?;
            build("pmc2-exact", TreeRule::Playout(PlayoutRule::Pmc2 { alpha }))
        },
    );
    registry.register(
        AgentInfo {
            name: "table",
            summary: "random among the best moves stored in a tree data file",
            params: vec![
                ParamInfo {
                    name: "file",
                    default: "",
                    help: "the tree file, e.g. data/tictactoe.tree (required)",
                },
                ParamInfo {
                    name: "scoring",
                    default: "plain",
                    help: "which best moves: plain or sv (shortest victory)",
                },
            ],
        },
        |p| {
            let file = p.text("file");
            if file.is_empty() {
                return Err(p.bad("file", "the path of a tree file (required)"));
            }
            let scoring = scoring(p)?;
            build(
                "table",
                TreeRule::Table {
                    path: file.into(),
                    scoring,
                },
            )
        },
    );
}
