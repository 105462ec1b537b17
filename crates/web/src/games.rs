//! What the page needs from each game: a board view, which cell a move is played on, a picture
//! for the tree browser, and replaying a move list.

use serde::Serialize;
use yomi_agents::Zoo;
use yomi_core::{Game, Outcome, Player};
use yomi_nim::Nim;
use yomi_othello_search::Book;
use yomi_tictactoe::{Square, TicTacToe};
use yomi_tree::svg::Picture;

use crate::book::{server_book, BookView};
use crate::state::AppState;
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

/// How the page labels the columns and rows of a grid board (`None` entries: no label).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Coordinates {
    /// Above the columns, left to right.
    pub(crate) columns: Vec<String>,
    /// Beside the rows, top to bottom.
    pub(crate) rows: Vec<String>,
    /// Every cell's name in the game's move notation, row by row (`a1`, `b1`, ...; `(0,0)`,
    /// `(1,0)`, ...).
    pub(crate) cells: Vec<String>,
}

/// How the page's position editor works for a game.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub(crate) enum SetupView {
    /// Click cells to cycle them through `pieces` (`.` empty, then the first and second
    /// player's piece characters of the position notation); `side`: whether the side to move
    /// is chosen (written after the cells, separated by a space, as `first_side` /
    /// `second_side`), else the notation implies it.
    Grid {
        pieces: [&'static str; 3],
        side: Option<[&'static str; 2]>,
    },
    /// A number of stones (at most `most`) and the side to move, written `N:first`.
    Stones { most: u32 },
}

/// A game the web page plays.
pub(crate) trait WebGame: Zoo {
    /// A name for people, e.g. `tic-tac-toe`.
    const TITLE: &'static str;
    /// The most moves a game can have (longer move lists are refused).
    const MAX_MOVES: usize;
    /// How the page draws pieces: `marks` (o and x), `discs` or `stones`.
    const LOOK: &'static str;
    /// The agent spec of the analysis (its explanation's values are shown on the board).
    const ANALYST: &'static str;
    /// Parameters the analysis gives its analyst after the time (`,name=value...`; empty for
    /// none).
    const ANALYST_PARAMS: &'static str = "";
    /// The record formats that `/api/export` and `/api/import` take for the game.
    const FORMATS: &'static [&'static str] = &["line"];
    /// How the page's editor sets up a position.
    fn setup() -> SetupView;
    /// The labels of a grid board's columns and rows (`None` for boards without a grid).
    fn coordinates() -> Option<Coordinates>;
    /// Refuses a set-up position that the parser accepts but the page does not play from,
    /// with the reason.
    fn check_setup(&self) -> Result<(), String> {
        Ok(())
    }
    /// The result of a finished game from the first player's side, in the unit of the
    /// analysis (1 / 0 / -1 by default; Othello: the final disc difference).
    fn final_value(&self) -> Option<f64> {
        self.outcome().map(|o| match o.winner() {
            Some(Player::First) => 1.0,
            Some(Player::Second) => -1.0,
            None => 0.0,
        })
    }
    /// The record in `format`, one of [`WebGame::FORMATS`] other than `line`.
    ///
    /// # Errors
    /// [`ApiError::BadRecord`] when the game has no writer for `format`.
    fn write_record(format: &str, record: &Record<Self>) -> Result<String, ApiError> {
        let _ = record;
        Err(no_format::<Self>(format))
    }
    /// Reads a record in `format`, one of [`WebGame::FORMATS`] other than `line`.
    ///
    /// # Errors
    /// [`ApiError::BadRecord`] saying what does not read, or that the game has no reader for
    /// `format`.
    fn read_record(format: &str, text: &str) -> Result<Record<Self>, ApiError> {
        let _ = text;
        Err(no_format::<Self>(format))
    }
    /// A move list as a line of text (moves separated by spaces; Othello: `f5d6c3`).
    fn write_line(moves: &[Self::Move]) -> String {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// The moves of a line of text as written by [`WebGame::write_line`] (any white space
    /// between moves; Othello also without separators).
    ///
    /// # Errors
    /// The first move that does not parse, with its number and the parser's reason.
    fn read_line(text: &str) -> Result<Vec<Self::Move>, String> {
        text.split_whitespace()
            .enumerate()
            .map(|(i, word)| {
                word.parse()
                    .map_err(|e| format!("move {} {word:?}: {e}", i + 1))
            })
            .collect()
    }
    /// The board as the page draws it.
    fn view(&self) -> BoardView;
    /// The cell a move is played on (`None` for moves that are not on a cell: takes, passes).
    fn cell(mv: Self::Move) -> Option<usize>;
    /// The board as the tree browser's SVG draws it, if the game has a tree browser.
    fn picture(&self) -> Option<Picture>;
    /// The cells of `child`'s picture to shade after `mv` was played from `parent`.
    fn marked(parent: &Self, mv: Self::Move) -> Vec<usize>;
    /// The opening book's moves in this position, for a game that has books (Othello);
    /// `None` when it is not in `book`.
    fn book_view(&self, _book: &Book) -> Option<BookView> {
        None
    }
}

impl WebGame for TicTacToe {
    const TITLE: &'static str = "tic-tac-toe";
    const MAX_MOVES: usize = 9;
    const ANALYST: &'static str = "perfect";
    const LOOK: &'static str = "marks";

    fn setup() -> SetupView {
        SetupView::Grid {
            pieces: [".", "o", "x"],
            side: None,
        }
    }

    fn coordinates() -> Option<Coordinates> {
        let labels = || (0..3).map(|i| i.to_string()).collect();
        Some(Coordinates {
            columns: labels(),
            rows: labels(),
            cells: Square::ALL.iter().map(ToString::to_string).collect(),
        })
    }

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
    const ANALYST: &'static str = "perfect";
    const LOOK: &'static str = "stones";

    fn setup() -> SetupView {
        SetupView::Stones {
            most: Nim::STANDARD_PILE,
        }
    }

    fn coordinates() -> Option<Coordinates> {
        None
    }

    fn check_setup(&self) -> Result<(), String> {
        if self.stones() > Nim::STANDARD_PILE {
            return Err(format!(
                "{} stones: the page plays piles of at most {}",
                self.stones(),
                Nim::STANDARD_PILE
            ));
        }
        Ok(())
    }

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

pub(crate) fn no_format<G: WebGame>(format: &str) -> ApiError {
    ApiError::BadRecord {
        format: format.to_string(),
        reason: format!(
            "{} records are written as {}",
            G::TITLE,
            G::FORMATS.join(" or ")
        ),
    }
}

pub(crate) fn counts(cells: &[Option<Player>]) -> [u32; 2] {
    let n = |p| cells.iter().filter(|&&c| c == Some(p)).count() as u32;
    [n(Player::First), n(Player::Second)]
}

/// The longest start position accepted, in bytes.
const MAX_START_LEN: usize = 200;

/// The position a game starts from: the standard start, or `text` in the game's position
/// notation, parsed and checked by [`WebGame::check_setup`].
///
/// # Errors
/// [`ApiError::BadPosition`] with the parser's or the check's reason.
pub(crate) fn start_position<G: WebGame>(text: Option<&str>) -> Result<G, ApiError> {
    let Some(text) = text else {
        return Ok(G::default());
    };
    let shown: String = text.chars().take(80).collect();
    if text.len() > MAX_START_LEN {
        return Err(ApiError::BadPosition {
            text: shown,
            reason: format!("longer than {MAX_START_LEN} bytes"),
        });
    }
    let pos: G = text.trim().parse().map_err(|e| ApiError::BadPosition {
        text: shown.clone(),
        reason: format!("{e}"),
    })?;
    pos.check_setup().map_err(|reason| ApiError::BadPosition {
        text: shown,
        reason,
    })?;
    Ok(pos)
}

/// Parses and plays `moves` from the standard start position, checking each.
///
/// # Errors
/// As [`Record::replay`].
pub(crate) fn replay<G: WebGame>(moves: &[String]) -> Result<G, ApiError> {
    Ok(Record::replay(G::default(), moves)?.pos)
}

/// A game record: the start, the moves played from it (checked) and the position reached.
#[derive(Debug, Clone)]
pub(crate) struct Record<G: Game> {
    pub(crate) start: G,
    pub(crate) moves: Vec<G::Move>,
    pub(crate) pos: G,
}

impl<G: WebGame> Record<G> {
    /// The record of a request: its `start` (the standard start if `None`) and its moves.
    ///
    /// # Errors
    /// As [`start_position`] and [`Record::replay`].
    pub(crate) fn of(start: Option<&str>, moves: &[String]) -> Result<Record<G>, ApiError> {
        Record::replay(start_position(start)?, moves)
    }

    /// Parses and plays `moves` from `start`, checking each.
    ///
    /// # Errors
    /// [`ApiError::TooManyMoves`], [`ApiError::BadMove`], [`ApiError::IllegalMove`].
    pub(crate) fn replay(start: G, moves: &[String]) -> Result<Record<G>, ApiError> {
        if moves.len() > G::MAX_MOVES {
            return Err(ApiError::TooManyMoves {
                count: moves.len(),
                limit: G::MAX_MOVES,
            });
        }
        let mut pos = start.clone();
        let mut played = Vec::with_capacity(moves.len());
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
            played.push(mv);
        }
        Ok(Record {
            start,
            moves: played,
            pos,
        })
    }

    /// The record with one more move (legal in `pos`).
    pub(crate) fn then(mut self, mv: G::Move) -> Record<G> {
        self.pos = self.pos.play_unchecked(mv);
        self.moves.push(mv);
        self
    }

    /// The page's view of the position reached, with its last move.
    pub(crate) fn view(&self) -> StateView {
        record_view(&self.start, &self.moves)
    }

    /// [`Record::view`] with the server's book moves in the position, if any.
    ///
    /// # Errors
    /// [`ApiError::Internal`] when the server's book no longer reads.
    pub(crate) fn view_in(&self, app: &AppState) -> Result<StateView, ApiError> {
        let mut view = self.view();
        if let Some(path) = &app.config.book {
            view.book = self.pos.book_view(&*server_book(path)?);
        }
        Ok(view)
    }
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

/// The last move of a record and what it changed on the board.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LastMove {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
    /// Cells of a grid whose piece changed colour (Othello's flipped discs); stones taken.
    changed: Vec<usize>,
}

/// A position as the page sees it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct StateView {
    game: &'static str,
    /// The position the moves were played from (the game's standard start unless set up).
    start: String,
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
    /// The last move of `moves`, `null` at the start.
    last: Option<LastMove>,
    /// The server's opening book in this position (Othello, `yomi serve --book`): `null`
    /// when the server has no book or the position is not in it.
    book: Option<BookView>,
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

/// What the last move changed: the cells whose piece changed colour (grids), the stones it
/// took (the stone game).
fn last_move<G: WebGame>(parent: &G, mv: G::Move, child: &G) -> LastMove {
    let changed = match (parent.view(), child.view()) {
        (BoardView::Grid { cells: before, .. }, BoardView::Grid { cells: after, .. }) => before
            .iter()
            .zip(&after)
            .enumerate()
            .filter(|(_, (b, a))| b.is_some() && b != a)
            .map(|(i, _)| i)
            .collect(),
        _ => G::marked(parent, mv),
    };
    LastMove {
        mv: mv.to_string(),
        cell: G::cell(mv),
        changed,
    }
}

/// The view of the position reached by `moves` (already checked) from `start`.
pub(crate) fn record_view<G: WebGame>(start: &G, moves: &[G::Move]) -> StateView {
    let mut pos = start.clone();
    let mut last = None;
    for &mv in moves {
        let next = pos.play_unchecked(mv);
        last = Some((pos, mv));
        pos = next;
    }
    let texts = moves.iter().map(ToString::to_string).collect();
    let mut view = state_view(&pos, texts);
    view.start = start.to_string();
    view.last = last.map(|(parent, mv)| last_move(&parent, mv, &pos));
    view
}

/// The view of `pos`, reached by `moves` (normalised to the game's notation) from the
/// standard start (callers from another start or with a last move fill in `start` and
/// `last`: see [`record_view`]).
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
        start: G::default().to_string(),
        position: pos.to_string(),
        ply: moves.len(),
        moves,
        players: G::PLAYER_NAMES,
        to_move: pos.side_to_move(),
        legal,
        must_pass,
        outcome: pos.outcome().map(outcome_view::<G>),
        board: pos.view(),
        last: None,
        book: None,
    }
}

