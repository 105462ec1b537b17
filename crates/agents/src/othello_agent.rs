//! `othello`: the Othello playing agent of `yomi-othello-search`: a midgame search with the
//! learned (or the hand-made) evaluation, then a win/loss/draw solve and an exact solve near the
//! end.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use yomi_core::{Agent, AgentError, Clock, Explanation, Limits, MoveScore, Rng};
use yomi_othello::{Move, Othello};
use yomi_othello_search::{
    weights_digest, Book, Evaluator, HandEval, MidgameSearch, Mode, RootValues, Solver,
    SolverConfig, WeightError, Weights, EVAL_LIMIT, EXACT_DEPTH, FINAL_SCALE, PROBCUT_LEARNED,
    PROBCUT_THRESHOLD, WLD_DEPTH,
};

use crate::analysis::{BOOK, EXACT_SOLVE, SEARCH_EXACT, UPPER_BOUND, WLD_SOLVE};
use crate::common::{explain_best, moves_of, time_text};
use crate::othello_levels::{OthelloLevel, MAX_LEVEL};
use crate::{AgentInfo, ParamInfo, Registry};

/// The longest time limit accepted, in seconds.
const MAX_SECONDS: f64 = 1e6;

/// The largest table accepted, in MiB.
const MAX_HASH_MB: u64 = 4096;

/// The evaluation of the midgame search: written `learned` or `hand`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OthelloEval {
    /// The learned pattern evaluation of `yomi-othello-eval` (its built-in weights), in
    /// hundredths of a disc.
    #[default]
    Learned,
    /// The hand-made evaluation ([`yomi_othello_search::hand_evaluate`]), in about hundredths
    /// of a disc.
    Hand,
}

/// An evaluation name that is neither `learned` nor `hand`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown evaluation {0:?}: learned or hand")]
pub struct ParseEvalError(pub String);

impl fmt::Display for OthelloEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OthelloEval::Learned => "learned",
            OthelloEval::Hand => "hand",
        })
    }
}

impl FromStr for OthelloEval {
    type Err = ParseEvalError;

    fn from_str(s: &str) -> Result<OthelloEval, ParseEvalError> {
        match s {
            "learned" => Ok(OthelloEval::Learned),
            "hand" => Ok(OthelloEval::Hand),
            _ => Err(ParseEvalError(s.to_string())),
        }
    }
}

impl OthelloEval {
    /// The evaluator (for `Learned`, the built-in weights).
    #[must_use]
    pub fn evaluator(self) -> Arc<dyn Evaluator> {
        match self {
            OthelloEval::Learned => Weights::builtin(),
            OthelloEval::Hand => Arc::new(HandEval),
        }
    }
}

/// How an [`OthelloAgent`] picks its moves.
#[derive(Clone, Debug, PartialEq)]
pub struct OthelloSettings {
    /// The time per move, for the midgame search and the solves alike; `None` for none.
    pub time: Option<Duration>,
    /// The deepest midgame iteration, in plies.
    pub depth: u32,
    /// At this many empty squares or fewer, play by a win/loss/draw solve.
    pub wld: u32,
    /// At this many empty squares or fewer, play by an exact solve (takes precedence over
    /// `wld`).
    pub exact: u32,
    /// The size of each transposition table (the midgame search's and the solver's), in MiB.
    pub hash_mb: usize,
    /// The evaluation of the midgame search.
    pub eval: OthelloEval,
    /// With [`OthelloEval::Learned`]: a weight file to use instead of the built-in weights.
    pub weights: Option<PathBuf>,
    /// With [`OthelloEval::Learned`]: Multi-ProbCut in the midgame search with this threshold
    /// in standard deviations ([`MidgameSearch::set_probcut`], with the statistics
    /// [`PROBCUT_LEARNED`] measured for the built-in weights); `None` for none. Ignored with
    /// [`OthelloEval::Hand`].
    pub probcut: Option<f64>,
    /// Which root moves the midgame search values ([`MidgameSearch::set_root_values`]):
    /// [`RootValues::Best`] (only the best ones, for play) or [`RootValues::All`] (every
    /// move, for analysis).
    pub root: RootValues,
    /// The strength level ([`OthelloLevel`]) the other settings started from, shown in the
    /// spec; `None` for none. It changes nothing by itself: [`OthelloSettings::at_level`]
    /// writes its values into the other fields.
    pub level: Option<u32>,
    /// An opening book (`yomi book`) to play from while the position is in it; `None` for
    /// none. No book is built in yet.
    pub book: Option<PathBuf>,
    /// With a book: pick at random (seeded) among the book moves within this many discs of
    /// the best, for varied games; 0 plays a best book move.
    pub book_random: u32,
}

impl OthelloSettings {
    /// The evaluator of the midgame search: the hand-made one, the built-in weights, or the
    /// weight file.
    ///
    /// # Errors
    /// A [`WeightError`] when the weight file is missing, corrupt or of another layout.
    pub fn evaluator(&self) -> Result<Arc<dyn Evaluator>, WeightError> {
        match (self.eval, &self.weights) {
            (OthelloEval::Learned, Some(path)) => Ok(Arc::new(Weights::read(path)?)),
            (eval, _) => Ok(eval.evaluator()),
        }
    }

