//! What a run writes and how it is read back: meta.json (typed), the schema of each kind's
//! files, the sinks written during a run (games and moves, searches, solves, tuning,
//! rounds, the journal, the progress display) and [`loaded::LoadedRun`], a run folder
//! read once. May use core, stats, games, search, csp, registry and tournament; never
//! documents, experiment or cli.

mod csv_files;
pub mod fit;
pub mod grades;
pub mod journal;
pub mod ladder;
pub mod load;
pub mod loaded;
mod meta;
pub mod moves_rows;
pub mod pgn;
mod progress;
pub mod rounds;
pub mod rows;
pub mod sample;
pub mod scan;
pub mod schema;
pub mod search;
pub mod solves;
mod staged;
pub mod summary;
pub mod tables;
pub mod tally;
pub mod tune;

pub use csv_files::{CsvRecorder, TIMING_COLUMNS, write_table};
pub use load::games_csv_moves;
pub use meta::{
    META_TEMPORARY, Meta, RoundsFormat, RunKind, RunStatus, SandboxMode, host_name, unix_now,
    utc_stamp, utc_time,
};
pub use progress::{Progress, Watch, output_closed, say};
pub use summary::{Summary, SummaryRow, elo_text, read_summary};

use crate::core::{Player, json};
use crate::tournament::GameJob;
use std::io;

/// What a finished job of any kind of run records: a value with the job's id (its place
/// in the run's plan) that the journal can write and read back.
pub trait JobRecord: serde::Serialize + serde::de::DeserializeOwned + Send {
    /// The job's id.
    fn id(&self) -> u64;

    /// Appends the record as JSON to `out` (its journal line): serde_json's bytes.
    ///
    /// # Errors
    /// The record cannot be written as JSON.
    fn write_json(&self, out: &mut Vec<u8>) -> io::Result<()> {
        serde_json::to_writer(out, self).map_err(io::Error::other)
    }
}

/// Receives a run's finished jobs, in plan order whatever the thread count.
pub trait Reporter<R> {
    /// Before the first job: how many jobs the plan holds.
    fn started(&mut self, _total: usize) -> io::Result<()> {
        Ok(())
    }

    /// A job finished.
    fn finished(&mut self, _record: &R) -> io::Result<()> {
        Ok(())
    }

    /// A job finished in an earlier invocation of a resumed run, handed back in its place
    /// in plan order. Default: as [`Reporter::finished`].
    fn replayed(&mut self, record: &R) -> io::Result<()> {
        self.finished(record)
    }

    /// A planned job that will not run: its group (a game's matchup) was decided early.
    fn skipped(&mut self, _id: u64) -> io::Result<()> {
        Ok(())
    }

    /// After the last job, or after a stop once every finished job is in.
    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        Ok(())
    }

    /// The standings so far as lines for a person (a game run's score, Elo and LLR per
    /// matchup), if this reporter keeps them. Default: none.
    fn standings(&self) -> Vec<String> {
        Vec::new()
    }

    /// A line to show the person running (progress displays print it). Default: ignored.
    fn show_line(&mut self, _line: &str) {}

    /// What a report takes of the games, as counted by the reporter that wrote games.csv
    /// (once it ended), so the run's report need not read the file back. Default: none,
    /// and the report reads the files.
    fn take_tally(&mut self) -> Option<load::GamesTally> {
        None
    }
}

/// Feeds `inner` and, every `every` newly finished jobs (0: never), shows the standings
/// that one of its reporters keeps through the others (the progress display).
pub struct WithStandings<'a, R> {
    /// The reporters.
    pub inner: Reporters<'a, R>,
    /// Jobs between two standings.
    pub every: usize,
    /// Jobs finished in this invocation.
    pub count: usize,
}

