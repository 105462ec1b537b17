//! Self-play games: random openings, a shallow fixed-depth search, an exact endgame.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use yomi_core::{Container, FinalScore, Game, Rng, Shard};
use yomi_othello::{Move, Othello, Square};
use yomi_othello_eval::{Evaluator, HandEval};
use yomi_othello_search::{MidgameLimits, MidgameSearch, Mode, Solver, SolverConfig};

use crate::TrainError;

/// Game files: the checked container with magic `YOMIGAME`, tag `othello`, one record per game.
pub const GAME_FILE: Container = Container::new(*b"YOMIGAME", 1, "game file");

/// The tag of game files.
pub const GAME_TAG: &str = "othello";

/// A pass in [`GameRecord::moves`].
pub const PASS: u8 = 64;

/// Joins the records of the shard files of one run (`(configuration, records)` each): every
/// configuration must be the first's and no game (its index by `game`) may be in two files;
/// the records come out in game order.
///
/// Not [`yomi_core::merge_shards`]: game and label files do not record which shard made them
/// (their format predates the one `Shard`), and a label file holds only the games that reach
/// its empties, so the records are joined by their own game index instead of by slot.
///
/// # Errors
/// [`TrainError::Mismatch`] for different configurations or a game in two files;
/// [`TrainError::NoInput`] for no files.
pub(crate) fn join_by_game<C: PartialEq + fmt::Debug, T>(
    parts: impl IntoIterator<Item = (C, Vec<T>)>,
    game: impl Fn(&T) -> u64,
) -> Result<(C, Vec<T>), TrainError> {
    let mut parts = parts.into_iter();
    let (config, mut records) = parts.next().ok_or(TrainError::NoInput)?;
    for (other, more) in parts {
        if other != config {
            return Err(TrainError::Mismatch(format!(
                "configurations differ: {config:?} and {other:?}"
            )));
        }
        records.extend(more);
    }
    records.sort_by_key(&game);
    if let Some(w) = records.windows(2).find(|w| game(&w[0]) == game(&w[1])) {
        return Err(TrainError::Mismatch(format!(
            "game {} is in two files",
            game(&w[0])
        )));
    }
    Ok((config, records))
}

/// How a run of self-play games is made. Every field is stored in the game file, so a file
/// says how to make it again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    /// The seed: game `i` uses the random stream `(seed, i)`.
    pub seed: u64,
    /// Games in the whole run (over all shards), numbered `0..games`.
    pub games: u64,
    /// The fewest random opening plies (not used for training).
    pub random_min: u32,
    /// The most random opening plies.
    pub random_max: u32,
    /// The depth of the midgame search that plays the rest.
    pub depth: u32,
    /// At this many empty squares or fewer both sides play perfectly (exact solves), so the
    /// final score is the exact value of every position from there on.
    pub exact: u32,
    /// The evaluation of the midgame search (`hand`, or `learned:` and the weight file's
    /// checksum).
    pub player: String,
}

impl Default for GameConfig {
    /// Seed 1, 1000 games, 10 to 20 random plies, depth 4, exact from 20 empties, `hand`.
    fn default() -> GameConfig {
        GameConfig {
            seed: 1,
            games: 1000,
            random_min: 10,
            random_max: 20,
            depth: 4,
            exact: 20,
            player: "hand".to_string(),
        }
    }
}

/// One self-play game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its run.
    pub index: u64,
    /// How many of the first moves were random.
    pub random_plies: u8,
    /// Every move from the start position: a square index (`a1` = 0, `h8` = 63) or [`PASS`].
    pub moves: Vec<u8>,
    /// Black's final disc difference (empty squares to the winner).
    pub score: i8,
}

/// A position of a game with the game's result from the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The position (the side to move has a legal move).
    pub pos: Othello,
    /// The final disc difference from the side to move.
    pub label: i32,
    /// Whether the label is the exact value of the position (both sides played perfectly
    /// from it on).
    pub exact: bool,
}

impl GameRecord {
    /// The positions of the game in order, from the start to the end (inclusive).
    ///
    /// # Errors
    /// [`TrainError::BadGame`] if a move is illegal or the game does not end with its score.
    pub fn positions(&self) -> Result<Vec<Othello>, TrainError> {
        let bad = |why: String| TrainError::BadGame {
            index: self.index,
            reason: why,
        };
        let mut pos = Othello::new();
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        out.push(pos);
        for (ply, &m) in self.moves.iter().enumerate() {
            let mv = match m {
                PASS => Move::Pass,
                0..=63 => Move::Place(Square::new(m)),
                _ => return Err(bad(format!("move code {m} at ply {ply}"))),
            };
            pos = pos.play(mv).map_err(|e| bad(format!("ply {ply}: {e}")))?;
            out.push(pos);
        }
        if !pos.game_over() {
            return Err(bad("the game does not end".into()));
        }
        let black = pos.final_score().unwrap_or(0);
        if black != i32::from(self.score) {
            return Err(bad(format!(
                "final score {black}, the record says {}",
                self.score
            )));
        }
        Ok(out)
    }

