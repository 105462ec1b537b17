//! `.wtb` files: games of 68 bytes, replayed on the board.

use yomi_core::Game;

use super::header::{count, records, Header, HEADER_LEN};
use super::{NameFile, WthorError};
use crate::ggf::{self, Ending, RecordResult};
use crate::{Move, Othello, PlaySequenceError, Square};

/// The length of a game record in bytes.
pub const GAME_LEN: usize = 68;

/// The number of move bytes in a game record.
const MOVE_BYTES: usize = 60;

/// How much of a game [`GameFile::read_with`] checks besides its moves (which are always
/// checked: each byte a square, each move legal, passes inserted where forced).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Check {
    /// Every game must end on the board, and black's recorded score must be the final board's
    /// (black's discs, the empty squares going to the winner).
    #[default]
    Full,
    /// Only the moves, and that black's score is at most 64: a game that stops early (a
    /// transcript left unfinished, a game lost on time) is kept with its recorded score, and
    /// so is a finished game whose recorded score differs from the board's.
    Moves,
}

/// One game of a `.wtb` file: who played it where, the scores, and its moves.
///
/// | bytes | field |
/// | --- | --- |
/// | 0-1 | the tournament's number in the `.trn` file, `u16` little-endian |
/// | 2-3 | the black player's number in the `.jou` file |
/// | 4-5 | the white player's number |
/// | 6 | black's score: black's discs at the end, the empty squares going to the winner |
/// | 7 | the theoretical score: black's score under perfect play from the position with `P3` empty squares (see [`Header::depth`]) |
/// | 8-67 | the moves, one byte each: `10 * row + column` (both from 1: `11` is `a1`, `56` is `f5`, `88` is `h8`), then 0 |
///
/// Passes are not stored: reading replays the game from the standard start and inserts a pass
/// wherever the side to move has no legal square. The moves here are those of the game, with
/// the passes: they are private so that a record is always a legal game from the start.
///
/// ```
/// use yomi_othello::wthor::GameRecord;
/// use yomi_othello::{Move, Othello};
/// use yomi_core::Game;
///
/// let line: Vec<Move> = ["f5", "d6", "c3"].iter().map(|m| m.parse().unwrap()).collect();
/// let mut game = GameRecord::from_line(&line)?;
/// game.black = 12;
/// assert_eq!(game.position(), Othello::new().play_line("f5 d6 c3")?);
/// let bytes = game.to_bytes();
/// assert_eq!(&bytes[8..12], &[56, 64, 33, 0]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The tournament's number in the `.trn` file (from 0).
    pub tournament: u16,
    /// The black player's number in the `.jou` file (from 0).
    pub black: u16,
    /// The white player's number in the `.jou` file (from 0).
    pub white: u16,
    /// Black's score, 0 to 64: black's discs at the end, the empty squares going to the winner
    /// (32 for a draw).
    pub black_score: u8,
    /// Black's theoretical score, as the file gives it (not checked).
    pub theoretical_score: u8,
    moves: Vec<Move>,
}

/// Black's score on `pos`: black's discs with the empty squares given to whoever leads (the
/// final score once the game is over), 0 to 64.
fn black_score(pos: &Othello) -> u8 {
    let margin = pos.final_score_for_mover() * pos.side_to_move().sign();
    // `margin` is even-sided: 64 + margin is twice black's score.
    u8::try_from((64 + margin) / 2).expect("a score of 0 to 64")
}

/// The square of a move byte `10 * row + column` (both in `1..=8`).
fn decode_square(byte: u8) -> Option<Square> {
    let (row, col) = (byte / 10, byte % 10);
    ((1..=8).contains(&row) && (1..=8).contains(&col)).then(|| Square::at(col - 1, row - 1))
}

/// The move byte of a square.
fn encode_square(sq: Square) -> u8 {
    (sq.row() + 1) * 10 + sq.col() + 1
}

impl GameRecord {
    /// A record of `line` played from the standard start (forced passes may be left out),
    /// tournament and players 0, both scores black's score on the final board (black's discs,
    /// the empty squares going to whoever leads).
    ///
    /// # Errors
    /// [`PlaySequenceError`] for the first illegal move (or a move after the end).
    pub fn from_line(line: &[Move]) -> Result<GameRecord, PlaySequenceError> {
        let record = ggf::Record::from_line(Othello::new(), line)?;
        Ok(GameRecord::scored(&record, black_score(&record.position())))
    }

