//! The checked file container every yomi data file uses (tree files, Othello weight files,
//! self-play game files): a fixed 50-byte header, then a bincode-2 payload. `docs/formats.md`
//! documents it.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic: the kind of file, e.g. `YOMITREE` ([`Container::magic`]) |
//! | 8 | 2 | format version of that kind, u16 little-endian ([`Container::version`]) |
//! | 10 | 16 | tag: e.g. the game's name in ASCII, zero-padded |
//! | 26 | 8 | record count, u64 LE |
//! | 34 | 8 | payload length in bytes, u64 LE |
//! | 42 | 8 | FNV-1a 64 checksum of the payload, u64 LE ([`fnv1a64`]) |
//! | 50 | ... | payload: bincode 2, `standard()` configuration, through serde |

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;
use thiserror::Error;

/// The size of the fixed header in bytes.
pub const HEADER_LEN: usize = 50;

/// The length of the tag field in bytes.
pub const TAG_LEN: usize = 16;

/// The largest payload the loader accepts (1 GiB): a bound on what a crafted header can make
/// the decoder allocate.
pub const MAX_PAYLOAD: usize = 1 << 30;

/// Why a container file could not be written or read. `what` names the kind of file in the
/// messages ("tree file", "weight file").
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ContainerError {
    /// Reading or writing the file failed.
    #[error("cannot access {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error.
        source: std::io::Error,
    },
    /// The path names something other than a regular file (a directory, a device such as
    /// `/dev/zero`, a FIFO, a socket), which is neither opened nor read.
    #[error("{path} is not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// The file does not start with the expected magic bytes.
    #[error("not a yomi {what} (bad magic bytes)")]
    BadMagic {
        /// The kind of file expected.
        what: &'static str,
    },
    /// The file is shorter than its header says.
    #[error("truncated {what}: {actual} bytes, expected {expected}")]
    Truncated {
        /// The kind of file.
        what: &'static str,
        /// Bytes expected.
        expected: u64,
        /// Bytes present.
        actual: u64,
    },
    /// The file is longer than its header says.
    #[error("{what} has {extra} unexpected bytes after the payload")]
    TrailingBytes {
        /// The kind of file.
        what: &'static str,
        /// Bytes beyond the payload.
        extra: u64,
    },
    /// The file was written by a newer version of the format.
    #[error("{what} format version {found} is newer than the supported version {supported}")]
    NewerVersion {
        /// The kind of file.
        what: &'static str,
        /// The file's version.
        found: u16,
        /// The newest version this build reads.
        supported: u16,
    },
    /// The file's format version is not one this build reads (older or invalid).
    #[error("unsupported {what} format version {found}")]
    UnsupportedVersion {
        /// The kind of file.
        what: &'static str,
        /// The file's version.
        found: u16,
    },
    /// The file's tag (its game) is not the one asked for.
    #[error("{what} is for {found:?}, not {expected:?}")]
    ForeignTag {
        /// The kind of file.
        what: &'static str,
        /// The tag in the file (lossy text).
        found: String,
        /// The tag asked for.
        expected: String,
    },
    /// The payload does not match its checksum: the file is corrupted.
    #[error("corrupted {what}: checksum {computed:016x} does not match {stored:016x}")]
    ChecksumMismatch {
        /// The kind of file.
        what: &'static str,
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the payload.
        computed: u64,
    },
    /// The payload is longer than this build accepts.
    #[error("{what} payload of {len} bytes is too large")]
    TooLarge {
        /// The kind of file.
        what: &'static str,
        /// The declared payload length.
        len: u64,
    },
    /// The payload did not decode.
    #[error("{what} payload does not decode: {reason}")]
    Decode {
        /// The kind of file.
        what: &'static str,
        /// The decoder's message.
        reason: String,
    },
    /// Encoding the payload failed.
    #[error("cannot encode {what}: {reason}")]
    Encode {
        /// The kind of file.
        what: &'static str,
        /// The encoder's message.
        reason: String,
    },
    /// The tag does not fit its 16 bytes.
    #[error("tag {tag:?} is longer than 16 bytes")]
    TagTooLong {
        /// The tag.
        tag: String,
    },
}

