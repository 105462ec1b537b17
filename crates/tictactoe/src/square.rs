use std::error::Error;
use std::fmt;
use std::str::FromStr;

/// One of the 9 cells, numbered `0..9` in row-major order: `index = y * 3 + x`, where `x` is the
/// column and `y` the row (both `0..=2`), so `(0,0)` is the top-left corner and `(1,1)` the
/// centre.
///
/// The notation is `(x,y)`; [`FromStr`] also accepts `x,y` and the two digits `xy`:
///
/// ```
/// use yomi_tictactoe::Square;
/// let sq: Square = "(2,0)".parse()?;
/// assert_eq!((sq.x(), sq.y(), sq.index()), (2, 0, 2));
/// assert_eq!(" 2,0 ".parse::<Square>()?, sq);
/// assert_eq!("20".parse::<Square>()?, sq);
/// assert_eq!(sq.to_string(), "(2,0)");
/// assert!("(3,0)".parse::<Square>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Ord, PartialOrd, Hash, Default, Debug)]
pub struct Square(u8);

impl Square {
    /// The 9 squares in row-major order: `(0,0), (1,0), (2,0), (0,1), ..., (2,2)`.
    pub const ALL: [Square; 9] = [
        Square(0),
        Square(1),
        Square(2),
        Square(3),
        Square(4),
        Square(5),
        Square(6),
        Square(7),
        Square(8),
    ];

    /// The centre `(1,1)`.
    pub const CENTRE: Square = Square(4);

    /// The square in column `x` and row `y`, or `None` unless both are in `0..=2`.
    #[inline]
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Option<Square> {
        if x < 3 && y < 3 {
            Some(Square(y * 3 + x))
        } else {
            None
        }
    }

    /// The square with row-major index `index`, or `None` unless `index < 9`.
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 9 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of bit `bit` of a board mask; `bit` must be below 9.
    #[inline]
    pub(crate) const fn from_bit_index(bit: u32) -> Square {
        debug_assert!(bit < 9);
        Square(bit as u8)
    }

    /// The column, `0..=2`.
    #[inline]
    #[must_use]
    pub const fn x(self) -> u8 {
        self.0 % 3
    }

    /// The row, `0..=2`.
    #[inline]
    #[must_use]
    pub const fn y(self) -> u8 {
        self.0 / 3
    }

    /// The row-major index `y * 3 + x`, `0..9`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's bit in a board mask: `1 << index`.
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x(), self.y())
    }
}

/// Why a square did not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseSquareError {
    /// The text was empty or only white space.
    Empty,
    /// The text is not of the form `(x,y)`, `x,y` or `xy` with one digit per coordinate.
    Syntax {
        /// The offending text (trimmed).
        text: String,
    },
    /// A coordinate is a digit above 2.
    OffBoard {
        /// The coordinate that was read.
        coordinate: u8,
    },
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => f.write_str("empty square: expected (x,y), x,y or xy"),
            ParseSquareError::Syntax { text } => write!(
                f,
                "invalid square {text:?}: expected (x,y), x,y or xy with x and y in 0..=2"
            ),
            ParseSquareError::OffBoard { coordinate } => write!(
                f,
                "coordinate {coordinate} is off the board: expected 0, 1 or 2"
            ),
        }
    }
}

impl Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `(x,y)`, `x,y` or `xy`; white space is allowed around the square and around each
    /// coordinate of the comma forms.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(ParseSquareError::Empty);
        }
        let syntax = || ParseSquareError::Syntax {
            text: text.to_string(),
        };
        let body = match text.strip_prefix('(') {
            Some(rest) => match rest.strip_suffix(')') {
                Some(inner) if inner.contains(',') => inner,
                _ => return Err(syntax()),
            },
            None => text,
        };
        let (x, y) = match body.split_once(',') {
            Some((x, y)) => (x.trim(), y.trim()),
            None if body.len() == 2 && body.is_char_boundary(1) => body.split_at(1),
            None => return Err(syntax()),
        };
        let x = coordinate(x).ok_or_else(syntax)??;
        let y = coordinate(y).ok_or_else(syntax)??;
        Square::new(x, y).ok_or_else(syntax)
    }
}

/// Reads one coordinate digit: `None` if `text` is not a single digit, `Some(Err)` for a digit
/// off the board.
fn coordinate(text: &str) -> Option<Result<u8, ParseSquareError>> {
    match *text.as_bytes() {
        [d @ b'0'..=b'2'] => Some(Ok(d - b'0')),
        [d @ b'3'..=b'9'] => Some(Err(ParseSquareError::OffBoard {
            coordinate: d - b'0',
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_and_indices() {
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq.index(), i);
            assert_eq!(Square::from_index(i), Some(sq));
            assert_eq!(Square::new(sq.x(), sq.y()), Some(sq));
            assert_eq!(usize::from(sq.y()) * 3 + usize::from(sq.x()), i);
            assert_eq!(sq.bit(), 1 << i);
        }
        assert_eq!(Square::new(1, 1), Some(Square::CENTRE));
        assert_eq!(Square::new(2, 0).map(Square::index), Some(2));
        assert_eq!(Square::new(0, 2).map(Square::index), Some(6));
        assert_eq!(Square::new(3, 0), None);
        assert_eq!(Square::new(0, 3), None);
        assert_eq!(Square::from_index(9), None);
        assert_eq!(Square::default(), Square::ALL[0]);
        assert!(Square::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn display_and_parse() {
        let sq = Square::new(2, 0).unwrap();
        assert_eq!(sq.to_string(), "(2,0)");
        for text in [
            "(2,0)",
            "2,0",
            "20",
            "  (2,0) ",
            "( 2 , 0 )",
            " 2 ,0",
            "\t20\n",
        ] {
            assert_eq!(text.parse::<Square>(), Ok(sq), "{text:?}");
        }
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn parse_errors_say_what_was_wrong() {
        assert_eq!("".parse::<Square>(), Err(ParseSquareError::Empty));
        assert_eq!("  ".parse::<Square>(), Err(ParseSquareError::Empty));
        for bad in [
            "(1,2", "1,2)", "(12)", "1", "123", "1,2,0", "a,b", "-1,0", "1 2", "é", "(,)", "+1,2",
            "01,2",
        ] {
            let err = bad.parse::<Square>().unwrap_err();
            assert_eq!(
                err,
                ParseSquareError::Syntax {
                    text: bad.trim().to_string()
                },
                "{bad:?}"
            );
        }
        assert_eq!(
            "(3,0)".parse::<Square>(),
            Err(ParseSquareError::OffBoard { coordinate: 3 })
        );
        assert_eq!(
            "19".parse::<Square>(),
            Err(ParseSquareError::OffBoard { coordinate: 9 })
        );
        let messages = [
            ParseSquareError::Empty.to_string(),
            "z".parse::<Square>().unwrap_err().to_string(),
            "(1,5)".parse::<Square>().unwrap_err().to_string(),
        ];
        assert_eq!(
            messages[1],
            "invalid square \"z\": expected (x,y), x,y or xy with x and y in 0..=2"
        );
        assert_eq!(
            messages[2],
            "coordinate 5 is off the board: expected 0, 1 or 2"
        );
        for m in messages {
            assert!(
                m.starts_with(|c: char| c.is_lowercase()) && !m.ends_with('.'),
                "{m}"
            );
        }
    }
}
