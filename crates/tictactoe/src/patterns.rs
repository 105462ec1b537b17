use std::fmt;

use yomi_core::Player;

use crate::{TicTacToe, LINES};

/// How many of the 8 lines have each mix of marks, seen from one player ("markpat").
///
/// Each line has a key `(mine, theirs, empty)` with `mine + theirs + empty = 3`;
/// [`LinePatterns::count`] gives the number of lines with a key. The short notation `201`
/// means `count(2, 0, 1)`: two of my marks and an empty square, a line I can complete.
///
/// ```
/// use yomi_core::Player;
/// use yomi_tictactoe::TicTacToe;
/// // O at (1,1) and (2,2), X at (0,0): the diagonal holds x, o, o.
/// let pos: TicTacToe = "x...o...o".parse()?;
/// let o = pos.patterns(Player::First);
/// assert_eq!(o.count(2, 1, 0), 1);
/// assert_eq!(o.count(1, 0, 2), 5);
/// assert_eq!(o.count(0, 1, 2), 2);
/// assert_eq!(o.to_string(), "210:1 102:5 012:2");
/// let x = pos.patterns(Player::Second);
/// assert_eq!(x.count(1, 2, 0), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinePatterns {
    /// `counts[mine][theirs]`; `empty` is `3 - mine - theirs`.
    counts: [[u8; 4]; 4],
}

impl LinePatterns {
    /// The 10 keys `(mine, theirs, empty)`, in the order `300, 210, 201, 120, ..., 003`.
    pub const KEYS: [(u32, u32, u32); 10] = [
        (3, 0, 0),
        (2, 1, 0),
        (2, 0, 1),
        (1, 2, 0),
        (1, 1, 1),
        (1, 0, 2),
        (0, 3, 0),
        (0, 2, 1),
        (0, 1, 2),
        (0, 0, 3),
    ];

    /// The patterns of the marks `mine` and `theirs` (9-bit masks).
    #[inline]
    fn of(mine: u16, theirs: u16) -> LinePatterns {
        let mut counts = [[0u8; 4]; 4];
        for line in LINES {
            let m = (line & mine).count_ones() as usize;
            let t = (line & theirs).count_ones() as usize;
            counts[m & 3][t & 3] += 1;
        }
        LinePatterns { counts }
    }

    /// The number of lines holding `mine` of my marks, `theirs` of the opponent's and `empty`
    /// empty squares; 0 for keys that do not sum to 3.
    #[inline]
    #[must_use]
    pub fn count(&self, mine: u32, theirs: u32, empty: u32) -> u32 {
        if u64::from(mine) + u64::from(theirs) + u64::from(empty) != 3 {
            return 0;
        }
        u32::from(self.counts[mine as usize][theirs as usize])
    }

    /// Every key of [`LinePatterns::KEYS`] with its count (zeros included); the counts sum to 8.
    pub fn iter(&self) -> impl Iterator<Item = ((u32, u32, u32), u32)> + '_ {
        Self::KEYS
            .into_iter()
            .map(|(m, t, e)| ((m, t, e), self.count(m, t, e)))
    }
}

impl fmt::Display for LinePatterns {
    /// The non-zero counts in [`LinePatterns::KEYS`] order, e.g. `210:1 102:5 012:2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sep = "";
        for ((m, t, e), n) in self.iter().filter(|&(_, n)| n > 0) {
            write!(f, "{sep}{m}{t}{e}:{n}")?;
            sep = " ";
        }
        Ok(())
    }
}

