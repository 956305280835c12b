//! journal.jsonl: every finished game as one JSON line, appended as games finish, so an
//! interrupted run can be resumed with every statistic intact (the CSV files are then
//! rewritten whole, in game order). Removed when the run completes.

use crate::tournament::{GameRecord, Reporter};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The journal's file name.
pub const JOURNAL: &str = "journal.jsonl";

/// Appends finished games to the journal.
pub struct Journal {
    writer: BufWriter<File>,
    known: BTreeSet<u64>,
    last_flush: Instant,
}

impl Journal {
    /// Opens (or creates) the journal of `folder` for appending; games in `known` are
    /// already in it and are not written again.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(folder: &Path, known: BTreeSet<u64>) -> io::Result<Journal> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(folder.join(JOURNAL))?;
        Ok(Journal {
            writer: BufWriter::new(file),
            known,
            last_flush: Instant::now(),
        })
    }

    /// The journal's path in `folder`.
    pub fn path(folder: &Path) -> PathBuf {
        folder.join(JOURNAL)
    }
}

impl Reporter for Journal {
    fn game_finished(&mut self, record: &GameRecord) -> io::Result<()> {
        if self.known.contains(&record.job.id) {
            return Ok(());
        }
        serde_json::to_writer(&mut self.writer, record).map_err(io::Error::other)?;
        self.writer.write_all(b"\n")?;
        if self.last_flush.elapsed() >= Duration::from_millis(200) {
            self.writer.flush()?;
            self.last_flush = Instant::now();
        }
        Ok(())
    }

    fn ended(&mut self, _outcome: &crate::tournament::RunOutcome) -> io::Result<()> {
        self.writer.flush()
    }
}

/// The games recorded in `folder`'s journal, by id. A last line cut short by a crash is
/// ignored; any other unreadable line is an error.
///
/// # Errors
/// A message naming the file and line.
pub fn read_journal(folder: &Path) -> Result<BTreeMap<u64, GameRecord>, String> {
    let path = Journal::path(folder);
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(BTreeMap::new()),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut records = BTreeMap::new();
    for (index, line) in lines.iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<GameRecord>(line) {
            Ok(record) => {
                records.insert(record.job.id, record);
            }
            Err(_) if index + 1 == lines.len() => {}
            Err(e) => return Err(format!("{}: line {}: {e}", path.display(), index + 1)),
        }
    }
    Ok(records)
}
