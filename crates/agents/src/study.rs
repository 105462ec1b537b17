//! The study's rule and score agents for tic-tac-toe (`ai1` .. `ai14s`), exactly as
//! `docs/tictactoe-agents.md` of the study specifies them.
//!
//! Every agent here is a score-based agent: it plays each legal move on a copy of the
//! position, scores the position after the move (`me` = the player who just moved, `them` = the
//! player to move next) by the first rule that applies, and plays a uniformly random move among
//! the highest scores. The plain agents (`ai1` .. `ai7`) are written the same way: a rule such as
//! "the centre if empty, else random" is the score "centre 1, else 0".

use std::fmt;

use yomi_core::{Agent, AgentError, Explanation, Game, MoveScore, Player, Rng};
use yomi_tictactoe::{Square, TicTacToe, LINES};

use crate::common::{best_indices, explain_best, moves_of, pick_index};
use crate::Weight;

/// The four corners in the fixed order `ai4` tries them: (0,0), (2,0), (0,2), (2,2).
const CORNERS: [usize; 4] = [0, 2, 6, 8];

/// The edge squares (1,0), (0,1), (2,1), (1,2) as a mask.
const EDGES: u16 = 1 << 1 | 1 << 3 | 1 << 5 | 1 << 7;

/// The two diagonals' corner pairs as masks.
const DIAGONAL_ENDS: [u16; 2] = [1 << 0 | 1 << 8, 1 << 2 | 1 << 6];

/// Whether the marks `bits` include every square of `mask`.
fn covers(bits: u16, mask: u16) -> bool {
    bits & mask == mask
}

/// One of the study's rules; see `docs/agents.md` for the table.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum StudyRule {
    /// `ai1`/`ai1s`: the first empty square in row-major order.
    First,
    /// `ai2`/`ai2s`: a random legal move.
    Random,
    /// `ai3`/`ai3s`: the centre if empty, else random.
    Centre,
    /// `ai4`/`ai4s`: the centre, else the first empty corner of (0,0), (2,0), (0,2), (2,2),
    /// else random.
    CentreCorner,
    /// `ai5`/`ai5s`: a winning move, else random.
    Win,
    /// `ai6`: a winning move, else a move onto a square where the opponent would complete a
    /// line, else random.
    WinBlock,
    /// `ai7`: the centre if empty, else as `ai6`.
    CentreWinBlock,
    /// `ai6s`: win 1; `021 > 0` -1; else 0.
    Ai6s,
    /// `ai7s`: centre 2; win 1; `021 > 0` -1; else 0.
    Ai7s,
    /// `ai8s`: centre 3; win 2; `021 > 0` -1; `201 >= 1` 1; else 0.
    Ai8s,
    /// `ai9s`: centre 4; win 3; `021 > 0` -1; `201 >= 2` 2; `201 == 1` 1; else 0.
    Ai9s,
    /// `ai10s` (the weights 1, 1, 0) and `ai11s`: centre 300; win 200; `021 > 0` -100;
    /// `201 >= 2` 100; else `score_201*[201 == 1] + score_102*102 + score_012*012`, summed
    /// exactly (the weights are exact decimals, so equal sums tie and are broken at random).
    Ai11s {
        /// Weight of `[count(2,0,1) == 1]`.
        score_201: Weight,
        /// Weight of `count(1,0,2)`.
        score_102: Weight,
        /// Weight of `count(0,1,2)`.
        score_012: Weight,
    },
    /// `ai14s`: win 300; `021 > 0` gives `-100*021`, else `201 >= 2` gives 200 (final); then
    /// the special 4-mark position (X centre, O on both ends of a diagonal, an X on an edge)
    /// scores 100; otherwise add `2*[201 == 1] + 0.5*102 - 012`.
    Ai14s,
}

/// What the rules look at, for one move: facts about the move and the line patterns after it.
#[derive(Clone, Copy, Debug)]
struct Facts {
    /// The move's position in the legal-move (row-major) order.
    order: usize,
    /// The move was played on (1,1).
    centre: bool,
    /// The rank of the square in `CORNERS`, if it is a corner.
    corner: Option<usize>,
    /// The move completed a line.
    win: bool,
    /// The opponent would have completed a line on this square.
    block: bool,
    /// `count(2,0,1)`, `count(0,2,1)`, `count(1,0,2)`, `count(0,1,2)` after the move, with me =
    /// the mover.
    c201: u32,
    c021: u32,
    c102: u32,
    c012: u32,
    /// `ai14s`'s special position: 4 marks, X in the centre, O on both ends of one diagonal, an
    /// X on an edge square.
    special: bool,
}

