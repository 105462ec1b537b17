//! Searches against each other and against the games' theory.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use yomi_core::testing::random_game_positions;
use yomi_core::{Agent, Game, LeafEval, Outcome, Player, Rng};
use yomi_nim::{Nim, Take};
use yomi_tictactoe::{Square, TicTacToe};

use crate::{SearchAgent, SearchMethod, SearchResult, Zoo, WIN_VALUE};

/// Every reachable tic-tac-toe position, by breadth-first search from the empty board.
fn all_positions() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut queue = VecDeque::from([TicTacToe::new()]);
    let mut out = Vec::new();
    seen.insert(TicTacToe::new());
    while let Some(p) = queue.pop_front() {
        out.push(p);
        for mv in p.legal_moves() {
            let c = p.play_unchecked(mv);
            if seen.insert(c) {
                queue.push_back(c);
            }
        }
    }
    out
}

fn search<G: Game + LeafEval>(method: SearchMethod, depth: u32, pos: &G) -> SearchResult {
    SearchAgent::new(method, depth, None).search(pos)
}

fn values(r: &SearchResult) -> Vec<f64> {
    r.values.iter().map(|v| v.value).collect()
}

fn best(values: &[f64]) -> (f64, Vec<usize>) {
    let top = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (
        top,
        (0..values.len()).filter(|&i| values[i] == top).collect(),
    )
}

/// Exact value from the side to move (+1 win, 0 draw, -1 loss), independent of the agents.
fn solve(p: &TicTacToe) -> i32 {
    match p.outcome() {
        Some(o) => o.value_for(p.side_to_move()),
        None => p
            .legal_moves()
            .into_iter()
            .map(|m| -solve(&p.play_unchecked(m)))
            .max()
            .unwrap(),
    }
}

#[test]
fn alphabeta_equals_minimax_on_every_tictactoe_position() {
    let positions = all_positions();
    assert_eq!(positions.len(), 5478);
    let mut searched = 0;
    for p in positions.iter().filter(|p| !p.is_over()) {
        let mm = search(SearchMethod::Minimax, 9, p);
        let ab = search(SearchMethod::AlphaBeta, 9, p);
        // Every root move is searched with a full window: the values are identical.
        assert_eq!(values(&mm), values(&ab), "{p}");
        assert!(mm.exact && ab.exact);
        let (top, _) = best(&values(&mm));
        assert_eq!(top, f64::from(solve(p)) * WIN_VALUE, "{p}");
        searched += 1;
    }
    assert_eq!(searched, 4520);
    // The game is a draw, and the empty board shows it with every first move.
    let root = search(SearchMethod::AlphaBeta, 9, &TicTacToe::new());
    assert_eq!(values(&root), vec![0.0; 9]);
}

/// Tic-tac-toe with an arbitrary but deterministic leaf evaluation (a hash of the position), so
/// that depth-limited searches have something to disagree about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Scrambled(TicTacToe);

impl fmt::Display for Scrambled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for Scrambled {
    type Err = <TicTacToe as FromStr>::Err;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Scrambled)
    }
}

