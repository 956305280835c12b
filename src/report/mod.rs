//! Sinks for a run's events and everything made from what they wrote: CSV files, the
//! journal, the progress display, meta.json, summary tables, charts, report.md/index.html.
//! May use core, stats, games, search, csp, registry and tournament; never experiment or
//! cli. Everything here is a [`Reporter`] or reads what one wrote.

pub mod charts;
mod csv_files;
pub mod document;
mod drawings;
pub mod fit;
pub mod journal;
pub mod ladder;
pub mod load;
mod progress;
pub mod puzzles;
pub mod records;
pub mod reproduce;
mod scaling;
pub mod search;
pub mod show;
mod staged;
pub mod summary;
pub mod table;
pub mod tally;
pub mod tune;
pub mod viewer;

pub use csv_files::{CsvRecorder, TIMING_COLUMNS};
pub use progress::{Progress, Watch, output_closed, say};
pub use summary::{Summary, SummaryRow, elo_text, format_summary, read_summary, summary_table};

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

impl crate::report::JobRecord for crate::tournament::GameRecord {
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
        if !self.moves.is_empty() {
            out.extend_from_slice(b",\"moves\":[");
            for (i, mv) in self.moves.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                mv.write_compact(out);
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

/// The contents of meta.json: what was run, how, where and when.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// `tournament` (games between agents) or `search` (algorithms on positions).
    #[serde(default = "tournament_kind")]
    pub kind: String,
    /// Experiment name.
    pub experiment: String,
    /// Experiment description.
    pub description: String,
    /// The experiment file's path as given.
    pub experiment_file: String,
    /// The experiment file's text.
    pub experiment_source: String,
    /// The game spec.
    pub game: String,
    /// For a game served by a program: its declared name and how to run it, so that a
    /// resume or a report needs no agent file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_program: Option<(String, crate::external::rules::RulesSpec)>,
    /// The experiment seed in force (after `--seed`).
    pub seed: u64,
    /// Games per matchup in force (after `--games`).
    pub games_per_matchup: u64,
    /// Colour policy.
    pub colours: String,
    /// Ply cap.
    pub max_plies: u32,
    /// Agents: display name and full spec.
    pub agents: Vec<(String, String)>,
    /// Matchup labels.
    pub matchups: Vec<String>,
    /// Worker threads.
    pub threads: usize,
    /// arbiter's version.
    pub version: String,
    /// The machine's name.
    pub host: String,
    /// Start, seconds since the Unix epoch (UTC).
    pub started_unix: u64,
    /// End, seconds since the Unix epoch, once ended.
    pub ended_unix: Option<u64>,
    /// `running`, `complete`, `interrupted` (by a signal), `partial` (stopped by a game or
    /// time limit, or an agent that could not start) or `failed`.
    pub status: String,
    /// Games scheduled.
    pub games_total: usize,
    /// Games played and written.
    pub games_played: usize,
    /// Whether the same experiment reproduces the same files (timing columns aside):
    /// true unless a wall-clock budget was in force.
    pub deterministic: bool,
    /// Columns that hold wall-clock times and differ between runs.
    pub timing_columns: Vec<String>,
    /// The experiment's parameter sweeps (for their chart).
    #[serde(default)]
    pub sweeps: Vec<crate::registry::SweepInfo>,
    /// The sequential test, if any.
    #[serde(default)]
    pub sprt: Option<crate::stats::elo::Sprt>,
    /// `--sandbox` as the run was started: `on` (every program sandboxed), `off` (none),
    /// or empty (as each agent file says); a resume keeps it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sandbox: String,
    /// A tournament in rounds: `swiss` or `knockout` (empty: every matchup is played).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// How many times the run was resumed.
    #[serde(default)]
    pub resumed: u32,
    /// Whether moves.csv was left out (`moves_csv = false` or `run --no-moves`).
    #[serde(default)]
    pub no_moves_csv: bool,
    /// A checksum of what the run plays (kind, experiment text, seed, counts, agents), so
    /// that a hand-edited meta.json is refused on resume instead of mixing two plans.
    #[serde(default)]
    pub plan_checksum: Option<String>,
    /// For one shard of a run spread over machines (`run --shard I/N`): `[I, N]`, I from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<[u64; 2]>,
    /// For a shard: the whole experiment's checksum, the same on every shard of it
    /// ([`Meta::experiment_digest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experiment_checksum: Option<String>,
    /// For a merged run: the shard folders it was merged from, and whether some of their
    /// jobs are missing (`merge --partial`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
    /// Whether a merged run lacks some shards' jobs (`merge --partial`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    /// For a merged run: the number of shards the plan was split into.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub shard_count: u64,
    /// For a merged run: the jobs played by resuming it after the merge (the ones the
    /// shards lacked), not on the shards.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub played_after_merge: u64,
    /// A class's submissions that do not play, each with why (as of the latest start or
    /// resume: a fixed submission plays once resumed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<crate::registry::submissions::LeftOut>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// 64-bit FNV-1a of `bytes`: stable across versions and platforms (the checksum of
/// meta.json's plan).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn tournament_kind() -> String {
    "tournament".to_string()
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::UNIX_EPOCH.elapsed().map_or(0, |d| d.as_secs())
}

/// Year, month, day, hour, minute, second in UTC for Unix seconds (civil-from-days,
/// proleptic Gregorian calendar).
fn utc_parts(seconds: u64) -> [u64; 6] {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    [
        year as u64,
        month as u64,
        day as u64,
        rest / 3600,
        rest / 60 % 60,
        rest % 60,
    ]
}

/// `YYYYMMDD-HHMMSS` in UTC for Unix seconds (run folder names).
pub fn utc_stamp(seconds: u64) -> String {
    let [y, mo, d, h, mi, s] = utc_parts(seconds);
    format!("{y:04}{mo:02}{d:02}-{h:02}{mi:02}{s:02}")
}

/// `YYYY-MM-DD HH:MM:SS UTC` for Unix seconds (reports).
pub fn utc_time(seconds: u64) -> String {
    let [y, mo, d, h, mi, s] = utc_parts(seconds);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02} UTC")
}

