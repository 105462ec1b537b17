//! `yomi book`: the Othello opening book's tools over `yomi_othello_search::Book` (new,
//! deviate, store, fix, merge, show, stats, openings, export, import).

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use yomi_core::Shard;
use yomi_othello::{Move, MoveSequence, Othello};
use yomi_othello_search::{
    depth_text, weights_digest, Book, BookBuilder, BuildConfig, DeviateBudget, RoundPart,
    RoundStamp, Weights, EXACT_DEPTH, WLD_DEPTH,
};

use crate::game_files::read_games;
use crate::Res;

/// Arguments of `yomi book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Debug, clap::Subcommand)]
enum BookCommand {
    /// A new book: the start position and, with --lines, every position of the games of a
    /// GGF or WTHOR file, a match record or a file of move lines (one a line, as the openings
    /// files), each valued.
    New(NewArgs),
    /// One round of expansion: the leaves within the budget, reached from the start through
    /// book moves within it, get their positions added and valued. With --shard K/N only
    /// that part of the round, written as updates for `yomi book merge`.
    Deviate(DeviateArgs),
    /// Add games to a book: every position of each game of the files (GGF, WTHOR, match
    /// records, move lines) up to --plies moves, the new ones valued, then fix the book.
    Store(StoreArgs),
    /// Negamax the book from its leaves to the start.
    Fix(FileArg),
    /// Apply deviate shards' updates to the book they came from, then fix it (--union:
    /// merge independent books instead, keeping the deeper value of a position in both).
    Merge(MergeArgs),
    /// The book moves of a position (the start, a move line, or a board), with their values,
    /// depths and lines.
    Show(ShowArgs),
    /// Positions, leaves, depths and values of the book.
    Stats(FileArg),
    /// An openings file for `yomi match --openings`: a move line to each book position at
    /// --ply whose value is within --within discs of even, with its value for black.
    Openings(OpeningsArgs),
    /// How right the book's values are: a sample of its positions valued again by a deeper
    /// search (or exact solves near the end), with the mean absolute difference.
    Check(CheckArgs),
    /// The book as text (one line a position), to standard output or --out.
    Export(ExportArgs),
    /// A book from its text form.
    Import(ImportArgs),
}

/// How new positions are valued.
#[derive(Debug, clap::Args)]
struct ValueArgs {
    /// The midgame search's depth for the moves of a new position (full width).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Solve the moves exactly at this many empty squares or fewer (at most 24).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(0..=24))]
    exact: u32,
    /// Above --exact and at this many empty squares or fewer, prove each move's midgame value
    /// win, draw or loss with a solve (a win at least +2, a draw 0, a loss at most -2; depth
    /// `wld`); 0: none (at most 26).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=26))]
    wld: u32,
    /// The size of the search's tables, in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=16384))]
    hash_mb: u64,
}

impl ValueArgs {
    fn config(&self) -> BuildConfig {
        BuildConfig {
            depth: self.depth,
            exact: self.exact,
            wld: self.wld,
            hash_mb: self.hash_mb as usize,
        }
    }

    fn builder(&self) -> Res<BookBuilder> {
        Ok(BookBuilder::new(self.config(), Weights::builtin())?)
    }
}

