//! The match harness of yomi: many games between two agents, colours alternating, seeded, on
//! every core.
//!
//! A match of `rounds` rounds plays, for each round, one game with agent A moving first and one
//! with agent B moving first (as the study's `ai_match` does). Game `i` draws its random
//! numbers from `Rng::for_stream(seed, i)` and uses freshly built agents, so the counts are the
//! same whatever the number of threads and whichever thread plays which game. Results are from
//! A's side: wins, losses and draws when A moved first, when A moved second, and in total, with
//! ratios and 95% Wilson score intervals. The library never prints: progress goes to an
//! observer callback that can also stop the match.
//!
//! ```
//! use std::ops::ControlFlow;
//! use yomi_agents::{FirstAgent, RandomAgent};
//! use yomi_arena::{play_match, MatchConfig};
//! use yomi_tictactoe::TicTacToe;
//! let config = MatchConfig { rounds: 100, seed: 7, threads: Some(1) };
//! let result = play_match(
//!     &TicTacToe::default(),
//!     &config,
//!     || RandomAgent,
//!     || FirstAgent,
//!     |_| ControlFlow::Continue(()),
//! )?;
//! assert_eq!(result.total().games(), 200);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod harness;
mod stats;

pub use harness::{
    play_game, play_match, seat_names, AgentTime, MatchConfig, MatchError, MatchResult, Progress,
    MAX_ROUNDS,
};
pub use stats::{wilson, Ratio, Tally, Z95};

#[cfg(test)]
mod tests;
