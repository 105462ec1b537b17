//! The parts of a sharded deviate round ([`RoundPart`]): each shard's updates with a
//! [`RoundStamp`] of what they were made from, so that [`Book::merge_round`] applies the parts
//! of one round to the book they came from, and refuses anything else.

use std::path::Path;

use serde::{Deserialize, Serialize};
use yomi_core::{fnv1a64, Container, Shard};

use super::{Book, BookError, BuildConfig, DeviateBudget, TAG};

/// The container of round parts.
const PART_CONTAINER: Container = Container {
    magic: *b"YOMIBKRD",
    version: 1,
    what: "book round part",
};

/// What one part of a deviate round was made from: the book the round started from, the
/// budget that chose its frontier, the settings that valued its positions, and its shard.
/// The parts of one round have equal stamps but for `shard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStamp {
    /// The digest of the book the round started from ([`Book::digest`]).
    pub base: u64,
    /// The digest of the evaluation weights that valued it.
    pub weights: u64,
    /// The round's budget.
    pub per_move: i32,
    /// The round's budget along a line.
    pub total: i32,
    /// The round's ply below which everything is expanded.
    pub min_ply: u32,
    /// The midgame depth of the new values.
    pub depth: u32,
    /// The empties of the exact solves.
    pub exact: u32,
    /// The empties of the win/loss/draw proofs.
    pub wld: u32,
    /// How many leaves the round's frontier has.
    pub leaves: u64,
    /// This part's shard, `K` of `N`.
    pub shard: u64,
    /// How many shards the round has.
    pub shards: u64,
}

impl RoundStamp {
    /// The stamp of shard `shard` of the round from `base` with `budget` and `config`, whose
    /// frontier has `leaves` leaves.
    ///
    /// # Errors
    /// As [`Book::digest`].
    pub fn new(
        base: &Book,
        budget: &DeviateBudget,
        config: &BuildConfig,
        leaves: usize,
        shard: Shard,
    ) -> Result<RoundStamp, BookError> {
        Ok(RoundStamp {
            base: base.digest()?,
            weights: base.weights(),
            per_move: budget.per_move,
            total: budget.total,
            min_ply: budget.min_ply,
            depth: config.depth,
            exact: config.exact,
            wld: config.wld,
            leaves: leaves as u64,
            shard: shard.index,
            shards: shard.count,
        })
    }

    /// How `other` differs from this stamp, but for the shard index: the first field that
    /// differs, as `depth 8 against 10`; `None` for parts of the same round.
    #[must_use]
    pub fn differs(&self, other: &RoundStamp) -> Option<String> {
        let fields: [(&str, String, String); 10] = [
            (
                "base book digest",
                format!("{:016x}", self.base),
                format!("{:016x}", other.base),
            ),
            (
                "weights digest",
                format!("{:016x}", self.weights),
                format!("{:016x}", other.weights),
            ),
            (
                "per-move budget",
                self.per_move.to_string(),
                other.per_move.to_string(),
            ),
            (
                "total budget",
                self.total.to_string(),
                other.total.to_string(),
            ),
            (
                "min ply",
                self.min_ply.to_string(),
                other.min_ply.to_string(),
            ),
            ("depth", self.depth.to_string(), other.depth.to_string()),
            ("exact", self.exact.to_string(), other.exact.to_string()),
            ("wld", self.wld.to_string(), other.wld.to_string()),
            (
                "frontier",
                self.leaves.to_string(),
                other.leaves.to_string(),
            ),
            (
                "shard count",
                self.shards.to_string(),
                other.shards.to_string(),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(name, a, b)| format!("{name} {a} against {b}"))
    }
}

/// The payload of a part file.
#[derive(Serialize, Deserialize)]
struct PartPayload {
    stamp: RoundStamp,
    /// The updates as a book file's bytes.
    updates: Vec<u8>,
}

/// One shard's part of a deviate round: its updates (positions added or valued again) and
/// what they were made from. Written by `yomi book deviate --shard`, applied by
/// [`Book::merge_round`] (`yomi book merge`). The file is the checked container (magic
/// `YOMIBKRD`) around the stamp and the updates' book bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundPart {
    /// What the part was made from.
    pub stamp: RoundStamp,
    /// Its updates.
    pub updates: Book,
}

