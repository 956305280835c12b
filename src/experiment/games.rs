//! Game experiments: the schedule of games is the plan, a job plays one game, games.csv,
//! moves.csv, summary.csv and nodes_by_depth.csv are its files, and an SPRT may stop a
//! matchup early.

use super::{Error, Finished, Kind, Task, Work, execute};
use crate::core::{Game, MOVE_SEPARATOR, Player};
use crate::records::journal::JournalIndex;
use crate::records::rounds::Standing;
use crate::records::tally::Tally;
use crate::records::{
    CsvRecorder, Meta, Reporter, RoundsFormat, RunContext, RunKind, RunOutcome, SandboxMode,
    TIMING_COLUMNS,
};
use crate::registry::experiment::DEFAULT_MAX_PLIES;
use crate::registry::{AgentFactory, Experiment, GameEntry, GameTask, InputError, OpeningSpec};
use crate::stats::elo::{Sprt, SprtDecision};
use crate::tournament::rounds::Format;
use crate::tournament::rounds::Rounds;
use crate::tournament::{
    GameJob, GameRecord, MatchupPlan, Openings, PlayLimits, Schedule, play_from, seat_agents,
};
use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// The folder of a results folder where external agents' stderr is kept.
pub const LOGS_FOLDER: &str = "logs";

/// Openings from a file: one per line, moves separated by `;` (`#` comments, blank lines
/// ignored), each replayed from the start and checked.
///
/// # Errors
/// An unreadable file, an illegal move or an opening that ends the game, naming the file,
/// line and ply.
pub fn read_openings<G: GameEntry>(start: &G, path: &Path) -> Result<Vec<(G, String)>, Error> {
    let fail = |line: Option<usize>, message: String| InputError::in_file(path, line, message);
    let text = crate::registry::read_input(path)?;
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
            let mv = state
                .parse_move(text)
                .map_err(|e| fail(Some(index + 1), format!("ply {}: {e}", ply + 1)))?;
            state.apply(mv);
            moves.push(text.to_string());
        }
        if let Some(outcome) = state.outcome() {
            return Err(fail(
                Some(index + 1),
                format!(
                    "the opening ends the game ({} wins: {})",
                    outcome.winner_label(),
                    outcome.reason
                ),
            )
            .into());
        }
        openings.push((state, moves.join(&MOVE_SEPARATOR.to_string())));
    }
    if openings.is_empty() {
        return Err(fail(None, "no openings in the file".to_string()).into());
    }
    Ok(openings)
}

/// The openings an experiment names, read (and checked) from their file when they are one.
///
/// # Errors
/// As [`read_openings`].
pub fn openings_of<G: GameEntry>(spec: &OpeningSpec, start: &G) -> Result<Openings<G>, Error> {
    Ok(match spec {
        OpeningSpec::Start => Openings::Start,
        OpeningSpec::RandomPlies(plies) => Openings::RandomPlies(*plies),
        OpeningSpec::File(path) => Openings::List(read_openings(start, path)?),
    })
}

/// The games of a run: a fixed schedule (matchups x games), or rounds whose pairings
/// follow the results (Swiss, knockout).
enum Plan {
    Fixed(Schedule),
    Rounds(Box<Rounds>, BTreeMap<[usize; 2], usize>),
}

impl Plan {
    /// Game `id`, or `None` when the plan turned out to need no game there (a board of a
    /// round left empty).
    fn job(&self, id: u64) -> Option<GameJob> {
        match self {
            Plan::Fixed(schedule) => Some(schedule.job(id)),
            Plan::Rounds(rounds, matchups) => rounds.job(id, &|a, b| {
                matchups
                    .get(&[a.min(b), a.max(b)])
                    .copied()
                    .unwrap_or_default()
            }),
        }
    }
}

/// A game experiment ready to play on game `G`.
struct Games<'a, G: GameEntry> {
    experiment: &'a Experiment,
    start: G,
    plan: Plan,
    openings: Openings<G>,
    factories: Vec<AgentFactory<G>>,
    limits: PlayLimits,
    /// Per agent: why it plays no more games (an external program that cannot start).
    broken: Vec<OnceLock<String>>,
}

