//! The CLI's one Ctrl-C (and SIGTERM) handler: it sets a process-wide [`StopFlag`] that every
//! long command (solves, benches, matches, leagues) watches, so an interrupted command prints
//! what it finished instead of dying silently. A second Ctrl-C exits at once with status 130.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use yomi_core::StopFlag;

static FLAG: OnceLock<StopFlag> = OnceLock::new();
static PRESSES: AtomicU32 = AtomicU32::new(0);

/// The process-wide stop flag, with the handler installed on first use. If the handler cannot
/// be installed (another one is already there), the flag still works but only a program can
/// set it.
pub fn stop_flag() -> StopFlag {
    FLAG.get_or_init(|| {
        let flag = StopFlag::new();
        let handler_flag = flag.clone();
        let installed = ctrlc::set_handler(move || {
            if PRESSES.fetch_add(1, Ordering::SeqCst) > 0 {
                eprintln!("interrupted again: exiting at once");
                // No destructor runs on this exit: end the external engines here.
                yomi_protocol::kill_all_engines();
                std::process::exit(130);
            }
            eprintln!("interrupted: finishing what can be reported (Ctrl-C again to exit at once)");
            handler_flag.stop();
        });
        if let Err(e) = installed {
            eprintln!("warning: cannot install the Ctrl-C handler: {e}");
        }
        flag
    })
    .clone()
}
