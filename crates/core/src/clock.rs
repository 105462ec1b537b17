//! Game clocks: a time control (`BASE+INC`) and the clock a side plays its moves with.
//!
//! A [`TimeControl`] is a match setting: each side starts with `base` and gets `increment`
//! back after each of its moves (engine testers write it `BASE+INC` in seconds, `5+0.05`). A
//! [`Clock`] is one side's clock as a game stands; a harness or an engine protocol charges it
//! after each move ([`Clock::charge`]) and hands it to the agent before the next one
//! ([`Agent::set_clock`](crate::Agent::set_clock)), which plans its time from it. The per-move
//! [`Limits`](crate::Limits) still bound every move, as before.
//!
//! ```
//! use std::time::Duration;
//! use yomi_core::{Clock, TimeControl};
//!
//! let tc: TimeControl = "5+0.05".parse()?;
//! let mut clock = Clock::start(&tc);
//! clock.charge(Duration::from_millis(300))?;
//! assert_eq!(clock.remaining, Duration::from_millis(4750));
//! // Too slow: out of time.
//! assert!(clock.charge(Duration::from_secs(6)).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use thiserror::Error;

/// A time control: `base` for each side's game and `increment` added after each of its
/// moves. Notation `BASE+INC` in seconds (`5+0.05`, `900+0`), or `BASE` alone for no
/// increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    /// Each side's time for the game.
    pub base: Duration,
    /// The time a side gets back after each of its moves.
    pub increment: Duration,
}

/// A time control that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad time control {text:?}: {reason} (expected BASE+INC in seconds, e.g. 5+0.05, or BASE)")]
pub struct ParseTimeControlError {
    /// The text.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// Seconds written in a time control: a finite number of 0 or more.
fn seconds(text: &str) -> Option<Duration> {
    let v: f64 = text.trim().parse().ok()?;
    if !v.is_finite() || v < 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(v).ok()
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let bad = |reason| ParseTimeControlError {
            text: s.to_string(),
            reason,
        };
        let (base, increment) = match s.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (s, None),
        };
        let base = seconds(base).ok_or_else(|| bad("the base is not seconds of 0 or more"))?;
        let increment = match increment {
            None => Duration::ZERO,
            Some(i) => {
                seconds(i).ok_or_else(|| bad("the increment is not seconds of 0 or more"))?
            }
        };
        if base.is_zero() && increment.is_zero() {
            return Err(bad("a clock of no time at all"));
        }
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// `BASE+INC` in seconds, as short as it reads back (`5+0.05`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.base.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

/// A move that took longer than the time its side had left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("out of time: the move took {elapsed:?} with {remaining:?} left")]
pub struct OutOfTime {
    /// The time the move took.
    pub elapsed: Duration,
    /// The time the side had before it.
    pub remaining: Duration,
}

/// The share of a flat per-move time an engine plans to use: the rest covers starting and
/// stopping the search and sending the reply.
const FLAT_SAFETY: f64 = 0.8;

/// The least time [`Clock::flat_share`] gives a move.
const FLAT_FLOOR: Duration = Duration::from_millis(5);

/// One side's clock as a game stands: the time it has left, the time that comes back after
/// each of its moves, and the number of moves the time must last when the control says so
/// (a GUI's "moves to go", a byo-yomi period's stones).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The time left.
    pub remaining: Duration,
    /// The time added after each move.
    pub increment: Duration,
    /// How many moves `remaining` must last, when the control fixes it.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// The clock of a side at the start of a game under `control`.
    #[must_use]
    pub fn start(control: &TimeControl) -> Clock {
        Clock {
            remaining: control.base,
            increment: control.increment,
            moves_to_go: None,
        }
    }

    /// Charges a move that took `elapsed`: the time left less `elapsed`, then the increment
    /// (and one move fewer to go).
    ///
    /// # Errors
    /// [`OutOfTime`] when the move took longer than the time left; the clock then stands at
    /// zero.
    pub fn charge(&mut self, elapsed: Duration) -> Result<(), OutOfTime> {
        if elapsed > self.remaining {
            let err = OutOfTime {
                elapsed,
                remaining: self.remaining,
            };
            self.remaining = Duration::ZERO;
            return Err(err);
        }
        self.remaining = self.remaining - elapsed + self.increment;
        self.moves_to_go = self.moves_to_go.map(|m| m.saturating_sub(1));
        Ok(())
    }

    /// A flat time for the next move: the time left spread over `moves_to_go` (or, without
    /// one, `moves_left`, the caller's estimate of the side's moves still to play) plus the
    /// increment, of which 80% is planned (the rest covers starting, stopping and replying),
    /// and never under 5 ms. What the engine protocols gave agents before agents planned
    /// their own time.
    #[must_use]
    pub fn flat_share(&self, moves_left: u32) -> Duration {
        let moves = self.moves_to_go.unwrap_or(moves_left).max(1);
        let share = self.remaining.as_secs_f64() / f64::from(moves) + self.increment.as_secs_f64();
        Duration::try_from_secs_f64(share * FLAT_SAFETY)
            .unwrap_or(Duration::MAX)
            .max(FLAT_FLOOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse_print_and_refuse() {
        let tc: TimeControl = "5+0.05".parse().unwrap();
        assert_eq!(tc.base, Duration::from_secs(5));
        assert_eq!(tc.increment, Duration::from_millis(50));
        assert_eq!(tc.to_string(), "5+0.05");
        for text in ["900+0", "0.5+0.01", "60+2", "0+1"] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.to_string(), text);
            assert_eq!(tc.to_string().parse::<TimeControl>().unwrap(), tc);
        }
        let plain: TimeControl = " 60 ".parse().unwrap();
        assert_eq!(plain.increment, Duration::ZERO);
        assert_eq!(plain.to_string(), "60+0");
        for (bad, says) in [
            ("10+", "increment"),
            ("-5+1", "base"),
            ("abc", "base"),
            ("", "base"),
            ("5+x", "increment"),
            ("inf+0", "base"),
            ("0+0", "no time"),
            ("1+2+3", "increment"),
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.to_string().contains(says), "{bad}: {err}");
            assert!(err.to_string().contains("BASE+INC"), "{err}");
        }
    }

    #[test]
    fn a_clock_charges_moves_and_flags() {
        let mut c = Clock::start(&"1+0.1".parse().unwrap());
        c.moves_to_go = Some(3);
        c.charge(Duration::from_millis(400)).unwrap();
        assert_eq!(c.remaining, Duration::from_millis(700));
        assert_eq!(c.moves_to_go, Some(2));
        c.charge(Duration::from_millis(700)).unwrap();
        assert_eq!(c.remaining, Duration::from_millis(100));
        let err = c.charge(Duration::from_millis(101)).unwrap_err();
        assert_eq!(err.remaining, Duration::from_millis(100));
        assert_eq!(c.remaining, Duration::ZERO);
    }

    #[test]
    fn the_flat_share_is_a_safe_part_of_the_time_left() {
        let clock = |secs: f64, inc: f64, to_go| Clock {
            remaining: Duration::from_secs_f64(secs),
            increment: Duration::from_secs_f64(inc),
            moves_to_go: to_go,
        };
        assert_eq!(
            clock(10.0, 0.0, None).flat_share(10),
            Duration::from_millis(800)
        );
        assert_eq!(
            clock(10.0, 1.0, None).flat_share(0),
            Duration::from_millis(8800)
        );
        assert_eq!(
            clock(10.0, 0.0, Some(5)).flat_share(50),
            Duration::from_millis(1600)
        );
        assert_eq!(clock(0.0, 0.0, None).flat_share(5), FLAT_FLOOR);
    }
}
