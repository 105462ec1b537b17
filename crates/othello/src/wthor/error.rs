//! The errors of reading and writing WTHOR files.

use thiserror::Error;

use crate::Square;

/// Why bytes are not a WTHOR file (or why a file cannot be written). Record and game numbers
/// count from 1, in the order of the file; a move number is the place of the move among the
/// record's 60 move bytes, from 1 (passes are not stored, so they are not counted).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum WthorError {
    /// The file is shorter than the 16-byte header.
    #[error("the file is {len} bytes long, shorter than the 16-byte WTHOR header")]
    TruncatedHeader {
        /// The length of the file.
        len: usize,
    },
    /// The file ends inside a record that the header's count says is there.
    #[error(
        "record {record} is cut: the header declares {declared} records of {size} bytes, \
         but the file ends {missing} bytes short"
    )]
    TruncatedRecord {
        /// The first record that is not whole.
        record: usize,
        /// The number of records the header declares.
        declared: u64,
        /// The size of one record in bytes (68, 20 or 26).
        size: usize,
        /// How many bytes are missing at the end.
        missing: usize,
    },
    /// The file holds more bytes than the header's count of records needs.
    #[error(
        "the header declares {declared} records of {size} bytes, but {extra} more bytes \
         follow them"
    )]
    TrailingBytes {
        /// The number of records the header declares.
        declared: u64,
        /// The size of one record in bytes.
        size: usize,
        /// The bytes after the last declared record.
        extra: usize,
    },
    /// The header's board size (`P1`) is not 8x8 (0 or 8); 10x10 archives are not read.
    #[error("unsupported board size {size} in the header: only 8x8 games (0 or 8) are read")]
    UnsupportedBoard {
        /// The byte found.
        size: u8,
    },
    /// A move byte is not `10 * row + column` with both in `1..=8`, nor the 0 that ends the
    /// moves.
    #[error("game {game}, move {number}: byte {byte} is not a square (11 = a1 .. 88 = h8)")]
    BadMoveByte {
        /// The game (record) number.
        game: usize,
        /// The move number.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A move byte other than 0 after the 0 that ended the moves.
    #[error("game {game}, move {number}: byte {byte} follows the 0 that ends the moves")]
    MoveAfterEnd {
        /// The game (record) number.
        game: usize,
        /// The move number.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A move that neither side to move could play (nor after a pass), or a move after the
    /// end of the game.
    #[error("game {game}, move {number} ({square}) is illegal in position {position}")]
    IllegalMove {
        /// The game (record) number.
        game: usize,
        /// The move number.
        number: usize,
        /// The square.
        square: Square,
        /// The position the move was tried in, in board notation.
        position: String,
    },
    /// The moves stop before the end of the game, but the reader was asked for finished games
    /// ([`Check::Full`](super::Check::Full)), whose recorded score is the board's.
    #[error(
        "game {game} stops after {moves} moves, before the end of the game, but its score \
         {score} is read as a final score"
    )]
    Unfinished {
        /// The game (record) number.
        game: usize,
        /// The number of moves stored.
        moves: usize,
        /// Black's recorded score.
        score: u8,
    },
    /// Black's recorded score is not that of the final board (black's discs, the empty squares
    /// going to the winner).
    #[error(
        "game {game}: black's recorded score is {recorded}, but the final board gives {board}"
    )]
    ScoreMismatch {
        /// The game (record) number.
        game: usize,
        /// Black's score in the record.
        recorded: u8,
        /// Black's score on the final board.
        board: u8,
    },
    /// Black's recorded score is more than 64 discs.
    #[error("game {game}: black's recorded score {score} is more than 64")]
    BadScore {
        /// The game (record) number.
        game: usize,
        /// The score.
        score: u8,
    },
    /// The game to write does not start from the standard position (WTHOR stores only games
    /// from it).
    #[error("the game starts from {start}, not the standard start position")]
    NotStandardStart {
        /// The start position, in board notation.
        start: String,
    },
    /// A name to write does not fit its record (19 bytes for a player, 25 for a tournament, a
    /// NUL after it).
    #[error("record {record}: the name {name:?} is longer than {max} characters")]
    NameTooLong {
        /// The record number.
        record: usize,
        /// The name.
        name: String,
        /// The most characters the record holds.
        max: usize,
    },
    /// A name to write holds a character that Latin-1 cannot write, or a NUL.
    #[error("record {record}: the name {name:?} has a character that is not Latin-1 (or a NUL)")]
    NotLatin1 {
        /// The record number.
        record: usize,
        /// The name.
        name: String,
    },
    /// More records than the header's count can say (`u32` games, `u16` names).
    #[error("{count} records are more than the header can count (at most {max})")]
    TooManyRecords {
        /// The number of records.
        count: usize,
        /// The most the header counts.
        max: u64,
    },
}
