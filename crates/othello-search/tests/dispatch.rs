//! The two compiled copies of the search (see `SolverConfig::cpu`), chosen through the CPU
//! layer's one token (`yomi_othello::cpu`): the portable one runs when asked for, and both
//! search exactly the same tree — same scores, moves, principal variations and node counts —
//! on FFO positions, in both modes, with 1 and 2 threads.

use yomi_othello::cpu::{Cpu, X86v3};
use yomi_othello_search::{Mode, Solver, SolverConfig};

mod common;
use common::{ffo, solver};

#[test]
fn portable_is_chosen_when_asked_and_the_default_follows_the_cpu() {
    assert_eq!(solver(1, Cpu::Portable).cpu(), Cpu::Portable);
    assert_eq!(solver(1, Cpu::Portable).cpu().to_string(), "portable");
    // `YOMI_PORTABLE` (read once by the CPU layer) forces the portable copy: the CLI's test
    // sets it; here it is unset unless the whole test run was started with it.
    let default = Solver::new(SolverConfig::default()).expect("valid config");
    let want = match X86v3::detect() {
        Some(token) => Cpu::X86v3(token),
        None => Cpu::Portable,
    };
    assert_eq!(default.cpu(), want);
    assert_eq!(
        default.cpu().to_string(),
        if want == Cpu::Portable {
            "portable"
        } else {
            "x86-64-v3"
        }
    );
}

#[test]
fn both_copies_search_the_same_tree() {
    let positions = ffo("fforum-1-19.obf");
    for threads in [1, 2] {
        // The node counts of a parallel search depend on timing; only one thread's are
        // compared exactly.
        let (mut fast, mut portable) = (
            solver(threads, Cpu::detect()),
            solver(threads, Cpu::Portable),
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
