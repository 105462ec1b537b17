//! The patterns, their symmetric placements, and the tables that turn a placement's discs into
//! a weight index.
//!
//! A pattern is an ordered list of squares (its *base placement*, near `a1`). A configuration
//! of it is the ternary number `sum 3^k d_k`, with `d_k` the state of its `k`-th square: 0
//! empty, 1 a disc of the side to move, 2 a disc of the opponent. Every image of the base
//! under the 8 board symmetries is a placement, and all placements of a pattern share one
//! weight table: a placement whose squares are `g(base[0]), g(base[1]), ...` for a symmetry
//! `g` reads its configuration in that order. A pattern that some symmetry maps onto itself
//! (a row onto itself reversed) has equal weights for the configurations that symmetry
//! exchanges ([`Layout::canonical`]), so the evaluation is exactly the same on all 8 images of
//! a position, however a placement's squares are ordered.

use std::sync::OnceLock;

use yomi_othello::{transform_bitboard, Bitboard};

/// A pattern: its name and its base squares in digit order (`a1` = 0, `h8` = 63).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The name, as stored in weight files.
    pub name: &'static str,
    /// The base placement's squares, digit 0 first.
    pub squares: &'static [u8],
}

impl Pattern {
    /// The number of configurations, `3^len`.
    #[must_use]
    pub fn configurations(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The patterns, in the order of the weight tables.
pub const PATTERNS: [Pattern; 11] = [
    Pattern {
        name: "edge+2x",
        squares: &[0, 1, 2, 3, 4, 5, 6, 7, 9, 14],
    },
    Pattern {
        name: "corner3x3",
        squares: &[0, 1, 2, 8, 9, 10, 16, 17, 18],
    },
    Pattern {
        name: "corner2x5",
        squares: &[0, 1, 2, 3, 4, 8, 9, 10, 11, 12],
    },
    Pattern {
        name: "row2",
        squares: &[8, 9, 10, 11, 12, 13, 14, 15],
    },
    Pattern {
        name: "row3",
        squares: &[16, 17, 18, 19, 20, 21, 22, 23],
    },
    Pattern {
        name: "row4",
        squares: &[24, 25, 26, 27, 28, 29, 30, 31],
    },
    Pattern {
        name: "diag8",
        squares: &[0, 9, 18, 27, 36, 45, 54, 63],
    },
    Pattern {
        name: "diag7",
        squares: &[1, 10, 19, 28, 37, 46, 55],
    },
    Pattern {
        name: "diag6",
        squares: &[2, 11, 20, 29, 38, 47],
    },
    Pattern {
        name: "diag5",
        squares: &[3, 12, 21, 30, 39],
    },
    Pattern {
        name: "diag4",
        squares: &[4, 13, 22, 31],
    },
];

/// Index of the first diagonal pattern in [`PATTERNS`].
const DIAG8: usize = 6;

/// Transposes a square set (row <-> column, about the `a1`-`h8` diagonal).
#[inline]
pub(crate) const fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// How a placement's discs are collected into a small bit mask (bit `j` for its `j`-th
/// collected square), from the board (`t` false) or its transpose (`t` true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gather {
    /// A rectangle: `h` rows from `row`, `w` columns from `col`, row by row.
    Rect {
        t: bool,
        row: u8,
        col: u8,
        w: u8,
        h: u8,
    },
    /// Row 0 or 7 and the two X-squares next to it (columns 1 and 6 of row 1 or 6).
    EdgeX { t: bool, row: u8 },
    /// A diagonal: the squares of `mask` (one per column), by column, from column `shift`.
    Diag { mask: u64, shift: u8, len: u8 },
}

impl Gather {
    /// The collected bits of `b` (with `tb` its transpose).
    #[inline(always)]
    pub(crate) fn apply(self, b: u64, tb: u64) -> usize {
        match self {
            Gather::Rect { t, row, col, w, h } => {
                let x = if t { tb } else { b };
                rect(x, row, col, w, h)
            }
            Gather::EdgeX { t, row } => {
                let x = if t { tb } else { b };
                edge_x(x, row)
            }
            Gather::Diag { mask, shift, len } => diag(b, mask, shift, len),
        }
    }
}

/// The multiplier that collects an `h`-row, `w`-column rectangle at the board's origin into
/// the top `w * h` bits of the product, the last row lowest: row `r` is shifted to
/// `64 - w*h + (h-1-r)*w`. For the shapes used (3x3, 5x2, 8x1) no two partial products
/// overlap below bit 64, so there are no carries (the fast path is checked against a slow
/// reference by the tests).
#[inline(always)]
pub(crate) const fn rect_magic(w: u32, h: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < h {
        m |= 1u64 << (64 - w * h + (h - 1 - r) * w - 8 * r);
        r += 1;
    }
    m
}

/// The mask of an `h`-row, `w`-column rectangle at the origin.
#[inline(always)]
pub(crate) const fn rect_mask(w: u32, h: u32) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < h {
        m |= ((1u64 << w) - 1) << (8 * r);
        r += 1;
    }
    m
}

