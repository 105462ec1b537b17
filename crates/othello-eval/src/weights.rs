//! The weights of the pattern evaluation, the fast evaluation, and the weight file.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Container, ContainerError};

use crate::patterns::{diag, rect_magic, rect_mask, transpose, Layout, PATTERNS};
use crate::{Evaluator, EVAL_LIMIT};

/// Weight files: the checked container with magic `YOMIEVAL`, tag `othello`, one record per
/// phase.
pub const WEIGHT_FILE: Container = Container::new(*b"YOMIEVAL", 1, "weight file");

/// The tag of weight files.
pub const WEIGHT_TAG: &str = "othello";

/// The most phases a weight file may have (one per disc count from 4 to 64).
pub const MAX_PHASES: usize = 61;

/// The default weights, built into the binary (`data/othello.weights` of this crate, inside it
/// so that `cargo package` ships them).
const BUILTIN: &[u8] = include_bytes!("../data/othello.weights");

/// Why weights could not be made, read or written.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum WeightError {
    /// The file is not a sound weight file (access, magic, version, length, checksum,
    /// decoding).
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// The number of phases is outside `1..=61`.
    #[error("{0} phases: a weight file has 1 to 61")]
    Phases(usize),
    /// The file's patterns or table sizes are not this build's.
    #[error("the weight file's layout does not match this build: {0}")]
    Layout(String),
}

/// The stored form of [`Weights`].
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Payload {
    pub(crate) about: String,
    /// Each pattern's name and number of canonical configurations.
    pub(crate) patterns: Vec<(String, u32)>,
    /// Per phase: the bias, then every pattern's canonical configurations.
    pub(crate) tables: Vec<Vec<i16>>,
}

/// A pattern evaluation: per phase (by disc count), a bias and a weight for every canonical
/// configuration of every pattern, in hundredths of a disc.
///
/// Position `p`/`o` (side to move, opponent) with `n` discs is in phase
/// `(n - 4) * phases / 61`; its value is the phase's bias plus, for every placement of every
/// pattern, the weight of the placement's configuration, clamped to
/// `-EVAL_LIMIT..=EVAL_LIMIT`.
#[derive(Clone)]
pub struct Weights {
    about: String,
    compact: Vec<Vec<i16>>,
    /// The expanded tables, phase after phase, [`PADDED`] entries each: the bias, then each
    /// pattern's configurations at [`PADDED_OFFSETS`] (each pattern's region padded to a power
    /// of two, so the fast path's masked indices need no bounds checks).
    full: Vec<i16>,
    /// The conversion tables of the fast path.
    fast: &'static Fast,
}

/// Equal when the description and the stored tables are (the rest is derived from them).
impl PartialEq for Weights {
    fn eq(&self, other: &Weights) -> bool {
        self.about == other.about && self.compact == other.compact
    }
}

impl Eq for Weights {}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Weights")
            .field("phases", &self.phases())
            .field("about", &self.about)
            .finish_non_exhaustive()
    }
}

impl Weights {
    /// Weights of `phases` phases, all zero.
    ///
    /// # Errors
    /// [`WeightError::Phases`] outside `1..=61`.
    pub fn zero(phases: usize, about: &str) -> Result<Weights, WeightError> {
        let len = Layout::get().compact_len();
        Weights::from_tables(about, vec![vec![0; len]; phases])
    }

    /// Weights from compact tables, one per phase (each [`Layout::compact_len`] long).
    ///
    /// # Errors
    /// [`WeightError::Phases`], [`WeightError::Layout`] for a table of the wrong length.
    pub fn from_tables(about: &str, tables: Vec<Vec<i16>>) -> Result<Weights, WeightError> {
        let layout = Layout::get();
        if tables.is_empty() || tables.len() > MAX_PHASES {
            return Err(WeightError::Phases(tables.len()));
        }
        if let Some(t) = tables.iter().find(|t| t.len() != layout.compact_len()) {
            return Err(WeightError::Layout(format!(
                "a phase has {} weights, this build {}",
                t.len(),
                layout.compact_len()
            )));
        }
        let mut full = vec![0i16; PADDED * tables.len()];
        for (t, padded) in tables.iter().zip(full.chunks_exact_mut(PADDED)) {
            let expanded = layout.expand(t);
            padded[0] = expanded[0];
            for (k, pattern) in PATTERNS.iter().enumerate() {
                let n = pattern.configurations();
                let from = &expanded[layout.full_offsets[k]..][..n];
                padded[PADDED_OFFSETS[k]..][..n].copy_from_slice(from);
            }
        }
        Ok(Weights {
            about: about.to_string(),
            compact: tables,
            full,
            fast: fast_tables(),
        })
    }

    /// The number of phases.
    #[must_use]
    pub fn phases(&self) -> usize {
        self.compact.len()
    }

