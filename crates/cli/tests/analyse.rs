//! End-to-end tests of `yomi analyse`: a move line in every notation, a WTHOR file, a match
//! record, the three outputs, bad input.

mod common;

use common::{fails, fails_with_error, ok};
use serde_json::Value;
use yomi_core::testing::random_game_line;
use yomi_core::Rng;
use yomi_othello::wthor::{GameFile, GameRecord};
use yomi_othello::{MoveSequence, Othello};

/// A whole random game from the start (passes included where forced), seeded.
fn random_game(seed: u64) -> MoveSequence {
    MoveSequence(random_game_line(
        &Othello::new(),
        &mut Rng::seed_from_u64(seed),
    ))
}

/// The fast settings of these tests.
const FAST: [&str; 4] = ["--depth", "3", "--exact", "10"];

fn review(args: &[&str]) -> Value {
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    all.extend_from_slice(&FAST);
    all.push("--json");
    serde_json::from_str(&ok(&all)).unwrap()
}

#[test]
fn a_move_line_reviews_in_every_notation_and_output() {
    let line = random_game(1);
    let text = line.to_string();
    let doc = review(&[&text]);
    let game = &doc["games"][0];
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), line.0.len());
    // The per-side totals are the sums of the moves' losses (every value is in discs: no
    // WLD stage by default).
    for (k, side) in ["black", "white"].iter().enumerate() {
        let sum: f64 = moves
            .iter()
            .filter(|m| m["player"] == *side)
            .map(|m| m["loss"].as_f64().unwrap())
            .sum();
        assert!(
            (game["loss"][side].as_f64().unwrap() - sum).abs() < 1e-9,
            "{k}"
        );
    }
    for m in moves {
        assert!(m["loss"].as_f64().unwrap() >= 0.0);
        let kind = m["kind"].as_str().unwrap();
        let empties = m["empties"].as_u64().unwrap();
        assert!(
            kind == "exact" || (kind == "estimate" && empties > 10),
            "{m}"
        );
    }
    assert!(game["result"].is_i64());
    // The same game in the other notations: the same review.
    let numbered: String = line
        .0
        .chunks(2)
        .enumerate()
        .map(|(i, p)| {
            let pair: Vec<String> = p.iter().map(ToString::to_string).collect();
            format!("{}. {} ", i + 1, pair.join(" "))
        })
        .collect();
    let dashed: Vec<String> = line.0.iter().map(ToString::to_string).collect();
    for text in [
        numbered.trim().to_string(),
        dashed.join("-"),
        dashed.join(","),
    ] {
        let again = review(&[&text]);
        assert_eq!(again["games"][0]["moves"], game["moves"], "{text}");
    }
    // The table and the CSV.
    let mut args = vec!["analyse", &text];
    args.extend_from_slice(&FAST);
    let table = ok(&args);
    let count = format!("{} moves; discs lost: black ", line.0.len());
    assert!(table.contains(&count), "{table}");
    assert!(table.contains("positions valued in"), "{table}");
    args.push("--csv");
    let csv = ok(&args);
    assert_eq!(csv.lines().count(), line.0.len() + 1, "{csv}");
    assert!(csv.starts_with("game,number,player,empties,move,value,best,best_value,loss,kind"));
}

