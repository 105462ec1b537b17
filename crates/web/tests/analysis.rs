//! The analysis, record and set-up endpoints: known values, every class of bad input, and an
//! analysis whose client goes away.

mod common;

use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{assert_error, config, post, post_ok, start};
use serde_json::{json, Value};
use yomi_core::{Game, Rng};
use yomi_othello::{Move, Othello};
use yomi_web::ServeConfig;

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(config()))
}

/// FFO endgame position #1 (14 empties): black to move wins by 18 with g8.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn value_of<'a>(a: &'a Value, mv: &str) -> &'a Value {
    &a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == mv)
        .unwrap_or_else(|| panic!("no {mv} in {a}"))["value"]
}

/// A seeded random Othello game's moves up to (not including) its first pass, and the pass.
fn moves_to_a_pass() -> Vec<String> {
    for seed in 0..500 {
        let mut rng = Rng::seed_from_u64(seed);
        let mut pos = Othello::new();
        let mut moves = Vec::new();
        while !pos.is_over() {
            let legal = pos.legal_moves();
            if legal[0] == Move::Pass {
                return moves;
            }
            let mv = legal[rng.below(legal.len())];
            moves.push(mv.to_string());
            pos = pos.play_unchecked(mv);
        }
    }
    panic!("no pass in 500 random games");
}

#[test]
fn small_games_are_analysed_exactly() {
    let addr = server();
    // Tic-tac-toe: every opening move draws; the best line is a whole drawn game.
    let a = post_ok(addr, "/api/analyse", &json!({"game": "tictactoe"}));
    assert_eq!(a["unit"], "result");
    assert_eq!(a["analyst"], "perfect");
    assert_eq!(a["moves"].as_array().unwrap().len(), 9);
    for m in a["moves"].as_array().unwrap() {
        assert_eq!(m["value"]["kind"], "result");
        assert_eq!(m["value"]["text"], "draw", "{m}");
        assert_eq!(m["loss"], Value::Null, "results are not discs: {m}");
    }
    assert_eq!(a["best"].as_array().unwrap().len(), 9);
    assert_eq!(a["value"]["value"], 0.0);
    assert_eq!(a["value_first"], 0.0);
    let line = texts(&a["line"]);
    assert_eq!(line.len(), 9, "{line:?}");
    let end = post_ok(
        addr,
        "/api/state",
        &json!({"game": "tictactoe", "moves": line}),
    );
    assert_eq!(end["outcome"]["winner"], Value::Null, "perfect play draws");

    // o to move in oo./xx./...: (2,0) wins at once; (2,2) leaves x its row.
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "tictactoe", "moves": ["(0,0)", "(0,1)", "(1,0)", "(1,1)"]}),
    );
    assert_eq!(value_of(&a, "(2,0)")["text"], "win");
    assert_eq!(texts(&a["best"]), ["(2,0)"]);
    assert_eq!(value_of(&a, "(2,2)")["text"], "loss");
    assert_eq!(a["value_first"], 1.0);
    assert_eq!(texts(&a["line"]), ["(2,0)"]);

    // The stone game: from 15, taking 3 wins and the others lose; x to move after 3 loses.
    let a = post_ok(addr, "/api/analyse", &json!({"game": "nim"}));
    assert_eq!(value_of(&a, "3")["text"], "win");
    assert_eq!(value_of(&a, "1")["text"], "loss");
    assert_eq!(value_of(&a, "2")["value"], -1.0);
    assert_eq!(texts(&a["best"]), ["3"]);
    let line = texts(&a["line"]);
    let taken: u32 = line.iter().map(|m| m.parse::<u32>().unwrap()).sum();
    assert_eq!(taken, 15, "the line plays to the end: {line:?}");
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "nim", "moves": ["3"]}),
    );
    assert_eq!(a["value"]["text"], "loss");
    assert_eq!(a["value_first"], 1.0, "first is winning");
    // A finished game: its result, no moves.
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "nim", "moves": ["3", "3", "3", "3", "3"]}),
    );
    assert_eq!(a["moves"], json!([]));
    assert_eq!(a["value_first"], 1.0, "first took the last stone");
}

