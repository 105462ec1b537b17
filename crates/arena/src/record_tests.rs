//! Tests of match records: write, resume after a kill, refuse another run's file.

use std::path::PathBuf;

use serde_json::json;
use yomi_core::{Game, GameResult, Shard};
use yomi_othello::{ggf, Othello};

use crate::record::*;
use crate::{GameAdjudication, GameForfeit, Seat};

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-arena-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn header(seed: u64) -> serde_json::Value {
    record_header(
        "match",
        &json!({ "game": "othello", "seed": seed }),
        &json!("start"),
        Shard::WHOLE,
    )
}

fn line(index: u64, result: GameResult) -> GameLine {
    GameLine {
        match_no: 0,
        index,
        opening: "start".into(),
        a_first: index.is_multiple_of(2),
        result,
        moves: "f5 d6".into(),
        forfeit: None,
        adjudication: None,
    }
}

#[test]
fn header_names_the_run() {
    let h = header(3);
    assert_eq!(h["record"], "yomi");
    assert_eq!(h["version"], RECORD_VERSION);
    assert_eq!(h["kind"], "match");
    assert_eq!(h["seed"], 3);
    assert_eq!(h["shard"], "0/1");
}

#[test]
fn json_record_resumes_after_a_cut_line() {
    let path = temp("cut.jsonl");
    let mut r = Recorder::create(&path, &header(1)).unwrap();
    assert_eq!(r.format(), RecordFormat::Json);
    r.json_game(&line(0, GameResult::Win)).unwrap();
    r.json_game(&line(1, GameResult::Draw)).unwrap();
    let mut forfeit = line(2, GameResult::Loss);
    forfeit.forfeit = Some(GameForfeit {
        game: 2,
        agent: Seat::A,
        reason: "crash".into(),
        detail: "exit 1".into(),
    });
    r.json_game(&forfeit).unwrap();
    // A JSON recorder takes no GGF game.
    let g = ggf::Record::new(Othello::new());
    assert!(matches!(
        r.ggf_game(g, 0, 3, ["a", "b"], None, None),
        Err(RecordError::Format { .. })
    ));
    r.flush().unwrap();
    drop(r);
    // A kill cut the next line short.
    let mut text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 4);
    text.push_str("{\"match\":0,\"ind");
    std::fs::write(&path, &text).unwrap();

    let (mut r, mut prior) = Recorder::resume(&path, &header(1)).unwrap();
    assert_eq!(prior.count(), 3);
    let (games, forfeits) = prior.take(0);
    assert_eq!(
        games,
        vec![
            (0, GameResult::Win),
            (1, GameResult::Draw),
            (2, GameResult::Loss)
        ]
    );
    assert_eq!(forfeits.len(), 1);
    assert_eq!(forfeits[0].reason, "crash");
    assert_eq!(prior.take(1), (vec![], vec![]));
    r.json_game(&line(3, GameResult::Win)).unwrap();
    r.flush().unwrap();
    drop(r);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(!text.contains("\"ind\n"), "the cut line is dropped");
    let (_, prior) = Recorder::resume(&path, &header(1)).unwrap();
    assert_eq!(prior.count(), 4);
}

#[test]
fn another_runs_or_a_broken_record_is_refused() {
    let path = temp("other.jsonl");
    let mut r = Recorder::create(&path, &header(1)).unwrap();
    r.json_game(&line(0, GameResult::Win)).unwrap();
    r.json_game(&line(0, GameResult::Loss)).unwrap();
    r.flush().unwrap();
    drop(r);
    let err = Recorder::resume(&path, &header(2)).unwrap_err().to_string();
    assert!(
        err.contains("different run: its seed is 1, this run's is 2"),
        "{err}"
    );
    let err = Recorder::resume(&path, &header(1)).unwrap_err().to_string();
    assert!(
        err.ends_with("line 3: game 0 is recorded twice with different results"),
        "{err}"
    );
    std::fs::write(&path, "").unwrap();
    let err = Recorder::resume(&path, &header(1)).unwrap_err();
    assert!(matches!(err, RecordError::File { .. }), "{err}");
    std::fs::write(&path, "{}\nnot json\n").unwrap();
    let err = Recorder::resume(&path, &header(1)).unwrap_err().to_string();
    assert!(err.contains("the record is of a different run"), "{err}");
    std::fs::write(&path, format!("{}\nnot json\n", header(1))).unwrap();
    let err = Recorder::resume(&path, &header(1)).unwrap_err().to_string();
    assert!(err.contains("line 2: not a game"), "{err}");
    let missing = temp("missing.jsonl");
    let err = Recorder::resume(&missing, &header(1)).unwrap_err();
    assert!(
        matches!(err, RecordError::Io { action: "open", .. }),
        "{err}"
    );
}

