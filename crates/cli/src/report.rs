//! Text and JSON renderings of match results.

use std::fmt::Write;

use serde::Serialize;
use yomi_arena::{
    EloEstimate, End, GameForfeit, Hypothesis, MatchResult, OpeningsInfo, Pentanomial, Ratio,
    Scores, Seat, SprtReport, Tally,
};
use yomi_core::AgentSpec;

/// The name tables give an agent: an external engine's `name=` when it has one (an `engine`
/// spec holds a whole command line), otherwise the spec itself.
pub fn display_name(spec: &str) -> String {
    spec.parse::<AgentSpec>()
        .ok()
        .filter(|s| s.name() == "engine")
        .and_then(|s| s.get("name").map(str::to_string))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| spec.to_string())
}

/// One line per agent that forfeited games, e.g. `forfeits by edax: 3 (crash 2, timeout 1);
/// games 4, 17, 30` (the first ten games listed); nothing without forfeits.
pub fn forfeit_lines(forfeits: &[GameForfeit], names: [&str; 2]) -> String {
    let mut s = String::new();
    for (seat, name) in [(Seat::A, names[0]), (Seat::B, names[1])] {
        let mine: Vec<&GameForfeit> = forfeits.iter().filter(|f| f.agent == seat).collect();
        if mine.is_empty() {
            continue;
        }
        let mut reasons: Vec<(&str, usize)> = Vec::new();
        for f in &mine {
            match reasons.iter_mut().find(|(r, _)| *r == f.reason) {
                Some((_, n)) => *n += 1,
                None => reasons.push((&f.reason, 1)),
            }
        }
        reasons.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(y.0)));
        let reasons: Vec<String> = reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
        let games: Vec<String> = mine.iter().take(10).map(|f| f.game.to_string()).collect();
        let more = if mine.len() > 10 { ", ..." } else { "" };
        let _ = writeln!(
            s,
            "forfeits by {name}: {} ({}); game{} {}{more}",
            mine.len(),
            reasons.join(", "),
            if mine.len() == 1 { "" } else { "s" },
            games.join(", ")
        );
    }
    s
}

/// A forfeit in JSON outputs: the game, the agent (`a` or `b`) and the reason.
#[derive(Debug, Serialize)]
pub struct ForfeitJson<'a> {
    game: u64,
    agent: Seat,
    reason: &'a str,
}

/// The JSON list of a result's forfeits.
pub fn forfeits_json(forfeits: &[GameForfeit]) -> Vec<ForfeitJson<'_>> {
    forfeits
        .iter()
        .map(|f| ForfeitJson {
            game: f.game,
            agent: f.agent,
            reason: &f.reason,
        })
        .collect()
}

/// The openings line of a table.
pub fn openings_line(o: &OpeningsInfo) -> String {
    if o.count == 1 && o.name.starts_with("start position") {
        format!("openings: none ({})", o.name)
    } else {
        format!(
            "openings: {} ({} openings, {} order, digest {})",
            o.name, o.count, o.order, o.digest
        )
    }
}

/// An Elo value with its sign (`+inf` and `-inf` for a sweep).
pub fn elo_text(x: f64) -> String {
    format!("{x:+.1}")
}

/// One Elo line: the model and its counts, Elo with its error and interval, LOS, nElo.
pub fn elo_line(e: &EloEstimate) -> String {
    let units = match e.model {
        yomi_arena::Model::Pentanomial => "pairs",
        yomi_arena::Model::Trinomial => "games",
    };
    format!(
        "Elo ({}, {} {units}): {} +- {:.1} (95%: {} to {}), LOS {:.1}%, nElo {:+.1}",
        e.model,
        e.n,
        elo_text(e.elo),
        e.error,
        elo_text(e.low),
        elo_text(e.high),
        100.0 * e.los,
        e.nelo
    )
}

/// The SPRT line.
pub fn sprt_line(s: &SprtReport, games: u64) -> String {
    let verdict = match s.accepted {
        Some(Hypothesis::H0) => format!("H0 accepted after {games} games"),
        Some(Hypothesis::H1) => format!("H1 accepted after {games} games"),
        None => format!("no decision after {games} games"),
    };
    format!(
        "SPRT {} ({} Elo): LLR {:+.3} (bounds {:+.3}, {:+.3}): {verdict}",
        s.test,
        match s.test.kind {
            yomi_arena::EloKind::Logistic => "logistic",
            yomi_arena::EloKind::Normalized => "normalized",
        },
        s.llr,
        s.lower,
        s.upper
    )
}

