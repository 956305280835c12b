//! games.csv, moves.csv (rows appended as games finish), summary.csv and
//! nodes_by_depth.csv (written when the run ends).

use super::load::GamesTally;
use super::moves_rows::{Gathered, MOVE_COLUMNS};
use super::{Reporter, RunContext, RunOutcome, Summary, millis};
use crate::core::{MOVE_SEPARATOR, Player};
use crate::tournament::GameRecord;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Columns that hold wall-clock times: the only ones that differ between two runs of the
/// same experiment.
pub const TIMING_COLUMNS: &[&str] = &[
    "p1_avg_ms",
    "p2_avg_ms",
    "ms",
    "cpu_ms",
    "clock_ms",
    "avg_ms_per_move",
];

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
    "p1_generated",
    "p1_avg_expanded",
    "p1_avg_ms",
    "p1_peak_bytes",
    "p1_captures",
    "p2_moves",
    "p2_expanded",
    "p2_evaluated",
    "p2_generated",
    "p2_avg_expanded",
    "p2_avg_ms",
    "p2_peak_bytes",
    "p2_captures",
    "p1_return",
    "p2_return",
    "opening",
    "moves",
];

fn csv_error(error: csv::Error) -> io::Error {
    io::Error::other(error)
}

/// A CSV file written a row at a time: each row is put together in a buffer, fields
/// quoted as the csv crate quotes them (one holding a comma, a double quote or an end of
/// line is quoted, its double quotes doubled; rows end with `\n`), and the buffer written
/// when it holds [`CsvFile::WRITE_AT`] bytes of whole rows (rows are not copied again
/// into a second buffer: moves.csv takes millions). The csv crate's writer went through a
/// state machine byte by byte for every field, a quarter of the time of the thread that
/// records a run of fast games.
struct CsvFile {
    out: File,
    /// Whole rows not yet written, then the row being put together.
    line: Vec<u8>,
}

impl CsvFile {
    const WRITE_AT: usize = 1 << 16;

    /// A file that starts with `first`, not a CSV header.
    fn starting(file: File, first: &[u8]) -> io::Result<CsvFile> {
        let mut text = CsvFile {
            out: file,
            line: Vec::with_capacity(Self::WRITE_AT + 1024),
        };
        text.line.extend_from_slice(first);
        text.flush()?;
        Ok(text)
    }

    fn new(file: File, header: &[&str]) -> io::Result<CsvFile> {
        let mut csv = CsvFile::starting(file, &[])?;
        let mut row = csv.row();
        for name in header {
            row.text(name)?;
        }
        row.end()?;
        csv.flush()?;
        Ok(csv)
    }

    fn row(&mut self) -> Row<'_> {
        Row {
            file: self,
            first: true,
        }
    }

    /// Writes the whole rows held.
    fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.line)?;
        self.line.clear();
        Ok(())
    }

    /// Writes the whole rows held once they reach [`CsvFile::WRITE_AT`] bytes.
    fn flush_when_full(&mut self) -> io::Result<()> {
        if self.line.len() >= Self::WRITE_AT {
            self.flush()?;
        }
        Ok(())
    }
}

impl Drop for CsvFile {
    /// The whole rows held are written, as a buffered writer would on its way out (a run
    /// that stops on an error keeps the rows it had).
    fn drop(&mut self) {
        let whole = memchr::memrchr(b'\n', &self.line).map_or(0, |end| end + 1);
        let _ = self.out.write_all(&self.line[..whole]);
    }
}

/// Appends `field` to `line` as a CSV field.
fn push_field(line: &mut Vec<u8>, field: &[u8]) {
    // Every byte looked at, without a branch per byte, so that the compiler compares
    // them many at a time (an early exit kept the loop to one byte at a time).
    if field.iter().fold(false, |quote, b| {
        quote | matches!(b, b',' | b'"' | b'\n' | b'\r')
    }) {
        line.push(b'"');
        for &b in field {
            if b == b'"' {
                line.push(b'"');
            }
            line.push(b);
        }
        line.push(b'"');
    } else {
        line.extend_from_slice(field);
    }
}

