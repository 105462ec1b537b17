//! Whole-game tests: perft, the core contract suite, hashing and symmetry, scores, the fast
//! playout, and bitboard helpers.

use std::collections::{HashMap, HashSet};

use yomi_core::testing::{random_game_positions, Contract};
use yomi_core::{
    perft as core_perft, reference_playout, FinalScore, Game, HashKey, LeafEval, Outcome, Player,
    Rng, Symmetric,
};
use yomi_othello::cpu::Cpu;
use yomi_othello::{bitboard, perft, perft_with, Bitboard, Move, MoveSequence, Othello, Square};

/// perft in the portable copy.
fn perft_portable(pos: &Othello, depth: u32) -> u64 {
    perft_with(Cpu::Portable, pos, depth)
}

/// Positions along seeded random games from the start (every position of every game).
fn random_positions(seed: u64, games: usize) -> Vec<Othello> {
    random_game_positions(&Othello::new(), games, &mut Rng::seed_from_u64(seed))
}

// --- perft ----------------------------------------------------------------------------------

const PERFT: [u64; 11] = [
    4,
    12,
    56,
    244,
    1_396,
    8_200,
    55_092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
];

#[test]
fn perft_depths_1_to_9() {
    assert_eq!(perft(&Othello::new(), 0), 1);
    for depth in 1..=9 {
        assert_eq!(
            perft(&Othello::new(), depth),
            PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn portable_perft_agrees() {
    // On x86-64-v3 CPUs `perft` takes the copy compiled for them (`Cpu::detect`): both
    // copies must agree.
    assert_eq!(
        perft_with(Cpu::detect(), &Othello::new(), 7),
        perft(&Othello::new(), 7)
    );
    for depth in 0..=9 {
        assert_eq!(
            perft_portable(&Othello::new(), depth),
            perft(&Othello::new(), depth)
        );
    }
    for pos in random_positions(8, 20).into_iter().step_by(7) {
        assert_eq!(perft_portable(&pos, 5), perft(&pos, 5), "{pos}");
    }
}

#[test]
#[ignore = "slow: about a second in release mode (run with --release -- --ignored)"]
fn perft_depths_10_and_11() {
    for depth in 10..=11 {
        assert_eq!(
            perft_portable(&Othello::new(), depth),
            PERFT[depth as usize - 1]
        );
        assert_eq!(
            perft(&Othello::new(), depth),
            PERFT[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn perft_agrees_with_core() {
    for depth in 0..=6 {
        assert_eq!(
            core_perft(&Othello::new(), depth).leaves(),
            perft(&Othello::new(), depth),
            "depth {depth}"
        );
    }
    // From midgame and endgame positions too, where passes and early ends happen.
    for pos in random_positions(7, 40).into_iter().step_by(9) {
        for depth in 0..=4 {
            assert_eq!(
                core_perft(&pos, depth).leaves(),
                perft(&pos, depth),
                "{pos} {depth}"
            );
        }
    }
}

#[test]
fn first_pass_is_at_ply_9() {
    // 24 positions at ply 8 must pass: depth 9 is 3 005 288 with passes as plies and
    // 3 005 320 if the passes were not counted as a ply.
    let count = core_perft(&Othello::new(), 9);
    assert_eq!(count.leaves(), 3_005_288);
    let mut passes = 0;
    let mut stack = vec![(Othello::new(), 0)];
    while let Some((pos, ply)) = stack.pop() {
        if ply == 8 {
            passes += u32::from(pos.must_pass());
            continue;
        }
        stack.extend(
            pos.legal_moves()
                .into_iter()
                .map(|m| (pos.play_unchecked(m), ply + 1)),
        );
    }
    assert_eq!(passes, 24);
}

// --- start position and basic facts -----------------------------------------------------------

#[test]
fn start_position() {
    let start = Othello::default();
    assert_eq!(start, Othello::new());
    assert_eq!(start.side_to_move(), Player::First);
    let sq = |s: &str| s.parse::<Square>().unwrap();
    assert!(start.black().contains(sq("d5")) && start.black().contains(sq("e4")));
    assert!(start.white().contains(sq("d4")) && start.white().contains(sq("e5")));
    let moves: Vec<Move> = start.legal_moves().into_iter().collect();
    let expected: Vec<Move> = ["d3", "c4", "f5", "e6"]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(moves, expected);
    assert_eq!(start.mobility(), 4);
    assert_eq!(start.potential_mobility(), 10);
    assert_eq!(start.disc_counts(), [2, 2]);
    assert_eq!(start.outcome(), None);
    assert_eq!(start.final_score(), None);
    assert_eq!(start.leaf_eval(), 0.0);
    assert_eq!(
        start.to_string(),
        "---------------------------OX------XO--------------------------- X"
    );
    assert_eq!(<Othello as Game>::NAME, "othello");
    assert_eq!(Othello::PLAYER_NAMES, ["black", "white"]);
}

#[test]
fn passes_and_game_end() {
    // Nobody can move: the game is over.
    let pos: Othello = format!("XX{}O O", "-".repeat(61)).parse().unwrap();
    assert!(!pos.must_pass());
    assert_eq!(pos.legal_moves().to_vec(), Vec::<Move>::new());
    assert!(pos.is_over());
    // Black wins 2-1 with 61 empties: +1 + 61 = 62.
    assert_eq!(pos.final_score(), Some(62));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
    // White to move has nothing, black can still move: white must pass.
    let pos: Othello = format!("XXO{} O", "-".repeat(61)).parse().unwrap();
    assert_eq!(pos.legal_moves().to_vec(), vec![Move::Pass]);
    let pos: Othello = format!("XO-{} O", "-".repeat(61)).parse().unwrap();
    assert!(pos.must_pass());
    assert_eq!(pos.legal_moves().to_vec(), vec![Move::Pass]);
    assert!(pos.is_legal(Move::Pass));
    let after = pos.play(Move::Pass).unwrap();
    assert_eq!(after.side_to_move(), Player::First);
    assert_eq!(
        after.legal_moves().to_vec(),
        vec![Move::Place("c1".parse().unwrap())]
    );
    assert!(pos.play("c1".parse().unwrap()).is_err());
    // Black plays c1 and wins everything: 3 discs, 61 empties.
    let end = after.play("c1".parse().unwrap()).unwrap();
    assert_eq!(end.final_score(), Some(64));
    assert_eq!(end.leaf_eval(), -3.0);
    // A finished draw with empties scores 0.
    let draw: Othello = format!("X{}O X", "-".repeat(62)).parse().unwrap();
    assert!(draw.is_over());
    assert_eq!(draw.final_score(), Some(0));
    assert_eq!(draw.outcome(), Some(Outcome::Draw));
}

#[test]
fn shortest_game_and_wipeout() {
    // The shortest possible game: 9 moves, black wipes out white.
    let pos = "e6f4e3f6g5d6e7f5c5"
        .parse::<MoveSequence>()
        .unwrap()
        .play_from(&Othello::new())
        .unwrap();
    assert!(pos.is_over());
    assert!(pos.white().is_empty());
    assert_eq!(pos.disc_counts(), [13, 0]);
    assert_eq!(pos.final_score(), Some(64));
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::First)));
}

#[test]
fn from_discs_checks_overlap() {
    let b = Bitboard(0b11);
    let w = Bitboard(0b110);
    let err = Othello::from_discs(b, w, Player::First).unwrap_err();
    assert_eq!(err.square(), Square::new(1));
    let pos = Othello::from_discs(Bitboard(1), Bitboard(2), Player::Second).unwrap();
    assert_eq!(pos.black(), Bitboard(1));
    assert_eq!(pos.player(), Bitboard(2));
}

// --- the contract suite ------------------------------------------------------------------------

fn contract() -> Contract<Othello> {
    let mut contract = Contract::<Othello>::new(Move::all());
    contract.playouts = 60;
    contract.max_plies = 200;
    let positions = random_positions(99, 6);
    contract.starts = positions.into_iter().step_by(25).collect();
    // A position that passes immediately and a finished one.
    contract
        .starts
        .push(format!("XO-{} O", "-".repeat(61)).parse().unwrap());
    contract
        .starts
        .push(format!("XX{}O O", "-".repeat(61)).parse().unwrap());
    contract
}

#[test]
fn contract_game() {
    contract().check_game();
}

#[test]
fn contract_symmetries() {
    let mut c = contract();
    c.playouts = 20;
    c.check_symmetries();
}

#[test]
fn fast_playout_matches_reference() {
    let mut rng_a = Rng::seed_from_u64(5);
    let mut rng_b = Rng::seed_from_u64(5);
    let mut outcomes = HashMap::new();
    for _ in 0..2_000 {
        let fast = Othello::new().random_playout(&mut rng_a);
        let slow = reference_playout(&Othello::new(), &mut rng_b);
        assert_eq!(fast, slow);
        *outcomes.entry(fast).or_insert(0u32) += 1;
    }
    assert_eq!(rng_a, rng_b);
    // Random play is nearly even; both sides win often.
    assert!(outcomes[&Outcome::Win(Player::First)] > 700);
    assert!(outcomes[&Outcome::Win(Player::Second)] > 700);
}

// --- hashing and symmetry ----------------------------------------------------------------------

#[test]
fn hash_keys_do_not_collide() {
    let positions = random_positions(11, 4_000);
    let mut by_key: HashMap<u64, Othello> = HashMap::new();
    let mut distinct = HashSet::new();
    for pos in &positions {
        distinct.insert(*pos);
        // Equal positions have equal keys.
        assert_eq!(pos.hash_key(), pos.clone().hash_key());
        if let Some(other) = by_key.insert(pos.hash_key(), *pos) {
            assert_eq!(&other, pos, "key collision");
        }
    }
    assert!(distinct.len() > 200_000, "{}", distinct.len());
    assert_eq!(by_key.len(), distinct.len());
    // The side to move is part of the key.
    let start = Othello::new();
    assert_ne!(
        start.hash_key(),
        start.passed().passed().passed().hash_key()
    );
}

#[test]
fn canonical_keys_and_images() {
    let positions = random_positions(12, 300);
    let mut classes: HashMap<u64, Othello> = HashMap::new();
    for pos in &positions {
        let key = pos.canonical_key();
        let canon = pos.canonical();
        for s in 0..8 {
            let img = pos.transform(s);
            assert_eq!(img.canonical_key(), key);
            assert_eq!(img.canonical(), canon);
            assert_eq!(img.disc_counts(), pos.disc_counts());
            assert_eq!(img.final_score(), pos.final_score());
            assert_eq!(img.mobility(), pos.mobility());
        }
        // Canonical keys equal only on images of each other (no collisions in the sample).
        if let Some(other) = classes.insert(key, canon) {
            assert_eq!(other, canon);
        }
    }
    // The start position has 2 distinct images, the first moves are all one class.
    let start = Othello::new();
    let images: HashSet<Othello> = (0..8).map(|s| start.transform(s)).collect();
    assert_eq!(images.len(), 2);
    let firsts: HashSet<u64> = start
        .legal_moves()
        .into_iter()
        .map(|m| start.play_unchecked(m).canonical_key())
        .collect();
    assert_eq!(firsts.len(), 1);
}

// --- bitboards ---------------------------------------------------------------------------------

#[test]
fn bitboard_kit() {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let b: Bitboard = [sq("a1"), sq("h8"), sq("d4")].into_iter().collect();
    assert_eq!(b.count(), 3);
    assert_eq!(b.iter().len(), 3);
    assert_eq!(
        b.iter().collect::<Vec<_>>(),
        vec![sq("a1"), sq("d4"), sq("h8")]
    );
    assert_eq!(b.iter().next_back(), Some(sq("h8")));
    assert_eq!(b & Bitboard::CORNERS, Bitboard(1 | 1 << 63));
    assert_eq!(b - Bitboard::CORNERS, Bitboard::from_square(sq("d4")));
    assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
    assert_eq!((b ^ b), Bitboard::EMPTY);
    assert_eq!(b.first(), Some(sq("a1")));
    assert_eq!(format!("{:x}", Bitboard(255)), "ff");
    let picture = format!("{:?}", Bitboard::from_square(sq("b1")));
    assert!(
        picture.starts_with("Bitboard(\n    . X . . . . . .\n"),
        "{picture}"
    );
    assert_eq!(picture.lines().count(), 10);
    // The alternate picture is a `bitboard!` invocation that builds the same set.
    let flips = Othello::new().flips(sq("d3"));
    assert_eq!(
        format!("{flips:#?}"),
        "bitboard! {\n".to_string()
            + &"    . . . . . . . .\n".repeat(3)
            + "    . . . X . . . .\n"
            + &"    . . . . . . . .\n".repeat(4)
            + "}"
    );
    let picture = format!("{:#?}", Bitboard(0x0123_4567_89ab_cdef));
    let body = picture
        .trim_start_matches("bitboard! {")
        .trim_end_matches('}');
    assert_eq!(
        Bitboard::from_picture(body),
        Bitboard(0x0123_4567_89ab_cdef)
    );
    const CORNERS: Bitboard = bitboard! {
        X . . . . . . X
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        . . . . . . . .
        X . . . . . . X
    };
    assert_eq!(CORNERS, Bitboard::CORNERS);
    for bad in ["X", "X . Y", &"X ".repeat(65)] {
        assert!(std::panic::catch_unwind(|| Bitboard::from_picture(bad)).is_err());
    }
    let mut e = Bitboard::EMPTY;
    e.extend([sq("c2")]);
    e |= Bitboard::from_square(sq("c3"));
    assert!(e.contains(sq("c2")) && e.contains(sq("c3")) && !e.contains(sq("c4")));
    assert_eq!(e.without(sq("c2")).with(sq("h8")).count(), 2);
    assert_eq!(sq("h8").index(), 63);
    assert_eq!((sq("c7").col(), sq("c7").row()), (2, 6));
    assert_eq!(Square::try_from(64), Err(64));
}
