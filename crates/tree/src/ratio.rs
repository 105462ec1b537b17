//! Exact non-negative rationals ([`Ratio`]) and the outcome probabilities of a position
//! ([`Probs`]).

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Outcome, Player};

use crate::TreeError;

/// An exact non-negative rational number `num/den`, always reduced, `den > 0`.
///
/// Used for probabilities, playout scores and the `alpha` parameter, so that every comparison
/// the audit and the exact agents make is exact. Ordering compares `a/b` and `c/d` through
/// the full 256-bit products `a*d` and `c*b`, so it never overflows. Arithmetic is checked and
/// reports overflow as `None`.
///
/// Notation: `737/1260`, or a bare integer (`0`, `1`) when the denominator is 1. Parsing also
/// takes decimals (`0.5`, `.25`, `2.`), giving the exact value (`0.1` is `1/10`).
///
/// ```
/// use yomi_tree::Ratio;
/// let half: Ratio = "0.5".parse()?;
/// assert_eq!(half, "1/2".parse()?);
/// assert_eq!(half.to_string(), "1/2");
/// assert!(half < "2/3".parse()?);
/// assert_eq!(Ratio::new(6, 4), Some("3/2".parse()?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

/// Why a [`Ratio`] did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseRatioError {
    /// Not a fraction `A/B` or a decimal `1.25` of non-negative whole numbers.
    #[error("bad number {text:?}: expected a fraction such as 1/3 or a decimal such as 0.25")]
    Invalid {
        /// The text.
        text: String,
    },
    /// The denominator was zero.
    #[error("bad number {text:?}: zero denominator")]
    ZeroDenominator {
        /// The text.
        text: String,
    },
    /// The number does not fit in 128-bit numerator and denominator.
    #[error("number {text:?} is too large")]
    TooLarge {
        /// The text.
        text: String,
    },
}

