//! Experiment files (`matchups/*.toml`): a game, agents paired in matchups, how many
//! games, the seed and the colour policy.

mod sections;
pub(crate) use sections::Located;

use super::reference::{ReferenceKind, checked_references};
use super::spec::{Spec, list_values};
use super::submissions::Submissions;
use super::{AgentFactory, AgentRegistry, AgentSpec, GameEntry, GameSpec, InputError};
use super::{line_of_key, line_of_string, toml_error};
use crate::core::{Adjudication, ScoreRule, TimeControl};
use crate::registry::spec::SpecError;
use crate::stats::elo::{EloModel, Sprt};
use sections::{Roster, clocks, counts, listed_matchups, players, rounds, submitted, sweeps};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Games per matchup when the file does not say.
pub const DEFAULT_GAMES: u64 = 100;
/// The most games per matchup accepted.
pub const MAX_GAMES: u64 = 10_000_000;
/// The harness's safety cap on game length (adjudicated a draw) when the file does not say.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// Who plays P1 in each game of a matchup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// The matchup's two agents take turns as P1: the first in even games, the second in
    /// odd games (so each plays P1 in half the games).
    Alternate,
    /// The first agent listed always plays P1, as in the reports' tables.
    AsListed,
}

impl Colours {
    /// The name in experiment files.
    pub fn name(self) -> &'static str {
        match self {
            Colours::Alternate => "alternate",
            Colours::AsListed => "as-listed",
        }
    }
}

/// One matchup: two agents (indices into [`Experiment::agents`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchupSpec {
    /// The two agents, in the order written.
    pub agents: [usize; 2],
    /// The key its games' seeds derive from: its index, except in sweeps, where every
    /// variant meets an opponent with the same seeds (a paired comparison).
    pub seed_key: u64,
    /// Whether the experiment's SPRT may stop it early (every matchup but sweeps').
    pub sequential: bool,
}

/// A tournament format played in rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Swiss rounds.
    Swiss {
        /// Rounds to play.
        rounds: u32,
    },
    /// Single elimination.
    Knockout {
        /// Extra games a level match may play, one at a time.
        tiebreak: u64,
    },
}

/// The most rounds a Swiss of `players` can play without two players meeting twice.
pub fn most_swiss_rounds(players: usize) -> u32 {
    if players.is_multiple_of(2) {
        players.saturating_sub(1) as u32
    } else {
        players as u32
    }
}

/// A tournament in rounds: Swiss or knockout (see `tournament::rounds`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundsSpec {
    /// Swiss (with its rounds) or knockout (with its tie-break games).
    pub format: Format,
    /// The players (indices into the experiment's agents).
    pub players: Vec<usize>,
    /// Games a pairing (Swiss) or a match before tie-breaks (knockout).
    pub games: u64,
}

