//! `yomi merge`: the results of `--shard K/N` runs put together into the output of the whole
//! run (byte for byte the same tables, JSON or CSV).

use std::io::{self, Write};
use std::path::PathBuf;

use yomi_agents::{with_game, GameKind};
use yomi_arena::{seat_names, MatchResult};

use crate::games::ShardFile;
use crate::league::{self, Format};
use crate::{print_match, Res};

/// Arguments of `yomi merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shard files (the JSON that `match`, `league` or `bench ffo` printed with
    /// `--shard K/N`), in any order.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON, as `--json` of the whole run.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV, as `league --csv` of the whole run.
    #[arg(long)]
    pub csv: bool,
}

/// Runs `yomi merge`.
pub fn run(args: &MergeArgs) -> Res<()> {
    let mut shards = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file: ShardFile = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a shard result: {e}", path.display()))?;
        shards.push(file);
    }
    if matches!(shards[0], ShardFile::Bench(_)) {
        if args.csv {
            return Err("--csv is for leagues; a bench prints its table or --json".into());
        }
        let mut benches = Vec::with_capacity(shards.len());
        for (s, path) in shards.into_iter().zip(&args.files) {
            match s {
                ShardFile::Bench(b) => benches.push(b),
                _ => {
                    return Err(format!(
                        "{} is a match or league shard; the others are bench shards",
                        path.display()
                    )
                    .into())
                }
            }
        }
        return crate::solve_cmd::merge_bench_shards(benches, args.json);
    }
    let mut out = io::stdout().lock();
    match &shards[0] {
        ShardFile::Match { .. } => {
            if args.csv {
                return Err("--csv is for leagues; a match prints tables or --json".into());
            }
            let mut results = Vec::with_capacity(shards.len());
            for (s, path) in shards.into_iter().zip(&args.files) {
                match s {
                    ShardFile::Match { result } => results.push(*result),
                    ShardFile::League { .. } | ShardFile::Bench(_) => {
                        return Err(format!(
                            "{} is a league shard; the others are match shards",
                            path.display()
                        )
                        .into())
                    }
                }
            }
            let merged = MatchResult::merge(&results)?;
            let seats = seats_of(&merged.game)?;
            print_match(&mut out, &merged, seats, args.json)?;
        }
        ShardFile::Bench(_) => unreachable!("merged above"),
        ShardFile::League {
            agents, baseline, ..
        } => {
            let (agents, baseline) = (agents.clone(), baseline.clone());
            let mut rows: Vec<Vec<MatchResult>> = vec![Vec::new(); agents.len()];
            for (s, path) in shards.into_iter().zip(&args.files) {
                let ShardFile::League {
                    agents: a,
                    baseline: b,
                    results,
                } = s
                else {
                    return Err(format!(
                        "{} is a match or bench shard; the others are league shards",
                        path.display()
                    )
                    .into());
                };
                if a != agents || b != baseline {
                    return Err(format!(
                        "{} is from a different league (agents {a:?} against {b})",
                        path.display()
                    )
                    .into());
                }
                if results.len() != agents.len() {
                    return Err(format!(
                        "{} is incomplete: {} of {} agents played (run it again with --resume)",
                        path.display(),
                        results.len(),
                        agents.len()
                    )
                    .into());
                }
                for (row, r) in rows.iter_mut().zip(results) {
                    row.push(r);
                }
            }
            let mut merged = Vec::with_capacity(rows.len());
            for (agent, row) in agents.iter().zip(&rows) {
                merged.push(MatchResult::merge(row).map_err(|e| format!("{agent}: {e}"))?);
            }
            let format = if args.json {
                Format::Json
            } else if args.csv {
                Format::Csv
            } else {
                Format::Table
            };
            let game = kind_of(&merged[0].game)?;
            with_game!(game, G => league::print::<G>(&mut out, &agents, &baseline, &merged, format))?;
        }
    }
    out.flush()?;
    Ok(())
}

/// The game a shard names.
fn kind_of(game: &str) -> Res<GameKind> {
    game.parse()
        .map_err(|_| format!("unknown game {game:?} in the shards").into())
}

fn seats_of(game: &str) -> Res<[&'static str; 2]> {
    Ok(with_game!(kind_of(game)?, G => seat_names::<G>()))
}
