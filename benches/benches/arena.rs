//! Harness overhead: the same games played by a bare loop over `play_game`, by `run_match`
//! alone, and by `run_match` with an SPRT and every game written out as a JSON line (what
//! `--sprt ... --record FILE` costs). Each asserts that all three count the same results.

use std::fmt::Write as _;
use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use yomi_agents::{RandomAgent, Zoo};
use yomi_arena::{
    play_game, run_match, FinishedGame, MatchConfig, NoObserver, Observer, Progress, RunOptions,
    Tally,
};
use yomi_core::{Agent, GameResult};
use yomi_tictactoe::TicTacToe;

/// Writes each finished game as a JSON line into a buffer, as the CLI's recorder does.
struct Lines(String);

impl Observer<TicTacToe> for Lines {
    fn finished(&mut self, g: &FinishedGame<'_, TicTacToe>) -> Result<(), String> {
        let moves: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
        let _ = writeln!(
            self.0,
            "{{\"match\":0,\"index\":{},\"opening\":\"{}\",\"a_first\":{},\"result\":\"{:?}\",\"moves\":\"{}\"}}",
            g.index,
            g.opening.text,
            g.a_first,
            g.result,
            moves.join(" ")
        );
        if self.0.len() > 1 << 20 {
            self.0.clear();
        }
        Ok(())
    }

    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        black_box(p.llr);
        ControlFlow::Continue(())
    }
}

fn bare(make_a: &(dyn Fn() -> Box<dyn Agent<TicTacToe>> + Sync), games: u64) -> Tally {
    let start = TicTacToe::default();
    let mut t = Tally::default();
    for i in 0..games {
        let (r, _) = play_game(&start, make_a, &|| RandomAgent, 1, i).unwrap();
        match r {
            GameResult::Win => t.win += 1,
            GameResult::Loss => t.lose += 1,
            GameResult::Draw => t.draw += 1,
        }
    }
    t
}

fn harness(
    make_a: &(dyn Fn() -> Box<dyn Agent<TicTacToe>> + Sync),
    games: u64,
    full: bool,
) -> Tally {
    let config = MatchConfig {
        rounds: games / 2,
        seed: 1,
        threads: Some(1),
    };
    let mut options = RunOptions::from_start(TicTacToe::default());
    if full {
        // Bounds far away: the test runs on every pair without stopping the match.
        options.sprt = Some("elo0=-1,elo1=1,alpha=1e-12,beta=1e-12".parse().unwrap());
        options.record_moves = true;
    }
    let r = if full {
        let mut lines = Lines(String::new());
        run_match(&config, &options, make_a, || RandomAgent, &mut lines)
    } else {
        run_match(&config, &options, make_a, || RandomAgent, &mut NoObserver)
    }
    .unwrap();
    assert!(r.complete && r.sprt.is_none_or(|s| s.accepted.is_none()));
    r.total()
}

fn bench_overhead(c: &mut Criterion) {
    let random = || -> Box<dyn Agent<TicTacToe>> { Box::new(RandomAgent) };
    let pmc = || -> Box<dyn Agent<TicTacToe>> { TicTacToe::zoo().build("pmc2:pnum=100").unwrap() };
    for (name, make_a, games) in [
        (
            "random vs random",
            &random as &(dyn Fn() -> Box<dyn Agent<TicTacToe>> + Sync),
            20_000u64,
        ),
        ("pmc2:pnum=100 vs random", &pmc, 1_000),
    ] {
        let expected = bare(make_a, games);
        assert_eq!(harness(make_a, games, false), expected);
        assert_eq!(harness(make_a, games, true), expected);
        let mut group = c.benchmark_group(format!("arena/{name}"));
        group.throughput(Throughput::Elements(games));
        group.sample_size(20);
        group.bench_function("bare play_game loop", |b| {
            b.iter(|| assert_eq!(bare(make_a, black_box(games)), expected))
        });
        group.bench_function("run_match", |b| {
            b.iter(|| assert_eq!(harness(make_a, black_box(games), false), expected))
        });
        group.bench_function("run_match + SPRT + record", |b| {
            b.iter(|| assert_eq!(harness(make_a, black_box(games), true), expected))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_overhead);
criterion_main!(benches);
