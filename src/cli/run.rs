//! `arbiter run`.

use super::print_finished;
use crate::experiment::launch::{self, RunRequest};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `arbiter run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The experiment file [default: matchups/report000-part2.1.toml, report 000's
    /// part 2.1 tables].
    experiment: Option<PathBuf>,
    /// Games per matchup, instead of the file's `games` (1 to 10,000,000).
    #[arg(long, allow_hyphen_values = true, value_parser = launch::games_per_matchup)]
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
/// A bad argument, experiment or agent file, or a run that cannot be written.
pub fn run(args: RunArgs) -> Result<i32> {
    let quiet = args.quiet;
    let request = RunRequest {
        experiment: args.experiment,
        source: None,
        games: args.games,
        seed: args.seed,
        threads: args.threads,
        out: args.out,
        agents: args.agents,
        quiet: args.quiet,
        resume: args.resume,
        max_games: args.max_games,
        no_moves: args.no_moves,
        sandbox: args.sandbox,
        time_limit: args.time_limit,
        shard: args.shard,
        standings: args.standings,
    };
    Ok(launch::run(request)?.map_or(0, |finished| print_finished(&finished, quiet)))
}
