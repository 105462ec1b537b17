//! External engines as agents: a program started and spoken to through NBoard or GTP.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;
use std::time::{Duration, Instant};

use thiserror::Error;
use yomi_core::{
    Agent, AgentError, Clock, Explanation, Forfeit, Game, Limits, MoveScore, Rng, StopFlag,
};
use yomi_othello::ggf;

use crate::clock::format_clock;
use crate::gtp::colour_text;
use crate::process::{Fault, Process};
use crate::EngineGame;

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// NBoard (Othello only).
    Nboard,
    /// The Go Text Protocol.
    Gtp,
}

/// A protocol name that is not `nboard` or `gtp`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown protocol {0:?}: expected nboard or gtp")]
pub struct ParseProtocolError(pub String);

impl FromStr for Protocol {
    type Err = ParseProtocolError;

    fn from_str(s: &str) -> Result<Protocol, ParseProtocolError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "nboard" => Ok(Protocol::Nboard),
            "gtp" => Ok(Protocol::Gtp),
            _ => Err(ParseProtocolError(s.to_string())),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Nboard => "nboard",
            Protocol::Gtp => "gtp",
        })
    }
}

/// How to start and drive an external engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The command as the user wrote it (for the spec string).
    pub command_line: String,
    /// The program and its arguments (see [`split_command`](crate::split_command)).
    pub command: Vec<String>,
    /// The protocol.
    pub protocol: Protocol,
    /// The time per move the engine is given; a reply later than this plus a grace of
    /// [`grace`] loses the game.
    pub time: Duration,
    /// The search depth sent with NBoard's `set depth` (NBoard needs one; default 20).
    pub depth: Option<u32>,
    /// A name for tables and records.
    pub name: Option<String>,
}

/// How long after its time an engine's move still counts: a quarter second and a tenth of
/// the time, for the pipes and the process scheduler.
#[must_use]
pub fn grace(time: Duration) -> Duration {
    Duration::from_millis(250) + time / 10
}

/// How long an engine may take to start and answer its first command.
pub const STARTUP: Duration = Duration::from_secs(10);

/// The depth sent with `set depth` when the spec names none.
pub const DEFAULT_NBOARD_DEPTH: u32 = 20;

impl fmt::Display for EngineSpec {
    /// `engine:cmd=(COMMAND),protocol=P,time=S[,depth=D][,name=N]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "engine:cmd=({}),protocol={},time={}",
            self.command_line,
            self.protocol,
            self.time.as_secs_f64()
        )?;
        if let Some(d) = self.depth {
            write!(f, ",depth={d}")?;
        }
        if let Some(n) = &self.name {
            write!(f, ",name=({n})")?;
        }
        Ok(())
    }
}

/// An external engine as an agent: starts the program on first use, keeps its board in step
/// with the positions it is asked about, and turns every fault into a forfeit.
///
/// - **Playing.** NBoard: `nboard 2`, `set depth`, then `set game` with the position (its
///   clock `TI` gives the engine its time for the moves it has left), `move` for each move
///   played since, `go`, and `move` with the engine's own reply (the GUI's part). GTP:
///   `boardsize`, `clear_board`, `time_settings 0 T 1` (byo-yomi of `T` seconds a move),
///   `play` for the opponent's moves, `time_left` and `genmove`. GTP has no command to set up
///   a position, so a GTP engine plays only games from the standard start (or one move
///   after it).
/// - **Faults.** No reply within the time plus [`grace`] (or within [`STARTUP`] for the first
///   command): [`Forfeit::Timeout`]. The program exits or closes its output:
///   [`Forfeit::Crash`]. A reply the protocol does not allow (an unknown line, a malformed or
///   missing move, a GTP error to `genmove`): [`Forfeit::Protocol`]. A move that is not legal:
///   [`Forfeit::IllegalMove`]. Each is returned as [`AgentError::Forfeit`] (the detail holds
///   the engine's last error lines); the process is then killed and the next call starts a
///   fresh one.
/// - **Processes.** The engine runs in a process group of its own; dropping the agent kills
///   the group and reaps the program, and [`kill_all_engines`](crate::kill_all_engines)
///   does it for every live engine before a hard exit.
/// - **Explaining.** NBoard's `hint` gives the engine's evaluation of every move (in discs,
///   for the mover); GTP has no such command, so an explanation holds the move alone.
/// - **Randomness.** The engine draws its own random numbers: the generator passed in is not
///   used.
pub struct ExternalEngine<G: EngineGame> {
    spec: EngineSpec,
    running: Option<Running<G>>,
    last_pid: Option<u32>,
    limit: Option<Duration>,
    flag: StopFlag,
    /// The side's clock from the harness ([`Agent::set_clock`]), when it plays at one.
    clock: Option<Clock>,
    _game: PhantomData<fn() -> G>,
}

