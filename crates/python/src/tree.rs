//! `yomi.Tree`: the exact game tree of `yomi-tree` (every distinct position, minimax values,
//! best moves, exact random-playout probabilities as `fractions.Fraction`, and numpy arrays
//! over all positions).

use std::path::PathBuf;
use std::sync::Arc;

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyOSError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use yomi_core::{ContainerError, Game, Player, Symmetric};
use yomi_nim::Nim;
use yomi_othello::{Othello, Othello4, Othello6};
use yomi_tictactoe::TicTacToe;
use yomi_tree::{
    audit, audit_symmetric, AuditReport, FileError, Graph, PlayoutRule, Ratio, Scoring, Solution,
    TreeError, DEFAULT_MAX_POSITIONS,
};

use crate::games::{outcome_name, PyGame};
use crate::{py_quote, value_error, with_game};

/// The tic-tac-toe tree file shipped in the repository (`data/tictactoe.tree`), built into
/// the module so that `Tree.bundled()` never reads the current directory.
const TICTACTOE_TREE: &[u8] = include_bytes!("../../../data/tictactoe.tree");
/// The 15-stone game's tree file (`data/nim15.tree`).
const NIM15_TREE: &[u8] = include_bytes!("../../../data/nim15.tree");

/// A tree error as a Python exception: `OSError` when a file cannot be read, `ValueError`
/// otherwise, with the library's message.
fn tree_error(e: TreeError) -> PyErr {
    match e {
        TreeError::File(FileError::Container(ContainerError::Io { .. })) => {
            PyOSError::new_err(e.to_string())
        }
        e => value_error(e),
    }
}

/// A `fractions.Fraction`.
fn fraction<'py>(py: Python<'py>, r: Ratio) -> PyResult<Bound<'py, PyAny>> {
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((r.numer(), r.denom()))
}

/// What a tree needs of its game beyond [`PyGame`]: symmetries where the board has them.
pub(crate) trait TreeGame: PyGame {
    /// The tree's distinct positions up to symmetry, `None` for games without symmetries.
    fn canonical_count(graph: &Graph<Self>) -> Option<usize>;

    /// The audit, skipping symmetric images when `symmetric` (games without symmetries audit
    /// every position).
    fn audit(
        sol: &Solution<Self>,
        rule: PlayoutRule,
        scoring: Scoring,
        symmetric: bool,
    ) -> Result<AuditReport<Self>, TreeError>;

    /// The repository's tree file of the game's standard start, if one ships.
    fn bundled() -> Option<&'static [u8]>;
}

fn audit_maybe_symmetric<G: Symmetric>(
    sol: &Solution<G>,
    rule: PlayoutRule,
    scoring: Scoring,
    symmetric: bool,
) -> Result<AuditReport<G>, TreeError> {
    if symmetric {
        audit_symmetric(sol, rule, scoring)
    } else {
        audit(sol, rule, scoring)
    }
}

impl TreeGame for TicTacToe {
    fn canonical_count(graph: &Graph<TicTacToe>) -> Option<usize> {
        Some(graph.canonical_count())
    }

    fn audit(
        sol: &Solution<TicTacToe>,
        rule: PlayoutRule,
        scoring: Scoring,
        symmetric: bool,
    ) -> Result<AuditReport<TicTacToe>, TreeError> {
        audit_maybe_symmetric(sol, rule, scoring, symmetric)
    }

    fn bundled() -> Option<&'static [u8]> {
        Some(TICTACTOE_TREE)
    }
}

/// The tree of an Othello board size: symmetric, no tree file ships.
macro_rules! othello_tree_game {
    ($($G:ident),*) => {$(
        impl TreeGame for $G {
            fn canonical_count(graph: &Graph<$G>) -> Option<usize> {
                Some(graph.canonical_count())
            }

            fn audit(
                sol: &Solution<$G>,
                rule: PlayoutRule,
                scoring: Scoring,
                symmetric: bool,
            ) -> Result<AuditReport<$G>, TreeError> {
                audit_maybe_symmetric(sol, rule, scoring, symmetric)
            }

            fn bundled() -> Option<&'static [u8]> {
                None
            }
        }
    )*};
}

othello_tree_game!(Othello, Othello4, Othello6);

impl TreeGame for Nim {
    fn canonical_count(_: &Graph<Nim>) -> Option<usize> {
        None
    }

