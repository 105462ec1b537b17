//! End-to-end tests of `yomi tree`: the data files it writes, the values it shows, the audit,
//! and bad input.

use std::path::PathBuf;
mod common;

use common::{fails_with_error, ok, stderr, yomi};

/// Length and FNV-1a 64 hash of `yomi tree show x...o...o --data minimax --svg`.
const PICTURE_X_O_O_MINIMAX: (usize, u64) = (7_560, 0x2b711beb8d98793);

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("yomi-cli-tree-{}-{name}", std::process::id()))
}

fn data(name: &str) -> Vec<u8> {
    std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/").to_string() + name).unwrap()
}

#[test]
fn build_writes_the_committed_files_bit_for_bit() {
    let out = temp("ttt.tree");
    let text = ok(&["tree", "build", "--out", out.to_str().unwrap()]);
    assert_eq!(std::fs::read(&out).unwrap(), data("tictactoe.tree"));
    let _ = std::fs::remove_file(&out);
    for line in [
        "  depth   9       127872",
        "  total           549946",
        "finished games 255168: o wins 131184, draws 46080, x wins 77904",
        "distinct positions 5478, up to symmetry 765",
        "root minimax 0 (draw), shortest victory 0",
        "root P(o wins) = 737/1260 (0.584921)",
        "root P(draw)    = 8/63 (0.126984)",
        "root P(x wins) = 121/420 (0.288095)",
        "root playout score of o (alpha 1/2) = 817/1260 (0.648413)",
    ] {
        assert!(
            text.lines().any(|l| l == line),
            "{line:?} missing in\n{text}"
        );
    }
    assert!(text.contains("peak memory (VmHWM): "), "{text}");
    assert!(text.contains("time: "), "{text}");

    let out = temp("nim.tree");
    let text = ok(&[
        "tree",
        "build",
        "--game",
        "nim",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&out).unwrap(), data("nim15.tree"));
    let _ = std::fs::remove_file(&out);
    assert!(text.contains("root minimax 1 (first wins)"), "{text}");
    assert!(text.contains("(the game has no symmetries)"), "{text}");
}

#[test]
fn show_prints_the_known_values() {
    let text = ok(&["tree", "show", "........."]);
    assert!(text.contains("737/1260 (0.584921)"), "{text}");
    let centre = text.lines().find(|l| l.starts_with("(1,1)")).unwrap();
    assert!(centre.contains("3/4 (0.750000)"), "{centre}");
    assert!(centre.ends_with("minimax,sv"), "{centre}");
    let corner = text.lines().find(|l| l.starts_with("(0,0)")).unwrap();
    assert!(corner.contains("47/70"), "{corner}");
    let edge = text.lines().find(|l| l.starts_with("(1,0)")).unwrap();
    assert!(edge.contains("3/5"), "{edge}");

    // Shortest victory: O wins at once with (2,0): (11-5)/2 = 3.
    let text = ok(&["tree", "show", "oo./xx./...", "--data", "sv"]);
    let win = text.lines().find(|l| l.starts_with("(2,0)")).unwrap();
    assert_eq!(
        win.split_whitespace().collect::<Vec<_>>(),
        ["(2,0)", "oooxx....", "3", "minimax,sv"]
    );
    let header = text
        .lines()
        .find(|l| l.contains("position") && l.contains("best"))
        .unwrap();
    assert!(!header.contains("P("), "{header}");

    let svg = temp("show.svg");
    let text = ok(&[
        "tree",
        "show",
        "x...o...o",
        "--data",
        "minimax",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(text.contains("(2,0)"), "{text}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    let _ = std::fs::remove_file(&svg);
    assert!(picture.starts_with("<svg"), "{picture}");
    assert!(picture.trim_end().ends_with("</svg>"));
    // The two best moves (2,0) and (0,2) are framed.
    assert_eq!(picture.matches("#d9480f").count(), 2, "{picture}");
    // The picture is byte for byte what it was when it was drawn inside the CLI (before the
    // drawing moved to yomi_tree::svg): its length and FNV-1a 64 hash.
    assert_eq!(
        (picture.len(), fnv1a64(picture.as_bytes())),
        PICTURE_X_O_O_MINIMAX,
        "the SVG of `tree show x...o...o --data minimax` changed"
    );

    let text = ok(&["tree", "show", "15", "--game", "nim", "--data", "minimax"]);
    let take3 = text.lines().find(|l| l.starts_with("3 ")).unwrap();
    assert!(take3.ends_with("minimax,sv"), "{take3}");
    // A finished position.
    assert!(ok(&["tree", "show", "ooo/xx./..."]).contains("the game is over"));
}

#[test]
fn audit_prints_a_count() {
    let text = ok(&["tree", "audit", "--rule", "pmc2:alpha=0.5"]);
    let count: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("count "))
        .unwrap()
        .parse()
        .unwrap();
    let listed = text.lines().filter(|l| l.contains(" rule ")).count();
    assert_eq!(listed, count);
    assert!(count > 0);
    assert!(text.contains("positions checked 627"), "{text}");
    let sv = ok(&["tree", "audit", "--rule", "pmc", "--scoring", "sv"]);
    assert!(sv.lines().any(|l| l.starts_with("count ")), "{sv}");
    let nim = ok(&["tree", "audit", "--rule", "pmc2", "--game", "nim"]);
    assert!(nim.contains("repeats skipped"), "{nim}");
}

#[test]
fn bad_input_is_an_error() {
    fails_with_error(&["tree", "show", "xxx"], "bad tictactoe position");
    fails_with_error(&["tree", "show", "ooo/ooo/xxx"], "bad tictactoe position");
    fails_with_error(&["tree", "show", "-3", "--game", "nim"], "bad nim position");
    fails_with_error(&["tree", "show", ".........", "--alpha", "x"], "alpha");
    fails_with_error(
        &["tree", "show", "15", "--game", "nim", "--svg", "/tmp/x.svg"],
        "tic-tac-toe only",
    );
    fails_with_error(&["tree", "audit", "--rule", "pmc3"], "bad rule");
    fails_with_error(
        &["tree", "audit", "--rule", "pmc2:alpha=1/0"],
        "zero denominator",
    );
    fails_with_error(
        &["tree", "audit", "--rule", "pmc", "--scoring", "best"],
        "bad scoring",
    );
    fails_with_error(
        &["tree", "build", "--out", "/nonexistent/dir/x.tree"],
        "cannot write",
    );
    let out = yomi(&["tree", "build", "--game", "othello"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap rejects a game the tree cannot handle"
    );
    assert!(stderr(&out).contains("tictactoe"));
}
