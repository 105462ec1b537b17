//! Multi-ProbCut for the midgame search: the statistics per depth, the test searches' depth,
//! and the tests a search runs at each node depth.

use yomi_othello_eval::EVAL_LIMIT;

/// Multi-ProbCut's statistics for one search depth: how the value of a search to `depth`
/// plies follows the value of a search to `shallow` plies of the same position,
/// `deep ~ slope * shallow + offset`, with `sigma` the standard deviation of the rest (all in
/// evaluation units, hundredths of a disc for the learned evaluation).
///
/// A [`MidgameSearch`](super::MidgameSearch) with ProbCut on
/// ([`MidgameSearch::set_probcut`](super::MidgameSearch::set_probcut)) tests every node of
/// `depth` plies or more first with two null-window searches to `shallow` plies: when the
/// shallow value predicts, with `threshold * sigma` to spare, that the deep value is at least
/// beta (or at most alpha), the node returns beta (alpha) without the deep search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutPair {
    /// The depth of the node, in plies.
    pub depth: u32,
    /// The depth of the test searches ([`probcut_shallow`]).
    pub shallow: u32,
    /// The regression's slope.
    pub slope: f64,
    /// The regression's offset, in evaluation units.
    pub offset: f64,
    /// The standard deviation of the deep value around the prediction, in evaluation units.
    pub sigma: f64,
}

/// The shallowest node ProbCut tests, in plies.
pub const PROBCUT_MIN_DEPTH: u32 = 3;

/// The depth of ProbCut's test searches at a node of `depth` plies: about half of it, of the
/// same parity (so that both searches end on the same side's move; in Othello the side that
/// moved last is evaluated too well). Used by the search and by the calibration alike.
#[must_use]
pub fn probcut_shallow(depth: u32) -> u32 {
    let half = depth / 2;
    let s = if (depth - half) % 2 == 1 {
        half.saturating_sub(1)
    } else {
        half
    };
    s.max(1)
}

/// The statistics the search uses with the learned evaluation (the built-in weights, round 4),
/// one row per depth from [`PROBCUT_MIN_DEPTH`]; deeper nodes use the last row. Measured by
/// `yomi train probcut` (see `docs/eval.md`, "Multi-ProbCut"), which prints this table.
pub const PROBCUT_LEARNED: &[ProbCutPair] = &[
    ProbCutPair {
        depth: 3,
        shallow: 1,
        slope: 1.0117,
        offset: -0.2,
        sigma: 326.6,
    },
    ProbCutPair {
        depth: 4,
        shallow: 2,
        slope: 1.0120,
        offset: 4.0,
        sigma: 288.3,
    },
    ProbCutPair {
        depth: 5,
        shallow: 1,
        slope: 1.0230,
        offset: 2.6,
        sigma: 428.5,
    },
    ProbCutPair {
        depth: 6,
        shallow: 2,
        slope: 1.0287,
        offset: 11.5,
        sigma: 389.2,
    },
    ProbCutPair {
        depth: 7,
        shallow: 3,
        slope: 1.0283,
        offset: 6.5,
        sigma: 361.0,
    },
    ProbCutPair {
        depth: 8,
        shallow: 4,
        slope: 1.0324,
        offset: 13.5,
        sigma: 325.3,
    },
    ProbCutPair {
        depth: 9,
        shallow: 3,
        slope: 1.0393,
        offset: 10.3,
        sigma: 417.2,
    },
    ProbCutPair {
        depth: 10,
        shallow: 4,
        slope: 1.0473,
        offset: 26.8,
        sigma: 380.8,
    },
];

/// The default ProbCut threshold, in standard deviations (see [`ProbCutPair`]).
pub const PROBCUT_THRESHOLD: f64 = 1.5;

/// ProbCut's test at a node of some depth: the test searches' depth and how a deep bound
/// maps to a shallow one.
#[derive(Clone, Copy, Debug)]
pub(super) struct Cut {
    pub(super) shallow: u32,
    pub(super) slope: f64,
    pub(super) offset: f64,
    /// `threshold * sigma`.
    pub(super) margin: f64,
}

/// ProbCut's tests by node depth (`None` below [`PROBCUT_MIN_DEPTH`], with ProbCut off, and
/// for unusable rows).
pub(super) fn probcut_rows(probcut: Option<&(f64, Vec<ProbCutPair>)>) -> [Option<Cut>; 65] {
    let mut cuts = [None; 65];
    let Some((t, table)) = probcut else {
        return cuts;
    };
    if table.is_empty() || !(t.is_finite() && *t >= 0.0) {
        return cuts;
    }
    for (depth, cut) in cuts.iter_mut().enumerate().skip(PROBCUT_MIN_DEPTH as usize) {
        let i = (depth - PROBCUT_MIN_DEPTH as usize).min(table.len() - 1);
        let row = table[i];
        let usable = row.sigma.is_finite()
            && row.sigma > 0.0
            && row.slope.is_finite()
            && row.slope > 0.0
            && row.offset.is_finite()
            && probcut_shallow(depth as u32) < depth as u32;
        if usable {
            *cut = Some(Cut {
                shallow: probcut_shallow(depth as u32),
                slope: row.slope,
                offset: row.offset,
                margin: t * row.sigma,
            });
        }
    }
    cuts
}

/// Bounds a ProbCut test may use: inside the evaluations' range, away from final scores.
pub(super) const CUT_LIMIT: f64 = EVAL_LIMIT as f64;
