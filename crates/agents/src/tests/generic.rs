//! Laws every registered agent keeps, on every game with a zoo.

use yomi_core::{AgentError, Game, Rng};
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;

use crate::{BuildAgentError, Zoo};

/// Builds every agent of the zoo at its defaults and plays whole games with it on both sides:
/// `choose` and `explain` agree and consume the generator alike, moves are legal, every legal
/// move is explained, and a finished position is `GameOver`. Agents named in `play_as` play
/// with the spec given there instead of their defaults (a time limit would make `choose` and
/// `explain` depend on the machine's speed).
fn zoo_laws<G: Zoo>(starts: &[G], games: u64, play_as: &[(&str, &str)]) {
    let zoo = G::zoo();
    // `table` needs a file; it has its own tests.
    for name in zoo.infos().filter(|i| i.builds_bare()).map(|i| i.name) {
        let mut agent = zoo.build(name).unwrap();
        // The spec round-trips: building from it gives the same spec.
        let spec = agent.spec();
        assert_eq!(zoo.build(&spec).unwrap().spec(), spec, "{name}");
        assert!(spec.starts_with(name), "{spec}");
        if let Some((_, play)) = play_as.iter().find(|(n, _)| *n == name) {
            agent = zoo.build(play).unwrap();
        }
        let spec = agent.spec();
        for start in starts {
            for game in 0..games {
                let mut pos = start.clone();
                let mut seed = game * 1000;
                while !pos.is_over() {
                    let mut r1 = Rng::seed_from_u64(seed);
                    let mut r2 = r1.clone();
                    let chosen = agent.choose(&pos, &mut r1).unwrap();
                    let e = agent.explain(&pos, &mut r2).unwrap();
                    assert_eq!(chosen, e.chosen, "{spec} at {pos}");
                    assert_eq!(r1, r2, "{spec} used the generator differently at {pos}");
                    assert!(
                        pos.is_legal(chosen),
                        "{spec} chose illegal {chosen} at {pos}"
                    );
                    let explained: Vec<G::Move> = e.moves.iter().map(|m| m.mv).collect();
                    assert_eq!(explained, pos.legal_moves().to_vec(), "{spec} at {pos}");
                    assert!(!e.best.is_empty(), "{spec}");
                    if name != "blunder" {
                        assert!(e.best.contains(&chosen), "{spec} at {pos}");
                    }
                    pos = pos.play_unchecked(chosen);
                    seed += 1;
                }
                let mut rng = Rng::seed_from_u64(0);
                assert_eq!(agent.choose(&pos, &mut rng), Err(AgentError::GameOver));
                assert!(matches!(
                    agent.explain(&pos, &mut rng),
                    Err(AgentError::GameOver)
                ));
            }
        }
    }
}

#[test]
fn every_tictactoe_agent_keeps_the_laws() {
    zoo_laws(&[TicTacToe::default()], 2, &[]);
}

#[test]
fn every_othello_agent_keeps_the_laws() {
    // From the opening and from a late midgame (14 empties), to keep the searches quick.
    let mut late = yomi_othello::Othello::default();
    let mut rng = Rng::seed_from_u64(5);
    while late.empties().count() > 14 {
        let moves = late.legal_moves();
        late = late.play_unchecked(moves[rng.below(moves.len())]);
    }
    // `othello` without a time limit, shallow, solving from 12 empties (WLD) and 10 (exact):
    // every path of the agent, deterministically.
    zoo_laws(
        &[yomi_othello::Othello::default(), late],
        1,
        &[("othello", "othello:time=0,depth=3,wld=12,exact=10")],
    );
}

#[test]
fn every_nim_agent_keeps_the_laws() {
    zoo_laws(&[Nim::default(), "5:second".parse().unwrap()], 2, &[]);
}

#[test]
fn the_zoos_hold_the_study_and_the_generic_agents() {
    let names = TicTacToe::zoo().names();
    for name in [
        "random",
        "first",
        "ai1",
        "ai1s",
        "ai2",
        "ai2s",
        "ai3",
        "ai3s",
        "ai4",
        "ai4s",
        "ai5",
        "ai5s",
        "ai6",
        "ai6s",
        "ai7",
        "ai7s",
        "ai8s",
        "ai9s",
        "ai10s",
        "ai11s",
        "ai14s",
        "pmc",
        "pmc2",
        "mcts",
        "greedy",
        "minimax",
        "alphabeta",
        "average",
        "blunder",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let nim = Nim::zoo().names();
    assert!(nim.contains(&"alphabeta") && nim.contains(&"blunder") && nim.contains(&"pmc2"));
    assert!(!nim.contains(&"ai11s"));
    // Every parameter has a help line and a default the builder accepts (checked by building
    // above); names are unique.
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
}

#[test]
fn bad_specs_are_rejected() {
    let zoo = TicTacToe::zoo();
    for (spec, unknown_param) in [
        ("ai11s:score_103=1", true),
        ("pmc:alpha=0.5", true),
        ("alphabeta:iters=3", true),
        ("ai10s:score_201=2", true),
        ("pmc:pnum=0", false),
        ("pmc2:alpha=2", false),
        ("minimax:depth=0", false),
        ("minimax:depth=65", false),
        ("mcts:c=-1", false),
        ("alphabeta:time=-1", false),
        ("ai11s:score_102=x", false),
        ("blunder:p=1.5", false),
    ] {
        let err = zoo.build(spec).unwrap_err();
        if unknown_param {
            assert!(
                matches!(err, BuildAgentError::UnknownParam { .. }),
                "{spec}: {err}"
            );
        } else {
            assert!(
                matches!(err, BuildAgentError::BadValue { .. }),
                "{spec}: {err}"
            );
        }
    }
    let err = zoo.build("blunder:agent=(pmc:pnum=zero)").unwrap_err();
    assert!(matches!(err, BuildAgentError::Inner { .. }), "{err}");
    assert!(err.to_string().contains("pnum"), "{err}");
    let err = zoo.build("blunder:agent=nothing").unwrap_err();
    assert!(err.to_string().contains("unknown agent"), "{err}");
    // Deep nesting is refused, not a stack overflow.
    let mut deep = "random".to_string();
    for _ in 0..10_000 {
        deep = format!("blunder:agent=({deep})");
    }
    assert!(zoo.build(&deep).is_err());
}

#[test]
fn specs_round_trip_with_values() {
    let zoo = TicTacToe::zoo();
    for (given, full) in [
        (
            "ai11s:score_102=0.5",
            "ai11s:score_201=1,score_102=0.5,score_012=-1",
        ),
        ("pmc2:alpha=0.25", "pmc2:pnum=1000,time=0,alpha=0.25"),
        ("pmc:time=0.5,pnum=10", "pmc:pnum=10,time=0.5"),
        ("alphabeta:depth=3", "alphabeta:depth=3,time=0"),
        ("greedy", "greedy:time=0"),
        ("mcts:iters=50,c=2", "mcts:iters=50,time=0,c=2"),
        (
            "blunder:agent=(pmc2:pnum=100),p=0.2",
            "blunder:p=0.2,agent=(pmc2:pnum=100,time=0,alpha=0.5)",
        ),
        (
            "blunder:agent=(blunder:agent=ai1)",
            "blunder:p=0.1,agent=(blunder:p=0.1,agent=ai1)",
        ),
    ] {
        let spec = zoo.build(given).unwrap().spec();
        assert_eq!(spec, full);
        assert_eq!(zoo.build(&spec).unwrap().spec(), full);
    }
}
