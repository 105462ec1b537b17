use std::collections::BTreeSet;

use yomi_core::{ContainerError, Game, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::{transform_bitboard, Bitboard, Othello};

use crate::patterns::{digits_of, index_of};
use crate::weights::{Payload, PayloadV2};
use crate::*;

/// Weights with random values that tie exactly the configurations each pattern's own
/// symmetries exchange (every compact entry is one weight).
fn random_weights(phases: usize, seed: u64) -> Weights {
    let mut rng = Rng::seed_from_u64(seed);
    let len = Layout::get().compact_len();
    let tables = (0..phases)
        .map(|_| (0..len).map(|_| rng.below(2001) as i16 - 1000).collect())
        .collect();
    Weights::from_tables("random", tables).unwrap()
}

/// Positions from random games, every ply.
fn positions(seed: u64, games: usize) -> Vec<Othello> {
    let mut rng = Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Othello::new();
        while !pos.game_over() {
            out.push(pos);
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        out.push(pos);
    }
    out
}

fn image(pos: &Othello, sym: usize) -> (u64, u64) {
    (
        transform_bitboard(pos.player(), sym).0,
        transform_bitboard(pos.opponent(), sym).0,
    )
}

#[test]
fn placements_are_exactly_the_distinct_images_of_each_pattern() {
    let layout = Layout::get();
    let mut total = 0;
    for (k, pattern) in PATTERNS.iter().enumerate() {
        let images: BTreeSet<u64> = (0..8)
            .map(|sym| {
                pattern
                    .squares
                    .iter()
                    .map(|&s| transform_bitboard(Bitboard(1 << s), sym).0)
                    .fold(0, |a, b| a | b)
            })
            .collect();
        let placements: Vec<Vec<u8>> = layout.placement_squares(k);
        let sets: BTreeSet<u64> = placements
            .iter()
            .map(|sq| sq.iter().fold(0u64, |a, &s| a | 1 << s))
            .collect();
        assert_eq!(sets, images, "{}", pattern.name);
        assert_eq!(placements.len(), images.len(), "{}", pattern.name);
        total += placements.len();
    }
    assert_eq!(total, 46);
    // The compact table sizes (Burnside): a pattern that one reflection maps onto itself
    // keeps (3^n + 3^c) / 2 configurations, c the cycles of that reflection on its squares.
    let expect = |n: u32, cycles: u32| (3usize.pow(n) + 3usize.pow(cycles)) / 2;
    assert_eq!(
        layout.sizes(),
        [
            expect(10, 5),
            expect(9, 6),
            59_049,
            expect(8, 4),
            expect(8, 4),
            expect(8, 4),
            expect(8, 4),
            expect(7, 4),
            expect(6, 3),
            expect(5, 3),
            expect(4, 2),
        ]
    );
}

/// The obvious reference: for each pattern, read the base squares of all 8 images of the
/// position in order and add the weight of that configuration; a pattern with `s` of the 8
/// symmetries mapping it onto itself is counted `s` times per placement.
fn reference_by_pattern(w: &Weights, pos: &Othello) -> Vec<i64> {
    let layout = Layout::get();
    let table = w.table(w.phase_of(64 - pos.empties().count()));
    PATTERNS
        .iter()
        .enumerate()
        .map(|(k, pattern)| {
            (0..8)
                .map(|sym| {
                    let (p, o) = image(pos, sym);
                    let digits: Vec<u8> = pattern
                        .squares
                        .iter()
                        .map(|&s| {
                            if p >> s & 1 == 1 {
                                1
                            } else if o >> s & 1 == 1 {
                                2
                            } else {
                                0
                            }
                        })
                        .collect();
                    i64::from(table[layout.compact_index(k, index_of(&digits))])
                })
                .sum()
        })
        .collect()
}

#[test]
fn the_fast_path_equals_the_reference_on_random_positions() {
    let layout = Layout::get();
    for phases in [1, 7] {
        let w = random_weights(phases, 3 + phases as u64);
        for pos in positions(11, 30) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let table = w.table(w.phase_of(64 - pos.empties().count()));
            let features = layout.features(p, o);
            let slow: i64 = features.iter().map(|&i| i64::from(table[i])).sum();
            assert_eq!(i64::from(w.raw(p, o)), slow, "{pos}");
            // Pattern by pattern against the 8-image reference.
            let reference = reference_by_pattern(&w, &pos);
            let mut at = 1;
            for (k, pattern) in PATTERNS.iter().enumerate() {
                let n = layout.placement_squares(k).len();
                let by_placements: i64 = features[at..at + n]
                    .iter()
                    .map(|&i| i64::from(table[i]))
                    .sum();
                assert_eq!(
                    reference[k],
                    by_placements * (8 / n as i64),
                    "{} on {pos}",
                    pattern.name
                );
                at += n;
            }
        }
    }
}

