//! Fitting the pattern weights: per phase, full-batch Adam on the squared error with an L2
//! penalty, early stopping on held-out games, sums in a fixed order.

use rayon::prelude::*;
use yomi_othello_eval::{feature_entries, phase_of, table_len, Feature, Layout, Weights};

use std::collections::HashSet;

use yomi_othello::Othello;

use crate::games::{GameSet, Sample};
use crate::label::LabelSet;
use crate::values::ValueSet;
use crate::TrainError;

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitConfig {
    /// Weight sets (phases by disc count).
    pub phases: usize,
    /// A phase also learns from positions up to this many discs outside its range (neighbouring
    /// phases share data, so their weights change smoothly).
    pub overlap: u32,
    /// A phase with fewer positions than this (its own and those `overlap` discs around)
    /// takes in positions further away until it has them (so a phase with little data, such
    /// as the opening, borrows from its neighbours instead of staying at zero).
    pub min_rows: usize,
    /// The L2 penalty per weight (in discs squared per weight, relative to the mean squared
    /// error): pulls rarely seen configurations towards zero. Its pull on a configuration
    /// weighs as much as about `l2 * positions` of the phase's positions, so the best value
    /// falls as the data grows (0.0001 on round 2's 1.6 M positions; docs/eval.md).
    pub l2: f64,
    /// Adam's step size, in discs.
    pub rate: f64,
    /// The most passes over the data.
    pub epochs: usize,
    /// Stop after this many passes without a better validation error.
    pub patience: usize,
    /// Games whose index modulo this is 0 are held out for validation (early stopping and the
    /// reported error); 0 holds out none.
    pub holdout: u64,
    /// Threads (phases are fitted in parallel; the result does not depend on it).
    pub threads: usize,
    /// Global features beside the patterns (their weights follow the patterns' in each
    /// phase's table); the rows must carry their entries ([`Row::with_features`]).
    pub features: Vec<Feature>,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            phases: 12,
            overlap: 3,
            min_rows: 10_000,
            l2: 0.0001,
            rate: 0.1,
            epochs: 1500,
            patience: 60,
            holdout: 10,
            threads: 1,
            features: Vec::new(),
        }
    }
}

/// A position as the fit sees it: its compact table entries, label (discs) and disc count.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The compact entries ([`Layout::features`]), the bias first.
    pub features: Vec<u32>,
    /// The target, in discs, from the side to move.
    pub label: f64,
    /// Discs on the board.
    pub discs: u32,
}

impl Row {
    /// The row of a sample (the patterns' entries only).
    #[must_use]
    pub fn of(sample: &Sample) -> Row {
        Row::with_features(sample, &[])
    }

    /// The row of a sample with the entries of global `features` after the patterns'.
    #[must_use]
    pub fn with_features(sample: &Sample, features: &[Feature]) -> Row {
        let (p, o) = (sample.pos.player().0, sample.pos.opponent().0);
        let layout = Layout::get();
        let mut entries: Vec<u32> = layout
            .features(p, o)
            .into_iter()
            .map(|i| i as u32)
            .collect();
        entries.extend(
            feature_entries(features, p, o)
                .into_iter()
                .map(|e| (layout.compact_len() + e) as u32),
        );
        Row {
            features: entries,
            label: f64::from(sample.label),
            discs: 64 - sample.pos.empties().count(),
        }
    }
}

/// The error of one phase after fitting.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseReport {
    /// The phase.
    pub phase: usize,
    /// Its disc counts.
    pub discs: (u32, u32),
    /// Training and validation positions (of the phase's own range).
    pub train: usize,
    /// Validation positions.
    pub valid: usize,
    /// Mean absolute error on the training positions, in discs.
    pub train_mae: f64,
    /// Mean absolute error on the validation positions, in discs (0 without any).
    pub valid_mae: f64,
    /// The discs around the phase's range it learned from.
    pub overlap: u32,
    /// Passes made.
    pub epochs: usize,
    /// The pass whose weights were kept.
    pub best_epoch: usize,
}

/// Training and validation rows of a set of games, labelled with the games' results.
///
/// # Errors
/// [`TrainError::BadGame`] for a game that does not replay.
pub fn rows(sets: &[GameSet], holdout: u64) -> Result<(Vec<Row>, Vec<Row>), TrainError> {
    let (train, valid, _) = rows_from(sets, holdout, &RowSource::default())?;
    Ok((train, valid))
}

