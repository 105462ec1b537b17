//! The data-file format: all reading and writing of tree files is in this module, so that the
//! format can change in one place. `docs/formats.md` documents it.
//!
//! A file is a fixed 50-byte header followed by a bincode-2 payload (serde, standard
//! configuration: little-endian, variable-length integers):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `YOMITREE` |
//! | 8 | 2 | format version, u16 little-endian ([`FORMAT_VERSION`]) |
//! | 10 | 16 | game id: [`Game::NAME`](yomi_core::Game::NAME) in ASCII, zero-padded |
//! | 26 | 8 | record count, u64 LE |
//! | 34 | 8 | payload length in bytes, u64 LE |
//! | 42 | 8 | FNV-1a 64 checksum of the payload, u64 LE |
//! | 50 | ... | payload |

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Game, Outcome, Player};

use crate::solve::{best_flags, sv_twice, Parts};
use crate::{Graph, Probs, Ratio, Scoring, Solution, TreeError};

/// The first eight bytes of every tree file.
pub const MAGIC: [u8; 8] = *b"YOMITREE";

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 1;

/// The size of the fixed header in bytes.
pub const HEADER_LEN: usize = 50;

const GAME_ID_LEN: usize = 16;

/// The largest payload the loader accepts (1 GiB): a bound on what a crafted header can make
/// the decoder allocate.
const MAX_PAYLOAD: usize = 1 << 30;

