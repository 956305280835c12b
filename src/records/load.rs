//! Reading a results folder back: what `arbiter report` and `show` need, from the files
//! alone (no rerun).

use super::{Meta, SummaryRow, read_summary};
use crate::registry::InputError;
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::Path;

/// Where the columns of games.csv a report takes stand, found once from the header: a
/// row is then read field by field (matching every row's 30 fields to the header by
/// name, as a derived deserializer does, was a third of reading the file).
struct GameColumns {
    game_id: usize,
    matchup: usize,
    p1_agent: usize,
    p2_agent: usize,
    winner: usize,
    plies: usize,
}

impl GameColumns {
    fn of(headers: &csv::ByteRecord, path: &Path) -> Result<GameColumns, InputError> {
        let find = |name: &str| {
            headers
                .iter()
                .position(|h| h == name.as_bytes())
                .ok_or_else(|| InputError::in_file(path, None, format!("no '{name}' column")))
        };
        Ok(GameColumns {
            game_id: find("game_id")?,
            matchup: find("matchup")?,
            p1_agent: find("p1_agent")?,
            p2_agent: find("p2_agent")?,
            winner: find("winner")?,
            plies: find("plies")?,
        })
    }
}

/// A games.csv row being read: its fields by index, an error naming the file, the line
/// and the column.
struct GamesRow<'r> {
    record: &'r csv::ByteRecord,
    line: usize,
    path: &'r Path,
}

impl<'r> GamesRow<'r> {
    /// Field `index` (column `name`) as text.
    fn text(&self, index: usize, name: &str) -> Result<&'r str, InputError> {
        std::str::from_utf8(self.record.get(index).unwrap_or_default()).map_err(|_| {
            InputError::in_file(
                self.path,
                Some(self.line),
                format!("{name} is not UTF-8 text"),
            )
        })
    }

    /// Field `index` (column `name`) as a whole number.
    fn number<T: std::str::FromStr>(&self, index: usize, name: &str) -> Result<T, InputError> {
        let text = self.text(index, name)?;
        text.parse().map_err(|_| {
            InputError::in_file(
                self.path,
                Some(self.line),
                format!("{name} '{text}' is not a whole number"),
            )
        })
    }
}

/// How the games between one P1 agent and one P2 agent ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcomes {
    /// Games P1 won.
    pub p1_wins: u64,
    /// Games P2 won.
    pub p2_wins: u64,
    /// Games drawn (or ended without a winner).
    pub draws: u64,
}

impl Outcomes {
    /// Counts one game whose winner column reads `winner` (`P1`, `P2`, anything else a draw).
    pub fn add(&mut self, winner: &str) {
        match winner {
            "P1" => self.p1_wins += 1,
            "P2" => self.p2_wins += 1,
            _ => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.p1_wins + self.p2_wins + self.draws
    }
}

/// Results by seat: `(P1 agent, P2 agent)` to how their games ended. As many entries as
/// pairs of names, however many games were played.
pub type Pairings = BTreeMap<(String, String), Outcomes>;

/// A distribution of values kept as counts of distinct values, so its quantiles are exact
/// and its memory grows with the number of distinct values, not of values (plies per
/// game, or milliseconds written to four decimals, repeat a lot). Counted in a hash map
/// (a run's recorder adds every move's time: an ordered map's search was a tenth of its
/// work), ordered only when the quantiles are asked for.
#[derive(Clone, Debug, Default)]
pub struct Spread {
    /// Order-preserving key of each value's bits to how often it occurred.
    counts: HashMap<u64, u64, BuildHasherDefault<KeyHasher>>,
    /// How often each value `index / 10^4` below [`SMALL_UNITS`] ten-thousandths was
    /// added by [`Spread::add_ten_thousandths`]: a recorder's moves mostly take a fraction
    /// of a millisecond, and an increment costs a tenth of a hash.
    small: Vec<u64>,
    len: u64,
}

/// The values counted by their number of ten-thousandths in [`Spread::small`] (below
/// 0.4096).
const SMALL_UNITS: u64 = 1 << 12;

/// The key of `value` in [`Spread::counts`]: its bits, flipped as `total_cmp` orders
/// (negatives reversed below the positives).
fn spread_key(value: f64) -> u64 {
    let bits = value.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

impl PartialEq for Spread {
    /// The same values, however they were added.
    fn eq(&self, other: &Spread) -> bool {
        self.len == other.len && self.sorted_counts() == other.sorted_counts()
    }
}

/// A hash of a 64-bit key by one multiplication (keys are a value's bits, not chosen by
/// anyone who could make them collide on purpose).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0 ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, key: u64) {
        let mixed = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ (mixed >> 29);
    }
}

