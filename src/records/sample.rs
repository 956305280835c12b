//! Games of a run sampled for a reader (the report's game viewer): games.csv and
//! moves.csv read a row at a time, since they may hold millions, and only the rows kept
//! taken apart.

use super::load::byte_reader;
use crate::registry::InputError;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Rows of games.csv kept for a reader.
pub struct Sample {
    /// The rows kept, in games.csv order, then the shortest and the longest game when
    /// they were not among them.
    pub rows: Vec<BTreeMap<String, String>>,
    /// How many games could be drawn in all.
    pub total: usize,
    /// How many games were taken from the start.
    pub first: usize,
}

/// Samples games.csv of the run in `folder`: of the games `drawn` accepts (by their game
/// spec), the first `first` (which `first_for` may raise, given a game's spec and the
/// count so far), the shortest and the longest; or only game `only` when given. An empty
/// sample for a run without games.csv.
///
/// # Errors
/// A games.csv that cannot be read, naming the line.
pub fn sample_games(
    folder: &Path,
    only: Option<u64>,
    first: usize,
    mut drawn: impl FnMut(&str) -> bool,
    first_for: impl Fn(&str, usize) -> usize,
) -> Result<Sample, InputError> {
    let path = folder.join("games.csv");
    let mut first = first;
    if !path.is_file() {
        return Ok(Sample {
            rows: Vec::new(),
            total: 0,
            first: 0,
        });
    }
    let (mut reader, headers) = byte_reader(&path)?;
    let mut kept: Vec<BTreeMap<String, String>> = Vec::new();
    let mut shortest: Option<(u64, BTreeMap<String, String>)> = None;
    let mut longest: Option<(u64, BTreeMap<String, String>)> = None;
    let mut total = 0;
    // A row is taken apart only when it is kept: games.csv may hold millions.
    let column = |name: &str| headers.iter().position(|h| h == name.as_bytes());
    let (game_column, plies_column, id_column) =
        (column("game"), column("plies"), column("game_id"));
    let mut record = csv::ByteRecord::new();
    for index in 0.. {
        let failed =
            |e: &dyn std::fmt::Display| InputError::in_file(&path, Some(index + 2), e.to_string());
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(failed(&e)),
        }
        let field = |at: Option<usize>| {
            at.and_then(|at| record.get(at))
                .and_then(|bytes| std::str::from_utf8(bytes).ok())
                .unwrap_or("")
        };
        let spec = field(game_column);
        if !drawn(spec) {
            continue;
        }
        total += 1;
        let plies: u64 = field(plies_column).parse().unwrap_or(0);
        let row = || -> Result<BTreeMap<String, String>, InputError> {
            record.deserialize(Some(&headers)).map_err(|e| failed(&e))
        };
        if shortest.as_ref().is_none_or(|(s, _)| plies < *s) {
            shortest = Some((plies, row()?));
        }
        if longest.as_ref().is_none_or(|(l, _)| plies > *l) {
            longest = Some((plies, row()?));
        }
        first = first_for(spec, first);
        if let Some(only) = only {
            if field(id_column).parse::<u64>().ok() == Some(only) {
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
    let ids: std::collections::BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let path = folder.join("moves.csv");
    let mut stats: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    if !path.is_file() {
        return Ok(stats);
    }
    // Only the sampled games' rows are taken apart: moves.csv has a row per move.
    let (mut reader, headers) = byte_reader(&path)?;
    let Some(id_column) = headers.iter().position(|h| h == b"game_id") else {
        return Ok(stats);
    };
    let mut record = csv::ByteRecord::new();
    for index in 0.. {
        match reader.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(InputError::in_file(&path, Some(index + 2), e.to_string())),
        }
        let id = std::str::from_utf8(record.get(id_column).unwrap_or_default()).unwrap_or("");
        if !ids.contains(id) {
            continue;
        }
        let row: BTreeMap<String, String> = record
            .deserialize(Some(&headers))
            .map_err(|e| InputError::in_file(&path, Some(index + 2), e.to_string()))?;
        let Some(id) = row.get("game_id") else {
            continue;
        };
        let number = |k: &str| -> Value {
            row.get(k)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map_or(Value::Null, Value::from)
        };
        let moves = stats.entry(id.clone()).or_default();
        // At its ply: the plies between two agents' moves were chance's (a die rolled).
        let ply = row.get("ply").and_then(|p| p.parse::<usize>().ok());
        if let Some(ply) = ply.filter(|&p| p > moves.len() + 1) {
            moves.resize(ply - 1, json!({"agent": "chance"}));
        }
        moves.push(json!({
            "agent": row.get("agent").cloned().unwrap_or_default(),
            "ms": number("ms"),
            "expanded": number("expanded"),
            "value": number("value"),
        }));
    }
    Ok(stats)
}