impl BoardView {
    fn is_grid(&self) -> bool {
        matches!(self, BoardView::Grid { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Rng;
    use yomi_othello::{Move as OthelloMove, Othello};

    /// Random games of `G`, each as its move list.
    fn random_games<G: WebGame>(count: u64) -> Vec<Vec<G::Move>> {
        (0..count)
            .map(|seed| {
                let mut rng = Rng::seed_from_u64(seed);
                let mut pos = G::default();
                let mut moves = Vec::new();
                while !pos.is_over() {
                    let legal = pos.legal_moves();
                    let mv = legal[rng.below(legal.len())];
                    moves.push(mv);
                    pos = pos.play_unchecked(mv);
                }
                moves
            })
            .collect()
    }

    fn lines_round_trip<G: WebGame>() {
        let mut passes = 0;
        for moves in random_games::<G>(200) {
            let text = G::write_line(&moves);
            assert_eq!(G::read_line(&text), Ok(moves.clone()), "{text}");
            passes += moves.iter().filter(|m| G::cell(**m).is_none()).count();
            // The record of the game replays to the same end.
            let record = Record::<G>::replay(
                G::default(),
                &moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
            )
            .unwrap();
            assert!(record.pos.is_over());
            assert_eq!(
                record.view().last.unwrap().mv,
                moves.last().unwrap().to_string()
            );
        }
        if G::NAME == "othello" {
            assert!(passes > 0, "some random Othello games pass");
        }
    }

    #[test]
    fn move_lines_round_trip() {
        lines_round_trip::<TicTacToe>();
        lines_round_trip::<Nim>();
        lines_round_trip::<Othello>();
        assert_eq!(
            TicTacToe::read_line(" 11\n(0,0)  2,2 ").map(|m| TicTacToe::write_line(&m)),
            Ok("(1,1) (0,0) (2,2)".to_string())
        );
        assert_eq!(
            Othello::read_line("F5 d6pass").map(|m| Othello::write_line(&m)),
            Ok("f5d6PA".to_string())
        );
        assert_eq!(Nim::read_line(""), Ok(Vec::new()));
        let err = Nim::read_line("3 4").unwrap_err();
        assert!(err.starts_with("move 2 \"4\""), "{err}");
        let err = Othello::read_line("f5 z9").unwrap_err();
        assert!(err.contains("move 2"), "{err}");
    }

    #[test]
    fn othello_set_up_checks() {
        let start = Othello::new();
        assert_eq!(start.check_setup(), Ok(()));
        // Every position of random games (not at a pass) passes; a pass position does not.
        for moves in random_games::<Othello>(50) {
            let mut pos = Othello::new();
            for mv in moves {
                let must_pass = mv == OthelloMove::Pass;
                assert_eq!(pos.check_setup().is_err(), must_pass, "{pos}");
                pos = pos.play_unchecked(mv);
            }
            assert_eq!(pos.check_setup(), Ok(()), "a finished game is accepted");
        }
        let empty: Othello = format!("{} X", "-".repeat(64)).parse().unwrap();
        let err = empty.check_setup().unwrap_err();
        assert!(err.contains("d4, e4, d5, e5 empty"), "{err}");
        let nim: Nim = "16:first".parse().unwrap();
        assert!(nim.check_setup().unwrap_err().contains("at most 15"));
        assert_eq!("15:second".parse::<Nim>().unwrap().check_setup(), Ok(()));
    }

    #[test]
    fn last_moves_name_what_changed() {
        let pos = Othello::new();
        let f5: OthelloMove = "f5".parse().unwrap();
        let child = pos.play_unchecked(f5);
        let last = last_move(&pos, f5, &child);
        assert_eq!((last.cell, last.changed), (Some(37), vec![36]));
        // Flipped discs are exactly the cells whose colour changed.
        for moves in random_games::<Othello>(20) {
            let mut pos = Othello::new();
            for mv in moves {
                let child = pos.play_unchecked(mv);
                let last = last_move(&pos, mv, &child);
                let flips = match mv {
                    OthelloMove::Place(sq) => pos.flips(sq).count() as usize,
                    OthelloMove::Pass => 0,
                };
                assert_eq!(last.changed.len(), flips);
                pos = child;
            }
        }
        let nim = Nim::default();
        let take: yomi_nim::Take = "2".parse().unwrap();
        let last = last_move(&nim, take, &nim.play_unchecked(take));
        assert_eq!((last.cell, last.changed), (None, vec![13, 14]));
    }
}
