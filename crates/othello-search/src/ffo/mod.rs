//! The FFO endgame suite and the bench runner: the positions and published scores of
//! `data/ffo/` ([`FfoSuite`]), OBF files ([`parse_obf`]), and solving positions into rows
//! checked against the published scores ([`bench_rows`], [`BenchRow`], [`bench_verdict`]),
//! sharded runs included ([`BenchShard`], [`merge_bench`]).
//!
//! ```
//! use yomi_core::{Limits, Shard};
//! use yomi_othello_search::{bench_rows, bench_verdict, BenchVerdict, FfoSuite, Mode, Solver, SolverConfig};
//!
//! let suite = FfoSuite::load()?;
//! assert_eq!(suite.len(), 79);
//! let mut solver = Solver::new(SolverConfig { threads: 1, ..SolverConfig::default() })?;
//! let positions = suite.range(1, 2, Shard::WHOLE)?;
//! let rows = bench_rows(&mut solver, positions, Mode::Exact, &Limits::none(), |_| {});
//! assert_eq!(rows[0].score, 18);
//! assert_eq!(bench_verdict(&rows), BenchVerdict::Passed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod bench;
mod suite;

pub use bench::{
    bench_header, bench_rows, bench_verdict, merge_bench, BenchMergeError, BenchRow, BenchShard,
    BenchTable, BenchVerdict, Verdict,
};
pub use suite::{parse_obf, published, FfoError, FfoSuite, ObfFileError};

#[cfg(test)]
mod tests;
