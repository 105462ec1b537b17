use serde::{Deserialize, Serialize};

/// The z value of a two-sided 95% normal interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95% Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ratio {
    /// `count / total` (0 when `total` is 0).
    pub value: f64,
    /// Lower end of the 95% Wilson interval.
    pub low: f64,
    /// Upper end of the 95% Wilson interval.
    pub high: f64,
}

/// `count / total` with its Wilson score interval at the given `z` (e.g. [`Z95`]).
///
/// The Wilson interval stays inside `[0, 1]` and behaves well near 0 and 1, unlike the normal
/// approximation. With `total == 0` the ratio is 0 and the interval is `[0, 1]`.
#[must_use]
pub fn wilson(count: u64, total: u64, z: f64) -> Ratio {
    if total == 0 {
        return Ratio {
            value: 0.0,
            low: 0.0,
            high: 1.0,
        };
    }
    let n = total as f64;
    let p = count as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Ratio {
        value: p,
        low: (centre - half).max(0.0),
        high: (centre + half).min(1.0),
    }
}

/// Win, loss and draw counts of one agent over some games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games won.
    pub win: u64,
    /// Games lost.
    pub lose: u64,
    /// Games drawn.
    pub draw: u64,
}

impl Tally {
    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.win + self.lose + self.draw
    }

    /// The sum of two tallies.
    #[must_use]
    pub fn plus(&self, other: &Tally) -> Tally {
        Tally {
            win: self.win + other.win,
            lose: self.lose + other.lose,
            draw: self.draw + other.draw,
        }
    }

    /// Win, loss and draw ratios with 95% Wilson intervals.
    #[must_use]
    pub fn ratios(&self) -> [Ratio; 3] {
        let n = self.games();
        [self.win, self.lose, self.draw].map(|k| wilson(k, n, Z95))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 58 of 100 at 95%, computed independently in double precision from the formula
        // (p + z^2/2n) / (1 + z^2/n) -+ z / (1 + z^2/n) * sqrt(p(1-p)/n + z^2/4n^2).
        let r = wilson(58, 100, Z95);
        assert!((r.value - 0.58).abs() < 1e-12);
        assert!((r.low - 0.482_065).abs() < 1e-5, "{r:?}");
        assert!((r.high - 0.672_016).abs() < 1e-5, "{r:?}");
        // The interval of 0 successes starts at 0 and is not empty.
        let r = wilson(0, 10, Z95);
        assert!(r.low.abs() < 1e-12, "{r:?}");
        assert!(r.high > 0.2 && r.high < 0.35);
        let r = wilson(10, 10, Z95);
        assert!((r.high - 1.0).abs() < 1e-12, "{r:?}");
        assert_eq!(wilson(0, 0, Z95).high, 1.0);
    }

    #[test]
    fn tallies_add_up() {
        let a = Tally {
            win: 3,
            lose: 2,
            draw: 1,
        };
        let b = a.plus(&a);
        assert_eq!(b.games(), 12);
        let [w, l, d] = b.ratios();
        assert!((w.value + l.value + d.value - 1.0).abs() < 1e-12);
    }
}