/// Why a tree file could not be written or read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum FileError {
    /// Reading or writing the file failed.
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file (a directory, a device such as
    /// `/dev/zero`, a FIFO, a socket), which [`read_file`] does not open or read.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file does not start with the magic bytes `YOMITREE`.
    #[error("not a yomi tree file (bad magic bytes)")]
    BadMagic,
    /// The file is shorter than its header says.
    #[error("truncated tree file: {actual} bytes, expected {expected}")]
    Truncated {
        /// Bytes expected.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The file is longer than its header says.
    #[error("tree file has {extra} unexpected bytes after the payload")]
    TrailingBytes {
        /// Bytes beyond the payload.
        extra: u64,
    },
    /// The file was written by a newer version of the format.
    #[error("tree file format version {found} is newer than the supported version {supported}")]
    NewerVersion {
        /// The file's version.
        found: u16,
        /// The newest version this build reads.
        supported: u16,
    },
    /// The file's format version is not one this build reads (older or invalid).
    #[error("unsupported tree file format version {found}")]
    UnsupportedVersion {
        /// The file's version.
        found: u16,
    },
    /// The file holds another game.
    #[error("tree file is for game {found:?}, not {expected:?}")]
    ForeignGame {
        /// The game id in the file (lossy text).
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// The payload does not match its checksum: the file is corrupted.
    #[error("corrupted tree file: checksum {computed:016x} does not match {stored:016x}")]
    ChecksumMismatch {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the payload.
        computed: u64,
    },
    /// The payload is longer than this build accepts.
    #[error("tree file payload of {len} bytes is too large")]
    TooLarge {
        /// The declared payload length.
        len: u64,
    },
    /// The payload did not decode.
    #[error("tree file payload does not decode: {reason}")]
    Decode {
        /// The decoder's message.
        reason: String,
    },
    /// Encoding the payload failed.
    #[error("cannot encode tree file: {reason}")]
    Encode {
        /// The encoder's message.
        reason: String,
    },
    /// The header's record count differs from the payload's.
    #[error("tree file header says {header} records, the payload holds {payload}")]
    CountMismatch {
        /// The count in the header.
        header: u64,
        /// The records decoded.
        payload: u64,
    },
    /// The game's name does not fit the 16-byte game id.
    #[error("game name {name:?} is longer than 16 bytes")]
    GameNameTooLong {
        /// The name.
        name: String,
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

/// The fixed header of a tree file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileHeader {
    /// Format version.
    pub version: u16,
    /// Game id (the game's `NAME`).
    pub game: String,
    /// Number of position records.
    pub records: u64,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// FNV-1a 64 checksum of the payload.
    pub checksum: u64,
}

/// FNV-1a, 64 bits: a different single byte anywhere always changes the result.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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

fn game_id<G: Game>() -> Result<[u8; GAME_ID_LEN], FileError> {
    let name = G::NAME.as_bytes();
    if name.len() > GAME_ID_LEN {
        return Err(FileError::GameNameTooLong {
            name: G::NAME.to_string(),
        });
    }
    let mut id = [0u8; GAME_ID_LEN];
    id[..name.len()].copy_from_slice(name);
    Ok(id)
}

fn encode_error(e: impl std::fmt::Display) -> FileError {
    FileError::Encode {
        reason: e.to_string(),
    }
}

/// Encodes a solution as the bytes of a tree file. The output depends only on the solution
/// (records in graph order), so it is the same byte for byte on every run.
///
/// # Errors
/// [`FileError::GameNameTooLong`], or [`FileError::Encode`] if a value cannot be stored (a
/// position with more than 65 536 legal moves, a playout score that overflows).
pub fn encode<G: Game>(sol: &Solution<G>) -> Result<Vec<u8>, FileError> {
    let id = game_id::<G>()?;
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
    let body = bincode::serde::encode_to_vec(&payload, bincode::config::standard())
        .map_err(encode_error)?;
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&id);
    out.extend_from_slice(&(graph.len() as u64).to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Reads and checks the header of a tree file for game `G`: magic, version, game id, and that
/// the file is exactly as long as the header says.
///
/// # Errors
/// [`FileError::Truncated`], [`FileError::BadMagic`], [`FileError::NewerVersion`],
/// [`FileError::UnsupportedVersion`], [`FileError::ForeignGame`], [`FileError::TooLarge`],
/// [`FileError::TrailingBytes`].
pub fn read_header<G: Game>(bytes: &[u8]) -> Result<FileHeader, FileError> {
    let header = parse_header::<G>(&bytes[..bytes.len().min(HEADER_LEN)])?;
    check_len(&header, bytes.len() as u64)?;
    Ok(header)
}

/// Checks the fixed header (the first [`HEADER_LEN`] bytes of a file, or all of a shorter
/// file): every field, and the payload length against `MAX_PAYLOAD`. Not the file length.
fn parse_header<G: Game>(bytes: &[u8]) -> Result<FileHeader, FileError> {
    if bytes.len() < HEADER_LEN {
        // A short file that does not even start like a tree file is not one.
        let n = bytes.len().min(MAGIC.len());
        if bytes[..n] != MAGIC[..n] {
            return Err(FileError::BadMagic);
        }
        return Err(FileError::Truncated {
            expected: HEADER_LEN as u64,
            actual: bytes.len() as u64,
        });
    }
    if bytes[..8] != MAGIC {
        return Err(FileError::BadMagic);
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version > FORMAT_VERSION {
        return Err(FileError::NewerVersion {
            found: version,
            supported: FORMAT_VERSION,
        });
    }
    if version != FORMAT_VERSION {
        return Err(FileError::UnsupportedVersion { found: version });
    }
    let id = &bytes[10..10 + GAME_ID_LEN];
    let expected = game_id::<G>()?;
    if id != expected {
        let end = id.iter().position(|&b| b == 0).unwrap_or(GAME_ID_LEN);
        return Err(FileError::ForeignGame {
            found: String::from_utf8_lossy(&id[..end]).into_owned(),
            expected: G::NAME.to_string(),
        });
    }
    let records = u64_at(bytes, 26);
    let payload_len = u64_at(bytes, 34);
    let checksum = u64_at(bytes, 42);
    if payload_len > MAX_PAYLOAD as u64 {
        return Err(FileError::TooLarge { len: payload_len });
    }
    Ok(FileHeader {
        version,
        game: G::NAME.to_string(),
        records,
        payload_len,
        checksum,
    })
}

/// Checks that a file of `actual` bytes is exactly as long as `header` says.
fn check_len(header: &FileHeader, actual: u64) -> Result<(), FileError> {
    // `payload_len <= MAX_PAYLOAD` (checked by `parse_header`), so this does not overflow.
    let expected = HEADER_LEN as u64 + header.payload_len;
    if actual < expected {
        return Err(FileError::Truncated { expected, actual });
    }
    if actual > expected {
        return Err(FileError::TrailingBytes {
            extra: actual - expected,
        });
    }
    Ok(())
}

/// Decodes and checks a tree file for game `G`: the header, the checksum, the payload, and
/// every record (positions parse, are distinct and closed under moves; values, best-move
/// indices, probabilities and scores are consistent).
///
/// # Errors
/// Any [`FileError`] but `Io` and `Encode`: a foreign, truncated, corrupted or newer-version
/// file is always an error, never a panic.
pub fn decode<G: Game>(bytes: &[u8]) -> Result<Solution<G>, FileError> {
    let header = read_header::<G>(bytes)?;
    let body = &bytes[HEADER_LEN..];
    let computed = fnv1a64(body);
    if computed != header.checksum {
        return Err(FileError::ChecksumMismatch {
            stored: header.checksum,
            computed,
        });
    }
    let config = bincode::config::standard().with_limit::<MAX_PAYLOAD>();
    let (payload, used): (Payload, usize) = bincode::serde::decode_from_slice(body, config)
        .map_err(|e| FileError::Decode {
            reason: e.to_string(),
        })?;
    if used != body.len() {
        return Err(FileError::Decode {
            reason: format!("{} bytes left after the payload", body.len() - used),
        });
    }
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
/// As [`encode`], and [`FileError::Io`].
pub fn write_file<G: Game>(sol: &Solution<G>, path: &Path) -> Result<(), FileError> {
    let bytes = encode(sol)?;
    fs::write(path, bytes).map_err(|source| FileError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads and checks a tree file.
///
/// Only a regular file is read (a symbolic link to one is followed): a directory, a device
/// such as `/dev/zero`, a FIFO or a socket is [`FileError::NotAFile`], without reading from
/// it. The fixed header is read and checked first; the payload length it declares must be at
/// most 1 GiB ([`FileError::TooLarge`]) and match the file's length
/// ([`FileError::Truncated`], [`FileError::TrailingBytes`]) before any of the payload is read,
/// so memory use is bounded by the size of the file, whatever its header claims. Then exactly
/// the declared payload is read and checked as by [`decode`].
///
/// # Errors
/// [`FileError::Io`], [`FileError::NotAFile`], and as [`decode`].
pub fn read_file<G: Game>(path: &Path) -> Result<Solution<G>, FileError> {
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let not_a_file = || FileError::NotAFile {
        path: path.to_path_buf(),
    };
    // Checked before opening: opening a FIFO for reading blocks until a writer appears.
    if !fs::metadata(path).map_err(io)?.is_file() {
        return Err(not_a_file());
    }
    let file = fs::File::open(path).map_err(io)?;
    // Checked again on the open file, in case the path changed in between.
    let meta = file.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_a_file());
    }
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    (&file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let header = parse_header::<G>(&bytes)?;
    check_len(&header, meta.len())?;
    // The payload fits in memory: it is at most `MAX_PAYLOAD` bytes and no longer than the
    // file. One byte more is asked for to notice a file that grew since its length was read.
    let want = header.payload_len + 1;
    bytes.reserve_exact(usize::try_from(want).map_err(|_| FileError::TooLarge {
        len: header.payload_len,
    })?);
    (&file).take(want).read_to_end(&mut bytes).map_err(io)?;
    check_len(&header, bytes.len() as u64)?;
    decode(&bytes)
}
