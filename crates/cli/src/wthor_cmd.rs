//! `yomi show --wthor FILE [--index N]`: a game of a WTHOR archive replayed, with its players
//! and tournament named from the archive's `.jou` and `.trn` files when they are given.

use std::path::Path;

use yomi_agents::GameKind;
use yomi_core::Game;
use yomi_othello::wthor::{Check, GameFile, GameRecord, NameFile, NameKind};

use crate::engine_cmd::GameFileArgs;
use crate::{CliGame, Res};

fn read(path: &Path) -> Res<Vec<u8>> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()).into())
}

fn names(path: Option<&Path>, kind: NameKind) -> Res<Option<NameFile>> {
    let Some(path) = path else {
        return Ok(None);
    };
    let file =
        NameFile::read(kind, &read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Some(file))
}

/// Runs `yomi show --wthor`. Every game of the file is read and its moves checked; a game
/// that stops before the end is shown with its recorded score (the archives hold some).
pub fn show_wthor(args: &GameFileArgs, game: GameKind, moves: Option<&str>) -> Res<()> {
    let path = args.wthor.as_deref().expect("called with --wthor");
    if game != GameKind::Othello {
        return Err("WTHOR files hold 8x8 Othello games: use --game othello".into());
    }
    if moves.is_some() {
        return Err("--moves does not go with --wthor: the file holds the moves".into());
    }
    let file = GameFile::read_with(&read(path)?, Check::Moves)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let players = names(args.players.as_deref(), NameKind::Players)?;
    let tournaments = names(args.tournaments.as_deref(), NameKind::Tournaments)?;
    let record = crate::engine_cmd::game_at(&file.games, args.index, path)?;
    print!(
        "{}",
        describe(
            &file,
            record,
            args.index,
            players.as_ref(),
            tournaments.as_ref()
        )
    );
    Ok(())
}

/// `Name #id`, or `#id` where no file names it.
fn named(file: Option<&NameFile>, id: u16) -> String {
    match file.and_then(|f| f.name(id)) {
        Some(name) => format!("{name} #{id}"),
        None => format!("#{id}"),
    }
}

/// The text `yomi show --wthor` prints for a game.
fn describe(
    file: &GameFile,
    g: &GameRecord,
    index: u64,
    players: Option<&NameFile>,
    tournaments: Option<&NameFile>,
) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "game {index} of {} (played in {})\n",
        file.games.len(),
        file.header.game_year
    ));
    out.push_str(&format!(
        "black (X) {}   white (O) {}\n",
        named(players, g.black),
        named(players, g.white)
    ));
    out.push_str(&format!(
        "tournament {}\n",
        named(tournaments, g.tournament)
    ));
    let pos = g.position();
    let ending = if pos.is_over() {
        ""
    } else {
        ", the moves stop before the end"
    };
    out.push_str(&format!(
        "result {:+} (black's margin; black's score {}{ending})\n",
        g.black_margin(),
        g.black_score
    ));
    out.push_str(&format!(
        "theoretical score {} (black's, exact from {} empties)\n",
        g.theoretical_score, file.header.depth
    ));
    let line: Vec<String> = g.moves().iter().map(ToString::to_string).collect();
    out.push_str(&format!("moves ({}) {}\n", line.len(), line.join(" ")));
    out.push_str(&format!("{}\n", pos.picture()));
    out.push_str(&format!("position {pos}\n"));
    out
}
