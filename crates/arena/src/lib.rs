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
//! Beyond that ([`run_match`] with [`RunOptions`]):
//! - **Elo** ([`EloEstimate`]): the Elo difference with its 95% interval, the likelihood of
//!   superiority and the normalized Elo, from game counts (trinomial model) or from game pairs
//!   (pentanomial model, the right error for paired games); see the `elo` formulas on
//!   [`Scores`] and [`Sprt`].
//! - **SPRT** ([`Sprt`]): a sequential test counted in game order, so the match stops at the
//!   same pair at any thread count.
//! - **Openings** ([`Openings`]): round `r` plays both colours from one opening.
//! - **Shards** ([`Shard`]): shard `K/N` plays the games with index `K mod N`;
//!   [`MatchResult::merge`] puts shards together into the whole match's result.
//! - **Stopping and resuming**: a [`StopFlag`](yomi_core::StopFlag) ends the match keeping
//!   the finished games; [`RunOptions::prior`] counts games already played, so a resumed match
//!   gives the uninterrupted result. An [`Observer`] sees every game as it finishes (to record
//!   it) on the calling thread.
//! - **Records** ([`Recorder`]): every finished game appended to a JSON-lines file, or a GGF
//!   file for Othello, read back by [`Recorder::resume`] into the prior games of a resumed run.
//! - **Adjudication** ([`Adjudicator`], [`RunOptions::adjudicator`]): a game ends where the
//!   adjudicator proves how perfect play would end it; [`SolveAdjudicator`] does it for
//!   Othello by endgame solve from a number of empties (`exact=E` or `wld=E`).
//! - **Opening generation** ([`generate_openings`]): random lines kept when a rating function
//!   (a search) calls them balanced, the same at any thread count.
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

mod adjudicate;
mod elo;
mod generate;
mod harness;
mod merge;
mod openings;
mod outcomes;
mod record;
mod result;
mod stats;

pub use adjudicate::{
    Adjudicator, GameAdjudication, ParseAdjudicatorError, SolveAdjudicator, Verdict,
    MAX_ADJUDICATE_EMPTIES,
};
pub use elo::{
    elo_of_score, normal_cdf, score_of_elo, EloEstimate, EloKind, Hypothesis, Model,
    ParseSprtError, Pentanomial, Scores, Sprt,
};
pub use generate::{
    generate_openings, openings_file_text, play_on, random_line, GenerateConfig, GenerateError,
    GenerateProgress, GeneratedOpening, GeneratedOpenings, OpeningSource,
};
pub use harness::{
    play_game, play_match, run_match, seat_names, FinishedGame, NoObserver, Observer, RunOptions,
    MAX_ROUNDS,
};
pub use merge::MergeError;
pub use openings::{Opening, OpeningOrder, Openings, OpeningsError, OpeningsInfo};
pub use outcomes::Outcomes;
pub use record::{
    ggf_record, record_header, GameLine, PriorGames, RecordError, RecordFormat, Recorder,
    RECORD_VERSION,
};
pub use result::{
    AgentTime, End, GameForfeit, KindCount, MatchConfig, MatchError, MatchResult, PhaseTime,
    Progress, Seat, SprtReport,
};
pub use stats::{wilson, Ratio, Tally, Z95};
/// The shard type of every sharded yomi command, re-exported from `yomi_core`.
pub use yomi_core::{ParseShardError, Shard};

#[cfg(test)]
mod adjudicate_tests;
#[cfg(test)]
mod elo_tests;
#[cfg(test)]
mod harness_tests;
#[cfg(test)]
mod record_tests;
#[cfg(test)]
mod tests;
