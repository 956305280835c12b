//! Search-comparison experiments (`kind = "search"` in a matchups file, or `arbiter
//! compare`): algorithms x depths on the same positions, built-in algorithms and external
//! programs (told the depth in their `depth` option).

use super::reference::{ReferenceKind, checked_references};
use super::spec::{Spec, SpecError};
use super::{
    AgentRegistry, AgentSpec, GameEntry, GameSpec, GameTask, InputError, line_of_key, toml_error,
};
use crate::search::{Algorithm, MAX_DEPTH};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSource {
    /// Random playouts from the start of `min..=max` plies.
    Random {
        /// Fewest plies.
        min_plies: usize,
        /// Most plies.
        max_plies: usize,
    },
    /// Prefixes of the games in an earlier run's games.csv.
    Games(PathBuf),
}

/// A validated search comparison.
#[derive(Clone, Debug)]
pub struct SearchExperiment {
    /// Name (results folder).
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file, or `<command line>`.
    pub path: PathBuf,
    /// The file's text (or the command line).
    pub source: String,
    /// The game.
    pub game: GameSpec,
    /// Heuristic name and parameters.
    pub heuristic: Spec,
    /// Number of positions.
    pub positions: usize,
    /// Where positions come from.
    pub source_of_positions: PositionSource,
    /// Seed of the positions and of every search.
    pub seed: u64,
    /// (algorithm, depth) pairs, in order.
    pub runs: Vec<(Algorithm, u32)>,
    /// External programs, each with the depths it is asked to search (its `depth` option),
    /// after the built-in runs.
    pub programs: Vec<(AgentSpec, Vec<u32>)>,
    /// MCTS at each iteration budget (`mcts` in the algorithms): no depth, asked once per
    /// position, after the programs.
    pub mcts: Vec<AgentSpec>,
}

/// The iteration budgets MCTS is compared at when none are given.
pub const DEFAULT_ITERATIONS: [u64; 1] = [1000];

/// MCTS agents (random rollouts) at each of `iterations`.
///
/// # Errors
/// An iteration count out of range.
pub fn mcts_agents(iterations: &[u64]) -> Result<Vec<AgentSpec>, SpecError> {
    iterations
        .iter()
        .map(|n| format!("mcts(iterations={n})").parse::<AgentSpec>())
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchFile {
    #[allow(dead_code)]
    kind: String,
    name: Option<String>,
    description: Option<String>,
    game: String,
    heuristic: String,
    positions: Option<i64>,
    plies: Option<[i64; 2]>,
    positions_from: Option<PathBuf>,
    seed: Option<u64>,
    algorithms: Vec<String>,
    depths: Vec<i64>,
    iterations: Option<Vec<i64>>,
    #[serde(default)]
    max_depth: BTreeMap<String, i64>,
    /// Published values, read by [`super::reference::parse_references`].
    #[serde(default, rename = "reference")]
    _reference: Vec<toml::Table>,
}

/// Reads depths written `3`, `1..5` or `1,2,4`.
///
/// # Errors
/// A message when the text is not such a list of depths from 1 to the maximum.
pub fn parse_depths(text: &str) -> Result<Vec<u32>, SpecError> {
    let number = |t: &str| -> Result<u32, SpecError> {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_DEPTH).contains(d))
            .ok_or_else(|| {
                SpecError::at(
                    "depths",
                    format!(
                        "depth '{}' must be a whole number from 1 to {MAX_DEPTH}",
                        t.trim()
                    ),
                )
            })
    };
    if let Some((low, high)) = text.split_once("..") {
        let (low, high) = (number(low)?, number(high.trim_start_matches('='))?);
        if low > high {
            return Err(SpecError::at(
                "depths",
                format!("depths '{text}': the range is empty"),
            ));
        }
        return Ok((low..=high).collect());
    }
    text.split(',').map(number).collect()
}

