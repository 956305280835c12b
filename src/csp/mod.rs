//! Puzzle models and solvers (constraint satisfaction), measured like the agents:
//! attempted assignments, nodes, backtracks, time; uses core only, never games or search.

pub mod flow;
pub mod sat;
pub mod word_sudoku;

use std::time::{Duration, Instant};

/// Stack bytes for a thread that runs a solver: the backtracking solvers recurse once per
/// cell (64 MiB is reserved, not used: only the pages touched are committed).
pub const SOLVER_STACK_BYTES: usize = 64 << 20;

/// A puzzle file that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct PuzzleError {
    /// The file.
    pub file: String,
    /// The 1-based line, if the problem is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

/// The counters every solver keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Values tried on variables, consistent or not (report 000's "attempted assignments"
    /// for its improved solver, smart-fc, which counted before the check).
    pub assignments: u64,
    /// Values that passed the consistency check and were placed (report 000's "attempted
    /// assignments" for brute, dumb and smart, which counted after the check). Solvers that
    /// only generate consistent values (paths, sat, Word Sudoku) place all they try.
    pub placed: u64,
    /// Search nodes (calls of the recursive search).
    pub nodes: u64,
    /// Nodes that failed and were undone.
    pub backtracks: u64,
}

impl std::ops::AddAssign for SolveStats {
    fn add_assign(&mut self, other: SolveStats) {
        self.assignments += other.assignments;
        self.placed += other.placed;
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
    }
}

impl SolveStats {
    /// The counters and the time, one per line, as `arbiter solve` prints them.
    pub fn lines(&self, ms: f64) -> String {
        format!(
            "assignments: {} (values tried)\nplaced: {} (values that passed the consistency check)\nnodes: {}\nbacktracks: {}\nms: {ms:.3}",
            self.assignments, self.placed, self.nodes, self.backtracks
        )
    }
}

/// Bounds on one solve: the search stops with status `limit` past either.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// At most this many nodes.
    pub max_nodes: Option<u64>,
    /// At most this much time.
    pub max_time: Option<Duration>,
    /// Raised to stop at once (Ctrl-C); the solve is then abandoned by its caller.
    pub stop: Option<&'static std::sync::atomic::AtomicBool>,
}

/// Checks limits during a search (the clock every 1024 nodes).
pub(crate) struct Budget {
    limits: Limits,
    started: Instant,
    /// Set once a limit has been reached.
    pub exhausted: bool,
}

impl Budget {
    pub(crate) fn new(limits: Limits) -> Budget {
        Budget {
            limits,
            started: Instant::now(),
            exhausted: false,
        }
    }

    /// Whether the search must stop, given the nodes so far.
    pub(crate) fn spent(&mut self, nodes: u64) -> bool {
        if !self.exhausted {
            let too_many = self.limits.max_nodes.is_some_and(|max| nodes > max);
            let too_long = nodes.is_multiple_of(1024)
                && (self
                    .limits
                    .max_time
                    .is_some_and(|max| self.started.elapsed() > max)
                    || self
                        .limits
                        .stop
                        .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed)));
            self.exhausted = too_many || too_long;
        }
        self.exhausted
    }
}