    /// The midgame search the agent runs with these settings: the evaluator, the table size,
    /// and ProbCut with the built-in statistics ([`PROBCUT_LEARNED`]) for the learned
    /// evaluation. For tools that measure the agent's search (`yomi bench midgame`).
    ///
    /// # Errors
    /// As [`evaluator`](Self::evaluator).
    pub fn midgame_search(&self) -> Result<MidgameSearch, WeightError> {
        let mut midgame = MidgameSearch::new(self.hash_mb, self.evaluator()?);
        if self.eval == OthelloEval::Learned {
            midgame.set_probcut(self.probcut.map(|t| (t, PROBCUT_LEARNED)));
        }
        midgame.set_root_values(self.root);
        Ok(midgame)
    }
}

impl OthelloSettings {
    /// The settings of strength level `level` ([`OthelloLevel`]): no time limit, the level's
    /// depth, ProbCut threshold, WLD and exact empties, and the defaults for the rest; `None`
    /// outside 1 to [`MAX_LEVEL`].
    #[must_use]
    pub fn at_level(level: u32) -> Option<OthelloSettings> {
        let l = OthelloLevel::get(level)?;
        Some(OthelloSettings {
            time: None,
            depth: l.depth,
            wld: l.wld,
            exact: l.exact,
            probcut: l.probcut,
            level: Some(level),
            ..OthelloSettings::default()
        })
    }
}

impl Default for OthelloSettings {
    /// `time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=1.5,`
    /// `root=best` (ProbCut at [`PROBCUT_THRESHOLD`]), no level.
    fn default() -> OthelloSettings {
        OthelloSettings {
            time: Some(Duration::from_millis(100)),
            depth: 60,
            wld: 18,
            exact: 16,
            hash_mb: 16,
            eval: OthelloEval::Learned,
            weights: None,
            probcut: Some(PROBCUT_THRESHOLD),
            root: RootValues::Best,
            level: None,
            book: None,
            book_random: 0,
        }
    }
}

/// `othello`: iterative-deepening alpha-beta ([`MidgameSearch`]) with the learned evaluation
/// (`eval=learned`, the default: the built-in weights of `yomi-othello-eval`) or the hand-made
/// one (`eval=hand`) while more than `wld` squares are empty, then the endgame [`Solver`]:
/// win/loss/draw at `wld` empties or fewer, exact at `exact` or fewer.
///
/// Every legal move gets a value and ties are broken at random: in the midgame the search's
/// value at the deepest completed depth (evaluation units, hundredths of a disc for the learned
/// evaluation and about that for the hand-made one; a finished game is its final disc
/// difference times [`FINAL_SCALE`]); in a solve the exact final disc difference or -1 / 0 / 1.
/// With `root=best` (the default) the midgame search proves the value of the best moves only
/// and gives the others an upper bound below it ([`RootValues::Best`], far fewer nodes; the
/// explanation marks the bounds); `root=all` values every move.
/// The explanation names the evaluation that gave a midgame value. A position with a single
/// legal move is not searched.
///
/// Every move obeys the time per move (`time`, or a tighter limit given through
/// [`Agent::set_limits`], whose stop flag also ends a move early): a solve that the limit stops
/// falls back to the midgame search in the time that is left (depth 1 always completes).
///
/// **Levels.** `othello:level=N` (1 to [`MAX_LEVEL`]) starts from strength level `N` of
/// [`OTHELLO_LEVELS`](crate::OTHELLO_LEVELS): its depth, ProbCut threshold, WLD and exact
/// empties, and no time limit, so a level plays by depth. Parameters given beside the level
/// override its values (`othello:level=10,depth=6` searches 6 plies with level 10's
/// endgame; `time=0.5` adds a time limit, and a clock from [`Agent::set_clock`] plans the
/// time as without a level: whichever of the depth and the time ends first ends the move).
/// `probcut=auto` is the level's threshold. The spec shows the level first, then every value
/// in force, and builds the same agent again; a level outside 1 to [`MAX_LEVEL`] is a
/// [`BuildAgentError::BadValue`](crate::BuildAgentError::BadValue) naming the range. The
/// explanation notes the level and the values given over it.
///
/// Without a time limit (`time=0`) the choice depends only on the position and the generator;
/// with one, on how deep the machine got in that time (so `choose` and `explain` may differ).
/// The tables are emptied (or their old entries ignored) before each decision where that could
/// change a value; the solver keeps its table, whose entries are exact.
#[derive(Debug)]
pub struct OthelloAgent {
    settings: OthelloSettings,
    midgame: MidgameSearch,
    /// The solver of the moves played: its table sees the same solves whether the move is
    /// chosen or explained, so [`Agent::choose`] and [`Agent::explain`] pick the same move.
    solver: Option<Solver>,
    /// The solver of an explanation's values for every move, with a table of its own.
    values_solver: Option<Solver>,
    /// Limits from [`Agent::set_limits`].
    limits: Limits,
    /// The game clock from [`Agent::set_clock`], when the game has one.
    clock: Option<Clock>,
    /// The solver's speed on this machine in nodes per second: [`DEFAULT_SOLVER_RATE`] until
    /// a solve has measured it, for the predicted cost of a solve at a clock.
    solver_rate: f64,
    /// The opening book of `settings.book`, read once, with a note when its values come from
    /// other weights than the agent's.
    book: Option<(Arc<Book>, Option<String>)>,
    /// How the last move was found (see [`Agent::last_move_kind`]).
    last_kind: Option<&'static str>,
}

