//! End-to-end tests of `yomi solve` and `yomi bench ffo`.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{fails, fails_with_error, ok, stdout, yomi};

/// FFO #1: black to move wins by 18 with g8.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

#[test]
fn solve_prints_score_move_and_line() {
    let text = ok(&["solve", FFO1]);
    assert!(text.contains("empties  14\n"), "{text}");
    assert!(text.contains("score    +18 (exact)\n"), "{text}");
    assert!(text.contains("best     g8\n"), "{text}");
    assert!(text.contains("pv       g8 "), "{text}");
    for key in ["nodes    ", "time     ", "speed    "] {
        assert!(text.contains(key), "{text}");
    }
    let text = ok(&["solve", FFO1, "--wld", "--threads", "2", "--hash-mb", "8"]);
    assert!(text.contains("score    win (wld)\n"), "{text}");
    // A finished game.
    let full = format!("{}{} O", "X".repeat(40), "O".repeat(24));
    let text = ok(&["solve", &full]);
    assert!(text.contains("score    -16 (exact)\n"), "{text}");
    assert!(text.contains("best     - (the game is over)\n"), "{text}");
}

#[test]
fn bench_ffo_checks_every_score() {
    let text = ok(&["bench", "ffo", "--from", "1", "--to", "5", "--threads", "1"]);
    assert!(
        text.starts_with("FFO #1-#5, exact, 1 thread, 64 MiB table, "),
        "{text}"
    );
    // Header, five rows, total.
    assert_eq!(text.lines().count(), 8, "{text}");
    assert!(!text.contains("WRONG"), "{text}");
    let row = text.lines().nth(2).unwrap();
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cols[..5], ["1", "14", "+18", "+18", "g8"], "{row}");
    let text = ok(&[
        "bench",
        "ffo",
        "--from",
        "20",
        "--to",
        "20",
        "--wld",
        "--threads",
        "2",
    ]);
    assert!(text.contains("wld, 2 threads"), "{text}");
}

