//! A plain 8x8 array Othello, written independently of the bitboard code and kept obviously
//! correct: every question is answered by walking the 8 directions square by square.

/// Cell contents.
pub const EMPTY: u8 = 0;
/// Black disc.
pub const BLACK: u8 = 1;
/// White disc.
pub const WHITE: u8 = 2;

/// The 8 directions as (row step, column step).
const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A position: `cells[row][col]`, row 0 is the top row ("1"), col 0 the column "a".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: [[u8; 8]; 8],
    /// `BLACK` or `WHITE`.
    pub to_move: u8,
}

pub fn other(colour: u8) -> u8 {
    if colour == BLACK {
        WHITE
    } else {
        BLACK
    }
}

impl Board {
    /// The standard start: d5 and e4 black, d4 and e5 white, black to move.
    #[allow(dead_code)]
    pub fn start() -> Board {
        let mut cells = [[EMPTY; 8]; 8];
        cells[3][3] = WHITE; // d4
        cells[3][4] = BLACK; // e4
        cells[4][3] = BLACK; // d5
        cells[4][4] = WHITE; // e5
        Board {
            cells,
            to_move: BLACK,
        }
    }

    /// The squares (row, col) that `colour` would flip by playing at (row, col); empty if the
    /// square is occupied or nothing is flipped.
    pub fn flips(&self, colour: u8, row: usize, col: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.cells[row][col] != EMPTY {
            return all;
        }
        let opp = other(colour);
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let mut r = row as i32 + dr;
            let mut c = col as i32 + dc;
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let cell = self.cells[r as usize][c as usize];
                if cell == opp {
                    line.push((r as usize, c as usize));
                } else {
                    if cell == colour {
                        all.extend(line.iter().copied());
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    /// The squares where `colour` may play, in row-major order.
    pub fn moves_for(&self, colour: u8) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for row in 0..8 {
            for col in 0..8 {
                if !self.flips(colour, row, col).is_empty() {
                    out.push((row, col));
                }
            }
        }
        out
    }

    /// Whether neither player can move.
    pub fn is_over(&self) -> bool {
        self.moves_for(BLACK).is_empty() && self.moves_for(WHITE).is_empty()
    }

    /// Whether the side to move must pass (it cannot move but the opponent can).
    pub fn must_pass(&self) -> bool {
        self.moves_for(self.to_move).is_empty() && !self.moves_for(other(self.to_move)).is_empty()
    }

    /// Plays at (row, col) for the side to move, which must be a legal move.
    pub fn play(&mut self, row: usize, col: usize) {
        let flips = self.flips(self.to_move, row, col);
        assert!(!flips.is_empty(), "illegal reference move");
        for (r, c) in flips {
            self.cells[r][c] = self.to_move;
        }
        self.cells[row][col] = self.to_move;
        self.to_move = other(self.to_move);
    }

    /// Passes.
    pub fn pass(&mut self) {
        self.to_move = other(self.to_move);
    }

    /// Number of discs of `colour`.
    pub fn count(&self, colour: u8) -> i32 {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == colour)
            .count() as i32
    }

    /// Black's final score: disc difference, empty squares to the winner.
    pub fn final_score(&self) -> i32 {
        let b = self.count(BLACK);
        let w = self.count(WHITE);
        let e = 64 - b - w;
        if b > w {
            b - w + e
        } else if w > b {
            b - w - e
        } else {
            0
        }
    }

    /// Empty squares next (in any of 8 directions) to a disc of `colour`.
    pub fn potential_mobility_against(&self, colour: u8) -> usize {
        let mut n = 0;
        for row in 0..8 {
            for col in 0..8 {
                if self.cells[row][col] != EMPTY {
                    continue;
                }
                let next_to = DIRS.iter().any(|&(dr, dc)| {
                    let r = row as i32 + dr;
                    let c = col as i32 + dc;
                    (0..8).contains(&r)
                        && (0..8).contains(&c)
                        && self.cells[r as usize][c as usize] == colour
                });
                n += usize::from(next_to);
            }
        }
        n
    }
}
