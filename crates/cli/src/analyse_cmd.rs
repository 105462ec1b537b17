//! `yomi analyse` (also `analyze`): game review by disc loss, over a move line, a GGF file, a
//! WTHOR file or a match record, with `yomi_othello_search::Reviewer`; and, with
//! `--position`, one position's analysis as the page of `yomi serve` shows it (every move's
//! value and loss, the best line), with `yomi_agents::analyse_position`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use yomi_agents::{
    analyse_position, othello_analyst, AnalysedValue, Analyst, PositionAnalysis, Zoo,
    OTHELLO_ANALYST,
};
use yomi_core::{Game, Player};
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::{GameReview, ReviewConfig, Reviewer, ValueKind, Weights};

use crate::game_files::{read_games, GameFormat};
use crate::Res;

/// Arguments of `yomi analyse`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// A game as a move line from the start (`f5 d6 c3`, `1. f5 d6 2. c3`, `f5-d6-c3`,
    /// `f5d6c3`), instead of a file.
    line: Option<String>,
    /// Analyse one position instead of a game: every legal move's value and loss and the best
    /// line, as the page of `yomi serve` shows them, from this position (a board as
    /// `yomi show` reads it, or `start`), after the move line if one is given. Its analyst is
    /// --agent, given --time (default 1 s); --depth, --exact and --wld are for games.
    #[arg(long, value_name = "POS", allow_hyphen_values = true, conflicts_with_all = ["ggf", "wthor", "record", "index", "csv"])]
    position: Option<String>,
    /// The analyst of --position: an `othello` agent spec (its time is --time's).
    #[arg(long, default_value = OTHELLO_ANALYST, requires = "position")]
    agent: String,
    /// Games of a GGF file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["wthor", "record", "line"])]
    ggf: Option<PathBuf>,
    /// Games of a WTHOR `.wtb` file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["record", "line"])]
    wthor: Option<PathBuf>,
    /// Games of a match record (`yomi match --record`, JSON lines; Othello).
    #[arg(long, value_name = "FILE", conflicts_with = "line")]
    record: Option<PathBuf>,
    /// Only this game of the file, counted from 1 (default: every game).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    index: Option<u64>,
    /// The midgame search's depth for each position.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// A time limit for each midgame position, in seconds (the deepest completed depth then
    /// counts, so the values depend on the machine).
    #[arg(long)]
    time: Option<f64>,
    /// Solve every move exactly at this many empty squares or fewer (at most 24).
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=24))]
    exact: u32,
    /// Solve every move for win/loss/draw at this many empty squares or fewer (default: the
    /// same as --exact, no WLD stage; at most 26).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=26))]
    wld: Option<u32>,
    /// Threads of each solve (the values do not depend on it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// The size of each table, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=16384))]
    hash_mb: u64,
    /// Print JSON instead of tables.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV, one row per move.
    #[arg(long)]
    csv: bool,
}

/// A game to review: where it comes from, its start and its moves.
struct Source {
    label: String,
    start: Othello,
    moves: Vec<Move>,
}

/// `items` or, with `--index`, its `index`-th (from 1), numbered from 1.
fn pick<T>(items: Vec<T>, index: Option<u64>, path: &Path) -> Res<Vec<(u64, T)>> {
    if let Some(i) = index {
        crate::engine_cmd::game_at(&items, i, path)?;
    }
    Ok(items
        .into_iter()
        .zip(1u64..)
        .filter(|(_, k)| index.is_none_or(|i| i == *k))
        .map(|(t, k)| (k, t))
        .collect())
}

fn sources(args: &AnalyseArgs) -> Res<Vec<Source>> {
    for (file, format) in [
        (&args.ggf, GameFormat::Ggf),
        (&args.wthor, GameFormat::Wthor),
        (&args.record, GameFormat::Record),
    ] {
        if let Some(path) = file {
            let games = read_games(path, Some(format))?;
            return Ok(pick(games, args.index, path)?
                .into_iter()
                .map(|(_, g)| Source {
                    label: format!("{} game {}", path.display(), g.index),
                    start: g.start,
                    moves: g.moves,
                })
                .collect());
        }
    }
    let Some(line) = &args.line else {
        return Err("give a move line, or --ggf, --wthor or --record FILE".into());
    };
    if args.index.is_some() {
        return Err("--index goes with a file (--ggf, --wthor, --record)".into());
    }
    let moves: MoveSequence = line
        .parse()
        .map_err(|e| format!("bad move line {line:?}: {e}"))?;
    Ok(vec![Source {
        label: "the move line".into(),
        start: Othello::new(),
        moves: moves.0,
    }])
}

