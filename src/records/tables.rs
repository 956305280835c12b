//! Table runs' records: tables.csv (one row per game, a column group per seat, written in
//! plan order), and from it the standings (table_summary.csv: win rate, mean place, mean
//! return with intervals, Plackett-Luce ratings), the "finished ahead of" matrix
//! (ahead.csv) and each seat's results (seats.csv). Everything can be recomputed from
//! tables.csv and meta.json ([`read_tables`]).
//!
//! Intervals: the games of one deal (its rotations) share their seed, so they are not
//! independent; each agent's deal at a table counts as one observation (the mean of its
//! games there) and the intervals come from the spread of these deal means (normal, 95%).

use super::{Reporter, RunOutcome};
use crate::registry::InputError;
use crate::stats::{Moments, Z95};
use crate::tournament::table::TableRecord;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

/// The file of a table run's games.
pub const TABLES: &str = "tables.csv";
/// The standings of a table run.
pub const TABLE_SUMMARY: &str = "table_summary.csv";
/// Who finished ahead of whom.
pub const AHEAD: &str = "ahead.csv";
/// Each seat's results.
pub const SEATS: &str = "seats.csv";

/// What a seat's columns are called in tables.csv: `p1_agent`, `p1_return`, ...
const SEAT_COLUMNS: [&str; 6] = ["agent", "return", "place", "moves", "nodes", "ms"];

impl super::JobRecord for TableRecord {
    fn id(&self) -> u64 {
        self.job.id
    }
}

/// One game as the tallies need it: its table and deal, and each seat's agent, place and
/// return (P1 first).
#[derive(Clone, Debug, PartialEq)]
pub struct TableGame {
    /// The table.
    pub table: usize,
    /// The deal.
    pub deal: u64,
    /// Per seat: the agent (index), its place and its return.
    pub seats: Vec<(usize, u8, f64)>,
    /// Per seat: nodes expanded and moves played.
    pub work: Vec<(u64, u32)>,
}

impl TableGame {
    fn of(record: &TableRecord) -> TableGame {
        TableGame {
            table: record.job.table,
            deal: record.job.deal,
            seats: record
                .job
                .seats
                .iter()
                .zip(&record.seats)
                .map(|(&agent, seat)| (agent, seat.place, seat.ret))
                .collect(),
            work: record.seats.iter().map(|s| (s.expanded, s.moves)).collect(),
        }
    }
}

/// One agent's results.
#[derive(Clone, Debug, Default)]
pub struct AgentTally {
    /// Games played.
    pub games: u64,
    /// Its deal means of the win share (1 for first place alone, 1/k for k tied first).
    pub wins: Moments,
    /// Its deal means of the place.
    pub places: Moments,
    /// Its deal means of the return.
    pub returns: Moments,
    /// Nodes expanded and moves played, summed.
    pub nodes: u64,
    /// Moves played.
    pub moves: u64,
    /// The deal in progress: its key and the sums (games, win share, place, return).
    block: Option<((usize, u64), [f64; 4])>,
}

impl AgentTally {
    fn add(&mut self, key: (usize, u64), win: f64, place: f64, ret: f64) {
        if self.block.is_some_and(|(k, _)| k != key) {
            self.close();
        }
        let sums = &mut self.block.get_or_insert((key, [0.0; 4])).1;
        for (sum, x) in sums.iter_mut().zip([1.0, win, place, ret]) {
            *sum += x;
        }
        self.games += 1;
    }

    /// Adds the deal in progress as one observation.
    fn close(&mut self) {
        if let Some((_, [n, win, place, ret])) = self.block.take() {
            self.wins.add(win / n);
            self.places.add(place / n);
            self.returns.add(ret / n);
        }
    }
}

/// A table run's results, added a game at a time in plan order.
#[derive(Clone, Debug, Default)]
pub struct TablesTally {
    /// Per agent.
    pub agents: Vec<AgentTally>,
    /// Per seat: its win shares and returns, game by game.
    pub seats: Vec<(Moments, Moments)>,
    /// `ahead[a][b]`: games where a finished ahead of b (a tie counts a half).
    pub ahead: Vec<Vec<f64>>,
    /// `met[a][b]`: games a and b played at one table.
    pub met: Vec<Vec<u64>>,
    /// Each distinct finish (agents and places) and how often it happened: the
    /// Plackett-Luce fit's data, bounded by the orders there are, not the games.
    pub finishes: BTreeMap<Vec<(usize, u8)>, u64>,
    /// Games added.
    pub games: u64,
}

