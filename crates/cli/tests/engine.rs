//! yomi against `yomi engine` over real pipes, in both protocols: full games whose moves and
//! results are those of the same agent in process with the same seed; every game recorded in
//! GGF and read back; `yomi match` with external engines, forfeits included; `yomi show
//! --ggf`.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{fails, ok, stderr, stdout, yomi};
use yomi_agents::{zoo_with_engines, FirstAgent, Zoo};
use yomi_arena::play_game;
use yomi_core::{Agent, Game, GameResult, Rng};
use yomi_nim::Nim;
use yomi_othello::{ggf, Othello};
use yomi_protocol::{split_command, EngineGame, EngineSpec, ExternalEngine, Protocol};
use yomi_tictactoe::TicTacToe;

const YOMI: &str = env!("CARGO_BIN_EXE_yomi");

/// The command line of `yomi engine` playing `agent` as game `index` of a session seeded
/// `seed`.
fn engine_command(protocol: Protocol, game: &str, agent: &str, seed: u64, index: u64) -> String {
    format!(
        "'{YOMI}' engine --protocol {protocol} --game {game} --agent '{agent}' --seed {seed} \
         --first-game {index}"
    )
}

fn external<G: EngineGame>(protocol: Protocol, command_line: String) -> ExternalEngine<G> {
    ExternalEngine::new(EngineSpec {
        command: split_command(&command_line).unwrap(),
        command_line,
        protocol,
        time: Duration::from_secs(20),
        depth: None,
        name: None,
    })
    .unwrap()
}

/// Plays one game as the harness does (game `index`: A first in even games; one generator
/// for both agents, in move order) and returns its moves and A's result.
fn play<G: Game>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    seed: u64,
    index: u64,
) -> (Vec<G::Move>, GameResult) {
    let mut rng = Rng::for_stream(seed, index);
    let start = G::default();
    let a_side = if index.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().other()
    };
    let mut pos = start;
    let mut moves = Vec::new();
    while let Some(()) = pos.outcome().is_none().then_some(()) {
        let agent: &mut dyn Agent<G> = if pos.side_to_move() == a_side { a } else { b };
        let mv = agent.choose(&pos, &mut rng).expect("a move");
        moves.push(mv);
        pos = pos.play(mv).expect("a legal move");
    }
    (moves, pos.outcome().unwrap().result_for(a_side))
}

/// For each game index: the agent in process and the same agent in `yomi engine` over pipes,
/// both against `first` (which draws no random numbers, so the agent's draws are the game's
/// stream), play the same moves to the same result, which is also the harness's result.
fn same_games<G: EngineGame + Zoo>(protocol: Protocol, agent: &str, seed: u64, games: u64) {
    let zoo = zoo_with_engines::<G>();
    for index in 0..games {
        let mut inproc = zoo.build(agent).unwrap();
        let (moves, result) = play(&mut *inproc, &mut FirstAgent, seed, index);
        let (harness, _) = play_game(
            &G::default(),
            &|| zoo.build(agent).unwrap(),
            &|| FirstAgent,
            seed,
            index,
        )
        .unwrap();
        assert_eq!(harness, result, "{} game {index}", G::NAME);
        let cmd = engine_command(protocol, G::NAME, agent, seed, index);
        let mut ext = external::<G>(protocol, cmd);
        let (ext_moves, ext_result) = play(&mut ext, &mut FirstAgent, seed, index);
        assert_eq!(ext_moves, moves, "{} {protocol} game {index}", G::NAME);
        assert_eq!(ext_result, result);
        let pid = ext.last_pid().unwrap();
        drop(ext);
        #[cfg(target_os = "linux")]
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
        let _ = pid;
    }
}

#[test]
fn othello_over_nboard_plays_the_in_process_games() {
    same_games::<Othello>(Protocol::Nboard, "pmc:pnum=20", 7, 4);
}

#[test]
fn othello_levels_over_nboard_play_the_in_process_games() {
    same_games::<Othello>(Protocol::Nboard, "othello:level=2", 11, 2);
}

