//! A learned pattern evaluation of Othello positions, in the tradition of Logistello and Edax.
//!
//! - **Patterns** ([`PATTERNS`]): the edges with their X-squares, the 3x3 and 2x5 corners,
//!   rows and columns 2 to 4, and the diagonals of length 4 to 8, each in all its symmetric
//!   placements (46 in all) sharing one weight table per pattern.
//! - **Phases**: a weight set per game phase, chosen by the number of discs.
//! - **Exactly symmetric**: the 8 board symmetries give the same value (weights of the
//!   configurations a pattern's own symmetries exchange are one weight), and the value is
//!   from the side to move, so the same position with the colours swapped has the same value
//!   for its side to move (and the opposite value for black).
//! - **Fast**: table-driven indices: a placement's discs are collected and turned into its
//!   ternary configuration by one small table per placement. Two compiled copies, chosen
//!   when the weights are made ([`Weights::cpu`], from `yomi_othello::cpu`): on x86-64 CPUs
//!   with AVX2, BMI1/2, POPCNT and LZCNT one `pext` collects each placement; elsewhere (or
//!   with `YOMI_PORTABLE=1`) shifts, masks and multiplications do, from the board or its
//!   transpose.
//! - **Weight file** ([`WEIGHT_FILE`]): the checked container of `yomi-core`; the default
//!   weights are built into the binary ([`Weights::builtin`]).
//!
//! Searches use any evaluation through the [`Evaluator`] trait: the learned [`Weights`], or the
//! hand-made [`HandEval`] (mobility, corners, X- and C-squares, stable discs, parity) to
//! compare against.
//!
//! ```
//! use yomi_othello::Othello;
//! use yomi_othello_eval::{Evaluator, Weights};
//! let w = Weights::builtin();
//! let start = Othello::new();
//! let v = w.evaluate(start.player().0, start.opponent().0);
//! assert!(v.abs() < 300, "the start is about even: {v}");
//! ```
#![deny(missing_docs)]

mod fast;
mod features;
mod hand;
mod patterns;
mod weights;

pub use features::{feature_entries, Feature, ParseFeatureError, FEATURES};
pub use hand::{hand_evaluate, HandEval};
pub use patterns::{Layout, Pattern, PATTERNS};
pub use weights::{phase_of, table_len, WeightError, Weights, MAX_PHASES, WEIGHT_FILE, WEIGHT_TAG};

/// The largest absolute value an [`Evaluator`] returns (300 discs in hundredths).
pub const EVAL_LIMIT: i32 = 30_000;

/// A static evaluation of Othello positions, as a search uses it.
///
/// Contract: `evaluate(p, o)`, for the disjoint discs `p` of the side to move and `o` of its
/// opponent, is the value of the position for the side to move in hundredths of a disc
/// (positive: good for the mover), within `-EVAL_LIMIT..=EVAL_LIMIT`. It depends only on its
/// arguments (never on earlier calls) and does not allocate.
pub trait Evaluator: std::fmt::Debug + Send + Sync {
    /// The value of the position for the side to move.
    fn evaluate(&self, p: u64, o: u64) -> i32;

    /// [`evaluate`](Self::evaluate) for a caller that already has the legal moves of the side
    /// to move, `moves_p` (the squares of `yomi_othello::moves(p, o)`): the same value. An
    /// evaluation with global features uses them instead of generating them again.
    #[inline]
    fn evaluate_with_moves(&self, p: u64, o: u64, moves_p: u64) -> i32 {
        let _ = moves_p;
        self.evaluate(p, o)
    }

    /// A short name for reports (`learned`, `hand`).
    fn name(&self) -> &'static str;
}

#[cfg(test)]
mod tests;
