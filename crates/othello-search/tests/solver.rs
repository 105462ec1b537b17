//! The endgame solver against known values (FFO positions 1-39) and against a plain minimax on
//! random positions, in both modes and with 1 and 2 threads.

use yomi_core::testing::random_game_positions;
use yomi_core::{Game, Rng};
use yomi_othello::{Move, Othello};
use yomi_othello_search::{Features, Mode, Solver, SolverConfig};

mod common;
use common::ffo;

/// The plain minimax: every move, no pruning, the exact final disc difference.
fn minimax(pos: &Othello) -> i32 {
    if pos.game_over() {
        return pos.final_score_for_mover();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| -minimax(&pos.play_unchecked(m)))
        .max()
        .expect("an unfinished position has a move")
}

fn solver(threads: usize, features: Features) -> Solver {
    Solver::new(SolverConfig {
        threads,
        hash_mb: 4,
        features,
        // Split even small positions, so the parallel code runs in these tests.
        split_min: 5,
        ..SolverConfig::default()
    })
    .expect("valid config")
}

/// At least 1,000 positions with 1 to 10 empties from random games.
fn random_endgames() -> Vec<Othello> {
    let mut rng = Rng::seed_from_u64(2026);
    let all = random_game_positions(&Othello::new(), 400, &mut rng);
    let mut out: Vec<Othello> = all
        .into_iter()
        .filter(|p| !p.game_over() && p.empties().count() <= 10)
        .collect();
    out.dedup();
    assert!(out.len() >= 1000, "only {} positions", out.len());
    out
}

#[test]
fn agrees_with_minimax_on_random_endgames() {
    let positions = random_endgames();
    let mut single = solver(1, Features::default());
    let mut double = solver(2, Features::default());
    let mut bare = solver(
        1,
        Features {
            table: false,
            mobility_ordering: false,
            shallow_ordering: false,
            learned_ordering: false,
            parity: false,
            stability: false,
            etc: false,
            wld_first: false,
            guess: false,
            hints: false,
            selective: false,
        },
    );
    let mut wins = [0usize; 3];
    for pos in &positions {
        let truth = minimax(pos);
        wins[(truth.signum() + 1) as usize] += 1;
        for s in [&mut single, &mut double, &mut bare] {
            let exact = s.solve(pos, Mode::Exact);
            assert_eq!(exact.score, truth, "{pos}: exact");
            let wld = s.solve(pos, Mode::Wld);
            assert_eq!(wld.score, truth.signum(), "{pos}: wld");
            // The best move keeps the score, and the principal variation reaches it.
            let best = exact.best.expect("unfinished");
            assert_eq!(
                -minimax(&pos.play_unchecked(best)),
                truth,
                "{pos}: best {best}"
            );
            assert_eq!(
                exact.pv.first(),
                Some(&best),
                "{pos}: pv starts with the best move"
            );
            let end = exact.pv.iter().fold(*pos, |p, &m| p.play_unchecked(m));
            assert!(end.game_over(), "{pos}: pv does not end the game");
            let sign = if exact.pv.len() % 2 == 0 { 1 } else { -1 };
            assert_eq!(sign * end.final_score_for_mover(), truth, "{pos}: pv score");
        }
    }
    // The sample holds wins, draws and losses.
    assert!(wins.iter().all(|&n| n > 10), "{wins:?}");
}

#[test]
fn move_values_agree_with_minimax() {
    let positions = random_endgames();
    let mut s = solver(1, Features::default());
    for pos in positions.iter().step_by(10) {
        let values = s.move_values(pos, Mode::Exact);
        let moves = pos.legal_moves();
        assert_eq!(values.len(), moves.len());
        for (v, &m) in values.iter().zip(moves.iter()) {
            assert_eq!(v.mv, m);
            assert_eq!(v.score, -minimax(&pos.play_unchecked(m)), "{pos} {m}");
        }
        let wld = s.move_values(pos, Mode::Wld);
        for (w, e) in wld.iter().zip(&values) {
            assert_eq!(w.score, e.score.signum());
        }
    }
}

