//! The solver's own evaluation: the weights its selective passes and its guess at the score
//! read, kept apart from the agents' evaluation.
//!
//! The selective passes (ProbCut cuts from 20 empties on) and the guess (a short midgame
//! search) order and steer an exact solve; they never change its score, but they change its
//! node count. They read the solver's own weight file, `data/solver.weights` of this crate,
//! built in: a frozen copy of the learned evaluation's round-2 weights (the built-in agent
//! weights when the solver got its own file). A new set of agent weights
//! ([`Weights::builtin`], `othello:weights=FILE`) therefore moves no solver node; a new solver
//! file is a solver change, measured on the FFO suite like any other (see `docs/solver.md`).
//!
//! The move ordering below the passes does not read any weight file: fastest first, parity,
//! and from `SHALLOW_MIN` empties a shallow search over a hand-made mobility, potential
//! mobility and corner count (see `ordering.rs`).

use std::sync::{Arc, OnceLock};

use crate::Weights;

/// The solver's weight file (the checked weight container of `yomi-othello-eval`).
const SOLVER_WEIGHTS: &[u8] = include_bytes!("../../data/solver.weights");

/// The solver's own evaluation weights (see the module's documentation), decoded once and
/// shared. They evaluate with the compiled copy [`Cpu::detect`](yomi_othello::cpu::Cpu::detect)
/// picks; both copies give the same values.
///
/// # Panics
/// Never for a build whose committed file checks out (a test decodes it).
#[must_use]
pub fn solver_weights() -> Arc<Weights> {
    static WEIGHTS: OnceLock<Arc<Weights>> = OnceLock::new();
    WEIGHTS
        .get_or_init(|| {
            Arc::new(Weights::decode(SOLVER_WEIGHTS).expect("othello-search data/solver.weights"))
        })
        .clone()
}

/// The bytes of the solver's weight file, as built in.
#[must_use]
pub fn solver_weights_file() -> &'static [u8] {
    SOLVER_WEIGHTS
}
