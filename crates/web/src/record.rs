//! `POST /api/export` and `POST /api/import`: a game record as text and back.
//!
//! Formats: `line`, the moves in the game's notation (Othello `f5d6c3...` without separators,
//! the others separated by spaces); more per game where [`WebGame::FORMATS`] lists them.

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use serde::{Deserialize, Serialize};

use crate::dispatch::dispatch;
use crate::games::{start_position, Record, StateView, WebGame};
use crate::state::AppState;
use crate::ApiError;

/// The body of `POST /api/export`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExportRequest {
    game: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    /// `line` (default) or another of the game's formats.
    format: Option<String>,
}

/// The answer of `POST /api/export`.
#[derive(Debug, Serialize)]
pub(crate) struct ExportResponse {
    format: String,
    text: String,
    /// The start position when it is not the standard one (a move line does not hold it).
    start: Option<String>,
}

/// The body of `POST /api/import`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ImportRequest {
    game: String,
    /// The record.
    text: String,
    /// `line` (default) or another of the game's formats.
    format: Option<String>,
    /// For a move line: the position it starts from (default: the standard start).
    start: Option<String>,
}

/// The format asked for, if the game has it.
fn format_of<G: WebGame>(format: Option<&str>) -> Result<&'static str, ApiError> {
    let wanted = format.unwrap_or("line");
    G::FORMATS
        .iter()
        .copied()
        .find(|&f| f == wanted)
        .ok_or_else(|| ApiError::BadRecord {
            format: wanted.chars().take(20).collect(),
            reason: format!(
                "{} records are written as {}",
                G::TITLE,
                G::FORMATS.join(" or ")
            ),
        })
}

fn export_for<G: WebGame>(req: &ExportRequest) -> Result<ExportResponse, ApiError> {
    let format = format_of::<G>(req.format.as_deref())?;
    let record = Record::<G>::of(req.start.as_deref(), &req.moves)?;
    let standard = record.start == G::default();
    let text = match format {
        "line" => G::write_line(&record.moves),
        other => G::write_record(other, &record)?,
    };
    Ok(ExportResponse {
        format: format.to_string(),
        text,
        start: (!standard).then(|| record.start.to_string()),
    })
}

fn import_for<G: WebGame>(app: &AppState, req: &ImportRequest) -> Result<StateView, ApiError> {
    let format = format_of::<G>(req.format.as_deref())?;
    let bad = |reason: String| ApiError::BadRecord {
        format: format.to_string(),
        reason,
    };
    let record = match format {
        "line" => {
            let start = start_position::<G>(req.start.as_deref())?;
            let moves = G::read_line(&req.text).map_err(bad)?;
            if moves.len() > G::MAX_MOVES {
                return Err(ApiError::TooManyMoves {
                    count: moves.len(),
                    limit: G::MAX_MOVES,
                });
            }
            let mut record = Record {
                pos: start.clone(),
                start,
                moves: Vec::new(),
            };
            for (i, mv) in moves.into_iter().enumerate() {
                if !record.pos.is_legal(mv) {
                    return Err(bad(format!(
                        "move {} ({mv}) is illegal in position {}",
                        i + 1,
                        record.pos
                    )));
                }
                record = record.then(mv);
            }
            record
        }
        other => G::read_record(other, &req.text)?,
    };
    record.view_in(app)
}

/// `POST /api/export`: the record as text.
pub(crate) async fn export(
    body: Result<Json<ExportRequest>, JsonRejection>,
) -> Result<Json<ExportResponse>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), export_for(&req)).map(Json)
}

/// `POST /api/import`: a record read back; the answer is the position at its end, as
/// `POST /api/state` gives it, with the start and the moves.
pub(crate) async fn import(
    State(app): State<AppState>,
    body: Result<Json<ImportRequest>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), import_for(&app, &req)).map(Json)
}
