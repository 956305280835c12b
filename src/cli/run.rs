//! `arbiter run`.

use super::DEFAULT_EXPERIMENT;
use super::print_finished;
use super::resolve_threads;
use crate::core::time_limit;
use crate::experiment::shard::parse_shard;
use crate::experiment::{self, Options, Overrides, launch};
use anyhow::{Result, bail};
use std::path::PathBuf;

/// Arguments of `arbiter run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The experiment file [default: matchups/report000-part2.1.toml, report 000's
    /// part 2.1 tables].
    experiment: Option<PathBuf>,
    /// Games per matchup, instead of the file's `games` (1 to 10,000,000).
    #[arg(long, allow_hyphen_values = true, value_parser = games_per_matchup)]
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
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
    /// Print no progress and no summary.
    #[arg(long)]
    quiet: bool,
    /// Continue an interrupted run in its folder: finished games are kept, the others
    /// played; the files end as an uninterrupted run's would.
    #[arg(long, value_name = "RESULTS_DIR")]
    resume: Option<PathBuf>,
    /// Start at most this many new games in this invocation (exit code 4 if work is left;
    /// resume later).
    #[arg(long)]
    max_games: Option<u64>,
    /// Write no moves.csv (a row per move, most of a big run's bytes): games.csv,
    /// summary.csv and the charts that need no per-move data only.
    #[arg(long)]
    no_moves: bool,
    /// Run every external agent in a sandbox (`--sandbox`, or `--sandbox=on`), or none,
    /// even those whose agent file asks for one (`--sandbox=off`) [default: as each agent
    /// file says]. Needs bubblewrap; see docs/sandbox.md.
    #[arg(long, value_name = "on|off", num_args = 0..=1, default_missing_value = "on")]
    sandbox: Option<String>,
    /// Start no new game after this many seconds (exit code 4 if work is left; resume
    /// later).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Run only slice I of N of the experiment (I from 0), for `arbiter merge` to join:
    /// `I/N`, or `auto` to read them from a Slurm job array (SLURM_ARRAY_TASK_ID), a
    /// Kubernetes indexed job (JOB_COMPLETION_INDEX with ARBITER_SHARDS) or ARBITER_SHARD.
    /// With --out naming this shard's earlier folder, it resumes there.
    #[arg(long, value_name = "I/N|auto")]
    shard: Option<String>,
    /// Print the standings (score, Elo and, with an SPRT, the LLR of each matchup) every
    /// N finished games; 0 never.
    #[arg(long, value_name = "N", default_value_t = 0)]
    standings: usize,
}

/// Runs (or resumes) an experiment given on the command line; returns the exit code.
///
/// # Errors
/// As [`execute`].
pub fn run(args: RunArgs) -> Result<i32> {
    let quiet = args.quiet;
    Ok(execute(args, None)?.map_or(0, |finished| print_finished(&finished, quiet)))
}

/// Runs (or resumes) an experiment: the run's end, or `None` when there was nothing to
/// do (a complete run or shard). `source`, when given, is the experiment's text in place
/// of the file's (the file's path then only names it and anchors its relative paths).
///
/// # Errors
/// A bad argument, experiment or agent file, or a run that cannot be written.
pub fn execute(
    args: RunArgs,
    source: Option<String>,
) -> Result<Option<crate::experiment::Finished>> {
    let experiment_file = match (&args.resume, &args.experiment) {
        (Some(_), _) => None,
        (None, Some(path)) => Some(path.clone()),
        (None, None) => Some(PathBuf::from(DEFAULT_EXPERIMENT)),
    };
    let (registry, _) = super::load_agents(args.agents.as_deref(), experiment_file.as_deref())?;
    // The experiment's text, for the agents it names (a resume's is in its meta.json),
    // and the sandbox choice: a resume keeps the one its run started with unless given.
    let (text, recorded_sandbox) = match (&args.resume, &experiment_file) {
        (Some(folder), _) => launch::recorded_choices(folder),
        (None, Some(path)) => (
            source
                .clone()
                .unwrap_or_else(|| crate::registry::read_input(path).unwrap_or_default()),
            None,
        ),
        (None, None) => (String::new(), None),
    };
    let sandbox = args.sandbox.as_deref().or(recorded_sandbox);
    super::set_sandbox(sandbox, &registry, &text)?;
    let shard = match &args.shard {
        Some(text) => {
            Some(parse_shard(text, |name| std::env::var(name).ok()).map_err(anyhow::Error::msg)?)
        }
        None => None,
    };
    let mut options = Options {
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
        shard,
        standings: args.standings,
    };
    if shard.is_some() && args.threads.is_none() {
        options.threads = scheduler_threads(options.threads);
    }
    // A shard task run again (a requeued Slurm task) continues its own folder.
    let finished = if let Some((folder, shard)) = launch::earlier_shard(args.out.as_deref(), shard)
    {
        match launch::continue_shard(
            folder,
            shard,
            args.experiment.as_deref(),
            &registry,
            &options,
        )? {
            Some(finished) => finished,
            None => return Ok(None),
        }
    } else if let Some(folder) = &args.resume {
        if args.experiment.is_some()
            || args.games.is_some()
            || args.seed.is_some()
            || args.out.is_some()
            || args.no_moves
            || args.shard.is_some()
        {
            bail!(
                "--resume {}: the run's experiment, games, seed, shard and files come from its meta.json; give no experiment file, --games, --seed, --out, --shard or --no-moves",
                folder.display()
            );
        }
        // A complete run has nothing left to do: say so and succeed, as a complete shard
        // run again does.
        match launch::resume_unfinished(folder, &registry, &options)? {
            Some(finished) => finished,
            None => return Ok(None),
        }
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
        match source {
            Some(text) => experiment::run_source(&path, text, &registry, overrides, &options)?,
            None => experiment::run_file(&path, &registry, overrides, &options)?,
        }
    };
    Ok(Some(finished))
}

/// The threads a scheduler gave this task: the CPUs it may run on (affinity and cgroup
/// quota, which `available` already reflects), and no more than Slurm's
/// SLURM_CPUS_PER_TASK when set.
fn scheduler_threads(available: usize) -> usize {
    std::env::var("SLURM_CPUS_PER_TASK")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .map_or(available, |n| n.min(available))
}

/// A number of games per matchup given on the command line: 1 to the most an experiment
/// file allows.
pub fn games_per_matchup(text: &str) -> Result<u64, String> {
    let most = crate::registry::experiment::MAX_GAMES;
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| format!("'{text}' is not a number of games from 1 to {most}"))
}
