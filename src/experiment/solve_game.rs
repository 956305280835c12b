//! `solve-game`: the exact value of a game's position under perfect play, with a best
//! move, each legal move's value if asked, and the solver's counts. The cli prints it.

use super::Error;
use crate::core::Limits;
use crate::registry::{GameEntry, GameTask, dispatch, load_agents};
use crate::search::solve::{Solver, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The table size when none is given, in MB.
pub const DEFAULT_TT_MB: u64 = 256;

/// What to solve.
pub struct SolveGameRequest {
    /// The game, as a spec (`connect-four(rows=4,columns=5)`).
    pub game: String,
    /// The position to start from, in the game's own text (as `--board` takes it).
    pub board: Option<String>,
    /// The moves from the start (or the board) to the position (as `--position` takes them).
    pub position: Option<String>,
    /// Also solve every legal move.
    pub moves: bool,
    /// What a win is worth.
    pub scoring: Scoring,
    /// The transposition table's size in MB.
    pub megabytes: usize,
    /// Give up after this many seconds.
    pub time_limit: Option<f64>,
    /// The folder of agent files (program games are declared there).
    pub agents: Option<PathBuf>,
}

/// What the solver finds besides win, loss or draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// The plies to the end (the fastest win, the slowest loss).
    Distance,
    /// Nothing more: stops at the first win it proves.
    ValueOnly,
    /// The final margin, for games that score one (Othello's discs).
    Margin,
}

/// How a solve ended.
pub enum SolveEnd {
    /// The position is already finished: its result, `P1 wins (reason)` style.
    Over(String),
    /// Proved.
    Solved(Proof),
    /// Stopped by Ctrl-C before a value was proved.
    Interrupted(Effort),
    /// Stopped by the time limit before a value was proved.
    TimedOut(Effort),
}

/// What a solve cost.
pub struct Effort {
    /// Nodes whose moves were generated.
    pub expanded: u64,
    /// Positions visited.
    pub visited: u64,
    /// Seconds of search.
    pub seconds: f64,
}

/// A proved value.
pub struct Proof {
    /// The value for the side to move, as a line: `P1 (to move) wins in 13 plies`.
    pub value: String,
    /// A best move, in the game's notation.
    pub best: Option<String>,
    /// Each legal move with its value for the side that plays it, as far as solved (a
    /// line: `win in 13 plies`, `win by 38`).
    pub move_values: Vec<(String, String)>,
    /// Whether every legal move got its value (`false`: the time limit came first).
    pub every_move: bool,
    /// What it cost.
    pub effort: Effort,
    /// The table's number of entries.
    pub table_entries: usize,
}

/// Solves the position of `request`; `shown` gets the board before the search starts.
///
/// # Errors
/// An unknown game, a bad time limit, an illegal or late move in the position, a rules
/// program that failed while solving.
pub fn solve_game(
    request: SolveGameRequest,
    shown: &mut dyn FnMut(&str),
) -> Result<SolveEnd, Error> {
    let deadline = match request.time_limit {
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => {
            Some(Instant::now() + Duration::from_secs_f64(s))
        }
        Some(s) => {
            return Err(Error::Message(format!(
                "--time-limit {s}: give a positive number of seconds"
            )));
        }
        None => None,
    };
    let (registry, _) = load_agents(request.agents.as_deref(), None)?;
    let game = super::launch::parse_game(&request.game, &registry)?;
    dispatch(
        game,
        SolveGameTask {
            request,
            limits: Limits {
                deadline,
                stop: Some(super::ctrl_c_flag()),
            },
            shown,
        },
    )
}

struct SolveGameTask<'a> {
    request: SolveGameRequest,
    limits: Limits,
    shown: &'a mut dyn FnMut(&str),
}

/// The position after `moves` (a move list as `--position` takes it) from `start`.
fn position_after<G: GameEntry>(start: G, moves: &str) -> Result<G, Error> {
    let mut state = start;
    let mut ply = 0;
    for (_, token) in crate::core::read_moves(moves) {
        let parts = state.split_moves(&token).unwrap_or_else(|| vec![token]);
        for text in parts {
            ply += 1;
            if let Some(outcome) = state.outcome() {
                return Err(Error::Message(format!(
                    "--position: ply {ply} ({text}): the game is already over ({}, {})",
                    outcome.winner_label(),
                    outcome.reason
                )));
            }
            let mv = state
                .parse_move(&text)
                .map_err(|e| format!("--position: ply {ply}: {e}"))?;
            state.apply(mv);
        }
    }
    Ok(state)
}

