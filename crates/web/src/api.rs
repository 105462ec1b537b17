//! The JSON API under `/api/` (documented in `docs/api.md`). Stateless: every request carries
//! the game and its move list, and the server replays it.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{Method, Uri};
use axum::Json;
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;
use yomi_agents::Registry;
use yomi_core::{Part, Rng};
use yomi_nim::Nim;
use yomi_othello::Othello;
use yomi_tictactoe::TicTacToe;
use yomi_tree::{parse_alpha, Ratio, Scoring};

use crate::agents::{agent_views, bounded_spec, fresh_seed, AgentView};
use crate::games::{normalise, replay, state_view, StateView, WebGame};
use crate::tree::{tree_view, TreeView};
use crate::{ApiError, ServeConfig};

/// The games the API plays, by id.
const GAMES: &str = "tictactoe, nim, othello";

/// The games the tree browser covers.
const TREE_GAMES: &str = "tictactoe, nim";

/// What every handler shares: the configuration and the agent workers' permits.
#[derive(Debug, Clone)]
pub(crate) struct AppState {
    pub(crate) config: ServeConfig,
    pub(crate) workers: Arc<Semaphore>,
}

impl AppState {
    pub(crate) fn new(config: ServeConfig) -> AppState {
        AppState {
            workers: Arc::new(Semaphore::new(config.agent_workers.max(1))),
            config,
        }
    }
}

/// Calls `$f::<G>(args)` for the game named `$game`, or answers "unknown game".
macro_rules! dispatch {
    ($game:expr, $f:ident ( $($arg:expr),* ) $(.$await:ident)?) => {
        match $game {
            "tictactoe" => $f::<TicTacToe>($($arg),*)$(.$await)?,
            "nim" => $f::<Nim>($($arg),*)$(.$await)?,
            "othello" => $f::<Othello>($($arg),*)$(.$await)?,
            other => Err(unknown_game(other, GAMES)),
        }
    };
}

fn unknown_game(name: &str, known: &str) -> ApiError {
    ApiError::UnknownGame {
        name: name.chars().take(40).collect(),
        known: known.to_string(),
    }
}

/// One game of `GET /api/games`.
#[derive(Debug, Serialize)]
pub(crate) struct GameInfo {
    id: &'static str,
    title: &'static str,
    players: [&'static str; 2],
    start: String,
    /// Whether the tree browser covers it.
    tree: bool,
    agents: Vec<AgentView>,
}

/// `GET /api/games`.
#[derive(Debug, Serialize)]
pub(crate) struct GamesResponse {
    games: Vec<GameInfo>,
    /// The server's cap on an agent's thinking time per move, in seconds.
    think_time: f64,
}

fn game_info<G: WebGame>(tree: bool) -> GameInfo {
    GameInfo {
        id: G::NAME,
        title: G::TITLE,
        players: G::PLAYER_NAMES,
        start: G::default().to_string(),
        tree,
        agents: agent_views(&G::zoo()),
    }
}

/// `GET /api/games`: every game with every agent of its zoo and their parameters.
pub(crate) async fn games(State(app): State<AppState>) -> Json<GamesResponse> {
    Json(GamesResponse {
        games: vec![
            game_info::<TicTacToe>(true),
            game_info::<Nim>(true),
            game_info::<Othello>(false),
        ],
        think_time: app.config.think_time.as_secs_f64(),
    })
}

/// The body of `POST /api/state`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateRequest {
    game: String,
    #[serde(default)]
    moves: Vec<String>,
}

fn state_for<G: WebGame>(moves: &[String]) -> Result<StateView, ApiError> {
    let pos: G = replay(moves)?;
    Ok(state_view(&pos, normalise::<G>(moves)))
}

/// `POST /api/state`: the position after a move list, its legal moves and result.
pub(crate) async fn state(
    body: Result<Json<StateRequest>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), state_for(&req.moves)).map(Json)
}

/// The body of `POST /api/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    game: String,
    #[serde(default)]
    moves: Vec<String>,
    agent: String,
    seed: Option<u64>,
}

/// One move of an agent's explanation.
#[derive(Debug, Serialize)]
pub(crate) struct ScoreView {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
    score: f64,
    parts: Vec<Part>,
    note: Option<String>,
}

/// An agent's explanation of its choice.
#[derive(Debug, Serialize)]
pub(crate) struct ExplanationView {
    agent: String,
    moves: Vec<ScoreView>,
    best: Vec<String>,
    chosen: String,
    notes: Vec<String>,
}

/// The answer of `POST /api/move`.
#[derive(Debug, Serialize)]
pub(crate) struct MoveResponse {
    #[serde(rename = "move")]
    mv: String,
    cell: Option<usize>,
    /// The spec the agent was built from (with the server's time cap filled in).
    agent: String,
    seed: u64,
    elapsed_ms: f64,
    explanation: ExplanationView,
    /// The position after the move.
    state: StateView,
}

