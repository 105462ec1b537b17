//! `yomi engine`: any zoo agent as an engine that speaks NBoard or GTP on standard input and
//! output, and `yomi show --ggf`: a GGF record replayed (`--wthor` is in `wthor_cmd`).

use std::io::{self, BufReader};
use std::path::PathBuf;

use clap::ValueEnum;
use yomi_agents::{zoo_with_engines, BuildAgentError, WIN_VALUE};
use yomi_core::{Agent, AgentSpec, Explanation, MoveScore};
use yomi_othello::{ggf, Move, Othello};
use yomi_othello_search::score_in_discs;
use yomi_protocol::{
    default_hint_value, run_gtp, run_nboard, AgentFactory, AgentSettings, EngineOptions, HintDepth,
    HintValue,
};

use yomi_agents::{with_game, GameKind};

use crate::{game_parser, CliGame, Res};

/// The protocols `yomi engine` speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProtocolName {
    /// NBoard protocol version 2 (the NBoard GUI; Othello only).
    Nboard,
    /// The Go Text Protocol version 2, as Othello engines speak it (every game).
    Gtp,
}

/// Arguments of `yomi engine`.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// The protocol to speak on standard input and output.
    #[arg(long, value_enum)]
    pub protocol: ProtocolName,
    /// The game.
    #[arg(long, default_value = "othello", value_parser = game_parser())]
    pub game: GameKind,
    /// The agent that plays, as a spec (default: the strongest for the game: `othello`, or
    /// the exact `alphabeta` for tic-tac-toe and the stone game). NBoard's `set depth` sets
    /// its `depth` unless the spec gives one or a `level` (`othello:level=N`: the level's
    /// depth).
    #[arg(long)]
    pub agent: Option<String>,
    /// Master seed: game i of the session (counted by clear_board / set game) draws from the
    /// stream (seed, i), as game i of `yomi match` does.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The index of the session's first game: a harness that starts one process per game
    /// passes the game's index, so that the engine draws what game i of `yomi match` draws.
    #[arg(long, default_value_t = 0)]
    pub first_game: u64,
    /// The name the engine gives the client.
    #[arg(long, default_value = "yomi")]
    pub name: String,
}

/// Runs `yomi engine`.
pub fn run(args: &EngineArgs) -> Res<()> {
    match (args.protocol, args.game) {
        (ProtocolName::Nboard, GameKind::Othello) => {
            let factory = factory::<Othello>(args)?;
            let input = BufReader::new(io::stdin());
            run_nboard(
                input,
                io::stdout(),
                &options(args),
                factory,
                Box::new(othello_hint),
            )?;
            Ok(())
        }
        (ProtocolName::Nboard, _) => {
            Err("NBoard speaks only Othello: use --protocol gtp for other games".into())
        }
        (ProtocolName::Gtp, game) => with_game!(game, G => gtp::<G>(args)),
    }
}

fn options(args: &EngineArgs) -> EngineOptions {
    EngineOptions {
        name: args.name.clone(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        seed: args.seed,
        first_game: args.first_game,
    }
}

fn gtp<G: CliGame>(args: &EngineArgs) -> Res<()> {
    let factory = factory::<G>(args)?;
    run_gtp(
        BufReader::new(io::stdin()),
        io::stdout(),
        &options(args),
        factory,
    )?;
    Ok(())
}

/// The default agent of a game.
fn default_agent(game: &str) -> &'static str {
    if game == "othello" {
        "othello"
    } else {
        "alphabeta"
    }
}

/// The factory of the session's agent: the spec given, with the client's depth where the
/// agent has a `depth` the spec leaves open (a `level` sets it). The spec is checked once
/// here, so a bad one fails before the session starts.
fn factory<G: CliGame>(args: &EngineArgs) -> Res<AgentFactory<G>> {
    let text = args
        .agent
        .clone()
        .unwrap_or_else(|| default_agent(G::NAME).to_string());
    let spec: AgentSpec = text.parse().map_err(BuildAgentError::from)?;
    let zoo = zoo_with_engines::<G>();
    zoo.build_spec(&spec)?;
    let takes_depth = zoo
        .info(spec.name())
        .is_some_and(|i| i.params.iter().any(|p| p.name == "depth"))
        && spec.get("depth").is_none()
        && spec.get("level").is_none();
    Ok(Box::new(move |settings: &AgentSettings| {
        let mut spec = spec.clone();
        if let (Some(depth), true) = (settings.depth, takes_depth) {
            spec.set("depth", depth.max(1).to_string())
                .map_err(|e| e.to_string())?;
        }
        zoo.build_spec(&spec)
            .map(|a| a as Box<dyn Agent<G>>)
            .map_err(|e| e.to_string())
    }))
}

