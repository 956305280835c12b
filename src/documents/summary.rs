//! The results table of a game run (summary.csv's rows) for a reader: as Markdown, HTML
//! or aligned text, how the games ended per agent, the self-play note.

use super::table::Table;
use crate::records::summary::ENDINGS;
use crate::records::{SummaryRow, elo_text};

/// Where the return columns go: after the matchup, agent, games, wins, losses, draws, win
/// rate and Elo columns.
const RETURNS_AT: usize = 8;

/// The per-matchup results in the style of the course reports: one row per matchup and
/// agent with wins, losses, draws, the win rate and its 95% interval, the Elo difference
/// and its interval, LOS, P1 results, nodes and time per move, captures and game length,
/// and the SPRT verdict where there is one.
pub fn summary_table(rows: &[SummaryRow]) -> Table {
    let with_sprt = rows.iter().any(|r| !r.sprt.is_empty());
    let mut headers: Vec<String> = [
        "matchup",
        "agent",
        "games",
        "wins",
        "losses",
        "draws",
        "win rate (95%)",
        "Elo (95%)",
        "LOS",
        "P1 w/d/games",
        "nodes/move",
        "ms/move",
        "captures",
        "plies",
    ]
    .iter()
    .map(|h| h.to_string())
    .collect();
    if with_sprt {
        headers.push("SPRT (LLR)".to_string());
    }
    // Returns per game where the game scores more than who won (chips at poker): beside
    // the win rate and Elo, where a reader of a poker run looks first.
    let with_returns = rows.iter().any(|r| r.mean_return.is_some());
    if with_returns {
        headers.splice(
            RETURNS_AT..RETURNS_AT,
            ["return/game (95%)", "by pairs (95%)"].map(String::from),
        );
    }
    // Results not decided by the game's rules, where there are any.
    let with_endings = rows.iter().any(|r| !not_by_the_rules(r).is_empty());
    if with_endings {
        headers.push("not by the rules (w/l/d)".to_string());
    }
    let rows = rows
        .iter()
        .map(|r| {
            if r.games == 0 {
                let mut row = vec![r.matchup.to_string(), r.agent.clone(), "0".to_string()];
                row.extend(["-"; 3].map(String::from));
                row.push("not played".to_string());
                row.resize(headers.len(), "-".to_string());
                return row;
            }
            let mut row = vec![
                r.matchup.to_string(),
                r.agent.clone(),
                r.games.to_string(),
                r.wins.to_string(),
                r.losses.to_string(),
                r.draws.to_string(),
                format!(
                    "{:.1}% ({:.1}-{:.1})",
                    100.0 * r.win_rate,
                    100.0 * r.win_rate_low95,
                    100.0 * r.win_rate_high95
                ),
                elo_text(r.elo, r.elo_low95, r.elo_high95),
                format!("{:.1}%", 100.0 * r.los),
                format!("{}/{}/{}", r.wins_as_p1, r.draws_as_p1, r.games_as_p1),
                if r.avg_expanded_per_move.is_nan() {
                    "-".to_string()
                } else {
                    format!("{:.1}", r.avg_expanded_per_move)
                },
                format!("{:.3}", r.avg_ms_per_move),
                format!("{:.2}", r.avg_captures),
                format!("{:.1}", r.avg_plies),
            ];
            if with_sprt {
                row.push(match r.llr {
                    Some(llr) => format!("{} ({llr:+.2})", r.sprt),
                    None => String::new(),
                });
            }
            if with_returns {
                let interval = |low: Option<f64>, high: Option<f64>| match low.zip(high) {
                    Some((low, high)) => format!("{low:+.3} .. {high:+.3}"),
                    None => "-".to_string(),
                };
                let mean = match r.mean_return {
                    Some(mean) => format!(
                        "{mean:+.3} ({})",
                        interval(r.mean_return_low95, r.mean_return_high95)
                    ),
                    None => "-".to_string(),
                };
                let pairs = interval(r.pair_return_low95, r.pair_return_high95);
                row.splice(RETURNS_AT..RETURNS_AT, [mean, pairs]);
            }
            if with_endings {
                row.push(not_by_the_rules(r));
            }
            row
        })
        .collect();
    Table { headers, rows }
}

/// A row's results that the game's rules did not decide, as `timeout 2/0/0, crash
/// 0/1/0` (wins/losses/draws by each ending other than `goal`); empty when there are none.
pub fn not_by_the_rules(row: &SummaryRow) -> String {
    not_by_the_rules_text(&row.wins_by, &row.losses_by, &row.draws_by)
}

