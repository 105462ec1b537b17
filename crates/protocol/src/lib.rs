//! Engine protocols for yomi: play any agent through NBoard or GTP, and play external engines
//! as agents.
//!
//! # Engine side
//! [`run_nboard`] and [`run_gtp`] run a session over any reader and writer (standard input
//! and output for `yomi engine`) with an agent the caller builds ([`AgentFactory`]). Commands
//! are read on a thread of their own and the agent thinks on a worker thread, so a `ping`
//! (NBoard) or `quit` stops it through the agent's [`StopFlag`](yomi_core::StopFlag) (see
//! [`Agent::set_limits`](yomi_core::Agent::set_limits)) and is answered at once. Every reply
//! line is flushed. Game `i` of a session (counted by `clear_board`, or by a `set game` that
//! does not continue the current game, from [`EngineOptions::first_game`]) draws from
//! `Rng::for_stream(seed, i)`, as game `i` of a match does.
//!
//! ```
//! use std::io::Cursor;
//! use yomi_core::Agent;
//! use yomi_othello::Othello;
//! use yomi_protocol::{run_gtp, AgentFactory, EngineOptions};
//!
//! #[derive(Debug)]
//! struct First;
//! impl Agent<Othello> for First {
//!     fn spec(&self) -> String { "first".into() }
//!     fn explain(&mut self, pos: &Othello, _: &mut yomi_core::Rng)
//!         -> Result<yomi_core::Explanation<yomi_othello::Move>, yomi_core::AgentError> {
//!         use yomi_core::{Explanation, Game, MoveScore};
//!         let moves = pos.legal_moves().iter().map(|&m| MoveScore::new(m, 0.0)).collect();
//!         Ok(Explanation::from_scores("first".into(), moves, |best| best[0]))
//!     }
//! }
//!
//! let factory: AgentFactory<Othello> = Box::new(|_| Ok(Box::new(First) as Box<dyn Agent<Othello>>));
//! let input = Cursor::new("1 boardsize 8\n2 clear_board\n3 genmove b\n4 play w c3\nquit\n");
//! let mut output = Vec::new();
//! run_gtp(input, &mut output, &EngineOptions::default(), factory)?;
//! assert_eq!(String::from_utf8(output)?, "=1\n\n=2\n\n=3 d3\n\n=4\n\n=\n\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Client side
//! [`ExternalEngine`] is an [`Agent`](yomi_core::Agent) that starts a program (split into
//! words by [`split_command`], no shell), speaks NBoard or GTP to it, gives it a time per
//! move and turns every fault into a typed forfeit
//! ([`AgentError::Forfeit`](yomi_core::AgentError::Forfeit)): a crash, a hang past its time,
//! garbage, an illegal move. Each engine runs in a process group of its own that is killed
//! and reaped when the agent is dropped.
//!
//! # Games
//! [`EngineGame`] says how a game's boards and moves travel: GTP carries every yomi game
//! (Othello on `boardsize 8` with moves `a1`..`h8`, row 1 at the top as in OBF; tic-tac-toe on
//! `boardsize 3` with moves `(x,y)`; the stone game with the pile as the size and the stones
//! taken as the move); NBoard carries Othello only, with GGF records.
#![deny(missing_docs)]

mod clock;
mod command;
mod external;
mod game;
mod gtp;
mod nboard;
mod process;
mod session;

pub use clock::{format_clock, parse_clock, parse_time_control};
pub use command::{split_command, SplitCommandError};
pub use external::{
    grace, nboard_game_at_clock, nboard_game_for, EngineSpec, ExternalEngine, ParseProtocolError,
    Protocol, UnsupportedGame, DEFAULT_NBOARD_DEPTH, STARTUP,
};
pub use game::EngineGame;
pub use gtp::{colour_text, parse_colour, run_gtp, GTP_COMMANDS};
pub use nboard::{default_hint_value, run_nboard, HintDepth, HintReader, HintValue};
pub use process::{kill_all_engines, log_ignored_lines};
pub use session::{AgentFactory, AgentSettings, EngineOptions};
