//! Othello on the smaller even boards (4x4 and 6x6, and 8x8 as a cross-check) with the same
//! rules as [`Othello`](crate::Othello), written apart from the 8x8 hot paths.
//!
//! An `N`x`N` board lives in the top-left corner of the 64-bit bitboard: square `(col, row)`
//! is bit `row * 8 + col`, so the squares `a1`.. keep their 8x8 [`Square`] names and indices.
//! A mask holds the `N * N` playable squares; every shift is ANDed with it, so a square outside
//! the board is never occupied nor playable and lines of flips stop at the board's edge.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{FinalScore, Game, HashKey, LeafEval, MoveList, Outcome, Player, Symmetric};

use crate::{Bitboard, Square};

/// The bit of square `(col, row)`.
const fn bit(col: u8, row: u8) -> u64 {
    1u64 << (row as usize * 8 + col as usize)
}

/// The playable squares of an `n`x`n` board in the top-left corner of the 8x8 bitboard.
const fn board_mask(n: usize) -> u64 {
    let row: u64 = if n >= 8 { 0xff } else { (1u64 << n) - 1 };
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

const NOT_COL_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_COL_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// One step in direction `d` (0..8: E, W, S, N, SE, NW, SW, NE; S is a higher row), keeping
/// only squares of `mask`.
#[inline]
const fn step(x: u64, d: usize, mask: u64) -> u64 {
    (match d {
        0 => (x << 1) & NOT_COL_A,
        1 => (x >> 1) & NOT_COL_H,
        2 => x << 8,
        3 => x >> 8,
        4 => (x << 9) & NOT_COL_A,
        5 => (x >> 9) & NOT_COL_H,
        6 => (x << 7) & NOT_COL_H,
        _ => (x >> 7) & NOT_COL_A,
    }) & mask
}

/// The squares of `mask` where the side with discs `p` may play against discs `o`.
#[inline]
pub(crate) const fn masked_moves(p: u64, o: u64, mask: u64) -> u64 {
    let empty = !(p | o) & mask;
    let mut moves = 0;
    let mut d = 0;
    while d < 8 {
        let mut x = step(p, d, mask) & o;
        // At most 6 opponent discs lie between a disc and an empty square on a line of 8.
        let mut k = 0;
        while k < 5 {
            x |= step(x, d, mask) & o;
            k += 1;
        }
        moves |= step(x, d, mask) & empty;
        d += 1;
    }
    moves
}

/// The opponent discs that a disc on bit `sq` brackets.
#[inline]
pub(crate) const fn masked_flips(p: u64, o: u64, sq: usize, mask: u64) -> u64 {
    let mut flips = 0;
    let mut d = 0;
    while d < 8 {
        let mut line = 0;
        let mut x = step(1 << sq, d, mask);
        while x & o != 0 {
            line |= x;
            x = step(x, d, mask);
        }
        if x & p != 0 {
            flips |= line;
        }
        d += 1;
    }
    flips
}

/// A move on an `N`x`N` board: a disc placed on a square of the board, or a pass.
///
/// Notation: a square with one of the first `N` letters and one of the first `N` digits
/// (`a1`..`d4` on 4x4, `a1`..`f6` on 6x6, either case), or `PA` for the pass (`pass` too, any
/// case). Moves order by square index (row by row), the pass last; [`Default`] is the pass.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum SmallMove<const N: usize> {
    /// Place a disc on this square (always on the board: column and row below `N`).
    Place(Square),
    /// Pass: legal only when the side to move has no square but the opponent has one.
    #[default]
    Pass,
}

impl<const N: usize> SmallMove<N> {
    /// Every move that can ever be legal: the `N * N` squares row by row, then the pass.
    #[must_use]
    pub fn all() -> Vec<SmallMove<N>> {
        Bitboard(board_mask(N))
            .iter()
            .map(SmallMove::Place)
            .chain([SmallMove::Pass])
            .collect()
    }

    /// The move placing a disc on `sq`, or `None` when `sq` is off the `N`x`N` board.
    #[must_use]
    pub fn place(sq: Square) -> Option<SmallMove<N>> {
        (usize::from(sq.col()) < N && usize::from(sq.row()) < N).then_some(SmallMove::Place(sq))
    }

