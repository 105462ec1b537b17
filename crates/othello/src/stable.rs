//! Stable discs: a lower bound on the discs that can never be flipped again, on every board
//! size (exhaustive edge tables on 8x8, full lines and stable neighbours on the smaller boards).

use std::sync::OnceLock;

use crate::{Bitboard, Board};

/// `EDGE[p * 256 + o]`: the discs of `p` on one 8-square edge that no sequence of placements
/// on that edge (by either colour, in any order, legal in the full game or not) can flip,
/// given the edge holds `p` and `o` (bit `i` = the `i`-th square along the edge).
fn edge_table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| {
        // Fill by decreasing disc count: every child of a configuration has one more disc.
        let mut table = vec![0u8; 1 << 16];
        let mut by_count: Vec<Vec<(u8, u8)>> = vec![Vec::new(); 9];
        for p in 0..=255u8 {
            for o in 0..=255u8 {
                if p & o == 0 {
                    by_count[(p | o).count_ones() as usize].push((p, o));
                }
            }
        }
        for level in by_count.iter().rev() {
            for &(p, o) in level {
                let mut stable = p;
                let empty = !(p | o);
                for x in 0..8 {
                    if empty >> x & 1 == 0 {
                        continue;
                    }
                    // `p` places at x, then `o` places at x.
                    let f = line_flips(p, o, x);
                    let (np, no) = (p | f | 1 << x, o & !f);
                    stable &= table[usize::from(np) << 8 | usize::from(no)];
                    let f = line_flips(o, p, x);
                    let (no, np) = (o | f | 1 << x, p & !f);
                    stable &= table[usize::from(np) << 8 | usize::from(no)];
                }
                table[usize::from(p) << 8 | usize::from(o)] = stable;
            }
        }
        table
    })
}

/// The discs of `o` flipped on an 8-square line when `p` places at `x`.
fn line_flips(p: u8, o: u8, x: u32) -> u8 {
    let mut flips = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) && o >> i & 1 != 0 {
            run |= 1 << i;
            i += step;
        }
        if (0..8).contains(&i) && p >> i & 1 != 0 {
            flips |= run;
        }
    }
    flips
}

/// Packs column `a` (bits 0, 8, ..., 56) into a byte, `a8` in bit 0 and `a1` in bit 7.
#[inline]
fn pack_col(x: u64) -> usize {
    ((x & 0x0101_0101_0101_0101).wrapping_mul(0x8040_2010_0804_0201) >> 56) as usize
}

/// Inverse of [`pack_col`].
static UNPACK_COL: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut m = 0;
        while m < 8 {
            if b >> m & 1 != 0 {
                t[b] |= 1 << (8 * (7 - m));
            }
            m += 1;
        }
        b += 1;
    }
    t
};

/// The discs of `p` on the four edges that are stable by the edge table.
#[inline]
fn edge_stable(p: u64, o: u64) -> u64 {
    let t = edge_table();
    let look = |pe: usize, oe: usize| u64::from(t[pe << 8 | oe]);
    look((p & 0xFF) as usize, (o & 0xFF) as usize)
        | look((p >> 56) as usize, (o >> 56) as usize) << 56
        | UNPACK_COL[look(pack_col(p), pack_col(o)) as usize]
        | UNPACK_COL[look(pack_col(p >> 7), pack_col(o >> 7)) as usize] << 7
}

/// The squares whose line in each of the 4 directions is full, as
/// `[horizontal, vertical, diagonal (a1-h8 direction), anti-diagonal]`.
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    // Rows: a row is full when all its 8 bits are set.
    let mut h = filled & filled >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & 0x0101_0101_0101_0101) * 0xFF;
    // Columns.
    let mut v = filled & filled >> 32;
    v &= v >> 16;
    v &= v >> 8;
    let v = (v & 0xFF) * 0x0101_0101_0101_0101;
    // Diagonals: a square is on a full diagonal when no empty square reaches it along the
    // diagonal. Spread the empty squares both ways by 1, 2 and 4 steps (up to 7 in all);
    // a step towards higher indices moves a square one column right (+9) or left (+7), so
    // the masks drop what would wrap around into the other edge column.
    let empty = !filled;
    let d = !(spread(empty, 9, NOT_A, NOT_H) | empty);
    let a = !(spread(empty, 7, NOT_H, NOT_A) | empty);
    [h, v, d, a]
}

