//! The principal variation of a solved position, and the legal moves and plays of an `N`x`N`
//! board on raw bitboards that it walks.

use std::sync::atomic::{AtomicU64, Ordering};

use yomi_core::Watch;
use yomi_othello::{Move, Square};

use super::config::Mode;
use super::search::clamp;
use super::Solver;
use crate::bits::{board_mask, flips, moves};
use crate::table::hash;

/// The legal moves of the side with discs `p` against `o` on an `N`x`N` board, as
/// `Othello::legal_moves` gives them: the squares in index order, a lone [`Move::Pass`] when
/// the mover must pass, none when the game is over.
pub(super) fn legal_moves<const N: usize>(p: u64, o: u64) -> Vec<Move> {
    let mask = board_mask::<N>();
    let mut bits = moves(p, o) & mask;
    if bits == 0 {
        return if moves(o, p) & mask == 0 {
            Vec::new()
        } else {
            vec![Move::Pass]
        };
    }
    let mut list = Vec::with_capacity(bits.count_ones() as usize);
    while bits != 0 {
        list.push(Move::Place(Square::new(bits.trailing_zeros() as u8)));
        bits &= bits - 1;
    }
    list
}

/// The position after the side with discs `p` plays the legal move `mv` against `o`: the new
/// mover's discs, then the other side's.
fn play(p: u64, o: u64, mv: Move) -> (u64, u64) {
    match mv {
        Move::Pass => (o, p),
        Move::Place(sq) => {
            let f = flips(p, o, sq.index());
            (o ^ f, p | f | 1 << sq.index())
        }
    }
}

impl Solver {
    /// A line from the position `(p, o)` of an `N`x`N` board that keeps `score`: `best`, then
    /// at each step the first move whose value equals the score (the table's move first, then
    /// index order); cut short if `watch` stops.
    pub(super) fn principal_variation<const N: usize>(
        &mut self,
        (p, o): (u64, u64),
        score: i32,
        best: Option<Move>,
        mode: Mode,
        nodes: &AtomicU64,
        watch: &Watch,
    ) -> Vec<Move> {
        let Some(best) = best else {
            return Vec::new();
        };
        let mut search = self.search::<N>(watch, false);
        // Whether the mover's score in `(p, o)` equals `target` (in this mode); `None` if the
        // search was stopped.
        let mut equals = |(p, o): (u64, u64), target: i32| -> Option<bool> {
            let r = match mode {
                Mode::Exact => search.search(p, o, target - 1, target + 1) == target,
                Mode::Wld => clamp(search.search(p, o, -1, 1), Mode::Wld) == target,
            };
            (!search.aborted()).then_some(r)
        };
        let mut pv = vec![best];
        let mut pos = play(p, o, best);
        let mut score = -score;
        let table = &self.table;
        loop {
            // The table's best move first (the move the solve proved its bound with, whose
            // proof is stored), then the others in index order: a move in index order may
            // reach the score only by a proof far longer than the solve's own.
            let mut legal = legal_moves::<N>(pos.0, pos.1);
            if legal.is_empty() {
                break;
            }
            if let Some(e) = table.probe(hash(pos.0, pos.1)) {
                let stored =
                    |m: &Move| matches!(m, Move::Place(sq) if sq.index() == usize::from(e.best));
                // A stable sort: the stored move first, the others in index order.
                legal.sort_by_key(|m| !stored(m));
            }
            let mut next = None;
            for &mv in &legal {
                let child = play(pos.0, pos.1, mv);
                // A forced pass keeps the score without a search.
                let keeps = mv == Move::Pass || {
                    match equals(child, -score) {
                        Some(keeps) => keeps,
                        None => break,
                    }
                };
                if keeps {
                    next = Some((mv, child));
                    break;
                }
            }
            // None: stopped, or (unreachable when the score is right) no move keeps it.
            let Some((mv, child)) = next else {
                break;
            };
            pv.push(mv);
            pos = child;
            score = -score;
        }
        nodes.fetch_add(search.nodes(), Ordering::Relaxed);
        pv
    }
}
