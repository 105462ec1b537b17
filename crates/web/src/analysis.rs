//! `POST /api/analyse`: the game's analyst (an agent of its zoo: `othello` for Othello, the
//! exact tree's `perfect` for the small games) values every legal move of a position, within a
//! time limit the client picks under the server's cap; the best line follows.
//!
//! The values come from the analyst's explanation. Their meaning depends on the analyst:
//! `perfect` gives the game-theoretic result of each move (1 win, 0 draw, -1 loss for the
//! mover); `othello` gives a midgame search's evaluation (about a hundredth of a disc, at the
//! depth it completed), or, near the end, a win/loss/draw or exact solve (the final disc
//! difference). [`interpret`] turns each into a [`ValueView`] that says which it is.

use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use yomi_agents::Registry;
use yomi_core::{Agent, Game, Limits, MoveScore, Player, Rng, StopFlag, StopReason};
use yomi_othello_search::score_in_discs;

use crate::agents::bounded_spec;
use crate::dispatch::dispatch;
use crate::games::{Record, WebGame};
use crate::state::AppState;
use crate::worker::on_worker;
use crate::ApiError;

/// Positions with one legal move are not searched by every analyst: the analysis looks
/// through at most this many of them (passes, forced replies) to the first real choice.
const FORCED_STEPS: usize = 8;

/// The longest best line, in moves.
const LINE_MOVES: usize = 20;

/// The analysis time when a request names none, in seconds (or the server's cap if smaller).
const DEFAULT_TIME: f64 = 1.0;

/// Each step of the best line gets this fraction of the analysis time.
const LINE_STEP_SHARE: f64 = 0.1;

/// What the analysis values count for an analyst: `result` (1 win, 0 draw, -1 loss) for the
/// exact tree's agents, `discs` for `othello`.
pub(crate) fn unit_of(analyst: &str) -> &'static str {
    if analyst == "othello" {
        "discs"
    } else {
        "result"
    }
}

/// What a value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ValueKind {
    /// A search's estimate at a depth (Othello's midgame search, in discs).
    Estimate,
    /// Solved: the exact final disc difference with best play.
    Exact,
    /// Solved for win, draw or loss only (1, 0, -1).
    Wld,
    /// The game-theoretic result from the exact game tree (1, 0, -1).
    Result,
}

/// One value, from the side to move of the position it belongs to.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ValueView {
    kind: ValueKind,
    /// Discs (estimate, exact) or 1 / 0 / -1 (wld, result).
    value: f64,
    /// For the board: `+1.25`, `+18`, `win`, `draw`, `loss`.
    text: String,
    /// The search depth of an estimate.
    depth: Option<u32>,
}

impl ValueView {
    fn new(kind: ValueKind, value: f64) -> ValueView {
        let text = match kind {
            ValueKind::Wld | ValueKind::Result => match value.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => "win".to_string(),
                Some(std::cmp::Ordering::Less) => "loss".to_string(),
                _ => "draw".to_string(),
            },
            ValueKind::Exact => signed(value, 0),
            ValueKind::Estimate => signed(value, 2),
        };
        ValueView {
            kind,
            value,
            text,
            depth: None,
        }
    }

    /// The same value from the other side.
    fn negated(&self) -> ValueView {
        ValueView {
            depth: self.depth,
            ..ValueView::new(self.kind, -self.value)
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
    if value > 0.0 && !text.chars().all(|c| c == '0' || c == '.') {
        format!("+{text}")
    } else if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        format!("{:.decimals$}", 0.0)
    } else {
        text
    }
}

/// The value of one move of `analyst`'s explanation, from the mover's side.
pub(crate) fn interpret<M: std::fmt::Display>(analyst: &str, score: &MoveScore<M>) -> ValueView {
    if analyst != "othello" {
        // The exact tree's agents: plain minimax, 1 / 0 / -1 for the mover.
        return ValueView::new(ValueKind::Result, sign(score.score));
    }
    let note = score.note.as_deref().unwrap_or_default();
    if note == "exact solve" {
        return ValueView::new(ValueKind::Exact, score.score);
    }
    if note == "WLD solve" {
        return ValueView::new(ValueKind::Wld, sign(score.score));
    }
    let depth = score
        .parts
        .iter()
        .find(|p| p.label == "depth")
        .map(|p| p.value as u32);
    // The midgame search's score, read as game reviews read it: a finished line's disc
    // difference, else an evaluation in hundredths of a disc.
    let discs = score_in_discs(score.score as i32);
    let mut view = if note.ends_with(", exact") {
        // Every line of the search ended the game: a final disc difference.
        ValueView::new(ValueKind::Exact, discs)
    } else {
        ValueView::new(ValueKind::Estimate, discs)
    };
    view.depth = depth;
    view
}