/// The external program registered as `name` (`my-bot` or `my-bot(key=value)`), a name
/// that is not an algorithm; `folder` names where agents are registered, for the error.
///
/// # Errors
/// A name that is not registered, or a built-in agent.
pub fn program(registry: &AgentRegistry, name: &str, folder: &str) -> Result<AgentSpec, String> {
    let spec = registry.resolve(name).map_err(|_| {
        let not_algorithm = name
            .parse::<Algorithm>()
            .err()
            .unwrap_or_else(|| format!("'{name}' is not an algorithm"));
        format!("{not_algorithm}, nor an external program registered in {folder}")
    })?;
    if spec.external.is_none() {
        return Err(format!(
            "'{name}' is a built-in agent: compare names algorithms, or external programs registered in agents/"
        ));
    }
    Ok(spec)
}

/// `spec` (an external program) asked to search `depth` plies: its `depth` option.
pub fn at_depth(spec: &AgentSpec, depth: u32) -> AgentSpec {
    let mut spec = spec.clone();
    if let Some(external) = spec.external.as_mut() {
        external
            .options
            .insert("depth".to_string(), serde_json::Value::from(depth));
    }
    spec
}

impl SearchExperiment {
    /// Validates a search experiment from the text of `path` (already known to have
    /// `kind = "search"`).
    ///
    /// # Errors
    /// A malformed file or a value that does not fit, naming the line.
    /// Names in `algorithms` that are not algorithms are looked up in `registry`: an
    /// external program is compared too (it reports its own nodes).
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<SearchExperiment, InputError> {
        let file: SearchFile =
            toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let at_key = |key: &str| line_of_key(&source, key);
        let fail = |key: &str, message: String| InputError::in_file(path, at_key(key), message);
        let game: GameSpec = registry
            .game(&file.game)
            .map_err(|e: String| fail("game", e))?;
        let heuristic: Spec = file
            .heuristic
            .parse()
            .map_err(|e: SpecError| fail("heuristic", e.message))?;
        // A named heuristic of the agent files stands for its base and parameters.
        let heuristic = registry.expand_heuristic(&heuristic);
        let positions = file.positions.unwrap_or(100);
        if !(1..=1_000_000).contains(&positions) {
            return Err(fail(
                "positions",
                format!("positions = {positions}: must be from 1 to 1000000"),
            ));
        }
        let [min_plies, max_plies] = file.plies.unwrap_or([10, 40]);
        if min_plies < 0 || max_plies < min_plies || max_plies > 10_000 {
            return Err(fail(
                "plies",
                format!(
                    "plies = [{min_plies}, {max_plies}]: expected [fewest, most] with 0 <= fewest <= most"
                ),
            ));
        }
        let source_of_positions = match file.positions_from.clone() {
            Some(games) => {
                let games = if games.is_relative() {
                    path.parent().map_or(games.clone(), |dir| {
                        let beside = dir.join(&games);
                        if beside.exists() {
                            beside
                        } else {
                            games.clone()
                        }
                    })
                } else {
                    games
                };
                PositionSource::Games(games)
            }
            None => PositionSource::Random {
                min_plies: min_plies as usize,
                max_plies: max_plies as usize,
            },
        };
        if file.algorithms.is_empty() || file.depths.is_empty() {
            return Err(fail(
                "algorithms",
                "give at least one algorithm and one depth".to_string(),
            ));
        }
        let Searches {
            algorithms,
            programs,
            mcts,
        } = searches(&file, registry, &fail)?;
        let mut depths = Vec::new();
        for &depth in &file.depths {
            if !(1..=i64::from(MAX_DEPTH)).contains(&depth) {
                return Err(fail(
                    "depths",
                    format!("depth {depth} must be from 1 to {MAX_DEPTH}"),
                ));
            }
            depths.push(depth as u32);
        }
        let mut caps = BTreeMap::new();
        for (name, &cap) in &file.max_depth {
            if !programs.iter().any(|p: &AgentSpec| &p.name == name) {
                let algorithm: Algorithm =
                    name.parse().map_err(|e: String| fail("max_depth", e))?;
                caps.insert(algorithm.name().to_string(), cap);
            } else {
                caps.insert(name.clone(), cap);
            }
        }
        let allowed =
            |name: &str, depth: u32| caps.get(name).is_none_or(|&cap| i64::from(depth) <= cap);
        let runs = algorithms
            .iter()
            .flat_map(|&a| depths.iter().map(move |&d| (a, d)))
            .filter(|(a, d)| allowed(a.name(), *d))
            .collect();
        let programs = programs
            .into_iter()
            .map(|spec| {
                let depths = depths
                    .iter()
                    .copied()
                    .filter(|&d| allowed(&spec.name, d))
                    .collect();
                (spec, depths)
            })
            .collect();
        let name =
            super::run_name(file.name, path, "search").map_err(|e| fail("name", e.message))?;
        checked_references(path, &source, ReferenceKind::Search, |reference| {
            let [algorithm, depth] = &reference.row;
            if !file.algorithms.contains(algorithm) {
                Some(format!(
                    "algorithm '{algorithm}' is not one of the experiment's ({})",
                    file.algorithms.join(", ")
                ))
            } else if !file.depths.iter().any(|d| d.to_string() == *depth) {
                Some(format!(
                    "depth {depth} is not one of the experiment's depths"
                ))
            } else {
                None
            }
        })?;
        Ok(SearchExperiment {
            name,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source,
            game,
            heuristic,
            positions: positions as usize,
            source_of_positions,
            seed: file.seed.unwrap_or(1),
            runs,
            programs,
            mcts,
        })
    }

