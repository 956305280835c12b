//! Search-comparison records: search.csv (one row per position, algorithm and depth),
//! search_summary.csv (one row per algorithm and depth), the nodes-vs-depth chart and the
//! report sections. Everything can be recomputed from search.csv alone.

use super::{JobRecord, Reporter, RunOutcome, millis};
use crate::core::MAX_LEVELS;
use crate::registry::InputError;
use crate::tournament::compare::SearchRecord;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter};
use std::path::{Path, PathBuf};

/// The file of a search comparison's decisions.
pub const SEARCHES: &str = "search.csv";

/// Every decision on one position (the journal's record of a search job).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PositionRecord {
    /// The position's index: the job's id.
    pub position: u64,
    /// One row per algorithm and depth, in the experiment's order.
    pub rows: Vec<SearchRow>,
}

impl JobRecord for PositionRecord {
    fn id(&self) -> u64 {
        self.position
    }
}

/// Writes search.csv row by row as positions finish, and search_summary.csv at the end
/// (from search.csv read back).
pub struct SearchCsv {
    folder: PathBuf,
    writer: csv::Writer<BufWriter<File>>,
    staged: super::staged::Staged,
}

impl SearchCsv {
    /// Creates search.csv in `folder`.
    ///
    /// # Errors
    /// The file cannot be created.
    pub fn create(folder: &Path) -> io::Result<SearchCsv> {
        let (file, staged) = super::staged::create(folder, SEARCHES)?;
        Ok(SearchCsv {
            folder: folder.to_path_buf(),
            writer: csv::Writer::from_writer(BufWriter::new(file)),
            staged,
        })
    }
}

impl Reporter<PositionRecord> for SearchCsv {
    fn finished(&mut self, record: &PositionRecord) -> io::Result<()> {
        record
            .rows
            .iter()
            .try_for_each(|row| self.writer.serialize(row))
            .map_err(io::Error::other)
    }

    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        self.writer.flush()?;
        self.staged.commit()?;
        let rows = read_search_csv(&self.folder).map_err(io::Error::other)?;
        write_search_summary(&self.folder, &rows).map_err(io::Error::other)?;
        write_search_levels(&self.folder, &rows).map_err(io::Error::other)
    }
}

/// One row of search.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchRow {
    /// Position index.
    pub position: usize,
    /// Algorithm name.
    pub algorithm: String,
    /// Depth in plies.
    pub depth: u32,
    /// Chosen move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Root value (empty when an external program reported none).
    pub value: Option<f64>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Leaves evaluated.
    pub evaluated: u64,
    /// Children generated.
    pub generated: u64,
    /// Evaluated leaves answered by the evaluation cache (alphabeta-cached; else 0).
    #[serde(default)]
    pub cache_hits: u64,
    /// Nodes (expanded + evaluated) per level from the root, `;`-separated.
    pub nodes_by_level: String,
    /// Milliseconds for the decision.
    pub ms: f64,
}

impl SearchRow {
    /// A row from a comparison record.
    pub fn from_record(record: &SearchRecord) -> SearchRow {
        let levels = (record.run.depth as usize + 1).min(MAX_LEVELS);
        let nodes: Vec<String> = (0..levels)
            .map(|l| {
                (record.stats.expanded_by_level[l] + record.stats.evaluated_by_level[l]).to_string()
            })
            .collect();
        SearchRow {
            position: record.position,
            algorithm: record.run.algorithm.name().to_string(),
            depth: record.run.depth,
            mv: record.mv.clone(),
            value: Some(record.value),
            expanded: record.stats.expanded,
            evaluated: record.stats.evaluated,
            generated: record.stats.generated,
            cache_hits: record.stats.cache_hits,
            nodes_by_level: nodes.join(";"),
            ms: (millis(record.nanos) * 1e4).round() / 1e4,
        }
    }

    fn level_nodes(&self) -> Vec<f64> {
        self.nodes_by_level
            .split(';')
            .filter_map(|n| n.parse::<f64>().ok())
            .collect()
    }
}

