//! The Othello engine `othello`: parameters, explanations, solves and a short match.

use std::ops::ControlFlow;

use yomi_arena::{play_match, MatchConfig};
use yomi_core::testing::random_game_positions;
use yomi_core::{Game, Rng};
use yomi_nim::Nim;
use yomi_othello::Othello;
use yomi_tictactoe::TicTacToe;

use crate::{BuildAgentError, OthelloEval, OthelloSettings, ParseEvalError, Zoo};

#[test]
fn othello_is_in_the_othello_zoo_only_with_checked_parameters() {
    assert!(Othello::zoo().names().contains(&"othello"));
    assert!(!TicTacToe::zoo().names().contains(&"othello"));
    assert!(!Nim::zoo().names().contains(&"othello"));
    let zoo = Othello::zoo();
    for (given, full) in [
        (
            "othello",
            "othello:time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=1.5,root=best,book=off,book_random=0",
        ),
        (
            "othello:exact=0,time=0,depth=5,hash_mb=1",
            "othello:time=0,depth=5,wld=18,exact=0,hash_mb=1,eval=learned,weights=builtin,probcut=1.5,root=best,book=off,book_random=0",
        ),
        (
            "othello:eval=hand",
            "othello:time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=hand,weights=builtin,probcut=off,root=best,book=off,book_random=0",
        ),
        (
            "othello:probcut=off",
            "othello:time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=off,root=best,book=off,book_random=0",
        ),
        (
            "othello:probcut=2.25,time=0",
            "othello:time=0,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=2.25,root=best,book=off,book_random=0",
        ),
        (
            "othello:root=all,time=0",
            "othello:time=0,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=1.5,root=all,book=off,book_random=0",
        ),
        (
            "othello:eval=hand,probcut=auto",
            "othello:time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=hand,weights=builtin,probcut=off,root=best,book=off,book_random=0",
        ),
    ] {
        let spec = zoo.build(given).unwrap().spec();
        assert_eq!(spec, full);
        assert_eq!(zoo.build(&spec).unwrap().spec(), full);
    }
    for bad in [
        "othello:depth=0",
        "othello:depth=65",
        "othello:wld=65",
        "othello:exact=-1",
        "othello:hash_mb=0",
        "othello:hash_mb=5000",
        "othello:time=-1",
        "othello:time=x",
        "othello:time=inf",
        "othello:eval=neural",
        "othello:root=some",
        "othello:eval=Hand",
        "othello:probcut=0",
        "othello:probcut=11",
        "othello:probcut=on",
        "othello:probcut=nan",
        "othello:eval=hand,probcut=1.5",
    ] {
        let err = zoo.build(bad).unwrap_err();
        assert!(
            matches!(err, BuildAgentError::BadValue { .. }),
            "{bad}: {err}"
        );
    }
    let err = zoo.build("othello:iters=3").unwrap_err();
    assert!(matches!(err, BuildAgentError::UnknownParam { .. }), "{err}");
    // An unknown evaluation names the valid ones.
    let err = zoo.build("othello:eval=neural").unwrap_err().to_string();
    assert!(err.contains("learned or hand"), "{err}");
    for (text, eval) in [
        ("learned", OthelloEval::Learned),
        ("hand", OthelloEval::Hand),
    ] {
        assert_eq!(text.parse::<OthelloEval>(), Ok(eval));
        assert_eq!(eval.to_string(), text);
        assert_eq!(eval.evaluator().name(), text);
    }
    assert_eq!(
        "Learned".parse::<OthelloEval>(),
        Err(ParseEvalError("Learned".into()))
    );
    assert_eq!(OthelloSettings::default().eval, OthelloEval::Learned);
}

