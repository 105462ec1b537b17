//! `yomi serve`: a local web page to play any game of yomi against any agent of its zoo, and to
//! browse the exact game tree of the small games.
//!
//! The page (HTML, CSS and JavaScript, embedded in the binary, no CDN and no build step) talks
//! to a small JSON API under `/api/` (documented in `docs/api.md`):
//!
//! - `GET /api/games`: the games, and every agent of each zoo with its parameters;
//! - `POST /api/state`: the position after a move list, its legal moves and result;
//! - `POST /api/move`: an agent's move after a move list, with its explanation;
//! - `POST /api/tree`: a position of the solved tree (tic-tac-toe, the stone game, 4x4 Othello), its
//!   children, their exact values, and their boards as SVG drawn by [`yomi_tree::svg`];
//! - `POST /api/analyse`: the game's analyst values every legal move of a position within a
//!   time limit, with the best line; the search stops when the client goes away;
//! - `POST /api/export`, `POST /api/import`: a game record as text (a move line) and back.
//!
//! With [`ServeConfig::book`], every Othello position in the book comes with its book moves
//! and their values (`book` in the position's view).
//!
//! Every position request may carry `start`, a set-up position in the game's notation, which
//! the server checks (the page's position editor).
//!
//! # Safety of a local server
//! - **Stateless**: every request carries the game and the whole move list, which the server
//!   replays and checks, so concurrent sessions share nothing; random seeds come from the
//!   request or a fresh one, and are returned.
//! - **Validated**: bad JSON, unknown fields, unknown games or agents, bad parameters, bad or
//!   illegal moves and bodies over [`ServeConfig::body_limit`] get a 4xx answer with a JSON
//!   `{"error": "..."}` message ([`ApiError`]); nothing a client sends makes the server panic.
//! - **Bounded**: an agent thinks on a blocking worker, at most
//!   [`ServeConfig::agent_workers`] at once; every `time` parameter of a spec (nested ones
//!   included) is capped at [`ServeConfig::think_time`] (a missing or zero `time` becomes the
//!   cap, and so does the no-limit of an `othello:level=N`); an answer later than [`ServeConfig::answer_timeout`] is a 504, and a request that
//!   waits longer than [`ServeConfig::queue_wait`] for a worker is a 503. `table` may read only
//!   the committed data files, and `othello` no weight file (`weights` stays `builtin`) and
//!   no book but the server's (`book` is `off`, or `server` for [`ServeConfig::book`]). An agent or analysis whose request goes away (the client
//!   closed the connection) or times out has its [`yomi_core::StopFlag`] set.
//! - **Local**: the command line binds to `127.0.0.1` unless told otherwise.
//!
//! ```no_run
//! # async fn example() -> Result<(), yomi_web::ServeError> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! println!("serving on http://{}/", listener.local_addr()?);
//! yomi_web::serve(listener, yomi_web::ServeConfig::default()).await?;
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

mod agents;
mod analysis;
mod api;
mod book;
mod dispatch;
mod error;
mod games;
mod othello;
mod page;
mod record;
mod state;
mod tree;
mod worker;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;

pub use error::{ApiError, ServeError};

/// The server's limits.
#[derive(Debug, Clone)]
pub struct ServeConfig {
    /// The most an agent may think per move: every `time` parameter is capped at this.
    pub think_time: Duration,
    /// How many agents may think at once (each on its own blocking thread).
    pub agent_workers: usize,
    /// How long a request waits for a free agent worker before a 503.
    pub queue_wait: Duration,
    /// The largest request body accepted, in bytes (larger: 413).
    pub body_limit: usize,
    /// The directory the `table` agent's data files (`data/tictactoe.tree`,
    /// `data/nim15.tree`) are read from: the repository root (default: the current directory).
    pub data_dir: PathBuf,
    /// Answer only requests whose `Host` header names this machine (`localhost`, a
    /// `*.localhost` name, `127.0.0.1` or `[::1]`, any port) with a 403 for the others, so
    /// that a web page elsewhere cannot reach the server through DNS rebinding. On by default;
    /// `yomi serve` turns it off when told to listen on a non-loopback address.
    pub local_hosts_only: bool,
    /// An opening book (`yomi book`) whose moves the page shows in every Othello position in
    /// it, and that the `othello` agent plays from with `book=server` (the only book a client
    /// may name). `None`: no book.
    pub book: Option<PathBuf>,
}

