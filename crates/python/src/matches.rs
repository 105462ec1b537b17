//! `yomi.play_match` and `yomi.league`: the match harness of `yomi-arena`, with the numbers
//! of `yomi match --json` and `yomi league --csv` for the same seed.

use std::ops::ControlFlow;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_agents::Registry;
use yomi_arena::{play_match as arena_match, MatchConfig, MatchError, MatchResult, Ratio, Tally};
use yomi_core::{Game, StopFlag};

use crate::games::PyGame;
use crate::wait::run_interruptible;
use crate::{value_error, with_game};

/// A match error as a Python exception: `ValueError` for bad settings, `RuntimeError` when
/// an agent fails or cheats during the match.
fn match_error(e: MatchError) -> PyErr {
    match e {
        MatchError::BadConfig(_) => value_error(e),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

fn config(rounds: u64, seed: u64, threads: Option<usize>) -> MatchConfig {
    MatchConfig {
        rounds,
        seed,
        threads,
    }
}

/// Plays `a` against `b` with fresh agents from `zoo` for every game; stops when `flag` is
/// set. Both specs must have built once already.
fn run_match<G: Game>(
    zoo: &Registry<G>,
    start: &G,
    config: &MatchConfig,
    (a, b): (&str, &str),
    flag: &StopFlag,
) -> Result<MatchResult, MatchError> {
    arena_match(
        start,
        config,
        || zoo.build(a).expect("spec checked before the match"),
        || zoo.build(b).expect("spec checked before the match"),
        |_| {
            if flag.is_set() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )
}

fn tally_dict<'py>(py: Python<'py>, t: &Tally) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("win", t.win)?;
    d.set_item("lose", t.lose)?;
    d.set_item("draw", t.draw)?;
    Ok(d)
}

fn ratio_dict<'py>(py: Python<'py>, r: &Ratio) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("value", r.value)?;
    d.set_item("low", r.low)?;
    d.set_item("high", r.high)?;
    Ok(d)
}

/// The match as `yomi match --json` prints it.
fn result_dict<'py>(py: Python<'py>, r: &MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("game", &r.game)?;
    d.set_item("agent_a", &r.agent_a)?;
    d.set_item("agent_b", &r.agent_b)?;
    d.set_item("rounds", r.rounds)?;
    d.set_item("seed", r.seed)?;
    d.set_item("complete", r.complete)?;
    d.set_item("a_first", tally_dict(py, &r.a_first)?)?;
    d.set_item("a_second", tally_dict(py, &r.a_second)?)?;
    let time = PyList::empty(py);
    for t in &r.time {
        let td = PyDict::new(py);
        td.set_item("moves", t.moves)?;
        td.set_item("seconds", t.seconds)?;
        time.append(td)?;
    }
    d.set_item("time", time)?;
    let total = r.total();
    d.set_item("total", tally_dict(py, &total)?)?;
    let ratios = PyList::empty(py);
    for t in [&r.a_first, &r.a_second, &total] {
        let row = PyDict::new(py);
        for (name, ratio) in ["win", "lose", "draw"].into_iter().zip(t.ratios()) {
            row.set_item(name, ratio_dict(py, &ratio)?)?;
        }
        ratios.append(row)?;
    }
    d.set_item("ratios", ratios)?;
    Ok(d)
}

fn match_of<'py, G: PyGame>(
    py: Python<'py>,
    (a, b): (&str, &str),
    start: Option<&Bound<'py, PyAny>>,
    config: MatchConfig,
) -> PyResult<Bound<'py, PyDict>> {
    let zoo = G::zoo();
    // Build both agents once so that a bad spec fails before any game.
    zoo.build(a).map_err(value_error)?;
    zoo.build(b).map_err(value_error)?;
    let start = match start {
        Some(obj) => G::extract(obj)?,
        None => G::default(),
    };
    let flag = StopFlag::new();
    let result = run_interruptible(py, &flag, || {
        run_match(&zoo, &start, &config, (a, b), &flag)
    })?
    .map_err(match_error)?;
    result_dict(py, &result)
}

