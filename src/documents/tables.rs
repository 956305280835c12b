//! Tables of a game run shared by its report and by `show`: draws as a grid, ratings, a
//! sweep's answer, the standings of a tournament in rounds, the submissions left out.

use super::table::Table;
use crate::records::Meta;
use crate::records::SummaryRow;
use crate::records::load::CsvCells;
use crate::records::load::RunData;
use crate::stats::ratings::{Results, bradley_terry};
use std::collections::BTreeMap;

/// Draws per matchup arranged as a grid: first-listed agent (row) by second-listed agent
/// (column); `None` when the matchups do not form a grid of at least 2x2.
pub fn draw_grid(data: &RunData) -> Option<Table> {
    let mut firsts: Vec<&str> = Vec::new();
    let mut seconds: Vec<&str> = Vec::new();
    let mut cells: BTreeMap<(usize, usize), (u64, u64)> = BTreeMap::new();
    for pair in data.summary.chunks(2) {
        let [first, second] = pair else { continue };
        let row = firsts
            .iter()
            .position(|a| *a == first.agent)
            .unwrap_or_else(|| {
                firsts.push(&first.agent);
                firsts.len() - 1
            });
        let column = seconds
            .iter()
            .position(|a| *a == second.agent)
            .unwrap_or_else(|| {
                seconds.push(&second.agent);
                seconds.len() - 1
            });
        if first.games > 0 {
            cells.insert((row, column), (first.draws, first.games));
        }
    }
    if firsts.len() < 2 || seconds.len() < 2 {
        return None;
    }
    let mut headers = vec!["first agent \\ second agent".to_string()];
    headers.extend(seconds.iter().map(|s| s.to_string()));
    let rows = firsts
        .iter()
        .enumerate()
        .map(|(r, name)| {
            let mut row = vec![name.to_string()];
            row.extend((0..seconds.len()).map(|c| {
                cells
                    .get(&(r, c))
                    .map_or("-".to_string(), |(draws, games)| format!("{draws}/{games}"))
            }));
            row
        })
        .collect();
    Some(Table { headers, rows })
}

/// Bradley-Terry ratings of every agent from all games (Elo scale, average 0), best
/// first; `None` with fewer than three agents (the matchup table says it all then). One
/// agent under two names (a sweep's variant equal to a registered agent: the same spec
/// in meta.json) is one player, rated once and shown as `a = b`.
pub fn ratings_table(meta: Option<&Meta>, data: &RunData) -> Option<Table> {
    let names = data.agents(meta);
    let spec_of = |name: &str| -> Option<String> {
        let meta = meta?;
        meta.agents
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, spec)| crate::registry::agent_identity(&meta.game, spec))
    };
    // Players: names that play alike grouped, in first-seen order.
    let mut agents: Vec<String> = Vec::new();
    let mut specs: Vec<Option<String>> = Vec::new();
    let mut player_of: Vec<usize> = Vec::new();
    for name in &names {
        let spec = spec_of(name);
        match specs.iter().position(|s| spec.is_some() && *s == spec) {
            Some(player) => {
                agents[player] = format!("{} = {name}", agents[player]);
                player_of.push(player);
            }
            None => {
                agents.push(name.clone());
                specs.push(spec);
                player_of.push(agents.len() - 1);
            }
        }
    }
    if agents.len() < 3 {
        return None;
    }
    let index = |name: &str| names.iter().position(|a| a == name).map(|i| player_of[i]);
    let mut results = Results::new(agents.len());
    for ((p1, p2), outcomes) in &data.pairings {
        if let (Some(p1), Some(p2)) = (index(p1), index(p2)) {
            results.add_many(p1, p2, outcomes.p1_wins, outcomes.p2_wins, outcomes.draws);
        }
    }
    let ratings = bradley_terry(&results);
    // Agents without a game yet (a partial run) have no rating to show.
    let mut order: Vec<usize> = (0..agents.len())
        .filter(|&i| ratings[i].games > 0)
        .collect();
    order.sort_by(|&a, &b| ratings[b].elo.total_cmp(&ratings[a].elo));
    Some(Table {
        headers: ["rank", "agent", "Elo", "95% +-", "games"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows: order
            .iter()
            .enumerate()
            .map(|(rank, &i)| {
                vec![
                    (rank + 1).to_string(),
                    agents[i].clone(),
                    format!("{:+.0}", ratings[i].elo),
                    format!("{:.0}", ratings[i].margin),
                    ratings[i].games.to_string(),
                ]
            })
            .collect(),
    })
}

/// A sweep's answer as one table: a row per swept value, a column per opponent, each cell
/// the variant's win rate with its 95% interval and Elo ("-" where not played).
pub fn sweep_table(summary: &[SummaryRow], sweep: &crate::registry::SweepInfo) -> Table {
    let find = |variant: &str, opponent: &str| {
        summary
            .iter()
            .find(|r| r.agent == variant && r.opponent == opponent && r.games > 0)
    };
    let mut headers = vec![sweep.key.clone()];
    headers.extend(sweep.opponents.iter().map(|o| format!("vs {o}")));
    let rows = sweep
        .values
        .iter()
        .zip(&sweep.variants)
        .map(|(value, variant)| {
            let mut row = vec![value.clone()];
            row.extend(sweep.opponents.iter().map(|o| {
                find(variant, o).map_or("-".to_string(), |r| {
                    format!(
                        "{:.1}% ({:.1}-{:.1}), Elo {}",
                        100.0 * r.win_rate,
                        100.0 * r.win_rate_low95,
                        100.0 * r.win_rate_high95,
                        crate::records::elo_text(r.elo, r.elo_low95, r.elo_high95)
                    )
                })
            }));
            row
        })
        .collect();
    Table { headers, rows }
}

/// A tournament in rounds' standings.csv as a table: its ranked
/// players (the submissions left out have a table of their own, [`left_out_table`]).
pub fn standings_table(cells: &CsvCells) -> Table {
    let shown: Vec<usize> = (0..cells.headers.len())
        .filter(|&i| cells.headers[i] != "left_out")
        .collect();
    let headers = shown
        .iter()
        .map(|&i| cells.headers[i].replace('_', " "))
        .collect();
    let rows = cells
        .rows
        .iter()
        .filter(|r| r.first().is_some_and(|rank| !rank.is_empty()))
        .map(|r| {
            shown
                .iter()
                .map(|&i| r.get(i).cloned().unwrap_or_default())
                .collect()
        })
        .collect();
    Table { headers, rows }
}

/// The submissions a class run left out, and why, as a table (`None`: none was).
pub fn left_out_table(meta: &Meta) -> Option<Table> {
    (!meta.left_out.is_empty()).then(|| Table {
        headers: vec!["submission".to_string(), "why it does not play".to_string()],
        rows: meta
            .left_out
            .iter()
            .map(|l| vec![l.name.clone(), l.short_reason().to_string()])
            .collect(),
    })
}
