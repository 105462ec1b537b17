//! The stone game of the study behind yomi: a pile of stones (15 to start), each turn a
//! player removes 1, 2 or 3 of them, and whoever takes the last stone wins.
//!
//! It is the smallest game that exercises every trait of `yomi-core`, which proves the traits
//! carry more than one board. Its theory is simple: a pile that is a multiple of 4 is lost for
//! the player to move (whatever they take, the opponent restores a multiple of 4), so the
//! standard 15-stone game is a first-player win.
//!
//! ```
//! use yomi_core::{Game, Outcome, Player};
//! use yomi_nim::{Nim, Take};
//! let start = Nim::default();
//! assert_eq!(start.stones(), 15);
//! let pos = start.play(Take::new(3).unwrap())?; // leave 12, a multiple of 4
//! assert_eq!(pos.to_string(), "12:second");
//! let end: Nim = "2:first".parse()?;
//! assert_eq!(end.play_line("2")?.outcome(), Some(Outcome::Win(Player::First)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Game, HashKey, LeafEval, MoveList, Outcome, Player};

/// The largest number of stones a single move may take.
pub const MAX_TAKE: u8 = 3;

/// The largest pile accepted (keeps every position's notation and key small).
pub const MAX_STONES: u32 = 1_000_000;

/// A move: take 1, 2 or 3 stones. Written as the number (`1`, `2`, `3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Take(u8);

impl Take {
    /// A move taking `n` stones, for `1 <= n <= 3`.
    #[must_use]
    pub const fn new(n: u8) -> Option<Take> {
        if n >= 1 && n <= MAX_TAKE {
            Some(Take(n))
        } else {
            None
        }
    }

    /// How many stones the move takes.
    #[must_use]
    pub const fn count(self) -> u8 {
        self.0
    }
}

impl Default for Take {
    fn default() -> Take {
        Take(1)
    }
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a move of the stone game did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad move {text:?}: write the number of stones to take, 1 to {MAX_TAKE}")]
pub struct ParseTakeError {
    text: String,
}

impl FromStr for Take {
    type Err = ParseTakeError;

    fn from_str(s: &str) -> Result<Take, ParseTakeError> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Take::new)
            .ok_or_else(|| ParseTakeError {
                text: s.to_string(),
            })
    }
}

/// A position: the stones left and the player to move.
///
/// Notation: `STONES:SIDE` with `SIDE` `first` or `second`, e.g. `15:first`; a bare number
/// means the first player is to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    stones: u32,
    side: Player,
}

/// Why a position of the stone game did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseNimError {
    /// The stone count was not a number.
    #[error("bad stone count {text:?}: expected a whole number")]
    BadCount {
        /// The text.
        text: String,
    },
    /// The pile is larger than [`MAX_STONES`].
    #[error("pile of {stones} stones is larger than the maximum {MAX_STONES}")]
    TooLarge {
        /// The requested pile.
        stones: u64,
    },
    /// The side was not `first` or `second`.
    #[error("bad side {text:?}: expected first or second")]
    BadSide {
        /// The text.
        text: String,
    },
}

impl Nim {
    /// The standard start: 15 stones.
    pub const STANDARD_PILE: u32 = 15;

    /// A position with `stones` left and `side` to move.
    ///
    /// # Errors
    /// [`ParseNimError::TooLarge`] above [`MAX_STONES`].
    pub fn new(stones: u32, side: Player) -> Result<Nim, ParseNimError> {
        if stones > MAX_STONES {
            return Err(ParseNimError::TooLarge {
                stones: u64::from(stones),
            });
        }
        Ok(Nim { stones, side })
    }

    /// Stones left.
    #[must_use]
    pub const fn stones(&self) -> u32 {
        self.stones
    }
}

impl Default for Nim {
    fn default() -> Nim {
        Nim {
            stones: Nim::STANDARD_PILE,
            side: Player::First,
        }
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.stones, self.side)
    }
}

impl FromStr for Nim {
    type Err = ParseNimError;

    fn from_str(s: &str) -> Result<Nim, ParseNimError> {
        let s = s.trim();
        let (count, side) = s.split_once(':').unwrap_or((s, "first"));
        let stones: u64 = count.trim().parse().map_err(|_| ParseNimError::BadCount {
            text: count.to_string(),
        })?;
        let side = match side.trim() {
            "first" | "1" => Player::First,
            "second" | "2" => Player::Second,
            other => {
                return Err(ParseNimError::BadSide {
                    text: other.to_string(),
                })
            }
        };
        let stones = u32::try_from(stones)
            .ok()
            .filter(|&n| n <= MAX_STONES)
            .ok_or(ParseNimError::TooLarge { stones })?;
        Nim::new(stones, side)
    }
}

impl Game for Nim {
    type Move = Take;
    /// At most 3 moves: take 1, 2 or 3.
    type Moves = MoveList<Take, 3>;

