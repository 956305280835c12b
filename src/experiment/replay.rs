//! `replay`: a game's moves from a record file or a move list, applied from the start,
//! with the positions a reader asked to see. The cli prints what this returns.

use super::Error;
use crate::core::read_moves;
use crate::records::pgn::{is_record_file, read_game_records};
use crate::registry::{GameEntry, GameTask, dispatch, load_agents};
use std::path::PathBuf;

/// What to replay.
pub struct ReplayRequest {
    /// The game, as a spec (`connect-four(rows=5)`).
    pub game: String,
    /// Where the moves came from, for messages: a file's path or `<stdin>`.
    pub source: String,
    /// The moves: a record file (a run's games.pgn) or a plain move list.
    pub text: String,
    /// Show each position from this ply on (`None`: the final one only).
    pub steps: Option<usize>,
    /// In a record file, the game with this GameId.
    pub id: Option<u64>,
    /// The folder of agent files (program games are declared there).
    pub agents: Option<PathBuf>,
}

/// One position shown: the move that made it and the board after it.
pub struct Shown {
    /// The ply (0: the start, before any move).
    pub ply: usize,
    /// The side that moved (at ply 0, the side to move).
    pub mover: String,
    /// The move as written (empty at ply 0).
    pub text: String,
    /// The board as the game draws it.
    pub board: String,
}

/// A game replayed.
pub struct Replay {
    /// The positions asked for with `steps`, in order.
    pub shown: Vec<Shown>,
    /// The final board, when `steps` was not given (its last shown position otherwise).
    pub last: Option<String>,
    /// `P1 wins (reason)` style result, or `unfinished`.
    pub result: String,
}

/// Replays the moves of `request`.
///
/// # Errors
/// An unknown game, a record file without the game asked for, an illegal move (naming
/// its line and ply), `steps` past the end.
pub fn replay(request: ReplayRequest) -> Result<Replay, Error> {
    let (registry, _) = load_agents(request.agents.as_deref(), None)?;
    let spec = super::launch::parse_game(&request.game, &registry)?;
    let source = &request.source;
    let moves = if is_record_file(&request.text) {
        // A record file (a run's games.pgn): the game with `id`, or its only game.
        let games = read_game_records(&request.text).map_err(|e| format!("{source}: {e}"))?;
        let chosen = match request.id {
            Some(id) => games
                .into_iter()
                .find(|g| g.tag("GameId") == Some(id.to_string().as_str()))
                .ok_or_else(|| format!("{source}: no game with GameId {id}"))?,
            None if games.len() == 1 => games.into_iter().next().expect("one game"),
            None => {
                return Err(Error::Message(format!(
                    "{source}: {} games in this record file: choose one with --id N (its GameId)",
                    games.len()
                )));
            }
        };
        if let Some(recorded) = chosen.tag("Game")
            && let Ok(recorded_spec) = registry.game(recorded)
            && recorded_spec != spec
        {
            return Err(Error::Message(format!(
                "{source}: the game was {recorded}, not {}",
                request.game
            )));
        }
        chosen.moves
    } else {
        if request.id.is_some() {
            return Err(Error::Message(format!(
                "--id: {source} is a plain move list, not a record file (games.pgn)"
            )));
        }
        read_moves(&request.text)
    };
    dispatch(
        spec,
        ReplayTask {
            moves,
            source: request.source,
            steps: request.steps,
        },
    )
}

struct ReplayTask {
    source: String,
    moves: Vec<(usize, String)>,
    steps: Option<usize>,
}

impl GameTask for ReplayTask {
    type Output = Result<Replay, Error>;
    fn run<G: GameEntry>(self, start: G) -> Result<Replay, Error> {
        // Moves written together (Connect Four's "4453") are taken one by one.
        let moves: Vec<(usize, String)> = self
            .moves
            .into_iter()
            .flat_map(|(line, text)| match start.split_moves(&text) {
                Some(parts) => parts.into_iter().map(|m| (line, m)).collect(),
                None => vec![(line, text)],
            })
            .collect();
        let mut state = start;
        let mut shown = Vec::new();
        if let Some(from) = self.steps {
            if from > moves.len() {
                return Err(Error::Message(format!(
                    "--steps {from}: {} has {} moves",
                    self.source,
                    moves.len()
                )));
            }
            if from == 0 {
                shown.push(Shown {
                    ply: 0,
                    mover: state.to_move().label().to_string(),
                    text: String::new(),
                    board: state.board_display(),
                });
            }
        }
        for (ply, (line, text)) in moves.iter().enumerate() {
            let mover = state.to_move();
            let mv = state
                .parse_move(text)
                .map_err(|e| format!("{}: line {line}: ply {}: {e}", self.source, ply + 1))?;
            state.apply(mv);
            if self.steps.is_some_and(|from| ply + 1 >= from) {
                shown.push(Shown {
                    ply: ply + 1,
                    mover: mover.label().to_string(),
                    text: text.clone(),
                    board: state.board_display(),
                });
            }
        }
        let result = match state.outcome() {
            Some(outcome) => format!("{} ({})", outcome.winner_label(), outcome.reason),
            None => "unfinished".to_string(),
        };
        Ok(Replay {
            shown,
            last: self.steps.is_none().then(|| state.board_display()),
            result,
        })
    }
}
