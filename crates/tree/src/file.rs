//! The data-file format: all reading and writing of tree files is in this module, so that the
//! format can change in one place. `docs/formats.md` documents it.
//!
//! A file is the checked container of `yomi-core` ([`Container`]: a fixed 50-byte header,
//! then a bincode-2 payload) with magic `YOMITREE`, version [`FORMAT_VERSION`] and the game's
//! [`Game::NAME`](yomi_core::Game::NAME) as its tag; one record per position.

use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Container, ContainerError, ContainerHeader, Game, Outcome, Player};

use crate::solve::{best_flags, sv_twice, Parts};
use crate::{Graph, Probs, Ratio, Scoring, Solution, TreeError};

/// The first eight bytes of every tree file.
pub const MAGIC: [u8; 8] = *b"YOMITREE";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// Tree files in the checked container of `yomi-core`.
pub const TREE_FILE: Container = Container::new(MAGIC, FORMAT_VERSION, "tree file");

/// Why a tree file could not be written or read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError {
    /// The container failed its checks (access, magic, version, game, length, checksum,
    /// decoding), or could not be written.
    #[error(transparent)]
    Container(#[from] ContainerError),
    /// The header's record count differs from the payload's.
    #[error("tree file header says {header} records, the payload holds {payload}")]
    CountMismatch {
        /// The count in the header.
        header: u64,
        /// The records decoded.
        payload: u64,
    },
    /// A record is inconsistent (bad position, value, move index or probability).
    #[error("bad record {record} in tree file: {reason}")]
    Invalid {
        /// The record's index.
        record: usize,
        /// What is wrong.
        reason: String,
    },
}

/// One position of the payload.
#[derive(Debug, Serialize, Deserialize)]
struct Record {
    position: String,
    depth: u32,
    plain: i8,
    /// Outcome under shortest-victory play: 1 first wins, 0 draw, -1 second wins.
    sv_outcome: i8,
    sv_plies: u32,
    sv_twice: i64,
    best_plain: Vec<u16>,
    best_sv: Vec<u16>,
    /// P(first wins), P(draw), P(second wins) numerators and their denominator.
    probs: [u128; 4],
    probs_f64: [f64; 3],
    /// Playout score of the first player (numerator, denominator), alpha as in the payload.
    score_first: [u128; 2],
    score_second: [u128; 2],
    score_f64: [f64; 2],
}

#[derive(Debug, Serialize, Deserialize)]
struct Payload {
    /// The alpha of the stored playout scores (numerator, denominator).
    alpha: [u128; 2],
    /// The longest game from the start, in plies.
    longest: u32,
    records: Vec<Record>,
}

fn outcome_code(o: Outcome) -> i8 {
    o.value_for(Player::First) as i8
}

fn encode_error(e: impl std::fmt::Display) -> FileError {
    FileError::Container(ContainerError::Encode {
        what: TREE_FILE.what,
        reason: e.to_string(),
    })
}

/// Encodes a solution as the bytes of a tree file. The output depends only on the solution
/// (records in graph order), so it is the same byte for byte on every run.
///
/// # Errors
/// [`ContainerError::TagTooLong`] for a game name over 16 bytes, or [`ContainerError::Encode`] if a value cannot be stored (a
/// position with more than 65 536 legal moves, a playout score that overflows).
pub fn encode<G: Game>(sol: &Solution<G>) -> Result<Vec<u8>, FileError> {
    let alpha = Ratio::HALF;
    let graph = sol.graph();
    let mut records = Vec::with_capacity(graph.len());
    for i in 0..graph.len() {
        let sv = sol.sv(i);
        let p = sol.probs(i);
        let [a, b, c] = p.numerators();
        let score = |player| p.score(player, alpha).map_err(encode_error);
        let (s1, s2) = (score(Player::First)?, score(Player::Second)?);
        let indices = |scoring| {
            sol.best_indices(i, scoring)
                .into_iter()
                .map(|k| u16::try_from(k).map_err(encode_error))
                .collect::<Result<Vec<u16>, FileError>>()
        };
        records.push(Record {
            position: graph.position(i).to_string(),
            depth: graph.depth(i),
            plain: sol.plain(i),
            sv_outcome: outcome_code(sv.outcome),
            sv_plies: sv.plies,
            sv_twice: sv.twice,
            best_plain: indices(Scoring::Plain)?,
            best_sv: indices(Scoring::ShortestVictory)?,
            probs: [a, b, c, p.denom()],
            probs_f64: [p.first().to_f64(), p.draw().to_f64(), p.second().to_f64()],
            score_first: [s1.numer(), s1.denom()],
            score_second: [s2.numer(), s2.denom()],
            score_f64: [s1.to_f64(), s2.to_f64()],
        });
    }
    let payload = Payload {
        alpha: [alpha.numer(), alpha.denom()],
        longest: sol.longest_game(),
        records,
    };
    Ok(TREE_FILE.encode(G::NAME, graph.len() as u64, &payload)?)
}

