//! The book's readable text form ([`Book::export`], [`Book::import`]): a header line with the
//! weights' digest, then a line per position in canonical order:
//!
//! ```text
//! # yomi book: weights 9f2c41d3a0b1e5f7, 2 positions
//! ---------------------------OX------XO--------------------------- +0 8 d3 +0 1
//! ...
//! ```
//!
//! Each line: the board from the side to move (`X` its discs, `O` the opponent's, a1 to h8),
//! the value, the depth (`exact` for an exact solve, `wld` for a win/loss/draw proof), the
//! leaf (`-` for none) and its value, and the lines through the position.

use std::fmt::Write as _;

use thiserror::Error;
use yomi_core::Game;
use yomi_othello::{Move, Othello};

use super::{stored_form, Book, BookEntry, EXACT_DEPTH, WLD_DEPTH};

/// Why a book's text does not read: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("book text line {line}: {reason}")]
pub struct ParseBookError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

const HEADER: &str = "# yomi book: weights ";

/// A book depth as the text form and `yomi book` write it: the plies, `exact` for
/// [`EXACT_DEPTH`], or `wld` for [`WLD_DEPTH`].
#[must_use]
pub fn depth_text(depth: u8) -> String {
    match depth {
        EXACT_DEPTH => "exact".into(),
        WLD_DEPTH => "wld".into(),
        d => d.to_string(),
    }
}

impl Book {
    /// The book as text: a header line `# yomi book: weights <16 hex digits>, N positions`,
    /// then a line per position in canonical order: the board from the side to move (`X` its
    /// discs, `O` the opponent's, a1 to h8), the value, the depth (`exact` for an exact
    /// solve, `wld` for a win/loss/draw proof), the leaf (`-` for none) and its value, and the
    /// lines through the position.
    #[must_use]
    pub fn export(&self) -> String {
        let mut s = format!("{HEADER}{:016x}, {} positions\n", self.weights, self.len());
        for (pos, e) in self.iter() {
            // The canonical position has its side to move as black, `X`: its board string
            // is the notation's, without the side.
            let text = pos.to_string();
            let board = text.split(' ').next().unwrap_or_default();
            let depth = depth_text(e.depth);
            let leaf = e.leaf.map_or("-".to_string(), |m| m.to_string());
            let _ = writeln!(
                s,
                "{board} {:+} {depth} {leaf} {:+} {}",
                e.value, e.leaf_value, e.lines
            );
        }
        s
    }

    /// Reads a book from its text form: the header, then a line per position (in any order;
    /// blank lines are skipped). Each position must have a move to play, each leaf must be a
    /// legal move, and each value must lie in -64..64.
    ///
    /// # Errors
    /// [`ParseBookError`] naming the first bad line.
    pub fn import(text: &str) -> Result<Book, ParseBookError> {
        let mut lines = text.lines().enumerate();
        let bad = |line: usize, reason: String| ParseBookError {
            line: line + 1,
            reason,
        };
        let (n, head) = lines
            .next()
            .ok_or_else(|| bad(0, "empty text: expected the header".into()))?;
        let digest = head
            .strip_prefix(HEADER)
            .and_then(|r| r.split(',').next())
            .and_then(|h| u64::from_str_radix(h.trim(), 16).ok())
            .ok_or_else(|| {
                bad(
                    n,
                    format!("expected `{HEADER}<16 hex digits>, N positions`"),
                )
            })?;
        let mut book = Book::new(digest);
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [board, value, depth, leaf, leaf_value, count] = fields[..] else {
                return Err(bad(
                    n,
                    format!(
                        "expected 6 fields (board value depth leaf leaf-value lines), found {}",
                        fields.len()
                    ),
                ));
            };
            // The side to move is `X`, as the export writes it.
            let pos: Othello = format!("{board} X")
                .parse()
                .map_err(|e| bad(n, format!("bad board {board:?}: {e}")))?;
            if !matches!(stored_form(&pos), Some((_, false))) {
                return Err(bad(n, "the side to move has no move to play".into()));
            }
            let number = |what: &str, t: &str| -> Result<i8, ParseBookError> {
                t.parse::<i8>()
                    .ok()
                    .filter(|v| (-64..=64).contains(v))
                    .ok_or_else(|| bad(n, format!("bad {what} {t:?}: expected -64 to +64")))
            };
            let value = number("value", value)?;
            let leaf_value = number("leaf value", leaf_value)?;
            let depth = match depth {
                "exact" => EXACT_DEPTH,
                "wld" => WLD_DEPTH,
                _ => depth
                    .parse::<u8>()
                    .ok()
                    .filter(|&d| d < WLD_DEPTH)
                    .ok_or_else(|| {
                        bad(
                            n,
                            format!("bad depth {depth:?}: expected 0-253, wld or exact"),
                        )
                    })?,
            };
            let leaf = if leaf == "-" {
                None
            } else {
                let mv: Move = leaf
                    .parse()
                    .map_err(|e| bad(n, format!("bad leaf {leaf:?}: {e}")))?;
                if mv == Move::Pass || !pos.legal_moves().contains(&mv) {
                    return Err(bad(n, format!("the leaf {leaf} is not a legal move")));
                }
                Some(mv)
            };
            let lines = count
                .parse::<u32>()
                .map_err(|_| bad(n, format!("bad line count {count:?}")))?;
            if book.contains(&pos) {
                return Err(bad(n, "a position given twice (up to symmetry)".into()));
            }
            book.insert(
                &pos,
                BookEntry {
                    value,
                    depth,
                    leaf,
                    leaf_value,
                    lines,
                },
            );
        }
        Ok(book)
    }
}
