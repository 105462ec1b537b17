//! The training pipeline of the Othello pattern evaluation (`yomi train ...`).
//!
//! - [`generate`]: self-play games from random openings, played by a shallow fixed-depth
//!   search and, from about 20 empty squares, by exact solves, so the late labels are exact.
//!   Seeded (game `i` uses the random stream `(seed, i)`), parallel (the games do not depend
//!   on the thread count) and shardable ([`Shard`](yomi_core::Shard): `K/N` plays the games `i` with
//!   `i % N == K`; [`GameSet::merge`] joins the shards' files).
//! - Game files: the checked container of `yomi-core` ([`GAME_FILE`]).
//! - [`fit`]: per phase, full-batch Adam on the squared error with an L2 penalty (rarely seen
//!   configurations stay near zero), neighbouring phases sharing data, early stopping on
//!   held-out games; deterministic (fixed summation order).
//! - [`error_at`]: the mean absolute error against exact values at a number of empties.
//! - [`label`]: test sets without playing whole games exactly: the position of each game at
//!   a number of empties, solved exactly ([`LabelSet`], [`LABEL_FILE`]).
//! - [`search_values`]: labels from search, the value of a fixed-depth midgame search for
//!   every training position not labelled exactly ([`ValueSet`], [`VALUE_FILE`]), blended
//!   with the games' results by [`rows_from`] ([`RowSource`]); shardable like the games.
//! - [`probcut_stats`]: Multi-ProbCut's statistics for the midgame search (how deep search
//!   values follow shallow ones), measured on the positions of game files.
#![deny(missing_docs)]

mod fit;
mod games;
mod label;
mod probcut;
mod values;

pub use fit::{
    error_at, fit, fit_one_phase, phase_discs, phase_errors, rows, rows_from, FitConfig,
    PhaseReport, Row, RowCounts, RowSource,
};

pub use values::{
    evaluator_name, search_values, GameValues, ValueConfig, ValueSet, ValueStats, MAX_VALUE_DEPTH,
    VALUE_FILE, VALUE_TAG,
};

pub use label::{
    label, position_at, LabelConfig, LabelSet, LabelStats, Labelled, LABEL_FILE, LABEL_TAG,
    MAX_LABEL_EMPTIES,
};

pub use probcut::{probcut_stats, ProbCutConfig, ProbCutStat};

pub use games::{
    generate, play_game, GameConfig, GameRecord, GameSet, MovePicker, Sample, SearchPicker,
    GAME_FILE, GAME_TAG, PASS,
};
/// The hand-made evaluation (of `yomi-othello-eval`), to compare against.
pub use yomi_othello_eval::HandEval;

use thiserror::Error;
use yomi_core::ContainerError;
use yomi_othello_search::SolveError;

/// Why a training step failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum TrainError {
    /// A file is not a sound container file.
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// A stored game does not replay.
    #[error("game {index} does not replay: {reason}")]
    BadGame {
        /// The game's index.
        index: u64,
        /// What is wrong.
        reason: String,
    },
    /// A labelled position (or a request to label) that does not check out.
    #[error("labelled position of game {game}: {reason}")]
    BadLabel {
        /// The game's index.
        game: u64,
        /// What is wrong.
        reason: String,
    },
    /// Labelling asked for more empty squares than [`MAX_LABEL_EMPTIES`].
    #[error("{0} empties is above the most that can be labelled, {max}", max = MAX_LABEL_EMPTIES)]
    TooManyEmpties(u32),
    /// Inputs that do not belong together.
    #[error("inputs do not match: {0}")]
    Mismatch(String),
    /// Nothing to work on.
    #[error("no input")]
    NoInput,
    /// The endgame solver could not be built.
    #[error(transparent)]
    Solver(#[from] SolveError),
    /// Weights could not be made, read or written.
    #[error(transparent)]
    Weights(#[from] yomi_othello_eval::WeightError),
    /// The thread pool could not be started.
    #[error("could not start threads: {0}")]
    ThreadPool(String),
}

#[cfg(test)]
mod tests;
