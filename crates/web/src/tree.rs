//! The tree browser's data: a position of the solved game, its children, their exact values
//! and their pictures (drawn by `yomi_tree::svg`, as `yomi tree show --svg` draws them).

use serde::Serialize;
use yomi_core::{Game, Player};
use yomi_tree::svg::{board_svg, BoardCard};
use yomi_tree::{shared_solution, Ratio, Scoring, Solution};

use crate::games::{outcome_view, replay, OutcomeView, WebGame};
use crate::ApiError;

/// The cell size of the tree browser's boards, in pixels.
const CELL: f64 = 26.0;

/// A number shown above a board: short text, the exact value, and a float for colouring.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Value {
    text: String,
    exact: String,
    value: f64,
}

impl Value {
    fn ratio(r: Ratio) -> Value {
        Value {
            text: format!("{:.3}", r.to_f64()),
            exact: r.to_string(),
            value: r.to_f64(),
        }
    }

    fn whole(v: f64, exact: String) -> Value {
        Value {
            text: exact.clone(),
            exact,
            value: v,
        }
    }
}

/// Every number the browser can show for one position, all from the first player's side
/// except the playout scores, which are given for each player.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Values {
    minimax: Value,
    sv: Value,
    p_first: Value,
    p_draw: Value,
    p_second: Value,
    score_first: Value,
    score_second: Value,
}

/// One board of the browser.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NodeView {
    /// The move that led here from the shown position (`null` for the shown position itself).
    #[serde(rename = "move")]
    mv: Option<String>,
    position: String,
    values: Values,
    /// Among the plain-minimax / shortest-victory best moves of the parent.
    best_plain: bool,
    best_sv: bool,
    outcome: Option<OutcomeView>,
    /// The board as an SVG document.
    svg: String,
}

/// The browser's answer: the position, its children, and where it sits among its siblings.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TreeView {
    game: &'static str,
    players: [&'static str; 2],
    alpha: String,
    moves: Vec<String>,
    ply: usize,
    node: NodeView,
    children: Vec<NodeView>,
    /// The moves of the parent position (the siblings' moves, in order), empty at the root.
    siblings: Vec<String>,
    /// The index of the last move among `siblings`.
    index: Option<usize>,
}

/// The tree view of the position reached by `moves` from the start, with playout scores at
/// draw weight `alpha` and boards framed by `scoring`'s best moves.
pub(crate) fn tree_view<G: WebGame>(
    moves: &[String],
    alpha: Ratio,
    scoring: Scoring,
) -> Result<TreeView, ApiError> {
    let pos: G = replay(moves)?;
    let sol = shared_solution::<G>().map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = sol
        .id_of(&pos)
        .ok_or_else(|| ApiError::Internal(format!("position {pos} is not in the tree")))?;
    let ply = moves.len();
    let graph = sol.graph();
    let node = node_view(
        &sol,
        id,
        ply,
        None,
        (false, false),
        alpha,
        (Vec::new(), false),
    )?;
    let mut children = Vec::new();
    let child_moves = graph.moves(id);
    for (k, child) in graph.children(id).enumerate() {
        let best = (
            sol.is_best(id, k, Scoring::Plain),
            sol.is_best(id, k, Scoring::ShortestVictory),
        );
        let mv = child_moves[k];
        // The move just played is shaded; best moves under `scoring` are framed.
        let framed = match scoring {
            Scoring::Plain => best.0,
            Scoring::ShortestVictory => best.1,
        };
        let look = (G::marked(&pos, mv), framed);
        children.push(node_view(
            &sol,
            child,
            ply + 1,
            Some(mv),
            best,
            alpha,
            look,
        )?);
    }
    let (siblings, index) = match moves.split_last() {
        None => (Vec::new(), None),
        Some((_, parent_moves)) => {
            let parent: G = replay(parent_moves)?;
            let siblings: Vec<G::Move> = parent.legal_moves().iter().copied().collect();
            let last = pos_last_move::<G>(moves);
            let index = last.and_then(|m| siblings.iter().position(|&s| s == m));
            (siblings.iter().map(ToString::to_string).collect(), index)
        }
    };
    Ok(TreeView {
        game: G::NAME,
        players: G::PLAYER_NAMES,
        alpha: alpha.to_string(),
        moves: moves
            .iter()
            .filter_map(|t| t.trim().parse::<G::Move>().ok())
            .map(|m| m.to_string())
            .collect(),
        ply,
        node,
        children,
        siblings,
        index,
    })
}

fn pos_last_move<G: Game>(moves: &[String]) -> Option<G::Move> {
    moves.last().and_then(|t| t.trim().parse().ok())
}

fn svg_for<G: WebGame>(pos: &G, marked: Vec<usize>, highlight: bool) -> String {
    match pos.picture() {
        Some(picture) => {
            let mut card = BoardCard::new(picture);
            card.marked = marked;
            card.highlight = highlight;
            card.outcome = pos.outcome();
            board_svg(&card, CELL)
        }
        None => String::new(),
    }
}

fn node_view<G: WebGame>(
    sol: &Solution<G>,
    id: usize,
    ply: usize,
    mv: Option<G::Move>,
    (best_plain, best_sv): (bool, bool),
    alpha: Ratio,
    (marked, highlight): (Vec<usize>, bool),
) -> Result<NodeView, ApiError> {
    let pos = sol.graph().position(id);
    let p = sol.probs(id);
    let score = |player| {
        p.score(player, alpha)
            .map(Value::ratio)
            .map_err(|e| ApiError::Internal(e.to_string()))
    };
    let plain = sol.plain(id);
    let sv = sol.sv_at(id, u32::try_from(ply).unwrap_or(u32::MAX));
    Ok(NodeView {
        mv: mv.map(|m| m.to_string()),
        position: pos.to_string(),
        values: Values {
            minimax: Value::whole(f64::from(plain), plain.to_string()),
            sv: Value::whole(sv.to_f64(), sv.to_string()),
            p_first: Value::ratio(p.first()),
            p_draw: Value::ratio(p.draw()),
            p_second: Value::ratio(p.second()),
            score_first: score(Player::First)?,
            score_second: score(Player::Second)?,
        },
        best_plain,
        best_sv,
        outcome: pos.outcome().map(outcome_view::<G>),
        svg: svg_for(pos, marked, highlight),
    })
}