impl Spread {
    /// Adds one value.
    pub fn add(&mut self, value: f64) {
        *self.counts.entry(spread_key(value)).or_default() += 1;
        self.len += 1;
    }

    /// Adds the value `units / 10^4` (a time written to four decimals), the same `f64`
    /// as [`Spread::add`] would be given by parsing its text.
    /// An increment when the value was seen before: inlined in the recorder's loop over
    /// moves, the rest out of it.
    #[inline]
    pub fn add_ten_thousandths(&mut self, units: u64) {
        match self.small.get_mut(units as usize) {
            Some(count) => {
                *count += 1;
                self.len += 1;
            }
            None => self.add_ten_thousandths_first(units),
        }
    }

    /// [`Spread::add_ten_thousandths`] for a value not counted in `small` yet.
    #[inline(never)]
    fn add_ten_thousandths_first(&mut self, units: u64) {
        if units >= SMALL_UNITS {
            return self.add(units as f64 / 1e4);
        }
        self.small.resize(units as usize + 1, 0);
        self.small[units as usize] += 1;
        self.len += 1;
    }

    /// Each distinct value's key (see [`spread_key`]) and count, in increasing order.
    fn sorted_counts(&self) -> Vec<(u64, u64)> {
        let small = (0u64..)
            .zip(&self.small)
            .filter(|&(_, &count)| count > 0)
            .map(|(units, &count)| (spread_key(units as f64 / 1e4), count));
        let mut counts: Vec<(u64, u64)> = self
            .counts
            .iter()
            .map(|(&k, &c)| (k, c))
            .chain(small)
            .collect();
        counts.sort_unstable();
        // A value added both ways is one value.
        counts.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
        counts
    }

    /// Values added.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no value was added.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Minimum, first quartile, median, third quartile and maximum (linear interpolation
    /// between order statistics); `None` for no values.
    pub fn five_numbers(&self) -> Option<[f64; 5]> {
        if self.len == 0 {
            return None;
        }
        let counts = self.sorted_counts();
        // The `k`-th smallest value (from 0), `k < len`.
        let nth = |k: u64| {
            let mut seen = 0;
            for &(key, count) in &counts {
                seen += count;
                if k < seen {
                    let bits = if key >> 63 == 1 {
                        key & !(1 << 63)
                    } else {
                        !key
                    };
                    return f64::from_bits(bits);
                }
            }
            f64::NAN
        };
        let at = |q: f64| {
            let position = q * (self.len - 1) as f64;
            let (low, high) = (position.floor(), position.ceil());
            let (a, b) = (nth(low as u64), nth(high as u64));
            a + (b - a) * (position - low)
        };
        Some([at(0.0), at(0.25), at(0.5), at(0.75), at(1.0)])
    }
}

impl FromIterator<f64> for Spread {
    fn from_iter<I: IntoIterator<Item = f64>>(values: I) -> Spread {
        let mut spread = Spread::default();
        for value in values {
            spread.add(value);
        }
        spread
    }
}

#[derive(Deserialize)]
struct MoveRow<'a> {
    game_id: u64,
    ply: u32,
    side: &'a str,
    expanded: u64,
    ms: f64,
}