/// What a fit learns from besides the games' results: search values to blend with them
/// ([`search_values`](crate::search_values)), and test positions to leave out.
#[derive(Clone, Debug, Default)]
pub struct RowSource {
    /// Search values of the games (one set per game set, matched by the games'
    /// configuration); empty for the games' results alone.
    pub values: Vec<ValueSet>,
    /// The weight of the search value in a label that is not exact:
    /// `label = blend * value + (1 - blend) * result` (0 to 1; exact labels stay the result).
    pub blend: f64,
    /// Positions left out of training and validation, by their canonical image under the 8
    /// symmetries ([`yomi_othello::Board::canonical`]): the test sets' positions.
    pub exclude: HashSet<Othello>,
    /// Global features whose entries the rows carry after the patterns'.
    pub features: Vec<Feature>,
}

impl RowSource {
    /// The canonical images of the positions of labelled position files, to leave out.
    ///
    /// # Errors
    /// [`TrainError::BadLabel`] for a stored position with a square of both colours.
    pub fn exclusions(sets: &[LabelSet]) -> Result<HashSet<Othello>, TrainError> {
        let mut out = HashSet::new();
        for set in sets {
            for l in &set.positions {
                out.insert(l.position()?.canonical());
            }
        }
        Ok(out)
    }
}

/// What [`rows_from`] made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowCounts {
    /// Rows whose label blends a search value.
    pub blended: usize,
    /// Positions left out as test positions.
    pub excluded: usize,
}

/// Training and validation rows of a set of games (games whose index is a multiple of
/// `holdout` validate), labelled as `source` says.
///
/// # Errors
/// [`TrainError::BadGame`] for a game that does not replay; [`TrainError::Mismatch`] when
/// `source` has values but none for a game set, for one of its games, or a number of values
/// that is not the game's number of positions not labelled exactly, or a blend outside 0 to 1.
pub fn rows_from(
    sets: &[GameSet],
    holdout: u64,
    source: &RowSource,
) -> Result<(Vec<Row>, Vec<Row>, RowCounts), TrainError> {
    if !(0.0..=1.0).contains(&source.blend) {
        return Err(TrainError::Mismatch(format!(
            "blend {}: give 0 to 1",
            source.blend
        )));
    }
    let mut train = Vec::new();
    let mut valid = Vec::new();
    let mut counts = RowCounts::default();
    for set in sets {
        let set_values = if source.values.is_empty() {
            None
        } else {
            let v = source.values.iter().find(|v| v.config.games == set.config);
            Some(v.ok_or_else(|| {
                TrainError::Mismatch(format!(
                    "no search values for the games of seed {} ({} games, player {})",
                    set.config.seed, set.config.games, set.config.player
                ))
            })?)
        };
        for g in &set.games {
            let held = holdout > 0 && g.index % holdout == 0;
            let samples = g.samples(set.config.exact)?;
            let values = match set_values {
                Some(v) => v.sample_values(g, &samples)?,
                None => vec![None; samples.len()],
            };
            for (s, value) in samples.iter().zip(values) {
                if !source.exclude.is_empty() && source.exclude.contains(&s.pos.canonical()) {
                    counts.excluded += 1;
                    continue;
                }
                let mut row = Row::with_features(s, &source.features);
                if let Some(v) = value {
                    row.label = source.blend * v + (1.0 - source.blend) * row.label;
                    counts.blended += 1;
                }
                if held {
                    valid.push(row);
                } else {
                    train.push(row);
                }
            }
        }
    }
    Ok((train, valid, counts))
}

/// The disc counts of phase `k` of `phases`.
#[must_use]
pub fn phase_discs(k: usize, phases: usize) -> (u32, u32) {
    let ds: Vec<u32> = (4..=64).filter(|&d| phase_of(d, phases) == k).collect();
    (ds[0], ds[ds.len() - 1])
}

fn predict(w: &[f64], features: &[u32]) -> f64 {
    features.iter().map(|&f| w[f as usize]).sum()
}

fn mae(w: &[f64], rows: &[&Row]) -> f64 {
    if rows.is_empty() {
        return 0.0;
    }
    let total: f64 = rows
        .iter()
        .map(|r| (predict(w, &r.features) - r.label).abs())
        .sum();
    total / rows.len() as f64
}

