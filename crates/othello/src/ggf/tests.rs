//! Tests of reading and writing GGF records.

use yomi_core::{FinalScore, Game, Rng};

use super::*;
use crate::{Move, Othello};

const NBOARD: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

#[test]
fn reads_an_nboard_record() {
    let g: Record = NBOARD.parse().unwrap();
    assert_eq!(g.place.as_deref(), Some("NBoard"));
    assert_eq!(g.date.as_deref(), Some("2014-02-21 20:52:27 GMT"));
    assert_eq!(g.black.as_deref(), Some("./mEdax"));
    assert_eq!(g.white.as_deref(), Some("chris"));
    assert_eq!(g.time.as_deref(), Some("15:00"));
    assert_eq!(g.board_type, "8");
    assert_eq!(g.result, None);
    assert_eq!(g.start(), Othello::new());
    let line: Vec<String> = g.line().iter().map(ToString::to_string).collect();
    assert_eq!(line, ["f5", "f6", "d3", "c5", "e6", "f7", "e7", "f4"]);
    assert_eq!(
        g.position(),
        Othello::new().play_line("f5 f6 d3 c5 e6 f7 e7 f4").unwrap()
    );
    // The canonical form is the NBoard text with RE after TY.
    let again = g.to_string();
    assert_eq!(again.parse::<Record>().unwrap(), g);
    assert_eq!(
        again,
        NBOARD.replace("RE[?]TI[15:00]TY[8]", "TI[15:00]TY[8]RE[?]")
    );
}

#[test]
fn evaluations_times_results_and_escapes() {
    let text = "(;GM[othello]PB[a\\]b]RE[-12.500:t]RB[1897.01]C[hi]BO[8 \
                -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
                B[f5/1.5/0.25]W[d6//3]B[c3/-2];)";
    let g: Record = text.parse().unwrap();
    assert_eq!(g.black.as_deref(), Some("a]b"));
    assert_eq!(
        g.result,
        Some(RecordResult {
            black_margin: -12.5,
            ending: Some(Ending::Timeout)
        })
    );
    assert_eq!(g.extra, [("C".to_string(), "hi".to_string())]);
    let m = g.moves();
    assert_eq!((m[0].eval, m[0].time), (Some(1.5), Some(0.25)));
    assert_eq!((m[1].eval, m[1].time), (None, Some(3.0)));
    assert_eq!((m[2].eval, m[2].time), (Some(-2.0), None));
    let text2 = g.to_string();
    assert!(text2.contains("PB[a\\]b]"), "{text2}");
    assert!(text2.contains("RE[-12.500:t]"), "{text2}");
    assert!(text2.contains("B[F5/1.5/0.25]W[D6//3]B[C3/-2]"), "{text2}");
    assert_eq!(text2.parse::<Record>().unwrap(), g);
}

#[test]
fn forced_passes_are_made_explicit() {
    // Random games with passes, recorded without them.
    let mut rng = Rng::seed_from_u64(5);
    let mut found = 0;
    for _ in 0..200 {
        let mut pos = Othello::new();
        let mut line = Vec::new();
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            line.push(mv);
            pos = pos.play_unchecked(mv);
        }
        if !line.contains(&Move::Pass) {
            continue;
        }
        found += 1;
        let without: Vec<Move> = line.iter().copied().filter(|m| *m != Move::Pass).collect();
        let g = Record::from_line(Othello::new(), &without).unwrap();
        assert_eq!(g.line(), line);
        assert_eq!(g.position(), pos);
        // The same record move by move through `push` (each from a replay of the record).
        let mut slow = Record::new(Othello::new());
        for &mv in &without {
            slow.push(mv).unwrap();
        }
        slow.set_result_from_board();
        assert_eq!(slow, g);
        // An illegal move is refused at the same number either way.
        let mut bad = without.clone();
        bad.push(Move::Place("d4".parse().unwrap()));
        let e = Record::from_line(Othello::new(), &bad).unwrap_err();
        assert_eq!(e.number, line.len() + 1);
        assert_eq!(slow.push(bad[bad.len() - 1]).unwrap_err(), e);
        // The record without the pass tags reads back with them.
        let text = g.to_string().replace("B[PA]", "").replace("W[PA]", "");
        assert_eq!(text.parse::<Record>().unwrap(), g);
    }
    assert!(found > 0, "no random game had a pass");
}

