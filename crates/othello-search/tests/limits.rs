//! The solver's hard cases and its limits: FFO #59 (a +64 wipeout whose exact solve used to
//! explode), and solves stopped by a node budget, a time limit or the stop flag, which must
//! report bounds that contain the true score and a best move that reaches the lower bound.

use std::time::Duration;

use yomi_core::{Game, Limits, StopFlag, StopReason};
use yomi_othello::{ObfPosition, Othello};
use yomi_othello_search::{BestFrom, Features, Mode, Solver, SolverConfig};

mod common;
use common::ffo;

fn solver(threads: usize) -> Solver {
    Solver::new(SolverConfig {
        threads,
        hash_mb: 16,
        ..SolverConfig::default()
    })
    .expect("valid config")
}

/// A 1-thread solver with the default table and the technique `name` off.
fn solver_without(name: &str) -> Solver {
    Solver::new(SolverConfig {
        features: Features::default().without(name).unwrap(),
        ..SolverConfig::default()
    })
    .expect("valid config")
}

/// FFO #59: 34 empties, black wins by 64. The node counts are bounded so that the explosion
/// (hundreds of millions of nodes after the WLD solve) cannot come back unnoticed.
#[test]
fn ffo_59_exact_and_wld() {
    let obf = &ffo("fforum-50-59.obf")[9];
    assert_eq!(obf.position.empties().count(), 34);
    for threads in [1, 2] {
        let mut s = solver(threads);
        let exact = s.solve(&obf.position, Mode::Exact);
        assert_eq!(exact.score, 64);
        assert!(exact.is_solved());
        assert!(exact.nodes < 20_000_000, "{} nodes", exact.nodes);
        let best = exact.best.expect("unfinished");
        assert!(
            obf.scores.iter().any(|&(m, v)| m == best && v == 64),
            "{best}"
        );
        s.clear();
        let wld = s.solve(&obf.position, Mode::Wld);
        assert_eq!((wld.score, wld.lower, wld.upper), (1, 1, 1));
        assert!(wld.nodes < 20_000_000, "{} nodes", wld.nodes);
    }
}

/// Checks a stopped (or finished) solution against the published score: the bounds contain
/// it, and a best move proved to reach the lower bound does reach it.
fn check_bounds(
    s: &mut Solver,
    obf: &ObfPosition,
    mode: Mode,
    sol: &yomi_othello_search::Solution,
) {
    let want = match mode {
        Mode::Exact => obf.scores[0].1,
        Mode::Wld => obf.scores[0].1.signum(),
    };
    let pos = &obf.position;
    assert!(
        sol.lower <= want && want <= sol.upper,
        "{pos}: [{}, {}] excludes {want}",
        sol.lower,
        sol.upper
    );
    assert_eq!(sol.score, sol.lower);
    assert_eq!(sol.is_solved(), sol.stopped.is_none());
    if sol.is_solved() {
        assert_eq!(sol.lower, sol.upper);
    }
    let best = sol.best.expect("unfinished positions have a best move");
    assert!(pos.legal_moves().contains(&best));
    if sol.best_from == BestFrom::Proof {
        s.clear();
        let child = s.solve(&pos.play_unchecked(best), mode);
        // The child's score from its mover's side, in the same mode (a disc difference or a
        // sign): negated, the value of `best` for the root's mover.
        let v = -child.score;
        assert!(v >= sol.lower, "{pos}: {best} scores {v} < {}", sol.lower);
    }
}

#[test]
fn node_budgets_give_bounds_that_contain_the_score() {
    let positions = ffo("fforum-20-39.obf");
    let mut stopped = 0;
    for threads in [1, 2] {
        let mut s = solver(threads);
        for obf in positions.iter().step_by(3) {
            for mode in [Mode::Exact, Mode::Wld] {
                for budget in [2_000, 50_000, 400_000] {
                    s.clear();
                    let limits = Limits::none().with_nodes(budget);
                    let sol = s.solve_limited(&obf.position, mode, &limits);
                    if let Some(reason) = sol.stopped {
                        assert_eq!(reason, StopReason::Nodes);
                        stopped += 1;
                    }
                    check_bounds(&mut s, obf, mode, &sol);
                }
            }
        }
    }
    // The budgets are small enough that most of these solves stop.
    assert!(stopped >= 20, "only {stopped} solves stopped");
}

#[test]
fn a_time_limit_stops_a_long_solve() {
    // FFO #49: 26 empties, far more than 0.2 s on any machine.
    let obf = &ffo("fforum-40-49.obf")[9];
    let mut s = solver(2);
    let limits = Limits::none().with_time(Duration::from_millis(200));
    let sol = s.solve_limited(&obf.position, Mode::Exact, &limits);
    assert_eq!(sol.stopped, Some(StopReason::Time));
    assert!(sol.elapsed < Duration::from_secs(20), "{:?}", sol.elapsed);
    assert_eq!(sol.pv.len(), 1);
    check_bounds(&mut s, obf, Mode::Exact, &sol);
}

#[test]
fn a_set_flag_stops_at_once_with_the_whole_range() {
    let obf = &ffo("fforum-40-49.obf")[0];
    let flag = StopFlag::new();
    flag.stop();
    let mut s = solver(1);
    for mode in [Mode::Exact, Mode::Wld] {
        let sol = s.solve_limited(&obf.position, mode, &Limits::none().with_flag(flag.clone()));
        assert_eq!(sol.stopped, Some(StopReason::Interrupted));
        let (lo, hi) = match mode {
            Mode::Exact => (-64, 64),
            Mode::Wld => (-1, 1),
        };
        assert_eq!((sol.lower, sol.upper), (lo, hi));
        assert_eq!(sol.best_from, BestFrom::Ordering);
        assert!(obf.position.legal_moves().contains(&sol.best.unwrap()));
    }
}

