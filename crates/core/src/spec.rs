use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// An agent spec: a name and named parameters, written `name:key=value,key=value`.
///
/// A value that contains `,`, `:`, `=`, brackets or spaces is written in round brackets, which
/// nest, so a spec can hold another spec: `blunder:p=0.1,agent=(pmc2:pnum=100,alpha=0.5)`.
/// Names and keys use lowercase letters, digits, `_` and `-`. Parameter order is kept; a key may
/// appear once.
///
/// ```
/// use yomi_core::AgentSpec;
/// let spec: AgentSpec = "blunder:p=0.1,agent=(pmc2:pnum=100)".parse()?;
/// assert_eq!(spec.name(), "blunder");
/// assert_eq!(spec.get("agent"), Some("pmc2:pnum=100"));
/// assert_eq!(spec.to_string(), "blunder:p=0.1,agent=(pmc2:pnum=100)");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AgentSpec {
    name: String,
    params: Vec<(String, String)>,
}

/// Why an agent spec did not parse.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ParseSpecError {
    /// The spec was empty.
    #[error("empty agent spec")]
    Empty,
    /// A name or key held a character outside `a-z 0-9 _ -`.
    #[error("bad {what} {text:?} in agent spec (use a-z, 0-9, '_' and '-')")]
    BadIdent {
        /// `"agent name"` or `"parameter name"`.
        what: &'static str,
        /// The offending text.
        text: String,
    },
    /// A parameter lacked `=value`.
    #[error("parameter {param:?} has no value (write {param}=VALUE)")]
    MissingValue {
        /// The parameter.
        param: String,
    },
    /// A parameter was given twice.
    #[error("parameter {param:?} is given twice")]
    Duplicate {
        /// The parameter.
        param: String,
    },
    /// Round brackets did not match.
    #[error("unbalanced brackets in agent spec {spec:?}")]
    Brackets {
        /// The whole spec.
        spec: String,
    },
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_' || b == b'-')
}

fn ident(what: &'static str, text: &str) -> Result<String, ParseSpecError> {
    if is_ident(text) {
        Ok(text.to_string())
    } else {
        Err(ParseSpecError::BadIdent {
            what,
            text: text.to_string(),
        })
    }
}

/// Splits at top-level commas (outside brackets).
fn split_top(s: &str, whole: &str) -> Result<Vec<String>, ParseSpecError> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => {
                depth += 1;
                cur.push(c);
            }
            ')' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| ParseSpecError::Brackets {
                        spec: whole.to_string(),
                    })?;
                cur.push(c);
            }
            ',' if depth == 0 => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if depth != 0 {
        return Err(ParseSpecError::Brackets {
            spec: whole.to_string(),
        });
    }
    parts.push(cur);
    Ok(parts)
}

/// Removes one pair of enclosing brackets if the whole value is bracketed.
fn unbracket(v: &str) -> &str {
    if v.starts_with('(') && v.ends_with(')') {
        // Only strip when the first bracket closes at the very end.
        let mut depth = 0usize;
        for (i, c) in v.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return if i == v.len() - 1 { &v[1..i] } else { v };
                    }
                }
                _ => {}
            }
        }
    }
    v
}

impl AgentSpec {
    /// A spec with a name and no parameters.
    ///
    /// # Errors
    /// [`ParseSpecError::BadIdent`] if the name uses other characters than `a-z 0-9 _ -`.
    pub fn new(name: &str) -> Result<AgentSpec, ParseSpecError> {
        Ok(AgentSpec {
            name: ident("agent name", name)?,
            params: Vec::new(),
        })
    }

