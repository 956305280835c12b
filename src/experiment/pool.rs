//! Runs the jobs of a plan on a pool of worker threads and hands their records to a
//! reporter in plan order, whatever the thread count: finished jobs of an earlier
//! invocation are handed in, not run again; a group decided early (a matchup stopped by
//! its SPRT) skips its later jobs; a job may wait for every job before a barrier to be
//! reported (a tuning iteration needs the previous one's result); a stop flag, a deadline
//! and a job budget stop starting new jobs. Knows no kind of run.

use crate::records::{Reporter, RunOutcome};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
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

    /// Stack bytes a worker thread needs (deeply recursive solvers), if more than the
    /// default.
    fn stack_bytes(&self) -> Option<usize> {
        None
    }

    /// Runs job `id`; `None` when a stop abandoned it (it runs again on resume).
    fn execute(&self, id: u64) -> Option<Self::Record>;

    /// Whether job `id` must run on the same shard as job `id - 1` (the second game of a
    /// colour-swapped pair), when the plan is split over machines. Default: no.
    fn joined_to_previous(&self, _id: u64) -> bool {
        false
    }

    /// Job `id` starts only once every job before this id has been reported (and so seen
    /// by the [`Control`]): a plan whose later jobs depend on earlier results. Default: 0,
    /// no wait.
    fn barrier(&self, _id: u64) -> u64 {
        0
    }

    /// Whether job `id` turned out to be unneeded once the jobs before its barrier were
    /// reported (a board of a round with no game): it is skipped. Default: no.
    fn void(&self, _id: u64) -> bool {
        false
    }

    /// Whether job `id` can run: `false` leaves it unplayed (the run ends incomplete and
    /// it runs on resume), e.g. when one of its agents can no longer start. Default: yes.
    fn runnable(&self, _id: u64) -> bool {
        true
    }
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

/// Jobs finished by an earlier invocation of a resumed run: which ones, and their records,
/// handed back one at a time in plan order (so that they need not all be in memory).
pub trait Earlier<R>: Sync {
    /// Whether job `id` finished earlier.
    fn contains(&self, id: u64) -> bool;

    /// The smallest finished id at or after `id`.
    fn next_from(&self, id: u64) -> Option<u64>;

    /// The record of finished job `id`.
    ///
    /// # Errors
    /// The record cannot be read back.
    fn record(&self, id: u64) -> io::Result<R>;
}

/// A fresh run: nothing finished earlier.
pub struct Fresh;

impl<R> Earlier<R> for Fresh {
    fn contains(&self, _id: u64) -> bool {
        false
    }
    fn next_from(&self, _id: u64) -> Option<u64> {
        None
    }
    fn record(&self, id: u64) -> io::Result<R> {
        Err(io::Error::other(format!("job {id} did not finish earlier")))
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
    Earlier,
    Skipped,
}

/// How far the reporting has got, for jobs that wait at a barrier.
struct Barrier {
    position: Mutex<u64>,
    moved: Condvar,
    stopping: AtomicBool,
    /// Workers waiting in [`Barrier::wait`] (changed under the `position` lock): a
    /// notification is a system call, made only when someone waits.
    waiting: AtomicUsize,
}

impl Barrier {
    /// Whether every job before `barrier` has been reported.
    fn reached(&self, barrier: u64) -> bool {
        *self.position.lock().unwrap_or_else(|e| e.into_inner()) >= barrier
    }

    /// Every job before `position` has been reported.
    fn advance(&self, position: u64) {
        let mut reported = self.position.lock().unwrap_or_else(|e| e.into_inner());
        if position > *reported {
            *reported = position;
            if self.waiting.load(Ordering::Relaxed) > 0 {
                self.moved.notify_all();
            }
        }
    }

    /// No more jobs will start: waiting workers give up.
    fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        let _guard = self.position.lock().unwrap_or_else(|e| e.into_inner());
        self.moved.notify_all();
    }

