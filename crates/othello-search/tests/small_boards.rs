//! The solver on the small boards (`Solver::solve` on a `Board<N>`, an `N`x`N` board in the
//! top-left corner of the 8x8 bitboard) agrees with a plain alpha-beta minimax over the board's
//! own rules on positions of random 4x4 and 6x6 games: the exact score, the win/loss/draw
//! result, and a principal variation that is a legal line reaching the score; in both compiled
//! copies, with 1 and 2 threads; `move_values` agrees move by move. `N = 8` is the usual solve.

use yomi_core::testing::random_game_positions;
use yomi_core::{FinalScore, Game, Limits, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Bitboard, Board, DiscsError, Move, Othello, Othello4, Othello6, Start};
use yomi_othello_search::{Features, Mode, Solver, SolverConfig};

mod common;
use common::{ffo, solver};

/// The final score, from the side to move at `pos`, of the game played along `line`.
fn play_line<const N: usize>(pos: &Board<N>, line: &[Move]) -> i32 {
    let mut at = *pos;
    for &mv in line {
        assert!(at.legal_moves().contains(&mv), "{mv} illegal in {at:?}");
        at = at.play_unchecked(mv);
    }
    assert!(at.game_over(), "the line ends the game");
    let black = at.final_score().expect("game over");
    if pos.side_to_move() == yomi_core::Player::First {
        black
    } else {
        -black
    }
}