/// What a report takes of a moves.csv row.
#[derive(Clone, Copy)]
struct MoveFigures {
    game_id: u64,
    ply: u32,
    p1: bool,
    expanded: u64,
    ms: f64,
}

/// What a report takes of the games, counted game by game as games.csv and moves.csv
/// hold them: by [`read_games`] from the files, or by the run's recorder while it writes
/// them (so a run's own report does not read games.csv back). Nothing is kept per game.
#[derive(Debug, Default)]
pub struct GamesTally {
    /// Agent names as numbers: no allocation per game (ordered: a few short comparisons
    /// find a name among a run's agents, cheaper than hashing it twice a game).
    names: BTreeMap<String, usize>,
    pairs: BTreeMap<(usize, usize), Outcomes>,
    games: u64,
    plies: BTreeMap<usize, Spread>,
    /// By agent number: its moves counted (a move finds its agent by number, not name).
    moves: Vec<AgentMoves>,
    /// Whether games.pgn was written beside the files counted (by a run's recorder).
    pub game_records: bool,
    /// The rows of games.csv the report's viewer may show, kept by a run's recorder.
    pub sample: Option<super::sample::RunSample>,
}

/// What the report takes of one agent's moves.
#[derive(Debug, Default)]
struct AgentMoves {
    ms: Spread,
    /// Nodes expanded (sum, moves) at ply `index + 1`, for the plies most games reach;
    /// later ones in `late` (a ply number read from a file may be anything).
    by_ply: Vec<(u64, u64)>,
    late: BTreeMap<u32, (u64, u64)>,
}

impl AgentMoves {
    /// Counts a move at `ply` that expanded `expanded` nodes: two additions at a ply
    /// counted before (inlined in the recorder's loop over moves), the rest out of it.
    #[inline]
    fn add(&mut self, ply: u32, expanded: u64) {
        match self.by_ply.get_mut((ply as usize).wrapping_sub(1)) {
            Some(at_ply) => {
                at_ply.0 += expanded;
                at_ply.1 += 1;
            }
            None => self.add_at_new_ply(ply, expanded),
        }
    }

    /// [`AgentMoves::add`] at a ply not in `by_ply` yet.
    #[inline(never)]
    fn add_at_new_ply(&mut self, ply: u32, expanded: u64) {
        let at_ply = match ply.checked_sub(1) {
            Some(index) if index < DENSE_PLIES => {
                let index = index as usize;
                if self.by_ply.len() <= index {
                    self.by_ply.resize(index + 1, (0, 0));
                }
                &mut self.by_ply[index]
            }
            _ => self.late.entry(ply).or_default(),
        };
        at_ply.0 += expanded;
        at_ply.1 += 1;
    }
}

/// The plies counted in [`AgentMoves::by_ply`].
const DENSE_PLIES: u32 = 1 << 12;

impl GamesTally {
    /// The number of agent `name` (its moves are counted by it).
    pub fn agent(&mut self, name: &str) -> usize {
        match self.names.get(name) {
            Some(&index) => index,
            None => {
                let index = self.names.len();
                self.names.insert(name.to_string(), index);
                self.moves.push(AgentMoves::default());
                index
            }
        }
    }

    /// Counts a game: its agents by seat, its `winner` column (`P1`, `P2`, or a draw), its
    /// matchup and length. Returns the agents' numbers, by seat.
    pub fn add_game(
        &mut self,
        agents: [&str; 2],
        winner: &str,
        matchup: usize,
        plies: u32,
    ) -> [usize; 2] {
        self.games += 1;
        let seats = agents.map(|name| self.agent(name));
        self.pairs
            .entry((seats[0], seats[1]))
            .or_default()
            .add(winner);
        self.plies.entry(matchup).or_default().add(f64::from(plies));
        seats
    }

    /// Counts a move of agent number `agent` (see [`GamesTally::agent`]): its ply, nodes
    /// expanded and milliseconds (as moves.csv writes them).
    pub fn add_move(&mut self, agent: usize, ply: u32, expanded: u64, ms: f64) {
        if let Some(moves) = self.moves.get_mut(agent) {
            moves.ms.add(ms);
            moves.add(ply, expanded);
        }
    }

