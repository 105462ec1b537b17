//! Othello on 64-bit bitboards for yomi, on the 8x8 board and the small 4x4 and 6x6 boards:
//! move generation, flips, mobility, passes, notation, Zobrist hashing, the 8 symmetries,
//! stable discs and a fast perft.
//!
//! # Design
//! - **One board for every size.** [`Board<N>`](Board) plays on an `N`x`N` board (`N` is 4, 6
//!   or 8): [`Othello`] is `Board<8>`, [`Othello4`] and [`Othello6`] the small boards. Every
//!   size uses the 8x8 bitboards, the `N`x`N` board in their top-left corner (so squares keep
//!   their 8x8 names and indices) with a constant mask of playable squares, all ones on 8x8, so
//!   the 8x8 board runs the same code as before the mask. Moves ([`Move`], [`Square`]), the
//!   notation, the symmetries and the stable discs are the same for every size.
//! - **Two masks and a side.** A board holds the discs of the side to move, the discs of
//!   the opponent (each a [`Bitboard`]: bit `row * 8 + col`, `a1` = bit 0, `h8` = bit 63) and
//!   which colour moves. Black moves first ([`Player::First`](yomi_core::Player::First)).
//!   Playing a move swaps the masks, so move generation never asks whose turn it is.
//! - **Branch-free move generation.** [`moves`] fills from the mover's discs through opponent
//!   discs in all 8 directions with shifts (a doubling "Kogge-Stone" fill, 4 steps per
//!   direction), masking columns `a`/`h` so nothing wraps around a row. [`flips`] looks up the
//!   ray of each direction from the square and finds the first non-opponent square with one
//!   bit trick per direction.
//! - **Passes are moves.** When the side to move has no square but the opponent has one, the
//!   only legal move is [`Move::Pass`]; when neither has one the game is over. The final score
//!   ([`FinalScore`](yomi_core::FinalScore)) is black's disc difference with the empty squares
//!   given to the winner, the convention of the FFO endgame suite; the default leaf evaluation
//!   ([`LeafEval`](yomi_core::LeafEval)) is the plain disc difference of the side to move.
//! - **Stable discs** ([`stable_discs`]) are a lower bound that is never too high: exhaustive
//!   edge tables (all 3^8 edge configurations, built once on first use), full lines, and
//!   protection by stable neighbours iterated to a fixed point.
//! - **Hashing.** [`HashKey`](yomi_core::HashKey) is a Zobrist key ([`zobrist`]) from fixed
//!   constants; [`Symmetric`](yomi_core::Symmetric) gives the 8 symmetries
//!   ([`transform_bitboard`]) and the least key over them as the canonical key, a 64-bit hash
//!   (unrelated positions collide with probability about `2^-64` per pair);
//!   [`Othello::canonical`] is the exact canonical image.
//! - **perft** ([`perft()`]) counts with the standard convention (a pass is a ply, a game that
//!   ends early is one leaf) and bulk-counts the last ply.
//! - **The CPU layer** ([`cpu`]): the hot code of the workspace (perft here, the searches and
//!   the evaluation above) is compiled twice, portably and for the x86-64-v3 features (AVX2,
//!   BMI1/2, POPCNT, LZCNT); [`cpu::Cpu`] says which copy runs, detected once per process
//!   (`YOMI_PORTABLE=1` forces the portable one), and its [`cpu::X86v3`] token is the one
//!   safety argument for entering the fast copies. The AVX2 move generator and flips
//!   ([`cpu::moves_x86v3`], [`cpu::flips_x86v3`]) live next to the portable ones. The crate's
//!   `unsafe` code is the call into perft's fast copy (and a unit test); [`perft_with`] runs
//!   either copy, and the tests check they agree.
//!
//! - **Small boards.** The masked generator is exact on them: a line of flips never leaves the
//!   board, since both its ends lie on it. The endgame solver of `yomi-othello-search` solves
//!   every size exactly.
//!
//! # Notation
//! - Square: `a1`..`h8`, the letter the column from the left, the digit the row from the top
//!   (either case on input).
//! - Move: a square, or `PA` for a pass (`pass` accepted, any case).
//! - Position ([`Board`]'s `Display`/`FromStr`): `N * N` characters for `a1`, `b1`, ..., row
//!   by row (64 on 8x8, up to `h8`; `X` black, `O` white, `-` empty; `x`, `*`, `o`, `.`
//!   accepted), white space, and the side to move (`X` or `O`; `B`, `*` and `W` accepted); the
//!   words `diagonal` and `parallel` name the two [`Start`] positions. The 4x4 starts are
//!   `-----OX--XO----- X` (diagonal) and `-----OO--XX----- X` (parallel).
//! - [`ObfPosition`]: a line of an OBF file, `board side; G8:+18; H1:+12; % comment`.
//! - [`MoveSequence`]: moves without separators, `f5d6c3d3`.
//! - [`ggf::Record`]: a game record in GGF, the format of the GGS server, NBoard and Edax
//!   (players, result, time, start board, moves with evaluations); [`ggf::parse_file`] reads a
//!   file of them. The GGF names live in the [`ggf`] namespace.
//! - [`wthor`]: the WTHOR archive of the Fédération Française d'Othello, binary files of games
//!   ([`wthor::GameFile`]), players and tournaments ([`wthor::NameFile`]), read and written.
//!
//! # Example
//! ```
//! use yomi_core::{FinalScore, Game, Player};
//! use yomi_othello::{perft, stable_discs, Move, MoveSequence, Othello, Square};
//!
//! let start = Othello::new();
//! let moves: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["d3", "c4", "f5", "e6"]);
//! assert_eq!(perft(&start, 6), 8_200);
//!
//! let pos = "f5d6c3d3c4".parse::<MoveSequence>()?.play_from(&start)?;
//! assert_eq!(pos.side_to_move(), Player::Second);
//! let f4: Square = "f4".parse()?;
//! assert_eq!(pos.flips(f4).count(), 1);
//! assert_eq!(pos.to_string().parse::<Othello>()?, pos);
//!
//! // A full board: every disc is stable and the game is over.
//! let full: Othello = format!("{} X", "XO".repeat(32)).parse()?;
//! assert_eq!(stable_discs(full.player(), full.opponent()).count(), 32);
//! assert_eq!(full.final_score(), Some(0));
//! assert_eq!("pass".parse::<Move>()?, Move::Pass);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod bitboard;
pub mod cpu;
pub mod ggf;
mod movegen;
#[cfg(target_arch = "x86_64")]
mod movegen_v3;
mod notation;
mod perft;
mod position;
mod square;
mod stable;
mod symmetry;
pub mod wthor;

pub use bitboard::{Bitboard, BitboardIter};
// `bitboard!` is exported at the crate root by `#[macro_export]`.
pub use movegen::{flips, mobility, moves, potential_mobility, potential_moves};
pub use notation::{
    MoveSequence, ObfPosition, ParseBoardError, ParseMoveSequenceError, ParseObfError,
    PlaySequenceError,
};
pub use perft::{perft, perft_with};
pub use position::{Board, DiscsError, Move, Othello, Othello4, Othello6, ParseMoveError, Start};
pub use square::{ParseSquareError, Square};
pub use stable::stable_discs;
pub use symmetry::{transform_bitboard, zobrist};