impl<R> Reporter<R> for WithStandings<'_, R> {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.inner.started(total)
    }
    fn finished(&mut self, record: &R) -> io::Result<()> {
        self.inner.finished(record)?;
        self.count += 1;
        if self.every > 0 && self.count.is_multiple_of(self.every) {
            let lines = self.inner.standings();
            for line in lines {
                self.inner.show_line(&line);
            }
        }
        Ok(())
    }
    fn replayed(&mut self, record: &R) -> io::Result<()> {
        self.inner.replayed(record)
    }
    fn skipped(&mut self, id: u64) -> io::Result<()> {
        self.inner.skipped(id)
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.inner.ended(outcome)
    }
}

/// Several reporters fed the same events, in order.
pub struct Reporters<'a, R>(pub Vec<&'a mut dyn Reporter<R>>);

impl<R> Reporter<R> for Reporters<'_, R> {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.started(total))
    }
    fn finished(&mut self, record: &R) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.finished(record))
    }
    fn replayed(&mut self, record: &R) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.replayed(record))
    }
    fn skipped(&mut self, id: u64) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.skipped(id))
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.ended(outcome))
    }
    fn standings(&self) -> Vec<String> {
        self.0.iter().flat_map(|r| r.standings()).collect()
    }
    fn show_line(&mut self, line: &str) {
        self.0.iter_mut().for_each(|r| r.show_line(line));
    }
}

impl<R, T: Reporter<R> + ?Sized> Reporter<R> for Box<T> {
    fn started(&mut self, total: usize) -> io::Result<()> {
        (**self).started(total)
    }
    fn finished(&mut self, record: &R) -> io::Result<()> {
        (**self).finished(record)
    }
    fn replayed(&mut self, record: &R) -> io::Result<()> {
        (**self).replayed(record)
    }
    fn skipped(&mut self, id: u64) -> io::Result<()> {
        (**self).skipped(id)
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        (**self).ended(outcome)
    }
    fn standings(&self) -> Vec<String> {
        (**self).standings()
    }
    fn show_line(&mut self, line: &str) {
        (**self).show_line(line);
    }
    fn take_tally(&mut self) -> Option<load::GamesTally> {
        (**self).take_tally()
    }
}

/// How a run (one invocation) ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Jobs finished and reported (including those of an earlier, resumed invocation).
    pub played: usize,
    /// Jobs skipped because their group was decided early.
    pub skipped: usize,
    /// Jobs planned.
    pub total: usize,
    /// Whether the run stopped before every job was finished or skipped.
    pub cancelled: bool,
}

impl crate::records::JobRecord for crate::tournament::GameRecord {
    fn id(&self) -> u64 {
        self.job.id
    }

