//! Openings, SPRT, shards, stopping and resuming, on real matches.

use std::ops::ControlFlow;

use yomi_agents::{RandomAgent, Zoo};
use yomi_core::{Agent, Game, GameResult, StopFlag};
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;

use super::*;

fn config(rounds: u64, seed: u64, threads: Option<usize>) -> MatchConfig {
    MatchConfig {
        rounds,
        seed,
        threads,
    }
}

/// The result without its wall-clock times.
fn strip(mut r: MatchResult) -> MatchResult {
    r.time = Default::default();
    r
}

fn perfect() -> Box<dyn Agent<TicTacToe>> {
    TicTacToe::zoo().build("perfect").unwrap()
}

fn run<G: Game>(
    options: &RunOptions<G>,
    config: &MatchConfig,
    a: impl Fn() -> Box<dyn Agent<G>> + Sync,
    b: impl Fn() -> Box<dyn Agent<G>> + Sync,
) -> MatchResult {
    strip(run_match(config, options, a, b, &mut NoObserver).unwrap())
}

fn random<G: Game>() -> Box<dyn Agent<G>>
where
    RandomAgent: Agent<G>,
{
    Box::new(RandomAgent)
}

#[test]
fn sprt_accepts_h1_for_a_stronger_agent_at_the_same_game_at_any_thread_count() {
    let mut options = RunOptions::from_start(TicTacToe::default());
    options.sprt = Some("elo0=0,elo1=20,alpha=0.05,beta=0.05".parse().unwrap());
    let results: Vec<MatchResult> = [Some(1), Some(2), Some(4)]
        .into_iter()
        .map(|t| run(&options, &config(100_000, 9, t), perfect, random))
        .collect();
    let r = &results[0];
    let report = r.sprt.unwrap();
    assert_eq!(r.end, End::Sprt);
    assert!(r.complete);
    assert_eq!(report.accepted, Some(Hypothesis::H1), "{report:?}");
    assert!(report.llr >= report.upper);
    // Stopped at the end of a pair, long before the last game.
    let games = r.total().games();
    assert!(games.is_multiple_of(2) && games < 2_000, "{games}");
    assert_eq!(r.pairs.pairs() * 2, games);
    // The ratio just before the last pair had not crossed a bound.
    let mut before = r.pairs;
    let last = (0..5)
        .find(|&i| {
            let mut p = before;
            if p.0[i] == 0 {
                return false;
            }
            p.0[i] -= 1;
            report
                .test
                .decide(report.test.llr(&Scores::pentanomial(&p)))
                .is_none()
        })
        .expect("some pair was the deciding one");
    before.0[last] -= 1;
    assert!(report
        .test
        .decide(report.test.llr(&Scores::pentanomial(&before)))
        .is_none());
    for other in &results[1..] {
        assert_eq!(other, r);
    }
}

#[test]
fn sprt_accepts_h0_for_identical_agents() {
    let mut options = RunOptions::from_start(TicTacToe::default());
    options.sprt = Some("elo0=0,elo1=30,alpha=0.05,beta=0.05".parse().unwrap());
    let one = run(&options, &config(1_000_000, 3, Some(1)), random, random);
    let two = run(&options, &config(1_000_000, 3, Some(2)), random, random);
    let report = one.sprt.unwrap();
    assert_eq!(report.accepted, Some(Hypothesis::H0), "{report:?}");
    assert!(report.llr <= report.lower);
    assert_eq!(one, two);
    // The same test on shards is refused.
    options.shard = "1/2".parse().unwrap();
    let err = run_match(
        &config(10, 1, None),
        &options,
        random,
        random,
        &mut NoObserver,
    )
    .unwrap_err();
    assert!(err.to_string().contains("SPRT"), "{err}");
}

fn nim_line(text: &str) -> Result<Nim, String> {
    // Stones to take from the start, separated by spaces; or a position such as `7:second`.
    text.parse::<Nim>()
        .or_else(|_| Nim::default().play_line(text))
        .map_err(|e| e.to_string())
}

