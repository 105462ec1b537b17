//! `yomi tree`: build the exact game tree and its data file, show a position's values, audit
//! the Monte Carlo rules against minimax.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use crate::{CliGame, Res};
use clap::{Subcommand, ValueEnum};
use yomi_core::Player;
use yomi_nim::Nim;
use yomi_othello::Othello4;
use yomi_othello_search::{Mode, Solver, SolverConfig};
use yomi_tictactoe::Square;
use yomi_tictactoe::TicTacToe;
use yomi_tree::svg::{tree_picture, BoardCard, Picture};
use yomi_tree::{
    audit, audit_symmetric, encode, shared_solution, shared_solution_from, AuditReport,
    PlayoutRule, Ratio, Scoring, Solution, TreeError,
};

/// Arguments of `yomi tree`.
#[derive(Debug, clap::Args)]
pub struct TreeArgs {
    #[command(subcommand)]
    command: TreeCommand,
}

#[derive(Debug, Subcommand)]
enum TreeCommand {
    /// Build the full tree and the merged graph: counts, root values, time, memory; write the
    /// data file.
    Build(BuildArgs),
    /// A position and each of its children with their exact values.
    Show(ShowArgs),
    /// Where a Monte Carlo rule's infinite-playout choice is not among the minimax best moves.
    Audit(AuditArgs),
}

/// The games the tree builder runs on from the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum TreeGame {
    /// Tic-tac-toe.
    Tictactoe,
    /// The 15-stone game.
    Nim,
    /// Othello on 4x4.
    Othello4,
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// The game.
    #[arg(long, value_enum, default_value = "tictactoe")]
    game: TreeGame,
    /// Where to write the data file (default: data/tictactoe.tree, data/nim15.tree or
    /// data/othello4.tree).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Which values `tree show` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DataKind {
    /// Plain minimax value (first player's win 1, draw 0, loss -1).
    Minimax,
    /// Shortest-victory value.
    Sv,
    /// Exact random-playout probabilities.
    Probs,
    /// Playout scores P(win) + alpha * P(draw) of both players.
    Score,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// The position in the game's notation (tic-tac-toe: e.g. `x...o...o`).
    #[arg(allow_hyphen_values = true)]
    position: String,
    /// The game.
    #[arg(long, value_enum, default_value = "tictactoe")]
    game: TreeGame,
    /// Which values to print (default: all).
    #[arg(long, value_enum)]
    data: Option<DataKind>,
    /// The draw weight of the playout score (fraction or decimal).
    #[arg(long, default_value = "1/2")]
    alpha: String,
    /// Also write an SVG picture of the position and its children (tic-tac-toe only).
    #[arg(long)]
    svg: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct AuditArgs {
    /// The rule: pmc, pmc2 or pmc2:alpha=A.
    #[arg(long)]
    rule: String,
    /// The minimax scoring to compare with: plain or sv.
    #[arg(long, default_value = "plain")]
    scoring: String,
    /// The game.
    #[arg(long, value_enum, default_value = "tictactoe")]
    game: TreeGame,
}

/// What the tree commands need from a game beyond the core traits.
trait TreeCliGame: CliGame {
    /// The default data file.
    const DATA_FILE: &'static str;
    /// Positions up to symmetry, where the game has symmetries.
    fn canonical_count(sol: &Solution<Self>) -> Option<usize>;
    /// The audit (symmetric images skipped where the game has symmetries).
    fn audit(
        sol: &Solution<Self>,
        rule: PlayoutRule,
        scoring: Scoring,
    ) -> Result<AuditReport<Self>, TreeError>;
    /// More lines for `tree build` (the game's own exact score, where it has one).
    fn build_report(&self) -> Res<String> {
        Ok(String::new())
    }
    /// A board picture for the SVG output, if the game has one.
    fn card(
        &self,
        labels: Vec<String>,
        highlight: bool,
        mv: Option<Self::Move>,
    ) -> Option<BoardCard>;
}

impl TreeCliGame for TicTacToe {
    const DATA_FILE: &'static str = "data/tictactoe.tree";

    fn canonical_count(sol: &Solution<Self>) -> Option<usize> {
        Some(sol.graph().canonical_count())
    }

    fn audit(
        sol: &Solution<Self>,
        rule: PlayoutRule,
        scoring: Scoring,
    ) -> Result<AuditReport<Self>, TreeError> {
        audit_symmetric(sol, rule, scoring)
    }