/// Reads and checks the header of a tree file for game `G`: magic, version, game id, and that
/// the file is exactly as long as the header says.
///
/// # Errors
/// [`FileError::Container`] with the container's header checks.
pub fn read_header<G: Game>(bytes: &[u8]) -> Result<ContainerHeader, FileError> {
    Ok(TREE_FILE.read_header(G::NAME, bytes)?)
}

/// Decodes and checks a tree file for game `G`: the header, the checksum, the payload, and
/// every record (positions parse, are distinct and closed under moves; values, best-move
/// indices, probabilities and scores are consistent).
///
/// # Errors
/// Any [`FileError`] but I/O and encoding errors: a foreign, truncated, corrupted or
/// newer-version file is always an error, never a panic.
pub fn decode<G: Game>(bytes: &[u8]) -> Result<Solution<G>, FileError> {
    let (header, payload): (ContainerHeader, Payload) = TREE_FILE.decode(G::NAME, bytes)?;
    if payload.records.len() as u64 != header.records {
        return Err(FileError::CountMismatch {
            header: header.records,
            payload: payload.records.len() as u64,
        });
    }
    build_solution(payload)
}

fn invalid(record: usize, reason: impl Into<String>) -> FileError {
    FileError::Invalid {
        record,
        reason: reason.into(),
    }
}

