use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use yomi_core::{
    Agent, AgentError, Clock, Forfeit, Game, GameResult, Limits, Player, Rng, Shard, StopFlag,
    TimeControl,
};

use crate::adjudicate::{Adjudicator, GameAdjudication};
use crate::elo::{Pentanomial, Sprt};
use crate::openings::{Opening, Openings};
use crate::outcomes::{code, decode, Outcomes};
use crate::result::{
    add, half_points, AgentTime, End, GameForfeit, MatchConfig, MatchError, MatchResult, Progress,
    Seat, SprtReport,
};
use crate::Tally;

/// The largest number of rounds a match accepts (two games each). A match keeps one byte per
/// game, so this bounds its memory to 200 MB.
pub const MAX_ROUNDS: u64 = 100_000_000;

/// What a match plays beyond its [`MatchConfig`]: openings, a shard, an SPRT, a stop flag,
/// clocks, an adjudicator, and the results of games already played (to resume).
#[derive(Clone, Debug)]
pub struct RunOptions<G> {
    /// The openings (or the one start position).
    pub openings: Openings<G>,
    /// The games to play.
    pub shard: Shard,
    /// A sequential test that ends the match when it decides (not with a shard of several).
    pub sprt: Option<Sprt>,
    /// Setting it stops the match: games finished before are kept; games in progress are
    /// dropped, and agents that search are asked to stop through [`Agent::set_limits`].
    pub stop: StopFlag,
    /// Whether [`FinishedGame::moves`] holds the game's moves (for records).
    pub record_moves: bool,
    /// Games already played (index, A's result): counted without being played again.
    pub prior: Vec<(u64, GameResult)>,
    /// The forfeits among the games of [`RunOptions::prior`], kept in the result.
    pub prior_forfeits: Vec<GameForfeit>,
    /// The games of [`RunOptions::prior`] that the adjudicator decided (their indexes),
    /// marked so in the result.
    pub prior_adjudicated: Vec<u64>,
    /// The time control of A and of B (`None`: no clock, the agent plays by its own
    /// settings). With one, the harness keeps that side's clock: before each move the agent
    /// gets it ([`Agent::set_clock`]) and the time left as its per-move limit (its own
    /// tighter limit still wins); after it, the move's time is charged, and a side out of
    /// time loses the game with `forfeit: timeout`. Games at a clock depend on the machine's
    /// timing, so they are not repeatable as fixed-depth games are.
    pub time_controls: [Option<TimeControl>; 2],
    /// The adjudicator (`None`: every game is played to its end). Before each move the harness
    /// asks it about the position; a [`Verdict`](crate::Verdict) ends the game there with the
    /// proved result, which counts as any other (the game is marked adjudicated in
    /// [`MatchResult::outcomes`] and [`FinishedGame::adjudication`] says how). The verdict
    /// depends on the position only, so results stay the same at any thread count; the
    /// solve's time is charged to neither agent. An adjudicator that fails stops the match
    /// with [`MatchError::Adjudication`].
    pub adjudicator: Option<Arc<dyn Adjudicator<G>>>,
}

impl<G: Game> RunOptions<G> {
    /// Every game from `start`, the whole match, no SPRT, a flag nobody else holds.
    #[must_use]
    pub fn from_start(start: G) -> RunOptions<G> {
        RunOptions::new(Openings::single(start))
    }

    /// Games from these openings, the whole match, no SPRT, a flag nobody else holds.
    #[must_use]
    pub fn new(openings: Openings<G>) -> RunOptions<G> {
        RunOptions {
            openings,
            shard: Shard::WHOLE,
            sprt: None,
            stop: StopFlag::new(),
            record_moves: false,
            prior: Vec::new(),
            prior_forfeits: Vec::new(),
            prior_adjudicated: Vec::new(),
            time_controls: [None, None],
            adjudicator: None,
        }
    }
}