impl RoundsSpec {
    /// `swiss` or `knockout`.
    pub fn name(&self) -> &'static str {
        match self.format {
            Format::Swiss { .. } => "swiss",
            Format::Knockout { .. } => "knockout",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SwissTable {
    rounds: i64,
    games: Option<i64>,
    #[serde(default)]
    players: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnockoutTable {
    games: Option<i64>,
    tiebreak: Option<i64>,
    #[serde(default)]
    players: Vec<String>,
}

/// Where the games of an experiment start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSpec {
    /// The game's start position.
    Start,
    /// N random plies from the start, drawn from each pair's seed.
    RandomPlies(u32),
    /// A file of openings: one per line, moves in notation separated by `;`.
    File(PathBuf),
}

/// One parameter sweep: its varied key, values, variant agents and opponents (names).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SweepInfo {
    /// The keys that vary, comma-separated.
    pub key: String,
    /// Its values as written (for a grid, each combination as `a=1,b=2`).
    pub values: Vec<String>,
    /// The variant agents' names, in value order.
    pub variants: Vec<String>,
    /// The opponents' names.
    pub opponents: Vec<String>,
}

/// A validated experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The experiment's name (the file's stem unless `name` is set): the results folder.
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// The file's text, kept for meta.json.
    pub source: String,
    /// The game and its parameters.
    pub game: GameSpec,
    /// Games per matchup.
    pub games_per_matchup: u64,
    /// The experiment seed.
    pub seed: u64,
    /// The colour policy.
    pub colours: Colours,
    /// Plies after which a game is stopped and scored a draw.
    pub max_plies: u32,
    /// Distinct agents, in order of first appearance.
    pub agents: Vec<AgentSpec>,
    /// Each agent as written in the file (a registered name or an inline spec).
    pub agent_texts: Vec<String>,
    /// The matchups: explicit pairs, then the round robin's pairs, the gauntlet's and the
    /// sweeps'.
    pub matchups: Vec<MatchupSpec>,
    /// Where games start.
    pub openings: OpeningSpec,
    /// The sequential test that may stop matchups early, with the games a matchup under
    /// it may play at most.
    pub sprt: Option<(Sprt, u64)>,
    /// The sweeps (for their chart).
    pub sweeps: Vec<SweepInfo>,
    /// Per-move time limit in milliseconds, enforced with the game's forfeit rule.
    pub move_time_ms: Option<u64>,
    /// Game clocks of the first and the second listed agent of every matchup.
    pub time_control: Option<[TimeControl; 2]>,
    /// Whether the clocks run on CPU time (external programs) instead of wall time.
    pub cpu_clock: bool,
    /// Resign and draw rules from the agents' scores (off by default).
    pub adjudication: Adjudication,
    /// The agents found in `agents_dir` (checked before the run; they join the round
    /// robin, or the Swiss or knockout).
    pub submissions: Vec<String>,
    /// A tournament in rounds (`swiss` or `knockout`): its format, players (agent
    /// indices, in order) and games a pairing; the matchups are then every pair of
    /// players, played as the rounds pair them.
    pub rounds: Option<RoundsSpec>,
    /// The submission folders left out, one line each with the reason.
    pub left_out: Vec<super::submissions::LeftOut>,
    /// Whether to write moves.csv (a row per move; most of a big run's bytes).
    pub moves_csv: bool,
    /// Duplicate play (the default): in a game with chance, the two games of a pair, colours
    /// swapped, get the same chance outcomes; `false`: each game its own.
    pub duplicate: bool,
    /// Grade every move against perfect play once the games are played (`grade = true`).
    pub grade: Option<GradeSettings>,
}

/// How hard `grade` works on each position (`arbiter grade`'s options, `grade = { ... }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GradeSettings {
    /// The most positions the solver may visit for one position (beyond: not graded).
    pub visits: u64,
    /// The most each game's solver table may take, in MB.
    pub megabytes: usize,
    /// Whether each position's plies to the end under perfect play are measured too (the
    /// solver then looks for the fastest win, often more work): does a winning agent win
    /// the fastest way.
    pub distances: bool,
}

impl Default for GradeSettings {
    fn default() -> GradeSettings {
        GradeSettings {
            visits: 1_000_000,
            megabytes: 64,
            distances: false,
        }
    }
}

/// The grading of `grade = true` (the defaults), `false` (none) or `{ visits = N, tt_mb =
/// MB, distances = true }`.
fn grade_spec(value: &toml::Value) -> Result<Option<GradeSettings>, SpecError> {
    let wrong = |what: String| SpecError::at("grade", what);
    match value {
        toml::Value::Boolean(on) => Ok(on.then(GradeSettings::default)),
        toml::Value::Table(table) => {
            let mut settings = GradeSettings::default();
            for (key, value) in table {
                if key == "distances" {
                    settings.distances = value.as_bool().ok_or_else(|| {
                        wrong(format!("grade: distances = {value}: give true or false"))
                    })?;
                    continue;
                }
                let number = value.as_integer().filter(|&n| n >= 1);
                match (key.as_str(), number) {
                    ("visits", Some(n)) => settings.visits = n as u64,
                    ("tt_mb", Some(n)) if n <= 65_536 => settings.megabytes = n as usize,
                    ("visits", None) => {
                        return Err(wrong(format!(
                            "grade: visits = {value}: give the most positions to visit per position, 1 or more"
                        )));
                    }
                    ("tt_mb", _) => {
                        return Err(wrong(format!(
                            "grade: tt_mb = {value}: give the table's size in MB, 1 to 65536"
                        )));
                    }
                    (other, _) => {
                        return Err(wrong(format!(
                            "grade: unknown key '{other}' (expected visits, tt_mb or distances)"
                        )));
                    }
                }
            }
            Ok(Some(settings))
        }
        other => Err(wrong(format!(
            "grade = {other}: expected true, false or {{ visits = 1000000, tt_mb = 64, distances = false }}"
        ))),
    }
}

