//! Zobrist hashing and the 8 symmetries of the board, for every board size.

use yomi_core::{Game, HashKey, Player, Symmetric};

use crate::{Bitboard, Board, Move, Square};

/// The SplitMix64 output function (the same numbers as `yomi_core::splitmix64`, in a `const`).
const fn splitmix64_mix(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Zobrist keys by byte: `ZOBRIST[c][k][b]` is the XOR of the keys of the squares `8k + j` for
/// every bit `j` of `b`, for colour `c` (0 black, 1 white). The per-square keys are a SplitMix64
/// stream from a fixed seed, so keys are the same on every platform and build.
static ZOBRIST: [[[u64; 256]; 8]; 2] = {
    let mut square_keys = [[0u64; 64]; 2];
    let mut state = 0x6f74_6865_6c6c_6f21u64; // "othello!"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < 64 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            square_keys[c][i] = splitmix64_mix(state);
            i += 1;
        }
        c += 1;
    }
    let mut table = [[[0u64; 256]; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            let mut b = 0;
            while b < 256 {
                let mut key = 0;
                let mut j = 0;
                while j < 8 {
                    if b >> j & 1 != 0 {
                        key ^= square_keys[c][8 * k + j];
                    }
                    j += 1;
                }
                table[c][k][b] = key;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    table
};

/// The key XORed in when white is to move.
const WHITE_TO_MOVE: u64 = 0x9e37_79b9_7f4a_7c15;

/// The Zobrist key of a position: the XOR of a fixed random 64-bit key for each (colour,
/// square) holding a disc, and of a constant when white is to move.
///
/// It is computed as 16 lookups of byte tables (equal to the per-square XOR). Keys are equal
/// for equal positions; different positions collide with probability about `2^-64` per pair.
#[inline]
#[must_use]
pub fn zobrist(black: Bitboard, white: Bitboard, side: Player) -> u64 {
    let (b, w) = (black.0.to_le_bytes(), white.0.to_le_bytes());
    let mut key = if side == Player::Second {
        WHITE_TO_MOVE
    } else {
        0
    };
    for k in 0..8 {
        key ^= ZOBRIST[0][k][usize::from(b[k])] ^ ZOBRIST[1][k][usize::from(w[k])];
    }
    key
}

/// Mirrors columns (`a` <-> `h`).
#[inline]
const fn mirror_h(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Flips rows (`1` <-> `8`).
#[inline]
const fn flip_v(x: u64) -> u64 {
    x.swap_bytes()
}

/// Transposes (row <-> column, about the `a1`-`h8` diagonal).
#[inline]
const fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The image of a square set under symmetry `sym` (`0..8`): bit 0 mirrors the columns, then
/// bit 1 flips the rows, then bit 2 transposes. 0 is the identity.
///
/// # Panics
/// If `sym >= 8`.
#[inline]
#[must_use]
#[track_caller]
pub fn transform_bitboard(b: Bitboard, sym: usize) -> Bitboard {
    Bitboard(transform_bits::<8>(b.0, sym))
}

/// The image of the squares `x` of the `N`x`N` board in the top-left corner under symmetry
/// `sym` (as [`transform_bitboard`] on 8x8): the 8x8 mirrors move the board to the opposite
/// corner, and a shift by `8 - N` columns or rows brings it back (no shift on 8x8).
#[inline]
#[track_caller]
pub(crate) fn transform_bits<const N: usize>(mut x: u64, sym: usize) -> u64 {
    assert!(sym < 8, "symmetry {sym} out of range 0..8");
    if sym & 1 != 0 {
        x = mirror_h(x) >> (8 - N);
    }
    if sym & 2 != 0 {
        x = flip_v(x) >> (8 * (8 - N));
    }
    if sym & 4 != 0 {
        x = transpose(x);
    }
    x
}

/// `INVERSE[s]` undoes symmetry `s` (mirror-then-transpose and flip-then-transpose are the two
/// quarter turns, inverse to each other; the others are their own inverses).
const INVERSE: [usize; 8] = [0, 1, 2, 3, 4, 6, 5, 7];

impl<const N: usize> Board<N> {
    /// The canonical image: among the 8 images, the one with the least key
    /// ([`HashKey::hash_key`]), a tie between distinct images broken by the discs (side to
    /// move, then opponent, as `u64`s).
    ///
    /// Exact, unlike [`Symmetric::canonical_key`]: two positions have the same canonical image
    /// if and only if one is an image of the other, since it is the least element of the set
    /// of images under a total order.
    #[must_use]
    pub fn canonical(&self) -> Board<N> {
        (0..8)
            .map(|s| self.transform(s))
            .min_by_key(|p| (p.hash_key(), p.player().0, p.opponent().0))
            .unwrap_or(*self)
    }
}

impl<const N: usize> Symmetric for Board<N> {
    const SYMMETRIES: usize = 8;

    /// The image under symmetry `sym` (see [`transform_bitboard`]; on a smaller board the same
    /// maps of its own `N`x`N` square).
    ///
    /// # Panics
    /// If `sym >= 8`.
    fn transform(&self, sym: usize) -> Board<N> {
        Board::from_sides(
            Bitboard(transform_bits::<N>(self.player().0, sym)),
            Bitboard(transform_bits::<N>(self.opponent().0, sym)),
            self.side_to_move(),
        )
    }

    fn transform_move(mv: Move, sym: usize) -> Move {
        match mv {
            Move::Place(sq) => Move::Place(
                Bitboard(transform_bits::<N>(Bitboard::from_square(sq).0, sym))
                    .first()
                    .unwrap_or(Square::new(0)),
            ),
            Move::Pass => Move::Pass,
        }
    }

    fn inverse(sym: usize) -> usize {
        INVERSE[sym]
    }

    /// The least [`HashKey::hash_key`] (Zobrist key) over the 8 images.
    ///
    /// This is a 64-bit **hash**, not an exact key: it is equal for positions that are images
    /// of each other, but unrelated positions can also share it, with probability about
    /// `2^-64` per pair (as for the Zobrist key itself). For an exact test compare
    /// [`Board::canonical`] images, which are equal exactly for images of each other.
    fn canonical_key(&self) -> u64 {
        (0..8)
            .map(|s| self.transform(s).hash_key())
            .min()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The symmetries as maps of (col, row), written out directly.
    fn image(col: u8, row: u8, sym: usize) -> (u8, u8) {
        let (mut c, mut r) = (col, row);
        if sym & 1 != 0 {
            c = 7 - c;
        }
        if sym & 2 != 0 {
            r = 7 - r;
        }
        if sym & 4 != 0 {
            std::mem::swap(&mut c, &mut r);
        }
        (c, r)
    }

    #[test]
    fn symmetries_map_squares_and_invert() {
        for (sym, &inverse) in INVERSE.iter().enumerate() {
            for sq in Square::ALL {
                let (c, r) = image(sq.col(), sq.row(), sym);
                let img = transform_bitboard(Bitboard::from_square(sq), sym);
                assert_eq!(img, Bitboard::from_square(Square::at(c, r)), "{sym} {sq}");
                let back = transform_bitboard(img, inverse);
                assert_eq!(back, Bitboard::from_square(sq));
            }
        }
    }

    #[test]
    fn small_board_symmetries_map_their_own_squares() {
        fn check<const N: usize>() {
            let last = N as u8 - 1;
            for (sym, &inverse) in INVERSE.iter().enumerate() {
                for sq in Board::<N>::MASK {
                    let (mut c, mut r) = (sq.col(), sq.row());
                    if sym & 1 != 0 {
                        c = last - c;
                    }
                    if sym & 2 != 0 {
                        r = last - r;
                    }
                    if sym & 4 != 0 {
                        std::mem::swap(&mut c, &mut r);
                    }
                    let img = transform_bits::<N>(1 << sq.index(), sym);
                    assert_eq!(img, 1 << Square::at(c, r).index(), "{N} {sym} {sq}");
                    assert_eq!(transform_bits::<N>(img, inverse), 1 << sq.index());
                }
            }
        }
        check::<4>();
        check::<6>();
        check::<8>();
    }

    #[test]
    fn const_splitmix_matches_core() {
        let (mut a, mut b) = (7u64, 7u64);
        for _ in 0..4 {
            b = b.wrapping_add(0x9e37_79b9_7f4a_7c15);
            assert_eq!(yomi_core::splitmix64(&mut a), splitmix64_mix(b));
        }
    }

    #[test]
    fn zobrist_is_the_xor_of_square_keys() {
        let one = |c: usize, sq: usize| {
            let b = Bitboard(1 << sq);
            if c == 0 {
                zobrist(b, Bitboard::EMPTY, Player::First)
            } else {
                zobrist(Bitboard::EMPTY, b, Player::First)
            }
        };
        let black = Bitboard(0x0123_4567_89ab_cdef);
        let white = Bitboard(0x1010_0000_0000_0000);
        let mut key = WHITE_TO_MOVE;
        for sq in black {
            key ^= one(0, sq.index());
        }
        for sq in white {
            key ^= one(1, sq.index());
        }
        assert_eq!(zobrist(black, white, Player::Second), key);
        assert_eq!(zobrist(Bitboard::EMPTY, Bitboard::EMPTY, Player::First), 0);
    }
}
