//! The Othello boards on the page (8x8, and 4x4 and 6x6 through one macro): their board view,
//! notation, records and pictures.

use yomi_core::{Game, Player};
use yomi_othello::{
    ggf, Board, Move as OthelloMove, MoveSequence, Othello, Square as OthelloSquare,
};
use yomi_tree::svg::Picture;

use crate::games::{counts, no_format, BoardView, Coordinates, Record, SetupView, WebGame};
use crate::ApiError;

impl WebGame for Othello {
    const TITLE: &'static str = "Othello";
    /// 60 placements and, between them, passes (two passes in a row end the game).
    const MAX_MOVES: usize = 120;
    const ANALYST: &'static str = "othello";
    /// A full-width search (no Multi-ProbCut) that values every root move (`root=all`): its
    /// values are the minimax values at the depth reached, comparable between moves and equal
    /// on symmetric ones, whatever order it searched them in (a pruned search's values depend
    /// on the windows and the table; playing agents keep ProbCut and prove only their best
    /// moves, for strength).
    const ANALYST_PARAMS: &'static str = ",probcut=off,root=all";
    const LOOK: &'static str = "discs";
    const FORMATS: &'static [&'static str] = &["line", "ggf"];

    fn setup() -> SetupView {
        SetupView::Grid {
            pieces: ["-", "X", "O"],
            side: Some(["X", "O"]),
        }
    }

    fn coordinates() -> Option<Coordinates> {
        Some(Coordinates {
            columns: ('a'..='h').map(String::from).collect(),
            rows: (1..=8).map(|i| i.to_string()).collect(),
            cells: OthelloSquare::ALL.iter().map(ToString::to_string).collect(),
        })
    }

    /// The four centre squares must be occupied (every Othello game starts with them), and a
    /// side to move that has no move while the opponent has one is refused (it could only
    /// pass: set the other side to move).
    fn check_setup(&self) -> Result<(), String> {
        check_board_setup(self)
    }

    /// Black's final disc difference, the empty squares given to the winner.
    fn final_value(&self) -> Option<f64> {
        yomi_core::FinalScore::final_score(self).map(f64::from)
    }

    fn write_line(moves: &[OthelloMove]) -> String {
        MoveSequence(moves.to_vec()).to_string()
    }

    /// `ggf`: a GGF record (`yomi_othello::ggf::Record`) with the start board, the moves and, for
    /// a finished game, the result.
    fn write_record(format: &str, record: &Record<Othello>) -> Result<String, ApiError> {
        if format != "ggf" {
            return Err(no_format::<Othello>(format));
        }
        ggf::Record::from_line(record.start, &record.moves)
            .map(|game| game.to_string())
            .map_err(|e| ApiError::Internal(format!("a checked record does not replay: {e}")))
    }

    /// `ggf`: one GGF record (NBoard, Edax, the GGS archives); its start board must pass
    /// [`WebGame::check_setup`].
    fn read_record(format: &str, text: &str) -> Result<Record<Othello>, ApiError> {
        if format != "ggf" {
            return Err(no_format::<Othello>(format));
        }
        let game: ggf::Record =
            text.parse()
                .map_err(|e: yomi_othello::ggf::ParseError| ApiError::BadRecord {
                    format: "ggf".into(),
                    reason: e.to_string(),
                })?;
        let start = game.start();
        start.check_setup().map_err(|reason| ApiError::BadRecord {
            format: "ggf".into(),
            reason: format!("its start board {start} is refused: {reason}"),
        })?;
        let moves = game.line();
        if moves.len() > Self::MAX_MOVES {
            return Err(ApiError::TooManyMoves {
                count: moves.len(),
                limit: Self::MAX_MOVES,
            });
        }
        Ok(Record {
            start,
            pos: game.position(),
            moves,
        })
    }

    fn read_line(text: &str) -> Result<Vec<OthelloMove>, String> {
        text.parse::<MoveSequence>()
            .map(|s| s.0)
            .map_err(|e| e.to_string())
    }

    fn view(&self) -> BoardView {
        let cells = board_cells(self);
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

    fn book_view(&self, book: &yomi_othello_search::Book) -> Option<crate::book::BookView> {
        crate::book::book_view(self, book)
    }

    fn picture(&self) -> Option<Picture> {
        None
    }

    fn marked(_: &Self, mv: OthelloMove) -> Vec<usize> {
        Self::cell(mv).into_iter().collect()
    }
}

