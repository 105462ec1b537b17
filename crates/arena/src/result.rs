//! What a match is and what it gives: its settings, its result (tallies, Elo, the SPRT, time,
//! forfeits) and its errors.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{AgentError, Forfeit, GameResult, Shard};

use crate::elo::{Hypothesis, Pentanomial, Sprt};
use crate::openings::OpeningsInfo;
use crate::outcomes::Outcomes;
use crate::Tally;

/// Settings of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// Rounds to play; each round is one game with A first and one with B first.
    pub rounds: u64,
    /// The master seed: game `i` uses `Rng::for_stream(seed, i)`.
    pub seed: u64,
    /// Worker threads; `None` uses every core. Results do not depend on it.
    pub threads: Option<usize>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            rounds: 10_000,
            seed: 1,
            threads: None,
        }
    }
}

/// Why a match could not be played.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MatchError {
    /// The configuration is out of range.
    #[error("bad match setting: {0}")]
    BadConfig(String),
    /// An agent failed to choose a move.
    #[error("agent {agent} failed in game {game} at position {position}: {source}")]
    Agent {
        /// The agent's spec.
        agent: String,
        /// The game's index.
        game: u64,
        /// The position, in the game's notation.
        position: String,
        /// What the agent reported.
        source: AgentError,
    },
    /// An agent chose an illegal move.
    #[error("agent {agent} played illegal move {mv} in game {game} at position {position}")]
    IllegalMove {
        /// The agent's spec.
        agent: String,
        /// The game's index.
        game: u64,
        /// The move.
        mv: String,
        /// The position.
        position: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
    /// The observer failed (e.g. the record file could not be written).
    #[error("{0}")]
    Observer(String),
    /// The match's adjudicator could not decide a position it should have decided (e.g. the
    /// solver could not start).
    #[error("adjudication ({rule}) failed in game {game} at position {position}: {reason}")]
    Adjudication {
        /// The rule (the adjudicator's name, e.g. `exact=12`).
        rule: String,
        /// The game's index.
        game: u64,
        /// The position, in the game's notation.
        position: String,
        /// What went wrong.
        reason: String,
    },
}

/// Progress of a running match, passed to the observer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Games finished so far (games of a resumed match included).
    pub done: u64,
    /// Games in the match (in the shard, for a shard).
    pub total: u64,
    /// A's results over the finished games.
    pub tally: Tally,
    /// Complete pairs counted in game order so far (empty for a shard of several).
    pub pairs: Pentanomial,
    /// The SPRT's log-likelihood ratio over those pairs, when the match runs one.
    pub llr: Option<f64>,
}

/// Thinking time spent by one agent: in all, and by the game's phase before each move.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentTime {
    /// Moves the agent chose.
    pub moves: u64,
    /// Total wall-clock seconds inside `choose`.
    pub seconds: f64,
    /// The same by the phase of the position the agent moved in ([`Game::phase`]:
    /// Othello's empty squares), with the kinds of move the agent reported
    /// ([`Agent::last_move_kind`]); empty for a game without phases (and then absent from
    /// the JSON).
    ///
    /// [`Game::phase`]: yomi_core::Game::phase
    /// [`Agent::last_move_kind`]: yomi_core::Agent::last_move_kind
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        with = "phase_list"
    )]
    pub phases: BTreeMap<u32, PhaseTime>,
}

/// [`AgentTime::phases`] in JSON: a list of `{"phase": 20, "moves": ..., ...}` by increasing
/// phase (a map with number keys would not read back inside the tagged shard file).
mod phase_list {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::PhaseTime;

    #[derive(Serialize, Deserialize)]
    struct Entry {
        phase: u32,
        #[serde(flatten)]
        time: PhaseTime,
    }

    pub(super) fn serialize<S: Serializer>(
        phases: &BTreeMap<u32, PhaseTime>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let list: Vec<Entry> = phases
            .iter()
            .map(|(&phase, time)| Entry {
                phase,
                time: time.clone(),
            })
            .collect();
        list.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<u32, PhaseTime>, D::Error> {
        let list = Vec::<Entry>::deserialize(d)?;
        Ok(list.into_iter().map(|e| (e.phase, e.time)).collect())
    }
}

/// An agent's moves in one phase of the game (see [`AgentTime::phases`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhaseTime {
    /// Moves chosen in this phase.
    pub moves: u64,
    /// Their wall-clock seconds inside `choose`.
    pub seconds: f64,
    /// The kinds of move the agent reported in this phase, by name (absent from the JSON
    /// when it reported none).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub kinds: BTreeMap<String, KindCount>,
}

