//! Whole-crate tests on tic-tac-toe, the stone game and toy games, with independent slow
//! oracles (plain recursive walks) for every number the builder computes.

use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use yomi_core::{
    fnv1a64, Agent, AgentError, ContainerError, Game, MoveList, Outcome, Player, Rng, Symmetric,
    HEADER_LEN,
};
use yomi_nim::{Nim, Take};
use yomi_tictactoe::{Square, TicTacToe};

use super::*;

fn ttt() -> &'static Solution<TicTacToe> {
    static SOL: OnceLock<Solution<TicTacToe>> = OnceLock::new();
    SOL.get_or_init(|| Solution::build(TicTacToe::new()).unwrap())
}

fn sq(x: u8, y: u8) -> Square {
    Square::new(x, y).unwrap()
}

fn r(s: &str) -> Ratio {
    s.parse().unwrap()
}

// --- Oracles: plain recursive walks over the tree ----------------------------------------

/// Per-depth node counts and terminal counts `[first, draw, second]` by walking every node.
fn walk_counts<G: Game>(pos: &G, depth: usize, per_depth: &mut Vec<u64>, term: &mut [u64; 3]) {
    if per_depth.len() <= depth {
        per_depth.push(0);
    }
    per_depth[depth] += 1;
    match pos.outcome() {
        Some(Outcome::Win(Player::First)) => term[0] += 1,
        Some(Outcome::Draw) => term[1] += 1,
        Some(Outcome::Win(Player::Second)) => term[2] += 1,
        None => {
            for m in pos.legal_moves() {
                walk_counts(&pos.play_unchecked(m), depth + 1, per_depth, term);
            }
        }
    }
}

/// Plain minimax from the first player's side, by a memo-free-per-call recursive walk.
fn minimax<G: Game>(pos: &G, memo: &mut HashMap<G, i32>) -> i32 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let v = match pos.outcome() {
        Some(o) => o.value_for(Player::First),
        None => {
            let s = pos.side_to_move().sign();
            let vals = pos
                .legal_moves()
                .into_iter()
                .map(|m| minimax(&pos.play_unchecked(m), memo) * s);
            vals.max().unwrap() * s
        }
    };
    memo.insert(pos.clone(), v);
    v
}

/// Twice the tic-tac-toe shortest-victory value, straight from the issue's formula:
/// `(11-d)/2` for an O win and `(d-10)/2` for an X win with `d` marks.
fn sv_ttt(pos: &TicTacToe, memo: &mut HashMap<TicTacToe, i64>) -> i64 {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let d = i64::from(pos.marks());
    let v = match pos.outcome() {
        Some(Outcome::Win(Player::First)) => 11 - d,
        Some(Outcome::Win(Player::Second)) => d - 10,
        Some(Outcome::Draw) => 0,
        None => {
            let s = i64::from(pos.side_to_move().sign());
            let vals = pos
                .legal_moves()
                .into_iter()
                .map(|m| sv_ttt(&pos.play_unchecked(m), memo) * s);
            vals.max().unwrap() * s
        }
    };
    memo.insert(*pos, v);
    v
}

/// Random-playout probabilities in floating point, as the original study computed them.
fn probs_f64<G: Game>(pos: &G, memo: &mut HashMap<G, [f64; 3]>) -> [f64; 3] {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let v = match pos.outcome() {
        Some(Outcome::Win(Player::First)) => [1.0, 0.0, 0.0],
        Some(Outcome::Draw) => [0.0, 1.0, 0.0],
        Some(Outcome::Win(Player::Second)) => [0.0, 0.0, 1.0],
        None => {
            let moves = pos.legal_moves();
            let n = moves.len() as f64;
            let mut acc = [0.0; 3];
            for m in moves {
                let c = probs_f64(&pos.play_unchecked(m), memo);
                for k in 0..3 {
                    acc[k] += c[k] / n;
                }
            }
            acc
        }
    };
    memo.insert(pos.clone(), v);
    v
}

// --- Tic-tac-toe ---------------------------------------------------------------------------

#[test]
fn tictactoe_counts() {
    let sol = ttt();
    let g = sol.graph();
    let counts = g.full_tree_counts().unwrap();
    assert_eq!(
        counts.per_depth,
        [1, 9, 72, 504, 3_024, 15_120, 54_720, 148_176, 200_448, 127_872]
    );
    assert_eq!(counts.total, 549_946);
    assert_eq!(counts.terminal, [131_184, 46_080, 77_904]);
    assert_eq!(counts.terminal.iter().sum::<u64>(), 255_168);
    assert_eq!(g.len(), 5_478);
    assert_eq!(g.canonical_count(), 765);
    assert_eq!(sol.longest_game(), 9);
    // The oracle: walk all 549 946 nodes one by one.
    let mut per_depth = Vec::new();
    let mut term = [0; 3];
    walk_counts(&TicTacToe::new(), 0, &mut per_depth, &mut term);
    assert_eq!(per_depth, counts.per_depth);
    assert_eq!(term, counts.terminal);
    // Depth is the number of marks; every position is there once.
    for (id, pos) in g.positions().iter().enumerate() {
        assert_eq!(g.depth(id), pos.marks());
        assert_eq!(g.id_of(pos), Some(id));
        assert_eq!(g.moves(id), &pos.legal_moves()[..]);
        let kids: Vec<usize> = g.children(id).collect();
        let expect: Vec<usize> = pos
            .legal_moves()
            .into_iter()
            .map(|m| g.id_of(&pos.play_unchecked(m)).unwrap())
            .collect();
        assert_eq!(kids, expect);
    }
}

