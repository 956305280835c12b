//! Puzzle-solver experiments (`kind = "puzzles"`): solvers x puzzle files x repetitions.

use super::reference::{ReferenceKind, checked_references};
use super::{InputError, line_of_key, toml_error};
use crate::csp::flow::Solver;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A validated puzzle experiment.
#[derive(Clone, Debug)]
pub struct PuzzleExperiment {
    /// Name (results folder).
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file.
    pub path: PathBuf,
    /// The file's text.
    pub source: String,
    /// Solvers, in order.
    pub solvers: Vec<Solver>,
    /// Puzzle files, sorted within each folder given.
    pub puzzles: Vec<PathBuf>,
    /// Word Sudoku inputs: grid, bank, and whether the bank has decoys (then only the
    /// `fewest` solver applies).
    pub word_sudoku: Vec<WordInput>,
    /// Word Sudoku solvers: mrv-lcv, plain, fewest.
    pub word_solvers: Vec<String>,
    /// Runs of each (puzzle, solver) with seeds `seed`, `seed + 1`, ... (only the dumb
    /// solver uses them).
    pub repetitions: u64,
    /// First seed.
    pub seed: u64,
    /// Node limit per solve.
    pub max_nodes: Option<u64>,
    /// Time limit per solve, in seconds.
    pub time_limit: Option<f64>,
}

/// One Word Sudoku input of a puzzle experiment.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WordInput {
    /// The grid file.
    pub grid: PathBuf,
    /// The bank file.
    pub bank: PathBuf,
    /// Decoy words: as few words as possible, any subset.
    #[serde(default)]
    pub decoys: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleFile {
    #[allow(dead_code)]
    kind: String,
    name: Option<String>,
    description: Option<String>,
    #[serde(default)]
    solvers: Vec<String>,
    #[serde(default)]
    puzzles: Vec<PathBuf>,
    #[serde(default)]
    word_sudoku: Vec<WordInput>,
    word_solvers: Option<Vec<String>>,
    repetitions: Option<i64>,
    seed: Option<u64>,
    max_nodes: Option<u64>,
    time_limit: Option<f64>,
    /// Published values, read by [`super::reference::parse_references`].
    #[serde(default, rename = "reference")]
    _reference: Vec<toml::Table>,
}

impl PuzzleExperiment {
    /// Validates a puzzle experiment read from `path`; puzzle paths are relative to the
    /// file's folder (or the current one), folders stand for their `*.txt` files.
    ///
    /// # Errors
    /// A malformed file, an unknown solver, a missing puzzle or a bad limit, with the line.
    pub fn parse(path: &Path, source: String) -> Result<PuzzleExperiment, InputError> {
        let file: PuzzleFile =
            toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let fail = |key: &str, message: String| {
            InputError::in_file(path, line_of_key(&source, key), message)
        };
        let mut solvers = Vec::new();
        for name in &file.solvers {
            solvers.push(name.parse::<Solver>().map_err(|e| fail("solvers", e))?);
        }
        if (solvers.is_empty() || file.puzzles.is_empty()) && file.word_sudoku.is_empty() {
            return Err(fail(
                "solvers",
                "give solvers and puzzles (Flow Free), or word_sudoku inputs".to_string(),
            ));
        }
        let resolve = |given: &PathBuf| -> PathBuf {
            match path.parent().map(|dir| dir.join(given)) {
                Some(beside) if given.is_relative() && beside.exists() => beside,
                _ => given.clone(),
            }
        };
        let mut word_sudoku = Vec::new();
        for input in &file.word_sudoku {
            let (grid, bank) = (resolve(&input.grid), resolve(&input.bank));
            for file_path in [&grid, &bank] {
                if !file_path.is_file() {
                    return Err(fail(
                        "word_sudoku",
                        format!("{}: no such file", file_path.display()),
                    ));
                }
            }
            word_sudoku.push(WordInput {
                grid,
                bank,
                decoys: input.decoys,
            });
        }
        let word_solvers = file
            .word_solvers
            .clone()
            .unwrap_or_else(|| vec!["mrv-lcv".to_string()]);
        for name in &word_solvers {
            if name != "fewest" {
                name.parse::<crate::csp::word_sudoku::Solver>()
                    .map_err(|e| fail("word_solvers", format!("{e} (or fewest)")))?;
            }
        }
        let mut puzzles = Vec::new();
        for given in &file.puzzles {
            let beside = path.parent().map(|dir| dir.join(given));
            let resolved = match beside {
                Some(beside) if given.is_relative() && beside.exists() => beside,
                _ => given.clone(),
            };
            if resolved.is_dir() {
                let files = puzzle_files(&resolved)
                    .map_err(|e| fail("puzzles", format!("{}: {e}", resolved.display())))?;
                puzzles.extend(files);
            } else if resolved.is_file() {
                puzzles.push(resolved);
            } else {
                return Err(fail(
                    "puzzles",
                    format!("{}: no such puzzle file or folder", given.display()),
                ));
            }
        }
        let repetitions = file.repetitions.unwrap_or(1);
        if !(1..=1000).contains(&repetitions) {
            return Err(fail(
                "repetitions",
                format!("repetitions = {repetitions}: must be from 1 to 1000"),
            ));
        }
        if let Some(t) = file.time_limit
            && let Err(e) = crate::core::time_limit(t)
        {
            return Err(fail("time_limit", format!("time_limit = {e}")));
        }
        let file_name = |p: &PathBuf| {
            p.file_name()
                .map_or(String::new(), |n| n.to_string_lossy().into_owned())
        };
        let puzzle_names: Vec<String> = puzzles
            .iter()
            .chain(word_sudoku.iter().map(|w| &w.grid))
            .map(file_name)
            .collect();
        let solver_names: Vec<String> = solvers
            .iter()
            .map(|s| s.name().to_string())
            .chain(word_solvers.iter().cloned())
            .collect();
        checked_references(path, &source, ReferenceKind::Puzzles, |reference| {
            let [puzzle, solver] = &reference.row;
            if !puzzle_names.contains(puzzle) {
                Some(format!(
                    "puzzle '{puzzle}' is not one of the experiment's ({})",
                    puzzle_names.join(", ")
                ))
            } else if !solver_names.contains(solver) {
                Some(format!(
                    "solver '{solver}' is not one of the experiment's ({})",
                    solver_names.join(", ")
                ))
            } else {
                None
            }
        })?;
        Ok(PuzzleExperiment {
            name: super::run_name(file.name, path, "puzzles")
                .map_err(|e| fail("name", e.message))?,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source,
            solvers,
            puzzles,
            word_sudoku,
            word_solvers,
            repetitions: repetitions as u64,
            seed: file.seed.unwrap_or(1),
            max_nodes: file.max_nodes,
            time_limit: file.time_limit,
        })
    }
}

/// The `*.txt` files of `folder`, sorted by name (a puzzle folder).
///
/// # Errors
/// The folder cannot be listed.
pub fn puzzle_files(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    Ok(files)
}
