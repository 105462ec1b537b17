//! `yomi solve-small`: Othello on 4x4 and 6x6 solved exactly with the small-board solver
//! ([`SmallSolver`]), within optional time and node limits.

use std::time::Instant;

use clap::ValueEnum;
use yomi_core::{Game, Limits, NodeCount, Player, Seconds};
use yomi_othello::{Board, Othello4, Othello6, SmallSolver};

use crate::{parse_position, Res};

/// The boards `solve-small` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SmallGame {
    /// Othello on 4x4.
    Othello4,
    /// Othello on 6x6.
    Othello6,
}

/// Arguments of `yomi solve-small`.
#[derive(Debug, clap::Args)]
pub struct SolveSmallArgs {
    /// The position (default: the diagonal start; `parallel` names the parallel start).
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    /// The board.
    #[arg(long, value_enum, default_value = "othello6")]
    game: SmallGame,
    /// Stop after this many seconds and print the bounds proved so far.
    #[arg(long)]
    time: Option<Seconds>,
    /// Stop after this many positions and print the bounds proved so far.
    #[arg(long)]
    nodes: Option<NodeCount>,
    /// Transposition table of 2^BITS entries of 24 bytes (10 to 28).
    #[arg(long, default_value_t = 22, value_parser = clap::value_parser!(u32).range(10..=28))]
    hash_bits: u32,
}

/// Runs `yomi solve-small`.
pub fn run(args: &SolveSmallArgs) -> Res<()> {
    solve_game(
        args.game,
        args.position.as_deref(),
        args.time,
        args.nodes,
        args.hash_bits,
    )
}

/// Solves `position` (the start when `None`) on `game`'s board within the limits, with a
/// table of 2^`hash_bits` entries, and prints the value and line or the bounds proved; a
/// solve stopped by a limit is a [`Stopped`](crate::stopped::Stopped) error (exit status 3,
/// or 130 for Ctrl-C), as `yomi solve` reports it on 8x8.
pub fn solve_game(
    game: SmallGame,
    position: Option<&str>,
    time: Option<Seconds>,
    nodes: Option<NodeCount>,
    hash_bits: u32,
) -> Res<()> {
    let args = SolveSmallArgs {
        position: position.map(str::to_string),
        game,
        time,
        nodes,
        hash_bits,
    };
    match game {
        SmallGame::Othello4 => solve::<4>(&args, parse_position::<Othello4>(position)?),
        SmallGame::Othello6 => solve::<6>(&args, parse_position::<Othello6>(position)?),
    }
}

fn solve<const N: usize>(args: &SolveSmallArgs, pos: Board<N>) -> Res<()> {
    let mut limits = Limits::none().with_flag(crate::interrupt::stop_flag());
    if let Some(t) = args.time {
        limits = limits.with_time(t.0);
    }
    if let Some(n) = args.nodes {
        limits = limits.with_nodes(n.0);
    }
    println!("{}", pos.pretty());
    println!("position {pos} ({})", Board::<N>::NAME);
    let clock = Instant::now();
    let mut solver = SmallSolver::new(args.hash_bits);
    let sol = solver.solve(&pos, &limits);
    let secs = clock.elapsed().as_secs_f64();
    let mover = if pos.side_to_move() == Player::First {
        "black"
    } else {
        "white"
    };
    match sol.value() {
        Some(v) => {
            let mut last = pos;
            for &mv in &sol.line {
                last = last.play(mv)?;
            }
            println!(
                "value {v:+} for {mover} (to move): black {}, white {}, {} empty at the end of \
                 the line (empty squares count for the winner)",
                last.black().count(),
                last.white().count(),
                last.empties().count()
            );
            let line: Vec<String> = sol.line.iter().map(ToString::to_string).collect();
            println!("line {}", line.join(" "));
        }
        None => {
            println!(
                "stopped ({}): value for {mover} (to move) proved in [{:+}, {:+}]",
                sol.stopped.map_or("unknown".to_string(), |r| r.to_string()),
                sol.lower,
                sol.upper
            );
        }
    }
    for p in &sol.probes {
        println!(
            "test {:+}: value {} it, {} nodes",
            p.test,
            if p.above { "above" } else { "below" },
            p.nodes
        );
    }
    println!(
        "nodes {}, time {:.2} s, {:.0} nodes/s, 1 thread",
        sol.nodes,
        secs,
        sol.nodes as f64 / secs.max(1e-9)
    );
    match sol.stopped {
        Some(reason) if sol.value().is_none() => {
            Err(crate::stopped::Stopped::from_reason(reason, "the solve").into())
        }
        _ => Ok(()),
    }
}
