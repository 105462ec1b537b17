//! The two compiled copies of the midgame search (see `MidgameSearch::with_cpu`), each with
//! the matching copy of the learned evaluation, chosen through the CPU layer's one token
//! (`yomi_othello::cpu`): the portable ones run when asked for, and both search exactly the
//! same tree — same values, moves and node counts — on positions of random games.

use std::sync::Arc;

use yomi_core::testing::random_game_positions;
use yomi_core::Rng;
use yomi_othello::cpu::{Cpu, X86v3};
use yomi_othello::Othello;
use yomi_othello_search::{HandEval, MidgameLimits, MidgameSearch, Weights};

#[test]
fn portable_is_chosen_when_asked_and_the_default_follows_the_cpu() {
    let w = Weights::builtin();
    // The search follows the CPU layer; the evaluation too, except where `pext` is slow.
    let want = X86v3::detect().map_or(Cpu::Portable, Cpu::X86v3);
    let want_eval = X86v3::detect()
        .filter(|t| t.fast_pext())
        .map_or(Cpu::Portable, Cpu::X86v3);
    assert_eq!(w.cpu(), want_eval);
    assert_eq!(MidgameSearch::new(1, w.clone()).cpu(), want);
    let portable = MidgameSearch::with_cpu(1, w.clone(), Cpu::Portable);
    assert_eq!(portable.cpu(), Cpu::Portable);
    assert_eq!(portable.cpu().to_string(), "portable");
    assert_eq!((*w).clone().with_cpu(Cpu::Portable).cpu(), Cpu::Portable);
}

#[test]
fn both_copies_search_the_same_tree() {
    let learned = Weights::builtin();
    let portable_learned = Arc::new((*learned).clone().with_cpu(Cpu::Portable));
    let pairs = [
        (
            MidgameSearch::new(2, learned),
            MidgameSearch::with_cpu(2, portable_learned, Cpu::Portable),
        ),
        (
            MidgameSearch::new(2, Arc::new(HandEval)),
            MidgameSearch::with_cpu(2, Arc::new(HandEval), Cpu::Portable),
        ),
    ];
    let positions: Vec<Othello> =
        random_game_positions(&Othello::new(), 3, &mut Rng::seed_from_u64(31));
    let mut nodes = 0;
    for (mut fast, mut portable) in pairs {
        for (k, pos) in positions.iter().enumerate() {
            let depth = if k % 4 == 0 { 6 } else { 4 };
            let limits = MidgameLimits { depth, time: None };
            let (a, b) = (fast.search(pos, limits), portable.search(pos, limits));
            assert_eq!(a.scores, b.scores, "depth {depth} at {pos}");
            assert_eq!(
                (a.depth, a.exact, a.nodes),
                (b.depth, b.exact, b.nodes),
                "{pos}"
            );
            nodes += a.nodes;
        }
    }
    assert!(nodes > 100_000, "{nodes}");
}
