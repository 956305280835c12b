//! A run folder read once: its meta.json and the tables of its kind, into one typed value
//! that every document of the run (report.md, index.html, the charts, summary.json,
//! `show`'s tables, the published numbers beside arbiter's) is made from.

use super::load::{CsvCells, GamesTally, RunData, csv_rows};
use super::rows::{SOLVES, SolveRow};
use super::search::{SEARCHES, SearchRow};
use super::tune::{TUNE, TUNE_GAMES, TuneGameRow, TuneValues};
use super::{Meta, RunKind};
use crate::registry::InputError;
use std::path::{Path, PathBuf};

/// A run folder as read once.
pub struct LoadedRun {
    /// The run folder.
    pub folder: PathBuf,
    /// meta.json, when the folder has one (folders written by hand or by old versions
    /// may not).
    pub meta: Option<Meta>,
    /// What the run did: meta.json's kind, or without one, the kind whose file the folder
    /// holds.
    pub kind: RunKind,
    /// The tables of its kind.
    pub tables: RunTables,
    /// Its kind's summary file as text cells, for readers by column name (summary.csv,
    /// search_summary.csv, tune.csv; a puzzle run's summary is made from solves.csv):
    /// `None` while it is not written.
    pub summary_cells: Option<CsvCells>,
    /// A tournament in rounds' standings.csv, when written and readable (its unreadable
    /// rows left out).
    pub standings: Option<CsvCells>,
}

/// The tables of a run, by its kind.
pub enum RunTables {
    /// A game run: summary.csv and the games.
    Games(Box<RunData>),
    /// A search comparison: search.csv.
    Search(Vec<SearchRow>),
    /// A puzzle run: solves.csv.
    Puzzles(Vec<SolveRow>),
    /// A tuning run: tune.csv and tune_games.csv.
    Tune(TuneValues, Vec<TuneGameRow>),
    /// A table run: tables.csv's games and their tally, with the agents' names.
    Tables(Box<TablesData>),
}

/// A table run's games as read back.
pub struct TablesData {
    /// The agents' names (meta.json's order).
    pub names: Vec<String>,
    /// The games, in plan order.
    pub games: Vec<super::tables::TableGame>,
    /// Their tally (closed).
    pub tally: super::tables::TablesTally,
}

/// What a reader of a run needs of its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Everything the documents draw: the games, moves.csv's times (when recorded).
    Documents,
    /// The tables `show` prints: summary.csv required (a run that has not written it yet
    /// is said to be going or stopped), the games only for the ratings (a games.csv that
    /// cannot be read leaves them out), no moves.
    Tables,
}

impl LoadedRun {
    /// Reads `folder` for `reading`.
    ///
    /// # Errors
    /// A file of the run's kind that is missing or malformed, named with its line.
    pub fn read(folder: &Path, reading: Reading) -> Result<LoadedRun, InputError> {
        LoadedRun::read_with(folder, reading, None)
    }

    /// As [`LoadedRun::read`], with a game run's games as its recorder counted them while
    /// it wrote them (`tally`: every game in the files, and only those) instead of read
    /// back from games.csv and moves.csv.
    ///
    /// # Errors
    /// As [`LoadedRun::read`].
    pub fn read_with(
        folder: &Path,
        reading: Reading,
        tally: Option<GamesTally>,
    ) -> Result<LoadedRun, InputError> {
        LoadedRun::from_meta(folder, read_meta(folder), reading, tally)
    }

