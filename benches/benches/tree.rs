//! Exact game-tree benchmarks. Each asserts what it computes, so a faster but wrong change
//! fails.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use yomi_core::Player;
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;
use yomi_tree::{audit_symmetric, decode, encode, Graph, PlayoutRule, Ratio, Scoring, Solution};

fn ratio(s: &str) -> Ratio {
    s.parse().expect("a valid fraction")
}

fn bench_full_build(c: &mut Criterion) {
    // The full tree: the merged graph, minimax under both scorings, exact probabilities, and
    // the counts of all 549 946 nodes of the full tree (from path counts).
    c.bench_function(
        "tree/tictactoe full build (minimax, exact probabilities, counts)",
        |b| {
            b.iter(|| {
                let sol = Solution::build(black_box(TicTacToe::new())).unwrap();
                let counts = sol.graph().full_tree_counts().unwrap();
                assert_eq!(counts.total, 549_946);
                let root = sol.probs(0);
                assert_eq!(root.first(), ratio("737/1260"));
                assert_eq!(
                    root.score(Player::First, Ratio::HALF).unwrap(),
                    ratio("817/1260")
                );
                assert_eq!(sol.plain(0), 0);
                sol
            })
        },
    );
    c.bench_function("tree/tictactoe merged graph", |b| {
        b.iter(|| {
            let graph = Graph::build(black_box(TicTacToe::new())).unwrap();
            assert_eq!(graph.len(), 5_478);
            graph
        })
    });
    c.bench_function("tree/tictactoe merged graph + canonical count", |b| {
        b.iter(|| {
            let graph = Graph::build(black_box(TicTacToe::new())).unwrap();
            assert_eq!(graph.canonical_count(), 765);
            graph
        })
    });
    c.bench_function("tree/nim 15 full build", |b| {
        b.iter(|| {
            let sol = Solution::build(black_box(Nim::default())).unwrap();
            assert_eq!(sol.graph().full_tree_counts().unwrap().total, 12_640);
            assert_eq!(sol.plain(0), 1);
            sol
        })
    });
}

fn bench_traversals(c: &mut Criterion) {
    let sol = Solution::build(TicTacToe::new()).unwrap();
    let graph = sol.graph();
    c.bench_function(
        "tree/tictactoe full-tree BFS traversal (549 946 nodes)",
        |b| {
            b.iter(|| {
                let n = black_box(graph).full_tree_bfs().count();
                assert_eq!(n, 549_946);
                n
            })
        },
    );
    let rule = PlayoutRule::Pmc2 { alpha: Ratio::HALF };
    let expected = audit_symmetric(&sol, rule, Scoring::Plain)
        .unwrap()
        .findings
        .len();
    c.bench_function("tree/tictactoe audit pmc2 (plain)", |b| {
        b.iter(|| {
            let report = audit_symmetric(black_box(&sol), rule, Scoring::Plain).unwrap();
            assert_eq!(report.checked, 627);
            assert_eq!(report.findings.len(), expected);
            report
        })
    });
}

fn bench_files(c: &mut Criterion) {
    let sol = Solution::build(TicTacToe::new()).unwrap();
    let bytes = encode(&sol).unwrap();
    c.bench_function("tree/tictactoe data file encode", |b| {
        b.iter(|| {
            let out = encode(black_box(&sol)).unwrap();
            assert_eq!(out.len(), bytes.len());
            out
        })
    });
    c.bench_function("tree/tictactoe data file decode (all checks)", |b| {
        b.iter(|| {
            let back: Solution<TicTacToe> = decode(black_box(&bytes)).unwrap();
            assert_eq!(back.graph().len(), 5_478);
            back
        })
    });
}

criterion_group!(benches, bench_full_build, bench_traversals, bench_files);
criterion_main!(benches);
