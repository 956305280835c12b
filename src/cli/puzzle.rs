//! `arbiter solve`: one puzzle, one solver; prints the checked solution, the counters and
//! the time.

use crate::experiment::launch::{self, SolveRequest, puzzle};
use anyhow::Result;
use std::path::PathBuf;

/// Arguments of `arbiter solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// A Flow Free puzzle file (`_` or `.` for empty cells, a letter per source), or a Word
    /// Sudoku grid file with --bank.
    file: PathBuf,
    /// Flow Free: brute (row-major), dumb (random order, seeded), smart (minimum remaining
    /// values), smart-fc (plus forward checking), paths (path extension) or sat (clause
    /// learning; the fastest) [default: sat]. Word Sudoku:
    /// mrv-lcv (report 001's heuristics), plain (none), or fewest (the decoy input: as few
    /// words as possible, branch and bound) [default: mrv-lcv, then fewest when no
    /// placement holds every bank word (decoys), with a note saying so].
    #[arg(long)]
    solver: Option<String>,
    /// The Word Sudoku word bank: makes FILE a Word Sudoku grid.
    #[arg(long)]
    bank: Option<PathBuf>,
    /// Seed of the dumb solver's random orders.
    #[arg(long, default_value_t = puzzle::DEFAULT_SEED)]
    seed: u64,
    /// Stop after this many search nodes (status `limit`).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds (status `limit`).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// `arbiter solve`.
///
/// # Errors
/// A bad argument or puzzle file.
pub fn solve(args: SolveArgs) -> Result<()> {
    let solved = launch::solve(SolveRequest {
        file: args.file,
        solver: args.solver,
        bank: args.bank,
        seed: args.seed,
        max_nodes: args.max_nodes,
        time_limit: args.time_limit,
    })?;
    print!("{}", solved.text);
    Ok(())
}