/// Runs `yomi analyse`.
pub fn run(args: &AnalyseArgs) -> Res<()> {
    let time = match args.time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t <= 1e6 => Some(Duration::from_secs_f64(t)),
        Some(t) => return Err(format!("--time takes seconds above 0, not {t}").into()),
    };
    if let Some(text) = &args.position {
        return position(args, text, time.unwrap_or(Duration::from_secs(1)));
    }
    let wld = args.wld.unwrap_or(args.exact);
    if wld < args.exact {
        return Err(format!(
            "--wld {wld} is below --exact {}: the WLD stage comes first",
            args.exact
        )
        .into());
    }
    let games = sources(args)?;
    let config = ReviewConfig {
        depth: args.depth,
        time,
        exact: args.exact,
        wld,
        threads: args.threads as usize,
        hash_mb: args.hash_mb as usize,
    };
    let mut reviewer = Reviewer::new(config, Weights::builtin())?;
    let total: u64 = games.iter().map(|g| g.moves.len() as u64).sum();
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} moves {per_sec} {elapsed} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let clock = Instant::now();
    let mut reviews = Vec::with_capacity(games.len());
    for g in &games {
        let review = reviewer
            .review_with(&g.start, &g.moves, |_| bar.inc(1))
            .map_err(|e| format!("{}: {e}", g.label))?;
        reviews.push(review);
    }
    bar.finish_and_clear();
    let elapsed = clock.elapsed().as_secs_f64();
    let (hits, searched) = reviewer.cache_stats();
    let out = if args.json {
        json(&games, &reviews, hits, searched, elapsed)
    } else if args.csv {
        csv(&games, &reviews)
    } else {
        tables(&games, &reviews, hits, searched, elapsed)
    };
    print!("{out}");
    Ok(())
}

/// `black` or `white`.
fn side(p: Player) -> &'static str {
    Othello::PLAYER_NAMES[p.index()]
}

/// `+1.25` for an estimate, `+18` for an exact value, `win` / `draw` / `loss` for WLD.
fn value_text(v: f64, kind: ValueKind) -> String {
    match kind {
        ValueKind::Wld => match v.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => "win".into(),
            Some(std::cmp::Ordering::Less) => "loss".into(),
            _ => "draw".into(),
        },
        ValueKind::Exact => format!("{v:+.0}"),
        ValueKind::Estimate { .. } => format!("{v:+.2}"),
    }
}

fn loss_text(loss: f64, kind: ValueKind) -> String {
    match kind {
        ValueKind::Wld if loss > 0.0 => format!("{loss:.0} result"),
        ValueKind::Exact => format!("{loss:.0}"),
        _ => format!("{loss:.2}"),
    }
}

fn summary(g: &Source, r: &GameReview) -> String {
    let mut s = format!(
        "{}: {} moves; discs lost: black {:.2}, white {:.2}",
        g.label,
        r.moves.len(),
        r.loss[0],
        r.loss[1]
    );
    match r.result {
        Some(v) => write!(s, "; result {v:+} for black").unwrap(),
        None => s.push_str("; unfinished"),
    }
    if let Some(k) = r.decisive {
        let m = &r.moves[k];
        write!(
            s,
            "; decided by move {} ({} by {})",
            m.number,
            m.played,
            side(m.player)
        )
        .unwrap();
    }
    s
}

fn tables(
    games: &[Source],
    reviews: &[GameReview],
    hits: u64,
    searched: u64,
    elapsed: f64,
) -> String {
    let mut out = String::new();
    for (g, r) in games.iter().zip(reviews) {
        writeln!(out, "{}", summary(g, r)).unwrap();
        writeln!(
            out,
            "{:>4}  {:<5}  {:>7}  {:<4}  {:>7}  {:<4}  {:>7}  {:>9}  how",
            "move", "side", "empties", "play", "value", "best", "value", "loss"
        )
        .unwrap();
        for m in &r.moves {
            let how = if m.forced {
                format!("{}, forced", m.kind)
            } else {
                m.kind.to_string()
            };
            writeln!(
                out,
                "{:>4}  {:<5}  {:>7}  {:<4}  {:>7}  {:<4}  {:>7}  {:>9}  {how}",
                m.number,
                side(m.player),
                m.empties,
                m.played.to_string(),
                value_text(m.played_value, m.kind),
                m.best.to_string(),
                value_text(m.best_value, m.kind),
                loss_text(m.loss, m.kind),
            )
            .unwrap();
        }
        out.push('\n');
    }
    let positions = hits + searched;
    writeln!(
        out,
        "{} game{}, {positions} positions valued in {elapsed:.2} s ({:.1} a second), {hits} \
         from memory ({:.1}%)",
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        positions as f64 / elapsed.max(1e-9),
        100.0 * hits as f64 / positions.max(1) as f64
    )
    .unwrap();
    out
}