/// A game as it finishes, for [`Observer::finished`].
#[derive(Debug)]
pub struct FinishedGame<'a, G: Game> {
    /// The game's index.
    pub index: u64,
    /// Whether A moved first.
    pub a_first: bool,
    /// The opening it started from.
    pub opening: &'a Opening<G>,
    /// A's result.
    pub result: GameResult,
    /// The moves from the opening's position (empty unless [`RunOptions::record_moves`]).
    pub moves: &'a [G::Move],
    /// Why the loser forfeited, when the game ended by forfeit (the last move is the one
    /// before it).
    pub forfeit: Option<&'a GameForfeit>,
    /// How the adjudicator decided the game, when it did (the moves end at the position it
    /// decided).
    pub adjudication: Option<&'a GameAdjudication>,
}

/// Watches a running match from the calling thread: every finished game in the order games
/// finish, the progress, and a regular tick for buffered output.
///
/// # Contract
/// The methods run on the thread that called [`run_match`], never concurrently. An error from
/// [`Observer::finished`] or [`Observer::tick`] stops the match with [`MatchError::Observer`].
pub trait Observer<G: Game> {
    /// A game finished (not called for the prior games of a resumed match).
    ///
    /// # Errors
    /// A message that stops the match.
    fn finished(&mut self, game: &FinishedGame<'_, G>) -> Result<(), String> {
        let _ = game;
        Ok(())
    }

    /// Progress after one or more games; `Break` stops the match (ending [`End::Stopped`]).
    fn progress(&mut self, progress: &Progress) -> ControlFlow<()> {
        let _ = progress;
        ControlFlow::Continue(())
    }

    /// Called at least every quarter of a second while the match runs, and once at its end.
    ///
    /// # Errors
    /// A message that stops the match.
    fn tick(&mut self) -> Result<(), String> {
        Ok(())
    }
}

/// An observer that watches nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoObserver;

impl<G: Game> Observer<G> for NoObserver {}

/// Plays game `index` of a match between fresh agents from the two factories.
///
/// Even games have A moving first, odd games B. The game's generator is
/// `Rng::for_stream(seed, index)`, shared by both agents in move order, so a game replays
/// alone. Every move an agent returns is checked before it is played. An agent that forfeits
/// ([`AgentError::Forfeit`]) loses the game.
///
/// # Errors
/// [`MatchError::Agent`] or [`MatchError::IllegalMove`] when an agent misbehaves.
pub fn play_game<G, A, B>(
    start: &G,
    make_a: &(impl Fn() -> A + ?Sized),
    make_b: &(impl Fn() -> B + ?Sized),
    seed: u64,
    index: u64,
) -> Result<(GameResult, [AgentTime; 2]), MatchError>
where
    G: Game,
    A: Agent<G>,
    B: Agent<G>,
{
    let game = play_one(
        start,
        make_a,
        make_b,
        (seed, index),
        &Setup {
            stop: None,
            time_controls: [None, None],
            adjudicator: None,
        },
        None,
    )?;
    Ok((game.result, game.time))
}

struct Played<M> {
    result: GameResult,
    time: [AgentTime; 2],
    moves: Vec<M>,
    forfeit: Option<GameForfeit>,
    adjudication: Option<GameAdjudication>,
}

/// How a game is played beyond its agents: the match's stop flag, the sides' clocks and the
/// adjudicator.
struct Setup<'a, G> {
    stop: Option<&'a StopFlag>,
    /// A's and B's time controls.
    time_controls: [Option<TimeControl>; 2],
    adjudicator: Option<&'a dyn Adjudicator<G>>,
}