/// Results by ending (`wins_by`, `losses_by`, `draws_by` texts) not decided by the game's
/// rules, as `timeout 2/0/0, crash 0/1/0`; empty when there are none.
pub fn not_by_the_rules_text(wins_by: &str, losses_by: &str, draws_by: &str) -> String {
    let count = |text: &str, ending: &str| -> u64 {
        text.split(';')
            .filter_map(|part| part.split_once('='))
            .find(|(e, _)| *e == ending)
            .and_then(|(_, n)| n.parse().ok())
            .unwrap_or(0)
    };
    ENDINGS[1..]
        .iter()
        .filter_map(|ending| {
            let [w, l, d] = [wins_by, losses_by, draws_by].map(|t| count(t, ending));
            (w + l + d > 0).then(|| format!("{ending} {w}/{l}/{d}"))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each agent's results over the whole run by how its games ended: one row per agent
/// (first-seen order) with games, wins, losses and draws, and a `w/l/d` column for each
/// ending that occurred. `None` when every game ended by the rules (the matchup tables
/// say it all then).
pub fn endings_table(rows: &[SummaryRow]) -> Option<Table> {
    let mut agents: Vec<(String, [u64; 3], [[u64; ENDINGS.len()]; 3])> = Vec::new();
    for row in rows {
        let index = match agents.iter().position(|(a, _, _)| *a == row.agent) {
            Some(i) => i,
            None => {
                agents.push((row.agent.clone(), [0; 3], [[0; ENDINGS.len()]; 3]));
                agents.len() - 1
            }
        };
        let (_, totals, by) = &mut agents[index];
        for (result, (count, text)) in [
            (row.wins, &row.wins_by),
            (row.losses, &row.losses_by),
            (row.draws, &row.draws_by),
        ]
        .into_iter()
        .enumerate()
        {
            totals[result] += count;
            for (ending, n) in text.split(';').filter_map(|part| part.split_once('=')) {
                if let (Some(e), Ok(n)) =
                    (ENDINGS.iter().position(|&x| x == ending), n.parse::<u64>())
                {
                    by[result][e] += n;
                }
            }
        }
    }
    let used: Vec<usize> = (0..ENDINGS.len())
        .filter(|&e| agents.iter().any(|(_, _, by)| by.iter().any(|r| r[e] > 0)))
        .collect();
    if used.iter().all(|&e| e == 0) {
        return None;
    }
    let mut headers: Vec<String> = ["agent", "games", "wins", "losses", "draws"]
        .map(String::from)
        .to_vec();
    headers.extend(used.iter().map(|&e| format!("{} w/l/d", ENDINGS[e])));
    let rows = agents
        .iter()
        .filter(|(_, totals, _)| totals.iter().sum::<u64>() > 0)
        .map(|(agent, totals, by)| {
            let mut row = vec![agent.clone(), totals.iter().sum::<u64>().to_string()];
            row.extend(totals.iter().map(u64::to_string));
            row.extend(used.iter().map(|&e| {
                let [w, l, d] = [by[0][e], by[1][e], by[2][e]];
                if w + l + d == 0 {
                    "-".to_string()
                } else {
                    format!("{w}/{l}/{d}")
                }
            }));
            row
        })
        .collect();
    Some(Table { headers, rows })
}

/// What is said of a matchup whose two agents are one agent (self-play).
pub const SELF_PLAY_NOTE: &str = "one agent in both seats (self-play): the rows are its games as the first- and as the second-listed agent, each seat drawing its own random stream; P1 w/d/games shows the first-move advantage";

/// The matchups whose two agents are one agent (the same name), in order.
pub fn self_play_matchups(rows: &[SummaryRow]) -> Vec<usize> {
    let mut matchups: Vec<usize> = rows
        .chunks(2)
        .filter(|pair| matches!(pair, [a, b] if a.matchup == b.matchup && a.agent == b.agent))
        .map(|pair| pair[0].matchup)
        .collect();
    matchups.dedup();
    matchups
}

/// The summary as aligned text tables, one per matchup, in the style of the reports.
pub fn format_summary(rows: &[SummaryRow]) -> String {
    let mut out = String::new();
    let mut matchups: Vec<usize> = rows.iter().map(|r| r.matchup).collect();
    matchups.dedup();
    for matchup in matchups {
        let group: Vec<SummaryRow> = rows
            .iter()
            .filter(|r| r.matchup == matchup)
            .cloned()
            .collect();
        let title = match group.as_slice() {
            [a, b, ..] if a.games == 0 => {
                out.push_str(&format!(
                    "matchup {matchup}: {} vs {}: not played\n\n",
                    a.agent, b.agent
                ));
                continue;
            }
            [a, b, ..] => format!("matchup {matchup}: {} vs {}", a.agent, b.agent),
            _ => format!("matchup {matchup}"),
        };
        let mut table = summary_table(&group);
        // The matchup is in the title: drop its column.
        table.headers.remove(0);
        table.rows.iter_mut().for_each(|row| {
            row.remove(0);
        });
        out.push_str(&title);
        out.push('\n');
        if matches!(group.as_slice(), [a, b, ..] if a.agent == b.agent) {
            out.push_str(&format!("  {SELF_PLAY_NOTE}\n"));
        }
        out.push_str(&table.aligned());
        out.push('\n');
    }
    out
}

/// Each agent's moves graded against perfect play (grades.csv): moves, graded, errors, the
/// error rate with its 95% interval, the three kinds of error and the errors (of graded
/// moves) in each third of the game; with the plies to the end measured (grading with
/// distances), the moves from won positions that kept the fastest win and the plies the
/// others added on average.
///
/// The agents come in order of error rate, lowest first (those with no graded move last),
/// each with its score over the run beside it when `scores` has it: the course's
/// heuristics ranked by how far from perfect they play, next to how often they win.
pub fn grades_table(
    agents: &[crate::records::grades::AgentGrades],
    scores: &crate::records::grades::Scores,
) -> Table {
    let distances = crate::records::grades::with_distances(agents);
    let mut agents: Vec<&crate::records::grades::AgentGrades> = agents.iter().collect();
    let rate = |agent: &crate::records::grades::AgentGrades| {
        agent
            .error_rate()
            .map_or(f64::INFINITY, |(rate, _, _)| rate)
    };
    agents.sort_by(|a, b| rate(a).total_cmp(&rate(b)));
    let scored = !scores.is_empty();
    let mut headers = vec!["agent"];
    if scored {
        headers.push("score");
    }
    headers.extend([
        "moves",
        "graded",
        "errors",
        "error rate [95%]",
        "win>loss",
        "win>draw",
        "draw>loss",
        "opening",
        "middle",
        "end",
    ]);
    if distances {
        headers.extend(["fastest wins", "plies added"]);
    }
    let rows = agents
        .iter()
        .map(|agent| {
            let score = scores
                .get(&agent.agent)
                .map_or("-".to_string(), |&(points, games)| {
                    if games == 0 {
                        "-".to_string()
                    } else {
                        format!("{:.1}% of {games}", 100.0 * points / games as f64)
                    }
                });
            let rate = agent
                .error_rate()
                .map_or("-".to_string(), |(rate, low, high)| {
                    format!(
                        "{:.1}% [{:.1}%, {:.1}%]",
                        100.0 * rate,
                        100.0 * low,
                        100.0 * high
                    )
                });
            let mut row = vec![agent.agent.clone()];
            if scored {
                row.push(score);
            }
            row.extend([
                agent.moves.to_string(),
                agent.graded.to_string(),
                agent.errors.to_string(),
                rate,
                agent.win_to_loss.to_string(),
                agent.win_to_draw.to_string(),
                agent.draw_to_loss.to_string(),
            ]);
            row.extend(
                agent
                    .phases
                    .iter()
                    .map(|(graded, errors)| format!("{errors}/{graded}")),
            );
            if distances {
                // Of the moves that kept a measured win, those that kept the fastest; the
                // plies the others added, on average.
                row.push(format!("{}/{}", agent.fastest, agent.winning));
                row.push(
                    agent
                        .plies_added()
                        .map_or("-".to_string(), |plies| format!("{plies:.1}")),
                );
            }
            row
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// Each agent's points (a win 1, a draw 1/2) and games over the run's matchups, as the
/// table of grades shows them.
pub fn scores_of(rows: &[SummaryRow]) -> crate::records::grades::Scores {
    let mut scores = crate::records::grades::Scores::new();
    for row in rows {
        let entry = scores.entry(row.agent.clone()).or_insert((0.0, 0));
        entry.0 += row.wins as f64 + row.draws as f64 / 2.0;
        entry.1 += row.games;
    }
    scores
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::grades::{AgentGrades, Scores};

    fn graded(agent: &str, graded: u64, errors: u64) -> AgentGrades {
        AgentGrades {
            agent: agent.to_string(),
            moves: graded + 5,
            graded,
            errors,
            win_to_loss: errors,
            ..AgentGrades::default()
        }
    }

    #[test]
    fn grades_come_in_order_of_error_rate_with_each_agent_s_score() {
        let agents = [
            graded("often wrong", 10, 5),
            graded("never graded", 0, 0),
            graded("seldom wrong", 100, 1),
        ];
        let mut scores = Scores::new();
        scores.insert("often wrong".to_string(), (3.5, 10));
        scores.insert("seldom wrong".to_string(), (1.0, 4));
        let table = grades_table(&agents, &scores);
        assert_eq!(table.headers[..3], ["agent", "score", "moves"]);
        let column = |c: usize| table.rows.iter().map(|r| r[c].as_str()).collect::<Vec<_>>();
        assert_eq!(column(0), ["seldom wrong", "often wrong", "never graded"]);
        assert_eq!(column(1), ["25.0% of 4", "35.0% of 10", "-"]);
        // Without scores (a run's summary not at hand), no column for them.
        let table = grades_table(&agents, &Scores::new());
        assert_eq!(table.headers[..2], ["agent", "moves"]);
        assert_eq!(table.rows[0][0], "seldom wrong");
    }

    #[test]
    fn an_agent_s_score_adds_its_matchups_with_draws_as_halves() {
        let row = |agent: &str, games, wins, draws| SummaryRow {
            agent: agent.to_string(),
            games,
            wins,
            draws,
            ..SummaryRow::default()
        };
        let scores = scores_of(&[row("a", 10, 4, 2), row("b", 10, 4, 2), row("a", 6, 6, 0)]);
        assert_eq!(scores["a"], (11.0, 16));
        assert_eq!(scores["b"], (5.0, 10));
    }
}
