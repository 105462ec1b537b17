//! The agent zoo of yomi and the registry that builds agents from spec strings.
//!
//! Every agent implements [`yomi_core::Agent`]. A [`Registry`] maps names to builders and checks
//! specs such as `pmc2:pnum=1000,alpha=0.5` against each agent's declared parameters, so a
//! misspelt name or parameter gets an error listing the valid ones. [`Zoo::zoo`] gives the
//! registry of every agent that plays a game.
//!
//! # The agents
//! - **Generic, any [`Game`](yomi_core::Game):** `random`, `first` ([`RandomAgent`],
//!   [`FirstAgent`]); primitive Monte Carlo `pmc`, `pmc2` ([`PmcAgent`]); UCT `mcts`
//!   ([`MctsAgent`]); `blunder` ([`BlunderAgent`]), which wraps any agent built from a nested
//!   spec.
//! - **Generic, any [`Game`](yomi_core::Game) + [`LeafEval`](yomi_core::LeafEval):**
//!   `greedy`, `minimax`, `alphabeta`, `average` ([`SearchAgent`]). A finished game is worth
//!   [`WIN_VALUE`] to the winner; an unfinished one at the depth limit its leaf evaluation.
//! - **Othello only:** `othello` ([`OthelloAgent`]), the engine of `yomi-othello-search`: alpha-beta
//!   with a learned (or hand-made) evaluation, then win/loss/draw and exact endgame solves;
//!   `othello:level=N` picks one of the strength levels of [`OTHELLO_LEVELS`].
//! - **Tic-tac-toe only:** the study's `ai1` .. `ai14s` ([`StudyAgent`], [`StudyRule`]).
//! - **External engines, every game:** `engine` ([`register_engine`]) starts a program and
//!   plays through NBoard or GTP ([`yomi_protocol::ExternalEngine`]). It is not in
//!   [`Zoo::zoo`]: a spec could start any program, so only [`zoo_with_engines`] has it, for
//!   command lines a user types (never for specs from a network request).
//! - **Games small enough to solve (tic-tac-toe, the stone game):** `perfect`, `perfect-sv`,
//!   `pmc-exact`, `pmc2-exact`, `table` ([`register_tree`]), which read the exact game tree of
//!   `yomi-tree`.
//!
//! Every agent explains its choice (a score and labelled parts per legal move, the best set,
//! the move chosen), and `choose` draws from the generator exactly as `explain` does. Ties
//! between equally good moves are broken at random. The catalogue with every parameter is
//! `docs/agents.md`.
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
//!
//! An explanation, on the study's worked example (X to move after O (1,1), X (0,0), O (2,2)):
//!
//! ```
//! use yomi_agents::Zoo;
//! use yomi_core::{Agent, Game, Rng};
//! use yomi_tictactoe::TicTacToe;
//! let pos = TicTacToe::new().play_line("(1,1) (0,0) (2,2)")?;
//! let mut agent = TicTacToe::zoo().build("ai11s:score_102=0.5")?;
//! let why = agent.explain(&pos, &mut Rng::seed_from_u64(1))?;
//! let best: Vec<String> = why.best.iter().map(ToString::to_string).collect();
//! assert_eq!(best, ["(2,0)", "(0,2)"]);
//! assert!(why.best.contains(&why.chosen));
//! // Each move shows its pattern counts and the rule that fired.
//! assert_eq!(why.moves[1].note.as_deref(), Some("lines"));
//! assert_eq!(why.moves[1].parts[0].label, "201");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod analysis;
mod basic;
mod blunder;
mod common;
mod engine;
mod games;
mod mcts;
mod montecarlo;
mod othello_agent;
mod othello_levels;
mod registry;
mod search;
mod small_othello_agent;
mod study;
mod tree;
mod weight;
mod zoo;

pub use analysis::{
    analyse_position, interpret, othello_analyst, result_value, score_value, AnalysedKind,
    AnalysedValue, AnalysisError, Analyst, PositionAnalysis, ValueUnit, FORCED_STEPS, LINE_MOVES,
    LINE_STEP_SHARE, OTHELLO_ANALYST,
};
pub use basic::{register_generic, FirstAgent, RandomAgent};
pub use blunder::BlunderAgent;
pub use common::WIN_VALUE;
pub use engine::{register_engine, zoo_with_engines};
#[doc(hidden)]
pub use games::__types as __game_types;
pub use games::{known_game_names, known_games, GameKind, UnknownGameError};
pub use mcts::MctsAgent;
pub use montecarlo::{PmcAgent, PmcScore};
pub use othello_agent::{
    OthelloAgent, OthelloEval, OthelloSettings, ParseEvalError, OTHELLO_MOVE_KINDS,
};
pub use othello_levels::{agent_levels, OthelloLevel, MAX_LEVEL, OTHELLO_LEVELS};
pub use registry::{AgentInfo, BuildAgentError, ParamInfo, Params, Registry};
pub use search::{RootValue, SearchAgent, SearchMethod, SearchResult};
pub use small_othello_agent::{
    register_small_othello, small_evaluation, SmallOthelloAgent, SmallOthelloSettings,
    SMALL_FINAL_SCALE,
};
pub use study::{StudyAgent, StudyRule};
pub use tree::register_tree;
pub use weight::{ParseWeightError, Weight};
pub use zoo::{
    register_blunder, register_montecarlo, register_search, register_standard, register_study,
    SearchDefaults, Zoo,
};

#[cfg(test)]
mod tests;