#[test]
fn wthor_files_and_match_records_review_like_the_line() {
    let dir = std::env::temp_dir().join(format!("yomi-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = random_game(1);
    let text = line.to_string();
    let mut file = GameFile::new(2026);
    file.games
        .push(GameRecord::from_line(&line.0[..20]).unwrap());
    file.games.push(GameRecord::from_line(&line.0).unwrap());
    let wtb = dir.join("games.wtb");
    std::fs::write(&wtb, file.to_bytes().unwrap()).unwrap();
    let from_line = review(&[&text]);
    let from_file = review(&["--wthor", wtb.to_str().unwrap(), "--index", "2"]);
    assert_eq!(
        from_file["games"][0]["moves"],
        from_line["games"][0]["moves"]
    );
    // Both games: the second's positions after the first's 20 moves come from memory.
    let both = review(&["--wthor", wtb.to_str().unwrap()]);
    assert_eq!(both["games"].as_array().unwrap().len(), 2);
    assert!(
        both["positions"]["from_memory"].as_u64().unwrap() >= 18,
        "{}",
        both["positions"]
    );
    assert_eq!(both["games"][1]["moves"], from_line["games"][0]["moves"]);
    // A match record.
    let record = dir.join("match.jsonl");
    ok(&[
        "match",
        "othello:time=0,depth=1,exact=4,wld=4",
        "random",
        "--game",
        "othello",
        "--rounds",
        "1",
        "--record",
        record.to_str().unwrap(),
    ]);
    let games = review(&["--record", record.to_str().unwrap()]);
    assert_eq!(games["games"].as_array().unwrap().len(), 2);
    for g in games["games"].as_array().unwrap() {
        assert!(g["result"].is_i64(), "{g}");
    }
    fails_with_error(
        &[
            "analyse",
            "--record",
            record.to_str().unwrap(),
            "--index",
            "3",
        ],
        "holds 2 games: no game 3",
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_input_is_one_error_line() {
    fails_with_error(&["analyse", "f5 d6 a1"], "move 3 (a1) is not legal");
    fails_with_error(&["analyse", "f5 z9"], "bad move line");
    fails_with_error(
        &["analyse"],
        "give a move line, or --ggf, --wthor or --record FILE",
    );
    fails_with_error(
        &["analyse", "f5", "--index", "2"],
        "--index goes with a file",
    );
    fails_with_error(
        &["analyse", "f5", "--exact", "20", "--wld", "18"],
        "--wld 18 is below --exact 20",
    );
    fails_with_error(
        &["analyse", "f5", "--time=-1"],
        "--time takes seconds above 0",
    );
    fails_with_error(
        &["analyse", "f5", "--time", "0"],
        "--time takes seconds above 0",
    );
    fails_with_error(
        &["analyse", "--wthor", "/nonexistent/games.wtb"],
        "cannot read /nonexistent/games.wtb",
    );
    // Out of range for clap: exit 2.
    fails(&["analyse", "f5", "--exact", "30"], "30");
    fails(&["analyse", "f5", "--depth", "0"], "0");
    // `analyze` is the same command.
    let text = ok(&["analyze", "f5d6", "--depth", "2"]);
    assert!(text.contains("2 moves; discs lost"), "{text}");
}

/// FFO #1 (14 empties, black to move): g8 wins by 18.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

#[test]
fn one_position_is_analysed_as_the_page_analyses_it() {
    let doc: Value = serde_json::from_str(&ok(&[
        "analyse",
        "--position",
        FFO_1,
        "--time",
        "5",
        "--json",
    ]))
    .unwrap();
    assert_eq!(doc["to_move"], "black");
    assert!(doc["analyst"]
        .as_str()
        .unwrap()
        .starts_with("othello:time=5,"));
    assert_eq!(doc["best"], serde_json::json!(["g8"]));
    assert_eq!(doc["line"][0], "g8");
    assert_eq!(doc["value"]["kind"], "exact");
    assert_eq!(doc["value"]["value"], 18.0);
    let moves = doc["moves"].as_array().unwrap();
    assert!(moves.len() > 1);
    for m in moves {
        // Every move is solved; its loss is the difference from g8's +18.
        assert_eq!(m["value"]["kind"], "exact", "{m}");
        let v = m["value"]["value"].as_f64().unwrap();
        assert_eq!(m["loss"].as_f64(), Some(18.0 - v), "{m}");
        assert_eq!(m["best"], m["move"] == "g8");
    }
    // The table, from a move line played from the start position.
    let text = ok(&["analyse", "--position", "start", "f5", "--time", "0.2"]);
    assert!(text.contains("white to move"), "{text}");
    assert!(text.contains("best line: "), "{text}");
    fails_with_error(
        &["analyse", "--position", "nonsense"],
        "bad othello position \"nonsense\"",
    );
    fails_with_error(
        &["analyse", "--position", "start", "--agent", "random"],
        "the analyst of a position is an `othello` agent spec",
    );
    fails_with_error(
        &["analyse", "--position", "start", "--agent", "othello:foo=1"],
        "has no parameter \"foo\"",
    );
    fails_with_error(
        &["analyse", "--position", "start", "f5 a1"],
        "move line \"f5 a1\"",
    );
}
