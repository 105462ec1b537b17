//! The infinite-playout choices of the Monte Carlo rules, and the audit that compares them
//! with the minimax best moves.

use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{AgentSpec, Game, Symmetric};

use crate::{ParseRatioError, Ratio, Scoring, Solution, TreeError};

/// A Monte Carlo move rule in its infinite-playout limit, where each move's playout results
/// are the exact probabilities of the position after it.
///
/// Notation: `pmc`, `pmc2` (alpha 1/2) or `pmc2:alpha=A` with `A` a fraction or decimal
/// from 0 to 1 (read by [`parse_alpha`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayoutRule {
    /// Maximise the mover's win probability; ties broken by the draw probability.
    Pmc,
    /// Maximise the mover's playout score `P(win) + alpha * P(draw)`.
    Pmc2 {
        /// The weight of a draw, from 0 to 1 (see [`check_alpha`]; parsing and
        /// [`TreeAgent::new`](crate::TreeAgent::new) reject other values).
        alpha: Ratio,
    },
}

/// Why an `alpha` (the weight of a draw in a playout score) is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum AlphaError {
    /// The text is not a number.
    #[error(transparent)]
    Parse(#[from] ParseRatioError),
    /// The number is above 1 (a draw would be worth more than a win).
    #[error("{alpha} is not between 0 and 1")]
    OutOfRange {
        /// The value given.
        alpha: Ratio,
    },
}

/// Checks that `alpha`, the weight of a draw in the playout score `P(win) + alpha * P(draw)`,
/// lies in `[0, 1]`, the range the `pmc2` agents accept, and returns it.
///
/// Every alpha the tree crate parses or is given goes through this function
/// ([`PlayoutRule`]'s `FromStr`, [`TreeAgent::from_spec`](crate::TreeAgent::from_spec) and
/// [`TreeAgent::new`](crate::TreeAgent::new)); other crates can call it to apply the same
/// rule. A [`Ratio`] is never negative, so only the upper bound can fail.
///
/// ```
/// use yomi_tree::{check_alpha, AlphaError, Ratio};
/// assert_eq!(check_alpha(Ratio::HALF), Ok(Ratio::HALF));
/// assert_eq!(check_alpha(Ratio::ONE), Ok(Ratio::ONE));
/// assert!(matches!(check_alpha(Ratio::integer(5)), Err(AlphaError::OutOfRange { .. })));
/// ```
///
/// # Errors
/// [`AlphaError::OutOfRange`] if `alpha > 1`.
pub fn check_alpha(alpha: Ratio) -> Result<Ratio, AlphaError> {
    if alpha > Ratio::ONE {
        return Err(AlphaError::OutOfRange { alpha });
    }
    Ok(alpha)
}

/// Parses an alpha written as a fraction or a decimal (`1/3`, `0.25`, `1`; see [`Ratio`]'s
/// notation) and checks it with [`check_alpha`].
///
/// ```
/// use yomi_tree::{parse_alpha, Ratio};
/// assert_eq!(parse_alpha("0.5"), Ok(Ratio::HALF));
/// assert!(parse_alpha("5").is_err());
/// assert!(parse_alpha("x").is_err());
/// ```
///
/// # Errors
/// [`AlphaError::Parse`] if the text is not a number, [`AlphaError::OutOfRange`] if it is
/// above 1.
pub fn parse_alpha(text: &str) -> Result<Ratio, AlphaError> {
    check_alpha(text.parse()?)
}

/// The alpha of a `pmc2` rule from its optional `alpha` parameter: 1/2 when absent.
pub(crate) fn alpha_param(value: Option<&str>) -> Result<Ratio, AlphaError> {
    value.map_or(Ok(Ratio::HALF), parse_alpha)
}

/// Why a [`PlayoutRule`] did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseRuleError {
    /// Not `pmc`, `pmc2` or `pmc2:alpha=A`.
    #[error("bad rule {text:?}: expected pmc, pmc2 or pmc2:alpha=A")]
    Invalid {
        /// The text.
        text: String,
    },
    /// The alpha did not parse or is not between 0 and 1.
    #[error("bad alpha: {0}")]
    Alpha(#[from] AlphaError),
}

impl fmt::Display for PlayoutRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayoutRule::Pmc => f.write_str("pmc"),
            PlayoutRule::Pmc2 { alpha } => write!(f, "pmc2:alpha={alpha}"),
        }
    }
}

impl FromStr for PlayoutRule {
    type Err = ParseRuleError;

