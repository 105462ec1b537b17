//! Notation: round trips of squares, moves, boards, move sequences and OBF lines; every line of
//! the FFO files; typed errors; and fuzzing of every parser with random and mutated text.

use std::fs;
use std::path::PathBuf;

use yomi_core::{Game, Player, Rng};
use yomi_othello::{
    Move, MoveSequence, ObfPosition, Othello, ParseBoardError, ParseObfError, Square,
};

fn ffo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/ffo")
}

/// Every non-empty line of the four FFO files, with its file name and line number.
fn ffo_lines() -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    for name in [
        "fforum-1-19.obf",
        "fforum-20-39.obf",
        "fforum-40-49.obf",
        "fforum-50-59.obf",
    ] {
        let text = fs::read_to_string(ffo_dir().join(name)).unwrap();
        for (i, line) in text.lines().enumerate() {
            if !line.trim().is_empty() {
                out.push((name.to_string(), i + 1, line.to_string()));
            }
        }
    }
    out
}

#[test]
fn every_ffo_line_parses_with_its_scores() {
    let lines = ffo_lines();
    assert_eq!(lines.len(), 59);
    for (name, number, line) in &lines {
        let obf: ObfPosition = line
            .parse()
            .unwrap_or_else(|e| panic!("{name}:{number}: {e}"));
        assert!(!obf.scores.is_empty(), "{name}:{number}");
        // The best move comes first.
        let best = obf.scores[0].1;
        assert!(
            obf.scores.iter().all(|&(_, s)| s <= best),
            "{name}:{number}"
        );
        // Printing gives the line back (the files use this exact form).
        assert_eq!(obf.to_string(), line.trim_end(), "{name}:{number}");
        assert_eq!(obf.to_string().parse::<ObfPosition>().unwrap(), obf);
        for &(mv, _) in &obf.scores {
            assert!(obf.position.is_legal(mv));
        }
    }
    // Position 1 in detail.
    let first: ObfPosition = lines[0].2.parse().unwrap();
    assert_eq!(first.position.side_to_move(), Player::First);
    assert_eq!(first.position.empties().count(), 14);
    assert_eq!(first.scores[0], ("g8".parse().unwrap(), 18));
    assert_eq!(first.scores.len(), 8);
    assert_eq!(*first.scores.last().unwrap(), ("G2".parse().unwrap(), -24));
    // Position 40 (the first of the standard benchmark) has 20 empties and scores +38 at a2.
    let p40: ObfPosition = lines[39].2.parse().unwrap();
    assert_eq!(p40.position.empties().count(), 20);
    assert_eq!(p40.scores[0], ("a2".parse().unwrap(), 38));
}

#[test]
fn obf_comments_and_errors() {
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let obf: ObfPosition = format!("{board}; G8:+18;   % position 1").parse().unwrap();
    assert_eq!(obf.scores, vec![("g8".parse().unwrap(), 18)]);
    let bare: ObfPosition = format!("{board};").parse().unwrap();
    assert!(bare.scores.is_empty());
    let err = |s: String| s.parse::<ObfPosition>().unwrap_err();
    assert_eq!(err(board.to_string()), ParseObfError::MissingSemicolon);
    assert!(matches!(
        err(format!("{board}; G8+18;")),
        ParseObfError::BadEntry { number: 1, .. }
    ));
    assert!(matches!(
        err(format!("{board}; G8:+18; Z9:+2;")),
        ParseObfError::BadMove { number: 2, .. }
    ));
    assert!(matches!(
        err(format!("{board}; G8:x;")),
        ParseObfError::BadScore { number: 1, .. }
    ));
    assert!(matches!(
        err(format!("{board}; G8:+66;")),
        ParseObfError::BadScore { number: 1, .. }
    ));
    // c1 is occupied, a1 is empty but illegal, and passing is illegal here.
    for mv in ["C1", "A1", "PA"] {
        assert!(matches!(
            err(format!("{board}; {mv}:+2;")),
            ParseObfError::IllegalMove { number: 1, .. }
        ));
    }
    assert!(matches!(
        err(format!("{}; G8:+18;", &board[..60])),
        ParseObfError::Board(_)
    ));
    let msg = err(format!("{board}; G8:+18; B1:?;")).to_string();
    assert_eq!(
        msg,
        "entry 2: bad score \"?\", expected an integer from -64 to +64"
    );
}