    /// How the weights were made (free text stored in the file).
    #[must_use]
    pub fn about(&self) -> &str {
        &self.about
    }

    /// The compact table of phase `phase` (the bias, then each pattern's canonical
    /// configurations; see [`Layout::compact_index`]).
    ///
    /// # Panics
    /// If `phase >= self.phases()`.
    #[must_use]
    pub fn table(&self, phase: usize) -> &[i16] {
        &self.compact[phase]
    }

    /// The phase of a position with `discs` discs on the board.
    #[must_use]
    pub fn phase_of(&self, discs: u32) -> usize {
        phase_of(discs, self.phases())
    }

    /// The bytes of a weight file.
    ///
    /// # Errors
    /// [`WeightError::Container`] if encoding fails.
    pub fn encode(&self) -> Result<Vec<u8>, WeightError> {
        let layout = Layout::get();
        let payload = Payload {
            about: self.about.clone(),
            patterns: PATTERNS
                .iter()
                .zip(layout.sizes())
                .map(|(p, &s)| (p.name.to_string(), s as u32))
                .collect(),
            tables: self.compact.clone(),
        };
        Ok(WEIGHT_FILE.encode(WEIGHT_TAG, self.phases() as u64, &payload)?)
    }

    /// Reads weights from the bytes of a weight file, checking the container, the phases and
    /// that the patterns are this build's.
    ///
    /// # Errors
    /// Any [`WeightError`]: a foreign, truncated or corrupted file is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightError> {
        let (header, payload): (_, Payload) = WEIGHT_FILE.decode(WEIGHT_TAG, bytes)?;
        if header.records != payload.tables.len() as u64 {
            return Err(WeightError::Layout(format!(
                "the header says {} phases, the file holds {}",
                header.records,
                payload.tables.len()
            )));
        }
        let layout = Layout::get();
        let ours: Vec<(String, u32)> = PATTERNS
            .iter()
            .zip(layout.sizes())
            .map(|(p, &s)| (p.name.to_string(), s as u32))
            .collect();
        if payload.patterns != ours {
            return Err(WeightError::Layout(format!(
                "patterns {:?}, this build {:?}",
                payload.patterns, ours
            )));
        }
        Weights::from_tables(&payload.about, payload.tables)
    }

    /// Writes a weight file.
    ///
    /// # Errors
    /// As [`encode`](Self::encode), and [`ContainerError::Io`].
    pub fn write(&self, path: &Path) -> Result<(), WeightError> {
        Ok(Container::write_bytes(path, &self.encode()?)?)
    }

    /// Reads a weight file (only a regular file; header and length checked before the
    /// payload is read).
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and [`ContainerError::Io`] / `NotAFile`.
    pub fn read(path: &Path) -> Result<Weights, WeightError> {
        let bytes = WEIGHT_FILE.read_bytes(WEIGHT_TAG, path)?;
        Weights::decode(&bytes)
    }

    /// The default weights built into the binary (`data/othello.weights` of this crate),
    /// decoded once and shared.
    ///
    /// # Panics
    /// Never for a build whose committed file checks out (a test decodes it).
    #[must_use]
    pub fn builtin() -> Arc<Weights> {
        static BUILT: OnceLock<Arc<Weights>> = OnceLock::new();
        BUILT
            .get_or_init(|| Arc::new(Weights::decode(BUILTIN).expect("data/othello.weights")))
            .clone()
    }

    /// The value of the position (side to move `p`, opponent `o`) before clamping, by the
    /// table-driven path.
    #[inline]
    #[must_use]
    pub fn raw(&self, p: u64, o: u64) -> i32 {
        let discs = (p | o).count_ones();
        let phase = phase_of(discs, self.phases());
        let w: &[i16; PADDED] = self.full[phase * PADDED..][..PADDED]
            .try_into()
            .expect("PADDED entries per phase");
        fast(self.fast, w, p, o)
    }
}

impl Evaluator for Weights {
    #[inline]
    fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.raw(p, o).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn name(&self) -> &'static str {
        "learned"
    }
}

/// The phase of a position with `discs` discs, out of `phases`.
#[inline]
#[must_use]
pub fn phase_of(discs: u32, phases: usize) -> usize {
    ((discs.saturating_sub(4) as usize) * phases / 61).min(phases - 1)
}

/// The conversion tables in fixed-size arrays (so the masked lookups need no bounds checks),
/// shared between the placements whose tables are equal (so they stay in the L1 cache: 14
/// KiB in all): placement `j` of a pattern with `K` tables uses table `j % K` (checked when
/// the tables are built).
struct Fast {
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
const PADDED_OFFSETS: [usize; 11] = {
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
const PADDED: usize = PADDED_OFFSETS[10] + SPANS[10];

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

fn fast_tables() -> &'static Fast {
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
#[inline]
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
