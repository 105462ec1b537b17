//! The transposition-merged graph of a game's positions, its traversal orders and the counts
//! of the full game tree.

use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

use yomi_core::{Game, Outcome, Player, Symmetric};

use crate::TreeError;

/// The default cap on the number of distinct positions a build may create.
pub const DEFAULT_MAX_POSITIONS: usize = 5_000_000;

/// A small, fast, deterministic hasher (the Fx hash of rustc) for the position index. The
/// index is never iterated, so its order cannot leak into any output.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FxHasher(u64);

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

/// The graph of the distinct positions reachable from a start position, transpositions merged.
///
/// Positions are numbered (`usize` ids) in breadth-first discovery order from the start (id 0),
/// children in each position's legal-move order; this is also the order in which the full tree's
/// breadth-first traversal meets each position for the first time. Children are stored as
/// id ranges in one flat array, next to their moves.
#[derive(Clone, Debug)]
pub struct Graph<G: Game> {
    positions: Vec<G>,
    index: HashMap<G, u32, FxBuild>,
    /// `first_edge[i]..first_edge[i + 1]` are the edges of position `i`.
    first_edge: Vec<u32>,
    edge_child: Vec<u32>,
    edge_move: Vec<G::Move>,
    depth: Vec<u32>,
    outcome: Vec<Option<Outcome>>,
}

/// The counts of the full game tree (every move sequence from the start; play stops when the
/// game ends), computed from the graph by counting paths, not by walking the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeCounts {
    /// `per_depth[d]`: move sequences of exactly `d` plies (the start is depth 0).
    pub per_depth: Vec<u64>,
    /// All nodes of the full tree: the sum of `per_depth`.
    pub total: u64,
    /// Finished games (leaves of the full tree) by outcome: `[first wins, draw, second wins]`.
    pub terminal: [u64; 3],
}

/// A node of the full game tree met by [`FullTreeBfs`] or [`FullTreeDfs`]: the graph position
/// and the number of plies from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The position's id in the [`Graph`].
    pub id: usize,
    /// Plies from the start.
    pub depth: u32,
}

fn outcome_slot(outcome: Outcome) -> usize {
    match outcome {
        Outcome::Win(Player::First) => 0,
        Outcome::Draw => 1,
        Outcome::Win(Player::Second) => 2,
    }
}

impl<G: Game> Graph<G> {
    /// Builds the graph of every position reachable from `start`, breadth first, with the
    /// default cap of [`DEFAULT_MAX_POSITIONS`].
    ///
    /// # Errors
    /// [`TreeError::TooManyPositions`] past the cap.
    pub fn build(start: G) -> Result<Graph<G>, TreeError> {
        Graph::build_with_limit(start, DEFAULT_MAX_POSITIONS)
    }

    /// Builds the graph with a cap on the number of distinct positions.
    ///
    /// # Errors
    /// [`TreeError::TooManyPositions`] when more than `max_positions` positions are reachable.
    pub fn build_with_limit(start: G, max_positions: usize) -> Result<Graph<G>, TreeError> {
        let limit = max_positions.min(u32::MAX as usize - 1);
        let mut graph = Graph {
            positions: Vec::new(),
            index: HashMap::default(),
            first_edge: vec![0],
            edge_child: Vec::new(),
            edge_move: Vec::new(),
            depth: Vec::new(),
            outcome: Vec::new(),
        };
        graph.add(start, 0, limit)?;
        let mut next = 0;
        while next < graph.positions.len() {
            let pos = graph.positions[next].clone();
            let depth = graph.depth[next] + 1;
            for mv in pos.legal_moves() {
                let child = pos.play_unchecked(mv);
                let id = match graph.index.get(&child) {
                    Some(&id) => id,
                    None => graph.add(child, depth, limit)?,
                };
                graph.edge_child.push(id);
                graph.edge_move.push(mv);
            }
            let edges =
                u32::try_from(graph.edge_child.len()).map_err(|_| TreeError::TooManyPositions {
                    limit: max_positions,
                })?;
            graph.first_edge.push(edges);
            next += 1;
        }
        Ok(graph)
    }

    fn add(&mut self, pos: G, depth: u32, limit: usize) -> Result<u32, TreeError> {
        if self.positions.len() >= limit {
            return Err(TreeError::TooManyPositions { limit });
        }
        // The limit keeps ids below u32::MAX.
        let id = self.positions.len() as u32;
        self.outcome.push(pos.outcome());
        self.index.insert(pos.clone(), id);
        self.positions.push(pos);
        self.depth.push(depth);
        Ok(id)
    }