#[test]
fn finished_and_passing_positions() {
    let mut s = solver(1, Features::default());
    // A full board: no move, the score is the disc difference.
    let full: Othello = format!("{}{} X", "X".repeat(40), "O".repeat(24))
        .parse()
        .unwrap();
    let sol = s.solve(&full, Mode::Exact);
    assert_eq!((sol.score, sol.best, sol.pv.len()), (16, None, 0));
    assert!(s.move_values(&full, Mode::Exact).is_empty());
    // Black has no move but white has: black passes.
    let pass: Othello = format!("{}X- X", "O".repeat(62)).parse().unwrap();
    assert!(pass.must_pass());
    let sol = s.solve(&pass, Mode::Exact);
    assert_eq!(sol.best, Some(Move::Pass));
    assert_eq!(sol.score, minimax(&pass));
    let values = s.move_values(&pass, Mode::Exact);
    assert_eq!(values.len(), 1);
    assert_eq!(values[0].mv, Move::Pass);
    assert_eq!(values[0].score, minimax(&pass));
}

/// Solves every position exactly and in WLD mode: the score is the first listed one, the best
/// move is one of the listed moves with that score (or proven to have it), and, when
/// `all_moves`, every listed move's score is right.
fn check_ffo(file: &str, threads: usize, all_moves: bool) {
    let mut s = Solver::new(SolverConfig {
        threads,
        ..SolverConfig::default()
    })
    .unwrap();
    for (i, obf) in ffo(file).iter().enumerate() {
        let pos = &obf.position;
        let (_, want) = obf.scores[0];
        let exact = s.solve(pos, Mode::Exact);
        assert_eq!(exact.score, want, "{file} #{i}: {pos}");
        let best = exact.best.expect("unfinished");
        match obf.scores.iter().find(|(m, _)| *m == best) {
            Some(&(_, score)) => assert_eq!(score, want, "{file} #{i}: best {best}"),
            None => {
                let child = s.solve(&pos.play_unchecked(best), Mode::Exact);
                assert_eq!(-child.score, want, "{file} #{i}: best {best}");
            }
        }
        assert_eq!(s.solve(pos, Mode::Wld).score, want.signum(), "{file} #{i}");
        if all_moves {
            let values = s.move_values(pos, Mode::Exact);
            for &(m, score) in &obf.scores {
                let v = values
                    .iter()
                    .find(|v| v.mv == m)
                    .expect("listed move is legal");
                assert_eq!(v.score, score, "{file} #{i}: {m}");
            }
        }
    }
}

#[test]
fn ffo_1_to_19_every_listed_move() {
    check_ffo("fforum-1-19.obf", 1, true);
}

#[test]
fn ffo_20_to_39() {
    check_ffo("fforum-20-39.obf", 1, false);
}

#[test]
fn ffo_1_to_19_with_two_threads() {
    check_ffo("fforum-1-19.obf", 2, false);
}

#[test]
fn threads_agree_on_larger_endgames() {
    let mut rng = Rng::seed_from_u64(7);
    let positions: Vec<Othello> = random_game_positions(&Othello::new(), 40, &mut rng)
        .into_iter()
        .filter(|p| !p.game_over() && (14..=16).contains(&p.empties().count()))
        .collect();
    assert!(positions.len() >= 40, "{}", positions.len());
    let mut one = solver(1, Features::default());
    let mut two = Solver::new(SolverConfig {
        threads: 2,
        hash_mb: 4,
        split_min: 8,
        ..SolverConfig::default()
    })
    .unwrap();
    for pos in &positions {
        for mode in [Mode::Exact, Mode::Wld] {
            let a = one.solve(pos, mode);
            let b = two.solve(pos, mode);
            assert_eq!(a.score, b.score, "{pos} {mode}");
            // The two best moves both keep the score.
            for best in [a.best, b.best] {
                let child = pos.play_unchecked(best.expect("unfinished"));
                let v = -one.solve(&child, mode).score;
                assert_eq!(v, a.score, "{pos} {mode}");
            }
        }
    }
}
