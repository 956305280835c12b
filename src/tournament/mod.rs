//! The schedule (which games, with which seeds and colours), playing one game, and playing
//! many on all cores. Knows no particular game, no file and no terminal: results go to a
//! [`Reporter`], in game order, as games finish.

pub mod compare;
#[cfg(test)]
mod tests;

use crate::core::seeds;
use crate::core::{Agent, ByPlayer, Game, Player, SearchStats};
use crate::registry::{AgentFactory, Colours};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Separates moves in a recorded move list (a game's notation may contain spaces).
pub const MOVE_SEPARATOR: char = ';';

/// Games a worker collects before handing them to the writer.
const BATCH_GAMES: usize = 64;
/// The longest a finished game waits in a worker's batch.
const BATCH_WAIT: std::time::Duration = std::time::Duration::from_millis(20);

/// The termination reason of a game stopped by the harness's ply cap (a draw).
pub const PLY_CAP_REASON: &str = "ply-cap";

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// Unique within the experiment: `matchup * games_per_matchup + game_index`.
    pub id: u64,
    /// Index of the matchup.
    pub matchup: usize,
    /// Index of the game within its matchup.
    pub game_index: u64,
    /// The game's seed, derived from (experiment seed, matchup, game index).
    pub seed: u64,
    /// The matchup's two agents as listed (indices into the experiment's agents).
    pub agents: [usize; 2],
    /// Whether the first listed agent plays P1 in this game.
    pub first_is_p1: bool,
}

impl GameJob {
    /// Which of the two listed agents (0 or 1) plays `player`.
    pub fn slot(&self, player: Player) -> usize {
        usize::from((player == Player::P1) != self.first_is_p1)
    }

    /// The agent (index into the experiment's agents) that plays `player`.
    pub fn agent(&self, player: Player) -> usize {
        self.agents[self.slot(player)]
    }

    /// The seed of the agent in `player`'s seat.
    pub fn agent_seed(&self, player: Player) -> u64 {
        seeds::derive(self.seed, &[player.index() as u64])
    }
}

/// Every game of an experiment, in id order.
pub fn schedule(
    experiment_seed: u64,
    matchups: &[[usize; 2]],
    games_per_matchup: u64,
    colours: Colours,
) -> Vec<GameJob> {
    let mut jobs = Vec::with_capacity(matchups.len() * games_per_matchup as usize);
    for (matchup, &agents) in matchups.iter().enumerate() {
        for game_index in 0..games_per_matchup {
            jobs.push(GameJob {
                id: matchup as u64 * games_per_matchup + game_index,
                matchup,
                game_index,
                seed: seeds::derive(experiment_seed, &[matchup as u64, game_index]),
                agents,
                first_is_p1: match colours {
                    Colours::Alternate => game_index % 2 == 0,
                    Colours::AsListed => true,
                },
            });
        }
    }
    jobs
}

/// One move as recorded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveRecord {
    /// Who moved.
    pub side: Player,
    /// Nodes expanded for this decision.
    pub expanded: u64,
    /// Leaves evaluated for this decision.
    pub evaluated: u64,
    /// Children generated for this decision.
    pub generated: u64,
    /// Peak bytes of search state during this decision.
    pub peak_bytes: u64,
    /// Wall time of the decision in nanoseconds (monotonic clock).
    pub nanos: u64,
    /// The search's root value for the mover, if it searched.
    pub value: Option<f64>,
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideRecord {
    /// Moves played.
    pub moves: u32,
    /// Search statistics summed over its moves.
    pub stats: SearchStats,
    /// Decision time summed over its moves, in nanoseconds.
    pub nanos: u64,
    /// Enemy pieces it captured.
    pub captures: u32,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The scheduled game.
    pub job: GameJob,
    /// The winner (`None`: draw).
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: &'static str,
    /// Moves played by both sides.
    pub plies: u32,
    /// Per-side totals.
    pub sides: ByPlayer<SideRecord>,
    /// Per-move records, in order.
    pub moves: Vec<MoveRecord>,
    /// The moves in the game's notation, separated by [`MOVE_SEPARATOR`].
    pub move_text: String,
}

