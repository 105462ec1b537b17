//! Move generation on raw masks: legal moves by shift-and-fill, flips by ray lookups.

use crate::{Bitboard, Square};

/// Every column but `a` and `h`: discs that a horizontal or diagonal fill may cross without
/// wrapping around a row.
const INNER_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The moves of one direction pair (shift `s` towards higher indices and towards lower ones),
/// through opponent discs `mask` (already restricted against wrapping).
#[inline(always)]
const fn dir_moves(p: u64, mask: u64, s: u32) -> u64 {
    // Towards higher indices: a doubling fill reaches up to 6 discs in 4 steps.
    let mut f = mask & (p << s);
    f |= mask & (f << s);
    let pre = mask & (mask << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    let up = f << s;
    // Towards lower indices.
    let mut g = mask & (p >> s);
    g |= mask & (g >> s);
    let pre = mask & (mask >> s);
    g |= pre & (g >> (2 * s));
    g |= pre & (g >> (2 * s));
    up | g >> s
}

/// The squares where the side with discs `p` may play against discs `o` (bit masks).
#[inline(always)]
#[must_use]
pub(crate) const fn moves_bits(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLS;
    let m = dir_moves(p, inner, 1)
        | dir_moves(p, o, 8)
        | dir_moves(p, inner, 7)
        | dir_moves(p, inner, 9);
    m & !(p | o)
}

/// Ray masks: `RAYS[sq][d]` holds the squares strictly beyond `sq` in direction `d`, in the
/// order of [`DIRS`].
static RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRS[d];
            let mut r = (sq / 8) as i32 + dr;
            let mut c = (sq % 8) as i32 + dc;
            let mut mask = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                mask |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The 8 directions as (row step, column step): the first four go towards higher indices, the
/// last four towards lower ones.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The discs flipped by playing at square index `sq` for the side with discs `p` against `o`.
///
/// Zero when the move flips nothing (so it is illegal); the result is meaningless when `sq` is
/// occupied.
#[inline(always)]
#[must_use]
pub(crate) fn flips_bits(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let not_o = !o;
    let mut flips = 0u64;
    // Towards higher indices: the nearest non-opponent square is the lowest set bit.
    let mut d = 0;
    while d < 4 {
        let ray = rays[d];
        let b = ray & not_o;
        let first = b & b.wrapping_neg();
        let f = first.wrapping_sub(1) & ray;
        flips |= if first & p != 0 { f } else { 0 };
        d += 1;
    }
    // Towards lower indices: the nearest non-opponent square is the highest set bit.
    while d < 8 {
        let ray = rays[d];
        let b = ray & not_o;
        // `b | 1` is never zero (so no special case); `& b` clears the bit 0 it may add.
        let first = (0x8000_0000_0000_0000u64 >> (b | 1).leading_zeros()) & b;
        let f = ray & (first << 1).wrapping_neg();
        flips |= if first & p != 0 { f } else { 0 };
        d += 1;
    }
    flips
}

/// The squares where the side with discs `player` may play against `opponent` (empty when it
/// has no move; a pass is not a square).
#[inline]
#[must_use]
pub fn moves(player: Bitboard, opponent: Bitboard) -> Bitboard {
    Bitboard(moves_bits(player.0, opponent.0))
}

/// The opponent discs flipped when the side with discs `player` plays at `sq`.
///
/// Empty exactly when the move is illegal (if `sq` is empty). The result is unspecified (but no
/// panic) when `sq` is occupied: check [`moves`] or emptiness first.
#[inline]
#[must_use]
pub fn flips(player: Bitboard, opponent: Bitboard, sq: Square) -> Bitboard {
    Bitboard(flips_bits(player.0, opponent.0, sq.index()))
}

/// The exact mobility: the number of squares where `player` may play (0 when it must pass or
/// the game is over).
#[inline]
#[must_use]
pub fn mobility(player: Bitboard, opponent: Bitboard) -> u32 {
    moves_bits(player.0, opponent.0).count_ones()
}

/// The empty squares next to at least one `opponent` disc (in any of the 8 directions): the
/// squares where `player` might play later. Count them with [`Bitboard::count`].
#[inline]
#[must_use]
pub fn potential_moves(player: Bitboard, opponent: Bitboard) -> Bitboard {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let o = opponent.0;
    // Shifts that move a disc one column right land outside column a, and vice versa.
    let around = ((o << 1 | o << 9 | o >> 7) & NOT_A)
        | ((o >> 1 | o >> 9 | o << 7) & NOT_H)
        | o << 8
        | o >> 8;
    Bitboard(around & !(player.0 | o))
}

/// The potential mobility: the number of [`potential_moves`].
#[inline]
#[must_use]
pub fn potential_mobility(player: Bitboard, opponent: Bitboard) -> u32 {
    potential_moves(player, opponent).count()
}