impl TicTacToe {
    /// The line patterns with `me`'s marks as "mine" and the other player's as "theirs".
    #[inline]
    #[must_use]
    pub fn patterns(&self, me: Player) -> LinePatterns {
        LinePatterns::of(self.bits_of(me), self.bits_of(!me))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Game;

    fn patterns(moves: &str, me: Player) -> LinePatterns {
        TicTacToe::new().play_line(moves).unwrap().patterns(me)
    }

    /// The non-zero counts as `(key, count)` pairs.
    fn nonzero(p: LinePatterns) -> Vec<(&'static str, u32)> {
        const NAMES: [&str; 10] = [
            "300", "210", "201", "120", "111", "102", "030", "021", "012", "003",
        ];
        p.iter()
            .zip(NAMES)
            .filter(|&((_, n), _)| n > 0)
            .map(|((_, n), name)| (name, n))
            .collect()
    }

    #[test]
    fn empty_board() {
        let p = TicTacToe::new().patterns(Player::First);
        assert_eq!(nonzero(p), [("003", 8)]);
        assert_eq!(p.count(0, 0, 3), 8);
        assert_eq!(p, TicTacToe::new().patterns(Player::Second));
    }

    #[test]
    fn hand_checked_positions() {
        // O (1,1), X (0,0), O (2,2). Lines for O:
        //   row 0  x . .  -> 012     column 0  x . .  -> 012
        //   row 1  . o .  -> 102     column 1  . o .  -> 102
        //   row 2  . . o  -> 102     column 2  . . o  -> 102
        //   diagonal      x o o -> 210
        //   anti-diagonal . o . -> 102
        let line = "(1,1) (0,0) (2,2)";
        let o = patterns(line, Player::First);
        assert_eq!(nonzero(o), [("210", 1), ("102", 5), ("012", 2)]);
        assert_eq!(o.count(2, 0, 1), 0);
        assert_eq!(o.count(2, 1, 0), 1);
        let x = patterns(line, Player::Second);
        assert_eq!(nonzero(x), [("120", 1), ("102", 2), ("012", 5)]);

        // O (0,0), X (1,1), O (1,0): row 0 is o o . -> 201 for O, 021 for X.
        //   row 0 o o . -> 201   row 1 . x . -> 012   row 2 . . . -> 003
        //   col 0 o . . -> 102   col 1 o x . -> 111   col 2 . . . -> 003
        //   diagonal o x . -> 111   anti-diagonal . x . -> 012
        let line = "00 11 10";
        let o = patterns(line, Player::First);
        assert_eq!(
            nonzero(o),
            [("201", 1), ("111", 2), ("102", 1), ("012", 2), ("003", 2)]
        );
        let x = patterns(line, Player::Second);
        assert_eq!(x.count(0, 2, 1), 1);
        assert_eq!(x.count(1, 0, 2), 2);

        // A fork for O: O (0,0) (2,0) (0,2), X (1,0) (1,1).
        //   row 0 o x o -> 210   row 1 . x . -> 012   row 2 o . . -> 102
        //   col 0 o . o -> 201   col 1 x x . -> 021   col 2 o . . -> 102
        //   diagonal o x . -> 111   anti-diagonal o x o -> 210
        let o = patterns("00 10 20 11 02", Player::First);
        assert_eq!(
            nonzero(o),
            [
                ("210", 2),
                ("201", 1),
                ("111", 1),
                ("102", 2),
                ("021", 1),
                ("012", 1)
            ]
        );

        // O has won on row 0: O (0,0) (1,0) (2,0), X (0,1) (1,1).
        let o = patterns("00 01 10 11 20", Player::First);
        assert_eq!(o.count(3, 0, 0), 1);
        assert_eq!(patterns("00 01 10 11 20", Player::Second).count(0, 3, 0), 1);
    }

    #[test]
    fn keys_that_do_not_sum_to_three_count_zero() {
        let p = TicTacToe::new().patterns(Player::First);
        assert_eq!(p.count(0, 0, 2), 0);
        assert_eq!(p.count(0, 0, 4), 0);
        assert_eq!(p.count(4, 0, 0), 0);
        assert_eq!(p.count(u32::MAX, 4, 0), 0);
        assert_eq!(p.count(u32::MAX, u32::MAX, u32::MAX), 0);
        assert_eq!(p.iter().map(|(_, n)| n).sum::<u32>(), 8);
        assert_eq!(p.to_string(), "003:8");
    }
}