impl<G: EngineGame> fmt::Debug for ExternalEngine<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalEngine")
            .field("spec", &self.spec)
            .field("running", &self.running.as_ref().map(|r| &r.process))
            .finish_non_exhaustive()
    }
}

struct Running<G> {
    process: Process,
    /// The position the engine's board holds (`None` before the first game).
    board: Option<G>,
    /// GTP: the id of the next command; NBoard: of the next ping.
    next_id: u64,
    /// Without a clock from the harness, the NBoard game clock this client advertised at the
    /// game's start (the time per move times the moves left then), charged with each of the
    /// engine's moves: the clock it enforces is the clock it sent.
    own_clock: Option<Clock>,
}

/// Why an [`ExternalEngine`] cannot be made for a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("protocol {protocol} cannot play {game}: NBoard speaks only Othello; use gtp")]
pub struct UnsupportedGame {
    /// The protocol.
    pub protocol: Protocol,
    /// The game.
    pub game: &'static str,
}

impl<G: EngineGame> ExternalEngine<G> {
    /// An engine that starts on first use.
    ///
    /// # Errors
    /// [`UnsupportedGame`] for NBoard with a game other than Othello.
    pub fn new(spec: EngineSpec) -> Result<ExternalEngine<G>, UnsupportedGame> {
        if spec.protocol == Protocol::Nboard && G::default().nboard_record().is_none() {
            return Err(UnsupportedGame {
                protocol: spec.protocol,
                game: G::NAME,
            });
        }
        Ok(ExternalEngine {
            spec,
            running: None,
            last_pid: None,
            limit: None,
            flag: StopFlag::new(),
            clock: None,
            _game: PhantomData,
        })
    }

    /// The spec.
    #[must_use]
    pub fn engine_spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// The operating system's id of the running engine, if one runs.
    #[must_use]
    pub fn pid(&self) -> Option<u32> {
        self.running.as_ref().map(|r| r.process.pid())
    }

    /// The operating system's id of the last engine started (also its process group), running
    /// or not: for reports and for tests that check nothing is left behind.
    #[must_use]
    pub fn last_pid(&self) -> Option<u32> {
        self.last_pid
    }

    /// The time for the next move: the spec's, or a tighter limit set by the caller.
    fn time(&self) -> Duration {
        match self.limit {
            Some(l) => l.min(self.spec.time),
            None => self.spec.time,
        }
    }

    fn failed(&self, reason: impl Into<String>) -> AgentError {
        AgentError::Failed {
            agent: self.spec.to_string(),
            reason: reason.into(),
        }
    }

    /// Starts the engine and checks that it answers.
    fn start(&mut self) -> Result<(), AgentError> {
        if self.running.is_some() {
            return Ok(());
        }
        let process = Process::start(&self.spec.command).map_err(|e| {
            self.failed(format!(
                "cannot start {:?}: {e}",
                self.spec.command.first().cloned().unwrap_or_default()
            ))
        })?;
        self.last_pid = Some(process.pid());
        let mut run = Running {
            process,
            board: None,
            next_id: 1,
            own_clock: None,
        };
        let deadline = Instant::now() + STARTUP;
        let depth = self.spec.depth.unwrap_or(DEFAULT_NBOARD_DEPTH);
        let handshake = match self.spec.protocol {
            Protocol::Nboard => run
                .process
                .send("nboard 2")
                .and_then(|()| run.process.send(&format!("set depth {depth}")))
                .and_then(|()| nboard_sync(&mut run, deadline)),
            Protocol::Gtp => {
                gtp_ask(&mut run, "protocol_version", deadline, &self.flag).and_then(|version| {
                    if version.trim() == "2" {
                        Ok(())
                    } else {
                        Err(Fault::protocol(format!(
                            "protocol_version answered {version:?}, not 2"
                        )))
                    }
                })
            }
        };
        if let Err(mut f) = handshake {
            f.detail.push_str(&run.process.ignored_tail());
            return Err(f.into());
        }
        self.running = Some(run);
        Ok(())
    }