#[test]
fn a_wrong_listed_score_is_an_error() {
    let dir = std::env::temp_dir().join(format!("yomi-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.obf");
    let bad = dir.join("bad.obf");
    std::fs::write(&good, format!("{FFO1}; G8:+18;\n{FFO1};\n")).unwrap();
    std::fs::write(&bad, format!("{FFO1}; G8:+16;\n")).unwrap();
    let text = ok(&["solve", "--obf", good.to_str().unwrap()]);
    assert!(text.contains("2 positions"), "{text}");
    let out = yomi(&["solve", "--obf", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("WRONG"), "{}", stdout(&out));
    fails_with_error(
        &["solve", "--obf", bad.to_str().unwrap()],
        "wrong scores: #1: solved +18, published +16",
    );
    std::fs::write(&bad, "not a position;\n").unwrap();
    fails_with_error(&["solve", "--obf", bad.to_str().unwrap()], "line 1");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_solver_input_is_an_error() {
    fails_with_error(&["solve", "xx X"], "bad position");
    fails_with_error(&["solve", FFO1, "--hash-mb", "0"], "hash size 0");
    fails_with_error(&["solve", FFO1, "--threads", "0"], "thread count 0");
    fails_with_error(&["solve", "--obf", "/nonexistent/ffo.obf"], "cannot read");
    fails_with_error(&["bench", "ffo", "--from", "0"], "not a range");
    fails_with_error(
        &["bench", "ffo", "--from", "50", "--to", "49"],
        "not a range",
    );
    fails_with_error(&["bench", "ffo", "--to", "80"], "not a range");
    for bad in ["0", "-1", "abc"] {
        fails(&["solve", FFO1, "--time", bad], "invalid time limit");
        fails(&["bench", "ffo", "--nodes", bad], "invalid node limit");
    }
    fails_with_error(
        &["solve", FFO1, "--without", "magic"],
        "unknown solver technique `magic`",
    );
    fails(&["solve"], "required");
    fails(&["bench"], "usage");
}

/// The README's `yomi solve` example: every line it shows (but the `...`) is in the real output.
#[test]
fn readme_solve_example_is_real() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md at the workspace root");
    let start = readme
        .find(&format!("$ yomi solve \"{FFO1}\"\n"))
        .expect("the README shows yomi solve on FFO #1");
    let block = &readme[start..];
    let block = &block[..block.find("```").expect("closing fence")];
    let text = ok(&["solve", FFO1]);
    let real: Vec<&str> = text.lines().collect();
    let shown: Vec<&str> = block.lines().skip(1).filter(|l| *l != "...").collect();
    assert!(shown.len() >= 4, "{block}");
    for line in shown {
        assert!(real.contains(&line), "README line {line:?} not in:\n{text}");
    }
}

#[test]
fn json_output_parses() {
    let text = ok(&["solve", FFO1, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["score"], 18);
    assert_eq!(v["best"], "g8");
    assert_eq!(v["empties"], 14);
    assert_eq!(v["mode"], "exact");
    assert_eq!(v["pv"][0], "g8");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let text = ok(&[
        "bench", "ffo", "--from", "1", "--to", "3", "--wld", "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let rows = v["positions"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["number"], i + 1);
        assert_eq!(row["score"], row["published"]);
        assert_eq!(row["mode"], "wld");
    }
    let total: u64 = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["nodes"], total);
}

/// FFO #49 (26 empties): minutes on one thread, far more than the limits below.
const FFO49: &str = "--OX-O----XXOO--OOOOOXX-OOOOOX--OOOXOXX-OOOOXX-----OOX----X-O--- X";

#[test]
fn limits_report_bounds_and_exit_3() {
    let out = yomi(&["solve", FFO49, "--nodes", "200000", "--threads", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("stopped  node limit"), "{text}");
    assert!(text.contains("score    between "), "{text}");
    assert!(text.contains("found    "), "{text}");
    let out = yomi(&["solve", FFO49, "--time", "0.3", "--threads", "2", "--json"]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["stopped"], "time");
    assert_eq!(v["solved"], false);
    // The published score, +16, lies within the bounds.
    assert!(v["lower"].as_i64().unwrap() <= 16 && 16 <= v["upper"].as_i64().unwrap());
    // bench: one position stopped and none wrong: exit 3, the row shows the bounds.
    let out = yomi(&[
        "bench",
        "ffo",
        "--from",
        "48",
        "--to",
        "49",
        "--nodes",
        "100000",
        "--threads",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(3), "{}", stdout(&out));
    let text = stdout(&out);
    assert!(text.contains("node limit"), "{text}");
    assert!(
        text.contains(" [-64,+64] ") || text.contains(" [+"),
        "{text}"
    );
}

/// Ctrl-C (SIGINT) during a long solve prints the partial report and exits 130.
#[cfg(unix)]
#[test]
fn an_interrupted_solve_reports_what_it_proved() {
    let child = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(["solve", FFO49, "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(130), "{text}");
    assert!(text.contains("stopped  interrupted"), "{text}");
    assert!(text.contains("score    between "), "{text}");
}

/// `YOMI_PORTABLE=1` runs the portable copy of the search: the bench says so, and every row's
/// score, move and node count equal the default run's (the copies search the same tree).
#[test]
fn the_portable_search_is_forced_by_the_environment_and_searches_the_same_tree() {
    let args = ["bench", "ffo", "--from", "1", "--to", "8", "--threads", "1"];
    let run = |portable: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_yomi"))
            .args(args)
            .env("YOMI_PORTABLE", portable)
            .output()
            .expect("the yomi binary runs");
        assert!(out.status.success(), "{out:?}");
        stdout(&out)
    };
    let (auto, portable) = (run("0"), run("1"));
    let header = |text: &str| text.lines().next().unwrap_or_default().to_string();
    assert!(
        header(&portable).ends_with(", portable search"),
        "{portable}"
    );
    assert!(header(&auto).ends_with(" search"), "{auto}");
    // Everything but the times: position, empties, scores, move, nodes.
    let rows = |text: &str| -> Vec<String> {
        text.lines()
            .skip(2)
            .map(|l| {
                // A row: # empties score want move nodes; the total: all nodes.
                let n = if l.trim_start().starts_with("all") {
                    2
                } else {
                    6
                };
                l.split_whitespace().take(n).collect::<Vec<_>>().join(" ")
            })
            .collect()
    };
    assert_eq!(rows(&auto).len(), 9, "{auto}");
    assert_eq!(rows(&auto), rows(&portable));
}
