//! The strength levels of the `othello` agent (`othello:level=N`): one table, listed by
//! `yomi agents`, the page and the Python package.

use std::fmt;

use yomi_othello_search::PROBCUT_THRESHOLD;

/// One strength level of the `othello` agent: the settings `othello:level=N` plays with.
///
/// A level plays by depth, not by time: the midgame search goes to [`depth`](Self::depth)
/// plies, with Multi-ProbCut at [`probcut`](Self::probcut), and the endgame is solved
/// (win/loss/draw, then exactly) at [`wld`](Self::wld) and [`exact`](Self::exact) empty squares
/// or fewer. `wld == exact` means no separate win/loss/draw stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OthelloLevel {
    /// The level, 1 to [`MAX_LEVEL`].
    pub level: u32,
    /// The deepest midgame iteration, in plies.
    pub depth: u32,
    /// Multi-ProbCut's threshold in standard deviations, or `None` for no ProbCut.
    pub probcut: Option<f64>,
    /// Play by a win/loss/draw solve at this many empty squares or fewer.
    pub wld: u32,
    /// Play by an exact solve at this many empty squares or fewer (at most `wld`).
    pub exact: u32,
}

/// The highest level.
pub const MAX_LEVEL: u32 = 30;

const fn lv(level: u32, probcut: Option<f64>, wld: u32, exact: u32) -> OthelloLevel {
    OthelloLevel {
        level,
        depth: level,
        probcut,
        wld,
        exact,
    }
}

/// ProbCut at the agent's default threshold.
const PC: Option<f64> = Some(PROBCUT_THRESHOLD);

/// Every level, `OTHELLO_LEVELS[n - 1]` being level `n`.
///
/// - The midgame depth is the level (level 1 looks one ply ahead).
/// - ProbCut is off at levels 1 and 2, whose searches are too shallow for it to cut (it tests
///   nodes of 3 plies or more), and at the agent's default threshold, [`PROBCUT_THRESHOLD`]
///   standard deviations, from level 3 on.
/// - The exact solve starts at twice the level's empties up to level 7 (14 empties), then
///   grows with the midgame's cost so that a solve takes about as long as a midgame move of
///   the same level, up to 26 empties (levels 24 to 30); from level 7 on the win/loss/draw
///   solve starts 2 empties before it. Level 10 has the agent's default endgame (`wld=18`,
///   `exact=16`).
pub const OTHELLO_LEVELS: [OthelloLevel; MAX_LEVEL as usize] = [
    lv(1, None, 2, 2),
    lv(2, None, 4, 4),
    lv(3, PC, 6, 6),
    lv(4, PC, 8, 8),
    lv(5, PC, 10, 10),
    lv(6, PC, 12, 12),
    lv(7, PC, 16, 14),
    lv(8, PC, 16, 14),
    lv(9, PC, 17, 15),
    lv(10, PC, 18, 16),
    lv(11, PC, 19, 17),
    lv(12, PC, 20, 18),
    lv(13, PC, 20, 18),
    lv(14, PC, 21, 19),
    lv(15, PC, 22, 20),
    lv(16, PC, 22, 20),
    lv(17, PC, 23, 21),
    lv(18, PC, 24, 22),
    lv(19, PC, 24, 22),
    lv(20, PC, 25, 23),
    lv(21, PC, 26, 24),
    lv(22, PC, 26, 24),
    lv(23, PC, 27, 25),
    lv(24, PC, 28, 26),
    lv(25, PC, 28, 26),
    lv(26, PC, 28, 26),
    lv(27, PC, 28, 26),
    lv(28, PC, 28, 26),
    lv(29, PC, 28, 26),
    lv(30, PC, 28, 26),
];

impl OthelloLevel {
    /// Level `level`, or `None` outside 1 to [`MAX_LEVEL`].
    #[must_use]
    pub fn get(level: u32) -> Option<&'static OthelloLevel> {
        let index = usize::try_from(level.checked_sub(1)?).ok()?;
        OTHELLO_LEVELS.get(index)
    }
}

impl fmt::Display for OthelloLevel {
    /// `level 10: depth 10, ProbCut 1.5, WLD at 18 empties, exact at 16`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}: depth {}, ", self.level, self.depth)?;
        match self.probcut {
            Some(t) => write!(f, "ProbCut {t}")?,
            None => write!(f, "no ProbCut")?,
        }
        if self.wld > self.exact {
            write!(f, ", WLD at {} empties, exact at {}", self.wld, self.exact)
        } else {
            write!(f, ", exact at {} empties", self.exact)
        }
    }
}

/// The strength levels of agent `agent` in the zoo of game `game` (a game's `NAME`, e.g.
/// `othello`): [`OTHELLO_LEVELS`] for `othello` on the 8x8 board, `None` for every other agent
/// and game. For listings (`yomi agents`, the page, the Python package).
#[must_use]
pub fn agent_levels(game: &str, agent: &str) -> Option<&'static [OthelloLevel]> {
    (game == "othello" && agent == "othello").then_some(&OTHELLO_LEVELS[..])
}