    /// A forfeit's report with the engine's last output lines that its protocol did not know
    /// (they may say what went wrong).
    fn with_ignored<T>(&self, result: Result<T, AgentError>) -> Result<T, AgentError> {
        match (result, &self.running) {
            (Err(AgentError::Forfeit { reason, detail }), Some(run)) => Err(AgentError::Forfeit {
                reason,
                detail: detail + &run.process.ignored_tail(),
            }),
            (result, _) => result,
        }
    }

    /// Brings the engine's board to `state`.
    fn sync(&mut self, state: &G) -> Result<(), AgentError> {
        let time = self.time();
        let flag = self.flag.clone();
        let protocol = self.spec.protocol;
        let run = self.running.as_mut().expect("started");
        let deadline = Instant::now() + STARTUP + time;
        // One move since the engine's board: tell it.
        if let Some(board) = &run.board {
            if board == state {
                return Ok(());
            }
            let step = board
                .legal_moves()
                .into_iter()
                .find(|&m| board.play_unchecked(m) == *state);
            if let Some(mv) = step {
                match protocol {
                    Protocol::Nboard => {
                        run.process
                            .send(&format!("move {}", nboard_move::<G>(mv)))?;
                    }
                    Protocol::Gtp => {
                        let c = colour_text(board.side_to_move());
                        gtp_ask(
                            run,
                            &format!("play {c} {}", G::gtp_move(mv)),
                            deadline,
                            &flag,
                        )
                        .map_err(|f| gtp_refused(f, "play"))?;
                    }
                }
                run.board = Some(state.clone());
                return Ok(());
            }
        }
        // A new game.
        match protocol {
            Protocol::Nboard => {
                // The clock the engine is told, and later held to: the harness's, or one of
                // its own (its time per move for each of its moves left).
                let clock = self.clock.unwrap_or_else(|| {
                    let moves = state.moves_left().max(1);
                    Clock {
                        remaining: time.saturating_mul(moves),
                        increment: Duration::ZERO,
                        moves_to_go: None,
                    }
                });
                run.own_clock = self.clock.is_none().then_some(clock);
                let record = nboard_game_at_clock(state, &clock).expect("checked at construction");
                run.process.send(&format!("set game {record}"))?;
            }
            Protocol::Gtp => {
                let standard = G::gtp_start(G::gtp_size()).unwrap_or_default();
                let own = G::gtp_start(state.gtp_size_of());
                let start = [Some(standard), own]
                    .into_iter()
                    .flatten()
                    .find(|s| {
                        s == state
                            || s.legal_moves()
                                .into_iter()
                                .any(|m| s.play_unchecked(m) == *state)
                    })
                    .ok_or_else(|| AgentError::Failed {
                        agent: self.spec.to_string(),
                        reason: format!(
                            "GTP has no command to set up the position {state}: a GTP engine \
                             plays from the standard start (Othello engines: use nboard)"
                        ),
                    })?;
                for cmd in [
                    format!("boardsize {}", start.gtp_size_of()),
                    "clear_board".into(),
                ] {
                    gtp_ask(run, &cmd, deadline, &flag).map_err(|f| gtp_refused(f, &cmd))?;
                }
                // Time commands are optional in GTP: an engine may refuse them. At a clock,
                // its time as main time; else one move of byo-yomi per move.
                let cmd = match self.clock {
                    Some(clock) => format!("time_settings {} 0 0", secs(clock.remaining)),
                    None => format!("time_settings 0 {} 1", secs(time)),
                };
                optional(gtp_ask(run, &cmd, deadline, &flag))?;
                if let Some(mv) = start
                    .legal_moves()
                    .into_iter()
                    .find(|&m| start.play_unchecked(m) == *state)
                {
                    let c = colour_text(start.side_to_move());
                    gtp_ask(
                        run,
                        &format!("play {c} {}", G::gtp_move(mv)),
                        deadline,
                        &flag,
                    )
                    .map_err(|f| gtp_refused(f, "play"))?;
                }
            }
        }
        run.board = Some(state.clone());
        Ok(())
    }

