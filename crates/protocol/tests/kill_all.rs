//! `kill_all_engines` (what the CLI calls before a hard exit) ends an engine in the middle of
//! a move. A test binary of its own: it kills every engine of the process.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use yomi_core::{Agent, AgentError, Forfeit, Rng};
use yomi_othello::Othello;
use yomi_protocol::{kill_all_engines, EngineSpec, ExternalEngine, Protocol};

#[test]
fn kill_all_engines_ends_a_thinking_engine() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/engines/gtp.sh");
    let spec = EngineSpec {
        command_line: format!("bash {} hang", script.display()),
        command: vec!["bash".into(), script.display().to_string(), "hang".into()],
        protocol: Protocol::Gtp,
        time: Duration::from_secs(60),
        depth: None,
        name: None,
    };
    let mut engine = ExternalEngine::<Othello>::new(spec).unwrap();
    let clock = Instant::now();
    let thinking = std::thread::spawn(move || {
        let result = engine.choose(&Othello::new(), &mut Rng::seed_from_u64(1));
        (result, engine.last_pid())
    });
    std::thread::sleep(Duration::from_millis(500));
    kill_all_engines();
    let (result, pid) = thinking.join().unwrap();
    assert!(
        matches!(
            result,
            Err(AgentError::Forfeit {
                reason: Forfeit::Crash,
                ..
            })
        ),
        "{result:?}"
    );
    assert!(clock.elapsed() < Duration::from_secs(10));
    let pid = pid.unwrap();
    #[cfg(target_os = "linux")]
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
    let _ = pid;
}
