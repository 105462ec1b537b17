//! The narrow traits everything in yomi is built on.
//!
//! `yomi-core` is the bottom of the workspace: board crates implement its [`Game`] trait (and
//! the optional capabilities [`Symmetric`], [`HashKey`], [`FinalScore`], [`LeafEval`]); the tree
//! builder, the agents and the match harness are written against these traits and never name a
//! concrete board. Agents implement the object-safe [`Agent`] trait and are described by
//! [`AgentSpec`] strings such as `pmc2:pnum=1000,alpha=0.5`.
//!
//! Randomness is always injected: every agent receives a [`Rng`] (Xoshiro256++, implemented
//! here so that seeds replay on any platform and `rand` version).
//!
//! ```
//! use yomi_core::{AgentSpec, Rng};
//! // Agents are named by spec strings; nested specs go in brackets.
//! let spec: AgentSpec = "blunder:p=0.1,agent=(pmc2:pnum=1000)".parse()?;
//! assert_eq!(spec.get("agent"), Some("pmc2:pnum=1000"));
//! // The same seed and stream index give the same numbers everywhere.
//! let mut a = Rng::for_stream(1, 42);
//! let mut b = Rng::for_stream(1, 42);
//! assert_eq!(a.below(9), b.below(9));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Data files (tree files, Othello weights, self-play games) share one checked format,
//! [`Container`]: magic bytes, version, tag, record count, length and checksum, then bincode.
//!
//! Sharded runs (matches, leagues, benches, training stages) split their items with one
//! [`Shard`] (`K/N`) and put the parts together with one [`merge_shards`].
//!
//! Long computations (solves, searches, matches) stop through one mechanism: [`Limits`] (a
//! time limit, a node budget, a [`StopFlag`] set from outside) started as a [`Watch`].
//!
//! # Feature flags
//! - `testing`: the contract suite (`testing::Contract`) that game crates run in their tests.
#![deny(missing_docs)]

mod agent;
mod clock;
mod container;
mod error;
mod game;
mod movelist;
mod perft;
mod player;
mod rng;
mod shard;
mod spec;
mod stop;
#[cfg(feature = "testing")]
pub mod testing;

pub use agent::{Agent, AgentError, Explanation, Forfeit, MoveScore, Part};
pub use clock::{Clock, OutOfTime, ParseTimeControlError, TimeControl};
pub use container::{
    fnv1a64, Container, ContainerError, ContainerHeader, HEADER_LEN, MAX_PAYLOAD, TAG_LEN,
};
pub use error::PlayError;
pub use game::{reference_playout, FinalScore, Game, HashKey, LeafEval, Symmetric};
pub use movelist::{IntoIter as MoveListIntoIter, MoveList};
pub use perft::{perft, PerftCount};
pub use player::{GameResult, Outcome, Player};
pub use rng::{splitmix64, Rng};
pub use shard::{merge_shards, ParseShardError, Shard, ShardMergeError};
pub use spec::{AgentSpec, ParseSpecError};
pub use stop::{Limits, NodeCount, ParseLimitError, Seconds, StopFlag, StopReason, Watch};
