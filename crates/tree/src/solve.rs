//! Minimax values (plain and shortest victory), best moves and exact playout probabilities of
//! every position of a [`Graph`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Game, Outcome, Player};

use crate::{Graph, Probs, TreeError};

/// Which minimax scoring a best-move set is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The first player's win scores 1, a draw 0, the second player's win -1.
    Plain,
    /// Shortest victory: faster wins and slower losses score higher (see [`SvValue`]).
    ShortestVictory,
}

/// Why a [`Scoring`] did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad scoring {text:?}: expected plain or sv")]
pub struct ParseScoringError {
    text: String,
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scoring::Plain => "plain",
            Scoring::ShortestVictory => "sv",
        })
    }
}

impl FromStr for Scoring {
    type Err = ParseScoringError;

    fn from_str(s: &str) -> Result<Scoring, ParseScoringError> {
        match s.trim() {
            "plain" | "minimax" => Ok(Scoring::Plain),
            "sv" | "shortest-victory" => Ok(Scoring::ShortestVictory),
            _ => Err(ParseScoringError {
                text: s.to_string(),
            }),
        }
    }
}

/// A shortest-victory minimax value.
///
/// The value of a finished game ending at ply `p` (plies from the start) of a game whose
/// longest possible play lasts `L` plies is, doubled (`twice`, so that it stays an integer):
/// `L + 2 - p` if the first player won, `p - L - 1` if the second player won, `0` for a draw;
/// values propagate by max (first player to move) and min (second player). For tic-tac-toe
/// (`L = 9`, `p` = the number of marks `d`) this is exactly `(11 - d)/2` for an O win and
/// `(d - 10)/2` for an X win.
///
/// The best moves are computed from the outcome and the number of plies to the end, which
/// never depend on how a position was reached. The value itself needs the position's ply; it
/// uses the graph depth (the fewest plies from the start), which is *the* ply in every game
/// where all paths to a position have the same length (tic-tac-toe); in other games (the
/// stone game) it is the value as if the position were reached by its shortest path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SvValue {
    /// The outcome under shortest-victory play by both sides.
    pub outcome: Outcome,
    /// Plies from the position to the end of that play (along the first best move each time).
    pub plies: u32,
    /// Twice the value, from the first player's side.
    pub twice: i64,
}

impl SvValue {
    /// The value as an `f64` (`twice / 2`).
    #[must_use]
    pub fn to_f64(self) -> f64 {
        self.twice as f64 / 2.0
    }

    /// The value seen by `player`, as an `f64`.
    #[must_use]
    pub fn for_player(self, player: Player) -> f64 {
        f64::from(player.sign()) * self.to_f64()
    }
}

impl fmt::Display for SvValue {
    /// The exact value: `3/2`, `-2`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&Half(self.twice), f)
    }
}

/// Displays a doubled value as the exact half-integer: `Half(3)` is `3/2`, `Half(-4)` is `-2`.
pub(crate) struct Half(pub(crate) i64);

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}/2", self.0)
        }
    }
}

/// The order key of a shortest-victory result from the first player's side: faster first
/// wins are larger, faster second wins smaller.
fn sv_key(outcome: Outcome, plies: u32) -> i64 {
    const BIG: i64 = 1 << 40;
    match outcome {
        Outcome::Win(Player::First) => BIG - i64::from(plies),
        Outcome::Win(Player::Second) => i64::from(plies) - BIG,
        Outcome::Draw => 0,
    }
}

/// Twice the shortest-victory value of a game ending at ply `end` of a game lasting at most
/// `longest` plies.
pub(crate) fn sv_twice(outcome: Outcome, end: u32, longest: u32) -> i64 {
    let (end, longest) = (i64::from(end), i64::from(longest));
    match outcome {
        Outcome::Win(Player::First) => longest + 2 - end,
        Outcome::Win(Player::Second) => end - longest - 1,
        Outcome::Draw => 0,
    }
}

