use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A square of the board, `a1` to `h8`: the letter is the column from the left, the digit the
/// row from the top. Its index is `row * 8 + col` (`a1` = 0, `h1` = 7, `a2` = 8, `h8` = 63),
/// which is also its bit in a [`Bitboard`](crate::Bitboard).
///
/// Notation: [`Display`](fmt::Display) prints lower case (`f5`); [`FromStr`] takes either case.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(u8);

/// Why a text is not a square.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid square {text:?}: expected a column a-h then a row 1-8, e.g. f5")]
pub struct ParseSquareError {
    /// The text that did not parse.
    pub text: String,
}

impl Square {
    /// Number of squares.
    pub const NUM: usize = 64;

    /// All squares in index order.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with index `index` (`row * 8 + col`).
    ///
    /// # Panics
    /// If `index >= 64`; see [`Square::try_from`] for the fallible version.
    #[inline]
    #[must_use]
    #[track_caller]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index)
    }

    /// The square at column `col` and row `row` (both `0..8`).
    ///
    /// # Panics
    /// If `col` or `row` is 8 or more.
    #[inline]
    #[must_use]
    #[track_caller]
    pub const fn at(col: u8, row: u8) -> Square {
        assert!(col < 8 && row < 8, "column or row out of range");
        Square(row * 8 + col)
    }

    /// For callers that already masked the index to `0..64`.
    #[inline]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        Square(index & 63)
    }

    /// The index `row * 8 + col`, in `0..64`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, 0 (`a`) to 7 (`h`).
    #[inline]
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 & 7
    }

    /// The row, 0 (`1`, the top) to 7 (`8`).
    #[inline]
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }
}

impl TryFrom<u8> for Square {
    type Error = u8;
    /// The square with this index, or the index back when it is 64 or more.
    fn try_from(index: u8) -> Result<Square, u8> {
        if index < 64 {
            Ok(Square(index))
        } else {
            Err(index)
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col()), self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Parses two bytes `[col, row]` as a square, either case.
pub(crate) fn square_from_bytes(col: u8, row: u8) -> Option<Square> {
    let col = col.to_ascii_lowercase();
    if (b'a'..=b'h').contains(&col) && (b'1'..=b'8').contains(&row) {
        Some(Square::at(col - b'a', row - b'1'))
    } else {
        None
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses `a1`..`h8` (the column letter in either case).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            &[c, r] => square_from_bytes(c, r),
            _ => None,
        }
        .ok_or_else(|| ParseSquareError {
            text: s.to_string(),
        })
    }
}
