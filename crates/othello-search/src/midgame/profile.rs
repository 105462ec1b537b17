//! Time to depth on a set of positions: how fast the midgame search reaches a depth, the
//! measure the strength-at-a-clock work tunes (`yomi bench midgame`).

use std::ops::RangeInclusive;
use std::time::Duration;

use yomi_core::{Game, Limits};
use yomi_othello::Othello;

use super::{MidgameSearch, MidgameStats};

/// One depth of a [`depth_profile`]: the set's totals for searches to that depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DepthRow {
    /// The depth in plies.
    pub depth: u32,
    /// Positions searched (those with a legal move).
    pub positions: usize,
    /// Nodes of every search to this depth (its iterative deepening from depth 1 included).
    pub nodes: u64,
    /// Their time.
    pub elapsed: Duration,
    /// What their nodes were spent on.
    pub stats: MidgameStats,
    /// The mean share of the table's entries that a search left written (0 to 1).
    pub table_fill: f64,
}

impl DepthRow {
    /// Nodes per second of this depth's searches.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Milliseconds per position.
    #[must_use]
    pub fn ms_per_position(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1000.0 / self.positions.max(1) as f64
    }

    /// The share of the nodes inside ProbCut's test searches (0 to 1).
    #[must_use]
    pub fn probcut_share(&self) -> f64 {
        self.stats.probcut_nodes as f64 / self.nodes.max(1) as f64
    }

    /// The share of table probes that found their position (0 to 1).
    #[must_use]
    pub fn table_hit_rate(&self) -> f64 {
        self.stats.table_hits as f64 / self.stats.table_probes.max(1) as f64
    }

    /// The share of beta cutoffs made by the first move tried (0 to 1): how often the move
    /// ordering put a refutation first.
    #[must_use]
    pub fn first_move_cut_rate(&self) -> f64 {
        self.stats.first_move_cuts as f64 / self.stats.beta_cuts.max(1) as f64
    }

    /// Leaf evaluations per second of search.
    #[must_use]
    pub fn evaluations_per_second(&self) -> f64 {
        self.stats.evaluations as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The effective branching factor from `previous` (the row one depth less): the ratio
    /// of their node counts.
    #[must_use]
    pub fn branching_from(&self, previous: &DepthRow) -> f64 {
        self.nodes as f64 / previous.nodes.max(1) as f64
    }
}

/// Searches every position of `positions` to each depth of `depths` as the `othello` agent
/// searches a move (iterative deepening from depth 1, the table's older entries ignored, no
/// time limit) and sums nodes and time per depth; `progress` hears of each depth before it
/// runs. Finished positions are skipped. The node counts are the same on every run and
/// machine; the times are not.
pub fn depth_profile(
    search: &mut MidgameSearch,
    positions: &[Othello],
    depths: RangeInclusive<u32>,
    mut progress: impl FnMut(u32),
) -> Vec<DepthRow> {
    let live: Vec<&Othello> = positions.iter().filter(|p| !p.is_over()).collect();
    let mut rows = Vec::new();
    for depth in depths {
        progress(depth);
        let mut row = DepthRow {
            depth,
            positions: live.len(),
            nodes: 0,
            elapsed: Duration::ZERO,
            stats: MidgameStats::default(),
            table_fill: 0.0,
        };
        for pos in &live {
            let result = search.search_limited(pos, depth, &Limits::none());
            row.nodes += result.nodes;
            row.elapsed += result.elapsed;
            row.stats.add(&result.stats);
            let (used, capacity) = search.table_usage();
            row.table_fill += used as f64 / capacity.max(1) as f64;
        }
        row.table_fill /= live.len().max(1) as f64;
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use yomi_othello::MoveSequence;

    use super::*;
    use crate::HandEval;

    #[test]
    fn rows_add_up_the_searches_and_repeat() {
        let start = Othello::new();
        let positions: Vec<Othello> = ["f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4e3", "d3c5"]
            .iter()
            .map(|l| {
                l.parse::<MoveSequence>()
                    .unwrap()
                    .play_from(&start)
                    .unwrap()
            })
            .collect();
        let mut search = MidgameSearch::new(1, Arc::new(HandEval));
        let rows = depth_profile(&mut search, &positions, 1..=4, |_| {});
        assert_eq!(rows.len(), 4);
        assert!(rows.windows(2).all(|w| w[1].nodes > w[0].nodes));
        // Each row is the sum of separate searches to its depth.
        let mut again = MidgameSearch::new(1, Arc::new(HandEval));
        let three: u64 = positions
            .iter()
            .map(|p| again.search_limited(p, 3, &Limits::none()).nodes)
            .sum();
        assert_eq!(rows[2].nodes, three);
        assert_eq!(rows[2].depth, 3);
        assert_eq!(rows[2].positions, 3);
        let repeat = depth_profile(&mut search, &positions, 3..=3, |_| {});
        assert_eq!(repeat[0].nodes, three);
        assert!(rows[3].branching_from(&rows[2]) > 1.0);
        // The hand-made evaluation runs without ProbCut; every row counts its leaves and
        // probes, and a cutoff by the first move is a cutoff.
        for r in &rows {
            assert_eq!(r.stats.probcut_nodes, 0);
            assert!(r.stats.evaluations > 0 && r.stats.evaluations <= r.nodes);
            assert!(r.stats.table_hits <= r.stats.table_probes);
            assert!(r.stats.first_move_cuts <= r.stats.beta_cuts);
            assert!(r.table_fill <= 1.0 && (r.depth < 2 || r.table_fill > 0.0));
        }
        // With ProbCut, its test searches hold a share of the nodes.
        let mut cut = MidgameSearch::new(1, crate::Weights::builtin());
        cut.set_probcut(Some((1.5, crate::PROBCUT_LEARNED)));
        let rows = depth_profile(&mut cut, &positions, 6..=6, |_| {});
        let share = rows[0].probcut_share();
        assert!(
            rows[0].stats.probcut_tests > 0 && share > 0.0 && share < 1.0,
            "{share}"
        );
    }
}
