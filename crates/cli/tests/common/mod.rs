//! Helpers shared by the end-to-end tests: run the `yomi` binary and check its output.
// Each test file uses its own subset of these.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `yomi` with `args`.
pub fn yomi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .output()
        .expect("the yomi binary runs")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Runs a command that must succeed and returns its standard output.
pub fn ok(args: &[&str]) -> String {
    let out = yomi(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// Runs a command that must fail cleanly: a non-zero exit (1 for the tool's own errors, 2 for
/// clap's usage errors), a message containing `needle` (any case), no panic.
pub fn fails(args: &[&str], needle: &str) {
    let out = yomi(args);
    let err = stderr(&out);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(!err.contains("RUST_BACKTRACE"), "{args:?}: {err}");
    assert!(
        err.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: expected {needle:?} in {err:?}"
    );
}

/// As [`fails`], and the error is the tool's own: exit code 1 and one `error:` line.
pub fn fails_with_error(args: &[&str], needle: &str) {
    fails(args, needle);
    let out = yomi(args);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
}