impl Facts {
    fn of(pos: &TicTacToe, mv: Square, order: usize) -> Facts {
        let me = pos.side_to_move();
        let after = pos.play_unchecked(mv);
        let p = after.patterns(me);
        let theirs = pos.bits_of(!me);
        let bit = mv.bit();
        let block = LINES
            .iter()
            .any(|&line| line & bit != 0 && covers(theirs, line & !bit));
        let (o, x) = (after.o_bits(), after.x_bits());
        let special = after.marks() == 4
            && after.cell(Square::CENTRE) == Some(Player::Second)
            && DIAGONAL_ENDS.iter().any(|&ends| covers(o, ends))
            && x & EDGES != 0;
        Facts {
            order,
            centre: mv == Square::CENTRE,
            corner: CORNERS.iter().position(|&c| c == mv.index()),
            win: after.winner() == Some(me),
            block,
            c201: p.count(2, 0, 1),
            c021: p.count(0, 2, 1),
            c102: p.count(1, 0, 2),
            c012: p.count(0, 1, 2),
            special,
        }
    }
}

impl StudyRule {
    /// The `ai11s` weights of `ai10s`'s last line: `[201 == 1] + 102`.
    pub const AI10S: StudyRule = StudyRule::Ai11s {
        score_201: Weight::units(1),
        score_102: Weight::units(1),
        score_012: Weight::units(0),
    };

    /// The score of a move and the name of the rule that gave it.
    fn score(&self, f: &Facts) -> (f64, &'static str) {
        let one = |b: bool| f64::from(u8::from(b));
        match *self {
            StudyRule::First => (-(f.order as f64), "row-major order"),
            StudyRule::Random => (0.0, "any move"),
            StudyRule::Centre if f.centre => (1.0, "centre"),
            StudyRule::Centre => (0.0, "other"),
            StudyRule::CentreCorner if f.centre => (5.0, "centre"),
            StudyRule::CentreCorner => match f.corner {
                Some(rank) => (4.0 - rank as f64, "corner"),
                None => (0.0, "other"),
            },
            StudyRule::Win => (one(f.win), if f.win { "win" } else { "other" }),
            StudyRule::WinBlock | StudyRule::CentreWinBlock => {
                if *self == StudyRule::CentreWinBlock && f.centre {
                    (3.0, "centre")
                } else if f.win {
                    (2.0, "win")
                } else if f.block {
                    (1.0, "block")
                } else {
                    (0.0, "other")
                }
            }
            StudyRule::Ai6s => Self::ladder(f, None, 1.0, &[]),
            StudyRule::Ai7s => Self::ladder(f, Some(2.0), 1.0, &[]),
            StudyRule::Ai8s => Self::ladder(f, Some(3.0), 2.0, &[(1, 1.0)]),
            StudyRule::Ai9s => Self::ladder(f, Some(4.0), 3.0, &[(2, 2.0), (1, 1.0)]),
            StudyRule::Ai11s {
                score_201,
                score_102,
                score_012,
            } => {
                if f.centre {
                    (300.0, "centre")
                } else if f.win {
                    (200.0, "win")
                } else if f.c021 > 0 {
                    (-100.0, "threatened (021>0)")
                } else if f.c201 >= 2 {
                    (100.0, "fork (201>=2)")
                } else {
                    // Whole millionths, exact; within ±8e12, so the f64 below is exact too.
                    let micros = score_201.micros() * i64::from(f.c201 == 1)
                        + score_102.micros() * i64::from(f.c102)
                        + score_012.micros() * i64::from(f.c012);
                    (Weight::from_micros(micros).to_f64(), "lines")
                }
            }
            StudyRule::Ai14s => {
                if f.win {
                    return (300.0, "win");
                }
                let mut s = 0.0;
                let mut note = "lines";
                if f.c021 > 0 {
                    s = -100.0 * f64::from(f.c021);
                    note = "threatened (021>0) + lines";
                } else if f.c201 >= 2 {
                    return (200.0, "fork (201>=2)");
                }
                if f.special {
                    return (100.0, "diagonal trap answered on an edge");
                }
                s += 2.0 * one(f.c201 == 1) + 0.5 * f64::from(f.c102) - f64::from(f.c012);
                (s, note)
            }
        }
    }

