//! `yomi solve` and `yomi bench ffo`: the Othello endgame solver on one position, on a file of
//! positions, and on the FFO test suite shipped with yomi.

use std::path::PathBuf;

use yomi_core::{Game, Limits, NodeCount, Seconds, Shard};
use yomi_othello::{Board, ObfPosition, Othello};
use yomi_othello_search::{
    bench_header, bench_rows, bench_verdict, merge_bench, parse_obf, BenchRow, BenchShard,
    BenchTable, BenchVerdict, Features, FfoError, FfoSuite, Mode, Solution, Solver, SolverConfig,
};

use crate::stopped::{Stopped, EXIT_INTERRUPTED, EXIT_LIMIT};
use crate::{interrupt, Res};

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
    /// mobility, shallow, learned, parity, stability, etc, wld-first, guess, hints, selective). The
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
    /// The board: `othello` (8x8, the default), or `othello4` / `othello6`, solved by the
    /// same solver with the same options (no `--obf` or `--json`; the selective passes and
    /// the guess at the score, which use the 8x8 evaluation, run only on 8x8).
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
    /// Time to depth of the `othello` agent's midgame search on a set of positions (such as
    /// data/midgame/othello-200.txt): nodes, time and the effective branching factor per
    /// depth.
    Midgame(crate::bench_midgame::MidgameArgs),
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
    shard: Option<Shard>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `yomi solve`: 8x8 (one position or an OBF file), or a 4x4 / 6x6 position (the
/// diagonal start by default), all by the same solver.
pub fn run_solve(args: &SolveArgs) -> Res<()> {
    let text = args.position.as_deref();
    match args.game {
        None | Some(SolveGame::Othello) => {}
        Some(SolveGame::Othello4) => {
            refuse_on_small(args, "othello4")?;
            return solve_one::<4>(args, crate::parse_position(text)?);
        }
        Some(SolveGame::Othello6) => {
            refuse_on_small(args, "othello6")?;
            return solve_one::<6>(args, crate::parse_position(text)?);
        }
    }
    if let Some(path) = &args.obf {
        let mut solver = args.solver.solver()?;
        let positions = read_obf(path)?;
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
    let Some(text) = text else {
        return Err("yomi solve on 8x8 needs a position (or --obf FILE)".into());
    };
    let pos: Othello = text
        .trim()
        .parse()
        .map_err(|e| format!("bad position `{text}`: {e}"))?;
    solve_one::<8>(args, pos)
}

/// The options that only 8x8 takes: OBF files are 8x8 suites, and the JSON row is the FFO
/// bench's, of an 8x8 position.
fn refuse_on_small(args: &SolveArgs, game: &str) -> Res<()> {
    let refused = [(args.obf.is_some(), "--obf"), (args.solver.json, "--json")];
    match refused.iter().find(|(on, _)| *on) {
        Some((_, opt)) => {
            Err(format!("{opt} is only available for 8x8 othello, not {game}").into())
        }
        None => Ok(()),
    }
}

/// Solves one position of any size under the limits and prints the report (or, on 8x8, the
/// JSON row); a solve stopped by a limit ends with its exit status (3, or 130 for Ctrl-C).
fn solve_one<const N: usize>(args: &SolveArgs, pos: Board<N>) -> Res<()> {
    let mut solver = args.solver.solver()?;
    let mode = args.solver.mode();
    let s = solver.solve_limited(&pos, mode, &args.solver.limits());
    let stopped = s
        .stopped
        .map(|reason| Stopped::from_reason(reason, "the solve"));
    if args.solver.json {
        // Only 8x8 gets here (`refuse_on_small`), where this is `pos` itself.
        let pos = Othello::from_sides(pos.player(), pos.opponent(), pos.side_to_move());
        println!(
            "{}",
            serde_json::to_string_pretty(&BenchRow::new(None, &pos, None, &s))?
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

/// Runs `yomi bench`.
pub fn run_bench(args: &BenchArgs) -> Res<()> {
    match &args.what {
        BenchWhat::Ffo(ffo) => run_ffo(ffo),
        BenchWhat::Midgame(m) => crate::bench_midgame::run(m),
    }
}

/// Runs `yomi bench ffo`.
fn run_ffo(ffo: &FfoArgs) -> Res<()> {
    let suite = FfoSuite::load()?;
    let shard = ffo.shard.unwrap_or(Shard::WHOLE);
    let positions = suite.range(ffo.from, ffo.to, shard).map_err(|e| match e {
        FfoError::BadRange { count, .. } => format!(
            "FFO positions run from 1 to {count}: --from {} --to {} is not a range of them",
            ffo.from, ffo.to
        ),
        other => other.to_string(),
    })?;
    let mut solver = ffo.solver.solver()?;
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
    let rows = bench_rows(
        &mut solver,
        positions,
        ffo.solver.mode(),
        &ffo.solver.limits(),
        |row| eprintln!("{}", row.line()),
    );
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

/// `yomi merge` of `bench ffo` shards: the whole run's table (or JSON), its verdict and exit
/// status; the rows are the shards' own (times and, with several threads, node counts are
/// each machine's).
///
/// # Errors
/// Shards of different runs (range, settings, shard count), duplicated, missing or
/// incomplete ones; then, as the whole run, wrong scores and stopped positions.
pub fn merge_bench_shards(shards: Vec<BenchShard>, json: bool) -> Res<()> {
    let (title, rows) = merge_bench(shards)?;
    if !json {
        println!("{title}");
        println!("{}", bench_header());
        for r in &rows {
            println!("{}", r.line());
        }
    }
    finish(rows, json)
}

/// The positions of an OBF file, numbered from 1.
fn read_obf(path: &std::path::Path) -> Res<Vec<ObfPosition>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(parse_obf(&text).map_err(|e| format!("{}, {e}", path.display()))?)
}

/// Solves each position from scratch (table cleared) under the limits, prints a row each and
/// a total (text as it goes, or JSON at the end). Any score that differs from the listed one
/// makes the command fail after the table (exit 1); otherwise a position stopped by a limit
/// makes it exit 3. Ctrl-C ends the table after the position in progress (its bounds shown)
/// and exits 130.
fn solve_table<'a>(
    solver: &mut Solver,
    args: &SolverArgs,
    positions: impl IntoIterator<Item = (usize, &'a ObfPosition)>,
) -> Res<()> {
    if !args.json {
        println!("{}", bench_header());
    }
    let rows = bench_rows(solver, positions, args.mode(), &args.limits(), |row| {
        if !args.json {
            println!("{}", row.line());
        }
    });
    finish(rows, args.json)
}

/// Prints the total row (or the JSON table) and ends as the rows say: wrong scores fail
/// (exit 1), then an interruption (130), then positions stopped at a limit (3).
fn finish(rows: Vec<BenchRow>, json: bool) -> Res<()> {
    let result = verdicts(&rows);
    let table = BenchTable::new(rows);
    if json {
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        println!("{}", table.total_line());
    }
    result
}

/// The end of a table: wrong scores fail (exit 1), then an interruption (130), then positions
/// stopped at a limit (3).
fn verdicts(rows: &[BenchRow]) -> Res<()> {
    match bench_verdict(rows) {
        BenchVerdict::Wrong(wrong) => Err(format!("wrong scores: {}", wrong.join("; ")).into()),
        BenchVerdict::Interrupted => Err(Stopped {
            code: EXIT_INTERRUPTED,
            message: "interrupted: the rows above are the positions finished".to_string(),
        }
        .into()),
        BenchVerdict::Limited(limited) => {
            let list: Vec<String> = limited.iter().map(|n| format!("#{n}")).collect();
            Err(Stopped {
                code: EXIT_LIMIT,
                message: format!(
                    "{} position{} stopped at a limit before being solved: {}",
                    limited.len(),
                    if limited.len() == 1 { "" } else { "s" },
                    list.join(" ")
                ),
            }
            .into())
        }
        // `BenchVerdict` may gain cases; only a pass is a success.
        BenchVerdict::Passed => Ok(()),
    }
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
