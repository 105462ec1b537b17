//! The fast evaluation: the sum of one phase's weights over the 46 placements, table-driven,
//! in two compiled copies chosen when the weights are made ([`Gather`]): a portable one
//! (shifts, masks and multiplications collect a placement's discs) and, on x86-64 CPUs with
//! AVX2, BMI1/2, POPCNT and LZCNT, one that collects them with `pext`.

use std::sync::OnceLock;

use yomi_othello::cpu::Cpu;

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
pub(crate) mod x86 {
    use std::arch::x86_64::_pext_u64;
    use std::sync::OnceLock;

    use yomi_othello::cpu::X86v3;

    use super::*;

    /// How the `pext` copy collects one placement: `pext(x, mask)`, with `x` the discs or, when
    /// `flip`, the discs flipped top to bottom (`swap_bytes`, one instruction), collects its
    /// squares lowest first; conversion table number `table` of its pattern turns them into the
    /// configuration. The flip lets a placement in the bottom half share the table of its image
    /// in the top half.
    #[derive(Clone, Copy)]
    struct PextGather {
        flip: bool,
        mask: u64,
        table: usize,
    }

    const fn g(flip: bool, mask: u64, table: usize) -> PextGather {
        PextGather { flip, mask, table }
    }

    /// Column `a`.
    const COL: u64 = 0x0101_0101_0101_0101;

    /// The edges with their X-squares (rows 1 and 8, columns `a` and `h`), in the order of
    /// `Layout` (as are the others).
    const PEXT_EDGE: [PextGather; 4] = [
        g(false, 0x42FF, 0),
        g(true, 0x42FF, 0),
        g(false, COL | 1 << 9 | 1 << 49, 1),
        g(false, COL << 7 | 1 << 14 | 1 << 54, 2),
    ];

    /// The 3x3 corners.
    const PEXT_C33: [PextGather; 4] = [
        g(false, 0x07_0707, 0),
        g(false, 0x07_0707 << 5, 1),
        g(true, 0x07_0707, 0),
        g(true, 0x07_0707 << 5, 1),
    ];

    /// The 2x5 corners: 2 rows of 5, then 5 rows of 2.
    const PEXT_C25: [PextGather; 8] = [
        g(false, 0x1F1F, 0),
        g(false, 0x1F1F << 3, 1),
        g(true, 0x1F1F, 0),
        g(true, 0x1F1F << 3, 1),
        g(false, 0x03_0303_0303, 2),
        g(true, 0x03_0303_0303, 2),
        g(false, 0xC0_C0C0_C0C0, 3),
        g(true, 0xC0_C0C0_C0C0, 3),
    ];

    /// Rows and columns 2 to 4 (with 7 to 5), one pattern per line of the array; all use one
    /// table.
    const PEXT_LINES: [[PextGather; 4]; 3] = [
        [
            g(false, 0xFF << 8, 0),
            g(false, 0xFF << 48, 0),
            g(false, COL << 1, 0),
            g(false, COL << 6, 0),
        ],
        [
            g(false, 0xFF << 16, 0),
            g(false, 0xFF << 40, 0),
            g(false, COL << 2, 0),
            g(false, COL << 5, 0),
        ],
        [
            g(false, 0xFF << 24, 0),
            g(false, 0xFF << 32, 0),
            g(false, COL << 3, 0),
            g(false, COL << 4, 0),
        ],
    ];

    /// The diagonals, longest first: the lower two placements of each length are the flipped
    /// images of the upper two, and all use one table.
    const PEXT_DIAGS: [[PextGather; 4]; 5] = {
        let mut out = [[g(false, 0, 0); 4]; 5];
        let mut d = 0;
        while d < 5 {
            let mut j = 0;
            while j < 4 {
                out[d][j] = if d > 0 && j >= 2 {
                    g(true, DIAG_MASKS[d][j - 2].0, 0)
                } else {
                    g(false, DIAG_MASKS[d][j].0, 0)
                };
                j += 1;
            }
            d += 1;
        }
        out
    };

