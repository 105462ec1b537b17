//! Agents for the web: specs bounded by the server's time cap, fresh seeds, and the listing of
//! every agent with its parameters.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use yomi_agents::{AgentInfo, Registry};
use yomi_core::{splitmix64, AgentSpec, Game};

use crate::book::SERVER_BOOK;
use crate::{ApiError, ServeConfig};

/// The longest agent spec accepted, in bytes.
pub(crate) const MAX_SPEC_LEN: usize = 1_000;

/// How deeply nested specs are rewritten (the registry refuses deeper ones anyway).
const MAX_NESTING: usize = 8;

/// Upper limits of numeric parameters whose cost no `time` limit bounds.
const NUMERIC_CAPS: [(&str, u64); 4] = [
    ("wld", 20),
    ("exact", 18),
    ("hash_mb", 64),
    ("hash_bits", 20),
];

/// The tree data files that a `table` agent may read: the committed ones, by their path
/// relative to the directory the server runs in.
pub(crate) const TABLE_FILES: [&str; 2] = ["data/tictactoe.tree", "data/nim15.tree"];

/// Parameters that name a file to read, with the one value a client of the page may give
/// (the `othello` agent's weights and opening book; `book` may also be [`SERVER_BOOK`] when
/// the server has a book).
const FILE_PARAMS: [(&str, &str); 2] = [("weights", "builtin"), ("book", "off")];

/// The spec to build for `text`: checked by the registry, with every `time` parameter set to
/// at most the server's thinking time (a zero `time`, meaning "no limit", becomes the cap,
/// and so does a missing one unless the agent's default is within the cap), nested specs
/// rewritten the same way, `table` limited to the committed data files (read from the
/// server's `data_dir`), `book=server` naming the server's book, and no other file read
/// (`weights` and `book` otherwise only at their defaults).
///
/// # Errors
/// [`ApiError::Refused`] for a spec that is too long or reads another file,
/// [`ApiError::Agent`] for one the registry does not build.
pub(crate) fn bounded_spec<G: Game>(
    registry: &Registry<G>,
    text: &str,
    config: &ServeConfig,
) -> Result<String, ApiError> {
    if text.len() > MAX_SPEC_LEN {
        return Err(ApiError::Refused(format!(
            "the spec is {} bytes long (at most {MAX_SPEC_LEN})",
            text.len()
        )));
    }
    let spec: AgentSpec = text.parse().map_err(yomi_agents::BuildAgentError::from)?;
    // Files are refused before anything is built (building `table` reads its file); the
    // registry then checks the rewritten spec (a `time` that is not a number is left as it
    // was, for the registry to refuse).
    let bounded = rewrite(registry, &spec, config, 0)?.to_string();
    registry.build(&bounded)?;
    Ok(bounded)
}

fn rewrite<G: Game>(
    registry: &Registry<G>,
    spec: &AgentSpec,
    config: &ServeConfig,
    depth: usize,
) -> Result<AgentSpec, ApiError> {
    let cap = config.think_time;
    let Some(info) = registry.info(spec.name()) else {
        return Ok(spec.clone());
    };
    let mut out = spec.clone();
    let set = |out: &mut AgentSpec, key: &str, value: String| {
        out.set(key, value)
            .map_err(|e| ApiError::Refused(format!("cannot rewrite the spec: {e}")))
    };
    let has = |name: &str| info.params.iter().any(|p| p.name == name);
    // A strength level (`othello:level=N`) sets the values it does not find given: no time
    // limit, and its own solve empties.
    let level = spec
        .get("level")
        .and_then(|v| v.parse::<u32>().ok())
        .and_then(|n| {
            yomi_agents::agent_levels(G::NAME, info.name)?
                .iter()
                .find(|l| l.level == n)
        });
    let in_force = |key: &str| -> Option<String> {
        if let Some(v) = spec.get(key) {
            return Some(v.to_string());
        }
        match (level, key) {
            (Some(_), "time") => Some("0".to_string()),
            (Some(l), "wld") => Some(l.wld.to_string()),
            (Some(l), "exact") => Some(l.exact.to_string()),
            _ => default_of(info, key).map(str::to_string),
        }
    };
    if has("time") {
        // The limit in force: the one given, else the level's (none) or the agent's default
        // (`othello` has one; for most agents the default 0 means none).
        let given = spec.get("time");
        match in_force("time").as_deref().map(str::parse::<f64>) {
            Some(Ok(t)) if t > 0.0 && t <= cap.as_secs_f64() => {}
            Some(Err(_)) if given.is_some() => {}
            _ => set(&mut out, "time", format!("{}", cap.as_secs_f64()))?,
        }
    }
    // Parameters whose cost no time limit bounds: the `othello` agent's solves (not
    // time-limited; 20 empties WLD and 18 exact take about a second; a level's count too)
    // and table sizes.
    for (key, most) in NUMERIC_CAPS {
        if has(key) {
            if let Some(Ok(v)) = in_force(key).as_deref().map(str::parse::<u64>) {
                if v > most {
                    set(&mut out, key, most.to_string())?;
                }
            }
        }
    }
    if has("agent") && depth < MAX_NESTING {
        let inner_text = spec
            .get("agent")
            .or_else(|| default_of(info, "agent"))
            .unwrap_or_default();
        if let Ok(inner) = inner_text.parse::<AgentSpec>() {
            let inner = rewrite(registry, &inner, config, depth + 1)?;
            set(&mut out, "agent", inner.to_string())?;
        }
    }
    // The `othello` agent's weight and book files: a client may not make the server read
    // its files; only the built-in weights, and no book or the server's.
    for (key, allowed) in FILE_PARAMS {
        if !has(key) {
            continue;
        }
        match (key, spec.get(key), &config.book) {
            (_, None, _) => {}
            (_, Some(v), _) if v == allowed => {}
            ("book", Some(SERVER_BOOK), Some(path)) => {
                let path = path
                    .to_str()
                    .ok_or_else(|| ApiError::Refused("the book's path is not UTF-8".into()))?;
                set(&mut out, key, path.to_string())?;
            }
            (_, Some(v), book) => {
                let server = if key == "book" && book.is_some() {
                    format!(" or {SERVER_BOOK} (the server's book)")
                } else if key == "book" {
                    format!(" (the server has no book for {SERVER_BOOK})")
                } else {
                    String::new()
                };
                return Err(ApiError::Refused(format!(
                    "{} may not read files here: {key} must be {allowed}{server}, not {v:?}",
                    info.name
                )));
            }
        }
    }
    if has("file") {
        let file = spec.get("file").unwrap_or_default();
        if !TABLE_FILES.contains(&file) {
            return Err(ApiError::Refused(format!(
                "{} may read only {} here, not {file:?}",
                info.name,
                TABLE_FILES.join(" or ")
            )));
        }
        let path = config.data_dir.join(file);
        let path = path
            .to_str()
            .ok_or_else(|| ApiError::Refused("the data directory is not UTF-8".into()))?;
        set(&mut out, "file", path.to_string())?;
    }
    Ok(out)
}

