//! Differential test: the bitboards against a plain 8x8 array implementation
//! (`tests/reference/mod.rs`) on over a million positions along seeded random games.

mod reference;

use reference::{other, Board, BLACK, EMPTY, WHITE};
use yomi_core::{FinalScore, Game, Outcome, Player, Rng};
use yomi_othello::{mobility, potential_mobility, Bitboard, Move, Othello, Square};

/// The bitboard position equal to a reference board.
fn to_bitboards(board: &Board) -> Othello {
    let (mut black, mut white) = (0u64, 0u64);
    for row in 0..8 {
        for col in 0..8 {
            match board.cells[row][col] {
                BLACK => black |= 1 << (row * 8 + col),
                WHITE => white |= 1 << (row * 8 + col),
                _ => {}
            }
        }
    }
    let side = if board.to_move == BLACK {
        Player::First
    } else {
        Player::Second
    };
    Othello::from_discs(Bitboard(black), Bitboard(white), side).unwrap()
}

fn square(row: usize, col: usize) -> Square {
    Square::at(col as u8, row as u8)
}

/// Checks everything the bitboards answer against the reference at one position, and returns
/// the reference's moves for the side to move.
fn check(board: &Board, pos: &Othello) -> Vec<(usize, usize)> {
    assert_eq!(to_bitboards(board), *pos, "boards differ");
    let me = board.to_move;
    let ref_moves = board.moves_for(me);
    let ref_opp_moves = board.moves_for(other(me));
    // Moves, in order, with passes and game end.
    let expected: Vec<Move> = if !ref_moves.is_empty() {
        ref_moves
            .iter()
            .map(|&(r, c)| Move::Place(square(r, c)))
            .collect()
    } else if !ref_opp_moves.is_empty() {
        vec![Move::Pass]
    } else {
        vec![]
    };
    assert_eq!(pos.legal_moves().to_vec(), expected, "moves at {pos}");
    assert_eq!(pos.mobility() as usize, ref_moves.len());
    assert_eq!(
        mobility(pos.opponent(), pos.player()) as usize,
        ref_opp_moves.len()
    );
    let over = ref_moves.is_empty() && ref_opp_moves.is_empty();
    assert_eq!(pos.must_pass(), ref_moves.is_empty() && !over);
    assert_eq!(pos.is_over(), over);
    // Flips of every square, legal or not.
    for row in 0..8 {
        for col in 0..8 {
            let mut want = Bitboard::EMPTY;
            if board.cells[row][col] == EMPTY {
                for (r, c) in board.flips(me, row, col) {
                    want = want.with(square(r, c));
                }
            }
            assert_eq!(
                pos.flips(square(row, col)),
                want,
                "flips of {} at {pos}",
                square(row, col)
            );
        }
    }
    // Potential mobility for both sides.
    assert_eq!(
        pos.potential_mobility() as usize,
        board.potential_mobility_against(other(me))
    );
    assert_eq!(
        potential_mobility(pos.opponent(), pos.player()) as usize,
        board.potential_mobility_against(me)
    );
    // Counts, score, outcome.
    assert_eq!(
        pos.disc_counts(),
        [board.count(BLACK) as u32, board.count(WHITE) as u32]
    );
    if over {
        let score = board.final_score();
        assert_eq!(pos.final_score(), Some(score));
        let outcome = match score.signum() {
            1 => Outcome::Win(Player::First),
            -1 => Outcome::Win(Player::Second),
            _ => Outcome::Draw,
        };
        assert_eq!(pos.outcome(), Some(outcome));
    } else {
        assert_eq!(pos.final_score(), None);
        assert_eq!(pos.outcome(), None);
    }
    ref_moves
}

/// Plays seeded random games on both implementations side by side until `target` positions
/// have been compared. Moves are chosen from the reference's list.
fn run(seed: u64, target: usize) -> (usize, usize, usize) {
    let mut rng = Rng::seed_from_u64(seed);
    let (mut positions, mut games, mut passes) = (0, 0, 0);
    while positions < target {
        games += 1;
        let mut board = Board::start();
        let mut pos = Othello::new();
        // A few games start from a scattered random board to reach odd shapes.
        if games % 8 == 0 {
            for row in 0..8 {
                for col in 0..8 {
                    board.cells[row][col] = [EMPTY, EMPTY, BLACK, WHITE][rng.below(4)];
                }
            }
            board.to_move = if rng.below(2) == 0 { BLACK } else { WHITE };
            pos = to_bitboards(&board);
        }
        loop {
            let moves = check(&board, &pos);
            positions += 1;
            if moves.is_empty() {
                if board.is_over() {
                    break;
                }
                assert!(board.must_pass());
                passes += 1;
                board.pass();
                pos = pos.play(Move::Pass).unwrap();
            } else {
                let (r, c) = moves[rng.below(moves.len())];
                board.play(r, c);
                pos = pos.play(Move::Place(square(r, c))).unwrap();
            }
        }
    }
    (positions, games, passes)
}

#[test]
fn bitboards_match_the_reference_on_a_million_positions() {
    let (positions, games, passes) = run(2026, 1_000_000);
    assert!(positions >= 1_000_000);
    assert!(games > 10_000, "{games}");
    assert!(passes > 1_000, "{passes}");
}
