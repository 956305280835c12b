//! Games of a run sampled for a reader (the report's game viewer): games.csv and
//! moves.csv read a row at a time, since they may hold millions, and only the rows kept
//! taken apart.

use crate::registry::InputError;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Rows of games.csv kept for a reader.
pub struct Sample {
    /// The rows kept, in games.csv order, then the shortest and the longest game when
    /// they were not among them.
    pub rows: Vec<GamesRow>,
    /// How many games could be drawn in all.
    pub total: usize,
    /// How many games were taken from the start.
    pub first: usize,
}

/// A row of games.csv by column name.
type GamesRow = BTreeMap<String, String>;

/// The rows of games.csv a reader may sample, kept by a run's recorder as it writes them
/// (every game of the file passes through it, those of a resumed run replayed too), so
/// that the run's own report does not read games.csv back: the first [`RunSample::KEPT`]
/// rows, the first of the shortest and of the longest games, and how many games. A run's
/// games are all of one game spec.
#[derive(Clone, Debug, Default)]
pub struct RunSample {
    /// The game spec of every row.
    spec: String,
    games: usize,
    first: Vec<GamesRow>,
    shortest: Option<(u64, GamesRow)>,
    longest: Option<(u64, GamesRow)>,
}

impl RunSample {
    /// The rows kept from the start: as many as a reader samples from the start at most.
    pub const KEPT: usize = 200;

    /// A sample of the games of `spec`.
    pub fn new(spec: &str) -> RunSample {
        RunSample {
            spec: spec.to_string(),
            ..RunSample::default()
        }
    }

    /// Counts the next row of games.csv, a game of `plies` plies, and keeps it (taken
    /// apart by `row`, which is called only then) where a reader may sample it.
    ///
    /// # Errors
    /// What `row` returns.
    pub fn add<E>(
        &mut self,
        plies: u64,
        row: impl FnOnce() -> Result<GamesRow, E>,
    ) -> Result<(), E> {
        self.games += 1;
        let shorter = self.shortest.as_ref().is_none_or(|(s, _)| plies < *s);
        let longer = self.longest.as_ref().is_none_or(|(l, _)| plies > *l);
        if !(shorter || longer || self.first.len() < RunSample::KEPT) {
            return Ok(());
        }
        let row = row()?;
        if shorter {
            self.shortest = Some((plies, row.clone()));
        }
        if longer {
            self.longest = Some((plies, row.clone()));
        }
        if self.first.len() < RunSample::KEPT {
            self.first.push(row);
        }
        Ok(())
    }

    /// The sample [`sample_games`] draws from games.csv, drawn from the rows kept; `None`
    /// when more rows are asked for from the start than were kept.
    fn sample(
        &self,
        first: usize,
        mut drawn: impl FnMut(&str) -> bool,
        first_for: impl Fn(&str, usize) -> usize,
    ) -> Option<Sample> {
        if self.games == 0 || !drawn(&self.spec) {
            return Some(Sample {
                rows: Vec::new(),
                total: 0,
                first,
            });
        }
        let first = first_for(&self.spec, first);
        if first > self.first.len() && self.games > self.first.len() {
            return None;
        }
        let mut rows: Vec<GamesRow> = self.first.iter().take(first).cloned().collect();
        for (_, extra) in [&self.shortest, &self.longest].into_iter().flatten() {
            if !rows
                .iter()
                .any(|k| k.get("game_id") == extra.get("game_id"))
            {
                rows.push(extra.clone());
            }
        }
        Some(Sample {
            rows,
            total: self.games,
            first,
        })
    }
}

/// The row `raw` of a CSV file with the header `headers`, by column name.
///
/// # Errors
/// A row that does not fit the header.
pub fn row_by_name(
    raw: &[u8],
    headers: &csv::ByteRecord,
    fields: &mut csv::ByteRecord,
) -> Result<GamesRow, csv::Error> {
    super::scan::parse_into(raw, fields);
    fields.deserialize(Some(headers))
}