/// The fixed header of a container file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContainerHeader {
    /// Format version.
    pub version: u16,
    /// The tag (a game's `NAME`), without its zero padding.
    pub tag: String,
    /// Number of records the payload holds (the kind of file says what a record is).
    pub records: u64,
    /// Payload length in bytes.
    pub payload_len: u64,
    /// FNV-1a 64 checksum of the payload.
    pub checksum: u64,
}

/// FNV-1a, 64 bits (offset basis `0xcbf29ce484222325`, prime `0x100000001b3`): a different
/// single byte anywhere always changes the result.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One kind of container file: its magic bytes, the one format version this build reads and
/// writes, and its name in error messages.
///
/// ```
/// use yomi_core::{Container, ContainerError};
/// const NOTES: Container = Container::new(*b"YOMINOTE", 1, "note file");
/// let bytes = NOTES.encode("demo", 2, &vec![3u8, 4])?;
/// let (header, back): (_, Vec<u8>) = NOTES.decode("demo", &bytes)?;
/// assert_eq!((header.records, back), (2, vec![3, 4]));
/// let mut bad = bytes.clone();
/// *bad.last_mut().unwrap() ^= 1;
/// assert!(matches!(
///     NOTES.decode::<Vec<u8>>("demo", &bad),
///     Err(ContainerError::ChecksumMismatch { .. })
/// ));
/// # Ok::<(), ContainerError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Container {
    /// The first eight bytes of every file of this kind.
    pub magic: [u8; 8],
    /// The format version written and read.
    pub version: u16,
    /// The kind's name in error messages ("tree file").
    pub what: &'static str,
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

impl Container {
    /// A kind of container file.
    #[must_use]
    pub const fn new(magic: [u8; 8], version: u16, what: &'static str) -> Container {
        Container {
            magic,
            version,
            what,
        }
    }

    fn tag_bytes(tag: &str) -> Result<[u8; TAG_LEN], ContainerError> {
        let name = tag.as_bytes();
        if name.len() > TAG_LEN {
            return Err(ContainerError::TagTooLong {
                tag: tag.to_string(),
            });
        }
        let mut id = [0u8; TAG_LEN];
        id[..name.len()].copy_from_slice(name);
        Ok(id)
    }

