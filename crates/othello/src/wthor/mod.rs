//! WTHOR, the game archive of the Fédération Française d'Othello: reading and writing its
//! `.wtb` games, `.jou` players and `.trn` tournaments (8x8 games only).
//!
//! Every file is a 16-byte [`Header`] followed by fixed-size records, all integers
//! little-endian: games of 68 bytes ([`GameRecord`]: tournament, players, black's score, the
//! theoretical score, 60 move bytes `10 * row + column`), names of 20 bytes (players) or 26
//! bytes (tournaments) ([`NameFile`]). Passes are not stored, so a game is replayed on the board
//! to read it; reading checks every move and reports the game and move number of a bad one.
//!
//! The names are used through the namespace, as the GGF ones are: [`wthor::GameFile`](GameFile)
//!, [`wthor::NameFile`](NameFile), [`wthor::WthorError`](WthorError).
//!
//! ```
//! use yomi_othello::wthor::{GameFile, GameRecord, NameFile, NameKind};
//! use yomi_othello::Move;
//!
//! let line: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"].iter().map(|m| m.parse().unwrap()).collect();
//! let mut file = GameFile::new(2024);
//! file.games.push(GameRecord::from_line(&line)?);
//! let bytes = file.to_bytes()?;
//! assert_eq!(bytes.len(), 16 + 68);
//! // The game stops before the end: read it with `Check::Moves`.
//! let again = GameFile::read_with(&bytes, yomi_othello::wthor::Check::Moves)?;
//! assert_eq!(again.games, file.games);
//! assert_eq!(again.header.games, 1); // the writer counts the games
//! assert!(GameFile::read(&bytes).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod error;
mod games;
mod header;
mod names;

pub use error::WthorError;
pub use games::{Check, GameFile, GameRecord, GAME_LEN};
pub use header::{Header, HEADER_LEN};
pub use names::{NameFile, NameKind};

#[cfg(test)]
mod tests;
