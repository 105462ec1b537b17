//! Running a handler's body for the game a request names (the games of
//! [`yomi_agents::known_games`]).

use crate::ApiError;

/// Calls `$f::<G>(args)` (awaited with `.await`) for the game named `$game` (a `&str`), or
/// answers "unknown game" listing [`yomi_agents::known_games`].
macro_rules! dispatch {
    ($game:expr, $f:ident ( $($arg:expr),* ) $(.$await:ident)?) => {{
        let name: &str = $game;
        match name.parse::<yomi_agents::GameKind>() {
            Ok(kind) => yomi_agents::with_game!(kind, G => $f::<G>($($arg),*)$(.$await)?),
            Err(_) => Err($crate::dispatch::unknown_game(
                name,
                &yomi_agents::known_game_names(),
            )),
        }
    }};
}

pub(crate) use dispatch;

/// The error for a game name that is not in `known` (the name cut to 40 characters).
pub(crate) fn unknown_game(name: &str, known: &str) -> ApiError {
    ApiError::UnknownGame {
        name: name.chars().take(40).collect(),
        known: known.to_string(),
    }
}
