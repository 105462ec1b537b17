//! The tree-reading agents in the zoo: `perfect` never loses, `table` agrees with the tree,
//! bad specs are typed errors.

use std::ops::ControlFlow;

use yomi_arena::{play_match, MatchConfig, MatchResult};
use yomi_core::{Agent, Game, Rng};
use yomi_nim::Nim;
use yomi_tictactoe::TicTacToe;

use crate::{BuildAgentError, Zoo};

fn play<G: Zoo>(a: &str, b: &str, rounds: u64) -> MatchResult {
    let zoo = G::zoo();
    let config = MatchConfig {
        rounds,
        seed: 7,
        threads: None,
    };
    play_match(
        &G::default(),
        &config,
        || zoo.build(a).unwrap(),
        || zoo.build(b).unwrap(),
        |_| ControlFlow::Continue(()),
    )
    .unwrap()
}

/// Every agent of the zoo that builds from its bare name (all but `table`, which needs a file).
fn bare_agents<G: Zoo>() -> Vec<&'static str> {
    G::zoo()
        .infos()
        .filter(|i| i.builds_bare())
        .map(|i| i.name)
        .collect()
}

#[test]
fn perfect_never_loses_a_10000_round_match_against_any_tictactoe_agent() {
    let agents = bare_agents::<TicTacToe>();
    assert!(agents.len() > 25, "{agents:?}");
    for opponent in agents {
        let r = play::<TicTacToe>("perfect", opponent, 10_000);
        assert_eq!(
            r.a_first.lose + r.a_second.lose,
            0,
            "perfect lost to {opponent}"
        );
        assert_eq!(r.total().games(), 20_000);
    }
}

/// 15 stones is won for the first player, so `perfect` wins every game it starts. As second
/// player it starts from a lost position and wins only when the opponent errs: never against
/// another exact agent.
#[test]
fn perfect_wins_every_stone_game_it_starts() {
    for opponent in bare_agents::<Nim>() {
        let r = play::<Nim>("perfect", opponent, 1_000);
        assert_eq!(
            r.a_first.win, 1_000,
            "perfect as first player against {opponent}"
        );
    }
    for exact in ["perfect", "perfect-sv", "alphabeta", "minimax"] {
        let r = play::<Nim>("perfect", exact, 1_000);
        assert_eq!(
            r.a_second.lose, 1_000,
            "perfect as second player against {exact}"
        );
    }
}

#[test]
fn table_reads_the_committed_data_file_and_agrees_with_perfect() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tictactoe.tree");
    let zoo = TicTacToe::zoo();
    let mut table = zoo.build(&format!("table:file=({file})")).unwrap();
    let mut perfect = zoo.build("perfect").unwrap();
    let mut sv_table = zoo
        .build(&format!("table:file=({file}),scoring=sv"))
        .unwrap();
    let mut sv = zoo.build("perfect-sv").unwrap();
    let mut rng = Rng::seed_from_u64(3);
    for game in 0..200 {
        let mut pos = TicTacToe::default();
        while !pos.is_over() {
            let mut r = Rng::seed_from_u64(game);
            let t = table.explain(&pos, &mut r).unwrap();
            let p = perfect.explain(&pos, &mut r).unwrap();
            assert_eq!(t.best, p.best, "at {pos}");
            let ts = sv_table.explain(&pos, &mut r).unwrap();
            let s = sv.explain(&pos, &mut r).unwrap();
            assert_eq!(ts.best, s.best, "at {pos}");
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn tree_agent_specs_are_checked() {
    let zoo = TicTacToe::zoo();
    assert!(matches!(
        zoo.build("table"),
        Err(BuildAgentError::BadValue { ref param, .. }) if param == "file"
    ));
    assert!(matches!(
        zoo.build("table:file=/nonexistent/yomi.tree"),
        Err(BuildAgentError::Data { .. })
    ));
    assert!(matches!(
        zoo.build("table:file=x,scoring=best"),
        Err(BuildAgentError::BadValue { ref param, .. }) if param == "scoring"
    ));
    for alpha in ["lots", "2", "5/4", "-1"] {
        assert!(
            matches!(
                zoo.build(&format!("pmc2-exact:alpha={alpha}")),
                Err(BuildAgentError::BadValue { ref param, .. }) if param == "alpha"
            ),
            "{alpha}"
        );
    }
    assert!(matches!(
        zoo.build("pmc2-exact:alpha=lots"),
        Err(BuildAgentError::BadValue { ref param, .. }) if param == "alpha"
    ));
    // A stone-game file is a foreign file for tic-tac-toe.
    let nim = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/nim15.tree");
    assert!(matches!(
        zoo.build(&format!("table:file=({nim})")),
        Err(BuildAgentError::Data { .. })
    ));
    let agent = zoo.build("pmc2-exact:alpha=0.25").unwrap();
    assert_eq!(agent.spec(), "pmc2-exact:alpha=1/4");
    assert!(!zoo.info("table").unwrap().builds_bare());
    assert!(zoo.info("perfect").unwrap().builds_bare());
}
