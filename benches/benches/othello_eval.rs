//! The learned pattern evaluation: evaluations per second on positions from random games, with
//! the built-in weights. The sum of all evaluations is checked against the slow path (the
//! weights summed entry by entry from `Layout::features`), so a faster but wrong change fails.
//! Both compiled copies of the fast path are measured: the one `Weights` picks on this CPU
//! (`x86-64-v3` where the CPU has AVX2, BMI1/2, POPCNT and LZCNT) and the portable one; each
//! for the built-in weights (patterns only) and for the same patterns with every global
//! feature (mobility and potential mobility), the second generation's model.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_core::{Game, Rng};
use yomi_othello::cpu::Cpu;
use yomi_othello::Othello;
use yomi_othello_eval::{feature_entries, Evaluator, Layout, Weights, EVAL_LIMIT, FEATURES};

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

/// The pattern part of the built-in weights alone (the first generation's model).
fn patterns_only(w: &Weights) -> Weights {
    let n = Layout::get().compact_len();
    let tables = (0..w.phases()).map(|k| w.table(k)[..n].to_vec()).collect();
    Weights::from_tables("bench patterns", tables).expect("a sound table")
}

/// The built-in pattern weights with random weights for every global feature (a model of the
/// second generation's size and cost, whatever the built-in set has).
fn with_features(w: &Weights) -> Weights {
    let mut rng = Rng::seed_from_u64(7);
    let extra: usize = FEATURES.iter().map(|f| f.weights()).sum();
    let patterns = patterns_only(w);
    let tables = (0..w.phases())
        .map(|k| {
            let mut t = patterns.table(k).to_vec();
            t.extend((0..extra).map(|_| rng.below(401) as i16 - 200));
            t
        })
        .collect();
    Weights::with_features("bench", &FEATURES, tables).expect("a sound table")
}

/// The sum of the evaluations by the slow path: the weights of the entries that
/// `Layout::features` and `feature_entries` name, summed one by one.
fn slow_sum(w: &Weights, positions: &[(u64, u64)]) -> i64 {
    let layout = Layout::get();
    positions
        .iter()
        .map(|&(p, o)| {
            let table = w.table(w.phase_of((p | o).count_ones()));
            let extra = feature_entries(w.features(), p, o);
            let raw: i64 = layout
                .features(p, o)
                .into_iter()
                .chain(extra.into_iter().map(|e| layout.compact_len() + e))
                .map(|i| i64::from(table[i]))
                .sum();
            raw.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT))
        })
        .sum()
}

fn bench_eval(c: &mut Criterion) {
    let builtin = Weights::builtin();
    let positions = positions();
    let mut group = c.benchmark_group("othello-eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut copies = Vec::new();
    for w in [patterns_only(&builtin), with_features(&builtin)] {
        let portable = (w.cpu() != Cpu::Portable).then(|| w.clone().with_cpu(Cpu::Portable));
        copies.push(w);
        copies.extend(portable);
    }
    for w in &copies {
        let slow = slow_sum(w, &positions);
        let kind = if w.features().is_empty() {
            "learned".to_string()
        } else {
            let names: Vec<&str> = w.features().iter().map(|f| f.name()).collect();
            format!("learned+{}", names.join("+"))
        };
        let name = format!("{} positions, {kind}, {}", positions.len(), w.cpu());
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
