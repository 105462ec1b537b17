//! Game review against the solver directly: every loss is a difference of exact values, the
//! sums add up, the decisive move is the one that threw the game away.

use yomi_core::testing::random_game_line;
use yomi_core::{Game, Player, Rng};
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::{
    Mode, ReviewConfig, ReviewError, Reviewer, Solver, SolverConfig, ValueKind, Weights,
};

fn solver() -> Solver {
    Solver::new(SolverConfig {
        hash_mb: 16,
        ..SolverConfig::default()
    })
    .unwrap()
}

/// The exact value of `pos` for its side to move.
fn exact(solver: &mut Solver, pos: &Othello) -> i32 {
    if pos.is_over() {
        return pos.final_score_for_mover();
    }
    solver.solve(pos, Mode::Exact).score
}

/// A random game's position at `empties` empty squares (the first with at most that many)
/// and the moves played from there to the end.
fn tail(seed: u64, empties: u32) -> (Othello, Vec<Move>) {
    let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
    let mut pos = Othello::new();
    for (k, &mv) in line.iter().enumerate() {
        if pos.empties().count() <= empties {
            return (pos, line[k..].to_vec());
        }
        pos = pos.play_unchecked(mv);
    }
    (pos, Vec::new())
}

fn exact_reviewer() -> Reviewer {
    let config = ReviewConfig {
        exact: 14,
        wld: 14,
        hash_mb: 16,
        ..ReviewConfig::default()
    };
    Reviewer::new(config, Weights::builtin()).unwrap()
}

#[test]
fn losses_are_differences_of_exact_values() {
    let mut reviewer = exact_reviewer();
    let mut solver = solver();
    let mut checked = 0;
    for seed in 0..6 {
        let (start, moves) = tail(seed, 14);
        let review = reviewer.review(&start, &moves).unwrap();
        assert_eq!(review.moves.len(), moves.len());
        let mut pos = start;
        let mut sums = [0.0; 2];
        for m in &review.moves {
            assert_eq!(m.kind, ValueKind::Exact);
            assert_eq!(m.empties, pos.empties().count());
            assert_eq!(m.player, pos.side_to_move());
            let after = pos.play_unchecked(m.played);
            let value = f64::from(exact(&mut solver, &pos));
            let played = f64::from(-exact(&mut solver, &after));
            assert_eq!(m.best_value, value, "move {} in {pos}", m.number);
            assert_eq!(m.played_value, played, "move {} in {pos}", m.number);
            assert_eq!(m.loss, value - played);
            assert_eq!(
                f64::from(-exact(&mut solver, &pos.play_unchecked(m.best))),
                value
            );
            assert!(!m.forced || m.loss == 0.0);
            sums[usize::from(m.player == Player::Second)] += m.loss;
            pos = after;
            checked += 1;
        }
        assert!(pos.is_over());
        // The per-side totals are the sums of the moves' losses.
        assert_eq!(review.loss, sums);
        let black = pos.final_score_for_mover() * pos.side_to_move().sign();
        assert_eq!(review.result, Some(black));
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn the_decisive_move_is_the_one_that_threw_the_game_away() {
    // From positions at 12 empties: where the mover can still draw or win and has a losing
    // move, play that move, then perfect play by both sides to the end. The review names the
    // losing move as decisive; a game played perfectly throughout has no decisive move
    // unless it was lost from the start.
    let mut reviewer = exact_reviewer();
    let mut solver = solver();
    let mut found = 0;
    for seed in 0..40 {
        let (start, _) = tail(100 + seed, 12);
        if start.is_over() || start.legal_moves().len() < 2 {
            continue;
        }
        let value = exact(&mut solver, &start);
        let losing = start
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| -exact(&mut solver, &start.play_unchecked(m)) < 0);
        let (Some(blunder), true) = (losing, value >= 0) else {
            continue;
        };
        let mut moves = vec![blunder];
        let mut pos = start.play_unchecked(blunder);
        while !pos.is_over() {
            let mv = solver.solve(&pos, Mode::Exact).best.unwrap();
            moves.push(mv);
            pos = pos.play_unchecked(mv);
        }
        let review = reviewer.review(&start, &moves).unwrap();
        assert_eq!(review.decisive, Some(0), "seed {seed}: {start}");
        assert!(review.moves[0].loss > 0.0);
        assert!(review.moves[1..].iter().all(|m| m.loss == 0.0));
        found += 1;
    }
    assert!(found >= 5, "{found}");
    // A perfect game from the start position of a won game: nothing decisive.
    let (start, _) = tail(7, 12);
    let mut pos = start;
    let mut moves = Vec::new();
    while !pos.is_over() {
        let mv = solver.solve(&pos, Mode::Exact).best.unwrap();
        moves.push(mv);
        pos = pos.play_unchecked(mv);
    }
    let review = reviewer.review(&start, &moves).unwrap();
    assert!(review.moves.iter().all(|m| m.loss == 0.0));
    assert_eq!(review.decisive, None);
}

#[test]
fn positions_met_again_come_from_memory_and_midgame_values_are_estimates() {
    let config = ReviewConfig {
        depth: 3,
        exact: 10,
        wld: 12,
        hash_mb: 4,
        ..ReviewConfig::default()
    };
    let mut reviewer = Reviewer::new(config, Weights::builtin()).unwrap();
    let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(3));
    let first = reviewer.review(&Othello::new(), &line).unwrap();
    let (hits, searched) = reviewer.cache_stats();
    assert!(searched > 0);
    let again = reviewer.review(&Othello::new(), &line).unwrap();
    assert_eq!(again, first);
    let (hits2, searched2) = reviewer.cache_stats();
    assert_eq!(searched2, searched, "nothing searched again");
    assert!(hits2 > hits);
    let kinds: Vec<ValueKind> = first.moves.iter().map(|m| m.kind).collect();
    assert!(kinds.contains(&ValueKind::Estimate { depth: 3 }));
    assert!(kinds.contains(&ValueKind::Wld));
    assert!(kinds.contains(&ValueKind::Exact));
    for m in &first.moves {
        assert!(m.loss >= 0.0 && m.best_value >= m.played_value);
        if m.kind == ValueKind::Wld {
            assert!([-1.0, 0.0, 1.0].contains(&m.played_value));
        }
    }
    // WLD losses are results, not discs: left out of the totals.
    let discs: f64 = first
        .moves
        .iter()
        .filter(|m| m.player == Player::First && m.kind != ValueKind::Wld)
        .map(|m| m.loss)
        .sum();
    assert_eq!(first.loss[0], discs);
}