impl TablesTally {
    /// An empty tally of `agents` agents at tables of `seats`.
    pub fn new(agents: usize, seats: usize) -> TablesTally {
        TablesTally {
            agents: vec![AgentTally::default(); agents],
            seats: vec![(Moments::default(), Moments::default()); seats],
            ahead: vec![vec![0.0; agents]; agents],
            met: vec![vec![0; agents]; agents],
            finishes: BTreeMap::new(),
            games: 0,
        }
    }

    /// Adds one game.
    pub fn add(&mut self, game: &TableGame) {
        self.games += 1;
        let first = game.seats.iter().filter(|s| s.1 == 1).count().max(1) as f64;
        for (seat, &(agent, place, ret)) in game.seats.iter().enumerate() {
            let win = if place == 1 { 1.0 / first } else { 0.0 };
            if let Some(tally) = self.agents.get_mut(agent) {
                tally.add((game.table, game.deal), win, f64::from(place), ret);
                if let Some(&(nodes, moves)) = game.work.get(seat) {
                    tally.nodes += nodes;
                    tally.moves += u64::from(moves);
                }
            }
            if let Some((wins, returns)) = self.seats.get_mut(seat) {
                wins.add(win);
                returns.add(ret);
            }
            for &(other, other_place, _) in &game.seats {
                if other == agent || other >= self.ahead.len() || agent >= self.ahead.len() {
                    continue;
                }
                self.met[agent][other] += 1;
                self.ahead[agent][other] += match place.cmp(&other_place) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
            }
        }
        let mut finish: Vec<(usize, u8)> = game.seats.iter().map(|s| (s.0, s.1)).collect();
        finish.sort_unstable();
        *self.finishes.entry(finish).or_insert(0) += 1;
    }

    /// Closes every agent's deal in progress (call once, after the last game).
    pub fn close(&mut self) {
        self.agents.iter_mut().for_each(AgentTally::close);
    }

    /// The Plackett-Luce ratings of the agents from every finish.
    pub fn ratings(&self) -> Vec<crate::stats::ratings::Rating> {
        let counted: Vec<(Vec<(usize, u8)>, u64)> = self
            .finishes
            .iter()
            .map(|(finish, &count)| (finish.clone(), count))
            .collect();
        crate::stats::plackett_luce::plackett_luce_counted(self.agents.len(), &counted)
    }
}

/// A mean and its 95% interval as cells: `mean`, `low`, `high` (empty when unknown), the
/// interval cut to what the numbers can be (`range`).
fn mean_cells(moments: &Moments, digits: usize, range: (f64, f64)) -> [String; 3] {
    let cell = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:.digits$}"));
    let interval = moments
        .interval(Z95)
        .map(|(low, high)| (low.max(range.0), high.min(range.1)));
    [
        cell(moments.mean()),
        cell(interval.map(|i| i.0)),
        cell(interval.map(|i| i.1)),
    ]
}

/// The standings' columns.
pub const SUMMARY_HEADERS: [&str; 16] = [
    "rank",
    "agent",
    "games",
    "deals",
    "win_rate",
    "win_low",
    "win_high",
    "mean_place",
    "place_low",
    "place_high",
    "mean_return",
    "return_low",
    "return_high",
    "rating",
    "rating_margin",
    "nodes_per_move",
];

/// The standings rows, best first: by rating, or at tables of one (a game for one
/// player: no one to place against) by mean return, with no rating.
pub fn summary_rows(tally: &TablesTally, names: &[String]) -> Vec<Vec<String>> {
    let alone = tally.seats.len() == 1;
    let ratings = tally.ratings();
    let mut order: Vec<usize> = (0..tally.agents.len())
        .filter(|&a| tally.agents[a].games > 0)
        .collect();
    let mean_return = |a: usize| tally.agents[a].returns.mean().unwrap_or(f64::NEG_INFINITY);
    order.sort_by(|&a, &b| {
        if alone {
            mean_return(b).total_cmp(&mean_return(a))
        } else {
            ratings[b].elo.total_cmp(&ratings[a].elo)
        }
        .then(a.cmp(&b))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &a)| {
            let t = &tally.agents[a];
            let mut row = vec![
                (rank + 1).to_string(),
                names.get(a).cloned().unwrap_or_else(|| a.to_string()),
                t.games.to_string(),
                t.places.count.to_string(),
            ];
            let seats = tally.seats.len() as f64;
            row.extend(mean_cells(&t.wins, 4, (0.0, 1.0)));
            row.extend(mean_cells(&t.places, 3, (1.0, seats)));
            row.extend(mean_cells(&t.returns, 4, (f64::MIN, f64::MAX)));
            if alone {
                row.extend([String::new(), String::new()]);
            } else {
                row.push(format!("{:.1}", ratings[a].elo));
                row.push(format!("{:.1}", ratings[a].margin));
            }
            row.push(if t.moves == 0 {
                String::new()
            } else {
                format!("{:.1}", t.nodes as f64 / t.moves as f64)
            });
            row
        })
        .collect()
}