    /// As [`LoadedRun::read_with`], with meta.json as already read (`meta`, `None` for a
    /// folder without one), so that a reader that looked at it first (is the run still
    /// going?) does not read it again.
    ///
    /// # Errors
    /// As [`LoadedRun::read`].
    pub fn from_meta(
        folder: &Path,
        meta: Option<Meta>,
        reading: Reading,
        tally: Option<GamesTally>,
    ) -> Result<LoadedRun, InputError> {
        let kind = meta
            .as_ref()
            .map_or_else(|| kind_of_files(folder), |m| m.kind);
        let tables = match kind {
            RunKind::Tune => RunTables::Tune(
                super::tune::read_values(folder)?,
                csv_rows(&folder.join(TUNE_GAMES))?,
            ),
            RunKind::Search => RunTables::Search(csv_rows(&folder.join(SEARCHES))?),
            RunKind::Tables => {
                let mut names: Vec<String> = meta
                    .as_ref()
                    .map(|m| m.agents.iter().map(|(name, _)| name.clone()).collect())
                    .unwrap_or_default();
                let games = super::tables::read_tables(folder, &mut names)?;
                let tally = super::tables::tally_of(&games, names.len());
                RunTables::Tables(Box::new(TablesData {
                    names,
                    games,
                    tally,
                }))
            }
            RunKind::Puzzles => RunTables::Puzzles(csv_rows(&folder.join(SOLVES))?),
            RunKind::Tournament => {
                if reading == Reading::Tables && !folder.join("summary.csv").is_file() {
                    return Err(InputError::in_file(
                        folder,
                        None,
                        "no summary.csv yet (the run is still going or stopped before its end)"
                            .to_string(),
                    ));
                }
                let mut data = RunData::beside_games(folder, meta.as_ref())?;
                match (tally, reading) {
                    (Some(tally), _) => data.take_tally(tally),
                    (None, Reading::Documents) => data.read_games(folder, true)?,
                    // The ratings only: a games.csv that cannot be read leaves them out.
                    (None, Reading::Tables) => {
                        if data.read_games(folder, false).is_err() {
                            data = RunData::beside_games(folder, meta.as_ref())?;
                        }
                    }
                }
                RunTables::Games(Box::new(data))
            }
        };
        let summary_file = match kind {
            RunKind::Tournament => Some("summary.csv"),
            RunKind::Search => Some("search_summary.csv"),
            RunKind::Tune => Some(TUNE),
            RunKind::Tables => Some(super::tables::TABLE_SUMMARY),
            RunKind::Puzzles => None,
        };
        let summary_cells = match summary_file {
            Some(name) => CsvCells::read(&folder.join(name))?,
            None => None,
        };
        let standings = match kind {
            RunKind::Tournament => CsvCells::read_lenient(&folder.join("standings.csv")),
            RunKind::Search | RunKind::Puzzles | RunKind::Tune | RunKind::Tables => None,
        };
        Ok(LoadedRun {
            folder: folder.to_path_buf(),
            meta,
            kind,
            tables,
            summary_cells,
            standings,
        })
    }

    /// A game run's tables, if it is one.
    pub fn games(&self) -> Option<&RunData> {
        match &self.tables {
            RunTables::Games(data) => Some(data),
            RunTables::Search(_)
            | RunTables::Puzzles(_)
            | RunTables::Tune(..)
            | RunTables::Tables(_) => None,
        }
    }

    /// The experiment's name (empty without meta.json).
    pub fn experiment(&self) -> &str {
        self.meta.as_ref().map_or("", |m| m.experiment.as_str())
    }
}

/// The run folder `folder` means: itself, or its newest run (by name) when it is an
/// experiment's folder.
///
/// # Errors
/// A message when it is neither.
pub fn resolve_run_folder(folder: &Path) -> Result<PathBuf, InputError> {
    if !folder.is_dir() {
        return Err(InputError::in_file(
            folder,
            None,
            "no such results folder".to_string(),
        ));
    }
    if folder.join("summary.csv").is_file() || folder.join("meta.json").is_file() {
        return Ok(folder.to_path_buf());
    }
    let mut runs: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| InputError::in_file(folder, None, e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    runs.sort();
    runs.pop().ok_or_else(|| {
        InputError::in_file(
            folder,
            None,
            "not a results folder (no summary.csv, meta.json or runs inside)".to_string(),
        )
    })
}

/// A run folder's meta.json, `None` when it has none (or one that is not arbiter's): the
/// one place a run's folder is read for it.
pub fn read_meta(folder: &Path) -> Option<Meta> {
    Meta::read(folder).ok()
}

/// The kind of a run folder without meta.json, from the file only that kind writes.
fn kind_of_files(folder: &Path) -> RunKind {
    if folder.join(TUNE).is_file() {
        RunKind::Tune
    } else if folder.join(super::tables::TABLES).is_file() {
        RunKind::Tables
    } else if folder.join(SEARCHES).is_file() {
        RunKind::Search
    } else if folder.join(SOLVES).is_file() {
        RunKind::Puzzles
    } else {
        RunKind::Tournament
    }
}
