//! Othello games from the files users have: GGF, WTHOR (`.wtb`), match records (`yomi match
//! --record`, JSON lines) and files of move lines; read once here for `yomi analyse` and
//! `yomi book`.

use std::path::Path;

use yomi_othello::wthor::{Check, GameFile};
use yomi_othello::{ggf, Move, MoveSequence, Othello};

use crate::Res;

/// A game read from a file: its number, its start and its moves.
#[derive(Debug, Clone)]
pub struct FileGame {
    /// The game's number: its place in the file from 1, or a match record's game index (from
    /// 0, as the match numbers its games).
    pub index: u64,
    /// Where it starts.
    pub start: Othello,
    /// Its moves from there.
    pub moves: Vec<Move>,
    /// The moves from the standard start to `start`, where known (empty when `start` is the
    /// standard start; `None` for a game set up from a position).
    pub opening: Option<Vec<Move>>,
}

impl FileGame {
    /// A game of `moves` from `start`, whose opening line is known when `start` is the
    /// standard start.
    fn new(index: u64, start: Othello, moves: Vec<Move>) -> FileGame {
        let opening = (start == Othello::new()).then(Vec::new);
        FileGame {
            index,
            start,
            moves,
            opening,
        }
    }

    /// The whole game as a move line from the standard start, where it has one.
    pub fn line_from_start(&self) -> Option<Vec<Move>> {
        let mut line = self.opening.clone()?;
        line.extend_from_slice(&self.moves);
        Some(line)
    }
}

/// What a file of games is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameFormat {
    /// GGF records.
    Ggf,
    /// A WTHOR game file.
    Wthor,
    /// A match record, JSON lines.
    Record,
    /// Move lines from the start, one a line (`#` comments), as the openings files.
    Lines,
}

impl GameFormat {
    /// The format of `bytes` read from `path`: WTHOR by its `.wtb` name, else by the first
    /// characters (`(;` GGF, `{` a match record, else move lines).
    pub fn of(path: &Path, bytes: &[u8]) -> GameFormat {
        let wtb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(64)]);
        let head = text.trim_start();
        if wtb {
            GameFormat::Wthor
        } else if head.starts_with("(;") {
            GameFormat::Ggf
        } else if head.starts_with('{') {
            GameFormat::Record
        } else {
            GameFormat::Lines
        }
    }
}

/// The games of the file at `path` in `format` (`None`: told by [`GameFormat::of`]).
///
/// # Errors
/// A message naming the file and, where it applies, the line or game: a file that cannot be
/// read, a malformed record or move line, an illegal move, a record of another game.
pub fn read_games(path: &Path, format: Option<GameFormat>) -> Res<Vec<FileGame>> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let at = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    match format.unwrap_or_else(|| GameFormat::of(path, &bytes)) {
        GameFormat::Wthor => {
            let file = GameFile::read_with(&bytes, Check::Moves).map_err(|e| at(&e))?;
            Ok(file
                .games
                .iter()
                .zip(1..)
                .map(|(g, index)| FileGame::new(index, Othello::new(), g.moves().to_vec()))
                .collect())
        }
        GameFormat::Ggf => {
            let text = String::from_utf8(bytes).map_err(|e| at(&e))?;
            let games = ggf::parse_file(&text).map_err(|e| at(&e))?;
            Ok(games
                .iter()
                .zip(1..)
                .map(|(g, index)| FileGame::new(index, g.start(), g.line()))
                .collect())
        }
        GameFormat::Record => {
            let text = String::from_utf8(bytes).map_err(|e| at(&e))?;
            read_record(path, &text)
        }
        GameFormat::Lines => {
            let text = String::from_utf8(bytes).map_err(|e| at(&e))?;
            let mut games = Vec::new();
            for (n, line) in text.lines().enumerate() {
                // An openings file's value follows its line after a tab.
                let line = line.split('#').next().unwrap_or("");
                let line = line.split('\t').next().unwrap_or("").trim();
                if line.is_empty() {
                    continue;
                }
                let moves = line
                    .parse::<MoveSequence>()
                    .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
                games.push(FileGame::new(
                    games.len() as u64 + 1,
                    Othello::new(),
                    moves.0,
                ));
            }
            Ok(games)
        }
    }
}

/// A match record's Othello games (the header lines name the game).
fn read_record(path: &Path, text: &str) -> Res<Vec<FileGame>> {
    let mut games = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let bad = |why: String| format!("{} line {}: {why}", path.display(), n + 1);
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| bad(format!("not JSON ({e})")))?;
        if v.get("kind").is_some() {
            if v["game"] != "othello" {
                return Err(bad(format!("a record of {}, not othello", v["game"])).into());
            }
            continue;
        }
        let (Some(open), Some(moves)) = (v["opening"].as_str(), v["moves"].as_str()) else {
            return Err(bad(
                "a game line without its opening and moves (record with --record in a match \
                 of this version)"
                    .into(),
            )
            .into());
        };
        let (start, line) = opening(open).map_err(|e| bad(format!("opening {open:?}: {e}")))?;
        let moves = moves
            .parse::<MoveSequence>()
            .map_err(|e| bad(format!("moves: {e}")))?;
        let index = v["index"].as_u64().unwrap_or(games.len() as u64);
        let mut game = FileGame::new(index, start, moves.0);
        game.opening = game.opening.or(line);
        games.push(game);
    }
    Ok(games)
}

/// A record's opening: a move line from the start (the position it reaches, and the line) or
/// a position (and no line).
fn opening(text: &str) -> Result<(Othello, Option<Vec<Move>>), String> {
    if let Ok(seq) = text.parse::<MoveSequence>() {
        if let Ok(pos) = seq.play_from(&Othello::new()) {
            return Ok((pos, Some(seq.0)));
        }
    }
    text.parse::<Othello>()
        .map(|pos| (pos, None))
        .map_err(|e| e.to_string())
}