fn default_of<'a>(info: &'a AgentInfo, name: &str) -> Option<&'a str> {
    info.params
        .iter()
        .find(|p| p.name == name)
        .map(|p| p.default)
}

/// A seed for a request that brings none: the clock and a counter, mixed.
pub(crate) fn fresh_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32);
    splitmix64(&mut state)
}

/// One parameter of an agent, for the page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ParamView {
    name: &'static str,
    default: &'static str,
    help: &'static str,
}

/// One strength level of an agent (`name:level=N`), for the page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct LevelView {
    level: u32,
    depth: u32,
    /// Multi-ProbCut's threshold, `null` for none.
    probcut: Option<f64>,
    wld: u32,
    exact: u32,
}

/// One agent, for the page.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct AgentView {
    name: &'static str,
    summary: &'static str,
    params: Vec<ParamView>,
    /// A spec that builds it: the bare name, or with the required parameters filled in.
    example: String,
    /// Its strength levels ([`yomi_agents::agent_levels`]); empty for most agents.
    levels: Vec<LevelView>,
}

/// The level of the `othello` agent the page offers first on 8x8 Othello: depth 12, WLD at
/// 20 empties, exact at 18, the deepest level whose solves fit the server's caps (`wld` 20,
/// `exact` 18) as they are; about 0.1 s a move.
pub(crate) const PAGE_LEVEL: u32 = 12;

/// The opponent the page offers first in game `G`: the `othello` agent at
/// [`PAGE_LEVEL`] where it has levels (8x8 Othello), else the `othello` agent of the small
/// boards, else the exact `perfect` where the game has a tree, else `alphabeta`.
pub(crate) fn default_opponent<G: Game>(registry: &Registry<G>) -> String {
    let has = |name: &str| registry.info(name).is_some();
    if yomi_agents::agent_levels(G::NAME, "othello").is_some() && has("othello") {
        format!("othello:level={PAGE_LEVEL}")
    } else if has("othello") {
        "othello".to_string()
    } else if has("perfect") {
        "perfect".to_string()
    } else {
        "alphabeta".to_string()
    }
}

/// Every agent of a registry, in registration order.
pub(crate) fn agent_views<G: Game>(registry: &Registry<G>) -> Vec<AgentView> {
    // The only agent with a required parameter is `table`, which reads a committed tree file:
    // games without one (4x4 Othello, whose 4.8 MB tree is built by `yomi tree build`) do not
    // list it.
    let file = match G::NAME {
        "tictactoe" => Some(TABLE_FILES[0]),
        "nim" => Some(TABLE_FILES[1]),
        _ => None,
    };
    registry
        .infos()
        .filter(|info| info.builds_bare() || file.is_some())
        .map(|info| {
            let example = match file {
                Some(file) if !info.builds_bare() => format!("{}:file={file}", info.name),
                _ => info.name.to_string(),
            };
            AgentView {
                name: info.name,
                summary: info.summary,
                params: info
                    .params
                    .iter()
                    .map(|p| ParamView {
                        name: p.name,
                        default: p.default,
                        help: p.help,
                    })
                    .collect(),
                example,
                levels: yomi_agents::agent_levels(G::NAME, info.name)
                    .unwrap_or_default()
                    .iter()
                    .map(|l| LevelView {
                        level: l.level,
                        depth: l.depth,
                        probcut: l.probcut,
                        wld: l.wld,
                        exact: l.exact,
                    })
                    .collect(),
            }
        })
        .collect()
}