/// Writes table_summary.csv, ahead.csv and seats.csv of `tally` (closed) into `folder`.
///
/// # Errors
/// A file that cannot be written.
pub fn write_standings(folder: &Path, tally: &TablesTally, names: &[String]) -> io::Result<()> {
    let write = |name: &str, header: Vec<String>, rows: Vec<Vec<String>>| -> io::Result<()> {
        let mut out = csv::Writer::from_path(folder.join(name)).map_err(io::Error::other)?;
        out.write_record(&header).map_err(io::Error::other)?;
        for row in rows {
            out.write_record(&row).map_err(io::Error::other)?;
        }
        out.flush()
    };
    write(
        TABLE_SUMMARY,
        SUMMARY_HEADERS.iter().map(|h| h.to_string()).collect(),
        summary_rows(tally, names),
    )?;
    let agents: Vec<usize> = (0..tally.agents.len())
        .filter(|&a| tally.agents[a].games > 0)
        .collect();
    let mut header = vec!["agent".to_string()];
    header.extend(agents.iter().map(|&b| names[b].clone()));
    write(
        AHEAD,
        header,
        agents
            .iter()
            .map(|&a| {
                let mut row = vec![names[a].clone()];
                row.extend(agents.iter().map(|&b| match tally.met[a][b] {
                    0 => String::new(),
                    met => format!("{:.4}", tally.ahead[a][b] / met as f64),
                }));
                row
            })
            .collect(),
    )?;
    write(
        SEATS,
        [
            "seat",
            "games",
            "win_rate",
            "win_low",
            "win_high",
            "mean_return",
            "return_low",
            "return_high",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        tally
            .seats
            .iter()
            .enumerate()
            .map(|(seat, (wins, returns))| {
                let mut row = vec![format!("p{}", seat + 1), wins.count.to_string()];
                row.extend(mean_cells(wins, 4, (0.0, 1.0)));
                row.extend(mean_cells(returns, 4, (f64::MIN, f64::MAX)));
                row
            })
            .collect(),
    )
}

/// tables.csv's header for tables of `seats` (with an `opening` column before the moves
/// when the games start from openings).
fn header(seats: usize, openings: bool) -> Vec<String> {
    let mut header: Vec<String> = [
        "game", "table", "deal", "rotation", "seed", "plies", "reason", "winner",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    for seat in 1..=seats {
        header.extend(SEAT_COLUMNS.iter().map(|c| format!("p{seat}_{c}")));
    }
    if openings {
        header.push("opening".to_string());
    }
    header.push("moves".to_string());
    header
}

/// Writes tables.csv game by game, tallies the games, and at the end writes the
/// standings.
pub struct TablesCsv {
    out: csv::Writer<BufWriter<File>>,
    staged: super::staged::Staged,
    folder: std::path::PathBuf,
    names: Vec<String>,
    tally: TablesTally,
    /// Whether the games start from openings (tables.csv's `opening` column).
    openings: bool,
}

impl TablesCsv {
    /// Creates tables.csv (its header written) in `folder`, for `names` agents at tables
    /// of `seats`, games starting from openings or not.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(
        folder: &Path,
        names: Vec<String>,
        seats: usize,
        openings: bool,
    ) -> io::Result<TablesCsv> {
        let (file, staged) = super::staged::create(folder, TABLES)?;
        let mut out = csv::Writer::from_writer(BufWriter::new(file));
        out.write_record(header(seats, openings))
            .map_err(io::Error::other)?;
        Ok(TablesCsv {
            out,
            staged,
            folder: folder.to_path_buf(),
            tally: TablesTally::new(names.len(), seats),
            names,
            openings,
        })
    }
}

impl Reporter<TableRecord> for TablesCsv {
    fn finished(&mut self, record: &TableRecord) -> io::Result<()> {
        let job = &record.job;
        let mut row = vec![
            job.id.to_string(),
            job.table.to_string(),
            job.deal.to_string(),
            job.rotation.to_string(),
            job.seed.to_string(),
            record.plies.to_string(),
            record.reason.to_string(),
            record
                .winner
                .map_or(String::new(), |w| w.label().to_string()),
        ];
        for (&agent, seat) in job.seats.iter().zip(&record.seats) {
            row.push(self.names[agent].clone());
            row.push(format!("{:.4}", seat.ret));
            row.push(seat.place.to_string());
            row.push(seat.moves.to_string());
            row.push(seat.expanded.to_string());
            row.push(format!("{:.3}", seat.nanos as f64 / 1e6));
        }
        if self.openings {
            row.push(record.opening.clone());
        }
        row.push(record.move_text.clone());
        self.out.write_record(&row).map_err(io::Error::other)?;
        self.tally.add(&TableGame::of(record));
        Ok(())
    }

    fn standings(&self) -> Vec<String> {
        let mut tally = self.tally.clone();
        tally.close();
        summary_rows(&tally, &self.names)
            .iter()
            .map(|row| {
                format!(
                    "{:>2}. {:<24} {:>5} games  win {:>5.1}%  place {}  rating {}",
                    row[0],
                    row[1],
                    row[2],
                    row[4].parse::<f64>().unwrap_or(0.0) * 100.0,
                    row[7],
                    row[13]
                )
            })
            .collect()
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.out.flush()?;
        self.staged.commit()?;
        self.tally.close();
        write_standings(&self.folder, &self.tally, &self.names)
    }
}

/// tables.csv read back into its games, with the agents named by `names` (meta.json's
/// order; a name not among them is added after).
///
/// # Errors
/// A missing or malformed tables.csv, naming the line.
pub fn read_tables(folder: &Path, names: &mut Vec<String>) -> Result<Vec<TableGame>, InputError> {
    let path = folder.join(TABLES);
    let mut reader = csv::Reader::from_path(&path)
        .map_err(|e| InputError::in_file(&path, None, format!("cannot read: {e}")))?;
    let headers = reader
        .headers()
        .map_err(|e| InputError::in_file(&path, Some(1), e.to_string()))?
        .clone();
    let column = |name: &str| headers.iter().position(|h| h == name);
    let seats = (1..=crate::core::Player::MAX)
        .take_while(|s| column(&format!("p{s}_agent")).is_some())
        .count();
    let fixed = ["table", "deal"].map(column);
    let [Some(table_at), Some(deal_at)] = fixed else {
        return Err(InputError::in_file(
            &path,
            Some(1),
            "not a table run's games: no table or deal column".to_string(),
        ));
    };
    let mut games = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = Some(i + 2);
        let record = record.map_err(|e| InputError::in_file(&path, line, e.to_string()))?;
        let cell = |at: usize| record.get(at).unwrap_or("");
        let bad = |what: &str, text: &str| {
            InputError::in_file(&path, line, format!("{what} '{text}' is not a number"))
        };
        let number = |at: usize, what: &str| -> Result<f64, InputError> {
            cell(at).parse::<f64>().map_err(|_| bad(what, cell(at)))
        };
        let mut game = TableGame {
            table: cell(table_at)
                .parse()
                .map_err(|_| bad("table", cell(table_at)))?,
            deal: cell(deal_at)
                .parse()
                .map_err(|_| bad("deal", cell(deal_at)))?,
            seats: Vec::with_capacity(seats),
            work: Vec::with_capacity(seats),
        };
        for seat in 1..=seats {
            let at = |c: &str| column(&format!("p{seat}_{c}")).unwrap_or(usize::MAX);
            let name = cell(at("agent")).to_string();
            let agent = match names.iter().position(|n| *n == name) {
                Some(agent) => agent,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            };
            let place = number(at("place"), "place")?;
            if !(1.0..=seats as f64).contains(&place) {
                return Err(InputError::in_file(
                    &path,
                    line,
                    format!("p{seat}_place {place}: must be from 1 to {seats}"),
                ));
            }
            game.seats
                .push((agent, place as u8, number(at("return"), "return")?));
            game.work.push((
                cell(at("nodes")).parse().unwrap_or(0),
                cell(at("moves")).parse().unwrap_or(0),
            ));
        }
        games.push(game);
    }
    Ok(games)
}

