//! End-to-end tests of the `yomi` binary: outputs, determinism and every kind of bad input.

mod common;

use common::{fails, stderr, stdout, yomi};

#[test]
fn random_match_is_identical_at_any_thread_count() {
    let base = [
        "match", "random", "random", "--rounds", "10000", "--seed", "1",
    ];
    let one = yomi(&[&base[..], &["--threads", "1"]].concat());
    let two = yomi(&[&base[..], &["--threads", "2"]].concat());
    assert!(one.status.success(), "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout);
    let text = stdout(&one);
    assert!(text.starts_with("random VS random   (tictactoe, 10000 rounds, seed 1)\n"));
    // Row "o" (A moved first): the first player wins about 737/1260 = 58.49% of the games.
    let o_ratio = text
        .lines()
        .skip_while(|l| !l.starts_with("ratio"))
        .nth(1)
        .unwrap();
    let win: f64 = o_ratio
        .split_whitespace()
        .nth(1)
        .unwrap()
        .trim_end_matches('%')
        .parse()
        .unwrap();
    assert!((win - 58.49).abs() < 1.5, "{o_ratio}");
    for header in ["count", "ratio", "95%", "total"] {
        assert!(text.lines().any(|l| l.starts_with(header)), "{text}");
    }
}

#[test]
fn json_output_parses() {
    let out = yomi(&[
        "match", "first", "random", "--rounds", "50", "--json", "--game", "nim",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["game"], "nim");
    assert_eq!(v["rounds"], 50);
    assert_eq!(
        v["total"]["win"].as_u64().unwrap() + v["total"]["lose"].as_u64().unwrap(),
        100
    );
    assert!(
        v["ratios"][2]["win"]["low"].as_f64().unwrap()
            <= v["ratios"][2]["win"]["value"].as_f64().unwrap()
    );
}

#[test]
fn perft_show_and_agents() {
    let out = yomi(&["perft", "9"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("nodes at depth 9    127872"), "{text}");
    assert!(text.contains("leaves (perft)       255168"), "{text}");

    let out = yomi(&["show", "x...o...o"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("x..\n.o.\n..o\nTurn x\n"), "{text}");
    assert!(text.contains("legal moves (6)"), "{text}");

    let out = yomi(&["show", "--moves", "(1,1) (0,0) (2,2)"]);
    assert!(
        stdout(&out).starts_with("x..\n.o.\n..o\n"),
        "{}",
        stderr(&out)
    );

    let out = yomi(&["show", "--game", "nim", "4:second", "--moves", "3 1"]);
    assert!(stdout(&out).contains("0 stones"), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("first player wins"),
        "{}",
        stdout(&out)
    );

    let out = yomi(&["agents"]);
    assert!(stdout(&out).contains("random"));
}

#[test]
fn bad_input_gives_one_clear_error() {
    fails(
        &["match", "random", "random", "--game", "chess"],
        "invalid value 'chess'",
    );
    fails(&["match", "rnadom", "random"], "unknown agent \"rnadom\"");
    fails(
        &["match", "random:depth=3", "random"],
        "has no parameter \"depth\"",
    );
    fails(&["match", "random", "b:x=(1"], "unbalanced brackets");
    fails(&["match", "--rounds", "0"], "--rounds");
    fails(&["match", "--rounds", "-5"], "--rounds");
    fails(&["match", "--rounds", "99999999999999"], "--rounds");
    fails(&["match", "--threads", "0"], "--threads");
    fails(&["match", "--start", "ooo......"], "bad tictactoe position");
    fails(&["match", "--start", "oooxx...."], "already finished");
    fails(&["show", "oo"], "bad tictactoe position");
    fails(
        &["show", "x...o...o", "--moves", "(1,1)"],
        "illegal move (1,1)",
    );
    fails(&["show", "--moves", "(5,1)"], "bad move");
    fails(&["show", "--game", "nim", "4:third"], "bad nim position");
    fails(&["perft", "-1"], "depth");
    fails(&["perft", "100"], "depth");
    fails(&["frobnicate"], "unrecognized subcommand");
}

#[test]
fn the_readme_shows_the_real_output() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the workspace root");
    let command = "$ yomi match random random --rounds 10000 --seed 1\n";
    let start = readme
        .find(command)
        .expect("the README shows the default match")
        + command.len();
    let shown = &readme[start..start + readme[start..].find("```").unwrap()];
    let out = yomi(&[
        "match", "random", "random", "--rounds", "10000", "--seed", "1",
    ]);
    assert_eq!(stdout(&out), shown);
}

/// The block of README.md that follows `command`, up to the closing fence.
fn readme_block(command: &str) -> String {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the workspace root");
    let start = readme
        .find(command)
        .unwrap_or_else(|| panic!("the README shows {command:?}"))
        + command.len();
    readme[start..start + readme[start..].find("```").unwrap()].to_string()
}

/// The README's main job is the bare `yomi`: the default league, whose first table the README
/// shows.
#[test]
fn the_readme_shows_the_real_league_and_the_bare_tool_runs_it() {
    let shown = readme_block("$ yomi league\n");
    assert!(shown.lines().count() > 30, "{shown}");
    let out = yomi(&[]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.starts_with(&shown), "README:\n{shown}\nreal:\n{text}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("default league"));
}

#[test]
fn the_readme_shows_the_real_othello_perft_counts() {
    let shown = readme_block("$ yomi perft --game othello 11\n");
    let out = yomi(&["perft", "--game", "othello", "11"]);
    let text = stdout(&out);
    // The first two lines are the position and the count; the time line varies.
    let counts = |t: &str| t.lines().take(2).collect::<Vec<_>>().join("\n");
    assert_eq!(counts(&text), counts(&shown));
    assert!(text.contains(" leaves/s"));
}

#[test]
fn a_closed_standard_output_ends_the_tool_quietly() {
    // `yomi perft ... | head -0`: the reader is gone before the tool prints its first line.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(["perft", "--game", "othello", "6"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the yomi binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("it ends");
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    // 141 (128 + SIGPIPE) when it wrote into the closed pipe, 0 in the unlikely case that it
    // had printed everything before the pipe closed.
    assert!(
        matches!(out.status.code(), Some(141) | Some(0)),
        "{:?}: {err}",
        out.status
    );
}

#[test]
fn the_cli_offers_the_known_games() {
    // `--game` takes exactly the one list of games (yomi_agents::known_games), in its order.
    let names = yomi_agents::known_game_names();
    fails(
        &["agents", "--game", "chess"],
        &format!("[possible values: {names}]"),
    );
    for game in yomi_agents::known_games() {
        let out = yomi(&["agents", "--game", game.name()]);
        assert!(out.status.success(), "{game}: {}", stderr(&out));
    }
}