/// The kinds of move of [`Agent::last_move_kind`] for the `othello` agent: the only legal
/// move, a book move, the midgame search, a WLD or exact solve, or the midgame search after
/// a WLD or exact solve stopped at its limit.
pub const OTHELLO_MOVE_KINDS: [&str; 7] = [
    "forced",
    "book",
    "midgame",
    "wld",
    "exact",
    "wld-stopped",
    "exact-stopped",
];

impl OthelloAgent {
    /// An agent with these settings (tables are allocated on first use).
    ///
    /// # Errors
    /// A [`WeightError`] when `settings.weights` names a file that is missing, corrupt or of
    /// another layout.
    pub fn new(settings: OthelloSettings) -> Result<OthelloAgent, WeightError> {
        let midgame = settings.midgame_search()?;
        Ok(OthelloAgent {
            midgame,
            settings,
            solver: None,
            values_solver: None,
            limits: Limits::none(),
            clock: None,
            solver_rate: DEFAULT_SOLVER_RATE,
            book: None,
            last_kind: None,
        })
    }

    /// Plays from `book` (read from `settings.book`) while the position is in it. The
    /// explanation says so when the book's values come from other evaluation weights than
    /// the agent's.
    pub fn set_book(&mut self, book: Arc<Book>) {
        let own = match (self.settings.eval, &self.settings.weights) {
            (OthelloEval::Hand, _) => None,
            (OthelloEval::Learned, Some(path)) => Weights::read(path)
                .ok()
                .and_then(|w| weights_digest(&w).ok()),
            (OthelloEval::Learned, None) => weights_digest(&Weights::builtin()).ok(),
        };
        let note = (own != Some(book.weights())).then(|| {
            format!(
                "the book's values come from other evaluation weights (digest {:016x}) than \
                 this agent's: they are still used",
                book.weights()
            )
        });
        self.book = Some((book, note));
    }

    /// The explanation of a move from the book, if the position is in it.
    fn book_move(&self, state: &Othello, rng: &mut Rng) -> Option<Explanation<Move>> {
        let (book, note) = self.book.as_ref()?;
        let entry = book.get(state)?;
        let moves = book.moves(state);
        let top = moves.first()?.value;
        let within = i32::from(top) - self.settings.book_random as i32;
        let best: Vec<Move> = moves
            .iter()
            .filter(|m| i32::from(m.value) >= within)
            .map(|m| m.mv)
            .collect();
        let chosen = *rng.choose(&best)?;
        let scored = moves
            .iter()
            .map(|m| {
                let depth = match m.depth {
                    EXACT_DEPTH => "exact".to_string(),
                    WLD_DEPTH => "wld".to_string(),
                    d => format!("depth {d}"),
                };
                let how = if m.leaf {
                    format!("{BOOK}, the leaf (its position is not in the book), {depth}")
                } else {
                    format!("{BOOK}, {depth}, {} lines", m.lines)
                };
                MoveScore::new(m.mv, f64::from(m.value))
                    .with_note(how)
                    .with_part("depth", f64::from(m.depth))
                    .with_part("lines", f64::from(m.lines))
            })
            .collect();
        let mut notes = vec![format!(
            "{BOOK}: the position is in the opening book, value {:+} for the side to move, {} \
             lines; scores: discs",
            entry.value, entry.lines
        )];
        if self.settings.book_random > 0 {
            notes.push(format!(
                "book_random={}: picked at random among the {} book moves within {} discs of \
                 the best",
                self.settings.book_random,
                best.len(),
                self.settings.book_random
            ));
        }
        notes.extend(note.clone());
        Some(Explanation {
            agent: self.to_string(),
            moves: scored,
            best,
            chosen,
            notes,
        })
    }

    /// The settings.
    #[must_use]
    pub fn settings(&self) -> &OthelloSettings {
        &self.settings
    }

