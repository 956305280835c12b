//! meta.json: what a run is (its kind, its status, its format, its sandbox mode, as enums
//! written as the strings meta.json has always held), what it plays, where and when.

use crate::registry::InputError;
use serde::{Deserialize, Serialize};

/// meta.json's copy while it is written (then renamed over it).
pub const META_TEMPORARY: &str = "meta.json.tmp";

/// What a run does: the kind of its jobs and of its files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunKind {
    /// Games between agents (games.csv, summary.csv); a class run or a tournament in
    /// rounds too.
    #[default]
    Tournament,
    /// Algorithms compared on positions (search.csv).
    Search,
    /// Puzzle solvers (solves.csv).
    Puzzles,
    /// A tuning run (tune.csv, tune_games.csv).
    Tune,
    /// Games of two to six players at tables, seats rotated (tables.csv).
    Tables,
}

impl RunKind {
    /// The name meta.json and the commands use.
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Tournament => "tournament",
            RunKind::Search => "search",
            RunKind::Puzzles => "puzzles",
            RunKind::Tune => "tune",
            RunKind::Tables => "tables",
        }
    }

    /// What its jobs are called in a sentence: games, positions or solves.
    pub fn unit(self) -> &'static str {
        match self {
            RunKind::Search => "positions",
            RunKind::Puzzles => "solves",
            RunKind::Tournament | RunKind::Tune | RunKind::Tables => "games",
        }
    }

    /// Whether its jobs are games between agents (with colours, a first-move advantage).
    pub fn plays_games(self) -> bool {
        match self {
            RunKind::Tournament | RunKind::Tune => true,
            RunKind::Search | RunKind::Puzzles | RunKind::Tables => false,
        }
    }
}

impl std::fmt::Display for RunKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a run stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunStatus {
    /// Started and not ended (or ended by a kill: its lock is free).
    #[default]
    Running,
    /// Every planned job done.
    Complete,
    /// Stopped by a signal (Ctrl-C, SIGTERM).
    Interrupted,
    /// Stopped by a game or time limit, or an agent that could not start.
    Partial,
    /// Ended by an error (written by earlier versions only).
    Failed,
}

impl RunStatus {
    /// The name meta.json uses.
    pub fn name(self) -> &'static str {
        match self {
            RunStatus::Running => "running",
            RunStatus::Complete => "complete",
            RunStatus::Interrupted => "interrupted",
            RunStatus::Partial => "partial",
            RunStatus::Failed => "failed",
        }
    }
}

impl std::fmt::Display for RunStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A tournament in rounds' format (a run without one plays every matchup).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundsFormat {
    /// Swiss rounds.
    Swiss,
    /// Single elimination.
    Knockout,
}

impl RoundsFormat {
    /// The name meta.json and experiment files use.
    pub fn name(self) -> &'static str {
        match self {
            RoundsFormat::Swiss => "swiss",
            RoundsFormat::Knockout => "knockout",
        }
    }
}

impl std::fmt::Display for RoundsFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `--sandbox` as a run was started; a resume keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum SandboxMode {
    /// As each agent file says (not written to meta.json).
    #[default]
    #[serde(rename = "")]
    AsFiles,
    /// Every program sandboxed.
    #[serde(rename = "on")]
    On,
    /// No program sandboxed.
    #[serde(rename = "off")]
    Off,
}

impl SandboxMode {
    /// The mode of the run's choice (`None`: as each agent file says).
    pub fn of(choice: Option<bool>) -> SandboxMode {
        match choice {
            Some(true) => SandboxMode::On,
            Some(false) => SandboxMode::Off,
            None => SandboxMode::AsFiles,
        }
    }

    /// The value `--sandbox` takes for it (`None`: the flag not given).
    pub fn flag(self) -> Option<&'static str> {
        match self {
            SandboxMode::AsFiles => None,
            SandboxMode::On => Some("on"),
            SandboxMode::Off => Some("off"),
        }
    }

    fn is_as_files(&self) -> bool {
        *self == SandboxMode::AsFiles
    }
}

/// The contents of meta.json: what was run, how, where and when.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Meta {
    /// `tournament` (games between agents) or `search` (algorithms on positions).
    #[serde(default)]
    pub kind: RunKind,
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
    pub status: RunStatus,
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
    #[serde(default, skip_serializing_if = "SandboxMode::is_as_files")]
    pub sandbox: SandboxMode,
    /// A tournament in rounds: `swiss` or `knockout` (empty: every matchup is played).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<RoundsFormat>,
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
    pub fn starting(kind: RunKind, threads: usize) -> Meta {
        Meta {
            kind,
            threads,
            version: env!("CARGO_PKG_VERSION").to_string(),
            host: host_name(),
            started_unix: unix_now(),
            status: RunStatus::Running,
            ..Meta::default()
        }
    }

    /// Writes meta.json into `folder`, replacing it whole (written aside, then renamed).
    ///
    /// # Errors
    /// The file cannot be written; the message names the folder.
    pub fn write(&self, folder: &std::path::Path) -> std::io::Result<()> {
        let temporary = folder.join(META_TEMPORARY);
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
                InputError::in_file(folder, None, format!("cannot write meta.json: {e}")),
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
        self.status_text_as(self.status.name())
    }

    /// [`Meta::status_text`] with the status said as `status` (a run found stopped).
    pub fn status_text_as(&self, status: &str) -> String {
        match (self.shard, self.merged_from.len()) {
            (Some([index, count]), _) => format!("{status}, shard {index} of {count}"),
            (None, 0) => status.to_string(),
            (None, given) if self.partial => format!(
                "PARTIAL: merged from {given} of {} shards, games missing",
                self.shard_count
            ),
            (None, given) if self.played_after_merge > 0 => format!(
                "{status}, merged from {given} of {} shards, {} played here after the merge",
                self.shard_count, self.played_after_merge
            ),
            (None, given) => format!("{status}, merged from {given} shards"),
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
    pub fn check_seal(&self, folder: &std::path::Path) -> Result<(), InputError> {
        match &self.plan_checksum {
            Some(sealed) if *sealed != self.plan_digest() => Err(InputError::in_file(
                folder.join("meta.json"),
                None,
                "edited since the run started (what it plays no longer matches its plan_checksum): restore it, or start a new run",
            )),
            _ => Ok(()),
        }
    }

    /// Reads meta.json from `folder`.
    ///
    /// # Errors
    /// A message naming the file.
    pub fn read(folder: &std::path::Path) -> Result<Meta, InputError> {
        let path = folder.join("meta.json");
        let text = std::fs::read_to_string(&path)
            .map_err(|e| InputError::in_file(&path, None, format!("cannot read: {e}")))?;
        serde_json::from_str(&text)
            .map_err(|e| InputError::in_file(&path, None, format!("not arbiter's meta.json: {e}")))
    }
}
