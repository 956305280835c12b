//! `arbiter merge` and `arbiter emit slurm`: runs spread over machines.

use super::print_finished;
use crate::experiment::launch::resolve_threads;
use crate::experiment::slurm::{SlurmJob, script};
use crate::experiment::{self, Options};
use crate::records::{unix_now, utc_stamp};
use crate::registry::AnyExperiment;
use anyhow::{Result, anyhow, bail};
use std::path::{Path, PathBuf};

/// Arguments of `arbiter merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged run's folder (new or empty).
    out: PathBuf,
    /// The shard folders (`run --shard I/N`), in any order.
    #[arg(required = true, num_args = 1..)]
    shards: Vec<PathBuf>,
    /// Merge even when shards are missing or incomplete: the result says PARTIAL
    /// everywhere, and names the missing games (`run --resume OUT` plays them here).
    #[arg(long)]
    partial: bool,
    /// Worker threads for rebuilding the files [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Print no progress and no summary.
    #[arg(long)]
    quiet: bool,
}

/// `arbiter merge`; returns the exit code.
pub fn merge(args: MergeArgs) -> Result<i32> {
    let options = Options {
        threads: resolve_threads(args.threads)?,
        quiet: args.quiet,
        ..Options::default()
    };
    let finished = experiment::merge::merge(&args.out, &args.shards, args.partial, &options)?;
    Ok(print_finished(&finished, args.quiet))
}

/// What `arbiter emit` writes.
#[derive(clap::Subcommand, Debug)]
pub enum Emit {
    /// A bash script that submits the experiment to Slurm as a job array of shards and a
    /// merge that runs once they all succeeded. Run it on the cluster's login node:
    /// `arbiter emit slurm EXP --shards 16 > job.sh && bash job.sh`.
    Slurm(SlurmArgs),
}

/// Arguments of `arbiter emit slurm`.
#[derive(clap::Args, Debug)]
pub struct SlurmArgs {
    /// The experiment file.
    experiment: PathBuf,
    /// Array tasks (shards).
    #[arg(long)]
    shards: u64,
    /// CPUs per task (each shard runs that many threads).
    #[arg(long, default_value_t = 1)]
    cpus: u32,
    /// Time limit per task, as sbatch takes it (e.g. `2:00:00`).
    #[arg(long)]
    time: Option<String>,
    /// Partition.
    #[arg(long)]
    partition: Option<String>,
    /// Another sbatch option for both jobs (repeatable), e.g. `--sbatch=--account=cs440`.
    #[arg(long = "sbatch", value_name = "OPTION", allow_hyphen_values = true)]
    sbatch: Vec<String>,
    /// Where the shards, logs and merged run go [default: results/<experiment>/<UTC
    /// date-time>-slurm].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter emit`.
pub fn emit(what: Emit) -> Result<()> {
    let Emit::Slurm(args) = what;
    if args.shards == 0 {
        bail!("--shards 0: split the experiment into at least one shard");
    }
    if args.cpus == 0 {
        bail!("--cpus 0: give each task at least one CPU");
    }
    // Checked here, before anything is submitted.
    let (registry, agents) = super::load_agents(args.agents.as_deref(), Some(&args.experiment))?;
    let name = match AnyExperiment::load(&args.experiment, &registry)? {
        AnyExperiment::Tournament(e) => e.name,
        AnyExperiment::Search(e) => e.name,
        AnyExperiment::Puzzles(e) => e.name,
        AnyExperiment::Tables(e) => e.name,
        AnyExperiment::Tune(_) => bail!(
            "{}: a tuning experiment runs on one machine (each iteration needs the one before): use arbiter run, which uses every core",
            args.experiment.display()
        ),
    };
    let absolute = |path: &Path| -> Result<PathBuf> {
        std::path::absolute(path).map_err(|e| anyhow!("{}: {e}", path.display()))
    };
    let experiment = absolute(&args.experiment)?;
    // Only a folder given on purpose: the jobs find the others as this command did (the
    // experiment's path is absolute, and they start in this folder).
    let agents = match args.agents.as_ref().and(agents.as_ref()) {
        Some(folder) => Some(absolute(folder)?),
        None => None,
    };
    let out = match &args.out {
        Some(out) => absolute(out)?,
        None => absolute(
            &Path::new("results")
                .join(&name)
                .join(format!("{}-slurm", utc_stamp(unix_now()))),
        )?,
    };
    let arbiter = std::env::current_exe().map_err(|e| anyhow!("arbiter's own path: {e}"))?;
    let mut sbatch = Vec::new();
    if let Some(partition) = &args.partition {
        sbatch.push(format!("--partition={partition}"));
    }
    sbatch.extend(args.sbatch.iter().cloned());
    print!(
        "{}",
        script(&SlurmJob {
            arbiter: &arbiter,
            experiment: &experiment,
            agents: agents.as_deref(),
            name: &name,
            out: &out,
            shards: args.shards,
            cpus: args.cpus,
            time: args.time.as_deref(),
            sbatch: &sbatch,
        })
    );
    Ok(())
}
