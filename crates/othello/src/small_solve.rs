//! An exact solver for the small boards: negamax alpha-beta on the final score (empties to the
//! winner) with a transposition table of proved bounds, fastest-first ordering, enhanced
//! transposition cutoffs, stability cutoffs and parity ordering near the end. The value is
//! proved by null-window tests, so a search stopped by its [`Limits`] still reports what it
//! proved.

use yomi_core::{Game, Limits, StopReason, Watch};

use crate::movegen::{flips_bits, moves_bits};
use crate::{Board, Move, Square};

/// What [`SmallSolver::solve`] proved about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallSolution {
    /// A proved lower bound on the final score, from the side to move's view.
    pub lower: i32,
    /// A proved upper bound (equal to `lower` when the value is exact).
    pub upper: i32,
    /// Why the search stopped before the exact value, `None` when it finished.
    pub stopped: Option<StopReason>,
    /// A principal variation to the end of the game when the value is exact (passes included);
    /// empty when the value is not exact (or a limit struck while the line was walked).
    pub line: Vec<Move>,
    /// Positions searched (null-window tests and the walk of the line together).
    pub nodes: u64,
    /// The null-window tests made, in order.
    pub probes: Vec<SmallProbe>,
}

/// One null-window test of [`SmallSolver::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallProbe {
    /// The (odd) test value.
    pub test: i32,
    /// Whether the score proved to be above the test value (below it when `false`).
    pub above: bool,
    /// Positions searched by this test.
    pub nodes: u64,
}

impl SmallSolution {
    /// The exact value, when it was proved.
    #[must_use]
    pub fn value(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// Which of the solver's techniques are on. [`SmallOptions::default`] turns all of them on;
/// [`SmallOptions::plain`] turns all of them off (plain fail-soft alpha-beta in square order),
/// which the tests use as a reference. Every combination computes the same values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SmallOptions {
    /// The transposition table (proved bounds and the best move of positions with at least
    /// [`TABLE_EMPTIES`] empty squares).
    pub table: bool,
    /// Fastest-first ordering (fewest opponent replies, corners first), the table's move
    /// first, parity ordering near the end, and enhanced transposition cutoffs.
    pub ordering: bool,
    /// Stability cutoffs: the opponent's stable discs bound the score from above.
    pub stability: bool,
}

impl Default for SmallOptions {
    fn default() -> SmallOptions {
        SmallOptions {
            table: true,
            ordering: true,
            stability: true,
        }
    }
}

impl SmallOptions {
    /// Every technique off.
    #[must_use]
    pub const fn plain() -> SmallOptions {
        SmallOptions {
            table: false,
            ordering: false,
            stability: false,
        }
    }
}

/// Positions with at least this many empty squares go into the transposition table.
pub const TABLE_EMPTIES: u32 = 7;
/// At or below this many empty squares the search walks the empty squares in parity order
/// instead of generating moves and ordering them.
const SHALLOW_EMPTIES: u32 = 6;
/// From this many empty squares the table keys positions by their least symmetric image, so
/// that positions equal up to a rotation or reflection share their bounds.
pub const SYMMETRY_EMPTIES: u32 = 20;
/// Enhanced transposition cutoffs (looking up every child before searching any) from here.
const ETC_EMPTIES: u32 = 12;
const W_MOB: i32 = 64;
/// From this many empty squares moves are ordered by a shallow search of their children.
const SEARCH_ORDER_EMPTIES: u32 = 14;
/// The depth of that search.
const ORDER_DEPTH: u32 = 2;
const W_POT: i32 = 8;
const W_CORNER: i32 = 128;
/// Nodes between two polls of the limits.
const POLL: u64 = 1 << 14;

#[derive(Clone, Copy, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
}

impl std::fmt::Debug for Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Entry({}..{})", self.lower, self.upper)
    }
}