    /// [`GamesTally::add_move`] with the milliseconds as written to four decimals, in
    /// ten-thousandths (the recorder's: no float to hash).
    #[inline]
    pub fn add_move_units(&mut self, agent: usize, ply: u32, expanded: u64, units: u64) {
        if let Some(moves) = self.moves.get_mut(agent) {
            moves.ms.add_ten_thousandths(units);
            moves.add(ply, expanded);
        }
    }

    /// Puts the counts into `data`.
    fn into_data(self, data: &mut RunData) {
        let mut by_index = vec![String::new(); self.names.len()];
        for (name, index) in self.names {
            by_index[index] = name;
        }
        for ((p1, p2), outcomes) in self.pairs {
            data.pairings
                .insert((by_index[p1].clone(), by_index[p2].clone()), outcomes);
        }
        data.games = self.games;
        data.game_records_written = self.game_records;
        data.sample = self.sample;
        data.plies = self.plies;
        data.move_ms = BTreeMap::new();
        data.expanded_by_ply = BTreeMap::new();
        for (name, moves) in by_index.into_iter().zip(self.moves) {
            if moves.ms.is_empty() {
                continue;
            }
            let mut by_ply = moves.late;
            by_ply.extend((1..).zip(moves.by_ply).filter(|(_, (_, count))| *count > 0));
            data.expanded_by_ply.insert(name.clone(), by_ply);
            data.move_ms.insert(name, moves.ms);
        }
    }
}

/// Reads games.csv (and moves.csv when `moves` is given) in one pass, game by game, into
/// `data`'s running totals: nothing is kept per game, so any number of games fits in the
/// same memory. moves.csv must list its games in games.csv's order, as arbiter writes it.
///
/// # Errors
/// A missing or malformed file, naming it and the line.
fn read_games(data: &mut RunData, path: &Path, moves: Option<&Path>) -> Result<(), InputError> {
    let (mut reader, headers) = byte_reader(path)?;
    let columns = GameColumns::of(&headers, path)?;
    let mut moves = moves.map(MoveRows::open).transpose()?;
    let mut tally = GamesTally::default();
    let mut record = csv::ByteRecord::new();
    let mut line = 1;
    loop {
        line += 1;
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(InputError::in_file(path, Some(line), e.to_string())),
        }
        let row = GamesRow {
            record: &record,
            line,
            path,
        };
        let agents = [
            row.text(columns.p1_agent, "p1_agent")?,
            row.text(columns.p2_agent, "p2_agent")?,
        ];
        let winner = row.text(columns.winner, "winner")?;
        let matchup: usize = row.number(columns.matchup, "matchup")?;
        let plies: u32 = row.number(columns.plies, "plies")?;
        let seats = tally.add_game(agents, winner, matchup, plies);
        if let Some(moves) = moves.as_mut() {
            let game_id = row.number(columns.game_id, "game_id")?;
            moves.of_game(&mut tally, game_id, seats)?;
        }
    }
    tally.into_data(data);
    match moves.and_then(|mut m| m.peek().transpose()) {
        Some(Ok(row)) => Err(InputError::in_file(
            row.1,
            Some(row.2),
            format!("game {} is not in games.csv (or not in its order)", row.0),
        )),
        Some(Err(e)) => Err(e),
        None => Ok(()),
    }
}

/// moves.csv read alongside games.csv.
struct MoveRows<'p> {
    reader: csv::Reader<std::fs::File>,
    headers: csv::ByteRecord,
    record: csv::ByteRecord,
    path: &'p Path,
    /// The line of the row in `next`.
    line: usize,
    next: Option<MoveFigures>,
}

