use thiserror::Error;

use crate::FileError;

/// Why the tree builder, a tree file or a tree agent failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TreeError {
    /// More distinct positions are reachable than the build allows.
    #[error("the game has more than {limit} distinct positions")]
    TooManyPositions {
        /// The cap.
        limit: usize,
    },
    /// A position can be reached from itself: the game does not always end.
    #[error("the game does not end: position {position} repeats")]
    Cycle {
        /// A position on the cycle.
        position: String,
    },
    /// An unfinished position has no legal move (the game breaks the core contract).
    #[error("unfinished position {position} has no legal move")]
    NoMoves {
        /// The position.
        position: String,
    },
    /// An exact number does not fit in 128 (or 64) bits.
    #[error("exact arithmetic overflow in {what}")]
    Overflow {
        /// Which number.
        what: &'static str,
    },
    /// The position is not in the tree or table.
    #[error("position {position} is not in the tree data")]
    NotInTree {
        /// The position.
        position: String,
    },
    /// A tree file could not be written or read.
    #[error(transparent)]
    File(#[from] FileError),
    /// An agent spec names no tree agent or has bad parameters.
    #[error("bad tree agent spec {spec:?}: {reason}")]
    BadSpec {
        /// The spec.
        spec: String,
        /// What is wrong.
        reason: String,
    },
}
