//! The endgame search's node functions, written once as a macro and compiled twice (see
//! `solver/search.rs`): a portable copy for the x86-64 baseline (or any other target) and, on
//! x86-64, a copy whose every function is compiled for AVX2, BMI1/2, POPCNT and LZCNT, chosen
//! at run time through `yomi_othello::cpu`. The search state, its setup and the root driver
//! are ordinary code in `solver/search.rs`.

/// Defines the recursive node functions of `Search<'t, $copy, N>` (an inherent `impl` block,
/// for every board size `N`: an `N`x`N` board in the top-left corner of the 8x8 bitboard) and
/// the small helpers they call at every node, in the module that invokes it. `$copy` is the
/// copy's type (`Portable` or the `X86v3` token), `$hot` the attributes of the small helpers
/// (`#[inline(always)]` in the portable copy), `$fn` those of all the others (empty in the
/// portable copy; the CPU features in the other, which rules out `#[inline(always)]` there).
macro_rules! search_kernel {
    ($copy:ty, [$(#[$hot:meta])*] [$(#[$fn:meta])*]) => {
        impl<'t, const N: usize> Search<'t, $copy, N> {
            /// The score of the position, searched with window `(alpha, beta)` (see the module docs).
            $(#[$fn])*
            fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
                let empties = squares::<N>() - (p | o).count_ones();
                if empties >= TABLE_MIN || (self.parallel && empties >= self.split_min) {
                    self.deep(p, o, alpha, beta)
                } else if empties > 4 {
                    self.mid(p, o, alpha, beta)
                } else {
                    self.small_entry(p, o, alpha, beta)
                }
            }

            /// The root: like [`Search::deep`] but returns the best move too.
            $(#[$fn])*
            fn root(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
                let mv = moves_n::<N>(p, o);
                if mv == 0 {
                    if moves_n::<N>(o, p) == 0 {
                        self.nodes += 1;
                        return (final_score_n::<N>(p, o), None);
                    }
                    let (v, _) = self.root(o, p, -beta, -alpha);
                    return (-v, Some(Move::Pass));
                }
                self.nodes += 1;
                let empties = squares::<N>() - (p | o).count_ones();
                let key = hash(p, o);
                let entry = if self.features.table {
                    self.table.probe(key)
                } else {
                    None
                };
                let mut list = [Candidate::default(); MAX_MOVES];
                let n = self.order(p, o, mv, entry, empties, true, alpha, &mut list);
                let list = &list[..n];
                let (best, best_sq) = self.pvs(p, o, alpha, beta, list, empties);
                if !self.aborted() {
                    self.store(key, (alpha, beta), (best, best_sq), empties, entry);
                }
                (best, Some(Move::Place(Square::new(best_sq as u8))))
            }

            /// Fills `list` with the moves in `mv`, sorted best first; returns how many. Nodes on the
            /// principal variation (`pv`) search deeper to order.
            #[allow(clippy::too_many_arguments)]
            $(#[$fn])*
            fn order(
                &mut self,
                p: u64,
                o: u64,
                mv: u64,
                entry: Option<Entry>,
                empties: u32,
                pv: bool,
                alpha: i32,
                list: &mut [Candidate; MAX_MOVES],
            ) -> usize {
                // A node that must prove a near-wipeout orders by fastest-first alone (see
                // `WIPEOUT_ZONE`).
                let zone = alpha >= WIPEOUT_ZONE;
                let tt_move = if zone {
                    NO_MOVE
                } else {
                    entry.map_or(NO_MOVE, |e| e.best)
                };
                let par = if self.features.parity {
                    parity::<N>(board_mask::<N>() & !(p | o))
                } else {
                    0
                };
                let shallow = self.features.shallow_ordering && empties >= SHALLOW_MIN && !zone;
                // The learned evaluation is 8x8 Othello's (`N == 8` is known when compiling).
                let learned = shallow
                    && N == 8
                    && self.features.learned_ordering
                    && empties >= LEARNED_ORDER_MIN;
                let depth = if empties >= SHALLOW_DEEPEST {
                    4
                } else if empties >= 20 {
                    3
                } else if empties >= 16 {
                    2
                } else {
                    1
                } + if pv { PV_EXTRA_DEPTH } else { 0 };
                let mut n = 0;
                let mut bits = mv;
                while bits != 0 {
                    let sq = bits.trailing_zeros();
                    bits &= bits - 1;
                    let f = flips(p, o, sq as usize);
                    let (cp, co) = (o ^ f, p ^ f ^ 1 << sq);
                    let mut key = 0;
                    if shallow {
                        key -= if learned {
                            LEARNED_ORDER_WEIGHT * self.eval_search(cp, co, -INF * 100, INF * 100, depth)
                        } else {
                            64 * self.shallow(cp, co, -INF * 64, INF * 64, depth)
                        };
                        key -= SHALLOW_MOBILITY * weighted_mobility::<N>(cp, co);
                    } else if self.features.mobility_ordering {
                        key -= 1024 * weighted_mobility::<N>(cp, co);
                        key += 64 * i32::from(corners::<N>() & 1 << sq != 0);
                        key -= 16 * potential::<N>(co, cp) as i32;
                    }
                    if par & 1 << quadrant::<N>(sq) != 0 {
                        key += 64;
                    }
                    if f == o {
                        // A wipeout ends the game at +64: nothing is better.
                        key = i32::MAX - 1;
                    }
                    if sq as u8 == tt_move {
                        key = i32::MAX;
                    }
                    list[n] = Candidate { sq, flips: f, key };
                    n += 1;
                }
                sort(&mut list[..n]);
                n
            }

            /// Principal variation search over the ordered `list` with window `(alpha, beta)`; returns
            /// the best score and move. In a parallel solve, once the first move has been searched and
            /// has not cut off, a node with at least `split_min` empties searches the others on all
            /// threads (young brothers wait).
            $(#[$fn])*
            fn pvs(
                &mut self,
                p: u64,
                o: u64,
                mut alpha: i32,
                beta: i32,
                list: &[Candidate],
                empties: u32,
            ) -> (i32, u32) {
                let first = list[0];
                let (cp, co) = (o ^ first.flips, p ^ first.flips ^ 1 << first.sq);
                let mut best = -self.search(cp, co, -beta, -alpha);
                let mut best_sq = first.sq;
                if self.aborted() {
                    return (0, best_sq);
                }
                if best > alpha {
                    alpha = best;
                    if alpha >= beta {
                        return (best, best_sq);
                    }
                }
                let rest = &list[1..];
                if self.parallel && empties >= self.split_min && rest.len() > 1 {
                    return self.pvs_parallel(p, o, alpha, beta, rest, best, best_sq);
                }
                for c in rest {
                    let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                    let mut v = -self.search(cp, co, -alpha - 1, -alpha);
                    if v > alpha && v < beta {
                        v = -self.search(cp, co, -beta, -v);
                    }
                    if self.aborted() {
                        return (0, best_sq);
                    }
                    if v > best {
                        best = v;
                        best_sq = c.sq;
                        if v > alpha {
                            alpha = v;
                            if alpha >= beta {
                                break;
                            }
                        }
                    }
                }
                (best, best_sq)
            }

            /// The moves after the first, on all threads. Each move gets a null-window test against
            /// the best score found so far at this node (shared between the threads); a move that
            /// fails high is searched again at once with the full window and raises the shared score.
            /// A move that reaches beta stops the others. The score is the same as a sequential
            /// search's: every value is either an upper bound at most the final best or searched with
            /// the full window.
            #[allow(clippy::too_many_arguments)]
            $(#[$fn])*
            fn pvs_parallel(
                &mut self,
                p: u64,
                o: u64,
                alpha: i32,
                beta: i32,
                rest: &[Candidate],
                mut best: i32,
                mut best_sq: u32,
            ) -> (i32, u32) {
                use rayon::prelude::*;
                let shared_alpha = AtomicI32::new(alpha);
                // Set when a move proves a cutoff: the others are then not needed.
                let stop = Arc::new(AtomicBool::new(false));
                let this: &Self = self;
                let results: Vec<(SplitResult, (u64, u64))> = rest
                    .par_iter()
                    .map(|c| {
                        let mut search = this.fork(&stop);
                        if search.aborted() {
                            return (None, (0, 0));
                        }
                        let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                        let a = shared_alpha.load(Ordering::Relaxed);
                        let mut v = -search.search(cp, co, -a - 1, -a);
                        // Whether `v` is more than an upper bound at most the shared score.
                        let mut above = v > a;
                        if v > a && v < beta && !search.aborted() {
                            // Failed high: a lower bound only. Search it with the full window from
                            // the best score now known (another move may have raised it).
                            let a = shared_alpha.load(Ordering::Relaxed).max(a);
                            if a >= beta {
                                return (None, (search.nodes, search.reported));
                            }
                            v = -search.search(cp, co, -beta, -a);
                            above = v > a;
                        }
                        if search.aborted() {
                            return (None, (search.nodes, search.reported));
                        }
                        if above {
                            shared_alpha.fetch_max(v.min(beta), Ordering::Relaxed);
                        }
                        if v >= beta {
                            stop.store(true, Ordering::Relaxed);
                        }
                        (Some((v, above)), (search.nodes, search.reported))
                    })
                    .collect();
                // The forks' nodes count here; what they had not reported yet is reported now.
                let (forked, unreported) = results
                    .iter()
                    .fold((0, 0), |(n, u), &(_, (fn_, fr))| (n + fn_, u + fn_ - fr));
                self.watch.poll(unreported);
                self.nodes += forked;
                self.reported += forked;
                if self.aborted() {
                    return (0, best_sq);
                }
                // A move that proved a cutoff settles the node (the first such in order).
                if let Some((c, v)) = rest
                    .iter()
                    .zip(&results)
                    .find_map(|(c, &(r, _))| r.filter(|&(v, _)| v >= beta).map(|(v, _)| (c, v)))
                {
                    return (v, c.sq);
                }
                // The best move is the first with the highest value searched for real; a move known
                // only to be at most the shared score can raise the returned bound (when the whole
                // node fails low) but is never the best move.
                let mut bound = best;
                for (c, &(result, _)) in rest.iter().zip(&results) {
                    let (v, above) = match result {
                        Some(r) => r,
                        // Stopped without a cutoff found (cannot happen: only a cutoff stops the
                        // moves); search it here rather than trust nothing.
                        None => {
                            let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                            let v = -self.search(cp, co, -beta, -alpha.max(best));
                            if self.aborted() {
                                return (0, best_sq);
                            }
                            (v, true)
                        }
                    };
                    if above && v > best {
                        best = v;
                        best_sq = c.sq;
                    }
                    bound = bound.max(v);
                }
                (best.max(bound), best_sq)
            }

            /// A node with the transposition table.
            $(#[$fn])*
            fn deep(&mut self, p: u64, o: u64, mut alpha: i32, mut beta: i32) -> i32 {
                self.nodes += 1;
                if self.nodes >= self.next_poll {
                    self.poll();
                }
                if self.aborted() {
                    return 0;
                }
                if let Some(v) = self.stability_cut(p, o, alpha, beta) {
                    return v;
                }
                let empties = squares::<N>() - (p | o).count_ones();
                let key = hash(p, o);
                let entry = if self.features.table {
                    self.table.probe(key)
                } else {
                    None
                };
                if let Some(e) = entry.filter(|e| self.holds(e)) {
                    let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                    if lower >= beta {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                    if lower == upper {
                        return lower;
                    }
                    alpha = alpha.max(lower);
                    beta = beta.min(upper);
                }
                let mv = moves_n::<N>(p, o);
                if mv == 0 {
                    if moves_n::<N>(o, p) == 0 {
                        return final_score_n::<N>(p, o);
                    }
                    return -self.deep(o, p, -beta, -alpha);
                }
                // Enhanced transposition cutoff: a child whose stored upper bound already proves a
                // score of at least beta for the mover settles the node.
                if self.features.table && self.features.etc && empties >= ETC_MIN {
                    let mut bits = mv;
                    while bits != 0 {
                        let sq = bits.trailing_zeros();
                        bits &= bits - 1;
                        let f = flips(p, o, sq as usize);
                        let child = self.table.probe(hash(o ^ f, p ^ f ^ 1 << sq));
                        if let Some(e) = child.filter(|e| self.holds(e)) {
                            let v = -i32::from(e.upper);
                            if v >= beta {
                                self.store(key, (alpha, beta), (v, sq), empties, entry);
                                return v;
                            }
                        }
                    }
                }
                // A selective pass cuts where a shallow search with the evaluation clears the
                // window by the pass's margin (ProbCut); its bounds hold for that pass only.
                if self.sel != 0 && empties >= SELECTIVE_NODE_MIN {
                    let depth = sel_depth(empties);
                    let high = 100 * beta + self.margin;
                    if beta < 64 && self.eval_search(p, o, high - 1, high, depth) >= high {
                        return beta;
                    }
                    let low = 100 * alpha - self.margin;
                    if alpha > -64 && self.eval_search(p, o, low, low + 1, depth) <= low {
                        return alpha;
                    }
                }
                let mut list = [Candidate::default(); MAX_MOVES];
                let n = self.order(p, o, mv, entry, empties, beta - alpha > 1, alpha, &mut list);
                let (best, best_sq) = self.pvs(p, o, alpha, beta, &list[..n], empties);
                if self.aborted() {
                    return 0;
                }
                self.store(key, (alpha, beta), (best, best_sq), empties, entry);
                best
            }

            /// A node between 5 empties and the table: no table, fastest-first or parity order.
            $(#[$fn])*
            fn mid(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32) -> i32 {
                self.nodes += 1;
                if let Some(v) = self.stability_cut(p, o, alpha, beta) {
                    return v;
                }
                let empty = board_mask::<N>() & !(p | o);
                let empties = empty.count_ones();
                debug_assert!(empties < TABLE_MIN);
                let mv = moves_n::<N>(p, o);
                if mv == 0 {
                    if moves_n::<N>(o, p) == 0 {
                        return final_score_n::<N>(p, o);
                    }
                    return -self.mid(o, p, -beta, -alpha);
                }
                let par = if self.features.parity {
                    parity::<N>(empty)
                } else {
                    0
                };
                // At most one move per empty square, and `mid` has fewer than `TABLE_MIN` of them: a
                // short list is cheaper to set up than a full one.
                let mut list = [Candidate::default(); TABLE_MIN as usize];
                let mut n = 0;
                let mut bits = mv;
                let by_mobility = self.features.mobility_ordering && empties >= MOBILITY_MIN;
                while bits != 0 {
                    let sq = bits.trailing_zeros();
                    bits &= bits - 1;
                    let f = flips(p, o, sq as usize);
                    let mut key = 0;
                    if by_mobility {
                        key -= 16 * weighted_mobility::<N>(o ^ f, p ^ f ^ 1 << sq);
                    }
                    if par & 1 << quadrant::<N>(sq) != 0 {
                        key += 8;
                    }
                    list[n] = Candidate { sq, flips: f, key };
                    n += 1;
                }
                // The moves in the order of a stable sort by descending key, picked one at a
                // time: a cutoff after the first move (the common case) sorts nothing.
                let mut left = (1u32 << n) - 1;
                let mut best = -INF;
                while left != 0 {
                    let i = next_best(&list, left);
                    left &= !(1 << i);
                    let c = &list[i];
                    let (cp, co) = (o ^ c.flips, p ^ c.flips ^ 1 << c.sq);
                    let v = if empties - 1 > 4 {
                        -self.mid(cp, co, -beta, -alpha)
                    } else {
                        -self.small_entry(cp, co, -beta, -alpha)
                    };
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

            /// Enters the last-4 code: lists the empty squares, those in odd quadrants first.
            $(#[$fn])*
            fn small_entry(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
                let empty = board_mask::<N>() & !(p | o);
                let mut squares = [0u8; 4];
                let mut n = 0;
                let par = if self.features.parity {
                    parity::<N>(empty)
                } else {
                    0
                };
                // Odd quadrants first, then the rest, each in index order.
                for odd in [true, false] {
                    let mut bits = empty;
                    while bits != 0 {
                        let sq = bits.trailing_zeros();
                        bits &= bits - 1;
                        if (par & 1 << quadrant::<N>(sq) != 0) == odd {
                            squares[n] = sq as u8;
                            n += 1;
                        }
                    }
                }
                match n {
                    0 => {
                        self.nodes += 1;
                        final_score_n::<N>(p, o)
                    }
                    1 => self.last1(p, o, squares[0] as usize),
                    2 => self.small2(p, o, alpha, beta, squares[0] as usize, squares[1] as usize),
                    _ => self.small(p, o, alpha, beta, &squares[..n]),
                }
            }

            /// Three or four empties, listed in `squares`: tries each square, no move generation.
            $(#[$fn])*
            fn small(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, squares: &[u8]) -> i32 {
                self.nodes += 1;
                let n = squares.len();
                let mut best = -INF;
                for i in 0..n {
                    let sq = squares[i] as usize;
                    let f = flips_near(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let mut rest = [0u8; 4];
                    let mut k = 0;
                    for (j, &s) in squares.iter().enumerate() {
                        if j != i {
                            rest[k] = s;
                            k += 1;
                        }
                    }
                    let (cp, co) = (o ^ f, p ^ f ^ 1 << sq);
                    let v = if k == 2 {
                        -self.small2(cp, co, -beta, -alpha, rest[0] as usize, rest[1] as usize)
                    } else {
                        -self.small(cp, co, -beta, -alpha, &rest[..k])
                    };
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
                if best > -INF {
                    return best;
                }
                // No move: pass if the opponent has one, else the game is over.
                if squares.iter().any(|&s| flips_near(o, p, s as usize) != 0) {
                    -self.small(o, p, -beta, -alpha, squares)
                } else {
                    final_score_n::<N>(p, o)
                }
            }

            /// Two empties, `a` and `b`.
            $(#[$fn])*
            fn small2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, a: usize, b: usize) -> i32 {
                self.nodes += 1;
                let mut best = -INF;
                let f = flips_near(p, o, a);
                if f != 0 {
                    best = -self.last1(o ^ f, p ^ f ^ 1 << a, b);
                    if best >= beta {
                        return best;
                    }
                }
                let f = flips_near(p, o, b);
                if f != 0 {
                    let v = -self.last1(o ^ f, p ^ f ^ 1 << b, a);
                    best = best.max(v);
                }
                if best > -INF {
                    return best;
                }
                // No move: pass if the opponent has one, else the game is over.
                if flips_near(o, p, a) | flips_near(o, p, b) != 0 {
                    -self.small2(o, p, -beta, -alpha, a, b)
                } else {
                    final_score_n::<N>(p, o)
                }
            }

            /// The last empty square: the exact final score.
            #[inline]
            $(#[$fn])*
            fn last1(&mut self, p: u64, o: u64, sq: usize) -> i32 {
                self.nodes += 1;
                let pc = p.count_ones() as i32;
                let f = flips_near(p, o, sq).count_ones() as i32;
                if f > 0 {
                    return 2 * (pc + f + 1) - squares::<N>() as i32;
                }
                let f = flips_near(o, p, sq).count_ones() as i32;
                if f > 0 {
                    return 2 * (pc - f) - squares::<N>() as i32;
                }
                // Neither side can play: all squares but one are discs, the empty square goes
                // to the winner.
                let diff = 2 * pc - (squares::<N>() as i32 - 1);
                diff + diff.signum()
            }

            /// An alpha-beta search `depth` plies deep with the learned evaluation at the leaves,
            /// in hundredths of a disc (final scores times 100): the selective passes' cut test,
            /// and with a full window the learned move ordering's search.
            $(#[$fn])*
            fn eval_search(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, depth: u32) -> i32 {
                self.nodes += 1;
                if depth == 0 {
                    return self.eval.raw(p, o).clamp(-EVAL_LIMIT, EVAL_LIMIT);
                }
                let mv = moves_n::<N>(p, o);
                if mv == 0 {
                    if moves_n::<N>(o, p) == 0 {
                        return 100 * final_score_n::<N>(p, o);
                    }
                    return -self.eval_search(o, p, -beta, -alpha, depth);
                }
                let mut list = [Candidate::default(); MAX_MOVES];
                let mut n = 0;
                let mut bits = mv;
                while bits != 0 {
                    let sq = bits.trailing_zeros();
                    bits &= bits - 1;
                    let f = flips(p, o, sq as usize);
                    let key = if depth > 1 {
                        -weighted_mobility::<N>(o ^ f, p ^ f ^ 1 << sq)
                    } else {
                        0
                    };
                    list[n] = Candidate { sq, flips: f, key };
                    n += 1;
                }
                if depth > 1 {
                    sort(&mut list[..n]);
                }
                let mut best = -INF * 100;
                for c in &list[..n] {
                    let v = -self.eval_search(o ^ c.flips, p ^ c.flips ^ 1 << c.sq, -beta, -alpha, depth - 1);
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

            /// A shallow alpha-beta search with [`order_eval`] at the leaves, for move ordering.
            $(#[$fn])*
            fn shallow(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, depth: u32) -> i32 {
                self.nodes += 1;
                if depth == 0 {
                    return order_eval::<N>(p, o);
                }
                let mv = moves_n::<N>(p, o);
                if mv == 0 {
                    if moves_n::<N>(o, p) == 0 {
                        return 64 * 64 * final_score_n::<N>(p, o).signum() + final_score_n::<N>(p, o);
                    }
                    return -self.shallow(o, p, -beta, -alpha, depth);
                }
                let mut best = -INF * 64;
                let mut bits = mv;
                while bits != 0 {
                    let sq = bits.trailing_zeros();
                    bits &= bits - 1;
                    let f = flips(p, o, sq as usize);
                    let v = -self.shallow(o ^ f, p ^ f ^ 1 << sq, -beta, -alpha, depth - 1);
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
        }

        /// The squares of an `N`x`N` board where the side with discs `p` may play against `o`:
        /// the 8x8 move generator's, masked to the board (the mask vanishes for `N = 8`).
        $(#[$hot])*
        fn moves_n<const N: usize>(p: u64, o: u64) -> u64 {
            moves(p, o) & board_mask::<N>()
        }

        /// The opponent's mobility with corners counted twice: the fastest-first key.
        $(#[$hot])*
        fn weighted_mobility<const N: usize>(p: u64, o: u64) -> i32 {
            let m = moves_n::<N>(p, o);
            (m.count_ones() + (m & corners::<N>()).count_ones()) as i32
        }

        /// The discs flipped when `p` plays at `sq` (0 when illegal), skipping the computation
        /// when no opponent disc is next to `sq` (`NEIGHBOURS`).
        $(#[$hot])*
        pub(super) fn flips_near(p: u64, o: u64, sq: usize) -> u64 {
            if NEIGHBOURS[sq] & o == 0 {
                0
            } else {
                flips(p, o, sq)
            }
        }

        /// A cheap evaluation for move ordering, from the side with discs `p`: mobility,
        /// potential mobility and corners.
        $(#[$hot])*
        fn order_eval<const N: usize>(p: u64, o: u64) -> i32 {
            let mp = weighted_mobility::<N>(p, o);
            let mo = weighted_mobility::<N>(o, p);
            let corners = (p & corners::<N>()).count_ones() as i32 - (o & corners::<N>()).count_ones() as i32;
            8 * (mp - mo) + 3 * (potential::<N>(p, o) as i32 - potential::<N>(o, p) as i32) + 24 * corners
        }
    };
}

pub(crate) use search_kernel;