#[test]
fn openings_parse_name_bad_lines_and_start_both_colours() {
    let text = "# three openings\n1 2\t+0.5\n\n2 2   # a comment\n6:first\n";
    let set = Openings::parse("set.txt", text, nim_line).unwrap();
    assert_eq!(set.len(), 3);
    let list = set.list();
    assert_eq!(list[0].text, "1 2");
    assert_eq!(list[0].value, Some(0.5));
    assert_eq!(list[0].position.stones(), 12);
    assert_eq!((list[1].line, list[1].position.stones()), (4, 11));
    assert_eq!(list[2].position.stones(), 6);
    for (bad, line, needle) in [
        ("1\n1 4\n", 2, "\"1 4\""),
        ("1\n2\tabc\n", 2, "bad value"),
        ("# nothing\n\n1\n3 3 3 3 3\n", 4, "finished"),
    ] {
        let err = Openings::parse("f", bad, nim_line).unwrap_err();
        assert!(
            matches!(err, OpeningsError::Line { line: l, .. } if l == line),
            "{bad:?}: {err}"
        );
        assert!(err.to_string().contains(needle), "{err}");
        assert!(
            err.to_string().starts_with(&format!("f line {line}:")),
            "{err}"
        );
    }
    assert!(matches!(
        Openings::parse("f", "# only a comment\n", nim_line),
        Err(OpeningsError::Empty(_))
    ));
    // Round r plays opening r mod 3, both games from the same position with the colours
    // swapped: first-vs-first in the stone game is decided by the parity of the stones.
    let first = || yomi_agents::FirstAgent;
    let mut options = RunOptions::new(set.clone());
    options.record_moves = true;
    struct Seen(Vec<(u64, usize, bool, GameResult, usize)>);
    impl Observer<Nim> for Seen {
        fn finished(&mut self, g: &FinishedGame<'_, Nim>) -> Result<(), String> {
            self.0
                .push((g.index, g.opening.line, g.a_first, g.result, g.moves.len()));
            Ok(())
        }
    }
    let mut seen = Seen(Vec::new());
    let r = run_match(&config(6, 1, Some(2)), &options, first, first, &mut seen).unwrap();
    seen.0.sort_unstable_by_key(|s| s.0);
    let lines: Vec<usize> = seen.0.iter().map(|s| s.1).collect();
    assert_eq!(lines, [2, 2, 4, 4, 5, 5, 2, 2, 4, 4, 5, 5]);
    for s in &seen.0 {
        assert_eq!(s.2, s.0 % 2 == 0);
        // Each takes 1 stone: from 12 or 6 stones the second mover takes the last, from 11
        // the first.
        let stones = [12, 11, 6][[2, 4, 5].iter().position(|&l| l == s.1).unwrap()];
        let mover_wins = stones % 2 == 1;
        assert_eq!(s.3 == GameResult::Win, s.2 == mover_wins, "{s:?}");
        assert_eq!(s.4, stones);
    }
    // Every pair is one win each: 1 point of 2.
    assert_eq!(r.pairs.0, [0, 0, 6, 0, 0]);
    assert_eq!(r.openings.count, 3);
    // A random order is a seeded shuffle: the same for a seed, repeating every 3 rounds.
    let shuffled = set.clone().with_order(OpeningOrder::Random, 5);
    let again = set.clone().with_order(OpeningOrder::Random, 5);
    let order: Vec<usize> = (0..6).map(|r| shuffled.for_round(r).line).collect();
    assert_eq!(
        order,
        (0..6).map(|r| again.for_round(r).line).collect::<Vec<_>>()
    );
    assert_eq!(order[..3], order[3..]);
    let mut sorted = order[..3].to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, [2, 4, 5]);
    assert_ne!(shuffled.info(), set.info());
    assert_eq!(
        "random".parse::<OpeningOrder>().unwrap(),
        OpeningOrder::Random
    );
    assert!("shuffled".parse::<OpeningOrder>().is_err());
}