async fn move_for<G: WebGame>(app: &AppState, req: &MoveRequest) -> Result<MoveResponse, ApiError> {
    let pos: G = replay(&req.moves)?;
    if pos.is_over() {
        return Err(ApiError::GameOver);
    }
    let registry: Registry<G> = G::zoo();
    let spec = bounded_spec(
        &registry,
        &req.agent,
        app.config.think_time,
        &app.config.data_dir,
    )?;
    let seed = req.seed.unwrap_or_else(fresh_seed);
    // Wait for a worker; the permit travels with the work, so a worker stays taken until the
    // agent has really finished, even after its request timed out.
    let permit = tokio::time::timeout(
        app.config.queue_wait,
        Arc::clone(&app.workers).acquire_owned(),
    )
    .await
    .map_err(|_| ApiError::Busy)?
    .map_err(|_| ApiError::Internal("the agent workers are closed".into()))?;
    let spec_used = spec.clone();
    let start = pos.clone();
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut agent = registry.build(&spec)?;
        let mut rng = Rng::seed_from_u64(seed);
        let clock = Instant::now();
        let why = agent.explain(&start, &mut rng)?;
        Ok::<_, ApiError>((why, clock.elapsed()))
    });
    let limit = app.config.answer_timeout();
    let (why, elapsed) = match tokio::time::timeout(limit, task).await {
        Err(_) => {
            return Err(ApiError::Timeout {
                secs: limit.as_secs_f64(),
            })
        }
        Ok(Err(join)) => return Err(ApiError::Internal(format!("the agent task failed: {join}"))),
        Ok(Ok(result)) => result?,
    };
    let next = pos
        .play(why.chosen)
        .map_err(|e| ApiError::AgentFailed(format!("{spec_used} chose an illegal move: {e}")))?;
    let mut moves = normalise::<G>(&req.moves);
    moves.push(why.chosen.to_string());
    let explanation = ExplanationView {
        agent: why.agent.clone(),
        moves: why
            .moves
            .iter()
            .map(|m| ScoreView {
                mv: m.mv.to_string(),
                cell: G::cell(m.mv),
                score: m.score,
                parts: m.parts.clone(),
                note: m.note.clone(),
            })
            .collect(),
        best: why.best.iter().map(ToString::to_string).collect(),
        chosen: why.chosen.to_string(),
        notes: why.notes.clone(),
    };
    Ok(MoveResponse {
        mv: why.chosen.to_string(),
        cell: G::cell(why.chosen),
        agent: spec_used,
        seed,
        elapsed_ms: elapsed.as_secs_f64() * 1e3,
        explanation,
        state: state_view(&next, moves),
    })
}

/// `POST /api/move`: an agent chooses the next move and explains it.
pub(crate) async fn agent_move(
    State(app): State<AppState>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<MoveResponse>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), move_for(&app, &req).await).map(Json)
}

/// The body of `POST /api/tree`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct TreeRequest {
    game: String,
    #[serde(default)]
    moves: Vec<String>,
    /// The draw weight of the playout scores (default `1/2`).
    alpha: Option<String>,
    /// Which best moves are framed: `plain` (default) or `sv`.
    scoring: Option<String>,
}

/// `POST /api/tree`: a position of the solved game tree, its children and their values.
pub(crate) async fn tree(
    body: Result<Json<TreeRequest>, JsonRejection>,
) -> Result<Json<TreeView>, ApiError> {
    let Json(req) = body?;
    let alpha_text = req.alpha.as_deref().unwrap_or("1/2");
    if alpha_text.len() > 40 {
        return Err(ApiError::BadParam {
            name: "alpha",
            reason: "too long".into(),
        });
    }
    let alpha: Ratio = parse_alpha(alpha_text).map_err(|e| ApiError::BadParam {
        name: "alpha",
        reason: e.to_string(),
    })?;
    let scoring: Scoring = match req.scoring.as_deref() {
        None => Scoring::Plain,
        Some(text) => text.parse().map_err(|_| ApiError::BadParam {
            name: "scoring",
            reason: "expected plain or sv".into(),
        })?,
    };
    // A few microseconds of work (the first request of a game builds its solution, about a
    // millisecond for tic-tac-toe): done here rather than on a blocking thread.
    let view = match req.game.as_str() {
        "tictactoe" => tree_view::<TicTacToe>(&req.moves, alpha, scoring),
        "nim" => tree_view::<Nim>(&req.moves, alpha, scoring),
        other => Err(unknown_game(other, TREE_GAMES)),
    }?;
    Ok(Json(view))
}

/// Any other path: a JSON 404.
pub(crate) async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound {
        method: method.to_string(),
        path: uri.path().chars().take(200).collect(),
    }
}

/// A known path with the wrong method: a JSON 405.
pub(crate) async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::MethodNotAllowed {
        method: method.to_string(),
    }
}
