//! Calibrating Multi-ProbCut: how the value of a deep midgame search follows that of a
//! shallow one, measured on positions of game files.

use std::sync::Arc;

use rayon::prelude::*;
use yomi_othello::Othello;
use yomi_othello_eval::{Evaluator, EVAL_LIMIT};
use yomi_othello_search::{
    probcut_shallow, MidgameLimits, MidgameSearch, ProbCutPair, PROBCUT_MIN_DEPTH,
};

use crate::games::GameSet;
use crate::TrainError;

/// Which positions of the games calibrate, and how deep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbCutConfig {
    /// The deepest search measured (rows from [`PROBCUT_MIN_DEPTH`] to this).
    pub max_depth: u32,
    /// Only positions with at least this many empty squares (the midgame the search plays).
    pub min_empties: u32,
    /// Only positions with at most this many empty squares.
    pub max_empties: u32,
    /// Every this many-th such position of each game (counting from its first).
    pub every: usize,
    /// At most this many positions in all (the first ones in file and game order).
    pub positions: usize,
    /// Threads (the positions are searched in parallel; the result does not depend on it).
    pub threads: usize,
}

impl Default for ProbCutConfig {
    fn default() -> ProbCutConfig {
        ProbCutConfig {
            max_depth: 10,
            min_empties: 19,
            max_empties: 52,
            every: 4,
            positions: 2000,
            threads: 1,
        }
    }
}

/// One row of the calibration: the regression and how many positions it used.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCutStat {
    /// The pair's statistics.
    pub pair: ProbCutPair,
    /// Positions where both searches gave an evaluation (not a finished game).
    pub positions: usize,
}

/// The positions of the games that [`probcut_stats`] searches, in order.
fn positions(sets: &[GameSet], config: &ProbCutConfig) -> Result<Vec<Othello>, TrainError> {
    let mut out = Vec::new();
    for set in sets {
        for g in &set.games {
            let mut k = 0usize;
            for s in g.samples(set.config.exact)? {
                let e = s.pos.empties().count();
                if e < config.min_empties || e > config.max_empties {
                    continue;
                }
                if k.is_multiple_of(config.every.max(1)) {
                    out.push(s.pos);
                    if out.len() >= config.positions {
                        return Ok(out);
                    }
                }
                k += 1;
            }
        }
    }
    Ok(out)
}

/// The values of fixed-depth searches (ProbCut off) of every position at depths
/// `1..=max_depth`: `None` where a search's value is a finished game's.
fn values(pos: &Othello, eval: &Arc<dyn Evaluator>, max_depth: u32) -> Vec<Option<i32>> {
    let mut search = MidgameSearch::new(8, eval.clone());
    (1..=max_depth)
        .map(|depth| {
            let r = search.search(pos, MidgameLimits { depth, time: None });
            r.best_score().filter(|v| !r.exact && v.abs() <= EVAL_LIMIT)
        })
        .collect()
}

/// Measures Multi-ProbCut's statistics for `eval` on the positions of `sets` that `config`
/// picks: for every depth `d` from [`PROBCUT_MIN_DEPTH`] to `config.max_depth`, the least
/// squares line `v_d ~ slope * v_s + offset` between the values of searches to `d` and to
/// `s = probcut_shallow(d)` plies, and the standard deviation of the rest. Sums run in the
/// positions' order, so the result does not depend on the thread count.
///
/// # Errors
/// [`TrainError::NoInput`] without positions, or too few for a row (fewer than 10);
/// [`TrainError::BadGame`] for a game that does not replay; [`TrainError::ThreadPool`].
pub fn probcut_stats(
    sets: &[GameSet],
    eval: &Arc<dyn Evaluator>,
    config: &ProbCutConfig,
) -> Result<Vec<ProbCutStat>, TrainError> {
    let max_depth = config.max_depth.clamp(PROBCUT_MIN_DEPTH, 20);
    let positions = positions(sets, config)?;
    if positions.is_empty() {
        return Err(TrainError::NoInput);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let all: Vec<Vec<Option<i32>>> = pool.install(|| {
        positions
            .par_iter()
            .map(|p| values(p, eval, max_depth))
            .collect()
    });
    let mut stats = Vec::new();
    for depth in PROBCUT_MIN_DEPTH..=max_depth {
        let shallow = probcut_shallow(depth);
        let pairs: Vec<(f64, f64)> = all
            .iter()
            .filter_map(|v| {
                let x = v[shallow as usize - 1]?;
                let y = v[depth as usize - 1]?;
                Some((f64::from(x), f64::from(y)))
            })
            .collect();
        let pair = regress(depth, shallow, &pairs).ok_or(TrainError::NoInput)?;
        stats.push(ProbCutStat {
            pair,
            positions: pairs.len(),
        });
    }
    Ok(stats)
}

/// The least squares line through `(x, y)` points and the standard deviation of the
/// residuals; `None` with fewer than 10 points or no spread in `x`.
fn regress(depth: u32, shallow: u32, points: &[(f64, f64)]) -> Option<ProbCutPair> {
    if points.len() < 10 {
        return None;
    }
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let offset = my - slope * mx;
    let rss: f64 = points
        .iter()
        .map(|p| {
            let r = p.1 - (slope * p.0 + offset);
            r * r
        })
        .sum();
    Some(ProbCutPair {
        depth,
        shallow,
        slope,
        offset,
        sigma: (rss / (n - 2.0)).sqrt(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_regression_recovers_a_line_and_its_spread() {
        // y = 2x + 30 with residuals +-5: sigma = 5 * sqrt(n / (n - 2)).
        let points: Vec<(f64, f64)> = (0..100)
            .map(|i| {
                let x = f64::from(i);
                let r = if i % 2 == 0 { 5.0 } else { -5.0 };
                (x, 2.0 * x + 30.0 + r)
            })
            .collect();
        let p = regress(5, 1, &points).unwrap();
        assert!((p.slope - 2.0).abs() < 0.01, "{p:?}");
        assert!((p.offset - 30.0).abs() < 0.2, "{p:?}");
        assert!(
            (p.sigma - 5.0 * (100.0f64 / 98.0).sqrt()).abs() < 0.1,
            "{p:?}"
        );
        assert_eq!((p.depth, p.shallow), (5, 1));
        assert!(regress(5, 1, &points[..9]).is_none());
        assert!(regress(5, 1, &[(1.0, 2.0); 20]).is_none());
    }
}
