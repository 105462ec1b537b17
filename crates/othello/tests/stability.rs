//! Stable discs: soundness by exhaustive enumeration of every continuation on random positions
//! with few empties, and checks that the bound is not trivially weak.

use yomi_core::{Game, Player, Rng};
use yomi_othello::{stable_discs, Bitboard, Othello};

/// A random position with `empties` empty squares, reached by random play (or `None` if the
/// game ended earlier).
fn random_position(rng: &mut Rng, empties: u32) -> Option<Othello> {
    let mut pos = Othello::new();
    while pos.empties().count() > empties {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    Some(pos)
}

/// Walks every continuation of `pos`; returns the black and white discs that kept their colour
/// in every position met, and counts the nodes.
fn never_flipped(pos: &Othello, black: u64, white: u64, nodes: &mut u64) -> (u64, u64) {
    *nodes += 1;
    let (mut b, mut w) = (black & pos.black().0, white & pos.white().0);
    for mv in pos.legal_moves() {
        let (cb, cw) = never_flipped(&pos.play_unchecked(mv), b, w, nodes);
        b &= cb;
        w &= cw;
    }
    (b, w)
}

#[test]
fn stable_discs_never_flip() {
    let mut rng = Rng::seed_from_u64(17);
    let (mut positions, mut nodes) = (0, 0u64);
    let (mut claimed, mut truly) = (0u64, 0u64);
    while positions < 400 {
        let empties = 4 + (positions % 7) as u32; // 4 to 10
        let Some(pos) = random_position(&mut rng, empties) else {
            continue;
        };
        positions += 1;
        let black = stable_discs(pos.black(), pos.white()).0;
        let white = stable_discs(pos.white(), pos.black()).0;
        assert_eq!(black & !pos.black().0, 0, "stable disc not black at {pos}");
        assert_eq!(white & !pos.white().0, 0, "stable disc not white at {pos}");
        // The discs that never change colour, by enumeration.
        let (b, w) = never_flipped(&pos, pos.black().0, pos.white().0, &mut nodes);
        assert_eq!(
            black & !b,
            0,
            "black discs counted stable but flipped: {:?} at {pos}",
            Bitboard(black & !b)
        );
        assert_eq!(
            white & !w,
            0,
            "white discs counted stable but flipped: {:?} at {pos}",
            Bitboard(white & !w)
        );
        claimed += u64::from((black | white).count_ones());
        truly += u64::from((b | w).count_ones());
    }
    assert!(nodes > 100_000, "{nodes}");
    // The bound is not weak: it finds well over half of the truly stable discs here.
    assert!(claimed * 2 > truly, "claimed {claimed} of {truly}");
}

#[test]
fn stable_sets_grow_along_games() {
    // A disc stable in a position is stable in every later position (the bound is monotone on
    // these games, which the fixed point should give).
    let mut rng = Rng::seed_from_u64(3);
    for _ in 0..300 {
        let mut pos = Othello::new();
        let mut stable = [0u64; 2];
        while !pos.is_over() {
            let now = [
                stable_discs(pos.black(), pos.white()).0,
                stable_discs(pos.white(), pos.black()).0,
            ];
            assert_eq!(stable[0] & !now[0], 0, "black stable disc lost at {pos}");
            assert_eq!(stable[1] & !now[1], 0, "white stable disc lost at {pos}");
            stable = now;
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        // At the end of a game on a full board, every disc is stable.
        if pos.empties().is_empty() {
            assert_eq!(stable_discs(pos.black(), pos.white()), pos.black());
            assert_eq!(stable_discs(pos.white(), pos.black()), pos.white());
        }
    }
}

#[test]
fn known_stable_counts() {
    let p = |s: &str| s.parse::<Othello>().unwrap();
    let both = |pos: &Othello| {
        [
            stable_discs(pos.black(), pos.white()).count(),
            stable_discs(pos.white(), pos.black()).count(),
        ]
    };
    // A full board: everything is stable.
    let full = p(&format!("{} X", "XXOO".repeat(16)));
    assert_eq!(both(&full), [32, 32]);
    // Lone corners are stable, other lone discs not.
    let corners = p(&format!("X------O{}O------X X", "-".repeat(48)));
    assert_eq!(both(&corners), [2, 2]);
    let middle = p(&format!("{}XO{} X", "-".repeat(27), "-".repeat(35)));
    assert_eq!(both(&middle), [0, 0]);
    // The start position has no stable disc.
    assert_eq!(both(&Othello::new()), [0, 0]);
    // A filled first row is stable.
    let row = p(&format!("XXXXXXXX{} X", "-".repeat(56)));
    assert_eq!(both(&row), [8, 0]);
    // Black owns a 3x3 block in the a1 corner: the triangle a1 b1 c1 a2 b2 a3 is stable, but
    // c2 and b3 are not (white could take a4 and then d1, flipping both on that diagonal), and
    // c3 is not either.
    let block = p(&format!("XXX-----XXX-----XXX-----{} X", "-".repeat(40)));
    assert_eq!(both(&block), [6, 0]);
    // A triangle in the corner: a1 b1 c1 a2 b2 a3 is stable, but a lone b2 is not.
    let tri = p(&format!("XXX-----XX------X-------{} X", "-".repeat(40)));
    assert_eq!(both(&tri), [6, 0]);
    let lone_b2 = p(&format!("---------X------{} X", "-".repeat(48)));
    assert_eq!(both(&lone_b2), [0, 0]);
    // A full row in the middle with empties above and below: the discs are not stable
    // (vertical and diagonal lines are open).
    let mid_row = p(&format!("{}XXXXXXXX{} X", "-".repeat(24), "-".repeat(32)));
    assert_eq!(both(&mid_row), [0, 0]);
    // Colours never mix up: stable discs are the player's own.
    assert_eq!(
        stable_discs(Bitboard::FULL, Bitboard::EMPTY),
        Bitboard::FULL
    );
    assert_eq!(
        stable_discs(Bitboard::EMPTY, Bitboard::FULL),
        Bitboard::EMPTY
    );
    assert_eq!(Othello::new().side_to_move(), Player::First);
}
