use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Agent, AgentError, Game, GameResult, Player, Rng};

use crate::Tally;

/// The largest number of rounds a match accepts (two games each).
pub const MAX_ROUNDS: u64 = 1_000_000_000;

/// Settings of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// Rounds to play; each round is one game with A first and one with B first.
    pub rounds: u64,
    /// The master seed: game `i` uses `Rng::for_stream(seed, i)`.
    pub seed: u64,
    /// Worker threads; `None` uses every core. Results do not depend on it.
    pub threads: Option<usize>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            rounds: 10_000,
            seed: 1,
            threads: None,
        }
    }
}

/// Why a match could not be played.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MatchError {
    /// The configuration is out of range.
    #[error("bad match setting: {0}")]
    BadConfig(String),
    /// An agent failed to choose a move.
    #[error("agent {agent} failed in game {game} at position {position}: {source}")]
    Agent {
        /// The agent's spec.
        agent: String,
        /// The game's index.
        game: u64,
        /// The position, in the game's notation.
        position: String,
        /// What the agent reported.
        source: AgentError,
    },
    /// An agent chose an illegal move.
    #[error("agent {agent} played illegal move {mv} in game {game} at position {position}")]
    IllegalMove {
        /// The agent's spec.
        agent: String,
        /// The game's index.
        game: u64,
        /// The move.
        mv: String,
        /// The position.
        position: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start worker threads: {0}")]
    Threads(String),
}

/// Progress of a running match, passed to the observer after every game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Games finished so far.
    pub done: u64,
    /// Games in the match.
    pub total: u64,
}

/// Thinking time spent by one agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentTime {
    /// Moves the agent chose.
    pub moves: u64,
    /// Total wall-clock seconds inside `choose`.
    pub seconds: f64,
}

impl AgentTime {
    /// Mean seconds per move (0 without moves).
    #[must_use]
    pub fn per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.seconds / self.moves as f64
        }
    }

    fn plus(&self, other: &AgentTime) -> AgentTime {
        AgentTime {
            moves: self.moves + other.moves,
            seconds: self.seconds + other.seconds,
        }
    }
}

/// The result of a match, from agent A's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The game's name.
    pub game: String,
    /// Agent A's spec.
    pub agent_a: String,
    /// Agent B's spec.
    pub agent_b: String,
    /// Rounds played (two games each), as configured.
    pub rounds: u64,
    /// The master seed.
    pub seed: u64,
    /// Whether every game was played (false when the observer stopped the match).
    pub complete: bool,
    /// A's results in the games where A moved first.
    pub a_first: Tally,
    /// A's results in the games where A moved second.
    pub a_second: Tally,
    /// Thinking time of A and of B. Wall-clock: varies between runs.
    pub time: [AgentTime; 2],
}

impl MatchResult {
    /// A's results over all games.
    #[must_use]
    pub fn total(&self) -> Tally {
        self.a_first.plus(&self.a_second)
    }
}

/// What one game contributes to the result.
#[derive(Clone, Copy, Debug, Default)]
struct Partial {
    a_first: Tally,
    a_second: Tally,
    time: [AgentTime; 2],
}

impl Partial {
    fn plus(self, other: Partial) -> Partial {
        Partial {
            a_first: self.a_first.plus(&other.a_first),
            a_second: self.a_second.plus(&other.a_second),
            time: [
                self.time[0].plus(&other.time[0]),
                self.time[1].plus(&other.time[1]),
            ],
        }
    }
}

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
    let mut a = make_a();
    let mut b = make_b();
    let mut rng = Rng::for_stream(seed, index);
    let a_side = if index.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().other()
    };
    let mut time = [AgentTime::default(); 2];
    let mut pos = start.clone();
    loop {
        if let Some(outcome) = pos.outcome() {
            return Ok((outcome.result_for(a_side), time));
        }
        let a_moves = pos.side_to_move() == a_side;
        let (agent, slot): (&mut dyn Agent<G>, usize) =
            if a_moves { (&mut a, 0) } else { (&mut b, 1) };
        let clock = Instant::now();
        let chosen = agent.choose(&pos, &mut rng);
        time[slot].seconds += clock.elapsed().as_secs_f64();
        time[slot].moves += 1;
        let mv = match chosen {
            Ok(mv) => mv,
            // An external engine that crashed, hung, broke its protocol or played an illegal
            // move loses this game; the match goes on.
            Err(AgentError::Forfeit { .. }) => {
                let lost = if a_moves {
                    GameResult::Loss
                } else {
                    GameResult::Win
                };
                return Ok((lost, time));
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
    }
}

/// Plays a match of `config.rounds` rounds between agents A and B from `start`.
///
/// Each worker builds fresh agents for every game from the factories (so agent state never
/// leaks between games), and each game's generator comes from the master seed and the game's
/// index: the counts are identical at any thread count. Both factories are called once before
/// any thread starts. `observe` is called after every game (from worker threads); returning
/// `ControlFlow::Break(())` stops the match, and the result then has `complete == false` and
/// counts only the games played. The library never prints.
///
/// # Errors
/// [`MatchError`] for a bad configuration, a failing or cheating agent, or no threads.
pub fn play_match<G, A, B>(
    start: &G,
    config: &MatchConfig,
    make_a: impl Fn() -> A + Sync,
    make_b: impl Fn() -> B + Sync,
    observe: impl Fn(Progress) -> ControlFlow<()> + Sync,
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
    if start.is_over() {
        return Err(MatchError::BadConfig(format!(
            "the start position {start} is already finished"
        )));
    }
    let (agent_a, agent_b) = (make_a().spec(), make_b().spec());
    let total = config.rounds * 2;
    let done = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let play_one = |index: u64| -> Result<Partial, MatchError> {
        if stop.load(Ordering::Relaxed) {
            return Ok(Partial::default());
        }
        let (result, time) = play_game(start, &make_a, &make_b, config.seed, index)?;
        let mut part = Partial {
            time,
            ..Partial::default()
        };
        let tally = if index.is_multiple_of(2) {
            &mut part.a_first
        } else {
            &mut part.a_second
        };
        match result {
            GameResult::Win => tally.win += 1,
            GameResult::Loss => tally.lose += 1,
            GameResult::Draw => tally.draw += 1,
        }
        let now = done.fetch_add(1, Ordering::Relaxed) + 1;
        if observe(Progress { done: now, total }).is_break() {
            stop.store(true, Ordering::Relaxed);
        }
        Ok(part)
    };
    let run = || {
        (0..total)
            .into_par_iter()
            .map(play_one)
            .try_reduce(Partial::default, |x, y| Ok(x.plus(y)))
    };
    let partial = match config.threads {
        None => run()?,
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| MatchError::Threads(e.to_string()))?
            .install(run)?,
    };
    Ok(MatchResult {
        game: G::NAME.to_string(),
        agent_a,
        agent_b,
        rounds: config.rounds,
        seed: config.seed,
        complete: !stop.load(Ordering::Relaxed),
        a_first: partial.a_first,
        a_second: partial.a_second,
        time: partial.time,
    })
}

/// The player names of a game, in the order A-first, A-second (e.g. `["o", "x"]`).
#[must_use]
pub fn seat_names<G: Game>() -> [&'static str; 2] {
    let first = G::default().side_to_move();
    let name = |p: Player| G::PLAYER_NAMES[p.index()];
    [name(first), name(first.other())]
}
