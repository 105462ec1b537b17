use std::fmt;

use yomi_core::{FinalScore, Game, HashKey, LeafEval, MoveList, Outcome, Player, Rng};

use crate::{ParseBoardError, Square};

/// The 8 lines as bit masks over row-major square indices: the 3 rows (top to bottom), the 3
/// columns (left to right), then the diagonal `(0,0)-(2,2)` and the anti-diagonal
/// `(2,0)-(0,2)`.
pub const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// All 9 squares.
pub(crate) const FULL: u16 = 0x1FF;

/// `HAS_LINE[bits]`: whether the 9-bit mask `bits` contains one of [`LINES`].
static HAS_LINE: [bool; 512] = {
    let mut table = [false; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut i = 0;
        while i < LINES.len() {
            if bits & LINES[i] as usize == LINES[i] as usize {
                table[bits] = true;
            }
            i += 1;
        }
        bits += 1;
    }
    table
};

/// Whether the marks `bits` (9 bits; higher bits are ignored) contain three in a line.
#[inline]
pub(crate) fn has_line(bits: u16) -> bool {
    HAS_LINE[usize::from(bits & FULL)]
}

/// A tic-tac-toe position as two 9-bit boards: O's marks and X's marks.
///
/// O moves first ([`Player::First`]), X second ([`Player::Second`]); the side to move follows
/// from the counts (O when they are equal). Bit `i` is the square with row-major index `i` (see
/// [`Square`]). Every value is a position reachable in a legal game: the constructors validate,
/// and [`Game::play_unchecked`] keeps the invariant for legal moves.
///
/// The notation ([`Display`](fmt::Display) / [`FromStr`](std::str::FromStr)) is the 9 cells in
/// row-major order with `o`, `x` and `.`, e.g. `x...o...o`; see [`TicTacToe::pretty`] for the
/// three-row form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TicTacToe {
    o: u16,
    x: u16,
}

impl TicTacToe {
    /// The empty board, O to move (the same as [`TicTacToe::default`]).
    #[inline]
    #[must_use]
    pub const fn new() -> TicTacToe {
        TicTacToe { o: 0, x: 0 }
    }

    /// The position with O's marks `o` and X's marks `x` (bit `i` = square index `i`).
    ///
    /// # Errors
    /// [`ParseBoardError::OffBoard`] for bits above bit 8, [`ParseBoardError::Overlap`] when a
    /// square has both marks, and [`ParseBoardError::Counts`], [`ParseBoardError::BothWin`] or
    /// [`ParseBoardError::WinnerCounts`] when no legal game reaches the position.
    pub fn from_bits(o: u16, x: u16) -> Result<TicTacToe, ParseBoardError> {
        let off = (o | x) & !FULL;
        if off != 0 {
            return Err(ParseBoardError::OffBoard { bits: off });
        }
        let both = o & x;
        if both != 0 {
            return Err(ParseBoardError::Overlap {
                square: Square::from_bit_index(both.trailing_zeros()),
            });
        }
        let (no, nx) = (o.count_ones(), x.count_ones());
        if no != nx && no != nx + 1 {
            return Err(ParseBoardError::Counts { o: no, x: nx });
        }
        let winner = match (has_line(o), has_line(x)) {
            (true, true) => return Err(ParseBoardError::BothWin),
            (true, false) if no != nx + 1 => Some(Player::First),
            (false, true) if no != nx => Some(Player::Second),
            _ => None,
        };
        match winner {
            Some(winner) => Err(ParseBoardError::WinnerCounts {
                winner,
                o: no,
                x: nx,
            }),
            None => Ok(TicTacToe { o, x }),
        }
    }

    /// The position with masks known to be valid (e.g. images of a valid position).
    #[inline]
    pub(crate) const fn from_valid_bits(o: u16, x: u16) -> TicTacToe {
        TicTacToe { o, x }
    }

    /// O's marks as a 9-bit mask.
    #[inline]
    #[must_use]
    pub const fn o_bits(&self) -> u16 {
        self.o
    }

    /// X's marks as a 9-bit mask.
    #[inline]
    #[must_use]
    pub const fn x_bits(&self) -> u16 {
        self.x
    }

    /// The empty squares as a 9-bit mask.
    #[inline]
    #[must_use]
    pub const fn empty_bits(&self) -> u16 {
        !(self.o | self.x) & FULL
    }

    /// The marks of `player` as a 9-bit mask.
    #[inline]
    #[must_use]
    pub const fn bits_of(&self, player: Player) -> u16 {
        match player {
            Player::First => self.o,
            Player::Second => self.x,
        }
    }

