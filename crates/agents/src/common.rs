//! Small pieces the agents share: random tie-breaking, time limits, spec formatting, values of
//! finished games.

use std::fmt::Display;
use std::time::{Duration, Instant};

use yomi_core::{Explanation, Game, MoveScore, Outcome, Player, Rng};

/// The value of a won finished game for the winner (the loser gets `-WIN_VALUE`, a draw 0).
///
/// Searches compare it with the game's [`LeafEval`](yomi_core::LeafEval), so it must exceed
/// any leaf evaluation: tic-tac-toe and the stone game evaluate to 0, Othello's disc difference
/// stays within 64.
pub const WIN_VALUE: f64 = 1_000_000.0;

/// The value of a finished game for `player`: `WIN_VALUE`, `-WIN_VALUE` or 0.
#[inline]
pub(crate) fn outcome_value(outcome: Outcome, player: Player) -> f64 {
    f64::from(outcome.value_for(player)) * WIN_VALUE
}

/// The index of a uniformly random element among `len` candidates. Draws from the generator
/// only when there is a real choice (`len > 1`), so agents with a unique best move do not
/// consume random numbers.
#[inline]
pub(crate) fn pick_index(len: usize, rng: &mut Rng) -> usize {
    if len > 1 {
        rng.below(len)
    } else {
        0
    }
}

/// An explanation whose best set holds the moves with the highest score, the choice drawn with
/// [`pick_index`] (the same draw the agents' fast `choose` paths make).
pub(crate) fn explain_best<M: Display + Copy + PartialEq>(
    agent: String,
    moves: Vec<MoveScore<M>>,
    rng: &mut Rng,
) -> Explanation<M> {
    Explanation::from_scores(agent, moves, |best| best[pick_index(best.len(), rng)])
}

/// The indices of the highest values (compared exactly), in order.
pub(crate) fn best_indices(values: &[f64]) -> Vec<usize> {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (0..values.len()).filter(|&i| values[i] == top).collect()
}

/// The notes of a Monte Carlo explanation: the `summary` of the work done, and whether the
/// time limit stopped it after `done` of `budget` `unit` (with a single legal move: none done).
pub(crate) fn budget_notes(
    legal: usize,
    done: u64,
    budget: u64,
    unit: &str,
    summary: String,
) -> Vec<String> {
    if legal == 1 {
        return vec![format!("only one legal move: no {unit}")];
    }
    let mut notes = vec![summary];
    if done < budget {
        notes.push(format!(
            "time limit reached after {done} of {budget} {unit}"
        ));
    }
    notes
}

/// Monte Carlo agents read the clock once per this many playouts or iterations.
pub(crate) const CLOCK_EVERY: u64 = 64;

/// A clock for an optional time limit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline {
    end: Option<Instant>,
}

impl Deadline {
    /// Starts the clock now; `None` never expires.
    pub(crate) fn start(limit: Option<Duration>) -> Deadline {
        Deadline {
            end: limit.and_then(|d| Instant::now().checked_add(d)),
        }
    }

    /// Whether there is a limit at all.
    pub(crate) fn is_limited(&self) -> bool {
        self.end.is_some()
    }

    /// Whether the time is up (reads the clock only when there is a limit).
    #[inline]
    pub(crate) fn expired(&self) -> bool {
        self.end.is_some_and(|end| Instant::now() >= end)
    }
}

/// A time limit as a spec value: seconds, `0` for none.
pub(crate) fn time_text(limit: Option<Duration>) -> String {
    limit.map_or_else(|| "0".to_string(), |d| d.as_secs_f64().to_string())
}

/// Rejects finished positions with [`AgentError::GameOver`](yomi_core::AgentError::GameOver)
/// and returns the legal moves otherwise.
pub(crate) fn moves_of<G: Game>(state: &G) -> Result<G::Moves, yomi_core::AgentError> {
    let moves = state.legal_moves();
    if moves.is_empty() {
        Err(yomi_core::AgentError::GameOver)
    } else {
        Ok(moves)
    }
}
