//! The position classes `TicTacToe`, `Nim`, `Othello`, `Othello4` and `Othello6` (one per
//! game of [`yomi_agents::known_games`]): immutable values that parse and
//! print the game's notation, list and play moves (as strings in the game's move notation),
//! report the outcome, count perft, and give their symmetric images where the board has them.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use pyo3::PyClass;
use yomi_agents::Zoo;
use yomi_core::{perft, FinalScore, Game, Outcome, PlayError, Player, Rng, Symmetric};
use yomi_nim::{Nim, Take};
use yomi_othello::{Move, MoveSequence, Othello, Othello4, Othello6, Square as OthelloSquare};
use yomi_tictactoe::{Square, TicTacToe};

use crate::{py_quote, value_error};

/// What the bindings need of a game: conversion to and from its Python class.
pub(crate) trait PyGame: Zoo {
    /// The game's Python class.
    type Class: PyClass;

    /// The position held by `obj`: an instance of the game's class, or the game's notation
    /// as a `str`.
    ///
    /// # Errors
    /// `ValueError` for notation that does not parse, `TypeError` for anything else.
    fn extract(obj: &Bound<'_, PyAny>) -> PyResult<Self>;

    /// The position as an instance of its Python class.
    fn into_object(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>>;

    /// The move's notation as a Python string, from a table made once per game: formatting
    /// moves costs more than generating them, and `legal_moves` returns every name.
    fn move_name(py: Python<'_>, mv: Self::Move) -> Bound<'_, PyString>;

    /// Plays a line of moves in the game's move-list notation, each move checked.
    fn play_moves(&self, line: &str) -> Result<Self, String> {
        self.play_line(line).map_err(|e| e.to_string())
    }

    /// Standard perft leaves (a game that ends early is one leaf), by the game's fastest
    /// counter.
    fn perft_leaves(&self, depth: u32) -> u64 {
        perft(self, depth).leaves()
    }
}

/// Parses `text` as a position of `G`, with the library's message on failure.
pub(crate) fn parse_position<G: Game>(text: &str) -> PyResult<G> {
    text.parse::<G>()
        .map_err(|e| value_error(format!("bad {} position {text:?}: {e}", G::NAME)))
}

/// Parses one move of `G`, with the library's message on failure.
pub(crate) fn parse_move<G: Game>(text: &str) -> PyResult<G::Move> {
    text.trim().parse::<G::Move>().map_err(|e| {
        value_error(PlayError::BadMove {
            text: text.to_string(),
            reason: e.to_string(),
        })
    })
}

/// `"first"`, `"second"` or `"draw"`.
pub(crate) fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::First) => "first",
        Outcome::Win(Player::Second) => "second",
        Outcome::Draw => "draw",
    }
}

/// `"first"` or `"second"`.
pub(crate) fn player_name(player: Player) -> &'static str {
    match player {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn check_symmetry(sym: usize, count: usize) -> PyResult<()> {
    if sym < count {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "symmetry {sym} does not exist: expected 0 to {}",
            count - 1
        )))
    }
}

