//! The agent zoo of yomi and the registry that builds agents from spec strings.
//!
//! Every agent implements [`yomi_core::Agent`]. A [`Registry`] maps names to builders and checks
//! specs such as `pmc2:pnum=1000,alpha=0.5` against each agent's declared parameters, so a
//! misspelt name or parameter gets an error listing the valid ones. [`Zoo::zoo`] gives the
//! registry of every agent that plays a game.
//!
//! ```
//! use yomi_agents::Zoo;
//! use yomi_core::{Agent, Game, Rng};
//! use yomi_nim::Nim;
//! let mut agent = Nim::zoo().build("first")?;
//! let mv = agent.choose(&Nim::default(), &mut Rng::seed_from_u64(1))?;
//! assert_eq!(mv.count(), 1);
//! assert!(Nim::zoo().build("frist").is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod basic;
mod registry;

pub use basic::{register_generic, FirstAgent, RandomAgent};
pub use registry::{AgentInfo, BuildAgentError, ParamInfo, Params, Registry};

use yomi_core::Game;
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;

/// A game with a zoo: the registry of every agent that plays it.
pub trait Zoo: Game {
    /// A registry holding every agent for this game.
    fn zoo() -> Registry<Self>;
}

impl Zoo for TicTacToe {
    fn zoo() -> Registry<TicTacToe> {
        let mut r = Registry::empty();
        register_generic(&mut r);
        r
    }
}

impl Zoo for Nim {
    fn zoo() -> Registry<Nim> {
        let mut r = Registry::empty();
        register_generic(&mut r);
        r
    }
}

#[cfg(test)]
mod tests;