    /// Plays one move through the protocol.
    fn ask_move(&mut self, state: &G) -> Result<(G::Move, Option<f64>), AgentError> {
        self.start()?;
        self.sync(state)?;
        let time = self.time();
        let flag = self.flag.clone();
        let protocol = self.spec.protocol;
        let harness_clock = self.clock;
        let run = self.running.as_mut().expect("started");
        let started = Instant::now();
        // The time the engine may take: with a clock (the harness's, or the NBoard game clock
        // this client sent), what is left on it; else its time per move. A grace covers the
        // pipes and the scheduler.
        let allowed = match (protocol, harness_clock, run.own_clock) {
            (_, Some(c), _) | (Protocol::Nboard, None, Some(c)) => c.remaining,
            _ => time,
        };
        let deadline = started + allowed + grace(time);
        let (text, eval) = match protocol {
            Protocol::Nboard => {
                run.process.send("go")?;
                let reply = nboard_wait(run, deadline, &flag, |line| {
                    line.strip_prefix("===").map(str::to_string)
                })?;
                let mut parts = reply.split(['/', ' ', '\t']).filter(|p| !p.is_empty());
                let mv = parts
                    .next()
                    .ok_or_else(|| Fault::protocol(format!("no move in \"=== {reply}\"")))?
                    .to_string();
                (mv, parts.next().and_then(|e| e.parse::<f64>().ok()))
            }
            Protocol::Gtp => {
                let c = colour_text(state.side_to_move());
                // At a clock: the time left as main time; else one move of byo-yomi.
                let cmd = match harness_clock {
                    Some(clock) => format!("time_left {c} {} 0", secs(clock.remaining)),
                    None => format!("time_left {c} {} 1", secs(time)),
                };
                optional(gtp_ask(run, &cmd, deadline, &flag))?;
                let reply = gtp_ask(run, &format!("genmove {c}"), deadline, &flag)
                    .map_err(|f| gtp_refused(f, "genmove"))?;
                (reply.trim().to_string(), None)
            }
        };
        let illegal = |written: String| {
            Fault::new(
                Forfeit::IllegalMove(written),
                format!("{text:?} in position {state}"),
            )
        };
        let mv = match G::parse_gtp_move(&text) {
            Some(mv) if state.is_legal(mv) => mv,
            Some(mv) => return Err(illegal(G::gtp_move(mv)).into()),
            // Something shaped like a move, off the board (`e9`): an illegal move.
            None if looks_like_move(&text) => return Err(illegal(text.clone()).into()),
            None => return Err(Fault::protocol(format!("{text:?} is not a move")).into()),
        };
        let next = state.play_unchecked(mv);
        if let Some(own) = &mut run.own_clock {
            // Charged like a clock; a move past it (inside the grace) leaves nothing.
            let _ = own.charge(started.elapsed());
        }
        if protocol == Protocol::Nboard {
            // The GUI's part: the engine's move is played only when the GUI says so. The move
            // stands even if the engine is gone now; the next move will find out.
            let spent = started.elapsed().as_secs_f64();
            let _ = run
                .process
                .send(&format!("move {}//{spent:.3}", nboard_move::<G>(mv)));
        }
        run.board = Some(next);
        Ok((mv, eval))
    }

    /// NBoard `hint`: the engine's values of the moves of `state`.
    fn hints(&mut self, state: &G) -> Result<Vec<(G::Move, f64, String)>, AgentError> {
        self.start()?;
        self.sync(state)?;
        let time = self.time();
        let flag = self.flag.clone();
        let run = self.running.as_mut().expect("started");
        let n = state.legal_moves().len();
        run.process.send(&format!("hint {n}"))?;
        let deadline = Instant::now() + time + grace(time);
        let mut hints = Vec::new();
        loop {
            let line = match run.process.recv(deadline, nboard_stop, &|| flag.is_set()) {
                Ok(line) => line,
                // Out of time with some values: keep them.
                Err(f) if f.reason == Forfeit::Timeout && !hints.is_empty() => break,
                Err(f) => return Err(f.into()),
            };
            let mut words = line.split_whitespace();
            match words.next() {
                Some("search" | "book") => {
                    let pv = words.next().unwrap_or_default();
                    let eval = words.next().and_then(|e| e.parse::<f64>().ok());
                    let depth = words.nth(1).unwrap_or_default().to_string();
                    let mv = pv.get(..2).and_then(G::parse_gtp_move);
                    match (mv, eval) {
                        (Some(mv), Some(eval)) if state.is_legal(mv) => {
                            hints.retain(|h: &(G::Move, f64, String)| h.0 != mv);
                            hints.push((mv, eval, depth));
                        }
                        _ => return Err(Fault::protocol(format!("bad hint line {line:?}")).into()),
                    }
                }
                Some("status") if !hints.is_empty() => break,
                _ => nboard_other(&mut run.process, &line),
            }
        }
        // Resynchronise: whatever else the hint printed comes before the pong.
        nboard_sync(run, deadline + STARTUP)?;
        Ok(hints)
    }
}

