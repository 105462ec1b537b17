//! Adjudication: a game scored as perfect play from a position would end it, instead of
//! being played to the last move.
//!
//! The harness knows adjudication through the [`Adjudicator`] trait only, so it stays generic
//! over [`Game`]: before every move it asks the match's adjudicator (if any) whether the
//! position is decided, and a [`Verdict`] ends the game there. [`SolveAdjudicator`] is the
//! Othello one: from `E` empty squares on (`exact=E` or `wld=E`, `E` at most
//! [`MAX_ADJUDICATE_EMPTIES`]) it solves the position with the endgame solver of
//! `yomi-othello-search`, on one thread and with no time limit.
//!
//! ```
//! use yomi_arena::{Adjudicator, SolveAdjudicator};
//! use yomi_core::{GameResult, StopFlag};
//! use yomi_othello::Othello;
//!
//! let rule: SolveAdjudicator = "exact=14".parse()?;
//! assert_eq!(rule.to_string(), "exact=14");
//! // FFO position #1 (14 empties): black to move wins by 18.
//! let pos: Othello =
//!     "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X".parse()?;
//! let verdict = rule.adjudicate(&pos, &StopFlag::new())?.expect("14 empties: decided");
//! assert_eq!((verdict.result, verdict.margin), (GameResult::Win, Some(18)));
//! // At 13 empties and below only: the game goes on.
//! let rule: SolveAdjudicator = "wld=13".parse()?;
//! assert_eq!(rule.adjudicate(&pos, &StopFlag::new())?, None);
//! assert!("exact=25".parse::<SolveAdjudicator>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;
use yomi_core::{Game, GameResult, Limits, StopFlag};
use yomi_othello::Board;
use yomi_othello_search::{Mode, Solver, SolverConfig};

/// The most empty squares [`SolveAdjudicator`] accepts: a solve from 24 empties on one thread
/// takes seconds, and one from many more would stall a match.
pub const MAX_ADJUDICATE_EMPTIES: u32 = 24;

/// What an adjudicator proves about a position: the result and, where the rule computes it,
/// the final score difference, both for the side to move and with perfect play by both sides.
///
/// # Contract
/// When `margin` is given, its sign is the result's: positive for a win, negative for a loss,
/// zero for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The side to move's result.
    pub result: GameResult,
    /// The side to move's final score difference (Othello: discs, empties to the winner), when
    /// the rule proves it (`exact`); `None` when it proves only the result (`wld`).
    pub margin: Option<i32>,
}

/// Scores a game before its end: the match's rule for deciding a position without playing
/// it out (see [`RunOptions::adjudicator`](crate::RunOptions)).
///
/// # Contract
/// - `Display` names the rule as the user wrote it (e.g. `exact=12`); records and results
///   carry that name.
/// - [`Adjudicator::adjudicate`] depends on the position alone (never on the thread, the time
///   or an earlier call), so a match's results do not depend on the number of threads.
/// - It is called on unfinished positions only, before every move.
pub trait Adjudicator<G: Game>: fmt::Display + fmt::Debug + Send + Sync {
    /// The proved end of the game from `pos`, or `None` to play on. `stop` is the match's stop
    /// flag: a proof it cuts short is an error, and the harness drops the game.
    ///
    /// # Errors
    /// A message when the position should be decided but cannot be (a solver that cannot
    /// start, a solve cut short); the harness stops the match with
    /// [`MatchError::Adjudication`](crate::MatchError).
    fn adjudicate(&self, pos: &G, stop: &StopFlag) -> Result<Option<Verdict>, String>;
}

/// A game that the match's adjudicator decided, as the harness reports it
/// ([`FinishedGame::adjudication`](crate::FinishedGame)) and records keep it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameAdjudication {
    /// The rule, as the adjudicator names it (e.g. `exact=12`).
    pub rule: String,
    /// The position it decided, in the game's notation: the game's moves end there.
    pub position: String,
    /// A's result with perfect play from that position.
    pub result: GameResult,
    /// A's final score difference with perfect play from there, when the rule proves it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margin: Option<i32>,
}