#[test]
fn tictactoe_root_probabilities_and_first_moves() {
    let sol = ttt();
    let root = sol.probs(0);
    assert_eq!(root.first(), r("737/1260"));
    assert_eq!(root.second(), r("121/420"));
    assert_eq!(root.draw(), r("8/63"));
    assert_eq!(root.denom(), 1260);
    assert_eq!(root.numerators(), [737, 160, 363]);
    assert_eq!(
        root.score(Player::First, Ratio::HALF).unwrap(),
        r("817/1260")
    );
    assert_eq!(
        root.score(Player::First, Ratio::HALF).unwrap().to_string(),
        "817/1260"
    );
    assert!((root.first().to_f64() - 737.0 / 1260.0).abs() < 1e-15);
    let corners = [sq(0, 0), sq(2, 0), sq(0, 2), sq(2, 2)];
    let edges = [sq(1, 0), sq(0, 1), sq(2, 1), sq(1, 2)];
    let g = sol.graph();
    for (&mv, child) in g.moves(0).iter().zip(g.children(0)) {
        let score = sol.probs(child).score(Player::First, Ratio::HALF).unwrap();
        let expected = if corners.contains(&mv) {
            "47/70"
        } else if edges.contains(&mv) {
            "3/5"
        } else {
            assert_eq!(mv, Square::CENTRE);
            "3/4"
        };
        assert_eq!(score, r(expected), "{mv}");
        assert_eq!(sol.plain(child), 0, "{mv}");
    }
    assert_eq!(sol.plain(0), 0);
    assert_eq!(sol.best_moves(0, Scoring::Plain).len(), 9);
    assert_eq!(sol.sv(0).twice, 0);
    assert_eq!(sol.sv(0).to_string(), "0");
}

#[test]
fn tictactoe_values_match_the_oracles_everywhere() {
    let sol = ttt();
    let g = sol.graph();
    let mut mm = HashMap::new();
    let mut sv = HashMap::new();
    let mut pr = HashMap::new();
    for (id, pos) in g.positions().iter().enumerate() {
        assert_eq!(i32::from(sol.plain(id)), minimax(pos, &mut mm), "{pos}");
        assert_eq!(sol.sv(id).twice, sv_ttt(pos, &mut sv), "{pos}");
        let exact = sol.probs(id);
        let approx = probs_f64(pos, &mut pr);
        let got = [
            exact.first().to_f64(),
            exact.draw().to_f64(),
            exact.second().to_f64(),
        ];
        for k in 0..3 {
            assert!(
                (got[k] - approx[k]).abs() < 1e-12,
                "{pos}: {got:?} vs {approx:?}"
            );
        }
        assert_eq!(exact.numerators().iter().sum::<u128>(), exact.denom());
        // Best sets: exactly the moves whose child keeps the value.
        let s = pos.side_to_move().sign();
        let kids: Vec<usize> = g.children(id).collect();
        let best_plain: Vec<usize> = (0..kids.len())
            .filter(|&k| i32::from(sol.plain(kids[k])) == i32::from(sol.plain(id)))
            .collect();
        assert_eq!(sol.best_indices(id, Scoring::Plain), best_plain, "{pos}");
        let best_sv: Vec<usize> = (0..kids.len())
            .filter(|&k| sv_ttt(g.position(kids[k]), &mut sv) == sv_ttt(pos, &mut sv))
            .collect();
        assert_eq!(
            sol.best_indices(id, Scoring::ShortestVictory),
            best_sv,
            "{pos}"
        );
        if pos.is_over() {
            assert!(best_plain.is_empty());
        } else {
            assert!(!best_plain.is_empty() && !best_sv.is_empty());
            let top = kids
                .iter()
                .map(|&c| i32::from(sol.plain(c)) * s)
                .max()
                .unwrap();
            assert_eq!(top * s, i32::from(sol.plain(id)));
        }
    }
    // A won position with d marks scores (11-d)/2 for O and (d-10)/2 for X.
    let won: TicTacToe = "ooo/xx./...".parse().unwrap();
    let id = sol.id_of(&won).unwrap();
    assert_eq!(sol.sv(id).to_string(), "3");
    let won: TicTacToe = "xxx/oo./o..".parse().unwrap();
    assert_eq!(sol.sv(sol.id_of(&won).unwrap()).to_string(), "-2");
    // O to win at once: the sv best move is the immediate win only.
    let pos: TicTacToe = "oo./xx./...".parse().unwrap();
    let id = sol.id_of(&pos).unwrap();
    assert_eq!(sol.best_moves(id, Scoring::ShortestVictory), vec![sq(2, 0)]);
    assert_eq!(sol.sv(id).to_string(), "3");
    assert_eq!(sol.sv(id).outcome, Outcome::Win(Player::First));
    assert_eq!(sol.sv(id).plies, 1);
}

