//! The engine side of the NBoard protocol (version 2), the protocol of the NBoard GUI.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use yomi_core::{Clock, Explanation, Game, MoveScore, Player};
use yomi_othello::{ggf, Move, Othello};

use crate::clock::parse_time_control;
use crate::session::{AgentFactory, AgentSettings, Brain, EngineOptions, Inbox, Outbox, Work};

/// How deep an evaluation looked, as NBoard's `search` lines write it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintDepth {
    /// A search of this many plies.
    Plies(u32),
    /// An exact solve to the end (`100%`).
    Exact,
    /// A win/loss/draw solve (`100%W`).
    Wld,
}

impl std::fmt::Display for HintDepth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HintDepth::Plies(d) => write!(f, "{d}"),
            HintDepth::Exact => f.write_str("100%"),
            HintDepth::Wld => f.write_str("100%W"),
        }
    }
}

/// A move's value as NBoard shows it: discs from the mover's side, and how deep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HintValue {
    /// The evaluation in discs for the player to move.
    pub eval: f64,
    /// How it was found.
    pub depth: HintDepth,
    /// For a move from an opening book: the games or lines through its position (the hint
    /// is then a `book` line instead of a `search` line).
    pub book: Option<u64>,
}

/// Turns an agent's score of a move (in the agent's own units) into NBoard's discs and depth.
/// Agents score moves in their own units; the caller, who knows the agent, says how to read
/// them. [`default_hint_value`] reads the conventions of the yomi zoo's notes.
pub type HintReader = Box<dyn Fn(&Explanation<Move>, &MoveScore<Move>) -> HintValue + Send>;

/// Reads a score the way the zoo's explanations label it: a note saying `exact solve` is an
/// exact final margin (`100%`), `WLD solve` a win/loss/draw value (`100%W`); otherwise the
/// score as it is, at the depth of a `depth` part (0 without one).
#[must_use]
pub fn default_hint_value(_: &Explanation<Move>, ms: &MoveScore<Move>) -> HintValue {
    let note = ms.note.as_deref().unwrap_or_default();
    let part = |label: &str| {
        ms.parts
            .iter()
            .find(|p| p.label == label)
            .map(|p| p.value.max(0.0) as u64)
    };
    if note.starts_with("book") {
        // A book move: its value in discs, the depth behind it, the lines through it.
        let depth = if note.contains("exact") {
            HintDepth::Exact
        } else if note.contains("wld") {
            HintDepth::Wld
        } else {
            HintDepth::Plies(part("depth").unwrap_or(0) as u32)
        };
        return HintValue {
            eval: ms.score,
            depth,
            book: Some(part("lines").unwrap_or(0)),
        };
    }
    let depth = if note.contains("exact solve") {
        HintDepth::Exact
    } else if note.contains("WLD solve") {
        HintDepth::Wld
    } else {
        let plies = ms
            .parts
            .iter()
            .find(|p| p.label == "depth")
            .map_or(0, |p| p.value.max(0.0) as u32);
        HintDepth::Plies(plies)
    };
    HintValue {
        eval: ms.score,
        depth,
        book: None,
    }
}

/// An NBoard engine session: reads commands from `input` until `quit` or the end of the
/// input, and writes flushed replies to `output`.
///
/// Commands: `nboard <version>` (answered with `set myname`), `set depth <n>` (rebuilds the
/// agent with that depth, answered with `set myname`), `set game <GGF>`, `set contempt <n>`
/// (accepted, unused), `move <mv>[/<eval>/<time>]` (also space-separated, and a bare move as
/// NBoard 1.1 sent it), `hint <n>` (`search <move> <eval> 0 <depth>` for the best `n` moves,
/// the evaluation in discs for the side to move, the depth `100%` for an exact solve and
/// `100%W` for a win/loss/draw solve; `book <move> <eval> <games> <depth>` for a move from
/// the agent's opening book), `go` (`=== <mv>/<eval>/<time>`; the board is not
/// changed: the GUI sends the `move`), `analyze` (`analysis <move number> <eval>` for each
/// position of the game from the last back, each from the side to move there), `learn`
/// (`learned`), `ping <n>` (stops any thinking first, then `pong <n>`), `quit`. Each thought
/// starts with `status <name> is thinking` and ends, after its output, with
/// `status <name> is waiting`, as Edax does. A thought whose explanation counts nodes (the
/// `nodes` parts of its moves, as the `othello` agent's do) is followed by
/// `nodestats <nodes> <seconds>` before that last status line, as Edax sends it at the end
/// of a search; the `Agent` trait reports no nodes while it thinks.
/// Unknown commands are ignored; bad arguments are reported on a `status` line and ignored.
///
/// The time per move is shared out of the clock of the `set game` record (`TI`, or `TB`/`TW`
/// for the engine's colour, less the times of the colour's moves in the record) over the
/// moves the colour has left; without a clock the agent's own settings decide.
///
/// # Errors
/// An output error (the client went away), or the factory's error at the start.
pub fn run_nboard<R, W>(
    input: R,
    output: W,
    options: &EngineOptions,
    factory: AgentFactory<Othello>,
    reader: HintReader,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let brain = Brain::new(factory, options).map_err(io::Error::other)?;
    let mut session = Nboard {
        inbox: Inbox::new(input),
        out: Outbox::new(output),
        brain,
        reader,
        name: options.name.clone(),
        game: ggf::Record::new(Othello::new()),
        depth: None,
        started: false,
    };
    session.run()
}