/// Defines a position class over game `$G` with the methods every game has, then `$extra`,
/// the game's own methods (`symmetric`: also the methods of boards with symmetries).
macro_rules! position_class {
    (symmetric $Class:ident, $G:ident, $name:literal, $doc:literal, $moves:expr, $index:expr, { $($extra:tt)* }) => {
        position_class!($Class, $G, $name, $doc, $moves, $index, {
            /// The image of the position under symmetry `sym` (0 is the identity; 8 in all).
            fn transform(&self, sym: usize) -> PyResult<Self> {
                check_symmetry(sym, <$G as Symmetric>::SYMMETRIES)?;
                Ok($Class(self.0.transform(sym)))
            }

            /// The images under all the symmetries, in symmetry order (repeats included).
            fn symmetries(&self) -> Vec<Self> {
                (0..<$G as Symmetric>::SYMMETRIES)
                    .map(|s| $Class(self.0.transform(s)))
                    .collect()
            }

            /// The image of `move` under symmetry `sym`.
            #[staticmethod]
            fn transform_move(r#move: &str, sym: usize) -> PyResult<String> {
                check_symmetry(sym, <$G as Symmetric>::SYMMETRIES)?;
                let mv = parse_move::<$G>(r#move)?;
                Ok(<$G as Symmetric>::transform_move(mv, sym).to_string())
            }

            /// A key shared by the position and all its images (see the game's docs for
            /// whether it is exact or a hash).
            #[getter]
            fn canonical_key(&self) -> u64 {
                self.0.canonical_key()
            }

            $($extra)*
        });
    };
    ($Class:ident, $G:ident, $name:literal, $doc:literal, $moves:expr, $index:expr, { $($extra:tt)* }) => {
        #[doc = $doc]
        #[pyclass(module = "yomi", name = $name, frozen, eq, hash)]
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub(crate) struct $Class(pub(crate) $G);

        impl PyGame for $G {
            type Class = $Class;

            fn extract(obj: &Bound<'_, PyAny>) -> PyResult<$G> {
                if let Ok(pos) = obj.cast::<$Class>() {
                    return Ok(pos.get().0.clone());
                }
                if let Ok(text) = obj.extract::<String>() {
                    return parse_position::<$G>(&text);
                }
                Err(PyTypeError::new_err(format!(
                    "expected a yomi.{} or its notation as a str, not {}",
                    $name,
                    obj.get_type().name()?
                )))
            }

            fn into_object(self, py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
                Ok(Bound::new(py, $Class(self))?.into_any())
            }

            fn move_name(py: Python<'_>, mv: <$G as Game>::Move) -> Bound<'_, PyString> {
                static NAMES: PyOnceLock<Vec<Option<Py<PyString>>>> = PyOnceLock::new();
                let index: fn(<$G as Game>::Move) -> usize = $index;
                let names = NAMES.get_or_init(py, || {
                    let all: Vec<<$G as Game>::Move> = $moves;
                    let len = all.iter().map(|&m| index(m) + 1).max().unwrap_or(0);
                    let mut names: Vec<Option<Py<PyString>>> = (0..len).map(|_| None).collect();
                    for m in all {
                        names[index(m)] = Some(PyString::new(py, &m.to_string()).unbind());
                    }
                    names
                });
                match names.get(index(mv)) {
                    Some(Some(name)) => name.bind(py).clone(),
                    _ => PyString::new(py, &mv.to_string()),
                }
            }

            game_overrides!($G);
        }

        #[pymethods]
        impl $Class {
            /// The position written in the game's notation, or the start position.
            #[new]
            #[pyo3(signature = (text = None))]
            fn new(text: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                match text {
                    None => Ok($Class(<$G>::default())),
                    Some(obj) => Ok($Class(<$G as PyGame>::extract(obj)?)),
                }
            }

            /// The game's name, as `game=` arguments take it.
            #[classattr]
            const GAME: &'static str = <$G as Game>::NAME;

            /// Display names of the first and second player.
            #[classattr]
            fn player_names() -> (&'static str, &'static str) {
                let [a, b] = <$G as Game>::PLAYER_NAMES;
                (a, b)
            }

            fn __str__(&self) -> String {
                self.0.to_string()
            }

            fn __repr__(&self) -> String {
                format!("{}({})", $name, py_quote(&self.0.to_string()))
            }

            /// `"first"` or `"second"`: whose turn it is (for a finished game, who would be
            /// next).
            #[getter]
            fn side_to_move(&self) -> &'static str {
                player_name(self.0.side_to_move())
            }

            /// `None` while the game goes on, else `"first"`, `"second"` (who won) or
            /// `"draw"`.
            #[getter]
            fn outcome(&self) -> Option<&'static str> {
                self.0.outcome().map(outcome_name)
            }

            /// Whether the game has ended.
            #[getter]
            fn is_over(&self) -> bool {
                self.0.is_over()
            }

            /// The legal moves in the game's order, in move notation (empty when the game is
            /// over).
            fn legal_moves<'py>(&self, py: Python<'py>) -> Vec<Bound<'py, PyString>> {
                self.0
                    .legal_moves()
                    .iter()
                    .map(|&m| <$G as PyGame>::move_name(py, m))
                    .collect()
            }

            /// Whether `move` is legal here.
            ///
            /// Raises `ValueError` if `move` does not parse.
            fn is_legal(&self, r#move: &str) -> PyResult<bool> {
                let mv = parse_move::<$G>(r#move)?;
                Ok(!self.0.is_over() && self.0.is_legal(mv))
            }

            /// The position after `move`.
            ///
            /// Raises `ValueError` for a move that does not parse or is not legal.
            fn play(&self, r#move: &str) -> PyResult<Self> {
                let mv = parse_move::<$G>(r#move)?;
                self.0.play(mv).map($Class).map_err(value_error)
            }

            /// The position after a line of moves (separated by spaces; Othello also takes
            /// them run together, `f5d6c3`).
            ///
            /// Raises `ValueError` naming the first move that does not parse or is illegal.
            fn play_line(&self, line: &str) -> PyResult<Self> {
                self.0.play_moves(line).map($Class).map_err(value_error)
            }

            /// `(move, position after it)` for every legal move.
            fn children<'py>(&self, py: Python<'py>) -> Vec<(Bound<'py, PyString>, Self)> {
                self.0
                    .legal_moves()
                    .iter()
                    .map(|&m| {
                        (
                            <$G as PyGame>::move_name(py, m),
                            $Class(self.0.play_unchecked(m)),
                        )
                    })
                    .collect()
            }

            /// Standard perft: the leaves of the game tree `depth` plies deep, a game that
            /// ends earlier counting as one leaf.
            fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
                let pos = self.0.clone();
                py.detach(move || pos.perft_leaves(depth))
            }

            /// `(at_depth, ended_early)`: move sequences of exactly `depth` plies, and games
            /// that ended before (tic-tac-toe's published counts 9, 72, 504, ... are
            /// `at_depth`).
            fn perft_counts(&self, py: Python<'_>, depth: u32) -> (u64, u64) {
                let pos = self.0.clone();
                let count = py.detach(move || perft(&pos, depth));
                (count.at_depth, count.ended_early)
            }

            /// The outcome of one game of uniformly random moves from here, drawn from the
            /// generator seeded with `seed` (as every random choice in yomi).
            #[pyo3(signature = (seed = 1))]
            fn random_playout(&self, seed: u64) -> &'static str {
                outcome_name(self.0.random_playout(&mut Rng::seed_from_u64(seed)))
            }

            $($extra)*
        }
    };
}