#[test]
fn shards_merge_into_the_whole_match() {
    let start = TicTacToe::default();
    let whole = run(
        &RunOptions::from_start(start),
        &config(501, 17, Some(2)),
        random,
        random,
    );
    assert_eq!(whole.pairs.pairs(), 501);
    for n in [1u64, 2, 3, 4, 7] {
        let shards: Vec<MatchResult> = (0..n)
            .rev()
            .map(|k| {
                let mut o = RunOptions::from_start(start);
                o.shard = Shard { index: k, count: n };
                run(&o, &config(501, 17, Some(1)), random, random)
            })
            .collect();
        let played: u64 = shards.iter().map(|s| s.total().games()).sum();
        assert_eq!(played, 1002);
        let merged = MatchResult::merge(&shards).unwrap();
        assert_eq!(strip(merged), whole, "{n} shards");
        if n < 3 {
            continue;
        }
        // Refusals: a missing, a duplicated, a foreign and an unfinished shard.
        let err = MatchResult::merge(&shards[1..]).unwrap_err();
        assert!(
            matches!(err, MergeError::Missing(ref m) if m.len() == 1),
            "{err}"
        );
        let mut twice = shards.clone();
        twice.push(shards[0].clone());
        assert!(matches!(
            MatchResult::merge(&twice),
            Err(MergeError::Duplicate(_))
        ));
        let mut foreign = shards.clone();
        foreign[1].seed = 18;
        let err = MatchResult::merge(&foreign).unwrap_err();
        assert!(err.to_string().contains("seed is 18"), "{err}");
        let mut other_n = shards.clone();
        other_n[2].shard.count += 1;
        assert!(MatchResult::merge(&other_n).is_err());
        let mut cut = shards.clone();
        cut[0].complete = false;
        assert!(matches!(
            MatchResult::merge(&cut),
            Err(MergeError::Incomplete { .. })
        ));
    }
    assert!("4/4".parse::<Shard>().is_err());
    assert!("1/0".parse::<Shard>().is_err());
    assert!("x".parse::<Shard>().is_err());
    let s: Shard = "2/5".parse().unwrap();
    assert_eq!(s.to_string(), "2/5");
    assert_eq!(s.games_of(12), 2);
    assert_eq!(s.games_of(13), 3);
    assert_eq!(s.index_of(2), 12);
}

#[test]
fn an_interrupted_match_resumes_to_the_uninterrupted_result() {
    let start = TicTacToe::default();
    let cfg = config(3_000, 11, Some(2));
    for sprt in [None, Some("elo0=-10,elo1=10,alpha=0.05,beta=0.05")] {
        let mut options = RunOptions::from_start(start);
        options.sprt = sprt.map(|s| s.parse().unwrap());
        let whole = run(&options, &cfg, random, random);
        for stop_after in [1u64, 37, 1_000, 4_000] {
            // Stop through the flag, as Ctrl-C does, once `stop_after` games are in.
            let flag = StopFlag::new();
            let mut first = options.clone();
            first.stop = flag.clone();
            struct StopAt(u64, StopFlag);
            impl Observer<TicTacToe> for StopAt {
                fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
                    if p.done >= self.0 {
                        self.1.stop();
                    }
                    ControlFlow::Continue(())
                }
            }
            let cut =
                run_match(&cfg, &first, random, random, &mut StopAt(stop_after, flag)).unwrap();
            let prior: Vec<(u64, GameResult)> = cut
                .outcomes
                .iter()
                .enumerate()
                .filter_map(|(i, r)| r.map(|r| (i as u64, r)))
                .collect();
            if cut.end == End::Interrupted {
                assert!(!cut.complete);
                assert!(prior.len() < 6_000);
            }
            let mut again = options.clone();
            again.prior = prior;
            let resumed = run(&again, &cfg, random, random);
            assert_eq!(resumed, whole, "stopped after {stop_after}, sprt {sprt:?}");
        }
    }
    // Prior games outside the match are refused.
    let mut options = RunOptions::from_start(start);
    options.prior = vec![(6_000, GameResult::Win)];
    assert!(run_match(&cfg, &options, random, random, &mut NoObserver).is_err());
}

/// Plays at random, but forfeits (as a crashing engine would) on a tenth of its moves, drawn
/// from the game's generator: which games are forfeited depends on the seed only.
#[derive(Debug)]
struct Flaky;

impl Agent<TicTacToe> for Flaky {
    fn spec(&self) -> String {
        "flaky".into()
    }

    fn explain(
        &mut self,
        state: &TicTacToe,
        rng: &mut yomi_core::Rng,
    ) -> Result<yomi_core::Explanation<<TicTacToe as Game>::Move>, yomi_core::AgentError> {
        if rng.chance(0.1) {
            let reason = if rng.chance(0.5) {
                yomi_core::Forfeit::Crash
            } else {
                yomi_core::Forfeit::IllegalMove("e9".into())
            };
            return Err(yomi_core::AgentError::Forfeit {
                reason,
                detail: "made up".into(),
            });
        }
        RandomAgent.explain(state, rng)
    }
}

