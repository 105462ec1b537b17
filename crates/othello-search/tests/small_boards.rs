//! The solver on the small boards (`Solver::solve` on a `Board<N>`, an `N`x`N` board in the
//! top-left corner of the 8x8 bitboard) agrees with a plain alpha-beta minimax over the board's
//! own rules on positions of random 4x4 and 6x6 games: the exact score, the win/loss/draw
//! result, and a principal variation that is a legal line reaching the score; in both compiled
//! copies, with 1 and 2 threads; `move_values` agrees move by move. `N = 8` is the usual solve.

use yomi_core::testing::random_game_positions;
use yomi_core::{FinalScore, Game, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Bitboard, Board, DiscsError, Move, Othello};
use yomi_othello_search::{Mode, Solver, SolverConfig};

mod common;
use common::ffo;

fn solver(threads: usize, cpu: Cpu) -> Solver {
    Solver::new(SolverConfig {
        threads,
        hash_mb: 16,
        cpu,
        ..SolverConfig::default()
    })
    .expect("valid config")
}

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
