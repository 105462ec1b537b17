//! `yomi.solve(position, mode=..., threads=..., time=...)`: the Othello endgame solver of
//! `yomi-endgame`, with the GIL released while it searches.

use std::thread;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use yomi_core::StopFlag;
use yomi_endgame::{Mode, Solution, Solver, SolverConfig};
use yomi_othello::Othello;

use crate::games::PyGame;
use crate::value_error;
use crate::wait::run_interruptible;

/// Every core the machine offers.
fn all_cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// The solution as a dict: `score`, `mode`, `best`, `pv`, `nodes`, `seconds`, `stopped`,
/// `lower`, `upper`.
fn solution_dict<'py>(py: Python<'py>, s: &Solution) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("score", s.score)?;
    d.set_item("mode", s.mode.to_string())?;
    d.set_item("best", s.best.map(|m| m.to_string()))?;
    let pv: Vec<String> = s.pv.iter().map(ToString::to_string).collect();
    d.set_item("pv", pv)?;
    d.set_item("nodes", s.nodes)?;
    d.set_item("seconds", s.elapsed.as_secs_f64())?;
    d.set_item("stopped", None::<&str>)?;
    d.set_item("lower", s.score)?;
    d.set_item("upper", s.score)?;
    Ok(d)
}

/// Solves an Othello position: `position` is a `yomi.Othello` or its notation (64 squares
/// `X`, `O`, `-` then the side to move).
///
/// `mode` is `"exact"` (the final disc difference with the empties to the winner, from the
/// side to move) or `"wld"` (1 win, 0 draw, -1 loss). `threads` defaults to every core;
/// the score never depends on it. `hash_mb` is the transposition table's size.
///
/// Returns a dict: `score`, `mode`, `best` (the best move, `None` when the game is over),
/// `pv` (a principal variation), `nodes`, `seconds`, `stopped` (`None` for a finished solve)
/// and `lower`/`upper` (the proved bounds; both equal `score` for a finished solve).
///
/// Releases the GIL while it searches; Ctrl-C stops it and raises `KeyboardInterrupt`.
/// Raises `ValueError` for bad notation, a bad mode or settings out of range.
#[pyfunction]
#[pyo3(signature = (position, mode = "exact", threads = None, hash_mb = 64))]
fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    mode: &str,
    threads: Option<usize>,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = Othello::extract(position)?;
    let mode: Mode = mode.parse().map_err(value_error)?;
    let config = SolverConfig {
        threads: threads.unwrap_or_else(all_cores),
        hash_mb,
        ..SolverConfig::default()
    };
    let flag = StopFlag::new();
    let solution = run_interruptible(py, &flag, || {
        Solver::new(config).map(|mut solver| solver.solve(&pos, mode))
    })?
    .map_err(value_error)?;
    solution_dict(py, &solution)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}
