//! The study's worked examples and rule checks.

use std::collections::BTreeSet;

use yomi_core::{Agent, Game, Rng};
use yomi_tictactoe::{Square, TicTacToe};

use crate::Zoo;

fn pos(line: &str) -> TicTacToe {
    TicTacToe::new().play_line(line).unwrap()
}

fn squares(list: &[&str]) -> BTreeSet<Square> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// The best set of an agent's explanation, and checks that over many seeds `choose` always
/// lands in it, agrees with `explain` and covers all of it.
fn best_set(spec: &str, state: &TicTacToe) -> BTreeSet<Square> {
    let mut agent = TicTacToe::zoo().build(spec).unwrap();
    let best: BTreeSet<Square> = agent
        .explain(state, &mut Rng::seed_from_u64(0))
        .unwrap()
        .best
        .into_iter()
        .collect();
    let mut seen = BTreeSet::new();
    for seed in 0..200 {
        let mut r1 = Rng::seed_from_u64(seed);
        let mut r2 = r1.clone();
        let chosen = agent.choose(state, &mut r1).unwrap();
        let e = agent.explain(state, &mut r2).unwrap();
        assert_eq!(chosen, e.chosen, "{spec} seed {seed}");
        assert_eq!(r1, r2, "{spec} used the generator differently");
        assert!(
            best.contains(&chosen),
            "{spec} chose {chosen} outside {best:?}"
        );
        seen.insert(chosen);
    }
    assert_eq!(seen, best, "{spec}: 200 seeds should reach every best move");
    best
}

#[test]
fn ai11s_worked_examples() {
    let p = pos("(1,1) (0,0) (2,2)");
    assert_eq!(
        best_set("ai11s", &p),
        squares(&["(2,0)", "(2,1)", "(0,2)", "(1,2)"])
    );
    for spec in ["ai11s:score_201=2", "ai11s:score_102=0.5"] {
        assert_eq!(best_set(spec, &p), squares(&["(2,0)", "(0,2)"]), "{spec}");
    }
}

#[test]
fn ai10s_and_ai11s_worked_line() {
    let p = pos("(1,1) (0,0) (2,2) (0,2)");
    assert_eq!(best_set("ai10s", &p), squares(&["(0,1)"]));
    let p = p.play("(0,1)".parse().unwrap()).unwrap();
    assert_eq!(best_set("ai11s", &p), squares(&["(2,1)"]));
    let p = p.play("(2,1)".parse().unwrap()).unwrap();
    assert_eq!(best_set("ai10s", &p), squares(&["(1,0)", "(2,0)", "(1,2)"]));
}

