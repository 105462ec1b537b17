//! The study's published match results, replayed with the arena's `play_match`.

use std::ops::ControlFlow;

use yomi_arena::{play_match, MatchConfig, MatchResult, Tally};
use yomi_tictactoe::TicTacToe;

use crate::Zoo;

fn play(a: &str, b: &str, rounds: u64) -> MatchResult {
    let zoo = TicTacToe::zoo();
    let config = MatchConfig {
        rounds,
        seed: 2024,
        threads: None,
    };
    play_match(
        &TicTacToe::default(),
        &config,
        || zoo.build(a).unwrap(),
        || zoo.build(b).unwrap(),
        |_| ControlFlow::Continue(()),
    )
    .unwrap()
}

/// Asserts that `count / games` is within 4 standard errors of `p` and that the 95% Wilson
/// interval is not far off either (it must contain `p` or miss it by less than 2 standard
/// errors).
fn near(count: u64, games: u64, p: f64, what: &str) {
    let se = (p * (1.0 - p) / games as f64).sqrt();
    let ratio = yomi_arena::wilson(count, games, yomi_arena::Z95);
    assert!(
        (ratio.value - p).abs() < 4.0 * se,
        "{what}: {count}/{games} = {:.4}, expected {p:.4} (se {se:.4})",
        ratio.value
    );
    assert!(
        ratio.low - 2.0 * se <= p && p <= ratio.high + 2.0 * se,
        "{what}: {ratio:?} vs {p}"
    );
}

#[test]
fn ai11s_wins_two_ninths_as_o_and_loses_half_as_x_against_ai10s() {
    let r = play("ai11s", "ai10s", 10_000);
    assert_eq!(r.a_first.games(), 10_000);
    near(
        r.a_first.win,
        r.a_first.games(),
        2.0 / 9.0,
        "ai11s as O wins",
    );
    near(r.a_second.lose, r.a_second.games(), 0.5, "ai11s as X loses");
}

#[test]
fn tuned_ai11s_draws_every_game_against_ai10s() {
    for spec in ["ai11s:score_201=2", "ai11s:score_102=0.5"] {
        let r = play(spec, "ai10s", 10_000);
        let all_drawn = |t: Tally| t.draw == t.games() && t.games() == 10_000;
        assert!(all_drawn(r.a_first), "{spec} as O: {:?}", r.a_first);
        assert!(all_drawn(r.a_second), "{spec} as X: {:?}", r.a_second);
    }
}

#[test]
fn exact_alphabeta_never_loses_and_beats_random_mostly() {
    let r = play("alphabeta", "random", 300);
    assert_eq!(r.total().lose, 0, "{r:?}");
    // Perfect play against random wins well over 90% as O.
    assert!(r.a_first.win > 270, "{r:?}");
}
