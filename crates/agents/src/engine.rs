//! `engine`: an external program played through NBoard or GTP (see `yomi-protocol`).

use yomi_protocol::{split_command, EngineGame, EngineSpec, ExternalEngine, Protocol};

use crate::{AgentInfo, BuildAgentError, ParamInfo, Registry, Zoo};

/// The zoo of `G` ([`Zoo::zoo`]) with `engine` added: every agent, and external programs.
///
/// For specs that a user writes on their own machine (the command line) only: `engine` runs
/// the program its spec names, so a spec that comes from a network request must never reach
/// this registry. That is why [`Zoo::zoo`], which `yomi serve` uses, holds no `engine`.
#[must_use]
pub fn zoo_with_engines<G: Zoo + EngineGame>() -> Registry<G> {
    let mut registry = G::zoo();
    register_engine(&mut registry);
    registry
}

/// The longest time per move accepted, in seconds (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// Adds `engine`, which starts an external program and plays through its protocol.
pub fn register_engine<G: EngineGame>(registry: &mut Registry<G>) {
    registry.register(
        AgentInfo {
            name: "engine",
            summary: "an external engine: a program started and played through NBoard or GTP",
            params: vec![
                ParamInfo {
                    name: "cmd",
                    default: "",
                    help: "the program and its arguments, in brackets; split as a shell would, no shell run",
                },
                ParamInfo {
                    name: "protocol",
                    default: "",
                    help: "nboard (Othello) or gtp",
                },
                ParamInfo {
                    name: "time",
                    default: "5",
                    help: "seconds per move; a reply later than that (plus a grace) forfeits",
                },
                ParamInfo {
                    name: "depth",
                    default: "0",
                    help: "NBoard search depth to ask for (0: 20)",
                },
                ParamInfo {
                    name: "name",
                    default: "",
                    help: "a name for tables and records",
                },
            ],
        },
        |p| {
            let bad = |param: &str, value: &str, expected: &str| BuildAgentError::BadValue {
                agent: "engine".into(),
                param: param.into(),
                value: value.into(),
                expected: expected.into(),
            };
            let cmd = p.text("cmd");
            let command = split_command(cmd).map_err(|e| bad("cmd", cmd, &e.to_string()))?;
            let proto = p.text("protocol");
            let protocol: Protocol = proto
                .parse()
                .map_err(|_| bad("protocol", proto, "nboard or gtp"))?;
            let time = p
                .time_limit("time", MAX_SECONDS)?
                .ok_or_else(|| bad("time", p.text("time"), "a positive number of seconds"))?;
            let depth = match p.u64_in("depth", 0, 64)? {
                0 => None,
                d => Some(d as u32),
            };
            let name = Some(p.text("name").to_string()).filter(|n| !n.is_empty());
            let spec = EngineSpec {
                command_line: cmd.to_string(),
                command,
                protocol,
                time,
                depth,
                name,
            };
            let engine = ExternalEngine::<G>::new(spec)
                .map_err(|e| bad("protocol", proto, &e.to_string()))?;
            Ok(Box::new(engine))
        },
    );
}

#[cfg(test)]
mod tests {
    use yomi_core::Agent;
    use yomi_nim::Nim;
    use yomi_othello::Othello;

    use super::*;

    #[test]
    fn engine_specs_build_without_starting_anything() {
        let zoo = zoo_with_engines::<Othello>();
        let agent = zoo
            .build("engine:cmd=(my-engine --level 'a b'),protocol=nboard,time=2,name=(x y)")
            .unwrap();
        assert_eq!(
            agent.spec(),
            "engine:cmd=(my-engine --level 'a b'),protocol=nboard,time=2,name=(x y)"
        );
        // The command may hold a nested agent spec, brackets and commas included.
        let nested =
            "engine:cmd=(yomi engine --agent blunder:p=0.1,agent=(alphabeta)),protocol=gtp";
        assert_eq!(
            zoo.build(nested).unwrap().spec(),
            format!("{nested},time=5")
        );
        // Nested in a wrapper, too.
        assert!(zoo
            .build("blunder:p=0.1,agent=(engine:cmd=(e),protocol=gtp)")
            .is_ok());
        // The plain zoo (what `yomi serve` builds from) has no engine.
        assert!(Othello::zoo().build("engine:cmd=(e),protocol=gtp").is_err());
        assert!(Othello::zoo().info("engine").is_none());
    }

    #[test]
    fn bad_engine_specs_are_refused() {
        let zoo = zoo_with_engines::<Othello>();
        for bad in [
            "engine:protocol=gtp",
            "engine:cmd=(e)",
            "engine:cmd=(e),protocol=uci",
            "engine:cmd=(e | f),protocol=gtp",
            "engine:cmd=('e),protocol=gtp",
            "engine:cmd=(e),protocol=gtp,time=0",
            "engine:cmd=(e),protocol=gtp,time=-1",
            "engine:cmd=(e),protocol=gtp,depth=99",
        ] {
            assert!(
                matches!(zoo.build(bad), Err(BuildAgentError::BadValue { .. })),
                "{bad}"
            );
        }
        // NBoard speaks Othello only.
        let err = zoo_with_engines::<Nim>()
            .build("engine:cmd=(e),protocol=nboard")
            .unwrap_err();
        assert!(
            err.to_string().contains("NBoard speaks only Othello"),
            "{err}"
        );
    }
}
