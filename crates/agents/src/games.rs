//! The one list of the games yomi plays, shared by the CLI, the web page and Python.
//!
//! A new game is one line in [`known_games!`](crate::known_games): its variant, its name (the
//! game type's [`Game::NAME`](yomi_core::Game::NAME)), its type and a description. The list
//! makes [`GameKind`], [`known_games`] and the [`with_game!`](crate::with_game) dispatch,
//! which runs a body with a type alias naming the concrete game.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The concrete game types, for the expansion of [`with_game!`](crate::with_game) in crates
/// that do not depend on every game crate.
#[doc(hidden)]
pub mod __types {
    pub use yomi_nim::Nim;
    pub use yomi_othello::{Othello, Othello4, Othello6};
    pub use yomi_tictactoe::TicTacToe;
}

/// Defines [`GameKind`], its list and the [`with_game!`](crate::with_game) macro from one
/// table: `Variant, "name", Type, "description";`.
macro_rules! known_games {
    ($($variant:ident, $name:literal, $ty:ident, $doc:literal;)*) => {
        /// A game yomi plays. Text form: its name (`tictactoe`, `nim`, `othello`, `othello4`,
        /// `othello6`); [`Display`](fmt::Display) and [`FromStr`] round-trip.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $(
                #[doc = $doc]
                $variant,
            )*
        }

        impl GameKind {
            /// Every game, in the order the CLI's `--game` lists them.
            pub const ALL: &'static [GameKind] = &[$(GameKind::$variant),*];

            /// The game's name: its type's [`Game::NAME`](yomi_core::Game::NAME).
            #[must_use]
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $name,)*
                }
            }

            /// A one-line description of the game (its rules or its board).
            #[must_use]
            pub fn description(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $doc.trim(),)*
                }
            }
        }

        /// Runs `$body` with `$G` a type alias of the game that `$kind` (a [`GameKind`])
        /// names: `with_game!(kind, G => G::default().to_string())`. The body is compiled once
        /// per game, so it may use anything every game implements.
        #[macro_export]
        macro_rules! with_game {
            ($kind:expr, $G:ident => $body:expr) => {
                match $kind {
                    $(
                        $crate::GameKind::$variant => {
                            #[allow(dead_code)]
                            type $G = $crate::__game_types::$ty;
                            $body
                        }
                    )*
                }
            };
        }
    };
}

known_games! {
    Tictactoe, "tictactoe", TicTacToe, " Tic-tac-toe: O moves first.";
    Nim, "nim", Nim, " The stone game: 15 stones, take 1 to 3, taking the last stone wins.";
    Othello, "othello", Othello, " Othello: black (X) moves first; 8x8 bitboards.";
    Othello4, "othello4", Othello4, " Othello on a 4x4 board (start `-----OX--XO----- X`; `parallel` names the other start).";
    Othello6, "othello6", Othello6, " Othello on a 6x6 board (`diagonal` and `parallel` name the two starts).";
}

/// Every game yomi plays, in order: the list the CLI, the web page and Python offer.
#[must_use]
pub fn known_games() -> &'static [GameKind] {
    GameKind::ALL
}

/// The names of [`known_games`], joined by `", "` (for messages).
#[must_use]
pub fn known_game_names() -> String {
    known_games()
        .iter()
        .map(|g| g.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A name that is not one of [`known_games`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown game {name:?}: expected one of {}", known_game_names())]
pub struct UnknownGameError {
    /// The name given.
    pub name: String,
}

impl FromStr for GameKind {
    type Err = UnknownGameError;

    /// The game of a name, exactly as [`GameKind::name`] writes it.
    fn from_str(name: &str) -> Result<GameKind, UnknownGameError> {
        known_games()
            .iter()
            .copied()
            .find(|g| g.name() == name)
            .ok_or_else(|| UnknownGameError {
                name: name.to_string(),
            })
    }
}

impl fmt::Display for GameKind {
    /// The game's name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use yomi_core::Game;

    use super::*;

    #[test]
    fn names_round_trip_and_are_the_game_types_names() {
        assert_eq!(
            known_game_names(),
            "tictactoe, nim, othello, othello4, othello6"
        );
        for &kind in known_games() {
            assert_eq!(kind.to_string().parse::<GameKind>(), Ok(kind));
            assert_eq!(with_game!(kind, G => G::NAME), kind.name());
            assert!(!kind.description().is_empty());
        }
        let err = "chess".parse::<GameKind>().unwrap_err();
        assert_eq!(err.name, "chess");
        assert!(err.to_string().contains("expected one of tictactoe, nim"));
        assert!("Othello".parse::<GameKind>().is_err());
    }

    #[test]
    fn the_dispatch_reaches_each_game() {
        let starts: Vec<String> = known_games()
            .iter()
            .map(|&k| with_game!(k, G => G::default().legal_moves().len().to_string()))
            .collect();
        // Tic-tac-toe 9, the stone game 3, Othello 4 on each board.
        assert_eq!(starts, ["9", "3", "4", "4", "4"]);
    }
}
