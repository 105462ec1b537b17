//! Move ordering helpers of the endgame solver: candidate lists, parity, the neighbour table
//! of the flip shortcut, and the constants that choose the ordering by the number of empties.

use yomi_othello::Bitboard;

use crate::bits::board_mask;

/// From this many empties on, moves are ordered by the opponent's mobility (fastest first);
/// below, by parity.
pub(super) const MOBILITY_MIN: u32 = 6;
/// From this many empties on, moves are ordered by a shallow search with an evaluation.
pub(super) const SHALLOW_MIN: u32 = 12;
/// From this many empties on, the shallow ordering searches look 4 plies ahead (3 from 20
/// empties, 2 from 16, 1 from `SHALLOW_MIN`): FFO #40-#49 with the guess's hints, 1.87 G
/// nodes with 3 plies, 1.72 G with 4.
pub(super) const SHALLOW_DEEPEST: u32 = 22;
/// From this many empties on (Othello 8x8), the shallow ordering searches are searches with the
/// solver's own learned evaluation at the leaves (`eval_search`, moves sorted by mobility
/// inside) instead of the cheap mobility evaluation. FFO #40-#52, 1 thread: 4.21 G nodes with
/// the cheap evaluation everywhere, 2.73 G with the learned one from 14 empties (200 s on a
/// quiet machine), 2.63 G from 12 (but 223 s); see `docs/solver.md`.
pub(super) const LEARNED_ORDER_MIN: u32 = 14;
/// In the learned ordering, the weight of the learned search's value (in hundredths of a
/// disc) next to `SHALLOW_MOBILITY` times the opponent's weighted mobility after the move
/// (FFO #40-#52 from 14 empties: 2.84 G nodes at 8, 2.73 G at 4, 3.00 G at 2).
pub(super) const LEARNED_ORDER_WEIGHT: i32 = 4;
/// Nodes on the principal variation (open windows) order their moves by a shallow search this
/// many plies deeper than other nodes.
pub(super) const PV_EXTRA_DEPTH: u32 = 2;
/// In the shallow-search ordering, the weight of the opponent's weighted mobility after the
/// move, next to 64 times the shallow search's value: fastest-first keeps a say, as in the
/// strongest engines' ordering. It fixes FFO #59, where the evaluation alone prefers `h4`,
/// whose proof of +64 runs to the end of the game, to `e8`, a quick wipeout; on FFO #40-#44
/// it saves 11% of the nodes.
pub(super) const SHALLOW_MOBILITY: i32 = 1024;
/// A node whose window asks for at least this score (`alpha >= WIPEOUT_ZONE`) orders by
/// fastest-first alone and ignores the table's move: such proofs are won by leaving the
/// opponent without moves and discs, which the shallow evaluation does not measure, and the
/// table's move comes from probes at lower scores, where another line may have been best.
pub(super) const WIPEOUT_ZONE: i32 = 48;

/// The quadrant (0..4) of a square index on an `N`x`N` board: bit 0 for the right half of
/// the columns, bit 1 for the lower half of the rows.
#[inline(always)]
pub(super) fn quadrant<const N: usize>(sq: u32) -> u32 {
    if N == 8 {
        (sq >> 2 & 1) | (sq >> 4 & 2)
    } else {
        let half = (N / 2) as u32;
        u32::from(sq % 8 >= half) | u32::from(sq / 8 >= half) << 1
    }
}

/// The squares of each quadrant of an `N`x`N` board (see [`quadrant`]).
const fn quadrant_masks<const N: usize>() -> [u64; 4] {
    let mut q = [0u64; 4];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        if r < N && c < N {
            q[(c >= N / 2) as usize | ((r >= N / 2) as usize) << 1] |= 1 << sq;
        }
        sq += 1;
    }
    q
}

/// Bit `q` set when quadrant `q` (of an `N`x`N` board) holds an odd number of `empty`
/// squares.
#[inline(always)]
pub(super) fn parity<const N: usize>(empty: u64) -> u32 {
    let q: [u64; 4] = const { quadrant_masks::<N>() };
    let mut bits = 0;
    for (q, mask) in q.iter().enumerate() {
        bits |= ((empty & mask).count_ones() & 1) << q;
    }
    bits
}

/// `NEIGHBOURS[sq]`: the up to 8 squares next to square index `sq`. A move flips nothing
/// unless one of them holds an opponent disc, which the last-empties code checks before
/// computing the flips.
pub(super) static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    t[sq] |= 1 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};

/// The index of the candidate with the highest key among those whose bit is set in `left`
/// (not zero), the first of them on a tie: picking until `left` is empty visits the
/// candidates in the order [`sort`] would give them.
#[inline(always)]
pub(super) fn next_best(list: &[Candidate], left: u32) -> usize {
    let mut bits = left;
    let mut best = bits.trailing_zeros() as usize;
    bits &= bits - 1;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if list[i].key > list[best].key {
            best = i;
        }
    }
    best
}

/// A candidate move with its flips and ordering key (higher first).
#[derive(Clone, Copy, Default)]
pub(super) struct Candidate {
    /// The move's square index.
    pub(super) sq: u32,
    /// The discs it flips.
    pub(super) flips: u64,
    /// Its ordering key.
    pub(super) key: i32,
}

/// At most this many legal moves in any position (the known maximum is 33).
pub(super) const MAX_MOVES: usize = 64;

/// Sorts the candidates by descending key (insertion sort: lists are short).
#[inline]
pub(super) fn sort(list: &mut [Candidate]) {
    for i in 1..list.len() {
        let c = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].key < c.key {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = c;
    }
}

/// The empty squares of an `N`x`N` board next to the discs of `o`: where `p` may play later.
#[inline(always)]
pub(super) fn potential<const N: usize>(p: u64, o: u64) -> u32 {
    if N == 8 {
        yomi_othello::potential_mobility(Bitboard(p), Bitboard(o))
    } else {
        (yomi_othello::potential_moves(Bitboard(p), Bitboard(o)).0 & board_mask::<N>()).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_and_parity() {
        assert_eq!(quadrant::<8>(0), 0);
        assert_eq!(quadrant::<8>(7), 1);
        assert_eq!(quadrant::<8>(56), 2);
        assert_eq!(quadrant::<8>(63), 3);
        assert_eq!(parity::<8>(1 | 1 << 63 | 1 << 62), 0b0001);
        // The generic quadrants agree with the 8x8 ones, and split a 6x6 board 3 by 3.
        assert_eq!(quadrant_masks::<8>()[0], 0x0000_0000_0F0F_0F0F);
        for sq in 0..64 {
            let q = quadrant_masks::<8>().iter().position(|m| m >> sq & 1 == 1);
            assert_eq!(q, Some(quadrant::<8>(sq) as usize));
        }
        assert_eq!(quadrant_masks::<6>().map(u64::count_ones), [9; 4]);
        assert_eq!(quadrant::<6>(2), 0);
        assert_eq!(quadrant::<6>(3), 1);
        assert_eq!(quadrant::<6>(3 * 8 + 2), 2);
        assert_eq!(parity::<6>(1 | 1 << 3 | 1 << 4), 0b0001);
    }
}