    /// The bytes of a file: the header (with `tag` and `records`) and `payload` encoded with
    /// bincode's standard configuration. The same payload always gives the same bytes.
    ///
    /// # Errors
    /// [`ContainerError::TagTooLong`], or [`ContainerError::Encode`] when serde refuses.
    pub fn encode<T: Serialize + ?Sized>(
        &self,
        tag: &str,
        records: u64,
        payload: &T,
    ) -> Result<Vec<u8>, ContainerError> {
        let id = Self::tag_bytes(tag)?;
        let body =
            bincode::serde::encode_to_vec(payload, bincode::config::standard()).map_err(|e| {
                ContainerError::Encode {
                    what: self.what,
                    reason: e.to_string(),
                }
            })?;
        let mut out = Vec::with_capacity(HEADER_LEN + body.len());
        out.extend_from_slice(&self.magic);
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&id);
        out.extend_from_slice(&records.to_le_bytes());
        out.extend_from_slice(&(body.len() as u64).to_le_bytes());
        out.extend_from_slice(&fnv1a64(&body).to_le_bytes());
        out.extend_from_slice(&body);
        Ok(out)
    }

    /// Reads and checks the header of a file tagged `tag`: magic, version, tag, and that the
    /// file is exactly as long as the header says.
    ///
    /// # Errors
    /// [`ContainerError::Truncated`], [`ContainerError::BadMagic`],
    /// [`ContainerError::NewerVersion`], [`ContainerError::UnsupportedVersion`],
    /// [`ContainerError::ForeignTag`], [`ContainerError::TooLarge`],
    /// [`ContainerError::TrailingBytes`], [`ContainerError::TagTooLong`].
    pub fn read_header(&self, tag: &str, bytes: &[u8]) -> Result<ContainerHeader, ContainerError> {
        let header = self.parse_header(tag, &bytes[..bytes.len().min(HEADER_LEN)])?;
        self.check_len(&header, bytes.len() as u64)?;
        Ok(header)
    }

    /// Checks the fixed header (the first [`HEADER_LEN`] bytes of a file, or all of a shorter
    /// file): every field, and the payload length against [`MAX_PAYLOAD`]. Not the file length.
    fn parse_header(&self, tag: &str, bytes: &[u8]) -> Result<ContainerHeader, ContainerError> {
        let what = self.what;
        let magic = &self.magic;
        if bytes.len() < HEADER_LEN {
            // A short file that does not even start like one of ours is not one.
            let n = bytes.len().min(magic.len());
            if bytes[..n] != magic[..n] {
                return Err(ContainerError::BadMagic { what });
            }
            return Err(ContainerError::Truncated {
                what,
                expected: HEADER_LEN as u64,
                actual: bytes.len() as u64,
            });
        }
        if bytes[..8] != magic[..] {
            return Err(ContainerError::BadMagic { what });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version > self.version {
            return Err(ContainerError::NewerVersion {
                what,
                found: version,
                supported: self.version,
            });
        }
        if version != self.version {
            return Err(ContainerError::UnsupportedVersion {
                what,
                found: version,
            });
        }
        let id = &bytes[10..10 + TAG_LEN];
        if id != Self::tag_bytes(tag)? {
            let end = id.iter().position(|&b| b == 0).unwrap_or(TAG_LEN);
            return Err(ContainerError::ForeignTag {
                what,
                found: String::from_utf8_lossy(&id[..end]).into_owned(),
                expected: tag.to_string(),
            });
        }
        let records = u64_at(bytes, 26);
        let payload_len = u64_at(bytes, 34);
        let checksum = u64_at(bytes, 42);
        if payload_len > MAX_PAYLOAD as u64 {
            return Err(ContainerError::TooLarge {
                what,
                len: payload_len,
            });
        }
        Ok(ContainerHeader {
            version,
            tag: tag.to_string(),
            records,
            payload_len,
            checksum,
        })
    }

    /// Checks that a file of `actual` bytes is exactly as long as `header` says.
    fn check_len(&self, header: &ContainerHeader, actual: u64) -> Result<(), ContainerError> {
        // `payload_len <= MAX_PAYLOAD` (checked by `parse_header`), so this does not overflow.
        let expected = HEADER_LEN as u64 + header.payload_len;
        if actual < expected {
            return Err(ContainerError::Truncated {
                what: self.what,
                expected,
                actual,
            });
        }
        if actual > expected {
            return Err(ContainerError::TrailingBytes {
                what: self.what,
                extra: actual - expected,
            });
        }
        Ok(())
    }

    /// Checks a whole file (header, length, checksum) and decodes its payload, which must use
    /// every byte. What the payload means (and its record count) the caller checks.
    ///
    /// # Errors
    /// As [`read_header`](Self::read_header), [`ContainerError::ChecksumMismatch`] and
    /// [`ContainerError::Decode`]: a foreign, truncated, corrupted or newer-version file is
    /// always an error, never a panic.
    pub fn decode<T: DeserializeOwned>(
        &self,
        tag: &str,
        bytes: &[u8],
    ) -> Result<(ContainerHeader, T), ContainerError> {
        let header = self.read_header(tag, bytes)?;
        let body = &bytes[HEADER_LEN..];
        let computed = fnv1a64(body);
        if computed != header.checksum {
            return Err(ContainerError::ChecksumMismatch {
                what: self.what,
                stored: header.checksum,
                computed,
            });
        }
        let config = bincode::config::standard().with_limit::<MAX_PAYLOAD>();
        let decode = |reason: String| ContainerError::Decode {
            what: self.what,
            reason,
        };
        let (payload, used): (T, usize) =
            bincode::serde::decode_from_slice(body, config).map_err(|e| decode(e.to_string()))?;
        if used != body.len() {
            return Err(decode(format!(
                "{} bytes left after the payload",
                body.len() - used
            )));
        }
        Ok((header, payload))
    }

    /// Writes `bytes` (from [`encode`](Self::encode)) to `path`, never half: they go to a
    /// temporary file beside it (`.NAME.tmp-PID`), which is then renamed over `path`, so a
    /// reader sees the old file or the new one whole, and a failed write leaves the old file.
    ///
    /// # Errors
    /// [`ContainerError::Io`] (the temporary file is removed).
    pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), ContainerError> {
        let io = |source| ContainerError::Io {
            path: path.to_path_buf(),
            source,
        };
        let name = path
            .file_name()
            .ok_or_else(|| io(std::io::Error::other("the path names no file")))?;
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".tmp-{}", std::process::id()));
        let temp = path.with_file_name(temp_name);
        let written = fs::write(&temp, bytes).and_then(|()| fs::rename(&temp, path));
        if written.is_err() {
            let _ = fs::remove_file(&temp);
        }
        written.map_err(io)
    }

    /// Reads the bytes of a file tagged `tag` whose header and length check out (not yet the
    /// checksum: [`decode`](Self::decode) the result).
    ///
    /// Only a regular file is read (a symbolic link to one is followed): a directory, a device
    /// such as `/dev/zero`, a FIFO or a socket is [`ContainerError::NotAFile`], without reading
    /// from it. The fixed header is read and checked first; the payload length it declares
    /// must be at most 1 GiB ([`ContainerError::TooLarge`]) and match the file's length
    /// ([`ContainerError::Truncated`], [`ContainerError::TrailingBytes`]) before any of the
    /// payload is read, so memory use is bounded by the size of the file, whatever its header
    /// claims.
    ///
    /// # Errors
    /// [`ContainerError::Io`], [`ContainerError::NotAFile`], and as
    /// [`read_header`](Self::read_header).
    pub fn read_bytes(&self, tag: &str, path: &Path) -> Result<Vec<u8>, ContainerError> {
        let io = |source| ContainerError::Io {
            path: path.to_path_buf(),
            source,
        };
        let not_a_file = || ContainerError::NotAFile {
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
        let header = self.parse_header(tag, &bytes)?;
        self.check_len(&header, meta.len())?;
        // The payload fits in memory: it is at most `MAX_PAYLOAD` bytes and no longer than the
        // file. One byte more is asked for to notice a file that grew since its length was read.
        let want = header.payload_len + 1;
        bytes.reserve_exact(usize::try_from(want).map_err(|_| ContainerError::TooLarge {
            what: self.what,
            len: header.payload_len,
        })?);
        (&file).take(want).read_to_end(&mut bytes).map_err(io)?;
        self.check_len(&header, bytes.len() as u64)?;
        Ok(bytes)
    }

    /// [`read_bytes`](Self::read_bytes) then [`decode`](Self::decode).
    ///
    /// # Errors
    /// As both.
    pub fn read_file<T: DeserializeOwned>(
        &self,
        tag: &str,
        path: &Path,
    ) -> Result<(ContainerHeader, T), ContainerError> {
        let bytes = self.read_bytes(tag, path)?;
        self.decode(tag, &bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: Container = Container::new(*b"YOMITEST", 1, "test file");

    #[test]
    fn files_are_written_whole_through_a_temporary_name() {
        let dir = std::env::temp_dir().join(format!("yomi-container-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.test");
        let old = TEST.encode("t", 1, &vec![1u8, 2, 3]).unwrap();
        Container::write_bytes(&path, &old).unwrap();
        let new = TEST.encode("t", 2, &vec![4u8; 1000]).unwrap();
        Container::write_bytes(&path, &new).unwrap();
        assert_eq!(TEST.read_bytes("t", &path).unwrap(), new);
        // Nothing is left beside it.
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.test")]);
        // A write that cannot finish (the target is a directory) leaves no temporary file.
        let blocked = dir.join("blocked");
        fs::create_dir_all(blocked.join("inside")).unwrap();
        assert!(matches!(
            Container::write_bytes(&blocked, &new),
            Err(ContainerError::Io { .. })
        ));
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        assert!(Container::write_bytes(&dir.join("no/such/dir/x"), &new).is_err());
        fs::remove_dir_all(&dir).ok();
    }
}
