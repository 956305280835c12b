//! A game's moves are written once while a run plays: as its rows of moves.csv. The
//! journal line of the game counts them (`move_rows`) instead of repeating them, so a run
//! needs little more room on disk while it plays than when it is done.
//!
//! A resumed run writes moves.csv anew (beside the old one, see [`super::staged`]), in
//! plan order, and needs the rows of the games it replays from the journal. Before it
//! starts, [`gather`] copies them, in id order, into [`GATHERED`] from the files that may
//! hold them: the old moves.csv, the moves.csv.tmp of a resume killed half way, an
//! earlier gathering, a merged run's shards. A game whose rows are whole in none of them
//! (a kill that landed between its journal line and its rows) is played again. While the
//! run replays, [`Gathered`] hands each game its rows in turn; the file goes once the new
//! moves.csv is in place.

use super::journal::JournalIndex;
use crate::tournament::GameRecord;
use csv::ByteRecord;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

/// The rows a resume replays, gathered before it starts.
pub const GATHERED: &str = "moves.resume.csv";

/// The columns of moves.csv, in order.
pub const MOVE_COLUMNS: &[&str] = &[
    "game_id",
    "matchup",
    "ply",
    "side",
    "agent",
    "move",
    "expanded",
    "evaluated",
    "generated",
    "peak_bytes",
    "depth",
    "timed_out",
    "ms",
    "cpu_ms",
    "clock_ms",
    "value",
    "fault",
    "self_reported",
];

/// The files of `folder` (and of the shards a merged run came from) that may hold the
/// moves.csv rows of its journal's games, the most trusted first. Missing ones are
/// skipped by [`gather`].
pub fn sources(folder: &Path, merged_from: &[String]) -> Vec<PathBuf> {
    let mut folders = vec![folder.to_path_buf()];
    folders.extend(merged_from.iter().map(PathBuf::from));
    let mut files = vec![folder.join(GATHERED)];
    for dir in folders {
        files.push(dir.join("moves.csv"));
        files.push(dir.join("moves.csv.tmp"));
    }
    files
}

/// A moves.csv read a row at a time (rows in increasing game id).
struct Rows {
    reader: csv::Reader<BufReader<File>>,
    /// The row read but not yet taken, and its game id.
    next: Option<(u64, ByteRecord)>,
}

impl Rows {
    /// Opens `path` when it is a moves.csv with the columns `header`; else `None` (a file
    /// of another version cannot be copied row for row).
    fn open(path: &Path, header: &[&str]) -> Option<Rows> {
        let file = File::open(path).ok()?;
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(BufReader::with_capacity(1 << 16, file));
        let found = reader.byte_headers().ok()?;
        if found.iter().ne(header.iter().map(|h| h.as_bytes())) {
            return None;
        }
        let mut rows = Rows { reader, next: None };
        rows.advance();
        Some(rows)
    }

    /// Reads the next row. A row that does not read (a torn last line, a file edited by
    /// hand) ends the file.
    fn advance(&mut self) {
        let mut row = ByteRecord::new();
        self.next = match self.reader.read_byte_record(&mut row) {
            Ok(true) => game_id(&row).map(|id| (id, row)),
            _ => None,
        };
    }

    /// Skips the rows of games before `id`, then moves the rows of game `id` into `into`.
    fn take(&mut self, id: u64, into: &mut Vec<ByteRecord>) {
        while let Some((at, row)) = self.next.take_if(|(at, _)| *at <= id) {
            if at == id {
                into.push(row);
            }
            self.advance();
        }
    }
}

fn game_id(row: &ByteRecord) -> Option<u64> {
    std::str::from_utf8(row.get(0)?).ok()?.parse().ok()
}

/// Copies into `folder`'s [`GATHERED`] the rows of each game `games` names (its id and
/// how many rows it has; ids increasing) from the first of `sources` that holds them all.
/// Returns the ids of the games none holds whole, in order.
///
/// # Errors
/// A game that does not read back, or the file cannot be written.
pub fn gather(
    folder: &Path,
    sources: &[PathBuf],
    header: &[&str],
    games: impl Iterator<Item = io::Result<(u64, u32)>>,
) -> io::Result<Vec<u64>> {
    let mut open: Vec<Rows> = sources
        .iter()
        .filter_map(|path| Rows::open(path, header))
        .collect();
    // Written beside, then renamed: the gathering it replaces is one of the sources.
    let fresh = folder.join(format!("{GATHERED}.new"));
    let mut out = csv::Writer::from_path(&fresh).map_err(io::Error::other)?;
    out.write_record(header).map_err(io::Error::other)?;
    let (mut lost, mut found, mut rows) = (Vec::new(), Vec::new(), Vec::new());
    for game in games {
        let (id, count) = game?;
        if count == 0 {
            continue;
        }
        found.clear();
        for source in &mut open {
            rows.clear();
            source.take(id, &mut rows);
            if found.is_empty() && rows.len() == count as usize {
                std::mem::swap(&mut found, &mut rows);
            }
        }
        if found.is_empty() {
            lost.push(id);
        }
        for row in &found {
            out.write_byte_record(row).map_err(io::Error::other)?;
        }
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&fresh, folder.join(GATHERED))?;
    Ok(lost)
}