    /// The bytes serde_json writes (a test compares them), with the keys written as they
    /// are: serde_json escaped every key of every game, a tenth of the time of the thread
    /// that records a run of fast games. Numbers and strings are written by `core::json`
    /// (serde_json's bytes); non-zero search counts and per-move records still go through
    /// serde_json. A field added to `GameRecord`, `GameJob` or `SideRecord` must be added
    /// here too.
    fn write_json(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let job = &self.job;
        out.extend_from_slice(b"{\"job\":{\"id\":");
        json::push_u64(out, job.id);
        out.extend_from_slice(b",\"matchup\":");
        json::push_u64(out, job.matchup as u64);
        out.extend_from_slice(b",\"game_index\":");
        json::push_u64(out, job.game_index);
        out.extend_from_slice(b",\"pair\":");
        json::push_u64(out, job.pair);
        out.extend_from_slice(b",\"seed\":");
        json::push_u64(out, job.seed);
        out.extend_from_slice(b",\"agents\":[");
        json::push_u64(out, job.agents[0] as u64);
        out.push(b',');
        json::push_u64(out, job.agents[1] as u64);
        out.extend_from_slice(if job.first_is_p1 {
            b"],\"first_is_p1\":true},\"winner\":"
        } else {
            b"],\"first_is_p1\":false},\"winner\":"
        });
        match self.winner {
            Some(winner) => json::push_str(out, winner.label()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"reason\":");
        json::push_str(out, &self.reason);
        if !self.opening.is_empty() {
            out.extend_from_slice(b",\"opening\":");
            json::push_str(out, &self.opening);
        }
        out.extend_from_slice(b",\"plies\":");
        json::push_u64(out, u64::from(self.plies));
        out.extend_from_slice(b",\"sides\":[");
        for (i, side) in self.sides.0.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            if side.stats.is_zero() {
                out.extend_from_slice(b"{\"moves\":");
                json::push_u64(out, u64::from(side.moves));
                out.extend_from_slice(b",\"nanos\":");
                json::push_u64(out, side.nanos);
                out.extend_from_slice(b",\"captures\":");
                json::push_u64(out, u64::from(side.captures));
                out.push(b'}');
            } else {
                serde_json_into(out, side)?;
            }
        }
        out.push(b']');
        // The moves' records are moves.csv's rows, written beside this line: counted,
        // not repeated, so that a run's journal stays a fraction of its files.
        let move_rows = self.move_rows as usize + self.moves.len();
        if move_rows > 0 {
            out.extend_from_slice(b",\"move_rows\":");
            json::push_u64(out, move_rows as u64);
        }
        if !self.chance.is_empty() {
            out.extend_from_slice(b",\"chance\":[");
            for (i, ply) in self.chance.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json::push_u64(out, u64::from(*ply));
            }
            out.push(b']');
        }
        if !self.move_text.is_empty() {
            out.extend_from_slice(b",\"move_text\":");
            json::push_str(out, &self.move_text);
        }
        out.push(b'}');
        Ok(())
    }
}

/// Appends `value` as serde_json writes it.
fn serde_json_into<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::other)
}

/// What the sinks need to know of a run besides its games: names, not types.
#[derive(Clone, Debug)]
pub struct RunContext {
    /// The game spec, e.g. `breakthrough(rules=long)`.
    pub game: String,
    /// The rule set or variant, e.g. `long`.
    pub variant: String,
    /// Agent display names, by agent index.
    pub agents: Vec<String>,
    /// Each matchup's two agents, as listed.
    pub matchups: Vec<[usize; 2]>,
    /// The sequential test and which matchups it applies to (empty: none).
    pub sprt: Option<crate::stats::elo::Sprt>,
    /// Per matchup: whether the SPRT applies.
    pub sequential: Vec<bool>,
    /// Whether matchups that played no game are left out of the summary: a tournament in
    /// rounds plans every pair of its players, and most never meet (a 200-player Swiss
    /// wrote 39,800 summary rows for the 800 pairs that played).
    pub played_only: bool,
    /// The experiment's name (games.pgn's first line).
    pub experiment: String,
}

impl RunContext {
    /// A context with no sequential test.
    pub fn new(
        game: String,
        variant: String,
        agents: Vec<String>,
        matchups: Vec<[usize; 2]>,
    ) -> RunContext {
        RunContext {
            game,
            variant,
            agents,
            matchups,
            sprt: None,
            sequential: Vec::new(),
            played_only: false,
            experiment: String::new(),
        }
    }

    /// The agent name in `player`'s seat of `job`.
    pub fn agent_name(&self, job: &GameJob, player: Player) -> &str {
        &self.agents[job.agent(player)]
    }

    /// `a vs b` for a matchup.
    pub fn matchup_label(&self, matchup: usize) -> String {
        let [a, b] = self.matchups[matchup];
        format!("{} vs {}", self.agents[a], self.agents[b])
    }
}