    /// `pext` in portable code, for building the tables.
    fn soft_pext(x: u64, mut mask: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        while mask != 0 {
            let bit = mask & mask.wrapping_neg();
            if x & bit != 0 {
                out |= 1 << k;
            }
            k += 1;
            mask ^= bit;
        }
        out
    }

    /// The conversion table of placement `j` of pattern `pattern` for the gather `gather`: entry
    /// `m` is the configuration (`sum 3^digit`) of the squares whose bits are set in `m`, found
    /// by probing single squares (which also checks that the gather collects the placement's
    /// squares and no other).
    fn conv_by_probing(pattern: usize, j: usize, gather: PextGather) -> Vec<u16> {
        let PextGather { flip, mask, .. } = gather;
        let layout = Layout::get();
        let squares = &layout.placements[pattern][j].squares;
        let n = squares.len();
        assert_eq!(
            mask.count_ones() as usize,
            n,
            "pattern {pattern} placement {j}"
        );
        let mut digit_of_bit = vec![u32::MAX; n];
        for s in 0..64u8 {
            let b = 1u64 << s;
            let bits = soft_pext(if flip { b.swap_bytes() } else { b }, mask);
            match squares.iter().position(|&q| q == s) {
                Some(d) => {
                    assert_eq!(bits.count_ones(), 1, "pattern {pattern} placement {j}: {s}");
                    digit_of_bit[bits.trailing_zeros() as usize] = d as u32;
                }
                None => assert_eq!(bits, 0, "pattern {pattern} placement {j}: {s} is not its"),
            }
        }
        (0..1usize << n)
            .map(|m| {
                (0..n)
                    .filter(|&k| m >> k & 1 == 1)
                    .map(|k| 3u32.pow(digit_of_bit[k]))
                    .sum::<u32>()
            })
            .map(|v| u16::try_from(v).expect("below 3^10 / 2"))
            .collect()
    }

    /// The `K` tables of the gathers `gathers` of pattern `pattern`: each gather's table, found
    /// by probing, must equal every other gather's with the same table number.
    fn pext_tables<const N: usize, const K: usize>(
        pattern: usize,
        gathers: &[PextGather],
    ) -> Box<[[u16; N]; K]> {
        let mut out = Box::new([[0u16; N]; K]);
        let mut filled = [false; K];
        for (j, &gather) in gathers.iter().enumerate() {
            let conv = conv_by_probing(pattern, j, gather);
            assert_eq!(conv.len(), N);
            let t = gather.table;
            if filled[t] {
                assert!(
                    out[t][..] == conv[..],
                    "pattern {pattern}: placement {j} does not have table {t}"
                );
            } else {
                out[t].copy_from_slice(&conv);
                filled[t] = true;
            }
        }
        assert!(
            filled.iter().all(|&f| f),
            "pattern {pattern}: an unused table"
        );
        out
    }

    /// The conversion tables of the `pext` gathers (each gather names its table; checked when
    /// they are built), 18 KiB in all.
    pub(crate) struct Tables {
        edge: [[u16; 1024]; 3],
        c33: [[u16; 512]; 2],
        c25: [[u16; 1024]; 4],
        line: [[u16; 256]; 1],
        d8: [[u16; 256]; 1],
        d7: [[u16; 128]; 1],
        d6: [[u16; 64]; 1],
        d5: [[u16; 32]; 1],
        d4: [[u16; 16]; 1],
    }

