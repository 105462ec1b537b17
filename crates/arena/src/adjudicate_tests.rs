//! Adjudicated matches: the same results as playing out with a perfect endgame agent, at any
//! thread count, in shards and resumed; games that end first are untouched; a failing
//! adjudicator stops the match.

use std::sync::Arc;

use yomi_agents::RandomAgent;
use yomi_core::{Agent, AgentError, Explanation, Game, GameResult, Rng, StopFlag};
use yomi_othello::{Board, Move, MoveSequence, Othello, Othello4};
use yomi_othello_search::{Mode, Solver, SolverConfig};
use yomi_tictactoe::TicTacToe;

use super::*;

fn config(rounds: u64, threads: usize) -> MatchConfig {
    MatchConfig {
        rounds,
        seed: 11,
        threads: Some(threads),
    }
}

/// One finished game as the observer saw it.
#[derive(Clone, Debug, PartialEq)]
struct Seen<M> {
    index: u64,
    result: GameResult,
    moves: Vec<M>,
    adjudication: Option<GameAdjudication>,
}

/// Keeps every finished game.
struct Keep<G: Game>(Vec<Seen<G::Move>>);

impl<G: Game> Observer<G> for Keep<G> {
    fn finished(&mut self, game: &FinishedGame<'_, G>) -> Result<(), String> {
        self.0.push(Seen {
            index: game.index,
            result: game.result,
            moves: game.moves.to_vec(),
            adjudication: game.adjudication.cloned(),
        });
        Ok(())
    }
}

/// Plays a match of random agents; the result without times and the games in index order.
fn random_match<G: Game>(
    options: &RunOptions<G>,
    config: &MatchConfig,
) -> (MatchResult, Vec<Seen<G::Move>>)
where
    RandomAgent: Agent<G>,
{
    play(options, config, || RandomAgent, || RandomAgent)
}

fn play<G: Game, A: Agent<G>, B: Agent<G>>(
    options: &RunOptions<G>,
    config: &MatchConfig,
    a: impl Fn() -> A + Sync,
    b: impl Fn() -> B + Sync,
) -> (MatchResult, Vec<Seen<G::Move>>) {
    let mut keep = Keep::<G>(Vec::new());
    let mut result = run_match(config, options, a, b, &mut keep).unwrap();
    result.time = Default::default();
    keep.0.sort_by_key(|g| g.index);
    (result, keep.0)
}

/// Plays at random until the game has `empties` or fewer empty squares, then perfectly (the
/// exact solver's best move).
#[derive(Debug)]
struct PerfectFrom {
    empties: u32,
    solver: Solver,
}

impl PerfectFrom {
    fn new(empties: u32) -> PerfectFrom {
        PerfectFrom {
            empties,
            solver: Solver::new(SolverConfig::default()).unwrap(),
        }
    }
}

impl<const N: usize> Agent<Board<N>> for PerfectFrom {
    fn spec(&self) -> String {
        format!("perfect-from:{}", self.empties)
    }

    fn explain(
        &mut self,
        state: &Board<N>,
        rng: &mut Rng,
    ) -> Result<Explanation<Move>, AgentError> {
        RandomAgent.explain(state, rng)
    }

    fn choose(&mut self, state: &Board<N>, rng: &mut Rng) -> Result<Move, AgentError> {
        if state.empties().count() > self.empties {
            return RandomAgent.choose(state, rng);
        }
        Ok(self
            .solver
            .solve(state, Mode::Exact)
            .best
            .expect("an unfinished game has a move"))
    }
}

/// A few 8x8 openings.
fn openings() -> Openings<Othello> {
    // The first four of `data/openings/othello-8ply.txt`.
    let text = "e6f6g6e3f3e7c4c3\nd3c5b6c3e6f5c6d2\nc4e3f6e6f3g3f5g4\nd3e3f6c5e2d6c6f4\n";
    Openings::parse("test openings", text, |line| {
        line.parse::<MoveSequence>()
            .map_err(|e| e.to_string())
            .and_then(|s| s.play_from(&Othello::new()).map_err(|e| e.to_string()))
    })
    .unwrap()
}

fn adjudicated(rule: &str) -> RunOptions<Othello> {
    let mut options = RunOptions::new(openings());
    options.record_moves = true;
    let judge: SolveAdjudicator = rule.parse().unwrap();
    options.adjudicator = Some(Arc::new(judge));
    options
}