/// The positions the oracle (`adjudicate = { oracle = true }`) may visit per move unless
/// `oracle_visits` says otherwise.
pub const DEFAULT_ORACLE_VISITS: i64 = 100_000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AdjudicateTable {
    resign_score: Option<f64>,
    resign_moves: Option<i64>,
    draw_score: Option<f64>,
    draw_moves: Option<i64>,
    draw_after: Option<i64>,
    oracle: Option<bool>,
    oracle_visits: Option<i64>,
    oracle_after: Option<i64>,
}

/// An `adjudicate` setting `name` = the ply a rule applies from (0 when not given), which
/// needs its rule (`rule_given`, named by `rule`).
fn from_ply(name: &str, ply: Option<i64>, rule_given: bool, rule: &str) -> Result<u32, SpecError> {
    match ply {
        None => Ok(0),
        Some(_) if !rule_given => Err(SpecError::at(
            "adjudicate",
            format!("adjudicate: {name} without {rule}"),
        )),
        Some(ply) if (0..=1_000_000).contains(&ply) => Ok(ply as u32),
        Some(ply) => Err(SpecError::at(
            "adjudicate",
            format!("adjudicate: {name} = {ply}: give a ply from 0"),
        )),
    }
}

/// The rules of an `adjudicate` table: each rule needs its score and its moves.
fn adjudication_spec(table: &AdjudicateTable) -> Result<Adjudication, SpecError> {
    let rule = |name: &str,
                score: Option<f64>,
                moves: Option<i64>|
     -> Result<Option<ScoreRule>, SpecError> {
        match (score, moves) {
            (None, None) => Ok(None),
            (Some(score), Some(moves)) => {
                if !score.is_finite() || score < 0.0 {
                    return Err(SpecError::at(
                        "adjudicate",
                        format!("adjudicate: {name}_score = {score}: give a score of 0 or more"),
                    ));
                }
                if !(1..=100_000).contains(&moves) {
                    return Err(SpecError::at(
                        "adjudicate",
                        format!("adjudicate: {name}_moves = {moves}: give 1 to 100000 moves"),
                    ));
                }
                Ok(Some(ScoreRule {
                    score,
                    moves: moves as u32,
                }))
            }
            (Some(_), None) => Err(SpecError::at(
                "adjudicate",
                format!(
                    "adjudicate: {name}_score needs {name}_moves (the moves in a row that must hold it)"
                ),
            )),
            (None, Some(_)) => Err(SpecError::at(
                "adjudicate",
                format!("adjudicate: {name}_moves needs {name}_score (the score to hold)"),
            )),
        }
    };
    let resign = rule("resign", table.resign_score, table.resign_moves)?;
    let draw = rule("draw", table.draw_score, table.draw_moves)?;
    if resign.is_some_and(|r| r.score == 0.0) {
        return Err(SpecError::at(
            "adjudicate",
            "adjudicate: resign_score = 0 would end every game at once: give a positive score",
        ));
    }
    let draw_after_ply = from_ply(
        "draw_after",
        table.draw_after,
        draw.is_some(),
        "draw_score and draw_moves",
    )?;
    let oracle = match (table.oracle, table.oracle_visits) {
        (Some(true), visits) => match visits.unwrap_or(DEFAULT_ORACLE_VISITS) {
            visits @ 1..=1_000_000_000 => Some(visits as u64),
            visits => {
                return Err(SpecError::at(
                    "adjudicate",
                    format!(
                        "adjudicate: oracle_visits = {visits}: give the positions the solver may visit per move, 1 to 1000000000"
                    ),
                ));
            }
        },
        (_, Some(_)) => {
            return Err(SpecError::at(
                "adjudicate",
                "adjudicate: oracle_visits without oracle = true",
            ));
        }
        _ => None,
    };
    let oracle_after_ply = from_ply(
        "oracle_after",
        table.oracle_after,
        oracle.is_some(),
        "oracle = true",
    )?;
    let adjudication = Adjudication {
        resign,
        draw,
        draw_after_ply,
        oracle,
        oracle_after_ply,
    };
    if adjudication.is_off() {
        return Err(SpecError::at(
            "adjudicate",
            "adjudicate: give resign_score and resign_moves, draw_score and draw_moves (and draw_after), or oracle = true",
        ));
    }
    Ok(adjudication)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GauntletTable {
    agent: String,
    opponents: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SweepTable {
    name: Option<String>,
    agent: String,
    opponents: Vec<String>,
}

/// An `openings = { ... }` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OpeningsTable {
    random_plies: Option<i64>,
    file: Option<PathBuf>,
}

/// An `sprt = { ... }` table.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SprtTable {
    elo0: f64,
    elo1: f64,
    alpha: Option<f64>,
    beta: Option<f64>,
    max_games: Option<i64>,
    model: Option<String>,
}

