//! The Elo, LOS and SPRT formulas against an independent, obvious implementation: every unit's
//! score written out, means and variances by plain loops, Elo by bisection of the logistic
//! curve, the normal distribution by numerical integration; and against literal values worked
//! out separately (Python's `math.erf` and the same formulas by hand).

use super::*;

/// The obvious implementation.
mod reference {
    /// Every unit's score, one entry per game (trinomial) or pair (pentanomial, per game).
    pub fn expand(points: &[(f64, u64)]) -> Vec<f64> {
        let mut v = Vec::new();
        for &(x, k) in points {
            for _ in 0..k {
                v.push(x);
            }
        }
        v
    }

    pub fn mean_var(xs: &[f64]) -> (f64, f64) {
        let mut sum = 0.0;
        for x in xs {
            sum += x;
        }
        let mean = sum / xs.len() as f64;
        let mut sq = 0.0;
        for x in xs {
            sq += (x - mean) * (x - mean);
        }
        (mean, sq / xs.len() as f64)
    }

    /// The Elo difference whose logistic expected score is `s`, by bisection.
    pub fn elo(s: f64) -> f64 {
        let (mut lo, mut hi) = (-2000.0f64, 2000.0f64);
        for _ in 0..200 {
            let mid = (lo + hi) / 2.0;
            let expected = 1.0 / (1.0 + 10f64.powf(-mid / 400.0));
            if expected < s {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo + hi) / 2.0
    }

    /// The standard normal distribution function by Simpson's rule from -12.
    pub fn phi(x: f64) -> f64 {
        let a = -12.0;
        let n = 200_000;
        let h = (x - a) / n as f64;
        let f = |t: f64| (-t * t / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let mut s = f(a) + f(x);
        for i in 1..n {
            let t = a + i as f64 * h;
            s += if i % 2 == 1 { 4.0 } else { 2.0 } * f(t);
        }
        s * h / 3.0
    }

    /// Elo, error, LOS, nElo, and the LLRs of elo0=0,elo1=5 (logistic) and elo0=0,elo1=10
    /// (normalized) with `alpha = beta = 0.05`.
    pub fn all(points: &[(f64, u64)], paired: bool) -> [f64; 6] {
        let xs = expand(points);
        let n = xs.len() as f64;
        let (m, v) = mean_var(&xs);
        let se = (v / n).sqrt();
        let z = 1.959_963_984_540_054;
        let (lo, hi) = (elo(m - z * se), elo(m + z * se));
        let sd = if paired { (2.0 * v).sqrt() } else { v.sqrt() };
        let c = 800.0 / 10f64.ln();
        let llr = |s0: f64, s1: f64| n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v);
        let logistic = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
        [
            elo(m),
            (hi - lo) / 2.0,
            phi((m - 0.5) / se),
            (m - 0.5) / sd * c,
            llr(logistic(0.0), logistic(5.0)),
            llr(0.5, 0.5 + 10.0 * sd / c),
        ]
    }
}

fn library(s: &Scores) -> [f64; 6] {
    let e = EloEstimate::of(s);
    let logistic: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
    let normalized: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized"
        .parse()
        .unwrap();
    [
        e.elo,
        e.error,
        e.los,
        e.nelo,
        logistic.llr(s),
        normalized.llr(s),
    ]
}

/// A score distribution and its points for the reference.
type Case = (Scores, Vec<(f64, u64)>);

fn tri(w: u64, l: u64, d: u64) -> Case {
    let t = Tally {
        win: w,
        lose: l,
        draw: d,
    };
    (Scores::trinomial(&t), vec![(0.0, l), (0.5, d), (1.0, w)])
}

fn penta(c: [u64; 5]) -> Case {
    let points = (0..5).map(|i| (i as f64 / 4.0, c[i])).collect();
    (Scores::pentanomial(&Pentanomial(c)), points)
}

#[test]
fn elo_error_los_and_llr_match_the_reference_and_the_table() {
    // Inputs and expected [Elo, error, LOS, nElo, LLR logistic, LLR normalized], the
    // expected values computed separately in double precision (Python 3, math.erf).
    let table: [(Case, bool, [f64; 6]); 4] = [
        (
            tri(60, 40, 100),
            false,
            [
                34.860_070_287_6,
                34.159_268_843_6,
                0.978_324_124_370,
                49.633_655_074_7,
                0.545_093_036_8,
                0.739_509_661_0,
            ],
        ),
        (
            tri(10, 30, 5),
            false,
            [
                -165.989_339_188_3,
                110.948_491_425_7,
                0.000_168_096_752,
                -185.712_132_142_7,
                -0.423_026_110_9,
                -0.710_955_206_1,
            ],
        ),
        (
            penta([5, 20, 50, 30, 10]),
            true,
            [
                30.288_285_575_2,
                30.872_869_614_3,
                0.973_676_708_882,
                44.393_690_687_5,
                0.570_001_680_2,
                0.750_595_419_9,
            ],
        ),
        (
            penta([1, 2, 3, 2, 2]),
            true,
            [
                34.860_070_287_6,
                143.762_328_581_9,
                0.693_701_423_576,
                39.339_333_433_2,
                0.034_243_024_1,
                0.056_894_889_7,
            ],
        ),
    ];
    for ((scores, points), paired, expected) in table {
        let got = library(&scores);
        let reference = reference::all(&points, paired);
        for k in 0..6 {
            assert!(
                (got[k] - reference[k]).abs() < 1e-7 * (1.0 + reference[k].abs()),
                "{points:?} quantity {k}: library {} reference {}",
                got[k],
                reference[k]
            );
            assert!(
                (got[k] - expected[k]).abs() < 1e-8 * (1.0 + expected[k].abs()),
                "{points:?} quantity {k}: library {} table {}",
                got[k],
                expected[k]
            );
        }
    }
}

#[test]
fn normal_cdf_matches_integration_and_known_values() {
    for (x, expected) in [
        (-3.0, 0.001_349_898_031_630_103_5),
        (-1.5, 0.066_807_201_268_858_09),
        (-0.3, 0.382_088_577_811_047_4),
        (0.0, 0.5),
        (0.2, 0.579_259_709_439_103),
        (0.7, 0.758_036_347_776_927),
        (1.0, 0.841_344_746_068_542_9),
        (2.5, 0.993_790_334_674_223_8),
        (5.0, 0.999_999_713_348_428_2),
    ] {
        let got = normal_cdf(x);
        assert!((got - expected).abs() < 1e-14, "{x}: {got} vs {expected}");
        assert!((got - reference::phi(x)).abs() < 1e-10, "{x}");
    }
    for i in -80..=80 {
        let x = f64::from(i) / 10.0;
        assert!((normal_cdf(x) - reference::phi(x)).abs() < 1e-10, "{x}");
    }
}

#[test]
fn sprt_bounds_text_and_edge_cases() {
    let t: Sprt = "elo0=0,elo1=5,alpha=0.05,beta=0.05".parse().unwrap();
    let (lo, hi) = t.bounds();
    assert!((lo + 2.944_438_979_166_440_3).abs() < 1e-12);
    assert!((hi - 2.944_438_979_166_440_3).abs() < 1e-12);
    assert_eq!(t.decide(3.0), Some(Hypothesis::H1));
    assert_eq!(t.decide(-3.0), Some(Hypothesis::H0));
    assert_eq!(t.decide(0.0), None);
    assert_eq!(t.to_string().parse::<Sprt>().unwrap(), t);
    let n: Sprt = "elo0=-1.5,elo1=2,alpha=0.1,beta=0.2,model=normalized"
        .parse()
        .unwrap();
    assert_eq!(n.kind, EloKind::Normalized);
    assert_eq!(n.to_string().parse::<Sprt>().unwrap(), n);
    for bad in [
        "",
        "elo0=0,elo1=5,alpha=0.05",
        "elo0=5,elo1=0,alpha=0.05,beta=0.05",
        "elo0=0,elo1=5,alpha=0.5,beta=0.05",
        "elo0=0,elo1=5,alpha=0.05,beta=0",
        "elo0=0,elo1=x,alpha=0.05,beta=0.05",
        "elo0=0,elo1=5,alpha=0.05,beta=0.05,gamma=1",
        "elo0=0,elo0=1,elo1=5,alpha=0.05,beta=0.05",
        "elo0=0,elo1=5,alpha=0.05,beta=0.05,model=bayes",
        "elo0=0,elo1=inf,alpha=0.05,beta=0.05",
    ] {
        assert!(bad.parse::<Sprt>().is_err(), "{bad:?}");
    }
    // No variance, no information: the ratio stays 0 and nothing is decided.
    let draws = Tally {
        win: 0,
        lose: 0,
        draw: 1000,
    };
    let all_draws = Scores::trinomial(&draws);
    assert_eq!(t.llr(&all_draws), 0.0);
    assert_eq!(t.llr_trinomial(&draws), 0.0);
    let p = Pentanomial([3, 9, 20, 11, 4]);
    assert_eq!(t.llr_pentanomial(&p), t.llr(&Scores::pentanomial(&p)));
    // A clean sweep: infinite Elo, certain superiority.
    let sweep = EloEstimate::of(&Scores::trinomial(&Tally {
        win: 10,
        lose: 0,
        draw: 0,
    }));
    assert!(sweep.elo.is_infinite() && sweep.elo > 0.0);
    assert_eq!(sweep.los, 1.0);
    assert_eq!(
        (sweep.low, sweep.high, sweep.error),
        (f64::INFINITY, f64::INFINITY, 0.0)
    );
    assert_eq!(sweep.nelo, f64::INFINITY);
    let lost = EloEstimate::of(&Scores::pentanomial(&Pentanomial([7, 0, 0, 0, 0])));
    assert_eq!(
        (lost.elo, lost.los, lost.error),
        (f64::NEG_INFINITY, 0.0, 0.0)
    );
    assert_eq!(elo_of_score(0.5), 0.0);
    assert!((score_of_elo(elo_of_score(0.7)) - 0.7).abs() < 1e-12);
}