/// Greatest common divisor (`gcd(0, 0) = 0`).
pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The full product `a * b` as `(high, low)` 128-bit halves.
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    const M: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & M);
    let (b1, b0) = (b >> 64, b & M);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & M) + (p10 & M);
    let lo = (p00 & M) | ((mid & M) << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };
    /// One half (the default `alpha` of the playout score).
    pub const HALF: Ratio = Ratio { num: 1, den: 2 };

    /// `num/den` reduced, or `None` when `den` is zero.
    #[must_use]
    pub fn new(num: u128, den: u128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Ratio {
            num: num / g,
            den: den / g,
        })
    }

    /// The whole number `n`.
    #[must_use]
    pub const fn integer(n: u128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    /// The numerator (of the reduced form).
    #[must_use]
    pub const fn numer(self) -> u128 {
        self.num
    }

    /// The denominator (of the reduced form), at least 1.
    #[must_use]
    pub const fn denom(self) -> u128 {
        self.den
    }

    /// The nearest `f64` (round to nearest, ties to even), for every numerator and denominator.
    ///
    /// When both are at most 2^53 this is `num as f64 / den as f64` (both conversions exact,
    /// one correctly rounded division); otherwise the quotient is computed in integers to at
    /// least 55 significant bits plus a sticky bit and rounded once.
    #[must_use]
    pub fn to_f64(self) -> f64 {
        const EXACT: u128 = 1 << 53;
        if self.num <= EXACT && self.den <= EXACT {
            return self.num as f64 / self.den as f64;
        }
        if self.num == 0 {
            return 0.0;
        }
        // q = floor(num * 2^k / den) with remainder r, for the least k >= 0 that gives
        // q >= 2^54: long division, one quotient bit per step (at most 54 + 128 steps).
        let (mut q, mut r, mut k) = (self.num / self.den, self.num % self.den, 0u32);
        while q < 1 << 54 {
            // 2r >= den, written so that nothing overflows (r < den <= u128::MAX).
            let bit = r >= self.den - r;
            r = if bit { r - (self.den - r) } else { r + r };
            q = q << 1 | u128::from(bit);
            k += 1;
        }
        // q has at least 55 significant bits, so bit 0 lies below the rounding bit of a 53-bit
        // significand: setting it when r != 0 (a sticky bit) makes the one correctly rounded
        // conversion `u128 as f64` round as the exact quotient would.
        let rounded = (q | u128::from(r != 0)) as f64;
        // Exact: 2^-k is a normal f64 (k <= 182) and so is the product (num/den >= 2^-128).
        rounded * f64::from_bits(u64::from(1023 - k) << 52)
    }

    /// `self + other`, or `None` on overflow.
    #[must_use]
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.den, other.den);
        let lcm = (self.den / g).checked_mul(other.den)?;
        let a = self.num.checked_mul(lcm / self.den)?;
        let b = other.num.checked_mul(lcm / other.den)?;
        Ratio::new(a.checked_add(b)?, lcm)
    }

    /// `self * other`, or `None` on overflow.
    #[must_use]
    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        let g1 = gcd(self.num, other.den).max(1);
        let g2 = gcd(other.num, self.den).max(1);
        let num = (self.num / g1).checked_mul(other.num / g2)?;
        let den = (self.den / g2).checked_mul(other.den / g1)?;
        Ratio::new(num, den)
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        mul_wide(self.num, other.den).cmp(&mul_wide(other.num, self.den))
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl FromStr for Ratio {
    type Err = ParseRatioError;

    fn from_str(text: &str) -> Result<Ratio, ParseRatioError> {
        let s = text.trim();
        let invalid = || ParseRatioError::Invalid {
            text: text.to_string(),
        };
        let too_large = || ParseRatioError::TooLarge {
            text: text.to_string(),
        };
        let whole = |t: &str| -> Result<u128, ParseRatioError> {
            if !digits(t) {
                return Err(invalid());
            }
            t.parse::<u128>().map_err(|_| too_large())
        };
        if let Some((a, b)) = s.split_once('/') {
            let (num, den) = (whole(a.trim())?, whole(b.trim())?);
            return Ratio::new(num, den).ok_or_else(|| ParseRatioError::ZeroDenominator {
                text: text.to_string(),
            });
        }
        let (int, frac) = s.split_once('.').unwrap_or((s, ""));
        if int.is_empty() && frac.is_empty() {
            return Err(invalid());
        }
        let int = if int.is_empty() { 0 } else { whole(int)? };
        let (frac_num, den) = if frac.is_empty() {
            (0, 1)
        } else {
            let n = whole(frac)?;
            let exp = u32::try_from(frac.len()).map_err(|_| too_large())?;
            (n, 10u128.checked_pow(exp).ok_or_else(too_large)?)
        };
        let num = int
            .checked_mul(den)
            .and_then(|x| x.checked_add(frac_num))
            .ok_or_else(too_large)?;
        Ratio::new(num, den).ok_or_else(invalid)
    }
}

/// The exact probabilities that the first player wins, the game is drawn and the second player
/// wins when both sides play uniformly random legal moves to the end.
///
/// Stored as three numerators over one shared denominator, reduced so that the four numbers
/// have no common factor; the numerators add up to the denominator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Probs {
    first: u128,
    draw: u128,
    second: u128,
    den: u128,
}

impl Probs {
    /// Probability 1 for `outcome`.
    #[must_use]
    pub fn certain(outcome: Outcome) -> Probs {
        let (first, draw, second) = match outcome {
            Outcome::Win(Player::First) => (1, 0, 0),
            Outcome::Win(Player::Second) => (0, 0, 1),
            Outcome::Draw => (0, 1, 0),
        };
        Probs {
            first,
            draw,
            second,
            den: 1,
        }
    }

    /// Probabilities proportional to the weights `first`, `draw`, `second` (reduced); `None`
    /// when they are all zero or their sum overflows.
    #[must_use]
    pub fn from_weights(first: u128, draw: u128, second: u128) -> Option<Probs> {
        let den = first.checked_add(draw)?.checked_add(second)?;
        if den == 0 {
            return None;
        }
        let g = gcd(gcd(first, draw), gcd(second, den));
        Some(Probs {
            first: first / g,
            draw: draw / g,
            second: second / g,
            den: den / g,
        })
    }