    /// Rebuilds a graph from positions listed with their depths (the start first); the edges
    /// come from the rules. Used by the data-file loader.
    pub(crate) fn from_positions(
        positions: Vec<G>,
        depth: Vec<u32>,
    ) -> Result<Graph<G>, (usize, String)> {
        let mut index: HashMap<G, u32, FxBuild> = HashMap::default();
        if positions.len() >= u32::MAX as usize {
            return Err((0, "too many positions".into()));
        }
        for (i, p) in positions.iter().enumerate() {
            if index.insert(p.clone(), i as u32).is_some() {
                return Err((i, format!("position {p} appears twice")));
            }
        }
        let mut graph = Graph {
            outcome: positions.iter().map(Game::outcome).collect(),
            positions,
            index,
            first_edge: vec![0],
            edge_child: Vec::new(),
            edge_move: Vec::new(),
            depth,
        };
        for (i, pos) in graph.positions.iter().enumerate() {
            for mv in pos.legal_moves() {
                let child = pos.play_unchecked(mv);
                let id = *graph
                    .index
                    .get(&child)
                    .ok_or_else(|| (i, format!("child {child} of {pos} (move {mv}) is missing")))?;
                graph.edge_child.push(id);
                graph.edge_move.push(mv);
            }
            let edges = u32::try_from(graph.edge_child.len())
                .map_err(|_| (i, "too many edges".to_string()))?;
            graph.first_edge.push(edges);
        }
        Ok(graph)
    }

    /// The number of distinct positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Always `false`: a graph holds at least its start.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The number of moves (edges) between distinct positions.
    #[must_use]
    pub fn edge_count(&self) -> usize {
        self.edge_child.len()
    }

    /// The start position (id 0).
    #[must_use]
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// The position with id `id`.
    ///
    /// # Panics
    /// If `id >= len()`.
    #[must_use]
    pub fn position(&self, id: usize) -> &G {
        &self.positions[id]
    }

    /// All positions, by id.
    #[must_use]
    pub fn positions(&self) -> &[G] {
        &self.positions
    }

    /// The id of `pos`, if it is in the graph.
    #[must_use]
    pub fn id_of(&self, pos: &G) -> Option<usize> {
        self.index.get(pos).map(|&id| id as usize)
    }

    pub(crate) fn edges(&self, id: usize) -> std::ops::Range<usize> {
        self.first_edge[id] as usize..self.first_edge[id + 1] as usize
    }

    /// The legal moves of position `id`, in the game's order.
    ///
    /// # Panics
    /// If `id >= len()`.
    #[must_use]
    pub fn moves(&self, id: usize) -> &[G::Move] {
        &self.edge_move[self.edges(id)]
    }

    /// The ids of the children of `id`, in the order of [`Graph::moves`].
    ///
    /// # Panics
    /// If `id >= len()`.
    pub fn children(&self, id: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.edge_child[self.edges(id)].iter().map(|&c| c as usize)
    }

    pub(crate) fn child(&self, edge: usize) -> usize {
        self.edge_child[edge] as usize
    }

    /// The fewest plies from the start to `id` (for games such as tic-tac-toe, where every path
    /// to a position has the same length, simply its ply).
    #[must_use]
    pub fn depth(&self, id: usize) -> u32 {
        self.depth[id]
    }

    /// How the game ended at `id`, if it did.
    #[must_use]
    pub fn outcome(&self, id: usize) -> Option<Outcome> {
        self.outcome[id]
    }

    /// The number of positions that are distinct up to the game's symmetries.
    #[must_use]
    pub fn canonical_count(&self) -> usize
    where
        G: Symmetric,
    {
        self.positions
            .iter()
            .map(Symmetric::canonical_key)
            .collect::<HashSet<u64>>()
            .len()
    }

    /// Position ids in breadth-first order of first discovery from the start: `0..len()`.
    pub fn bfs_order(&self) -> impl ExactSizeIterator<Item = usize> {
        0..self.len()
    }

    /// Position ids in depth-first preorder of first discovery from the start (children in
    /// move order): the order in which [`Graph::full_tree_dfs`] meets each position first.
    #[must_use]
    pub fn dfs_order(&self) -> Vec<usize> {
        let mut seen = vec![false; self.len()];
        let mut order = Vec::with_capacity(self.len());
        let mut stack = vec![0usize];
        while let Some(id) = stack.pop() {
            if std::mem::replace(&mut seen[id], true) {
                continue;
            }
            order.push(id);
            let edges = self.edges(id);
            stack.extend(edges.rev().map(|e| self.child(e)).filter(|&c| !seen[c]));
        }
        order
    }