/// One row of search_summary.csv.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchSummaryRow {
    /// Algorithm name.
    pub algorithm: String,
    /// Depth in plies.
    pub depth: u32,
    /// Positions searched.
    pub positions: usize,
    /// Mean nodes expanded per decision.
    pub mean_expanded: f64,
    /// Median nodes expanded per decision.
    pub median_expanded: f64,
    /// Mean leaves evaluated per decision.
    pub mean_evaluated: f64,
    /// Mean children generated per decision.
    pub mean_generated: f64,
    /// Mean evaluated leaves per decision answered by the evaluation cache.
    #[serde(default)]
    pub mean_cache_hits: f64,
    /// Nodes visited (expanded + evaluated) as a share of minimax's at the same depth on
    /// the same positions (NaN when minimax was not run at that depth).
    #[serde(default)]
    pub share_of_minimax_nodes: f64,
    /// Effective branching factor: (nodes at the last level / nodes at the root)^(1/depth),
    /// from the totals over all positions.
    pub effective_branching: f64,
    /// Mean milliseconds per decision.
    pub mean_ms: f64,
    /// The algorithm the choices are compared with (minimax at this depth, or alphabeta,
    /// which chooses the same moves, when minimax was not run).
    pub reference: String,
    /// Share of positions where the chosen move equals the reference's.
    pub same_move: f64,
    /// Share of positions where the root value equals the reference's.
    pub same_value: f64,
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    }
}

fn median(values: &[f64]) -> f64 {
    super::load::five_numbers(values).map_or(0.0, |f| f[2])
}

fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

/// Whether `row` is MCTS's, which has an iteration budget instead of a depth (its `depth`
/// is how deep its tree grew).
fn no_depth(row: &SearchRow) -> bool {
    row.algorithm == "mcts" || row.algorithm.starts_with("mcts(")
}

/// Summary rows per algorithm and depth (MCTS: per budget), in order of first appearance.
pub fn summarize(rows: &[SearchRow]) -> Vec<SearchSummaryRow> {
    let mut keys: Vec<(String, u32)> = Vec::new();
    let mut groups: BTreeMap<(String, u32), Vec<&SearchRow>> = BTreeMap::new();
    let mut by_position: BTreeMap<(usize, String, u32), &SearchRow> = BTreeMap::new();
    for row in rows {
        // MCTS has a budget, not a depth: one group whatever depth its tree reached.
        let key = (
            row.algorithm.clone(),
            if no_depth(row) { 0 } else { row.depth },
        );
        if !groups.contains_key(&key) {
            keys.push(key.clone());
        }
        groups.entry(key.clone()).or_default().push(row);
        by_position.insert((row.position, key.0, key.1), row);
    }
    // The deepest full-width search, MCTS's reference.
    let deepest = ["minimax", "alphabeta"].iter().find_map(|name| {
        let depth = groups
            .keys()
            .filter(|(a, _)| a == name)
            .map(|&(_, d)| d)
            .max()?;
        Some((name.to_string(), depth))
    });
    keys.into_iter()
        .map(|key| {
            let group = &groups[&key];
            let budgeted = group.iter().all(|r| no_depth(r));
            let (algorithm, depth) = key;
            let reference = if budgeted {
                deepest.clone()
            } else if groups.contains_key(&("minimax".to_string(), depth)) {
                Some(("minimax".to_string(), depth))
            } else {
                Some(("alphabeta".to_string(), depth))
            };
            let (mut same_move, mut same_value, mut compared) = (0usize, 0usize, 0usize);
            if let Some((name, at)) = &reference {
                for row in group {
                    if let Some(other) = by_position.get(&(row.position, name.clone(), *at)) {
                        compared += 1;
                        same_move += usize::from(other.mv == row.mv);
                        same_value += usize::from(other.value == row.value);
                    }
                }
            }
            // An external program's rows: the nodes it reported, nothing per level; its
            // values are on its own scale. MCTS's values are win rates, its tree is not
            // full-width (no branching factor).
            let reported = group.iter().all(|r| r.nodes_by_level.is_empty());
            let unless_reported = |x: f64| if reported { f64::NAN } else { x };
            let unless_other_scale = |x: f64| if reported || budgeted { f64::NAN } else { x };
            // MCTS's depth: the deepest its tree reached on any position.
            let depth = if budgeted {
                group.iter().map(|r| r.depth).max().unwrap_or(0)
            } else {
                depth
            };
            let expanded: Vec<f64> = group.iter().map(|r| r.expanded as f64).collect();
            let levels: Vec<Vec<f64>> = group.iter().map(|r| r.level_nodes()).collect();
            let total_at = |l: usize| -> f64 { levels.iter().filter_map(|n| n.get(l)).sum() };
            let effective_branching = if depth > 0 && total_at(0) > 0.0 {
                (total_at(depth as usize) / total_at(0)).powf(1.0 / f64::from(depth))
            } else {
                0.0
            };
            let share = |n: usize| {
                if compared == 0 {
                    f64::NAN
                } else {
                    n as f64 / compared as f64
                }
            };
            SearchSummaryRow {
                algorithm,
                depth,
                positions: group.len(),
                mean_expanded: round(mean(&expanded), 2),
                median_expanded: median(&expanded),
                mean_evaluated: unless_reported(round(
                    mean(&group.iter().map(|r| r.evaluated as f64).collect::<Vec<_>>()),
                    2,
                )),
                mean_generated: unless_reported(round(
                    mean(&group.iter().map(|r| r.generated as f64).collect::<Vec<_>>()),
                    2,
                )),
                mean_cache_hits: round(
                    mean(
                        &group
                            .iter()
                            .map(|r| r.cache_hits as f64)
                            .collect::<Vec<_>>(),
                    ),
                    2,
                ),
                share_of_minimax_nodes: unless_other_scale(round(
                    share_of_minimax(&groups, group, depth),
                    4,
                )),
                effective_branching: unless_other_scale(round(effective_branching, 3)),
                mean_ms: round(mean(&group.iter().map(|r| r.ms).collect::<Vec<_>>()), 4),
                reference: match reference {
                    Some((name, at)) if budgeted => format!("{name} depth {at}"),
                    Some((name, _)) => name,
                    None => String::new(),
                },
                same_move: round(share(same_move), 4),
                same_value: unless_other_scale(round(share(same_value), 4)),
            }
        })
        .collect()
}