/// Where games start, from an `openings` table; a relative file is looked for beside the
/// experiment file first.
pub(super) fn openings_spec(
    table: Option<&OpeningsTable>,
    path: &Path,
) -> Result<OpeningSpec, SpecError> {
    match table {
        None => Ok(OpeningSpec::Start),
        Some(OpeningsTable {
            random_plies: Some(plies),
            file: None,
        }) if (0..=1000).contains(plies) => Ok(if *plies == 0 {
            OpeningSpec::Start
        } else {
            OpeningSpec::RandomPlies(*plies as u32)
        }),
        Some(OpeningsTable {
            random_plies: None,
            file: Some(openings),
        }) => {
            let beside = path.parent().map(|dir| dir.join(openings));
            let file = match beside {
                Some(beside) if openings.is_relative() && beside.exists() => beside,
                _ => openings.clone(),
            };
            // Read once here, so that a missing or unreadable file is blamed on this
            // line; its moves are checked against the game when the run starts.
            if let Err(why) = super::read_input(&file) {
                return Err(SpecError::at(
                    "openings",
                    format!("openings file '{}': {}", file.display(), why.message),
                ));
            }
            Ok(OpeningSpec::File(file))
        }
        Some(_) => Err(SpecError::at(
            "openings",
            "openings: give random_plies = N (0-1000) or file = \"path\", not both",
        )),
    }
}

/// The game clocks of `time_control = "60+0.5"` (both agents) or `["60+0.5", "10+0.1"]`
/// (the first and the second listed agent of each matchup).
fn time_control_spec(value: &toml::Value) -> Result<[TimeControl; 2], SpecError> {
    let one = |value: &toml::Value| -> Result<TimeControl, SpecError> {
        value
            .as_str()
            .ok_or_else(|| {
                SpecError::at(
                    "time_control",
                    format!("time_control = {value}: expected a string such as \"60+0.5\""),
                )
            })?
            .parse()
            .map_err(|e: String| SpecError::at("time_control", e))
    };
    match value {
        toml::Value::Array(list) if list.len() == 2 => Ok([one(&list[0])?, one(&list[1])?]),
        toml::Value::Array(list) => Err(SpecError::at(
            "time_control",
            format!(
                "time_control: a list gives the first and the second agent's clocks, so two of them, not {}",
                list.len()
            ),
        )),
        other => one(other).map(|control| [control; 2]),
    }
}

