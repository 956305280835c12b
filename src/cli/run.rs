//! `arbiter run`.

use super::DEFAULT_EXPERIMENT;
use super::resolve_threads;
use crate::registry::OpeningSpec;
use crate::registry::{AgentRegistry, AnyExperiment, Experiment, GameEntry, GameTask, dispatch};
use crate::report::journal::{JOURNAL, Journal, read_journal};
use crate::report::tally::SprtMonitor;
use crate::report::{
    CsvRecorder, Meta, Progress, RunContext, TIMING_COLUMNS, format_summary, unix_now, utc_stamp,
};
use crate::tournament::{
    self, Control, MOVE_SEPARATOR, MatchupPlan, NoControl, Openings, Reporters, RunConfig,
};
use anyhow::{Context, Result, anyhow, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    max_games: Option<usize>,
    /// Write no moves.csv (a row per move, most of a big run's bytes): games.csv,
    /// summary.csv and the charts that need no per-move data only.
    #[arg(long)]
    no_moves: bool,
    /// Start no new game after this many seconds (resume later).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// The folder a run writes: `out` (new or empty), else `results/<experiment>/<UTC time>`.
pub fn run_folder(out: Option<PathBuf>, experiment: &str) -> Result<PathBuf> {
    if let Some(out) = out {
        if out.exists() {
            let empty = std::fs::read_dir(&out)
                .with_context(|| format!("--out {}", out.display()))?
                .next()
                .is_none();
            if !empty {
                bail!(
                    "--out {}: the folder exists and is not empty (results are never overwritten)",
                    out.display()
                );
            }
        }
        std::fs::create_dir_all(&out).with_context(|| format!("--out {}", out.display()))?;
        return Ok(out);
    }
    let base = Path::new("results").join(experiment);
    let stamp = utc_stamp(unix_now());
    let mut folder = base.join(&stamp);
    let mut n = 2;
    while folder.exists() {
        folder = base.join(format!("{stamp}-{n}"));
        n += 1;
    }
    std::fs::create_dir_all(&folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    Ok(folder)
}

/// Runs an experiment given on the command line.
pub fn run(args: RunArgs) -> Result<()> {
    let registry = AgentRegistry::load(&args.agents)?;
    let threads = resolve_threads(args.threads)?;
    let limits = Limits::from_args(&args)?;
    if let Some(folder) = &args.resume {
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
        let meta = Meta::read(folder).map_err(|e| anyhow!(e))?;
        if meta.kind != "tournament" {
            bail!(
                "--resume {}: only game runs can be resumed (this is a {} run)",
                folder.display(),
                meta.kind
            );
        }
        if meta.status == "complete" {
            bail!("--resume {}: the run is already complete", folder.display());
        }
        // The experiment as it was run: from the text kept in meta.json, not the file.
        let source = meta.experiment_source.clone();
        let mut experiment =
            Experiment::parse(Path::new(&meta.experiment_file), source, &registry)?;
        experiment.games_per_matchup = meta.games_per_matchup;
        experiment.seed = meta.seed;
        experiment.moves_csv = !meta.no_moves_csv;
        let task = RunTask {
            experiment,
            threads,
            out: None,
            resume: Some((folder.clone(), meta)),
            quiet: args.quiet,
            limits,
        };
        return dispatch(task.experiment.game, task);
    }
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
    let mut experiment = match AnyExperiment::load(&path, &registry)? {
        AnyExperiment::Tournament(experiment) => experiment,
        _ if args.no_moves => bail!(
            "--no-moves: {} is not a game experiment (it writes no moves.csv)",
            path.display()
        ),
        AnyExperiment::Puzzles(mut puzzles) => {
            if args.games.is_some() {
                bail!(
                    "--games does not apply to a puzzle experiment: set repetitions in {}",
                    path.display()
                );
            }
            if let Some(seed) = args.seed {
                puzzles.seed = seed;
            }
            return super::puzzles::run_puzzles(puzzles, threads, args.out, args.quiet);
        }
        AnyExperiment::Search(mut search) => {
            if args.games.is_some() {
                bail!(
                    "--games does not apply to a search experiment: set positions in {}",
                    path.display()
                );
            }
            if let Some(seed) = args.seed {
                search.seed = seed;
            }
            return super::compare::run_search(search, threads, args.out, args.quiet);
        }
    };
    if let Some(games) = args.games {
        if games == 0 {
            bail!("--games 0: play at least one game per matchup");
        }
        experiment.games_per_matchup = games;
    }
    if let Some(seed) = args.seed {
        experiment.seed = seed;
    }
    if args.no_moves {
        experiment.moves_csv = false;
    }
    let task = RunTask {
        experiment,
        threads,
        out: args.out,
        resume: None,
        quiet: args.quiet,
        limits,
    };
    dispatch(task.experiment.game, task)
}

/// Limits on one invocation of a run.
#[derive(Clone, Copy, Debug)]
struct Limits {
    max_games: Option<usize>,
    time_limit: Option<Duration>,
}

impl Limits {
    fn from_args(args: &RunArgs) -> Result<Limits> {
        if args.max_games == Some(0) {
            bail!("--max-games 0: allow at least one game");
        }
        let time_limit = match args.time_limit {
            Some(seconds) if !(seconds > 0.0 && seconds.is_finite()) => {
                bail!("--time-limit {seconds}: give a positive number of seconds")
            }
            Some(seconds) => Some(Duration::from_secs_f64(seconds)),
            None => None,
        };
        Ok(Limits {
            max_games: args.max_games,
            time_limit,
        })
    }
}

struct RunTask {
    experiment: Experiment,
    threads: usize,
    out: Option<PathBuf>,
    resume: Option<(PathBuf, Meta)>,
    quiet: bool,
    limits: Limits,
}

/// Openings from a file: one per line, moves separated by `;` (`#` comments, blank lines
/// ignored), each replayed from the start and checked.
fn read_openings<G: GameEntry>(start: &G, path: &Path) -> Result<Vec<(G, String)>> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow!("{}: cannot read: {e}", path.display()))?;
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut state = start.clone();
        let mut moves = Vec::new();
        for (ply, text) in line
            .split(MOVE_SEPARATOR)
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .enumerate()
        {
            let mv = state.parse_move(text).map_err(|e| {
                anyhow!(
                    "{}: line {}: ply {}: {e}",
                    path.display(),
                    index + 1,
                    ply + 1
                )
            })?;
            state.apply(mv);
            moves.push(text.to_string());
        }
        if let Some(outcome) = state.outcome() {
            bail!(
                "{}: line {}: the opening ends the game ({} wins: {})",
                path.display(),
                index + 1,
                outcome.winner_label(),
                outcome.reason
            );
        }
        openings.push((state, moves.join(&MOVE_SEPARATOR.to_string())));
    }
    if openings.is_empty() {
        bail!("{}: no openings in the file", path.display());
    }
    Ok(openings)
}

