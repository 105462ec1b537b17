//! `yomi openings generate`: balanced Othello openings made by the project's own search.
//!
//! The generator is `yomi_arena::generate_openings` (random lines drawn in candidate order,
//! deduplicated, rated in batches, the same file at any thread count). Here: lines without a
//! pass, deduplicated up to the 8 symmetries of the board, rated by the `othello` agent's
//! midgame search at a fixed depth without a time limit (so the value depends only on the
//! position), kept within `--max-value` discs.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::time::Instant;

use yomi_agents::Zoo;
use yomi_arena::{generate_openings, openings_file_text, GenerateConfig, OpeningSource};
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
