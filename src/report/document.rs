//! report.md and index.html of a results folder, with its charts: made from the files
//! alone, so `arbiter report` can remake them after a style change without replaying.

use super::charts::{self, BoxChart, Interval, IntervalChart, SweepChart, WinMatrix};
use super::load::{RunData, win_matrix};
use super::table::{Table, escape};
use super::{SummaryRow, summary_table};
use crate::stats::ratings::{Results, bradley_terry};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A section of the report: a title, paragraphs, tables and charts (file stems).
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Paragraphs of plain text.
    pub text: Vec<String>,
    /// Tables.
    pub tables: Vec<Table>,
    /// Chart stems (`<stem>.svg` and `.png` in the folder) with a caption.
    pub charts: Vec<(String, String)>,
    /// Paragraphs after the tables and charts (notes on their rows).
    pub after: Vec<String>,
}

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
pub fn ratings_table(data: &RunData) -> Option<Table> {
    let names = data.agents();
    let spec_of = |name: &str| -> Option<String> {
        let meta = data.meta.as_ref()?;
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

/// Draws the run's charts into its folder; returns the sections that show them.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn tournament_charts(data: &RunData) -> Result<Vec<Section>, String> {
    let folder = &data.folder;
    let mut sections = Vec::new();
    let agents = data.agents();
    let matrix = win_matrix(&agents, &data.pairings, false);
    let played = matrix.iter().flatten().any(|c| c.games > 0);
    if played && agents.len() >= 2 {
        let mut section = Section {
            title: "Win rates".to_string(),
            text: vec![
                "Each cell: the row agent's share of games won against the column agent, both colours together, and how many games they played.".to_string(),
            ],
            ..Section::default()
        };
        for (stem, p1_only, title) in [
            (
                "winrate_matrix",
                false,
                "Win rate of row agent against column agent",
            ),
            (
                "winrate_matrix_p1",
                true,
                "Win rate of row agent playing P1 against column agent",
            ),
        ] {
            let cells = win_matrix(&agents, &data.pairings, p1_only)
                .into_iter()
                .map(|row| row.into_iter().map(|c| (c.wins, c.games)).collect())
                .collect();
            charts::save(
                &WinMatrix {
                    title: title.to_string(),
                    agents: agents.clone(),
                    cells,
                },
                folder,
                stem,
            )?;
            section.charts.push((stem.to_string(), title.to_string()));
        }
        sections.push(section);
    }
    let rows: Vec<Interval> = data
        .summary
        .chunks(2)
        .filter_map(|pair| pair.first())
        .filter(|r| r.games > 0)
        .map(|r| Interval {
            label: format!("{} vs {}", r.agent, r.opponent),
            value: r.win_rate,
            low: r.win_rate_low95,
            high: r.win_rate_high95,
        })
        .collect();
    if !rows.is_empty() {
        charts::save(
            &IntervalChart {
                title: "Win rate of the first agent of each matchup".to_string(),
                x_desc: "games won (%), bar: 95% Wilson interval".to_string(),
                rows,
            },
            folder,
            "winrates",
        )?;
        sections.push(Section {
            title: "Win rate per matchup".to_string(),
            charts: vec![(
                "winrates".to_string(),
                "Win rate with 95% interval".to_string(),
            )],
            ..Section::default()
        });
    }
    let times: Vec<(String, [f64; 5])> = agents
        .iter()
        .filter_map(|a| {
            let ms = data.move_ms.get(a)?;
            ms.five_numbers().map(|f| (a.clone(), f))
        })
        .collect();
    if !times.is_empty() {
        charts::save(
            &BoxChart {
                title: "Time per move".to_string(),
                x_desc:
                    "milliseconds per move (log scale); box: quartiles, bar: median, line: range"
                        .to_string(),
                rows: times,
                log: true,
            },
            folder,
            "time_per_move",
        )?;
        sections.push(Section {
            title: "Time per move".to_string(),
            charts: vec![("time_per_move".to_string(), "Time per move".to_string())],
            ..Section::default()
        });
    }
    // Nodes per move as the game goes on (Double Card: as cards accumulate), for every
    // agent that searched.
    let series: Vec<(String, Vec<(f64, f64)>)> = agents
        .iter()
        .filter_map(|agent| {
            let by_ply = data.expanded_by_ply.get(agent)?;
            let points: Vec<(f64, f64)> = by_ply
                .iter()
                .filter(|(_, (sum, _))| *sum > 0)
                .map(|(&ply, &(sum, moves))| (f64::from(ply), sum as f64 / moves as f64))
                .collect();
            (points.len() >= 2).then(|| (agent.clone(), points))
        })
        .collect();
    if !series.is_empty() {
        charts::save(
            &charts::LogLines {
                title: "Nodes expanded per move as the game goes on".to_string(),
                x_desc: "ply (moves played by both sides)".to_string(),
                y_desc: "nodes expanded per move (mean, log scale)".to_string(),
                series,
                references: Vec::new(),
            },
            folder,
            "nodes_by_ply",
        )?;
        sections.push(Section {
            title: "Nodes per move by ply".to_string(),
            charts: vec![(
                "nodes_by_ply".to_string(),
                "Nodes expanded per move against the ply".to_string(),
            )],
            ..Section::default()
        });
    }
    let labels: BTreeMap<usize, String> = data
        .summary
        .chunks(2)
        .filter_map(|p| p.first())
        .map(|r| (r.matchup, format!("{} vs {}", r.agent, r.opponent)))
        .collect();
    let rows: Vec<(String, [f64; 5])> = data
        .plies
        .iter()
        .filter_map(|(m, plies)| {
            let label = labels
                .get(m)
                .cloned()
                .unwrap_or_else(|| format!("matchup {m}"));
            plies.five_numbers().map(|f| (label, f))
        })
        .collect();
    if !rows.is_empty() {
        charts::save(
            &BoxChart {
                title: "Game length".to_string(),
                x_desc: "plies per game; box: quartiles, bar: median, line: range".to_string(),
                rows,
                log: false,
            },
            folder,
            "game_length",
        )?;
        sections.push(Section {
            title: "Game length".to_string(),
            charts: vec![("game_length".to_string(), "Game length".to_string())],
            ..Section::default()
        });
    }
    Ok(sections)
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
                        super::elo_text(r.elo, r.elo_low95, r.elo_high95)
                    )
                })
            }));
            row
        })
        .collect();
    Table { headers, rows }
}