#[test]
fn board_errors_say_what_and_where() {
    let start = Othello::new().to_string();
    let err = |s: &str| s.parse::<Othello>().unwrap_err();
    assert_eq!(err(""), ParseBoardError::TooShort { squares: 0 });
    assert_eq!(err(&start[..63]), ParseBoardError::TooShort { squares: 63 });
    assert_eq!(err(&start[..64]), ParseBoardError::MissingSide);
    let bad = format!("{}Z{}", &start[..10], &start[11..]);
    assert_eq!(
        err(&bad),
        ParseBoardError::BadSquare {
            ch: 'Z',
            index: 10,
            square: "c2".parse().unwrap()
        }
    );
    assert_eq!(
        err(&bad).to_string(),
        "bad character 'Z' at byte 10: expected X, O or - for square c2"
    );
    assert_eq!(
        err(&format!("{}X", &start[..64])),
        ParseBoardError::NoSeparator { index: 64 }
    );
    assert_eq!(
        err(&format!("{} Q", &start[..64])),
        ParseBoardError::BadSide {
            text: "Q".into(),
            index: 65
        }
    );
    assert!(matches!(
        err(&format!("{} X O", &start[..64])),
        ParseBoardError::BadSide { .. }
    ));
    // Multi-byte characters are reported, not split.
    assert!(matches!(
        err(&format!("{}é{}", &start[..5], &start[6..])),
        ParseBoardError::BadSquare {
            ch: 'é',
            index: 5,
            ..
        }
    ));
    // Accepted variants.
    let lower = start.to_lowercase().replace('-', ".");
    assert_eq!(lower.parse::<Othello>().unwrap(), Othello::new());
    let spaced = format!("  {}\t b  ", &start[..64]);
    assert_eq!(spaced.parse::<Othello>().unwrap(), Othello::new());
    let white = format!("{} W", &start[..64]).parse::<Othello>().unwrap();
    assert_eq!(white.side_to_move(), Player::Second);
}

#[test]
fn squares_and_moves() {
    for sq in Square::ALL {
        let text = sq.to_string();
        assert_eq!(text.parse::<Square>().unwrap(), sq);
        assert_eq!(text.to_uppercase().parse::<Square>().unwrap(), sq);
        let mv = Move::Place(sq);
        assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
    }
    assert_eq!(Square::ALL[0].to_string(), "a1");
    assert_eq!(Square::ALL[7].to_string(), "h1");
    assert_eq!(Square::ALL[8].to_string(), "a2");
    assert_eq!(Square::ALL[63].to_string(), "h8");
    for text in ["PA", "pa", "Pass", "PASS", "pass"] {
        assert_eq!(text.parse::<Move>().unwrap(), Move::Pass);
    }
    assert_eq!(Move::Pass.to_string(), "PA");
    for bad in [
        "", "a", "a0", "a9", "i1", "aa", "11", "a10", "pas", "passs", " a1", "é1",
    ] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
        let err = bad.parse::<Move>().unwrap_err();
        assert_eq!(err.text, bad);
    }
    assert_eq!(
        "z9".parse::<Square>().unwrap_err().to_string(),
        "invalid square \"z9\": expected a column a-h then a row 1-8, e.g. f5"
    );
    assert!(Move::Place(Square::ALL[63]) < Move::Pass);
    assert_eq!(Move::all().len(), 65);
    assert_eq!(Move::default(), Move::Pass);
}

#[test]
fn move_sequences() {
    let seq: MoveSequence = "f5d6c3d3c4f4f6f3e6e7".parse().unwrap();
    assert_eq!(seq.0.len(), 10);
    assert_eq!(seq.to_string(), "f5d6c3d3c4f4f6f3e6e7");
    let pos = seq.play_from(&Othello::new()).unwrap();
    assert_eq!(pos.disc_counts().iter().sum::<u32>(), 14);
    // Passes inside sequences, in both spellings.
    let with_pass: MoveSequence = "PAf5 passD6".parse().unwrap();
    assert_eq!(with_pass.0[0], Move::Pass);
    assert_eq!(with_pass.0[1], Move::Place("f5".parse().unwrap()));
    assert_eq!(with_pass.0[2], Move::Pass);
    assert_eq!(with_pass.to_string(), "PAf5PAd6");
    // Move lines as players and databases write them: numbered, dashed, comma-separated; all
    // read as the compact line, which prints back the same.
    for text in [
        "1. f5 d6 2. c3 d3 3. c4",
        "1.f5 d6 2.c3 d3 3.c4",
        "1. F5 1... D6 2. C3 2... D3 3. C4",
        "f5-d6-c3-d3-c4",
        "f5, d6, c3, d3, c4",
        "F5 D6 C3 D3 C4",
    ] {
        let seq: MoveSequence = text.parse().unwrap();
        assert_eq!(seq.to_string(), "f5d6c3d3c4", "{text}");
        assert_eq!(seq.to_string().parse::<MoveSequence>().unwrap(), seq);
    }
    // A number without its dot is no move number.
    let err = "1 f5".parse::<MoveSequence>().unwrap_err();
    assert_eq!((err.index, err.number), (0, 1));
    assert!(
        err.to_string().contains("move numbers such as `1.`"),
        "{err}"
    );
    let err = "1. f5 d6 2. c9".parse::<MoveSequence>().unwrap_err();
    assert_eq!((err.index, err.number, err.text.as_str()), (12, 3, "c9"));
    // Errors: where parsing fails, and which move is illegal.
    let err = "f5d6x3".parse::<MoveSequence>().unwrap_err();
    assert_eq!((err.index, err.number, err.text.as_str()), (4, 3, "x3"));
    let err = "f5d".parse::<MoveSequence>().unwrap_err();
    assert_eq!((err.index, err.number, err.text.as_str()), (2, 2, "d"));
    let err = "f5d6d6"
        .parse::<MoveSequence>()
        .unwrap()
        .play_from(&Othello::new())
        .unwrap_err();
    assert_eq!((err.number, err.mv), (3, "d6".parse().unwrap()));
    let err = "PA"
        .parse::<MoveSequence>()
        .unwrap()
        .play_from(&Othello::new())
        .unwrap_err();
    assert_eq!((err.number, err.mv), (1, Move::Pass));
    // Past the end of the game.
    let err = "e6f4e3f6g5d6e7f5c5a1"
        .parse::<MoveSequence>()
        .unwrap()
        .play_from(&Othello::new())
        .unwrap_err();
    assert_eq!(err.number, 10);
    assert_eq!("".parse::<MoveSequence>().unwrap(), MoveSequence::default());
}

