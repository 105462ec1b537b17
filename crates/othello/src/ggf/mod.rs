//! GGF, the Generic Game Format of the GGS game server: reading and writing game records of
//! 8x8 Othello (the format of NBoard, Edax, NTest and the GGS archives).
//!
//! The names are used through the namespace: [`ggf::Record`](Record) is one game record,
//! [`ggf::parse_file`](parse_file) and [`ggf::write_file`](write_file) read and write a file of
//! them.
//!
//! ```
//! use yomi_othello::{ggf, Othello};
//!
//! let games = ggf::parse_file("(;GM[Othello]TY[8]RE[?]B[F5];)\n(;GM[Othello]TY[8]RE[?];)")?;
//! assert_eq!(games.len(), 2);
//! assert_eq!(games[0].start(), Othello::new());
//! assert_eq!(ggf::write_file(&games).lines().count(), 2);
//! # Ok::<(), ggf::ParseError>(())
//! ```

mod read;
mod record;
mod write;

pub use read::{parse_file, ErrorKind, ParseError};
pub use record::{Ending, Record, RecordResult, RecordedMove};
pub use write::write_file;

#[cfg(test)]
mod tests;
