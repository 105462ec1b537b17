//! `--record` and `--resume`: every finished game appended to a JSON-lines file.
//!
//! The first line is a header that names the run (kind, game, agents, rounds, seed, openings,
//! shard, SPRT); each following line is one game: `{"match":M,"index":I,"opening":"...",
//! "a_first":true,"result":"win","moves":"..."}` (`match` is the row of a league, 0 for a
//! match; `result` is A's). Lines are buffered and flushed at least every second and at the
//! end. Resuming reads the file back, checks that the header is the current run's, drops a
//! last line cut short by a kill, and appends. A game lost by forfeit has a `"forfeit"`
//! field: `{"game":I,"agent":"a","reason":"crash","detail":"..."}`.
//!
//! A FILE ending in `.ggf` (Othello) holds GGF records instead, one a line, with no header
//! line: `PC[yomi]`, the players' names, the start position, the moves and the result (a
//! forfeit is a loss by 64 discs, `:t` for a timeout and `:r` otherwise, with the reason in
//! `C[...]`), and two tags of yomi's own that other readers keep or skip: `YR[RUN ROW INDEX]`
//! (a digest of the run's header, the league row and the game's index) and, for a forfeit,
//! `YF[a|b REASON|DETAIL]`. Resuming reads them back the same way.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use yomi_arena::{GameForfeit, Seat};
use yomi_core::{Game, GameResult, Player};
use yomi_othello::ggf;

use crate::Res;

/// One game line.
#[derive(Debug, Serialize, Deserialize)]
pub struct GameLine {
    /// The league row (0 in a match).
    #[serde(rename = "match")]
    pub match_no: usize,
    /// The game's index.
    pub index: u64,
    /// The opening's text.
    pub opening: String,
    /// Whether A moved first.
    pub a_first: bool,
    /// A's result.
    pub result: GameResult,
    /// The moves from the opening, separated by spaces.
    pub moves: String,
    /// Why the loser forfeited, when the game ended so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<GameForfeit>,
}

/// How a record file holds its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON lines after a header line.
    Json,
    /// GGF records, one a line (Othello).
    Ggf,
}

impl Format {
    /// The format of a record file: GGF when its name ends in `.ggf`.
    pub fn of(path: &Path) -> Format {
        let ggf = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("ggf"));
        if ggf {
            Format::Ggf
        } else {
            Format::Json
        }
    }
}

/// A record file open for appending.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    out: BufWriter<File>,
    flushed: Instant,
    format: Format,
    /// The digest of the run's header (GGF records carry it).
    run: String,
}

/// The games read back from a record, by league row.
#[derive(Debug, Default)]
pub struct Prior {
    games: HashMap<usize, Vec<(u64, GameResult)>>,
    forfeits: HashMap<usize, Vec<GameForfeit>>,
}

impl Prior {
    /// No games.
    pub fn new() -> Prior {
        Prior::default()
    }

    /// Takes league row `row`'s games (index, A's result) and its forfeits.
    pub fn take(&mut self, row: usize) -> (Vec<(u64, GameResult)>, Vec<GameForfeit>) {
        (
            self.games.remove(&row).unwrap_or_default(),
            self.forfeits.remove(&row).unwrap_or_default(),
        )
    }

    /// How many games were read.
    pub fn count(&self) -> usize {
        self.games.values().map(Vec::len).sum()
    }

    fn add(&mut self, row: usize, index: u64, result: GameResult, forfeit: Option<GameForfeit>) {
        self.games.entry(row).or_default().push((index, result));
        if let Some(f) = forfeit {
            self.forfeits.entry(row).or_default().push(f);
        }
    }
}

