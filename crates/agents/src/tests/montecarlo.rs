//! Primitive Monte Carlo, MCTS and blunder.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use yomi_core::{Agent, Game, Rng};
use yomi_nim::Nim;
use yomi_tictactoe::{Square, TicTacToe};

use crate::{BlunderAgent, FirstAgent, Zoo};

fn part(m: &yomi_core::MoveScore<impl std::fmt::Display>, label: &str) -> f64 {
    m.parts.iter().find(|p| p.label == label).unwrap().value
}

#[test]
fn pmc_counts_add_up_and_rank_as_specified() {
    // O (0,0) (1,0), X (0,1) (1,1): O wins at once at (2,0).
    let p = TicTacToe::new()
        .play_line("(0,0) (0,1) (1,0) (1,1)")
        .unwrap();
    for spec in ["pmc:pnum=900", "pmc2:pnum=900"] {
        let mut agent = TicTacToe::zoo().build(spec).unwrap();
        let e = agent.explain(&p, &mut Rng::seed_from_u64(4)).unwrap();
        let total: f64 = e.moves.iter().map(|m| part(m, "playouts")).sum();
        assert_eq!(total, 900.0, "{spec}");
        for m in &e.moves {
            let n = part(m, "playouts");
            let (w, d, l) = (part(m, "wins"), part(m, "draws"), part(m, "losses"));
            assert_eq!(w + d + l, n);
            let expected = if spec.starts_with("pmc2") {
                (w + 0.5 * d) / n.max(1.0)
            } else {
                w / n.max(1.0)
            };
            assert_eq!(m.score, expected, "{spec} {}", m.mv);
        }
        let win: Square = "(2,0)".parse().unwrap();
        assert_eq!(e.best, vec![win], "{spec}");
        let m = e.moves.iter().find(|m| m.mv == win).unwrap();
        assert_eq!(m.score, 1.0);
    }
}

#[test]
fn equal_rates_tie() {
    // O (0,0) (2,0) (0,1) (1,2), X (1,0) (1,1) (0,2); X to move at (2,1) or (2,2), and either
    // way O's reply fills the board without a line: both moves draw every playout, so both
    // have win rate 0 and draw rate 1 and form the best set.
    let p: TicTacToe = "oxo/ox./xo.".parse().unwrap();
    assert_eq!(p.legal_moves().len(), 2);
    for spec in ["pmc:pnum=100", "pmc2:pnum=100"] {
        let mut agent = TicTacToe::zoo().build(spec).unwrap();
        let e = agent.explain(&p, &mut Rng::seed_from_u64(1)).unwrap();
        for m in &e.moves {
            assert_eq!(part(m, "wins"), 0.0);
            assert_eq!(part(m, "draws"), part(m, "playouts"));
            assert!(part(m, "playouts") > 0.0);
        }
        assert_eq!(e.best.len(), 2, "{spec}");
    }
}

#[test]
fn a_single_legal_move_is_played_without_playouts() {
    let p: TicTacToe = "oxo/oxx/xo.".parse().unwrap();
    assert_eq!(p.legal_moves().len(), 1);
    for spec in ["pmc", "pmc2", "mcts"] {
        let mut agent = TicTacToe::zoo().build(spec).unwrap();
        let mut rng = Rng::seed_from_u64(5);
        let before = rng.clone();
        let e = agent.explain(&p, &mut rng).unwrap();
        assert_eq!(rng, before, "{spec} drew random numbers");
        assert_eq!(e.chosen, p.legal_moves()[0]);
    }
}

/// The playouts (or iterations) a time-stopped explanation ran, from its note
/// "time limit reached after N of B ...".
fn stopped_after(e: &yomi_core::Explanation<impl std::fmt::Display>, spec: &str) -> u64 {
    let note = e
        .notes
        .iter()
        .find_map(|n| n.strip_prefix("time limit reached after "))
        .unwrap_or_else(|| panic!("{spec}: no time-limit note in {:?}", e.notes));
    note.split(' ').next().unwrap().parse().unwrap()
}

