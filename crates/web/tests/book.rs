//! The server's opening book (`ServeConfig::book`): its moves in the position views of
//! `/api/state`, `/api/move` and `/api/import`, its summary in `/api/games`, and
//! `othello:book=server`; without a book, `book=server` is refused.

mod common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;

use common::{assert_error, config, get, post, post_ok, small_book, start};
use serde_json::{json, Value};
use yomi_core::Game;
use yomi_othello::{Move, Othello};
use yomi_othello_search::Book;
use yomi_web::ServeConfig;

/// The small book of [`common::small_book`], once for this file.
fn book() -> &'static (PathBuf, Book) {
    static BOOK: OnceLock<(PathBuf, Book)> = OnceLock::new();
    BOOK.get_or_init(|| small_book("api"))
}

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        start(ServeConfig {
            book: Some(book().0.clone()),
            ..config()
        })
    })
}

fn state(moves: &[&str]) -> Value {
    post_ok(
        server(),
        "/api/state",
        &json!({"game": "othello", "moves": moves}),
    )
}

/// The book's moves of `pos` as `(move, value, leaf)`, best first.
fn expected(pos: &Othello) -> Vec<(String, i64, bool)> {
    book()
        .1
        .moves(pos)
        .iter()
        .map(|m| (m.mv.to_string(), i64::from(m.value), m.leaf))
        .collect()
}

fn shown(view: &Value) -> Vec<(String, i64, bool)> {
    view["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
                m["leaf"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn games_name_the_book() {
    let games = get(server(), "/api/games").json();
    let info = &games["book"];
    assert_eq!(info["positions"].as_u64().unwrap() as usize, book().1.len());
    assert_eq!(info["builtin_weights"], json!(true));
    assert_eq!(
        info["name"].as_str().unwrap(),
        book().0.file_name().unwrap().to_str().unwrap()
    );
    // Without a book: null.
    let plain = start(config());
    assert_eq!(get(plain, "/api/games").json()["book"], Value::Null);
    assert_eq!(
        post_ok(plain, "/api/state", &json!({"game": "othello"}))["book"],
        Value::Null
    );
}

#[test]
fn positions_in_the_book_show_its_moves_and_values() {
    for line in ["", "f5", "f5 d6", "d3 c3", "f5 f6 e6"] {
        let moves: Vec<&str> = line.split_whitespace().collect();
        let pos = Othello::new().play_line(line).unwrap();
        let view = &state(&moves)["book"];
        assert!(view.is_object(), "{line:?} is in the book: {view}");
        let want = expected(&pos);
        assert!(!want.is_empty());
        assert_eq!(shown(view), want, "{line:?}");
        let entry = book().1.get(&pos).unwrap();
        assert_eq!(view["value"].as_i64().unwrap(), i64::from(entry.value));
        assert_eq!(view["lines"].as_u64().unwrap(), u64::from(entry.lines));
        // The best moves are flagged, and each move is on its cell.
        let top = want[0].1;
        for m in view["moves"].as_array().unwrap() {
            assert_eq!(
                m["best"].as_bool().unwrap(),
                m["value"].as_i64() == Some(top)
            );
            let mv: Move = m["move"].as_str().unwrap().parse().unwrap();
            assert_eq!(
                m["cell"].as_u64().map(|c| c as usize),
                mv.square().map(|s| s.index())
            );
            assert!(m["text"].as_str().unwrap().starts_with(['+', '-']));
        }
    }
    // The start's moves are the four symmetric ones, whichever the lines took.
    assert_eq!(state(&[])["book"]["moves"].as_array().unwrap().len(), 4);
    // Out of the book, and in other games: null.
    assert_eq!(state(&["e6", "f4", "e3", "f6", "g5"])["book"], Value::Null);
    assert_eq!(
        post_ok(server(), "/api/state", &json!({"game": "tictactoe"}))["book"],
        Value::Null
    );
}

#[test]
fn agents_play_from_the_servers_book_and_every_view_carries_it() {
    // `book=server` plays a best book move, instantly, and says so.
    let answer = post_ok(
        server(),
        "/api/move",
        &json!({"game": "othello", "moves": ["f5"], "agent": "othello:book=server", "seed": 3}),
    );
    let pos = Othello::new().play_line("f5").unwrap();
    let best: Vec<String> = expected(&pos)
        .iter()
        .filter(|m| m.1 == expected(&pos)[0].1)
        .map(|m| m.0.clone())
        .collect();
    let chosen = answer["move"].as_str().unwrap().to_string();
    assert!(best.contains(&chosen), "{chosen} not among {best:?}");
    let why = answer["explanation"].to_string();
    assert!(why.contains("book"), "{why}");
    // The position after it is in the book too, and its view says so.
    let after = pos.play_line(&chosen).unwrap();
    assert_eq!(
        answer["state"]["book"].is_object(),
        book().1.get(&after).is_some()
    );
    // Nested specs may name it too.
    post_ok(
        server(),
        "/api/move",
        &json!({"game": "othello", "agent": "blunder:agent=(othello:book=server)"}),
    );
    // An imported record's view carries the book.
    let imported = post_ok(
        server(),
        "/api/import",
        &json!({"game": "othello", "format": "line", "text": "f5 d6"}),
    );
    assert_eq!(
        shown(&imported["book"]),
        expected(&Othello::new().play_line("f5 d6").unwrap())
    );
    // Still no file of the client's choosing.
    assert_error(
        &post(
            server(),
            "/api/move",
            &json!({"game": "othello", "agent": "othello:book=/etc/passwd"}),
        ),
        400,
        "or server (the server's book)",
    );
    // Without a book, `server` names nothing.
    let plain = start(config());
    assert_error(
        &post(
            plain,
            "/api/move",
            &json!({"game": "othello", "agent": "othello:book=server"}),
        ),
        400,
        "the server has no book",
    );
}
