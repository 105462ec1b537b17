//! The solver on the small boards (`Solver::solve_bits::<N>`, an `N`x`N` board in the top-left
//! corner of the 8x8 bitboard) agrees with the board crate's own small-board solver
//! (`SmallSolver`) on positions of random 4x4 and 6x6 games: the exact score, the win/loss/draw
//! result, and a principal variation that is a legal line reaching the score; in both
//! compiled copies, with 1 and 2 threads. `N = 8` gives what `Solver::solve` gives.

use yomi_core::testing::random_game_positions;
use yomi_core::{FinalScore, Game, Limits, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::{Board, Move, Othello, SmallSolver};
use yomi_othello_search::{Mode, SolveError, Solver, SolverConfig};

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

/// Compares the solver with `SmallSolver` on `positions` (those with at most `max_empties`).
fn agree<const N: usize>(positions: &[Board<N>], max_empties: u32) -> usize {
    let mut reference = SmallSolver::new(16);
    let mut checked = 0;
    for (threads, cpu) in [(1, Cpu::Portable), (1, Cpu::detect()), (2, Cpu::detect())] {
        let mut solver = solver(threads, cpu);
        for pos in positions {
            if pos.empties().count() > max_empties {
                continue;
            }
            let want = reference.solve(pos, &Limits::none());
            assert_eq!(want.lower, want.upper, "the reference solved it");
            let (p, o) = (pos.player().0, pos.opponent().0);
            let exact = solver.solve_bits::<N>(p, o, Mode::Exact).expect("a board");
            assert_eq!(exact.score, want.lower, "{N}x{N} exact {pos:?}");
            assert!(exact.is_solved());
            assert_eq!(play_line(pos, &exact.pv), exact.score, "{pos:?}");
            let wld = solver.solve_bits::<N>(p, o, Mode::Wld).expect("a board");
            assert_eq!(wld.score, want.lower.signum(), "{N}x{N} wld {pos:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn four_by_four_agrees_with_the_small_solver() {
    let positions =
        random_game_positions(&Board::<4>::new(), 40, &mut Rng::seed_from_u64(4));
    assert!(agree(&positions, 16) > 300);
}

#[test]
fn six_by_six_agrees_with_the_small_solver() {
    let positions =
        random_game_positions(&Board::<6>::new(), 12, &mut Rng::seed_from_u64(6));
    assert!(agree(&positions, 14) > 150);
}

#[test]
fn eight_by_eight_is_the_usual_solve() {
    let mut a = solver(1, Cpu::detect());
    let mut b = solver(1, Cpu::detect());
    for obf in ffo("fforum-1-19.obf").iter().take(6) {
        let pos: &Othello = &obf.position;
        let (p, o) = (pos.player().0, pos.opponent().0);
        for mode in [Mode::Exact, Mode::Wld] {
            let (x, y) = (
                a.solve(pos, mode),
                b.solve_bits::<8>(p, o, mode).expect("a board"),
            );
            assert_eq!(
                (x.score, x.best, &x.pv, x.nodes),
                (y.score, y.best, &y.pv, y.nodes)
            );
        }
    }
}

#[test]
fn boards_that_do_not_fit_are_errors() {
    let mut s = solver(1, Cpu::Portable);
    assert_eq!(
        s.solve_bits::<4>(1, 1, Mode::Exact).unwrap_err(),
        SolveError::Board(4)
    );
    assert_eq!(
        s.solve_bits::<4>(1 << 4, 2, Mode::Exact).unwrap_err(),
        SolveError::Board(4)
    );
    assert_eq!(
        s.solve_bits::<9>(1, 2, Mode::Exact).unwrap_err(),
        SolveError::Board(9)
    );
    // A full 4x4 board is a finished game: the disc difference.
    let full = s.solve_bits::<4>(0x0F0F, 0x0F0F_0000, Mode::Exact).unwrap();
    assert_eq!((full.score, full.best), (0, None));
}
