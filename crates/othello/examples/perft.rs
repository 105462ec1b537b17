//! Times Othello perft from the start position (or a given board string), with the compiled
//! copy `Cpu::detect` picks on this CPU and with the portable one.
//!
//! `cargo run --release -p yomi-othello --example perft -- DEPTH [BOARD]`

use std::time::Instant;

use yomi_othello::cpu::Cpu;
use yomi_othello::{perft_with, Othello};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().as_deref().unwrap_or("11").parse()?;
    let rest: Vec<String> = args.collect();
    let pos: Othello = if rest.is_empty() {
        Othello::new()
    } else {
        rest.join(" ").parse()?
    };
    let detected = Cpu::detect();
    let name = if detected == Cpu::Portable {
        "portable"
    } else {
        "AVX2 copy"
    };
    for (name, cpu) in [(name, detected), ("portable", Cpu::Portable)] {
        // The best of three runs (one from depth 12 on): the machine may be shared.
        let runs = if depth >= 12 { 1 } else { 3 };
        let mut best = f64::INFINITY;
        let mut leaves = 0;
        for _ in 0..runs {
            let start = Instant::now();
            leaves = perft_with(cpu, &pos, depth);
            best = best.min(start.elapsed().as_secs_f64());
        }
        println!(
            "perft({depth}) = {leaves} in {best:.3} s: {:.1} M leaves/s ({name}, best of {runs})",
            leaves as f64 / best / 1e6
        );
    }
    Ok(())
}