fn plies_text(plies: u32) -> String {
    if plies == 1 {
        "1 ply".to_string()
    } else {
        format!("{plies} plies")
    }
}

/// A value for its side: `P1 wins in 13 plies`.
fn value_line(value: Value, side: crate::core::Player) -> String {
    match value {
        Value::Win(Some(plies)) => {
            format!("{} (to move) wins in {}", side.label(), plies_text(plies))
        }
        Value::Loss(Some(plies)) => {
            format!("{} (to move) loses in {}", side.label(), plies_text(plies))
        }
        Value::Win(None) => format!("{} (to move) wins", side.label()),
        Value::Loss(None) => format!("{} (to move) loses", side.label()),
        Value::Draw => "draw".to_string(),
    }
}

/// ` by 38`: what follows a value's words when it has a margin.
fn margin_words(margin: i32) -> String {
    if margin == 0 {
        String::new()
    } else {
        format!(" by {}", margin.abs())
    }
}

/// A move's value and margin for the side that plays it: `win by 38`.
fn margin_text(value: Value, margin: i32) -> String {
    format!("{value}{}", margin_words(margin))
}

impl GameTask for SolveGameTask<'_> {
    type Output = Result<SolveEnd, Error>;

    fn run<G: GameEntry>(self, start: G) -> Result<SolveEnd, Error> {
        crate::registry::two_players(&start, "the solver")?;
        let request = &self.request;
        let start = match &request.board {
            Some(text) => match start.read_position(text) {
                Some(Ok(state)) => state,
                Some(Err(reason)) => {
                    return Err(Error::Message(format!("--board: {reason}")));
                }
                None => {
                    return Err(Error::Message(format!(
                        "--board: {} reads no position texts (give the moves from the start with --position)",
                        request.game
                    )));
                }
            },
            None => start,
        };
        let state = match &request.position {
            Some(moves) => position_after(start, moves)?,
            None => start,
        };
        if request.scoring == Scoring::Margin && !state.scores_margin() {
            return Err(Error::Message(format!(
                "--margin: {} scores a win, a loss or a draw, no margin (solve it without --margin)",
                request.game
            )));
        }
        if state.has_chance() {
            return Err(Error::Message(format!(
                "solve-game proves games without chance; {} has chance events (play it with expectimax or mcts)",
                request.game
            )));
        }
        (self.shown)(&state.board_display());
        if let Some(outcome) = state.outcome() {
            return Ok(SolveEnd::Over(format!(
                "{} ({})",
                outcome.winner_label(),
                outcome.reason
            )));
        }
        let mut solver = Solver::<G>::new(request.megabytes, self.limits.clone());
        match request.scoring {
            Scoring::Distance => {}
            Scoring::ValueOnly => solver = solver.value_for(&state),
            Scoring::Margin => solver = solver.by_margin(),
        }
        let watch = crate::records::Watch::start(solver.progress(), "positions");
        let started = Instant::now();
        let failures_before = state.rules_failures();
        let solved = solver.solve(&state);
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let mut move_values = Vec::new();
        if request.moves && solved.is_some() {
            for &mv in &legal {
                let mut child = state.clone();
                child.apply(mv);
                // A finished child is solved at once: a loss (or draw) in 0 for its side.
                let Some(value) = solver.solve(&child) else {
                    break;
                };
                let text = match value.margin {
                    Some(margin) => margin_text(value.value.before_move(), -margin),
                    None => value.value.before_move().to_string(),
                };
                move_values.push((state.format_move(mv), text));
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        drop(watch);
        let failures = state.rules_failures() - failures_before;
        if failures > 0 {
            return Err(Error::Message(format!(
                "the game's rules program failed {failures} time{} while solving (see the warnings above): no value is given",
                if failures == 1 { "" } else { "s" }
            )));
        }
        let effort = Effort {
            expanded: solver.expanded(),
            visited: solver.visited(),
            seconds,
        };
        let Some(solved) = solved else {
            return Ok(if self.limits.stopped() {
                SolveEnd::Interrupted(effort)
            } else {
                SolveEnd::TimedOut(effort)
            });
        };
        let value = match solved.margin {
            Some(margin) => format!(
                "{}{}",
                value_line(solved.value, solved.to_move),
                margin_words(margin)
            ),
            None => value_line(solved.value, solved.to_move),
        };
        Ok(SolveEnd::Solved(Proof {
            value,
            best: solved.best.map(|best| state.format_move(best)),
            every_move: move_values.len() == legal.len(),
            move_values,
            effort,
            table_entries: solver.table_entries(),
        }))
    }
}