/// One chart per parameter sweep (from meta.json): each opponent's line of the variants'
/// win rates against the swept value, with a table of the same numbers.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn sweep_sections(data: &RunData) -> Result<Vec<Section>, String> {
    let Some(meta) = &data.meta else {
        return Ok(Vec::new());
    };
    let mut sections = Vec::new();
    for (number, sweep) in meta.sweeps.iter().enumerate() {
        let find = |variant: &str, opponent: &str| {
            data.summary
                .iter()
                .find(|r| r.agent == variant && r.opponent == opponent && r.games > 0)
        };
        let lines: Vec<(String, Vec<charts::SweepPoint>)> = sweep
            .opponents
            .iter()
            .map(|opponent| {
                let points = sweep
                    .variants
                    .iter()
                    .map(|v| {
                        find(v, opponent).map(|r| (r.win_rate, r.win_rate_low95, r.win_rate_high95))
                    })
                    .collect();
                (format!("vs {opponent}"), points)
            })
            .collect();
        let stem = format!("sweep_{}", number + 1);
        charts::save(
            &SweepChart {
                title: format!("Win rate against {}", sweep.key),
                x_desc: format!("{} (swept parameter)", sweep.key),
                values: sweep.values.clone(),
                lines,
            },
            &data.folder,
            &stem,
        )?;
        sections.push(Section {
            after: Vec::new(),
            title: format!("Sweep of {}", sweep.key),
            text: vec!["Every variant met each opponent with the same seeds and openings (a paired comparison): win rate with its 95% interval.".to_string()],
            tables: vec![sweep_table(&data.summary, sweep)],
            charts: vec![(stem, format!("Win rate against {}", sweep.key))],
        });
    }
    Ok(sections)
}

