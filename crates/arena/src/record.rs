//! Match records: every finished game appended to a file, read back to resume a run.
//!
//! A JSON-lines record ([`RecordFormat::Json`], any game) starts with a header line that names
//! the run ([`record_header`]: kind, game, agents, rounds, seed, openings, shard, SPRT); each
//! following line is one game ([`GameLine`]): `{"match":M,"index":I,"opening":"...",
//! "a_first":true,"result":"win","moves":"..."}` (`match` is the row of a league, 0 for a
//! match; `result` is A's). A game lost by forfeit has a `"forfeit"` field:
//! `{"game":I,"agent":"a","reason":"crash","detail":"..."}`; a game the match's adjudicator
//! decided has an `"adjudication"` field ([`GameAdjudication`]):
//! `{"rule":"exact=12","position":"...","result":"win","margin":6}` (`margin` is A's, absent for
//! `wld`), and its moves end at that position.
//!
//! A file whose name ends in `.ggf` ([`RecordFormat::Ggf`], Othello) holds GGF records
//! instead, one a line, with no header line: `PC[yomi]`, the players' names, the start
//! position, the moves and the result (a forfeit is a loss by 64 discs, `:t` for a timeout and
//! `:r` otherwise, with the reason in `C[...]`), and two tags of yomi's own that other readers
//! keep or skip: `YR[RUN ROW INDEX]` (a digest of the run's header, the league row and the
//! game's index) and, for a forfeit, `YF[a|b REASON|DETAIL]`. An adjudicated game ends at the
//! position decided; its result is the proved one, written as an agreed score (`RE[+6.000:s]`;
//! for `wld`, only the sign: `+1.000:s`, `0.000:s` or `-1.000:s`), with a `C[...]` comment
//! that says so and yomi's tag `YA[RULE MARGIN]` (A's margin, `-` for `wld`).
//!
//! Lines are buffered and flushed at least every second ([`Recorder::tick`]) and at the end.
//! [`Recorder::resume`] reads a record back, checks that it is the current run's, drops a last
//! line cut short by a kill, and appends after it; the games it read ([`PriorGames`]) go to
//! [`RunOptions::prior`](crate::RunOptions), so the resumed run's result is the uninterrupted
//! run's.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use thiserror::Error;
use yomi_core::{Game, GameResult, Player, Shard};
use yomi_othello::ggf;

use crate::{GameAdjudication, GameForfeit, Seat};

/// The version written in [`record_header`]; a record of another version is another run.
pub const RECORD_VERSION: u32 = 1;

/// One game of a JSON-lines record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// How the match's adjudicator decided the game, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<GameAdjudication>,
}

/// How a record file holds its games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordFormat {
    /// JSON lines after a header line.
    Json,
    /// GGF records, one a line (Othello).
    Ggf,
}

impl RecordFormat {
    /// The format of a record file: GGF when its name ends in `.ggf`.
    #[must_use]
    pub fn of(path: &Path) -> RecordFormat {
        let ggf = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("ggf"));
        if ggf {
            RecordFormat::Ggf
        } else {
            RecordFormat::Json
        }
    }
}