    /// Every node of the full game tree (every move sequence), breadth first: by depth, and
    /// within a depth in the order of the parents, children in move order. Lazy: it holds a
    /// queue of graph ids, not the tree.
    #[must_use]
    pub fn full_tree_bfs(&self) -> FullTreeBfs<'_, G> {
        FullTreeBfs {
            graph: self,
            queue: VecDeque::from([(0u32, 0u32)]),
        }
    }

    /// Every node of the full game tree, depth first (preorder, children in move order).
    #[must_use]
    pub fn full_tree_dfs(&self) -> FullTreeDfs<'_, G> {
        FullTreeDfs {
            graph: self,
            stack: vec![(0u32, 0u32)],
        }
    }

    /// Ids such that every position comes after all its children (a reverse topological
    /// order), by an iterative depth-first search.
    ///
    /// # Errors
    /// [`TreeError::Cycle`] if a position can be reached from itself (the game never ends).
    pub(crate) fn post_order(&self) -> Result<Vec<u32>, TreeError> {
        // 0 = unseen, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; self.len()];
        let mut order = Vec::with_capacity(self.len());
        let mut stack: Vec<(u32, usize)> = vec![(0, self.edges(0).start)];
        state[0] = 1;
        while let Some(top) = stack.last_mut() {
            let id = top.0 as usize;
            let end = self.edges(id).end;
            if top.1 < end {
                let child = self.edge_child[top.1];
                top.1 += 1;
                match state[child as usize] {
                    0 => {
                        state[child as usize] = 1;
                        stack.push((child, self.edges(child as usize).start));
                    }
                    1 => {
                        return Err(TreeError::Cycle {
                            position: self.positions[child as usize].to_string(),
                        })
                    }
                    _ => {}
                }
            } else {
                state[id] = 2;
                order.push(top.0);
                stack.pop();
            }
        }
        Ok(order)
    }

    /// The counts of the full game tree, from the number of move sequences that reach each
    /// position at each depth (one pass per depth over the positions met at that depth).
    ///
    /// # Errors
    /// [`TreeError::Overflow`] if a count does not fit in 64 bits.
    pub fn full_tree_counts(&self) -> Result<TreeCounts, TreeError> {
        let overflow = || TreeError::Overflow {
            what: "full-tree node count",
        };
        let mut per_depth = Vec::new();
        let mut terminal = [0u64; 3];
        let mut total: u64 = 0;
        // The positions met at the current depth and the number of paths to each.
        let mut layer: Vec<(u32, u64)> = vec![(0, 1)];
        let mut paths = vec![0u64; self.len()];
        while !layer.is_empty() {
            let mut count: u64 = 0;
            let mut next: Vec<(u32, u64)> = Vec::new();
            for &(id, n) in &layer {
                count = count.checked_add(n).ok_or_else(overflow)?;
                if let Some(outcome) = self.outcome[id as usize] {
                    let slot = &mut terminal[outcome_slot(outcome)];
                    *slot = slot.checked_add(n).ok_or_else(overflow)?;
                }
                for e in self.edges(id as usize) {
                    let child = self.edge_child[e];
                    let p = &mut paths[child as usize];
                    if *p == 0 {
                        next.push((child, 0));
                    }
                    *p = p.checked_add(n).ok_or_else(overflow)?;
                }
            }
            for slot in &mut next {
                slot.1 = std::mem::take(&mut paths[slot.0 as usize]);
            }
            total = total.checked_add(count).ok_or_else(overflow)?;
            per_depth.push(count);
            layer = next;
        }
        Ok(TreeCounts {
            per_depth,
            total,
            terminal,
        })
    }
}

/// Breadth-first iterator over the full game tree; see [`Graph::full_tree_bfs`].
#[derive(Debug)]
pub struct FullTreeBfs<'a, G: Game> {
    graph: &'a Graph<G>,
    queue: VecDeque<(u32, u32)>,
}

impl<G: Game> Iterator for FullTreeBfs<'_, G> {
    type Item = TreeNode;

    fn next(&mut self) -> Option<TreeNode> {
        let (id, depth) = self.queue.pop_front()?;
        let edges = self.graph.edges(id as usize);
        self.queue
            .extend(self.graph.edge_child[edges].iter().map(|&c| (c, depth + 1)));
        Some(TreeNode {
            id: id as usize,
            depth,
        })
    }
}

/// Depth-first (preorder) iterator over the full game tree; see [`Graph::full_tree_dfs`].
#[derive(Debug)]
pub struct FullTreeDfs<'a, G: Game> {
    graph: &'a Graph<G>,
    stack: Vec<(u32, u32)>,
}

impl<G: Game> Iterator for FullTreeDfs<'_, G> {
    type Item = TreeNode;

    fn next(&mut self) -> Option<TreeNode> {
        let (id, depth) = self.stack.pop()?;
        let edges = self.graph.edges(id as usize);
        self.stack.extend(
            self.graph.edge_child[edges]
                .iter()
                .rev()
                .map(|&c| (c, depth + 1)),
        );
        Some(TreeNode {
            id: id as usize,
            depth,
        })
    }
}