#[test]
fn othello_over_gtp_plays_the_in_process_games() {
    same_games::<Othello>(Protocol::Gtp, "pmc2:pnum=20", 8, 2);
}

#[test]
fn tictactoe_and_nim_over_gtp_play_the_in_process_games() {
    same_games::<TicTacToe>(Protocol::Gtp, "pmc:pnum=30", 9, 4);
    same_games::<Nim>(Protocol::Gtp, "random", 10, 4);
}

#[test]
fn every_game_of_a_match_round_trips_through_ggf() {
    // Both players external (NBoard and GTP): a whole game between two engines, recorded with
    // the players, the result and the time, read back identical.
    let mut records = Vec::new();
    for index in 0..4 {
        let mut a = external::<Othello>(
            Protocol::Nboard,
            engine_command(Protocol::Nboard, "othello", "pmc:pnum=10", 3, index),
        );
        let mut b = external::<Othello>(
            Protocol::Gtp,
            engine_command(Protocol::Gtp, "othello", "greedy", 3, index),
        );
        let (moves, result) = play(&mut a, &mut b, 3, index);
        let mut g = ggf::Record::from_line(Othello::new(), &moves).unwrap();
        let (black, white) = if index.is_multiple_of(2) {
            (&a, &b)
        } else {
            (&b, &a)
        };
        g.black = Some(black.spec());
        g.white = Some(white.spec());
        g.time = Some("05:00".into());
        g.place = Some("yomi test".into());
        let margin = g.result.unwrap().black_margin;
        let a_black = index.is_multiple_of(2);
        let a_won = (margin > 0.0) == a_black && margin != 0.0;
        assert_eq!(result == GameResult::Win, a_won, "game {index}");
        assert_eq!(g.to_string().parse::<ggf::Record>().unwrap(), g);
        records.push(g);
    }
    let file = ggf::write_file(&records);
    assert_eq!(ggf::parse_file(&file).unwrap(), records);
}

