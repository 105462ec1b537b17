//! The record types: a game, its moves and its result.

use std::fmt;

use yomi_core::{FinalScore, Game, Player};

use crate::{Move, Othello, PlaySequenceError};

/// One move of a record: who played it, the move, and what the record says about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordedMove {
    /// The player who moved (`B` is [`Player::First`]).
    pub player: Player,
    /// The move (a square, or [`Move::Pass`]).
    pub mv: Move,
    /// The mover's evaluation of the move, if recorded (discs, from the mover's side).
    pub eval: Option<f64>,
    /// The seconds spent on it, if recorded.
    pub time: Option<f64>,
}

/// How a game with a result ended, besides the count of discs (`RE[...:r]` etc.).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// A player resigned (`r`); forfeits for a crash, an illegal move or a protocol error are
    /// written this way.
    Resigned,
    /// A player ran out of time (`t`).
    Timeout,
    /// The players agreed on the score (`s`).
    MutualScore,
}

impl Ending {
    fn code(self) -> char {
        match self {
            Ending::Resigned => 'r',
            Ending::Timeout => 't',
            Ending::MutualScore => 's',
        }
    }
}

/// The result of a record: black's margin in discs and, when the game did not simply end on
/// the board, how it ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordResult {
    /// Black's disc difference (positive: black won by that much).
    pub black_margin: f64,
    /// How the game ended, if not on the board.
    pub ending: Option<Ending>,
}

impl fmt::Display for RecordResult {
    /// `+24.000`, `-64.000:r`, `0.000:s` (three decimals as GGS writes them, more when a
    /// margin needs them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_margin(f, self.black_margin)?;
        if let Some(ending) = self.ending {
            write!(f, ":{}", ending.code())?;
        }
        Ok(())
    }
}

fn write_margin(f: &mut impl fmt::Write, m: f64) -> fmt::Result {
    if (m * 1000.0).fract() == 0.0 && m.abs() < 1e9 {
        if m == 0.0 {
            f.write_str("0.000")
        } else {
            write!(f, "{m:+.3}")
        }
    } else {
        write!(f, "{m:+}")
    }
}

/// One GGF game record of Othello (GGF is the Generic Game Format of the GGS game server, the
/// format of NBoard, Edax, NTest and the GGS archives).
///
/// A record is `(;` then tags `XX[value]` then `;)`. The Othello tags read here: `GM` (the
/// game, `Othello`), `PC` (place), `DT` (date), `PB`/`PW` (players), `RB`/`RW` (ratings),
/// `TI` (the time control of both players; `TB`/`TW` per player), `TY` (the board type: `8`,
/// or `8r` for a random start), `RE` (the result for black: `+24.000`, `-2.000:r`, `?`),
/// `BO` (the start position: the board size, 64 squares row by row from `a1` with `*` black,
/// `O` white and `-` empty, then the side to move) and the moves `B[F5]`, `W[D6/-1.5/0.02]`
/// (a square or `PA` for a pass, then optionally `/` the evaluation for the mover and `/` the
/// seconds spent). Other tags (`C` comments, server-specific ones) are kept as they are.
/// Values may hold `]` escaped as `\]`.
///
/// A `Record` is always consistent: its moves are legal from its start position,
/// with explicit passes (a record that leaves a forced pass out gets one back, as NBoard
/// does when it replays). Parsing reports the byte offset of every problem.
///
/// ```
/// use yomi_core::Game;
/// use yomi_othello::ggf::Record;
/// use yomi_othello::{Move, Othello};
///
/// let text = "(;GM[Othello]PB[NTest]PW[Edax]RE[?]TI[15:00]TY[8]\
///             BO[8 ---------------------------O*------*O--------------------------- *]\
///             B[F5]W[F6//1.25]B[D3/2.5];)";
/// let game: Record = text.parse()?;
/// assert_eq!(game.black.as_deref(), Some("NTest"));
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(game.moves()[1].time, Some(1.25));
/// assert_eq!(game.position(), Othello::new().play_line("f5 f6 d3")?);
/// // Writing and reading again gives the same game.
/// assert_eq!(game.to_string().parse::<Record>()?, game);
///
/// // A record from a start position and a line.
/// let mut game = Record::new(Othello::new());
/// game.push(Move::Place("f5".parse()?))?;
/// assert_eq!(game.to_string(), "(;GM[Othello]TY[8]RE[?]\
///     BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The start position and the moves are private so that a record is always a legal game:
/// build one with [`Record::new`] and [`Record::push`], [`Record::from_line`], or by
/// parsing. The other tags are public fields.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// `PC`: where the game was played (e.g. `NBoard`, `GGS/os`).
    pub place: Option<String>,
    /// `DT`: when (free text; GGS writes `2004.09.18_05:54:38.MDT` or a Unix time).
    pub date: Option<String>,
    /// `PB`: the black player.
    pub black: Option<String>,
    /// `PW`: the white player.
    pub white: Option<String>,
    /// `RB`: black's rating.
    pub black_rating: Option<String>,
    /// `RW`: white's rating.
    pub white_rating: Option<String>,
    /// `TI`: the time control of both players (e.g. `15:00`, `05:00//02:00`).
    pub time: Option<String>,
    /// `TB`: black's time control, where the players' differ.
    pub black_time: Option<String>,
    /// `TW`: white's time control.
    pub white_time: Option<String>,
    /// `TY`: the board type, `8` (standard) or `8r` (random start).
    pub board_type: String,
    /// `RE`: the result; `None` for `RE[?]` (unknown or unfinished).
    pub result: Option<RecordResult>,
    /// Other tags, in the order read (comments, server tags), written after the header.
    pub extra: Vec<(String, String)>,
    pub(super) start: Othello,
    pub(super) moves: Vec<RecordedMove>,
}