/// The two digits of every number below 100, in order.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut n = 0;
    while n < 100 {
        pairs[2 * n] = b'0' + (n / 10) as u8;
        pairs[2 * n + 1] = b'0' + (n % 10) as u8;
        n += 1;
    }
    pairs
};

/// Appends `units` of 10^-`DECIMALS` (1 to 9) as a fixed decimal; returns the number
/// written (the same `f64` as parsing the text back: both are the nearest to the same
/// fraction). The digits are made in a small array, the fraction's two at a time from the
/// last (a division by the constant 100 each) behind the point and the whole part's digit
/// when it has one (most times of a move are under 10 ms), then copied as one piece of a
/// constant length.
#[inline]
fn push_units<const DECIMALS: u32>(line: &mut Vec<u8>, units: u64) -> f64 {
    let scale = 10u64.pow(DECIMALS);
    let whole = units / scale;
    let mut digits = [b'.'; 11];
    let mut fraction = (units % scale) as usize;
    let mut at = DECIMALS as usize + 1;
    while at >= 3 {
        let pair = fraction % 100 * 2;
        digits[at - 1..=at].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        fraction /= 100;
        at -= 2;
    }
    if at == 2 {
        digits[2] = b'0' + fraction as u8;
    }
    if whole < 10 {
        digits[0] = b'0' + whole as u8;
        line.extend_from_slice(&digits[..DECIMALS as usize + 2]);
    } else {
        crate::core::json::push_u64(line, whole);
        line.extend_from_slice(&digits[1..DECIMALS as usize + 2]);
    }
    units as f64 / scale as f64
}

/// Appends `nanos` as milliseconds with four decimals, the bytes of
/// `fixed::<4>(millis(nanos))`, and returns the number written in ten-thousandths (as
/// [`push_units`] takes it), in integers: the float path's rounding errors (a few
/// parts in 10^16) cannot move a count of tenths of a microsecond across a rounding
/// boundary unless it lies exactly on one (a tie, `nanos` ending in 50) or the time is
/// longer than 13 days, and those two take the float path.
#[inline]
fn push_millis4(line: &mut Vec<u8>, nanos: u64) -> u64 {
    let units = if nanos % 100 == 50 || nanos >= 1 << 50 {
        half_up(millis(nanos), 4)
    } else {
        (nanos + 50) / 100
    };
    push_units::<4>(line, units);
    units
}

/// `value` (negative as 0) in units of 10^-`decimals`, rounded half up as `f64::round`
/// rounds a number not below 0 (a call into libm avoided: the difference from the whole
/// part is exact).
#[inline]
fn half_up(value: f64, decimals: u32) -> u64 {
    let scaled = value.max(0.0) * 10u64.pow(decimals) as f64;
    let whole = scaled.trunc();
    (whole + if scaled - whole >= 0.5 { 1.0 } else { 0.0 }) as u64
}

/// The fields of a game's moves.csv rows that stay the same from move to move, each
/// written once a game: the row's start (game id and matchup) and, by side, what follows
/// the ply (the side and its agent).
#[derive(Default)]
struct MoveHeads {
    lead: Vec<u8>,
    sides: [Vec<u8>; 2],
}

impl MoveHeads {
    fn write(&mut self, job: &crate::tournament::GameJob, quoted: &Quoted) {
        self.lead.clear();
        crate::core::json::push_u64(&mut self.lead, job.id);
        self.lead.push(b',');
        crate::core::json::push_u64(&mut self.lead, job.matchup as u64);
        self.lead.push(b',');
        for side in Player::BOTH {
            let head = &mut self.sides[side.pair_index()];
            head.clear();
            head.push(b',');
            head.extend_from_slice(side.label().as_bytes());
            head.push(b',');
            head.extend_from_slice(&quoted.agents[job.agent(side)]);
            head.push(b',');
        }
    }
}