/// The game-specific parts of `PyGame` (faster perft, Othello's move sequences).
macro_rules! game_overrides {
    (TicTacToe) => {};
    (Nim) => {};
    (Othello4) => {};
    (Othello6) => {};
    (Othello) => {
        fn play_moves(&self, line: &str) -> Result<Othello, String> {
            let seq: MoveSequence = line
                .parse()
                .map_err(|e: yomi_othello::ParseMoveSequenceError| e.to_string())?;
            seq.play_from(self).map_err(|e| e.to_string())
        }

        fn perft_leaves(&self, depth: u32) -> u64 {
            yomi_othello::perft(self, depth)
        }
    };
}

position_class!(symmetric PyTicTacToe, TicTacToe, "TicTacToe",
    "A tic-tac-toe position: its 9 cells of `o`, `x` and `.` in row-major order (`\"x...o...o\"`;
`/` or spaces may separate rows). O moves first. Moves are `(x,y)`, column then row.",
    Square::ALL.to_vec(),
    Square::index, {
    /// The three rows and the state of the game, e.g. `"x..\n.o.\n..o\nTurn x"`.
    fn pretty(&self) -> String {
        self.0.pretty()
    }
});

position_class!(
    PyNim,
    Nim,
    "Nim",
    "A position of the stone game: `STONES:SIDE` (`\"15:first\"`; a bare number means the first
player to move). Each turn takes 1, 2 or 3 stones; taking the last one wins. Moves are `1`,
`2`, `3`.",
    (1..=yomi_nim::MAX_TAKE).filter_map(Take::new).collect(),
    |t: Take| usize::from(t.count()),
    {
        /// Stones left.
        #[getter]
        fn stones(&self) -> u32 {
            self.0.stones()
        }
    }
);

/// Defines the position class of an Othello board size: the methods every game has, the
/// symmetries, and the board's own (pretty, discs, final score, canonical image).
macro_rules! othello_class {
    ($Class:ident, $G:ident, $name:literal, $doc:literal) => {
        position_class!(symmetric $Class, $G, $name, $doc,
            Move::all(),
            |m: Move| m.square().map_or(OthelloSquare::NUM, OthelloSquare::index), {
            /// The board as rows with coordinates, and whose turn it is.
            fn pretty(&self) -> String {
                self.0.pretty()
            }

            /// The number of empty squares.
            #[getter]
            fn empties(&self) -> u32 {
                self.0.empties().count()
            }

            /// `(black, white)` disc counts.
            #[getter]
            fn disc_counts(&self) -> (u32, u32) {
                let [b, w] = self.0.disc_counts();
                (b, w)
            }

            /// Black's final disc difference with the empty squares given to the winner (the
            /// FFO convention), or `None` while the game goes on.
            #[getter]
            fn final_score(&self) -> Option<i32> {
                self.0.final_score()
            }

            /// The exact canonical image: the same for a position and all its images.
            fn canonical(&self) -> Self {
                $Class(self.0.canonical())
            }
        });
    };
}

othello_class!(
    PyOthello,
    Othello,
    "Othello",
    "An Othello position: 64 squares a1, b1, ..., h8 of `X` (black), `O` (white) and `-`, white
space, then the side to move (`X` or `O`). Black moves first. Moves are squares (`d3`) or
`PA`, the pass of a player without a move."
);

othello_class!(
    PyOthello4,
    Othello4,
    "Othello4",
    "Othello on a 4x4 board: 16 squares a1, b1, ..., d4 of `X` (black), `O` (white) and `-`,
white space, then the side to move (`X` or `O`); or `diagonal` / `parallel` for the two
starts (the default is `-----OX--XO----- X`). Moves are squares (`b1`) or `PA`."
);

othello_class!(
    PyOthello6,
    Othello6,
    "Othello6",
    "Othello on a 6x6 board: 36 squares a1, b1, ..., f6 of `X` (black), `O` (white) and `-`,
white space, then the side to move (`X` or `O`); or `diagonal` / `parallel` for the two
starts. Moves are squares (`c2`) or `PA`."
);

/// The module's position classes: one per game of [`yomi_agents::known_games`], so a game
/// the list gains without a class here does not compile.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    for &kind in yomi_agents::known_games() {
        yomi_agents::with_game!(kind, G => m.add_class::<<G as PyGame>::Class>())?;
    }
    Ok(())
}
