//! The JSON API, endpoint by endpoint, and every class of bad input.

mod common;

use std::net::SocketAddr;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{assert_error, config, get, post, post_ok, request, request_to_host, start};
use serde_json::{json, Value};
use yomi_agents::Zoo;
use yomi_nim::Nim;
use yomi_othello::{Othello, Othello4, Othello6};
use yomi_tictactoe::TicTacToe;
use yomi_web::ServeConfig;

/// One server for the tests of this file that use the default test configuration.
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| start(config()))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn agent_names(games: &Value, id: &str) -> Vec<String> {
    let game = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap();
    game["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_page_and_its_assets() {
    let addr = server();
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    let csp = page.header("content-security-policy").unwrap();
    assert!(csp.contains("default-src 'self'"), "{csp}");
    let html = page.text();
    assert!(html.contains(r#"<script src="/app.js""#), "{html}");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no CDN"
    );
    let js = get(addr, "/app.js");
    assert_eq!(js.status, 200);
    assert!(js
        .header("content-type")
        .unwrap()
        .starts_with("text/javascript"));
    assert!(js.text().contains("/api/move"));
    let css = get(addr, "/app.css");
    assert!(css.header("content-type").unwrap().starts_with("text/css"));
}

#[test]
fn games_list_every_agent_of_every_zoo() {
    let addr = server();
    let r = get(addr, "/api/games");
    assert_eq!(r.status, 200);
    let games = r.json();
    let ids: Vec<&str> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["tictactoe", "nim", "othello", "othello4", "othello6"]);
    let names = |zoo: Vec<&str>| zoo.into_iter().map(String::from).collect::<Vec<_>>();
    assert_eq!(
        agent_names(&games, "tictactoe"),
        names(TicTacToe::zoo().names())
    );
    assert_eq!(agent_names(&games, "nim"), names(Nim::zoo().names()));
    assert_eq!(
        agent_names(&games, "othello"),
        names(Othello::zoo().names())
    );
    // No committed 4x4 tree file: the page does not offer `table` there.
    let four: Vec<&str> = Othello4::zoo()
        .names()
        .into_iter()
        .filter(|&n| n != "table")
        .collect();
    assert_eq!(agent_names(&games, "othello4"), names(four));
    assert_eq!(
        agent_names(&games, "othello6"),
        names(Othello6::zoo().names())
    );
    let ttt = &games["games"][0];
    assert_eq!(ttt["players"], json!(["o", "x"]));
    assert_eq!(ttt["start"], ".........");
    assert_eq!(ttt["tree"], true);
    assert_eq!(games["games"][2]["tree"], false);
    assert_eq!(games["games"][3]["tree"], true, "the 4x4 tree");
    assert_eq!(games["games"][4]["tree"], false);
    let pmc2 = ttt["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "pmc2")
        .unwrap();
    let params: Vec<&str> = pmc2["params"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(params, ["pnum", "time", "alpha"]);
    assert_eq!(pmc2["params"][0]["default"], "1000");
    assert_eq!(games["think_time"], 0.5);
    // Every agent's example spec builds and plays a move, in every game.
    for game in ["tictactoe", "nim", "othello", "othello4", "othello6"] {
        let agents = games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == game)
            .unwrap()["agents"]
            .as_array()
            .unwrap()
            .clone();
        for a in agents {
            let spec = a["example"].as_str().unwrap();
            let r = post(
                addr,
                "/api/move",
                &json!({"game": game, "moves": [], "agent": spec, "seed": 7}),
            );
            assert_eq!(r.status, 200, "{game} {spec}: {}", r.text());
        }
    }
}

#[test]
fn state_replays_a_move_list() {
    let addr = server();
    let s = post_ok(addr, "/api/state", &json!({"game": "tictactoe"}));
    assert_eq!(s["position"], ".........");
    assert_eq!(s["to_move"], "first");
    assert_eq!(s["legal"].as_array().unwrap().len(), 9);
    assert_eq!(s["legal"][4], json!({"move": "(1,1)", "cell": 4}));
    assert_eq!(s["outcome"], Value::Null);
    assert_eq!(s["board"]["kind"], "grid");

    // Other spellings of squares are accepted and normalised.
    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "tictactoe", "moves": ["1,1", " (0,0) ", "(2,2)", "(0,2)", "(2,0)", "(1,0)", "(2,1)"]}),
    );
    assert_eq!(s["moves"][0], "(1,1)");
    assert_eq!(s["position"], "xxo.oox.o");
    assert_eq!(s["outcome"], json!({"winner": "first", "text": "o wins"}));
    assert_eq!(s["legal"], json!([]));
    assert_eq!(s["board"]["counts"], json!([4, 3]));

    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "nim", "moves": ["3", "2"]}),
    );
    assert_eq!(s["position"], "10:first");
    assert_eq!(
        s["board"],
        json!({"kind": "stones", "left": 10, "total": 15})
    );
    assert_eq!(s["legal"][2], json!({"move": "3", "cell": null}));

    let s = post_ok(
        addr,
        "/api/state",
        &json!({"game": "othello", "moves": ["f5", "D6"]}),
    );
    assert_eq!(s["players"], json!(["black", "white"]));
    assert_eq!(s["moves"], json!(["f5", "d6"]));
    assert_eq!(s["board"]["width"], 8);
    assert_eq!(s["board"]["counts"], json!([3, 3]));
    assert_eq!(s["must_pass"], false);
}