fn play_one<G, A, B>(
    start: &G,
    make_a: &(impl Fn() -> A + ?Sized),
    make_b: &(impl Fn() -> B + ?Sized),
    (seed, index): (u64, u64),
    setup: &Setup<'_, G>,
    moves: Option<Vec<G::Move>>,
) -> Result<Played<G::Move>, MatchError>
where
    G: Game,
    A: Agent<G>,
    B: Agent<G>,
{
    let mut a = make_a();
    let mut b = make_b();
    let base = match setup.stop {
        Some(flag) => Limits::none().with_flag(flag.clone()),
        None => Limits::none(),
    };
    if setup.stop.is_some() {
        a.set_limits(&base);
        b.set_limits(&base);
    }
    let mut clocks = setup.time_controls.map(|tc| tc.as_ref().map(Clock::start));
    let mut rng = Rng::for_stream(seed, index);
    let a_side = if index.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().other()
    };
    let mut time: [AgentTime; 2] = Default::default();
    // The kinds of move each side has reported so far in this game.
    let mut kinds_seen: [Vec<&'static str>; 2] = [Vec::new(), Vec::new()];
    let mut line = moves;
    let mut pos = start.clone();
    let unset = StopFlag::new();
    loop {
        if let Some(outcome) = pos.outcome() {
            return Ok(Played {
                result: outcome.result_for(a_side),
                time,
                moves: line.unwrap_or_default(),
                forfeit: None,
                adjudication: None,
            });
        }
        if let Some(judge) = setup.adjudicator {
            let stop = setup.stop.unwrap_or(&unset);
            match judge.adjudicate(&pos, stop) {
                Ok(None) => {}
                Ok(Some(verdict)) => {
                    let a_moves = pos.side_to_move() == a_side;
                    let result = if a_moves {
                        verdict.result
                    } else {
                        flip(verdict.result)
                    };
                    let margin = verdict.margin.map(|m| if a_moves { m } else { -m });
                    return Ok(Played {
                        result,
                        time,
                        moves: line.unwrap_or_default(),
                        forfeit: None,
                        adjudication: Some(GameAdjudication {
                            rule: judge.to_string(),
                            position: pos.to_string(),
                            result,
                            margin,
                        }),
                    });
                }
                // A solve cut short by the match's stop flag: the caller drops the game.
                Err(_) if stop.is_set() => {
                    return Ok(Played {
                        result: GameResult::Draw,
                        time,
                        moves: Vec::new(),
                        forfeit: None,
                        adjudication: None,
                    });
                }
                Err(reason) => {
                    return Err(MatchError::Adjudication {
                        rule: judge.to_string(),
                        game: index,
                        position: pos.to_string(),
                        reason,
                    })
                }
            }
        }
        let a_moves = pos.side_to_move() == a_side;
        let (agent, slot): (&mut dyn Agent<G>, usize) =
            if a_moves { (&mut a, 0) } else { (&mut b, 1) };
        if let Some(c) = &clocks[slot] {
            agent.set_limits(&base.clone().with_time(c.remaining));
            agent.set_clock(Some(c));
        }
        let phase = pos.phase();
        let clock = Instant::now();
        let mut chosen = agent.choose(&pos, &mut rng);
        let elapsed = clock.elapsed();
        let kind = chosen.as_ref().ok().and_then(|_| agent.last_move_kind());
        let first = kind.is_some_and(|k| !kinds_seen[slot].contains(&k));
        if let Some(k) = kind.filter(|_| first) {
            kinds_seen[slot].push(k);
        }
        time[slot].record(phase, elapsed.as_secs_f64(), kind, first);
        if let (Some(c), Ok(_)) = (&mut clocks[slot], &chosen) {
            if let Err(out) = c.charge(elapsed) {
                chosen = Err(AgentError::Forfeit {
                    reason: Forfeit::Timeout,
                    detail: out.to_string(),
                });
            }
        }
        let mv = match chosen {
            Ok(mv) => mv,
            // An external engine that crashed, hung, broke its protocol or played an illegal
            // move loses this game; the match goes on.
            Err(AgentError::Forfeit { reason, detail }) => {
                let (lost, seat) = if a_moves {
                    (GameResult::Loss, Seat::A)
                } else {
                    (GameResult::Win, Seat::B)
                };
                return Ok(Played {
                    result: lost,
                    time,
                    moves: line.unwrap_or_default(),
                    forfeit: Some(GameForfeit::new(index, seat, &reason, detail)),
                    adjudication: None,
                });
            }
            Err(source) => {
                return Err(MatchError::Agent {
                    agent: agent.spec(),
                    game: index,
                    position: pos.to_string(),
                    source,
                })
            }
        };
        pos = pos.play(mv).map_err(|_| MatchError::IllegalMove {
            agent: agent.spec(),
            game: index,
            mv: mv.to_string(),
            position: pos.to_string(),
        })?;
        if let Some(line) = &mut line {
            line.push(mv);
        }
    }
}

