//! Agent specs: inline (`alphabeta(heuristic=offensive2,depth=4)`) or named in
//! `agents/*.toml`.

use super::spec::Spec;
use super::{AgentFactory, GameEntry, GameTask, InputError, line_of_string, toml_error};
use crate::external::rules::{ProgramGameDef, RulesSpec};
use crate::external::sandbox::SandboxSpec;
use crate::external::{ExternalSpec, OnFailure, Shared};
use crate::search::mcts::{MctsAgent, MctsConfig, Rollout};
use crate::search::tt::DEFAULT_TT_MB;
use crate::search::{Algorithm, MAX_DEEPENING, MAX_DEPTH, RandomAgent, SearchAgent, SearchConfig};
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
    /// A node budget per move (iterative deepening), if any: minimax and alpha-beta only.
    pub nodes: Option<u64>,
    /// Heuristic name (`None` for random).
    pub heuristic: Option<String>,
    /// Heuristic parameters as written.
    pub params: Vec<(String, String)>,
    /// MCTS's parameters (mcts only).
    pub mcts: MctsConfig,
    /// The transposition table's megabytes (alphabeta-tt only).
    pub tt_mb: u32,
    /// The aspiration window's half-width, 0 for none (alphabeta-tt only).
    pub aspiration: f64,
    /// Set for an agent that is another program (then the fields above are unused).
    pub external: Option<ExternalSpec>,
}

/// The largest node budget per move.
const MAX_NODE_BUDGET: u64 = 1 << 40;

/// What marks an external agent's inline spec (the form meta.json records).
const EXTERNAL_PREFIX: &str = "external:";

/// Whether an inline spec (as meta.json records agents) is an external program's.
pub fn is_external_spec(text: &str) -> bool {
    text.trim_start().starts_with(EXTERNAL_PREFIX)
}

/// What an agent plays as, from its inline spec as meta.json records it, in game `game`
/// (a game spec): the spec with its keys sorted, numbers written one way (`2.0` as `2`)
/// and the heuristic's parameters left at their defaults dropped. Two agents with one
/// identity play alike (a sweep's variant `enemy_weight=1` and `ab3-offensive2`); other
/// specs (external programs, unparsable text) are their own identity.
pub fn agent_identity(game: &str, spec: &str) -> String {
    let Ok(parsed) = spec.parse::<Spec>() else {
        return spec.to_string();
    };
    let game = game.split('(').next().unwrap_or(game).trim();
    let heuristic = parsed
        .params
        .iter()
        .find(|(k, _)| k == "heuristic")
        .map(|(_, h)| h.as_str());
    let defaults = super::GAMES
        .iter()
        .find(|g| g.name == game)
        .and_then(|g| g.heuristics.iter().find(|h| Some(h.name) == heuristic))
        .map_or(&[][..], |h| h.params);
    let number = |text: &str| text.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    let mut params: Vec<(String, String)> = parsed
        .params
        .into_iter()
        .filter(|(k, v)| {
            !defaults
                .iter()
                .any(|p| p.key == k && number(v) == Some(p.default))
        })
        .map(|(k, v)| match number(&v) {
            Some(n) => (k, n.to_string()),
            None => (k, v),
        })
        .collect();
    params.sort();
    Spec {
        name: parsed.name,
        params,
    }
    .to_string()
}

/// MCTS's parameters from their keys (`iterations`, `c`, `rollout`, `rollout_plies`,
/// `epsilon`, in that order), which only mcts takes.
fn mcts_config(
    algorithm: Algorithm,
    keys: &[Option<String>; 5],
    timed: bool,
) -> Result<MctsConfig, String> {
    const NAMES: [&str; 5] = ["iterations", "c", "rollout", "rollout_plies", "epsilon"];
    let mut config = MctsConfig::default();
    if algorithm != Algorithm::Mcts {
        return match keys.iter().zip(NAMES).find(|(k, _)| k.is_some()) {
            Some((_, name)) => Err(format!("{name} is mcts's parameter, not {algorithm}'s")),
            None => Ok(config),
        };
    }
    let [iterations, c, rollout, plies, epsilon] = keys;
    if let Some(text) = iterations {
        config.iterations = text
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n <= 100_000_000 && (n > 0 || timed))
            .ok_or_else(|| {
                format!("iterations '{text}' must be a whole number from 1 to 100000000 (0: as many as time_ms allows)")
            })?;
    } else if timed {
        config.iterations = 0;
    }
    if let Some(text) = c {
        config.c = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|c| c.is_finite() && *c >= 0.0)
            .ok_or_else(|| format!("c '{text}' must be a number, 0 or more"))?;
    }
    if let Some(text) = rollout {
        config.rollout = match text.trim() {
            "random" => Rollout::Random,
            "heuristic" => Rollout::Heuristic,
            other => return Err(format!("rollout '{other}' must be random or heuristic")),
        };
    }
    if let Some(text) = plies {
        config.rollout_plies = text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| {
                format!(
                    "rollout_plies '{text}' must be a whole number from 0 (to the end) to 10000"
                )
            })?;
    }
    if let Some(text) = epsilon {
        config.epsilon = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|e| (0.0..=1.0).contains(e))
            .ok_or_else(|| format!("epsilon '{text}' must be a number from 0 to 1"))?;
    }
    Ok(config)
}

