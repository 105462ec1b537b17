//! Agents that read the solved tree: `perfect`, `perfect-sv`, `table:file=PATH`, `pmc-exact`,
//! `pmc2-exact[:alpha=A]`, and the per-process caches they share.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use yomi_core::{Agent, AgentError, AgentSpec, Explanation, Game, MoveScore, Rng};

use crate::audit::alpha_param;
use crate::solve::Half;
use crate::{check_alpha, read_file, PlayoutRule, Ratio, Scoring, Solution, TreeError};

/// The cap on distinct positions for solutions the agents build on demand.
pub const SHARED_MAX_POSITIONS: usize = 1_000_000;

type Cache = Mutex<HashMap<(TypeId, String), Arc<dyn Any + Send + Sync>>>;

static CACHE: OnceLock<Cache> = OnceLock::new();

fn cached<G: Game>(
    key: String,
    make: impl FnOnce() -> Result<Solution<G>, TreeError>,
) -> Result<Arc<Solution<G>>, TreeError> {
    let cache = CACHE.get_or_init(Cache::default);
    // A panic elsewhere while holding the lock leaves the map itself intact.
    let mut map = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = (TypeId::of::<G>(), key);
    if let Some(any) = map.get(&key) {
        if let Ok(sol) = Arc::clone(any).downcast::<Solution<G>>() {
            return Ok(sol);
        }
    }
    let sol = Arc::new(make()?);
    map.insert(key, sol.clone());
    Ok(sol)
}

/// The solution of game `G` from its standard start, built once per process and shared (the
/// first call builds it; later calls, from any thread, get the same `Arc`).
///
/// # Errors
/// As [`Solution::build`], with a cap of [`SHARED_MAX_POSITIONS`] positions.
pub fn shared_solution<G: Game>() -> Result<Arc<Solution<G>>, TreeError> {
    shared_solution_from(&G::default())
}

/// The solution of game `G` from `start`, built once per process and start position.
///
/// # Errors
/// As [`Solution::build`], with a cap of [`SHARED_MAX_POSITIONS`] positions.
pub fn shared_solution_from<G: Game>(start: &G) -> Result<Arc<Solution<G>>, TreeError> {
    cached(format!("start:{start}"), || {
        Solution::solve(crate::Graph::build_with_limit(
            start.clone(),
            SHARED_MAX_POSITIONS,
        )?)
    })
}

/// The solution stored in the tree file at `path`, read and checked once per process and path
/// (later changes to the file are not seen).
///
/// # Errors
/// As [`read_file`].
pub fn shared_file<G: Game>(path: &Path) -> Result<Arc<Solution<G>>, TreeError> {
    cached(format!("file:{}", path.display()), || Ok(read_file(path)?))
}

/// A uniformly random index below `len`; the generator is consulted only when there is a real
/// choice, as the other agents of the zoo do.
fn pick(len: usize, rng: &mut Rng) -> usize {
    if len > 1 {
        rng.below(len)
    } else {
        0
    }
}

/// How a [`TreeAgent`] picks its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeRule {
    /// A random minimax best move under the scoring (`perfect`: plain, `perfect-sv`: shortest
    /// victory).
    Minimax(Scoring),
    /// A random move among the infinite-playout choices of a Monte Carlo rule (`pmc-exact`,
    /// `pmc2-exact`).
    Playout(PlayoutRule),
    /// A random best move (under the scoring) read from a tree file (`table:file=PATH`).
    Table {
        /// The tree file.
        path: PathBuf,
        /// Which best-move set to read.
        scoring: Scoring,
    },
}