#[test]
fn agents_move_explain_and_replay_by_seed() {
    let addr = server();
    let body = json!({"game": "tictactoe", "moves": ["(1,1)", "(0,0)", "(2,2)"], "agent": "ai11s:score_102=0.5", "seed": 3});
    let a = post_ok(addr, "/api/move", &body);
    // The study's worked example: the best set is (2,0) and (0,2).
    assert_eq!(strings(&a["explanation"]["best"]), ["(2,0)", "(0,2)"]);
    assert!(["(2,0)", "(0,2)"].contains(&a["move"].as_str().unwrap()));
    assert_eq!(a["seed"], 3);
    assert_eq!(a["state"]["ply"], 4);
    assert_eq!(a["explanation"]["moves"][1]["note"], "lines");
    assert_eq!(a["explanation"]["moves"][1]["cell"], 2);
    // The same seed gives the same answer.
    let b = post_ok(addr, "/api/move", &body);
    assert_eq!(a["move"], b["move"]);
    assert_eq!(a["explanation"], b["explanation"]);
    // Without a seed the server draws one and says which.
    let c = post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "random"}),
    );
    assert!(c["seed"].as_u64().is_some());

    // Monte Carlo agents get the server's time cap; given limits above it are lowered.
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "pmc2:pnum=1000", "seed": 1}),
    );
    assert_eq!(d["agent"], "pmc2:pnum=1000,time=0.5");
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "pmc:time=1000000", "seed": 1}),
    );
    assert_eq!(d["agent"], "pmc:time=0.5");
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "pmc:time=0.1", "seed": 1}),
    );
    assert_eq!(d["agent"], "pmc:time=0.1");
    // Nested specs too, and the nested default.
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "nim", "agent": "blunder:p=0,agent=(mcts:iters=100)", "seed": 1}),
    );
    assert_eq!(d["agent"], "blunder:p=0,agent=(mcts:iters=100,time=0.5)");
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "nim", "agent": "blunder", "seed": 1}),
    );
    assert_eq!(d["agent"], "blunder:agent=(alphabeta:time=0.5)");
    // The othello agent's solves and tables are capped (no time limit bounds them).
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "othello", "agent": "othello:wld=40,exact=30,hash_mb=4096,time=0.01", "seed": 1}),
    );
    assert_eq!(d["agent"], "othello:wld=20,exact=18,hash_mb=64,time=0.01");
    // An agent whose default limit is within the cap keeps it.
    let d = post_ok(
        addr,
        "/api/move",
        &json!({"game": "othello", "agent": "othello", "seed": 1}),
    );
    assert_eq!(d["agent"], "othello");
    // table reads the committed data file.
    let t = post_ok(
        addr,
        "/api/move",
        &json!({"game": "nim", "agent": "table:file=data/nim15.tree"}),
    );
    assert_eq!(t["move"], "3", "15 stones: take 3");

    // The perfect agent never loses: random against perfect, many seeds, both colours.
    for seed in 0..20u64 {
        let mut moves: Vec<String> = Vec::new();
        let perfect_side = if seed % 2 == 0 { "first" } else { "second" };
        loop {
            let s = post_ok(
                addr,
                "/api/state",
                &json!({"game": "tictactoe", "moves": moves}),
            );
            if !s["outcome"].is_null() {
                let winner = &s["outcome"]["winner"];
                assert!(
                    winner.is_null() || winner == perfect_side,
                    "perfect lost: {s}"
                );
                break;
            }
            let agent = if s["to_move"] == perfect_side {
                "perfect"
            } else {
                "random"
            };
            let m = post_ok(
                addr,
                "/api/move",
                &json!({"game": "tictactoe", "moves": moves, "agent": agent, "seed": seed * 100 + moves.len() as u64}),
            );
            moves = strings(&m["state"]["moves"]);
        }
    }

    // Othello: a search agent and a pass-free opening move with its cell.
    let o = post_ok(
        addr,
        "/api/move",
        &json!({"game": "othello", "moves": ["f5"], "agent": "alphabeta:depth=3", "seed": 1}),
    );
    let cell = o["cell"].as_u64().unwrap() as usize;
    assert!(cell < 64);
    assert_eq!(o["state"]["to_move"], "first");
}

