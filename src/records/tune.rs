//! Tuning runs' records: tune_games.csv (one row per game, written in plan order),
//! tune.csv (the parameters' values at the start of each iteration and what the iteration
//! measured), the tables of the tuned values and of their strength against the start
//! (checkpoints and the verification match with its SPRT), the charts and the report.
//! Everything can be recomputed from the two CSV files and meta.json.

use super::{JobRecord, Reporter, RunOutcome};
use crate::registry::InputError;
use crate::tournament::GameRecord;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;
use std::sync::Mutex;

/// The file of a tuning run's games.
pub const TUNE_GAMES: &str = "tune_games.csv";
/// The file of a tuning run's parameter values per iteration.
pub const TUNE: &str = "tune.csv";

/// What a game of a tuning run is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// An SPSA iteration: the plus version against the minus version (or an opponent).
    Iteration,
    /// The values at an iteration against the starting values.
    Checkpoint,
    /// The tuned values against the starting values, under the SPRT.
    Verify,
}

/// A finished game of a tuning run (the journal's record).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneRecord {
    /// What the game is for.
    pub stage: Stage,
    /// The iteration whose values played (for the verification: the iteration count).
    pub iteration: u64,
    /// The first agent: `plus`, `minus` or `tuned`.
    pub first: String,
    /// The second agent: `minus`, `start`, `current` (the values at the iteration) or an
    /// opponent's name.
    pub second: String,
    /// The game (without per-move records).
    pub game: GameRecord,
}

impl TuneRecord {
    /// The first agent's score in half points: 2 win, 1 draw, 0 loss.
    pub fn halves(&self) -> u8 {
        let seat = if self.game.job.first_is_p1 {
            crate::core::Player::P1
        } else {
            crate::core::Player::P2
        };
        match self.game.winner {
            None => 1,
            Some(winner) if winner == seat => 2,
            Some(_) => 0,
        }
    }
}

impl JobRecord for TuneRecord {
    fn id(&self) -> u64 {
        self.game.job.id
    }
}

/// One row of tune_games.csv.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TuneGameRow {
    /// The game's place in the plan.
    pub id: u64,
    /// iteration, checkpoint or verify.
    pub stage: Stage,
    /// The iteration whose values played.
    pub iteration: u64,
    /// The pair (shared seed and opening) within its stage.
    pub pair: u64,
    /// The first agent.
    pub first: String,
    /// The second agent.
    pub second: String,
    /// Whether the first agent played P1.
    pub first_is_p1: bool,
    /// The game's seed.
    pub seed: u64,
    /// The first agent's score: 1, 0.5 or 0.
    pub score: f64,
    /// Why the game ended.
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// The opening's moves.
    pub opening: String,
}

/// The values at the start of one iteration and what it measured (a row of tune.csv).
#[derive(Clone, Debug, PartialEq)]
pub struct IterationRow {
    /// The iteration (the last row, numbered the iteration count, holds the final values).
    pub iteration: u64,
    /// The parameters' values at its start.
    pub values: Vec<f64>,
    /// Games it played (0 for the final row).
    pub games: u64,
    /// The plus version's wins minus losses (`None` until it is complete, and for the
    /// final row).
    pub result: Option<f64>,
}

/// The rows of tune.csv as the run computes them, shared by the run (which appends them)
/// and its recorder (which writes the complete ones).
pub type History = Mutex<Vec<IterationRow>>;

/// Writes tune_games.csv as games finish and tune.csv as iterations complete.
pub struct TuneCsv<'a> {
    games: csv::Writer<BufWriter<File>>,
    values: csv::Writer<BufWriter<File>>,
    staged: [super::staged::Staged; 2],
    history: &'a History,
    iterations: u64,
    written: usize,
}

