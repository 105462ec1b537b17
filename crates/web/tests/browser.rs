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
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::{config, parse_response, start};
use serde_json::{json, Value};
use yomi_core::{Game, Player};
use yomi_othello::{Move as OthelloMove, Othello};

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

    /// The text of the first element matching `css` (empty if there is none).
    fn text(&self, css: &str) -> String {
        let code = format!(
            "const e = document.querySelector({}); return e ? e.textContent : '';",
            Value::from(css)
        );
        self.script(&code).as_str().unwrap_or_default().to_string()
    }

    /// How many elements match `css`.
    fn count(&self, css: &str) -> u64 {
        let code = format!(
            "return document.querySelectorAll({}).length;",
            Value::from(css)
        );
        self.script(&code).as_u64().unwrap()
    }

    /// Clears the input matching `css` and types `text` into it (WebDriver's element send
    /// keys: the browser focuses the element and sends key events).
    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css).unwrap_or_else(|| panic!("no element {css}"));
        self.cmd("POST", &format!("/element/{id}/clear"), &json!({}));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            &json!({ "text": text }),
        );
    }

    /// Picks `value` in the select matching `css`, as a person would (a change event).
    fn select(&self, css: &str, value: &str) {
        let code = format!(
            "const s = document.querySelector({}); s.value = {}; \
             s.dispatchEvent(new Event('change')); return s.value;",
            Value::from(css),
            Value::from(value)
        );
        assert_eq!(self.script(&code), value, "{css} has no option {value}");
    }

    /// Sets the browser window's size.
    fn resize(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            &json!({"width": width, "height": height}),
        );
    }

    fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
        ]}]});
        self.cmd("POST", "/actions", &actions);
    }

    fn screenshot(&self, name: &str) -> PathBuf {
        self.script("window.scrollTo(0, 0); return true;");
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

// WebDriver key codes.
const TAB: &str = "\u{E004}";
const ENTER: &str = "\u{E007}";
const SPACE: &str = " ";
const END: &str = "\u{E010}";
const HOME: &str = "\u{E011}";
const LEFT: &str = "\u{E012}";
const RIGHT: &str = "\u{E014}";

/// One browser test at a time: each starts its own Chromium, and the machine has 2 cores.
fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// FFO endgame position #1 (14 empties): black to move wins by 18 with g8.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

impl Browser {
    /// Presses Tab until the element with id `id` has the focus.
    fn tab_to(&self, id: &str) {
        for _ in 0..120 {
            if self.script("return document.activeElement ? document.activeElement.id : '';") == id
            {
                return;
            }
            self.key(TAB);
        }
        panic!("Tab never reached #{id}");
    }

    /// Types `text` with the keyboard into whatever has the focus.
    fn keys(&self, text: &str) {
        let mut actions = Vec::new();
        for c in text.chars() {
            let k = c.to_string();
            actions.push(json!({"type": "keyDown", "value": k}));
            actions.push(json!({"type": "keyUp", "value": k}));
        }
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.cmd("POST", "/actions", &body);
    }

    /// Waits until the page's shown ply is `ply`.
    fn wait_ply(&self, ply: usize) {
        self.wait_for(&format!(
            "document.querySelector('#history .ply.current[data-ply=\"{ply}\"]') !== null"
        ));
    }

    /// Waits for the status line to say it is the human's turn or the game is over: `turn` or
    /// the winner (`first`, `second`, `draw`).
    fn wait_turn(&self) -> String {
        self.wait_for(
            "document.querySelector('#status').dataset.outcome || \
             (document.querySelector('#status').textContent.includes('your turn') || \
              document.querySelector('#status').textContent.includes('must pass') ? 'turn' : '')",
        )
        .as_str()
        .unwrap()
        .to_string()
    }
}

fn set_sides(browser: &Browser, first: &str, second: &str) {
    browser.select("#side-0 .kind", first);
    browser.select("#side-1 .kind", second);
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn a_human_plays_tic_tac_toe_against_perfect_and_browses_the_tree() {
    let _guard = serial();
    let _ = parse_response; // shared helpers
    let server = start(config());
    let url = format!("http://{server}/");
    let browser = Browser::launch();
    browser.goto(&url);
    browser.wait_for("document.querySelectorAll('#side-1 .kind option').length > 10");
    // Coordinates: x above, y beside.
    browser.wait_for("document.querySelectorAll('#grid .cell').length === 9");
    let columns = browser.script(
        "return [...document.querySelectorAll('#grid .coord.col')].map(e => e.textContent).join(' ');",
    );
    assert_eq!(columns, "0 1 2");
    assert_eq!(
        browser
            .script("return document.querySelector('#grid .cell[data-cell=\"5\"]').dataset.name;"),
        "(2,1)"
    );
    // O (first) is the human, X is `perfect`.
    set_sides(&browser, "human", "perfect");
    browser.click("#restart");
    let mut clicks = 0;
    let result = loop {
        let state = browser.wait_turn();
        if state != "turn" {
            break state;
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
    let status = browser.text("#status");
    assert!(
        result == "draw" || result == "second",
        "the human cannot beat perfect: {result} ({status})"
    );
    assert!(status.contains("Game over"), "{status}");
    assert!(
        status.contains("A draw") || status.contains("You lose"),
        "{status}"
    );
    // The agent's reasoning is drawn on the board and listed; its last move is marked.
    let rows = browser.count("#why tr");
    assert!(rows >= 2, "the explanation table");
    assert_eq!(browser.count("#grid .cell.last"), 1);
    let shot = browser.screenshot("play.png");
    assert!(shot.is_file());
    let plies = browser.count("#history .ply") as usize - 1;

    // The record: back and forth with the arrow keys, then a click on a move.
    browser.key(LEFT);
    browser.wait_ply(plies - 1);
    assert!(browser
        .text("#status")
        .contains(&format!("Move {} of {plies}", plies - 1)));
    browser.key(HOME);
    browser.wait_ply(0);
    browser.wait_for("document.querySelectorAll('#grid .mark').length === 0");
    browser.key(RIGHT);
    browser.wait_ply(1);
    browser.wait_for("document.querySelectorAll('#grid .mark').length === 1");
    browser.click("#history .ply[data-ply=\"3\"]");
    browser.wait_ply(3);
    browser.key(END);
    browser.wait_ply(plies);

    // Export and import the move line.
    browser.click("#export");
    browser.wait_for("document.querySelector('#record-text').value.startsWith('(')");
    let line = browser.script("return document.querySelector('#record-text').value;");
    assert_eq!(line.as_str().unwrap().split(' ').count(), plies, "{line}");
    browser.click("#restart");
    browser.wait_for("document.querySelectorAll('#grid .mark').length === 0");
    browser.click("#import");
    browser.wait_for(&format!(
        "document.querySelectorAll('#history .ply').length === {}",
        plies + 1
    ));
    browser.wait_for("document.querySelector('#status').dataset.outcome");
    browser.type_into("#record-text", "(1,1) (1,1)");
    browser.click("#import");
    browser.wait_for("document.querySelector('#record-status').textContent.includes('move 2 ((1,1)) is illegal')");

    // Analysis of an earlier position: exact results on the squares.
    browser.key(HOME);
    browser.wait_ply(0);
    browser.click("#analyse");
    browser.wait_for("document.querySelectorAll('#grid .cell .value.result').length === 9");
    assert_eq!(browser.text("#grid .cell[data-cell=\"4\"] .value"), "draw");
    assert!(browser.text("#best-line").starts_with("Best line:"));
    browser.wait_for("document.querySelectorAll('#graph circle').length >= 1");

    // The position editor: an impossible board is refused with the parser's reason.
    set_sides(&browser, "human", "human");
    browser.click("#edit");
    browser.wait_for("!document.querySelector('#editor').hidden");
    browser.type_into("#edit-text", "ooo......");
    browser.click("#edit-done");
    browser.wait_for("document.querySelector('#edit-status').textContent.includes('Refused')");
    assert!(
        browser.text("#edit-status").contains("impossible counts"),
        "{}",
        browser.text("#edit-status")
    );
    // Set up by clicking: x in a corner, o in the centre and the opposite corner.
    browser.click("#edit-clear");
    for (cell, clicks) in [(0, 2), (4, 1), (8, 1)] {
        for _ in 0..clicks {
            browser.click(&format!("#grid .cell[data-cell=\"{cell}\"]"));
        }
    }
    assert_eq!(
        browser.script("return document.querySelector('#edit-text').value;"),
        "x...o...o"
    );
    browser.click("#edit-done");
    browser.wait_for("document.querySelector('#editor').hidden");
    // x to move must block: (2,0) and (0,2) draw, the rest lose.
    browser.wait_for("document.querySelectorAll('#grid .cell .value').length === 6");
    assert_eq!(browser.text("#grid .cell[data-cell=\"2\"] .value"), "draw");
    assert_eq!(browser.text("#grid .cell[data-cell=\"1\"] .value"), "loss");
    assert_eq!(
        browser.text("#history .ply[data-ply=\"0\"]"),
        "set-up start"
    );

    // The tree browser: the root's children, then down and sideways with the arrow keys.
    browser.click("#tab-tree");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 9");
    browser.key("\u{E015}"); // ArrowDown: the first child
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 8");
    browser.key(RIGHT); // its next sibling, (1,0)
    browser.wait_for("document.querySelector('#tree-path').textContent.includes('.o.......')");
    browser.click("#tree-children .card[data-move=\"(1,1)\"]");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 7");
    browser.select("#tree-data", "p_first");
    browser.wait_for(
        "[...document.querySelectorAll('#tree-children .card .value')].some(v => v.title.includes('/'))",
    );
    browser.screenshot("tree.png");
    browser.key("\u{E013}"); // ArrowUp: back to the parent
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 8");
}

/// A deterministic Othello game with a pass: black (the human of the test) plays the legal
/// square `pick(ply)` in index order, white plays `first` (the first legal square). Returns
/// the pick's parameter `k` (black plays `legal[(ply * k) % len]`) and the game's moves.
fn a_game_with_a_pass() -> (usize, Vec<String>) {
    for k in 0..200 {
        let mut pos = Othello::new();
        let mut moves = Vec::new();
        let mut passed = false;
        while !pos.is_over() {
            let legal = pos.legal_moves();
            let mv = if pos.side_to_move() == Player::First {
                legal[(moves.len() * k) % legal.len()]
            } else {
                legal[0]
            };
            passed |= mv == OthelloMove::Pass;
            moves.push(mv.to_string());
            pos = pos.play_unchecked(mv);
        }
        if passed {
            return (k, moves);
        }
    }
    panic!("no game with a pass");
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn othello_played_analysed_exported_and_set_up() {
    let _guard = serial();
    let server = start(config());
    let browser = Browser::launch();
    browser.goto(&format!("http://{server}/#othello"));
    browser.wait_for("document.querySelectorAll('#grid .cell').length === 64");
    let labels = |css: &str| {
        browser
            .script(&format!(
                "return [...document.querySelectorAll('{css}')].map(e => e.textContent).join('');"
            ))
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(labels("#grid .coord.col"), "abcdefgh");
    assert_eq!(labels("#grid .coord.row"), "12345678");

    // The first offer: you against the `othello` engine at level 12, with a level picker
    // that writes the spec; a spec typed by hand moves the picker; other agents have none.
    let value = |css: &str| {
        browser
            .script(&format!("return document.querySelector('{css}').value;"))
            .as_str()
            .unwrap()
            .to_string()
    };
    let picker_shown = |side: u32| {
        browser.script(&format!(
            "return !document.querySelector('#side-{side} .level').hidden && \
             document.querySelector('#side-{side} .level').offsetParent !== null;"
        )) == true
    };
    assert_eq!(value("#side-0 .kind"), "human");
    assert_eq!(value("#side-1 .kind"), "othello");
    assert_eq!(value("#side-1 .level-select"), "12");
    assert_eq!(value("#side-1 .spec"), "othello:level=12");
    assert!(picker_shown(1));
    assert!(!picker_shown(0));
    assert_eq!(browser.count("#side-1 .level-select option"), 31);
    browser.select("#side-1 .level-select", "1");
    assert_eq!(value("#side-1 .spec"), "othello:level=1");
    browser.script(
        "const s = document.querySelector('#side-1 .spec'); s.value = 'othello:level=7,depth=3'; \
         s.dispatchEvent(new Event('change'));",
    );
    assert_eq!(value("#side-1 .level-select"), "7");
    browser.select("#side-1 .level-select", "");
    assert_eq!(value("#side-1 .spec"), "othello");
    browser.select("#side-1 .level-select", "1");
    // Level 1 answers a move, and its explanation names the level.
    browser.click("#grid .cell.legal[data-move=\"f5\"]");
    browser.wait_ply(2);
    browser.wait_for("document.querySelector('#why').textContent.includes('othello:level=1,')");
    // A game at a clock: both clocks shown; the engine gets its clock and plans its move from
    // it (its explanation says so), and its clock is charged and gets the increment.
    browser.select("#side-1 .level-select", "");
    browser.select("#clock", "60+1");
    browser.wait_ply(0);
    browser.wait_for("document.querySelectorAll('#clocks .clock').length === 2");
    assert!(
        browser.text("#clocks").contains("white 1:00.0"),
        "{}",
        browser.text("#clocks")
    );
    browser.click("#grid .cell.legal[data-move=\"f5\"]");
    browser.wait_ply(2);
    browser.wait_for("document.querySelector('#why').textContent.includes('clock: 60.000 s left, +1.000 s a move')");
    let white = browser.text("#clocks .clock[data-side=\"1\"]");
    let (m, sec) = white
        .trim_start_matches("white ")
        .split_once(':')
        .unwrap_or_else(|| panic!("{white}"));
    let left = m.parse::<f64>().unwrap() * 60.0 + sec.parse::<f64>().unwrap();
    // 60 s, less the move's time (under the server's cap), plus the 1 s increment.
    assert!(left > 55.0 && left < 61.0, "{white}");
    browser.select("#clock", "");
    browser.wait_for("document.querySelector('#clocks').hidden");
    browser.select("#side-1 .kind", "alphabeta");
    assert!(!picker_shown(1));
    // Back to the start, so that the game below begins from a fresh record.
    browser.click("#restart");
    browser.wait_ply(0);
    browser.wait_for("document.querySelectorAll('#history .ply').length === 1");

    // A whole game against `first`, by clicking, with a pass on the way.
    let (k, expected) = a_game_with_a_pass();
    set_sides(&browser, "human", "first");
    browser.click("#restart");
    let mut ply = 0;
    loop {
        if browser.wait_turn() != "turn" {
            break;
        }
        // The page's record so far is the expected game's.
        ply = browser.count("#history .ply") as usize - 1;
        let state = browser.script(
            "return [...document.querySelectorAll('#grid .cell.legal')].map(e => e.dataset.move);",
        );
        let legal: Vec<String> = serde_json::from_value(state).unwrap();
        let mv = &expected[ply];
        if mv == "PA" {
            assert!(legal.is_empty(), "black must pass at ply {ply}: {legal:?}");
            browser.click("#actions button[data-move=\"PA\"]");
        } else {
            assert_eq!(&legal[(ply * k) % legal.len()], mv, "ply {ply}");
            browser.click(&format!("#grid .cell.legal[data-move=\"{mv}\"]"));
        }
        browser.wait_for(&format!(
            "document.querySelectorAll('#history .ply').length > {}",
            ply + 1
        ));
    }
    assert!(ply > 20);
    let history = labels("#history .ply");
    assert_eq!(
        browser.count("#history .ply") as usize,
        expected.len() + 1,
        "{history}"
    );
    assert!(history.contains("PA"), "{history}");
    assert!(browser.text("#status").contains("Game over"));
    // The last move (a placement: passes never end a game) and the discs it flipped.
    assert_eq!(browser.count("#grid .cell.last"), 1);
    assert!(browser.count("#grid .cell.flipped") >= 1);

    // Export the game, start a new one, import it back.
    browser.click("#export");
    browser.wait_for("document.querySelector('#record-text').value.length > 0");
    let text = browser.script("return document.querySelector('#record-text').value;");
    assert_eq!(text, expected.concat());
    browser.click("#restart");
    browser.wait_for("document.querySelectorAll('#history .ply').length === 1");
    browser.click("#import");
    browser.wait_for(&format!(
        "document.querySelectorAll('#history .ply').length === {}",
        expected.len() + 1
    ));
    browser.wait_for("document.querySelector('#status').dataset.outcome");
    // The same game as GGF: out, a new game, back in.
    browser.select("#record-format", "ggf");
    browser.click("#export");
    browser.wait_for("document.querySelector('#record-text').value.startsWith('(;GM[Othello]')");
    let ggf = browser.script("return document.querySelector('#record-text').value;");
    let ggf = ggf.as_str().unwrap();
    assert!(ggf.contains("[PA]") && ggf.ends_with(";)"), "{ggf}");
    assert!(
        !ggf.contains("RE[?]"),
        "a finished game has its result: {ggf}"
    );
    browser.click("#restart");
    browser.wait_for("document.querySelectorAll('#history .ply').length === 1");
    browser.click("#import");
    browser.wait_for(&format!(
        "document.querySelectorAll('#history .ply').length === {}",
        expected.len() + 1
    ));
    browser.wait_for("document.querySelector('#status').dataset.outcome");
    browser.type_into("#record-text", "(;GM[Othello]B[F5]W[F5];)");
    browser.click("#import");
    browser.wait_for("document.querySelector('#record-status').textContent.includes('cannot read the ggf record')");
    browser.select("#record-format", "line");
    browser.type_into("#record-text", "f5d6zz");
    browser.click("#import");
    // The refusal of the GGF record above also begins "Import refused": wait for this one's.
    browser.wait_for(
        "document.querySelector('#record-status').textContent.includes('Import refused') && document.querySelector('#record-status').textContent.includes('move 3')",
    );

    // An opening line, analysed: values on the squares and the graph of the whole line.
    browser.select("#analyse-time", "0.1");
    browser.type_into("#record-text", "f5d6c3d3c4f4f6f3e6e7");
    browser.click("#import");
    browser.wait_for("document.querySelectorAll('#history .ply').length === 11");
    browser.click("#analyse");
    browser.wait_for("document.querySelectorAll('#grid .cell .value').length > 0 && document.querySelectorAll('#grid .cell .value').length === document.querySelectorAll('#grid .cell.legal').length");
    assert!(browser.count("#grid .cell .value.estimate") > 0);
    assert!(browser.count("#grid .cell .value.best") >= 1);
    browser.click("#analyse-game");
    browser.wait_for("document.querySelectorAll('#graph circle').length === 11");
    // The disc-loss graph and table: a row per move (the ten moves' positions are analysed),
    // each loss at least 0, the totals the sums of the rows.
    browser.wait_for("document.querySelectorAll('#loss-table tr').length === 11");
    assert_eq!(browser.count("#loss-graph path.loss-line"), 2);
    let sums = browser.script(
        "const t = { black: 0, white: 0 }; let ok = true; \
         for (const tr of document.querySelectorAll('#loss-table tr[data-ply]')) { \
           const c = tr.querySelectorAll('td'); const v = Number(c[6].textContent); \
           ok = ok && v >= 0; t[c[1].textContent] += v; } \
         return [ok, t.black, t.white];",
    );
    assert_eq!(sums[0], true, "{sums}");
    let total = browser.text("#loss-total");
    assert!(total.starts_with("discs lost: black "), "{total}");
    // The total shown is the sum of the table's rows (to the table's rounding).
    let shown: Vec<f64> = total
        .trim_start_matches("discs lost: black ")
        .split(", white ")
        .map(|t| t.parse().unwrap())
        .collect();
    for (k, v) in shown.iter().enumerate() {
        assert!(
            (v - sums[k + 1].as_f64().unwrap()).abs() < 0.01,
            "{total} {sums}"
        );
    }
    browser.key(LEFT);
    browser.wait_ply(9);
    browser.wait_for("document.querySelectorAll('#grid .cell .value').length > 0 && !document.querySelector('#analysis-running')");
    browser.key(RIGHT);
    browser.wait_ply(10);
    browser.wait_for("document.querySelectorAll('#grid .cell .value').length > 0");
    browser.resize(1200, 1100);
    browser.screenshot("analysis.png");
    browser.resize(1200, 760);

    // The editor: refusals, then FFO #1 analysed to its exact value.
    browser.click("#edit");
    browser.wait_for("!document.querySelector('#editor').hidden");
    browser.click("#edit-clear");
    browser.click("#edit-done");
    browser.wait_for("document.querySelector('#edit-status').textContent.includes('Refused')");
    assert!(browser.text("#edit-status").contains("centre squares"));
    browser.type_into("#edit-text", "hello");
    browser.click("#edit-done");
    browser
        .wait_for("document.querySelector('#edit-status').textContent.includes('bad character')");
    // A side to move that can only pass.
    let before_pass = expected.iter().position(|m| m == "PA").unwrap();
    let pos = expected[..before_pass]
        .iter()
        .fold(Othello::new(), |p, m| p.play(m.parse().unwrap()).unwrap());
    browser.type_into("#edit-text", &pos.to_string());
    browser.click("#edit-done");
    browser.wait_for(
        "document.querySelector('#edit-status').textContent.includes('has no legal move')",
    );
    browser.type_into("#edit-text", FFO_1);
    browser.click("#edit-done");
    browser.wait_for("document.querySelector('#editor').hidden");
    browser
        .wait_for("document.querySelector('#grid .cell[data-name=\"g8\"] .value.exact') !== null");
    assert_eq!(browser.text("#grid .cell[data-name=\"g8\"] .value"), "+18");
    assert!(browser.count("#grid .cell[data-name=\"g8\"] .value.best") == 1);
    assert!(browser.text("#analysis-value").contains("+18"));
    assert!(browser.text("#best-line").contains("g8"));
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn the_stone_game_with_the_keyboard_only_on_a_phone() {
    let _guard = serial();
    let server = start(config());
    let browser = Browser::launch();
    browser.resize(390, 844);
    browser.goto(&format!("http://{server}/#nim"));
    browser.wait_for("document.querySelectorAll('#pile .stone').length === 15");
    // The board comes first on a narrow window and fits it.
    let fits = browser.script(
        "const b = document.querySelector('#board').getBoundingClientRect(); \
         const c = document.querySelector('.controls').getBoundingClientRect(); \
         return b.right <= window.innerWidth && b.top < c.top;",
    );
    assert_eq!(fits, true);
    // Analysis on (Space on the checkbox), then moves typed into the move box.
    browser.tab_to("analyse");
    browser.keys(SPACE);
    browser.wait_for("document.querySelectorAll('#actions .value').length === 3");
    assert_eq!(
        browser.text("#actions button[data-move=\"3\"] .value"),
        "win"
    );
    browser.tab_to("move-input");
    let mut typed = 0;
    let result = loop {
        let state = browser.wait_turn();
        if state != "turn" {
            break state;
        }
        let plies = browser.count("#history .ply");
        browser.wait_for("document.querySelectorAll('#actions .value.best').length > 0");
        let best = browser.script(
            "return document.querySelector('#actions .value.best').parentElement.dataset.move;",
        );
        browser.keys(best.as_str().unwrap());
        browser.keys(ENTER);
        browser.wait_for(&format!(
            "document.querySelectorAll('#history .ply').length > {plies}"
        ));
        typed += 1;
        assert!(typed <= 8);
    };
    assert_eq!(result, "first", "best play from 15 wins");
    assert!(browser.text("#status").contains("You win!"));
    let plies = browser.count("#history .ply") as usize - 1;
    // Out of the move box, then through the record with the arrow keys.
    browser.key(TAB);
    browser.key(LEFT);
    browser.wait_ply(plies - 1);
    browser.key(HOME);
    browser.wait_ply(0);
    browser.wait_for("document.querySelectorAll('#pile .stone.taken').length === 0");
    browser.key(END);
    browser.wait_ply(plies);
    browser.screenshot("phone.png");

    // The editor, by keyboard: a pile too large is refused, a small one is played.
    browser.tab_to("edit");
    browser.keys(ENTER);
    browser.wait_for("!document.querySelector('#editor').hidden");
    browser.tab_to("edit-text");
    browser.keys(&"\u{E003}".repeat(12)); // Backspace
    browser.keys("20:first");
    browser.tab_to("edit-done");
    browser.keys(ENTER);
    browser.wait_for("document.querySelector('#edit-status').textContent.includes('at most 15')");
    browser.tab_to("edit-text");
    browser.keys(&"\u{E003}".repeat(12));
    browser.keys("5:second");
    browser.tab_to("edit-done");
    browser.keys(ENTER);
    browser.wait_for("document.querySelector('#editor').hidden");
    assert_eq!(
        browser.text("#history .ply[data-ply=\"0\"]"),
        "set-up start"
    );
    // perfect (second) takes 1 and leaves 4: the human loses whatever comes next.
    browser.wait_for("document.querySelectorAll('#pile .stone:not(.taken)').length === 4");
    browser.wait_for("document.querySelectorAll('#actions .value').length === 3");
    assert_eq!(browser.count("#actions .value.best"), 3, "every take loses");

    // Export and import by keyboard.
    browser.tab_to("export");
    browser.keys(ENTER);
    browser.wait_for("document.querySelector('#record-text').value === '1'");
    assert!(browser
        .text("#record-status")
        .contains("set-up position 5:second"));
    browser.tab_to("import");
    browser.keys(ENTER);
    browser.wait_for("document.querySelector('#record-status').textContent === 'imported 1 moves'");
    browser.wait_for("document.querySelectorAll('#pile .stone:not(.taken)').length === 4");
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn othello_on_6x6_and_4x4_played_analysed_and_the_4x4_tree() {
    let _guard = serial();
    let server = start(config());
    let browser = Browser::launch();
    browser.goto(&format!("http://{server}/#othello6"));
    browser.wait_for("document.querySelectorAll('#grid .cell').length === 36");
    let columns = browser.script(
        "return [...document.querySelectorAll('#grid .coord.col')].map(e => e.textContent).join('');",
    );
    assert_eq!(columns, "abcdef");
    assert_eq!(
        browser
            .script("return document.querySelector('#grid .cell[data-cell=\"35\"]').dataset.name;"),
        "f6"
    );
    // The human (black) against the othello agent: a move and its reply.
    set_sides(&browser, "human", "othello");
    browser.click("#restart");
    assert_eq!(browser.wait_turn(), "turn");
    assert_eq!(browser.count("#grid .cell.legal"), 4);
    browser.click("#grid .cell.legal[data-move=\"c2\"]");
    browser.wait_ply(2);
    assert_eq!(browser.wait_turn(), "turn");

    // 4x4: analysed exactly from the start (every first move loses by 10).
    browser.select("#game", "othello4");
    browser.wait_for("document.querySelectorAll('#grid .cell').length === 16");
    set_sides(&browser, "human", "human");
    browser.click("#restart");
    browser.click("#analyse");
    browser.wait_for("document.querySelectorAll('#grid .cell .value.exact').length === 4");
    assert_eq!(browser.text("#grid .cell[data-name=\"b1\"] .value"), "-10");
    // The parallel start set up in the editor: white wins by 4.
    browser.click("#edit");
    browser.wait_for("!document.querySelector('#editor').hidden");
    browser.type_into("#edit-text", "-----OO--XX----- X");
    browser.click("#edit-done");
    browser.wait_for("document.querySelector('#editor').hidden");
    browser.wait_for("document.querySelectorAll('#grid .cell .value.exact').length > 0");
    browser.wait_for("document.querySelector('#analysis-value').textContent.includes('-4')");

    // The 4x4 tree in the tree browser: four symmetric first moves, down one and back.
    browser.click("#tab-tree");
    browser.select("#tree-game", "othello4");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 4");
    assert_eq!(browser.count("#tree-node circle"), 4);
    browser.click("#tree-children .card[data-move=\"b1\"]");
    browser.wait_for("document.querySelector('#tree-path').textContent.includes('b1')");
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 3");
    browser.screenshot("tree-othello4.png");
    browser.key("\u{E013}"); // ArrowUp: back to the root
    browser.wait_for("document.querySelectorAll('#tree-children .card').length === 4");
}

#[test]
#[ignore = "needs Chromium and chromedriver; .ci/run installs them and runs this with --ignored"]
fn othello_with_the_servers_opening_book() {
    let _guard = serial();
    let (path, book) = common::small_book("browser");
    let server = start(yomi_web::ServeConfig {
        book: Some(path.clone()),
        ..config()
    });
    let browser = Browser::launch();
    browser.goto(&format!("http://{server}/#othello"));
    browser.wait_for("document.querySelectorAll('#grid .cell').length === 64");
    // The start is in the book: its four moves on the board and in the panel, best framed.
    browser.wait_for("document.querySelectorAll('#grid .value.book').length === 4");
    assert_eq!(browser.count("#book tr[data-move]"), 4);
    let start_moves = book.moves(&Othello::new());
    let best = start_moves[0];
    assert_eq!(
        browser.text(&format!(
            "#grid .cell[data-move=\"{}\"] .value.book",
            best.mv
        )),
        format!("{:+}", best.value)
    );
    assert!(
        browser
            .text("#book")
            .contains(&format!("{} positions", book.len())),
        "{}",
        browser.text("#book")
    );
    browser.screenshot("othello-book.png");
    // The engine plays from the server's book: after f5, its answer is a best book move.
    browser.script(
        "const s = document.querySelector('#side-1 .spec'); s.value = 'othello:book=server'; \
         s.dispatchEvent(new Event('change'));",
    );
    browser.click("#grid .cell.legal[data-move=\"f5\"]");
    browser.wait_ply(2);
    browser.wait_for("document.querySelector('#why').textContent.includes('book')");
    let f5 = Othello::new().play_line("f5").unwrap();
    let moves = book.moves(&f5);
    let answer = browser
        .script("return document.querySelector('#history .ply.current').textContent;")
        .as_str()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string();
    assert!(
        moves
            .iter()
            .any(|m| m.value == moves[0].value && m.mv.to_string() == answer),
        "{answer} is not a best book move of {moves:?}"
    );
    // Out of the book, the panel says so; the box hides the book.
    browser.select("#side-1 .kind", "human");
    let legal = browser
        .script(
            "return [...document.querySelectorAll('#grid .cell.legal')].map(c => c.dataset.move);",
        )
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect::<Vec<_>>();
    let now = f5.play_line(&answer).unwrap();
    let out = legal
        .iter()
        .find(|m| book.get(&now.play_line(m).unwrap()).is_none())
        .expect("a move out of the small book");
    browser.click(&format!("#grid .cell.legal[data-move=\"{out}\"]"));
    browser.wait_for("document.querySelector('#book-out') !== null");
    browser.click("#show-book");
    browser.wait_for("document.querySelector('#book').hidden");
    std::fs::remove_file(&path).ok();
}
