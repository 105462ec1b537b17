//! The full 4x4 Othello tree: counts, the minimax result, probabilities under random play and
//! the data file, built with the same generic builder as tic-tac-toe's.

use yomi_core::{FinalScore, Game, Player};
use yomi_othello::Othello4;
use yomi_othello_search::{Mode, Solver, SolverConfig};
use yomi_tree::{decode, encode, Ratio, Scoring, Solution};

#[test]
fn the_4x4_tree_counts_values_and_file() {
    let sol = Solution::build(Othello4::new()).expect("the 4x4 tree fits");
    let graph = sol.graph();
    assert_eq!(graph.len(), 62_789);
    assert_eq!(graph.canonical_count(), 14_401);
    let counts = graph.full_tree_counts().expect("counts fit");
    assert_eq!(counts.total, 224_821);
    assert_eq!(counts.per_depth.len(), 18);
    assert_eq!(
        &counts.per_depth[..8],
        &[1, 4, 12, 44, 128, 424, 1_256, 3_624]
    );
    // 60 060 games: black wins 24 632, draws 5 312, white wins 30 116.
    assert_eq!(counts.terminal, [24_632, 5_312, 30_116]);
    assert_eq!(sol.longest_game(), 17);
    // The second player wins with perfect play.
    assert_eq!(sol.plain(0), -1);
    let p = sol.probs(0);
    assert_eq!(p.first().to_string(), "11826177601/33592320000");
    assert_eq!(p.draw().to_string(), "649220629/6718464000");
    assert_eq!(p.second().to_string(), "3086673209/5598720000");
    assert_eq!(
        p.score(Player::First, Ratio::HALF).unwrap().to_string(),
        "26898458347/67184640000"
    );
    // The file round-trips.
    let bytes = encode(&sol).expect("encodes");
    let back: Solution<Othello4> = decode(&bytes).expect("decodes");
    assert_eq!(back.graph().len(), graph.len());
    assert_eq!(back.plain(0), -1);
    assert_eq!(back.probs(0), p);
}

#[test]
fn the_disc_value_agrees_with_the_tree_minimax_everywhere() {
    // The solver's disc-difference value, signed, is the tree's plain minimax at every
    // position, and the tree's best moves are those that keep the winner winning.
    let sol = Solution::build(Othello4::new()).expect("the 4x4 tree fits");
    let graph = sol.graph();
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 16,
        ..SolverConfig::default()
    })
    .expect("a solver");
    for id in (0..graph.len()).step_by(97) {
        let pos = graph.position(id);
        let solved = solver.solve(pos, Mode::Exact);
        assert!(solved.is_solved());
        let v = solved.score;
        let black = v * pos.side_to_move().sign();
        assert_eq!(i32::from(sol.plain(id)), black.signum(), "{pos}");
        if pos.is_over() {
            assert_eq!(pos.final_score(), Some(black));
        }
    }
    // One best move at the root keeps the -10 (in the minimax best set).
    let root = Othello4::new();
    let solved = solver.solve(&root, Mode::Exact);
    assert_eq!(solved.score, -10);
    let line = solved.pv;
    let k = graph
        .moves(0)
        .iter()
        .position(|&m| m == line[0])
        .expect("the line's first move is legal");
    assert!(sol.is_best(0, k, Scoring::Plain));
}
