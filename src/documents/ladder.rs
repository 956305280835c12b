//! The ladder of agents over many runs: ratings fitted to every game, their history, the
//! page that shows them.

use super::summary::not_by_the_rules_text;
use super::table::{Table, escape};
use crate::records::ladder::RunGames;
use crate::records::summary::{ENDINGS, endings_text};
use crate::registry::InputError;
use crate::stats::ratings::{Rating, Results, bradley_terry_anchored};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One agent's line of the ladder.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct LadderRow {
    /// Place, from 1.
    pub rank: usize,
    /// The agent's name.
    pub agent: String,
    /// Rating on the Elo scale (average 0, or the anchor's 0).
    pub elo: f64,
    /// Lower end of its 95% interval.
    pub elo_low95: f64,
    /// Upper end of its 95% interval.
    pub elo_high95: f64,
    /// Games over every run.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// (wins + draws / 2) / games.
    pub score: f64,
    /// Runs it played in.
    pub runs: usize,
    /// Wins by ending (`goal=3;timeout=1`).
    pub wins_by: String,
    /// Losses by ending.
    pub losses_by: String,
    /// Draws by ending.
    pub draws_by: String,
}

/// One agent's place after one run (the runs so far fitted together).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct HistoryRow {
    /// The run's place in time, from 1.
    pub run: usize,
    /// The run folder.
    pub folder: String,
    /// Its experiment.
    pub experiment: String,
    /// When it started, seconds since the Unix epoch.
    pub started_unix: u64,
    /// The agent.
    pub agent: String,
    /// Games it played in this run.
    pub games_in_run: u64,
    /// Its score in this run (empty when it did not play).
    pub score_in_run: Option<f64>,
    /// Its rank on the ladder after this run.
    pub rank: usize,
    /// Its rating after this run.
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub margin: f64,
}

/// The ladder over a set of runs.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Ladder {
    /// The agent rated 0, if any.
    pub anchor: Option<String>,
    /// The runs, in the order they started.
    pub runs: Vec<String>,
    /// Best first.
    pub rows: Vec<LadderRow>,
    /// `crosstable[i][j]`: wins, losses and draws of rows[i] against rows[j].
    pub crosstable: Vec<Vec<[u64; 3]>>,
    /// After each run, every agent that has played by then.
    pub history: Vec<HistoryRow>,
}

/// Points and games among `agents` (sorted names) from `runs`.
fn results_of(agents: &[String], runs: &[RunGames]) -> Results {
    let index = |name: &str| agents.binary_search_by(|a| a.as_str().cmp(name)).ok();
    let mut results = Results::new(agents.len());
    for run in runs {
        for ((a, b), [w, l, d]) in &run.pairs {
            if let (Some(i), Some(j)) = (index(a), index(b)) {
                results.add_many(i, j, *w, *l, *d);
            }
        }
    }
    results
}

/// Agents' order best first: by rating, then by name.
fn ranking(agents: &[String], ratings: &[Rating]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..agents.len()).collect();
    order.sort_by(|&a, &b| {
        ratings[b]
            .elo
            .total_cmp(&ratings[a].elo)
            .then_with(|| agents[a].cmp(&agents[b]))
    });
    order
}

/// Rounds to `decimals` places.
fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}

