//! Opening generation: random legal lines, kept when a rating function calls them balanced.
//!
//! Candidate `c` is a random line of [`GenerateConfig::plies`] moves drawn from
//! `Rng::for_stream(seed, c)`. Candidates are taken in index order; a line whose final position
//! has the same key as an earlier candidate's (the caller's key: for a board with symmetries,
//! its canonical image) is skipped, and the others are rated in batches on
//! [`GenerateConfig::threads`] threads. A line is kept when `|value| <= max_value`. The first
//! [`GenerateConfig::count`] kept lines, in candidate order, are the result: it is the same at
//! any thread count, because every batch is rated in full before any of it is kept.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::Hash;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use thiserror::Error;
use yomi_core::{Agent, AgentError, Game, Rng, StopFlag};

/// What [`generate_openings`] makes.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateConfig {
    /// Moves in each line.
    pub plies: u32,
    /// Lines to keep.
    pub count: u64,
    /// Keep a line when its value is within this much of 0 (the rating's unit).
    pub max_value: f64,
    /// Master seed of the random lines.
    pub seed: u64,
    /// Rating threads (at least 1); the result does not depend on it.
    pub threads: usize,
    /// Give up after this many candidate lines (a guard against a too small `max_value`).
    pub max_candidates: u64,
}

impl GenerateConfig {
    /// `count` lines of `plies` moves within `max_value`, seed 1, one thread, at most ten
    /// million candidates.
    #[must_use]
    pub fn new(plies: u32, count: u64, max_value: f64) -> GenerateConfig {
        GenerateConfig {
            plies,
            count,
            max_value,
            seed: 1,
            threads: 1,
            max_candidates: 10_000_000,
        }
    }
}

/// A bad [`GenerateConfig`], or the rating function's error.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum GenerateError<E> {
    /// `max_value` is negative or not a number.
    #[error("the largest value kept must be 0 or more, not {0}")]
    MaxValue(String),
    /// `plies` or `count` is 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// Rating a line failed.
    #[error("rating an opening failed: {0}")]
    Rate(E),
}

/// One kept line.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedOpening<M> {
    /// The moves from the start.
    pub line: Vec<M>,
    /// Its value (the rating's unit and side).
    pub value: f64,
    /// The candidate's index (its random stream).
    pub candidate: u64,
}

/// The kept lines and how many candidates it took.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedOpenings<M> {
    /// The kept lines, in candidate order.
    pub openings: Vec<GeneratedOpening<M>>,
    /// Candidate lines drawn.
    pub candidates: u64,
    /// Candidates whose position was new (up to the key) and usable.
    pub unique: u64,
    /// Lines rated.
    pub rated: u64,
    /// Whether the stop flag or the observer ended the run early (the lines kept so far are
    /// the first ones of the full run).
    pub stopped: bool,
}

/// Counts reported after each batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateProgress {
    /// Lines kept so far.
    pub kept: u64,
    /// Lines rated so far.
    pub rated: u64,
    /// Candidates drawn so far.
    pub candidates: u64,
}

/// A random line of `plies` moves from `start`, each drawn uniformly from the legal moves, or
/// `None` when a drawn move is not `usable` (say, a pass) or the game is over at its end.
pub fn random_line<G: Game>(
    start: &G,
    rng: &mut Rng,
    plies: u32,
    usable: impl Fn(&G::Move) -> bool,
) -> Option<(Vec<G::Move>, G)> {
    let mut pos = start.clone();
    let mut line = Vec::with_capacity(plies as usize);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        let mv = *rng.choose(&moves)?;
        if !usable(&mv) {
            return None;
        }
        line.push(mv);
        pos = pos.play_unchecked(mv);
    }
    (!pos.is_over()).then_some((line, pos))
}

/// How lines are drawn and rated (see the module's documentation).
#[derive(Debug)]
pub struct OpeningSource<'a, G: Game, U, K, R> {
    /// Where every line starts.
    pub start: &'a G,
    /// Whether a drawn move may be part of a line (a line with another move is skipped).
    pub usable: U,
    /// The key under which final positions must differ (a canonical image).
    pub key: K,
    /// Makes one rating function per thread (a rater may hold a searching agent).
    pub make_rater: R,
}

