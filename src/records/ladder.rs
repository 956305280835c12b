//! `arbiter ladder`: one rating list over any number of runs. Agents are the same agent in
//! every run where they have the same name; their games of every run are fitted together
//! (Bradley-Terry on the Elo scale, as Ordo and BayesElo rate), optionally anchored to one
//! agent at 0. Beside the list: a crosstable, each agent's results by how the games ended,
//! and the ladder as it stood after each run (runs in the order they started).
//!
//! The list depends only on the set of runs, not on the order they are named in: agents
//! are sorted by name and runs by their start time (then folder) before anything is
//! fitted.
//!
//! A table run's games (tables.csv, more than two players) count pairwise: every two
//! seats of a game are one game between their agents, won by the one placed better (a
//! draw when tied), so a game of four counts as six. The pairs of one game are not
//! independent: the intervals of a ladder with table runs are narrower than they should
//! be, and the table run's own Plackett-Luce rating is the one to quote for it.

use super::summary::{ENDINGS, ending_of};
use crate::registry::InputError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One run's games, counted: per ordered pair of agent names, the first's wins, losses
/// and draws against the second, and per agent its results by ending.
#[derive(Clone, Debug, Default)]
pub struct RunGames {
    /// The run folder.
    pub folder: PathBuf,
    /// The experiment's name (meta.json), for history rows.
    pub experiment: String,
    /// The game it played (meta.json; empty when unknown).
    pub game: String,
    /// When it started, seconds since the Unix epoch (meta.json; 0 when unknown).
    pub started_unix: u64,
    /// `(a, b)` with `a < b`: a's wins, a's losses, draws.
    pub pairs: BTreeMap<(String, String), [u64; 3]>,
    /// Per agent: wins, losses, draws by ending ([`ENDINGS`]).
    pub endings: BTreeMap<String, [[u64; ENDINGS.len()]; 3]>,
    /// Whether its meta.json says it has not ended (still running, or killed): only the
    /// games it finished so far are counted.
    pub unfinished: bool,
}

impl RunGames {
    /// Games counted.
    pub fn games(&self) -> u64 {
        // Each game is counted once per side in `endings`.
        self.endings
            .values()
            .flat_map(|by| by.iter().flatten())
            .sum::<u64>()
            / 2
    }

    /// Counts one game of p1 (first seat) against p2 won by `winner`, ended by `reason`.
    pub(crate) fn add(
        &mut self,
        p1: &str,
        p2: &str,
        winner: &str,
        reason: &str,
    ) -> Result<(), InputError> {
        // Results of (p1, p2) from p1's side: 0 win, 1 loss, 2 draw.
        let p1_result = match winner {
            "P1" => 0,
            "P2" => 1,
            "draw" => 2,
            other => {
                return Err(InputError::new(format!(
                    "winner '{other}' is not P1, P2 or draw"
                )));
            }
        };
        let p2_result = [1, 0, 2][p1_result];
        let ending = ending_of(reason);
        for (agent, result) in [(p1, p1_result), (p2, p2_result)] {
            self.endings
                .entry(agent.to_string())
                .or_insert([[0; ENDINGS.len()]; 3])[result][ending] += 1;
        }
        if p1 == p2 {
            return Ok(());
        }
        let (key, result) = if p1 < p2 {
            ((p1.to_string(), p2.to_string()), p1_result)
        } else {
            ((p2.to_string(), p1.to_string()), p2_result)
        };
        self.pairs.entry(key).or_default()[result] += 1;
        Ok(())
    }
}

/// Whether `folder` is a run the ladder reads: it holds games.csv, or a table run's
/// tables.csv.
fn is_run(folder: &Path) -> bool {
    folder.join("games.csv").is_file() || folder.join(super::tables::TABLES).is_file()
}

