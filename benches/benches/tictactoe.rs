//! Tic-tac-toe benchmarks. Each asserts what it computes, so a faster but wrong change fails.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use yomi_core::{perft, reference_playout, Game, Outcome, Player, Rng};
use yomi_tictactoe::TicTacToe;

const GAMES: usize = 20_000;

/// Outcome counts `[first wins, second wins, draws]` of `GAMES` random games.
fn random_games(rng: &mut Rng, playout: impl Fn(&TicTacToe, &mut Rng) -> Outcome) -> [u32; 3] {
    let start = TicTacToe::default();
    let mut counts = [0u32; 3];
    for _ in 0..GAMES {
        let slot = match playout(&start, rng) {
            Outcome::Win(Player::First) => 0,
            Outcome::Win(Player::Second) => 1,
            Outcome::Draw => 2,
        };
        counts[slot] += 1;
    }
    counts
}

fn bench_random_games(c: &mut Criterion) {
    let expected = random_games(&mut Rng::seed_from_u64(1), reference_playout::<TicTacToe>);
    // The exact probabilities are 737/1260, 121/420 and 8/63; 20 000 games land within
    // 4 standard deviations (about 0.014) of them.
    let exact = [737.0 / 1260.0, 121.0 / 420.0, 8.0 / 63.0];
    for (count, p) in expected.iter().zip(exact) {
        let sd = (p * (1.0 - p) / GAMES as f64).sqrt();
        assert!(
            (f64::from(*count) / GAMES as f64 - p).abs() < 4.0 * sd,
            "{expected:?}"
        );
    }
    c.bench_function("tictactoe/20000 random games (fast playout)", |b| {
        b.iter(|| {
            let counts = random_games(&mut Rng::seed_from_u64(black_box(1)), |p, r| {
                p.random_playout(r)
            });
            assert_eq!(counts, expected);
            counts
        })
    });
    // The reference loop over the plain `Game` trait, which the fast playout must equal.
    c.bench_function("tictactoe/20000 random games (generic loop)", |b| {
        b.iter(|| {
            let counts = random_games(
                &mut Rng::seed_from_u64(black_box(1)),
                reference_playout::<TicTacToe>,
            );
            assert_eq!(counts, expected);
            counts
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    c.bench_function("tictactoe/perft 9", |b| {
        b.iter(|| {
            let count = perft(black_box(&TicTacToe::default()), black_box(9));
            assert_eq!(count.at_depth, 127_872);
            assert_eq!(count.leaves(), 255_168);
            count
        })
    });
}

criterion_group!(benches, bench_random_games, bench_perft);
criterion_main!(benches);
