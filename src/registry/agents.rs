//! Agent specs: inline (`alphabeta(heuristic=offensive2,depth=4)`) or named in
//! `agents/*.toml`.

use super::spec::Spec;
use super::{AgentFactory, GameEntry, InputError, line_of_string, toml_error};
use crate::search::{Algorithm, MAX_DEPTH, SearchAgent, SearchConfig};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The depth of minimax and alpha-beta when a spec gives none.
pub const DEFAULT_DEPTH: u32 = 3;

/// The beam width when a spec gives none (report 004's final code).
pub const DEFAULT_BEAM_WIDTH: usize = 4;

/// An agent: algorithm, depth, heuristic and heuristic parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    /// Display name: the registered name, or the canonical inline spec.
    pub name: String,
    /// Search algorithm.
    pub algorithm: Algorithm,
    /// Depth in plies (1 for greedy, 0 for random; beam: own moves; with a time budget,
    /// the deepest iteration, 0 for no limit).
    pub depth: u32,
    /// Beam width k (beam only).
    pub beam_width: usize,
    /// Beam decay gamma (beam only).
    pub gamma: f64,
    /// Time budget per move in milliseconds (iterative deepening), if any.
    pub time_ms: Option<u64>,
    /// Heuristic name (`None` for random).
    pub heuristic: Option<String>,
    /// Heuristic parameters as written.
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    /// Builds a spec from an algorithm name and its keys; `depth` and `heuristic` are
    /// the algorithm's, every other key goes to the heuristic (checked by
    /// [`AgentSpec::factory`]).
    ///
    /// # Errors
    /// A message: unknown algorithm, bad depth, missing heuristic, or keys that do not fit.
    pub fn from_parts(
        name: Option<String>,
        algorithm: &str,
        depth: Option<String>,
        heuristic: Option<String>,
        mut params: Vec<(String, String)>,
    ) -> Result<AgentSpec, String> {
        let algorithm: Algorithm = algorithm.parse()?;
        let mut take = |key: &str| {
            params
                .iter()
                .position(|(k, _)| k == key)
                .map(|i| params.remove(i).1)
        };
        let (k, gamma, time_ms) = (take("k"), take("gamma"), take("time_ms"));
        let deepens = algorithm.searches() || algorithm == Algorithm::Beam;
        let time_ms = match time_ms {
            None => None,
            Some(_) if !deepens => {
                return Err(format!(
                    "{algorithm} takes no time_ms (only minimax, the alphabeta variants and beam deepen iteratively)"
                ));
            }
            Some(text) => Some(
                text.trim()
                    .parse::<i128>()
                    .ok()
                    .filter(|&ms| crate::core::time_limit_ms(ms).is_ok())
                    .map(|ms| ms as u64)
                    .ok_or_else(|| {
                        format!(
                            "time_ms '{text}' must be a whole number of milliseconds from 1 to {}",
                            crate::core::MAX_SECONDS * 1000
                        )
                    })?,
            ),
        };
        if algorithm != Algorithm::Beam && (k.is_some() || gamma.is_some()) {
            return Err(format!(
                "k and gamma are beam's parameters, not {algorithm}'s"
            ));
        }
        let beam_width = match &k {
            None => DEFAULT_BEAM_WIDTH,
            Some(text) => text
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|k| (1..=100).contains(k))
                .ok_or_else(|| format!("k '{text}' must be a whole number from 1 to 100"))?,
        };
        let gamma = match &gamma {
            None => 1.0,
            Some(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|g| *g > 0.0 && *g <= 1.0)
                .ok_or_else(|| format!("gamma '{text}' must be a number in (0, 1]"))?,
        };
        let depth = match (algorithm, depth) {
            (Algorithm::Beam, None) => DEFAULT_DEPTH,
            (Algorithm::Beam, Some(text)) => match text.trim().parse::<u32>() {
                Ok(d) if d <= MAX_DEPTH => d,
                _ => {
                    return Err(format!(
                        "depth '{text}' must be a whole number from 0 to {MAX_DEPTH}"
                    ));
                }
            },
            (a, None) if a.searches() && time_ms.is_some() => 0,
            (a, None) if a.searches() => DEFAULT_DEPTH,
            (a, Some(text)) if a.searches() => match text.trim().parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                _ => {
                    return Err(format!(
                        "depth '{text}' must be a whole number from 1 to {MAX_DEPTH}"
                    ));
                }
            },
            (Algorithm::Greedy, None) => 1,
            (Algorithm::Greedy, Some(text)) if text.trim() == "1" => 1,
            (Algorithm::Greedy, Some(text)) => {
                return Err(format!(
                    "greedy searches exactly one ply; depth '{text}' is not allowed (use alphabeta for deeper search)"
                ));
            }
            (a, Some(_)) => {
                return Err(format!("{a} takes no depth"));
            }
            (_, None) => 0,
        };
        if algorithm.uses_heuristic() && heuristic.is_none() {
            return Err(format!(
                "{algorithm} needs a heuristic, e.g. {algorithm}(heuristic=offensive2)"
            ));
        }
        if !algorithm.uses_heuristic() && (heuristic.is_some() || !params.is_empty()) {
            return Err(format!("{algorithm} takes no heuristic or parameters"));
        }
        let mut spec = AgentSpec {
            name: String::new(),
            algorithm,
            depth,
            beam_width,
            gamma,
            time_ms,
            heuristic,
            params,
        };
        spec.name = name.unwrap_or_else(|| spec.canonical());
        Ok(spec)
    }

    /// The spec as inline text, e.g. `alphabeta(heuristic=offensive2,depth=4)`.
    pub fn canonical(&self) -> String {
        let mut params = Vec::new();
        if let Some(h) = &self.heuristic {
            params.push(("heuristic".to_string(), h.clone()));
        }
        if self.algorithm.searches() || self.algorithm == Algorithm::Beam {
            params.push(("depth".to_string(), self.depth.to_string()));
        }
        if self.algorithm == Algorithm::Beam {
            params.push(("k".to_string(), self.beam_width.to_string()));
            params.push(("gamma".to_string(), self.gamma.to_string()));
        }
        if let Some(ms) = self.time_ms {
            params.push(("time_ms".to_string(), ms.to_string()));
        }
        params.extend(self.params.iter().cloned());
        Spec {
            name: self.algorithm.name().to_string(),
            params,
        }
        .to_string()
    }

    /// Checks the heuristic and its parameters against game `G` and returns a function
    /// that builds a fresh agent from a seed.
    ///
    /// # Errors
    /// An unknown heuristic for this game, or a bad parameter.
    pub fn factory<G: GameEntry>(&self) -> Result<AgentFactory<G>, String> {
        let config = SearchConfig {
            algorithm: self.algorithm,
            depth: self.depth,
            beam_width: self.beam_width,
            gamma: self.gamma,
            time_ms: self.time_ms,
        };
        let heuristic = match &self.heuristic {
            Some(name) => {
                if !G::heuristics().iter().any(|h| h.name == name) {
                    let known: Vec<&str> = G::heuristics().iter().map(|h| h.name).collect();
                    return Err(format!(
                        "unknown heuristic '{name}' for this game (known: {})",
                        known.join(", ")
                    ));
                }
                G::heuristic(name, &self.params).map_err(|e| e.to_string())?
            }
            // Random never evaluates; any heuristic of the game will do as a placeholder.
            None => G::heuristic(G::heuristics()[0].name, &[]).map_err(|e| e.to_string())?,
        };
        Ok(Box::new(move |seed| {
            Box::new(SearchAgent::<G, G::Heuristic>::new(
                config,
                heuristic.clone(),
                seed,
            ))
        }))
    }
}