/// Both compiled copies of the fast path (the same copy twice on a CPU without the features).
fn both_copies(w: &Weights) -> [Weights; 2] {
    [w.clone(), w.clone().with_cpu(Cpu::Portable)]
}

#[test]
fn both_compiled_copies_equal_the_slow_path_on_positions_of_random_games() {
    let layout = Layout::get();
    // The `pext` copy where the CPU layer detects the features and `pext` is fast.
    let want = match Cpu::detect() {
        Cpu::X86v3(token) if token.fast_pext() => Cpu::X86v3(token),
        _ => Cpu::Portable,
    };
    let mut checked = 0;
    for (phases, seed) in [(1, 21), (12, 22), (61, 23)] {
        let w = random_weights(phases, seed);
        let [auto, portable] = both_copies(&w);
        assert_eq!(portable.cpu(), Cpu::Portable);
        assert_eq!(auto.cpu(), want);
        for pos in positions(seed, 40) {
            let (p, o) = (pos.player().0, pos.opponent().0);
            let table = w.table(w.phase_of(64 - pos.empties().count()));
            let slow: i64 = layout
                .features(p, o)
                .iter()
                .map(|&i| i64::from(table[i]))
                .sum();
            assert_eq!(i64::from(auto.raw(p, o)), slow, "{pos}");
            assert_eq!(i64::from(portable.raw(p, o)), slow, "{pos}");
            checked += 1;
        }
    }
    // Arbitrary disc sets as well (not only reachable positions): every square in every state.
    let w = random_weights(3, 24);
    let [auto, portable] = both_copies(&w);
    let mut rng = Rng::seed_from_u64(25);
    for _ in 0..2000 {
        let (a, b) = (rng.next_u64(), rng.next_u64());
        let (p, o) = (a & !b, b & !a);
        let table = w.table(w.phase_of((p | o).count_ones()));
        let slow: i64 = layout
            .features(p, o)
            .iter()
            .map(|&i| i64::from(table[i]))
            .sum();
        assert_eq!(i64::from(auto.raw(p, o)), slow);
        assert_eq!(i64::from(portable.raw(p, o)), slow);
    }
    assert!(checked > 5000, "{checked}");
    // The built-in weights too.
    let [auto, portable] = both_copies(&Weights::builtin());
    for pos in positions(26, 20) {
        let (p, o) = (pos.player().0, pos.opponent().0);
        assert_eq!(auto.evaluate(p, o), portable.evaluate(p, o), "{pos}");
    }
}

#[test]
fn the_8_symmetries_give_the_same_value_and_a_colour_swap_the_opposite_for_black() {
    for w in both_copies(&random_weights(5, 99)) {
        symmetries_and_colours(&w);
    }
}

fn symmetries_and_colours(w: &Weights) {
    let mut nonzero = 0;
    for pos in positions(5, 30) {
        let (p, o) = (pos.player().0, pos.opponent().0);
        let v = w.evaluate(p, o);
        nonzero += usize::from(v != 0);
        for sym in 1..8 {
            let (sp, so) = image(&pos, sym);
            assert_eq!(w.evaluate(sp, so), v, "{pos} under symmetry {sym}");
        }
        // The same discs with the colours swapped and the other side to move: the side to
        // move has the same discs, so the same value; from black's side it is negated.
        let swapped = Othello::from_sides(pos.player(), pos.opponent(), pos.side_to_move().other());
        let for_black = |x: &Othello| {
            let v = w.evaluate(x.player().0, x.opponent().0);
            if x.side_to_move() == yomi_core::Player::First {
                v
            } else {
                -v
            }
        };
        assert_eq!(for_black(&swapped), -for_black(&pos));
    }
    assert!(nonzero > 100, "{nonzero}");
}

