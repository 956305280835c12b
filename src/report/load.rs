//! Reading a results folder back: what `arbiter report` and `show` need, from the files
//! alone (no rerun).

use super::{Meta, SummaryRow, read_summary};
use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One game as the charts need it. The names are shared (one allocation per distinct
/// name, not per game), so a million games take a few tens of megabytes.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Game id.
    pub game_id: u64,
    /// Matchup index.
    pub matchup: usize,
    /// Agent playing P1.
    pub p1_agent: Arc<str>,
    /// Agent playing P2.
    pub p2_agent: Arc<str>,
    /// `P1`, `P2` or `draw`.
    pub winner: Arc<str>,
    /// Plies played.
    pub plies: u32,
}

/// The columns of games.csv a [`GameRow`] takes, borrowed from the record read.
#[derive(Deserialize)]
struct RawGameRow<'a> {
    game_id: u64,
    matchup: usize,
    p1_agent: &'a str,
    p2_agent: &'a str,
    winner: &'a str,
    plies: u32,
}

/// games.csv's rows, each name stored once.
///
/// # Errors
/// A missing or malformed file, naming it and the line.
fn read_games(path: &Path) -> Result<Vec<GameRow>, String> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let headers = reader
        .byte_headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    let mut names: HashSet<Arc<str>> = HashSet::new();
    let mut shared = |name: &str| -> Arc<str> {
        match names.get(name) {
            Some(known) => Arc::clone(known),
            None => {
                let new: Arc<str> = Arc::from(name);
                names.insert(Arc::clone(&new));
                new
            }
        }
    };
    let mut games = Vec::new();
    let mut record = csv::ByteRecord::new();
    let mut line = 1;
    loop {
        line += 1;
        match reader.read_byte_record(&mut record) {
            Ok(false) => return Ok(games),
            Ok(true) => {}
            Err(e) => return Err(format!("{}: line {line}: {e}", path.display())),
        }
        let raw: RawGameRow = record
            .deserialize(Some(&headers))
            .map_err(|e| format!("{}: line {line}: {e}", path.display()))?;
        games.push(GameRow {
            game_id: raw.game_id,
            matchup: raw.matchup,
            p1_agent: shared(raw.p1_agent),
            p2_agent: shared(raw.p2_agent),
            winner: shared(raw.winner),
            plies: raw.plies,
        });
    }
}

#[derive(Deserialize)]
struct MoveRow {
    game_id: u64,
    ply: u32,
    side: String,
    expanded: u64,
    ms: f64,
}

/// Everything a report is made from.
#[derive(Clone, Debug, Default)]
pub struct RunData {
    /// The run folder.
    pub folder: PathBuf,
    /// meta.json, if present.
    pub meta: Option<Meta>,
    /// summary.csv.
    pub summary: Vec<SummaryRow>,
    /// games.csv, in game order.
    pub games: Vec<GameRow>,
    /// Milliseconds of every move, by agent name (from moves.csv).
    pub move_ms: BTreeMap<String, Vec<f64>>,
    /// Nodes expanded per move by agent and ply: (sum, moves).
    pub expanded_by_ply: BTreeMap<String, BTreeMap<u32, (u64, u64)>>,
}

/// Every row of a CSV file with a header, as `T`.
///
/// # Errors
/// A message naming the file, and the line of a row that does not fit.
pub fn csv_rows<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<T>, String> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| format!("{}: line {}: {e}", path.display(), i + 2)))
        .collect()
}

impl RunData {
    /// Reads a run folder: summary.csv and games.csv are required, moves.csv and
    /// meta.json are used when present.
    ///
    /// # Errors
    /// A message naming the file that is missing or malformed.
    pub fn load(folder: &Path) -> Result<RunData, String> {
        RunData::load_with(folder, true)
    }

