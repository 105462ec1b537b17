//! What the engine sides of both protocols share: reading lines on a thread of their own,
//! thinking on a worker thread while commands keep arriving, flushed output, and the agent
//! with its seeded generator.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use yomi_core::{Agent, AgentError, Clock, Explanation, Game, Limits, Rng, StopFlag};

/// What shapes the agent an engine plays with, as the client sets it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentSettings {
    /// The search depth the client asked for (NBoard's `set depth`), if any.
    pub depth: Option<u32>,
}

/// Builds the agent an engine session plays with: called when the session starts and again
/// whenever the client changes an [`AgentSettings`] (the previous agent is dropped). An error
/// is reported to the client and the previous agent kept.
pub type AgentFactory<G> =
    Box<dyn FnMut(&AgentSettings) -> Result<Box<dyn Agent<G>>, String> + Send>;

/// The settings of an engine session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The name the engine gives (`set myname`, GTP's `name`).
    pub name: String,
    /// The version it gives (GTP's `version`).
    pub version: String,
    /// The master seed: game `i` of the session (counted by `clear_board`, or by a `set game`
    /// that does not continue the current game) draws from `Rng::for_stream(seed, i)`.
    pub seed: u64,
    /// The index of the session's first game (0 unless a harness starts one process per
    /// game and tells each which game it plays).
    pub first_game: u64,
}

impl Default for EngineOptions {
    /// Name `yomi`, this crate's version, seed 1.
    fn default() -> EngineOptions {
        EngineOptions {
            name: "yomi".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            seed: 1,
            first_game: 0,
        }
    }
}

/// What arrives at the session's loop: a line from the client, the end of its input, or a
/// worker's result.
enum Event<T> {
    Line(String),
    Eof,
    Done(Result<T, String>),
}

/// Lines longer than this (a runaway client) are cut.
const MAX_LINE: u64 = 1 << 20;

/// The session's input: the client's lines, read on a thread of their own so that commands
/// arrive while a worker thinks, and the workers' results, on one channel.
pub(crate) struct Inbox<T> {
    tx: Sender<Event<T>>,
    rx: Receiver<Event<T>>,
    queue: VecDeque<String>,
    eof: bool,
}

impl<T: Send + 'static> Inbox<T> {
    pub(crate) fn new<R: BufRead + Send + 'static>(mut input: R) -> Inbox<T> {
        let (tx, rx) = channel();
        let reader = tx.clone();
        thread::spawn(move || {
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match input.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf);
                        let line = line.trim_end_matches(['\n', '\r']).to_string();
                        if reader.send(Event::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = reader.send(Event::Eof);
        });
        Inbox {
            tx,
            rx,
            queue: VecDeque::new(),
            eof: false,
        }
    }

    /// The next line, `None` at the end of the input.
    pub(crate) fn next_line(&mut self) -> Option<String> {
        if let Some(line) = self.queue.pop_front() {
            return Some(line);
        }
        if self.eof {
            return None;
        }
        loop {
            match self.rx.recv() {
                Ok(Event::Line(line)) => return Some(line),
                Ok(Event::Eof) | Err(_) => {
                    self.eof = true;
                    return None;
                }
                // No worker runs between thoughts.
                Ok(Event::Done(_)) => {}
            }
        }
    }

    /// Runs `work` on a worker thread and waits for it. Lines that arrive meanwhile are kept
    /// for [`Inbox::next_line`]; a line for which `interrupts` is true (and the end of the
    /// input) sets `flag`, which the work watches. A panic in the work is returned as an
    /// error.
    pub(crate) fn run(
        &mut self,
        work: impl FnOnce() -> T + Send + 'static,
        flag: &StopFlag,
        interrupts: impl Fn(&str) -> bool,
    ) -> Result<T, String> {
        let tx = self.tx.clone();
        thread::spawn(move || {
            let result = catch_unwind(AssertUnwindSafe(work)).map_err(|panic| {
                panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the agent panicked".to_string())
            });
            let _ = tx.send(Event::Done(result));
        });
        if self.eof || self.queue.iter().any(|l| interrupts(l)) {
            flag.stop();
        }
        loop {
            match self.rx.recv() {
                Ok(Event::Done(result)) => return result,
                Ok(Event::Line(line)) => {
                    if interrupts(&line) {
                        flag.stop();
                    }
                    self.queue.push_back(line);
                }
                Ok(Event::Eof) => {
                    self.eof = true;
                    flag.stop();
                }
                Err(_) => return Err("the worker thread vanished".to_string()),
            }
        }
    }
}

/// The session's output: every line flushed at once.
pub(crate) struct Outbox<W: Write> {
    out: W,
}

impl<W: Write> Outbox<W> {
    pub(crate) fn new(out: W) -> Outbox<W> {
        Outbox { out }
    }

