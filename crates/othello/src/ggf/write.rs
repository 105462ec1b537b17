//! Writing records: one line per record, as GGS archives and NBoard write them.

use std::fmt::{self, Write as _};

use yomi_core::{Game, Player};

use super::{Record, RecordedMove};
use crate::{Othello, Square};

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
fn move_value(m: &RecordedMove) -> String {
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

impl fmt::Display for Record {
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

/// Writes records one a line, as [`parse_file`](super::parse_file) reads them.
#[must_use]
pub fn write_file(games: &[Record]) -> String {
    let mut out = String::new();
    for g in games {
        let _ = writeln!(out, "{g}");
    }
    out
}
