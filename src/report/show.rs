//! Whole results folders: which run folder a path means, remaking a folder's documents
//! whatever kind of run made it, and the tables `show` (and the end of `run`) print.

use super::document::tournament_report;
use super::load::{GamesTally, RunData, csv_rows};
use super::puzzles;
use super::rows::{SOLVES, SolveRow};
use super::search::{self, SEARCHES};
use super::tables::{left_out_table, ratings_table, standings_table};
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
    write_report_keeping(folder, None).map(|(written, _)| written)
}

/// As [`write_report`], with a tournament's games as the run's recorder counted them
/// (`tally`: every game in the files, and only those) instead of read from games.csv,
/// and handing the games back so that [`tables_with`] need not read them again.
///
/// # Errors
/// As [`write_report`].
pub fn write_report_keeping(
    folder: &Path,
    tally: Option<GamesTally>,
) -> Result<(Vec<PathBuf>, Option<RunData>), String> {
    // summary.json first, so that the documents list it.
    let path = folder.join(SUMMARY_JSON);
    let text = serde_json::to_string_pretty(&summary_json(folder)?)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(&path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    let reproduction = super::reproduce::write_csv(folder)?;
    let mut data = None;
    let mut written = if folder.join(super::tune::TUNE).is_file() {
        super::tune::write_tune_report(folder)?
    } else if folder.join(SEARCHES).is_file() {
        search::write_search_report(folder)?
    } else if folder.join(SOLVES).is_file() {
        puzzles::write_puzzle_report(folder)?
    } else {
        let loaded = match tally {
            Some(tally) => RunData::from_tally(folder, tally)?,
            None => RunData::load(folder)?,
        };
        // First, so that the documents list it.
        let event = loaded.meta.as_ref().map_or("", |m| m.experiment.as_str());
        let with_moves = !loaded.meta.as_ref().is_some_and(|m| m.no_moves_csv);
        let records = if with_moves {
            Some(super::records::write_game_records(folder, event)?)
        } else {
            None
        };
        let mut written = tournament_report(&loaded)?;
        written.extend(records);
        data = Some(loaded);
        written
    };
    written.push(path);
    written.extend(reproduction);
    Ok((written, data))
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

/// The rows of a CSV file as JSON objects, column by column.
fn csv_json(path: &Path) -> Result<Vec<serde_json::Value>, String> {
    let fail = |e: csv::Error| format!("{}: {e}", path.display());
    let mut reader = csv::Reader::from_path(path).map_err(fail)?;
    let headers = reader.headers().map_err(fail)?.clone();
    reader
        .records()
        .map(|record| {
            let record = record.map_err(fail)?;
            Ok(headers
                .iter()
                .zip(record.iter())
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
                .into())
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
pub fn summary_json(folder: &Path) -> Result<serde_json::Value, String> {
    let rows = if folder.join(SOLVES).is_file() {
        let rows: Vec<SolveRow> = csv_rows(&folder.join(SOLVES))?;
        let table = puzzles::summary_table(&rows);
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
    } else if folder.join(SEARCHES).is_file() {
        csv_json(&folder.join("search_summary.csv"))?
    } else if folder.join(super::tune::TUNE).is_file() {
        csv_json(&folder.join(super::tune::TUNE))?
    } else {
        csv_json(&folder.join("summary.csv"))?
    };
    let mut json = serde_json::Map::new();
    if let Ok(meta) = Meta::read(folder) {
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

/// The summary tables of a run folder of any kind, as `show` prints them, then the
/// published numbers beside arbiter's when the experiment gives them.
///
/// # Errors
/// A file that cannot be read, named in the message.
pub fn tables(folder: &Path) -> Result<String, String> {
    tables_with(folder, None)
}

/// As [`tables`], with the run's games already read (`data`, from
/// [`write_report_keeping`]) rather than read again from games.csv.
///
/// # Errors
/// As [`tables`].
pub fn tables_with(folder: &Path, data: Option<&RunData>) -> Result<String, String> {
    let mut text = kind_tables(folder, data)?;
    if let Some(reproduction) = super::reproduce::text(folder)? {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push('\n');
        text.push_str(&reproduction);
    }
    Ok(text)
}

/// The summary tables of the run's own kind.
fn kind_tables(folder: &Path, data: Option<&RunData>) -> Result<String, String> {
    if folder.join(super::tune::TUNE).is_file() {
        return super::tune::tables(folder);
    }
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
    let rows = read_summary(folder)?;
    let meta = super::Meta::read(folder).ok();
    // A sweep's matchups are one table (value x opponent); the other matchups each get
    // their own.
    let sweeps = meta.as_ref().map_or(&[][..], |m| m.sweeps.as_slice());
    let in_sweep = |r: &super::SummaryRow| {
        sweeps.iter().any(|s| {
            (s.variants.contains(&r.agent) && s.opponents.contains(&r.opponent))
                || (s.variants.contains(&r.opponent) && s.opponents.contains(&r.agent))
        })
    };
    // A tournament in rounds plays only the pairs its rounds made: the others are not
    // listed.
    let in_rounds = meta.as_ref().is_some_and(|m| m.format.is_some());
    let others: Vec<super::SummaryRow> = rows
        .iter()
        .filter(|r| !(in_sweep(r) || in_rounds && r.games == 0))
        .cloned()
        .collect();
    let mut text = String::new();
    if let Some(format) = meta.as_ref().and_then(|m| m.format)
        && let Some(table) = standings_table(folder)
    {
        text.push_str(&format!(
            "{format} standings (pairings by round in rounds.csv):\n"
        ));
        text.push_str(&table.aligned());
        text.push('\n');
    }
    if let Some(table) = meta.as_ref().and_then(left_out_table) {
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
        text.push_str(&super::tables::sweep_table(&rows, sweep).aligned());
        text.push('\n');
    }
    text.push_str(&format_summary(&others));
    if let Some(meta) = meta {
        for note in super::external_note(&meta)
            .into_iter()
            .chain(super::reading_notes(&meta))
        {
            text.push_str(&note);
            text.push_str("\n\n");
        }
    }
    if let Some(endings) = super::summary::endings_table(&rows) {
        text.push_str("how the games ended, per agent:\n");
        text.push_str(&endings.aligned());
        text.push('\n');
    }
    let loaded;
    let data = match data {
        Some(data) => Some(data),
        None => {
            loaded = RunData::load_with(folder, false).ok();
            loaded.as_ref()
        }
    };
    if let Some(ratings) = data.and_then(ratings_table) {
        text.push_str("ratings (Bradley-Terry, Elo scale, all games):\n");
        text.push_str(&ratings.aligned());
    }
    Ok(text)
}