    fn from_str(s: &str) -> Result<PlayoutRule, ParseRuleError> {
        let invalid = || ParseRuleError::Invalid {
            text: s.to_string(),
        };
        let spec: AgentSpec = s.parse().map_err(|_| invalid())?;
        match (spec.name(), spec.params()) {
            ("pmc", []) => Ok(PlayoutRule::Pmc),
            ("pmc2", []) => Ok(PlayoutRule::Pmc2 {
                alpha: alpha_param(None)?,
            }),
            ("pmc2", [(key, value)]) if key == "alpha" => Ok(PlayoutRule::Pmc2 {
                alpha: alpha_param(Some(value))?,
            }),
            _ => Err(invalid()),
        }
    }
}

impl PlayoutRule {
    /// The indices (into the legal moves of `id`) of the moves this rule plays in the limit of
    /// infinitely many playouts; every tie is kept. Empty for a finished position. All
    /// comparisons are exact.
    ///
    /// # Errors
    /// [`TreeError::Overflow`] if a playout score does not fit.
    pub fn choices<G: Game>(&self, sol: &Solution<G>, id: usize) -> Result<Vec<usize>, TreeError> {
        let graph = sol.graph();
        let mover = graph.position(id).side_to_move();
        let keys = graph
            .children(id)
            .map(|c| {
                let p = sol.probs(c);
                match self {
                    PlayoutRule::Pmc => Ok((p.win(mover), p.draw())),
                    PlayoutRule::Pmc2 { alpha } => Ok((p.score(mover, *alpha)?, Ratio::ZERO)),
                }
            })
            .collect::<Result<Vec<(Ratio, Ratio)>, TreeError>>()?;
        let top = keys.iter().max();
        Ok(keys
            .iter()
            .enumerate()
            .filter(|&(_, k)| Some(k) == top)
            .map(|(i, _)| i)
            .collect())
    }
}

/// A position where a rule's choices are not all minimax best moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditFinding<G: Game> {
    /// The position's id in the solution's graph.
    pub id: usize,
    /// The position.
    pub position: G,
    /// Where the full tree's breadth-first traversal first met it (0 = the start).
    pub rank: usize,
    /// The moves the rule plays.
    pub rule_moves: Vec<G::Move>,
    /// The minimax best moves.
    pub best_moves: Vec<G::Move>,
}

/// The result of [`audit`] or [`audit_symmetric`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuditReport<G: Game> {
    /// The rule audited.
    pub rule: PlayoutRule,
    /// The minimax scoring it was compared with.
    pub scoring: Scoring,
    /// Unfinished positions checked (after skipping repeats and symmetric images).
    pub checked: usize,
    /// Every position where the rule's set is not a subset of the best moves, in traversal
    /// order.
    pub findings: Vec<AuditFinding<G>>,
}

/// Goes through the full game tree breadth first and lists every unfinished position where
/// `rule`'s choices are not a subset of the minimax best moves under `scoring`, checking each
/// distinct position once.
///
/// # Errors
/// [`TreeError::Overflow`] if a playout score does not fit.
pub fn audit<G: Game>(
    sol: &Solution<G>,
    rule: PlayoutRule,
    scoring: Scoring,
) -> Result<AuditReport<G>, TreeError> {
    audit_by(sol, rule, scoring, |id| id as u64)
}

/// As [`audit`], but a position is skipped when one of its symmetric images (same
/// [`Symmetric::canonical_key`]) was already checked.
///
/// # Errors
/// [`TreeError::Overflow`] if a playout score does not fit.
pub fn audit_symmetric<G: Symmetric>(
    sol: &Solution<G>,
    rule: PlayoutRule,
    scoring: Scoring,
) -> Result<AuditReport<G>, TreeError> {
    audit_by(sol, rule, scoring, |id| {
        sol.graph().position(id).canonical_key()
    })
}

fn audit_by<G: Game>(
    sol: &Solution<G>,
    rule: PlayoutRule,
    scoring: Scoring,
    key: impl Fn(usize) -> u64,
) -> Result<AuditReport<G>, TreeError> {
    let graph = sol.graph();
    let mut seen_ids = vec![false; graph.len()];
    let mut seen_keys = HashSet::new();
    let mut checked = 0;
    let mut findings = Vec::new();
    for (rank, node) in graph.full_tree_bfs().enumerate() {
        let id = node.id;
        // A repeat of a position is skipped without hashing its key again.
        if std::mem::replace(&mut seen_ids[id], true) || !seen_keys.insert(key(id)) {
            continue;
        }
        if graph.outcome(id).is_some() {
            continue;
        }
        checked += 1;
        let chosen = rule.choices(sol, id)?;
        let best = sol.best_indices(id, scoring);
        if !chosen.iter().all(|k| best.contains(k)) {
            let moves = graph.moves(id);
            findings.push(AuditFinding {
                id,
                position: graph.position(id).clone(),
                rank,
                rule_moves: chosen.iter().map(|&k| moves[k]).collect(),
                best_moves: best.iter().map(|&k| moves[k]).collect(),
            });
        }
    }
    Ok(AuditReport {
        rule,
        scoring,
        checked,
        findings,
    })
}