#[test]
fn traversal_orders() {
    let g = ttt().graph();
    // Breadth first: by depth; the first occurrences are the graph's ids in order.
    let mut seen = vec![false; g.len()];
    let mut firsts = Vec::new();
    let mut last_depth = 0;
    let mut n = 0;
    for node in g.full_tree_bfs() {
        assert!(node.depth >= last_depth);
        last_depth = node.depth;
        n += 1;
        if !std::mem::replace(&mut seen[node.id], true) {
            firsts.push(node.id);
        }
    }
    assert_eq!(n, 549_946);
    assert_eq!(firsts, g.bfs_order().collect::<Vec<_>>());
    // Depth first: preorder; the first occurrences are `dfs_order`, and a literal recursive
    // walk gives the same sequence of positions.
    let mut seen = vec![false; g.len()];
    let mut firsts = Vec::new();
    let mut literal = Vec::new();
    fn rec(pos: TicTacToe, out: &mut Vec<TicTacToe>) {
        out.push(pos);
        for m in pos.legal_moves() {
            rec(pos.play_unchecked(m), out);
        }
    }
    rec(TicTacToe::new(), &mut literal);
    let mut count = 0;
    for (node, pos) in g.full_tree_dfs().zip(&literal) {
        assert_eq!(g.position(node.id), pos);
        assert_eq!(node.depth, pos.marks());
        count += 1;
        if !std::mem::replace(&mut seen[node.id], true) {
            firsts.push(node.id);
        }
    }
    assert_eq!(count, literal.len());
    assert_eq!(g.full_tree_dfs().count(), 549_946);
    assert_eq!(firsts, g.dfs_order());
    // And a literal breadth-first walk over positions gives the graph's breadth-first order.
    let mut queue = VecDeque::from([TicTacToe::new()]);
    let mut seen_pos = HashSet::new();
    let mut order = Vec::new();
    while let Some(p) = queue.pop_front() {
        if seen_pos.insert(p) {
            order.push(g.id_of(&p).unwrap());
        }
        queue.extend(p.legal_moves().into_iter().map(|m| p.play_unchecked(m)));
    }
    assert_eq!(order, (0..g.len()).collect::<Vec<_>>());
}

// --- Audit ---------------------------------------------------------------------------------

/// The audit by brute force: a literal breadth-first walk over positions, a set of checked
/// canonical keys, rule sets from the float-free definitions written out again.
fn audit_oracle(rule: PlayoutRule, scoring: Scoring) -> Vec<String> {
    let sol = ttt();
    let mut queue = VecDeque::from([TicTacToe::new()]);
    let mut keys = HashSet::new();
    let mut out = Vec::new();
    while let Some(p) = queue.pop_front() {
        queue.extend(p.legal_moves().into_iter().map(|m| p.play_unchecked(m)));
        if p.is_over() || !keys.insert(p.canonical_key()) {
            continue;
        }
        let id = sol.id_of(&p).unwrap();
        let me = p.side_to_move();
        let mut vals: Vec<(Ratio, Ratio, Square)> = Vec::new();
        for m in p.legal_moves() {
            let c = sol.probs(sol.id_of(&p.play_unchecked(m)).unwrap());
            let key = match rule {
                PlayoutRule::Pmc => (c.win(me), c.draw()),
                PlayoutRule::Pmc2 { alpha } => (
                    c.win(me)
                        .checked_add(alpha.checked_mul(c.draw()).unwrap())
                        .unwrap(),
                    Ratio::ZERO,
                ),
            };
            vals.push((key.0, key.1, m));
        }
        let top = vals.iter().map(|v| (v.0, v.1)).max().unwrap();
        let chosen: Vec<Square> = vals
            .iter()
            .filter(|v| (v.0, v.1) == top)
            .map(|v| v.2)
            .collect();
        let best = sol.best_moves(id, scoring);
        if chosen.iter().any(|m| !best.contains(m)) {
            out.push(p.to_string());
        }
    }
    out
}

#[test]
fn audit_counts_match_the_oracle() {
    let sol = ttt();
    let mut table = Vec::new();
    for rule in ["pmc", "pmc2:alpha=0.5", "pmc2:alpha=0", "pmc2:alpha=1"] {
        let rule: PlayoutRule = rule.parse().unwrap();
        for scoring in [Scoring::Plain, Scoring::ShortestVictory] {
            let report = audit_symmetric(sol, rule, scoring).unwrap();
            let listed: Vec<String> = report
                .findings
                .iter()
                .map(|f| f.position.to_string())
                .collect();
            assert_eq!(listed, audit_oracle(rule, scoring), "{rule} {scoring}");
            assert_eq!(
                report.checked,
                765 - 138,
                "non-terminal canonical positions"
            );
            for f in &report.findings {
                assert!(f.rule_moves.iter().any(|m| !f.best_moves.contains(m)));
            }
            table.push((rule.to_string(), scoring, report.findings.len()));
        }
    }
    // The numbers, for the record (also printed by `yomi tree audit`).
    let counts: Vec<usize> = table.iter().map(|t| t.2).collect();
    assert_eq!(counts, EXPECTED_AUDIT_COUNTS, "{table:?}");
    // Without symmetry reduction every distinct unfinished position is checked once.
    let all = audit(sol, PlayoutRule::Pmc, Scoring::Plain).unwrap();
    assert_eq!(all.checked, 5_478 - 958);
}

/// `[pmc plain, pmc sv, pmc2(1/2) plain, pmc2(1/2) sv, pmc2(0) plain, pmc2(0) sv, pmc2(1)
/// plain, pmc2(1) sv]`, found by the audit and checked against the brute-force oracle above.
const EXPECTED_AUDIT_COUNTS: [usize; 8] = [28, 74, 29, 75, 88, 135, 77, 131];

