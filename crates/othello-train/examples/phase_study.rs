//! A study tool for the evaluation's error at 20 empties: fits the one phase that evaluates
//! positions with 20 empty squares (40-44 discs of 12 phases, learning from 37-47 discs) by
//! `fit_one_phase`, exactly as `yomi train fit` fits it, optionally with extra features
//! beside the 46 patterns, on a subset of the games, and prints the mean absolute error on
//! labelled position files (`yomi train label`), with the weights rounded to hundredths as a
//! weight file stores them. docs/eval.md reports what it measured.
//!
//! ```text
//! cargo run --release -p yomi-othello-train --example phase_study -- \
//!     [--features mob,pot,stab,par,disc] [--keep N/M] [--l2 X] GAMES... -- LABELS...
//! ```
//!
//! - `--features`: extra one-hot features per phase: `mob` the mobility of each side (0-40),
//!   `pot` the potential mobility of each side (0-60), `stab` each side's stable discs,
//!   `par` the number of quadrants with an odd number of empty squares, `disc` the disc count;
//!   and extra patterns, one table shared by their distinct images under the 8 symmetries
//!   (not tied within a pattern's own symmetry, as a study may): `tri` the corner triangle
//!   (a1-d1, a2-c2, a3-b3, a4), `eblock` the edge block (a1, c1-f1, h1, c2-f2).
//! - `--keep N/M`: only the games whose index `i` has `i % M < N` (learning curves).
//! - `--l2`: the penalty (default: the fit's).
//! - `--values FILE --blend W`: labels from search (`yomi train values` of the games), blended
//!   as `yomi train fit --values --blend` does.
//!
//! A single thread; sums in the rows' order, so the output is the same on every run.

use std::error::Error;
use std::path::Path;

use yomi_othello::{mobility, potential_mobility, stable_discs, transform_bitboard, Bitboard};
use yomi_othello_eval::{phase_of, Layout};
use yomi_othello_train::{fit_one_phase, phase_discs, FitConfig, GameSet, LabelSet, Row, ValueSet};

/// The extra features this tool knows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Extra {
    Mobility,
    Potential,
    Stable,
    Parity,
    Discs,
    Pattern(&'static [u8]),
}

/// The corner triangle: a1 b1 c1 d1, a2 b2 c2, a3 b3, a4.
const TRIANGLE: &[u8] = &[0, 1, 2, 3, 8, 9, 10, 16, 17, 24];
/// The edge block: a1, c1 d1 e1 f1, h1, c2 d2 e2 f2.
const EDGE_BLOCK: &[u8] = &[0, 2, 3, 4, 5, 7, 10, 11, 12, 13];

/// The distinct images of a pattern under the 8 symmetries, each in the base's digit order.
fn images(base: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut sets = Vec::new();
    for sym in 0..8 {
        let img: Vec<u8> = base
            .iter()
            .map(|&s| transform_bitboard(Bitboard(1 << s), sym).0.trailing_zeros() as u8)
            .collect();
        let set: u64 = img.iter().map(|&s| 1u64 << s).sum();
        if !sets.contains(&set) {
            sets.push(set);
            out.push(img);
        }
    }
    out
}

impl Extra {
    fn parse(name: &str) -> Result<Extra, String> {
        Ok(match name {
            "mob" => Extra::Mobility,
            "pot" => Extra::Potential,
            "stab" => Extra::Stable,
            "par" => Extra::Parity,
            "disc" => Extra::Discs,
            "tri" => Extra::Pattern(TRIANGLE),
            "eblock" => Extra::Pattern(EDGE_BLOCK),
            _ => {
                return Err(format!(
                    "unknown feature {name:?}: mob, pot, stab, par, disc, tri or eblock"
                ))
            }
        })
    }

    /// Table entries the feature takes.
    fn len(self) -> usize {
        match self {
            Extra::Mobility => 2 * 41,
            Extra::Potential => 2 * 61,
            Extra::Stable => 2 * 65,
            Extra::Parity => 5,
            Extra::Discs => 65,
            Extra::Pattern(base) => 3usize.pow(base.len() as u32),
        }
    }

    /// Pushes the feature's active entries, counted from `at`.
    fn push(self, p: u64, o: u64, at: usize, out: &mut Vec<u32>) {
        let (bp, bo) = (Bitboard(p), Bitboard(o));
        let mut one = |k: u32| out.push((at + k as usize) as u32);
        match self {
            Extra::Mobility => {
                one(mobility(bp, bo).min(40));
                one(41 + mobility(bo, bp).min(40));
            }
            Extra::Potential => {
                one(potential_mobility(bp, bo).min(60));
                one(61 + potential_mobility(bo, bp).min(60));
            }
            Extra::Stable => {
                let s = stable_discs(bp, bo);
                one((s & bp).count());
                one(65 + (s & bo).count());
            }
            Extra::Parity => {
                let empty = !(p | o);
                let quadrants = [
                    0x0f0f_0f0f_u64,
                    0xf0f0_f0f0,
                    0x0f0f_0f0f << 32,
                    0xf0f0_f0f0 << 32,
                ];
                let odd = quadrants
                    .iter()
                    .filter(|&&q| (empty & q).count_ones() % 2 == 1)
                    .count();
                one(odd as u32);
            }
            Extra::Discs => one((p | o).count_ones()),
            Extra::Pattern(base) => {
                for img in images(base) {
                    let index = img.iter().rev().fold(0u32, |a, &sq| {
                        a * 3 + (p >> sq & 1) as u32 + 2 * (o >> sq & 1) as u32
                    });
                    one(index);
                }
            }
        }
    }
}

