//! Elo differences with their error, likelihood of superiority, and the sequential probability
//! ratio test, for game counts (trinomial model) and for game pairs (pentanomial model).
//!
//! A score distribution is a list of possible scores in `[0, 1]` with their counts: a game
//! scores 0, 1/2 or 1 (trinomial); a pair of games played from one opening with the colours
//! swapped scores 0, 1/4, 1/2, 3/4 or 1 per game (pentanomial: 0 to 2 points over two games).
//! Games of a pair are correlated (the same opening favours the same side), so the pentanomial
//! variance is the right one for paired games; the trinomial one treats the games as
//! independent.
//!
//! With `N` units (games or pairs), mean score `m` and population variance `v` per unit:
//! - Elo `= -400 log10(1/m - 1)`; the 95% interval maps `m -+ 1.96 sqrt(v/N)` through the same
//!   function, and the error is half its width;
//! - LOS `= Phi((m - 1/2) / sqrt(v/N))` (normal approximation);
//! - normalized Elo `= (m - 1/2) / s * 800 / ln 10`, `s` the standard deviation of one game's
//!   score (`sqrt(v)` for games, `sqrt(2v)` for pairs);
//! - the SPRT's log-likelihood ratio is the generalized SPRT of fastchess (Michel Van den
//!   Bergh's normal approximation): `N (s1 - s0) (2m - s0 - s1) / (2v)`, where `s0` and `s1`
//!   are the expected scores of the two hypotheses (from logistic Elo `1 / (1 + 10^(-E/400))`,
//!   or from normalized Elo `1/2 + E s ln 10 / 800`). It is 0 while the variance is 0 (no
//!   information yet). Like every normal approximation it is rough over the first few pairs:
//!   with bounds far apart (`elo1 - elo0` of a few hundred) a handful of wins can decide.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::{Tally, Z95};

/// Which score distribution an estimate came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// Single games: win, draw, loss.
    Trinomial,
    /// Pairs of games from one opening with the colours swapped: 0 to 2 points.
    Pentanomial,
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Model::Trinomial => "trinomial",
            Model::Pentanomial => "pentanomial",
        })
    }
}

/// Counts of game pairs by A's points over the pair: `[0, 0.5, 1, 1.5, 2]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Counts a pair in which A scored `half_points / 2` points (`half_points` from 0 to 4).
    ///
    /// # Panics
    /// If `half_points > 4`.
    pub fn add(&mut self, half_points: usize) {
        self.0[half_points] += 1;
    }

    /// The sum of two counts.
    #[must_use]
    pub fn plus(&self, other: &Pentanomial) -> Pentanomial {
        let mut sum = *self;
        for (s, o) in sum.0.iter_mut().zip(other.0) {
            *s += o;
        }
        sum
    }
}

/// The mean score per unit, the population variance per unit and the number of units of a
/// score distribution, with the model it came from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scores {
    /// The model.
    pub model: Model,
    /// Units (games or pairs).
    pub n: u64,
    /// Mean score per game, in `[0, 1]`.
    pub mean: f64,
    /// Population variance of one unit's score (per-game scale).
    pub variance: f64,
}

impl Scores {
    fn from_counts(model: Model, points: &[(f64, u64)]) -> Scores {
        let n: u64 = points.iter().map(|p| p.1).sum();
        if n == 0 {
            return Scores {
                model,
                n,
                mean: 0.5,
                variance: 0.0,
            };
        }
        let nf = n as f64;
        let mean = points.iter().map(|&(x, k)| x * k as f64).sum::<f64>() / nf;
        let variance = points
            .iter()
            .map(|&(x, k)| (x - mean) * (x - mean) * k as f64)
            .sum::<f64>()
            / nf;
        Scores {
            model,
            n,
            mean,
            variance,
        }
    }

    /// The trinomial distribution of a tally.
    #[must_use]
    pub fn trinomial(t: &Tally) -> Scores {
        Scores::from_counts(
            Model::Trinomial,
            &[(0.0, t.lose), (0.5, t.draw), (1.0, t.win)],
        )
    }

    /// The pentanomial distribution of pair counts.
    #[must_use]
    pub fn pentanomial(p: &Pentanomial) -> Scores {
        let points: Vec<(f64, u64)> = (0..5).map(|i| (i as f64 / 4.0, p.0[i])).collect();
        Scores::from_counts(Model::Pentanomial, &points)
    }

    /// The standard deviation of one game's score implied by the unit variance.
    #[must_use]
    pub fn game_sd(&self) -> f64 {
        match self.model {
            Model::Trinomial => self.variance.sqrt(),
            Model::Pentanomial => (2.0 * self.variance).sqrt(),
        }
    }

    /// The standard error of the mean.
    #[must_use]
    pub fn standard_error(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            (self.variance / self.n as f64).sqrt()
        }
    }
}

