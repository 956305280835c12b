//! A puzzle run's record: solves.csv, one row per solve, written in plan order as solves
//! finish.

use super::rows::{SOLVES, SolveRow};
use super::{JobRecord, Reporter, RunOutcome};
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// A finished solve with its place in the run's plan (the journal's record).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SolveRecord {
    /// The job's id.
    pub id: u64,
    /// The row it adds to solves.csv.
    pub row: SolveRow,
}

impl JobRecord for SolveRecord {
    fn id(&self) -> u64 {
        self.id
    }
}

/// Writes solves.csv row by row as solves finish.
pub struct SolvesCsv {
    writer: csv::Writer<BufWriter<File>>,
    staged: super::staged::Staged,
}

impl SolvesCsv {
    /// Creates solves.csv (header included) in `folder`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(folder: &Path) -> io::Result<SolvesCsv> {
        let (file, staged) = super::staged::create(folder, SOLVES)?;
        let mut writer = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(BufWriter::new(file));
        writer
            .write_record([
                "puzzle",
                "rows",
                "cols",
                "colours",
                "solver",
                "seed",
                "status",
                "assignments",
                "placed",
                "nodes",
                "backtracks",
                "ms",
                "solution",
            ])
            .map_err(io::Error::other)?;
        Ok(SolvesCsv { writer, staged })
    }
}

impl Reporter<SolveRecord> for SolvesCsv {
    fn finished(&mut self, record: &SolveRecord) -> io::Result<()> {
        self.writer.serialize(&record.row).map_err(io::Error::other)
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.writer.flush()?;
        self.staged.commit()
    }
}
