//! Move ordering helpers of the endgame solver: candidate lists, parity, the neighbour table
//! of the flip shortcut, and the constants that choose the ordering by the number of empties.

use yomi_othello::Bitboard;

/// From this many empties on, moves are ordered by the opponent's mobility (fastest first);
/// below, by parity.
pub(super) const MOBILITY_MIN: u32 = 6;
/// From this many empties on, moves are ordered by a shallow search with an evaluation.
pub(super) const SHALLOW_MIN: u32 = 12;
/// From this many empties on, the shallow ordering searches look 4 plies ahead (3 from 20
/// empties, 2 from 16, 1 from `SHALLOW_MIN`): FFO #40-#49 with the guess's hints, 1.87 G
/// nodes with 3 plies, 1.72 G with 4.
pub(super) const SHALLOW_DEEPEST: u32 = 22;
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

/// The quadrant (0..4) of a square index.
#[inline(always)]
pub(super) fn quadrant(sq: u32) -> u32 {
    (sq >> 2 & 1) | (sq >> 4 & 2)
}

/// Bit `q` set when quadrant `q` holds an odd number of `empty` squares.
#[inline(always)]
pub(super) fn parity(empty: u64) -> u32 {
    const Q: [u64; 4] = [
        0x0000_0000_0F0F_0F0F,
        0x0000_0000_F0F0_F0F0,
        0x0F0F_0F0F_0000_0000,
        0xF0F0_F0F0_0000_0000,
    ];
    let mut bits = 0;
    for (q, mask) in Q.iter().enumerate() {
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

/// The empty squares next to the discs of `o`: where `p` may play later.
#[inline(always)]
pub(super) fn potential(p: u64, o: u64) -> u32 {
    yomi_othello::potential_mobility(Bitboard(p), Bitboard(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadrants_and_parity() {
        assert_eq!(quadrant(0), 0);
        assert_eq!(quadrant(7), 1);
        assert_eq!(quadrant(56), 2);
        assert_eq!(quadrant(63), 3);
        assert_eq!(parity(1 | 1 << 63 | 1 << 62), 0b0001);
    }
}