/// The Elo difference whose expected score is `score` (`-inf` at 0, `+inf` at 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a player `elo` Elo stronger (logistic).
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `800 / ln 10`: the factor from (score - 1/2) / sd to normalized Elo.
const NELO_SCALE: f64 = 800.0 / std::f64::consts::LN_10;

/// The standard normal cumulative distribution function (W. J. Cody's rational
/// approximations of erfc, relative error below 1e-14).
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (W. J. Cody, "Rational Chebyshev approximations for the
/// error function", Math. Comp. 1969; the coefficients of his CALERF routine).
fn erfc(x: f64) -> f64 {
    let ax = x.abs();
    let r = if ax < 0.5 {
        const A: [f64; 5] = [
            3.161_123_743_870_565_6,
            113.864_154_151_050_16,
            377.485_237_685_302,
            3_209.377_589_138_469_5,
            0.185_777_706_184_603_15,
        ];
        const B: [f64; 4] = [
            23.601_290_952_344_122,
            244.024_637_934_444_17,
            1_282.616_526_077_372_3,
            2_844.236_833_439_171,
        ];
        let z = x * x;
        let mut num = A[4] * z;
        let mut den = z;
        for i in 0..3 {
            num = (num + A[i]) * z;
            den = (den + B[i]) * z;
        }
        let erf = x * (num + A[3]) / (den + B[3]);
        return 1.0 - erf;
    } else if ax < 4.0 {
        const C: [f64; 9] = [
            0.564_188_496_988_670_1,
            8.883_149_794_388_376,
            66.119_190_637_141_63,
            298.635_138_197_400_1,
            881.952_221_241_769,
            1_712.047_612_634_070_7,
            2_051.078_377_826_071_6,
            1_230.339_354_797_997_2,
            2.153_115_354_744_038_3e-8,
        ];
        const D: [f64; 8] = [
            15.744_926_110_709_835,
            117.693_950_891_312_5,
            537.181_101_862_009_9,
            1_621.389_574_566_690_3,
            3_290.799_235_733_459_7,
            4_362.619_090_143_247,
            3_439.367_674_143_721_6,
            1_230.339_354_803_749_5,
        ];
        let mut num = C[8] * ax;
        let mut den = ax;
        for i in 0..7 {
            num = (num + C[i]) * ax;
            den = (den + D[i]) * ax;
        }
        let r = (num + C[7]) / (den + D[7]);
        r * (-ax * ax).exp()
    } else if ax < 27.0 {
        const P: [f64; 6] = [
            0.305_326_634_961_232_36,
            0.360_344_899_949_804_4,
            0.125_781_726_111_229_26,
            0.016_083_785_148_742_275,
            6.587_491_615_298_378e-4,
            0.016_315_387_137_302_097,
        ];
        const Q: [f64; 5] = [
            2.568_520_192_289_822,
            1.872_952_849_923_460_4,
            0.527_905_102_951_428_4,
            0.060_518_341_312_441_32,
            0.002_335_204_976_268_691_8,
        ];
        const SQRPI: f64 = 0.564_189_583_547_756_3;
        let z = 1.0 / (ax * ax);
        let mut num = P[5] * z;
        let mut den = z;
        for i in 0..4 {
            num = (num + P[i]) * z;
            den = (den + Q[i]) * z;
        }
        let r = z * (num + P[4]) / (den + Q[4]);
        let r = (SQRPI - r) / ax;
        r * (-ax * ax).exp()
    } else {
        0.0
    };
    if x < 0.0 {
        2.0 - r
    } else {
        r
    }
}

/// An Elo estimate of A against B.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// The model of the counts.
    pub model: Model,
    /// Units counted (games, or pairs for the pentanomial model).
    pub n: u64,
    /// A's mean score per game.
    pub score: f64,
    /// The Elo difference (infinite when A scored 0 or 1; `null` in JSON).
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Half the interval's width (the "+-" error; 0 when the variance is 0).
    pub error: f64,
    /// Likelihood of superiority: the probability that A is stronger.
    pub los: f64,
    /// Normalized Elo (infinite for a sweep, 0 without games).
    pub nelo: f64,
}

