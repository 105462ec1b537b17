//! Shards: one run split over machines, and the one merge that puts the parts together.
//!
//! Every sharded command of yomi (a match, a league, `bench ffo`, the `yomi train` stages)
//! numbers its items (games, positions) `0..total` and gives shard `K/N` the items whose index
//! is `K` modulo `N`, in index order. [`merge_shards`] checks that a set of parts is the whole
//! run (each of `0/N` to `N-1/N` exactly once, each holding all its items) and interleaves
//! them back into index order.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Shard `index` of `count`: the items whose index is `index` modulo `count`.
///
/// Text form `K/N` (e.g. `0/4`) with `0 <= K < N`; [`Display`](fmt::Display) and
/// [`FromStr`] round-trip. Serialized (serde) as `{"index": K, "count": N}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// K: which part, `0..count`.
    pub index: u64,
    /// N: how many parts (at least 1).
    pub count: u64,
}

impl Default for Shard {
    /// The whole run, [`Shard::WHOLE`].
    fn default() -> Shard {
        Shard::WHOLE
    }
}

/// A shard that is not written `K/N` with `0 <= K < N`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad shard {text:?}: expected K/N with 0 <= K < N, such as 0/4")]
pub struct ParseShardError {
    /// The text that was given.
    pub text: String,
}

impl FromStr for Shard {
    type Err = ParseShardError;

    /// Parses `K/N` (spaces around the text and around each number are allowed).
    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let err = || ParseShardError {
            text: text.to_string(),
        };
        let (k, n) = text.trim().split_once('/').ok_or_else(err)?;
        let index: u64 = k.trim().parse().map_err(|_| err())?;
        let count: u64 = n.trim().parse().map_err(|_| err())?;
        if count == 0 || index >= count {
            return Err(err());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    /// `K/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// The whole run: `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether item `index` belongs to the shard (`index mod N == K`).
    #[must_use]
    pub fn contains(&self, index: u64) -> bool {
        index % self.count == self.index
    }

    /// How many of `total` items (indices `0..total`) belong to the shard.
    #[must_use]
    pub fn games_of(&self, total: u64) -> u64 {
        if total <= self.index {
            0
        } else {
            (total - self.index).div_ceil(self.count)
        }
    }

    /// The index of the shard's `slot`-th item (counting from 0).
    #[must_use]
    pub fn index_of(&self, slot: u64) -> u64 {
        self.index + slot * self.count
    }

    /// The slot of item `index` in the shard (for an item the shard [contains](Self::contains)).
    #[must_use]
    pub fn slot_of(&self, index: u64) -> u64 {
        index / self.count
    }
}

/// Why parts cannot be merged into a whole run.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ShardMergeError {
    /// No parts.
    #[error("no shard results to merge")]
    Empty,
    /// A part splits the run into another number of shards than the first.
    #[error("shard {shard} is from a different run: its shard count is {}, not {first}", .shard.count)]
    CountDiffers {
        /// The part's shard.
        shard: Shard,
        /// The first part's shard count.
        first: u64,
    },
    /// The same shard twice.
    #[error("shard {0} is given twice")]
    Duplicate(Shard),
    /// Shards missing from the set.
    #[error("shards missing: {}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))]
    Missing(Vec<Shard>),
    /// A part does not hold all the items of its shard.
    #[error("shard {shard} holds {found} games, not {expected}")]
    BadLength {
        /// The part's shard.
        shard: Shard,
        /// The items it holds.
        found: usize,
        /// The items of its shard.
        expected: u64,
    },
}