/// Othello on 4x4 and 6x6 (`othello4`, `othello6`): the board in the top-left corner of the
/// 8x8 squares, so cell `row * N + col` is square `row * 8 + col`.
macro_rules! small_othello_web_game {
    ($n:literal) => {
        impl WebGame for Board<$n> {
            const TITLE: &'static str = concat!("Othello ", $n, "x", $n);
            /// `$n * $n - 4` placements and, between them, passes.
            const MAX_MOVES: usize = 2 * $n * $n;
            const ANALYST: &'static str = "othello";
            const LOOK: &'static str = "discs";

            fn setup() -> SetupView {
                SetupView::Grid {
                    pieces: ["-", "X", "O"],
                    side: Some(["X", "O"]),
                }
            }

            fn coordinates() -> Option<Coordinates> {
                let squares = Board::<$n>::MASK;
                Some(Coordinates {
                    columns: ('a'..='h').take($n).map(String::from).collect(),
                    rows: (1..=$n).map(|i| i.to_string()).collect(),
                    cells: squares.iter().map(|sq| sq.to_string()).collect(),
                })
            }

            /// As on 8x8: the four centre squares hold discs, and a side to move that could only pass
            /// is refused.
            fn check_setup(&self) -> Result<(), String> {
                check_board_setup(self)
            }

            /// Black's final disc difference, the empty squares given to the winner.
            fn final_value(&self) -> Option<f64> {
                yomi_core::FinalScore::final_score(self).map(f64::from)
            }

            fn write_line(moves: &[OthelloMove]) -> String {
                moves.iter().map(ToString::to_string).collect()
            }

            /// Moves run together (`b1a1`) or separated by white space; `PA` is a pass.
            fn read_line(text: &str) -> Result<Vec<OthelloMove>, String> {
                let mut out = Vec::new();
                for word in text.split_whitespace() {
                    let chars: Vec<char> = word.chars().collect();
                    if chars.len() % 2 != 0 {
                        return Err(format!("bad move list {word:?}: moves are two characters"));
                    }
                    for pair in chars.chunks(2) {
                        let mv: String = pair.iter().collect();
                        let parsed = Board::<$n>::parse_move(&mv)
                            .map_err(|e| format!("move {} {mv:?}: {e}", out.len() + 1))?;
                        out.push(parsed);
                    }
                }
                Ok(out)
            }

            fn view(&self) -> BoardView {
                BoardView::Grid {
                    width: $n as u8,
                    height: $n as u8,
                    counts: [self.black().count(), self.white().count()],
                    cells: board_cells(self),
                }
            }

            fn cell(mv: OthelloMove) -> Option<usize> {
                mv.square()
                    .map(|sq| sq.row() as usize * $n + sq.col() as usize)
            }

            fn picture(&self) -> Option<Picture> {
                Some(Picture::Discs {
                    width: $n as u8,
                    height: $n as u8,
                    cells: board_cells(self),
                })
            }

            fn marked(_: &Self, mv: OthelloMove) -> Vec<usize> {
                Self::cell(mv).into_iter().collect()
            }
        }
    };
}

small_othello_web_game!(4);
small_othello_web_game!(6);

/// The cells of a board row by row (`a1`, `b1`, ...): black first player, white second.
fn board_cells<const N: usize>(pos: &Board<N>) -> Vec<Option<Player>> {
    let (black, white) = (pos.black(), pos.white());
    Board::<N>::MASK
        .iter()
        .map(|sq| {
            if black.contains(sq) {
                Some(Player::First)
            } else if white.contains(sq) {
                Some(Player::Second)
            } else {
                None
            }
        })
        .collect()
}

/// The setup check of every Othello board: the four centre squares hold discs (every game
/// starts with them), and a side to move that has no move while the opponent has one is
/// refused (it could only pass: set the other side to move).
fn check_board_setup<const N: usize>(pos: &Board<N>) -> Result<(), String> {
    let h = (N / 2) as u8;
    let centre = [(h - 1, h - 1), (h, h - 1), (h - 1, h), (h, h)]
        .map(|(c, r)| OthelloSquare::new(r * 8 + c));
    let empty: Vec<String> = centre
        .iter()
        .filter(|&&sq| !pos.black().contains(sq) && !pos.white().contains(sq))
        .map(ToString::to_string)
        .collect();
    if !empty.is_empty() {
        return Err(format!(
            "the four centre squares {}, {}, {} and {} must all hold a disc ({} empty)",
            centre[0],
            centre[1],
            centre[2],
            centre[3],
            empty.join(", ")
        ));
    }
    if !pos.is_over() && pos.legal_moves().first() == Some(&OthelloMove::Pass) {
        let [mover, other] = match pos.side_to_move() {
            Player::First => ["black", "white"],
            Player::Second => ["white", "black"],
        };
        return Err(format!(
            "{mover} is to move but has no legal move here (only {other} can move): \
             set {other} to move"
        ));
    }
    Ok(())
}
