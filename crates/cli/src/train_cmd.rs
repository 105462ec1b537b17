//! `yomi train ...`: the training pipeline of the Othello pattern evaluation (`docs/eval.md`).

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use yomi_core::Shard;
use yomi_othello_eval::{Evaluator, Feature, HandEval, Weights};
use yomi_othello_train::{
    error_at, evaluator_name, fit, generate, label, phase_discs, phase_errors, probcut_stats,
    rows_from, search_values, FitConfig, GameConfig, GameSet, LabelSet, MovePicker, ProbCutConfig,
    RowSource, SearchPicker, ValueSet, LABEL_FILE, VALUE_FILE,
};

use crate::Res;

/// The training steps.
#[derive(Debug, clap::Args)]
pub struct TrainArgs {
    #[command(subcommand)]
    command: TrainCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TrainCommand {
    /// Self-play games from random openings: a shallow search, then exact solves from
    /// `--exact` empties. Seeded and shardable; the games do not depend on `--threads`.
    Games(GamesArgs),
    /// Joins game files of the same run (its shards) into one, labelled position files of
    /// the same games and empties, or search value files of the same games and search.
    Merge(MergeArgs),
    /// Converts the finished games of WTHOR archives (`.wtb`) into a game file, to train or
    /// test on tournament games (unfinished games and games whose score is not the board's
    /// are left out and counted).
    Import(ImportArgs),
    /// A test set: the position of each game at `--empties` empty squares, solved exactly;
    /// writes a labelled position file for `yomi train test`.
    Label(LabelArgs),
    /// Labels from search: the value of a midgame search to `--depth` of every training
    /// position of game files that is not labelled exactly, for `yomi train fit --values`.
    /// Shardable; the file does not depend on `--threads`.
    Values(ValuesArgs),
    /// Fits the pattern weights to game files and writes a weight file; reports the mean
    /// absolute error of every phase on held-out games.
    Fit(FitArgs),
    /// The mean absolute error of an evaluation against exact values: of the positions of
    /// labelled position files, or of those with `--empties` empty squares in game files.
    Test(TestArgs),
    /// Multi-ProbCut's statistics for the midgame search: on positions of game files, how the
    /// value of a search to each depth follows that of the shallow test search (slope, offset,
    /// standard deviation); prints them as a table and as the Rust table the search uses.
    Probcut(ProbcutArgs),
}

#[derive(Debug, clap::Args)]
struct ProbcutArgs {
    /// Game files (held out from training, e.g. a test run).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A weight file (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The deepest search measured.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(3..=20))]
    max_depth: u32,
    /// Only positions with at least this many empty squares.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u32).range(0..=60))]
    min_empties: u32,
    /// Only positions with at most this many empty squares.
    #[arg(long, default_value_t = 52, value_parser = clap::value_parser!(u32).range(0..=60))]
    max_empties: u32,
    /// Every this many-th such position of each game.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=1000))]
    every: u64,
    /// At most this many positions.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(10..=10_000_000))]
    positions: u64,
    /// Threads (default: all cores); the result does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

#[derive(Debug, clap::Args)]
struct LabelArgs {
    /// Game files of one run (the games to take the positions from, held out from training).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The number of empty squares of the positions (each game's first position with this
    /// many empties where the side to move can move).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=60))]
    empties: u32,
    /// Label only the games i with i % N == K (K/N, 0 <= K < N); `yomi train merge` joins the
    /// shards' files.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Threads, one solve each (default: all cores); the file does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Each thread's transposition table, in MiB (1 to 16384).
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// The labelled position file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ValuesArgs {
    /// Game files of one run.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The depth of the midgame search.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Multi-ProbCut's threshold in standard deviations (with the built-in statistics), or
    /// `off` for a full-width search.
    #[arg(long, default_value = "1.5")]
    probcut: String,
    /// The evaluation's weight file (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Search only the games i with i % N == K (K/N, 0 <= K < N); `yomi train merge` joins
    /// the shards' files.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Threads, one game each (default: all cores); the file does not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// The search value file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// WTHOR game files (`.wtb`), in order.
    #[arg(long, required = true, num_args = 1..)]
    wthor: Vec<PathBuf>,
    /// The game file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Game files of one run, or labelled position files of the same games and empties.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The game file to write.
    #[arg(long)]
    out: PathBuf,
}

// The defaults are `FitConfig::default()`'s, so the library and the command agree.
#[derive(Debug, clap::Args)]
struct FitArgs {
    /// Game files (their games are the training and validation data).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Weight sets by disc count.
    #[arg(long, default_value_t = FitConfig::default().phases as u64, value_parser = clap::value_parser!(u64).range(1..=61))]
    phases: u64,
    /// A phase also learns from positions this many discs outside its range.
    #[arg(long, default_value_t = FitConfig::default().overlap, value_parser = clap::value_parser!(u32).range(0..=60))]
    overlap: u32,
    /// A phase with fewer positions than this learns from positions further away.
    #[arg(long, default_value_t = FitConfig::default().min_rows)]
    min_rows: usize,
    /// L2 penalty per weight (the default is the best of those measured on round 2's 1.6 M
    /// positions; docs/eval.md).
    #[arg(long, default_value_t = FitConfig::default().l2)]
    l2: f64,
    /// Adam's step size (discs).
    #[arg(long, default_value_t = FitConfig::default().rate)]
    rate: f64,
    /// The most passes over the data.
    #[arg(long, default_value_t = FitConfig::default().epochs as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    epochs: u64,
    /// Stop after this many passes without a better validation error.
    #[arg(long, default_value_t = FitConfig::default().patience as u64, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    patience: u64,
    /// Games whose index modulo this is 0 are held out for validation (0: none).
    #[arg(long, default_value_t = FitConfig::default().holdout)]
    holdout: u64,
    /// Threads (default: all cores); the weights do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Search value files of the games (`yomi train values`): labels that are not exact
    /// blend the search's value with the game's result (--blend).
    #[arg(long, num_args = 1..)]
    values: Vec<PathBuf>,
    /// With --values: the search value's weight in a label that is not exact (0 to 1).
    #[arg(long, default_value_t = 0.5)]
    blend: f64,
    /// Labelled position files (test sets) whose positions, under any of the 8 symmetries,
    /// are left out of training and validation.
    #[arg(long, num_args = 1..)]
    exclude: Vec<PathBuf>,
    /// Global features beside the patterns, comma-separated: `mobility` (each side's legal
    /// moves), `potential` (each side's empty squares next to the other's discs). The weight
    /// file is then of format version 2.
    #[arg(long, value_delimiter = ',')]
    features: Vec<Feature>,
    /// The weight file to write.
    #[arg(long)]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct TestArgs {
    /// Labelled position files (`yomi train label`), or game files whose endgames were
    /// played perfectly from at least `--empties` empties.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A weight file (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The number of empty squares of the positions tested in game files (labelled
    /// position files are tested whole).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
    empties: u32,
    /// Instead of --empties: the error on the held-out games' positions (as `yomi train fit`
    /// validates: labels are the games' results) by phase, for game files.
    #[arg(long)]
    by_phase: bool,
    /// With --by-phase: the phases (by disc count) to group by.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=61))]
    phases: u64,
    /// With --by-phase: games whose index modulo this is 0 are the held-out ones (0 or 1:
    /// every game).
    #[arg(long, default_value_t = 10)]
    holdout: u64,
}

#[derive(Debug, clap::Args)]
struct GamesArgs {
    /// Games in the whole run (over all shards).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// Master seed: game i uses the random stream (seed, i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only the games i with i % N == K (K/N, 0 <= K < N); `yomi train merge` joins the
    /// shards' files.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Fewest random opening plies.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=60))]
    random_min: u32,
    /// Most random opening plies.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=60))]
    random_max: u32,
    /// Depth of the midgame search.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Exact solves at this many empty squares or fewer.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=30))]
    exact: u32,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// The midgame search's evaluation: `hand`, or `learned` (the built-in weights, or those
    /// of --weights) for a bootstrapping round.
    #[arg(long, default_value = "hand", value_parser = ["hand", "learned"])]
    player: String,
    /// With --player learned: the weight file (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The game file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Runs a `yomi train` command.
pub fn run(args: TrainArgs) -> Res<()> {
    match args.command {
        TrainCommand::Games(a) => run_games(&a),
        TrainCommand::Merge(a) if is_label_file(&a.files[0])? => {
            let sets = read_label_sets(&a.files)?;
            let merged = LabelSet::merge(sets)?;
            merged.write(&a.out)?;
            println!(
                "{} positions at {} empties; wrote {}",
                merged.positions.len(),
                merged.config.empties,
                a.out.display()
            );
            Ok(())
        }
        TrainCommand::Merge(a) if file_magic(&a.files[0])? == Some(VALUE_FILE.magic) => {
            let sets = read_value_sets(&a.files)?;
            let merged = ValueSet::merge(sets)?;
            merged.write(&a.out)?;
            println!(
                "search values of {} games of {} in the run; wrote {}",
                merged.games.len(),
                merged.config.games.games,
                a.out.display()
            );
            Ok(())
        }
        TrainCommand::Label(a) => run_label(&a),
        TrainCommand::Values(a) => run_values(&a),
        TrainCommand::Import(a) => run_import(&a),
        TrainCommand::Merge(a) => {
            let sets = read_sets(&a.files)?;
            let merged = GameSet::merge(sets)?;
            merged.write(&a.out)?;
            println!(
                "{} games of {} in the run; wrote {}",
                merged.games.len(),
                merged.config.games,
                a.out.display()
            );
            Ok(())
        }
        TrainCommand::Fit(a) => run_fit(&a),
        TrainCommand::Test(a) => run_test(&a),
        TrainCommand::Probcut(a) => run_probcut(&a),
    }
}

/// Progress lines on standard error, at most one every 30 seconds (from any thread).
struct Every30 {
    start: Instant,
    last: AtomicU64,
}

impl Every30 {
    fn new(start: Instant) -> Every30 {
        Every30 {
            start,
            last: AtomicU64::new(0),
        }
    }

