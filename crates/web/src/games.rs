//! What the page needs from each game: a board view, which cell a move is played on, a picture
//! for the tree browser, and replaying a move list.

use serde::Serialize;
use yomi_agents::Zoo;
use yomi_core::{Game, Outcome, Player};
use yomi_nim::Nim;
use yomi_othello::{Move as OthelloMove, Othello, Square as OthelloSquare};
use yomi_tictactoe::{Square, TicTacToe};
use yomi_tree::svg::Picture;

use crate::ApiError;

/// How the page draws a board.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum BoardView {
    /// A grid of cells, row by row from the top left, each `"first"`, `"second"` or `null`.
    Grid {
        width: u8,
        height: u8,
        cells: Vec<Option<Player>>,
        /// Discs or marks of the first and second player.
        counts: [u32; 2],
    },
    /// A pile of stones.
    Stones { left: u32, total: u32 },
}

/// A game the web page plays.
pub(crate) trait WebGame: Zoo {
    /// A name for people, e.g. `tic-tac-toe`.
    const TITLE: &'static str;
    /// The most moves a game can have (longer move lists are refused).
    const MAX_MOVES: usize;
    /// The board as the page draws it.
    fn view(&self) -> BoardView;
    /// The cell a move is played on (`None` for moves that are not on a cell: takes, passes).
    fn cell(mv: Self::Move) -> Option<usize>;
    /// The board as the tree browser's SVG draws it, if the game has a tree browser.
    fn picture(&self) -> Option<Picture>;
    /// The cells of `child`'s picture to shade after `mv` was played from `parent`.
    fn marked(parent: &Self, mv: Self::Move) -> Vec<usize>;
}

impl WebGame for TicTacToe {
    const TITLE: &'static str = "tic-tac-toe";
    const MAX_MOVES: usize = 9;

    fn view(&self) -> BoardView {
        let cells: Vec<Option<Player>> = Square::ALL.iter().map(|&sq| self.cell(sq)).collect();
        BoardView::Grid {
            width: 3,
            height: 3,
            counts: counts(&cells),
            cells,
        }
    }

    fn cell(mv: Square) -> Option<usize> {
        Some(mv.index())
    }

    fn picture(&self) -> Option<Picture> {
        Some(Picture::Marks {
            width: 3,
            height: 3,
            cells: Square::ALL.iter().map(|&sq| self.cell(sq)).collect(),
        })
    }

    fn marked(_: &Self, mv: Square) -> Vec<usize> {
        vec![mv.index()]
    }
}

impl WebGame for Nim {
    const TITLE: &'static str = "15 stones";
    const MAX_MOVES: usize = Nim::STANDARD_PILE as usize;

    fn view(&self) -> BoardView {
        BoardView::Stones {
            left: self.stones(),
            total: Nim::STANDARD_PILE,
        }
    }

    fn cell(_: yomi_nim::Take) -> Option<usize> {
        None
    }

    fn picture(&self) -> Option<Picture> {
        Some(Picture::Stones {
            left: self.stones(),
            total: Nim::STANDARD_PILE,
        })
    }

    fn marked(parent: &Self, mv: yomi_nim::Take) -> Vec<usize> {
        let left = parent.stones().saturating_sub(u32::from(mv.count()));
        (left..parent.stones()).map(|i| i as usize).collect()
    }
}

impl WebGame for Othello {
    const TITLE: &'static str = "Othello";
    /// 60 placements and, between them, passes (two passes in a row end the game).
    const MAX_MOVES: usize = 120;

    fn view(&self) -> BoardView {
        let (black, white) = (self.black(), self.white());
        let cells: Vec<Option<Player>> = OthelloSquare::ALL
            .iter()
            .map(|&sq| {
                if black.contains(sq) {
                    Some(Player::First)
                } else if white.contains(sq) {
                    Some(Player::Second)
                } else {
                    None
                }
            })
            .collect();
        BoardView::Grid {
            width: 8,
            height: 8,
            counts: counts(&cells),
            cells,
        }
    }

