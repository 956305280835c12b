//! The run policy that is not a kind's: continuing a shard's own folder (a requeued Slurm
//! task), a resume that finds nothing left to do, the choices a resumed run keeps. The
//! cli and the Python package call these, with what they parsed.

use super::{Error, Finished, Options};
use crate::records::journal::JOURNAL;
use crate::records::loaded::read_meta;
use crate::records::{Meta, RunStatus, say};
use crate::registry::{AgentRegistry, AnyExperiment};
use std::path::Path;

/// What a run folder's meta.json keeps that a resume needs before it starts: the
/// experiment's text (for the agents it names) and `--sandbox` as the run was started
/// (`None`: as each agent file says). Both empty for a folder without one.
pub fn recorded_choices(folder: &Path) -> (String, Option<&'static str>) {
    read_meta(folder).map_or((String::new(), None), |meta| {
        (meta.experiment_source, meta.sandbox.flag())
    })
}

/// Continues the run in `folder` unless it is complete (then says so and returns
/// `None`, as a complete shard run again does).
///
/// # Errors
/// As [`super::resume`].
pub fn resume_unfinished(
    folder: &Path,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Option<Finished>, Error> {
    if read_meta(folder).is_some_and(|m| m.status == RunStatus::Complete)
        && !folder.join(JOURNAL).exists()
    {
        say(&format!(
            "{}: the run is already complete; nothing to do",
            folder.display()
        ));
        return Ok(None);
    }
    super::resume(folder, registry, options).map(Some)
}

/// The folder a shard task given `--out` continues, with its shard, when the folder
/// already holds a run (a task requeued by Slurm): `None` for a new or empty folder, or
/// a run that is no shard.
pub fn earlier_shard(out: Option<&Path>, shard: Option<[u64; 2]>) -> Option<(&Path, [u64; 2])> {
    let out = out.filter(|out| out.join("meta.json").is_file())?;
    Some((out, shard?))
}

/// Continues shard `shard` in `folder`, its earlier run: refused when the folder holds
/// another shard or another version of the experiment (`experiment`, when given, is
/// compared by its text); `None` when the shard is already complete.
///
/// # Errors
/// The folder holds something else, or as [`super::resume`].
pub fn continue_shard(
    folder: &Path,
    shard: [u64; 2],
    experiment: Option<&Path>,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Option<Finished>, Error> {
    let meta = Meta::read(folder)?;
    if meta.shard != Some(shard) {
        return Err(Error::Message(format!(
            "--out {}: it holds {}, not shard {}/{}",
            folder.display(),
            meta.shard
                .map_or("an unsharded run".to_string(), |[i, n]| format!(
                    "shard {i}/{n}"
                )),
            shard[0],
            shard[1]
        )));
    }
    // The file as a run keeps it: the same text as this shard's meta.json, or changed.
    if let Some(path) = experiment
        && AnyExperiment::load(path, registry)?.source() != meta.experiment_source
    {
        return Err(Error::Message(format!(
            "--out {}: it holds shard {}/{} of another version of {}: give a new --out",
            folder.display(),
            shard[0],
            shard[1],
            path.display()
        )));
    }
    if meta.status == RunStatus::Complete {
        if !options.quiet {
            say(&format!(
                "{}: shard {}/{} is already complete",
                folder.display(),
                shard[0],
                shard[1]
            ));
        }
        return Ok(None);
    }
    let mut options = options.clone();
    options.out = None;
    super::resume(folder, registry, &options).map(Some)
}
