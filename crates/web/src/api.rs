//! The JSON API under `/api/` (documented in `docs/api.md`). Stateless: every request carries
//! the game and its move list, and the server replays it.

use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{Method, Uri};
use axum::Json;
use serde::{Deserialize, Serialize};
use yomi_agents::{known_games, with_game, GameKind, Registry};
use yomi_core::{Clock, Limits, Part, Rng, StopFlag};
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;
use yomi_tree::{parse_alpha, Ratio, Scoring};

use crate::agents::{agent_views, bounded_spec, default_opponent, fresh_seed, AgentView};
use crate::book::BookInfo;
use crate::dispatch::{dispatch, unknown_game};
use crate::games::{Coordinates, Record, SetupView, StateView, WebGame};
use crate::state::AppState;
use crate::tree::{tree_view, TreeView};
use crate::worker::on_worker;
use crate::ApiError;

/// The games the tree browser covers.
const TREE_GAMES: &str = "tictactoe, nim, othello4";

/// Whether the tree browser covers a game (the games of [`TREE_GAMES`]).
fn has_tree(game: GameKind) -> bool {
    matches!(
        game,
        GameKind::Tictactoe | GameKind::Nim | GameKind::Othello4
    )
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
    /// The spec of the opponent the page offers first ([`default_opponent`]).
    opponent: String,
    /// How pieces are drawn: `marks`, `discs` or `stones`.
    look: &'static str,
    /// The labels of the board's columns and rows (`null`: no grid).
    coordinates: Option<Coordinates>,
    /// How the position editor sets up a position.
    setup: SetupView,
    /// The agent spec the analysis runs.
    analyst: &'static str,
    /// What the analysis values count: `discs` (Othello) or `result` (1 win, 0 draw, -1 loss).
    unit: &'static str,
    /// The record formats of `/api/export` and `/api/import`.
    formats: &'static [&'static str],
}

/// `GET /api/games`.
#[derive(Debug, Serialize)]
pub(crate) struct GamesResponse {
    games: Vec<GameInfo>,
    /// The server's cap on an agent's thinking time per move, in seconds.
    think_time: f64,
    /// The server's opening book (`yomi serve --book`), `null` for none.
    book: Option<BookInfo>,
}

fn game_info<G: WebGame>(tree: bool) -> GameInfo {
    GameInfo {
        id: G::NAME,
        title: G::TITLE,
        players: G::PLAYER_NAMES,
        start: G::default().to_string(),
        tree,
        agents: agent_views(&G::zoo()),
        opponent: default_opponent(&G::zoo()),
        look: G::LOOK,
        coordinates: G::coordinates(),
        setup: G::setup(),
        analyst: G::ANALYST,
        unit: crate::analysis::unit_of(G::ANALYST),
        formats: G::FORMATS,
    }
}

/// `GET /api/games`: every game with every agent of its zoo and their parameters, and the
/// server's book.
pub(crate) async fn games(State(app): State<AppState>) -> Result<Json<GamesResponse>, ApiError> {
    Ok(Json(GamesResponse {
        games: known_games()
            .iter()
            .map(|&k| with_game!(k, G => game_info::<G>(has_tree(k))))
            .collect(),
        think_time: app.config.think_time.as_secs_f64(),
        book: app.config.book.as_deref().map(BookInfo::of).transpose()?,
    }))
}

/// The body of `POST /api/state`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StateRequest {
    game: String,
    /// A set-up start position in the game's notation (default: the standard start).
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
}

fn state_for<G: WebGame>(app: &AppState, req: &StateRequest) -> Result<StateView, ApiError> {
    Record::<G>::of(req.start.as_deref(), &req.moves)?.view_in(app)
}

/// `POST /api/state`: the position after a move list, its legal moves and result (and its
/// book moves when the server has a book).
pub(crate) async fn state(
    State(app): State<AppState>,
    body: Result<Json<StateRequest>, JsonRejection>,
) -> Result<Json<StateView>, ApiError> {
    let Json(req) = body?;
    dispatch!(req.game.as_str(), state_for(&app, &req)).map(Json)
}

/// The body of `POST /api/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveRequest {
    game: String,
    start: Option<String>,
    #[serde(default)]
    moves: Vec<String>,
    agent: String,
    seed: Option<u64>,
    /// The agent's game clock, when the game is played to one: the agent plans its time from
    /// it (agents that do not search ignore it), within the server's time cap.
    clock: Option<ClockRequest>,
}

/// A side's game clock in a move request, in seconds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ClockRequest {
    /// The time left on the side's clock.
    remaining: f64,
    /// The time added after each of its moves.
    #[serde(default)]
    increment: f64,
}

/// The longest game clock a request may give, in seconds (a day).
const MAX_CLOCK_SECONDS: f64 = 86_400.0;

impl ClockRequest {
    /// The core's clock, or why these times are refused.
    fn clock(&self) -> Result<Clock, ApiError> {
        let bad = |reason: String| ApiError::BadParam {
            name: "clock",
            reason,
        };
        let ok = |t: f64| t.is_finite() && (0.0..=MAX_CLOCK_SECONDS).contains(&t);
        if !ok(self.remaining) || !ok(self.increment) {
            return Err(bad(format!(
                "remaining and increment are seconds from 0 to {MAX_CLOCK_SECONDS}"
            )));
        }
        if self.remaining == 0.0 {
            return Err(bad(
                "the clock is out of time: no move can be asked for".into()
            ));
        }
        Ok(Clock {
            remaining: Duration::from_secs_f64(self.remaining),
            increment: Duration::from_secs_f64(self.increment),
            moves_to_go: None,
        })
    }
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
    let record = Record::<G>::of(req.start.as_deref(), &req.moves)?;
    if record.pos.is_over() {
        return Err(ApiError::GameOver);
    }
    let registry: Registry<G> = G::zoo();
    let spec = bounded_spec(&registry, &req.agent, &app.config)?;
    let seed = req.seed.unwrap_or_else(fresh_seed);
    let spec_used = spec.clone();
    let start = record.pos.clone();
    let flag = StopFlag::new();
    let clock = req.clock.as_ref().map(ClockRequest::clock).transpose()?;
    // The server's cap, or the time left on the clock if that is less.
    let cap = clock.as_ref().map_or(app.config.think_time, |c| {
        c.remaining.min(app.config.think_time)
    });
    let limits = Limits::none().with_time(cap).with_flag(flag.clone());
    let (why, elapsed) = on_worker(app, flag, move || {
        let mut agent = registry.build(&spec)?;
        agent.set_limits(&limits);
        agent.set_clock(clock.as_ref());
        let mut rng = Rng::seed_from_u64(seed);
        let clock = Instant::now();
        let why = agent.explain(&start, &mut rng)?;
        Ok::<_, ApiError>((why, clock.elapsed()))
    })
    .await?;
    if !record.pos.is_legal(why.chosen) {
        return Err(ApiError::AgentFailed(format!(
            "{spec_used} chose an illegal move: {} in {}",
            why.chosen, record.pos
        )));
    }
    let next = record.then(why.chosen);
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
        state: next.view_in(app)?,
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
        "othello4" => tree_view::<yomi_othello::Othello4>(&req.moves, alpha, scoring),
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
