//! SVG drawings of small boards: the pictures of `yomi tree show --svg` and of the tree browser
//! of `yomi serve`, drawn by this one piece of code.
//!
//! The drawing knows no concrete game (this crate depends on `yomi-core` only): a caller turns
//! its position into a [`Picture`], a grid of marks (tic-tac-toe: O as a ring, X as a cross) or
//! a pile of stones (the stone game), and puts it on a [`BoardCard`] with the text to write
//! above it. Plain strings, no dependencies; the output is deterministic.

use std::fmt::Write;

use yomi_core::{Outcome, Player};

/// What a board looks like, independent of the game it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Picture {
    /// A grid of cells in row-major order, each empty or holding a player's mark: the first
    /// player's as a ring, the second player's as a cross (tic-tac-toe's O and X).
    Marks {
        /// Columns.
        width: u8,
        /// Rows.
        height: u8,
        /// `width * height` cells, row by row from the top left.
        cells: Vec<Option<Player>>,
    },
    /// A grid of cells in row-major order, each empty or holding a player's disc (Othello):
    /// the first player's black, the second player's white.
    Discs {
        /// Columns.
        width: u8,
        /// Rows.
        height: u8,
        /// `width * height` cells, row by row from the top left.
        cells: Vec<Option<Player>>,
    },
    /// A pile of stones in rows of five: `left` stones still there out of `total` (the ones
    /// taken are drawn as faint outlines). Cell `i` is stone `i`.
    Stones {
        /// Stones on the table.
        left: u32,
        /// Stones drawn in all (at least `left`).
        total: u32,
    },
}

/// How many stones a [`Picture::Stones`] row holds.
const STONES_PER_ROW: u32 = 5;

/// The most stones drawn one by one; larger piles are drawn as this many.
const MAX_STONES_DRAWN: u32 = 60;

impl Picture {
    /// The size of the picture in cells: `(columns, rows)`.
    #[must_use]
    pub fn cells(&self) -> (u32, u32) {
        match self {
            Picture::Marks { width, height, .. } | Picture::Discs { width, height, .. } => {
                (u32::from(*width), u32::from(*height))
            }
            Picture::Stones { left, total } => {
                let n = (*total).max(*left).clamp(1, MAX_STONES_DRAWN);
                (STONES_PER_ROW.min(n), n.div_ceil(STONES_PER_ROW))
            }
        }
    }
}

/// One board in a picture: what it shows, the text lines written above it, whether it is
/// highlighted (drawn with a thick coloured frame), the cells to shade (the last move) and, for
/// a finished game, its outcome (the board is filled with the winner's colour, or grey for a
/// draw).
#[derive(Debug, Clone)]
pub struct BoardCard {
    /// The board.
    pub picture: Picture,
    /// Lines of text above the board.
    pub labels: Vec<String>,
    /// Draw a highlighted frame (e.g. a best move).
    pub highlight: bool,
    /// Cells to shade (e.g. the move just played), as row-major indices.
    pub marked: Vec<usize>,
    /// Colour the board by this result (`None`: a white board).
    pub outcome: Option<Outcome>,
}

impl BoardCard {
    /// A card with no labels, no frame, no shading and a white board.
    #[must_use]
    pub fn new(picture: Picture) -> BoardCard {
        BoardCard {
            picture,
            labels: Vec::new(),
            highlight: false,
            marked: Vec::new(),
            outcome: None,
        }
    }

    /// The board's size in pixels for cells of `cell` pixels: `(width, height)`.
    #[must_use]
    pub fn size(&self, cell: f64) -> (f64, f64) {
        let (w, h) = self.picture.cells();
        (f64::from(w) * cell, f64::from(h) * cell)
    }
}

/// Escapes text for SVG (and HTML) content and attributes.
#[must_use]
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The colours of the first player's mark, the second player's mark, a highlighted frame.
const FIRST_COLOUR: &str = "#1864ab";
const SECOND_COLOUR: &str = "#c92a2a";
const HIGHLIGHT: &str = "#d9480f";

/// The board's fill for a result.
fn fill(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        None => "white",
        Some(Outcome::Win(Player::First)) => "#d0ebff",
        Some(Outcome::Win(Player::Second)) => "#ffe3e3",
        Some(Outcome::Draw) => "#e9ecef",
    }
}

