//! `grade`: every move of a run's games held against perfect play. Each position of each
//! game is solved (the exact solver of `solve-game`, for the value alone, within a budget
//! of positions visited); a move is graded when both the position before it and the one
//! after it are solved: it kept the value, or turned a win into a draw or a loss, or a draw
//! into a loss. The cli prints the per-agent figures; the moves go to grades.csv.

use super::Error;
use crate::core::{Game, Limits, Player, read_moves};
use crate::records::grades::{
    AgentGrades, GRADES_FILE, Scores, Verdict, extra_plies, tally, tally_by_matchup, value_word,
};
use crate::records::load::csv_rows;
use crate::registry::{GameEntry, GameSpec, GameTask, GradeSettings, dispatch, load_agents};
use crate::search::solve::{Solver, Value};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// What to grade, and with what effort.
pub struct GradeRequest {
    /// The run's folder (its games.csv), or a folder of runs (the newest is graded).
    pub folder: PathBuf,
    /// The solver's budget per position and its table's size.
    pub settings: GradeSettings,
    /// Threads solving games at once.
    pub threads: usize,
    /// The folder of agent files (program games are declared there).
    pub agents: Option<PathBuf>,
    /// Counts the games graded so far, for a progress display.
    pub graded: Arc<AtomicU64>,
}

/// One move graded.
#[derive(Clone, Debug)]
pub struct MoveGrade {
    /// The game's id in games.csv.
    pub game_id: u64,
    /// Its matchup (the row of summary.csv its agents' figures go to).
    pub matchup: usize,
    /// Its ply, from 1.
    pub ply: usize,
    /// The side that played it.
    pub seat: Player,
    /// The agent that played it.
    pub agent: String,
    /// The move as recorded.
    pub text: String,
    /// The value before it, for the mover (`None`: beyond the budget).
    pub before: Option<Value>,
    /// The value after it, for the mover.
    pub after: Option<Value>,
    /// Plies to the end under perfect play from the position before it (grading with
    /// distances; `None`: not measured, a draw, or beyond the budget).
    pub left_before: Option<u32>,
    /// Plies to the end from the position after it.
    pub left_after: Option<u32>,
    /// What it did.
    pub verdict: Verdict,
    /// The game's third it was played in: 0 the opening, 1 the middle, 2 the end.
    pub phase: usize,
}

/// A run graded.
pub struct Grades {
    /// Per agent, in the order they first moved.
    pub agents: Vec<AgentGrades>,
    /// Every move, game by game.
    pub moves: Vec<MoveGrade>,
    /// Each agent's points and games over the run (from games.csv).
    pub scores: Scores,
    /// Games graded.
    pub games: usize,
    /// Positions solved.
    pub solved: u64,
    /// Positions beyond the budget.
    pub unsolved: u64,
    /// Where the moves were written (grades.csv in the run's folder).
    pub file: PathBuf,
    /// The run's folder.
    pub folder: PathBuf,
}

/// A games.csv row as grading reads it.
#[derive(serde::Deserialize)]
struct GameRow {
    game_id: u64,
    #[serde(default)]
    matchup: usize,
    game: String,
    p1_agent: String,
    p2_agent: String,
    /// The opening's moves, played before the agents' (not graded).
    #[serde(default)]
    opening: String,
    /// The agents' moves.
    #[serde(default)]
    moves: String,
    /// `P1`, `P2` or `draw`.
    #[serde(default)]
    winner: String,
}

/// Grades every move of the run in `request.folder`.
///
/// # Errors
/// No or a malformed games.csv, a game that is not two-player without chance or hidden
/// information, a move that does not replay (naming the game and ply).
pub fn grade(request: &GradeRequest) -> Result<Grades, Error> {
    // A folder of runs stands for its newest, as for `show` and `report`.
    let folder = crate::records::loaded::resolve_run_folder(&request.folder)?;
    let (registry, _) = load_agents(request.agents.as_deref(), None)?;
    grade_folder(
        &folder,
        request.settings,
        request.threads,
        &|game| registry.game(game).map_err(Error::Message),
        &request.graded,
    )
}

