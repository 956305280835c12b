//! `compare`: a search comparison (every algorithm and depth on the same positions)
//! described by options instead of a file.

use super::{Error, Finished, Options, parse_game, resolve_threads};
use crate::registry::search_experiment::{PositionSource, mcts_agents, parse_depths, program};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{AgentRegistry, SearchExperiment};
use crate::search::Algorithm;
use std::path::PathBuf;

/// The algorithms compared when not told.
pub const DEFAULT_ALGORITHMS: &str = "minimax,alphabeta";
/// The depths searched when not told.
pub const DEFAULT_DEPTHS: &str = "1..4";
/// MCTS's iteration budgets when not told.
pub const DEFAULT_ITERATIONS: &str = "1000";
/// The positions searched when not told.
pub const DEFAULT_POSITIONS: usize = 100;
/// The seed of the positions and searches when not told.
pub const DEFAULT_SEED: u64 = 1;

/// A comparison to run.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompareRequest {
    /// The game, e.g. `breakthrough`.
    pub game: String,
    /// Algorithms, comma-separated; `mcts`; external programs of the agent files.
    pub algorithms: String,
    /// The heuristic, with parameters if any (required).
    pub heuristic: Option<String>,
    /// Depths: `3`, `1..5` or `1,3,5`.
    pub depths: String,
    /// MCTS's iteration budgets: `1000` or `1000,10000`.
    pub iterations: String,
    /// Number of positions (random playouts of 10-40 plies, seeded).
    pub positions: usize,
    /// Seed of the positions and the searches.
    pub seed: u64,
    /// Worker threads [default: all cores].
    pub threads: Option<usize>,
    /// The run folder (new or empty).
    pub out: Option<PathBuf>,
    /// No progress and no table on the terminal.
    pub quiet: bool,
    /// The folder of agent files.
    pub agents: Option<PathBuf>,
}

impl Default for CompareRequest {
    fn default() -> CompareRequest {
        CompareRequest {
            game: String::new(),
            algorithms: DEFAULT_ALGORITHMS.to_string(),
            heuristic: None,
            depths: DEFAULT_DEPTHS.to_string(),
            iterations: DEFAULT_ITERATIONS.to_string(),
            positions: DEFAULT_POSITIONS,
            seed: DEFAULT_SEED,
            threads: None,
            out: None,
            quiet: false,
            agents: None,
        }
    }
}

/// The algorithms a comparison searches with, from `--algorithms` (and `--iterations`
/// for mcts), with the names as given.
struct Searchers {
    algorithms: Vec<Algorithm>,
    programs: Vec<(crate::registry::AgentSpec, Vec<u32>)>,
    mcts: Vec<crate::registry::AgentSpec>,
    names: Vec<String>,
}

/// What is wrong with option `option`, named as the command line names it.
fn option_error(option: &str, e: String) -> Error {
    Error::Message(format!("--{option}: {e}"))
}

/// Runs the comparison: the run's end.
///
/// # Errors
/// A bad option, or a run that cannot be written.
pub fn compare(request: CompareRequest) -> Result<Finished, Error> {
    let fail = option_error;
    if request.game.is_empty() {
        return Err(Error::Message("compare: name the game".to_string()));
    }
    let (registry, folder) = crate::registry::load_agents(request.agents.as_deref(), None)?;
    let game = parse_game(&request.game, &registry)?;
    let heuristic: Spec = request
        .heuristic
        .as_deref()
        .ok_or_else(|| {
            Error::Message("compare: name the heuristic (--heuristic, e.g. offensive2)".to_string())
        })?
        .parse()
        .map_err(|e: SpecError| fail("heuristic", e.message))?;
    // A named heuristic of the agent files stands for its base and parameters.
    let heuristic = registry.expand_heuristic(&heuristic);
    let depths = parse_depths(&request.depths).map_err(|e| fail("depths", e.message))?;
    let iterations: Vec<u64> = request
        .iterations
        .split(',')
        .map(|n| {
            n.trim().parse::<u64>().map_err(|_| {
                fail(
                    "iterations",
                    format!("'{}' is not a whole number of iterations", n.trim()),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let folder = folder.map_or("agents/".to_string(), |f| f.display().to_string());
    let searchers = searchers(
        &request.algorithms,
        &registry,
        &folder,
        &depths,
        &iterations,
    )?;
    if request.positions == 0 {
        return Err(Error::Message(
            "--positions 0: search at least one position".to_string(),
        ));
    }
    let mut experiment = SearchExperiment {
        name: format!(
            "compare-{}",
            request.game.split('(').next().unwrap_or("game")
        ),
        description: String::new(),
        path: PathBuf::from("<command line>"),
        source: String::new(),
        game,
        heuristic,
        positions: request.positions,
        source_of_positions: PositionSource::Random {
            min_plies: 10,
            max_plies: 40,
        },
        seed: request.seed,
        runs: searchers
            .algorithms
            .iter()
            .flat_map(|&a| depths.iter().map(move |&d| (a, d)))
            .collect(),
        programs: searchers.programs,
        mcts: searchers.mcts,
    };
    // The heuristic checked against the game before anything runs, the message naming the
    // option (the experiment text below is made from the options, not written).
    experiment
        .check_heuristic()
        .map_err(|e| fail("heuristic", e.message))?;
    // The same comparison as an experiment file: kept in meta.json, it lets a resume
    // finish an interrupted comparison like any run.
    experiment.source = experiment.to_toml(&searchers.names, &depths, &iterations);
    let options = Options {
        threads: resolve_threads(request.threads)?,
        quiet: request.quiet,
        out: request.out,
        ..Options::default()
    };
    crate::experiment::run_search(experiment, &options)
}

/// The searchers `algorithms` (comma-separated) names: algorithms that search to a depth,
/// mcts at each of `iterations`, and external programs `registry` has.
fn searchers(
    algorithms: &str,
    registry: &AgentRegistry,
    folder: &str,
    depths: &[u32],
    iterations: &[u64],
) -> Result<Searchers, Error> {
    let fail = option_error;
    let mut searchers = Searchers {
        algorithms: Vec::new(),
        programs: Vec::new(),
        mcts: Vec::new(),
        names: Vec::new(),
    };
    for name in algorithms.split(',').map(str::trim) {
        searchers.names.push(name.to_string());
        match name.parse::<Algorithm>() {
            Ok(algorithm) if algorithm.searches() => searchers.algorithms.push(algorithm),
            Ok(Algorithm::Mcts) => {
                searchers.mcts =
                    mcts_agents(iterations).map_err(|e| fail("iterations", e.message))?;
            }
            Ok(algorithm) => {
                return Err(fail(
                    "algorithms",
                    format!(
                        "{algorithm} does not search to a depth (compare minimax, the alphabeta variants, mcts and external programs)"
                    ),
                ));
            }
            Err(_) => {
                // Not an algorithm: a registered external program, if agents/ has it.
                let spec = program(registry, name, folder).map_err(|e| fail("algorithms", e))?;
                searchers.programs.push((spec, depths.to_vec()));
            }
        }
    }
    Ok(searchers)
}