    /// The training positions: every position after the random opening where the side to
    /// move has a legal move, labelled with the final result from its side; `exact` from
    /// `exact_empties` empty squares on.
    ///
    /// # Errors
    /// As [`positions`](Self::positions).
    pub fn samples(&self, exact_empties: u32) -> Result<Vec<Sample>, TrainError> {
        let positions = self.positions()?;
        Ok(positions
            .into_iter()
            .skip(usize::from(self.random_plies))
            .filter(|p| !p.moves().is_empty())
            .map(|pos| {
                let black = i32::from(self.score);
                let label = if pos.side_to_move() == yomi_core::Player::First {
                    black
                } else {
                    -black
                };
                Sample {
                    pos,
                    label,
                    exact: pos.empties().count() <= exact_empties,
                }
            })
            .collect())
    }
}

/// The games of a run, or of some of its shards, in index order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSet {
    /// How they were made.
    pub config: GameConfig,
    /// The games, by increasing index, no index twice.
    pub games: Vec<GameRecord>,
}

impl GameSet {
    /// The finished games of a WTHOR archive (`.wtb`, read by [`yomi_othello::wthor`]) as a
    /// game set, for training on tournament games: none of their moves counts as random,
    /// nothing is known to be exact (`exact` 0), and the configuration names the archive
    /// (`player` is `wthor:` and `name`; `seed`, `depth` and the random plies are 0). Games
    /// that stop before the end of the game (some archives hold unfinished transcripts) are
    /// left out, and so are games whose recorded score is not the board's; the second value
    /// counts them.
    #[must_use]
    pub fn from_wthor(name: &str, games: &[yomi_othello::wthor::GameRecord]) -> (GameSet, usize) {
        let mut records = Vec::with_capacity(games.len());
        let mut skipped = 0;
        for g in games {
            let end = g.position();
            let board = end.final_score();
            if !end.game_over() || board != Some(g.black_margin()) {
                skipped += 1;
                continue;
            }
            let moves = g
                .moves()
                .iter()
                .map(|&m| match m {
                    Move::Pass => PASS,
                    Move::Place(sq) => sq.index() as u8,
                })
                .collect();
            records.push(GameRecord {
                index: records.len() as u64,
                random_plies: 0,
                moves,
                score: g.black_margin() as i8,
            });
        }
        let config = GameConfig {
            seed: 0,
            games: records.len() as u64,
            random_min: 0,
            random_max: 0,
            depth: 0,
            exact: 0,
            player: format!("wthor:{name}"),
        };
        (
            GameSet {
                config,
                games: records,
            },
            skipped,
        )
    }

    /// Merges sets of the same run (shards): the same configuration, no game twice.
    ///
    /// # Errors
    /// [`TrainError::Mismatch`] for different configurations or a game in two sets;
    /// [`TrainError::NoInput`] for no sets.
    pub fn merge(sets: Vec<GameSet>) -> Result<GameSet, TrainError> {
        let parts = sets.into_iter().map(|s| (s.config, s.games));
        let (config, games) = join_by_game(parts, |g| g.index)?;
        Ok(GameSet { config, games })
    }

    /// The bytes of a game file.
    ///
    /// # Errors
    /// [`TrainError::Container`] if encoding fails.
    pub fn encode(&self) -> Result<Vec<u8>, TrainError> {
        Ok(GAME_FILE.encode(GAME_TAG, self.games.len() as u64, self)?)
    }

    /// Reads a game file from bytes and checks every game (legal moves, final score, order).
    ///
    /// # Errors
    /// [`TrainError::Container`] for a file that is not a sound game file,
    /// [`TrainError::BadGame`] or [`TrainError::Mismatch`] for games that do not check out.
    pub fn decode(bytes: &[u8]) -> Result<GameSet, TrainError> {
        let (header, set): (_, GameSet) = GAME_FILE.decode(GAME_TAG, bytes)?;
        set.check(header.records)?;
        Ok(set)
    }

    fn check(&self, records: u64) -> Result<(), TrainError> {
        if records != self.games.len() as u64 {
            return Err(TrainError::Mismatch(format!(
                "the header says {records} games, the file holds {}",
                self.games.len()
            )));
        }
        for w in self.games.windows(2) {
            if w[0].index >= w[1].index {
                return Err(TrainError::Mismatch("games out of order".into()));
            }
        }
        for g in &self.games {
            if g.index >= self.config.games {
                return Err(TrainError::Mismatch(format!(
                    "game {} beyond the run's {}",
                    g.index, self.config.games
                )));
            }
            g.positions()?;
        }
        Ok(())
    }