impl AgentSpec {
    /// Whether nothing of its own stops its search: a searching algorithm with no depth
    /// limit (0) or one past a fixed search's, and neither a time nor a node budget. Only
    /// a game clock can stop it (the clock's share of each move), so a run without one
    /// refuses it.
    pub fn deepens_unbounded(&self) -> bool {
        self.algorithm.searches()
            && (self.depth == 0 || self.depth > MAX_DEPTH)
            && self.time_ms.is_none()
            && self.nodes.is_none()
    }

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
        let nodes = match take("nodes") {
            None => None,
            Some(_) if !algorithm.searches() => {
                return Err(format!(
                    "{algorithm} takes no nodes (a node budget is for minimax and the alphabeta variants; mcts counts iterations)"
                ));
            }
            Some(text) => Some(
                text.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=MAX_NODE_BUDGET).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "nodes '{text}' must be a whole number of nodes from 1 to {MAX_NODE_BUDGET}"
                        )
                    })?,
            ),
        };
        let tt_mb = match take("tt_mb") {
            None => DEFAULT_TT_MB,
            Some(_) if algorithm != Algorithm::AlphaBetaTt => {
                return Err(format!(
                    "tt_mb is alphabeta-tt's parameter, not {algorithm}'s"
                ));
            }
            Some(text) => text
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|mb| (1..=65_536).contains(mb))
                .ok_or_else(|| {
                    format!("tt_mb '{text}' must be a whole number of megabytes from 1 to 65536")
                })?,
        };
        let aspiration = match take("aspiration") {
            None => 0.0,
            Some(_) if algorithm != Algorithm::AlphaBetaTt => {
                return Err(format!(
                    "aspiration is alphabeta-tt's parameter, not {algorithm}'s"
                ));
            }
            Some(text) => text
                .trim()
                .parse::<f64>()
                .ok()
                .filter(|w| w.is_finite() && *w >= 0.0)
                .ok_or_else(|| {
                    format!(
                        "aspiration '{text}' must be a half-width of at least 0 (0 turns it off)"
                    )
                })?,
        };
        let mcts_keys = [
            take("iterations"),
            take("c"),
            take("rollout"),
            take("rollout_plies"),
            take("epsilon"),
        ];
        let deepens =
            algorithm.searches() || algorithm == Algorithm::Beam || algorithm == Algorithm::Mcts;
        let time_ms = match time_ms {
            None => None,
            Some(_) if !deepens => {
                return Err(format!(
                    "{algorithm} takes no time_ms (only minimax, the alphabeta variants, beam and mcts use a time budget)"
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
            (a, None) if a.searches() && (time_ms.is_some() || nodes.is_some()) => 0,
            (a, None) if a.searches() => DEFAULT_DEPTH,
            (a, Some(text)) if a.searches() => match text.trim().parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => d,
                // No depth limit (0), or a maximum for iterative deepening: stopped by a
                // time or node budget, or by a game clock (which the experiment checks).
                Ok(d) if d <= MAX_DEEPENING => d,
                _ => {
                    return Err(format!(
                        "depth '{text}' must be a whole number from 1 to {MAX_DEPTH}, or up to {MAX_DEEPENING} (0: no limit) for iterative deepening on a time or node budget or a game clock"
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
        let mcts = mcts_config(algorithm, &mcts_keys, time_ms.is_some())?;
        if algorithm == Algorithm::Mcts
            && heuristic.is_none()
            && (mcts.rollout == Rollout::Heuristic || mcts.rollout_plies > 0)
        {
            return Err(
                "mcts with rollout=heuristic or rollout_plies needs a heuristic, e.g. mcts(heuristic=offensive2,rollout_plies=20)"
                    .to_string(),
            );
        }
        let takes_heuristic = algorithm.uses_heuristic() || algorithm == Algorithm::Mcts;
        // A searching agent without a heuristic is refused for a game that has no default
        // one (every built-in game), when it meets the game: see `factory`.
        if !takes_heuristic && (heuristic.is_some() || !params.is_empty()) {
            return Err(format!("{algorithm} takes no heuristic or parameters"));
        }
        let mut spec = AgentSpec {
            name: String::new(),
            algorithm,
            depth,
            beam_width,
            gamma,
            time_ms,
            nodes,
            heuristic,
            params,
            mcts,
            tt_mb,
            aspiration,
            external: None,
        };
        spec.name = name.unwrap_or_else(|| spec.canonical());
        Ok(spec)
    }

    /// An agent that is another program.
    pub fn external(name: Option<String>, spec: ExternalSpec) -> AgentSpec {
        let mut agent = AgentSpec {
            name: String::new(),
            algorithm: Algorithm::Random,
            depth: 0,
            beam_width: DEFAULT_BEAM_WIDTH,
            gamma: 1.0,
            time_ms: spec.time_ms,
            nodes: None,
            heuristic: None,
            params: Vec::new(),
            mcts: MctsConfig::default(),
            tt_mb: DEFAULT_TT_MB,
            aspiration: 0.0,
            external: Some(spec),
        };
        agent.name = name.unwrap_or_else(|| agent.canonical());
        agent
    }

    /// The agent in a few words for listings: the inline spec, or for a program its
    /// command line, folder and time per move.
    pub fn describe(&self) -> String {
        match &self.external {
            None => self.canonical(),
            Some(external) => format!(
                "program `{}` in {}{}",
                external.command_line(),
                external.cwd.display(),
                external
                    .time_ms
                    .map_or(String::new(), |ms| format!(", {ms} ms a move"))
            ),
        }
    }

    /// The spec as inline text, e.g. `alphabeta(heuristic=offensive2,depth=4)`.
    pub fn canonical(&self) -> String {
        if let Some(external) = &self.external {
            let json = serde_json::to_string(external).unwrap_or_default();
            return format!("{EXTERNAL_PREFIX}{json}");
        }
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
        if self.algorithm == Algorithm::Mcts {
            let (mcts, default) = (self.mcts, MctsConfig::default());
            if mcts.iterations != 0 {
                params.push(("iterations".to_string(), mcts.iterations.to_string()));
            }
            if mcts.c != default.c {
                params.push(("c".to_string(), mcts.c.to_string()));
            }
            if mcts.rollout != default.rollout {
                params.push(("rollout".to_string(), mcts.rollout.name().to_string()));
            }
            if mcts.rollout_plies != default.rollout_plies {
                params.push(("rollout_plies".to_string(), mcts.rollout_plies.to_string()));
            }
            if mcts.epsilon != default.epsilon {
                params.push(("epsilon".to_string(), mcts.epsilon.to_string()));
            }
        }
        if self.algorithm == Algorithm::AlphaBetaTt && self.tt_mb != DEFAULT_TT_MB {
            params.push(("tt_mb".to_string(), self.tt_mb.to_string()));
        }
        if self.algorithm == Algorithm::AlphaBetaTt && self.aspiration > 0.0 {
            params.push(("aspiration".to_string(), self.aspiration.to_string()));
        }
        if let Some(ms) = self.time_ms {
            params.push(("time_ms".to_string(), ms.to_string()));
        }
        if let Some(nodes) = self.nodes {
            params.push(("nodes".to_string(), nodes.to_string()));
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
    pub fn factory<G: GameEntry>(&self, game: &G) -> Result<AgentFactory<G>, String> {
        if let Some(external) = &self.external {
            // A typo in `command` is found now, not after every game is lost to it.
            // (A Python callable: that it is hosted here, and not asked for a sandbox.)
            external.check_program()?;
            let shared = Shared::<G>::new(
                self.name.clone(),
                external.clone(),
                Box::new(|game: &G| game.game_spec().to_string()),
            );
            return Ok(Box::new(move |seed| Box::new(shared.agent(seed))));
        }
        let config = SearchConfig {
            algorithm: self.algorithm,
            depth: self.depth,
            beam_width: self.beam_width,
            gamma: self.gamma,
            time_ms: self.time_ms,
            nodes: self.nodes,
            mcts: self.mcts,
            tt_mb: self.tt_mb,
            aspiration: self.aspiration,
        };
        let heuristic = match &self.heuristic {
            None if self.algorithm.uses_heuristic() => {
                let Some(name) = G::default_heuristic() else {
                    let algorithm = self.algorithm;
                    // A misspelt key first: `depht=3` is why `depth` seems missing.
                    const KEYS: [&str; 13] = [
                        "heuristic",
                        "depth",
                        "time_ms",
                        "nodes",
                        "tt_mb",
                        "aspiration",
                        "iterations",
                        "c",
                        "rollout",
                        "rollout_plies",
                        "k",
                        "gamma",
                        "epsilon",
                    ];
                    if let Some((key, known)) = self.params.iter().find_map(|(key, _)| {
                        crate::core::closest(key, KEYS).map(|known| (key, known))
                    }) {
                        return Err(format!(
                            "unknown parameter '{key}': did you mean '{known}'? ({algorithm} also needs a heuristic, e.g. {algorithm}(heuristic=offensive2))"
                        ));
                    }
                    return Err(format!(
                        "{algorithm} needs a heuristic, e.g. {algorithm}(heuristic=offensive2)"
                    ));
                };
                game.heuristic(name, &self.params)
                    .map_err(|e| e.to_string())?
            }
            Some(name) => {
                if !G::heuristics().iter().any(|h| h.name == name) {
                    let known: Vec<&str> = G::heuristics().iter().map(|h| h.name).collect();
                    return Err(format!(
                        "unknown heuristic '{name}' for this game (known: {})",
                        known.join(", ")
                    ));
                }
                game.heuristic(name, &self.params)
                    .map_err(|e| e.to_string())?
            }
            // Random never evaluates; any heuristic of the game will do as a placeholder.
            None => game
                .heuristic(G::heuristics()[0].name, &[])
                .map_err(|e| e.to_string())?,
        };
        if self.algorithm == Algorithm::Random {
            return Ok(Box::new(|seed| Box::new(RandomAgent::<G>::new(seed))));
        }
        if self.algorithm == Algorithm::Mcts {
            return Ok(Box::new(move |seed| {
                Box::new(MctsAgent::<G, G::Heuristic>::new(
                    config.mcts,
                    config.time_ms,
                    heuristic.clone(),
                    seed,
                ))
            }));
        }
        Ok(Box::new(move |seed| {
            Box::new(SearchAgent::<G, G::Heuristic>::new(
                config,
                heuristic.clone(),
                seed,
            ))
        }))
    }
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

/// The line of an agent table that `message` is about, within the table holding line
/// `name_line` (from its `[[agent]]` header to the next header): the line of the key
/// named just before the message's first quoted word (`depth '0'`, `heuristic 'x'`), else
/// the first line other than the name's that holds that word (`parameter 'bogus'`: the
/// `params = {...}` line). None when there is no such word or line.
fn blame_line(text: &str, name_line: Option<usize>, message: &str) -> Option<usize> {
    let name_line = name_line?;
    let mut quoted = message.split('\'');
    let key = quoted.next()?.split_whitespace().next_back().unwrap_or("");
    let word = quoted.next().filter(|w| !w.is_empty())?;
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
        line.match_indices(word).any(|(at, _)| {
            let before = line[..at].chars().next_back();
            let after = line[at + word.len()..].chars().next();
            !before.is_some_and(word_char) && !after.is_some_and(word_char)
        })
    };
    let key_line = (start..end).find(|&i| {
        lines[i]
            .trim_start()
            .strip_prefix(key)
            .is_some_and(|rest| !key.is_empty() && rest.trim_start().starts_with('='))
    });
    key_line
        .or_else(|| {
            (start..end)
                .filter(|&i| i + 1 != name_line)
                .find(|&i| holds(lines[i].split('#').next().unwrap_or("")))
        })
        .map(|i| i + 1)
}

/// Factories of inline agent specs that must be valid for game `G` (for tests).
///
/// # Panics
/// On a spec that is not valid for `G`.
#[cfg(test)]
pub fn test_factories<G: GameEntry>(start: &G, specs: &[&str]) -> Vec<AgentFactory<G>> {
    specs
        .iter()
        .map(|s| {
            s.parse::<AgentSpec>()
                .and_then(|a| a.factory(start))
                .unwrap_or_else(|e| panic!("{s}: {e}"))
        })
        .collect()
}

impl std::str::FromStr for AgentSpec {
    type Err = String;

    /// Reads an inline spec such as `minimax(heuristic=defensive1,depth=3)`.
    fn from_str(text: &str) -> Result<AgentSpec, String> {
        if let Some(json) = text.trim().strip_prefix(EXTERNAL_PREFIX) {
            let external: ExternalSpec = serde_json::from_str(json)
                .map_err(|e| format!("external agent '{}': {e}", text.trim()))?;
            return Ok(AgentSpec::external(None, external));
        }
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
    command: Vec<String>,
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
struct AgentEntry {
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

/// A TOML value as JSON (for an external agent's `options`).
fn toml_to_json(value: &toml::Value) -> serde_json::Value {
    match value {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Value::from(*f),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(list) => list.iter().map(toml_to_json).collect(),
        toml::Value::Table(table) => serde_json::Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

/// A whole number of milliseconds (or bytes) from `low` to `high`, from an agent file.
fn whole(key: &str, value: &toml::Value, low: u64, high: u64) -> Result<u64, String> {
    value
        .as_integer()
        .and_then(|n| u64::try_from(n).ok())
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| format!("{key} = {value}: expected a whole number from {low} to {high}"))
}

/// An external agent's spec from its agent-file entry; relative paths are relative to
/// `folder`, the agent file's folder.
fn external_entry(entry: &AgentEntry, folder: &Path) -> Result<ExternalSpec, String> {
    let command = entry.command.clone().unwrap_or_default();
    if command.is_empty() || command[0].trim().is_empty() {
        return Err("command must list the program and its arguments, e.g. command = [\"python3\", \"bots/my_bot.py\"]".to_string());
    }
    let given = [
        ("algorithm", entry.algorithm.is_some()),
        ("heuristic", entry.heuristic.is_some()),
        ("depth", entry.depth.is_some()),
        ("params", !entry.params.is_empty()),
        ("k", entry.k.is_some()),
        ("gamma", entry.gamma.is_some()),
        ("nodes", entry.nodes.is_some()),
        ("tt_mb", entry.tt_mb.is_some()),
        ("aspiration", entry.aspiration.is_some()),
        ("iterations", entry.iterations.is_some()),
        ("c", entry.c.is_some()),
        ("rollout", entry.rollout.is_some()),
        ("rollout_plies", entry.rollout_plies.is_some()),
        ("epsilon", entry.epsilon.is_some()),
    ];
    if let Some((key, _)) = given.iter().find(|(_, set)| *set) {
        return Err(format!(
            "an external agent (command = ...) takes no {key}: its settings go in options = {{ ... }}"
        ));
    }
    let cwd = folder.join(entry.cwd.as_deref().unwrap_or("."));
    let cwd = std::path::absolute(&cwd).unwrap_or(cwd);
    let mut spec = ExternalSpec::new(command, cwd);
    spec.env = entry.env.clone();
    spec.options = entry
        .options
        .iter()
        .map(|(k, v)| (k.clone(), toml_to_json(v)))
        .collect();
    let most_ms = crate::core::MAX_SECONDS * 1000;
    for (key, value, target) in [
        ("startup_ms", &entry.startup_ms, &mut spec.startup_ms),
        ("tolerance_ms", &entry.tolerance_ms, &mut spec.tolerance_ms),
        ("hang_ms", &entry.hang_ms, &mut spec.hang_ms),
        ("ping_ms", &entry.ping_ms, &mut spec.ping_ms),
    ] {
        if let Some(value) = value {
            *target = whole(
                key,
                value,
                if key == "tolerance_ms" { 0 } else { 1 },
                most_ms,
            )?;
        }
    }
    if let Some(value) = &entry.time_ms {
        spec.time_ms = Some(whole("time_ms", value, 1, most_ms)?);
    }
    if let Some(value) = &entry.max_startup_failures {
        spec.max_startup_failures = whole("max_startup_failures", value, 1, 1_000_000)? as u32;
    }
    if let Some(value) = &entry.stderr_bytes {
        spec.stderr_bytes = whole("stderr_bytes", value, 0, 1 << 40)?;
    }
    spec.on_failure = match entry.on_failure.as_deref() {
        None | Some("forfeit") => OnFailure::Forfeit,
        Some("random") => OnFailure::Random,
        Some(other) => {
            return Err(format!(
                "on_failure = '{other}': expected 'forfeit' or 'random'"
            ));
        }
    };
    spec.strict = entry.strict.unwrap_or(false);
    if let Some(value) = &entry.sandbox {
        spec.sandbox = sandbox_entry(value, folder)?;
    }
    Ok(spec)
}

/// `sandbox = true`, `false`, or a table of limits (`memory_mb`, `processes`,
/// `cpu_seconds`, `output_mb`, `read = [folders]`) from an agent file.
pub(super) fn sandbox_entry(
    value: &toml::Value,
    folder: &Path,
) -> Result<Option<SandboxSpec>, String> {
    let table = match value {
        toml::Value::Boolean(on) => return Ok(on.then(SandboxSpec::default)),
        toml::Value::Table(table) => table,
        other => {
            return Err(format!(
                "sandbox = {other}: expected true, false or a table such as {{ memory_mb = 512 }}"
            ));
        }
    };
    let mut spec = SandboxSpec::default();
    for (key, value) in table {
        let target = match key.as_str() {
            "memory_mb" => &mut spec.memory_mb,
            "processes" => &mut spec.processes,
            "cpu_seconds" => &mut spec.cpu_seconds,
            "output_mb" => &mut spec.output_mb,
            "read" => {
                let folders = value
                    .as_array()
                    .filter(|list| list.iter().all(toml::Value::is_str))
                    .ok_or_else(|| format!("sandbox.read = {value}: expected a list of folders"))?;
                spec.read = folders
                    .iter()
                    .filter_map(toml::Value::as_str)
                    .map(|f| std::path::absolute(folder.join(f)).unwrap_or_else(|_| folder.join(f)))
                    .collect();
                continue;
            }
            other => {
                return Err(format!(
                    "sandbox.{other}: unknown; expected memory_mb, processes, cpu_seconds, output_mb or read"
                ));
            }
        };
        *target = whole(&format!("sandbox.{key}"), value, 1, 1 << 40)?;
    }
    Ok(Some(spec))
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
            let text = super::read_input(&file)?;
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
            if super::GAMES.iter().any(|g| g.name == entry.name) {
                return Err(fail("a built-in game has this name".to_string()));
            }
            if let Some(previous) = self.games.get(&entry.name) {
                return Err(fail(format!(
                    "already defined in {}",
                    previous.file.display()
                )));
            }
            if entry.command.is_empty() || entry.command[0].trim().is_empty() {
                return Err(fail(
                    "command must list the program and its arguments, e.g. command = [\"python3\", \"games/connect4.py\"]"
                        .to_string(),
                ));
            }
            let folder = file.parent().unwrap_or(Path::new("."));
            let cwd = folder.join(entry.cwd.as_deref().unwrap_or("."));
            let cwd = cwd
                .canonicalize()
                .or_else(|_| std::path::absolute(&cwd))
                .unwrap_or(cwd);
            let mut spec = RulesSpec::new(entry.command.clone(), cwd);
            spec.env = entry.env.clone();
            let most_ms = crate::core::MAX_SECONDS * 1000;
            for (key, value, target) in [
                ("startup_ms", &entry.startup_ms, &mut spec.startup_ms),
                ("request_ms", &entry.request_ms, &mut spec.request_ms),
            ] {
                if let Some(value) = value {
                    *target = whole(key, value, 1, most_ms).map_err(&fail)?;
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
    pub fn game(&self, text: &str) -> Result<super::GameSpec, String> {
        let spec: Spec = text.parse()?;
        match self.games.get(&spec.name) {
            Some(game) => ProgramGameDef::start(&spec.name, spec.params, game.spec.clone())
                .map(|def| super::GameSpec::Program(super::ProgramSpec(def))),
            None => text.parse::<super::GameSpec>().map_err(|e| {
                // The declared games matter when the name is unknown, not for a bad
                // parameter of a built-in game.
                if !e.starts_with("unknown game '") {
                    return e;
                }
                let built_in = super::GAMES.iter().map(|g| g.name);
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
            let built_in = super::GAMES
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
            .map_err(&fail)?;
            match &entry.game {
                // A program game is checked when an experiment names it (its program
                // says which features it has).
                Some(game)
                    if game
                        .parse::<Spec>()
                        .is_ok_and(|g| self.games.contains_key(&g.name)) => {}
                Some(game) => {
                    let game: super::GameSpec = game.parse().map_err(&fail)?;
                    fits(&probe, game).map_err(&fail)?;
                }
                None => fits_a_game(&probe, !self.games.is_empty()).map_err(&fail)?,
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
                    let key = e.split([' ', '.', '=']).next().unwrap_or("");
                    let at = setting_line(text, line, key).or(line);
                    InputError::in_file(file, at, format!("agent '{}': {e}", entry.name))
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
            let fail_at = |message: String| {
                let at = blame_line(text, line, &message).or(line);
                InputError::in_file(file, at, format!("agent '{}': {message}", entry.name))
            };
            // `params = { depth = 3 }` is the `depth` key too (every algorithm key may be
            // given either way).
            let mut depth = entry.depth.as_ref().map(value_text);
            if let Some(at) = params.iter().position(|(k, _)| k == "depth") {
                let (_, value) = params.remove(at);
                if depth.is_some() {
                    return Err(fail_at(
                        "'depth' given twice: as depth = and in params".into(),
                    ));
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

    /// Registers the agents hosted by this process (the Python package's callables,
    /// [`crate::external::hosted`]) that are not already registered by this name.
    ///
    /// # Errors
    /// A hosted agent whose name an agent file defines too, or a name that is not letters,
    /// digits, '-', '_' or '.'.
    pub fn add_hosted(&mut self) -> Result<(), String> {
        for name in crate::external::hosted::names() {
            if !is_name(&name) {
                return Err(format!(
                    "Python agent name '{name}' must be letters, digits, '-', '_' or '.'"
                ));
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
                return Err(format!(
                    "Python agent '{name}': {} defines an agent of that name too; pass it under another name",
                    previous.file.display()
                ));
            }
            let spec = AgentSpec::external(Some(name.clone()), ExternalSpec::hosted(&name));
            self.insert(spec, Path::new("<python>"), None)
                .map_err(|e| e.message)?;
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
    pub fn resolve(&self, text: &str) -> Result<AgentSpec, String> {
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
            return Err(format!("unknown agent '{name}': did you mean '{known}'?"));
        }
        let mut names: Vec<&str> = self.agents.keys().map(String::as_str).collect();
        names.truncate(12);
        Err(format!(
            "unknown agent '{name}': not a registered name ({}) nor an inline spec like alphabeta(heuristic=offensive2,depth=4)",
            if names.is_empty() {
                "none registered: agent files are read from --agents DIR, $ARBITER_AGENTS, or agents/ beside the experiment or in the current folder".to_string()
            } else {
                format!("e.g. {}", names.join(", "))
            }
        ))
    }
}

/// Whether `spec` can play `game` (its heuristic and parameters are the game's).
///
/// # Errors
/// Why not.
pub fn fits(spec: &AgentSpec, game: super::GameSpec) -> Result<(), String> {
    struct Fits<'a>(&'a AgentSpec);
    impl GameTask for Fits<'_> {
        type Output = Result<(), String>;
        fn run<G: GameEntry>(self, start: G) -> Result<(), String> {
            self.0.factory(&start).map(|_| ())
        }
    }
    super::dispatch(game, Fits(spec))
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
fn fits_a_game(spec: &AgentSpec, program_games: bool) -> Result<(), String> {
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
    for game in super::GAMES {
        match fits(spec, game.name.parse()?) {
            Ok(()) => return Ok(()),
            Err(reason) => reasons.push(reason),
        }
    }
    let heuristic = spec.heuristic.as_deref().unwrap_or_default();
    match reasons.iter().find(|r| !r.starts_with("unknown heuristic")) {
        Some(reason) => Err(reason.clone()),
        None => {
            let known: Vec<&str> = super::GAMES
                .iter()
                .flat_map(|g| g.heuristics.iter().map(|h| h.name))
                .collect();
            Err(
                match crate::core::closest(heuristic, known.iter().copied()) {
                    Some(name) => {
                        format!("no game has a heuristic '{heuristic}': did you mean '{name}'?")
                    }
                    None => format!(
                        "no game has a heuristic '{heuristic}' (see `arbiter list` for each game's)"
                    ),
                },
            )
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
) -> Result<Vec<PathBuf>, String> {
    for (folder, what) in [(given, "--agents"), (from_env, "ARBITER_AGENTS")] {
        if let Some(folder) = folder {
            if !folder.is_dir() {
                return Err(format!(
                    "{what} {}: no such folder of agent files",
                    folder.display()
                ));
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
        assert!(
            spec.factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard
            ))
            .is_ok()
        );
    }

    #[test]
    fn mcts_and_table_specs_parse_print_and_refuse_what_does_not_fit() {
        let spec = |t: &str| t.parse::<AgentSpec>();
        let mcts = spec("mcts").expect("defaults");
        assert_eq!(mcts.mcts.iterations, 1000);
        assert_eq!(mcts.canonical(), "mcts(iterations=1000)");
        let timed = spec("mcts(time_ms=50)").expect("timed");
        assert_eq!(
            (timed.mcts.iterations, timed.canonical().as_str()),
            (0, "mcts(time_ms=50)")
        );
        let heuristic =
            spec("mcts(heuristic=offensive2,rollout=heuristic,rollout_plies=20,c=0.7,epsilon=0.2)")
                .expect("heuristic rollouts");
        assert_eq!(heuristic.mcts.rollout, Rollout::Heuristic);
        assert_eq!(
            heuristic.canonical(),
            "mcts(heuristic=offensive2,iterations=1000,c=0.7,rollout=heuristic,rollout_plies=20,epsilon=0.2)"
        );
        assert!(
            heuristic
                .factory(&Breakthrough::new(
                    crate::games::breakthrough::Rules::Standard
                ))
                .is_ok()
        );
        let err = |t: &str| spec(t).expect_err(t);
        assert!(err("mcts(rollout=heuristic)").contains("needs a heuristic"));
        assert!(err("mcts(iterations=0)").contains("iterations '0'"));
        assert!(err("mcts(rollout=smart)").contains("random or heuristic"));
        assert!(err("mcts(depth=3)").contains("mcts takes no depth"));
        assert!(
            err("alphabeta(heuristic=offense,iterations=5)")
                .contains("iterations is mcts's parameter")
        );
        assert!(
            err("alphabeta(heuristic=offense,tt_mb=4)")
                .contains("tt_mb is alphabeta-tt's parameter")
        );
        let tt = spec("alphabeta-tt(heuristic=offense,depth=5,tt_mb=8)").expect("table");
        assert_eq!(tt.tt_mb, 8);
        assert_eq!(
            tt.canonical(),
            "alphabeta-tt(heuristic=offense,depth=5,tt_mb=8)"
        );
        assert!(err("alphabeta-tt(heuristic=offense,tt_mb=0)").contains("tt_mb '0'"));
        assert!(err("alphabeta-tt(heuristic=offense,aspiration=-1)").contains("aspiration '-1'"));
        assert!(
            err("alphabeta(heuristic=offense,aspiration=5)")
                .contains("aspiration is alphabeta-tt's parameter")
        );
        let budget = spec("alphabeta(heuristic=offense,nodes=5000)").expect("node budget");
        assert_eq!((budget.nodes, budget.depth), (Some(5000), 0));
        assert_eq!(
            budget.canonical(),
            "alphabeta(heuristic=offense,depth=0,nodes=5000)"
        );
        // The canonical form is read back (a resumed run reads it from meta.json), and
        // depth 0 means no limit only beside a budget.
        for budgeted in [
            budget,
            spec("alphabeta(heuristic=offense,time_ms=20)").expect("t"),
        ] {
            let again = spec(&budgeted.canonical()).expect("its canonical form parses");
            assert_eq!(again.canonical(), budgeted.canonical());
            assert_eq!((again.depth, again.nodes), (0, budgeted.nodes));
        }
        // Depth 0 (no limit) and depths past a fixed search's parse: a budget or a game
        // clock must stop them (the experiment checks that there is one).
        assert_eq!(
            spec("alphabeta(heuristic=offense,depth=0)")
                .expect("0")
                .depth,
            0
        );
        assert_eq!(
            spec("alphabeta-tt(heuristic=offense,depth=30)")
                .expect("30")
                .depth,
            30
        );
        assert!(err("alphabeta(heuristic=offense,depth=65)").contains("up to 64"));
        assert!(err("alphabeta(heuristic=offense,nodes=0)").contains("nodes '0' must be"));
        assert!(err("mcts(nodes=10)").contains("mcts takes no nodes"));
        let aspiring = spec("alphabeta-tt(heuristic=offense,aspiration=2.5)").expect("window");
        assert_eq!(aspiring.aspiration, 2.5);
        assert_eq!(
            aspiring.canonical(),
            "alphabeta-tt(heuristic=offense,depth=3,aspiration=2.5)"
        );
    }

    #[test]
    fn edit_distance_counts_single_character_changes() {
        use crate::core::edit_distance;
        assert_eq!(edit_distance("ab3-ofensive2", "ab3-offensive2"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn bad_agent_specs_say_what_is_wrong() {
        let err = |t: &str| t.parse::<AgentSpec>().expect_err(t);
        assert!(err("uct(heuristic=x)").contains("unknown algorithm 'uct'"));
        assert!(err("minimax(heuristic=offense,depth=99)").contains("from 1 to 12"));
        assert!(err("minimax(heuristic=offense,depth=two)").contains("from 1 to 12"));
        // Without a heuristic, refused where the game has no default one (every built-in).
        let no_heuristic: AgentSpec = "minimax(depth=2)".parse().expect("parses");
        let refused = no_heuristic
            .factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .err()
            .expect("refused for breakthrough");
        assert!(refused.contains("minimax needs a heuristic"), "{refused}");
        assert!(err("greedy(heuristic=offense,depth=3)").contains("exactly one ply"));
        assert!(err("random(heuristic=offense)").contains("no heuristic"));
        let unknown: AgentSpec = "minimax(heuristic=chess)".parse().expect("parses");
        let message = unknown
            .factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .err()
            .expect("unknown heuristic");
        assert!(message.contains("unknown heuristic 'chess'") && message.contains("offensive2"));
        let bad_key: AgentSpec = "minimax(heuristic=offense,wieght=1)"
            .parse()
            .expect("parses");
        let message = bad_key
            .factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .err()
            .expect("unknown key");
        assert!(message.contains("unknown parameter 'wieght'"), "{message}");
        // A misspelt key is named before the heuristic it seems to lack.
        let typo: AgentSpec = "alphabeta(depht=3)".parse().expect("parses");
        let said = typo
            .factory(&Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .err()
            .expect("refused");
        assert!(
            said.contains("unknown parameter 'depht': did you mean 'depth'?"),
            "{said}"
        );
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

        // A heuristic or parameter no game takes is this file's mistake, found on loading
        // and blamed on the line that holds it.
        for (entry, expected) in [
            (
                "heuristic = \"ofensive2\"",
                "b.toml: line 4: agent 'x': no game has a heuristic 'ofensive2': did you mean 'offensive2'?",
            ),
            (
                "heuristic = \"offensive2\"\nparams = { almost_wn = 5 }",
                "b.toml: line 5: agent 'x': unknown parameter 'almost_wn' for heuristic offensive2",
            ),
            (
                "heuristic = \"offensive2\"\ndepth = 2\n\n[[agent]]\nname = \"y\"\nalgorithm = \"alphabta\"",
                "b.toml: line 9: agent 'y': unknown algorithm 'alphabta'",
            ),
        ] {
            std::fs::write(
                folder.path().join("b.toml"),
                format!("[[agent]]\nname = \"x\"\nalgorithm = \"alphabeta\"\n{entry}\n"),
            )
            .expect("write");
            let err = AgentRegistry::load(folder.path())
                .expect_err("no game takes it")
                .to_string();
            assert!(err.contains(expected), "{err}");
        }
        // A heuristic of another game than Breakthrough's is fine in an agent file.
        std::fs::write(
            folder.path().join("b.toml"),
            "[[agent]]\nname = \"x\"\nalgorithm = \"alphabeta\"\nheuristic = \"lines\"\n",
        )
        .expect("write");
        assert!(AgentRegistry::load(folder.path()).is_ok());
    }

    #[test]
    fn agents_that_play_alike_have_one_identity() {
        let game = "breakthrough(rules=standard)";
        let id = |spec: &str| agent_identity(game, spec);
        let base = id("alphabeta(heuristic=offensive2,depth=3)");
        assert_eq!(
            id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=1)"),
            base
        );
        assert_eq!(
            id("alphabeta(depth=3,enemy_weight=1.0,heuristic=offensive2)"),
            base
        );
        assert_eq!(
            id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2.0)"),
            id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2)")
        );
        assert_ne!(
            id("alphabeta(heuristic=offensive2,depth=3,enemy_weight=2)"),
            base
        );
        assert_ne!(id("alphabeta(heuristic=offensive2,depth=4)"), base);
        // A program's spec is its own identity.
        assert_eq!(
            id("external:{\"command\":[\"x\"]}"),
            "external:{\"command\":[\"x\"]}"
        );
    }

    #[test]
    fn external_agents_are_registered_checked_and_round_trip_through_meta() {
        let folder = tempfile::tempdir().expect("temp dir");
        let file = folder.path().join("ext.toml");
        let mut registry = AgentRegistry::default();
        registry
            .add_text(
                &file,
                "[[agent]]\nname = \"bot\"\ncommand = [\"python3\", \"bot.py\"]\ncwd = \"..\"\noptions = { depth = 3, style = \"calm\" }\ntolerance_ms = 0\non_failure = \"random\"\n",
            )
            .expect("valid");
        let bot = registry.resolve("bot").expect("registered");
        let external = bot.external.clone().expect("external");
        assert_eq!(external.command, ["python3", "bot.py"]);
        assert!(external.cwd.is_absolute() && external.cwd.ends_with(".."));
        assert_eq!(external.options["depth"], 3);
        assert_eq!((external.tolerance_ms, external.startup_ms), (0, 10_000));
        assert_eq!(external.on_failure, OnFailure::Random);
        // meta.json keeps the canonical text; it reads back to the same agent.
        let again: AgentSpec = bot.canonical().parse().expect("round trip");
        assert_eq!(again.external, bot.external);
        // A sweep names the program with other options.
        let deeper = registry
            .resolve("bot(depth=5,style=wild)")
            .expect("override");
        let options = &deeper.external.expect("external").options;
        assert_eq!(
            (options["depth"].clone(), options["style"].clone()),
            (5.into(), "wild".into())
        );

        let error = |text: &str| {
            AgentRegistry::default()
                .add_text(&file, text)
                .expect_err(text)
                .to_string()
        };
        let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\nalgorithm = \"random\"\n");
        assert!(
            message.contains(
                "ext.toml: line 2: agent 'b': an external agent (command = ...) takes no algorithm"
            ),
            "{message}"
        );
        let message = error("[[agent]]\nname = \"b\"\ncommand = []\n");
        assert!(
            message.contains("command must list the program"),
            "{message}"
        );
        let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\nstartup_ms = 0\n");
        assert!(
            message.contains("startup_ms = 0: expected a whole number from 1"),
            "{message}"
        );
        let message = error("[[agent]]\nname = \"b\"\ncommand = [\"x\"]\non_failure = \"retry\"\n");
        assert!(
            message.contains("on_failure = 'retry': expected 'forfeit' or 'random'"),
            "{message}"
        );
        let message =
            error("[[agent]]\nname = \"b\"\nalgorithm = \"random\"\noptions = { a = 1 }\n");
        assert!(
            message.contains("are for external agents; give command"),
            "{message}"
        );
        let message = error("[[agent]]\nname = \"b\"\n");
        assert!(message.contains("give algorithm"), "{message}");
    }
}