impl<'p> MoveRows<'p> {
    fn open(path: &'p Path) -> Result<MoveRows<'p>, InputError> {
        let (reader, headers) = byte_reader(path)?;
        Ok(MoveRows {
            reader,
            headers,
            record: csv::ByteRecord::new(),
            path,
            line: 1,
            next: None,
        })
    }

    /// The next row's game id, file and line, without taking it.
    fn peek(&mut self) -> Result<Option<(u64, &'p Path, usize)>, InputError> {
        if self.next.is_none() {
            let failed = |line: usize, e: &dyn std::fmt::Display| {
                InputError::in_file(self.path, Some(line), e.to_string())
            };
            match self.reader.read_byte_record(&mut self.record) {
                Ok(false) => return Ok(None),
                Ok(true) => self.line += 1,
                Err(e) => return Err(failed(self.line + 1, &e)),
            }
            let row: MoveRow = self
                .record
                .deserialize(Some(&self.headers))
                .map_err(|e| failed(self.line, &e))?;
            self.next = Some(MoveFigures {
                game_id: row.game_id,
                ply: row.ply,
                p1: row.side == "P1",
                expanded: row.expanded,
                ms: row.ms,
            });
        }
        Ok(self
            .next
            .as_ref()
            .map(|row| (row.game_id, self.path, self.line)))
    }

    /// Counts the moves of game `game_id`, played by `seats`.
    fn of_game(
        &mut self,
        tally: &mut GamesTally,
        game_id: u64,
        seats: [usize; 2],
    ) -> Result<(), InputError> {
        while self.peek()?.is_some_and(|(id, _, _)| id == game_id) {
            let Some(row) = self.next.take() else { break };
            let agent = if row.p1 { seats[0] } else { seats[1] };
            tally.add_move(agent, row.ply, row.expanded, row.ms);
        }
        Ok(())
    }
}

/// A game run's tables: its summary and its games counted (the run's folder and
/// meta.json are its [`super::loaded::LoadedRun`]'s).
#[derive(Clone, Debug, Default)]
pub struct RunData {
    /// summary.csv.
    pub summary: Vec<SummaryRow>,
    /// Games in games.csv.
    pub games: u64,
    /// How the games ended, by the agents in the two seats.
    pub pairings: Pairings,
    /// Plies per game, by matchup.
    pub plies: BTreeMap<usize, Spread>,
    /// Milliseconds per move, by agent name (from moves.csv).
    pub move_ms: BTreeMap<String, Spread>,
    /// Nodes expanded per move by agent and ply: (sum, moves).
    pub expanded_by_ply: BTreeMap<String, BTreeMap<u32, (u64, u64)>>,
    /// Whether the games were read (`show` leaves the ratings out of a run whose
    /// games.csv cannot be read).
    pub games_read: bool,
    /// Whether games.pgn was written with games.csv (by the run's recorder), so that the
    /// documents need not make it from games.csv.
    pub game_records_written: bool,
    /// The rows of games.csv the viewer may show, as the run's recorder kept them (none
    /// when read from the files).
    pub sample: Option<super::sample::RunSample>,
}

/// A CSV file's cells as text, its header and its rows: a file the documents read by
/// column name (a run's summary file, standings.csv).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CsvCells {
    /// The header's columns.
    pub headers: Vec<String>,
    /// The rows, a cell per column.
    pub rows: Vec<Vec<String>>,
}

impl CsvCells {
    /// Reads the file at `path`; `None` when there is no such file.
    ///
    /// # Errors
    /// A file that cannot be read or is not CSV, named with the line.
    pub fn read(path: &Path) -> Result<Option<CsvCells>, InputError> {
        if !path.is_file() {
            return Ok(None);
        }
        let mut reader = csv::Reader::from_path(path)
            .map_err(|e| InputError::in_file(path, None, format!("cannot read: {e}")))?;
        let headers = reader
            .headers()
            .map_err(|e| InputError::in_file(path, None, e.to_string()))?
            .iter()
            .map(str::to_string)
            .collect();
        let rows = reader
            .records()
            .enumerate()
            .map(|(i, record)| {
                record
                    .map(|r| r.iter().map(str::to_string).collect())
                    .map_err(|e| InputError::in_file(path, Some(i + 2), e.to_string()))
            })
            .collect::<Result<_, InputError>>()?;
        Ok(Some(CsvCells { headers, rows }))
    }

