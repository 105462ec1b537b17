//! `othello` on 4x4 and 6x6: parameters, the refusal of 8x8 evaluations, exact values and a
//! short match.

use std::ops::ControlFlow;

use yomi_arena::{play_match, MatchConfig};
use yomi_core::testing::random_game_positions;
use yomi_core::{Game, Rng};
use yomi_othello::{Board, Othello4, Othello6};

use crate::{small_evaluation, BuildAgentError, Zoo, SMALL_FINAL_SCALE};

/// The exact final score of `pos` for its mover by plain minimax.
fn minimax<const N: usize>(pos: &Board<N>) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.final_score_for_mover();
    }
    moves
        .iter()
        .map(|&mv| -minimax(&pos.play_unchecked(mv)))
        .max()
        .expect("a move")
}

#[test]
fn othello_on_small_boards_has_checked_parameters_and_refuses_8x8_evaluations() {
    let zoo = Othello6::zoo();
    assert!(zoo.names().contains(&"othello"));
    assert!(Othello4::zoo().names().contains(&"othello"));
    let full = "othello:time=0.1,depth=36,exact=16,hash_bits=18,eval=general";
    assert_eq!(zoo.build("othello").unwrap().spec(), full);
    assert_eq!(zoo.build(full).unwrap().spec(), full);
    for eval in ["hand", "learned", "patterns"] {
        let err = zoo.build(&format!("othello:eval={eval}")).unwrap_err();
        assert!(matches!(err, BuildAgentError::BadValue { .. }), "{err}");
        let text = err.to_string();
        assert!(text.contains("8x8") && text.contains("6x6"), "{text}");
    }
    let err = Othello4::zoo().build("othello:eval=hand").unwrap_err();
    assert!(err.to_string().contains("4x4"), "{err}");
    for bad in ["othello:eval=x", "othello:depth=0", "othello:hash_bits=40"] {
        assert!(
            matches!(zoo.build(bad), Err(BuildAgentError::BadValue { .. })),
            "{bad}"
        );
    }
}

#[test]
fn the_evaluation_counts_mobility_corners_and_discs() {
    let start = Othello6::new();
    assert_eq!(small_evaluation(&start), 0);
    // Black x on a1 with white to reply: corners and mobility enter with their weights.
    let pos: Othello6 = "X-----OOO-----OX----XO-------------- O".parse().unwrap();
    let mob = pos.moves().count() as i32 - pos.passed().moves().count() as i32;
    let discs = pos.player().count() as i32 - pos.opponent().count() as i32;
    assert_eq!(small_evaluation(&pos), 300 * mob - 1000 + 100 * discs);
    // A finished game: its final score, scaled.
    let over: Othello4 = "XXXXXXXXXXXXXXX- O".parse().unwrap();
    assert!(over.game_over());
    assert_eq!(small_evaluation(&over), -16 * SMALL_FINAL_SCALE);
}

#[test]
fn exact_values_on_4x4_and_late_6x6_match_minimax() {
    let mut agent = Othello4::zoo().build("othello:time=0").unwrap();
    let start = Othello4::new();
    let e = agent.explain(&start, &mut Rng::seed_from_u64(1)).unwrap();
    for m in &e.moves {
        assert_eq!(m.note.as_deref(), Some("exact solve"));
        assert_eq!(m.score, f64::from(-minimax(&start.play_unchecked(m.mv))));
    }
    // Every first move loses by 10 (the 4x4 start is symmetric).
    assert!(e.moves.iter().all(|m| m.score == -10.0), "{e:?}");
    let mut agent = Othello6::zoo()
        .build("othello:time=0,depth=2,exact=9")
        .unwrap();
    let sample = random_game_positions(&Othello6::new(), 3, &mut Rng::seed_from_u64(4));
    let (mut exact, mut searched) = (0, 0);
    for pos in sample.iter().filter(|p| p.legal_moves().len() > 1) {
        let e = agent.explain(pos, &mut Rng::seed_from_u64(2)).unwrap();
        for m in &e.moves {
            let note = m.note.as_deref().unwrap();
            if pos.empties().count() <= 9 {
                assert_eq!(note, "exact solve");
                assert_eq!(m.score, f64::from(-minimax(&pos.play_unchecked(m.mv))));
                exact += 1;
            } else {
                assert_eq!(note, "depth 2 search");
                searched += 1;
            }
        }
        assert!(e.best.contains(&e.chosen));
    }
    assert!(exact > 10 && searched > 30, "{exact} {searched}");
}

#[test]
fn othello_beats_random_on_6x6() {
    let zoo = Othello6::zoo();
    let config = MatchConfig {
        rounds: 4,
        seed: 5,
        threads: None,
    };
    let r = play_match(
        &Othello6::default(),
        &config,
        || zoo.build("othello:time=0,depth=3,exact=10").unwrap(),
        || zoo.build("random").unwrap(),
        |_| ControlFlow::Continue(()),
    )
    .unwrap();
    assert!(r.total().win >= 7, "{r:?}");
}
