//! End-to-end tests of the match harness: shards merged byte for byte, records resumed after
//! a kill, Ctrl-C, openings, SPRT and generated openings.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{fails, ok, stderr, yomi};
use yomi_core::{Game, Rng};
use yomi_othello::{MoveSequence, Othello};

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("yomi-harness-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `base` as N shards, writes each shard's JSON, and merges them with `merge_flags`.
fn shard_and_merge(d: &Path, base: &[&str], n: u64, merge_flags: &[&str]) -> String {
    let mut files = Vec::new();
    for k in (0..n).rev() {
        let shard = format!("{k}/{n}");
        let out = ok(&[base, &["--shard", &shard, "--threads", "1"]].concat());
        let file = d.join(format!("shard-{k}-of-{n}.json"));
        std::fs::write(&file, out).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(String::as_str));
    args.extend(merge_flags);
    ok(&args)
}

#[test]
fn match_shards_merge_to_the_same_bytes() {
    let d = dir("match");
    let base = [
        "match",
        "pmc2:pnum=20",
        "random",
        "--rounds",
        "301",
        "--seed",
        "4",
        "--game",
        "nim",
    ];
    let table = ok(&[&base[..], &["--threads", "2"]].concat());
    let json = ok(&[&base[..], &["--json"]].concat());
    for n in [1, 2, 3, 4] {
        assert_eq!(shard_and_merge(&d, &base, n, &[]), table, "{n} shards");
        assert_eq!(
            shard_and_merge(&d, &base, n, &["--json"]),
            json,
            "{n} shards"
        );
    }
    assert!(table.contains("Elo (pentanomial, 301 pairs)"), "{table}");
    // Refusals name the problem.
    let one = d.join("shard-1-of-4.json");
    let other = d.join("other.json");
    std::fs::write(
        &other,
        ok(&[
            &base[..5],
            &["--seed", "5", "--game", "nim", "--shard", "0/4"],
        ]
        .concat()),
    )
    .unwrap();
    fails(&["merge", s(&one), s(&other)], "seed is 5");
    fails(&["merge", s(&one), s(&one)], "given twice");
    fails(&["merge", s(&one)], "missing");
    fails(
        &[
            &base[..],
            &[
                "--shard",
                "0/2",
                "--sprt",
                "elo0=0,elo1=5,alpha=0.05,beta=0.05",
            ],
        ]
        .concat(),
        "cannot be used with",
    );
    fails(&[&base[..], &["--shard", "2/2"]].concat(), "K/N");
}

#[test]
fn league_shards_merge_to_the_same_bytes() {
    let d = dir("league");
    let base = [
        "league",
        "--agents",
        "first,pmc2:pnum=10,random",
        "--rounds",
        "150",
        "--seed",
        "9",
    ];
    for flags in [&[][..], &["--json"], &["--csv"]] {
        let whole = ok(&[&base[..], flags].concat());
        assert_eq!(shard_and_merge(&d, &base, 4, flags), whole, "{flags:?}");
    }
}

/// A move line of Othello of `plies` random moves from the start.
fn othello_line(seed: u64, plies: usize) -> String {
    let mut rng = Rng::for_stream(seed, 0);
    let mut pos = Othello::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len())];
        line.push(mv);
        pos = pos.play_unchecked(mv);
    }
    MoveSequence(line).to_string()
}

