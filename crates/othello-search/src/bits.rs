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
