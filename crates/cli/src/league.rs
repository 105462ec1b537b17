//! `yomi league`: every listed agent against one baseline, one row per agent.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Instant;

use serde::Serialize;
use yomi_arena::{
    seat_names, EloEstimate, MatchConfig, MatchResult, OpeningsInfo, Pentanomial, Ratio, Scores,
    Tally, MAX_ROUNDS,
};

use crate::{games, report, CliGame, GameArg, Res};

/// Arguments of `yomi league`.
#[derive(Debug, clap::Args)]
pub struct LeagueArgs {
    #[command(flatten)]
    pub game: GameArg,
    /// The opponent every agent plays.
    #[arg(long, default_value = "random")]
    pub baseline: String,
    /// Rounds per agent: each is one game with the agent first and one with the baseline first.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_ROUNDS))]
    pub rounds: u64,
    /// The agents, comma-separated (default: every agent of the game's zoo at its defaults,
    /// except those that need a parameter, such as `table`'s file).
    /// A piece of the form `key=value` (no `:` before its `=`) continues the previous spec, so
    /// `ai1,pmc2:pnum=100,alpha=0.25` is two agents; the flag may also be repeated.
    #[arg(long)]
    pub agents: Vec<String>,
    /// Master seed; game i of every match uses the stream (seed, i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Print the table as JSON.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print the table as CSV (one row per agent).
    #[arg(long)]
    pub csv: bool,
    #[command(flatten)]
    pub run: games::RunArgs,
}

/// How a league's output looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Tables.
    Table,
    /// JSON.
    Json,
    /// CSV.
    Csv,
}

impl LeagueArgs {
    fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else {
            Format::Table
        }
    }
}

/// Splits an `--agents` value into specs: at commas outside brackets, a piece that looks like
/// `key=value` (no `:` before its `=`) joining the spec before it.
fn split_agents(text: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                pieces.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    pieces.push(cur);
    let mut specs: Vec<String> = Vec::new();
    for piece in pieces.into_iter().map(|p| p.trim().to_string()) {
        if piece.is_empty() {
            continue;
        }
        // `key=value`: the text before the first `=` is a plain key, not `name:key`.
        let continues = piece
            .split_once('=')
            .is_some_and(|(key, _)| !key.contains([':', '(', ')']));
        match specs.last_mut() {
            Some(last) if continues => {
                last.push(',');
                last.push_str(&piece);
            }
            _ => specs.push(piece),
        }
    }
    specs
}

/// One agent's results against the baseline.
#[derive(Debug, Serialize)]
struct Row<'a> {
    /// The spec as listed.
    agent: String,
    /// The full spec (every parameter).
    spec: String,
    first: Tally,
    second: Tally,
    total: Tally,
    ratios: [Ratios; 3],
    pairs: Pentanomial,
    elo: EloEstimate,
    /// The games lost by forfeit, by the agent (`a`) or the baseline (`b`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    forfeits: Vec<report::ForfeitJson<'a>>,
    /// The adjudication rule and the games it decided (absent without `--adjudicate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    adjudication: Option<report::AdjudicationJson<'a>>,
    /// The name the table gives the agent.
    #[serde(skip)]
    name: String,
}

/// Win, loss and draw ratios with 95% Wilson intervals.
#[derive(Debug, Serialize)]
struct Ratios {
    win: Ratio,
    lose: Ratio,
    draw: Ratio,
}

impl Ratios {
    fn of(t: &Tally) -> Ratios {
        let [win, lose, draw] = t.ratios();
        Ratios { win, lose, draw }
    }
}

impl<'a> Row<'a> {
    fn new(agent: &str, r: &'a MatchResult) -> Row<'a> {
        let total = r.total();
        Row {
            agent: agent.to_string(),
            spec: r.agent_a.clone(),
            first: r.a_first,
            second: r.a_second,
            total,
            ratios: [
                Ratios::of(&r.a_first),
                Ratios::of(&r.a_second),
                Ratios::of(&total),
            ],
            pairs: r.pairs,
            elo: EloEstimate::of(&Scores::pentanomial(&r.pairs)),
            forfeits: report::forfeits_json(&r.forfeits),
            adjudication: report::AdjudicationJson::of(r),
            name: report::display_name(agent),
        }
    }
}

/// The JSON form of a league.
#[derive(Debug, Serialize)]
struct LeagueJson<'a> {
    game: &'a str,
    baseline: &'a str,
    rounds: u64,
    seed: u64,
    openings: &'a OpeningsInfo,
    complete: bool,
    rows: &'a [Row<'a>],
}