pub(super) fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

impl Record {
    /// A record of no moves from `start`: game `Othello`, board type `8`, result unknown.
    #[must_use]
    pub fn new(start: Othello) -> Record {
        Record {
            place: None,
            date: None,
            black: None,
            white: None,
            black_rating: None,
            white_rating: None,
            time: None,
            black_time: None,
            white_time: None,
            board_type: "8".to_string(),
            result: None,
            extra: Vec::new(),
            start,
            moves: Vec::new(),
        }
    }

    /// A record of `line` played from `start` (passes may be left out where forced), with the
    /// result set from the final position when the game is over.
    ///
    /// # Errors
    /// [`PlaySequenceError`] for the first illegal move.
    pub fn from_line(start: Othello, line: &[Move]) -> Result<Record, PlaySequenceError> {
        let mut game = Record::new(start);
        // One running position, rather than a replay from the start at every move.
        let mut pos = start;
        for &mv in line {
            pos = game.push_at(pos, mv, None, None)?;
        }
        game.set_result_from_board();
        Ok(game)
    }

    /// The start position (`BO`).
    #[must_use]
    pub fn start(&self) -> Othello {
        self.start
    }

    /// The moves, each legal in turn, with explicit passes.
    #[must_use]
    pub fn moves(&self) -> &[RecordedMove] {
        &self.moves
    }

    /// The moves alone, as a line from the start position.
    #[must_use]
    pub fn line(&self) -> Vec<Move> {
        self.moves.iter().map(|m| m.mv).collect()
    }

    /// The position after every move.
    #[must_use]
    pub fn position(&self) -> Othello {
        self.positions().last().copied().unwrap_or(self.start)
    }

    /// The start position and the position after each move (`moves().len() + 1` positions).
    #[must_use]
    pub fn positions(&self) -> Vec<Othello> {
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut pos = self.start;
        out.push(pos);
        for m in &self.moves {
            pos = pos.play_unchecked(m.mv);
            out.push(pos);
        }
        out
    }

    /// Plays `mv` with no evaluation or time. A placement by the side that must pass first
    /// records the forced pass.
    ///
    /// # Errors
    /// [`PlaySequenceError`] when the move is illegal (or the game is over); the record is
    /// unchanged.
    pub fn push(&mut self, mv: Move) -> Result<(), PlaySequenceError> {
        self.push_move(mv, None, None)
    }

    /// Plays `mv` with an evaluation (from the mover's side) and the seconds spent, as
    /// [`Record::push`] does. A value that is not finite is not recorded.
    ///
    /// # Errors
    /// As [`Record::push`].
    pub fn push_move(
        &mut self,
        mv: Move,
        eval: Option<f64>,
        time: Option<f64>,
    ) -> Result<(), PlaySequenceError> {
        self.push_at(self.position(), mv, eval, time).map(|_| ())
    }

    /// [`Record::push_move`] from `pos`, the record's current position; returns the position
    /// after the move.
    fn push_at(
        &mut self,
        pos: Othello,
        mv: Move,
        eval: Option<f64>,
        time: Option<f64>,
    ) -> Result<Othello, PlaySequenceError> {
        let (eval, time) = (
            eval.filter(|e| e.is_finite()),
            time.filter(|t| t.is_finite()),
        );
        let err = || PlaySequenceError {
            number: self.moves.len() + 1,
            mv,
            position: pos,
        };
        if pos.is_over() {
            return Err(err());
        }
        if pos.is_legal(mv) {
            self.moves.push(RecordedMove {
                player: pos.side_to_move(),
                mv,
                eval,
                time,
            });
            return Ok(pos.play_unchecked(mv));
        }
        // A placement by the side after a forced pass that the caller left out.
        let passed = pos.passed();
        if pos.must_pass() && mv != Move::Pass && passed.is_legal(mv) {
            self.moves.push(RecordedMove {
                player: pos.side_to_move(),
                mv: Move::Pass,
                eval: None,
                time: None,
            });
            self.moves.push(RecordedMove {
                player: passed.side_to_move(),
                mv,
                eval,
                time,
            });
            return Ok(passed.play_unchecked(mv));
        }
        Err(err())
    }

    /// Sets [`Record::result`] from the final position when the game is over on the board
    /// (black's final disc difference, empty squares to the winner); leaves it alone otherwise.
    pub fn set_result_from_board(&mut self) {
        if let Some(score) = self.position().final_score() {
            self.result = Some(RecordResult {
                black_margin: f64::from(score),
                ending: None,
            });
        }
    }
}