/// NBoard's view of a zoo agent's score: discs for the mover. The `othello` agent's midgame
/// search scores in hundredths of a disc, and a finished game in `FINAL_SCALE` ([`score_in_discs`]) per disc;
/// its solves score in discs (exact) or -1/0/1 (WLD). The generic searches score a won game
/// [`WIN_VALUE`] (shown as 64 discs) and otherwise the disc difference.
fn othello_hint(e: &Explanation<Move>, ms: &MoveScore<Move>) -> HintValue {
    let mut v = default_hint_value(e, ms);
    if let (HintDepth::Plies(_), None) = (v.depth, v.book) {
        let othello_agent = e.agent.starts_with("othello");
        v.eval = if othello_agent {
            score_in_discs(ms.score as i32)
        } else if ms.score.abs() >= WIN_VALUE {
            64.0 * ms.score.signum()
        } else {
            ms.score
        };
    }
    v
}

/// The game-file options of `yomi show`: a GGF file, or a WTHOR file with its name files.
#[derive(Debug, clap::Args)]
pub struct GameFileArgs {
    /// Replay a game of a GGF file (Othello) instead of a position.
    #[arg(long, value_name = "FILE", conflicts_with = "wthor")]
    pub ggf: Option<PathBuf>,
    /// Replay a game of a WTHOR `.wtb` file (8x8 Othello) instead of a position.
    #[arg(long, value_name = "FILE")]
    pub wthor: Option<PathBuf>,
    /// Which game of the GGF or WTHOR file, counted from 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub index: u64,
    /// The WTHOR players file (`WTHOR.JOU`) that names the players of `--wthor`'s games.
    #[arg(long, value_name = "FILE", requires = "wthor")]
    pub players: Option<PathBuf>,
    /// The WTHOR tournaments file (`WTHOR.TRN`) that names the tournaments of `--wthor`'s
    /// games.
    #[arg(long, value_name = "FILE", requires = "wthor")]
    pub tournaments: Option<PathBuf>,
}

/// `yomi show --ggf FILE [--index N]`: the record's header, its moves and the final position.
pub fn show_ggf(args: &GameFileArgs, game: GameKind, moves: Option<&str>) -> Res<()> {
    let path = args.ggf.as_ref().expect("called with --ggf");
    if game != GameKind::Othello {
        return Err("GGF records are Othello games: use --game othello".into());
    }
    if moves.is_some() {
        return Err("--moves does not go with --ggf: the record holds the moves".into());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let games = ggf::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let record = game_at(&games, args.index, path)?;
    print!("{}", describe(record, args.index, games.len()));
    Ok(())
}

/// The `index`-th (from 1) of a file's `games`, or an error naming the file and its count.
pub fn game_at<'a, T>(games: &'a [T], index: u64, path: &std::path::Path) -> Res<&'a T> {
    let count = games.len();
    index
        .checked_sub(1)
        .and_then(|i| usize::try_from(i).ok())
        .and_then(|i| games.get(i))
        .ok_or_else(|| {
            format!(
                "{} holds {count} game{}: no game {index}",
                path.display(),
                if count == 1 { "" } else { "s" },
            )
            .into()
        })
}

/// The text `yomi show --ggf` prints for a record.
fn describe(g: &ggf::Record, index: u64, count: usize) -> String {
    let mut out = String::new();
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
    out.push_str(&format!("game {index} of {count}\n"));
    out.push_str(&format!(
        "black (X) {}   white (O) {}\n",
        name(&g.black),
        name(&g.white)
    ));
    for (label, value) in [("place", &g.place), ("date", &g.date), ("time", &g.time)] {
        if let Some(v) = value {
            out.push_str(&format!("{label} {v}\n"));
        }
    }
    match &g.result {
        Some(r) => out.push_str(&format!("result {r} (black's margin)\n")),
        None => out.push_str("result ?\n"),
    }
    if g.start() != Othello::new() {
        out.push_str(&format!("start {}\n", g.start()));
    }
    let mut line = String::new();
    for (i, m) in g.moves().iter().enumerate() {
        if i > 0 {
            line.push(' ');
        }
        line.push_str(&m.mv.to_string());
        if let Some(e) = m.eval {
            line.push_str(&format!("/{e}"));
        }
    }
    out.push_str(&format!("moves ({}) {line}\n", g.moves().len()));
    let pos = g.position();
    out.push_str(&format!("{}\n", pos.picture()));
    out.push_str(&format!("position {pos}\n"));
    out
}