fn build_solution<G: Game>(payload: Payload) -> Result<Solution<G>, FileError> {
    let records = payload.records;
    if records.is_empty() {
        return Err(invalid(0, "no records"));
    }
    // Version 1 always stores the scores with alpha = 1/2.
    let alpha = Ratio::HALF;
    if payload.alpha != [alpha.numer(), alpha.denom()] {
        return Err(invalid(0, "the playout scores must use alpha = 1/2"));
    }
    let mut positions = Vec::with_capacity(records.len());
    let mut depth = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let pos: G = r
            .position
            .parse()
            .map_err(|e| invalid(i, format!("position {:?}: {e}", r.position)))?;
        if pos.to_string() != r.position {
            return Err(invalid(
                i,
                format!("position {:?} is not in notation", r.position),
            ));
        }
        positions.push(pos);
        depth.push(r.depth);
    }
    if depth[0] != 0 {
        return Err(invalid(0, "the start must have depth 0"));
    }
    let graph = Graph::from_positions(positions, depth).map_err(|(i, why)| invalid(i, why))?;
    let mut parts = Parts {
        plain: Vec::with_capacity(records.len()),
        sv: Vec::with_capacity(records.len()),
        probs: Vec::with_capacity(records.len()),
        best: vec![0; graph.edge_count()],
    };
    for (i, r) in records.iter().enumerate() {
        let moves = graph.moves(i).len();
        let outcome = graph.outcome(i);
        let plain = match r.plain {
            -1..=1 => r.plain,
            _ => return Err(invalid(i, "plain value out of range")),
        };
        let sv_outcome = match r.sv_outcome {
            1 => Outcome::Win(Player::First),
            0 => Outcome::Draw,
            -1 => Outcome::Win(Player::Second),
            _ => return Err(invalid(i, "bad shortest-victory outcome")),
        };
        if plain != outcome_code(sv_outcome) {
            return Err(invalid(i, "the two scorings disagree on the outcome"));
        }
        if let Some(o) = outcome {
            if outcome_code(o) != plain || r.sv_plies != 0 {
                return Err(invalid(i, "finished position with a wrong value"));
            }
        }
        let end = r
            .depth
            .checked_add(r.sv_plies)
            .ok_or_else(|| invalid(i, "bad plies"))?;
        if r.sv_twice != sv_twice(sv_outcome, end, payload.longest) {
            return Err(invalid(
                i,
                "shortest-victory value does not match its plies",
            ));
        }
        let check_best = |best: &[u16]| -> Result<(), FileError> {
            let increasing = best.windows(2).all(|w| w[0] < w[1]);
            let in_range = best.iter().all(|&k| usize::from(k) < moves);
            if !increasing || !in_range || best.is_empty() != (moves == 0) {
                return Err(invalid(i, "bad best-move indices"));
            }
            Ok(())
        };
        check_best(&r.best_plain)?;
        check_best(&r.best_sv)?;
        let edges = graph.edges(i);
        for (k, slot) in parts.best[edges].iter_mut().enumerate() {
            let k = k as u16;
            *slot = best_flags(r.best_plain.contains(&k), r.best_sv.contains(&k));
        }
        let [a, b, c, den] = r.probs;
        let probs = Probs::from_weights(a, b, c)
            .filter(|p| p.numerators() == [a, b, c] && p.denom() == den)
            .ok_or_else(|| invalid(i, "probabilities do not add up or are not reduced"))?;
        let floats = [
            probs.first().to_f64(),
            probs.draw().to_f64(),
            probs.second().to_f64(),
        ];
        if floats.map(f64::to_bits) != r.probs_f64.map(f64::to_bits) {
            return Err(invalid(i, "probabilities as decimals do not match"));
        }
        let scores = [Player::First, Player::Second]
            .map(|p| probs.score(p, alpha).map_err(|e| invalid(i, e.to_string())));
        let [s1, s2] = scores;
        let (s1, s2) = (s1?, s2?);
        if [s1.numer(), s1.denom()] != r.score_first
            || [s2.numer(), s2.denom()] != r.score_second
            || [s1.to_f64().to_bits(), s2.to_f64().to_bits()] != r.score_f64.map(f64::to_bits)
        {
            return Err(invalid(i, "playout scores do not match the probabilities"));
        }
        parts.plain.push(plain);
        parts.sv.push((sv_outcome, r.sv_plies));
        parts.probs.push(probs);
    }
    let sol = Solution::from_parts(graph, parts).map_err(|e| match e {
        TreeError::Cycle { position } => invalid(0, format!("cycle through {position}")),
        other => invalid(0, other.to_string()),
    })?;
    if sol.longest_game() != payload.longest {
        return Err(invalid(0, "longest game does not match the positions"));
    }
    Ok(sol)
}

/// Writes a solution to a tree file.
///
/// # Errors
/// As [`encode`], and [`ContainerError::Io`].
pub fn write_file<G: Game>(sol: &Solution<G>, path: &Path) -> Result<(), FileError> {
    let bytes = encode(sol)?;
    Ok(Container::write_bytes(path, &bytes)?)
}

/// Reads and checks a tree file, as [`Container::read_bytes`] (only a regular file; the header
/// and the file's length are checked before any of the payload is read, so memory use is
/// bounded by the size of the file) and then [`decode`].
///
/// # Errors
/// [`ContainerError::Io`], [`ContainerError::NotAFile`], and as [`decode`].
pub fn read_file<G: Game>(path: &Path) -> Result<Solution<G>, FileError> {
    let bytes = TREE_FILE.read_bytes(G::NAME, path)?;
    decode(&bytes)
}
