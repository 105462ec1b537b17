//! Position analysis: an analyst agent of a game's zoo values every legal move of a position
//! within a time limit, and its best line follows ([`analyse_position`]). The page of
//! `yomi serve`, `yomi analyse --position` and Python's `yomi.analyse_position` share it;
//! whole games are reviewed by disc loss with `yomi_othello_search::Reviewer`.
//!
//! The values come from the analyst's explanation, and their meaning depends on the analyst
//! ([`ValueUnit`]): the exact tree's `perfect` gives the game-theoretic result of each move
//! (1 win, 0 draw, -1 loss for the mover); `othello` gives a midgame search's evaluation (in
//! hundredths of a disc, at the depth it completed) or, near the end, a win/loss/draw or exact
//! solve (the final disc difference). [`interpret`] reads each into an [`AnalysedValue`] that
//! says which it is.

use std::fmt;
use std::time::{Duration, Instant};

use thiserror::Error;
use yomi_core::{
    AgentError, AgentSpec, FinalScore, Game, Limits, MoveScore, Player, Rng, StopFlag, StopReason,
};
use yomi_othello::Othello;
use yomi_othello_search::score_in_discs;

use crate::registry::{BuildAgentError, Registry};

/// The note of an `othello` agent's move valued by an exact solve (a longer note that starts
/// with it says more, e.g. that the value is an upper bound).
pub(crate) const EXACT_SOLVE: &str = "exact solve";
/// The note of an `othello` agent's move from its opening book (its value in discs).
pub(crate) const BOOK: &str = "book";
/// The note of an `othello` agent's move valued by a win/loss/draw solve.
pub(crate) const WLD_SOLVE: &str = "WLD solve";
/// The end of a search note whose every line ended the game (its scores are final disc
/// differences).
pub(crate) const SEARCH_EXACT: &str = ", exact";
/// The part of a note that marks a value as an upper bound (a move worse than the best, whose
/// value a cut or a limit left unproved).
pub(crate) const UPPER_BOUND: &str = "an upper bound";

/// Positions with one legal move are not searched by every analyst: the analysis looks
/// through at most this many of them (passes, forced replies) to the first real choice.
pub const FORCED_STEPS: usize = 8;

/// The longest best line, in moves.
pub const LINE_MOVES: usize = 20;

/// Each step of the best line gets this fraction of the analysis time.
pub const LINE_STEP_SHARE: f64 = 0.1;

/// What an analyst's values count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueUnit {
    /// Discs: the `othello` agent (estimates and exact solves; win/loss/draw solves give
    /// 1 / 0 / -1).
    Discs,
    /// The game-theoretic result, 1 win, 0 draw, -1 loss: the exact tree's agents.
    Result,
}

impl ValueUnit {
    /// The unit of the analyst named `analyst` (an agent name without parameters).
    #[must_use]
    pub fn of(analyst: &str) -> ValueUnit {
        if analyst == "othello" {
            ValueUnit::Discs
        } else {
            ValueUnit::Result
        }
    }

    /// `discs` or `result`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ValueUnit::Discs => "discs",
            ValueUnit::Result => "result",
        }
    }
}

/// What a value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnalysedKind {
    /// A search's estimate at a depth (Othello's midgame search, in discs).
    Estimate,
    /// Solved: the exact final disc difference with best play.
    Exact,
    /// Solved for win, draw or loss only (1, 0, -1).
    Wld,
    /// The game-theoretic result from the exact game tree (1, 0, -1).
    Result,
}

impl AnalysedKind {
    /// `estimate`, `exact`, `wld` or `result`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AnalysedKind::Estimate => "estimate",
            AnalysedKind::Exact => "exact",
            AnalysedKind::Wld => "wld",
            AnalysedKind::Result => "result",
        }
    }

    /// Whether values of this kind count discs (so that differences are disc losses).
    #[must_use]
    pub fn is_discs(self) -> bool {
        matches!(self, AnalysedKind::Estimate | AnalysedKind::Exact)
    }
}