/// Merges the parts of a run of `total` items: `(shard, items)` for each of the shards `0/N` to
/// `N-1/N`, in any order, each with its shard's items in index order (slot `s` of shard `K` is
/// item `K + s*N`). Returns the `total` items in index order.
///
/// The checks, in order: at least one part; every part has the first part's `N` and no shard
/// is given twice (in input order); no shard is missing; each part holds exactly
/// [`Shard::games_of`]`(total)` items (in index order).
///
/// # Errors
/// [`ShardMergeError`] naming the first check that fails.
pub fn merge_shards<T>(parts: Vec<(Shard, Vec<T>)>, total: u64) -> Result<Vec<T>, ShardMergeError> {
    let first = parts.first().ok_or(ShardMergeError::Empty)?.0.count;
    let mut by_index: Vec<Option<Vec<T>>> = (0..first).map(|_| None).collect();
    for (shard, items) in parts {
        if shard.count != first {
            return Err(ShardMergeError::CountDiffers { shard, first });
        }
        let slot = &mut by_index[shard.index as usize];
        if slot.is_some() {
            return Err(ShardMergeError::Duplicate(shard));
        }
        *slot = Some(items);
    }
    let missing: Vec<Shard> = (0..first)
        .filter(|&k| by_index[k as usize].is_none())
        .map(|index| Shard {
            index,
            count: first,
        })
        .collect();
    if !missing.is_empty() {
        return Err(ShardMergeError::Missing(missing));
    }
    let mut columns = Vec::with_capacity(by_index.len());
    for (index, items) in (0..first).zip(by_index.into_iter().flatten()) {
        let shard = Shard {
            index,
            count: first,
        };
        let expected = shard.games_of(total);
        if items.len() as u64 != expected {
            return Err(ShardMergeError::BadLength {
                shard,
                found: items.len(),
                expected,
            });
        }
        columns.push(items.into_iter());
    }
    let mut out = Vec::with_capacity(total as usize);
    for index in 0..total {
        let column = &mut columns[(index % first) as usize];
        out.extend(column.next());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trips() {
        for text in ["0/1", "3/4", "17/100"] {
            let s: Shard = text.parse().unwrap();
            assert_eq!(s.to_string(), text);
        }
        assert_eq!(
            " 2 / 5 ".parse::<Shard>().unwrap(),
            Shard { index: 2, count: 5 }
        );
        for bad in ["4/4", "1/0", "x", "1", "-1/2", "1/2/3", ""] {
            let err = bad.parse::<Shard>().unwrap_err();
            assert_eq!(err.text, bad);
        }
    }

    #[test]
    fn selection_rule() {
        let s = Shard { index: 2, count: 5 };
        let mine: Vec<u64> = (0..13).filter(|&i| s.contains(i)).collect();
        assert_eq!(mine, [2, 7, 12]);
        assert_eq!(s.games_of(12), 2);
        assert_eq!(s.games_of(13), 3);
        assert_eq!(s.games_of(2), 0);
        assert_eq!(s.index_of(2), 12);
        assert_eq!(s.slot_of(12), 2);
        assert_eq!(Shard::default(), Shard::WHOLE);
        assert!((0..10).all(|i| Shard::WHOLE.contains(i)));
    }

    fn split(total: u64, n: u64) -> Vec<(Shard, Vec<u64>)> {
        (0..n)
            .rev()
            .map(|index| {
                let s = Shard { index, count: n };
                (s, (0..total).filter(|&i| s.contains(i)).collect())
            })
            .collect()
    }

    #[test]
    fn merge_interleaves_by_index() {
        for (total, n) in [(10, 3), (2, 4), (0, 1), (7, 1)] {
            let merged = merge_shards(split(total, n), total).unwrap();
            assert_eq!(merged, (0..total).collect::<Vec<_>>());
        }
    }

    #[test]
    fn merge_checks_the_set() {
        assert_eq!(
            merge_shards::<u64>(Vec::new(), 3),
            Err(ShardMergeError::Empty)
        );
        let mut parts = split(10, 3);
        parts.remove(1);
        let err = merge_shards(parts, 10).unwrap_err();
        assert_eq!(
            err,
            ShardMergeError::Missing(vec![Shard { index: 1, count: 3 }])
        );
        assert_eq!(err.to_string(), "shards missing: 1/3");
        let mut parts = split(10, 3);
        parts.push(parts[0].clone());
        assert!(matches!(
            merge_shards(parts, 10),
            Err(ShardMergeError::Duplicate(s)) if s == Shard { index: 2, count: 3 }
        ));
        let mut parts = split(10, 3);
        parts[1].0.count = 4;
        assert!(matches!(
            merge_shards(parts, 10),
            Err(ShardMergeError::CountDiffers { first: 3, .. })
        ));
        let mut parts = split(10, 3);
        parts[0].1.pop();
        assert!(matches!(
            merge_shards(parts, 10),
            Err(ShardMergeError::BadLength {
                found: 2,
                expected: 3,
                ..
            })
        ));
    }
}