/// The exact final disc difference from the side to move at `pos`, by a plain fail-hard
/// alpha-beta over the board's own move generator (no table, no ordering, no pruning beyond
/// the window): the reference the solver is checked against.
fn minimax<const N: usize>(pos: &Board<N>, mut alpha: i32, beta: i32) -> i32 {
    if pos.game_over() {
        let black = pos.final_score().expect("game over");
        return black * pos.side_to_move().sign();
    }
    for &mv in pos.legal_moves().iter() {
        let v = -minimax(&pos.play_unchecked(mv), -beta, -alpha);
        if v >= beta {
            return v;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The exact value of `pos` by [`minimax`].
fn reference<const N: usize>(pos: &Board<N>) -> i32 {
    let bound = (N * N) as i32 + 1;
    minimax(pos, -bound, bound)
}

/// Compares the solver with [`minimax`] on `positions` (those with at most `max_empties`).
fn agree<const N: usize>(positions: &[Board<N>], max_empties: u32) -> usize {
    let wanted: Vec<(Board<N>, i32)> = positions
        .iter()
        .filter(|pos| pos.empties().count() <= max_empties)
        .map(|pos| (*pos, reference(pos)))
        .collect();
    let mut checked = 0;
    for (threads, cpu) in [(1, Cpu::Portable), (1, Cpu::detect()), (2, Cpu::detect())] {
        let mut solver = solver(threads, cpu);
        for (pos, want) in &wanted {
            let exact = solver.solve(pos, Mode::Exact);
            assert_eq!(exact.score, *want, "{N}x{N} exact {pos:?}");
            assert!(exact.is_solved());
            assert_eq!(play_line(pos, &exact.pv), exact.score, "{pos:?}");
            let wld = solver.solve(pos, Mode::Wld);
            assert_eq!(wld.score, want.signum(), "{N}x{N} wld {pos:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn four_by_four_agrees_with_minimax() {
    let positions = random_game_positions(&Board::<4>::new(), 40, &mut Rng::seed_from_u64(4));
    assert!(agree(&positions, 16) > 300);
}

#[test]
fn six_by_six_agrees_with_minimax() {
    let positions = random_game_positions(&Board::<6>::new(), 12, &mut Rng::seed_from_u64(6));
    assert!(agree(&positions, 14) > 150);
}

#[test]
fn small_move_values_agree_with_minimax() {
    let positions = random_game_positions(&Board::<6>::new(), 3, &mut Rng::seed_from_u64(66));
    let mut solver = solver(2, Cpu::detect());
    let mut checked = 0;
    for pos in positions.iter().filter(|p| p.empties().count() <= 11) {
        let values = solver.move_values(pos, Mode::Exact);
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        assert_eq!(values.iter().map(|v| v.mv).collect::<Vec<_>>(), moves);
        for v in &values {
            assert!(v.is_exact());
            assert_eq!(
                v.score,
                -reference(&pos.play_unchecked(v.mv)),
                "{pos:?} {}",
                v.mv
            );
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked}");
}

#[test]
fn eight_by_eight_is_the_usual_solve() {
    // The generic solve on `Board<8>` built from the sides is the solve of the `Othello`
    // (the same type): same score, move, line and nodes; the score is the best move value.
    let mut a = solver(1, Cpu::detect());
    let mut b = solver(1, Cpu::detect());
    for obf in ffo("fforum-1-19.obf").iter().take(6) {
        let pos: &Othello = &obf.position;
        let rebuilt = Board::<8>::from_sides(pos.player(), pos.opponent(), pos.side_to_move());
        for mode in [Mode::Exact, Mode::Wld] {
            let (x, y) = (a.solve(pos, mode), b.solve(&rebuilt, mode));
            assert_eq!(
                (x.score, x.best, &x.pv, x.nodes),
                (y.score, y.best, &y.pv, y.nodes)
            );
        }
        let best = a
            .move_values(pos, Mode::Exact)
            .iter()
            .map(|v| v.score)
            .max()
            .expect("a move");
        assert_eq!(best, a.solve(pos, Mode::Exact).score);
    }
}

#[test]
fn a_full_small_board_is_a_finished_game() {
    // Discs off a 4x4 board are refused by the board itself (the solver only takes boards).
    assert!(matches!(
        Board::<4>::from_discs(Bitboard(1 << 4), Bitboard(2), yomi_core::Player::First),
        Err(DiscsError::OffBoard { .. })
    ));
    // A full 4x4 board is a finished game: the disc difference.
    let full = Board::<4>::from_discs(
        Bitboard(0x0F0F),
        Bitboard(0x0F0F_0000),
        yomi_core::Player::First,
    )
    .expect("a 4x4 board");
    let mut s = solver(1, Cpu::Portable);
    let sol = s.solve(&full, Mode::Exact);
    assert_eq!((sol.score, sol.best), (0, None));
    assert!(s.move_values(&full, Mode::Exact).is_empty());
}

// --- moved from yomi-othello's tests/small_boards.rs (they named `SmallSolver`) -------------

#[test]
fn four_by_four_value_is_white_by_ten() {
    let mut solver = solver(1, Cpu::detect());
    let sol = solver.solve(&Othello4::new(), Mode::Exact);
    // Black (to move) loses 3-11: -10 with the two empty squares to the winner.
    assert_eq!(sol.score, -10);
    assert!(sol.is_solved());
    assert_eq!(reference(&Othello4::new()), -10);
    // The line reaches the end with that score.
    let mut pos = Othello4::new();
    for &mv in &sol.pv {
        pos = pos.play(mv).expect("line is legal");
    }
    assert_eq!(pos.final_score(), Some(-10));
    let [b, w] = [pos.black().count(), pos.white().count()];
    assert_eq!((b, w), (3, 11));
}

#[test]
fn four_by_four_parallel_start_is_white_by_four() {
    let start = Othello4::start(Start::Parallel);
    let sol = solver(1, Cpu::detect()).solve(&start, Mode::Exact);
    assert_eq!(sol.score, -4);
    assert_eq!(reference(&start), -4);
}

#[test]
fn a_stopped_solve_reports_proved_bounds() {
    let mut solver = solver(1, Cpu::detect());
    let limits = Limits::none().with_nodes(20_000);
    let sol = solver.solve_limited(&Othello6::new(), Mode::Exact, &limits);
    assert!(sol.stopped.is_some());
    assert!(sol.lower <= -4 && -4 <= sol.upper, "{sol:?}");
    assert!(sol.pv.len() <= 1, "{sol:?}");
}

#[test]
fn six_by_six_values_are_consistent_with_their_children_and_lines() {
    // Positions with 13 empty squares: the value is the best child's negated value, and the
    // principal variation replays to a final score equal to it.
    let mut solver = solver(1, Cpu::detect());
    let sample = random_game_positions(&Othello6::new(), 4, &mut Rng::seed_from_u64(21));
    let mut checked = 0;
    for pos in sample.iter().filter(|p| p.empties().count() == 13) {
        let sol = solver.solve(pos, Mode::Exact);
        let v = sol.score;
        let best_child = pos
            .legal_moves()
            .iter()
            .map(|&m| -solver.solve(&pos.play_unchecked(m), Mode::Exact).score)
            .max()
            .expect("moves");
        assert_eq!(v, best_child, "{pos}");
        assert_eq!(play_line(pos, &sol.pv), v, "{pos}");
        checked += 1;
    }
    assert!(checked >= 3, "{checked}");
}

#[test]
fn every_technique_on_agrees_with_all_of_them_off_at_14_to_18_empties() {
    // 6x6 positions with 14 to 18 empty squares: the full solver against the solver with every
    // technique off, and with each technique off alone: the same values.
    let sample = random_game_positions(&Othello6::new(), 6, &mut Rng::seed_from_u64(31));
    let with = |features: Features| {
        Solver::new(SolverConfig {
            threads: 1,
            hash_mb: 16,
            features,
            ..SolverConfig::default()
        })
        .expect("valid config")
    };
    let mut plain_features = Features::default();
    for name in Features::NAMES {
        plain_features = plain_features.without(name).expect("a feature");
    }
    let mut full = with(Features::default());
    let mut plain = with(plain_features);
    let mut alone: Vec<Solver> = Features::NAMES
        .iter()
        .map(|name| with(Features::default().without(name).expect("a feature")))
        .collect();
    let mut checked = [0usize; 5];
    for pos in &sample {
        let e = pos.empties().count();
        if !(14..=18).contains(&e) || pos.game_over() {
            continue;
        }
        if e > 16 && checked[e as usize - 14] >= 1 {
            continue;
        }
        let want = plain.solve(pos, Mode::Exact);
        let got = full.solve(pos, Mode::Exact);
        assert!(want.is_solved() && got.is_solved());
        assert_eq!(got.score, want.score, "{pos}");
        assert!(
            got.nodes < want.nodes,
            "{pos}: {} vs {}",
            got.nodes,
            want.nodes
        );
        for (name, s) in Features::NAMES.iter().zip(&mut alone) {
            assert_eq!(
                s.solve(pos, Mode::Exact).score,
                want.score,
                "{pos} without {name}"
            );
        }
        checked[e as usize - 14] += 1;
    }
    assert!(checked.iter().all(|&c| c >= 1), "{checked:?}");
}

#[test]
fn symmetric_images_share_their_value() {
    let mut rng = Rng::seed_from_u64(51);
    let mut solver = solver(1, Cpu::detect());
    for pos in random_game_positions(&Othello6::new(), 3, &mut rng)
        .into_iter()
        .filter(|p| p.empties().count() <= 10)
    {
        let canon = pos.canonical();
        let v = solver.solve(&pos, Mode::Exact).score;
        assert_eq!(solver.solve(&canon, Mode::Exact).score, v, "{pos}");
    }
}

#[test]
fn a_6x6_position_a_few_plies_in_is_solved_with_a_line_to_its_value() {
    // 22 empty squares (10 plies of a seeded game): the value is checked against the
    // children's values and the line replays to it.
    let mut pos = Othello6::new();
    let mut rng = Rng::seed_from_u64(61);
    while pos.empties().count() > 22 {
        let moves = pos.legal_moves();
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    let mut solver = solver(2, Cpu::detect());
    let sol = solver.solve(&pos, Mode::Exact);
    assert!(sol.is_solved());
    assert_eq!(play_line(&pos, &sol.pv), sol.score, "{pos}");
    let values = solver.move_values(&pos, Mode::Exact);
    assert!(values.iter().all(|v| v.is_exact()));
    assert_eq!(values.iter().map(|v| v.score).max(), Some(sol.score));
}
