//! The midgame search of the `othello` agent with the learned evaluation: depth-6 searches
//! of positions from random games (20 to 50 empties), by both compiled copies of the search
//! and of the evaluation (`x86-64-v3` where the CPU has AVX2, BMI1/2, POPCNT and LZCNT, and
//! the portable ones). Every run asserts the total nodes and the sum of all root values found
//! before timing, and the two copies must agree on them, so a faster but wrong change fails.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_core::{Game, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::Othello;
use yomi_othello_search::{MidgameLimits, MidgameSearch, Weights};

/// One position with 20 to 50 empties from each of 12 random games.
fn positions() -> Vec<Othello> {
    let mut rng = Rng::seed_from_u64(77);
    let mut out = Vec::new();
    while out.len() < 12 {
        let mut pos = Othello::new();
        let stop = 20 + rng.below(31);
        while !pos.game_over() && pos.empties().count() as usize > stop {
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !pos.game_over() && pos.empties().count() as usize == stop {
            out.push(pos);
        }
    }
    out
}

/// Searches every position to depth 6 from an empty table: the total nodes and the sum of
/// all root values.
fn run(search: &mut MidgameSearch, positions: &[Othello]) -> (u64, i64) {
    let limits = MidgameLimits {
        depth: 6,
        time: None,
    };
    positions.iter().fold((0, 0), |(n, v), pos| {
        let r = search.search(pos, limits);
        let values: i64 = r.scores.iter().map(|s| i64::from(s.score)).sum();
        (n + r.nodes, v + values)
    })
}

fn bench_midgame(c: &mut Criterion) {
    let positions = positions();
    let learned = Weights::builtin();
    let mut copies = vec![MidgameSearch::new(16, learned.clone())];
    if copies[0].cpu() != Cpu::Portable {
        let portable = Arc::new((*learned).clone().with_cpu(Cpu::Portable));
        copies.push(MidgameSearch::with_cpu(16, portable, Cpu::Portable));
    }
    let want = run(&mut copies[0], &positions);
    assert!(want.0 > 100_000, "{want:?}");
    let mut group = c.benchmark_group("othello-midgame");
    group.sample_size(10);
    group.throughput(Throughput::Elements(want.0));
    for search in &mut copies {
        assert_eq!(run(search, &positions), want, "the copies disagree");
        let name = format!(
            "depth 6, {} positions, learned, {}",
            positions.len(),
            search.cpu()
        );
        group.bench_function(name, |b| {
            b.iter(|| {
                let got = run(search, black_box(&positions));
                assert_eq!(got, want);
                got
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_midgame);
criterion_main!(benches);