/// Whether a reply that is not a move of the game still looks like one: a short word of
/// letters, digits, brackets and commas with a letter or a digit in it (`e9`, `(3,1)`).
fn looks_like_move(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 8
        && text.chars().any(|c| c.is_ascii_alphanumeric())
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '(' | ')' | ','))
}

/// The seconds of a duration as GTP and NBoard write them.
fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// A move as NBoard writes it: `F5`, `PA`.
fn nboard_move<G: EngineGame>(mv: G::Move) -> String {
    if G::is_pass(mv) {
        "PA".to_string()
    } else {
        G::gtp_move(mv).to_ascii_uppercase()
    }
}

/// A line that is not the one awaited: NBoard's lines an engine may send at any time are
/// skipped; any other line (a banner, a search table, a summary, as real engines print) is
/// ignored too, as GUIs do, and noted for reports ([`Process::ignore`]).
fn nboard_other(process: &mut Process, line: &str) {
    match line.split_whitespace().next() {
        None
        | Some(
            "status" | "nodestats" | "search" | "book" | "set" | "pong" | "learned" | "analysis",
        ) => {}
        _ => process.ignore(line),
    }
}

/// Asks an NBoard engine to stop thinking: a ping (answered after it stops).
fn nboard_stop(p: &mut Process) -> Result<(), Fault> {
    p.send("ping 0")
}

/// Waits for the line `want` accepts, skipping the lines NBoard allows at any time.
fn nboard_wait(
    run: &mut Running<impl Game>,
    deadline: Instant,
    flag: &StopFlag,
    want: impl Fn(&str) -> Option<String>,
) -> Result<String, Fault> {
    loop {
        let line = run.process.recv(deadline, nboard_stop, &|| flag.is_set())?;
        if let Some(found) = want(&line) {
            return Ok(found.trim().to_string());
        }
        nboard_other(&mut run.process, &line);
    }
}

/// Sends `ping N` and waits for `pong N`.
fn nboard_sync(run: &mut Running<impl Game>, deadline: Instant) -> Result<(), Fault> {
    let id = run.next_id;
    run.next_id += 1;
    run.process.send(&format!("ping {id}"))?;
    let never = StopFlag::new();
    nboard_wait(run, deadline, &never, |line| {
        let mut w = line.split_whitespace();
        (w.next() == Some("pong") && w.next() == Some(&id.to_string())).then(String::new)
    })
    .map(|_| ())
}

/// The answer to an optional GTP command: an error answer (the engine does not know it) is
/// fine, any other fault is not.
fn optional(answer: Result<String, Fault>) -> Result<(), Fault> {
    match answer {
        Err(f) if f.reason == Forfeit::Protocol && f.detail.starts_with("error answer") => Ok(()),
        Err(f) => Err(f),
        Ok(_) => Ok(()),
    }
}

/// A GTP error answer to a command we need turns into a protocol fault naming it.
fn gtp_refused(f: Fault, cmd: &str) -> Fault {
    if f.reason == Forfeit::Protocol && f.detail.starts_with("error answer") {
        Fault::protocol(format!("{cmd}: {}", f.detail))
    } else {
        f
    }
}

