//! Shards: the games of a match with indices `K mod N`, and merging shard results.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use thiserror::Error;
use yomi_core::GameResult;

use crate::harness::{decode, End, MatchResult};

/// Shard `index` of `count`: the games whose index is `index` modulo `count`. Text form
/// `K/N` (e.g. `0/4`), with `K < N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// K.
    pub index: u64,
    /// N.
    pub count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

/// A malformed shard.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad shard {text:?}: expected K/N with 0 <= K < N, such as 0/4")]
pub struct ParseShardError {
    /// The text.
    pub text: String,
}

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let err = || ParseShardError {
            text: text.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(err)?;
        let index: u64 = k.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The whole match: `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game `index` belongs to the shard.
    #[must_use]
    pub fn contains(&self, index: u64) -> bool {
        index % self.count == self.index
    }

    /// How many of `total` games (indices `0..total`) belong to the shard.
    #[must_use]
    pub fn games_of(&self, total: u64) -> u64 {
        if total <= self.index {
            0
        } else {
            (total - self.index).div_ceil(self.count)
        }
    }

    /// The game index of the shard's `slot`-th game.
    #[must_use]
    pub fn index_of(&self, slot: u64) -> u64 {
        self.index + slot * self.count
    }

    /// The slot of a game of the shard.
    #[must_use]
    pub fn slot_of(&self, index: u64) -> u64 {
        index / self.count
    }
}

/// The results of a shard's games in order, one per game: won, lost, drawn (from A's side) or
/// not played. Serialized as a string of `W`, `L`, `D` and `.`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcomes(Vec<u8>);

impl Outcomes {
    pub(crate) fn from_codes(codes: Vec<u8>) -> Outcomes {
        Outcomes(codes)
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
                '.' => Ok(0),
                other => Err(format!("bad game result {other:?} (expected W, L, D or .)")),
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

/// Why shard results cannot be merged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no shard results to merge")]
    Empty,
    /// A shard is from another run.
    #[error("shard {shard} is from a different run: its {what} is {theirs}, not {ours}")]
    DifferentRun {
        /// The shard.
        shard: Shard,
        /// What differs.
        what: &'static str,
        /// The shard's value.
        theirs: String,
        /// The first shard's value.
        ours: String,
    },
    /// The same shard twice.
    #[error("shard {0} is given twice")]
    Duplicate(Shard),
    /// Shards are missing.
    #[error("shards missing: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    Missing(Vec<Shard>),
    /// A shard did not finish.
    #[error("shard {shard} is incomplete ({played} of {games} games): run it again with --resume")]
    Incomplete {
        /// The shard.
        shard: Shard,
        /// Games it played.
        played: usize,
        /// Games it should have played.
        games: usize,
    },
    /// A shard's results do not fit the match.
    #[error("shard {shard} holds {found} games, not {expected}")]
    BadLength {
        /// The shard.
        shard: Shard,
        /// Its games.
        found: usize,
        /// The games it should hold.
        expected: u64,
    },
}

impl MatchResult {
    /// Merges the results of shards `0/N` to `N-1/N` of one match (in any order) into the
    /// result the whole match gives: the same counts, pairs and outcomes.
    ///
    /// # Errors
    /// [`MergeError`] naming a shard from a different run (game, agents, rounds, seed,
    /// openings, shard count or SPRT), a duplicated, missing or incomplete shard.
    pub fn merge(shards: &[MatchResult]) -> Result<MatchResult, MergeError> {
        let first = shards.first().ok_or(MergeError::Empty)?;
        let n = first.shard.count;
        let mut by_index: Vec<Option<&MatchResult>> = vec![None; n as usize];
        for s in shards {
            let differs = |what: &'static str, theirs: String, ours: String| {
                (theirs != ours).then_some(MergeError::DifferentRun {
                    shard: s.shard,
                    what,
                    theirs,
                    ours,
                })
            };
            let checks = [
                differs("game", s.game.clone(), first.game.clone()),
                differs("agent A", s.agent_a.clone(), first.agent_a.clone()),
                differs("agent B", s.agent_b.clone(), first.agent_b.clone()),
                differs("rounds", s.rounds.to_string(), first.rounds.to_string()),
                differs("seed", s.seed.to_string(), first.seed.to_string()),
                differs(
                    "openings",
                    format!("{:?}", s.openings),
                    format!("{:?}", first.openings),
                ),
                differs(
                    "shard count",
                    s.shard.count.to_string(),
                    first.shard.count.to_string(),
                ),
            ];
            if let Some(e) = checks.into_iter().flatten().next() {
                return Err(e);
            }
            let slot = &mut by_index[s.shard.index as usize];
            if slot.is_some() {
                return Err(MergeError::Duplicate(s.shard));
            }
            *slot = Some(s);
        }
        let missing: Vec<Shard> = (0..n)
            .filter(|&k| by_index[k as usize].is_none())
            .map(|index| Shard { index, count: n })
            .collect();
        if !missing.is_empty() {
            return Err(MergeError::Missing(missing));
        }
        let total = first.rounds * 2;
        let mut codes = vec![0u8; total as usize];
        let mut forfeits = Vec::new();
        let mut time = first.time;
        time.iter_mut().for_each(|t| *t = Default::default());
        for s in by_index.into_iter().flatten() {
            let expected = s.shard.games_of(total);
            if s.outcomes.len() as u64 != expected {
                return Err(MergeError::BadLength {
                    shard: s.shard,
                    found: s.outcomes.len(),
                    expected,
                });
            }
            if s.outcomes.played() != s.outcomes.len() || !s.complete {
                return Err(MergeError::Incomplete {
                    shard: s.shard,
                    played: s.outcomes.played(),
                    games: s.outcomes.len(),
                });
            }
            for (slot, &c) in s.outcomes.0.iter().enumerate() {
                codes[s.shard.index_of(slot as u64) as usize] = c;
            }
            forfeits.extend(s.forfeits.iter().cloned());
            for (t, u) in time.iter_mut().zip(s.time) {
                t.moves += u.moves;
                t.seconds += u.seconds;
            }
        }
        let mut merged = MatchResult {
            shard: Shard::WHOLE,
            complete: true,
            end: End::Complete,
            sprt: None,
            outcomes: Outcomes(codes),
            forfeits: {
                forfeits.sort_by_key(|f| f.game);
                forfeits
            },
            time,
            ..first.clone()
        };
        merged.recount();
        Ok(merged)
    }
}
