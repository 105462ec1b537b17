use std::error::Error;
use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::ops::Deref;
use std::str::FromStr;

use crate::{Outcome, PlayError, Player, Rng};

/// The rules of a two-player, turn-based, perfect-information game, as a position type.
///
/// A value of the type is one position, including whose turn it is. Positions are small values
/// that are copied to play a move ("copy-make"): [`Game::play_unchecked`] returns the child and
/// leaves `self` alone.
///
/// # Contract
/// Implementations must keep these laws; the contract suite (`yomi_core::testing`, behind the
/// `testing` feature) checks them on random playouts.
/// - [`Default`] is the game's standard start position.
/// - [`Game::legal_moves`] of a **finished** position ([`Game::outcome`] is `Some`) is empty.
/// - An **unfinished** position has at least one legal move. A player who cannot place anything
///   in an unfinished game has exactly one legal move, an explicit *pass* move of the game's move
///   type, and passing counts as a ply (Othello needs this; games without passes never meet it).
/// - Legal moves contain no duplicates, and their order is deterministic (the game's own
///   "natural" order, used by agents such as `first`).
/// - [`Game::is_legal`] agrees with membership in [`Game::legal_moves`];
///   [`Game::play`] succeeds exactly for legal moves and agrees with [`Game::play_unchecked`].
/// - Every game ends: any sequence of legal moves reaches a finished position.
/// - `Display` and `FromStr` are the game's notation for positions (and for moves on
///   [`Game::Move`]): parsing what was printed gives back an equal value.
/// - Values such as scores are seen from the side of the player named in each method's doc.
pub trait Game:
    Clone
    + Eq
    + Hash
    + Debug
    + Display
    + FromStr<Err: Error + Send + Sync + 'static>
    + Default
    + Send
    + Sync
    + 'static
{
    /// A move, including the pass move where the game has one.
    type Move: Copy
        + Eq
        + Ord
        + Hash
        + Debug
        + Display
        + FromStr<Err: Error + Send + Sync + 'static>
        + Default
        + Send
        + Sync
        + 'static;

    /// The list [`Game::legal_moves`] returns: a fixed-capacity list such as
    /// [`MoveList`](crate::MoveList), whose bound the game states.
    type Moves: Deref<Target = [Self::Move]> + IntoIterator<Item = Self::Move> + Clone + Debug;

    /// A short identifier such as `"tictactoe"`, used in file headers and on the command line.
    const NAME: &'static str;

    /// Display names of the first and second player (e.g. `["o", "x"]`).
    const PLAYER_NAMES: [&'static str; 2];

    /// The player whose turn it is. For a finished position, the player who would be next.
    fn side_to_move(&self) -> Player;

    /// The legal moves in the game's natural order; empty exactly when the game is over.
    fn legal_moves(&self) -> Self::Moves;

    /// How much of the game is left, in the game's own unit, for statistics that group moves
    /// by phase (a match's time per move, an agent's kinds of move): Othello's empty squares,
    /// the stones left in the stone game, tic-tac-toe's empty cells. `None` (the provided
    /// version) for a game without such a measure.
    fn phase(&self) -> Option<u32> {
        None
    }

    /// The position after `mv`, which must be one of [`Game::legal_moves`] of `self`.
    ///
    /// Fast path for moves just generated. Passing any other move is a logic error: the result
    /// is unspecified (but memory-safe), and the method may panic. Use [`Game::play`] for moves
    /// that come from outside.
    #[must_use]
    fn play_unchecked(&self, mv: Self::Move) -> Self;

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether `mv` is legal here. Games should override this with a direct check so that the
    /// contract suite can compare it with the generated moves.
    fn is_legal(&self, mv: Self::Move) -> bool {
        self.legal_moves().contains(&mv)
    }

    /// The position after `mv`, checked.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] when the game has ended, [`PlayError::IllegalMove`] when `mv` is
    /// not legal here.
    fn play(&self, mv: Self::Move) -> Result<Self, PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver {
                mv: mv.to_string(),
                position: self.to_string(),
            });
        }
        if !self.is_legal(mv) {
            return Err(PlayError::IllegalMove {
                mv: mv.to_string(),
                position: self.to_string(),
            });
        }
        Ok(self.play_unchecked(mv))
    }

    /// Whether the game has ended. /* FINAL: derived from `outcome` */
    #[inline]
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// Plays uniformly random legal moves to the end and returns the outcome.
    ///
    /// The provided version draws `rng.below(n)` once per ply, indexing the `n` legal moves in
    /// their natural order. Games may override it with a faster version, but it must consume the
    /// generator in exactly the same way and return the same outcome for the same generator
    /// state (the contract suite checks this), so that seeded runs do not depend on the path.
    fn random_playout(&self, rng: &mut Rng) -> Outcome {
        reference_playout(self, rng)
    }

    /// Parses and plays a sequence of moves separated by white space, checking each.
    ///
    /// # Errors
    /// [`PlayError::BadMove`] when a move does not parse, or the errors of [`Game::play`].
    fn play_line(&self, line: &str) -> Result<Self, PlayError> {
        let mut pos = self.clone();
        for word in line.split_whitespace() {
            let mv: Self::Move = word.parse().map_err(|e| PlayError::BadMove {
                text: word.to_string(),
                reason: format!("{e}"),
            })?;
            pos = pos.play(mv)?;
        }
        Ok(pos)
    }
}

