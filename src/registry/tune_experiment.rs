//! Tuning experiments (`kind = "tune"`): an agent whose parameters SPSA moves, the games
//! each iteration plays, checkpoints of the tuned values against the start, and the
//! verification match with its SPRT.

use super::experiment::{OpeningsTable, SprtTable, openings_spec, sprt_spec};
use super::spec::Spec;
use super::spec::SpecError;
use super::{AgentFactory, AgentRegistry, AgentSpec, GameEntry, GameSpec, InputError, OpeningSpec};
use super::{line_of_string, toml_error};
use crate::stats::elo::{EloModel, Sprt};
use crate::stats::spsa::{Parameter, Spsa};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Iterations when the file does not say.
pub const DEFAULT_ITERATIONS: u64 = 100;
/// Colour-swapped game pairs per iteration (per opponent) when the file does not say.
pub const DEFAULT_PAIRS: u64 = 2;
/// The learning rate at the last iteration when the file does not say: fishtest's 0.002
/// is made for hundreds of thousands of games; a course run plays a few thousand.
pub const DEFAULT_LEARNING_RATE: f64 = 0.02;

/// A validated tuning experiment.
#[derive(Clone, Debug)]
pub struct TuneExperiment {
    /// Name (results folder).
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file.
    pub path: PathBuf,
    /// The file's text.
    pub source: String,
    /// The game.
    pub game: GameSpec,
    /// The experiment seed.
    pub seed: u64,
    /// The tuned agent as written.
    pub agent_text: String,
    /// The tuned agent's spec, to which the parameters' values are added.
    template: Spec,
    /// Fixed opponents: each perturbed version plays them instead of the other version.
    pub opponents: Vec<AgentSpec>,
    /// The opponents as written.
    pub opponent_texts: Vec<String>,
    /// Whether the versions also play the current values (`"current"` among the
    /// opponents), after the fixed opponents.
    pub against_current: bool,
    /// The parameters and the schedule.
    pub spsa: Spsa,
    /// Colour-swapped pairs per iteration (per opponent).
    pub pairs: u64,
    /// Plies after which a game is a draw.
    pub max_plies: u32,
    /// Where games start.
    pub openings: OpeningSpec,
    /// Matches of the values so far against the start during the run (their Elo is drawn
    /// against the iteration).
    pub checkpoints: u64,
    /// Games of each checkpoint match.
    pub checkpoint_games: u64,
    /// The agent checkpoints play (then also at the start and the end), if not the
    /// starting values: a fixed yardstick keeps measuring once the start is beaten.
    pub yardstick: Option<(String, AgentSpec)>,
    /// The verification match of the tuned against the starting values: its test and
    /// most games.
    pub verify: (Sprt, u64),
}

