//! End-to-end tests of Othello on 4x4 and 6x6: show, perft, match, agents, explain, the 4x4
//! tree and the small-board solver.

mod common;

use common::{fails, fails_with_error, ok};

#[test]
fn show_and_perft_on_small_boards() {
    let text = ok(&["show", "--game", "othello4"]);
    assert!(text.contains("position -----OX--XO----- X"), "{text}");
    assert!(text.contains("legal moves (4): b1 a2 d3 c4"), "{text}");
    let text = ok(&["show", "--game", "othello6", "parallel", "--moves", "b2b3"]);
    assert!(
        text.contains("white (O) to move") || text.contains("black (X) to move"),
        "{text}"
    );
    let text = ok(&["perft", "8", "--game", "othello4"]);
    assert!(text.contains("leaves (perft)       9116"), "{text}");
    let text = ok(&["perft", "3", "--game", "othello6", "--start", "parallel"]);
    assert!(
        text.contains("from --------------OO----XX-------------- X"),
        "{text}"
    );
    let text = ok(&["perft", "4", "--game", "othello6"]);
    assert!(text.contains("leaves (perft)"), "{text}");
}

#[test]
fn wrong_sizes_and_squares_are_clear_errors() {
    fails_with_error(
        &[
            "show",
            "--game",
            "othello4",
            "--------------OX----XO-------------- X",
        ],
        "a 4x4 board has 16 squares, found 36",
    );
    fails_with_error(&["show", "--game", "othello4", "--moves", "e1"], "a1-d4");
    fails(&["show", "--game", "othello5"], "othello5");
}

#[test]
fn match_agents_and_explain_on_small_boards() {
    let text = ok(&[
        "match",
        "alphabeta",
        "random",
        "--game",
        "othello4",
        "--rounds",
        "20",
    ]);
    assert!(text.contains("othello4"), "{text}");
    let text = ok(&["agents", "--game", "othello6"]);
    assert!(text.contains("alphabeta"), "{text}");
    let text = ok(&["explain", "alphabeta", "--game", "othello4"]);
    assert!(text.contains("chosen"), "{text}");
}

#[test]
fn the_4x4_tree_builds_with_its_value_and_line() {
    let dir = std::env::temp_dir().join(format!("yomi-o4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("othello4.tree");
    let text = ok(&[
        "tree",
        "build",
        "--game",
        "othello4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(text.contains("finished games 60060"), "{text}");
    assert!(text.contains("root minimax -1 (white wins)"), "{text}");
    assert!(text.contains("root disc-difference value -10"), "{text}");
    assert!(text.contains("black 3, white 11"), "{text}");
    assert!(text.contains("principal variation "), "{text}");
    let show = ok(&["tree", "show", "--game", "othello4", "-----OX--XO----- X"]);
    assert!(show.contains("minimax"), "{show}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn yomi_solve_proves_the_4x4_value_and_bounds_when_stopped() {
    // The start by default, with the 8x8 solver's options: threads, table size.
    for threads in ["1", "2"] {
        let text = ok(&[
            "solve",
            "--game",
            "othello4",
            "--threads",
            threads,
            "--hash-mb",
            "4",
        ]);
        assert!(text.contains("score    -10 (exact)"), "{text}");
        assert!(text.contains("empties  12"), "{text}");
    }
    let text = ok(&["solve", "--game", "othello4", "parallel"]);
    assert!(text.contains("score    -4 (exact)"), "{text}");
    let text = ok(&["solve", "--game", "othello4", "--wld"]);
    assert!(text.contains("score    loss (wld)"), "{text}");
    // A limit stops it with the bounds proved and exit status 3, as on 8x8.
    let out = common::yomi(&["solve", "--game", "othello6", "--nodes", "5000"]);
    assert_eq!(out.status.code(), Some(3), "{out:?}");
    let text = common::stdout(&out);
    assert!(text.contains("stopped  node limit"), "{text}");
    assert!(text.contains("score    between -36 and +36"), "{text}");
}

#[test]
fn yomi_solve_refuses_what_only_8x8_has() {
    fails_with_error(
        &["solve", "--game", "othello6", "--json"],
        "--json is only available for 8x8",
    );
    fails_with_error(
        &["solve", "--game", "othello4", "--obf", "x.obf"],
        "--obf is only available for 8x8",
    );
    fails_with_error(&["solve", "--game", "othello", "--wld"], "needs a position");
    fails(&["solve", "--game", "othello5"], "othello5");
    fails(&["solve-small", "--game", "othello4"], "solve-small");
}