#[inline(always)]
pub(crate) fn rect(x: u64, row: u8, col: u8, w: u8, h: u8) -> usize {
    let (w, h) = (u32::from(w), u32::from(h));
    let y = (x >> (8 * u32::from(row) + u32::from(col))) & rect_mask(w, h);
    (y.wrapping_mul(rect_magic(w, h)) >> (64 - w * h)) as usize
}

#[inline(always)]
pub(crate) fn edge_x(x: u64, row: u8) -> usize {
    let xrow = if row == 0 { 1 } else { 6 };
    (((x >> (8 * row)) & 0xFF)
        | ((x >> (8 * xrow + 1)) & 1) << 8
        | ((x >> (8 * xrow + 6)) & 1) << 9) as usize
}

/// The multiplier that collects a diagonal of `len` squares from column `shift` (one square
/// per column) into the top `len` bits of the product, by column: `0x0101..01` gathers
/// every column into the top byte without carries, and the extra shift moves the diagonal's
/// columns to the top.
#[inline(always)]
pub(crate) const fn diag_magic(shift: u8, len: u8) -> u64 {
    0x0101_0101_0101_0101 << (8 - shift - len)
}

#[inline(always)]
pub(crate) fn diag(x: u64, mask: u64, shift: u8, len: u8) -> usize {
    ((x & mask).wrapping_mul(diag_magic(shift, len)) >> (64 - len)) as usize
}

/// One placement: how its discs are collected, and the table from collected bits to the
/// configuration index (`conv[mover bits] + 2 * conv[opponent bits]`).
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    pub(crate) gather: Gather,
    pub(crate) conv: Vec<u32>,
    /// The board squares in digit order (`g(base[k])`).
    pub(crate) squares: Vec<u8>,
}

/// The tables of every pattern, built once.
#[derive(Debug)]
pub struct Layout {
    /// For each pattern, its placements.
    pub(crate) placements: Vec<Vec<Placement>>,
    /// For each pattern, the canonical configuration of each configuration (the least index
    /// among those the pattern's own symmetries exchange).
    canon: Vec<Vec<u32>>,
    /// For each pattern, the compact number of each canonical configuration
    /// (`u32::MAX` for the others).
    compact: Vec<Vec<u32>>,
    /// For each pattern, how many canonical configurations it has.
    sizes: Vec<usize>,
    /// Offsets of each pattern's full table in a phase (after the bias at 0).
    pub(crate) full_offsets: Vec<usize>,
    /// Offsets of each pattern's compact table in a phase (after the bias at 0).
    compact_offsets: Vec<usize>,
    full_len: usize,
    compact_len: usize,
}