/// The machine's name for meta.json.
pub fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".to_string())
}

impl Meta {
    /// A run of `kind` starting now on `threads` threads: version, host and start time are
    /// filled in and the status is `running`; the caller fills in what is run.
    pub fn starting(kind: &str, threads: usize) -> Meta {
        Meta {
            kind: kind.to_string(),
            threads,
            version: env!("CARGO_PKG_VERSION").to_string(),
            host: host_name(),
            started_unix: unix_now(),
            status: "running".to_string(),
            ..Meta::default()
        }
    }

    /// Writes meta.json into `folder`, replacing it whole (written aside, then renamed).
    ///
    /// # Errors
    /// The file cannot be written; the message names the folder.
    pub fn write(&self, folder: &std::path::Path) -> std::io::Result<()> {
        let temporary = folder.join("meta.json.tmp");
        let write = || -> std::io::Result<()> {
            let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
            std::fs::write(&temporary, text + "\n")?;
            std::fs::rename(&temporary, folder.join("meta.json"))
        };
        write().map_err(|e| {
            // The old meta.json stays; no half-written copy beside it (a full disk).
            let _ = std::fs::remove_file(&temporary);
            std::io::Error::new(
                e.kind(),
                format!("{}: cannot write meta.json: {e}", folder.display()),
            )
        })
    }

    /// The checksum of what the run plays (see `plan_checksum`), its shard included.
    fn plan_digest(&self) -> String {
        let whole = self.digest(true);
        match self.shard {
            None => whole,
            Some(shard) => format!("{:016x}", fnv1a(format!("{whole}/{shard:?}").as_bytes())),
        }
    }

    /// The checksum of the whole experiment's plan, equal for all its shards wherever
    /// they ran (the experiment file's path aside).
    pub fn experiment_digest(&self) -> String {
        self.digest(false)
    }

    fn digest(&self, with_path: bool) -> String {
        let path = if with_path {
            self.experiment_file.as_str()
        } else {
            ""
        };
        let plan = serde_json::json!([
            self.kind,
            self.experiment,
            path,
            self.experiment_source,
            self.game,
            self.seed,
            self.games_per_matchup,
            self.colours,
            self.max_plies,
            self.agents,
            self.matchups,
            self.sweeps,
            self.sprt,
            self.no_moves_csv,
        ]);
        format!("{:016x}", fnv1a(plan.to_string().as_bytes()))
    }

    /// The status with what a reader must know with it: a shard's place in its split, a
    /// merge, a partial merge.
    pub fn status_text(&self) -> String {
        match (self.shard, self.merged_from.len()) {
            (Some([index, count]), _) => format!("{}, shard {index} of {count}", self.status),
            (None, 0) => self.status.clone(),
            (None, given) if self.partial => format!(
                "PARTIAL: merged from {given} of {} shards, games missing",
                self.shard_count
            ),
            (None, given) if self.played_after_merge > 0 => format!(
                "{}, merged from {given} of {} shards, {} played here after the merge",
                self.status, self.shard_count, self.played_after_merge
            ),
            (None, given) => format!("{}, merged from {given} shards", self.status),
        }
    }

    /// Records the checksum of the plan, once, when the run starts.
    pub fn seal(&mut self) {
        self.plan_checksum = Some(self.plan_digest());
    }