/// An agent that reads the solved game tree.
///
/// Spec strings (for the zoo):
/// - `perfect`: uniformly random among the plain-minimax best moves;
/// - `perfect-sv`: the same with the shortest-victory scoring;
/// - `table:file=PATH[,scoring=plain|sv]`: random among the best moves stored in a tree file
///   (plain scoring unless told);
/// - `pmc-exact`: random among the moves with the highest exact probability that the mover
///   wins under random playouts, ties broken by the draw probability;
/// - `pmc2-exact[:alpha=A]`: random among the moves with the highest exact playout score
///   `P(win) + A * P(draw)` (`A` a fraction or decimal from 0 to 1, default `1/2`; see
///   [`parse_alpha`](crate::parse_alpha)).
///
/// The solution is built once per process and game ([`shared_solution`]) or read once per
/// file ([`shared_file`]), so building an agent is cheap after the first. A position outside
/// the standard game (a match from another `--start`) gets its own shared solution; a table
/// agent fails on positions its file does not hold.
///
/// Every explanation lists each legal move with, from the mover's side: `minimax`, `sv`,
/// `p_win`, `p_draw`, `p_loss` and `score` (the playout score, alpha of the rule or 1/2), the
/// move's score being the one the rule maximises; a note gives the exact values.
///
/// ```
/// use yomi_core::{Agent, Game, Rng};
/// use yomi_tictactoe::TicTacToe;
/// use yomi_tree::TreeAgent;
/// let mut agent = TreeAgent::<TicTacToe>::from_spec("pmc2-exact:alpha=0.5")?;
/// let why = agent.explain(&TicTacToe::new(), &mut Rng::seed_from_u64(1))?;
/// // The centre has the best playout score, 3/4 for O.
/// assert_eq!(why.best, vec!["(1,1)".parse()?]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TreeAgent<G: Game> {
    rule: TreeRule,
    spec: String,
    /// Solutions to look positions up in, the standard one first.
    pub(crate) sols: Vec<Arc<Solution<G>>>,
}

impl<G: Game> fmt::Debug for TreeAgent<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TreeAgent")
            .field("spec", &self.spec)
            .field("solutions", &self.sols.len())
            .finish()
    }
}

fn spec_string(name: &str, params: &[(&str, String)]) -> String {
    match AgentSpec::new(name) {
        Ok(mut spec) => {
            for (k, v) in params {
                // Keys are fixed valid identifiers.
                let _ = spec.set(k, v.clone());
            }
            spec.to_string()
        }
        Err(_) => name.to_string(),
    }
}

impl<G: Game> TreeAgent<G> {
    /// An agent following `rule`; loads or builds its data now (once per process).
    ///
    /// # Errors
    /// [`TreeError::BadSpec`] for a `pmc2` rule whose alpha is not between 0 and 1
    /// ([`check_alpha`]); otherwise building the solution or reading the table file failed.
    pub fn new(rule: TreeRule) -> Result<TreeAgent<G>, TreeError> {
        if let TreeRule::Playout(PlayoutRule::Pmc2 { alpha }) = rule {
            check_alpha(alpha).map_err(|e| TreeError::BadSpec {
                spec: spec_string("pmc2-exact", &[("alpha", alpha.to_string())]),
                reason: format!("alpha: {e}"),
            })?;
        }
        let (spec, sol) = match &rule {
            TreeRule::Minimax(Scoring::Plain) => (spec_string("perfect", &[]), shared_solution()?),
            TreeRule::Minimax(Scoring::ShortestVictory) => {
                (spec_string("perfect-sv", &[]), shared_solution()?)
            }
            TreeRule::Playout(PlayoutRule::Pmc) => {
                (spec_string("pmc-exact", &[]), shared_solution()?)
            }
            TreeRule::Playout(PlayoutRule::Pmc2 { alpha }) => (
                spec_string("pmc2-exact", &[("alpha", alpha.to_string())]),
                shared_solution()?,
            ),
            TreeRule::Table { path, scoring } => {
                let mut params = vec![("file", path.display().to_string())];
                if *scoring != Scoring::Plain {
                    params.push(("scoring", scoring.to_string()));
                }
                (spec_string("table", &params), shared_file(path)?)
            }
        };
        Ok(TreeAgent {
            rule,
            spec,
            sols: vec![sol],
        })
    }

    /// `perfect`.
    ///
    /// # Errors
    /// As [`TreeAgent::new`].
    pub fn perfect() -> Result<TreeAgent<G>, TreeError> {
        TreeAgent::new(TreeRule::Minimax(Scoring::Plain))
    }