/// Samples games.csv of the run in `folder`: of the games `drawn` accepts (by their game
/// spec), the first `first` (which `first_for` may raise, given a game's spec and the
/// count so far), the shortest and the longest; or only game `only` when given. An empty
/// sample for a run without games.csv. Drawn from `kept` instead of the file when given
/// (the rows the run's recorder kept as it wrote them) and enough.
///
/// # Errors
/// A games.csv that cannot be read, naming the line.
pub fn sample_games(
    folder: &Path,
    only: Option<u64>,
    first: usize,
    kept: Option<&RunSample>,
    mut drawn: impl FnMut(&str) -> bool,
    first_for: impl Fn(&str, usize) -> usize,
) -> Result<Sample, InputError> {
    if let Some(sample) = kept
        .filter(|_| only.is_none())
        .and_then(|kept| kept.sample(first, &mut drawn, &first_for))
    {
        return Ok(sample);
    }
    let path = folder.join("games.csv");
    let mut first = first;
    if !path.is_file() {
        return Ok(Sample {
            rows: Vec::new(),
            total: 0,
            first: 0,
        });
    }
    let failed = |line: usize, e: &dyn std::fmt::Display| {
        InputError::in_file(&path, Some(line), e.to_string())
    };
    let file = std::fs::File::open(&path).map_err(|e| failed(1, &e))?;
    let (mut scan, headers) =
        super::scan::RawRecords::after_header(&file).map_err(|e| failed(1, &e))?;
    let mut kept: Vec<GamesRow> = Vec::new();
    let mut shortest: Option<(u64, GamesRow)> = None;
    let mut longest: Option<(u64, GamesRow)> = None;
    let mut total = 0;
    // A row is put in a map only when it is kept: games.csv may hold millions.
    let column = |name: &str| headers.iter().position(|h| h == name.as_bytes());
    let (game_column, plies_column, id_column) =
        (column("game"), column("plies"), column("game_id"));
    // The columns looked at in every row; a row kept is parsed whole.
    let looked_at = [game_column, plies_column, id_column]
        .into_iter()
        .flatten()
        .max()
        .map_or(0, |last| last + 1);
    let mut record = csv::ByteRecord::new();
    let mut whole = csv::ByteRecord::new();
    for index in 0.. {
        let line = index + 2;
        let raw = match scan.next_record().map_err(|e| failed(line, &e))? {
            Some([]) => continue,
            Some(raw) => raw,
            None => break,
        };
        // The three columns as they are in the row when nothing before them is quoted.
        let looked = super::scan::plain_fields(raw, [game_column, plies_column, id_column])
            .unwrap_or_else(|| {
                super::scan::parse_first(raw, looked_at, &mut record);
                [game_column, plies_column, id_column]
                    .map(|at| at.and_then(|at| record.get(at)).unwrap_or_default())
            });
        let [spec, plies, id] = looked.map(|bytes| std::str::from_utf8(bytes).unwrap_or(""));
        if !drawn(spec) {
            continue;
        }
        total += 1;
        let plies: u64 = plies.parse().unwrap_or(0);
        let mut row = || -> Result<GamesRow, InputError> {
            row_by_name(raw, &headers, &mut whole).map_err(|e| failed(line, &e))
        };
        if shortest.as_ref().is_none_or(|(s, _)| plies < *s) {
            shortest = Some((plies, row()?));
        }
        if longest.as_ref().is_none_or(|(l, _)| plies > *l) {
            longest = Some((plies, row()?));
        }
        first = first_for(spec, first);
        if let Some(only) = only {
            if id.parse::<u64>().ok() == Some(only) {
                kept.push(row()?);
            }
            continue;
        }
        if kept.len() < first {
            kept.push(row()?);
        }
    }
    for (_, extra) in [shortest, longest]
        .into_iter()
        .flatten()
        .filter(|_| only.is_none())
    {
        if !kept
            .iter()
            .any(|k| k.get("game_id") == extra.get("game_id"))
        {
            kept.push(extra);
        }
    }
    Ok(Sample {
        rows: kept,
        total,
        first,
    })
}