/// A short digest of a run's header (64-bit FNV-1a of its JSON), naming the run in GGF
/// records.
fn digest(header: &Value) -> String {
    let text = header.to_string();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

impl Recorder {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &Value) -> Res<Recorder> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let mut r = Recorder {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            flushed: Instant::now(),
            format: Format::of(path),
            run: digest(header),
        };
        if r.format == Format::Json {
            serde_json::to_writer(&mut r.out, header)?;
            r.out.write_all(b"\n")?;
        }
        r.out.flush()?;
        Ok(r)
    }

    /// Opens an existing record of the same run to continue it: the games it holds, and the
    /// recorder appending after them (a last line without its newline is dropped).
    pub fn resume(path: &Path, header: &Value) -> Res<(Recorder, Prior)> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open the record {}: {e}", path.display()))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(|e| format!("cannot read the record {}: {e}", path.display()))?;
        // Keep complete lines only: a kill may have cut the last one.
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        let name = path.display();
        let format = Format::of(path);
        let run = digest(header);
        let prior = match format {
            Format::Json => read_json(&text[..complete], header),
            Format::Ggf => read_ggf(&text[..complete], &run),
        }
        .map_err(|e| format!("{name}{e}"))?;
        file.set_len(complete as u64)?;
        file.seek(SeekFrom::End(0))?;
        Ok((
            Recorder {
                path: path.to_path_buf(),
                out: BufWriter::new(file),
                flushed: Instant::now(),
                format,
                run,
            },
            prior,
        ))
    }

    /// The record's format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The digest of the run's header, which GGF records carry in `YR`.
    pub fn run(&self) -> &str {
        &self.run
    }

    /// Appends a game line (JSON); flushes when the last flush is a second old.
    pub fn game(&mut self, line: &GameLine) -> Result<(), String> {
        let text = serde_json::to_string(line).map_err(|e| e.to_string())?;
        self.write_line(&text)
    }

    /// Appends one line (a JSON game or a GGF record); flushes when the last flush is a
    /// second old.
    pub fn write_line(&mut self, text: &str) -> Result<(), String> {
        let err =
            |e: std::io::Error| format!("cannot write the record {}: {e}", self.path.display());
        self.out.write_all(text.as_bytes()).map_err(err)?;
        self.out.write_all(b"\n").map_err(err)?;
        self.tick()
    }
    /// Flushes when the last flush is a second old.
    pub fn tick(&mut self) -> Result<(), String> {
        if self.flushed.elapsed() >= Duration::from_secs(1) {
            self.flush()?;
        }
        Ok(())
    }

    /// Flushes now.
    pub fn flush(&mut self) -> Result<(), String> {
        self.flushed = Instant::now();
        self.out
            .flush()
            .map_err(|e| format!("cannot write the record {}: {e}", self.path.display()))
    }
}

/// Checks that a record's header is the current run's, naming the first difference.
fn check_header(found: &Value, expected: &Value) -> Result<(), String> {
    let (Some(f), Some(e)) = (found.as_object(), expected.as_object()) else {
        return Err("the first line is not a record header".into());
    };
    for (key, want) in e {
        let got = f.get(key).unwrap_or(&Value::Null);
        if got != want {
            return Err(format!(
                "the record is of a different run: its {key} is {got}, this run's is {want}"
            ));
        }
    }
    Ok(())
}

/// Counts a game read back, refusing one recorded twice with different results. Errors start
/// with what follows the file's name (` line N: ...`).
fn count_game(
    prior: &mut Prior,
    seen: &mut HashMap<(usize, u64), GameResult>,
    line: usize,
    (row, index, result): (usize, u64, GameResult),
    forfeit: Option<GameForfeit>,
) -> Result<(), String> {
    match seen.insert((row, index), result) {
        Some(r) if r != result => Err(format!(
            " line {line}: game {index} is recorded twice with different results"
        )),
        Some(_) => Ok(()),
        None => {
            prior.add(row, index, result, forfeit);
            Ok(())
        }
    }
}

/// The games of a JSON-lines record (complete lines only) of the run with `header`.
fn read_json(text: &str, header: &Value) -> Result<Prior, String> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines
        .next()
        .ok_or_else(|| ": the record is empty (no header)".to_string())?;
    let found: Value =
        serde_json::from_str(first).map_err(|e| format!(" line 1: not a record header: {e}"))?;
    check_header(&found, header).map_err(|e| format!(": {e}"))?;
    let mut prior = Prior::new();
    let mut seen = HashMap::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine =
            serde_json::from_str(line).map_err(|e| format!(" line {}: not a game: {e}", i + 1))?;
        let key = (game.match_no, game.index, game.result);
        count_game(&mut prior, &mut seen, i + 1, key, game.forfeit)?;
    }
    Ok(prior)
}