#[test]
fn limited_move_values_bound_the_exact_ones() {
    let obf = &ffo("fforum-1-19.obf")[3];
    let mut s = solver(1);
    let exact = s.move_values(&obf.position, Mode::Exact);
    for budget in [1_000, 20_000, 200_000] {
        s.clear();
        let limited = s.move_values_limited(
            &obf.position,
            Mode::Exact,
            &Limits::none().with_nodes(budget),
        );
        assert_eq!(limited.len(), exact.len());
        for (l, e) in limited.iter().zip(&exact) {
            assert_eq!(l.mv, e.mv);
            assert!(l.lower <= e.score && e.score <= l.upper, "{l:?} {e:?}");
        }
    }
}

/// The root's null-window probes find the same scores with and without a WLD solve first.
#[test]
fn probes_without_wld_first_agree() {
    let features = Features::default().without("wld-first").unwrap();
    let mut plain = Solver::new(SolverConfig {
        features,
        ..SolverConfig::default()
    })
    .unwrap();
    for obf in ffo("fforum-1-19.obf") {
        let sol = plain.solve(&obf.position, Mode::Exact);
        assert_eq!(sol.score, obf.scores[0].1, "{}", obf.position);
    }
    let finished: Othello = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO- X"
        .parse()
        .unwrap();
    let sol = plain.solve(&finished, Mode::Exact);
    assert!(sol.is_solved());
}

/// Whatever the guess at the score (far below, far above, odd, off the scale), an exact solve
/// started from it finds the published score: every path of the root's probes (stepping up or
/// down by 2, galloping after that, bisecting) ends at the score.
#[test]
fn any_guess_gives_the_score() {
    let mut s = solver(1);
    for obf in ffo("fforum-1-19.obf").iter().step_by(3) {
        let want = obf.scores[0].1;
        for guess in [
            -64,
            -40,
            -13,
            -2,
            0,
            1,
            6,
            22,
            63,
            64,
            100,
            want,
            want + 2,
            want - 2,
        ] {
            s.clear();
            let sol = s.solve_guessed(&obf.position, Mode::Exact, &Limits::none(), Some(guess));
            assert_eq!(sol.score, want, "{} from guess {guess}", obf.position);
            assert!(sol.is_solved());
            let best = sol.best.expect("a move");
            assert!(
                obf.scores.iter().any(|&(m, v)| m == best && v == want),
                "{} from guess {guess}: {best}",
                obf.position
            );
        }
    }
}

/// A solve from a guess stopped by a node budget reports bounds that contain the score.
#[test]
fn a_guessed_solve_stopped_keeps_true_bounds() {
    let obf = &ffo("fforum-20-39.obf")[19];
    let want = obf.scores[0].1;
    let mut s = solver(1);
    for (guess, budget) in [(want - 10, 200_000), (want + 10, 300_000), (want, 100_000)] {
        s.clear();
        let limits = Limits::none().with_nodes(budget);
        let sol = s.solve_guessed(&obf.position, Mode::Exact, &limits, Some(guess));
        assert_eq!(sol.stopped, Some(StopReason::Nodes), "guess {guess}");
        assert!(
            sol.lower <= want && want <= sol.upper,
            "guess {guess}: {sol:?}"
        );
    }
}

/// The solver's own guess (from 22 empties on) is only a start: the solve with it finds the
/// same score as the solve without it, on FFO #37 (22 empties).
#[test]
fn the_solvers_guess_keeps_the_score() {
    let mut plain = solver_without("guess");
    let mut guessing = solver(1);
    for obf in &ffo("fforum-20-39.obf")[17..18] {
        assert!(obf.position.empties().count() >= 22);
        let a = plain.solve(&obf.position, Mode::Exact);
        let b = guessing.solve(&obf.position, Mode::Exact);
        assert_eq!(a.score, obf.scores[0].1);
        assert_eq!(b.score, a.score);
        assert_ne!(a.nodes, b.nodes, "the guess changes the work");
    }
}

/// The guess's hints (the best moves of its midgame search near the root, which reaches 7
/// plies from 23 empties on) only order moves: on FFO #39 (26 empties, +64) the solve with
/// them finds the same score and best move as the solve without them, with other work.
#[test]
fn the_guess_hints_keep_the_score() {
    let mut plain = solver_without("hints");
    let mut hinted = solver(1);
    let obf = &ffo("fforum-20-39.obf")[19];
    assert_eq!(obf.position.empties().count(), 26);
    let a = plain.solve(&obf.position, Mode::Exact);
    let b = hinted.solve(&obf.position, Mode::Exact);
    assert_eq!(a.score, obf.scores[0].1);
    assert_eq!(b.score, a.score);
    assert_eq!(b.best, a.best);
    assert_ne!(a.nodes, b.nodes, "the hints change the work");
}

/// The selective passes (from 20 empties on) only order moves and guess: on FFO #37 and #38
/// (22 empties) the solve with them finds the same score and best move as the solve without
/// them, with other work.
#[test]
fn the_selective_passes_keep_the_score() {
    let mut plain = solver_without("selective");
    let mut selective = solver(1);
    for obf in &ffo("fforum-20-39.obf")[17..19] {
        assert!(obf.position.empties().count() >= 20);
        let a = plain.solve(&obf.position, Mode::Exact);
        let b = selective.solve(&obf.position, Mode::Exact);
        assert_eq!(a.score, obf.scores[0].1);
        assert_eq!(b.score, a.score);
        assert!(
            obf.scores
                .iter()
                .any(|&(m, v)| Some(m) == b.best && v == b.score),
            "{:?}",
            b.best
        );
        assert_ne!(a.nodes, b.nodes, "the passes change the work");
    }
}