/// Adjudication of Othello (any board size) by endgame solve: `exact=E` or `wld=E`.
///
/// The first position of a game with at most `empties` empty squares whose side to move has
/// a move (not a pass) is solved by [`Solver`] with the default configuration on one thread,
/// a fresh transposition table of [`SolveAdjudicator::HASH_MB`] MiB and no time limit (only
/// the match's stop flag): `exact` proves the final disc difference, `wld` only the result.
/// The verdict depends on the position alone.
///
/// Written and parsed as `exact=E` or `wld=E` with `E` from 0 to [`MAX_ADJUDICATE_EMPTIES`]
/// (`exact=0` never fires: a full board has no move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SolveAdjudicator {
    /// Exact score or win/loss/draw only.
    pub mode: Mode,
    /// Positions with at most this many empty squares are decided.
    pub empties: u32,
}

impl SolveAdjudicator {
    /// The transposition table of each solve, in MiB.
    pub const HASH_MB: usize = 16;

    /// The adjudicator for `mode` from `empties` empty squares.
    ///
    /// # Errors
    /// [`ParseAdjudicatorError::Range`] when `empties` is above [`MAX_ADJUDICATE_EMPTIES`].
    pub fn new(mode: Mode, empties: u32) -> Result<SolveAdjudicator, ParseAdjudicatorError> {
        if empties > MAX_ADJUDICATE_EMPTIES {
            return Err(ParseAdjudicatorError::Range(empties.to_string()));
        }
        Ok(SolveAdjudicator { mode, empties })
    }

    /// Solves `pos` if the rule decides it: `None` when it has more empties than the rule's
    /// or its side to move must pass (or the game is over).
    fn solve<const N: usize>(
        &self,
        pos: &Board<N>,
        stop: &StopFlag,
    ) -> Result<Option<Verdict>, String> {
        if pos.empties().count() > self.empties || pos.moves().is_empty() {
            return Ok(None);
        }
        let mut solver = Solver::new(SolverConfig {
            threads: 1,
            hash_mb: Self::HASH_MB,
            ..SolverConfig::default()
        })
        .map_err(|e| format!("the solver cannot start: {e}"))?;
        let limits = Limits::none().with_flag(stop.clone());
        let solution = solver.solve_limited(pos, self.mode, &limits);
        if let Some(why) = solution.stopped {
            return Err(format!("the {} solve was stopped ({why:?})", self.mode));
        }
        let result = result_of(solution.score);
        let margin = (self.mode == Mode::Exact).then_some(solution.score);
        Ok(Some(Verdict { result, margin }))
    }
}

/// The result of a score from the side to move.
fn result_of(score: i32) -> GameResult {
    match score.signum() {
        1 => GameResult::Win,
        -1 => GameResult::Loss,
        _ => GameResult::Draw,
    }
}

impl<const N: usize> Adjudicator<Board<N>> for SolveAdjudicator {
    fn adjudicate(&self, pos: &Board<N>, stop: &StopFlag) -> Result<Option<Verdict>, String> {
        self.solve(pos, stop)
    }
}

impl fmt::Display for SolveAdjudicator {
    /// `exact=E` or `wld=E`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.mode, self.empties)
    }
}

/// An adjudication rule that is not `exact=E` or `wld=E` with `E` from 0 to 24.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseAdjudicatorError {
    /// Not of the form `MODE=E` with the mode `exact` or `wld`.
    #[error("bad adjudication `{0}`: expected exact=E or wld=E, E the empty squares from 0 to 24")]
    Form(String),
    /// The number of empties is not a number from 0 to 24.
    #[error(
        "adjudication depth `{0}` is out of range: expected exact=E or wld=E with E from 0 to 24"
    )]
    Range(String),
}

impl FromStr for SolveAdjudicator {
    type Err = ParseAdjudicatorError;

