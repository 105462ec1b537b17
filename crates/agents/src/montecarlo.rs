//! Primitive Monte Carlo (`pmc`, `pmc2`): random playouts credited to their first move.

use std::cmp::Ordering;
use std::fmt;
use std::time::Duration;

use yomi_core::{Agent, AgentError, Explanation, Game, MoveScore, Outcome, Rng};

use crate::common::{budget_notes, moves_of, pick_index, time_text, Deadline, CLOCK_EVERY};
use crate::Weight;

/// How a primitive Monte Carlo agent ranks its first moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PmcScore {
    /// `pmc`: the highest win rate, ties broken by the highest draw rate, then at random.
    WinThenDraw,
    /// `pmc2`: the highest `(wins + alpha * draws) / n`, compared exactly, ties at random.
    Alpha(Weight),
}

/// Playout counts of one first move, from the side of the player to move at the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlayoutStats {
    /// Playouts that started with this move.
    pub playouts: u64,
    /// Of those, games the mover won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games the mover lost.
    pub losses: u64,
}

impl PlayoutStats {
    /// `max(playouts, 1)`: rates of a move without playouts are 0.
    fn n(&self) -> u64 {
        self.playouts.max(1)
    }
}

/// Primitive Monte Carlo, `pmc` and `pmc2` of the study, for any game.
///
/// `pnum` is the **total** number of playouts for one decision: each picks a uniformly random
/// legal first move, then plays random moves to the end ([`Game::random_playout`]), and its
/// result is credited to that first move. A time limit stops early (the clock is read every 64
/// playouts). With only one legal move the agent plays it without playouts.
#[derive(Clone, Debug, PartialEq)]
pub struct PmcAgent {
    pnum: u64,
    time: Option<Duration>,
    rank: PmcScore,
}

impl PmcAgent {
    /// `pmc` with `pnum` playouts per decision and an optional time limit.
    #[must_use]
    pub fn pmc(pnum: u64, time: Option<Duration>) -> PmcAgent {
        PmcAgent {
            pnum,
            time,
            rank: PmcScore::WinThenDraw,
        }
    }

    /// `pmc2` with `pnum` playouts per decision, an optional time limit and the weight `alpha`
    /// of a draw.
    #[must_use]
    pub fn pmc2(pnum: u64, time: Option<Duration>, alpha: Weight) -> PmcAgent {
        PmcAgent {
            pnum,
            time,
            rank: PmcScore::Alpha(alpha),
        }
    }

    /// Runs the playouts: per legal move (in order), its counts.
    fn playouts<G: Game>(&self, state: &G, moves: &[G::Move], rng: &mut Rng) -> Vec<PlayoutStats> {
        let mut stats = vec![PlayoutStats::default(); moves.len()];
        if moves.len() < 2 {
            return stats;
        }
        let me = state.side_to_move();
        let deadline = Deadline::start(self.time);
        for i in 0..self.pnum {
            if i % CLOCK_EVERY == 0 && i > 0 && deadline.expired() {
                break;
            }
            let k = rng.below(moves.len());
            let outcome = state.play_unchecked(moves[k]).random_playout(rng);
            let s = &mut stats[k];
            s.playouts += 1;
            match outcome {
                Outcome::Win(p) if p == me => s.wins += 1,
                Outcome::Win(_) => s.losses += 1,
                Outcome::Draw => s.draws += 1,
            }
        }
        stats
    }

    /// `pmc2`'s score (or `pmc`'s win rate).
    fn score(&self, s: &PlayoutStats) -> f64 {
        let n = s.n() as f64;
        match self.rank {
            PmcScore::WinThenDraw => s.wins as f64 / n,
            PmcScore::Alpha(alpha) => (s.wins as f64 + alpha.to_f64() * s.draws as f64) / n,
        }
    }

