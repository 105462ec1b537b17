//! `yomi solve` and `yomi bench ffo`: the Othello endgame solver on one position, on a file of
//! positions, and on the FFO test suite shipped with yomi.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use yomi_core::{Limits, NodeCount, Seconds, StopReason};
use yomi_othello::{ObfPosition, Othello};
use yomi_othello_search::{Features, Mode, Solution, Solver, SolverConfig};

use crate::{interrupt, Res};

/// The exit status of a `solve` or `bench` that a `--time` or `--nodes` limit stopped before
/// it finished (with no wrong score).
pub const EXIT_LIMIT: u8 = 3;
/// The exit status of a command interrupted by Ctrl-C (or SIGTERM) after its partial report.
pub const EXIT_INTERRUPTED: u8 = 130;

/// A command that stopped early: its report is printed; main exits with `code`.
#[derive(Debug)]
pub struct Stopped {
    /// The exit status.
    pub code: u8,
    /// What stopped it.
    pub message: String,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Stopped {}

impl Stopped {
    pub(crate) fn from_reason(reason: StopReason, what: &str) -> Stopped {
        Stopped {
            code: match reason {
                StopReason::Interrupted => EXIT_INTERRUPTED,
                StopReason::Time | StopReason::Nodes => EXIT_LIMIT,
            },
            message: format!("{what} stopped ({reason}) before it finished"),
        }
    }
}

/// The FFO endgame suite (positions 1 to 79, as shipped in `data/ffo/`).
const FFO_FILES: [(usize, &str); 5] = [
    (1, include_str!("../../../data/ffo/fforum-1-19.obf")),
    (20, include_str!("../../../data/ffo/fforum-20-39.obf")),
    (40, include_str!("../../../data/ffo/fforum-40-49.obf")),
    (50, include_str!("../../../data/ffo/fforum-50-59.obf")),
    (60, include_str!("../../../data/ffo/fforum-60-79.obf")),
];

/// The solver's options shared by `solve` and `bench ffo`.
#[derive(Debug, clap::Args)]
pub struct SolverArgs {
    /// Solve for win/loss/draw only (the score is 1, 0 or -1) instead of the exact disc
    /// difference.
    #[arg(long)]
    wld: bool,
    /// Threads (default: all cores; the score is the same for any count, the node count is
    /// not).
    #[arg(long)]
    threads: Option<usize>,
    /// Stop each solve after this many seconds, reporting the bounds proved so far
    /// (exit status 3).
    #[arg(long, allow_hyphen_values = true)]
    time: Option<Seconds>,
    /// Stop each solve after this many nodes, reporting the bounds proved so far
    /// (exit status 3).
    #[arg(long, allow_hyphen_values = true)]
    nodes: Option<NodeCount>,
    /// Transposition table size in MiB (1 to 16384).
    #[arg(long = "hash-mb", default_value_t = 64)]
    hash_mb: usize,
    /// Switch solver techniques off, to measure what they save (comma-separated: table,
    /// mobility, shallow, parity, stability, etc, wld-first, guess, hints, selective). The
    /// scores do not change.
    #[arg(long, value_delimiter = ',')]
    without: Vec<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

impl SolverArgs {
    fn mode(&self) -> Mode {
        if self.wld {
            Mode::Wld
        } else {
            Mode::Exact
        }
    }

    /// The thread count: as given, or every core.
    fn threads(&self) -> usize {
        self.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        })
    }

    /// The limits of one solve, watching the process's Ctrl-C flag.
    fn limits(&self) -> Limits {
        let mut limits = Limits::none().with_flag(interrupt::stop_flag());
        limits.time = self.time.map(|t| t.0);
        limits.nodes = self.nodes.map(|n| n.0);
        limits
    }

    fn solver(&self) -> Res<Solver> {
        let mut features = Features::default();
        for name in &self.without {
            features = features.without(name)?;
        }
        Ok(Solver::new(SolverConfig {
            threads: self.threads(),
            hash_mb: self.hash_mb,
            features,
            ..SolverConfig::default()
        })?)
    }