    /// The square of a placement, `None` for the pass.
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            SmallMove::Place(sq) => Some(sq),
            SmallMove::Pass => None,
        }
    }
}

impl<const N: usize> fmt::Display for SmallMove<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmallMove::Place(sq) => fmt::Display::fmt(sq, f),
            SmallMove::Pass => f.write_str("PA"),
        }
    }
}

/// Why a text is not a move of an `N`x`N` board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid {size}x{size} move {text:?}: expected a square a1-{last} or PA (pass)")]
pub struct ParseSmallMoveError {
    /// The text that did not parse.
    pub text: String,
    /// The board size `N`.
    pub size: usize,
    /// The last square of the board (`d4` on 4x4).
    pub last: String,
}

impl<const N: usize> FromStr for SmallMove<N> {
    type Err = ParseSmallMoveError;

    fn from_str(s: &str) -> Result<SmallMove<N>, ParseSmallMoveError> {
        if s.eq_ignore_ascii_case("pa") || s.eq_ignore_ascii_case("pass") {
            return Ok(SmallMove::Pass);
        }
        s.parse::<Square>()
            .ok()
            .and_then(SmallMove::place)
            .ok_or_else(|| ParseSmallMoveError {
                text: s.to_string(),
                size: N,
                last: Square::at(N as u8 - 1, N as u8 - 1).to_string(),
            })
    }
}

/// Why a text is not a position of an `N`x`N` board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseSmallBoardError {
    /// The board part has the wrong number of squares (a board of another size).
    #[error("a {size}x{size} board has {expected} squares, found {found}")]
    WrongSize {
        /// The board size `N`.
        size: usize,
        /// `N * N`.
        expected: usize,
        /// The number of square characters given.
        found: usize,
    },
    /// A square character is not `X`, `O` or `-` (nor `x`, `*`, `o`, `.`).
    #[error("square {index} is {found:?}: expected X, O or -")]
    BadSquare {
        /// The square's position in the board string (0-based).
        index: usize,
        /// The character found.
        found: char,
    },
    /// No side to move after the board.
    #[error("missing the side to move (X or O) after the board")]
    MissingSide,
    /// The side to move is not `X` or `O` (nor `B`, `*`, `W`).
    #[error("side to move {0:?}: expected X or O")]
    BadSide(String),
}

/// Which start position a small board game begins from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum SmallStart {
    /// The standard start: the four centre squares with same-coloured discs on a diagonal
    /// (white on the top-left and bottom-right centre squares), black to move.
    #[default]
    Diagonal,
    /// The parallel start: white on the two upper centre squares, black on the two lower ones,
    /// black to move.
    Parallel,
}

/// An Othello position on an `N`x`N` board (`N` is 4, 6 or 8; see [`Othello4`] and
/// [`Othello6`]): the discs of the side to move, the discs of the opponent, and which colour
/// moves.
///
/// The rules are those of 8x8 Othello: black ([`Player::First`]) moves first, a player without
/// a move passes, the game ends when neither can move, and the final score is black's disc
/// difference with the empty squares given to the winner (4x4's 11-3 with two empty squares
/// is a score of -10).
///
/// Notation ([`Display`](fmt::Display) / [`FromStr`]): the `N * N` squares row by row
/// (`a1`, `b1`, ..., then the next row; `X` black, `O` white, `-` empty; `x`, `*`, `o`, `.`
/// accepted), white space, and the side to move (`X` or `O`; `B`, `*`, `W` accepted). The
/// words `diagonal` and `parallel` (any case) are also read as the two start positions.
/// The 4x4 starts are `-----OX--XO----- X` (diagonal) and `-----OO--XX----- X` (parallel);
/// the 6x6 starts are `--------------OX----XO-------------- X` and
/// `--------------OO----XX-------------- X`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct SmallOthello<const N: usize> {
    player: u64,
    opponent: u64,
    side: Player,
}

/// Othello on a 4x4 board.
pub type Othello4 = SmallOthello<4>;
/// Othello on a 6x6 board.
pub type Othello6 = SmallOthello<6>;

impl<const N: usize> SmallOthello<N> {
    /// Rejects sizes other than 4, 6 and 8 at compile time.
    const VALID: () = assert!(N == 4 || N == 6 || N == 8, "board size must be 4, 6 or 8");