/// The body of `POST /api/analyse`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    game: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// Seconds of analysis (at most the server's cap).
    time: Option<f64>,
}

/// One legal move and its value for the mover.
#[derive(Debug, Serialize)]
pub(crate) struct MoveValueView {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
    value: ValueView,
}

/// The answer of `POST /api/analyse`.
#[derive(Debug, Serialize)]
pub(crate) struct AnalyseResponse {
    game: &'static str,
    position: String,
    ply: usize,
    to_move: Player,
    /// The agent spec that analysed (with the time limit used).
    analyst: String,
    /// `discs` or `result` (see [`unit_of`]).
    unit: &'static str,
    /// The time limit used, in seconds.
    time: f64,
    /// Every legal move with its value for the side to move.
    moves: Vec<MoveValueView>,
    /// The moves of the highest value.
    best: Vec<String>,
    /// The best line: the best move, then the analyst's choice at each following position.
    line: Vec<String>,
    /// The position's value for the side to move (its best move's), or the result of a
    /// finished game.
    value: Option<ValueView>,
    /// The same value from the first player's side, for the evaluation graph.
    value_first: Option<f64>,
    /// What the analyst said (depth, nodes, solves).
    notes: Vec<String>,
    /// `interrupted` when the analysis was stopped from outside (its values are then those of
    /// the last completed depth); `null` otherwise.
    stopped: Option<StopReason>,
    elapsed_ms: f64,
}

/// The analysis of one position, on a worker.
struct Analysis<G: Game> {
    moves: Vec<(G::Move, ValueView)>,
    best: Vec<G::Move>,
    line: Vec<G::Move>,
    value: Option<ValueView>,
    notes: Vec<String>,
    stopped: Option<StopReason>,
}

/// The analyst's spec with a time limit of `secs` where it has a time parameter, bounded
/// like any agent of the server.
fn analyst_spec<G: WebGame>(app: &AppState, secs: f64) -> Result<String, ApiError> {
    let registry: Registry<G> = G::zoo();
    let has_time = registry
        .info(G::ANALYST)
        .is_some_and(|i| i.params.iter().any(|p| p.name == "time"));
    let text = if has_time {
        format!("{}:time={secs}{}", G::ANALYST, G::ANALYST_PARAMS)
    } else {
        G::ANALYST.to_string()
    };
    bounded_spec(
        &registry,
        &text,
        app.config.think_time,
        &app.config.data_dir,
    )
}

