//! Move generation and flips for the x86-64-v3 copies (perft, the searches): the four
//! directions of each half (towards higher square indices, towards lower ones) in the four
//! 64-bit lanes of one 256-bit vector, where the portable code (`movegen.rs`) walks them one
//! after the other.
//!
//! Both functions give exactly what [`moves`](crate::moves) and [`flips`](crate::flips) give
//! (tested on the positions of random games). They are compiled for the x86-64-v3 features:
//! code compiled for the same features calls them directly, other code only with an
//! [`X86v3`](crate::cpu::X86v3) token (see the safety argument of [`cpu`](crate::cpu)).

use std::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128,
    _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_set_epi64x, _mm256_setzero_si256, _mm256_sllv_epi64, _mm256_srlv_epi64,
    _mm256_sub_epi64, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
};

/// Every column but `a` and `h`: discs that a horizontal or diagonal run may cross without
/// wrapping around a row.
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The lanes' shifts: one square along a row, an anti-diagonal, a column and a diagonal.
const SHIFTS: [u64; 4] = [1, 7, 8, 9];

/// `RAYS[sq][0]`: the squares strictly beyond square index `sq` towards higher indices, one
/// lane per direction of [`SHIFTS`]; `RAYS[sq][1]`: the same towards lower indices.
static RAYS: [[[u64; 4]; 2]; 64] = {
    // (row step, column step) of each lane, towards higher indices.
    const STEPS: [(i32, i32); 4] = [(0, 1), (1, -1), (1, 0), (1, 1)];
    let mut rays = [[[0u64; 4]; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut half = 0;
        while half < 2 {
            let sign = if half == 0 { 1 } else { -1 };
            let mut lane = 0;
            while lane < 4 {
                let (dr, dc) = (STEPS[lane].0 * sign, STEPS[lane].1 * sign);
                let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
                while r >= 0 && r < 8 && c >= 0 && c < 8 {
                    rays[sq][half][lane] |= 1 << (r * 8 + c);
                    r += dr;
                    c += dc;
                }
                lane += 1;
            }
            half += 1;
        }
        sq += 1;
    }
    rays
};

/// Four lanes from an array, lane `i` = `x[i]`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn lanes(x: &[u64; 4]) -> __m256i {
    _mm256_set_epi64x(x[3] as i64, x[2] as i64, x[1] as i64, x[0] as i64)
}

/// The OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn or_lanes(x: __m256i) -> u64 {
    let half = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    (_mm_cvtsi128_si64(half) | _mm_cvtsi128_si64(_mm_unpackhi_epi64(half, half))) as u64
}

/// The squares where the side with discs `p` may play against discs `o` (bit `row * 8 + col`,
/// disjoint masks): runs of `o` that start next to a disc of `p` are extended by doubling (up
/// to 6 discs in 4 steps) in all eight directions at once. Equal to
/// [`moves`](crate::moves)`(Bitboard(p), Bitboard(o)).0`.
///
/// # Safety
/// Compiled for the x86-64-v3 features: code compiled for the same features calls it as a
/// safe function; other code must hold an [`X86v3`](crate::cpu::X86v3) token, which proves
/// the CPU has them (see the safety argument of [`cpu`](crate::cpu)).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[must_use]
pub fn moves_x86v3(p: u64, o: u64) -> u64 {
    let s = lanes(&SHIFTS);
    let s2 = _mm256_add_epi64(s, s);
    let pp = _mm256_set1_epi64x(p as i64);
    let mask = _mm256_and_si256(
        _mm256_set1_epi64x(o as i64),
        lanes(&[INNER, INNER, !0, INNER]),
    );
    // Towards higher indices.
    let mut f = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, s));
    f = _mm256_or_si256(f, _mm256_and_si256(mask, _mm256_sllv_epi64(f, s)));
    let pre = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, s));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, s2)));
    f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_sllv_epi64(f, s2)));
    let up = _mm256_sllv_epi64(f, s);
    // Towards lower indices.
    let mut g = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, s));
    g = _mm256_or_si256(g, _mm256_and_si256(mask, _mm256_srlv_epi64(g, s)));
    let pre = _mm256_and_si256(mask, _mm256_srlv_epi64(mask, s));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, s2)));
    g = _mm256_or_si256(g, _mm256_and_si256(pre, _mm256_srlv_epi64(g, s2)));
    let down = _mm256_srlv_epi64(g, s);
    or_lanes(_mm256_or_si256(up, down)) & !(p | o)
}

