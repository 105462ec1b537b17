//! Test sets: one position per held-out game, at a fixed number of empty squares, labelled
//! with its exact score by the endgame solver.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use yomi_core::{Container, Game, Player, Shard};
use yomi_othello::{Bitboard, Othello};
use yomi_othello_eval::Evaluator;
use yomi_othello_search::{Mode, Solver, SolverConfig};

use crate::games::{join_by_game, GameConfig, GameRecord, GameSet};
use crate::TrainError;

/// Labelled position files: the checked container with magic `YOMILABL`, tag `othello`, one
/// record per position.
pub const LABEL_FILE: Container = Container::new(*b"YOMILABL", 1, "labelled position file");

/// The tag of labelled position files.
pub const LABEL_TAG: &str = "othello";

/// The most empty squares [`label`] solves (a solve at 30 empties takes hours on one core).
pub const MAX_LABEL_EMPTIES: u32 = 30;

/// Where the positions of a [`LabelSet`] come from: a run of games and a number of empties.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelConfig {
    /// The run of games (as stored in its game file).
    pub games: GameConfig,
    /// Every position has exactly this many empty squares.
    pub empties: u32,
}

/// A position with its exact score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Labelled {
    /// The game it comes from (its index in the run).
    pub game: u64,
    /// Black's discs.
    pub black: u64,
    /// White's discs.
    pub white: u64,
    /// Whether black is to move.
    pub black_to_move: bool,
    /// The exact final disc difference from the side to move with perfect play by both sides.
    pub score: i8,
}

impl Labelled {
    /// The labelled position of `pos` with its score from the side to move.
    #[must_use]
    pub fn new(game: u64, pos: &Othello, score: i32) -> Labelled {
        Labelled {
            game,
            black: pos.black().0,
            white: pos.white().0,
            black_to_move: pos.side_to_move() == Player::First,
            score: score.clamp(-64, 64) as i8,
        }
    }

    /// The position.
    ///
    /// # Errors
    /// [`TrainError::BadLabel`] when a square holds both colours.
    pub fn position(&self) -> Result<Othello, TrainError> {
        let side = if self.black_to_move {
            Player::First
        } else {
            Player::Second
        };
        Othello::from_discs(Bitboard(self.black), Bitboard(self.white), side).map_err(|e| {
            TrainError::BadLabel {
                game: self.game,
                reason: e.to_string(),
            }
        })
    }
}

/// The position of `game` with exactly `empties` empty squares where the side to move has a
/// legal move (after the random opening), if the game has one.
///
/// # Errors
/// [`TrainError::BadGame`] if the game does not replay.
pub fn position_at(game: &GameRecord, empties: u32) -> Result<Option<Othello>, TrainError> {
    Ok(game
        .positions()?
        .into_iter()
        .skip(usize::from(game.random_plies))
        .find(|p| p.empties().count() == empties && !p.moves().is_empty()))
}

/// Labelled positions, one per game, by increasing game index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSet {
    /// Where they come from.
    pub config: LabelConfig,
    /// The positions, by increasing game, at most one per game.
    pub positions: Vec<Labelled>,
}

/// What labelling cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelStats {
    /// Positions solved.
    pub solves: u64,
    /// Nodes searched by all solves.
    pub nodes: u64,
    /// The solves' time added up (wall clock of each solve; with one thread per solve and no
    /// other load this is the CPU time).
    pub solve_time: Duration,
    /// The longest single solve.
    pub longest: Duration,
}

/// Labels the games of `set` that belong to `shard`: the position of each at `empties` empty
/// squares ([`position_at`]; games without one are skipped) is solved exactly, one solve per
/// thread with its own table of `hash_mb` MiB (emptied before each solve), on `threads`
/// threads. The labels
/// are exact, so the result depends neither on the thread count nor on the order of the
/// solves; `progress` is called after each solve with the number done.
///
/// # Errors
/// [`TrainError::TooManyEmpties`] for `empties` above [`MAX_LABEL_EMPTIES`],
/// [`TrainError::BadGame`] for a game that does not replay, [`TrainError::Solver`] if a
/// solver cannot be built (a table size outside 1 to 16384 MiB), [`TrainError::ThreadPool`].
pub fn label(
    set: &GameSet,
    empties: u32,
    shard: Shard,
    threads: usize,
    hash_mb: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(LabelSet, LabelStats), TrainError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    if empties > MAX_LABEL_EMPTIES {
        return Err(TrainError::TooManyEmpties(empties));
    }
    let mut todo = Vec::new();
    for g in set.games.iter().filter(|g| shard.contains(g.index)) {
        if let Some(pos) = position_at(g, empties)? {
            todo.push((g.index, pos));
        }
    }
    let solver_config = SolverConfig {
        threads: 1,
        hash_mb,
        ..SolverConfig::default()
    };
    Solver::new(solver_config)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let done = AtomicU64::new(0);
    let solved: Vec<(Labelled, u64, Duration)> = pool.install(|| {
        todo.par_iter()
            .with_max_len(1)
            .map_init(
                || Solver::new(solver_config).expect("built once above"),
                |solver, &(game, pos)| {
                    solver.clear();
                    let s = solver.solve(&pos, Mode::Exact);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    (Labelled::new(game, &pos, s.score), s.nodes, s.elapsed)
                },
            )
            .collect()
    });
    let mut stats = LabelStats::default();
    let mut positions = Vec::with_capacity(solved.len());
    for (l, nodes, time) in solved {
        stats.solves += 1;
        stats.nodes += nodes;
        stats.solve_time += time;
        stats.longest = stats.longest.max(time);
        positions.push(l);
    }
    let out = LabelSet {
        config: LabelConfig {
            games: set.config.clone(),
            empties,
        },
        positions,
    };
    Ok((out, stats))
}

