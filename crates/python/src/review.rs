//! `yomi.analyse(game, ...)`: Othello game review by disc loss, with the `Reviewer` of
//! `yomi-othello-search` (the same code as `yomi analyse`).

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_core::Game;
use yomi_othello::{MoveSequence, Othello};
use yomi_othello_search::{ReviewConfig, Reviewer, Weights};

use crate::games::PyGame;
use crate::value_error;

/// Reviews an Othello game by disc loss: `game` is a move line from `start` (default: the
/// standard start), as text (`"f5 d6 c3"`, `"f5d6c3"`, `"1. f5 d6 2. c3"`, `"f5-d6-c3"`) or a
/// list of moves (`["f5", "d6"]`).
///
/// Each move is valued by a midgame search to `depth` plies (every legal move with a full
/// window, no ProbCut) while more than `exact` squares are empty, solved for win/loss/draw at
/// `wld` empties or fewer (default: the same as `exact`, no such stage), and exactly at
/// `exact` or fewer. `time` caps each midgame position in seconds (the values then depend on
/// the machine). `threads` is each solve's thread count (the values never depend on it).
///
/// Returns one dict per move, ready for `pandas.DataFrame`: `number` (from 1, passes count),
/// `player` (`"black"` or `"white"`), `empties`, `move`, `value` (the move's value for its
/// player: discs, or 1/0/-1 for a WLD solve), `best`, `best_value`, `loss` (`best_value -
/// value`, never negative), `kind` (`"estimate"`, `"wld"` or `"exact"`), `depth` (of an
/// estimate), `forced` (the only legal move: no loss) and `decisive` (the loser's last move
/// after which it could still have drawn or won, where the values are exact).
///
/// Releases the GIL while it works. Raises `ValueError` for a bad or illegal move (naming its
/// number) and settings out of range.
#[pyfunction]
#[pyo3(signature = (game, start = None, depth = 10, exact = 18, wld = None, time = None, threads = 1, hash_mb = 64))]
#[allow(clippy::too_many_arguments)]
fn analyse<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    start: Option<&Bound<'py, PyAny>>,
    depth: u32,
    exact: u32,
    wld: Option<u32>,
    time: Option<f64>,
    threads: usize,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyList>> {
    let text = match game.extract::<String>() {
        Ok(text) => text,
        Err(_) => game.extract::<Vec<String>>()?.join(" "),
    };
    let line: MoveSequence = text.parse().map_err(value_error)?;
    let start = match start {
        None => Othello::new(),
        Some(s) => Othello::extract(s)?,
    };
    let time = match time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(value_error(format!(
                "time must be above 0 seconds, not {t}"
            )))
        }
    };
    let config = ReviewConfig {
        depth,
        time,
        exact,
        wld: wld.unwrap_or(exact),
        threads,
        hash_mb,
    };
    let review = py
        .detach(|| {
            let mut reviewer = Reviewer::new(config, Weights::builtin())?;
            reviewer.review(&start, &line.0)
        })
        .map_err(value_error)?;
    let list = PyList::empty(py);
    for (k, m) in review.moves.iter().enumerate() {
        let d = PyDict::new(py);
        d.set_item("number", m.number)?;
        d.set_item("player", Othello::PLAYER_NAMES[m.player.index()])?;
        d.set_item("empties", m.empties)?;
        d.set_item("move", m.played.to_string())?;
        d.set_item("value", m.played_value)?;
        d.set_item("best", m.best.to_string())?;
        d.set_item("best_value", m.best_value)?;
        d.set_item("loss", m.loss)?;
        d.set_item("kind", m.kind.name())?;
        d.set_item("depth", m.kind.depth())?;
        d.set_item("forced", m.forced)?;
        d.set_item("decisive", review.decisive == Some(k))?;
        list.append(d)?;
    }
    Ok(list)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    Ok(())
}