    /// The solver of the moves played, or with `values` the one of the explanations' values
    /// (each built on first use).
    fn solver(&mut self, values: bool) -> Result<&mut Solver, AgentError> {
        let config = SolverConfig {
            threads: 1,
            hash_mb: self.settings.hash_mb,
            ..SolverConfig::default()
        };
        let agent = self.to_string();
        let slot = if values {
            &mut self.values_solver
        } else {
            &mut self.solver
        };
        if slot.is_none() {
            let solver = Solver::new(config).map_err(|e| AgentError::Failed {
                agent,
                reason: e.to_string(),
            })?;
            *slot = Some(solver);
        }
        Ok(slot.as_mut().expect("just built"))
    }
}

impl OthelloAgent {
    /// The limits of one move: the tighter of the settings' time and the limits set from
    /// outside, and their node budget and stop flag.
    fn move_limits(&self, empties: u32) -> (Limits, Option<String>) {
        let mut limits = self.limits.clone();
        // At a clock the agent plans each move's time from it; its `time` setting is for
        // games without one. The caller's limits still bound every move.
        let (own, why) = match &self.clock {
            Some(clock) => {
                let solve_at = self.solve_point(clock);
                let (time, why) = clock_budget(clock, empties, solve_at);
                (Some(time), Some(why))
            }
            None => (self.settings.time, None),
        };
        limits.time = match (own, limits.time) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        (limits, why)
    }

    /// The entry of `values` (from the solver or the search, named `source`) for `mv`; an
    /// error if there is none.
    fn value_of<'v, T>(
        &self,
        values: &'v [T],
        mv: Move,
        move_of: impl Fn(&T) -> Move,
        source: &str,
    ) -> Result<&'v T, AgentError> {
        values
            .iter()
            .find(|v| move_of(v) == mv)
            .ok_or_else(|| AgentError::Failed {
                agent: self.to_string(),
                reason: format!("the {source} gave no value for {mv}"),
            })
    }
}

impl OthelloAgent {
    /// With a level: `level 10: depth 10, ProbCut 1.5, WLD at 18 empties, exact at 16`, and
    /// the values given over it (`; given over it: depth 6`).
    fn level_note(&self) -> Option<String> {
        let s = &self.settings;
        let level = OthelloLevel::get(s.level?)?;
        let mut given = Vec::new();
        if s.time.is_some() {
            given.push(format!("time {}", time_text(s.time)));
        }
        if s.depth != level.depth {
            given.push(format!("depth {}", s.depth));
        }
        let probcut = s.probcut.filter(|_| s.eval == OthelloEval::Learned);
        if probcut != level.probcut {
            given.push(match probcut {
                Some(t) => format!("ProbCut {t}"),
                None => "no ProbCut".to_string(),
            });
        }
        if s.wld != level.wld {
            given.push(format!("WLD at {}", s.wld));
        }
        if s.exact != level.exact {
            given.push(format!("exact at {}", s.exact));
        }
        let mut note = level.to_string();
        if !given.is_empty() {
            note.push_str("; given over it: ");
            note.push_str(&given.join(", "));
        }
        Some(note)
    }
}

/// `,name=PATH` (in parentheses where the path holds a character of the spec syntax or a
/// space), or `,name=none` without a path.
fn write_path(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    path: Option<&std::path::Path>,
    none: &str,
) -> fmt::Result {
    let Some(path) = path else {
        return write!(f, ",{name}={none}");
    };
    let path = path.display().to_string();
    let plain = !path
        .chars()
        .any(|c| matches!(c, ',' | ':' | '=' | '(' | ')') || c.is_whitespace());
    if plain {
        write!(f, ",{name}={path}")
    } else {
        write!(f, ",{name}=({path})")
    }
}

impl fmt::Display for OthelloAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.settings;
        f.write_str("othello:")?;
        if let Some(level) = s.level {
            write!(f, "level={level},")?;
        }
        write!(
            f,
            "time={},depth={},wld={},exact={},hash_mb={},eval={}",
            time_text(s.time),
            s.depth,
            s.wld,
            s.exact,
            s.hash_mb,
            s.eval
        )?;
        write_path(f, "weights", s.weights.as_deref(), "builtin")?;
        match s.probcut {
            Some(t) if s.eval == OthelloEval::Learned => write!(f, ",probcut={t}")?,
            _ => write!(f, ",probcut=off")?,
        }
        write!(f, ",root={}", s.root)?;
        write_path(f, "book", s.book.as_deref(), "off")?;
        write!(f, ",book_random={}", s.book_random)
    }
}

impl Agent<Othello> for OthelloAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(&mut self, state: &Othello, rng: &mut Rng) -> Result<Explanation<Move>, AgentError> {
        self.decide(state, rng, true)
    }

    /// As [`Agent::explain`], except that a solve proves the best move only (the solver's
    /// root search, a fraction of the cost of every move's value), so the move can differ
    /// from `explain`'s among moves of the same value.
    fn choose(&mut self, state: &Othello, rng: &mut Rng) -> Result<Move, AgentError> {
        Ok(self.decide(state, rng, false)?.chosen)
    }

    fn set_limits(&mut self, limits: &Limits) {
        self.limits = limits.clone();
    }

    /// Plans each move's time from the clock (`docs/agents.md` says how) instead of the
    /// `time` setting.
    fn set_clock(&mut self, clock: Option<&Clock>) {
        self.clock = clock.copied();
    }

    /// One of [`OTHELLO_MOVE_KINDS`].
    fn last_move_kind(&self) -> Option<&'static str> {
        self.last_kind
    }
}