#[test]
fn openings_are_named_in_the_tables_and_bad_lines_are_errors() {
    let d = dir("openings");
    let file = d.join("set.txt");
    let lines: Vec<String> = (0..3).map(|i| othello_line(i, 4)).collect();
    std::fs::write(
        &file,
        format!(
            "# test set\n{}\t+0.5\n{}\n\n{}  # third\n",
            lines[0], lines[1], lines[2]
        ),
    )
    .unwrap();
    let base = [
        "match",
        "random",
        "random",
        "--game",
        "othello",
        "--rounds",
        "6",
        "--openings",
        s(&file),
    ];
    let table = ok(&base);
    assert!(
        table.contains(&format!(
            "openings: {} (3 openings, sequential order",
            s(&file)
        )),
        "{table}"
    );
    let shuffled = ok(&[&base[..], &["--openings-order", "random"]].concat());
    assert!(shuffled.contains("random order"), "{shuffled}");
    // The record shows each opening with both colours, in round order.
    let rec = d.join("games.jsonl");
    ok(&[&base[..], &["--record", s(&rec)]].concat());
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut games: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| g["index"].as_u64());
    assert_eq!(games.len(), 12);
    for g in &games {
        let i = g["index"].as_u64().unwrap();
        assert_eq!(g["opening"], lines[(i / 2 % 3) as usize].as_str());
        assert_eq!(g["a_first"], i % 2 == 0);
    }
    // Malformed and illegal lines name their line.
    for (content, needle) in [
        ("f5d6\nf5f5\n", "line 2"),
        ("f5d6\n\n# c\nz9\n", "line 4"),
        ("f5d6\tabc\n", "line 1"),
        ("# nothing\n", "no openings"),
    ] {
        std::fs::write(&file, content).unwrap();
        fails(&base, needle);
    }
    fails(
        &["match", "--openings", "/nonexistent/openings.txt"],
        "cannot read the openings",
    );
    // Positions are openings too.
    std::fs::write(&file, format!("{}\n", Othello::new())).unwrap();
    assert!(ok(&base).contains("1 openings"));
}

/// A match with an SPRT that decides after a few hundred games.
const RESUMED: [&str; 9] = [
    "match",
    "pmc2:pnum=300",
    "pmc2:pnum=200",
    "--rounds",
    "1500",
    "--seed",
    "21",
    "--sprt",
    "elo0=-5,elo1=5,alpha=0.05,beta=0.05",
];

/// A match of a few seconds, to kill in the middle.
const KILLED: [&str; 7] = [
    "match",
    "pmc2:pnum=1500",
    "pmc2:pnum=1000",
    "--rounds",
    "2000",
    "--seed",
    "22",
];

#[test]
fn a_record_cut_anywhere_resumes_to_the_uninterrupted_table() {
    let d = dir("resume");
    let whole = ok(&RESUMED);
    let rec = d.join("full.jsonl");
    assert_eq!(ok(&[&RESUMED[..], &["--record", s(&rec)]].concat()), whole);
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut rng = Rng::seed_from_u64(8);
    for _ in 0..4 {
        // Cut at a random byte after the header: a partial last line, as a kill leaves.
        let header = text.find('\n').unwrap() + 1;
        let cut = header + rng.below(text.len() - header);
        let part = d.join("part.jsonl");
        std::fs::write(&part, &text[..cut]).unwrap();
        let resumed = ok(&[&RESUMED[..], &["--resume", s(&part)]].concat());
        assert_eq!(resumed, whole, "cut at byte {cut}");
        // The resumed record holds every game once more, whole lines only.
        let again = std::fs::read_to_string(&part).unwrap();
        assert!(again.ends_with('\n'));
        for line in again.lines() {
            serde_json::from_str::<serde_json::Value>(line).unwrap();
        }
    }
    // A record of another run is refused, naming what differs.
    fails(
        &[
            &RESUMED[..3],
            &["--rounds", "1500", "--seed", "22", "--resume", s(&rec)],
        ]
        .concat(),
        "seed",
    );
}