/// Generates openings (see the module's documentation). `stop` ends the run early, between two
/// rated lines; `observe` sees the counts after each batch and may stop the run too.
///
/// # Errors
/// [`GenerateError`] for a bad configuration, or the first rating error in candidate order.
pub fn generate_openings<G, U, K, KF, R, RF, E>(
    source: &OpeningSource<'_, G, U, KF, R>,
    config: &GenerateConfig,
    stop: &StopFlag,
    mut observe: impl FnMut(&GenerateProgress) -> ControlFlow<()>,
) -> Result<GeneratedOpenings<G::Move>, GenerateError<E>>
where
    G: Game,
    U: Fn(&G::Move) -> bool,
    K: Eq + Hash,
    KF: Fn(&G) -> K,
    R: Fn() -> RF + Sync,
    RF: FnMut(&G) -> Result<f64, E>,
    E: Send,
{
    if config.max_value.is_nan() || config.max_value < 0.0 {
        return Err(GenerateError::MaxValue(config.max_value.to_string()));
    }
    if config.plies == 0 {
        return Err(GenerateError::Zero("plies"));
    }
    if config.count == 0 {
        return Err(GenerateError::Zero("count"));
    }
    let threads = config.threads.max(1);
    let batch = 8 * threads;
    let mut seen = HashSet::new();
    let mut out = GeneratedOpenings {
        openings: Vec::new(),
        candidates: 0,
        unique: 0,
        rated: 0,
        stopped: false,
    };
    'outer: while (out.openings.len() as u64) < config.count {
        // The next batch of new lines, in candidate order.
        let mut todo: Vec<(u64, Vec<G::Move>, G)> = Vec::with_capacity(batch);
        while todo.len() < batch && out.candidates < config.max_candidates {
            let c = out.candidates;
            out.candidates += 1;
            let mut rng = Rng::for_stream(config.seed, c);
            if let Some((line, pos)) =
                random_line(source.start, &mut rng, config.plies, &source.usable)
            {
                if seen.insert((source.key)(&pos)) {
                    out.unique += 1;
                    todo.push((c, line, pos));
                }
            }
        }
        if todo.is_empty() {
            break;
        }
        let values: Vec<Mutex<Option<Result<f64, E>>>> =
            todo.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let make_rater = &source.make_rater;
        std::thread::scope(|s| {
            for _ in 0..threads.min(todo.len()) {
                s.spawn(|| {
                    let mut rate = make_rater();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= todo.len() || stop.is_set() {
                            break;
                        }
                        let v = rate(&todo[i].2);
                        *values[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v);
                    }
                });
            }
        });
        if stop.is_set() {
            out.stopped = true;
            break;
        }
        for ((candidate, line, _), v) in todo.into_iter().zip(values) {
            let Some(v) = v.into_inner().unwrap_or_else(|e| e.into_inner()) else {
                // Not rated: only when stopped, checked above.
                out.stopped = true;
                break 'outer;
            };
            let value = v.map_err(GenerateError::Rate)?;
            out.rated += 1;
            if value.abs() <= config.max_value {
                out.openings.push(GeneratedOpening {
                    line,
                    value,
                    candidate,
                });
                if out.openings.len() as u64 >= config.count {
                    break 'outer;
                }
            }
        }
        let progress = GenerateProgress {
            kept: out.openings.len() as u64,
            rated: out.rated,
            candidates: out.candidates,
        };
        if observe(&progress).is_break() {
            out.stopped = true;
            break;
        }
    }
    Ok(out)
}

/// Plays on from `start` with `agent` moving for both sides (with `rng`) until `done` holds:
/// that position, or `None` when the game ends first.
///
/// # Errors
/// The agent's error.
pub fn play_on<G: Game>(
    start: &G,
    agent: &mut dyn Agent<G>,
    rng: &mut Rng,
    done: impl Fn(&G) -> bool,
) -> Result<Option<G>, AgentError> {
    let mut pos = start.clone();
    while !done(&pos) {
        if pos.is_over() {
            return Ok(None);
        }
        let mv = agent.choose(&pos, rng)?;
        pos = pos.play(mv).map_err(|e| AgentError::Failed {
            agent: agent.spec(),
            reason: e.to_string(),
        })?;
    }
    Ok(Some(pos))
}

/// The text of an openings file: `header` lines as `# ` comments, then one `LINE<TAB>VALUE`
/// per opening (value with a sign and two decimals), as [`Openings::parse`](crate::Openings)
/// reads it.
pub fn openings_file_text<'a>(
    header: impl IntoIterator<Item = &'a str>,
    openings: impl IntoIterator<Item = (String, f64)>,
) -> String {
    let mut text = String::new();
    for h in header {
        text.push_str("# ");
        text.push_str(h);
        text.push('\n');
    }
    for (line, v) in openings {
        let _ = writeln!(text, "{line}\t{v:+.2}");
    }
    text
}

#[cfg(test)]
mod tests {
    use yomi_core::Symmetric;
    use yomi_tictactoe::TicTacToe;

    use super::*;

    fn go(_: &GenerateProgress) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

    /// A value that depends only on the position up to symmetry: -3 to 3.
    fn value(p: &TicTacToe) -> Result<f64, String> {
        Ok((p.canonical_key() % 7) as f64 - 3.0)
    }

    fn run(
        plies: u32,
        count: u64,
        max_value: f64,
        threads: usize,
    ) -> GeneratedOpenings<<TicTacToe as Game>::Move> {
        let start = TicTacToe::default();
        let source = OpeningSource {
            start: &start,
            usable: |_: &_| true,
            key: |p: &TicTacToe| p.canonical_key(),
            make_rater: || value,
        };
        let config = GenerateConfig {
            threads,
            max_candidates: 20_000,
            ..GenerateConfig::new(plies, count, max_value)
        };
        generate_openings(&source, &config, &StopFlag::new(), go).unwrap()
    }

