//! The solver's own weights: built in, checked, and the only evaluation its node counts
//! depend on.

use yomi_othello_search::{
    solver_weights, solver_weights_file, Features, FfoSuite, Mode, Solver, SolverConfig, Weights,
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

/// FFO #41 and #42 (22 empties, where the guess, the selective passes and the learned move
/// ordering run), 1 thread, 64 MiB: the node counts of the solver with its own weights. They
/// change only with the solver (its code or its weight file), never with the agents'
/// evaluation; a solver change updates them with its measurements. (The learned ordering from
/// 14 empties, issue 36, took #41 from 28,224,734 nodes to 16,482,052 and #42 from 41,852,868
/// to 25,500,705, and #40-#52 from 4.21 G to 2.73 G nodes.)
const PINNED: [(usize, i32, u64); 2] = [(41, 0, NODES_41), (42, 6, NODES_42)];
const NODES_41: u64 = 16_482_052;
const NODES_42: u64 = 25_500_705;
/// The same without the learned ordering (`--without learned`): the counts of the solver
/// before it, node for node.
const CHEAP_ORDERING: [(usize, i32, u64); 2] = [(41, 0, 28_224_734), (42, 6, 41_852_868)];

/// Solves the pinned FFO positions with `config` and checks each score and node count.
fn check_counts(config: SolverConfig, pinned: [(usize, i32, u64); 2]) {
    let suite = FfoSuite::load().unwrap();
    let positions = suite.file("fforum-40-49.obf").unwrap();
    let mut solver = Solver::new(config).unwrap();
    for (number, score, nodes) in pinned {
        let obf = &positions[number - 40];
        assert_eq!(obf.scores[0].1, score, "#{number}");
        solver.clear();
        let s = solver.solve(&obf.position, Mode::Exact);
        assert_eq!((s.score, s.nodes), (score, nodes), "#{number}");
    }
}

#[test]
fn node_counts_depend_on_the_solver_only() {
    check_counts(SolverConfig::default(), PINNED);
}

#[test]
fn the_learned_ordering_changes_the_work_not_the_score() {
    let cheap = SolverConfig {
        features: Features::default().without("learned").unwrap(),
        ..SolverConfig::default()
    };
    check_counts(cheap, CHEAP_ORDERING);
}
