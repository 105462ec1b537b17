//! The results of a shard's games, one code per game.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use yomi_core::GameResult;

/// The code of a game result: 1 won, 2 lost, 3 drawn (0 is a game not played), plus
/// [`ADJUDICATED`] for a game that the match's adjudicator decided.
pub(crate) fn code(r: GameResult, adjudicated: bool) -> u8 {
    let c = match r {
        GameResult::Win => 1,
        GameResult::Loss => 2,
        GameResult::Draw => 3,
    };
    if adjudicated {
        c | ADJUDICATED
    } else {
        c
    }
}

/// The bit of a code that marks an adjudicated game.
pub(crate) const ADJUDICATED: u8 = 4;

/// The game result of a code of a played game ([`code`]'s inverse, adjudicated or not).
pub(crate) fn decode(c: u8) -> GameResult {
    match c & !ADJUDICATED {
        1 => GameResult::Win,
        2 => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

/// The results of a shard's games in order, one per game: won, lost, drawn (from A's side) or
/// not played, and whether the match's adjudicator decided the game. Serialized as a string
/// of `W`, `L`, `D` and `.`, with `w`, `l` and `d` for adjudicated games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes(Vec<u8>);

impl Outcomes {
    pub(crate) fn from_codes(codes: Vec<u8>) -> Outcomes {
        Outcomes(codes)
    }

    /// The codes, one per game in slot order ([`code`]; 0 for a game not played).
    pub(crate) fn codes(&self) -> &[u8] {
        &self.0
    }

    /// The number of games (played or not).
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no games.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The result of the `slot`-th game, `None` if it was not played.
    #[must_use]
    pub fn get(&self, slot: usize) -> Option<GameResult> {
        match self.0.get(slot) {
            Some(0) | None => None,
            Some(&c) => Some(decode(c)),
        }
    }

    /// The results in order.
    pub fn iter(&self) -> impl Iterator<Item = Option<GameResult>> + '_ {
        (0..self.0.len()).map(|i| self.get(i))
    }

    /// Games played.
    #[must_use]
    pub fn played(&self) -> usize {
        self.0.iter().filter(|&&c| c != 0).count()
    }

    /// Whether the `slot`-th game was decided by the match's adjudicator.
    #[must_use]
    pub fn is_adjudicated(&self, slot: usize) -> bool {
        self.0.get(slot).is_some_and(|&c| c & ADJUDICATED != 0)
    }

    /// Games decided by the match's adjudicator.
    #[must_use]
    pub fn adjudicated(&self) -> usize {
        self.0.iter().filter(|&&c| c & ADJUDICATED != 0).count()
    }
}

impl fmt::Display for Outcomes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self
            .0
            .iter()
            .map(|c| match c {
                1 => 'W',
                2 => 'L',
                3 => 'D',
                5 => 'w',
                6 => 'l',
                7 => 'd',
                _ => '.',
            })
            .collect();
        f.write_str(&text)
    }
}

impl FromStr for Outcomes {
    type Err = String;

    fn from_str(s: &str) -> Result<Outcomes, String> {
        s.chars()
            .map(|c| match c {
                'W' => Ok(1),
                'L' => Ok(2),
                'D' => Ok(3),
                'w' => Ok(5),
                'l' => Ok(6),
                'd' => Ok(7),
                '.' => Ok(0),
                other => Err(format!(
                    "bad game result {other:?} (expected W, L, D, w, l, d or .)"
                )),
            })
            .collect::<Result<Vec<u8>, String>>()
            .map(Outcomes)
    }
}

impl Serialize for Outcomes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Outcomes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Outcomes, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}