/// Appends a game's moves.csv rows to `line` (the agents' moves, each beside its ply's
/// text; chance's plies have no row) and counts each move into `tally` as the report
/// will read it back. Written field by field without a separator's test or a row object:
/// this is most of the bytes a run with its moves writes.
fn push_move_rows(
    line: &mut Vec<u8>,
    record: &GameRecord,
    heads: &MoveHeads,
    tally: &mut GamesTally,
    agents: [usize; 2],
) {
    let separator = MOVE_SEPARATOR as u8;
    // Whether a move's text needs quoting, asked once for the game's text.
    let plain = !record.move_text.bytes().fold(false, |quote, b| {
        quote | matches!(b, b',' | b'"' | b'\n' | b'\r')
    });
    let mut chance = record.chance.iter().peekable();
    let agents_plies = record
        .move_text
        .as_bytes()
        .split(|&b| b == separator)
        .enumerate()
        .filter(|&(ply, _)| chance.next_if(|&&c| c as usize == ply).is_none());
    for (mv, (ply, text)) in record.moves.iter().zip(agents_plies) {
        let ply = ply as u32 + 1;
        let side = mv.side.pair_index();
        line.extend_from_slice(&heads.lead);
        crate::core::json::push_u64(line, u64::from(ply));
        line.extend_from_slice(&heads.sides[side]);
        if plain {
            line.extend_from_slice(text);
        } else {
            push_field(line, text);
        }
        // A move that counted nothing (every random or greedy move) in one piece.
        if mv.expanded | mv.evaluated | mv.generated | mv.peak_bytes == 0
            && mv.depth == 0
            && !mv.timed_out
        {
            line.extend_from_slice(b",0,0,0,0,0,0,");
        } else {
            for count in [
                mv.expanded,
                mv.evaluated,
                mv.generated,
                mv.peak_bytes,
                u64::from(mv.depth),
                u64::from(mv.timed_out),
            ] {
                line.push(b',');
                crate::core::json::push_u64(line, count);
            }
            line.push(b',');
        }
        // The report's figure as it will read it back from the file.
        let ten_thousandths = push_millis4(line, mv.nanos);
        tally.add_move_units(agents[side], ply, mv.expanded, ten_thousandths);
        if mv.cpu_nanos.is_none()
            && mv.clock_nanos.is_none()
            && mv.value.is_none()
            && mv.fault.is_none()
            && !mv.self_reported
        {
            // cpu_ms, clock_ms, value and fault empty, self_reported 0.
            line.extend_from_slice(b",,,,,0\n");
        } else {
            for nanos in [mv.cpu_nanos, mv.clock_nanos] {
                line.push(b',');
                if let Some(nanos) = nanos {
                    push_millis4(line, nanos);
                }
            }
            line.push(b',');
            if let Some(value) = mv.value {
                push_float(line, value);
            }
            line.push(b',');
            push_field(line, mv.fault.map_or("", |f| f.name()).as_bytes());
            line.push(b',');
            crate::core::json::push_u64(line, u64::from(mv.self_reported));
            line.push(b'\n');
        }
    }
}

/// Appends a score in its shortest round-trip form (never a byte that needs quoting).
fn push_float(line: &mut Vec<u8>, value: f64) {
    let _ = write!(line, "{value}");
}

/// Writes a run's CSV files into one folder.
pub struct CsvRecorder {
    folder: PathBuf,
    context: RunContext,
    games: CsvFile,
    /// None when moves.csv is not wanted (big runs: most of the bytes are per move).
    moves: Option<CsvFile>,
    /// games.pgn, written with moves.csv (a file of text, not CSV): the documents made
    /// after the run need not read games.csv back to write it.
    records: Option<CsvFile>,
    /// The rows of the games a resume replays (their journal lines only count them).
    gathered: Option<Gathered>,
    /// Where the files go when the run ends (a resume rewrites them beside the old ones).
    staged: Vec<super::staged::Staged>,
    summary: Summary,
    /// What the report takes of the games written so far, and whether the files holding
    /// them are in place (the run ended).
    tally: GamesTally,
    ended: bool,
    last_flush: Instant,
    quoted: Quoted,
    /// The fields of a game's moves.csv rows that do not change from move to move.
    heads: MoveHeads,
    /// games.csv's header, to take apart a row the viewer's sample keeps, and the fields
    /// of that row.
    game_header: csv::ByteRecord,
    sample_fields: csv::ByteRecord,
}

/// The fields that are the same in many rows (the game, its variant, the agents' names),
/// each written once as a CSV field: copied into a row whole, not scanned for a byte to
/// quote in every row.
struct Quoted {
    game: Vec<u8>,
    variant: Vec<u8>,
    /// By agent index.
    agents: Vec<Vec<u8>>,
}

