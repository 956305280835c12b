//! Puzzle experiments: (puzzle, solver, seed) triples are the plan (Flow Free first, then
//! Word Sudoku), a job is one solve, and solves.csv is its file.

use super::{Error, Finished, Kind, Options, Start, Work, execute};
use crate::csp::Limits;
use crate::csp::flow::{self, Puzzle, Solver};
use crate::csp::word_sudoku;
use crate::records::rows::SolveRow;
use crate::records::solves::{SolveRecord, SolvesCsv};
use crate::records::{Meta, Reporter};
use crate::registry::puzzle_experiment::PuzzleExperiment;
use std::io;
use std::path::Path;
use std::time::{Duration, Instant};

/// A Word Sudoku solver as an experiment names it.
#[derive(Clone, Copy, Debug)]
enum WordSolver {
    /// Every bank word placed, with one of report 001's solvers.
    All(word_sudoku::Solver),
    /// As few words as possible (decoy banks).
    Fewest,
}

impl WordSolver {
    fn name(self) -> &'static str {
        match self {
            WordSolver::All(solver) => solver.name(),
            WordSolver::Fewest => "fewest",
        }
    }
}

/// A puzzle experiment with every input read.
struct Puzzles<'a> {
    experiment: &'a PuzzleExperiment,
    flow: Vec<(String, Puzzle)>,
    flow_jobs: Vec<(usize, Solver, u64)>,
    words: Vec<(String, word_sudoku::Puzzle)>,
    word_jobs: Vec<(usize, WordSolver)>,
    limits: Limits,
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
}

/// Milliseconds since `clock`, to 4 decimals.
fn millis_since(clock: Instant) -> f64 {
    (clock.elapsed().as_secs_f64() * 1e3 * 1e4).round() / 1e4
}

impl Work for Puzzles<'_> {
    type Record = SolveRecord;

    fn jobs(&self) -> u64 {
        (self.flow_jobs.len() + self.word_jobs.len()) as u64
    }

    fn stack_bytes(&self) -> Option<usize> {
        Some(crate::csp::SOLVER_STACK_BYTES)
    }

    /// A puzzle's solves (every solver, every repetition) stay on one shard.
    fn joined_to_previous(&self, id: u64) -> bool {
        let puzzle = |id: u64| {
            let index = id as usize;
            match self.flow_jobs.get(index) {
                Some(&(p, _, _)) => (0, p),
                None => (1, self.word_jobs[index - self.flow_jobs.len()].0),
            }
        };
        id > 0 && puzzle(id) == puzzle(id - 1)
    }

    fn execute(&self, id: u64) -> Option<SolveRecord> {
        let index = id as usize;
        let row = match self.flow_jobs.get(index) {
            Some(&(p, solver, seed)) => {
                let (name, puzzle) = &self.flow[p];
                let clock = Instant::now();
                let (status, stats) = flow::solve(puzzle, solver, seed, self.limits);
                let ms = millis_since(clock);
                let solution = match &status {
                    flow::Status::Solved(grid) => puzzle.compact(grid),
                    _ => String::new(),
                };
                SolveRow {
                    puzzle: name.clone(),
                    rows: puzzle.rows,
                    cols: puzzle.cols,
                    colours: puzzle.colours.len(),
                    solver: solver.name().to_string(),
                    seed,
                    status: status.label().to_string(),
                    assignments: stats.assignments,
                    placed: stats.placed,
                    nodes: stats.nodes,
                    backtracks: stats.backtracks,
                    ms,
                    solution,
                }
            }
            None => {
                let (w, solver) = self.word_jobs[index - self.flow_jobs.len()];
                let (name, puzzle) = &self.words[w];
                let clock = Instant::now();
                let (status, found, stats) = match solver {
                    WordSolver::Fewest => word_sudoku::solve_fewest_words(puzzle, self.limits),
                    WordSolver::All(solver) => word_sudoku::solve(puzzle, solver, self.limits),
                };
                let ms = millis_since(clock);
                let solution = found.map_or(String::new(), |s| s.compact(puzzle));
                SolveRow {
                    puzzle: name.clone(),
                    rows: 9,
                    cols: 9,
                    colours: puzzle.words.len(),
                    solver: solver.name().to_string(),
                    seed: self.experiment.seed,
                    status: status.label().to_string(),
                    assignments: stats.assignments,
                    placed: stats.placed,
                    nodes: stats.nodes,
                    backtracks: stats.backtracks,
                    ms,
                    solution,
                }
            }
        };
        // Stopped by Ctrl-C: not a result; solved again on resume.
        let stopped = self
            .limits
            .stop
            .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed));
        (!stopped).then_some(SolveRecord { id, row })
    }
}