#[test]
fn othello_values_are_estimates_then_solves() {
    let addr = server();
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "othello", "time": 0.2}),
    );
    assert_eq!(a["unit"], "discs");
    assert_eq!(a["analyst"], "othello:time=0.2,probcut=off,root=all");
    assert_eq!(a["time"], 0.2);
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    // The four opening moves are symmetric: one estimate, at one depth.
    for m in moves {
        assert_eq!(m["value"]["kind"], "estimate");
        assert_eq!(m["loss"], 0.0, "{m}");
        assert_eq!(m["value"]["value"], moves[0]["value"]["value"]);
        assert!(m["value"]["depth"].as_u64().unwrap() >= 1, "{m}");
        assert!(m["cell"].as_u64().unwrap() < 64);
    }
    assert_eq!(a["best"].as_array().unwrap().len(), 4);
    let line = texts(&a["line"]);
    assert!(line.len() >= 2, "{line:?}");
    // The line is legal.
    post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello", "moves": line}),
    );

    // FFO #1: an exact solve. g8 wins by 18, and the line starts with it.
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "othello", "start": FFO_1, "time": 0.5}),
    );
    let g8 = value_of(&a, "g8");
    assert_eq!(g8["kind"], "exact");
    assert_eq!(g8["value"], 18.0);
    assert_eq!(g8["text"], "+18");
    assert_eq!(texts(&a["best"]), ["g8"]);
    assert_eq!(a["value_first"], 18.0);
    let line = texts(&a["line"]);
    assert_eq!(line[0], "g8");
    // Every other move is worse, and exact too; its loss is the difference (g8 loses none).
    assert_eq!(value_of(&a, "g8").get("upper_bound"), Some(&json!(false)));
    for m in a["moves"].as_array().unwrap() {
        assert_eq!(m["value"]["kind"], "exact");
        let v = m["value"]["value"].as_f64().unwrap();
        assert!(v <= 18.0);
        assert_eq!(m["loss"].as_f64(), Some(18.0 - v), "{m}");
    }
    // A position whose mover must pass: the pass is valued by what follows.
    let mut moves = moves_to_a_pass();
    moves.push("PA".into());
    let before = moves[..moves.len() - 1].to_vec();
    let a = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "othello", "moves": before, "time": 0.1}),
    );
    assert_eq!(a["moves"].as_array().unwrap().len(), 1);
    assert_eq!(a["moves"][0]["move"], "PA");
    assert_eq!(a["moves"][0]["cell"], Value::Null);
    assert!(a["value"]["value"].is_number());
    assert_eq!(texts(&a["line"])[0], "PA");
}

#[test]
fn set_up_positions_are_checked() {
    let addr = server();
    // Tic-tac-toe: x to move (o has one more mark).
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "tictactoe", "start": "x...o...o", "moves": ["(2,0)"]}),
    );
    assert_eq!(s["start"], "x...o...o");
    assert_eq!(s["position"], "x.x.o...o");
    assert_eq!(
        s["last"],
        json!({"move": "(2,0)", "cell": 2, "changed": []})
    );
    // An agent plays from a set-up position too.
    let m = post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "start": "x...o...o", "agent": "perfect", "seed": 1}),
    );
    assert!(
        ["(2,0)", "(0,2)"].contains(&m["move"].as_str().unwrap()),
        "{m}"
    );
    assert_eq!(m["state"]["start"], "x...o...o");
    // Othello: the last move and the discs it flipped.
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello", "moves": ["f5"]}),
    );
    assert_eq!(
        s["last"],
        json!({"move": "f5", "cell": 37, "changed": [36]})
    );
    assert_eq!(s["start"], Othello::new().to_string());
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello", "start": FFO_1}),
    );
    assert_eq!(s["to_move"], "first");
    assert_eq!(s["board"]["counts"], json!([27, 23]));
    // The stone game.
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "nim", "start": "7:second", "moves": ["2"]}),
    );
    assert_eq!(s["position"], "5:first");
    assert_eq!(s["last"]["changed"], json!([5, 6]));

    let refused = |game: &str, start: &str, needle: &str| {
        for path in ["/api/state", "/api/analyse", "/api/export"] {
            let r = post(addr, path, &json!({"game": game, "start": start}));
            assert_error(&r, 400, needle);
            assert_error(&r, 400, "bad position");
        }
    };
    refused("tictactoe", "ooo......", "impossible counts");
    refused("tictactoe", "ooo/xx./x..", "o has three in a line");
    refused("tictactoe", "x...o...", "expected 9 cells");
    refused("nim", "20:first", "at most 15");
    refused("nim", "many", "");
    let empty_centre = format!("{} X", "-".repeat(64));
    refused("othello", &empty_centre, "centre squares");
    let mut centre: Vec<char> = FFO_1.chars().collect();
    centre[27] = '-';
    refused(
        "othello",
        &centre.into_iter().collect::<String>(),
        "d4 empty",
    );
    refused("othello", "XO", "expected 64 squares");
    refused("othello", &FFO_1.replace(" X", " Q"), "side to move");
    // A mover with no move while the other side has one.
    let mut pass = moves_to_a_pass();
    let pos = pass
        .iter()
        .fold(Othello::new(), |p, m| p.play(m.parse().unwrap()).unwrap());
    refused("othello", &pos.to_string(), "has no legal move");
    pass.push("PA".into());
    // But the same position is fine reached by moves.
    post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello", "moves": pass}),
    );
    refused("othello", &"X".repeat(300), "longer than");
}

