//! Opening sets: start positions for game pairs.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Game, Rng};

/// One opening: the line as written in its file and the position it leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening<G> {
    /// The opening's text (a move line or a position), without comment or value.
    pub text: String,
    /// The position the games start from.
    pub position: G,
    /// The value written after a tab, if any.
    pub value: Option<f64>,
    /// The line number in the file (from 1).
    pub line: usize,
}

/// In what order rounds take the openings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningOrder {
    /// Round `r` plays opening `r mod n`, as listed.
    #[default]
    Sequential,
    /// Round `r` plays opening `perm[r mod n]`, `perm` a shuffle seeded by the match seed.
    Random,
}

impl fmt::Display for OpeningOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpeningOrder::Sequential => "sequential",
            OpeningOrder::Random => "random",
        })
    }
}

impl FromStr for OpeningOrder {
    type Err = OpeningsError;

    fn from_str(s: &str) -> Result<OpeningOrder, OpeningsError> {
        match s {
            "sequential" => Ok(OpeningOrder::Sequential),
            "random" => Ok(OpeningOrder::Random),
            _ => Err(OpeningsError::Order(s.to_string())),
        }
    }
}

/// A bad openings file.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum OpeningsError {
    /// A line is not an opening of the game.
    #[error("{name} line {line}: {reason}")]
    Line {
        /// The file's name.
        name: String,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file holds no opening.
    #[error("{0}: no openings in the file")]
    Empty(String),
    /// An unknown order.
    #[error("unknown openings order {0:?} (expected sequential or random)")]
    Order(String),
}

/// Where a match's games start: one position, or a set of openings played in pairs.
#[derive(Clone, Debug)]
pub struct Openings<G> {
    name: String,
    openings: Vec<Opening<G>>,
    order: OpeningOrder,
    perm: Vec<usize>,
    digest: u64,
}

/// What identifies an opening set in results and records.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpeningsInfo {
    /// The file's name (or `start position ...` for a single position).
    pub name: String,
    /// The number of openings.
    pub count: usize,
    /// The order rounds take them in.
    pub order: OpeningOrder,
    /// FNV-1a hash of the openings' texts, in hexadecimal: two files with the same name and
    /// different lines differ here.
    pub digest: String,
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: impl IntoIterator<Item = u8>, mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;

impl<G: Game> Openings<G> {
    fn build(name: String, openings: Vec<Opening<G>>) -> Openings<G> {
        let mut digest = FNV_OFFSET;
        for o in &openings {
            digest = fnv1a(o.text.bytes().chain([b'\n']), digest);
        }
        let perm = (0..openings.len()).collect();
        Openings {
            name,
            openings,
            order: OpeningOrder::Sequential,
            perm,
            digest,
        }
    }

    /// Every game from one position (`start`).
    #[must_use]
    pub fn single(start: G) -> Openings<G> {
        let text = start.to_string();
        Openings::build(
            format!("start position {text}"),
            vec![Opening {
                text,
                position: start,
                value: None,
                line: 0,
            }],
        )
    }

    /// Parses an openings file named `name`: one opening per line, `#` starting a comment,
    /// blank lines ignored, and an optional value after a tab. `parse` turns a line's text into
    /// its position (a position in the game's notation or a line of moves from the start);
    /// a finished position is refused.
    ///
    /// # Errors
    /// [`OpeningsError::Line`] naming the first bad line, [`OpeningsError::Empty`] for a file
    /// without openings.
    pub fn parse<E: fmt::Display>(
        name: &str,
        text: &str,
        parse: impl Fn(&str) -> Result<G, E>,
    ) -> Result<Openings<G>, OpeningsError> {
        let mut openings = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let bad = |reason: String| OpeningsError::Line {
                name: name.to_string(),
                line,
                reason,
            };
            let content = raw.split('#').next().unwrap_or("");
            let (body, value) = match content.split_once('\t') {
                Some((body, value)) if !value.trim().is_empty() => {
                    let v: f64 = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|v: &f64| v.is_finite())
                        .ok_or_else(|| bad(format!("bad value {:?}", value.trim())))?;
                    (body.trim(), Some(v))
                }
                Some((body, _)) => (body.trim(), None),
                None => (content.trim(), None),
            };
            if body.is_empty() {
                continue;
            }
            let position = parse(body).map_err(|e| bad(format!("{body:?}: {e}")))?;
            if position.is_over() {
                return Err(bad(format!("{body:?} is a finished game")));
            }
            openings.push(Opening {
                text: body.to_string(),
                position,
                value,
                line,
            });
        }
        if openings.is_empty() {
            return Err(OpeningsError::Empty(name.to_string()));
        }
        Ok(Openings::build(name.to_string(), openings))
    }

    /// This set taken in `order`; the random order is a shuffle seeded by `seed`.
    #[must_use]
    pub fn with_order(mut self, order: OpeningOrder, seed: u64) -> Openings<G> {
        self.order = order;
        self.perm = (0..self.openings.len()).collect();
        if order == OpeningOrder::Random {
            // Fisher-Yates from a stream of its own, so the games' streams stay unchanged.
            let mut rng = Rng::for_stream(seed ^ 0x0BE1_7A55_0DE2_0000, u64::MAX);
            for i in (1..self.perm.len()).rev() {
                let j = rng.below(i + 1);
                self.perm.swap(i, j);
            }
        }
        self
    }

    /// The openings as listed.
    #[must_use]
    pub fn list(&self) -> &[Opening<G>] {
        &self.openings
    }

    /// The number of openings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether the set is empty (never, for a set that was built).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening of round `round` (games `2 * round` and `2 * round + 1`).
    #[must_use]
    pub fn for_round(&self, round: u64) -> &Opening<G> {
        let i = (round % self.openings.len() as u64) as usize;
        &self.openings[self.perm[i]]
    }

    /// What identifies the set.
    #[must_use]
    pub fn info(&self) -> OpeningsInfo {
        OpeningsInfo {
            name: self.name.clone(),
            count: self.openings.len(),
            order: self.order,
            digest: format!("{:016x}", self.digest),
        }
    }
}
