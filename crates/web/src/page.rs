//! The page: HTML, CSS and JavaScript embedded in the binary.

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/app.js");
const STYLE: &str = include_str!("../assets/app.css");

/// Scripts and styles come from this server only; boards are inline SVG.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
                   connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, CSP),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}

/// `GET /`.
pub(crate) async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", INDEX)
}

/// `GET /app.js`.
pub(crate) async fn script() -> impl IntoResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// `GET /app.css`.
pub(crate) async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", STYLE)
}
