//! Position analysis ([`analyse_position`]): every value read as what it is, losses equal to
//! the solver's differences, forced moves looked through, finished games, a stop from outside.

use std::time::Duration;

use yomi_core::testing::random_game_line;
use yomi_core::{Game, MoveScore, Rng, StopFlag, StopReason};
use yomi_othello::{Move, Othello};
use yomi_othello_search::{Mode, Solver, SolverConfig, FINAL_SCALE};
use yomi_tictactoe::TicTacToe;

use crate::{
    analyse_position, interpret, result_value, score_value, AnalysedKind, AnalysedValue, Analyst,
    ValueUnit, Zoo,
};

fn othello_analyst(spec: &str) -> Analyst<Othello> {
    Analyst {
        name: "othello".into(),
        spec: spec.into(),
        line_spec: spec.into(),
        final_value: score_value::<Othello>,
    }
}

/// A position of a seeded random game with `empties` empty squares (`None` if the game ended
/// sooner).
fn position_at(seed: u64, empties: u32) -> Option<Othello> {
    let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
    let mut pos = Othello::new();
    for mv in line {
        if pos.empties().count() == empties && pos.legal_moves().len() > 1 {
            return Some(pos);
        }
        pos = pos.play_unchecked(mv);
    }
    None
}

#[test]
fn values_say_what_they_are() {
    let exact = MoveScore::new("g8", 18.0).with_note("exact solve");
    let v = interpret("othello", &exact);
    assert_eq!(
        (v.kind, v.value, v.to_string()),
        (AnalysedKind::Exact, 18.0, "+18".into())
    );
    assert!(!v.upper_bound);
    // The agent's longer notes start with the solve's name.
    let best = MoveScore::new("g8", -6.0).with_note("exact solve, the best move only");
    assert_eq!(interpret("othello", &best).kind, AnalysedKind::Exact);
    let bound =
        MoveScore::new("a1", 4.0).with_note("exact solve, stopped at a limit: an upper bound");
    let v = interpret("othello", &bound);
    assert_eq!(
        (v.kind, v.value, v.upper_bound),
        (AnalysedKind::Exact, 4.0, true)
    );
    assert_eq!(v.to_string(), "≤+4");
    let wld = MoveScore::new("g8", -1.0).with_note("WLD solve");
    let v = interpret("othello", &wld);
    assert_eq!((v.kind, v.to_string()), (AnalysedKind::Wld, "loss".into()));
    let mid = MoveScore::new("f5", 125.0)
        .with_note("depth 7 search, learned evaluation")
        .with_part("depth", 7);
    let v = interpret("othello", &mid);
    assert_eq!(
        (v.kind, v.value, v.to_string(), v.depth),
        (AnalysedKind::Estimate, 1.25, "+1.25".into(), Some(7))
    );
    let end = MoveScore::new("f5", f64::from(-4 * FINAL_SCALE))
        .with_note("depth 9 search, exact")
        .with_part("depth", 9);
    let v = interpret("othello", &end);
    assert_eq!(
        (v.kind, v.value, v.to_string()),
        (AnalysedKind::Exact, -4.0, "-4".into())
    );
    let cut = MoveScore::new("f5", f64::from(-4 * FINAL_SCALE))
        .with_note("depth 9 search, exact, an upper bound (the move is worse than the best)");
    let v = interpret("othello", &cut);
    assert_eq!((v.kind, v.upper_bound), (AnalysedKind::Exact, true));
    let won = MoveScore::new("f5", f64::from(2 * FINAL_SCALE)).with_note("depth 9 search");
    assert_eq!(
        (
            interpret("othello", &won).kind,
            interpret("othello", &won).value
        ),
        (AnalysedKind::Estimate, 2.0)
    );
    let v = interpret("perfect", &MoveScore::new("(1,1)", 0.0));
    assert_eq!(
        (v.kind, v.value, v.to_string()),
        (AnalysedKind::Result, 0.0, "draw".into())
    );
    let v = interpret("perfect", &MoveScore::new("(1,1)", -1.0));
    assert_eq!(
        (v.kind, v.to_string()),
        (AnalysedKind::Result, "loss".into())
    );
    assert_eq!(v.negated().to_string(), "win");
    assert_eq!(
        AnalysedValue::new(AnalysedKind::Estimate, -0.001).to_string(),
        "0.00"
    );
    assert_eq!(
        AnalysedValue::new(AnalysedKind::Exact, 0.0).to_string(),
        "0"
    );
    assert_eq!(ValueUnit::of("othello").name(), "discs");
    assert_eq!(ValueUnit::of("perfect").name(), "result");
}

