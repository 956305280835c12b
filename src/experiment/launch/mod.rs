//! The library's commands: what `arbiter run`, `match`, `compare` and `solve` do, each
//! given as a typed request, and the run policy that is not a kind's (continuing a shard's
//! own folder, a resume that finds nothing left to do, the choices a resumed run keeps,
//! the sandbox choice, the worker threads). The cli turns its arguments into a request and
//! prints the outcome; the Python package turns keyword arguments (as JSON, read by
//! [`request_from_json`]) into the same requests.

pub mod compare;
pub mod matchup;
pub mod puzzle;
pub mod run;

pub use compare::{CompareRequest, compare};
pub use matchup::{MatchRequest, play_match};
pub use puzzle::{SolveRequest, Solved, solve};
pub use run::{RunRequest, run};

use super::{Error, Finished, Options};
use crate::records::journal::JOURNAL;
use crate::records::loaded::read_meta;
use crate::records::{Meta, RunStatus, say};
use crate::registry::{AgentRegistry, AnyExperiment, GameSpec};
use std::path::Path;

/// `--sandbox` as the run in `folder` was started (`None`: as each agent file says, or
/// no such run).
pub fn recorded_sandbox(folder: &Path) -> Option<&'static str> {
    read_meta(folder).and_then(|meta| meta.sandbox.flag())
}

