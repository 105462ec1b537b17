//! The opening book: its file and text round trips, corrupt and foreign files refused, look-up
//! under the 8 symmetries, negamax against a direct recomputation, and exact leaves against
//! the solver.

use std::sync::Arc;

use yomi_core::testing::random_game_line;
use yomi_core::{Container, ContainerError, Game, Rng, Symmetric};
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::{
    weights_digest, Book, BookBuilder, BookEntry, BookError, BuildConfig, Mode, Solver,
    SolverConfig, Weights, ENTRY_BYTES, EXACT_DEPTH, WLD_DEPTH,
};

fn builder(depth: u32, exact: u32) -> BookBuilder {
    BookBuilder::new(
        BuildConfig {
            depth,
            exact,
            wld: 0,
            hash_mb: 1,
        },
        Weights::builtin(),
    )
    .unwrap()
}

/// The least `(player, opponent)` pair over the 8 images.
fn least_image(pos: &Othello) -> (u64, u64) {
    (0..8)
        .map(|s| {
            let t = pos.transform(s);
            (t.player().0, t.opponent().0)
        })
        .min()
        .unwrap()
}

fn lines(texts: &[&str]) -> Vec<Vec<Move>> {
    texts
        .iter()
        .map(|t| t.parse::<MoveSequence>().unwrap().0)
        .collect()
}

/// A small book from the start: three openings at depth 2.
fn small_book() -> Book {
    let digest = weights_digest(&Weights::builtin()).unwrap();
    builder(2, 0)
        .new_book(
            digest,
            &lines(&[
                "f5 d6 c3 d3 c4",
                "f5 f6 e6 f4",
                "f5 d6 c5 f4 e3",
                "d3 c5 f6",
            ]),
        )
        .unwrap()
}

#[test]
fn a_shared_book_is_read_once_and_again_when_its_file_changes() {
    let book = small_book();
    let path = std::env::temp_dir().join(format!("yomi-shared-{}.book", std::process::id()));
    book.write(&path).unwrap();
    let first = Book::shared(&path).unwrap();
    assert_eq!(*first, book);
    // The same file: the same copy.
    assert!(Arc::ptr_eq(&first, &Book::shared(&path).unwrap()));
    // A bigger book written over it is read again.
    let mut bigger = book.clone();
    let far = Othello::new().play_line("f5 d6 c3 d3 c4 f4 f6").unwrap();
    bigger.insert(&far, book.get(&Othello::new()).unwrap());
    bigger.write(&path).unwrap();
    let second = Book::shared(&path).unwrap();
    assert_eq!(*second, bigger);
    assert!(!Arc::ptr_eq(&first, &second));
    // A file that no longer reads is refused, not answered from the copy kept.
    std::fs::write(&path, b"YOMIBOOK but not a book").unwrap();
    assert!(Book::shared(&path).is_err());
    std::fs::remove_file(&path).ok();
    assert!(matches!(
        Book::shared(&path),
        Err(BookError::Container(ContainerError::Io { .. }))
    ));
}

#[test]
fn a_book_round_trips_through_its_file_and_its_text() {
    let book = small_book();
    // The start and every position of the lines, once up to symmetry (d3 is f5's image).
    let mut distinct = std::collections::HashSet::new();
    for line in lines(&[
        "",
        "f5 d6 c3 d3 c4",
        "f5 f6 e6 f4",
        "f5 d6 c5 f4 e3",
        "d3 c5 f6",
    ]) {
        let mut pos = Othello::new();
        distinct.insert(least_image(&pos));
        for mv in line {
            pos = pos.play_unchecked(mv);
            distinct.insert(least_image(&pos));
        }
    }
    assert_eq!(book.len(), distinct.len(), "{}", book.export());
    assert_eq!(book.len(), 12);
    assert_eq!(book.weights(), weights_digest(&Weights::builtin()).unwrap());
    let bytes = book.to_bytes().unwrap();
    // 24 bytes a position, after the header and two varints (the digest and the length).
    assert!(bytes.len() - book.len() * ENTRY_BYTES <= 50 + 9 + 9);
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    let text = book.export();
    assert_eq!(Book::import(&text).unwrap(), book);
    assert_eq!(Book::import(&text).unwrap().to_bytes().unwrap(), bytes);
    let path = std::env::temp_dir().join(format!("yomi-book-{}.book", std::process::id()));
    book.write(&path).unwrap();
    assert_eq!(Book::read(&path).unwrap(), book);
    std::fs::remove_file(&path).ok();
    // The lines went through the start four times, through f5 three times (d3 is its image).
    assert_eq!(book.get(&Othello::new()).unwrap().lines, 4);
    let f5 = Othello::new().play_line("f5").unwrap();
    assert_eq!(book.get(&f5).unwrap().lines, 4);
}

