//! `arbiter match`: one matchup from the command line, without an experiment file.

use super::{print_finished, resolve_threads};
use crate::experiment::{self, Options};
use crate::registry::fits;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// Arguments of `arbiter match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first agent: a registered name (`ab4-offensive2`) or an inline spec
    /// (`alphabeta(heuristic=offensive2,depth=4)`).
    first: String,
    /// The second agent.
    second: String,
    /// The game, e.g. `breakthrough(rules=long)`.
    #[arg(long, default_value = "breakthrough")]
    game: String,
    /// Games to play (1 to 10,000,000); colours alternate game by game.
    #[arg(long, default_value_t = 100, allow_hyphen_values = true, value_parser = super::run::games_per_matchup)]
    games: u64,
    /// The seed every game's seed derives from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Milliseconds per move for every agent (a move over it plus a 50 ms tolerance
    /// forfeits the game); none by default.
    #[arg(long, value_name = "MS")]
    move_time_ms: Option<u64>,
    /// Game clocks for both agents: BASE+INCREMENT in seconds (`60+0.5`); a side whose
    /// clock runs out loses on time (docs/experiments.md#game-clocks-time_control).
    #[arg(long, value_name = "BASE+INC")]
    time_control: Option<String>,
    /// Worker threads [default: all cores]. Results do not depend on it.
    #[arg(long)]
    threads: Option<usize>,
    /// The run folder to write (must be new or empty) [default: results/match/<UTC
    /// date-time>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
    /// Print no progress and no summary.
    #[arg(long)]
    quiet: bool,
    /// Write no moves.csv (a row per move, most of a big run's bytes), as `run --no-moves`.
    #[arg(long)]
    no_moves: bool,
    /// Run every external agent in a sandbox (`--sandbox`), or none (`--sandbox=off`)
    /// [default: as each agent file says]. Needs bubblewrap; see docs/sandbox.md.
    #[arg(long, value_name = "on|off", num_args = 0..=1, default_missing_value = "on")]
    sandbox: Option<String>,
    /// Print the standings (score, Elo) every N finished games; 0 never.
    #[arg(long, value_name = "N", default_value_t = 10)]
    standings: usize,
}

/// A TOML string literal (quoted and escaped).
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

/// The experiment `arbiter match` plays, as the text a run records in meta.json (so
/// `--resume` works as for a file).
fn experiment_text(args: &MatchArgs) -> String {
    let mut text = format!(
        "# arbiter match {} {} --game {} --games {} --seed {}\nname = \"match\"\ndescription = {}\ngame = {}\ngames = {}\nseed = {}\nmatchups = [[{}, {}]]\n",
        args.first,
        args.second,
        args.game,
        args.games,
        args.seed,
        quoted(&format!("{} vs {}", args.first, args.second)),
        quoted(&args.game),
        args.games,
        args.seed,
        quoted(&args.first),
        quoted(&args.second),
    );
    if let Some(ms) = args.move_time_ms {
        text.push_str(&format!("move_time_ms = {ms}\n"));
    }
    if let Some(control) = &args.time_control {
        text.push_str(&format!("time_control = {}\n", quoted(control)));
    }
    if args.no_moves {
        text.push_str("moves_csv = false\n");
    }
    text
}

/// Plays the match; returns the exit code (as `run`'s).
///
/// # Errors
/// As [`execute`].
pub fn play_match(args: MatchArgs) -> Result<i32> {
    let quiet = args.quiet;
    Ok(print_finished(&execute(args)?, quiet))
}

/// Plays the match: the run's end.
///
/// # Errors
/// A bad argument or agent, or a run that cannot be written.
pub fn execute(args: MatchArgs) -> Result<experiment::Finished> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = super::parse_game(&args.game, &registry)?;
    if let Some(control) = &args.time_control {
        control
            .parse::<crate::core::TimeControl>()
            .map_err(|e| anyhow::anyhow!("--time-control: {e}"))?;
    }
    let text = experiment_text(&args);
    super::set_sandbox(args.sandbox.as_deref(), &registry, &text)?;
    // Checked here so that a mistake names the argument, not a line of the text below.
    for agent in [&args.first, &args.second] {
        let spec = registry.resolve(agent).map_err(anyhow::Error::msg)?;
        fits(&spec, game.clone())
            .map_err(|e| anyhow::anyhow!("agent '{agent}' in {}: {e}", args.game))?;
    }
    let options = Options {
        threads: resolve_threads(args.threads)?,
        quiet: args.quiet,
        out: args.out.clone(),
        max_jobs: None,
        time_limit: None,
        shard: None,
        standings: args.standings,
    };
    Ok(experiment::run_text(
        Path::new("arbiter-match"),
        text,
        &registry,
        &options,
    )?)
}
