//! `arbiter solve`: one puzzle, one solver; the checked solution, the counters, the time.

use crate::csp::Limits;
use crate::csp::flow::{Puzzle, Solver, Status, solve as solve_flow};
use anyhow::{Result, anyhow};
use std::path::PathBuf;
use std::time::Instant;

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
    let max_time = match args.time_limit {
        Some(s) => {
            Some(crate::core::time_limit(s).map_err(|e| anyhow::anyhow!("--time-limit {e}"))?)
        }
        None => None,
    };
    let limits = Limits {
        max_nodes: args.max_nodes,
        max_time,
        stop: None,
    };
    if let Some(bank) = &args.bank {
        let chosen = args.solver.is_some();
        let solver = args.solver.as_deref().unwrap_or("mrv-lcv");
        return solve_word_sudoku(&args.file, bank, solver, chosen, limits);
    }
    let solver: Solver = args
        .solver
        .as_deref()
        .unwrap_or("sat")
        .parse()
        .map_err(|e: String| anyhow!("--solver: {e}"))?;
    let puzzle = Puzzle::read(&args.file)?;
    let clock = Instant::now();
    // The solvers recurse once per cell: they get the stack they need.
    let (status, stats) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(crate::csp::SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || solve_flow(&puzzle, solver, args.seed, limits))
            .map_err(|e| anyhow!("cannot start the solver: {e}"))?
            .join()
            .map_err(|_| anyhow!("the solver failed"))
    })?;
    let ms = clock.elapsed().as_secs_f64() * 1e3;
    if let Status::Solved(grid) = &status {
        print!("{}", puzzle.render(grid));
    }
    println!(
        "status: {} ({solver}, {}x{}, {} colours)\n{}",
        status.label(),
        puzzle.rows,
        puzzle.cols,
        puzzle.colours.len(),
        stats.lines(ms)
    );
    Ok(())
}

/// `arbiter solve GRID --bank BANK`: Word Sudoku.
fn solve_word_sudoku(
    grid: &std::path::Path,
    bank: &std::path::Path,
    solver: &str,
    chosen: bool,
    limits: Limits,
) -> Result<()> {
    use crate::csp::flow::Status;
    use crate::csp::word_sudoku::{
        Puzzle as Words, Solver as WordSolver, solve as solve_words, solve_fewest_words,
    };
    let puzzle = Words::read(grid, bank)?;
    let clock = Instant::now();
    let (mut status, mut solution, mut stats) = if solver == "fewest" {
        solve_fewest_words(&puzzle, limits)
    } else {
        let solver: WordSolver = solver
            .parse()
            .map_err(|e: String| anyhow!("--solver: {e} (or fewest, for decoy inputs)"))?;
        solve_words(&puzzle, solver, limits)
    };
    let mut solver = solver.to_string();
    if status == Status::Unsolvable && solver != "fewest" {
        // No placement holds every bank word: the bank has decoys (report 001's third
        // input). Without a chosen solver, place as few words as possible instead.
        if chosen {
            println!(
                "note: no placement uses every one of the {} bank words (decoys?); --solver fewest fills the grid with as few words as it can",
                puzzle.words.len()
            );
        } else {
            println!(
                "note: no placement uses every one of the {} bank words: the bank has decoys, so fewest (as few words as possible, branch and bound) solves it instead",
                puzzle.words.len()
            );
            let counts = stats;
            (status, solution, stats) = solve_fewest_words(&puzzle, limits);
            stats += counts;
            solver = format!("{solver}, then fewest");
        }
    }
    let ms = clock.elapsed().as_secs_f64() * 1e3;
    if let Some(solution) = &solution {
        print!("{}", solution.render(&puzzle));
    }
    let words = solution.as_ref().map_or(String::new(), |s| {
        format!(", {} words placed", s.placed.len())
    });
    println!(
        "status: {} ({solver}{words})\n{}",
        status.label(),
        stats.lines(ms)
    );
    Ok(())
}