/// How often an agent reported one kind of move in one phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCount {
    /// Moves of this kind.
    pub moves: u64,
    /// Games in which the agent's first move of this kind came in this phase: where it
    /// started to solve, say.
    pub first: u64,
}

impl AgentTime {
    /// Mean seconds per move (0 without moves).
    #[must_use]
    pub fn per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.seconds / self.moves as f64
        }
    }

    /// Counts one move of `seconds` in `phase` (when the game has one), of the agent's
    /// `kind` (when it said), `first` when no earlier move of the game had that kind.
    pub fn record(&mut self, phase: Option<u32>, seconds: f64, kind: Option<&str>, first: bool) {
        self.moves += 1;
        self.seconds += seconds;
        if let Some(phase) = phase {
            let p = self.phases.entry(phase).or_default();
            p.moves += 1;
            p.seconds += seconds;
            if let Some(kind) = kind {
                let k = p.kinds.entry(kind.to_string()).or_default();
                k.moves += 1;
                k.first += u64::from(first);
            }
        }
    }

    /// The moves and seconds of the phases in `range` together (a span of empties, say).
    #[must_use]
    pub fn in_phases(&self, range: std::ops::RangeInclusive<u32>) -> (u64, f64) {
        self.phases
            .range(range)
            .fold((0, 0.0), |(m, s), (_, p)| (m + p.moves, s + p.seconds))
    }

    /// For one kind of move, the phases where it came first in a game and in how many games,
    /// by phase.
    #[must_use]
    pub fn firsts(&self, kind: &str) -> BTreeMap<u32, u64> {
        self.phases
            .iter()
            .filter_map(|(&phase, p)| {
                p.kinds
                    .get(kind)
                    .filter(|k| k.first > 0)
                    .map(|k| (phase, k.first))
            })
            .collect()
    }

    /// The kinds of move reported in any phase, by name.
    #[must_use]
    pub fn kinds(&self) -> BTreeMap<&str, KindCount> {
        let mut all: BTreeMap<&str, KindCount> = BTreeMap::new();
        for p in self.phases.values() {
            for (name, k) in &p.kinds {
                all.entry(name.as_str()).or_default().add(*k);
            }
        }
        all
    }

    /// Adds `other`'s moves, time and kinds to these (another batch of games).
    pub(crate) fn add(&mut self, other: &AgentTime) {
        self.moves += other.moves;
        self.seconds += other.seconds;
        for (&phase, p) in &other.phases {
            let q = self.phases.entry(phase).or_default();
            q.moves += p.moves;
            q.seconds += p.seconds;
            for (name, k) in &p.kinds {
                q.kinds.entry(name.clone()).or_default().add(*k);
            }
        }
    }
}

impl KindCount {
    /// Adds `other`'s counts to these.
    fn add(&mut self, other: KindCount) {
        self.moves += other.moves;
        self.first += other.first;
    }
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum End {
    /// Every game was played.
    Complete,
    /// The SPRT accepted a hypothesis: the games after the deciding pair do not count.
    Sprt,
    /// The stop flag was set (Ctrl-C): the games finished before it count.
    Interrupted,
    /// The observer asked to stop.
    Stopped,
}

/// Which agent of a match: A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// Agent A.
    A,
    /// Agent B.
    B,
}

/// A game lost by forfeit ([`AgentError::Forfeit`]): an external engine that crashed, ran
/// past its time, broke its protocol or played an illegal move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameForfeit {
    /// The game's index.
    pub game: u64,
    /// The agent that forfeited (and lost).
    pub agent: Seat,
    /// The short reason tables show: `timeout`, `crash`, `illegal move e9`, `protocol error`
    /// (the [`Forfeit`]'s `Display`).
    pub reason: String,
    /// What happened, for logs (the engine's last words, the line it sent).
    pub detail: String,
}

