//! games.csv, moves.csv (rows appended as games finish), summary.csv and
//! nodes_by_depth.csv (written when the run ends).

use super::{RunContext, Summary, millis};
use crate::core::Player;
use crate::tournament::{GameRecord, Reporter, RunOutcome};
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Columns that hold wall-clock times: the only ones that differ between two runs of the
/// same experiment.
pub const TIMING_COLUMNS: &[&str] = &["p1_avg_ms", "p2_avg_ms", "ms", "avg_ms_per_move"];

/// How long finished rows may sit in memory before they are flushed to disk.
const FLUSH_EVERY: Duration = Duration::from_millis(200);

const GAME_COLUMNS: &[&str] = &[
    "game_id",
    "matchup",
    "game_index",
    "seed",
    "game",
    "rules",
    "p1_agent",
    "p2_agent",
    "winner",
    "winner_agent",
    "reason",
    "plies",
    "p1_moves",
    "p1_expanded",
    "p1_evaluated",
    "p1_avg_expanded",
    "p1_avg_ms",
    "p1_captures",
    "p2_moves",
    "p2_expanded",
    "p2_evaluated",
    "p2_avg_expanded",
    "p2_avg_ms",
    "p2_captures",
    "moves",
];

const MOVE_COLUMNS: &[&str] = &[
    "game_id",
    "ply",
    "side",
    "agent",
    "move",
    "expanded",
    "evaluated",
    "ms",
    "value",
];

fn csv_error(error: csv::Error) -> io::Error {
    io::Error::other(error)
}

/// Writes a run's CSV files into one folder.
pub struct CsvRecorder {
    folder: PathBuf,
    context: RunContext,
    games: csv::Writer<BufWriter<File>>,
    moves: csv::Writer<BufWriter<File>>,
    summary: Summary,
    last_flush: Instant,
    row: Vec<String>,
}

impl CsvRecorder {
    /// Creates games.csv and moves.csv (with headers) in `folder`.
    ///
    /// # Errors
    /// A file that cannot be created.
    pub fn create(folder: &Path, context: RunContext) -> io::Result<CsvRecorder> {
        let open = |name: &str, header: &[&str]| -> io::Result<csv::Writer<BufWriter<File>>> {
            let file = File::create(folder.join(name))?;
            let mut writer = csv::Writer::from_writer(BufWriter::with_capacity(1 << 16, file));
            writer.write_record(header).map_err(csv_error)?;
            Ok(writer)
        };
        Ok(CsvRecorder {
            folder: folder.to_path_buf(),
            games: open("games.csv", GAME_COLUMNS)?,
            moves: open("moves.csv", MOVE_COLUMNS)?,
            summary: Summary::new(context.clone()),
            context,
            last_flush: Instant::now(),
            row: Vec::with_capacity(GAME_COLUMNS.len()),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.games.flush()?;
        self.moves.flush()?;
        self.last_flush = Instant::now();
        Ok(())
    }

    /// The summary so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }
}

fn average(total: u64, count: u32) -> String {
    if count == 0 {
        "0".to_string()
    } else {
        format!("{:.2}", total as f64 / f64::from(count))
    }
}

impl Reporter for CsvRecorder {
    fn game_finished(&mut self, record: &GameRecord) -> io::Result<()> {
        let job = &record.job;
        let context = &self.context;
        let row = &mut self.row;
        row.clear();
        row.push(job.id.to_string());
        row.push(job.matchup.to_string());
        row.push(job.game_index.to_string());
        row.push(job.seed.to_string());
        row.push(context.game.clone());
        row.push(context.variant.clone());
        row.push(context.agent_name(job, Player::P1).to_string());
        row.push(context.agent_name(job, Player::P2).to_string());
        row.push(record.winner.map_or("draw", Player::label).to_string());
        row.push(
            record
                .winner
                .map_or("", |w| context.agent_name(job, w))
                .to_string(),
        );
        row.push(record.reason.to_string());
        row.push(record.plies.to_string());
        for player in Player::BOTH {
            let side = &record.sides[player];
            row.push(side.moves.to_string());
            row.push(side.stats.expanded.to_string());
            row.push(side.stats.evaluated.to_string());
            row.push(average(side.stats.expanded, side.moves));
            row.push(if side.moves == 0 {
                "0".to_string()
            } else {
                format!("{:.4}", millis(side.nanos) / f64::from(side.moves))
            });
            row.push(side.captures.to_string());
        }
        row.push(record.move_text.clone());
        self.games.write_record(&*row).map_err(csv_error)?;

        let id = job.id.to_string();
        for (ply, (mv, text)) in record
            .moves
            .iter()
            .zip(record.move_text.split(' '))
            .enumerate()
        {
            let value = mv.value.map(|v| v.to_string()).unwrap_or_default();
            self.moves
                .write_record([
                    id.as_str(),
                    &(ply + 1).to_string(),
                    mv.side.label(),
                    context.agent_name(job, mv.side),
                    text,
                    &mv.expanded.to_string(),
                    &mv.evaluated.to_string(),
                    &format!("{:.4}", millis(mv.nanos)),
                    &value,
                ])
                .map_err(csv_error)?;
        }
        self.summary.add(record);
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.flush()?;
        let mut summary =
            csv::Writer::from_path(self.folder.join("summary.csv")).map_err(csv_error)?;
        for row in self.summary.rows() {
            summary.serialize(row).map_err(csv_error)?;
        }
        summary.flush()?;
        let mut levels =
            csv::Writer::from_path(self.folder.join("nodes_by_depth.csv")).map_err(csv_error)?;
        for row in self.summary.level_rows() {
            levels.serialize(row).map_err(csv_error)?;
        }
        levels.flush()
    }
}