impl<G: GameEntry> Work for Games<'_, G> {
    type Record = GameRecord;

    fn jobs(&self) -> u64 {
        match &self.plan {
            Plan::Fixed(schedule) => schedule.len(),
            Plan::Rounds(rounds, _) => rounds.len(),
        }
    }

    fn groups(&self) -> usize {
        match &self.plan {
            Plan::Fixed(_) => self.experiment.matchups.len(),
            Plan::Rounds(rounds, _) => rounds.groups(),
        }
    }

    fn group(&self, id: u64) -> usize {
        match &self.plan {
            Plan::Fixed(schedule) => schedule.matchup_of(id),
            Plan::Rounds(rounds, _) => rounds.group(id),
        }
    }

    fn execute(&self, id: u64) -> Option<GameRecord> {
        let job = self.plan.job(id)?;
        let mut seats = seat_agents(&self.factories, &job);
        let (opening, moves) = self.openings.position(&self.start, &job);
        let played = play_from(opening, moves, job, &mut seats, &self.limits);
        for seat in Player::BOTH {
            if let Some(why) = seats[seat].broken() {
                let _ = self.broken[job.agent(seat)].set(why);
            }
        }
        // With `--no-moves` (limits.no_moves) the record has no moves: no moves.csv, no
        // moves column, no games.pgn, and none in the journal.
        played
    }

    /// The two games of a colour-swapped pair stay on one shard (pentanomial statistics
    /// need both).
    fn joined_to_previous(&self, id: u64) -> bool {
        let Plan::Fixed(schedule) = &self.plan else {
            return false;
        };
        id > 0 && {
            let (job, previous) = (schedule.job(id), schedule.job(id - 1));
            job.matchup == previous.matchup && job.pair == previous.pair
        }
    }

    fn barrier(&self, id: u64) -> u64 {
        match &self.plan {
            Plan::Fixed(_) => 0,
            Plan::Rounds(rounds, _) => rounds.barrier(id),
        }
    }

    fn void(&self, id: u64) -> bool {
        matches!(self.plan, Plan::Rounds(..)) && self.plan.job(id).is_none()
    }

    fn runnable(&self, id: u64) -> bool {
        // In rounds, players out are paired no more: their boards are void instead.
        let Plan::Fixed(schedule) = &self.plan else {
            return true;
        };
        let job = schedule.job(id);
        job.agents
            .iter()
            .all(|&agent| self.broken[agent].get().is_none())
    }
}