/// The position a game's moves reach from its round's opening.
fn replay<G: Game>(options: &RunOptions<G>, game: &Seen<G::Move>) -> G {
    let mut pos = options.openings.for_round(game.index / 2).position.clone();
    for &mv in &game.moves {
        pos = pos.play(mv).unwrap();
    }
    pos
}

/// A's side in game `index` from `start`: A moves first in even games.
fn a_side<G: Game>(start: &G, index: u64) -> yomi_core::Player {
    if index.is_multiple_of(2) {
        start.side_to_move()
    } else {
        start.side_to_move().other()
    }
}

#[test]
fn an_adjudicated_match_ends_each_game_as_perfect_play_would() {
    let options = adjudicated("exact=12");
    let (result, games) = random_match(&options, &config(12, 2));
    assert_eq!(result.adjudicator.as_deref(), Some("exact=12"));
    assert_eq!(games.len(), 24);
    // Random games almost always reach 12 empties.
    assert!(result.adjudicated() >= 20, "{}", result.outcomes);
    let mut solver = Solver::new(SolverConfig::default()).unwrap();
    for game in &games {
        let slot = game.index as usize;
        assert_eq!(result.outcomes.get(slot), Some(game.result));
        let Some(adj) = &game.adjudication else {
            assert!(!result.outcomes.is_adjudicated(slot));
            continue;
        };
        assert!(result.outcomes.is_adjudicated(slot));
        // The moves end at the position decided: the first with 12 empties or fewer whose
        // side to move has a move.
        let pos = replay(&options, game);
        assert_eq!(adj.position, pos.to_string());
        assert!(pos.empties().count() <= 12 && !pos.moves().is_empty());
        let mut before = options.openings.for_round(game.index / 2).position;
        for &mv in &game.moves {
            assert!(before.empties().count() > 12 || before.moves().is_empty());
            before = before.play(mv).unwrap();
        }
        // The proved margin is the solver's, from A's side.
        let score = solver.solve(&pos, Mode::Exact).score;
        let a = a_side(
            &options.openings.for_round(game.index / 2).position,
            game.index,
        );
        let a_margin = if pos.side_to_move() == a {
            score
        } else {
            -score
        };
        assert_eq!(adj.margin, Some(a_margin), "game {}", game.index);
        assert_eq!(adj.rule, "exact=12");
        let expected = match a_margin.signum() {
            1 => GameResult::Win,
            -1 => GameResult::Loss,
            _ => GameResult::Draw,
        };
        assert_eq!((adj.result, game.result), (expected, expected));
    }

    // Played out: random to 12 empties, then perfect for both sides. Same results, and each
    // final margin is the adjudicated one.
    let mut plain = options.clone();
    plain.adjudicator = None;
    let (full, full_games) = play(
        &plain,
        &config(12, 2),
        || PerfectFrom::new(12),
        || PerfectFrom::new(12),
    );
    for (adj_game, full_game) in games.iter().zip(&full_games) {
        assert_eq!(adj_game.index, full_game.index);
        assert_eq!(adj_game.result, full_game.result, "game {}", adj_game.index);
        assert_eq!(
            adj_game.moves[..],
            full_game.moves[..adj_game.moves.len()],
            "game {}: the adjudicated game is the start of the played-out one",
            adj_game.index
        );
        if let Some(adj) = &adj_game.adjudication {
            let end = replay(&plain, full_game);
            let black = yomi_core::FinalScore::final_score(&end).unwrap();
            let a = a_side(
                &options.openings.for_round(adj_game.index / 2).position,
                adj_game.index,
            );
            let a_margin = if a == yomi_core::Player::First {
                black
            } else {
                -black
            };
            assert_eq!(adj.margin, Some(a_margin), "game {}", adj_game.index);
        }
    }
    assert_eq!(full.total(), result.total());
    assert_eq!(full.pairs, result.pairs);
    assert_eq!(full.adjudicated(), 0);

    // wld proves the same results, without margins.
    let (wld, wld_games) = random_match(&adjudicated("wld=12"), &config(12, 2));
    assert_eq!(wld.total(), result.total());
    assert_eq!(wld.adjudicated(), result.adjudicated());
    for (w, e) in wld_games.iter().zip(&games) {
        assert_eq!((w.result, &w.moves), (e.result, &e.moves));
        if let Some(adj) = &w.adjudication {
            assert_eq!((adj.rule.as_str(), adj.margin), ("wld=12", None));
        }
    }
}