#[test]
fn records_go_out_and_come_back() {
    let addr = server();
    for (game, moves, line) in [
        (
            "othello",
            json!(["f5", "d6", "c3", "d3", "c4"]),
            "f5d6c3d3c4",
        ),
        (
            "tictactoe",
            json!(["(1,1)", "(0,0)", "(2,2)"]),
            "(1,1) (0,0) (2,2)",
        ),
        ("nim", json!(["3", "1", "2"]), "3 1 2"),
    ] {
        let e = post_ok(
            addr,
            "/api/export",
            &json!({"game": game, "moves": moves, "format": "line"}),
        );
        assert_eq!(e["text"], line);
        assert_eq!(e["start"], Value::Null);
        let i = post_ok(addr, "/api/import", &json!({"game": game, "text": line}));
        assert_eq!(i["moves"], moves, "{game}");
    }
    // Othello lines in other spellings, and a pass.
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "othello", "text": " F5 d6\nC3d3 "}),
    );
    assert_eq!(i["moves"], json!(["f5", "d6", "c3", "d3"]));
    let mut with_pass = moves_to_a_pass();
    with_pass.push("PA".into());
    let text: String = with_pass.concat();
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "othello", "text": text}),
    );
    assert_eq!(i["moves"].as_array().unwrap().len(), with_pass.len());
    assert_eq!(i["last"]["move"], "PA");
    let e = post_ok(
        addr,
        "/api/export",
        &json!({"game": "othello", "moves": with_pass}),
    );
    assert_eq!(e["text"], text);
    // From a set-up position: the start comes with the line, and goes back with it.
    let e = post_ok(
        addr,
        "/api/export",
        &json!({"game": "tictactoe", "start": "x...o...o", "moves": ["(2,0)"]}),
    );
    assert_eq!(e["start"], "x...o...o");
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "tictactoe", "start": "x...o...o", "text": e["text"]}),
    );
    assert_eq!(i["position"], "x.x.o...o");

    // Bad records.
    let bad = |game: &str, text: &str, status: u16, needle: &str| {
        let r = post(addr, "/api/import", &json!({"game": game, "text": text}));
        assert_error(&r, status, needle);
    };
    bad("othello", "f5d6zz", 400, "move 3");
    bad("othello", "f5f5", 400, "move 2 (f5) is illegal");
    bad("tictactoe", "(1,1) (1,1)", 400, "move 2 ((1,1)) is illegal");
    bad("tictactoe", "(1,1) (9,9)", 400, "move 2");
    bad("nim", "3 4", 400, "move 2 \"4\"");
    bad("nim", "3 3 3 3 3 1", 400, "move 6 (1) is illegal");
    bad("nim", &"1 ".repeat(16), 400, "too many moves");
    bad("chess", "e4", 404, "unknown game");
    let r = post(
        addr,
        "/api/import",
        &json!({"game": "tictactoe", "text": "", "format": "ggf"}),
    );
    assert_error(&r, 400, "written as line");
    let r = post(addr, "/api/export", &json!({"game": "nim", "moves": ["4"]}));
    assert_error(&r, 400, "bad move");
    let r = post(addr, "/api/import", &json!({"game": "nim"}));
    assert_error(&r, 422, "text");
    // An empty line is the start position.
    let i = post_ok(addr, "/api/import", &json!({"game": "nim", "text": "  "}));
    assert_eq!(i["position"], "15:first");
}