impl<G: GameEntry> Kind for Games<'_, G> {
    fn unit(&self) -> &'static str {
        "games"
    }

    /// A graded run (`grade = true`) that played to its end grades every move against
    /// perfect play: grades.csv and summary.csv's grading columns are written before the
    /// documents, and the per-agent table goes after the run's tables. A shard's games
    /// are graded once merged (`arbiter grade` on the merged run).
    fn after_records(
        &self,
        folder: &Path,
        outcome: &RunOutcome,
        options: &super::Options,
    ) -> Result<String, Error> {
        let experiment = self.experiment;
        let Some(settings) = experiment.grade else {
            return Ok(String::new());
        };
        if outcome.cancelled || options.shard.is_some() {
            return Ok(String::new());
        }
        if !options.quiet {
            crate::records::say(&format!(
                "grading {} games against perfect play (at most {} positions visited per position)",
                outcome.played, settings.visits
            ));
        }
        // A game run plays one game: every row of its games.csv is that game.
        let graded = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let watch =
            (!options.quiet).then(|| crate::records::Watch::start(graded.clone(), "games graded"));
        let grades = super::grade::grade_folder(
            folder,
            settings,
            options.threads,
            &|_| Ok(experiment.game.clone()),
            &graded,
        );
        drop(watch);
        let grades = grades?;
        Ok(format!(
            "\nPlay graded against perfect play ({} of {} positions solved):\n{}",
            grades.solved,
            grades.solved + grades.unsolved,
            crate::documents::summary::grades_table(&grades.agents, &grades.scores).aligned()
        ))
    }

    fn describe(&self) -> String {
        if let (Plan::Rounds(rounds, _), Some(spec)) = (&self.plan, &self.experiment.rounds) {
            return format!(
                "a {} of {} players, {} rounds, at most {} games of {}",
                spec.name(),
                rounds.players().len(),
                rounds.rounds(),
                rounds.len(),
                self.experiment.game
            );
        }
        let matchups = self.experiment.matchups.len();
        format!(
            "{matchups} matchup{}, {} games of {}",
            if matchups == 1 { "" } else { "s" },
            self.jobs(),
            self.experiment.game
        )
    }

    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<GameRecord> + '_>> {
        let experiment = self.experiment;
        let mut context = RunContext::new(
            experiment.game.to_string(),
            experiment.game.variant(),
            experiment.agents.iter().map(|a| a.name.clone()).collect(),
            experiment.matchups.iter().map(|m| m.agents).collect(),
        );
        context.sprt = experiment.sprt.map(|(sprt, _)| sprt);
        context.sequential = experiment.matchups.iter().map(|m| m.sequential).collect();
        context.played_only = matches!(self.plan, Plan::Rounds(..));
        context.experiment = experiment.name.clone();
        let csv = Box::new(CsvRecorder::create(folder, context, experiment.moves_csv)?);
        Ok(match &self.plan {
            Plan::Fixed(_) => csv,
            Plan::Rounds(rounds, _) => Box::new(RoundsFiles {
                inner: csv,
                rounds,
                experiment,
                folder: folder.to_path_buf(),
                left_out: self.left_out(),
            }),
        })
    }

    fn before_replay(
        &self,
        folder: &Path,
        journal: &JournalIndex<GameRecord>,
        merged_from: &[String],
    ) -> io::Result<Vec<u64>> {
        if !self.experiment.moves_csv || journal.is_empty() {
            return Ok(Vec::new());
        }
        crate::records::moves_rows::gather_games(folder, merged_from, journal)
    }

    fn notes(&self) -> Vec<String> {
        self.broken
            .iter()
            .filter_map(|why| why.get().cloned())
            .collect()
    }

    fn control(&self) -> Box<dyn super::Control<GameRecord> + '_> {
        if let Plan::Rounds(rounds, _) = &self.plan {
            return Box::new(RoundsMonitor(rounds));
        }
        match self.experiment.sprt {
            Some((sprt, _)) => Box::new(SprtMonitor::new(
                sprt,
                self.experiment
                    .matchups
                    .iter()
                    .map(|m| m.sequential)
                    .collect(),
            )),
            None => Box::new(super::NoControl),
        }
    }
}

impl<G: GameEntry> Games<'_, G> {
    /// The submissions that do not play: the folders that did not load, then the agents
    /// whose checks failed.
    fn left_out(&self) -> Vec<crate::registry::submissions::LeftOut> {
        let failed = self.broken.iter().enumerate().filter_map(|(agent, why)| {
            let name = &self.experiment.agents[agent].name;
            why.get().map(|why| {
                // "agent 'x' failed its check ... (why): what happens" -> "failed ... (why)"
                let why = why.strip_prefix(&format!("agent '{name}' ")).unwrap_or(why);
                let why = why.rfind("): ").map_or(why, |end| &why[..=end]);
                crate::registry::submissions::LeftOut {
                    name: name.clone(),
                    reason: why.to_string(),
                }
            })
        });
        self.experiment
            .left_out
            .iter()
            .cloned()
            .chain(failed)
            .collect()
    }
}

/// Feeds each finished game of a tournament in rounds to its plan (in plan order, so the
/// next round is paired from complete results); a knockout match decided early skips its
/// remaining games.
struct RoundsMonitor<'a>(&'a Rounds);

impl super::Control<GameRecord> for RoundsMonitor<'_> {
    fn decided(&mut self, id: u64, record: &GameRecord) -> bool {
        let winner = record.winner.map(|seat| record.job.agent(seat));
        self.0.record(id, winner)
    }
}

/// The game files of a tournament in rounds, and at its end rounds.csv (every pairing
/// with its points) and standings.csv (the format's ranking).
struct RoundsFiles<'a> {
    inner: Box<dyn Reporter<GameRecord> + 'a>,
    rounds: &'a Rounds,
    experiment: &'a Experiment,
    folder: std::path::PathBuf,
    /// The submissions that do not play, for standings.csv's `left_out` column.
    left_out: Vec<crate::registry::submissions::LeftOut>,
}

