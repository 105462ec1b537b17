//! Othello on 4x4 and 6x6 through the API: the game list, states, moves, set-ups, the
//! analysis and the 4x4 tree browser.

mod common;

use std::net::SocketAddr;
use std::sync::OnceLock;

use common::{assert_error, config, get, post, post_ok, start};
use serde_json::{json, Value};

fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(config()))
}

fn game<'a>(games: &'a Value, id: &str) -> &'a Value {
    games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap()
}

#[test]
fn small_boards_are_listed_with_their_grids() {
    let games = get(server(), "/api/games").json();
    let four = game(&games, "othello4");
    assert_eq!(four["title"], "Othello 4x4");
    assert_eq!(four["start"], "-----OX--XO----- X");
    assert_eq!(four["look"], "discs");
    assert_eq!(four["unit"], "discs");
    assert_eq!(four["coordinates"]["columns"], json!(["a", "b", "c", "d"]));
    assert_eq!(four["coordinates"]["cells"][5], "b2");
    let six = game(&games, "othello6");
    assert_eq!(six["title"], "Othello 6x6");
    assert_eq!(six["coordinates"]["rows"].as_array().unwrap().len(), 6);
    assert_eq!(six["coordinates"]["cells"][35], "f6");
    let names: Vec<&str> = six["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"othello"), "{names:?}");
}

#[test]
fn states_moves_and_set_ups_on_small_boards() {
    let addr = server();
    let s = post_ok(addr, "/api/state", &json!({"game": "othello6"}));
    assert_eq!(s["board"]["width"], 6);
    assert_eq!(s["board"]["cells"].as_array().unwrap().len(), 36);
    assert_eq!(s["legal"].as_array().unwrap().len(), 4);
    // c2 is square (2, 1): cell 1 * 6 + 2.
    let c2 = s["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "c2")
        .unwrap()
        .clone();
    assert_eq!(c2["cell"], 8);
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello6", "moves": ["C2"]}),
    );
    assert_eq!(s["moves"], json!(["c2"]));
    assert_eq!(s["board"]["counts"], json!([4, 1]));
    // The parallel start as a set-up position, and a board of the wrong size refused.
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello4", "start": "-----OO--XX----- X"}),
    );
    assert_eq!(s["position"], "-----OO--XX----- X");
    let r = post(
        addr,
        "/api/state",
        &json!({"game": "othello6", "start": "-----OX--XO----- X"}),
    );
    assert_error(&r, 400, "36 squares");
    let r = post(
        addr,
        "/api/state",
        &json!({"game": "othello4", "moves": ["e1"]}),
    );
    assert_eq!(r.status, 400, "{}", r.text());
    // An agent plays a legal move on 6x6; the othello agent refuses the 8x8 evaluation.
    let a = post_ok(
        addr,
        "/api/move",
        &json!({"game": "othello6", "agent": "othello:time=0.05,depth=3", "seed": 1}),
    );
    assert!(
        ["c2", "b3", "e4", "d5"].contains(&a["move"].as_str().unwrap()),
        "{a}"
    );
    let r = post(
        addr,
        "/api/move",
        &json!({"game": "othello6", "agent": "othello:eval=hand", "seed": 1}),
    );
    assert_error(&r, 400, "8x8");
}

#[test]
fn the_4x4_start_is_analysed_exactly() {
    let a = post_ok(
        server(),
        "/api/analyse",
        &json!({"game": "othello4", "time": 0.5}),
    );
    // The small boards' analyst has no ProbCut to switch off.
    assert_eq!(a["analyst"], "othello:time=0.5");
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    for m in moves {
        assert_eq!(m["value"]["kind"], "exact", "{m}");
        assert_eq!(m["value"]["value"], -10.0, "{m}");
    }
}

#[test]
fn the_4x4_tree_has_its_known_values() {
    let t = post_ok(server(), "/api/tree", &json!({"game": "othello4"}));
    let v = &t["node"]["values"];
    assert_eq!(v["minimax"]["exact"], "-1", "white wins");
    assert_eq!(v["p_first"]["exact"], "11826177601/33592320000");
    assert_eq!(v["p_draw"]["exact"], "649220629/6718464000");
    assert_eq!(v["p_second"]["exact"], "3086673209/5598720000");
    let children = t["children"].as_array().unwrap();
    assert_eq!(children.len(), 4);
    // The four first moves are symmetric: all lose, all equally.
    assert!(children.iter().all(|c| c["best_plain"] == true));
    let svg = t["node"]["svg"].as_str().unwrap();
    assert_eq!(svg.matches("<circle").count(), 4, "{svg}");
    // Down the principal variation to the end.
    let line = ["b1", "a1", "a2", "c1", "d4", "a3", "d1", "b4", "a4", "c4"];
    let t = post_ok(
        server(),
        "/api/tree",
        &json!({"game": "othello4", "moves": line}),
    );
    assert_eq!(t["node"]["outcome"]["winner"], "second", "{t}");
    assert_eq!(t["children"], json!([]));
    let r = post(server(), "/api/tree", &json!({"game": "othello6"}));
    assert_error(&r, 404, "othello4");
}