    /// What must agree between the shards of one run: [`SolverArgs::describe`] without the
    /// thread count.
    fn describe_run(&self) -> String {
        let mut limits = String::new();
        if let Some(t) = self.time {
            limits += &format!(", {t} s");
        }
        if let Some(n) = self.nodes {
            limits += &format!(", {n} nodes");
        }
        format!(
            "{}, {} MiB table{limits}, without [{}]",
            self.mode(),
            self.hash_mb,
            self.without.join(", ")
        )
    }

    fn describe(&self) -> String {
        let threads = self.threads();
        let mut limits = String::new();
        if let Some(t) = self.time {
            limits += &format!(", {t} s");
        }
        if let Some(n) = self.nodes {
            limits += &format!(", {n} nodes");
        }
        format!(
            "{}, {} thread{}, {} MiB table{limits}{}",
            self.mode(),
            threads,
            if threads == 1 { "" } else { "s" },
            self.hash_mb,
            if self.without.is_empty() {
                String::new()
            } else {
                format!(", without {}", self.without.join(", "))
            }
        )
    }
}

/// `yomi solve`.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// The position: 64 squares from a1 to h8 (`X` black, `O` white, `-` empty), a space and
    /// the side to move (`X` or `O`).
    /// For `--game othello4` or `othello6`: N*N squares row by row and the side, or `start`
    /// (the default) or `parallel` for the two starting positions.
    #[arg(allow_hyphen_values = true, required_unless_present_any = ["obf", "game"])]
    position: Option<String>,
    /// The board: `othello` (8x8, the default), or `othello4` / `othello6`, solved exactly
    /// by the small-board solver (as `yomi solve-small`: exact mode, one thread, no `--obf`,
    /// `--json` or `--without`).
    #[arg(long, value_enum)]
    game: Option<SolveGame>,
    /// Solve every position of an OBF file instead (one per line: board, side and optionally
    /// `; MOVE:score` pairs, whose first score is checked).
    #[arg(long, conflicts_with = "position")]
    obf: Option<PathBuf>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// The boards `yomi solve` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveGame {
    /// Othello on 8x8.
    Othello,
    /// Othello on 4x4.
    Othello4,
    /// Othello on 6x6.
    Othello6,
}

/// `yomi bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Debug, clap::Subcommand)]
enum BenchWhat {
    /// Solve FFO endgame positions (1 to 79, shipped with yomi; 60-79 are the hard suite),
    /// check every score against the published value and print nodes and times; a wrong
    /// score is an error (exit 1), a position stopped by --time or --nodes exits 3.
    Ffo(FfoArgs),
}