impl Reporter<GameRecord> for RoundsFiles<'_> {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.inner.started(total)
    }
    fn finished(&mut self, record: &GameRecord) -> io::Result<()> {
        self.inner.finished(record)
    }
    fn replayed(&mut self, record: &GameRecord) -> io::Result<()> {
        self.inner.replayed(record)
    }
    fn take_tally(&mut self) -> Option<crate::records::load::GamesTally> {
        self.inner.take_tally()
    }
    fn skipped(&mut self, id: u64) -> io::Result<()> {
        self.inner.skipped(id)
    }
    fn standings(&self) -> Vec<String> {
        self.inner.standings()
    }
    fn show_line(&mut self, line: &str) {
        self.inner.show_line(line);
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.inner.ended(outcome)?;
        let name = |player: usize| {
            self.experiment.agents[self.rounds.players()[player]]
                .name
                .clone()
        };
        let folder = &self.folder;
        crate::records::rounds::write_rounds(folder, &self.rounds.table(), &name)?;
        let format = self
            .experiment
            .rounds
            .as_ref()
            .map_or("swiss", |r| r.name());
        let measure = if format == "swiss" {
            "points"
        } else {
            "rounds_reached"
        };
        let why = |agent: &str| {
            self.left_out
                .iter()
                .find(|l| l.name == agent)
                .map_or(String::new(), |l| l.short_reason().to_string())
        };
        let ranked: Vec<Standing> = self
            .rounds
            .standings()
            .into_iter()
            .map(|(player, score, buchholz)| {
                let agent = name(player);
                let played = score.is_finite();
                Standing {
                    left_out: if played { String::new() } else { why(&agent) },
                    agent,
                    score: played.then_some(score),
                    buchholz,
                }
            })
            .collect();
        // Submissions that never became players (their folder did not load): unranked.
        let unplayed: Vec<(String, String)> = self
            .left_out
            .iter()
            .filter(|l| !ranked.iter().any(|r| r.agent == l.name))
            .map(|l| (l.name.clone(), l.short_reason().to_string()))
            .collect();
        crate::records::rounds::write_standings(folder, measure, &ranked, &unplayed)
    }
}

/// Every game of `schedule` from the start position, with no openings, limits or early
/// stopping: for benchmarks, tests and simple callers.
struct PlainGames<'a, G: Game> {
    start: &'a G,
    schedule: &'a Schedule,
    factories: &'a [AgentFactory<G>],
    limits: PlayLimits,
}

impl<G: Game> Work for PlainGames<'_, G> {
    type Record = GameRecord;

    fn jobs(&self) -> u64 {
        self.schedule.len()
    }

    fn execute(&self, id: u64) -> Option<GameRecord> {
        let job = self.schedule.job(id);
        let mut seats = seat_agents(self.factories, &job);
        play_from(
            self.start.clone(),
            String::new(),
            job,
            &mut seats,
            &self.limits,
        )
    }
}

/// Plays every game of `schedule` from `start` on `threads` threads and reports them in
/// id order to `reporter` (no journal, no files of its own, no early stopping). Without
/// `moves` the records carry no per-move records or move text, as in `run --no-moves`.
///
/// # Errors
/// The first error the reporter returns, or a thread pool that cannot start.
pub fn play_all<G: Game>(
    start: &G,
    schedule: &Schedule,
    factories: &[AgentFactory<G>],
    threads: usize,
    moves: bool,
    reporter: &mut dyn Reporter<GameRecord>,
) -> io::Result<RunOutcome> {
    let work = PlainGames {
        start,
        schedule,
        factories,
        limits: PlayLimits {
            no_moves: !moves,
            ..PlayLimits::plies(DEFAULT_MAX_PLIES)
        },
    };
    let settings = super::Settings {
        threads,
        deadline: None,
        max_jobs: None,
    };
    super::pool::execute(
        &work,
        &settings,
        &super::Fresh,
        &std::sync::atomic::AtomicBool::new(false),
        &mut super::NoControl,
        reporter,
    )
}

