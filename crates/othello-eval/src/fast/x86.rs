//! The copy of the evaluation for x86-64 CPUs with AVX2, BMI1/2, POPCNT and LZCNT.

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

    /// See [`Gather::raw_features`].
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
        // SAFETY: as for `raw`: the token proves the CPU has the features `raw_features_v3`
        // is compiled for.
        unsafe { raw_features_v3(self.tables, full, phase_by_discs, ex, p, o, moves_p) }
    }

    /// See [`Gather::raw`].
    #[inline]
    pub(crate) fn raw(self, full: &[i16], phase_by_discs: &[u8; 65], p: u64, o: u64) -> i32 {
        // SAFETY: `raw_v3` needs only the CPU features it is compiled with, which the
        // token proves this CPU has (see the safety argument of `yomi_othello::cpu`).
        unsafe { raw_v3(self.tables, full, phase_by_discs, p, o) }
    }
}

/// The evaluation before clamping with the global features, in one function compiled for
/// x86-64-v3 (so the move generator and the patterns inline together).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
fn raw_features_v3(
    f: &Tables,
    full: &[i16],
    phase_by_discs: &[u8; 65],
    ex: &[i16; EXTRA],
    p: u64,
    o: u64,
    moves_p: Option<u64>,
) -> i32 {
    use yomi_othello::cpu::moves_x86v3;
    let mp = match moves_p {
        Some(m) => m,
        None => moves_x86v3(p, o),
    };
    let mo = moves_x86v3(o, p);
    raw_v3(f, full, phase_by_discs, p, o) + features_sum(ex, p, o, mp, mo)
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