    fn card(
        &self,
        labels: Vec<String>,
        highlight: bool,
        mv: Option<Self::Move>,
    ) -> Option<BoardCard> {
        Some(BoardCard {
            picture: Picture::Marks {
                width: 3,
                height: 3,
                cells: Square::ALL.iter().map(|&sq| self.cell(sq)).collect(),
            },
            labels,
            highlight,
            marked: mv.map(Square::index).into_iter().collect(),
            outcome: None,
        })
    }
}

impl TreeCliGame for Nim {
    const DATA_FILE: &'static str = "data/nim15.tree";

    fn canonical_count(_: &Solution<Self>) -> Option<usize> {
        None
    }

    fn audit(
        sol: &Solution<Self>,
        rule: PlayoutRule,
        scoring: Scoring,
    ) -> Result<AuditReport<Self>, TreeError> {
        audit(sol, rule, scoring)
    }

    fn card(&self, _: Vec<String>, _: bool, _: Option<Self::Move>) -> Option<BoardCard> {
        None
    }
}

impl TreeCliGame for Othello4 {
    const DATA_FILE: &'static str = "data/othello4.tree";

    fn canonical_count(sol: &Solution<Self>) -> Option<usize> {
        Some(sol.graph().canonical_count())
    }

    fn audit(
        sol: &Solution<Self>,
        rule: PlayoutRule,
        scoring: Scoring,
    ) -> Result<AuditReport<Self>, TreeError> {
        audit_symmetric(sol, rule, scoring)
    }

    /// The exact disc-difference value (empties to the winner) and one principal variation,
    /// from the endgame solver.
    fn build_report(&self) -> Res<String> {
        let mut solver = Solver::new(SolverConfig {
            hash_mb: 16,
            ..SolverConfig::default()
        })?;
        let sol = solver.solve(self, Mode::Exact);
        let value = sol.score;
        let mut end = *self;
        for &mv in &sol.pv {
            end = yomi_core::Game::play(&end, mv)?;
        }
        let line: Vec<String> = sol.pv.iter().map(ToString::to_string).collect();
        Ok(format!(
            "root disc-difference value {value:+} (empties to the winner; black {}, white {} \
             at the end of the line below)\nprincipal variation {}\n",
            end.black().count(),
            end.white().count(),
            line.join(" ")
        ))
    }

    fn card(&self, _: Vec<String>, _: bool, _: Option<Self::Move>) -> Option<BoardCard> {
        None
    }
}

/// Runs `yomi tree ...`.
pub fn run(args: TreeArgs) -> Res<()> {
    match args.command {
        TreeCommand::Build(a) => match a.game {
            TreeGame::Tictactoe => build::<TicTacToe>(&a),
            TreeGame::Nim => build::<Nim>(&a),
            TreeGame::Othello4 => build::<Othello4>(&a),
        },
        TreeCommand::Show(a) => match a.game {
            TreeGame::Tictactoe => show::<TicTacToe>(&a),
            TreeGame::Nim => show::<Nim>(&a),
            TreeGame::Othello4 => show::<Othello4>(&a),
        },
        TreeCommand::Audit(a) => match a.game {
            TreeGame::Tictactoe => run_audit::<TicTacToe>(&a),
            TreeGame::Nim => run_audit::<Nim>(&a),
            TreeGame::Othello4 => run_audit::<Othello4>(&a),
        },
    }
}

/// `737/1260 (0.584921)`.
fn exact(r: Ratio) -> String {
    format!("{r} ({:.6})", r.to_f64())
}

/// Peak resident memory from `/proc/self/status`, if the system tells.
fn peak_memory() -> String {
    fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l.trim_start_matches("VmHWM:").trim().to_string())
        })
        .unwrap_or_else(|| "unknown".to_string())
}

