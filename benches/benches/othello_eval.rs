//! The learned pattern evaluation: evaluations per second on positions from random games, with
//! the built-in weights. The sum of all evaluations is checked against the slow path (the
//! weights summed entry by entry from `Layout::features`), so a faster but wrong change fails.
//! Both compiled copies of the fast path are measured: the one `Weights` picks on this CPU
//! (`x86-64-v3` where the CPU has AVX2, BMI1/2, POPCNT and LZCNT) and the portable one.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_core::{Game, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::Othello;
use yomi_othello_eval::{Evaluator, Layout, Weights, EVAL_LIMIT};

/// Every position of 100 random games (about 6,000).
fn positions() -> Vec<(u64, u64)> {
    let mut rng = Rng::seed_from_u64(2024);
    let mut out = Vec::new();
    for _ in 0..100 {
        let mut pos = Othello::new();
        while !pos.game_over() {
            out.push((pos.player().0, pos.opponent().0));
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let w = Weights::builtin();
    let layout = Layout::get();
    let positions = positions();
    let slow: i64 = positions
        .iter()
        .map(|&(p, o)| {
            let table = w.table(w.phase_of((p | o).count_ones()));
            let raw: i64 = layout
                .features(p, o)
                .iter()
                .map(|&i| i64::from(table[i]))
                .sum();
            raw.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT))
        })
        .sum();
    let mut group = c.benchmark_group("othello-eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut copies = vec![(*w).clone()];
    if w.cpu() != Cpu::Portable {
        copies.push((*w).clone().with_cpu(Cpu::Portable));
    }
    for w in &copies {
        let name = format!("{} positions, learned, {}", positions.len(), w.cpu());
        group.bench_function(name, |b| {
            b.iter(|| {
                let sum: i64 = black_box(&positions)
                    .iter()
                    .map(|&(p, o)| i64::from(w.evaluate(p, o)))
                    .sum();
                assert_eq!(sum, slow);
                sum
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench_eval);
criterion_main!(benches);