    /// Checks that the plan still matches its checksum (runs from before checksums pass).
    ///
    /// # Errors
    /// A message naming the file when meta.json was edited.
    pub fn check_seal(&self, folder: &std::path::Path) -> Result<(), String> {
        match &self.plan_checksum {
            Some(sealed) if *sealed != self.plan_digest() => Err(format!(
                "{}: edited since the run started (what it plays no longer matches its plan_checksum): restore it, or start a new run",
                folder.join("meta.json").display()
            )),
            _ => Ok(()),
        }
    }

    /// Reads meta.json from `folder`.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn read(folder: &std::path::Path) -> Result<Meta, String> {
        let path = folder.join("meta.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{}: not arbiter's meta.json: {e}", path.display()))
    }
}

/// What a reader must know about a game run's numbers besides the tables: colours never
/// swapped (the first-move advantage is in every Elo), or a run stopped before its end.
pub fn reading_notes(meta: &Meta) -> Vec<String> {
    let mut notes = Vec::new();
    if meta.colours == "as-listed" && meta.kind != "puzzles" && meta.kind != "search" {
        notes.push("Colours as listed: the first agent of each matchup always moved first, so its win rate, Elo and the ratings include the first-move advantage (use colours = \"alternate\" to cancel it).".to_string());
    }
    if meta.status == "partial" || meta.status == "interrupted" {
        notes.push(format!(
            "Partial: {} of {} games played (the run was {}); matchups without games are marked not played. `arbiter run --resume` on this folder plays the rest.",
            meta.games_played,
            meta.games_total,
            if meta.status == "partial" {
                "stopped by a game or time limit, or an agent that could not start"
            } else {
                "interrupted"
            }
        ));
    }
    notes
}

/// A sentence naming the run's external agents, whose counts are their own report, if any.
pub fn external_note(meta: &Meta) -> Option<String> {
    let names: Vec<&str> = meta
        .agents
        .iter()
        .filter(|(_, spec)| crate::registry::is_external_spec(spec))
        .map(|(name, _)| name.as_str())
        .collect();
    (!names.is_empty()).then(|| {
        let names = names.join(", ");
        if meta.kind == "search" {
            format!(
                "External programs: {names}. Their expanded nodes are what they reported, not counted by arbiter (nothing per level, so no evaluated count or branching factor); they evaluate positions their own way, so their values are not compared and 'same move' only says how often they chose the reference's move; their ms include the pipe and their stderr is in logs/."
            )
        } else {
            format!(
                "External programs: {names}. Their nodes and depth are what they reported (self_reported in moves.csv), not counted by arbiter; their ms per move include the pipe; their failures are game reasons (timeout, stall, crash, illegal_move, bad_output, startup_failure; memory, processes, cpu_time, output in a sandbox) and their stderr is in logs/."
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{utc_stamp, utc_time};

    #[test]
    fn a_game_s_journal_line_reads_back_as_the_game_and_its_moves_are_compact() {
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
        records.push(odd);
        let mut counted = 0;
        for record in &records {
            counted += usize::from(!record.sides[Player::P1].stats.is_zero());
            let mut line = Vec::new();
            record.write_json(&mut line).expect("written");
            let back: crate::tournament::GameRecord =
                serde_json::from_slice(&line).expect("reads back");
            assert_eq!(
                serde_json::to_value(&back).expect("value"),
                serde_json::to_value(record).expect("value"),
                "{}",
                String::from_utf8_lossy(&line)
            );
            // Each move an array of numbers, not an object of names: a fifth of the bytes.
            if !record.moves.is_empty() {
                let objects = serde_json::to_vec(record).expect("serialises");
                assert!(
                    line.len() * 2 < objects.len(),
                    "{} of {}",
                    line.len(),
                    objects.len()
                );
            }
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

    #[test]
    fn readers_are_told_of_fixed_colours_and_of_partial_runs() {
        let mut meta = super::Meta::starting("tournament", 1);
        meta.colours = "alternate".to_string();
        meta.status = "complete".to_string();
        assert!(super::reading_notes(&meta).is_empty());
        meta.colours = "as-listed".to_string();
        let notes = super::reading_notes(&meta);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("first-move advantage"), "{notes:?}");
        meta.status = "partial".to_string();
        (meta.games_played, meta.games_total) = (3, 10);
        let notes = super::reading_notes(&meta);
        assert!(
            notes[1].starts_with("Partial: 3 of 10 games played"),
            "{notes:?}"
        );
        meta.status = "interrupted".to_string();
        assert!(super::reading_notes(&meta)[1].contains("was interrupted"));
        // Puzzle runs have no colours.
        meta.kind = "puzzles".to_string();
        meta.status = "complete".to_string();
        assert!(super::reading_notes(&meta).is_empty());
    }
}
