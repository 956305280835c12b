//! grades.csv (`arbiter grade`): every move of a run's games graded against perfect play,
//! one row a move; what a move did to its mover's value, and the tally per agent that
//! `grade` prints and the report shows.

use crate::search::solve::Value;
use std::path::Path;

/// The file of every move graded, in the run's folder.
pub const GRADES_FILE: &str = "grades.csv";

/// What a move did to the value of the game for the side that played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The value stayed (a win kept, a draw held, or the game was lost already).
    Kept,
    /// A won position became a draw.
    WinToDraw,
    /// A won position became a loss: a blunder.
    WinToLoss,
    /// A drawn position became a loss.
    DrawToLoss,
    /// A position before or after the move was beyond the budget.
    Ungraded,
}

impl Verdict {
    /// Its name in grades.csv.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Kept => "kept",
            Verdict::WinToDraw => "win-to-draw",
            Verdict::WinToLoss => "win-to-loss",
            Verdict::DrawToLoss => "draw-to-loss",
            Verdict::Ungraded => "ungraded",
        }
    }

    /// The verdict a grades.csv name stands for.
    pub fn named(name: &str) -> Option<Verdict> {
        [
            Verdict::Kept,
            Verdict::WinToDraw,
            Verdict::WinToLoss,
            Verdict::DrawToLoss,
            Verdict::Ungraded,
        ]
        .into_iter()
        .find(|v| v.name() == name)
    }

    /// The verdict of a move from a position worth `before` to one worth `after`, both for
    /// the side that moved.
    pub fn of(before: Option<Value>, after: Option<Value>) -> Verdict {
        let (Some(before), Some(after)) = (before, after) else {
            return Verdict::Ungraded;
        };
        match (before, after) {
            (Value::Win(_), Value::Draw) => Verdict::WinToDraw,
            (Value::Win(_), Value::Loss(_)) => Verdict::WinToLoss,
            (Value::Draw, Value::Loss(_)) => Verdict::DrawToLoss,
            _ => Verdict::Kept,
        }
    }

    /// Whether the move lost value.
    pub fn is_error(self) -> bool {
        matches!(
            self,
            Verdict::WinToDraw | Verdict::WinToLoss | Verdict::DrawToLoss
        )
    }
}

/// The value words of grades.csv, from the mover's view (empty: beyond the budget).
pub fn value_word(value: Option<Value>) -> &'static str {
    match value {
        Some(Value::Win(_)) => "win",
        Some(Value::Draw) => "draw",
        Some(Value::Loss(_)) => "loss",
        None => "",
    }
}

/// Each agent's points (a win 1, a draw 1/2) and games over a run, by name.
pub type Scores = std::collections::BTreeMap<String, (f64, u64)>;

/// An agent's moves graded, added up.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentGrades {
    /// The agent's name.
    pub agent: String,
    /// Its moves.
    pub moves: u64,
    /// Those graded.
    pub graded: u64,
    /// Graded moves that lost value.
    pub errors: u64,
    /// Wins turned into losses.
    pub win_to_loss: u64,
    /// Wins turned into draws.
    pub win_to_draw: u64,
    /// Draws turned into losses.
    pub draw_to_loss: u64,
    /// Per third of the game (opening, middle, end): moves graded and errors.
    pub phases: [(u64, u64); 3],
    /// Moves from a won position that kept the win, with the plies to the end measured
    /// before and after them (grading with distances).
    pub winning: u64,
    /// Those that kept the fastest win.
    pub fastest: u64,
    /// The plies those moves added to the end, together (0 for a fastest move).
    pub extra_plies: u64,
}

/// The plies a move that kept a win added to the game's end under perfect play: `None`
/// unless the position before it was won (`before`, from the mover's view) in
/// `left_before` plies and the move kept the win, leaving `left_after` plies from the
/// position after it; 0 for a move that kept the fastest win.
pub fn extra_plies(
    verdict: Verdict,
    before: Option<Value>,
    left_before: Option<u32>,
    left_after: Option<u32>,
) -> Option<u32> {
    match (verdict, before, left_before, left_after) {
        (Verdict::Kept, Some(Value::Win(_)), Some(before), Some(after)) if before >= 1 => {
            Some((after + 1).saturating_sub(before))
        }
        _ => None,
    }
}

/// Whether the plies to the end were measured (grading with distances): some agent kept
/// a measured win.
pub fn with_distances<'a>(agents: impl IntoIterator<Item = &'a AgentGrades>) -> bool {
    agents.into_iter().any(|a| a.winning > 0)
}

