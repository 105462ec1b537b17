use std::fmt::{self, Write as _};
use std::str::FromStr;

use yomi_core::{Game, Outcome, Player};

use crate::error::mark_name;
use crate::{ParseBoardError, Square, TicTacToe};

impl TicTacToe {
    /// The character of `sq`: `o`, `x` or `.`.
    fn cell_char(&self, sq: Square) -> char {
        match self.cell(sq) {
            Some(Player::First) => 'o',
            Some(Player::Second) => 'x',
            None => '.',
        }
    }

    /// The printed form: three rows, then whose turn it is or how the game ended.
    ///
    /// ```
    /// use yomi_tictactoe::TicTacToe;
    /// let pos: TicTacToe = "x...o...o".parse()?;
    /// assert_eq!(pos.pretty(), "x..\n.o.\n..o\nTurn x");
    /// let won: TicTacToe = "ooo/xx./...".parse()?;
    /// assert_eq!(won.pretty(), "ooo\nxx.\n...\no wins");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn pretty(&self) -> String {
        let mut out = String::with_capacity(20);
        for row in Square::ALL.chunks(3) {
            out.extend(row.iter().map(|&sq| self.cell_char(sq)));
            out.push('\n');
        }
        // Writing to a String cannot fail.
        let _ = match self.outcome() {
            None => write!(out, "Turn {}", mark_name(self.side_to_move())),
            Some(Outcome::Win(player)) => write!(out, "{} wins", mark_name(player)),
            Some(Outcome::Draw) => write!(out, "draw"),
        };
        out
    }
}

impl fmt::Display for TicTacToe {
    /// The 9 cells in row-major order with `o`, `x` and `.`, e.g. `x...o...o`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Square::ALL
            .iter()
            .try_for_each(|&sq| f.write_char(self.cell_char(sq)))
    }
}

impl FromStr for TicTacToe {
    type Err = ParseBoardError;

    /// Parses the 9 cells in row-major order: `o`, `x` (either case) and `.`. Row separators,
    /// `/` and white space, may appear anywhere and are skipped, so `x...o...o`,
    /// `x../.o./..o` and `X.. .O. ..O` are the same position. The board is then validated as
    /// by [`TicTacToe::from_bits`].
    fn from_str(s: &str) -> Result<TicTacToe, ParseBoardError> {
        let (mut o, mut x) = (0u16, 0u16);
        let mut cells = 0usize;
        for (index, ch) in s.chars().enumerate() {
            let mark = match ch {
                'o' | 'O' => Some(Player::First),
                'x' | 'X' => Some(Player::Second),
                '.' => None,
                '/' => continue,
                c if c.is_whitespace() => continue,
                _ => return Err(ParseBoardError::BadChar { ch, index }),
            };
            if cells < 9 {
                match mark {
                    Some(Player::First) => o |= 1 << cells,
                    Some(Player::Second) => x |= 1 << cells,
                    None => {}
                }
            }
            cells += 1;
        }
        if cells != 9 {
            return Err(ParseBoardError::Length { cells });
        }
        TicTacToe::from_bits(o, x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_and_parses() {
        let pos: TicTacToe = "x...o...o".parse().unwrap();
        assert_eq!(pos.to_string(), "x...o...o");
        for text in [
            "x../.o./..o",
            "X.. .O. ..O",
            " x..\n.o.\n..o\n",
            "x.. / .o. / ..o",
            "X...O...o",
        ] {
            assert_eq!(text.parse::<TicTacToe>(), Ok(pos), "{text:?}");
        }
        assert_eq!(TicTacToe::new().to_string(), ".........");
    }

    #[test]
    fn pretty_is_pinned() {
        let pos: TicTacToe = "x../.o./..o".parse().unwrap();
        assert_eq!(pos.pretty(), "x..\n.o.\n..o\nTurn x");
        assert_eq!(TicTacToe::new().pretty(), "...\n...\n...\nTurn o");
        let x_wins: TicTacToe = "xo./xo./x.o".parse().unwrap();
        assert_eq!(x_wins.pretty(), "xo.\nxo.\nx.o\nx wins");
        let draw: TicTacToe = "oxo/oxx/xoo".parse().unwrap();
        assert_eq!(draw.pretty(), "oxo\noxx\nxoo\ndraw");
    }

    #[test]
    fn every_error_variant() {
        let err = |text: &str| text.parse::<TicTacToe>().unwrap_err();
        assert_eq!(err(""), ParseBoardError::Length { cells: 0 });
        assert_eq!(err("x...o...o."), ParseBoardError::Length { cells: 10 });
        assert_eq!(err("x../.o./.o"), ParseBoardError::Length { cells: 8 });
        assert_eq!(
            err("x..-.o...o"),
            ParseBoardError::BadChar { ch: '-', index: 3 }
        );
        assert_eq!(
            err("é........z"),
            ParseBoardError::BadChar { ch: 'é', index: 0 }
        );
        assert_eq!(err("ooo......"), ParseBoardError::Counts { o: 3, x: 0 });
        assert_eq!(err("x........"), ParseBoardError::Counts { o: 0, x: 1 });
        assert_eq!(err("ooo/xxx/..."), ParseBoardError::BothWin);
        assert_eq!(
            err("ooo/xx./x.."),
            ParseBoardError::WinnerCounts {
                winner: Player::First,
                o: 3,
                x: 3
            }
        );
        assert_eq!(
            err("xxx/oo./oo."),
            ParseBoardError::WinnerCounts {
                winner: Player::Second,
                o: 4,
                x: 3
            }
        );
        // The two bit-level variants cannot come from text, only from `from_bits`.
        assert_eq!(
            TicTacToe::from_bits(0x8000, 0),
            Err(ParseBoardError::OffBoard { bits: 0x8000 })
        );
        assert_eq!(
            TicTacToe::from_bits(0b1_0000, 0b1_0001),
            Err(ParseBoardError::Overlap {
                square: Square::CENTRE
            })
        );
    }

    #[test]
    fn error_messages() {
        let cases = [
            (ParseBoardError::Length { cells: 8 }, "expected 9 cells (o, x or .), found 8"),
            (
                ParseBoardError::BadChar { ch: '-', index: 3 },
                "bad character '-' at position 3: expected o, x, . or a row separator",
            ),
            (
                ParseBoardError::OffBoard { bits: 0x0200 },
                "bits 0x0200 lie outside the 9 squares",
            ),
            (
                ParseBoardError::Overlap {
                    square: Square::CENTRE,
                },
                "square (1,1) holds both o and x",
            ),
            (
                ParseBoardError::Counts { o: 3, x: 0 },
                "impossible counts: o has 3 marks and x has 0, \
                 but o must have as many as x or one more",
            ),
            (ParseBoardError::BothWin, "both o and x have three in a line"),
            (
                ParseBoardError::WinnerCounts {
                    winner: Player::First,
                    o: 3,
                    x: 3,
                },
                "o has three in a line, so o must have one more mark than x, but o has 3 and x has 3",
            ),
            (
                ParseBoardError::WinnerCounts {
                    winner: Player::Second,
                    o: 4,
                    x: 3,
                },
                "x has three in a line, so o and x must have as many marks, but o has 4 and x has 3",
            ),
        ];
        for (err, message) in cases {
            assert_eq!(err.to_string(), message);
            assert!(!message.ends_with('.') && message.starts_with(|c: char| c.is_lowercase()));
        }
    }
}