    #[test]
    fn every_position_up_to_symmetry_once() {
        // Tic-tac-toe has 3, 12 and 38 positions after 1, 2 and 3 moves, up to symmetry.
        for (plies, positions) in [(1, 3), (2, 12), (3, 38)] {
            let g = run(plies, 1000, 10.0, 2);
            assert_eq!(g.unique, positions, "{plies} plies");
            assert_eq!(g.openings.len() as u64, positions);
            assert_eq!(g.rated, positions);
            assert_eq!(g.candidates, 20_000);
            assert!(!g.stopped);
            let keys: HashSet<u64> = g
                .openings
                .iter()
                .map(|o| {
                    let mut p = TicTacToe::default();
                    for &m in &o.line {
                        p = p.play(m).unwrap();
                    }
                    assert_eq!(value(&p).unwrap(), o.value);
                    p.canonical_key()
                })
                .collect();
            assert_eq!(keys.len() as u64, positions);
        }
    }

    #[test]
    fn keeps_the_first_balanced_lines_whatever_the_threads() {
        let one = run(4, 10, 1.0, 1);
        assert_eq!(one.openings.len(), 10);
        assert!(one.openings.iter().all(|o| o.value.abs() <= 1.0));
        assert!(one.rated > 10, "some lines are rated out");
        assert!(one
            .openings
            .windows(2)
            .all(|w| w[0].candidate < w[1].candidate));
        for threads in [2, 3, 8] {
            let other = run(4, 10, 1.0, threads);
            assert_eq!(other.openings, one.openings, "{threads} threads");
        }
        // The lines are the first ten of a longer run.
        let more = run(4, 20, 1.0, 2);
        assert_eq!(more.openings[..10], one.openings[..]);
    }

    #[test]
    fn errors_and_stops() {
        let start = TicTacToe::default();
        let failing = OpeningSource {
            start: &start,
            usable: |_: &_| true,
            key: |p: &TicTacToe| p.canonical_key(),
            make_rater: || |_: &TicTacToe| Err::<f64, _>("no search".to_string()),
        };
        let config = GenerateConfig::new(2, 5, 1.0);
        let err = generate_openings(&failing, &config, &StopFlag::new(), go).unwrap_err();
        assert_eq!(err, GenerateError::Rate("no search".into()));
        let bad = GenerateConfig::new(2, 5, -1.0);
        assert!(matches!(
            generate_openings(&failing, &bad, &StopFlag::new(), go),
            Err(GenerateError::MaxValue(_))
        ));
        let nan = GenerateConfig::new(2, 5, f64::NAN);
        assert!(generate_openings(&failing, &nan, &StopFlag::new(), go).is_err());
        let zero = GenerateConfig::new(0, 5, 1.0);
        assert_eq!(
            generate_openings(&failing, &zero, &StopFlag::new(), go).unwrap_err(),
            GenerateError::Zero("plies")
        );
        // A set flag rates nothing; an observer's break keeps the first batch.
        let source = OpeningSource {
            start: &start,
            usable: |_: &_| true,
            key: |p: &TicTacToe| p.canonical_key(),
            make_rater: || value,
        };
        let stop = StopFlag::new();
        stop.stop();
        let g = generate_openings(&source, &GenerateConfig::new(3, 30, 9.0), &stop, go).unwrap();
        assert!(g.stopped && g.openings.is_empty());
        let g = generate_openings(
            &source,
            &GenerateConfig::new(3, 30, 9.0),
            &StopFlag::new(),
            |_| ControlFlow::Break(()),
        )
        .unwrap();
        assert!(g.stopped);
        assert_eq!(g.openings.len(), 8, "one batch of 8 lines for 1 thread");
        // Lines with an unusable move are skipped: without corners, one move makes 2 positions.
        let corners = ["(0,0)", "(0,2)", "(2,0)", "(2,2)"];
        let corner = OpeningSource {
            start: &start,
            usable: |m: &<TicTacToe as Game>::Move| !corners.contains(&m.to_string().as_str()),
            key: |p: &TicTacToe| p.canonical_key(),
            make_rater: || value,
        };
        let few = GenerateConfig {
            max_candidates: 1000,
            ..GenerateConfig::new(1, 10, 9.0)
        };
        let g = generate_openings(&corner, &few, &StopFlag::new(), go).unwrap();
        assert_eq!(g.openings.len(), 2);
        assert!(g.openings.iter().all(|o| o.line[0].to_string() != "(0,0)"));
    }

    #[test]
    fn file_text_reads_back() {
        let text = openings_file_text(["made by a test"], [("(0,0) (1,1)".to_string(), 0.5)]);
        assert_eq!(text, "# made by a test\n(0,0) (1,1)\t+0.50\n");
        let set = crate::Openings::parse("t", &text, |l| {
            TicTacToe::default().play_line(l).map_err(|e| e.to_string())
        })
        .unwrap();
        assert_eq!(set.len(), 1);
    }
}