/// Sends a GTP command with an id and returns its answer (`=` response); a `?` answer is a
/// protocol fault.
fn gtp_ask(
    run: &mut Running<impl Game>,
    cmd: &str,
    deadline: Instant,
    flag: &StopFlag,
) -> Result<String, Fault> {
    let id = run.next_id;
    run.next_id += 1;
    run.process.send(&format!("{id} {cmd}"))?;
    loop {
        let line = run.process.recv(deadline, |_| Ok(()), &|| flag.is_set())?;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (ok, rest) = match line.as_bytes()[0] {
            b'=' => (true, &line[1..]),
            b'?' => (false, &line[1..]),
            // Not a response: a banner or a search report, ignored as GUIs do.
            _ => {
                run.process.ignore(line);
                continue;
            }
        };
        let id_text = id.to_string();
        // `=12 f5` (the standard) or `= 12 f5` (as Edax writes it).
        let rest = rest
            .strip_prefix(&id_text)
            .filter(|r| r.is_empty() || r.starts_with(' '))
            .or_else(|| {
                let r = rest.trim_start();
                r.strip_prefix(&id_text)
                    .filter(|r| r.starts_with(' ') && !r.trim().is_empty())
            })
            .unwrap_or(rest)
            .trim();
        if !ok {
            return Err(Fault::protocol(format!("error answer to {cmd:?}: {rest}")));
        }
        return Ok(rest.to_string());
    }
}

impl<G: EngineGame> Agent<G> for ExternalEngine<G> {
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// With NBoard, the engine's `hint` values (discs for the mover), the best chosen; with
    /// GTP, the engine's move alone.
    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        if state.is_over() {
            return Err(AgentError::GameOver);
        }
        let result = match self.spec.protocol {
            Protocol::Nboard => self.hints(state).map(|hints| {
                // The engine's first line is its choice; the moves go in the game's order.
                let top = hints.first().map(|h| h.0);
                let moves = state
                    .legal_moves()
                    .into_iter()
                    .filter_map(|mv| hints.iter().find(|h| h.0 == mv))
                    .map(|(mv, eval, depth)| {
                        MoveScore::new(*mv, *eval).with_note(format!("depth {depth}"))
                    })
                    .collect();
                let mut e = Explanation::from_scores(self.spec.to_string(), moves, |best| {
                    top.filter(|t| best.contains(t)).unwrap_or(best[0])
                });
                e.notes
                    .push("evaluations from the engine's hint: discs for the mover".into());
                e
            }),
            Protocol::Gtp => self.choose(state, rng).map(|mv| Explanation {
                agent: self.spec.to_string(),
                moves: vec![MoveScore::new(mv, 0.0)],
                best: vec![mv],
                chosen: mv,
                notes: vec!["GTP gives no evaluations: the engine's move only".into()],
            }),
        };
        let result = self.with_ignored(result);
        if matches!(result, Err(AgentError::Forfeit { .. })) {
            self.running = None;
        }
        result
    }

    fn choose(&mut self, state: &G, _rng: &mut Rng) -> Result<G::Move, AgentError> {
        if state.is_over() {
            return Err(AgentError::GameOver);
        }
        let result = self.ask_move(state).map(|(mv, _)| mv);
        let result = self.with_ignored(result);
        if matches!(result, Err(AgentError::Forfeit { .. })) {
            // Kill it now; the next call starts a fresh process.
            self.running = None;
        }
        result
    }

    fn set_limits(&mut self, limits: &Limits) {
        self.limit = limits.time;
        self.flag = limits.flag.clone();
    }

    /// At a clock the engine is told the harness's clock (NBoard: `TI` of `set game`; GTP:
    /// `time_settings` at a new game and `time_left` before each move) and is held to it.
    fn set_clock(&mut self, clock: Option<&Clock>) {
        self.clock = clock.copied();
    }
}

/// The NBoard `set game` record of a game starting at `pos` whose clock (`TI`) gives `time`
/// to each move the side to move has left; `None` for games NBoard does not speak.
#[must_use]
pub fn nboard_game_for<G: EngineGame>(pos: &G, time: Duration) -> Option<ggf::Record> {
    let clock = Clock {
        remaining: time.saturating_mul(pos.moves_left().max(1)),
        increment: Duration::ZERO,
        moves_to_go: None,
    };
    nboard_game_at_clock(pos, &clock)
}

/// The NBoard `set game` record of a game starting at `pos` at `clock`: `TI[main]`, or
/// `TI[main/increment]` with an increment; `None` for games NBoard does not speak.
#[must_use]
pub fn nboard_game_at_clock<G: EngineGame>(pos: &G, clock: &Clock) -> Option<ggf::Record> {
    let mut record = pos.nboard_record()?;
    let main = format_clock(clock.remaining.as_secs_f64());
    record.time = Some(if clock.increment.is_zero() {
        main
    } else {
        format!("{main}/{}", format_clock(clock.increment.as_secs_f64()))
    });
    Some(record)
}
