//! SVG drawings of tic-tac-toe boards (used by `yomi tree show --svg`; written to be reused by
//! other front ends). Plain strings, no dependencies; the output is deterministic.

use std::fmt::Write;

use yomi_core::Player;
use yomi_tictactoe::{Square, TicTacToe};

/// One board in a picture: the position, the text lines written above it, whether it is
/// highlighted (drawn with a thick coloured frame) and a square to mark (the last move).
#[derive(Debug, Clone)]
pub struct BoardCard {
    /// The position.
    pub board: TicTacToe,
    /// Lines of text above the board.
    pub labels: Vec<String>,
    /// Draw a highlighted frame (e.g. a best move).
    pub highlight: bool,
    /// A square to shade (e.g. the move just played).
    pub marked: Option<Square>,
}

/// Escapes text for SVG content.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Appends an SVG group drawing `card`'s board with its top-left corner at `(x, y)` and cells
/// of `cell` pixels; the labels go above `y`, `line` pixels apart.
pub fn draw_board(out: &mut String, card: &BoardCard, x: f64, y: f64, cell: f64, line: f64) {
    let size = 3.0 * cell;
    let _ = writeln!(out, "<g>");
    for (i, text) in card.labels.iter().enumerate() {
        let ty = y - line * (card.labels.len() - i) as f64 + line * 0.75;
        let _ = writeln!(
            out,
            r#"<text x="{:.1}" y="{ty:.1}" font-family="sans-serif" font-size="{:.1}" text-anchor="middle">{}</text>"#,
            x + size / 2.0,
            line * 0.8,
            escape(text)
        );
    }
    let (stroke, width) = if card.highlight {
        ("#d9480f", 4.0)
    } else {
        ("#888888", 1.5)
    };
    let _ = writeln!(
        out,
        r#"<rect x="{x:.1}" y="{y:.1}" width="{size:.1}" height="{size:.1}" fill="white" stroke="{stroke}" stroke-width="{width}"/>"#
    );
    if let Some(sq) = card.marked {
        let _ = writeln!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="{cell:.1}" height="{cell:.1}" fill="#fff3bf"/>"##,
            x + f64::from(sq.x()) * cell,
            y + f64::from(sq.y()) * cell
        );
    }
    for k in 1..3 {
        let d = f64::from(k) * cell;
        let _ = writeln!(
            out,
            r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="1.5"/>"#,
            x + d,
            x + d,
            y + size
        );
        let _ = writeln!(
            out,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="black" stroke-width="1.5"/>"#,
            y + d,
            x + size,
            y + d
        );
    }
    for sq in Square::ALL {
        let cx = x + (f64::from(sq.x()) + 0.5) * cell;
        let cy = y + (f64::from(sq.y()) + 0.5) * cell;
        let r = cell * 0.3;
        match card.board.cell(sq) {
            Some(Player::First) => {
                let _ = writeln!(
                    out,
                    r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="none" stroke="#1864ab" stroke-width="3"/>"##
                );
            }
            Some(Player::Second) => {
                let _ = writeln!(
                    out,
                    r##"<path d="M{:.1},{:.1} L{:.1},{:.1} M{:.1},{:.1} L{:.1},{:.1}" stroke="#c92a2a" stroke-width="3"/>"##,
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
    let _ = writeln!(out, "</g>");
}

/// A whole SVG document: `parent` centred on top, `children` in a row below it.
pub fn tree_picture(parent: &BoardCard, children: &[BoardCard]) -> String {
    const CELL: f64 = 30.0;
    const LINE: f64 = 16.0;
    const GAP: f64 = 30.0;
    let size = 3.0 * CELL;
    let child_labels = children.iter().map(|c| c.labels.len()).max().unwrap_or(0) as f64;
    let per_row = children.len().clamp(1, 9) as f64;
    let width = (per_row * (size + GAP) + GAP).max(size + 2.0 * GAP + 200.0);
    let top = GAP + LINE * parent.labels.len() as f64;
    let row_y = top + size + GAP + LINE * child_labels;
    let height = if children.is_empty() {
        top + size + GAP
    } else {
        row_y + size + GAP
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
    draw_board(&mut out, parent, (width - size) / 2.0, top, CELL, LINE);
    let row_width = children.len() as f64 * (size + GAP) - GAP;
    let start = (width - row_width) / 2.0;
    for (i, child) in children.iter().enumerate() {
        let x = start + i as f64 * (size + GAP);
        draw_board(&mut out, child, x, row_y, CELL, LINE);
    }
    out.push_str("</svg>\n");
    out
}
