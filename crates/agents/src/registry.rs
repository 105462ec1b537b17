use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use thiserror::Error;
use yomi_core::{Agent, AgentSpec, Game, ParseSpecError};

use crate::Weight;

/// A parameter an agent accepts, with its default written as it would be in a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The key, e.g. `pnum`.
    pub name: &'static str,
    /// The default value, e.g. `1000`; empty for a parameter the spec must give.
    pub default: &'static str,
    /// One line on what it does.
    pub help: &'static str,
}

/// What the registry knows of an agent: its name, a summary and its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentInfo {
    /// The name used in specs.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// The parameters it accepts.
    pub params: Vec<ParamInfo>,
}

impl AgentInfo {
    /// Whether the agent builds from its bare name: no parameter is required (every
    /// parameter has a default).
    #[must_use]
    pub fn builds_bare(&self) -> bool {
        self.params.iter().all(|p| !p.default.is_empty())
    }
}

/// Why an agent could not be built from a spec.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum BuildAgentError {
    /// The spec did not parse.
    #[error(transparent)]
    Spec(#[from] ParseSpecError),
    /// No agent of that name plays this game.
    #[error("unknown agent {name:?} for {game}; known agents: {known}")]
    UnknownAgent {
        /// The name asked for.
        name: String,
        /// The game.
        game: &'static str,
        /// The names that exist, comma-separated.
        known: String,
    },
    /// The agent has no parameter of that name.
    #[error("agent {agent} has no parameter {param:?}; its parameters: {valid}")]
    UnknownParam {
        /// The agent.
        agent: String,
        /// The parameter asked for.
        param: String,
        /// The parameters that exist, comma-separated, or `(none)`.
        valid: String,
    },
    /// A nested agent spec (such as `blunder`'s `agent`) could not be built.
    #[error("parameter {param} of {agent}: {source}")]
    Inner {
        /// The outer agent.
        agent: String,
        /// The parameter holding the nested spec.
        param: String,
        /// Why the nested agent could not be built.
        source: Box<BuildAgentError>,
    },
    /// The data the agent reads (a game tree, a table file) could not be built or loaded.
    #[error("{agent} could not load its data: {reason}")]
    Data {
        /// The agent.
        agent: String,
        /// What went wrong.
        reason: String,
    },
    /// A parameter's value is not acceptable.
    #[error("bad value {value:?} for parameter {param} of {agent}: expected {expected}")]
    BadValue {
        /// The agent.
        agent: String,
        /// The parameter.
        param: String,
        /// The value given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
}

/// The parameters of one spec, checked against the agent's [`AgentInfo`]; builders read typed
/// values from it, and absent parameters take their defaults.
#[derive(Debug)]
pub struct Params<'a> {
    spec: &'a AgentSpec,
    info: &'a AgentInfo,
}

impl<'a> Params<'a> {
    fn raw(&self, name: &str) -> &'a str {
        if let Some(v) = self.spec.get(name) {
            return v;
        }
        self.info
            .params
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.default)
            .unwrap_or_else(|| panic!("agent {} reads undeclared parameter {name}", self.info.name))
    }

    pub(crate) fn bad(&self, name: &str, expected: impl Into<String>) -> BuildAgentError {
        BuildAgentError::BadValue {
            agent: self.info.name.to_string(),
            param: name.to_string(),
            value: self.raw(name).to_string(),
            expected: expected.into(),
        }
    }

    /// The spec as given (parameters in the user's order, defaults not filled in).
    pub fn spec(&self) -> &'a AgentSpec {
        self.spec
    }

    /// The spec with every parameter spelled out (given values, else defaults), in the order the
    /// agent declares them: what an agent reports as its [`Agent::spec`].
    pub fn full_spec(&self) -> String {
        let mut spec = AgentSpec::new(self.info.name).expect("registered names are valid");
        for p in &self.info.params {
            spec.set(p.name, self.raw(p.name))
                .expect("registered keys are valid");
        }
        spec.to_string()
    }

    /// A text parameter.
    ///
    /// # Panics
    /// If the agent did not declare `name` (a bug in the agent, not bad input).
    pub fn text(&self, name: &str) -> &'a str {
        self.raw(name)
    }

    /// A finite number within `min..=max`.
    ///
    /// # Errors
    /// [`BuildAgentError::BadValue`] when it does not parse or lies outside the range.
    pub fn f64_in(&self, name: &str, min: f64, max: f64) -> Result<f64, BuildAgentError> {
        match self.raw(name).parse::<f64>() {
            Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(x),
            _ => Err(self.bad(name, format!("a number from {min} to {max}"))),
        }
    }

    /// An optional time limit in seconds within `0..=max_secs`; `0` means no limit.
    ///
    /// # Errors
    /// [`BuildAgentError::BadValue`] when it does not parse or lies outside the range.
    pub fn time_limit(
        &self,
        name: &str,
        max_secs: f64,
    ) -> Result<Option<Duration>, BuildAgentError> {
        let secs = self.f64_in(name, 0.0, max_secs)?;
        if secs == 0.0 {
            return Ok(None);
        }
        let limit = Duration::try_from_secs_f64(secs)
            .map_err(|_| self.bad(name, "a time in seconds that fits a duration"))?;
        // A positive limit is at least a nanosecond, so it prints back as a positive number.
        Ok(Some(limit.max(Duration::from_nanos(1))))
    }

    /// An exact decimal ([`Weight`], at most six places) within `min..=max`.
    ///
    /// # Errors
    /// [`BuildAgentError::BadValue`] when it does not parse or lies outside the range.
    pub fn weight_in(
        &self,
        name: &str,
        min: Weight,
        max: Weight,
    ) -> Result<Weight, BuildAgentError> {
        match self.raw(name).parse::<Weight>() {
            Ok(w) if (min..=max).contains(&w) => Ok(w),
            _ => Err(self.bad(
                name,
                format!("a decimal from {min} to {max} with at most 6 places"),
            )),
        }
    }

    /// A whole number within `min..=max`.
    ///
    /// # Errors
    /// [`BuildAgentError::BadValue`] when it does not parse or lies outside the range.
    pub fn u64_in(&self, name: &str, min: u64, max: u64) -> Result<u64, BuildAgentError> {
        match self.raw(name).parse::<u64>() {
            Ok(x) if (min..=max).contains(&x) => Ok(x),
            _ => Err(self.bad(name, format!("a whole number from {min} to {max}"))),
        }
    }
}