#[test]
fn rule_and_scoring_notation_round_trips() {
    for text in ["pmc", "pmc2:alpha=1/2", "pmc2:alpha=1/3", "pmc2:alpha=0"] {
        let rule: PlayoutRule = text.parse().unwrap();
        assert_eq!(rule.to_string(), text);
    }
    assert_eq!(
        "pmc2".parse::<PlayoutRule>().unwrap(),
        PlayoutRule::Pmc2 { alpha: Ratio::HALF }
    );
    assert_eq!(
        "pmc2:alpha=0.25"
            .parse::<PlayoutRule>()
            .unwrap()
            .to_string(),
        "pmc2:alpha=1/4"
    );
    for bad in [
        "",
        "pmc3",
        "pmc:alpha=1",
        "pmc2:alpha=x",
        "pmc2:beta=1",
        "pmc2:alpha=-1",
        "pmc2:alpha=5",
        "pmc2:alpha=1.5",
        "pmc2:alpha=1000000001/1000000000",
    ] {
        assert!(bad.parse::<PlayoutRule>().is_err(), "{bad}");
    }
    // An alpha above 1 is a typed error naming the range; 0 and 1 are accepted.
    assert_eq!(
        "pmc2:alpha=5".parse::<PlayoutRule>(),
        Err(ParseRuleError::Alpha(AlphaError::OutOfRange {
            alpha: Ratio::integer(5)
        }))
    );
    assert_eq!(
        "pmc2:alpha=5"
            .parse::<PlayoutRule>()
            .unwrap_err()
            .to_string(),
        "bad alpha: 5 is not between 0 and 1"
    );
    assert!(matches!(
        "pmc2:alpha=1/0".parse::<PlayoutRule>(),
        Err(ParseRuleError::Alpha(AlphaError::Parse(
            ParseRatioError::ZeroDenominator { .. }
        )))
    ));
    for (text, alpha) in [("0", Ratio::ZERO), ("1", Ratio::ONE), ("1.0", Ratio::ONE)] {
        assert_eq!(parse_alpha(text), Ok(alpha));
        assert_eq!(check_alpha(alpha), Ok(alpha));
    }
    assert!(matches!(
        parse_alpha("5/4"),
        Err(AlphaError::OutOfRange { .. })
    ));
    for s in [Scoring::Plain, Scoring::ShortestVictory] {
        assert_eq!(s.to_string().parse::<Scoring>().unwrap(), s);
    }
    assert!("best".parse::<Scoring>().is_err());
}

// --- The stone game ------------------------------------------------------------------------

#[test]
fn stone_game() {
    let sol = Solution::build(Nim::default()).unwrap();
    let g = sol.graph();
    assert_eq!(sol.plain(0), 1, "15 stones: the first player wins");
    assert_eq!(
        sol.best_moves(0, Scoring::Plain),
        vec![Take::new(3).unwrap()]
    );
    for (id, pos) in g.positions().iter().enumerate() {
        if pos.stones() == 0 {
            continue;
        }
        let mover = i32::from(sol.plain(id)) * pos.side_to_move().sign();
        assert_eq!(mover == -1, pos.stones() % 4 == 0, "{pos}");
        if pos.stones() % 4 != 0 {
            // The only winning move leaves a multiple of 4.
            let best = sol.best_moves(id, Scoring::Plain);
            assert_eq!(best.len(), 1);
            assert_eq!((pos.stones() - u32::from(best[0].count())) % 4, 0);
        }
    }
    let counts = g.full_tree_counts().unwrap();
    let mut per_depth = Vec::new();
    let mut term = [0; 3];
    walk_counts(&Nim::default(), 0, &mut per_depth, &mut term);
    assert_eq!(counts.per_depth, per_depth);
    assert_eq!(counts.terminal, term);
    assert_eq!(term.iter().sum::<u64>(), 5_768);
    assert_eq!(sol.longest_game(), 15);
    let mut pr = HashMap::new();
    for (id, pos) in g.positions().iter().enumerate() {
        let f = probs_f64(pos, &mut pr);
        assert!((sol.probs(id).first().to_f64() - f[0]).abs() < 1e-12);
        assert_eq!(sol.probs(id).draw(), Ratio::ZERO);
    }
    // Positions are reached at several depths; the traversals still see every move sequence.
    assert_eq!(g.full_tree_bfs().count() as u64, counts.total);
    assert_eq!(g.full_tree_dfs().count() as u64, counts.total);
    // The shortest-victory winner takes the fastest win: from 3 stones, take all 3.
    let three = Solution::build(Nim::new(3, Player::First).unwrap()).unwrap();
    assert_eq!(
        three.best_moves(0, Scoring::ShortestVictory),
        vec![Take::new(3).unwrap()]
    );
    assert_eq!(
        three.best_moves(0, Scoring::Plain),
        vec![Take::new(3).unwrap()]
    );
    assert_eq!(three.sv(0).plies, 1);
    let five = Solution::build(Nim::new(5, Player::First).unwrap()).unwrap();
    // From 5 the only win is taking 1; the audit runs without symmetries.
    assert_eq!(
        five.best_moves(0, Scoring::ShortestVictory),
        vec![Take::new(1).unwrap()]
    );
    let report = audit(&five, PlayoutRule::Pmc, Scoring::Plain).unwrap();
    assert_eq!(report.checked, five.graph().len() - 2);
}

#[test]
fn build_limit_is_a_typed_error() {
    assert!(matches!(
        Graph::build_with_limit(TicTacToe::new(), 100),
        Err(TreeError::TooManyPositions { limit: 100 })
    ));
}

// --- Toy games: overflow and cycles --------------------------------------------------------

/// Level `i` offers `PRIMES[i]` moves; move `j` leads to `(i + 1, (j + bit) % 2)`. Positions
/// stay few, but the probabilities' denominators are the product of the primes, which passes
/// 2^128 after 27 levels. With `cycle`, level 1 may go back to level 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Toy {
    level: u8,
    bit: u8,
    cycle: bool,
}

