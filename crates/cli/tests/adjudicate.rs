//! `--adjudicate exact=E` / `wld=E` end to end: tables, JSON, records, resuming, thread counts,
//! leagues, and bad values refused.

mod common;

use std::path::PathBuf;

use common::{fails, fails_with_error, ok};
use yomi_othello::ggf;

/// A fresh directory for one test's files.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("yomi-adjudicate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const BASE: [&str; 10] = [
    "match",
    "random",
    "greedy",
    "--game",
    "othello",
    "--rounds",
    "4",
    "--seed",
    "3",
    "--adjudicate",
];

#[test]
fn an_adjudicated_match_says_so_in_tables_json_and_records_at_any_thread_count() {
    let d = dir("match");
    let base = [&BASE[..], &["exact=14"]].concat();
    let table = ok(&[&base[..], &["--threads", "1"]].concat());
    assert_eq!(ok(&[&base[..], &["--threads", "2"]].concat()), table);
    let line = table
        .lines()
        .find(|l| l.starts_with("adjudicated (exact=14): "))
        .unwrap_or_else(|| panic!("{table}"));
    let count: usize = line["adjudicated (exact=14): ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(line.ends_with(" of 8 games"), "{line}");
    assert!(count > 0, "{table}");
    let json: serde_json::Value =
        serde_json::from_str(&ok(&[&base[..], &["--json"]].concat())).unwrap();
    assert_eq!(json["adjudication"]["rule"], "exact=14");
    assert_eq!(json["adjudication"]["games"], count);
    // Without the option, nothing is said.
    let plain = ok(&BASE[..9]);
    assert!(!plain.contains("adjudicated"), "{plain}");
    let plain: serde_json::Value =
        serde_json::from_str(&ok(&[&BASE[..9], &["--json"]].concat())).unwrap();
    assert!(plain.get("adjudication").is_none());

    // JSON lines: the header names the rule, and each adjudicated game carries its proof.
    let rec = d.join("games.jsonl");
    let r = rec.to_str().unwrap();
    assert_eq!(ok(&[&base[..], &["--record", r]].concat()), table);
    let text = std::fs::read_to_string(&rec).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["adjudicate"], "exact=14");
    let games: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(games.len(), 8);
    let judged: Vec<&serde_json::Value> = games
        .iter()
        .filter(|g| g.get("adjudication").is_some())
        .collect();
    assert_eq!(judged.len(), count);
    for g in judged {
        let adj = &g["adjudication"];
        assert_eq!(adj["rule"], "exact=14");
        assert_eq!(adj["result"], g["result"]);
        let margin = adj["margin"].as_i64().unwrap();
        let sign = match g["result"].as_str().unwrap() {
            "win" => 1,
            "loss" => -1,
            _ => 0,
        };
        assert_eq!(margin.signum(), sign, "{g}");
        let empties = adj["position"].as_str().unwrap().matches('-').count();
        assert!(empties <= 14, "{g}");
        // The moves end there: every disc placed from the start's 60 empties.
        let placed = g["moves"]
            .as_str()
            .unwrap()
            .split(' ')
            .filter(|m| *m != "PA")
            .count();
        assert_eq!(placed, 60 - empties, "{g}");
    }
    // A record cut short resumes to the same table; another rule is another run.
    let cut: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    std::fs::write(&rec, cut).unwrap();
    assert_eq!(ok(&[&base[..], &["--resume", r]].concat()), table);
    fails(
        &[&BASE[..], &["exact=13", "--resume", r]].concat(),
        "different run: its adjudicate is \"exact=14\"",
    );
    fails(
        &[&BASE[..9], &["--resume", r]].concat(),
        "its adjudicate is \"exact=14\", this run has none",
    );

    // GGF: the agreed score, the comment, yomi's YA tag; resumed after a cut.
    let ggf_path = d.join("games.ggf");
    let p = ggf_path.to_str().unwrap();
    assert_eq!(ok(&[&base[..], &["--record", p]].concat()), table);
    let text = std::fs::read_to_string(&ggf_path).unwrap();
    let records = ggf::parse_file(&text).unwrap();
    assert_eq!(records.len(), 8);
    let mut seen = 0;
    for g in &records {
        let line = g.to_string();
        if !line.contains("YA[") {
            continue;
        }
        seen += 1;
        let r = g.result.unwrap();
        assert_eq!(r.ending, Some(ggf::Ending::MutualScore), "{line}");
        assert!(line.contains("C[adjudicated by exact=14 at "), "{line}");
        assert!(g.position().empties().count() <= 14, "{line}");
    }
    assert_eq!(seen, count);
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&ggf_path, format!("{}\n{}", lines[0], &lines[1][..30])).unwrap();
    assert_eq!(ok(&[&base[..], &["--resume", p]].concat()), table);
}

#[test]
fn wld_adjudication_proves_the_results_only() {
    let exact = ok(&[&BASE[..], &["exact=12", "--json"]].concat());
    let wld = ok(&[&BASE[..], &["wld=12", "--json"]].concat());
    let (exact, wld): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&exact).unwrap(),
        serde_json::from_str(&wld).unwrap(),
    );
    assert_eq!(exact["total"], wld["total"]);
    assert_eq!(wld["adjudication"]["rule"], "wld=12");
    assert_eq!(exact["adjudication"]["games"], wld["adjudication"]["games"]);
    let d = dir("wld");
    let rec = d.join("games.jsonl");
    ok(&[&BASE[..], &["wld=12", "--record", rec.to_str().unwrap()]].concat());
    let text = std::fs::read_to_string(&rec).unwrap();
    assert!(
        text.contains(r#""adjudication":{"rule":"wld=12""#),
        "{text}"
    );
    assert!(!text.contains("margin"), "{text}");
}

#[test]
fn a_league_adjudicates_every_row() {
    let table = ok(&[
        "league",
        "--game",
        "othello",
        "--agents",
        "random,greedy",
        "--baseline",
        "random",
        "--rounds",
        "2",
        "--adjudicate",
        "exact=12",
    ]);
    assert!(table.contains("adjudicated (exact=12): random "), "{table}");
    assert!(table.contains("adjudicated (exact=12): greedy"), "{table}");
}

#[test]
fn bad_adjudication_values_are_refused() {
    for bad in [
        "exact=25",
        "exact=-1",
        "exact",
        "perfect=12",
        "wld=",
        "exact=1.5",
        "",
    ] {
        fails(&[&BASE[..], &[bad]].concat(), "expected exact=E or wld=E");
        fails(
            &[
                "league",
                "--game",
                "othello",
                "--rounds",
                "1",
                "--adjudicate",
                bad,
            ],
            "expected exact=E or wld=E",
        );
    }
    // Only Othello has a solver.
    fails_with_error(
        &[
            "match",
            "random",
            "random",
            "--game",
            "tictactoe",
            "--adjudicate",
            "exact=4",
        ],
        "--adjudicate solves Othello endgames: tictactoe has no solver",
    );
}
