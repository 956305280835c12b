//! A results folder looked at after (or while) its run ran: what `arbiter show` prints,
//! its JSON, and its documents drawn again. The cli and the Python package both call
//! these; each reads the run once.

use super::{Error, FolderLock};
use crate::documents::show::{self, header_as};
use crate::records::loaded::resolve_run_folder;
use crate::records::loaded::{LoadedRun, Reading, read_meta};
use crate::records::{Meta, RunStatus, journal};
use std::path::{Path, PathBuf};

/// What `arbiter show` prints for a run folder (or an experiment folder's newest run):
/// the lines saying what the run is, then its tables.
///
/// # Errors
/// Not a results folder, or files that cannot be read.
pub fn show_text(folder: &Path) -> Result<String, Error> {
    let (header, run) = header_and_run(folder)?;
    Ok(header + &run.and_then(|run| show::tables(&run))?)
}

/// The header `show` prints, and the run read for its tables (or why it cannot be): the
/// header stands even when the tables do not (a run stopped before writing them).
///
/// # Errors
/// Not a results folder.
pub fn header_and_run(
    folder: &Path,
) -> Result<(String, Result<LoadedRun, crate::registry::InputError>), Error> {
    let folder = resolve_run_folder(folder)?;
    let meta = read_meta(&folder);
    let header = meta
        .clone()
        .map_or_else(String::new, |meta| header(&folder, meta));
    Ok((
        header,
        LoadedRun::from_meta(&folder, meta, Reading::Tables, None),
    ))
}

/// `show --json`: the run and its summary rows ([`show::summary_json`]).
///
/// # Errors
/// Not a results folder, or files that cannot be read.
pub fn show_json(folder: &Path) -> Result<serde_json::Value, Error> {
    let folder = resolve_run_folder(folder)?;
    Ok(show::summary_json(&LoadedRun::read(
        &folder,
        Reading::Tables,
    )?)?)
}

/// The lines above a run's tables: what it is, how far it got, how to continue it when
/// it stopped before its end.
fn header(folder: &Path, mut meta: Meta) -> String {
    let stopped = meta.status == RunStatus::Running && !FolderLock::is_held(folder);
    let status = if stopped {
        // Killed, or a file could not be written: what it finished is in the journal.
        meta.games_played = journal::records_in(folder) as usize;
        meta.status_text_as("stopped before its end (killed, or a file could not be written)")
    } else {
        meta.status_text()
    };
    let mut text = format!("{}\n", header_as(&meta, &status));
    if stopped {
        text.push_str(&format!(
            "`arbiter run --resume {}` continues it\n",
            folder.display()
        ));
    }
    if !meta.description.is_empty() {
        text.push_str(&format!("{}\n", meta.description));
    }
    text.push('\n');
    text
}

/// Writes a results folder's charts and documents again, or only the viewer page of game
/// `game`; returns the files written.
///
/// # Errors
/// Not a results folder, a run writing it now or killed before its tables, a game it does
/// not hold, or files that cannot be written.
pub fn report_files(folder: &Path, game: Option<u64>) -> Result<Vec<PathBuf>, Error> {
    let folder = resolve_run_folder(folder)?;
    // One writer per results folder: not while a run writes it (the lock is released when
    // the report is written).
    let _lock = FolderLock::acquire(&folder, true)?;
    let meta = read_meta(&folder);
    if meta
        .as_ref()
        .is_some_and(|m| m.status == RunStatus::Running)
        && !folder.join("summary.csv").is_file()
    {
        return Err(Error::Message(format!(
            "{}: the run ended before writing its tables (it was killed): `arbiter run --resume {}` plays what is left and writes them",
            folder.display(),
            folder.display()
        )));
    }
    if let Some(id) = game {
        return Ok(vec![crate::documents::viewer::game_page(
            &folder,
            meta.as_ref(),
            id,
        )?]);
    }
    documents_of(&folder, meta)
}

/// Writes the documents of the run in `folder` (described by `meta`) again, from its files:
/// the caller holds the folder's lock.
fn documents_of(folder: &Path, meta: Option<Meta>) -> Result<Vec<PathBuf>, Error> {
    Ok(show::write_all(&LoadedRun::from_meta(
        folder,
        meta,
        Reading::Documents,
        None,
    )?)?)
}
