//! One pipeline for every kind of run (games, search comparisons, puzzle solvers): the
//! results folder and its meta.json, the job plan, parallel execution, the journal of
//! finished jobs, resume, Ctrl-C, limits, progress, then summaries and documents through
//! `report`. A kind supplies only what differs ([`Kind`]). May use every layer but `cli`.

pub mod bench;
mod folder;
mod games;
pub mod grade;
pub mod inspect;
pub mod launch;
pub mod merge;
pub mod play;
pub mod pool;
mod puzzles;
pub mod replay;
mod search;
pub mod serve;
pub mod shard;
pub mod slurm;
pub mod solve_game;
mod table_run;
#[cfg(test)]
mod tests;
pub mod tools;
pub mod train_order;
mod tune;

pub use folder::{FolderError, FolderLock, LOCK, create_run_folder};
pub use games::{play_all, read_openings};
pub use pool::{Control, Earlier, Fresh, NoControl, Settings, Work};

use crate::documents::show;
use crate::records::journal::{Journal, JournalIndex};
use crate::records::loaded::{LoadedRun, Reading};
use crate::records::{
    JobRecord, Meta, Progress, Reporter, Reporters, RunKind, RunOutcome, RunStatus, WithStandings,
    unix_now,
};
use crate::registry::table_experiment::TableExperiment;
use crate::registry::tune_experiment::TuneExperiment;
use crate::registry::{
    AgentRegistry, AgentSpec, AnyExperiment, Experiment, InputError, SearchExperiment,
};
use crate::registry::{GameSpec, GameTask, dispatch, puzzle_experiment::PuzzleExperiment};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The meta.json of a new run of `$experiment` (any kind of experiment played on a game:
/// its `name`, `description`, `path`, `source`, `game` and `seed`), of `$kind` on
/// `$threads` threads, before the kind fills in its own fields.
macro_rules! game_meta {
    ($experiment:expr, $kind:expr, $threads:expr) => {
        crate::records::Meta {
            experiment: $experiment.name.clone(),
            description: $experiment.description.clone(),
            experiment_file: $experiment.path.display().to_string(),
            experiment_source: $experiment.source.clone(),
            game: $experiment.game.to_string(),
            game_program: $experiment.game.program(),
            seed: $experiment.seed,
            ..crate::records::Meta::starting($kind, $threads)
        }
    };
}
use game_meta;

/// Why a run could not be started or finished.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Bad input, naming the file and line.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A puzzle file that could not be read, naming the file and line.
    #[error(transparent)]
    Puzzle(#[from] crate::csp::PuzzleError),
    /// The run folder could not be made or taken.
    #[error(transparent)]
    Folder(#[from] folder::FolderError),
    /// Anything else, as one line naming what failed.
    #[error("{0}")]
    Message(String),
}

impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Message(message)
    }
}

/// What differs between kinds of run; everything else is [`execute`]'s.
pub trait Kind: Work
where
    Self::Record: JobRecord,
{
    /// What one job is, plural, for progress lines: `games`, `positions`, `solves`.
    fn unit(&self) -> &'static str;

    /// The plan in a few words for the start line, e.g. `6 matchups, 600 games of X`.
    fn describe(&self) -> String;

    /// The kind's own files, created anew in `folder`: every finished job is reported to
    /// them in plan order (also the jobs of an earlier invocation, when resuming).
    ///
    /// # Errors
    /// A file that cannot be created.
    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<Self::Record> + '_>>;

    /// Readies what a resume replays from `journal` beside it (a run of games gathers the
    /// moves.csv rows that its journal lines only count, from `folder` and the shards
    /// `merged_from`). Returns the ids of jobs whose records cannot be replayed whole:
    /// they are played again. Default: nothing to ready.
    ///
    /// # Errors
    /// A file that cannot be read or written.
    fn before_replay(
        &self,
        _folder: &Path,
        _journal: &JournalIndex<Self::Record>,
        _merged_from: &[String],
    ) -> io::Result<Vec<u64>> {
        Ok(Vec::new())
    }

    /// What the user must know about the run once it ended (e.g. an agent that could not
    /// start, whose games were left unplayed), one line each. Default: nothing.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// What may stop a group of jobs early (a sequential test). Default: nothing.
    fn control(&self) -> Box<dyn Control<Self::Record> + '_> {
        Box::new(NoControl)
    }

    /// Work on the run's files once every record is in them and meta.json says how the
    /// run ended, before the documents are made from them (a graded run grades its
    /// moves, so that the documents are made once, with the grades). Returns what to print
    /// after the run's tables. Default: nothing.
    ///
    /// # Errors
    /// The work failed; the documents are made all the same.
    fn after_records(
        &self,
        _folder: &Path,
        _outcome: &RunOutcome,
        _options: &Options,
    ) -> Result<String, Error> {
        Ok(String::new())
    }
}

