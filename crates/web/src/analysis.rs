//! `POST /api/analyse`: the game's analyst (an agent of its zoo: `othello` for Othello, the
//! exact tree's `perfect` for the small games) values every legal move of a position, within a
//! time limit the client picks under the server's cap; the best line follows.
//!
//! The analysis is the library's ([`yomi_agents::analyse_position`]), shared with
//! `yomi analyse --position` and Python; this module is its HTTP face: the request, the caps,
//! the worker and cancellation, and the JSON. Each move also gets its disc loss
//! ([`yomi_agents::PositionAnalysis::loss`]), from which the page draws its disc-loss graph and table.

use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};
use yomi_agents::{AnalysedValue, AnalysisError, Analyst, Registry, ValueUnit, LINE_STEP_SHARE};
use yomi_core::{Player, StopFlag, StopReason};

use crate::agents::bounded_spec;
use crate::dispatch::dispatch;
use crate::games::{Record, WebGame};
use crate::state::AppState;
use crate::worker::on_worker;
use crate::ApiError;

/// The analysis time when a request names none, in seconds (or the server's cap if smaller).
const DEFAULT_TIME: f64 = 1.0;

/// What the analysis values count for an analyst: `result` (1 win, 0 draw, -1 loss) for the
/// exact tree's agents, `discs` for `othello`.
pub(crate) fn unit_of(analyst: &str) -> &'static str {
    ValueUnit::of(analyst).name()
}

/// One value, from the side to move of the position it belongs to (the library's
/// [`AnalysedValue`] as the page reads it).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ValueView {
    /// `estimate`, `exact`, `wld` or `result`.
    kind: &'static str,
    /// Discs (estimate, exact) or 1 / 0 / -1 (wld, result).
    value: f64,
    /// For the board: `+1.25`, `+18`, `win`, `draw`, `loss` (`≤` before an upper bound).
    text: String,
    /// The search depth of an estimate.
    depth: Option<u32>,
    /// Whether the value is only an upper bound (a move worse than the best whose value a cut
    /// or a limit left unproved).
    upper_bound: bool,
}

impl From<&AnalysedValue> for ValueView {
    fn from(v: &AnalysedValue) -> ValueView {
        ValueView {
            kind: v.kind.name(),
            value: v.value,
            text: v.to_string(),
            depth: v.depth,
            upper_bound: v.upper_bound,
        }
    }
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
    /// The discs the move gives away against the best move (0 for a best move); `null`
    /// where the values are not discs or the move's value is only an upper bound.
    loss: Option<f64>,
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
    bounded_spec(&registry, &text, &app.config)
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
    let analyst = Analyst {
        name: G::ANALYST.to_string(),
        spec: root_spec,
        line_spec,
        final_value: G::final_value,
    };
    let analysis = on_worker(app, flag, move || {
        yomi_agents::analyse_position(&G::zoo(), &analyst, &pos, time, &worker_flag)
            .map_err(api_error)
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
            .iter()
            .map(|(mv, value)| MoveValueView {
                mv: mv.to_string(),
                cell: G::cell(*mv),
                value: value.into(),
                loss: analysis.loss(*mv),
            })
            .collect(),
        best: analysis.best.iter().map(ToString::to_string).collect(),
        line: analysis.line.iter().map(ToString::to_string).collect(),
        value: analysis.value.as_ref().map(ValueView::from),
        value_first,
        notes: analysis.notes,
        stopped: analysis.stopped,
        elapsed_ms: clock.elapsed().as_secs_f64() * 1e3,
    })
}

/// The library's errors as the API's.
fn api_error(e: AnalysisError) -> ApiError {
    match e {
        AnalysisError::Build(e) => ApiError::Agent(e),
        AnalysisError::Agent(e) => e.into(),
        other => ApiError::Internal(other.to_string()),
    }
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
    use yomi_agents::AnalysedKind;

    #[test]
    fn value_views_carry_the_library_value() {
        let mut v = AnalysedValue::new(AnalysedKind::Estimate, 1.254);
        v.depth = Some(7);
        let view = ValueView::from(&v);
        assert_eq!(
            (view.kind, view.value, view.text.as_str(), view.depth),
            ("estimate", 1.254, "+1.25", Some(7))
        );
        let view = ValueView::from(&AnalysedValue::new(AnalysedKind::Wld, -1.0));
        assert_eq!((view.kind, view.text.as_str()), ("wld", "loss"));
        assert_eq!(unit_of("othello"), "discs");
        assert_eq!(unit_of("perfect"), "result");
    }
}