    /// Writes a game file.
    ///
    /// # Errors
    /// As [`encode`](Self::encode), and I/O errors.
    pub fn write(&self, path: &Path) -> Result<(), TrainError> {
        Ok(Container::write_bytes(path, &self.encode()?)?)
    }

    /// Reads and checks a game file.
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and I/O errors.
    pub fn read(path: &Path) -> Result<GameSet, TrainError> {
        let bytes = GAME_FILE.read_bytes(GAME_TAG, path)?;
        GameSet::decode(&bytes)
    }
}

/// The move search of a self-play game below `exact` empties.
pub trait MovePicker {
    /// The value of every legal move of `pos` (the game is not over, more than one move),
    /// searched to `depth` plies: higher is better for the side to move.
    fn values(&mut self, pos: &Othello, depth: u32) -> Vec<(Move, i32)>;
}

/// The midgame search of `yomi-othello-search` with an evaluation (the hand-made one, or the
/// learned weights for a bootstrapping round).
#[derive(Debug)]
pub struct SearchPicker(MidgameSearch);

impl SearchPicker {
    /// A picker searching with `evaluator`, with a small table.
    #[must_use]
    pub fn new(evaluator: Arc<dyn Evaluator>) -> SearchPicker {
        SearchPicker(MidgameSearch::new(4, evaluator))
    }

    /// A picker with the hand-made evaluation ([`HandEval`]).
    #[must_use]
    pub fn hand() -> SearchPicker {
        SearchPicker::new(Arc::new(HandEval))
    }
}

impl MovePicker for SearchPicker {
    fn values(&mut self, pos: &Othello, depth: u32) -> Vec<(Move, i32)> {
        let r = self.0.search(pos, MidgameLimits { depth, time: None });
        r.scores.iter().map(|s| (s.mv, s.score)).collect()
    }
}

/// Plays game `index` of `config`: random opening plies from the stream `(seed, index)`, then
/// the best move by `picker` at `config.depth` (ties broken by the same stream), and from
/// `config.exact` empties on the solver's best move. The solver's table is emptied first, so
/// the game depends only on the configuration and the index.
pub fn play_game(
    config: &GameConfig,
    index: u64,
    picker: &mut dyn MovePicker,
    solver: &mut Solver,
) -> GameRecord {
    let mut rng = Rng::for_stream(config.seed, index);
    let span = config.random_max.saturating_sub(config.random_min) as usize + 1;
    let random_plies = config.random_min as usize + rng.below(span);
    solver.clear();
    let mut pos = Othello::new();
    let mut moves = Vec::with_capacity(64);
    while !pos.game_over() {
        let legal = pos.legal_moves();
        let mv = if moves.len() < random_plies {
            legal[rng.below(legal.len())]
        } else if legal.len() == 1 {
            legal[0]
        } else if pos.empties().count() <= config.exact {
            solver
                .solve(&pos, Mode::Exact)
                .best
                .expect("the game is not over")
        } else {
            let values = picker.values(&pos, config.depth);
            let best = values.iter().map(|v| v.1).max().expect("legal moves");
            let ties: Vec<Move> = values.iter().filter(|v| v.1 == best).map(|v| v.0).collect();
            ties[rng.below(ties.len())]
        };
        moves.push(match mv {
            Move::Pass => PASS,
            Move::Place(sq) => sq.index() as u8,
        });
        pos = pos.play_unchecked(mv);
    }
    GameRecord {
        index,
        random_plies: random_plies.min(moves.len()) as u8,
        moves,
        score: pos.final_score().unwrap_or(0) as i8,
    }
}

/// Plays the games of `shard` on `threads` threads (the result does not depend on the
/// thread count), calling `progress` after each game with the number finished.
///
/// # Errors
/// [`TrainError::Solver`] if a solver cannot be built, [`TrainError::ThreadPool`].
pub fn generate(
    config: &GameConfig,
    shard: Shard,
    threads: usize,
    make_picker: &(dyn Fn() -> Box<dyn MovePicker + Send> + Sync),
    progress: &(dyn Fn(u64) + Sync),
) -> Result<GameSet, TrainError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    let solver_config = SolverConfig {
        threads: 1,
        hash_mb: 16,
        ..SolverConfig::default()
    };
    Solver::new(solver_config)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let indices: Vec<u64> = (0..config.games).filter(|&i| shard.contains(i)).collect();
    let done = AtomicU64::new(0);
    let games = pool.install(|| {
        indices
            .par_iter()
            .with_max_len(1)
            .map_init(
                || {
                    (
                        make_picker(),
                        Solver::new(solver_config).expect("built once above"),
                    )
                },
                |(picker, solver), &i| {
                    let g = play_game(config, i, picker.as_mut(), solver);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    g
                },
            )
            .collect::<Vec<GameRecord>>()
    });
    Ok(GameSet {
        config: config.clone(),
        games,
    })
}
