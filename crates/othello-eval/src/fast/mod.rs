//! The fast evaluation: the sum of one phase's weights over the 46 placements, table-driven,
//! in two compiled copies chosen when the weights are made ([`Gather`]): a portable one
//! (shifts, masks and multiplications collect a placement's discs) and, on x86-64 CPUs with
//! AVX2, BMI1/2, POPCNT and LZCNT, one that collects them with `pext`.

use std::sync::OnceLock;

use yomi_othello::cpu::Cpu;

use crate::features::Feature;
use crate::patterns::{diag, rect_magic, rect_mask, transpose, Layout, PATTERNS};

/// The conversion tables in fixed-size arrays (so the masked lookups need no bounds checks),
/// shared between the placements whose tables are equal (so they stay in the L1 cache: 14
/// KiB in all): placement `j` of a pattern with `K` tables uses table `j % K` (checked when
/// the tables are built).
pub(crate) struct Fast {
    edge: [[u16; 1024]; 1],
    c33: [[u16; 512]; 4],
    c25: [[u16; 1024]; 4],
    line: [[u16; 256]; 1],
    d8: [[u16; 256]; 2],
    d7: [[u16; 128]; 2],
    d6: [[u16; 64]; 2],
    d5: [[u16; 32]; 2],
    d4: [[u16; 16]; 2],
}

/// The size of each pattern's region in a phase of the fast tables: its number of
/// configurations rounded up to a power of two.
const SPANS: [usize; 11] = {
    let mut out = [0usize; 11];
    let mut k = 0;
    while k < 11 {
        out[k] = 3usize
            .pow(PATTERNS[k].squares.len() as u32)
            .next_power_of_two();
        k += 1;
    }
    out
};

/// Where each pattern's region starts in a phase of the fast tables (after the bias).
pub(crate) const PADDED_OFFSETS: [usize; 11] = {
    let mut out = [0usize; 11];
    let mut at = 1;
    let mut k = 0;
    while k < 11 {
        out[k] = at;
        at += SPANS[k];
        k += 1;
    }
    out
};

/// Entries of one phase of the fast tables.
pub(crate) const PADDED: usize = PADDED_OFFSETS[10] + SPANS[10];

/// The `K` tables of pattern `pattern`, taken from its first `K` placements; every placement
/// `j` must have table `j % K`.
fn shared<const N: usize, const K: usize>(pattern: usize) -> [[u16; N]; K] {
    let layout = Layout::get();
    let mut out = [[0u16; N]; K];
    for (k, t) in out.iter_mut().enumerate() {
        let conv = &layout.placements[pattern][k].conv;
        assert_eq!(conv.len(), N);
        for (slot, &v) in t.iter_mut().zip(conv) {
            *slot = u16::try_from(v).expect("below 3^10 / 2");
        }
    }
    for (j, pl) in layout.placements[pattern].iter().enumerate() {
        let same = pl
            .conv
            .iter()
            .zip(&out[j % K])
            .all(|(&a, &b)| a == u32::from(b));
        assert!(same, "pattern {pattern}: placement {j} has its own table");
    }
    out
}

pub(crate) fn fast_tables() -> &'static Fast {
    static FAST: OnceLock<Box<Fast>> = OnceLock::new();
    FAST.get_or_init(|| {
        let line = shared(3);
        assert_eq!(shared::<256, 1>(4), line);
        assert_eq!(shared::<256, 1>(5), line);
        Box::new(Fast {
            edge: shared(0),
            c33: shared(1),
            c25: shared(2),
            line,
            d8: shared(6),
            d7: shared(7),
            d6: shared(8),
            d5: shared(9),
            d4: shared(10),
        })
    })
}

#[inline(always)]
fn rect_c<const ROW: u32, const COL: u32, const W: u32, const H: u32>(x: u64) -> usize {
    let y = (x >> (8 * ROW + COL)) & rect_mask(W, H);
    (y.wrapping_mul(rect_magic(W, H)) >> (64 - W * H)) as usize
}

#[inline(always)]
fn edge_c<const ROW: u32>(x: u64) -> usize {
    let xrow = if ROW == 0 { 1 } else { 6 };
    (((x >> (8 * ROW)) & 0xFF)
        | ((x >> (8 * xrow + 1)) & 1) << 8
        | ((x >> (8 * xrow + 6)) & 1) << 9) as usize
}

