//! The midgame search against a plain minimax with the same evaluation (the hand-made one and
//! the learned one), and the hand evaluation's basic laws.

use std::sync::Arc;
use std::time::Duration;

use yomi_core::testing::random_game_positions;
use yomi_core::{Game, Rng};
use yomi_othello::{Move, Othello};
use yomi_othello_search::{
    hand_evaluate as evaluate, Evaluator, HandEval, MidgameLimits, MidgameSearch, RootValues,
    Weights, EVAL_LIMIT, FINAL_SCALE,
};

/// Plain negamax without pruning, with the search's conventions: a finished game scores its
/// final disc difference times `FINAL_SCALE`, a pass does not use up a ply, and a position at
/// the depth limit is evaluated (after a pass if its mover must pass).
fn minimax(pos: &Othello, depth: u32, e: &dyn Evaluator) -> i32 {
    if pos.game_over() {
        return pos.final_score_for_mover() * FINAL_SCALE;
    }
    if pos.must_pass() {
        return -minimax(&pos.passed(), depth, e);
    }
    if depth == 0 {
        return e.evaluate(pos.player().0, pos.opponent().0);
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| -minimax(&pos.play_unchecked(mv), depth - 1, e))
        .max()
        .expect("an unfinished position has a move")
}

/// The root values of plain minimax, in the order of the legal moves.
fn minimax_root(pos: &Othello, depth: u32, e: &dyn Evaluator) -> Vec<(Move, i32)> {
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let d = if mv == Move::Pass { depth } else { depth - 1 };
            (mv, -minimax(&pos.play_unchecked(mv), d, e))
        })
        .collect()
}

fn positions(games: usize, seed: u64) -> Vec<Othello> {
    random_game_positions(&Othello::new(), games, &mut Rng::seed_from_u64(seed))
}

#[test]
fn root_values_equal_plain_minimax() {
    root_values_equal_plain_minimax_with(Arc::new(HandEval), 11);
}

#[test]
fn root_values_equal_plain_minimax_with_the_learned_evaluation() {
    let learned = Weights::builtin();
    assert_eq!(learned.name(), "learned");
    root_values_equal_plain_minimax_with(learned, 12);
}

#[test]
fn root_values_equal_plain_minimax_with_global_features() {
    // The built-in patterns and random weights for every global feature (in place of the
    // built-in ones, to reach values the trained weights do not): the search hands the
    // evaluation the moves it has (`evaluate_with_moves`), the reference calls `evaluate`.
    use yomi_othello_eval::FEATURES;
    let builtin = Weights::builtin();
    let mut rng = Rng::seed_from_u64(14);
    let extra: usize = FEATURES.iter().map(|f| f.weights()).sum();
    let own: usize = builtin.features().iter().map(|f| f.weights()).sum();
    let tables = (0..builtin.phases())
        .map(|k| {
            let patterns = builtin.table(k).len() - own;
            let mut t = builtin.table(k)[..patterns].to_vec();
            t.extend((0..extra).map(|_| rng.below(601) as i16 - 300));
            t
        })
        .collect();
    let w = Weights::with_features("random features", &FEATURES, tables).unwrap();
    root_values_equal_plain_minimax_with(Arc::new(w), 13);
}