#[derive(Debug, clap::Args)]
struct NewArgs {
    /// Games to put in the book: a GGF or WTHOR (`.wtb`) file, a match record (`yomi match
    /// --record`) or a file of move lines (one a line); each must start from the start.
    #[arg(long, value_name = "FILE")]
    lines: Option<PathBuf>,
    #[command(flatten)]
    value: ValueArgs,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct DeviateArgs {
    /// The book.
    book: PathBuf,
    /// The most a followed book move or an expanded leaf may lose against its position, in
    /// discs.
    #[arg(long, default_value_t = 2)]
    per_move: i32,
    /// The most the moves of a line from the start may lose in all, in discs.
    #[arg(long, default_value_t = 4)]
    total: i32,
    /// Up to this many plies every move is followed and every leaf expanded.
    #[arg(long, default_value_t = 0)]
    min_ply: u32,
    #[command(flatten)]
    value: ValueArgs,
    /// Only this part of the round (`K/N`): the updates go to --out, for `yomi book merge`.
    #[arg(long)]
    shard: Option<Shard>,
    /// Threads, each valuing its own share of the leaves with its own tables (the book is the
    /// same, byte for byte, at any count).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Where to write (default: the book itself, fixed; with --shard, required).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct StoreArgs {
    /// The book.
    book: PathBuf,
    /// The games: GGF or WTHOR (`.wtb`) files, match records (`yomi match --record`) or
    /// files of move lines; each game must start from the start position (a record's opening
    /// a move line).
    #[arg(required = true)]
    games: Vec<PathBuf>,
    /// Only the first this many moves of each game (default: the whole game).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    plies: Option<u32>,
    #[command(flatten)]
    value: ValueArgs,
    /// Where to write (default: the book itself).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct CheckArgs {
    /// The book.
    book: PathBuf,
    /// How many positions to check, drawn at random (seeded) among those with --min-empties
    /// or more (all of them if fewer).
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Only positions with at least this many empty squares.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
    min_empties: u32,
    /// The seed of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How the positions are valued again (a deeper depth than the book's, or exact solves
    /// from more empties).
    #[command(flatten)]
    value: ValueArgs,
}

#[derive(Debug, clap::Args)]
struct OpeningsArgs {
    /// The book.
    book: PathBuf,
    /// Discs played into the game (the openings files of `data/openings` have 8).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=59))]
    ply: u32,
    /// The most the position's value may differ from even, in discs.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(i32).range(0..=64))]
    within: i32,
    /// The file to write (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct FileArg {
    /// The book.
    book: PathBuf,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The book the shards came from (or, with --union, the first book).
    book: PathBuf,
    /// The parts of one deviate round of BOOK, every shard once (`yomi book deviate
    /// --shard`), or, with --union, the other books.
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Merge independent books instead of applying deviate shards.
    #[arg(long)]
    union: bool,
    /// The merged book.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// The book.
    book: PathBuf,
    /// The position: a move line from the start (`f5 d6`), a board (`yomi show` notation), or
    /// nothing for the start.
    position: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// The book.
    book: PathBuf,
    /// The text file to write (default: standard output).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// The text file.
    text: PathBuf,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

fn read(path: &Path) -> Res<Book> {
    Book::read(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// A part of a deviate round; a whole book in its place is pointed to `--union`.
fn read_part(path: &Path) -> Res<RoundPart> {
    RoundPart::read(path).map_err(|e| {
        if Book::read(path).is_ok() {
            format!(
                "{}: a whole book, not a part of a deviate round (yomi book deviate --shard); \
                 --union merges whole books",
                path.display()
            )
            .into()
        } else {
            format!("{}: {e}", path.display()).into()
        }
    })
}

fn write(book: &Book, path: &Path) -> Res<()> {
    book.write(path)
        .map_err(|e| format!("{}: {e}", path.display()).into())
}

/// The games of `path` as move lines from the start position.
fn read_lines(path: &Path) -> Res<Vec<Vec<Move>>> {
    read_games(path, None)?
        .into_iter()
        .map(|g| {
            g.line_from_start().ok_or_else(|| {
                format!(
                    "{} game {}: a book's lines start from the start position",
                    path.display(),
                    g.index
                )
                .into()
            })
        })
        .collect()
}

/// Refuses a book valued with other weights than the built-in ones, which value its new
/// positions.
fn same_weights(book: &Book, path: &Path) -> Res<()> {
    let ours = weights_digest(&Weights::builtin())?;
    if book.weights() != ours {
        return Err(format!(
            "{}: valued with other weights ({:016x}) than the built-in ones ({ours:016x}) that \
             would value its new positions",
            path.display(),
            book.weights()
        )
        .into());
    }
    Ok(())
}

fn bar(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what} {{per_sec}} {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// `+3`, `-2`, `0`.
fn disc(v: i8) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// Runs `yomi book`.
pub fn run(args: &BookArgs) -> Res<()> {
    match &args.command {
        BookCommand::New(a) => {
            let lines = match &a.lines {
                Some(p) => read_lines(p)?,
                None => Vec::new(),
            };
            let started = Instant::now();
            let digest = weights_digest(&Weights::builtin())?;
            let book = a.value.builder()?.new_book(digest, &lines)?;
            write(&book, &a.out)?;
            println!(
                "{}: {} positions from {} lines in {:.1} s",
                a.out.display(),
                book.len(),
                lines.len(),
                started.elapsed().as_secs_f64()
            );
        }
        BookCommand::Deviate(a) => {
            let book = read(&a.book)?;
            same_weights(&book, &a.book)?;
            let budget = DeviateBudget {
                per_move: a.per_move,
                total: a.total,
                min_ply: a.min_ply,
            };
            let frontier = book.frontier(&budget);
            let shard = a.shard.unwrap_or(Shard::WHOLE);
            let out = match (&a.out, a.shard) {
                (Some(o), _) => o.clone(),
                (None, None) => a.book.clone(),
                (None, Some(_)) => return Err("--shard writes updates: give --out".into()),
            };
            let started = Instant::now();
            let progress = bar(frontier.len(), "leaves");
            let updates = a.value.builder()?.deviate_threads(
                &book,
                &frontier,
                shard,
                a.threads as usize,
                |_| progress.inc(1),
            )?;
            progress.finish_and_clear();
            let new = updates.iter().filter(|(p, _)| !book.contains(p)).count();
            if a.shard.is_some() {
                let count = updates.len();
                let part = RoundPart {
                    stamp: RoundStamp::new(
                        &book,
                        &budget,
                        &a.value.config(),
                        frontier.len(),
                        shard,
                    )?,
                    updates,
                };
                part.write(&out)
                    .map_err(|e| format!("{}: {e}", out.display()))?;
                println!(
                    "{}: shard {shard} of a round of {} leaves: {} updates, {new} new positions \
                     in {:.1} s",
                    out.display(),
                    frontier.len(),
                    count,
                    started.elapsed().as_secs_f64()
                );
            } else {
                let mut book = book;
                book.apply(&updates);
                book.fix();
                write(&book, &out)?;
                println!(
                    "{}: a round of {} leaves: {new} new positions, {} in all, in {:.1} s",
                    out.display(),
                    frontier.len(),
                    book.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        BookCommand::Store(a) => {
            let mut book = read(&a.book)?;
            same_weights(&book, &a.book)?;
            let mut lines = Vec::new();
            for path in &a.games {
                lines.extend(read_lines(path)?);
            }
            let started = Instant::now();
            let plies = a.plies.map(|p| p as usize);
            let added = a.value.builder()?.store(&mut book, &lines, plies)?;
            let out = a.out.as_ref().unwrap_or(&a.book);
            write(&book, out)?;
            println!(
                "{}: {} games stored, {added} new positions, {} in all, in {:.1} s",
                out.display(),
                lines.len(),
                book.len(),
                started.elapsed().as_secs_f64()
            );
        }
        BookCommand::Fix(a) => {
            let mut book = read(&a.book)?;
            let changed = book.fix();
            write(&book, &a.book)?;
            println!("{}: {changed} values changed", a.book.display());
        }
        BookCommand::Merge(a) => {
            let mut book = read(&a.book)?;
            if a.union {
                for p in &a.parts {
                    let part = read(p)?;
                    if part.weights() != book.weights() {
                        return Err(format!(
                            "{}: valued with other weights ({:016x}) than {} ({:016x})",
                            p.display(),
                            part.weights(),
                            a.book.display(),
                            book.weights()
                        )
                        .into());
                    }
                    book.merge(&part);
                }
                book.fix();
            } else {
                let parts = a
                    .parts
                    .iter()
                    .map(|p| read_part(p))
                    .collect::<Res<Vec<RoundPart>>>()?;
                book.merge_round(&parts)
                    .map_err(|e| format!("{}: {e}", a.book.display()))?;
            }
            write(&book, &a.out)?;
            println!("{}: {} positions", a.out.display(), book.len());
        }
        BookCommand::Show(a) => {
            let book = read(&a.book)?;
            let pos = match &a.position {
                None => Othello::new(),
                Some(t) => match t.parse::<MoveSequence>() {
                    Ok(line) => line
                        .play_from(&Othello::new())
                        .map_err(|e| format!("move line {t:?}: {e}"))?,
                    Err(_) => t
                        .parse::<Othello>()
                        .map_err(|e| format!("bad position {t:?}: {e}"))?,
                },
            };
            println!("{}", pos.pretty().trim_end());
            let Some(e) = book.get(&pos) else {
                println!("not in the book");
                return Ok(());
            };
            println!(
                "in the book: value {} for the side to move, {} lines",
                disc(e.value),
                e.lines
            );
            println!("{:<5} {:>6} {:>6} {:>7}", "move", "value", "depth", "lines");
            for m in book.moves(&pos) {
                println!(
                    "{:<5} {:>6} {:>6} {:>7}{}",
                    m.mv.to_string(),
                    disc(m.value),
                    depth_text(m.depth),
                    m.lines,
                    if m.leaf {
                        "  (leaf: not in the book)"
                    } else {
                        ""
                    }
                );
            }
        }
        BookCommand::Stats(a) => {
            let book = read(&a.book)?;
            let mut by_discs = std::collections::BTreeMap::new();
            let (mut leaves, mut exact, mut wld) = (0usize, 0usize, 0usize);
            for (pos, e) in book.iter() {
                *by_discs.entry(64 - pos.empties().count()).or_insert(0usize) += 1;
                leaves += usize::from(e.leaf.is_some());
                exact += usize::from(e.depth == EXACT_DEPTH);
                wld += usize::from(e.depth == WLD_DEPTH);
            }
            let start = book.get(&Othello::new());
            println!("{}: {} positions", a.book.display(), book.len());
            println!("weights digest: {:016x}", book.weights());
            println!("with a leaf: {leaves}; valued exactly: {exact}; proved win/draw/loss: {wld}");
            if let Some(e) = start {
                println!("start: value {}, {} lines", disc(e.value), e.lines);
            }
            println!("positions by ply:");
            for (discs, n) in by_discs {
                println!("  {:>3} {n}", discs - 4);
            }
        }
        BookCommand::Openings(a) => {
            let book = read(&a.book)?;
            let lines = book.lines_at(a.ply, a.within);
            let mut text = format!(
                "# yomi book openings: {} Othello lines of {} plies from {}, value within {} \
                 discs\n# made by: yomi book openings {} --ply {} --within {}\n# value: discs \
                 for black, the book's negamaxed value\n",
                lines.len(),
                a.ply,
                a.book.display(),
                a.within,
                a.book.display(),
                a.ply,
                a.within
            );
            for (line, value) in &lines {
                let moves: String = line.iter().map(ToString::to_string).collect();
                text.push_str(&format!(
                    "{moves}\t{}\n",
                    disc((*value).clamp(-64, 64) as i8)
                ));
            }
            match &a.out {
                Some(p) => std::fs::write(p, text)
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?,
                None => print!("{text}"),
            }
            if lines.is_empty() {
                eprintln!(
                    "no book position at ply {} is within {} discs",
                    a.ply, a.within
                );
            }
        }
        BookCommand::Check(a) => check(a)?,
        BookCommand::Export(a) => {
            let text = read(&a.book)?.export();
            match &a.out {
                Some(p) => std::fs::write(p, text)
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?,
                None => print!("{text}"),
            }
        }
        BookCommand::Import(a) => {
            let text = std::fs::read_to_string(&a.text)
                .map_err(|e| format!("cannot read {}: {e}", a.text.display()))?;
            let book = Book::import(&text).map_err(|e| format!("{}: {e}", a.text.display()))?;
            write(&book, &a.out)?;
            println!("{}: {} positions", a.out.display(), book.len());
        }
    }
    Ok(())
}

/// `yomi book check`: a seeded sample of the book's positions valued again, and how far the
/// book's values are from those.
fn check(a: &CheckArgs) -> Res<()> {
    let book = read(&a.book)?;
    let mut candidates: Vec<Othello> = book
        .iter()
        .map(|(pos, _)| pos)
        .filter(|pos| pos.empties().count() >= a.min_empties)
        .collect();
    // A seeded partial shuffle: the first `n` are the sample.
    let n = a.positions.min(candidates.len());
    let mut rng = yomi_core::Rng::seed_from_u64(a.seed);
    for i in 0..n {
        let j = i + rng.below(candidates.len() - i);
        candidates.swap(i, j);
    }
    let sample = &candidates[..n];
    if sample.is_empty() {
        return Err(format!(
            "{}: no position with {} or more empty squares",
            a.book.display(),
            a.min_empties
        )
        .into());
    }
    let mut builder = a.value.builder()?;
    let started = Instant::now();
    let progress = bar(n, "positions");
    let (mut abs, mut signed, mut worst, mut same_sign) = (0i64, 0i64, 0i32, 0usize);
    let mut checked = 0usize;
    let mut depths = std::collections::BTreeMap::new();
    for pos in sample {
        let Some(entry) = book.get(pos) else { continue };
        let Some((reference, depth)) = builder.value(pos) else {
            continue;
        };
        let d = i32::from(entry.value) - i32::from(reference);
        abs += i64::from(d.abs());
        signed += i64::from(d);
        worst = worst.max(d.abs());
        same_sign += usize::from(entry.value.signum() == reference.signum());
        checked += 1;
        *depths.entry(depth_text(depth)).or_insert(0usize) += 1;
        progress.inc(1);
    }
    progress.finish_and_clear();
    let k = checked.max(1) as f64;
    println!(
        "{}: {checked} positions with {} or more empties (seed {}), valued again at depth {}, exact \
         from {} empties{} ({}) in {:.1} s",
        a.book.display(),
        a.min_empties,
        a.seed,
        a.value.depth,
        a.value.exact,
        if a.value.wld > a.value.exact {
            format!(", WLD from {}", a.value.wld)
        } else {
            String::new()
        },
        depths
            .iter()
            .map(|(d, c)| format!("{c} at {d}"))
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64()
    );
    println!(
        "the book against them: mean absolute difference {:.2} discs, mean {:+.2}, largest {}; \
         the same sign (win, draw or loss) in {same_sign} of {checked}",
        abs as f64 / k,
        signed as f64 / k,
        worst
    );
    Ok(())
}