#[inline(always)]
fn line_c<const ROW: u32>(x: u64) -> usize {
    ((x >> (8 * ROW)) & 0xFF) as usize
}

/// The weight of one placement of pattern `K`: its configuration
/// `conv[mover bits] + 2 * conv[opponent bits]` looked up in the pattern's region (masked to
/// the region, which it never leaves, so that no bounds check is needed).
#[inline(always)]
fn at<const K: usize, const N: usize>(
    w: &[i16; PADDED],
    conv: &[u16; N],
    pm: usize,
    om: usize,
) -> i32 {
    let i = usize::from(conv[pm & (N - 1)]) + 2 * usize::from(conv[om & (N - 1)]);
    i32::from(w[PADDED_OFFSETS[K] + (i & (SPANS[K] - 1))])
}

/// The diagonals' masks and first columns, as `Layout` places them (a test checks): 2
/// placements of the long diagonal, 4 of each other length from 7 down to 4.
pub(crate) const DIAG_MASKS: [[(u64, u8); 4]; 5] = [
    [
        (0x8040_2010_0804_0201, 0),
        (0x0102_0408_1020_4080, 0),
        (0, 0),
        (0, 0),
    ],
    [
        (0x0080_4020_1008_0402, 1),
        (0x0001_0204_0810_2040, 0),
        (0x0204_0810_2040_8000, 1),
        (0x4020_1008_0402_0100, 0),
    ],
    [
        (0x0000_8040_2010_0804, 2),
        (0x0000_0102_0408_1020, 0),
        (0x0408_1020_4080_0000, 2),
        (0x2010_0804_0201_0000, 0),
    ],
    [
        (0x0000_0080_4020_1008, 3),
        (0x0000_0001_0204_0810, 0),
        (0x0810_2040_8000_0000, 3),
        (0x1008_0402_0100_0000, 0),
    ],
    [
        (0x0000_0000_8040_2010, 4),
        (0x0000_0000_0102_0408, 0),
        (0x1020_4080_0000_0000, 4),
        (0x0804_0201_0000_0000, 0),
    ],
];