    /// Compares two moves' counts (greater is better), exactly for `pmc`'s rates.
    fn compare(&self, a: &PlayoutStats, b: &PlayoutStats) -> Ordering {
        match self.rank {
            PmcScore::WinThenDraw => {
                let cross = |x: u64, nx: u64, y: u64, ny: u64| {
                    (u128::from(x) * u128::from(ny)).cmp(&(u128::from(y) * u128::from(nx)))
                };
                cross(a.wins, a.n(), b.wins, b.n()).then(cross(a.draws, a.n(), b.draws, b.n()))
            }
            PmcScore::Alpha(alpha) => {
                // (w + alpha*d) / n in millionths, cross-multiplied: exact in u128 (counts stay
                // below 2^64 and alpha within 0..=1).
                let alpha = u128::try_from(alpha.micros()).unwrap_or(0);
                let num =
                    |s: &PlayoutStats| u128::from(s.wins) * 1_000_000 + alpha * u128::from(s.draws);
                (num(a) * u128::from(b.n())).cmp(&(num(b) * u128::from(a.n())))
            }
        }
    }

    /// The indices of the best moves, in order.
    fn best(&self, stats: &[PlayoutStats]) -> Vec<usize> {
        let Some(top) = stats.iter().max_by(|a, b| self.compare(a, b)) else {
            return Vec::new();
        };
        (0..stats.len())
            .filter(|&i| self.compare(&stats[i], top) == Ordering::Equal)
            .collect()
    }
}

impl fmt::Display for PmcAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time = time_text(self.time);
        match self.rank {
            PmcScore::WinThenDraw => write!(f, "pmc:pnum={},time={time}", self.pnum),
            PmcScore::Alpha(alpha) => {
                write!(f, "pmc2:pnum={},time={time},alpha={alpha}", self.pnum)
            }
        }
    }
}

impl<G: Game> Agent<G> for PmcAgent {
    fn spec(&self) -> String {
        self.to_string()
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let moves = moves_of(state)?;
        let stats = self.playouts(state, &moves, rng);
        let best = self.best(&stats);
        let chosen = moves[best[pick_index(best.len(), rng)]];
        let scored = moves
            .iter()
            .zip(&stats)
            .map(|(&mv, s)| {
                let mut m = MoveScore::new(mv, self.score(s))
                    .with_part("playouts", s.playouts as f64)
                    .with_part("wins", s.wins as f64)
                    .with_part("draws", s.draws as f64)
                    .with_part("losses", s.losses as f64);
                if self.rank == PmcScore::WinThenDraw {
                    m = m.with_part("draw rate", s.draws as f64 / s.n() as f64);
                }
                m
            })
            .collect();
        let total: u64 = stats.iter().map(|s| s.playouts).sum();
        let notes = budget_notes(
            moves.len(),
            total,
            self.pnum,
            "playouts",
            format!("{total} playouts"),
        );
        Ok(Explanation {
            agent: self.to_string(),
            moves: scored,
            best: best.iter().map(|&i| moves[i]).collect(),
            chosen,
            notes,
        })
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        let moves = moves_of(state)?;
        let stats = self.playouts(state, &moves, rng);
        let best = self.best(&stats);
        Ok(moves[best[pick_index(best.len(), rng)]])
    }
}

#[cfg(test)]
mod exact_tests {
    use super::*;

    fn stats(wins: u64, draws: u64, losses: u64) -> PlayoutStats {
        PlayoutStats {
            playouts: wins + draws + losses,
            wins,
            draws,
            losses,
        }
    }

    /// Equal scores tie exactly, whatever the rounding of `alpha` in binary.
    #[test]
    fn pmc2_compares_scores_exactly() {
        let agent = PmcAgent::pmc2(100, None, "0.1".parse().unwrap());
        // 3 draws of 3 and 5 draws of 5 both score 0.1 (as f64 they differ: 0.30000000000000004/3).
        assert_eq!(
            agent.compare(&stats(0, 3, 0), &stats(0, 5, 0)),
            Ordering::Equal
        );
        assert_eq!(agent.best(&[stats(0, 3, 0), stats(0, 5, 0)]), vec![0, 1]);
        // One win in 10 scores 0.1, as does a single drawn playout.
        assert_eq!(
            agent.compare(&stats(1, 0, 9), &stats(0, 1, 0)),
            Ordering::Equal
        );
        assert_eq!(
            agent.compare(&stats(1, 1, 8), &stats(0, 1, 0)),
            Ordering::Greater
        );
        // Moves without playouts score 0.
        assert_eq!(
            agent.compare(&stats(0, 0, 0), &stats(0, 0, 4)),
            Ordering::Equal
        );
    }
}