/// A builder; it receives the registry so that wrappers can build the agents they wrap.
type BuildFn<G> =
    dyn Fn(&Params<'_>, &Registry<G>) -> Result<Box<dyn Agent<G>>, BuildAgentError> + Send + Sync;

/// Builds agents for game `G` by name from spec strings such as `pmc2:pnum=1000`.
///
/// Unknown names and parameters are rejected with an error that lists the valid ones, before
/// the agent's own builder runs.
pub struct Registry<G: Game> {
    entries: Vec<(AgentInfo, Arc<BuildFn<G>>)>,
}

impl<G: Game> Clone for Registry<G> {
    fn clone(&self) -> Self {
        Registry {
            entries: self.entries.clone(),
        }
    }
}

impl<G: Game> fmt::Debug for Registry<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("game", &G::NAME)
            .field("agents", &self.names())
            .finish()
    }
}

impl<G: Game> Default for Registry<G> {
    fn default() -> Self {
        Registry::empty()
    }
}

impl<G: Game> Registry<G> {
    /// A registry with no agents.
    #[must_use]
    pub fn empty() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }

    /// Adds an agent (replacing one of the same name).
    pub fn register(
        &mut self,
        info: AgentInfo,
        build: impl Fn(&Params<'_>) -> Result<Box<dyn Agent<G>>, BuildAgentError>
            + Send
            + Sync
            + 'static,
    ) {
        self.register_nested(info, move |params, _| build(params));
    }

    /// Adds an agent whose builder also receives the registry, to build agents it wraps from
    /// nested specs (as `blunder:agent=(SPEC)` does). The registry passed is the one `build` is
    /// called on, so wrappers see agents registered after them.
    pub fn register_nested(
        &mut self,
        info: AgentInfo,
        build: impl Fn(&Params<'_>, &Registry<G>) -> Result<Box<dyn Agent<G>>, BuildAgentError>
            + Send
            + Sync
            + 'static,
    ) {
        self.entries.retain(|(i, _)| i.name != info.name);
        self.entries.push((info, Arc::new(build)));
    }

    /// The names of the registered agents, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        self.entries.iter().map(|(i, _)| i.name).collect()
    }

    /// Everything known about the registered agents.
    pub fn infos(&self) -> impl Iterator<Item = &AgentInfo> {
        self.entries.iter().map(|(i, _)| i)
    }

    /// What is known about agent `name`.
    pub fn info(&self, name: &str) -> Option<&AgentInfo> {
        self.infos().find(|i| i.name == name)
    }

    /// Builds an agent from a spec string.
    ///
    /// # Errors
    /// [`BuildAgentError`] for a spec that does not parse, an unknown agent or parameter, or a
    /// bad value.
    pub fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, BuildAgentError> {
        self.build_spec(&spec.parse()?)
    }

    /// Builds an agent from a parsed spec.
    ///
    /// # Errors
    /// As [`Registry::build`].
    pub fn build_spec(&self, spec: &AgentSpec) -> Result<Box<dyn Agent<G>>, BuildAgentError> {
        let Some((info, build)) = self.entries.iter().find(|(i, _)| i.name == spec.name()) else {
            return Err(BuildAgentError::UnknownAgent {
                name: spec.name().to_string(),
                game: G::NAME,
                known: self.names().join(", "),
            });
        };
        for (key, _) in spec.params() {
            if !info.params.iter().any(|p| p.name == key) {
                let valid: Vec<&str> = info.params.iter().map(|p| p.name).collect();
                return Err(BuildAgentError::UnknownParam {
                    agent: info.name.to_string(),
                    param: key.clone(),
                    valid: if valid.is_empty() {
                        "(none)".to_string()
                    } else {
                        valid.join(", ")
                    },
                });
            }
        }
        build(&Params { spec, info }, self)
    }
}