/// A sequential test from an `sprt` table, with the games it may run at most
/// (`default_games` unless `max_games` is given).
pub(super) fn sprt_spec(table: &SprtTable, default_games: i64) -> Result<(Sprt, u64), SpecError> {
    let model = match table.model.as_deref() {
        None | Some("logistic") => EloModel::Logistic,
        Some("normalized") => EloModel::Normalized,
        Some(other) => {
            return Err(SpecError::at(
                "sprt",
                format!(
                    "sprt: model = '{other}': expected 'logistic' (the default) or 'normalized'"
                ),
            ));
        }
    };
    let sprt = Sprt {
        elo0: table.elo0,
        elo1: table.elo1,
        alpha: table.alpha.unwrap_or(0.05),
        beta: table.beta.unwrap_or(0.05),
        model,
    };
    sprt.validate()?;
    let max_games = table.max_games.unwrap_or(default_games);
    if !(2..=MAX_GAMES as i64).contains(&max_games) {
        return Err(SpecError::at(
            "sprt",
            format!("sprt: max_games = {max_games}: must be from 2 to {MAX_GAMES}"),
        ));
    }
    Ok((sprt, max_games as u64))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    name: Option<String>,
    description: Option<String>,
    game: String,
    games: Option<i64>,
    seed: Option<u64>,
    colours: Option<String>,
    max_plies: Option<i64>,
    #[serde(default)]
    matchups: Vec<Vec<String>>,
    #[serde(default)]
    round_robin: Vec<String>,
    agents_dir: Option<String>,
    sandbox: Option<toml::Value>,
    swiss: Option<SwissTable>,
    knockout: Option<KnockoutTable>,
    gauntlet: Option<GauntletTable>,
    #[serde(default)]
    sweep: Vec<SweepTable>,
    openings: Option<OpeningsTable>,
    sprt: Option<SprtTable>,
    move_time_ms: Option<i64>,
    time_control: Option<toml::Value>,
    clock: Option<String>,
    adjudicate: Option<AdjudicateTable>,
    moves_csv: Option<bool>,
    duplicate: Option<bool>,
    grade: Option<toml::Value>,
    /// Published values, read by [`super::reference::parse_references`].
    #[serde(default, rename = "reference")]
    _reference: Vec<toml::Table>,
}

impl Experiment {
    /// Reads and validates an experiment file; agent names are looked up in `registry`.
    ///
    /// # Errors
    /// An unreadable or malformed file, or a value that does not fit, naming the line.
    pub fn load(path: &Path, registry: &AgentRegistry) -> Result<Experiment, InputError> {
        let source = super::read_input(path)?;
        Experiment::parse(path, source, registry)
    }

