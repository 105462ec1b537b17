//! The engine side of the Go Text Protocol (GTP version 2), as Othello engines speak it, for
//! every game with an [`EngineGame`] notation.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use yomi_core::{Clock, Player};

use crate::session::{AgentFactory, Brain, EngineOptions, Inbox, Outbox, Work};
use crate::EngineGame;

/// The commands the engine knows, as `list_commands` gives them.
pub const GTP_COMMANDS: [&str; 15] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "time_settings",
    "time_left",
    "quit",
];

/// Parses a GTP colour: `b`/`black` is the first player, `w`/`white` the second (any case).
#[must_use]
pub fn parse_colour(text: &str) -> Option<Player> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player::First),
        "w" | "white" => Some(Player::Second),
        _ => None,
    }
}

/// The GTP colour of a player: `b` or `w`.
#[must_use]
pub fn colour_text(p: Player) -> &'static str {
    match p {
        Player::First => "b",
        Player::Second => "w",
    }
}

/// A GTP engine session for game `G`: reads commands from `input` until `quit` or the end of
/// the input, and writes flushed replies to `output` (`=[id] result` or `?[id] error`, each
/// ended by an empty line).
///
/// Commands: `protocol_version` (2), `name`, `version`, `known_command`, `list_commands`,
/// `boardsize <n>` (Othello 8, tic-tac-toe 3, the stone game any pile), `clear_board` (a new
/// game: game `i` of the session plays from the stream (seed, `i`)), `komi` (accepted,
/// unused), `play <colour> <move>`, `genmove <colour>` (the engine plays the move it
/// answers), `undo`, `showboard`, `time_settings <main> <byo-yomi> <stones>`, `time_left
/// <colour> <seconds> <stones>`, `quit`. Colours are `b`/`black` for the first player and
/// `w`/`white` for the second. A move for the other colour when the side to move has only a
/// pass plays the pass first, as Edax does. Comments (`#`), control characters and empty
/// lines are dropped as the protocol says.
///
/// # Errors
/// An output error (the client went away), or the factory's error at the start.
pub fn run_gtp<G, R, W>(
    input: R,
    output: W,
    options: &EngineOptions,
    factory: AgentFactory<G>,
) -> io::Result<()>
where
    G: EngineGame,
    R: BufRead + Send + 'static,
    W: Write,
{
    let brain = Brain::new(factory, options).map_err(io::Error::other)?;
    let mut session = Gtp {
        inbox: Inbox::new(input),
        out: Outbox::new(output),
        brain,
        options: options.clone(),
        size: G::gtp_size(),
        pos: G::default(),
        history: Vec::new(),
        settings: None,
        left: [None, None],
    };
    session.run()
}

struct Gtp<G: EngineGame, W: Write> {
    inbox: Inbox<Work<G>>,
    out: Outbox<W>,
    brain: Brain<G>,
    options: EngineOptions,
    size: u32,
    pos: G,
    history: Vec<G>,
    /// `time_settings`: main time, byo-yomi time, byo-yomi stones.
    settings: Option<(f64, f64, u32)>,
    /// `time_left` per player: seconds and stones.
    left: [Option<(f64, u32)>; 2],
}

