//! `solve`: one puzzle file, one solver; the checked solution, the counters, the time.

use super::{Error, time_limit};
use crate::csp::Limits;
use crate::csp::flow::{Puzzle, Solver, Status, solve as solve_flow};
use std::path::PathBuf;
use std::time::Instant;

/// A puzzle to solve.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SolveRequest {
    /// A Flow Free puzzle file, or a Word Sudoku grid file with `bank`.
    pub file: PathBuf,
    /// The solver [default: sat for Flow Free; mrv-lcv, then fewest for Word Sudoku].
    pub solver: Option<String>,
    /// The Word Sudoku word bank: makes `file` a Word Sudoku grid.
    pub bank: Option<PathBuf>,
    /// Seed of the dumb solver's random orders.
    pub seed: u64,
    /// Stop after this many search nodes (status `limit`).
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (status `limit`).
    pub time_limit: Option<f64>,
}

/// The seed of a solve when not told.
pub const DEFAULT_SEED: u64 = 1;

impl Default for SolveRequest {
    fn default() -> SolveRequest {
        SolveRequest {
            file: PathBuf::new(),
            solver: None,
            bank: None,
            seed: DEFAULT_SEED,
            max_nodes: None,
            time_limit: None,
        }
    }
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

/// Solves the puzzle.
///
/// # Errors
/// A bad argument or puzzle file.
pub fn solve(args: SolveRequest) -> Result<Solved, Error> {
    let max_time = time_limit(args.time_limit)?;
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
        .map_err(|e: String| Error::Message(format!("--solver: {e}")))?;
    let puzzle = Puzzle::read(&args.file)?;
    let clock = Instant::now();
    // The solvers recurse once per cell: they get the stack they need.
    let (status, stats) = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(crate::csp::SOLVER_STACK_BYTES)
            .spawn_scoped(scope, || solve_flow(&puzzle, solver, args.seed, limits))
            .map_err(|e| Error::Message(format!("cannot start the solver: {e}")))?
            .join()
            .map_err(|_| Error::Message("the solver failed".to_string()))
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
) -> Result<Solved, Error> {
    use crate::csp::flow::Status;
    use crate::csp::word_sudoku::{
        Puzzle as Words, Solver as WordSolver, solve as solve_words, solve_fewest_words,
    };
    let puzzle = Words::read(grid, bank)?;
    let clock = Instant::now();
    let (mut status, mut solution, mut stats) = if solver == "fewest" {
        solve_fewest_words(&puzzle, limits)
    } else {
        let solver: WordSolver = solver.parse().map_err(|e: String| {
            Error::Message(format!("--solver: {e} (or fewest, for decoy inputs)"))
        })?;
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