const PRIMES: [u8; 30] = [
    3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    101, 103, 107, 109, 113, 127,
];

impl fmt::Display for Toy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.level, self.bit, u8::from(self.cycle))
    }
}

#[derive(Debug, thiserror::Error)]
#[error("bad toy")]
struct BadToy;

impl FromStr for Toy {
    type Err = BadToy;
    fn from_str(s: &str) -> Result<Toy, BadToy> {
        let v: Vec<u8> = s
            .split('.')
            .map(|x| x.parse().map_err(|_| BadToy))
            .collect::<Result<_, _>>()?;
        match v[..] {
            [level, bit, cycle] => Ok(Toy {
                level,
                bit,
                cycle: cycle == 1,
            }),
            _ => Err(BadToy),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ToyMove(u8);

impl fmt::Display for ToyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for ToyMove {
    type Err = BadToy;
    fn from_str(s: &str) -> Result<ToyMove, BadToy> {
        s.parse().map(ToyMove).map_err(|_| BadToy)
    }
}

impl Game for Toy {
    type Move = ToyMove;
    type Moves = MoveList<ToyMove, 128>;
    const NAME: &'static str = "toy";
    const PLAYER_NAMES: [&'static str; 2] = ["a", "b"];

    fn side_to_move(&self) -> Player {
        if self.level.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self) -> Self::Moves {
        let mut list = MoveList::new();
        if self.outcome().is_none() {
            for j in 0..PRIMES[usize::from(self.level)] {
                list.push(ToyMove(j));
            }
        }
        list
    }

    fn play_unchecked(&self, mv: ToyMove) -> Toy {
        if self.cycle && self.level == 1 && mv.0 == 0 {
            return Toy { level: 0, ..*self };
        }
        Toy {
            level: self.level + 1,
            bit: (mv.0 + self.bit) % 2,
            cycle: self.cycle,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.level == 28).then_some(if self.bit == 1 {
            Outcome::Win(Player::First)
        } else {
            Outcome::Draw
        })
    }
}

#[test]
fn overflow_and_cycles_are_typed_errors() {
    let graph = Graph::build(Toy::default()).unwrap();
    assert!(graph.len() < 60);
    assert!(matches!(
        Solution::solve(graph),
        Err(TreeError::Overflow { .. })
    ));
    let cyclic = Graph::build(Toy {
        cycle: true,
        ..Toy::default()
    })
    .unwrap();
    assert!(matches!(
        Solution::solve(cyclic),
        Err(TreeError::Cycle { .. })
    ));
    // A short toy (start deep enough) solves, with denominators the product of the primes.
    let short = Solution::build(Toy {
        level: 25,
        bit: 0,
        cycle: false,
    })
    .unwrap();
    assert_eq!(
        short.probs(0).denom() % (103 * 107 * 109),
        0,
        "{:?}",
        short.probs(0)
    );
}

// --- Data files ----------------------------------------------------------------------------

#[test]
fn files_are_deterministic_and_round_trip() {
    let a = encode(ttt()).unwrap();
    let b = encode(&Solution::build(TicTacToe::new()).unwrap()).unwrap();
    assert_eq!(a, b);
    let back: Solution<TicTacToe> = decode(&a).unwrap();
    let sol = ttt();
    assert_eq!(back.graph().len(), sol.graph().len());
    assert_eq!(back.longest_game(), 9);
    for id in 0..sol.graph().len() {
        assert_eq!(back.graph().position(id), sol.graph().position(id));
        assert_eq!(back.plain(id), sol.plain(id));
        assert_eq!(back.sv(id), sol.sv(id));
        assert_eq!(back.probs(id), sol.probs(id));
        for s in [Scoring::Plain, Scoring::ShortestVictory] {
            assert_eq!(back.best_indices(id, s), sol.best_indices(id, s));
        }
    }
    assert_eq!(encode(&back).unwrap(), a);
    let header = read_header::<TicTacToe>(&a).unwrap();
    assert_eq!(header.records, 5_478);
    assert_eq!(header.version, FORMAT_VERSION);
    assert_eq!(header.payload_len as usize + HEADER_LEN, a.len());
}

#[test]
fn committed_data_files_are_what_the_builder_writes() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/");
    let ttt_file = std::fs::read(format!("{dir}tictactoe.tree")).unwrap();
    assert!(
        ttt_file == encode(ttt()).unwrap(),
        "data/tictactoe.tree is stale"
    );
    let nim_file = std::fs::read(format!("{dir}nim15.tree")).unwrap();
    let nim = Solution::build(Nim::default()).unwrap();
    assert!(
        nim_file == encode(&nim).unwrap(),
        "data/nim15.tree is stale"
    );
    assert!(decode::<Nim>(&nim_file).is_ok());
}

#[test]
fn every_corruption_of_a_small_file_is_rejected() {
    let sol = Solution::build(Nim::new(6, Player::First).unwrap()).unwrap();
    let good = encode(&sol).unwrap();
    assert!(decode::<Nim>(&good).is_ok());
    assert!(good.len() > HEADER_LEN + 20, "{}", good.len());
    // Every truncation.
    for len in 0..good.len() {
        assert!(decode::<Nim>(&good[..len]).is_err(), "truncated to {len}");
    }
    // Every byte replaced by every other value.
    let mut bad = good.clone();
    let mut kinds = HashSet::new();
    for i in 0..good.len() {
        for v in 0..=255u8 {
            if v == good[i] {
                continue;
            }
            bad[i] = v;
            match decode::<Nim>(&bad) {
                Ok(_) => panic!("byte {i} set to {v} was accepted"),
                Err(FileError::Container(e)) => {
                    kinds.insert(format!("{:?}", std::mem::discriminant(&e)));
                }
                Err(e) => {
                    kinds.insert(format!("{:?}", std::mem::discriminant(&e)));
                }
            }
        }
        bad[i] = good[i];
    }
    assert!(kinds.len() >= 6, "{} kinds of error", kinds.len());
    // Extra bytes, a foreign game, a newer version.
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        decode::<Nim>(&long),
        Err(FileError::Container(ContainerError::TrailingBytes {
            extra: 1,
            ..
        }))
    ));
    assert!(matches!(
        decode::<TicTacToe>(&good),
        Err(FileError::Container(ContainerError::ForeignTag { .. }))
    ));
    let mut newer = good.clone();
    newer[8..10].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    assert!(matches!(
        decode::<Nim>(&newer),
        Err(FileError::Container(ContainerError::NewerVersion { .. }))
    ));
    let mut older = good.clone();
    older[8..10].copy_from_slice(&0u16.to_le_bytes());
    assert!(matches!(
        decode::<Nim>(&older),
        Err(FileError::Container(ContainerError::UnsupportedVersion {
            found: 0,
            ..
        }))
    ));
    assert!(matches!(
        decode::<Nim>(b"PK\x03\x04 not a tree"),
        Err(FileError::Container(ContainerError::BadMagic { .. }))
    ));
    assert!(matches!(
        decode::<Nim>(b"YOMI"),
        Err(FileError::Container(ContainerError::Truncated { .. }))
    ));
    let mut body = good.clone();
    body[HEADER_LEN + 3] ^= 1;
    assert!(matches!(
        decode::<Nim>(&body),
        Err(FileError::Container(
            ContainerError::ChecksumMismatch { .. }
        ))
    ));
    // A consistent header around a payload that lies (checksum recomputed) is still caught.
    let mut lie = good.clone();
    lie[26..34].copy_from_slice(&99u64.to_le_bytes());
    assert!(matches!(
        decode::<Nim>(&lie),
        Err(FileError::CountMismatch { .. })
    ));
    // A missing file.
    assert!(matches!(
        read_file::<Nim>(std::path::Path::new("/nonexistent/yomi.tree")),
        Err(FileError::Container(ContainerError::Io { .. }))
    ));
}

/// A fresh directory for one test's files (removed by the test at its end).
fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("yomi-tree-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn read_file_checks_the_header_before_reading_the_payload() {
    let dir = scratch_dir("read-file");
    let sol = Solution::build(Nim::new(6, Player::First).unwrap()).unwrap();
    let good = encode(&sol).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let path = write("good.tree", &good);
    let back: Solution<Nim> = read_file(&path).unwrap();
    assert_eq!(encode(&back).unwrap(), good);
    // A header that claims a huge payload: too large, or longer than the file; either way
    // rejected from the header and the file's length, without reading (or allocating) it.
    for (len, huge) in [(u64::MAX, true), (1 << 40, true), (1 << 30, false)] {
        let mut lie = good.clone();
        lie[34..42].copy_from_slice(&len.to_le_bytes());
        let got = read_file::<Nim>(&write("huge.tree", &lie));
        if huge {
            assert!(
                matches!(got, Err(FileError::Container(ContainerError::TooLarge { len: l, .. })) if l == len),
                "{got:?}"
            );
        } else {
            let expected = HEADER_LEN as u64 + len;
            let actual = good.len() as u64;
            assert!(
                matches!(got, Err(FileError::Container(ContainerError::Truncated { expected: e, actual: a, .. }))
                    if e == expected && a == actual),
                "{got:?}"
            );
        }
    }
    // Truncations, an extra byte, a flipped byte: as `decode`.
    for len in [0, 5, HEADER_LEN - 1, HEADER_LEN, good.len() - 1] {
        let got = read_file::<Nim>(&write("short.tree", &good[..len]));
        let want = decode::<Nim>(&good[..len]).unwrap_err();
        assert_eq!(
            format!("{got:?}"),
            format!("{:?}", Err::<(), _>(want)),
            "{len}"
        );
    }
    let mut long = good.clone();
    long.push(0);
    assert!(matches!(
        read_file::<Nim>(&write("long.tree", &long)),
        Err(FileError::Container(ContainerError::TrailingBytes {
            extra: 1,
            ..
        }))
    ));
    let mut flipped = good.clone();
    flipped[HEADER_LEN + 3] ^= 1;
    assert!(matches!(
        read_file::<Nim>(&write("flipped.tree", &flipped)),
        Err(FileError::Container(
            ContainerError::ChecksumMismatch { .. }
        ))
    ));
    // Not a regular file: a directory, and (on Unix) a device and a FIFO, which would
    // otherwise be read forever or block.
    assert!(matches!(
        read_file::<Nim>(&dir),
        Err(FileError::Container(ContainerError::NotAFile { .. }))
    ));
    let zero = std::path::Path::new("/dev/zero");
    if zero.exists() {
        assert!(matches!(
            read_file::<Nim>(zero),
            Err(FileError::Container(ContainerError::NotAFile { .. }))
        ));
        assert!(matches!(
            TreeAgent::<Nim>::table(zero),
            Err(TreeError::File(FileError::Container(
                ContainerError::NotAFile { .. }
            )))
        ));
    }
    let fifo = dir.join("fifo.tree");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        assert!(matches!(
            read_file::<Nim>(&fifo),
            Err(FileError::Container(ContainerError::NotAFile { .. }))
        ));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn payload_that_lies_is_caught_by_the_record_checks() {
    // Re-sign a payload whose values were changed: the record checks find it.
    let sol = Solution::build(Nim::new(5, Player::First).unwrap()).unwrap();
    let good = encode(&sol).unwrap();
    let mut rejected = 0;
    for i in HEADER_LEN..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0x01;
        let sum = fnv1a64(&bad[HEADER_LEN..]);
        bad[42..50].copy_from_slice(&sum.to_le_bytes());
        match decode::<Nim>(&bad) {
            Err(_) => rejected += 1,
            Ok(back) => {
                // Accepted only if it still describes a valid solution (e.g. a flipped f64 low
                // bit cannot be: the decimals are checked; so this is a benign change).
                assert_eq!(encode(&back).unwrap(), bad, "byte {i}");
            }
        }
    }
    assert!(rejected > (good.len() - HEADER_LEN) * 9 / 10, "{rejected}");
}

// --- Agents --------------------------------------------------------------------------------

fn play_game<G: Game>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    start: &G,
    rng: &mut Rng,
) -> Outcome {
    let mut pos = start.clone();
    loop {
        if let Some(o) = pos.outcome() {
            return o;
        }
        let agent: &mut dyn Agent<G> = match pos.side_to_move() {
            Player::First => &mut *a,
            Player::Second => &mut *b,
        };
        let mv = agent.choose(&pos, rng).unwrap();
        pos = pos.play(mv).unwrap();
    }
}