/// GTP's preprocessing: control characters dropped (tabs become spaces), `#` comments cut.
fn clean(line: &str) -> String {
    let line = line.split('#').next().unwrap_or_default();
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

type Reply = Result<String, String>;

impl<G: EngineGame, W: Write> Gtp<G, W> {
    fn run(&mut self) -> io::Result<()> {
        while let Some(line) = self.inbox.next_line() {
            let line = clean(&line);
            let mut words = line.split_whitespace().peekable();
            let id = match words.peek() {
                Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
                    let id = w.to_string();
                    words.next();
                    Some(id)
                }
                _ => None,
            };
            let Some(cmd) = words.next() else { continue };
            let args: Vec<&str> = words.collect();
            let reply = self.command(cmd, &args);
            let id = id.unwrap_or_default();
            let text = match reply {
                Ok(r) if r.is_empty() => format!("={id}\n\n"),
                Ok(r) if r.starts_with('\n') => format!("={id}{r}\n\n"),
                Ok(r) => format!("={id} {r}\n\n"),
                Err(e) => format!("?{id} {e}\n\n"),
            };
            self.out.raw(&text)?;
            if cmd == "quit" {
                break;
            }
        }
        Ok(())
    }

    fn command(&mut self, cmd: &str, args: &[&str]) -> Reply {
        match cmd {
            "protocol_version" => Ok("2".into()),
            "name" => Ok(self.options.name.clone()),
            "version" => Ok(self.options.version.clone()),
            "known_command" => Ok(GTP_COMMANDS
                .contains(&args.first().copied().unwrap_or_default())
                .to_string()),
            "list_commands" => Ok(GTP_COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => {
                let size = args
                    .first()
                    .and_then(|s| s.parse::<u32>().ok())
                    .ok_or("syntax error")?;
                let start = G::gtp_start(size).ok_or("unacceptable size")?;
                self.size = size;
                self.pos = start;
                self.history.clear();
                Ok(String::new())
            }
            "clear_board" => {
                self.pos = G::gtp_start(self.size).unwrap_or_default();
                self.history.clear();
                self.left = [None, None];
                self.brain.new_game();
                Ok(String::new())
            }
            "komi" => {
                args.first()
                    .and_then(|k| k.parse::<f64>().ok())
                    .ok_or("syntax error")?;
                Ok(String::new())
            }
            "play" => {
                let (colour, text) = match args {
                    [c, m] => (parse_colour(c).ok_or("syntax error")?, *m),
                    _ => return Err("syntax error".into()),
                };
                let mv = G::parse_gtp_move(text).ok_or("syntax error")?;
                self.give_turn(colour)?;
                let next = self.pos.play(mv).map_err(|_| "illegal move")?;
                self.history.push(self.pos.clone());
                self.pos = next;
                Ok(String::new())
            }
            "genmove" => {
                let colour = match args {
                    [c] => parse_colour(c).ok_or("syntax error")?,
                    _ => return Err("syntax error".into()),
                };
                self.give_turn(colour)?;
                if self.pos.is_over() {
                    return Err("the game is over".into());
                }
                let time = self.clock(colour);
                let pos = self.pos.clone();
                let answer = self.brain.think(&mut self.inbox, &pos, time, false, |l| {
                    clean(l).split_whitespace().any(|w| w == "quit")
                });
                let mv = answer.result.map_err(|e| e.to_string())?.chosen;
                let next = self
                    .pos
                    .play(mv)
                    .map_err(|_| format!("the agent chose an illegal move {mv}"))?;
                self.history.push(self.pos.clone());
                self.pos = next;
                Ok(G::gtp_move(mv))
            }
            "undo" => {
                let prev = self.history.pop().ok_or("cannot undo")?;
                self.pos = prev;
                Ok(String::new())
            }
            "showboard" => {
                let picture = self.pos.gtp_board();
                let lines: Vec<&str> = picture.lines().filter(|l| !l.is_empty()).collect();
                Ok(format!("\n{}", lines.join("\n")))
            }
            "time_settings" => match args {
                [main, byo, stones] => {
                    let main = main.parse::<f64>().ok().filter(|x| *x >= 0.0);
                    let byo = byo.parse::<f64>().ok().filter(|x| *x >= 0.0);
                    let stones = stones.parse::<u32>().ok();
                    let (Some(main), Some(byo), Some(stones)) = (main, byo, stones) else {
                        return Err("syntax error".into());
                    };
                    self.settings = Some((main, byo, stones));
                    self.left = [None, None];
                    Ok(String::new())
                }
                _ => Err("syntax error".into()),
            },
            "time_left" => match args {
                [c, secs, stones] => {
                    let p = parse_colour(c).ok_or("syntax error")?;
                    let secs = secs.parse::<f64>().ok().filter(|x| x.is_finite());
                    let stones = stones.parse::<u32>().ok();
                    let (Some(secs), Some(stones)) = (secs, stones) else {
                        return Err("syntax error".into());
                    };
                    self.left[p.index()] = Some((secs, stones));
                    Ok(String::new())
                }
                _ => Err("syntax error".into()),
            },
            _ => Err("unknown command".into()),
        }
    }

    /// Makes `colour` the side to move: a forced pass of the other side is played first.
    fn give_turn(&mut self, colour: Player) -> Result<(), String> {
        if self.pos.side_to_move() == colour {
            return Ok(());
        }
        let moves = self.pos.legal_moves();
        match moves.first() {
            Some(&only) if moves.len() == 1 && G::is_pass(only) => {
                self.history.push(self.pos.clone());
                self.pos = self.pos.play_unchecked(only);
                Ok(())
            }
            _ => Err(format!(
                "illegal move: {} is not to move",
                colour_text(colour)
            )),
        }
    }

    /// The clock of `colour` from the times the client set, and the flat share of it for
    /// this move (`None`: no time limit).
    fn clock(&self, colour: Player) -> Option<(Duration, Clock)> {
        let (main, byo, stones) = self.settings?;
        if main == 0.0 && byo > 0.0 && stones == 0 {
            // GTP: byo-yomi time with no stones means no time limit.
            return None;
        }
        if main == 0.0 && byo == 0.0 {
            return None;
        }
        let secs = |s: f64| Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::MAX);
        let clock = |left: f64, to_go: Option<u32>| Clock {
            remaining: secs(left),
            increment: Duration::ZERO,
            moves_to_go: to_go,
        };
        let moves = self.pos.moves_left();
        let c = match self.left[colour.index()] {
            // In byo-yomi: the period's time over its stones.
            Some((left, n)) if n > 0 => clock(left, Some(n)),
            // Main time (a byo-yomi period may follow).
            Some((left, _)) => {
                let after = if stones > 0 {
                    byo / f64::from(stones)
                } else {
                    0.0
                };
                let c = clock(left, None);
                return Some((c.flat_share(moves).max(clock(after, None).flat_share(1)), c));
            }
            None if main > 0.0 => clock(main, None),
            None => clock(byo, Some(stones)),
        };
        Some((c.flat_share(moves), c))
    }
}