#[derive(Debug, clap::Args)]
struct FfoArgs {
    /// The first position.
    #[arg(long, default_value_t = 40)]
    from: usize,
    /// The last position.
    #[arg(long, default_value_t = 49)]
    to: usize,
    /// Solve only the positions whose index in the range (0 for --from) is K mod N, e.g.
    /// 0/4, and print the shard's rows as JSON for `yomi merge`.
    #[arg(long)]
    shard: Option<yomi_arena::Shard>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `yomi solve`.
pub fn run_solve(args: &SolveArgs) -> Res<()> {
    let small = match args.game {
        None | Some(SolveGame::Othello) => None,
        Some(SolveGame::Othello4) => Some(crate::small_cmd::SmallGame::Othello4),
        Some(SolveGame::Othello6) => Some(crate::small_cmd::SmallGame::Othello6),
    };
    if let Some(game) = small {
        let s = &args.solver;
        let refused = [
            (s.wld, "--wld"),
            (args.obf.is_some(), "--obf"),
            (s.json, "--json"),
            (!s.without.is_empty(), "--without"),
        ];
        if let Some((_, opt)) = refused.iter().find(|(on, _)| *on) {
            return Err(format!(
                "{opt} is not available for {game:?} boards: the small-board solver solves exactly, \
                 one position, as text"
            )
            .to_lowercase()
            .into());
        }
        // The table of 24-byte entries closest to --hash-mb.
        let entries = (s.hash_mb as u64 * (1 << 20) / 24).max(1);
        let bits = (63 - entries.leading_zeros()).clamp(10, 28);
        return crate::small_cmd::solve_game(game, args.position.as_deref(), s.time, s.nodes, bits);
    }
    if args.position.is_none() && args.obf.is_none() {
        return Err("yomi solve on 8x8 needs a position (or --obf FILE)".into());
    }
    let mut solver = args.solver.solver()?;
    let mode = args.solver.mode();
    if let Some(path) = &args.obf {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let positions = parse_obf(&text, &path.display().to_string())?;
        println!(
            "{}: {} positions, {}",
            path.display(),
            positions.len(),
            args.solver.describe()
        );
        return solve_table(
            &mut solver,
            &args.solver,
            positions.iter().enumerate().map(|(i, p)| (i + 1, p)),
        );
    }
    let text = args.position.as_deref().unwrap_or_default();
    let pos: Othello = text
        .trim()
        .parse()
        .map_err(|e| format!("bad position `{text}`: {e}"))?;
    let s = solver.solve_limited(&pos, mode, &args.solver.limits());
    let stopped = s
        .stopped
        .map(|reason| Stopped::from_reason(reason, "the solve"));
    if args.solver.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&Row::new(None, &pos, None, &s))?
        );
        return stopped.map_or(Ok(()), |e| Err(e.into()));
    }
    println!("{}", pos.pretty());
    println!("empties  {}", pos.empties().count());
    if let Some(reason) = s.stopped {
        println!("stopped  {reason}: the score is not proved, only bounded");
    }
    println!("score    {}", score_text(&s));
    println!(
        "best     {}",
        s.best
            .map_or_else(|| "- (the game is over)".to_string(), |m| m.to_string())
    );
    if s.stopped.is_some() && s.best.is_some() {
        println!("found    {}", s.best_from);
    }
    let pv: Vec<String> = s.pv.iter().map(ToString::to_string).collect();
    println!(
        "pv       {}",
        if pv.is_empty() {
            "-".into()
        } else {
            pv.join(" ")
        }
    );
    println!("nodes    {}", s.nodes);
    println!("time     {:.3} s", s.elapsed.as_secs_f64());
    println!(
        "speed    {:.1} M nodes/s ({} search)",
        s.nodes_per_second() / 1e6,
        solver.cpu()
    );
    stopped.map_or(Ok(()), |e| Err(e.into()))
}

/// One solved position, as `--json` prints it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Row {
    /// The position's number in its file or suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    number: Option<usize>,
    position: String,
    empties: u32,
    mode: String,
    score: i32,
    /// Whether the solve finished; when not, `score` is the lower bound.
    solved: bool,
    /// Why the solve stopped early (`time`, `nodes`, `interrupted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stopped: Option<String>,
    /// The proved bounds of the score.
    lower: i32,
    upper: i32,
    /// The published score (the first one listed), in the mode's terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    published: Option<i32>,
    best: Option<String>,
    pv: Vec<String>,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

impl Row {
    fn new(number: Option<usize>, pos: &Othello, published: Option<i32>, s: &Solution) -> Row {
        Row {
            number,
            position: pos.to_string(),
            empties: pos.empties().count(),
            mode: s.mode.to_string(),
            score: s.score,
            solved: s.is_solved(),
            stopped: s.stopped.map(stop_name),
            lower: s.lower,
            upper: s.upper,
            published,
            best: s.best.map(|m| m.to_string()),
            pv: s.pv.iter().map(ToString::to_string).collect(),
            nodes: s.nodes,
            seconds: s.elapsed.as_secs_f64(),
            nodes_per_second: s.nodes_per_second(),
        }
    }
}

/// A stop reason as the JSON rows write it.
fn stop_name(r: StopReason) -> String {
    match r {
        StopReason::Time => "time",
        StopReason::Nodes => "nodes",
        StopReason::Interrupted => "interrupted",
    }
    .to_string()
}