impl Ladder {
    /// The ladder of `runs` (in any order), anchored to agent `anchor` when given.
    ///
    /// # Errors
    /// No games at all, or an anchor that played in none of the runs.
    pub fn build(mut runs: Vec<RunGames>, anchor: Option<&str>) -> Result<Ladder, InputError> {
        runs.sort_by(|a, b| {
            a.started_unix
                .cmp(&b.started_unix)
                .then_with(|| a.folder.cmp(&b.folder))
        });
        // One game per ladder: the same names in two games are two different agents.
        if let Some(first) = runs.iter().find(|r| !r.game.is_empty())
            && let Some(other) = runs
                .iter()
                .find(|r| !r.game.is_empty() && r.game != first.game)
        {
            return Err(InputError::new(format!(
                "{} played {} and {} played {}: a ladder rates the agents of one game",
                first.folder.display(),
                first.game,
                other.folder.display(),
                other.game
            )));
        }
        let mut agents: Vec<String> = runs
            .iter()
            .flat_map(|r| r.endings.keys().cloned())
            .collect();
        agents.sort();
        agents.dedup();
        if agents.is_empty() {
            return Err(InputError::new("the runs hold no games"));
        }
        let anchor_index = match anchor {
            None => None,
            Some(name) => Some(agents.binary_search_by(|a| a.as_str().cmp(name)).map_err(
                |_| {
                    InputError::new(format!(
                        "--anchor {name}: no such agent in the runs (they have {})",
                        agents.join(", ")
                    ))
                },
            )?),
        };
        let ratings = bradley_terry_anchored(&results_of(&agents, &runs), anchor_index);
        let order = ranking(&agents, &ratings);
        let mut totals: BTreeMap<&str, [[u64; ENDINGS.len()]; 3]> = BTreeMap::new();
        let mut runs_of: BTreeMap<&str, usize> = BTreeMap::new();
        for run in &runs {
            for (agent, counts) in &run.endings {
                let total = totals.entry(agent).or_insert([[0; ENDINGS.len()]; 3]);
                for result in 0..3 {
                    for e in 0..ENDINGS.len() {
                        total[result][e] += counts[result][e];
                    }
                }
                *runs_of.entry(agent).or_default() += 1;
            }
        }
        let rows: Vec<LadderRow> = order
            .iter()
            .enumerate()
            .map(|(place, &i)| {
                let counts = totals[agents[i].as_str()];
                let [wins, losses, draws] = counts.map(|r| r.iter().sum::<u64>());
                let games = wins + losses + draws;
                let rating = ratings[i];
                LadderRow {
                    rank: place + 1,
                    agent: agents[i].clone(),
                    elo: round(rating.elo, 1),
                    elo_low95: round(rating.elo - rating.margin, 1),
                    elo_high95: round(rating.elo + rating.margin, 1),
                    games,
                    wins,
                    losses,
                    draws,
                    score: round((wins as f64 + draws as f64 / 2.0) / games.max(1) as f64, 4),
                    runs: runs_of[agents[i].as_str()],
                    wins_by: endings_text(&counts[0]),
                    losses_by: endings_text(&counts[1]),
                    draws_by: endings_text(&counts[2]),
                }
            })
            .collect();
        let mut crosstable = vec![vec![[0u64; 3]; order.len()]; order.len()];
        for run in &runs {
            for ((a, b), [w, l, d]) in &run.pairs {
                let place = |name: &str| order.iter().position(|&i| agents[i] == name);
                if let (Some(i), Some(j)) = (place(a), place(b)) {
                    for (c, n) in crosstable[i][j].iter_mut().zip([*w, *l, *d]) {
                        *c += n;
                    }
                    for (c, n) in crosstable[j][i].iter_mut().zip([*l, *w, *d]) {
                        *c += n;
                    }
                }
            }
        }
        let mut history = Vec::new();
        for k in 0..runs.len() {
            let so_far = &runs[..=k];
            let mut present: Vec<String> = so_far
                .iter()
                .flat_map(|r| r.endings.keys().cloned())
                .collect();
            present.sort();
            present.dedup();
            let anchor_here =
                anchor.and_then(|name| present.binary_search_by(|a| a.as_str().cmp(name)).ok());
            let ratings = bradley_terry_anchored(&results_of(&present, so_far), anchor_here);
            let order = ranking(&present, &ratings);
            let run = &runs[k];
            for (place, &i) in order.iter().enumerate() {
                let counts = run.endings.get(&present[i]);
                let [wins, losses, draws] = counts.map_or([0; 3], |c| c.map(|r| r.iter().sum()));
                let games = wins + losses + draws;
                history.push(HistoryRow {
                    run: k + 1,
                    folder: run.folder.display().to_string(),
                    experiment: run.experiment.clone(),
                    started_unix: run.started_unix,
                    agent: present[i].clone(),
                    games_in_run: games,
                    score_in_run: (games > 0)
                        .then(|| round((wins as f64 + draws as f64 / 2.0) / games as f64, 4)),
                    rank: place + 1,
                    elo: round(ratings[i].elo, 1),
                    margin: round(ratings[i].margin, 1),
                });
            }
        }
        Ok(Ladder {
            anchor: anchor.map(String::from),
            runs: runs
                .iter()
                .map(|r| r.folder.display().to_string())
                .collect(),
            rows,
            crosstable,
            history,
        })
    }