    /// `perfect-sv`.
    ///
    /// # Errors
    /// As [`TreeAgent::new`].
    pub fn perfect_sv() -> Result<TreeAgent<G>, TreeError> {
        TreeAgent::new(TreeRule::Minimax(Scoring::ShortestVictory))
    }

    /// `pmc-exact`.
    ///
    /// # Errors
    /// As [`TreeAgent::new`].
    pub fn pmc_exact() -> Result<TreeAgent<G>, TreeError> {
        TreeAgent::new(TreeRule::Playout(PlayoutRule::Pmc))
    }

    /// `pmc2-exact:alpha=A`.
    ///
    /// # Errors
    /// As [`TreeAgent::new`]: [`TreeError::BadSpec`] if `alpha` is above 1.
    pub fn pmc2_exact(alpha: Ratio) -> Result<TreeAgent<G>, TreeError> {
        TreeAgent::new(TreeRule::Playout(PlayoutRule::Pmc2 { alpha }))
    }

    /// `table:file=PATH` (plain scoring).
    ///
    /// # Errors
    /// As [`TreeAgent::new`]: the file cannot be read or is not a valid tree file for `G`.
    pub fn table(path: impl Into<PathBuf>) -> Result<TreeAgent<G>, TreeError> {
        TreeAgent::new(TreeRule::Table {
            path: path.into(),
            scoring: Scoring::Plain,
        })
    }

    /// The agent named by a spec string (see the type's docs for the names and parameters).
    ///
    /// # Errors
    /// [`TreeError::BadSpec`] for an unknown name, an unknown or bad parameter; otherwise as
    /// [`TreeAgent::new`].
    pub fn from_spec(text: &str) -> Result<TreeAgent<G>, TreeError> {
        let bad = |reason: String| TreeError::BadSpec {
            spec: text.to_string(),
            reason,
        };
        let spec: AgentSpec = text.parse().map_err(|e| bad(format!("{e}")))?;
        let allowed: &[&str] = match spec.name() {
            "perfect" | "perfect-sv" | "pmc-exact" => &[],
            "pmc2-exact" => &["alpha"],
            "table" => &["file", "scoring"],
            other => return Err(bad(format!("unknown tree agent {other:?}"))),
        };
        if let Some((k, _)) = spec
            .params()
            .iter()
            .find(|(k, _)| !allowed.contains(&k.as_str()))
        {
            return Err(bad(format!("unknown parameter {k:?}")));
        }
        let rule = match spec.name() {
            "perfect" => TreeRule::Minimax(Scoring::Plain),
            "perfect-sv" => TreeRule::Minimax(Scoring::ShortestVictory),
            "pmc-exact" => TreeRule::Playout(PlayoutRule::Pmc),
            "pmc2-exact" => TreeRule::Playout(PlayoutRule::Pmc2 {
                alpha: alpha_param(spec.get("alpha")).map_err(|e| bad(format!("alpha: {e}")))?,
            }),
            _ => TreeRule::Table {
                path: spec
                    .get("file")
                    .ok_or_else(|| bad("table needs file=PATH".into()))?
                    .into(),
                scoring: match spec.get("scoring") {
                    Some(s) => s.parse().map_err(|e| bad(format!("{e}")))?,
                    None => Scoring::Plain,
                },
            },
        };
        TreeAgent::new(rule)
    }

    /// The rule.
    #[must_use]
    pub fn rule(&self) -> &TreeRule {
        &self.rule
    }

    fn failed(&self, e: impl fmt::Display) -> AgentError {
        AgentError::Failed {
            agent: self.spec.clone(),
            reason: e.to_string(),
        }
    }

    /// Finds the solution holding `state` (building one from `state` if need be) and its id.
    fn locate(&mut self, state: &G) -> Result<(Arc<Solution<G>>, usize), AgentError> {
        if state.is_over() {
            return Err(AgentError::GameOver);
        }
        for sol in &self.sols {
            if let Some(id) = sol.id_of(state) {
                return Ok((Arc::clone(sol), id));
            }
        }
        if matches!(self.rule, TreeRule::Table { .. }) {
            return Err(self.failed(TreeError::NotInTree {
                position: state.to_string(),
            }));
        }
        let sol = shared_solution_from(state).map_err(|e| self.failed(e))?;
        self.sols.push(Arc::clone(&sol));
        Ok((sol, 0))
    }

