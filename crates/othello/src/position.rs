use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{FinalScore, Game, HashKey, LeafEval, MoveList, Outcome, Player, Rng};

use crate::movegen::{flips_bits, moves_bits};
use crate::{Bitboard, Square};

/// An Othello move: a disc placed on a square, or a pass.
///
/// Notation: a square (`f5`, either case) or `PA` for the pass (also `pass`, any case);
/// [`Display`](fmt::Display) prints lower-case squares and `PA`. Moves order by square index,
/// the pass last; [`Default`] is the pass.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum Move {
    /// Place a disc on this square.
    Place(Square),
    /// Pass: legal only when the side to move has no square but the opponent has one.
    #[default]
    Pass,
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("invalid move {text:?}: expected a square a1-h8 or PA (pass)")]
pub struct ParseMoveError {
    /// The text that did not parse.
    pub text: String,
}

impl Move {
    /// Every move that can ever be legal: the 64 squares, then the pass.
    #[must_use]
    pub fn all() -> Vec<Move> {
        Square::ALL
            .iter()
            .map(|&sq| Move::Place(sq))
            .chain([Move::Pass])
            .collect()
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
        if s.eq_ignore_ascii_case("pa") || s.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        s.parse::<Square>()
            .map(Move::Place)
            .map_err(|_| ParseMoveError {
                text: s.to_string(),
            })
    }
}

/// Why two disc sets do not form a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("square {square} holds both a black and a white disc")]
pub struct OverlapError {
    /// The first square (in index order) holding both.
    pub square: Square,
}

/// An Othello position: the discs of the side to move, the discs of the opponent, and which
/// colour moves.
///
/// Black moves first ([`Player::First`]); white is [`Player::Second`]. Any placement of discs is
/// accepted (test suites such as FFO start from arbitrary boards), so the game is played from
/// whatever board it is given. A position is 17 bytes and is copied to play a move.
///
/// Notation: [`Display`](fmt::Display) / [`FromStr`] is the 64-square board string and the
/// side (see the crate docs); [`Othello::pretty`] draws a picture.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Othello {
    player: u64,
    opponent: u64,
    side: Player,
}

impl Default for Othello {
    fn default() -> Othello {
        Othello::new()
    }
}

impl fmt::Debug for Othello {
    /// Prints the notation: `Othello("---...--- X")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Othello(\"{self}\")")
    }
}

/// `d5` and `e4`.
const START_BLACK: u64 = 1 << 35 | 1 << 28;
/// `d4` and `e5`.
const START_WHITE: u64 = 1 << 27 | 1 << 36;

impl Othello {
    /// The standard start: black on `d5` and `e4`, white on `d4` and `e5`, black to move.
    #[inline]
    #[must_use]
    pub const fn new() -> Othello {
        Othello {
            player: START_BLACK,
            opponent: START_WHITE,
            side: Player::First,
        }
    }

    /// The position with these discs and `side` to move.
    ///
    /// # Errors
    /// [`OverlapError`] when a square holds both colours.
    pub fn from_discs(
        black: Bitboard,
        white: Bitboard,
        side: Player,
    ) -> Result<Othello, OverlapError> {
        if let Some(square) = (black & white).first() {
            return Err(OverlapError { square });
        }
        Ok(match side {
            Player::First => Othello::from_sides(black, white, Player::First),
            Player::Second => Othello::from_sides(white, black, Player::Second),
        })
    }

