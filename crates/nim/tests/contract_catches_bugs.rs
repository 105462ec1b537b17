//! The contract suite must fail on broken games: each `Buggy<N>` below is the stone game with
//! one deliberate bug, and the suite has to name it. `Buggy<0>` has none and must pass.

use std::fmt;
use std::str::FromStr;

use yomi_core::testing::Contract;
use yomi_core::{reference_playout, Game, MoveList, Outcome, Player, Rng};
use yomi_nim::{Nim, ParseNimError, Take};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
struct Buggy<const BUG: u8>(Nim);

impl<const BUG: u8> fmt::Display for Buggy<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if BUG == 4 && self.0.stones() == 7 {
            write!(f, "{}:first", self.0.stones()) // drops the side: no round trip
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl<const BUG: u8> FromStr for Buggy<BUG> {
    type Err = ParseNimError;
    fn from_str(s: &str) -> Result<Self, ParseNimError> {
        s.parse().map(Buggy)
    }
}

impl<const BUG: u8> Game for Buggy<BUG> {
    type Move = Take;
    type Moves = MoveList<Take, 6>;
    const NAME: &'static str = "buggy";
    const PLAYER_NAMES: [&'static str; 2] = ["first", "second"];

    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }

    fn legal_moves(&self) -> MoveList<Take, 6> {
        let mut list: MoveList<Take, 6> = self.0.legal_moves().into_iter().collect();
        if BUG == 1 && self.0.stones() == 5 {
            list.push(Take::new(1).unwrap()); // a duplicate
        }
        if BUG == 2 && self.0.stones() == 0 {
            list.push(Take::new(1).unwrap()); // a move in a finished game
        }
        if BUG == 6 && self.0.stones() == 0 {
            list.push(Take::new(1).unwrap());
        }
        list
    }

    fn play_unchecked(&self, mv: Take) -> Self {
        Buggy(self.0.play_unchecked(mv))
    }

    fn outcome(&self) -> Option<Outcome> {
        if BUG == 6 {
            return None; // the game never ends: taking from 0 leaves 0
        }
        self.0.outcome()
    }

    fn is_legal(&self, mv: Take) -> bool {
        if BUG == 3 {
            return !self.0.is_over(); // accepts taking more stones than are left
        }
        if BUG == 6 {
            return self.legal_moves().contains(&mv);
        }
        self.0.is_legal(mv)
    }

    fn random_playout(&self, rng: &mut Rng) -> Outcome {
        if BUG == 5 {
            rng.next_u64(); // an extra draw: seeded runs would differ between paths
        }
        reference_playout(self, rng)
    }
}

fn run<const BUG: u8>() {
    let universe: Vec<Take> = (1..=3).map(|n| Take::new(n).unwrap()).collect();
    let mut contract = Contract::<Buggy<BUG>>::new(universe);
    contract.max_plies = 100;
    contract.check_game();
}

#[test]
fn the_correct_game_passes() {
    run::<0>();
}

#[test]
#[should_panic(expected = "duplicate moves")]
fn duplicates_are_caught() {
    run::<1>();
}

#[test]
#[should_panic(expected = "finished position")]
fn moves_after_the_end_are_caught() {
    run::<2>();
}

#[test]
#[should_panic(expected = "is_legal")]
fn a_wrong_legality_check_is_caught() {
    run::<3>();
}

#[test]
#[should_panic(expected = "parses to a different value")]
fn a_broken_notation_is_caught() {
    run::<4>();
}

#[test]
#[should_panic(expected = "random_playout")]
fn a_playout_that_draws_differently_is_caught() {
    run::<5>();
}

#[test]
#[should_panic(expected = "did not end")]
fn a_game_that_never_ends_is_caught() {
    run::<6>();
}