fn json(
    games: &[Source],
    reviews: &[GameReview],
    hits: u64,
    searched: u64,
    elapsed: f64,
) -> String {
    let games: Vec<serde_json::Value> = games
        .iter()
        .zip(reviews)
        .map(|(g, r)| {
            let moves: Vec<serde_json::Value> = r
                .moves
                .iter()
                .map(|m| {
                    serde_json::json!({
                        "number": m.number,
                        "player": side(m.player),
                        "empties": m.empties,
                        "move": m.played.to_string(),
                        "value": m.played_value,
                        "best": m.best.to_string(),
                        "best_value": m.best_value,
                        "loss": m.loss,
                        "kind": m.kind.name(),
                        "depth": m.kind.depth(),
                        "forced": m.forced,
                    })
                })
                .collect();
            serde_json::json!({
                "game": g.label,
                "start": g.start.to_string(),
                "result": r.result,
                "loss": { "black": r.loss[0], "white": r.loss[1] },
                "decisive": r.decisive.map(|k| r.moves[k].number),
                "moves": moves,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "games": games,
        "positions": { "searched": searched, "from_memory": hits },
        "seconds": elapsed,
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).expect("JSON of plain values")
    )
}

fn csv(games: &[Source], reviews: &[GameReview]) -> String {
    let mut out = String::from(
        "game,number,player,empties,move,value,best,best_value,loss,kind,depth,forced\n",
    );
    for (i, (_, r)) in games.iter().zip(reviews).enumerate() {
        for m in &r.moves {
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                i + 1,
                m.number,
                side(m.player),
                m.empties,
                m.played,
                m.played_value,
                m.best,
                m.best_value,
                m.loss,
                m.kind.name(),
                m.kind.depth().map_or(String::new(), |d| d.to_string()),
                m.forced
            )
            .unwrap();
        }
    }
    out
}

/// `yomi analyse --position`: one position's analysis by the library the page uses.
fn position(args: &AnalyseArgs, text: &str, time: Duration) -> Res<()> {
    let mut pos = if text == "start" {
        Othello::new()
    } else {
        text.parse::<Othello>()
            .map_err(|e| format!("bad othello position {text:?}: {e}"))?
    };
    if let Some(line) = &args.line {
        let moves: MoveSequence = line
            .parse()
            .map_err(|e| format!("bad move line {line:?}: {e}"))?;
        pos = moves
            .play_from(&pos)
            .map_err(|e| format!("move line {line:?}: {e}"))?;
    }
    let zoo = Othello::zoo();
    let analyst = othello_analyst(&zoo, &args.agent, time)
        .map_err(|e| format!("--agent {}: {e}", args.agent))?;
    let secs = time.as_secs_f64();
    let a = analyse_position(&zoo, &analyst, &pos, time, &crate::interrupt::stop_flag())?;
    let out = if args.json {
        position_json(&pos, &analyst, secs, &a)
    } else {
        position_table(&pos, &analyst, &a)
    };
    print!("{out}");
    Ok(())
}

fn position_table(pos: &Othello, analyst: &Analyst<Othello>, a: &PositionAnalysis<Move>) -> String {
    let mut s = format!(
        "{pos}\n{} to move, analysed by {}\n\n{:<6} {:>8}  {:<10} {:>6}\n",
        side(pos.side_to_move()),
        analyst.spec,
        "move",
        "value",
        "kind",
        "loss"
    );
    for (mv, v) in &a.moves {
        let kind = match v.depth {
            Some(d) => format!("depth {d}"),
            None => v.kind.name().to_string(),
        };
        let loss = a.loss(*mv).map_or("-".to_string(), |l| format!("{l:.2}"));
        let best = if a.best.contains(mv) { " best" } else { "" };
        let _ = writeln!(
            s,
            "{:<6} {:>8}  {kind:<10} {loss:>6}{best}",
            mv.to_string(),
            v.to_string()
        );
    }
    if let Some(v) = &a.value {
        let _ = writeln!(s, "\nvalue: {v} ({})", v.kind.name());
    }
    if !a.line.is_empty() {
        let line: Vec<String> = a.line.iter().map(ToString::to_string).collect();
        let _ = writeln!(s, "best line: {}", line.join(" "));
    }
    if a.stopped.is_some() {
        s.push_str("interrupted: the values are those of the last completed depth\n");
    }
    for n in &a.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}

fn value_json(v: &AnalysedValue) -> serde_json::Value {
    serde_json::json!({
        "kind": v.kind.name(),
        "value": v.value,
        "text": v.to_string(),
        "depth": v.depth,
        "upper_bound": v.upper_bound,
    })
}

fn position_json(
    pos: &Othello,
    analyst: &Analyst<Othello>,
    secs: f64,
    a: &PositionAnalysis<Move>,
) -> String {
    let moves: Vec<serde_json::Value> = a
        .moves
        .iter()
        .map(|(mv, v)| {
            serde_json::json!({
                "move": mv.to_string(),
                "value": value_json(v),
                "loss": a.loss(*mv),
                "best": a.best.contains(mv),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "position": pos.to_string(),
        "to_move": side(pos.side_to_move()),
        "analyst": analyst.spec,
        "time": secs,
        "moves": moves,
        "best": a.best.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "line": a.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "value": a.value.as_ref().map(value_json),
        "notes": a.notes,
        "stopped": a.stopped.is_some(),
    });
    format!("{doc:#}\n")
}