#[test]
fn forfeits_are_recorded_with_their_reason_at_any_thread_count_and_in_shards() {
    let flaky = || -> Box<dyn Agent<TicTacToe>> { Box::new(Flaky) };
    let options = RunOptions::from_start(TicTacToe::default());
    let one = run(&options, &config(300, 4, Some(1)), flaky, random);
    let two = run(&options, &config(300, 4, Some(2)), flaky, random);
    assert_eq!(one, two);
    assert!(one.forfeits.len() > 20, "{}", one.forfeits.len());
    for f in &one.forfeits {
        // Every forfeit is A's (B plays at random), a loss for A, with its reason.
        assert_eq!(f.agent, Seat::A);
        let slot = f.game as usize;
        assert_eq!(one.outcomes.get(slot), Some(GameResult::Loss));
        assert!(
            f.reason == "crash" || f.reason == "illegal move e9",
            "{f:?}"
        );
    }
    assert!(one.forfeits.windows(2).all(|w| w[0].game < w[1].game));
    // Both reasons occur; B forfeits from the other seat the same way.
    assert!(one.forfeits.iter().any(|f| f.reason == "crash"));
    assert!(one.forfeits.iter().any(|f| f.reason.starts_with("illegal")));
    let swapped = run(&options, &config(300, 4, Some(2)), random, flaky);
    assert!(swapped
        .forfeits
        .iter()
        .all(|f| f.agent == Seat::B
            && swapped.outcomes.get(f.game as usize) == Some(GameResult::Win)));
    // Shards hold their own games' forfeits, and merge into the whole match's list.
    let shards: Vec<MatchResult> = (0..3)
        .map(|k| {
            let mut o = options.clone();
            o.shard = Shard { index: k, count: 3 };
            run(&o, &config(300, 4, Some(2)), flaky, random)
        })
        .collect();
    assert!(shards
        .iter()
        .all(|s| s.forfeits.iter().all(|f| s.shard.contains(f.game))));
    assert_eq!(strip(MatchResult::merge(&shards).unwrap()), one);
    // A resumed match keeps the forfeits of the games it does not play again.
    let mut again = options.clone();
    again.prior = (0..100)
        .map(|i| (i, one.outcomes.get(i as usize).unwrap()))
        .collect();
    again.prior_forfeits = one.forfeits.clone();
    assert_eq!(run(&again, &config(300, 4, Some(2)), flaky, random), one);
}

/// Sleeps `ms` before each move (the first legal one) and keeps the clocks it is given.
#[derive(Debug)]
struct Sleeper {
    ms: u64,
    clocks: std::sync::Arc<std::sync::Mutex<Vec<Option<yomi_core::Clock>>>>,
}

impl<G: Game> Agent<G> for Sleeper {
    fn spec(&self) -> String {
        format!("sleeper:{}", self.ms)
    }

    fn explain(
        &mut self,
        state: &G,
        _: &mut yomi_core::Rng,
    ) -> Result<yomi_core::Explanation<G::Move>, yomi_core::AgentError> {
        std::thread::sleep(std::time::Duration::from_millis(self.ms));
        let scored = state
            .legal_moves()
            .iter()
            .map(|&m| yomi_core::MoveScore::new(m, 0.0))
            .collect();
        Ok(yomi_core::Explanation::from_scores(
            format!("sleeper:{}", self.ms),
            scored,
            |b| b[0],
        ))
    }

    fn set_clock(&mut self, clock: Option<&yomi_core::Clock>) {
        self.clocks.lock().unwrap().push(clock.copied());
    }
}

#[test]
fn a_side_out_of_time_forfeits_and_the_match_goes_on() {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;
    // A sleeps 40 ms a move on a clock of 0.1 s + 0.01 s: it runs out at its third move
    // (100 - 40 + 10 - 40 + 10 = 40 ms left, then 40 + margin); B has no clock.
    let clocks = Arc::new(Mutex::new(Vec::new()));
    let seen = clocks.clone();
    let mut options = RunOptions::from_start(TicTacToe::default());
    options.time_controls = [Some("0.1+0.01".parse().unwrap()), None];
    let result = run_match(
        &config(2, 1, Some(1)),
        &options,
        move || -> Box<dyn Agent<TicTacToe>> {
            Box::new(Sleeper {
                ms: 40,
                clocks: seen.clone(),
            })
        },
        random,
        &mut NoObserver,
    )
    .unwrap();
    assert!(result.complete);
    assert_eq!(result.total().games(), 4);
    // Every game A did not finish in time is a loss by timeout; tic-tac-toe gives A at most
    // 5 moves, so it loses some games on time, never with time to spare.
    let timeouts: Vec<_> = result
        .forfeits
        .iter()
        .filter(|f| f.reason == "timeout")
        .collect();
    assert!(!timeouts.is_empty(), "{result:?}");
    assert!(timeouts.iter().all(|f| f.agent == Seat::A));
    assert!(
        timeouts[0].detail.starts_with("out of time"),
        "{timeouts:?}"
    );
    // The clocks A was given: each game starts at 0.1 s, then falls by about 30 ms a move.
    let seen = clocks.lock().unwrap().clone();
    assert!(seen.iter().all(Option::is_some));
    let first = seen[0].unwrap();
    assert_eq!(first.remaining, Duration::from_millis(100));
    assert_eq!(first.increment, Duration::from_millis(10));
    assert!(
        seen.iter()
            .any(|c| c.unwrap().remaining < Duration::from_millis(75)),
        "{seen:?}"
    );
    // Without a time control the agents get no clock, and the match is the usual one.
    let plain = run(
        &RunOptions::from_start(TicTacToe::default()),
        &config(50, 3, Some(2)),
        perfect,
        random,
    );
    assert!(plain.forfeits.is_empty());
}

