//! The error of a command that stopped early (a limit or Ctrl-C), and its exit statuses.

use std::fmt;

use yomi_core::StopReason;

/// The exit status of a `solve` or `bench` that a `--time` or `--nodes` limit stopped before
/// it finished (with no wrong score).
pub const EXIT_LIMIT: u8 = 3;
/// The exit status of a command interrupted by Ctrl-C (or SIGTERM) after its partial report.
pub const EXIT_INTERRUPTED: u8 = 130;

/// A command that stopped early: its report is printed; main exits with `code`.
#[derive(Debug)]
pub struct Stopped {
    /// The exit status.
    pub code: u8,
    /// What stopped it.
    pub message: String,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Stopped {}

impl Stopped {
    pub(crate) fn from_reason(reason: StopReason, what: &str) -> Stopped {
        Stopped {
            code: match reason {
                StopReason::Interrupted => EXIT_INTERRUPTED,
                StopReason::Time | StopReason::Nodes => EXIT_LIMIT,
            },
            message: format!("{what} stopped ({reason}) before it finished"),
        }
    }
}