/// The nodes `group` visited over those minimax visited at `depth` on the same positions
/// (NaN without minimax at that depth).
fn share_of_minimax(
    groups: &BTreeMap<(String, u32), Vec<&SearchRow>>,
    group: &[&SearchRow],
    depth: u32,
) -> f64 {
    let Some(minimax) = groups.get(&("minimax".to_string(), depth)) else {
        return f64::NAN;
    };
    let visited: BTreeMap<usize, u64> = minimax
        .iter()
        .map(|r| (r.position, r.expanded + r.evaluated))
        .collect();
    let (mut ours, mut theirs) = (0u64, 0u64);
    for row in group {
        if let Some(&nodes) = visited.get(&row.position) {
            ours += row.expanded + row.evaluated;
            theirs += nodes;
        }
    }
    if theirs == 0 {
        f64::NAN
    } else {
        ours as f64 / theirs as f64
    }
}

/// The mean number of moves at the searched positions (nodes at level 1), the measured
/// branching factor.
pub fn branching_factor(rows: &[SearchRow]) -> f64 {
    // Every search visits each root move at least once; deepening ones (alphabeta-tt)
    // again in each iteration: the fewest level-1 nodes of a position are its moves.
    let mut level_one: BTreeMap<usize, f64> = BTreeMap::new();
    for row in rows.iter().filter(|r| !no_depth(r)) {
        if let Some(&n) = row.level_nodes().get(1) {
            let fewest = level_one.entry(row.position).or_insert(n);
            *fewest = fewest.min(n);
        }
    }
    mean(&level_one.values().copied().collect::<Vec<_>>())
}

/// search.csv's nodes per level, one row per position, search and level (tidy for data
/// frames).
#[derive(Serialize)]
struct LevelRow<'a> {
    position: usize,
    algorithm: &'a str,
    depth: u32,
    level: usize,
    nodes: u64,
}

/// Writes search_levels.csv into `folder` from the rows of its search.csv.
///
/// # Errors
/// The file cannot be written.
pub fn write_search_levels(folder: &Path, rows: &[SearchRow]) -> Result<(), InputError> {
    let path = folder.join("search_levels.csv");
    let fail = |e: csv::Error| InputError::in_file(&path, None, e.to_string());
    let mut writer = csv::Writer::from_path(&path).map_err(fail)?;
    for row in rows {
        for (level, nodes) in row.level_nodes().into_iter().enumerate() {
            writer
                .serialize(LevelRow {
                    position: row.position,
                    algorithm: &row.algorithm,
                    depth: row.depth,
                    level,
                    nodes: nodes as u64,
                })
                .map_err(fail)?;
        }
    }
    writer
        .flush()
        .map_err(|e| InputError::in_file(&path, None, e.to_string()))
}

/// Writes search_summary.csv into `folder`, from the rows of its search.csv.
///
/// # Errors
/// The file cannot be written.
pub fn write_search_summary(folder: &Path, rows: &[SearchRow]) -> Result<(), InputError> {
    let path = folder.join("search_summary.csv");
    let fail = |e: csv::Error| InputError::in_file(&path, None, e.to_string());
    let mut writer = csv::Writer::from_path(&path).map_err(fail)?;
    for row in summarize(rows) {
        writer.serialize(row).map_err(fail)?;
    }
    writer
        .flush()
        .map_err(|e| InputError::in_file(&path, None, e.to_string()))
}

