//! Playing matches for the commands: a progress bar on standard error and a match between two
//! agent specs that were checked beforehand.

use std::ops::ControlFlow;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use yomi_agents::Registry;
use yomi_arena::{play_match, MatchConfig, MatchError, MatchResult};
use yomi_core::Game;

/// A progress bar on standard error for `games` games (hidden when stderr is not a terminal);
/// `{msg}` shows what is playing.
pub fn games_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} (eta {eta}) {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Plays a match between the agents `a` and `b` of `zoo`, fresh agents for every game, moving
/// `bar` on by one per finished game (from any worker thread).
///
/// Both specs must already have built once: a spec that builds once builds every time.
pub fn play_specs<G: Game>(
    zoo: &Registry<G>,
    start: &G,
    config: &MatchConfig,
    (a, b): (&str, &str),
    bar: &ProgressBar,
) -> Result<MatchResult, MatchError> {
    play_match(
        start,
        config,
        || zoo.build(a).expect("spec checked before the match"),
        || zoo.build(b).expect("spec checked before the match"),
        |_| {
            bar.inc(1);
            ControlFlow::Continue(())
        },
    )
}
