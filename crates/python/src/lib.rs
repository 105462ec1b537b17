//! The Python module `yomi` (imported as `yomi._yomi` and re-exported by `yomi/__init__.py`):
//! yomi's games, agents, exact game trees, Othello endgame solver and matches, for Python and
//! notebooks.
//!
//! A thin layer: every behaviour lives in the library crates; this crate only converts between
//! Python objects and theirs.
//! - Positions are immutable classes ([`games`]) that take and print the game's notation;
//!   moves are strings in the game's move notation.
//! - Errors: bad input (notation, moves, agent specs, settings) raises `ValueError` with the
//!   library's message; a file that cannot be read raises `OSError`; `TypeError` for an
//!   argument of the wrong kind.
//! - Long computations (building a tree, a choice, a solve, a match) release the GIL;
//!   matches and leagues also stop on Ctrl-C ([`wait`]).
//!
//! The type stubs are `python/yomi/_yomi.pyi`; the tests are `tests/` (pytest).

use std::fmt::Display;
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use yomi_core::{Limits, NodeCount, Seconds};

mod agents;
mod book;
mod games;
mod matches;
mod review;
mod solve;
mod tree;
mod wait;

/// A `ValueError` carrying the library's message.
pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Limits from Python's `time=` (seconds) and `nodes=` arguments, `None` meaning no limit;
/// the values are checked as the CLI's `--time` and `--nodes` are.
pub(crate) fn limits(time: Option<f64>, nodes: Option<u64>) -> PyResult<Limits> {
    let mut limits = Limits::none();
    if let Some(t) = time {
        let Seconds(d) = t.to_string().parse::<Seconds>().map_err(value_error)?;
        limits = limits.with_time(d.max(Duration::from_nanos(1)));
    }
    if let Some(n) = nodes {
        let NodeCount(n) = n.to_string().parse::<NodeCount>().map_err(value_error)?;
        limits = limits.with_nodes(n);
    }
    Ok(limits)
}

/// `text` as a Python string literal in single quotes, for `__repr__`.
pub(crate) fn py_quote(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The games the functions take, by name: [`yomi_agents::known_games`], the list the CLI's
/// `--game` and the web page offer.
pub(crate) fn game_names() -> Vec<&'static str> {
    yomi_agents::known_games()
        .iter()
        .map(|g| g.name())
        .collect()
}

/// The game a `game=` argument names; an unknown name is a `ValueError` listing the known
/// ones.
pub(crate) fn game_kind(name: &str) -> PyResult<yomi_agents::GameKind> {
    name.parse().map_err(value_error)
}

/// Runs `$body` with `$G` naming the game type that `$name` (a `&str`) names, through
/// [`yomi_agents::with_game!`]; an unknown name is a `ValueError` listing the known ones.
macro_rules! with_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $crate::game_kind($name) {
            Ok(kind) => yomi_agents::with_game!(kind, $G => $body),
            Err(e) => Err(e),
        }
    };
}
pub(crate) use with_game;

/// The names of the games yomi plays, in the order of the CLI's `--game`: the `game=`
/// arguments every function takes.
#[pyfunction(name = "games")]
fn list_games() -> Vec<&'static str> {
    game_names()
}

/// Two-player board-game AI: games, agents, exact trees, the Othello solver and matches.
#[pymodule]
#[pyo3(name = "_yomi")]
fn yomi_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(list_games, m)?)?;
    games::register(m)?;
    agents::register(m)?;
    tree::register(m)?;
    solve::register(m)?;
    matches::register(m)?;
    review::register(m)?;
    book::register(m)?;
    Ok(())
}
