//! Puzzle experiments (`kind = "puzzles"`): every solver on every puzzle, in parallel,
//! into solves.csv, puzzles_summary.csv, charts and report.md.

use super::run::run_folder;
use crate::csp::Limits;
use crate::csp::flow::{Puzzle, Solver, solve};
use crate::registry::puzzle_experiment::PuzzleExperiment;
use crate::report::Meta;
use crate::report::charts::{self, LogLines};
use crate::report::document::{Section, write_folder_documents};
use crate::report::load::{csv_rows, five_numbers};
use crate::report::table::Table;
use crate::report::{unix_now, work_bar};
use anyhow::{Context, Result, anyhow};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    /// Attempted assignments.
    pub assignments: u64,
    /// Search nodes.
    pub nodes: u64,
    /// Backtracks.
    pub backtracks: u64,
    /// Milliseconds.
    pub ms: f64,
}

/// Runs a puzzle experiment into a results folder.
pub fn run_puzzles(
    experiment: PuzzleExperiment,
    threads: usize,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<()> {
    // Read (and so check) every puzzle before anything is written.
    let puzzles: Vec<(PathBuf, Puzzle)> = experiment
        .puzzles
        .iter()
        .map(|p| Puzzle::read(p).map(|puzzle| (p.clone(), puzzle)))
        .collect::<Result<_, _>>()?;
    let jobs: Vec<(usize, Solver, u64)> = (0..puzzles.len())
        .flat_map(|p| experiment.solvers.iter().map(move |&s| (p, s)))
        .flat_map(|(p, s)| (0..experiment.repetitions).map(move |r| (p, s, experiment.seed + r)))
        .collect();
    let words: Vec<(String, crate::csp::word_sudoku::Puzzle, bool)> = experiment
        .word_sudoku
        .iter()
        .map(|input| {
            crate::csp::word_sudoku::Puzzle::read(&input.grid, &input.bank).map(|puzzle| {
                let name = input
                    .grid
                    .file_name()
                    .map_or(String::new(), |n| n.to_string_lossy().into_owned());
                (name, puzzle, input.decoys)
            })
        })
        .collect::<Result<_, _>>()?;
    let word_jobs: Vec<(usize, String)> = (0..words.len())
        .flat_map(|w| {
            let decoys = words[w].2;
            experiment
                .word_solvers
                .iter()
                .filter(move |s| (s.as_str() == "fewest") == decoys)
                .map(move |s| (w, s.clone()))
        })
        .collect();
    let folder = run_folder(out, &experiment.name)?;
    let mut meta = Meta {
        experiment: experiment.name.clone(),
        description: experiment.description.clone(),
        experiment_file: experiment.path.display().to_string(),
        experiment_source: experiment.source.clone(),
        game: match (jobs.is_empty(), word_jobs.is_empty()) {
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
        games_total: jobs.len() + word_jobs.len(),
        deterministic: experiment.time_limit.is_none(),
        timing_columns: vec!["ms".to_string()],
        ..Meta::starting("puzzles", threads)
    };
    meta.write(&folder)?;
    let limits = Limits {
        max_nodes: experiment.max_nodes,
        max_time: experiment.time_limit.map(Duration::from_secs_f64),
    };
    let bar = work_bar(jobs.len() as u64, quiet);
    if !quiet {
        eprintln!(
            "{}: {} solves on {threads} threads -> {}",
            experiment.name,
            jobs.len(),
            folder.display()
        );
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| anyhow!(e))?;
    let mut rows: Vec<SolveRow> = pool.install(|| {
        jobs.par_iter()
            .map(|&(p, solver, seed)| {
                let (path, puzzle) = &puzzles[p];
                let clock = Instant::now();
                let (status, stats) = solve(puzzle, solver, seed, limits);
                let ms = clock.elapsed().as_secs_f64() * 1e3;
                bar.inc(1);
                SolveRow {
                    puzzle: path
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                    rows: puzzle.rows,
                    cols: puzzle.cols,
                    colours: puzzle.colours.len(),
                    solver: solver.name().to_string(),
                    seed,
                    status: status.label().to_string(),
                    assignments: stats.assignments,
                    nodes: stats.nodes,
                    backtracks: stats.backtracks,
                    ms: (ms * 1e4).round() / 1e4,
                }
            })
            .collect()
    });
    let word_rows: Vec<SolveRow> = pool.install(|| {
        word_jobs
            .par_iter()
            .map(|(w, solver)| {
                let (name, puzzle, _) = &words[*w];
                let clock = Instant::now();
                let (status, _, stats) = if solver == "fewest" {
                    crate::csp::word_sudoku::solve_fewest_words(puzzle, limits)
                } else {
                    let parsed = solver.parse().expect("validated when the file was read");
                    crate::csp::word_sudoku::solve(puzzle, parsed, limits)
                };
                let ms = clock.elapsed().as_secs_f64() * 1e3;
                SolveRow {
                    puzzle: name.clone(),
                    rows: 9,
                    cols: 9,
                    colours: puzzle.words.len(),
                    solver: solver.clone(),
                    seed: experiment.seed,
                    status: status.label().to_string(),
                    assignments: stats.assignments,
                    nodes: stats.nodes,
                    backtracks: stats.backtracks,
                    ms: (ms * 1e4).round() / 1e4,
                }
            })
            .collect()
    });
    rows.extend(word_rows);
    bar.finish_and_clear();
    let path = folder.join("solves.csv");
    let mut writer = csv::Writer::from_path(&path).with_context(|| path.display().to_string())?;
    for row in &rows {
        writer.serialize(row)?;
    }
    writer.flush()?;
    meta.games_played = rows.len();
    meta.ended_unix = Some(unix_now());
    meta.status = "complete".to_string();
    meta.write(&folder)?;
    let documents = write_puzzle_report(&folder)?;
    if !quiet {
        print!("{}", summary_table(&rows).aligned());
        println!("results: {}", folder.display());
        for d in documents {
            println!("report: {}", d.display());
        }
    }
    Ok(())
}

/// Per solver: solves, solved, unsolvable, limit, median ms, assignments.
pub fn summary_table(rows: &[SolveRow]) -> Table {
    let mut solvers: Vec<&str> = Vec::new();
    for row in rows {
        if !solvers.contains(&row.solver.as_str()) {
            solvers.push(&row.solver);
        }
    }
    Table {
        headers: [
            "solver",
            "solves",
            "solved",
            "unsolvable",
            "limit",
            "median ms",
            "max ms",
            "assignments",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows: solvers
            .iter()
            .map(|&solver| {
                let mine: Vec<&SolveRow> = rows.iter().filter(|r| r.solver == solver).collect();
                let count = |status: &str| {
                    mine.iter()
                        .filter(|r| r.status == status)
                        .count()
                        .to_string()
                };
                let ms: Vec<f64> = mine.iter().map(|r| r.ms).collect();
                let spread = five_numbers(&ms).unwrap_or([0.0; 5]);
                vec![
                    solver.to_string(),
                    mine.len().to_string(),
                    count("solved"),
                    count("unsolvable"),
                    count("limit"),
                    format!("{:.3}", spread[2]),
                    format!("{:.3}", spread[4]),
                    mine.iter().map(|r| r.assignments).sum::<u64>().to_string(),
                ]
            })
            .collect(),
    }
}

/// Per puzzle (rows, in order of first appearance) and solver (columns): the median
/// milliseconds of its runs when they all end the same way (with the status unless
/// solved: `unsolvable 0.3`, `limit 10000.0`), else how many of them solved it.
pub fn per_puzzle_table(rows: &[SolveRow]) -> Table {
    let mut puzzles: Vec<&str> = Vec::new();
    let mut solvers: Vec<&str> = Vec::new();
    for row in rows {
        if !puzzles.contains(&row.puzzle.as_str()) {
            puzzles.push(&row.puzzle);
        }
        if !solvers.contains(&row.solver.as_str()) {
            solvers.push(&row.solver);
        }
    }
    let cell = |puzzle: &str, solver: &str| -> String {
        let runs: Vec<&SolveRow> = rows
            .iter()
            .filter(|r| r.puzzle == puzzle && r.solver == solver)
            .collect();
        let Some(first) = runs.first() else {
            return String::new();
        };
        if runs.iter().any(|r| r.status != first.status) {
            let solved = runs.iter().filter(|r| r.status == "solved").count();
            return format!("{solved}/{} solved", runs.len());
        }
        let ms: Vec<f64> = runs.iter().map(|r| r.ms).collect();
        let median = five_numbers(&ms).map_or(0.0, |spread| spread[2]);
        if first.status == "solved" {
            format!("{median:.1}")
        } else {
            format!("{} {median:.1}", first.status)
        }
    };
    let mut headers = vec!["puzzle".to_string(), "size".to_string()];
    headers.extend(solvers.iter().map(|s| s.to_string()));
    Table {
        headers,
        rows: puzzles
            .iter()
            .map(|&puzzle| {
                let size = rows
                    .iter()
                    .find(|r| r.puzzle == puzzle)
                    .map_or(String::new(), |r| format!("{}x{}", r.rows, r.cols));
                let mut line = vec![puzzle.to_string(), size];
                line.extend(solvers.iter().map(|&solver| cell(puzzle, solver)));
                line
            })
            .collect(),
    }
}

/// Charts and documents of a puzzle-experiment folder, from solves.csv.
pub fn write_puzzle_report(folder: &Path) -> Result<Vec<PathBuf>> {
    let rows: Vec<SolveRow> = csv_rows(&folder.join("solves.csv")).map_err(|e| anyhow!(e))?;
    let mut by_solver: BTreeMap<&str, Vec<&SolveRow>> = BTreeMap::new();
    for row in &rows {
        by_solver.entry(&row.solver).or_default().push(row);
    }
    // Time and assignments against puzzle size (cells), mean per size, solved runs only.
    let per_size = |value: &dyn Fn(&SolveRow) -> f64| -> Vec<(String, Vec<(f64, f64)>)> {
        by_solver
            .iter()
            .map(|(solver, rows)| {
                let mut sizes: BTreeMap<usize, (f64, usize)> = BTreeMap::new();
                for r in rows.iter().filter(|r| r.status == "solved") {
                    let entry = sizes.entry(r.rows * r.cols).or_default();
                    entry.0 += value(r).max(1e-3);
                    entry.1 += 1;
                }
                (
                    solver.to_string(),
                    sizes
                        .into_iter()
                        .map(|(c, (sum, n))| (c as f64, sum / n as f64))
                        .collect(),
                )
            })
            .filter(|(_, points): &(String, Vec<(f64, f64)>)| !points.is_empty())
            .collect()
    };
    let mut sections = vec![Section {
        title: "Solvers".to_string(),
        text: vec!["Every solution reported as solved passed the rule checker. Attempted assignments count every colour tried on a cell (report 000's measure); the paths solver counts every path extension tried; the sat solver every boolean variable set (decided or propagated), with decisions as nodes and conflicts as backtracks.".to_string()],
        tables: vec![summary_table(&rows)],
        charts: Vec::new(),
    }];
    let time_series = per_size(&|r: &SolveRow| r.ms);
    if !time_series.is_empty() {
        charts::save(
            &LogLines {
                title: "Solve time against puzzle size".to_string(),
                x_desc: "cells in the puzzle".to_string(),
                y_desc: "milliseconds per solve (mean of solved, log scale)".to_string(),
                series: time_series,
                references: Vec::new(),
            },
            folder,
            "time_by_size",
        )
        .map_err(|e| anyhow!(e))?;
        charts::save(
            &LogLines {
                title: "Attempted assignments against puzzle size".to_string(),
                x_desc: "cells in the puzzle".to_string(),
                y_desc: "attempted assignments (mean of solved, log scale)".to_string(),
                series: per_size(&|r: &SolveRow| r.assignments as f64),
                references: Vec::new(),
            },
            folder,
            "assignments_by_size",
        )
        .map_err(|e| anyhow!(e))?;
        // Cactus: the n-th fastest solve of each solver.
        let cactus: Vec<(String, Vec<(f64, f64)>)> = by_solver
            .iter()
            .map(|(solver, rows)| {
                let mut times: Vec<f64> = rows
                    .iter()
                    .filter(|r| r.status == "solved")
                    .map(|r| r.ms.max(1e-3))
                    .collect();
                times.sort_by(f64::total_cmp);
                (
                    solver.to_string(),
                    times
                        .iter()
                        .enumerate()
                        .map(|(i, &t)| ((i + 1) as f64, t))
                        .collect(),
                )
            })
            .filter(|(_, points): &(String, Vec<(f64, f64)>)| !points.is_empty())
            .collect();
        charts::save(
            &LogLines {
                title: "Puzzles solved against time (cactus plot)".to_string(),
                x_desc: "puzzles solved".to_string(),
                y_desc: "time limit needed (ms, log scale)".to_string(),
                series: cactus,
                references: Vec::new(),
            },
            folder,
            "cactus",
        )
        .map_err(|e| anyhow!(e))?;
        sections[0].charts = vec![
            (
                "time_by_size".to_string(),
                "Solve time against size".to_string(),
            ),
            (
                "assignments_by_size".to_string(),
                "Assignments against size".to_string(),
            ),
            ("cactus".to_string(), "Cactus plot".to_string()),
        ];
    }
    sections.push(Section {
        title: "Time per puzzle".to_string(),
        text: vec![
            "Median milliseconds per solve; a status is given when the solves did not end solved."
                .to_string(),
        ],
        tables: vec![per_puzzle_table(&rows)],
        charts: Vec::new(),
    });
    write_folder_documents(folder, "puzzle solvers", &sections).map_err(|e| anyhow!(e))
}