/// Continues the run in `folder` unless it is complete (then says so and returns
/// `None`, as a complete shard run again does).
///
/// # Errors
/// As [`super::resume`].
pub fn resume_unfinished(
    folder: &Path,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Option<Finished>, Error> {
    if read_meta(folder).is_some_and(|m| m.status == RunStatus::Complete)
        && !folder.join(JOURNAL).exists()
    {
        say(&format!(
            "{}: the run is already complete; nothing to do",
            folder.display()
        ));
        return Ok(None);
    }
    super::resume(folder, registry, options).map(Some)
}

/// The folder a shard task given `--out` continues, with its shard, when the folder
/// already holds a run (a task requeued by Slurm): `None` for a new or empty folder, or
/// a run that is no shard.
pub fn earlier_shard(out: Option<&Path>, shard: Option<[u64; 2]>) -> Option<(&Path, [u64; 2])> {
    let out = out.filter(|out| out.join("meta.json").is_file())?;
    Some((out, shard?))
}

/// Continues shard `shard` in `folder`, its earlier run: refused when the folder holds
/// another shard or another version of the experiment (`experiment`, when given, is
/// compared by its text); `None` when the shard is already complete.
///
/// # Errors
/// The folder holds something else, or as [`super::resume`].
pub fn continue_shard(
    folder: &Path,
    shard: [u64; 2],
    experiment: Option<&Path>,
    registry: &AgentRegistry,
    options: &Options,
) -> Result<Option<Finished>, Error> {
    let meta = Meta::read(folder)?;
    if meta.shard != Some(shard) {
        return Err(Error::Message(format!(
            "--out {}: it holds {}, not shard {}/{}",
            folder.display(),
            meta.shard
                .map_or("an unsharded run".to_string(), |[i, n]| format!(
                    "shard {i}/{n}"
                )),
            shard[0],
            shard[1]
        )));
    }
    // The file as a run keeps it: the same text as this shard's meta.json, or changed.
    if let Some(path) = experiment
        && AnyExperiment::load(path, registry)?.source() != meta.experiment_source
    {
        return Err(Error::Message(format!(
            "--out {}: it holds shard {}/{} of another version of {}: give a new --out",
            folder.display(),
            shard[0],
            shard[1],
            path.display()
        )));
    }
    if meta.status == RunStatus::Complete {
        if !options.quiet {
            say(&format!(
                "{}: shard {}/{} is already complete",
                folder.display(),
                shard[0],
                shard[1]
            ));
        }
        return Ok(None);
    }
    let mut options = options.clone();
    options.out = None;
    super::resume(folder, registry, &options).map(Some)
}

/// The most worker threads a run may ask for.
pub const MAX_THREADS: usize = 1024;

/// The worker threads to use: the option's value, or every core.
///
/// # Errors
/// Zero threads, or more than [`MAX_THREADS`].
pub fn resolve_threads(option: Option<usize>) -> Result<usize, Error> {
    match option {
        Some(0) => Err(Error::Message(
            "--threads 0: use at least one thread".to_string(),
        )),
        Some(n) if n > MAX_THREADS => Err(Error::Message(format!(
            "--threads {n}: use at most {MAX_THREADS} threads"
        ))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}

/// A number of games per matchup given in place of an experiment's: 1 to the most an
/// experiment file allows.
///
/// # Errors
/// Not a number in that range, in one line.
pub fn games_per_matchup(text: &str) -> Result<u64, String> {
    let most = crate::registry::experiment::MAX_GAMES;
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|n| (1..=most).contains(n))
        .ok_or_else(|| format!("'{text}' is not a number of games from 1 to {most}"))
}

/// Checks a number of games per matchup given as a number (a request's).
fn check_games(games: u64) -> Result<u64, Error> {
    let most = crate::registry::experiment::MAX_GAMES;
    if (1..=most).contains(&games) {
        Ok(games)
    } else {
        Err(Error::Message(format!(
            "--games '{games}' is not a number of games from 1 to {most}"
        )))
    }
}

/// A time limit given in seconds, as a duration.
fn time_limit(seconds: Option<f64>) -> Result<Option<std::time::Duration>, Error> {
    seconds
        .map(|s| {
            crate::core::time_limit(s).map_err(|e| Error::Message(format!("--time-limit {e}")))
        })
        .transpose()
}

/// A game spec given by name: a built-in game, or one `registry`'s agent files declare
/// (its rules program is started and checked).
///
/// # Errors
/// An unknown game or a bad parameter, naming the game.
pub fn parse_game(text: &str, registry: &AgentRegistry) -> Result<GameSpec, Error> {
    registry.game(text).map_err(|e| {
        // A rules program's failure names the game already.
        Error::Message(if e.starts_with("game '") {
            e
        } else {
            format!("game '{text}': {e}")
        })
    })
}

/// Sets the run's sandbox choice from `--sandbox` (`on`, `off`, or absent: as each agent
/// file says) and checks, before any game, that a sandbox can start when the flag asks
/// for one for every agent. The agents that ask for one themselves are checked once their
/// experiment is read, before anything is written.
///
/// # Errors
/// A bad flag value, or `--sandbox` where a sandbox cannot start (one line saying what to
/// install).
pub fn set_sandbox(flag: Option<&str>) -> Result<(), Error> {
    use crate::external::sandbox;
    let mode = match flag {
        None => None,
        Some("on") => Some(true),
        Some("off") => Some(false),
        Some(other) => {
            return Err(Error::Message(format!(
                "--sandbox={other}: expected on or off"
            )));
        }
    };
    sandbox::set_mode(mode);
    if mode != Some(true) {
        return Ok(());
    }
    super::require_sandbox("--sandbox:")
}

/// A request from the JSON object of its options (`{"games": 10, "quiet": true}`), as a
/// host program (the Python package) gives them: `command` names it in messages.
///
/// # Errors
/// Not an object, an unknown option (with the nearest known one) or a value of the wrong
/// kind (naming the option), in one line.
pub fn request_from_json<T: serde::de::DeserializeOwned>(
    command: &str,
    json: &str,
) -> Result<T, Error> {
    let value: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| Error::Message(format!("{command}: the options are not JSON: {e}")))?;
    if !value.is_object() {
        return Err(Error::Message(format!(
            "{command}: the options are an object of option names and values, not {value}"
        )));
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let option = error.path().to_string();
        let inner = error.into_inner();
        let said = inner.to_string();
        Error::Message(match unknown_option(&said) {
            Some((given, known)) => {
                let near = crate::core::closest(&given, known.iter().map(String::as_str))
                    .map_or(String::new(), |k| format!(" (did you mean '{k}'?)"));
                format!(
                    "{command}: no option '{given}'{near}; the options are {}",
                    known.join(", ")
                )
            }
            None if option == "." || option.is_empty() => format!("{command}: {said}"),
            None => format!("{command}: option '{option}': {said}"),
        })
    })
}