fn analyse<G: WebGame>(
    pos: &G,
    (root_spec, line_spec): (&str, &str),
    time: Duration,
    flag: &StopFlag,
) -> Result<Analysis<G>, ApiError> {
    let registry: Registry<G> = G::zoo();
    let clock = Instant::now();
    let mut rng = Rng::seed_from_u64(0);
    let mut notes = Vec::new();
    if let Some(v) = pos.final_value() {
        let mover = if pos.side_to_move() == Player::First {
            v
        } else {
            -v
        };
        let kind = if unit_of(G::ANALYST) == "discs" {
            ValueKind::Exact
        } else {
            ValueKind::Result
        };
        notes.push("the game is over: its result".into());
        return Ok(Analysis {
            moves: Vec::new(),
            best: Vec::new(),
            line: Vec::new(),
            value: Some(ValueView::new(kind, mover)),
            notes,
            stopped: None,
        });
    }
    let mut agent = registry.build(root_spec)?;
    agent.set_limits(&Limits::none().with_time(time).with_flag(flag.clone()));
    let legal: Vec<G::Move> = pos.legal_moves().iter().copied().collect();
    let (moves, best) = if legal.len() == 1 {
        // Not searched by every analyst: value the forced move by what follows it.
        let mv = legal[0];
        let value = forced_value(&mut *agent, &pos.play_unchecked(mv), &mut rng, &mut notes)?;
        notes.push(format!("{mv} is the only legal move"));
        (vec![(mv, value.negated())], vec![mv])
    } else {
        let why = agent.explain(pos, &mut rng)?;
        notes.extend(why.notes.iter().cloned());
        let moves: Vec<(G::Move, ValueView)> = why
            .moves
            .iter()
            .map(|m| (m.mv, interpret(G::ANALYST, m)))
            .collect();
        let top = moves
            .iter()
            .map(|(_, v)| v.value)
            .fold(f64::NEG_INFINITY, f64::max);
        let best: Vec<G::Move> = moves
            .iter()
            .filter(|(_, v)| v.value == top)
            .map(|(m, _)| *m)
            .collect();
        (moves, best)
    };
    let value = best
        .first()
        .and_then(|b| moves.iter().find(|(m, _)| m == b))
        .map(|(_, v)| v.clone());
    // The line: the best move, then the analyst's choice with a short time per move, while
    // time is left.
    let mut line = Vec::new();
    let mut stopped = None;
    if let Some(&first) = best.first() {
        line.push(first);
        let step = time.mul_f64(LINE_STEP_SHARE);
        let mut next = registry.build(line_spec)?;
        next.set_limits(&Limits::none().with_time(step).with_flag(flag.clone()));
        let mut at = pos.play_unchecked(first);
        while line.len() < LINE_MOVES && !at.is_over() {
            if flag.is_set() {
                stopped = Some(StopReason::Interrupted);
                break;
            }
            if clock.elapsed() + step > time * 2 {
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
                let why = next.explain(&at, &mut rng)?;
                why.best.first().copied().unwrap_or(why.chosen)
            };
            line.push(mv);
            at = at.play_unchecked(mv);
        }
    }
    if flag.is_set() {
        stopped = Some(StopReason::Interrupted);
    }
    Ok(Analysis {
        moves,
        best,
        line,
        value,
        notes,
        stopped,
    })
}

/// The value of `pos` for its side to move, looking through forced moves.
fn forced_value<G: WebGame>(
    agent: &mut dyn Agent<G>,
    pos: &G,
    rng: &mut Rng,
    notes: &mut Vec<String>,
) -> Result<ValueView, ApiError> {
    let mut at = pos.clone();
    let mut flips = false;
    for _ in 0..FORCED_STEPS {
        if let Some(v) = at.final_value() {
            let kind = if unit_of(G::ANALYST) == "discs" {
                ValueKind::Exact
            } else {
                ValueKind::Result
            };
            let mover = if at.side_to_move() == Player::First {
                v
            } else {
                -v
            };
            let view = ValueView::new(kind, mover);
            return Ok(if flips { view.negated() } else { view });
        }
        let legal = at.legal_moves();
        if legal.len() == 1 {
            at = at.play_unchecked(legal[0]);
            flips = !flips;
            continue;
        }
        let why = agent.explain(&at, rng)?;
        notes.extend(why.notes.iter().cloned());
        let best = why
            .moves
            .iter()
            .map(|m| interpret(G::ANALYST, m))
            .max_by(|a, b| a.value.total_cmp(&b.value))
            .ok_or_else(|| ApiError::Internal("the analyst gave no values".into()))?;
        return Ok(if flips { best.negated() } else { best });
    }
    Err(ApiError::Internal(format!(
        "more than {FORCED_STEPS} forced moves in a row"
    )))
}

