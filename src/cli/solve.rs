//! `arbiter solve`: one puzzle, one solver; the checked solution, the counters, the time.

use crate::csp::Limits;
use crate::csp::flow::{Puzzle, Solver, Status, solve as solve_flow};
use anyhow::{Result, anyhow, bail};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Arguments of `arbiter solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A Flow Free puzzle file (`_` or `.` for empty cells, a letter per source).
    file: PathBuf,
    /// The solver: brute (row-major), dumb (random order, seeded), smart (minimum
    /// remaining values) or smart-fc (plus forward checking).
    #[arg(long, default_value = "smart-fc")]
    solver: String,
    /// Seed of the dumb solver's random orders.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop after this many search nodes (status `limit`).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds (status `limit`).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// `arbiter solve`.
pub fn solve(args: SolveArgs) -> Result<()> {
    let solver: Solver = args
        .solver
        .parse()
        .map_err(|e: String| anyhow!("--solver: {e}"))?;
    let max_time = match args.time_limit {
        Some(s) if !(s > 0.0 && s.is_finite()) => {
            bail!("--time-limit {s}: give a positive number of seconds")
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let puzzle = Puzzle::read(&args.file)?;
    let clock = Instant::now();
    let (status, stats) = solve_flow(
        &puzzle,
        solver,
        args.seed,
        Limits {
            max_nodes: args.max_nodes,
            max_time,
        },
    );
    let ms = clock.elapsed().as_secs_f64() * 1e3;
    if let Status::Solved(grid) = &status {
        print!("{}", puzzle.render(grid));
    }
    println!(
        "status: {} ({solver}, {}x{}, {} colours)\nassignments: {}\nnodes: {}\nbacktracks: {}\nms: {ms:.3}",
        status.label(),
        puzzle.rows,
        puzzle.cols,
        puzzle.colours.len(),
        stats.assignments,
        stats.nodes,
        stats.backtracks
    );
    Ok(())
}
