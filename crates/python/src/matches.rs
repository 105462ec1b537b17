//! `yomi.play_match` and `yomi.league`: the match harness of `yomi-arena`, with the numbers
//! of `yomi match --json` and `yomi league --csv` for the same seed (openings, SPRT, pair
//! counts and Elo included).

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use serde::Serialize;
use yomi_agents::Registry;
use yomi_arena::{
    run_match, EloEstimate, MatchConfig, MatchError, MatchResult, NoObserver, OpeningOrder,
    Openings, RunOptions, Scores, Sprt, Tally,
};
use yomi_core::Game;

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

/// Where the games of a match start, as the CLI's `--start`, `--openings` and
/// `--openings-order` give it.
struct Starts<'a, 'py> {
    start: Option<&'a Bound<'py, PyAny>>,
    openings: Option<PathBuf>,
    order: &'a str,
}

impl Starts<'_, '_> {
    /// The openings of a match with master seed `seed`: the file's (each line a position in
    /// the game's notation or a line of moves from the start, as the CLI reads it), or every
    /// game from the start position.
    fn openings<G: PyGame>(&self, seed: u64) -> PyResult<Openings<G>> {
        let order: OpeningOrder = self.order.parse().map_err(value_error)?;
        let Some(path) = &self.openings else {
            if order != OpeningOrder::Sequential {
                return Err(value_error("openings_order needs openings"));
            }
            let start = match self.start {
                Some(obj) => G::extract(obj)?,
                None => G::default(),
            };
            if start.is_over() {
                return Err(value_error(format!(
                    "the start position {start} is already finished"
                )));
            }
            return Ok(Openings::single(start));
        };
        if self.start.is_some() {
            return Err(value_error("start and openings cannot be used together"));
        }
        let text = std::fs::read_to_string(path).map_err(|e| {
            PyOSError::new_err(format!("cannot read the openings {}: {e}", path.display()))
        })?;
        let set = Openings::parse(&path.display().to_string(), &text, |line| {
            line.parse::<G>()
                .map_err(|e| e.to_string())
                .or_else(|_| G::default().play_moves(line))
        })
        .map_err(value_error)?;
        Ok(set.with_order(order, seed))
    }
}

/// Plays `a` against `b` with fresh agents from `zoo` for every game. Both specs must have
/// built once already.
fn run_specs<G: Game>(
    zoo: &Registry<G>,
    config: &MatchConfig,
    options: &RunOptions<G>,
    (a, b): (&str, &str),
) -> Result<MatchResult, MatchError> {
    run_match(
        config,
        options,
        || zoo.build(a).expect("spec checked before the match"),
        || zoo.build(b).expect("spec checked before the match"),
        &mut NoObserver,
    )
}

/// A value of the harness as Python data, through its serde form: the CLI's JSON text, read
/// by Python's `json` module (so keys keep the CLI's order and numbers their exact value).
fn py_serde<'py>(py: Python<'py>, x: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(x).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// An Elo estimate with the fields of the CLI's JSON, where an infinite Elo (a sweep) stays
/// `inf` (the CLI's JSON writes `null`).
fn elo_dict<'py>(py: Python<'py>, e: &EloEstimate) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("model", py_serde(py, &e.model)?)?;
    d.set_item("n", e.n)?;
    d.set_item("score", e.score)?;
    d.set_item("elo", e.elo)?;
    d.set_item("low", e.low)?;
    d.set_item("high", e.high)?;
    d.set_item("error", e.error)?;
    d.set_item("los", e.los)?;
    d.set_item("nelo", e.nelo)?;
    Ok(d)
}

/// Win, loss and draw ratios of a tally with their 95% Wilson intervals.
fn ratio_row<'py>(py: Python<'py>, t: &Tally) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, ratio) in ["win", "lose", "draw"].into_iter().zip(t.ratios()) {
        d.set_item(name, py_serde(py, &ratio)?)?;
    }
    Ok(d)
}