/// Takes one stone, reporting the kind `low` from 5 stones down and `high` above.
#[derive(Debug, Default)]
struct Kinder {
    last: Option<&'static str>,
}

impl Agent<Nim> for Kinder {
    fn spec(&self) -> String {
        "kinder".into()
    }

    fn explain(
        &mut self,
        state: &Nim,
        _: &mut yomi_core::Rng,
    ) -> Result<yomi_core::Explanation<yomi_nim::Take>, yomi_core::AgentError> {
        self.last = Some(if state.stones() <= 5 { "low" } else { "high" });
        let take_one = state.legal_moves()[0];
        let scored = vec![yomi_core::MoveScore::new(take_one, 0.0)];
        Ok(yomi_core::Explanation::from_scores(
            "kinder".to_string(),
            scored,
            |b| b[0],
        ))
    }

    fn last_move_kind(&self) -> Option<&'static str> {
        self.last
    }
}

/// A's time and kinds by phase with the wall-clock seconds set to zero.
fn counts(time: &AgentTime) -> AgentTime {
    let mut t = time.clone();
    t.seconds = 0.0;
    for p in t.phases.values_mut() {
        p.seconds = 0.0;
    }
    t
}

#[test]
fn moves_are_counted_by_phase_and_kind_at_any_thread_count_and_in_shards() {
    let kinder = || -> Box<dyn Agent<Nim>> { Box::new(Kinder::default()) };
    let options = RunOptions::from_start(Nim::default());
    let whole = run_match(
        &config(3, 1, Some(1)),
        &options,
        kinder,
        kinder,
        &mut NoObserver,
    )
    .unwrap();
    // Both take one stone a move: A moves at 15, 13, ..., 1 stones when it starts (games 0,
    // 2, 4) and at 14, 12, ..., 2 otherwise.
    let a = counts(&whole.time[0]);
    assert_eq!(a.moves, 3 * 8 + 3 * 7);
    assert_eq!(a.phases.len(), 15);
    assert!(a.phases.values().all(|p| p.moves == 3));
    assert_eq!(
        a.phases.keys().copied().collect::<Vec<_>>(),
        (1..=15).collect::<Vec<_>>()
    );
    let kinds = a.kinds();
    assert_eq!(
        kinds["low"],
        KindCount {
            moves: 15,
            first: 6
        }
    );
    assert_eq!(
        kinds["high"],
        KindCount {
            moves: 30,
            first: 6
        }
    );
    // Each game's first `low` move is at 5 stones (A's odd games) or at 4.
    assert_eq!(a.firsts("low"), [(4, 3), (5, 3)].into_iter().collect());
    assert_eq!(a.firsts("high"), [(14, 3), (15, 3)].into_iter().collect());
    assert_eq!(a.in_phases(1..=5).0, 15);
    assert!(whole.time[0].seconds >= whole.time[0].in_phases(0..=15).1 - 1e-9);
    // The same counts on two threads, and from shards merged.
    let two = run_match(
        &config(3, 1, Some(2)),
        &options,
        kinder,
        kinder,
        &mut NoObserver,
    )
    .unwrap();
    assert_eq!(counts(&two.time[0]), a);
    let shards: Vec<MatchResult> = (0..2)
        .map(|k| {
            let mut o = RunOptions::from_start(Nim::default());
            o.shard = Shard { index: k, count: 2 };
            run_match(&config(3, 1, Some(1)), &o, kinder, kinder, &mut NoObserver).unwrap()
        })
        .collect();
    let merged = MatchResult::merge(&shards).unwrap();
    assert_eq!(counts(&merged.time[0]), a);
    assert_eq!(counts(&merged.time[1]), counts(&whole.time[1]));
    // The JSON of a shard carries them back.
    let text = serde_json::to_string(&whole).unwrap();
    let back: MatchResult = serde_json::from_str(&text).unwrap();
    assert_eq!(counts(&back.time[0]), a);
}
