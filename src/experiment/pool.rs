//! Runs the jobs of a plan on a pool of worker threads and hands their records to a
//! reporter in plan order, whatever the thread count: finished jobs of an earlier
//! invocation are handed in, not run again; a group decided early (a matchup stopped by
//! its SPRT) skips its later jobs; a stop flag, a deadline and a job budget stop starting
//! new jobs. Knows no kind of run.

use crate::report::{Reporter, RunOutcome};
use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Jobs a worker collects before handing them to the writer.
const BATCH_JOBS: usize = 64;
/// The longest a finished job waits in a worker's batch.
const BATCH_WAIT: Duration = Duration::from_millis(20);

/// A plan of jobs, numbered 0.., each run independently of the others.
pub trait Work: Sync {
    /// What a finished job records.
    type Record: Send;

    /// Jobs in the plan.
    fn jobs(&self) -> u64;

    /// Groups that can be decided early (matchups); every job belongs to one.
    fn groups(&self) -> usize {
        1
    }

    /// The group of job `id`.
    fn group(&self, _id: u64) -> usize {
        0
    }

    /// Runs job `id`.
    fn execute(&self, id: u64) -> Self::Record;
}

/// Decides, job by job in plan order, whether a group is over before its last job.
pub trait Control<R> {
    /// Called with each finished job in plan order; `true` stops the job's group: its
    /// later jobs are not run, or are dropped if already run.
    fn decided(&mut self, id: u64, record: &R) -> bool;
}

/// Runs every job.
pub struct NoControl;

impl<R> Control<R> for NoControl {
    fn decided(&mut self, _id: u64, _record: &R) -> bool {
        false
    }
}

/// How many threads, and when to stop starting jobs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Worker threads.
    pub threads: usize,
    /// No job is started after this instant.
    pub deadline: Option<Instant>,
    /// No more than this many new jobs are started.
    pub max_jobs: Option<u64>,
}

enum Finished<R> {
    Ran(Box<R>),
    Skipped,
}

/// Runs the jobs of `work` and reports them in plan order. Jobs in `done` (by id, from an
/// interrupted run) are reported, not run again. Setting `cancel` stops workers from
/// starting new jobs; jobs in progress finish and are reported.
///
/// # Errors
/// The first error a reporter returns (the run stops), or a thread pool that cannot start.
pub fn execute<W: Work>(
    work: &W,
    settings: &Settings,
    mut done: BTreeMap<u64, W::Record>,
    cancel: &AtomicBool,
    control: &mut dyn Control<W::Record>,
    reporter: &mut dyn Reporter<W::Record>,
) -> io::Result<RunOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let total = work.jobs();
    reporter.started(total as usize)?;
    let decided: Vec<AtomicBool> = (0..work.groups()).map(|_| AtomicBool::new(false)).collect();
    let next_job = AtomicU64::new(0);
    let started = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::sync_channel::<Vec<(u64, Finished<W::Record>)>>(64);
    let (mut position, mut played, mut skipped) = (0u64, 0usize, 0usize);
    done.retain(|&id, _| id < total);
    let done_ids: BTreeSet<u64> = done.keys().copied().collect();
    let mut pending: BTreeMap<u64, Finished<W::Record>> = done
        .into_iter()
        .map(|(id, record)| (id, Finished::Ran(Box::new(record))))
        .collect();
    let result = std::thread::scope(|scope| -> io::Result<()> {
        let (next_job, started, decided, done_ids) = (&next_job, &started, &decided, &done_ids);
        scope.spawn(move || {
            pool.broadcast(|_| {
                let sender = sender.clone();
                // Fast jobs travel in batches (one wake-up of the writer per batch); a
                // batch is sent as soon as it is full or has waited BATCH_WAIT.
                let mut batch = Vec::with_capacity(BATCH_JOBS);
                let mut batch_started = Instant::now();
                loop {
                    let out_of_time = settings.deadline.is_some_and(|d| Instant::now() >= d);
                    if cancel.load(Ordering::Relaxed) || out_of_time {
                        break;
                    }
                    let id = next_job.fetch_add(1, Ordering::Relaxed);
                    if id >= total {
                        break;
                    }
                    if batch.is_empty() {
                        batch_started = Instant::now();
                    }
                    let finished = if done_ids.contains(&id) {
                        None
                    } else if decided[work.group(id)].load(Ordering::Relaxed) {
                        Some(Finished::Skipped)
                    } else {
                        if settings.max_jobs.is_some_and(|max| {
                            started.fetch_add(1, Ordering::Relaxed) as u64 >= max
                        }) {
                            break;
                        }
                        Some(Finished::Ran(Box::new(work.execute(id))))
                    };
                    if let Some(finished) = finished {
                        batch.push((id, finished));
                    }
                    if batch.len() >= BATCH_JOBS || batch_started.elapsed() >= BATCH_WAIT {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_JOBS));
                        if sender.send(full).is_err() {
                            return;
                        }
                    }
                }
                if !batch.is_empty() {
                    let _ = sender.send(batch);
                }
            });
        });
        // Reorder: report each job once every job planned before it is reported.
        let mut deliver = |id: u64, finished: Finished<W::Record>| -> io::Result<()> {
            let group = work.group(id);
            match finished {
                Finished::Ran(record) if !decided[group].load(Ordering::Relaxed) => {
                    reporter.finished(&record)?;
                    played += 1;
                    if control.decided(id, &record) {
                        decided[group].store(true, Ordering::Relaxed);
                    }
                }
                // Run after its group was decided, or never run: skipped.
                _ => {
                    reporter.skipped(id)?;
                    skipped += 1;
                }
            }
            Ok(())
        };
        let mut flush = |pending: &mut BTreeMap<u64, Finished<W::Record>>| -> io::Result<()> {
            while let Some(finished) = pending.remove(&position) {
                deliver(position, finished)?;
                position += 1;
            }
            Ok(())
        };
        flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        for (id, finished) in receiver.iter().flatten() {
            pending.insert(id, finished);
            flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        }
        // Stopped early: jobs after a gap are finished too; keep them, still in order.
        for (id, finished) in pending {
            deliver(id, finished)?;
        }
        Ok(())
    });
    result?;
    let outcome = RunOutcome {
        played,
        skipped,
        total: total as usize,
        cancelled: ((played + skipped) as u64) < total,
    };
    reporter.ended(&outcome)?;
    Ok(outcome)
}
