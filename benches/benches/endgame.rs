//! Othello endgame solver benchmarks on FFO positions. Each solve asserts the published score,
//! so a faster but wrong change fails. The table is cleared before every solve (a solve from
//! scratch, as `yomi bench ffo` measures).
//!
//! The whole FFO #40-#49 run is too long for criterion's repetitions: it is measured by
//! `yomi bench ffo` (see docs/benchmarks.md).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use yomi_othello::ObfPosition;
use yomi_othello_search::{FfoSuite, Mode, Solver, SolverConfig};

/// FFO #1-#19 (14 to 16 empties), from the suite of `yomi-othello-search`.
fn ffo_1_19() -> Vec<ObfPosition> {
    let suite = FfoSuite::load().expect("the built-in FFO suite");
    suite
        .file("fforum-1-19.obf")
        .expect("the file of #1-#19")
        .to_vec()
}

fn bench_solver(c: &mut Criterion) {
    let positions = ffo_1_19();
    assert_eq!(positions.len(), 19);
    let mut group = c.benchmark_group("endgame");
    group.sample_size(10);
    for (mode, name) in [(Mode::Exact, "exact"), (Mode::Wld, "wld")] {
        for threads in [1, 2] {
            let mut solver = Solver::new(SolverConfig {
                threads,
                hash_mb: 16,
                ..SolverConfig::default()
            })
            .expect("valid config");
            group.bench_function(format!("FFO #1-#19 {name}, {threads} thread(s)"), |b| {
                b.iter(|| {
                    for obf in black_box(&positions) {
                        solver.clear();
                        let want = obf.scores[0].1;
                        let want = if mode == Mode::Wld {
                            want.signum()
                        } else {
                            want
                        };
                        assert_eq!(solver.solve(&obf.position, mode).score, want);
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_solver);
criterion_main!(benches);
