use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{FinalScore, Game, HashKey, LeafEval, MoveList, Outcome, PlayError, Player, Rng};

use crate::movegen::{flips_bits, moves_bits};
use crate::{Bitboard, Square};

/// An Othello move on a board of any size: a disc placed on a square, or a pass.
///
/// Notation: a square (`f5`, either case) or `PA` for the pass (also `pass`, any case);
/// [`Display`](fmt::Display) prints lower-case squares and `PA`. Moves order by square index,
/// the pass last; [`Default`] is the pass. [`FromStr`] reads any square `a1`..`h8`; use
/// [`Board::parse_move`] to also check that the square lies on a smaller board.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Move {
    /// Place a disc on this square.
    Place(Square),
    /// Pass: legal only when the side to move has no square but the opponent has one.
    #[default]
    Pass,
}

/// Why a text is not a move (of the board whose last square is `last`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid move {text:?}: expected a square a1-{last} or PA (pass)")]
pub struct ParseMoveError {
    /// The text that did not parse.
    pub text: String,
    /// The last square of the board the move was read for (`h8` on 8x8, `d4` on 4x4).
    pub last: Square,
}

impl Move {
    /// Every move that can ever be legal on 8x8: the 64 squares, then the pass (see
    /// [`Board::all_moves`] for any size).
    #[must_use]
    pub fn all() -> Vec<Move> {
        Board::<8>::all_moves()
    }

    /// The square of a placement, `None` for the pass.
    #[inline]
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl From<Square> for Move {
    fn from(sq: Square) -> Move {
        Move::Place(sq)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => fmt::Display::fmt(sq, f),
            Move::Pass => f.write_str("PA"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Parses a square (`f5`, `F5`) or a pass (`PA`, `pass`, any case).
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        Board::<8>::parse_move(s)
    }
}

/// Why two disc sets do not form a position of a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DiscsError {
    /// A square holds both colours.
    #[error("square {square} holds both a black and a white disc")]
    Overlap {
        /// The first square (in index order) holding both.
        square: Square,
    },
    /// A disc lies outside an `N`x`N` board smaller than 8x8.
    #[error("square {square} is off the {size}x{size} board")]
    OffBoard {
        /// The first square (in index order) off the board holding a disc.
        square: Square,
        /// The board size `N`.
        size: usize,
    },
}

impl DiscsError {
    /// The square the error is about.
    #[must_use]
    pub const fn square(&self) -> Square {
        match self {
            DiscsError::Overlap { square } | DiscsError::OffBoard { square, .. } => *square,
        }
    }
}

/// Which start position a game begins from (on every board size).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Start {
    /// The standard start: the four centre squares with same-coloured discs on a diagonal
    /// (white on the top-left and bottom-right centre squares), black to move.
    #[default]
    Diagonal,
    /// The parallel start: white on the two upper centre squares, black on the two lower ones,
    /// black to move.
    Parallel,
}

/// The bit of square `(col, row)`.
const fn bit(col: usize, row: usize) -> u64 {
    1u64 << (row * 8 + col)
}

/// The playable squares of an `n`x`n` board in the top-left corner of the 8x8 bitboard
/// (all 64 for `n = 8`).
const fn board_mask(n: usize) -> u64 {
    assert!(n == 4 || n == 6 || n == 8, "board size must be 4, 6 or 8");
    let row: u64 = if n >= 8 { 0xff } else { (1u64 << n) - 1 };
    let mut mask = 0;
    let mut r = 0;
    while r < n {
        mask |= row << (8 * r);
        r += 1;
    }
    mask
}

/// An Othello position on an `N`x`N` board (`N` is 4, 6 or 8): the discs of the side to move,
/// the discs of the opponent, and which colour moves. [`Othello`] is the 8x8 board,
/// [`Othello4`] and [`Othello6`] the small ones.
///
/// Every size uses the 8x8 bitboards: the `N`x`N` board lies in their top-left corner, so the
/// squares `a1`.. keep their 8x8 [`Square`] names and indices, and [`Board::MASK`] holds the
/// `N * N` playable squares (all 64 on 8x8, where masking costs nothing). Move generation is
/// the 8x8 generator masked: a line of flips never leaves the board, since both its ends lie
/// on it.
///
/// The rules are those of 8x8 Othello on every size: black ([`Player::First`]) moves first, a
/// player without a move passes, the game ends when neither can move, and the final score is
/// black's disc difference with the empty squares given to the winner (4x4's 11-3 with two
/// empty squares is a score of -10). Any placement of discs on the board is accepted (test
/// suites such as FFO start from arbitrary boards). A position is 17 bytes and is copied to
/// play a move.
///
/// Notation: [`Display`](fmt::Display) / [`FromStr`] is the board string (the `N * N` squares
/// row by row, white space, the side to move; see the crate docs); the words `diagonal` and
/// `parallel` (any case) are also read as the two [`Start`] positions. [`Board::pretty`] draws
/// a picture.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board<const N: usize> {
    player: u64,
    opponent: u64,
    side: Player,
}