/// The match tables: counts, ratios and 95% Wilson intervals, from A's side, in rows
/// A-first / A-second / total, then the openings, Elo by both models and the SPRT.
/// Deterministic: holds no timing.
pub fn match_table(r: &MatchResult, seats: [&str; 2]) -> String {
    let rows = [
        (seats[0], r.a_first),
        (seats[1], r.a_second),
        ("total", r.total()),
    ];
    let mut s = String::new();
    let stopped = match r.end {
        End::Complete => "",
        End::Sprt => ", stopped by the SPRT",
        End::Interrupted => ", interrupted",
        End::Stopped => ", stopped early",
    };
    let (a, b) = (display_name(&r.agent_a), display_name(&r.agent_b));
    let _ = writeln!(
        s,
        "{a} VS {b}   ({}, {} rounds, seed {}{stopped})",
        r.game, r.rounds, r.seed
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
    let _ = writeln!(s, "{}", openings_line(&r.openings));
    let total = r.total();
    let _ = writeln!(
        s,
        "pairs (A's points 0, 0.5, 1, 1.5, 2): {}; draw ratio {:.1}%",
        r.pairs
            .0
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        100.0 * total.ratios()[2].value
    );
    let _ = writeln!(
        s,
        "{}",
        elo_line(&EloEstimate::of(&Scores::pentanomial(&r.pairs)))
    );
    let _ = writeln!(
        s,
        "{}",
        elo_line(&EloEstimate::of(&Scores::trinomial(&total)))
    );
    if let Some(sprt) = &r.sprt {
        let _ = writeln!(s, "{}", sprt_line(sprt, total.games()));
    }
    s.push_str(&forfeit_lines(&r.forfeits, [&a, &b]));
    s.push_str(&adjudication_line(r, None));
    s
}

/// The line that says how many games the adjudicator decided, e.g. `adjudicated (exact=12):
/// 37 of 40 games` (with `who` after the colon in a league); nothing without adjudication.
pub fn adjudication_line(r: &MatchResult, who: Option<&str>) -> String {
    let Some(rule) = &r.adjudicator else {
        return String::new();
    };
    let who = who.map_or_else(String::new, |w| format!(" {w}"));
    format!(
        "adjudicated ({rule}):{who} {} of {} games\n",
        r.adjudicated(),
        r.outcomes.played()
    )
}

/// The adjudication of a match in JSON outputs: the rule and the games it decided.
#[derive(Debug, Serialize)]
pub struct AdjudicationJson<'a> {
    rule: &'a str,
    games: usize,
}

impl<'a> AdjudicationJson<'a> {
    /// The adjudication of a result, `None` without one.
    pub fn of(r: &'a MatchResult) -> Option<AdjudicationJson<'a>> {
        r.adjudicator.as_deref().map(|rule| AdjudicationJson {
            rule,
            games: r.adjudicated(),
        })
    }
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

/// Elo by both models.
#[derive(Debug, Serialize)]
pub struct EloJson {
    pentanomial: EloEstimate,
    trinomial: EloEstimate,
}

impl EloJson {
    /// Both estimates of a result.
    pub fn new(pairs: &Pentanomial, total: &Tally) -> EloJson {
        EloJson {
            pentanomial: EloEstimate::of(&Scores::pentanomial(pairs)),
            trinomial: EloEstimate::of(&Scores::trinomial(total)),
        }
    }
}

/// The JSON form of a match: what the tables show, without timings (so it is the same for
/// a run and for its merged shards).
#[derive(Debug, Serialize)]
pub struct MatchJson<'a> {
    game: &'a str,
    agent_a: &'a str,
    agent_b: &'a str,
    rounds: u64,
    seed: u64,
    openings: &'a OpeningsInfo,
    complete: bool,
    end: End,
    a_first: Tally,
    a_second: Tally,
    total: Tally,
    ratios: [RatioRow; 3],
    pairs: Pentanomial,
    elo: EloJson,
    sprt: Option<SprtReport>,
    /// The games lost by forfeit (absent when none was).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    forfeits: Vec<ForfeitJson<'a>>,
    /// The adjudication rule and the games it decided (absent without `--adjudicate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    adjudication: Option<AdjudicationJson<'a>>,
}

impl<'a> MatchJson<'a> {
    /// The JSON view of a result.
    pub fn new(r: &'a MatchResult) -> Self {
        let total = r.total();
        MatchJson {
            game: &r.game,
            agent_a: &r.agent_a,
            agent_b: &r.agent_b,
            rounds: r.rounds,
            seed: r.seed,
            openings: &r.openings,
            complete: r.complete,
            end: r.end,
            a_first: r.a_first,
            a_second: r.a_second,
            total,
            ratios: [
                RatioRow::new(&r.a_first),
                RatioRow::new(&r.a_second),
                RatioRow::new(&total),
            ],
            pairs: r.pairs,
            elo: EloJson::new(&r.pairs, &total),
            sprt: r.sprt,
            forfeits: forfeits_json(&r.forfeits),
            adjudication: AdjudicationJson::of(r),
        }
    }
}