fn build<G: TreeCliGame>(args: &BuildArgs) -> Res<()> {
    let [first, second] = G::PLAYER_NAMES;
    let clock = Instant::now();
    let sol = Solution::build(G::default())?;
    let solved = clock.elapsed();
    let counts = sol.graph().full_tree_counts()?;
    let counted = clock.elapsed();
    let bytes = encode(&sol)?;
    let path = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(G::DATA_FILE));
    // Through a temporary name, so that a tree file is never half-written.
    yomi_core::Container::write_bytes(&path, &bytes)
        .map_err(|e| format!("cannot write the tree: {e}"))?;
    let total = clock.elapsed();

    let mut out = String::new();
    let _ = writeln!(out, "{} game tree from {}", G::NAME, G::default());
    let _ = writeln!(out, "full tree (every move sequence), nodes per depth:");
    for (d, n) in counts.per_depth.iter().enumerate() {
        let _ = writeln!(out, "  depth {d:>3} {n:>12}");
    }
    let _ = writeln!(out, "  total     {:>12}", counts.total);
    let [w1, draw, w2] = counts.terminal;
    let _ = writeln!(
        out,
        "finished games {}: {first} wins {w1}, draws {draw}, {second} wins {w2}",
        w1 + draw + w2
    );
    let _ = write!(out, "distinct positions {}", sol.graph().len());
    match G::canonical_count(&sol) {
        Some(c) => {
            let _ = writeln!(out, ", up to symmetry {c}");
        }
        None => {
            let _ = writeln!(out, " (the game has no symmetries)");
        }
    }
    let _ = writeln!(out, "longest game {} plies", sol.longest_game());
    let _ = writeln!(
        out,
        "root minimax {} ({}), shortest victory {}",
        sol.plain(0),
        value_word(sol.plain(0), first, second),
        sol.sv(0)
    );
    out.push_str(&G::default().build_report()?);
    let p = sol.probs(0);
    let _ = writeln!(out, "root P({first} wins) = {}", exact(p.first()));
    let _ = writeln!(out, "root P(draw)    = {}", exact(p.draw()));
    let _ = writeln!(out, "root P({second} wins) = {}", exact(p.second()));
    for player in Player::BOTH {
        let _ = writeln!(
            out,
            "root playout score of {} (alpha 1/2) = {}",
            G::PLAYER_NAMES[player.index()],
            exact(p.score(player, Ratio::HALF)?)
        );
    }
    let _ = writeln!(
        out,
        "wrote {} ({} bytes, {} records)",
        path.display(),
        bytes.len(),
        sol.graph().len()
    );
    let _ = writeln!(
        out,
        "time: graph + solve {:.2} ms, full-tree counts {:.2} ms, total with file {:.2} ms",
        solved.as_secs_f64() * 1e3,
        (counted - solved).as_secs_f64() * 1e3,
        total.as_secs_f64() * 1e3
    );
    let _ = writeln!(out, "peak memory (VmHWM): {}", peak_memory());
    print!("{out}");
    Ok(())
}

fn value_word(v: i8, first: &str, second: &str) -> String {
    match v {
        1 => format!("{first} wins"),
        -1 => format!("{second} wins"),
        _ => "draw".to_string(),
    }
}