/// Grades every move of the run in `folder` (its games.csv), each game spec it names
/// found with `game_of`, on `threads` threads, adding each game graded to `graded`.
///
/// # Errors
/// As [`grade`].
pub fn grade_folder(
    folder: &Path,
    settings: GradeSettings,
    threads: usize,
    game_of: &dyn Fn(&str) -> Result<GameSpec, Error>,
    graded: &AtomicU64,
) -> Result<Grades, Error> {
    let folder = folder.to_path_buf();
    let path = folder.join("games.csv");
    if !path.is_file() {
        return Err(Error::Message(format!(
            "{}: no games.csv (is it a results folder of a game run?)",
            folder.display()
        )));
    }
    if crate::records::loaded::read_meta(&folder).is_some_and(|meta| meta.no_moves_csv) {
        return Err(Error::Message(format!(
            "{}: the run recorded no moves (moves_csv = false or --no-moves): nothing to grade",
            folder.display()
        )));
    }
    let rows: Vec<GameRow> = csv_rows(&path)?;
    let mut scores = Scores::new();
    for row in &rows {
        for (agent, won) in [(&row.p1_agent, "P1"), (&row.p2_agent, "P2")] {
            let entry = scores.entry(agent.clone()).or_insert((0.0, 0));
            entry.0 += match row.winner.as_str() {
                "draw" => 0.5,
                winner if winner == won => 1.0,
                _ => 0.0,
            };
            entry.1 += 1;
        }
    }
    // Games of each game spec together (a run plays one, a sweep may play several).
    let mut by_game: BTreeMap<String, Vec<GameRow>> = BTreeMap::new();
    for row in rows {
        by_game.entry(row.game.clone()).or_default().push(row);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("threads: {e}"))?;
    let mut moves = Vec::new();
    let (mut solved, mut unsolved, mut games) = (0, 0, 0);
    for (game, rows) in by_game {
        let spec: GameSpec =
            game_of(&game).map_err(|e| format!("{}: game {game}: {e}", path.display()))?;
        let task = GradeTask {
            rows: &rows,
            file: &path,
            settings,
            graded,
        };
        let graded = pool.install(|| dispatch(spec, task))?;
        games += rows.len();
        for (game_moves, counts) in graded {
            moves.extend(game_moves);
            solved += counts.0;
            unsolved += counts.1;
        }
    }
    moves.sort_by_key(|m| (m.game_id, m.ply));
    let agents = tally(moves.iter().map(MoveGrade::counted));
    let file = folder.join(GRADES_FILE);
    crate::records::write_table(&file, |writer| {
        writer.write_record([
            "game_id",
            "matchup",
            "ply",
            "seat",
            "agent",
            "move",
            "before",
            "after",
            "verdict",
            "third",
            "plies_left_before",
            "plies_left_after",
        ])?;
        let plies = |left: Option<u32>| left.map_or(String::new(), |p| p.to_string());
        for grade in &moves {
            writer.write_record([
                grade.game_id.to_string().as_str(),
                grade.matchup.to_string().as_str(),
                grade.ply.to_string().as_str(),
                grade.seat.label(),
                &grade.agent,
                &grade.text,
                value_word(grade.before),
                value_word(grade.after),
                grade.verdict.name(),
                (grade.phase + 1).to_string().as_str(),
                &plies(grade.left_before),
                &plies(grade.left_after),
            ])?;
        }
        Ok(())
    })?;
    // Each matchup's agents' figures beside their results in summary.csv.
    if folder.join("summary.csv").is_file() {
        crate::records::grades::add_to_summary(
            &folder,
            &tally_by_matchup(moves.iter().map(|m| (m.matchup, m.counted()))),
        )?;
    }
    Ok(Grades {
        agents,
        moves,
        scores,
        games,
        solved,
        unsolved,
        file,
        folder,
    })
}

impl MoveGrade {
    /// What the tally counts of it.
    fn counted(&self) -> crate::records::grades::Counted<'_> {
        let extra = extra_plies(self.verdict, self.before, self.left_before, self.left_after);
        (self.agent.as_str(), self.verdict, self.phase, extra)
    }
}

struct GradeTask<'a> {
    rows: &'a [GameRow],
    file: &'a Path,
    settings: GradeSettings,
    graded: &'a AtomicU64,
}

/// One game's moves graded, with the positions solved and those beyond the budget.
type GameGrades = (Vec<MoveGrade>, (u64, u64));

