//! A table run's documents: the standings (win rate, mean place, mean return, Plackett-Luce
//! rating), who finished ahead of whom, each seat's results, their charts and the report.

use super::charts::{self, Interval, IntervalChart, WinMatrix};
use super::page::write_folder_documents;
use super::section::{Figure, Section};
use super::table::Table;
use crate::records::loaded::{LoadedRun, TablesData};
use crate::records::tables::{SUMMARY_HEADERS, TablesTally, summary_rows};
use crate::registry::InputError;
use crate::stats::Z95;
use std::path::PathBuf;

/// A mean and its interval as `0.52 (0.47-0.57)`.
fn with_interval(mean: &str, low: &str, high: &str) -> String {
    if low.is_empty() {
        mean.to_string()
    } else {
        format!("{mean} ({low}-{high})")
    }
}

/// The standings, best first.
pub fn standings_table(tally: &TablesTally, names: &[String]) -> Table {
    let at = |name: &str| SUMMARY_HEADERS.iter().position(|h| *h == name).unwrap_or(0);
    Table {
        headers: [
            "rank",
            "agent",
            "games",
            "win rate (95%)",
            "mean place (95%)",
            "mean return (95%)",
            "rating (95%)",
            "nodes per move",
        ]
        .iter()
        .map(|h| h.to_string())
        .collect(),
        rows: summary_rows(tally, names)
            .into_iter()
            .map(|row| {
                let triple = |name: &str| {
                    let i = at(name);
                    with_interval(&row[i], &row[i + 1], &row[i + 2])
                };
                vec![
                    row[at("rank")].clone(),
                    row[at("agent")].clone(),
                    row[at("games")].clone(),
                    triple("win_rate"),
                    triple("mean_place"),
                    triple("mean_return"),
                    if row[at("rating")].is_empty() {
                        "-".to_string()
                    } else {
                        format!("{} ± {}", row[at("rating")], row[at("rating_margin")])
                    },
                    row[at("nodes_per_move")].clone(),
                ]
            })
            .collect(),
    }
}

/// The agents that played, in the standings' order.
fn ranked(tally: &TablesTally, names: &[String]) -> Vec<usize> {
    summary_rows(tally, names)
        .iter()
        .filter_map(|row| names.iter().position(|n| *n == row[1]))
        .collect()
}

/// Who finished ahead of whom: each cell the row agent's share of the games it shared a
/// table with the column agent in which it placed better (a tie counts half).
fn ahead_table(tally: &TablesTally, names: &[String]) -> Table {
    let order = ranked(tally, names);
    // Columns by number (the row's), as the chart has them: the names stay in one column.
    let mut headers = vec!["finished ahead of".to_string()];
    headers.extend((1..=order.len()).map(|k| k.to_string()));
    Table {
        headers,
        rows: order
            .iter()
            .enumerate()
            .map(|(k, &a)| {
                let mut row = vec![format!("{} ({})", names[a], k + 1)];
                row.extend(order.iter().map(|&b| match tally.met[a][b] {
                    0 => "-".to_string(),
                    met => format!("{:.0}% of {met}", 100.0 * tally.ahead[a][b] / met as f64),
                }));
                row
            })
            .collect(),
    }
}

/// Each seat's win rate and mean return, whoever sat there.
fn seats_table(tally: &TablesTally) -> Table {
    let cell = |m: &crate::stats::Moments, range: (f64, f64)| {
        let mean = m.mean().map_or(String::new(), |x| format!("{x:.3}"));
        match m.interval(Z95) {
            Some((low, high)) => {
                format!("{mean} ({:.3}-{:.3})", low.max(range.0), high.min(range.1))
            }
            None => mean,
        }
    };
    Table {
        headers: ["seat", "games", "win rate (95%)", "mean return (95%)"]
            .iter()
            .map(|h| h.to_string())
            .collect(),
        rows: tally
            .seats
            .iter()
            .enumerate()
            .map(|(seat, (wins, returns))| {
                vec![
                    format!("P{}", seat + 1),
                    wins.count.to_string(),
                    cell(wins, (0.0, 1.0)),
                    cell(returns, (f64::MIN, f64::MAX)),
                ]
            })
            .collect(),
    }
}

/// The standings, the matrix and the seats, as `show` prints them.
pub fn tables_text(data: &TablesData) -> String {
    format!(
        "{}(win rate: first place, shared when tied; rating: Plackett-Luce from the places; 95% intervals over deals)\n\n{}\nby seat:\n{}",
        standings_table(&data.tally, &data.names).aligned(),
        ahead_table(&data.tally, &data.names).aligned(),
        seats_table(&data.tally).aligned()
    )
}