#[test]
fn ggf_record_resumes_with_results_and_forfeits() {
    let path = temp("games.GGF");
    assert_eq!(RecordFormat::of(&path), RecordFormat::Ggf);
    let mut r = Recorder::create(&path, &header(5)).unwrap();
    // Game 0: A black plays a whole game; game 1: B black, A forfeits on time.
    // A whole game: always the first legal move.
    let mut moves = Vec::new();
    let mut pos = Othello::new();
    while !pos.is_over() {
        let mv = pos.legal_moves()[0];
        moves.push(mv);
        pos = pos.play_unchecked(mv);
    }
    let mut g0 = ggf::Record::from_line(Othello::new(), &moves).unwrap();
    g0.set_result_from_board();
    let margin = g0.result.unwrap().black_margin;
    r.ggf_game(g0, 0, 0, ["alpha", "beta"], None, None).unwrap();
    let timeout = GameForfeit {
        game: 1,
        agent: Seat::A,
        reason: "timeout".into(),
        detail: "took 2 s\nof 1".into(),
    };
    let g1 = ggf::Record::from_line(Othello::new(), &moves[..4]).unwrap();
    r.ggf_game(g1, 0, 1, ["alpha", "beta"], Some(&timeout), None)
        .unwrap();
    assert!(r.json_game(&line(2, GameResult::Win)).is_err());
    r.flush().unwrap();
    let run = r.run().to_string();
    drop(r);
    let text = std::fs::read_to_string(&path).unwrap();
    let games = ggf::parse_file(&text).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].black.as_deref(), Some("alpha"));
    assert_eq!(games[1].black.as_deref(), Some("beta"));
    // A (white in game 1) lost on time: white loses by 64.
    assert_eq!(games[1].result.unwrap().black_margin, 64.0);
    assert_eq!(games[1].result.unwrap().ending, Some(ggf::Ending::Timeout));
    assert!(text.contains(&format!("YR[{run} 0 1]")));
    assert!(text.contains("YF[a|timeout|took 2 s of 1]"));

    let (_, mut prior) = Recorder::resume(&path, &header(5)).unwrap();
    let (games, forfeits) = prior.take(0);
    let a0 = if margin > 0.0 {
        GameResult::Win
    } else if margin < 0.0 {
        GameResult::Loss
    } else {
        GameResult::Draw
    };
    assert_eq!(games, vec![(0, a0), (1, GameResult::Loss)]);
    // The detail is kept on one line.
    let one_line = GameForfeit {
        detail: "took 2 s of 1".into(),
        ..timeout
    };
    assert_eq!(forfeits, vec![one_line]);
    let err = Recorder::resume(&path, &header(6)).unwrap_err().to_string();
    assert!(
        err.contains("line 1: the record is of a different run"),
        "{err}"
    );
    // A GGF file that yomi did not write.
    let plain = ggf::Record::from_line(Othello::new(), &moves[..2]).unwrap();
    std::fs::write(&path, format!("{plain}\n")).unwrap();
    let err = Recorder::resume(&path, &header(5)).unwrap_err().to_string();
    assert!(err.contains("without yomi's YR tag"), "{err}");
}

