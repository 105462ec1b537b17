//! The server's opening book (`yomi serve --book PATH`, [`crate::ServeConfig::book`]): its
//! moves in every Othello position the page shows, and the `othello` agent's `book=server`.
//!
//! The book is read once and shared ([`Book::shared`]) by the position views and by every
//! agent built with `book=server`; a client never names a file.

use std::path::Path;

use serde::Serialize;
use yomi_core::Game;
use yomi_othello::{Move, Othello};
use yomi_othello_search::{depth_text, weights_digest, Book, Weights};

use crate::games::WebGame;
use crate::ApiError;

/// The value a client gives the `othello` agent's `book` parameter for the server's book.
pub(crate) const SERVER_BOOK: &str = "server";

/// The server's book, read (or found already read) for a request.
///
/// # Errors
/// [`ApiError::Internal`] when the file no longer reads (it was checked when the server
/// started).
pub(crate) fn server_book(path: &Path) -> Result<std::sync::Arc<Book>, ApiError> {
    Book::shared(path)
        .map_err(|e| ApiError::Internal(format!("the server's book {}: {e}", path.display())))
}

/// What `GET /api/games` says of the server's book.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BookInfo {
    /// The file's name (without its directory).
    name: String,
    /// Its positions.
    positions: usize,
    /// The digest of the evaluation weights that valued it, in hex.
    weights: String,
    /// Whether those are the built-in weights of the `othello` agent.
    builtin_weights: bool,
}

impl BookInfo {
    pub(crate) fn of(path: &Path) -> Result<BookInfo, ApiError> {
        let book = server_book(path)?;
        let builtin = weights_digest(&Weights::builtin()).ok();
        Ok(BookInfo {
            name: path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            positions: book.len(),
            weights: format!("{:016x}", book.weights()),
            builtin_weights: builtin == Some(book.weights()),
        })
    }
}

/// A position's book moves, as the page shows them.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BookView {
    /// The position's value in discs, for the side to move (negamaxed over the book).
    value: i32,
    /// The depth behind its best move's value: a midgame depth such as `12`, or `exact`.
    depth: String,
    /// How many games or lines of the book went through the position.
    lines: u32,
    /// The book moves, best first: each legal move whose position is in the book, and the
    /// leaf (the best move whose position is not).
    moves: Vec<BookMoveView>,
}

/// One book move.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BookMoveView {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
    /// Its value in discs for the side that plays it.
    value: i32,
    /// For the board: `+2`, `-4`, `0`.
    text: String,
    /// `12`, `exact`.
    depth: String,
    /// Lines through the position it leads to (0 for the leaf).
    lines: u32,
    /// Whether it is the leaf: valued by a search, its position not in the book.
    leaf: bool,
    /// Whether it is a best move of the book.
    best: bool,
}

/// The book's moves in `pos`, `None` when `pos` is not in the book (or its side to move must
/// pass, which needs no book).
pub(crate) fn book_view(pos: &Othello, book: &Book) -> Option<BookView> {
    if pos.legal_moves().as_slice() == [Move::Pass] {
        return None;
    }
    let entry = book.get(pos)?;
    let moves = book.moves(pos);
    let (top, best_depth) = moves.first().map(|m| (m.value, m.depth))?;
    Some(BookView {
        value: i32::from(entry.value),
        depth: depth_text(best_depth),
        lines: entry.lines,
        moves: moves
            .iter()
            .map(|m| BookMoveView {
                mv: m.mv.to_string(),
                cell: <Othello as WebGame>::cell(m.mv),
                value: i32::from(m.value),
                text: format!("{:+}", m.value),
                depth: depth_text(m.depth),
                lines: m.lines,
                leaf: m.leaf,
                best: m.value == top,
            })
            .collect(),
    })
}
