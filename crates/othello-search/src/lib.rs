//! Othello search for yomi: an exact and a win/loss/draw **endgame solver** ([`Solver`]) and a
//! depth-limited **midgame search** ([`MidgameSearch`]) used by the `othello` playing agent,
//! which scores its leaves with any [`Evaluator`] of `yomi-othello-eval` (the learned
//! [`Weights`] or the hand-made [`HandEval`]; both re-exported here).
//!
//! # Scores
//! Every score is from the side to move: the final disc difference with the empty squares
//! given to the winner (so always even, in `-64..=64`). A win/loss/draw solve ([`Mode::Wld`])
//! only finds the sign: it returns -1, 0 or 1.
//!
//! ```
//! use yomi_othello_search::{Mode, Solver, SolverConfig};
//! use yomi_othello::Othello;
//!
//! // FFO position #1 (14 empties): black to move wins by 18 with g8.
//! let pos: Othello =
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".parse()?;
//! let mut solver = Solver::new(SolverConfig::default())?;
//! let exact = solver.solve(&pos, Mode::Exact);
//! assert_eq!(exact.score, 18);
//! assert_eq!(exact.best.map(|m| m.to_string()), Some("g8".to_string()));
//! assert_eq!(solver.solve(&pos, Mode::Wld).score, 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod bits;
mod book;
mod ffo;
mod kernel;
mod midgame;
mod review;
mod solver;
mod table;

pub use book::{
    depth_text, weights_digest, Book, BookBuilder, BookEntry, BookError, BookMove, BuildConfig,
    DeviateBudget, ParseBookError, RoundPart, RoundStamp, ENTRY_BYTES, EXACT_DEPTH, SHARED_BOOKS,
    WLD_DEPTH,
};
pub use ffo::{
    bench_header, bench_rows, bench_verdict, merge_bench, parse_obf, published, BenchMergeError,
    BenchRow, BenchShard, BenchTable, BenchVerdict, FfoError, FfoSuite, ObfFileError, Verdict,
};
pub use midgame::*;
pub use review::{
    score_in_discs, GameReview, MoveReview, ReviewConfig, ReviewError, Reviewer, ValueKind,
};
pub use solver::{
    solver_weights, solver_weights_file, BestFrom, Features, Mode, MoveValue, ParseFeatureError,
    ParseModeError, Solution, SolveError, Solver, SolverConfig,
};
pub use yomi_othello_eval::{hand_evaluate, Evaluator, HandEval, WeightError, Weights, EVAL_LIMIT};