#[test]
fn adjudicated_results_are_the_same_at_any_thread_count_in_shards_and_resumed() {
    let options = adjudicated("exact=14");
    let (one, one_games) = random_match(&options, &config(10, 1));
    let (two, two_games) = random_match(&options, &config(10, 2));
    assert_eq!(one, two);
    assert_eq!(one_games, two_games);
    assert_eq!(
        serde_json::to_string(&one).unwrap(),
        serde_json::to_string(&two).unwrap()
    );
    assert!(one.adjudicated() > 0);
    assert!(serde_json::to_string(&one)
        .unwrap()
        .contains(r#""adjudicator":"exact=14""#));
    // Shards merge into the whole match, adjudications included.
    let shards: Vec<MatchResult> = (0..2)
        .map(|k| {
            let mut o = options.clone();
            o.shard = Shard { index: k, count: 2 };
            random_match(&o, &config(10, 2)).0
        })
        .collect();
    let mut merged = MatchResult::merge(&shards).unwrap();
    merged.time = Default::default();
    assert_eq!(merged, one);
    // A shard of another rule is another run.
    let mut other = adjudicated("exact=13");
    other.shard = Shard { index: 1, count: 2 };
    let other = random_match(&other, &config(10, 2)).0;
    let err = MatchResult::merge(&[shards[0].clone(), other]).unwrap_err();
    assert!(
        err.to_string().contains("adjudication is exact=13"),
        "{err}"
    );
    // A resumed match keeps the adjudications of the games it does not play again.
    let mut again = options.clone();
    again.prior = (0..7)
        .map(|i| (i, one.outcomes.get(i as usize).unwrap()))
        .collect();
    again.prior_adjudicated = (0..7)
        .filter(|&i| one.outcomes.is_adjudicated(i as usize))
        .collect();
    let (resumed, played) = random_match(&again, &config(10, 2));
    assert_eq!(resumed, one);
    assert_eq!(played[..], one_games[7..]);
}

/// The rule's empties in the 4x4 test: at 1 empty, a good share of random 4x4 games have
/// ended before (at 3, almost none).
const EARLY: u32 = 1;

#[test]
fn games_that_end_before_the_rule_s_empties_are_played_out() {
    // On 4x4, random games often end with empty squares left (nobody can move).
    let mut options = RunOptions::from_start(Othello4::new());
    options.record_moves = true;
    let (full, full_games) = random_match(&options, &config(100, 2));
    options.adjudicator = Some(Arc::new(SolveAdjudicator::new(Mode::Exact, EARLY).unwrap()));
    let (judged, judged_games) = random_match(&options, &config(100, 2));
    let (mut early, mut decided) = (0, 0);
    for (j, f) in judged_games.iter().zip(&full_games) {
        match &j.adjudication {
            None => {
                // Never at EARLY empties with a move to play: the very same game.
                early += 1;
                assert_eq!(j, f);
            }
            Some(adj) => {
                // Decided where the played-out game passed (its random end may differ).
                decided += 1;
                assert_eq!(j.moves[..], f.moves[..j.moves.len()]);
                assert_eq!(adj.position, replay(&options, j).to_string());
            }
        }
    }
    assert!(early > 10 && decided > 10, "{early} {decided}");
    assert_eq!(judged.adjudicated(), decided);
    assert_eq!(full.adjudicated(), 0);
}

/// Fails in every game once the board holds `marks` marks.
#[derive(Debug)]
struct Failing {
    marks: usize,
}

impl std::fmt::Display for Failing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "failing={}", self.marks)
    }
}

impl Adjudicator<TicTacToe> for Failing {
    fn adjudicate(&self, pos: &TicTacToe, _: &StopFlag) -> Result<Option<Verdict>, String> {
        if pos.marks() as usize >= self.marks {
            Err("the solver broke".into())
        } else {
            Ok(None)
        }
    }
}

#[test]
fn a_failing_adjudicator_stops_the_match_naming_the_game() {
    let mut options = RunOptions::from_start(TicTacToe::default());
    options.adjudicator = Some(Arc::new(Failing { marks: 3 }));
    let err = run_match(
        &config(5, 1),
        &options,
        || RandomAgent,
        || RandomAgent,
        &mut NoObserver,
    )
    .unwrap_err();
    match &err {
        MatchError::Adjudication { rule, game, .. } => {
            assert_eq!((rule.as_str(), *game), ("failing=3", 0));
        }
        other => panic!("{other:?}"),
    }
    let text = err.to_string();
    assert!(
        text.starts_with("adjudication (failing=3) failed in game 0 at position"),
        "{text}"
    );
    assert!(text.ends_with("the solver broke"), "{text}");
}
