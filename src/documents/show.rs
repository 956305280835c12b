//! Whole results folders: which run folder a path means, remaking a folder's documents
//! whatever kind of run made it, and the tables `show` (and the end of `run`) print.

use super::games::tournament_report;
use super::puzzles;
use super::search;
use super::tables::{left_out_table, ratings_table, standings_table};
use super::{Meta, format_summary};
use crate::records::load::CsvCells;
use crate::records::load::RunData;
use crate::records::loaded::{LoadedRun, RunTables};
use crate::registry::InputError;
use std::path::PathBuf;

/// Everything made from a run: summary.json, the published numbers beside arbiter's
/// (reproduction.csv), the charts, report.md and index.html of its kind, and a game run's
/// games.pgn; returns the paths written. One `match` on the run's tables decides.
///
/// # Errors
/// A file that cannot be drawn or written, named in the message.
pub fn write_all(run: &LoadedRun) -> Result<Vec<PathBuf>, InputError> {
    let folder = &run.folder;
    // summary.json first, so that the documents list it.
    let path = folder.join(SUMMARY_JSON);
    let text = serde_json::to_string_pretty(&summary_json(run)?)
        .map_err(|e| InputError::in_file(&path, None, e.to_string()))?;
    std::fs::write(&path, text + "\n")
        .map_err(|e| InputError::in_file(&path, None, e.to_string()))?;
    let reproduction = super::reproduce::write_csv(run)?;
    let mut written = match &run.tables {
        RunTables::Tune(values, games) => super::tune::write_tune_report(run, values, games)?,
        RunTables::Search(rows) => search::write_search_report(run, rows)?,
        RunTables::Puzzles(rows) => puzzles::write_puzzle_report(run, rows)?,
        RunTables::Tables(data) => super::table_run::write_tables_report(run, data)?,
        RunTables::Games(data) => {
            // First, so that the documents list it.
            let with_moves = !run.meta.as_ref().is_some_and(|m| m.no_moves_csv);
            let records = if data.game_records_written {
                Some(folder.join(crate::records::pgn::GAME_RECORDS))
            } else if with_moves {
                Some(crate::records::pgn::write_game_records(
                    folder,
                    run.experiment(),
                )?)
            } else {
                None
            };
            let mut written = tournament_report(run, data)?;
            written.extend(records);
            written
        }
    };
    written.push(path);
    written.extend(reproduction);
    Ok(written)
}

/// The summary as JSON, written beside the CSVs.
pub const SUMMARY_JSON: &str = "summary.json";

/// A CSV cell as JSON: a number when it reads as one (NaN and infinities, which JSON
/// lacks, as null), null when empty, else a string.
fn cell_json(cell: &str) -> serde_json::Value {
    if cell.is_empty() {
        return serde_json::Value::Null;
    }
    if let Ok(n) = cell.parse::<i64>() {
        return n.into();
    }
    if let Ok(n) = cell.parse::<u64>() {
        return n.into();
    }
    match cell.parse::<f64>() {
        Ok(x) if x.is_finite() => x.into(),
        Ok(_) => serde_json::Value::Null,
        Err(_) => cell.into(),
    }
}

/// Columns that pack a list into one cell with `;`.
const PACKED: [&str; 2] = ["pairs", "nodes_by_level"];

