//! Playing matches for the commands: the options `match` and `league` share (openings,
//! shards, records), a progress bar on standard error, and an observer that records games.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use yomi_agents::Registry;
use yomi_arena::{
    record_header, run_match, Adjudicator, AgentTime, EloEstimate, FinishedGame, GameLine,
    MatchConfig, MatchError, MatchResult, Observer, OpeningOrder, Openings, PriorGames, Progress,
    RecordFormat, Recorder, RunOptions, Scores, Shard, SolveAdjudicator,
};
use yomi_core::{AgentSpec, Game, TimeControl};
use yomi_protocol::EngineGame;

use crate::{interrupt, report, CliGame, Res};

/// Options shared by `match` and `league`: where games start, which games to play, and where
/// they are recorded.
#[derive(Debug, Clone, clap::Args)]
pub struct RunArgs {
    /// Openings file: one per line, a move line (`f5d6c3d3`, or moves separated by spaces) or
    /// a position; `#` comments; an optional value after a tab. Each round plays one opening
    /// with both colours.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// The order rounds take the openings in (random: a shuffle seeded by --seed).
    #[arg(long, default_value = "sequential", requires = "openings")]
    pub openings_order: OpeningOrder,
    /// Play only the games with index K mod N (e.g. 0/4) and print the shard's results as
    /// JSON, for `yomi merge`.
    #[arg(long)]
    pub shard: Option<Shard>,
    /// Append every finished game to FILE as a JSON line (the first line names the run), or
    /// as a GGF record when FILE ends in `.ggf` (Othello).
    #[arg(long, conflicts_with = "resume")]
    pub record: Option<PathBuf>,
    /// Continue the interrupted run recorded in FILE (made with --record): its games count,
    /// the others are played and appended; the result is the uninterrupted run's.
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Log on standard error every line an external engine prints that its protocol does not
    /// know (banners, search tables: they are ignored, as GUIs do).
    #[arg(long)]
    pub verbose: bool,
    /// Play at a time control, BASE+INC in seconds (e.g. 5+0.05): the harness keeps each
    /// side's clock, gives it to the agent before each move, and a side out of time loses
    /// with `forfeit: timeout`. An agent's `tc=` (`tc=none`: no clock) overrides it for that
    /// side. Games at a clock depend on the machine's timing.
    #[arg(long, allow_hyphen_values = true)]
    pub tc: Option<TimeControl>,
    /// Adjudicate Othello games by endgame solve, `exact=E` or `wld=E` (E from 0 to 24): at
    /// the first position with E or fewer empty squares whose side to move has a move, the
    /// solver (one thread, no time limit) proves how perfect play ends the game, and the game
    /// is scored so (`exact`: the final disc difference; `wld`: win, loss or draw only). The
    /// endgame's mistakes no longer decide games, and its moves are not played (whether that
    /// saves time depends on what they cost against the solve); results stay the same at any
    /// --threads. Tables, JSON and records say which games were adjudicated and with what
    /// proved score.
    #[arg(long, value_name = "exact=E|wld=E")]
    pub adjudicate: Option<SolveAdjudicator>,
}