#[test]
fn corrupt_truncated_and_foreign_files_are_refused() {
    let book = small_book();
    let bytes = book.to_bytes().unwrap();
    let mut flipped = bytes.clone();
    let last = flipped.len() - 3;
    flipped[last] ^= 0x40;
    assert!(matches!(
        Book::from_bytes(&flipped),
        Err(BookError::Container(
            ContainerError::ChecksumMismatch { .. }
        ))
    ));
    assert!(matches!(
        Book::from_bytes(&bytes[..bytes.len() - 5]),
        Err(BookError::Container(ContainerError::Truncated { .. }))
    ));
    let mut foreign = bytes.clone();
    foreign[..8].copy_from_slice(b"YOMITREE");
    assert!(matches!(
        Book::from_bytes(&foreign),
        Err(BookError::Container(ContainerError::BadMagic { .. }))
    ));
    assert!(Book::from_bytes(&[]).is_err());
    // A well-formed file whose position is not canonical: the start's image that is not the
    // least one, written by hand with the book's container.
    let start = Othello::new();
    let image = (0..8)
        .map(|s| start.transform(s))
        .max_by_key(|p| (p.player().0, p.opponent().0))
        .unwrap();
    let mut record = Vec::new();
    record.extend_from_slice(&image.player().0.to_le_bytes());
    record.extend_from_slice(&image.opponent().0.to_le_bytes());
    record.extend_from_slice(&[0, 2, u8::MAX, 0, 1, 0, 0, 0]);
    let container = Container {
        magic: *b"YOMIBOOK",
        version: 1,
        what: "book file",
    };
    let crafted = container
        .encode("othello", 1, &(7u64, record.clone()))
        .unwrap();
    let err = Book::from_bytes(&crafted).unwrap_err();
    assert!(err.to_string().contains("position 0"), "{err}");
    assert!(err.to_string().contains("canonical"), "{err}");
    // The record count disagrees with the payload.
    let crafted = container.encode("othello", 2, &(7u64, record)).unwrap();
    assert!(matches!(
        Book::from_bytes(&crafted),
        Err(BookError::BadEntry { .. })
    ));
    // Text: a bad header, a bad line, a repeated position.
    assert_eq!(Book::import("").unwrap_err().line, 1);
    assert_eq!(Book::import("# a book\n").unwrap_err().line, 1);
    let text = book.export();
    let mut lines: Vec<&str> = text.lines().collect();
    let second = lines[1];
    lines.push(second);
    let err = Book::import(&lines.join("\n")).unwrap_err();
    assert!(err.reason.contains("twice"), "{err}");
    let broken = text.replacen(" +", " +99", 1);
    assert!(Book::import(&broken).is_err());
}

#[test]
fn every_image_of_a_position_finds_it_with_the_leaf_turned() {
    let book = small_book();
    let mut leaves = 0;
    for (canon, _) in book.iter() {
        for s in 0..8 {
            let pos = canon.transform(s);
            let e = book.get(&pos).expect("an image is found");
            assert_eq!(
                e.leaf,
                book.get(&canon)
                    .unwrap()
                    .leaf
                    .map(|m| Othello::transform_move(m, s))
            );
            if let Some(leaf) = e.leaf {
                assert!(pos.legal_moves().contains(&leaf), "{pos} {leaf}");
                leaves += 1;
            }
            assert!(book.contains(&pos));
        }
    }
    assert!(leaves >= 8 * 8, "{leaves}");
    // The start's four moves are images of each other, all in the book: no leaf.
    assert_eq!(book.get(&Othello::new()).unwrap().leaf, None);
    assert!(!book.contains(&Othello::new().play_line("f5 f4").unwrap()));
    assert!(book
        .get(&Othello::new().play_line("f5 f4").unwrap())
        .is_none());
}

