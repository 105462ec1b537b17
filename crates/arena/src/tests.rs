use std::ops::ControlFlow;

use yomi_agents::{FirstAgent, RandomAgent};
use yomi_core::{Agent, AgentError, Explanation, Game, Rng};
use yomi_nim::{Nim, Take};
use yomi_tictactoe::TicTacToe;

use super::*;

fn go() -> impl Fn(Progress) -> ControlFlow<()> + Sync {
    |_| ControlFlow::Continue(())
}

fn config(rounds: u64, seed: u64, threads: Option<usize>) -> MatchConfig {
    MatchConfig {
        rounds,
        seed,
        threads,
    }
}

#[test]
fn random_first_player_wins_about_737_of_1260() {
    let r = play_match(
        &TicTacToe::default(),
        &config(10_000, 1, None),
        || RandomAgent,
        || RandomAgent,
        go(),
    )
    .unwrap();
    assert!(r.complete);
    assert_eq!(r.a_first.games(), 10_000);
    assert_eq!(r.a_second.games(), 10_000);
    // A as first player and B as first player both win with probability 737/1260 = 0.58492.
    let first_wins = r.a_first.win + r.a_second.lose;
    let p = first_wins as f64 / 20_000.0;
    assert!((p - 737.0 / 1260.0).abs() < 0.015, "first player won {p}");
    let draws = r.total().draw as f64 / 20_000.0;
    assert!((draws - 8.0 / 63.0).abs() < 0.015, "draws {draws}");
    assert_eq!(r.time[0].moves + r.time[1].moves, {
        // every game has at least 5 and at most 9 moves
        let m = r.time[0].moves + r.time[1].moves;
        assert!((5 * 20_000..=9 * 20_000).contains(&m));
        m
    });
}

#[test]
fn counts_do_not_depend_on_threads() {
    let run = |threads| {
        play_match(
            &TicTacToe::default(),
            &config(2_000, 42, threads),
            || RandomAgent,
            || RandomAgent,
            go(),
        )
        .unwrap()
    };
    let one = run(Some(1));
    let two = run(Some(2));
    let all = run(None);
    for other in [&two, &all] {
        assert_eq!(one.a_first, other.a_first);
        assert_eq!(one.a_second, other.a_second);
        assert_eq!(one.time[0].moves, other.time[0].moves);
    }
    let reseeded = run(Some(1));
    assert_eq!(one.a_first, reseeded.a_first);
    let different = play_match(
        &TicTacToe::default(),
        &config(2_000, 43, Some(2)),
        || RandomAgent,
        || RandomAgent,
        go(),
    )
    .unwrap();
    assert_ne!(
        (one.a_first, one.a_second),
        (different.a_first, different.a_second)
    );
}

#[test]
fn a_single_game_replays_alone() {
    let start = TicTacToe::default();
    for index in [0, 1, 17, 1_000] {
        let x = play_game(&start, &|| RandomAgent, &|| RandomAgent, 5, index).unwrap();
        let y = play_game(&start, &|| RandomAgent, &|| RandomAgent, 5, index).unwrap();
        assert_eq!(x.0, y.0);
    }
}

#[test]
fn first_versus_first_is_deterministic() {
    // O plays (0,0), (2,0), (1,1), (0,2) in row-major order and completes the anti-diagonal
    // before X does, so the first player always wins.
    let r = play_match(
        &TicTacToe::default(),
        &config(50, 3, None),
        || FirstAgent,
        || FirstAgent,
        go(),
    )
    .unwrap();
    assert_eq!(r.a_first.win, 50);
    assert_eq!(r.a_second.lose, 50);
    // In the stone game each player takes 1, so 15 plies: the first player takes the last.
    let r = play_match(
        &Nim::default(),
        &config(10, 3, Some(2)),
        || FirstAgent,
        || FirstAgent,
        go(),
    )
    .unwrap();
    assert_eq!((r.a_first.win, r.a_second.lose), (10, 10));
    assert_eq!(r.time[0].moves, 10 * 8 + 10 * 7);
    assert_eq!(seat_names::<TicTacToe>(), ["o", "x"]);
}

#[test]
fn observer_sees_every_game_and_can_stop() {
    use std::sync::atomic::{AtomicU64, Ordering};
    let last = AtomicU64::new(0);
    let r = play_match(
        &Nim::default(),
        &config(100, 1, Some(2)),
        || RandomAgent,
        || RandomAgent,
        |p: Progress| {
            assert!(p.done >= last.swap(p.done, Ordering::Relaxed));
            assert_eq!(p.total, 200);
            assert_eq!(p.tally.games(), p.done);
            ControlFlow::Continue(())
        },
    )
    .unwrap();
    assert!(r.complete);
    assert_eq!(last.load(Ordering::Relaxed), 200);
    let r = play_match(
        &Nim::default(),
        &config(1_000_000, 1, Some(2)),
        || RandomAgent,
        || RandomAgent,
        |p: Progress| {
            if p.done >= 10 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    )
    .unwrap();
    assert!(!r.complete);
    assert_eq!(r.end, End::Stopped);
    assert!(r.total().games() < 2_000_000);
}

/// Plays a move that is never legal in the stone game's last turns.
#[derive(Debug)]
struct Cheat;

impl Agent<Nim> for Cheat {
    fn spec(&self) -> String {
        "cheat".into()
    }
    fn explain(&mut self, _: &Nim, _: &mut Rng) -> Result<Explanation<Take>, AgentError> {
        unreachable!("not used")
    }
    fn choose(&mut self, _: &Nim, _: &mut Rng) -> Result<Take, AgentError> {
        Ok(Take::new(3).unwrap())
    }
}

/// Gives up at once.
#[derive(Debug)]
struct Quitter;

impl Agent<Nim> for Quitter {
    fn spec(&self) -> String {
        "quitter".into()
    }
    fn explain(&mut self, _: &Nim, _: &mut Rng) -> Result<Explanation<Take>, AgentError> {
        Err(AgentError::Failed {
            agent: "quitter".into(),
            reason: "no data".into(),
        })
    }
}

#[test]
fn misbehaving_agents_and_bad_settings_are_errors() {
    let start: Nim = "2".parse().unwrap();
    let err = play_match(&start, &config(1, 1, Some(1)), || Cheat, || Cheat, go()).unwrap_err();
    assert!(matches!(err, MatchError::IllegalMove { .. }), "{err}");
    assert!(err.to_string().contains("illegal move 3"), "{err}");
    let err = play_match(
        &Nim::default(),
        &config(1, 1, None),
        || Quitter,
        || RandomAgent,
        go(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("no data"), "{err}");
    for bad in [
        config(0, 1, None),
        config(1, 1, Some(0)),
        config(MAX_ROUNDS + 1, 1, None),
    ] {
        let err = play_match(&Nim::default(), &bad, || RandomAgent, || RandomAgent, go());
        assert!(matches!(err, Err(MatchError::BadConfig(_))));
    }
    let over: Nim = "0".parse().unwrap();
    assert!(over.is_over());
    let err = play_match(
        &over,
        &config(1, 1, None),
        || RandomAgent,
        || RandomAgent,
        go(),
    );
    assert!(matches!(err, Err(MatchError::BadConfig(_))));
}
