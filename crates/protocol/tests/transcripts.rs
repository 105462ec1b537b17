//! Protocol transcripts: fixed command sequences and the exact replies, written from the
//! protocols' specifications (NBoard's protocol page and the sessions it shows, as NBoard, Edax
//! and NTest exchange them; GTP version 2 as Edax's GTP mode speaks it for Othello).

use std::io::{Cursor, Write};
use std::time::{Duration, Instant};

use yomi_core::{Agent, AgentError, Clock, Explanation, Game, Limits, MoveScore, Rng};
use yomi_nim::Nim;
use yomi_othello::{Move, Othello};
use yomi_protocol::{
    default_hint_value, run_gtp, run_nboard, AgentFactory, EngineGame, EngineOptions,
};
use yomi_tictactoe::TicTacToe;

/// Scores the legal moves 10, 9, 8, ... in their natural order, with a `depth` part; records
/// the depth it was built with in its spec.
#[derive(Debug)]
struct Ranked {
    depth: Option<u32>,
}

impl<G: Game> Agent<G> for Ranked {
    fn spec(&self) -> String {
        match self.depth {
            Some(d) => format!("ranked:depth={d}"),
            None => "ranked".to_string(),
        }
    }

    fn explain(&mut self, pos: &G, _: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        let scored = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                MoveScore::new(m, 10.0 - i as f64).with_part("depth", self.depth.unwrap_or(3))
            })
            .collect();
        Ok(Explanation::from_scores(
            Agent::<G>::spec(self),
            scored,
            |b| b[0],
        ))
    }
}

/// Thinks until its time runs out or its flag is set (at most 30 s), then plays the first
/// legal move.
#[derive(Debug, Default)]
struct Slow {
    limits: Limits,
}

impl<G: Game> Agent<G> for Slow {
    fn spec(&self) -> String {
        "slow".to_string()
    }

    fn explain(&mut self, pos: &G, _: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let mut limits = self.limits.clone();
        if limits.time.is_none() {
            limits.time = Some(Duration::from_secs(30));
        }
        let watch = limits.start();
        while watch.poll(1).is_none() {
            std::thread::sleep(Duration::from_millis(2));
        }
        let moves = pos.legal_moves();
        let scored = moves.iter().map(|&m| MoveScore::new(m, 0.0)).collect();
        Ok(Explanation::from_scores("slow".into(), scored, |b| b[0]))
    }

    fn set_limits(&mut self, limits: &Limits) {
        self.limits = limits.clone();
    }
}

/// Draws one number per move and plays the move it indexes (so the seed shows).
#[derive(Debug)]
struct Dice;

impl<G: Game> Agent<G> for Dice {
    fn spec(&self) -> String {
        "dice".to_string()
    }

    fn explain(&mut self, pos: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = pos.legal_moves();
        let pick = rng.below(moves.len());
        let scored = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| MoveScore::new(m, if i == pick { 1.0 } else { 0.0 }))
            .collect();
        Ok(Explanation::from_scores("dice".into(), scored, |b| b[0]))
    }
}

/// Input that ends only `hold` after its text was read, as a client that waits for replies.
struct Held {
    text: Cursor<Vec<u8>>,
    hold: Duration,
}

impl std::io::Read for Held {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.text.read(buf)?;
        if n == 0 && !self.hold.is_zero() {
            std::thread::sleep(std::mem::take(&mut self.hold));
        }
        Ok(n)
    }
}

fn held(text: &str, hold: Duration) -> std::io::BufReader<Held> {
    std::io::BufReader::new(Held {
        text: Cursor::new(text.as_bytes().to_vec()),
        hold,
    })
}

/// Output that notes when each write came.
struct Stamped {
    start: Instant,
    lines: Vec<(Duration, String)>,
}

impl Default for Stamped {
    fn default() -> Stamped {
        Stamped {
            start: Instant::now(),
            lines: Vec::new(),
        }
    }
}

