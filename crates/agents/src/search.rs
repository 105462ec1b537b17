//! Look-ahead searches for any game with a leaf evaluation: `greedy`, `minimax`, `alphabeta`
//! and `average`.
//!
//! # Values
//! Every value is from the side of the player to move at the node searched (negamax). A
//! finished game is worth [`WIN_VALUE`] to the winner, `-WIN_VALUE` to the loser and 0 for a
//! draw; an unfinished position at the depth limit is worth its [`LeafEval::leaf_eval`]. A root
//! move's value is minus the value of the position after it, searched to `depth - 1`, so
//! `depth = 1` looks one ply ahead (`greedy`).
//!
//! # Time
//! With a time limit the search deepens iteratively (depth 1, 2, ... up to `depth`) and, when
//! the clock runs out during a depth, plays by the last depth it completed; depth 1 always
//! completes. The clock is read once per 1024 nodes. A depth whose search never met the depth
//! limit is exact, and deepening stops there.

use std::fmt;
use std::time::Duration;

use yomi_core::{Agent, AgentError, Explanation, Game, LeafEval, MoveScore, Rng};

use crate::common::{explain_best, moves_of, outcome_value, time_text, Deadline, WIN_VALUE};

/// The clock is read once per this many nodes.
const CLOCK_EVERY: u64 = 1024;

/// Which look-ahead a [`SearchAgent`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchMethod {
    /// `greedy`: one ply, the best value after the move.
    Greedy,
    /// `minimax`: plain negamax over every move, no pruning (the oracle the others are tested
    /// against).
    Minimax,
    /// `alphabeta`: negamax with alpha-beta pruning and move ordering; the same values as
    /// `minimax`.
    AlphaBeta,
    /// `average`: the best move at the root; below it, a position is worth the mean of its
    /// children's values over all moves of either side.
    Average,
}

impl SearchMethod {
    /// The agent name in specs.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SearchMethod::Greedy => "greedy",
            SearchMethod::Minimax => "minimax",
            SearchMethod::AlphaBeta => "alphabeta",
            SearchMethod::Average => "average",
        }
    }
}

/// The value of one root move as a search found it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootValue {
    /// The value for the player to move at the root.
    pub value: f64,
    /// Nodes searched below this move.
    pub nodes: u64,
}

/// The result of searching a position: a value per legal move (in order) and how deep.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// Per legal move, in the game's order.
    pub values: Vec<RootValue>,
    /// The depth of the values (the last completed depth).
    pub depth: u32,
    /// Whether the search reached the end of every line it followed (values are exact).
    pub exact: bool,
    /// Whether the time limit cut a deeper search short.
    pub timed_out: bool,
}

/// A look-ahead agent: [`SearchMethod`] to a depth, with an optional time limit.
///
/// Ties between moves of equal value are broken at random.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchAgent {
    method: SearchMethod,
    depth: u32,
    time: Option<Duration>,
}

impl SearchAgent {
    /// An agent running `method` to `depth` plies (at least 1; `greedy` always uses 1).
    #[must_use]
    pub fn new(method: SearchMethod, depth: u32, time: Option<Duration>) -> SearchAgent {
        let depth = if method == SearchMethod::Greedy {
            1
        } else {
            depth.max(1)
        };
        SearchAgent {
            method,
            depth,
            time,
        }
    }

    /// Searches every legal move of `state` (which must be unfinished).
    pub fn search<G: Game + LeafEval>(&self, state: &G) -> SearchResult {
        let moves = state.legal_moves();
        let deadline = Deadline::start(self.time);
        let mut s = Searcher {
            method: self.method,
            nodes: 0,
            deadline,
            check_time: false,
            aborted: false,
            horizon: false,
            buffers: Vec::new(),
        };
        if !deadline.is_limited() {
            let values = s.root(state, &moves, self.depth);
            return SearchResult {
                values,
                depth: self.depth,
                exact: !s.horizon,
                timed_out: false,
            };
        }
        let mut done = None;
        for depth in 1..=self.depth {
            s.check_time = depth > 1;
            s.horizon = false;
            let values = s.root(state, &moves, depth);
            if s.aborted {
                break;
            }
            let exact = !s.horizon;
            done = Some(SearchResult {
                values,
                depth,
                exact,
                timed_out: false,
            });
            if exact {
                break;
            }
        }
        let mut result = done.expect("depth 1 always completes");
        result.timed_out = s.aborted;
        result
    }
}

impl fmt::Display for SearchAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = time_text(self.time);
        match self.method {
            SearchMethod::Greedy => write!(f, "greedy:time={time}"),
            m => write!(f, "{}:depth={},time={time}", m.name(), self.depth),
        }
    }
}

