//! `yomi`: the command-line tool over the yomi crates.
//!
//! Every command reports bad input (unknown game, agent or parameter, malformed position,
//! illegal move, absurd counts) as one `error:` line on standard error and a non-zero exit.

use std::error::Error;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::builder::TypedValueParser;
use clap::{Parser, Subcommand};
use yomi_agents::{known_games, with_game, zoo_with_engines, GameKind, Registry, Zoo};
use yomi_arena::{
    seat_names, Adjudicator, MatchConfig, MatchResult, SolveAdjudicator, Sprt, MAX_ROUNDS,
};
use yomi_core::{perft, Game};
use yomi_nim::Nim;
use yomi_othello::{MoveSequence, Othello, Othello4, Othello6};
use yomi_protocol::EngineGame;
use yomi_tictactoe::TicTacToe;

mod analyse_cmd;
mod bench_midgame;
mod book_cmd;
mod engine_cmd;
mod explain;
mod game_files;
mod games;
mod interrupt;
mod league;
mod merge_cmd;
mod openings_cmd;
mod report;
mod serve_cmd;
mod solve_cmd;
mod stopped;
mod train_cmd;
mod tree_cmd;
mod wthor_cmd;

type Res<T> = Result<T, Box<dyn Error + Send + Sync>>;

/// yomi (読み, "reading ahead"): two-player board-game AI.
///
/// Without a command, runs the default league: every tic-tac-toe agent of the zoo against
/// random, 10000 rounds each, seed 1.
#[derive(Debug, Parser)]
#[command(name = "yomi", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play many games between two agents, colours alternating, on all cores.
    Match(MatchArgs),
    /// Count the leaves of the game tree to a depth (move-generation test).
    Perft(PerftArgs),
    /// Print a position: the board, whose turn, the legal moves.
    Show(ShowArgs),
    /// List the agents that play a game, with their parameters and defaults.
    Agents(GameArg),
    /// The exact game tree: build it and its data file, show a position's values, audit rules.
    Tree(tree_cmd::TreeArgs),
    /// Show how an agent scores every legal move of a position, the best set and its choice.
    Explain(explain::ExplainArgs),
    /// Play every listed agent (default: the whole zoo) against a baseline, one row each.
    League(league::LeagueArgs),
    /// Solve an Othello endgame exactly (or win/loss/draw): score, best move, line, nodes.
    Solve(solve_cmd::SolveArgs),
    /// Benchmarks: `yomi bench ffo` solves the FFO endgame suite and checks every score.
    Bench(solve_cmd::BenchArgs),
    /// Serve a local web page: play any game against any agent, browse the game tree.
    Serve(serve_cmd::ServeArgs),
    /// Be an engine: play an agent through NBoard or GTP on standard input and output.
    Engine(engine_cmd::EngineArgs),
    /// Opening sets for matches: `yomi openings generate` makes balanced Othello openings.
    Openings(openings_cmd::OpeningsArgs),
    /// Combine the results of `--shard K/N` runs into the tables (or JSON) of the whole run.
    Merge(merge_cmd::MergeArgs),
    /// Train the Othello pattern evaluation: self-play games, fitting, error reports.
    Train(train_cmd::TrainArgs),
    /// Review Othello games by disc loss: every move's value, the best move's, the discs it
    /// gave away, each side's total and the move that decided the game (also `analyze`).
    #[command(alias = "analyze")]
    Analyse(analyse_cmd::AnalyseArgs),
    /// The Othello opening book: new, deviate (in shards), fix, merge, show, stats, export,
    /// import.
    Book(book_cmd::BookArgs),
}

/// The `--game` parser: the names of [`known_games`], each with its description in `--help`.
fn game_parser() -> impl TypedValueParser<Value = GameKind> {
    let names = known_games().iter().map(|g| {
        clap::builder::PossibleValue::new(g.name()).help(g.description().trim_end_matches('.'))
    });
    clap::builder::PossibleValuesParser::new(names).try_map(|name| name.parse::<GameKind>())
}