/// The gathers of every placement, pattern by pattern.
fn gathers() -> Vec<Vec<Gather>> {
    let mut out = Vec::new();
    out.push(
        [(false, 0), (false, 7), (true, 0), (true, 7)]
            .map(|(t, row)| Gather::EdgeX { t, row })
            .to_vec(),
    );
    out.push(
        [(0, 0), (0, 5), (5, 0), (5, 5)]
            .map(|(row, col)| Gather::Rect {
                t: false,
                row,
                col,
                w: 3,
                h: 3,
            })
            .to_vec(),
    );
    let mut c25 = Vec::new();
    for t in [false, true] {
        for (row, col) in [(0, 0), (0, 3), (6, 0), (6, 3)] {
            c25.push(Gather::Rect {
                t,
                row,
                col,
                w: 5,
                h: 2,
            });
        }
    }
    out.push(c25);
    for rows in [[1, 6], [2, 5], [3, 4]] {
        let mut v = Vec::new();
        for t in [false, true] {
            for row in rows {
                v.push(Gather::Rect {
                    t,
                    row,
                    col: 0,
                    w: 8,
                    h: 1,
                });
            }
        }
        out.push(v);
    }
    for p in &PATTERNS[DIAG8..] {
        let mut v: Vec<Gather> = Vec::new();
        for sym in 0..8 {
            let mask = image_mask(p.squares, sym);
            let shift = (0..8).find(|c| mask & (0x0101_0101_0101_0101 << c) != 0);
            let shift = shift.expect("a diagonal has squares") as u8;
            let g = Gather::Diag {
                mask,
                shift,
                len: p.squares.len() as u8,
            };
            if !v.contains(&g) {
                v.push(g);
            }
        }
        out.push(v);
    }
    out
}

fn image_mask(squares: &[u8], sym: usize) -> u64 {
    squares
        .iter()
        .map(|&s| transform_bitboard(Bitboard(1 << s), sym).0)
        .fold(0, |a, b| a | b)
}

fn image_square(s: u8, sym: usize) -> u8 {
    transform_bitboard(Bitboard(1 << s), sym).0.trailing_zeros() as u8
}

/// The board squares a gather collects, in bit order (found by probing single squares).
fn collected(g: Gather) -> Vec<u8> {
    let mut by_bit: Vec<(usize, u8)> = Vec::new();
    for s in 0..64u8 {
        let b = 1u64 << s;
        let bits = g.apply(b, transpose(b));
        if bits != 0 {
            assert_eq!(bits.count_ones(), 1, "a square collected twice");
            by_bit.push((bits.trailing_zeros() as usize, s));
        }
    }
    by_bit.sort_unstable();
    for (j, &(bit, _)) in by_bit.iter().enumerate() {
        assert_eq!(bit, j, "collected bits must be contiguous");
    }
    by_bit.into_iter().map(|(_, s)| s).collect()
}

impl Layout {
    fn build() -> Layout {
        let mut placements = Vec::new();
        let mut canon = Vec::new();
        let mut compact = Vec::new();
        let mut sizes = Vec::new();
        for (pattern, gs) in PATTERNS.iter().zip(gathers()) {
            let n = pattern.squares.len();
            let mut ps = Vec::new();
            for g in gs {
                let got = collected(g);
                let mut set: Vec<u8> = got.clone();
                set.sort_unstable();
                // A symmetry that maps the base onto this placement fixes the digit order.
                let sym = (0..8)
                    .find(|&sym| {
                        let mut img: Vec<u8> = pattern
                            .squares
                            .iter()
                            .map(|&s| image_square(s, sym))
                            .collect();
                        img.sort_unstable();
                        img == set
                    })
                    .expect("every placement is an image of the base");
                let squares: Vec<u8> = pattern
                    .squares
                    .iter()
                    .map(|&s| image_square(s, sym))
                    .collect();
                let digit_of_bit: Vec<u32> = got
                    .iter()
                    .map(|s| squares.iter().position(|t| t == s).expect("same set") as u32)
                    .collect();
                let conv = (0..1usize << n)
                    .map(|m| {
                        (0..n)
                            .filter(|&j| m >> j & 1 == 1)
                            .map(|j| 3u32.pow(digit_of_bit[j]))
                            .sum()
                    })
                    .collect();
                ps.push(Placement {
                    gather: g,
                    conv,
                    squares,
                });
            }
            // The pattern's own symmetries, as permutations of its digits.
            let perms: Vec<Vec<usize>> = (0..8)
                .filter_map(|sym| {
                    pattern
                        .squares
                        .iter()
                        .map(|&s| {
                            let t = image_square(s, sym);
                            pattern.squares.iter().position(|&u| u == t)
                        })
                        .collect::<Option<Vec<usize>>>()
                })
                .collect();
            let configs = pattern.configurations();
            let mut c = vec![0u32; configs];
            let mut k = vec![u32::MAX; configs];
            let mut size = 0;
            for (i, slot) in c.iter_mut().enumerate() {
                let digits = digits_of(i, n);
                let least = perms
                    .iter()
                    .map(|perm| {
                        let mut d = vec![0; n];
                        for (from, &to) in perm.iter().enumerate() {
                            d[to] = digits[from];
                        }
                        index_of(&d)
                    })
                    .min()
                    .expect("the identity");
                *slot = least as u32;
                if least == i {
                    k[i] = size as u32;
                    size += 1;
                }
            }
            placements.push(ps);
            canon.push(c);
            compact.push(k);
            sizes.push(size);
        }
        let mut full_offsets = Vec::new();
        let mut compact_offsets = Vec::new();
        let (mut f, mut c) = (1, 1);
        for (p, &size) in PATTERNS.iter().zip(&sizes) {
            full_offsets.push(f);
            compact_offsets.push(c);
            f += p.configurations();
            c += size;
        }
        Layout {
            placements,
            canon,
            compact,
            sizes,
            full_offsets,
            compact_offsets,
            full_len: f,
            compact_len: c,
        }
    }

