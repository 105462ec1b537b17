//! Times Othello perft from the start position (or a given board string), with the code path
//! `perft` picks on this CPU and with the portable one.
//!
//! `cargo run --release -p yomi-othello --example perft -- DEPTH [BOARD]`

use std::time::Instant;

use yomi_othello::{perft, perft_portable, perft_uses_simd, Othello};

/// A perft function.
type Perft = fn(&Othello, u32) -> u64;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().as_deref().unwrap_or("11").parse()?;
    let rest: Vec<String> = args.collect();
    let pos: Othello = if rest.is_empty() {
        Othello::new()
    } else {
        rest.join(" ").parse()?
    };
    let simd = if perft_uses_simd() {
        "AVX2 copy"
    } else {
        "portable"
    };
    let runs: [(&str, Perft); 2] = [(simd, perft), ("portable", perft_portable)];
    for (name, run) in runs {
        // The best of three runs (one from depth 12 on): the machine may be shared.
        let runs = if depth >= 12 { 1 } else { 3 };
        let mut best = f64::INFINITY;
        let mut leaves = 0;
        for _ in 0..runs {
            let start = Instant::now();
            leaves = run(&pos, depth);
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!(
            "perft({depth}) = {leaves} in {best:.3} s: {:.1} M leaves/s ({name}, best of {runs})",
            leaves as f64 / best / 1e6
        );
    }
    Ok(())
}