impl GameForfeit {
    pub(crate) fn new(game: u64, agent: Seat, reason: &Forfeit, detail: String) -> GameForfeit {
        GameForfeit {
            game,
            agent,
            reason: reason.to_string(),
            detail,
        }
    }
}

/// The state of a match's SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio over the counted pairs.
    pub llr: f64,
    /// Its lower bound (H0 accepted at or below).
    pub lower: f64,
    /// Its upper bound (H1 accepted at or above).
    pub upper: f64,
    /// The hypothesis accepted, if a bound was crossed.
    pub accepted: Option<Hypothesis>,
}

/// The result of a match, from agent A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The game's name.
    pub game: String,
    /// Agent A's spec.
    pub agent_a: String,
    /// Agent B's spec.
    pub agent_b: String,
    /// Rounds of the whole match (two games each), as configured.
    pub rounds: u64,
    /// The master seed.
    pub seed: u64,
    /// The openings the rounds started from.
    pub openings: OpeningsInfo,
    /// Which games this result covers.
    pub shard: Shard,
    /// Whether the match ended normally (every game played, or the SPRT decided).
    pub complete: bool,
    /// How it ended.
    pub end: End,
    /// A's results in the games where A moved first.
    pub a_first: Tally,
    /// A's results in the games where A moved second.
    pub a_second: Tally,
    /// Rounds whose two games both count, by A's points (the pentanomial counts; empty for a
    /// shard of several, whose pairs are split between shards).
    pub pairs: Pentanomial,
    /// The SPRT, when the match ran one.
    pub sprt: Option<SprtReport>,
    /// The adjudication rule of the match ([`RunOptions::adjudicator`](crate::RunOptions)'s
    /// name, e.g. `exact=12`; absent from the JSON without one). The games it decided are
    /// marked in [`MatchResult::outcomes`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicator: Option<String>,
    /// Each game's result, in game order over the shard's games.
    pub outcomes: Outcomes,
    /// The games of [`MatchResult::outcomes`] lost by forfeit, in game order (absent from
    /// the JSON when there are none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<GameForfeit>,
    /// Thinking time of A and of B. Wall-clock: varies between runs.
    pub time: [AgentTime; 2],
}

impl MatchResult {
    /// A's results over all games.
    #[must_use]
    pub fn total(&self) -> Tally {
        self.a_first.plus(&self.a_second)
    }

    /// Games the match's adjudicator decided (see [`Outcomes::adjudicated`]).
    #[must_use]
    pub fn adjudicated(&self) -> usize {
        self.outcomes.adjudicated()
    }

    /// Recomputes the tallies and pairs from the outcomes (used by merges and resumes).
    pub(crate) fn recount(&mut self) {
        let (a_first, a_second, pairs) = count(&self.outcomes, self.shard);
        self.a_first = a_first;
        self.a_second = a_second;
        self.pairs = pairs;
        if let Some(report) = &mut self.sprt {
            report.llr = report.test.llr_pentanomial(&pairs);
        }
    }
}

/// Tallies and pentanomial counts of a shard's outcomes.
fn count(outcomes: &Outcomes, shard: Shard) -> (Tally, Tally, Pentanomial) {
    let mut firsts = Tally::default();
    let mut seconds = Tally::default();
    let mut pairs = Pentanomial::default();
    let mut previous: Option<(u64, GameResult)> = None;
    for (slot, r) in outcomes.iter().enumerate() {
        let Some(r) = r else { continue };
        let index = shard.index_of(slot as u64);
        let t = if index.is_multiple_of(2) {
            &mut firsts
        } else {
            &mut seconds
        };
        add(t, r);
        if shard.count == 1 {
            if let Some((p, pr)) = previous {
                if p + 1 == index && index % 2 == 1 {
                    pairs.add(half_points(pr) + half_points(r));
                }
            }
            previous = Some((index, r));
        }
    }
    (firsts, seconds, pairs)
}

pub(crate) fn add(t: &mut Tally, r: GameResult) {
    match r {
        GameResult::Win => t.win += 1,
        GameResult::Loss => t.lose += 1,
        GameResult::Draw => t.draw += 1,
    }
}

pub(crate) fn half_points(r: GameResult) -> usize {
    match r {
        GameResult::Win => 2,
        GameResult::Draw => 1,
        GameResult::Loss => 0,
    }
}