/// Sends `signal` to a running `yomi` after `after`, and returns its output.
fn interrupt(args: &[&str], signal: &str, after: Duration) -> std::process::Output {
    let child = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(after);
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

#[test]
fn killed_at_a_random_game_then_resumed_gives_the_uninterrupted_table() {
    let d = dir("kill");
    let whole = ok(&KILLED);
    assert!(
        whole.contains("(tictactoe, 2000 rounds, seed 22)\n"),
        "{whole}"
    );
    let rec = d.join("killed.jsonl");
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    // Killed once the record holds a random number of games (of the 4,000): watching the
    // record rather than the clock, so a fast machine cannot finish the match first.
    let target = 2 + Rng::seed_from_u64(seed).below(3000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args([&KILLED[..], &["--record", s(&rec), "--threads", "2"]].concat())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = || {
        std::fs::read_to_string(&rec)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    while lines() < target && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(2));
    }
    let status = Command::new("kill")
        .args(["-KILL", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let recorded = lines();
    eprintln!("killed at {target} lines with {recorded} lines recorded");
    assert!(
        status.success() && !out.status.success(),
        "the match ended before the kill ({recorded} lines): make it longer"
    );
    let resumed = ok(&[&KILLED[..], &["--resume", s(&rec)]].concat());
    assert_eq!(resumed, whole, "killed at {recorded} lines");
}

#[test]
fn ctrl_c_and_sigterm_print_the_games_finished_so_far() {
    let d = dir("sigint");
    for signal in ["-INT", "-TERM"] {
        let rec = d.join("int.jsonl");
        let out = interrupt(
            &[
                "match",
                "pmc2:pnum=2000",
                "random",
                "--rounds",
                "100000",
                "--record",
                s(&rec),
            ],
            signal,
            Duration::from_millis(700),
        );
        let err = stderr(&out);
        // The table is printed, and the status says the run is not whole.
        assert_eq!(out.status.code(), Some(1), "{signal}: {err}");
        assert!(err.contains("--resume"), "{err}");
        let table = String::from_utf8(out.stdout).unwrap();
        assert!(table.contains(", interrupted)"), "{table}");
        assert!(err.contains("interrupted"), "{err}");
        // The table counts exactly the recorded games.
        let recorded = std::fs::read_to_string(&rec).unwrap().lines().count() - 1;
        let total: usize = table
            .lines()
            .find(|l| l.starts_with("total"))
            .unwrap()
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse::<usize>().unwrap())
            .sum();
        assert_eq!(total, recorded, "{table}");
        assert!(total > 0 && total < 200_000);
    }
}

#[test]
fn sprt_stops_at_the_same_game_at_any_thread_count() {
    let base = [
        "match",
        "perfect",
        "random",
        "--rounds",
        "100000",
        "--sprt",
        "elo0=0,elo1=10,alpha=0.05,beta=0.05",
    ];
    let one = ok(&[&base[..], &["--threads", "1"]].concat());
    let two = ok(&[&base[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    assert!(one.contains("H1 accepted after"), "{one}");
    fails(
        &["match", "--sprt", "elo0=5,elo1=0,alpha=0.05,beta=0.05"],
        "elo0 must be below elo1",
    );
}

#[test]
fn generated_openings_are_balanced_distinct_and_thread_independent() {
    let args = [
        "openings",
        "generate",
        "--game",
        "othello",
        "--plies",
        "6",
        "--count",
        "12",
        "--max-value",
        "1.5",
        "--depth",
        "3",
        "--seed",
        "5",
    ];
    let one = ok(&[&args[..], &["--threads", "1"]].concat());
    let two = ok(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one, two);
    let mut seen = HashSet::new();
    let lines: Vec<&str> = one.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 12);
    for line in lines {
        let (moves, value) = line.split_once('\t').unwrap();
        let v: f64 = value.parse().unwrap();
        assert!(v.abs() <= 1.5, "{line}");
        let seq: MoveSequence = moves.parse().unwrap();
        assert_eq!(seq.0.len(), 6);
        let pos = seq.play_from(&Othello::new()).unwrap();
        assert!(
            seen.insert(pos.canonical()),
            "{line} repeats a position up to symmetry"
        );
    }
    // The file is an openings file.
    let d = dir("generated");
    let file = d.join("gen.txt");
    std::fs::write(&file, &one).unwrap();
    let table = ok(&[
        "match",
        "random",
        "random",
        "--game",
        "othello",
        "--rounds",
        "12",
        "--openings",
        s(&file),
    ]);
    assert!(table.contains("12 openings"), "{table}");
    fails(
        &["openings", "generate", "--game", "nim"],
        "only --game othello",
    );
    let out = yomi(&["openings", "generate", "--max-value", "-1"]);
    assert!(!out.status.success());
}

#[test]
fn the_shipped_othello_openings_are_the_generators_output() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/openings/othello-8ply.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 1000);
    let mut seen = HashSet::new();
    for line in &lines {
        let (moves, value) = line.split_once('\t').unwrap();
        assert!(value.parse::<f64>().unwrap().abs() <= 2.0, "{line}");
        let pos = moves
            .parse::<MoveSequence>()
            .unwrap()
            .play_from(&Othello::new())
            .unwrap();
        assert!(
            seen.insert(pos.canonical()),
            "{line} repeats up to symmetry"
        );
    }
    // The command in the header makes the same lines: its first three, regenerated.
    let made_by = text
        .lines()
        .find_map(|l| l.strip_prefix("# made by: yomi "))
        .unwrap();
    let mut args: Vec<&str> = made_by.split_whitespace().collect();
    let count = args.iter().position(|&a| a == "--count").unwrap();
    args[count + 1] = "3";
    let again = ok(&args);
    let first: Vec<&str> = again.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(first, lines[..3]);
}

/// A table without its times: every line less its last two fields (time and nodes/s).
fn without_times(table: &str) -> Vec<String> {
    table
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.first()
                .is_some_and(|x| *x == "all" || x.parse::<u32>().is_ok())
            {
                f[..f.len() - 2].join(" ")
            } else {
                l.to_string()
            }
        })
        .collect()
}