/// Plays a uniformly random move (the `random` agent of yomi-agents, which is not a
/// dependency here).
#[derive(Debug)]
struct Random;

impl<G: Game> Agent<G> for Random {
    fn spec(&self) -> String {
        "random".into()
    }
    fn explain(
        &mut self,
        state: &G,
        rng: &mut Rng,
    ) -> Result<yomi_core::Explanation<G::Move>, AgentError> {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        let scored = moves
            .iter()
            .map(|&m| yomi_core::MoveScore::new(m, 0.0))
            .collect();
        Ok(yomi_core::Explanation::from_scores(
            "random".into(),
            scored,
            |b| b[rng.below(b.len())],
        ))
    }
}

#[test]
fn perfect_agents_never_lose() {
    let mut rng = Rng::seed_from_u64(7);
    for spec in ["perfect", "perfect-sv"] {
        let mut perfect = TreeAgent::<TicTacToe>::from_spec(spec).unwrap();
        let mut random = Random;
        let mut wins = 0;
        for i in 0..2_000 {
            let (o, me) = if i % 2 == 0 {
                (
                    play_game(&mut perfect, &mut random, &TicTacToe::new(), &mut rng),
                    Player::First,
                )
            } else {
                (
                    play_game(&mut random, &mut perfect, &TicTacToe::new(), &mut rng),
                    Player::Second,
                )
            };
            assert_ne!(o, Outcome::Win(!me), "{spec} lost game {i}");
            wins += u32::from(o == Outcome::Win(me));
        }
        assert!(wins > 1_500, "{spec} won only {wins}");
        // Against each other and against the playout agents: never a loss either.
        let mut others: Vec<Box<dyn Agent<TicTacToe>>> = vec![
            Box::new(TreeAgent::<TicTacToe>::pmc_exact().unwrap()),
            Box::new(TreeAgent::<TicTacToe>::pmc2_exact(Ratio::HALF).unwrap()),
            Box::new(TreeAgent::<TicTacToe>::perfect().unwrap()),
        ];
        for other in &mut others {
            for i in 0..200 {
                let o = if i % 2 == 0 {
                    play_game(&mut perfect, other.as_mut(), &TicTacToe::new(), &mut rng)
                } else {
                    play_game(other.as_mut(), &mut perfect, &TicTacToe::new(), &mut rng)
                };
                let me = if i % 2 == 0 {
                    Player::First
                } else {
                    Player::Second
                };
                assert_ne!(o, Outcome::Win(!me), "{spec} lost to {}", other.spec());
            }
        }
    }
    // The stone game: perfect wins every game as the first player.
    let mut perfect = TreeAgent::<Nim>::perfect().unwrap();
    for _ in 0..200 {
        let o = play_game(&mut perfect, &mut Random, &Nim::default(), &mut rng);
        assert_eq!(o, Outcome::Win(Player::First));
    }
}