    fn audit(
        sol: &Solution<Nim>,
        rule: PlayoutRule,
        scoring: Scoring,
        _symmetric: bool,
    ) -> Result<AuditReport<Nim>, TreeError> {
        audit(sol, rule, scoring)
    }

    fn bundled() -> Option<&'static [u8]> {
        Some(NIM15_TREE)
    }
}

/// A solved tree of one game.
#[derive(Debug, Clone)]
enum AnyTree {
    TicTacToe(Arc<Solution<TicTacToe>>),
    Nim(Arc<Solution<Nim>>),
    Othello(Arc<Solution<Othello>>),
    Othello4(Arc<Solution<Othello4>>),
    Othello6(Arc<Solution<Othello6>>),
}

/// Runs `$body` with `$s` bound to the `Arc<Solution<G>>` of the tree's game.
macro_rules! with_tree {
    ($any:expr, $s:ident => $body:expr) => {
        match $any {
            AnyTree::TicTacToe($s) => $body,
            AnyTree::Nim($s) => $body,
            AnyTree::Othello($s) => $body,
            AnyTree::Othello4($s) => $body,
            AnyTree::Othello6($s) => $body,
        }
    };
}

trait Wrap: TreeGame {
    fn wrap(sol: Solution<Self>) -> AnyTree;
}

impl Wrap for TicTacToe {
    fn wrap(sol: Solution<TicTacToe>) -> AnyTree {
        AnyTree::TicTacToe(Arc::new(sol))
    }
}

impl Wrap for Nim {
    fn wrap(sol: Solution<Nim>) -> AnyTree {
        AnyTree::Nim(Arc::new(sol))
    }
}

impl Wrap for Othello {
    fn wrap(sol: Solution<Othello>) -> AnyTree {
        AnyTree::Othello(Arc::new(sol))
    }
}

impl Wrap for Othello4 {
    fn wrap(sol: Solution<Othello4>) -> AnyTree {
        AnyTree::Othello4(Arc::new(sol))
    }
}

impl Wrap for Othello6 {
    fn wrap(sol: Solution<Othello6>) -> AnyTree {
        AnyTree::Othello6(Arc::new(sol))
    }
}

/// The exact game tree of a small game: every distinct position reachable from a start
/// (transpositions merged), each with its minimax values, best moves and the exact
/// probabilities of each outcome under uniformly random play.
///
/// `Tree("tictactoe")` builds it (about a millisecond for tic-tac-toe's 5 478 positions);
/// `Tree.load(path)` reads a tree file (`yomi tree build` writes them); `Tree.bundled()`
/// decodes the file shipped inside the module. Positions are passed as position objects or
/// their notation; a position outside the tree raises `ValueError`.
#[pyclass(module = "yomi", name = "Tree", frozen)]
#[derive(Debug)]
pub(crate) struct PyTree {
    inner: AnyTree,
}

fn id_in<G: PyGame>(sol: &Solution<G>, position: &Bound<'_, PyAny>) -> PyResult<usize> {
    let pos = G::extract(position)?;
    sol.id_of(&pos).ok_or_else(|| {
        tree_error(TreeError::NotInTree {
            position: pos.to_string(),
        })
    })
}

fn check_id<G: Game>(sol: &Solution<G>, id: usize) -> PyResult<()> {
    if id < sol.graph().len() {
        Ok(())
    } else {
        Err(PyIndexError::new_err(format!(
            "position id {id} out of range: the tree has {} positions",
            sol.graph().len()
        )))
    }
}

fn probabilities<'py, G: Game>(
    py: Python<'py>,
    sol: &Solution<G>,
    id: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let p = sol.probs(id);
    let d = PyDict::new(py);
    d.set_item("first", fraction(py, p.first())?)?;
    d.set_item("draw", fraction(py, p.draw())?)?;
    d.set_item("second", fraction(py, p.second())?)?;
    Ok(d)
}

fn sv_fraction<'py, G: Game>(
    py: Python<'py>,
    sol: &Solution<G>,
    id: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let twice = sol.sv(id).twice;
    py.import("fractions")?
        .getattr("Fraction")?
        .call1((twice, 2))
}

fn counts<'py, G: Game>(py: Python<'py>, sol: &Solution<G>) -> PyResult<Bound<'py, PyDict>> {
    let c = sol.graph().full_tree_counts().map_err(tree_error)?;
    let d = PyDict::new(py);
    d.set_item("per_depth", &c.per_depth)?;
    d.set_item("total", c.total)?;
    let t = PyDict::new(py);
    t.set_item("first", c.terminal[0])?;
    t.set_item("draw", c.terminal[1])?;
    t.set_item("second", c.terminal[2])?;
    d.set_item("terminal", t)?;
    Ok(d)
}

