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
}

impl AgentGrades {
    /// Errors per graded move with its 95% Wilson interval (`None` with none graded).
    pub fn error_rate(&self) -> Option<(f64, f64, f64)> {
        (self.graded > 0).then(|| {
            let (low, high) = crate::stats::wilson_interval(self.errors, self.graded, 1.96);
            (self.errors as f64 / self.graded as f64, low, high)
        })
    }

    /// Counts one move of the agent's: what it did, in which third of its game (0 to 2).
    pub fn add(&mut self, verdict: Verdict, third: usize) {
        self.moves += 1;
        if verdict == Verdict::Ungraded {
            return;
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

/// Each agent's moves added up, in the order the agents first moved, from `(agent,
/// verdict, third)` of every move.
pub fn tally<'a>(moves: impl IntoIterator<Item = (&'a str, Verdict, usize)>) -> Vec<AgentGrades> {
    let mut agents: Vec<AgentGrades> = Vec::new();
    for (agent, verdict, third) in moves {
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
        agents[index].add(verdict, third);
    }
    agents
}

/// A grades.csv row as the report reads it.
#[derive(serde::Deserialize)]
struct Row {
    agent: String,
    third: usize,
    verdict: String,
}

/// The tally of the run in `folder` from its grades.csv (`None`: not graded).
///
/// # Errors
/// A grades.csv that is malformed, named with its line.
pub fn read(folder: &Path) -> Result<Option<Vec<AgentGrades>>, crate::registry::InputError> {
    let path = folder.join(GRADES_FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let rows: Vec<Row> = super::load::csv_rows(&path)?;
    let mut moves = Vec::with_capacity(rows.len());
    for (index, row) in rows.iter().enumerate() {
        let verdict = Verdict::named(&row.verdict).ok_or_else(|| {
            crate::registry::InputError::in_file(
                &path,
                Some(index + 2),
                format!("unknown verdict '{}'", row.verdict),
            )
        })?;
        moves.push((row.agent.as_str(), verdict, row.third.saturating_sub(1)));
    }
    Ok(Some(tally(moves)))
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
    fn a_tally_counts_graded_moves_errors_and_thirds_per_agent_in_order_met() {
        let moves = [
            ("b", Verdict::Kept, 0),
            ("a", Verdict::WinToLoss, 2),
            ("b", Verdict::DrawToLoss, 1),
            ("a", Verdict::Ungraded, 0),
            ("a", Verdict::Kept, 2),
        ];
        let agents = tally(moves);
        assert_eq!(agents.len(), 2);
        let (b, a) = (&agents[0], &agents[1]);
        assert_eq!(
            (b.agent.as_str(), b.moves, b.graded, b.errors),
            ("b", 2, 2, 1)
        );
        assert_eq!(b.phases, [(1, 0), (1, 1), (0, 0)]);
        assert_eq!((a.moves, a.graded, a.errors, a.win_to_loss), (3, 2, 1, 1));
        assert_eq!(a.phases, [(0, 0), (0, 0), (2, 1)]);
        let (rate, low, high) = a.error_rate().expect("graded");
        assert!((rate - 0.5).abs() < 1e-12 && low < 0.5 && high > 0.5);
        assert_eq!(AgentGrades::default().error_rate(), None);
    }
}