/// A bench's JSON without its times.
fn json_without_times(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let strip = |o: &mut serde_json::Value| {
        let o = o.as_object_mut().unwrap();
        o.remove("seconds");
        o.remove("nodes_per_second");
    };
    strip(&mut v);
    for row in v["positions"].as_array_mut().unwrap() {
        strip(row);
    }
    v
}

#[test]
fn bench_ffo_shards_merge_to_the_whole_table_but_times() {
    let d = dir("bench");
    // One thread: the node counts are the same in shards and in the whole run.
    let base = ["bench", "ffo", "--from", "1", "--to", "7", "--threads", "1"];
    let whole = ok(&base);
    let mut files = Vec::new();
    for k in [2, 0, 1] {
        let out = ok(&[&base[..], &["--shard", &format!("{k}/3")]].concat());
        let f = d.join(format!("bench-{k}.json"));
        std::fs::write(&f, out).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let merged = ok(&["merge", &files[0], &files[1], &files[2]]);
    assert_eq!(without_times(&merged), without_times(&whole), "{merged}");
    assert_eq!(merged.lines().count(), 2 + 7 + 1);
    let whole_json = ok(&[&base[..], &["--json"]].concat());
    let merged_json = ok(&["merge", &files[0], &files[1], &files[2], "--json"]);
    assert_eq!(
        json_without_times(&merged_json),
        json_without_times(&whole_json)
    );
    // Missing, duplicated, other runs and other kinds of shards are refused.
    fails(&["merge", &files[0], &files[1]], "shards missing: 1/3");
    fails(&["merge", &files[0], &files[1], &files[1]], "given twice");
    let other = d.join("other.json");
    let out = ok(&[
        "bench",
        "ffo",
        "--from",
        "1",
        "--to",
        "6",
        "--threads",
        "1",
        "--shard",
        "1/3",
    ]);
    std::fs::write(&other, out).unwrap();
    fails(
        &["merge", &files[0], &files[1], other.to_str().unwrap()],
        "different run: its range is #1-#6",
    );
    let wld = d.join("wld.json");
    let out = ok(&[
        "bench",
        "ffo",
        "--from",
        "1",
        "--to",
        "7",
        "--threads",
        "1",
        "--wld",
        "--shard",
        "1/3",
    ]);
    std::fs::write(&wld, out).unwrap();
    fails(
        &["merge", &files[0], &files[1], wld.to_str().unwrap()],
        "different run: its settings",
    );
    let m = d.join("match.json");
    let out = ok(&[
        "match", "random", "random", "--rounds", "3", "--shard", "1/3",
    ]);
    std::fs::write(&m, out).unwrap();
    fails(
        &["merge", &files[0], m.to_str().unwrap()],
        "the others are bench shards",
    );
}

#[test]
fn the_shipped_midgame_positions_are_the_generators_output() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let text = std::fs::read_to_string(format!("{root}/data/midgame/othello-200.txt")).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 200);
    let mut seen = HashSet::new();
    let mut per_empties = [0u32; 65];
    for line in &lines {
        let (board, opening) = line.split_once(" # ").unwrap();
        let pos: Othello = board.parse().unwrap();
        let e = pos.empties().count() as usize;
        assert!((30..=44).contains(&e), "{line}");
        per_empties[e] += 1;
        assert!(
            seen.insert(pos.canonical()),
            "{line} repeats up to symmetry"
        );
        // The opening it came from is a line of the openings file.
        let seq: MoveSequence = opening.parse().unwrap();
        assert_eq!(seq.0.len(), 8, "{line}");
        assert!(!pos.is_over());
    }
    assert!(
        per_empties[30..=44].iter().all(|&n| n == 13 || n == 14),
        "{per_empties:?}"
    );
    // The command in the header makes the same positions: its first three, regenerated.
    let made_by = text
        .lines()
        .find_map(|l| l.strip_prefix("# made by: yomi "))
        .unwrap();
    let mut args: Vec<String> = made_by.split_whitespace().map(String::from).collect();
    let count = args.iter().position(|a| a == "--count").unwrap();
    args[count + 1] = "3".into();
    let file = args.iter().position(|a| a == "--openings").unwrap();
    args[file + 1] = format!("{root}/{}", args[file + 1]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let again = ok(&args);
    let first: Vec<&str> = again.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(first, lines[..3]);
    // The file is an openings file: a match plays its positions.
    let table = ok(&[
        "match",
        "random",
        "random",
        "--game",
        "othello",
        "--rounds",
        "3",
        "--openings",
        &format!("{root}/data/midgame/othello-200.txt"),
    ]);
    assert!(table.contains("200 openings"), "{table}");
    fails(
        &[
            "openings",
            "positions",
            "--openings",
            &format!("{root}/data/openings/othello-8ply.txt"),
            "--min-empties",
            "40",
            "--max-empties",
            "30",
        ],
        "more than --max-empties",
    );
}

