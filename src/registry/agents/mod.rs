//! Agent specs (`spec.rs`: inline, `alphabeta(heuristic=offensive2,depth=4)`) and the
//! agent files of `agents/*.toml` that name them, with the games and heuristics they
//! declare (this file): the registry of named agents.

mod program_entry;
mod spec;

use crate::registry::spec::SpecError;
use program_entry::external_entry;
pub(super) use program_entry::sandbox_entry;
use program_entry::whole;
#[cfg(test)]
mod tests;

pub use spec::*;

use crate::external::ExternalSpec;
use crate::external::rules::{ProgramGameDef, RulesSpec};
use crate::registry::spec::Spec;
use crate::registry::{GameEntry, GameTask, InputError, line_of_string, toml_error};
use crate::search::Algorithm;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentFile {
    #[serde(default)]
    agent: Vec<AgentEntry>,
    #[serde(default)]
    heuristic: Vec<HeuristicEntry>,
    #[serde(default)]
    game: Vec<GameTable>,
}

/// A `[[game]]` table: a game served by a rules program (docs/game-protocol.md).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameTable {
    name: String,
    #[serde(default)]
    command: Vec<String>,
    library: Option<String>,
    cwd: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    startup_ms: Option<toml::Value>,
    request_ms: Option<toml::Value>,
    description: Option<String>,
}

/// A game served by a program, as an agent file declares it.
#[derive(Clone, Debug)]
pub struct RegisteredGame {
    /// How to run its rules program.
    pub spec: RulesSpec,
    /// Free text.
    pub description: String,
    /// The file it came from.
    pub file: PathBuf,
    /// Its line there.
    pub line: Option<usize>,
}

/// A `[[heuristic]]` table: a built-in heuristic (`linear`, `offensive2`, ...) with
/// parameters, under a name of its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeuristicEntry {
    name: String,
    base: String,
    game: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, toml::Value>,
    description: Option<String>,
}

/// A named heuristic from an agent file.
#[derive(Clone, Debug, PartialEq)]
pub struct NamedHeuristic {
    /// The built-in heuristic it sets.
    pub base: String,
    /// Its parameters, as written.
    pub params: Vec<(String, String)>,
    /// The game it is for, when the file says.
    pub game: Option<String>,
    /// Free text.
    pub description: String,
    /// Where it is defined.
    pub file: PathBuf,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AgentEntry {
    name: String,
    algorithm: Option<String>,
    depth: Option<toml::Value>,
    heuristic: Option<String>,
    #[serde(default)]
    params: BTreeMap<String, toml::Value>,
    k: Option<toml::Value>,
    gamma: Option<toml::Value>,
    time_ms: Option<toml::Value>,
    nodes: Option<toml::Value>,
    tt_mb: Option<toml::Value>,
    aspiration: Option<toml::Value>,
    iterations: Option<toml::Value>,
    c: Option<toml::Value>,
    rollout: Option<toml::Value>,
    rollout_plies: Option<toml::Value>,
    epsilon: Option<toml::Value>,
    #[allow(dead_code)]
    description: Option<String>,
    command: Option<Vec<String>>,
    cwd: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    #[serde(default)]
    options: BTreeMap<String, toml::Value>,
    startup_ms: Option<toml::Value>,
    tolerance_ms: Option<toml::Value>,
    hang_ms: Option<toml::Value>,
    ping_ms: Option<toml::Value>,
    on_failure: Option<String>,
    strict: Option<bool>,
    max_startup_failures: Option<toml::Value>,
    stderr_bytes: Option<toml::Value>,
    sandbox: Option<toml::Value>,
}

/// `base` with `over`'s keys replaced or added, in order.
fn merged(base: &[(String, String)], over: &[(String, String)]) -> Vec<(String, String)> {
    let mut params = base.to_vec();
    for (key, value) in over {
        match params.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value.clone(),
            None => params.push((key.clone(), value.clone())),
        }
    }
    params
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
    /// Named heuristics (`[[heuristic]]` tables), by name.
    pub heuristics: BTreeMap<String, NamedHeuristic>,
    /// Games served by programs (`[[game]]` tables), by name.
    pub games: BTreeMap<String, RegisteredGame>,
    /// Whether the agents are those a run recorded (a resume): a submission already
    /// recorded keeps its recorded spec.
    pub recorded: bool,
}

