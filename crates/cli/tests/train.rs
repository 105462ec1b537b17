//! End-to-end tests of `yomi train`: shards that merge into the single run, a fit, an error
//! report, and bad input.

use std::path::PathBuf;
mod common;

use common::{fails, fails_with_error, ok};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("yomi-cli-train-{}-{name}", std::process::id()))
}

#[test]
fn shards_merge_into_the_single_run_and_fit_and_test_read_them() {
    let path = |n: &str| temp(n).to_str().unwrap().to_string();
    let common = [
        "train",
        "games",
        "--games",
        "4",
        "--seed",
        "3",
        "--exact",
        "10",
        "--depth",
        "2",
        "--random-min",
        "24",
        "--random-max",
        "28",
    ];
    let run = |extra: &[&str]| {
        let mut args: Vec<&str> = common.to_vec();
        args.extend_from_slice(extra);
        ok(&args)
    };
    let (all, s0, s1, merged, weights) = (
        path("all.games"),
        path("s0.games"),
        path("s1.games"),
        path("merged.games"),
        path("w.weights"),
    );
    assert!(run(&["--threads", "1", "--out", &all]).contains("4 games (shard 0/1)"));
    assert!(
        run(&["--shard", "0/2", "--threads", "1", "--out", &s0]).contains("2 games (shard 0/2)")
    );
    run(&["--shard", "1/2", "--threads", "2", "--out", &s1]);
    assert!(ok(&["train", "merge", &s1, &s0, "--out", &merged]).contains("4 games of 4"));
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&all).unwrap(),
        "the merged shards are the single run, byte for byte"
    );
    fails_with_error(&["train", "merge", &s0, &s0, "--out", &merged], "two files");
    let text = ok(&[
        "train",
        "fit",
        &all,
        "--phases",
        "2",
        "--epochs",
        "20",
        "--holdout",
        "2",
        "--out",
        &weights,
    ]);
    assert!(text.contains("phase  discs"), "{text}");
    let report = ok(&[
        "train",
        "test",
        &all,
        "--weights",
        &weights,
        "--empties",
        "10",
    ]);
    assert!(
        report.contains("learned  4 positions at 10 empties"),
        "{report}"
    );
    assert!(
        report.contains("hand     4 positions at 10 empties"),
        "{report}"
    );
    // By phase on the held-out games (2 of the 4 with --holdout 2): one row per phase.
    let phased = ok(&[
        "train",
        "test",
        &all,
        "--weights",
        &weights,
        "--by-phase",
        "--phases",
        "3",
        "--holdout",
        "2",
    ]);
    assert!(phased.starts_with("phase  discs  positions"), "{phased}");
    assert_eq!(phased.lines().count(), 4, "{phased}");
    let positions: usize = phased
        .lines()
        .skip(1)
        .map(|l| {
            l.split_whitespace()
                .nth(2)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert!(positions > 0, "{phased}");
    fails_with_error(
        &["train", "test", &all, "--empties", "12"],
        "no exactly solved positions",
    );
    // Multi-ProbCut's statistics: one row per depth from 3, and the Rust table, the same at
    // any thread count.
    let probcut = |threads: &str| {
        ok(&[
            "train",
            "probcut",
            &all,
            "--max-depth",
            "5",
            "--min-empties",
            "10",
            "--max-empties",
            "40",
            "--every",
            "1",
            "--threads",
            threads,
        ])
    };
    let table = probcut("1");
    assert!(table.contains("depth  shallow  positions"), "{table}");
    for row in [
        "ProbCutPair { depth: 3, shallow: 1,",
        "ProbCutPair { depth: 5, shallow: 1,",
    ] {
        assert!(table.contains(row), "{table}");
    }
    let rows = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.contains("ProbCutPair"))
            .map(String::from)
            .collect()
    };
    assert_eq!(rows(&table).len(), 3, "{table}");
    assert_eq!(rows(&table), rows(&probcut("2")));
    fails_with_error(
        &[
            "train",
            "probcut",
            &all,
            "--min-empties",
            "41",
            "--max-empties",
            "40",
        ],
        "--min-empties",
    );
    // Test sets: the position of each game at 10 empties, solved; shards merge into the
    // single run; `train test` reads the file.
    let (labels, l0, l1, lmerged) = (
        path("all.labels"),
        path("l0.labels"),
        path("l1.labels"),
        path("merged.labels"),
    );
    let label = |extra: &[&str]| {
        let mut args = vec!["train", "label", all.as_str(), "--empties", "10"];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let said = label(&["--threads", "2", "--out", &labels]);
    assert!(
        said.contains("4 positions at 10 empties from 4 games (shard 0/1)"),
        "{said}"
    );
    assert!(said.contains("s per solve"), "{said}");
    label(&["--shard", "0/2", "--threads", "1", "--out", &l0]);
    label(&["--shard", "1/2", "--hash", "8", "--out", &l1]);
    assert!(
        ok(&["train", "merge", &l1, &l0, "--out", &lmerged]).contains("4 positions at 10 empties")
    );
    assert_eq!(
        std::fs::read(&lmerged).unwrap(),
        std::fs::read(&labels).unwrap(),
        "the merged shards are the single run, byte for byte"
    );
    fails_with_error(
        &["train", "merge", &l0, &l0, "--out", &lmerged],
        "two files",
    );
    fails_with_error(
        &["train", "merge", &l0, &all, "--out", &lmerged],
        "labelled position file",
    );
    // The games were played perfectly from 10 empties, so both reports agree.
    let from_games = ok(&[
        "train",
        "test",
        &all,
        "--weights",
        &weights,
        "--empties",
        "10",
    ]);
    let from_labels = ok(&["train", "test", &labels, "--weights", &weights]);
    let mae = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplit("error ").next().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        mae(&from_games),
        mae(&from_labels),
        "{from_games}\n{from_labels}"
    );
    assert!(
        from_labels.contains("learned  4 labelled positions at 10 empties"),
        "{from_labels}"
    );
    fails_with_error(
        &["train", "label", &all, "--empties", "31", "--out", &lmerged],
        "above the most",
    );
    fails_with_error(
        &[
            "train",
            "label",
            &all,
            "--empties",
            "10",
            "--hash",
            "0",
            "--out",
            &lmerged,
        ],
        "hash size",
    );
    fails_with_error(
        &[
            "train",
            "label",
            &labels,
            "--empties",
            "10",
            "--out",
            &lmerged,
        ],
        "game file",
    );
    // A game file is not a weight file, and the other way round.
    fails_with_error(&["train", "test", &all, "--weights", &all], "weight file");
    fails_with_error(&["train", "fit", &weights, "--out", &weights], "game file");
    // A bootstrapping round: the same games played by the learned evaluation (built in, or
    // the weights just fitted); the file records the player, and each run replays exactly.
    let (boot, boot2) = (path("boot.games"), path("boot2.games"));
    assert!(run(&["--player", "learned", "--threads", "1", "--out", &boot]).contains("4 games"));
    run(&["--player", "learned", "--threads", "2", "--out", &boot2]);
    assert_eq!(
        std::fs::read(&boot).unwrap(),
        std::fs::read(&boot2).unwrap()
    );
    assert_ne!(std::fs::read(&boot).unwrap(), std::fs::read(&all).unwrap());
    run(&[
        "--player",
        "learned",
        "--weights",
        &weights,
        "--out",
        &boot2,
    ]);
    fails_with_error(
        &[&common[..], &["--weights", &weights, "--out", &boot2]].concat(),
        "--weights needs --player learned",
    );
    fails_with_error(
        &[
            &common[..],
            &["--player", "learned", "--weights", &all, "--out", &boot2],
        ]
        .concat(),
        "weight file",
    );
    for p in [
        all, s0, s1, merged, weights, boot, boot2, labels, l0, l1, lmerged,
    ] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn search_values_shard_merge_and_blend_into_a_fit_that_leaves_out_test_positions() {
    let path = |n: &str| temp(n).to_str().unwrap().to_string();
    let (games, all, v0, v1, merged, labels, w) = (
        path("v.games"),
        path("all.values"),
        path("v0.values"),
        path("v1.values"),
        path("merged.values"),
        path("v.labels"),
        path("v.weights"),
    );
    ok(&[
        "train",
        "games",
        "--games",
        "6",
        "--seed",
        "4",
        "--exact",
        "10",
        "--depth",
        "2",
        "--random-min",
        "20",
        "--random-max",
        "24",
        "--out",
        &games,
    ]);
    let values = |extra: &[&str]| {
        let mut args = vec!["train", "values", games.as_str(), "--depth", "4"];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let said = values(&["--threads", "2", "--out", &all]);
    assert!(said.contains("of 6 games (shard 0/1) at depth 4"), "{said}");
    assert!(said.contains("positions and"), "{said}");
    values(&["--shard", "0/2", "--threads", "1", "--out", &v0]);
    values(&["--shard", "1/2", "--out", &v1]);
    let said = ok(&["train", "merge", &v1, &v0, "--out", &merged]);
    assert!(said.contains("search values of 6 games of 6"), "{said}");
    assert_eq!(
        std::fs::read(&merged).unwrap(),
        std::fs::read(&all).unwrap(),
        "the merged shards are the single run, byte for byte"
    );
    fails_with_error(&["train", "merge", &v0, &v0, "--out", &merged], "two files");
    // Shards of another search do not merge.
    let other = path("other.values");
    values(&["--shard", "1/2", "--probcut", "off", "--out", &other]);
    fails_with_error(&["train", "merge", &v0, &other, "--out", &merged], "differ");
    ok(&[
        "train",
        "label",
        &games,
        "--empties",
        "10",
        "--out",
        &labels,
    ]);
    let fit = |extra: &[&str]| {
        let mut args = vec![
            "train",
            "fit",
            games.as_str(),
            "--phases",
            "1",
            "--epochs",
            "3",
            "--out",
            w.as_str(),
        ];
        args.extend_from_slice(extra);
        ok(&args)
    };
    let plain = fit(&[]);
    let blended = fit(&["--values", &all, "--blend", "0.5", "--exclude", &labels]);
    assert!(
        blended.contains("labels blend a search value (weight 0.5)"),
        "{blended}"
    );
    assert!(
        blended.contains("6 positions left out as test positions (6 distinct"),
        "{blended}"
    );
    // "N training and M validation positions": six fewer in all.
    let total = |text: &str| -> usize {
        let w: Vec<&str> = text.split_whitespace().collect();
        w[0].parse::<usize>().unwrap() + w[3].parse::<usize>().unwrap()
    };
    assert_eq!(total(&plain), total(&blended) + 6, "{plain}\n{blended}");
    fails_with_error(
        &["train", "fit", &games, "--values", &v0, "--out", &w],
        "no search values for game",
    );
    fails_with_error(
        &["train", "fit", &games, "--values", &games, "--out", &w],
        "search value file",
    );
    fails_with_error(
        &[
            "train", "fit", &games, "--values", &all, "--blend", "2", "--out", &w,
        ],
        "--blend",
    );
    fails_with_error(
        &[
            "train",
            "values",
            &games,
            "--probcut",
            "zero",
            "--out",
            &other,
        ],
        "--probcut",
    );
    for p in [games, all, v0, v1, merged, labels, w, other] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn bad_arguments_are_clear_errors() {
    let out = temp("x.games");
    let out = out.to_str().unwrap();
    fails(&["train", "games", "--shard", "2/2", "--out", out], "shard");
    fails(&["train", "games", "--games", "0", "--out", out], "games");
    fails_with_error(
        &[
            "train",
            "games",
            "--random-min",
            "9",
            "--random-max",
            "8",
            "--out",
            out,
        ],
        "random-min",
    );
    fails(&["train", "fit", "--out", out], "required");
    fails_with_error(
        &["train", "test", "/nonexistent/file.games"],
        "cannot access",
    );
}

/// Reads a committed weight file of `data/` and checks what every such file must be: 12
/// phases, made by a `yomi train fit` of `games` at the penalty 0.0001, not the built-in
/// file, about even at the start. Returns its path.
fn committed_weights(name: &str, games: &str) -> std::path::PathBuf {
    use yomi_othello_eval::{Evaluator, Weights};
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(name);
    let w = Weights::read(&path).unwrap();
    assert_eq!(w.phases(), 12);
    let made_by = format!("yomi train fit {games} --phases 12");
    assert!(
        w.about().starts_with(&made_by) && w.about().contains("--l2 0.0001 "),
        "{}",
        w.about()
    );
    assert_ne!(&w, &*Weights::builtin());
    let start = yomi_othello::Othello::new();
    assert!(w.evaluate(start.player().0, start.opponent().0).abs() < 300);
    path
}

/// `data/othello-round2b.weights` (round 2's games fitted with `--l2 0.0001`; docs/eval.md):
/// it loads, says how it was made, and is not the built-in file.
#[test]
fn the_committed_refit_loads_and_differs_from_the_built_in_weights() {
    committed_weights("othello-round2b.weights", "boot5.games");
}

/// `data/othello-round3.weights` (`boot5.games`, round 2's games played by round 1, and
/// `boot6.games`, played by round 2: 80,000 games fitted with the default settings;
/// docs/eval.md): it loads, says how it was made, is not the built-in file, and the agent
/// plays with it.
#[test]
fn the_committed_round3_file_loads_and_plays() {
    let path = committed_weights("othello-round3.weights", "boot5.games boot6.games");
    // The four opening moves are one move up to symmetry, so they score the same.
    let spec = format!("othello:time=0,depth=3,weights={}", path.display());
    let out = ok(&["explain", "--game", "othello", &spec]);
    assert!(
        out.contains("weights=") && out.contains("learned evaluation"),
        "{out}"
    );
    assert!(out.contains("best   d3 c4 f5 e6"), "{out}");
}

#[test]
fn wthor_archives_import_into_a_game_file_that_test_reads() {
    use yomi_core::testing::random_game_line;
    use yomi_core::Rng;
    use yomi_othello::wthor::{GameFile, GameRecord};
    use yomi_othello::Othello;
    let path = |n: &str| temp(n).to_str().unwrap().to_string();
    // Three finished games and one cut short.
    let mut file = GameFile::new(2026);
    for seed in 0..3u64 {
        let line = random_game_line(&Othello::new(), &mut Rng::seed_from_u64(seed));
        file.games.push(GameRecord::from_line(&line).unwrap());
        if seed == 0 {
            file.games.push(GameRecord::from_line(&line[..25]).unwrap());
        }
    }
    let wtb = path("import.wtb");
    std::fs::write(&wtb, file.to_bytes().unwrap()).unwrap();
    let games = path("import.games");
    let text = ok(&["train", "import", "--wthor", &wtb, "--out", &games]);
    assert!(
        text.starts_with("3 games of 4 read (1 left out: unfinished"),
        "{text}"
    );
    // The imported games label (an exact solve at 12 empties each) and test like any others.
    let labels = path("import.labels");
    ok(&[
        "train",
        "label",
        &games,
        "--empties",
        "12",
        "--out",
        &labels,
    ]);
    let report = ok(&["train", "test", &labels]);
    assert!(
        report.contains("learned  3 labelled positions at 12 empties"),
        "{report}"
    );
    fails_with_error(
        &[
            "train",
            "import",
            "--wthor",
            &path("missing.wtb"),
            "--out",
            &games,
        ],
        "cannot read",
    );
    std::fs::write(&wtb, &file.to_bytes().unwrap()[..100]).unwrap();
    fails_with_error(
        &["train", "import", "--wthor", &wtb, "--out", &games],
        "import.wtb",
    );
    for f in [wtb, games, labels] {
        std::fs::remove_file(f).ok();
    }
}