#[test]
fn a_tiny_weight_set_by_hand() {
    // One phase; bias 100; the empty 3x3 corner 7; the row-4 configuration of the start
    // position (. . . O X . . . from black to move: digits 0 0 0 2 1 0 0 0) 50.
    let layout = Layout::get();
    let mut t = vec![0i16; layout.compact_len()];
    t[0] = 100;
    t[layout.compact_index(1, 0)] = 7;
    let row4 = index_of(&[0, 0, 0, 2, 1, 0, 0, 0]);
    assert_eq!(row4, 2 * 27 + 81);
    t[layout.compact_index(5, row4)] = 50;
    let w = Weights::from_tables("tiny", vec![t]).unwrap();
    let start = Othello::new();
    // By hand: the bias; four empty corners 4 * 7; rows 4 and 5 and columns d and e each
    // hold a mover's and an opponent's disc side by side in the middle: row 4 reads
    // 0 0 0 2 1 0 0 0, row 5 reads 0 0 0 1 2 0 0 0, its mirror image, the same weight; so do
    // columns d and e. 100 + 28 + 4 * 50 = 328.
    assert_eq!(w.evaluate(start.player().0, start.opponent().0), 328);
    assert_eq!(
        layout.canonical(5, row4),
        layout.canonical(5, index_of(&[0, 0, 0, 1, 2, 0, 0, 0]))
    );
    // After f5 (black): row 5 is . . . X X X . . from white's side: digits 0 0 0 2 2 2 0 0,
    // weight 0; row 4 from white: . . . O X . . . reads 0 0 0 1 2: the tied 50; column f
    // (only f5): 0; column e (e4 X, e5 X): 0; column d (d4 O, d5 X): 1 2 -> 50. The 3x3
    // corners are still empty: 28.
    let after = start.play_unchecked("f5".parse().unwrap());
    assert_eq!(
        w.evaluate(after.player().0, after.opponent().0),
        100 + 28 + 50 + 50
    );
    assert_eq!(digits_of(row4, 8), [0, 0, 0, 2, 1, 0, 0, 0]);
}