    /// The mean of the children's probabilities: the position's probabilities when the mover
    /// picks each child with equal chance.
    ///
    /// # Errors
    /// [`TreeError::Overflow`] if the common denominator does not fit in 128 bits;
    /// [`TreeError::Overflow`] also for an empty list (which has no mean).
    pub fn mean<'a>(
        children: impl IntoIterator<Item = &'a Probs> + Clone,
    ) -> Result<Probs, TreeError> {
        let overflow = || TreeError::Overflow {
            what: "probability denominator",
        };
        let mut lcm: u128 = 1;
        for p in children.clone() {
            lcm = (lcm / gcd(lcm, p.den))
                .checked_mul(p.den)
                .ok_or_else(overflow)?;
        }
        let (mut a, mut b, mut c) = (0u128, 0u128, 0u128);
        for p in children {
            let k = lcm / p.den;
            let add = |acc: u128, x: u128| x.checked_mul(k).and_then(|y| acc.checked_add(y));
            a = add(a, p.first).ok_or_else(overflow)?;
            b = add(b, p.draw).ok_or_else(overflow)?;
            c = add(c, p.second).ok_or_else(overflow)?;
        }
        // The weights add up to `n * lcm` for `n` children: `from_weights` checks that sum
        // (overflow is `None`), and an empty list gives all-zero weights (also `None`).
        Probs::from_weights(a, b, c).ok_or_else(overflow)
    }

    /// The numerators `[first wins, draw, second wins]` over [`Probs::denom`].
    #[must_use]
    pub const fn numerators(&self) -> [u128; 3] {
        [self.first, self.draw, self.second]
    }

    /// The shared denominator.
    #[must_use]
    pub const fn denom(&self) -> u128 {
        self.den
    }

    fn ratio(&self, num: u128) -> Ratio {
        // `den > 0` always holds.
        Ratio::new(num, self.den).unwrap_or(Ratio::ZERO)
    }

    /// P(the first player wins).
    #[must_use]
    pub fn first(&self) -> Ratio {
        self.ratio(self.first)
    }

    /// P(draw).
    #[must_use]
    pub fn draw(&self) -> Ratio {
        self.ratio(self.draw)
    }

    /// P(the second player wins).
    #[must_use]
    pub fn second(&self) -> Ratio {
        self.ratio(self.second)
    }

    /// P(`player` wins).
    #[must_use]
    pub fn win(&self, player: Player) -> Ratio {
        match player {
            Player::First => self.first(),
            Player::Second => self.second(),
        }
    }

    /// The playout score of `player`: `P(player wins) + alpha * P(draw)`.
    ///
    /// # Errors
    /// [`TreeError::Overflow`] if the exact result does not fit.
    pub fn score(&self, player: Player, alpha: Ratio) -> Result<Ratio, TreeError> {
        alpha
            .checked_mul(self.draw())
            .and_then(|d| d.checked_add(self.win(player)))
            .ok_or(TreeError::Overflow {
                what: "playout score",
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_notation_round_trips() {
        for text in [
            "0",
            "1",
            "1/2",
            "737/1260",
            "340282366920938463463374607431768211455",
        ] {
            let r: Ratio = text.parse().unwrap();
            assert_eq!(r.to_string(), text);
            assert_eq!(r.to_string().parse::<Ratio>().unwrap(), r);
        }
        let cases = [
            ("0.5", "1/2"),
            (".25", "1/4"),
            ("2.", "2"),
            ("0.10", "1/10"),
            ("4/6", "2/3"),
            (" 3 / 9 ", "1/3"),
            ("1.000", "1"),
            ("0/5", "0"),
        ];
        for (text, canon) in cases {
            assert_eq!(text.parse::<Ratio>().unwrap().to_string(), canon, "{text}");
        }
        for bad in [
            "", ".", "-1", "+1", "1/0", "a", "1/2/3", "1e3", "0x10", "1.2.3", "1 2",
        ] {
            assert!(bad.parse::<Ratio>().is_err(), "{bad:?}");
        }
        assert!(matches!(
            "1/0".parse::<Ratio>(),
            Err(ParseRatioError::ZeroDenominator { .. })
        ));
        assert!(matches!(
            "999999999999999999999999999999999999999999".parse::<Ratio>(),
            Err(ParseRatioError::TooLarge { .. })
        ));
        assert!(matches!(
            "0.000000000000000000000000000000000000000001".parse::<Ratio>(),
            Err(ParseRatioError::TooLarge { .. })
        ));
    }

    #[test]
    fn ordering_is_exact_even_for_huge_terms() {
        let max = u128::MAX;
        let a = Ratio::new(max - 1, max).unwrap();
        let b = Ratio::new(max - 2, max - 1).unwrap();
        assert!(a > b);
        assert!(Ratio::new(1, max).unwrap() < Ratio::new(1, max - 1).unwrap());
        assert_eq!(Ratio::new(2, 4), Ratio::new(1, 2));
        let mut xs: Vec<Ratio> = ["1/3", "0.5", "1/4", "2/3", "0", "1"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        xs.sort();
        let shown: Vec<String> = xs.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["0", "1/4", "1/3", "1/2", "2/3", "1"]);
        // Wide multiplication agrees with plain multiplication where that fits.
        for (x, y) in [
            (3u128, 5u128),
            (u64::MAX as u128, u64::MAX as u128),
            (1 << 100, 7),
        ] {
            assert_eq!(mul_wide(x, y), (0, x * y));
        }
        assert_eq!(mul_wide(max, max), (max - 1, 1));
        assert_eq!(mul_wide(1 << 127, 4), (2, 0));
    }

    #[test]
    fn checked_arithmetic() {
        let r = |s: &str| s.parse::<Ratio>().unwrap();
        assert_eq!(r("1/6").checked_add(r("1/3")), Some(r("1/2")));
        assert_eq!(r("2/3").checked_mul(r("3/4")), Some(r("1/2")));
        let big = Ratio::new(1, u128::MAX).unwrap();
        assert_eq!(big.checked_add(Ratio::new(1, u128::MAX - 1).unwrap()), None);
        assert_eq!(Ratio::integer(u128::MAX).checked_add(Ratio::ONE), None);
        assert!((r("737/1260").to_f64() - 737.0 / 1260.0).abs() < 1e-15);
    }

    /// The exact value of a finite positive `f64`, or `None` if it does not fit a `Ratio`.
    fn exact(x: f64) -> Option<Ratio> {
        let bits = x.to_bits();
        let exp = i32::try_from(bits >> 52).ok()?;
        let frac = u128::from(bits & ((1 << 52) - 1));
        // x = m * 2^e
        let (m, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, exp - 1075)
        };
        if e >= 0 {
            Ratio::new(m.checked_mul(1u128.checked_shl(e as u32)?)?, 1)
        } else {
            Ratio::new(m, 1u128.checked_shl((-e) as u32)?)
        }
    }

    /// Checks that `x` is the nearest `f64` to `r`, ties to even, exactly: `r` lies between the
    /// midpoints to the two neighbours of `x`, and on a midpoint only if `x` is even.
    fn assert_nearest(r: Ratio, x: f64) {
        let half = |a: Ratio, b: Ratio| a.checked_add(b).and_then(|s| s.checked_mul(Ratio::HALF));
        let xr = exact(x).expect("in range");
        let below = exact(x.next_down())
            .and_then(|y| half(y, xr))
            .expect("in range");
        let above = exact(x.next_up())
            .and_then(|y| half(xr, y))
            .expect("in range");
        let even = x.to_bits().is_multiple_of(2);
        let ok_low = if even { r >= below } else { r > below };
        let ok_high = if even { r <= above } else { r < above };
        assert!(ok_low && ok_high, "{r} gave {x:e}");
    }

    #[test]
    fn to_f64_is_correctly_rounded() {
        // Small terms: one exact division.
        assert_eq!(Ratio::HALF.to_f64(), 0.5);
        assert_eq!(Ratio::ZERO.to_f64(), 0.0);
        assert_eq!(Ratio::integer(1 << 53).to_f64(), 9_007_199_254_740_992.0);
        assert_eq!(r737().to_f64(), 737.0 / 1260.0);
        // Converting the numerator first rounds 3 * (2^60 + 127) + 1 up to 3 * 2^60 + 512, and
        // dividing by 3 then gives 2^60 + 256; the value 2^60 + 127 + 1/3 is nearest to 2^60.
        let twice = Ratio::new(3 * ((1 << 60) + 127) + 1, 3).unwrap();
        assert_eq!(twice.to_f64(), (1u64 << 60) as f64);
        assert_ne!(
            twice.numer() as f64 / twice.denom() as f64,
            (1u64 << 60) as f64
        );
        // Exactly halfway between two f64s: ties to even (2^60 + 128 -> 2^60, 2^60 + 384 ->
        // 2^60 + 512).
        assert_eq!(
            Ratio::integer((1 << 60) + 128).to_f64(),
            (1u64 << 60) as f64
        );
        assert_eq!(
            Ratio::integer((1 << 60) + 384).to_f64(),
            ((1u64 << 60) + 512) as f64
        );
        assert_eq!(Ratio::integer(u128::MAX).to_f64(), 2f64.powi(128));
        assert_eq!(Ratio::new(1, u128::MAX).unwrap().to_f64(), 2f64.powi(-128));
        // Random terms of every size whose quotient lies within 2^-60..2^60.
        let mut rng = yomi_core::Rng::seed_from_u64(7);
        let mut wide = || u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64());
        let mut checked = 0;
        for i in 0..20_000u32 {
            let (a, b) = (wide(), wide());
            let num = (a >> (i % 128)).max(1);
            let den = (b >> ((i / 128 * 37 + i) % 128)).max(1);
            let Some(r) = Ratio::new(num, den) else {
                continue;
            };
            let (lo, hi) = (Ratio::new(1, 1 << 60).unwrap(), Ratio::integer(1 << 60));
            if r < lo || r > hi {
                continue;
            }
            assert_nearest(r, r.to_f64());
            checked += 1;
        }
        assert!(checked > 5_000, "{checked}");
    }

    fn r737() -> Ratio {
        Ratio::new(737, 1260).unwrap()
    }

    #[test]
    fn probs_mean_and_scores() {
        let w = Probs::certain(Outcome::Win(Player::First));
        let d = Probs::certain(Outcome::Draw);
        let l = Probs::certain(Outcome::Win(Player::Second));
        let p = Probs::mean(&[w, d, l, w]).unwrap();
        assert_eq!(p.numerators(), [2, 1, 1]);
        assert_eq!(p.denom(), 4);
        assert_eq!(p.first().to_string(), "1/2");
        assert_eq!(
            p.score(Player::First, Ratio::HALF).unwrap().to_string(),
            "5/8"
        );
        assert_eq!(
            p.score(Player::Second, Ratio::ZERO).unwrap().to_string(),
            "1/4"
        );
        assert!(Probs::mean(&[]).is_err());
        assert_eq!(Probs::from_weights(0, 0, 0), None);
        let huge = Probs::from_weights(1, 0, u128::MAX - 1).unwrap();
        let other = Probs::from_weights(1, 0, u128::MAX - 2).unwrap();
        assert!(matches!(
            Probs::mean(&[huge, other]),
            Err(TreeError::Overflow { .. })
        ));
        // Each weight fits but their sum, 2 * 2^127, does not: still an overflow.
        let top = 1u128 << 127;
        let a = Probs::from_weights(top - 1, 0, 1).unwrap();
        let b = Probs::from_weights(1, 0, top - 1).unwrap();
        assert_eq!((a.denom(), b.denom()), (top, top));
        assert!(matches!(
            Probs::mean(&[a, b]),
            Err(TreeError::Overflow { .. })
        ));
        // Whereas the same sum one bit lower is fine.
        let a = Probs::from_weights(top / 2 - 1, 0, 1).unwrap();
        let b = Probs::from_weights(1, 0, top / 2 - 1).unwrap();
        assert_eq!(Probs::mean(&[a, b]).unwrap().numerators(), [1, 0, 1]);
    }
}