impl OthelloAgent {
    /// The move and its explanation; `full`: every move's value where the position is
    /// solved, else only the best move's ([`Agent::choose`]).
    fn decide(
        &mut self,
        state: &Othello,
        rng: &mut Rng,
        full: bool,
    ) -> Result<Explanation<Move>, AgentError> {
        let moves = moves_of(state)?;
        let empties = state.empties().count();
        self.last_kind = None;
        if moves.len() == 1 {
            self.last_kind = Some("forced");
            let scored = vec![MoveScore::new(moves[0], 0.0).with_note("only legal move")];
            let mut e = explain_best(self.to_string(), scored, rng);
            e.notes.push("only one legal move: not searched".into());
            return Ok(e);
        }
        if let Some(e) = self.book_move(state, rng) {
            self.last_kind = Some("book");
            return Ok(e);
        }
        let (limits, budget) = self.move_limits(empties);
        let solve = self.solve_mode(empties, limits.time);
        let watch = limits.start();
        let mut notes: Vec<String> = self.level_note().into_iter().collect();
        notes.extend(budget);
        let Some((mode, predicted)) = solve else {
            self.last_kind = Some("midgame");
            return self.midgame_move(state, &moves, &limits, &watch, notes, rng);
        };
        if let Some(cost) = predicted {
            notes.push(format!(
                "the {mode} solve at {empties} empties is predicted to take {:.3} s \
                 ({:.0} nodes at {:.1} M nodes/s), within this move's time: solving",
                cost.as_secs_f64(),
                solve_nodes(mode, empties),
                self.solver_rate / 1e6
            ));
        }
        let (how, unit) = match mode {
            Mode::Exact => (EXACT_SOLVE, "final disc difference"),
            Mode::Wld => (WLD_SOLVE, "1 win, 0 draw, -1 loss"),
        };
        // The best move first (the root search: what `choose` plays); for an explanation,
        // then every move's value, in what is left of the move's time, by the other solver.
        // The chosen move is the root search's in both, so `choose` and `explain` agree.
        let started = std::time::Instant::now();
        let solution = self.solver(false)?.solve_limited(state, mode, &limits);
        let mut nodes = solution.nodes;
        let mut finished = solution.stopped.is_none();
        let mut scored: Vec<MoveScore<Move>> = solution
            .best
            .map(|mv| {
                vec![MoveScore::new(mv, f64::from(solution.score))
                    .with_note(format!("{how}, the best move only"))
                    .with_part("nodes", solution.nodes as f64)]
            })
            .unwrap_or_default();
        finished &= !scored.is_empty();
        if full && finished {
            let mut rest = limits.clone();
            rest.time = watch.remaining();
            let values = self.solver(true)?.move_values_limited(state, mode, &rest);
            nodes += values.iter().map(|v| v.nodes).sum::<u64>();
            // The best move is proved either way; a move whose value the limit left unproved
            // shows its upper bound (never above the best).
            let (root, top) = (solution.best, solution.score);
            scored.clear();
            for &mv in &moves {
                let v = self.value_of(&values, mv, |v| v.mv, "solver")?;
                let (score, note) = if Some(mv) == root {
                    (top, how.to_string())
                } else if v.is_exact() {
                    (v.score, how.to_string())
                } else {
                    (
                        v.upper.min(top),
                        format!("{how}, stopped at a limit: {UPPER_BOUND}"),
                    )
                };
                scored.push(
                    MoveScore::new(mv, f64::from(score))
                        .with_note(note)
                        .with_part("nodes", v.nodes as f64),
                );
            }
            if !values.iter().all(|v| v.is_exact()) {
                notes.push(
                    "a limit stopped the values of the other moves: the best move's is proved, \
                     the unfinished ones show upper bounds"
                        .to_string(),
                );
            }
        }
        self.observe_solver_rate(nodes, started.elapsed());
        if !finished {
            notes.push(format!(
                "the {mode} solve at {empties} empties stopped at a limit after {nodes} \
                 nodes: playing by the midgame search"
            ));
            self.last_kind = Some(match mode {
                Mode::Exact => "exact-stopped",
                Mode::Wld => "wld-stopped",
            });
            let mut left = limits.clone();
            if predicted.is_some() {
                // A predicted solve that ran over: the midgame search gets a quarter of the
                // move's time again (the plan never gives a move more than half of the
                // usable time, so this stays within the clock).
                left.time = limits.time.map(|t| t / 4);
                let watch = left.start();
                return self.midgame_move(state, &moves, &left, &watch, notes, rng);
            }
            return self.midgame_move(state, &moves, &limits, &watch, notes, rng);
        }
        self.last_kind = Some(match mode {
            Mode::Exact => "exact",
            Mode::Wld => "wld",
        });
        let root_best = solution.best;
        let mut e = Explanation::from_scores(self.to_string(), scored, |best| {
            root_best.filter(|mv| best.contains(mv)).unwrap_or(best[0])
        });
        e.notes.extend(notes);
        e.notes.push(format!(
            "{how} at {empties} empties, {nodes} nodes; scores: {unit}"
        ));
        Ok(e)
    }