struct Nboard<W: Write> {
    inbox: Inbox<Work<Othello>>,
    out: Outbox<W>,
    brain: Brain<Othello>,
    reader: HintReader,
    name: String,
    game: ggf::Record,
    depth: Option<u32>,
    started: bool,
}

/// Commands that stop the engine's thinking.
fn interrupts(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("ping" | "quit"))
}

/// Formats an evaluation as NBoard engines do: two decimals.
fn eval_text(e: f64) -> String {
    // Adding zero turns -0 into 0.
    format!("{:.2}", e + 0.0)
}

impl<W: Write> Nboard<W> {
    fn run(&mut self) -> io::Result<()> {
        while let Some(line) = self.inbox.next_line() {
            let mut words = line.split_whitespace();
            let Some(cmd) = words.next() else { continue };
            let rest: Vec<&str> = words.collect();
            match cmd {
                "nboard" => self.out.send(format!("set myname {}", self.name))?,
                "set" => self.set(&rest, &line)?,
                "move" => self.play_move(&rest.join(" "))?,
                "hint" => {
                    let n = rest.first().and_then(|n| n.parse().ok()).unwrap_or(1);
                    self.hint(n)?;
                }
                "go" => self.go()?,
                "analyze" => self.analyze()?,
                "ping" => self.out.send(format!("pong {}", rest.join(" ")))?,
                "learn" => self.out.send("learned")?,
                "quit" => break,
                // NBoard 1.1 sent a bare move.
                _ if cmd.len() == 2 && cmd.parse::<Move>().is_ok() && rest.is_empty() => {
                    self.play_move(cmd)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn status(&mut self, text: impl std::fmt::Display) -> io::Result<()> {
        self.out.send(format!("status {text}"))
    }

    fn set(&mut self, rest: &[&str], line: &str) -> io::Result<()> {
        match rest.first().copied() {
            Some("depth") => {
                let Some(depth) = rest.get(1).and_then(|d| d.parse::<u32>().ok()) else {
                    return self.status("bad depth: expected set depth <plies>");
                };
                self.depth = Some(depth);
                match self.brain.configure(AgentSettings { depth: Some(depth) }) {
                    Ok(()) => self.out.send(format!("set myname {}", self.name)),
                    Err(e) => self.status(format!("cannot set depth {depth}: {e}")),
                }
            }
            Some("game") => {
                let text = line
                    .trim_start()
                    .strip_prefix("set")
                    .map(str::trim_start)
                    .and_then(|t| t.strip_prefix("game"))
                    .map(str::trim_start)
                    .unwrap_or_default();
                match text.parse::<ggf::Record>() {
                    Ok(game) => {
                        let continues = self.started
                            && game.start() == self.game.start()
                            && game.line().starts_with(&self.game.line());
                        if !continues {
                            self.brain.new_game();
                        }
                        self.started = true;
                        self.game = game;
                        Ok(())
                    }
                    Err(e) => self.status(format!("bad game: {e}")),
                }
            }
            // Contempt and anything newer: accepted and ignored.
            _ => Ok(()),
        }
    }

    /// `move F5`, `move F5/1.5/0.3`, `move F5 1.5 0.3`.
    fn play_move(&mut self, text: &str) -> io::Result<()> {
        let mut parts = text.split(['/', ' ']).filter(|p| !p.is_empty());
        let Some(mv) = parts.next().and_then(|m| m.parse::<Move>().ok()) else {
            return self.status(format!("bad move {text:?}"));
        };
        let eval = parts.next().and_then(|e| e.parse::<f64>().ok());
        let time = parts.next().and_then(|t| t.parse::<f64>().ok());
        // A slash form may leave the evaluation empty: `F5//0.3`.
        let (eval, time) = if text.contains("//") {
            (None, eval)
        } else {
            (eval, time)
        };
        match self.game.push_move(mv, eval, time) {
            Ok(()) => Ok(()),
            Err(e) => self.status(format!("illegal move: {e}")),
        }
    }

    /// The clock of the side to move, from the record's (its time control less the times
    /// of its moves), and the flat share of it for this move.
    fn clock(&self) -> Option<(Duration, Clock)> {
        let pos = self.game.position();
        let side = pos.side_to_move();
        let own = match side {
            Player::First => &self.game.black_time,
            Player::Second => &self.game.white_time,
        };
        let control = own.as_ref().or(self.game.time.as_ref())?;
        let (main, increment) = parse_time_control(control)?;
        let used: f64 = self
            .game
            .moves()
            .iter()
            .filter(|m| m.player == side)
            .filter_map(|m| m.time)
            .sum();
        let secs = |s: f64| Duration::try_from_secs_f64(s.max(0.0)).unwrap_or(Duration::MAX);
        let clock = Clock {
            remaining: secs(main - used),
            increment: secs(increment),
            moves_to_go: None,
        };
        let moves = pos.empties().count().div_ceil(2);
        Some((clock.flat_share(moves), clock))
    }

    fn think(&mut self, pos: &Othello) -> io::Result<Option<(Explanation<Move>, Duration)>> {
        self.status(format!("{} is thinking", self.name))?;
        let time = self.clock();
        let answer = self
            .brain
            .think(&mut self.inbox, pos, time, true, interrupts);
        match answer.result {
            Ok(e) => Ok(Some((e, answer.elapsed))),
            Err(e) => {
                self.status(format!("cannot move: {e}"))?;
                self.waiting()?;
                Ok(None)
            }
        }
    }

    /// The status line that ends a thought, after its output.
    fn waiting(&mut self) -> io::Result<()> {
        self.status(format!("{} is waiting", self.name))
    }

    /// `nodestats <nodes> <seconds>` after a thought whose moves count nodes.
    fn nodestats(&mut self, e: &Explanation<Move>, elapsed: Duration) -> io::Result<()> {
        let parts = e
            .moves
            .iter()
            .flat_map(|m| &m.parts)
            .filter(|p| p.label == "nodes");
        let (mut any, mut nodes) = (false, 0u64);
        for p in parts {
            any = true;
            nodes += p.value.max(0.0) as u64;
        }
        if any {
            self.out
                .send(format!("nodestats {nodes} {:.3}", elapsed.as_secs_f64()))?;
        }
        Ok(())
    }

    fn hint(&mut self, n: usize) -> io::Result<()> {
        let pos = self.game.position();
        if pos.is_over() {
            return self.status("the game is over");
        }
        let Some((e, elapsed)) = self.think(&pos)? else {
            return Ok(());
        };
        let mut scored: Vec<&MoveScore<Move>> = e.moves.iter().collect();
        // Best first; the chosen move first among equals.
        scored.sort_by(|a, b| {
            b.score
                .total_cmp(&a.score)
                .then_with(|| (b.mv == e.chosen).cmp(&(a.mv == e.chosen)))
        });
        for ms in scored.into_iter().take(n.max(1)) {
            let v = (self.reader)(&e, ms);
            let mv = ms.mv.to_string().to_ascii_uppercase();
            let line = match v.book {
                Some(games) => format!("book {mv} {} {games} {}", eval_text(v.eval), v.depth),
                None => format!("search {mv} {} 0 {}", eval_text(v.eval), v.depth),
            };
            self.out.send(line)?;
        }
        self.nodestats(&e, elapsed)?;
        self.waiting()
    }

    fn go(&mut self) -> io::Result<()> {
        let pos = self.game.position();
        if pos.is_over() {
            return self.status("the game is over");
        }
        let Some((e, elapsed)) = self.think(&pos)? else {
            return Ok(());
        };
        let mut reply = format!("=== {}", e.chosen.to_string().to_ascii_uppercase());
        if let Some(ms) = e.moves.iter().find(|m| m.mv == e.chosen) {
            let v = (self.reader)(&e, ms);
            let _ = write!(reply, "/{}", eval_text(v.eval));
        } else {
            reply.push('/');
        }
        let _ = write!(reply, "/{:.3}", elapsed.as_secs_f64());
        self.out.send(reply)?;
        self.nodestats(&e, elapsed)?;
        self.waiting()
    }

    fn analyze(&mut self) -> io::Result<()> {
        let positions = self.game.positions();
        for (number, pos) in positions.iter().enumerate().rev() {
            if pos.is_over() {
                continue;
            }
            let Some((e, _)) = self.think(pos)? else {
                return Ok(());
            };
            if let Some(ms) = e.moves.iter().find(|m| m.mv == e.chosen) {
                let v = (self.reader)(&e, ms);
                self.out
                    .send(format!("analysis {number} {}", eval_text(v.eval)))?;
            }
            self.waiting()?;
            if self.brain.flag.is_set() {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `othello` agent's notes on book moves become `book` hints with the depth behind
    /// each value: plies, an exact solve, or a win/loss/draw proof.
    #[test]
    fn book_moves_become_book_hints_with_their_depth() {
        let mv: Move = "f5".parse().unwrap();
        let book = |note: &str, depth: f64| {
            let ms = MoveScore::new(mv, 4.0)
                .with_note(note)
                .with_part("depth", depth)
                .with_part("lines", 3.0);
            let why = Explanation::from_scores("othello".into(), vec![ms.clone()], |b| b[0]);
            default_hint_value(&why, &ms)
        };
        let at = |depth| HintValue {
            eval: 4.0,
            depth,
            book: Some(3),
        };
        assert_eq!(
            book("book, depth 12, 3 lines", 12.0),
            at(HintDepth::Plies(12))
        );
        assert_eq!(book("book, exact, 3 lines", 255.0), at(HintDepth::Exact));
        assert_eq!(book("book, wld, 3 lines", 254.0), at(HintDepth::Wld));
        assert_eq!(HintDepth::Wld.to_string(), "100%W");
    }
}