    /// The indices of the moves this agent picks among.
    fn best(&self, sol: &Solution<G>, id: usize) -> Result<Vec<usize>, AgentError> {
        let best = match &self.rule {
            TreeRule::Minimax(scoring) | TreeRule::Table { scoring, .. } => {
                sol.best_indices(id, *scoring)
            }
            TreeRule::Playout(rule) => rule.choices(sol, id).map_err(|e| self.failed(e))?,
        };
        if best.is_empty() {
            return Err(AgentError::GameOver);
        }
        Ok(best)
    }
}

impl<G: Game> Agent<G> for TreeAgent<G> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, state: &G, rng: &mut Rng) -> Result<G::Move, AgentError> {
        let (sol, id) = self.locate(state)?;
        let best = self.best(&sol, id)?;
        Ok(sol.graph().moves(id)[best[pick(best.len(), rng)]])
    }

    fn explain(&mut self, state: &G, rng: &mut Rng) -> Result<Explanation<G::Move>, AgentError> {
        let (sol, id) = self.locate(state)?;
        let best = self.best(&sol, id)?;
        let graph = sol.graph();
        let mover = state.side_to_move();
        let moves = graph.moves(id);
        let alpha = match self.rule {
            TreeRule::Playout(PlayoutRule::Pmc2 { alpha }) => alpha,
            _ => Ratio::HALF,
        };
        let ply = graph.depth(id) + 1;
        let mut scored = Vec::with_capacity(moves.len());
        let mut exact = Vec::with_capacity(moves.len());
        for (&mv, c) in moves.iter().zip(graph.children(id)) {
            let p = sol.probs(c);
            let minimax = f64::from(i32::from(sol.plain(c)) * mover.sign());
            let sv = sol.sv_at(c, ply);
            let score = p.score(mover, alpha).map_err(|e| self.failed(e))?;
            let (win, draw, loss) = (p.win(mover), p.draw(), p.win(!mover));
            let main = match &self.rule {
                TreeRule::Minimax(Scoring::Plain)
                | TreeRule::Table {
                    scoring: Scoring::Plain,
                    ..
                } => minimax,
                TreeRule::Minimax(Scoring::ShortestVictory)
                | TreeRule::Table {
                    scoring: Scoring::ShortestVictory,
                    ..
                } => sv.for_player(mover),
                TreeRule::Playout(PlayoutRule::Pmc) => win.to_f64(),
                TreeRule::Playout(PlayoutRule::Pmc2 { .. }) => score.to_f64(),
            };
            exact.push(format!(
                "{mv}: win {win}, draw {draw}, loss {loss}, score {score}, sv {}",
                Half(sv.twice * i64::from(mover.sign()))
            ));
            scored.push(
                MoveScore::new(mv, main)
                    .with_part("minimax", minimax)
                    .with_part("sv", sv.for_player(mover))
                    .with_part("p_win", win.to_f64())
                    .with_part("p_draw", draw.to_f64())
                    .with_part("p_loss", loss.to_f64())
                    .with_part("score", score.to_f64()),
            );
        }
        let rule = match &self.rule {
            TreeRule::Minimax(s) => format!("minimax best moves ({s} scoring)"),
            TreeRule::Table { scoring, path } => {
                format!("best moves ({scoring} scoring) from {}", path.display())
            }
            TreeRule::Playout(PlayoutRule::Pmc) => {
                "highest exact P(win), ties by P(draw)".to_string()
            }
            TreeRule::Playout(PlayoutRule::Pmc2 { alpha }) => {
                format!("highest exact P(win) + {alpha} * P(draw)")
            }
        };
        let chosen = moves[best[pick(best.len(), rng)]];
        let mut notes = vec![rule];
        notes.push(format!("exact, for the mover: {}", exact.join("; ")));
        Ok(Explanation {
            agent: self.spec.clone(),
            moves: scored,
            best: best.iter().map(|&k| moves[k]).collect(),
            chosen,
            notes,
        })
    }
}