#[test]
fn positions_round_trip_along_random_games() {
    let mut rng = Rng::seed_from_u64(8);
    for _ in 0..300 {
        let mut pos = Othello::new();
        let mut line = Vec::new();
        loop {
            let text = pos.to_string();
            assert_eq!(text.len(), 66);
            assert_eq!(text.parse::<Othello>().unwrap(), pos);
            let obf = ObfPosition {
                position: pos,
                scores: pos.legal_moves().into_iter().map(|m| (m, 2)).collect(),
            };
            assert_eq!(obf.to_string().parse::<ObfPosition>().unwrap(), obf);
            let pretty = pos.pretty();
            assert_eq!(pretty.lines().count(), 10);
            assert_eq!(pretty.matches('*').count() as u32, pos.mobility());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(mv);
            pos = pos.play_unchecked(mv);
        }
        let seq = MoveSequence(line);
        let back: MoveSequence = seq.to_string().parse().unwrap();
        assert_eq!(back, seq);
        assert_eq!(back.play_from(&Othello::new()).unwrap(), pos);
        assert!(pos.pretty().contains("wins") || pos.pretty().ends_with("draw"));
    }
}

/// A random string: random bytes (made valid UTF-8 lossily) or a mutation of a valid text.
fn fuzz_input(rng: &mut Rng, valid: &[String]) -> String {
    const ALPHABET: &[u8] = b"XxOo-.*BbWw PApass;:%+-0123456789abcdefghH\t\n\xc3\xa9";
    match rng.below(3) {
        0 => {
            let len = rng.below(80);
            let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => {
            let mut bytes = valid[rng.below(valid.len())].clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
                    2 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
                    _ => bytes.truncate(at),
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

#[test]
fn parsers_never_panic() {
    let mut valid: Vec<String> = ffo_lines().into_iter().map(|(_, _, l)| l).collect();
    valid.push(Othello::new().to_string());
    valid.push("f5d6c3d3c4f4PAf6".to_string());
    valid.push("e4".to_string());
    valid.push("pass".to_string());
    let mut rng = Rng::seed_from_u64(1234);
    let mut accepted = 0;
    for _ in 0..100_000 {
        let text = fuzz_input(&mut rng, &valid);
        // Whatever parses must print and parse back to the same value.
        if let Ok(pos) = text.parse::<Othello>() {
            accepted += 1;
            assert_eq!(pos.to_string().parse::<Othello>().unwrap(), pos);
            let _ = pos.pretty();
        }
        if let Ok(obf) = text.parse::<ObfPosition>() {
            accepted += 1;
            assert_eq!(obf.to_string().parse::<ObfPosition>().unwrap(), obf);
        }
        if let Ok(seq) = text.parse::<MoveSequence>() {
            assert_eq!(seq.to_string().parse::<MoveSequence>().unwrap(), seq);
            let _ = seq.play_from(&Othello::new());
        }
        if let Ok(mv) = text.parse::<Move>() {
            assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
        }
        if let Ok(sq) = text.parse::<Square>() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        let _ = Othello::new().play_line(&text);
    }
    // Mutations keep many inputs valid, so both branches are exercised.
    assert!(accepted > 1_000, "{accepted}");
}
