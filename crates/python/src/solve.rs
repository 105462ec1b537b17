//! `yomi.solve(position, mode=..., threads=...)` and `yomi.Solver`: the Othello endgame
//! solver of `yomi-othello-search`, with the GIL released while it searches.

use std::sync::{Mutex, PoisonError};
use std::thread;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_core::{StopFlag, StopReason};
use yomi_othello::Othello;
use yomi_othello_search::{Mode, Solution, Solver, SolverConfig};

use crate::games::PyGame;
use crate::value_error;
use crate::wait::run_interruptible;

/// Every core the machine offers.
fn all_cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

fn new_solver(threads: Option<usize>, hash_mb: usize) -> PyResult<Solver> {
    Solver::new(SolverConfig {
        threads: threads.unwrap_or_else(all_cores),
        hash_mb,
        ..SolverConfig::default()
    })
    .map_err(value_error)
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
    let stopped = s.stopped.map(|r| match r {
        StopReason::Time => "time",
        StopReason::Nodes => "nodes",
        StopReason::Interrupted => "interrupted",
    });
    d.set_item("stopped", stopped)?;
    d.set_item("lower", s.lower)?;
    d.set_item("upper", s.upper)?;
    Ok(d)
}

/// Solves `position` with `solver` under the limits (`time` in seconds, `nodes`), waiting
/// without the GIL; Ctrl-C sets the solve's stop flag and raises `KeyboardInterrupt`.
#[allow(clippy::too_many_arguments)]
fn solve_with<'py>(
    py: Python<'py>,
    solver: &Mutex<Solver>,
    position: &Bound<'py, PyAny>,
    mode: &str,
    time: Option<f64>,
    nodes: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = Othello::extract(position)?;
    let mode: Mode = mode.parse().map_err(value_error)?;
    let flag = StopFlag::new();
    let limits = crate::limits(time, nodes)?.with_flag(flag.clone());
    let solution = run_interruptible(py, &flag, || {
        let mut solver = solver.lock().unwrap_or_else(PoisonError::into_inner);
        solver.solve_limited(&pos, mode, &limits)
    })?;
    solution_dict(py, &solution)
}

/// An Othello endgame solver that keeps its transposition table between solves, so solving
/// related positions (the moves of one game, the children of a position) gets faster.
///
/// `threads` defaults to every core (the score never depends on it); `hash_mb` is the
/// table's size in MiB (1 to 16384). Raises `ValueError` for settings out of range.
#[pyclass(module = "yomi", name = "Solver", frozen)]
#[derive(Debug)]
pub(crate) struct PySolver {
    solver: Mutex<Solver>,
}

#[pymethods]
impl PySolver {
    #[new]
    #[pyo3(signature = (threads = None, hash_mb = 64))]
    fn new(threads: Option<usize>, hash_mb: usize) -> PyResult<PySolver> {
        Ok(PySolver {
            solver: Mutex::new(new_solver(threads, hash_mb)?),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let config = py.detach(|| {
            *self
                .solver
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .config()
        });
        format!(
            "Solver(threads={}, hash_mb={})",
            config.threads, config.hash_mb
        )
    }

    /// Solves a position, as `yomi.solve` does, with this solver's table.
    #[pyo3(signature = (position, mode = "exact", time = None, nodes = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        mode: &str,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        solve_with(py, &self.solver, position, mode, time, nodes)
    }

    /// The solved value of every legal move, in the order of `legal_moves()`: dicts with
    /// `move`, `score` (for the side to move: exact, or 1/0/-1 in `"wld"` mode) and `nodes`.
    /// A lone `PA` when the mover must pass; empty when the game is over.
    #[pyo3(signature = (position, mode = "exact"))]
    fn move_values<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        mode: &str,
    ) -> PyResult<Bound<'py, PyList>> {
        let pos = Othello::extract(position)?;
        let mode: Mode = mode.parse().map_err(value_error)?;
        let flag = StopFlag::new();
        let values = run_interruptible(py, &flag, || {
            let mut solver = self.solver.lock().unwrap_or_else(PoisonError::into_inner);
            solver.move_values(&pos, mode)
        })?;
        let list = PyList::empty(py);
        for v in values {
            let d = PyDict::new(py);
            d.set_item("move", Othello::move_name(py, v.mv))?;
            d.set_item("score", v.score)?;
            d.set_item("nodes", v.nodes)?;
            list.append(d)?;
        }
        Ok(list)
    }

    /// Forgets what earlier solves stored in the table.
    fn clear(&self, py: Python<'_>) {
        py.detach(|| {
            self.solver
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
        });
    }
}

/// Solves an Othello position: `position` is a `yomi.Othello` or its notation (64 squares
/// `X`, `O`, `-` then the side to move).
///
/// `mode` is `"exact"` (the final disc difference with the empties to the winner, from the
/// side to move) or `"wld"` (1 win, 0 draw, -1 loss). `threads` defaults to every core;
/// the score never depends on it. `hash_mb` is the transposition table's size (a fresh
/// table each call; `yomi.Solver` keeps one between solves).
///
/// Returns a dict: `score`, `mode`, `best` (the best move, `None` when the game is over),
/// `pv` (a principal variation), `nodes`, `seconds`, `stopped` (`None` for a finished solve)
/// and `lower`/`upper` (the proved bounds; both equal `score` for a finished solve).
///
/// `time` (seconds) and `nodes` limit the solve: a solve they stop returns the bounds it
/// proved (`stopped` is then `"time"` or `"nodes"`, `score` the lower bound, `best` the best
/// move known), as `yomi solve --time` does.
///
/// Releases the GIL while it searches; Ctrl-C stops the solve and raises
/// `KeyboardInterrupt`. Raises `ValueError` for bad notation, a bad mode, a limit that is not
/// positive or settings out of range.
#[pyfunction]
#[pyo3(signature = (position, mode = "exact", threads = None, hash_mb = 64, time = None, nodes = None))]
#[allow(clippy::too_many_arguments)]
fn solve<'py>(
    py: Python<'py>,
    position: &Bound<'py, PyAny>,
    mode: &str,
    threads: Option<usize>,
    hash_mb: usize,
    time: Option<f64>,
    nodes: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let solver = Mutex::new(new_solver(threads, hash_mb)?);
    solve_with(py, &solver, position, mode, time, nodes)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySolver>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    Ok(())
}
