//! `yomi openings generate`: balanced Othello openings made by the project's own search.
//!
//! Candidate `c` is a random legal line of `--plies` plies drawn from `Rng::for_stream(seed,
//! c)`. Candidates are taken in index order; a line whose final position is an image (under the
//! 8 symmetries of the board) of an earlier candidate's is skipped, and the others are rated by
//! the `othello` agent's midgame search at a fixed depth without a time limit (so the value
//! depends only on the position). A line is kept when its value is within `--max-value` discs.
//! The first `--count` kept lines, in candidate order, are written: the file is the same at any
//! thread count.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use yomi_agents::Zoo;
use yomi_core::{Game, Player, Rng};
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::{EVAL_LIMIT, FINAL_SCALE};

use yomi_agents::GameKind;

use crate::{game_parser, interrupt, Res};

/// Arguments of `yomi openings`.
#[derive(Debug, clap::Args)]
pub struct OpeningsArgs {
    #[command(subcommand)]
    pub command: OpeningsCommand,
}

/// The `openings` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum OpeningsCommand {
    /// Random legal lines kept when a fixed-depth search rates them balanced; one per line,
    /// `MOVES<TAB>VALUE` (value in discs for black), deduplicated up to symmetry.
    Generate(GenerateArgs),
}

/// Arguments of `yomi openings generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// The game (only Othello has a search deep enough to rate openings).
    #[arg(long, default_value = "othello", value_parser = game_parser())]
    pub game: GameKind,
    /// Plies in each line.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub plies: u32,
    /// Openings to write.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// Keep a line when its value is within this many discs of 0.
    #[arg(long, default_value_t = 2.0)]
    pub max_value: f64,
    /// The depth of the `othello` agent's search that rates each line (no time limit).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Master seed of the random lines.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores). The file does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// Give up after this many candidate lines (a guard against a too small `--max-value`).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_candidates: u64,
}

/// Runs `yomi openings`.
pub fn run(args: &OpeningsArgs) -> Res<()> {
    match &args.command {
        OpeningsCommand::Generate(g) => generate(g),
    }
}

/// A random legal line of `plies` plies from the start without a pass, or `None` when the
/// game ends or a side must pass first.
fn random_line(seed: u64, index: u64, plies: u32) -> Option<(Vec<Move>, Othello)> {
    let mut rng = Rng::for_stream(seed, index);
    let mut pos = Othello::new();
    let mut line = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let mv = *rng.choose(&moves)?;
        if mv == Move::Pass {
            return None;
        }
        line.push(mv);
        pos = pos.play_unchecked(mv);
    }
    (!pos.is_over()).then_some((line, pos))
}

/// A search score (evaluation units of about 1/100 disc; a finished game `FINAL_SCALE` per
/// disc) in discs.
fn discs(score: f64) -> f64 {
    if score.abs() > f64::from(EVAL_LIMIT) {
        score / f64::from(FINAL_SCALE)
    } else {
        score / 100.0
    }
}

/// The value of `pos` in discs for black: the best move's search value for the side to move.
fn rate(agent: &mut dyn yomi_core::Agent<Othello>, pos: &Othello) -> Res<f64> {
    let mut rng = Rng::seed_from_u64(0);
    let e = agent.explain(pos, &mut rng)?;
    let best = e
        .moves
        .iter()
        .map(|m| m.score)
        .fold(f64::NEG_INFINITY, f64::max);
    let mover = discs(best);
    Ok(if pos.side_to_move() == Player::First {
        mover
    } else {
        -mover
    })
}

fn generate(args: &GenerateArgs) -> Res<()> {
    if args.game != GameKind::Othello {
        return Err(
            "openings generate rates lines with the othello agent's search: \
                    only --game othello is supported"
                .into(),
        );
    }
    if !args.max_value.is_finite() || args.max_value < 0.0 {
        return Err(format!("--max-value must be 0 or more, not {}", args.max_value).into());
    }
    // `exact=0,wld=0`: never solve, always the midgame search at exactly this depth; with the
    // hand-made evaluation, which made the shipped openings (data/openings/othello-8ply.txt).
    let spec = format!(
        "othello:time=0,depth={},wld=0,exact=0,hash_mb=16,eval=hand",
        args.depth
    );
    let zoo = Othello::zoo();
    zoo.build(&spec)?;
    let threads = args
        .threads
        .map_or_else(
            || std::thread::available_parallelism().map_or(1, usize::from),
            |t| t as usize,
        )
        .max(1);
    let stop = interrupt::stop_flag();
    let clock = Instant::now();
    let mut seen: HashSet<Othello> = HashSet::new();
    let mut kept: Vec<(String, f64)> = Vec::new();
    let (mut candidates, mut unique, mut rated) = (0u64, 0u64, 0u64);
    let batch = 8 * threads;
    'outer: while (kept.len() as u64) < args.count {
        // The next batch of new lines, in candidate order.
        let mut todo: Vec<(Vec<Move>, Othello)> = Vec::with_capacity(batch);
        while todo.len() < batch {
            if candidates >= args.max_candidates {
                break;
            }
            let c = candidates;
            candidates += 1;
            if let Some((line, pos)) = random_line(args.seed, c, args.plies) {
                if seen.insert(pos.canonical()) {
                    unique += 1;
                    todo.push((line, pos));
                }
            }
        }
        if todo.is_empty() {
            break;
        }
        let values: Vec<Mutex<Option<Res<f64>>>> = todo.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads.min(todo.len()) {
                s.spawn(|| {
                    let mut agent = zoo.build(&spec).expect("spec checked");
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= todo.len() || stop.is_set() {
                            break;
                        }
                        let v = rate(agent.as_mut(), &todo[i].1);
                        *values[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
                    }
                });
            }
        });
        if stop.is_set() {
            eprintln!(
                "interrupted: writing the {} openings kept so far",
                kept.len()
            );
            break;
        }
        for ((line, _), v) in todo.iter().zip(values) {
            let v = v
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every line rated")?;
            rated += 1;
            if v.abs() <= args.max_value {
                let text = MoveSequence(line.clone()).to_string();
                kept.push((text, v));
                if kept.len() as u64 >= args.count {
                    break 'outer;
                }
            }
        }
        eprint!(
            "\r{} kept of {rated} rated ({candidates} lines drawn), {:.0} s",
            kept.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    eprintln!();
    if (kept.len() as u64) < args.count && !interrupt::stop_flag().is_set() {
        eprintln!(
            "warning: only {} openings within {} discs in {} candidate lines",
            kept.len(),
            args.max_value,
            candidates
        );
    }
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# yomi openings: {} Othello lines of {} plies, value within {} discs",
        kept.len(),
        args.plies,
        args.max_value
    );
    let _ = writeln!(
        text,
        "# made by: yomi openings generate --game othello --plies {} --count {} --max-value {} \
         --depth {} --seed {}",
        args.plies, args.count, args.max_value, args.depth, args.seed
    );
    let _ = writeln!(
        text,
        "# value: discs for black, the best move's value in a depth-{} search of `{spec}` \
         (hand-made evaluation, ~1/100 disc per unit)",
        args.depth
    );
    let _ = writeln!(
        text,
        "# {candidates} random lines drawn, {unique} distinct up to symmetry, {rated} rated"
    );
    for (line, v) in &kept {
        let _ = writeln!(text, "{line}\t{v:+.2}");
    }
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    eprintln!(
        "{} openings in {:.1} s ({} threads)",
        kept.len(),
        clock.elapsed().as_secs_f64(),
        threads
    );
    Ok(())
}
