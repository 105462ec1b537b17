//! What the protocols need from a game: GTP's board sizes, moves and colours, and NBoard's
//! game records (Othello only).

use yomi_core::{Game, Player};
use yomi_nim::Nim;
use yomi_othello::{ggf, Move, Othello, Othello4, Othello6};
use yomi_tictactoe::TicTacToe;

/// A game that the engine protocols can carry.
///
/// GTP names the first player `b` (`black`) and the second `w` (`white`) in every game, sizes
/// the board with `boardsize` and writes moves in the game's own notation (a pass as
/// `pass`). NBoard speaks only Othello: [`EngineGame::nboard_record`] is `None` for the other
/// games.
///
/// # Contract
/// `gtp_start(gtp_size())` is the game's standard start ([`Default`]); parsing what
/// [`EngineGame::gtp_move`] writes gives the move back.
pub trait EngineGame: Game {
    /// The standard size, the one `boardsize` names for the standard start.
    fn gtp_size() -> u32;

    /// The start position for `boardsize size`, or `None` when the game has no such size.
    fn gtp_start(size: u32) -> Option<Self>;

    /// The size of this position's board, for `boardsize` (the stone game: its stones).
    fn gtp_size_of(&self) -> u32 {
        Self::gtp_size()
    }

    /// A move in GTP: the game's notation, `pass` for a pass.
    fn gtp_move(mv: Self::Move) -> String {
        mv.to_string()
    }

    /// Parses a GTP move (`pass` in any case for a pass where the game has one).
    fn parse_gtp_move(text: &str) -> Option<Self::Move> {
        text.parse().ok()
    }

    /// Whether `mv` is a pass.
    fn is_pass(mv: Self::Move) -> bool {
        let _ = mv;
        false
    }

    /// The picture `showboard` prints (no empty lines).
    fn gtp_board(&self) -> String {
        self.to_string()
    }

    /// About how many moves the side to move has left to play, to share a clock among them.
    fn moves_left(&self) -> u32 {
        20
    }

    /// The NBoard `set game` record of a game that starts at this position (no moves), or
    /// `None` for games NBoard does not speak.
    fn nboard_record(&self) -> Option<ggf::Record> {
        None
    }

    /// The GGF record of `moves` played from this position (result from the board when the
    /// game is over), or `None` for games GGF does not hold or a line that is not legal.
    fn ggf_game(&self, moves: &[Self::Move]) -> Option<ggf::Record> {
        let _ = moves;
        None
    }
}

/// Othello on an `N`x`N` board: GTP on every size (`boardsize N` for the diagonal start),
/// written once; the methods in braces are those only some sizes have (NBoard and GGF: 8x8).
macro_rules! othello_board {
    ($board:ty, $n:literal $(, { $($extra:tt)* })?) => {
        impl EngineGame for $board {
            fn gtp_size() -> u32 {
                $n
            }

            fn gtp_start(size: u32) -> Option<$board> {
                (size == $n).then(<$board>::new)
            }

            fn gtp_move(mv: Move) -> String {
                match mv {
                    Move::Pass => "pass".to_string(),
                    Move::Place(sq) => sq.to_string(),
                }
            }

            /// A square of this board or a pass.
            fn parse_gtp_move(text: &str) -> Option<Move> {
                <$board>::parse_move(text).ok()
            }

            fn is_pass(mv: Move) -> bool {
                mv == Move::Pass
            }

            fn gtp_board(&self) -> String {
                self.pretty()
            }

            fn moves_left(&self) -> u32 {
                self.empties().count().div_ceil(2)
            }

            $($($extra)*)?
        }
    };
}

othello_board!(Othello, 8, {
    fn nboard_record(&self) -> Option<ggf::Record> {
        Some(ggf::Record::new(*self))
    }

    fn ggf_game(&self, moves: &[Move]) -> Option<ggf::Record> {
        ggf::Record::from_line(*self, moves).ok()
    }
});
othello_board!(Othello4, 4);
othello_board!(Othello6, 6);

impl EngineGame for TicTacToe {
    fn gtp_size() -> u32 {
        3
    }

    fn gtp_start(size: u32) -> Option<TicTacToe> {
        (size == 3).then(TicTacToe::new)
    }

    fn gtp_board(&self) -> String {
        self.pretty()
    }

    fn moves_left(&self) -> u32 {
        (10 - self.marks()) / 2
    }
}

impl EngineGame for Nim {
    /// The standard pile of 15 stones.
    fn gtp_size() -> u32 {
        Nim::STANDARD_PILE
    }

    /// A pile of `size` stones, the first player to move.
    fn gtp_start(size: u32) -> Option<Nim> {
        Nim::new(size, Player::First).ok()
    }

    fn gtp_size_of(&self) -> u32 {
        self.stones()
    }

    fn moves_left(&self) -> u32 {
        self.stones() / 4 + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn contract<G: EngineGame>() {
        assert_eq!(G::gtp_start(G::gtp_size()), Some(G::default()));
        let pos = G::default();
        for mv in pos.legal_moves() {
            assert_eq!(G::parse_gtp_move(&G::gtp_move(mv)), Some(mv));
        }
        assert!(!G::gtp_board(&pos).contains("\n\n"));
    }

    #[test]
    fn games_keep_the_contract() {
        contract::<Othello>();
        contract::<TicTacToe>();
        contract::<Nim>();
        assert_eq!(Othello::parse_gtp_move("PASS"), Some(Move::Pass));
        assert_eq!(Othello::gtp_move(Move::Pass), "pass");
        assert_eq!(Nim::gtp_start(7).map(|n| n.stones()), Some(7));
        assert_eq!(Othello::gtp_start(10), None);
        assert_eq!(Othello::new().moves_left(), 30);
        let line: Vec<Move> = ["f5", "d6"].iter().map(|m| m.parse().unwrap()).collect();
        let g = Othello::new().ggf_game(&line).unwrap();
        assert_eq!(g.line(), line);
        assert_eq!(Othello::new().ggf_game(&line[1..]), None);
        assert_eq!(TicTacToe::new().ggf_game(&[]), None);
    }
}