impl Game for Scrambled {
    type Move = Square;
    type Moves = <TicTacToe as Game>::Moves;
    const NAME: &'static str = "scrambled";
    const PLAYER_NAMES: [&'static str; 2] = ["o", "x"];
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn legal_moves(&self) -> Self::Moves {
        self.0.legal_moves()
    }
    fn play_unchecked(&self, mv: Square) -> Self {
        Scrambled(self.0.play_unchecked(mv))
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
}

impl LeafEval for Scrambled {
    fn leaf_eval(&self) -> f64 {
        let mut h = u64::from(self.0.o_bits()) | u64::from(self.0.x_bits()) << 9;
        h = yomi_core::splitmix64(&mut h);
        // Small integers in -20..=20, with many ties.
        (h % 41) as f64 - 20.0
    }
}

#[test]
fn alphabeta_equals_minimax_at_every_depth_with_arbitrary_leaves() {
    for p in all_positions().into_iter().filter(|p| !p.is_over()) {
        let p = Scrambled(p);
        for depth in [1, 2, 3, 4] {
            let mm = search(SearchMethod::Minimax, depth, &p);
            let ab = search(SearchMethod::AlphaBeta, depth, &p);
            assert_eq!(values(&mm), values(&ab), "{p} depth {depth}");
            assert!(
                ab.values.iter().map(|v| v.nodes).sum::<u64>()
                    <= mm.values.iter().map(|v| v.nodes).sum::<u64>()
            );
        }
    }
}

#[test]
fn greedy_is_minimax_to_depth_one_and_average_to_depth_one() {
    for p in all_positions()
        .into_iter()
        .filter(|p| !p.is_over())
        .step_by(7)
    {
        let p = Scrambled(p);
        let g = values(&search(SearchMethod::Greedy, 5, &p));
        assert_eq!(g, values(&search(SearchMethod::Minimax, 1, &p)));
        assert_eq!(g, values(&search(SearchMethod::Average, 1, &p)));
    }
}

#[test]
fn nim_values_follow_the_theory() {
    for stones in 1..=16u32 {
        for side in Player::BOTH {
            let p = Nim::new(stones, side).unwrap();
            let ab = search(SearchMethod::AlphaBeta, 16, &p);
            let mm = search(SearchMethod::Minimax, 16, &p);
            assert_eq!(values(&ab), values(&mm), "{p}");
            let (top, best_moves) = best(&values(&ab));
            if stones % 4 == 0 {
                assert_eq!(top, -WIN_VALUE, "{p}");
                assert_eq!(best_moves.len(), 3, "{p}: every move loses");
            } else {
                assert_eq!(top, WIN_VALUE, "{p}");
                // The only winning move leaves a multiple of 4.
                let take = p.legal_moves()[best_moves[0]];
                assert_eq!(best_moves.len(), 1);
                assert_eq!((stones - u32::from(take.count())) % 4, 0, "{p}");
            }
        }
    }
    // The standard 15-stone game: the first player wins by taking 3.
    let mut agent = Nim::zoo().build("alphabeta:depth=15").unwrap();
    let e = agent
        .explain(&Nim::default(), &mut Rng::seed_from_u64(0))
        .unwrap();
    assert_eq!(e.best, vec![Take::new(3).unwrap()]);
    assert_eq!(e.moves[2].score, WIN_VALUE);
}

/// Positions along seeded random Othello games, from the opening to the last empties.
fn othello_positions(games: usize) -> Vec<yomi_othello::Othello> {
    let start = yomi_othello::Othello::default();
    let mut all = random_game_positions(&start, games, &mut Rng::seed_from_u64(11));
    all.retain(|p| !p.is_over());
    all
}

#[test]
fn othello_random_positions_agree_at_limited_depths() {
    let positions = othello_positions(4);
    assert!(positions.len() > 200);
    for (i, p) in positions.iter().enumerate() {
        // Depth 3 everywhere; depth 4 on every fifth position (minimax has no pruning).
        let depth = if i % 5 == 0 { 4 } else { 3 };
        let mm = search(SearchMethod::Minimax, depth, p);
        let ab = search(SearchMethod::AlphaBeta, depth, p);
        assert_eq!(values(&mm), values(&ab), "{p} depth {depth}");
    }
    // Near the end both searches reach every leaf and are exact.
    for p in positions.iter().filter(|p| p.empties().count() <= 7) {
        // Passes are plies too, so allow more plies than empties.
        let mm = search(SearchMethod::Minimax, 20, p);
        let ab = search(SearchMethod::AlphaBeta, 20, p);
        assert_eq!(values(&mm), values(&ab), "{p}");
        assert!(ab.exact, "{p}");
    }
}

#[test]
fn nim_random_positions_agree_at_limited_depths() {
    let mut rng = Rng::seed_from_u64(9);
    for _ in 0..200 {
        let stones = 1 + rng.below(60) as u32;
        let p = Nim::new(stones, Player::First).unwrap();
        for depth in 1..=8 {
            let mm = search(SearchMethod::Minimax, depth, &p);
            let ab = search(SearchMethod::AlphaBeta, depth, &p);
            assert_eq!(values(&mm), values(&ab), "{p} depth {depth}");
        }
    }
}

#[test]
fn average_takes_the_mean_below_the_root() {
    // Three stones, depth 2. Take 1: the opponent at 2 stones can take 1 (leaf, 0) or take 2 and
    // win (-W for us): mean -W/2. Take 2: the opponent at 1 stone must take it and win: -W.
    // Take 3: we take the last stone: +W.
    let p = Nim::new(3, Player::First).unwrap();
    let r = search(SearchMethod::Average, 2, &p);
    assert_eq!(values(&r), vec![-WIN_VALUE / 2.0, -WIN_VALUE, WIN_VALUE]);
    assert!(!r.exact, "take 1 stopped at the depth limit");
    // At full depth on tic-tac-toe every first move is worth the mean over all continuations.
    let full = search(SearchMethod::Average, 9, &TicTacToe::new());
    assert!(full.exact);
    let v = values(&full);
    // The centre and the corners look better than the edges to a random-reply model.
    assert!(v[4] > v[1] && v[0] > v[1], "{v:?}");
    // Symmetric moves agree (up to the order of the floating-point sums).
    assert!((v[0] - v[2]).abs() < 1e-6 * WIN_VALUE && (v[0] - v[8]).abs() < 1e-6 * WIN_VALUE);
}

#[test]
fn exact_search_never_loses_a_won_position() {
    let zoo = TicTacToe::zoo();
    let won: Vec<TicTacToe> = all_positions()
        .into_iter()
        .filter(|p| !p.is_over() && solve(p) == 1)
        .collect();
    assert!(won.len() > 1000);
    for (i, start) in won.iter().enumerate().step_by(3) {
        let me = start.side_to_move();
        let mut agent = zoo.build("alphabeta").unwrap();
        let mut rng = Rng::seed_from_u64(i as u64);
        let mut p = *start;
        while !p.is_over() {
            let mv = if p.side_to_move() == me {
                agent.choose(&p, &mut rng).unwrap()
            } else {
                let moves = p.legal_moves();
                moves[rng.below(moves.len())]
            };
            p = p.play_unchecked(mv);
        }
        assert_eq!(p.outcome(), Some(Outcome::Win(me)), "from {start}");
    }
}

#[test]
fn ties_are_broken_at_random() {
    let mut agent = TicTacToe::zoo().build("alphabeta").unwrap();
    let seen: HashSet<Square> = (0..100)
        .map(|s| {
            agent
                .choose(&TicTacToe::new(), &mut Rng::seed_from_u64(s))
                .unwrap()
        })
        .collect();
    assert_eq!(seen.len(), 9, "every first move draws");
}

#[test]
fn time_limits_stop_deep_searches() {
    let big = Nim::new(1_000_000, Player::First).unwrap();
    for spec in [
        "alphabeta:depth=64,time=0.02",
        "minimax:depth=64,time=0.02",
        "average:depth=64,time=0.02",
    ] {
        let mut agent = Nim::zoo().build(spec).unwrap();
        let clock = Instant::now();
        let e = agent.explain(&big, &mut Rng::seed_from_u64(1)).unwrap();
        assert!(clock.elapsed() < Duration::from_millis(500), "{spec}");
        assert!(
            e.notes.iter().any(|n| n.contains("time ran out")),
            "{spec}: {:?}",
            e.notes
        );
    }
    // An exact result stops deepening early, time or not.
    let mut agent = TicTacToe::zoo()
        .build("alphabeta:depth=64,time=10")
        .unwrap();
    let p = TicTacToe::new().play_line("(1,1) (0,0) (2,2)").unwrap();
    let clock = Instant::now();
    let e = agent.explain(&p, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(clock.elapsed() < Duration::from_secs(1));
    assert!(e.notes[0].contains("exact"), "{:?}", e.notes);
}