impl Kind for Puzzles<'_> {
    fn unit(&self) -> &'static str {
        "solves"
    }

    fn describe(&self) -> String {
        format!("{} solves", self.jobs())
    }

    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<SolveRecord> + '_>> {
        Ok(Box::new(SolvesCsv::create(folder)?))
    }
}

/// Reads every input of `experiment` (so bad ones are refused before anything is written)
/// and runs it.
pub(super) fn run(
    experiment: PuzzleExperiment,
    start: Start,
    options: &Options,
) -> Result<Finished, Error> {
    let flow: Vec<(String, Puzzle)> = experiment
        .puzzles
        .iter()
        .map(|path| {
            Puzzle::read(path)
                .map(|puzzle| (file_name(path), puzzle))
                .map_err(|e| Error::Message(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let flow_jobs: Vec<(usize, Solver, u64)> = (0..flow.len())
        .flat_map(|p| experiment.solvers.iter().map(move |&s| (p, s)))
        .flat_map(|(p, s)| (0..experiment.repetitions).map(move |r| (p, s, experiment.seed + r)))
        .collect();
    let mut words = Vec::new();
    let mut word_jobs = Vec::new();
    for input in &experiment.word_sudoku {
        let puzzle = word_sudoku::Puzzle::read(&input.grid, &input.bank)
            .map_err(|e| Error::Message(e.to_string()))?;
        for name in &experiment.word_solvers {
            let solver = if name == "fewest" {
                WordSolver::Fewest
            } else {
                WordSolver::All(name.parse().map_err(|e: String| {
                    Error::Message(format!("{}: {e}", experiment.path.display()))
                })?)
            };
            // `fewest` runs on inputs with decoys, the other solvers on the rest.
            if matches!(solver, WordSolver::Fewest) == input.decoys {
                word_jobs.push((words.len(), solver));
            }
        }
        words.push((file_name(&input.grid), puzzle));
    }
    let puzzles = Puzzles {
        experiment: &experiment,
        flow,
        flow_jobs,
        words,
        word_jobs,
        limits: Limits {
            max_nodes: experiment.max_nodes,
            max_time: experiment.time_limit.map(Duration::from_secs_f64),
            stop: Some(super::interrupt_stop()),
        },
    };
    let (folder, meta) = start.open(&experiment.name, options.quiet, || Meta {
        experiment: experiment.name.clone(),
        description: experiment.description.clone(),
        experiment_file: experiment.path.display().to_string(),
        experiment_source: experiment.source.clone(),
        game: match (puzzles.flow_jobs.is_empty(), puzzles.word_jobs.is_empty()) {
            (false, true) => "flow-free",
            (true, false) => "word-sudoku",
            _ => "flow-free + word-sudoku",
        }
        .to_string(),
        seed: experiment.seed,
        games_per_matchup: experiment.repetitions,
        agents: experiment
            .solvers
            .iter()
            .map(|s| (s.name().to_string(), s.name().to_string()))
            .collect(),
        deterministic: experiment.time_limit.is_none(),
        timing_columns: vec!["ms".to_string()],
        ..Meta::starting(crate::records::RunKind::Puzzles, options.threads)
    })?;
    execute(&puzzles, &folder, meta, options)
}
