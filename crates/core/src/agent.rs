use std::fmt::{self, Debug, Display};

use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::{Clock, Game, Limits, Rng};

/// A player of game `G`: picks a move for a position.
///
/// The trait is object safe: the harness and the CLI hold agents as `Box<dyn Agent<G>>`, built
/// by name from a spec string.
///
/// # Contract
/// - Randomness comes only from the `rng` argument (never from a global generator), so the
///   same position and generator state give the same choice on every platform.
/// - [`Agent::choose`] on an unfinished position returns one of its legal moves; on a finished
///   position it returns [`AgentError::GameOver`].
/// - An agent may keep state between calls (a cache, a time budget), but that state must not
///   change its choices: the match harness builds a fresh agent for each game and expects
///   results that do not depend on which agent instance played.
/// - [`Agent::explain`] reports the reasoning behind a choice; its `chosen` move is what
///   [`Agent::choose`] would have returned with the same generator state.
pub trait Agent<G: Game>: Debug + Send {
    /// The spec string that rebuilds this agent, e.g. `pmc2:pnum=1000,alpha=0.5`.
    fn spec(&self) -> String;

    /// Picks a move and explains the choice: a score (and its parts) for each legal move, the
    /// best set and the move chosen.
    ///
    /// # Errors
    /// [`AgentError::GameOver`] for a finished position; other variants when the agent cannot
    /// work (e.g. missing data).
    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError>;

    /// Picks a move. The provided version returns the `chosen` move of [`Agent::explain`];
    /// agents override it when they can skip the bookkeeping.
    ///
    /// # Errors
    /// As [`Agent::explain`].
    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        Ok(self.explain(state, rng)?.chosen)
    }

    /// Sets the limits of the following moves: each [`Agent::choose`] or [`Agent::explain`]
    /// call starts its own clock and node count from `limits` (so `limits.time` is a time
    /// per move), and setting `limits.flag` from another thread stops the call in progress,
    /// which then returns the best move it has found (a legal move, never an error). An
    /// engine protocol sets the time its client gives; the web page sets a flag it raises
    /// when the request is cancelled. A limit tighter than the agent's own settings wins.
    ///
    /// The provided version ignores the limits: right for agents whose moves take
    /// microseconds. Agents that search override it.
    fn set_limits(&mut self, limits: &Limits) {
        let _ = limits;
    }

    /// Gives the agent its side's game clock for the following moves (`None`: no clock).
    /// A clock is what the agent may plan its time with (spend more on some moves, less on
    /// others); the per-move [`Limits`] of [`Agent::set_limits`] still bound every move. A
    /// harness playing at a time control and an engine protocol whose client sends its
    /// clock call it before each move, after `set_limits`.
    ///
    /// The provided version ignores the clock: right for agents that do not search.
    fn set_clock(&mut self, clock: Option<&Clock>) {
        let _ = clock;
    }

    /// How the move that the last [`Agent::choose`] or [`Agent::explain`] returned was found,
    /// in a word of the agent's own fixed vocabulary (the `othello` agent: `book`, `forced`,
    /// `midgame`, `wld`, `exact`), for a harness's statistics. `None` before the first move
    /// and for agents that do not say (the provided version).
    fn last_move_kind(&self) -> Option<&'static str> {
        None
    }
}

impl<G: Game, A: Agent<G> + ?Sized> Agent<G> for Box<A> {
    fn spec(&self) -> String {
        (**self).spec()
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        (**self).explain(state, rng)
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        (**self).choose(state, rng)
    }

    fn set_limits(&mut self, limits: &Limits) {
        (**self).set_limits(limits);
    }

    fn set_clock(&mut self, clock: Option<&Clock>) {
        (**self).set_clock(clock);
    }

    fn last_move_kind(&self) -> Option<&'static str> {
        (**self).last_move_kind()
    }
}

/// Why an agent could not pick a move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The position is finished: there is nothing to play.
    #[error("the game is over: no move to choose")]
    GameOver,
    /// The agent cannot work (missing or bad data, an internal limit).
    #[error("agent {agent} failed: {reason}")]
    Failed {
        /// The agent's spec.
        agent: String,
        /// What went wrong.
        reason: String,
    },
    /// The agent loses the game by forfeit: an external engine that crashed, ran past its
    /// time, broke its protocol or played an illegal move. A match harness records the game
    /// as lost, with the reason, and goes on.
    #[error("forfeit: {reason}")]
    Forfeit {
        /// Why.
        reason: Forfeit,
        /// What happened, for logs (the engine's last words, the line it sent).
        detail: String,
    },
}