#[test]
fn weight_files_round_trip_and_reject_corruption() {
    let w = random_weights(3, 5);
    let bytes = w.encode().unwrap();
    let back = Weights::decode(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.encode().unwrap(), bytes);
    for len in [0, 10, 49, 50, 51, bytes.len() / 2, bytes.len() - 1] {
        assert!(Weights::decode(&bytes[..len]).is_err(), "{len}");
    }
    let mut rng = Rng::seed_from_u64(1);
    for _ in 0..200 {
        let mut bad = bytes.clone();
        let i = rng.below(bad.len());
        bad[i] ^= 1 << rng.below(8);
        assert!(Weights::decode(&bad).is_err(), "byte {i}");
    }
    // A tree file is not a weight file; a layout from another build is refused.
    assert!(matches!(
        Weights::decode(b"YOMITREE and more bytes than a header needs to hold, really"),
        Err(WeightError::Container(ContainerError::BadMagic { .. }))
    ));
    let other = Payload {
        about: String::new(),
        patterns: vec![("edge".into(), 3)],
        tables: vec![vec![0; 4]],
    };
    let foreign = yomi_core::Container::new(*b"YOMIEVAL", 1, "weight file")
        .encode(WEIGHT_TAG, 1, &other)
        .unwrap();
    assert!(matches!(
        Weights::decode(&foreign),
        Err(WeightError::Layout(_))
    ));
    let other = PayloadV2 {
        about: String::new(),
        patterns: vec![("edge".into(), 3)],
        features: vec![],
        tables: vec![vec![0; 4]],
    };
    let foreign = WEIGHT_FILE.encode(WEIGHT_TAG, 1, &other).unwrap();
    assert!(matches!(
        Weights::decode(&foreign),
        Err(WeightError::Layout(_))
    ));
    assert!(matches!(Weights::zero(0, ""), Err(WeightError::Phases(0))));
    assert!(matches!(
        Weights::zero(62, ""),
        Err(WeightError::Phases(62))
    ));
    // Files: a round trip, a missing file, a directory.
    let dir = std::env::temp_dir().join(format!("yomi-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("w.weights");
    w.write(&path).unwrap();
    assert_eq!(Weights::read(&path).unwrap(), w);
    assert!(matches!(
        Weights::read(&dir.join("missing")),
        Err(WeightError::Container(ContainerError::Io { .. }))
    ));
    assert!(matches!(
        Weights::read(&dir),
        Err(WeightError::Container(ContainerError::NotAFile { .. }))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn phases_split_the_disc_counts_evenly() {
    assert_eq!(phase_of(4, 1), 0);
    assert_eq!(phase_of(64, 1), 0);
    assert_eq!(phase_of(4, 61), 0);
    assert_eq!(phase_of(64, 61), 60);
    let counts: Vec<usize> = (0..4)
        .map(|ph| (4..=64).filter(|&d| phase_of(d, 4) == ph).count())
        .collect();
    assert_eq!(counts, [16, 15, 15, 15]);
}

#[test]
fn the_fast_paths_diagonal_masks_are_the_layouts() {
    let layout = Layout::get();
    for (d, ps) in layout.placements[6..].iter().enumerate() {
        for (k, pl) in ps.iter().enumerate() {
            let crate::patterns::Gather::Diag { mask, shift, .. } = pl.gather else {
                panic!("a diagonal");
            };
            assert_eq!(crate::fast::DIAG_MASKS[d][k], (mask, shift), "{d} {k}");
        }
    }
}

#[test]
fn the_built_in_weights_decode_and_value_the_start_about_even() {
    let w = Weights::builtin();
    assert_eq!(w.phases(), 12);
    assert!(w.about().starts_with("yomi train fit"), "{}", w.about());
    let start = Othello::new();
    let v = w.evaluate(start.player().0, start.opponent().0);
    assert!(v.abs() < 300, "{v}");
    // A corner for the side to move is worth something in the middle game: take a position
    // and give the mover a1 instead of an empty a1.
    let pos = "f5d6c3d3c4f4f6"
        .parse::<yomi_othello::MoveSequence>()
        .unwrap()
        .play_from(&Othello::new())
        .unwrap();
    let (p, o) = (pos.player().0, pos.opponent().0);
    assert!(w.evaluate(p | 1, o) > w.evaluate(p, o));
}

/// Weights with random values for the patterns and the `features`.
fn random_feature_weights(phases: usize, features: &[Feature], seed: u64) -> Weights {
    let mut rng = Rng::seed_from_u64(seed);
    let len = table_len(features);
    let tables = (0..phases)
        .map(|_| (0..len).map(|_| rng.below(2001) as i16 - 1000).collect())
        .collect();
    Weights::with_features("random", features, tables).unwrap()
}

#[test]
fn features_are_counted_directly_and_both_copies_add_their_weights() {
    // The features' values against their definitions.
    for pos in positions(31, 10) {
        let (p, o) = (pos.player().0, pos.opponent().0);
        let mob = Feature::Mobility.entries(p, o);
        assert_eq!(mob[0], pos.moves().count().min(40) as usize);
        let pass = Othello::from_sides(pos.opponent(), pos.player(), pos.side_to_move().other());
        assert_eq!(mob[1], 41 + pass.moves().count().min(40) as usize);
        let pot = Feature::Potential.entries(p, o);
        let near = |own: u64, other: u64| {
            (0..64)
                .filter(|&s| (own | other) >> s & 1 == 0)
                .filter(|&s| {
                    let (r, c) = (s / 8, s % 8);
                    (-1i32..=1).any(|dr| {
                        (-1i32..=1).any(|dc| {
                            let (rr, cc) = (r + dr, c + dc);
                            (0..8).contains(&rr)
                                && (0..8).contains(&cc)
                                && other >> (rr * 8 + cc) & 1 == 1
                        })
                    })
                })
                .count()
        };
        assert_eq!(pot, [near(p, o), 61 + near(o, p)], "{pos}");
    }
    assert_eq!(feature_entries(&FEATURES, 0, 0), vec![0, 41, 82, 143]);
    for f in FEATURES {
        assert_eq!(f.name().parse::<Feature>().unwrap(), f);
        assert_eq!(f.to_string(), f.name());
    }
    assert!("parity".parse::<Feature>().is_err());
    // The fast copies equal the sum of the table entries the slow path names.
    let layout = Layout::get();
    for (features, seed) in [
        (vec![Feature::Mobility], 41),
        (vec![Feature::Potential, Feature::Mobility], 42),
        (FEATURES.to_vec(), 43),
    ] {
        let w = random_feature_weights(6, &features, seed);
        assert_eq!(w.features(), &features[..]);
        for copy in both_copies(&w) {
            for pos in positions(seed, 20) {
                let (p, o) = (pos.player().0, pos.opponent().0);
                let table = w.table(w.phase_of(64 - pos.empties().count()));
                let slow: i64 = layout
                    .features(p, o)
                    .into_iter()
                    .chain(
                        feature_entries(&features, p, o)
                            .into_iter()
                            .map(|e| layout.compact_len() + e),
                    )
                    .map(|i| i64::from(table[i]))
                    .sum();
                assert_eq!(i64::from(copy.raw(p, o)), slow, "{pos}");
                // With the mover's moves given (as the search has them), the same value.
                let mp = yomi_othello::moves(pos.player(), pos.opponent()).0;
                assert_eq!(copy.evaluate_with_moves(p, o, mp), copy.evaluate(p, o));
            }
            symmetries_and_colours(&copy);
        }
    }
}

#[test]
fn weight_files_with_features_round_trip_and_first_generation_files_still_load() {
    let w = random_feature_weights(4, &FEATURES, 51);
    let bytes = w.encode().unwrap();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), 2);
    let back = Weights::decode(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.features(), &FEATURES[..]);
    assert_eq!(back.encode().unwrap(), bytes);
    for len in [0, 10, 49, 50, 51, bytes.len() / 2, bytes.len() - 1] {
        assert!(Weights::decode(&bytes[..len]).is_err(), "{len}");
    }
    // Without features the file is the first generation's (version 1), and such files load.
    let plain = random_weights(2, 52);
    let v1 = plain.encode().unwrap();
    assert_eq!(u16::from_le_bytes([v1[8], v1[9]]), 1);
    assert_eq!(Weights::decode(&v1).unwrap(), plain);
    // The built-in weights (round 4) are the second generation's; the first generation's
    // real files (rounds 2 and 3) load in the training crate's held-out test.
    assert_eq!(Weights::builtin().features(), &FEATURES[..]);
    // An unknown feature, a feature of another size, a feature twice, a short table.
    let len = table_len(&[Feature::Mobility]);
    for (features, why) in [
        (vec![("parity".to_string(), 5u32)], "unknown"),
        (vec![("mobility".to_string(), 80)], "weights"),
    ] {
        let payload = PayloadV2 {
            about: String::new(),
            patterns: PATTERNS
                .iter()
                .zip(Layout::get().sizes())
                .map(|(p, &s)| (p.name.to_string(), s as u32))
                .collect(),
            features,
            tables: vec![vec![0; len]],
        };
        let bytes = WEIGHT_FILE.encode(WEIGHT_TAG, 1, &payload).unwrap();
        match Weights::decode(&bytes) {
            Err(WeightError::Layout(m)) => assert!(m.contains(why), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    assert!(matches!(
        Weights::zero_with(1, &[Feature::Mobility, Feature::Mobility], ""),
        Err(WeightError::Layout(_))
    ));
    assert!(matches!(
        Weights::with_features("", &[Feature::Mobility], vec![vec![0; len - 1]]),
        Err(WeightError::Layout(_))
    ));
    // Files on disk of both versions.
    let dir = std::env::temp_dir().join(format!("yomi-eval-v2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for x in [&w, &plain] {
        let path = dir.join("w.weights");
        x.write(&path).unwrap();
        assert_eq!(&Weights::read(&path).unwrap(), x);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