#[test]
fn othello_loads_a_weight_file_and_refuses_bad_ones() {
    let zoo = Othello::zoo();
    let dir = std::env::temp_dir().join(format!("yomi-othello-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A sound file: the built-in weights written out; the agent plays as with the built-in.
    let good = dir.join("copy.weights");
    yomi_othello_search::Weights::builtin()
        .write(&good)
        .unwrap();
    let spec = format!("othello:time=0,depth=3,weights={}", good.display());
    let mut from_file = zoo.build(&spec).unwrap();
    assert!(from_file.spec().ends_with(&format!(
        "eval=learned,weights={},probcut=1.5,root=best,book=off,book_random=0",
        good.display()
    )));
    let mut builtin = zoo.build("othello:time=0,depth=3").unwrap();
    let pos = random_game_positions(&Othello::new(), 1, &mut Rng::seed_from_u64(4))[20];
    let a = from_file.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    let b = builtin.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(
        a.moves.iter().map(|m| (m.mv, m.score)).collect::<Vec<_>>(),
        b.moves.iter().map(|m| (m.mv, m.score)).collect::<Vec<_>>()
    );
    // Missing, corrupt, and weights with the hand evaluation: clear errors.
    let corrupt = dir.join("corrupt.weights");
    let mut bytes = std::fs::read(&good).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&corrupt, bytes).unwrap();
    for (bad, says) in [
        (dir.join("missing.weights"), "weight file"),
        (corrupt, "weight file"),
    ] {
        let err = zoo
            .build(&format!("othello:weights={}", bad.display()))
            .unwrap_err();
        assert!(matches!(err, BuildAgentError::BadValue { .. }), "{err}");
        assert!(err.to_string().contains(says), "{err}");
    }
    let err = zoo
        .build(&format!("othello:eval=hand,weights={}", good.display()))
        .unwrap_err();
    assert!(
        err.to_string().contains("eval=hand uses no weights"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The exact final score of `pos` for its mover by plain minimax.
fn solve(pos: &Othello) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.final_score_for_mover();
    }
    moves
        .iter()
        .map(|&mv| -solve(&pos.play_unchecked(mv)))
        .max()
        .expect("a move")
}

#[test]
fn explanations_say_how_each_value_was_obtained() {
    explanations_with("", "learned");
    explanations_with(",eval=hand", "hand");
}

fn explanations_with(eval_param: &str, eval: &str) {
    let zoo = Othello::zoo();
    let mut agent = zoo
        .build(&format!(
            "othello:time=0,depth=3,wld=10,exact=8{eval_param}"
        ))
        .unwrap();
    let positions = random_game_positions(&Othello::new(), 3, &mut Rng::seed_from_u64(9));
    let (mut searched, mut wld, mut exact) = (0, 0, 0);
    for pos in positions.iter().filter(|p| p.legal_moves().len() > 1) {
        let e = agent.explain(pos, &mut Rng::seed_from_u64(1)).unwrap();
        let empties = pos.empties().count();
        for m in &e.moves {
            let note = m.note.as_deref().unwrap();
            let after = pos.play_unchecked(m.mv);
            if empties <= 8 {
                assert_eq!(note, "exact solve");
                assert_eq!(m.score, f64::from(-solve(&after)), "{pos} {}", m.mv);
                exact += 1;
            } else if empties <= 10 {
                assert_eq!(note, "WLD solve");
                assert_eq!(m.score, f64::from(-solve(&after).signum()), "{pos}");
                wld += 1;
            } else {
                assert!(note.starts_with("depth "), "{note}");
                let how = note
                    .strip_suffix(", an upper bound (the move is worse than the best)")
                    .unwrap_or(note);
                assert!(
                    how.ends_with(&format!("{eval} evaluation")) || how.ends_with("exact"),
                    "{note}"
                );
                searched += 1;
            }
        }
        if empties > 10 {
            let text = e.notes.join("\n");
            assert!(
                text.contains(&format!("scores: {eval} evaluation")),
                "{text}"
            );
            assert_eq!(
                text.contains("Multi-ProbCut at 1.5 standard deviations"),
                eval == "learned",
                "{text}"
            );
        }
        // The best set is every move of the top score, and the choice is in it.
        let top = e.moves.iter().map(|m| m.score).fold(f64::MIN, f64::max);
        let best: Vec<_> = e
            .moves
            .iter()
            .filter(|m| m.score == top)
            .map(|m| m.mv)
            .collect();
        assert_eq!(e.best, best);
        assert!(e.best.contains(&e.chosen));
    }
    assert!(
        searched > 50 && wld > 5 && exact > 5,
        "{searched} {wld} {exact}"
    );
}

#[test]
fn othello_beats_greedy_every_game_of_a_short_match() {
    beats_greedy_with("learned");
    beats_greedy_with("hand");
}

fn beats_greedy_with(eval: &str) {
    // Fixed depth, no time limit: deterministic given the seed.
    let zoo = Othello::zoo();
    let config = MatchConfig {
        rounds: 8,
        seed: 7,
        threads: None,
    };
    let r = play_match(
        &Othello::default(),
        &config,
        || {
            zoo.build(&format!(
                "othello:time=0,depth=4,wld=12,exact=12,eval={eval}"
            ))
            .unwrap()
        },
        || zoo.build("greedy").unwrap(),
        |_| ControlFlow::Continue(()),
    )
    .unwrap();
    assert_eq!(r.total().win, 16, "{eval}: {r:?}");
}

#[test]
fn other_agent_weights_move_no_solver_node() {
    // The solver's selective passes and its guess read the solver's own weights, so an agent
    // that loads other weights (here all zero) solves the same trees: at 22 empties, where
    // both run, every move's value and node count are the built-in agent's.
    let zoo = Othello::zoo();
    let dir = std::env::temp_dir().join(format!("yomi-solver-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let zero = dir.join("zero.weights");
    yomi_othello_search::Weights::zero(12, "all zero")
        .unwrap()
        .write(&zero)
        .unwrap();
    let suite = yomi_othello_search::FfoSuite::load().unwrap();
    let pos = suite.file("fforum-40-49.obf").unwrap()[1].position; // FFO #41
    assert_eq!(pos.empties().count(), 22);
    let spec = "othello:time=0,wld=22,exact=22,hash_mb=16";
    let mut builtin = zoo.build(spec).unwrap();
    let mut other = zoo
        .build(&format!("{spec},weights={}", zero.display()))
        .unwrap();
    let solved = |agent: &mut Box<dyn yomi_core::Agent<Othello>>| {
        let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
        e.moves
            .iter()
            .map(|m| {
                let nodes = m.parts.iter().find(|p| p.label == "nodes").unwrap().value;
                (m.mv, m.score, nodes)
            })
            .collect::<Vec<_>>()
    };
    let a = solved(&mut builtin);
    let b = solved(&mut other);
    assert!(a.len() > 1 && a.iter().all(|m| m.2 > 0.0), "{a:?}");
    assert_eq!(a, b);
    // The agents' evaluations differ: the zero weights value every position at 0.
    let shallow = |w: &str| {
        let mut agent = zoo
            .build(&format!("othello:time=0,depth=2,exact=0,wld=0{w}"))
            .unwrap();
        agent
            .explain(&pos, &mut Rng::seed_from_u64(1))
            .unwrap()
            .moves[0]
            .score
    };
    assert_eq!(shallow(&format!(",weights={}", zero.display())), 0.0);
    assert_ne!(shallow(""), 0.0);
}

#[test]
fn othello_plans_its_time_from_the_clock_and_keeps_within_it() {
    use std::time::Duration;
    use yomi_core::{Agent, Clock};
    // The plan: 5% + 100 ms kept back, the rest over the moves before the planned solve.
    let mut agent = Othello::zoo().build("othello:exact=16,wld=18").unwrap();
    let pos = random_game_positions(&Othello::new(), 1, &mut Rng::seed_from_u64(4))[20];
    let empties = pos.empties().count();
    assert_eq!(empties, 40);
    agent.set_clock(Some(&Clock {
        remaining: Duration::from_secs(10),
        increment: Duration::ZERO,
        moves_to_go: None,
    }));
    let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    let note = e.notes.iter().find(|n| n.starts_with("clock:")).unwrap();
    // The exact solve is planned at 21 empties, the most whose predicted time (at the
    // assumed 10 M nodes/s) fits a quarter of the usable 9.4 s; 9.4 s over the 10 moves
    // before it: 0.94 s.
    assert!(
        note.contains("10.000 s left")
            && note.contains(
                "0.940 s for this move (10 moves to plan over, 0.600 s kept in \
                              reserve, the exact solve planned at 21 empties)"
            ),
        "{note}"
    );
    agent.set_clock(None);
    let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(!e.notes.iter().any(|n| n.starts_with("clock:")));

    // Whole games at 3 s + 0 a side, one at a time: never out of time.
    let mut options = yomi_arena::RunOptions::from_start(Othello::new());
    options.time_controls = [Some("3+0".parse().unwrap()), None];
    let zoo = Othello::zoo();
    let result = yomi_arena::run_match(
        &MatchConfig {
            rounds: 1,
            seed: 1,
            threads: Some(1),
        },
        &options,
        || zoo.build("othello").unwrap(),
        || zoo.build("random").unwrap(),
        &mut yomi_arena::NoObserver,
    )
    .unwrap();
    assert_eq!(result.total().games(), 2);
    assert!(result.forfeits.is_empty(), "{:?}", result.forfeits);
    assert!(result.time[0].seconds < 6.0, "{:?}", result.time);
}

/// At a clock the agent solves as soon as the solve's predicted time fits the move's time:
/// with a minute left at 22 empties (`exact=16,wld=18`) it solves exactly, with 0.3 s it
/// searches; `choose` plays a move of the best value that `explain` proves.
#[test]
fn othello_solves_early_at_a_clock_when_the_solve_fits() {
    use std::time::Duration;
    use yomi_core::{Agent, Clock};
    let pos = random_game_positions(&Othello::new(), 1, &mut Rng::seed_from_u64(4))[38];
    assert_eq!(pos.empties().count(), 22);
    let clock = |secs: f64| Clock {
        remaining: Duration::from_secs_f64(secs),
        increment: Duration::ZERO,
        moves_to_go: None,
    };
    let zoo = Othello::zoo();
    let mut agent = zoo.build("othello:exact=16,wld=18").unwrap();
    agent.set_clock(Some(&clock(60.0)));
    let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(
        e.notes
            .iter()
            .any(|n| n.contains("exact solve at 22 empties is predicted")),
        "{:?}",
        e.notes
    );
    assert!(e
        .notes
        .iter()
        .any(|n| n.starts_with("exact solve at 22 empties")));
    let best = e.moves.iter().map(|m| m.score).fold(f64::MIN, f64::max);
    let chosen = agent.choose(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    let of_chosen = e.moves.iter().find(|m| m.mv == chosen).unwrap().score;
    assert_eq!(
        of_chosen, best,
        "{chosen} is not a best move: {:?}",
        e.moves
    );

    let searched = |e: &yomi_core::Explanation<yomi_othello::Move>| {
        e.notes.iter().any(|n| n.starts_with("depth "))
            && !e
                .notes
                .iter()
                .any(|n| n.contains("predicted") || n.contains("solve at"))
    };
    agent.set_clock(Some(&clock(0.3)));
    let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(searched(&e), "{:?}", e.notes);
    // Without a clock the settings decide: a midgame search at 22 empties.
    agent.set_clock(None);
    let e = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(searched(&e), "{:?}", e.notes);
    // A level keeps its solve empties at a clock (level 10: WLD 18, exact 16).
    let mut level = zoo.build("othello:level=10,depth=4").unwrap();
    level.set_clock(Some(&clock(60.0)));
    let e = level.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(searched(&e), "{:?}", e.notes);
}

/// `choose` proves the best move only; at fixed settings it plays a move that `explain`
/// values best, over the solved plies of a few games.
#[test]
fn othello_choose_plays_a_best_solved_move() {
    use yomi_core::Agent;
    let zoo = Othello::zoo();
    let mut agent = zoo.build("othello:time=0,depth=2,exact=12,wld=14").unwrap();
    let mut checked = 0;
    for seed in 0..3 {
        for pos in random_game_positions(&Othello::new(), 1, &mut Rng::seed_from_u64(seed)) {
            let e = pos.empties().count();
            if !(6..=14).contains(&e) || pos.legal_moves().len() < 2 {
                continue;
            }
            let x = agent.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
            let chosen = agent.choose(&pos, &mut Rng::seed_from_u64(1)).unwrap();
            assert!(
                x.best.contains(&chosen),
                "{pos}: {chosen} not in {:?}",
                x.best
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked}");
}

#[test]
fn levels_build_from_the_table_and_round_trip() {
    use crate::{agent_levels, OthelloLevel, MAX_LEVEL, OTHELLO_LEVELS};
    let zoo = Othello::zoo();
    // The table: every level once, in order, deeper and solving no earlier than the one
    // below it, the exact solve never after the WLD one.
    assert_eq!(OTHELLO_LEVELS.len(), MAX_LEVEL as usize);
    for (i, l) in OTHELLO_LEVELS.iter().enumerate() {
        assert_eq!(l.level as usize, i + 1);
        assert_eq!(OthelloLevel::get(l.level), Some(l));
        assert!(l.exact <= l.wld && l.wld <= 64 && l.depth <= 64, "{l}");
        if let Some(below) = i.checked_sub(1).map(|j| OTHELLO_LEVELS[j]) {
            assert!(l.depth > below.depth && l.wld >= below.wld && l.exact >= below.exact);
        }
    }
    assert_eq!(OthelloLevel::get(0), None);
    assert_eq!(OthelloLevel::get(MAX_LEVEL + 1), None);
    assert_eq!(
        OTHELLO_LEVELS[9].to_string(),
        "level 10: depth 10, ProbCut 1.5, WLD at 18 empties, exact at 16"
    );
    assert_eq!(
        OTHELLO_LEVELS[0].to_string(),
        "level 1: depth 1, no ProbCut, exact at 2 empties"
    );
    assert_eq!(
        agent_levels("othello", "othello"),
        Some(&OTHELLO_LEVELS[..])
    );
    assert_eq!(agent_levels("othello6", "othello"), None);
    assert_eq!(agent_levels("othello", "alphabeta"), None);
    let info = zoo.info("othello").unwrap();
    let help = info.params.iter().find(|p| p.name == "level").unwrap().help;
    assert!(help.contains(&format!("1 to {MAX_LEVEL}")), "{help}");

    // Each level's spec: the level, no time limit, its values; explicit values override.
    for l in &OTHELLO_LEVELS {
        let pc = l.probcut.map_or("off".to_string(), |t| t.to_string());
        let full = format!(
            "othello:level={},time=0,depth={},wld={},exact={},hash_mb=16,eval=learned,\
             weights=builtin,probcut={pc},root=best,book=off,book_random=0",
            l.level, l.depth, l.wld, l.exact
        );
        let spec = zoo
            .build(&format!("othello:level={}", l.level))
            .unwrap()
            .spec();
        assert_eq!(spec, full);
        assert_eq!(zoo.build(&spec).unwrap().spec(), full);
    }
    for (given, full) in [
        (
            "othello:level=10,depth=6",
            "othello:level=10,time=0,depth=6,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=1.5,root=best,book=off,book_random=0",
        ),
        (
            "othello:depth=6,time=0.5,level=3,probcut=off,exact=0",
            "othello:level=3,time=0.5,depth=6,wld=6,exact=0,hash_mb=16,eval=learned,weights=builtin,probcut=off,root=best,book=off,book_random=0",
        ),
        (
            "othello:level=1,probcut=auto,eval=hand",
            "othello:level=1,time=0,depth=1,wld=2,exact=2,hash_mb=16,eval=hand,weights=builtin,probcut=off,root=best,book=off,book_random=0",
        ),
        (
            "othello:level=none",
            "othello:time=0.1,depth=60,wld=18,exact=16,hash_mb=16,eval=learned,weights=builtin,probcut=1.5,root=best,book=off,book_random=0",
        ),
    ] {
        let spec = zoo.build(given).unwrap().spec();
        assert_eq!(spec, full, "{given}");
        assert_eq!(zoo.build(&spec).unwrap().spec(), full);
    }
    // Out of range or not a number: a typed error naming the range, never a panic.
    for bad in [
        "othello:level=0",
        "othello:level=31",
        "othello:level=-1",
        "othello:level=ten",
        "othello:level=99999999999999999999999",
    ] {
        let err = zoo.build(bad).unwrap_err();
        assert!(
            matches!(err, BuildAgentError::BadValue { ref param, .. } if param == "level"),
            "{bad}: {err}"
        );
        assert!(
            err.to_string()
                .contains("none or a whole number from 1 to 30"),
            "{err}"
        );
    }
}

#[test]
fn a_level_plays_by_depth_and_explains_itself() {
    let zoo = Othello::zoo();
    let positions = random_game_positions(&Othello::new(), 1, &mut Rng::seed_from_u64(4));
    let mid = positions[20];
    assert_eq!(mid.empties().count(), 40);
    // Level 4: a depth-4 search, the same values as the spelt-out settings; no time limit,
    // so the explanation is the same every time.
    let mut level = zoo.build("othello:level=4").unwrap();
    let mut spelt = zoo
        .build("othello:time=0,depth=4,wld=8,exact=8,probcut=1.5")
        .unwrap();
    let a = level.explain(&mid, &mut Rng::seed_from_u64(1)).unwrap();
    let b = spelt.explain(&mid, &mut Rng::seed_from_u64(1)).unwrap();
    let values = |e: &yomi_core::Explanation<yomi_othello::Move>| {
        e.moves.iter().map(|m| (m.mv, m.score)).collect::<Vec<_>>()
    };
    assert_eq!(values(&a), values(&b));
    assert_eq!(a.chosen, b.chosen);
    // The best moves are proven, the others bounded (`root=best`).
    assert!(a.moves.iter().all(|m| m
        .note
        .as_deref()
        .unwrap()
        .starts_with("depth 4 search, learned evaluation")));
    assert_eq!(
        a.notes[0],
        "level 4: depth 4, ProbCut 1.5, exact at 8 empties"
    );
    assert!(
        a.agent.starts_with("othello:level=4,time=0,depth=4,"),
        "{}",
        a.agent
    );
    assert!(!b.notes.iter().any(|n| n.starts_with("level")));
    // Values given over the level are named; the endgame follows the level's empties.
    let mut over = zoo.build("othello:level=4,depth=2,time=5").unwrap();
    let e = over.explain(&mid, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(
        e.notes[0],
        "level 4: depth 4, ProbCut 1.5, exact at 8 empties; given over it: time 5, depth 2"
    );
    let end = positions
        .iter()
        .find(|p| p.empties().count() == 8 && p.legal_moves().len() > 1)
        .or_else(|| {
            positions
                .iter()
                .find(|p| p.empties().count() == 7 && p.legal_moves().len() > 1)
        })
        .unwrap();
    let e = level.explain(end, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(
        e.moves
            .iter()
            .all(|m| m.note.as_deref() == Some("exact solve")),
        "{e:?}"
    );
    assert!(e.notes[0].starts_with("level 4:"), "{:?}", e.notes);
}

#[test]
fn neighbouring_low_levels_play_a_short_deterministic_match() {
    // Level 3 against level 1, fixed depth: the same result on every run.
    let zoo = Othello::zoo();
    let config = MatchConfig {
        rounds: 4,
        seed: 3,
        threads: None,
    };
    let play = || {
        play_match(
            &Othello::default(),
            &config,
            || zoo.build("othello:level=3").unwrap(),
            || zoo.build("othello:level=1").unwrap(),
            |_| ControlFlow::Continue(()),
        )
        .unwrap()
    };
    let r = play();
    assert_eq!(r.total().games(), 8);
    assert!(r.total().win > r.total().lose, "{r:?}");
    assert_eq!(format!("{:?}", play().total()), format!("{:?}", r.total()));
}

/// `book=FILE` plays from the book while the position is in it (every book move explained,
/// the best chosen, or one within `book_random` discs), then searches; a bad file is a
/// parameter error.
#[test]
fn the_agent_plays_from_its_book() {
    use yomi_othello::MoveSequence;
    use yomi_othello_search::{weights_digest, BookBuilder, BuildConfig, Weights};
    let lines: Vec<_> = ["f5 d6 c3 d3 c4", "f5 f6 e6 f4", "f5 d6 c5"]
        .iter()
        .map(|t| t.parse::<MoveSequence>().unwrap().0)
        .collect();
    let mut builder = BookBuilder::new(
        BuildConfig {
            depth: 3,
            exact: 0,
            wld: 0,
            hash_mb: 1,
        },
        Weights::builtin(),
    )
    .unwrap();
    let digest = weights_digest(&Weights::builtin()).unwrap();
    let book = builder.new_book(digest, &lines).unwrap();
    let path = std::env::temp_dir().join(format!("yomi-agent-book-{}.book", std::process::id()));
    book.write(&path).unwrap();
    let zoo = Othello::zoo();
    let spec = format!("othello:time=0,depth=2,book={}", path.display());
    let mut agent = zoo.build(&spec).unwrap();
    assert!(agent
        .spec()
        .ends_with(&format!("book={},book_random=0", path.display())));
    let f5 = Othello::new().play_line("f5").unwrap();
    let why = agent.explain(&f5, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(
        why.notes[0].starts_with("book: the position is in the opening book"),
        "{why:?}"
    );
    let moves = book.moves(&f5);
    assert_eq!(why.moves.len(), moves.len());
    let top = moves[0].value;
    for m in &why.moves {
        assert!(m.note.as_deref().unwrap().starts_with("book"), "{m:?}");
    }
    assert!(why
        .best
        .iter()
        .all(|b| moves.iter().any(|m| m.mv == *b && m.value == top)));
    assert!(why.best.contains(&why.chosen));
    assert!(!why
        .notes
        .iter()
        .any(|n| n.contains("other evaluation weights")));
    // choose plays what explain explains.
    assert_eq!(
        agent.choose(&f5, &mut Rng::seed_from_u64(1)).unwrap(),
        why.chosen
    );
    assert_eq!(agent.last_move_kind(), Some("book"));
    // Out of the book: the search.
    let out = Othello::new().play_line("f5 f4").unwrap();
    let why = agent.explain(&out, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(!why.notes.iter().any(|n| n.starts_with("book")), "{why:?}");
    assert_eq!(agent.last_move_kind(), Some("midgame"));
    // book_random: every move within the margin is a candidate.
    let mut wide = zoo.build(&format!("{spec},book_random=64")).unwrap();
    let why = wide.explain(&f5, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(why.best.len(), moves.len());
    assert!(why.notes.iter().any(|n| n.starts_with("book_random=64")));
    // Other weights than the book's: still used, and said.
    let mut hand = zoo.build(&format!("{spec},eval=hand")).unwrap();
    let why = hand.explain(&f5, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(
        why.notes
            .iter()
            .any(|n| n.contains("other evaluation weights")),
        "{why:?}"
    );
    // Bad files and values.
    let err = zoo
        .build("othello:book=/nonexistent.book")
        .unwrap_err()
        .to_string();
    assert!(err.contains("book"), "{err}");
    assert!(zoo.build(&format!("{spec},book_random=65")).is_err());
    std::fs::remove_file(&path).ok();
}

#[test]
fn othello_reports_how_each_move_was_found() {
    use crate::OTHELLO_MOVE_KINDS;
    let zoo = Othello::zoo();
    let mut agent = zoo
        .build("othello:time=0,depth=2,wld=12,exact=10,hash_mb=1")
        .unwrap();
    assert_eq!(agent.last_move_kind(), None);
    let mut rng = Rng::seed_from_u64(5);
    let positions = random_game_positions(&Othello::new(), 3, &mut rng);
    let mut seen = std::collections::BTreeSet::new();
    for pos in positions.iter().filter(|p| !p.is_over()) {
        let moves = pos.legal_moves().len();
        let empties = pos.empties().count();
        let want = if moves == 1 {
            "forced"
        } else if empties <= 10 {
            "exact"
        } else if empties <= 12 {
            "wld"
        } else {
            "midgame"
        };
        agent.choose(pos, &mut Rng::seed_from_u64(1)).unwrap();
        assert_eq!(agent.last_move_kind(), Some(want), "{pos}");
        agent.explain(pos, &mut Rng::seed_from_u64(1)).unwrap();
        assert_eq!(agent.last_move_kind(), Some(want), "{pos}");
        assert!(OTHELLO_MOVE_KINDS.contains(&want));
        seen.insert(want);
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
    // A solve stopped by its limit plays by the midgame search, and says so.
    let mut stopped = zoo
        .build("othello:time=0,depth=2,exact=30,hash_mb=1")
        .unwrap();
    stopped.set_limits(&yomi_core::Limits::none().with_nodes(1000));
    let ffo = yomi_othello_search::FfoSuite::load().unwrap();
    let deep = &ffo.file("fforum-40-49.obf").unwrap()[9].position;
    stopped.choose(deep, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(stopped.last_move_kind(), Some("exact-stopped"));
}
