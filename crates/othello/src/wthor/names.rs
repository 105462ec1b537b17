//! `.jou` and `.trn` files: players' and tournaments' names.

use super::header::{count, records, Header, HEADER_LEN};
use super::WthorError;

/// Which names a name file holds, and so the size of its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// A `.jou` file: players, 20-byte records.
    Players,
    /// A `.trn` file: tournaments, 26-byte records.
    Tournaments,
}

impl NameKind {
    /// The size of a record in bytes: 20 for a player, 26 for a tournament.
    #[must_use]
    pub const fn record_len(self) -> usize {
        match self {
            NameKind::Players => 20,
            NameKind::Tournaments => 26,
        }
    }
}

/// A `.jou` (players) or `.trn` (tournaments) file: the header, then one record per name, the
/// name in Latin-1 padded with NUL bytes to the record's size (so at most 19 characters for a
/// player and 25 for a tournament, a NUL after them). A game refers to a name by its place in
/// the file, from 0.
///
/// Reading takes each name up to its first NUL (the whole record if there is none), each byte
/// the Unicode character of the same number; writing needs every character to be Latin-1
/// (`U+0001` to `U+00FF`) and pads with NUL bytes.
///
/// ```
/// use yomi_othello::wthor::{NameFile, NameKind};
///
/// let mut players = NameFile::new(NameKind::Players);
/// players.names = vec!["Lazard Emmanuel".into(), "Tastet Marc".into(), "Müller".into()];
/// let bytes = players.to_bytes()?;
/// assert_eq!(bytes.len(), 16 + 3 * 20);
/// assert_eq!(bytes[16 + 40 + 1], 0xFC); // ü in Latin-1
/// let again = NameFile::read(NameKind::Players, &bytes)?;
/// assert_eq!(again.names, players.names);
/// assert_eq!(again.header.names, 3); // the writer counts the names
/// assert_eq!(again.name(2), Some("Müller"));
/// # Ok::<(), yomi_othello::wthor::WthorError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameFile {
    /// Players or tournaments.
    pub kind: NameKind,
    /// The header (its `names` count is set from [`NameFile::names`] when written).
    pub header: Header,
    /// The names, in the order of the file.
    pub names: Vec<String>,
}

impl NameFile {
    /// An empty file of `kind`.
    #[must_use]
    pub fn new(kind: NameKind) -> NameFile {
        NameFile {
            kind,
            header: Header::default(),
            names: Vec::new(),
        }
    }

    /// Reads a `.jou` ([`NameKind::Players`]) or `.trn` ([`NameKind::Tournaments`]) file: the
    /// header's `names` count of records.
    ///
    /// # Errors
    /// [`WthorError`] for a short header or a length that disagrees with the count.
    pub fn read(kind: NameKind, bytes: &[u8]) -> Result<NameFile, WthorError> {
        let header = Header::from_bytes(bytes)?;
        let names = records(bytes, u64::from(header.names), kind.record_len())?
            .map(|r| {
                let end = r.iter().position(|&b| b == 0).unwrap_or(r.len());
                r[..end].iter().map(|&b| char::from(b)).collect()
            })
            .collect();
        Ok(NameFile {
            kind,
            header,
            names,
        })
    }

    /// The name numbered `id` (from 0), if the file has it.
    #[must_use]
    pub fn name(&self, id: u16) -> Option<&str> {
        self.names.get(usize::from(id)).map(String::as_str)
    }

    /// The bytes of the file: the header with its `names` count set, then the names.
    ///
    /// # Errors
    /// [`WthorError::NameTooLong`] or [`WthorError::NotLatin1`] for a name that cannot be
    /// written, [`WthorError::TooManyRecords`] beyond `u16::MAX` names.
    pub fn to_bytes(&self) -> Result<Vec<u8>, WthorError> {
        let size = self.kind.record_len();
        let header = Header {
            names: count(self.names.len(), u64::from(u16::MAX))?,
            ..self.header
        };
        let mut out = Vec::with_capacity(HEADER_LEN + size * self.names.len());
        out.extend_from_slice(&header.to_bytes());
        for (i, name) in self.names.iter().enumerate() {
            let record = i + 1;
            let bytes = name
                .chars()
                .map(|c| u8::try_from(c).ok().filter(|&b| b != 0))
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| WthorError::NotLatin1 {
                    record,
                    name: name.clone(),
                })?;
            if bytes.len() >= size {
                return Err(WthorError::NameTooLong {
                    record,
                    name: name.clone(),
                    max: size - 1,
                });
            }
            out.extend_from_slice(&bytes);
            out.resize(out.len() + size - bytes.len(), 0);
        }
        Ok(out)
    }
}