/// An experiment file as a reader wants it: a relative path as it is, an absolute one from
/// its `matchups/` folder on (the project's), else its file name alone (the machine's
/// folders say nothing to a reader of the report).
fn shown_path(path: &str) -> String {
    let p = Path::new(path);
    if !p.is_absolute() {
        return path.to_string();
    }
    let parts: Vec<&std::ffi::OsStr> = p.iter().collect();
    if let Some(at) = parts.iter().rposition(|c| *c == "matchups") {
        return parts[at..]
            .iter()
            .map(|c| c.to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
    }
    p.file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn header_lines(data: &RunData) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(meta) = &data.meta {
        lines.push(format!(
            "Experiment: {} ({})",
            meta.experiment,
            shown_path(&meta.experiment_file)
        ));
        if !meta.description.is_empty() {
            lines.push(meta.description.clone());
        }
        if meta.kind == "search" {
            lines.push(format!(
                "Game: {}; heuristic {}; {} positions ({}); seed {}.",
                meta.game,
                meta.agents.first().map_or("", |a| a.1.as_str()),
                meta.games_total,
                meta.status_text(),
                meta.seed
            ));
        } else if meta.kind == "tune" {
            lines.push(format!(
                "Game: {}; {} games per SPSA iteration; {} games played of {} planned ({}; the verification stops once its SPRT decides); seed {}; ply cap {}.",
                meta.game,
                meta.games_per_matchup,
                meta.games_played,
                meta.games_total,
                meta.status_text(),
                meta.seed,
                meta.max_plies
            ));
        } else if meta.kind == "puzzles" {
            lines.push(format!(
                "{} solves done of {} ({}); {} per puzzle and solver; seed {}{}.",
                meta.games_played,
                meta.games_total,
                meta.status_text(),
                if meta.games_per_matchup == 1 {
                    "one run".to_string()
                } else {
                    format!("{} runs", meta.games_per_matchup)
                },
                meta.seed,
                if meta.deterministic {
                    ""
                } else {
                    "; a time limit was in force, so which solves end in `limit` can differ between runs"
                }
            ));
        } else if !meta.format.is_empty() {
            lines.push(format!(
                "Game: {}; a {} (pairings by round in rounds.csv), {} games played of at most {} ({}); experiment seed {}; ply cap {}.",
                meta.game,
                meta.format,
                meta.games_played,
                meta.games_total,
                meta.status_text(),
                meta.seed,
                meta.max_plies
            ));
        } else {
            lines.push(format!(
            "Game: {}; {} games per matchup, {} games played of {} ({}); experiment seed {}; colours {}; ply cap {}.",
            meta.game,
            meta.games_per_matchup,
            meta.games_played,
            meta.games_total,
            meta.status_text(),
            meta.seed,
            meta.colours,
            meta.max_plies
        ));
        }
        lines.push(format!(
            "Machine: {}, {} threads; arbiter {}; started {}{}.",
            meta.host,
            meta.threads,
            meta.version,
            super::utc_time(meta.started_unix),
            meta.ended_unix.map_or(String::new(), |e| format!(
                ", took {} s",
                e.saturating_sub(meta.started_unix)
            ))
        ));
        if meta.kind == "tournament" {
            lines.push(
                "Every game can be replayed alone: its seed is in games.csv and its moves replay with `arbiter replay`."
                    .to_string(),
            );
        }
    }
    lines
}

/// Writes report.md and index.html for a folder that holds no games (a search comparison or
/// a puzzle run): the header comes from its meta.json when there is one, and the title is
/// `<experiment>: <kind>` (just `kind` without meta.json).
///
/// # Errors
/// A file that cannot be written.
pub fn write_folder_documents(
    folder: &std::path::Path,
    kind: &str,
    sections: &[Section],
) -> Result<Vec<PathBuf>, String> {
    let data = RunData {
        folder: folder.to_path_buf(),
        meta: super::Meta::read(folder).ok(),
        ..RunData::default()
    };
    let title = data
        .meta
        .as_ref()
        .map_or(kind.to_string(), |m| format!("{}: {kind}", m.experiment));
    write_documents(&data, &title, sections)
}

/// Prose for HTML: escaped, with `code` spans (the Markdown form) set as code.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for (index, part) in escape(text).split('`').enumerate() {
        if index % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

/// The files of a run folder a reader may open, sorted, with their sizes: everything but
/// the documents being written, the lock and hidden files.
fn folder_files(folder: &std::path::Path) -> Vec<(String, u64)> {
    let mut files: Vec<(String, u64)> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let name = entry.file_name().into_string().ok()?;
                    let meta = entry.metadata().ok()?;
                    let skip = name.starts_with('.')
                        || ["report.md", "index.html", "lock"].contains(&name.as_str());
                    (!skip).then(|| (name, if meta.is_dir() { 0 } else { meta.len() }))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

fn human_size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// What a known file of a run folder holds (empty for others).
fn file_description(name: &str) -> &'static str {
    match name {
        "games.csv" => ": one row per game (agents, seed, result, reason, counts, moves)",
        "games.pgn" => ": every game as tags and moves (`arbiter replay GAME games.pgn --id N`)",
        "moves.csv" => ": one row per move (agent, ms, nodes, root value)",
        "summary.csv" => ": one row per matchup and agent (the results table)",
        "nodes_by_depth.csv" => ": nodes per search level per agent",
        "search.csv" => ": one row per position, algorithm and depth",
        "search_summary.csv" => ": the comparison table",
        "search_levels.csv" => {
            ": nodes per position, search and level (search.csv's nodes_by_level, tidy)"
        }
        "solves.csv" => ": one row per solve (with its solution in one line)",
        "reproduction.csv" => {
            ": the published numbers beside arbiter's, with the check made and the verdict"
        }
        "meta.json" => ": what was run (experiment, seed, agents, status)",
        "summary.json" => ": the summary table as JSON (`arbiter show --json`)",
        "journal.jsonl" => ": finished jobs of an unfinished run, for `--resume`",
        "records.jsonl" => ": a shard's finished jobs, for `arbiter merge`",
        "logs" => ": external agents' stderr",
        "fit.csv" => ": linear weights fitted to the games (`arbiter fit`)",
        "tune.csv" => {
            ": the tuned parameters' values at the start of every iteration, and its result"
        }
        "tune_games.csv" => {
            ": one row per game of the tuning run (stage, iteration, players, score)"
        }
        _ => "",
    }
}

/// Writes report.md and index.html for `sections` into the run folder.
///
/// # Errors
/// A file that cannot be written.
pub fn write_documents(
    data: &RunData,
    title: &str,
    sections: &[Section],
) -> Result<Vec<PathBuf>, String> {
    let folder = &data.folder;
    let header = header_lines(data);
    let mut markdown = format!("# {title}\n\n");
    for line in &header {
        let _ = writeln!(markdown, "{line}\n");
    }
    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em}}.table{{overflow-x:auto}}table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}}td:first-child,th:first-child,td:nth-child(2),th:nth-child(2){{text-align:left}}svg{{max-width:100%;height:auto}}</style></head><body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for line in &header {
        let _ = writeln!(html, "<p>{}</p>", prose(line));
    }
    // The body goes to its own buffer: the table of contents before it lists its sections.
    let top = std::mem::take(&mut html);
    let mut contents: Vec<(String, String)> = Vec::new();
    // The published numbers first, when the experiment reproduces some.
    let reproduction = super::reproduce::section(folder)?;
    for (number, section) in reproduction.iter().chain(sections).enumerate() {
        let _ = write!(markdown, "## {}\n\n", section.title);
        let anchor = format!("section-{}", number + 1);
        let _ = writeln!(html, "<h2 id=\"{anchor}\">{}</h2>", escape(&section.title));
        contents.push((anchor, section.title.clone()));
        for text in &section.text {
            let _ = write!(markdown, "{text}\n\n");
            let _ = writeln!(html, "<p>{}</p>", prose(text));
        }
        for table in &section.tables {
            markdown.push_str(&table.markdown());
            markdown.push('\n');
            html.push_str("<div class=\"table\">");
            html.push_str(&table.html());
            html.push_str("</div>\n");
        }
        for (stem, caption) in &section.charts {
            let _ = write!(markdown, "![{caption}]({stem}.svg) ([PNG]({stem}.png))\n\n");
            let svg = std::fs::read_to_string(folder.join(format!("{stem}.svg")))
                .map_err(|e| format!("{}: {e}", folder.join(format!("{stem}.svg")).display()))?;
            let _ = writeln!(
                html,
                "<figure>{svg}<figcaption>{}</figcaption></figure>",
                escape(caption)
            );
        }
        for text in &section.after {
            let _ = write!(markdown, "{text}\n\n");
            let _ = writeln!(html, "<p>{}</p>", prose(text));
        }
    }
    // The game viewer (index.html only: it is a script).
    if let Some(viewer) = super::viewer::html(folder)? {
        markdown.push_str("## Watch the games\n\nindex.html replays the games move by move.\n\n");
        html.push_str(&viewer);
        contents.push(("watch".to_string(), "Watch the games".to_string()));
    }
    // Every file of the folder, linked (the documents themselves excepted).
    // A complete run's journal is removed once the documents are written.
    let complete = data.meta.as_ref().is_some_and(|m| m.status == "complete");
    let files: Vec<(String, u64)> = folder_files(folder)
        .into_iter()
        .filter(|(name, _)| !(complete && name == "journal.jsonl"))
        .collect();
    if !files.is_empty() {
        markdown.push_str("## Files\n\n");
        html.push_str("<h2 id=\"files\">Files</h2>\n<ul>\n");
        contents.push(("files".to_string(), "Files".to_string()));
        for (name, bytes) in &files {
            let size = human_size(*bytes);
            let what = file_description(name);
            let _ = writeln!(markdown, "- [{name}]({name}) ({size}){what}");
            let _ = writeln!(
                html,
                "<li><a href=\"{0}\">{0}</a> ({size}){1}</li>",
                escape(name),
                prose(what)
            );
        }
        markdown.push('\n');
        html.push_str("</ul>\n");
    }
    html.push_str("</body></html>\n");
    let mut nav = String::from("<nav><b>Contents</b><ol>");
    for (anchor, title) in &contents {
        let _ = write!(nav, "<li><a href=\"#{anchor}\">{}</a></li>", escape(title));
    }
    nav.push_str("</ol></nav>\n");
    let html = format!("{top}{nav}{html}");
    let report = folder.join("report.md");
    let index = folder.join("index.html");
    std::fs::write(&report, markdown).map_err(|e| format!("{}: {e}", report.display()))?;
    std::fs::write(&index, html).map_err(|e| format!("{}: {e}", index.display()))?;
    Ok(vec![report, index])
}