/// The match as `yomi match --json` prints it (same keys, same order), plus `time`.
fn result_dict<'py>(py: Python<'py>, r: &MatchResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let total = r.total();
    d.set_item("game", &r.game)?;
    d.set_item("agent_a", &r.agent_a)?;
    d.set_item("agent_b", &r.agent_b)?;
    d.set_item("rounds", r.rounds)?;
    d.set_item("seed", r.seed)?;
    d.set_item("openings", py_serde(py, &r.openings)?)?;
    d.set_item("complete", r.complete)?;
    d.set_item("end", py_serde(py, &r.end)?)?;
    d.set_item("a_first", py_serde(py, &r.a_first)?)?;
    d.set_item("a_second", py_serde(py, &r.a_second)?)?;
    d.set_item("total", py_serde(py, &total)?)?;
    let ratios = PyList::empty(py);
    for t in [&r.a_first, &r.a_second, &total] {
        ratios.append(ratio_row(py, t)?)?;
    }
    d.set_item("ratios", ratios)?;
    d.set_item("pairs", r.pairs.0.to_vec())?;
    let elo = PyDict::new(py);
    elo.set_item(
        "pentanomial",
        elo_dict(py, &EloEstimate::of(&Scores::pentanomial(&r.pairs)))?,
    )?;
    elo.set_item(
        "trinomial",
        elo_dict(py, &EloEstimate::of(&Scores::trinomial(&total)))?,
    )?;
    d.set_item("elo", elo)?;
    d.set_item("sprt", py_serde(py, &r.sprt)?)?;
    // The CLI leaves the key out when no game was forfeited; here it is always a list (only
    // an external engine forfeits, and the Python zoo has none).
    let forfeits = PyList::empty(py);
    for f in &r.forfeits {
        let fd = PyDict::new(py);
        fd.set_item("game", f.game)?;
        fd.set_item("agent", py_serde(py, &f.agent)?)?;
        fd.set_item("reason", &f.reason)?;
        forfeits.append(fd)?;
    }
    d.set_item("forfeits", forfeits)?;
    let time = PyList::empty(py);
    for t in &r.time {
        time.append(py_serde(py, t)?)?;
    }
    d.set_item("time", time)?;
    Ok(d)
}

/// Runs `work` (the games of a match or league) without the GIL, Ctrl-C setting the stop
/// flag of `options`: the harness then ends with the games finished so far and the interrupt
/// is raised as `KeyboardInterrupt`.
fn run_stoppable<G: Game, T: Send>(
    py: Python<'_>,
    options: &RunOptions<G>,
    work: impl FnOnce() -> Result<T, MatchError> + Send,
) -> PyResult<T> {
    run_interruptible(py, &options.stop, work)?.map_err(match_error)
}

fn match_of<'py, G: PyGame>(
    py: Python<'py>,
    (a, b): (&str, &str),
    starts: &Starts<'_, 'py>,
    sprt: Option<&str>,
    config: MatchConfig,
) -> PyResult<Bound<'py, PyDict>> {
    let zoo = G::zoo();
    // Build both agents once so that a bad spec fails before any game.
    zoo.build(a).map_err(value_error)?;
    zoo.build(b).map_err(value_error)?;
    let mut options = RunOptions::new(starts.openings::<G>(config.seed)?);
    options.sprt = sprt
        .map(str::parse::<Sprt>)
        .transpose()
        .map_err(value_error)?;
    let result = run_stoppable(py, &options, || run_specs(&zoo, &config, &options, (a, b)))?;
    result_dict(py, &result)
}

/// Plays `rounds` rounds of agent `a` against agent `b` (each round one game with `a`
/// first and one with `b` first), game `i` drawing from the stream `(seed, i)`: the numbers
/// of `yomi match A B --rounds R --seed S` (with `--start`, `--openings`,
/// `--openings-order`, `--sprt` as given) whatever `threads` (default: every core).
/// `start` is a start position (object or notation; default the standard start);
/// `openings` an openings file (one position or line of moves per line) whose openings the
/// rounds take in `openings_order` (`"sequential"` or `"random"`, shuffled by the seed);
/// `sprt` a sequential test `"elo0=0,elo1=5,alpha=0.05,beta=0.05"` that ends the match when
/// it decides.
///
/// Returns a dict with the keys of `yomi match --json`, in its order and with its values:
/// `game`, `agent_a`, `agent_b` (full specs), `rounds`, `seed`, `openings` (`name`,
/// `count`, `order`, `digest`), `complete`, `end` (`complete`, `sprt`, `interrupted`),
/// `a_first`, `a_second`, `total` (each `win`, `lose`, `draw` from `a`'s side), `ratios` (a
/// list for a-first, a-second, total, each `win`, `lose`, `draw` with `value`, `low`,
/// `high`: 95% Wilson intervals), `pairs` (the rounds in which `a` scored 0, 0.5, 1, 1.5, 2
/// points), `elo` (`pentanomial` and `trinomial` estimates: `model`, `n`, `score`, `elo`,
/// `low`, `high`, `error`, `los`, `nelo`; an infinite Elo is `inf` where the CLI writes
/// `null`), `sprt` (`None` without a test) and `forfeits` (games lost by forfeit: `game`,
/// `agent` `"a"` or `"b"`, `reason`; always a list here, left out by the CLI when empty);
/// then `time` (wall-clock thinking time of `a` and `b`: `moves`, `seconds`, and for a game
/// with phases `phases`, a list by phase of `phase`, `moves`, `seconds` and the agent's
/// `kinds` of move, each with `moves` and `first`), which the CLI prints on standard error
/// instead.
///
/// Releases the GIL; Ctrl-C stops it and raises `KeyboardInterrupt`. Raises `ValueError`
/// for a bad spec, game or setting, `OSError` for an openings file that cannot be read.
#[pyfunction]
#[pyo3(signature = (a = "random", b = "random", game = "tictactoe", rounds = 10_000, seed = 1, threads = None, start = None, openings = None, openings_order = "sequential", sprt = None))]
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
    openings: Option<PathBuf>,
    openings_order: &str,
    sprt: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let config = config(rounds, seed, threads);
    let starts = Starts {
        start,
        openings,
        order: openings_order,
    };
    with_game!(game, G => match_of::<G>(py, (a, b), &starts, sprt, config))
}

