//! Helpers shared by the web tests: a server in this process on a free port, and a tiny
//! blocking HTTP/1.1 client (std only) for the API and for WebDriver.
// Each test file uses its own subset of these.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;
use yomi_web::ServeConfig;

/// The repository root (where `data/` lives).
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The default test configuration: short thinking, data files from the repository.
pub fn config() -> ServeConfig {
    ServeConfig {
        think_time: Duration::from_millis(500),
        data_dir: repo_root(),
        ..ServeConfig::default()
    }
}

/// Starts a server with `config` on 127.0.0.1 and a free port, on its own thread (it runs
/// until the test process ends), and returns its address.
pub fn start(config: ServeConfig) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        yomi_web::run(addr, config, |bound| tx.send(bound).unwrap()).expect("the server runs");
    });
    rx.recv_timeout(Duration::from_secs(10))
        .expect("the server starts")
}

/// An HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A header's value (name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// Sends one request (`Connection: close`) and reads the whole response.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Response {
    request_to_host(addr, &addr.to_string(), method, path, content_type, body)
}

/// [`request`] with this `Host` header.
pub fn request_to_host(
    addr: SocketAddr,
    host: &str,
    method: &str,
    path: &str,
    content_type: Option<&str>,
    body: &[u8],
) -> Response {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(ct) = content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading a large body: ignore a broken pipe.
    let _ = stream.write_all(body);
    parse_response(&read_response(&mut stream))
}

/// Reads one response: the head, then `Content-Length` bytes, a chunked body up to its last
/// chunk, or everything up to the end of the stream (some servers keep the connection open
/// despite `Connection: close`).
fn read_response(stream: &mut TcpStream) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => return raw,
            Ok(n) => n,
        };
        raw.extend_from_slice(&buf[..n]);
        let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        let body = &raw[split + 4..];
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        if let Some(length) = length {
            if body.len() >= length {
                return raw;
            }
        } else if head.contains("transfer-encoding: chunked") && body.ends_with(b"0\r\n\r\n") {
            return raw;
        }
    }
}

/// Parses a whole HTTP/1.1 response (content-length or chunked body).
pub fn parse_response(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size_text = String::from_utf8_lossy(&data[..end]);
        let size =
            usize::from_str_radix(size_text.split(';').next().unwrap().trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, None, b"")
}

/// `POST path` with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &Value) -> Response {
    request(
        addr,
        "POST",
        path,
        Some("application/json"),
        body.to_string().as_bytes(),
    )
}

/// `POST path` with a JSON body that must succeed; its JSON answer.
pub fn post_ok(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let r = post(addr, path, body);
    assert_eq!(r.status, 200, "{path} {body}: {}", r.text());
    r.json()
}

/// Checks an error answer: the status, a JSON `{"error": ...}` containing `needle`.
pub fn assert_error(r: &Response, status: u16, needle: &str) {
    assert_eq!(r.status, status, "{}", r.text());
    assert!(
        r.header("content-type")
            .is_some_and(|c| c.starts_with("application/json")),
        "{:?}",
        r.headers
    );
    let v = r.json();
    let message = v["error"].as_str().expect("an error message");
    assert!(
        message.to_lowercase().contains(&needle.to_lowercase()),
        "expected {needle:?} in {message:?}"
    );
}

/// Reads `VmRSS` of this process in KiB (Linux), if the system tells.
pub fn rss_kib() -> Option<u64> {
    std::fs::read_to_string("/proc/self/status")
        .ok()?
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// A small opening book from three openings (`f5 d6 c3 d3 c4`, `f5 f6 e6 f4`, `d3 c3 c4`),
/// valued at depth 2, written to a temporary file named after `name`.
pub fn small_book(name: &str) -> (PathBuf, yomi_othello_search::Book) {
    use yomi_othello_search::{weights_digest, BookBuilder, BuildConfig, Weights};
    let lines: Vec<Vec<yomi_othello::Move>> = ["f5 d6 c3 d3 c4", "f5 f6 e6 f4", "d3 c3 c4"]
        .iter()
        .map(|t| t.parse::<yomi_othello::MoveSequence>().unwrap().0)
        .collect();
    let mut builder = BookBuilder::new(
        BuildConfig {
            depth: 2,
            exact: 0,
            wld: 0,
            hash_mb: 1,
        },
        Weights::builtin(),
    )
    .unwrap();
    let digest = weights_digest(&Weights::builtin()).unwrap();
    let book = builder.new_book(digest, &lines).unwrap();
    let path = std::env::temp_dir().join(format!("yomi-web-{name}-{}.book", std::process::id()));
    book.write(&path).unwrap();
    (path, book)
}