    /// Validates the text of an experiment file read from `path`.
    ///
    /// # Errors
    /// As [`Experiment::load`].
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<Experiment, InputError> {
        let file: ExperimentFile =
            toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let at = Located {
            path,
            source: &source,
        };
        let game = at.game(registry, &file.game)?;
        let (games, max_plies, colours) = counts(&file, &at)?;
        let name = super::run_name(file.name.clone(), path, "experiment")
            .map_err(|e| at.fail(at.key("name"), e))?;

        // A folder of submissions: each valid one is an agent, and joins the round robin.
        let (extended, submissions) = submitted(&file, &at, registry)?
            .map_or((None, Submissions::default()), |(r, found)| {
                (Some(r), found)
            });
        let registry = extended.as_ref().unwrap_or(registry);
        // Swiss or knockout: its players (and the submissions) play in rounds, alone.
        let (rounds_key, round_players, round_robin) = players(&file, &at, &submissions)?;
        let mut roster = Roster {
            registry,
            at: &at,
            agents: Vec::new(),
            texts: Vec::new(),
            matchups: Vec::new(),
        };
        listed_matchups(&file, &round_robin, &at, &mut roster)?;
        let sweeps = sweeps(&file, &at, &mut roster)?;
        let openings = openings_spec(file.openings.as_ref(), path)
            .map_err(|e| at.fail(at.key("openings"), e))?;
        let move_time_ms = at.move_time_ms(file.move_time_ms)?;
        let rounds = rounds(&file, &round_players, rounds_key, &at, &mut roster)?;
        let (time_control, cpu_clock) = clocks(&file, &at, &roster)?;
        let Roster {
            agents,
            texts,
            matchups,
            ..
        } = roster;
        let adjudication = match &file.adjudicate {
            None => Adjudication::default(),
            Some(table) => {
                adjudication_spec(table).map_err(|e| at.fail(at.key("adjudicate"), e))?
            }
        };
        let sprt = match &file.sprt {
            None => None,
            Some(table) => Some(sprt_spec(table, games).map_err(|e| at.fail(at.key("sprt"), e))?),
        };
        let grade = match &file.grade {
            None => None,
            Some(value) => grade_spec(value).map_err(|e| at.fail(at.key("grade"), e))?,
        };
        if grade.is_some() && file.moves_csv == Some(false) {
            return Err(at.fail(
                at.key("grade"),
                "grade needs the games' moves: remove moves_csv = false".to_string(),
            ));
        }
        if matchups.is_empty() {
            return Err(at.fail(
                None,
                "no matchups: give matchups = [[\"a\", \"b\"], ...], round_robin = [\"a\", \"b\", ...], a gauntlet or a sweep".to_string(),
            ));
        }
        // Agents with the same display name must be the same agent.
        for (i, a) in agents.iter().enumerate() {
            if let Some(b) = agents[..i].iter().find(|b| b.name == a.name && *b != a) {
                return Err(at.fail(
                    at.line_of(&a.name),
                    format!("two different agents are both named '{}'", b.name),
                ));
            }
        }
        checked_references(path, &source, ReferenceKind::Games, |reference| {
            let matchup: usize = reference.row[0].parse().unwrap_or(usize::MAX);
            let Some(spec) = matchups.get(matchup) else {
                return Some(format!(
                    "matchup = {}: the experiment has matchups 0 to {}",
                    reference.row[0],
                    matchups.len() - 1
                ));
            };
            let names = spec.agents.map(|a| agents[a].name.as_str());
            (!names.contains(&reference.row[1].as_str())).then(|| {
                format!(
                    "agent '{}' does not play matchup {matchup} ({} vs {})",
                    reference.row[1], names[0], names[1]
                )
            })
        })?;
        Ok(Experiment {
            name,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source,
            game,
            games_per_matchup: games as u64,
            seed: file.seed.unwrap_or(1),
            colours,
            max_plies: max_plies as u32,
            agents,
            agent_texts: texts,
            matchups,
            openings,
            sprt,
            sweeps,
            move_time_ms,
            time_control,
            cpu_clock,
            adjudication,
            submissions: submissions.agents,
            rounds,
            left_out: submissions.left_out,
            moves_csv: file.moves_csv.unwrap_or(true),
            duplicate: file.duplicate.unwrap_or(true),
            grade,
        })
    }

    /// Checks every agent against game `G` and returns their factories, in agent order.
    ///
    /// # Errors
    /// The first agent whose heuristic or parameters do not fit the game, naming the line.
    pub fn factories<G: GameEntry>(&self, game: &G) -> Result<Vec<AgentFactory<G>>, InputError> {
        let at = Located {
            path: &self.path,
            source: &self.source,
        };
        at.factories(&self.agents, &self.agent_texts, game)
    }

    /// Games scheduled for matchup `index`: the SPRT's `max_games` for matchups it may
    /// stop, else `games_per_matchup`.
    pub fn games_of(&self, index: usize) -> u64 {
        match self.sprt {
            Some((_, max_games)) if self.matchups[index].sequential => max_games,
            _ => self.games_per_matchup,
        }
    }

    /// Whether wall-clock limits decide anything (a per-move limit, an agent with a time
    /// budget, or another program, judged by the clock): then the same experiment can give
    /// different games.
    pub fn uses_clock(&self) -> bool {
        self.move_time_ms.is_some()
            || self.time_control.is_some()
            || self
                .agents
                .iter()
                .any(|a| a.time_ms.is_some() || a.external.is_some())
    }