    fn cell(mv: OthelloMove) -> Option<usize> {
        mv.square().map(OthelloSquare::index)
    }

    fn picture(&self) -> Option<Picture> {
        None
    }

    fn marked(_: &Self, mv: OthelloMove) -> Vec<usize> {
        Self::cell(mv).into_iter().collect()
    }
}

fn counts(cells: &[Option<Player>]) -> [u32; 2] {
    let n = |p| cells.iter().filter(|&&c| c == Some(p)).count() as u32;
    [n(Player::First), n(Player::Second)]
}

/// Parses and plays `moves` from the start position, checking each.
///
/// # Errors
/// [`ApiError::TooManyMoves`], [`ApiError::BadMove`], [`ApiError::IllegalMove`].
pub(crate) fn replay<G: WebGame>(moves: &[String]) -> Result<G, ApiError> {
    if moves.len() > G::MAX_MOVES {
        return Err(ApiError::TooManyMoves {
            count: moves.len(),
            limit: G::MAX_MOVES,
        });
    }
    let mut pos = G::default();
    for (index, text) in moves.iter().enumerate() {
        let mv: G::Move = text.trim().parse().map_err(|e| ApiError::BadMove {
            text: text.chars().take(40).collect(),
            index,
            reason: format!("{e}"),
        })?;
        pos = pos.play(mv).map_err(|_| ApiError::IllegalMove {
            text: text.chars().take(40).collect(),
            index,
            position: pos.to_string(),
        })?;
    }
    Ok(pos)
}

/// One legal move as the page sees it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LegalMove {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
}

/// A finished game's result.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct OutcomeView {
    /// `"first"`, `"second"` or `null` for a draw.
    winner: Option<Player>,
    /// `o wins`, `draw`, ...
    text: String,
}

/// A position as the page sees it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StateView {
    game: &'static str,
    position: String,
    ply: usize,
    moves: Vec<String>,
    players: [&'static str; 2],
    to_move: Player,
    legal: Vec<LegalMove>,
    /// The only legal move is a pass.
    must_pass: bool,
    outcome: Option<OutcomeView>,
    board: BoardView,
}

/// What a finished game's result says, with the game's player names.
pub(crate) fn outcome_view<G: Game>(outcome: Outcome) -> OutcomeView {
    OutcomeView {
        winner: outcome.winner(),
        text: match outcome.winner() {
            Some(p) => format!("{} wins", G::PLAYER_NAMES[p.index()]),
            None => "draw".to_string(),
        },
    }
}

/// The view of `pos`, reached by `moves` (normalised to the game's notation).
pub(crate) fn state_view<G: WebGame>(pos: &G, moves: Vec<String>) -> StateView {
    let legal: Vec<LegalMove> = pos
        .legal_moves()
        .iter()
        .map(|&mv| LegalMove {
            mv: mv.to_string(),
            cell: G::cell(mv),
        })
        .collect();
    let must_pass = legal.len() == 1 && legal[0].cell.is_none() && pos.view().is_grid();
    StateView {
        game: G::NAME,
        position: pos.to_string(),
        ply: moves.len(),
        moves,
        players: G::PLAYER_NAMES,
        to_move: pos.side_to_move(),
        legal,
        must_pass,
        outcome: pos.outcome().map(outcome_view::<G>),
        board: pos.view(),
    }
}

impl BoardView {
    fn is_grid(&self) -> bool {
        matches!(self, BoardView::Grid { .. })
    }
}

/// The moves of a list in the game's own notation (`(1,1)`, `3`, `f5`, `PA`).
pub(crate) fn normalise<G: Game>(pos_moves: &[String]) -> Vec<String> {
    pos_moves
        .iter()
        .filter_map(|t| t.trim().parse::<G::Move>().ok())
        .map(|m| m.to_string())
        .collect()
}