    pub(crate) fn send(&mut self, line: impl fmt::Display) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Writes text as it is (GTP's multi-line replies) and flushes.
    pub(crate) fn raw(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}

/// What a worker hands back: the agent and the generator, the result, the time it took.
pub(crate) struct Work<G: Game> {
    agent: Box<dyn Agent<G>>,
    rng: Rng,
    result: Result<Explanation<G::Move>, AgentError>,
    elapsed: Duration,
}

/// What the agent answered and how long it took.
pub(crate) struct Answer<G: Game> {
    pub(crate) result: Result<Explanation<G::Move>, AgentError>,
    pub(crate) elapsed: Duration,
}

/// The agent of a session, its generator and the game count that seeds it.
pub(crate) struct Brain<G: Game> {
    factory: AgentFactory<G>,
    agent: Option<Box<dyn Agent<G>>>,
    settings: AgentSettings,
    seed: u64,
    games: u64,
    started: bool,
    rng: Rng,
    pub(crate) flag: StopFlag,
}

impl<G: Game> Brain<G> {
    /// A brain with its agent built from `factory` with default settings.
    ///
    /// # Errors
    /// The factory's error.
    pub(crate) fn new(
        mut factory: AgentFactory<G>,
        options: &EngineOptions,
    ) -> Result<Brain<G>, String> {
        let settings = AgentSettings::default();
        let agent = factory(&settings)?;
        Ok(Brain {
            factory,
            agent: Some(agent),
            settings,
            seed: options.seed,
            games: options.first_game,
            rng: Rng::for_stream(options.seed, options.first_game),
            started: false,
            flag: StopFlag::new(),
        })
    }

    /// Starts the next game: its generator is the stream (seed, game index). The first call
    /// starts the session's first game again (a client that sends `clear_board` before its
    /// first game plays game 0, as one that does not).
    pub(crate) fn new_game(&mut self) {
        if self.started {
            self.games += 1;
        }
        self.started = true;
        self.rng = Rng::for_stream(self.seed, self.games);
    }

    /// Changes the settings and rebuilds the agent.
    ///
    /// # Errors
    /// The factory's error (the old agent and settings stay).
    pub(crate) fn configure(&mut self, settings: AgentSettings) -> Result<(), String> {
        if settings == self.settings && self.agent.is_some() {
            return Ok(());
        }
        let agent = (self.factory)(&settings)?;
        self.agent = Some(agent);
        self.settings = settings;
        Ok(())
    }

    /// Asks the agent about `pos` on a worker thread, with `time` per move and the clock it
    /// was planned from (if the client gave one: the agent gets both) and the session's stop
    /// flag, while `inbox` keeps reading. `explain` asks for every move's score; otherwise
    /// only the move is wanted (`choose`, as a match harness calls it).
    pub(crate) fn think(
        &mut self,
        inbox: &mut Inbox<Work<G>>,
        pos: &G,
        time: Option<(Duration, Clock)>,
        explain: bool,
        interrupts: impl Fn(&str) -> bool,
    ) -> Answer<G> {
        self.flag.reset();
        let mut agent = match self.agent.take() {
            Some(a) => a,
            // The last agent panicked: build a fresh one.
            None => match (self.factory)(&self.settings) {
                Ok(a) => a,
                Err(reason) => {
                    return Answer {
                        result: Err(AgentError::Failed {
                            agent: "engine".into(),
                            reason,
                        }),
                        elapsed: Duration::ZERO,
                    }
                }
            },
        };
        let mut limits = Limits::none().with_flag(self.flag.clone());
        if let Some((t, _)) = time {
            limits = limits.with_time(t);
        }
        let clock = time.map(|(_, c)| c);
        let mut rng = self.rng.clone();
        let pos = pos.clone();
        let work = move || {
            agent.set_limits(&limits);
            agent.set_clock(clock.as_ref());
            let started = Instant::now();
            let result = if explain {
                agent.explain(&pos, &mut rng)
            } else {
                agent.choose(&pos, &mut rng).map(|mv| Explanation {
                    agent: String::new(),
                    moves: Vec::new(),
                    best: vec![mv],
                    chosen: mv,
                    notes: Vec::new(),
                })
            };
            Work {
                agent,
                rng,
                result,
                elapsed: started.elapsed(),
            }
        };
        match inbox.run(work, &self.flag, interrupts) {
            Ok(work) => {
                self.agent = Some(work.agent);
                self.rng = work.rng;
                Answer {
                    result: work.result,
                    elapsed: work.elapsed,
                }
            }
            Err(panic) => Answer {
                result: Err(AgentError::Failed {
                    agent: "engine".into(),
                    reason: format!("the agent panicked: {panic}"),
                }),
                elapsed: Duration::ZERO,
            },
        }
    }
}
