//! `arbiter merge`: the shards of a run spread over machines (`run --shard I/N`) joined
//! into one results folder. Each complete shard keeps its finished jobs in
//! `records.jsonl`; the merge checks that the shards belong together, puts their records
//! into a new folder's journal and replays them like a resume that runs nothing, so every
//! file, summary, chart and report is what a single machine would have written.

use super::pool::{Earlier, Work};
use super::shard::shard_ids;
use super::{Error, Finished, Options, RunFolder, continue_run, create_run_folder};
use crate::records::journal::JOURNAL;
use crate::records::{Meta, RunStatus};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

/// A complete shard's records, kept for the merge.
pub const RECORDS: &str = "records.jsonl";

/// Merges the shard folders `shards` into the new folder `out`. Without `partial`, every
/// shard of the split must be given and complete.
///
/// # Errors
/// Shards that do not belong together, are missing or incomplete (one line naming the
/// folders), or files that cannot be read or written.
pub fn merge(
    out: &Path,
    shards: &[PathBuf],
    partial: bool,
    options: &Options,
) -> Result<Finished, Error> {
    let Some(first_dir) = shards.first() else {
        return Err(Error::Message(
            "merge: name the shard folders to merge".to_string(),
        ));
    };
    // Each shard's meta.json, read once.
    let metas = shards
        .iter()
        .map(|dir| Meta::read(dir).map(|meta| (dir, meta)))
        .collect::<Result<Vec<_>, crate::registry::InputError>>()?;
    let first = metas[0].1.clone();
    let mut given: BTreeMap<u64, (PathBuf, Meta)> = BTreeMap::new();
    let mut count = 0;
    for (dir, meta) in metas {
        meta.check_seal(dir)?;
        let Some([index, n]) = meta.shard else {
            return Err(Error::Message(format!(
                "{}: not a shard (a run made without --shard)",
                dir.display()
            )));
        };
        if meta.kind != first.kind || meta.experiment_digest() != first.experiment_digest() {
            return Err(Error::Message(format!(
                "{}: a shard of another experiment than {} (experiment, seed, games or agents differ)",
                dir.display(),
                first_dir.display()
            )));
        }
        if meta.version != first.version {
            return Err(Error::Message(format!(
                "{}: made by arbiter {}, {} by arbiter {}: merge shards of one version",
                dir.display(),
                meta.version,
                first_dir.display(),
                first.version
            )));
        }
        if count != 0 && n != count {
            return Err(Error::Message(format!(
                "{}: shard {index}/{n}, but {} is one of {count} shards: merge the shards of one split",
                dir.display(),
                first_dir.display()
            )));
        }
        count = n;
        if let Some((other, _)) = given.get(&index) {
            return Err(Error::Message(format!(
                "shard {index}/{n} given twice: {} and {}",
                other.display(),
                dir.display()
            )));
        }
        given.insert(index, (dir.clone(), meta));
    }
    let absent: Vec<String> = (0..count)
        .filter(|i| !given.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !absent.is_empty() && !partial {
        return Err(Error::Message(format!(
            "shard{} {} of {count} not given: name every shard's folder, or merge what there is with --partial",
            if absent.len() == 1 { "" } else { "s" },
            absent.join(", ")
        )));
    }
    let mut incomplete = false;
    for (index, (dir, meta)) in &given {
        if meta.status != RunStatus::Complete {
            incomplete = true;
            if !partial {
                return Err(Error::Message(format!(
                    "{}: shard {index}/{count} is {} ({} of {} jobs done): finish it with `arbiter run --resume {}`, or merge with --partial",
                    dir.display(),
                    meta.status,
                    meta.games_played,
                    meta.games_total,
                    dir.display()
                )));
            }
        }
    }
    let folder = create_run_folder(Some(out), &first.experiment)?;
    let locked = RunFolder::lock(&folder, options.quiet)?;
    let journal = folder.join(JOURNAL);
    let write_error =
        |e: std::io::Error| Error::Message(format!("{}: cannot write: {e}", journal.display()));
    let mut writer = BufWriter::new(std::fs::File::create(&journal).map_err(write_error)?);
    for (dir, _) in given.values() {
        copy_whole_lines(dir, &mut writer)?;
    }
    writer.flush().map_err(write_error)?;
    drop(writer);

    let mut meta = first.clone();
    meta.shard = None;
    meta.experiment_checksum = None;
    meta.shard_count = count;
    meta.merged_from = given
        .values()
        .map(|(dir, _)| dir.display().to_string())
        .collect();
    meta.partial = partial && (!absent.is_empty() || incomplete);
    let mut hosts: Vec<&str> = given.values().map(|(_, m)| m.host.as_str()).collect();
    hosts.sort_unstable();
    hosts.dedup();
    meta.host = hosts.join(", ");
    meta.started_unix = given
        .values()
        .map(|(_, m)| m.started_unix)
        .min()
        .unwrap_or(meta.started_unix);
    meta.resumed = given.values().map(|(_, m)| m.resumed).sum();
    // The threads each shard ran on (the most, if they differ), not the merge's.
    meta.threads = given
        .values()
        .map(|(_, m)| m.threads)
        .max()
        .unwrap_or(meta.threads);
    meta.deterministic = given.values().all(|(_, m)| m.deterministic);
    meta.status = RunStatus::Running;
    meta.games_played = 0;
    meta.seal();
    meta.write(&folder)
        .map_err(|e| Error::Message(e.to_string()))?;
    // Replays every record; runs nothing (a missing job stays missing, and is named).
    let options = Options {
        max_jobs: Some(0),
        shard: None,
        out: None,
        time_limit: None,
        ..options.clone()
    };
    continue_run(locked, meta, None, &options)
}

/// Appends the whole lines of `dir`'s records (a complete shard's records.jsonl, else an
/// unfinished one's journal) to `out`.
fn copy_whole_lines(dir: &Path, out: &mut impl Write) -> Result<(), Error> {
    let path = [RECORDS, JOURNAL]
        .iter()
        .map(|name| dir.join(name))
        .find(|p| p.is_file());
    let Some(path) = path else {
        return Ok(());
    };
    let read_error = |e: std::io::Error| Error::Message(format!("{}: {e}", path.display()));
    let mut reader = BufReader::new(std::fs::File::open(&path).map_err(read_error)?);
    let mut line = Vec::new();
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(read_error)? == 0 {
            return Ok(());
        }
        // A last line without its newline was torn by a crash: left out.
        if line.last() == Some(&b'\n') {
            out.write_all(&line)
                .map_err(|e| Error::Message(format!("merge: cannot write the journal: {e}")))?;
        }
    }
}