    /// As [`CsvCells::read`], leaving out the rows that cannot be read (`None` also for a
    /// file that cannot be read at all).
    pub fn read_lenient(path: &Path) -> Option<CsvCells> {
        let mut reader = csv::Reader::from_path(path).ok()?;
        let headers = reader.headers().ok()?.iter().map(str::to_string).collect();
        let rows = reader
            .records()
            .filter_map(Result::ok)
            .map(|r| r.iter().map(str::to_string).collect())
            .collect();
        Some(CsvCells { headers, rows })
    }

    /// Each row as a map from column to cell.
    pub fn maps(&self) -> Vec<BTreeMap<String, String>> {
        self.rows
            .iter()
            .map(|row| {
                self.headers
                    .iter()
                    .cloned()
                    .zip(row.iter().cloned())
                    .collect()
            })
            .collect()
    }
}

/// A CSV file opened to be read a row at a time, and its header: the errors name the
/// file.
///
/// # Errors
/// A file that cannot be opened, or a header that cannot be read.
pub fn byte_reader(
    path: &Path,
) -> Result<(csv::Reader<std::fs::File>, csv::ByteRecord), InputError> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| InputError::in_file(path, None, format!("cannot read: {e}")))?;
    let headers = reader
        .byte_headers()
        .map_err(|e| InputError::in_file(path, None, e.to_string()))?
        .clone();
    Ok((reader, headers))
}

/// The `moves` column of an earlier run's games.csv, a game a row in order (the positions
/// a search experiment takes from it).
///
/// # Errors
/// A file that cannot be read, is no games.csv, or a row that is not CSV: one line naming
/// the file (and the line).
pub fn games_csv_moves(path: &Path) -> Result<Vec<String>, InputError> {
    let (mut reader, headers) = byte_reader(path)?;
    let column = headers.iter().position(|h| h == b"moves").ok_or_else(|| {
        InputError::in_file(path, None, "no 'moves' column (not an arbiter games.csv)")
    })?;
    let mut record = csv::ByteRecord::new();
    let mut games = Vec::new();
    for line in 2.. {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => return Err(InputError::in_file(path, Some(line), e.to_string())),
        }
        let moves = std::str::from_utf8(record.get(column).unwrap_or_default())
            .map_err(|_| InputError::in_file(path, Some(line), "moves is not UTF-8 text"))?;
        games.push(moves.to_string());
    }
    Ok(games)
}

/// Every row of a CSV file with a header, as `T`.
///
/// # Errors
/// A message naming the file, and the line of a row that does not fit.
pub fn csv_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, InputError> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| InputError::in_file(path, None, format!("cannot read: {e}")))?;
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| InputError::in_file(path, Some(i + 2), e.to_string())))
        .collect()
}

impl RunData {
    /// summary.csv of the run in `folder` (its agents as `meta` gives them), no game yet.
    ///
    /// # Errors
    /// A summary.csv that is missing or malformed, named with its line.
    pub fn beside_games(folder: &Path, meta: Option<&Meta>) -> Result<RunData, InputError> {
        Ok(RunData {
            summary: read_summary(folder, meta)?,
            ..RunData::default()
        })
    }

    /// Reads `folder`'s games.csv, and moves.csv's times per move when `moves` and it was
    /// written.
    ///
    /// # Errors
    /// A games.csv (or moves.csv) that is missing or malformed, named with its line.
    pub fn read_games(&mut self, folder: &Path, moves: bool) -> Result<(), InputError> {
        let moves_path = folder.join("moves.csv");
        let moves = (moves && moves_path.is_file()).then_some(moves_path.as_path());
        let games = folder.join("games.csv");
        read_games(self, &games, moves)?;
        self.games_read = true;
        Ok(())
    }

