//! The Rust side of the Python-overhead measurement (`crates/python/bench/overhead.py` does
//! the same work through the `yomi` Python package): 1 000 `pmc2` decisions and 10 000
//! `legal_moves` calls. Each bench asserts what it computes, and the Python script asserts
//! the same numbers, so both sides do the same work.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use yomi_agents::Zoo;
use yomi_core::{Game, Rng};
use yomi_othello::Othello;
use yomi_tictactoe::{Square, TicTacToe};

/// How many of the 1 000 seeded decisions (seeds 0..999) of `pmc2:pnum=1000` on the empty
/// board take the centre (the Python script asserts the same count).
const CENTRE_CHOICES: usize = 776;

fn bench_pmc2(c: &mut Criterion) {
    let mut agent = TicTacToe::zoo().build("pmc2:pnum=1000").unwrap();
    let empty = TicTacToe::new();
    c.bench_function(
        "python-overhead/1000 pmc2:pnum=1000 decisions (Rust)",
        |b| {
            b.iter(|| {
                let centre = (0..1000u64)
                    .filter(|&seed| {
                        let mv = agent
                            .choose(black_box(&empty), &mut Rng::seed_from_u64(seed))
                            .unwrap();
                        mv == Square::CENTRE
                    })
                    .count();
                assert_eq!(centre, CENTRE_CHOICES);
                centre
            })
        },
    );
}

fn bench_legal_moves(c: &mut Criterion) {
    let tictactoe = TicTacToe::new();
    let othello = Othello::new();
    let mut group = c.benchmark_group("python-overhead");
    group.bench_function("10000 legal_moves, tic-tac-toe start (Rust)", |b| {
        b.iter(|| {
            let n: usize = (0..10_000)
                .map(|_| black_box(&tictactoe).legal_moves().len())
                .sum();
            assert_eq!(n, 90_000);
            n
        })
    });
    group.bench_function(
        "10000 legal_moves as strings, tic-tac-toe start (Rust)",
        |b| {
            b.iter(|| {
                let n: usize = (0..10_000)
                    .map(|_| {
                        let names: Vec<String> = black_box(&tictactoe)
                            .legal_moves()
                            .iter()
                            .map(ToString::to_string)
                            .collect();
                        names.len()
                    })
                    .sum();
                assert_eq!(n, 90_000);
                n
            })
        },
    );
    group.bench_function("10000 legal_moves, Othello start (Rust)", |b| {
        b.iter(|| {
            let n: usize = (0..10_000)
                .map(|_| black_box(&othello).legal_moves().len())
                .sum();
            assert_eq!(n, 40_000);
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench_pmc2, bench_legal_moves);
criterion_main!(benches);
