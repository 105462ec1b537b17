//! The CLI's one Ctrl-C (and SIGTERM) handler: it sets a process-wide [`StopFlag`] that every
//! long command (solves, benches, matches, leagues) watches, so an interrupted command prints
//! what it finished instead of dying silently. A second Ctrl-C exits at once with status 130.
//! A closed standard output (`yomi ... | head`) exits at once too, with status 141.

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
                exit_now(130);
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

/// Exits at once with `code`. No destructor runs on this exit, so the external engines (in
/// process groups of their own, out of reach of the terminal) are ended here.
fn exit_now(code: i32) -> ! {
    yomi_protocol::kill_all_engines();
    std::process::exit(code)
}

/// `println!` panics when standard output is a pipe whose reader has gone (`yomi ... | head`).
/// Rust ignores SIGPIPE, so a write to it fails instead of ending the process as it would end
/// a C program; this hook exits at once in that case, quietly, with the status a shell shows
/// for a process ended by SIGPIPE (128 + 13), and leaves every other panic to the default hook.
pub fn exit_quietly_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            exit_now(141);
        }
        default(info);
    }));
}
