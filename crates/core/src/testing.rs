//! The contract suite that every game crate runs in its tests (feature `testing`).
//!
//! It walks random playouts from the given start positions and checks the laws written on
//! [`Game`] and [`Symmetric`] at every position met. Failures panic with a message naming the
//! position, as test assertions do.

use std::collections::HashSet;
use std::fmt::Debug;

use crate::{reference_playout, Game, Rng, Symmetric};

/// Every position of `games` uniformly random games from `start`, in order, the finished
/// position of each game included: the sample that tests and benches of a game walk.
///
/// Each ply draws one `below(n)` from `rng` over the legal moves, as the random playouts do.
#[must_use]
pub fn random_game_positions<G: Game>(start: &G, games: usize, rng: &mut Rng) -> Vec<G> {
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = start.clone();
        loop {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    out
}

/// The moves of one uniformly random game from `start` to its end: the game that
/// [`random_game_positions`] walks for one game with the same `rng` (one `below(n)` a ply).
#[must_use]
pub fn random_game_line<G: Game>(start: &G, rng: &mut Rng) -> Vec<G::Move> {
    let mut pos = start.clone();
    let mut line = Vec::new();
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return line;
        }
        let mv = moves[rng.below(moves.len())];
        line.push(mv);
        pos = pos.play_unchecked(mv);
    }
}

/// Settings of a contract run.
#[derive(Clone, Debug)]
pub struct Contract<G: Game> {
    /// Positions to start playouts from (besides `G::default()`, which is always used).
    pub starts: Vec<G>,
    /// Every move that could ever be legal in the game (e.g. all squares, and the pass):
    /// each is checked with [`Game::is_legal`] and [`Game::play`] against the generated list.
    pub universe: Vec<G::Move>,
    /// Playouts per start position.
    pub playouts: usize,
    /// A playout longer than this fails the "every game ends" law.
    pub max_plies: usize,
    /// Seed of the playouts.
    pub seed: u64,
}

impl<G: Game> Contract<G> {
    /// A run from the default start position with the given move universe.
    pub fn new(universe: Vec<G::Move>) -> Self {
        Contract {
            starts: Vec::new(),
            universe,
            playouts: 200,
            max_plies: 1_000,
            seed: 0x5EED,
        }
    }

    /// Every position of the random playouts, in order (duplicates kept).
    ///
    /// # Panics
    /// If a playout does not end within `max_plies` ("every game ends").
    fn positions(&self) -> Vec<G> {
        let mut rng = Rng::seed_from_u64(self.seed);
        let mut starts = vec![G::default()];
        starts.extend(self.starts.iter().cloned());
        let mut out = Vec::new();
        for start in &starts {
            for _ in 0..self.playouts {
                let mut pos = start.clone();
                let mut plies = 0;
                loop {
                    out.push(pos.clone());
                    if pos.is_over() {
                        break;
                    }
                    plies += 1;
                    assert!(
                        plies <= self.max_plies,
                        "playout from {start} did not end within {} plies",
                        self.max_plies
                    );
                    let moves = pos.legal_moves();
                    pos = pos.play_unchecked(moves[rng.below(moves.len())]);
                }
            }
        }
        out
    }

    /// Checks the [`Game`] laws: moves versus legality, finished positions, notation round
    /// trips, checked play, and that the provided or overridden random playout consumes the
    /// generator like the reference loop.
    ///
    /// # Panics
    /// On the first broken law.
    pub fn check_game(&self) {
        // Collecting the positions first proves every playout ends, so the game's own
        // playout can then be run safely.
        let positions = self.positions();
        for pos in &positions {
            check_position(pos, &self.universe);
        }
        // The game's playout must match the reference playout draw for draw.
        let mut rng_a = Rng::seed_from_u64(self.seed ^ 1);
        for pos in &positions {
            let mut rng_b = rng_a.clone();
            let fast = pos.random_playout(&mut rng_a);
            let slow = reference_playout(pos, &mut rng_b);
            assert_eq!(
                fast, slow,
                "random_playout differs from the reference at {pos}"
            );
            assert_eq!(
                rng_a, rng_b,
                "random_playout used the generator differently at {pos}"
            );
        }
    }

    /// Checks the [`Symmetric`] laws on every position of the playouts.
    ///
    /// # Panics
    /// On the first broken law.
    pub fn check_symmetries(&self)
    where
        G: Symmetric,
    {
        assert!(G::SYMMETRIES >= 1);
        for pos in &self.positions() {
            assert_eq!(&pos.transform(0), pos, "symmetry 0 must be the identity");
            let key = pos.canonical_key();
            let moves = pos.legal_moves();
            for s in 0..G::SYMMETRIES {
                let img = pos.transform(s);
                assert_eq!(
                    &img.transform(G::inverse(s)),
                    pos,
                    "symmetry {s} does not map back"
                );
                assert_eq!(
                    img.canonical_key(),
                    key,
                    "canonical key changes under {s} at {pos}"
                );
                assert_eq!(img.outcome(), pos.outcome(), "outcome changes under {s}");
                assert_eq!(img.side_to_move(), pos.side_to_move());
                let mut mapped: Vec<G::Move> =
                    moves.iter().map(|&m| G::transform_move(m, s)).collect();
                let mut theirs: Vec<G::Move> = img.legal_moves().into_iter().collect();
                mapped.sort();
                theirs.sort();
                assert_eq!(mapped, theirs, "moves do not map under {s} at {pos}");
                for &m in moves.iter() {
                    assert_eq!(
                        G::transform_move(G::transform_move(m, s), G::inverse(s)),
                        m,
                        "move {m} does not map back under {s}"
                    );
                    assert_eq!(
                        pos.play_unchecked(m).transform(s),
                        img.play_unchecked(G::transform_move(m, s)),
                        "playing {m} does not commute with symmetry {s} at {pos}"
                    );
                }
            }
        }
    }
}

fn check_position<G: Game>(pos: &G, universe: &[G::Move]) {
    let moves = pos.legal_moves();
    let set: HashSet<G::Move> = moves.iter().copied().collect();
    assert_eq!(
        set.len(),
        moves.len(),
        "duplicate moves at {pos}: {moves:?}"
    );
    match pos.outcome() {
        Some(_) => assert!(
            moves.is_empty(),
            "finished position {pos} has moves {moves:?}"
        ),
        None => assert!(!moves.is_empty(), "unfinished position {pos} has no move"),
    }
    for &mv in universe {
        let legal = set.contains(&mv);
        assert_eq!(
            pos.is_legal(mv),
            legal,
            "is_legal({mv}) disagrees with moves at {pos}"
        );
        match pos.play(mv) {
            Ok(child) => {
                assert!(legal, "play accepted illegal {mv} at {pos}");
                assert_eq!(
                    child,
                    pos.play_unchecked(mv),
                    "play and play_unchecked differ"
                );
            }
            Err(_) => assert!(!legal, "play rejected legal {mv} at {pos}"),
        }
    }
    for &mv in moves.iter() {
        assert!(
            universe.is_empty() || universe.contains(&mv),
            "generated move {mv} is outside the universe"
        );
    }
    round_trip(pos);
    for &mv in moves.iter() {
        round_trip(&mv);
    }
}

fn round_trip<T>(value: &T)
where
    T: std::fmt::Display + std::str::FromStr + PartialEq + Debug,
    T::Err: Debug,
{
    let text = value.to_string();
    let back: T = text
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} does not parse back: {e:?}"));
    assert_eq!(&back, value, "{text:?} parses to a different value");
}