impl GameTask for RunTask {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let RunTask {
            experiment,
            threads,
            out,
            resume,
            quiet,
            limits,
        } = self;
        // Everything is checked before anything is written.
        let factories = experiment.factories::<G>()?;
        let openings = match &experiment.openings {
            OpeningSpec::Start => Openings::Start,
            OpeningSpec::RandomPlies(plies) => Openings::RandomPlies(*plies),
            OpeningSpec::File(path) => Openings::List(read_openings(&start, path)?),
        };
        let plans: Vec<MatchupPlan> = experiment
            .matchups
            .iter()
            .enumerate()
            .map(|(m, spec)| MatchupPlan {
                agents: spec.agents,
                seed_key: spec.seed_key,
                games: experiment.games_of(m),
            })
            .collect();
        let jobs = tournament::schedule_plans(experiment.seed, &plans, experiment.colours);
        let (folder, done, mut meta) = match resume {
            Some((folder, mut meta)) => {
                let done = read_journal(&folder).map_err(|e| anyhow!(e))?;
                meta.resumed += 1;
                meta.threads = threads;
                meta.status = "running".to_string();
                (folder, done, meta)
            }
            None => {
                let folder = run_folder(out, &experiment.name)?;
                let meta = Meta {
                    experiment: experiment.name.clone(),
                    description: experiment.description.clone(),
                    experiment_file: experiment.path.display().to_string(),
                    experiment_source: experiment.source.clone(),
                    game: experiment.game.to_string(),
                    seed: experiment.seed,
                    games_per_matchup: experiment.games_per_matchup,
                    colours: experiment.colours.name().to_string(),
                    max_plies: experiment.max_plies,
                    agents: experiment
                        .agents
                        .iter()
                        .map(|a| (a.name.clone(), a.canonical()))
                        .collect(),
                    matchups: (0..experiment.matchups.len())
                        .map(|m| experiment.matchup_label(m))
                        .collect(),
                    games_total: jobs.len(),
                    deterministic: !experiment.uses_clock(),
                    timing_columns: TIMING_COLUMNS.iter().map(|c| c.to_string()).collect(),
                    sweeps: experiment.sweeps.clone(),
                    sprt: experiment.sprt.map(|(sprt, _)| sprt),
                    no_moves_csv: !experiment.moves_csv,
                    ..Meta::starting("tournament", threads)
                };
                (folder, BTreeMap::new(), meta)
            }
        };
        let pairs: Vec<[usize; 2]> = experiment.matchups.iter().map(|m| m.agents).collect();
        let mut context = RunContext::new(
            experiment.game.to_string(),
            experiment.game.variant(),
            experiment.agents.iter().map(|a| a.name.clone()).collect(),
            pairs,
        );
        context.sprt = experiment.sprt.map(|(sprt, _)| sprt);
        context.sequential = experiment.matchups.iter().map(|m| m.sequential).collect();
        let in_folder = |what: &str| format!("{}: cannot write {what}", folder.display());
        meta.write(&folder)?;
        let mut recorder = CsvRecorder::create(&folder, context, experiment.moves_csv)
            .with_context(|| in_folder("the CSV files"))?;
        let mut journal = Journal::open(&folder, done.keys().copied().collect())
            .with_context(|| in_folder(JOURNAL))?;
        let mut progress = Progress::new(quiet);
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&cancel);
        // A second handler cannot be installed in the same process; then Ctrl-C just kills.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
        if !quiet {
            eprintln!(
                "{}: {} matchups, {} games of {} on {threads} threads{} -> {}",
                experiment.name,
                experiment.matchups.len(),
                jobs.len(),
                meta.game,
                if done.is_empty() {
                    String::new()
                } else {
                    format!(" ({} already played)", done.len())
                },
                folder.display()
            );
        }
        let mut control: Box<dyn Control> = match experiment.sprt {
            Some((sprt, _)) => Box::new(SprtMonitor::new(
                sprt,
                experiment.matchups.iter().map(|m| m.sequential).collect(),
            )),
            None => Box::new(NoControl),
        };
        let config = RunConfig {
            start: &start,
            openings: &openings,
            factories: &factories,
            max_plies: experiment.max_plies,
            threads,
            deadline: limits.time_limit.map(|limit| Instant::now() + limit),
            max_games: limits.max_games,
            move_time_limit: experiment.move_time_ms.map(Duration::from_millis),
        };
        let outcome = tournament::run(
            &config,
            &jobs,
            done,
            &cancel,
            control.as_mut(),
            &mut Reporters(vec![&mut journal, &mut recorder, &mut progress]),
        );
        meta.ended_unix = Some(unix_now());
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(error) => {
                meta.status = "failed".to_string();
                let _ = meta.write(&folder);
                return Err(error).with_context(|| in_folder("results"));
            }
        };
        meta.games_played = outcome.played;
        meta.status = if outcome.cancelled {
            "interrupted"
        } else {
            "complete"
        }
        .to_string();
        meta.write(&folder)?;
        if !outcome.cancelled {
            // Every statistic is in the CSV files now; the journal was only for resuming.
            let _ = std::fs::remove_file(Journal::path(&folder));
        }
        let documents = super::tools::write_report(&folder).with_context(|| {
            format!(
                "{}: the results are saved, but the report failed",
                folder.display()
            )
        })?;
        if !quiet {
            print!("{}", format_summary(&recorder.summary().rows()));
            println!("results: {}", folder.display());
            for document in documents {
                println!("report: {}", document.display());
            }
        }
        if outcome.cancelled {
            eprintln!(
                "stopped: {} of {} games played{}; continue with: arbiter run --resume {}",
                outcome.played,
                outcome.total,
                if outcome.skipped > 0 {
                    format!(", {} skipped", outcome.skipped)
                } else {
                    String::new()
                },
                folder.display()
            );
            if cancel.load(Ordering::SeqCst) {
                std::process::exit(130);
            }
        }
        Ok(())
    }
}
