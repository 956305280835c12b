//! report.md and index.html of a results folder, with its charts: made from the files
//! alone, so `arbiter report` can remake them after a style change without replaying.

use super::charts::{self, BoxChart, Interval, IntervalChart, SweepChart, WinMatrix};
use super::page::write_documents;
use super::section::{Figure, Section};
use super::summary_table;
use super::tables::{draw_grid, left_out_table, ratings_table, standings_table, sweep_table};
use crate::records::RoundsFormat;
use crate::records::grades::AgentGrades;
use crate::records::load::{RunData, win_matrix};
use crate::records::loaded::LoadedRun;
use crate::registry::InputError;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The most agents a win-rate matrix shows, and the most rows (agents or matchups) any
/// other chart shows: past them a chart cannot be read, and its bitmap grows with the
/// square of the players (a 200-player Swiss drew a 19,000 x 14,000 pixel matrix, 0.8 GB).
/// A run with more charts the best placed; its tables keep every row.
const MATRIX_AGENTS: usize = 24;
const CHART_ROWS: usize = 60;

/// Each agent's points per game over the run (wins and half the draws), by name.
fn points_per_game(data: &RunData) -> BTreeMap<&str, f64> {
    let mut points: BTreeMap<&str, (f64, u64)> = BTreeMap::new();
    for row in &data.summary {
        let entry = points.entry(row.agent.as_str()).or_default();
        entry.0 += row.wins as f64 + row.draws as f64 / 2.0;
        entry.1 += row.games;
    }
    points
        .into_iter()
        .map(|(agent, (won, games))| (agent, won / games.max(1) as f64))
        .collect()
}

/// `rows` (each an agent's, by name) as a chart shows them: all, in their order, when
/// they are at most `most`; else the `most` best placed, best first (ties in their
/// order). Also what a title says of the cut.
fn best_placed<T>(
    mut rows: Vec<(String, T)>,
    data: &RunData,
    most: usize,
) -> (Vec<(String, T)>, String) {
    if rows.len() <= most {
        return (rows, String::new());
    }
    let total = rows.len();
    by_points(&mut rows, data);
    rows.truncate(most);
    (rows, format!(" (the {most} best placed of {total} agents)"))
}

/// Sorts `rows` (each an agent's, by name) best placed first, ties in their order.
fn by_points<T>(rows: &mut [(String, T)], data: &RunData) {
    let points = points_per_game(data);
    let score = |agent: &str| points.get(agent).copied().unwrap_or(-1.0);
    rows.sort_by(|a, b| score(&b.0).total_cmp(&score(&a.0)));
}

/// The first matchup of each pair of summary rows, cut to [`CHART_ROWS`] when a run has
/// more: those whose better agent is placed highest (then the other). Also what a title
/// says of the cut.
fn charted_matchups<'a>(
    data: &'a RunData,
    agents: &[String],
) -> (Vec<&'a crate::records::SummaryRow>, String) {
    let played: Vec<&crate::records::SummaryRow> = data
        .summary
        .chunks(2)
        .filter_map(|pair| pair.first())
        .filter(|r| r.games > 0)
        .collect();
    if played.len() <= CHART_ROWS {
        return (played, String::new());
    }
    let mut ranked: Vec<(String, ())> = agents.iter().map(|a| (a.clone(), ())).collect();
    by_points(&mut ranked, data);
    let place: BTreeMap<&str, usize> = ranked
        .iter()
        .enumerate()
        .map(|(at, (agent, _))| (agent.as_str(), at))
        .collect();
    let at = |agent: &str| place.get(agent).copied().unwrap_or(usize::MAX);
    let mut kept = played.clone();
    kept.sort_by_key(|r| {
        let (a, b) = (at(&r.agent), at(&r.opponent));
        (a.min(b), a.max(b))
    });
    kept.truncate(CHART_ROWS);
    // Back in the run's order.
    kept.sort_by_key(|r| r.matchup);
    let note = format!(
        " ({CHART_ROWS} of {} matchups: those of the best placed agents)",
        played.len()
    );
    (kept, note)
}