/// Plays `rounds` rounds of agent `a` against agent `b` (each round one game with `a`
/// first and one with `b` first), game `i` drawing from the stream `(seed, i)`: the numbers
/// of `yomi match A B --rounds R --seed S` whatever `threads` (default: every core).
/// `start` is a start position (object or notation; default the standard start).
///
/// Returns a dict shaped as `yomi match --json`: `game`, `agent_a`, `agent_b` (full
/// specs), `rounds`, `seed`, `complete`, `a_first`, `a_second`, `total` (each `win`,
/// `lose`, `draw` from `a`'s side), `ratios` (a list for a-first, a-second, total, each
/// `win`, `lose`, `draw` with `value`, `low`, `high`: 95% Wilson intervals) and `time`
/// (wall-clock thinking time of `a` and `b`: `moves`, `seconds`).
///
/// Releases the GIL; Ctrl-C stops it and raises `KeyboardInterrupt`. Raises `ValueError`
/// for a bad spec, game or setting.
#[pyfunction]
#[pyo3(signature = (a = "random", b = "random", game = "tictactoe", rounds = 10_000, seed = 1, threads = None, start = None))]
#[allow(clippy::too_many_arguments)]
fn play_match<'py>(
    py: Python<'py>,
    a: &str,
    b: &str,
    game: &str,
    rounds: u64,
    seed: u64,
    threads: Option<usize>,
    start: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(rounds, seed, threads);
    with_game!(game, G => match_of::<G>(py, (a, b), start, config))
}

/// One league row: the columns of `yomi league --csv`.
fn row_dict<'py>(py: Python<'py>, agent: &str, r: &MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("agent", agent)?;
    d.set_item("spec", &r.agent_a)?;
    let total = r.total();
    for (group, t) in [
        ("first", &r.a_first),
        ("second", &r.a_second),
        ("total", &total),
    ] {
        d.set_item(format!("{group}_win"), t.win)?;
        d.set_item(format!("{group}_lose"), t.lose)?;
        d.set_item(format!("{group}_draw"), t.draw)?;
        for (k, ratio) in ["win", "lose", "draw"].into_iter().zip(t.ratios()) {
            d.set_item(format!("{group}_{k}_ratio"), ratio.value)?;
            d.set_item(format!("{group}_{k}_low"), ratio.low)?;
            d.set_item(format!("{group}_{k}_high"), ratio.high)?;
        }
    }
    Ok(d)
}

fn league_of<'py, G: PyGame>(
    py: Python<'py>,
    agents: Option<Vec<String>>,
    baseline: &str,
    config: MatchConfig,
) -> PyResult<Bound<'py, PyList>> {
    let zoo = G::zoo();
    let agents = agents.unwrap_or_else(|| {
        // As `yomi league`: every agent that builds from its bare name.
        zoo.infos()
            .filter(|i| i.builds_bare())
            .map(|i| i.name.to_string())
            .collect()
    });
    if agents.is_empty() {
        return Err(value_error("no agents to play: the list is empty"));
    }
    zoo.build(baseline).map_err(value_error)?;
    for a in &agents {
        zoo.build(a).map_err(value_error)?;
    }
    let start = G::default();
    let flag = StopFlag::new();
    let results = run_interruptible(py, &flag, || {
        agents
            .iter()
            .map(|a| run_match(&zoo, &start, &config, (a, baseline), &flag))
            .collect::<Result<Vec<_>, _>>()
    })?
    .map_err(match_error)?;
    let rows = PyList::empty(py);
    for (a, r) in agents.iter().zip(&results) {
        rows.append(row_dict(py, a, r)?)?;
    }
    Ok(rows)
}

/// Plays every agent of `agents` (specs; default: every agent of the game's zoo that
/// builds from its bare name, as `yomi league`) against `baseline`, `rounds` rounds each.
///
/// Returns a list of records (one dict per agent, ready for `pandas.DataFrame`) with the
/// columns of `yomi league --csv`: `agent`, `spec`, then for each group `first`, `second`,
/// `total` (the agent moving first, second, and in all) the counts `{group}_win`,
/// `{group}_lose`, `{group}_draw` from the agent's side, then for each of them
/// `{group}_win_ratio`, `{group}_win_low`, `{group}_win_high`, ... (ratios with 95% Wilson
/// intervals). Same seed, same numbers as the CLI.
#[pyfunction]
#[pyo3(signature = (agents = None, baseline = "random", game = "tictactoe", rounds = 10_000, seed = 1, threads = None))]
fn league<'py>(
    py: Python<'py>,
    agents: Option<Vec<String>>,
    baseline: &str,
    game: &str,
    rounds: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(rounds, seed, threads);
    with_game!(game, G => league_of::<G>(py, agents, baseline, config))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_function(wrap_pyfunction!(league, m)?)?;
    Ok(())
}
