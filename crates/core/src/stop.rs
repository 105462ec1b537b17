//! The one stop mechanism of every long computation: a deadline, a node budget and a shared
//! stop flag.
//!
//! A caller describes what may stop a computation with [`Limits`]; the computation turns them
//! into a running [`Watch`] when it starts and polls it every few thousand nodes. A
//! [`StopFlag`] is a cheap handle that another thread sets to stop it from outside: the CLI's
//! Ctrl-C handler, a web request whose connection closed, an engine protocol's `ping`.
//!
//! ```
//! use std::time::Duration;
//! use yomi_core::{Limits, StopFlag, StopReason};
//!
//! let flag = StopFlag::new();
//! let limits = Limits::none().with_nodes(10_000).with_flag(flag.clone());
//! let watch = limits.start();
//! // A search adds the nodes it searched since its last poll.
//! assert!(watch.poll(4_096).is_none());
//! assert_eq!(watch.poll(8_192), Some(StopReason::Nodes));
//! // Once stopped, a watch stays stopped with its first reason.
//! flag.stop();
//! assert_eq!(watch.reason(), Some(StopReason::Nodes));
//! # let _ = Duration::ZERO;
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;

/// A shared flag that stops a computation from another thread (a signal handler, a server
/// whose client went away, a protocol command). Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not set.
    #[must_use]
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Sets the flag: every computation watching it stops at its next poll.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is set.
    #[must_use]
    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clears the flag, so that the next computation can run (e.g. after a `ping`).
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Why a computation stopped before it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// Its time limit ran out.
    Time,
    /// Its node budget was spent.
    Nodes,
    /// Its [`StopFlag`] was set (Ctrl-C, a closed connection, a protocol command).
    Interrupted,
}

impl StopReason {
    fn code(self) -> u8 {
        match self {
            StopReason::Time => 1,
            StopReason::Nodes => 2,
            StopReason::Interrupted => 3,
        }
    }

    fn from_code(code: u8) -> Option<StopReason> {
        match code {
            1 => Some(StopReason::Time),
            2 => Some(StopReason::Nodes),
            3 => Some(StopReason::Interrupted),
            _ => None,
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StopReason::Time => "time limit",
            StopReason::Nodes => "node limit",
            StopReason::Interrupted => "interrupted",
        })
    }
}

/// What may stop a computation: a time limit, a node budget and a stop flag. The default
/// (and [`Limits::none`]) is no time limit, no node limit and a flag of its own that nobody
/// else holds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The time from [`Limits::start`] after which the computation stops.
    pub time: Option<Duration>,
    /// The nodes after which the computation stops.
    pub nodes: Option<u64>,
    /// The flag that stops it from outside.
    pub flag: StopFlag,
}

impl Limits {
    /// No limits.
    #[must_use]
    pub fn none() -> Limits {
        Limits::default()
    }

    /// These limits with a time limit.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Limits {
        self.time = Some(time);
        self
    }

    /// These limits with a node budget.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits watching `flag` (a clone of the caller's flag).
    #[must_use]
    pub fn with_flag(mut self, flag: StopFlag) -> Limits {
        self.flag = flag;
        self
    }

    /// Whether nothing but the flag can stop a computation.
    #[must_use]
    pub fn is_unlimited(&self) -> bool {
        self.time.is_none() && self.nodes.is_none()
    }

    /// Starts the clock: the running watch of a computation under these limits.
    #[must_use]
    pub fn start(&self) -> Watch {
        let now = Instant::now();
        Watch {
            start: now,
            deadline: self.time.and_then(|t| now.checked_add(t)),
            budget: self.nodes.unwrap_or(u64::MAX),
            nodes: AtomicU64::new(0),
            flag: self.flag.clone(),
            reason: AtomicU8::new(0),
        }
    }
}

/// A computation's limits while it runs: shared by reference between its threads. Searches
/// count nodes locally and [`Watch::poll`] every few thousand, so the hot path touches no
/// shared memory; [`Watch::stopped`] is one relaxed load.
#[derive(Debug)]
pub struct Watch {
    start: Instant,
    deadline: Option<Instant>,
    budget: u64,
    nodes: AtomicU64,
    flag: StopFlag,
    reason: AtomicU8,
}

impl Watch {
    /// A watch that never stops by itself (only its own, unshared flag, which nobody sets).
    #[must_use]
    pub fn unlimited() -> Watch {
        Limits::none().start()
    }