/// Othello on the standard 8x8 board.
pub type Othello = Board<8>;
/// Othello on a 4x4 board.
pub type Othello4 = Board<4>;
/// Othello on a 6x6 board.
pub type Othello6 = Board<6>;

impl<const N: usize> Default for Board<N> {
    fn default() -> Board<N> {
        Board::new()
    }
}

impl<const N: usize> fmt::Debug for Board<N> {
    /// Prints the type and the notation: `Othello("---...--- X")`, `Othello4("... X")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if N == 8 {
            write!(f, "Othello(\"{self}\")")
        } else {
            write!(f, "Othello{N}(\"{self}\")")
        }
    }
}

impl<const N: usize> Board<N> {
    /// The playable squares: the `N`x`N` top-left corner of the 8x8 bitboard (all of it on
    /// 8x8). Naming it for another `N` than 4, 6 or 8 is a compile error.
    pub const MASK: Bitboard = Bitboard(board_mask(N));

    /// The four corners of the board.
    pub const CORNERS: Bitboard =
        Bitboard(bit(0, 0) | bit(N - 1, 0) | bit(0, N - 1) | bit(N - 1, N - 1));

    /// The number of squares, `N * N`.
    pub const SQUARES: usize = N * N;

    /// The playable squares as a raw mask (a constant: all ones on 8x8).
    const M: u64 = Self::MASK.0;

    /// The standard start: black on the lower-left and upper-right centre squares (`d5` and
    /// `e4` on 8x8), white on the two others, black to move.
    #[inline]
    #[must_use]
    pub const fn new() -> Board<N> {
        Self::start(Start::Diagonal)
    }

    /// A start position.
    #[must_use]
    pub const fn start(start: Start) -> Board<N> {
        let c = N / 2;
        let (black, white) = match start {
            Start::Diagonal => (bit(c, c - 1) | bit(c - 1, c), bit(c - 1, c - 1) | bit(c, c)),
            Start::Parallel => (bit(c - 1, c) | bit(c, c), bit(c - 1, c - 1) | bit(c, c - 1)),
        };
        Board {
            // Naming the mask evaluates it, which rejects sizes other than 4, 6 and 8 at
            // compile time; the start's discs all lie on the board.
            player: black & Self::M,
            opponent: white,
            side: Player::First,
        }
    }

