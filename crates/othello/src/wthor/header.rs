//! The 16-byte header that starts every WTHOR file, and the split of a file into records.

use super::WthorError;

/// The length of the header in bytes.
pub const HEADER_LEN: usize = 16;

/// The 16-byte header of a WTHOR file (`.wtb` games, `.jou` players, `.trn` tournaments).
///
/// | bytes | field |
/// | --- | --- |
/// | 0-3 | the creation date: century, year in the century, month, day (one byte each) |
/// | 4-7 | `N1`, the number of games (`.wtb`; 0 in the name files), `u32` little-endian |
/// | 8-9 | `N2`, the number of names (`.jou`, `.trn`; 0 in a game file), `u16` little-endian |
/// | 10-11 | the year the games were played (`.wtb`), `u16` little-endian |
/// | 12 | `P1`, the board size: 0 or 8 for 8x8 (10 for 10x10, not read here) |
/// | 13 | `P2`, the game type |
/// | 14 | `P3`, the depth (empty squares) from which the theoretical scores are exact |
/// | 15 | reserved |
///
/// The fields are kept as they are read; the writers set the count of the records they write
/// (`games` or `names`) and leave the others as given.
///
/// ```
/// use yomi_othello::wthor::Header;
///
/// let header = Header { century: 20, year: 24, games: 3, game_year: 2023, board_size: 8,
///                       ..Header::default() };
/// let bytes = header.to_bytes();
/// assert_eq!(&bytes[..8], &[20, 24, 0, 0, 3, 0, 0, 0]);
/// assert_eq!(Header::from_bytes(&bytes)?, header);
/// assert_eq!(header.created_year(), 2024);
/// # Ok::<(), yomi_othello::wthor::WthorError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// The century of the creation date (`20` for 2024).
    pub century: u8,
    /// The year of the creation date within its century (`24` for 2024).
    pub year: u8,
    /// The month of the creation date, 1 to 12.
    pub month: u8,
    /// The day of the creation date, 1 to 31.
    pub day: u8,
    /// `N1`: the number of games of a `.wtb` file.
    pub games: u32,
    /// `N2`: the number of names of a `.jou` or `.trn` file.
    pub names: u16,
    /// The year the games of a `.wtb` file were played.
    pub game_year: u16,
    /// `P1`: the board size, 0 or 8 for 8x8.
    pub board_size: u8,
    /// `P2`: the game type.
    pub game_type: u8,
    /// `P3`: the depth (number of empty squares) from which the theoretical scores are exact.
    pub depth: u8,
    /// The reserved last byte.
    pub reserved: u8,
}

impl Header {
    /// Reads the header from the first 16 bytes of `bytes` (the rest is not looked at).
    ///
    /// # Errors
    /// [`WthorError::TruncatedHeader`] when there are fewer than 16 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Header, WthorError> {
        let Some(b) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(WthorError::TruncatedHeader { len: bytes.len() });
        };
        Ok(Header {
            century: b[0],
            year: b[1],
            month: b[2],
            day: b[3],
            games: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            names: u16::from_le_bytes([b[8], b[9]]),
            game_year: u16::from_le_bytes([b[10], b[11]]),
            board_size: b[12],
            game_type: b[13],
            depth: b[14],
            reserved: b[15],
        })
    }

    /// The 16 bytes of the header.
    #[must_use]
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut b = [0; HEADER_LEN];
        b[..4].copy_from_slice(&[self.century, self.year, self.month, self.day]);
        b[4..8].copy_from_slice(&self.games.to_le_bytes());
        b[8..10].copy_from_slice(&self.names.to_le_bytes());
        b[10..12].copy_from_slice(&self.game_year.to_le_bytes());
        b[12..].copy_from_slice(&[self.board_size, self.game_type, self.depth, self.reserved]);
        b
    }

    /// The year of the creation date: `century * 100 + year`.
    #[must_use]
    pub fn created_year(&self) -> u16 {
        u16::from(self.century) * 100 + u16::from(self.year)
    }

    /// Whether the board size says 8x8 (`P1` is 0 or 8).
    #[must_use]
    pub fn is_8x8(&self) -> bool {
        matches!(self.board_size, 0 | 8)
    }

    /// [`WthorError::UnsupportedBoard`] unless the board is 8x8.
    pub(super) fn check_board(&self) -> Result<(), WthorError> {
        if self.is_8x8() {
            Ok(())
        } else {
            Err(WthorError::UnsupportedBoard {
                size: self.board_size,
            })
        }
    }
}

/// The records of a file after its header: exactly `declared` records of `size` bytes.
pub(super) fn records(
    bytes: &[u8],
    declared: u64,
    size: usize,
) -> Result<std::slice::ChunksExact<'_, u8>, WthorError> {
    let body = &bytes[HEADER_LEN.min(bytes.len())..];
    // At most 2^32 records of at most 68 bytes: no overflow in u64.
    let needed = declared * size as u64;
    let have = body.len() as u64;
    if have < needed {
        return Err(WthorError::TruncatedRecord {
            record: body.len() / size + 1,
            declared,
            size,
            missing: usize::try_from(needed - have).unwrap_or(usize::MAX),
        });
    }
    if have > needed {
        return Err(WthorError::TrailingBytes {
            declared,
            size,
            extra: usize::try_from(have - needed).unwrap_or(usize::MAX),
        });
    }
    Ok(body.chunks_exact(size))
}

/// The count of `len` records as the header writes it.
pub(super) fn count<T: TryFrom<usize>>(len: usize, max: u64) -> Result<T, WthorError> {
    T::try_from(len).map_err(|_| WthorError::TooManyRecords { count: len, max })
}
