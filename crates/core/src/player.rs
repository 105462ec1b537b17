use std::fmt;
use std::ops::Not;

use serde::{Deserialize, Serialize};

/// One of the two players of a game.
///
/// `First` moves first from the game's start position (O in tic-tac-toe, black in Othello).
/// Games name their players for display through [`Game::PLAYER_NAMES`](crate::Game::PLAYER_NAMES).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// The player who moves first from the start position.
    First,
    /// The player who moves second.
    Second,
}

impl Player {
    /// Both players, first then second.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second; handy for indexing `[T; 2]`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// `+1` for the first player and `-1` for the second: multiplies a value seen from the
    /// first player's side into this player's side.
    #[inline]
    #[must_use]
    pub const fn sign(self) -> i32 {
        match self {
            Player::First => 1,
            Player::Second => -1,
        }
    }
}

impl Not for Player {
    type Output = Player;

    #[inline]
    fn not(self) -> Player {
        self.other()
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// This player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }

    /// `+1` if `player` won, `-1` if they lost, `0` for a draw.
    #[inline]
    #[must_use]
    pub fn value_for(self, player: Player) -> i32 {
        match self {
            Outcome::Win(p) if p == player => 1,
            Outcome::Win(_) => -1,
            Outcome::Draw => 0,
        }
    }

    /// The result as seen by `player`.
    #[inline]
    #[must_use]
    pub fn result_for(self, player: Player) -> GameResult {
        match self.value_for(player) {
            1 => GameResult::Win,
            -1 => GameResult::Loss,
            _ => GameResult::Draw,
        }
    }
}

/// A finished game seen by one player: won, lost or drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// Nobody won.
    Draw,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} player wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_and_outcomes() {
        assert_eq!(Player::First.other(), Player::Second);
        assert_eq!(!Player::Second, Player::First);
        assert_eq!(Player::Second.index(), 1);
        assert_eq!(Player::Second.sign(), -1);
        let o = Outcome::Win(Player::Second);
        assert_eq!(o.winner(), Some(Player::Second));
        assert_eq!(o.value_for(Player::First), -1);
        assert_eq!(o.result_for(Player::Second), GameResult::Win);
        assert_eq!(Outcome::Draw.value_for(Player::First), 0);
        assert_eq!(Outcome::Draw.result_for(Player::First), GameResult::Draw);
    }
}
