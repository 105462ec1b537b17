//! The two compiled copies of the search (see `Dispatch`): the portable one is chosen when
//! asked for, and both search exactly the same tree — same scores, moves, principal variations
//! and node counts — on FFO positions, in both modes, with 1 and 2 threads.

use yomi_othello_search::{Dispatch, Mode, Solver, SolverConfig};

mod common;
use common::ffo;

fn solver(threads: usize, dispatch: Dispatch) -> Solver {
    Solver::new(SolverConfig {
        threads,
        hash_mb: 16,
        dispatch,
        ..SolverConfig::default()
    })
    .expect("valid config")
}

/// Whether this CPU runs the fast copy (the test then compares two different copies): the
/// same five features as the board crate's fast perft.
fn cpu_has_the_features() -> bool {
    yomi_othello::perft_uses_simd()
}

#[test]
fn portable_is_chosen_when_asked_and_auto_follows_the_cpu() {
    assert_eq!(solver(1, Dispatch::Portable).kernel(), "portable");
    // `YOMI_PORTABLE` (read when a solver is built) forces the portable copy: the CLI's test
    // sets it; here it is unset unless the whole test run was started with it.
    let forced = std::env::var_os(yomi_othello_search::PORTABLE_ENV)
        .is_some_and(|v| !v.is_empty() && v != "0");
    let want = if cpu_has_the_features() && !forced {
        "x86-64-v3"
    } else {
        "portable"
    };
    assert_eq!(solver(1, Dispatch::Auto).kernel(), want);
}

#[test]
fn both_copies_search_the_same_tree() {
    let positions = ffo("fforum-1-19.obf");
    for threads in [1, 2] {
        // The node counts of a parallel search depend on timing; only one thread's are
        // compared exactly.
        let (mut fast, mut portable) = (
            solver(threads, Dispatch::Auto),
            solver(threads, Dispatch::Portable),
        );
        for (i, obf) in positions.iter().enumerate() {
            for mode in [Mode::Exact, Mode::Wld] {
                let (a, b) = (
                    fast.solve(&obf.position, mode),
                    portable.solve(&obf.position, mode),
                );
                assert_eq!(a.score, b.score, "#{} {mode}", i + 1);
                if threads == 1 {
                    assert_eq!(a.nodes, b.nodes, "#{} {mode}", i + 1);
                    assert_eq!((a.best, &a.pv), (b.best, &b.pv), "#{} {mode}", i + 1);
                }
            }
        }
    }
}