impl EloEstimate {
    /// The estimate of a score distribution.
    #[must_use]
    pub fn of(s: &Scores) -> EloEstimate {
        let se = s.standard_error();
        let low = elo_of_score((s.mean - Z95 * se).max(0.0));
        let high = elo_of_score((s.mean + Z95 * se).min(1.0));
        let los = if se > 0.0 {
            normal_cdf((s.mean - 0.5) / se)
        } else if s.n == 0 || s.mean == 0.5 {
            0.5
        } else if s.mean > 0.5 {
            1.0
        } else {
            0.0
        };
        let sd = s.game_sd();
        EloEstimate {
            model: s.model,
            n: s.n,
            score: s.mean,
            elo: elo_of_score(s.mean),
            low,
            high,
            // A zero variance collapses the interval (both ends infinite for a sweep).
            error: if high == low { 0.0 } else { (high - low) / 2.0 },
            los,
            nelo: if sd > 0.0 {
                (s.mean - 0.5) / sd * NELO_SCALE
            } else if s.n == 0 || s.mean == 0.5 {
                0.0
            } else {
                f64::INFINITY.copysign(s.mean - 0.5)
            },
        }
    }
}

/// How SPRT bounds are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloKind {
    /// Logistic Elo (expected score `1 / (1 + 10^(-E/400))`), as fastchess and cutechess.
    Logistic,
    /// Normalized Elo (score difference in units of the game-score standard deviation).
    Normalized,
}

/// The settings of a sequential probability ratio test of H0: `elo = elo0` against H1:
/// `elo = elo1`, with false-positive rate `alpha` and false-negative rate `beta`.
///
/// Text form: `elo0=0,elo1=5,alpha=0.05,beta=0.05` with an optional `,model=normalized`
/// (`model=logistic` is the default); every key is required except `model`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// Elo of the null hypothesis.
    pub elo0: f64,
    /// Elo of the alternative hypothesis.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// What kind of Elo `elo0` and `elo1` are.
    pub kind: EloKind,
}

/// A malformed SPRT setting.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad SPRT setting {text:?}: {reason} (expected elo0=E0,elo1=E1,alpha=A,beta=B[,model=logistic|normalized])")]
pub struct ParseSprtError {
    /// The text.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl FromStr for Sprt {
    type Err = ParseSprtError;

    fn from_str(text: &str) -> Result<Sprt, ParseSprtError> {
        let err = |reason: String| ParseSprtError {
            text: text.to_string(),
            reason,
        };
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        let mut kind = EloKind::Logistic;
        for part in text.split(',').map(str::trim) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| err(format!("{part:?} is not key=value")))?;
            let number = || {
                value
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("{key}: {value:?} is not a number")))
            };
            let slot = match key.trim() {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                "model" => {
                    kind = match value.trim() {
                        "logistic" => EloKind::Logistic,
                        "normalized" => EloKind::Normalized,
                        other => return Err(err(format!("unknown model {other:?}"))),
                    };
                    continue;
                }
                other => return Err(err(format!("unknown key {other:?}"))),
            };
            if slot.is_some() {
                return Err(err(format!("{key} given twice")));
            }
            *slot = Some(number()?);
        }
        let need = |x: Option<f64>, key: &str| x.ok_or_else(|| err(format!("{key} is missing")));
        let sprt = Sprt {
            elo0: need(elo0, "elo0")?,
            elo1: need(elo1, "elo1")?,
            alpha: need(alpha, "alpha")?,
            beta: need(beta, "beta")?,
            kind,
        };
        if sprt.elo0 >= sprt.elo1 {
            return Err(err("elo0 must be below elo1".into()));
        }
        for (key, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(err(format!("{key} must be between 0 and 0.5, not {p}")));
            }
        }
        Ok(sprt)
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )?;
        if self.kind == EloKind::Normalized {
            f.write_str(",model=normalized")?;
        }
        Ok(())
    }
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hypothesis {
    /// `elo = elo0`.
    H0,
    /// `elo = elo1`.
    H1,
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of a score distribution (0 while its variance is 0).
    #[must_use]
    pub fn llr(&self, s: &Scores) -> f64 {
        if s.n == 0 || s.variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = match self.kind {
            EloKind::Logistic => (score_of_elo(self.elo0), score_of_elo(self.elo1)),
            EloKind::Normalized => {
                let sd = s.game_sd();
                (
                    0.5 + self.elo0 * sd / NELO_SCALE,
                    0.5 + self.elo1 * sd / NELO_SCALE,
                )
            }
        };
        s.n as f64 * (s1 - s0) * (2.0 * s.mean - s0 - s1) / (2.0 * s.variance)
    }

    /// The log-likelihood ratio of pair counts.
    #[must_use]
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&Scores::pentanomial(p))
    }

    /// The log-likelihood ratio of game counts.
    #[must_use]
    pub fn llr_trinomial(&self, t: &Tally) -> f64 {
        self.llr(&Scores::trinomial(t))
    }

    /// The hypothesis accepted at this log-likelihood ratio, if a bound is crossed.
    #[must_use]
    pub fn decide(&self, llr: f64) -> Option<Hypothesis> {
        let (low, high) = self.bounds();
        if llr >= high {
            Some(Hypothesis::H1)
        } else if llr <= low {
            Some(Hypothesis::H0)
        } else {
            None
        }
    }
}