/// One value, from the side to move of the position it belongs to. It displays as the page
/// shows it: `+1.25` (an estimate), `+18` (exact), `win`, `draw` or `loss`; an upper bound
/// gets a `≤` in front.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysedValue {
    /// What it is.
    pub kind: AnalysedKind,
    /// Discs ([`AnalysedKind::Estimate`], [`AnalysedKind::Exact`]) or 1 / 0 / -1
    /// ([`AnalysedKind::Wld`], [`AnalysedKind::Result`]).
    pub value: f64,
    /// The search depth of an estimate.
    pub depth: Option<u32>,
    /// Whether the value is only an upper bound: the move is worse than the best, and a cut
    /// or a limit left its value unproved.
    pub upper_bound: bool,
}

impl AnalysedValue {
    /// A proved value of `kind` with no depth.
    #[must_use]
    pub fn new(kind: AnalysedKind, value: f64) -> AnalysedValue {
        AnalysedValue {
            kind,
            value,
            depth: None,
            upper_bound: false,
        }
    }

    /// The same value from the other side (an upper bound becomes a lower bound, which the
    /// analysis never shows: it is only used for the values of positions, which are proved).
    #[must_use]
    pub fn negated(&self) -> AnalysedValue {
        AnalysedValue {
            value: -self.value,
            ..self.clone()
        }
    }
}

impl fmt::Display for AnalysedValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.upper_bound {
            f.write_str("≤")?;
        }
        match self.kind {
            AnalysedKind::Wld | AnalysedKind::Result => f.write_str(match sign(self.value) {
                s if s > 0.0 => "win",
                s if s < 0.0 => "loss",
                _ => "draw",
            }),
            AnalysedKind::Exact => f.write_str(&signed(self.value, 0)),
            AnalysedKind::Estimate => f.write_str(&signed(self.value, 2)),
        }
    }
}

/// 1, 0 or -1 (`f64::signum` gives 1 for 0).
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// `+1.25`, `-3`, `0`.
fn signed(value: f64, decimals: usize) -> String {
    let text = format!("{value:.decimals$}");
    let zero = text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.');
    if zero {
        format!("{:.decimals$}", 0.0)
    } else if value > 0.0 {
        format!("+{text}")
    } else {
        text
    }
}

/// The value of one move of `analyst`'s explanation (`analyst` is the agent's name without
/// parameters), from the mover's side.
#[must_use]
pub fn interpret<M: fmt::Display>(analyst: &str, score: &MoveScore<M>) -> AnalysedValue {
    if ValueUnit::of(analyst) == ValueUnit::Result {
        // The exact tree's agents: plain minimax, 1 / 0 / -1 for the mover.
        return AnalysedValue::new(AnalysedKind::Result, sign(score.score));
    }
    let note = score.note.as_deref().unwrap_or_default();
    let upper_bound = note.contains(UPPER_BOUND);
    // The depth behind a search's value (or a book's), where the agent gives one.
    let depth = score
        .parts
        .iter()
        .find(|p| p.label == "depth")
        .map(|p| p.value as u32);
    let mut value = if note.starts_with(BOOK) {
        // A book value: discs, from the search or the solves that built the book.
        let exact = note.contains("exact");
        let kind = if exact {
            AnalysedKind::Exact
        } else {
            AnalysedKind::Estimate
        };
        let mut v = AnalysedValue::new(kind, score.score);
        v.depth = depth.filter(|_| !exact);
        v
    } else if note.starts_with(EXACT_SOLVE) {
        AnalysedValue::new(AnalysedKind::Exact, score.score)
    } else if note.starts_with(WLD_SOLVE) {
        AnalysedValue::new(AnalysedKind::Wld, sign(score.score))
    } else {
        // The midgame search's score, read as game reviews read it: a finished line's disc
        // difference, else an evaluation in hundredths of a disc.
        let discs = score_in_discs(score.score as i32);
        let head = note.split(", an upper bound").next().unwrap_or_default();
        let kind = if head.ends_with(SEARCH_EXACT) {
            // Every line of the search ended the game: a final disc difference.
            AnalysedKind::Exact
        } else {
            AnalysedKind::Estimate
        };
        let mut v = AnalysedValue::new(kind, discs);
        v.depth = depth;
        v
    };
    value.upper_bound = upper_bound;
    value
}