/// A row's stop reason back from its JSON name.
fn stop_reason(name: &str) -> Option<StopReason> {
    match name {
        "time" => Some(StopReason::Time),
        "nodes" => Some(StopReason::Nodes),
        "interrupted" => Some(StopReason::Interrupted),
        _ => None,
    }
}

/// A table of solved positions, as `--json` prints it.
#[derive(Debug, serde::Serialize)]
struct Table {
    positions: Vec<Row>,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
}

/// Runs `yomi bench`.
pub fn run_bench(args: &BenchArgs) -> Res<()> {
    let BenchWhat::Ffo(ffo) = &args.what;
    let all = ffo_positions()?;
    if ffo.from < 1 || ffo.to > all.len() || ffo.from > ffo.to {
        return Err(format!(
            "FFO positions run from 1 to {}: --from {} --to {} is not a range of them",
            all.len(),
            ffo.from,
            ffo.to
        )
        .into());
    }
    let mut solver = ffo.solver.solver()?;
    let shard = ffo.shard.unwrap_or(yomi_arena::Shard::WHOLE);
    let positions = all
        .iter()
        .enumerate()
        .map(|(i, p)| (i + 1, p))
        .filter(|(n, _)| (ffo.from..=ffo.to).contains(n))
        .filter(|(n, _)| shard.contains((n - ffo.from) as u64));
    let title = format!(
        "FFO #{}-#{}, {}, {} search",
        ffo.from,
        ffo.to,
        ffo.solver.describe(),
        solver.cpu()
    );
    let Some(shard) = ffo.shard else {
        if !ffo.solver.json {
            println!("{title}");
        }
        return solve_table(&mut solver, &ffo.solver, positions);
    };
    // A shard: the rows on standard error as they come, then its JSON for `yomi merge`.
    eprintln!("{title}, shard {shard}");
    let mode = ffo.solver.mode();
    let mut rows = Vec::new();
    for (n, obf) in positions {
        solver.clear();
        let s = solver.solve_limited(&obf.position, mode, &ffo.solver.limits());
        let row = Row::new(Some(n), &obf.position, published(obf, mode), &s);
        eprintln!("{}", row_line(&row));
        let interrupted = s.stopped == Some(StopReason::Interrupted);
        rows.push(row);
        if interrupted {
            break;
        }
    }
    let file = crate::games::ShardFile::Bench(BenchShard {
        shard,
        from: ffo.from,
        to: ffo.to,
        settings: ffo.solver.describe_run(),
        title,
        complete: rows.len() as u64 == shard.games_of((ffo.to + 1 - ffo.from) as u64),
        rows,
    });
    println!("{}", serde_json::to_string(&file)?);
    let crate::games::ShardFile::Bench(b) = file else {
        unreachable!("built above")
    };
    verdicts(&b.rows)
}

/// A shard of `bench ffo`, as `--shard K/N` prints it and `yomi merge` reads it.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct BenchShard {
    /// Which positions of the range.
    pub shard: yomi_arena::Shard,
    /// The range's first position.
    pub from: usize,
    /// Its last position.
    pub to: usize,
    /// What must be the same in every shard of a run: the mode, the table size, the limits
    /// and the techniques switched off (not the thread count).
    pub settings: String,
    /// The title line of the whole run's table (from this shard's machine).
    pub title: String,
    /// Whether every position of the shard was solved or stopped (not interrupted).
    pub complete: bool,
    /// The rows, in order.
    pub rows: Vec<Row>,
}

