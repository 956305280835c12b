//! `match`: one matchup without an experiment file.

use super::{Error, Finished, Options, check_games, parse_game, resolve_threads, set_sandbox};
use crate::registry::fits;
use std::path::{Path, PathBuf};

/// The game a match plays when none is named.
pub const DEFAULT_GAME: &str = "breakthrough";
/// The games a match plays when not told.
pub const DEFAULT_GAMES: u64 = 100;
/// A match's seed when not told.
pub const DEFAULT_SEED: u64 = 1;
/// A match shows the standings every this many games when not told.
pub const DEFAULT_STANDINGS: usize = 10;

/// One matchup to play.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MatchRequest {
    /// The first agent: a registered name or an inline spec.
    pub first: String,
    /// The second agent.
    pub second: String,
    /// The game, e.g. `breakthrough(rules=long)`.
    pub game: String,
    /// Games to play; colours alternate game by game.
    pub games: u64,
    /// The seed every game's seed derives from.
    pub seed: u64,
    /// Milliseconds per move for every agent.
    pub move_time_ms: Option<u64>,
    /// Game clocks for both agents: `BASE+INCREMENT` in seconds.
    pub time_control: Option<String>,
    /// Worker threads [default: all cores].
    pub threads: Option<usize>,
    /// The run folder to write (new or empty).
    pub out: Option<PathBuf>,
    /// The folder of agent files.
    pub agents: Option<PathBuf>,
    /// No progress and no summary on the terminal.
    pub quiet: bool,
    /// Write no moves.csv.
    pub no_moves: bool,
    /// `on`, `off`, or as each agent file says.
    pub sandbox: Option<String>,
    /// Show the standings every this many finished games (0: never).
    pub standings: usize,
}

impl Default for MatchRequest {
    fn default() -> MatchRequest {
        MatchRequest {
            first: String::new(),
            second: String::new(),
            game: DEFAULT_GAME.to_string(),
            games: DEFAULT_GAMES,
            seed: DEFAULT_SEED,
            move_time_ms: None,
            time_control: None,
            threads: None,
            out: None,
            agents: None,
            quiet: false,
            no_moves: false,
            sandbox: None,
            standings: DEFAULT_STANDINGS,
        }
    }
}

/// A TOML string literal (quoted and escaped).
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The experiment a match plays, as the text a run records in meta.json (so a resume
/// works as for a file).
fn experiment_text(request: &MatchRequest) -> String {
    let mut text = format!(
        "# arbiter match {} {} --game {} --games {} --seed {}\nname = \"match\"\ndescription = {}\ngame = {}\ngames = {}\nseed = {}\nmatchups = [[{}, {}]]\n",
        request.first,
        request.second,
        request.game,
        request.games,
        request.seed,
        quoted(&format!("{} vs {}", request.first, request.second)),
        quoted(&request.game),
        request.games,
        request.seed,
        quoted(&request.first),
        quoted(&request.second),
    );
    if let Some(ms) = request.move_time_ms {
        text.push_str(&format!("move_time_ms = {ms}\n"));
    }
    if let Some(control) = &request.time_control {
        text.push_str(&format!("time_control = {}\n", quoted(control)));
    }
    if request.no_moves {
        text.push_str("moves_csv = false\n");
    }
    text
}

/// Plays the match: the run's end.
///
/// # Errors
/// A bad option or agent, or a run that cannot be written.
pub fn play_match(request: MatchRequest) -> Result<Finished, Error> {
    if request.first.is_empty() || request.second.is_empty() {
        return Err(Error::Message(
            "match: name two agents (first and second)".to_string(),
        ));
    }
    check_games(request.games)?;
    let (registry, _) = crate::registry::load_agents(request.agents.as_deref(), None)?;
    let game = parse_game(&request.game, &registry)?;
    if let Some(control) = &request.time_control {
        control
            .parse::<crate::core::TimeControl>()
            .map_err(|e| Error::Message(format!("--time-control: {e}")))?;
    }
    let text = experiment_text(&request);
    set_sandbox(request.sandbox.as_deref())?;
    // Checked here so that a mistake names the agent, not a line of the text above.
    for agent in [&request.first, &request.second] {
        let spec = registry
            .resolve(agent)
            .map_err(|e| Error::Message(e.message))?;
        fits(&spec, game.clone())
            .map_err(|e| Error::Message(format!("agent '{agent}' in {}: {e}", request.game)))?;
    }
    let options = Options {
        threads: resolve_threads(request.threads)?,
        quiet: request.quiet,
        out: request.out.clone(),
        max_jobs: None,
        time_limit: None,
        shard: None,
        standings: request.standings,
    };
    crate::experiment::run_text(Path::new("arbiter-match"), text, &registry, &options)
}