    /// The experiment file that describes this comparison of `algorithms` x `depths` with
    /// random positions (what `arbiter compare` keeps in meta.json, so that `--resume`
    /// reads it back like any experiment file).
    pub fn to_toml(&self, algorithms: &[String], depths: &[u32], iterations: &[u64]) -> String {
        let quote = |text: &str| toml::Value::String(text.to_string()).to_string();
        let list = |items: Vec<String>| format!("[{}]", items.join(", "));
        let (min_plies, max_plies) = match &self.source_of_positions {
            PositionSource::Random {
                min_plies,
                max_plies,
            } => (*min_plies, *max_plies),
            PositionSource::Games(_) => (10, 40),
        };
        format!(
            "kind = \"search\"\nname = {}\ngame = {}\nheuristic = {}\npositions = {}\nplies = [{min_plies}, {max_plies}]\nseed = {}\nalgorithms = {}\ndepths = {}\n",
            quote(&self.name),
            quote(&self.game.to_string()),
            quote(&self.heuristic.to_string()),
            self.positions,
            self.seed,
            list(algorithms.iter().map(|a| quote(a)).collect()),
            list(depths.iter().map(u32::to_string).collect()),
        ) + &if self.mcts.is_empty() {
            String::new()
        } else {
            format!(
                "iterations = {}\n",
                list(iterations.iter().map(u64::to_string).collect())
            )
        }
    }

    /// Checks the heuristic against the game (before anything runs).
    ///
    /// # Errors
    /// As [`SearchExperiment::heuristic_for`].
    pub fn check_heuristic(&self) -> Result<(), InputError> {
        struct Check<'a>(&'a SearchExperiment);
        impl GameTask for Check<'_> {
            type Output = Result<(), InputError>;
            fn run<G: GameEntry>(self, start: G) -> Self::Output {
                if start.has_hidden() {
                    return Err(InputError::in_file(
                        &self.0.path,
                        line_of_key(&self.0.source, "game"),
                        format!(
                            "a search comparison reads whole positions, and some of '{}' is hidden from a player; play it in a game experiment with ismcts",
                            self.0.game
                        ),
                    ));
                }
                if start.has_chance()
                    && let Some((algorithm, _)) =
                        self.0.runs.iter().find(|(a, _)| !a.handles_chance())
                {
                    return Err(InputError::in_file(
                        &self.0.path,
                        line_of_key(&self.0.source, "algorithms"),
                        format!(
                            "{algorithm} needs a game without chance; use expectimax or mcts for '{}'",
                            self.0.game
                        ),
                    ));
                }
                self.0.heuristic_for(&start).map(|_| ())
            }
        }
        super::dispatch(self.game.clone(), Check(self))
    }

    /// The heuristic, checked against game `G`.
    ///
    /// # Errors
    /// An unknown heuristic or parameter, naming the file's `heuristic` line.
    pub fn heuristic_for<G: GameEntry>(&self, game: &G) -> Result<G::Heuristic, InputError> {
        let line = line_of_key(&self.source, "heuristic");
        let known: Vec<&str> = G::heuristics().iter().map(|h| h.name).collect();
        if !known.contains(&self.heuristic.name.as_str()) {
            return Err(InputError::in_file(
                &self.path,
                line,
                format!(
                    "unknown heuristic '{}' for {} (known: {}){}",
                    self.heuristic.name,
                    self.game,
                    known.join(", "),
                    crate::core::closest(&self.heuristic.name, known.iter().copied())
                        .map_or(String::new(), |s| format!("; did you mean '{s}'?"))
                ),
            ));
        }
        game.heuristic(&self.heuristic.name, &self.heuristic.params)
            .map_err(|e| InputError::in_file(&self.path, line, e.to_string()))
    }
}