#[test]
fn an_illegal_move_is_named_by_its_number() {
    let mut reviewer = Reviewer::new(
        ReviewConfig {
            depth: 1,
            ..ReviewConfig::default()
        },
        Weights::builtin(),
    )
    .unwrap();
    let line: MoveSequence = "f5 d6 c3 a1".parse().unwrap();
    let err = reviewer.review(&Othello::new(), &line.0).unwrap_err();
    assert!(
        matches!(err, ReviewError::IllegalMove { number: 4, .. }),
        "{err}"
    );
    for bad in [
        ReviewConfig {
            depth: 0,
            ..ReviewConfig::default()
        },
        ReviewConfig {
            exact: 20,
            wld: 18,
            ..ReviewConfig::default()
        },
        ReviewConfig {
            threads: 0,
            ..ReviewConfig::default()
        },
    ] {
        assert!(matches!(
            Reviewer::new(bad, Weights::builtin()),
            Err(ReviewError::Config(_))
        ));
    }
}

#[test]
fn midgame_values_are_those_of_a_search_of_every_move() {
    // The reviewer proves only the best move's value and searches the played move's position
    // one ply shallower: the values a search of every root move gives, without ProbCut.
    use yomi_othello_search::{MidgameLimits, MidgameSearch, FINAL_SCALE};
    let config = ReviewConfig {
        depth: 4,
        exact: 8,
        wld: 8,
        hash_mb: 4,
        ..ReviewConfig::default()
    };
    let mut reviewer = Reviewer::new(config, Weights::builtin()).unwrap();
    let mut all = MidgameSearch::new(4, Weights::builtin());
    let discs = |v: i32| {
        if v.abs() >= FINAL_SCALE / 2 {
            f64::from(v / FINAL_SCALE)
        } else {
            f64::from(v) / 100.0
        }
    };
    let mut checked = 0;
    for seed in 20..24 {
        let (start, moves) = tail(seed, 60);
        let review = reviewer.review(&start, &moves).unwrap();
        let mut pos = start;
        for m in &review.moves {
            if let (ValueKind::Estimate { depth: 4 }, false) = (m.kind, m.forced) {
                let r = all.search(
                    &pos,
                    MidgameLimits {
                        depth: 4,
                        time: None,
                    },
                );
                let played = r.scores.iter().find(|s| s.mv == m.played).unwrap();
                assert_eq!(m.played_value, discs(played.score), "{pos} {}", m.played);
                assert_eq!(Some(m.best_value), r.best_score().map(discs), "{pos}");
                let best = r.scores.iter().find(|s| s.mv == m.best).unwrap();
                assert_eq!(m.best_value, discs(best.score));
                checked += 1;
            }
            pos = pos.play_unchecked(m.played);
        }
    }
    assert!(checked > 100, "{checked}");
}