/// How one invocation runs: threads, output, and when to stop starting jobs.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// No progress on standard error.
    pub quiet: bool,
    /// The folder of a new run (new or empty) instead of `results/<name>/<time>`.
    pub out: Option<PathBuf>,
    /// Start at most this many new jobs.
    pub max_jobs: Option<u64>,
    /// Start no job after this long.
    pub time_limit: Option<Duration>,
    /// Run only slice `I` of `N` of the plan (`[I, N]`, I from 0), see [`shard`].
    pub shard: Option<[u64; 2]>,
    /// Show the standings every this many finished games (0: never).
    pub standings: usize,
}

/// Values given on the command line in place of the experiment file's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overrides {
    /// Games per matchup (game experiments only).
    pub games: Option<u64>,
    /// The experiment seed.
    pub seed: Option<u64>,
    /// No moves.csv (game experiments only).
    pub no_moves: bool,
}

/// How a run ended, for the command line to print.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The run folder.
    pub folder: PathBuf,
    /// report.md and index.html.
    pub documents: Vec<PathBuf>,
    /// Jobs run, skipped and planned.
    pub outcome: RunOutcome,
    /// What a job is, plural (`games`, `positions`, `solves`).
    pub unit: &'static str,
    /// Whether Ctrl-C stopped it.
    pub interrupted: bool,
    /// The summary tables, as `show` prints them.
    pub tables: String,
    /// What the user must know (agents that stopped playing), one line each.
    pub notes: Vec<String>,
}

/// Runs inside a host program (the Python package): no Ctrl-C handler is installed (the
/// host keeps its own and calls [`interrupt`]), and each run starts with the stop flag
/// lowered. Call it before the first run.
pub fn embed() {
    EMBEDDED.store(true, Ordering::SeqCst);
}

/// Stops the runs in progress as Ctrl-C does (cleanly, resumable): for a host program.
pub fn interrupt() {
    interrupt_flag().store(true, Ordering::SeqCst);
}

/// Jobs reported and planned in the run in progress (or the last one): for a host
/// program's progress display.
pub fn progress() -> (u64, u64) {
    (
        PROGRESS_DONE.load(Ordering::Relaxed),
        PROGRESS_TOTAL.load(Ordering::Relaxed),
    )
}

static EMBEDDED: AtomicBool = AtomicBool::new(false);
static PROGRESS_DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static PROGRESS_TOTAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts reported jobs for [`progress`].
struct Counter;