/// Plays a match of `config.rounds` rounds between agents A and B from `start`.
///
/// The short form of [`run_match`]: every game from `start`, no SPRT, no stop flag. `observe`
/// is called after every finished game (or group of games) with the progress; returning
/// `ControlFlow::Break(())` stops the match, and the result then has `complete == false` and
/// counts only the games played.
///
/// # Errors
/// [`MatchError`] for a bad configuration, a failing or cheating agent, or no threads.
pub fn play_match<G, A, B>(
    start: &G,
    config: &MatchConfig,
    make_a: impl Fn() -> A + Sync,
    make_b: impl Fn() -> B + Sync,
    observe: impl Fn(Progress) -> ControlFlow<()>,
) -> Result<MatchResult, MatchError>
where
    G: Game,
    A: Agent<G>,
    B: Agent<G>,
{
    struct Closure<F>(F);
    impl<G: Game, F: Fn(Progress) -> ControlFlow<()>> Observer<G> for Closure<F> {
        fn progress(&mut self, p: &Progress) -> ControlFlow<()> {
            (self.0)(*p)
        }
    }
    if start.is_over() {
        return Err(MatchError::BadConfig(format!(
            "the start position {start} is already finished"
        )));
    }
    run_match(
        config,
        &RunOptions::from_start(start.clone()),
        make_a,
        make_b,
        &mut Closure(observe),
    )
}

/// The same game's result for the other player.
fn flip(r: GameResult) -> GameResult {
    match r {
        GameResult::Win => GameResult::Loss,
        GameResult::Loss => GameResult::Win,
        GameResult::Draw => GameResult::Draw,
    }
}

/// One finished game on its way from a worker to the calling thread.
struct Done<M> {
    index: u64,
    result: GameResult,
    moves: Vec<M>,
    forfeit: Option<GameForfeit>,
    adjudication: Option<GameAdjudication>,
}

/// What a worker sends: games, or the error that ended it.
enum Batch<M> {
    Games(Vec<Done<M>>, [AgentTime; 2]),
    Failed(MatchError),
}