    /// As [`RunData::load`], reading moves.csv (times per move) only if `moves`.
    ///
    /// # Errors
    /// A message naming the file that is missing or malformed.
    pub fn load_with(folder: &Path, moves: bool) -> Result<RunData, String> {
        let summary = read_summary(folder)?;
        let games = read_games(&folder.join("games.csv"))?;
        let mut move_ms: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let mut expanded_by_ply: BTreeMap<String, BTreeMap<u32, (u64, u64)>> = BTreeMap::new();
        let moves_path = folder.join("moves.csv");
        if moves && moves_path.is_file() {
            let seats: BTreeMap<u64, (&str, &str)> = games
                .iter()
                .map(|g| (g.game_id, (&*g.p1_agent, &*g.p2_agent)))
                .collect();
            for row in csv_rows::<MoveRow>(&moves_path)? {
                let Some(&(p1, p2)) = seats.get(&row.game_id) else {
                    return Err(format!(
                        "{}: game {} is not in games.csv",
                        moves_path.display(),
                        row.game_id
                    ));
                };
                let agent = if row.side == "P1" { p1 } else { p2 };
                move_ms.entry(agent.to_string()).or_default().push(row.ms);
                let at_ply = expanded_by_ply
                    .entry(agent.to_string())
                    .or_default()
                    .entry(row.ply)
                    .or_default();
                at_ply.0 += row.expanded;
                at_ply.1 += 1;
            }
        }
        Ok(RunData {
            folder: folder.to_path_buf(),
            meta: Meta::read(folder).ok(),
            summary,
            games,
            move_ms,
            expanded_by_ply,
        })
    }

    /// Agent names in order of first appearance in the summary, a sweep's variants
    /// together.
    pub fn agents(&self) -> Vec<String> {
        let sweeps = self.meta.as_ref().map_or(&[][..], |m| m.sweeps.as_slice());
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

/// Win counts of every agent (row) against every other (column) from games, both colours
/// combined (`p1_only`: only the games where the row agent played P1). Self-play games
/// count for neither side.
pub fn win_matrix(agents: &[String], games: &[GameRow], p1_only: bool) -> Vec<Vec<Cell>> {
    let index = |name: &str| agents.iter().position(|a| a == name);
    let mut cells = vec![vec![Cell::default(); agents.len()]; agents.len()];
    for game in games {
        let (Some(p1), Some(p2)) = (index(&game.p1_agent), index(&game.p2_agent)) else {
            continue;
        };
        if p1 == p2 {
            continue;
        }
        let seats: &[(usize, usize, &str)] = if p1_only {
            &[(p1, p2, "P1")]
        } else {
            &[(p1, p2, "P1"), (p2, p1, "P2")]
        };
        for &(row, column, seat) in seats {
            let cell = &mut cells[row][column];
            cell.games += 1;
            cell.wins += u64::from(&*game.winner == seat);
            cell.draws += u64::from(&*game.winner == "draw");
        }
    }
    cells
}

/// Minimum, first quartile, median, third quartile and maximum (linear interpolation
/// between order statistics); `None` for no values.
pub fn five_numbers(values: &[f64]) -> Option<[f64; 5]> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| {
        let position = q * (sorted.len() - 1) as f64;
        let low = position.floor() as usize;
        let high = position.ceil() as usize;
        sorted[low] + (sorted[high] - sorted[low]) * (position - low as f64)
    };
    Some([at(0.0), at(0.25), at(0.5), at(0.75), at(1.0)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(p1: &str, p2: &str, winner: &str) -> GameRow {
        GameRow {
            game_id: 0,
            matchup: 0,
            p1_agent: p1.into(),
            p2_agent: p2.into(),
            winner: winner.into(),
            plies: 10,
        }
    }

    #[test]
    fn win_matrix_combines_colours_and_splits_them() {
        let agents = vec!["a".to_string(), "b".to_string()];
        let games = vec![
            game("a", "b", "P1"),
            game("b", "a", "P1"),
            game("b", "a", "draw"),
            game("a", "a", "P1"),
        ];
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
    }
}
