use yomi_core::{Agent, AgentError, Explanation, Game, MoveScore, Rng};
use yomi_nim::{Nim, Take};
use yomi_tictactoe::TicTacToe;

use super::*;

/// A test agent with parameters, to exercise [`Params`].
#[derive(Debug)]
struct Fixed {
    take: u8,
    spec: String,
}

impl Agent<Nim> for Fixed {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn explain(&mut self, state: &Nim, _rng: &mut Rng) -> Result<Explanation<Take>, AgentError> {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Err(AgentError::GameOver);
        }
        let want = Take::new(self.take).expect("checked by the builder");
        let scored = moves
            .iter()
            .map(|&m| MoveScore::new(m, f64::from(u8::from(m == want))))
            .collect();
        Ok(Explanation::from_scores(self.spec.clone(), scored, |b| {
            b[0]
        }))
    }
}

fn registry() -> Registry<Nim> {
    let mut r = Registry::empty();
    register_generic(&mut r);
    r.register(
        AgentInfo {
            name: "fixed",
            summary: "takes a fixed number when it can",
            params: vec![
                ParamInfo {
                    name: "take",
                    default: "2",
                    help: "stones to take",
                },
                ParamInfo {
                    name: "weight",
                    default: "0.5",
                    help: "unused",
                },
            ],
        },
        |p| {
            let take = p.u64_in("take", 1, 3)? as u8;
            p.f64_in("weight", 0.0, 1.0)?;
            Ok(Box::new(Fixed {
                take,
                spec: p.full_spec(),
            }))
        },
    );
    r
}

#[test]
fn builds_known_agents_with_defaults_and_values() {
    let r = registry();
    assert_eq!(r.names(), vec!["random", "first", "fixed"]);
    let a = r.build("fixed").unwrap();
    assert_eq!(a.spec(), "fixed:take=2,weight=0.5");
    let mut b = r.build("fixed:weight=0.25,take=3").unwrap();
    assert_eq!(b.spec(), "fixed:take=3,weight=0.25");
    let mv = b
        .choose(&Nim::default(), &mut Rng::seed_from_u64(0))
        .unwrap();
    assert_eq!(mv.count(), 3);
}

#[test]
fn errors_list_the_valid_choices() {
    let r = registry();
    let err = r.build("rnadom").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown agent \"rnadom\" for nim; known agents: random, first, fixed"
    );
    let err = r.build("fixed:tkae=1").unwrap_err();
    assert_eq!(
        err.to_string(),
        "agent fixed has no parameter \"tkae\"; its parameters: take, weight"
    );
    let err = r.build("random:x=1").unwrap_err();
    assert!(err.to_string().ends_with("its parameters: (none)"), "{err}");
    for bad in [
        "fixed:take=0",
        "fixed:take=4",
        "fixed:take=two",
        "fixed:weight=nan",
    ] {
        assert!(
            matches!(r.build(bad), Err(BuildAgentError::BadValue { .. })),
            "{bad}"
        );
    }
    assert!(matches!(r.build(""), Err(BuildAgentError::Spec(_))));
}

#[test]
fn random_and_first_agree_with_their_explanations() {
    let zoo = TicTacToe::zoo();
    for name in ["random", "first"] {
        let mut agent = zoo.build(name).unwrap();
        let mut pos = TicTacToe::default();
        let mut seed = 0;
        while !pos.is_over() {
            let mut r1 = Rng::seed_from_u64(seed);
            let mut r2 = r1.clone();
            let chosen = agent.choose(&pos, &mut r1).unwrap();
            let explained = agent.explain(&pos, &mut r2).unwrap();
            assert_eq!(chosen, explained.chosen);
            assert_eq!(r1, r2, "{name} used the generator differently");
            assert_eq!(explained.moves.len(), pos.legal_moves().len());
            assert!(explained.best.contains(&chosen));
            pos = pos.play(chosen).unwrap();
            seed += 1;
        }
        assert_eq!(
            agent.choose(&pos, &mut Rng::seed_from_u64(0)),
            Err(AgentError::GameOver)
        );
    }
}

#[test]
fn first_plays_the_first_move_and_random_covers_all() {
    let pos = TicTacToe::default();
    let mut first = FirstAgent;
    let mut rng = Rng::seed_from_u64(5);
    assert_eq!(
        Agent::<TicTacToe>::choose(&mut first, &pos, &mut rng).unwrap(),
        pos.legal_moves()[0]
    );
    let mut seen = std::collections::HashSet::new();
    for _ in 0..500 {
        seen.insert(Agent::<TicTacToe>::choose(&mut RandomAgent, &pos, &mut rng).unwrap());
    }
    assert_eq!(seen.len(), 9);
}

mod analysis;
mod generic;
mod matches;
mod montecarlo;
mod othello;
mod search;
mod small_othello;
mod study;
mod tree;