/// [`gather`] for a run of games: the rows of the games `journal` holds, from `folder`
/// and the shards `merged_from`.
///
/// # Errors
/// As [`gather`].
pub fn gather_games(
    folder: &Path,
    merged_from: &[String],
    journal: &JournalIndex<GameRecord>,
) -> io::Result<Vec<u64>> {
    let games = journal
        .ids()
        .map(|id| journal.record(id).map(|record| (id, record.move_rows)));
    gather(folder, &sources(folder, merged_from), MOVE_COLUMNS, games)
}

/// The gathered rows, read back a game at a time in id order as the resume replays.
pub struct Gathered {
    rows: Rows,
    path: PathBuf,
    taken: Vec<ByteRecord>,
}

impl Gathered {
    /// Opens `folder`'s gathered rows, if a resume gathered them.
    pub fn open(folder: &Path, header: &[&str]) -> Option<Gathered> {
        let path = folder.join(GATHERED);
        Some(Gathered {
            rows: Rows::open(&path, header)?,
            path,
            taken: Vec::new(),
        })
    }

    /// The `count` rows of game `id` (games before it that were not asked for are
    /// skipped).
    ///
    /// # Errors
    /// The file does not hold them all.
    pub fn rows(&mut self, id: u64, count: u32) -> io::Result<&[ByteRecord]> {
        self.taken.clear();
        self.rows.take(id, &mut self.taken);
        if self.taken.len() != count as usize {
            return Err(io::Error::other(format!(
                "{}: holds {} of the {count} moves of game {id}",
                self.path.display(),
                self.taken.len()
            )));
        }
        Ok(&self.taken)
    }

    /// Where the rows are (removed once the new moves.csv is in place).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &[&str] = &["game_id", "ply", "move"];

    fn write(path: &Path, text: &str) {
        std::fs::write(path, text).expect("write");
    }

    #[test]
    fn each_game_s_rows_come_from_the_first_file_holding_them_all() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path();
        // The old moves.csv: games 0, 1 and 3; game 3's last row torn by a kill.
        write(
            &folder.join("moves.csv"),
            "game_id,ply,move\n0,1,a\n0,2,b\n1,1,c\n3,1,\"x,y\"\n3,2",
        );
        // A resume killed half way rewrote 0..=3 and played 2 and 4.
        write(
            &folder.join("moves.csv.tmp"),
            "game_id,ply,move\n0,1,a\n0,2,b\n1,1,c\n2,1,d\n3,1,\"x,y\"\n3,2,e\n4,1,f\n",
        );
        // Another version's file is not read at all.
        write(&folder.join(GATHERED), "game_id,move\n5,zz\n");
        let games = [(0, 2), (1, 1), (2, 1), (3, 2), (4, 2), (5, 1), (6, 0)];
        let lost = gather(
            folder,
            &sources(folder, &[]),
            HEADER,
            games.iter().map(|&g| Ok(g)),
        )
        .expect("gathers");
        // Game 4 has one of its two rows; game 5 none in a readable file; game 6 no moves.
        assert_eq!(lost, [4, 5]);
        let text = std::fs::read_to_string(folder.join(GATHERED)).expect("read");
        assert_eq!(
            text,
            "game_id,ply,move\n0,1,a\n0,2,b\n1,1,c\n2,1,d\n3,1,\"x,y\"\n3,2,e\n"
        );
        assert!(!folder.join(format!("{GATHERED}.new")).exists());
        // Read back a game at a time; a game not asked for is skipped.
        let mut gathered = Gathered::open(folder, HEADER).expect("opens");
        let rows = gathered.rows(1, 1).expect("game 1");
        assert_eq!(rows[0].get(2), Some(&b"c"[..]));
        let rows = gathered.rows(3, 2).expect("game 3");
        assert_eq!(rows[0].get(2), Some(&b"x,y"[..]));
        let error = gathered.rows(4, 2).expect_err("game 4 was lost");
        assert!(
            error
                .to_string()
                .ends_with("moves.resume.csv: holds 0 of the 2 moves of game 4"),
            "{error}"
        );
    }
}