    /// How the position at `empties` is played: a solve (and its predicted time when the
    /// clock, not the `wld` and `exact` settings, chose it) or `None` for the midgame search.
    /// At a clock and without a level, an exact (else a WLD) solve is chosen as soon as its
    /// predicted time fits [`SOLVE_FIT`] of the move's time `time`.
    fn solve_mode(&self, empties: u32, time: Option<Duration>) -> Option<(Mode, Option<Duration>)> {
        let s = &self.settings;
        if empties <= s.exact {
            return Some((Mode::Exact, None));
        }
        let fits = |mode| {
            let cost = self.solve_time(mode, empties);
            let ok = self.predicts_solves()
                && empties <= MAX_PREDICTED_SOLVE
                && time.is_some_and(|t| cost <= t.mul_f64(SOLVE_FIT));
            ok.then_some(cost)
        };
        if let Some(cost) = fits(Mode::Exact) {
            return Some((Mode::Exact, Some(cost)));
        }
        if empties <= s.wld {
            return Some((Mode::Wld, None));
        }
        fits(Mode::Wld).map(|cost| (Mode::Wld, Some(cost)))
    }

    /// Whether the solves start by their predicted cost: at a clock, without a level (a
    /// level's solve empties are part of its strength).
    fn predicts_solves(&self) -> bool {
        self.clock.is_some() && self.settings.level.is_none()
    }

    /// The predicted time of a best-move solve in `mode` at `empties`, at the measured rate.
    fn solve_time(&self, mode: Mode, empties: u32) -> Duration {
        Duration::from_secs_f64((solve_nodes(mode, empties) / self.solver_rate).min(MAX_SECONDS))
    }

    /// The empties at which the clock plans the exact solve: the most at which the predicted
    /// time fits [`SOLVE_FIT`] of the move time the plan gives a solve (half of the usable
    /// time), never fewer than the `exact` setting; with a level, the level's `exact`.
    fn solve_point(&self, clock: &Clock) -> u32 {
        let usable = usable_time(clock);
        let mut at = self.settings.exact;
        if self.settings.level.is_some() {
            return at;
        }
        for e in (self.settings.exact + 1)..=MAX_PREDICTED_SOLVE {
            if self.solve_time(Mode::Exact, e) <= (usable / 2).mul_f64(SOLVE_FIT) {
                at = e;
            }
        }
        at
    }

    /// Folds a solve's speed into the measured rate (solves under 20 ms are too short to
    /// time).
    fn observe_solver_rate(&mut self, nodes: u64, elapsed: Duration) {
        if elapsed >= Duration::from_millis(20) && nodes > 0 {
            let rate = nodes as f64 / elapsed.as_secs_f64();
            self.solver_rate = (0.5 * self.solver_rate + 0.5 * rate).clamp(1e5, 1e9);
        }
    }
}

/// The solver's speed assumed before a solve has measured it, in nodes per second: a third of
/// one EPYC core's speed on the FFO suite, for a slower or busy machine.
const DEFAULT_SOLVER_RATE: f64 = 10e6;
/// The share of a move's time that a solve's predicted time must fit for the clock to choose
/// it before the `wld` and `exact` settings do.
const SOLVE_FIT: f64 = 0.5;
/// The most empties at which the clock chooses a solve.
const MAX_PREDICTED_SOLVE: u32 = 30;
/// The exact solve's nodes at 20 empties, for [`solve_nodes`]: measured on 130 positions at 14
/// to 26 empties (ten at each) of `yomi openings positions`, `yomi solve --threads 1
/// --hash-mb 16`.
const EXACT_NODES_20: f64 = 6.67e6;
/// The exact solve's growth per empty square, from the same fit.
const EXACT_GROWTH: f64 = 2.083;
/// The WLD solve's nodes at 20 empties, from the same positions.
const WLD_NODES_20: f64 = 1.16e6;
/// The WLD solve's growth per empty square.
const WLD_GROWTH: f64 = 2.451;

/// The nodes of a best-move solve (one thread, an empty table) in `mode` at `empties`: a
/// line through the 75th percentiles measured on self-play positions (`docs/agents.md`).
fn solve_nodes(mode: Mode, empties: u32) -> f64 {
    let (at20, growth) = match mode {
        Mode::Exact => (EXACT_NODES_20, EXACT_GROWTH),
        Mode::Wld => (WLD_NODES_20, WLD_GROWTH),
    };
    at20 * growth.powi(empties as i32 - 20)
}