/// Plays one game from `start` between the agents in `seats`, stopping at `max_plies`
/// (scored a draw, reason [`PLY_CAP_REASON`]).
pub fn play_game<G: Game>(
    start: &G,
    job: GameJob,
    seats: &mut ByPlayer<Box<dyn Agent<G>>>,
    max_plies: u32,
) -> GameRecord {
    let mut state = start.clone();
    let mut sides = ByPlayer([SideRecord::default(); 2]);
    let mut moves = Vec::with_capacity(128);
    let mut move_text = String::with_capacity(1024);
    let (winner, reason) = loop {
        if let Some(outcome) = state.outcome() {
            break (outcome.winner, outcome.reason);
        }
        if moves.len() >= max_plies as usize {
            break (None, PLY_CAP_REASON);
        }
        let side = state.to_move();
        let opponent_pieces = state.piece_count(side.opponent());
        let clock = Instant::now();
        let decision = seats[side].decide(&state);
        let nanos = clock.elapsed().as_nanos() as u64;
        if !move_text.is_empty() {
            move_text.push(MOVE_SEPARATOR);
        }
        state.write_move(decision.mv, &mut move_text);
        state.apply(decision.mv);
        let record = &mut sides[side];
        record.moves += 1;
        record.stats += decision.stats;
        record.nanos += nanos;
        record.captures += opponent_pieces - state.piece_count(side.opponent());
        moves.push(MoveRecord {
            side,
            expanded: decision.stats.expanded,
            evaluated: decision.stats.evaluated,
            generated: decision.stats.generated,
            peak_bytes: decision.stats.peak_bytes,
            nanos,
            value: decision.value,
        });
    };
    GameRecord {
        job,
        winner,
        reason,
        plies: moves.len() as u32,
        sides,
        moves,
        move_text,
    }
}

/// Receives a run's events. Games arrive in schedule order whatever the thread count.
pub trait Reporter {
    /// Before the first game: how many games will be played.
    fn started(&mut self, _total: usize) -> io::Result<()> {
        Ok(())
    }

    /// A game finished.
    fn game_finished(&mut self, _record: &GameRecord) -> io::Result<()> {
        Ok(())
    }

    /// After the last game (or after a cancellation, once every finished game is in).
    fn ended(&mut self, _outcome: &RunOutcome) -> io::Result<()> {
        Ok(())
    }
}

/// Several reporters fed the same events, in order.
pub struct Reporters<'a>(pub Vec<&'a mut dyn Reporter>);

impl Reporter for Reporters<'_> {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.started(total))
    }
    fn game_finished(&mut self, record: &GameRecord) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.game_finished(record))
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.ended(outcome))
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Games played and reported.
    pub played: usize,
    /// Games scheduled.
    pub total: usize,
    /// Whether the run was stopped before every game was played.
    pub cancelled: bool,
}

/// Plays `jobs` from `start` on `threads` worker threads. Agents are built fresh for every
/// game from `factories` (indexed by agent) and the seat's seed. Setting `cancel` stops
/// workers from starting new games; games in progress finish and are reported.
///
/// # Errors
/// The first error a reporter returns (the run stops), or a thread pool that cannot start.
pub fn run<G: Game>(
    start: &G,
    jobs: &[GameJob],
    factories: &[AgentFactory<G>],
    max_plies: u32,
    threads: usize,
    cancel: &AtomicBool,
    reporter: &mut dyn Reporter,
) -> io::Result<RunOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    reporter.started(jobs.len())?;
    let next_job = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::sync_channel::<Vec<(usize, GameRecord)>>(64);
    let mut written = 0usize;
    let result = std::thread::scope(|scope| -> io::Result<()> {
        let next_job = &next_job;
        scope.spawn(move || {
            pool.broadcast(|_| {
                let sender = sender.clone();
                // Fast games travel in batches (one wake-up of the writer per batch);
                // a batch is sent as soon as it is full or has waited BATCH_WAIT.
                let mut batch = Vec::with_capacity(BATCH_GAMES);
                let mut batch_started = Instant::now();
                loop {
                    if cancel.load(Ordering::Relaxed) {
                        break;
                    }
                    let position = next_job.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = jobs.get(position) else {
                        break;
                    };
                    let mut seats = ByPlayer([
                        factories[job.agent(Player::P1)](job.agent_seed(Player::P1)),
                        factories[job.agent(Player::P2)](job.agent_seed(Player::P2)),
                    ]);
                    if batch.is_empty() {
                        batch_started = Instant::now();
                    }
                    batch.push((position, play_game(start, job, &mut seats, max_plies)));
                    if batch.len() >= BATCH_GAMES || batch_started.elapsed() >= BATCH_WAIT {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH_GAMES));
                        if sender.send(full).is_err() {
                            return;
                        }
                    }
                }
                if !batch.is_empty() {
                    let _ = sender.send(batch);
                }
            });
        });
        // Reorder: write each game once every game scheduled before it is written.
        let mut pending: BTreeMap<usize, GameRecord> = BTreeMap::new();
        for (position, record) in receiver.iter().flatten() {
            pending.insert(position, record);
            while let Some(record) = pending.remove(&written) {
                if let Err(error) = reporter.game_finished(&record) {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(error);
                }
                written += 1;
            }
        }
        // Cancelled: games after a gap are finished too; keep them, still in order.
        for record in pending.into_values() {
            reporter.game_finished(&record)?;
            written += 1;
        }
        Ok(())
    });
    result?;
    let outcome = RunOutcome {
        played: written,
        total: jobs.len(),
        cancelled: written < jobs.len(),
    };
    reporter.ended(&outcome)?;
    Ok(outcome)
}