    /// Prints `line(seconds so far)` if 30 seconds passed since the last line, or `always`.
    fn say(&self, always: bool, line: impl FnOnce(u64) -> String) {
        let secs = self.start.elapsed().as_secs();
        if always || secs >= self.last.load(Ordering::Relaxed) + 30 {
            self.last.store(secs, Ordering::Relaxed);
            eprintln!("{}", line(secs));
        }
    }
}

fn threads(t: Option<u64>) -> usize {
    t.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

fn run_games(a: &GamesArgs) -> Res<()> {
    if a.random_min > a.random_max {
        return Err("--random-min is above --random-max".into());
    }
    let config = GameConfig {
        seed: a.seed,
        games: a.games,
        random_min: a.random_min,
        random_max: a.random_max,
        depth: a.depth,
        exact: a.exact,
        player: match (a.player.as_str(), &a.weights) {
            ("learned", Some(path)) => format!("learned:{}", path.display()),
            ("learned", None) => "learned".to_string(),
            (_, Some(_)) => return Err("--weights needs --player learned".into()),
            _ => "hand".to_string(),
        },
    };
    let evaluator: Arc<dyn Evaluator> = match a.player.as_str() {
        "learned" => learned_weights(a.weights.as_ref())?,
        _ => Arc::new(HandEval),
    };
    let total = (0..a.games).filter(|&i| a.shard.contains(i)).count() as u64;
    let start = Instant::now();
    let every = Every30::new(start);
    let progress = |done: u64| {
        every.say(done == total, |secs| {
            format!("{done}/{total} games, {secs} s")
        })
    };
    let picker = || Box::new(SearchPicker::new(evaluator.clone())) as Box<dyn MovePicker + Send>;
    let set = generate(&config, a.shard, threads(a.threads), &picker, &progress)?;
    set.write(&a.out)?;
    let secs = start.elapsed().as_secs_f64();
    let positions: usize = set.games.iter().map(|g| g.moves.len()).sum();
    println!(
        "{} games (shard {}) in {secs:.1} s: {:.2} games/s, {:.0} positions/s; wrote {}",
        set.games.len(),
        a.shard,
        set.games.len() as f64 / secs,
        positions as f64 / secs,
        a.out.display()
    );
    Ok(())
}

/// Every file read by `read` (a game, labelled position or search value file); an error names
/// its file.
fn read_all<T>(
    files: &[PathBuf],
    read: impl Fn(&std::path::Path) -> Result<T, yomi_othello_train::TrainError>,
) -> Res<Vec<T>> {
    files
        .iter()
        .map(|f| read(f).map_err(|e| format!("{}: {e}", f.display()).into()))
        .collect()
}

fn read_sets(files: &[PathBuf]) -> Res<Vec<GameSet>> {
    read_all(files, GameSet::read)
}

fn run_fit(a: &FitArgs) -> Res<()> {
    if !(a.l2 >= 0.0 && a.l2.is_finite()) {
        return Err("--l2 must be a number >= 0".into());
    }
    if !(a.rate > 0.0 && a.rate.is_finite()) {
        return Err("--rate must be a number > 0".into());
    }
    if !(0.0..=1.0).contains(&a.blend) {
        return Err("--blend must be a number from 0 to 1".into());
    }
    let start = Instant::now();
    let sets = read_sets(&a.files)?;
    let source = RowSource {
        values: read_value_sets(&a.values)?,
        blend: a.blend,
        exclude: RowSource::exclusions(&read_label_sets(&a.exclude)?)?,
        features: a.features.clone(),
    };
    let (train, valid, counts) = rows_from(&sets, a.holdout, &source)?;
    let read_secs = start.elapsed().as_secs_f64();
    let config = FitConfig {
        phases: a.phases as usize,
        overlap: a.overlap,
        min_rows: a.min_rows,
        l2: a.l2,
        rate: a.rate,
        epochs: a.epochs as usize,
        patience: a.patience as usize,
        holdout: a.holdout,
        threads: threads(a.threads),
        features: a.features.clone(),
    };
    let mut about = format!(
        "yomi train fit {} --phases {} --overlap {} --min-rows {} --l2 {} --rate {} --epochs {} \
         --patience {} --holdout {}",
        file_names(&a.files).join(" "),
        a.phases,
        a.overlap,
        a.min_rows,
        a.l2,
        a.rate,
        a.epochs,
        a.patience,
        a.holdout
    );
    if !a.values.is_empty() {
        let names = file_names(&a.values).join(" ");
        about.push_str(&format!(" --values {names} --blend {}", a.blend));
    }
    if !a.features.is_empty() {
        let names: Vec<&str> = a.features.iter().map(|f| f.name()).collect();
        about.push_str(&format!(" --features {}", names.join(",")));
    }
    if !a.exclude.is_empty() {
        about.push_str(&format!(" --exclude {}", file_names(&a.exclude).join(" ")));
    }
    let (weights, reports) = fit(&train, &valid, &config, &about)?;
    weights.write(&a.out)?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} training and {} validation positions (read in {read_secs:.1} s); fitted in \
         {:.1} s",
        train.len(),
        valid.len(),
        secs - read_secs
    );
    if !a.values.is_empty() {
        println!(
            "{} labels blend a search value (weight {})",
            counts.blended, a.blend
        );
    }
    if !a.exclude.is_empty() {
        println!(
            "{} positions left out as test positions ({} distinct in the test files)",
            counts.excluded,
            source.exclude.len()
        );
    }
    println!("phase  discs   train  valid  MAE train  MAE valid  overlap  epochs (best)");
    for r in &reports {
        println!(
            "{:>5}  {:>2}-{:<2}  {:>6}  {:>5}  {:>9.2}  {:>9.2}  {:>7}  {} ({})",
            r.phase,
            r.discs.0,
            r.discs.1,
            r.train,
            r.valid,
            r.train_mae,
            r.valid_mae,
            r.overlap,
            r.epochs,
            r.best_epoch
        );
    }
    println!("wrote {}", a.out.display());
    Ok(())
}

/// The file names of paths (without their folders), as weight files record their inputs.
fn file_names(files: &[PathBuf]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            f.file_name().map_or_else(
                || f.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            )
        })
        .collect()
}

