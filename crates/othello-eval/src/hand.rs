//! A hand-made static evaluation of Othello positions (the one the `othello` agent used before
//! the learned one, kept to compare against and as `othello:eval=hand`).

use yomi_othello::{mobility, potential_mobility, stable_discs, Bitboard, Othello};

use crate::{Evaluator, EVAL_LIMIT};

/// The four corners.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The X-squares (`b2`, `g2`, `b7`, `g7`) and the corner each touches diagonally.
const X_SQUARES: [(u64, u64); 4] = [
    (1 << 9, 1),
    (1 << 14, 1 << 7),
    (1 << 49, 1 << 56),
    (1 << 54, 1 << 63),
];

/// The C-squares, the two edge squares next to each corner, with that corner.
const C_SQUARES: [(u64, u64); 4] = [
    (1 << 1 | 1 << 8, 1),
    (1 << 6 | 1 << 15, 1 << 7),
    (1 << 48 | 1 << 57, 1 << 56),
    (1 << 55 | 1 << 62, 1 << 63),
];

/// A weight that moves linearly from its value at 60 empty squares (the opening) to its value
/// at 0 (the end of the game).
#[derive(Clone, Copy)]
struct Phased {
    opening: i32,
    end: i32,
}

impl Phased {
    /// The weight at `empties` empty squares (0 to 64; above 60 counts as 60).
    #[inline]
    fn at(self, empties: i32) -> i32 {
        let e = empties.min(60);
        (self.opening * e + self.end * (60 - e)) / 60
    }
}

/// Per move of mobility difference.
const W_MOBILITY: Phased = Phased {
    opening: 70,
    end: 40,
};
/// Per square of potential-mobility difference.
const W_POTENTIAL: Phased = Phased {
    opening: 25,
    end: 10,
};
/// Per corner difference.
const W_CORNER: Phased = Phased {
    opening: 800,
    end: 400,
};
/// Per X-square next to an empty corner (a penalty for its owner).
const W_X_SQUARE: Phased = Phased {
    opening: -300,
    end: -100,
};
/// Per C-square next to an empty corner (a penalty for its owner).
const W_C_SQUARE: Phased = Phased {
    opening: -100,
    end: -30,
};
/// Per stable disc difference.
const W_STABLE: Phased = Phased {
    opening: 120,
    end: 120,
};
/// Per disc difference.
const W_DISCS: Phased = Phased {
    opening: -5,
    end: 30,
};
/// For the side to move when the number of empty squares is odd (minus when it is even).
const W_PARITY: Phased = Phased {
    opening: 0,
    end: 60,
};

/// The static evaluation of `pos` from the side to move: positive is good for the player to
/// move. The unit is about a hundredth of a disc (a corner is worth 4 to 8 discs); the result
/// lies in `-EVAL_LIMIT..=EVAL_LIMIT`. [`HandEval`] is the same as an [`Evaluator`].
///
/// It sums eight terms, each a difference "mover minus opponent" times an integer weight. Every
/// weight moves linearly from its opening value (60 empty squares) to its end value (0 empty
/// squares), `w = (opening * e + end * (60 - e)) / 60` with `e` the empty squares:
///
/// | term | what is counted | opening | end |
/// |---|---|---|---|
/// | mobility | legal moves ([`mobility`]) | 70 | 40 |
/// | potential mobility | empty squares next to the other side's discs ([`potential_mobility`]) | 25 | 10 |
/// | corners | corners held | 800 | 400 |
/// | X-squares | `b2`, `g2`, `b7`, `g7` held while the corner next to them is empty | -300 | -100 |
/// | C-squares | edge squares next to an empty corner held | -100 | -30 |
/// | stable discs | [`stable_discs`] (counted only once a corner is taken; before that hardly any disc is stable, and the count is skipped) | 120 | 120 |
/// | discs | disc count | -5 | 30 |
/// | parity | +1 for the mover when the number of empty squares is odd (it should get the last move), -1 when even | 0 | 60 |
///
/// The weights are hand-set (not tuned on data); `docs/agents.md` records how the `othello`
/// agent plays with them. The function does not allocate.
///
/// ```
/// use yomi_othello_eval::hand_evaluate;
/// use yomi_othello::Othello;
/// // The start position is symmetric: both sides have 4 moves and the same discs.
/// assert_eq!(hand_evaluate(&Othello::new()), 0);
/// ```
#[must_use]
pub fn hand_evaluate(pos: &Othello) -> i32 {
    evaluate_sides(pos.player(), pos.opponent())
}

/// The hand-made evaluation ([`hand_evaluate`]) as an [`Evaluator`] (named `hand`).
///
/// ```
/// use yomi_othello::Othello;
/// use yomi_othello_eval::{hand_evaluate, Evaluator, HandEval};
/// let pos = Othello::new();
/// assert_eq!(HandEval.evaluate(pos.player().0, pos.opponent().0), hand_evaluate(&pos));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HandEval;

impl Evaluator for HandEval {
    #[inline]
    fn evaluate(&self, p: u64, o: u64) -> i32 {
        evaluate_sides(Bitboard(p), Bitboard(o))
    }

    fn name(&self) -> &'static str {
        "hand"
    }
}

/// [`hand_evaluate`] for the side with discs `p` to move against `o` (disjoint).
#[inline]
fn evaluate_sides(p: Bitboard, o: Bitboard) -> i32 {
    let empty = !(p.bits() | o.bits());
    let e = count(empty);

    let mob = mobility(p, o) as i32 - mobility(o, p) as i32;
    let pot = potential_mobility(p, o) as i32 - potential_mobility(o, p) as i32;
    let corners = count(p.bits() & CORNERS) - count(o.bits() & CORNERS);
    let mut x = 0;
    for (sq, corner) in X_SQUARES {
        if empty & corner != 0 {
            x += count(p.bits() & sq) - count(o.bits() & sq);
        }
    }
    let mut c = 0;
    for (sqs, corner) in C_SQUARES {
        if empty & corner != 0 {
            c += count(p.bits() & sqs) - count(o.bits() & sqs);
        }
    }
    let stable = if (p.bits() | o.bits()) & CORNERS != 0 {
        stable_discs(p, o).count() as i32 - stable_discs(o, p).count() as i32
    } else {
        0
    };
    let discs = count(p.bits()) - count(o.bits());
    let parity = if e % 2 == 1 { 1 } else { -1 };

    let total = W_MOBILITY.at(e) * mob
        + W_POTENTIAL.at(e) * pot
        + W_CORNER.at(e) * corners
        + W_X_SQUARE.at(e) * x
        + W_C_SQUARE.at(e) * c
        + W_STABLE.at(e) * stable
        + W_DISCS.at(e) * discs
        + W_PARITY.at(e) * parity;
    total.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[inline]
fn count(bits: u64) -> i32 {
    Bitboard(bits).count() as i32
}
