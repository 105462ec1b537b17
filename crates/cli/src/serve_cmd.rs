//! `yomi serve`: the local web page (play any game against any agent, browse the game tree).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use yomi_web::ServeConfig;

use crate::Res;

/// Arguments of `yomi serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on. The default serves this machine only; anything else lets
    /// other machines play (and make the server think).
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The most an agent may think per move, in seconds (every `time` parameter is capped).
    #[arg(long, default_value_t = 5.0)]
    think: f64,
    /// An opening book (`yomi book`): the page shows its moves and values in every Othello
    /// position in it, and `othello:book=server` plays from it.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// Runs `yomi serve` until the process is stopped.
pub fn run(args: &ServeArgs) -> Res<()> {
    if !(args.think.is_finite() && (0.01..=600.0).contains(&args.think)) {
        return Err(format!("bad --think {}: expected 0.01 to 600 seconds", args.think).into());
    }
    // The book is checked now, so that a bad file is a message at the start, not a failing
    // page.
    let book_note = match &args.book {
        Some(path) => {
            let book = yomi_othello_search::Book::shared(path)
                .map_err(|e| format!("--book {}: {e}", path.display()))?;
            Some(format!(
                "yomi: the page shows the opening book {} ({} positions); othello:book=server \
                 plays from it",
                path.display(),
                book.len()
            ))
        }
        None => None,
    };
    let config = ServeConfig {
        book: args.book.clone(),
        think_time: std::time::Duration::from_secs_f64(args.think),
        // Names other than localhost are for other machines only when they may connect.
        local_hosts_only: args.host.is_loopback(),
        ..ServeConfig::default()
    };
    let addr = SocketAddr::new(args.host, args.port);
    yomi_web::run(addr, config, |bound| {
        println!("yomi: serving on http://{bound}/ (Ctrl-C stops)");
        if let Some(note) = &book_note {
            println!("{note}");
        }
    })?;
    Ok(())
}