/// After `fix`, each position's value is the best of its leaf and its book moves, and a
/// second `fix` changes nothing.
#[test]
fn fix_negamaxes_the_book() {
    let mut book = small_book();
    assert_eq!(book.fix(), 0, "new_book fixed it");
    for (pos, e) in book.iter() {
        let moves = book.moves(&pos);
        assert!(!moves.is_empty());
        let best = moves.iter().map(|m| m.value).max().unwrap();
        assert_eq!(e.value, best, "{pos}");
        assert_eq!(moves[0].value, best, "best first");
        assert_eq!(
            moves.iter().filter(|m| m.leaf).count(),
            usize::from(e.leaf.is_some())
        );
    }
    // Spoil every value: fix restores them.
    let fixed = book.clone();
    let spoiled: Vec<(Othello, BookEntry)> = book.iter().collect();
    for (pos, mut e) in spoiled {
        e.value = 64;
        book.insert(&pos, e);
    }
    assert!(book.fix() > 0);
    assert_eq!(book, fixed);
}

/// In the exact region, a position whose moves are all in the book has its solver value.
#[test]
fn exact_leaves_and_values_agree_with_the_solver() {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 1,
        ..SolverConfig::default()
    })
    .unwrap();
    let mut checked = 0;
    for seed in 1..=8 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        let mut pos = Othello::new();
        let mut root = None;
        for &mv in &line {
            if pos.empties().count() == 10 && pos.legal_moves().len() > 1 {
                root = Some(pos);
                break;
            }
            pos = pos.play_unchecked(mv);
        }
        let Some(root) = root else { continue };
        let mut b = builder(4, 12);
        let mut book = Book::new(0);
        b.add(&mut book, &root).unwrap();
        let e = book.get(&root).unwrap();
        assert_eq!(e.depth, EXACT_DEPTH);
        let exact = solver.solve(&root, Mode::Exact).score;
        assert_eq!(i32::from(e.value), exact, "the leaf is the best move");
        assert_eq!(i32::from(e.leaf_value), exact);
        // Every child into the book, then its leaf moves on: the value stays the solver's.
        for &mv in root.legal_moves().iter() {
            b.add(&mut book, &root.play_unchecked(mv)).unwrap();
        }
        b.refresh(&mut book, &root);
        book.fix();
        let e = book.get(&root).unwrap();
        assert_eq!(i32::from(e.value), exact, "{root}");
        for m in book.moves(&root) {
            let after = root.play_unchecked(m.mv);
            let v = if after.is_over() {
                -after.final_score_for_mover()
            } else {
                -solver.solve(&after, Mode::Exact).score
            };
            assert_eq!(i32::from(m.value), v, "{root} {}", m.mv);
        }
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
}

#[test]
fn bad_settings_and_lines_are_errors() {
    let w: Arc<Weights> = Weights::builtin();
    for config in [
        BuildConfig {
            depth: 0,
            ..BuildConfig::default()
        },
        BuildConfig {
            exact: 30,
            ..BuildConfig::default()
        },
    ] {
        assert!(BookBuilder::new(config, w.clone()).is_err());
    }
    let err = builder(1, 0)
        .new_book(0, &lines(&["f5 d6 a1"]))
        .unwrap_err();
    assert!(err.to_string().contains("line 1: move 3"), "{err}");
}