impl RunArgs {
    /// The openings: the file's, or every game from `start`.
    pub fn openings<G: CliGame>(&self, start: Option<G>, seed: u64) -> Res<Openings<G>> {
        let Some(path) = &self.openings else {
            return Ok(Openings::single(start.unwrap_or_default()));
        };
        if start.is_some() {
            return Err("--start and --openings cannot be used together".into());
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the openings {}: {e}", path.display()))?;
        let set = Openings::parse(&path.display().to_string(), &text, |line| {
            line.parse::<G>()
                .map_err(|e| e.to_string())
                .or_else(|_| G::default().play_moves(line).map_err(|e| e.to_string()))
        })?;
        Ok(set.with_order(self.openings_order, seed))
    }

    /// Switches the logging of the lines external engines print beyond their protocol on
    /// with `--verbose`.
    pub fn apply_verbose(&self) {
        if self.verbose {
            yomi_protocol::log_ignored_lines(true);
        }
    }

    /// An agent's spec without its `tc=` parameter, and that side's time control: the
    /// spec's own (`tc=none` for no clock), else `--tc`.
    pub fn split_tc(&self, spec: &str) -> Res<(String, Option<TimeControl>)> {
        if !spec.contains("tc=") {
            return Ok((spec.to_string(), self.tc));
        }
        let parsed: AgentSpec = spec.parse()?;
        let mut rest = AgentSpec::new(parsed.name())?;
        let mut tc = self.tc;
        for (key, value) in parsed.params() {
            if key == "tc" {
                tc = match value.as_str() {
                    "none" => None,
                    v => Some(v.parse::<TimeControl>()?),
                };
            } else {
                rest.set(key, value.clone())?;
            }
        }
        Ok((rest.to_string(), tc))
    }

    /// The adjudicator of `--adjudicate`, for game `G`.
    pub fn adjudicator<G: CliGame>(&self) -> Res<Option<Arc<dyn Adjudicator<G>>>> {
        let Some(rule) = self.adjudicate else {
            return Ok(None);
        };
        match G::adjudicator(rule) {
            Some(judge) => Ok(Some(judge)),
            None => Err(format!(
                "--adjudicate solves Othello endgames: {} has no solver",
                G::NAME
            )
            .into()),
        }
    }

    /// The shard to play.
    pub fn shard(&self) -> Shard {
        self.shard.unwrap_or(Shard::WHOLE)
    }

    /// Opens the record: a new one for --record, the old one for --resume (with its games).
    pub fn recorder<G: EngineGame>(&self, header: &Value) -> Res<(Option<Recorder>, PriorGames)> {
        for path in [&self.record, &self.resume].into_iter().flatten() {
            if RecordFormat::of(path) == RecordFormat::Ggf && G::default().nboard_record().is_none()
            {
                return Err(format!(
                    "{}: GGF records hold Othello games; record {} games in a JSON-lines file",
                    path.display(),
                    G::NAME
                )
                .into());
            }
        }
        if let Some(path) = &self.resume {
            let (r, prior) = Recorder::resume(path, header)?;
            let n = prior.count();
            eprintln!("resuming {}: {n} games already played", path.display());
            return Ok((Some(r), prior));
        }
        if let Some(path) = &self.record {
            return Ok((Some(Recorder::create(path, header)?), PriorGames::new()));
        }
        Ok((None, PriorGames::new()))
    }
}

/// The line that says a run was played at a clock: each side's time control, and that the
/// games depend on the machine's timing.
pub fn clock_note(sides: &[(&str, Option<TimeControl>)]) -> String {
    let each: Vec<String> = sides
        .iter()
        .map(|(name, tc)| match tc {
            Some(tc) => format!("{} {tc}", report::display_name(name)),
            None => format!("{} none", report::display_name(name)),
        })
        .collect();
    format!(
        "clock: {} (seconds, BASE+INC; games at a clock depend on the machine's timing and do \
         not repeat exactly)",
        each.join(", ")
    )
}

/// What an agent's moves cost by phase of the game (`unit`: what [`Game::phase`] counts),
/// for the end of a match: the time a move in spans of `span` phases, from the start's end
/// down; then each kind of move the agent reported with its count and the phases where
/// each game's first move of that kind came (where the agent started to solve, say).
/// Nothing for a game without phases.
pub fn phase_lines(name: &str, time: &AgentTime, unit: &str, span: u32) -> Vec<String> {
    let Some(&top) = time.phases.keys().next_back() else {
        return Vec::new();
    };
    let name = report::display_name(name);
    let span = span.max(1);
    let mut spans = Vec::new();
    // Spans of `span` phases aligned to its multiples (60-51, 50-41, ... for 10), from the
    // highest down; phase 0 alone.
    let mut high = top.div_ceil(span) * span;
    loop {
        let low = if high == 0 { 0 } else { high - span + 1 };
        let (moves, secs) = time.in_phases(low..=high);
        if moves > 0 {
            let range = if low == high {
                format!("{high}")
            } else {
                format!("{high}-{low}")
            };
            spans.push(format!(
                "{range}: {} ({moves})",
                report::duration(secs / moves as f64)
            ));
        }
        if low == 0 {
            break;
        }
        high = low - 1;
    }
    let mut lines = vec![format!(
        "time a move by {unit}, {name}: {} (moves in brackets)",
        spans.join(", ")
    )];
    let kinds = time.kinds();
    if !kinds.is_empty() {
        let each: Vec<String> = kinds
            .iter()
            .map(|(kind, count)| {
                let at: Vec<String> = time
                    .firsts(kind)
                    .iter()
                    .rev()
                    .map(|(p, n)| format!("{p}: {n}"))
                    .collect();
                format!(
                    "{kind} {} (a game's first at {unit} {})",
                    count.moves,
                    at.join(", ")
                )
            })
            .collect();
        lines.push(format!("moves by kind, {name}: {}", each.join("; ")));
    }
    lines
}

/// The record header of a run (see [`record_header`]).
pub fn header(kind: &str, fields: &Value, openings: &Value, shard: Shard) -> Value {
    record_header(kind, fields, openings, shard)
}

/// A shard's results, as `--shard` prints them and `yomi merge` reads them.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ShardFile {
    /// One match.
    Match {
        /// The shard's result.
        result: Box<MatchResult>,
    },
    /// A league: the listed agents and one match per agent.
    League {
        /// The agents as listed.
        agents: Vec<String>,
        /// The baseline's full spec.
        baseline: String,
        /// One shard result per agent.
        results: Vec<MatchResult>,
    },
    /// Positions of `bench ffo`.
    Bench(yomi_othello_search::BenchShard),
}

