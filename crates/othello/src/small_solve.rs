//! An exact solver for the small boards: negamax alpha-beta on the final score (empties to the
//! winner) with a transposition table, proving bounds by null-window tests so that a search
//! stopped by its [`Limits`] still reports what it proved.

use yomi_core::{Game, Limits, StopReason, Watch};

use crate::small::{masked_flips, masked_moves};
use crate::{SmallMove, SmallOthello, Square};

/// What [`SmallSolver::solve`] proved about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallSolution<const N: usize> {
    /// A proved lower bound on the final score, from the side to move's view.
    pub lower: i32,
    /// A proved upper bound (equal to `lower` when the value is exact).
    pub upper: i32,
    /// Why the search stopped before the exact value, `None` when it finished.
    pub stopped: Option<StopReason>,
    /// A principal variation to the end of the game when the value is exact (passes included);
    /// empty when the value is not exact (or a limit struck while the line was walked).
    pub line: Vec<SmallMove<N>>,
    /// Positions searched.
    pub nodes: u64,
}

impl<const N: usize> SmallSolution<N> {
    /// The exact value, when it was proved.
    #[must_use]
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    used: bool,
}

/// A depth-first exact solver for [`SmallOthello`] positions.
///
/// Techniques: fail-soft alpha-beta on the final score, a transposition table keyed by the
/// full disc sets (so a hit is never a collision) holding proved bounds and the best move,
/// and move ordering by the table's move then by the opponent's mobility (fewest first) while
/// more than a few squares are empty. The value is found by null-window tests that halve the
/// interval of possible (even) scores, each test proving a bound.
#[derive(Debug)]
pub struct SmallSolver {
    table: Vec<Entry>,
    nodes: u64,
    unpolled: u64,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Entry({}..{})", self.lower, self.upper)
    }
}

/// Squares empty at or below which moves are tried in plain order.
const ORDER_EMPTIES: u32 = 5;
/// Nodes between two polls of the limits.
const POLL: u64 = 1 << 14;

