//! Monte Carlo tree search (UCT) with random playouts, for any game.

use std::fmt;
use std::time::Duration;

use yomi_core::{Agent, AgentError, Explanation, Game, MoveScore, Outcome, Player, Rng};

use crate::common::{budget_notes, moves_of, pick_index, time_text, Deadline, CLOCK_EVERY};

/// The most nodes a search tree grows to (a few hundred megabytes for Othello). Past it, a
/// reached leaf is no longer expanded: the iteration plays out from it, as from a new node.
pub(crate) const MAX_NODES: usize = 2_000_000;

/// One node of the search tree: the position after a move, and the statistics of the player
/// who made that move.
#[derive(Clone, Debug)]
struct Node<G: Game> {
    pos: G,
    /// The player who moved into this node (whose results `reward` sums).
    mover: Player,
    /// Index of the first child in the arena; children are contiguous.
    first_child: u32,
    /// Number of children (0 until expanded).
    children: u32,
    expanded: bool,
    visits: u32,
    /// Sum of the mover's results: 1 a win, 0.5 a draw, 0 a loss.
    reward: f64,
    /// `reward / visits` and `1 / sqrt(visits)`, kept up to date on the way back so that
    /// choosing a child costs one multiply-add per child.
    mean: f64,
    inv_sqrt: f64,
    /// Whether the game is over here.
    terminal: bool,
}

impl<G: Game> Node<G> {
    fn new(pos: G, mover: Player) -> Node<G> {
        Node {
            terminal: pos.is_over(),
            pos,
            mover,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
            mean: 0.0,
            inv_sqrt: 0.0,
        }
    }
}

/// Visits and mean result of one root move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct MctsStats {
    /// Times the search went through this move.
    pub visits: u32,
    /// The mover's mean result there (1 a win, 0.5 a draw, 0 a loss).
    pub mean: f64,
}

/// UCT: Monte Carlo tree search choosing children by the UCB1 bound
/// `mean + c * sqrt(ln(parent visits) / visits)`, unvisited children first (in the game's
/// order), one random playout per iteration from the newly reached node, results 1 / 0.5 / 0.
///
/// It plays the most visited root move, ties at random; with only one legal move it plays it
/// without searching. A time limit stops early (the clock is read every 64 iterations). The
/// tree grows to at most about two million nodes; past that, leaves are played out but no
/// longer expanded, so memory stays bounded whatever `iters` is.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsAgent {
    iters: u64,
    time: Option<Duration>,
    c: f64,
    /// The node cap ([`MAX_NODES`]; smaller in tests).
    max_nodes: usize,
}

impl MctsAgent {
    /// An agent running `iters` iterations per decision (at most; a time limit may stop it
    /// earlier) with exploration constant `c`.
    #[must_use]
    pub fn new(iters: u64, time: Option<Duration>, c: f64) -> MctsAgent {
        MctsAgent {
            iters,
            time,
            c,
            max_nodes: MAX_NODES,
        }
    }

    /// Searches and returns, per legal move in order, its statistics, plus the iterations run
    /// and the size of the tree. `state` must be unfinished with at least two legal moves.
    fn search<G: Game>(&self, state: &G, rng: &mut Rng) -> (Vec<MctsStats>, u64, usize) {
        let mut tree: Vec<Node<G>> = vec![Node::new(state.clone(), !state.side_to_move())];
        let deadline = Deadline::start(self.time);
        let mut path: Vec<u32> = Vec::with_capacity(32);
        let mut done = 0;
        while done < self.iters {
            if done % CLOCK_EVERY == 0 && done > 0 && deadline.expired() {
                break;
            }
            done += 1;
            path.clear();
            let mut at = 0u32;
            path.push(at);
            // Selection: descend through expanded nodes.
            loop {
                let node = &tree[at as usize];
                if node.terminal {
                    break;
                }
                if !node.expanded {
                    if tree.len() >= self.max_nodes {
                        break;
                    }
                    self.expand(&mut tree, at);
                }
                let node = &tree[at as usize];
                let (first, n) = (node.first_child as usize, node.children as usize);
                let explore = self.c * f64::from(node.visits.max(1)).ln().sqrt();
                let kids = &tree[first..first + n];
                // Unvisited children first, in order; then the highest UCB1 bound.
                let i = kids.iter().position(|k| k.visits == 0).unwrap_or_else(|| {
                    let mut best = 0;
                    let mut best_ucb = f64::NEG_INFINITY;
                    for (i, k) in kids.iter().enumerate() {
                        let ucb = k.mean + explore * k.inv_sqrt;
                        if ucb > best_ucb {
                            best_ucb = ucb;
                            best = i;
                        }
                    }
                    best
                });
                let unvisited = kids[i].visits == 0;
                at = (first + i) as u32;
                path.push(at);
                if unvisited {
                    break;
                }
            }
            // Simulation from the reached node.
            let outcome = tree[at as usize].pos.random_playout(rng);
            // Backpropagation.
            for &id in &path {
                let node = &mut tree[id as usize];
                node.visits += 1;
                node.reward += match outcome {
                    Outcome::Win(p) if p == node.mover => 1.0,
                    Outcome::Win(_) => 0.0,
                    Outcome::Draw => 0.5,
                };
                let v = f64::from(node.visits);
                node.mean = node.reward / v;
                node.inv_sqrt = v.sqrt().recip();
            }
        }
        let root = &tree[0];
        let first = root.first_child as usize;
        let stats = tree[first..first + root.children as usize]
            .iter()
            .map(|k| MctsStats {
                visits: k.visits,
                mean: k.mean,
            })
            .collect();
        (stats, done, tree.len())
    }