/// Reads search.csv.
///
/// # Errors
/// A message naming the file.
pub fn read_search_csv(folder: &Path) -> Result<Vec<SearchRow>, InputError> {
    super::load::csv_rows(&folder.join(SEARCHES))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        position: usize,
        algorithm: &str,
        depth: u32,
        mv: &str,
        value: f64,
        expanded: u64,
        levels: &str,
    ) -> SearchRow {
        SearchRow {
            position,
            algorithm: algorithm.into(),
            depth,
            mv: mv.into(),
            value: Some(value),
            expanded,
            evaluated: 0,
            generated: 0,
            cache_hits: 0,
            nodes_by_level: levels.into(),
            ms: 1.0,
        }
    }

    #[test]
    fn summary_math_on_hand_made_rows() {
        let rows = vec![
            row(0, "minimax", 2, "a", 1.0, 10, "1;4;16"),
            row(0, "alphabeta", 2, "a", 1.0, 6, "1;4;9"),
            row(0, "alphabeta-ordered", 2, "b", 1.0, 4, "1;4;5"),
            row(1, "minimax", 2, "c", 2.0, 20, "1;6;36"),
            row(1, "alphabeta", 2, "c", 2.0, 10, "1;6;12"),
            row(1, "alphabeta-ordered", 2, "d", 3.0, 8, "1;6;10"),
        ];
        let summary = summarize(&rows);
        assert_eq!(summary.len(), 3);
        let mm = &summary[0];
        assert_eq!((mm.algorithm.as_str(), mm.positions), ("minimax", 2));
        assert_eq!(mm.mean_expanded, 15.0);
        assert_eq!(mm.median_expanded, 15.0);
        // (16 + 36) / 2 roots, square root: sqrt(26).
        assert!((mm.effective_branching - 26f64.sqrt()).abs() < 1e-3);
        assert_eq!((mm.same_move, mm.same_value), (1.0, 1.0));
        let ordered = &summary[2];
        assert_eq!(ordered.reference, "minimax");
        assert_eq!((ordered.same_move, ordered.same_value), (0.0, 0.5));
        // Nodes against minimax's on the same positions: (4 + 8) / (10 + 20).
        assert_eq!(ordered.share_of_minimax_nodes, 0.4);
        assert_eq!(mm.share_of_minimax_nodes, 1.0);
        assert_eq!(branching_factor(&rows), 5.0);
        // Without minimax, alpha-beta is the reference.
        let no_minimax: Vec<SearchRow> = rows
            .into_iter()
            .filter(|r| r.algorithm != "minimax")
            .collect();
        assert_eq!(summarize(&no_minimax)[1].reference, "alphabeta");
        assert!(summarize(&no_minimax)[1].share_of_minimax_nodes.is_nan());
    }

    #[test]
    fn mcts_rows_form_one_group_per_budget_compared_with_the_deepest_search() {
        let rows = vec![
            row(0, "alphabeta", 1, "a", 1.0, 1, "1;4"),
            row(0, "alphabeta", 2, "b", 1.0, 5, "1;4;9"),
            // Iterative deepening visits the root's moves once per iteration.
            row(0, "alphabeta-tt", 2, "b", 1.0, 6, "1;8;9"),
            row(0, "mcts", 3, "b", 0.6, 100, "1;4;50;45"),
            row(1, "alphabeta", 1, "c", 2.0, 1, "1;6"),
            row(1, "alphabeta", 2, "c", 2.0, 7, "1;6;12"),
            row(1, "alphabeta-tt", 2, "c", 2.0, 8, "1;12;12"),
            row(1, "mcts", 5, "d", 0.4, 120, "1;6;40;40;30;3"),
        ];
        let summary = summarize(&rows);
        assert_eq!(summary.len(), 4, "{summary:?}");
        let mcts = &summary[3];
        assert_eq!((mcts.algorithm.as_str(), mcts.positions), ("mcts", 2));
        // The deepest its tree reached; one move of two agrees with alpha-beta at depth 2.
        assert_eq!(mcts.depth, 5);
        assert_eq!(mcts.reference, "alphabeta depth 2");
        assert_eq!(mcts.same_move, 0.5);
        assert!(mcts.same_value.is_nan() && mcts.effective_branching.is_nan());
        assert_eq!(mcts.mean_expanded, 110.0);
        // The branching factor counts each root move once: (4 + 6) / 2.
        assert_eq!(branching_factor(&rows), 5.0);
    }
}