/// Writes the charts, report.md and index.html of a table run.
///
/// # Errors
/// A file that cannot be written.
pub fn write_tables_report(run: &LoadedRun, data: &TablesData) -> Result<Vec<PathBuf>, InputError> {
    let folder = &run.folder;
    let tally = &data.tally;
    let names = &data.names;
    let order = ranked(tally, names);
    let seats = tally.seats.len();
    let mut charts_made = Vec::new();
    // A game for one player has no one to win against or finish ahead of: its standings
    // are its scores alone.
    let alone = seats == 1;
    if !order.is_empty() && !alone {
        let rows = order
            .iter()
            .filter_map(|&a| {
                let wins = &tally.agents[a].wins;
                let value = wins.mean()?;
                let (low, high) = wins.interval(Z95).unwrap_or((value, value));
                Some(Interval {
                    label: names[a].clone(),
                    value,
                    low: low.max(0.0),
                    high: high.min(1.0),
                })
            })
            .collect();
        let title = format!("Win rate at tables of {seats} (95% interval, deals as units)");
        let svg = charts::save(
            &IntervalChart {
                title: title.clone(),
                x_desc: format!(
                    "games won (first place; shared by those tied); 1 in {seats} is an even share"
                ),
                rows,
                even: 1.0 / seats as f64,
            },
            folder,
            "table_win_rates",
        )?;
        charts_made.push(Figure::new("table_win_rates", title, svg));
        let title = "Finished ahead of (share of the games at one table)".to_string();
        let svg = charts::save(
            &WinMatrix {
                title: title.clone(),
                agents: order.iter().map(|&a| names[a].clone()).collect(),
                cells: order
                    .iter()
                    .map(|&a| {
                        order
                            .iter()
                            .map(|&b| (tally.ahead[a][b], tally.met[a][b]))
                            .collect()
                    })
                    .collect(),
                columns: "finished behind it".to_string(),
            },
            folder,
            "table_ahead",
        )?;
        charts_made.push(Figure::new("table_ahead", title, svg));
    }
    if alone {
        let sections = vec![Section {
            title: "Standings".to_string(),
            text: vec![format!(
                "{} games of one player, each agent at its own table, ranked by mean return (the game's score), with its 95% interval over deals. `tables.csv` holds every game; `table_summary.csv` the table below.",
                tally.games
            )],
            tables: vec![standings_table(tally, names)],
            ..Section::default()
        }];
        return write_folder_documents(run, "tables", &sections);
    }
    let sections = vec![
        Section {
            title: "Standings".to_string(),
            text: vec![
                format!(
                    "{} games at tables of {seats}. Each deal is played once in every rotation of the seats (the agent listed k-th sits in seat k + r in rotation r), all rotations with the deal's seed, so every agent sits in every seat equally often. `tables.csv` holds every game; `table_summary.csv`, `ahead.csv` and `seats.csv` the tables below.",
                    tally.games
                ),
                "Win rate: first place, shared equally by the seats tied for it. Place: 1 is best; tied seats share the best of their places. Return: the game's own scores when it ended by its rules (for the star, each player's share of the way home), else the win share. The 95% intervals take an agent's games of one deal as one observation (they share their seed). The rating is Plackett-Luce's (Hunter's MM, a tie counting every order of the tied alike), on the Elo scale, the agents averaging 0; for two players it is the Bradley-Terry rating.".to_string(),
            ],
            tables: vec![standings_table(tally, names)],
            charts: charts_made,
            after: Vec::new(),
        },
        Section {
            title: "Who finished ahead of whom".to_string(),
            text: vec![
                "Each cell: the share of the games the row agent and the column agent (numbered as the rows) played at one table in which the row agent placed better (a tie counts half), and how many there were.".to_string(),
            ],
            tables: vec![ahead_table(tally, names)],
            charts: Vec::new(),
            after: Vec::new(),
        },
        Section {
            title: "By seat".to_string(),
            text: vec![
                "Each seat's results over every agent that sat there: what moving first (or later) is worth in this game.".to_string(),
            ],
            tables: vec![seats_table(tally)],
            charts: Vec::new(),
            after: Vec::new(),
        },
    ];
    write_folder_documents(run, "tables", &sections)
}