/// The opponent name that stands for the tuned agent at the iteration's values.
pub const CURRENT: &str = "current";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamTable {
    name: String,
    start: f64,
    min: f64,
    max: f64,
    step: f64,
    #[serde(default)]
    integer: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TuneFile {
    #[allow(dead_code)]
    kind: String,
    name: Option<String>,
    description: Option<String>,
    game: String,
    seed: Option<u64>,
    agent: String,
    #[serde(default)]
    opponents: Vec<String>,
    iterations: Option<i64>,
    pairs: Option<i64>,
    learning_rate: Option<f64>,
    max_plies: Option<i64>,
    openings: Option<OpeningsTable>,
    checkpoints: Option<i64>,
    checkpoint_games: Option<i64>,
    yardstick: Option<String>,
    verify: Option<SprtTable>,
    #[serde(default, rename = "param")]
    params: Vec<ParamTable>,
}

impl TuneExperiment {
    /// Validates a tuning experiment read from `path`.
    ///
    /// # Errors
    /// A malformed file or a value that does not fit, naming the line.
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<TuneExperiment, InputError> {
        let file: TuneFile = toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let at = super::experiment::Located {
            path,
            source: &source,
        };
        let fail = |line: Option<usize>, message: String| at.fail(line, message);
        let at_key = |key: &str| at.key(key);
        let game = at.game(registry, &file.game)?;
        let count = |key: &str, value: Option<i64>, default: u64, max: u64| {
            at.count(key, value, default, max)
        };
        let iterations = count("iterations", file.iterations, DEFAULT_ITERATIONS, 1_000_000)?;
        let pairs = count("pairs", file.pairs, DEFAULT_PAIRS, 10_000)?;
        let max_plies = count(
            "max_plies",
            file.max_plies,
            u64::from(super::experiment::DEFAULT_MAX_PLIES),
            100_000,
        )? as u32;
        let checkpoints = match file.checkpoints {
            Some(0) => 0,
            other => count("checkpoints", other, 4, iterations.saturating_sub(1).max(1))?,
        };
        let checkpoint_games =
            2 * count("checkpoint_games", file.checkpoint_games, 100, 1_000_000)?.div_ceil(2);
        let learning_rate = file.learning_rate.unwrap_or(DEFAULT_LEARNING_RATE);
        if !(learning_rate > 0.0 && learning_rate.is_finite()) {
            return Err(fail(
                at_key("learning_rate"),
                format!("learning_rate = {learning_rate}: must be above 0"),
            ));
        }
        let openings = openings_spec(file.openings.as_ref(), path)
            .map_err(|e| fail(at_key("openings"), e.message))?;
        let verify = match &file.verify {
            Some(table) => sprt_spec(table, 1000).map_err(|e| fail(at_key("verify"), e.message))?,
            None => (
                Sprt {
                    elo0: 0.0,
                    elo1: 20.0,
                    alpha: 0.05,
                    beta: 0.05,
                    model: EloModel::Logistic,
                },
                1000,
            ),
        };
        let agent_line = line_of_string(&source, &file.agent);
        let agent = registry
            .resolve(&file.agent)
            .map_err(|e| fail(agent_line, format!("agent: {e}")))?;
        if agent.external.is_some() {
            return Err(fail(
                agent_line,
                format!(
                    "agent '{}' is another program: tuning moves the parameters of arbiter's own agents",
                    file.agent
                ),
            ));
        }
        let template: Spec = agent
            .canonical()
            .parse()
            .map_err(|e: SpecError| fail(agent_line, e.message))?;
        if file.params.is_empty() {
            return Err(fail(
                None,
                "no parameters to tune: add [[param]] tables (name, start, min, max, step)"
                    .to_string(),
            ));
        }
        let parameters = parameters(&file, &source, &fail)?;
        let mut opponents = Vec::new();
        let mut opponent_texts = Vec::new();
        let mut against_current = false;
        for text in &file.opponents {
            if text.trim() == CURRENT {
                if against_current {
                    return Err(fail(
                        line_of_string(&source, text),
                        format!("opponents: '{CURRENT}' is given twice"),
                    ));
                }
                against_current = true;
                continue;
            }
            opponent_texts.push(text.clone());
            opponents.push(
                registry
                    .resolve(text)
                    .map_err(|e| fail(line_of_string(&source, text), format!("opponents: {e}")))?,
            );
        }
        let yardstick = match &file.yardstick {
            None => None,
            Some(text) => Some((
                text.clone(),
                registry
                    .resolve(text)
                    .map_err(|e| fail(line_of_string(&source, text), format!("yardstick: {e}")))?,
            )),
        };
        let name = super::run_name(file.name.clone(), path, "tune experiment")
            .map_err(|e| fail(at_key("name"), e.message))?;
        Ok(TuneExperiment {
            name,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source: source.clone(),
            game,
            seed: file.seed.unwrap_or(1),
            agent_text: file.agent.clone(),
            template,
            opponents,
            opponent_texts,
            against_current,
            spsa: Spsa {
                parameters,
                iterations,
                learning_rate,
            },
            pairs,
            max_plies,
            openings,
            checkpoints,
            checkpoint_games,
            yardstick,
            verify,
        })
    }

    /// Checks the tuned agent against game `G` with every parameter at its start and at
    /// both ends of its range (the others at their start), and returns the opponents'
    /// factories (the yardstick's last).
    ///
    /// # Errors
    /// The first value or opponent the game's agents do not take, naming the line.
    pub fn factories<G: GameEntry>(&self, game: &G) -> Result<Vec<AgentFactory<G>>, InputError> {
        let start = self.spsa.start();
        let fail = |text: &str, message: String| {
            InputError::in_file(&self.path, line_of_string(&self.source, text), message)
        };
        for (i, param) in self.spsa.parameters.iter().enumerate() {
            for value in [param.start, param.min, param.max] {
                let mut values = start.clone();
                values[i] = value;
                self.agent_with(&values)
                    .and_then(|agent| {
                        if agent.deepens_unbounded() {
                            return Err(SpecError::at(
                                "depth",
                                format!(
                                    "depth {} deepens until something stops it: a tuned agent needs a depth from 1 to {}, or time_ms or nodes",
                                    agent.depth,
                                    crate::search::MAX_DEPTH
                                ),
                            ));
                        }
                        agent.factory(game).map(|_| ())
                    })
                    .map_err(|e| {
                        fail(
                            &param.name,
                            format!("param '{}' = {value}: {e}", param.name),
                        )
                    })?;
            }
        }
        self.opponent_texts
            .iter()
            .zip(&self.opponents)
            .chain(self.yardstick.iter().map(|(text, spec)| (text, spec)))
            .map(|(text, opponent)| {
                opponent
                    .factory(game)
                    .map_err(|e| fail(text, format!("opponent '{text}': {e}")))
            })
            .collect()
    }

    /// The tuned agent with the parameters at `values` (as the agent receives them).
    ///
    /// # Errors
    /// A value the agent does not take.
    pub fn agent_with(&self, values: &[f64]) -> Result<AgentSpec, SpecError> {
        let mut spec = self.template.clone();
        for (param, &value) in self.spsa.parameters.iter().zip(values) {
            let text = format_value(param.used(value));
            match spec.params.iter_mut().find(|(k, _)| *k == param.name) {
                Some(entry) => entry.1 = text,
                None => spec.params.push((param.name.clone(), text)),
            }
        }
        spec.to_string().parse()
    }

    /// The tuned agent as an inline spec (before the parameters are set).
    pub fn agent_canonical(&self) -> String {
        self.template.to_string()
    }

    /// The iterations whose values play a checkpoint match: evenly spread inside the run,
    /// and also the first and the last against a yardstick.
    pub fn checkpoint_iterations(&self) -> Vec<u64> {
        let n = self.spsa.iterations;
        let parts = self.checkpoints + 1;
        let mut at: Vec<u64> = (1..parts).map(|j| j * n / parts).collect();
        if self.yardstick.is_some() {
            at.insert(0, 0);
            at.push(n);
        }
        at.dedup();
        if self.yardstick.is_none() {
            // The start against itself says nothing; the end is the verification.
            at.retain(|&k| k > 0 && k < n);
        }
        at
    }

    /// Games of one iteration: colour-swapped pairs of the plus against the minus
    /// version, or for each opponent, pairs of each version against it.
    pub fn iteration_games(&self) -> u64 {
        2 * self.pairs * (self.iteration_opponents() as u64 * 2).max(1)
    }

    /// The opponents each version plays in an iteration: the fixed ones and the current
    /// values if asked (0: the two versions play each other).
    pub fn iteration_opponents(&self) -> usize {
        self.opponents.len() + usize::from(self.against_current)
    }

    /// The values as a person reads them: `name=value` joined by commas.
    pub fn describe_values(&self, values: &[f64]) -> String {
        self.spsa
            .parameters
            .iter()
            .zip(values)
            .map(|(p, &v)| format!("{}={}", p.name, format_value(p.used(v))))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The parameters to tune (`[[param]]`), each checked: a name given once, a start within
/// its bounds, a step above 0.
fn parameters(
    file: &TuneFile,
    source: &str,
    fail: &impl Fn(Option<usize>, String) -> InputError,
) -> Result<Vec<Parameter>, InputError> {
    let mut parameters = Vec::new();
    for param in &file.params {
        let line = line_of_string(source, &param.name);
        let what = format!("param '{}'", param.name);
        if parameters.iter().any(|p: &Parameter| p.name == param.name) {
            return Err(fail(line, format!("{what} is given twice")));
        }
        let finite = [param.start, param.min, param.max, param.step]
            .iter()
            .all(|v| v.is_finite());
        if !finite || param.min >= param.max {
            return Err(fail(
                line,
                format!(
                    "{what}: min ({}) must be below max ({})",
                    param.min, param.max
                ),
            ));
        }
        if !(param.min..=param.max).contains(&param.start) {
            return Err(fail(
                line,
                format!(
                    "{what}: start ({}) must be within min ({}) and max ({})",
                    param.start, param.min, param.max
                ),
            ));
        }
        if param.step <= 0.0 {
            return Err(fail(
                line,
                format!("{what}: step ({}) must be above 0", param.step),
            ));
        }
        parameters.push(Parameter {
            name: param.name.clone(),
            start: param.start,
            min: param.min,
            max: param.max,
            step: param.step,
            integer: param.integer,
        });
    }
    Ok(parameters)
}

/// A number as short as it reads: `3` rather than `3.0`, `-0.25`.
pub fn format_value(value: f64) -> String {
    if value == value.trunc() && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "kind = \"tune\"\ngame = \"breakthrough\"\nagent = \"alphabeta(heuristic=linear,depth=1)\"\niterations = 10\n\n[[param]]\nname = \"own_pieces\"\nstart = 1\nmin = -10\nmax = 10\nstep = 2\n";

    fn parse(text: &str) -> Result<TuneExperiment, String> {
        let experiment = TuneExperiment::parse(
            Path::new("t.toml"),
            text.to_string(),
            &AgentRegistry::default(),
        )
        .map_err(|e| e.to_string())?;
        experiment
            .factories(&crate::games::breakthrough::Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .map_err(|e| e.to_string())?;
        Ok(experiment)
    }

    #[test]
    fn a_tuning_file_gives_agents_with_the_values() {
        let e = parse(GOOD).expect("valid");
        assert_eq!(
            (
                e.spsa.iterations,
                e.pairs,
                e.checkpoints,
                e.checkpoint_games
            ),
            (10, 2, 4, 100)
        );
        assert_eq!(e.verify.1, 1000);
        let agent = e.agent_with(&[2.5]).expect("agent");
        assert_eq!(
            agent.params,
            vec![("own_pieces".to_string(), "2.5".to_string())]
        );
        assert_eq!(e.describe_values(&[-3.0]), "own_pieces=-3");
    }

    #[test]
    fn bad_tuning_files_name_the_line() {
        let err = |from: &str, to: &str| parse(&GOOD.replace(from, to)).expect_err(to);
        assert!(err("own_pieces", "own_piece").contains("t.toml: line 7: param 'own_piece' = 1"));
        assert!(
            err("min = -10", "min = 10")
                .contains("line 7: param 'own_pieces': min (10) must be below max (10)")
        );
        assert!(err("start = 1", "start = 11").contains("start (11) must be within"));
        assert!(err("step = 2", "step = 0").contains("step (0) must be above 0"));
        assert!(err("iterations = 10", "iterations = 0").contains("line 4: iterations = 0"));
        assert!(err("depth=1", "depth=x").contains("line 3: agent:"));
        assert!(
            err(
                "own_pieces\"\nstart = 1\nmin = -10",
                "depth\"\nstart = 1\nmin = 0"
            )
            .contains("param 'depth' = 0")
        );
        let no_params = GOOD.split("[[param]]").next().unwrap_or("").to_string();
        assert!(
            parse(&no_params)
                .expect_err("none")
                .contains("no parameters to tune")
        );
    }
}
