//! Othello on 4x4 and 6x6 boards: the masked bitboards against a separately written array
//! board (moves, flips, passes, ends, scores, perft per depth), the core contract suite (on
//! `Board<4>`, `Board<6>` and `Board<8>`), the notation, and the small-board solver against
//! plain minimax.

use yomi_core::testing::{random_game_positions, Contract};
use yomi_core::{perft as core_perft, FinalScore, Game, Player, Rng};
use yomi_othello::{Board, Move, Othello, Othello4, Othello6, ParseBoardError, Square, Start};

// --- the reference: a plain array board ----------------------------------------------------

/// A board of `n * n` cells (`1` black, `-1` white, `0` empty) row by row, and the colour to
/// move (`1` or `-1`). Written for clarity, sharing nothing with the bitboard code.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ArrayBoard {
    n: i32,
    cells: Vec<i8>,
    turn: i8,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl ArrayBoard {
    fn from_small<const N: usize>(pos: &Board<N>) -> ArrayBoard {
        let n = N as i32;
        let mut cells = vec![0; (n * n) as usize];
        for r in 0..n {
            for c in 0..n {
                let sq = Square::at(c as u8, r as u8);
                cells[(r * n + c) as usize] = if pos.black().contains(sq) {
                    1
                } else if pos.white().contains(sq) {
                    -1
                } else {
                    0
                };
            }
        }
        let turn = if pos.side_to_move() == Player::First {
            1
        } else {
            -1
        };
        ArrayBoard { n, cells, turn }
    }

    fn at(&self, c: i32, r: i32) -> Option<i8> {
        (0..self.n)
            .contains(&c)
            .then_some(())
            .and((0..self.n).contains(&r).then_some(()))
            .map(|()| self.cells[(r * self.n + c) as usize])
    }

    /// The cells (as `(col, row)`) that `colour` playing at `(c, r)` would flip.
    fn flips_for(&self, colour: i8, c: i32, r: i32) -> Vec<(i32, i32)> {
        if self.at(c, r) != Some(0) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for (dc, dr) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut x, mut y) = (c + dc, r + dr);
            while self.at(x, y) == Some(-colour) {
                line.push((x, y));
                x += dc;
                y += dr;
            }
            if self.at(x, y) == Some(colour) && !line.is_empty() {
                out.extend(line);
            }
        }
        out.sort_unstable();
        out
    }

    /// Legal placements of `colour`, row by row.
    fn placements(&self, colour: i8) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flips_for(colour, c, r).is_empty() {
                    out.push((c, r));
                }
            }
        }
        out
    }

    /// Moves as strings: squares, `PA`, or none when the game is over.
    fn moves(&self) -> Vec<String> {
        let mine = self.placements(self.turn);
        if !mine.is_empty() {
            return mine
                .iter()
                .map(|&(c, r)| format!("{}{}", (b'a' + c as u8) as char, r + 1))
                .collect();
        }
        if self.placements(-self.turn).is_empty() {
            Vec::new()
        } else {
            vec!["PA".to_string()]
        }
    }

    fn play(&self, mv: &str) -> ArrayBoard {
        let mut next = self.clone();
        if mv != "PA" {
            let b = mv.as_bytes();
            let (c, r) = (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'));
            for (x, y) in self.flips_for(self.turn, c, r) {
                next.cells[(y * self.n + x) as usize] = self.turn;
            }
            next.cells[(r * self.n + c) as usize] = self.turn;
        }
        next.turn = -self.turn;
        next
    }

    /// Black's final score with the empties to the winner (the game must be over).
    fn black_score(&self) -> i32 {
        let black = self.cells.iter().filter(|&&x| x == 1).count() as i32;
        let white = self.cells.iter().filter(|&&x| x == -1).count() as i32;
        let empty = self.cells.len() as i32 - black - white;
        match (black - white).signum() {
            1 => black - white + empty,
            -1 => black - white - empty,
            _ => 0,
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves();
        if moves.is_empty() {
            return 1;
        }
        moves.iter().map(|m| self.play(m).perft(depth - 1)).sum()
    }

    /// Plain minimax of the final score from the side to move's view.
    fn minimax(&self) -> i32 {
        let moves = self.moves();
        if moves.is_empty() {
            return self.black_score() * i32::from(self.turn);
        }
        moves
            .iter()
            .map(|m| -self.play(m).minimax())
            .max()
            .expect("moves")
    }
}

fn strings<const N: usize>(pos: &Board<N>) -> Vec<String> {
    pos.legal_moves().iter().map(ToString::to_string).collect()
}

/// Walks seeded random games and compares every position with the array board.
fn differential<const N: usize>(games: usize, seed: u64) -> usize {
    let positions = random_game_positions(&Board::<N>::new(), games, &mut Rng::seed_from_u64(seed));
    let mut parallel = random_game_positions(
        &Board::<N>::start(Start::Parallel),
        games,
        &mut Rng::seed_from_u64(seed + 1),
    );
    parallel.extend(positions);
    for pos in &parallel {
        let arr = ArrayBoard::from_small(pos);
        assert_eq!(strings(pos), arr.moves(), "moves of {pos}");
        // Flips of every empty square for the side to move.
        for sq in pos.empties() {
            let mine: Vec<(i32, i32)> = pos
                .flips(sq)
                .iter()
                .map(|s| (i32::from(s.col()), i32::from(s.row())))
                .collect();
            let mut mine = mine;
            mine.sort_unstable();
            let theirs = arr.flips_for(arr.turn, i32::from(sq.col()), i32::from(sq.row()));
            assert_eq!(mine, theirs, "flips at {sq} in {pos}");
        }
        for mv in pos.legal_moves() {
            let child = pos.play(mv).expect("legal");
            assert_eq!(
                ArrayBoard::from_small(&child),
                arr.play(&mv.to_string()),
                "{mv} from {pos}"
            );
        }
        assert_eq!(pos.is_over(), arr.moves().is_empty(), "end of {pos}");
        if pos.is_over() {
            assert_eq!(pos.final_score(), Some(arr.black_score()), "score of {pos}");
        }
    }
    parallel.len()
}

#[test]
fn moves_flips_passes_and_ends_agree_with_the_array_board() {
    assert!(differential::<4>(300, 4) > 3_000);
    assert!(differential::<6>(100, 6) > 3_000);
    assert!(differential::<8>(20, 8) > 1_000);
}

#[test]
fn passes_occur_and_agree() {
    // 4x4 games pass often; make sure the sample exercised them.
    let positions = random_game_positions(&Othello4::new(), 300, &mut Rng::seed_from_u64(4));
    let passes = positions
        .iter()
        .filter(|p| p.legal_moves().first() == Some(&Move::Pass))
        .count();
    assert!(passes > 50, "only {passes} pass positions");
}

// --- perft -----------------------------------------------------------------------------------

#[test]
fn perft_per_depth_matches_the_array_board() {
    for start in [Start::Diagonal, Start::Parallel] {
        let four = Othello4::start(start);
        let arr = ArrayBoard::from_small(&four);
        for depth in 0..=13 {
            assert_eq!(
                core_perft(&four, depth).leaves(),
                arr.perft(depth),
                "4x4 {start:?} depth {depth}"
            );
        }
        let six = Othello6::start(start);
        let arr = ArrayBoard::from_small(&six);
        for depth in 0..=6 {
            assert_eq!(
                core_perft(&six, depth).leaves(),
                arr.perft(depth),
                "6x6 {start:?} depth {depth}"
            );
        }
    }
}

#[test]
fn every_4x4_game_counted_by_both_boards() {
    // Deep enough that every game has ended: the leaves are the 60 060 games of 4x4 Othello.
    let four = Othello4::new();
    assert_eq!(ArrayBoard::from_small(&four).perft(20), 60_060);
    assert_eq!(core_perft(&four, 20).leaves(), 60_060);
}

#[test]
fn perft_known_values() {
    // 4x4 from the diagonal start (the same numbers as the array board gives).
    let four = Othello4::new();
    let counts: Vec<u64> = (1..=6).map(|d| core_perft(&four, d).leaves()).collect();
    assert_eq!(counts, [4, 12, 44, 128, 424, 1_256]);
    // The 8x8 embedding reproduces the standard 8x8 perft.
    let eight = Board::<8>::new();
    for depth in 1..=6 {
        assert_eq!(
            core_perft(&eight, depth).leaves(),
            yomi_othello::perft(&Othello::new(), depth),
            "8x8 depth {depth}"
        );
    }
}

// --- contract suite --------------------------------------------------------------------------

/// The core contract suite on `Board<N>` from its parallel start (the diagonal one is the
/// default start the suite always checks).
fn contract_suite<const N: usize>(playouts: usize) {
    let mut c = Contract::<Board<N>>::new(Board::<N>::all_moves());
    c.starts = vec![Board::<N>::start(Start::Parallel)];
    c.playouts = playouts;
    c.check_game();
    c.check_symmetries();
}

#[test]
fn contract_suite_4x4() {
    contract_suite::<4>(200);
}

#[test]
fn contract_suite_6x6() {
    contract_suite::<6>(100);
}

#[test]
fn contract_suite_8x8_from_both_starts() {
    // The same generic suite on `Board<8>` (tests/game.rs runs a fuller 8x8 one).
    contract_suite::<8>(20);
}

// --- notation --------------------------------------------------------------------------------

#[test]
fn start_strings_are_documented_values() {
    assert_eq!(Othello4::new().to_string(), "-----OX--XO----- X");
    assert_eq!(
        Othello4::start(Start::Parallel).to_string(),
        "-----OO--XX----- X"
    );
    assert_eq!(
        Othello6::new().to_string(),
        "--------------OX----XO-------------- X"
    );
    assert_eq!(
        Othello6::start(Start::Parallel).to_string(),
        "--------------OO----XX-------------- X"
    );
    assert_eq!(
        "parallel".parse::<Othello6>(),
        Ok(Othello6::start(Start::Parallel))
    );
    assert_eq!("Diagonal".parse::<Othello4>(), Ok(Othello4::new()));
    let moves: Vec<String> = strings(&Othello4::new());
    assert_eq!(moves, ["b1", "a2", "d3", "c4"]);
}

#[test]
fn positions_and_moves_round_trip() {
    for pos in random_game_positions(&Othello6::new(), 20, &mut Rng::seed_from_u64(3)) {
        assert_eq!(pos.to_string().parse::<Othello6>(), Ok(pos));
        for mv in pos.legal_moves() {
            assert_eq!(Othello6::parse_move(&mv.to_string()), Ok(mv));
        }
    }
    for pos in random_game_positions(&Othello4::new(), 50, &mut Rng::seed_from_u64(3)) {
        assert_eq!(pos.to_string().parse::<Othello4>(), Ok(pos));
    }
    assert_eq!(Othello4::parse_move("pass"), Ok(Move::Pass));
    assert_eq!(
        Othello4::parse_move("D4").map(|m| m.to_string()).as_deref(),
        Ok("d4")
    );
}

#[test]
fn wrong_sizes_are_typed_errors() {
    // A 6x6 board string read as 4x4, and the other way round.
    let six = Othello6::new().to_string();
    assert_eq!(
        six.parse::<Othello4>(),
        Err(ParseBoardError::WrongSize {
            size: 4,
            expected: 16,
            found: 36
        })
    );
    let four = Othello4::new().to_string();
    let err = four.parse::<Othello6>().unwrap_err();
    assert_eq!(err.to_string(), "a 6x6 board has 36 squares, found 16");
    // An 8x8 board string.
    assert!(matches!(
        Othello::new().to_string().parse::<Othello6>(),
        Err(ParseBoardError::WrongSize { found: 64, .. })
    ));
    assert!(matches!(
        "-----OX--XO----- Q".parse::<Othello4>(),
        Err(ParseBoardError::BadSide { .. })
    ));
    assert!(matches!(
        "-----OX--XO-----".parse::<Othello4>(),
        Err(ParseBoardError::MissingSide)
    ));
    assert!(matches!(
        "-----OX--XO---?- X".parse::<Othello4>(),
        Err(ParseBoardError::BadSquare {
            ch: '?',
            index: 14,
            ..
        })
    ));
    // Squares off the board.
    assert!(Othello4::parse_move("e1").is_err());
    assert!(Othello4::parse_move("a5").is_err());
    assert!(Othello6::parse_move("g1").is_err());
    let err = Othello4::parse_move("e1").unwrap_err().to_string();
    assert!(err.contains("a1-d4"), "{err}");
}

// --- solver ----------------------------------------------------------------------------------

// The solver's tests on these boards are in yomi-othello-search's tests/small_boards.rs.

#[test]
fn four_by_four_minimax_values() {
    // Black (to move) loses 3-11 from the diagonal start: -10 with the two empty squares to
    // the winner; -4 from the parallel start.
    assert_eq!(ArrayBoard::from_small(&Othello4::new()).minimax(), -10);
    assert_eq!(
        ArrayBoard::from_small(&Othello4::start(Start::Parallel)).minimax(),
        -4
    );
}

#[test]
fn stable_discs_never_flip_for_the_rest_of_a_game() {
    let mut rng = Rng::seed_from_u64(41);
    let mut found = 0;
    for start in [Othello6::new(), Othello6::start(Start::Parallel)] {
        for pos in random_game_positions(&start, 40, &mut rng) {
            let stable = pos.stable_discs();
            assert_eq!(stable & pos.player(), stable);
            found += stable.count();
            // Play a few random continuations: the stable discs keep their colour.
            for _ in 0..3 {
                let colour = pos.side_to_move();
                let mut p = pos;
                while !p.is_over() {
                    let discs = p.discs(colour);
                    assert_eq!(discs & stable, stable, "{pos} -> {p}");
                    let moves = p.legal_moves();
                    p = p.play_unchecked(moves[rng.below(moves.len())]);
                }
                assert_eq!(p.discs(colour) & stable, stable, "{pos} -> {p}");
            }
        }
    }
    assert!(found > 500, "{found}");
    // A full board: every disc is stable.
    let full: Othello4 = "XXXXXXXXOOOOOOOO X".parse().unwrap();
    assert_eq!(full.stable_discs().count(), 8);
    // The start: nothing is stable.
    assert_eq!(Othello6::new().stable_discs().count(), 0);
}

#[test]
fn symmetric_images_share_their_canonical_form() {
    let mut rng = Rng::seed_from_u64(51);
    for pos in random_game_positions(&Othello6::new(), 3, &mut rng)
        .into_iter()
        .filter(|p| p.empties().count() <= 10)
    {
        let canon = pos.canonical();
        assert_eq!(canon.canonical(), canon);
        assert_eq!(canon.empties().count(), pos.empties().count());
    }
    // The four first moves of the diagonal start are images of each other.
    let start = Othello6::new();
    let images: Vec<Othello6> = start
        .legal_moves()
        .iter()
        .map(|&m| start.play_unchecked(m).canonical())
        .collect();
    assert_eq!(images.len(), 4);
    assert!(images.iter().all(|&c| c == images[0]));
}