    fn tables() -> &'static Tables {
        static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
        TABLES.get_or_init(|| {
            let line = *pext_tables(3, &PEXT_LINES[0]);
            assert!(*pext_tables(4, &PEXT_LINES[1]) == line);
            assert!(*pext_tables(5, &PEXT_LINES[2]) == line);
            Box::new(Tables {
                edge: *pext_tables(0, &PEXT_EDGE),
                c33: *pext_tables(1, &PEXT_C33),
                c25: *pext_tables(2, &PEXT_C25),
                line,
                d8: *pext_tables(6, &PEXT_DIAGS[0][..2]),
                d7: *pext_tables(7, &PEXT_DIAGS[1]),
                d6: *pext_tables(8, &PEXT_DIAGS[2]),
                d5: *pext_tables(9, &PEXT_DIAGS[3]),
                d4: *pext_tables(10, &PEXT_DIAGS[4]),
            })
        })
    }

    /// The `pext` copy: its tables and the token that proves this CPU has every feature
    /// [`raw_v3`] is compiled for.
    #[derive(Clone, Copy)]
    pub(crate) struct Pext {
        token: X86v3,
        tables: &'static Tables,
    }

    impl Pext {
        /// The copy, its tables built on first use.
        pub(crate) fn new(token: X86v3) -> Pext {
            Pext {
                token,
                tables: tables(),
            }
        }

        /// The token.
        pub(crate) fn token(self) -> X86v3 {
            self.token
        }

        /// See [`Gather::raw`].
        #[inline]
        pub(crate) fn raw(self, full: &[i16], phase_by_discs: &[u8; 65], p: u64, o: u64) -> i32 {
            // SAFETY: `raw_v3` needs only the CPU features it is compiled with, which the
            // token proves this CPU has (see the safety argument of `yomi_othello::cpu`).
            unsafe { raw_v3(self.tables, full, phase_by_discs, p, o) }
        }
    }

    /// The evaluation before clamping (as the portable `fast`, with `pext` gathers).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn raw_v3(f: &Tables, full: &[i16], phase_by_discs: &[u8; 65], p: u64, o: u64) -> i32 {
        let w = weights_of(full, phase_by_discs, p, o);
        let (fp, fo) = (p.swap_bytes(), o.swap_bytes());
        // The mover's and the opponent's collected bits of one placement.
        let bits = |gather: PextGather| {
            let (x, y) = if gather.flip { (fp, fo) } else { (p, o) };
            (
                _pext_u64(x, gather.mask) as usize,
                _pext_u64(y, gather.mask) as usize,
            )
        };
        let mut s = i32::from(w[0]);
        for gather in PEXT_EDGE {
            let (x, y) = bits(gather);
            s += at::<0, _>(w, &f.edge[gather.table], x, y);
        }
        for gather in PEXT_C33 {
            let (x, y) = bits(gather);
            s += at::<1, _>(w, &f.c33[gather.table], x, y);
        }
        for gather in PEXT_C25 {
            let (x, y) = bits(gather);
            s += at::<2, _>(w, &f.c25[gather.table], x, y);
        }
        let line = &f.line[0];
        for gather in PEXT_LINES[0] {
            let (x, y) = bits(gather);
            s += at::<3, _>(w, line, x, y);
        }
        for gather in PEXT_LINES[1] {
            let (x, y) = bits(gather);
            s += at::<4, _>(w, line, x, y);
        }
        for gather in PEXT_LINES[2] {
            let (x, y) = bits(gather);
            s += at::<5, _>(w, line, x, y);
        }
        for gather in &PEXT_DIAGS[0][..2] {
            let (x, y) = bits(*gather);
            s += at::<6, _>(w, &f.d8[0], x, y);
        }
        for gather in PEXT_DIAGS[1] {
            let (x, y) = bits(gather);
            s += at::<7, _>(w, &f.d7[0], x, y);
        }
        for gather in PEXT_DIAGS[2] {
            let (x, y) = bits(gather);
            s += at::<8, _>(w, &f.d6[0], x, y);
        }
        for gather in PEXT_DIAGS[3] {
            let (x, y) = bits(gather);
            s += at::<9, _>(w, &f.d5[0], x, y);
        }
        for gather in PEXT_DIAGS[4] {
            let (x, y) = bits(gather);
            s += at::<10, _>(w, &f.d4[0], x, y);
        }
        s
    }
}
