//! End to end in headless Chromium (Debian's `chromium` and `chromium-driver`), over
//! WebDriver's JSON-over-HTTP protocol with the std-only client of `common`.
//!
//! Ignored by default (machines without Chromium); `.ci/run` installs Chromium and runs it with
//! `cargo test -p yomi-web --test browser -- --ignored`. With `--ignored` and no Chromium it
//! fails. Screenshots go to `CARGO_TARGET_TMPDIR` and, when `YOMI_SCREENSHOTS` names a
//! directory, there too (`docs/img/` for the README).

mod common;

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{config, parse_response, start};
use serde_json::{json, Value};

/// Finds a program on `PATH` or in the usual Debian places.
fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path).chain([PathBuf::from("/usr/bin")]) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A chromedriver process and one browser session; both end on drop.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    profile: PathBuf,
}

impl Browser {
    fn launch() -> Browser {
        let chromium = find(&["chromium", "chromium-browser", "google-chrome"]).expect(
            "Chromium is not installed: apt-get install -y chromium chromium-driver (.ci/run does)",
        );
        let chromedriver = find(&["chromedriver"]).expect(
            "chromedriver is not installed: apt-get install -y chromium-driver (.ci/run does)",
        );
        let port = free_port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let profile =
            std::env::temp_dir().join(format!("yomi-browser-test-{}-{}", std::process::id(), port));
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            profile: profile.clone(),
        };
        // Wait for the driver to listen.
        let clock = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(
                clock.elapsed() < Duration::from_secs(20),
                "chromedriver does not listen"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // The binary itself: Debian's /usr/bin/chromium is a wrapper script.
        let binary = ["/usr/lib/chromium/chromium"]
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .unwrap_or(chromium);
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": binary,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-quic", "--no-first-run",
                    "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                    "--window-size=1200,760",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        }}});
        let v = browser.call("POST", "/session", &caps);
        browser.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        browser
    }

    /// One WebDriver command; its `value`.
    fn call(&self, method: &str, path: &str, body: &Value) -> Value {
        self.try_call(method, path, body)
            .unwrap_or_else(|v| panic!("{method} {path}: {v}"))
    }

    /// One WebDriver command; its `value`, or the error answer.
    fn try_call(&self, method: &str, path: &str, body: &Value) -> Result<Value, Value> {
        let body = if method == "GET" || method == "DELETE" {
            Vec::new()
        } else {
            body.to_string().into_bytes()
        };
        let r = common::request(
            self.addr,
            method,
            path,
            Some("application/json; charset=utf-8"),
            &body,
        );
        let v: Value = serde_json::from_slice(&r.body)
            .unwrap_or_else(|_| panic!("{path}: not JSON: {}", r.text()));
        if r.status == 200 {
            Ok(v["value"].clone())
        } else {
            Err(v)
        }
    }

    fn cmd(&self, method: &str, path: &str, body: &Value) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn goto(&self, url: &str) {
        self.cmd("POST", "/url", &json!({ "url": url }));
    }

