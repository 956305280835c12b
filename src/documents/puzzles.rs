//! Puzzle runs' records: solves.csv (one row per solve, written in plan order as solves
//! finish), the per-solver and per-puzzle tables, the charts and the report sections.
//! Everything can be recomputed from solves.csv alone.

use super::charts::{self, LogLines};
use super::page::write_folder_documents;
use super::section::{Figure, Section};
use super::table::Table;
use crate::records::load::five_numbers;
use crate::records::loaded::LoadedRun;
use crate::records::rows::SolveRow;
use crate::registry::InputError;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Per solver: solves, solved, unsolvable, limit, median and max ms, assignments and
/// placed values (summed over its solves).
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
            "placed",
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
                    mine.iter().map(|r| r.placed).sum::<u64>().to_string(),
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
///
/// # Errors
/// A file that cannot be read, drawn or written, named in the message.
pub fn write_puzzle_report(run: &LoadedRun, rows: &[SolveRow]) -> Result<Vec<PathBuf>, InputError> {
    let folder = &run.folder;
    let mut by_solver: BTreeMap<&str, Vec<&SolveRow>> = BTreeMap::new();
    for row in rows {
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
        after: Vec::new(),
        title: "Solvers".to_string(),
        text: vec!["Every solution reported as solved passed the rule checker. Assignments count every colour tried on a cell, placed the colours that passed the consistency check; report 000's attempted assignments are placed for brute, dumb and smart and assignments for smart-fc (where the report counted before the check). The paths solver counts every path extension tried, the sat solver every boolean variable set (decided or propagated), with decisions as nodes and conflicts as backtracks; both place all they try.".to_string()],
        tables: vec![summary_table(rows)],
        charts: Vec::new(),
    }];
    let time_series = per_size(&|r: &SolveRow| r.ms);
    if !time_series.is_empty() {
        let time_svg = charts::save(
            &LogLines {
                title: "Solve time against puzzle size".to_string(),
                x_desc: "cells in the puzzle".to_string(),
                y_desc: "milliseconds per solve (mean of solved, log scale)".to_string(),
                series: time_series,
                references: Vec::new(),
            },
            folder,
            "time_by_size",
        )?;
        let assignments_svg = charts::save(
            &LogLines {
                title: "Attempted assignments against puzzle size".to_string(),
                x_desc: "cells in the puzzle".to_string(),
                y_desc: "attempted assignments (mean of solved, log scale)".to_string(),
                series: per_size(&|r: &SolveRow| r.assignments as f64),
                references: Vec::new(),
            },
            folder,
            "assignments_by_size",
        )?;
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
        let cactus_svg = charts::save(
            &LogLines {
                title: "Puzzles solved against time (cactus plot)".to_string(),
                x_desc: "puzzles solved".to_string(),
                y_desc: "time limit needed (ms, log scale)".to_string(),
                series: cactus,
                references: Vec::new(),
            },
            folder,
            "cactus",
        )?;
        sections[0].charts = vec![
            Figure::new("time_by_size", "Solve time against size", time_svg),
            Figure::new(
                "assignments_by_size",
                "Assignments against size",
                assignments_svg,
            ),
            Figure::new("cactus", "Cactus plot", cactus_svg),
        ];
    }
    let panels = super::drawings::panels(rows);
    if !panels.is_empty() {
        let svg = charts::save(&super::drawings::Solutions { panels }, folder, "solutions")?;
        let puzzles = rows
            .iter()
            .map(|r| r.puzzle.as_str())
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        sections.push(Section {
            after: Vec::new(),
            title: "Solutions".to_string(),
            text: vec![format!(
                "Each puzzle as the first solver that solved it left it (from solves.csv's `solution` column{}): Flow Free as pipes between the sources (dots), Word Sudoku as letters, the cells the placed words cover shaded. A crossed panel is a puzzle no solver solved.",
                if puzzles > super::drawings::MAX_PANELS {
                    format!("; the first {} of {puzzles} puzzles", super::drawings::MAX_PANELS)
                } else {
                    String::new()
                }
            )],
            tables: Vec::new(),
            charts: vec![Figure::new("solutions", "Solutions", svg)],
        });
    }
    sections.push(Section {
        after: Vec::new(),
        title: "Time per puzzle".to_string(),
        text: vec![
            "Median milliseconds per solve; a status is given when the solves did not end solved."
                .to_string(),
        ],
        tables: vec![per_puzzle_table(rows)],
        charts: Vec::new(),
    });
    write_folder_documents(run, "puzzle solvers", &sections)
}