impl Write for Stamped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.lines.push((
            self.start.elapsed(),
            String::from_utf8_lossy(buf).into_owned(),
        ));
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn ranked<G: Game>() -> AgentFactory<G> {
    Box::new(|s| Ok(Box::new(Ranked { depth: s.depth }) as Box<dyn Agent<G>>))
}

fn nboard(input: &str, factory: AgentFactory<Othello>, seed: u64) -> String {
    let mut out = Vec::new();
    let options = EngineOptions {
        seed,
        ..EngineOptions::default()
    };
    run_nboard(
        Cursor::new(input.to_string()),
        &mut out,
        &options,
        factory,
        Box::new(default_hint_value),
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

fn gtp<G: EngineGame>(input: &str, factory: AgentFactory<G>, seed: u64) -> String {
    let mut out = Vec::new();
    let options = EngineOptions {
        seed,
        ..EngineOptions::default()
    };
    run_gtp(Cursor::new(input.to_string()), &mut out, &options, factory).unwrap();
    String::from_utf8(out).unwrap()
}

const START: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

#[test]
fn nboard_session_as_the_gui_drives_it() {
    // The session of NBoard's protocol page: set game, set depth, ping, go; then hints, the
    // GUI's move, a 1.1-style bare move, learn, unknown commands, and the order rule (set
    // depth rebuilds the agent, so a later hint shows the new depth). Black's moves after
    // f5 f6 d3 c5 e6 f7 e7 f4 are g3 c4 g4 b5 ... (the agent ranks them in that order), and
    // after d6 c6 they are g3 b4 g4 ...
    let input = format!(
        "nboard 2\n\
         set depth 6\n\
         set game (;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]{START}B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)\n\
         ping 1\n\
         go\n\
         hint 3\n\
         move d6/-1.00/0.5\n\
         frobnicate 3\n\
         set contempt 10\n\
         c6\n\
         set depth 9\n\
         hint 2\n\
         learn\n\
         ping 2\n\
         quit\n\
         go\n"
    );
    let expected = "\
set myname yomi
set myname yomi
pong 1
status yomi is thinking
=== G3/10.00/TIME
status yomi is waiting
status yomi is thinking
search G3 10.00 0 6
search C4 9.00 0 6
search G4 8.00 0 6
status yomi is waiting
set myname yomi
status yomi is thinking
search G3 10.00 0 9
search B4 9.00 0 9
status yomi is waiting
learned
pong 2
";
    let got = nboard(&input, ranked(), 1);
    // The time of `go` varies: check its form, then compare the rest exactly.
    let time_line = got.lines().find(|l| l.starts_with("=== ")).unwrap();
    let time: f64 = time_line.rsplit('/').next().unwrap().parse().unwrap();
    assert!((0.0..1.0).contains(&time), "{time_line}");
    assert_eq!(got.replace(time_line, "=== G3/10.00/TIME"), expected);
}

#[test]
fn nboard_before_set_game_plays_the_start() {
    // GUIs must send `set depth` and `set game` before `go` and `hint`; one that does not
    // gets the standard start and the agent's own depth.
    let got = nboard("nboard 2\ngo\nhint 1\n", ranked(), 1);
    let lines: Vec<&str> = got.lines().collect();
    assert!(lines[2].starts_with("=== D3/10.00/"), "{got}");
    assert_eq!(lines[5], "search D3 10.00 0 3", "{got}");
}

#[test]
fn nboard_rejects_bad_input_on_status_lines() {
    let input = "nboard 2\nset depth x\nset game (;GM[Chess];)\nmove z9\nmove a1\nset game (;GM[Othello];)\nmove f5\nmove f5\n";
    let got = nboard(input, ranked(), 1);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines[0], "set myname yomi");
    assert_eq!(lines[1], "status bad depth: expected set depth <plies>");
    assert!(
        lines[2].starts_with("status bad game: GGF error at byte 5"),
        "{got}"
    );
    assert_eq!(lines[3], "status bad move \"z9\"");
    assert!(
        lines[4].starts_with("status illegal move: move 1 (a1)"),
        "{got}"
    );
    assert!(
        lines[5].starts_with("status illegal move: move 2 (f5)"),
        "{got}"
    );
    assert_eq!(lines.len(), 6, "{got}");
}

#[test]
fn nboard_pass_exact_and_wld_depths() {
    // A position where black must pass: go answers PA. The `100%` and `100%W` depths come
    // from the notes of the zoo's solvers.
    #[derive(Debug)]
    struct Solver(&'static str);
    impl Agent<Othello> for Solver {
        fn spec(&self) -> String {
            "solver".into()
        }
        fn explain(&mut self, pos: &Othello, _: &mut Rng) -> Result<Explanation<Move>, AgentError> {
            let moves = pos.legal_moves();
            let scored = moves
                .iter()
                .map(|&m| MoveScore::new(m, 4.0).with_note(self.0))
                .collect();
            Ok(Explanation::from_scores("solver".into(), scored, |b| b[0]))
        }
    }
    // A position from a seeded random game where the side to move must pass.
    let mut rng = Rng::seed_from_u64(3);
    let pos = loop {
        let mut pos = Othello::new();
        while !pos.is_over() && !pos.must_pass() {
            let moves = pos.legal_moves();
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if pos.must_pass() {
            break pos;
        }
    };
    let record = yomi_othello::ggf::Record::new(pos).to_string();
    for (note, depth) in [("exact solve", "100%"), ("WLD solve", "100%W")] {
        let input = format!("nboard 2\nset depth 1\nset game {record}\nhint 1\ngo\n");
        let got = nboard(
            &input,
            Box::new(move |_| Ok(Box::new(Solver(note)) as Box<dyn Agent<Othello>>)),
            1,
        );
        assert!(
            got.contains(&format!("search PA 4.00 0 {depth}\n")),
            "{got}"
        );
        assert!(got.contains("=== PA/4.00/"), "{got}");
    }
}

#[test]
fn nboard_ping_stops_thinking_at_once() {
    let clock = Instant::now();
    let got = nboard(
        &format!("nboard 2\nset depth 1\nset game (;{START};)\ngo\nping 7\n"),
        Box::new(|_| Ok(Box::new(Slow::default()) as Box<dyn Agent<Othello>>)),
        1,
    );
    assert!(clock.elapsed() < Duration::from_secs(10), "{got}");
    let lines: Vec<&str> = got.lines().collect();
    assert!(lines[3].starts_with("=== D3/0.00/"), "{got}");
    assert_eq!(lines[4..], ["status yomi is waiting", "pong 7"]);
}

#[test]
fn nboard_obeys_the_clock_of_the_game() {
    // One minute for black's 30 moves left, 50 s of it used: (10 s / 30) * 0.8 = 0.27 s.
    let input = format!("nboard 2\nset depth 1\nset game (;TI[01:00]{START}B[F5//50]W[D6];)\ngo\n");
    let clock = Instant::now();
    let mut out = Vec::new();
    run_nboard(
        held(&input, Duration::from_secs(3)),
        &mut out,
        &EngineOptions::default(),
        Box::new(|_| Ok(Box::new(Slow::default()) as Box<dyn Agent<Othello>>)),
        Box::new(default_hint_value),
    )
    .unwrap();
    let got = String::from_utf8(out).unwrap();
    let took = clock.elapsed();
    let line = got.lines().find(|l| l.starts_with("===")).unwrap();
    let time: f64 = line.rsplit('/').next().unwrap().parse().unwrap();
    assert!((0.2..1.0).contains(&time), "{got}");
    assert!(took < Duration::from_secs(8), "{took:?}");
}

#[test]
fn nboard_seeds_count_games() {
    // Game i of a session draws from the stream (seed, i): a `set game` that continues the
    // game keeps its stream, one that does not starts the next.
    let dice =
        || -> AgentFactory<Othello> { Box::new(|_| Ok(Box::new(Dice) as Box<dyn Agent<Othello>>)) };
    let first_moves = |input: &str| -> Vec<String> {
        nboard(input, dice(), 42)
            .lines()
            .filter_map(|l| l.strip_prefix("=== "))
            .map(|l| l.split('/').next().unwrap().to_string())
            .collect()
    };
    let pick = |index: u64, draws: usize| {
        let mut rng = Rng::for_stream(42, index);
        let moves = Othello::new().legal_moves();
        let mut last = String::new();
        for _ in 0..draws {
            last = moves[rng.below(moves.len())].to_string().to_uppercase();
        }
        last
    };
    let new_game = format!("set game (;{START};)\n");
    let got = first_moves(&format!(
        "nboard 2\nset depth 1\n{new_game}go\n{new_game}go\ngo\n{new_game}go\n"
    ));
    // Games 0, 1 (twice: the second `go` draws again from the same stream), 2.
    assert_eq!(got, [pick(0, 1), pick(1, 1), pick(1, 2), pick(2, 1)]);
}

#[test]
fn gtp_session_for_othello() {
    let input = "\
1 protocol_version
2 name
3 version
4 known_command genmove
5 known_command frobnicate
6 boardsize 10
7 boardsize 8
8 clear_board
9 komi 0.5
10 genmove black
11 play w c3
12 play b h8
13 play x c5
14 genmove w
15 undo
16 undo
17 genmove b
# a comment line

18 showboard
19 frobnicate
20 play
21 time_settings 10 0 0
22 time_left b 5 0
quit
";
    let expected = format!(
        "=1 2\n\n=2 yomi\n\n=3 {}\n\n=4 true\n\n=5 false\n\n?6 unacceptable size\n\n=7\n\n=8\n\n\
         =9\n\n=10 d3\n\n=11\n\n?12 illegal move\n\n?13 syntax error\n\n\
         ?14 illegal move: w is not to move\n\n=15\n\n=16\n\n=17 d3\n\n\
         =18\n  a b c d e f g h\n1 . . . . . . . .\n2 . . . . . . . .\n3 . . * X * . . .\n\
         4 . . . X X . . .\n5 . . * X O . . .\n6 . . . . . . . .\n7 . . . . . . . .\n\
         8 . . . . . . . .\nblack 4, white 1; white (O) to move\n\n\
         ?19 unknown command\n\n?20 syntax error\n\n=21\n\n=22\n\n=\n\n",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(gtp::<Othello>(input, ranked(), 1), expected);
}

#[test]
fn gtp_list_commands_and_forced_pass() {
    let got = gtp::<Othello>("list_commands\n", ranked(), 1);
    assert_eq!(
        got,
        format!("= {}\n\n", yomi_protocol::GTP_COMMANDS.join("\n"))
    );
    // A pass is illegal while a placement is possible.
    let got = gtp::<Othello>("1 play b pass\n2 genmove b\n", ranked(), 1);
    assert_eq!(got, "?1 illegal move\n\n=2 d3\n\n");
    // Reach a forced pass by play (GTP sets up no positions): a move asked of the other
    // colour plays the pass first, as Edax does.
    let mut rng = Rng::seed_from_u64(3);
    let (line, pos) = loop {
        let mut pos = Othello::new();
        let mut line = Vec::new();
        while !pos.is_over() && !pos.must_pass() {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len())];
            line.push((pos.side_to_move(), mv));
            pos = pos.play_unchecked(mv);
        }
        if pos.must_pass() {
            break (line, pos);
        }
    };
    let mut input = String::new();
    for (side, mv) in &line {
        input.push_str(&format!(
            "play {} {mv}\n",
            yomi_protocol::colour_text(*side)
        ));
    }
    let other = pos.side_to_move().other();
    input.push_str(&format!("genmove {}\n", yomi_protocol::colour_text(other)));
    let got = gtp::<Othello>(&input, ranked(), 1);
    let expected = pos.passed().legal_moves()[0];
    assert_eq!(
        got,
        format!("{}= {expected}\n\n", "=\n\n".repeat(line.len()))
    );
}

#[test]
fn gtp_other_games() {
    let got = gtp::<TicTacToe>(
        "1 boardsize 8\n2 boardsize 3\n3 clear_board\n4 genmove b\n5 play w (1,1)\n6 genmove b\n7 showboard\n",
        ranked(),
        1,
    );
    assert_eq!(
        got,
        "?1 unacceptable size\n\n=2\n\n=3\n\n=4 (0,0)\n\n=5\n\n=6 (1,0)\n\n=7\noo.\n.x.\n...\nTurn x\n\n"
    );
    let got = gtp::<Nim>(
        "1 boardsize 5\n2 clear_board\n3 genmove b\n4 play w 3\n5 genmove b\n6 genmove w\n",
        ranked(),
        1,
    );
    assert_eq!(
        got,
        "=1\n\n=2\n\n=3 1\n\n=4\n\n=5 1\n\n?6 the game is over\n\n"
    );
}

#[test]
fn gtp_time_settings_bound_the_move() {
    let factory: AgentFactory<Othello> =
        Box::new(|_| Ok(Box::new(Slow::default()) as Box<dyn Agent<Othello>>));
    // Byo-yomi of 0.25 s a move: the agent gets 0.2 s (the client waits 3 s for it).
    let mut out = Stamped::default();
    let input = held(
        "1 time_settings 0 0.25 1\n2 genmove b\n",
        Duration::from_secs(3),
    );
    run_gtp(input, &mut out, &EngineOptions::default(), factory).unwrap();
    let (at, reply) = out.lines.last().unwrap().clone();
    assert_eq!(reply, "=2 d3\n\n");
    assert!(
        at >= Duration::from_millis(150) && at < Duration::from_millis(1500),
        "{at:?}"
    );
    // Stopped by the end of the input (the client went away) long before 30 s.
    let factory: AgentFactory<Othello> =
        Box::new(|_| Ok(Box::new(Slow::default()) as Box<dyn Agent<Othello>>));
    let clock = Instant::now();
    let got = gtp::<Othello>("genmove b\n", factory, 1);
    assert_eq!(got, "= d3\n\n");
    assert!(clock.elapsed() < Duration::from_secs(10));
}

#[test]
fn gtp_seeds_count_clear_board() {
    let dice = || -> AgentFactory<TicTacToe> {
        Box::new(|_| Ok(Box::new(Dice) as Box<dyn Agent<TicTacToe>>))
    };
    let options = EngineOptions {
        seed: 9,
        first_game: 5,
        ..EngineOptions::default()
    };
    let mut out = Vec::new();
    run_gtp(
        Cursor::new("clear_board\ngenmove b\nclear_board\ngenmove b\n"),
        &mut out,
        &options,
        dice(),
    )
    .unwrap();
    let got = String::from_utf8(out).unwrap();
    let pick = |index: u64| {
        let mut rng = Rng::for_stream(9, index);
        let moves = TicTacToe::new().legal_moves();
        moves[rng.below(moves.len())].to_string()
    };
    assert_eq!(got, format!("=\n\n= {}\n\n=\n\n= {}\n\n", pick(5), pick(6)));
}

#[test]
fn a_failing_factory_is_reported() {
    let factory: AgentFactory<Othello> = Box::new(move |s| {
        if s.depth == Some(13) {
            Err("no depth 13 here".to_string())
        } else {
            Ok(Box::new(Ranked { depth: s.depth }) as Box<dyn Agent<Othello>>)
        }
    });
    let got = nboard(
        &format!("nboard 2\nset depth 13\nset game (;{START};)\nhint 1\n"),
        factory,
        1,
    );
    assert!(
        got.contains("status cannot set depth 13: no depth 13 here\n"),
        "{got}"
    );
    // The old agent plays on.
    assert!(got.contains("search D3 10.00 0 3\n"), "{got}");
}

/// Scores the legal moves as [`Ranked`] does, each with a `nodes` part of 100 times its rank
/// (as the `othello` agent reports the nodes each move's search took).
#[derive(Debug)]
struct Counting;

impl Agent<Othello> for Counting {
    fn spec(&self) -> String {
        "counting".to_string()
    }

    fn explain(&mut self, pos: &Othello, _: &mut Rng) -> Result<Explanation<Move>, AgentError> {
        let scored = pos
            .legal_moves()
            .iter()
            .enumerate()
            .map(|(i, &m)| {
                MoveScore::new(m, 10.0 - i as f64)
                    .with_part("depth", 2)
                    .with_part("nodes", 100.0 * (i + 1) as f64)
            })
            .collect();
        Ok(Explanation::from_scores("counting".into(), scored, |b| {
            b[0]
        }))
    }
}

#[test]
fn nboard_sends_nodestats_after_a_thought_that_counts_nodes() {
    // The start has four moves: 100 + 200 + 300 + 400 nodes, after `===` and after the
    // `search` lines, before the status that ends the thought (as Edax sends it).
    let factory: AgentFactory<Othello> =
        Box::new(|_| Ok(Box::new(Counting) as Box<dyn Agent<Othello>>));
    let got = nboard("nboard 2\ngo\nhint 2\n", factory, 1);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines[1], "status yomi is thinking", "{got}");
    assert!(lines[2].starts_with("=== D3/10.00/"), "{got}");
    let (head, secs) = lines[3].rsplit_once(' ').unwrap();
    assert_eq!(head, "nodestats 1000", "{got}");
    assert!(secs.parse::<f64>().unwrap() >= 0.0, "{got}");
    assert_eq!(lines[4], "status yomi is waiting", "{got}");
    assert_eq!(lines[6], "search D3 10.00 0 2", "{got}");
    assert_eq!(lines[7], "search C4 9.00 0 2", "{got}");
    assert!(lines[8].starts_with("nodestats 1000 "), "{got}");
    assert_eq!(lines[9], "status yomi is waiting", "{got}");
    assert_eq!(lines.len(), 10, "{got}");
    // An agent that counts no nodes sends none (the transcripts above).
    assert!(!nboard("nboard 2\ngo\n", ranked(), 1).contains("nodestats"));
}

/// Plays the first legal move and keeps every clock it is given.
#[derive(Debug, Default)]
struct Clocked {
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<Clock>>>>,
}

impl<G: Game> Agent<G> for Clocked {
    fn spec(&self) -> String {
        "clocked".to_string()
    }

    fn explain(&mut self, pos: &G, _: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let scored = pos
            .legal_moves()
            .iter()
            .map(|&m| MoveScore::new(m, 0.0))
            .collect();
        Ok(Explanation::from_scores("clocked".into(), scored, |b| b[0]))
    }

    fn set_clock(&mut self, clock: Option<&Clock>) {
        self.seen.lock().unwrap().push(clock.copied());
    }
}

type Seen = std::sync::Arc<std::sync::Mutex<Vec<Option<Clock>>>>;

/// A factory of [`Clocked`] agents that all keep their clocks in `seen`.
fn clocked(seen: &Seen) -> AgentFactory<Othello> {
    let handle = seen.clone();
    Box::new(move |_| {
        Ok(Box::new(Clocked {
            seen: handle.clone(),
        }) as Box<dyn Agent<Othello>>)
    })
}

#[test]
fn the_clients_clock_reaches_the_agent() {
    // NBoard: one minute for black, 50 s of it used by F5.
    let seen = Seen::default();
    let factory = clocked(&seen);
    let input =
        format!("nboard 2\nset depth 1\nset game (;TI[01:00/00:02]{START}B[F5//50]W[D6];)\ngo\n");
    nboard(&input, factory, 1);
    let got = seen.lock().unwrap().clone();
    assert_eq!(
        got,
        [Some(Clock {
            remaining: Duration::from_secs(10),
            increment: Duration::from_secs(2),
            moves_to_go: None,
        })]
    );
    // GTP: byo-yomi of 0.25 s a stone; without time settings, no clock.
    let seen = Seen::default();
    let factory = clocked(&seen);
    gtp::<Othello>("1 time_settings 0 0.25 1\n2 genmove b\n", factory, 1);
    let factory = clocked(&seen);
    gtp::<Othello>("genmove b\n", factory, 1);
    let got = seen.lock().unwrap().clone();
    assert_eq!(
        got,
        [
            Some(Clock {
                remaining: Duration::from_millis(250),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            }),
            None
        ]
    );
}