/// Per game id of `ids`, each ply's agent, ms, nodes expanded and root value (from
/// moves.csv; none without it); a ply of chance's, which moves.csv leaves out, has the
/// agent `chance` and no figures.
///
/// # Errors
/// A moves.csv that cannot be read, naming the line.
pub fn move_stats(
    folder: &Path,
    ids: &[String],
) -> Result<BTreeMap<String, Vec<Value>>, InputError> {
    let path = folder.join("moves.csv");
    let mut stats: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut targets: Vec<u64> = ids.iter().filter_map(|id| id.parse().ok()).collect();
    targets.sort_unstable();
    targets.dedup();
    if !path.is_file() || targets.is_empty() {
        return Ok(stats);
    }
    let failed = |line: Option<usize>, e: &dyn std::fmt::Display| {
        InputError::in_file(&path, line, e.to_string())
    };
    let file = std::fs::File::open(&path).map_err(|e| failed(None, &e))?;
    let (mut scan, headers) =
        super::scan::RawRecords::after_header(&file).map_err(|e| failed(Some(1), &e))?;
    let column = |name: &str| headers.iter().position(|h| h == name.as_bytes());
    let Some(id_column) = column("game_id") else {
        return Ok(stats);
    };
    let [
        ply_column,
        agent_column,
        ms_column,
        expanded_column,
        value_column,
    ] = ["ply", "agent", "ms", "expanded", "value"].map(column);
    let mut fields = csv::ByteRecord::new();
    let id_of = |record: &[u8]| -> Option<u64> {
        let parsed;
        let field = match super::scan::plain_field(record, id_column) {
            Some(field) => field,
            None => {
                parsed = super::scan::parse_record(record);
                parsed.get(id_column)?
            }
        };
        std::str::from_utf8(field).ok()?.parse().ok()
    };
    // moves.csv has a row per move, in game id order (as arbiter writes it): the rows of
    // the games before a sampled one are skipped over by halving (a run of millions of
    // moves need not be read whole for the shortest and the longest game), and only the
    // sampled games' rows are parsed. The line of a row is known until the first skip.
    let mut targets = targets.into_iter().peekable();
    let mut line = Some(1);
    let mut skipped_to = None;
    loop {
        let start = scan.position();
        line = line.map(|l| l + 1);
        let Some(record) = scan.next_record().map_err(|e| failed(line, &e))? else {
            break;
        };
        let Some(id) = id_of(record) else {
            continue;
        };
        while targets.next_if(|&target| target < id).is_some() {}
        let Some(&target) = targets.peek() else {
            break;
        };
        if id < target {
            if skipped_to != Some(target) {
                skipped_to = Some(target);
                let at = super::scan::first_at_least(&file, start, id_column, target)
                    .map_err(|e| failed(None, &e))?;
                if at > start {
                    scan = super::scan::RawRecords::at(&file, at).map_err(|e| failed(None, &e))?;
                    line = None;
                }
            }
            continue;
        }
        super::scan::parse_into(record, &mut fields);
        let text = |column: Option<usize>| -> Result<&str, InputError> {
            let bytes = column.and_then(|at| fields.get(at)).unwrap_or_default();
            std::str::from_utf8(bytes).map_err(|e| failed(line, &format!("game {id}: {e}")))
        };
        let number = |column: Option<usize>| -> Result<Value, InputError> {
            Ok(text(column)?
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .map_or(Value::Null, Value::from))
        };
        let moves = stats.entry(id.to_string()).or_default();
        // At its ply: the plies between two agents' moves were chance's (a die rolled).
        if let Some(ply) = text(ply_column)?
            .parse::<usize>()
            .ok()
            .filter(|&p| p > moves.len() + 1)
        {
            moves.resize(ply - 1, json!({"agent": "chance"}));
        }
        moves.push(json!({
            "agent": text(agent_column)?,
            "ms": number(ms_column)?,
            "expanded": number(expanded_column)?,
            "value": number(value_column)?,
        }));
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A moves.csv of `games` games of 1 to 60 moves (game 7's agent named with a comma,
    /// so its rows are quoted), and games.csv beside it.
    fn run_folder(games: u64) -> tempfile::TempDir {
        let folder = tempfile::tempdir().expect("a folder");
        let mut moves = String::from("game_id,matchup,ply,side,agent,move,expanded,ms,value\n");
        let mut rows = String::from("game_id,game,plies,moves\n");
        for id in 0..games {
            let plies = 1 + (id * 37) % 60;
            let agent = if id == 7 { "\"a, quoted\"" } else { "random" };
            for ply in 1..=plies {
                // A chance ply (no row) in game 3.
                if id == 3 && ply == 2 {
                    continue;
                }
                let side = if ply % 2 == 1 { "P1" } else { "P2" };
                moves.push_str(&format!(
                    "{id},0,{ply},{side},{agent},m{ply},{},{}.{:04},\n",
                    id + ply,
                    ply % 3,
                    id % 10_000
                ));
            }
            rows.push_str(&format!("{id},g,{plies},\n"));
        }
        std::fs::write(folder.path().join("moves.csv"), moves).expect("written");
        std::fs::write(folder.path().join("games.csv"), rows).expect("written");
        folder
    }

    /// The same figures read the plain way: every row through the csv crate.
    fn read_plainly(folder: &Path, ids: &[String]) -> BTreeMap<String, Vec<(String, String)>> {
        let mut reader = csv::Reader::from_path(folder.join("moves.csv")).expect("csv");
        let mut found: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        for row in reader.deserialize::<BTreeMap<String, String>>() {
            let row = row.expect("a row");
            if ids.contains(&row["game_id"]) {
                found
                    .entry(row["game_id"].clone())
                    .or_default()
                    .push((row["agent"].clone(), row["expanded"].clone()));
            }
        }
        found
    }

    #[test]
    fn the_sampled_games_rows_are_found_across_skips_as_a_whole_read_finds_them() {
        // About 2 MB: the skips halve the distance many times.
        let folder = run_folder(2_000);
        let ids: Vec<String> = [0, 1, 2, 3, 7, 8, 999, 1000, 1_998, 1_999, 5_000]
            .iter()
            .map(u64::to_string)
            .collect();
        let stats = move_stats(folder.path(), &ids).expect("read");
        let expected = read_plainly(folder.path(), &ids);
        assert_eq!(stats.len(), expected.len());
        for (id, rows) in &expected {
            let moves = &stats[id];
            let agents: Vec<(String, String)> = moves
                .iter()
                .filter(|m| m["agent"] != "chance")
                .map(|m| {
                    let expanded = m["expanded"].as_f64().expect("a number");
                    (
                        m["agent"].as_str().expect("text").to_string(),
                        format!("{expanded}"),
                    )
                })
                .collect();
            assert_eq!(&agents, rows, "game {id}");
        }
        // Game 3's second ply was chance's.
        assert_eq!(stats["3"][1]["agent"], "chance");
        assert_eq!(stats["7"][0]["agent"], "a, quoted");
    }

    #[test]
    fn a_skip_lands_at_most_a_probe_before_the_game_and_never_after_it() {
        let folder = run_folder(3_000);
        let file = std::fs::File::open(folder.path().join("moves.csv")).expect("open");
        let text = std::fs::read(folder.path().join("moves.csv")).expect("read");
        let header = text.iter().position(|&b| b == b'\n').expect("a header") as u64 + 1;
        for target in [0, 1, 5, 7, 8, 1_234, 2_999, 4_000] {
            let at = crate::records::scan::first_at_least(&file, header, 0, target).expect("read")
                as usize;
            let first = text
                .split_inclusive(|&b| b == b'\n')
                .scan(0, |offset, line| {
                    let start = *offset;
                    *offset += line.len();
                    Some((start, line))
                })
                .skip(1)
                .find(|(_, line)| {
                    std::str::from_utf8(line.split(|&b| b == b',').next().unwrap_or_default())
                        .ok()
                        .and_then(|id| id.parse::<u64>().ok())
                        .is_some_and(|id| id >= target)
                })
                .map_or(text.len(), |(start, _)| start);
            assert!(at <= first, "target {target}: {at} after {first}");
            assert!(
                first - at <= 1 << 17,
                "target {target}: {at} far before {first}"
            );
            assert!(
                at == header as usize || text[at - 1] == b'\n',
                "{at} starts no line"
            );
        }
    }

    #[test]
    fn games_csv_rows_are_sampled_first_shortest_and_longest() {
        let folder = run_folder(500);
        let sample =
            sample_games(folder.path(), None, 3, None, |_| true, |_, first| first).expect("read");
        let ids: Vec<&str> = sample.rows.iter().map(|r| r["game_id"].as_str()).collect();
        // Plies 1 + (id * 37) % 60: the first shortest (1 ply) is game 0 itself, the
        // first longest (60) is game 47.
        assert_eq!(ids, ["0", "1", "2", "47"]);
        assert_eq!(sample.total, 500);
    }

    /// The rows of games.csv in `folder` kept as a run's recorder keeps them as it
    /// writes them.
    fn kept_while_written(folder: &Path) -> RunSample {
        let file = std::fs::File::open(folder.join("games.csv")).expect("games.csv");
        let (mut scan, header) = super::super::scan::RawRecords::after_header(&file).expect("read");
        let plies_at = header.iter().position(|h| h == b"plies").expect("plies");
        let mut kept = RunSample::new("breakthrough");
        let mut fields = csv::ByteRecord::new();
        while let Some(raw) = scan.next_record().expect("read") {
            let plies = super::super::scan::parse_record(raw)[plies_at].to_vec();
            let plies: u64 = String::from_utf8(plies)
                .expect("text")
                .parse()
                .expect("plies");
            kept.add(plies, || row_by_name(raw, &header, &mut fields))
                .expect("a row");
        }
        kept
    }

    #[test]
    fn the_rows_a_recorder_kept_give_the_sample_the_file_gives() {
        for games in [0, 1, 5, 150, 200, 201, 500] {
            let folder = run_folder(games);
            let kept = kept_while_written(folder.path());
            let lowered = |_: &str, first: usize| first.min(60);
            for (first, drawn, lower) in [
                (3, true, false),
                (200, true, false),
                (200, true, true),
                (200, false, false),
            ] {
                let sample = |kept: Option<&RunSample>| {
                    sample_games(
                        folder.path(),
                        None,
                        first,
                        kept,
                        |_| drawn,
                        |spec, first| {
                            if lower { lowered(spec, first) } else { first }
                        },
                    )
                    .expect("sampled")
                };
                let (from_file, from_kept) = (sample(None), sample(Some(&kept)));
                let what = format!("{games} games, first {first}, drawn {drawn}, lowered {lower}");
                assert_eq!(from_kept.rows, from_file.rows, "{what}");
                assert_eq!(
                    (from_kept.total, from_kept.first),
                    (from_file.total, from_file.first),
                    "{what}"
                );
                if drawn && games > 0 {
                    assert!(!from_kept.rows.is_empty(), "{what}");
                }
            }
            // More rows asked for from the start than were kept: the file is read.
            let read = |kept: Option<&RunSample>| {
                sample_games(folder.path(), None, 300, kept, |_| true, |_, f| f).expect("sampled")
            };
            let many = read(Some(&kept));
            assert_eq!(many.rows, read(None).rows, "{games} games, first 300");
            assert_eq!(many.rows.len(), (games as usize).min(300), "{games} games");
            assert_eq!(many.total, games as usize);
        }
    }
}