/// Why an agent forfeits a game. `Display` is the short reason a results table shows:
/// `timeout`, `crash`, `illegal move e9`, `protocol error`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Forfeit {
    /// No move within the time allowed.
    Timeout,
    /// The program exited or closed its output.
    Crash,
    /// A move that is not legal in the position (as the engine wrote it).
    IllegalMove(String),
    /// A reply the protocol does not allow.
    Protocol,
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Timeout => f.write_str("timeout"),
            Forfeit::Crash => f.write_str("crash"),
            Forfeit::IllegalMove(mv) => write!(f, "illegal move {mv}"),
            Forfeit::Protocol => f.write_str("protocol error"),
        }
    }
}

/// One labelled number that contributed to a move's score (e.g. `count(2,0,1) = 1`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    /// What the number is.
    pub label: String,
    /// The number.
    pub value: f64,
}

impl Part {
    /// A part from a label and a value.
    pub fn new(label: impl Into<String>, value: impl Into<f64>) -> Part {
        Part {
            label: label.into(),
            value: value.into(),
        }
    }
}

/// The evaluation of one legal move in an [`Explanation`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct MoveScore<M: Display> {
    /// The move.
    #[serde(rename = "move", serialize_with = "display")]
    pub mv: M,
    /// Its score for the agent (higher is better for the mover).
    pub score: f64,
    /// The numbers the score was made of.
    pub parts: Vec<Part>,
    /// Which rule or method produced the score, if the agent has one to name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl<M: Display> MoveScore<M> {
    /// A move with a score and no parts.
    pub fn new(mv: M, score: f64) -> MoveScore<M> {
        MoveScore {
            mv,
            score,
            parts: Vec::new(),
            note: None,
        }
    }

    /// Adds a labelled part.
    #[must_use]
    pub fn with_part(mut self, label: impl Into<String>, value: impl Into<f64>) -> Self {
        self.parts.push(Part::new(label, value));
        self
    }

    /// Sets the note.
    #[must_use]
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }
}

/// Why an agent chose its move: every legal move's score, the best set and the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(bound = "")]
pub struct Explanation<M: Display> {
    /// The agent's spec.
    pub agent: String,
    /// Each legal move considered, in the game's order.
    pub moves: Vec<MoveScore<M>>,
    /// The moves the agent considered best (it picks among these).
    #[serde(serialize_with = "display_all")]
    pub best: Vec<M>,
    /// The move played.
    #[serde(serialize_with = "display")]
    pub chosen: M,
    /// Anything else worth saying (e.g. "only one legal move").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl<M: Display + Copy + PartialEq> Explanation<M> {
    /// An explanation from scored moves where higher is better: the best set holds every move
    /// whose score equals the maximum, and `pick` chooses among it (e.g. at random).
    ///
    /// # Panics
    /// If `moves` is empty (an unfinished game always has a legal move).
    #[track_caller]
    pub fn from_scores(
        agent: String,
        moves: Vec<MoveScore<M>>,
        pick: impl FnOnce(&[M]) -> M,
    ) -> Explanation<M> {
        let top = moves
            .iter()
            .map(|m| m.score)
            .fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<M> = moves
            .iter()
            .filter(|m| m.score == top)
            .map(|m| m.mv)
            .collect();
        assert!(!best.is_empty(), "an explanation needs at least one move");
        let chosen = pick(&best);
        Explanation {
            agent,
            moves,
            best,
            chosen,
            notes: Vec::new(),
        }
    }
}

impl<M: Display> Display for Explanation<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "agent {}", self.agent)?;
        for m in &self.moves {
            write!(
                f,
                "  {:<8} score {:>10}",
                m.mv.to_string(),
                fmt_num(m.score)
            )?;
            if let Some(note) = &m.note {
                write!(f, "  [{note}]")?;
            }
            for p in &m.parts {
                write!(f, "  {}={}", p.label, fmt_num(p.value))?;
            }
            writeln!(f)?;
        }
        for n in &self.notes {
            writeln!(f, "  note: {n}")?;
        }
        let best: Vec<String> = self.best.iter().map(ToString::to_string).collect();
        writeln!(f, "best   {}", best.join(" "))?;
        write!(f, "chosen {}", self.chosen)
    }
}

/// Formats a number without a trailing `.0` for integers.
fn fmt_num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.4}")
    }
}

fn display<M: Display, S: Serializer>(m: &M, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(m)
}

fn display_all<M: Display, S: Serializer>(ms: &[M], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(ms.iter().map(ToString::to_string))
}
