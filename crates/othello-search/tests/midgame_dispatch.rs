//! The two compiled copies of the midgame search (see `MidgameSearch::with_dispatch`), each
//! with the matching copy of the learned evaluation: the portable ones are chosen when asked
//! for, and both search exactly the same tree — same values, moves and node counts — on
//! positions of random games.

use std::sync::Arc;

use yomi_core::testing::random_game_positions;
use yomi_core::Rng;
use yomi_othello::Othello;
use yomi_othello_search::{Dispatch, HandEval, MidgameLimits, MidgameSearch, Weights};

/// Whether this CPU runs the fast copies (the test then compares two different copies).
fn fast_expected() -> bool {
    let forced = std::env::var_os(yomi_othello_search::PORTABLE_ENV)
        .is_some_and(|v| !v.is_empty() && v != "0");
    yomi_othello::perft_uses_simd() && !forced
}

#[test]
fn portable_is_chosen_when_asked_and_auto_follows_the_cpu() {
    let w = Weights::builtin();
    let want = if fast_expected() {
        "x86-64-v3"
    } else {
        "portable"
    };
    assert_eq!(w.kernel(), want);
    assert_eq!(MidgameSearch::new(1, w.clone()).kernel(), want);
    let portable = MidgameSearch::with_dispatch(1, w.clone(), Dispatch::Portable);
    assert_eq!(portable.kernel(), "portable");
    assert_eq!((*w).clone().into_portable().kernel(), "portable");
}

#[test]
fn both_copies_search_the_same_tree() {
    let learned = Weights::builtin();
    let portable_learned = Arc::new((*learned).clone().into_portable());
    let pairs = [
        (
            MidgameSearch::new(2, learned),
            MidgameSearch::with_dispatch(2, portable_learned, Dispatch::Portable),
        ),
        (
            MidgameSearch::new(2, Arc::new(HandEval)),
            MidgameSearch::with_dispatch(2, Arc::new(HandEval), Dispatch::Portable),
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