const BEST_PLAIN: u8 = 1;
const BEST_SV: u8 = 2;

/// Everything the tree builder knows about a game from a start position: the merged
/// [`Graph`], and for every position the plain and shortest-victory minimax values and best
/// moves and the exact random-playout probabilities.
///
/// ```
/// use yomi_core::{Game, Player};
/// use yomi_nim::Nim;
/// use yomi_tree::{Scoring, Solution};
/// let sol = Solution::build(Nim::default())?;
/// let root = 0;
/// assert_eq!(sol.plain(root), 1); // 15 stones: the first player wins
/// // The winning move leaves a multiple of 4: take 3.
/// assert_eq!(sol.best_moves(root, Scoring::Plain), vec!["3".parse()?]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solution<G: Game> {
    graph: Graph<G>,
    plain: Vec<i8>,
    sv: Vec<(Outcome, u32)>,
    probs: Vec<Probs>,
    /// Per edge: `BEST_PLAIN | BEST_SV` flags.
    best: Vec<u8>,
    longest: u32,
}

/// The per-position data a [`Solution`] is assembled from (used by the file loader).
pub(crate) struct Parts {
    pub plain: Vec<i8>,
    pub sv: Vec<(Outcome, u32)>,
    pub probs: Vec<Probs>,
    pub best: Vec<u8>,
}

impl<G: Game> Solution<G> {
    /// Builds the graph from `start` and solves it.
    ///
    /// # Errors
    /// As [`Graph::build`] and [`Solution::solve`].
    pub fn build(start: G) -> Result<Solution<G>, TreeError> {
        Solution::solve(Graph::build(start)?)
    }

    /// Solves a graph: minimax values and best moves under both scorings and the exact
    /// playout probabilities of every position, children before parents.
    ///
    /// # Errors
    /// [`TreeError::Cycle`] for a game that does not end; [`TreeError::Overflow`] if a
    /// probability's denominator does not fit in 128 bits.
    pub fn solve(graph: Graph<G>) -> Result<Solution<G>, TreeError> {
        let order = graph.post_order()?;
        let n = graph.len();
        let mut plain = vec![0i8; n];
        let mut sv = vec![(Outcome::Draw, 0u32); n];
        let mut probs = vec![Probs::certain(Outcome::Draw); n];
        let mut height = vec![0u32; n];
        let mut best = vec![0u8; graph.edge_count()];
        let mut scratch: Vec<Probs> = Vec::new();
        for &id in &order {
            let id = id as usize;
            if let Some(outcome) = graph.outcome(id) {
                plain[id] = outcome.value_for(Player::First) as i8;
                sv[id] = (outcome, 0);
                probs[id] = Probs::certain(outcome);
                continue;
            }
            let sign = graph.position(id).side_to_move().sign();
            let edges = graph.edges(id);
            let children = || edges.clone().map(|e| graph.child(e));
            let top_plain = children()
                .map(|c| i32::from(plain[c]) * sign)
                .max()
                .ok_or_else(|| TreeError::NoMoves {
                    position: graph.position(id).to_string(),
                })?;
            let key = |c: usize| sv_key(sv[c].0, sv[c].1 + 1) * i64::from(sign);
            let top_sv = children().map(key).max().unwrap_or(0);
            let mut sv_pick = None;
            for e in edges.clone() {
                let c = graph.child(e);
                if i32::from(plain[c]) * sign == top_plain {
                    best[e] |= BEST_PLAIN;
                }
                if key(c) == top_sv {
                    best[e] |= BEST_SV;
                    sv_pick.get_or_insert(c);
                }
            }
            plain[id] = (top_plain * sign) as i8;
            if let Some(c) = sv_pick {
                sv[id] = (sv[c].0, sv[c].1 + 1);
            }
            height[id] = children().map(|c| height[c] + 1).max().unwrap_or(0);
            scratch.clear();
            scratch.extend(children().map(|c| probs[c]));
            probs[id] = Probs::mean(&scratch)?;
        }
        Ok(Solution {
            longest: height[0],
            graph,
            plain,
            sv,
            probs,
            best,
        })
    }