#[test]
fn agents_explain_what_they_choose() {
    let pos: TicTacToe = "oo./xx./...".parse().unwrap();
    for spec in [
        "perfect",
        "perfect-sv",
        "pmc-exact",
        "pmc2-exact",
        "pmc2-exact:alpha=0.25",
    ] {
        let mut agent = TreeAgent::<TicTacToe>::from_spec(spec).unwrap();
        for seed in 0..20 {
            let mut r1 = Rng::seed_from_u64(seed);
            let mut r2 = r1.clone();
            let why = agent.explain(&pos, &mut r1).unwrap();
            let mv = agent.choose(&pos, &mut r2).unwrap();
            assert_eq!(why.chosen, mv, "{spec}");
            assert_eq!(r1, r2, "{spec}: the same draws");
            assert_eq!(why.moves.len(), 5);
            assert!(why.best.contains(&mv));
            assert_eq!(why.moves[0].parts.len(), 6);
        }
        assert_eq!(
            agent.choose(&"ooo/xx./...".parse().unwrap(), &mut Rng::seed_from_u64(1)),
            Err(AgentError::GameOver)
        );
    }
    let mut sv = TreeAgent::<TicTacToe>::perfect_sv().unwrap();
    let why = sv.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(why.best, vec![sq(2, 0)]);
    assert_eq!(why.moves[0].score, 3.0, "(2,0) wins at once: (11-5)/2");
    let mut plain = TreeAgent::<TicTacToe>::perfect().unwrap();
    let why = plain.explain(&pos, &mut Rng::seed_from_u64(1)).unwrap();
    assert!(why.best.contains(&sq(2, 0)));
    assert_eq!(plain.spec(), "perfect");
    assert_eq!(
        TreeAgent::<TicTacToe>::pmc2_exact(r("1/3")).unwrap().spec(),
        "pmc2-exact:alpha=1/3"
    );
    let why = TreeAgent::<TicTacToe>::pmc2_exact(Ratio::HALF)
        .unwrap()
        .explain(&TicTacToe::new(), &mut Rng::seed_from_u64(3))
        .unwrap();
    assert_eq!(why.best, vec![Square::CENTRE]);
    assert!((why.moves[4].score - 0.75).abs() < 1e-15);
    assert!(
        why.notes
            .iter()
            .any(|n| n.contains("(1,1): win 97/140") && n.contains("score 3/4")),
        "{:?}",
        why.notes
    );
    // Specs that do not name a tree agent.
    for bad in [
        "perfect:depth=3",
        "nope",
        "pmc2-exact:alpha=x",
        "pmc2-exact:alpha=5",
        "pmc2-exact:alpha=1.01",
        "table",
        "table:file=x,scoring=y",
        "Bad",
    ] {
        assert!(
            matches!(
                TreeAgent::<TicTacToe>::from_spec(bad),
                Err(TreeError::BadSpec { .. })
            ),
            "{bad}"
        );
    }
    // An alpha outside [0, 1] given directly is refused too; the bounds are accepted.
    let err = TreeAgent::<TicTacToe>::pmc2_exact(Ratio::integer(5)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad tree agent spec \"pmc2-exact:alpha=5\": alpha: 5 is not between 0 and 1"
    );
    for alpha in ["0", "1"] {
        let agent = TreeAgent::<TicTacToe>::from_spec(&format!("pmc2-exact:alpha={alpha}"));
        assert_eq!(agent.unwrap().spec(), format!("pmc2-exact:alpha={alpha}"));
    }
}

