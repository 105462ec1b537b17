//! A child process spoken to line by line: started in a process group of its own, read on a
//! thread with deadlines, and killed with its whole group and reaped when dropped.

use std::collections::VecDeque;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use yomi_core::{AgentError, Forfeit};

/// The longest line an engine may send.
const MAX_LINE: u64 = 64 * 1024;

/// How many lines of the engine's standard error are kept for reports.
const STDERR_LINES: usize = 8;

/// How many of the engine's ignored output lines are kept for reports.
const IGNORED_LINES: usize = 4;

/// Whether ignored output lines are written to standard error ([`log_ignored_lines`]).
static LOG_IGNORED: AtomicBool = AtomicBool::new(false);

/// Writes every line an external engine prints that its protocol does not know (banners,
/// search tables, summaries: the client ignores them, as GUIs do) to standard error, with
/// the engine's program name, from now on in this process (`yomi match --verbose`). Off by
/// default; the last few such lines go into the report of a game the engine forfeits either
/// way.
pub fn log_ignored_lines(on: bool) {
    LOG_IGNORED.store(on, Ordering::Relaxed);
}

/// The process groups of the engines alive now, for [`kill_all_engines`].
static LIVE: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// Kills every external engine this process started and has not ended yet, with its whole
/// process group. For a program about to exit without running destructors (a second Ctrl-C):
/// normally each engine is killed and reaped when its agent is dropped.
pub fn kill_all_engines() {
    let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
    for pid in live {
        kill_group(pid);
    }
}

#[cfg(unix)]
fn kill_group(pid: u32) {
    use nix::sys::signal::{killpg, Signal};
    use nix::unistd::Pid;
    if let Ok(pid) = i32::try_from(pid) {
        let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_pid: u32) {}

/// What the reading thread reports.
enum Incoming {
    Line(String),
    TooLong,
    Closed,
}

/// Something went wrong talking to the engine: what the agent reports as a forfeit.
#[derive(Debug)]
pub(crate) struct Fault {
    pub(crate) reason: Forfeit,
    pub(crate) detail: String,
}

impl Fault {
    pub(crate) fn new(reason: Forfeit, detail: impl Into<String>) -> Fault {
        Fault {
            reason,
            detail: detail.into(),
        }
    }

    pub(crate) fn protocol(detail: impl Into<String>) -> Fault {
        Fault::new(Forfeit::Protocol, detail)
    }
}

impl From<Fault> for AgentError {
    fn from(f: Fault) -> AgentError {
        AgentError::Forfeit {
            reason: f.reason,
            detail: f.detail,
        }
    }
}

/// A running engine.
pub(crate) struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Incoming>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// Set when the engine's standard error is closed and read to the end.
    stderr_done: Arc<AtomicBool>,
    pid: u32,
    program: String,
    /// What was sent and received last, for reports.
    pub(crate) last_sent: String,
    /// The last lines of its output that the protocol did not know, for reports.
    ignored: VecDeque<String>,
}

impl std::fmt::Debug for Process {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Process")
            .field("pid", &self.pid)
            .field("program", &self.program)
            .finish_non_exhaustive()
    }
}