/// Draws the run's charts into its folder; returns the sections that show them.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn tournament_charts(run: &LoadedRun, data: &RunData) -> Result<Vec<Section>, InputError> {
    let folder = &run.folder;
    let mut sections = Vec::new();
    let agents = data.agents(run.meta.as_ref());
    sections.extend(win_rate_matrices(folder, data, &agents)?);
    let (matchups, cut) = charted_matchups(data, &agents);
    let rows: Vec<Interval> = matchups
        .into_iter()
        .map(|r| Interval {
            label: format!("{} vs {}", r.agent, r.opponent),
            value: r.win_rate,
            low: r.win_rate_low95,
            high: r.win_rate_high95,
        })
        .collect();
    if !rows.is_empty() {
        let svg = charts::save(
            &IntervalChart {
                title: format!("Win rate of the first agent of each matchup{cut}"),
                x_desc: "games won (%), bar: 95% Wilson interval".to_string(),
                rows,
                even: 0.5,
            },
            folder,
            "winrates",
        )?;
        sections.push(Section {
            title: "Win rate per matchup".to_string(),
            charts: vec![Figure::new("winrates", "Win rate with 95% interval", svg)],
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
    let (times, cut) = best_placed(times, data, CHART_ROWS);
    if !times.is_empty() {
        let svg = charts::save(
            &BoxChart {
                title: format!("Time per move{cut}"),
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
            charts: vec![Figure::new("time_per_move", "Time per move", svg)],
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
    let (series, cut) = best_placed(series, data, MATRIX_AGENTS);
    if !series.is_empty() {
        let svg = charts::save(
            &charts::LogLines {
                title: format!("Nodes expanded per move as the game goes on{cut}"),
                x_desc: "ply of the move (from 1; a dice roll or a deal counts too)".to_string(),
                y_desc: "nodes expanded per move (mean, log scale)".to_string(),
                series,
                references: Vec::new(),
            },
            folder,
            "nodes_by_ply",
        )?;
        sections.push(Section {
            title: "Nodes per move by ply".to_string(),
            charts: vec![Figure::new(
                "nodes_by_ply",
                "Nodes expanded per move against the ply",
                svg,
            )],
            ..Section::default()
        });
    }
    sections.extend(game_length_section(folder, data, &agents)?);
    Ok(sections)
}

/// The win-rate matrices (both colours, and the row agent as P1) of a run of two agents
/// or more that played.
fn win_rate_matrices(
    folder: &std::path::Path,
    data: &RunData,
    agents: &[String],
) -> Result<Option<Section>, InputError> {
    let matrix = win_matrix(agents, &data.pairings, false);
    let played = matrix.iter().flatten().any(|c| c.games > 0);
    if !played || agents.len() < 2 {
        return Ok(None);
    }
    let (rows, cut) = best_placed(
        agents.iter().map(|a| (a.clone(), ())).collect(),
        data,
        MATRIX_AGENTS,
    );
    let agents: Vec<String> = rows.into_iter().map(|(agent, ())| agent).collect();
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
            .map(|row| row.into_iter().map(|c| (c.wins as f64, c.games)).collect())
            .collect();
        let svg = charts::save(
            &WinMatrix {
                title: format!("{title}{cut}"),
                agents: agents.clone(),
                cells,
                columns: "opponent".to_string(),
            },
            folder,
            stem,
        )?;
        section.charts.push(Figure::new(stem, title, svg));
    }
    Ok(Some(section))
}

/// The box plot of game lengths per matchup.
fn game_length_section(
    folder: &std::path::Path,
    data: &RunData,
    agents: &[String],
) -> Result<Option<Section>, InputError> {
    let (matchups, cut) = charted_matchups(data, agents);
    let labels: BTreeMap<usize, String> = matchups
        .iter()
        .map(|r| (r.matchup, format!("{} vs {}", r.agent, r.opponent)))
        .collect();
    let rows: Vec<(String, [f64; 5])> = data
        .plies
        .iter()
        .filter_map(|(m, plies)| {
            let label = match labels.get(m) {
                Some(label) => label.clone(),
                // A matchup the summary does not name; left out with the rest of a cut.
                None if cut.is_empty() => format!("matchup {m}"),
                None => return None,
            };
            plies.five_numbers().map(|f| (label, f))
        })
        .collect();
    if rows.is_empty() {
        return Ok(None);
    }
    let svg = charts::save(
        &BoxChart {
            title: format!("Game length{cut}"),
            x_desc: "plies per game; box: quartiles, bar: median, line: range".to_string(),
            rows,
            log: false,
        },
        folder,
        "game_length",
    )?;
    Ok(Some(Section {
        title: "Game length".to_string(),
        charts: vec![Figure::new("game_length", "Game length", svg)],
        ..Section::default()
    }))
}

/// One chart per parameter sweep (from meta.json): each opponent's line of the variants'
/// win rates against the swept value, with a table of the same numbers.
///
/// # Errors
/// A chart that cannot be drawn or written.
pub fn sweep_sections(run: &LoadedRun, data: &RunData) -> Result<Vec<Section>, InputError> {
    let Some(meta) = &run.meta else {
        return Ok(Vec::new());
    };
    let mut sections = Vec::new();
    // Each matchup's agents' moves graded against perfect play (`arbiter grade`).
    let grades = crate::records::grades::read_by_matchup(&run.folder)?;
    for (number, sweep) in meta.sweeps.iter().enumerate() {
        let find = |variant: &str, opponent: &str| {
            data.summary
                .iter()
                .find(|r| r.agent == variant && r.opponent == opponent && r.games > 0)
        };
        // One line per opponent: a point per variant.
        let lines_of = |point: &dyn Fn(&str, &str) -> charts::SweepPoint| {
            sweep
                .opponents
                .iter()
                .map(|opponent| {
                    let points = sweep.variants.iter().map(|v| point(v, opponent)).collect();
                    (format!("vs {opponent}"), points)
                })
                .collect::<Vec<(String, Vec<charts::SweepPoint>)>>()
        };
        let lines = lines_of(&|variant, opponent| {
            find(variant, opponent).map(|r| (r.win_rate, r.win_rate_low95, r.win_rate_high95))
        });
        let stem = format!("sweep_{}", number + 1);
        let svg = charts::save(
            &SweepChart {
                title: format!("Win rate against {}", sweep.key),
                x_desc: format!("{} (swept parameter)", sweep.key),
                values: sweep.values.clone(),
                lines,
                y_desc: charts::WIN_RATE_AXIS.to_string(),
                axis: (0.0, 1.0),
            },
            &run.folder,
            &stem,
        )?;
        let mut section = Section {
            after: Vec::new(),
            title: format!("Sweep of {}", sweep.key),
            text: vec!["Every variant met each opponent with the same seeds and openings (a paired comparison): win rate with its 95% interval.".to_string()],
            tables: vec![sweep_table(&data.summary, sweep)],
            charts: vec![Figure::new(stem, format!("Win rate against {}", sweep.key), svg)],
        };
        // With the moves graded: each variant's error rate against the swept value and,
        // with distances, its share of winning moves that kept the fastest win.
        let graded_rate = |rate: fn(&AgentGrades) -> charts::SweepPoint| {
            lines_of(&|variant, opponent| {
                let matchup = find(variant, opponent)?.matchup;
                let (_, graded) = grades
                    .as_ref()?
                    .iter()
                    .find(|(m, a)| *m == matchup && a.agent == variant)?;
                rate(graded)
            })
        };
        let graded_charts = [
            (
                "errors",
                "Error rate",
                "moves that lost value (%), bar: 95% Wilson interval",
                graded_rate(AgentGrades::error_rate),
                "Each variant's moves graded against perfect play (grades.csv): the share that turned a win into a draw or a loss, or a draw into a loss.",
            ),
            (
                "fastest",
                "Fastest wins",
                "fastest winning moves (%), bar: 95% Wilson",
                graded_rate(AgentGrades::fastest_rate),
                "Graded with distances: of each variant's moves from a won position that kept the win, the share that kept the fastest one (a lower share: the win came later than it could).",
            ),
        ];
        for (suffix, name, y_desc, lines, text) in graded_charts {
            if !lines
                .iter()
                .any(|(_, points)| points.iter().any(Option::is_some))
            {
                continue;
            }
            let stem = format!("sweep_{}_{suffix}", number + 1);
            let title = format!("{name} against {}", sweep.key);
            let svg = charts::save(
                &SweepChart {
                    title: title.clone(),
                    x_desc: format!("{} (swept parameter)", sweep.key),
                    values: sweep.values.clone(),
                    axis: charts::rate_axis(&lines),
                    lines,
                    y_desc: y_desc.to_string(),
                },
                &run.folder,
                &stem,
            )?;
            section.text.push(text.to_string());
            section.charts.push(Figure::new(stem, title, svg));
        }
        sections.push(section);
    }
    Ok(sections)
}

/// Charts, report.md and index.html of a tournament run folder.
///
/// # Errors
/// A file that cannot be read, drawn or written.
pub fn tournament_report(run: &LoadedRun, data: &RunData) -> Result<Vec<PathBuf>, InputError> {
    let mut text = vec![
        "Per matchup and agent: games won, lost and drawn, the win rate with its 95% Wilson interval, wins when playing P1, nodes expanded and milliseconds per move, enemy pieces captured per game and game length in plies.".to_string(),
    ];
    if data.summary.iter().any(|r| r.mean_return.is_some()) {
        text.push("Return/game: the game scores more than who won (the chips of poker), so each agent's mean return per game is shown with its 95% interval, and by pairs the same mean from the colour-swapped pairs, each pair's two returns added: with the same deal in both games of a pair the cards' luck cancels, and that interval is the one to read. Who won and how much are different questions: an agent can win most games and lose chips.".to_string());
    }
    if let Some(sprt) = run.meta.as_ref().and_then(|m| m.sprt) {
        text.push(format!(
            "SPRT (LLR): one sequential test per matchup, of its first agent against its second, shown on both rows: H1 says the first agent is about {} Elo stronger or more, H0 about {} or less ({} Elo); LLR bounds {:.2} and {:.2}.",
            sprt.elo1,
            sprt.elo0,
            sprt.model.name(),
            sprt.bounds().0,
            sprt.bounds().1,
        ));
    }
    if let Some(meta) = run.meta.as_ref() {
        text.extend(super::external_note(meta));
        text.extend(super::reading_notes(meta));
    }
    // A tournament in rounds: its standings first, and only the pairs it played.
    let format = run.meta.as_ref().and_then(|m| m.format);
    let played: Vec<_> = data
        .summary
        .iter()
        .filter(|r| format.is_none() || r.games > 0)
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
    if let Some(format) = format
        && let Some(standings) = run.standings.as_ref().map(standings_table)
    {
        sections.push(Section {
            after: Vec::new(),
            title: format!("Standings ({format})"),
            text: vec![match format {
                RoundsFormat::Swiss => "Points (a game won 1, a draw 1/2, a bye every game of its pairing), then Buchholz (the opponents' points summed), then the seeded draw. Each round's pairings and points are in rounds.csv.".to_string(),
                RoundsFormat::Knockout => "The round each player reached (the champion one more), then Buchholz, then the seeded draw. Each match's games and points are in rounds.csv.".to_string(),
            }],
            tables: vec![standings],
            charts: vec![],
        });
    }
    if let Some(table) = run.meta.as_ref().and_then(left_out_table) {
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
    if let Some(grades) = crate::records::grades::read(&run.folder)? {
        let mut text = vec!["From `arbiter grade` or the experiment's `grade = true` (grades.csv, one row a move): each position solved exactly, each move graded from its mover's view. An error turned a win into a loss or a draw, or a draw into a loss; the error rate is errors per graded move with its 95% Wilson interval. Moves next to a position beyond the solver's budget are not graded. Opening, middle and end: errors of the graded moves in each third of the game. The agents come in order of error rate, lowest first, each with its score over the run (points per game: a win 1, a draw 1/2).".to_string()];
        if crate::records::grades::with_distances(&grades) {
            text.push("Graded with distances (the plies to the end under perfect play): fastest wins are the moves from a won position that kept the shortest win, of those that kept the win; plies added, how much longer the others made it on average.".to_string());
        }
        sections.push(Section {
            after: Vec::new(),
            title: "Play graded against perfect play".to_string(),
            text,
            tables: vec![super::summary::grades_table(
                &grades,
                &super::summary::scores_of(&played),
            )],
            charts: vec![],
        });
    }
    if let Some(ratings) = ratings_table(run.meta.as_ref(), data) {
        sections.push(Section {
            after: Vec::new(),
            title: "Ratings".to_string(),
            text: vec!["Bradley-Terry ratings fitted to every game of the run (draws count half), on the Elo scale with the agents averaging 0; one virtual draw between every two agents keeps them finite. The interval is 95% from the Fisher information.".to_string()],
            tables: vec![ratings],
            charts: vec![],
        });
    }
    sections.extend(sweep_sections(run, data)?);
    sections.extend(super::scaling::scaling_sections(run, data)?);
    sections.extend(tournament_charts(run, data)?);
    let title = run
        .meta
        .as_ref()
        .map_or("arbiter results".to_string(), |m| {
            format!("{}: results", m.experiment)
        });
    write_documents(run, &title, &sections)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::table::escape;
    use crate::games::breakthrough::{Breakthrough, Rules};
    use crate::records::loaded::Reading;
    use crate::records::{CsvRecorder, Reporter, RunContext, RunOutcome};
    use crate::registry::{AgentSpec, Colours};
    use crate::tournament;

    /// A small results folder made by really playing: three agents, a round robin.
    fn fixture() -> tempfile::TempDir {
        recorded().0
    }

    /// The folder of [`fixture`], and what its recorder counted of the games.
    fn recorded() -> (tempfile::TempDir, Option<crate::records::load::GamesTally>) {
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
        let mut context = RunContext::new(
            "breakthrough(rules=standard)".into(),
            "standard".into(),
            names.iter().map(|n| n.to_string()).collect(),
            pairs,
        );
        context.experiment = "fixture \"quoted\"".into();
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
        let counted = LoadedRun::read_with(
            folder.path(),
            Reading::Documents,
            Some(tally.expect("the recorder ended")),
        )
        .expect("summary");
        let counted = counted.games().expect("a game run");
        let read = LoadedRun::read(folder.path(), Reading::Documents).expect("loads");
        let read = read.games().expect("a game run");
        assert_eq!(counted.games, 18);
        assert_eq!(counted.games, read.games);
        assert_eq!(counted.pairings, read.pairings);
        assert_eq!(counted.plies, read.plies);
        // Milliseconds as moves.csv wrote them (four decimals), not as measured.
        assert_eq!(counted.move_ms, read.move_ms);
        assert_eq!(counted.expanded_by_ply, read.expanded_by_ply);
        assert_eq!(counted.move_ms.len(), 3);
        assert_eq!(counted.summary, read.summary);
        // games.pgn as the recorder wrote it is what `arbiter report` makes of games.csv.
        assert!(counted.game_records_written && !read.game_records_written);
        let records = folder.path().join(crate::records::pgn::GAME_RECORDS);
        let written = std::fs::read_to_string(&records).expect("games.pgn");
        assert_eq!(written.matches("[GameId ").count(), 18);
        crate::records::pgn::write_game_records(folder.path(), "fixture \"quoted\"")
            .expect("remade");
        assert_eq!(
            written,
            std::fs::read_to_string(&records).expect("games.pgn")
        );
    }

    fn is_png(path: &std::path::Path) -> bool {
        let bytes = std::fs::read(path).expect("png");
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR" && bytes.len() > 1000
    }

    #[test]
    fn every_chart_renders_as_svg_and_png_with_its_labels() {
        let folder = fixture();
        let run = LoadedRun::read(folder.path(), Reading::Documents).expect("loads");
        let written = tournament_report(&run, run.games().expect("games")).expect("report");
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
        let run = LoadedRun::read(folder.path(), Reading::Documents).expect("loads");
        let data = run.games().expect("a game run");
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
        let error = LoadedRun::read(folder.path(), Reading::Documents)
            .err()
            .expect("refused")
            .to_string();
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
        let run = LoadedRun::read(folder.path(), Reading::Documents).expect("loads");
        let data = run.games().expect("a game run");
        let grid = draw_grid(data).expect("2 first agents x 2 second agents");
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