/// A deviate round in shards, applied and fixed, is the round in one, byte for byte; the
/// frontier respects the budget; rounds grow the book.
#[test]
fn deviate_rounds_in_shards_equal_the_whole_round() {
    use yomi_core::Shard;
    use yomi_othello_search::DeviateBudget;
    let mut book = builder(2, 0).new_book(0, &[]).unwrap();
    let budget = DeviateBudget {
        per_move: 2,
        total: 4,
        min_ply: 2,
    };
    for round in 0..4 {
        let frontier = book.frontier(&budget);
        assert!(!frontier.is_empty(), "round {round}");
        let mut whole = book.clone();
        let updates = builder(2, 0)
            .deviate(&book, &frontier, Shard::WHOLE, |_| {})
            .unwrap();
        whole.apply(&updates);
        whole.fix();
        let mut sharded = book.clone();
        let parts: Vec<Book> = (0..3)
            .map(|k| {
                builder(2, 0)
                    .deviate(&book, &frontier, Shard { index: k, count: 3 }, |_| {})
                    .unwrap()
            })
            .collect();
        for p in parts.iter().rev() {
            sharded.apply(p);
        }
        sharded.fix();
        // On threads: the same updates, byte for byte, whole and in a shard.
        for threads in [2, 3] {
            let on_threads = builder(2, 0)
                .deviate_threads(&book, &frontier, Shard::WHOLE, threads, |_| {})
                .unwrap();
            assert_eq!(on_threads, updates, "round {round}, {threads} threads");
            let shard = Shard { index: 1, count: 3 };
            assert_eq!(
                builder(2, 0)
                    .deviate_threads(&book, &frontier, shard, threads, |_| {})
                    .unwrap(),
                parts[1],
                "round {round}, shard 1/3 on {threads} threads"
            );
        }
        assert_eq!(
            sharded.to_bytes().unwrap(),
            whole.to_bytes().unwrap(),
            "round {round}"
        );
        assert!(whole.len() > book.len());
        // Every frontier position's old leaf now leads into the book.
        for p in &frontier {
            let leaf = book.get(p).unwrap().leaf.unwrap();
            assert!(whole.contains(&p.play_unchecked(leaf)));
        }
        book = whole;
    }
    // Up to min_ply every leaf is expanded, one a round: the start's first (its four moves are
    // images of each other), then f5's three in three rounds.
    let f5 = Othello::new().play_line("f5").unwrap();
    for mv in f5.legal_moves().iter() {
        assert!(book.contains(&f5.play_unchecked(*mv)), "f5 {mv}");
    }
    // A budget of nothing beyond min_ply 0: only leaves that lose nothing, on lines that
    // lose nothing.
    let strict = DeviateBudget {
        per_move: 0,
        total: 0,
        min_ply: 0,
    };
    for p in book.frontier(&strict) {
        let e = book.get(&p).unwrap();
        assert_eq!(e.leaf_value, e.value, "{p}");
    }
}

/// Games stored into a book add their new positions and count their lines; a bad line
/// leaves the book as it was.
#[test]
fn store_adds_games_and_their_lines() {
    let mut book = small_book();
    let start_lines = book.get(&Othello::new()).unwrap().lines;
    let mut b = builder(2, 0);
    // A line already in the book adds no position, only its count.
    let added = b
        .store(&mut book, &lines(&["f5 d6 c3 d3 c4"]), None)
        .unwrap();
    assert_eq!(added, 0);
    assert_eq!(book.get(&Othello::new()).unwrap().lines, start_lines + 1);
    let after = |t: &str| Othello::new().play_line(t).unwrap();
    let five = book.get(&after("f5 d6 c3 d3 c4")).unwrap().lines;
    assert_eq!(five, 2);
    // The parallel opening is new: cut at 3 plies, its two new positions.
    let n = book.len();
    let added = b
        .store(&mut book, &lines(&["f5 f4 e3 f6 d3"]), Some(3))
        .unwrap();
    assert_eq!(added, 2);
    assert_eq!(book.len(), n + 2);
    assert!(book.contains(&after("f5 f4 e3")));
    assert!(!book.contains(&after("f5 f4 e3 f6")));
    // Stored values are negamaxed: the start's value is the best of its book moves.
    let copy = book.clone();
    assert_eq!(book.fix(), 0);
    assert_eq!(book, copy);
    // A bad line (the second) is refused before anything changes.
    let err = b
        .store(&mut book, &lines(&["f5 f6 e6", "f5 d6 a1"]), None)
        .unwrap_err();
    assert!(err.to_string().contains("line 2: move 3"), "{err}");
    assert_eq!(book, copy);
}