/// The board's constant masks.
#[derive(Clone, Debug)]
struct Geometry {
    mask: u64,
    squares: i32,
    corners: u64,
    /// The four quadrants (parity regions).
    quadrants: [u64; 4],
    /// Every line of the board (rows, columns, both diagonals of 2 or more squares) with the
    /// direction it belongs to (0 horizontal, 1 vertical, 2 down-right, 3 down-left).
    lines: Vec<(usize, u64)>,
    /// The 8 symmetries of the square board: `sym[t][sq]` is the square `sq` goes to.
    sym: [[u8; 64]; 8],
}

impl Geometry {
    fn new(n: usize) -> Geometry {
        let bit = |c: usize, r: usize| 1u64 << (r * 8 + c);
        let mut mask = 0;
        for r in 0..n {
            for c in 0..n {
                mask |= bit(c, r);
            }
        }
        let last = n - 1;
        let corners = bit(0, 0) | bit(last, 0) | bit(0, last) | bit(last, last);
        let h = n / 2;
        let mut quadrants = [0u64; 4];
        for r in 0..n {
            for c in 0..n {
                quadrants[usize::from(r >= h) * 2 + usize::from(c >= h)] |= bit(c, r);
            }
        }
        let mut lines = Vec::new();
        for i in 0..n {
            lines.push((0, (0..n).fold(0, |m, c| m | bit(c, i))));
            lines.push((1, (0..n).fold(0, |m, r| m | bit(i, r))));
        }
        // Diagonals: start on the top row or the left (down-right) / right (down-left) column.
        let walk = |mut c: i32, mut r: i32, dc: i32| {
            let mut m = 0u64;
            while c >= 0 && (c as usize) < n && (r as usize) < n {
                m |= bit(c as usize, r as usize);
                c += dc;
                r += 1;
            }
            m
        };
        for s in 0..n as i32 {
            for (d, dc, (c, r)) in [(2, 1, (s, 0)), (2, 1, (0, s)), (3, -1, (s, 0))] {
                let m = walk(c, r, dc);
                if m.count_ones() >= 2 && !lines.contains(&(d, m)) {
                    lines.push((d, m));
                }
            }
            let m = walk(last as i32, s, -1);
            if m.count_ones() >= 2 && !lines.contains(&(3, m)) {
                lines.push((3, m));
            }
        }
        let mut sym = [[0u8; 64]; 8];
        for (t, map) in sym.iter_mut().enumerate() {
            for r in 0..n {
                for c in 0..n {
                    let (x, y) = match t {
                        0 => (c, r),
                        1 => (last - c, r),
                        2 => (c, last - r),
                        3 => (last - c, last - r),
                        4 => (r, c),
                        5 => (last - r, c),
                        6 => (r, last - c),
                        _ => (last - r, last - c),
                    };
                    map[r * 8 + c] = (y * 8 + x) as u8;
                }
            }
        }
        Geometry {
            mask,
            squares: (n * n) as i32,
            corners,
            quadrants,
            lines,
            sym,
        }
    }