/// For a merged run that lacks jobs: per shard of `count`, how many and which.
pub(super) fn missing<W: Work + ?Sized, R>(
    work: &W,
    count: u64,
    done: &dyn Earlier<R>,
    unit: &str,
) -> Vec<String> {
    (0..count)
        .filter_map(|index| {
            let ids: Vec<u64> = shard_ids(work, index, count)
                .into_iter()
                .filter(|&id| !done.contains(id))
                .collect();
            (!ids.is_empty()).then(|| {
                format!(
                    "shard {index}/{count}: {} {unit} missing (ids {})",
                    ids.len(),
                    ranges(&ids, 8)
                )
            })
        })
        .collect()
}

/// `1-3, 7, 9-10, ...`: ascending ids as ranges, the first `most` of them.
fn ranges(ids: &[u64], most: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut start = 0;
    while start < ids.len() {
        let mut end = start;
        while end + 1 < ids.len() && ids[end + 1] == ids[end] + 1 {
            end += 1;
        }
        if parts.len() == most {
            parts.push("...".to_string());
            break;
        }
        parts.push(if end == start {
            ids[start].to_string()
        } else {
            format!("{}-{}", ids[start], ids[end])
        });
        start = end + 1;
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::ranges;

    #[test]
    fn ids_read_as_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10], 8), "1-3, 7, 9-10");
        assert_eq!(ranges(&[1, 3, 5], 2), "1, 3, ...");
        assert_eq!(ranges(&[], 2), "");
    }
}
