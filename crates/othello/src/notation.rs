//! Text forms: the board string and the picture (every size), move sequences and OBF lines
//! (8x8).

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Game, Player};

use crate::position::ParseMoveError;
use crate::square::square_from_bytes;
use crate::{Bitboard, Board, Move, Othello, Square, Start};

/// Why a text is not a board string (of any size).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// The text ended before 64 squares were read (8x8).
    #[error("expected 64 squares (X, O or -), found {squares}")]
    TooShort {
        /// The number of squares read.
        squares: usize,
    },
    /// The board has the wrong number of squares: a board of another size, or (on a board
    /// smaller than 8x8) too few or too many squares.
    #[error("a {size}x{size} board has {expected} squares, found {found}")]
    WrongSize {
        /// The board size `N`.
        size: usize,
        /// `N * N`.
        expected: usize,
        /// The number of square characters given.
        found: usize,
    },
    /// A character that is not a square (`X`, `x`, `*`, `O`, `o`, `-`, `.`).
    #[error("bad character {ch:?} at byte {index}: expected X, O or - for square {square}")]
    BadSquare {
        /// The character.
        ch: char,
        /// Its byte offset in the text.
        index: usize,
        /// The square it stands for.
        square: Square,
    },
    /// No white space between the squares and the side to move.
    #[error("expected white space then the side to move at byte {index}")]
    NoSeparator {
        /// Byte offset where the separator was expected.
        index: usize,
    },
    /// The side to move is missing.
    #[error("missing side to move (X or O) after the squares")]
    MissingSide,
    /// The side to move is not `X`/`B`/`*` (black) or `O`/`W` (white).
    #[error("bad side to move {text:?} at byte {index}: expected X (black) or O (white)")]
    BadSide {
        /// The text found.
        text: String,
        /// Its byte offset.
        index: usize,
    },
}

/// The colour of a square character: `Some(Some(player))` for a disc, `Some(None)` for empty.
fn cell(ch: u8) -> Option<Option<Player>> {
    match ch {
        b'X' | b'x' | b'*' => Some(Some(Player::First)),
        b'O' | b'o' => Some(Some(Player::Second)),
        b'-' | b'.' => Some(None),
        _ => None,
    }
}

/// The character starting at byte `i` of `s` (for error messages).
fn char_at(s: &str, i: usize) -> char {
    s.get(i..).and_then(|t| t.chars().next()).unwrap_or('?')
}

/// Whether `squares` is the square count of a board size (4x4, 6x6 or 8x8).
fn is_board_size(squares: usize) -> bool {
    matches!(squares, 16 | 36 | 64)
}

impl<const N: usize> fmt::Display for Board<N> {
    /// The board string: `N * N` characters for `a1`, `b1`, ..., row by row (`X` black, `O`
    /// white, `-` empty), a space, and the side to move (`X` or `O`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.black(), self.white());
        let mut text = [b'-'; 66];
        for (i, sq) in Self::MASK.iter().enumerate() {
            if black.contains(sq) {
                text[i] = b'X';
            } else if white.contains(sq) {
                text[i] = b'O';
            }
        }
        text[N * N] = b' ';
        text[N * N + 1] = if self.side_to_move() == Player::First {
            b'X'
        } else {
            b'O'
        };
        f.write_str(std::str::from_utf8(&text[..N * N + 2]).unwrap_or_default())
    }
}

impl<const N: usize> FromStr for Board<N> {
    type Err = ParseBoardError;