#[derive(Debug, clap::Args)]
struct GameArg {
    /// The game.
    #[arg(long, default_value = "tictactoe", value_parser = game_parser())]
    game: GameKind,
}

#[derive(Debug, clap::Args)]
struct MatchArgs {
    /// Agent A, as a spec such as `random` or `pmc2:pnum=1000` (see `yomi agents`).
    #[arg(default_value = "random")]
    a: String,
    /// Agent B.
    #[arg(default_value = "random")]
    b: String,
    #[command(flatten)]
    game: GameArg,
    /// Rounds: each is one game with A first and one with B first.
    #[arg(long, default_value_t = 10_000, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=MAX_ROUNDS))]
    rounds: u64,
    /// Master seed; game i uses the stream (seed, i), so results replay exactly.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long, allow_negative_numbers = true, value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
    /// Start position in the game's notation (default: the standard start).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "openings")]
    start: Option<String>,
    /// Print the result as JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Sequential probability ratio test: stop as soon as it accepts H0 (elo0) or H1 (elo1),
    /// e.g. `elo0=0,elo1=5,alpha=0.05,beta=0.05` (logistic Elo; add `,model=normalized` for
    /// normalized Elo). Counted pair by pair in game order. Not with --shard.
    #[arg(long, conflicts_with = "shard")]
    sprt: Option<Sprt>,
    #[command(flatten)]
    run: games::RunArgs,
}

#[derive(Debug, clap::Args)]
struct PerftArgs {
    /// Depth in plies.
    #[arg(allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(0..=60))]
    depth: u32,
    #[command(flatten)]
    game: GameArg,
    /// Start position in the game's notation (default: the standard start).
    #[arg(long, allow_hyphen_values = true)]
    start: Option<String>,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// A position in the game's notation (tic-tac-toe: 9 cells of o, x, . in row-major order,
    /// e.g. `x...o...o`; the stone game: `STONES:SIDE`, e.g. `15:first`; Othello: 64 squares
    /// a1..h8 of X, O, - then the side to move, e.g. `---...--- X`).
    #[arg(allow_hyphen_values = true)]
    position: Option<String>,
    #[command(flatten)]
    game: GameArg,
    /// Moves to play from the position, separated by spaces (e.g. "(1,1) (0,0)").
    #[arg(long)]
    moves: Option<String>,
    #[command(flatten)]
    files: engine_cmd::GameFileArgs,
}

/// What the tool needs from a game beyond the core traits: a zoo and a picture.
trait CliGame: Zoo + EngineGame {
    /// The zoo with external engines (`engine`): specs on the command line are the user's own.
    fn cli_zoo() -> Registry<Self> {
        zoo_with_engines::<Self>()
    }

    /// A human-friendly, multi-line rendering of the position.
    fn picture(&self) -> String;

    /// The game's own perft leaf count, where it has a faster one than the generic walk.
    fn fast_perft(&self, _depth: u32) -> Option<u64> {
        None
    }

    /// Plays a line of moves in the game's move-list notation (default: moves separated by
    /// spaces).
    fn play_moves(&self, line: &str) -> Res<Self> {
        Ok(self.play_line(line)?)
    }

    /// The adjudicator of `--adjudicate` for this game, `None` where the game has no solver.
    fn adjudicator(rule: SolveAdjudicator) -> Option<Arc<dyn Adjudicator<Self>>> {
        let _ = rule;
        None
    }