/// The analysis near the end solves every move: each value is minus the solver's value of
/// the position after it, and each loss is the difference of exact values.
#[test]
fn losses_near_the_end_are_the_solvers_differences() {
    let analyst = othello_analyst("othello:time=0,exact=14,wld=14,hash_mb=1");
    let zoo = Othello::zoo();
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 1,
        ..SolverConfig::default()
    })
    .unwrap();
    let mut checked = 0;
    for seed in 1..=6 {
        let Some(pos) = position_at(seed, 12) else {
            continue;
        };
        let a = analyse_position(
            &zoo,
            &analyst,
            &pos,
            Duration::from_secs(60),
            &StopFlag::new(),
        )
        .unwrap();
        assert_eq!(a.moves.len(), pos.legal_moves().len());
        let best = solver.solve(&pos, Mode::Exact).score;
        let value = a.value.as_ref().unwrap();
        assert_eq!(
            (value.kind, value.value),
            (AnalysedKind::Exact, f64::from(best))
        );
        for (mv, v) in &a.moves {
            let after = pos.play_unchecked(*mv);
            let exact = match after.final_score_for_mover_opt() {
                Some(s) => -s,
                None => -solver.solve(&after, Mode::Exact).score,
            };
            assert_eq!(
                (v.kind, v.value),
                (AnalysedKind::Exact, f64::from(exact)),
                "{pos} {mv}"
            );
            assert_eq!(a.loss(*mv), Some(f64::from(best - exact)), "{pos} {mv}");
            assert_eq!(a.best.contains(mv), best == exact);
        }
        assert_eq!(a.line.first(), a.best.first());
        assert_eq!(a.stopped, None);
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} positions");
}

trait FinalForMover {
    fn final_score_for_mover_opt(&self) -> Option<i32>;
}

impl FinalForMover for Othello {
    fn final_score_for_mover_opt(&self) -> Option<i32> {
        self.is_over().then(|| self.final_score_for_mover())
    }
}

#[test]
fn a_forced_move_is_valued_by_what_follows_and_a_finished_game_by_its_result() {
    // Seeded random games' positions with one legal move that is not a pass.
    let analyst = othello_analyst("othello:time=0,depth=2,exact=10,wld=10,hash_mb=1");
    let zoo = Othello::zoo();
    let mut found = 0;
    for seed in 1..=40 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        let mut pos = Othello::new();
        for mv in line {
            let legal = pos.legal_moves();
            if legal.len() == 1 && legal[0] != Move::Pass && pos.empties().count() <= 10 {
                let a = analyse_position(
                    &zoo,
                    &analyst,
                    &pos,
                    Duration::from_secs(60),
                    &StopFlag::new(),
                )
                .unwrap();
                assert_eq!(a.best, vec![legal[0]]);
                assert_eq!(a.loss(legal[0]), Some(0.0));
                let mut solver = Solver::new(SolverConfig {
                    hash_mb: 1,
                    ..SolverConfig::default()
                })
                .unwrap();
                let exact = solver.solve(&pos, Mode::Exact).score;
                let v = a.value.unwrap();
                assert_eq!((v.kind, v.value), (AnalysedKind::Exact, f64::from(exact)));
                assert!(a.notes.iter().any(|n| n.contains("only legal move")));
                found += 1;
                break;
            }
            pos = pos.play_unchecked(mv);
        }
        if found >= 2 {
            break;
        }
    }
    assert!(found >= 1, "no forced position in 40 games");
    // A finished game: its final disc difference for the side to move, no moves.
    let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(3));
    let end = line
        .iter()
        .fold(Othello::new(), |p, &mv| p.play_unchecked(mv));
    let a = analyse_position(
        &zoo,
        &analyst,
        &end,
        Duration::from_secs(60),
        &StopFlag::new(),
    )
    .unwrap();
    assert!(a.moves.is_empty() && a.best.is_empty());
    let v = a.value.unwrap();
    assert_eq!(
        (v.kind, v.value),
        (AnalysedKind::Exact, f64::from(end.final_score_for_mover()))
    );
    // Tic-tac-toe's analyst counts results.
    let ttt = Analyst {
        name: "perfect".into(),
        spec: "perfect".into(),
        line_spec: "perfect".into(),
        final_value: result_value::<TicTacToe>,
    };
    let a = analyse_position(
        &TicTacToe::zoo(),
        &ttt,
        &TicTacToe::new(),
        Duration::from_secs(60),
        &StopFlag::new(),
    )
    .unwrap();
    assert_eq!(a.moves.len(), 9);
    assert!(a
        .moves
        .iter()
        .all(|(_, v)| v.kind == AnalysedKind::Result && v.value == 0.0));
    assert_eq!(a.best.len(), 9);
    assert_eq!(a.loss(a.moves[0].0), None, "results are not discs");
    assert_eq!(a.value.unwrap().to_string(), "draw");
}

#[test]
fn a_stop_from_outside_says_interrupted() {
    let analyst = othello_analyst("othello:time=5,hash_mb=1");
    let flag = StopFlag::new();
    flag.stop();
    let a = analyse_position(
        &Othello::zoo(),
        &analyst,
        &Othello::new(),
        Duration::from_secs(5),
        &flag,
    )
    .unwrap();
    assert_eq!(a.stopped, Some(StopReason::Interrupted));
    assert_eq!(a.line.len(), 1, "the line stops at once");
    assert_eq!(a.moves.len(), 4);
}