impl Quoted {
    fn new(context: &RunContext) -> Quoted {
        let field = |text: &str| {
            let mut bytes = Vec::new();
            push_field(&mut bytes, text.as_bytes());
            bytes
        };
        Quoted {
            game: field(&context.game),
            variant: field(&context.variant),
            agents: context.agents.iter().map(|name| field(name)).collect(),
        }
    }
}

/// Writes one CSV record field by field into its file's line.
struct Row<'a> {
    file: &'a mut CsvFile,
    first: bool,
}

impl Row<'_> {
    /// The separator before every field but the first.
    fn separate(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.file.line.push(b',');
        }
    }

    fn text(&mut self, text: &str) -> io::Result<()> {
        self.bytes(text.as_bytes())
    }

    fn bytes(&mut self, field: &[u8]) -> io::Result<()> {
        self.separate();
        push_field(&mut self.file.line, field);
        Ok(())
    }

    /// A field already written as one (see [`Quoted`]), or several already joined by
    /// commas.
    fn quoted(&mut self, field: &[u8]) -> io::Result<()> {
        self.separate();
        self.file.line.extend_from_slice(field);
        Ok(())
    }

    /// An integer, as a journal line writes it (core::fmt's machinery was a tenth of the
    /// writer).
    #[inline]
    fn number(&mut self, value: u64) -> io::Result<()> {
        self.separate();
        crate::core::json::push_u64(&mut self.file.line, value);
        Ok(())
    }

    /// A score, shortest round-trip form.
    fn float(&mut self, value: f64) -> io::Result<()> {
        self.separate();
        push_float(&mut self.file.line, value);
        Ok(())
    }

    /// `value` (negative as 0) with `DECIMALS` (1 to 9) digits after the point, rounded
    /// half up; returns the number as written (the same `f64` as parsing the text back:
    /// both are the nearest to the same fraction). Integer arithmetic written in place,
    /// because float formatting, and then copying the digits, dominated the writer; the
    /// number of decimals a constant, so that the divisions are multiplications.
    fn fixed<const DECIMALS: u32>(&mut self, value: f64) -> io::Result<f64> {
        self.separate();
        Ok(push_units::<DECIMALS>(
            &mut self.file.line,
            half_up(value, DECIMALS),
        ))
    }

    /// Ends the row and writes it.
    fn end(&mut self) -> io::Result<()> {
        self.file.line.push(b'\n');
        self.file.flush_when_full()?;
        self.first = true;
        Ok(())
    }
}