#[test]
fn othello_records_go_out_and_come_back_as_ggf() {
    let addr = server();
    let mut game = moves_to_a_pass();
    game.push("PA".into());
    let e = post_ok(
        addr,
        "/api/export",
        &json!({"game": "othello", "moves": game, "format": "ggf"}),
    );
    assert_eq!(e["format"], "ggf");
    let text = e["text"].as_str().unwrap();
    assert!(text.starts_with("(;GM[Othello]"), "{text}");
    assert!(
        text.contains("BO[8 ---------------------------O*------*O--------------------------- *]")
    );
    assert!(text.contains("[PA]"), "the pass is written: {text}");
    assert!(text.ends_with(";)"));
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "othello", "text": text, "format": "ggf"}),
    );
    assert_eq!(i["moves"], json!(game));
    assert_eq!(i["start"], Othello::new().to_string());
    // A finished game carries its result, a set-up start its board.
    let e = post_ok(
        addr,
        "/api/export",
        &json!({"game": "othello", "start": FFO_1, "moves": ["g8"], "format": "ggf"}),
    );
    let text = e["text"].as_str().unwrap();
    assert!(text.contains("BO[8 --*****--OOO**-O-"), "{text}");
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "othello", "text": text, "format": "ggf"}),
    );
    assert_eq!(i["start"], FFO_1);
    assert_eq!(i["moves"], json!(["g8"]));
    // A record written elsewhere (NBoard style: upper-case squares, evaluations, times).
    let nboard = "(;GM[Othello]PC[NBoard]PB[me]PW[Edax]RE[?]TI[5:00]TY[8]\
                  BO[8 ---------------------------O*------*O--------------------------- *]\
                  B[F5//1.2]W[D6/-0.50/3.1]B[C3];)";
    let i = post_ok(
        addr,
        "/api/import",
        &json!({"game": "othello", "text": nboard, "format": "ggf"}),
    );
    assert_eq!(i["moves"], json!(["f5", "d6", "c3"]));
    // Bad records: the reader's reason; a start board the page does not play from.
    let bad = |text: &str, needle: &str| {
        let r = post(
            addr,
            "/api/import",
            &json!({"game": "othello", "text": text, "format": "ggf"}),
        );
        assert_error(&r, 400, needle);
        assert_error(&r, 400, "cannot read the ggf record");
    };
    bad("f5d6", "");
    bad("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F5];)", "");
    bad("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]", "");
    let empty = format!("(;GM[Othello]TY[8]BO[8 {} *];)", "-".repeat(64));
    bad(&empty, "centre squares");
    // Only Othello has GGF.
    let r = post(
        addr,
        "/api/export",
        &json!({"game": "nim", "moves": [], "format": "ggf"}),
    );
    assert_error(&r, 400, "15 stones records are written as line");
}

#[test]
fn analysis_bad_input() {
    let addr = server();
    let bad = |body: Value, status: u16, needle: &str| {
        assert_error(&post(addr, "/api/analyse", &body), status, needle);
    };
    for time in [json!(0), json!(-1), json!(0.6), json!(1e300)] {
        bad(
            json!({"game": "othello", "time": time}),
            400,
            "bad parameter time",
        );
    }
    bad(json!({"game": "othello", "time": "1"}), 422, "");
    bad(json!({"game": "chess"}), 404, "unknown game");
    bad(
        json!({"game": "othello", "moves": ["f5", "f5"]}),
        400,
        "illegal move",
    );
    bad(json!({"game": "othello", "moves": ["z9"]}), 400, "bad move");
    bad(
        json!({"game": "othello", "agent": "random"}),
        422,
        "unknown field",
    );
    bad(json!({"moves": []}), 422, "game");
}

/// Sends a request and closes the connection without reading the answer.
fn send_and_leave(addr: SocketAddr, body: &Value, after: Duration) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    let head = format!(
        "POST /api/analyse HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    std::thread::sleep(after);
    drop(stream);
}