    /// What [`Game::phase`] counts, and how many phases a line of a match's time report
    /// puts together.
    const PHASE: (&'static str, u32);
}

impl CliGame for Othello {
    const PHASE: (&'static str, u32) = ("empties", 10);

    fn picture(&self) -> String {
        self.pretty()
    }

    fn fast_perft(&self, depth: u32) -> Option<u64> {
        Some(yomi_othello::perft(self, depth))
    }

    fn adjudicator(rule: SolveAdjudicator) -> Option<Arc<dyn Adjudicator<Self>>> {
        Some(Arc::new(rule))
    }

    /// Othello lines are written run together, `f5d6c3d3`, or with spaces; `PA` is a pass.
    fn play_moves(&self, line: &str) -> Res<Self> {
        let seq: MoveSequence = line.parse()?;
        Ok(seq.play_from(self)?)
    }
}

macro_rules! small_othello_cli {
    ($board:ty) => {
        impl CliGame for $board {
            const PHASE: (&'static str, u32) = ("empties", 4);

            fn picture(&self) -> String {
                self.pretty()
            }

            fn adjudicator(rule: SolveAdjudicator) -> Option<Arc<dyn Adjudicator<Self>>> {
                Some(Arc::new(rule))
            }

            /// Moves separated by spaces or run together (`b1a1`), `PA` for a pass.
            fn play_moves(&self, line: &str) -> Res<Self> {
                let mut pos = *self;
                for word in line.split_whitespace() {
                    let chars: Vec<char> = word.chars().collect();
                    if !chars.len().is_multiple_of(2) {
                        return Err(
                            format!("bad move list {word:?}: moves are two characters").into()
                        );
                    }
                    for pair in chars.chunks(2) {
                        let text: String = pair.iter().collect();
                        pos = pos.play_line(&text)?;
                    }
                }
                Ok(pos)
            }
        }
    };
}

small_othello_cli!(Othello4);
small_othello_cli!(Othello6);

impl CliGame for TicTacToe {
    const PHASE: (&'static str, u32) = ("empty cells", 1);

    fn picture(&self) -> String {
        self.pretty()
    }
}

impl CliGame for Nim {
    const PHASE: (&'static str, u32) = ("stones", 1);

    fn picture(&self) -> String {
        let pile = "o".repeat(self.stones().min(60) as usize);
        let more = if self.stones() > 60 { " ..." } else { "" };
        match self.outcome() {
            Some(outcome) => format!("{} stones {pile}{more}\n{outcome}", self.stones()),
            None => format!(
                "{} stones {pile}{more}\nTurn {}",
                self.stones(),
                self.side_to_move()
            ),
        }
    }
}

fn main() -> ExitCode {
    interrupt::exit_quietly_on_closed_stdout();
    let cli = Cli::parse();
    let command = cli.command.unwrap_or_else(|| {
        eprintln!("(no command: running the default league; see `yomi --help`)");
        // `yomi league` with every default, as clap fills them in.
        Cli::parse_from(["yomi", "league"])
            .command
            .expect("`league` is a command")
    });
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        // A command stopped by a limit or Ctrl-C has printed its partial report.
        Err(e) => match e.downcast_ref::<stopped::Stopped>() {
            Some(stopped) => {
                eprintln!("stopped: {stopped}");
                ExitCode::from(stopped.code)
            }
            None => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
    }
}

/// External engines run in process groups of their own, out of reach of the terminal's
/// Ctrl-C: when a command plays one, the Ctrl-C handler is installed, so that the engines are
/// killed whether the command stops cleanly (dropping them) or at a second Ctrl-C.
fn guard_engines(specs: &[&str]) {
    if specs.iter().any(|s| s.contains("engine:")) {
        let _ = interrupt::stop_flag();
    }
}

fn run(command: Command) -> Res<()> {
    match &command {
        Command::Match(args) => guard_engines(&[&args.a, &args.b]),
        Command::Explain(args) => guard_engines(&[&args.agent]),
        Command::League(args) => {
            let mut specs: Vec<&str> = args.agents.iter().map(String::as_str).collect();
            specs.push(&args.baseline);
            guard_engines(&specs);
        }
        _ => {}
    }
    match command {
        Command::Train(args) => train_cmd::run(args),
        Command::Match(args) => with_game!(args.game.game, G => cmd_match::<G>(&args)),
        Command::Perft(args) => with_game!(args.game.game, G => cmd_perft::<G>(&args)),
        Command::Show(args) => with_game!(args.game.game, G => cmd_show::<G>(&args)),
        Command::Explain(args) => with_game!(args.game.game, G => explain::run::<G>(&args)),
        Command::League(args) => with_game!(args.game.game, G => league::run::<G>(&args)),
        Command::Agents(args) => with_game!(args.game, G => cmd_agents::<G>()),
        Command::Tree(args) => tree_cmd::run(args),
        Command::Solve(args) => solve_cmd::run_solve(&args),
        Command::Bench(args) => solve_cmd::run_bench(&args),
        Command::Serve(args) => serve_cmd::run(&args),
        Command::Engine(args) => engine_cmd::run(&args),
        Command::Openings(args) => openings_cmd::run(&args),
        Command::Merge(args) => merge_cmd::run(&args),
        Command::Analyse(args) => analyse_cmd::run(&args),
        Command::Book(args) => book_cmd::run(&args),
    }
}

fn parse_position<G: Game>(text: Option<&str>) -> Res<G> {
    match text {
        None => Ok(G::default()),
        Some(t) => t
            .parse::<G>()
            .map_err(|e| format!("bad {} position {t:?}: {e}", G::NAME).into()),
    }
}

fn cmd_match<G: CliGame>(args: &MatchArgs) -> Res<()> {
    let zoo = G::cli_zoo();
    let (text_a, tc_a) = args.run.split_tc(&args.a)?;
    let (text_b, tc_b) = args.run.split_tc(&args.b)?;
    // Build both agents once up front so a bad spec fails before any thread starts.
    let spec_a = zoo.build(&text_a)?.spec();
    let spec_b = zoo.build(&text_b)?.spec();
    let start: Option<G> = match &args.start {
        Some(text) => Some(parse_position(Some(text))?),
        None => None,
    };
    let openings = args.run.openings(start, args.seed)?;
    if openings.list().iter().any(|o| o.position.is_over()) {
        return Err(format!(
            "the start position {} is already finished",
            openings.list()[0].position
        )
        .into());
    }
    let config = MatchConfig {
        rounds: args.rounds,
        seed: args.seed,
        threads: args.threads.map(|t| t as usize),
    };
    args.run.apply_verbose();
    let shard = args.run.shard();
    let mut fields = serde_json::json!({
        "game": G::NAME,
        "agent_a": spec_a,
        "agent_b": spec_b,
        "rounds": args.rounds,
        "seed": args.seed,
        "sprt": args.sprt.map(|s| s.to_string()),
    });
    // A record of a run at a clock says so; one without keeps the header it had.
    if tc_a.is_some() || tc_b.is_some() {
        fields["tc"] =
            serde_json::json!([tc_a.map(|t| t.to_string()), tc_b.map(|t| t.to_string())]);
    }
    // So is a record of an adjudicated run.
    if let Some(rule) = args.run.adjudicate {
        fields["adjudicate"] = serde_json::json!(rule.to_string());
    }
    let header = games::header(
        "match",
        &fields,
        &serde_json::to_value(openings.info())?,
        shard,
    );
    let (mut recorder, mut prior) = args.run.recorder::<G>(&header)?;
    let mut options = games::options(openings, shard, recorder.is_some());
    options.sprt = args.sprt;
    options.time_controls = [tc_a, tc_b];
    options.adjudicator = args.run.adjudicator::<G>()?;
    (options.prior, options.prior_forfeits) = prior.take(0);
    options.prior_adjudicated = prior.take_adjudicated(0);
    let bar = games::games_bar(shard.games_of(args.rounds * 2));
    let clock = Instant::now();
    let mut watch = games::Watch::new(&bar, 0, String::new(), recorder.as_mut(), 0)
        .with_names(&spec_a, &spec_b);
    let result = games::play_specs(&zoo, &config, &options, (&text_a, &text_b), &mut watch);
    bar.finish_and_clear();
    let result = result?;
    let elapsed = clock.elapsed();
    games::report_end(&result);
    let mut out = io::stdout().lock();
    if args.run.shard.is_some() {
        serde_json::to_writer(
            &mut out,
            &games::ShardFile::Match {
                result: Box::new(result.clone()),
            },
        )?;
        writeln!(out)?;
    } else {
        print_match(&mut out, &result, seat_names::<G>(), args.json)?;
    }
    out.flush()?;
    let played = result.total().games() as f64;
    eprintln!(
        "{} games in {:.2} s ({} games/s); mean time per move: {} {}, {} {}",
        result.total().games(),
        elapsed.as_secs_f64(),
        report::rate(played, elapsed.as_secs_f64()),
        result.agent_a,
        report::duration(result.time[0].per_move()),
        result.agent_b,
        report::duration(result.time[1].per_move()),
    );
    let (unit, span) = G::PHASE;
    for (name, time) in [
        (&result.agent_a, &result.time[0]),
        (&result.agent_b, &result.time[1]),
    ] {
        for line in games::phase_lines(name, time, unit, span) {
            eprintln!("{line}");
        }
    }
    if tc_a.is_some() || tc_b.is_some() {
        eprintln!(
            "{}",
            games::clock_note(&[(&result.agent_a, tc_a), (&result.agent_b, tc_b)])
        );
    }
    if result.end == yomi_arena::End::Interrupted {
        return games::interrupted_error(&args.run);
    }
    Ok(())
}

/// Prints a match's tables, or its JSON.
fn print_match(
    out: &mut impl Write,
    result: &MatchResult,
    seats: [&str; 2],
    json: bool,
) -> Res<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, &report::MatchJson::new(result))?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report::match_table(result, seats))?;
    }
    Ok(())
}

fn cmd_perft<G: CliGame>(args: &PerftArgs) -> Res<()> {
    let start: G = parse_position(args.start.as_deref())?;
    println!("{} perft {} from {}", G::NAME, args.depth, start);
    let clock = Instant::now();
    let leaves = match start.fast_perft(args.depth) {
        // The game's bulk-counting perft gives the standard count only.
        Some(leaves) => leaves,
        None => {
            let count = perft(&start, args.depth);
            println!("nodes at depth {}    {}", args.depth, count.at_depth);
            println!("games ended earlier  {}", count.ended_early);
            count.leaves()
        }
    };
    let secs = clock.elapsed().as_secs_f64();
    println!("leaves (perft)       {leaves}");
    println!(
        "time {:.3} s, {} leaves/s",
        secs,
        report::rate(leaves as f64, secs)
    );
    Ok(())
}

fn cmd_show<G: CliGame>(args: &ShowArgs) -> Res<()> {
    if args.files.ggf.is_some() {
        if args.position.is_some() {
            return Err("give a position or --ggf FILE, not both".into());
        }
        return engine_cmd::show_ggf(&args.files, args.game.game, args.moves.as_deref());
    }
    if args.files.wthor.is_some() {
        if args.position.is_some() {
            return Err("give a position or --wthor FILE, not both".into());
        }
        return wthor_cmd::show_wthor(&args.files, args.game.game, args.moves.as_deref());
    }
    let mut pos: G = parse_position(args.position.as_deref())?;
    if let Some(line) = &args.moves {
        pos = pos.play_moves(line)?;
    }
    println!("{}", pos.picture());
    println!("position {pos}");
    if !pos.is_over() {
        let moves: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        println!("legal moves ({}): {}", moves.len(), moves.join(" "));
    }
    Ok(())
}

fn cmd_agents<G: CliGame>() -> Res<()> {
    let zoo = G::cli_zoo();
    println!("agents for {}:", G::NAME);
    for info in zoo.infos() {
        println!("  {:<12} {}", info.name, info.summary);
        for p in &info.params {
            println!("      {}={:<10} {}", p.name, p.default, p.help);
        }
        if let Some(levels) = yomi_agents::agent_levels(G::NAME, info.name) {
            println!(
                "      levels ({}:level=N; no time limit unless time= is given):",
                info.name
            );
            println!("        level  depth  probcut  wld  exact");
            for l in levels {
                let probcut = l
                    .probcut
                    .map_or_else(|| "off".to_string(), |t| t.to_string());
                println!(
                    "        {:>5}  {:>5}  {:>7}  {:>3}  {:>5}",
                    l.level, l.depth, probcut, l.wld, l.exact
                );
            }
        }
    }
    Ok(())
}