/// The rows of a CSV file's cells as JSON objects, column by column.
fn cells_json(cells: &CsvCells) -> Vec<serde_json::Value> {
    cells
        .rows
        .iter()
        .map(|record| {
            cells
                .headers
                .iter()
                .map(String::as_str)
                .zip(record.iter().map(String::as_str))
                .map(|(h, c)| {
                    // Packed lists (pair counts, nodes per level) as arrays.
                    // Counts by ending (`goal=30;timeout=2`) as objects.
                    let value = if ["wins_by", "losses_by", "draws_by"].contains(&h) {
                        c.split(';')
                            .filter_map(|p| p.split_once('='))
                            .map(|(k, n)| (k.to_string(), cell_json(n)))
                            .collect::<serde_json::Map<_, _>>()
                            .into()
                    } else if PACKED.contains(&h) {
                        c.split(';')
                            .filter(|p| !p.is_empty())
                            .map(cell_json)
                            .collect::<Vec<_>>()
                            .into()
                    } else {
                        cell_json(c)
                    };
                    (h.to_string(), value)
                })
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect()
}

/// A run folder's summary as JSON (what `show --json` prints and summary.json holds): the
/// run (experiment, kind, game, status, seed, work done) and `rows`, the summary table's
/// rows with the same numbers as its CSV (summary.csv, search_summary.csv, or for puzzle
/// runs the per-solver table); NaN and infinities are null.
///
/// # Errors
/// A file that cannot be read.
pub fn summary_json(run: &LoadedRun) -> Result<serde_json::Value, InputError> {
    let folder = &run.folder;
    let rows = match &run.tables {
        RunTables::Puzzles(rows) => {
            let table = puzzles::summary_table(rows);
            table
                .rows
                .iter()
                .map(|row| {
                    table
                        .headers
                        .iter()
                        .zip(row)
                        .map(|(h, c)| (h.clone(), cell_json(c)))
                        .collect::<serde_json::Map<_, _>>()
                        .into()
                })
                .collect()
        }
        RunTables::Search(_) | RunTables::Tune(..) | RunTables::Games(_) | RunTables::Tables(_) => {
            let cells = run.summary_cells.as_ref().ok_or_else(|| {
                InputError::in_file(
                    folder,
                    None,
                    "no summary file yet (the run is still going or stopped before its end)"
                        .to_string(),
                )
            })?;
            cells_json(cells)
        }
    };
    let mut json = serde_json::Map::new();
    if let Some(meta) = &run.meta {
        json.insert("experiment".into(), meta.experiment.clone().into());
        json.insert("kind".into(), meta.kind.name().into());
        json.insert("game".into(), meta.game.clone().into());
        json.insert("status".into(), meta.status.name().into());
        json.insert("seed".into(), meta.seed.into());
        json.insert("done".into(), meta.games_played.into());
        json.insert("total".into(), meta.games_total.into());
    }
    json.insert("rows".into(), serde_json::Value::Array(rows));
    Ok(json.into())
}

/// One line saying what the run was: experiment, game, work done, seed, threads, status.
pub fn header(meta: &Meta) -> String {
    header_as(meta, &meta.status_text())
}

/// [`header`] with the status said as `status` (a run found stopped, say).
pub fn header_as(meta: &Meta, status: &str) -> String {
    let unit = meta.kind.unit();
    format!(
        "{} ({}): {} of {} {unit}, seed {}, {} threads, {}",
        meta.experiment,
        meta.game,
        meta.games_played,
        meta.games_total,
        meta.seed,
        meta.threads,
        status
    )
}

/// The summary tables of a run of any kind, as `show` prints them, then the published
/// numbers beside arbiter's when the experiment gives them.
///
/// # Errors
/// A file that cannot be read, named in the message.
pub fn tables(run: &LoadedRun) -> Result<String, InputError> {
    let mut text = match &run.tables {
        RunTables::Tune(values, games) => super::tune::tables(run, values, games),
        RunTables::Puzzles(rows) => format!(
            "{}\nmedian ms per puzzle:\n{}",
            puzzles::summary_table(rows).aligned(),
            puzzles::per_puzzle_table(rows).aligned()
        ),
        RunTables::Search(rows) => {
            let mut text =
                search::summary_table(&crate::records::search::summarize(rows)).markdown();
            if let Some(note) = run.meta.as_ref().and_then(super::external_note) {
                text.push('\n');
                text.push_str(&note);
                text.push('\n');
            }
            text
        }
        RunTables::Games(data) => games_tables(run, data),
        RunTables::Tables(data) => super::table_run::tables_text(data),
    };
    if let Some(reproduction) = super::reproduce::text(run)? {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(&reproduction);
    }
    Ok(text)
}

/// The tables of a game run.
fn games_tables(run: &LoadedRun, data: &RunData) -> String {
    let rows = &data.summary;
    let meta = run.meta.as_ref();
    // A sweep's matchups are one table (value x opponent); the other matchups each get
    // their own.
    let sweeps = meta.map_or(&[][..], |m| m.sweeps.as_slice());
    let in_sweep = |r: &crate::records::SummaryRow| {
        sweeps.iter().any(|s| {
            (s.variants.contains(&r.agent) && s.opponents.contains(&r.opponent))
                || (s.variants.contains(&r.opponent) && s.opponents.contains(&r.agent))
        })
    };
    // A tournament in rounds plays only the pairs its rounds made: the others are not
    // listed.
    let in_rounds = meta.is_some_and(|m| m.format.is_some());
    let others: Vec<crate::records::SummaryRow> = rows
        .iter()
        .filter(|r| !(in_sweep(r) || in_rounds && r.games == 0))
        .cloned()
        .collect();
    let mut text = String::new();
    if let Some(format) = meta.and_then(|m| m.format)
        && let Some(table) = run.standings.as_ref().map(standings_table)
    {
        text.push_str(&format!(
            "{format} standings (pairings by round in rounds.csv):\n"
        ));
        text.push_str(&table.aligned());
        text.push('\n');
    }
    if let Some(table) = meta.and_then(left_out_table) {
        // A sentence each: the reasons are too long for a column.
        text.push_str("submissions left out:\n");
        for row in &table.rows {
            text.push_str(&format!("  {}: {}\n", row[0], row[1]));
        }
        text.push('\n');
    }
    for sweep in sweeps {
        text.push_str(&format!(
            "sweep of {}: win rate (95%) and Elo of each value against each opponent\n",
            sweep.key
        ));
        text.push_str(&super::tables::sweep_table(rows, sweep).aligned());
        text.push('\n');
    }
    text.push_str(&format_summary(&others));
    if let Some(meta) = meta {
        for note in super::external_note(meta)
            .into_iter()
            .chain(super::reading_notes(meta))
        {
            text.push_str(&note);
            text.push_str("\n\n");
        }
    }
    if let Some(endings) = super::summary::endings_table(rows) {
        text.push_str("how the games ended, per agent:\n");
        text.push_str(&endings.aligned());
        text.push('\n');
    }
    if data.games_read
        && let Some(ratings) = ratings_table(run.meta.as_ref(), data)
    {
        text.push_str("ratings (Bradley-Terry, Elo scale, all games):\n");
        text.push_str(&ratings.aligned());
    }
    text
}