#[test]
fn ai11s_explanation_shows_counts_and_rules() {
    let p = pos("(1,1) (0,0) (2,2)");
    let mut agent = TicTacToe::zoo().build("ai11s").unwrap();
    let e = agent.explain(&p, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(e.agent, "ai11s:score_201=1,score_102=1,score_012=-1");
    // X at (2,0): X's lines after the move are row 0 (x . x -> 201), column 2 (x . o -> 111),
    // the anti-diagonal (x o . -> 111): threat 201 = 1; no O line with two o's and a gap.
    let m = e
        .moves
        .iter()
        .find(|m| m.mv.to_string() == "(2,0)")
        .unwrap();
    let part = |label: &str| m.parts.iter().find(|p| p.label == label).unwrap().value;
    assert_eq!(part("201"), 1.0);
    assert_eq!(part("021"), 0.0);
    assert_eq!(m.note.as_deref(), Some("lines"));
    assert_eq!(m.score, 1.0 + part("102") - part("012"));
    // A move that leaves O able to complete a line next is scored -100 ("threatened").
    let p2 = pos("(1,1) (0,0) (2,1)");
    let e2 = agent.explain(&p2, &mut Rng::seed_from_u64(1)).unwrap();
    let threatened = e2
        .moves
        .iter()
        .filter(|m| m.note.as_deref() == Some("threatened (021>0)"))
        .count();
    // O has (1,1) and (2,1): row 1 needs (0,1); every X move but (0,1) leaves that threat.
    assert_eq!(threatened, e2.moves.len() - 1);
    assert_eq!(e2.best, vec!["(0,1)".parse::<Square>().unwrap()]);
}

#[test]
fn simple_rules() {
    let empty = TicTacToe::new();
    assert_eq!(best_set("ai1", &empty), squares(&["(0,0)"]));
    assert_eq!(best_set("ai3", &empty), squares(&["(1,1)"]));
    assert_eq!(best_set("ai4s", &empty), squares(&["(1,1)"]));
    assert_eq!(best_set("ai2", &empty).len(), 9);
    // With the centre taken, ai4 takes the first free corner in the order (0,0), (2,0), (0,2),
    // (2,2).
    assert_eq!(best_set("ai4", &pos("(1,1)")), squares(&["(0,0)"]));
    assert_eq!(
        best_set("ai4", &pos("(1,1) (0,0) (2,0)")),
        squares(&["(0,2)"])
    );
    assert_eq!(best_set("ai3", &pos("(1,1)")).len(), 8);
    // O has (0,0) and (1,0); X has (0,1) and (1,1). O wins at (2,0).
    let p = pos("(0,0) (0,1) (1,0) (1,1)");
    for spec in [
        "ai5", "ai6", "ai6s", "ai7s", "ai8s", "ai9s", "ai10s", "ai11s", "ai14s",
    ] {
        assert_eq!(best_set(spec, &p), squares(&["(2,0)"]), "{spec}");
    }
    // O (0,0) (1,0), X (1,1): X has no win and must block (2,0).
    let p = pos("(0,0) (1,1) (1,0)");
    assert_eq!(best_set("ai6", &p), squares(&["(2,0)"]));
    assert_eq!(best_set("ai5", &p).len(), 6);
    // ai7 takes the centre when it is free, even over a win elsewhere.
    let p = pos("(0,0) (0,1) (1,0) (0,2)");
    assert_eq!(best_set("ai7", &p), squares(&["(1,1)"]));
    assert_eq!(best_set("ai6", &p), squares(&["(2,0)"]));
}

#[test]
fn ai14s_special_position() {
    // O (0,0), X (1,1), O (2,2): X answers on an edge (score 100) rather than a corner.
    let p = pos("(0,0) (1,1) (2,2)");
    assert_eq!(
        best_set("ai14s", &p),
        squares(&["(1,0)", "(0,1)", "(2,1)", "(1,2)"])
    );
    let mut agent = TicTacToe::zoo().build("ai14s").unwrap();
    let e = agent.explain(&p, &mut Rng::seed_from_u64(0)).unwrap();
    for m in &e.moves {
        let edge = [1, 3, 5, 7].contains(&m.mv.index());
        assert_eq!(m.score == 100.0, edge, "{}: {}", m.mv, m.score);
    }
}

#[test]
fn every_study_agent_explains_each_move() {
    let zoo = TicTacToe::zoo();
    let p = pos("(1,1) (0,0)");
    for name in [
        "ai1", "ai2", "ai3", "ai4", "ai5", "ai6", "ai6s", "ai7", "ai7s", "ai8s", "ai9s", "ai10s",
        "ai11s", "ai14s",
    ] {
        let mut agent = zoo.build(name).unwrap();
        let e = agent.explain(&p, &mut Rng::seed_from_u64(3)).unwrap();
        assert_eq!(e.moves.len(), 7, "{name}");
        assert!(e.moves.iter().all(|m| m.note.is_some()), "{name}");
        if name.ends_with('s') {
            assert!(e.moves.iter().all(|m| m.parts.len() >= 4), "{name}");
        }
    }
}

/// `ai11s` sums its weights exactly: with weights whose binary expansions are inexact (0.2,
/// 0.1, -0.3), equal decimal sums still tie (e.g. 3 * 0.1 - 0.3 = 0) and every move with the
/// top exact score is in the best set, on every reachable position.
#[test]
fn ai11s_ties_are_exact_with_decimal_weights() {
    let (w201, w102, w012) = (200_000_i64, 100_000_i64, -300_000_i64);
    let mut agent = TicTacToe::zoo()
        .build("ai11s:score_201=0.2,score_102=0.1,score_012=-0.3")
        .unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut queue = vec![TicTacToe::new()];
    let mut exact_ties = 0;
    while let Some(p) = queue.pop() {
        if p.is_over() || !seen.insert(p) {
            continue;
        }
        let e = agent.explain(&p, &mut Rng::seed_from_u64(1)).unwrap();
        let exact: Vec<i64> = e
            .moves
            .iter()
            .map(|m| {
                let part =
                    |label: &str| m.parts.iter().find(|x| x.label == label).unwrap().value as i64;
                if m.note.as_deref() == Some("lines") {
                    w201 * i64::from(part("201") == 1) + w102 * part("102") + w012 * part("012")
                } else {
                    // The fixed rules score whole numbers.
                    assert_eq!(m.score.fract(), 0.0);
                    m.score as i64 * 1_000_000
                }
            })
            .collect();
        let top = *exact.iter().max().unwrap();
        let best: Vec<Square> = e
            .moves
            .iter()
            .zip(&exact)
            .filter(|(_, &x)| x == top)
            .map(|(m, _)| m.mv)
            .collect();
        assert_eq!(e.best, best, "at {p}");
        if best.len() > 1 {
            exact_ties += 1;
        }
        for mv in p.legal_moves() {
            queue.push(p.play_unchecked(mv));
        }
    }
    assert_eq!(seen.len(), 4_520);
    assert!(exact_ties > 100);
}