impl RoundPart {
    /// The part's file bytes.
    ///
    /// # Errors
    /// [`BookError::Container`] when it cannot be encoded.
    pub fn to_bytes(&self) -> Result<Vec<u8>, BookError> {
        let payload = PartPayload {
            stamp: self.stamp,
            updates: self.updates.to_bytes()?,
        };
        Ok(PART_CONTAINER.encode(TAG, self.updates.len() as u64, &payload)?)
    }

    /// A part from its file bytes.
    ///
    /// # Errors
    /// [`BookError::Container`] for a file that is not a sound part (magic, version,
    /// checksum, length), and as [`Book::from_bytes`] for its updates.
    pub fn from_bytes(bytes: &[u8]) -> Result<RoundPart, BookError> {
        let (_, payload): (_, PartPayload) = PART_CONTAINER.decode(TAG, bytes)?;
        Ok(RoundPart {
            stamp: payload.stamp,
            updates: Book::from_bytes(&payload.updates)?,
        })
    }

    /// Writes the part's file (whole, through a temporary name).
    ///
    /// # Errors
    /// [`BookError::Container`] when the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        Ok(Container::write_bytes(path, &self.to_bytes()?)?)
    }

    /// Reads a part's file.
    ///
    /// # Errors
    /// As [`RoundPart::from_bytes`], and [`BookError::Container`] when the file cannot be
    /// read.
    pub fn read(path: &Path) -> Result<RoundPart, BookError> {
        RoundPart::from_bytes(&PART_CONTAINER.read_bytes(TAG, path)?)
    }
}

impl Book {
    /// The digest of the book's file bytes (FNV-1a 64), which names the book a round started
    /// from.
    ///
    /// # Errors
    /// As [`Book::to_bytes`].
    pub fn digest(&self) -> Result<u64, BookError> {
        Ok(fnv1a64(&self.to_bytes()?))
    }

    /// Applies every part of one deviate round made from this book, then fixes the book: the
    /// same book, byte for byte, as the round run whole. The parts may come in any order.
    ///
    /// # Errors
    /// [`BookError::Round`], and the book unchanged, when a part was made from another book
    /// or another round (its budget, settings, frontier or shard count differ), when a shard
    /// comes twice, or when one is missing.
    pub fn merge_round(&mut self, parts: &[RoundPart]) -> Result<(), BookError> {
        let Some(first) = parts.first() else {
            return Err(BookError::Round("no part to merge".into()));
        };
        let base = self.digest()?;
        if first.stamp.base != base {
            return Err(BookError::Round(format!(
                "part 1 was made from another book (digest {:016x}) than this one ({base:016x})",
                first.stamp.base
            )));
        }
        let mut seen = vec![false; usize::try_from(first.stamp.shards).unwrap_or(0)];
        for (i, part) in parts.iter().enumerate() {
            if let Some(why) = first.stamp.differs(&part.stamp) {
                return Err(BookError::Round(format!(
                    "part {} is of another round than part 1: {why}",
                    i + 1
                )));
            }
            let slot = usize::try_from(part.stamp.shard)
                .ok()
                .and_then(|k| seen.get_mut(k))
                .ok_or_else(|| {
                    BookError::Round(format!(
                        "part {}: shard {} of {} does not exist",
                        i + 1,
                        part.stamp.shard,
                        part.stamp.shards
                    ))
                })?;
            if std::mem::replace(slot, true) {
                return Err(BookError::Round(format!(
                    "part {}: shard {}/{} comes twice",
                    i + 1,
                    part.stamp.shard,
                    part.stamp.shards
                )));
            }
        }
        let missing: Vec<String> = seen
            .iter()
            .enumerate()
            .filter(|(_, s)| !**s)
            .map(|(k, _)| format!("{k}/{}", first.stamp.shards))
            .collect();
        if !missing.is_empty() {
            return Err(BookError::Round(format!(
                "the round's shard{} {} missing",
                if missing.len() == 1 { " is" } else { "s are" },
                missing.join(", ")
            )));
        }
        for part in parts {
            self.apply(&part.updates);
        }
        self.fix();
        Ok(())
    }
}