impl Default for ServeConfig {
    /// 5 s of thinking, one worker per core, 10 s of waiting, 16 KiB bodies, data files in
    /// the current directory, local hosts only, no book.
    fn default() -> Self {
        ServeConfig {
            think_time: Duration::from_secs(5),
            agent_workers: std::thread::available_parallelism().map_or(2, usize::from),
            queue_wait: Duration::from_secs(10),
            body_limit: 16 * 1024,
            data_dir: PathBuf::from("."),
            local_hosts_only: true,
            book: None,
        }
    }
}

impl ServeConfig {
    /// How long the server waits for an agent's answer before a 504: twice the thinking time
    /// and one second (agents read the clock every few playouts or nodes).
    #[must_use]
    pub fn answer_timeout(&self) -> Duration {
        self.think_time.saturating_mul(2) + Duration::from_secs(1)
    }
}

/// The application: the page at `/` and the API under `/api/`.
pub fn router(config: ServeConfig) -> Router {
    let body_limit = config.body_limit;
    let local_hosts_only = config.local_hosts_only;
    let state = state::AppState::new(config);
    let router = Router::new()
        .route("/", get(page::index))
        .route("/app.js", get(page::script))
        .route("/app.css", get(page::style))
        .route("/api/games", get(api::games))
        .route("/api/state", post(api::state))
        .route("/api/move", post(api::agent_move))
        .route("/api/tree", post(api::tree))
        .route("/api/analyse", post(analysis::analyse_position))
        .route("/api/export", post(record::export))
        .route("/api/import", post(record::import))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state);
    if local_hosts_only {
        router.layer(axum::middleware::from_fn(check_host))
    } else {
        router
    }
}

/// Refuses a request whose `Host` header names another machine (see
/// [`ServeConfig::local_hosts_only`]); requests without one pass.
async fn check_host(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    if let Some(host) = request.headers().get(axum::http::header::HOST) {
        let text = String::from_utf8_lossy(host.as_bytes()).into_owned();
        if !is_local_host(&text) {
            return ApiError::ForeignHost(text).into_response();
        }
    }
    next.run(request).await
}

/// Whether a `Host` header value (`name` or `name:port`) names this machine.
fn is_local_host(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        // `[v6]` or `[v6]:port`.
        match rest.split_once(']') {
            Some((v6, _)) => return v6 == "::1",
            None => return false,
        }
    } else {
        host.rsplit_once(':').map_or(host, |(name, _)| name)
    };
    let name = name.to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost") || name == "127.0.0.1"
}

/// Serves the application on `listener` until the process ends.
///
/// # Errors
/// [`ServeError::Io`] when the server fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: ServeConfig,
) -> Result<(), ServeError> {
    axum::serve(listener, router(config)).await?;
    Ok(())
}

/// Binds `addr`, calls `ready` with the address bound (the port chosen when `addr` has port
/// 0), and serves on a multi-threaded runtime until the process ends.
///
/// # Errors
/// [`ServeError::Bind`] when the address cannot be bound, [`ServeError::Io`] when the runtime
/// cannot start or the server fails.
pub fn run(
    addr: SocketAddr,
    config: ServeConfig,
    ready: impl FnOnce(SocketAddr),
) -> Result<(), ServeError> {
    // Blocking threads run agents only, at most `agent_workers` at once (plus a few whose
    // requests timed out while they finish).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(config.agent_workers.max(1) * 2 + 2)
        .build()?;
    runtime.block_on(async move {
        let listener = listen(addr).map_err(|source| ServeError::Bind {
            addr: addr.to_string(),
            source,
        })?;
        ready(listener.local_addr()?);
        serve(listener, config).await
    })
}

/// A listener on `addr` with a backlog of [`BACKLOG`] connections, so that a burst of
/// connections waits in the kernel's queue instead of being dropped and retried a second
/// later.
fn listen(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The listen backlog of [`run`] (the kernel may lower it to its own maximum).
const BACKLOG: u32 = 4096;