/// The rows of tables.csv a viewer shows: the first `first`, then the shortest and the
/// longest game (by plies) when they are not among them; each row as a map from column to
/// cell. Read in one pass, keeping only these.
///
/// # Errors
/// A missing or malformed tables.csv, naming the line.
pub fn sample_rows(
    folder: &Path,
    first: usize,
) -> Result<(Vec<BTreeMap<String, String>>, usize), InputError> {
    let path = folder.join(TABLES);
    let mut reader = csv::Reader::from_path(&path)
        .map_err(|e| InputError::in_file(&path, None, format!("cannot read: {e}")))?;
    let headers = reader
        .headers()
        .map_err(|e| InputError::in_file(&path, Some(1), e.to_string()))?
        .clone();
    let as_map = |record: &csv::StringRecord| -> BTreeMap<String, String> {
        headers
            .iter()
            .zip(record.iter())
            .map(|(h, c)| (h.to_string(), c.to_string()))
            .collect()
    };
    let plies_at = headers.iter().position(|h| h == "plies");
    let plies = |record: &csv::StringRecord| -> u64 {
        plies_at
            .and_then(|at| record.get(at))
            .and_then(|c| c.parse().ok())
            .unwrap_or(0)
    };
    let mut kept = Vec::new();
    // The shortest and longest games so far: plies, row, and the row when past `first`.
    type Extreme = Option<(u64, usize, csv::StringRecord)>;
    let (mut shortest, mut longest): (Extreme, Extreme) = (None, None);
    let mut total = 0;
    for (i, record) in reader.records().enumerate() {
        let record = record.map_err(|e| InputError::in_file(&path, Some(i + 2), e.to_string()))?;
        total += 1;
        let length = plies(&record);
        if shortest.as_ref().is_none_or(|(n, _, _)| length < *n) {
            shortest = Some((length, i, record.clone()));
        }
        if longest.as_ref().is_none_or(|(n, _, _)| length > *n) {
            longest = Some((length, i, record.clone()));
        }
        if i < first {
            kept.push(as_map(&record));
        }
    }
    let mut extra: Vec<(usize, csv::StringRecord)> = [shortest, longest]
        .into_iter()
        .flatten()
        .filter(|(_, i, _)| *i >= first)
        .map(|(_, i, r)| (i, r))
        .collect();
    extra.dedup_by_key(|(i, _)| *i);
    kept.extend(extra.iter().map(|(_, r)| as_map(r)));
    Ok((kept, total))
}