/// A record that cannot be written or read back.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum RecordError {
    /// The file system refused.
    #[error("cannot {action} the record {path}: {source}")]
    Io {
        /// What was being done: `create`, `open`, `read` or `write`.
        action: &'static str,
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a record of this run as a whole (no header, another run's header).
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// One line is not a game of this run.
    #[error("{path} line {line}: {reason}")]
    Line {
        /// The file.
        path: String,
        /// The line (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A game written in the wrong format for the file.
    #[error("{path}: a {given:?} game cannot be written to a {format:?} record")]
    Format {
        /// The file.
        path: String,
        /// The file's format.
        format: RecordFormat,
        /// The game's.
        given: RecordFormat,
    },
}

/// The header of a run's record: `{"record":"yomi","version":1,"kind":KIND}`, then `fields`
/// (an object: game, agents, rounds, seed, ...), the openings and the shard.
#[must_use]
pub fn record_header(kind: &str, fields: &Value, openings: &Value, shard: Shard) -> Value {
    let mut h = json!({ "record": "yomi", "version": RECORD_VERSION, "kind": kind });
    if let (Some(h), Some(f)) = (h.as_object_mut(), fields.as_object()) {
        for (k, v) in f {
            h.insert(k.clone(), v.clone());
        }
        h.insert("openings".into(), openings.clone());
        h.insert("shard".into(), Value::String(shard.to_string()));
    }
    h
}

/// The games read back from a record, by league row.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct PriorGames {
    games: HashMap<usize, Vec<(u64, GameResult)>>,
    forfeits: HashMap<usize, Vec<GameForfeit>>,
    adjudicated: HashMap<usize, Vec<u64>>,
}

impl PriorGames {
    /// No games.
    #[must_use]
    pub fn new() -> PriorGames {
        PriorGames::default()
    }

    /// Takes league row `row`'s games (index, A's result) and its forfeits, for
    /// [`RunOptions::prior`](crate::RunOptions) and `prior_forfeits`.
    pub fn take(&mut self, row: usize) -> (Vec<(u64, GameResult)>, Vec<GameForfeit>) {
        (
            self.games.remove(&row).unwrap_or_default(),
            self.forfeits.remove(&row).unwrap_or_default(),
        )
    }

    /// Takes league row `row`'s adjudicated games (their indexes), for
    /// [`RunOptions::prior_adjudicated`](crate::RunOptions).
    pub fn take_adjudicated(&mut self, row: usize) -> Vec<u64> {
        self.adjudicated.remove(&row).unwrap_or_default()
    }

    /// How many games were read.
    #[must_use]
    pub fn count(&self) -> usize {
        self.games.values().map(Vec::len).sum()
    }

    fn add(&mut self, (row, index, result): (usize, u64, GameResult), end: Ended) {
        self.games.entry(row).or_default().push((index, result));
        if let Some(f) = end.forfeit {
            self.forfeits.entry(row).or_default().push(f);
        }
        if end.adjudicated {
            self.adjudicated.entry(row).or_default().push(index);
        }
    }
}

/// How a game read back ended besides its result: by forfeit, by adjudication or neither.
#[derive(Default)]
struct Ended {
    forfeit: Option<GameForfeit>,
    adjudicated: bool,
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

/// A record file open for appending.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    out: BufWriter<File>,
    flushed: Instant,
    format: RecordFormat,
    /// The digest of the run's header (GGF records carry it).
    run: String,
}

impl Recorder {
    /// Creates (or truncates) `path` and writes the header (JSON records).
    ///
    /// # Errors
    /// [`RecordError::Io`] when the file cannot be created or written.
    pub fn create(path: &Path, header: &Value) -> Result<Recorder, RecordError> {
        let file = File::create(path).map_err(io_error("create", path))?;
        let mut r = Recorder {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            flushed: Instant::now(),
            format: RecordFormat::of(path),
            run: digest(header),
        };
        if r.format == RecordFormat::Json {
            let text = header.to_string();
            r.write_line(&text)?;
        }
        r.flush()?;
        Ok(r)
    }

    /// Opens an existing record of the same run to continue it: the games it holds, and the
    /// recorder appending after them (a last line without its newline is dropped).
    ///
    /// # Errors
    /// [`RecordError`] when the file cannot be read, is another run's, or holds a line that
    /// is not a game (or a game twice with different results).
    pub fn resume(path: &Path, header: &Value) -> Result<(Recorder, PriorGames), RecordError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(io_error("open", path))?;
        let mut text = String::new();
        file.read_to_string(&mut text)
            .map_err(io_error("read", path))?;
        // Keep complete lines only: a kill may have cut the last one.
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        let format = RecordFormat::of(path);
        let run = digest(header);
        let name = path.display().to_string();
        let prior = match format {
            RecordFormat::Json => read_json(&text[..complete], header, &name),
            RecordFormat::Ggf => read_ggf(&text[..complete], &run, &name),
        }?;
        file.set_len(complete as u64)
            .map_err(io_error("write", path))?;
        file.seek(SeekFrom::End(0))
            .map_err(io_error("write", path))?;
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
    #[must_use]
    pub fn format(&self) -> RecordFormat {
        self.format
    }

    /// The digest of the run's header, which GGF records carry in `YR`.
    #[must_use]
    pub fn run(&self) -> &str {
        &self.run
    }

    /// Appends a game to a JSON record; flushes when the last flush is a second old.
    ///
    /// # Errors
    /// [`RecordError::Format`] for a GGF record, [`RecordError::Io`] when writing fails.
    pub fn json_game(&mut self, line: &GameLine) -> Result<(), RecordError> {
        self.expect(RecordFormat::Json)?;
        let text = serde_json::to_string(line)
            .map_err(|e| io_error("write", &self.path)(std::io::Error::other(e)))?;
        self.write_line(&text)
    }

    /// Appends a finished Othello game to a GGF record: `game` holds its start, moves and
    /// result (from the board when it ended there), `names` are A's and B's, `forfeit` and
    /// `adjudication` how it ended otherwise (see [`ggf_record`]). Flushes when the last flush
    /// is a second old.
    ///
    /// # Errors
    /// [`RecordError::Format`] for a JSON record, [`RecordError::Io`] when writing fails.
    pub fn ggf_game(
        &mut self,
        game: ggf::Record,
        row: usize,
        index: u64,
        names: [&str; 2],
        forfeit: Option<&GameForfeit>,
        adjudication: Option<&GameAdjudication>,
    ) -> Result<(), RecordError> {
        self.expect(RecordFormat::Ggf)?;
        let text = ggf_record(game, &self.run, row, index, names, forfeit, adjudication);
        self.write_line(&text)
    }

    fn expect(&self, given: RecordFormat) -> Result<(), RecordError> {
        if self.format == given {
            Ok(())
        } else {
            Err(RecordError::Format {
                path: self.path.display().to_string(),
                format: self.format,
                given,
            })
        }
    }

    fn write_line(&mut self, text: &str) -> Result<(), RecordError> {
        let err = io_error("write", &self.path);
        self.out.write_all(text.as_bytes()).map_err(&err)?;
        self.out.write_all(b"\n").map_err(&err)?;
        self.tick()
    }

    /// Flushes when the last flush is a second old.
    ///
    /// # Errors
    /// [`RecordError::Io`] when writing fails.
    pub fn tick(&mut self) -> Result<(), RecordError> {
        if self.flushed.elapsed() >= Duration::from_secs(1) {
            self.flush()?;
        }
        Ok(())
    }

    /// Flushes now.
    ///
    /// # Errors
    /// [`RecordError::Io`] when writing fails.
    pub fn flush(&mut self) -> Result<(), RecordError> {
        self.flushed = Instant::now();
        self.out.flush().map_err(io_error("write", &self.path))
    }
}

fn io_error(action: &'static str, path: &Path) -> impl Fn(std::io::Error) -> RecordError {
    let path = path.display().to_string();
    move |source| RecordError::Io {
        action,
        path: path.clone(),
        source,
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
    // A setting that only some runs name (a clock, an adjudication) must not be dropped.
    for (key, got) in f {
        if !got.is_null() && !e.contains_key(key) {
            return Err(format!(
                "the record is of a different run: its {key} is {got}, this run has none"
            ));
        }
    }
    Ok(())
}

/// Counts a game read back, refusing one recorded twice with different results.
fn count_game(
    prior: &mut PriorGames,
    seen: &mut HashMap<(usize, u64), GameResult>,
    (row, index, result): (usize, u64, GameResult),
    end: Ended,
) -> Result<(), String> {
    match seen.insert((row, index), result) {
        Some(r) if r != result => Err(format!(
            "game {index} is recorded twice with different results"
        )),
        Some(_) => Ok(()),
        None => {
            prior.add((row, index, result), end);
            Ok(())
        }
    }
}

/// The games of a JSON-lines record (complete lines only) of the run with `header`.
fn read_json(text: &str, header: &Value, path: &str) -> Result<PriorGames, RecordError> {
    let at = |line: usize| {
        move |reason: String| RecordError::Line {
            path: path.to_string(),
            line,
            reason,
        }
    };
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next().ok_or_else(|| RecordError::File {
        path: path.to_string(),
        reason: "the record is empty (no header)".into(),
    })?;
    let found: Value =
        serde_json::from_str(first).map_err(|e| at(1)(format!("not a record header: {e}")))?;
    check_header(&found, header).map_err(|reason| RecordError::File {
        path: path.to_string(),
        reason,
    })?;
    let mut prior = PriorGames::new();
    let mut seen = HashMap::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let game: GameLine =
            serde_json::from_str(line).map_err(|e| at(i + 1)(format!("not a game: {e}")))?;
        let key = (game.match_no, game.index, game.result);
        let end = Ended {
            adjudicated: game.adjudication.is_some(),
            forfeit: game.forfeit,
        };
        count_game(&mut prior, &mut seen, key, end).map_err(at(i + 1))?;
    }
    Ok(prior)
}

/// The games of a GGF record file (complete lines only) of the run whose digest is `run`.
fn read_ggf(text: &str, run: &str, path: &str) -> Result<PriorGames, RecordError> {
    let mut prior = PriorGames::new();
    let mut seen = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |reason: String| RecordError::Line {
            path: path.to_string(),
            line: i + 1,
            reason,
        };
        let games = ggf::parse_file(line).map_err(|e| at(e.to_string()))?;
        for g in games {
            let (key, end) = yomi_game(&g, run).map_err(at)?;
            count_game(&mut prior, &mut seen, key, end).map_err(at)?;
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

/// What yomi wrote in a GGF record of run `run`: the league row, the game's index, A's result,
/// and the forfeit or the adjudication, if any.
fn yomi_game(g: &ggf::Record, run: &str) -> Result<((usize, u64, GameResult), Ended), String> {
    let yr = tag(g, "YR").ok_or("a record without yomi's YR tag: not written by --record")?;
    let parts: Vec<&str> = yr.split_whitespace().collect();
    let bad = || format!("bad YR tag {yr:?}: expected RUN ROW INDEX");
    let [digest, row, index] = parts[..] else {
        return Err(bad());
    };
    if digest != run {
        return Err(format!(
            "the record is of a different run (digest {digest}, this run's is {run})"
        ));
    }
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
    let adjudicated = match tag(g, "YA") {
        None => false,
        Some(ya) => {
            let good = ya.split_whitespace().count() == 2
                && g.result
                    .is_some_and(|r| r.ending == Some(ggf::Ending::MutualScore));
            if !good {
                return Err(format!(
                    "bad YA tag {ya:?} in game {index}: expected RULE MARGIN with an agreed result"
                ));
            }
            true
        }
    };
    Ok((
        (row, index, result),
        Ended {
            forfeit,
            adjudicated,
        },
    ))
}

/// Whether agent A plays black (the first player) in game `index` from a start where `side`
/// is to move: A moves first in even games.
fn a_is_black(index: u64, side: Player) -> bool {
    index.is_multiple_of(2) == (side == Player::First)
}

/// The GGF record (one line) that a GGF match record holds for a finished game of run `run`
/// (a [`Recorder::run`] digest): `game` is the record of its moves (result from the board when
/// it ended there), `names` are A's and B's, `row` the league row, `index` the game's index.
/// A game lost by `forfeit` gets a loss by 64 discs; a game decided by `adjudication` (its
/// moves end at the position decided) gets the proved result as an agreed score, a comment
/// and the `YA` tag (see the module's documentation).
#[must_use]
pub fn ggf_record(
    mut game: ggf::Record,
    run: &str,
    row: usize,
    index: u64,
    names: [&str; 2],
    forfeit: Option<&GameForfeit>,
    adjudication: Option<&GameAdjudication>,
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
    if let Some(adj) = adjudication {
        adjudicated_result(&mut game, a_black, adj);
    }
    game.to_string()
}

/// Writes an adjudicated game's proved result into its GGF record: the agreed score, the
/// comment and the `YA` tag.
fn adjudicated_result(game: &mut ggf::Record, a_black: bool, adj: &GameAdjudication) {
    let sign = |r: GameResult| match r {
        GameResult::Win => 1,
        GameResult::Loss => -1,
        GameResult::Draw => 0,
    };
    // The proved margin, or for a result-only rule its sign.
    let a_margin = adj.margin.unwrap_or_else(|| sign(adj.result));
    let black_margin = if a_black { a_margin } else { -a_margin };
    game.result = Some(ggf::RecordResult {
        black_margin: f64::from(black_margin),
        ending: Some(ggf::Ending::MutualScore),
    });
    let empties = game.position().empties().count();
    let winner = match black_margin.signum() {
        1 => Some("black"),
        -1 => Some("white"),
        _ => None,
    };
    let how = match (winner, adj.margin) {
        (Some(w), Some(_)) => format!("{w} wins by {} discs", black_margin.abs()),
        (Some(w), None) => format!("{w} wins (win/loss/draw solve: the margin is not computed)"),
        (None, _) => "a draw".to_string(),
    };
    game.extra.push((
        "C".into(),
        format!(
            "adjudicated by {} at {empties} empties: with perfect play {how}",
            adj.rule
        ),
    ));
    let margin = adj
        .margin
        .map_or_else(|| "-".to_string(), |m| format!("{m:+}"));
    game.extra
        .push(("YA".into(), format!("{} {margin}", adj.rule)));
}
