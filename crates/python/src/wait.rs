//! Long computations from Python: run without the GIL, and stop on Ctrl-C.
//!
//! Python handles a signal (Ctrl-C raises `KeyboardInterrupt`) only when the main thread runs
//! Python code. [`run_interruptible`] runs the work on a scoped thread; the calling thread
//! waits for it with the GIL released, taking the GIL back every [`POLL`] to let Python run
//! its signal handlers. When a handler raises, the computation's [`StopFlag`] is set (the one
//! stop mechanism of `yomi-core`), the work returns promptly, and the exception propagates.

use std::panic;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::prelude::*;
use yomi_core::StopFlag;

/// How often the waiting thread looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` with the GIL released; a Python signal handler that raises (Ctrl-C) sets
/// `flag`, and once `work` has returned its exception is raised. A panic in `work` is
/// resumed on the calling thread (PyO3 turns it into `PanicException`).
pub(crate) fn run_interruptible<T: Send>(
    py: Python<'_>,
    flag: &StopFlag,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let handle = scope.spawn(move || {
            let out = work();
            // The receiver only goes away after the join below.
            let _ = done_tx.send(());
            out
        });
        let mut raised: Option<PyErr> = None;
        let mut rx = done_rx;
        loop {
            let (finished, back) = py.detach(move || {
                let finished =
                    !matches!(rx.recv_timeout(POLL), Err(mpsc::RecvTimeoutError::Timeout));
                (finished, rx)
            });
            rx = back;
            if finished {
                break;
            }
            if raised.is_none() {
                if let Err(e) = py.check_signals() {
                    flag.stop();
                    raised = Some(e);
                }
            }
        }
        let out = py
            .detach(|| handle.join())
            .unwrap_or_else(|payload| panic::resume_unwind(payload));
        match raised {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}
