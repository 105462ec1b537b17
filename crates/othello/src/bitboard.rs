use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::Square;

/// A set of squares as a 64-bit mask: bit `i` is the square with index `i = row * 8 + col`
/// (`a1` is bit 0, `h1` bit 7, `a8` bit 56, `h8` bit 63; see [`Square`]).
///
/// `Debug` prints an 8x8 picture (`X` for members, `.` otherwise, row 1 on top), which makes
/// flip masks easy to review; `{:x}`/`{:b}` print the raw mask. `a - b` is set difference.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// The set holding only `sq`.
    #[inline]
    #[must_use]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// The raw mask.
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The number of squares in the set.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The set with `sq` added.
    #[inline]
    #[must_use]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline]
    #[must_use]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// The square with the lowest index, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The set drawn by a picture: 64 squares `X` (member) or `.` (not), row 1 first, in the
    /// order `a1`, `b1`, ..., `h8`; white space is ignored. Used by [`bitboard!`](crate::bitboard!).
    ///
    /// # Panics
    /// If the picture holds another character or not exactly 64 squares (at compile time when
    /// evaluated in a `const`).
    #[must_use]
    #[track_caller]
    pub const fn from_picture(picture: &str) -> Bitboard {
        let bytes = picture.as_bytes();
        let (mut bits, mut n, mut i) = (0u64, 0, 0);
        while i < bytes.len() {
            match bytes[i] {
                b'X' | b'.' => {
                    assert!(n < 64, "expected 64 squares in the picture, found more");
                    if bytes[i] == b'X' {
                        bits |= 1 << n;
                    }
                    n += 1;
                }
                b' ' | b'\n' | b'\t' | b'\r' => {}
                _ => panic!("a bitboard picture holds only X, . and white space"),
            }
            i += 1;
        }
        assert!(n == 64, "expected 64 squares in the picture, found fewer");
        Bitboard(bits)
    }

    /// The squares in index order (`a1`, `b1`, ..., `h8`).
    #[inline]
    pub const fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// An 8x8 picture, row 1 on top: `X` for members, `.` otherwise. The alternate form
    /// (`{:#?}`) prints a [`bitboard!`](crate::bitboard!) invocation that builds the same set.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if f.alternate() {
            "bitboard! {\n"
        } else {
            "Bitboard(\n"
        })?;
        for row in 0..8 {
            f.write_str("   ")?;
            for col in 0..8 {
                let bit = self.0 >> (row * 8 + col) & 1;
                f.write_str(if bit != 0 { " X" } else { " ." })?;
            }
            f.write_str("\n")?;
        }
        f.write_str(if f.alternate() { "}" } else { ")" })
    }
}

impl fmt::Binary for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Binary::fmt(&self.0, f)
    }
}

impl fmt::LowerHex for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::LowerHex::fmt(&self.0, f)
    }
}

impl fmt::UpperHex for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::UpperHex::fmt(&self.0, f)
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    /// Set difference: the squares of `self` not in `rhs`.
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl From<u64> for Bitboard {
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    fn from(b: Bitboard) -> u64 {
        b.0
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        b.extend(iter);
        b
    }
}

impl Extend<Square> for Bitboard {
    fn extend<I: IntoIterator<Item = Square>>(&mut self, iter: I) {
        for sq in iter {
            *self = self.with(sq);
        }
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

/// The squares of a [`Bitboard`] in index order (from [`Bitboard::iter`]).
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square::from_index_unchecked(i))
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }

    #[inline]
    fn count(self) -> usize {
        self.0.count_ones() as usize
    }
}

impl DoubleEndedIterator for BitboardIter {
    #[inline]
    fn next_back(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = 63 - self.0.leading_zeros() as u8;
            self.0 &= !(1 << i);
            Some(Square::from_index_unchecked(i))
        }
    }
}

impl ExactSizeIterator for BitboardIter {}
impl FusedIterator for BitboardIter {}

/// Builds a [`Bitboard`] from a picture of 64 squares, `X` for members and `.` otherwise, row
/// 1 on top (see [`Bitboard::from_picture`]); `{:#?}` prints a bitboard in this form. A wrong
/// picture is a compile error in a `const`.
///
/// ```
/// use yomi_othello::{bitboard, Bitboard};
/// const DIAGONAL: Bitboard = bitboard! {
///     X . . . . . . .
///     . X . . . . . .
///     . . X . . . . .
///     . . . X . . . .
///     . . . . X . . .
///     . . . . . X . .
///     . . . . . . X .
///     . . . . . . . X
/// };
/// assert_eq!(DIAGONAL, Bitboard(0x8040_2010_0804_0201));
/// assert!(format!("{DIAGONAL:#?}").starts_with("bitboard! {\n    X . ."));
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($square:tt)*) => {
        $crate::Bitboard::from_picture(stringify!($($square)*))
    };
}