/// Arrays over all positions, in id order.
fn arrays<'py, G: Game>(py: Python<'py>, sol: &Solution<G>) -> PyResult<Bound<'py, PyDict>> {
    let graph = sol.graph();
    let n = graph.len();
    let ids = 0..n;
    let d = PyDict::new(py);
    let depth: Vec<u32> = ids.clone().map(|i| graph.depth(i)).collect();
    let mover: Vec<i8> = ids
        .clone()
        .map(|i| graph.position(i).side_to_move().sign() as i8)
        .collect();
    let moves: Vec<u32> = ids.clone().map(|i| graph.moves(i).len() as u32).collect();
    let finished: Vec<bool> = ids.clone().map(|i| graph.outcome(i).is_some()).collect();
    let outcome: Vec<i8> = ids
        .clone()
        .map(|i| {
            graph
                .outcome(i)
                .map_or(0, |o| o.value_for(Player::First) as i8)
        })
        .collect();
    let value: Vec<i8> = ids.clone().map(|i| sol.plain(i)).collect();
    let sv: Vec<f64> = ids.clone().map(|i| sol.sv(i).to_f64()).collect();
    let probs: Vec<_> = ids.map(|i| sol.probs(i)).collect();
    let column = |f: fn(&yomi_tree::Probs) -> Ratio| -> Vec<f64> {
        probs.iter().map(|p| f(p).to_f64()).collect()
    };
    d.set_item("depth", PyArray1::from_vec(py, depth))?;
    d.set_item("mover", PyArray1::from_vec(py, mover))?;
    d.set_item("moves", PyArray1::from_vec(py, moves))?;
    d.set_item("finished", PyArray1::from_vec(py, finished))?;
    d.set_item("outcome", PyArray1::from_vec(py, outcome))?;
    d.set_item("value", PyArray1::from_vec(py, value))?;
    d.set_item("sv", PyArray1::from_vec(py, sv))?;
    d.set_item("p_first", PyArray1::from_vec(py, column(|p| p.first())))?;
    d.set_item("p_draw", PyArray1::from_vec(py, column(|p| p.draw())))?;
    d.set_item("p_second", PyArray1::from_vec(py, column(|p| p.second())))?;
    Ok(d)
}

fn audit_records<'py, G: TreeGame>(
    py: Python<'py>,
    sol: &Solution<G>,
    rule: &str,
    scoring: &str,
    symmetric: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let rule: PlayoutRule = rule.parse().map_err(value_error)?;
    let scoring: Scoring = scoring.parse().map_err(value_error)?;
    let report = py
        .detach(|| G::audit(sol, rule, scoring, symmetric))
        .map_err(tree_error)?;
    let findings = PyList::empty(py);
    let names = |ms: &[G::Move]| -> Vec<String> { ms.iter().map(ToString::to_string).collect() };
    for f in &report.findings {
        let d = PyDict::new(py);
        d.set_item("id", f.id)?;
        d.set_item("position", f.position.clone().into_object(py)?)?;
        d.set_item("rank", f.rank)?;
        d.set_item("rule_moves", names(&f.rule_moves))?;
        d.set_item("best_moves", names(&f.best_moves))?;
        findings.append(d)?;
    }
    let d = PyDict::new(py);
    d.set_item("rule", report.rule.to_string())?;
    d.set_item("scoring", report.scoring.to_string())?;
    d.set_item("checked", report.checked)?;
    d.set_item("findings", findings)?;
    Ok(d)
}

fn build_tree<G: Wrap>(
    py: Python<'_>,
    start: Option<&Bound<'_, PyAny>>,
    max_positions: usize,
) -> PyResult<AnyTree> {
    let start = match start {
        Some(obj) => G::extract(obj)?,
        None => G::default(),
    };
    let sol = py
        .detach(|| Solution::solve(Graph::build_with_limit(start, max_positions)?))
        .map_err(tree_error)?;
    Ok(G::wrap(sol))
}

fn load_tree<G: Wrap>(py: Python<'_>, path: PathBuf) -> PyResult<AnyTree> {
    let sol = py
        .detach(|| yomi_tree::read_file::<G>(&path))
        .map_err(|e| tree_error(e.into()))?;
    Ok(G::wrap(sol))
}