    /// The position with these discs and `side` to move.
    ///
    /// # Errors
    /// [`DiscsError::Overlap`] when a square holds both colours, [`DiscsError::OffBoard`] when
    /// a disc lies off a board smaller than 8x8.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        side: Player,
    ) -> Result<Board<N>, DiscsError> {
        if let Some(square) = (black & white).first() {
            return Err(DiscsError::Overlap { square });
        }
        if let Some(square) = ((black | white) - Self::MASK).first() {
            return Err(DiscsError::OffBoard { square, size: N });
        }
        Ok(match side {
            Player::First => Board::from_sides(black, white, Player::First),
            Player::Second => Board::from_sides(white, black, Player::Second),
        })
    }

    /// The position where `side` moves with discs `player` against `opponent`, which must not
    /// overlap (overlapping squares are given to `player`; discs off the board are dropped).
    #[inline]
    #[must_use]
    pub const fn from_sides(player: Bitboard, opponent: Bitboard, side: Player) -> Board<N> {
        Board {
            player: player.0 & Self::M,
            opponent: opponent.0 & !player.0 & Self::M,
            side,
        }
    }

    /// The discs of the side to move.
    #[inline]
    #[must_use]
    pub const fn player(&self) -> Bitboard {
        Bitboard(self.player)
    }

    /// The discs of the side not to move.
    #[inline]
    #[must_use]
    pub const fn opponent(&self) -> Bitboard {
        Bitboard(self.opponent)
    }

    /// The discs of `colour`.
    #[inline]
    #[must_use]
    pub fn discs(&self, colour: Player) -> Bitboard {
        if colour == self.side {
            self.player()
        } else {
            self.opponent()
        }
    }

    /// Black's discs.
    #[inline]
    #[must_use]
    pub fn black(&self) -> Bitboard {
        self.discs(Player::First)
    }

    /// White's discs.
    #[inline]
    #[must_use]
    pub fn white(&self) -> Bitboard {
        self.discs(Player::Second)
    }

    /// The empty squares of the board.
    #[inline]
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent) & Self::M)
    }

    /// The disc counts `[black, white]`.
    #[inline]
    #[must_use]
    pub fn disc_counts(&self) -> [u32; 2] {
        [self.black().count(), self.white().count()]
    }

    /// The squares where the side to move may place a disc (empty when it must pass or the game
    /// is over).
    #[inline]
    #[must_use]
    pub const fn moves(&self) -> Bitboard {
        Bitboard(moves_bits(self.player, self.opponent) & Self::M)
    }

    /// The squares where the side not to move could place a disc.
    #[inline]
    const fn opponent_moves(&self) -> u64 {
        moves_bits(self.opponent, self.player) & Self::M
    }

    /// The exact number of squares where the side to move may play.
    #[inline]
    #[must_use]
    pub const fn mobility(&self) -> u32 {
        self.moves().0.count_ones()
    }

    /// The empty squares of the board next to an opponent disc (see
    /// [`potential_moves`](crate::potential_moves)), counted.
    #[inline]
    #[must_use]
    pub fn potential_mobility(&self) -> u32 {
        (crate::potential_moves(self.player(), self.opponent()) & Self::MASK).count()
    }

    /// The opponent discs that playing at `sq` would flip: empty when `sq` is occupied, off the
    /// board or the move is illegal.
    #[inline]
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if !self.empties().contains(sq) {
            Bitboard::EMPTY
        } else {
            Bitboard(flips_bits(self.player, self.opponent, sq.index()))
        }
    }

    /// Whether the side to move must pass: it has no square but the opponent has one.
    #[inline]
    #[must_use]
    pub const fn must_pass(&self) -> bool {
        self.moves().0 == 0 && self.opponent_moves() != 0
    }

    /// Whether neither side can place a disc.
    #[inline]
    #[must_use]
    pub const fn game_over(&self) -> bool {
        self.moves().0 == 0 && self.opponent_moves() == 0
    }

    /// The position after the side to move passes (whether or not passing is legal).
    #[inline]
    #[must_use]
    pub const fn passed(&self) -> Board<N> {
        Board {
            player: self.opponent,
            opponent: self.player,
            side: self.side.other(),
        }
    }

    /// The disc difference from the side to move's view, empties not counted.
    #[inline]
    #[must_use]
    pub const fn disc_difference(&self) -> i32 {
        self.player.count_ones() as i32 - self.opponent.count_ones() as i32
    }

    /// The final score from the side to move's view: the disc difference with the empty squares
    /// given to the winner (the FFO convention), whether or not the game is over.
    #[inline]
    #[must_use]
    pub const fn final_score_for_mover(&self) -> i32 {
        let diff = self.disc_difference();
        let empties = self.empties().0.count_ones() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// Plays a placement for the side to move given its flips (from [`Board::flips`]).
    #[inline]
    #[must_use]
    pub(crate) const fn play_flips(&self, sq: usize, flips: u64) -> Board<N> {
        Board {
            player: self.opponent ^ flips,
            opponent: self.player | flips | (1 << sq) & Self::M,
            side: self.side.other(),
        }
    }

    /// Every move that can ever be legal on this board: its `N * N` squares in index order,
    /// then the pass.
    #[must_use]
    pub fn all_moves() -> Vec<Move> {
        Self::MASK
            .iter()
            .map(Move::Place)
            .chain([Move::Pass])
            .collect()
    }

    /// Parses a move of this board: a square on it (either case) or a pass (`PA`, `pass`, any
    /// case).
    ///
    /// # Errors
    /// [`ParseMoveError`] when the text is neither, or names a square off the board.
    pub fn parse_move(text: &str) -> Result<Move, ParseMoveError> {
        if text.eq_ignore_ascii_case("pa") || text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        text.parse::<Square>()
            .ok()
            .filter(|&sq| Self::MASK.contains(sq))
            .map(Move::Place)
            .ok_or_else(|| ParseMoveError {
                text: text.to_string(),
                last: Square::at(N as u8 - 1, N as u8 - 1),
            })
    }
}