/// Reads one run folder's games.csv (its agents, winners and reasons), or a table run's
/// tables.csv (counted pairwise), and meta.json.
///
/// # Errors
/// A games.csv that cannot be read or lacks its columns, naming the file and line.
pub fn read_run(folder: &Path) -> Result<RunGames, InputError> {
    let tables =
        !folder.join("games.csv").is_file() && folder.join(super::tables::TABLES).is_file();
    let path = folder.join(if tables {
        super::tables::TABLES
    } else {
        "games.csv"
    });
    let meta = super::loaded::read_meta(folder);
    let unfinished = meta
        .as_ref()
        .is_some_and(|m| m.status == super::RunStatus::Running);
    let mut run = RunGames {
        folder: folder.to_path_buf(),
        experiment: meta
            .as_ref()
            .map_or(String::new(), |m| m.experiment.clone()),
        game: meta.as_ref().map_or(String::new(), |m| m.game.clone()),
        started_unix: meta.as_ref().map_or(0, |m| m.started_unix),
        unfinished,
        ..RunGames::default()
    };
    // A run that has just started: its games.csv is still empty, no header yet.
    if unfinished && std::fs::metadata(&path).is_ok_and(|m| m.len() == 0) {
        return Ok(run);
    }
    let fail =
        |line: Option<u64>, why: String| InputError::in_file(&path, line.map(|l| l as usize), why);
    let mut reader = csv::Reader::from_path(&path).map_err(|e| {
        fail(
            None,
            format!("cannot read: {}", crate::core::one_line(&e.to_string())),
        )
    })?;
    let headers = reader
        .headers()
        .map_err(|e| fail(None, e.to_string()))?
        .clone();
    let column = |name: &str| {
        headers.iter().position(|h| h == name).ok_or_else(|| {
            fail(
                None,
                format!("no '{name}' column: not a games.csv of arbiter"),
            )
        })
    };
    if tables {
        return read_table_games(run, reader, &headers, &path);
    }
    let [p1, p2, winner, reason] = [
        column("p1_agent")?,
        column("p2_agent")?,
        column("winner")?,
        column("reason")?,
    ];
    for_each_row(&mut reader, &path, |record, line| {
        let field = |i: usize| record.get(i).unwrap_or("");
        run.add(field(p1), field(p2), field(winner), field(reason))
            .map_err(|why| fail(line, why.message))
    })?;
    Ok(run)
}

/// Calls `each` with every row of `reader` (a CSV file at `path`) and its line.
///
/// # Errors
/// A row that cannot be read, or `each`'s error, naming the line.
fn for_each_row(
    reader: &mut csv::Reader<std::fs::File>,
    path: &Path,
    mut each: impl FnMut(&csv::StringRecord, Option<u64>) -> Result<(), InputError>,
) -> Result<(), InputError> {
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => return Ok(()),
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize);
                return Err(InputError::in_file(
                    path,
                    line,
                    crate::core::one_line(&e.to_string()),
                ));
            }
        }
        each(&record, record.position().map(|p| p.line()))?;
    }
}

/// A table run's games counted pairwise into `run` (see the module).
///
/// # Errors
/// A row that cannot be read, or a place that is not a number, naming the line.
fn read_table_games(
    mut run: RunGames,
    mut reader: csv::Reader<std::fs::File>,
    headers: &csv::StringRecord,
    path: &Path,
) -> Result<RunGames, InputError> {
    let fail =
        |line: Option<u64>, why: String| InputError::in_file(path, line.map(|l| l as usize), why);
    let at = |name: String| headers.iter().position(|h| h == name);
    let seats: Vec<(usize, usize)> = (1..=crate::core::Player::MAX)
        .map_while(|s| Some((at(format!("p{s}_agent"))?, at(format!("p{s}_place"))?)))
        .collect();
    let Some(reason) = at("reason".to_string()) else {
        return Err(fail(
            None,
            "no 'reason' column: not a tables.csv of arbiter".to_string(),
        ));
    };
    for_each_row(&mut reader, path, |record, line| {
        let field = |i: usize| record.get(i).unwrap_or("");
        let mut placed = Vec::with_capacity(seats.len());
        for &(agent, place) in &seats {
            let number: u8 = field(place)
                .parse()
                .map_err(|_| fail(line, format!("place '{}' is not a number", field(place))))?;
            placed.push((field(agent), number));
        }
        for (i, &(a, place_a)) in placed.iter().enumerate() {
            for &(b, place_b) in &placed[i + 1..] {
                let winner = match place_a.cmp(&place_b) {
                    std::cmp::Ordering::Less => "P1",
                    std::cmp::Ordering::Greater => "P2",
                    std::cmp::Ordering::Equal => "draw",
                };
                run.add(a, b, winner, field(reason))
                    .map_err(|why| fail(line, why.message))?;
            }
        }
        Ok(())
    })?;
    Ok(run)
}

/// The run folders under `path`: itself when it holds a games.csv (or a table run's
/// tables.csv), else every folder below it (two levels at most:
/// `results/<experiment>/<run>`) that does, sorted.
///
/// # Errors
/// `path` does not exist, or holds no run.
pub fn find_runs(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    if !path.exists() {
        return Err(InputError::in_file(
            path,
            None,
            "no such folder".to_string(),
        ));
    }
    if is_run(path) {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut found = Vec::new();
    let children = |folder: &Path| -> Vec<PathBuf> {
        let mut list: Vec<PathBuf> = std::fs::read_dir(folder)
            .map(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_dir())
                    .collect()
            })
            .unwrap_or_default();
        list.sort();
        list
    };
    for child in children(path) {
        if is_run(&child) {
            found.push(child);
        } else {
            found.extend(children(&child).into_iter().filter(|g| is_run(g)));
        }
    }
    if found.is_empty() {
        return Err(InputError::in_file(
            path,
            None,
            "no run in it (a folder with games.csv or tables.csv, or folders of them)".to_string(),
        ));
    }
    Ok(found)
}
