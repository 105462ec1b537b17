//! Exact game-tree builder for any small game implementing the `yomi-core` traits.
//!
//! The study yomi grew from built the whole tic-tac-toe tree in Python, scored every node by
//! minimax, computed outcome probabilities under random play in floating point, and used them
//! to find where Monte Carlo agents go wrong. This crate does all of it exactly and fast:
//!
//! - [`Graph`]: the **transposition-merged graph** of the distinct positions reachable from a
//!   start, built breadth first (ids in discovery order, children as ranges of one flat array).
//!   The **full game tree** (every move sequence) is never stored: its per-depth and outcome
//!   counts ([`Graph::full_tree_counts`]) come from counting paths through the graph, and its
//!   breadth-first and depth-first traversals ([`Graph::full_tree_bfs`],
//!   [`Graph::full_tree_dfs`]) walk the graph with a queue or a stack. Positions up to
//!   symmetry are counted for games with [`Symmetric`](yomi_core::Symmetric).
//! - [`Solution`]: for every position, in one pass children-first, the **plain minimax**
//!   value (first player's win 1, draw 0, loss -1), the **shortest-victory** value
//!   ([`SvValue`]), both best-move sets, and the **exact probabilities** ([`Probs`]) of each
//!   outcome when both sides play uniformly random legal moves. Probabilities are three `u128`
//!   numerators over a shared reduced denominator; overflow is a [`TreeError`], never a wrong
//!   number. Playout scores `P(win) + alpha * P(draw)` are exact [`Ratio`]s.
//! - [`audit`] / [`audit_symmetric`]: where the infinite-playout choice of a Monte Carlo rule
//!   ([`PlayoutRule`]: `pmc`, `pmc2:alpha=A`) is not a subset of the minimax best moves.
//!   Every alpha (the weight of a draw) must lie in `[0, 1]` ([`check_alpha`],
//!   [`parse_alpha`]), as for the `pmc2` agent.
//! - Data files ([`encode`], [`decode`], [`write_file`], [`read_file`]): the checked container of `yomi-core`
//!   ([`yomi_core::Container`]), one record per distinct position (layout in `docs/formats.md`).
//! - [`svg`]: SVG pictures of small boards (a grid of marks, a pile of stones) with values
//!   written above them, for `yomi tree show --svg` and the tree browser of `yomi serve`.
//! - [`TreeAgent`]: `perfect`, `perfect-sv`, `table:file=PATH`, `pmc-exact`,
//!   `pmc2-exact[:alpha=A]`, reading solutions shared per process ([`shared_solution`]).
//!
//! Games without symmetries (the stone game) use the same entry points; only
//! [`Graph::canonical_count`] and [`audit_symmetric`] need [`Symmetric`](yomi_core::Symmetric).
//!
//! ```
//! use yomi_core::Player;
//! use yomi_tictactoe::TicTacToe;
//! use yomi_tree::{Ratio, Solution};
//!
//! let sol = Solution::build(TicTacToe::new())?;
//! assert_eq!(sol.graph().len(), 5_478);
//! assert_eq!(sol.graph().canonical_count(), 765);
//! assert_eq!(sol.graph().full_tree_counts()?.total, 549_946);
//! let root = sol.probs(0);
//! assert_eq!(root.first().to_string(), "737/1260");
//! assert_eq!(root.score(Player::First, Ratio::HALF)?.to_string(), "817/1260");
//! assert_eq!(sol.plain(0), 0); // a draw with perfect play
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod agent;
mod audit;
mod error;
mod file;
mod graph;
mod ratio;
mod solve;
pub mod svg;

pub use agent::{
    shared_file, shared_solution, shared_solution_from, TreeAgent, TreeRule, SHARED_MAX_POSITIONS,
};
pub use audit::{
    audit, audit_symmetric, check_alpha, parse_alpha, AlphaError, AuditFinding, AuditReport,
    ParseRuleError, PlayoutRule,
};
pub use error::TreeError;
pub use file::{
    decode, encode, read_file, read_header, write_file, FileError, FORMAT_VERSION, MAGIC, TREE_FILE,
};
pub use graph::{FullTreeBfs, FullTreeDfs, Graph, TreeCounts, TreeNode, DEFAULT_MAX_POSITIONS};
pub use ratio::{ParseRatioError, Probs, Ratio};
pub use solve::{ParseScoringError, Scoring, Solution, SvValue};

#[cfg(test)]
mod tests;
