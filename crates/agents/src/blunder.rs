//! `blunder`: any agent that now and then plays its second-best move.

use yomi_core::{Agent, AgentError, AgentSpec, Explanation, Game, Rng};

use crate::common::pick_index;

/// Wraps an agent and, with probability `p`, plays its second-best move instead of its choice
/// (the study's suggestion for friendlier beginner levels).
///
/// The second-best move comes from the inner agent's explanation: the best-scored moves outside
/// its best set (ties at random); when every move is in the best set, another move of the best
/// set than the one chosen (at random); with a single legal move, that move. The blunder is
/// drawn first (`rng.chance(p)`, only when `0 < p < 1`), then the inner agent decides with the
/// same generator.
#[derive(Debug)]
pub struct BlunderAgent<G: Game> {
    p: f64,
    inner: Box<dyn Agent<G>>,
}

impl<G: Game> BlunderAgent<G> {
    /// Wraps `inner`, blundering with probability `p` (clamped to `[0, 1]`).
    #[must_use]
    pub fn new(p: f64, inner: Box<dyn Agent<G>>) -> BlunderAgent<G> {
        BlunderAgent {
            p: p.clamp(0.0, 1.0),
            inner,
        }
    }

    fn blunders(&self, rng: &mut Rng) -> bool {
        if self.p <= 0.0 {
            false
        } else if self.p >= 1.0 {
            true
        } else {
            rng.chance(self.p)
        }
    }

    /// The second-best move of an explanation, or `None` with a single legal move.
    fn second_best(e: &Explanation<G::Move>, rng: &mut Rng) -> Option<G::Move> {
        let others: Vec<_> = e.moves.iter().filter(|m| !e.best.contains(&m.mv)).collect();
        let candidates: Vec<G::Move> = if others.is_empty() {
            e.best.iter().copied().filter(|&m| m != e.chosen).collect()
        } else {
            let top = others
                .iter()
                .map(|m| m.score)
                .fold(f64::NEG_INFINITY, f64::max);
            others
                .iter()
                .filter(|m| m.score == top || (top.is_nan() && m.score.is_nan()))
                .map(|m| m.mv)
                .collect()
        };
        (!candidates.is_empty()).then(|| candidates[pick_index(candidates.len(), rng)])
    }
}

impl<G: Game> Agent<G> for BlunderAgent<G> {
    fn spec(&self) -> String {
        let mut spec = AgentSpec::new("blunder").expect("a valid name");
        spec.set("p", self.p.to_string()).expect("a valid key");
        spec.set("agent", self.inner.spec()).expect("a valid key");
        spec.to_string()
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let blunder = self.blunders(rng);
        let mut e = self.inner.explain(state, rng)?;
        let inner_choice = e.chosen;
        e.agent = self.spec();
        if blunder {
            match Self::second_best(&e, rng) {
                Some(mv) => {
                    e.chosen = mv;
                    e.notes.push(format!(
                        "blunder: plays the second-best move {mv} instead of {inner_choice}"
                    ));
                }
                None => e
                    .notes
                    .push("blunder drawn, but there is no second-best move".to_string()),
            }
        } else {
            e.notes.push(format!(
                "no blunder: plays the inner agent's choice {inner_choice}"
            ));
        }
        Ok(e)
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        if self.blunders(rng) {
            let e = self.inner.explain(state, rng)?;
            Ok(Self::second_best(&e, rng).unwrap_or(e.chosen))
        } else {
            self.inner.choose(state, rng)
        }
    }

    fn set_limits(&mut self, limits: &yomi_core::Limits) {
        self.inner.set_limits(limits);
    }

    fn set_clock(&mut self, clock: Option<&yomi_core::Clock>) {
        self.inner.set_clock(clock);
    }

    /// The inner agent's (a blunder plays another of its moves, found the same way).
    fn last_move_kind(&self) -> Option<&'static str> {
        self.inner.last_move_kind()
    }
}