/// Plays a game experiment on the game type chosen by [`crate::registry::dispatch`].
impl GameTask for Task<'_, Experiment> {
    type Output = Result<Finished, Error>;

    fn run<G: GameEntry>(self, start_position: G) -> Result<Finished, Error> {
        let Task {
            experiment,
            start,
            options,
        } = self;
        // Everything is checked before anything is written.
        crate::registry::two_players(&start_position, "a match").map_err(|refusal| {
            InputError::in_file(
                &experiment.path,
                crate::registry::line_of_key(&experiment.source, "game"),
                refusal.message,
            )
        })?;
        // Grading and the oracle solve positions: a game of two, without chance or hidden
        // information.
        let solvable = start_position.players() == 2
            && !start_position.has_chance()
            && !start_position.has_hidden();
        for (key, what, asked) in [
            ("grade", "grade", experiment.grade.is_some()),
            (
                "adjudicate",
                "adjudicate's oracle",
                experiment.adjudication.oracle.is_some(),
            ),
        ] {
            if asked && !solvable {
                return Err(InputError::in_file(
                    &experiment.path,
                    crate::registry::line_of_key(&experiment.source, key),
                    format!(
                        "{what} needs a two-player game without chance or hidden information; {} is not one",
                        experiment.game
                    ),
                )
                .into());
            }
        }
        let factories = experiment.factories(&start_position)?;
        let openings = openings_of(&experiment.openings, &start_position)?;
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
        let plan = match &experiment.rounds {
            None => Plan::Fixed(Schedule::new(experiment.seed, plans, experiment.colours)),
            Some(spec) => Plan::Rounds(
                Box::new(Rounds::new(
                    spec.format,
                    spec.players.clone(),
                    spec.games,
                    experiment.seed,
                )),
                experiment
                    .matchups
                    .iter()
                    .enumerate()
                    .map(|(index, m)| (m.agents, index))
                    .collect(),
            ),
        };
        let mut games = Games {
            experiment: &experiment,
            start: start_position,
            plan,
            openings,
            broken: (0..factories.len()).map(|_| OnceLock::new()).collect(),
            factories,
            limits: PlayLimits {
                max_plies: experiment.max_plies,
                move_time: experiment.move_time_ms.map(Duration::from_millis),
                stop: Some(super::interrupt_flag()),
                logs: None,
                time_control: experiment.time_control,
                cpu_clock: experiment.cpu_clock,
                adjudication: experiment.adjudication,
                no_moves: !experiment.moves_csv,
                independent_chance: !experiment.duplicate,
            },
        };
        let (folder, meta) = start.open(&experiment.name, options.quiet, || Meta {
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
            deterministic: !experiment.uses_clock(),
            timing_columns: TIMING_COLUMNS.iter().map(|c| c.to_string()).collect(),
            sweeps: experiment.sweeps.clone(),
            sprt: experiment.sprt.map(|(sprt, _)| sprt),
            no_moves_csv: !experiment.moves_csv,
            sandbox: SandboxMode::of(crate::external::sandbox::mode()),
            format: experiment.rounds.as_ref().map(|r| match r.format {
                Format::Swiss { .. } => RoundsFormat::Swiss,
                Format::Knockout { .. } => RoundsFormat::Knockout,
            }),
            ..super::game_meta!(experiment, RunKind::Tournament, options.threads)
        })?;
        // External programs' stderr, one file per agent and game (created when written).
        games.limits.logs = Some(folder.join(LOGS_FOLDER));
        check_submissions(&games, &folder.join(LOGS_FOLDER), options);
        let mut meta = meta;
        meta.left_out = games.left_out();
        execute(&games, &folder, meta, options)
    }
}