/// The games of a GGF record file (complete lines only) of the run whose digest is `run`.
fn read_ggf(text: &str, run: &str) -> Result<Prior, String> {
    let mut prior = Prior::new();
    let mut seen = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |e: String| format!(" line {}: {e}", i + 1);
        let games = ggf::parse_file(line).map_err(|e| at(e.to_string()))?;
        for g in games {
            let (row, index, result, forfeit) = yomi_game(&g, run).map_err(at)?;
            count_game(&mut prior, &mut seen, i + 1, (row, index, result), forfeit)?;
        }
    }
    Ok(prior)
}

/// The value of a tag of a GGF record's other tags.
fn tag<'a>(g: &'a ggf::Record, name: &str) -> Option<&'a str> {
    g.extra
        .iter()
        .find(|(t, _)| t == name)
        .map(|(_, v)| v.as_str())
}

/// What yomi wrote in a GGF record of run `run`: the league row, the game's index, A's result
/// and the forfeit, if any.
fn yomi_game(
    g: &ggf::Record,
    run: &str,
) -> Result<(usize, u64, GameResult, Option<GameForfeit>), String> {
    let yr = tag(g, "YR").ok_or("a record without yomi's YR tag: not written by --record")?;
    let parts: Vec<&str> = yr.split_whitespace().collect();
    let [digest, row, index] = parts[..] else {
        return Err(format!("bad YR tag {yr:?}: expected RUN ROW INDEX"));
    };
    if digest != run {
        return Err(format!(
            "the record is of a different run (digest {digest}, this run's is {run})"
        ));
    }
    let bad = || format!("bad YR tag {yr:?}: expected RUN ROW INDEX");
    let row: usize = row.parse().map_err(|_| bad())?;
    let index: u64 = index.parse().map_err(|_| bad())?;
    let margin = g
        .result
        .ok_or_else(|| format!("game {index} has no result"))?
        .black_margin;
    let a_black = a_is_black(index, g.start().side_to_move());
    let a_margin = if a_black { margin } else { -margin };
    let result = if a_margin > 0.0 {
        GameResult::Win
    } else if a_margin < 0.0 {
        GameResult::Loss
    } else {
        GameResult::Draw
    };
    let forfeit = match tag(g, "YF") {
        None => None,
        Some(yf) => {
            let mut fields = yf.splitn(3, '|');
            let (seat, reason, detail) = (fields.next(), fields.next(), fields.next());
            let agent = match seat {
                Some("a") => Seat::A,
                Some("b") => Seat::B,
                _ => return Err(format!("bad YF tag {yf:?}: expected a|b REASON|DETAIL")),
            };
            Some(GameForfeit {
                game: index,
                agent,
                reason: reason.unwrap_or_default().to_string(),
                detail: detail.unwrap_or_default().to_string(),
            })
        }
    };
    Ok((row, index, result, forfeit))
}

/// Whether agent A plays black (the first player) in game `index` from a start where `side`
/// is to move: A moves first in even games.
fn a_is_black(index: u64, side: Player) -> bool {
    index.is_multiple_of(2) == (side == Player::First)
}

/// The GGF record `--record FILE.ggf` writes for a finished game: `game` is the record of
/// its moves (result from the board when it ended there), `names` are A's and B's.
pub fn ggf_record(
    mut game: ggf::Record,
    run: &str,
    row: usize,
    index: u64,
    names: [&str; 2],
    forfeit: Option<&GameForfeit>,
) -> String {
    let a_black = a_is_black(index, game.start().side_to_move());
    let (black, white) = if a_black {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    game.place = Some("yomi".into());
    game.black = Some(black.into());
    game.white = Some(white.into());
    game.extra
        .push(("YR".into(), format!("{run} {row} {index}")));
    if let Some(f) = forfeit {
        let black_lost = (f.agent == Seat::A) == a_black;
        game.result = Some(ggf::RecordResult {
            black_margin: if black_lost { -64.0 } else { 64.0 },
            ending: Some(if f.reason == "timeout" {
                ggf::Ending::Timeout
            } else {
                ggf::Ending::Resigned
            }),
        });
        let (seat, who) = match f.agent {
            Seat::A => ("a", names[0]),
            Seat::B => ("b", names[1]),
        };
        let colour = if black_lost { "black" } else { "white" };
        game.extra.push((
            "C".into(),
            format!("{who} ({colour}) forfeits: {}", f.reason),
        ));
        let detail = f.detail.replace(['\n', '\r'], " ");
        game.extra
            .push(("YF".into(), format!("{seat}|{}|{detail}", f.reason)));
    }
    game.to_string()
}