    /// Parses the board string: leading white space, `N * N` squares (`X`, `x` or `*` black;
    /// `O` or `o` white; `-` or `.` empty) row by row from `a1`, white space, the side to move
    /// (`X`, `B` or `*` for black, `O` or `W` for white, any case), and optional trailing white
    /// space; or the word `diagonal` or `parallel` (any case) for a [`Start`]. Any disc
    /// placement is accepted. A run of squares of another board size is
    /// [`ParseBoardError::WrongSize`].
    fn from_str(s: &str) -> Result<Board<N>, ParseBoardError> {
        let word = s.trim();
        if word.eq_ignore_ascii_case("diagonal") {
            return Ok(Board::start(Start::Diagonal));
        }
        if word.eq_ignore_ascii_case("parallel") {
            return Ok(Board::start(Start::Parallel));
        }
        let squares = N * N;
        let wrong_size = |found| ParseBoardError::WrongSize {
            size: N,
            expected: squares,
            found,
        };
        let bytes = s.as_bytes();
        let start = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
        // The run of square characters from the start.
        let run = bytes[start..]
            .iter()
            .take_while(|&&b| cell(b).is_some())
            .count();
        if run < squares {
            let index = start + run;
            return Err(match bytes.get(index) {
                Some(b) if !b.is_ascii_whitespace() => ParseBoardError::BadSquare {
                    ch: char_at(s, index),
                    index,
                    square: Square::at((run % N) as u8, (run / N) as u8),
                },
                _ if N < 8 || is_board_size(run) => wrong_size(run),
                _ => ParseBoardError::TooShort { squares: run },
            });
        }
        if run > squares && (N < 8 || is_board_size(run)) {
            return Err(wrong_size(run));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, sq) in Self::MASK.iter().enumerate() {
            match cell(bytes[start + i]) {
                Some(Some(Player::First)) => black |= 1 << sq.index(),
                Some(Some(Player::Second)) => white |= 1 << sq.index(),
                _ => {}
            }
        }
        let rest = &s[start + squares..];
        let gap = rest.len() - rest.trim_start().len();
        let side_text = rest.trim();
        if side_text.is_empty() {
            return Err(ParseBoardError::MissingSide);
        }
        if gap == 0 {
            return Err(ParseBoardError::NoSeparator {
                index: start + squares,
            });
        }
        let side = match side_text {
            "X" | "x" | "B" | "b" | "*" => Player::First,
            "O" | "o" | "W" | "w" => Player::Second,
            _ => {
                return Err(ParseBoardError::BadSide {
                    text: side_text.to_string(),
                    index: start + squares + gap,
                })
            }
        };
        Ok(match side {
            Player::First => Board::from_sides(Bitboard(black), Bitboard(white), side),
            Player::Second => Board::from_sides(Bitboard(white), Bitboard(black), side),
        })
    }
}