    const NAME: &'static str = "nim";
    const PLAYER_NAMES: [&'static str; 2] = ["first", "second"];

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn legal_moves(&self) -> MoveList<Take, 3> {
        let most = self.stones.min(u32::from(MAX_TAKE)) as u8;
        (1..=most).map(Take).collect()
    }

    fn play_unchecked(&self, mv: Take) -> Nim {
        Nim {
            stones: self.stones.saturating_sub(u32::from(mv.0)),
            side: self.side.other(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last stone is the one who is not to move now.
        (self.stones == 0).then_some(Outcome::Win(self.side.other()))
    }

    /// The stones left.
    fn phase(&self) -> Option<u32> {
        Some(self.stones)
    }

    fn is_legal(&self, mv: Take) -> bool {
        u32::from(mv.0) <= self.stones
    }
}

impl HashKey for Nim {
    /// Collision-free: `stones * 2 + side`.
    fn hash_key(&self) -> u64 {
        u64::from(self.stones) * 2 + self.side.index() as u64
    }
}

impl LeafEval for Nim {
    /// The stone game has no material measure: always 0.
    fn leaf_eval(&self) -> f64 {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::testing::Contract;
    use yomi_core::{perft, Rng};

    fn universe() -> Vec<Take> {
        (1..=MAX_TAKE).map(Take).collect()
    }

    #[test]
    fn contract_suite() {
        let mut contract = Contract::new(universe());
        contract.starts = vec![Nim::new(1, Player::Second).unwrap(), "40".parse().unwrap()];
        contract.check_game();
    }

    /// Exact game value by plain minimax, from the side to move: +1 win, -1 loss.
    fn solve(pos: &Nim) -> i32 {
        match pos.outcome() {
            Some(o) => o.value_for(pos.side_to_move()),
            None => pos
                .legal_moves()
                .into_iter()
                .map(|m| -solve(&pos.play_unchecked(m)))
                .max()
                .unwrap(),
        }
    }

    #[test]
    fn multiples_of_four_are_lost_for_the_mover() {
        for n in 1..=20 {
            let pos = Nim::new(n, Player::First).unwrap();
            let expected = if n % 4 == 0 { -1 } else { 1 };
            assert_eq!(solve(&pos), expected, "pile {n}");
        }
    }

    #[test]
    fn perft_counts_compositions() {
        // Move sequences of exactly d plies from 15 stones, with the sequences that emptied the
        // pile earlier counted apart; together they are the standard perft.
        let start = Nim::default();
        assert_eq!(perft(&start, 1).at_depth, 3);
        assert_eq!(perft(&start, 2).at_depth, 9);
        // Every game from 15 stones ends within 15 plies; the number of complete games is the
        // number of compositions of 15 into parts 1..=3 (a tribonacci number).
        let games = perft(&start, 15);
        assert_eq!(games.at_depth + games.ended_early, 5_768);
        assert_eq!(games.at_depth, 1, "only 1+1+...+1 takes 15 plies");
    }

    #[test]
    fn notation_round_trips_and_errors() {
        for text in ["15:first", "0:second", "1000000:first"] {
            assert_eq!(text.parse::<Nim>().unwrap().to_string(), text);
        }
        assert_eq!("7".parse::<Nim>().unwrap().to_string(), "7:first");
        assert!(matches!(
            "x".parse::<Nim>(),
            Err(ParseNimError::BadCount { .. })
        ));
        assert!(matches!(
            "-1".parse::<Nim>(),
            Err(ParseNimError::BadCount { .. })
        ));
        assert!(matches!(
            "1000001".parse::<Nim>(),
            Err(ParseNimError::TooLarge { .. })
        ));
        assert!(matches!(
            "99999999999999999999999".parse::<Nim>(),
            Err(ParseNimError::BadCount { .. })
        ));
        assert!(matches!(
            "3:third".parse::<Nim>(),
            Err(ParseNimError::BadSide { .. })
        ));
        assert!("0".parse::<Take>().is_err());
        assert!("4".parse::<Take>().is_err());
        assert_eq!("2".parse::<Take>().unwrap(), Take(2));
    }

    #[test]
    fn checked_play_rejects_bad_moves() {
        let pos: Nim = "2:second".parse().unwrap();
        assert!(pos.play(Take(3)).is_err());
        let end = pos.play(Take(2)).unwrap();
        assert_eq!(end.outcome(), Some(Outcome::Win(Player::Second)));
        assert!(matches!(
            end.play(Take(1)),
            Err(yomi_core::PlayError::GameOver { .. })
        ));
        assert!(pos.play_line("1 x").is_err());
    }

    #[test]
    fn random_playouts_end_with_a_winner() {
        let mut rng = Rng::seed_from_u64(9);
        for _ in 0..100 {
            assert!(Nim::default().random_playout(&mut rng).winner().is_some());
        }
    }
}
