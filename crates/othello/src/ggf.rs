//! GGF, the Generic Game Format of the GGS game server: reading and writing game records.

use std::fmt::{self, Write as _};
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{FinalScore, Game, Player};

use crate::{Bitboard, Move, Othello, PlaySequenceError, Square};

/// One move of a record: who played it, the move, and what the record says about it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfMove {
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
pub enum GgfEnding {
    /// A player resigned (`r`); forfeits for a crash, an illegal move or a protocol error are
    /// written this way.
    Resigned,
    /// A player ran out of time (`t`).
    Timeout,
    /// The players agreed on the score (`s`).
    MutualScore,
}

impl GgfEnding {
    fn code(self) -> char {
        match self {
            GgfEnding::Resigned => 'r',
            GgfEnding::Timeout => 't',
            GgfEnding::MutualScore => 's',
        }
    }
}

/// The result of a record: black's margin in discs and, when the game did not simply end on
/// the board, how it ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GgfResult {
    /// Black's disc difference (positive: black won by that much).
    pub black_margin: f64,
    /// How the game ended, if not on the board.
    pub ending: Option<GgfEnding>,
}

impl fmt::Display for GgfResult {
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
/// A `GgfGame` is always consistent: its moves are legal from its start position,
/// with explicit passes (a record that leaves a forced pass out gets one back, as NBoard
/// does when it replays). Parsing reports the byte offset of every problem.
///
/// ```
/// use yomi_core::Game;
/// use yomi_othello::{GgfGame, Move, Othello};
///
/// let text = "(;GM[Othello]PB[NTest]PW[Edax]RE[?]TI[15:00]TY[8]\
///             BO[8 ---------------------------O*------*O--------------------------- *]\
///             B[F5]W[F6//1.25]B[D3/2.5];)";
/// let game: GgfGame = text.parse()?;
/// assert_eq!(game.black.as_deref(), Some("NTest"));
/// assert_eq!(game.moves().len(), 3);
/// assert_eq!(game.moves()[1].time, Some(1.25));
/// assert_eq!(game.position(), Othello::new().play_line("f5 f6 d3")?);
/// // Writing and reading again gives the same game.
/// assert_eq!(game.to_string().parse::<GgfGame>()?, game);
///
/// // A record from a start position and a line.
/// let mut game = GgfGame::new(Othello::new());
/// game.push(Move::Place("f5".parse()?))?;
/// assert_eq!(game.to_string(), "(;GM[Othello]TY[8]RE[?]\
///     BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// The start position and the moves are private so that a record is always a legal game:
/// build one with [`GgfGame::new`] and [`GgfGame::push`], [`GgfGame::from_line`], or by
/// parsing. The other tags are public fields.
#[derive(Clone, Debug, PartialEq)]
pub struct GgfGame {
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
    pub result: Option<GgfResult>,
    /// Other tags, in the order read (comments, server tags), written after the header.
    pub extra: Vec<(String, String)>,
    start: Othello,
    moves: Vec<GgfMove>,
}

/// Why a text is not a GGF record of Othello. `offset` is the byte offset in the text given
/// to the parser (the whole file for [`parse_ggf_file`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("GGF error at byte {offset}: {kind}")]
pub struct ParseGgfError {
    /// Where the problem is.
    pub offset: usize,
    /// What it is.
    pub kind: GgfErrorKind,
}

/// The kinds of [`ParseGgfError`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GgfErrorKind {
    /// No `(;` where a record should start.
    #[error("expected `(;` to start a game record")]
    MissingStart,
    /// The text ended inside a record (no `;)`).
    #[error("the record does not end (no `;)`)")]
    Unterminated,
    /// Something that is not a tag `XX[value]`.
    #[error("expected a tag such as PB[name] or `;)`, found {found:?}")]
    BadTag {
        /// The text found.
        found: String,
    },
    /// A tag's value has no closing `]`.
    #[error("the value of tag {tag} has no closing `]`")]
    UnterminatedValue {
        /// The tag.
        tag: String,
    },
    /// A header tag appears twice.
    #[error("tag {tag} appears twice")]
    Duplicate {
        /// The tag.
        tag: String,
    },
    /// `GM` names another game.
    #[error("the record is of game {game:?}, not Othello")]
    NotOthello {
        /// The game named.
        game: String,
    },
    /// `TY` is a board type other than `8` or `8r` (another size, anti-Othello, komi or
    /// synchro games).
    #[error("unsupported board type {ty:?}: only 8 and 8r (8x8 Othello) are read")]
    UnsupportedType {
        /// The type given.
        ty: String,
    },
    /// `BO` is not a board size 8, 64 squares and a side to move.
    #[error("bad start board: {reason}")]
    BadBoard {
        /// What is wrong with it.
        reason: String,
    },
    /// `RE` is not `?` or a signed number with an optional `:r`, `:t` or `:s`.
    #[error("bad result {text:?}: expected ? or a margin such as +12.000 or -64.000:r")]
    BadResult {
        /// The value.
        text: String,
    },
    /// A move tag's value is not `MOVE[/EVAL[/TIME]]`.
    #[error("move {number}: bad value {text:?}: expected a square or PA, then /eval/time")]
    BadMove {
        /// The 1-based move number.
        number: usize,
        /// The value.
        text: String,
    },
    /// A move by the player not on turn (who is not passing by force either).
    #[error("move {number} ({mv}) is by {player} but {to_move} is to move")]
    WrongPlayer {
        /// The 1-based move number.
        number: usize,
        /// The move.
        mv: Move,
        /// Who played it, `black` or `white`.
        player: &'static str,
        /// Who was to move.
        to_move: &'static str,
    },
    /// An illegal move, or a move after the end of the game.
    #[error("move {number} ({mv}) is illegal in position {position}")]
    IllegalMove {
        /// The 1-based move number.
        number: usize,
        /// The move.
        mv: Move,
        /// The position, in board notation.
        position: String,
    },
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

impl GgfGame {
    /// A record of no moves from `start`: game `Othello`, board type `8`, result unknown.
    #[must_use]
    pub fn new(start: Othello) -> GgfGame {
        GgfGame {
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
    pub fn from_line(start: Othello, line: &[Move]) -> Result<GgfGame, PlaySequenceError> {
        let mut game = GgfGame::new(start);
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
    pub fn moves(&self) -> &[GgfMove] {
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
    /// [`GgfGame::push`] does. A value that is not finite is not recorded.
    ///
    /// # Errors
    /// As [`GgfGame::push`].
    pub fn push_move(
        &mut self,
        mv: Move,
        eval: Option<f64>,
        time: Option<f64>,
    ) -> Result<(), PlaySequenceError> {
        self.push_at(self.position(), mv, eval, time).map(|_| ())
    }

    /// [`GgfGame::push_move`] from `pos`, the record's current position; returns the position
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
            self.moves.push(GgfMove {
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
            self.moves.push(GgfMove {
                player: pos.side_to_move(),
                mv: Move::Pass,
                eval: None,
                time: None,
            });
            self.moves.push(GgfMove {
                player: passed.side_to_move(),
                mv,
                eval,
                time,
            });
            return Ok(passed.play_unchecked(mv));
        }
        Err(err())
    }

    /// Sets [`GgfGame::result`] from the final position when the game is over on the board
    /// (black's final disc difference, empty squares to the winner); leaves it alone otherwise.
    pub fn set_result_from_board(&mut self) {
        if let Some(score) = self.position().final_score() {
            self.result = Some(GgfResult {
                black_margin: f64::from(score),
                ending: None,
            });
        }
    }
}

// --- Writing ---------------------------------------------------------------------------------

fn write_value(f: &mut fmt::Formatter<'_>, tag: &str, value: &str) -> fmt::Result {
    f.write_str(tag)?;
    f.write_char('[')?;
    for c in value.chars() {
        if c == ']' || c == '\\' {
            f.write_char('\\')?;
        }
        f.write_char(c)?;
    }
    f.write_char(']')
}

/// The `BO` value of a position: `8 `, 64 squares (`*` black, `O` white, `-` empty), ` `, the
/// side to move (`*` or `O`).
fn board_value(pos: &Othello) -> String {
    let mut s = String::with_capacity(68);
    s.push_str("8 ");
    let (black, white) = (pos.black(), pos.white());
    for sq in Square::ALL {
        s.push(if black.contains(sq) {
            '*'
        } else if white.contains(sq) {
            'O'
        } else {
            '-'
        });
    }
    s.push(' ');
    s.push(if pos.side_to_move() == Player::First {
        '*'
    } else {
        'O'
    });
    s
}

/// The value of a move tag: `F5`, `F5/1.5`, `F5//0.25`, `F5/1.5/0.25`, `PA`.
fn move_value(m: &GgfMove) -> String {
    let mut s = m.mv.to_string().to_ascii_uppercase();
    match (m.eval, m.time) {
        (None, None) => {}
        (Some(e), None) => {
            let _ = write!(s, "/{e}");
        }
        (e, Some(t)) => {
            s.push('/');
            if let Some(e) = e {
                let _ = write!(s, "{e}");
            }
            let _ = write!(s, "/{t}");
        }
    }
    s
}

impl fmt::Display for GgfGame {
    /// The record on one line: `(;GM[Othello]`, the header tags that are set (`PC DT PB PW RB
    /// RW TI TB TW TY RE`), the extra tags, `BO`, the moves (squares in upper case), `;)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(;GM[Othello]")?;
        let header = [
            ("PC", &self.place),
            ("DT", &self.date),
            ("PB", &self.black),
            ("PW", &self.white),
            ("RB", &self.black_rating),
            ("RW", &self.white_rating),
            ("TI", &self.time),
            ("TB", &self.black_time),
            ("TW", &self.white_time),
        ];
        for (tag, value) in header {
            if let Some(v) = value {
                write_value(f, tag, v)?;
            }
        }
        write_value(f, "TY", &self.board_type)?;
        match &self.result {
            Some(r) => write_value(f, "RE", &r.to_string())?,
            None => f.write_str("RE[?]")?,
        }
        for (tag, value) in &self.extra {
            write_value(f, tag, value)?;
        }
        write_value(f, "BO", &board_value(&self.start))?;
        for m in &self.moves {
            let tag = if m.player == Player::First { "B" } else { "W" };
            write_value(f, tag, &move_value(m))?;
        }
        f.write_str(";)")
    }
}

// --- Reading ---------------------------------------------------------------------------------

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// Added to every offset reported (where `text` starts in the caller's text).
    base: usize,
}

struct Tag {
    name: String,
    value: String,
    /// Offset of the tag name.
    at: usize,
    /// Offset of the value's first byte.
    value_at: usize,
}

impl<'a> Reader<'a> {
    fn err(&self, at: usize, kind: GgfErrorKind) -> ParseGgfError {
        ParseGgfError {
            offset: self.base + at,
            kind,
        }
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    /// The next tag, or `None` at `;)` (consumed).
    fn tag(&mut self) -> Result<Option<Tag>, ParseGgfError> {
        self.skip_ws();
        let rest = self.rest();
        if rest.is_empty() {
            return Err(self.err(self.pos, GgfErrorKind::Unterminated));
        }
        if rest.starts_with(";)") {
            self.pos += 2;
            return Ok(None);
        }
        let at = self.pos;
        let name_len = rest
            .bytes()
            .take_while(u8::is_ascii_uppercase)
            .count()
            .min(16);
        if name_len == 0 || !rest[name_len..].starts_with('[') {
            let found: String = rest.chars().take(12).collect();
            return Err(self.err(at, GgfErrorKind::BadTag { found }));
        }
        let name = rest[..name_len].to_string();
        self.pos += name_len + 1;
        let value_at = self.pos;
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        loop {
            match chars.next() {
                None => {
                    return Err(self.err(at, GgfErrorKind::UnterminatedValue { tag: name }));
                }
                Some((i, ']')) => {
                    self.pos += i + 1;
                    break;
                }
                Some((_, '\\')) => match chars.next() {
                    Some((_, c)) => value.push(c),
                    None => return Err(self.err(at, GgfErrorKind::UnterminatedValue { tag: name })),
                },
                Some((_, c)) => value.push(c),
            }
        }
        Ok(Some(Tag {
            name,
            value,
            at,
            value_at,
        }))
    }

    /// One record, from `(;` to `;)`.
    fn game(&mut self) -> Result<GgfGame, ParseGgfError> {
        self.skip_ws();
        if !self.rest().starts_with("(;") {
            return Err(self.err(self.pos, GgfErrorKind::MissingStart));
        }
        self.pos += 2;
        let mut game = GgfGame::new(Othello::new());
        let mut seen: Vec<String> = Vec::new();
        let mut board: Option<(Othello, usize)> = None;
        let mut moves: Vec<Tag> = Vec::new();
        while let Some(tag) = self.tag()? {
            let header = matches!(
                tag.name.as_str(),
                "GM" | "PC"
                    | "DT"
                    | "PB"
                    | "PW"
                    | "RB"
                    | "RW"
                    | "TI"
                    | "TB"
                    | "TW"
                    | "TY"
                    | "RE"
                    | "BO"
            );
            if header {
                if seen.contains(&tag.name) {
                    return Err(self.err(tag.at, GgfErrorKind::Duplicate { tag: tag.name }));
                }
                seen.push(tag.name.clone());
            }
            let v = tag.value.trim().to_string();
            match tag.name.as_str() {
                "GM" => {
                    if !v.eq_ignore_ascii_case("othello") {
                        return Err(self.err(tag.value_at, GgfErrorKind::NotOthello { game: v }));
                    }
                }
                "PC" => game.place = Some(tag.value),
                "DT" => game.date = Some(tag.value),
                "PB" => game.black = Some(tag.value),
                "PW" => game.white = Some(tag.value),
                "RB" => game.black_rating = Some(tag.value),
                "RW" => game.white_rating = Some(tag.value),
                "TI" => game.time = Some(tag.value),
                "TB" => game.black_time = Some(tag.value),
                "TW" => game.white_time = Some(tag.value),
                "TY" => {
                    if v != "8" && v != "8r" {
                        return Err(self.err(tag.value_at, GgfErrorKind::UnsupportedType { ty: v }));
                    }
                    game.board_type = v;
                }
                "RE" => {
                    game.result = parse_result(&v).ok_or_else(|| {
                        self.err(tag.value_at, GgfErrorKind::BadResult { text: v.clone() })
                    })?;
                }
                "BO" => {
                    let pos = parse_board(&tag.value).map_err(|reason| {
                        self.err(tag.value_at, GgfErrorKind::BadBoard { reason })
                    })?;
                    board = Some((pos, tag.value_at));
                }
                "B" | "W" => moves.push(tag),
                _ => game.extra.push((tag.name, tag.value)),
            }
        }
        if let Some((pos, _)) = board {
            game.start = pos;
        }
        for (i, tag) in moves.into_iter().enumerate() {
            let number = i + 1;
            let player = if tag.name == "B" {
                Player::First
            } else {
                Player::Second
            };
            let (mv, eval, time) = parse_move(&tag.value).ok_or_else(|| {
                self.err(
                    tag.value_at,
                    GgfErrorKind::BadMove {
                        number,
                        text: tag.value.clone(),
                    },
                )
            })?;
            let pos = game.position();
            let illegal = || {
                self.err(
                    tag.at,
                    GgfErrorKind::IllegalMove {
                        number,
                        mv,
                        position: pos.to_string(),
                    },
                )
            };
            if pos.is_over() || (player == pos.side_to_move() && !pos.is_legal(mv)) {
                return Err(illegal());
            }
            if player != pos.side_to_move() {
                // Only a placement after a forced pass that the record leaves out.
                let after_pass = pos.must_pass() && mv != Move::Pass && pos.passed().is_legal(mv);
                if !after_pass {
                    return Err(self.err(
                        tag.at,
                        GgfErrorKind::WrongPlayer {
                            number,
                            mv,
                            player: colour_name(player),
                            to_move: colour_name(pos.side_to_move()),
                        },
                    ));
                }
            }
            game.push_move(mv, eval, time).map_err(|_| illegal())?;
        }
        Ok(game)
    }
}

/// `?`, or a signed margin with an optional `:r`/`:t`/`:s`.
fn parse_result(v: &str) -> Option<Option<GgfResult>> {
    if v == "?" {
        return Some(None);
    }
    let (num, ending) = match v.split_once(':') {
        Some((n, e)) => {
            let ending = match e.trim() {
                "r" => GgfEnding::Resigned,
                "t" => GgfEnding::Timeout,
                "s" => GgfEnding::MutualScore,
                _ => return None,
            };
            (n, Some(ending))
        }
        None => (v, None),
    };
    let black_margin = parse_number(num)?;
    Some(Some(GgfResult {
        black_margin,
        ending,
    }))
}

/// A finite number (an optional sign, digits, an optional fraction).
fn parse_number(s: &str) -> Option<f64> {
    let s = s.trim();
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    s.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// `MOVE`, `MOVE/EVAL`, `MOVE/EVAL/TIME` with either part possibly empty.
fn parse_move(v: &str) -> Option<(Move, Option<f64>, Option<f64>)> {
    let mut parts = v.trim().split('/');
    let mv: Move = parts.next()?.trim().parse().ok()?;
    let field = |p: Option<&str>| -> Option<Option<f64>> {
        match p.map(str::trim) {
            None | Some("") => Some(None),
            Some(t) => parse_number(t).map(Some),
        }
    };
    let eval = field(parts.next())?;
    let time = field(parts.next())?;
    if parts.next().is_some() {
        return None;
    }
    Some((mv, eval, time))
}

/// The `BO` value: `8`, then 64 squares (white space between them allowed), then the side.
fn parse_board(v: &str) -> Result<Othello, String> {
    let v = v.trim();
    let (size, rest) = v
        .split_once(|c: char| c.is_ascii_whitespace())
        .ok_or_else(|| "expected the size 8, 64 squares and the side to move".to_string())?;
    if size != "8" {
        return Err(format!("board size {size:?}: only 8 is supported"));
    }
    let mut cells = rest.chars().filter(|c| !c.is_ascii_whitespace());
    let (mut black, mut white) = (0u64, 0u64);
    for i in 0..64 {
        match cells.next() {
            Some('*' | 'X' | 'x' | 'B' | 'b') => black |= 1 << i,
            Some('O' | 'o' | 'W' | 'w') => white |= 1 << i,
            Some('-' | '.') => {}
            Some(c) => {
                return Err(format!(
                    "bad square {c:?} for {}: expected *, O or -",
                    Square::new(i as u8)
                ))
            }
            None => {
                return Err(format!(
                    "only {i} squares: expected 64 and the side to move"
                ))
            }
        }
    }
    let side = match cells.next() {
        Some('*' | 'X' | 'x' | 'B' | 'b') => Player::First,
        Some('O' | 'o' | 'W' | 'w') => Player::Second,
        Some(c) => return Err(format!("bad side to move {c:?}: expected * or O")),
        None => return Err("missing the side to move (* or O)".to_string()),
    };
    if let Some(c) = cells.next() {
        return Err(format!("unexpected {c:?} after the side to move"));
    }
    Ok(Othello::from_discs(Bitboard(black), Bitboard(white), side)
        .expect("a square holds one character"))
}

impl FromStr for GgfGame {
    type Err = ParseGgfError;

    /// Parses one record; white space around it is allowed, anything else is an error.
    fn from_str(s: &str) -> Result<GgfGame, ParseGgfError> {
        let mut r = Reader {
            text: s,
            pos: 0,
            base: 0,
        };
        let game = r.game()?;
        if !r.at_end() {
            return Err(r.err(
                r.pos,
                GgfErrorKind::BadTag {
                    found: r.rest().chars().take(12).collect(),
                },
            ));
        }
        Ok(game)
    }
}

/// Parses a file of records separated by white space (one a line, as GGS archives and
/// NBoard write them).
///
/// # Errors
/// [`ParseGgfError`] for the first bad record, with its byte offset in `text`.
pub fn parse_ggf_file(text: &str) -> Result<Vec<GgfGame>, ParseGgfError> {
    let mut r = Reader {
        text,
        pos: 0,
        base: 0,
    };
    let mut games = Vec::new();
    while !r.at_end() {
        games.push(r.game()?);
    }
    Ok(games)
}

/// Writes records one a line, as [`parse_ggf_file`] reads them.
#[must_use]
pub fn write_ggf_file(games: &[GgfGame]) -> String {
    let mut out = String::new();
    for g in games {
        let _ = writeln!(out, "{g}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Rng;

    const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    #[test]
    fn reads_an_nboard_record() {
        let g: GgfGame = NBOARD.parse().unwrap();
        assert_eq!(g.place.as_deref(), Some("NBoard"));
        assert_eq!(g.date.as_deref(), Some("2014-02-21 20:52:27 GMT"));
        assert_eq!(g.black.as_deref(), Some("./mEdax"));
        assert_eq!(g.white.as_deref(), Some("chris"));
        assert_eq!(g.time.as_deref(), Some("15:00"));
        assert_eq!(g.board_type, "8");
        assert_eq!(g.result, None);
        assert_eq!(g.start(), Othello::new());
        let line: Vec<String> = g.line().iter().map(ToString::to_string).collect();
        assert_eq!(line, ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]);
        assert_eq!(
            g.position(),
            Othello::new().play_line("f5 f6 d3 c5 e6 f7 e7 f4").unwrap()
        );
        // The canonical form is the NBoard text with RE after TY.
        let again = g.to_string();
        assert_eq!(again.parse::<GgfGame>().unwrap(), g);
        assert_eq!(
            again,
            NBOARD.replace("RE[?]TI[15:00]TY[8]", "TI[15:00]TY[8]RE[?]")
        );
    }

    #[test]
    fn evaluations_times_results_and_escapes() {
        let text = "(;GM[othello]PB[a\\]b]RE[-12.500:t]RB[1897.01]C[hi]BO[8 \
                    -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
                    B[f5/1.5/0.25]W[d6//3]B[c3/-2];)";
        let g: GgfGame = text.parse().unwrap();
        assert_eq!(g.black.as_deref(), Some("a]b"));
        assert_eq!(
            g.result,
            Some(GgfResult {
                black_margin: -12.5,
                ending: Some(GgfEnding::Timeout)
            })
        );
        assert_eq!(g.extra, [("C".to_string(), "hi".to_string())]);
        let m = g.moves();
        assert_eq!((m[0].eval, m[0].time), (Some(1.5), Some(0.25)));
        assert_eq!((m[1].eval, m[1].time), (None, Some(3.0)));
        assert_eq!((m[2].eval, m[2].time), (Some(-2.0), None));
        let text2 = g.to_string();
        assert!(text2.contains("PB[a\\]b]"), "{text2}");
        assert!(text2.contains("RE[-12.500:t]"), "{text2}");
        assert!(text2.contains("B[F5/1.5/0.25]W[D6//3]B[C3/-2]"), "{text2}");
        assert_eq!(text2.parse::<GgfGame>().unwrap(), g);
    }

    #[test]
    fn forced_passes_are_made_explicit() {
        // Random games with passes, recorded without them.
        let mut rng = Rng::seed_from_u64(5);
        let mut found = 0;
        for _ in 0..200 {
            let mut pos = Othello::new();
            let mut line = Vec::new();
            while !pos.is_over() {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                line.push(mv);
                pos = pos.play_unchecked(mv);
            }
            if !line.contains(&Move::Pass) {
                continue;
            }
            found += 1;
            let without: Vec<Move> = line.iter().copied().filter(|m| *m != Move::Pass).collect();
            let g = GgfGame::from_line(Othello::new(), &without).unwrap();
            assert_eq!(g.line(), line);
            assert_eq!(g.position(), pos);
            // The same record move by move through `push` (each from a replay of the record).
            let mut slow = GgfGame::new(Othello::new());
            for &mv in &without {
                slow.push(mv).unwrap();
            }
            slow.set_result_from_board();
            assert_eq!(slow, g);
            // An illegal move is refused at the same number either way.
            let mut bad = without.clone();
            bad.push(Move::Place("d4".parse().unwrap()));
            let e = GgfGame::from_line(Othello::new(), &bad).unwrap_err();
            assert_eq!(e.number, line.len() + 1);
            assert_eq!(slow.push(bad[bad.len() - 1]).unwrap_err(), e);
            // The record without the pass tags reads back with them.
            let text = g.to_string().replace("B[PA]", "").replace("W[PA]", "");
            assert_eq!(text.parse::<GgfGame>().unwrap(), g);
        }
        assert!(found > 0, "no random game had a pass");
    }

    #[test]
    fn result_from_board_and_round_trip_of_random_games() {
        let mut rng = Rng::seed_from_u64(11);
        let mut games = Vec::new();
        for _ in 0..50 {
            let mut pos = Othello::new();
            let mut line = Vec::new();
            while !pos.is_over() {
                let moves = pos.legal_moves();
                let mv = moves[rng.below(moves.len())];
                line.push(mv);
                pos = pos.play_unchecked(mv);
            }
            let mut g = GgfGame::from_line(Othello::new(), &line).unwrap();
            assert_eq!(
                g.result.map(|r| r.black_margin),
                Some(f64::from(pos.final_score().unwrap()))
            );
            g.black = Some("x".into());
            games.push(g);
        }
        let file = write_ggf_file(&games);
        assert_eq!(parse_ggf_file(&file).unwrap(), games);
    }

    fn kind(text: &str) -> (usize, GgfErrorKind) {
        let e = text.parse::<GgfGame>().unwrap_err();
        (e.offset, e.kind)
    }

    #[test]
    fn rejects_malformed_records() {
        assert_eq!(kind("GM[Othello];)"), (0, GgfErrorKind::MissingStart));
        assert_eq!(kind("(;GM[Othello]"), (13, GgfErrorKind::Unterminated));
        assert_eq!(
            kind("(;GM[Othello]PB[x"),
            (
                13,
                GgfErrorKind::UnterminatedValue {
                    tag: "PB".to_string()
                }
            )
        );
        assert!(matches!(
            kind("(;gm[Othello];)"),
            (2, GgfErrorKind::BadTag { .. })
        ));
        assert_eq!(
            kind("(;GM[Chess];)"),
            (
                5,
                GgfErrorKind::NotOthello {
                    game: "Chess".to_string()
                }
            )
        );
        assert_eq!(
            kind("(;TY[10];)"),
            (
                5,
                GgfErrorKind::UnsupportedType {
                    ty: "10".to_string()
                }
            )
        );
        assert!(matches!(
            kind("(;BO[8 ---- *];)"),
            (5, GgfErrorKind::BadBoard { .. })
        ));
        assert!(matches!(
            kind("(;BO[10 ---- *];)"),
            (5, GgfErrorKind::BadBoard { .. })
        ));
        assert!(matches!(
            kind("(;RE[+3x];)"),
            (5, GgfErrorKind::BadResult { .. })
        ));
        assert!(matches!(
            kind("(;RE[+3:q];)"),
            (5, GgfErrorKind::BadResult { .. })
        ));
        assert!(matches!(
            kind("(;PB[a]PB[b];)"),
            (7, GgfErrorKind::Duplicate { .. })
        ));
        assert!(matches!(
            kind("(;B[z9];)"),
            (4, GgfErrorKind::BadMove { number: 1, .. })
        ));
        assert!(matches!(
            kind("(;B[f5/x];)"),
            (4, GgfErrorKind::BadMove { number: 1, .. })
        ));
        assert!(matches!(
            kind("(;B[f5]B[f6];)"),
            (
                7,
                GgfErrorKind::WrongPlayer {
                    number: 2,
                    player: "black",
                    ..
                }
            )
        ));
        assert!(matches!(
            kind("(;B[a1];)"),
            (2, GgfErrorKind::IllegalMove { number: 1, .. })
        ));
        assert!(matches!(
            kind("(;GM[Othello];) x"),
            (16, GgfErrorKind::BadTag { .. })
        ));
        // Offsets in a file count from the file's start.
        let e = parse_ggf_file("(;B[f5];)\n(;B[a1];)").unwrap_err();
        assert_eq!(e.offset, 12);
        assert_eq!(
            e.to_string(),
            "GGF error at byte 12: move 1 (a1) is illegal in position \
             ---------------------------OX------XO--------------------------- X"
        );
    }

    #[test]
    fn pushing_rejects_illegal_moves_and_keeps_the_record() {
        let mut g = GgfGame::new(Othello::new());
        g.push_move("f5".parse().unwrap(), Some(0.5), Some(1.0))
            .unwrap();
        let err = g.push("f5".parse().unwrap()).unwrap_err();
        assert_eq!(err.number, 2);
        assert_eq!(g.moves().len(), 1);
        assert_eq!(g.positions().len(), 2);
        assert_eq!(g.to_string().parse::<GgfGame>().unwrap(), g);
    }

    #[test]
    fn mangled_records_never_panic() {
        // Random edits of valid records: whatever parses prints and parses back the same.
        let valid = [
            NBOARD.to_string(),
            "(;GM[Othello]PB[a\\]b]RE[-12.500:t]B[f5/1.5/0.25]W[d6//3];)".to_string(),
        ];
        let alphabet = b"()[];:/\\*O-.+-0123456789abcdefghPABWREBOTY8 \n";
        let mut rng = Rng::seed_from_u64(99);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let mut bytes = valid[rng.below(valid.len())].clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                match rng.below(3) {
                    0 => bytes[i] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        bytes.remove(i);
                    }
                    _ => bytes.insert(i, alphabet[rng.below(alphabet.len())]),
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(g) = text.parse::<GgfGame>() {
                accepted += 1;
                assert_eq!(g.to_string().parse::<GgfGame>().unwrap(), g, "{text}");
            }
            let _ = parse_ggf_file(&text);
        }
        assert!(accepted > 100, "only {accepted} mangled records parsed");
    }
}
