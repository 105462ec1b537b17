//! Othello search for yomi: an exact and a win/loss/draw **endgame solver** ([`Solver`]), a
//! hand-made **evaluation** and a depth-limited **midgame search** used by the `othello`
//! playing agent.
//!
//! # Scores
//! Every score is from the side to move: the final disc difference with the empty squares
//! given to the winner (so always even, in `-64..=64`). A win/loss/draw solve ([`Mode::Wld`])
//! only finds the sign: it returns -1, 0 or 1.
//!
//! ```
//! use yomi_endgame::{Mode, Solver, SolverConfig};
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
mod eval;
mod kernel;
mod midgame;
mod solver;
mod table;

pub use eval::*;
pub use midgame::*;
pub use solver::{
    BestFrom, Dispatch, Features, Mode, MoveValue, ParseFeatureError, ParseModeError, Solution,
    SolveError, Solver, SolverConfig, PORTABLE_ENV,
};
