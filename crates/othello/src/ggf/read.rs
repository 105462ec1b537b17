//! Reading records, with the byte offset of every problem.

use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Game, Player};

use super::record::colour_name;
use super::{Ending, Record, RecordResult};
use crate::{Bitboard, Move, Othello, Square};

/// Why a text is not a GGF record of Othello. `offset` is the byte offset in the text given
/// to the parser (the whole file for [`parse_file`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("GGF error at byte {offset}: {kind}")]
pub struct ParseError {
    /// Where the problem is.
    pub offset: usize,
    /// What it is.
    pub kind: ErrorKind,
}

/// The kinds of [`ParseError`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ErrorKind {
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
    fn err(&self, at: usize, kind: ErrorKind) -> ParseError {
        ParseError {
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
    fn tag(&mut self) -> Result<Option<Tag>, ParseError> {
        self.skip_ws();
        let rest = self.rest();
        if rest.is_empty() {
            return Err(self.err(self.pos, ErrorKind::Unterminated));
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
            return Err(self.err(at, ErrorKind::BadTag { found }));
        }
        let name = rest[..name_len].to_string();
        self.pos += name_len + 1;
        let value_at = self.pos;
        let mut value = String::new();
        let mut chars = self.rest().char_indices();
        loop {
            match chars.next() {
                None => {
                    return Err(self.err(at, ErrorKind::UnterminatedValue { tag: name }));
                }
                Some((i, ']')) => {
                    self.pos += i + 1;
                    break;
                }
                Some((_, '\\')) => match chars.next() {
                    Some((_, c)) => value.push(c),
                    None => return Err(self.err(at, ErrorKind::UnterminatedValue { tag: name })),
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
    fn game(&mut self) -> Result<Record, ParseError> {
        self.skip_ws();
        if !self.rest().starts_with("(;") {
            return Err(self.err(self.pos, ErrorKind::MissingStart));
        }
        self.pos += 2;
        let mut game = Record::new(Othello::new());
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
                    return Err(self.err(tag.at, ErrorKind::Duplicate { tag: tag.name }));
                }
                seen.push(tag.name.clone());
            }
            let v = tag.value.trim().to_string();
            match tag.name.as_str() {
                "GM" => {
                    if !v.eq_ignore_ascii_case("othello") {
                        return Err(self.err(tag.value_at, ErrorKind::NotOthello { game: v }));
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
                        return Err(self.err(tag.value_at, ErrorKind::UnsupportedType { ty: v }));
                    }
                    game.board_type = v;
                }
                "RE" => {
                    game.result = parse_result(&v).ok_or_else(|| {
                        self.err(tag.value_at, ErrorKind::BadResult { text: v.clone() })
                    })?;
                }
                "BO" => {
                    let pos = parse_board(&tag.value)
                        .map_err(|reason| self.err(tag.value_at, ErrorKind::BadBoard { reason }))?;
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
                    ErrorKind::BadMove {
                        number,
                        text: tag.value.clone(),
                    },
                )
            })?;
            let pos = game.position();
            let illegal = || {
                self.err(
                    tag.at,
                    ErrorKind::IllegalMove {
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
                        ErrorKind::WrongPlayer {
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
fn parse_result(v: &str) -> Option<Option<RecordResult>> {
    if v == "?" {
        return Some(None);
    }
    let (num, ending) = match v.split_once(':') {
        Some((n, e)) => {
            let ending = match e.trim() {
                "r" => Ending::Resigned,
                "t" => Ending::Timeout,
                "s" => Ending::MutualScore,
                _ => return None,
            };
            (n, Some(ending))
        }
        None => (v, None),
    };
    let black_margin = parse_number(num)?;
    Some(Some(RecordResult {
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

impl FromStr for Record {
    type Err = ParseError;

    /// Parses one record; white space around it is allowed, anything else is an error.
    fn from_str(s: &str) -> Result<Record, ParseError> {
        let mut r = Reader {
            text: s,
            pos: 0,
            base: 0,
        };
        let game = r.game()?;
        if !r.at_end() {
            return Err(r.err(
                r.pos,
                ErrorKind::BadTag {
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
/// [`ParseError`] for the first bad record, with its byte offset in `text`.
pub fn parse_file(text: &str) -> Result<Vec<Record>, ParseError> {
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
