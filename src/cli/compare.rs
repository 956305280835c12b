//! `arbiter compare`: a search comparison (every algorithm and depth on the same positions)
//! described by flags instead of a file.

use super::print_finished;
use crate::experiment::launch::{self, CompareRequest};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `arbiter compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game, e.g. `breakthrough` or `wights`.
    game: String,
    /// Algorithms, comma-separated (minimax, alphabeta, alphabeta-ordered, alphabeta-killer,
    /// alphabeta-tt, ...), `mcts` (no depth: run once per position at each --iterations
    /// budget), and external programs registered in agents/ (asked each depth as their
    /// `depth` option; their nodes are what they report).
    #[arg(long, default_value = launch::compare::DEFAULT_ALGORITHMS)]
    algorithms: String,
    /// The heuristic, with parameters if any, e.g. `offensive2(almost_win=5000)`.
    #[arg(long)]
    heuristic: String,
    /// Depths: `3`, `1..5` or `1,3,5`.
    #[arg(long, default_value = launch::compare::DEFAULT_DEPTHS)]
    depths: String,
    /// MCTS's iteration budgets, when `mcts` is among the algorithms: `1000` or
    /// `1000,10000`.
    #[arg(long, default_value = launch::compare::DEFAULT_ITERATIONS)]
    iterations: String,
    /// Number of positions (random playouts of 10-40 plies, seeded).
    #[arg(long, default_value_t = launch::compare::DEFAULT_POSITIONS)]
    positions: usize,
    /// Seed of the positions and the searches.
    #[arg(long, default_value_t = launch::compare::DEFAULT_SEED)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The run folder (new or empty) [default: results/compare-<game>/<UTC date-time>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print no progress and no table.
    #[arg(long)]
    quiet: bool,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter compare`; returns the exit code.
///
/// # Errors
/// A bad argument, or a run that cannot be written.
pub fn compare(args: CompareArgs) -> Result<i32> {
    let quiet = args.quiet;
    let request = CompareRequest {
        game: args.game,
        algorithms: args.algorithms,
        heuristic: Some(args.heuristic),
        depths: args.depths,
        iterations: args.iterations,
        positions: args.positions,
        seed: args.seed,
        threads: args.threads,
        out: args.out,
        quiet: args.quiet,
        agents: args.agents,
    };
    Ok(print_finished(&launch::compare(request)?, quiet))
}
