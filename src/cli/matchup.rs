//! `arbiter match`: one matchup from the command line, without an experiment file.

use super::print_finished;
use crate::experiment::launch::{self, MatchRequest, matchup};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `arbiter match`.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The first agent: a registered name (`ab4-offensive2`) or an inline spec
    /// (`alphabeta(heuristic=offensive2,depth=4)`).
    first: String,
    /// The second agent.
    second: String,
    /// The game, e.g. `breakthrough(rules=long)`.
    #[arg(long, default_value = matchup::DEFAULT_GAME)]
    game: String,
    /// Games to play (1 to 10,000,000); colours alternate game by game.
    #[arg(long, default_value_t = matchup::DEFAULT_GAMES, allow_hyphen_values = true, value_parser = launch::games_per_matchup)]
    games: u64,
    /// The seed every game's seed derives from.
    #[arg(long, default_value_t = matchup::DEFAULT_SEED)]
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
    #[arg(long, value_name = "N", default_value_t = matchup::DEFAULT_STANDINGS)]
    standings: usize,
}

/// Plays the match; returns the exit code (as `run`'s).
///
/// # Errors
/// A bad argument or agent, or a run that cannot be written.
pub fn play_match(args: MatchArgs) -> Result<i32> {
    let quiet = args.quiet;
    let request = MatchRequest {
        first: args.first,
        second: args.second,
        game: args.game,
        games: args.games,
        seed: args.seed,
        move_time_ms: args.move_time_ms,
        time_control: args.time_control,
        threads: args.threads,
        out: args.out,
        agents: args.agents,
        quiet: args.quiet,
        no_moves: args.no_moves,
        sandbox: args.sandbox,
        standings: args.standings,
    };
    Ok(print_finished(&launch::play_match(request)?, quiet))
}