impl GameTask for GradeTask<'_> {
    type Output = Result<Vec<GameGrades>, Error>;

    fn run<G: GameEntry>(self, start: G) -> Result<Vec<GameGrades>, Error> {
        if start.players() != 2 || start.has_chance() || start.has_hidden() {
            return Err(Error::Message(format!(
                "{}: grade needs a two-player game without chance or hidden information; {} is not one",
                self.file.display(),
                self.rows.first().map_or("", |r| r.game.as_str())
            )));
        }
        // A solver for each game: what its table holds decides which positions fit in the
        // budget, so a table kept from game to game would make the grades depend on which
        // games a thread happened to grade before (60 games of 5x5 Breakthrough, the test
        // `grades_are_the_same_on_one_thread_and_on_two`: 623 positions solved on one
        // thread, 610 on two).
        self.rows
            .par_iter()
            .map(|row| {
                let solver = Solver::<G>::new(self.settings.megabytes, Limits::NONE);
                let mut solver = if self.settings.distances {
                    solver
                } else {
                    solver.value_for(&start)
                };
                let grades = grade_game(&start, row, self.file, self.settings, &mut solver);
                self.graded.fetch_add(1, Ordering::Relaxed);
                grades
            })
            .collect()
    }
}

/// The value of `state` for its side to move, within `visits` more positions (with
/// `distances`, a finished game's has 0 plies to the end).
fn value_of<G: Game>(
    solver: &mut Solver<G>,
    state: &G,
    visits: u64,
    distances: bool,
) -> Option<Value> {
    if let Some(outcome) = state.outcome() {
        let plies = distances.then_some(0);
        return Some(match outcome.winner {
            None => Value::Draw,
            Some(winner) if winner == state.to_move() => Value::Win(plies),
            Some(_) => Value::Loss(plies),
        });
    }
    solver.allow(visits);
    solver.solve(state).map(|solved| solved.value)
}

/// The plies to the end of a solved value, when measured.
fn plies_left(value: Option<Value>) -> Option<u32> {
    match value? {
        Value::Win(plies) | Value::Loss(plies) => plies,
        Value::Draw => None,
    }
}

fn grade_game<G: GameEntry>(
    start: &G,
    row: &GameRow,
    file: &Path,
    settings: GradeSettings,
    solver: &mut Solver<G>,
) -> Result<GameGrades, Error> {
    let split = |moves: &str| -> Vec<String> {
        read_moves(moves)
            .into_iter()
            .flat_map(|(_, text)| start.split_moves(&text).unwrap_or_else(|| vec![text]))
            .collect()
    };
    let texts = split(&row.moves);
    let plies = texts.len().max(1);
    let mut state = start.clone();
    // The opening (set by the experiment, not chosen by the agents) is played first.
    for (index, text) in split(&row.opening).iter().enumerate() {
        let mv = state.parse_move(text).map_err(|e| {
            format!(
                "{}: game {}: opening move {}: {e}",
                file.display(),
                row.game_id,
                index + 1
            )
        })?;
        state.apply(mv);
    }
    let (mut solved, mut unsolved) = (0u64, 0u64);
    let mut count = |value: &Option<Value>| match value {
        Some(_) => solved += 1,
        None => unsolved += 1,
    };
    let mut before = value_of(solver, &state, settings.visits, settings.distances);
    count(&before);
    let mut grades = Vec::with_capacity(texts.len());
    for (index, text) in texts.iter().enumerate() {
        let mover = state.to_move();
        let mv = state.parse_move(text).map_err(|e| {
            format!(
                "{}: game {}: ply {}: {e}",
                file.display(),
                row.game_id,
                index + 1
            )
        })?;
        state.apply(mv);
        // The value after the move, for the side now to move: the mover's is its opposite
        // (unless the mover moves again).
        let next = value_of(solver, &state, settings.visits, settings.distances);
        count(&next);
        let after = next.map(|value| {
            if state.to_move() == mover {
                value
            } else {
                value.before_move()
            }
        });
        grades.push(MoveGrade {
            game_id: row.game_id,
            matchup: row.matchup,
            ply: index + 1,
            seat: mover,
            agent: match mover {
                Player::P1 => row.p1_agent.clone(),
                _ => row.p2_agent.clone(),
            },
            text: text.clone(),
            before,
            after,
            left_before: plies_left(before),
            left_after: plies_left(next),
            verdict: Verdict::of(before, after),
            phase: (index * 3 / plies).min(2),
        });
        before = next;
    }
    Ok((grades, (solved, unsolved)))
}
