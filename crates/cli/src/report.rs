//! Text and JSON renderings of match results.

use std::fmt::Write;

use serde::Serialize;
use yomi_arena::{MatchResult, Ratio, Tally};

/// The match tables: counts, ratios and 95% Wilson intervals, from A's side, in rows
/// A-first / A-second / total. Deterministic: holds no timing.
pub fn match_table(r: &MatchResult, seats: [&str; 2]) -> String {
    let rows = [
        (seats[0], r.a_first),
        (seats[1], r.a_second),
        ("total", r.total()),
    ];
    let mut s = String::new();
    let stopped = if r.complete { "" } else { ", stopped early" };
    let _ = writeln!(
        s,
        "{} VS {}   ({}, {} rounds, seed {}{stopped})",
        r.agent_a, r.agent_b, r.game, r.rounds, r.seed
    );
    let _ = writeln!(s, "count  {:>8} {:>8} {:>8}", "win", "lose", "draw");
    for (name, t) in rows {
        let _ = writeln!(s, "{name:<6} {:>8} {:>8} {:>8}", t.win, t.lose, t.draw);
    }
    let _ = writeln!(s, "ratio  {:>8} {:>8} {:>8}", "win", "lose", "draw");
    for (name, t) in rows {
        let [w, l, d] = t.ratios();
        let _ = writeln!(
            s,
            "{name:<6} {:>8} {:>8} {:>8}",
            pct(w.value),
            pct(l.value),
            pct(d.value)
        );
    }
    let _ = writeln!(s, "95%    {:>15} {:>15} {:>15}", "win", "lose", "draw");
    for (name, t) in rows {
        let [w, l, d] = t.ratios();
        let _ = writeln!(s, "{name:<6} {:>15} {:>15} {:>15}", ci(w), ci(l), ci(d));
    }
    s
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn ci(r: Ratio) -> String {
    format!("{:.1}-{:.1}%", 100.0 * r.low, 100.0 * r.high)
}

/// `count / secs` as a short number with a unit prefix, e.g. `523.4 M` (`-` when no time
/// was measured).
pub fn rate(count: f64, secs: f64) -> String {
    if secs <= 0.0 {
        return "-".to_string();
    }
    let r = count / secs;
    match r {
        r if r >= 1e9 => format!("{:.2} G", r / 1e9),
        r if r >= 1e6 => format!("{:.1} M", r / 1e6),
        r if r >= 1e3 => format!("{:.1} k", r / 1e3),
        r => format!("{r:.0}"),
    }
}

/// A human-scaled duration from seconds.
pub fn duration(secs: f64) -> String {
    if secs >= 1.0 {
        format!("{secs:.2} s")
    } else if secs >= 1e-3 {
        format!("{:.2} ms", secs * 1e3)
    } else if secs >= 1e-6 {
        format!("{:.2} µs", secs * 1e6)
    } else {
        format!("{:.0} ns", secs * 1e9)
    }
}

/// One row of ratios in the JSON output.
#[derive(Debug, Serialize)]
pub struct RatioRow {
    win: Ratio,
    lose: Ratio,
    draw: Ratio,
}

impl RatioRow {
    fn new(t: &Tally) -> Self {
        let [win, lose, draw] = t.ratios();
        RatioRow { win, lose, draw }
    }
}

/// The JSON form of a match: the result plus totals and ratios with 95% intervals.
#[derive(Debug, Serialize)]
pub struct MatchJson<'a> {
    #[serde(flatten)]
    result: &'a MatchResult,
    total: Tally,
    ratios: [RatioRow; 3],
}

impl<'a> MatchJson<'a> {
    /// The JSON view of a result.
    pub fn new(result: &'a MatchResult) -> Self {
        let total = result.total();
        MatchJson {
            result,
            total,
            ratios: [
                RatioRow::new(&result.a_first),
                RatioRow::new(&result.a_second),
                RatioRow::new(&total),
            ],
        }
    }
}
