use yomi_core::{Agent, AgentError, Explanation, Game, MoveScore, Rng};

use crate::{AgentInfo, Registry};

/// Plays a uniformly random legal move (`random`; the study's `ai2`).
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn spec(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        let moves = state.legal_moves();
        rng.choose(&moves).copied().ok_or(AgentError::GameOver)
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        let scored = moves
            .iter()
            .map(|&m| MoveScore::new(m, 0.0).with_note("any legal move"))
            .collect();
        // Every move ties, so the pick is the same draw as `choose` makes.
        Ok(Explanation::from_scores(
            <Self as Agent<G>>::spec(self),
            scored,
            |best| best[rng.below(best.len())],
        ))
    }
}

/// Plays the first legal move in the game's natural order (`first`; the study's `ai1`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstAgent;

impl<G: Game> Agent<G> for FirstAgent {
    fn spec(&self) -> String {
        "first".to_string()
    }

    fn choose(&mut self, state: &G, _rng: &mut Rng) -> Result<G::Move, AgentError> {
        state
            .legal_moves()
            .first()
            .copied()
            .ok_or(AgentError::GameOver)
    }

    fn explain(&mut self, state: &G, _rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        let scored = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| MoveScore::new(m, -(i as f64)).with_part("order", i as f64))
            .collect();
        Ok(Explanation::from_scores(
            <Self as Agent<G>>::spec(self),
            scored,
            |best| best[0],
        ))
    }
}

/// Adds the agents that play every game (`random`, `first`) to a registry.
pub fn register_generic<G: Game>(registry: &mut Registry<G>) {
    registry.register(
        AgentInfo {
            name: "random",
            summary: "a uniformly random legal move",
            params: vec![],
        },
        |_| Ok(Box::new(RandomAgent)),
    );
    registry.register(
        AgentInfo {
            name: "first",
            summary: "the first legal move in the game's order",
            params: vec![],
        },
        |_| Ok(Box::new(FirstAgent)),
    );
}
