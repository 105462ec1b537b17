//! The weights of the pattern evaluation, the fast evaluation, and the weight file.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Container, ContainerError};
use yomi_othello::cpu::Cpu;

use crate::fast::{Gather, EXTRA, MOBILITY_AT, PADDED, PADDED_OFFSETS, POTENTIAL_AT};
use crate::features::Feature;
use crate::patterns::{Layout, PATTERNS};
use crate::{Evaluator, EVAL_LIMIT};

/// Weight files: the checked container with magic `YOMIEVAL`, tag `othello`, one record per
/// phase. Version 2 adds global features ([`Feature`]) after the patterns; weights without
/// features are still written as version 1, and both versions are read.
pub const WEIGHT_FILE: Container = Container::new(*b"YOMIEVAL", 2, "weight file");

/// The first generation's weight files (patterns only).
const WEIGHT_FILE_V1: Container = Container::new(*b"YOMIEVAL", 1, "weight file");

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

/// The stored form of [`Weights`] without features (format version 1).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Payload {
    pub(crate) about: String,
    /// Each pattern's name and number of canonical configurations.
    pub(crate) patterns: Vec<(String, u32)>,
    /// Per phase: the bias, then every pattern's canonical configurations.
    pub(crate) tables: Vec<Vec<i16>>,
}

/// The stored form of [`Weights`] with features (format version 2).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct PayloadV2 {
    pub(crate) about: String,
    /// Each pattern's name and number of canonical configurations.
    pub(crate) patterns: Vec<(String, u32)>,
    /// Each feature's name and number of weights.
    pub(crate) features: Vec<(String, u32)>,
    /// Per phase: the bias, every pattern's canonical configurations, then every feature's
    /// weights.
    pub(crate) tables: Vec<Vec<i16>>,
}

/// Where each feature of [`FEATURES`](crate::FEATURES) starts in a phase's [`EXTRA`]
/// entries of the fast tables (the fast path's constants; the tests check them against
/// [`Feature::entries`]).
fn extra_offset(f: Feature) -> usize {
    match f {
        Feature::Mobility => MOBILITY_AT,
        Feature::Potential => POTENTIAL_AT,
    }
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
    /// The phase of each disc count (0 to 64).
    phase_by_discs: [u8; 65],
    /// The compiled copy of the fast path that runs.
    gather: Gather,
    /// The global features, in table order.
    features: Vec<Feature>,
    /// The features' weights, [`EXTRA`] entries per phase (each feature at
    /// [`extra_offset`]); empty without features.
    extra: Vec<i16>,
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
            .field("features", &self.features)
            .field("about", &self.about)
            .field("cpu", &self.gather.cpu().name())
            .finish_non_exhaustive()
    }
}

impl Weights {
    /// Weights of `phases` phases, all zero.
    ///
    /// # Errors
    /// [`WeightError::Phases`] outside `1..=61`.
    pub fn zero(phases: usize, about: &str) -> Result<Weights, WeightError> {
        Weights::zero_with(phases, &[], about)
    }

    /// Weights of `phases` phases with the global `features`, all zero.
    ///
    /// # Errors
    /// [`WeightError::Phases`] outside `1..=61`, [`WeightError::Layout`] for a feature given
    /// twice.
    pub fn zero_with(
        phases: usize,
        features: &[Feature],
        about: &str,
    ) -> Result<Weights, WeightError> {
        let len = table_len(features);
        Weights::with_features(about, features, vec![vec![0; len]; phases])
    }

    /// Weights from compact tables, one per phase (each [`Layout::compact_len`] long).
    ///
    /// # Errors
    /// [`WeightError::Phases`], [`WeightError::Layout`] for a table of the wrong length.
    pub fn from_tables(about: &str, tables: Vec<Vec<i16>>) -> Result<Weights, WeightError> {
        Weights::with_features(about, &[], tables)
    }