/// Every column but `a`.
const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// Every column but `h`.
const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The squares up to 7 steps of `s` (7 or 9) from a square of `x`, both ways along the
/// line, where `up` holds the squares a step towards higher indices can land on without
/// wrapping around a row and `down` those a step towards lower indices can land on.
#[inline]
fn spread(x: u64, s: u32, up: u64, down: u64) -> u64 {
    let up2 = up & up << s;
    let up4 = up2 & up2 << (2 * s);
    let down2 = down & down >> s;
    let down4 = down2 & down2 >> (2 * s);
    let mut u = x | (x << s & up);
    u |= u << (2 * s) & up2;
    u |= u << (4 * s) & up4;
    let mut d = x | (x >> s & down);
    d |= d >> (2 * s) & down2;
    d |= d >> (4 * s) & down4;
    u | d
}

/// The 15 lines of squares with equal `col - row`.
#[cfg(test)]
static DIAGONALS: [u64; 15] = lines(true);
/// The 15 lines of squares with equal `col + row`.
#[cfg(test)]
static ANTI_DIAGONALS: [u64; 15] = lines(false);

#[cfg(test)]
const fn lines(diagonal: bool) -> [u64; 15] {
    let mut out = [0u64; 15];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        let k = if diagonal { c + 7 - r } else { c + r };
        out[k] |= 1 << sq;
        sq += 1;
    }
    out
}

/// The discs of `player` that can never be flipped, whatever is played, against discs
/// `opponent`: a lower bound that is never too high (it may miss some stable discs).
///
/// Three rules, the last iterated to a fixed point:
/// 1. edge discs stable by exhaustive search of every continuation on their edge (a table of
///    all 3^8 edge configurations, built on first use);
/// 2. discs whose four lines (horizontal, vertical and both diagonals) are full;
/// 3. inner discs that, on each of their four lines, have a full line or a stable disc of
///    their own colour as a neighbour (a flip along that line would have to flip that
///    neighbour too).
///
/// Call it twice (swapping the arguments) for both sides.
#[inline]
#[must_use]
pub fn stable_discs(player: Bitboard, opponent: Bitboard) -> Bitboard {
    let (p, o) = (player.0, opponent.0 & !player.0);
    let [h, v, d, a] = full_lines(p | o);
    let inner = p & 0x007E_7E7E_7E7E_7E00;
    let mut stable = edge_stable(p, o) | (inner & h & v & d & a);
    loop {
        let sh = h | stable >> 1 | stable << 1;
        let sv = v | stable >> 8 | stable << 8;
        let sd = d | stable >> 9 | stable << 9;
        let sa = a | stable >> 7 | stable << 7;
        let next = stable | (inner & sh & sv & sd & sa);
        if next == stable {
            return Bitboard(stable);
        }
        stable = next;
    }
}

/// The squares of `mask` one step from `x` in direction `d` (0..8: E, W, S, N, SE, NW, SW, NE;
/// S is a higher row), never wrapping around a row.
#[inline]
const fn step(x: u64, d: usize, mask: u64) -> u64 {
    (match d {
        0 => (x << 1) & NOT_A,
        1 => (x >> 1) & NOT_H,
        2 => x << 8,
        3 => x >> 8,
        4 => (x << 9) & NOT_A,
        5 => (x >> 9) & NOT_H,
        6 => (x << 7) & NOT_H,
        _ => (x >> 7) & NOT_A,
    }) & mask
}