/// Same seed, same budget: same explanation. A time limit only cuts the seeded run short at a
/// clock read: the time-stopped explanation equals the explanation of the same agent given
/// exactly the playouts (iterations) it ran as its budget and no time. Nothing here depends on
/// how fast the machine is, except the loose bound on the time taken.
#[test]
fn monte_carlo_is_deterministic_per_seed_and_respects_time() {
    let zoo = TicTacToe::zoo();
    for spec in ["pmc2:pnum=500", "mcts:iters=500"] {
        let a = zoo
            .build(spec)
            .unwrap()
            .explain(&TicTacToe::new(), &mut Rng::seed_from_u64(8))
            .unwrap();
        let b = zoo
            .build(spec)
            .unwrap()
            .explain(&TicTacToe::new(), &mut Rng::seed_from_u64(8))
            .unwrap();
        assert_eq!(a, b, "{spec}");
    }
    // 20,000 stones: about 10,000 random moves a playout, so the 64 playouts between clock
    // reads take about a millisecond, while the budgets would take many minutes (mcts) or
    // years (pmc).
    let big = Nim::new(20_000, yomi_core::Player::First).unwrap();
    let limit = Duration::from_millis(20);
    for (timed, budgeted, unit) in [
        ("pmc:pnum=1000000000,time=0.02", "pmc:pnum=", "playouts"),
        ("mcts:iters=5000000,time=0.02", "mcts:iters=", "visits"),
    ] {
        let clock = Instant::now();
        let e = Nim::zoo()
            .build(timed)
            .unwrap()
            .explain(&big, &mut Rng::seed_from_u64(1))
            .unwrap();
        let elapsed = clock.elapsed();
        let done = stopped_after(&e, timed);
        // Stopped at a clock read (every 64), after the first one, far below the budget.
        assert!(done > 0 && done % 64 == 0, "{timed}: {done}");
        assert!(done < 5_000_000, "{timed}: {done}");
        let counted: f64 = e.moves.iter().map(|m| part(m, unit)).sum();
        assert_eq!(counted, done as f64, "{timed}");
        // Never before its time; and it did stop (the budget would take far longer): 10 s is
        // a bound no loaded machine reaches for 64 short playouts past the deadline.
        assert!(elapsed >= limit, "{timed}: {elapsed:?}");
        assert!(elapsed < Duration::from_secs(10), "{timed}: {elapsed:?}");
        // The same seed with exactly `done` as the budget and no time limit: the same run.
        let spec = format!("{budgeted}{done}");
        let f = Nim::zoo()
            .build(&spec)
            .unwrap()
            .explain(&big, &mut Rng::seed_from_u64(1))
            .unwrap();
        assert!(f.notes.iter().all(|n| !n.contains("time limit")), "{spec}");
        assert_eq!(
            (&e.moves, &e.best, e.chosen),
            (&f.moves, &f.best, f.chosen),
            "{spec}"
        );
    }
}

#[test]
fn mcts_reports_visits_and_finds_wins() {
    let p = TicTacToe::new()
        .play_line("(0,0) (0,1) (1,0) (1,1)")
        .unwrap();
    let mut agent = TicTacToe::zoo().build("mcts:iters=2000").unwrap();
    let e = agent.explain(&p, &mut Rng::seed_from_u64(2)).unwrap();
    let visits: f64 = e.moves.iter().map(|m| part(m, "visits")).sum();
    assert_eq!(visits, 2000.0);
    assert_eq!(e.best, vec!["(2,0)".parse::<Square>().unwrap()]);
    let m = &e.moves[e.moves.iter().position(|m| m.mv == e.chosen).unwrap()];
    assert_eq!(part(m, "mean"), 1.0);
    // Nim: from 5 stones only taking 1 wins (leaves 4).
    let mut agent = Nim::zoo().build("mcts:iters=3000").unwrap();
    let p: Nim = "5".parse().unwrap();
    for seed in 0..5 {
        assert_eq!(
            agent
                .choose(&p, &mut Rng::seed_from_u64(seed))
                .unwrap()
                .count(),
            1
        );
    }
}

#[test]
fn blunder_plays_the_second_best_move() {
    // O (0,0) (1,0), X (0,1) (1,1): ai10s's best is the win at (2,0); a blunder plays the
    // best-scored move outside the best set.
    let p = TicTacToe::new()
        .play_line("(0,0) (0,1) (1,0) (1,1)")
        .unwrap();
    let zoo = TicTacToe::zoo();
    let inner = zoo
        .build("ai10s")
        .unwrap()
        .explain(&p, &mut Rng::seed_from_u64(0))
        .unwrap();
    let top_other = inner
        .moves
        .iter()
        .filter(|m| !inner.best.contains(&m.mv))
        .map(|m| m.score)
        .fold(f64::NEG_INFINITY, f64::max);
    let second: HashSet<Square> = inner
        .moves
        .iter()
        .filter(|m| m.score == top_other)
        .map(|m| m.mv)
        .collect();
    let mut always = zoo.build("blunder:p=1,agent=ai10s").unwrap();
    let mut never = zoo.build("blunder:p=0,agent=ai10s").unwrap();
    let mut plain = zoo.build("ai10s").unwrap();
    for seed in 0..50 {
        let mv = always.choose(&p, &mut Rng::seed_from_u64(seed)).unwrap();
        assert!(second.contains(&mv), "{mv} not in {second:?}");
        let e = always.explain(&p, &mut Rng::seed_from_u64(seed)).unwrap();
        assert!(e.notes.iter().any(|n| n.starts_with("blunder:")));
        // p = 0 plays exactly as the inner agent, draw for draw.
        let mut r1 = Rng::seed_from_u64(seed);
        let mut r2 = r1.clone();
        assert_eq!(
            never.choose(&p, &mut r1).unwrap(),
            plain.choose(&p, &mut r2).unwrap()
        );
        assert_eq!(r1, r2);
    }
    // About p of the moves are blunders.
    let mut sometimes = zoo.build("blunder:p=0.3,agent=ai10s").unwrap();
    let win: Square = "(2,0)".parse().unwrap();
    let blunders = (0..2000)
        .filter(|&s| sometimes.choose(&p, &mut Rng::seed_from_u64(s)).unwrap() != win)
        .count();
    assert!((500..700).contains(&blunders), "{blunders}");
    // `first` scores the moves by their order: its second-best move is the second one.
    let mut b = BlunderAgent::new(1.0, Box::new(FirstAgent));
    let mv =
        Agent::<TicTacToe>::choose(&mut b, &TicTacToe::new(), &mut Rng::seed_from_u64(0)).unwrap();
    assert_eq!(mv, Square::ALL[1]);
}