/// The first 8 bytes of a file (its container magic), if it has them.
fn file_magic(path: &std::path::Path) -> Res<Option<[u8; 8]>> {
    use std::io::Read;
    let mut magic = [0u8; 8];
    let mut file =
        std::fs::File::open(path).map_err(|e| format!("{}: cannot access: {e}", path.display()))?;
    let n = file.read(&mut magic).unwrap_or(0);
    Ok((n == magic.len()).then_some(magic))
}

/// Whether a file starts like a labelled position file (else it is read as a game file).
fn is_label_file(path: &std::path::Path) -> Res<bool> {
    Ok(file_magic(path)? == Some(LABEL_FILE.magic))
}

fn read_value_sets(files: &[PathBuf]) -> Res<Vec<ValueSet>> {
    read_all(files, ValueSet::read)
}

fn run_values(a: &ValuesArgs) -> Res<()> {
    let probcut = match a.probcut.as_str() {
        "off" => None,
        t => {
            let t: f64 = t
                .parse()
                .ok()
                .filter(|t: &f64| t.is_finite() && *t > 0.0 && *t <= 100.0)
                .ok_or_else(|| format!("--probcut {t}: give a number of standard deviations above 0 and at most 100, or off"))?;
            Some((t * 100.0).round() as u32)
        }
    };
    let weights = learned_weights(a.weights.as_ref())?;
    let name = evaluator_name(Some(&weights))?;
    let games = GameSet::merge(read_sets(&a.files)?)?;
    let total = games
        .games
        .iter()
        .filter(|g| a.shard.contains(g.index))
        .count();
    let start = Instant::now();
    let every = Every30::new(start);
    let progress = |done: u64| {
        every.say(false, |secs| {
            format!("{done}/{total} games searched, {secs} s")
        })
    };
    let (set, stats) = search_values(
        &games,
        a.depth,
        probcut,
        weights,
        &name,
        a.shard,
        threads(a.threads),
        &progress,
    )?;
    set.write(&a.out)?;
    let secs = start.elapsed().as_secs_f64();
    let cpu = stats.search_time.as_secs_f64();
    println!(
        "{} positions of {} games (shard {}) at depth {} in {secs:.1} s: {:.0} positions and \
         {:.1} M nodes a second of search (each search's wall clock: its CPU time on an idle \
         machine); wrote {}",
        stats.positions,
        set.games.len(),
        a.shard,
        a.depth,
        if cpu > 0.0 {
            stats.positions as f64 / cpu
        } else {
            0.0
        },
        if cpu > 0.0 {
            stats.nodes as f64 / cpu / 1e6
        } else {
            0.0
        },
        a.out.display()
    );
    Ok(())
}