    /// The position where `side` moves with discs `player` against `opponent`, which must not
    /// overlap (overlapping squares are given to `player`).
    #[inline]
    #[must_use]
    pub const fn from_sides(player: Bitboard, opponent: Bitboard, side: Player) -> Othello {
        Othello {
            player: player.0,
            opponent: opponent.0 & !player.0,
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

    /// The empty squares.
    #[inline]
    #[must_use]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player | self.opponent))
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
        Bitboard(moves_bits(self.player, self.opponent))
    }

    /// The exact number of squares where the side to move may play.
    #[inline]
    #[must_use]
    pub const fn mobility(&self) -> u32 {
        moves_bits(self.player, self.opponent).count_ones()
    }

    /// The empty squares next to an opponent disc (see [`potential_moves`](crate::potential_moves)).
    #[inline]
    #[must_use]
    pub fn potential_mobility(&self) -> u32 {
        crate::potential_mobility(self.player(), self.opponent())
    }

    /// The opponent discs that playing at `sq` would flip: empty when `sq` is occupied or the
    /// move is illegal.
    #[inline]
    #[must_use]
    pub fn flips(&self, sq: Square) -> Bitboard {
        if (self.player | self.opponent) >> sq.index() & 1 != 0 {
            Bitboard::EMPTY
        } else {
            Bitboard(flips_bits(self.player, self.opponent, sq.index()))
        }
    }

    /// Whether the side to move must pass: it has no square but the opponent has one.
    #[inline]
    #[must_use]
    pub const fn must_pass(&self) -> bool {
        moves_bits(self.player, self.opponent) == 0 && moves_bits(self.opponent, self.player) != 0
    }

    /// Whether neither side can place a disc.
    #[inline]
    #[must_use]
    pub const fn game_over(&self) -> bool {
        moves_bits(self.player, self.opponent) == 0 && moves_bits(self.opponent, self.player) == 0
    }

    /// The position after the side to move passes (whether or not passing is legal).
    #[inline]
    #[must_use]
    pub const fn passed(&self) -> Othello {
        Othello {
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
        let empties = (!(self.player | self.opponent)).count_ones() as i32;
        if diff > 0 {
            diff + empties
        } else if diff < 0 {
            diff - empties
        } else {
            0
        }
    }

    /// Plays a placement for the side to move given its flips (from [`Othello::flips`]).
    #[inline]
    #[must_use]
    pub(crate) const fn play_flips(&self, sq: usize, flips: u64) -> Othello {
        Othello {
            player: self.opponent ^ flips,
            opponent: self.player | flips | 1 << sq,
            side: self.side.other(),
        }
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

impl Game for Othello {
    type Move = Move;

    /// One slot per square: a move is an empty square, so no board, even an unreachable one
    /// parsed from text, can overflow it (reachable positions are known to have at most 33).
    type Moves = MoveList<Move, 64>;

    const NAME: &'static str = "othello";
    const PLAYER_NAMES: [&'static str; 2] = ["black", "white"];

    #[inline]
    fn side_to_move(&self) -> Player {
        self.side
    }

    /// The squares in index order (`a1`, `b1`, ..., `h8`); a lone [`Move::Pass`] when the side
    /// to move has none but the opponent has; empty when neither has.
    fn legal_moves(&self) -> Self::Moves {
        let mut list = MoveList::new();
        let m = self.moves();
        if m.is_empty() {
            if moves_bits(self.opponent, self.player) != 0 {
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
    fn play_unchecked(&self, mv: Move) -> Othello {
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
            let mut m = moves_bits(p, o);
            if m == 0 {
                if moves_bits(o, p) == 0 {
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
}

impl FinalScore for Othello {
    /// Black's disc difference with the empty squares given to the winner, once the game is
    /// over.
    fn final_score(&self) -> Option<i32> {
        self.game_over()
            .then(|| self.final_score_for_mover() * self.side.sign())
    }
}

impl LeafEval for Othello {
    /// The disc difference from the side to move's view (empty squares not counted).
    #[inline]
    fn leaf_eval(&self) -> f64 {
        f64::from(self.disc_difference())
    }
}

impl HashKey for Othello {
    /// The Zobrist key (see [`zobrist`](crate::zobrist)); not collision-free.
    #[inline]
    fn hash_key(&self) -> u64 {
        crate::zobrist(self.black(), self.white(), self.side)
    }
}
