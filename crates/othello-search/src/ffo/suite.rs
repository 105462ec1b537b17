//! The FFO positions shipped with the crate, and OBF files in general.

use thiserror::Error;
use yomi_core::Shard;
use yomi_othello::{ObfPosition, ParseObfError};

use crate::Mode;

/// The files of the suite under `data/ffo/`: `(name, number of its first position, text)`.
const FILES: [(&str, usize, &str); 5] = [
    (
        "fforum-1-19.obf",
        1,
        include_str!("../../data/ffo/fforum-1-19.obf"),
    ),
    (
        "fforum-20-39.obf",
        20,
        include_str!("../../data/ffo/fforum-20-39.obf"),
    ),
    (
        "fforum-40-49.obf",
        40,
        include_str!("../../data/ffo/fforum-40-49.obf"),
    ),
    (
        "fforum-50-59.obf",
        50,
        include_str!("../../data/ffo/fforum-50-59.obf"),
    ),
    (
        "fforum-60-79.obf",
        60,
        include_str!("../../data/ffo/fforum-60-79.obf"),
    ),
];

/// A line of an OBF file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {source}")]
pub struct ObfFileError {
    /// The line's number, from 1.
    pub line: usize,
    /// Why it does not parse.
    pub source: ParseObfError,
}

/// Parses an OBF file: one position per line; blank lines and lines starting with `%` are
/// skipped.
///
/// # Errors
/// [`ObfFileError`] for the first line that is not an OBF position.
pub fn parse_obf(text: &str) -> Result<Vec<ObfPosition>, ObfFileError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('%'))
        .map(|(i, l)| {
            l.parse::<ObfPosition>().map_err(|source| ObfFileError {
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// Why the FFO suite cannot give what was asked.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FfoError {
    /// A file of the suite does not parse (the crate was built from damaged data).
    #[error("the built-in FFO suite, {file}, {error}")]
    Parse {
        /// The file.
        file: &'static str,
        /// Its bad line.
        error: ObfFileError,
    },
    /// A file of the suite does not start at the number it should (damaged data).
    #[error("the built-in FFO suite is out of order")]
    OutOfOrder,
    /// A range that is not within `1..=count`, or ends before it starts.
    #[error("FFO positions run from 1 to {count}: #{from}-#{to} is not a range of them")]
    BadRange {
        /// The first position asked for.
        from: usize,
        /// The last position asked for.
        to: usize,
        /// The positions in the suite.
        count: usize,
    },
    /// No file of the suite has this name.
    #[error("the FFO suite has no file {0:?}")]
    NoFile(String),
}

/// The FFO endgame suite: positions #1 to #79 with their published scores (the files of
/// `data/ffo/`, built into the crate). #40-#59 are the standard benchmark, #60-#79 the hard
/// suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfoSuite {
    positions: Vec<ObfPosition>,
}

impl FfoSuite {
    /// The suite as built into the crate.
    ///
    /// # Errors
    /// [`FfoError::Parse`] or [`FfoError::OutOfOrder`] only if the built-in files are damaged
    /// (a test checks they are not).
    pub fn load() -> Result<FfoSuite, FfoError> {
        let mut positions = Vec::new();
        for (file, first, text) in FILES {
            let more = parse_obf(text).map_err(|error| FfoError::Parse { file, error })?;
            if positions.len() + 1 != first {
                return Err(FfoError::OutOfOrder);
            }
            positions.extend(more);
        }
        Ok(FfoSuite { positions })
    }

    /// The number of positions (79).
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the suite is empty (never, for the built-in suite).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Position `#number` (from 1), `None` outside the suite.
    #[must_use]
    pub fn get(&self, number: usize) -> Option<&ObfPosition> {
        number.checked_sub(1).and_then(|i| self.positions.get(i))
    }

    /// Every position with its number, in order.
    pub fn iter(&self) -> impl Iterator<Item = (usize, &ObfPosition)> + '_ {
        self.positions.iter().enumerate().map(|(i, p)| (i + 1, p))
    }

    /// Positions `#from` to `#to` (inclusive) with their numbers, keeping those whose index
    /// in the range (0 for `#from`) belongs to `shard`.
    ///
    /// # Errors
    /// [`FfoError::BadRange`] unless `1 <= from <= to <= len`.
    pub fn range(
        &self,
        from: usize,
        to: usize,
        shard: Shard,
    ) -> Result<Vec<(usize, &ObfPosition)>, FfoError> {
        if from < 1 || to > self.len() || from > to {
            return Err(FfoError::BadRange {
                from,
                to,
                count: self.len(),
            });
        }
        Ok(self
            .iter()
            .filter(|(n, _)| (from..=to).contains(n))
            .filter(|(n, _)| shard.contains((n - from) as u64))
            .collect())
    }

    /// The names of the suite's files, in order (`fforum-1-19.obf`, ...).
    pub fn file_names() -> impl Iterator<Item = &'static str> {
        FILES.iter().map(|&(name, _, _)| name)
    }

    /// The positions of one file of the suite (by its name, such as `fforum-40-49.obf`).
    ///
    /// # Errors
    /// [`FfoError::NoFile`] for a name not in [`FfoSuite::file_names`].
    pub fn file(&self, name: &str) -> Result<&[ObfPosition], FfoError> {
        let i = FILES
            .iter()
            .position(|&(n, _, _)| n == name)
            .ok_or_else(|| FfoError::NoFile(name.to_string()))?;
        let start = FILES[i].1 - 1;
        let end = FILES
            .get(i + 1)
            .map_or(self.len(), |&(_, next, _)| next - 1);
        Ok(&self.positions[start..end])
    }
}

/// The published score of a position (its first listed), in the mode's terms: the disc
/// difference, or its sign for [`Mode::Wld`]; `None` for a position without scores.
#[must_use]
pub fn published(obf: &ObfPosition, mode: Mode) -> Option<i32> {
    obf.scores.first().map(|&(_, v)| match mode {
        Mode::Exact => v,
        Mode::Wld => v.signum(),
    })
}