/// One league row: the columns of `yomi league --csv`, at full precision.
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
    for (i, count) in r.pairs.0.iter().enumerate() {
        d.set_item(format!("pairs_{i}"), count)?;
    }
    let e = EloEstimate::of(&Scores::pentanomial(&r.pairs));
    d.set_item("elo", e.elo)?;
    d.set_item("elo_low", e.low)?;
    d.set_item("elo_high", e.high)?;
    d.set_item("los", e.los)?;
    Ok(d)
}

fn league_of<'py, G: PyGame>(
    py: Python<'py>,
    agents: Option<Vec<String>>,
    baseline: &str,
    starts: &Starts<'_, 'py>,
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
    let options = RunOptions::new(starts.openings::<G>(config.seed)?);
    let results = run_stoppable(py, &options, || {
        agents
            .iter()
            .map(|a| run_specs(&zoo, &config, &options, (a, baseline)))
            .collect::<Result<Vec<_>, _>>()
    })?;
    let rows = PyList::empty(py);
    for (a, r) in agents.iter().zip(&results) {
        rows.append(row_dict(py, a, r)?)?;
    }
    Ok(rows)
}

/// Plays every agent of `agents` (specs; default: every agent of the game's zoo that
/// builds from its bare name, as `yomi league`) against `baseline`, `rounds` rounds each,
/// from the openings of the file `openings` in `openings_order` if given (as `yomi league
/// --openings`).
///
/// Returns a list of records (one dict per agent, ready for `pandas.DataFrame`) with the
/// columns of `yomi league --csv`, in its order and at full precision: `agent`, `spec`, then
/// for each group `first`, `second`, `total` (the agent moving first, second, and in all)
/// the counts `{group}_win`, `{group}_lose`, `{group}_draw` from the agent's side, then for
/// each of them `{group}_win_ratio`, `{group}_win_low`, `{group}_win_high`, ... (ratios with
/// 95% Wilson intervals); then `pairs_0` to `pairs_4` (the rounds in which the agent scored
/// 0, 0.5, 1, 1.5, 2 points) and the pentanomial Elo against the baseline: `elo`,
/// `elo_low`, `elo_high` (95% interval; `inf` for a sweep) and `los`. Same seed, same
/// numbers as the CLI.
#[pyfunction]
#[pyo3(signature = (agents = None, baseline = "random", game = "tictactoe", rounds = 10_000, seed = 1, threads = None, openings = None, openings_order = "sequential"))]
#[allow(clippy::too_many_arguments)]
fn league<'py>(
    py: Python<'py>,
    agents: Option<Vec<String>>,
    baseline: &str,
    game: &str,
    rounds: u64,
    seed: u64,
    threads: Option<usize>,
    openings: Option<PathBuf>,
    openings_order: &str,
) -> PyResult<Bound<'py, PyList>> {
    let config = config(rounds, seed, threads);
    let starts = Starts {
        start: None,
        openings,
        order: openings_order,
    };
    with_game!(game, G => league_of::<G>(py, agents, baseline, &starts, config))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(play_match, m)?)?;
    m.add_function(wrap_pyfunction!(league, m)?)?;
    Ok(())
}