impl<R> Reporter<R> for Counter {
    fn started(&mut self, total: usize) -> io::Result<()> {
        PROGRESS_DONE.store(0, Ordering::Relaxed);
        PROGRESS_TOTAL.store(total as u64, Ordering::Relaxed);
        Ok(())
    }
    fn finished(&mut self, _record: &R) -> io::Result<()> {
        PROGRESS_DONE.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
    fn skipped(&mut self, _id: u64) -> io::Result<()> {
        PROGRESS_DONE.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// The flag Ctrl-C sets; the handler is installed once per process (not when embedded).
fn interrupt_flag() -> Arc<AtomicBool> {
    INTERRUPT
        .get_or_init(|| {
            let flag = Arc::new(AtomicBool::new(false));
            let handler_flag = Arc::clone(&flag);
            // Should a handler already exist (a host program's), Ctrl-C keeps its behaviour.
            if !EMBEDDED.load(Ordering::SeqCst) {
                let _ = ctrlc::set_handler(move || handler_flag.store(true, Ordering::SeqCst));
            }
            // A run must not die of a closed output pipe (SIGPIPE's default): writes then
            // fail, the progress display notices and stops the run cleanly, resumable.
            // SAFETY: setting a signal's disposition to "ignore" installs no handler code.
            unsafe {
                libc::signal(libc::SIGPIPE, libc::SIG_IGN);
            }
            flag
        })
        .clone()
}

/// The flag Ctrl-C sets (its handler installed), for a long command that is not a run:
/// `solve-game` stops its search with it and says so.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    interrupt_flag()
}

/// The flag Ctrl-C sets, for code that holds a plain reference (the puzzle solvers).
fn interrupt_stop() -> &'static AtomicBool {
    interrupt_flag();
    INTERRUPT.get().map_or(&NEVER, |flag| flag.as_ref())
}

static INTERRUPT: OnceLock<Arc<AtomicBool>> = OnceLock::new();
static NEVER: AtomicBool = AtomicBool::new(false);

impl<R: JobRecord> Earlier<R> for JournalIndex<R> {
    fn contains(&self, id: u64) -> bool {
        JournalIndex::contains(self, id)
    }
    fn next_from(&self, id: u64) -> Option<u64> {
        JournalIndex::next_from(self, id)
    }
    fn record(&self, id: u64) -> io::Result<R> {
        JournalIndex::record(self, id)
    }
}

/// Runs (or resumes) `kind` into `folder`: meta.json says `running`, then the jobs run
/// with the journal, the kind's files and progress fed in plan order; at the end meta.json
/// says `complete` or `interrupted`, the journal goes once complete, and the documents are
/// written.
///
/// # Errors
/// A file that cannot be written, naming the folder.
pub fn execute<R: JobRecord>(
    kind: &dyn Kind<Record = R>,
    folder: &Path,
    mut meta: Meta,
    options: &Options,
) -> Result<Finished, Error> {
    let in_folder = |what: &str, e: &dyn std::fmt::Display| {
        Error::Message(format!("{}: cannot write {what}: {e}", folder.display()))
    };
    let mut earlier = JournalIndex::<R>::open(folder)?;
    let again = kind
        .before_replay(folder, &earlier, &meta.merged_from)
        .map_err(|e| in_folder("the records to replay", &e))?;
    if !again.is_empty() {
        earlier = earlier.without(folder, &again)?;
        if !options.quiet {
            crate::records::say(&format!(
                "{}: moves.csv lacked the moves of {} of the {} {} in the journal (the run was killed between the two): played again",
                folder.display(),
                again.len(),
                again.len() + earlier.len(),
                kind.unit()
            ));
        }
    }
    // A shard runs its slice of the plan, fixed-length: early stops need every shard's
    // games and are decided at the merge.
    let sharded = options.shard.map(|[index, count]| shard::Sharded {
        inner: kind,
        ids: shard::shard_ids(kind, index, count),
    });
    if meta.shard != options.shard {
        // A new shard: its checksum covers its place in the split.
        meta.shard = options.shard;
        meta.experiment_checksum = Some(meta.experiment_digest());
        meta.seal();
    }
    meta.games_total = sharded.as_ref().map_or(kind.jobs(), Work::jobs) as usize;
    // A merged run keeps its shards' thread count: the merge itself plays nothing.
    if meta.merged_from.is_empty() {
        meta.threads = options.threads;
    }
    let played_before = meta.games_played;
    meta.status = RunStatus::Running;
    meta.write(folder)
        .map_err(|e| Error::Message(e.to_string()))?;
    let mut recorder = kind
        .recorder(folder)
        .map_err(|e| in_folder("the CSV files", &e))?;
    let mut journal = Journal::<R>::open(folder, earlier.whole_bytes())
        .map_err(|e| in_folder(crate::records::journal::JOURNAL, &e))?;
    let mut progress = Progress::new(options.quiet, kind.unit());
    let cancel = interrupt_flag();
    if EMBEDDED.load(Ordering::SeqCst) {
        // A host's earlier interrupt stopped an earlier run, not this one.
        cancel.store(false, Ordering::SeqCst);
    }
    let mut counter = Counter;
    // A closed output (`arbiter run ... | head`) stops the run as Ctrl-C does.
    progress.stop_when_output_closes(Arc::clone(&cancel));
    if !options.quiet {
        crate::records::say(&format!(
            "{}: {} on {} threads{} -> {}",
            meta.experiment,
            kind.describe(),
            options.threads,
            if earlier.is_empty() {
                String::new()
            } else {
                format!(" ({} already done)", earlier.len())
            },
            folder.display()
        ));
        if earlier.torn_bytes() > 0 {
            crate::records::say(&format!(
                "{}: cut the last {} bytes, a record torn when the run was killed",
                Journal::<R>::path(folder).display(),
                earlier.torn_bytes()
            ));
        }
    }
    let settings = Settings {
        threads: options.threads,
        deadline: options
            .time_limit
            .and_then(|limit| Instant::now().checked_add(limit)),
        max_jobs: options.max_jobs,
    };
    let mut reporters = WithStandings {
        inner: Reporters(vec![
            &mut journal,
            &mut recorder,
            &mut progress,
            &mut counter,
        ]),
        every: options.standings,
        count: 0,
    };
    let outcome = match &sharded {
        None => pool::execute(
            kind,
            &settings,
            &earlier,
            &cancel,
            kind.control().as_mut(),
            &mut reporters,
        ),
        Some(sharded) => pool::execute(
            sharded,
            &settings,
            &shard::ShardEarlier {
                inner: &earlier,
                ids: &sharded.ids,
            },
            &cancel,
            &mut NoControl,
            &mut reporters,
        ),
    };
    drop(reporters);
    meta.ended_unix = Some(unix_now());
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => {
            // A file that cannot be written (a full disk): the finished jobs are in the
            // journal (a torn last record is cut on resume), so the run resumes like an
            // interrupted one. When even meta.json cannot be written it stays `running`,
            // which `show` reads as stopped once no process holds the lock.
            meta.status = RunStatus::Interrupted;
            meta.games_played = crate::records::journal::records_in(folder) as usize;
            let _ = meta.write(folder);
            return Err(Error::Message(format!(
                "{}: cannot write results: {error}; the {} finished are kept in {}: make room and `arbiter run --resume {}` continues",
                folder.display(),
                kind.unit(),
                crate::records::journal::JOURNAL,
                folder.display()
            )));
        }
    };
    // Jobs a merged run played itself (a resume after `merge --partial`) are counted apart:
    // they ran here, not on the shards. The merge replays records and plays none.
    if !meta.merged_from.is_empty() && options.max_jobs != Some(0) {
        meta.played_after_merge += outcome.played.saturating_sub(played_before) as u64;
    }
    meta.games_played = outcome.played;
    // A partial merge whose missing jobs were played since (`run --resume`) is whole.
    meta.partial &= outcome.cancelled;
    // Stopped by a signal: `interrupted`; by --max-games, --time-limit or an agent that
    // cannot start: `partial`. Either resumes.
    meta.status = if !outcome.cancelled {
        RunStatus::Complete
    } else if cancel.load(Ordering::SeqCst) {
        RunStatus::Interrupted
    } else {
        RunStatus::Partial
    };
    // Every record is in the kind's files once the recorder is gone; then meta.json says
    // how the run ended, the documents follow, and the journal goes last: a run killed
    // before that is resumed (and its files rewritten) like any other.
    let tally = recorder.take_tally();
    drop(recorder);
    meta.write(folder)
        .map_err(|e| Error::Message(e.to_string()))?;
    // Its error comes after the documents: the run's own report stands without it.
    let after = kind.after_records(folder, &outcome, options);
    let report_failed = |e: InputError| {
        Error::Message(format!(
            "{}: the results are saved, but the report failed: {e}; `arbiter report {}` draws it again",
            folder.display(),
            folder.display()
        ))
    };
    let run = LoadedRun::read_with(folder, Reading::Documents, tally).map_err(report_failed)?;
    let documents = show::write_all(&run).map_err(report_failed)?;
    if !outcome.cancelled {
        let journal = Journal::<R>::path(folder);
        if options.shard.is_some() {
            // A shard keeps its records, for `merge` to replay.
            std::fs::rename(&journal, folder.join(merge::RECORDS))
                .map_err(|e| in_folder(merge::RECORDS, &e))?;
        } else {
            let _ = std::fs::remove_file(journal);
        }
    }
    let mut notes = kind.notes();
    if !meta.merged_from.is_empty() && outcome.cancelled {
        notes.extend(merge::missing(
            kind,
            meta.shard_count,
            &earlier,
            kind.unit(),
        ));
    }
    let after = after?;
    Ok(Finished {
        folder: folder.to_path_buf(),
        documents,
        outcome,
        unit: kind.unit(),
        interrupted: cancel.load(Ordering::SeqCst),
        tables: show::tables(&run).unwrap_or_default() + &after,
        notes,
    })
}