    /// The playable squares.
    pub const MASK: Bitboard = Bitboard(board_mask(N));

    /// The four corners.
    pub const CORNERS: Bitboard = Bitboard(
        bit(0, 0) | bit(N as u8 - 1, 0) | bit(0, N as u8 - 1) | bit(N as u8 - 1, N as u8 - 1),
    );

    /// The number of squares, `N * N`.
    pub const SQUARES: usize = N * N;

    /// The standard (diagonal) start.
    #[must_use]
    pub const fn new() -> SmallOthello<N> {
        Self::start(SmallStart::Diagonal)
    }

    /// A start position.
    #[must_use]
    pub const fn start(start: SmallStart) -> SmallOthello<N> {
        #[allow(clippy::let_unit_value)]
        let () = Self::VALID;
        let c = (N / 2) as u8;
        let (black, white) = match start {
            SmallStart::Diagonal => (bit(c, c - 1) | bit(c - 1, c), bit(c - 1, c - 1) | bit(c, c)),
            SmallStart::Parallel => (bit(c - 1, c) | bit(c, c), bit(c - 1, c - 1) | bit(c, c - 1)),
        };
        SmallOthello {
            player: black,
            opponent: white,
            side: Player::First,
        }
    }

    /// The position with these discs and `side` to move, or `None` when a square holds both
    /// colours or a disc lies off the board.
    #[must_use]
    pub fn from_discs(black: Bitboard, white: Bitboard, side: Player) -> Option<SmallOthello<N>> {
        let (b, w) = (black.bits(), white.bits());
        if b & w != 0 || (b | w) & !board_mask(N) != 0 {
            return None;
        }
        let (player, opponent) = match side {
            Player::First => (b, w),
            Player::Second => (w, b),
        };
        Some(SmallOthello {
            player,
            opponent,
            side,
        })
    }

    /// The discs of the side to move.
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// The discs of the side not to move.
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// The discs of `colour`.
    #[must_use]
    pub fn discs(&self, colour: Player) -> Bitboard {
        if colour == self.side {
            self.player()
        } else {
            self.opponent()
        }
    }

    /// Black's discs.
    #[must_use]
    pub fn black(&self) -> Bitboard {
        self.discs(Player::First)
    }

    /// White's discs.
    #[must_use]
    pub fn white(&self) -> Bitboard {
        self.discs(Player::Second)
    }