/// The book's openings at a ply: one line to each distinct position there, replaying to it,
/// with its value for black, filtered by `within`.
#[test]
fn lines_at_a_ply_lead_to_each_book_position_once() {
    let book = small_book();
    let start = book.lines_at(0, 64);
    assert_eq!(start.len(), 1);
    assert!(start[0].0.is_empty());
    assert_eq!(
        start[0].1,
        i32::from(book.get(&Othello::new()).unwrap().value)
    );
    // The four first moves are one position up to symmetry; d3 comes first in move order.
    let one = book.lines_at(1, 64);
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].0, lines(&["d3"])[0]);
    // After f5: d6 and f6 are in the book (and d3 c5 is f5 d6 under a symmetry).
    assert_eq!(book.lines_at(2, 64).len(), 2);
    for ply in 0..7u32 {
        let all = book.lines_at(ply, 64);
        let mut seen = std::collections::HashSet::new();
        for (line, value) in &all {
            let mut pos = Othello::new();
            for &mv in line {
                pos = pos.play(mv).unwrap();
            }
            assert_eq!(60 - pos.empties().count(), ply, "{line:?}");
            assert!(seen.insert(least_image(&pos)), "{line:?} twice");
            let e = book.get(&pos).unwrap();
            let black = if pos.side_to_move() == yomi_core::Player::First {
                e.value
            } else {
                -e.value
            };
            assert_eq!(*value, i32::from(black));
        }
        let near: Vec<_> = book.lines_at(ply, 1);
        assert!(near.iter().all(|(_, v)| v.abs() <= 1));
        assert_eq!(near.len(), all.iter().filter(|(_, v)| v.abs() <= 1).count());
    }
    assert!(book.lines_at(30, 64).is_empty());
}

#[test]
fn wld_leaves_keep_the_midgame_value_within_the_proof() {
    let mut solver = Solver::new(SolverConfig {
        hash_mb: 1,
        ..SolverConfig::default()
    })
    .unwrap();
    let mut checked = 0;
    let mut signs = std::collections::BTreeSet::new();
    for seed in 1..=10 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        let mut pos = Othello::new();
        let mut root = None;
        for &mv in &line {
            if pos.empties().count() == 14 && pos.legal_moves().len() > 1 {
                root = Some(pos);
                break;
            }
            pos = pos.play_unchecked(mv);
        }
        let Some(root) = root else { continue };
        // WLD from 14 empties, exact from 10: the root's moves are proved, not solved.
        let mut b = BookBuilder::new(
            BuildConfig {
                depth: 2,
                exact: 10,
                wld: 14,
                hash_mb: 1,
            },
            Weights::builtin(),
        )
        .unwrap();
        let mut book = Book::new(0);
        b.add(&mut book, &root).unwrap();
        let e = book.get(&root).unwrap();
        let leaf = e.leaf.unwrap();
        let after = root.play_unchecked(leaf);
        if after.is_over() {
            continue;
        }
        assert_eq!(e.depth, WLD_DEPTH, "{root}");
        // The leaf's value has the sign of its exact value, and is a possible score.
        let exact = -solver.solve(&after, Mode::Exact).score;
        assert_eq!(
            i32::from(e.leaf_value).signum(),
            exact.signum(),
            "{root} {leaf}: {} against {exact}",
            e.leaf_value
        );
        assert!(exact == 0 || i32::from(e.leaf_value).abs() >= 2);
        signs.insert(exact.signum());
        // The leaf is a best move for win, draw or loss: no move does better.
        let best = root
            .legal_moves()
            .iter()
            .map(|&mv| {
                let a = root.play_unchecked(mv);
                if a.is_over() {
                    -a.final_score_for_mover()
                } else {
                    -solver.solve(&a, Mode::Exact).score
                }
            })
            .max()
            .unwrap();
        assert_eq!(best.signum(), exact.signum(), "{root}");
        // Its text form says `wld` and reads back.
        let text = book.export();
        assert!(text.contains(" wld "), "{text}");
        assert_eq!(Book::import(&text).unwrap(), book);
        checked += 1;
    }
    assert!(checked >= 5, "{checked}");
    assert!(signs.len() >= 2, "wins and losses both checked: {signs:?}");
    // Above 26 empties WLD is refused.
    assert!(BookBuilder::new(
        BuildConfig {
            wld: 27,
            ..BuildConfig::default()
        },
        Weights::builtin()
    )
    .is_err());
}

