//! `yomi solve` and `yomi bench ffo`: the Othello endgame solver on one position, on a file of
//! positions, and on the FFO test suite shipped with yomi.

use std::path::PathBuf;
use std::time::Duration;

use yomi_endgame::{Features, Mode, Solution, Solver, SolverConfig};
use yomi_othello::{ObfPosition, Othello};

use crate::Res;

/// The FFO endgame suite (positions 1 to 59, as shipped in `data/ffo/`).
const FFO_FILES: [(usize, &str); 4] = [
    (1, include_str!("../../../data/ffo/fforum-1-19.obf")),
    (20, include_str!("../../../data/ffo/fforum-20-39.obf")),
    (40, include_str!("../../../data/ffo/fforum-40-49.obf")),
    (50, include_str!("../../../data/ffo/fforum-50-59.obf")),
];

/// The solver's options shared by `solve` and `bench ffo`.
#[derive(Debug, clap::Args)]
pub struct SolverArgs {
    /// Solve for win/loss/draw only (the score is 1, 0 or -1) instead of the exact disc
    /// difference.
    #[arg(long)]
    wld: bool,
    /// Threads (the score is the same for any count).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in MiB (1 to 16384).
    #[arg(long = "hash-mb", default_value_t = 64)]
    hash_mb: usize,
    /// Switch solver techniques off, to measure what they save (comma-separated: table,
    /// mobility, shallow, parity, stability, etc, wld-first). The scores do not change.
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

    fn solver(&self) -> Res<Solver> {
        let mut features = Features::default();
        for name in &self.without {
            features = features.without(name)?;
        }
        Ok(Solver::new(SolverConfig {
            threads: self.threads,
            hash_mb: self.hash_mb,
            features,
            ..SolverConfig::default()
        })?)
    }

    fn describe(&self) -> String {
        format!(
            "{}, {} thread{}, {} MiB table{}",
            self.mode(),
            self.threads,
            if self.threads == 1 { "" } else { "s" },
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
    #[arg(allow_hyphen_values = true, required_unless_present = "obf")]
    position: Option<String>,
    /// Solve every position of an OBF file instead (one per line: board, side and optionally
    /// `; MOVE:score` pairs, whose first score is checked).
    #[arg(long, conflicts_with = "position")]
    obf: Option<PathBuf>,
    #[command(flatten)]
    solver: SolverArgs,
}

/// `yomi bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Debug, clap::Subcommand)]
enum BenchWhat {
    /// Solve FFO endgame positions (1 to 59, shipped with yomi), check every score against the
    /// published value and print nodes and times; a wrong score is an error.
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
    #[command(flatten)]
    solver: SolverArgs,
}

/// Runs `yomi solve`.
pub fn run_solve(args: &SolveArgs) -> Res<()> {
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
    let s = solver.solve(&pos, mode);
    if args.solver.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&Row::new(None, &pos, None, &s))?
        );
        return Ok(());
    }
    println!("{}", pos.pretty());
    println!("empties  {}", pos.empties().count());
    println!("score    {}", score_text(&s));
    println!(
        "best     {}",
        s.best
            .map_or_else(|| "- (the game is over)".to_string(), |m| m.to_string())
    );
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
    println!("speed    {:.1} M nodes/s", s.nodes_per_second() / 1e6);
    Ok(())
}

/// One solved position, as `--json` prints it.
#[derive(Debug, serde::Serialize)]
struct Row {
    /// The position's number in its file or suite.
    #[serde(skip_serializing_if = "Option::is_none")]
    number: Option<usize>,
    position: String,
    empties: u32,
    mode: String,
    score: i32,
    /// The published score (the first one listed), in the mode's terms.
    #[serde(skip_serializing_if = "Option::is_none")]
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
            published,
            best: s.best.map(|m| m.to_string()),
            pv: s.pv.iter().map(ToString::to_string).collect(),
            nodes: s.nodes,
            seconds: s.elapsed.as_secs_f64(),
            nodes_per_second: s.nodes_per_second(),
        }
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
    if !ffo.solver.json {
        println!("FFO #{}-#{}, {}", ffo.from, ffo.to, ffo.solver.describe());
    }
    solve_table(
        &mut solver,
        &ffo.solver,
        all.iter()
            .enumerate()
            .map(|(i, p)| (i + 1, p))
            .filter(|(n, _)| (ffo.from..=ffo.to).contains(n)),
    )
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

/// Solves each position from scratch (table cleared), prints a row each and a total (text
/// as it goes, or JSON at the end); any score that differs from the listed one makes the
/// command fail after the table.
fn solve_table<'a>(
    solver: &mut Solver,
    args: &SolverArgs,
    positions: impl Iterator<Item = (usize, &'a ObfPosition)>,
) -> Res<()> {
    let mode = args.mode();
    if !args.json {
        println!(
            "{:>4} {:>7} {:>6} {:>6} {:>5} {:>14} {:>10} {:>12}",
            "#", "empties", "score", "want", "move", "nodes", "time (s)", "nodes/s"
        );
    }
    let (mut rows, mut nodes, mut time, mut wrong) = (Vec::new(), 0u64, Duration::ZERO, Vec::new());
    for (n, obf) in positions {
        solver.clear();
        let s = solver.solve(&obf.position, mode);
        let want = obf.scores.first().map(|&(_, v)| match mode {
            Mode::Exact => v,
            Mode::Wld => v.signum(),
        });
        let verdict = match want {
            Some(w) if w != s.score => {
                wrong.push(format!("#{n}: solved {:+}, published {w:+}", s.score));
                "  WRONG"
            }
            _ => "",
        };
        if args.json {
            rows.push(Row::new(Some(n), &obf.position, want, &s));
        } else {
            println!(
                "{n:>4} {:>7} {:>+6} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}{verdict}",
                obf.position.empties().count(),
                s.score,
                want.map_or_else(|| "?".to_string(), |w| format!("{w:+}")),
                s.best.map_or_else(|| "-".to_string(), |m| m.to_string()),
                s.nodes,
                s.elapsed.as_secs_f64(),
                s.nodes_per_second()
            );
        }
        nodes += s.nodes;
        time += s.elapsed;
    }
    let secs = time.as_secs_f64();
    let rate = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if args.json {
        let table = Table {
            positions: rows,
            nodes,
            seconds: secs,
            nodes_per_second: rate,
        };
        println!("{}", serde_json::to_string_pretty(&table)?);
    } else {
        println!(
            "{:>4} {:>7} {:>6} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}",
            "all", "", "", "", "", nodes, secs, rate
        );
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("wrong scores: {}", wrong.join("; ")).into())
    }
}

/// The score as text: `+18` (exact) or `win (+1)` (WLD).
fn score_text(s: &Solution) -> String {
    match s.mode {
        Mode::Exact => format!("{:+} (exact)", s.score),
        Mode::Wld => match s.score {
            1 => "win (wld)".to_string(),
            0 => "draw (wld)".to_string(),
            _ => "loss (wld)".to_string(),
        },
    }
}