impl<'a> TuneCsv<'a> {
    /// Creates both files (headers included) in `folder`; `names`: the parameters.
    ///
    /// # Errors
    /// A file that cannot be created.
    pub fn create(
        folder: &Path,
        names: &[String],
        history: &'a History,
        iterations: u64,
    ) -> io::Result<TuneCsv<'a>> {
        let (games_file, games_place) = super::staged::create(folder, TUNE_GAMES)?;
        let (values_file, values_place) = super::staged::create(folder, TUNE)?;
        let games = csv::Writer::from_writer(BufWriter::new(games_file));
        let mut values = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(BufWriter::new(values_file));
        let header = ["iteration", "games", "result"]
            .iter()
            .map(|h| h.to_string())
            .chain(names.iter().cloned());
        values.write_record(header).map_err(io::Error::other)?;
        Ok(TuneCsv {
            games,
            values,
            staged: [games_place, values_place],
            history,
            iterations,
            written: 0,
        })
    }

    /// Writes the rows of tune.csv that are complete and not yet written.
    fn write_values(&mut self) -> io::Result<()> {
        let rows = self.history.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(row) = rows.get(self.written) {
            if row.result.is_none() && row.iteration < self.iterations {
                break;
            }
            let mut cells = vec![
                row.iteration.to_string(),
                row.games.to_string(),
                row.result.map_or(String::new(), |r| r.to_string()),
            ];
            cells.extend(row.values.iter().map(|v| format!("{:.4}", v)));
            self.values.write_record(&cells).map_err(io::Error::other)?;
            self.written += 1;
        }
        Ok(())
    }
}

impl Reporter<TuneRecord> for TuneCsv<'_> {
    fn finished(&mut self, record: &TuneRecord) -> io::Result<()> {
        let game = &record.game;
        self.games
            .serialize(TuneGameRow {
                id: game.job.id,
                stage: record.stage,
                iteration: record.iteration,
                pair: game.job.pair,
                first: record.first.clone(),
                second: record.second.clone(),
                first_is_p1: game.job.first_is_p1,
                seed: game.job.seed,
                score: f64::from(record.halves()) / 2.0,
                reason: game.reason.to_string(),
                plies: game.plies,
                opening: game.opening.clone(),
            })
            .map_err(io::Error::other)?;
        self.write_values()
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.write_values()?;
        self.games.flush()?;
        self.values.flush()?;
        self.staged
            .iter_mut()
            .try_for_each(super::staged::Staged::commit)
    }

    fn standings(&self) -> Vec<String> {
        let rows = self.history.lock().unwrap_or_else(|e| e.into_inner());
        rows.last()
            .map(|row| {
                vec![format!(
                    "iteration {} of {}: {}",
                    row.iteration,
                    self.iterations,
                    row.values
                        .iter()
                        .map(|v| format!("{v:.2}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                )]
            })
            .unwrap_or_default()
    }
}

/// tune.csv read back: parameter names and rows.
pub struct TuneValues {
    /// The parameters' names.
    pub names: Vec<String>,
    /// The rows, in iteration order.
    pub rows: Vec<IterationRow>,
}

/// Reads tune.csv.
///
/// # Errors
/// A missing or malformed file, naming it and the line.
pub fn read_values(folder: &Path) -> Result<TuneValues, InputError> {
    let path = folder.join(TUNE);
    let mut reader = csv::Reader::from_path(&path)
        .map_err(|e| InputError::in_file(&path, None, format!("cannot read: {e}")))?;
    let headers = reader
        .headers()
        .map_err(|e| InputError::in_file(&path, None, e.to_string()))?
        .clone();
    let names: Vec<String> = headers.iter().skip(3).map(str::to_string).collect();
    let mut rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let bad = |what: &str| InputError::in_file(&path, Some(line), what.to_string());
        let record = record.map_err(|e| bad(&e.to_string()))?;
        let number = |i: usize| -> Result<f64, InputError> {
            record
                .get(i)
                .unwrap_or("")
                .parse::<f64>()
                .map_err(|_| bad(&format!("column {} is not a number", i + 1)))
        };
        if record.len() != names.len() + 3 {
            return Err(bad(&format!(
                "{} cells, the header has {}",
                record.len(),
                names.len() + 3
            )));
        }
        rows.push(IterationRow {
            iteration: number(0)? as u64,
            games: number(1)? as u64,
            result: match record.get(2) {
                Some("") | None => None,
                Some(_) => Some(number(2)?),
            },
            values: (3..record.len()).map(number).collect::<Result<_, _>>()?,
        });
    }
    Ok(TuneValues { names, rows })
}
