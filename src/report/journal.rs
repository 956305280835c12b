//! journal.jsonl: every finished job as one JSON line, appended as jobs finish, so an
//! interrupted run of any kind can be resumed with every statistic intact (the CSV files
//! are then rewritten whole, in plan order). Removed when the run completes.

use super::{JobRecord, Reporter, RunOutcome};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The journal's file name.
pub const JOURNAL: &str = "journal.jsonl";

/// Appends finished jobs to the journal.
pub struct Journal<R> {
    writer: BufWriter<File>,
    known: BTreeSet<u64>,
    last_flush: Instant,
    records: PhantomData<fn(&R)>,
}

impl<R> Journal<R> {
    /// Opens (or creates) the journal of `folder` for appending; jobs in `known` are
    /// already in it and are not written again.
    ///
    /// # Errors
    /// The file cannot be opened.
    pub fn open(folder: &Path, known: BTreeSet<u64>) -> io::Result<Journal<R>> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(folder.join(JOURNAL))?;
        Ok(Journal {
            writer: BufWriter::new(file),
            known,
            last_flush: Instant::now(),
            records: PhantomData,
        })
    }

    /// The journal's path in `folder`.
    pub fn path(folder: &Path) -> PathBuf {
        folder.join(JOURNAL)
    }
}

impl<R: JobRecord> Reporter<R> for Journal<R> {
    fn finished(&mut self, record: &R) -> io::Result<()> {
        if self.known.contains(&record.id()) {
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

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.writer.flush()
    }
}

/// The jobs recorded in `folder`'s journal, by id. A last line cut short by a crash is
/// ignored; any other unreadable line is an error.
///
/// # Errors
/// A message naming the file and line.
pub fn read_journal<R: JobRecord>(folder: &Path) -> Result<BTreeMap<u64, R>, String> {
    let path = Journal::<R>::path(folder);
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
        match serde_json::from_str::<R>(line) {
            Ok(record) => {
                records.insert(record.id(), record);
            }
            Err(_) if index + 1 == lines.len() => {}
            Err(e) => return Err(format!("{}: line {}: {e}", path.display(), index + 1)),
        }
    }
    Ok(records)
}