    /// The rating list as a table: rank, agent, Elo and interval, games, score, W/L/D,
    /// runs, and the results not decided by the rules.
    pub fn table(&self) -> Table {
        let mut headers: Vec<String> = [
            "rank",
            "agent",
            "Elo",
            "95% interval",
            "games",
            "score",
            "w/l/d",
            "runs",
        ]
        .map(String::from)
        .to_vec();
        let others = self
            .rows
            .iter()
            .any(|r| !not_by_the_rules_text(&r.wins_by, &r.losses_by, &r.draws_by).is_empty());
        if others {
            headers.push("not by the rules (w/l/d)".to_string());
        }
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let mut row = vec![
                    r.rank.to_string(),
                    r.agent.clone(),
                    format!("{:+.0}", r.elo),
                    format!("{:+.0} .. {:+.0}", r.elo_low95, r.elo_high95),
                    r.games.to_string(),
                    format!("{:.1}%", 100.0 * r.score),
                    format!("{}/{}/{}", r.wins, r.losses, r.draws),
                    r.runs.to_string(),
                ];
                if others {
                    row.push(not_by_the_rules_text(&r.wins_by, &r.losses_by, &r.draws_by));
                }
                row
            })
            .collect();
        Table { headers, rows }
    }

    /// The crosstable: each agent's wins/losses/draws against each other, best first.
    pub fn crosstable_table(&self) -> Table {
        let mut headers = vec!["agent".to_string()];
        headers.extend(self.rows.iter().map(|r| format!("{}.", r.rank)));
        let rows = self
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut row = vec![format!("{}. {}", r.rank, r.agent)];
                row.extend(self.crosstable[i].iter().enumerate().map(|(j, [w, l, d])| {
                    if i == j {
                        "x".to_string()
                    } else if w + l + d == 0 {
                        "-".to_string()
                    } else {
                        format!("{w}/{l}/{d}")
                    }
                }));
                row
            })
            .collect();
        Table { headers, rows }
    }

    /// Each agent's rank and rating after each run, one column per run.
    pub fn history_table(&self) -> Table {
        let mut headers = vec!["agent".to_string()];
        headers.extend((1..=self.runs.len()).map(|k| format!("after run {k}")));
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let mut row = vec![r.agent.clone()];
                row.extend((1..=self.runs.len()).map(|k| {
                    self.history
                        .iter()
                        .find(|h| h.run == k && h.agent == r.agent)
                        .map_or("-".to_string(), |h| format!("{}. {:+.0}", h.rank, h.elo))
                }));
                row
            })
            .collect();
        Table { headers, rows }
    }

    /// What the numbers mean, in a few lines.
    fn notes(&self) -> Vec<String> {
        let scale = match &self.anchor {
            Some(anchor) => format!(
                "anchored to {anchor} at 0 (each interval is that of the difference from {anchor})"
            ),
            None => "the agents averaging 0".to_string(),
        };
        vec![format!(
            "Bradley-Terry ratings fitted to every game of {} run{} together (draws count half), on the Elo scale, {scale}; one virtual draw between every two agents keeps them finite. Intervals are 95%, from the Fisher information. Agents are the same agent across runs when they have the same name.",
            self.runs.len(),
            if self.runs.len() == 1 { "" } else { "s" }
        )]
    }

    /// Writes ladder.csv, crosstable.csv, history.csv, ladder.json, ladder.md and
    /// ladder.html into `folder` (made if missing); returns the files.
    ///
    /// # Errors
    /// A file that cannot be written, naming it.
    pub fn write(&self, folder: &Path) -> Result<Vec<PathBuf>, InputError> {
        let fail = |path: &Path, e: &dyn std::fmt::Display| {
            InputError::in_file(
                path,
                None,
                format!("cannot write: {}", crate::core::one_line(&e.to_string())),
            )
        };
        std::fs::create_dir_all(folder).map_err(|e| fail(folder, &e))?;
        let mut written = Vec::new();
        let csv_file = |name: &str,
                        write: &dyn Fn(&mut csv::Writer<std::fs::File>) -> csv::Result<()>|
         -> Result<PathBuf, InputError> {
            let path = folder.join(name);
            crate::records::write_table(&path, write)?;
            Ok(path)
        };
        written.push(csv_file("ladder.csv", &|w| {
            self.rows.iter().try_for_each(|r| w.serialize(r))
        })?);
        written.push(csv_file("crosstable.csv", &|w| {
            for (i, r) in self.rows.iter().enumerate() {
                for (j, opponent) in self.rows.iter().enumerate() {
                    let [wins, losses, draws] = self.crosstable[i][j];
                    if i != j && wins + losses + draws > 0 {
                        w.serialize((
                            ("agent", &r.agent),
                            ("opponent", &opponent.agent),
                            ("wins", wins),
                            ("losses", losses),
                            ("draws", draws),
                        ))?;
                    }
                }
            }
            Ok(())
        })?);
        written.push(csv_file("history.csv", &|w| {
            self.history.iter().try_for_each(|h| w.serialize(h))
        })?);
        let json_path = folder.join("ladder.json");
        let json = serde_json::to_string_pretty(self).map_err(|e| fail(&json_path, &e))?;
        std::fs::write(&json_path, json + "\n").map_err(|e| fail(&json_path, &e))?;
        written.push(json_path);
        let sections = [
            ("Ratings", self.notes(), self.table()),
            (
                "Crosstable",
                vec!["Each cell: the row agent's wins/losses/draws against the column agent, every run together.".to_string()],
                self.crosstable_table(),
            ),
            (
                "History",
                vec!["Each agent's rank and rating on the ladder as it stood after each run (the runs so far fitted together), runs in the order they started.".to_string()],
                self.history_table(),
            ),
        ];
        let mut markdown = "# Ladder\n\n".to_string();
        let mut html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Ladder</title>\n<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em}.table{overflow-x:auto}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}td:first-child,th:first-child,td:nth-child(2),th:nth-child(2){text-align:left}</style></head><body>\n<h1>Ladder</h1>\n".to_string();
        let _ = writeln!(markdown, "Runs, in the order they started:\n");
        let _ = writeln!(html, "<p>Runs, in the order they started:</p>\n<ol>");
        for run in &self.runs {
            let _ = writeln!(markdown, "1. `{run}`");
            let _ = writeln!(html, "<li><code>{}</code></li>", escape(run));
        }
        markdown.push('\n');
        html.push_str("</ol>\n");
        for (title, text, table) in &sections {
            let _ = write!(markdown, "## {title}\n\n");
            let _ = writeln!(html, "<h2>{}</h2>", escape(title));
            for line in text {
                let _ = write!(markdown, "{line}\n\n");
                let _ = writeln!(html, "<p>{}</p>", escape(line));
            }
            markdown.push_str(&table.markdown());
            markdown.push('\n');
            let _ = writeln!(html, "<div class=\"table\">{}</div>", table.html());
        }
        html.push_str("</body></html>\n");
        for (name, text) in [("ladder.md", markdown), ("ladder.html", html)] {
            let path = folder.join(name);
            std::fs::write(&path, text).map_err(|e| fail(&path, &e))?;
            written.push(path);
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::seeds;

    /// Simulated runs among agents of known strengths (Elo 0, 100, ..., 500 for a..f):
    /// each game's result drawn from the logistic model with a seeded generator.
    fn simulated(runs: usize, games_per_pair: usize, seed: u64) -> Vec<RunGames> {
        let names = ["a", "b", "c", "d", "e", "f"];
        let strength = |i: usize| 100.0 * i as f64;
        let mut rng = seeds::rng(seed);
        (0..runs)
            .map(|k| {
                let mut run = RunGames {
                    folder: PathBuf::from(format!("run{k}")),
                    started_unix: 1_800_000_000 + k as u64,
                    ..RunGames::default()
                };
                for i in 0..names.len() {
                    for j in i + 1..names.len() {
                        for g in 0..games_per_pair {
                            let p = 1.0 / (1.0 + 10f64.powf((strength(j) - strength(i)) / 400.0));
                            let draw = seeds::below(&mut rng, 10) == 0;
                            let u = seeds::below(&mut rng, 1_000_000) as f64 / 1e6;
                            let (p1, p2) = if g % 2 == 0 { (i, j) } else { (j, i) };
                            let i_wins = u < p;
                            let winner = if draw {
                                "draw"
                            } else if i_wins == (p1 == i) {
                                "P1"
                            } else {
                                "P2"
                            };
                            run.add(names[p1], names[p2], winner, "four-in-a-row")
                                .expect("valid");
                        }
                    }
                }
                run
            })
            .collect()
    }

    #[test]
    fn the_ladder_recovers_a_known_order_from_simulated_results() {
        let ladder = Ladder::build(simulated(3, 60, 5), None).expect("ladder");
        let order: Vec<&str> = ladder.rows.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(order, ["f", "e", "d", "c", "b", "a"]);
        // Average 0, and each true gap of 100 is inside the fitted intervals' reach.
        let mean: f64 = ladder.rows.iter().map(|r| r.elo).sum::<f64>() / 6.0;
        assert!(mean.abs() < 0.5, "{mean}");
        let spread = ladder.rows[0].elo - ladder.rows[5].elo;
        assert!((350.0..650.0).contains(&spread), "{spread}");
        assert_eq!(ladder.rows[0].games, 3 * 5 * 60);
        assert_eq!(ladder.rows[0].runs, 3);
        // The history has every agent after each run.
        assert_eq!(ladder.history.len(), 3 * 6);
        assert!(ladder.history.iter().all(|h| h.games_in_run == 5 * 60));
    }

    #[test]
    fn an_anchored_ladder_puts_its_anchor_at_zero_and_keeps_the_gaps() {
        let runs = simulated(2, 40, 9);
        let free = Ladder::build(runs.clone(), None).expect("ladder");
        let anchored = Ladder::build(runs, Some("a")).expect("ladder");
        let elo = |l: &Ladder, name: &str| {
            l.rows
                .iter()
                .find(|r| r.agent == name)
                .expect("agent")
                .clone()
        };
        let a = elo(&anchored, "a");
        assert_eq!((a.elo, a.elo_low95, a.elo_high95), (0.0, 0.0, 0.0));
        for name in ["b", "c", "d", "e", "f"] {
            let gap = elo(&free, name).elo - elo(&free, "a").elo;
            assert!((elo(&anchored, name).elo - gap).abs() < 0.2, "{name}");
        }
        let error = Ladder::build(simulated(1, 2, 1), Some("zed")).expect_err("no zed");
        assert!(
            error.message.contains("--anchor zed: no such agent"),
            "{error}"
        );
    }

    #[test]
    fn runs_in_any_order_give_the_same_ladder() {
        let runs = simulated(3, 10, 2);
        let one = Ladder::build(runs.clone(), Some("c")).expect("ladder");
        let mut reversed = runs;
        reversed.reverse();
        let two = Ladder::build(reversed, Some("c")).expect("ladder");
        assert_eq!(one.rows, two.rows);
        assert_eq!(one.crosstable, two.crosstable);
        assert_eq!(one.history, two.history);
        assert_eq!(one.runs, two.runs);
    }
}