/// Runs `yomi league` for game `G`.
pub fn run<G: CliGame>(args: &LeagueArgs) -> Res<()> {
    let zoo = G::cli_zoo();
    let agents: Vec<String> = if args.agents.is_empty() {
        // Agents that need a parameter without a default (`table` needs a file) are left out.
        zoo.infos()
            .filter(|i| i.builds_bare())
            .map(|i| i.name.to_string())
            .collect()
    } else {
        args.agents.iter().flat_map(|a| split_agents(a)).collect()
    };
    if agents.is_empty() {
        return Err("no agents to play: --agents is empty".into());
    }
    // Each side's time control: its `tc=`, else --tc.
    let (base_text, base_tc) = args.run.split_tc(&args.baseline)?;
    let mut texts = Vec::with_capacity(agents.len());
    for a in &agents {
        texts.push(args.run.split_tc(a)?);
    }
    // Build everything once up front so a bad spec fails before any game.
    let baseline = zoo.build(&base_text)?.spec();
    let mut specs = Vec::with_capacity(agents.len());
    for (text, _) in &texts {
        specs.push(zoo.build(text)?.spec());
    }
    let openings = args.run.openings::<G>(None, args.seed)?;
    let config = MatchConfig {
        rounds: args.rounds,
        seed: args.seed,
        threads: args.threads.map(|t| t as usize),
    };
    args.run.apply_verbose();
    let shard = args.run.shard();
    let mut fields = serde_json::json!({
        "game": G::NAME,
        "baseline": baseline,
        "agents": specs,
        "rounds": args.rounds,
        "seed": args.seed,
    });
    // A record of a run at a clock says so; one without keeps the header it had.
    if base_tc.is_some() || texts.iter().any(|(_, t)| t.is_some()) {
        let tc = |t: &Option<yomi_core::TimeControl>| t.map(|t| t.to_string());
        fields["tc"] = serde_json::json!({
            "baseline": tc(&base_tc),
            "agents": texts.iter().map(|(_, t)| tc(t)).collect::<Vec<_>>(),
        });
    }
    // So is a record of an adjudicated run.
    if let Some(rule) = args.run.adjudicate {
        fields["adjudicate"] = serde_json::json!(rule.to_string());
    }
    let header = games::header(
        "league",
        &fields,
        &serde_json::to_value(openings.info())?,
        shard,
    );
    let (mut recorder, mut prior) = args.run.recorder::<G>(&header)?;
    let mut options = games::options(openings, shard, recorder.is_some());
    options.adjudicator = args.run.adjudicator::<G>()?;
    let per_match = shard.games_of(args.rounds * 2);
    let bar = games::games_bar(per_match * agents.len() as u64);
    let clock = Instant::now();
    let mut results = Vec::with_capacity(agents.len());
    let mut timings = Vec::with_capacity(agents.len());
    for (k, a) in agents.iter().enumerate() {
        if options.stop.is_set() {
            break;
        }
        (options.prior, options.prior_forfeits) = prior.take(k);
        options.prior_adjudicated = prior.take_adjudicated(k);
        options.time_controls = [texts[k].1, base_tc];
        let started = Instant::now();
        let mut watch =
            games::Watch::new(&bar, per_match * k as u64, a.clone(), recorder.as_mut(), k)
                .with_names(&specs[k], &baseline);
        let result = games::play_specs(
            &zoo,
            &config,
            &options,
            (&texts[k].0, &base_text),
            &mut watch,
        );
        let result = match result {
            Ok(r) => r,
            Err(e) => {
                bar.finish_and_clear();
                return Err(e.into());
            }
        };
        timings.push((
            a.clone(),
            started.elapsed().as_secs_f64(),
            result.time[0].per_move(),
        ));
        games::report_end(&result);
        results.push(result);
    }
    bar.finish_and_clear();
    let complete = results.len() == agents.len() && results.iter().all(|r| r.complete);
    let mut out = io::stdout().lock();
    if args.run.shard.is_some() {
        let file = games::ShardFile::League {
            agents: agents.clone(),
            baseline,
            results,
        };
        serde_json::to_writer(&mut out, &file)?;
        writeln!(out)?;
    } else {
        print::<G>(&mut out, &agents, &baseline, &results, args.format())?;
    }
    out.flush()?;
    if base_tc.is_some() || texts.iter().any(|(_, t)| t.is_some()) {
        let mut sides: Vec<(&str, Option<yomi_core::TimeControl>)> = texts
            .iter()
            .zip(&agents)
            .map(|((_, tc), a)| (a.as_str(), *tc))
            .collect();
        sides.push((args.baseline.as_str(), base_tc));
        eprintln!("{}", games::clock_note(&sides));
    }
    for (agent, secs, per_move) in &timings {
        eprintln!(
            "{agent:<24} {secs:>7.2} s  ({} per move)",
            report::duration(*per_move)
        );
    }
    eprintln!(
        "league: {} agents x {} games in {:.2} s",
        agents.len(),
        per_match,
        clock.elapsed().as_secs_f64()
    );
    if options.stop.is_set() && !complete {
        return games::interrupted_error(&args.run);
    }
    Ok(())
}