/// Who analyses a position, and how.
#[derive(Clone, Debug)]
pub struct Analyst<G: Game> {
    /// The analyst's agent name, without parameters (`othello`, `perfect`): what its values
    /// mean ([`ValueUnit::of`], [`interpret`]).
    pub name: String,
    /// The spec of the agent that values every move of the position.
    pub spec: String,
    /// The spec of the agent that plays the best line on (usually the same agent with a
    /// [`LINE_STEP_SHARE`] of the time).
    pub line_spec: String,
    /// A finished position's value from the first player's side, in the analyst's unit
    /// ([`ValueUnit`]): Othello's final disc difference ([`score_value`]), else 1 / 0 / -1
    /// ([`result_value`]).
    pub final_value: fn(&G) -> Option<f64>,
}

/// The analyst of an Othello position by default (the page's): the `othello` agent without
/// Multi-ProbCut, so that equal moves get equal values, and with every root move valued.
pub const OTHELLO_ANALYST: &str = "othello:probcut=off,root=all";

/// The analyst of Othello positions from `spec` (an `othello` agent spec, [`OTHELLO_ANALYST`]
/// for the page's) with `time` for each position: its `time` parameter set to it, and to a
/// [`LINE_STEP_SHARE`] of it for the best line. `yomi analyse --position` and Python's
/// `yomi.analyse_position` take their analyst from here.
///
/// # Errors
/// [`AnalysisError::Build`] for a spec that does not parse or build,
/// [`AnalysisError::NotOthello`] for another agent than `othello`.
pub fn othello_analyst(
    registry: &Registry<Othello>,
    spec: &str,
    time: Duration,
) -> Result<Analyst<Othello>, AnalysisError> {
    let given: AgentSpec = spec.parse().map_err(BuildAgentError::from)?;
    if given.name() != "othello" {
        return Err(AnalysisError::NotOthello(spec.to_string()));
    }
    let with_time = |secs: f64| -> Result<String, AnalysisError> {
        let mut s = given.clone();
        s.set("time", secs.to_string())
            .map_err(BuildAgentError::from)?;
        Ok(registry.build_spec(&s)?.spec())
    };
    let secs = time.as_secs_f64();
    Ok(Analyst {
        name: given.name().to_string(),
        spec: with_time(secs)?,
        line_spec: with_time(secs * LINE_STEP_SHARE)?,
        final_value: score_value::<Othello>,
    })
}

/// A finished game's result from the first player's side: 1 (the first player won), 0 (a
/// draw) or -1; `None` for a game that is not over.
#[must_use]
pub fn result_value<G: Game>(pos: &G) -> Option<f64> {
    pos.outcome().map(|o| match o.winner() {
        Some(Player::First) => 1.0,
        Some(Player::Second) => -1.0,
        None => 0.0,
    })
}

/// A finished game's final score from the first player's side (Othello's disc difference,
/// empties to the winner); `None` for a game that is not over.
#[must_use]
pub fn score_value<G: FinalScore>(pos: &G) -> Option<f64> {
    pos.final_score().map(f64::from)
}

/// The analysis of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis<M> {
    /// Every legal move with its value for the side to move, in the game's order.
    pub moves: Vec<(M, AnalysedValue)>,
    /// The moves of the highest value.
    pub best: Vec<M>,
    /// The best line: the best move, then the analyst's choice at each following position.
    pub line: Vec<M>,
    /// The position's value for the side to move (its best move's), or the result of a
    /// finished game.
    pub value: Option<AnalysedValue>,
    /// What the analyst said (depth, nodes, solves) and what the analysis did.
    pub notes: Vec<String>,
    /// [`StopReason::Interrupted`] when the analysis was stopped from outside (its values are
    /// then those of the last completed depth).
    pub stopped: Option<StopReason>,
}