    /// The discs `bits` under symmetry `t`.
    #[inline]
    fn transform(&self, mut bits: u64, t: usize) -> u64 {
        let map = &self.sym[t];
        let mut out = 0;
        while bits != 0 {
            out |= 1u64 << map[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        out
    }

    /// The least of the 8 symmetric images of the position (compared as `(p, o)`) and the
    /// symmetry that gives it.
    fn canonical(&self, p: u64, o: u64) -> (u64, u64, usize) {
        let mut best = (p, o, 0);
        for t in 1..8 {
            let tp = self.transform(p, t);
            if tp > best.0 {
                continue;
            }
            let to = self.transform(o, t);
            if (tp, to) < (best.0, best.1) {
                best = (tp, to, t);
            }
        }
        best
    }

    /// The symmetry that undoes symmetry `t`.
    const fn inverse(t: usize) -> usize {
        match t {
            5 => 6,
            6 => 5,
            _ => t,
        }
    }

    /// The final score for the side with discs `p` (empties to the winner).
    #[inline]
    fn final_score(&self, p: u64, o: u64) -> i32 {
        let (a, b) = (p.count_ones() as i32, o.count_ones() as i32);
        let e = self.squares - a - b;
        match a.cmp(&b) {
            std::cmp::Ordering::Greater => a - b + e,
            std::cmp::Ordering::Less => a - b - e,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Discs of `p` that can never be flipped: in each of the four line directions the line
    /// through the disc is full, or a neighbour on that line is off the board or a stable disc
    /// of the same colour.
    fn stable(&self, p: u64, o: u64) -> u64 {
        const COL_A: u64 = 0x0101_0101_0101_0101;
        const COL_H: u64 = 0x8080_8080_8080_8080;
        const ROW_1: u64 = 0xff;
        const ROW_8: u64 = 0xff << 56;
        let occ = p | o;
        let mut full = [0u64; 4];
        for &(d, m) in &self.lines {
            if occ & m == m {
                full[d] |= m;
            }
        }
        // Squares on the board's edge count as full in the directions that leave the board
        // on one side (the neighbour off the board is "stable").
        let mut stable = 0u64;
        loop {
            let w = stable | !self.mask;
            // Neighbour to the west / east / north / south ... in w (or outside the 8x8).
            let west = (w << 1) & !COL_A | COL_A;
            let east = (w >> 1) & !COL_H | COL_H;
            let north = (w << 8) | ROW_1;
            let south = (w >> 8) | ROW_8;
            let nw = (w << 9) & !COL_A | COL_A | ROW_1;
            let se = (w >> 9) & !COL_H | COL_H | ROW_8;
            let ne = (w << 7) & !COL_H | COL_H | ROW_1;
            let sw = (w >> 7) & !COL_A | COL_A | ROW_8;
            let next = p
                & (full[0] | west | east)
                & (full[1] | north | south)
                & (full[2] | nw | se)
                & (full[3] | ne | sw);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }
}

/// A depth-first exact solver for [`Board`] positions (see [`SmallOptions`] for its
/// techniques).
#[derive(Debug)]
pub struct SmallSolver {
    table: Vec<Entry>,
    options: SmallOptions,
    nodes: u64,
    unpolled: u64,
}

impl SmallSolver {
    /// A solver with every technique on and a table of `2^bits` entries (24 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> SmallSolver {
        SmallSolver::with_options(bits, SmallOptions::default())
    }

    /// A solver with the given techniques and a table of `2^bits` entries (when the table is
    /// on).
    #[must_use]
    pub fn with_options(bits: u32, options: SmallOptions) -> SmallSolver {
        let bits = if options.table { bits.clamp(4, 30) } else { 1 };
        SmallSolver {
            table: vec![Entry::default(); 1 << bits],
            options,
            nodes: 0,
            unpolled: 0,
        }
    }

    /// Forgets every stored bound.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> usize {
        let h = (p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            .rotate_left(29)
            .wrapping_mul(0x1656_67b1_9e37_79f9);
        (h >> 17) as usize & (self.table.len() - 1) & !1
    }

    /// The table's key of a position: the position itself, or from [`SYMMETRY_EMPTIES`]
    /// empty squares on its least symmetric image, and the symmetry used.
    #[inline]
    fn key(board: &Geometry, p: u64, o: u64) -> (u64, u64, usize) {
        if ((p | o) & board.mask).count_ones() as i32 + SYMMETRY_EMPTIES as i32 <= board.squares {
            board.canonical(p, o)
        } else {
            (p, o, 0)
        }
    }

    /// The stored bounds of a position, its best move given in the position's own squares.
    #[inline]
    fn probe(&self, board: &Geometry, p: u64, o: u64) -> Option<Entry> {
        let (kp, ko, t) = Self::key(board, p, o);
        let b = self.bucket(kp, ko);
        let (e0, e1) = (self.table[b], self.table[b + 1]);
        let mut e = if e0.player == kp && e0.opponent == ko && e0.empties != 0 {
            e0
        } else if e1.player == kp && e1.opponent == ko && e1.empties != 0 {
            e1
        } else {
            return None;
        };
        if t != 0 && e.best < 64 {
            e.best = board.sym[Geometry::inverse(t)][usize::from(e.best)];
        }
        Some(e)
    }

    /// Stores `e` (its best move in the position's own squares) in the table under its key;
    /// of the two entries of a bucket, the one with fewer empty squares is replaced.
    fn store(&mut self, board: &Geometry, mut e: Entry) {
        let (kp, ko, t) = Self::key(board, e.player, e.opponent);
        if t != 0 && e.best < 64 {
            e.best = board.sym[t][usize::from(e.best)];
        }
        e.player = kp;
        e.opponent = ko;
        let b = self.bucket(kp, ko);
        let k = if self.table[b].player == kp && self.table[b].opponent == ko {
            b
        } else if self.table[b + 1].player == kp && self.table[b + 1].opponent == ko {
            b + 1
        } else if self.table[b].empties <= self.table[b + 1].empties {
            b
        } else {
            b + 1
        };
        self.table[k] = e;
    }

    /// Solves `pos` within `limits`: the exact final score from the side to move's view and a
    /// principal variation, or the bounds proved before a limit stopped it.
    ///
    /// The value is found by null-window tests from 0 outwards: each test proves the score
    /// above or below an odd test value; the tests move by 2, then by doubling steps after
    /// three tests on the same side, and halve the interval once they change side.
    pub fn solve<const N: usize>(&mut self, pos: &Board<N>, limits: &Limits) -> SmallSolution {
        let watch = limits.start();
        self.nodes = 0;
        self.unpolled = 0;
        let board = Geometry::new(N);
        let (p, o) = (pos.player().bits(), pos.opponent().bits());
        let empties = (!(p | o) & board.mask).count_ones();
        let max = board.squares;
        let (mut lower, mut upper) = (-max, max);
        let mut probes = Vec::new();
        let (mut run, mut bisect, mut last) = (0u32, false, None);
        let mut t = 1;
        while lower < upper {
            t = t.clamp(lower + 1, upper - 1);
            let before = self.nodes;
            let r = self.search(&board, p, o, t - 1, t + 1, empties, false, &watch);
            if watch.stopped() {
                break;
            }
            let above = r > t;
            if above {
                lower = lower.max(r);
            } else {
                upper = upper.min(r);
            }
            probes.push(SmallProbe {
                test: t,
                above,
                nodes: self.nodes - before,
            });
            if lower >= upper {
                break;
            }
            match last {
                Some(l) if l == above => run += 1,
                Some(_) => bisect = true,
                None => {}
            }
            last = Some(above);
            // Steps of 2 at first (values are usually near the last test), doubling after
            // three tests on the same side, halving once the tests change side.
            let step = if run < 3 { 2 } else { 2 << (run - 2) };
            t = if bisect {
                lower + 1 + 2 * ((upper - lower) / 4)
            } else if above {
                lower + step - 1
            } else {
                upper - step + 1
            };
        }
        let mut line = Vec::new();
        if lower == upper && !watch.stopped() {
            self.principal_variation(&board, pos, lower, &watch, &mut line);
        }
        let _ = watch.poll(self.unpolled);
        let stopped = if lower == upper { None } else { watch.reason() };
        SmallSolution {
            lower,
            upper,
            stopped,
            line,
            nodes: self.nodes,
            probes,
        }
    }

    fn principal_variation<const N: usize>(
        &mut self,
        board: &Geometry,
        pos: &Board<N>,
        value: i32,
        watch: &Watch,
        line: &mut Vec<Move>,
    ) {
        let (mut pos, mut v) = (*pos, value);
        while !pos.is_over() {
            let mut found = None;
            let (pp, po) = (pos.player().bits(), pos.opponent().bits());
            let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
            // The table's best move first: it is usually the one that keeps the value.
            if let Some(e) = self.probe(board, pp, po) {
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
                let e = (!(cp | co) & board.mask).count_ones();
                let r = -self.search(board, cp, co, -(v + 1), -(v - 1), e, false, watch);
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

    /// A rough evaluation for ordering, from the side with discs `p`: weighted mobility
    /// (corner moves count double) and corners held.
    fn order_eval(board: &Geometry, p: u64, o: u64) -> i32 {
        let mp = moves_bits(p, o) & board.mask;
        let mo = moves_bits(o, p) & board.mask;
        let mob = (mp.count_ones() + (mp & board.corners).count_ones()) as i32
            - (mo.count_ones() + (mo & board.corners).count_ones()) as i32;
        let corners =
            (p & board.corners).count_ones() as i32 - (o & board.corners).count_ones() as i32;
        let pot_p = (crate::potential_moves(crate::Bitboard(p), crate::Bitboard(o)).0 & board.mask)
            .count_ones() as i32;
        let pot_o = (crate::potential_moves(crate::Bitboard(o), crate::Bitboard(p)).0 & board.mask)
            .count_ones() as i32;
        mob * 64 + corners * 128 + (pot_p - pot_o) * 8
    }

    /// A fixed-depth alpha-beta on [`Self::order_eval`] (passes cost no depth).
    fn order_search(
        board: &Geometry,
        p: u64,
        o: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        if depth == 0 {
            return Self::order_eval(board, p, o);
        }
        let mut m = moves_bits(p, o) & board.mask;
        if m == 0 {
            if moves_bits(o, p) & board.mask == 0 {
                return board.final_score(p, o) * 1000;
            }
            return -Self::order_search(board, o, p, depth, -beta, -alpha);
        }
        let mut best = -100_000;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips_bits(p, o, sq);
            let v = -Self::order_search(board, o ^ f, p | f | 1 << sq, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Counts a node; true when a limit stops the search.
    #[inline]
    fn count(&mut self, watch: &Watch) -> bool {
        self.nodes += 1;
        self.unpolled += 1;
        if self.unpolled >= POLL {
            let n = self.unpolled;
            self.unpolled = 0;
            return watch.poll(n).is_some();
        }
        false
    }

    /// The last empty square: the side to move plays it if it can, else the opponent, else
    /// the game ends with it empty.
    #[inline]
    fn last_square(board: &Geometry, p: u64, o: u64) -> i32 {
        let sq = (!(p | o) & board.mask).trailing_zeros() as usize;
        let f = flips_bits(p, o, sq);
        if f != 0 {
            return board.final_score(p | f | 1 << sq, o ^ f);
        }
        let g = flips_bits(o, p, sq);
        if g != 0 {
            return -board.final_score(o | g | 1 << sq, p ^ g);
        }
        board.final_score(p, o)
    }

    /// The search near the end: empty squares tried directly (odd quadrants first when
    /// ordering is on), no table.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        &mut self,
        board: &Geometry,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u32,
        passed: bool,
        watch: &Watch,
    ) -> i32 {
        if self.count(watch) || watch.stopped() {
            return 0;
        }
        if empties == 1 {
            return Self::last_square(board, p, o);
        }
        let empty = !(p | o) & board.mask;
        let mut odd = 0;
        if self.options.ordering {
            for q in board.quadrants {
                if (empty & q).count_ones() & 1 == 1 {
                    odd |= q;
                }
            }
        }
        let mut best = -1000;
        for set in [empty & odd, empty & !odd] {
            let mut m = set;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips_bits(p, o, sq);
                if f == 0 {
                    continue;
                }
                let v = -self.shallow(
                    board,
                    o ^ f,
                    p | f | 1 << sq,
                    -beta,
                    -alpha,
                    empties - 1,
                    false,
                    watch,
                );
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if best == -1000 {
            if passed {
                return board.final_score(p, o);
            }
            return -self.shallow(board, o, p, -beta, -alpha, empties, true, watch);
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        board: &Geometry,
        p: u64,
        o: u64,
        mut alpha: i32,
        mut beta: i32,
        empties: u32,
        passed: bool,
        watch: &Watch,
    ) -> i32 {
        if empties <= SHALLOW_EMPTIES {
            if empties == 0 {
                self.nodes += 1;
                return board.final_score(p, o);
            }
            return self.shallow(board, p, o, alpha, beta, empties, passed, watch);
        }
        if self.count(watch) || watch.stopped() {
            return 0;
        }
        let moves = moves_bits(p, o) & board.mask;
        if moves == 0 {
            if passed {
                return board.final_score(p, o);
            }
            return -self.search(board, o, p, -beta, -alpha, empties, true, watch);
        }
        // The opponent cannot have more stable discs than discs: test only when they could cut.
        if self.options.stability && board.squares - 2 * o.count_ones() as i32 <= alpha {
            // The opponent's stable discs stay its own to the end.
            let s = board.stable(o, p).count_ones() as i32;
            let top = board.squares - 2 * s;
            if top <= alpha {
                return top;
            }
            beta = beta.min(top);
        }
        let use_table = self.options.table && empties >= TABLE_EMPTIES;
        let mut tt_move = 64u8;
        let mut stored = None;
        if use_table {
            if let Some(e) = self.probe(board, p, o) {
                let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
                tt_move = e.best;
                stored = Some((lo, hi));
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        // The moves with their children and ordering keys.
        let mut list = [(0i32, 0u8, 0u64, 0u64); 32];
        let mut n = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips_bits(p, o, sq);
            let (np, no) = (p | f | 1 << sq, o ^ f);
            let key = if !self.options.ordering {
                sq as i32
            } else if sq as u8 == tt_move {
                -1_000_000
            } else if empties >= SEARCH_ORDER_EMPTIES {
                Self::order_search(board, no, np, ORDER_DEPTH, -100_000, 100_000)
            } else {
                let replies = moves_bits(no, np) & board.mask;
                let corner = i32::from(1u64 << sq & board.corners != 0);
                let potential = (crate::potential_moves(crate::Bitboard(no), crate::Bitboard(np)).0
                    & board.mask)
                    .count_ones() as i32;
                (replies.count_ones() + (replies & board.corners).count_ones()) as i32 * W_MOB
                    + potential * W_POT
                    - corner * W_CORNER
                    + sq as i32
            };
            if n < list.len() {
                list[n] = (key, sq as u8, no, np);
                n += 1;
            }
        }
        // Enhanced transposition cutoff: a child already proved bad enough for the opponent.
        if use_table && self.options.ordering && empties >= ETC_EMPTIES {
            for &(_, sq, cp, co) in &list[..n] {
                if let Some(e) = self.probe(board, cp, co) {
                    let v = -i32::from(e.upper);
                    if v >= beta {
                        self.store(
                            board,
                            Entry {
                                player: p,
                                opponent: o,
                                lower: v as i8,
                                upper: stored.map_or(board.squares, |s| s.1) as i8,
                                best: sq,
                                empties: empties as u8,
                            },
                        );
                        return v;
                    }
                }
            }
        }
        list[..n].sort_unstable_by_key(|&(k, ..)| k);
        let mut best = -1000;
        let mut best_sq = list[0].1;
        for (i, &(_, sq, cp, co)) in list[..n].iter().enumerate() {
            let v = if i == 0 || beta - alpha <= 2 {
                -self.search(board, cp, co, -beta, -alpha, empties - 1, false, watch)
            } else {
                // Principal variation search: a null window first, the full one on a fail high.
                let v = -self.search(board, cp, co, -alpha - 1, -alpha, empties - 1, false, watch);
                if v > alpha && v < beta && !watch.stopped() {
                    -self.search(board, cp, co, -beta, -v, empties - 1, false, watch)
                } else {
                    v
                }
            };
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
        if use_table {
            let (mut lo, mut hi) = stored.unwrap_or((-board.squares, board.squares));
            if best <= alpha0 {
                hi = hi.min(best);
            } else if best >= beta0 {
                lo = lo.max(best);
            } else {
                lo = best;
                hi = best;
            }
            self.store(
                board,
                Entry {
                    player: p,
                    opponent: o,
                    lower: lo as i8,
                    upper: hi as i8,
                    best: best_sq,
                    empties: empties as u8,
                },
            );
        }
        best
    }
}