/// A progress bar on standard error for `games` games (hidden when stderr is not a terminal);
/// `{msg}` shows what is playing and the running Elo or log-likelihood ratio.
pub fn games_bar(games: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(games), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games {per_sec} {elapsed} (eta {eta}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Watches a match for a command: moves the bar and records games.
pub struct Watch<'a> {
    /// The bar.
    pub bar: &'a ProgressBar,
    /// Games counted before this match (earlier league rows).
    pub offset: u64,
    /// What is playing (a league row's agent).
    pub label: String,
    /// The record, if any.
    pub recorder: Option<&'a mut Recorder>,
    /// The league row.
    pub match_no: usize,
    /// When a progress line was last written (batch jobs: no terminal, no bar).
    pub printed: Instant,
    /// The names of A and B in GGF records.
    pub names: [String; 2],
}

impl<'a> Watch<'a> {
    /// A watch over `bar` for league row `match_no`, whose games come after `offset` others.
    pub fn new(
        bar: &'a ProgressBar,
        offset: u64,
        label: String,
        recorder: Option<&'a mut Recorder>,
        match_no: usize,
    ) -> Watch<'a> {
        Watch {
            bar,
            offset,
            label,
            recorder,
            match_no,
            printed: Instant::now(),
            names: Default::default(),
        }
    }

    /// The watch with the names GGF records give A and B (their specs, or an engine's
    /// `name=`).
    pub fn with_names(mut self, a: &str, b: &str) -> Watch<'a> {
        self.names = [report::display_name(a), report::display_name(b)];
        self
    }
}

