use thiserror::Error;

/// Why a move could not be played.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game had already ended.
    #[error("cannot play {mv}: the game is over in position {position}")]
    GameOver {
        /// The move, in the game's notation.
        mv: String,
        /// The position, in the game's notation.
        position: String,
    },
    /// The move is not one of the legal moves.
    #[error("illegal move {mv} in position {position}")]
    IllegalMove {
        /// The move, in the game's notation.
        mv: String,
        /// The position, in the game's notation.
        position: String,
    },
    /// A move in a move sequence did not parse.
    #[error("bad move {text:?}: {reason}")]
    BadMove {
        /// The text that failed to parse.
        text: String,
        /// The parser's message.
        reason: String,
    },
}
