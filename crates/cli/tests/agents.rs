//! End-to-end tests of `yomi explain`, `yomi league` and the zoo listing.

mod common;

use common::{fails, ok};

#[test]
fn agents_lists_the_whole_zoo() {
    let text = ok(&["agents", "--game", "tictactoe"]);
    for name in [
        "ai1 ",
        "ai10s",
        "ai11s",
        "ai14s",
        "pmc ",
        "pmc2",
        "mcts",
        "alphabeta",
        "blunder",
        "score_102=1",
    ] {
        assert!(text.contains(name), "{name} missing:\n{text}");
    }
    let nim = ok(&["agents", "--game", "nim"]);
    assert!(nim.contains("alphabeta") && !nim.contains("ai11s"), "{nim}");
}

#[test]
fn explain_shows_scores_parts_best_and_choice() {
    let text = ok(&["explain", "ai11s", "x...o...o", "--seed", "3"]);
    assert!(
        text.contains("agent ai11s:score_201=1,score_102=1,score_012=-1"),
        "{text}"
    );
    assert!(text.contains("201=1"), "{text}");
    assert!(text.contains("[lines]"), "{text}");
    let best = text.lines().find(|l| l.starts_with("best")).unwrap();
    assert_eq!(best, "best   (2,0) (2,1) (0,2) (1,2)");
    let chosen = text.lines().find(|l| l.starts_with("chosen")).unwrap();
    assert!(
        best.contains(chosen.trim_start_matches("chosen").trim()),
        "{text}"
    );
    // The same from the start position and a move line; tuned weights narrow the best set.
    let text = ok(&[
        "explain",
        "ai11s:score_201=2",
        "--moves",
        "(1,1) (0,0) (2,2)",
    ]);
    assert!(text.contains("best   (2,0) (0,2)\n"), "{text}");
}

#[test]
fn explain_json_and_monte_carlo_parts() {
    let text = ok(&["explain", "pmc2:pnum=900", "x...o...o", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["position"], "x...o...o");
    assert_eq!(v["agent"], "pmc2:pnum=900,time=0,alpha=0.5");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 6);
    let playouts: f64 = moves
        .iter()
        .map(|m| {
            let parts = m["parts"].as_array().unwrap();
            let labels: Vec<&str> = parts.iter().map(|p| p["label"].as_str().unwrap()).collect();
            assert_eq!(labels, ["playouts", "wins", "draws", "losses"]);
            parts[0]["value"].as_f64().unwrap()
        })
        .sum();
    assert_eq!(playouts, 900.0);
    assert!(v["best"].as_array().unwrap().contains(&v["chosen"]));
    // Same seed, same output; a search shows value, depth and nodes.
    assert_eq!(
        text,
        ok(&["explain", "pmc2:pnum=900", "x...o...o", "--json"])
    );
    let text = ok(&["explain", "alphabeta", "--game", "nim", "15:first"]);
    assert!(text.contains("depth=15"), "{text}");
    assert!(text.contains("nodes="), "{text}");
    // 15 stones is a first-player win: take 3, leaving a multiple of 4.
    assert!(
        text.contains(
            "best   3
"
        ),
        "{text}"
    );
}

#[test]
fn explain_rejects_bad_input() {
    fails(&["explain", "ai12s", "x...o...o"], "unknown agent");
    fails(&["explain", "ai11s:score_103=1"], "no parameter");
    fails(&["explain", "ai11s", "xxx......"], "bad tictactoe position");
    fails(&["explain", "ai11s", "ooo/xx./..."], "game is over");
    fails(
        &["explain", "ai11s", "--moves", "(1,1) (1,1)"],
        "illegal move",
    );
    fails(&["explain", "ai11s", "--game", "chess"], "invalid value");
}

#[test]
fn league_is_deterministic_across_thread_counts() {
    let base = [
        "league",
        "--agents",
        "ai10s,ai11s:score_201=2,pmc2:pnum=50,alpha=0.25",
        "--rounds",
        "300",
        "--seed",
        "5",
    ];
    let one = ok(&[&base[..], &["--threads", "1"]].concat());
    let two = ok(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.starts_with("league: tictactoe against random, 300 rounds each, seed 5\n"));
    let rows: Vec<&str> = one
        .lines()
        .filter(|l| l.starts_with("ai") || l.starts_with("pmc"))
        .collect();
    // One row per agent in each section: percentages, 95% intervals, Elo.
    assert_eq!(rows.len(), 9, "{one}");
    assert!(rows[2].starts_with("pmc2:pnum=50,alpha=0.25 "), "{one}");
    let csv = ok(&[&base[..], &["--csv"]].concat());
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("agent,spec,first_win,first_lose,first_draw,"));
    assert!(lines[3].starts_with("\"pmc2:pnum=50,alpha=0.25\",\"pmc2:pnum=50,time=0,alpha=0.25\","));
    let json = ok(&[&base[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(
        rows[1]["spec"],
        "ai11s:score_201=2,score_102=1,score_012=-1"
    );
    let total = &rows[0]["total"];
    let games = ["win", "lose", "draw"]
        .iter()
        .map(|k| total[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(games, 600);
}

#[test]
fn league_defaults_cover_the_zoo_on_nim() {
    let text = ok(&[
        "league",
        "--game",
        "nim",
        "--rounds",
        "20",
        "--baseline",
        "first",
    ]);
    for name in ["random", "pmc2", "mcts", "alphabeta", "average", "blunder"] {
        assert!(
            text.lines().any(|l| l.starts_with(name)),
            "{name} missing:\n{text}"
        );
    }
    assert!(text.contains("as first (first)"), "{text}");
}

#[test]
fn league_rejects_bad_input() {
    fails(&["league", "--agents", "ai1,nope"], "unknown agent");
    fails(&["league", "--baseline", "pmc:pnum=0"], "bad value");
    fails(&["league", "--rounds", "0"], "invalid value");
    fails(&["league", "--agents", " , "], "no agents");
    fails(&["league", "--json", "--csv"], "cannot be used");
}
