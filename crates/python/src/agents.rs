//! `yomi.agent(spec, game=...)`: an agent of the zoo, built from a spec string, that chooses
//! and explains moves; `yomi.agents(game)` lists the zoo.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use yomi_agents::Zoo;
use yomi_core::{Agent, AgentError, Explanation, Game, Rng};
use yomi_nim::Nim;
use yomi_othello::{Othello, Othello4, Othello6};
use yomi_tictactoe::TicTacToe;

use crate::games::PyGame;
use crate::{limits, py_quote, value_error, with_game};

/// A built agent of one game. The lock is only taken with the GIL released, so a Python
/// thread waiting for an agent another thread is using never blocks the interpreter.
#[derive(Debug)]
pub(crate) enum AnyAgent {
    TicTacToe(Mutex<Box<dyn Agent<TicTacToe>>>),
    Nim(Mutex<Box<dyn Agent<Nim>>>),
    Othello(Mutex<Box<dyn Agent<Othello>>>),
    Othello4(Mutex<Box<dyn Agent<Othello4>>>),
    Othello6(Mutex<Box<dyn Agent<Othello6>>>),
}

/// Runs `$body` with `$a` bound to the `Mutex<Box<dyn Agent<G>>>` of the agent's game.
macro_rules! with_agent {
    ($any:expr, $a:ident => $body:expr) => {
        match $any {
            AnyAgent::TicTacToe($a) => $body,
            AnyAgent::Nim($a) => $body,
            AnyAgent::Othello($a) => $body,
            AnyAgent::Othello4($a) => $body,
            AnyAgent::Othello6($a) => $body,
        }
    };
}

/// The game of a boxed agent, for building an [`AnyAgent`] generically.
pub(crate) trait AgentGame: PyGame {
    fn wrap(agent: Box<dyn Agent<Self>>) -> AnyAgent;
}

impl AgentGame for TicTacToe {
    fn wrap(agent: Box<dyn Agent<TicTacToe>>) -> AnyAgent {
        AnyAgent::TicTacToe(Mutex::new(agent))
    }
}

impl AgentGame for Nim {
    fn wrap(agent: Box<dyn Agent<Nim>>) -> AnyAgent {
        AnyAgent::Nim(Mutex::new(agent))
    }
}

impl AgentGame for Othello {
    fn wrap(agent: Box<dyn Agent<Othello>>) -> AnyAgent {
        AnyAgent::Othello(Mutex::new(agent))
    }
}

impl AgentGame for Othello4 {
    fn wrap(agent: Box<dyn Agent<Othello4>>) -> AnyAgent {
        AnyAgent::Othello4(Mutex::new(agent))
    }
}

impl AgentGame for Othello6 {
    fn wrap(agent: Box<dyn Agent<Othello6>>) -> AnyAgent {
        AnyAgent::Othello6(Mutex::new(agent))
    }
}

/// An agent of yomi's zoo (build one with `yomi.agent(spec, game=...)`).
///
/// `choose` and `explain` draw every random number from a generator seeded with `seed`, so
/// the same position and seed give the same move (and the same explanation as
/// `yomi explain --seed`). Both release the GIL while the agent thinks.
#[pyclass(module = "yomi", name = "Agent", frozen)]
#[derive(Debug)]
pub(crate) struct PyAgent {
    game: &'static str,
    spec: String,
    inner: AnyAgent,
}

fn agent_error(e: AgentError) -> PyErr {
    value_error(e)
}

fn choose_with<'py, G: PyGame>(
    py: Python<'py>,
    agent: &Mutex<Box<dyn Agent<G>>>,
    position: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<Bound<'py, PyString>> {
    let pos = G::extract(position)?;
    let mv = py.detach(|| {
        let mut agent = agent.lock().unwrap_or_else(PoisonError::into_inner);
        agent.choose(&pos, &mut Rng::seed_from_u64(seed))
    });
    Ok(G::move_name(py, mv.map_err(agent_error)?))
}

fn explain_with<'py, G: PyGame>(
    py: Python<'py>,
    agent: &Mutex<Box<dyn Agent<G>>>,
    position: &Bound<'py, PyAny>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = G::extract(position)?;
    let why = py.detach(|| {
        let mut agent = agent.lock().unwrap_or_else(PoisonError::into_inner);
        agent.explain(&pos, &mut Rng::seed_from_u64(seed))
    });
    explanation_dict(py, &why.map_err(agent_error)?)
}

/// `{"agent", "moves": [{"move", "score", "parts": {label: value}, "note"}], "best",
/// "chosen", "notes"}`: the fields of `yomi explain --json`.
fn explanation_dict<'py, M: std::fmt::Display>(
    py: Python<'py>,
    why: &Explanation<M>,
) -> PyResult<Bound<'py, PyDict>> {
    let moves = PyList::empty(py);
    for m in &why.moves {
        let parts = PyDict::new(py);
        for p in &m.parts {
            parts.set_item(&p.label, p.value)?;
        }
        let d = PyDict::new(py);
        d.set_item("move", m.mv.to_string())?;
        d.set_item("score", m.score)?;
        d.set_item("parts", parts)?;
        d.set_item("note", m.note.as_deref())?;
        moves.append(d)?;
    }
    let d = PyDict::new(py);
    d.set_item("agent", &why.agent)?;
    d.set_item("moves", moves)?;
    let best: Vec<String> = why.best.iter().map(ToString::to_string).collect();
    d.set_item("best", best)?;
    d.set_item("chosen", why.chosen.to_string())?;
    d.set_item("notes", &why.notes)?;
    Ok(d)
}