    /// The ladder of `ai6s` .. `ai9s`: centre (if scored), win, threatened -1, then
    /// `(at least this many 201, score)` steps, else 0.
    fn ladder(
        f: &Facts,
        centre: Option<f64>,
        win: f64,
        steps: &[(u32, f64)],
    ) -> (f64, &'static str) {
        if let (Some(score), true) = (centre, f.centre) {
            return (score, "centre");
        }
        if f.win {
            return (win, "win");
        }
        if f.c021 > 0 {
            return (-1.0, "threatened (021>0)");
        }
        for &(at_least, score) in steps {
            if f.c201 >= at_least {
                return (
                    score,
                    if at_least >= 2 {
                        "fork (201>=2)"
                    } else {
                        "threat (201>=1)"
                    },
                );
            }
        }
        (0.0, "other")
    }

    /// Whether the rule reads the line patterns (then its explanation shows the counts).
    fn uses_patterns(&self) -> bool {
        matches!(
            self,
            StudyRule::Ai6s
                | StudyRule::Ai7s
                | StudyRule::Ai8s
                | StudyRule::Ai9s
                | StudyRule::Ai11s { .. }
                | StudyRule::Ai14s
        )
    }

    fn explain_move(&self, mv: Square, f: &Facts) -> MoveScore<Square> {
        let (score, note) = self.score(f);
        let flag = |b: bool| f64::from(u8::from(b));
        let mut m = MoveScore::new(mv, score).with_note(note);
        if self.uses_patterns() {
            m = m
                .with_part("201", f.c201)
                .with_part("021", f.c021)
                .with_part("102", f.c102)
                .with_part("012", f.c012);
        }
        match self {
            StudyRule::First => m = m.with_part("order", f.order as f64),
            StudyRule::Centre | StudyRule::CentreCorner => {
                m = m.with_part("centre", flag(f.centre));
                if let (StudyRule::CentreCorner, Some(rank)) = (self, f.corner) {
                    m = m.with_part("corner", rank as f64);
                }
            }
            StudyRule::Win => m = m.with_part("win", flag(f.win)),
            StudyRule::WinBlock | StudyRule::CentreWinBlock => {
                m = m
                    .with_part("win", flag(f.win))
                    .with_part("block", flag(f.block));
            }
            StudyRule::Ai14s => m = m.with_part("special", flag(f.special)),
            _ => {}
        }
        m
    }
}

/// A study agent: a [`StudyRule`] under one of the study's names (`ai1` and `ai1s` are the same
/// rule under two names).
#[derive(Clone, Debug, PartialEq)]
pub struct StudyAgent {
    name: &'static str,
    rule: StudyRule,
}

impl StudyAgent {
    /// The agent playing `rule` under the name `name` (used in its spec).
    #[must_use]
    pub fn new(name: &'static str, rule: StudyRule) -> StudyAgent {
        StudyAgent { name, rule }
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> StudyRule {
        self.rule
    }

    /// The scores of the legal moves, in order, and the moves.
    fn scores(&self, state: &TicTacToe) -> Result<(Vec<Square>, Vec<f64>), AgentError> {
        let moves = moves_of(state)?;
        let scores = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| self.rule.score(&Facts::of(state, mv, i)).0)
            .collect();
        Ok((moves.to_vec(), scores))
    }
}

impl fmt::Display for StudyAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        if let (
            "ai11s",
            StudyRule::Ai11s {
                score_201,
                score_102,
                score_012,
            },
        ) = (self.name, self.rule)
        {
            write!(
                f,
                ":score_201={score_201},score_102={score_102},score_012={score_012}"
            )?;
        }
        Ok(())
    }
}

impl Agent<TicTacToe> for StudyAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(
        &mut self,
        state: &TicTacToe,
        rng: &mut Rng,
    ) -> Result<Explanation<Square>, AgentError> {
        let moves = moves_of(state)?;
        let scored = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| self.rule.explain_move(mv, &Facts::of(state, mv, i)))
            .collect();
        Ok(explain_best(self.spec(), scored, rng))
    }

    fn choose(&mut self, state: &TicTacToe, rng: &mut Rng) -> Result<Square, AgentError> {
        let (moves, scores) = self.scores(state)?;
        let best = best_indices(&scores);
        Ok(moves[best[pick_index(best.len(), rng)]])
    }
}