impl LabelSet {
    /// Merges sets of the same games and empties (shards): no game twice.
    ///
    /// # Errors
    /// [`TrainError::Mismatch`] for different configurations or a game in two sets;
    /// [`TrainError::NoInput`] for no sets.
    pub fn merge(sets: Vec<LabelSet>) -> Result<LabelSet, TrainError> {
        let parts = sets.into_iter().map(|s| (s.config, s.positions));
        let (config, positions) = join_by_game(parts, |l| l.game)?;
        Ok(LabelSet { config, positions })
    }

    /// The mean absolute error of `eval` (hundredths of a disc) against the labels, in discs:
    /// `(positions, error)`.
    ///
    /// # Errors
    /// [`TrainError::BadLabel`] for a position with a square of both colours.
    pub fn error(&self, eval: &dyn Evaluator) -> Result<(usize, f64), TrainError> {
        let mut total = 0.0f64;
        for l in &self.positions {
            let pos = l.position()?;
            let v = eval.evaluate(pos.player().0, pos.opponent().0);
            total += (f64::from(v) / 100.0 - f64::from(l.score)).abs();
        }
        let n = self.positions.len();
        Ok((n, if n == 0 { 0.0 } else { total / n as f64 }))
    }

    /// The bytes of a labelled position file.
    ///
    /// # Errors
    /// [`TrainError::Container`] if encoding fails.
    pub fn encode(&self) -> Result<Vec<u8>, TrainError> {
        Ok(LABEL_FILE.encode(LABEL_TAG, self.positions.len() as u64, self)?)
    }

    /// Reads a labelled position file from bytes and checks every position (discs that do
    /// not overlap, exactly the configured empties, a legal move for the side to move, a
    /// score of at most 64 discs, games in order and in the run).
    ///
    /// # Errors
    /// [`TrainError::Container`] for a file that is not a sound labelled position file,
    /// [`TrainError::BadLabel`] or [`TrainError::Mismatch`] for positions that do not check
    /// out.
    pub fn decode(bytes: &[u8]) -> Result<LabelSet, TrainError> {
        let (header, set): (_, LabelSet) = LABEL_FILE.decode(LABEL_TAG, bytes)?;
        set.check(header.records)?;
        Ok(set)
    }

    fn check(&self, records: u64) -> Result<(), TrainError> {
        if records != self.positions.len() as u64 {
            return Err(TrainError::Mismatch(format!(
                "the header says {records} positions, the file holds {}",
                self.positions.len()
            )));
        }
        for w in self.positions.windows(2) {
            if w[0].game >= w[1].game {
                return Err(TrainError::Mismatch("positions out of order".into()));
            }
        }
        for l in &self.positions {
            let bad = |reason: String| TrainError::BadLabel {
                game: l.game,
                reason,
            };
            if l.game >= self.config.games.games {
                return Err(TrainError::Mismatch(format!(
                    "game {} beyond the run's {}",
                    l.game, self.config.games.games
                )));
            }
            let pos = l.position()?;
            let empties = pos.empties().count();
            if empties != self.config.empties {
                return Err(bad(format!(
                    "{empties} empties, the file is of positions with {}",
                    self.config.empties
                )));
            }
            if pos.moves().is_empty() {
                return Err(bad("the side to move has no legal move".into()));
            }
            if l.score.unsigned_abs() > 64 {
                return Err(bad(format!("score {} is beyond 64 discs", l.score)));
            }
        }
        Ok(())
    }

    /// Writes a labelled position file.
    ///
    /// # Errors
    /// As [`encode`](Self::encode), and I/O errors.
    pub fn write(&self, path: &Path) -> Result<(), TrainError> {
        Ok(Container::write_bytes(path, &self.encode()?)?)
    }

    /// Reads and checks a labelled position file.
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and I/O errors.
    pub fn read(path: &Path) -> Result<LabelSet, TrainError> {
        let bytes = LABEL_FILE.read_bytes(LABEL_TAG, path)?;
        LabelSet::decode(&bytes)
    }
}
