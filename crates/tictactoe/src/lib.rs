//! Tic-tac-toe for yomi: a bitboard position implementing the core traits, its notation, the
//! line patterns the score-based agents read, and the 8 symmetries of the board.
//!
//! # Design
//! - **Two 9-bit boards.** [`TicTacToe`] is `{ o: u16, x: u16 }`, bit `i` being the square with
//!   row-major index `i = y * 3 + x` ([`Square`]; `x` is the column, `y` the row). O moves first
//!   ([`Player::First`](yomi_core::Player::First)), X second; the side to move follows from the
//!   counts, so the position is 4 bytes and is copied to play a move (copy-make).
//! - **Tables built at compile time.** Whether a mask holds one of the 8 [`LINES`] is one lookup
//!   in a 512-entry table; each of the 8 symmetries maps a mask with one lookup in a 512-entry
//!   table. [`Game::random_playout`](yomi_core::Game::random_playout) runs on the masks alone:
//!   one `rng.below(n)` per ply picks the `k`-th empty square in row-major order (a table lookup), exactly as the
//!   generic version does, so seeded runs give the same games on either path.
//! - **Only reachable positions.** [`TicTacToe::from_bits`] and the text parser accept a board
//!   only if some legal game reaches it (valid counts, at most one winner, the game stopped at the
//!   win), and report why not with a [`ParseBoardError`].
//! - **Rules only.** The board offers [`TicTacToe::patterns`] (how many lines have each mix of
//!   marks) as a fact about the position; what to make of it is up to the agents.
//!   [`LeafEval`](yomi_core::LeafEval) is always 0, and
//!   [`HashKey`](yomi_core::HashKey) is the collision-free `o | x << 9`.
//!
//! # Notation
//! A position is its 9 cells in row-major order with `o`, `x` and `.` (e.g. `x...o...o`); the
//! parser also takes upper case and `/` or white space between rows (`x../.o./..o`).
//! [`TicTacToe::pretty`] prints the three rows and whose turn it is. A square is `(x,y)`, and
//! parses from `(x,y)`, `x,y` or `xy`.
//!
//! # Example
//! ```
//! use yomi_core::{Game, Outcome, Player, Symmetric};
//! use yomi_tictactoe::{Square, TicTacToe};
//!
//! let pos: TicTacToe = "x../.o./..o".parse()?;
//! assert_eq!(pos, TicTacToe::new().play_line("(1,1) (0,0) (2,2)")?);
//! assert_eq!(pos.to_string(), "x...o...o");
//! assert_eq!(pos.side_to_move(), Player::Second);
//! assert_eq!(pos.legal_moves().len(), 6);
//!
//! // O threatens nothing yet: no line holds two o's and an empty square.
//! assert_eq!(pos.patterns(Player::First).count(2, 0, 1), 0);
//!
//! // X takes (2,0), O (1,0), X (0,2), and O completes column 1.
//! let end = pos.play_line("(2,0) (1,0) (0,2) (1,2)")?;
//! assert_eq!(end.outcome(), Some(Outcome::Win(Player::First)));
//! assert_eq!(end.pretty(), "xox\n.o.\nxoo\no wins");
//!
//! // Rotating the board a quarter turn keeps the position's canonical key.
//! assert_eq!(pos.transform(1).canonical_key(), pos.canonical_key());
//! assert_eq!(TicTacToe::transform_move(Square::CENTRE, 1), Square::CENTRE);
//!
//! // Bad text is reported, not a panic.
//! assert!("ooo/xxx/...".parse::<TicTacToe>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod board;
mod error;
mod notation;
mod patterns;
mod square;
mod symmetry;

pub use board::{TicTacToe, LINES};
pub use error::ParseBoardError;
pub use patterns::LinePatterns;
pub use square::{ParseSquareError, Square};