#[test]
fn result_from_board_and_round_trip_of_random_games() {
    let mut rng = Rng::seed_from_u64(11);
    let mut games = Vec::new();
    for _ in 0..50 {
        let mut pos = Othello::new();
        let mut line = Vec::new();
        while !pos.is_over() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            line.push(mv);
            pos = pos.play_unchecked(mv);
        }
        let mut g = Record::from_line(Othello::new(), &line).unwrap();
        assert_eq!(
            g.result.map(|r| r.black_margin),
            Some(f64::from(pos.final_score().unwrap()))
        );
        g.black = Some("x".into());
        games.push(g);
    }
    let file = write_file(&games);
    assert_eq!(parse_file(&file).unwrap(), games);
}

fn kind(text: &str) -> (usize, ErrorKind) {
    let e = text.parse::<Record>().unwrap_err();
    (e.offset, e.kind)
}

#[test]
fn rejects_malformed_records() {
    assert_eq!(kind("GM[Othello];)"), (0, ErrorKind::MissingStart));
    assert_eq!(kind("(;GM[Othello]"), (13, ErrorKind::Unterminated));
    assert_eq!(
        kind("(;GM[Othello]PB[x"),
        (
            13,
            ErrorKind::UnterminatedValue {
                tag: "PB".to_string()
            }
        )
    );
    assert!(matches!(
        kind("(;gm[Othello];)"),
        (2, ErrorKind::BadTag { .. })
    ));
    assert_eq!(
        kind("(;GM[Chess];)"),
        (
            5,
            ErrorKind::NotOthello {
                game: "Chess".to_string()
            }
        )
    );
    assert_eq!(
        kind("(;TY[10];)"),
        (
            5,
            ErrorKind::UnsupportedType {
                ty: "10".to_string()
            }
        )
    );
    assert!(matches!(
        kind("(;BO[8 ---- *];)"),
        (5, ErrorKind::BadBoard { .. })
    ));
    assert!(matches!(
        kind("(;BO[10 ---- *];)"),
        (5, ErrorKind::BadBoard { .. })
    ));
    assert!(matches!(
        kind("(;RE[+3x];)"),
        (5, ErrorKind::BadResult { .. })
    ));
    assert!(matches!(
        kind("(;RE[+3:q];)"),
        (5, ErrorKind::BadResult { .. })
    ));
    assert!(matches!(
        kind("(;PB[a]PB[b];)"),
        (7, ErrorKind::Duplicate { .. })
    ));
    assert!(matches!(
        kind("(;B[z9];)"),
        (4, ErrorKind::BadMove { number: 1, .. })
    ));
    assert!(matches!(
        kind("(;B[f5/x];)"),
        (4, ErrorKind::BadMove { number: 1, .. })
    ));
    assert!(matches!(
        kind("(;B[f5]B[f6];)"),
        (
            7,
            ErrorKind::WrongPlayer {
                number: 2,
                player: "black",
                ..
            }
        )
    ));
    assert!(matches!(
        kind("(;B[a1];)"),
        (2, ErrorKind::IllegalMove { number: 1, .. })
    ));
    assert!(matches!(
        kind("(;GM[Othello];) x"),
        (16, ErrorKind::BadTag { .. })
    ));
    // Offsets in a file count from the file's start.
    let e = parse_file("(;B[f5];)\n(;B[a1];)").unwrap_err();
    assert_eq!(e.offset, 12);
    assert_eq!(
        e.to_string(),
        "GGF error at byte 12: move 1 (a1) is illegal in position \
         ---------------------------OX------XO--------------------------- X"
    );
}

#[test]
fn pushing_rejects_illegal_moves_and_keeps_the_record() {
    let mut g = Record::new(Othello::new());
    g.push_move("f5".parse().unwrap(), Some(0.5), Some(1.0))
        .unwrap();
    let err = g.push("f5".parse().unwrap()).unwrap_err();
    assert_eq!(err.number, 2);
    assert_eq!(g.moves().len(), 1);
    assert_eq!(g.positions().len(), 2);
    assert_eq!(g.to_string().parse::<Record>().unwrap(), g);
}

#[test]
fn mangled_records_never_panic() {
    // Random edits of valid records: whatever parses prints and parses back the same.
    let valid = [
        NBOARD.to_string(),
        "(;GM[Othello]PB[a\\]b]RE[-12.500:t]B[f5/1.5/0.25]W[d6//3];)".to_string(),
    ];
    let alphabet = b"()[];:/\\*O-.+-0123456789abcdefghPABWREBOTY8 \n";
    let mut rng = Rng::seed_from_u64(99);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut bytes = valid[rng.below(valid.len())].clone().into_bytes();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[i] = alphabet[rng.below(alphabet.len())],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, alphabet[rng.below(alphabet.len())]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(g) = text.parse::<Record>() {
            accepted += 1;
            assert_eq!(g.to_string().parse::<Record>().unwrap(), g, "{text}");
        }
        let _ = parse_file(&text);
    }
    assert!(accepted > 100, "only {accepted} mangled records parsed");
}