impl<const N: usize> Board<N> {
    /// A picture of the position: column letters, row digits, `X` black, `O` white, `*` the
    /// legal moves of the side to move, `.` other empty squares; then the disc counts and the
    /// side to move (or the result once the game is over).
    ///
    /// ```
    /// let pic = yomi_othello::Othello::new().pretty();
    /// assert!(pic.starts_with("  a b c d e f g h\n1 . . . . . . . .\n"));
    /// assert!(pic.contains("4 . . * O X . . .\n"));
    /// assert!(pic.ends_with("black 2, white 2; black (X) to move"));
    /// ```
    #[must_use]
    pub fn pretty(&self) -> String {
        let (black, white, moves) = (self.black(), self.white(), self.moves());
        let mut out = String::from(" ");
        for col in 0..N as u8 {
            out.push(' ');
            out.push(char::from(b'a' + col));
        }
        out.push('\n');
        for row in 0..N as u8 {
            out.push(char::from(b'1' + row));
            for col in 0..N as u8 {
                let sq = Square::at(col, row);
                out.push(' ');
                out.push(if black.contains(sq) {
                    'X'
                } else if white.contains(sq) {
                    'O'
                } else if moves.contains(sq) {
                    '*'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        let [b, w] = self.disc_counts();
        out.push_str(&format!("black {b}, white {w}; "));
        match yomi_core::FinalScore::final_score(self) {
            Some(score) if score > 0 => out.push_str(&format!("black wins by {score}")),
            Some(score) if score < 0 => out.push_str(&format!("white wins by {}", -score)),
            Some(_) => out.push_str("draw"),
            None => {
                let name = if self.side_to_move() == Player::First {
                    "black (X)"
                } else {
                    "white (O)"
                };
                out.push_str(name);
                out.push_str(if self.must_pass() {
                    " to move and must pass"
                } else {
                    " to move"
                });
            }
        }
        out
    }
}

// --- Move sequences --------------------------------------------------------------------------

/// A sequence of moves written without separators, like `f5d6c3d3` (passes as `PA`).
///
/// [`FromStr`] takes squares in either case, `PA` or `pass` (any case) for passes, and ignores
/// white space between moves; [`Display`](fmt::Display) writes lower-case squares and `PA`.
/// [`MoveSequence::play_from`] checks and plays it.
///
/// ```
/// use yomi_othello::{MoveSequence, Othello};
/// let line: MoveSequence = "f5d6C3 d3".parse()?;
/// assert_eq!(line.to_string(), "f5d6c3d3");
/// let pos = line.play_from(&Othello::new())?;
/// assert_eq!(pos.disc_counts(), [4, 4]);
/// let err = "f5f5".parse::<MoveSequence>()?.play_from(&Othello::new()).unwrap_err();
/// assert_eq!(err.to_string(), "move 2 (f5) is illegal in position ---------------------------OX------XXX-------------------------- O");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct MoveSequence(pub Vec<Move>);

/// Why a text is not a move sequence.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "bad move {text:?} at byte {index} (move {number}): expected a square a1-h8 or PA \
     (move numbers such as `1.` and the separators ` `, `-` and `,` are skipped)"
)]
pub struct ParseMoveSequenceError {
    /// The offending text (up to two characters).
    pub text: String,
    /// Its byte offset.
    pub index: usize,
    /// The 1-based number of the move being read.
    pub number: usize,
}

/// Why a move sequence cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number} ({mv}) is illegal in position {position}")]
pub struct PlaySequenceError {
    /// The 1-based number of the illegal move.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// The position it was tried in (the game may be over there).
    pub position: Othello,
}

impl FromStr for MoveSequence {
    type Err = ParseMoveSequenceError;

    fn from_str(s: &str) -> Result<MoveSequence, ParseMoveSequenceError> {
        let b = s.as_bytes();
        let mut moves = Vec::new();
        let mut i = 0;
        while i < b.len() {
            // Separators: white space, `-` (`f5-d6-c3`) and `,`.
            if b[i].is_ascii_whitespace() || b[i] == b'-' || b[i] == b',' {
                i += 1;
                continue;
            }
            let err = |len: usize| ParseMoveSequenceError {
                text: s.get(i..).unwrap_or_default().chars().take(len).collect(),
                index: i,
                number: moves.len() + 1,
            };
            // A move number, `12.` (or `12...` before a second player's move), is skipped.
            if b[i].is_ascii_digit() {
                let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
                let dots = b[i + digits..].iter().take_while(|&&c| c == b'.').count();
                if dots == 0 {
                    return Err(err(digits + 1));
                }
                i += digits + dots;
                continue;
            }
            let (c0, c1) = (b[i], b.get(i + 1).copied().unwrap_or(0));
            if c0.eq_ignore_ascii_case(&b'p') && c1.eq_ignore_ascii_case(&b'a') {
                let long = b
                    .get(i..i + 4)
                    .is_some_and(|t| t.eq_ignore_ascii_case(b"pass"));
                moves.push(Move::Pass);
                i += if long { 4 } else { 2 };
            } else if let Some(sq) = square_from_bytes(c0, c1) {
                moves.push(Move::Place(sq));
                i += 2;
            } else {
                return Err(err(2));
            }
        }
        Ok(MoveSequence(moves))
    }
}

impl fmt::Display for MoveSequence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|m| write!(f, "{m}"))
    }
}

impl MoveSequence {
    /// Plays the moves from `start`, checking each.
    ///
    /// # Errors
    /// [`PlaySequenceError`] naming the first move that is not legal (or comes after the end of
    /// the game).
    pub fn play_from(&self, start: &Othello) -> Result<Othello, PlaySequenceError> {
        let mut pos = *start;
        for (i, &mv) in self.0.iter().enumerate() {
            if pos.is_over() || !pos.is_legal(mv) {
                return Err(PlaySequenceError {
                    number: i + 1,
                    mv,
                    position: pos,
                });
            }
            pos = pos.play_unchecked(mv);
        }
        Ok(pos)
    }
}

