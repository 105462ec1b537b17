//! `yomi.analyse(game, ...)`: Othello game review by disc loss, with the `Reviewer` of
//! `yomi-othello-search` (the same code as `yomi analyse`); `yomi.analyse_position(...)`: one
//! position's analysis with `yomi_agents::analyse_position` (the same code as the page of
//! `yomi serve` and `yomi analyse --position`).

use std::time::Duration;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_agents::{analyse_position as analyse_one, othello_analyst, AnalysedValue, Zoo};
use yomi_core::{Game, StopFlag};
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

/// A value as a dict: `kind` (`"estimate"`, `"exact"` or `"wld"`), `value` (discs, or 1/0/-1
/// for a WLD solve), `text` (as the page shows it), `depth` (of an estimate) and
/// `upper_bound`.
fn value_dict<'py>(py: Python<'py>, v: &AnalysedValue) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", v.kind.name())?;
    d.set_item("value", v.value)?;
    d.set_item("text", v.to_string())?;
    d.set_item("depth", v.depth)?;
    d.set_item("upper_bound", v.upper_bound)?;
    Ok(d)
}

/// Analyses one Othello position as the page of `yomi serve` does: `agent` (an `othello`
/// spec; its time is `time`, in seconds) values every legal move of `position` (default: the
/// start) after `moves` (a move line or list, default none), then plays the best line on.
///
/// Returns a dict: `position`, `to_move`, `analyst` (the full spec), `moves` (one dict per
/// legal move: `move`, `value` (a value dict), `loss` (the discs it gives away against the
/// best move, `None` where the values are not discs or the move's is only an upper bound) and
/// `best`), `best`, `line`, `value` (the position's, a value dict, or `None`), `notes`.
/// A value dict has `kind` (`"estimate"`, `"exact"`, `"wld"`), `value`, `text`, `depth`,
/// `upper_bound`.
///
/// Releases the GIL while it works. Raises `ValueError` for a bad position, move or spec.
#[pyfunction]
#[pyo3(signature = (position = None, moves = None, time = 1.0, agent = "othello:probcut=off,root=all"))]
fn analyse_position<'py>(
    py: Python<'py>,
    position: Option<&Bound<'py, PyAny>>,
    moves: Option<&Bound<'py, PyAny>>,
    time: f64,
    agent: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let mut pos = match position {
        None => Othello::new(),
        Some(p) => Othello::extract(p)?,
    };
    if let Some(moves) = moves {
        let text = match moves.extract::<String>() {
            Ok(text) => text,
            Err(_) => moves.extract::<Vec<String>>()?.join(" "),
        };
        let line: MoveSequence = text.parse().map_err(value_error)?;
        pos = line.play_from(&pos).map_err(value_error)?;
    }
    if !(time.is_finite() && time > 0.0 && time <= 1e6) {
        return Err(value_error(format!(
            "time must be above 0 seconds, not {time}"
        )));
    }
    let zoo = Othello::zoo();
    let analyst =
        othello_analyst(&zoo, agent, Duration::from_secs_f64(time)).map_err(value_error)?;
    let a = py
        .detach(|| {
            analyse_one(
                &zoo,
                &analyst,
                &pos,
                Duration::from_secs_f64(time),
                &StopFlag::new(),
            )
        })
        .map_err(value_error)?;
    let out = PyDict::new(py);
    out.set_item("position", pos.to_string())?;
    out.set_item("to_move", Othello::PLAYER_NAMES[pos.side_to_move().index()])?;
    out.set_item("analyst", &analyst.spec)?;
    let list = PyList::empty(py);
    for (mv, v) in &a.moves {
        let d = PyDict::new(py);
        d.set_item("move", mv.to_string())?;
        d.set_item("value", value_dict(py, v)?)?;
        d.set_item("loss", a.loss(*mv))?;
        d.set_item("best", a.best.contains(mv))?;
        list.append(d)?;
    }
    out.set_item("moves", list)?;
    let names = |ms: &[yomi_othello::Move]| ms.iter().map(ToString::to_string).collect::<Vec<_>>();
    out.set_item("best", names(&a.best))?;
    out.set_item("line", names(&a.line))?;
    match &a.value {
        Some(v) => out.set_item("value", value_dict(py, v)?)?,
        None => out.set_item("value", py.None())?,
    }
    out.set_item("notes", &a.notes)?;
    Ok(out)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analyse, m)?)?;
    m.add_function(wrap_pyfunction!(analyse_position, m)?)?;
    Ok(())
}
