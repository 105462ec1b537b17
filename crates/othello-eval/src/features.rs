//! Global features beside the patterns: counts of the whole board that no pattern sees, each
//! with one weight per value (and per side) in every phase.

use std::fmt;
use std::str::FromStr;

use yomi_othello::{potential_moves, Bitboard};

/// A global feature of a position. Its value for each side indexes a weight of the phase's
/// table ([`Feature::weights`] entries, the side to move's values first, then the opponent's), so
/// the fit learns any function of it, not only a linear one. Every feature is the same on
/// the 8 images of a position, so the evaluation stays exactly symmetric.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// The number of legal moves of each side, capped at 40.
    Mobility,
    /// The number of empty squares next to a disc of the other side (where a side may be
    /// able to play later), for each side, up to 60.
    Potential,
}

/// Every feature, in the order a weight table stores them.
pub const FEATURES: [Feature; 2] = [Feature::Mobility, Feature::Potential];

/// The highest mobility with a weight of its own (higher counts share it).
const MOBILITY_CAP: u32 = 40;

impl Feature {
    /// The name, as weight files and `yomi train fit --features` spell it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Feature::Mobility => "mobility",
            Feature::Potential => "potential",
        }
    }

    /// The weights the feature takes in a phase's table.
    #[must_use]
    pub fn weights(self) -> usize {
        2 * self.values()
    }

    /// The number of values of one side.
    fn values(self) -> usize {
        match self {
            Feature::Mobility => MOBILITY_CAP as usize + 1,
            Feature::Potential => 61,
        }
    }

    /// The feature's value for the side to move `p` and for its opponent `o`, given both
    /// sides' legal moves (`moves_p`, `moves_o`).
    #[inline(always)]
    pub(crate) fn values_with(self, p: u64, o: u64, moves_p: u64, moves_o: u64) -> (usize, usize) {
        match self {
            Feature::Mobility => (
                moves_p.count_ones().min(MOBILITY_CAP) as usize,
                moves_o.count_ones().min(MOBILITY_CAP) as usize,
            ),
            Feature::Potential => (
                potential_moves(Bitboard(p), Bitboard(o)).count() as usize,
                potential_moves(Bitboard(o), Bitboard(p)).count() as usize,
            ),
        }
    }

    /// The two entries of the feature's table that a position uses (the mover's value, then
    /// `values + ` the opponent's), computed directly: the slow reference.
    #[must_use]
    pub fn entries(self, p: u64, o: u64) -> [usize; 2] {
        let mp = yomi_othello::moves(Bitboard(p), Bitboard(o)).0;
        let mo = yomi_othello::moves(Bitboard(o), Bitboard(p)).0;
        let (a, b) = self.values_with(p, o, mp, mo);
        [a, self.values() + b]
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A feature name that is not one of [`FEATURES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown feature {0:?}: the features are mobility and potential")]
pub struct ParseFeatureError(pub String);

impl FromStr for Feature {
    type Err = ParseFeatureError;

    fn from_str(s: &str) -> Result<Feature, ParseFeatureError> {
        FEATURES
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| ParseFeatureError(s.to_string()))
    }
}

/// The entries a position uses in the features part of a phase's table (offsets from the
/// part's start, `features` in order, each [`Feature::weights`] long): two per feature.
#[must_use]
pub fn feature_entries(features: &[Feature], p: u64, o: u64) -> Vec<usize> {
    let mut out = Vec::with_capacity(2 * features.len());
    let mut at = 0;
    for f in features {
        out.extend(f.entries(p, o).map(|e| at + e));
        at += f.weights();
    }
    out
}
