//! End-to-end tests of the tool on Othello: perft, show (of WTHOR games too), match,
//! explain, bad input.

mod common;

use common::{fails, fails_with_error, ok, stderr, yomi};
use yomi_othello::wthor::{GameFile, GameRecord, NameFile, NameKind};
use yomi_othello::Move;

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

#[test]
fn show_replays_a_wthor_game_with_its_names() {
    let dir = std::env::temp_dir().join(format!("yomi-wthor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let line = |text: &str| -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    };
    let mut file = GameFile::new(2024);
    file.header.depth = 22;
    let mut g = GameRecord::from_line(&line("f5 f4 c3 c6 c5 d6 f3 c4 c7")).unwrap();
    (g.tournament, g.black, g.white) = (1, 0, 1);
    file.games.push(g);
    // Passes are not stored: white passes before h4.
    let mut g = GameRecord::from_line(&line("e6 f6 c4 e7 g7 g5 e8 d8 c8 c3 b2 e3 e2 h4")).unwrap();
    (g.tournament, g.black, g.white, g.theoretical_score) = (0, 1, 7, 60);
    file.games.push(g);
    let wtb = dir.join("WTH_2024.wtb");
    std::fs::write(&wtb, file.to_bytes().unwrap()).unwrap();
    let mut players = NameFile::new(NameKind::Players);
    players.names = vec!["Crépin Renée".into(), "Sorbet Alain".into()];
    let jou = dir.join("WTHOR.JOU");
    std::fs::write(&jou, players.to_bytes().unwrap()).unwrap();
    let mut tournaments = NameFile::new(NameKind::Tournaments);
    tournaments.names = vec!["Paris Open".into(), "Nationals".into()];
    let trn = dir.join("WTHOR.TRN");
    std::fs::write(&trn, tournaments.to_bytes().unwrap()).unwrap();
    let (p, j, t) = (
        wtb.to_str().unwrap(),
        jou.to_str().unwrap(),
        trn.to_str().unwrap(),
    );

    let out = ok(&[
        "show",
        "--game",
        "othello",
        "--wthor",
        p,
        "--players",
        j,
        "--tournaments",
        t,
    ]);
    assert!(
        out.starts_with(
            "game 1 of 2 (played in 2024)\n\
             black (X) Crépin Renée #0   white (O) Sorbet Alain #1\n\
             tournament Nationals #1\n\
             result +64 (black's margin; black's score 64)\n\
             theoretical score 64 (black's, exact from 22 empties)\n\
             moves (9) f5 f4 c3 c6 c5 d6 f3 c4 c7\n"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "position ------------------X--X----XXXX----XXXX----XX------X------------- O\n"
        ),
        "{out}"
    );
    let out = ok(&[
        "show",
        "--game",
        "othello",
        "--wthor",
        p,
        "--index",
        "2",
        "--players",
        j,
    ]);
    assert!(
        out.contains("black (X) Sorbet Alain #1   white (O) #7\ntournament #0\n"),
        "{out}"
    );
    assert!(out.contains("theoretical score 60 "), "{out}");
    assert!(
        out.contains("moves (15) e6 f6 c4 e7 g7 g5 e8 d8 c8 c3 b2 e3 e2 PA h4\n"),
        "{out}"
    );

    fails_with_error(
        &["show", "--game", "othello", "--wthor", p, "--index", "3"],
        "holds 2 games: no game 3",
    );
    fails_with_error(&["show", "--game", "nim", "--wthor", p], "8x8 Othello");
    fails(&["show", "--game", "othello", "--players", j], "--wthor");
    fails(
        &["show", "--game", "othello", "--wthor", p, "--ggf", p],
        "cannot be used with",
    );
    // Malformed files: an illegal move, a file cut inside game 2, a players file cut short.
    let mut bytes = file.to_bytes().unwrap();
    bytes[16 + 68 + 8] = 11;
    std::fs::write(&wtb, &bytes).unwrap();
    fails_with_error(
        &["show", "--game", "othello", "--wthor", p],
        "game 2, move 1 (a1) is illegal",
    );
    std::fs::write(&wtb, &bytes[..100]).unwrap();
    fails_with_error(
        &["show", "--game", "othello", "--wthor", p],
        "record 2 is cut",
    );
    std::fs::write(&wtb, &bytes[..10]).unwrap();
    fails_with_error(
        &["show", "--game", "othello", "--wthor", p],
        "shorter than the 16-byte",
    );
    std::fs::write(&wtb, file.to_bytes().unwrap()).unwrap();
    std::fs::write(&jou, &players.to_bytes().unwrap()[..30]).unwrap();
    fails_with_error(
        &["show", "--game", "othello", "--wthor", p, "--players", j],
        "record 1 is cut",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_reports_time_and_kinds_of_move_by_empties() {
    let out = yomi(&[
        "match",
        "othello:level=3,exact=12",
        "greedy",
        "--game",
        "othello",
        "--rounds",
        "2",
        "--threads",
        "1",
    ]);
    assert!(out.status.success());
    let err = stderr(&out);
    let line = |start: &str| {
        err.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no line {start:?} in {err}"))
            .to_string()
    };
    // From the start position both sides move from 60 empties down.
    let a = line("time a move by empties, othello:level=3");
    assert!(a.contains(" 60-51: "), "{a}");
    assert!(a.contains(" 10-1: "), "{a}");
    line("time a move by empties, greedy");
    // The othello agent says how it found its moves; each of the 4 games starts exact
    // solving at 12 empties or (for the side that does not move there) 11.
    let kinds = line("moves by kind, othello:level=3");
    assert!(kinds.contains("midgame "), "{kinds}");
    let at = kinds.find(" exact ").unwrap_or_else(|| panic!("{kinds}"));
    let exact = &kinds[at + 1..];
    let exact = &exact[..=exact.find(')').unwrap()];
    let firsts: u64 = exact
        .split("empties ")
        .nth(1)
        .unwrap()
        .trim_end_matches(')')
        .split(", ")
        .map(|at| {
            let (e, n) = at.split_once(": ").unwrap();
            assert!(["12", "11", "10"].contains(&e), "{exact}");
            n.parse::<u64>().unwrap()
        })
        .sum();
    assert_eq!(firsts, 4, "{exact}");
    assert!(!err.contains("moves by kind, greedy"), "{err}");
}