impl<M: Copy + PartialEq> PositionAnalysis<M> {
    /// The discs that playing `mv` gives away against the best move: the position's value
    /// minus the move's, never negative (0 for a best move). `None` where the values are not
    /// discs (win/loss/draw solves, game results), where `mv` was not valued, or where its
    /// value is only an upper bound (the loss is then at least `value - bound`, not known).
    #[must_use]
    pub fn loss(&self, mv: M) -> Option<f64> {
        let best = self.value.as_ref()?;
        let (_, played) = self.moves.iter().find(|(m, _)| *m == mv)?;
        if !best.kind.is_discs() || !played.kind.is_discs() || played.upper_bound {
            return None;
        }
        Some((best.value - played.value).max(0.0))
    }
}

/// Why a position could not be analysed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The analyst's spec does not build.
    #[error(transparent)]
    Build(#[from] BuildAgentError),
    /// The analyst failed.
    #[error(transparent)]
    Agent(#[from] AgentError),
    /// The analyst's explanation valued no move.
    #[error("the analyst `{0}` gave no values")]
    NoValues(String),
    /// An Othello position's analyst must be an `othello` agent ([`othello_analyst`]).
    #[error("{0}: the analyst of a position is an `othello` agent spec")]
    NotOthello(String),
    /// More forced moves in a row than the analysis looks through.
    #[error("more than {FORCED_STEPS} forced moves in a row")]
    TooManyForced,
}

/// Values every legal move of `pos` with `analyst`'s agent (built from `registry`) within
/// `time`, then plays the best line on with its line agent while time is left (the line
/// stops after twice `time` in all, or [`LINE_MOVES`] moves). A set `flag` stops both; the
/// analysis then says [`StopReason::Interrupted`]. A position with one legal move values it
/// by looking through the forced moves that follow ([`FORCED_STEPS`] at most). A finished
/// position gets its result and no moves.
///
/// # Errors
/// [`AnalysisError`] when a spec does not build or the agent fails.
pub fn analyse_position<G: Game>(
    registry: &Registry<G>,
    analyst: &Analyst<G>,
    pos: &G,
    time: Duration,
    flag: &StopFlag,
) -> Result<PositionAnalysis<G::Move>, AnalysisError> {
    let clock = Instant::now();
    let mut rng = Rng::seed_from_u64(0);
    let mut notes = Vec::new();
    if let Some(value) = finished_value(analyst, pos) {
        notes.push("the game is over: its result".into());
        return Ok(PositionAnalysis {
            moves: Vec::new(),
            best: Vec::new(),
            line: Vec::new(),
            value: Some(value),
            notes,
            stopped: None,
        });
    }
    let mut agent = registry.build(&analyst.spec)?;
    agent.set_limits(&Limits::none().with_time(time).with_flag(flag.clone()));
    let legal: Vec<G::Move> = pos.legal_moves().iter().copied().collect();
    let (moves, best) = if legal.len() == 1 {
        // Not searched by every analyst: value the forced move by what follows it.
        let mv = legal[0];
        let after = pos.play_unchecked(mv);
        let value = forced_value(analyst, &mut *agent, &after, &mut rng, &mut notes)?;
        notes.push(format!("{mv} is the only legal move"));
        (vec![(mv, value.negated())], vec![mv])
    } else {
        let why = agent.explain(pos, &mut rng)?;
        notes.extend(why.notes.iter().cloned());
        let moves: Vec<(G::Move, AnalysedValue)> = why
            .moves
            .iter()
            .map(|m| (m.mv, interpret(&analyst.name, m)))
            .collect();
        let top = moves
            .iter()
            .map(|(_, v)| v.value)
            .fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<G::Move> = moves
            .iter()
            .filter(|(_, v)| v.value == top && !v.upper_bound)
            .map(|(m, _)| *m)
            .collect();
        (moves, best)
    };
    let value = best
        .first()
        .and_then(|b| moves.iter().find(|(m, _)| m == b))
        .map(|(_, v)| v.clone());
    let line = match best.first() {
        Some(&first) => best_line(
            registry,
            analyst,
            pos,
            first,
            (clock, time),
            flag,
            &mut rng,
            &mut notes,
        )?,
        None => Vec::new(),
    };
    Ok(PositionAnalysis {
        moves,
        best,
        line,
        value,
        notes,
        stopped: flag.is_set().then_some(StopReason::Interrupted),
    })
}

/// The best line from `pos`: `first`, then the line agent's choice with a
/// [`LINE_STEP_SHARE`] of `time` per move, while the analysis's time (twice `time` from
/// `started`) lasts.
#[allow(clippy::too_many_arguments)]
fn best_line<G: Game>(
    registry: &Registry<G>,
    analyst: &Analyst<G>,
    pos: &G,
    first: G::Move,
    (started, time): (Instant, Duration),
    flag: &StopFlag,
    rng: &mut Rng,
    notes: &mut Vec<String>,
) -> Result<Vec<G::Move>, AnalysisError> {
    let mut line = vec![first];
    let step = time.mul_f64(LINE_STEP_SHARE);
    let mut next = registry.build(&analyst.line_spec)?;
    next.set_limits(&Limits::none().with_time(step).with_flag(flag.clone()));
    let mut at = pos.play_unchecked(first);
    while line.len() < LINE_MOVES && !at.is_over() && !flag.is_set() {
        if started.elapsed() + step > time * 2 {
            notes.push(format!(
                "the best line stops after {} moves: time is up",
                line.len()
            ));
            break;
        }
        let legal = at.legal_moves();
        let mv = if legal.len() == 1 {
            legal[0]
        } else {
            let why = next.explain(&at, rng)?;
            why.best.first().copied().unwrap_or(why.chosen)
        };
        line.push(mv);
        at = at.play_unchecked(mv);
    }
    Ok(line)
}

/// A finished position's value for its side to move, in the analyst's unit.
fn finished_value<G: Game>(analyst: &Analyst<G>, pos: &G) -> Option<AnalysedValue> {
    let first = (analyst.final_value)(pos)?;
    let mover = if pos.side_to_move() == Player::First {
        first
    } else {
        -first
    };
    let kind = match ValueUnit::of(&analyst.name) {
        ValueUnit::Discs => AnalysedKind::Exact,
        ValueUnit::Result => AnalysedKind::Result,
    };
    Some(AnalysedValue::new(kind, mover))
}

/// The value of `pos` for its side to move, looking through forced moves.
fn forced_value<G: Game>(
    analyst: &Analyst<G>,
    agent: &mut dyn yomi_core::Agent<G>,
    pos: &G,
    rng: &mut Rng,
    notes: &mut Vec<String>,
) -> Result<AnalysedValue, AnalysisError> {
    let mut at = pos.clone();
    let mut flips = false;
    for _ in 0..FORCED_STEPS {
        let view = if let Some(v) = finished_value(analyst, &at) {
            v
        } else {
            let legal = at.legal_moves();
            if legal.len() == 1 {
                at = at.play_unchecked(legal[0]);
                flips = !flips;
                continue;
            }
            let why = agent.explain(&at, rng)?;
            notes.extend(why.notes.iter().cloned());
            why.moves
                .iter()
                .map(|m| interpret(&analyst.name, m))
                .filter(|v| !v.upper_bound)
                .max_by(|a, b| a.value.total_cmp(&b.value))
                .ok_or_else(|| AnalysisError::NoValues(analyst.spec.clone()))?
        };
        return Ok(if flips { view.negated() } else { view });
    }
    Err(AnalysisError::TooManyForced)
}