impl<G: Game + LeafEval> Agent<G> for SearchAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = moves_of(state)?;
        let result = self.search(state);
        let scored = moves
            .iter()
            .zip(&result.values)
            .map(|(&mv, v)| {
                MoveScore::new(mv, v.value)
                    .with_part("value", v.value)
                    .with_part("depth", result.depth)
                    .with_part("nodes", v.nodes as f64)
            })
            .collect();
        let mut e = explain_best(self.to_string(), scored, rng);
        let nodes: u64 = result.values.iter().map(|v| v.nodes).sum();
        e.notes.push(format!(
            "{} to depth {}{}, {nodes} nodes; a win is worth {WIN_VALUE}",
            self.method.name(),
            result.depth,
            if result.exact {
                " (exact: every line reached the end)"
            } else {
                ""
            },
        ));
        if result.timed_out {
            e.notes.push(format!(
                "time ran out during depth {}: playing by depth {}",
                result.depth + 1,
                result.depth
            ));
        }
        Ok(e)
    }
}

/// One search's state: counters, the clock and reusable child buffers per ply.
struct Searcher<G> {
    method: SearchMethod,
    nodes: u64,
    deadline: Deadline,
    /// Whether to read the clock (off for depth 1, which always completes).
    check_time: bool,
    aborted: bool,
    /// Whether some line stopped at the depth limit before the game ended.
    horizon: bool,
    /// `buffers[ply]`: the ordered children of the node being searched at that ply
    /// (alpha-beta).
    buffers: Vec<Vec<(f64, G)>>,
}

impl<G: Game + LeafEval> Searcher<G> {
    /// Values of every root move, each searched alone (alpha-beta with a full window), so every
    /// value is exact to the depth.
    fn root(&mut self, state: &G, moves: &[G::Move], depth: u32) -> Vec<RootValue> {
        let mut values = Vec::with_capacity(moves.len());
        for &mv in moves {
            let before = self.nodes;
            let child = state.play_unchecked(mv);
            let v = match self.method {
                SearchMethod::Greedy | SearchMethod::Minimax => -self.minimax(&child, depth - 1),
                SearchMethod::AlphaBeta => {
                    -self.alphabeta(&child, depth - 1, 1, f64::NEG_INFINITY, f64::INFINITY)
                }
                SearchMethod::Average => -self.average(&child, depth - 1),
            };
            values.push(RootValue {
                value: v,
                nodes: self.nodes - before,
            });
            if self.aborted {
                break;
            }
        }
        values
    }

    /// Counts a node; returns its value if it is finished or at the depth limit.
    #[inline]
    fn visit(&mut self, pos: &G, depth: u32) -> Option<f64> {
        self.nodes += 1;
        if let Some(outcome) = pos.outcome() {
            return Some(outcome_value(outcome, pos.side_to_move()));
        }
        if depth == 0 {
            self.horizon = true;
            return Some(pos.leaf_eval());
        }
        if self.check_time && self.nodes.is_multiple_of(CLOCK_EVERY) && self.deadline.expired() {
            self.aborted = true;
        }
        if self.aborted {
            return Some(0.0);
        }
        None
    }

    fn minimax(&mut self, pos: &G, depth: u32) -> f64 {
        if let Some(v) = self.visit(pos, depth) {
            return v;
        }
        let mut best = f64::NEG_INFINITY;
        for mv in pos.legal_moves() {
            let v = -self.minimax(&pos.play_unchecked(mv), depth - 1);
            best = best.max(v);
        }
        best
    }

    fn average(&mut self, pos: &G, depth: u32) -> f64 {
        if let Some(v) = self.visit(pos, depth) {
            return v;
        }
        let moves = pos.legal_moves();
        let sum: f64 = moves
            .iter()
            .map(|&mv| -self.average(&pos.play_unchecked(mv), depth - 1))
            .sum();
        sum / moves.len() as f64
    }

    /// Fail-soft negamax alpha-beta: the exact value when it lies inside `(alpha, beta)`, else
    /// a bound on the correct side of the window.
    fn alphabeta(&mut self, pos: &G, depth: u32, ply: usize, mut alpha: f64, beta: f64) -> f64 {
        if let Some(v) = self.visit(pos, depth) {
            return v;
        }
        if self.buffers.len() <= ply {
            self.buffers.resize_with(ply + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.buffers[ply]);
        children.clear();
        // Order: finished games and leaf evaluations from the mover's side, best first.
        for mv in pos.legal_moves() {
            let child = pos.play_unchecked(mv);
            let guess = match child.outcome() {
                Some(outcome) => -outcome_value(outcome, child.side_to_move()),
                None if depth > 1 => -child.leaf_eval(),
                None => 0.0,
            };
            children.push((guess, child));
        }
        if depth > 1 {
            children.sort_by(|a, b| b.0.total_cmp(&a.0));
        }
        let mut best = f64::NEG_INFINITY;
        for (_, child) in &children {
            let v = -self.alphabeta(child, depth - 1, ply + 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
            }
            if alpha >= beta || self.aborted {
                break;
            }
        }
        self.buffers[ply] = children;
        best
    }
}