#[derive(Debug)]
struct Study {
    extras: Vec<Extra>,
    keep: (u64, u64),
    l2: f64,
    values: Vec<String>,
    blend: f64,
    games: Vec<String>,
    labels: Vec<String>,
}

const USAGE: &str =
    "usage: phase_study [--features LIST] [--keep N/M] [--l2 X] GAMES... -- LABELS...";

impl Study {
    fn parse(args: &[String]) -> Result<Study, Box<dyn Error>> {
        let config = FitConfig::default();
        let mut study = Study {
            extras: Vec::new(),
            keep: (1, 1),
            l2: config.l2,
            values: Vec::new(),
            blend: 0.5,
            games: Vec::new(),
            labels: Vec::new(),
        };
        let mut it = args.iter();
        let mut after = false;
        while let Some(a) = it.next() {
            let mut value = || {
                it.next()
                    .ok_or_else(|| format!("{a} needs a value; {USAGE}"))
            };
            match a.as_str() {
                "--" => after = true,
                "--features" => {
                    study.extras = value()?
                        .split(',')
                        .filter(|s| !s.is_empty() && *s != "none")
                        .map(Extra::parse)
                        .collect::<Result<_, _>>()?;
                }
                "--keep" => {
                    let v = value()?;
                    let (n, m) = v.split_once('/').ok_or("--keep takes N/M")?;
                    study.keep = (n.parse()?, m.parse()?);
                    if study.keep.1 == 0 {
                        return Err("--keep N/M needs M > 0".into());
                    }
                }
                "--l2" => study.l2 = value()?.parse()?,
                "--values" => study.values.push(value()?.clone()),
                "--blend" => study.blend = value()?.parse()?,
                f if f.starts_with("--") => {
                    return Err(format!("unknown option {f}; {USAGE}").into())
                }
                file if after => study.labels.push(file.to_string()),
                file => study.games.push(file.to_string()),
            }
        }
        if study.games.is_empty() || study.labels.is_empty() {
            return Err(USAGE.into());
        }
        Ok(study)
    }

    fn features(&self, p: u64, o: u64) -> Vec<u32> {
        let layout = Layout::get();
        let mut out: Vec<u32> = layout
            .features(p, o)
            .into_iter()
            .map(|i| i as u32)
            .collect();
        let mut at = layout.compact_len();
        for e in &self.extras {
            e.push(p, o, at, &mut out);
            at += e.len();
        }
        out
    }

    fn len(&self) -> usize {
        Layout::get().compact_len() + self.extras.iter().map(|e| e.len()).sum::<usize>()
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let study = Study::parse(&args)?;
    let config = FitConfig {
        l2: study.l2,
        ..FitConfig::default()
    };
    // The phase of 44 discs (20 empties), and the discs it learns from.
    let phase = phase_of(44, config.phases);
    let (lo, hi) = phase_discs(phase, config.phases);
    let (mut train, mut valid) = (Vec::new(), Vec::new());
    let values: Vec<ValueSet> = study
        .values
        .iter()
        .map(|f| ValueSet::read(Path::new(f)).map_err(|e| format!("{f}: {e}")))
        .collect::<Result<_, _>>()?;
    for file in &study.games {
        let set = GameSet::read(Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
        let vset = values.iter().find(|v| v.config.games == set.config);
        if !values.is_empty() && vset.is_none() {
            return Err(format!("{file}: no search values for its games").into());
        }
        for g in &set.games {
            if g.index % study.keep.1 >= study.keep.0 {
                continue;
            }
            let samples = g.samples(set.config.exact)?;
            let sample_values = match vset {
                Some(v) => v.sample_values(g, &samples)?,
                None => vec![None; samples.len()],
            };
            for (s, value) in samples.into_iter().zip(sample_values) {
                // Only the rows the phase learns from are kept (all of them would take
                // gigabytes): the same rows as the whole fit's while there are enough.
                let discs = 64 - s.pos.empties().count();
                if discs + config.overlap < lo || discs > hi + config.overlap {
                    continue;
                }
                let result = f64::from(s.label);
                let row = Row {
                    features: study.features(s.pos.player().0, s.pos.opponent().0),
                    label: value.map_or(result, |v| study.blend * v + (1.0 - study.blend) * result),
                    discs,
                };
                if g.index % config.holdout == 0 {
                    valid.push(row);
                } else {
                    train.push(row);
                }
            }
        }
    }
    if train.len() < config.min_rows {
        // The whole fit would then take in rows further away, which were not kept.
        return Err(format!(
            "{} training rows in the phase, fewer than the fit's {}: keep more games",
            train.len(),
            config.min_rows
        )
        .into());
    }
    let (w, report) = fit_one_phase(phase, &train, &valid, &config, study.len())?;
    if !values.is_empty() {
        print!("blend {} ", study.blend);
    }
    print!(
        "features {:?} keep {}/{} l2 {}: rows {} (best pass {}), MAE train {:.3} valid {:.3}",
        study.extras,
        study.keep.0,
        study.keep.1,
        study.l2,
        train.len(),
        report.best_epoch,
        report.train_mae,
        report.valid_mae
    );
    for file in &study.labels {
        let set = LabelSet::read(Path::new(file)).map_err(|e| format!("{file}: {e}"))?;
        let mut total = 0.0;
        for l in &set.positions {
            let pos = l.position()?;
            let f = study.features(pos.player().0, pos.opponent().0);
            let value: f64 = f
                .iter()
                .map(|&i| (w[i as usize] * 100.0).round() / 100.0)
                .sum();
            total += (value - f64::from(l.score)).abs();
        }
        print!(
            "; {file}: {:.3} ({} positions)",
            total / set.positions.len().max(1) as f64,
            set.positions.len()
        );
    }
    println!();
    Ok(())
}