/// The outcome of a finished game in which `mover`, the side to move, has `diff` more discs
/// than the opponent (empty squares go to the winner, so only the sign matters).
#[inline]
const fn outcome_for(mover: Player, diff: i32) -> Outcome {
    match diff.signum() {
        1 => Outcome::Win(mover),
        -1 => Outcome::Win(mover.other()),
        _ => Outcome::Draw,
    }
}

impl<const N: usize> Game for Board<N> {
    type Move = Move;

    /// One slot per square of the 8x8 bitboard: a move is an empty square, so no board, even
    /// an unreachable one parsed from text, can overflow it (reachable 8x8 positions are known
    /// to have at most 33).
    type Moves = MoveList<Move, 64>;

    const NAME: &'static str = match N {
        4 => "othello4",
        6 => "othello6",
        _ => "othello",
    };
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    /// The squares in index order (`a1`, `b1`, ..., row by row); a lone [`Move::Pass`] when the
    /// side to move has none but the opponent has; empty when neither has.
    fn legal_moves(&self) -> Self::Moves {
        let mut list = MoveList::new();
        let m = self.moves();
        if m.is_empty() {
            if self.opponent_moves() != 0 {
                list.push(Move::Pass);
            }
        } else {
            for sq in m {
                list.push(Move::Place(sq));
            }
        }
        list
    }

    /// Plays a legal move (copy-make). For any other move the result is unspecified but
    /// memory-safe: an empty square still gets the disc (flipping whatever it brackets), an
    /// illegal pass still passes. Use [`Game::play`] to check.
    #[inline]
    fn play_unchecked(&self, mv: Move) -> Board<N> {
        match mv {
            Move::Place(sq) => {
                let i = sq.index();
                self.play_flips(i, flips_bits(self.player, self.opponent, i))
            }
            Move::Pass => self.passed(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.game_over() {
            return None;
        }
        Some(outcome_for(self.side, self.disc_difference()))
    }

    /// The empty squares of the `N`x`N` board.
    fn phase(&self) -> Option<u32> {
        Some(self.empties().count())
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(sq) => self.moves().contains(sq),
            Move::Pass => self.must_pass(),
        }
    }

    /// A playout on the bitboards: per ply one `rng.below(n)` over the legal moves in their
    /// natural order (the pass being the only move when it is legal), like the generic loop.
    fn random_playout(&self, rng: &mut Rng) -> Outcome {
        let (mut p, mut o) = (self.player, self.opponent);
        let mut side = self.side;
        loop {
            let mut m = moves_bits(p, o) & Self::M;
            if m == 0 {
                if moves_bits(o, p) & Self::M == 0 {
                    return outcome_for(side, p.count_ones() as i32 - o.count_ones() as i32);
                }
                let _ = rng.below(1);
            } else {
                let mut k = rng.below(m.count_ones() as usize);
                while k > 0 {
                    m &= m - 1;
                    k -= 1;
                }
                let sq = m.trailing_zeros() as usize;
                let f = flips_bits(p, o, sq);
                p |= f | 1 << sq;
                o ^= f;
            }
            std::mem::swap(&mut p, &mut o);
            side = side.other();
        }
    }

    /// Parses each word with [`Board::parse_move`] (so a square off a smaller board is a
    /// [`PlayError::BadMove`]) and plays it, checking each.
    fn play_line(&self, line: &str) -> Result<Board<N>, PlayError> {
        let mut pos = *self;
        for word in line.split_whitespace() {
            let mv = Self::parse_move(word).map_err(|e| PlayError::BadMove {
                text: word.to_string(),
                reason: e.to_string(),
            })?;
            pos = pos.play(mv)?;
        }
        Ok(pos)
    }
}

impl<const N: usize> FinalScore for Board<N> {
    /// Black's disc difference with the empty squares given to the winner, once the game is
    /// over.
    fn final_score(&self) -> Option<i32> {
        self.game_over()
            .then(|| self.final_score_for_mover() * self.side.sign())
    }
}

impl<const N: usize> LeafEval for Board<N> {
    /// The disc difference from the side to move's view (empty squares not counted).
    #[inline]
    fn leaf_eval(&self) -> f64 {
        f64::from(self.disc_difference())
    }
}

impl<const N: usize> HashKey for Board<N> {
    /// The Zobrist key (see [`zobrist`](crate::zobrist)) of the 8x8 bitboards the position
    /// lies in; not collision-free.
    #[inline]
    fn hash_key(&self) -> u64 {
        crate::zobrist(self.black(), self.white(), self.side)
    }
}