    /// Waits until every job before `barrier` has been reported: `false` if the run stops
    /// first (a worker stopped starting jobs, Ctrl-C, the deadline).
    fn wait(&self, barrier: u64, cancel: &AtomicBool, deadline: Option<Instant>) -> bool {
        let mut reported = self.position.lock().unwrap_or_else(|e| e.into_inner());
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let reached = loop {
            if *reported >= barrier {
                break true;
            }
            let over = self.stopping.load(Ordering::SeqCst)
                || cancel.load(Ordering::Relaxed)
                || deadline.is_some_and(|d| Instant::now() >= d);
            if over {
                break false;
            }
            reported = self
                .moved
                .wait_timeout(reported, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        };
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        reached
    }
}

/// What the workers of [`execute`] share: the work, the settings, and the counters they
/// take jobs and report progress by.
struct Workers<'a, R> {
    work: &'a dyn Work<Record = R>,
    settings: &'a Settings,
    earlier: &'a dyn Earlier<R>,
    cancel: &'a AtomicBool,
    total: u64,
    decided: &'a [AtomicBool],
    next_job: &'a AtomicU64,
    started: &'a AtomicUsize,
    reported: &'a Barrier,
}

/// One worker: takes the next job until none is left or the run stops, and sends what it
/// finished to the writer in batches.
fn worker<R: Send>(w: &Workers<'_, R>, sender: mpsc::SyncSender<Vec<(u64, Finished<R>)>>) {
    // Fast jobs travel in batches (one wake-up of the writer per batch); a
    // batch is sent as soon as it is full or has waited BATCH_WAIT.
    let mut batch = Vec::with_capacity(BATCH_JOBS);
    let mut batch_started = Instant::now();
    loop {
        let out_of_time = w.settings.deadline.is_some_and(|d| Instant::now() >= d);
        if w.cancel.load(Ordering::Relaxed) || out_of_time {
            w.reported.stop();
            break;
        }
        let id = w.next_job.fetch_add(1, Ordering::Relaxed);
        if id >= w.total {
            break;
        }
        if batch.is_empty() {
            batch_started = Instant::now();
        }
        let finished = if w.earlier.contains(id) {
            None
        } else if w.decided[w.work.group(id)].load(Ordering::Relaxed) {
            Some(Finished::Skipped)
        } else if !w.work.runnable(id) {
            None
        } else {
            if w.settings
                .max_jobs
                .is_some_and(|max| w.started.fetch_add(1, Ordering::Relaxed) as u64 >= max)
            {
                w.reported.stop();
                break;
            }
            let barrier = w.work.barrier(id);
            if barrier > 0 && !w.reported.reached(barrier) {
                // The jobs it waits for may be in this worker's batch.
                if !batch.is_empty() {
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_JOBS));
                    if sender.send(full).is_err() {
                        return;
                    }
                }
                if !w.reported.wait(barrier, w.cancel, w.settings.deadline) {
                    w.reported.stop();
                    break;
                }
                batch_started = Instant::now();
            }
            if w.work.void(id) {
                Some(Finished::Skipped)
            } else {
                match w.work.execute(id) {
                    Some(record) => Some(Finished::Ran(Box::new(record))),
                    // Abandoned: not finished, and nothing more is w.started.
                    None => {
                        w.reported.stop();
                        break;
                    }
                }
            }
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
}