    /// The layout, built on first use.
    #[must_use]
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::build)
    }

    /// Entries of one phase's full table (the bias, then every configuration of every
    /// pattern).
    #[must_use]
    pub fn full_len(&self) -> usize {
        self.full_len
    }

    /// Entries of one phase's compact table (the bias, then the canonical configurations of
    /// every pattern): the weights a weight file stores and training fits.
    #[must_use]
    pub fn compact_len(&self) -> usize {
        self.compact_len
    }

    /// For each pattern, its number of canonical configurations.
    #[must_use]
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The canonical configuration of configuration `index` of pattern `pattern`.
    #[must_use]
    pub fn canonical(&self, pattern: usize, index: usize) -> usize {
        self.canon[pattern][index] as usize
    }

    /// For each pattern, the board squares of each placement in digit order.
    #[must_use]
    pub fn placement_squares(&self, pattern: usize) -> Vec<Vec<u8>> {
        self.placements[pattern]
            .iter()
            .map(|p| p.squares.clone())
            .collect()
    }

    /// The position of configuration `index` of `pattern` in a compact table.
    #[must_use]
    pub fn compact_index(&self, pattern: usize, index: usize) -> usize {
        let c = self.canon[pattern][index] as usize;
        self.compact_offsets[pattern] + self.compact[pattern][c] as usize
    }

    /// The compact table entries of a position (side to move `p`, opponent `o`): the bias
    /// (0), then one entry per placement, pattern by pattern. The evaluation is the sum of the
    /// weights at these entries.
    #[must_use]
    pub fn features(&self, p: u64, o: u64) -> Vec<usize> {
        let (tp, to) = (transpose(p), transpose(o));
        let mut out = Vec::with_capacity(47);
        out.push(0);
        for (k, ps) in self.placements.iter().enumerate() {
            for pl in ps {
                let idx = pl.conv[pl.gather.apply(p, tp)] + 2 * pl.conv[pl.gather.apply(o, to)];
                out.push(self.compact_index(k, idx as usize));
            }
        }
        out
    }

    /// Expands one phase's compact table to its full table.
    pub(crate) fn expand(&self, compact: &[i16]) -> Vec<i16> {
        let mut full = vec![0i16; self.full_len];
        full[0] = compact[0];
        for (k, p) in PATTERNS.iter().enumerate() {
            for i in 0..p.configurations() {
                full[self.full_offsets[k] + i] = compact[self.compact_index(k, i)];
            }
        }
        full
    }
}

/// The base-3 digits of `index`, digit 0 first.
pub(crate) fn digits_of(mut index: usize, n: usize) -> Vec<u8> {
    let mut d = vec![0u8; n];
    for x in &mut d {
        *x = (index % 3) as u8;
        index /= 3;
    }
    d
}

/// The index of base-3 digits, digit 0 first.
pub(crate) fn index_of(digits: &[u8]) -> usize {
    digits.iter().rev().fold(0, |a, &d| a * 3 + usize::from(d))
}