    /// Who has a mark on `sq`, if anyone.
    #[inline]
    #[must_use]
    pub const fn cell(&self, sq: Square) -> Option<Player> {
        if self.o & sq.bit() != 0 {
            Some(Player::First)
        } else if self.x & sq.bit() != 0 {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The number of marks on the board, `0..=9`.
    #[inline]
    #[must_use]
    pub const fn marks(&self) -> u32 {
        (self.o | self.x).count_ones()
    }

    /// The player with three in a line, if any.
    #[inline]
    #[must_use]
    pub fn winner(&self) -> Option<Player> {
        if has_line(self.o) {
            Some(Player::First)
        } else if has_line(self.x) {
            Some(Player::Second)
        } else {
            None
        }
    }
}

impl fmt::Debug for TicTacToe {
    /// Prints the notation: `TicTacToe("x...o...o")`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TicTacToe(\"{self}\")")
    }
}

/// `NTH_SET_BIT[bits][k]`: the `k`-th (from 0) set bit of the 9-bit mask `bits`, as a one-bit
/// mask (9 KiB). A table, because a loop over a random `k` mispredicts its branch.
static NTH_SET_BIT: [[u16; 9]; 512] = {
    let mut table = [[0u16; 9]; 512];
    let mut bits = 0;
    while bits < 512 {
        let mut k = 0;
        let mut i = 0;
        while i < 9 {
            if bits & (1 << i) != 0 {
                table[bits][k] = 1 << i;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    table
};

/// The `k`-th (from 0) set bit of `bits`, as a one-bit mask; `k` must be below the popcount.
#[inline]
fn nth_set_bit(bits: u16, k: usize) -> u16 {
    NTH_SET_BIT[usize::from(bits & FULL)][k]
}

impl Game for TicTacToe {
    type Move = Square;

    /// At most 9 moves: one per empty square.
    type Moves = MoveList<Square, 9>;

    const NAME: &'static str = "tictactoe";

    const PLAYER_NAMES: [&'static str; 2] = ["o", "x"];

    #[inline]
    fn side_to_move(&self) -> Player {
        if self.marks().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The empty squares in row-major order, or nothing once someone has three in a line.
    #[inline]
    fn legal_moves(&self) -> Self::Moves {
        let mut moves = MoveList::new();
        if self.winner().is_none() {
            let mut empty = self.empty_bits();
            while empty != 0 {
                moves.push(Square::from_bit_index(empty.trailing_zeros()));
                empty &= empty - 1;
            }
        }
        moves
    }

    /// Puts the mark of the side to move on `mv`. An illegal `mv` gives a meaningless board, and
    /// a panic in debug builds.
    #[inline]
    fn play_unchecked(&self, mv: Square) -> Self {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        let mut next = *self;
        match self.side_to_move() {
            Player::First => next.o |= mv.bit(),
            Player::Second => next.x |= mv.bit(),
        }
        next
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(player) => Some(Outcome::Win(player)),
            None if self.empty_bits() == 0 => Some(Outcome::Draw),
            None => None,
        }
    }

    /// The empty cells.
    fn phase(&self) -> Option<u32> {
        Some(self.empty_bits().count_ones())
    }

    /// The square is empty and nobody has three in a line.
    #[inline]
    fn is_legal(&self, mv: Square) -> bool {
        self.empty_bits() & mv.bit() != 0 && self.winner().is_none()
    }

    /// Draws `rng.below(n)` once per ply and plays the `k`-th empty square in row-major order,
    /// exactly like the provided version, but on the bit masks: only the mover's line is tested.
    fn random_playout(&self, rng: &mut Rng) -> Outcome {
        if let Some(outcome) = self.outcome() {
            return outcome;
        }
        let mut player = self.side_to_move();
        let (mut mine, mut theirs) = match player {
            Player::First => (self.o, self.x),
            Player::Second => (self.x, self.o),
        };
        let mut empty = self.empty_bits();
        // The number of empty squares, kept apart from `empty` so that drawing the next index
        // does not wait for the previous move.
        let mut left = empty.count_ones() as usize;
        loop {
            let bit = nth_set_bit(empty, rng.below(left));
            mine |= bit;
            empty ^= bit;
            left -= 1;
            if has_line(mine) {
                return Outcome::Win(player);
            }
            if left == 0 {
                return Outcome::Draw;
            }
            (mine, theirs) = (theirs, mine);
            player = !player;
        }
    }
}

impl HashKey for TicTacToe {
    /// `o | x << 9`: a perfect (collision-free) 18-bit encoding of the position.
    #[inline]
    fn hash_key(&self) -> u64 {
        u64::from(self.o) | u64::from(self.x) << 9
    }
}

impl FinalScore for TicTacToe {
    /// `+1` if O won, `-1` if X won, `0` for a draw, `None` while the game goes on.
    #[inline]
    fn final_score(&self) -> Option<i32> {
        self.outcome()
            .map(|outcome| outcome.value_for(Player::First))
    }
}

impl LeafEval for TicTacToe {
    /// Always `0.0`: tic-tac-toe has no material measure (evaluations belong to the agents).
    #[inline]
    fn leaf_eval(&self) -> f64 {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(text: &str) -> TicTacToe {
        text.parse().unwrap()
    }

    #[test]
    fn lines_are_the_rows_columns_and_diagonals() {
        let sq = |x, y| Square::new(x, y).unwrap().bit();
        let mut expected = Vec::new();
        for y in 0..3 {
            expected.push(sq(0, y) | sq(1, y) | sq(2, y));
        }
        for x in 0..3 {
            expected.push(sq(x, 0) | sq(x, 1) | sq(x, 2));
        }
        expected.push(sq(0, 0) | sq(1, 1) | sq(2, 2));
        expected.push(sq(2, 0) | sq(1, 1) | sq(0, 2));
        assert_eq!(LINES.to_vec(), expected);
        for bits in 0..512u16 {
            let slow = LINES.iter().any(|&line| line & !bits == 0);
            assert_eq!(has_line(bits), slow, "{bits:#b}");
        }
    }

    #[test]
    fn nth_set_bit_picks_in_ascending_order() {
        for bits in 1..512u16 {
            let set: Vec<u16> = (0..9).map(|i| 1 << i).filter(|b| bits & b != 0).collect();
            for (k, &b) in set.iter().enumerate() {
                assert_eq!(nth_set_bit(bits, k), b);
            }
        }
    }

    #[test]
    fn accessors() {
        let p = pos("x...o...o");
        assert_eq!(p.o_bits(), 0b100_010_000);
        assert_eq!(p.x_bits(), 0b000_000_001);
        assert_eq!(p.bits_of(Player::First), p.o_bits());
        assert_eq!(p.bits_of(Player::Second), p.x_bits());
        assert_eq!(p.empty_bits(), 0b011_101_110);
        assert_eq!(p.marks(), 3);
        assert_eq!(p.cell(Square::CENTRE), Some(Player::First));
        assert_eq!(p.cell(Square::ALL[0]), Some(Player::Second));
        assert_eq!(p.cell(Square::ALL[1]), None);
        assert_eq!(p.side_to_move(), Player::Second);
        assert_eq!(p.winner(), None);
        assert_eq!(p.outcome(), None);
        assert_eq!(p.final_score(), None);
        assert_eq!(p.leaf_eval(), 0.0);
        assert_eq!(p.hash_key(), 0b100_010_000 | 1 << 9);
        assert_eq!(TicTacToe::new(), TicTacToe::default());
        assert_eq!(TicTacToe::new().side_to_move(), Player::First);
        assert_eq!(format!("{p:?}"), "TicTacToe(\"x...o...o\")");
    }

    #[test]
    fn moves_and_outcomes() {
        let start = TicTacToe::new();
        assert_eq!(start.legal_moves().as_slice(), &Square::ALL);
        let p = pos("x...o...o");
        let moves: Vec<usize> = p.legal_moves().iter().map(|m| m.index()).collect();
        assert_eq!(moves, [1, 2, 3, 5, 6, 7]);
        assert!(p.is_legal(Square::ALL[1]) && !p.is_legal(Square::CENTRE));

        let o_wins = pos("ooo/xx./...");
        assert_eq!(o_wins.winner(), Some(Player::First));
        assert_eq!(o_wins.outcome(), Some(Outcome::Win(Player::First)));
        assert_eq!(o_wins.final_score(), Some(1));
        assert!(o_wins.legal_moves().is_empty());
        assert!(!o_wins.is_legal(Square::ALL[8]));

        let x_wins = pos("xo./xo./x.o");
        assert_eq!(x_wins.outcome(), Some(Outcome::Win(Player::Second)));
        assert_eq!(x_wins.final_score(), Some(-1));
        assert!(x_wins.legal_moves().is_empty());

        let draw = pos("oxo/oxx/xoo");
        assert_eq!(draw.outcome(), Some(Outcome::Draw));
        assert_eq!(draw.final_score(), Some(0));
        assert!(draw.legal_moves().is_empty());

        // A last move that fills the board and makes a line is a win, not a draw.
        let full_win = pos("oxo/xox/oxo");
        assert_eq!(full_win.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn play_and_checked_play() {
        let p = TicTacToe::new().play_line("11 (0,0) 2,2").unwrap();
        assert_eq!(p, pos("x...o...o"));
        assert!(p.play(Square::CENTRE).is_err());
        let won = pos("oo./xx./...").play(Square::ALL[2]).unwrap();
        assert_eq!(won.outcome(), Some(Outcome::Win(Player::First)));
        assert!(won.play(Square::ALL[5]).is_err());
    }

    #[test]
    fn from_bits_validates() {
        assert_eq!(TicTacToe::from_bits(0, 0), Ok(TicTacToe::new()));
        assert_eq!(
            TicTacToe::from_bits(1 << 9, 0),
            Err(ParseBoardError::OffBoard { bits: 1 << 9 })
        );
        assert_eq!(
            TicTacToe::from_bits(0b11, 0b10),
            Err(ParseBoardError::Overlap {
                square: Square::ALL[1]
            })
        );
        assert_eq!(
            TicTacToe::from_bits(0b111, 0),
            Err(ParseBoardError::Counts { o: 3, x: 0 })
        );
        assert_eq!(
            TicTacToe::from_bits(0b111, 0b111_000),
            Err(ParseBoardError::BothWin)
        );
        assert_eq!(
            TicTacToe::from_bits(0b100_000_111, 0b011_011_000),
            Err(ParseBoardError::WinnerCounts {
                winner: Player::First,
                o: 4,
                x: 4
            })
        );
    }
}
