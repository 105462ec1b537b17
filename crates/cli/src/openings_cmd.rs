//! `yomi openings generate`: balanced Othello openings made by the project's own search.
//!
//! The generator is `yomi_arena::generate_openings` (random lines drawn in candidate order,
//! deduplicated, rated in batches, the same file at any thread count). Here: lines without a
//! pass, deduplicated up to the 8 symmetries of the board, rated by the `othello` agent's
//! midgame search at a fixed depth without a time limit (so the value depends only on the
//! position), kept within `--max-value` discs.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use yomi_agents::Zoo;
use yomi_arena::{
    generate_openings, openings_file_text, play_on, GenerateConfig, OpeningSource, Openings,
};
use yomi_core::{Game, Player, Rng};
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::score_in_discs;

use yomi_agents::GameKind;

use crate::{game_parser, interrupt, CliGame, Res};

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
    /// Midgame positions for benchmarks: each opening of a file played on by the `othello`
    /// agent at a fixed depth (hand-made evaluation, no time limit) for both sides, to a
    /// number of empties that cycles through the range; one position per line, distinct up to
    /// symmetry.
    Positions(PositionsArgs),
}

/// Arguments of `yomi openings positions`.
#[derive(Debug, clap::Args)]
pub struct PositionsArgs {
    /// The openings file whose lines are played on, in order.
    #[arg(long)]
    pub openings: PathBuf,
    /// Positions to write.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// The fewest empty squares of a position.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=59))]
    pub min_empties: u32,
    /// The most empty squares of a position.
    #[arg(long, default_value_t = 44, value_parser = clap::value_parser!(u32).range(1..=59))]
    pub max_empties: u32,
    /// The depth of the `othello` agent's search that plays on (hand-made evaluation).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub depth: u32,
    /// Seed of the agent's random numbers (ties), one stream per opening.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
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
        OpeningsCommand::Positions(p) => positions(p),
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
    let mover = score_in_discs(best as i32);
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
    let config = GenerateConfig {
        plies: args.plies,
        count: args.count,
        max_value: args.max_value,
        seed: args.seed,
        threads,
        max_candidates: args.max_candidates,
    };
    let start = Othello::new();
    let source = OpeningSource {
        start: &start,
        usable: |mv: &Move| *mv != Move::Pass,
        key: Othello::canonical,
        make_rater: || {
            let mut agent = zoo.build(&spec).expect("spec checked");
            move |pos: &Othello| rate(agent.as_mut(), pos)
        },
    };
    let clock = Instant::now();
    let stop = interrupt::stop_flag();
    let made = generate_openings(&source, &config, &stop, |p| {
        eprint!(
            "\r{} kept of {} rated ({} lines drawn), {:.0} s",
            p.kept,
            p.rated,
            p.candidates,
            clock.elapsed().as_secs_f64()
        );
        ControlFlow::Continue(())
    })?;
    eprintln!();
    let kept = made.openings.len();
    if made.stopped {
        eprintln!("interrupted: writing the {kept} openings kept so far");
    } else if (kept as u64) < args.count {
        eprintln!(
            "warning: only {kept} openings within {} discs in {} candidate lines",
            args.max_value, made.candidates
        );
    }
    let header = [
        format!(
            "yomi openings: {kept} Othello lines of {} plies, value within {} discs",
            args.plies, args.max_value
        ),
        format!(
            "made by: yomi openings generate --game othello --plies {} --count {} --max-value {} \
             --depth {} --seed {}",
            args.plies, args.count, args.max_value, args.depth, args.seed
        ),
        format!(
            "value: discs for black, the best move's value in a depth-{} search of `{spec}` \
             (hand-made evaluation, ~1/100 disc per unit)",
            args.depth
        ),
        format!(
            "{} random lines drawn, {} distinct up to symmetry, {} rated",
            made.candidates, made.unique, made.rated
        ),
    ];
    let text = openings_file_text(
        header.iter().map(String::as_str),
        made.openings
            .into_iter()
            .map(|o| (MoveSequence(o.line).to_string(), o.value)),
    );
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    eprintln!(
        "{kept} openings in {:.1} s ({threads} threads)",
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

fn positions(args: &PositionsArgs) -> Res<()> {
    let (low, high) = (args.min_empties, args.max_empties);
    if low > high {
        return Err(format!("--min-empties {low} is more than --max-empties {high}").into());
    }
    let name = args.openings.display().to_string();
    let text = std::fs::read_to_string(&args.openings)
        .map_err(|e| format!("cannot read the openings {name}: {e}"))?;
    let set = Openings::parse(&name, &text, |line| {
        line.parse::<Othello>()
            .map_err(|e| e.to_string())
            .or_else(|_| Othello::new().play_moves(line).map_err(|e| e.to_string()))
    })?;
    let spec = format!(
        "othello:time=0,depth={},wld=0,exact=0,hash_mb=16,eval=hand",
        args.depth
    );
    let zoo = Othello::zoo();
    let mut agent = zoo.build(&spec)?;
    let span = u64::from(high - low + 1);
    let stop = interrupt::stop_flag();
    let mut seen = HashSet::new();
    let mut kept: Vec<(Othello, String)> = Vec::new();
    for (i, opening) in set.list().iter().enumerate() {
        if kept.len() as u64 >= args.count || stop.is_set() {
            break;
        }
        let target = low + (kept.len() as u64 % span) as u32;
        if opening.position.empties().count() < target {
            continue;
        }
        let mut rng = Rng::for_stream(args.seed, i as u64);
        let found = play_on(&opening.position, agent.as_mut(), &mut rng, |p| {
            p.empties().count() <= target
        })?;
        match found {
            Some(pos) if pos.empties().count() == target && seen.insert(pos.canonical()) => {
                kept.push((pos, opening.text.clone()));
            }
            _ => {}
        }
    }
    if (kept.len() as u64) < args.count {
        eprintln!(
            "warning: only {} positions from the {} openings of {name}",
            kept.len(),
            set.len()
        );
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# yomi midgame positions: {} Othello positions at {low}-{high} empties",
        kept.len()
    );
    let _ = writeln!(
        out,
        "# made by: yomi openings positions --openings {name} --count {} --min-empties {low} \
         --max-empties {high} --depth {} --seed {}",
        args.count, args.depth, args.seed
    );
    let _ = writeln!(
        out,
        "# each: an opening of the file (after the #) played on by `{spec}` for both sides to \
         {low}, {}, ... empties in turn; distinct up to symmetry",
        low + 1
    );
    for (pos, opening) in &kept {
        let _ = writeln!(out, "{pos} # {opening}");
    }
    let mut stdout = io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(())
}
