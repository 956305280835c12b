//! Whole results folders: which run folder a path means, remaking a folder's documents
//! whatever kind of run made it, and the tables `show` (and the end of `run`) print.

use super::document::{ratings_table, tournament_report};
use super::load::{RunData, csv_rows};
use super::puzzles::{self, SOLVES, SolveRow};
use super::search::{self, SEARCHES};
use super::{Meta, format_summary, read_summary};
use std::path::{Path, PathBuf};

/// The run folder `folder` means: itself, or its newest run (by name) when it is an
/// experiment's folder.
///
/// # Errors
/// A message when it is neither.
pub fn resolve_run_folder(folder: &Path) -> Result<PathBuf, String> {
    if !folder.is_dir() {
        return Err(format!("{}: no such results folder", folder.display()));
    }
    if folder.join("summary.csv").is_file() || folder.join("meta.json").is_file() {
        return Ok(folder.to_path_buf());
    }
    let mut runs: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| format!("{}: {e}", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    runs.sort();
    runs.pop().ok_or_else(|| {
        format!(
            "{}: not a results folder (no summary.csv, meta.json or runs inside)",
            folder.display()
        )
    })
}

/// Charts, report.md and index.html for a run folder of any kind, from its files; returns
/// the documents' paths.
///
/// # Errors
/// A file that cannot be read, drawn or written, named in the message.
pub fn write_report(folder: &Path) -> Result<Vec<PathBuf>, String> {
    if folder.join(SEARCHES).is_file() {
        return search::write_search_report(folder);
    }
    if folder.join(SOLVES).is_file() {
        return puzzles::write_puzzle_report(folder);
    }
    tournament_report(&RunData::load(folder)?)
}

/// One line saying what the run was: experiment, game, work done, seed, threads, status.
pub fn header(meta: &Meta) -> String {
    let unit = match meta.kind.as_str() {
        "puzzles" => "solves",
        "search" => "positions",
        _ => "games",
    };
    format!(
        "{} ({}): {} of {} {unit}, seed {}, {} threads, {}",
        meta.experiment,
        meta.game,
        meta.games_played,
        meta.games_total,
        meta.seed,
        meta.threads,
        meta.status_text()
    )
}

/// The summary tables of a run folder of any kind, as `show` prints them.
///
/// # Errors
/// A file that cannot be read, named in the message.
pub fn tables(folder: &Path) -> Result<String, String> {
    if folder.join(SOLVES).is_file() {
        let rows: Vec<SolveRow> = csv_rows(&folder.join(SOLVES))?;
        return Ok(format!(
            "{}\nmedian ms per puzzle:\n{}",
            puzzles::summary_table(&rows).aligned(),
            puzzles::per_puzzle_table(&rows).aligned()
        ));
    }
    if folder.join(SEARCHES).is_file() {
        let rows = search::read_search_csv(folder)?;
        let mut text = search::summary_table(&search::summarize(&rows)).markdown();
        if let Some(note) = super::Meta::read(folder)
            .ok()
            .as_ref()
            .and_then(super::external_note)
        {
            text.push('\n');
            text.push_str(&note);
            text.push('\n');
        }
        return Ok(text);
    }
    let summary = folder.join("summary.csv");
    if !summary.is_file() {
        return Err(format!(
            "{}: no summary.csv yet (the run is still going or stopped before its end)",
            folder.display()
        ));
    }
    let mut text = format_summary(&read_summary(&summary)?);
    if let Ok(meta) = super::Meta::read(folder) {
        for note in super::external_note(&meta)
            .into_iter()
            .chain(super::reading_notes(&meta))
        {
            text.push_str(&note);
            text.push_str("\n\n");
        }
    }
    if let Ok(data) = RunData::load_with(folder, false)
        && let Some(ratings) = ratings_table(&data)
    {
        text.push_str("ratings (Bradley-Terry, Elo scale, all games):\n");
        text.push_str(&ratings.aligned());
    }
    Ok(text)
}