    /// The empty squares of the board.
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent) & board_mask(N))
    }

    /// The squares where the side to move may place a disc.
    #[must_use]
    pub const fn moves(&self) -> Bitboard {
        Bitboard(masked_moves(self.player, self.opponent, board_mask(N)))
    }

    /// The opponent discs that playing at `sq` would flip: empty when `sq` is occupied, off the
    /// board or the move is illegal.
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if self.empties().contains(sq) {
            Bitboard(masked_flips(
                self.player,
                self.opponent,
                sq.index(),
                board_mask(N),
            ))
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether neither side can place a disc.
    #[must_use]
    pub const fn game_over(&self) -> bool {
        masked_moves(self.player, self.opponent, board_mask(N)) == 0
            && masked_moves(self.opponent, self.player, board_mask(N)) == 0
    }

    /// The disc difference from the side to move's view, empties not counted.
    #[must_use]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score from the side to move's view: the disc difference with the empty squares
    /// given to the winner, whether or not the game is over.
    #[must_use]
    pub const fn final_score_for_mover(&self) -> i32 {
        let diff = self.disc_difference();
        let empties = (!(self.player | self.opponent) & board_mask(N)).count_ones() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// The position after the side to move passes (whether or not passing is legal).
    #[must_use]
    pub const fn passed(&self) -> SmallOthello<N> {
        SmallOthello {
            player: self.opponent,
            opponent: self.player,
            side: self.side.other(),
        }
    }

    /// A picture of the board: `X` black, `O` white, `*` a legal move, `.` empty, then the
    /// disc counts and whose turn it is (or the result).
    #[must_use]
    pub fn pretty(&self) -> String {
        let (black, white, moves) = (self.black(), self.white(), self.moves());
        let mut out = String::from(" ");
        for col in 0..N as u8 {
            out.push(' ');
            out.push(char::from(b'a' + col));
        }
        out.push('\n');
        for row in 0..N as u8 {
            out.push(char::from(b'1' + row));
            for col in 0..N as u8 {
                let sq = Square::at(col, row);
                out.push(' ');
                out.push(if black.contains(sq) {
                    'X'
                } else if white.contains(sq) {
                    'O'
                } else if moves.contains(sq) {
                    '*'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        let (b, w) = (black.count(), white.count());
        out.push_str(&format!("black {b}, white {w}; "));
        match self.final_score() {
            Some(s) if s > 0 => out.push_str(&format!("black wins by {s}")),
            Some(s) if s < 0 => out.push_str(&format!("white wins by {}", -s)),
            Some(_) => out.push_str("draw"),
            None if self.side == Player::First => out.push_str("black (X) to move"),
            None => out.push_str("white (O) to move"),
        }
        out
    }

    /// The square `(col, row)` of the board under symmetry `sym` (bit 2: transpose first;
    /// bit 0: mirror the columns; bit 1: mirror the rows).
    fn map_square(sq: Square, sym: usize) -> Square {
        let (mut c, mut r) = (sq.col(), sq.row());
        if sym & 4 != 0 {
            std::mem::swap(&mut c, &mut r);
        }
        let last = N as u8 - 1;
        if sym & 1 != 0 {
            c = last - c;
        }
        if sym & 2 != 0 {
            r = last - r;
        }
        Square::at(c, r)
    }

    fn map_bits(bits: u64, sym: usize) -> u64 {
        Bitboard(bits)
            .iter()
            .fold(0, |acc, sq| acc | 1 << Self::map_square(sq, sym).index())
    }
}

impl<const N: usize> Default for SmallOthello<N> {
    fn default() -> SmallOthello<N> {
        SmallOthello::new()
    }
}

impl<const N: usize> fmt::Debug for SmallOthello<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmallOthello<{N}>(\"{self}\")")
    }
}

impl<const N: usize> fmt::Display for SmallOthello<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.black(), self.white());
        let mut s = String::with_capacity(N * N + 2);
        for row in 0..N as u8 {
            for col in 0..N as u8 {
                let sq = Square::at(col, row);
                s.push(if black.contains(sq) {
                    'X'
                } else if white.contains(sq) {
                    'O'
                } else {
                    '-'
                });
            }
        }
        s.push(' ');
        s.push(if self.side == Player::First { 'X' } else { 'O' });
        f.write_str(&s)
    }
}

impl<const N: usize> FromStr for SmallOthello<N> {
    type Err = ParseSmallBoardError;

    fn from_str(s: &str) -> Result<SmallOthello<N>, ParseSmallBoardError> {
        let text = s.trim();
        if text.eq_ignore_ascii_case("diagonal") {
            return Ok(SmallOthello::start(SmallStart::Diagonal));
        }
        if text.eq_ignore_ascii_case("parallel") {
            return Ok(SmallOthello::start(SmallStart::Parallel));
        }
        let (board, side) = match text.rsplit_once(char::is_whitespace) {
            Some((board, side)) => (board, side),
            None => {
                let found = text.chars().count();
                if found == N * N {
                    return Err(ParseSmallBoardError::MissingSide);
                }
                return Err(ParseSmallBoardError::WrongSize {
                    size: N,
                    expected: N * N,
                    found,
                });
            }
        };
        let cells: Vec<char> = board.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != N * N {
            return Err(ParseSmallBoardError::WrongSize {
                size: N,
                expected: N * N,
                found: cells.len(),
            });
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (index, &ch) in cells.iter().enumerate() {
            let bit = 1u64 << ((index / N) * 8 + index % N);
            match ch {
                'X' | 'x' | '*' => black |= bit,
                'O' | 'o' => white |= bit,
                '-' | '.' => {}
                found => return Err(ParseSmallBoardError::BadSquare { index, found }),
            }
        }
        let side = match side {
            "X" | "x" | "B" | "b" | "*" => Player::First,
            "O" | "o" | "W" | "w" => Player::Second,
            other => return Err(ParseSmallBoardError::BadSide(other.to_string())),
        };
        Ok(
            SmallOthello::from_discs(Bitboard(black), Bitboard(white), side)
                .expect("disjoint discs on the board"),
        )
    }
}

const fn outcome_for(mover: Player, diff: i32) -> Outcome {
    match diff.signum() {
        1 => Outcome::Win(mover),
        -1 => Outcome::Win(mover.other()),
        _ => Outcome::Draw,
    }
}

impl<const N: usize> Game for SmallOthello<N> {
    type Move = SmallMove<N>;

