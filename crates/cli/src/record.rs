//! `--record` and `--resume`: every finished game appended to a JSON-lines file.
//!
//! The first line is a header that names the run (kind, game, agents, rounds, seed, openings,
//! shard, SPRT); each following line is one game: `{"match":M,"index":I,"opening":"...",
//! "a_first":true,"result":"win","moves":"..."}` (`match` is the row of a league, 0 for a
//! match; `result` is A's). Lines are buffered and flushed at least every second and at the
//! end. Resuming reads the file back, checks that the header is the current run's, drops a
//! last line cut short by a kill, and appends.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use yomi_core::GameResult;

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
}

/// A record file open for appending.
#[derive(Debug)]
pub struct Recorder {
    path: PathBuf,
    out: BufWriter<File>,
    flushed: Instant,
}

/// The games read back from a record, by league row: (index, A's result).
pub type Prior = HashMap<usize, Vec<(u64, GameResult)>>;

impl Recorder {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &Value) -> Res<Recorder> {
        let file =
            File::create(path).map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        let mut r = Recorder {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
            flushed: Instant::now(),
        };
        serde_json::to_writer(&mut r.out, header)?;
        r.out.write_all(b"\n")?;
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
        let mut lines = text[..complete].lines().enumerate();
        let (_, first) = lines
            .next()
            .ok_or_else(|| format!("{name}: the record is empty (no header)"))?;
        let found: Value = serde_json::from_str(first)
            .map_err(|e| format!("{name} line 1: not a record header: {e}"))?;
        check_header(&found, header).map_err(|e| format!("{name}: {e}"))?;
        let mut prior: Prior = HashMap::new();
        let mut seen: HashMap<(usize, u64), GameResult> = HashMap::new();
        for (i, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let game: GameLine = serde_json::from_str(line)
                .map_err(|e| format!("{name} line {}: not a game: {e}", i + 1))?;
            match seen.insert((game.match_no, game.index), game.result) {
                Some(r) if r != game.result => {
                    return Err(format!(
                        "{name} line {}: game {} is recorded twice with different results",
                        i + 1,
                        game.index
                    )
                    .into())
                }
                Some(_) => {}
                None => prior
                    .entry(game.match_no)
                    .or_default()
                    .push((game.index, game.result)),
            }
        }
        file.set_len(complete as u64)?;
        file.seek(SeekFrom::End(0))?;
        Ok((
            Recorder {
                path: path.to_path_buf(),
                out: BufWriter::new(file),
                flushed: Instant::now(),
            },
            prior,
        ))
    }

    /// Appends a game; flushes when the last flush is a second old.
    pub fn game(&mut self, line: &GameLine) -> Result<(), String> {
        let err =
            |e: std::io::Error| format!("cannot write the record {}: {e}", self.path.display());
        serde_json::to_writer(&mut self.out, line).map_err(|e| e.to_string())?;
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