/// Factories of inline agent specs that must be valid for game `G` (for tests).
///
/// # Panics
/// On a spec that is not valid for `G`.
#[cfg(test)]
pub fn test_factories<G: GameEntry>(specs: &[&str]) -> Vec<AgentFactory<G>> {
    specs
        .iter()
        .map(|s| {
            s.parse::<AgentSpec>()
                .and_then(|a| a.factory::<G>())
                .unwrap_or_else(|e| panic!("{s}: {e}"))
        })
        .collect()
}

impl std::str::FromStr for AgentSpec {
    type Err = String;

    /// Reads an inline spec such as `minimax(heuristic=defensive1,depth=3)`.
    fn from_str(text: &str) -> Result<AgentSpec, String> {
        let mut spec: Spec = text.parse()?;
        let depth = spec.take("depth");
        let heuristic = spec.take("heuristic");
        AgentSpec::from_parts(None, &spec.name, depth, heuristic, spec.params)
            .map_err(|e| format!("agent '{}': {e}", text.trim()))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentFile {
    #[serde(default)]
    agent: Vec<AgentEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentEntry {
    name: String,
    algorithm: String,
    depth: Option<toml::Value>,
    heuristic: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, toml::Value>,
    k: Option<toml::Value>,
    gamma: Option<toml::Value>,
    time_ms: Option<toml::Value>,
    #[allow(dead_code)]
    description: Option<String>,
}

/// A registered agent and where it was defined.
#[derive(Clone, Debug)]
pub struct RegisteredAgent {
    /// The spec.
    pub spec: AgentSpec,
    /// The file it came from.
    pub file: PathBuf,
    /// Its line there.
    pub line: Option<usize>,
}

/// The named agents of every `*.toml` file in an agents folder.
#[derive(Clone, Debug, Default)]
pub struct AgentRegistry {
    /// Agents by name, sorted.
    pub agents: BTreeMap<String, RegisteredAgent>,
}

fn value_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl AgentRegistry {
    /// Loads every `*.toml` in `folder` (a missing folder gives an empty registry).
    ///
    /// # Errors
    /// An unreadable or malformed file, a bad agent, or a name defined twice.
    pub fn load(folder: &Path) -> Result<AgentRegistry, InputError> {
        let mut registry = AgentRegistry::default();
        if !folder.is_dir() {
            return Ok(registry);
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
            .map_err(|e| InputError::in_file(folder, None, format!("cannot read folder: {e}")))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect();
        files.sort();
        for file in files {
            registry.load_file(&file)?;
        }
        Ok(registry)
    }

    fn load_file(&mut self, file: &Path) -> Result<(), InputError> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| InputError::in_file(file, None, format!("cannot read: {e}")))?;
        self.add_text(file, &text)
    }

    /// Registers the agents of an agent file's text (`file` names it in errors).
    ///
    /// # Errors
    /// A malformed text, a bad agent, or a name defined twice.
    pub fn add_text(&mut self, file: &Path, text: &str) -> Result<(), InputError> {
        let parsed: AgentFile = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
        for entry in parsed.agent {
            let line = line_of_string(text, &entry.name);
            let fail = |message: String| InputError::in_file(file, line, message);
            let valid_name = !entry.name.is_empty()
                && entry
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
            if !valid_name {
                return Err(fail(format!(
                    "agent name '{}' must be letters, digits, '-', '_' or '.'",
                    entry.name
                )));
            }
            let mut params: Vec<(String, String)> = entry
                .params
                .iter()
                .map(|(k, v)| (k.clone(), value_text(v)))
                .collect();
            for (key, value) in [
                ("k", &entry.k),
                ("gamma", &entry.gamma),
                ("time_ms", &entry.time_ms),
            ] {
                if let Some(value) = value {
                    params.push((key.to_string(), value_text(value)));
                }
            }
            let spec = AgentSpec::from_parts(
                Some(entry.name.clone()),
                &entry.algorithm,
                entry.depth.as_ref().map(value_text),
                entry.heuristic,
                params,
            )
            .map_err(|e| fail(format!("agent '{}': {e}", entry.name)))?;
            if let Some(previous) = self.agents.get(&entry.name) {
                return Err(fail(format!(
                    "agent '{}' is already defined in {}",
                    entry.name,
                    previous.file.display()
                )));
            }
            self.agents.insert(
                entry.name,
                RegisteredAgent {
                    spec,
                    file: file.to_path_buf(),
                    line,
                },
            );
        }
        Ok(())
    }

    /// The named agents a run recorded (display name and inline spec, as in meta.json),
    /// registered as defined in `file`; inline agents need no entry.
    ///
    /// # Errors
    /// A recorded spec that does not parse.
    pub fn recorded(agents: &[(String, String)], file: &Path) -> Result<AgentRegistry, String> {
        let mut registry = AgentRegistry::default();
        for (name, text) in agents {
            let mut spec: AgentSpec = text.parse().map_err(|e| format!("agent '{name}': {e}"))?;
            if *name != spec.name {
                spec.name = name.clone();
                registry.agents.insert(
                    name.clone(),
                    RegisteredAgent {
                        spec,
                        file: file.to_path_buf(),
                        line: None,
                    },
                );
            }
        }
        Ok(registry)
    }

    /// The agents of `recorded` that this registry defines differently or not at all.
    pub fn differences(&self, recorded: &AgentRegistry) -> Vec<String> {
        recorded
            .agents
            .iter()
            .filter(|(name, agent)| {
                self.agents
                    .get(*name)
                    .is_none_or(|now| now.spec.canonical() != agent.spec.canonical())
            })
            .map(|(name, _)| name.clone())
            .collect()
    }

    /// A registered agent by name, or else an inline spec.
    ///
    /// # Errors
    /// Neither a registered name nor a valid spec.
    pub fn resolve(&self, text: &str) -> Result<AgentSpec, String> {
        if let Some(agent) = self.agents.get(text.trim()) {
            return Ok(agent.spec.clone());
        }
        let looks_inline = text.contains('(')
            || text
                .trim()
                .parse::<Algorithm>()
                .is_ok_and(|a| !a.uses_heuristic() || a == Algorithm::Greedy);
        if looks_inline {
            return text.parse();
        }
        let mut names: Vec<&str> = self.agents.keys().map(String::as_str).collect();
        names.truncate(12);
        Err(format!(
            "unknown agent '{}': not a registered name (e.g. {}) nor an inline spec like alphabeta(heuristic=offensive2,depth=4)",
            text.trim(),
            if names.is_empty() {
                "none registered".to_string()
            } else {
                names.join(", ")
            }
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Breakthrough;

    #[test]
    fn inline_specs_fill_defaults_and_keep_heuristic_parameters() {
        let spec: AgentSpec = "alphabeta(heuristic=offensive2,depth=4,almost_win=5000)"
            .parse()
            .expect("valid");
        assert_eq!(spec.algorithm, Algorithm::AlphaBeta);
        assert_eq!(spec.depth, 4);
        assert_eq!(spec.heuristic.as_deref(), Some("offensive2"));
        assert_eq!(spec.params, vec![("almost_win".into(), "5000".into())]);
        assert_eq!(
            spec.name,
            "alphabeta(heuristic=offensive2,depth=4,almost_win=5000)"
        );
        let minimax: AgentSpec = "minimax(heuristic=defense)".parse().expect("valid");
        assert_eq!(minimax.depth, DEFAULT_DEPTH);
        let greedy: AgentSpec = "greedy(heuristic=offense)".parse().expect("valid");
        assert_eq!(greedy.depth, 1);
        let random: AgentSpec = "random".parse().expect("valid");
        assert_eq!((random.depth, random.heuristic), (0, None));
        assert!(spec.factory::<Breakthrough>().is_ok());
    }

    #[test]
    fn bad_agent_specs_say_what_is_wrong() {
        let err = |t: &str| t.parse::<AgentSpec>().expect_err(t);
        assert!(err("mcts(heuristic=x)").contains("unknown algorithm 'mcts'"));
        assert!(err("minimax(heuristic=offense,depth=0)").contains("from 1 to 12"));
        assert!(err("minimax(heuristic=offense,depth=99)").contains("from 1 to 12"));
        assert!(err("minimax(heuristic=offense,depth=two)").contains("from 1 to 12"));
        assert!(err("minimax(depth=2)").contains("needs a heuristic"));
        assert!(err("greedy(heuristic=offense,depth=3)").contains("exactly one ply"));
        assert!(err("random(heuristic=offense)").contains("no heuristic"));
        let unknown: AgentSpec = "minimax(heuristic=chess)".parse().expect("parses");
        let message = unknown
            .factory::<Breakthrough>()
            .err()
            .expect("unknown heuristic");
        assert!(message.contains("unknown heuristic 'chess'") && message.contains("offensive2"));
        let bad_key: AgentSpec = "minimax(heuristic=offense,wieght=1)"
            .parse()
            .expect("parses");
        let message = bad_key
            .factory::<Breakthrough>()
            .err()
            .expect("unknown key");
        assert!(message.contains("unknown parameter 'wieght'"), "{message}");
    }

    #[test]
    fn registry_loads_files_and_resolves_names_before_specs() {
        let folder = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            folder.path().join("a.toml"),
            "[[agent]]\nname = \"ab4\"\nalgorithm = \"alphabeta\"\nheuristic = \"offensive2\"\ndepth = 4\nparams = { almost_win = 5000 }\n",
        )
        .expect("write");
        let registry = AgentRegistry::load(folder.path()).expect("valid");
        let ab4 = registry.resolve("ab4").expect("registered");
        assert_eq!(ab4.name, "ab4");
        assert_eq!(ab4.depth, 4);
        assert_eq!(ab4.params, vec![("almost_win".into(), "5000".into())]);
        assert!(registry.resolve("random").is_ok());
        let err = registry.resolve("ab5").expect_err("unknown");
        assert!(
            err.contains("unknown agent 'ab5'") && err.contains("ab4"),
            "{err}"
        );

        std::fs::write(
            folder.path().join("b.toml"),
            "[[agent]]\nname = \"ab4\"\nalgorithm = \"minimax\"\nheuristic = \"offense\"\n",
        )
        .expect("write");
        let err = AgentRegistry::load(folder.path()).expect_err("duplicate");
        assert!(
            err.to_string()
                .contains("b.toml: line 2: agent 'ab4' is already defined in")
        );

        std::fs::write(
            folder.path().join("b.toml"),
            "[[agent]]\nname = \"x\"\nalgo = 1\n",
        )
        .expect("write");
        let err = AgentRegistry::load(folder.path())
            .expect_err("bad key")
            .to_string();
        assert!(
            err.contains("b.toml: line 3: malformed TOML: unknown field `algo`"),
            "{err}"
        );
    }
}
