//! A search comparison's documents: its table, its chart of nodes against depth, its
//! report.

use super::charts::{self, LogLines};
use super::page::write_folder_documents;
use super::section::{Figure, Section};
use super::table::Table;
use crate::records::loaded::LoadedRun;
use crate::records::search::{SearchRow, SearchSummaryRow, branching_factor, summarize};
use crate::registry::InputError;
use std::path::{Path, PathBuf};

/// Chart, report.md and index.html of a search-comparison folder, from search.csv.
///
/// # Errors
/// A file that cannot be read, drawn or written, named in the message.
pub fn write_search_report(
    run: &LoadedRun,
    rows: &[SearchRow],
) -> Result<Vec<PathBuf>, InputError> {
    let sections = search_sections(&run.folder, run.meta.as_ref(), rows)?;
    write_folder_documents(run, "search comparison", &sections)
}

/// The summary as a table.
pub fn summary_table(summary: &[SearchSummaryRow]) -> Table {
    // Cache hits only when a cached search ran; the share of minimax's nodes only when
    // minimax ran.
    let with_hits = summary.iter().any(|r| r.mean_cache_hits > 0.0);
    let with_share = summary.iter().any(|r| !r.share_of_minimax_nodes.is_nan());
    let mut headers = vec![
        "algorithm",
        "depth",
        "positions",
        "mean expanded",
        "median expanded",
        "mean evaluated",
    ];
    if with_hits {
        headers.push("of them cache hits");
    }
    if with_share {
        headers.push("% of minimax nodes");
    }
    headers.extend([
        "effective branching",
        "ms/decision",
        "same move",
        "same value",
        "compared with",
    ]);
    let percent = |x: f64| {
        if x.is_nan() {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * x)
        }
    };
    let fixed = |x: f64, decimals: usize| {
        if x.is_nan() {
            "-".to_string()
        } else {
            format!("{x:.decimals$}")
        }
    };
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows: summary
            .iter()
            .map(|r| {
                let mut row = vec![
                    r.algorithm.clone(),
                    r.depth.to_string(),
                    r.positions.to_string(),
                    format!("{:.1}", r.mean_expanded),
                    format!("{:.0}", r.median_expanded),
                    fixed(r.mean_evaluated, 1),
                ];
                if with_hits {
                    row.push(fixed(r.mean_cache_hits, 1));
                }
                if with_share {
                    row.push(percent(r.share_of_minimax_nodes));
                }
                row.extend([
                    fixed(r.effective_branching, 2),
                    format!("{:.3}", r.mean_ms),
                    percent(r.same_move),
                    percent(r.same_value),
                    r.reference.clone(),
                ]);
                row
            })
            .collect(),
    }
}

/// Draws nodes_vs_depth.svg/png and returns the report sections of a comparison.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn search_sections(
    folder: &Path,
    meta: Option<&crate::records::Meta>,
    rows: &[SearchRow],
) -> Result<Vec<Section>, InputError> {
    let summary = summarize(rows);
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    // MCTS has no depth axis: it is in the table only.
    let budgeted = |row: &SearchSummaryRow| row.reference.contains(" depth ");
    for row in summary.iter().filter(|r| !budgeted(r)) {
        let point = (f64::from(row.depth), row.mean_expanded.max(0.1));
        // An external program's counts are its own (summarize leaves it no evaluated count).
        let name = if row.mean_evaluated.is_nan() {
            format!("{} (self-reported)", row.algorithm)
        } else {
            row.algorithm.clone()
        };
        match series.iter_mut().find(|(n, _)| *n == name) {
            Some((_, points)) => points.push(point),
            None => series.push((name, vec![point])),
        }
    }
    let b = branching_factor(rows);
    let depths: Vec<u32> = {
        let mut d: Vec<u32> = summary
            .iter()
            .filter(|r| !budgeted(r))
            .map(|r| r.depth)
            .collect();
        d.sort_unstable();
        d.dedup();
        d
    };
    // What a search of depth d expands (nodes whose children are generated: the levels 0
    // to d - 1), on a uniform tree of branching b: every node of those levels for
    // minimax, and with perfect move ordering the minimal tree of Knuth and Moore, whose
    // level i holds b^ceil(i/2) + b^floor(i/2) - 1 nodes.
    let reference = |level: &dyn Fn(u32) -> f64| -> Vec<(f64, f64)> {
        depths
            .iter()
            .map(|&d| (f64::from(d), (0..d).map(level).sum()))
            .collect()
    };
    let full = |i: u32| b.powi(i as i32);
    let minimal = |i: u32| b.powi(i.div_ceil(2) as i32) + b.powi((i / 2) as i32) - 1.0;
    let svg = charts::save(
        &LogLines {
            title: "Nodes expanded per decision".to_string(),
            x_desc: "search depth (plies)".to_string(),
            y_desc: "nodes expanded per decision (mean, log scale)".to_string(),
            series,
            references: vec![
                (
                    format!("full tree: 1 + b + ... + b^(d-1), b = {b:.1}"),
                    reference(&full),
                ),
                (
                    "perfect ordering: Knuth-Moore minimal tree".to_string(),
                    reference(&minimal),
                ),
            ],
        },
        folder,
        "nodes_vs_depth",
    )?;
    Ok(vec![Section {
        after: Vec::new(),
        title: "Search comparison".to_string(),
        text: vec![format!(
            "Every algorithm searched the same {} positions at each depth; b = {b:.2} is the mean number of legal moves there. Effective branching is (nodes at the last level / nodes at the root)^(1/depth) over all positions. 'Same move' and 'same value' compare each decision with the reference algorithm's at that depth: plain alpha-beta must agree 100% on both; move ordering may pick another move of the same value.",
            rows.iter().map(|r| r.position).max().map_or(0, |m| m + 1)
        )]
        .into_iter()
        .chain(summary.iter().any(budgeted).then(|| {
            "MCTS has an iteration budget instead of a depth, so it is in the table, not the chart: its depth is the deepest level its tree reached on any position; an expanded node is one whose children it created (generated counts them), an evaluated node one where an iteration's rollout began (one per iteration). Its move is compared with the deepest full-width search's; its value is a win rate, not comparable.".to_string()
        }))
        .chain(meta.and_then(super::external_note))
        .collect(),
        tables: vec![summary_table(&summary)],
        charts: vec![Figure::new(
            "nodes_vs_depth",
            "Nodes expanded per decision against depth, with what minimax expands on a uniform tree of b moves (1 + b + ... + b^(d-1)) and what alpha-beta expands with perfect ordering (Knuth and Moore's minimal tree, about 2 b^(d/2))",
            svg,
        )],
    }])
}