/// Milliseconds from nanoseconds.
pub(crate) fn millis(nanos: u64) -> f64 {
    nanos as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::{utc_stamp, utc_time};

    #[test]
    fn a_game_s_journal_line_reads_back_as_the_game_and_counts_its_moves() {
        use super::JobRecord;
        use crate::core::{ByPlayer, FaultReason, Player};
        use crate::games::breakthrough::{Breakthrough, Rules};
        use crate::registry::{AgentSpec, Colours};
        use crate::tournament::{MatchupPlan, PlayLimits, Schedule, play_from};
        let start = Breakthrough::new(Rules::Standard);
        let specs = [
            "random",
            "alphabeta(heuristic=defense,depth=2)",
            "mcts(iterations=50)",
        ];
        let factories: Vec<_> = specs
            .iter()
            .map(|spec| {
                let spec: AgentSpec = spec.parse().expect("valid");
                spec.factory(&start).expect("builds")
            })
            .collect();
        let plans = [[0, 0], [0, 1], [1, 2], [2, 1]]
            .into_iter()
            .map(|agents| MatchupPlan {
                agents,
                seed_key: 0,
                games: 2,
            })
            .collect();
        let schedule = Schedule::new(5, plans, Colours::Alternate);
        let mut records = Vec::new();
        for id in 0..schedule.len() {
            let job = schedule.job(id);
            for no_moves in [false, true] {
                let mut seats = crate::tournament::seat_agents(&factories, &job);
                let limits = PlayLimits {
                    max_plies: 40 + 30 * (id as u32 % 2),
                    no_moves,
                    ..PlayLimits::default()
                };
                let record = play_from(start, String::new(), job, &mut seats, &limits);
                records.push(record.expect("no stop flag"));
            }
        }
        // What games of other runs hold: an opening, a draw, a reason to escape, faults,
        // clocks and CPU times, a side whose counts are its own report.
        let mut odd = records[3].clone();
        odd.opening = "a2-a3;h7-h6".to_string();
        odd.winner = None;
        odd.reason = "a \"quoted\" reason\\ with\nbreaks".to_string().into();
        odd.move_text.push_str(" é");
        odd.job.first_is_p1 = !odd.job.first_is_p1;
        if let Some(first) = odd.moves.first_mut() {
            first.fault = Some(FaultReason::IllegalMove);
            first.cpu_nanos = Some(1_234_567);
            first.clock_nanos = Some(0);
            first.self_reported = true;
            first.value = Some(-0.1);
        }
        odd.sides = ByPlayer([odd.sides[Player::P2], odd.sides[Player::P1]]);
        // A game where chance acted at some plies.
        odd.chance = vec![0, 3, 7];
        records.push(odd);
        let mut counted = 0;
        for record in &records {
            counted += usize::from(!record.sides[Player::P1].stats.is_zero());
            let mut line = Vec::new();
            record.write_json(&mut line).expect("written");
            let back: crate::tournament::GameRecord =
                serde_json::from_slice(&line).expect("reads back");
            // The moves' records are moves.csv's rows: the line counts them.
            let mut expected = record.clone();
            expected.move_rows = record.moves.len() as u32;
            expected.moves.clear();
            assert_eq!(
                serde_json::to_value(&back).expect("value"),
                serde_json::to_value(&expected).expect("value"),
                "{}",
                String::from_utf8_lossy(&line)
            );
            let text = String::from_utf8_lossy(&line);
            assert!(!text.contains("\"moves\":["), "{text}");
            assert_eq!(
                text.contains("\"move_rows\":"),
                !record.moves.is_empty(),
                "{text}"
            );
            // A line read back (a game replayed) is written again as it was.
            let mut again = Vec::new();
            back.write_json(&mut again).expect("written");
            assert_eq!(again, line);
        }
        assert!(counted > 0 && counted < records.len(), "{counted}");
        assert!(records.iter().any(|r| r.moves.is_empty()));
        assert!(records.iter().any(|r| r.winner.is_none()));
    }

    #[test]
    fn utc_stamps_and_times_are_calendar_dates() {
        assert_eq!(utc_stamp(0), "19700101-000000");
        assert_eq!(utc_stamp(951_782_400), "20000229-000000");
        assert_eq!(utc_stamp(1_795_323_723), "20261122-050203");
        assert_eq!(utc_time(1_795_323_723), "2026-11-22 05:02:03 UTC");
        assert_eq!(utc_time(4_107_542_399), "2100-02-28 23:59:59 UTC");
    }
}