impl CsvRecorder {
    /// Creates games.csv and, if `moves`, moves.csv (with headers) in `folder`.
    ///
    /// # Errors
    /// A file that cannot be created.
    pub fn create(folder: &Path, context: RunContext, moves: bool) -> io::Result<CsvRecorder> {
        let mut staged = Vec::new();
        let mut open = |name: &str, header: &[&str]| -> io::Result<CsvFile> {
            let (file, place) = super::staged::create(folder, name)?;
            staged.push(place);
            CsvFile::new(file, header)
        };
        let games = open("games.csv", GAME_COLUMNS)?;
        let moves_wanted = moves;
        let moves = if moves_wanted {
            Some(open("moves.csv", MOVE_COLUMNS)?)
        } else {
            None
        };
        let records = if moves_wanted {
            let (file, place) = super::staged::create(folder, super::pgn::GAME_RECORDS)?;
            staged.push(place);
            let first = super::pgn::first_line(&context.experiment);
            Some(CsvFile::starting(file, first.as_bytes())?)
        } else {
            None
        };
        let mut tally = GamesTally::default();
        tally.game_records = moves_wanted;
        // The games the report's viewer may show (only a run with its moves has one).
        tally.sample = moves_wanted.then(|| super::sample::RunSample::new(&context.game));
        let quoted = Quoted::new(&context);
        let gathered = moves
            .as_ref()
            .and_then(|_| Gathered::open(folder, MOVE_COLUMNS));
        Ok(CsvRecorder {
            folder: folder.to_path_buf(),
            games,
            moves,
            records,
            gathered,
            staged,
            summary: Summary::new(context.clone()),
            tally,
            ended: false,
            context,
            last_flush: Instant::now(),
            quoted,
            heads: MoveHeads::default(),
            game_header: csv::ByteRecord::from(GAME_COLUMNS.to_vec()),
            sample_fields: csv::ByteRecord::new(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.games.flush()?;
        for file in [&mut self.moves, &mut self.records].into_iter().flatten() {
            file.flush()?;
        }
        self.last_flush = Instant::now();
        Ok(())
    }

    /// The summary so far.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }
}

impl Reporter<GameRecord> for CsvRecorder {
    fn standings(&self) -> Vec<String> {
        let rows = self.summary.rows();
        let played: Vec<&super::SummaryRow> = rows
            .chunks(2)
            .filter_map(|pair| pair.first())
            .filter(|r| r.games > 0)
            .collect();
        let total: u64 = played.iter().map(|r| r.games).sum();
        let mut lines = vec![format!("standings after {total} games:")];
        const SHOWN: usize = 8;
        for r in played.iter().take(SHOWN) {
            let mut line = format!(
                "  {} vs {}: {}-{}-{} ({:.1}%), Elo {}",
                r.agent,
                r.opponent,
                r.wins,
                r.losses,
                r.draws,
                100.0 * r.score,
                super::elo_text(r.elo, r.elo_low95, r.elo_high95)
            );
            if let Some(llr) = r.llr {
                line.push_str(&format!(", LLR {llr:+.2} ({})", r.sprt));
            }
            lines.push(line);
        }
        if played.len() > SHOWN {
            lines.push(format!(
                "  ... and {} more matchups (arbiter show DIR for all)",
                played.len() - SHOWN
            ));
        }
        lines
    }

    fn finished(&mut self, record: &GameRecord) -> io::Result<()> {
        let job = &record.job;
        let context = &self.context;
        let start = self.games.line.len();
        let mut row = self.games.row();
        row.number(job.id)?;
        row.number(job.matchup as u64)?;
        row.number(job.game_index)?;
        row.number(job.seed)?;
        let quoted = &self.quoted;
        row.quoted(&quoted.game)?;
        row.quoted(&quoted.variant)?;
        let agents = [Player::P1, Player::P2].map(|seat| context.agent_name(job, seat));
        let winner = record.winner.map_or("draw", Player::label);
        row.quoted(&quoted.agents[job.agent(Player::P1)])?;
        row.quoted(&quoted.agents[job.agent(Player::P2)])?;
        row.text(winner)?;
        row.quoted(record.winner.map_or(&[], |w| &quoted.agents[job.agent(w)]))?;
        row.text(&record.reason)?;
        row.number(u64::from(record.plies))?;
        for player in Player::BOTH {
            let side = &record.sides[player];
            let moves = f64::from(side.moves.max(1));
            row.number(u64::from(side.moves))?;
            row.number(side.stats.expanded)?;
            row.number(side.stats.evaluated)?;
            row.number(side.stats.generated)?;
            row.fixed::<2>(side.stats.expanded as f64 / moves)?;
            row.fixed::<4>(millis(side.nanos) / moves)?;
            row.number(side.stats.peak_bytes)?;
            row.number(u64::from(side.captures))?;
        }
        for player in Player::BOTH {
            match &record.returns {
                Some(returns) => row.float(returns[player])?,
                None => row.text("")?,
            }
        }
        row.text(&record.opening)?;
        row.text(&record.move_text)?;
        if let Some(sample) = &mut self.tally.sample {
            // Taken apart as a reader of the file would, when the sample keeps it.
            let (header, fields) = (&self.game_header, &mut self.sample_fields);
            sample
                .add(u64::from(record.plies), || {
                    super::sample::row_by_name(&row.file.line[start..], header, fields)
                })
                .map_err(csv_error)?;
        }
        row.end()?;
        let numbers = self
            .tally
            .add_game(agents, winner, job.matchup, record.plies);
        if let Some(records) = &mut self.records {
            super::pgn::push_game(
                &mut records.line,
                &super::pgn::GameTags {
                    game_id: job.id,
                    game_index: job.game_index,
                    seed: job.seed,
                    game: &context.game,
                    p1_agent: agents[0],
                    p2_agent: agents[1],
                    winner,
                    reason: &record.reason,
                    opening: &record.opening,
                    moves: &record.move_text,
                },
            );
            records.flush_when_full()?;
        }

        if let Some(moves) = &mut self.moves {
            self.heads.write(job, quoted);
            push_move_rows(
                &mut moves.line,
                record,
                &self.heads,
                &mut self.tally,
                numbers,
            );
            moves.flush_when_full()?;
            // A game replayed from the journal: its rows as the old moves.csv had them.
            if record.moves.is_empty() && record.move_rows > 0 {
                let mut row = moves.row();
                let gathered = self.gathered.as_mut().ok_or_else(|| {
                    io::Error::other(format!(
                        "the moves of game {} are not in moves.csv: delete the journal's line of that game to play it again",
                        job.id
                    ))
                })?;
                // What the report takes of each row, as when it was written.
                let column = |name: &str| MOVE_COLUMNS.iter().position(|&c| c == name);
                let [ply, agent, expanded, ms] =
                    ["ply", "agent", "expanded", "ms"].map(|name| column(name).unwrap_or(0));
                for fields in gathered.rows(job.id, record.move_rows)? {
                    for field in fields {
                        row.bytes(field)?;
                    }
                    row.end()?;
                    let text = |at: usize| {
                        std::str::from_utf8(fields.get(at).unwrap_or_default()).unwrap_or("")
                    };
                    if let (Ok(ply), Ok(expanded), Ok(ms)) =
                        (text(ply).parse(), text(expanded).parse(), text(ms).parse())
                    {
                        let agent = self.tally.agent(text(agent));
                        self.tally.add_move(agent, ply, expanded, ms);
                    }
                }
            }
        }
        self.summary.add(record);
        if self.last_flush.elapsed() >= FLUSH_EVERY {
            self.flush()?;
        }
        Ok(())
    }

    fn take_tally(&mut self) -> Option<GamesTally> {
        self.ended.then(|| std::mem::take(&mut self.tally))
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.flush()?;
        for place in &mut self.staged {
            place.commit()?;
        }
        // The replayed games' rows are in the new moves.csv now.
        if let Some(gathered) = self.gathered.take() {
            std::fs::remove_file(gathered.path())?;
        }
        self.ended = true;
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

/// Writes the CSV file `path` with `write` (its rows, header first) and flushes it: the
/// one place a table file other than the run's sinks is opened, for the documents and the
/// rounds' tables alike.
///
/// # Errors
/// The file cannot be created or written: one line naming it.
pub fn write_table(
    path: &Path,
    write: impl FnOnce(&mut csv::Writer<File>) -> csv::Result<()>,
) -> Result<(), crate::registry::InputError> {
    let fail = |e: &dyn std::fmt::Display| {
        crate::registry::InputError::in_file(
            path,
            None,
            format!("cannot write: {}", crate::core::one_line(&e.to_string())),
        )
    };
    let mut writer = csv::Writer::from_path(path).map_err(|e| fail(&e))?;
    write(&mut writer).map_err(|e| fail(&e))?;
    writer.flush().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    #[test]
    fn rows_are_written_byte_for_byte_as_the_csv_crate_writes_them() {
        let rows: Vec<Vec<&str>> = vec![
            vec!["game_id", "matchup", "moves"],
            vec!["1", "", "a2-a3 b7-b6"],
            vec!["with, comma", "with \"quotes\"", "line\nbreak"],
            vec!["carriage\rreturn", "\"", ","],
            vec!["", "", ""],
            vec!["é – ünïcode", "tab\there", " spaces "],
            vec!["#hash", "'single'", "semi;colon"],
        ];
        let mut expected = csv::Writer::from_writer(Vec::new());
        for row in &rows {
            expected.write_record(row).expect("in memory");
        }
        let expected = expected.into_inner().expect("in memory");
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("rows.csv");
        let file = std::fs::File::create(&path).expect("a file");
        let mut csv = super::CsvFile::new(file, &rows[0]).expect("written");
        let mut row = csv.row();
        for fields in &rows[1..] {
            for field in fields {
                row.text(field).expect("written");
            }
            row.end().expect("written");
        }
        csv.flush().expect("written");
        let written = std::fs::read(&path).expect("read back");
        assert_eq!(
            String::from_utf8_lossy(&written),
            String::from_utf8_lossy(&expected)
        );
        // Numbers and fixed decimals need no quotes, and a score keeps its shortest form.
        let mut row = csv.row();
        row.number(42u64).expect("written");
        row.fixed::<2>(2.5).expect("written");
        row.float(-0.125).expect("written");
        assert_eq!(csv.line, b"42,2.50,-0.125");
    }

    #[test]
    fn milliseconds_in_integers_are_the_float_paths_bytes_and_value() {
        let dir = tempfile::tempdir().expect("a folder");
        let file = std::fs::File::create(dir.path().join("m.csv")).expect("a file");
        let mut csv = super::CsvFile::new(file, &["x"]).expect("written");
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut nanos_tried = vec![
            0,
            1,
            49,
            50,
            51,
            99,
            100,
            150,
            9_999_950,
            (1 << 50) - 1,
            1 << 50,
            u64::MAX,
        ];
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Every scale from a nanosecond to centuries, ties and their neighbours.
            let nanos = x >> (x % 64);
            nanos_tried.extend([nanos, nanos / 100 * 100 + 50, nanos / 100 * 100 + 49]);
        }
        for nanos in nanos_tried {
            let mut fast_text = Vec::new();
            let fast = super::push_millis4(&mut fast_text, nanos) as f64 / 1e4;
            let slow = csv
                .row()
                .fixed::<4>(super::super::millis(nanos))
                .expect("written");
            let slow_text = std::mem::take(&mut csv.line);
            assert_eq!(fast_text, slow_text, "{nanos} ns");
            assert_eq!(fast.to_bits(), slow.to_bits(), "{nanos} ns");
        }
    }

    #[test]
    fn fixed_decimals_round_half_up_pad_the_fraction_and_give_back_what_is_written() {
        let dir = std::env::temp_dir().join(format!("arbiter-fixed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let file = std::fs::File::create(dir.join("f.csv")).expect("a file");
        let mut csv = super::CsvFile::new(file, &["x"]).expect("written");
        let mut check = |value: f64, decimals: u32, expected: Option<&str>| {
            let mut row = csv.row();
            let written = match decimals {
                2 => row.fixed::<2>(value),
                _ => row.fixed::<4>(value),
            }
            .expect("written");
            let text = String::from_utf8(row.file.line.clone()).expect("ASCII");
            row.file.line.clear();
            if let Some(expected) = expected {
                assert_eq!(text, expected, "{value} to {decimals} decimals");
            }
            // Rounded half up as f64::round rounds.
            let scale = 10u64.pow(decimals);
            let units = (value.max(0.0) * scale as f64).round() as u64;
            let width = decimals as usize;
            let rounded = format!("{}.{:0width$}", units / scale, units % scale);
            assert_eq!(text, rounded, "{value} to {decimals} decimals");
            // What the report reads back from the file is the number handed back.
            let parsed: f64 = text.parse().expect("a number");
            assert_eq!(written.to_bits(), parsed.to_bits(), "{value} as {text}");
        };
        for (value, decimals, expected) in [
            (0.0, 4, "0.0000"),
            (0.00005, 4, "0.0001"),
            (0.00004, 4, "0.0000"),
            (1.5, 2, "1.50"),
            (12.345678, 4, "12.3457"),
            (3.0001, 4, "3.0001"),
            (-2.0, 2, "0.00"),
            (123456.7, 2, "123456.70"),
            (0.07, 2, "0.07"),
            (99.99996, 4, "100.0000"),
        ] {
            check(value, decimals, Some(expected));
        }
        // Milliseconds as moves are timed: 1 ns to about a minute, spread over the scales.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let nanos = (x % 60_000_000_000) >> (x % 30);
            check(nanos as f64 / 1e6, 4, None);
            // Ties and near ties at both scales.
            let tie = (x % 100_000) as f64 + 0.5;
            check(tie / 100.0, 2, None);
            check(tie / 10_000.0, 4, None);
            check(f64::from_bits((tie / 100.0).to_bits() - 1), 2, None);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