/// A run to start: a new one from an experiment file, or the rest of an interrupted one
/// (its folder already locked).
enum Start {
    New(Option<PathBuf>),
    Resume(RunFolder, Box<Meta>),
}

/// A results folder this process holds the lock of ([`FolderLock`]), until dropped.
pub struct RunFolder {
    path: PathBuf,
    _lock: FolderLock,
}

impl RunFolder {
    /// Locks `path` for writing.
    ///
    /// # Errors
    /// Another process holds it; the line names the folder and the holder.
    pub fn lock(path: &Path, quiet: bool) -> Result<RunFolder, folder::FolderError> {
        Ok(RunFolder {
            _lock: FolderLock::acquire(path, quiet)?,
            path: path.to_path_buf(),
        })
    }
}

impl std::ops::Deref for RunFolder {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

/// Runs an experiment file of any kind into a new results folder.
///
/// # Errors
/// A bad file or override (nothing is written then), or a file that cannot be written.
pub fn run_file(
    path: &Path,
    registry: &AgentRegistry,
    overrides: Overrides,
    options: &Options,
) -> Result<Finished, Error> {
    run_experiment(
        AnyExperiment::load(path, registry)?,
        path,
        overrides,
        options,
    )
}

/// Runs an experiment given as text (`arbiter match` writes one) into a new results
/// folder; `path` names it in errors and meta.json, and anchors the files it names.
///
/// # Errors
/// As [`run_file`].
pub fn run_text(
    path: &Path,
    source: String,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Finished, Error> {
    run_source(path, source, registry, Overrides::default(), options)
}

/// Runs an experiment of any kind from its text with command-line overrides (`path`
/// names it and anchors its relative paths, as a file there would).
///
/// # Errors
/// As [`run_file`].
pub fn run_source(
    path: &Path,
    source: String,
    registry: &AgentRegistry,
    overrides: Overrides,
    options: &Options,
) -> Result<Finished, Error> {
    let experiment = AnyExperiment::parse(path, source, registry)?;
    run_experiment(experiment, path, overrides, options)
}

/// Checks, before anything is written, that a sandbox can start when the experiment's
/// agents want one (as their agent files or the class file's `sandbox` ask, unless
/// `--sandbox=off`).
///
/// # Errors
/// A sandbox that is wanted and cannot start here: one line naming who wants it and what
/// to install.
fn check_sandbox(experiment: &AnyExperiment) -> Result<(), Error> {
    match experiment {
        AnyExperiment::Tournament(e) => check_sandbox_of(&e.agents, &e.submissions),
        AnyExperiment::Search(e) => check_sandbox_of(e.programs.iter().map(|(spec, _)| spec), &[]),
        AnyExperiment::Tune(e) => check_sandbox_of(tuned_opponents(e), &[]),
        AnyExperiment::Tables(e) => check_sandbox_of(&e.agents, &[]),
        AnyExperiment::Puzzles(_) => Ok(()),
    }
}

/// A tuning experiment's opponents and yardstick.
fn tuned_opponents(experiment: &TuneExperiment) -> impl Iterator<Item = &AgentSpec> {
    experiment
        .opponents
        .iter()
        .chain(experiment.yardstick.iter().map(|(_, spec)| spec))
}

/// [`check_sandbox`] for `agents`, of which those named in `submissions` are a class's.
fn check_sandbox_of<'a>(
    agents: impl IntoIterator<Item = &'a AgentSpec>,
    submissions: &[String],
) -> Result<(), Error> {
    use crate::external::sandbox;
    if sandbox::mode().is_some() {
        // Off, or on for every agent: `launch::set_sandbox` checked the flag already.
        return Ok(());
    }
    let asking: Vec<&AgentSpec> = agents
        .into_iter()
        .filter(|a| a.external.as_ref().is_some_and(|e| e.sandbox.is_some()))
        .collect();
    let who = match asking.iter().find(|a| !submissions.contains(&a.name)) {
        Some(agent) => format!("agent '{}' asks for a sandbox, but", agent.name),
        None if !asking.is_empty() => {
            "the experiment's sandbox (for its submissions) is wanted, but".to_string()
        }
        None => return Ok(()),
    };
    require_sandbox(&who)
}

/// Succeeds when a sandbox can start here; else one line saying `who` wants one, why it
/// cannot start, and how to run without.
pub(crate) fn require_sandbox(who: &str) -> Result<(), Error> {
    crate::external::sandbox::available().map_err(|why| {
        Error::Message(format!(
            "{who} {why}; or give --sandbox=off to run the agents unconfined"
        ))
    })
}

fn run_experiment(
    experiment: AnyExperiment,
    path: &Path,
    overrides: Overrides,
    options: &Options,
) -> Result<Finished, Error> {
    check_sandbox(&experiment)?;
    let start = Start::New(options.out.clone());
    match experiment {
        AnyExperiment::Tournament(mut experiment) => {
            if let (Some(_), Some(spec)) = (options.shard, &experiment.rounds) {
                return Err(Error::Message(format!(
                    "--shard does not apply to {}: a {}'s rounds are paired from the rounds before, so it runs on one machine (on all its cores)",
                    path.display(),
                    spec.name()
                )));
            }
            if let Some(games) = overrides.games {
                if games == 0 {
                    return Err(Error::Message(
                        "--games 0: play at least one game per matchup".to_string(),
                    ));
                }
                experiment.games_per_matchup = games;
            }
            if let Some(seed) = overrides.seed {
                experiment.seed = seed;
            }
            if overrides.no_moves {
                if experiment.grade.is_some() {
                    return Err(Error::Message(format!(
                        "--no-moves: {} grades its games' moves (grade = true): run it with its moves",
                        path.display()
                    )));
                }
                experiment.moves_csv = false;
            }
            on_game(experiment.game.clone(), *experiment, start, options)
        }
        AnyExperiment::Tables(_) if overrides.no_moves => Err(Error::Message(format!(
            "--no-moves does not apply to {}: a table run keeps each game's moves in its row of tables.csv (no moves.csv), where the viewer and `arbiter replay` read them",
            path.display()
        ))),
        _ if overrides.no_moves => Err(Error::Message(format!(
            "--no-moves: {} is not a game experiment (it writes no moves.csv)",
            path.display()
        ))),
        AnyExperiment::Search(mut experiment) => {
            refuse_games(overrides, "a search experiment: set positions", path)?;
            if let Some(seed) = overrides.seed {
                experiment.seed = seed;
            }
            on_game(experiment.game.clone(), experiment, start, options)
        }
        AnyExperiment::Puzzles(mut experiment) => {
            refuse_games(overrides, "a puzzle experiment: set repetitions", path)?;
            if let Some(seed) = overrides.seed {
                experiment.seed = seed;
            }
            puzzles::run(experiment, start, options)
        }
        AnyExperiment::Tables(mut experiment) => {
            if let Some(deals) = overrides.games {
                if deals == 0 {
                    return Err(Error::Message(
                        "--games 0: play at least one deal per table".to_string(),
                    ));
                }
                experiment.deals = deals;
            }
            if let Some(seed) = overrides.seed {
                experiment.seed = seed;
            }
            on_game(experiment.game.clone(), *experiment, start, options)
        }
        AnyExperiment::Tune(mut experiment) => {
            refuse_games(
                overrides,
                "a tuning experiment: set iterations and pairs",
                path,
            )?;
            refuse_shards(options, path)?;
            if let Some(seed) = overrides.seed {
                experiment.seed = seed;
            }
            on_game(experiment.game.clone(), *experiment, start, options)
        }
    }
}

/// `--games` is for game experiments: an error for `kind` (what it is and what to set).
fn refuse_games(overrides: Overrides, kind: &str, path: &Path) -> Result<(), Error> {
    match overrides.games {
        Some(_) => Err(Error::Message(format!(
            "--games does not apply to {kind} in {}",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// A tuning run's iterations follow one another: an error for `--shard`.
fn refuse_shards(options: &Options, path: &Path) -> Result<(), Error> {
    match options.shard {
        Some(_) => Err(Error::Message(format!(
            "--shard does not apply to {}: each tuning iteration needs the one before, so it runs on one machine (on all its cores)",
            path.display()
        ))),
        None => Ok(()),
    }
}

/// Runs a search comparison built elsewhere (`arbiter compare`) into a new folder.
///
/// # Errors
/// As [`run_file`].
pub fn run_search(experiment: SearchExperiment, options: &Options) -> Result<Finished, Error> {
    let start = Start::New(options.out.clone());
    on_game(experiment.game.clone(), experiment, start, options)
}

/// An experiment of a kind played on a game, waiting for [`dispatch`] to name the game's
/// type.
struct Task<'a, E> {
    experiment: E,
    start: Start,
    options: &'a Options,
}

/// Runs `experiment` on `game`'s type.
fn on_game<'a, E>(
    game: GameSpec,
    experiment: E,
    start: Start,
    options: &'a Options,
) -> Result<Finished, Error>
where
    Task<'a, E>: GameTask<Output = Result<Finished, Error>>,
{
    dispatch(
        game,
        Task {
            experiment,
            start,
            options,
        },
    )
}

/// Continues an interrupted run of any kind in its folder, with the experiment, seed and
/// counts kept in its meta.json: finished jobs are kept, the others run, and the files end
/// as an uninterrupted run's would.
///
/// # Errors
/// A folder that is not an unfinished run, or a file that cannot be written.
pub fn resume(
    folder: &Path,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Finished, Error> {
    // A folder that is no run is refused before a lock file is left in it.
    let file = folder.join("meta.json");
    if !file.is_file() {
        return Err(Error::Message(format!(
            "{}: cannot read: not a run folder (no meta.json)",
            file.display()
        )));
    }
    let locked = RunFolder::lock(folder, options.quiet)?;
    // Read now that no other process can be changing it.
    let meta = Meta::read(folder)?;
    meta.check_seal(folder)?;
    let journal_left = folder.join(crate::records::journal::JOURNAL).exists();
    if meta.status == RunStatus::Complete && !journal_left {
        return Err(Error::Message(format!(
            "--resume {}: the run is already complete",
            folder.display()
        )));
    }
    let mut meta = meta;
    meta.resumed += 1;
    continue_run(locked, meta, Some(registry), options)
}

/// The agents a run recorded in its meta.json (`agents`: name and inline spec), as a
/// registry naming that file in errors.
fn recorded_agents(
    folder: &Path,
    agents: &[(String, String)],
    meta: &Meta,
) -> Result<AgentRegistry, Error> {
    let meta_file = folder.join("meta.json");
    let mut registry = AgentRegistry::recorded(agents, &meta_file)
        .map_err(|e| Error::Message(format!("{}: agents: {e}", meta_file.display())))?;
    if let Some((name, spec)) = &meta.game_program {
        registry.record_game(name, spec.clone(), &meta_file);
    }
    Ok(registry)
}

/// Runs the jobs of `folder`'s plan (as its meta.json describes it) that its journal does
/// not hold: a resume, or a merge's replay of its shards' records.
///
/// `registry`: agents/ as it is now, to say which agents changed since the run started
/// (`None`: say nothing).
fn continue_run(
    locked: RunFolder,
    meta: Meta,
    registry: Option<&AgentRegistry>,
    options: &Options,
) -> Result<Finished, Error> {
    let folder = locked.to_path_buf();
    // A shard goes on with its own slice.
    let options = &Options {
        shard: meta.shard,
        ..options.clone()
    };
    // The experiment as it was run: from the text kept in meta.json, not the file.
    let path = PathBuf::from(&meta.experiment_file);
    let source = meta.experiment_source.clone();
    let seed = meta.seed;
    match meta.kind {
        RunKind::Tournament => {
            // The agents as they were when the run started, not as agents/ holds them now.
            let recorded = recorded_agents(&folder, &meta.agents, &meta)?;
            let changed = registry.map_or(Vec::new(), |r| r.differences(&recorded));
            if !changed.is_empty() && !options.quiet {
                crate::records::say(&format!(
                    "note: agents changed since the run started ({}); resuming with the specs kept in {}",
                    changed.join(", "),
                    folder.join("meta.json").display()
                ));
            }
            let mut experiment = Experiment::parse(&path, source, &recorded)?;
            check_sandbox_of(&experiment.agents, &experiment.submissions)?;
            experiment.games_per_matchup = meta.games_per_matchup;
            experiment.seed = seed;
            experiment.moves_csv = !meta.no_moves_csv;
            on_game(
                experiment.game.clone(),
                experiment,
                Start::Resume(locked, Box::new(meta)),
                options,
            )
        }
        RunKind::Search => {
            // External programs as they were when the run started.
            let programs: Vec<(String, String)> = meta
                .agents
                .iter()
                .filter(|(_, spec)| crate::registry::is_external_spec(spec))
                .cloned()
                .collect();
            let recorded = recorded_agents(&folder, &programs, &meta)?;
            let mut experiment = SearchExperiment::parse(&path, source, &recorded)?;
            check_sandbox_of(experiment.programs.iter().map(|(spec, _)| spec), &[])?;
            experiment.seed = seed;
            // The heuristic as it ran (a named heuristic of the agent files expanded).
            if let Some(heuristic) = meta
                .agents
                .iter()
                .find(|(_, spec)| !crate::registry::is_external_spec(spec))
                .and_then(|(_, spec)| spec.parse().ok())
            {
                experiment.heuristic = heuristic;
            }
            on_game(
                experiment.game.clone(),
                experiment,
                Start::Resume(locked, Box::new(meta)),
                options,
            )
        }
        RunKind::Tune => {
            let recorded = recorded_agents(&folder, &meta.agents, &meta)?;
            let mut experiment = TuneExperiment::parse(&path, source, &recorded)?;
            check_sandbox_of(tuned_opponents(&experiment), &[])?;
            experiment.seed = seed;
            on_game(
                experiment.game.clone(),
                experiment,
                Start::Resume(locked, Box::new(meta)),
                options,
            )
        }
        RunKind::Tables => {
            let recorded = recorded_agents(&folder, &meta.agents, &meta)?;
            let mut experiment = TableExperiment::parse(&path, source, &recorded)?;
            check_sandbox_of(&experiment.agents, &[])?;
            experiment.seed = seed;
            experiment.deals = meta.games_per_matchup;
            on_game(
                experiment.game.clone(),
                experiment,
                Start::Resume(locked, Box::new(meta)),
                options,
            )
        }
        RunKind::Puzzles => {
            let mut experiment = PuzzleExperiment::parse(&path, source)?;
            experiment.seed = seed;
            puzzles::run(experiment, Start::Resume(locked, Box::new(meta)), options)
        }
    }
}

impl Start {
    /// The folder to write and its meta.json: a new folder with `fresh` (everything is
    /// validated by now), or the continued run's (resumed or merged).
    fn open(
        self,
        name: &str,
        quiet: bool,
        fresh: impl FnOnce() -> Meta,
    ) -> Result<(RunFolder, Meta), Error> {
        match self {
            Start::New(out) => {
                let mut meta = fresh();
                meta.seal();
                let folder = create_run_folder(out.as_deref(), name)?;
                let folder = RunFolder::lock(&folder, quiet)?;
                // At once: a run killed before its first game (during a class's checks,
                // say) is a run that `--resume` continues, not a folder of nothing.
                meta.status = RunStatus::Running;
                meta.write(&folder)
                    .map_err(|e| Error::Message(e.to_string()))?;
                Ok((folder, meta))
            }
            Start::Resume(folder, meta) => Ok((folder, *meta)),
        }
    }
}
