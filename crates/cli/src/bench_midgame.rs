//! `yomi bench midgame`: the `othello` agent's midgame search to each depth on a set of
//! positions (`yomi_othello_search::depth_profile`), a table of nodes, time and branching.

use std::fmt::Write as _;
use std::path::PathBuf;

use yomi_agents::{OthelloEval, OthelloSettings};
use yomi_othello::Othello;
use yomi_othello_search::{depth_profile, DepthRow};

use crate::Res;

/// Arguments of `yomi bench midgame`.
#[derive(Debug, clap::Args)]
pub struct MidgameArgs {
    /// The positions: one per line (a board string and the side, or a move line), `#`
    /// comments, as in an openings file.
    #[arg(long)]
    positions: PathBuf,
    /// The deepest depth.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// The shallowest depth of the table.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=30))]
    from: u32,
    /// The evaluation: `learned` (the built-in weights) or `hand`.
    #[arg(long, default_value = "learned")]
    eval: OthelloEval,
    /// A weight file instead of the built-in weights (with `--eval learned`).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Multi-ProbCut's threshold in standard deviations, or `off` (the agent's default: 1.5
    /// with the learned evaluation, off with the hand-made one).
    #[arg(long)]
    probcut: Option<String>,
    /// The table size in MiB (the agent's default: 16).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=16384))]
    hash_mb: u64,
    /// Which root moves get values: `best` (the agent's default) or `all`.
    #[arg(long, default_value = "best")]
    root: yomi_othello_search::RootValues,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs `yomi bench midgame`.
pub fn run(args: &MidgameArgs) -> Res<()> {
    if args.from > args.depth {
        return Err(format!("--from {} is deeper than --depth {}", args.from, args.depth).into());
    }
    let name = args.positions.display().to_string();
    let text = std::fs::read_to_string(&args.positions)
        .map_err(|e| format!("cannot read the positions {name}: {e}"))?;
    let set = yomi_arena::Openings::parse(&name, &text, |line| {
        line.parse::<Othello>()
            .map_err(|e| e.to_string())
            .or_else(|_| {
                line.parse::<yomi_othello::MoveSequence>()
                    .map_err(|e| e.to_string())
                    .and_then(|s| s.play_from(&Othello::new()).map_err(|e| e.to_string()))
            })
    })?;
    let positions: Vec<Othello> = set.list().iter().map(|o| o.position).collect();
    let mut settings = OthelloSettings {
        eval: args.eval,
        weights: args.weights.clone(),
        hash_mb: args.hash_mb as usize,
        root: args.root,
        ..OthelloSettings::default()
    };
    if args.weights.is_some() && args.eval != OthelloEval::Learned {
        return Err("--weights needs --eval learned".into());
    }
    settings.probcut = match args.probcut.as_deref() {
        None if args.eval == OthelloEval::Learned => settings.probcut,
        None | Some("off") => None,
        Some(t) => match t.parse::<f64>() {
            Ok(t) if t.is_finite() && t >= 0.0 => Some(t),
            _ => {
                return Err(
                    format!("--probcut takes a threshold of 0 or more or `off`, not {t:?}").into(),
                )
            }
        },
    };
    let mut search = settings.midgame_search()?;
    let stop = crate::interrupt::stop_flag();
    let rows = depth_profile(&mut search, &positions, args.from..=args.depth, |d| {
        if stop.is_set() {
            return;
        }
        eprint!("\rdepth {d}...");
    });
    eprintln!();
    let probcut = settings
        .probcut
        .filter(|_| settings.eval == OthelloEval::Learned)
        .map_or("off".to_string(), |t| t.to_string());
    if args.json {
        let json = serde_json::json!({
            "positions": name,
            "count": positions.len(),
            "eval": args.eval.to_string(),
            "probcut": probcut,
            "hash_mb": args.hash_mb,
            "cpu": search.cpu().name(),
            "table_entries": search.table_usage().1,
            "rows": rows.iter().map(|r| serde_json::json!({
                "depth": r.depth,
                "positions": r.positions,
                "nodes": r.nodes,
                "seconds": r.elapsed.as_secs_f64(),
                "probcut_nodes": r.stats.probcut_nodes,
                "probcut_tests": r.stats.probcut_tests,
                "probcut_cuts": r.stats.probcut_cuts,
                "table_probes": r.stats.table_probes,
                "table_hits": r.stats.table_hits,
                "table_cuts": r.stats.table_cuts,
                "beta_cuts": r.stats.beta_cuts,
                "first_move_cuts": r.stats.first_move_cuts,
                "evaluations": r.stats.evaluations,
                "table_fill": r.table_fill,
            })).collect::<Vec<_>>(),
        });
        println!("{json}");
        return Ok(());
    }
    print!(
        "{}",
        table(&name, args, &probcut, search.cpu().name(), &rows)
    );
    print!("{}", spending(search.table_usage().1, &rows));
    Ok(())
}

/// The table: one row per depth.
fn table(name: &str, args: &MidgameArgs, probcut: &str, cpu: &str, rows: &[DepthRow]) -> String {
    let mut out = String::new();
    let count = rows.first().map_or(0, |r| r.positions);
    let _ = writeln!(
        out,
        "midgame search: {count} positions of {name}, eval {}, probcut {probcut}, {} MiB \
         table, 1 thread ({cpu} copy)",
        args.eval, args.hash_mb
    );
    let _ = writeln!(
        out,
        "{:>5} {:>14} {:>10} {:>12} {:>13} {:>6}",
        "depth", "nodes", "time (s)", "nodes/s", "ms/position", "EBF"
    );
    let mut previous: Option<&DepthRow> = None;
    for r in rows {
        let ebf = previous.map_or(String::new(), |p| format!("{:.2}", r.branching_from(p)));
        let _ = writeln!(
            out,
            "{:>5} {:>14} {:>10.3} {:>11.2}M {:>13.2} {:>6}",
            r.depth,
            r.nodes,
            r.elapsed.as_secs_f64(),
            r.nodes_per_second() / 1e6,
            r.ms_per_position(),
            ebf
        );
        previous = Some(r);
    }
    out
}

/// Where the nodes went: one row per depth.
fn spending(entries: usize, rows: &[DepthRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "where the nodes go (table of {entries} entries; % of nodes, probes or cutoffs):"
    );
    let _ = writeln!(
        out,
        "{:>5} {:>9} {:>10} {:>9} {:>9} {:>10} {:>11} {:>10}",
        "depth", "probcut", "cut/test", "tt hits", "tt cuts", "tt filled", "first cuts", "evals/s"
    );
    for r in rows {
        let s = &r.stats;
        let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
        let _ = writeln!(
            out,
            "{:>5} {:>8.1}% {:>9.1}% {:>8.1}% {:>8.1}% {:>9.1}% {:>10.1}% {:>9.2}M",
            r.depth,
            100.0 * r.probcut_share(),
            pct(s.probcut_cuts, s.probcut_tests),
            100.0 * r.table_hit_rate(),
            pct(s.table_cuts, s.table_probes),
            100.0 * r.table_fill,
            100.0 * r.first_move_cut_rate(),
            r.evaluations_per_second() / 1e6
        );
    }
    out
}