    /// Assembles a solution from stored parts (the data-file loader checks them first).
    pub(crate) fn from_parts(graph: Graph<G>, parts: Parts) -> Result<Solution<G>, TreeError> {
        let order = graph.post_order()?;
        let mut height = vec![0u32; graph.len()];
        for &id in &order {
            let id = id as usize;
            height[id] = graph.children(id).map(|c| height[c] + 1).max().unwrap_or(0);
        }
        Ok(Solution {
            longest: height[0],
            graph,
            plain: parts.plain,
            sv: parts.sv,
            probs: parts.probs,
            best: parts.best,
        })
    }

    /// The merged graph.
    #[must_use]
    pub fn graph(&self) -> &Graph<G> {
        &self.graph
    }

    /// The id of `pos`, if it is reachable from the start.
    #[must_use]
    pub fn id_of(&self, pos: &G) -> Option<usize> {
        self.graph.id_of(pos)
    }

    /// The length in plies of the longest possible game from the start.
    #[must_use]
    pub fn longest_game(&self) -> u32 {
        self.longest
    }

    /// The plain minimax value of `id` from the first player's side: 1, 0 or -1.
    #[must_use]
    pub fn plain(&self, id: usize) -> i8 {
        self.plain[id]
    }

    /// The shortest-victory value of `id`, at the position's graph depth.
    #[must_use]
    pub fn sv(&self, id: usize) -> SvValue {
        self.sv_at(id, self.graph.depth(id))
    }

    /// The shortest-victory value of `id` if it is reached at ply `ply`.
    #[must_use]
    pub fn sv_at(&self, id: usize, ply: u32) -> SvValue {
        let (outcome, plies) = self.sv[id];
        SvValue {
            outcome,
            plies,
            twice: sv_twice(outcome, ply.saturating_add(plies), self.longest),
        }
    }

    /// The exact random-playout probabilities of `id`.
    #[must_use]
    pub fn probs(&self, id: usize) -> Probs {
        self.probs[id]
    }

    /// Whether the `k`-th legal move of `id` is a best move under `scoring`.
    ///
    /// # Panics
    /// If `k` is not below the number of legal moves.
    #[must_use]
    pub fn is_best(&self, id: usize, k: usize, scoring: Scoring) -> bool {
        let edges = self.graph.edges(id);
        assert!(k < edges.len(), "move index {k} out of range");
        self.best[edges.start + k] & flag(scoring) != 0
    }

    /// The indices (into [`Graph::moves`]) of the best moves of `id` under `scoring`.
    #[must_use]
    pub fn best_indices(&self, id: usize, scoring: Scoring) -> Vec<usize> {
        let edges = self.graph.edges(id);
        let start = edges.start;
        edges
            .filter(|&e| self.best[e] & flag(scoring) != 0)
            .map(|e| e - start)
            .collect()
    }

    /// The best moves of `id` under `scoring`, in move order (empty for a finished game).
    #[must_use]
    pub fn best_moves(&self, id: usize, scoring: Scoring) -> Vec<G::Move> {
        let moves = self.graph.moves(id);
        self.best_indices(id, scoring)
            .into_iter()
            .map(|k| moves[k])
            .collect()
    }
}

fn flag(scoring: Scoring) -> u8 {
    match scoring {
        Scoring::Plain => BEST_PLAIN,
        Scoring::ShortestVictory => BEST_SV,
    }
}

/// The per-edge flag byte for a best set of each scoring.
pub(crate) fn best_flags(plain: bool, sv: bool) -> u8 {
    (u8::from(plain) * BEST_PLAIN) | (u8::from(sv) * BEST_SV)
}
