//! `arbiter compare`: a search comparison (every algorithm and depth on the same positions)
//! described by flags instead of a file.

use super::parse_game;
use super::print_finished;
use crate::experiment::{self, Options};
use crate::registry::SearchExperiment;
use crate::registry::search_experiment::{PositionSource, mcts_agents, parse_depths, program};
use crate::registry::spec::Spec;
use crate::search::Algorithm;
use anyhow::{Result, anyhow, bail};
use std::path::PathBuf;

/// Arguments of `arbiter compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game, e.g. `breakthrough` or `wights`.
    game: String,
    /// Algorithms, comma-separated (minimax, alphabeta, alphabeta-ordered, alphabeta-killer,
    /// alphabeta-tt, ...), `mcts` (no depth: run once per position at each --iterations
    /// budget), and external programs registered in agents/ (asked each depth as their
    /// `depth` option; their nodes are what they report).
    #[arg(long, default_value = "minimax,alphabeta")]
    algorithms: String,
    /// The heuristic, with parameters if any, e.g. `offensive2(almost_win=5000)`.
    #[arg(long)]
    heuristic: String,
    /// Depths: `3`, `1..5` or `1,3,5`.
    #[arg(long, default_value = "1..4")]
    depths: String,
    /// MCTS's iteration budgets, when `mcts` is among the algorithms: `1000` or
    /// `1000,10000`.
    #[arg(long, default_value = "1000")]
    iterations: String,
    /// Number of positions (random playouts of 10-40 plies, seeded).
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Seed of the positions and the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The run folder (new or empty) [default: results/compare-<game>/<UTC date-time>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print no progress and no table.
    #[arg(long)]
    quiet: bool,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter compare`; returns the exit code.
///
/// # Errors
/// As [`execute`].
pub fn compare(args: CompareArgs) -> Result<i32> {
    let quiet = args.quiet;
    Ok(print_finished(&execute(args)?, quiet))
}

/// Runs the comparison: the run's end.
///
/// # Errors
/// A bad argument, or a run that cannot be written.
pub fn execute(args: CompareArgs) -> Result<experiment::Finished> {
    let mut registry = None;
    let game = {
        let loaded = registry.insert(super::load_agents(args.agents.as_deref(), None)?);
        parse_game(&args.game, &loaded.0)?
    };
    let heuristic: Spec = args
        .heuristic
        .parse()
        .map_err(|e: String| anyhow!("--heuristic: {e}"))?;
    // A named heuristic of the agent files stands for its base and parameters.
    let heuristic = registry
        .as_ref()
        .expect("loaded above")
        .0
        .expand_heuristic(&heuristic);
    let depths = parse_depths(&args.depths).map_err(|e| anyhow!("--depths: {e}"))?;
    let mut algorithms = Vec::new();
    let mut programs = Vec::new();
    let mut names = Vec::new();
    let iterations: Vec<u64> = args
        .iterations
        .split(',')
        .map(|n| {
            n.trim().parse::<u64>().map_err(|_| {
                anyhow!(
                    "--iterations: '{}' is not a whole number of iterations",
                    n.trim()
                )
            })
        })
        .collect::<Result<_>>()?;
    let mut mcts = Vec::new();
    for name in args.algorithms.split(',').map(str::trim) {
        names.push(name.to_string());
        match name.parse::<Algorithm>() {
            Ok(algorithm) if algorithm.searches() => algorithms.push(algorithm),
            Ok(Algorithm::Mcts) => {
                mcts = mcts_agents(&iterations).map_err(|e| anyhow!("--iterations: {e}"))?;
            }
            Ok(algorithm) => bail!(
                "--algorithms: {algorithm} does not search to a depth (compare minimax, the alphabeta variants, mcts and external programs)"
            ),
            Err(_) => {
                // Not an algorithm: a registered external program, if agents/ has it.
                if registry.is_none() {
                    registry = Some(super::load_agents(args.agents.as_deref(), None)?);
                }
                let (registry, folder) = registry.as_ref().expect("loaded");
                let folder = folder
                    .as_ref()
                    .map_or("agents/".to_string(), |f| f.display().to_string());
                let spec =
                    program(registry, name, &folder).map_err(|e| anyhow!("--algorithms: {e}"))?;
                programs.push((spec, depths.clone()));
            }
        }
    }
    if args.positions == 0 {
        bail!("--positions 0: search at least one position");
    }
    let mut experiment = SearchExperiment {
        name: format!("compare-{}", args.game.split('(').next().unwrap_or("game")),
        description: String::new(),
        path: PathBuf::from("<command line>"),
        source: String::new(),
        game,
        heuristic,
        positions: args.positions,
        source_of_positions: PositionSource::Random {
            min_plies: 10,
            max_plies: 40,
        },
        seed: args.seed,
        runs: algorithms
            .iter()
            .flat_map(|&a| depths.iter().map(move |&d| (a, d)))
            .collect(),
        programs,
        mcts,
    };
    // The heuristic checked against the game before anything runs, the message naming the
    // option (the experiment text below is made from the command line, not written).
    crate::registry::dispatch(experiment.game.clone(), CheckHeuristic(&experiment))
        .map_err(|e| anyhow!("--heuristic: {}", e.message))?;
    // The same comparison as an experiment file: kept in meta.json, it lets --resume
    // finish an interrupted comparison like any run.
    experiment.source = experiment.to_toml(&names, &depths, &iterations);
    let options = Options {
        threads: super::resolve_threads(args.threads)?,
        quiet: args.quiet,
        out: args.out,
        ..Options::default()
    };
    Ok(experiment::run_search(experiment, &options)?)
}

/// Checks the comparison's heuristic against its game.
struct CheckHeuristic<'a>(&'a SearchExperiment);

impl crate::registry::GameTask for CheckHeuristic<'_> {
    type Output = Result<(), crate::registry::InputError>;

    fn run<G: crate::registry::GameEntry>(self, start: G) -> Self::Output {
        self.0.heuristic_for(&start).map(|_| ())
    }
}