    /// `exact=E` or `wld=E` (the mode in any case, spaces around the parts allowed).
    fn from_str(s: &str) -> Result<SolveAdjudicator, ParseAdjudicatorError> {
        let form = || ParseAdjudicatorError::Form(s.to_string());
        let (mode, empties) = s.split_once('=').ok_or_else(form)?;
        let mode: Mode = mode.trim().parse().map_err(|_| form())?;
        let empties = empties.trim();
        if empties.is_empty() || !empties.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseAdjudicatorError::Range(empties.to_string()));
        }
        let value: u32 = empties
            .parse()
            .map_err(|_| ParseAdjudicatorError::Range(empties.to_string()))?;
        SolveAdjudicator::new(mode, value)
    }
}

#[cfg(test)]
mod tests {
    use yomi_othello::{Othello, Othello4};

    use super::*;

    /// FFO position #1: 14 empties, black to move wins by 18.
    const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

    #[test]
    fn rules_round_trip_through_text() {
        for mode in [Mode::Exact, Mode::Wld] {
            for empties in 0..=MAX_ADJUDICATE_EMPTIES {
                let rule = SolveAdjudicator::new(mode, empties).unwrap();
                let text = rule.to_string();
                assert_eq!(text.parse::<SolveAdjudicator>(), Ok(rule), "{text}");
                assert_eq!(text.parse::<SolveAdjudicator>().unwrap().to_string(), text);
            }
        }
        assert_eq!(
            " WLD = 7 ".parse::<SolveAdjudicator>(),
            Ok(SolveAdjudicator {
                mode: Mode::Wld,
                empties: 7
            })
        );
    }

    #[test]
    fn bad_rules_are_refused_with_the_accepted_form() {
        for bad in [
            "",
            "exact",
            "12",
            "=12",
            "exact:12",
            "perfect=12",
            "exact=12=3",
            "exact=",
            "exact=-1",
            "exact=+3",
            "exact=1.5",
            "wld=x",
            "exact=25",
            "wld=99999999999",
        ] {
            let e = bad.parse::<SolveAdjudicator>().unwrap_err();
            let text = e.to_string();
            assert!(text.contains("exact=E or wld=E"), "{bad:?}: {text}");
            assert!(!text.contains('\n'), "{bad:?}: {text}");
        }
        assert!(matches!(
            "exact=25".parse::<SolveAdjudicator>(),
            Err(ParseAdjudicatorError::Range(_))
        ));
        assert!(SolveAdjudicator::new(Mode::Exact, 25).is_err());
    }

    #[test]
    fn the_solver_decides_from_the_rule_s_empties_on() {
        let pos: Othello = FFO1.parse().unwrap();
        let stop = StopFlag::new();
        let exact = |e| SolveAdjudicator::new(Mode::Exact, e).unwrap();
        let wld = |e| SolveAdjudicator::new(Mode::Wld, e).unwrap();
        assert_eq!(exact(13).adjudicate(&pos, &stop), Ok(None));
        assert_eq!(
            exact(14).adjudicate(&pos, &stop),
            Ok(Some(Verdict {
                result: GameResult::Win,
                margin: Some(18)
            }))
        );
        assert_eq!(
            wld(20).adjudicate(&pos, &stop),
            Ok(Some(Verdict {
                result: GameResult::Win,
                margin: None
            }))
        );
        // A position whose side to move must pass is played on; the verdict is the
        // solver's, from the side to move.
        let mut passes = 0;
        let mut rng = yomi_core::Rng::seed_from_u64(3);
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        for _ in 0..50 {
            let mut pos = Othello4::new();
            while !pos.is_over() {
                let decided = exact(16).adjudicate(&pos, &stop).unwrap();
                if pos.must_pass() {
                    passes += 1;
                    assert_eq!(decided, None);
                } else {
                    let score = solver.solve(&pos, Mode::Exact).score;
                    let v = decided.unwrap();
                    assert_eq!(v.margin, Some(score));
                    assert_eq!(v.result, result_of(score));
                }
                let moves = pos.legal_moves();
                pos = pos.play(moves[rng.below(moves.len())]).unwrap();
            }
        }
        assert!(passes > 0);
    }
}