fn read_label_sets(files: &[PathBuf]) -> Res<Vec<LabelSet>> {
    read_all(files, LabelSet::read)
}

fn run_label(a: &LabelArgs) -> Res<()> {
    let sets = read_sets(&a.files)?;
    let games = GameSet::merge(sets)?;
    let total = games
        .games
        .iter()
        .filter(|g| a.shard.contains(g.index))
        .count();
    let start = Instant::now();
    let every = Every30::new(start);
    let progress =
        |done: u64| every.say(false, |secs| format!("{done} positions solved, {secs} s"));
    let (set, stats) = label(
        &games,
        a.empties,
        a.shard,
        threads(a.threads),
        a.hash,
        &progress,
    )?;
    set.write(&a.out)?;
    let secs = start.elapsed().as_secs_f64();
    let solve = stats.solve_time.as_secs_f64();
    let per = if stats.solves == 0 {
        0.0
    } else {
        solve / stats.solves as f64
    };
    println!(
        "{} positions at {} empties from {total} games (shard {}) in {secs:.1} s: \
         {per:.3} s per solve (longest {:.2} s), {} nodes, {:.1} M nodes/s; wrote {}",
        set.positions.len(),
        a.empties,
        a.shard,
        stats.longest.as_secs_f64(),
        stats.nodes,
        if solve > 0.0 {
            stats.nodes as f64 / solve / 1e6
        } else {
            0.0
        },
        a.out.display()
    );
    Ok(())
}