    /// One slot per square of the 8x8 bitboard, enough for any board size.
    type Moves = MoveList<SmallMove<N>, 64>;

    const NAME: &'static str = match N {
        4 => "othello4",
        6 => "othello6",
        _ => "othello8",
    };
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    fn side_to_move(&self) -> Player {
        self.side
    }

    /// The squares row by row (`a1`, `b1`, ...); a lone pass when the side to move has none
    /// but the opponent has; empty when neither has.
    fn legal_moves(&self) -> Self::Moves {
        let mut list = MoveList::new();
        let m = self.moves();
        if m.is_empty() {
            if masked_moves(self.opponent, self.player, board_mask(N)) != 0 {
                list.push(SmallMove::Pass);
            }
        } else {
            for sq in m {
                list.push(SmallMove::Place(sq));
            }
        }
        list
    }

    fn play_unchecked(&self, mv: SmallMove<N>) -> SmallOthello<N> {
        match mv {
            SmallMove::Place(sq) => {
                let i = sq.index();
                let f = masked_flips(self.player, self.opponent, i, board_mask(N));
                SmallOthello {
                    player: self.opponent ^ f,
                    opponent: self.player | f | (1 << i) & board_mask(N),
                    side: self.side.other(),
                }
            }
            SmallMove::Pass => self.passed(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game_over()
            .then(|| outcome_for(self.side, self.disc_difference()))
    }

    fn is_legal(&self, mv: SmallMove<N>) -> bool {
        match mv {
            SmallMove::Place(sq) => self.moves().contains(sq),
            SmallMove::Pass => {
                self.moves().is_empty()
                    && masked_moves(self.opponent, self.player, board_mask(N)) != 0
            }
        }
    }
}

impl<const N: usize> FinalScore for SmallOthello<N> {
    /// Black's disc difference with the empty squares given to the winner, once the game is
    /// over.
    fn final_score(&self) -> Option<i32> {
        self.game_over()
            .then(|| self.final_score_for_mover() * self.side.sign())
    }
}

impl<const N: usize> LeafEval for SmallOthello<N> {
    /// The disc difference from the side to move's view (empty squares not counted).
    fn leaf_eval(&self) -> f64 {
        f64::from(self.disc_difference())
    }
}

impl<const N: usize> HashKey for SmallOthello<N> {
    /// The Zobrist key of the 8x8 board the position is embedded in
    /// (see [`zobrist`](crate::zobrist)); not collision-free.
    fn hash_key(&self) -> u64 {
        crate::zobrist(self.black(), self.white(), self.side)
    }
}

impl<const N: usize> Symmetric for SmallOthello<N> {
    const SYMMETRIES: usize = 8;

    fn transform(&self, sym: usize) -> SmallOthello<N> {
        assert!(sym < 8, "symmetry {sym} out of range");
        SmallOthello {
            player: Self::map_bits(self.player, sym),
            opponent: Self::map_bits(self.opponent, sym),
            side: self.side,
        }
    }

    fn transform_move(mv: SmallMove<N>, sym: usize) -> SmallMove<N> {
        assert!(sym < 8, "symmetry {sym} out of range");
        match mv {
            SmallMove::Place(sq) => SmallMove::Place(Self::map_square(sq, sym)),
            SmallMove::Pass => SmallMove::Pass,
        }
    }

    /// Mirrors are their own inverses; with a transpose the two mirrors trade places.
    fn inverse(sym: usize) -> usize {
        if sym & 4 == 0 {
            sym
        } else {
            4 | (sym & 1) << 1 | (sym & 2) >> 1
        }
    }

    /// The least Zobrist key over the 8 images: a 64-bit hash, not collision-free.
    fn canonical_key(&self) -> u64 {
        (0..8)
            .map(|s| self.transform(s).hash_key())
            .min()
            .expect("8 symmetries")
    }
}