/// The searches a comparison names.
struct Searches {
    /// arbiter's algorithms that search to a depth.
    algorithms: Vec<Algorithm>,
    /// External programs, by agent name.
    programs: Vec<AgentSpec>,
    /// MCTS at each iteration budget.
    mcts: Vec<AgentSpec>,
}

/// The searches a comparison names: arbiter's algorithms that search to a depth, the
/// external programs (by agent name), and MCTS at each iteration budget.
fn searches(
    file: &SearchFile,
    registry: &AgentRegistry,
    fail: &impl Fn(&str, String) -> InputError,
) -> Result<Searches, InputError> {
    let mut algorithms = Vec::new();
    let mut programs = Vec::new();
    let mut with_mcts = false;
    for name in &file.algorithms {
        match name.parse::<Algorithm>() {
            Ok(algorithm) if algorithm.searches() => algorithms.push(algorithm),
            Ok(Algorithm::Mcts) => with_mcts = true,
            Ok(algorithm) => {
                return Err(fail(
                    "algorithms",
                    format!(
                        "{algorithm} does not search to a depth: compare minimax, the alphabeta variants, mcts and external programs"
                    ),
                ));
            }
            Err(_) => {
                let spec = program(registry, name, "agents/").map_err(|e| fail("algorithms", e))?;
                programs.push(spec);
            }
        }
    }
    let mcts = match (&file.iterations, with_mcts) {
        (Some(_), false) => {
            return Err(fail(
                "iterations",
                "iterations are MCTS's budgets: add \"mcts\" to algorithms".to_string(),
            ));
        }
        (_, false) => Vec::new(),
        (None, true) => {
            mcts_agents(&DEFAULT_ITERATIONS).map_err(|e| fail("algorithms", e.message))?
        }
        (Some(list), true) => {
            let budgets: Vec<u64> = list
                .iter()
                .map(|&n| u64::try_from(n).unwrap_or(0))
                .collect();
            if budgets.is_empty() {
                return Err(fail("iterations", "give at least one budget".to_string()));
            }
            mcts_agents(&budgets).map_err(|e| fail("iterations", e.message))?
        }
    };
    Ok(Searches {
        algorithms,
        programs,
        mcts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<SearchExperiment, String> {
        SearchExperiment::parse(Path::new("s.toml"), text.to_string(), &registry())
            .map_err(|e| e.to_string())
    }

    /// A built-in agent `ab` and an external program `bot`.
    fn registry() -> AgentRegistry {
        let bot = AgentSpec::external(
            Some("bot".to_string()),
            crate::external::ExternalSpec::new(vec!["python3".into(), "bot.py".into()], ".".into()),
        );
        AgentRegistry::recorded(
            &[
                ("ab".into(), "alphabeta(heuristic=offense,depth=2)".into()),
                ("bot".into(), bot.canonical()),
            ],
            Path::new("meta.json"),
        )
        .expect("valid")
    }

    #[test]
    fn registered_programs_are_compared_at_each_depth() {
        let e = parse("kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offense\"\nalgorithms = [\"alphabeta\", \"bot\"]\ndepths = [1, 2, 3]\nmax_depth = { bot = 2 }\n")
            .expect("valid");
        assert_eq!(e.runs.len(), 3);
        assert_eq!(e.programs.len(), 1);
        let (spec, depths) = &e.programs[0];
        assert_eq!(
            (spec.name.as_str(), depths.as_slice()),
            ("bot", &[1, 2][..])
        );
        let external = at_depth(spec, 2).external.expect("a program");
        assert_eq!(external.options["depth"], 2);
        let err = |names: &str| {
            parse(&format!("kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offense\"\nalgorithms = [{names}]\ndepths = [1]\n")).expect_err(names)
        };
        assert!(
            err("\"ab\"").contains("line 4: 'ab' is a built-in agent"),
            "{}",
            err("\"ab\"")
        );
        let unknown = err("\"nobody\"");
        assert!(
            unknown.contains("line 4: unknown algorithm 'nobody'")
                && unknown.contains("nor an external program registered in agents/"),
            "{unknown}"
        );
    }

    #[test]
    fn parses_runs_with_depth_caps() {
        let e = parse("kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offensive2(almost_win=5)\"\npositions = 20\nalgorithms = [\"minimax\", \"alphabeta\"]\ndepths = [1, 2, 3]\nmax_depth = { minimax = 2 }\n")
            .expect("valid");
        assert_eq!(e.positions, 20);
        assert_eq!(e.heuristic.name, "offensive2");
        assert_eq!(
            e.runs,
            vec![
                (Algorithm::Minimax, 1),
                (Algorithm::Minimax, 2),
                (Algorithm::AlphaBeta, 1),
                (Algorithm::AlphaBeta, 2),
                (Algorithm::AlphaBeta, 3)
            ]
        );
        assert_eq!(
            e.source_of_positions,
            PositionSource::Random {
                min_plies: 10,
                max_plies: 40
            }
        );
        assert!(
            e.heuristic_for(&crate::games::breakthrough::Breakthrough::new(
                crate::games::breakthrough::Rules::Standard
            ))
            .is_ok()
        );
    }

    #[test]
    fn rejects_bad_values_with_lines() {
        let base = "kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offense\"\n";
        let err = |extra: &str| parse(&format!("{base}{extra}")).expect_err(extra);
        assert!(
            err("algorithms = [\"greedy\"]\ndepths = [1]\n")
                .contains("line 4: greedy does not search")
        );
        assert!(err("algorithms = [\"minimax\"]\ndepths = [0]\n").contains("line 5: depth 0"));
        assert!(err("algorithms = [\"uct\"]\ndepths = [1]\n").contains("unknown algorithm 'uct'"));
        assert!(
            err("positions = 0\nalgorithms = [\"minimax\"]\ndepths = [1]\n")
                .contains("line 4: positions = 0")
        );
        let bad = parse("kind = \"search\"\ngame = \"wights\"\nheuristic = \"offense\"\nalgorithms = [\"minimax\"]\ndepths = [1]\n").expect("syntax ok");
        let message = bad
            .heuristic_for(&crate::games::wights::Wights::new())
            .expect_err("unknown")
            .to_string();
        assert!(
            message.contains("s.toml: line 3: unknown heuristic 'offense' for wights"),
            "{message}"
        );
    }

    #[test]
    fn depth_lists() {
        assert_eq!(parse_depths("1..4"), Ok(vec![1, 2, 3, 4]));
        assert_eq!(parse_depths("1..=2"), Ok(vec![1, 2]));
        assert_eq!(parse_depths("3"), Ok(vec![3]));
        assert_eq!(parse_depths("2,5"), Ok(vec![2, 5]));
        assert!(parse_depths("0..3").is_err());
        assert!(parse_depths("4..2").is_err());
        assert!(parse_depths("x").is_err());
    }
}