/// One move as the tally counts it: its agent, verdict, third of the game (0 to 2) and,
/// for a move that kept a win with distances measured, the plies it added to the end.
pub type Counted<'a> = (&'a str, Verdict, usize, Option<u32>);

impl AgentGrades {
    /// Errors per graded move with its 95% Wilson interval (`None` with none graded).
    pub fn error_rate(&self) -> Option<(f64, f64, f64)> {
        (self.graded > 0).then(|| {
            let (low, high) = crate::stats::wilson_interval(self.errors, self.graded, 1.96);
            (self.errors as f64 / self.graded as f64, low, high)
        })
    }

    /// The moves that kept the fastest win per move that kept a measured win, with its
    /// 95% Wilson interval (`None` without distances or without such a move).
    pub fn fastest_rate(&self) -> Option<(f64, f64, f64)> {
        (self.winning > 0).then(|| {
            let (low, high) = crate::stats::wilson_interval(self.fastest, self.winning, 1.96);
            (self.fastest as f64 / self.winning as f64, low, high)
        })
    }

    /// The plies the moves that kept a win but not the fastest one added to the end, on
    /// average (`None` when there were none).
    pub fn plies_added(&self) -> Option<f64> {
        let slower = self.winning - self.fastest;
        (slower > 0).then(|| self.extra_plies as f64 / slower as f64)
    }

    /// Counts one move of the agent's: what it did, in which third of its game (0 to 2),
    /// and the plies it added to the end of a won game when measured.
    pub fn add(&mut self, verdict: Verdict, third: usize, extra: Option<u32>) {
        self.moves += 1;
        if verdict == Verdict::Ungraded {
            return;
        }
        if let Some(extra) = extra {
            self.winning += 1;
            self.fastest += u64::from(extra == 0);
            self.extra_plies += u64::from(extra);
        }
        let third = third.min(2);
        self.graded += 1;
        self.phases[third].0 += 1;
        if verdict.is_error() {
            self.errors += 1;
            self.phases[third].1 += 1;
        }
        match verdict {
            Verdict::WinToLoss => self.win_to_loss += 1,
            Verdict::WinToDraw => self.win_to_draw += 1,
            Verdict::DrawToLoss => self.draw_to_loss += 1,
            _ => {}
        }
    }
}

/// Each agent's moves added up, in the order the agents first moved.
pub fn tally<'a>(moves: impl IntoIterator<Item = Counted<'a>>) -> Vec<AgentGrades> {
    let mut agents: Vec<AgentGrades> = Vec::new();
    for (agent, verdict, third, extra) in moves {
        let index = match agents.iter().position(|a| a.agent == agent) {
            Some(index) => index,
            None => {
                agents.push(AgentGrades {
                    agent: agent.to_string(),
                    ..AgentGrades::default()
                });
                agents.len() - 1
            }
        };
        agents[index].add(verdict, third, extra);
    }
    agents
}

/// Each agent's moves added up per matchup, in the order (matchup, agent) first moved,
/// from each move's matchup and what [`tally`] counts of it: the rows of summary.csv.
pub fn tally_by_matchup<'a>(
    moves: impl IntoIterator<Item = (usize, Counted<'a>)>,
) -> Vec<(usize, AgentGrades)> {
    let mut rows: Vec<(usize, AgentGrades)> = Vec::new();
    for (matchup, (agent, verdict, third, extra)) in moves {
        let index = match rows
            .iter()
            .position(|(m, a)| *m == matchup && a.agent == agent)
        {
            Some(index) => index,
            None => {
                rows.push((
                    matchup,
                    AgentGrades {
                        agent: agent.to_string(),
                        ..AgentGrades::default()
                    },
                ));
                rows.len() - 1
            }
        };
        rows[index].1.add(verdict, third, extra);
    }
    rows
}

/// A grades.csv row as the report reads it.
#[derive(serde::Deserialize)]
struct Row {
    game_id: u64,
    ply: usize,
    /// Absent from grades.csv files written before it was a column: matchup 0.
    #[serde(default)]
    matchup: usize,
    agent: String,
    third: usize,
    verdict: String,
    /// The mover's value before the move (`win`, `draw`, `loss`, empty).
    #[serde(default)]
    before: String,
    /// Absent from grades.csv files written before they were columns, empty where not
    /// measured.
    #[serde(default)]
    plies_left_before: Option<u32>,
    #[serde(default)]
    plies_left_after: Option<u32>,
}

