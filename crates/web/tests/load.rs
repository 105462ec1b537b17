//! A bounded load test: rounds of 1 000 concurrent API requests against a server on
//! 127.0.0.1 in this process, every answer checked against the libraries, and the process's
//! resident memory compared between rounds.
//!
//! `cargo test --release -p yomi-web --test load -- --nocapture` prints the figures
//! (`docs/benchmarks.md`). `YOMI_LOAD_REQUESTS` and `YOMI_LOAD_ROUNDS` change the size.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::{config, parse_response, rss_kib, start};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use yomi_core::{Game, Rng};
use yomi_tictactoe::TicTacToe;
use yomi_tree::{shared_solution, Scoring};
use yomi_web::ServeConfig;

/// One request over its own connection.
async fn send(addr: SocketAddr, method: &str, path: &str, body: &Value) -> (u16, Value) {
    let body = if method == "GET" {
        String::new()
    } else {
        body.to_string()
    };
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let r = parse_response(&raw);
    (r.status, r.json())
}

/// A random tic-tac-toe line of `len` moves (shorter if the game ends first).
fn random_line(rng: &mut Rng, len: usize) -> (Vec<String>, TicTacToe) {
    let mut pos = TicTacToe::default();
    let mut moves = Vec::new();
    while moves.len() < len && !pos.is_over() {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        moves.push(mv.to_string());
        pos = pos.play_unchecked(mv);
    }
    (moves, pos)
}

/// One request of kind `i % 4`, its answer checked; panics on a wrong answer.
async fn one(addr: SocketAddr, i: u64) -> Duration {
    let clock = Instant::now();
    check(addr, i).await;
    clock.elapsed()
}

async fn check(addr: SocketAddr, i: u64) {
    let mut rng = Rng::for_stream(99, i);
    let sol = shared_solution::<TicTacToe>().unwrap();
    let len = rng.below(9);
    let (moves, pos) = random_line(&mut rng, len);
    match i % 4 {
        0 => {
            let (status, v) = send(addr, "GET", "/api/games", &json!(null)).await;
            assert_eq!(status, 200);
            assert_eq!(v["games"].as_array().unwrap().len(), 5);
        }
        1 => {
            let (status, v) = send(
                addr,
                "POST",
                "/api/state",
                &json!({"game": "tictactoe", "moves": moves}),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            assert_eq!(v["position"], pos.to_string());
            assert_eq!(
                v["legal"].as_array().unwrap().len(),
                pos.legal_moves().len()
            );
        }
        2 => {
            let (status, v) = send(
                addr,
                "POST",
                "/api/move",
                &json!({"game": "tictactoe", "moves": moves, "agent": "perfect", "seed": i}),
            )
            .await;
            if pos.is_over() {
                assert_eq!(status, 400, "{v}");
                return;
            }
            assert_eq!(status, 200, "{v}");
            let id = sol.id_of(&pos).unwrap();
            let best: Vec<String> = sol
                .best_moves(id, Scoring::Plain)
                .iter()
                .map(ToString::to_string)
                .collect();
            assert!(
                best.contains(&v["move"].as_str().unwrap().to_string()),
                "{v}"
            );
        }
        _ => {
            let (status, v) = send(
                addr,
                "POST",
                "/api/tree",
                &json!({"game": "tictactoe", "moves": moves}),
            )
            .await;
            assert_eq!(status, 200, "{v}");
            let id = sol.id_of(&pos).unwrap();
            assert_eq!(
                v["node"]["values"]["p_first"]["exact"],
                sol.probs(id).first().to_string()
            );
            assert_eq!(
                v["children"].as_array().unwrap().len(),
                pos.legal_moves().len()
            );
        }
    }
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn a_thousand_concurrent_requests_all_answered_memory_flat() {
    let requests = env_or("YOMI_LOAD_REQUESTS", 1_000);
    let rounds = env_or("YOMI_LOAD_ROUNDS", 5).max(2);
    let addr = start(ServeConfig {
        think_time: Duration::from_secs(2),
        // A request may wait behind the whole round for an agent worker.
        queue_wait: Duration::from_secs(60),
        ..config()
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut rss = Vec::new();
    for round in 0..rounds {
        let clock = Instant::now();
        let mut times = runtime.block_on(async {
            let tasks: Vec<_> = (0..requests)
                .map(|i| tokio::spawn(one(addr, round * requests + i)))
                .collect();
            let mut times = Vec::new();
            for t in tasks {
                times.push(t.await.expect("every answer is right"));
            }
            times
        });
        let secs = clock.elapsed().as_secs_f64();
        times.sort();
        let ms = |q: f64| times[((times.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
        let kib = rss_kib().unwrap_or(0);
        rss.push(kib);
        println!(
            "round {round}: {requests} concurrent requests in {secs:.3} s ({:.0} requests/s; \
             latency median {:.1} ms, p99 {:.1} ms, max {:.1} ms), VmRSS {kib} KiB",
            requests as f64 / secs,
            ms(0.5),
            ms(0.99),
            ms(1.0)
        );
    }
    // After the first round (caches, thread pools and allocator arenas warm), memory stays
    // flat: the last round ends within 16 MiB of the second.
    let (warm, last) = (rss[1], *rss.last().unwrap());
    println!("VmRSS after warm-up {warm} KiB, after the last round {last} KiB");
    if warm > 0 {
        assert!(
            last <= warm + 16 * 1024,
            "memory grew from {warm} KiB to {last} KiB"
        );
    }
}