    /// Weights with the global `features` from tables, one per phase: the compact pattern
    /// table ([`Layout::compact_len`] entries), then each feature's [`Feature::weights`] weights
    /// in the order given ([`table_len`] in all).
    ///
    /// # Errors
    /// [`WeightError::Phases`], [`WeightError::Layout`] for a table of the wrong length or a
    /// feature given twice.
    pub fn with_features(
        about: &str,
        features: &[Feature],
        tables: Vec<Vec<i16>>,
    ) -> Result<Weights, WeightError> {
        let layout = Layout::get();
        if tables.is_empty() || tables.len() > MAX_PHASES {
            return Err(WeightError::Phases(tables.len()));
        }
        if let Some((i, f)) = features
            .iter()
            .enumerate()
            .find(|(i, f)| features[..*i].contains(f))
        {
            return Err(WeightError::Layout(format!(
                "feature {f} given twice (at {i})"
            )));
        }
        let len = table_len(features);
        if let Some(t) = tables.iter().find(|t| t.len() != len) {
            return Err(WeightError::Layout(format!(
                "a phase has {} weights, this build {len} for these features",
                t.len(),
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
        let mut extra = Vec::new();
        if !features.is_empty() {
            extra = vec![0i16; EXTRA * tables.len()];
            for (t, ex) in tables.iter().zip(extra.chunks_exact_mut(EXTRA)) {
                let mut at = layout.compact_len();
                for &f in features {
                    ex[extra_offset(f)..][..f.weights()].copy_from_slice(&t[at..][..f.weights()]);
                    at += f.weights();
                }
            }
        }
        let phases = tables.len();
        let phase_by_discs = std::array::from_fn(|discs| phase_of(discs as u32, phases) as u8);
        Ok(Weights {
            about: about.to_string(),
            compact: tables,
            full,
            phase_by_discs,
            gather: Gather::new(Cpu::detect()),
            features: features.to_vec(),
            extra,
        })
    }

    /// The global features, in the order of the tables.
    #[must_use]
    pub fn features(&self) -> &[Feature] {
        &self.features
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

    /// The bytes of a weight file: format version 1 without features (as the first
    /// generation wrote them), version 2 with.
    ///
    /// # Errors
    /// [`WeightError::Container`] if encoding fails.
    pub fn encode(&self) -> Result<Vec<u8>, WeightError> {
        let patterns = our_patterns();
        let records = self.phases() as u64;
        if self.features.is_empty() {
            let payload = Payload {
                about: self.about.clone(),
                patterns,
                tables: self.compact.clone(),
            };
            return Ok(WEIGHT_FILE_V1.encode(WEIGHT_TAG, records, &payload)?);
        }
        let payload = PayloadV2 {
            about: self.about.clone(),
            patterns,
            features: self
                .features
                .iter()
                .map(|f| (f.name().to_string(), f.weights() as u32))
                .collect(),
            tables: self.compact.clone(),
        };
        Ok(WEIGHT_FILE.encode(WEIGHT_TAG, records, &payload)?)
    }

    /// Reads weights from the bytes of a weight file (format version 1 or 2), checking the
    /// container, the phases and that the patterns and features are this build's.
    ///
    /// # Errors
    /// Any [`WeightError`]: a foreign, truncated or corrupted file is an error, never a panic.
    pub fn decode(bytes: &[u8]) -> Result<Weights, WeightError> {
        let (records, payload) = match WEIGHT_FILE.decode::<PayloadV2>(WEIGHT_TAG, bytes) {
            Ok((header, payload)) => (header.records, payload),
            Err(ContainerError::UnsupportedVersion { found: 1, .. }) => {
                let (header, p): (_, Payload) = WEIGHT_FILE_V1.decode(WEIGHT_TAG, bytes)?;
                let payload = PayloadV2 {
                    about: p.about,
                    patterns: p.patterns,
                    features: Vec::new(),
                    tables: p.tables,
                };
                (header.records, payload)
            }
            Err(e) => return Err(e.into()),
        };
        if records != payload.tables.len() as u64 {
            return Err(WeightError::Layout(format!(
                "the header says {} phases, the file holds {}",
                records,
                payload.tables.len()
            )));
        }
        let ours = our_patterns();
        if payload.patterns != ours {
            return Err(WeightError::Layout(format!(
                "patterns {:?}, this build {:?}",
                payload.patterns, ours
            )));
        }
        let mut features = Vec::with_capacity(payload.features.len());
        for (name, len) in &payload.features {
            let f: Feature = name
                .parse()
                .map_err(|e| WeightError::Layout(format!("{e}")))?;
            if f.weights() != *len as usize {
                return Err(WeightError::Layout(format!(
                    "feature {name} has {len} weights, this build {}",
                    f.weights()
                )));
            }
            features.push(f);
        }
        Weights::with_features(&payload.about, &features, payload.tables)
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
        let bytes = match WEIGHT_FILE.read_bytes(WEIGHT_TAG, path) {
            Err(ContainerError::UnsupportedVersion { found: 1, .. }) => {
                WEIGHT_FILE_V1.read_bytes(WEIGHT_TAG, path)?
            }
            r => r?,
        };
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
        self.raw_with(p, o, None)
    }

    /// [`raw`](Self::raw), with the mover's legal moves when the caller has them.
    #[inline]
    fn raw_with(&self, p: u64, o: u64, moves_p: Option<u64>) -> i32 {
        if self.extra.is_empty() {
            return self.gather.raw(&self.full, &self.phase_by_discs, p, o);
        }
        let phase = usize::from(self.phase_by_discs[(p | o).count_ones() as usize]);
        let ex: &[i16; EXTRA] = self.extra[phase * EXTRA..][..EXTRA]
            .try_into()
            .expect("EXTRA entries per phase");
        self.gather
            .raw_features(&self.full, &self.phase_by_discs, ex, p, o, moves_p)
    }

    /// Which compiled copy of the fast path runs: [`Cpu::X86v3`] (the copy for CPUs with
    /// AVX2, BMI1/2, POPCNT and LZCNT, which collects a placement's discs with one `pext`)
    /// or [`Cpu::Portable`]. New weights take [`Cpu::detect`] (see [`Weights::with_cpu`]).
    /// Both give the same values.
    #[must_use]
    pub fn cpu(&self) -> Cpu {
        self.gather.cpu()
    }

    /// The same weights, evaluated by the compiled copy `cpu` of the fast path (to compare
    /// both copies on one machine): the `pext` copy for [`Cpu::X86v3`] where the CPU runs
    /// `pext` at full speed ([`X86v3::fast_pext`](yomi_othello::cpu::X86v3::fast_pext)), the
    /// portable copy otherwise.
    #[must_use]
    pub fn with_cpu(mut self, cpu: Cpu) -> Weights {
        self.gather = Gather::new(cpu);
        self
    }
}

impl Evaluator for Weights {
    #[inline]
    fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.raw(p, o).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    #[inline]
    fn evaluate_with_moves(&self, p: u64, o: u64, moves_p: u64) -> i32 {
        self.raw_with(p, o, Some(moves_p))
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
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

/// The patterns of this build as weight files list them.
fn our_patterns() -> Vec<(String, u32)> {
    PATTERNS
        .iter()
        .zip(Layout::get().sizes())
        .map(|(p, &s)| (p.name.to_string(), s as u32))
        .collect()
}

/// The length of a phase's table with `features`: the compact pattern table, then each
/// feature's weights.
#[must_use]
pub fn table_len(features: &[Feature]) -> usize {
    Layout::get().compact_len() + features.iter().map(|f| f.weights()).sum::<usize>()
}
