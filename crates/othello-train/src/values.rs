//! Labels from search: the value of a fixed-depth midgame search for every training position
//! of a run of games that is not already labelled exactly, so that a fit can learn from a
//! blend of the search's value and the game's result ([`crate::RowSource`]).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use yomi_core::{fnv1a64, Container, Shard};
use yomi_othello_eval::{Evaluator, Weights};
use yomi_othello_search::{
    score_in_discs, MidgameLimits, MidgameSearch, RootValues, PROBCUT_LEARNED,
};

use crate::games::{join_by_game, GameConfig, GameRecord, GameSet, Sample};
use crate::TrainError;

/// Search value files: the checked container with magic `YOMIVALS`, tag `othello`, one
/// record per game.
pub const VALUE_FILE: Container = Container::new(*b"YOMIVALS", 1, "search value file");

/// The tag of search value files.
pub const VALUE_TAG: &str = "othello";

/// The deepest search [`search_values`] runs.
pub const MAX_VALUE_DEPTH: u32 = 30;

/// How the values of a [`ValueSet`] were searched. Every field is stored in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueConfig {
    /// The run of games whose positions were searched (as stored in its game file).
    pub games: GameConfig,
    /// The depth of the midgame search.
    pub depth: u32,
    /// Multi-ProbCut's threshold in hundredths of a standard deviation (with the built-in
    /// statistics), or `None` for a full-width search.
    pub probcut: Option<u32>,
    /// The evaluation at the leaves: `hand`, or `learned:` and the FNV-1a digest of its weight
    /// file in hex.
    pub evaluator: String,
}

/// The search values of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameValues {
    /// The game's index in its run.
    pub game: u64,
    /// One value per training position of the game that is not labelled exactly (the
    /// positions of [`GameRecord::samples`] with more empty squares than the run's `exact`,
    /// in order), in hundredths of a disc from the side to move; a value the search proved
    /// to the end of the game is the exact disc difference times 100.
    pub values: Vec<i16>,
}

/// Search values of the games of a run (or of some of its shards), by increasing game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValueSet {
    /// How they were searched.
    pub config: ValueConfig,
    /// The games, by increasing index, no game twice.
    pub games: Vec<GameValues>,
}

/// What searching the values cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ValueStats {
    /// Positions searched.
    pub positions: u64,
    /// Nodes of all searches.
    pub nodes: u64,
    /// The searches' time added up (one thread per game: the CPU time without other load).
    pub search_time: Duration,
}

/// The name of an evaluation as a [`ValueConfig`] stores it: `hand`, or `learned:` and the
/// digest of the weights' file bytes.
///
/// # Errors
/// [`TrainError::Weights`] if the weights cannot be encoded.
pub fn evaluator_name(weights: Option<&Weights>) -> Result<String, TrainError> {
    Ok(match weights {
        None => "hand".to_string(),
        Some(w) => format!("learned:{:016x}", fnv1a64(&w.encode()?)),
    })
}

/// The value of a midgame search's score in hundredths of a disc ([`score_in_discs`] times
/// 100).
fn hundredths(score: i32) -> i16 {
    (score_in_discs(score) * 100.0)
        .round()
        .clamp(-f64::from(i16::MAX), f64::from(i16::MAX)) as i16
}

/// The values of one game: every non-exact training position searched in order by `search`
/// (whose table each search starts empty, so a value depends only on its position).
fn game_values(
    game: &GameRecord,
    exact: u32,
    depth: u32,
    search: &mut MidgameSearch,
    stats: &mut ValueStats,
) -> Result<GameValues, TrainError> {
    let mut values = Vec::new();
    for s in game.samples(exact)?.iter().filter(|s| !s.exact) {
        let r = search.search(&s.pos, MidgameLimits { depth, time: None });
        let best = r.best_score().ok_or_else(|| TrainError::BadGame {
            index: game.index,
            reason: "a training position without a legal move".into(),
        })?;
        values.push(hundredths(best));
        stats.positions += 1;
        stats.nodes += r.nodes;
        stats.search_time += r.elapsed;
    }
    Ok(GameValues {
        game: game.index,
        values,
    })
}