#[test]
fn yomi_engine_speaks_over_real_pipes() {
    // The binary itself, driven line by line as a GUI does.
    let mut child = Command::new(YOMI)
        .args(["engine", "--protocol", "nboard", "--agent", "first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut ask = |line: &str, replies: usize| -> Vec<String> {
        writeln!(input, "{line}").unwrap();
        input.flush().unwrap();
        (0..replies)
            .map(|_| {
                let mut l = String::new();
                output.read_line(&mut l).unwrap();
                l.trim_end().to_string()
            })
            .collect()
    };
    assert_eq!(ask("nboard 2", 1), ["set myname yomi"]);
    assert_eq!(ask("set depth 5", 1), ["set myname yomi"]);
    assert_eq!(
        ask("set game (;GM[Othello]B[f5];)", 0),
        Vec::<String>::new()
    );
    assert_eq!(ask("ping 3", 1), ["pong 3"]);
    let go = ask("go", 3);
    assert_eq!(go[0], "status yomi is thinking");
    // White's moves after f5: f4, d6, f6 in the game's order; `first` plays the first.
    assert!(go[1].starts_with("=== F4/0.00/"), "{go:?}");
    assert_eq!(go[2], "status yomi is waiting");
    drop(input);
    assert!(child.wait().unwrap().success());

    let out = Command::new(YOMI)
        .args([
            "engine",
            "--protocol",
            "gtp",
            "--game",
            "nim",
            "--agent",
            "first",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin
                .take()
                .unwrap()
                .write_all(b"1 boardsize 7\n2 clear_board\n3 genmove b\n4 name\nquit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "=1\n\n=2\n\n=3 1\n\n=4 yomi\n\n=\n\n"
    );
}

#[test]
fn engine_command_refuses_bad_settings() {
    fails(
        &["engine", "--protocol", "nboard", "--game", "nim"],
        "NBoard speaks only Othello",
    );
    fails(
        &["engine", "--protocol", "gtp", "--agent", "frobnicate"],
        "unknown agent",
    );
    fails(&["engine", "--protocol", "uci"], "invalid value");
    fails(
        &[
            "engine",
            "--protocol",
            "nboard",
            "--agent",
            "othello:level=0",
        ],
        "expected none or a whole number from 1 to 30",
    );
}

fn script(name: &str) -> String {
    format!(
        "{}/../protocol/tests/engines/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn total(json: &str) -> (u64, u64, u64) {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let t = &v["total"];
    (
        t["win"].as_u64().unwrap(),
        t["lose"].as_u64().unwrap(),
        t["draw"].as_u64().unwrap(),
    )
}

#[test]
fn yomi_match_plays_external_engines_and_forfeits() {
    // An external engine in `yomi match`, two games in flight; its command holds a nested
    // agent spec, unquoted (`blunder` with p=0 plays as the exact `alphabeta`).
    let spec = format!(
        "engine:cmd=('{YOMI}' engine --protocol gtp --game tictactoe \
         --agent blunder:p=0,agent=(alphabeta)),protocol=gtp,time=5"
    );
    let out = ok(&[
        "match",
        &spec,
        "random",
        "--game",
        "tictactoe",
        "--rounds",
        "3",
        "--threads",
        "2",
        "--json",
    ]);
    let (w, l, d) = total(&out);
    assert_eq!(w + l + d, 6);
    assert_eq!(l, 0, "perfect play never loses: {out}");

    // An engine that crashes at every move loses every game by forfeit; the match goes on
    // with a fresh process each game.
    let crash = format!(
        "engine:cmd=(bash {} crash),protocol=gtp,time=1",
        script("gtp.sh")
    );
    let out = ok(&[
        "match", &crash, "random", "--game", "othello", "--rounds", "2", "--json",
    ]);
    assert_eq!(total(&out), (0, 4, 0));

    // A bad engine spec fails before any game.
    let out = yomi(&[
        "match",
        "engine:cmd=(x | y),protocol=gtp",
        "random",
        "--rounds",
        "1",
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("would need a shell"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn explain_uses_the_engines_hints() {
    let spec = format!(
        "engine:cmd=({}),protocol=nboard,time=5",
        engine_command(Protocol::Nboard, "othello", "greedy", 1, 0)
    );
    let out = ok(&["explain", &spec, "--game", "othello"]);
    // greedy scores each move by the disc difference after it: 4 - 1 = 3 for all four,
    // listed in the game's order.
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("[depth 1]")).collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (line, mv) in lines.iter().zip(["d3", "c4", "f5", "e6"]) {
        assert!(line.trim_start().starts_with(mv), "{out}");
        assert!(line.contains("score          3"), "{out}");
    }
    assert!(out.contains("best   d3 c4 f5 e6\nchosen "), "{out}");
}

#[test]
fn show_replays_a_ggf_record() {
    let dir = std::env::temp_dir().join(format!("yomi-ggf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.ggf");
    let text = "(;GM[Othello]PC[NBoard]PB[Edax]PW[NTest]RE[?]TI[15:00]TY[8]\
                BO[8 ---------------------------O*------*O--------------------------- *]\
                B[F5]W[F6//1.5]B[D3/0.5];)\n\
                (;GM[Othello]PB[x]PW[y]RE[+64.000:r]B[f5];)\n";
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let out = ok(&["show", "--game", "othello", "--ggf", p]);
    assert!(out.starts_with("game 1 of 2\nblack (X) Edax   white (O) NTest\nplace NBoard\ntime 15:00\nresult ?\nmoves (3) f5 f6 d3/0.5\n"), "{out}");
    assert!(
        out.contains("position -------------------X-------XX------XOX-------O------------------ O"),
        "{out}"
    );
    let out = ok(&["show", "--game", "othello", "--ggf", p, "--index", "2"]);
    assert!(out.contains("result +64.000:r (black's margin)"), "{out}");
    fails(
        &["show", "--game", "othello", "--ggf", p, "--index", "3"],
        "holds 2 games: no game 3",
    );
    fails(&["show", "--game", "nim", "--ggf", p], "Othello games");
    std::fs::write(&path, "(;GM[Othello]B[a1];)").unwrap();
    fails(
        &["show", "--game", "othello", "--ggf", p],
        "GGF error at byte 13: move 1 (a1) is illegal",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn forfeits_are_recorded_in_tables_json_records_and_ggf_and_resume() {
    let dir = std::env::temp_dir().join(format!("yomi-forfeit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A GTP engine that plays d3 in the first position and then crashes (its `d3` is illegal
    // later on): the illegal-move and crash forfeits depend only on the game's position.
    let illegal = format!(
        "engine:cmd=(bash {} illegal),protocol=gtp,time=2,name=badmove",
        script("gtp.sh")
    );
    let base = [
        "match", &illegal, "greedy", "--game", "othello", "--rounds", "3", "--seed", "5",
    ];
    let table = ok(&base);
    assert!(
        table.starts_with("badmove VS greedy:time=0   (othello"),
        "{table}"
    );
    assert!(
        table.contains("forfeits by badmove: 6 (illegal move a1 6); games 0, 1, 2, 3, 4, 5\n"),
        "{table}"
    );
    let json = ok(&[&base[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let list = v["forfeits"].as_array().unwrap();
    assert_eq!(list.len(), 6);
    assert_eq!(list[3]["game"], 3);
    assert_eq!(list[3]["agent"], "a");
    assert_eq!(list[3]["reason"], "illegal move a1");

    // JSON-lines record: every game carries its forfeit, with the detail.
    let rec = dir.join("games.jsonl");
    ok(&[&base[..], &["--record", rec.to_str().unwrap()]].concat());
    let text = std::fs::read_to_string(&rec).unwrap();
    let games: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_eq!(g["forfeit"]["reason"], "illegal move a1", "{g}");
        assert_eq!(g["forfeit"]["agent"], "a");
        assert!(g["forfeit"]["detail"].as_str().unwrap().contains("a1"));
    }

    // GGF record: the players' names, the forfeit as a resignation by 64 discs with its
    // reason; the record resumes to the same table after a cut.
    let ggf = dir.join("games.ggf");
    let p = ggf.to_str().unwrap();
    assert_eq!(ok(&[&base[..], &["--record", p]].concat()), table);
    let text = std::fs::read_to_string(&ggf).unwrap();
    let records = ggf::parse_file(&text).unwrap();
    assert_eq!(records.len(), 6);
    for g in &records {
        let a_black = g.black.as_deref() == Some("badmove");
        assert!(a_black || g.white.as_deref() == Some("badmove"), "{g}");
        let r = g.result.unwrap();
        assert_eq!(r.black_margin, if a_black { -64.0 } else { 64.0 }, "{g}");
        assert_eq!(r.to_string().chars().last(), Some('r'));
        assert!(g.to_string().contains("C[badmove ("), "{g}");
        assert!(g.to_string().contains("forfeits: illegal move a1]"), "{g}");
    }
    let lines: Vec<&str> = text.lines().collect();
    // Cut after two whole games and half of the third.
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40]);
    std::fs::write(&ggf, cut).unwrap();
    assert_eq!(ok(&[&base[..], &["--resume", p]].concat()), table);
    assert_eq!(
        ggf::parse_file(&std::fs::read_to_string(&ggf).unwrap())
            .unwrap()
            .len(),
        6
    );
    // Another run's GGF record is refused; GGF is for Othello only.
    fails(
        &[&base[..5], &["--rounds", "3", "--seed", "6", "--resume", p]].concat(),
        "different run",
    );
    fails(
        &[
            "match", "random", "random", "--game", "nim", "--rounds", "1", "--record", p,
        ],
        "GGF records hold Othello games",
    );
}

#[test]
fn a_ggf_record_of_a_match_replays_every_game() {
    // Games that end on the board: the record's result is the final disc count, from the
    // names' colours, and A's result in the table agrees with it.
    let dir = std::env::temp_dir().join(format!("yomi-ggfrec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ggf = dir.join("m.ggf");
    let out = ok(&[
        "match",
        "greedy",
        "random",
        "--game",
        "othello",
        "--rounds",
        "4",
        "--json",
        "--record",
        ggf.to_str().unwrap(),
    ]);
    let (w, l, d) = total(&out);
    let records = ggf::parse_file(&std::fs::read_to_string(&ggf).unwrap()).unwrap();
    assert_eq!(records.len(), 8);
    let (mut gw, mut gl, mut gd) = (0, 0, 0);
    for g in &records {
        assert!(g.position().is_over());
        let m = g.result.unwrap().black_margin;
        let a = if g.black.as_deref().unwrap().starts_with("greedy") {
            m
        } else {
            -m
        };
        match a.partial_cmp(&0.0).unwrap() {
            std::cmp::Ordering::Greater => gw += 1,
            std::cmp::Ordering::Less => gl += 1,
            std::cmp::Ordering::Equal => gd += 1,
        }
        assert_eq!(g.to_string().parse::<ggf::Record>().unwrap(), *g);
    }
    assert_eq!((gw, gl, gd), (w, l, d));
}

#[test]
fn league_rows_show_engine_names_and_forfeits_also_merged_from_shards() {
    let dir = std::env::temp_dir().join(format!("yomi-leaguef-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = format!(
        "engine:cmd=(bash {} offboard),protocol=gtp,time=1,name=offb",
        script("gtp.sh")
    );
    let agents = format!("{engine},greedy");
    let base = [
        "league",
        "--game",
        "othello",
        "--agents",
        &agents,
        "--baseline",
        "random",
        "--rounds",
        "2",
    ];
    let table = ok(&base);
    assert!(table.contains("\noffb      0.0 100.0"), "{table}");
    assert!(
        table.ends_with("forfeits by offb: 4 (illegal move e9 4); games 0, 1, 2, 3\n"),
        "{table}"
    );
    let json = ok(&[&base[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rows"][0]["forfeits"].as_array().unwrap().len(), 4);
    assert!(v["rows"][1].get("forfeits").is_none());
    // Shards carry the forfeits; merged, the table is the whole run's, byte for byte.
    let mut files = Vec::new();
    for k in 0..3 {
        let out = ok(&[&base[..], &["--shard", &format!("{k}/3")]].concat());
        let f = dir.join(format!("s{k}.json"));
        std::fs::write(&f, out).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    assert_eq!(ok(&["merge", &files[2], &files[0], &files[1]]), table);
    assert_eq!(
        ok(&["merge", &files[0], &files[1], &files[2], "--json"]),
        json
    );
}

#[test]
fn yomi_match_with_yomi_engine_in_both_protocols_gives_the_in_process_table() {
    // `first` draws no random numbers, so the opponent's draws are the game's stream in both
    // runs: the external engine's match must give the in-process match's counts, game by game.
    let inproc = ok(&[
        "match", "first", "random", "--game", "othello", "--rounds", "3", "--seed", "4", "--json",
    ]);
    let want: serde_json::Value = serde_json::from_str(&inproc).unwrap();
    for protocol in ["nboard", "gtp"] {
        let spec = format!(
            "engine:cmd=('{YOMI}' engine --protocol {protocol} --game othello --agent first),\
             protocol={protocol},time=5,name=yomi-{protocol}"
        );
        let out = ok(&[
            "match",
            &spec,
            "random",
            "--game",
            "othello",
            "--rounds",
            "3",
            "--seed",
            "4",
            "--threads",
            "2",
            "--json",
        ]);
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        for key in ["a_first", "a_second", "pairs", "elo", "complete"] {
            assert_eq!(got[key], want[key], "{protocol} {key}: {out}");
        }
        assert!(got.get("forfeits").is_none(), "{out}");
        let table = ok(&[
            "match", &spec, "random", "--game", "othello", "--rounds", "3", "--seed", "4",
        ]);
        assert!(
            table.starts_with(&format!("yomi-{protocol} VS random   (othello, 3 rounds")),
            "{table}"
        );
    }
}

#[test]
fn engines_that_print_banners_and_search_tables_play_whole_games() {
    // Real engines print banners, search tables and summaries on standard output; the client
    // ignores what its protocol does not know, as GUIs do. The engine here is `yomi engine`
    // wrapped in a script that prints such lines before each of its own: the match is the
    // in-process one, game for game, with no forfeit.
    let inproc = ok(&[
        "match", "first", "random", "--game", "othello", "--rounds", "2", "--seed", "4", "--json",
    ]);
    let want: serde_json::Value = serde_json::from_str(&inproc).unwrap();
    for protocol in ["nboard", "gtp"] {
        let spec = format!(
            "engine:cmd=(bash {} '{YOMI}' engine --protocol {protocol} --game othello \
             --agent first),protocol={protocol},time=5",
            script("chatty.sh")
        );
        let args = [
            "match", &spec, "random", "--game", "othello", "--rounds", "2", "--seed", "4", "--json",
        ];
        let out = ok(&args);
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        for key in ["a_first", "a_second", "complete"] {
            assert_eq!(got[key], want[key], "{protocol} {key}: {out}");
        }
        assert!(got.get("forfeits").is_none(), "{protocol}: {out}");
        // With --verbose the ignored lines are logged on standard error.
        let out = yomi(&[&args[..], &["--verbose"]].concat());
        assert!(out.status.success());
        let err = stderr(&out);
        assert!(
            err.contains("bash: ignored \"loading the opening book... done\""),
            "{protocol}: {err}"
        );
    }
}

#[test]
fn matches_at_a_clock_forfeit_on_time_and_say_so() {
    // An engine that never answers, at a clock of 0.3 s: it loses both games on time (its
    // per-move limit is the time left on its clock), and the match goes on.
    let hang = format!(
        "engine:cmd=(bash {} hang),protocol=nboard,time=5",
        script("nboard.sh")
    );
    let out = yomi(&[
        "match", &hang, "random", "--game", "othello", "--rounds", "1", "--tc", "0.3+0", "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json = stdout(&out);
    assert_eq!(total(&json), (0, 2, 0), "{json}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let forfeits = v["forfeits"].as_array().unwrap();
    assert_eq!(forfeits.len(), 2);
    assert!(forfeits.iter().all(|f| f["reason"] == "timeout"), "{json}");
    assert!(
        stderr(&out).contains("clock: engine:cmd=") && stderr(&out).contains("0.3+0, random 0.3+0"),
        "{}",
        stderr(&out)
    );
    // `tc=none` takes the clock off one side: a fast agent at a clock plays whole games.
    let out = ok(&[
        "match",
        "first",
        "random:tc=none",
        "--game",
        "othello",
        "--rounds",
        "2",
        "--tc",
        "30+1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v.get("forfeits").is_none(), "{out}");
    // A record of a run at a clock names it: resuming at another clock is refused.
    let dir = std::env::temp_dir().join(format!("yomi-tc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("clock.jsonl");
    let record = record.to_str().unwrap();
    ok(&[
        "match", "first", "random", "--rounds", "2", "--tc", "30+1", "--record", record,
    ]);
    let header = std::fs::read_to_string(record).unwrap();
    assert!(
        header
            .lines()
            .next()
            .unwrap()
            .contains("\"tc\":[\"30+1\",\"30+1\"]"),
        "{header}"
    );
    fails(
        &[
            "match", "first", "random", "--rounds", "2", "--tc", "20+1", "--resume", record,
        ],
        "different run",
    );
    // Bad time controls are one clear error.
    for bad in ["10+", "-5+1", "abc"] {
        fails(&["match", "first", "random", "--tc", bad], "BASE+INC");
    }
    fails(&["match", "first:tc=1+", "random"], "BASE+INC");
}