#[test]
fn bench_midgame_reports_each_depth_of_the_set() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let file = format!("{root}/data/midgame/othello-200.txt");
    let json = ok(&[
        "bench",
        "midgame",
        "--positions",
        &file,
        "--depth",
        "5",
        "--from",
        "2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["count"], 200);
    assert_eq!(v["probcut"], "1.5");
    assert_eq!(v["table_entries"], 524_288, "16 MiB of 32-byte entries");
    let rows = v["rows"].as_array().unwrap();
    let depths: Vec<u64> = rows.iter().map(|r| r["depth"].as_u64().unwrap()).collect();
    assert_eq!(depths, [2, 3, 4, 5]);
    let n = |r: &serde_json::Value, key: &str| r[key].as_u64().unwrap();
    for r in rows {
        assert!(n(r, "first_move_cuts") <= n(r, "beta_cuts"), "{r}");
        assert!(n(r, "table_hits") <= n(r, "table_probes"), "{r}");
        assert!(n(r, "probcut_cuts") <= n(r, "probcut_tests"), "{r}");
        assert!(n(r, "evaluations") < n(r, "nodes"), "{r}");
    }
    // ProbCut tests nodes of depth 3 or more: at depth 5 they hold some of the nodes.
    let probcut = n(&rows[3], "probcut_nodes");
    assert!(probcut > 0 && probcut < n(&rows[3], "nodes"), "{probcut}");
    let nodes: Vec<u64> = rows.iter().map(|r| r["nodes"].as_u64().unwrap()).collect();
    assert!(nodes.windows(2).all(|w| w[1] > w[0]), "{nodes:?}");
    // Node counts do not depend on the run: the table says the same.
    let table = ok(&[
        "bench",
        "midgame",
        "--positions",
        &file,
        "--depth",
        "5",
        "--from",
        "2",
    ]);
    assert!(
        table.starts_with("midgame search: 200 positions"),
        "{table}"
    );
    assert!(
        table.contains("where the nodes go (table of 524288 entries"),
        "{table}"
    );
    for n in &nodes {
        assert!(table.contains(&format!(" {n} ")), "{n}: {table}");
    }
    // The hand-made evaluation runs without ProbCut.
    let hand = ok(&[
        "bench",
        "midgame",
        "--positions",
        &file,
        "--depth",
        "2",
        "--eval",
        "hand",
        "--json",
    ]);
    assert!(hand.contains("\"probcut\":\"off\""), "{hand}");
    fails(
        &[
            "bench",
            "midgame",
            "--positions",
            &file,
            "--depth",
            "3",
            "--from",
            "5",
        ],
        "deeper than --depth",
    );
    fails(
        &["bench", "midgame", "--positions", &file, "--probcut", "x"],
        "--probcut takes",
    );
    fails(
        &[
            "bench",
            "midgame",
            "--positions",
            "/nonexistent/positions.txt",
        ],
        "cannot read the positions",
    );
}