fn bundled_tree<G: Wrap>() -> PyResult<AnyTree> {
    let bytes = G::bundled().ok_or_else(|| {
        value_error(format!(
            "no tree file of {} ships with yomi: build one with Tree({:?}, start=...)",
            G::NAME,
            G::NAME
        ))
    })?;
    let sol = yomi_tree::decode::<G>(bytes).map_err(|e| tree_error(e.into()))?;
    Ok(G::wrap(sol))
}

#[pymethods]
impl PyTree {
    /// Builds the tree of `game` from `start` (default: the standard start), with at most
    /// `max_positions` distinct positions (default 5 000 000; `ValueError` beyond), releasing
    /// the GIL.
    #[new]
    #[pyo3(signature = (game = "tictactoe", start = None, max_positions = None))]
    fn new(
        py: Python<'_>,
        game: &str,
        start: Option<&Bound<'_, PyAny>>,
        max_positions: Option<usize>,
    ) -> PyResult<PyTree> {
        let max_positions = max_positions.unwrap_or(DEFAULT_MAX_POSITIONS);
        let inner = with_game!(game, G => build_tree::<G>(py, start, max_positions))?;
        Ok(PyTree { inner })
    }

    /// Reads a tree file (as written by `yomi tree build` or `Tree.save`) of `game`.
    ///
    /// Raises `OSError` if it cannot be read, `ValueError` if it is not a valid tree file of
    /// the game.
    #[staticmethod]
    #[pyo3(signature = (path, game = "tictactoe"))]
    fn load(py: Python<'_>, path: PathBuf, game: &str) -> PyResult<PyTree> {
        let inner = with_game!(game, G => load_tree::<G>(py, path))?;
        Ok(PyTree { inner })
    }

    /// The tree file shipped with yomi for `game` (`tictactoe` or `nim`, from the standard
    /// start), built into the module: it never reads the current directory.
    #[staticmethod]
    #[pyo3(signature = (game = "tictactoe"))]
    fn bundled(game: &str) -> PyResult<PyTree> {
        let inner = with_game!(game, G => bundled_tree::<G>())?;
        Ok(PyTree { inner })
    }