/// Whether `text` may name an agent or a game: letters, digits, '-', '_' and
/// '.', at least one.
pub(super) fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
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
        Self::load_from(Some(folder))
    }

    /// The agents of `folder` (none when `None`).
    ///
    /// # Errors
    /// As [`AgentRegistry::load`].
    pub fn load_from(folder: Option<&Path>) -> Result<AgentRegistry, InputError> {
        let folders: Vec<PathBuf> = folder.into_iter().map(Path::to_path_buf).collect();
        Self::load_folders(&folders)
    }

    /// The agents of every `*.toml` of `folders`, read together (one may use what another
    /// defines; a name defined twice is refused, naming both files). A missing folder adds
    /// nothing.
    ///
    /// # Errors
    /// As [`AgentRegistry::load`].
    pub fn load_folders(folders: &[PathBuf]) -> Result<AgentRegistry, InputError> {
        let mut registry = AgentRegistry::default();
        let mut files: Vec<PathBuf> = Vec::new();
        for folder in folders.iter().filter(|f| f.is_dir()) {
            let mut these: Vec<PathBuf> = std::fs::read_dir(folder)
                .map_err(|e| InputError::in_file(folder, None, format!("cannot read folder: {e}")))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "toml"))
                .collect();
            these.sort();
            files.extend(these);
        }
        let mut texts = Vec::new();
        for file in files {
            let text = crate::registry::read_input(&file)?;
            // Every file's games, then every file's heuristics, then the agents: each may
            // use what another file defines.
            registry.add_games(&file, &text)?;
            texts.push((file, text));
        }
        for (file, text) in &texts {
            registry.add_heuristics(file, text)?;
        }
        for (file, text) in &texts {
            registry.add_agents(file, text)?;
        }
        Ok(registry)
    }

    /// Registers the heuristics and agents of an agent file's text (`file` names it in
    /// errors).
    ///
    /// # Errors
    /// A malformed text, a bad heuristic or agent, or a name defined twice.
    pub fn add_text(&mut self, file: &Path, text: &str) -> Result<(), InputError> {
        self.add_games(file, text)?;
        self.add_heuristics(file, text)?;
        self.add_agents(file, text)
    }

    /// Registers the `[[game]]` tables of an agent file's text (the programs are started
    /// only when a game is named).
    ///
    /// # Errors
    /// A malformed text or table, or a name defined twice or taken by a built-in game.
    fn add_games(&mut self, file: &Path, text: &str) -> Result<(), InputError> {
        let parsed: AgentFile = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
        for entry in parsed.game {
            let line = line_of_string(text, &entry.name);
            let fail = |message: String| {
                InputError::in_file(file, line, format!("game '{}': {message}", entry.name))
            };
            let valid_name = is_name(&entry.name);
            if !valid_name {
                return Err(fail(
                    "a name is letters, digits, '-', '_' or '.'".to_string(),
                ));
            }
            if crate::registry::GAMES.iter().any(|g| g.name == entry.name) {
                return Err(fail("a built-in game has this name".to_string()));
            }
            if let Some(previous) = self.games.get(&entry.name) {
                return Err(fail(format!(
                    "already defined in {}",
                    previous.file.display()
                )));
            }
            let folder = file.parent().unwrap_or(Path::new("."));
            let cwd = folder.join(entry.cwd.as_deref().unwrap_or("."));
            let cwd = cwd
                .canonicalize()
                .or_else(|_| std::path::absolute(&cwd))
                .unwrap_or(cwd);
            if let Some(library) = &entry.library {
                if !entry.command.is_empty() {
                    return Err(fail(
                        "give command = [...] (a program) or library = \"...\" (a rules library), not both"
                            .to_string(),
                    ));
                }
                if !entry.env.is_empty() || entry.startup_ms.is_some() || entry.request_ms.is_some()
                {
                    return Err(fail(
                        "a rules library runs inside arbiter: env, startup_ms and request_ms are for programs"
                            .to_string(),
                    ));
                }
                if library.trim().is_empty() {
                    return Err(fail(
                        "library must be the path of a shared library (.so, .dylib)".to_string(),
                    ));
                }
            } else if entry.command.is_empty() || entry.command[0].trim().is_empty() {
                return Err(fail(
                    "command must list the program and its arguments, e.g. command = [\"python3\", \"games/connect4.py\"] (or give library = \"...\")"
                        .to_string(),
                ));
            }
            let mut spec = RulesSpec::new(entry.command.clone(), cwd.clone());
            // A library's path is relative to the file's folder, as cwd is.
            spec.library = entry.library.as_ref().map(|path| {
                let path = folder.join(path);
                std::path::absolute(&path).unwrap_or(path)
            });
            spec.env = entry.env.clone();
            let most_ms = crate::core::MAX_SECONDS * 1000;
            for (key, value, target) in [
                ("startup_ms", &entry.startup_ms, &mut spec.startup_ms),
                ("request_ms", &entry.request_ms, &mut spec.request_ms),
            ] {
                if let Some(value) = value {
                    *target = whole(key, value, 1, most_ms).map_err(|e| fail(e.message))?;
                }
            }
            self.games.insert(
                entry.name.clone(),
                RegisteredGame {
                    spec,
                    description: entry.description.clone().unwrap_or_default(),
                    file: file.to_path_buf(),
                    line,
                },
            );
        }
        Ok(())
    }

    /// The game a spec names: a built-in game (`breakthrough(rules=long)`) or one declared
    /// with `[[game]]` (`connect4-py(rows=6)`), whose program is then started and checked
    /// (or found already started, for the same spec).
    ///
    /// # Errors
    /// An unknown game or parameter, or a rules program that fails its start, in one line.
    pub fn game(&self, text: &str) -> Result<crate::registry::GameSpec, String> {
        let spec: Spec = text.parse()?;
        match self.games.get(&spec.name) {
            Some(game) => ProgramGameDef::start(&spec.name, spec.params, game.spec.clone())
                .map(|def| crate::registry::GameSpec::Program(crate::registry::ProgramSpec(def))),
            None => text.parse::<crate::registry::GameSpec>().map_err(|e| {
                let e = e.message;
                // The declared games matter when the name is unknown, not for a bad
                // parameter of a built-in game.
                if !e.starts_with("unknown game '") {
                    return e;
                }
                let built_in = crate::registry::GAMES.iter().map(|g| g.name);
                let declared = self.games.keys().map(String::as_str);
                let unknown = format!("unknown game '{}'", spec.name);
                let e = match crate::core::closest(&spec.name, built_in.chain(declared.clone())) {
                    Some(known) => {
                        e.replacen(&unknown, &format!("{unknown}: did you mean '{known}'?"), 1)
                    }
                    None => e,
                };
                let listed: Vec<&str> = declared.collect();
                if listed.is_empty() {
                    e
                } else {
                    format!("{e}; declared: {}", listed.join(", "))
                }
            }),
        }
    }

    /// Registers the `[[heuristic]]` tables of an agent file's text, each checked against
    /// the games it may be for.
    ///
    /// # Errors
    /// A malformed text, an unknown base or parameter, or a name defined twice.
    fn add_heuristics(&mut self, file: &Path, text: &str) -> Result<(), InputError> {
        let parsed: AgentFile = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
        for entry in parsed.heuristic {
            let line = line_of_string(text, &entry.name);
            let fail = |message: String| {
                InputError::in_file(file, line, format!("heuristic '{}': {message}", entry.name))
            };
            let valid_name = !entry.name.is_empty()
                && entry
                    .name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c));
            if !valid_name {
                return Err(fail("a name is letters, digits, '-' or '_'".to_string()));
            }
            let built_in = crate::registry::GAMES
                .iter()
                .any(|g| g.heuristics.iter().any(|h| h.name == entry.name));
            if built_in {
                return Err(fail("a built-in heuristic has this name".to_string()));
            }
            if let Some(previous) = self.heuristics.get(&entry.name) {
                return Err(fail(format!(
                    "already defined in {}",
                    previous.file.display()
                )));
            }
            let params: Vec<(String, String)> = entry
                .params
                .iter()
                .map(|(k, v)| (k.clone(), value_text(v)))
                .collect();
            // Checked as a one-ply agent with it would be: on its game, or on any.
            let probe = AgentSpec::from_parts(
                None,
                "greedy",
                None,
                Some(entry.base.clone()),
                params.clone(),
            )
            .map_err(|e| fail(e.message))?;
            match &entry.game {
                // A program game is checked when an experiment names it (its program
                // says which features it has).
                Some(game)
                    if game
                        .parse::<Spec>()
                        .is_ok_and(|g| self.games.contains_key(&g.name)) => {}
                Some(game) => {
                    let game: crate::registry::GameSpec =
                        game.parse().map_err(|e: SpecError| fail(e.message))?;
                    fits(&probe, game).map_err(|e| fail(e.message))?;
                }
                None => fits_a_game(&probe, !self.games.is_empty()).map_err(|e| fail(e.message))?,
            }
            self.heuristics.insert(
                entry.name.clone(),
                NamedHeuristic {
                    base: entry.base.clone(),
                    params,
                    game: entry.game.clone(),
                    description: entry.description.clone().unwrap_or_default(),
                    file: file.to_path_buf(),
                },
            );
        }
        Ok(())
    }

    /// `heuristic` with a named heuristic replaced by its base and parameters (the ones
    /// given with it win); others unchanged.
    pub fn expand_heuristic(&self, heuristic: &Spec) -> Spec {
        match self.heuristics.get(&heuristic.name) {
            None => heuristic.clone(),
            Some(named) => Spec {
                name: named.base.clone(),
                params: merged(&named.params, &heuristic.params),
            },
        }
    }

    /// `agent` with a named heuristic replaced by its base and parameters; its display
    /// name stays as written.
    fn expanded(&self, mut agent: AgentSpec) -> AgentSpec {
        if let Some(named) = agent
            .heuristic
            .as_ref()
            .and_then(|h| self.heuristics.get(h))
        {
            agent.params = merged(&named.params, &agent.params);
            agent.heuristic = Some(named.base.clone());
        }
        agent
    }

    /// Registers the `[[agent]]` tables of an agent file's text.
    ///
    /// # Errors
    /// A malformed text, a bad agent, or a name defined twice.
    fn add_agents(&mut self, file: &Path, text: &str) -> Result<(), InputError> {
        let parsed: AgentFile = toml::from_str(text).map_err(|e| toml_error(file, text, &e))?;
        for entry in parsed.agent {
            let line = line_of_string(text, &entry.name);
            let fail = |message: String| InputError::in_file(file, line, message);
            let valid_name = is_name(&entry.name);
            if !valid_name {
                return Err(fail(format!(
                    "agent name '{}' must be letters, digits, '-', '_' or '.'",
                    entry.name
                )));
            }
            let external_keys = entry.cwd.is_some()
                || !entry.env.is_empty()
                || !entry.options.is_empty()
                || entry.startup_ms.is_some()
                || entry.tolerance_ms.is_some()
                || entry.hang_ms.is_some()
                || entry.ping_ms.is_some()
                || entry.on_failure.is_some()
                || entry.strict.is_some()
                || entry.max_startup_failures.is_some()
                || entry.stderr_bytes.is_some()
                || entry.sandbox.is_some();
            if entry.command.is_some() {
                let folder = file.parent().unwrap_or(Path::new("."));
                // A bad setting (`startup_ms = 0: ...`, `sandbox.memory: ...`) is blamed on
                // its own line.
                let external = external_entry(&entry, folder).map_err(|e| {
                    let at = e
                        .key
                        .as_deref()
                        .and_then(|key| setting_line(text, line, key))
                        .or(line);
                    InputError::in_file(file, at, format!("agent '{}': {}", entry.name, e.message))
                })?;
                self.insert(
                    AgentSpec::external(Some(entry.name.clone()), external),
                    file,
                    line,
                )?;
                continue;
            }
            if external_keys {
                return Err(fail(format!(
                    "agent '{}': cwd, env, options and the *_ms keys are for external agents; give command = [...] too",
                    entry.name
                )));
            }
            let Some(algorithm) = &entry.algorithm else {
                return Err(fail(format!(
                    "agent '{}': give algorithm = \"...\" (a built-in agent) or command = [...] (a program)",
                    entry.name
                )));
            };
            let mut params: Vec<(String, String)> = entry
                .params
                .iter()
                .map(|(k, v)| (k.clone(), value_text(v)))
                .collect();
            for (key, value) in [
                ("k", &entry.k),
                ("gamma", &entry.gamma),
                ("time_ms", &entry.time_ms),
                ("nodes", &entry.nodes),
                ("tt_mb", &entry.tt_mb),
                ("aspiration", &entry.aspiration),
                ("iterations", &entry.iterations),
                ("c", &entry.c),
                ("rollout", &entry.rollout),
                ("rollout_plies", &entry.rollout_plies),
                ("epsilon", &entry.epsilon),
            ] {
                if let Some(value) = value {
                    params.push((key.to_string(), value_text(value)));
                }
            }
            // A mistake in a value is blamed on the line that holds it (the heuristic,
            // a `params = {...}` entry), else on the agent's name line.
            let fail_at = |error: SpecError| {
                let at = error
                    .key
                    .as_deref()
                    .and_then(|key| key_line(text, line, key))
                    .or(line);
                InputError::in_file(
                    file,
                    at,
                    format!("agent '{}': {}", entry.name, error.message),
                )
            };
            // `params = { depth = 3 }` is the `depth` key too (every algorithm key may be
            // given either way).
            let mut depth = entry.depth.as_ref().map(value_text);
            if let Some(at) = params.iter().position(|(k, _)| k == "depth") {
                let (_, value) = params.remove(at);
                if depth.is_some() {
                    return Err(fail_at(SpecError::at(
                        "depth",
                        "'depth' given twice: as depth = and in params",
                    )));
                }
                depth = Some(value);
            }
            let spec = AgentSpec::from_parts(
                Some(entry.name.clone()),
                algorithm,
                depth,
                entry.heuristic.clone(),
                params,
            )
            .map_err(fail_at)?;
            let spec = self.expanded(spec);
            // Checked here, so that a mistake is blamed on this file and line (not on
            // the experiment that names the agent) and `list` refuses it too.
            fits_a_game(&spec, !self.games.is_empty()).map_err(fail_at)?;
            self.insert(spec, file, line)?;
        }
        Ok(())
    }

    fn insert(
        &mut self,
        spec: AgentSpec,
        file: &Path,
        line: Option<usize>,
    ) -> Result<(), InputError> {
        if let Some(previous) = self.agents.get(&spec.name) {
            return Err(InputError::in_file(
                file,
                line,
                format!(
                    "agent '{}' is already defined in {}",
                    spec.name,
                    previous.file.display()
                ),
            ));
        }
        self.agents.insert(
            spec.name.clone(),
            RegisteredAgent {
                spec,
                file: file.to_path_buf(),
                line,
            },
        );
        Ok(())
    }

    /// Registers the agents and games hosted by this process (the Python package's
    /// callables and game classes, [`crate::external::hosted`]) that are not already
    /// registered by this name.
    ///
    /// # Errors
    /// A hosted agent or game whose name an agent file (or a built-in game) has too, or a
    /// name that is not letters, digits, '-', '_' or '.'.
    pub fn add_hosted(&mut self) -> Result<(), SpecError> {
        for name in crate::external::hosted::names() {
            if !is_name(&name) {
                return Err(SpecError::new(format!(
                    "Python agent name '{name}' must be letters, digits, '-', '_' or '.'"
                )));
            }
            if let Some(previous) = self.agents.get(&name) {
                let theirs = previous
                    .spec
                    .external
                    .as_ref()
                    .and_then(|e| e.hosted.as_ref());
                if theirs == Some(&name) {
                    continue;
                }
                return Err(SpecError::new(format!(
                    "Python agent '{name}': {} defines an agent of that name too; pass it under another name",
                    previous.file.display()
                )));
            }
            let spec = AgentSpec::external(Some(name.clone()), ExternalSpec::hosted(&name));
            self.insert(spec, Path::new("<python>"), None)
                .map_err(|e| SpecError::new(e.message))?;
        }
        for name in crate::external::hosted::game_names() {
            if !is_name(&name) {
                return Err(SpecError::new(format!(
                    "Python game name '{name}' must be letters, digits, '-', '_' or '.'"
                )));
            }
            if crate::registry::GAMES.iter().any(|g| g.name == name) {
                return Err(SpecError::new(format!(
                    "Python game '{name}': a built-in game has this name; pass it under another name"
                )));
            }
            if let Some(previous) = self.games.get(&name) {
                if previous.spec.hosted.as_ref() == Some(&name) {
                    continue;
                }
                return Err(SpecError::new(format!(
                    "Python game '{name}': {} defines a game of that name too; pass it under another name",
                    previous.file.display()
                )));
            }
            let mut spec = RulesSpec::new(Vec::new(), PathBuf::from("."));
            spec.hosted = Some(name.clone());
            self.games.insert(
                name.clone(),
                RegisteredGame {
                    spec,
                    description: "a Python game class".to_string(),
                    file: PathBuf::from("<python>"),
                    line: None,
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
        let mut registry = AgentRegistry {
            recorded: true,
            ..AgentRegistry::default()
        };
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

    /// Registers the game served by a program that a run recorded (meta.json's
    /// `game_program`).
    pub fn record_game(&mut self, name: &str, spec: RulesSpec, file: &Path) {
        self.games.insert(
            name.to_string(),
            RegisteredGame {
                spec,
                description: String::new(),
                file: file.to_path_buf(),
                line: None,
            },
        );
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
    pub fn resolve(&self, text: &str) -> Result<AgentSpec, SpecError> {
        if let Some(agent) = self.agents.get(text.trim()) {
            return Ok(agent.spec.clone());
        }
        if let Ok(spec) = text.parse::<Spec>()
            && let Some(agent) = self.agents.get(&spec.name)
            && let Some(external) = &agent.spec.external
        {
            // A registered program with other options: `my-bot(depth=3)` (sweeps).
            let mut external = external.clone();
            for (key, value) in &spec.params {
                let json = serde_json::from_str::<serde_json::Value>(value)
                    .unwrap_or_else(|_| serde_json::Value::String(value.clone()));
                external.options.insert(key.clone(), json);
            }
            return Ok(AgentSpec::external(Some(spec.to_string()), external));
        }
        let looks_inline = text.contains('(')
            || text
                .trim()
                .parse::<Algorithm>()
                .is_ok_and(|a| !a.uses_heuristic() || a == Algorithm::Greedy);
        if looks_inline {
            return text.parse().map(|agent| self.expanded(agent));
        }
        let name = text.trim();
        if let Some(known) = crate::core::closest(name, self.agents.keys().map(String::as_str)) {
            return Err(SpecError::new(format!(
                "unknown agent '{name}': did you mean '{known}'?"
            )));
        }
        let mut names: Vec<&str> = self.agents.keys().map(String::as_str).collect();
        names.truncate(12);
        Err(SpecError::new(format!(
            "unknown agent '{name}': not a registered name ({}) nor an inline spec like alphabeta(heuristic=offensive2,depth=4)",
            if names.is_empty() {
                "none registered: agent files are read from --agents DIR, $ARBITER_AGENTS, or agents/ beside the experiment or in the current folder".to_string()
            } else {
                format!("e.g. {}", names.join(", "))
            }
        )))
    }
}

/// Whether `spec` can play `game` (its heuristic and parameters are the game's).
///
/// # Errors
/// Why not.
pub fn fits(spec: &AgentSpec, game: crate::registry::GameSpec) -> Result<(), SpecError> {
    struct Fits<'a>(&'a AgentSpec);
    impl GameTask for Fits<'_> {
        type Output = Result<(), SpecError>;
        fn run<G: GameEntry>(self, start: G) -> Result<(), SpecError> {
            self.0.factory(&start).map(|_| ())
        }
    }
    crate::registry::dispatch(game, Fits(spec))
}

/// Whether some game accepts a built-in agent's heuristic and parameters (an agent file
/// does not say which game its agents play).
///
/// # Errors
/// The most telling reason when no game does: a parameter or value the heuristic does not
/// take, rather than "unknown heuristic" from the games without it.
///
/// With `program_games` (the files declare games served by programs), a heuristic that
/// program games have (`outcome`, `program`, `linear`), or none, is accepted here: it is
/// checked against the game's program when an experiment names both.
fn fits_a_game(spec: &AgentSpec, program_games: bool) -> Result<(), SpecError> {
    let for_programs = match spec.heuristic.as_deref() {
        None => true,
        Some(name) => crate::external::rules_heuristics::HEURISTICS
            .iter()
            .any(|h| h.name == name),
    };
    if program_games && for_programs {
        return Ok(());
    }
    let mut reasons = Vec::new();
    for game in crate::registry::GAMES {
        match fits(spec, game.name.parse()?) {
            Ok(()) => return Ok(()),
            Err(reason) => reasons.push(reason),
        }
    }
    let heuristic = spec.heuristic.as_deref().unwrap_or_default();
    // A refusal of chance games says the algorithm fits the others: told only when no
    // game had a better reason.
    let refuses_chance = |r: &&SpecError| r.key.as_deref() == Some("algorithm");
    match reasons
        .iter()
        .find(|r| !r.message.starts_with("unknown heuristic") && !refuses_chance(r))
        .or_else(|| reasons.iter().find(refuses_chance))
    {
        Some(reason) => Err(reason.clone()),
        None => {
            let known: Vec<&str> = crate::registry::GAMES
                .iter()
                .flat_map(|g| g.heuristics.iter().map(|h| h.name))
                .collect();
            Err(SpecError::at(
                "heuristic",
                match crate::core::closest(heuristic, known.iter().copied()) {
                    Some(name) => {
                        format!("no game has a heuristic '{heuristic}': did you mean '{name}'?")
                    }
                    None => format!(
                        "no game has a heuristic '{heuristic}' (see `arbiter list` for each game's)"
                    ),
                },
            ))
        }
    }
}

/// The registered agents of a run or a command, and the folder they were read from:
/// `given` (`--agents`) if any, else `$ARBITER_AGENTS`, else `agents/` beside
/// `experiment` together with `./agents`; the agents this process hosts (the Python
/// package's callables) added. The cli and the Python package both read agents so.
///
/// # Errors
/// A given folder that does not exist, a bad agent file, or a hosted agent's bad name.
pub fn load_agents(
    given: Option<&Path>,
    experiment: Option<&Path>,
) -> Result<(AgentRegistry, Option<PathBuf>), InputError> {
    let from_env = std::env::var_os("ARBITER_AGENTS").map(PathBuf::from);
    let folders =
        agents_folders(given, from_env.as_deref(), experiment).map_err(InputError::new)?;
    let mut registry = AgentRegistry::load_folders(&folders)?;
    registry.add_hosted().map_err(InputError::new)?;
    Ok((registry, folders.into_iter().next()))
}

/// Every folder of agent files a command reads: `--agents` alone, else `$ARBITER_AGENTS`
/// alone, else an `agents/` folder beside the experiment (in its folder or the one
/// above) *and* the repository's `./agents` (the shipped agents and games), both read
/// together, so that an experiment in a folder of its own keeps them; a name defined in
/// both is refused.
///
/// # Errors
/// `--agents` or `$ARBITER_AGENTS` names no folder.
pub fn agents_folders(
    given: Option<&Path>,
    from_env: Option<&Path>,
    experiment: Option<&Path>,
) -> Result<Vec<PathBuf>, SpecError> {
    for (folder, what) in [(given, "--agents"), (from_env, "ARBITER_AGENTS")] {
        if let Some(folder) = folder {
            if !folder.is_dir() {
                return Err(SpecError::new(format!(
                    "{what} {}: no such folder of agent files",
                    folder.display()
                )));
            }
            return Ok(vec![folder.to_path_buf()]);
        }
    }
    let beside = experiment
        .and_then(Path::parent)
        .into_iter()
        .flat_map(|dir| [Some(dir), dir.parent()])
        .flatten()
        .map(|dir| dir.join("agents"))
        .find(|folder| folder.is_dir());
    let mut folders: Vec<PathBuf> = Vec::new();
    for folder in beside.into_iter().chain([PathBuf::from("agents")]) {
        let same = |known: &PathBuf| match (known.canonicalize(), folder.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => *known == folder,
        };
        if folder.is_dir() && !folders.iter().any(same) {
            folders.push(folder);
        }
    }
    Ok(folders)
}

/// The line (from 1) of setting `key` in the agent table whose name is on `name_line`.
fn setting_line(text: &str, name_line: Option<usize>, key: &str) -> Option<usize> {
    let name_line = name_line?;
    if key.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let start = lines[..name_line.min(lines.len())]
        .iter()
        .rposition(|l| l.trim_start().starts_with('['))
        .unwrap_or(0);
    (start..lines.len())
        .take_while(|&i| i == start || !lines[i].trim_start().starts_with('['))
        .find(|&i| {
            lines[i]
                .trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(['=', '.']))
        })
        .map(|i| i + 1)
}

/// The line of an agent table that an error about `key` points at, within the table
/// holding line `name_line` (from its `[[agent]]` header to the next header): the line
/// setting `key`, else the first line other than the name's that holds the word (a key
/// inside `params = {...}`). None when there is no such line.
fn key_line(text: &str, name_line: Option<usize>, key: &str) -> Option<usize> {
    let name_line = name_line?;
    if key.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let is_header = |l: &&str| l.trim_start().starts_with('[');
    let start = lines[..name_line.min(lines.len())]
        .iter()
        .rposition(is_header)
        .unwrap_or(0);
    let end = lines[name_line.min(lines.len())..]
        .iter()
        .position(is_header)
        .map_or(lines.len(), |i| i + name_line);
    let word_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let holds = |line: &str| {
        line.match_indices(key).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let after = line[at + key.len()..].chars().next();
            !before.is_some_and(word_char) && !after.is_some_and(word_char)
        })
    };
    let key_line = (start..end).find(|&i| {
        lines[i]
            .trim_start()
            .strip_prefix(key)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    });
    key_line
        .or_else(|| {
            (start..end)
                .filter(|&i| i + 1 != name_line)
                .find(|&i| holds(lines[i].split('#').next().unwrap_or("")))
        })
        .map(|i| i + 1)
}