/// Fits one phase: returns its weights in discs and its report.
fn fit_phase(
    k: usize,
    train: &[Row],
    valid: &[Row],
    config: &FitConfig,
    len: usize,
) -> (Vec<f64>, PhaseReport) {
    let (lo, hi) = phase_discs(k, config.phases);
    let own = |r: &&Row| r.discs >= lo && r.discs <= hi;
    let mut overlap = config.overlap;
    let fit_rows: Vec<&Row> = loop {
        let near = |r: &&Row| r.discs + overlap >= lo && r.discs <= hi + overlap;
        let rows: Vec<&Row> = train.iter().filter(near).collect();
        if rows.len() >= config.min_rows || overlap >= 60 {
            break rows;
        }
        overlap += 1;
    };
    let own_train: Vec<&Row> = train.iter().filter(own).collect();
    let own_valid: Vec<&Row> = valid.iter().filter(own).collect();
    let mut w = vec![0.0f64; len];
    if !fit_rows.is_empty() {
        w[0] = fit_rows.iter().map(|r| r.label).sum::<f64>() / fit_rows.len() as f64;
    }
    // Entries that appear in this phase's data; the others keep weight 0.
    let mut seen = vec![false; len];
    for r in &fit_rows {
        for &f in &r.features {
            seen[f as usize] = true;
        }
    }
    let active: Vec<usize> = (0..len).filter(|&i| seen[i]).collect();
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m = vec![0.0f64; len];
    let mut v = vec![0.0f64; len];
    let mut grad = vec![0.0f64; len];
    let mut best = (f64::INFINITY, w.clone(), 0usize);
    let mut epochs = 0;
    let n = fit_rows.len().max(1) as f64;
    for epoch in 1..=config.epochs {
        epochs = epoch;
        for &i in &active {
            grad[i] = 2.0 * config.l2 * w[i];
        }
        grad[0] = 0.0; // the bias is not penalised
        for r in &fit_rows {
            let e = 2.0 * (predict(&w, &r.features) - r.label) / n;
            for &f in &r.features {
                grad[f as usize] += e;
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for &i in &active {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            w[i] -= config.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        let score = if own_valid.is_empty() {
            mae(&w, &own_train)
        } else {
            mae(&w, &own_valid)
        };
        if score < best.0 {
            best = (score, w.clone(), epoch);
        } else if epoch - best.2 >= config.patience {
            break;
        }
    }
    let (_, w, best_epoch) = best;
    let report = PhaseReport {
        phase: k,
        discs: (lo, hi),
        train: own_train.len(),
        valid: own_valid.len(),
        train_mae: mae(&w, &own_train),
        valid_mae: mae(&w, &own_valid),
        overlap,
        epochs,
        best_epoch,
    };
    (w, report)
}

/// Fits phase `phase` of `config.phases` alone, exactly as [`fit`] fits it, on rows whose
/// entries index a table of `len` weights: the layout's compact entries
/// ([`Layout::compact_len`]), and any extra entries after them for a study of other
/// features. Returns the weights in discs (not rounded) and the phase's report.
///
/// # Errors
/// [`TrainError::NoInput`] without training rows; [`TrainError::Mismatch`] for a phase
/// outside `config.phases`, `len` 0 (entry 0 is the bias) or an entry at or beyond `len`.
pub fn fit_one_phase(
    phase: usize,
    train: &[Row],
    valid: &[Row],
    config: &FitConfig,
    len: usize,
) -> Result<(Vec<f64>, PhaseReport), TrainError> {
    if train.is_empty() {
        return Err(TrainError::NoInput);
    }
    if phase >= config.phases {
        return Err(TrainError::Mismatch(format!(
            "phase {phase} of {} phases",
            config.phases
        )));
    }
    if len == 0 {
        return Err(TrainError::Mismatch(
            "a table of 0 weights: the bias is entry 0".into(),
        ));
    }
    let beyond = train
        .iter()
        .chain(valid)
        .flat_map(|r| &r.features)
        .find(|&&f| f as usize >= len);
    if let Some(f) = beyond {
        return Err(TrainError::Mismatch(format!(
            "entry {f} of a table of {len} weights"
        )));
    }
    Ok(fit_phase(phase, train, valid, config, len))
}

/// Fits weights to training rows, validating on `valid`, and rounds them to hundredths of a
/// disc. Each phase is fitted on its own (in parallel); within a phase every sum runs in the
/// rows' order, so the same rows and configuration give the same weights on any machine
/// with IEEE doubles, whatever the thread count.
///
/// # Errors
/// [`TrainError::NoInput`] without training rows, [`TrainError::ThreadPool`], and weight
/// errors for a bad phase count.
pub fn fit(
    train: &[Row],
    valid: &[Row],
    config: &FitConfig,
    about: &str,
) -> Result<(Weights, Vec<PhaseReport>), TrainError> {
    if train.is_empty() {
        return Err(TrainError::NoInput);
    }
    let len = table_len(&config.features);
    // Checks the phase count and the features before the work.
    Weights::zero_with(config.phases, &config.features, about)?;
    let beyond = |r: &&Row| r.features.iter().any(|&f| f as usize >= len);
    if train.iter().chain(valid).any(|r| beyond(&r)) {
        return Err(TrainError::Mismatch(format!(
            "a row has an entry beyond the {len} weights of a phase with the features {:?}: \
             the rows and the fit must have the same features",
            config.features
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let fitted: Vec<(Vec<f64>, PhaseReport)> = pool.install(|| {
        (0..config.phases)
            .into_par_iter()
            .map(|k| fit_phase(k, train, valid, config, len))
            .collect()
    });
    let mut tables = Vec::with_capacity(config.phases);
    let mut reports = Vec::with_capacity(config.phases);
    for (w, report) in fitted {
        tables.push(
            w.iter()
                .map(|x| (x * 100.0).round().clamp(-32_767.0, 32_767.0) as i16)
                .collect(),
        );
        reports.push(report);
    }
    Ok((
        Weights::with_features(about, &config.features, tables)?,
        reports,
    ))
}

/// The mean absolute error of `eval` (hundredths of a disc) against the exact values of the
/// positions with exactly `empties` empty squares in the games (only games played perfectly
/// from at least that many empties count): `(positions, error in discs)`.
///
/// # Errors
/// [`TrainError::BadGame`] for a game that does not replay.
pub fn error_at(
    eval: &dyn yomi_othello_eval::Evaluator,
    sets: &[GameSet],
    empties: u32,
) -> Result<(usize, f64), TrainError> {
    let mut n = 0usize;
    let mut total = 0.0f64;
    for set in sets {
        if set.config.exact < empties {
            continue;
        }
        for g in &set.games {
            for s in g.samples(set.config.exact)? {
                if s.pos.empties().count() == empties && s.exact {
                    let v = eval.evaluate(s.pos.player().0, s.pos.opponent().0);
                    total += (f64::from(v) / 100.0 - f64::from(s.label)).abs();
                    n += 1;
                }
            }
        }
    }
    Ok((n, if n == 0 { 0.0 } else { total / n as f64 }))
}

/// The mean absolute error of `eval` (hundredths of a disc) on the held-out games' positions
/// (index a multiple of `holdout`, as in [`rows`]; every game when `holdout` is 0 or 1),
/// grouped by the disc counts of `phases` phases: `(positions, error in discs)` per phase.
/// The labels are the games' results, as in the fit's own validation report.
///
/// # Errors
/// [`TrainError::BadGame`] for a game that does not replay; [`TrainError::Mismatch`] for
/// `phases` outside 1 to 61.
pub fn phase_errors(
    eval: &dyn yomi_othello_eval::Evaluator,
    sets: &[GameSet],
    holdout: u64,
    phases: usize,
) -> Result<Vec<(usize, f64)>, TrainError> {
    if !(1..=61).contains(&phases) {
        return Err(TrainError::Mismatch(format!(
            "{phases} phases: give 1 to 61"
        )));
    }
    let mut out = vec![(0usize, 0.0f64); phases];
    for set in sets {
        for g in &set.games {
            if holdout > 1 && g.index % holdout != 0 {
                continue;
            }
            for s in g.samples(set.config.exact)? {
                let discs = 64 - s.pos.empties().count();
                let v = eval.evaluate(s.pos.player().0, s.pos.opponent().0);
                let e = &mut out[phase_of(discs, phases)];
                e.0 += 1;
                e.1 += (f64::from(v) / 100.0 - f64::from(s.label)).abs();
            }
        }
    }
    Ok(out
        .into_iter()
        .map(|(n, t)| (n, if n == 0 { 0.0 } else { t / n as f64 }))
        .collect())
}
