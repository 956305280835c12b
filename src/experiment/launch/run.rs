//! `run`: an experiment file (or its text), resumed, or one shard of it.

use super::{Error, Finished, Options, check_games, resolve_threads, set_sandbox, time_limit};
use crate::experiment::shard::parse_shard;
use crate::experiment::{self, Overrides};
use std::path::{Path, PathBuf};

/// The experiment run when none is named: report 000's part 2.1 tables.
pub const DEFAULT_EXPERIMENT: &str = "matchups/report000-part2.1.toml";

/// What to run: an experiment, or an earlier run to resume, and how.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RunRequest {
    /// The experiment file [default: [`DEFAULT_EXPERIMENT`]]; with `source`, only its
    /// name and the anchor of its relative paths.
    pub experiment: Option<PathBuf>,
    /// The experiment's text in place of the file's.
    pub source: Option<String>,
    /// Games per matchup, instead of the file's `games`.
    pub games: Option<u64>,
    /// The experiment seed, instead of the file's.
    pub seed: Option<u64>,
    /// Worker threads [default: all cores, or a scheduler's share for a shard].
    pub threads: Option<usize>,
    /// The run folder to write (new or empty).
    pub out: Option<PathBuf>,
    /// The folder of agent files.
    pub agents: Option<PathBuf>,
    /// No progress and no summary on the terminal.
    pub quiet: bool,
    /// An interrupted run to continue in its folder.
    pub resume: Option<PathBuf>,
    /// Start at most this many new games.
    pub max_games: Option<u64>,
    /// Write no moves.csv.
    pub no_moves: bool,
    /// `on` (every external agent sandboxed), `off` (none), or as each agent file says.
    pub sandbox: Option<String>,
    /// Start no new game after this many seconds.
    pub time_limit: Option<f64>,
    /// `I/N` or `auto`: run only that slice of the experiment.
    pub shard: Option<String>,
    /// Show the standings every this many finished games (0: never).
    pub standings: usize,
}

/// Runs (or resumes) an experiment: the run's end, or `None` when there was nothing to
/// do (a complete run or shard).
///
/// # Errors
/// A bad option, experiment or agent file, or a run that cannot be written.
pub fn run(request: RunRequest) -> Result<Option<Finished>, Error> {
    let experiment_file = match (&request.resume, &request.experiment) {
        (Some(_), _) => None,
        (None, Some(path)) => Some(path.clone()),
        (None, None) => Some(PathBuf::from(DEFAULT_EXPERIMENT)),
    };
    let (registry, _) =
        crate::registry::load_agents(request.agents.as_deref(), experiment_file.as_deref())?;
    // The sandbox choice: a resume keeps the one its run started with unless given.
    let recorded_sandbox = request.resume.as_deref().and_then(super::recorded_sandbox);
    set_sandbox(request.sandbox.as_deref().or(recorded_sandbox))?;
    let options = options(&request)?;
    // A shard task run again (a requeued Slurm task) continues its own folder.
    if let Some((folder, shard)) = super::earlier_shard(request.out.as_deref(), options.shard) {
        return super::continue_shard(
            folder,
            shard,
            request.experiment.as_deref(),
            &registry,
            &options,
        );
    }
    if let Some(folder) = &request.resume {
        check_resume(&request, folder)?;
        // A complete run has nothing left to do: say so and succeed, as a complete shard
        // run again does.
        return super::resume_unfinished(folder, &registry, &options);
    }
    let path = match &request.experiment {
        Some(path) => path.clone(),
        None => {
            let default = PathBuf::from(DEFAULT_EXPERIMENT);
            if !default.is_file() {
                return Err(Error::Message(format!(
                    "no experiment file given and {DEFAULT_EXPERIMENT} not found: run from the repository root or name a file"
                )));
            }
            default
        }
    };
    let overrides = Overrides {
        games: request.games.map(check_games).transpose()?,
        seed: request.seed,
        no_moves: request.no_moves,
    };
    match request.source {
        Some(text) => experiment::run_source(&path, text, &registry, overrides, &options),
        None => experiment::run_file(&path, &registry, overrides, &options),
    }
    .map(Some)
}

/// How the run goes: threads, limits, shard.
fn options(request: &RunRequest) -> Result<Options, Error> {
    let shard = request
        .shard
        .as_deref()
        .map(|text| parse_shard(text, |name| std::env::var(name).ok()).map_err(Error::Message))
        .transpose()?;
    let mut threads = resolve_threads(request.threads)?;
    if shard.is_some() && request.threads.is_none() {
        threads = scheduler_threads(threads);
    }
    Ok(Options {
        threads,
        quiet: request.quiet,
        out: request.out.clone(),
        max_jobs: match request.max_games {
            Some(0) => {
                return Err(Error::Message(
                    "--max-games 0: allow at least one game".to_string(),
                ));
            }
            other => other,
        },
        time_limit: time_limit(request.time_limit)?,
        shard,
        standings: request.standings,
    })
}

/// A resume takes its experiment, games, seed, shard and files from its meta.json.
fn check_resume(request: &RunRequest, folder: &Path) -> Result<(), Error> {
    if request.experiment.is_some()
        || request.source.is_some()
        || request.games.is_some()
        || request.seed.is_some()
        || request.out.is_some()
        || request.no_moves
        || request.shard.is_some()
    {
        return Err(Error::Message(format!(
            "--resume {}: the run's experiment, games, seed, shard and files come from its meta.json; give no experiment file, --games, --seed, --out, --shard or --no-moves",
            folder.display()
        )));
    }
    Ok(())
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
