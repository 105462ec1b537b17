//! Solves FFO positions and prints a line each: `cargo run --release -p yomi-othello-search --example
//! ffo -- FILE [FIRST LAST] [threads]` (positions numbered from 1 within the file). FILE is an
//! OBF file, or the name of a file of the built-in suite (`fforum-40-49.obf`).

use std::time::Instant;

use yomi_othello::ObfPosition;
use yomi_othello_search::{parse_obf, Features, FfoSuite, Mode, Solver, SolverConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .first()
        .ok_or("usage: ffo FILE [FIRST LAST] [THREADS]")?;
    let positions: Vec<ObfPosition> = match std::fs::read_to_string(file) {
        Ok(text) => parse_obf(&text)?,
        Err(e) => FfoSuite::load()?
            .file(file)
            .map_err(|_| format!("{file}: {e}"))?
            .to_vec(),
    };
    let first: usize = args.get(1).map_or(Ok(1), |s| s.parse())?;
    let last: usize = args.get(2).map_or(Ok(positions.len()), |s| s.parse())?;
    let threads: usize = args.get(3).map_or(Ok(1), |s| s.parse())?;
    // `YOMI_OFF=table,parity,...` switches techniques off to measure them.
    let mut features = Features::default();
    for name in std::env::var("YOMI_OFF").unwrap_or_default().split(',') {
        if !name.is_empty() {
            features = features.without(name)?;
        }
    }
    let mut solver = Solver::new(SolverConfig {
        threads,
        features,
        ..SolverConfig::default()
    })?;
    let (mut nodes, start) = (0u64, Instant::now());
    for (i, obf) in positions.iter().enumerate().take(last).skip(first - 1) {
        solver.clear();
        let s = solver.solve(&obf.position, Mode::Exact);
        let want = obf.scores[0].1;
        println!(
            "#{:<3} {:>2} empties  score {:>+3} (want {:>+3}) {}  best {}  nodes {:>12}  {:>8.3} s  {:>6.1} Mn/s",
            i + 1,
            obf.position.empties().count(),
            s.score,
            want,
            if s.score == want { "ok" } else { "WRONG" },
            s.best.map_or("-".into(), |m| m.to_string()),
            s.nodes,
            s.elapsed.as_secs_f64(),
            s.nodes_per_second() / 1e6
        );
        nodes += s.nodes;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "total: {nodes} nodes, {secs:.3} s, {:.1} Mn/s",
        nodes as f64 / secs / 1e6
    );
    Ok(())
}