/// The sum of the weights of one phase's full table `w` for `p` to move against `o`. The
/// placements are those of `Layout` in the same order (a test checks both paths agree).
#[inline(always)]
fn fast(f: &Fast, w: &[i16; PADDED], p: u64, o: u64) -> i32 {
    let (tp, to) = (transpose(p), transpose(o));
    let mut s = i32::from(w[0]);
    // Edges with their X-squares: rows 0 and 7 of the board and of its transpose.
    s += at::<0, _>(w, &f.edge[0], edge_c::<0>(p), edge_c::<0>(o));
    s += at::<0, _>(w, &f.edge[0], edge_c::<7>(p), edge_c::<7>(o));
    s += at::<0, _>(w, &f.edge[0], edge_c::<0>(tp), edge_c::<0>(to));
    s += at::<0, _>(w, &f.edge[0], edge_c::<7>(tp), edge_c::<7>(to));
    // 3x3 corners.
    s += at::<1, _>(
        w,
        &f.c33[0],
        rect_c::<0, 0, 3, 3>(p),
        rect_c::<0, 0, 3, 3>(o),
    );
    s += at::<1, _>(
        w,
        &f.c33[1],
        rect_c::<0, 5, 3, 3>(p),
        rect_c::<0, 5, 3, 3>(o),
    );
    s += at::<1, _>(
        w,
        &f.c33[2],
        rect_c::<5, 0, 3, 3>(p),
        rect_c::<5, 0, 3, 3>(o),
    );
    s += at::<1, _>(
        w,
        &f.c33[3],
        rect_c::<5, 5, 3, 3>(p),
        rect_c::<5, 5, 3, 3>(o),
    );
    // 2x5 corners, from the board and its transpose.
    s += at::<2, _>(
        w,
        &f.c25[0],
        rect_c::<0, 0, 5, 2>(p),
        rect_c::<0, 0, 5, 2>(o),
    );
    s += at::<2, _>(
        w,
        &f.c25[1],
        rect_c::<0, 3, 5, 2>(p),
        rect_c::<0, 3, 5, 2>(o),
    );
    s += at::<2, _>(
        w,
        &f.c25[2],
        rect_c::<6, 0, 5, 2>(p),
        rect_c::<6, 0, 5, 2>(o),
    );
    s += at::<2, _>(
        w,
        &f.c25[3],
        rect_c::<6, 3, 5, 2>(p),
        rect_c::<6, 3, 5, 2>(o),
    );
    s += at::<2, _>(
        w,
        &f.c25[0],
        rect_c::<0, 0, 5, 2>(tp),
        rect_c::<0, 0, 5, 2>(to),
    );
    s += at::<2, _>(
        w,
        &f.c25[1],
        rect_c::<0, 3, 5, 2>(tp),
        rect_c::<0, 3, 5, 2>(to),
    );
    s += at::<2, _>(
        w,
        &f.c25[2],
        rect_c::<6, 0, 5, 2>(tp),
        rect_c::<6, 0, 5, 2>(to),
    );
    s += at::<2, _>(
        w,
        &f.c25[3],
        rect_c::<6, 3, 5, 2>(tp),
        rect_c::<6, 3, 5, 2>(to),
    );
    // Rows and columns 2 to 4 (and their mirror images 7 to 5): one byte each.
    s += at::<3, _>(w, &f.line[0], line_c::<1>(p), line_c::<1>(o));
    s += at::<3, _>(w, &f.line[0], line_c::<6>(p), line_c::<6>(o));
    s += at::<3, _>(w, &f.line[0], line_c::<1>(tp), line_c::<1>(to));
    s += at::<3, _>(w, &f.line[0], line_c::<6>(tp), line_c::<6>(to));
    s += at::<4, _>(w, &f.line[0], line_c::<2>(p), line_c::<2>(o));
    s += at::<4, _>(w, &f.line[0], line_c::<5>(p), line_c::<5>(o));
    s += at::<4, _>(w, &f.line[0], line_c::<2>(tp), line_c::<2>(to));
    s += at::<4, _>(w, &f.line[0], line_c::<5>(tp), line_c::<5>(to));
    s += at::<5, _>(w, &f.line[0], line_c::<3>(p), line_c::<3>(o));
    s += at::<5, _>(w, &f.line[0], line_c::<4>(p), line_c::<4>(o));
    s += at::<5, _>(w, &f.line[0], line_c::<3>(tp), line_c::<3>(to));
    s += at::<5, _>(w, &f.line[0], line_c::<4>(tp), line_c::<4>(to));
    // Diagonals: a multiplication collects a diagonal's bits by column.
    let dm = &DIAG_MASKS;
    for (c, &(mask, shift)) in f.d8.iter().zip(&dm[0]) {
        s += at::<6, _>(w, c, diag(p, mask, shift, 8), diag(o, mask, shift, 8));
    }
    for (c, &(mask, shift)) in f.d7.iter().cycle().zip(&dm[1]) {
        s += at::<7, _>(w, c, diag(p, mask, shift, 7), diag(o, mask, shift, 7));
    }
    for (c, &(mask, shift)) in f.d6.iter().cycle().zip(&dm[2]) {
        s += at::<8, _>(w, c, diag(p, mask, shift, 6), diag(o, mask, shift, 6));
    }
    for (c, &(mask, shift)) in f.d5.iter().cycle().zip(&dm[3]) {
        s += at::<9, _>(w, c, diag(p, mask, shift, 5), diag(o, mask, shift, 5));
    }
    for (c, &(mask, shift)) in f.d4.iter().cycle().zip(&dm[4]) {
        s += at::<10, _>(w, c, diag(p, mask, shift, 4), diag(o, mask, shift, 4));
    }
    s
}

/// Entries of one phase of the global features' table: every feature of `FEATURES` at a
/// fixed place ([`MOBILITY_AT`], [`POTENTIAL_AT`]), zero where the weights do not use it.
pub(crate) const EXTRA: usize = 256;

/// Where mobility's weights start in a phase's [`EXTRA`] entries: 41 for the mover's count,
/// then 41 for the opponent's.
pub(crate) const MOBILITY_AT: usize = 0;

/// Where potential mobility's weights start: 61 for the mover's count, then 61 for the
/// opponent's.
pub(crate) const POTENTIAL_AT: usize = 82;

