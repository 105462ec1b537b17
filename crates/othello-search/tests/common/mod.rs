//! What the solver's test files share.
// Each test file uses its own subset of these.
#![allow(dead_code)]

use yomi_othello::cpu::Cpu;
use yomi_othello::ObfPosition;
use yomi_othello_search::{FfoSuite, Solver, SolverConfig};

/// A solver with `threads` threads, a 16 MiB table and the compiled copy `cpu`.
pub fn solver(threads: usize, cpu: Cpu) -> Solver {
    Solver::new(SolverConfig {
        threads,
        hash_mb: 16,
        cpu,
        ..SolverConfig::default()
    })
    .expect("valid config")
}

/// The positions of an FFO file of the suite (`data/ffo/`), loaded through [`FfoSuite`].
pub fn ffo(file: &str) -> Vec<ObfPosition> {
    let suite = FfoSuite::load().expect("the built-in FFO suite");
    suite.file(file).unwrap_or_else(|e| panic!("{e}")).to_vec()
}
