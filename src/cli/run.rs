//! `arbiter run`.

use super::DEFAULT_EXPERIMENT;
use super::print_finished;
use super::resolve_threads;
use crate::core::time_limit;
use crate::experiment::{self, Options, Overrides};
use crate::registry::AgentRegistry;
use anyhow::{Result, bail};
use std::path::PathBuf;

/// Arguments of `arbiter run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The experiment file [default: matchups/report000-part2.1.toml, report 000's
    /// part 2.1 tables].
    experiment: Option<PathBuf>,
    /// Games per matchup, instead of the file's `games`.
    #[arg(long)]
    games: Option<u64>,
    /// Experiment seed, instead of the file's `seed`.
    #[arg(long)]
    seed: Option<u64>,
    /// Worker threads [default: all cores]. Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// The run folder to write (must be new or empty) [default:
    /// results/<experiment>/<UTC date-time>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folder of agent files.
    #[arg(long, default_value = "agents")]
    agents: PathBuf,
    /// Print no progress and no summary.
    #[arg(long)]
    quiet: bool,
    /// Continue an interrupted run in its folder: finished games are kept, the others
    /// played; the files end as an uninterrupted run's would.
    #[arg(long, value_name = "RESULTS_DIR")]
    resume: Option<PathBuf>,
    /// Start at most this many new games in this invocation (resume later).
    #[arg(long)]
    max_games: Option<u64>,
    /// Write no moves.csv (a row per move, most of a big run's bytes): games.csv,
    /// summary.csv and the charts that need no per-move data only.
    #[arg(long)]
    no_moves: bool,
    /// Start no new game after this many seconds (resume later).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// Runs (or resumes) an experiment given on the command line; returns the exit code.
pub fn run(args: RunArgs) -> Result<i32> {
    let registry = AgentRegistry::load(&args.agents)?;
    let options = Options {
        threads: resolve_threads(args.threads)?,
        quiet: args.quiet,
        out: args.out.clone(),
        max_jobs: match args.max_games {
            Some(0) => bail!("--max-games 0: allow at least one game"),
            other => other,
        },
        time_limit: match args.time_limit {
            Some(seconds) => {
                Some(time_limit(seconds).map_err(|e| anyhow::anyhow!("--time-limit {e}"))?)
            }
            None => None,
        },
    };
    let finished = if let Some(folder) = &args.resume {
        if args.experiment.is_some()
            || args.games.is_some()
            || args.seed.is_some()
            || args.out.is_some()
            || args.no_moves
        {
            bail!(
                "--resume {}: the run's experiment, games, seed and files come from its meta.json; give no experiment file, --games, --seed, --out or --no-moves",
                folder.display()
            );
        }
        experiment::resume(folder, &registry, &options)?
    } else {
        let path = match &args.experiment {
            Some(path) => path.clone(),
            None => {
                let default = PathBuf::from(DEFAULT_EXPERIMENT);
                if !default.is_file() {
                    bail!(
                        "no experiment file given and {DEFAULT_EXPERIMENT} not found: run from the repository root or name a file"
                    );
                }
                default
            }
        };
        let overrides = Overrides {
            games: args.games,
            seed: args.seed,
            no_moves: args.no_moves,
        };
        experiment::run_file(&path, &registry, overrides, &options)?
    };
    Ok(print_finished(&finished, args.quiet))
}