async fn analyse_for<G: WebGame>(
    app: &AppState,
    req: &AnalyseRequest,
) -> Result<AnalyseResponse, ApiError> {
    let cap = app.config.think_time.as_secs_f64();
    let secs = match req.time {
        None => DEFAULT_TIME.min(cap),
        Some(t) if t.is_finite() && t > 0.0 && t <= cap => t,
        Some(t) => {
            return Err(ApiError::BadParam {
                name: "time",
                reason: format!(
                    "{t} s: expected more than 0 and at most {cap} s (the server's cap)"
                ),
            })
        }
    };
    let record = Record::<G>::of(req.start.as_deref(), &req.moves)?;
    let root_spec = analyst_spec::<G>(app, secs)?;
    let line_spec = analyst_spec::<G>(app, (secs * LINE_STEP_SHARE).max(0.01))?;
    let time = Duration::from_secs_f64(secs);
    let flag = StopFlag::new();
    let pos = record.pos.clone();
    let worker_flag = flag.clone();
    let clock = Instant::now();
    let analysis = on_worker(app, flag, move || {
        analyse(&pos, (&root_spec, &line_spec), time, &worker_flag)
    })
    .await?;
    let pos = &record.pos;
    let value_first = analysis.value.as_ref().map(|v| {
        if pos.side_to_move() == Player::First {
            v.value
        } else {
            -v.value
        }
    });
    Ok(AnalyseResponse {
        game: G::NAME,
        position: pos.to_string(),
        ply: record.moves.len(),
        to_move: pos.side_to_move(),
        analyst: analyst_spec::<G>(app, secs)?,
        unit: unit_of(G::ANALYST),
        time: secs,
        moves: analysis
            .moves
            .into_iter()
            .map(|(mv, value)| MoveValueView {
                mv: mv.to_string(),
                cell: G::cell(mv),
                value,
            })
            .collect(),
        best: analysis.best.iter().map(ToString::to_string).collect(),
        line: analysis.line.iter().map(ToString::to_string).collect(),
        value: analysis.value,
        value_first,
        notes: analysis.notes,
        stopped: analysis.stopped,
        elapsed_ms: clock.elapsed().as_secs_f64() * 1e3,
    })
}

/// `POST /api/analyse`: every legal move's value, the best line and the position's value.
pub(crate) async fn analyse_position(
    State(app): State<AppState>,
    body: Result<Json<AnalyseRequest>, JsonRejection>,
) -> Result<Json<AnalyseResponse>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), analyse_for(&app, &req).await).map(Json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_othello_search::FINAL_SCALE;

    #[test]
    fn signed_texts() {
        assert_eq!(signed(1.254, 2), "+1.25");
        assert_eq!(signed(-3.0, 0), "-3");
        assert_eq!(signed(0.0, 0), "0");
        assert_eq!(signed(-0.001, 2), "0.00");
        assert_eq!(signed(18.0, 0), "+18");
    }

    #[test]
    fn othello_values_say_what_they_are() {
        let exact = MoveScore::new("g8", 18.0).with_note("exact solve");
        let v = interpret("othello", &exact);
        assert_eq!(
            (v.kind, v.value, v.text.as_str()),
            (ValueKind::Exact, 18.0, "+18")
        );
        let wld = MoveScore::new("g8", -1.0).with_note("WLD solve");
        let v = interpret("othello", &wld);
        assert_eq!((v.kind, v.text.as_str()), (ValueKind::Wld, "loss"));
        let mid = MoveScore::new("f5", 125.0)
            .with_note("depth 7 search")
            .with_part("depth", 7);
        let v = interpret("othello", &mid);
        assert_eq!(v.kind, ValueKind::Estimate);
        assert_eq!(
            (v.value, v.text.as_str(), v.depth),
            (1.25, "+1.25", Some(7))
        );
        let end = MoveScore::new("f5", f64::from(-4 * FINAL_SCALE))
            .with_note("depth 9 search, exact")
            .with_part("depth", 9);
        let v = interpret("othello", &end);
        assert_eq!(
            (v.kind, v.value, v.text.as_str()),
            (ValueKind::Exact, -4.0, "-4")
        );
        let won = MoveScore::new("f5", f64::from(2 * FINAL_SCALE)).with_note("depth 9 search");
        let v = interpret("othello", &won);
        assert_eq!((v.kind, v.value), (ValueKind::Estimate, 2.0));
        let v = interpret("perfect", &MoveScore::new("(1,1)", 0.0));
        assert_eq!(
            (v.kind, v.value, v.text.as_str()),
            (ValueKind::Result, 0.0, "draw")
        );
        let v = interpret("othello", &MoveScore::new("a1", 0.0).with_note("WLD solve"));
        assert_eq!((v.value, v.text.as_str()), (0.0, "draw"));
        let v = interpret("perfect", &MoveScore::new("(1,1)", -1.0));
        assert_eq!((v.kind, v.text.as_str()), (ValueKind::Result, "loss"));
        assert_eq!(v.negated().text, "win");
    }
}