    /// Adds `new_nodes` (searched since this thread's last poll) to the total, checks the
    /// limits and returns why the computation must stop, if it must. The first reason found
    /// sticks.
    pub fn poll(&self, new_nodes: u64) -> Option<StopReason> {
        let total = self.nodes.fetch_add(new_nodes, Ordering::Relaxed) + new_nodes;
        if let Some(reason) = self.reason() {
            return Some(reason);
        }
        let reason = if self.flag.is_set() {
            Some(StopReason::Interrupted)
        } else if total >= self.budget {
            Some(StopReason::Nodes)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Time)
        } else {
            None
        };
        match reason {
            Some(r) => {
                // Keep the first reason if another thread got there first.
                let _ =
                    self.reason
                        .compare_exchange(0, r.code(), Ordering::Relaxed, Ordering::Relaxed);
                self.reason()
            }
            None => None,
        }
    }

    /// Whether the computation must stop (as found by the last poll of any thread).
    #[inline]
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.reason.load(Ordering::Relaxed) != 0
    }

    /// Why the computation stopped, `None` while it may go on.
    #[must_use]
    pub fn reason(&self) -> Option<StopReason> {
        StopReason::from_code(self.reason.load(Ordering::Relaxed))
    }

    /// The nodes reported through [`Watch::poll`] so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// The time since the watch started.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The time left before the deadline (`None` without a time limit; zero once past it).
    #[must_use]
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// A limit given on a command line or in a request that is not a positive number.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseLimitError {
    /// A time that is not a positive, finite number of seconds.
    #[error("invalid time limit `{0}`: expected a positive number of seconds")]
    Time(String),
    /// A node count that is not a positive integer.
    #[error("invalid node limit `{0}`: expected a positive whole number of nodes")]
    Nodes(String),
}

/// A time limit in seconds, as written on a command line (`--time 2.5`): positive and finite.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seconds(pub Duration);

impl FromStr for Seconds {
    type Err = ParseLimitError;

    fn from_str(s: &str) -> Result<Seconds, ParseLimitError> {
        let err = || ParseLimitError::Time(s.to_string());
        let secs: f64 = s.trim().parse().map_err(|_| err())?;
        if !secs.is_finite() || secs <= 0.0 || secs > 1e9 {
            return Err(err());
        }
        Ok(Seconds(Duration::from_secs_f64(secs)))
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.as_secs_f64())
    }
}

/// A node budget as written on a command line (`--nodes 1000000`): a positive integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeCount(pub u64);

impl FromStr for NodeCount {
    type Err = ParseLimitError;

    fn from_str(s: &str) -> Result<NodeCount, ParseLimitError> {
        match s.trim().replace('_', "").parse::<u64>() {
            Ok(n) if n > 0 => Ok(NodeCount(n)),
            _ => Err(ParseLimitError::Nodes(s.to_string())),
        }
    }
}

impl fmt::Display for NodeCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_stops_and_resets() {
        let flag = StopFlag::new();
        let watch = Limits::none().with_flag(flag.clone()).start();
        assert_eq!(watch.poll(1), None);
        assert!(!watch.stopped());
        flag.stop();
        assert_eq!(watch.poll(1), Some(StopReason::Interrupted));
        assert!(watch.stopped());
        flag.reset();
        assert!(!flag.is_set());
        // A watch keeps its reason; a new one runs.
        assert!(watch.stopped());
        assert_eq!(Limits::none().with_flag(flag).start().poll(1), None);
    }

    #[test]
    fn node_budget_counts_all_polls() {
        let watch = Limits::none().with_nodes(100).start();
        assert_eq!(watch.poll(60), None);
        assert_eq!(watch.nodes(), 60);
        assert_eq!(watch.poll(40), Some(StopReason::Nodes));
        assert_eq!(watch.reason(), Some(StopReason::Nodes));
    }

    #[test]
    fn deadline_passes() {
        let watch = Limits::none().with_time(Duration::from_millis(1)).start();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(watch.poll(0), Some(StopReason::Time));
        assert_eq!(watch.remaining(), Some(Duration::ZERO));
        assert_eq!(Watch::unlimited().remaining(), None);
    }

    #[test]
    fn threads_share_one_watch() {
        let watch = Limits::none().with_nodes(1000).start();
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    for _ in 0..100 {
                        watch.poll(10);
                    }
                });
            }
        });
        assert_eq!(watch.nodes(), 4000);
        assert_eq!(watch.reason(), Some(StopReason::Nodes));
    }

    #[test]
    fn limits_parse_and_reject() {
        assert_eq!(
            "2.5".parse::<Seconds>(),
            Ok(Seconds(Duration::from_millis(2500)))
        );
        for bad in ["0", "-1", "abc", "", "inf", "NaN"] {
            assert!(bad.parse::<Seconds>().is_err(), "{bad}");
        }
        assert_eq!("1_000".parse::<NodeCount>(), Ok(NodeCount(1000)));
        for bad in ["0", "-5", "1.5", "x", ""] {
            assert!(bad.parse::<NodeCount>().is_err(), "{bad}");
        }
        let s = Seconds(Duration::from_millis(1500));
        assert_eq!(s.to_string().parse::<Seconds>(), Ok(s));
        assert_eq!("77".parse::<NodeCount>().unwrap().to_string(), "77");
    }
}
