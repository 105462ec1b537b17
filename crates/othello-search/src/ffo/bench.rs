//! The bench runner: solve positions from scratch, one row each, and the verdict of a table.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{merge_shards, Limits, Shard, ShardMergeError, StopReason};
use yomi_othello::{ObfPosition, Othello};

use super::suite::published;
use crate::{Mode, Solution, Solver};

/// One solved position, as the bench tables print it (and `--json` writes it, field for
/// field in this order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    /// The position's number in its file or suite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<usize>,
    /// The position (board string and side).
    pub position: String,
    /// Its empty squares.
    pub empties: u32,
    /// The mode solved (`exact` or `wld`).
    pub mode: String,
    /// The score; when the solve did not finish, the lower bound.
    pub score: i32,
    /// Whether the solve finished.
    pub solved: bool,
    /// Why the solve stopped early (`time`, `nodes`, `interrupted`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// The proved lower bound of the score.
    pub lower: i32,
    /// The proved upper bound of the score.
    pub upper: i32,
    /// The published score (the first one listed), in the mode's terms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub published: Option<i32>,
    /// The best move, `None` when the game is over.
    pub best: Option<String>,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Nodes per second.
    pub nodes_per_second: f64,
}

/// A stop reason as the rows write it.
fn stop_name(r: StopReason) -> String {
    match r {
        StopReason::Time => "time",
        StopReason::Nodes => "nodes",
        StopReason::Interrupted => "interrupted",
    }
    .to_string()
}

/// A row's stop reason back from its name.
fn stop_reason(name: &str) -> Option<StopReason> {
    match name {
        "time" => Some(StopReason::Time),
        "nodes" => Some(StopReason::Nodes),
        "interrupted" => Some(StopReason::Interrupted),
        _ => None,
    }
}

/// What a row says: a wrong score, a stop, both or neither.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The message of a wrong score: a finished solve that differs from the published score,
    /// or proved bounds that exclude it.
    pub wrong: Option<String>,
    /// Why the solve stopped before it finished.
    pub stopped: Option<StopReason>,
}

impl BenchRow {
    /// The row of solution `s` of `pos` (numbered `number`, published score `published`).
    #[must_use]
    pub fn new(number: Option<usize>, pos: &Othello, published: Option<i32>, s: &Solution) -> Self {
        BenchRow {
            number,
            position: pos.to_string(),
            empties: pos.empties().count(),
            mode: s.mode.to_string(),
            score: s.score,
            solved: s.is_solved(),
            stopped: s.stopped.map(stop_name),
            lower: s.lower,
            upper: s.upper,
            published,
            best: s.best.map(|m| m.to_string()),
            pv: s.pv.iter().map(ToString::to_string).collect(),
            nodes: s.nodes,
            seconds: s.elapsed.as_secs_f64(),
            nodes_per_second: s.nodes_per_second(),
        }
    }

    /// What the row says against its published score.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        let n = self.number.unwrap_or(0);
        let stopped = self.stopped.as_deref().and_then(stop_reason);
        let wrong = match (self.published, stopped) {
            (Some(w), None) if w != self.score => {
                Some(format!("#{n}: solved {:+}, published {w:+}", self.score))
            }
            (Some(w), Some(_)) if w < self.lower || w > self.upper => Some(format!(
                "#{n}: bounds [{:+}, {:+}] exclude the published {w:+}",
                self.lower, self.upper
            )),
            _ => None,
        };
        Verdict { wrong, stopped }
    }

    /// The row as a line of the text table (under [`bench_header`]).
    #[must_use]
    pub fn line(&self) -> String {
        let Verdict { wrong, stopped } = self.verdict();
        let note = match (wrong, stopped) {
            (Some(_), _) => "  WRONG",
            (None, Some(StopReason::Interrupted)) => "  interrupted",
            (None, Some(StopReason::Time)) => "  time limit",
            (None, Some(_)) => "  node limit",
            (None, None) => "",
        };
        let cell = if self.solved {
            format!("{:+}", self.score)
        } else {
            format!("[{:+},{:+}]", self.lower, self.upper)
        };
        format!(
            "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}{note}",
            self.number.unwrap_or(0),
            self.empties,
            cell,
            self.published
                .map_or_else(|| "?".to_string(), |w| format!("{w:+}")),
            self.best.as_deref().unwrap_or("-"),
            self.nodes,
            self.seconds,
            self.nodes_per_second
        )
    }
}

/// The header line of the text table.
#[must_use]
pub fn bench_header() -> String {
    format!(
        "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10} {:>12}",
        "#", "empties", "score", "want", "move", "nodes", "time (s)", "nodes/s"
    )
}

/// Solves each position from scratch (the table cleared before each) under `limits`, calling
/// `on_row` with each row as it is made; stops after a solve that `limits`' flag interrupted
/// (its row included). Returns the rows in order.
pub fn bench_rows<'a>(
    solver: &mut Solver,
    positions: impl IntoIterator<Item = (usize, &'a ObfPosition)>,
    mode: Mode,
    limits: &Limits,
    mut on_row: impl FnMut(&BenchRow),
) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    for (n, obf) in positions {
        solver.clear();
        let s = solver.solve_limited(&obf.position, mode, limits);
        let row = BenchRow::new(Some(n), &obf.position, published(obf, mode), &s);
        on_row(&row);
        rows.push(row);
        if s.stopped == Some(StopReason::Interrupted) {
            break;
        }
    }
    rows
}

