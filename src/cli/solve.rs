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

/// A solve's outcome: what `arbiter solve` prints, and its parts.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Solved {
    /// `flow` or `word-sudoku`.
    pub puzzle: &'static str,
    /// The solver as the output names it (`sat`, `mrv-lcv, then fewest`).
    pub solver: String,
    /// `solved`, `unsolvable` or `limit`.
    pub status: String,
    /// The solution as printed (a grid of letters), when solved.
    pub solution: Option<String>,
    /// The search's counters.
    pub assignments: u64,
    /// See [`crate::csp::SolveStats`].
    pub placed: u64,
    /// See [`crate::csp::SolveStats`].
    pub nodes: u64,
    /// See [`crate::csp::SolveStats`].
    pub backtracks: u64,
    /// Wall time of the solve, in ms.
    pub ms: f64,
    /// Notes printed before the solution (a Word Sudoku bank with decoys).
    pub notes: Vec<String>,
    /// Everything `arbiter solve` prints.
    pub text: String,
}

/// `arbiter solve`.
///
/// # Errors
/// As [`execute`].
pub fn solve(args: SolveArgs) -> Result<()> {
    print!("{}", execute(args)?.text);
    Ok(())
}

/// Solves the puzzle.
///
/// # Errors
/// A bad argument or puzzle file.
pub fn execute(args: SolveArgs) -> Result<Solved> {
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
    let solution = match &status {
        Status::Solved(grid) => Some(puzzle.render(grid)),
        _ => None,
    };
    let summary = format!(
        "status: {} ({solver}, {}x{}, {} colours)\n{}\n",
        status.label(),
        puzzle.rows,
        puzzle.cols,
        puzzle.colours.len(),
        stats.lines(ms)
    );
    Ok(solved(
        "flow",
        solver.to_string(),
        status.label(),
        solution,
        stats,
        ms,
        Vec::new(),
        summary,
    ))
}

/// A [`Solved`] with its printed text: the notes, the solution and `summary`.
#[allow(clippy::too_many_arguments)]
fn solved(
    puzzle: &'static str,
    solver: String,
    status: &str,
    solution: Option<String>,
    stats: crate::csp::SolveStats,
    ms: f64,
    notes: Vec<String>,
    summary: String,
) -> Solved {
    let mut text = String::new();
    for note in &notes {
        text.push_str(&format!("note: {note}\n"));
    }
    text.push_str(solution.as_deref().unwrap_or(""));
    text.push_str(&summary);
    Solved {
        puzzle,
        solver,
        status: status.to_string(),
        solution,
        assignments: stats.assignments,
        placed: stats.placed,
        nodes: stats.nodes,
        backtracks: stats.backtracks,
        ms,
        notes,
        text,
    }
}

/// `arbiter solve GRID --bank BANK`: Word Sudoku.
fn solve_word_sudoku(
    grid: &std::path::Path,
    bank: &std::path::Path,
    solver: &str,
    chosen: bool,
    limits: Limits,
) -> Result<Solved> {
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
    let mut notes = Vec::new();
    if status == Status::Unsolvable && solver != "fewest" {
        // No placement holds every bank word: the bank has decoys (report 001's third
        // input). Without a chosen solver, place as few words as possible instead.
        if chosen {
            notes.push(format!(
                "no placement uses every one of the {} bank words (decoys?); --solver fewest fills the grid with as few words as it can",
                puzzle.words.len()
            ));
        } else {
            notes.push(format!(
                "no placement uses every one of the {} bank words: the bank has decoys, so fewest (as few words as possible, branch and bound) solves it instead",
                puzzle.words.len()
            ));
            let counts = stats;
            (status, solution, stats) = solve_fewest_words(&puzzle, limits);
            stats += counts;
            solver = format!("{solver}, then fewest");
        }
    }
    let ms = clock.elapsed().as_secs_f64() * 1e3;
    let words = solution.as_ref().map_or(String::new(), |s| {
        format!(", {} words placed", s.placed.len())
    });
    let summary = format!(
        "status: {} ({solver}{words})\n{}\n",
        status.label(),
        stats.lines(ms)
    );
    let rendered = solution.as_ref().map(|s| s.render(&puzzle));
    Ok(solved(
        "word-sudoku",
        solver,
        status.label(),
        rendered,
        stats,
        ms,
        notes,
        summary,
    ))
}