/// The tally of `games` (closed), for `agents` agents at tables of `seats`.
pub fn tally_of(games: &[TableGame], agents: usize) -> TablesTally {
    let seats = games.first().map_or(0, |g| g.seats.len());
    let mut tally = TablesTally::new(agents, seats);
    for game in games {
        tally.add(game);
    }
    tally.close();
    tally
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(table: usize, deal: u64, seats: &[(usize, u8, f64)]) -> TableGame {
        TableGame {
            table,
            deal,
            seats: seats.to_vec(),
            work: vec![(10, 2); seats.len()],
        }
    }

    #[test]
    fn a_deal_is_one_observation_and_ties_share_first_place_and_count_half_ahead() {
        let games = [
            game(0, 0, &[(0, 1, 1.0), (1, 2, 0.5), (2, 3, 0.1)]),
            game(0, 0, &[(2, 1, 1.0), (0, 1, 1.0), (1, 3, 0.0)]),
            game(0, 1, &[(1, 1, 1.0), (2, 2, 0.4), (0, 3, 0.2)]),
        ];
        let tally = tally_of(&games, 3);
        let a = &tally.agents[0];
        assert_eq!(a.games, 3);
        // Deal 0: win shares 1 and 1/2, places 1 and 1; deal 1: win 0, place 3.
        assert_eq!(a.wins.count, 2);
        assert!((a.wins.sum - 0.75).abs() < 1e-12);
        assert!((a.places.sum - 4.0).abs() < 1e-12);
        assert!((a.returns.sum - (1.0 + 0.2)).abs() < 1e-12);
        // Agent 0 ahead of 2: game 1 yes, game 2 tie, game 3 no.
        assert_eq!(tally.met[0][2], 3);
        assert!((tally.ahead[0][2] - 1.5).abs() < 1e-12);
        assert!((tally.ahead[2][0] - 1.5).abs() < 1e-12);
        assert_eq!(tally.finishes.values().sum::<u64>(), 3);
        // Seat P1 won games 1 and 3 and shared game 2.
        assert!((tally.seats[0].0.sum - 2.5).abs() < 1e-12);
        let rows = summary_rows(&tally, &["a".into(), "b".into(), "c".into()]);
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][0], "1");
        assert_eq!(rows[0].len(), SUMMARY_HEADERS.len());
    }
}