/// Builds agent `spec` of game `G` as an [`AnyAgent`], with its full spec.
fn build<G: AgentGame>(spec: &str) -> PyResult<(AnyAgent, String)> {
    let agent = G::zoo().build(spec).map_err(value_error)?;
    let full = agent.spec();
    Ok((G::wrap(agent), full))
}

#[pymethods]
impl PyAgent {
    /// The agent's full spec: every parameter spelled out.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The game the agent plays.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    fn __repr__(&self) -> String {
        format!(
            "Agent({}, game={})",
            py_quote(&self.spec),
            py_quote(self.game)
        )
    }

    /// The move the agent plays in `position` (a position of its game or its notation),
    /// in move notation.
    ///
    /// Raises `ValueError` for a finished game or bad notation, `TypeError` for a position
    /// of another game.
    #[pyo3(signature = (position, seed = 1))]
    fn choose<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyString>> {
        with_agent!(&self.inner, a => choose_with(py, a, position, seed))
    }

    /// Why the agent plays its move: a dict with `agent` (its spec), `moves` (for each legal
    /// move: `move`, `score`, `parts` (a dict of the numbers the score is made of) and
    /// `note`), `best` (the moves it considers best), `chosen` and `notes`. `chosen` is what
    /// `choose` returns with the same seed.
    #[pyo3(signature = (position, seed = 1))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        with_agent!(&self.inner, a => explain_with(py, a, position, seed))
    }

    /// Limits each following choice: `time` in seconds and `nodes` searched (agents that
    /// search obey them and return the best move found; instant agents ignore them).
    /// `None` removes a limit.
    #[pyo3(signature = (time = None, nodes = None))]
    fn set_limits(&self, py: Python<'_>, time: Option<f64>, nodes: Option<u64>) -> PyResult<()> {
        let limits = limits(time, nodes)?;
        with_agent!(&self.inner, a => py.detach(|| {
            a.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .set_limits(&limits)
        }));
        Ok(())
    }
}

/// An agent of the zoo of `game` built from `spec`, such as `"pmc2:pnum=1000,alpha=0.5"` or
/// `"blunder:p=0.1,agent=(perfect)"`.
///
/// Raises `ValueError` (the library's message, listing the valid names or parameters) for a
/// bad spec or game.
#[pyfunction]
#[pyo3(signature = (spec, game = "tictactoe"))]
fn agent(spec: &str, game: &str) -> PyResult<PyAgent> {
    let (inner, full, game) =
        with_game!(game, G => build::<G>(spec).map(|(a, s)| (a, s, <G as Game>::NAME)))?;
    Ok(PyAgent {
        game,
        spec: full,
        inner,
    })
}

fn infos<G: Zoo>(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let list = PyList::empty(py);
    for info in G::zoo().infos() {
        let params = PyList::empty(py);
        for p in &info.params {
            let d = PyDict::new(py);
            d.set_item("name", p.name)?;
            d.set_item("default", p.default)?;
            d.set_item("help", p.help)?;
            params.append(d)?;
        }
        let d = PyDict::new(py);
        d.set_item("name", info.name)?;
        d.set_item("summary", info.summary)?;
        d.set_item("params", params)?;
        d.set_item("builds_bare", info.builds_bare())?;
        let levels = PyList::empty(py);
        for l in yomi_agents::agent_levels(G::NAME, info.name).unwrap_or_default() {
            let level = PyDict::new(py);
            level.set_item("level", l.level)?;
            level.set_item("depth", l.depth)?;
            level.set_item("probcut", l.probcut)?;
            level.set_item("wld", l.wld)?;
            level.set_item("exact", l.exact)?;
            levels.append(level)?;
        }
        d.set_item("levels", levels)?;
        list.append(d)?;
    }
    Ok(list)
}

/// The agents of `game`'s zoo, as `yomi agents` lists them: dicts with `name`, `summary`,
/// `params` (each `name`, `default`, `help`), `builds_bare` (whether the bare name builds,
/// every parameter having a default) and `levels`: the strength levels `name:level=N` picks
/// (each `level`, `depth`, `probcut` (a threshold or `None`), `wld`, `exact`; the `othello`
/// agent of 8x8 Othello has them), empty for other agents.
#[pyfunction]
#[pyo3(signature = (game = "tictactoe"))]
fn agents<'py>(py: Python<'py>, game: &str) -> PyResult<Bound<'py, PyList>> {
    with_game!(game, G => infos::<G>(py))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAgent>()?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    m.add_function(wrap_pyfunction!(agents, m)?)?;
    Ok(())
}