// --- OBF lines -------------------------------------------------------------------------------

/// One line of an OBF file: a position and the scores listed for some of its moves.
///
/// Form: `<board string>;` then zero or more ` MOVE:score;` entries, and an optional `%`
/// comment to the end of the line (dropped). Each score is the final disc difference after the
/// listed move, counted for the player who makes that move, that is the side to move in the
/// listed position (the FFO convention: `X; G8:+18` means black, to move, playing g8 ends 18
/// discs ahead); the first listed is the best. Squares may be
/// written in either case; `PA` stands for a pass. [`Display`](fmt::Display) writes the board
/// string, `;`, and each entry as ` G8:+18;` (upper case, signed score), as in the FFO files.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ObfPosition {
    /// The position.
    pub position: Othello,
    /// The listed moves and their scores, in file order.
    pub scores: Vec<(Move, i32)>,
}

/// Why a text is not an OBF line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseObfError {
    /// The board string before the first `;` is malformed.
    #[error("bad board: {0}")]
    Board(#[from] ParseBoardError),
    /// No `;` after the board string.
    #[error("missing ';' after the board string")]
    MissingSemicolon,
    /// An entry is not `MOVE:score`.
    #[error("bad entry {number} {text:?}: expected MOVE:score such as G8:+18")]
    BadEntry {
        /// The 1-based entry number.
        number: usize,
        /// The entry text.
        text: String,
    },
    /// An entry's move does not parse.
    #[error("entry {number}: {source}")]
    BadMove {
        /// The 1-based entry number.
        number: usize,
        /// Why.
        source: ParseMoveError,
    },
    /// An entry's score is not an integer in -64..=64.
    #[error("entry {number}: bad score {text:?}, expected an integer from -64 to +64")]
    BadScore {
        /// The 1-based entry number.
        number: usize,
        /// The score text.
        text: String,
    },
    /// An entry's move is not legal in the position.
    #[error("entry {number}: move {mv} is not legal in the position")]
    IllegalMove {
        /// The 1-based entry number.
        number: usize,
        /// The move.
        mv: Move,
    },
}

impl FromStr for ObfPosition {
    type Err = ParseObfError;

    fn from_str(s: &str) -> Result<ObfPosition, ParseObfError> {
        let body = s.split('%').next().unwrap_or_default();
        let mut parts = body.split(';');
        let board = parts.next().unwrap_or_default();
        let position: Othello = board.parse()?;
        if !body.contains(';') {
            return Err(ParseObfError::MissingSemicolon);
        }
        let mut scores = Vec::new();
        for (i, entry) in parts.enumerate() {
            let number = i + 1;
            let entry = entry.trim();
            if entry.is_empty() {
                continue;
            }
            let Some((mv, score)) = entry.split_once(':') else {
                return Err(ParseObfError::BadEntry {
                    number,
                    text: entry.to_string(),
                });
            };
            let mv: Move = mv
                .trim()
                .parse()
                .map_err(|source| ParseObfError::BadMove { number, source })?;
            let score_text = score.trim();
            let score = score_text
                .parse::<i32>()
                .ok()
                .filter(|v| (-64..=64).contains(v))
                .ok_or_else(|| ParseObfError::BadScore {
                    number,
                    text: score_text.to_string(),
                })?;
            if position.is_over() || !position.is_legal(mv) {
                return Err(ParseObfError::IllegalMove { number, mv });
            }
            scores.push((mv, score));
        }
        Ok(ObfPosition { position, scores })
    }
}

impl fmt::Display for ObfPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.position)?;
        for (mv, score) in &self.scores {
            write!(f, " {}:{score:+};", mv.to_string().to_ascii_uppercase())?;
        }
        Ok(())
    }
}
