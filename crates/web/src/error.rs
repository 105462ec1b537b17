//! The errors of the API, each answered with a status code and `{"error": "..."}`.

use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use thiserror::Error;
use yomi_agents::BuildAgentError;
use yomi_core::AgentError;

/// Why an API request was refused or failed.
///
/// Every variant maps to one HTTP status ([`ApiError::status`]); the response body is
/// `{"error": MESSAGE}` with the `Display` text as the message.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ApiError {
    /// The body is not the JSON the endpoint takes (syntax, missing or unknown fields, wrong
    /// content type, too large).
    #[error("bad request body: {message}")]
    Body {
        /// The status the body check chose (400, 413, 415 or 422).
        status: StatusCode,
        /// What was wrong.
        message: String,
    },
    /// No such game (or no game tree for it).
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame {
        /// The name asked for.
        name: String,
        /// The games that exist, comma-separated.
        known: String,
    },
    /// The agent spec does not build.
    #[error(transparent)]
    Agent(#[from] BuildAgentError),
    /// The agent spec is refused by the server (too long, reads server files).
    #[error("agent spec refused: {0}")]
    Refused(String),
    /// A move does not parse in the game's notation.
    #[error("bad move {text:?} (move {index}): {reason}")]
    BadMove {
        /// The move as sent.
        text: String,
        /// Its index in the move list.
        index: usize,
        /// Why it does not parse.
        reason: String,
    },
    /// A move is not legal where it is played (or the game was already over).
    #[error("illegal move {text:?} (move {index}) in position {position}")]
    IllegalMove {
        /// The move as sent.
        text: String,
        /// Its index in the move list.
        index: usize,
        /// The position it was played in.
        position: String,
    },
    /// A set-up start position that does not parse or that the page does not play from.
    #[error("bad position {text:?}: {reason}")]
    BadPosition {
        /// The position as sent (shortened).
        text: String,
        /// Why it is refused.
        reason: String,
    },
    /// A game record to import that does not read, or a format the game has no writer for.
    #[error("cannot read the {format} record: {reason}")]
    BadRecord {
        /// The format (`line`, `ggf`).
        format: String,
        /// What is wrong, with where.
        reason: String,
    },
    /// More moves than any game of the kind can have.
    #[error("too many moves: {count} (at most {limit})")]
    TooManyMoves {
        /// Moves sent.
        count: usize,
        /// The most accepted.
        limit: usize,
    },
    /// The game is over: there is no move for an agent to choose.
    #[error("the game is over: no move to choose")]
    GameOver,
    /// Another parameter is out of range.
    #[error("bad parameter {name}: {reason}")]
    BadParam {
        /// The parameter.
        name: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// Every agent worker stayed busy for the whole waiting time.
    #[error("the server is busy: every agent worker is thinking; try again")]
    Busy,
    /// The agent did not answer within the server's time cap.
    #[error("the agent did not answer within {secs} s")]
    Timeout {
        /// The cap in seconds.
        secs: f64,
    },
    /// The agent failed.
    #[error("the agent failed: {0}")]
    AgentFailed(String),
    /// The request names another host than this machine while the server listens on it only
    /// (a page elsewhere reaching the server through DNS rebinding).
    #[error(
        "host {0:?} is not this machine (the server answers localhost and loopback addresses only)"
    )]
    ForeignHost(String),
    /// No such endpoint.
    #[error("no such endpoint: {method} {path}")]
    NotFound {
        /// The method.
        method: String,
        /// The path.
        path: String,
    },
    /// The endpoint exists but not with this method.
    #[error("method {method} not allowed here")]
    MethodNotAllowed {
        /// The method.
        method: String,
    },
    /// A bug on the server side (a task that panicked, a tree that could not be built).
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The HTTP status of the error.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Body { status, .. } => *status,
            ApiError::UnknownGame { .. } | ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::Agent(_)
            | ApiError::Refused(_)
            | ApiError::BadMove { .. }
            | ApiError::IllegalMove { .. }
            | ApiError::BadPosition { .. }
            | ApiError::BadRecord { .. }
            | ApiError::TooManyMoves { .. }
            | ApiError::GameOver
            | ApiError::BadParam { .. } => StatusCode::BAD_REQUEST,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::ForeignHost(_) => StatusCode::FORBIDDEN,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Timeout { .. } => StatusCode::GATEWAY_TIMEOUT,
            ApiError::AgentFailed(_) | ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::Body {
            status: rejection.status(),
            message: rejection.body_text(),
        }
    }
}

impl From<AgentError> for ApiError {
    fn from(e: AgentError) -> ApiError {
        match e {
            AgentError::GameOver => ApiError::GameOver,
            other => ApiError::AgentFailed(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.to_string() });
        (self.status(), Json(body)).into_response()
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The runtime or the server failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}
