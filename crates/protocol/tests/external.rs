//! External engines that misbehave (small scripts in `tests/engines/`): each forfeits with the
//! right reason, the next call starts a fresh process, and no process is left behind.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use yomi_core::{Agent, AgentError, Forfeit, Rng};
use yomi_othello::Othello;
use yomi_protocol::{split_command, EngineSpec, ExternalEngine, Protocol};

fn script(protocol: Protocol) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/engines")
        .join(format!("{protocol}.sh"))
}

fn engine(protocol: Protocol, mode: &str, time: Duration) -> ExternalEngine<Othello> {
    let command_line = format!("bash '{}' {mode}", script(protocol).display());
    let spec = EngineSpec {
        command: split_command(&command_line).unwrap(),
        command_line,
        protocol,
        time,
        depth: None,
        name: None,
    };
    ExternalEngine::new(spec).unwrap()
}

/// Whether process `pgid` exists (even as a zombie: it must have been reaped) or any
/// other live member of its process group (a killed grandchild is a zombie until the system
/// reaps it: that one is dead).
#[cfg(target_os = "linux")]
fn alive_now(pgid: u32) -> bool {
    if std::path::Path::new(&format!("/proc/{pgid}")).exists() {
        return true;
    }
    std::fs::read_dir("/proc").unwrap().flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // After the command name (in brackets, maybe with spaces): state, parent, group.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or("", |(_, r)| r)
            .split_whitespace()
            .collect();
        fields.get(2) == Some(&pgid.to_string().as_str()) && fields.first() != Some(&"Z")
    })
}

#[cfg(not(target_os = "linux"))]
fn alive_now(_: u32) -> bool {
    false
}

/// Whether the group is still there after a moment for the kill signal to land.
fn alive(pgid: u32) -> bool {
    let clock = Instant::now();
    while clock.elapsed() < Duration::from_secs(3) {
        if !alive_now(pgid) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn forfeit_of(result: Result<yomi_othello::Move, AgentError>) -> (Forfeit, String) {
    match result {
        Err(AgentError::Forfeit { reason, detail }) => (reason, detail),
        other => panic!("expected a forfeit, got {other:?}"),
    }
}

#[test]
fn misbehaving_engines_forfeit_and_leave_nothing_behind() {
    let cases = [
        ("crash", Forfeit::Crash),
        ("early", Forfeit::Crash),
        ("hang", Forfeit::Timeout),
        ("illegal", Forfeit::IllegalMove("a1".to_string())),
        ("offboard", Forfeit::IllegalMove("e9".to_string())),
        // A line the protocol does not know is ignored (real engines print banners and
        // search tables); the engine then says nothing more and loses on time, and the report
        // shows what it printed.
        ("garbage", Forfeit::Timeout),
    ];
    for protocol in [Protocol::Nboard, Protocol::Gtp] {
        for (mode, want) in &cases {
            // An NBoard engine is sent a game clock (its time for each of its 30 moves left)
            // and held to it, so a silent one is out of time after all of it: 1.5 s here.
            let time = match protocol {
                Protocol::Nboard => Duration::from_millis(50),
                Protocol::Gtp => Duration::from_millis(300),
            };
            let allowed = match protocol {
                Protocol::Nboard => time * 30,
                Protocol::Gtp => time,
            };
            let mut e = engine(protocol, mode, time);
            let mut rng = Rng::seed_from_u64(1);
            let clock = Instant::now();
            let (reason, detail) = forfeit_of(e.choose(&Othello::new(), &mut rng));
            let took = clock.elapsed();
            assert_eq!(&reason, want, "{protocol} {mode}: {detail}");
            if *mode == "hang" {
                assert!(
                    took >= allowed && took < allowed + Duration::from_secs(4),
                    "{protocol} {mode}: {took:?}"
                );
            }
            if *mode == "garbage" {
                assert!(
                    detail.contains("its last ignored lines: \"~~~ 42 garbage ~~~\""),
                    "{protocol}: {detail}"
                );
            }
            if *mode == "crash" {
                assert!(
                    detail.contains("exit status: 3")
                        && detail.contains("segmentation fault (simulated)"),
                    "{protocol}: {detail}"
                );
            }
            let first = e.last_pid().expect("an engine was started");
            assert!(e.pid().is_none(), "the faulty process is dropped at once");
            assert!(
                !alive(first),
                "{protocol} {mode}: process {first} left behind"
            );
            // The next call starts a fresh process, which forfeits the same way.
            let (again, _) = forfeit_of(e.choose(&Othello::new(), &mut rng));
            assert_eq!(&again, want);
            let second = e.last_pid().unwrap();
            assert_ne!(first, second);
            drop(e);
            assert!(
                !alive(second),
                "{protocol} {mode}: process {second} left behind"
            );
        }
    }
}

#[test]
fn gtp_time_commands_are_optional() {
    let mut e = engine(Protocol::Gtp, "notime", Duration::from_secs(2));
    let mv = e
        .choose(&Othello::new(), &mut Rng::seed_from_u64(1))
        .unwrap();
    assert_eq!(mv.to_string(), "d3");
}

#[test]
fn a_panic_elsewhere_leaves_no_engine_behind() {
    // An engine waiting for its next command when its owner's thread panics: unwinding drops
    // it, which kills and reaps it.
    let owner = std::thread::spawn(|| {
        let mut e = engine(Protocol::Gtp, "notime", Duration::from_secs(2));
        e.choose(&Othello::new(), &mut Rng::seed_from_u64(1))
            .unwrap();
        let pid = e.pid().expect("running between moves");
        std::panic::panic_any(pid);
    });
    let pid = *owner
        .join()
        .expect_err("the owner panicked")
        .downcast::<u32>()
        .unwrap();
    assert!(!alive(pid), "process {pid} left behind");
}

#[test]
fn a_missing_program_is_an_error_not_a_forfeit() {
    let spec = EngineSpec {
        command_line: "no-such-engine-here".into(),
        command: vec!["no-such-engine-here".into()],
        protocol: Protocol::Gtp,
        time: Duration::from_secs(1),
        depth: None,
        name: None,
    };
    let mut e = ExternalEngine::<Othello>::new(spec).unwrap();
    let err = e
        .choose(&Othello::new(), &mut Rng::seed_from_u64(1))
        .unwrap_err();
    assert!(
        matches!(&err, AgentError::Failed { reason, .. } if reason.contains("cannot start")),
        "{err:?}"
    );
}

#[test]
fn an_engine_is_held_to_the_clock_it_is_sent() {
    use yomi_core::Clock;
    // NBoard without a clock from the harness: the engine is sent a game clock of its time
    // per move for each move left (0.3 s x 30 = 9 s) and may spend it unevenly: a first move
    // of 1 s stands (it used to forfeit past 0.3 s plus the grace).
    let mut e = engine(Protocol::Nboard, "slowfirst", Duration::from_millis(300));
    let mut rng = Rng::seed_from_u64(1);
    let mv = e.choose(&Othello::new(), &mut rng).unwrap();
    assert_eq!(mv.to_string(), "f5");
    // At the harness's clock of 0.4 s, the same move is out of time.
    let mut e = engine(Protocol::Nboard, "slowfirst", Duration::from_millis(300));
    e.set_clock(Some(&Clock {
        remaining: Duration::from_millis(400),
        increment: Duration::ZERO,
        moves_to_go: None,
    }));
    let (reason, detail) = forfeit_of(e.choose(&Othello::new(), &mut rng));
    assert_eq!(reason, Forfeit::Timeout, "{detail}");
}