/// A game whose board has symmetries (rotations, reflections) that map positions to equivalent
/// positions.
///
/// Symmetries are numbered `0..SYMMETRIES`, with `0` the identity.
///
/// # Contract
/// For every symmetry `s` and position `p`: `p.transform(s).transform(Self::inverse(s)) == p`;
/// the legal moves of `p.transform(s)` are the images of the legal moves of `p`; playing commutes
/// (`p.play(m).transform(s) == p.transform(s).play(Self::transform_move(m, s))`); outcomes are
/// equal; and [`Symmetric::canonical_key`] is equal for `p` and `q` whenever `q` is an image of
/// `p`. Games whose positions fit in 64 bits (tic-tac-toe) make the key exact: equal only for
/// images. Larger games (Othello) may use a 64-bit hash of the least image, which can collide
/// for unrelated positions with the probability of a hash collision; each game documents which.
pub trait Symmetric: Game {
    /// The number of symmetries, identity included (8 for square boards).
    const SYMMETRIES: usize;

    /// The image of this position under symmetry `sym`.
    ///
    /// # Panics
    /// May panic if `sym >= SYMMETRIES`.
    #[must_use]
    fn transform(&self, sym: usize) -> Self;

    /// The image of a move under symmetry `sym`.
    ///
    /// # Panics
    /// May panic if `sym >= SYMMETRIES`.
    fn transform_move(mv: Self::Move, sym: usize) -> Self::Move;

    /// The symmetry that undoes `sym`.
    fn inverse(sym: usize) -> usize;

    /// A key shared by the positions that are images of each other (exact or a hash: see the
    /// trait's contract).
    fn canonical_key(&self) -> u64;
}

/// A 64-bit hash of a position for transposition tables.
///
/// # Contract
/// Equal positions have equal keys. Different positions should rarely collide; a game says in
/// its docs whether its key is collision-free (tic-tac-toe's is, Othello's Zobrist key is not).
pub trait HashKey: Game {
    /// The key of this position.
    fn hash_key(&self) -> u64;
}

/// A game with a numeric final score, such as Othello's disc difference.
pub trait FinalScore: Game {
    /// The final score from the **first** player's side (positive: the first player won by that
    /// much), or `None` while the game goes on. Its sign agrees with [`Game::outcome`].
    fn final_score(&self) -> Option<i32>;
}

/// A game's default evaluation for searches that stop before the end.
///
/// This is the game's own plain measure (tic-tac-toe and the stone game have none and return 0;
/// Othello returns the disc difference); tuned evaluations belong to the agents.
pub trait LeafEval: Game {
    /// The evaluation of an unfinished position from the side of the **player to move**.
    fn leaf_eval(&self) -> f64;
}

/// The reference random playout: from `pos`, draw `rng.below(n)` over the `n` legal moves in
/// their natural order, play it, and repeat until the game ends.
///
/// This is what [`Game::random_playout`] does unless a game overrides it, and what an override
/// must match draw for draw; tests and benches compare against it.
pub fn reference_playout<G: Game>(pos: &G, rng: &mut Rng) -> Outcome {
    let mut pos = pos.clone();
    loop {
        if let Some(outcome) = pos.outcome() {
            return outcome;
        }
        let moves = pos.legal_moves();
        let mv = moves[rng.below(moves.len())];
        pos = pos.play_unchecked(mv);
    }
}
