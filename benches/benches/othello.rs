//! Othello benchmarks. Each asserts what it computes, so a faster but wrong change fails.
//!
//! The position set is every position of 200 seeded random games; the expected sums below were
//! computed once and must not change.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_core::testing::random_game_positions;
use yomi_core::{perft as core_perft, reference_playout, Game, Outcome, Player, Rng};
use yomi_othello::wthor::{GameFile, GameRecord};
use yomi_othello::{flips, mobility, perft, potential_mobility, stable_discs, Bitboard, Othello};

/// Every position of `games` seeded random games from the start.
fn positions(games: usize) -> Vec<Othello> {
    random_game_positions(&Othello::new(), games, &mut Rng::seed_from_u64(2026))
}

const POSITIONS: usize = 12_289;

fn bench_board(c: &mut Criterion) {
    let set = positions(200);
    assert_eq!(set.len(), POSITIONS);
    let sides: Vec<(Bitboard, Bitboard)> = set.iter().map(|p| (p.player(), p.opponent())).collect();

    c.bench_function("othello/moves (mobility of both sides)", |b| {
        b.iter(|| {
            let total: u64 = black_box(&sides)
                .iter()
                .map(|&(p, o)| u64::from(mobility(p, o) + mobility(o, p)))
                .sum();
            assert_eq!(total, MOBILITY);
            total
        })
    });
    c.bench_function("othello/legal_moves (Game trait list)", |b| {
        b.iter(|| {
            let total: usize = black_box(&set).iter().map(|p| p.legal_moves().len()).sum();
            assert_eq!(total, LEGAL_MOVES);
            total
        })
    });
    c.bench_function("othello/flips of every legal move", |b| {
        b.iter(|| {
            let total: u64 = black_box(&set)
                .iter()
                .map(|p| {
                    p.moves()
                        .iter()
                        .map(|sq| u64::from(flips(p.player(), p.opponent(), sq).count()))
                        .sum::<u64>()
                })
                .sum();
            assert_eq!(total, FLIPS);
            total
        })
    });
    c.bench_function("othello/potential mobility of both sides", |b| {
        b.iter(|| {
            let total: u64 = black_box(&sides)
                .iter()
                .map(|&(p, o)| u64::from(potential_mobility(p, o) + potential_mobility(o, p)))
                .sum();
            assert_eq!(total, POTENTIAL);
            total
        })
    });
    c.bench_function("othello/stable discs of both sides", |b| {
        b.iter(|| {
            let total: u64 = black_box(&sides)
                .iter()
                .map(|&(p, o)| u64::from(stable_discs(p, o).count() + stable_discs(o, p).count()))
                .sum();
            assert_eq!(total, STABLE);
            total
        })
    });
}

/// Sums over the position set; see the module docs.
const MOBILITY: u64 = 198_899;
/// Passes count one move each.
const LEGAL_MOVES: usize = 102_503;
const FLIPS: u64 = 219_308;
const POTENTIAL: u64 = 336_006;
const STABLE: u64 = 96_707;

const GAMES: usize = 2_000;

/// Outcome counts `[black wins, white wins, draws]` of `GAMES` random games from the start.
fn random_games(rng: &mut Rng, playout: impl Fn(&Othello, &mut Rng) -> Outcome) -> [u32; 3] {
    let start = Othello::new();
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

/// Random play slightly favours white.
const PLAYOUT_COUNTS: [u32; 3] = [903, 1_022, 75];

fn bench_playouts(c: &mut Criterion) {
    let expected = random_games(&mut Rng::seed_from_u64(1), reference_playout::<Othello>);
    assert_eq!(expected, PLAYOUT_COUNTS);
    c.bench_function("othello/2000 random games (fast playout)", |b| {
        b.iter(|| {
            let counts = random_games(&mut Rng::seed_from_u64(black_box(1)), |p, r| {
                p.random_playout(r)
            });
            assert_eq!(counts, expected);
            counts
        })
    });
    c.bench_function("othello/2000 random games (generic loop)", |b| {
        b.iter(|| {
            let counts = random_games(
                &mut Rng::seed_from_u64(black_box(1)),
                reference_playout::<Othello>,
            );
            assert_eq!(counts, expected);
            counts
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("othello/perft");
    group.sample_size(10);
    group.bench_function("perft 9 (bulk-counted bitboards)", |b| {
        b.iter(|| {
            let leaves = perft(black_box(&Othello::new()), black_box(9));
            assert_eq!(leaves, 3_005_288);
            leaves
        })
    });
    group.bench_function("perft 7 (generic yomi_core::perft)", |b| {
        b.iter(|| {
            let count = core_perft(black_box(&Othello::new()), black_box(7));
            assert_eq!(count.leaves(), 55_092);
            count
        })
    });
    group.finish();
}

const WTHOR_GAMES: usize = 1_000;
/// The moves (passes included) and black's scores summed over the games of [`wthor_file`].
const WTHOR_MOVES: usize = 60_335;
const WTHOR_SCORES: u64 = 32_014;

/// `WTHOR_GAMES` seeded random games played to the end, as the bytes of a WTHOR `.wtb` file.
fn wthor_file() -> Vec<u8> {
    let mut rng = Rng::seed_from_u64(39);
    let mut file = GameFile::new(2026);
    for _ in 0..WTHOR_GAMES {
        let mut pos = Othello::new();
        let mut line = Vec::new();
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            line.push(mv);
            pos = pos.play_unchecked(mv);
        }
        file.games
            .push(GameRecord::from_line(&line).expect("a legal game"));
    }
    file.to_bytes().expect("8x8 games")
}

/// Reading WTHOR games: each replayed on the board (passes put back, every move checked) and
/// its score checked against the final board; the throughput is in games per second.
fn bench_wthor(c: &mut Criterion) {
    let bytes = wthor_file();
    assert_eq!(bytes.len(), 16 + 68 * WTHOR_GAMES);
    let mut group = c.benchmark_group("othello/wthor");
    group.throughput(Throughput::Elements(WTHOR_GAMES as u64));
    group.bench_function("read 1000 games (replayed, fully checked)", |b| {
        b.iter(|| {
            let file = GameFile::read(black_box(&bytes)).expect("the file reads");
            let moves: usize = file.games.iter().map(|g| g.moves().len()).sum();
            let scores: u64 = file.games.iter().map(|g| u64::from(g.black_score)).sum();
            assert_eq!(
                (file.games.len(), moves, scores),
                (WTHOR_GAMES, WTHOR_MOVES, WTHOR_SCORES)
            );
            scores
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_board,
    bench_playouts,
    bench_perft,
    bench_wthor
);
criterion_main!(benches);