/// The graded moves of the run in `folder`, one `(matchup, agent, verdict, third)` per
/// move (`None`: not graded).
///
/// # Errors
/// A grades.csv that is malformed, named with its line.
fn read_moves(folder: &Path) -> Result<Option<Vec<Graded>>, crate::registry::InputError> {
    let path = folder.join(GRADES_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let rows: Vec<Row> = super::load::csv_rows(&path)?;
    let mut moves = Vec::with_capacity(rows.len());
    for (index, row) in rows.into_iter().enumerate() {
        let verdict = Verdict::named(&row.verdict).ok_or_else(|| {
            crate::registry::InputError::in_file(
                &path,
                Some(index + 2),
                format!("unknown verdict '{}'", row.verdict),
            )
        })?;
        let before = (row.before == "win").then_some(Value::Win(None));
        moves.push(Graded {
            game_id: row.game_id,
            ply: row.ply,
            matchup: row.matchup,
            agent: row.agent,
            verdict,
            third: row.third.saturating_sub(1),
            extra: extra_plies(verdict, before, row.plies_left_before, row.plies_left_after),
        });
    }
    Ok(Some(moves))
}

/// A move of grades.csv as read back.
struct Graded {
    game_id: u64,
    ply: usize,
    matchup: usize,
    agent: String,
    verdict: Verdict,
    third: usize,
    extra: Option<u32>,
}

impl Graded {
    /// What [`tally`] counts of it.
    fn counted(&self) -> Counted<'_> {
        (self.agent.as_str(), self.verdict, self.third, self.extra)
    }
}

/// The moves that lost value, per game: `(ply of the agents' moves, from 1, verdict)`
/// (empty: the run is not graded).
///
/// # Errors
/// A grades.csv that is malformed, named with its line.
pub fn errors_by_game(
    folder: &Path,
) -> Result<std::collections::BTreeMap<u64, Vec<(usize, Verdict)>>, crate::registry::InputError> {
    let mut games: std::collections::BTreeMap<u64, Vec<(usize, Verdict)>> = Default::default();
    for graded in read_moves(folder)?.unwrap_or_default() {
        if graded.verdict.is_error() {
            games
                .entry(graded.game_id)
                .or_default()
                .push((graded.ply, graded.verdict));
        }
    }
    Ok(games)
}

/// The tally of the run in `folder` from its grades.csv (`None`: not graded).
///
/// # Errors
/// A grades.csv that is malformed, named with its line.
pub fn read(folder: &Path) -> Result<Option<Vec<AgentGrades>>, crate::registry::InputError> {
    Ok(read_moves(folder)?.map(|moves| tally(moves.iter().map(Graded::counted))))
}

/// The tally per matchup and agent of the run in `folder` (`None`: not graded).
///
/// # Errors
/// A grades.csv that is malformed, named with its line.
pub fn read_by_matchup(
    folder: &Path,
) -> Result<Option<Vec<(usize, AgentGrades)>>, crate::registry::InputError> {
    Ok(read_moves(folder)?
        .map(|moves| tally_by_matchup(moves.iter().map(|m| (m.matchup, m.counted())))))
}

/// The columns grading adds to summary.csv, after the run's own: the last six are empty
/// unless the plies to the end were measured (grading with distances).
pub const SUMMARY_COLUMNS: [&str; 12] = [
    "graded_moves",
    "errors",
    "error_rate",
    "error_rate_low95",
    "error_rate_high95",
    "blunders",
    "winning_moves",
    "fastest_wins",
    "fastest_rate",
    "fastest_rate_low95",
    "fastest_rate_high95",
    "avg_plies_added",
];

/// The grading cells of one summary.csv row, [`SUMMARY_COLUMNS`] in order (empty where
/// nothing was measured: the counts of winning moves when the run was graded without
/// distances, a rate or mean of no move).
fn summary_cells(agent: Option<&AgentGrades>, distances: bool) -> Vec<String> {
    let Some(agent) = agent else {
        return vec![String::new(); SUMMARY_COLUMNS.len()];
    };
    let rate = |r: Option<(f64, f64, f64)>| match r {
        Some((rate, low, high)) => [rate, low, high].map(|x| format!("{x:.4}")),
        None => [const { String::new() }; 3],
    };
    let [error_rate, error_low, error_high] = rate(agent.error_rate());
    let [fastest_rate, fastest_low, fastest_high] = rate(agent.fastest_rate());
    let count = |n: u64| {
        if distances {
            n.to_string()
        } else {
            String::new()
        }
    };
    vec![
        agent.graded.to_string(),
        agent.errors.to_string(),
        error_rate,
        error_low,
        error_high,
        agent.win_to_loss.to_string(),
        count(agent.winning),
        count(agent.fastest),
        fastest_rate,
        fastest_low,
        fastest_high,
        agent
            .plies_added()
            .map_or(String::new(), |plies| format!("{plies:.2}")),
    ]
}