    /// A matchup's label, e.g. `ab4-off2 vs ab4-def1`.
    pub fn matchup_label(&self, index: usize) -> String {
        let [a, b] = self.matchups[index].agents;
        format!("{} vs {}", self.agents[a].name, self.agents[b].name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Experiment, String> {
        Experiment::parse(
            Path::new("m.toml"),
            text.to_string(),
            &AgentRegistry::default(),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn explicit_pairs_and_round_robin_make_matchups() {
        let e = parse(
            "game = \"breakthrough(rules=long)\"\ngames = 4\nseed = 9\nmatchups = [[\"random\", \"greedy(heuristic=offense)\"]]\nround_robin = [\"random\", \"minimax(heuristic=defense,depth=2)\", \"alphabeta(heuristic=offense,depth=2)\"]\n",
        )
        .expect("valid");
        assert_eq!(e.name, "m");
        assert_eq!(e.games_per_matchup, 4);
        assert_eq!(e.seed, 9);
        assert_eq!(e.colours, Colours::Alternate);
        assert_eq!(e.agents.len(), 4);
        let pairs: Vec<[usize; 2]> = e.matchups.iter().map(|m| m.agents).collect();
        assert_eq!(pairs, vec![[0, 1], [0, 2], [0, 3], [2, 3]]);
        assert_eq!(e.matchup_label(0), "random vs greedy(heuristic=offense)");
        assert!(
            e.factories(&crate::games::breakthrough::Breakthrough::new(
                crate::games::breakthrough::Rules::Standard
            ))
            .is_ok()
        );
    }

    #[test]
    fn bad_experiments_name_the_line_and_problem() {
        let ok = "matchups = [[\"random\", \"random\"]]\n";
        let err = |t: &str| parse(t).expect_err(t);
        assert!(err(&format!("game = \"go\"\n{ok}")).contains("m.toml: line 1: unknown game 'go'"));
        assert!(
            err(&format!("game = \"breakthrough\"\ngames = 0\n{ok}"))
                .contains("line 2: games = 0: must be from 1")
        );
        assert!(
            err(&format!("game = \"breakthrough\"\ncolours = \"x\"\n{ok}"))
                .contains("line 2: colours = 'x'")
        );
        assert!(err("game = \"breakthrough\"\n").contains("no matchups"));
        assert!(
            err("game = \"breakthrough\"\nmatchups = [[\"random\"]]\n")
                .contains("exactly two agents")
        );
        assert!(
            err("game = \"breakthrough\"\nround_robin = [\"random\"]\n").contains("at least two")
        );
        assert!(
            err("game = \"breakthrough\"\n\nmatchups = [[\"random\", \"nobody\"]]\n")
                .contains("line 3: unknown agent 'nobody'")
        );
        assert!(err("game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=offense,depth=0)\"]]\n")
            .contains("from 1 to 12"));
        assert!(err("game = \"breakthrough\nmatchups = 3\n").contains("line 1: malformed TOML"));
        assert!(
            err(&format!("game = \"breakthrough\"\ngame_count = 3\n{ok}"))
                .contains("line 2: malformed TOML: unknown field `game_count`")
        );
        let bad_heuristic = parse(
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=material2)\"]]\n",
        )
        .expect("syntax is fine");
        let message = bad_heuristic
            .factories(&crate::games::breakthrough::Breakthrough::new(
                crate::games::breakthrough::Rules::Standard,
            ))
            .err()
            .expect("unknown heuristic")
            .to_string();
        assert!(
            message.contains("m.toml: line 2: agent 'minimax(heuristic=material2)"),
            "{message}"
        );
        // Depth 0, or past a fixed search, deepens until something stops it.
        let deep = "game = \"breakthrough\"\nmatchups = [[\"random\", \"alphabeta-tt(heuristic=offense,depth=30)\"]]\n";
        assert!(err(deep).contains("line 2: agent 'alphabeta-tt(heuristic=offense,depth=30)': depth 30 deepens until something stops it"), "{}", err(deep));
        assert!(parse(&format!("{deep}time_control = \"2+0.1\"\n")).is_ok());
    }

    #[test]
    fn gauntlets_sweeps_openings_and_sprt() {
        let e = parse(
            "game = \"breakthrough\"\ngames = 10\ngauntlet = { agent = \"random\", opponents = [\"greedy(heuristic=offense)\", \"greedy(heuristic=defense)\"] }\nopenings = { random_plies = 3 }\nsprt = { elo0 = 0, elo1 = 40, max_games = 500 }\n\n[[sweep]]\nname = \"ab\"\nagent = \"alphabeta(heuristic=offensive2,depth=[1,2],almost_win=[10,20,30])\"\nopponents = [\"random\"]\n\n[[sweep]]\nagent = \"greedy(heuristic=offensive2,almost_win=[5,6])\"\nopponents = [\"random\", \"greedy(heuristic=defense)\"]\n",
        )
        .expect("valid");
        // Gauntlet: 2 matchups; sweep 1: 2 x 3 variants x 1 opponent; sweep 2: 2 x 2.
        assert_eq!(e.matchups.len(), 2 + 6 + 4);
        assert!(e.matchups[..2].iter().all(|m| m.sequential));
        assert!(e.matchups[2..].iter().all(|m| !m.sequential));
        assert_eq!(
            e.agents[e.matchups[2].agents[0]].name,
            "ab[depth=1,almost_win=10]"
        );
        assert_eq!(e.agents[e.matchups[7].agents[0]].depth, 2);
        // Variants against the same opponent share a seed key; other opponents do not.
        let keys: Vec<u64> = e.matchups[8..].iter().map(|m| m.seed_key).collect();
        assert_eq!(keys[0], keys[2]);
        assert_ne!(keys[0], keys[1]);
        assert_eq!(e.openings, OpeningSpec::RandomPlies(3));
        let (sprt, max_games) = e.sprt.expect("sprt");
        assert_eq!((sprt.elo1, sprt.alpha, max_games), (40.0, 0.05, 500));
        assert_eq!(sprt.model, EloModel::Logistic);
        let normalized = parse("game = \"breakthrough\"\nsprt = { elo0 = 0, elo1 = 5, model = \"normalized\" }\nmatchups = [[\"random\", \"random\"]]\n").expect("normalized");
        assert_eq!(normalized.sprt.expect("sprt").0.model, EloModel::Normalized);
        assert_eq!((e.games_of(0), e.games_of(5)), (500, 10));
        assert_eq!(e.sweeps.len(), 2);
        assert_eq!(e.sweeps[0].key, "depth,almost_win");
        assert_eq!(e.sweeps[0].values[1], "depth=1,almost_win=20");
        assert_eq!(e.sweeps[1].key, "almost_win");
        assert_eq!(e.sweeps[1].values, vec!["5", "6"]);
        assert_eq!(
            e.sweeps[1].variants[0],
            "greedy(heuristic=offensive2,almost_win=5)"
        );
    }

    #[test]
    fn bad_shapes_are_explained() {
        let err = |t: &str| parse(&format!("game = \"breakthrough\"\n{t}")).expect_err(t);
        assert!(
            err("sprt = { elo0 = 5, elo1 = 0 }\nmatchups = [[\"random\", \"random\"]]\n")
                .contains("line 2: sprt: elo0 (5) must be below elo1 (0)")
        );
        assert!(
            err("sprt = { elo0 = 0, elo1 = 5, model = \"bayes\" }\nmatchups = [[\"random\", \"random\"]]\n")
                .contains("line 2: sprt: model = 'bayes': expected 'logistic' (the default) or 'normalized'")
        );
        assert!(err("openings = { random_plies = 2, file = \"x\" }\nmatchups = [[\"random\", \"random\"]]\n").contains("not both"));
        assert!(
            err("[[sweep]]\nagent = \"greedy(heuristic=offense)\"\nopponents = [\"random\"]\n")
                .contains("as a non-empty list")
        );
        assert!(err("[[sweep]]\nagent = \"greedy(heuristic=offense,capture_weight=[1,2])\"\nopponents = []\n").contains("at least one opponent"));
        assert!(
            err("gauntlet = { agent = \"random\", opponents = [] }\n")
                .contains("at least one opponent")
        );
    }
}