#[test]
fn thinking_is_capped_by_the_server() {
    let addr = start(ServeConfig {
        think_time: Duration::from_millis(200),
        ..config()
    });
    for (game, spec) in [
        ("othello", "mcts:iters=5000000"),
        ("othello", "pmc:pnum=1000000000,time=1000000"),
        ("othello", "minimax:depth=64"),
        ("othello", "blunder:p=0.5,agent=(alphabeta:depth=64,time=0)"),
        ("tictactoe", "pmc2:pnum=1000000000"),
    ] {
        let clock = Instant::now();
        let r = post_ok(
            addr,
            "/api/move",
            &json!({"game": game, "agent": spec, "seed": 1}),
        );
        let secs = clock.elapsed().as_secs_f64();
        assert!(secs < 1.4, "{spec} took {secs} s");
        assert!(r["agent"].as_str().unwrap().contains("time=0.2"), "{r}");
    }
}

#[test]
fn busy_workers_give_503() {
    let addr = start(ServeConfig {
        think_time: Duration::from_millis(800),
        agent_workers: 1,
        queue_wait: Duration::from_millis(50),
        ..config()
    });
    let slow = std::thread::spawn(move || {
        post(
            addr,
            "/api/move",
            &json!({"game": "othello", "agent": "mcts:iters=5000000", "seed": 1}),
        )
    });
    std::thread::sleep(Duration::from_millis(200));
    let r = post(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "random"}),
    );
    assert_error(&r, 503, "busy");
    // Other endpoints still answer while the worker thinks.
    assert_eq!(get(addr, "/api/games").status, 200);
    assert_eq!(slow.join().unwrap().status, 200);
    // And the worker is free again.
    let r = post(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "random"}),
    );
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn tree_gives_exact_values_and_pictures() {
    let addr = server();
    let t = post_ok(addr, "/api/tree", &json!({"game": "tictactoe"}));
    let v = &t["node"]["values"];
    assert_eq!(v["p_first"]["exact"], "737/1260");
    assert_eq!(v["p_second"]["exact"], "121/420");
    assert_eq!(v["p_draw"]["exact"], "8/63");
    assert_eq!(v["score_first"]["exact"], "817/1260");
    assert_eq!(v["minimax"]["exact"], "0");
    assert_eq!(t["siblings"], json!([]));
    assert_eq!(t["index"], Value::Null);
    let children = t["children"].as_array().unwrap();
    assert_eq!(children.len(), 9);
    let centre = &children[4];
    assert_eq!(centre["move"], "(1,1)");
    assert_eq!(centre["values"]["p_first"]["exact"], "97/140");
    assert_eq!(centre["values"]["score_first"]["exact"], "3/4");
    assert_eq!(centre["values"]["score_second"]["exact"], "1/4");
    assert_eq!(children[0]["values"]["score_first"]["exact"], "47/70");
    assert_eq!(children[1]["values"]["p_draw"]["exact"], "9/70");
    assert!(children.iter().all(|c| c["best_plain"] == true));
    assert!(t["node"]["svg"].as_str().unwrap().starts_with("<svg"));
    // The picture of a child shades the move and frames a best move.
    let svg = centre["svg"].as_str().unwrap();
    assert_eq!(svg.matches("#fff3bf").count(), 1);
    assert_eq!(svg.matches("#d9480f").count(), 1);

    // x...o...o with X to move: (2,0) and (0,2) are the best moves, the others lose.
    let t = post_ok(
        addr,
        "/api/tree",
        &json!({"game": "tictactoe", "moves": ["(1,1)", "(0,0)", "(2,2)"], "alpha": "0.25"}),
    );
    assert_eq!(t["node"]["position"], "x...o...o");
    assert_eq!(t["alpha"], "1/4");
    assert_eq!(t["siblings"].as_array().unwrap().len(), 7);
    assert_eq!(t["index"], 6, "(2,2) among the legal moves of x...o....");
    let best: Vec<&str> = t["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["best_plain"] == true)
        .map(|c| c["move"].as_str().unwrap())
        .collect();
    assert_eq!(best, ["(2,0)", "(0,2)"]);
    let framed = t["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["svg"].as_str().unwrap().contains("#d9480f"))
        .count();
    assert_eq!(framed, 2);

    // A finished board is coloured by its result; shortest victory frames the fastest win.
    let t = post_ok(
        addr,
        "/api/tree",
        &json!({"game": "tictactoe", "moves": ["(0,0)", "(0,1)", "(1,0)", "(1,1)"], "scoring": "sv"}),
    );
    let win = t["children"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["move"] == "(2,0)")
        .unwrap();
    assert_eq!(win["outcome"], json!({"winner": "first", "text": "o wins"}));
    assert_eq!(win["values"]["sv"]["exact"], "3");
    assert!(win["svg"].as_str().unwrap().contains("#d0ebff"));
    assert!(win["svg"].as_str().unwrap().contains("#d9480f"));
    assert_eq!(win["children"], Value::Null);

    // The stone game: take 3 is the only winning move from 15.
    let t = post_ok(addr, "/api/tree", &json!({"game": "nim"}));
    let best: Vec<&str> = t["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["best_plain"] == true)
        .map(|c| c["move"].as_str().unwrap())
        .collect();
    assert_eq!(best, ["3"]);
    assert_eq!(t["node"]["values"]["minimax"]["exact"], "1");
    let svg = t["children"][2]["svg"].as_str().unwrap();
    assert_eq!(svg.matches("#fff3bf").count(), 3, "three stones taken");
}

#[test]
fn bad_input_gets_a_4xx_and_a_message() {
    let addr = server();
    let raw =
        |path: &str, ct: Option<&str>, body: &str| request(addr, "POST", path, ct, body.as_bytes());
    let json_ct = Some("application/json");
    for path in ["/api/state", "/api/move", "/api/tree"] {
        assert_error(&raw(path, json_ct, "{bad"), 400, "json");
        assert_error(&raw(path, json_ct, ""), 400, "json");
        assert_error(&raw(path, None, r#"{"game": "nim"}"#), 415, "content-type");
        assert_error(&raw(path, json_ct, "[1, 2]"), 422, "");
        assert_error(&raw(path, json_ct, r#"{"game": 3}"#), 422, "");
        assert_error(
            &raw(
                path,
                json_ct,
                r#"{"game": "nim", "colour": "red", "agent": "random"}"#,
            ),
            422,
            "unknown field",
        );
        let big = format!(r#"{{"game": "nim", "moves": ["{}"]}}"#, "1".repeat(20_000));
        assert_error(&raw(path, json_ct, &big), 413, "length limit");
        // The same body for every endpoint; only /api/move takes an agent.
        let body = |game: &str, moves: Value| {
            let mut b = json!({"game": game, "moves": moves});
            if path == "/api/move" {
                b["agent"] = json!("random");
            }
            b
        };
        assert_error(
            &post(addr, path, &body("chess", json!([]))),
            404,
            "unknown game",
        );
        assert_error(
            &post(addr, path, &body("nim", json!(["4"]))),
            400,
            "bad move",
        );
        assert_error(&post(addr, path, &body("nim", json!([3, 2]))), 422, "");
        assert_error(
            &post(addr, path, &body("tictactoe", json!(["(1,1)", "(1,1)"]))),
            400,
            "illegal move",
        );
        assert_error(
            &post(addr, path, &body("tictactoe", json!(vec!["(1,1)"; 10]))),
            400,
            "too many moves",
        );
    }
    // A move after the end of the game is illegal.
    assert_error(
        &post(
            addr,
            "/api/state",
            &json!({"game": "nim", "moves": ["3", "3", "3", "3", "3", "1"]}),
        ),
        400,
        "illegal move",
    );
    let mv = |agent: &str| {
        post(
            addr,
            "/api/move",
            &json!({"game": "tictactoe", "agent": agent}),
        )
    };
    assert_error(&mv("frist"), 400, "unknown agent");
    assert_error(&mv("pmc:pnun=3"), 400, "no parameter");
    assert_error(&mv("pmc:pnum=0"), 400, "bad value");
    assert_error(&mv("pmc:pnum=lots"), 400, "bad value");
    assert_error(&mv("mcts:c=-1"), 400, "bad value");
    assert_error(&mv("pmc:time=soon"), 400, "bad value");
    assert_error(&mv("pmc:pnum=(3"), 400, "");
    assert_error(&mv(""), 400, "");
    assert_error(&mv("othello"), 400, "unknown agent");
    assert_error(&mv("blunder:agent=(frist)"), 400, "frist");
    assert_error(
        &mv(&format!("pmc:pnum={}", "1".repeat(2_000))),
        400,
        "at most",
    );
    assert_error(&mv("table:file=/etc/passwd"), 400, "may read only");
    assert_error(&mv("table"), 400, "may read only");
    assert_error(
        &mv("blunder:agent=(table:file=../../etc/passwd)"),
        400,
        "may read only",
    );
    // The othello agent's weight and book files are the server's business.
    let othello = |agent: &str| {
        post(
            addr,
            "/api/move",
            &json!({"game": "othello", "agent": agent}),
        )
    };
    assert_error(
        &othello("othello:weights=/etc/passwd"),
        400,
        "may not read files",
    );
    assert_error(
        &othello("othello:book=/etc/passwd"),
        400,
        "may not read files",
    );
    assert_error(
        &othello("blunder:agent=(othello:book=../x.book)"),
        400,
        "may not read files",
    );
    assert_error(
        &post(addr, "/api/move", &json!({"game": "nim", "agent": "ai1"})),
        400,
        "unknown agent",
    );
    assert_error(
        &post(
            addr,
            "/api/move",
            &json!({"game": "nim", "moves": ["3", "3", "3", "3", "3"], "agent": "random"}),
        ),
        400,
        "game is over",
    );
    assert_error(
        &post(addr, "/api/move", &json!({"game": "nim"})),
        422,
        "agent",
    );
    assert_error(
        &post(
            addr,
            "/api/move",
            &json!({"game": "nim", "agent": "random", "seed": -1}),
        ),
        422,
        "",
    );
    // The tree browser covers the small games only, with checked parameters.
    assert_error(
        &post(addr, "/api/tree", &json!({"game": "othello"})),
        404,
        "unknown game",
    );
    assert_error(
        &post(addr, "/api/tree", &json!({"game": "nim", "alpha": "2"})),
        400,
        "alpha",
    );
    assert_error(
        &post(addr, "/api/tree", &json!({"game": "nim", "alpha": "1/0"})),
        400,
        "alpha",
    );
    assert_error(
        &post(
            addr,
            "/api/tree",
            &json!({"game": "nim", "alpha": "1".repeat(100)}),
        ),
        400,
        "alpha",
    );
    assert_error(
        &post(
            addr,
            "/api/tree",
            &json!({"game": "nim", "scoring": "best"}),
        ),
        400,
        "scoring",
    );
    // Unknown paths and methods.
    assert_error(&get(addr, "/api/nothing"), 404, "no such endpoint");
    assert_error(&get(addr, "/etc/passwd"), 404, "no such endpoint");
    assert_error(&get(addr, "/api/state"), 405, "not allowed");
    assert_error(&request(addr, "DELETE", "/", None, b""), 405, "not allowed");
    assert_error(&post(addr, "/api/games", &json!({})), 405, "not allowed");
    // The server is still fine.
    assert_eq!(get(addr, "/api/games").status, 200);
}

/// A page elsewhere that reaches the server through DNS rebinding sends its own host name:
/// refused. Local names pass, and a server told to serve other machines answers any name.
#[test]
fn foreign_hosts_are_refused() {
    let addr = server();
    let port = addr.port();
    for host in [
        "evil.example",
        "evil.example:8080",
        "192.168.1.10:80",
        "[::2]:8080",
        "localhost.evil.example",
    ] {
        let r = request_to_host(addr, host, "GET", "/api/games", None, b"");
        assert_error(&r, 403, "is not this machine");
        let r = request_to_host(addr, host, "GET", "/", None, b"");
        assert_eq!(r.status, 403, "{host}");
    }
    for host in [
        format!("localhost:{port}"),
        format!("LOCALHOST:{port}"),
        format!("yomi.localhost:{port}"),
        format!("127.0.0.1:{port}"),
        format!("[::1]:{port}"),
        "localhost".to_string(),
    ] {
        let r = request_to_host(addr, &host, "GET", "/api/games", None, b"");
        assert_eq!(r.status, 200, "{host}: {}", r.text());
    }
    let open = start(ServeConfig {
        local_hosts_only: false,
        ..config()
    });
    let r = request_to_host(open, "yomi.example:8080", "GET", "/api/games", None, b"");
    assert_eq!(r.status, 200, "{}", r.text());
}

#[test]
fn the_page_offers_the_known_games() {
    // The one list of games (yomi_agents::known_games), in its order.
    let games = get(server(), "/api/games").json();
    let ids: Vec<String> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    let known: Vec<String> = yomi_agents::known_games()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(ids, known);
    let r = post(server(), "/api/state", &json!({ "game": "chess" }));
    assert_error(&r, 404, &yomi_agents::known_game_names());
}

#[test]
fn othello_offers_its_levels_and_a_middle_level_first() {
    let addr = server();
    let games = get(addr, "/api/games").json();
    let game = |id: &str| {
        games["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap()
            .clone()
    };
    let agent = |id: &str, name: &str| {
        game(id)["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == name)
            .unwrap()
            .clone()
    };
    // The first offer: the `othello` engine at level 12 on 8x8, the small boards' engine,
    // the exact `perfect` where there is one.
    assert_eq!(game("othello")["opponent"], "othello:level=12");
    assert_eq!(game("othello6")["opponent"], "othello");
    assert_eq!(game("othello4")["opponent"], "othello");
    assert_eq!(game("tictactoe")["opponent"], "perfect");
    assert_eq!(game("nim")["opponent"], "perfect");
    // The level table, for the picker; no other agent has levels.
    let levels = agent("othello", "othello")["levels"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(levels.len(), yomi_agents::OTHELLO_LEVELS.len());
    assert_eq!(
        levels[11],
        json!({"level": 12, "depth": 12, "probcut": 1.5, "wld": 20, "exact": 18})
    );
    assert_eq!(
        levels[0],
        json!({"level": 1, "depth": 1, "probcut": null, "wld": 2, "exact": 2})
    );
    assert_eq!(agent("othello", "alphabeta")["levels"], json!([]));
    assert_eq!(agent("othello6", "othello")["levels"], json!([]));
    // The first offer plays: a level gets the server's time cap instead of no limit, and
    // its solves fit the caps as they are.
    let mv = |spec: &str| {
        post(
            addr,
            "/api/move",
            &json!({"game": "othello", "moves": ["f5"], "agent": spec, "seed": 1}),
        )
    };
    let r = mv("othello:level=12");
    assert_eq!(r.status, 200, "{}", r.text());
    let d = r.json();
    assert_eq!(d["agent"], "othello:level=12,time=0.5");
    let e = &d["explanation"];
    assert!(
        e["agent"]
            .as_str()
            .unwrap()
            .starts_with("othello:level=12,time=0.5,depth=12,wld=20,exact=18,"),
        "{e}"
    );
    assert!(
        strings(&e["notes"])[0].starts_with("level 12: depth 12, ProbCut 1.5"),
        "{e}"
    );
    // A deep level's solves are capped like given ones; a given time within the cap stays.
    assert_eq!(
        post_ok(
            addr,
            "/api/move",
            &json!({"game": "othello", "agent": "othello:level=20", "seed": 1})
        )["agent"],
        "othello:level=20,time=0.5,wld=20,exact=18"
    );
    assert_eq!(
        post_ok(
            addr,
            "/api/move",
            &json!({"game": "othello", "agent": "othello:level=2,time=0.1", "seed": 1})
        )["agent"],
        "othello:level=2,time=0.1"
    );
    // Out of range: a 400 naming the range.
    for bad in ["othello:level=0", "othello:level=31", "othello:level=x"] {
        assert_error(&mv(bad), 400, "none or a whole number from 1 to 30");
    }
}

#[test]
fn an_agent_at_a_clock_plans_its_move_from_it_and_bad_clocks_are_refused() {
    let addr = server();
    // The `othello` engine plans from the clock it is given (its first note says how).
    let a = post_ok(
        addr,
        "/api/move",
        &json!({"game": "othello", "agent": "othello:time=0.2", "seed": 1,
                "clock": {"remaining": 30.0, "increment": 0.5}}),
    );
    let notes = strings(&a["explanation"]["notes"]);
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("clock: 30.000 s left, +0.500 s a move")),
        "{notes:?}"
    );
    // Agents that do not search ignore it.
    post_ok(
        addr,
        "/api/move",
        &json!({"game": "tictactoe", "agent": "random", "clock": {"remaining": 1.0}}),
    );
    // Times out of range or already run out: 400; a malformed clock: 422, as any body.
    for (clock, status, needle) in [
        (
            json!({"remaining": 0.0, "increment": 1.0}),
            400,
            "out of time",
        ),
        (json!({"remaining": -1.0}), 400, "seconds from 0 to"),
        (
            json!({"remaining": 5.0, "increment": -1.0}),
            400,
            "seconds from 0 to",
        ),
        (json!({"remaining": 1e9}), 400, "seconds from 0 to"),
        (json!({"remaining": 5.0, "moves": 3}), 422, "unknown field"),
        (json!({"increment": 1.0}), 422, "remaining"),
    ] {
        let r = post(
            addr,
            "/api/move",
            &json!({"game": "othello", "agent": "othello", "clock": clock}),
        );
        assert_error(&r, status, needle);
    }
}