impl<G: EngineGame> Observer<G> for Watch<'_> {
    fn finished(&mut self, game: &FinishedGame<'_, G>) -> Result<(), String> {
        let Some(r) = &mut self.recorder else {
            return Ok(());
        };
        if r.format() == RecordFormat::Ggf {
            let record = game
                .opening
                .position
                .ggf_game(game.moves)
                .ok_or_else(|| format!("game {} cannot be written as GGF", game.index))?;
            let names = [self.names[0].as_str(), self.names[1].as_str()];
            return r
                .ggf_game(
                    record,
                    self.match_no,
                    game.index,
                    names,
                    game.forfeit,
                    game.adjudication,
                )
                .map_err(|e| e.to_string());
        }
        let moves: Vec<String> = game.moves.iter().map(ToString::to_string).collect();
        r.json_game(&GameLine {
            match_no: self.match_no,
            index: game.index,
            opening: game.opening.text.clone(),
            a_first: game.a_first,
            result: game.result,
            moves: moves.join(" "),
            forfeit: game.forfeit.cloned(),
            adjudication: game.adjudication.cloned(),
        })
        .map_err(|e| e.to_string())
    }

    fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
        self.bar.set_position(self.offset + p.done);
        let running = match p.llr {
            Some(llr) => format!("LLR {llr:+.2}"),
            None => {
                let scores = if p.pairs.pairs() > 0 {
                    Scores::pentanomial(&p.pairs)
                } else {
                    Scores::trinomial(&p.tally)
                };
                let e = EloEstimate::of(&scores);
                format!("Elo {:+.1} +- {:.1}", e.elo, e.error)
            }
        };
        let message = format!("{} {running}", self.label);
        // Without a terminal (a batch job's log) the bar is hidden: a line every minute.
        if self.bar.is_hidden() && self.printed.elapsed() >= Duration::from_secs(60) {
            self.printed = Instant::now();
            let done = self.offset + p.done;
            let len = self.bar.length().unwrap_or(done);
            let secs = self.bar.elapsed().as_secs_f64();
            let rate = done as f64 / secs.max(1e-9);
            let left = len.saturating_sub(done) as f64 / rate.max(1e-9);
            eprintln!(
                "{done}/{len} games, {rate:.1} games/s, {secs:.0} s elapsed, about {left:.0} s left; {}",
                message.trim()
            );
        }
        self.bar.set_message(message);
        ControlFlow::Continue(())
    }

    fn tick(&mut self) -> Result<(), String> {
        match &mut self.recorder {
            Some(r) => r.tick().map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }
}

/// Plays a match between the agents `a` and `b` of `zoo`, fresh agents for every game.
///
/// Both specs must already have built once: a spec that builds once builds every time.
pub fn play_specs<G: EngineGame>(
    zoo: &Registry<G>,
    config: &MatchConfig,
    options: &RunOptions<G>,
    (a, b): (&str, &str),
    watch: &mut Watch<'_>,
) -> Result<MatchResult, MatchError> {
    let result = run_match(
        config,
        options,
        || zoo.build(a).expect("spec checked before the match"),
        || zoo.build(b).expect("spec checked before the match"),
        watch,
    );
    if let Some(r) = &mut watch.recorder {
        r.flush().map_err(|e| MatchError::Observer(e.to_string()))?;
    }
    result
}

/// The run options of a command: openings, shard, the Ctrl-C flag, moves kept for a record.
pub fn options<G: Game>(openings: Openings<G>, shard: Shard, recording: bool) -> RunOptions<G> {
    let mut o = RunOptions::new(openings);
    o.shard = shard;
    o.stop = interrupt::stop_flag();
    o.record_moves = recording;
    o
}

/// Says on standard error that a match was cut short by Ctrl-C or SIGTERM.
pub fn report_end(result: &MatchResult) {
    if result.end == yomi_arena::End::Interrupted {
        eprintln!(
            "interrupted: {} of {} games played; the table counts them",
            result.outcomes.played(),
            result.outcomes.len()
        );
    }
}

/// The error an interrupted command ends with, after printing what it finished: a non-zero
/// status tells scripts and batch systems (a job array's `afterok`) that the run is not whole.
pub fn interrupted_error(run: &RunArgs) -> Res<()> {
    let how = match (&run.record, &run.resume) {
        (Some(path), _) | (_, Some(path)) => {
            format!("continue it with --resume {}", path.display())
        }
        _ => "record games with --record FILE to be able to resume".to_string(),
    };
    Err(format!("interrupted before the end: {how}").into())
}