/// The share of the time left kept in reserve, never planned.
const CLOCK_RESERVE: f64 = 0.05;
/// Time kept back for the harness, the pipes, the reply and a busy machine's scheduling,
/// whatever the clock (50 ms was overrun by a move on a 2-core machine at a load of 9).
const CLOCK_MARGIN: Duration = Duration::from_millis(100);

/// The time for a move at `empties` empties on `clock`, and why. Kept back: 5% of the time
/// left and 100 ms. The rest is spread over the side's moves still to play before the exact
/// solve planned at `solve_at` empties ([`OthelloAgent::solve_point`]: the solve and the
/// moves after it cost little), or, from there on, half of it goes to the solve; each move
/// also gets 90% of the increment, and never more than half of what is left.
fn clock_budget(clock: &Clock, empties: u32, solve_at: u32) -> (Duration, String) {
    let left = clock.remaining;
    let reserve = clock_reserve(clock);
    let usable = usable_time(clock);
    let plies_to_solve = empties.saturating_sub(solve_at);
    let moves = match clock.moves_to_go {
        Some(m) => m.max(1),
        None if plies_to_solve == 0 => 2,
        None => plies_to_solve.div_ceil(2).max(1),
    };
    let share = usable / moves + clock.increment.mul_f64(0.9);
    let time = share.min(usable / 2).max(Duration::from_millis(1));
    let why = format!(
        "clock: {:.3} s left, +{:.3} s a move: {:.3} s for this move ({} moves to plan over, \
         {:.3} s kept in reserve, the exact solve planned at {} empties)",
        left.as_secs_f64(),
        clock.increment.as_secs_f64(),
        time.as_secs_f64(),
        moves,
        reserve.as_secs_f64(),
        solve_at
    );
    (time, why)
}

/// The time kept back on `clock`: 5% of the time left and 100 ms.
fn clock_reserve(clock: &Clock) -> Duration {
    clock.remaining.mul_f64(CLOCK_RESERVE) + CLOCK_MARGIN
}

/// The time on `clock` that may be planned: the time left less the reserve.
fn usable_time(clock: &Clock) -> Duration {
    clock.remaining.saturating_sub(clock_reserve(clock))
}

impl OthelloAgent {
    /// The move of the midgame search, in the time left on `watch` (started for this move
    /// under `limits`), with `notes` on what happened before.
    fn midgame_move(
        &mut self,
        state: &Othello,
        moves: &[Move],
        limits: &Limits,
        watch: &yomi_core::Watch,
        notes: Vec<String>,
        rng: &mut Rng,
    ) -> Result<Explanation<Move>, AgentError> {
        let empties = state.empties().count();
        let mut left = limits.clone();
        left.time = watch.remaining();
        left.nodes = limits.nodes.map(|n| n.saturating_sub(watch.nodes()).max(1));
        let result = self
            .midgame
            .search_limited(state, self.settings.depth, &left);
        let eval = self.midgame.evaluator().name();
        let how = if result.exact {
            format!("depth {} search{SEARCH_EXACT}", result.depth)
        } else {
            format!("depth {} search, {eval} evaluation", result.depth)
        };
        let mut scored = Vec::with_capacity(moves.len());
        for &mv in moves {
            let v = self.value_of(&result.scores, mv, |v| v.mv, "search")?;
            let note = if v.exact {
                how.clone()
            } else {
                format!("{how}, {UPPER_BOUND} (the move is worse than the best)")
            };
            scored.push(
                MoveScore::new(mv, f64::from(v.score))
                    .with_note(note)
                    .with_part("depth", result.depth)
                    .with_part("nodes", v.nodes as f64),
            );
        }
        let mut e = explain_best(self.to_string(), scored, rng);
        e.notes.extend(notes);
        e.notes.push(format!(
            "{how} at {empties} empties, {} nodes in {:.3} s; scores: {eval} evaluation units \
             (|eval| <= {EVAL_LIMIT}, 1/100 disc), a finished game {FINAL_SCALE} per disc",
            result.nodes,
            result.elapsed.as_secs_f64()
        ));
        if let Some(t) = self.midgame.probcut() {
            e.notes.push(format!(
                "Multi-ProbCut at {t} standard deviations: values are of the pruned search"
            ));
        }
        if result.timed_out {
            e.notes.push(format!(
                "a limit stopped depth {} before it completed: playing by depth {}",
                result.depth + 1,
                result.depth
            ));
        }
        Ok(e)
    }
}

/// The help line of the `level` parameter.
const LEVEL_HELP: &str = "strength level 1 to 30 (yomi agents lists them): its depth, ProbCut \
    and solve empties, no time limit; parameters given beside it override the level's (none: \
    no level)";