    /// The record of `record`'s moves (from the standard start) with black's score `score`,
    /// tournament and players 0.
    fn scored(record: &ggf::Record, score: u8) -> GameRecord {
        GameRecord {
            tournament: 0,
            black: 0,
            white: 0,
            black_score: score,
            theoretical_score: score,
            moves: record.line(),
        }
    }

    /// A record of a GGF game, as [`GameRecord::from_line`] makes it; a game that stops before
    /// the end takes black's score from the GGF result where that is a whole even margin of
    /// at most 64.
    ///
    /// # Errors
    /// [`WthorError::NotStandardStart`] when the game does not start from the standard start
    /// position.
    pub fn from_ggf(record: &ggf::Record) -> Result<GameRecord, WthorError> {
        if record.start() != Othello::new() {
            return Err(WthorError::NotStandardStart {
                start: record.start().to_string(),
            });
        }
        let pos = record.position();
        let mut score = black_score(&pos);
        if let (false, Some(result)) = (pos.game_over(), record.result) {
            let m = result.black_margin;
            if m.abs() <= 64.0 && m % 2.0 == 0.0 {
                // A whole even margin of at most 64: the cast is exact.
                score = ((64.0 + m) / 2.0) as u8;
            }
        }
        Ok(GameRecord::scored(record, score))
    }

    /// The moves from the standard start, with the forced passes.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The squares played, as the file stores them (no passes).
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        self.moves.iter().filter_map(|m| m.square())
    }

    /// The start position and the position after each move (`moves().len() + 1` positions).
    #[must_use]
    pub fn positions(&self) -> Vec<Othello> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = Othello::new();
        out.push(pos);
        for &mv in &self.moves {
            pos = pos.play_unchecked(mv);
            out.push(pos);
        }
        out
    }

    /// The position after every move.
    #[must_use]
    pub fn position(&self) -> Othello {
        self.moves
            .iter()
            .fold(Othello::new(), |pos, &mv| pos.play_unchecked(mv))
    }

    /// Whether the game ends on the board (neither side can move after the last move).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.position().game_over()
    }

    /// Black's margin from the recorded score: `2 * black_score - 64` (positive: black won).
    #[must_use]
    pub fn black_margin(&self) -> i32 {
        2 * i32::from(self.black_score) - 64
    }

    /// The game as a GGF record: the moves with their passes, `PB`/`PW` the players' names
    /// and `PC` the tournament's where the files are given and hold them, and `RE` black's
    /// margin from the recorded score (with `:s`, an agreed score, when the game stops before
    /// the end).
    #[must_use]
    pub fn to_ggf(
        &self,
        players: Option<&NameFile>,
        tournaments: Option<&NameFile>,
    ) -> ggf::Record {
        let mut record = ggf::Record::from_line(Othello::new(), &self.moves)
            .expect("a record's moves are legal from the start");
        let name =
            |file: Option<&NameFile>, id: u16| file.and_then(|f| f.name(id)).map(String::from);
        record.black = name(players, self.black);
        record.white = name(players, self.white);
        record.place = name(tournaments, self.tournament);
        record.result = Some(RecordResult {
            black_margin: f64::from(self.black_margin()),
            ending: (!record.position().game_over()).then_some(Ending::MutualScore),
        });
        record
    }

    /// The 68 bytes of the record.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; GAME_LEN] {
        let mut b = [0; GAME_LEN];
        b[..2].copy_from_slice(&self.tournament.to_le_bytes());
        b[2..4].copy_from_slice(&self.black.to_le_bytes());
        b[4..6].copy_from_slice(&self.white.to_le_bytes());
        b[6] = self.black_score;
        b[7] = self.theoretical_score;
        // A legal game from the start places at most 60 discs.
        for (slot, sq) in b[8..].iter_mut().zip(self.squares()) {
            *slot = encode_square(sq);
        }
        b
    }

    /// Reads and replays game number `game` (from 1) from its 68 bytes.
    fn from_bytes(game: usize, b: &[u8], check: Check) -> Result<GameRecord, WthorError> {
        let mut pos = Othello::new();
        let mut moves = Vec::with_capacity(MOVE_BYTES + 4);
        let mut stored = 0;
        for (i, &byte) in b[8..GAME_LEN].iter().enumerate() {
            let number = i + 1;
            if byte == 0 {
                continue;
            }
            if stored < i {
                return Err(WthorError::MoveAfterEnd { game, number, byte });
            }
            stored += 1;
            let sq = decode_square(byte).ok_or(WthorError::BadMoveByte { game, number, byte })?;
            if pos.must_pass() {
                moves.push(Move::Pass);
                pos = pos.passed();
            }
            if !pos.moves().contains(sq) {
                return Err(WthorError::IllegalMove {
                    game,
                    number,
                    square: sq,
                    position: pos.to_string(),
                });
            }
            moves.push(Move::Place(sq));
            pos = pos.play_unchecked(Move::Place(sq));
        }
        let recorded = b[6];
        if recorded > 64 {
            return Err(WthorError::BadScore {
                game,
                score: recorded,
            });
        }
        if check == Check::Full {
            if !pos.game_over() {
                return Err(WthorError::Unfinished {
                    game,
                    moves: stored,
                    score: recorded,
                });
            }
            let board = black_score(&pos);
            if board != recorded {
                return Err(WthorError::ScoreMismatch {
                    game,
                    recorded,
                    board,
                });
            }
        }
        Ok(GameRecord {
            tournament: u16::from_le_bytes([b[0], b[1]]),
            black: u16::from_le_bytes([b[2], b[3]]),
            white: u16::from_le_bytes([b[4], b[5]]),
            black_score: recorded,
            theoretical_score: b[7],
            moves,
        })
    }
}