    fn script(&self, code: &str) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            &json!({ "script": code, "args": [] }),
        )
    }

    fn find(&self, css: &str) -> Option<String> {
        let v = self.cmd(
            "POST",
            "/elements",
            &json!({"using": "css selector", "value": css}),
        );
        v.as_array()?
            .first()?
            .as_object()?
            .values()
            .next()?
            .as_str()
            .map(String::from)
    }

    /// Clicks the first element matching `css`. The page redraws its boards whenever an answer
    /// arrives, so an element found a moment ago may be gone: then it is found again.
    fn click(&self, css: &str) {
        for _ in 0..20 {
            let id = self.find(css).unwrap_or_else(|| panic!("no element {css}"));
            let path = format!("/session/{}/element/{id}/click", self.session);
            match self.try_call("POST", &path, &json!({})) {
                Ok(_) => return,
                Err(e) if e["value"]["error"] == "stale element reference" => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
        panic!("{css} kept going stale");
    }

    /// Waits until `code` (a JavaScript expression) is truthy; its value.
    fn wait_for(&self, code: &str) -> Value {
        let clock = Instant::now();
        loop {
            let v = self.script(&format!("return {code};"));
            if !(v.is_null() || v == false || v == "") {
                return v;
            }
            assert!(
                clock.elapsed() < Duration::from_secs(30),
                "timed out waiting for {code}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
        ]}]});
        self.cmd("POST", "/actions", &actions);
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        let v = self.cmd("GET", "/screenshot", &json!({}));
        let png = base64_decode(v.as_str().expect("base64 screenshot"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        std::fs::write(&out, &png).unwrap();
        if let Some(dir) = std::env::var_os("YOMI_SCREENSHOTS") {
            std::fs::write(Path::new(&dir).join(name), &png).unwrap();
        }
        out
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = common::request(
                self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
                b"",
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes() {
        let Some(v) = value(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

#[test]
fn base64_decodes() {
    assert_eq!(base64_decode("aGVsbG8="), b"hello");
    assert_eq!(base64_decode("eW9taQ=="), b"yomi");
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn a_human_plays_tic_tac_toe_against_perfect_and_browses_the_tree() {
    let _ = parse_response; // shared helpers
    let server = start(config());
    let url = format!("http://{server}/");
    let browser = Browser::launch();
    browser.goto(&url);
    browser.wait_for("document.querySelectorAll('#side-1 .kind option').length > 10");
    // O (first) is the human, X is `perfect`.
    browser.script(
        "const k = document.querySelector('#side-0 .kind'); k.value = 'human'; \
         k.dispatchEvent(new Event('change')); \
         const a = document.querySelector('#side-1 .kind'); a.value = 'perfect'; \
         a.dispatchEvent(new Event('change')); return true;",
    );
    browser.click("#restart");
    let mut clicks = 0;
    let result = loop {
        // Wait until it is the human's turn or the game is over.
        let state = browser.wait_for(
            "(document.querySelector('#status').dataset.outcome) || \
             (document.querySelectorAll('#grid .cell.legal').length > 0 ? 'turn' : '')",
        );
        if state != "turn" {
            break state.as_str().unwrap().to_string();
        }
        // Prefer the centre, then corners: a reasonable human.
        let cell = [4, 0, 2, 6, 8, 1, 3, 5, 7]
            .into_iter()
            .find(|c| {
                browser
                    .find(&format!("#grid .cell.legal[data-cell=\"{c}\"]"))
                    .is_some()
            })
            .expect("a legal cell");
        browser.click(&format!("#grid .cell.legal[data-cell=\"{cell}\"]"));
        clicks += 1;
        assert!(clicks <= 5, "O makes at most 5 moves");
    };
    let status = browser.script("return document.querySelector('#status').textContent;");
    let status = status.as_str().unwrap();
    assert!(
        result == "draw" || result == "second",
        "the human cannot beat perfect: {result} ({status})"
    );
    assert!(status.contains("Game over"), "{status}");
    assert!(
        status.contains("A draw") || status.contains("You lose"),
        "{status}"
    );
    // The agent's reasoning is drawn on the board and listed.
    let rows = browser.script("return document.querySelectorAll('#why tr').length;");
    assert!(rows.as_u64().unwrap() >= 2, "the explanation table");
    let shot = browser.screenshot("play.png");
    assert!(shot.is_file());

    // Undo goes back to the human's turn.
    browser.click("#undo");
    browser.wait_for("document.querySelectorAll('#grid .cell.legal').length > 0");

    // The tree browser: the root's children, then down and sideways with the arrow keys.
    browser.click("#tab-tree");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 9");
    browser.key("\u{E015}"); // ArrowDown: the first child
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 8");
    browser.key("\u{E014}"); // ArrowRight: its next sibling, (1,0)
    browser.wait_for("document.querySelector('#tree-path').textContent.includes('.o.......')");
    browser.click("#tree-children .card[data-move=\"(1,1)\"]");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 7");
    browser.script(
        "const d = document.querySelector('#tree-data'); d.value = 'p_first'; \
         d.dispatchEvent(new Event('change')); return true;",
    );
    browser.wait_for(
        "[...document.querySelectorAll('#tree-children .card .value')].some(v => v.title.includes('/'))",
    );
    browser.screenshot("tree.png");
    browser.key("\u{E013}"); // ArrowUp: back to the parent
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 8");
}