/// Prints a league's results (one per listed agent; fewer when it was interrupted) as tables,
/// JSON or CSV: the same for a run and for its merged shards.
pub fn print<G: yomi_core::Game>(
    out: &mut impl Write,
    agents: &[String],
    baseline: &str,
    results: &[MatchResult],
    format: Format,
) -> Res<()> {
    let Some(first) = results.first() else {
        return Err("the league was interrupted before any game".into());
    };
    let rows: Vec<Row<'_>> = agents
        .iter()
        .zip(results)
        .map(|(a, r)| Row::new(a, r))
        .collect();
    let complete = results.len() == agents.len() && results.iter().all(|r| r.complete);
    match format {
        Format::Json => {
            let json = LeagueJson {
                game: G::NAME,
                baseline,
                rounds: first.rounds,
                seed: first.seed,
                openings: &first.openings,
                complete,
                rows: &rows,
            };
            serde_json::to_writer_pretty(&mut *out, &json)?;
            writeln!(out)?;
        }
        Format::Csv => write!(out, "{}", csv(&rows))?,
        Format::Table => {
            let stopped = if complete { "" } else { " (interrupted)" };
            let title = format!(
                "league: {} against {}, {} rounds each, seed {}{stopped}\n{}",
                G::NAME,
                report::display_name(baseline),
                first.rounds,
                first.seed,
                report::openings_line(&first.openings)
            );
            write!(out, "{}", table(&title, &rows, seat_names::<G>()))?;
            let base = report::display_name(baseline);
            for r in results {
                let name = report::display_name(&r.agent_a);
                write!(
                    out,
                    "{}",
                    report::forfeit_lines(&r.forfeits, [&name, &base])
                )?;
                write!(out, "{}", report::adjudication_line(r, Some(name.as_str())))?;
            }
        }
    }
    Ok(())
}

fn pct(x: f64) -> String {
    format!("{:.1}", 100.0 * x)
}

fn interval(r: &Ratio) -> String {
    format!("{:.1}-{:.1}", 100.0 * r.low, 100.0 * r.high)
}