impl Process {
    /// Starts `command` (program and arguments, no shell) with piped standard streams.
    pub(crate) fn start(command: &[String]) -> io::Result<Process> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // Its own group: killed as a whole, and a terminal's Ctrl-C goes to us only.
            cmd.process_group(0);
        }
        // Register before anyone can see the child, so a hard exit finds it.
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        let mut child = cmd.spawn()?;
        let pid = child.id();
        live.push(pid);
        drop(live);
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let event = if buf.last() != Some(&b'\n') && buf.len() as u64 >= MAX_LINE {
                            Incoming::TooLong
                        } else {
                            let line = String::from_utf8_lossy(&buf);
                            Incoming::Line(line.trim_end_matches(['\n', '\r']).to_string())
                        };
                        let too_long = matches!(event, Incoming::TooLong);
                        if tx.send(event).is_err() || too_long {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Incoming::Closed);
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_done = Arc::new(AtomicBool::new(false));
        let tail = Arc::clone(&stderr);
        let done = Arc::clone(&stderr_done);
        thread::spawn(move || {
            let reader = BufReader::new(stderr_pipe.take(16 << 20));
            for line in reader.lines() {
                let Ok(line) = line else { break };
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_LINES {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            }
            done.store(true, Ordering::Release);
        });
        Ok(Process {
            child,
            stdin,
            lines: rx,
            stderr,
            stderr_done,
            pid,
            program: program.clone(),
            last_sent: String::new(),
            ignored: VecDeque::new(),
        })
    }

    /// The process id (and process group id).
    pub(crate) fn pid(&self) -> u32 {
        self.pid
    }

    /// What the engine last wrote on its standard error, and how it ended if it did.
    fn last_words(&mut self) -> String {
        let mut out = String::new();
        // Give a crashing process a moment to be reapable.
        let status = (0..20).find_map(|_| match self.child.try_wait() {
            Ok(Some(s)) => Some(s.to_string()),
            Ok(None) => {
                thread::sleep(Duration::from_millis(5));
                None
            }
            Err(_) => None,
        });
        if let Some(status) = status {
            // Let the reader of its standard error catch up with its last words.
            for _ in 0..40 {
                if self.stderr_done.load(Ordering::Acquire) {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
            out.push_str(&format!("{} ended ({status})", self.program));
        } else {
            out.push_str(&format!("{} closed its output", self.program));
        }
        let tail = self.stderr.lock().map(|t| t.clone()).unwrap_or_default();
        if !tail.is_empty() {
            out.push_str("; its last error lines: ");
            out.push_str(&tail.into_iter().collect::<Vec<_>>().join(" | "));
        }
        out
    }

    /// Notes a line of the engine's output that the protocol does not know and skips it:
    /// kept among the last few for reports, and logged when [`log_ignored_lines`] is on.
    pub(crate) fn ignore(&mut self, line: &str) {
        if LOG_IGNORED.load(Ordering::Relaxed) {
            eprintln!("{}: ignored {line:?}", self.program);
        }
        if self.ignored.len() == IGNORED_LINES {
            self.ignored.pop_front();
        }
        self.ignored.push_back(line.to_string());
    }

    /// The last lines the protocol did not know, for a report: `"; its last ignored lines:
    /// ..."`, or nothing.
    pub(crate) fn ignored_tail(&self) -> String {
        if self.ignored.is_empty() {
            return String::new();
        }
        let lines: Vec<String> = self.ignored.iter().map(|l| format!("{l:?}")).collect();
        format!("; its last ignored lines: {}", lines.join(" | "))
    }

    /// Sends one line.
    pub(crate) fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.last_sent = line.to_string();
        let result = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}").and_then(|()| stdin.flush()),
            None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
        };
        result.map_err(|e| {
            let words = self.last_words();
            Fault::new(
                Forfeit::Crash,
                format!("cannot send {line:?}: {e}; {words}"),
            )
        })
    }

    /// The next line, waiting until `deadline` at the latest; `stop` is asked every few
    /// milliseconds and called once when it turns true (to tell the engine to stop).
    pub(crate) fn recv(
        &mut self,
        deadline: Instant,
        mut stop: impl FnMut(&mut Process) -> Result<(), Fault>,
        stopping: &dyn Fn() -> bool,
    ) -> Result<String, Fault> {
        let mut told = false;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::new(
                    Forfeit::Timeout,
                    format!("no reply to {:?} in time", self.last_sent),
                ));
            }
            let wait = (deadline - now).min(Duration::from_millis(20));
            match self.lines.recv_timeout(wait) {
                Ok(Incoming::Line(line)) => return Ok(line),
                Ok(Incoming::TooLong) => {
                    return Err(Fault::protocol(format!(
                        "a line longer than {MAX_LINE} bytes"
                    )))
                }
                Ok(Incoming::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    let words = self.last_words();
                    return Err(Fault::new(Forfeit::Crash, words));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if !told && stopping() {
                        told = true;
                        stop(self)?;
                    }
                }
            }
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // Close its input first (a polite engine exits on end of input), then kill the whole
        // group while the leader is not yet reaped (so its id cannot have been reused), and
        // reap the leader.
        drop(self.stdin.take());
        kill_group(self.pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|&p| p != self.pid);
        }
    }
}