    /// Takes the games as `tally` counted them while games.csv and moves.csv were written
    /// (every game in the files, and only those).
    pub fn take_tally(&mut self, tally: GamesTally) {
        tally.into_data(self);
        self.games_read = true;
    }

    /// Agent names in order of first appearance in the summary, a sweep's variants (from
    /// `meta`) together.
    pub fn agents(&self, meta: Option<&Meta>) -> Vec<String> {
        let sweeps = meta.map_or(&[][..], |m| m.sweeps.as_slice());
        let mut names: Vec<String> = Vec::new();
        for row in &self.summary {
            for name in [&row.agent, &row.opponent] {
                if names.contains(name) {
                    continue;
                }
                // A sweep's variants stand together, in their order, where the first
                // of them would stand.
                match sweeps.iter().find(|s| s.variants.contains(name)) {
                    Some(sweep) => {
                        for variant in &sweep.variants {
                            let played = self.summary.iter().any(|r| r.agent == *variant);
                            if played && !names.contains(variant) {
                                names.push(variant.clone());
                            }
                        }
                    }
                    None => names.push(name.clone()),
                }
            }
        }
        names
    }
}

/// Wins and games of a row agent against a column agent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Games the row agent won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games played between the two.
    pub games: u64,
}

/// Win counts of every agent (row) against every other (column), both colours combined
/// (`p1_only`: only the games where the row agent played P1). Self-play games count for
/// neither side.
pub fn win_matrix(agents: &[String], pairings: &Pairings, p1_only: bool) -> Vec<Vec<Cell>> {
    let index = |name: &str| agents.iter().position(|a| a == name);
    let mut cells = vec![vec![Cell::default(); agents.len()]; agents.len()];
    for ((p1, p2), outcomes) in pairings {
        let (Some(p1), Some(p2)) = (index(p1), index(p2)) else {
            continue;
        };
        if p1 == p2 {
            continue;
        }
        let seats: &[(usize, usize, u64)] = if p1_only {
            &[(p1, p2, outcomes.p1_wins)]
        } else {
            &[(p1, p2, outcomes.p1_wins), (p2, p1, outcomes.p2_wins)]
        };
        for &(row, column, wins) in seats {
            let cell = &mut cells[row][column];
            cell.games += outcomes.games();
            cell.wins += wins;
            cell.draws += outcomes.draws;
        }
    }
    cells
}

