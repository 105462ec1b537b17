use yomi_core::{HashKey, Symmetric};

use crate::{Square, TicTacToe};

/// Where symmetry `s` sends the square `(x, y)`; see the table on the [`Symmetric`] impl.
const fn map_xy(s: usize, x: u8, y: u8) -> (u8, u8) {
    match s {
        0 => (x, y),
        1 => (2 - y, x),
        2 => (2 - x, 2 - y),
        3 => (y, 2 - x),
        4 => (2 - x, y),
        5 => (x, 2 - y),
        6 => (y, x),
        _ => (2 - y, 2 - x),
    }
}

/// `SQUARE_MAP[s][i]`: the index of the image of square index `i` under symmetry `s`.
const SQUARE_MAP: [[u8; 9]; 8] = {
    let mut map = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 9 {
            let (x, y) = map_xy(s, i as u8 % 3, i as u8 / 3);
            map[s][i] = y * 3 + x;
            i += 1;
        }
        s += 1;
    }
    map
};

/// `BITS_MAP[s][bits]`: the image of the 9-bit mask `bits` under symmetry `s` (8 KiB).
static BITS_MAP: [[u16; 512]; 8] = {
    let mut map = [[0u16; 512]; 8];
    let mut s = 0;
    while s < 8 {
        let mut bits = 0;
        while bits < 512 {
            let mut image = 0u16;
            let mut i = 0;
            while i < 9 {
                if bits & (1 << i) != 0 {
                    image |= 1 << SQUARE_MAP[s][i];
                }
                i += 1;
            }
            map[s][bits] = image;
            bits += 1;
        }
        s += 1;
    }
    map
};

/// `INVERSE[s]`: the symmetry that undoes `s` (the quarter turns undo each other, the rest are
/// their own inverses).
const INVERSE: [usize; 8] = [0, 3, 2, 1, 4, 5, 6, 7];

/// The image of the mask `bits` (9 bits) under symmetry `sym`.
#[inline]
fn map_bits(sym: usize, bits: u16) -> u16 {
    BITS_MAP[sym][usize::from(bits & crate::board::FULL)]
}

/// The 8 symmetries of the square, numbered so that `(x, y)` goes to:
///
/// | `sym` | image | |
/// |---|---|---|
/// | 0 | `(x, y)` | identity |
/// | 1 | `(2-y, x)` | quarter turn clockwise (`(0,0)` to `(2,0)`) |
/// | 2 | `(2-x, 2-y)` | half turn |
/// | 3 | `(y, 2-x)` | quarter turn anticlockwise |
/// | 4 | `(2-x, y)` | mirror left-right |
/// | 5 | `(x, 2-y)` | mirror top-bottom |
/// | 6 | `(y, x)` | mirror in the diagonal `(0,0)-(2,2)` |
/// | 7 | `(2-y, 2-x)` | mirror in the anti-diagonal `(2,0)-(0,2)` |
///
/// Images come from tables built at compile time (one lookup per player's mask).
/// [`Symmetric::canonical_key`] is the smallest [`HashKey::hash_key`] (`o | x << 9`) over the 8
/// images, so it is a perfect key of the position up to symmetry.
///
/// # Panics
/// [`Symmetric::transform`] and [`Symmetric::transform_move`] panic if `sym >= 8`;
/// [`Symmetric::inverse`] too.
impl Symmetric for TicTacToe {
    const SYMMETRIES: usize = 8;

    #[inline]
    fn transform(&self, sym: usize) -> Self {
        TicTacToe::from_valid_bits(map_bits(sym, self.o_bits()), map_bits(sym, self.x_bits()))
    }

    #[inline]
    fn transform_move(mv: Square, sym: usize) -> Square {
        Square::from_bit_index(u32::from(SQUARE_MAP[sym][mv.index()]))
    }

    #[inline]
    fn inverse(sym: usize) -> usize {
        INVERSE[sym]
    }

    #[inline]
    fn canonical_key(&self) -> u64 {
        (1..Self::SYMMETRIES).fold(self.hash_key(), |least, sym| {
            least.min(self.transform(sym).hash_key())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Game;

    fn sq(x: u8, y: u8) -> Square {
        Square::new(x, y).unwrap()
    }

    #[test]
    fn named_symmetries() {
        let corner = sq(0, 0);
        let images: Vec<Square> = (0..8)
            .map(|s| TicTacToe::transform_move(corner, s))
            .collect();
        assert_eq!(
            images,
            [
                sq(0, 0),
                sq(2, 0),
                sq(2, 2),
                sq(0, 2),
                sq(2, 0),
                sq(0, 2),
                sq(0, 0),
                sq(2, 2)
            ]
        );
        let edge = sq(1, 0);
        let images: Vec<Square> = (0..8).map(|s| TicTacToe::transform_move(edge, s)).collect();
        assert_eq!(
            images,
            [
                sq(1, 0),
                sq(2, 1),
                sq(1, 2),
                sq(0, 1),
                sq(1, 0),
                sq(1, 2),
                sq(0, 1),
                sq(2, 1)
            ]
        );
        for s in 0..8 {
            assert_eq!(TicTacToe::transform_move(Square::CENTRE, s), Square::CENTRE);
        }
    }

    #[test]
    fn symmetries_form_the_group_of_the_square() {
        // Each symmetry is a distinct permutation, and composing two gives one of the eight.
        let perms: Vec<[u8; 9]> = SQUARE_MAP.to_vec();
        for (i, p) in perms.iter().enumerate() {
            let mut sorted = *p;
            sorted.sort_unstable();
            assert_eq!(sorted, [0, 1, 2, 3, 4, 5, 6, 7, 8]);
            assert!(perms[..i].iter().all(|q| q != p));
            for q in &perms {
                let composed: [u8; 9] = std::array::from_fn(|k| q[usize::from(p[k])]);
                assert!(perms.contains(&composed));
            }
            let inv = perms[TicTacToe::inverse(i)];
            assert!((0..9).all(|k| inv[usize::from(p[k])] == k as u8));
        }
    }

    #[test]
    fn transform_and_canonical_key() {
        let pos = TicTacToe::new().play_line("00 11").unwrap();
        assert_eq!(pos.transform(1).to_string(), "..o.x....");
        assert_eq!(pos.transform(2).to_string(), "....x...o");
        let keys: Vec<u64> = (0..8).map(|s| pos.transform(s).canonical_key()).collect();
        assert!(keys.iter().all(|&k| k == pos.canonical_key()));
        let other = TicTacToe::new().play_line("10 11").unwrap();
        assert_ne!(other.canonical_key(), pos.canonical_key());
        assert_eq!(TicTacToe::new().canonical_key(), 0);
    }
}