/// Plays a match: the games of `options.shard`, each round from its opening, on
/// `config.threads` threads.
///
/// Game `i` (A first when `i` is even) starts from the opening of round `i / 2`, with fresh
/// agents from the factories and the generator `Rng::for_stream(config.seed, i)`: a game's
/// result depends only on the seed and its index, never on threads or shards. Results are
/// counted in game order, so an SPRT stops at the same pair (the first whose log-likelihood
/// ratio crosses a bound) at any thread count; games played beyond it do not count.
///
/// The observer sees each game as it finishes, on the calling thread.
///
/// # Errors
/// [`MatchError`] for a bad configuration (including an SPRT with a shard of several and prior
/// games outside the shard), a failing or cheating agent, a failing adjudicator, no threads,
/// or a failing observer.
pub fn run_match<G, A, B>(
    config: &MatchConfig,
    options: &RunOptions<G>,
    make_a: impl Fn() -> A + Sync,
    make_b: impl Fn() -> B + Sync,
    observer: &mut dyn Observer<G>,
) -> Result<MatchResult, MatchError>
where
    G: Game,
    A: Agent<G>,
    B: Agent<G>,
{
    if config.rounds == 0 || config.rounds > MAX_ROUNDS {
        return Err(MatchError::BadConfig(format!(
            "rounds must be from 1 to {MAX_ROUNDS}, not {}",
            config.rounds
        )));
    }
    if config.threads == Some(0) {
        return Err(MatchError::BadConfig("threads must be at least 1".into()));
    }
    let shard = options.shard;
    if options.sprt.is_some() && shard.count > 1 {
        return Err(MatchError::BadConfig(
            "an SPRT cannot be split into shards: it is decided game by game in order".into(),
        ));
    }
    let total_games = config.rounds * 2;
    let games = shard.games_of(total_games);
    let mut slots = vec![0u8; games as usize];
    let prior_adjudicated: HashSet<u64> = options.prior_adjudicated.iter().copied().collect();
    for &(index, result) in &options.prior {
        if index >= total_games || !shard.contains(index) {
            return Err(MatchError::BadConfig(format!(
                "game {index} is not a game of this match (shard {shard}, {total_games} games)"
            )));
        }
        slots[shard.slot_of(index) as usize] = code(result, prior_adjudicated.contains(&index));
    }
    let prefilled = slots.clone();
    let (agent_a, agent_b) = (make_a().spec(), make_b().spec());
    let threads = config
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let next_slot = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let stop = &options.stop;
    let (tx, rx) = mpsc::channel::<Batch<G::Move>>();
    let mut time: [AgentTime; 2] = Default::default();
    let mut end = End::Complete;
    let mut error: Option<MatchError> = None;
    let mut sprt_at: Option<u64> = None;
    let mut done = options.prior.len() as u64;
    let mut tally = Tally::default();
    for &(_, r) in &options.prior {
        add(&mut tally, r);
    }
    // The in-order frontier: slots counted into `pairs` so far (whole matches only).
    let mut frontier = 0u64;
    let mut pairs = Pentanomial::default();
    let mut last_seen: Option<GameResult> = None;
    let mut forfeits: Vec<GameForfeit> = options
        .prior_forfeits
        .iter()
        .filter(|f| {
            f.game < total_games
                && shard.contains(f.game)
                && prefilled[shard.slot_of(f.game) as usize] != 0
        })
        .cloned()
        .collect();
    let spawn_result = std::thread::scope(|scope| -> Result<(), MatchError> {
        for _ in 0..threads.min(games.max(1) as usize) {
            let tx = tx.clone();
            let (make_a, make_b) = (&make_a, &make_b);
            let (next_slot, halt, prefilled) = (&next_slot, &halt, &prefilled);
            let record = options.record_moves;
            std::thread::Builder::new()
                .name("yomi-match".into())
                .spawn_scoped(scope, move || {
                    let mut batch = Vec::new();
                    let mut time: [AgentTime; 2] = Default::default();
                    let mut sent = Instant::now();
                    loop {
                        if halt.load(Ordering::Relaxed) || stop.is_set() {
                            break;
                        }
                        let slot = next_slot.fetch_add(1, Ordering::Relaxed);
                        if slot >= games {
                            break;
                        }
                        if prefilled[slot as usize] != 0 {
                            continue;
                        }
                        let index = shard.index_of(slot);
                        let opening = options.openings.for_round(index / 2);
                        let setup = Setup {
                            stop: Some(stop),
                            time_controls: options.time_controls,
                            adjudicator: options.adjudicator.as_deref(),
                        };
                        let played = play_one(
                            &opening.position,
                            make_a,
                            make_b,
                            (config.seed, index),
                            &setup,
                            record.then(Vec::new),
                        );
                        match played {
                            Err(e) => {
                                let _ = tx.send(Batch::Failed(e));
                                return;
                            }
                            // A game that ended after the flag was set may have been cut short.
                            Ok(_) if stop.is_set() => break,
                            Ok(p) => {
                                time[0].add(&p.time[0]);
                                time[1].add(&p.time[1]);
                                batch.push(Done {
                                    index,
                                    result: p.result,
                                    moves: p.moves,
                                    forfeit: p.forfeit,
                                    adjudication: p.adjudication,
                                });
                            }
                        }
                        if batch.len() >= 64 || sent.elapsed() >= Duration::from_millis(20) {
                            let games = std::mem::take(&mut batch);
                            let t = std::mem::take(&mut time);
                            if tx.send(Batch::Games(games, t)).is_err() {
                                return;
                            }
                            sent = Instant::now();
                        }
                    }
                    let _ = tx.send(Batch::Games(batch, time));
                })
                .map_err(|e| MatchError::Threads(e.to_string()))?;
        }
        drop(tx);
        let mut ticked = Instant::now();
        loop {
            let received = rx.recv_timeout(Duration::from_millis(100));
            let stopping = halt.load(Ordering::Relaxed);
            match received {
                Ok(Batch::Failed(e)) => {
                    if error.is_none() {
                        error = Some(e);
                    }
                    halt.store(true, Ordering::Relaxed);
                }
                Ok(Batch::Games(list, t)) => {
                    time[0].add(&t[0]);
                    time[1].add(&t[1]);
                    for game in list {
                        let slot = shard.slot_of(game.index) as usize;
                        if sprt_at.is_some_and(|at| game.index > at) || error.is_some() {
                            continue;
                        }
                        slots[slot] = code(game.result, game.adjudication.is_some());
                        done += 1;
                        add(&mut tally, game.result);
                        {
                            let finished = FinishedGame {
                                index: game.index,
                                a_first: game.index.is_multiple_of(2),
                                opening: options.openings.for_round(game.index / 2),
                                result: game.result,
                                moves: &game.moves,
                                forfeit: game.forfeit.as_ref(),
                                adjudication: game.adjudication.as_ref(),
                            };
                            if let Err(e) = observer.finished(&finished) {
                                error = Some(MatchError::Observer(e));
                                halt.store(true, Ordering::Relaxed);
                            }
                        }
                        if let Some(f) = game.forfeit {
                            forfeits.push(f);
                        }
                    }
                    // Count the games now in order; decide the SPRT pair by pair.
                    if shard.count == 1 && sprt_at.is_none() {
                        while frontier < games && slots[frontier as usize] != 0 {
                            let r = decode(slots[frontier as usize]);
                            if frontier % 2 == 1 {
                                if let Some(first) = last_seen {
                                    pairs.add(half_points(first) + half_points(r));
                                }
                                if let Some(test) = &options.sprt {
                                    let llr = test.llr_pentanomial(&pairs);
                                    if test.decide(llr).is_some() {
                                        sprt_at = Some(frontier);
                                        halt.store(true, Ordering::Relaxed);
                                        break;
                                    }
                                }
                            }
                            last_seen = Some(r);
                            frontier += 1;
                        }
                    }
                    let progress = Progress {
                        done,
                        total: games,
                        tally,
                        pairs,
                        llr: options.sprt.map(|t| t.llr_pentanomial(&pairs)),
                    };
                    if !stopping && observer.progress(&progress).is_break() {
                        end = End::Stopped;
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if ticked.elapsed() >= Duration::from_millis(250) {
                ticked = Instant::now();
                if let Err(e) = observer.tick() {
                    error.get_or_insert(MatchError::Observer(e));
                    halt.store(true, Ordering::Relaxed);
                }
            }
        }
        Ok(())
    });
    spawn_result?;
    if let Err(e) = observer.tick() {
        error.get_or_insert(MatchError::Observer(e));
    }
    if let Some(e) = error {
        return Err(e);
    }
    if let Some(at) = sprt_at {
        // Games beyond the deciding pair do not count (some may have finished).
        let keep = shard.slot_of(at) as usize + 1;
        for s in &mut slots[keep..] {
            *s = 0;
        }
        forfeits.retain(|f| f.game <= at);
        end = End::Sprt;
    } else if stop.is_set() && slots.contains(&0) {
        end = End::Interrupted;
    }
    let mut result = MatchResult {
        game: G::NAME.to_string(),
        agent_a,
        agent_b,
        rounds: config.rounds,
        seed: config.seed,
        openings: options.openings.info(),
        shard,
        complete: matches!(end, End::Complete | End::Sprt),
        end,
        a_first: Tally::default(),
        a_second: Tally::default(),
        pairs: Pentanomial::default(),
        sprt: options.sprt.map(|test| {
            let (lower, upper) = test.bounds();
            SprtReport {
                test,
                llr: 0.0,
                lower,
                upper,
                accepted: None,
            }
        }),
        adjudicator: options.adjudicator.as_ref().map(ToString::to_string),
        outcomes: Outcomes::from_codes(slots),
        forfeits: {
            forfeits.sort_by_key(|f| f.game);
            forfeits.dedup_by_key(|f| f.game);
            forfeits
        },
        time,
    };
    result.recount();
    if let Some(report) = &mut result.sprt {
        report.accepted = if sprt_at.is_some() {
            report.test.decide(report.llr)
        } else {
            None
        };
    }
    Ok(result)
}

/// The player names of a game, in the order A-first, A-second (e.g. `["o", "x"]`).
#[must_use]
pub fn seat_names<G: Game>() -> [&'static str; 2] {
    let first = G::default().side_to_move();
    let name = |p: Player| G::PLAYER_NAMES[p.index()];
    [name(first), name(first.other())]
}
