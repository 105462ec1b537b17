use std::error::Error;
use std::fmt;

use yomi_core::Player;

use crate::Square;

/// Why a text or a pair of bit masks is not a tic-tac-toe position.
///
/// [`TicTacToe::from_str`](std::str::FromStr::from_str) reports the text errors
/// ([`Length`](ParseBoardError::Length), [`BadChar`](ParseBoardError::BadChar)) and then
/// validates the board like [`TicTacToe::from_bits`](crate::TicTacToe::from_bits), which reports
/// the others. Only positions reachable from the empty board in a legal game are accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// The text does not hold exactly 9 cells.
    Length {
        /// The number of cells (`o`, `x`, `.`) found.
        cells: usize,
    },
    /// A character that is neither a cell (`o`, `x`, `.`, any case) nor a row separator (`/`,
    /// white space).
    BadChar {
        /// The character.
        ch: char,
        /// Its 0-based position among the characters of the text.
        index: usize,
    },
    /// Bits set outside the 9 squares (bits 9 to 15).
    OffBoard {
        /// The offending bits of `o | x`.
        bits: u16,
    },
    /// A square holds both an O and an X.
    Overlap {
        /// The first such square in row-major order.
        square: Square,
    },
    /// O (who moves first) must have as many marks as X or one more.
    Counts {
        /// O's marks.
        o: u32,
        /// X's marks.
        x: u32,
    },
    /// Both players have three in a line.
    BothWin,
    /// A player has three in a line but the counts say the game went on afterwards (or that the
    /// line was made on the other player's turn): after O wins, O has one more mark than X;
    /// after X wins, the counts are equal.
    WinnerCounts {
        /// The player with the line.
        winner: Player,
        /// O's marks.
        o: u32,
        /// X's marks.
        x: u32,
    },
}

/// The mark of `player` as printed: `o` or `x`.
pub(crate) const fn mark_name(player: Player) -> &'static str {
    match player {
        Player::First => "o",
        Player::Second => "x",
    }
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseBoardError::Length { cells } => {
                write!(f, "expected 9 cells (o, x or .), found {cells}")
            }
            ParseBoardError::BadChar { ch, index } => write!(
                f,
                "bad character {ch:?} at position {index}: expected o, x, . or a row separator"
            ),
            ParseBoardError::OffBoard { bits } => {
                write!(f, "bits {bits:#06x} lie outside the 9 squares")
            }
            ParseBoardError::Overlap { square } => {
                write!(f, "square {square} holds both o and x")
            }
            ParseBoardError::Counts { o, x } => write!(
                f,
                "impossible counts: o has {o} marks and x has {x}, \
                 but o must have as many as x or one more"
            ),
            ParseBoardError::BothWin => f.write_str("both o and x have three in a line"),
            ParseBoardError::WinnerCounts { winner, o, x } => {
                let rule = match winner {
                    Player::First => "o must have one more mark than x",
                    Player::Second => "o and x must have as many marks",
                };
                write!(
                    f,
                    "{} has three in a line, so {rule}, but o has {o} and x has {x}",
                    mark_name(winner)
                )
            }
        }
    }
}

impl Error for ParseBoardError {}