#[test]
fn agents_share_data_and_handle_other_starts() {
    let a = shared_solution::<TicTacToe>().unwrap();
    let b = shared_solution::<TicTacToe>().unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    // A stone game from 40 stones: outside the standard tree, solved on demand.
    let mut agent = TreeAgent::<Nim>::perfect().unwrap();
    let forty: Nim = "41".parse().unwrap();
    let mv = agent.choose(&forty, &mut Rng::seed_from_u64(1)).unwrap();
    assert_eq!(mv, Take::new(1).unwrap());
    // The table agent reads a file and knows only its positions.
    let path = std::env::temp_dir().join(format!("yomi-tree-test-{}.tree", std::process::id()));
    write_file(ttt(), &path).unwrap();
    let mut table = TreeAgent::<TicTacToe>::table(&path).unwrap();
    assert!(table.spec().starts_with("table:file="));
    let mut rng = Rng::seed_from_u64(5);
    for _ in 0..200 {
        let o = play_game(&mut table, &mut Random, &TicTacToe::new(), &mut rng);
        assert_ne!(o, Outcome::Win(Player::Second));
    }
    let sv_table =
        TreeAgent::<TicTacToe>::from_spec(&format!("table:file={},scoring=sv", path.display()));
    assert!(sv_table.is_ok());
    let nim_from_ttt = TreeAgent::<Nim>::table(&path);
    assert!(matches!(
        nim_from_ttt,
        Err(TreeError::File(FileError::Container(
            ContainerError::ForeignTag { .. }
        )))
    ));
    let small = Solution::build(Nim::new(5, Player::First).unwrap()).unwrap();
    let small_path = path.with_extension("nim");
    write_file(&small, &small_path).unwrap();
    let mut nim_table = TreeAgent::<Nim>::table(&small_path).unwrap();
    assert!(matches!(
        nim_table.choose(&Nim::default(), &mut Rng::seed_from_u64(1)),
        Err(AgentError::Failed { .. })
    ));
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&small_path);
    assert!(matches!(
        TreeAgent::<TicTacToe>::table("/nonexistent/file.tree"),
        Err(TreeError::File(FileError::Container(
            ContainerError::Io { .. }
        )))
    ));
}

#[test]
fn shared_data_is_built_once_across_threads() {
    let sols: Vec<std::sync::Arc<Solution<Nim>>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                s.spawn(|| shared_solution_from(&Nim::new(9, Player::Second).unwrap()).unwrap())
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(sols
        .windows(2)
        .all(|w| std::sync::Arc::ptr_eq(&w[0], &w[1])));
    // Agents built after the first are cheap: they share the same solution.
    let a = TreeAgent::<TicTacToe>::perfect().unwrap();
    let b = TreeAgent::<TicTacToe>::pmc_exact().unwrap();
    assert!(std::sync::Arc::ptr_eq(&a.sols[0], &b.sols[0]));
    assert_eq!(
        format!("{a:?}"),
        r#"TreeAgent { spec: "perfect", solutions: 1 }"#
    );
}