/// Minimum, first quartile, median, third quartile and maximum (linear interpolation
/// between order statistics); `None` for no values.
pub fn five_numbers(values: &[f64]) -> Option<[f64; 5]> {
    values.iter().copied().collect::<Spread>().five_numbers()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairings(games: &[(&str, &str, &str)]) -> Pairings {
        let mut pairings = Pairings::new();
        for &(p1, p2, winner) in games {
            pairings
                .entry((p1.to_string(), p2.to_string()))
                .or_default()
                .add(winner);
        }
        pairings
    }

    #[test]
    fn win_matrix_combines_colours_and_splits_them() {
        let agents = vec!["a".to_string(), "b".to_string()];
        let games = pairings(&[
            ("a", "b", "P1"),
            ("b", "a", "P1"),
            ("b", "a", "draw"),
            ("a", "a", "P1"),
        ]);
        let both = win_matrix(&agents, &games, false);
        assert_eq!(
            both[0][1],
            Cell {
                wins: 1,
                draws: 1,
                games: 3
            }
        );
        assert_eq!(
            both[1][0],
            Cell {
                wins: 1,
                draws: 1,
                games: 3
            }
        );
        assert_eq!(both[0][0], Cell::default(), "self-play is not counted");
        let p1 = win_matrix(&agents, &games, true);
        assert_eq!(
            p1[0][1],
            Cell {
                wins: 1,
                draws: 0,
                games: 1
            }
        );
        assert_eq!(
            p1[1][0],
            Cell {
                wins: 1,
                draws: 1,
                games: 2
            }
        );
    }

    #[test]
    fn five_numbers_interpolate() {
        assert_eq!(five_numbers(&[]), None);
        assert_eq!(five_numbers(&[3.0]), Some([3.0; 5]));
        assert_eq!(
            five_numbers(&[4.0, 1.0, 3.0, 2.0, 5.0]),
            Some([1.0, 2.0, 3.0, 4.0, 5.0])
        );
        assert_eq!(five_numbers(&[1.0, 2.0]), Some([1.0, 1.25, 1.5, 1.75, 2.0]));
        assert_eq!(
            five_numbers(&[-0.5, 2.0, -3.0, 2.0, 0.0, 2.0]),
            Some([-3.0, -0.375, 1.0, 2.0, 2.0]),
            "negatives, zero and repeated values"
        );
        let spread: Spread = [7.0, 7.0, 7.0].into_iter().collect();
        assert_eq!((spread.len(), spread.five_numbers()), (3, Some([7.0; 5])));
    }

    #[test]
    fn times_counted_in_ten_thousandths_are_the_times_read_back_from_their_text() {
        // Below and above the array's end, repeated, and one value added both ways.
        let units = [0, 3, 3, 4095, 4096, 4097, 123_456, 3, 17, 0, 9_999_999];
        let mut counted = Spread::default();
        let mut read: Spread = Spread::default();
        for (i, &u) in units.iter().enumerate() {
            counted.add_ten_thousandths(u);
            let text = format!("{}.{:04}", u / 10_000, u % 10_000);
            let value: f64 = text.parse().expect("a number");
            read.add(value);
            // The same value both ways into one spread: one value counted twice.
            if i == 1 {
                counted.add(value);
                read.add(value);
            }
        }
        assert_eq!(counted.len(), read.len());
        assert_eq!(counted.five_numbers(), read.five_numbers());
        assert_eq!(counted.sorted_counts(), read.sorted_counts());
        assert!(counted == read);
        assert_eq!(counted.sorted_counts()[1], (spread_key(0.0003), 4));
        let mut other = read.clone();
        other.add(1.0);
        assert!(counted != other);
    }

    #[test]
    fn games_csv_is_read_by_column_name_and_a_bad_field_names_its_line() {
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("games.csv");
        // Columns in another order than arbiter writes them, and one more.
        std::fs::write(
            &path,
            "winner,plies,extra,p2_agent,matchup,p1_agent,game_id\n\
             P1,40,x,b,0,a,0\nP2,42,y,a,0,b,1\ndraw,300,z,b,0,a,2\n",
        )
        .expect("write");
        let mut data = RunData::default();
        read_games(&mut data, &path, None).expect("read");
        assert_eq!(data.games, 3);
        assert_eq!(
            data.pairings[&("a".to_string(), "b".to_string())].p1_wins,
            1
        );
        assert_eq!(data.pairings[&("a".to_string(), "b".to_string())].draws, 1);
        assert_eq!(
            data.pairings[&("b".to_string(), "a".to_string())].p2_wins,
            1
        );
        assert_eq!(data.plies[&0].len(), 3);

        std::fs::write(
            &path,
            "game_id,matchup,p1_agent,p2_agent,winner,plies\n0,0,a,b,P1,40\n1,0,a,b,P2,forty\n",
        )
        .expect("write");
        let error = read_games(&mut RunData::default(), &path, None)
            .expect_err("bad plies")
            .to_string();
        assert!(
            error.ends_with("games.csv: line 3: plies 'forty' is not a whole number"),
            "{error}"
        );
        std::fs::write(&path, "game_id,matchup,p1_agent,winner,plies\n").expect("write");
        let error = read_games(&mut RunData::default(), &path, None)
            .expect_err("no column")
            .to_string();
        assert!(
            error.ends_with("games.csv: no 'p2_agent' column"),
            "{error}"
        );
    }
}
