//! [`Weight`]: an exact decimal parameter (a draw's worth in `pmc2`, `ai11s`'s line weights),
//! so that equal scores compare equal and ties are broken at random, never by rounding.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A decimal with at most six places, held exactly as a whole number of millionths.
///
/// Scores built from weights and counts are sums of whole millionths, so they compare exactly;
/// [`Weight::to_f64`] is for display.
///
/// ```
/// use yomi_agents::Weight;
/// let w: Weight = "0.1".parse()?;
/// assert_eq!(w.micros(), 100_000);
/// assert_eq!(w.to_string(), "0.1");
/// assert_eq!("-2.50".parse::<Weight>()?.to_string(), "-2.5");
/// assert!("0.0000001".parse::<Weight>().is_err()); // seven places
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Weight(i64);

/// Millionths per unit.
const SCALE: i64 = 1_000_000;

/// The largest magnitude accepted, in units. A score of up to eight weighted counts then stays
/// below 10^7 in magnitude, where an `f64` resolves far finer than a millionth, so two scores
/// are equal as `f64`s exactly when they are equal as decimals.
const MAX_UNITS: i64 = 1_000_000;

/// Why a text is not a [`Weight`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "bad weight {text:?}: expected a decimal such as 0.5 or -1, at most 6 places, within ±1000000"
)]
pub struct ParseWeightError {
    text: String,
}

impl Weight {
    /// The weight `micros` / 1 000 000.
    #[must_use]
    pub const fn from_micros(micros: i64) -> Weight {
        Weight(micros)
    }

    /// A whole number of units.
    #[must_use]
    pub const fn units(n: i64) -> Weight {
        Weight(n * SCALE)
    }

    /// The weight in millionths.
    #[must_use]
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// The nearest `f64` (exact for every weight with a short binary expansion, such as 0.5).
    #[must_use]
    pub fn to_f64(self) -> f64 {
        self.0 as f64 / SCALE as f64
    }
}

impl FromStr for Weight {
    type Err = ParseWeightError;

    fn from_str(s: &str) -> Result<Weight, ParseWeightError> {
        let bad = || ParseWeightError {
            text: s.to_string(),
        };
        let t = s.trim();
        let (negative, t) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
        let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
            return Err(bad());
        }
        if frac.len() > 6 || whole.len() > 7 {
            return Err(bad());
        }
        let whole: i64 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| bad())?
        };
        if whole > MAX_UNITS {
            return Err(bad());
        }
        let mut micros: i64 = 0;
        for (i, b) in frac.bytes().enumerate() {
            micros += i64::from(b - b'0') * 10_i64.pow(5 - i as u32);
        }
        let value = whole * SCALE + micros;
        if value > MAX_UNITS * SCALE {
            return Err(bad());
        }
        Ok(Weight(if negative { -value } else { value }))
    }
}

impl fmt::Display for Weight {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        let (whole, frac) = (abs / SCALE as u64, abs % SCALE as u64);
        if frac == 0 {
            write!(f, "{sign}{whole}")
        } else {
            let digits = format!("{frac:06}");
            write!(f, "{sign}{whole}.{}", digits.trim_end_matches('0'))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Rng;

    #[test]
    fn parses_and_prints_decimals_exactly() {
        for (text, micros, shown) in [
            ("0", 0, "0"),
            ("1", 1_000_000, "1"),
            ("-1", -1_000_000, "-1"),
            ("0.5", 500_000, "0.5"),
            (".25", 250_000, "0.25"),
            ("2.", 2_000_000, "2"),
            ("+0.000001", 1, "0.000001"),
            ("-0.1", -100_000, "-0.1"),
            ("1000000", 1_000_000_000_000, "1000000"),
            ("-1000000.0", -1_000_000_000_000, "-1000000"),
        ] {
            let w: Weight = text.parse().unwrap();
            assert_eq!(w.micros(), micros, "{text}");
            assert_eq!(w.to_string(), shown, "{text}");
        }
        for bad in [
            "",
            ".",
            "-",
            "1e3",
            "0.1234567",
            "1.2.3",
            "abc",
            "1000000.000001",
            "--1",
            " ",
            "0x1",
            "NaN",
            "inf",
            "99999999999",
        ] {
            assert!(bad.parse::<Weight>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn display_round_trips_on_random_weights() {
        let mut rng = Rng::seed_from_u64(4);
        for _ in 0..10_000 {
            let micros = rng.below(2_000_000_001) as i64 - 1_000_000_000;
            let w = Weight::from_micros(micros * if rng.chance(0.5) { 1 } else { 1000 });
            assert!(w.micros().abs() <= MAX_UNITS * SCALE);
            assert_eq!(w.to_string().parse::<Weight>(), Ok(w));
        }
    }
}