fn show<G: TreeCliGame>(args: &ShowArgs) -> Res<()> {
    let pos: G = args
        .position
        .parse()
        .map_err(|e| format!("bad {} position {:?}: {e}", G::NAME, args.position))?;
    let alpha: Ratio =
        yomi_tree::parse_alpha(&args.alpha).map_err(|e| format!("bad --alpha: {e}"))?;
    if args.svg.is_some() && pos.card(Vec::new(), false, None).is_none() {
        return Err(format!(
            "SVG pictures are drawn for tic-tac-toe only, not {}",
            G::NAME
        )
        .into());
    }
    let mut sol = shared_solution::<G>()?;
    if sol.id_of(&pos).is_none() {
        sol = shared_solution_from(&pos)?;
    }
    let id = sol
        .id_of(&pos)
        .ok_or_else(|| format!("position {pos} is not in the tree"))?;
    let graph = sol.graph();
    let [first, second] = G::PLAYER_NAMES;
    let show = |kind: DataKind| args.data.is_none_or(|d| d == kind);
    // The columns for one position reached at ply `ply`.
    let columns = |node: usize, ply: u32| -> Res<Vec<String>> {
        let mut cols = Vec::new();
        if show(DataKind::Minimax) {
            cols.push(sol.plain(node).to_string());
        }
        if show(DataKind::Sv) {
            cols.push(sol.sv_at(node, ply).to_string());
        }
        let p = sol.probs(node);
        if show(DataKind::Probs) {
            cols.extend([p.first(), p.draw(), p.second()].map(exact));
        }
        if show(DataKind::Score) {
            cols.push(exact(p.score(Player::First, alpha)?));
            cols.push(exact(p.score(Player::Second, alpha)?));
        }
        Ok(cols)
    };
    let mut header = Vec::new();
    if show(DataKind::Minimax) {
        header.push("minimax".to_string());
    }
    if show(DataKind::Sv) {
        header.push("sv".to_string());
    }
    if show(DataKind::Probs) {
        header.extend([
            format!("P({first} wins)"),
            "P(draw)".to_string(),
            format!("P({second} wins)"),
        ]);
    }
    if show(DataKind::Score) {
        header.push(format!("score {first}"));
        header.push(format!("score {second}"));
    }
    let ply = graph.depth(id);
    let mut out = String::new();
    let _ = writeln!(out, "{}", pos.picture());
    let _ = writeln!(
        out,
        "position {pos} ({}, ply {ply}; values from {first}'s side; scores with alpha {alpha})",
        G::NAME
    );
    let mut rows = vec![{
        let mut r = vec!["".to_string(), "position".to_string()];
        r.extend(header.iter().cloned());
        r.push("best".to_string());
        r
    }];
    let mut r = vec!["-".to_string(), pos.to_string()];
    r.extend(columns(id, ply)?);
    r.push(String::new());
    rows.push(r);
    let moves = graph.moves(id);
    for (k, child) in graph.children(id).enumerate() {
        let mut r = vec![moves[k].to_string(), graph.position(child).to_string()];
        r.extend(columns(child, ply + 1)?);
        let mut best = Vec::new();
        if sol.is_best(id, k, Scoring::Plain) {
            best.push("minimax");
        }
        if sol.is_best(id, k, Scoring::ShortestVictory) {
            best.push("sv");
        }
        r.push(best.join(","));
        rows.push(r);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(cell, w)| format!("{cell:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    if moves.is_empty() {
        let _ = writeln!(out, "the game is over");
    }
    print!("{out}");
    if let Some(path) = &args.svg {
        let labels = |node: usize, ply: u32| -> Res<Vec<String>> {
            let mut l = Vec::new();
            let p = sol.probs(node);
            if show(DataKind::Minimax) || show(DataKind::Sv) {
                let mut parts = Vec::new();
                if show(DataKind::Minimax) {
                    parts.push(format!("minimax {}", sol.plain(node)));
                }
                if show(DataKind::Sv) {
                    parts.push(format!("sv {}", sol.sv_at(node, ply)));
                }
                l.push(parts.join("  "));
            }
            if show(DataKind::Probs) {
                l.push(format!("P({first}) {}", p.first()));
                l.push(format!("P(draw) {}", p.draw()));
                l.push(format!("P({second}) {}", p.second()));
            }
            if show(DataKind::Score) {
                l.push(format!("score {first} {}", p.score(Player::First, alpha)?));
                l.push(format!(
                    "score {second} {}",
                    p.score(Player::Second, alpha)?
                ));
            }
            Ok(l)
        };
        let parent = pos
            .card(labels(id, ply)?, false, None)
            .ok_or("no picture for this game")?;
        let mut children = Vec::new();
        for (k, child) in graph.children(id).enumerate() {
            let mut l = vec![moves[k].to_string()];
            l.extend(labels(child, ply + 1)?);
            // Best moves are framed: under the scoring shown, plain minimax by default.
            let scoring = match args.data {
                Some(DataKind::Sv) => Scoring::ShortestVictory,
                _ => Scoring::Plain,
            };
            let highlight = sol.is_best(id, k, scoring);
            children.push(
                graph
                    .position(child)
                    .card(l, highlight, Some(moves[k]))
                    .ok_or("no picture for this game")?,
            );
        }
        fs::write(path, tree_picture(&parent, &children))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

fn run_audit<G: TreeCliGame>(args: &AuditArgs) -> Res<()> {
    let rule: PlayoutRule = args.rule.parse()?;
    let scoring: Scoring = args.scoring.parse()?;
    let sol = shared_solution::<G>()?;
    let report = G::audit(&sol, rule, scoring)?;
    let skip = if G::canonical_count(&sol).is_some() {
        "repeats and symmetric images skipped"
    } else {
        "repeats skipped"
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "audit of {rule} against {scoring} minimax ({}): full tree breadth first, {skip}",
        G::NAME
    );
    let list = |ms: &[G::Move]| {
        ms.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    for f in &report.findings {
        let _ = writeln!(
            out,
            "{:<12} ply {:<2} rule {:<24} best {}",
            f.position.to_string(),
            sol.graph().depth(f.id),
            list(&f.rule_moves),
            list(&f.best_moves)
        );
    }
    let _ = writeln!(out, "positions checked {}", report.checked);
    let _ = writeln!(out, "count {}", report.findings.len());
    print!("{out}");
    Ok(())
}
