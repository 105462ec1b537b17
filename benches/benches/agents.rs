//! Agent benchmarks. Each asserts what it computes, so a faster but wrong change fails.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_agents::Zoo;
use yomi_core::{Agent, Explanation, Rng};
use yomi_tictactoe::{Square, TicTacToe};

/// The value of a labelled part of a move's score.
fn part(e: &Explanation<Square>, mv: usize, label: &str) -> f64 {
    e.moves[mv]
        .parts
        .iter()
        .find(|p| p.label == label)
        .map_or(f64::NAN, |p| p.value)
}

fn build(spec: &str) -> Box<dyn Agent<TicTacToe>> {
    TicTacToe::zoo().build(spec).expect("a valid spec")
}

fn bench_playouts(c: &mut Criterion) {
    // Random playouts through pmc's path: a random first move, then `random_playout`.
    const PLAYOUTS: u64 = 100_000;
    let spec = format!("pmc:pnum={PLAYOUTS}");
    let mut agent = build(&spec);
    let empty = TicTacToe::new();
    let e = agent.explain(&empty, &mut Rng::seed_from_u64(1)).unwrap();
    let total: f64 = (0..9).map(|i| part(&e, i, "playouts")).sum();
    assert_eq!(total, PLAYOUTS as f64);
    // Under random play the centre is the best first move by win rate (about 0.70 against
    // 0.60 for a corner and 0.55 for an edge), far beyond the noise of 11 000 playouts each.
    assert_eq!(e.best, vec![Square::CENTRE]);
    let mut group = c.benchmark_group("agents");
    group.throughput(Throughput::Elements(PLAYOUTS));
    group.bench_function("pmc playouts (100000 per decision, empty board)", |b| {
        b.iter(|| {
            let mv = agent
                .choose(black_box(&empty), &mut Rng::seed_from_u64(black_box(1)))
                .unwrap();
            assert_eq!(mv, Square::CENTRE);
            mv
        })
    });
    group.finish();
}

fn bench_decisions(c: &mut Criterion) {
    let empty = TicTacToe::new();
    for (spec, counter, total) in [
        ("pmc2:pnum=1000", "playouts", 1000.0),
        ("mcts:iters=10000", "visits", 10_000.0),
    ] {
        let mut agent = build(spec);
        let e = agent.explain(&empty, &mut Rng::seed_from_u64(7)).unwrap();
        let sum: f64 = (0..9).map(|i| part(&e, i, counter)).sum();
        assert_eq!(sum, total, "{spec}");
        let expected = e.chosen;
        c.bench_function(&format!("agents/{spec} decision (empty board)"), |b| {
            b.iter(|| {
                let mv = agent
                    .choose(black_box(&empty), &mut Rng::seed_from_u64(black_box(7)))
                    .unwrap();
                assert_eq!(mv, expected, "{spec} is deterministic per seed");
                mv
            })
        });
    }
    // Exact alpha-beta from the empty board: every first move draws.
    let mut agent = build("alphabeta:depth=9");
    c.bench_function("agents/alphabeta:depth=9 decision (empty board)", |b| {
        b.iter(|| {
            let e = agent
                .explain(black_box(&empty), &mut Rng::seed_from_u64(1))
                .unwrap();
            assert!(e.moves.iter().all(|m| m.score == 0.0));
            e.chosen
        })
    });
}

criterion_group!(benches, bench_playouts, bench_decisions);
criterion_main!(benches);