    /// Writes the tree to a file in yomi's tree format (`docs/formats.md`).
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        with_tree!(&self.inner, s => py
            .detach(|| yomi_tree::write_file(s, &path))
            .map_err(|e| tree_error(e.into())))
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        with_tree!(&self.inner, s => name_of(&**s))
    }

    fn __repr__(&self) -> String {
        with_tree!(&self.inner, s => format!(
            "Tree({}, start={}, positions={})",
            py_quote(name_of(&**s)),
            py_quote(&s.graph().start().to_string()),
            s.graph().len()
        ))
    }

    /// The number of distinct positions.
    fn __len__(&self) -> usize {
        with_tree!(&self.inner, s => s.graph().len())
    }

    /// Whether a position (object or notation) is in the tree.
    fn __contains__(&self, position: &Bound<'_, PyAny>) -> PyResult<bool> {
        with_tree!(&self.inner, s => position_in(&**s, position))
    }

    /// Iterates over the positions in id order (breadth first from the start).
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list = with_tree!(&self.inner, s => all_positions(py, &**s))?;
        Ok(list.try_iter()?.into_any())
    }

    /// The start position.
    #[getter]
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        with_tree!(&self.inner, s => (*s.graph().start()).into_object(py))
    }

    /// The position with id `id` (ids are breadth-first discovery order, 0 the start).
    fn position<'py>(&self, py: Python<'py>, id: usize) -> PyResult<Bound<'py, PyAny>> {
        with_tree!(&self.inner, s => {
            check_id(&**s, id)?;
            (*s.graph().position(id)).into_object(py)
        })
    }

    /// The id of a position, or `None` when it is not in the tree.
    fn id_of(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        with_tree!(&self.inner, s => id_or_none(&**s, position))
    }

    /// The fewest plies from the start to the position.
    fn depth(&self, position: &Bound<'_, PyAny>) -> PyResult<u32> {
        with_tree!(&self.inner, s => Ok(s.graph().depth(id_in(&**s, position)?)))
    }

    /// The length in plies of the longest game from the start.
    #[getter]
    fn longest_game(&self) -> u32 {
        with_tree!(&self.inner, s => s.longest_game())
    }

    /// The plain minimax value from the first player's side: 1 (first wins), 0 (draw) or
    /// -1 (second wins) with perfect play.
    fn value(&self, position: &Bound<'_, PyAny>) -> PyResult<i8> {
        with_tree!(&self.inner, s => Ok(s.plain(id_in(&**s, position)?)))
    }

    /// The exact shortest-victory value from the first player's side, as a `Fraction`
    /// (faster wins score higher; `docs/formats.md`).
    fn sv<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        with_tree!(&self.inner, s => sv_fraction(py, &**s, id_in(&**s, position)?))
    }

    /// The exact probabilities that the first player wins, the game is drawn and the second
    /// player wins when both play uniformly random moves: a dict of `Fraction`s with keys
    /// `first`, `draw`, `second`.
    fn probabilities<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        with_tree!(&self.inner, s => probabilities(py, &**s, id_in(&**s, position)?))
    }

    /// The minimax best moves under `scoring` (`"plain"` or `"sv"`, shortest victory), in
    /// move order (empty for a finished game).
    #[pyo3(signature = (position, scoring = "plain"))]
    fn best_moves(&self, position: &Bound<'_, PyAny>, scoring: &str) -> PyResult<Vec<String>> {
        let scoring: Scoring = scoring.parse().map_err(value_error)?;
        with_tree!(&self.inner, s => {
            let id = id_in(&**s, position)?;
            Ok(s.best_moves(id, scoring).iter().map(ToString::to_string).collect())
        })
    }

    /// The outcome of a finished position (`"first"`, `"second"`, `"draw"`), else `None`.
    fn outcome(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
        with_tree!(&self.inner, s => {
            let id = id_in(&**s, position)?;
            Ok(s.graph().outcome(id).map(outcome_name))
        })
    }

    /// The counts of the full game tree (every move sequence, not merged): `per_depth`
    /// (a list), `total`, and `terminal` (finished games by outcome: `first`, `draw`,
    /// `second`).
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        with_tree!(&self.inner, s => counts(py, &**s))
    }

    /// The number of positions up to the board's symmetries (`None` for the stone game,
    /// which has none).
    fn canonical_count(&self) -> Option<usize> {
        with_tree!(&self.inner, s => canonical_count(&**s))
    }

    /// numpy arrays over all positions, in id order, as a dict: `depth` (uint32), `mover`
    /// (int8: 1 first player, -1 second), `moves` (uint32, legal moves), `finished` (bool),
    /// `outcome` (int8 from the first player's side, 0 while unfinished), `value` (int8,
    /// plain minimax), `sv` (float64), `p_first`, `p_draw`, `p_second` (float64, the exact
    /// probabilities rounded to nearest). `pandas.DataFrame(tree.to_numpy())` makes a table.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        with_tree!(&self.inner, s => arrays(py, &**s))
    }

    /// Where a Monte Carlo rule with infinitely many playouts (`"pmc"`, `"pmc2"`,
    /// `"pmc2:alpha=1/3"`) plays a move that is not a minimax best move under `scoring`,
    /// walking the full tree breadth first and checking each distinct position once (each
    /// up to symmetry when `symmetric`). A dict: `rule`, `scoring`, `checked`, `findings`
    /// (each `id`, `position`, `rank`, `rule_moves`, `best_moves`), as `yomi tree audit`.
    #[pyo3(signature = (rule = "pmc2", scoring = "plain", symmetric = true))]
    fn audit<'py>(
        &self,
        py: Python<'py>,
        rule: &str,
        scoring: &str,
        symmetric: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        with_tree!(&self.inner, s => audit_records(py, &**s, rule, scoring, symmetric))
    }
}

fn name_of<G: Game>(_: &Solution<G>) -> &'static str {
    G::NAME
}

fn position_in<G: PyGame>(sol: &Solution<G>, position: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(sol.id_of(&G::extract(position)?).is_some())
}

fn id_or_none<G: PyGame>(
    sol: &Solution<G>,
    position: &Bound<'_, PyAny>,
) -> PyResult<Option<usize>> {
    Ok(sol.id_of(&G::extract(position)?))
}

fn all_positions<'py, G: PyGame>(
    py: Python<'py>,
    sol: &Solution<G>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for pos in sol.graph().positions() {
        list.append(pos.clone().into_object(py)?)?;
    }
    Ok(list)
}

fn canonical_count<G: TreeGame>(sol: &Solution<G>) -> Option<usize> {
    G::canonical_count(sol.graph())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTree>()?;
    Ok(())
}