/// `yomi merge` of `bench ffo` shards: the whole run's table (or JSON), its verdict and exit
/// status; the rows are the shards' own (times and, with several threads, node counts are
/// each machine's).
///
/// # Errors
/// Shards of different runs (range, settings, shard count), duplicated, missing or
/// incomplete ones; then, as the whole run, wrong scores and stopped positions.
pub fn merge_bench(shards: Vec<BenchShard>, json: bool) -> Res<()> {
    let first = shards.first().ok_or("no shard results to merge")?;
    let n = first.shard.count;
    let mut seen = vec![false; n as usize];
    for s in &shards {
        for (what, theirs, ours) in [
            (
                "range",
                format!("#{}-#{}", s.from, s.to),
                format!("#{}-#{}", first.from, first.to),
            ),
            ("settings", s.settings.clone(), first.settings.clone()),
            ("shard count", s.shard.count.to_string(), n.to_string()),
        ] {
            if theirs != ours {
                return Err(format!(
                    "shard {} is from a different run: its {what} is {theirs}, not {ours}",
                    s.shard
                )
                .into());
            }
        }
        if std::mem::replace(&mut seen[s.shard.index as usize], true) {
            return Err(format!("shard {} is given twice", s.shard).into());
        }
        if !s.complete {
            return Err(format!("shard {} is incomplete: run it again", s.shard).into());
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&k| !seen[k as usize])
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("shards missing: {}", missing.join(", ")).into());
    }
    let json_flag = json;
    let title = first.title.clone();
    let mut rows: Vec<Row> = shards.into_iter().flat_map(|s| s.rows).collect();
    rows.sort_by_key(|r| r.number);
    if !json_flag {
        println!("{title}");
        println!("{}", header_line());
        for r in &rows {
            println!("{}", row_line(r));
        }
    }
    finish(rows, json_flag)
}

/// Every FFO position, numbered from 1.
fn ffo_positions() -> Res<Vec<ObfPosition>> {
    let mut out = Vec::new();
    for (first, text) in FFO_FILES {
        let positions = parse_obf(text, "the built-in FFO suite")?;
        if out.len() + 1 != first {
            return Err("the built-in FFO suite is out of order".into());
        }
        out.extend(positions);
    }
    Ok(out)
}

fn parse_obf(text: &str, name: &str) -> Res<Vec<ObfPosition>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('%'))
        .map(|(i, l)| {
            l.parse::<ObfPosition>()
                .map_err(|e| format!("{name}, line {}: {e}", i + 1).into())
        })
        .collect()
}

/// Solves each position from scratch (table cleared) under the limits, prints a row each and
/// a total (text as it goes, or JSON at the end). Any score that differs from the listed one
/// makes the command fail after the table (exit 1); otherwise a position stopped by a limit
/// makes it exit 3. Ctrl-C ends the table after the position in progress (its bounds shown)
/// and exits 130.
fn solve_table<'a>(
    solver: &mut Solver,
    args: &SolverArgs,
    positions: impl Iterator<Item = (usize, &'a ObfPosition)>,
) -> Res<()> {
    let mode = args.mode();
    if !args.json {
        println!("{}", header_line());
    }
    let mut rows = Vec::new();
    for (n, obf) in positions {
        solver.clear();
        let s = solver.solve_limited(&obf.position, mode, &args.limits());
        let row = Row::new(Some(n), &obf.position, published(obf, mode), &s);
        if !args.json {
            println!("{}", row_line(&row));
        }
        rows.push(row);
        if s.stopped == Some(StopReason::Interrupted) {
            break;
        }
    }
    finish(rows, args.json)
}

/// The published score of a position (its first listed), in the mode's terms.
fn published(obf: &ObfPosition, mode: Mode) -> Option<i32> {
    obf.scores.first().map(|&(_, v)| match mode {
        Mode::Exact => v,
        Mode::Wld => v.signum(),
    })
}

/// The header of the text table.
fn header_line() -> String {
    format!(
        "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10} {:>12}",
        "#", "empties", "score", "want", "move", "nodes", "time (s)", "nodes/s"
    )
}

/// What a row says: a wrong score (with its message), a stop, or nothing.
fn verdict(r: &Row) -> (Option<String>, Option<StopReason>) {
    let n = r.number.unwrap_or(0);
    let stopped = r.stopped.as_deref().and_then(stop_reason);
    let wrong = match (r.published, stopped) {
        (Some(w), None) if w != r.score => {
            Some(format!("#{n}: solved {:+}, published {w:+}", r.score))
        }
        // Bounds that exclude the published score are wrong too.
        (Some(w), Some(_)) if w < r.lower || w > r.upper => Some(format!(
            "#{n}: bounds [{:+}, {:+}] exclude the published {w:+}",
            r.lower, r.upper
        )),
        _ => None,
    };
    (wrong, stopped)
}

