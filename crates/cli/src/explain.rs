//! `yomi explain`: an agent's reasoning on one position.

use std::io::{self, Write};

use serde::Serialize;
use yomi_core::{Explanation, Rng};

use crate::{parse_position, CliGame, GameArg, Res};

/// Arguments of `yomi explain`.
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    /// The agent, as a spec such as `ai11s` or `pmc2:pnum=1000` (see `yomi agents`).
    pub agent: String,
    /// The position in the game's notation (default: the start position).
    #[arg(allow_hyphen_values = true)]
    pub position: Option<String>,
    #[command(flatten)]
    pub game: GameArg,
    /// Moves to play from the position first, separated by spaces (e.g. "(1,1) (0,0)").
    #[arg(long)]
    pub moves: Option<String>,
    /// Seed of the generator the agent draws from (ties, playouts).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print the explanation as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The JSON form: the position and seed, then the explanation's fields.
#[derive(Debug, Serialize)]
#[serde(bound = "")]
struct ExplainJson<'a, M: std::fmt::Display> {
    game: &'static str,
    position: String,
    seed: u64,
    #[serde(flatten)]
    explanation: &'a Explanation<M>,
}

/// Runs `yomi explain` for game `G`.
pub fn run<G: CliGame>(args: &ExplainArgs) -> Res<()> {
    let mut agent = G::cli_zoo().build(&args.agent)?;
    let mut pos: G = parse_position(args.position.as_deref())?;
    if let Some(line) = &args.moves {
        pos = pos.play_moves(line)?;
    }
    let mut rng = Rng::seed_from_u64(args.seed);
    let explanation = agent.explain(&pos, &mut rng)?;
    let mut out = io::stdout().lock();
    if args.json {
        let json = ExplainJson {
            game: G::NAME,
            position: pos.to_string(),
            seed: args.seed,
            explanation: &explanation,
        };
        serde_json::to_writer_pretty(&mut out, &json)?;
        writeln!(out)?;
    } else {
        writeln!(out, "{}", pos.picture())?;
        writeln!(out, "position {pos}   seed {}", args.seed)?;
        writeln!(out, "{explanation}")?;
    }
    out.flush()?;
    Ok(())
}