/// Charts, report.md and index.html of a tournament run folder.
///
/// # Errors
/// A file that cannot be read, drawn or written.
pub fn tournament_report(data: &RunData) -> Result<Vec<PathBuf>, String> {
    let mut text = vec![
        "Per matchup and agent: games won, lost and drawn, the win rate with its 95% Wilson interval, wins when playing P1, nodes expanded and milliseconds per move, enemy pieces captured per game and game length in plies.".to_string(),
    ];
    if let Some(sprt) = data.meta.as_ref().and_then(|m| m.sprt) {
        text.push(format!(
            "SPRT (LLR): one sequential test per matchup, of its first agent against its second, shown on both rows: H1 says the first agent is about {} Elo stronger or more, H0 about {} or less ({} Elo); LLR bounds {:.2} and {:.2}.",
            sprt.elo1,
            sprt.elo0,
            sprt.model.name(),
            sprt.bounds().0,
            sprt.bounds().1,
        ));
    }
    if let Some(meta) = data.meta.as_ref() {
        text.extend(super::external_note(meta));
        text.extend(super::reading_notes(meta));
    }
    // A tournament in rounds: its standings first, and only the pairs it played.
    let format = data.meta.as_ref().map_or("", |m| m.format.as_str());
    let played: Vec<_> = data
        .summary
        .iter()
        .filter(|r| format.is_empty() || r.games > 0)
        .cloned()
        .collect();
    let self_play = super::summary::self_play_matchups(&played);
    if !self_play.is_empty() {
        let list: Vec<String> = self_play.iter().map(usize::to_string).collect();
        text.push(format!(
            "Matchup{} {}: {}.",
            if list.len() == 1 { "" } else { "s" },
            list.join(", "),
            super::summary::SELF_PLAY_NOTE
        ));
    }
    let mut sections = Vec::new();
    if !format.is_empty()
        && let Some(standings) = super::show::standings_table(&data.folder)
    {
        sections.push(Section {
            after: Vec::new(),
            title: format!("Standings ({format})"),
            text: vec![if format == "swiss" {
                "Points (a game won 1, a draw 1/2, a bye every game of its pairing), then Buchholz (the opponents' points summed), then the seeded draw. Each round's pairings and points are in rounds.csv.".to_string()
            } else {
                "The round each player reached (the champion one more), then Buchholz, then the seeded draw. Each match's games and points are in rounds.csv.".to_string()
            }],
            tables: vec![standings],
            charts: vec![],
        });
    }
    if let Some(table) = data.meta.as_ref().and_then(super::show::left_out_table) {
        sections.push(Section {
            after: Vec::new(),
            title: "Submissions left out".to_string(),
            text: vec!["Submissions that do not play, and why: a folder that did not load (no manifest, a bad one, one that sets what is the teacher's, a name already taken), or a program that failed the checks before the games. Fix it and `arbiter run --resume` checks it again.".to_string()],
            tables: vec![table],
            charts: vec![],
        });
    }
    sections.push(Section {
        after: Vec::new(),
        title: "Results per matchup".to_string(),
        text,
        tables: vec![summary_table(&played)],
        charts: vec![],
    });
    if let Some(grid) = draw_grid(data) {
        sections.push(Section {
            after: Vec::new(),
            title: "Draws by matchup".to_string(),
            text: vec!["Draws out of games played, first-listed agent (row) against second-listed agent (column).".to_string()],
            tables: vec![grid],
            charts: vec![],
        });
    }
    if let Some(endings) = super::summary::endings_table(&data.summary) {
        sections.push(Section {
            after: Vec::new(),
            title: "How the games ended".to_string(),
            text: vec!["Each agent's wins, losses and draws over the run by how the game ended: by the game's rules (goal), an adjudication rule, the ply cap, or a failure (timeout or flag fall, stall, crash, illegal move, bad output, startup failure, a sandbox limit). summary.csv has them per matchup (wins_by, losses_by, draws_by).".to_string()],
            tables: vec![endings],
            charts: vec![],
        });
    }
    if let Some(ratings) = ratings_table(data) {
        sections.push(Section {
            after: Vec::new(),
            title: "Ratings".to_string(),
            text: vec!["Bradley-Terry ratings fitted to every game of the run (draws count half), on the Elo scale with the agents averaging 0; one virtual draw between every two agents keeps them finite. The interval is 95% from the Fisher information.".to_string()],
            tables: vec![ratings],
            charts: vec![],
        });
    }
    sections.extend(sweep_sections(data)?);
    sections.extend(super::scaling::scaling_sections(data)?);
    sections.extend(tournament_charts(data)?);
    let title = data
        .meta
        .as_ref()
        .map_or("arbiter results".to_string(), |m| {
            format!("{}: results", m.experiment)
        });
    write_documents(data, &title, &sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::{Breakthrough, Rules};
    use crate::registry::{AgentSpec, Colours};
    use crate::report::{CsvRecorder, Reporter, RunContext, RunOutcome};
    use crate::tournament;

    /// A small results folder made by really playing: three agents, a round robin.
    fn fixture() -> tempfile::TempDir {
        recorded().0
    }

    /// The folder of [`fixture`], and what its recorder counted of the games.
    fn recorded() -> (tempfile::TempDir, Option<crate::report::load::GamesTally>) {
        let folder = tempfile::tempdir().expect("temp dir");
        let names = [
            "random",
            "greedy(heuristic=offensive2)",
            "alphabeta(heuristic=defense,depth=2)",
        ];
        let factories: Vec<_> = names
            .iter()
            .map(|n| {
                n.parse::<AgentSpec>()
                    .and_then(|a| {
                        a.factory(&Breakthrough::new(
                            crate::games::breakthrough::Rules::Standard,
                        ))
                    })
                    .expect("agent")
            })
            .collect();
        let pairs = vec![[0, 1], [0, 2], [1, 2]];
        let jobs = tournament::schedule(5, &pairs, 6, Colours::Alternate);
        let context = RunContext::new(
            "breakthrough(rules=standard)".into(),
            "standard".into(),
            names.iter().map(|n| n.to_string()).collect(),
            pairs,
        );
        // Boxed, as a run holds its recorder.
        let mut recorder: Box<dyn Reporter<tournament::GameRecord>> =
            Box::new(CsvRecorder::create(folder.path(), context, true).expect("files"));
        let start = Breakthrough::new(Rules::Standard);
        for job in jobs {
            let mut seats = tournament::seat_agents(&factories, &job);
            let record = tournament::play_game(&start, job, &mut seats, 1000);
            recorder.finished(&record).expect("written");
        }
        // Before its files are in place, the recorder vouches for nothing.
        assert!(recorder.take_tally().is_none());
        let outcome = RunOutcome {
            played: 18,
            skipped: 0,
            total: 18,
            cancelled: false,
        };
        recorder.ended(&outcome).expect("written");
        let tally = recorder.take_tally();
        (folder, tally)
    }

    #[test]
    fn a_run_counts_its_games_as_reading_its_files_back_does() {
        let (folder, tally) = recorded();
        let counted = RunData::from_tally(folder.path(), tally.expect("the recorder ended"))
            .expect("summary");
        let read = RunData::load(folder.path()).expect("loads");
        assert_eq!(counted.games, 18);
        assert_eq!(counted.games, read.games);
        assert_eq!(counted.pairings, read.pairings);
        assert_eq!(counted.plies, read.plies);
        // Milliseconds as moves.csv wrote them (four decimals), not as measured.
        assert_eq!(counted.move_ms, read.move_ms);
        assert_eq!(counted.expanded_by_ply, read.expanded_by_ply);
        assert_eq!(counted.move_ms.len(), 3);
        assert_eq!(counted.summary, read.summary);
    }

    fn is_png(path: &std::path::Path) -> bool {
        let bytes = std::fs::read(path).expect("png");
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR" && bytes.len() > 1000
    }

    #[test]
    fn every_chart_renders_as_svg_and_png_with_its_labels() {
        let folder = fixture();
        let data = RunData::load(folder.path()).expect("loads");
        let written = tournament_report(&data).expect("report");
        assert_eq!(written.len(), 2);
        for (stem, labels) in [
            (
                "winrate_matrix",
                vec![
                    "random (1)",
                    "greedy(heuristic=offensive2) (2)",
                    "opponent",
                    "of 6",
                ],
            ),
            ("winrate_matrix_p1", vec!["playing P1", "of 3"]),
            (
                "winrates",
                vec![
                    "random vs greedy(heuristic=offensive2)",
                    "95% Wilson interval",
                    "50%",
                ],
            ),
            (
                "time_per_move",
                vec![
                    "milliseconds per move",
                    "alphabeta(heuristic=defense,depth=2)",
                ],
            ),
            (
                "game_length",
                vec![
                    "plies per game",
                    "greedy(heuristic=offensive2) vs alphabeta(heuristic=defense,depth=2)",
                ],
            ),
        ] {
            let svg =
                std::fs::read_to_string(folder.path().join(format!("{stem}.svg"))).expect(stem);
            assert!(
                svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"),
                "{stem}"
            );
            for label in labels {
                assert!(svg.contains(&escape(label)), "{stem}.svg lacks '{label}'");
            }
            assert!(
                is_png(&folder.path().join(format!("{stem}.png"))),
                "{stem}.png"
            );
        }
        let markdown = std::fs::read_to_string(folder.path().join("report.md")).expect("md");
        assert!(markdown.contains("| 0 | random | 6 | "), "{markdown}");
        assert!(markdown.contains("![Win rate with 95% interval](winrates.svg)"));
        let html = std::fs::read_to_string(folder.path().join("index.html")).expect("html");
        assert!(html.contains("<td>greedy(heuristic=offensive2)</td>"));
        assert_eq!(html.matches("<svg").count(), 6, "charts are inline");
        assert!(folder.path().join("nodes_by_ply.svg").is_file());
        assert!(!html.contains("src=\"http"), "self-contained");
    }

    #[test]
    fn a_run_is_read_into_running_totals_and_stray_moves_are_named() {
        let folder = fixture();
        let data = RunData::load(folder.path()).expect("loads");
        assert_eq!(data.games, 18);
        let by_seats: u64 = data.pairings.values().map(|o| o.games()).sum();
        let lengths: u64 = data.plies.values().map(|s| s.len()).sum();
        assert_eq!((by_seats, lengths), (18, 18));
        let moves = std::fs::read_to_string(folder.path().join("moves.csv")).expect("moves");
        let rows = moves.lines().count() as u64 - 1;
        let timed: u64 = data.move_ms.values().map(|s| s.len()).sum();
        let counted: u64 = data
            .expanded_by_ply
            .values()
            .flat_map(|by_ply| by_ply.values().map(|&(_, moves)| moves))
            .sum();
        assert_eq!((timed, counted), (rows, rows));
        let last = moves.lines().last().expect("a move");
        let stray = last.replacen(last.split(',').next().expect("id"), "999", 1);
        std::fs::write(folder.path().join("moves.csv"), format!("{moves}{stray}\n"))
            .expect("write");
        let error = RunData::load(folder.path()).expect_err("refused");
        assert!(
            error.ends_with(&format!(
                "moves.csv: line {}: game 999 is not in games.csv (or not in its order)",
                rows + 2
            )),
            "{error}"
        );
    }

    #[test]
    fn draw_grid_needs_a_grid_and_counts_draws() {
        let folder = fixture();
        let data = RunData::load(folder.path()).expect("loads");
        let grid = draw_grid(&data).expect("2 first agents x 2 second agents");
        assert_eq!(grid.headers.len(), 3);
        assert_eq!(grid.rows.len(), 2);
        assert_eq!(grid.rows[0][1], "0/6");
        assert_eq!(grid.rows[1][1], "-", "greedy never met greedy");
        let table = summary_table(&data.summary);
        assert_eq!(table.rows.len(), 6);
        assert!(
            table
                .markdown()
                .starts_with("| matchup | agent | games | wins |")
        );
    }
}