/// Adds `othello` to an Othello registry.
pub(crate) fn register_othello(registry: &mut Registry<Othello>) {
    registry.register(
        AgentInfo {
            name: "othello",
            summary: "alpha-beta with the learned (or hand-made) evaluation; WLD then exact endgame solves",
            params: vec![
                ParamInfo {
                    name: "time",
                    default: "0.1",
                    help:
                        "time per move in seconds, for the midgame search and the solves (0: none)",
                },
                ParamInfo {
                    name: "depth",
                    default: "60",
                    help: "deepest midgame iteration in plies",
                },
                ParamInfo {
                    name: "wld",
                    default: "18",
                    help: "win/loss/draw solve at this many empty squares or fewer (at a clock, sooner where its predicted time fits)",
                },
                ParamInfo {
                    name: "exact",
                    default: "16",
                    help: "exact solve at this many empty squares or fewer (at a clock, sooner where its predicted time fits)",
                },
                ParamInfo {
                    name: "hash_mb",
                    default: "16",
                    help: "size of each transposition table in MiB",
                },
                ParamInfo {
                    name: "eval",
                    default: "learned",
                    help: "midgame evaluation: learned (the built-in pattern weights) or hand",
                },
                ParamInfo {
                    name: "weights",
                    default: "builtin",
                    help: "with eval=learned: a weight file (yomi train fit) instead of the \
                           built-in weights (builtin)",
                },
                ParamInfo {
                    name: "probcut",
                    default: "auto",
                    help: "Multi-ProbCut in the midgame search: its threshold in standard \
                           deviations (0.1 to 10; eval=learned only), off, or auto (1.5 with \
                           eval=learned, off with eval=hand; with a level, the level's)",
                },
                ParamInfo {
                    name: "level",
                    default: "none",
                    help: LEVEL_HELP,
                },
                ParamInfo {
                    name: "root",
                    default: "best",
                    help: "midgame values at the root: best (only the best moves get exact \
                           values, the others an upper bound; for play) or all (every move \
                           its value, for analysis; slower)",
                },
                ParamInfo {
                    name: "book",
                    default: "off",
                    help: "an opening book file (yomi book) to play from, instantly, while the \
                           position is in it, or off (no book is built in yet)",
                },
                ParamInfo {
                    name: "book_random",
                    default: "0",
                    help: "with a book: pick at random (seeded) among the book moves within \
                           this many discs of the best (0 to 64; 0: a best move)",
                },
            ],
        },
        |p| {
            let level = match p.text("level") {
                "none" => None,
                _ => Some(p.u64_in("level", 1, u64::from(MAX_LEVEL)).map_err(|_| {
                    p.bad("level", format!("none or a whole number from 1 to {MAX_LEVEL}"))
                })? as u32),
            };
            let base = level
                .and_then(OthelloSettings::at_level)
                .unwrap_or_default();
            // Without a level every value is the given one or the default; with one, the
            // values not given are the level's.
            let given = |name: &str| level.is_none() || p.spec().get(name).is_some();
            let settings = OthelloSettings {
                time: if given("time") {
                    p.time_limit("time", MAX_SECONDS)?
                } else {
                    base.time
                },
                depth: if given("depth") {
                    p.u64_in("depth", 1, 64)? as u32
                } else {
                    base.depth
                },
                wld: if given("wld") {
                    p.u64_in("wld", 0, 64)? as u32
                } else {
                    base.wld
                },
                exact: if given("exact") {
                    p.u64_in("exact", 0, 64)? as u32
                } else {
                    base.exact
                },
                hash_mb: p.u64_in("hash_mb", 1, MAX_HASH_MB)? as usize,
                eval: p
                    .text("eval")
                    .parse()
                    .map_err(|_| p.bad("eval", "learned or hand"))?,
                weights: match p.text("weights") {
                    "builtin" => None,
                    path => Some(PathBuf::from(path)),
                },
                probcut: match p.text("probcut") {
                    "off" => None,
                    "auto" => base.probcut,
                    _ => Some(
                        p.f64_in("probcut", 0.1, 10.0)
                            .map_err(|_| p.bad("probcut", "off or a number from 0.1 to 10"))?,
                    ),
                },
                root: p
                    .text("root")
                    .parse()
                    .map_err(|_| p.bad("root", "best or all"))?,
                level,
                book: match p.text("book") {
                    "off" => None,
                    path => Some(PathBuf::from(path)),
                },
                book_random: p.u64_in("book_random", 0, 64)? as u32,
            };
            if settings.eval == OthelloEval::Hand && !matches!(p.text("probcut"), "off" | "auto") {
                return Err(p.bad(
                    "probcut",
                    "off: ProbCut's statistics are the learned evaluation's",
                ));
            }
            if settings.eval == OthelloEval::Hand && settings.weights.is_some() {
                return Err(p.bad("weights", "builtin: eval=hand uses no weights"));
            }
            let book = match &settings.book {
                None => None,
                Some(path) => Some(Book::shared(path).map_err(|e| {
                    p.bad("book", format!("off or a sound book file ({e})"))
                })?),
            };
            let mut agent = OthelloAgent::new(settings)
                .map_err(|e| p.bad("weights", format!("builtin or a sound weight file ({e})")))?;
            if let Some(book) = book {
                agent.set_book(book);
            }
            Ok(Box::new(agent))
        },
    );
}