impl SmallSolver {
    /// A solver with a table of `2^bits` entries (about 24 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> SmallSolver {
        SmallSolver {
            table: vec![Entry::default(); 1 << bits.min(30)],
            nodes: 0,
            unpolled: 0,
        }
    }

    fn slot(&self, p: u64, o: u64) -> usize {
        let h = (p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            .rotate_left(29)
            .wrapping_mul(0x1656_67b1_9e37_79f9);
        (h >> 17) as usize & (self.table.len() - 1)
    }

    /// Solves `pos` within `limits`: the exact final score from the side to move's view and a
    /// principal variation, or the bounds proved before a limit stopped it.
    pub fn solve<const N: usize>(
        &mut self,
        pos: &SmallOthello<N>,
        limits: &Limits,
    ) -> SmallSolution<N> {
        let watch = limits.start();
        self.nodes = 0;
        self.unpolled = 0;
        let mask = SmallOthello::<N>::MASK.bits();
        let (p, o) = (pos.player().bits(), pos.opponent().bits());
        let max = (N * N) as i32;
        let (mut lower, mut upper) = (-max, max);
        while lower < upper {
            // An odd test value strictly inside the interval of even scores.
            let t = lower + 1 + 2 * ((upper - lower) / 4);
            let r = self.search(p, o, mask, t, t + 1, &watch);
            if watch.stopped() {
                break;
            }
            if r > t {
                lower = lower.max(r);
            } else {
                upper = upper.min(r);
            }
        }
        let mut line = Vec::new();
        if lower == upper && !watch.stopped() {
            self.principal_variation(pos, lower, &watch, &mut line);
        }
        let _ = watch.poll(self.unpolled);
        let stopped = if lower == upper { None } else { watch.reason() };
        SmallSolution {
            lower,
            upper,
            stopped,
            line,
            nodes: self.nodes,
        }
    }

    fn principal_variation<const N: usize>(
        &mut self,
        pos: &SmallOthello<N>,
        value: i32,
        watch: &Watch,
        line: &mut Vec<SmallMove<N>>,
    ) {
        let mask = SmallOthello::<N>::MASK.bits();
        let (mut pos, mut v) = (*pos, value);
        while !pos.is_over() {
            let mut found = None;
            // The table's best move first: it is usually the one that keeps the value.
            let (pp, po) = (pos.player().bits(), pos.opponent().bits());
            let e = self.table[self.slot(pp, po)];
            let mut moves: Vec<SmallMove<N>> = pos.legal_moves().iter().copied().collect();
            if e.used && e.player == pp && e.opponent == po {
                if let Some(k) = moves
                    .iter()
                    .position(|m| m.square().map(Square::index) == Some(usize::from(e.best)))
                {
                    moves[..=k].rotate_right(1);
                }
            }
            for mv in moves {
                let child = pos.play_unchecked(mv);
                let (cp, co) = (child.player().bits(), child.opponent().bits());
                let r = -self.search(cp, co, mask, -(v + 1), -(v - 1), watch);
                if watch.stopped() {
                    line.clear();
                    return;
                }
                if r == v {
                    found = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = found else {
                // Cannot happen for a proved value; leave the line short rather than panic.
                return;
            };
            line.push(mv);
            pos = child;
            v = -v;
        }
    }

    fn search(
        &mut self,
        p: u64,
        o: u64,
        mask: u64,
        mut alpha: i32,
        mut beta: i32,
        watch: &Watch,
    ) -> i32 {
        self.nodes += 1;
        self.unpolled += 1;
        if self.unpolled >= POLL {
            let n = self.unpolled;
            self.unpolled = 0;
            if watch.poll(n).is_some() {
                return 0;
            }
        }
        if watch.stopped() {
            return 0;
        }
        let moves = masked_moves(p, o, mask);
        let empties = (!(p | o) & mask).count_ones();
        if moves == 0 {
            if masked_moves(o, p, mask) == 0 {
                let diff = p.count_ones() as i32 - o.count_ones() as i32;
                let e = empties as i32;
                return match diff.signum() {
                    1 => diff + e,
                    -1 => diff - e,
                    _ => 0,
                };
            }
            return -self.search(o, p, mask, -beta, -alpha, watch);
        }
        if empties == 1 {
            let sq = moves.trailing_zeros() as usize;
            let f = masked_flips(p, o, sq, mask);
            let (np, no) = (p | f | 1 << sq, o ^ f);
            // The opponent may not be able to reply; the game then ends here either way.
            return np.count_ones() as i32 - no.count_ones() as i32;
        }
        let slot = self.slot(p, o);
        let entry = self.table[slot];
        let mut tt_move = 64u8;
        if entry.used && entry.player == p && entry.opponent == o {
            let (lo, hi) = (i32::from(entry.lower), i32::from(entry.upper));
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
            alpha = alpha.max(lo);
            beta = beta.min(hi);
            tt_move = entry.best;
        }
        let (alpha0, beta0) = (alpha, beta);
        let mut list = [(0i32, 0u8); 64];
        let mut n = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as u8;
            m &= m - 1;
            let key = if sq == tt_move {
                -1000
            } else if empties > ORDER_EMPTIES {
                let f = masked_flips(p, o, usize::from(sq), mask);
                let (np, no) = (p | f | 1 << sq, o ^ f);
                let corner = i32::from(is_corner(sq, mask));
                masked_moves(no, np, mask).count_ones() as i32 * 4 - corner * 8
            } else {
                0
            };
            if n < list.len() {
                list[n] = (key, sq);
                n += 1;
            }
        }
        list[..n].sort_by_key(|&(k, sq)| (k, sq));
        let mut best = -1000;
        let mut best_sq = list[0].1;
        for &(_, sq) in &list[..n] {
            let f = masked_flips(p, o, usize::from(sq), mask);
            let v = -self.search(o ^ f, p | f | 1 << sq, mask, -beta, -alpha, watch);
            if watch.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (mut lo, mut hi) = if entry.used && entry.player == p && entry.opponent == o {
            (i32::from(entry.lower), i32::from(entry.upper))
        } else {
            (-64, 64)
        };
        if best <= alpha0 {
            hi = hi.min(best);
        } else if best >= beta0 {
            lo = lo.max(best);
        } else {
            lo = best;
            hi = best;
        }
        self.table[slot] = Entry {
            player: p,
            opponent: o,
            lower: lo as i8,
            upper: hi as i8,
            best: best_sq,
            used: true,
        };
        best
    }
}

/// Whether bit `sq` is a corner of the board `mask` (a square with at most 3 board neighbours).
fn is_corner(sq: u8, mask: u64) -> bool {
    let s = Square::new(sq);
    let (c, r) = (s.col(), s.row());
    let last = (mask & 0xff).count_ones() as u8 - 1;
    (c == 0 || c == last) && (r == 0 || r == last)
}