/// The discs flipped when the side with discs `p` plays at square index `sq` (below 64)
/// against `o` (0 when the move is illegal; meaningless when `sq` is occupied): equal to
/// [`flips`](crate::flips) on the same masks.
///
/// On each ray the run of `o` next to `sq` is flipped when the first square after it holds a
/// disc of `p`. Towards higher indices that square is the lowest set bit of the ray's non-`o`
/// squares (`b & -b`); towards lower indices it is the highest, found by smearing those
/// squares down the ray (three doubling steps cover its 7 squares).
///
/// # Safety
/// Compiled for the x86-64-v3 features: code compiled for the same features calls it as a
/// safe function; other code must hold an [`X86v3`](crate::cpu::X86v3) token, which proves
/// the CPU has them (see the safety argument of [`cpu`](crate::cpu)).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
#[must_use]
pub fn flips_x86v3(p: u64, o: u64, sq: usize) -> u64 {
    let [up, down] = &RAYS[sq];
    let (up, down) = (lanes(up), lanes(down));
    let zero = _mm256_setzero_si256();
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    // Towards higher indices.
    let b = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(b, _mm256_sub_epi64(zero, b));
    let run = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), up);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let high = _mm256_andnot_si256(open, run);
    // Towards lower indices.
    let s = lanes(&SHIFTS);
    let b = _mm256_andnot_si256(oo, down);
    let mut smear = _mm256_or_si256(b, _mm256_srlv_epi64(b, s));
    smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_add_epi64(s, s)));
    smear = _mm256_or_si256(
        smear,
        _mm256_srlv_epi64(smear, _mm256_sllv_epi64(s, _mm256_set1_epi64x(2))),
    );
    let run = _mm256_andnot_si256(smear, down);
    let first = _mm256_andnot_si256(_mm256_srlv_epi64(smear, s), b);
    let open = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let low = _mm256_andnot_si256(open, run);
    or_lanes(_mm256_or_si256(high, low))
}

#[cfg(test)]
#[allow(unsafe_code)]
mod tests {
    use super::*;
    use crate::cpu::X86v3;
    use crate::movegen::{flips_bits, moves_bits};

    /// `moves_x86v3` and `flips_x86v3` agree with the portable ones on every square of the
    /// positions of random games (both sides to move), when this CPU can run them.
    #[test]
    fn agree_with_the_portable_code() {
        if X86v3::detect().is_none() {
            eprintln!("no x86-64-v3 copy here: nothing to compare");
            return;
        }
        // A fixed pseudo-random stream (xorshift) picks the moves.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0u64;
        for _ in 0..300 {
            let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
            loop {
                for (a, b) in [(p, o), (o, p)] {
                    // SAFETY: the token exists (checked above); see `crate::cpu`.
                    let m = unsafe { moves_x86v3(a, b) };
                    assert_eq!(m, moves_bits(a, b), "moves of {a:#x} {b:#x}");
                    for sq in 0..64 {
                        if (a | b) >> sq & 1 == 0 {
                            // SAFETY: as above.
                            let f = unsafe { flips_x86v3(a, b, sq) };
                            assert_eq!(f, flips_bits(a, b, sq), "flips {a:#x} {b:#x} {sq}");
                            checked += 1;
                        }
                    }
                }
                let m = moves_bits(p, o);
                if m == 0 {
                    if moves_bits(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                let k = next() % u64::from(m.count_ones());
                let mut bits_left = m;
                for _ in 0..k {
                    bits_left &= bits_left - 1;
                }
                let sq = bits_left.trailing_zeros() as usize;
                let f = flips_bits(p, o, sq);
                (p, o) = (o ^ f, p ^ f ^ 1 << sq);
            }
        }
        assert!(checked > 100_000, "{checked} squares checked");
    }
}