    /// Adds all children of node `at` to the arena.
    fn expand<G: Game>(&self, tree: &mut Vec<Node<G>>, at: u32) {
        let pos = tree[at as usize].pos.clone();
        let mover = pos.side_to_move();
        let first = tree.len() as u32;
        let moves = pos.legal_moves();
        for &mv in moves.iter() {
            tree.push(Node::new(pos.play_unchecked(mv), mover));
        }
        let node = &mut tree[at as usize];
        node.first_child = first;
        node.children = moves.len() as u32;
        node.expanded = true;
    }

    /// The stats per move and the indices of the most visited moves.
    fn run<G: Game>(
        &self,
        state: &G,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> (Vec<MctsStats>, Vec<usize>, u64) {
        if moves.len() == 1 {
            let stats = vec![MctsStats {
                visits: 0,
                mean: 0.0,
            }];
            return (stats, vec![0], 0);
        }
        let (stats, iters, _) = self.search(state, rng);
        let top = stats.iter().map(|s| s.visits).max().unwrap_or(0);
        let best = (0..stats.len())
            .filter(|&i| stats[i].visits == top)
            .collect();
        (stats, best, iters)
    }
}

impl fmt::Display for MctsAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mcts:iters={},time={},c={}",
            self.iters,
            time_text(self.time),
            self.c
        )
    }
}

impl<G: Game> Agent<G> for MctsAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = moves_of(state)?;
        let (stats, best, iters) = self.run(state, &moves, rng);
        let chosen = moves[best[pick_index(best.len(), rng)]];
        let scored = moves
            .iter()
            .zip(&stats)
            .map(|(&mv, s)| {
                MoveScore::new(mv, f64::from(s.visits))
                    .with_part("visits", s.visits)
                    .with_part("mean", s.mean)
            })
            .collect();
        let notes = budget_notes(
            moves.len(),
            iters,
            self.iters,
            "iterations",
            format!("{iters} iterations; the score is the visit count"),
        );
        Ok(Explanation {
            agent: self.to_string(),
            moves: scored,
            best: best.iter().map(|&i| moves[i]).collect(),
            chosen,
            notes,
        })
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        let moves = moves_of(state)?;
        let (_, best, _) = self.run(state, &moves, rng);
        Ok(moves[best[pick_index(best.len(), rng)]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree stops growing at the cap (plus at most one expansion) while the search still
    /// runs every iteration; below the cap nothing changes.
    #[test]
    fn the_tree_stops_growing_at_the_node_cap() {
        let start = yomi_othello::Othello::default();
        let free = MctsAgent::new(20_000, None, 1.4);
        let (_, _, grown) = free.search(&start, &mut Rng::seed_from_u64(1));
        assert!(grown > 20_000, "{grown}");
        let capped = MctsAgent {
            max_nodes: 5_000,
            ..free.clone()
        };
        let (stats, iters, nodes) = capped.search(&start, &mut Rng::seed_from_u64(1));
        assert_eq!(iters, 20_000);
        assert!((5_000..=5_064).contains(&nodes), "{nodes}");
        assert_eq!(
            stats.iter().map(|s| u64::from(s.visits)).sum::<u64>(),
            20_000
        );
        assert_eq!(MAX_NODES, free.max_nodes);
    }
}
