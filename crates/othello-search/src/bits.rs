//! The board crate's operations on raw `u64` masks (the side to move's discs `p`, the other
//! side's `o`), for the searches' inner loops.

use yomi_core::Player;
use yomi_othello::{Bitboard, Othello, Square};

/// `a1`, `h1`, `a8` and `h8`.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The squares where the side with discs `p` may play against `o`.
#[inline(always)]
pub(crate) fn moves(p: u64, o: u64) -> u64 {
    yomi_othello::moves(Bitboard(p), Bitboard(o)).0
}

/// The discs flipped when the side with discs `p` plays at square index `sq` (0 if illegal).
#[inline(always)]
pub(crate) fn flips(p: u64, o: u64, sq: usize) -> u64 {
    yomi_othello::flips(Bitboard(p), Bitboard(o), Square::new(sq as u8)).0
}

/// The final score of a finished game for the side with discs `p` (empties to the winner):
/// [`Othello::final_score_for_mover`].
#[inline(always)]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    Othello::from_sides(Bitboard(p), Bitboard(o), Player::First).final_score_for_mover()
}

/// The playable squares of an `N`x`N` board kept in the top-left corner of the 8x8 bitboard
/// (rows and columns `0..N`): every square for `N = 8`. The board's own
/// [`Board::MASK`](yomi_othello::Board::MASK), as bits.
#[inline(always)]
pub(crate) const fn board_mask<const N: usize>() -> u64 {
    yomi_othello::Board::<N>::MASK.0
}

/// The number of squares of an `N`x`N` board.
#[inline(always)]
pub(crate) const fn squares<const N: usize>() -> u32 {
    (N * N) as u32
}

/// The four corners of an `N`x`N` board ([`CORNERS`] for `N = 8`).
#[inline(always)]
pub(crate) const fn corners<const N: usize>() -> u64 {
    if N == 8 {
        return CORNERS;
    }
    let last = N as u64 - 1;
    1 | 1 << last | 1 << (8 * last) | 1 << (8 * last + last)
}

/// [`final_score`] on an `N`x`N` board (its own function for `N = 8`).
#[inline(always)]
pub(crate) fn final_score_n<const N: usize>(p: u64, o: u64) -> i32 {
    if N == 8 {
        return final_score(p, o);
    }
    let (pc, oc) = (p.count_ones() as i32, o.count_ones() as i32);
    let diff = pc - oc;
    let empties = squares::<N>() as i32 - pc - oc;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_and_corners_of_each_size() {
        assert_eq!(board_mask::<8>(), !0);
        assert_eq!(board_mask::<4>(), 0x0F0F_0F0F);
        assert_eq!(board_mask::<6>().count_ones(), 36);
        assert_eq!(corners::<8>(), 0x8100_0000_0000_0081);
        assert_eq!(corners::<4>(), 1 | 1 << 3 | 1 << 24 | 1 << 27);
        assert_eq!(squares::<6>(), 36);
        // 6x6: 20 discs to 10, 6 empties to the winner.
        let (p, o) = (0xFFFFF, 0x3FF << 24);
        assert_eq!(final_score_n::<6>(p, o), 16);
        assert_eq!(final_score_n::<6>(o, p), -16);
        assert_eq!(final_score_n::<8>(p, o), final_score(p, o));
    }
}
