use serde::{Deserialize, Serialize};

use crate::Game;

/// Leaf counts of a move-generation test to a fixed depth.
///
/// Two conventions are in use, and both come from one traversal:
/// - [`PerftCount::at_depth`]: the move sequences of exactly `depth` plies; a game that ended
///   earlier drops out (tic-tac-toe's published counts 9, 72, 504, ... use this);
/// - [`PerftCount::leaves`] (standard perft): the same plus one leaf for every game that ended
///   before `depth` (Othello's published counts use this; a pass is a ply).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerftCount {
    /// Move sequences of exactly `depth` plies.
    pub at_depth: u64,
    /// Games that ended after fewer than `depth` plies.
    pub ended_early: u64,
}

impl PerftCount {
    /// Standard perft: `at_depth + ended_early`.
    #[must_use]
    pub fn leaves(self) -> u64 {
        self.at_depth + self.ended_early
    }
}

/// Counts the leaves of the game tree below `pos` to `depth` plies, in both conventions.
///
/// The last ply is bulk-counted (the number of legal moves, without playing them).
#[must_use]
pub fn perft<G: Game>(pos: &G, depth: u32) -> PerftCount {
    let mut count = PerftCount::default();
    walk(pos, depth, &mut count);
    count
}

fn walk<G: Game>(pos: &G, depth: u32, count: &mut PerftCount) {
    if depth == 0 {
        count.at_depth += 1;
        return;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        count.ended_early += 1;
        return;
    }
    if depth == 1 {
        count.at_depth += moves.len() as u64;
        return;
    }
    for &mv in moves.iter() {
        walk(&pos.play_unchecked(mv), depth - 1, count);
    }
}
