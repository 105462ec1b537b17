//! Merging the shard results of one match into the whole match's result.

use thiserror::Error;
use yomi_core::{merge_shards, Shard, ShardMergeError};

use crate::outcomes::Outcomes;
use crate::result::{AgentTime, End, MatchResult};

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
    /// Another check of the shard set failed.
    #[error(transparent)]
    Shards(ShardMergeError),
}

impl From<ShardMergeError> for MergeError {
    /// The set checks of [`merge_shards`], as a match names them.
    fn from(e: ShardMergeError) -> MergeError {
        match e {
            ShardMergeError::Empty => MergeError::Empty,
            ShardMergeError::CountDiffers { shard, first } => MergeError::DifferentRun {
                shard,
                what: "shard count",
                theirs: shard.count.to_string(),
                ours: first.to_string(),
            },
            ShardMergeError::Duplicate(shard) => MergeError::Duplicate(shard),
            ShardMergeError::Missing(shards) => MergeError::Missing(shards),
            ShardMergeError::BadLength {
                shard,
                found,
                expected,
            } => MergeError::BadLength {
                shard,
                found,
                expected,
            },
            // `ShardMergeError` is non-exhaustive: a check added there reads as its own text.
            other => MergeError::Shards(other),
        }
    }
}

impl MatchResult {
    /// Merges the results of shards `0/N` to `N-1/N` of one match (in any order) into the
    /// result the whole match gives: the same counts, pairs and outcomes.
    ///
    /// # Errors
    /// [`MergeError`] naming a shard from a different run (game, agents, rounds, seed,
    /// openings, shard count, adjudication or SPRT), a duplicated, missing or incomplete shard.
    pub fn merge(shards: &[MatchResult]) -> Result<MatchResult, MergeError> {
        let first = shards.first().ok_or(MergeError::Empty)?;
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
                differs(
                    "adjudication",
                    s.adjudicator.clone().unwrap_or_else(|| "none".into()),
                    first.adjudicator.clone().unwrap_or_else(|| "none".into()),
                ),
            ];
            if let Some(e) = checks.into_iter().flatten().next() {
                return Err(e);
            }
        }
        let total = first.rounds * 2;
        let parts = shards
            .iter()
            .map(|s| (s.shard, s.outcomes.codes().to_vec()))
            .collect();
        let codes = merge_shards(parts, total).map_err(MergeError::from)?;
        let mut in_order: Vec<&MatchResult> = shards.iter().collect();
        in_order.sort_by_key(|s| s.shard.index);
        let mut forfeits = Vec::new();
        let mut time: [AgentTime; 2] = Default::default();
        for s in in_order {
            if s.outcomes.played() != s.outcomes.len() || !s.complete {
                return Err(MergeError::Incomplete {
                    shard: s.shard,
                    played: s.outcomes.played(),
                    games: s.outcomes.len(),
                });
            }
            forfeits.extend(s.forfeits.iter().cloned());
            for (t, u) in time.iter_mut().zip(&s.time) {
                t.add(u);
            }
        }
        let mut merged = MatchResult {
            shard: Shard::WHOLE,
            complete: true,
            end: End::Complete,
            sprt: None,
            outcomes: Outcomes::from_codes(codes),
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