/// A `.wtb` file: the header and the games.
///
/// ```
/// use yomi_othello::wthor::{GameFile, GameRecord, WthorError};
/// use yomi_othello::Move;
///
/// // The shortest game: black wipes white out in 9 moves (13-0, so black's score is 64).
/// let line: Vec<Move> = "f5 f4 c3 c6 c5 d6 f3 c4 c7".split(' ').map(|m| m.parse().unwrap()).collect();
/// let mut file = GameFile::new(2024);
/// file.games.push(GameRecord::from_line(&line)?);
/// let mut bytes = file.to_bytes()?;
/// assert_eq!(&bytes[16 + 6..16 + 18], &[64, 64, 56, 46, 33, 63, 53, 64, 36, 43, 73, 0]);
/// let read = GameFile::read(&bytes)?;
/// assert_eq!(read.games, file.games);
///
/// // c7 replaced by a1, which is not legal there.
/// bytes[16 + 16] = 11;
/// assert!(matches!(GameFile::read(&bytes), Err(WthorError::IllegalMove { game: 1, number: 9, .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameFile {
    /// The header (its `games` count is set from [`GameFile::games`] when written).
    pub header: Header,
    /// The games, in the order of the file.
    pub games: Vec<GameRecord>,
}

impl GameFile {
    /// An empty file of 8x8 games played in `game_year`.
    #[must_use]
    pub fn new(game_year: u16) -> GameFile {
        GameFile {
            header: Header {
                game_year,
                board_size: 8,
                ..Header::default()
            },
            games: Vec::new(),
        }
    }

    /// Reads a `.wtb` file, checking every game fully ([`Check::Full`]).
    ///
    /// # Errors
    /// [`WthorError`] for the first problem: the header, the length, then the games in order.
    pub fn read(bytes: &[u8]) -> Result<GameFile, WthorError> {
        GameFile::read_with(bytes, Check::Full)
    }

    /// Reads a `.wtb` file, checking each game as `check` says.
    ///
    /// # Errors
    /// As [`GameFile::read`].
    pub fn read_with(bytes: &[u8], check: Check) -> Result<GameFile, WthorError> {
        let header = Header::from_bytes(bytes)?;
        header.check_board()?;
        let games = records(bytes, u64::from(header.games), GAME_LEN)?
            .enumerate()
            .map(|(i, b)| GameRecord::from_bytes(i + 1, b, check))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(GameFile { header, games })
    }

    /// The bytes of the file: the header with its `games` count set, then the games.
    ///
    /// # Errors
    /// [`WthorError::UnsupportedBoard`] when the header's board size is not 8x8,
    /// [`WthorError::TooManyRecords`] beyond `u32::MAX` games.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WthorError> {
        self.header.check_board()?;
        let header = Header {
            games: count(self.games.len(), u64::from(u32::MAX))?,
            ..self.header
        };
        let mut out = Vec::with_capacity(HEADER_LEN + GAME_LEN * self.games.len());
        out.extend_from_slice(&header.to_bytes());
        for g in &self.games {
            out.extend_from_slice(&g.to_bytes());
        }
        Ok(out)
    }
}