/// A row of the text table.
fn row_line(r: &Row) -> String {
    let (wrong, stopped) = verdict(r);
    let note = match (wrong, stopped) {
        (Some(_), _) => "  WRONG",
        (None, Some(StopReason::Interrupted)) => "  interrupted",
        (None, Some(StopReason::Time)) => "  time limit",
        (None, Some(_)) => "  node limit",
        (None, None) => "",
    };
    let cell = if r.solved {
        format!("{:+}", r.score)
    } else {
        format!("[{:+},{:+}]", r.lower, r.upper)
    };
    format!(
        "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}{note}",
        r.number.unwrap_or(0),
        r.empties,
        cell,
        r.published
            .map_or_else(|| "?".to_string(), |w| format!("{w:+}")),
        r.best.as_deref().unwrap_or("-"),
        r.nodes,
        r.seconds,
        r.nodes_per_second
    )
}

/// Prints the total row (or the JSON table) and ends as the rows say: wrong scores fail
/// (exit 1), then an interruption (130), then positions stopped at a limit (3).
fn finish(rows: Vec<Row>, json: bool) -> Res<()> {
    let nodes: u64 = rows.iter().map(|r| r.nodes).sum();
    let secs: f64 = rows
        .iter()
        .map(|r| Duration::from_secs_f64(r.seconds))
        .sum::<Duration>()
        .as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let result = verdicts(&rows);
    if json {
        let table = Table {
            positions: rows,
            nodes,
            seconds: secs,
            nodes_per_second: rate,
        };
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        println!(
            "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}",
            "all", "", "", "", "", nodes, secs, rate
        );
    }
    result
}

/// The end of a table: wrong scores fail (exit 1), then an interruption (130), then positions
/// stopped at a limit (3).
fn verdicts(rows: &[Row]) -> Res<()> {
    let mut wrong = Vec::new();
    let mut limited = Vec::new();
    let mut interrupted = false;
    for r in rows {
        let (w, stopped) = verdict(r);
        match (w, stopped) {
            (Some(w), _) => wrong.push(w),
            (None, Some(StopReason::Interrupted)) => interrupted = true,
            (None, Some(_)) => limited.push(r.number.unwrap_or(0)),
            (None, None) => {}
        }
    }
    if !wrong.is_empty() {
        return Err(format!("wrong scores: {}", wrong.join("; ")).into());
    }
    if interrupted {
        return Err(Stopped {
            code: EXIT_INTERRUPTED,
            message: "interrupted: the rows above are the positions finished".to_string(),
        }
        .into());
    }
    if !limited.is_empty() {
        let list: Vec<String> = limited.iter().map(|n| format!("#{n}")).collect();
        return Err(Stopped {
            code: EXIT_LIMIT,
            message: format!(
                "{} position{} stopped at a limit before being solved: {}",
                limited.len(),
                if limited.len() == 1 { "" } else { "s" },
                list.join(" ")
            ),
        }
        .into());
    }
    Ok(())
}

/// The score as text: `+18` (exact) or `win (+1)` (WLD); the proved bounds of a stopped solve.
fn score_text(s: &Solution) -> String {
    if !s.is_solved() {
        let word = |v: i32| match (s.mode, v.signum()) {
            (Mode::Exact, _) => format!("{v:+}"),
            (Mode::Wld, 1) => "win".to_string(),
            (Mode::Wld, 0) => "draw".to_string(),
            (Mode::Wld, _) => "loss".to_string(),
        };
        return format!(
            "between {} and {} ({}, not finished)",
            word(s.lower),
            word(s.upper),
            s.mode
        );
    }
    match s.mode {
        Mode::Exact => format!("{:+} (exact)", s.score),
        Mode::Wld => match s.score {
            1 => "win (wld)".to_string(),
            0 => "draw (wld)".to_string(),
            _ => "loss (wld)".to_string(),
        },
    }
}