/// Appends an SVG group drawing `card`'s board with its top-left corner at `(x, y)` and cells
/// of `cell` pixels; the labels go above `y`, `line` pixels apart.
pub fn draw_board(out: &mut String, card: &BoardCard, x: f64, y: f64, cell: f64, line: f64) {
    let (width, height) = card.size(cell);
    let (cols, rows) = card.picture.cells();
    let _ = writeln!(out, "<g>");
    for (i, text) in card.labels.iter().enumerate() {
        let ty = y - line * (card.labels.len() - i) as f64 + line * 0.75;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{ty:.1}" font-family="sans-serif" font-size="{:.1}" text-anchor="middle">{}</text>"#,
            x + width / 2.0,
            line * 0.8,
            escape(text)
        );
    }
    let (stroke, stroke_width) = if card.highlight {
        (HIGHLIGHT, 4.0)
    } else {
        ("#888888", 1.5)
    };
    let _ = writeln!(
        out,
        r#"<rect x="{x:.1}" y="{y:.1}" width="{width:.1}" height="{height:.1}" fill="{}" stroke="{stroke}" stroke-width="{stroke_width}"/>"#,
        fill(card.outcome)
    );
    for &i in &card.marked {
        let Ok(i) = u32::try_from(i) else { continue };
        if i >= cols * rows {
            continue;
        }
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{cell:.1}" height="{cell:.1}" fill="#fff3bf"/>"##,
            x + f64::from(i % cols) * cell,
            y + f64::from(i / cols) * cell
        );
    }
    match &card.picture {
        Picture::Marks { cells, .. } => {
            draw_grid(out, (cols, rows), x, y, cell, (width, height));
            for (i, mark) in cells.iter().enumerate().take((cols * rows) as usize) {
                let i = i as u32;
                let cx = x + (f64::from(i % cols) + 0.5) * cell;
                let cy = y + (f64::from(i / cols) + 0.5) * cell;
                draw_mark(out, *mark, cx, cy, cell * 0.3);
            }
        }
        Picture::Discs { cells, .. } => {
            draw_grid(out, (cols, rows), x, y, cell, (width, height));
            for (i, disc) in cells.iter().enumerate().take((cols * rows) as usize) {
                let i = i as u32;
                let cx = x + (f64::from(i % cols) + 0.5) * cell;
                let cy = y + (f64::from(i / cols) + 0.5) * cell;
                let r = cell * 0.38;
                let fill = match disc {
                    Some(Player::First) => "#212529",
                    Some(Player::Second) => "#f8f9fa",
                    None => continue,
                };
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="#212529" stroke-width="1.2"/>"##
                );
            }
        }
        Picture::Stones { left, total } => {
            let n = (*total).max(*left).clamp(1, MAX_STONES_DRAWN);
            let left = (*left).min(n);
            for i in 0..n {
                let cx = x + (f64::from(i % cols) + 0.5) * cell;
                let cy = y + (f64::from(i / cols) + 0.5) * cell;
                let r = cell * 0.35;
                if i < left {
                    let _ = writeln!(
                        out,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="#495057" stroke="#212529" stroke-width="1.5"/>"##
                    );
                } else {
                    let _ = writeln!(
                        out,
                        r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="none" stroke="#adb5bd" stroke-width="1.5" stroke-dasharray="3,3"/>"##
                    );
                }
            }
        }
    }
    let _ = writeln!(out, "</g>");
}

/// The inner lines of a grid of `cols` x `rows` cells.
fn draw_grid(
    out: &mut String,
    (cols, rows): (u32, u32),
    x: f64,
    y: f64,
    cell: f64,
    size: (f64, f64),
) {
    for k in 1..cols.max(rows) {
        let d = f64::from(k) * cell;
        if k < cols {
            let _ = writeln!(
                out,
                r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="1.5"/>"#,
                x + d,
                x + d,
                y + size.1
            );
        }
        if k < rows {
            let _ = writeln!(
                out,
                r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="1.5"/>"#,
                y + d,
                x + size.0,
                y + d
            );
        }
    }
}

/// A ring for the first player, a cross for the second, centred on `(cx, cy)`.
fn draw_mark(out: &mut String, mark: Option<Player>, cx: f64, cy: f64, r: f64) {
    match mark {
        Some(Player::First) => {
            let _ = writeln!(
                out,
                r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="none" stroke="{FIRST_COLOUR}" stroke-width="3"/>"#
            );
        }
        Some(Player::Second) => {
            let _ = writeln!(
                out,
                r#"<path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="{SECOND_COLOUR}" stroke-width="3"/>"#,
                cx - r,
                cy - r,
                cx + r,
                cy + r,
                cx - r,
                cy + r,
                cx + r,
                cy - r
            );
        }
        None => {}
    }
}