/// Two tables, one row per agent: percentages, then 95% Wilson intervals; in each, win / lose
/// / draw for the agent moving first, moving second, and in total.
fn table(title: &str, rows: &[Row<'_>], seats: [&str; 2]) -> String {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(5).max(5);
    let groups = [
        format!("as {} (first)", seats[0]),
        format!("as {} (second)", seats[1]),
        "total".to_string(),
    ];
    let mut s = String::new();
    let _ = writeln!(s, "{title}");
    let section = |s: &mut String, cell: usize, name: &str, f: &dyn Fn(&Ratio) -> String| {
        let mut header = format!("{name:<width$}");
        for g in &groups {
            let _ = write!(header, "  {g:<w$}", w = cell * 3 + 2);
        }
        let _ = writeln!(s, "{}", header.trim_end());
        let _ = write!(s, "{:<width$}", "agent");
        for _ in &groups {
            let _ = write!(s, "  {:>cell$} {:>cell$} {:>cell$}", "win", "lose", "draw");
        }
        let _ = writeln!(s);
        for r in rows {
            let _ = write!(s, "{:<width$}", r.name);
            for ratios in &r.ratios {
                let _ = write!(
                    s,
                    "  {:>cell$} {:>cell$} {:>cell$}",
                    f(&ratios.win),
                    f(&ratios.lose),
                    f(&ratios.draw)
                );
            }
            let _ = writeln!(s);
        }
    };
    section(&mut s, 5, "%", &|r| pct(r.value));
    let _ = writeln!(s);
    section(&mut s, 11, "95%", &interval);
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{:<width$}  {:>8} {:>7} {:>19} {:>6}  pairs (pentanomial model)",
        "Elo", "elo", "+-", "95%", "LOS"
    );
    for r in rows {
        let e = &r.elo;
        let _ = writeln!(
            s,
            "{:<width$}  {:>8} {:>7.1} {:>19} {:>5.1}%  {}",
            r.name,
            report::elo_text(e.elo),
            e.error,
            format!(
                "{} to {}",
                report::elo_text(e.low),
                report::elo_text(e.high)
            ),
            100.0 * e.los,
            e.n
        );
    }
    s
}

/// A CSV field, quoted when needed.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// One row per agent: the agent, its full spec, then for `first`, `second` and `total` the
/// counts and the ratios with their 95% intervals, then the pentanomial pair counts and the
/// Elo difference with its 95% interval and the LOS (pentanomial model).
fn csv(rows: &[Row<'_>]) -> String {
    let mut s = String::from("agent,spec");
    for group in ["first", "second", "total"] {
        for k in ["win", "lose", "draw"] {
            let _ = write!(s, ",{group}_{k}");
        }
        for k in ["win", "lose", "draw"] {
            let _ = write!(s, ",{group}_{k}_ratio,{group}_{k}_low,{group}_{k}_high");
        }
    }
    s.push_str(",pairs_0,pairs_1,pairs_2,pairs_3,pairs_4,elo,elo_low,elo_high,los\n");
    for r in rows {
        let _ = write!(s, "{},{}", csv_field(&r.agent), csv_field(&r.spec));
        for (t, ratios) in [r.first, r.second, r.total].iter().zip(&r.ratios) {
            let _ = write!(s, ",{},{},{}", t.win, t.lose, t.draw);
            for x in [&ratios.win, &ratios.lose, &ratios.draw] {
                let _ = write!(s, ",{:.6},{:.6},{:.6}", x.value, x.low, x.high);
            }
        }
        for k in r.pairs.0 {
            let _ = write!(s, ",{k}");
        }
        let e = &r.elo;
        let _ = writeln!(s, ",{:.3},{:.3},{:.3},{:.6}", e.elo, e.low, e.high, e.los);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::split_agents;

    #[test]
    fn agents_split_at_top_level_commas_and_keep_parameters() {
        assert_eq!(
            split_agents(
                "ai1, pmc2:pnum=100,alpha=0.25,blunder:agent=(pmc:pnum=5,time=1),ai10s,\
                 blunder:p=0.2,agent=(pmc2:pnum=100),ai1"
            ),
            [
                "ai1",
                "pmc2:pnum=100,alpha=0.25",
                "blunder:agent=(pmc:pnum=5,time=1)",
                "ai10s",
                "blunder:p=0.2,agent=(pmc2:pnum=100)",
                "ai1"
            ]
        );
        assert!(split_agents(" , ").is_empty());
    }
}
