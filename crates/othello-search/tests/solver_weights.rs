//! The solver's own weights: built in, checked, and the only evaluation its node counts
//! depend on.

use yomi_othello_search::{
    solver_weights, solver_weights_file, FfoSuite, Mode, Solver, SolverConfig, Weights,
};

#[test]
fn the_solver_file_is_built_in_checked_and_round_trips() {
    let w = solver_weights();
    assert_eq!(w.encode().unwrap(), solver_weights_file());
    assert!(w.phases() > 1, "{} phases", w.phases());
    let file = solver_weights_file();
    // A flipped byte in the payload, a cut file and a foreign magic are refused.
    let mut flipped = file.to_vec();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x40;
    assert!(Weights::decode(&flipped).is_err());
    assert!(Weights::decode(&file[..file.len() - 1]).is_err());
    assert!(Weights::decode(&file[..64]).is_err());
    let mut foreign = file.to_vec();
    foreign[0] = b'X';
    assert!(Weights::decode(&foreign).is_err());
}

/// FFO #41 and #42 (22 empties, where the guess and the selective passes run), 1 thread,
/// 64 MiB: the node counts of the solver with its own weights. They change only with the
/// solver (its code or its weight file), never with the agents' evaluation; a solver change
/// updates them with its measurements. (The solver's guess runs the midgame search: the
/// evaluation in that search's move ordering moved #41 by -81 nodes and #42 by +80, and
/// #40-#49 from 1,421,505,989 to 1,413,149,400 nodes.)
const PINNED: [(usize, i32, u64); 2] = [(41, 0, NODES_41), (42, 6, NODES_42)];
const NODES_41: u64 = 28_224_734;
const NODES_42: u64 = 41_852_868;

#[test]
fn node_counts_depend_on_the_solver_only() {
    let suite = FfoSuite::load().unwrap();
    let positions = suite.file("fforum-40-49.obf").unwrap();
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    for (number, score, nodes) in PINNED {
        let obf = &positions[number - 40];
        assert_eq!(obf.scores[0].1, score, "#{number}");
        solver.clear();
        let s = solver.solve(&obf.position, Mode::Exact);
        assert_eq!((s.score, s.nodes), (score, nodes), "#{number}");
    }
}