/// serde's "unknown field `x`, expected one of `a`, `b`" as (x, [a, b]).
fn unknown_option(said: &str) -> Option<(String, Vec<String>)> {
    let rest = said.strip_prefix("unknown field `")?;
    let (given, rest) = rest.split_once('`')?;
    let known: Vec<String> = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    Some((given.to_string(), known))
}

/// The exit code of a run that ended with games unplayed because an agent could not
/// start (fix it, then resume).
pub const AGENT_STOPPED: i32 = 3;

/// The exit code of a run stopped because its output's reader went away (a closed pipe,
/// `arbiter run ... 2>&1 | head`): 128 + SIGPIPE, as a shell reports a command SIGPIPE
/// ended; the run stopped cleanly, as after Ctrl-C, and resumes.
pub const OUTPUT_CLOSED: i32 = 141;

/// The exit code of a run stopped by `--max-games` or `--time-limit` before all its work
/// was done (resume it to finish): scripts can tell it from a complete run.
pub const PARTIAL: i32 = 4;

impl Finished {
    /// The run's exit code: 0 complete; 130 after Ctrl-C ([`OUTPUT_CLOSED`] when its
    /// output closed); [`AGENT_STOPPED`] when an agent that could not start left games
    /// unplayed; [`PARTIAL`] when stopped by a limit (the files are sound but partial).
    pub fn exit_code(&self) -> i32 {
        if !self.outcome.cancelled {
            0
        } else if self.interrupted && crate::records::output_closed() {
            OUTPUT_CLOSED
        } else if self.interrupted {
            130
        } else if !self.notes.is_empty() {
            AGENT_STOPPED
        } else {
            PARTIAL
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_reads_its_options_and_defaults_from_json() {
        let request: MatchRequest = request_from_json(
            "match",
            r#"{"first": "random", "second": "greedy", "games": 4}"#,
        )
        .expect("a good request");
        assert_eq!(request.first, "random");
        assert_eq!(request.games, 4);
        // What was not given is the command line's default.
        assert_eq!(request.seed, matchup::DEFAULT_SEED);
        assert_eq!(request.standings, matchup::DEFAULT_STANDINGS);
        assert_eq!(request.game, matchup::DEFAULT_GAME);
    }

    #[test]
    fn a_bad_option_is_named_in_one_line() {
        let said = |json: &str| {
            request_from_json::<RunRequest>("run", json)
                .expect_err("refused")
                .to_string()
        };
        let typo = said(r#"{"gamez": 3}"#);
        assert!(
            typo.starts_with("run: no option 'gamez' (did you mean 'games'?); the options are experiment, source, games,"),
            "{typo}"
        );
        let kind = said(r#"{"games": "many"}"#);
        assert!(
            kind.starts_with("run: option 'games': invalid type: string \"many\""),
            "{kind}"
        );
        assert!(!kind.contains("line 1"), "{kind}");
        assert_eq!(
            said("[1]"),
            "run: the options are an object of option names and values, not [1]"
        );
    }

    #[test]
    fn a_match_checks_what_the_command_line_checks() {
        let said = |request: MatchRequest| play_match(request).expect_err("refused").to_string();
        let base = MatchRequest {
            first: "random".to_string(),
            second: "random".to_string(),
            ..MatchRequest::default()
        };
        assert_eq!(
            said(MatchRequest {
                threads: Some(0),
                ..base.clone()
            }),
            "--threads 0: use at least one thread"
        );
        assert!(
            said(MatchRequest {
                games: 0,
                ..base.clone()
            })
            .starts_with("--games '0' is not a number of games from 1 to "),
        );
        assert_eq!(
            said(MatchRequest {
                second: String::new(),
                ..base
            }),
            "match: name two agents (first and second)"
        );
    }
}
