//! End-to-end test of `yomi serve`: it prints its address, answers there, and refuses bad
//! arguments.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
mod common;

use common::fails;

/// Kills the server when the test ends, even on failure.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serve_prints_its_address_and_answers_there() {
    let child = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("yomi serve starts");
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .strip_prefix("yomi: serving on http://")
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let addr = url.split('/').next().unwrap();
    assert!(addr.starts_with("127.0.0.1:"), "local by default: {addr}");
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""id":"othello""#), "{answer}");
}

#[test]
fn serve_refuses_bad_arguments() {
    fails(&["serve", "--host", "localhost:80"], "invalid value");
    fails(&["serve", "--port", "70000"], "invalid value");
    fails(&["serve", "--think", "0"], "bad --think");
    fails(&["serve", "--think", "nan"], "bad --think");
    fails(&["serve", "--book", "no/such.book"], "--book no/such.book");
    let foreign = std::env::temp_dir().join(format!("yomi-serve-{}.book", std::process::id()));
    std::fs::write(&foreign, "not a book").unwrap();
    fails(&["serve", "--book", foreign.to_str().unwrap()], "bad magic");
    std::fs::remove_file(&foreign).ok();
}
