//! Win rate against the effort per move: the time-scaling plot. When an experiment plays
//! the same pair of agents at several budgets, both sides given the same budget in each
//! matchup (`time_ms=N` on both, or `nodes=N` against MCTS's `iterations=N`), the first
//! agent's win rate is drawn against the budget, one line per pair.

use super::charts::{self, SweepChart, SweepPoint};
use super::section::{Figure, Section};
use super::table::Table;
use crate::records::load::RunData;
use crate::records::loaded::LoadedRun;
use crate::registry::InputError;
use crate::registry::spec::Spec;
use crate::search::mcts::MctsConfig;
use std::collections::BTreeMap;

/// What a budget per move counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Effort {
    /// Milliseconds per move (`time_ms`).
    Time,
    /// Nodes per move (`nodes`; MCTS's `iterations`, one tree node each).
    Nodes,
}

impl Effort {
    fn axis(self) -> &'static str {
        match self {
            Effort::Time => "milliseconds per move, the same for both agents",
            Effort::Nodes => {
                "nodes per move, the same for both agents (MCTS: iterations, one tree node each)"
            }
        }
    }

    fn stem(self) -> &'static str {
        match self {
            Effort::Time => "scaling_time",
            Effort::Nodes => "scaling_nodes",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Effort::Time => "Win rate against time per move",
            Effort::Nodes => "Win rate against nodes per move",
        }
    }
}

/// An agent spec's budget per move and the spec without it, e.g. `mcts(time_ms=30)` gives
/// (Time, 30, `mcts`). `None` for an agent with no budget or two of them.
fn budget(spec: &str) -> Option<(Effort, u64, String)> {
    let mut spec: Spec = spec.parse().ok()?;
    let time = spec.take("time_ms");
    let nodes = spec.take("nodes");
    // MCTS without a time budget runs its iterations, written only when not the default.
    let iterations = match spec.take("iterations") {
        _ if spec.name != "mcts" => None,
        None if time.is_none() => Some(MctsConfig::default().iterations.to_string()),
        given => given,
    };
    let (effort, value) = match (time, nodes, iterations) {
        (Some(ms), None, None) => (Effort::Time, ms),
        (None, Some(n), None) | (None, None, Some(n)) => (Effort::Nodes, n),
        _ => return None,
    };
    // A deepening agent is written with depth 0 (no cap): not worth a word in a label.
    if let Some(at) = spec
        .params
        .iter()
        .position(|(k, v)| k == "depth" && v == "0")
    {
        spec.params.remove(at);
    }
    Some((effort, value.parse().ok()?, spec.to_string()))
}

/// One line: the pair of agents (budget removed) and its points by budget.
type Lines = BTreeMap<(String, String), BTreeMap<u64, SweepPoint>>;

/// The scaling sections of a tournament: one chart and table per kind of budget with at
/// least one pair played at two budgets or more.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn scaling_sections(run: &LoadedRun, data: &RunData) -> Result<Vec<Section>, InputError> {
    let Some(meta) = &run.meta else {
        return Ok(Vec::new());
    };
    let spec_of = |name: &str| -> String {
        meta.agents
            .iter()
            .find(|(n, _)| n == name)
            .map_or(name, |(_, spec)| spec.as_str())
            .to_string()
    };
    let mut by_effort: BTreeMap<Effort, Lines> = BTreeMap::new();
    for row in data.summary.chunks(2).filter_map(|pair| pair.first()) {
        let (Some(first), Some(second)) = (
            budget(&spec_of(&row.agent)),
            budget(&spec_of(&row.opponent)),
        ) else {
            continue;
        };
        if first.0 != second.0 || first.1 != second.1 {
            continue;
        }
        let point =
            (row.games > 0).then_some((row.win_rate, row.win_rate_low95, row.win_rate_high95));
        by_effort
            .entry(first.0)
            .or_default()
            .entry((first.2, second.2))
            .or_default()
            .insert(first.1, point);
    }
    let mut sections = Vec::new();
    for (effort, mut lines) in by_effort {
        lines.retain(|_, points| points.len() >= 2);
        if lines.is_empty() {
            continue;
        }
        let budgets: Vec<u64> = {
            let mut all: Vec<u64> = lines.values().flat_map(|p| p.keys().copied()).collect();
            all.sort_unstable();
            all.dedup();
            all
        };
        let label = |(first, second): &(String, String)| format!("{first} vs {second}");
        let series: Vec<(String, Vec<SweepPoint>)> = lines
            .iter()
            .map(|(pair, points)| {
                let row = budgets.iter().map(|b| points.get(b).copied().flatten());
                (label(pair), row.collect())
            })
            .collect();
        let svg = charts::save(
            &SweepChart {
                title: format!("The first agent's {}", effort.title().to_lowercase()),
                x_desc: effort.axis().to_string(),
                values: budgets.iter().map(u64::to_string).collect(),
                lines: series.clone(),
                y_desc: charts::WIN_RATE_AXIS.to_string(),
                axis: (0.0, 1.0),
            },
            &run.folder,
            effort.stem(),
        )?;
        let mut headers = vec![match effort {
            Effort::Time => "ms per move".to_string(),
            Effort::Nodes => "nodes per move".to_string(),
        }];
        headers.extend(series.iter().map(|(name, _)| name.clone()));
        let rows = budgets
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let mut row = vec![b.to_string()];
                row.extend(series.iter().map(|(_, points)| {
                    points[i].map_or("-".to_string(), |(rate, low, high)| {
                        format!(
                            "{:.1}% ({:.1}-{:.1})",
                            100.0 * rate,
                            100.0 * low,
                            100.0 * high
                        )
                    })
                }));
                row
            })
            .collect();
        sections.push(Section {
            after: Vec::new(),
            title: effort.title().to_string(),
            text: vec![
                "Each line is one pair of agents given the same budget per move in each matchup; a point is the first agent's share of games won, with its 95% Wilson interval.".to_string(),
            ],
            tables: vec![Table { headers, rows }],
            charts: vec![Figure::new(effort.stem(), effort.title(), svg)],
        });
    }
    Ok(sections)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_are_read_from_specs_and_removed_from_labels() {
        assert_eq!(
            budget("mcts(time_ms=30)"),
            Some((Effort::Time, 30, "mcts".to_string()))
        );
        assert_eq!(
            budget("alphabeta-tt(heuristic=offensive2,depth=0,time_ms=100)"),
            Some((
                Effort::Time,
                100,
                "alphabeta-tt(heuristic=offensive2)".to_string()
            ))
        );
        assert_eq!(
            budget("mcts(iterations=500,c=0.7)"),
            Some((Effort::Nodes, 500, "mcts(c=0.7)".to_string()))
        );
        assert_eq!(
            budget("alphabeta(heuristic=material,nodes=500)"),
            Some((
                Effort::Nodes,
                500,
                "alphabeta(heuristic=material)".to_string()
            ))
        );
        // A fixed depth, or two budgets at once, is no point on a scaling line.
        assert_eq!(budget("alphabeta(heuristic=material,depth=3)"), None);
        assert_eq!(budget("mcts(iterations=50,time_ms=10)"), None);
        // iterations is MCTS's only; MCTS's default is 1000 of them.
        assert_eq!(budget("beam(iterations=5)"), None);
        assert_eq!(
            budget("mcts"),
            Some((Effort::Nodes, 1000, "mcts".to_string()))
        );
    }
}