/// The discs of `p` on the board `mask` that can never be flipped: in each of the four line
/// directions the line through the disc is full, or a neighbour on that line is off the board
/// or such a disc of the same colour (iterated to a fixed point). A lower bound for every
/// board size; the 8x8 board uses the finer [`stable_discs`].
fn masked_stable(p: u64, o: u64, mask: u64) -> u64 {
    let empty = !(p | o) & mask;
    // The squares on a full line of each direction pair: no empty square reaches them along
    // the line, either way.
    let mut full = [0u64; 4];
    for (k, f) in full.iter_mut().enumerate() {
        let (mut a, mut b) = (empty, empty);
        let mut reach = empty;
        for _ in 0..7 {
            a = step(a, 2 * k, mask);
            b = step(b, 2 * k + 1, mask);
            reach |= a | b;
        }
        *f = mask & !reach;
    }
    let mut stable = 0u64;
    loop {
        // A neighbour in `w` counts: a stable disc, or a square off the board.
        let w = stable | !mask;
        let mut next = p;
        for (k, &f) in full.iter().enumerate() {
            let (d, e) = (2 * k, 2 * k + 1);
            // The disc's neighbour in direction `d` is in `w` (or off the 8x8): step `w` back.
            let fwd = !step(!w, e, !0);
            let back = !step(!w, d, !0);
            next &= f | fwd | back;
        }
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

impl<const N: usize> Board<N> {
    /// The side to move's discs that can never be flipped, whatever is played: a lower bound
    /// that is never too high. On 8x8 it is [`stable_discs`]; on the smaller boards, discs
    /// whose line in each of the four directions is full or has a neighbour off the board or
    /// stable of the same colour.
    #[must_use]
    pub fn stable_discs(&self) -> Bitboard {
        if N == 8 {
            stable_discs(self.player(), self.opponent())
        } else {
            Bitboard(masked_stable(
                self.player().0,
                self.opponent().0,
                Self::MASK.0,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_packing_round_trips() {
        for x in [
            0u64,
            !0,
            0x0101_0101_0101_0101,
            0x0100_0000_0000_0001,
            0x1234_5678_9abc_def0,
        ] {
            let col = x & 0x0101_0101_0101_0101;
            assert_eq!(UNPACK_COL[pack_col(x)], col);
        }
    }

    #[test]
    fn edge_table_basics() {
        let t = edge_table();
        // A full edge is stable.
        assert_eq!(t[0b1010_1010 << 8 | 0b0101_0101], 0b1010_1010);
        // A lone corner is stable; a lone non-corner disc is not.
        assert_eq!(t[0b0000_0001 << 8], 1);
        assert_eq!(t[0b0000_0010 << 8], 0);
        // A run from the corner is stable.
        assert_eq!(t[0b0000_0111 << 8 | 0b0000_1000], 0b0000_0111);
    }

    /// The full diagonals by the definition: each of the 15 lines checked on its own.
    fn full_diagonals_slow(filled: u64) -> (u64, u64) {
        let (mut d, mut a) = (0, 0);
        for (&dm, &am) in DIAGONALS.iter().zip(ANTI_DIAGONALS.iter()) {
            d |= if filled & dm == dm { dm } else { 0 };
            a |= if filled & am == am { am } else { 0 };
        }
        (d, a)
    }

    #[test]
    fn full_diagonals_by_shifts_match_the_definition() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Mostly-full boards (as in endgames) and random ones.
            let filled = match i % 3 {
                0 => x,
                1 => x | x.rotate_left(17),
                _ => x | x.rotate_left(17) | x.rotate_left(41),
            };
            let [_, _, d, a] = full_lines(filled);
            assert_eq!((d, a), full_diagonals_slow(filled), "{filled:#x}");
        }
        for filled in [0, !0, 0x8040_2010_0804_0201, 0x0102_0408_1020_4080] {
            let [_, _, d, a] = full_lines(filled);
            assert_eq!((d, a), full_diagonals_slow(filled), "{filled:#x}");
        }
    }

    #[test]
    fn diagonals_partition_the_board() {
        assert_eq!(DIAGONALS.iter().fold(0, |a, &m| a | m), !0);
        assert_eq!(
            ANTI_DIAGONALS.iter().map(|m| m.count_ones()).sum::<u32>(),
            64
        );
        assert_eq!(DIAGONALS[7], 0x8040_2010_0804_0201);
    }
}