/// Searches the training positions of the games of `set` that belong to `shard`: every
/// position of [`GameRecord::samples`] that is not labelled exactly gets the best value of a
/// midgame search to `depth` plies with `evaluator` (ProbCut at `probcut` hundredths of a
/// standard deviation with the built-in statistics, or full width with `None`), on `threads`
/// threads, one game per thread at a time. Every search starts with an empty table, so the
/// file depends neither on the thread count nor on the order; `progress` is called after
/// each game with the number done. `evaluator_name` is stored in the file (see
/// [`evaluator_name`]).
///
/// # Errors
/// [`TrainError::Mismatch`] for a depth of 0 or above [`MAX_VALUE_DEPTH`],
/// [`TrainError::BadGame`] for a game that does not replay, [`TrainError::ThreadPool`].
#[allow(clippy::too_many_arguments)]
pub fn search_values(
    set: &GameSet,
    depth: u32,
    probcut: Option<u32>,
    evaluator: Arc<dyn Evaluator>,
    evaluator_name: &str,
    shard: Shard,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<(ValueSet, ValueStats), TrainError> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    if depth == 0 || depth > MAX_VALUE_DEPTH {
        return Err(TrainError::Mismatch(format!(
            "search depth {depth}: give 1 to {MAX_VALUE_DEPTH}"
        )));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| TrainError::ThreadPool(e.to_string()))?;
    let exact = set.config.exact;
    let todo: Vec<&GameRecord> = set
        .games
        .iter()
        .filter(|g| shard.contains(g.index))
        .collect();
    let done = AtomicU64::new(0);
    let make = || {
        let mut search = MidgameSearch::new(16, evaluator.clone());
        search.set_root_values(RootValues::Best);
        search.set_probcut(probcut.map(|t| (f64::from(t) / 100.0, PROBCUT_LEARNED)));
        search
    };
    let out: Vec<Result<(GameValues, ValueStats), TrainError>> = pool.install(|| {
        todo.par_iter()
            .with_max_len(1)
            .map_init(make, |search, g| {
                let mut stats = ValueStats::default();
                let v = game_values(g, exact, depth, search, &mut stats)?;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                Ok((v, stats))
            })
            .collect()
    });
    let mut stats = ValueStats::default();
    let mut games = Vec::with_capacity(out.len());
    for r in out {
        let (v, s) = r?;
        stats.positions += s.positions;
        stats.nodes += s.nodes;
        stats.search_time += s.search_time;
        games.push(v);
    }
    let config = ValueConfig {
        games: set.config.clone(),
        depth,
        probcut,
        evaluator: evaluator_name.to_string(),
    };
    Ok((ValueSet { config, games }, stats))
}

impl ValueSet {
    /// Merges sets of the same games and search (shards): no game twice.
    ///
    /// # Errors
    /// [`TrainError::Mismatch`] for different configurations or a game in two sets;
    /// [`TrainError::NoInput`] for no sets.
    pub fn merge(sets: Vec<ValueSet>) -> Result<ValueSet, TrainError> {
        let parts = sets.into_iter().map(|s| (s.config, s.games));
        let (config, games) = join_by_game(parts, |g| g.game)?;
        Ok(ValueSet { config, games })
    }

    /// The values of game `index`, if the set has them.
    #[must_use]
    pub fn game(&self, index: u64) -> Option<&GameValues> {
        self.games
            .binary_search_by_key(&index, |g| g.game)
            .ok()
            .map(|i| &self.games[i])
    }

    /// The search value of each of `samples` (the game's [`GameRecord::samples`], in order),
    /// in discs; `None` for a sample labelled exactly.
    ///
    /// # Errors
    /// [`TrainError::Mismatch`] when the set has no values for the game, or not one for each
    /// of its samples that is not exact.
    pub fn sample_values(
        &self,
        game: &GameRecord,
        samples: &[Sample],
    ) -> Result<Vec<Option<f64>>, TrainError> {
        let gv = self.game(game.index).ok_or_else(|| {
            TrainError::Mismatch(format!("no search values for game {}", game.index))
        })?;
        let want = samples.iter().filter(|s| !s.exact).count();
        if gv.values.len() != want {
            return Err(TrainError::Mismatch(format!(
                "game {}: {} search values for {want} positions",
                game.index,
                gv.values.len()
            )));
        }
        let mut values = gv.values.iter();
        Ok(samples
            .iter()
            .map(|s| (!s.exact).then(|| f64::from(*values.next().expect("counted above")) / 100.0))
            .collect())
    }

    /// The bytes of a search value file.
    ///
    /// # Errors
    /// [`TrainError::Container`] if encoding fails.
    pub fn encode(&self) -> Result<Vec<u8>, TrainError> {
        Ok(VALUE_FILE.encode(VALUE_TAG, self.games.len() as u64, self)?)
    }

    /// Reads a search value file from bytes and checks its order and range (the values are
    /// checked against their games when a fit pairs them, [`crate::RowSource`]).
    ///
    /// # Errors
    /// [`TrainError::Container`] for a file that is not a sound search value file,
    /// [`TrainError::Mismatch`] for games out of order or beyond the run.
    pub fn decode(bytes: &[u8]) -> Result<ValueSet, TrainError> {
        let (header, set): (_, ValueSet) = VALUE_FILE.decode(VALUE_TAG, bytes)?;
        if header.records != set.games.len() as u64 {
            return Err(TrainError::Mismatch(format!(
                "the header says {} games, the file holds {}",
                header.records,
                set.games.len()
            )));
        }
        if set.games.windows(2).any(|w| w[0].game >= w[1].game) {
            return Err(TrainError::Mismatch("games out of order".into()));
        }
        if let Some(g) = set.games.iter().find(|g| g.game >= set.config.games.games) {
            return Err(TrainError::Mismatch(format!(
                "game {} beyond the run's {}",
                g.game, set.config.games.games
            )));
        }
        Ok(set)
    }

    /// Writes a search value file.
    ///
    /// # Errors
    /// As [`encode`](Self::encode), and I/O errors.
    pub fn write(&self, path: &Path) -> Result<(), TrainError> {
        Ok(Container::write_bytes(path, &self.encode()?)?)
    }

    /// Reads and checks a search value file.
    ///
    /// # Errors
    /// As [`decode`](Self::decode), and I/O errors.
    pub fn read(path: &Path) -> Result<ValueSet, TrainError> {
        let bytes = VALUE_FILE.read_bytes(VALUE_TAG, path)?;
        ValueSet::decode(&bytes)
    }
}