/// Runs `arbiter check-agent`'s steps on every agent found in the experiment's
/// `agents_dir` (a few at a time) before any game: one that fails is left out (its games
/// are not played, its reason is among the run's notes) instead of losing every game.
/// A resume checks again, so a fixed submission then plays.
fn check_submissions<G: GameEntry>(games: &Games<'_, G>, logs: &Path, options: &super::Options) {
    let experiment = games.experiment;
    let checks: Vec<(usize, &crate::external::ExternalSpec)> = experiment
        .agents
        .iter()
        .enumerate()
        .filter(|(_, a)| experiment.submissions.contains(&a.name))
        .filter_map(|(i, a)| a.external.as_ref().map(|spec| (i, spec)))
        .collect();
    if !options.quiet {
        for left_out in &experiment.left_out {
            crate::records::say(&format!("submission {left_out}"));
        }
        if !checks.is_empty() {
            crate::records::say(&format!(
                "checking {} submission{} (arbiter check-agent's steps) before the games",
                checks.len(),
                if checks.len() == 1 { "" } else { "s" }
            ));
        }
    }
    let game_name = experiment.game.to_string();
    let times = crate::external::check::CheckTimes {
        position_ms: crate::external::check::CHECK_MOVE_MS,
        game_ms: experiment
            .move_time_ms
            .unwrap_or(crate::external::check::GAME_MOVE_MS),
        // The run's clock kind: on `clock = "cpu"` a loaded machine leaves no correct
        // submission out.
        cpu: experiment.cpu_clock,
    };
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..options.threads.clamp(1, checks.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(agent, spec)) = checks.get(k) else {
                        break;
                    };
                    let name = &experiment.agents[agent].name;
                    let folder = logs.join(crate::external::log_folder_name(name));
                    let failed = crate::external::check::preflight(
                        name,
                        spec,
                        &games.start,
                        &game_name,
                        times,
                        &folder,
                    );
                    if let Some(why) = failed {
                        let log = folder.join("check.stderr");
                        let log = if log.is_file() {
                            format!("; its stderr: {}", log.display())
                        } else {
                            String::new()
                        };
                        if let Plan::Rounds(rounds, _) = &games.plan
                            && let Some(player) = rounds.players().iter().position(|&p| p == agent)
                        {
                            rounds.drop_player(player);
                        }
                        let what = if matches!(games.plan, Plan::Rounds(..)) {
                            "it was left out of the rounds"
                        } else {
                            "its games were not played; fix it and 'arbiter run --resume' plays them"
                        };
                        let _ = games.broken[agent].set(format!(
                            "agent '{name}' failed its check before the games ({why}{log}): {what}"
                        ));
                    }
                }
            });
        }
    });
}

/// Stops a matchup when its SPRT reaches a verdict: checked after each completed pair
/// (or after each game when colours do not alternate).
pub struct SprtMonitor {
    sprt: Sprt,
    sequential: Vec<bool>,
    tallies: Vec<Tally>,
}

impl SprtMonitor {
    /// A monitor of `sprt` for the matchups flagged in `sequential`.
    pub fn new(sprt: Sprt, sequential: Vec<bool>) -> SprtMonitor {
        let tallies = vec![Tally::default(); sequential.len()];
        SprtMonitor {
            sprt,
            sequential,
            tallies,
        }
    }
}

impl super::Control<GameRecord> for SprtMonitor {
    fn decided(&mut self, _id: u64, record: &GameRecord) -> bool {
        let matchup = record.job.matchup;
        if !self.sequential.get(matchup).copied().unwrap_or(false) {
            return false;
        }
        let tally = &mut self.tallies[matchup];
        let completed_pair = tally.add(record);
        let paired = !record.job.first_is_p1
            || tally.pair_count() > 0
            || record.job.pair != record.job.game_index;
        if paired && !completed_pair {
            return false;
        }
        self.sprt.decide(tally.llr(&self.sprt)) != SprtDecision::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Player;
    use crate::experiment::Control;
    use crate::records::tally::tests::record;

    #[test]
    fn sprt_stops_a_one_sided_matchup_and_not_a_balanced_one() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 100.0,
            alpha: 0.05,
            beta: 0.05,
            model: crate::stats::elo::EloModel::Logistic,
        };
        let mut monitor = SprtMonitor::new(sprt, vec![true]);
        let mut stopped_at = None;
        for game in 0..400u64 {
            let first_is_p1 = game % 2 == 0;
            // The first agent wins 3 games in 4.
            let first_wins = game % 4 != 3;
            let seat = if first_is_p1 { Player::P1 } else { Player::P2 };
            let winner = if first_wins { seat } else { seat.opponent() };
            if monitor.decided(0, &record(game, first_is_p1, Some(winner), true)) {
                stopped_at = Some(game);
                break;
            }
        }
        let stopped_at = stopped_at.expect("decided");
        assert!(stopped_at % 2 == 1, "decisions fall on completed pairs");
        assert!(monitor.tallies[0].llr(&sprt) >= sprt.bounds().1);
        // Not sequential: never stopped.
        let mut monitor = SprtMonitor::new(sprt, vec![false]);
        assert!((0..100).all(|g| !monitor.decided(0, &record(g, true, Some(Player::P1), false))));
    }
}