/// The page aborts an analysis when the position changes: the server sees the connection
/// close and sets the analysis's stop flag, so the worker is free again long before the
/// analysis would have ended (its best line is not searched; searches that watch the flag stop
/// at once).
#[test]
fn an_abandoned_analysis_frees_its_worker() {
    let addr = start(ServeConfig {
        think_time: Duration::from_secs(2),
        agent_workers: 1,
        queue_wait: Duration::from_secs(10),
        ..config()
    });
    // Unhindered, the analysis takes up to its 2 s and then up to 2 s more for the best line.
    let clock = Instant::now();
    let full = post_ok(
        addr,
        "/api/analyse",
        &json!({"game": "othello", "moves": ["f5"], "time": 2}),
    );
    let unhindered = clock.elapsed();
    assert!(full["line"].as_array().unwrap().len() > 3, "{full}");

    send_and_leave(
        addr,
        &json!({"game": "othello", "moves": ["f5"], "time": 2}),
        Duration::from_millis(300),
    );
    let left = Instant::now();
    // The one worker is busy until the abandoned analysis stops; this waits for it.
    let next = post_ok(addr, "/api/analyse", &json!({"game": "tictactoe"}));
    let waited = left.elapsed();
    assert_eq!(next["moves"].as_array().unwrap().len(), 9);
    assert!(
        waited < Duration::from_millis(2_600) && waited + Duration::from_millis(800) < unhindered,
        "the worker stayed busy for {waited:?} after its client left (unhindered: {unhindered:?})"
    );
}

#[test]
fn games_describe_their_boards_editors_and_analysts() {
    let addr = server();
    let games = common::get(addr, "/api/games").json();
    let game = |id: &str| {
        games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap()
            .clone()
    };
    let o = game("othello");
    assert_eq!(o["look"], "discs");
    assert_eq!(o["analyst"], "othello");
    assert_eq!(o["unit"], "discs");
    assert_eq!(o["coordinates"]["columns"].as_array().unwrap().len(), 8);
    assert_eq!(o["coordinates"]["rows"][7], "8");
    assert_eq!(o["coordinates"]["cells"][37], "f5");
    assert_eq!(
        o["setup"],
        json!({"kind": "grid", "pieces": ["-", "X", "O"], "side": ["X", "O"]})
    );
    assert_eq!(texts(&o["formats"]), ["line", "ggf"]);
    let t = game("tictactoe");
    assert_eq!(t["look"], "marks");
    assert_eq!(t["analyst"], "perfect");
    assert_eq!(t["unit"], "result");
    assert_eq!(t["coordinates"]["cells"][5], "(2,1)");
    assert_eq!(t["setup"]["side"], Value::Null);
    let n = game("nim");
    assert_eq!(n["look"], "stones");
    assert_eq!(n["coordinates"], Value::Null);
    assert_eq!(n["setup"], json!({"kind": "stones", "most": 15}));
    assert_eq!(texts(&n["formats"]), ["line"]);
    // Every game's editor round-trips its own start position.
    for g in games["games"].as_array().unwrap() {
        let s = post_ok(
            addr,
            "/api/state",
            &json!({"game": g["id"], "start": g["start"]}),
        );
        assert_eq!(s["position"], g["start"]);
    }
}

#[test]
fn new_endpoints_refuse_bad_bodies() {
    let addr = server();
    let raw = |path: &str, ct: Option<&str>, body: &str| {
        common::request(addr, "POST", path, ct, body.as_bytes())
    };
    let json_ct = Some("application/json");
    for path in ["/api/analyse", "/api/export", "/api/import"] {
        assert_error(&raw(path, json_ct, "{bad"), 400, "json");
        assert_error(&raw(path, None, r#"{"game": "nim"}"#), 415, "content-type");
        assert_error(&raw(path, json_ct, "[1, 2]"), 422, "");
        assert_error(
            &raw(path, json_ct, r#"{"game": "nim", "text": "", "colour": 1}"#),
            422,
            "unknown field",
        );
        let big = format!(r#"{{"game": "nim", "text": "{}"}}"#, "1 ".repeat(10_000));
        assert_error(&raw(path, json_ct, &big), 413, "length limit");
        assert_error(&common::get(addr, path), 405, "not allowed");
    }
}

#[test]
fn analyses_share_the_agent_workers() {
    let addr = start(ServeConfig {
        think_time: Duration::from_millis(800),
        agent_workers: 1,
        queue_wait: Duration::from_millis(50),
        ..config()
    });
    let slow = std::thread::spawn(move || {
        post(
            addr,
            "/api/analyse",
            &json!({"game": "othello", "moves": ["f5"], "time": 0.8}),
        )
    });
    std::thread::sleep(Duration::from_millis(200));
    assert_error(
        &post(addr, "/api/analyse", &json!({"game": "tictactoe"})),
        503,
        "busy",
    );
    assert_error(
        &post(
            addr,
            "/api/move",
            &json!({"game": "tictactoe", "agent": "random"}),
        ),
        503,
        "busy",
    );
    assert_eq!(slow.join().unwrap().status, 200);
    post_ok(addr, "/api/analyse", &json!({"game": "tictactoe"}));
}
