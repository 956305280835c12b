//! Rows of a run's files that several documents read: a leaf, so that the report of one
//! kind of run and the checks against published numbers need not import each other.

use serde::{Deserialize, Serialize};

/// The file of a puzzle run's solves.
pub const SOLVES: &str = "solves.csv";

/// One row of solves.csv.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRow {
    /// Puzzle file name.
    pub puzzle: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Colours.
    pub colours: usize,
    /// Solver name.
    pub solver: String,
    /// Seed.
    pub seed: u64,
    /// solved, unsolvable or limit.
    pub status: String,
    /// Values tried, consistent or not (report 000's count for smart-fc).
    pub assignments: u64,
    /// Values that passed the consistency check and were placed (report 000's count for
    /// brute, dumb and smart). Absent from files written before it existed: read as 0.
    #[serde(default)]
    pub placed: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Backtracks.
    pub backtracks: u64,
    /// Milliseconds.
    pub ms: f64,
    /// The solution in one line (empty when not solved; absent from older files): Flow
    /// Free, rows of colour letters joined by `/` with `*` after each source; Word Sudoku,
    /// the grid's rows joined by `/`, `|`, and the placed words `O,R,C:WORD` joined by `;`.
    #[serde(default)]
    pub solution: String,
}