/// The learned evaluation: the weight file at `path`, or the built-in weights without one; a
/// file that cannot be read is an error that names it.
fn learned_weights(path: Option<&PathBuf>) -> Res<Arc<Weights>> {
    Ok(match path {
        Some(path) => {
            Arc::new(Weights::read(path).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => Weights::builtin(),
    })
}

fn run_test(a: &TestArgs) -> Res<()> {
    let weights = learned_weights(a.weights.as_ref())?;
    let hand = yomi_othello_train::HandEval;
    if is_label_file(&a.files[0])? {
        let set = LabelSet::merge(read_label_sets(&a.files)?)?;
        if set.positions.is_empty() {
            return Err("no labelled positions in these files".into());
        }
        for eval in [&*weights as &dyn Evaluator, &hand] {
            let (n, mae) = set.error(eval)?;
            println!(
                "{:<8} {n} labelled positions at {} empties: mean absolute error {mae:.2} discs",
                eval.name(),
                set.config.empties
            );
        }
        return Ok(());
    }
    let sets = read_sets(&a.files)?;
    if a.by_phase {
        let phases = a.phases as usize;
        let learned = phase_errors(&*weights, &sets, a.holdout, phases)?;
        let hand = phase_errors(&hand, &sets, a.holdout, phases)?;
        println!("phase  discs  positions  MAE learned  MAE hand");
        for (k, (l, h)) in learned.iter().zip(&hand).enumerate() {
            let (lo, hi) = phase_discs(k, phases);
            println!(
                "{k:>5}  {lo:>2}-{hi:<2}  {:>9}  {:>11.2}  {:>8.2}",
                l.0, l.1, h.1
            );
        }
        return Ok(());
    }
    for eval in [&*weights as &dyn Evaluator, &hand] {
        let (n, mae) = error_at(eval, &sets, a.empties)?;
        if n == 0 {
            return Err(format!(
                "no exactly solved positions with {} empties in these files",
                a.empties
            )
            .into());
        }
        println!(
            "{:<8} {n} positions at {} empties: mean absolute error {mae:.2} discs",
            eval.name(),
            a.empties
        );
    }
    Ok(())
}

fn run_probcut(a: &ProbcutArgs) -> Res<()> {
    if a.min_empties > a.max_empties {
        return Err("--min-empties is above --max-empties".into());
    }
    let eval: Arc<dyn Evaluator> = learned_weights(a.weights.as_ref())?;
    let sets = read_sets(&a.files)?;
    let config = ProbCutConfig {
        max_depth: a.max_depth,
        min_empties: a.min_empties,
        max_empties: a.max_empties,
        every: a.every as usize,
        positions: a.positions as usize,
        threads: threads(a.threads),
    };
    let start = Instant::now();
    let stats = probcut_stats(&sets, &eval, &config)?;
    println!(
        "Multi-ProbCut statistics of the {} evaluation, {} to {} empties, in {:.1} s",
        eval.name(),
        a.min_empties,
        a.max_empties,
        start.elapsed().as_secs_f64()
    );
    println!("depth  shallow  positions     slope   offset    sigma");
    for s in &stats {
        println!(
            "{:>5}  {:>7}  {:>9}  {:>8.4}  {:>7.1}  {:>7.1}",
            s.pair.depth, s.pair.shallow, s.positions, s.pair.slope, s.pair.offset, s.pair.sigma
        );
    }
    println!("// The Rust table (yomi_othello_search::PROBCUT_LEARNED):");
    for s in &stats {
        println!(
            "    ProbCutPair {{ depth: {}, shallow: {}, slope: {:.4}, offset: {:.1}, sigma: {:.1} }},",
            s.pair.depth, s.pair.shallow, s.pair.slope, s.pair.offset, s.pair.sigma
        );
    }
    Ok(())
}

/// `yomi train import --wthor FILES --out F`.
fn run_import(a: &ImportArgs) -> Res<()> {
    let mut games = Vec::new();
    let mut names = Vec::new();
    for path in &a.wthor {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file =
            yomi_othello::wthor::GameFile::read_with(&bytes, yomi_othello::wthor::Check::Moves)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        games.extend(file.games);
        names.push(path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ));
    }
    let (set, skipped) = GameSet::from_wthor(&names.join(","), &games);
    set.write(&a.out)?;
    println!(
        "{} games of {} read ({skipped} left out: unfinished, or a score that is not the \
         board's); wrote {}",
        set.games.len(),
        games.len(),
        a.out.display()
    );
    Ok(())
}
