//! The opening book's file: a book of 1,000,000 positions (every distinct position of seeded
//! random games) read back from its bytes with every record checked (issue 40: "a 1 M-position
//! book loads in well under a second"). Asserts the count and a sum of what it reads.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_core::{Game, Rng};
use yomi_othello::Othello;
use yomi_othello_search::{Book, BookEntry};

const POSITIONS: usize = 1_000_000;

/// A book of `POSITIONS` distinct positions with a move to play, from seeded random games;
/// the value of each is its disc difference clamped to -64..64, its lines its empties.
fn book() -> Book {
    let mut book = Book::new(2026);
    let mut rng = Rng::seed_from_u64(40);
    while book.len() < POSITIONS {
        let mut pos = Othello::new();
        while !pos.is_over() && book.len() < POSITIONS {
            let moves = pos.legal_moves();
            let must_pass = moves.len() == 1 && moves[0] == yomi_othello::Move::Pass;
            if !must_pass && !book.contains(&pos) {
                let discs = pos.player().count() as i8 - pos.opponent().count() as i8;
                book.insert(
                    &pos,
                    BookEntry {
                        value: discs,
                        depth: 8,
                        leaf: Some(moves[0]),
                        leaf_value: discs,
                        lines: pos.empties().count(),
                    },
                );
            }
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    book
}

fn bench_book(c: &mut Criterion) {
    let book = book();
    let bytes = book.to_bytes().expect("the book encodes");
    assert!(bytes.len() <= 50 + 18 + 24 * POSITIONS);
    let lines: u64 = book.iter().map(|(_, e)| u64::from(e.lines)).sum();
    let mut group = c.benchmark_group("othello/book");
    group.sample_size(10);
    group.throughput(Throughput::Elements(POSITIONS as u64));
    group.bench_function("load 1M positions (every record checked)", |b| {
        b.iter(|| {
            let read = Book::from_bytes(black_box(&bytes)).expect("the book reads");
            let sum: u64 = read.iter().map(|(_, e)| u64::from(e.lines)).sum();
            assert_eq!((read.len(), sum), (POSITIONS, lines));
            sum
        })
    });
    group.finish();
}

criterion_group!(benches, bench_book);
criterion_main!(benches);