/// A table of rows with its totals, as `--json` writes it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BenchTable {
    /// The rows.
    pub positions: Vec<BenchRow>,
    /// The total of the nodes.
    pub nodes: u64,
    /// The total of the seconds.
    pub seconds: f64,
    /// `nodes / seconds` (0 for no time).
    pub nodes_per_second: f64,
}

impl BenchTable {
    /// The rows and their totals.
    #[must_use]
    pub fn new(positions: Vec<BenchRow>) -> BenchTable {
        let nodes: u64 = positions.iter().map(|r| r.nodes).sum();
        let seconds: f64 = positions
            .iter()
            .map(|r| Duration::from_secs_f64(r.seconds))
            .sum::<Duration>()
            .as_secs_f64();
        let nodes_per_second = if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        };
        BenchTable {
            positions,
            nodes,
            seconds,
            nodes_per_second,
        }
    }

    /// The total line of the text table.
    #[must_use]
    pub fn total_line(&self) -> String {
        format!(
            "{:>4} {:>7} {:>9} {:>6} {:>5} {:>14} {:>10.3} {:>12.0}",
            "all", "", "", "", "", self.nodes, self.seconds, self.nodes_per_second
        )
    }
}

/// The verdict of a whole table, in the order that decides the exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchVerdict {
    /// Every score solved and right.
    Passed,
    /// Wrong scores (each row's message), whatever else happened.
    Wrong(Vec<String>),
    /// No wrong score, but the run was interrupted.
    Interrupted,
    /// No wrong score; these positions (their numbers) stopped at a time or node limit.
    Limited(Vec<usize>),
}

/// The verdict of `rows`: wrong scores first, then an interruption, then limits.
#[must_use]
pub fn bench_verdict(rows: &[BenchRow]) -> BenchVerdict {
    let mut wrong = Vec::new();
    let mut limited = Vec::new();
    let mut interrupted = false;
    for r in rows {
        match r.verdict() {
            Verdict { wrong: Some(w), .. } => wrong.push(w),
            Verdict {
                stopped: Some(StopReason::Interrupted),
                ..
            } => interrupted = true,
            Verdict {
                stopped: Some(_), ..
            } => limited.push(r.number.unwrap_or(0)),
            Verdict { .. } => {}
        }
    }
    if !wrong.is_empty() {
        BenchVerdict::Wrong(wrong)
    } else if interrupted {
        BenchVerdict::Interrupted
    } else if !limited.is_empty() {
        BenchVerdict::Limited(limited)
    } else {
        BenchVerdict::Passed
    }
}

/// A shard of an FFO bench run, as `bench ffo --shard K/N` writes it (JSON) for the merge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchShard {
    /// Which positions of the range: those whose index in the range is `K mod N`.
    pub shard: Shard,
    /// The range's first position.
    pub from: usize,
    /// Its last position.
    pub to: usize,
    /// What must be the same in every shard of a run: the mode, the table size, the limits
    /// and the techniques switched off (not the thread count).
    pub settings: String,
    /// The title line of the whole run's table (from this shard's machine).
    pub title: String,
    /// Whether every position of the shard was solved or stopped (not interrupted).
    pub complete: bool,
    /// The rows, in order.
    pub rows: Vec<BenchRow>,
}

/// Why bench shards cannot be merged.
#[derive(Clone, Debug, PartialEq, Error)]
#[non_exhaustive]
pub enum BenchMergeError {
    /// A shard is from another run.
    #[error("shard {shard} is from a different run: its {what} is {theirs}, not {ours}")]
    DifferentRun {
        /// The shard.
        shard: Shard,
        /// What differs (`range`, `settings`, `shard count`).
        what: &'static str,
        /// The shard's value.
        theirs: String,
        /// The first shard's value.
        ours: String,
    },
    /// A shard did not finish.
    #[error("shard {0} is incomplete: run it again")]
    Incomplete(Shard),
    /// The set of shards is not whole (none, one twice, one missing, a short one).
    #[error(transparent)]
    Set(#[from] ShardMergeError),
}

/// Merges the shards of one bench run (any order) into the whole run's title and rows.
///
/// # Errors
/// [`BenchMergeError`]: shards of different runs (range, settings, shard count), then a
/// duplicated or missing shard, then an incomplete one.
pub fn merge_bench(shards: Vec<BenchShard>) -> Result<(String, Vec<BenchRow>), BenchMergeError> {
    let first = shards.first().ok_or(ShardMergeError::Empty)?;
    let n = first.shard.count;
    for s in &shards {
        for (what, theirs, ours) in [
            (
                "range",
                format!("#{}-#{}", s.from, s.to),
                format!("#{}-#{}", first.from, first.to),
            ),
            ("settings", s.settings.clone(), first.settings.clone()),
            ("shard count", s.shard.count.to_string(), n.to_string()),
        ] {
            if theirs != ours {
                return Err(BenchMergeError::DifferentRun {
                    shard: s.shard,
                    what,
                    theirs,
                    ours,
                });
            }
        }
    }
    let total = (first.to + 1).saturating_sub(first.from) as u64;
    let title = first.title.clone();
    let incomplete = shards.iter().find(|s| !s.complete).map(|s| s.shard);
    let parts = shards.into_iter().map(|s| (s.shard, s.rows)).collect();
    match (merge_shards(parts, total), incomplete) {
        (Err(e @ (ShardMergeError::Duplicate(_) | ShardMergeError::Missing(_))), _) => {
            Err(e.into())
        }
        (_, Some(shard)) => Err(BenchMergeError::Incomplete(shard)),
        (Err(e), None) => Err(e.into()),
        (Ok(rows), None) => Ok((title, rows)),
    }
}