/// The weights of the global features of `p` (legal moves `mp`) against `o` (legal moves
/// `mo`) in one phase's [`EXTRA`] entries: every feature, with no branch (a feature the
/// weights do not use has zero weights). The values are [`Feature::values_with`]'s, the one
/// definition the slow path ([`Feature::entries`]) also reads.
#[inline(always)]
pub(crate) fn features_sum(ex: &[i16; EXTRA], p: u64, o: u64, mp: u64, mo: u64) -> i32 {
    let at = |i: usize| i32::from(ex[i & (EXTRA - 1)]);
    let (np, no) = Feature::Mobility.values_with(p, o, mp, mo);
    let (pp, po) = Feature::Potential.values_with(p, o, mp, mo);
    at(MOBILITY_AT + np)
        + at(MOBILITY_AT + Feature::Mobility.weights() / 2 + no)
        + at(POTENTIAL_AT + pp)
        + at(POTENTIAL_AT + Feature::Potential.weights() / 2 + po)
}

/// Which compiled copy of the fast path runs, with its tables: chosen once, when the weights
/// are made (from a [`Cpu`]), so no evaluation checks the CPU.
#[derive(Clone, Copy)]
pub(crate) enum Gather {
    /// Shifts, masks and multiplications: any CPU.
    Portable(&'static Fast),
    /// `pext` and `popcnt`, with the token that proves the CPU has them (see [`x86::Pext`]).
    #[cfg(target_arch = "x86_64")]
    Pext(x86::Pext),
}

impl std::fmt::Debug for Gather {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.cpu().name())
    }
}

impl Gather {
    /// The copy for `cpu`: the `pext` copy for [`Cpu::X86v3`] on a CPU whose `pext` runs at
    /// full speed ([`X86v3::fast_pext`](yomi_othello::cpu::X86v3::fast_pext)), else the
    /// portable one (AMD CPUs before Zen 3 would run the `pext` copy several times slower).
    pub(crate) fn new(cpu: Cpu) -> Gather {
        match cpu {
            #[cfg(target_arch = "x86_64")]
            Cpu::X86v3(token) if token.fast_pext() => Gather::Pext(x86::Pext::new(token)),
            _ => Gather::Portable(fast_tables()),
        }
    }

    /// The compiled copy that runs.
    pub(crate) fn cpu(self) -> Cpu {
        match self {
            Gather::Portable(_) => Cpu::Portable,
            #[cfg(target_arch = "x86_64")]
            Gather::Pext(pext) => Cpu::X86v3(pext.token()),
        }
    }

    /// [`raw`](Self::raw) plus the global features' weights `ex` (one phase's [`EXTRA`]
    /// entries, chosen by the caller for the position's phase), with the mover's legal
    /// moves when the caller has them.
    #[inline]
    pub(crate) fn raw_features(
        self,
        full: &[i16],
        phase_by_discs: &[u8; 65],
        ex: &[i16; EXTRA],
        p: u64,
        o: u64,
        moves_p: Option<u64>,
    ) -> i32 {
        match self {
            Gather::Portable(f) => {
                use yomi_othello::{moves, Bitboard};
                let mp = moves_p.unwrap_or_else(|| moves(Bitboard(p), Bitboard(o)).0);
                let mo = moves(Bitboard(o), Bitboard(p)).0;
                fast(f, weights_of(full, phase_by_discs, p, o), p, o)
                    + features_sum(ex, p, o, mp, mo)
            }
            #[cfg(target_arch = "x86_64")]
            Gather::Pext(pext) => pext.raw_features(full, phase_by_discs, ex, p, o, moves_p),
        }
    }

    /// The evaluation before clamping: the weights of the position's phase
    /// (`phase_by_discs[discs]` of the `PADDED`-entry phases of `full`) summed over every
    /// placement.
    #[inline]
    pub(crate) fn raw(self, full: &[i16], phase_by_discs: &[u8; 65], p: u64, o: u64) -> i32 {
        match self {
            Gather::Portable(f) => fast(f, weights_of(full, phase_by_discs, p, o), p, o),
            #[cfg(target_arch = "x86_64")]
            Gather::Pext(pext) => pext.raw(full, phase_by_discs, p, o),
        }
    }
}

/// The weights of the phase of `p`/`o`.
#[inline(always)]
fn weights_of<'a>(full: &'a [i16], phase_by_discs: &[u8; 65], p: u64, o: u64) -> &'a [i16; PADDED] {
    let phase = usize::from(phase_by_discs[(p | o).count_ones() as usize]);
    full[phase * PADDED..][..PADDED]
        .try_into()
        .expect("PADDED entries per phase")
}

/// The copy of the evaluation for x86-64 CPUs with AVX2, BMI1/2, POPCNT and LZCNT.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod x86;