/// A whole SVG document: `parent` centred on top, `children` in a row below it.
#[must_use]
pub fn tree_picture(parent: &BoardCard, children: &[BoardCard]) -> String {
    const CELL: f64 = 30.0;
    const LINE: f64 = 16.0;
    const GAP: f64 = 30.0;
    let (parent_w, parent_h) = parent.size(CELL);
    let child_w = children.iter().map(|c| c.size(CELL).0).fold(0.0, f64::max);
    let child_h = children.iter().map(|c| c.size(CELL).1).fold(0.0, f64::max);
    let child_labels = children.iter().map(|c| c.labels.len()).max().unwrap_or(0) as f64;
    let per_row = children.len().clamp(1, 9) as f64;
    let width = (per_row * (child_w.max(parent_w) + GAP) + GAP).max(parent_w + 2.0 * GAP + 200.0);
    let top = GAP + LINE * parent.labels.len() as f64;
    let row_y = top + parent_h + GAP + LINE * child_labels;
    let height = if children.is_empty() {
        top + parent_h + GAP
    } else {
        row_y + child_h + GAP
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">"#
    );
    let _ = writeln!(
        out,
        r##"<rect width="{width:.0}" height="{height:.0}" fill="#f8f9fa"/>"##
    );
    draw_board(&mut out, parent, (width - parent_w) / 2.0, top, CELL, LINE);
    let step = child_w.max(parent_w) + GAP;
    let row_width = children.len() as f64 * step - GAP;
    let start = (width - row_width) / 2.0;
    for (i, child) in children.iter().enumerate() {
        let x = start + i as f64 * step;
        draw_board(&mut out, child, x, row_y, CELL, LINE);
    }
    out.push_str("</svg>\n");
    out
}

/// One board as a standalone SVG document (no labels), cells of `cell` pixels, with a margin
/// of a few pixels so that a thick frame is not cut off.
#[must_use]
pub fn board_svg(card: &BoardCard, cell: f64) -> String {
    const MARGIN: f64 = 3.0;
    let (w, h) = card.size(cell);
    let (width, height) = (w + 2.0 * MARGIN, h + 2.0 * MARGIN);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}">"#
    );
    let card = BoardCard {
        labels: Vec::new(),
        ..card.clone()
    };
    draw_board(&mut out, &card, MARGIN, MARGIN, cell, 0.0);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(text: &str) -> Picture {
        let cells = text
            .chars()
            .map(|c| match c {
                'o' => Some(Player::First),
                'x' => Some(Player::Second),
                _ => None,
            })
            .collect();
        Picture::Marks {
            width: 3,
            height: 3,
            cells,
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(marks(".........").cells(), (3, 3));
        assert_eq!(Picture::Stones { left: 7, total: 15 }.cells(), (5, 3));
        assert_eq!(Picture::Stones { left: 2, total: 2 }.cells(), (2, 1));
        assert_eq!(Picture::Stones { left: 0, total: 0 }.cells(), (1, 1));
        assert_eq!(
            Picture::Stones {
                left: 1_000,
                total: 1_000
            }
            .cells(),
            (5, 12)
        );
    }

    #[test]
    fn pictures_hold_what_they_show() {
        let mut card = BoardCard::new(marks("ox......o"));
        card.highlight = true;
        card.marked = vec![8, 99];
        card.outcome = Some(Outcome::Win(Player::First));
        let svg = board_svg(&card, 20.0);
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert_eq!(svg.matches("<path").count(), 1);
        assert_eq!(
            svg.matches("#fff3bf").count(),
            1,
            "out-of-range cells are skipped"
        );
        assert!(svg.contains(HIGHLIGHT) && svg.contains("#d0ebff"));
        let stones = BoardCard::new(Picture::Stones {
            left: 12,
            total: 15,
        });
        let svg = tree_picture(&stones, std::slice::from_ref(&stones));
        assert_eq!(svg.matches(r##"fill="#495057""##).count(), 24);
        assert_eq!(svg.matches("stroke-dasharray").count(), 6);
        let mut labelled = BoardCard::new(marks("........."));
        labelled.labels = vec!["a < b & c".into()];
        assert!(tree_picture(&labelled, &[]).contains("a &lt; b &amp; c"));
    }

    #[test]
    fn discs_are_black_and_white_circles_on_their_grid() {
        let mut cells = vec![None; 16];
        cells[5] = Some(Player::Second);
        cells[6] = Some(Player::First);
        cells[9] = Some(Player::First);
        let card = BoardCard::new(Picture::Discs {
            width: 4,
            height: 4,
            cells,
        });
        assert_eq!(card.picture.cells(), (4, 4));
        let svg = board_svg(&card, 20.0);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(svg.matches(r##"fill="#212529""##).count(), 2);
        assert_eq!(svg.matches(r##"fill="#f8f9fa""##).count(), 1);
    }
}