/// Runs the jobs of `work` and reports them in plan order. Jobs in `earlier` (from an
/// interrupted run) are replayed to the reporter, not run again. Setting `cancel` stops
/// workers from starting new jobs; jobs in progress finish and are reported.
///
/// The work is called through `dyn` (a call a job, next to nothing beside a game or a
/// search): the scheduler is compiled once per kind of record, not once per game and kind
/// of work.
///
/// # Errors
/// The first error a reporter returns (the run stops), or a thread pool that cannot start.
pub fn execute<R: Send>(
    work: &dyn Work<Record = R>,
    settings: &Settings,
    earlier: &dyn Earlier<R>,
    cancel: &AtomicBool,
    control: &mut dyn Control<R>,
    reporter: &mut dyn Reporter<R>,
) -> io::Result<RunOutcome> {
    let mut builder = rayon::ThreadPoolBuilder::new().num_threads(settings.threads.max(1));
    if let Some(bytes) = work.stack_bytes() {
        builder = builder.stack_size(bytes);
    }
    let pool = builder.build().map_err(io::Error::other)?;
    let total = work.jobs();
    reporter.started(total as usize)?;
    let decided: Vec<AtomicBool> = (0..work.groups()).map(|_| AtomicBool::new(false)).collect();
    let next_job = AtomicU64::new(0);
    let started = AtomicUsize::new(0);
    // Jobs reported so far, for jobs that wait at a barrier; `stopping` is raised when a
    // worker stops starting jobs, so that none waits for a job that will not run.
    let reported = Barrier {
        position: Mutex::new(0),
        moved: Condvar::new(),
        stopping: AtomicBool::new(false),
        waiting: AtomicUsize::new(0),
    };
    // A few batches a worker in flight: enough to keep the writer busy, few enough that
    // records waiting for a slow writer (a game's moves are kilobytes) take little memory.
    let in_flight = settings.threads.clamp(1, 16) * 4;
    let (sender, receiver) = mpsc::sync_channel::<Vec<(u64, Finished<R>)>>(in_flight);
    let (mut position, mut played, mut skipped) = (0u64, 0usize, 0usize);
    let mut pending: BTreeMap<u64, Finished<R>> = BTreeMap::new();
    let result = std::thread::scope(|scope| -> io::Result<()> {
        let shared = Workers {
            work,
            settings,
            earlier,
            cancel,
            total,
            decided: &decided,
            next_job: &next_job,
            started: &started,
            reported: &reported,
        };
        let reported = &reported;
        scope.spawn(move || {
            pool.broadcast(|_| worker(&shared, sender.clone()));
        });
        // Reorder: report each job once every job planned before it is reported.
        let mut deliver = |id: u64, finished: Finished<R>| -> io::Result<()> {
            let group = work.group(id);
            let open = !decided[group].load(Ordering::Relaxed);
            let record = match finished {
                Finished::Ran(record) if open => {
                    reporter.finished(&record)?;
                    Some(record)
                }
                Finished::Earlier if open => {
                    let record = earlier.record(id)?;
                    reporter.replayed(&record)?;
                    Some(Box::new(record))
                }
                _ => None,
            };
            match record {
                Some(record) => {
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
        // Reports what can be reported in order; returns how far that got.
        let mut flush = |pending: &mut BTreeMap<u64, Finished<R>>| -> io::Result<u64> {
            while position < total {
                let finished = if earlier.contains(position) {
                    Finished::Earlier
                } else if let Some(finished) = pending.remove(&position) {
                    finished
                } else {
                    break;
                };
                deliver(position, finished)?;
                position += 1;
            }
            Ok(position)
        };
        let reached = flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        reported.advance(reached);
        // Workers waiting at a barrier learn how far the reporting got once a batch.
        for batch in receiver.iter() {
            let mut reached = 0;
            for (id, finished) in batch {
                pending.insert(id, finished);
                reached =
                    flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
            }
            reported.advance(reached);
        }
        // Stopped early: jobs after a gap are finished too; keep them, still in order.
        loop {
            let replay = earlier.next_from(position).filter(|&id| id < total);
            let run = pending.keys().next().copied();
            let (id, finished) = match (replay, run) {
                (Some(replay), Some(run)) if run < replay => (run, pending.remove(&run)),
                (Some(replay), _) => (replay, Some(Finished::Earlier)),
                (None, Some(run)) => (run, pending.remove(&run)),
                (None, None) => break,
            };
            if let Some(finished) = finished {
                deliver(id, finished)?;
            }
            position = id + 1;
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
