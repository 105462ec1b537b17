//! End-to-end tests of the tool on Othello: perft, show, match, explain, bad input.

mod common;

use common::{fails_with_error, ok};

#[test]
fn perft_counts_the_standard_numbers() {
    for (depth, leaves) in [("1", "4"), ("5", "1396"), ("8", "390216")] {
        let text = ok(&["perft", "--game", "othello", depth]);
        assert!(
            text.contains(&format!("leaves (perft)       {leaves}\n")),
            "{text}"
        );
        assert!(text.contains(" leaves/s"), "{text}");
    }
    // From a given position: after f5 the mover (white) has 3 replies.
    let after_f5 = "---------------------------OX------XXX-------------------------- O";
    let text = ok(&["perft", "--game", "othello", "1", "--start", after_f5]);
    assert!(text.contains("leaves (perft)       3\n"), "{text}");
}

#[test]
fn show_plays_a_run_together_line() {
    let text = ok(&["show", "--game", "othello", "--moves", "f5d6c3"]);
    assert!(
        text.contains("black 5, white 2; white (O) to move"),
        "{text}"
    );
    assert!(text.contains("legal moves (4): d3 f3 f4 g5"), "{text}");
    let text = ok(&["show", "--game", "othello", "--moves", "f5 d6 c3"]);
    assert!(text.contains("legal moves (4): d3 f3 f4 g5"), "{text}");
}

#[test]
fn matches_and_explanations_run_on_othello() {
    let text = ok(&[
        "match", "greedy", "random", "--game", "othello", "--rounds", "20",
    ]);
    assert!(text.contains("greedy:time=0 VS random"), "{text}");
    assert!(text.contains("total "), "{text}");
    let one = ok(&[
        "match",
        "pmc2:pnum=50",
        "mcts:iters=50",
        "--game",
        "othello",
        "--rounds",
        "3",
        "--threads",
        "1",
    ]);
    let two = ok(&[
        "match",
        "pmc2:pnum=50",
        "mcts:iters=50",
        "--game",
        "othello",
        "--rounds",
        "3",
        "--threads",
        "2",
    ]);
    assert_eq!(one, two, "results depend on the thread count");
    let text = ok(&["explain", "average:depth=2", "--game", "othello"]);
    for mv in ["d3", "c4", "f5", "e6"] {
        assert!(text.contains(mv), "{text}");
    }
    assert!(text.contains("chosen"), "{text}");
    let text = ok(&["agents", "--game", "othello"]);
    for name in ["alphabeta", "average", "mcts", "pmc2", "greedy"] {
        assert!(text.contains(name), "{text}");
    }
    // The `othello` agent's levels, a line each.
    assert!(
        text.contains("levels (othello:level=N; no time limit unless time= is given):"),
        "{text}"
    );
    assert!(
        text.contains("        level  depth  probcut  wld  exact\n"),
        "{text}"
    );
    assert!(
        text.contains("\n            1      1      off    2      2\n"),
        "{text}"
    );
    assert!(
        text.contains("\n           10     10      1.5   18     16\n"),
        "{text}"
    );
    assert!(
        text.contains("\n           30     30      1.5   28     26\n"),
        "{text}"
    );
    // The small boards' `othello` has no levels.
    assert!(!ok(&["agents", "--game", "othello6"]).contains("levels"));
}

#[test]
fn bad_othello_input_is_one_error_line() {
    fails_with_error(
        &["show", "--game", "othello", "bad"],
        "bad othello position",
    );
    fails_with_error(
        &["show", "--game", "othello", "--moves", "f5f5"],
        "move 2 (f5) is illegal",
    );
    fails_with_error(&["show", "--game", "othello", "--moves", "z9"], "error: ");
    fails_with_error(
        &["perft", "--game", "othello", "3", "--start", "XO- X"],
        "bad othello position",
    );
    fails_with_error(&["match", "ai10s", "random", "--game", "othello"], "ai10s");
    fails_with_error(
        &["match", "othello:level=31", "random", "--game", "othello"],
        "bad value \"31\" for parameter level of othello: expected none or a whole number \
         from 1 to 30",
    );
}

#[test]
fn board_strings_starting_with_a_dash_are_positions_not_flags() {
    let start = "---------------------------OX------XO--------------------------- X";
    let text = ok(&["show", "--game", "othello", start]);
    assert!(text.contains("legal moves (4): d3 c4 f5 e6"), "{text}");
    let text = ok(&["explain", "greedy", start, "--game", "othello"]);
    assert!(text.contains("chosen"), "{text}");
    let text = ok(&[
        "match", "random", "random", "--game", "othello", "--rounds", "2", "--start", start,
    ]);
    assert!(text.contains("total"), "{text}");
}