/// Adds (or replaces) the grading columns of summary.csv in `folder`, each of its rows
/// (a matchup's agent) from `rows`; a row never graded gets empty cells. Written to a
/// fresh file renamed over the old one, so that a failure leaves the old one whole.
///
/// # Errors
/// A summary.csv that cannot be read or written, named.
pub fn add_to_summary(
    folder: &Path,
    rows: &[(usize, AgentGrades)],
) -> Result<(), crate::registry::InputError> {
    let path = folder.join("summary.csv");
    let fail = |line: Option<usize>, e: &dyn std::fmt::Display| {
        crate::registry::InputError::in_file(&path, line, crate::core::one_line(&e.to_string()))
    };
    let mut reader = csv::Reader::from_path(&path).map_err(|e| fail(None, &e))?;
    let header = reader.headers().map_err(|e| fail(Some(1), &e))?.clone();
    // The run's own columns: those of an earlier grading dropped.
    let kept: Vec<usize> = (0..header.len())
        .filter(|&i| !SUMMARY_COLUMNS.contains(&&header[i]))
        .collect();
    let column = |name: &str| header.iter().position(|h| h == name);
    let (Some(matchup), Some(agent)) = (column("matchup"), column("agent")) else {
        return Err(fail(Some(1), &"no matchup and agent columns"));
    };
    let distances = with_distances(rows.iter().map(|(_, a)| a));
    let fresh = folder.join("summary.csv.grading");
    super::write_table(&fresh, |writer| {
        let names = kept.iter().map(|&i| &header[i]).chain(SUMMARY_COLUMNS);
        writer.write_record(names)?;
        for record in reader.records() {
            let record = record?;
            let graded = rows
                .iter()
                .find(|(m, a)| record[matchup].parse() == Ok(*m) && a.agent == record[agent]);
            let cells = summary_cells(graded.map(|(_, a)| a), distances);
            writer.write_record(
                kept.iter()
                    .map(|&i| &record[i])
                    .chain(cells.iter().map(String::as_str)),
            )?;
        }
        Ok(())
    })
    .inspect_err(|_| {
        let _ = std::fs::remove_file(&fresh);
    })?;
    std::fs::rename(&fresh, &path).map_err(|e| fail(None, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_an_error_when_its_mover_loses_value_and_names_read_back() {
        let (win, draw, loss) = (Value::Win(None), Value::Draw, Value::Loss(Some(3)));
        let cases = [
            (Some(win), Some(win), Verdict::Kept),
            (Some(win), Some(draw), Verdict::WinToDraw),
            (Some(win), Some(loss), Verdict::WinToLoss),
            (Some(draw), Some(draw), Verdict::Kept),
            (Some(draw), Some(loss), Verdict::DrawToLoss),
            // A lost position cannot get worse; a better value is the opponent's error.
            (Some(loss), Some(loss), Verdict::Kept),
            (Some(draw), Some(win), Verdict::Kept),
            (None, Some(win), Verdict::Ungraded),
            (Some(win), None, Verdict::Ungraded),
        ];
        for (before, after, verdict) in cases {
            assert_eq!(
                Verdict::of(before, after),
                verdict,
                "{before:?} -> {after:?}"
            );
            assert_eq!(Verdict::named(verdict.name()), Some(verdict));
        }
        assert_eq!(Verdict::named("blunder"), None);
    }

    #[test]
    fn a_move_that_kept_a_win_added_the_plies_beyond_the_fastest() {
        let win = Some(Value::Win(Some(5)));
        // Won in 5: the fastest move leaves 4 plies, a slower one 6 (2 more).
        assert_eq!(extra_plies(Verdict::Kept, win, Some(5), Some(4)), Some(0));
        assert_eq!(extra_plies(Verdict::Kept, win, Some(5), Some(6)), Some(2));
        // The winning move itself: 1 ply, the game over after it.
        assert_eq!(
            extra_plies(Verdict::Kept, Some(Value::Win(Some(1))), Some(1), Some(0)),
            Some(0)
        );
        // Not a kept win, or not measured: nothing.
        assert_eq!(extra_plies(Verdict::WinToDraw, win, Some(5), None), None);
        assert_eq!(
            extra_plies(Verdict::Kept, Some(Value::Draw), None, None),
            None
        );
        assert_eq!(
            extra_plies(Verdict::Kept, Some(Value::Loss(Some(4))), Some(4), Some(3)),
            None
        );
        assert_eq!(extra_plies(Verdict::Kept, win, None, Some(4)), None);
    }

    #[test]
    fn a_tally_counts_graded_moves_errors_and_thirds_per_agent_in_order_met() {
        let moves = [
            ("b", Verdict::Kept, 0, Some(0)),
            ("a", Verdict::WinToLoss, 2, None),
            ("b", Verdict::DrawToLoss, 1, None),
            ("a", Verdict::Ungraded, 0, None),
            ("a", Verdict::Kept, 2, Some(4)),
            ("a", Verdict::Kept, 1, Some(0)),
        ];
        let agents = tally(moves);
        assert_eq!(agents.len(), 2);
        let (b, a) = (&agents[0], &agents[1]);
        assert_eq!(
            (b.agent.as_str(), b.moves, b.graded, b.errors),
            ("b", 2, 2, 1)
        );
        assert_eq!(b.phases, [(1, 0), (1, 1), (0, 0)]);
        assert_eq!((a.moves, a.graded, a.errors, a.win_to_loss), (4, 3, 1, 1));
        assert_eq!(a.phases, [(0, 0), (1, 0), (2, 1)]);
        // Moves that kept a measured win: how many, the fastest, the plies added.
        assert_eq!((b.winning, b.fastest, b.extra_plies), (1, 1, 0));
        assert_eq!((a.winning, a.fastest, a.extra_plies), (2, 1, 4));
        let (rate, low, high) = a.error_rate().expect("graded");
        assert!((rate - 1.0 / 3.0).abs() < 1e-12 && low < rate && high > rate);
        assert_eq!(AgentGrades::default().error_rate(), None);
        // Fastest wins: a's one of two, the slower adding 4 plies; b's one of one.
        let (rate, low, high) = a.fastest_rate().expect("measured");
        assert!(rate == 0.5 && low < rate && high > rate);
        assert_eq!((a.plies_added(), b.plies_added()), (Some(4.0), None));
        assert_eq!(AgentGrades::default().fastest_rate(), None);
    }

    #[test]
    fn summary_cells_fill_the_distance_columns_only_when_measured() {
        let measured = tally([
            ("a", Verdict::Kept, 0, Some(0)),
            ("a", Verdict::Kept, 0, Some(2)),
            ("a", Verdict::WinToLoss, 1, None),
        ]);
        let cells = summary_cells(Some(&measured[0]), true);
        assert_eq!(cells.len(), SUMMARY_COLUMNS.len());
        let cell = |cells: &[String], name: &str| {
            cells[SUMMARY_COLUMNS.iter().position(|c| *c == name).expect(name)].clone()
        };
        assert_eq!(cell(&cells, "graded_moves"), "3");
        assert_eq!(cell(&cells, "blunders"), "1");
        assert_eq!(cell(&cells, "winning_moves"), "2");
        assert_eq!(cell(&cells, "fastest_wins"), "1");
        assert_eq!(cell(&cells, "fastest_rate"), "0.5000");
        assert_eq!(cell(&cells, "avg_plies_added"), "2.00");
        // Without distances: the error columns, the distance ones empty.
        let plain = tally([
            ("a", Verdict::Kept, 0, None),
            ("a", Verdict::WinToDraw, 2, None),
        ]);
        let cells = summary_cells(Some(&plain[0]), false);
        assert_eq!(cell(&cells, "error_rate"), "0.5000");
        assert!(
            SUMMARY_COLUMNS[6..]
                .iter()
                .all(|name| cell(&cells, name).is_empty()),
            "{cells:?}"
        );
        // An agent that kept no measured win in a run graded with distances: counts of 0,
        // no rate, no mean.
        let cells = summary_cells(Some(&plain[0]), true);
        assert_eq!(cell(&cells, "winning_moves"), "0");
        assert_eq!(cell(&cells, "fastest_wins"), "0");
        assert_eq!(cell(&cells, "fastest_rate"), "");
        assert_eq!(cell(&cells, "avg_plies_added"), "");
        // A row never graded: every cell empty.
        assert!(summary_cells(None, true).iter().all(String::is_empty));
    }
}
