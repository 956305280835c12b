//! Table runs: games of two to six players, the schedule of tables x deals x seat
//! rotations is the plan, a job plays one game, tables.csv and the standings are its files.

use super::{Error, Finished, Kind, Task, Work, execute};
use crate::core::Game;
use crate::records::tables::TablesCsv;
use crate::records::{Meta, Reporter, RunKind, SandboxMode};
use crate::registry::table_experiment::TableExperiment;
use crate::registry::{AgentFactory, GameEntry, GameTask};
use crate::tournament::Openings;
use crate::tournament::table::{TableLimits, TableRecord, TableSchedule, play_table, seat_table};
use std::io;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// A table experiment ready to play on game `G`.
struct Tables<'a, G: Game> {
    experiment: &'a TableExperiment,
    start: G,
    openings: Openings<G>,
    schedule: TableSchedule,
    factories: Vec<AgentFactory<G>>,
    limits: TableLimits,
    /// Per agent: why it plays no more games (an external program that cannot start).
    broken: Vec<OnceLock<String>>,
}

impl<G: Game> Work for Tables<'_, G> {
    type Record = TableRecord;

    fn jobs(&self) -> u64 {
        self.schedule.len()
    }

    fn groups(&self) -> usize {
        self.experiment.tables.len()
    }

    fn group(&self, id: u64) -> usize {
        self.schedule.table_of(id)
    }

    fn execute(&self, id: u64) -> Option<TableRecord> {
        let job = self.schedule.job(id);
        let mut seats = seat_table(&self.factories, &job);
        let agents = job.seats.clone();
        // A deal's opening serves all its rotations, as its seed does.
        let (state, opening) = self.openings.position_at(&self.start, job.deal, job.seed);
        let played = play_table(state, opening, job, &mut seats, &self.limits);
        for (seat, agent) in seats.iter().zip(agents) {
            if let Some(why) = seat.broken() {
                let _ = self.broken[agent].set(why);
            }
        }
        played
    }

    /// A deal's rotations stay on one shard (its agents' deal means need them all).
    fn joined_to_previous(&self, id: u64) -> bool {
        id > 0 && {
            let (job, previous) = (self.schedule.job(id), self.schedule.job(id - 1));
            job.table == previous.table && job.deal == previous.deal
        }
    }

    fn runnable(&self, id: u64) -> bool {
        self.schedule
            .job(id)
            .seats
            .iter()
            .all(|&agent| self.broken[agent].get().is_none())
    }
}

impl<G: Game> Kind for Tables<'_, G> {
    fn unit(&self) -> &'static str {
        "games"
    }

    fn describe(&self) -> String {
        let tables = self.experiment.tables.len();
        format!(
            "{tables} table{} of {}, {} deals each in {} rotations, {} games of {}",
            if tables == 1 { "" } else { "s" },
            self.schedule.seats(),
            self.experiment.deals,
            self.schedule.seats(),
            self.jobs(),
            self.experiment.game
        )
    }

    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<TableRecord> + '_>> {
        let names = self
            .experiment
            .agents
            .iter()
            .map(|a| a.name.clone())
            .collect();
        Ok(Box::new(TablesCsv::create(
            folder,
            names,
            self.schedule.seats(),
            !matches!(self.openings, Openings::Start),
        )?))
    }

    fn notes(&self) -> Vec<String> {
        self.broken
            .iter()
            .filter_map(|why| why.get().cloned())
            .collect()
    }
}

/// Plays a table experiment on the game type chosen by [`crate::registry::dispatch`].
impl GameTask for Task<'_, TableExperiment> {
    type Output = Result<Finished, Error>;

    fn run<G: GameEntry>(self, start_position: G) -> Result<Finished, Error> {
        let Task {
            mut experiment,
            start,
            options,
        } = self;
        // Everything is checked before anything is written.
        let seats = start_position.players();
        experiment.seat(seats)?;
        let factories = experiment.factories(&start_position)?;
        let openings = super::games::openings_of(&experiment.openings, &start_position)?;
        let schedule =
            TableSchedule::new(experiment.seed, experiment.tables.clone(), experiment.deals);
        let (folder, meta) = start.open(&experiment.name, options.quiet, || Meta {
            games_per_matchup: experiment.deals,
            colours: "rotated".to_string(),
            max_plies: experiment.max_plies,
            agents: experiment
                .agents
                .iter()
                .map(|a| (a.name.clone(), a.canonical()))
                .collect(),
            matchups: (0..experiment.tables.len())
                .map(|t| experiment.table_label(t))
                .collect(),
            deterministic: experiment.move_time_ms.is_none()
                && !experiment
                    .agents
                    .iter()
                    .any(|a| a.time_ms.is_some() || a.external.is_some()),
            sandbox: SandboxMode::of(crate::external::sandbox::mode()),
            ..super::game_meta!(experiment, RunKind::Tables, options.threads)
        })?;
        let tables = Tables {
            experiment: &experiment,
            start: start_position,
            openings,
            schedule,
            broken: (0..factories.len()).map(|_| OnceLock::new()).collect(),
            factories,
            limits: TableLimits {
                max_plies: experiment.max_plies,
                move_time: experiment.move_time_ms.map(Duration::from_millis),
                stop: Some(super::interrupt_flag()),
                logs: Some(folder.join(super::games::LOGS_FOLDER)),
                no_moves: false,
            },
        };
        execute(&tables, &folder, meta, options)
    }
}