/// The position after the first `n` moves of the game that always plays the first legal move,
/// and those moves.
fn first_moves(n: usize) -> (Vec<yomi_othello::Move>, Othello) {
    let mut moves = Vec::new();
    let mut pos = Othello::new();
    while moves.len() < n {
        let mv = pos.legal_moves()[0];
        moves.push(mv);
        pos = pos.play_unchecked(mv);
    }
    (moves, pos)
}

#[test]
fn adjudicated_games_are_recorded_and_resumed_in_json_and_ggf() {
    let (moves, pos) = first_moves(50);
    let exact = GameAdjudication {
        rule: "exact=14".into(),
        position: pos.to_string(),
        result: GameResult::Loss,
        margin: Some(-6),
    };
    let wld = GameAdjudication {
        rule: "wld=14".into(),
        position: pos.to_string(),
        result: GameResult::Win,
        margin: None,
    };
    // JSON lines: the field, read back as adjudicated games.
    let path = temp("adjudicated.jsonl");
    let mut r = Recorder::create(&path, &header(7)).unwrap();
    let mut g0 = line(0, GameResult::Loss);
    g0.adjudication = Some(exact.clone());
    r.json_game(&g0).unwrap();
    r.json_game(&line(1, GameResult::Win)).unwrap();
    r.flush().unwrap();
    drop(r);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains(r#""adjudication":{"rule":"exact=14","position":"#),
        "{text}"
    );
    assert!(text.contains(r#""result":"loss","margin":-6}"#), "{text}");
    assert_eq!(text.matches("adjudication").count(), 1);
    let (_, mut prior) = Recorder::resume(&path, &header(7)).unwrap();
    assert_eq!(prior.take_adjudicated(0), vec![0]);
    assert_eq!(prior.take_adjudicated(1), Vec::<u64>::new());

    // GGF: the agreed score for black, the comment and the YA tag, read back.
    let path = temp("adjudicated.ggf");
    let mut r = Recorder::create(&path, &header(7)).unwrap();
    let record = |n| ggf::Record::from_line(Othello::new(), &moves[..n]).unwrap();
    // Game 0: A is black and loses by 6; game 1: A is white and wins (wld).
    r.ggf_game(record(50), 0, 0, ["alpha", "beta"], None, Some(&exact))
        .unwrap();
    r.ggf_game(record(50), 0, 1, ["alpha", "beta"], None, Some(&wld))
        .unwrap();
    r.flush().unwrap();
    drop(r);
    let text = std::fs::read_to_string(&path).unwrap();
    let games = ggf::parse_file(&text).unwrap();
    let result = |g: &ggf::Record| g.result.unwrap();
    assert_eq!(result(&games[0]).black_margin, -6.0);
    assert_eq!(result(&games[0]).ending, Some(ggf::Ending::MutualScore));
    assert_eq!(result(&games[1]).black_margin, -1.0);
    assert!(text.contains("RE[-6.000:s]"), "{text}");
    let comment = format!(
        "C[adjudicated by exact=14 at {} empties: with perfect play white wins by 6 discs]",
        pos.empties().count()
    );
    assert!(text.contains(&comment), "{text}");
    assert!(text.contains("YA[exact=14 -6]"), "{text}");
    assert!(text.contains("YA[wld=14 -]"), "{text}");
    assert!(text.contains("white wins (win/loss/draw solve"), "{text}");
    assert_eq!(games[0].moves().len(), 50);
    assert_eq!(games[0].position(), pos);
    let (_, mut prior) = Recorder::resume(&path, &header(7)).unwrap();
    let (games, _) = prior.take(0);
    assert_eq!(games, vec![(0, GameResult::Loss), (1, GameResult::Win)]);
    assert_eq!(prior.take_adjudicated(0), vec![0, 1]);
    // A YA tag without an agreed score is not yomi's.
    let text = text.replace(":s]", "]");
    std::fs::write(&path, text).unwrap();
    let err = Recorder::resume(&path, &header(7)).unwrap_err().to_string();
    assert!(err.contains("bad YA tag"), "{err}");
}