#[test]
fn round_parts_merge_into_the_whole_round_and_nothing_else() {
    use yomi_core::Shard;
    use yomi_othello_search::{DeviateBudget, RoundPart, RoundStamp};
    let book = builder(2, 0).new_book(0, &[]).unwrap();
    let budget = DeviateBudget {
        per_move: 2,
        total: 4,
        min_ply: 3,
    };
    let config = builder(2, 0).config().clone();
    let frontier = book.frontier(&budget);
    let part = |k: u64, n: u64, config: &BuildConfig, budget: &DeviateBudget| {
        let shard = Shard { index: k, count: n };
        let mut b = BookBuilder::new(config.clone(), Weights::builtin()).unwrap();
        let frontier = book.frontier(budget);
        RoundPart {
            stamp: RoundStamp::new(&book, budget, config, frontier.len(), shard).unwrap(),
            updates: b.deviate(&book, &frontier, shard, |_| {}).unwrap(),
        }
    };
    let mut whole = book.clone();
    whole.apply(
        &builder(2, 0)
            .deviate(&book, &frontier, Shard::WHOLE, |_| {})
            .unwrap(),
    );
    whole.fix();
    let parts: Vec<RoundPart> = (0..3).map(|k| part(k, 3, &config, &budget)).collect();
    // A part's file round-trips; a corrupt one is refused.
    let bytes = parts[1].to_bytes().unwrap();
    assert_eq!(RoundPart::from_bytes(&bytes).unwrap(), parts[1]);
    let mut bad = bytes.clone();
    *bad.last_mut().unwrap() ^= 1;
    assert!(RoundPart::from_bytes(&bad).is_err());
    assert!(
        RoundPart::from_bytes(&book.to_bytes().unwrap()).is_err(),
        "a book is no part"
    );
    // In any order, the parts give the whole round, byte for byte.
    let mut merged = book.clone();
    merged
        .merge_round(&[parts[2].clone(), parts[0].clone(), parts[1].clone()])
        .unwrap();
    assert_eq!(merged.to_bytes().unwrap(), whole.to_bytes().unwrap());
    // Anything else is refused with why, and the book is left as it was.
    let refused = |parts: &[RoundPart], needle: &str| {
        let mut b = book.clone();
        match b.merge_round(parts) {
            Err(BookError::Round(why)) => assert!(why.contains(needle), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(b, book);
    };
    refused(&parts[..2], "shard is 2/3 missing");
    refused(
        &[parts[0].clone(), parts[0].clone(), parts[1].clone()],
        "comes twice",
    );
    let deeper = BuildConfig {
        depth: 3,
        ..config.clone()
    };
    refused(
        &[
            parts[0].clone(),
            part(1, 3, &deeper, &budget),
            parts[2].clone(),
        ],
        "depth 2 against 3",
    );
    let wider = DeviateBudget {
        per_move: 3,
        ..budget
    };
    refused(
        &[
            parts[0].clone(),
            parts[1].clone(),
            part(2, 3, &config, &wider),
        ],
        "per-move budget 2 against 3",
    );
    refused(
        &[parts[0].clone(), part(1, 2, &config, &budget)],
        "shard count 3 against 2",
    );
    refused(&[], "no part");
    // Parts of a round of the merged book do not apply to the old one.
    let later = {
        let shard = Shard::WHOLE;
        let frontier = merged.frontier(&budget);
        RoundPart {
            stamp: RoundStamp::new(&merged, &budget, &config, frontier.len(), shard).unwrap(),
            updates: builder(2, 0)
                .deviate(&merged, &frontier, shard, |_| {})
                .unwrap(),
        }
    };
    refused(&[later], "made from another book");
}

#[test]
fn a_position_is_valued_the_same_from_any_of_its_images() {
    // After f5, d6 and f4 are images of each other (a tie); random positions too.
    let mut positions = vec![
        Othello::new().play_line("f5").unwrap(),
        Othello::new().play_line("f5 d6").unwrap(),
    ];
    for seed in 1..=6 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        let mut pos = Othello::new();
        for &mv in line.iter().take(10 + seed as usize) {
            pos = pos.play_unchecked(mv);
        }
        positions.push(pos);
    }
    for pos in positions {
        let books: Vec<Book> = (0..8)
            .map(|s| {
                let mut book = Book::new(0);
                builder(2, 0).add(&mut book, &pos.transform(s)).unwrap();
                book
            })
            .collect();
        for (s, b) in books.iter().enumerate() {
            assert_eq!(b, &books[0], "{pos} under symmetry {s}");
        }
    }
}