    /// Adds (or replaces) a parameter.
    ///
    /// # Errors
    /// [`ParseSpecError::BadIdent`] for a bad key.
    pub fn set(&mut self, key: &str, value: impl Into<String>) -> Result<(), ParseSpecError> {
        let key = ident("parameter name", key)?;
        let value = value.into();
        match self.params.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.params.push((key, value)),
        }
        Ok(())
    }

    /// The agent's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameters in the order given.
    pub fn params(&self) -> &[(String, String)] {
        &self.params
    }

    /// The value of parameter `key`, brackets removed.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl FromStr for AgentSpec {
    type Err = ParseSpecError;

    fn from_str(s: &str) -> Result<AgentSpec, ParseSpecError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseSpecError::Empty);
        }
        let (name, rest) = match s.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (s, None),
        };
        let mut spec = AgentSpec::new(name.trim())?;
        if let Some(rest) = rest {
            for part in split_top(rest, s)? {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let (key, value) =
                    part.split_once('=')
                        .ok_or_else(|| ParseSpecError::MissingValue {
                            param: part.to_string(),
                        })?;
                let key = ident("parameter name", key.trim())?;
                let value = unbracket(value.trim());
                if value.is_empty() {
                    return Err(ParseSpecError::MissingValue { param: key });
                }
                if spec.get(&key).is_some() {
                    return Err(ParseSpecError::Duplicate { param: key });
                }
                spec.params.push((key, value.to_string()));
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            let plain = !v.is_empty()
                && !v
                    .chars()
                    .any(|c| matches!(c, ',' | ':' | '=' | '(' | ')') || c.is_whitespace());
            if plain {
                write!(f, "{k}={v}")?;
            } else {
                write!(f, "{k}=({v})")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        for text in [
            "random",
            "ai11s:score_102=0.5",
            "pmc2:pnum=1000,alpha=0.25",
            "blunder:p=0.1,agent=(pmc2:pnum=100,alpha=0.5)",
            "blunder:agent=(blunder:p=0.5,agent=(minimax:depth=3)),p=1",
        ] {
            let spec: AgentSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let again: AgentSpec = spec.to_string().parse().unwrap();
            assert_eq!(again, spec);
        }
        let spec: AgentSpec = " pmc2 : pnum = 10 , alpha=(0.5) ".parse().unwrap();
        assert_eq!(spec.name(), "pmc2");
        assert_eq!(spec.get("pnum"), Some("10"));
        assert_eq!(spec.get("alpha"), Some("0.5"));
        assert_eq!(spec.to_string(), "pmc2:pnum=10,alpha=0.5");
    }

    #[test]
    fn rejects_bad_specs() {
        assert_eq!("".parse::<AgentSpec>(), Err(ParseSpecError::Empty));
        assert!(matches!(
            "Random".parse::<AgentSpec>(),
            Err(ParseSpecError::BadIdent { .. })
        ));
        assert!(matches!(
            "pmc:pnum".parse::<AgentSpec>(),
            Err(ParseSpecError::MissingValue { .. })
        ));
        assert!(matches!(
            "pmc:pnum=".parse::<AgentSpec>(),
            Err(ParseSpecError::MissingValue { .. })
        ));
        assert!(matches!(
            "pmc:pnum=1,pnum=2".parse::<AgentSpec>(),
            Err(ParseSpecError::Duplicate { .. })
        ));
        assert!(matches!(
            "b:agent=(x:y=1".parse::<AgentSpec>(),
            Err(ParseSpecError::Brackets { .. })
        ));
        assert!(matches!(
            "b:agent=x)".parse::<AgentSpec>(),
            Err(ParseSpecError::Brackets { .. })
        ));
    }

    #[test]
    fn random_text_never_panics_and_parsed_specs_round_trip() {
        let alphabet: Vec<char> = "ab1_-:=,() =x(".chars().chain(['é', '\n']).collect();
        let mut rng = crate::Rng::seed_from_u64(11);
        let mut parsed = 0;
        for _ in 0..200_000 {
            let len = rng.below(14);
            let text: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            if let Ok(spec) = text.parse::<AgentSpec>() {
                parsed += 1;
                let again: AgentSpec = spec
                    .to_string()
                    .parse()
                    .unwrap_or_else(|e| panic!("{text:?} printed as {spec} does not parse: {e}"));
                assert_eq!(again, spec, "{text:?}");
            }
        }
        assert!(parsed > 1_000, "only {parsed} random specs parsed");
    }

    #[test]
    fn set_replaces_and_brackets_values() {
        let mut spec = AgentSpec::new("blunder").unwrap();
        spec.set("p", "0.1").unwrap();
        spec.set("agent", "pmc:pnum=5").unwrap();
        spec.set("p", "0.2").unwrap();
        assert_eq!(spec.to_string(), "blunder:p=0.2,agent=(pmc:pnum=5)");
        assert!(spec.set("Bad Key", "1").is_err());
        assert_eq!(
            "x:v=(a)(b)".parse::<AgentSpec>().unwrap().get("v"),
            Some("(a)(b)")
        );
    }
}