fn root_values_equal_plain_minimax_with(e: Arc<dyn Evaluator>, seed: u64) {
    // Every position along 6 random games (opening to end, passes and finished games
    // included) at depths 1 to 3, depth 4 on every third position and 5 on every tenth; with
    // the smallest table (1024 entries, so buckets are shared and replaced) and a large one.
    // A search that values only the best root moves (`RootValues::Best`, on a small and a
    // large table) finds the same best value and the same best moves, exact, and true upper
    // bounds below the best for the other moves.
    let mut small = MidgameSearch::new(0, e.clone());
    let mut large = MidgameSearch::new(8, e.clone());
    let mut best_small = MidgameSearch::new(0, e.clone());
    let mut best_large = MidgameSearch::new(8, e.clone());
    for search in [&mut best_small, &mut best_large] {
        search.set_root_values(RootValues::Best);
        assert_eq!(search.root_values(), RootValues::Best);
    }
    assert_eq!(small.root_values(), RootValues::All);
    assert_eq!(small.evaluator().name(), e.name());
    let mut checked = 0;
    for (k, pos) in positions(6, seed).iter().enumerate() {
        let max = if k % 10 == 0 {
            5
        } else if k % 3 == 0 {
            4
        } else {
            3
        };
        for depth in 1..=max {
            let want = minimax_root(pos, depth, &*e);
            for search in [&mut small, &mut large] {
                let result = search.search(pos, MidgameLimits { depth, time: None });
                let got: Vec<(Move, i32)> = result.scores.iter().map(|s| (s.mv, s.score)).collect();
                assert_eq!(got, want, "depth {depth} at {pos}");
                if !want.is_empty() {
                    assert!(result.depth <= depth && (result.depth == depth || result.exact));
                    checked += 1;
                }
            }
            let top = want.iter().map(|&(_, v)| v).max();
            for search in [&mut best_small, &mut best_large] {
                let result = search.search(pos, MidgameLimits { depth, time: None });
                assert_eq!(result.best_score(), top, "depth {depth} at {pos}");
                assert_eq!(result.scores.len(), want.len());
                for (s, &(mv, v)) in result.scores.iter().zip(&want) {
                    assert_eq!(s.mv, mv);
                    if s.exact {
                        assert_eq!(s.score, v, "{mv} at depth {depth} at {pos}");
                    } else {
                        assert!(v <= s.score && Some(s.score) < top, "{mv} at {pos}");
                    }
                    // Every best move is exact.
                    assert!(s.exact || Some(v) < top);
                }
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}

#[test]
fn exact_results_are_final_scores() {
    // Near the end a deep search reaches the end of every line: the scores are final disc
    // differences (times FINAL_SCALE) and equal plain minimax to the end.
    let mut search = MidgameSearch::new(4, Weights::builtin());
    let mut exact = 0;
    for pos in positions(8, 3)
        .iter()
        .filter(|p| p.empties().count() <= 7 && !p.game_over())
    {
        let result = search.search(
            pos,
            MidgameLimits {
                depth: 20,
                time: None,
            },
        );
        assert!(result.exact, "{pos}");
        exact += 1;
        for (s, (mv, v)) in result.scores.iter().zip(minimax_root(pos, 30, &HandEval)) {
            assert_eq!((s.mv, s.score), (mv, v), "{pos}");
            assert_eq!(s.score % FINAL_SCALE, 0);
        }
    }
    assert!(exact >= 40, "{exact}");
}

#[test]
fn finished_games_and_time_limits() {
    let full: Othello = format!("{} X", "XO".repeat(32)).parse().unwrap();
    let mut search = MidgameSearch::new(1, Arc::new(HandEval));
    let r = search.search(
        &full,
        MidgameLimits {
            depth: 5,
            time: None,
        },
    );
    assert!(r.scores.is_empty() && r.depth == 0);

    // A tiny time limit still completes depth 1 and reports every move.
    let pos = positions(1, 7)[20];
    let r = search.search(
        &pos,
        MidgameLimits {
            depth: 60,
            time: Some(Duration::from_nanos(1)),
        },
    );
    assert!(r.depth >= 1 && r.timed_out);
    assert_eq!(r.scores.len(), pos.legal_moves().len());
    let depth1 = search.search(
        &pos,
        MidgameLimits {
            depth: 1,
            time: None,
        },
    );
    if r.depth == 1 {
        assert_eq!(r.scores, depth1.scores);
    }
}

#[test]
fn evaluation_is_bounded_and_symmetric() {
    for pos in positions(20, 5) {
        let v = evaluate(&pos);
        assert!(v.abs() <= EVAL_LIMIT / 2, "{v} at {pos}");
        // The same discs seen by the other side: the opposite value, but for the parity term
        // (worth at most 60 to whoever moves).
        assert!((evaluate(&pos.passed()) + v).abs() <= 120, "{pos}");
        // Symmetric images evaluate alike.
        for sym in 1..8 {
            let t = Othello::from_sides(
                yomi_othello::transform_bitboard(pos.player(), sym),
                yomi_othello::transform_bitboard(pos.opponent(), sym),
                pos.side_to_move(),
            );
            assert_eq!(evaluate(&t), v, "{pos} under symmetry {sym}");
        }
    }
}

/// Multi-ProbCut: with a threshold no shallow value can reach it never cuts, so the values are
/// plain minimax's; with the default threshold it prunes (fewer nodes at depth 6), still gives
/// every legal move a value inside the evaluation's range, and is deterministic.
#[test]
fn probcut_prunes_and_never_cuts_past_its_margin() {
    use yomi_othello_search::{
        probcut_shallow, PROBCUT_LEARNED, PROBCUT_MIN_DEPTH, PROBCUT_THRESHOLD,
    };
    let learned = Weights::builtin();
    assert_eq!(PROBCUT_LEARNED.len(), 8);
    for (row, depth) in PROBCUT_LEARNED.iter().zip(PROBCUT_MIN_DEPTH..) {
        assert_eq!((row.depth, row.shallow), (depth, probcut_shallow(depth)));
        assert!(
            row.shallow < row.depth && (row.depth - row.shallow) % 2 == 0,
            "{row:?}"
        );
        assert!(row.sigma > 0.0 && row.slope > 0.5, "{row:?}");
    }
    let mut plain = MidgameSearch::new(4, learned.clone());
    let mut never = MidgameSearch::new(4, learned.clone());
    never.set_probcut(Some((1e6, PROBCUT_LEARNED)));
    let mut cutting = MidgameSearch::new(4, learned.clone());
    cutting.set_probcut(Some((PROBCUT_THRESHOLD, PROBCUT_LEARNED)));
    assert_eq!(cutting.probcut(), Some(PROBCUT_THRESHOLD));
    assert_eq!(plain.probcut(), None);
    let (mut plain_nodes, mut cut_nodes) = (0, 0);
    let (mut off, mut compared) = (0, 0);
    for (k, pos) in positions(4, 21).iter().enumerate() {
        let empties = pos.empties().count();
        if !(20..=50).contains(&empties) || k % 3 != 0 || pos.must_pass() {
            continue;
        }
        let limits = MidgameLimits {
            depth: 6,
            time: None,
        };
        let a = plain.search(pos, limits);
        let b = never.search(pos, limits);
        let scores = |r: &yomi_othello_search::MidgameResult| -> Vec<(Move, i32)> {
            r.scores.iter().map(|s| (s.mv, s.score)).collect()
        };
        assert_eq!(scores(&a), scores(&b), "{pos}");
        let c = cutting.search(pos, limits);
        let again = cutting.search(pos, limits);
        assert_eq!(scores(&c), scores(&again), "deterministic at {pos}");
        assert_eq!(c.nodes, again.nodes);
        assert_eq!(c.scores.len(), pos.legal_moves().len());
        assert!(c
            .scores
            .iter()
            .all(|s| s.score.abs() <= EVAL_LIMIT || s.score % FINAL_SCALE == 0));
        plain_nodes += a.nodes;
        cut_nodes += c.nodes;
        off += (c.best_score().unwrap() - a.best_score().unwrap()).abs();
        compared += 1;
    }
    assert!(plain_nodes > 0 && compared >= 10, "{compared}");
    // The pruned search's best value stays near the full one (within a disc on average here).
    assert!(off / compared < 100, "mean difference {}", off / compared);
    assert!(
        cut_nodes * 4 < plain_nodes * 3,
        "{cut_nodes} against {plain_nodes}"
    );
    // Switched off again, it searches exactly as before.
    cutting.set_probcut(None);
    let pos = &positions(1, 5)[20];
    let limits = MidgameLimits {
        depth: 5,
        time: None,
    };
    assert_eq!(
        cutting.search(pos, limits).nodes,
        plain.search(pos, limits).nodes
    );
}
