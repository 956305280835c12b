//! The schedule (which games, with which seeds and colours), playing one game, and playing
//! many on all cores. Knows no particular game, no file and no terminal: results go to a
//! [`Reporter`], in game order, as games finish.

pub mod compare;
#[cfg(test)]
mod tests;

use crate::core::seeds;
use crate::core::{Agent, ByPlayer, Game, Player, SearchStats};
use crate::registry::{AgentFactory, Colours};
use std::borrow::Cow;
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

/// The termination reason of a game lost by overrunning the per-move time limit.
pub const TIMEOUT_REASON: &str = "timeout";

/// The termination reason of a game stopped by the harness's ply cap (a draw).
pub const PLY_CAP_REASON: &str = "ply-cap";

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameJob {
    /// Unique within the experiment: the game's place in the schedule.
    pub id: u64,
    /// Index of the matchup.
    pub matchup: usize,
    /// Index of the game within its matchup.
    pub game_index: u64,
    /// Which opening (and seed) the game uses: with alternating colours the two games of a
    /// colour-swapped pair share it (`game_index / 2`), otherwise it is `game_index`.
    pub pair: u64,
    /// The game's seed, derived from (experiment seed, matchup's seed key, pair).
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

/// A matchup to schedule: its two agents and the key its games' seeds derive from.
/// Matchups with the same key (e.g. the variants of a sweep against one opponent) play
/// the same seeds and openings: a paired comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchupPlan {
    /// The two agents, in the order listed.
    pub agents: [usize; 2],
    /// Seed key.
    pub seed_key: u64,
    /// Games to schedule.
    pub games: u64,
}

/// Every game of an experiment, in id order; each matchup's seed key is its index.
pub fn schedule(
    experiment_seed: u64,
    matchups: &[[usize; 2]],
    games_per_matchup: u64,
    colours: Colours,
) -> Vec<GameJob> {
    let plans: Vec<MatchupPlan> = matchups
        .iter()
        .enumerate()
        .map(|(index, &agents)| MatchupPlan {
            agents,
            seed_key: index as u64,
            games: games_per_matchup,
        })
        .collect();
    schedule_plans(experiment_seed, &plans, colours)
}

/// Every game of an experiment, in id order (ids count games in schedule order).
pub fn schedule_plans(
    experiment_seed: u64,
    matchups: &[MatchupPlan],
    colours: Colours,
) -> Vec<GameJob> {
    let total: u64 = matchups.iter().map(|p| p.games).sum();
    let mut jobs = Vec::with_capacity(total as usize);
    for (matchup, plan) in matchups.iter().enumerate() {
        for game_index in 0..plan.games {
            let (pair, first_is_p1) = match colours {
                Colours::Alternate => (game_index / 2, game_index % 2 == 0),
                Colours::AsListed => (game_index, true),
            };
            jobs.push(GameJob {
                id: jobs.len() as u64,
                matchup,
                game_index,
                pair,
                seed: seeds::derive(experiment_seed, &[plan.seed_key, pair]),
                agents: plan.agents,
                first_is_p1,
            });
        }
    }
    jobs
}

/// Where games start.
#[derive(Clone, Debug)]
pub enum Openings<G> {
    /// The game's start position.
    Start,
    /// This many uniformly random plies from the start, drawn from the game's seed (so
    /// both games of a colour-swapped pair share the opening).
    RandomPlies(u32),
    /// Positions with the moves that reach them (`;`-separated), used in turn by pair.
    List(Vec<(G, String)>),
}

impl<G: Game> Openings<G> {
    /// The opening position of `job` and its moves in notation.
    pub fn position(&self, start: &G, job: &GameJob) -> (G, String) {
        match self {
            Openings::Start => (start.clone(), String::new()),
            Openings::List(list) if !list.is_empty() => {
                list[(job.pair % list.len() as u64) as usize].clone()
            }
            Openings::List(_) => (start.clone(), String::new()),
            Openings::RandomPlies(plies) => {
                let mut moves = Vec::new();
                // Redraw (deterministically) if a random line ends the game.
                for attempt in 0..100u64 {
                    let mut rng = seeds::rng(seeds::derive(job.seed, &[0x6f70_656e, attempt]));
                    let mut state = start.clone();
                    let mut text = String::new();
                    for _ in 0..*plies {
                        state.legal_moves(&mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        let mv = moves[seeds::below(&mut rng, moves.len())];
                        if !text.is_empty() {
                            text.push(MOVE_SEPARATOR);
                        }
                        state.write_move(mv, &mut text);
                        state.apply(mv);
                    }
                    if state.outcome().is_none() {
                        return (state, text);
                    }
                }
                (start.clone(), String::new())
            }
        }
    }
}

/// One move as recorded.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
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
    /// The depth the search completed.
    pub depth: u32,
    /// Whether the decision overran the per-move limit (and a random move was played).
    pub timed_out: bool,
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
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
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GameRecord {
    /// The scheduled game.
    pub job: GameJob,
    /// The winner (`None`: draw).
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: Cow<'static, str>,
    /// The opening's moves (`;`-separated; empty from the start position).
    pub opening: String,
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
    play_from(start.clone(), String::new(), job, seats, max_plies, None)
}

/// Plays one game from an opening position (`opening`: the moves that reach it).
pub fn play_from<G: Game>(
    mut state: G,
    opening: String,
    job: GameJob,
    seats: &mut ByPlayer<Box<dyn Agent<G>>>,
    max_plies: u32,
    move_time_limit: Option<std::time::Duration>,
) -> GameRecord {
    let mut sides = ByPlayer([SideRecord::default(); 2]);
    let mut moves = Vec::with_capacity(128);
    let mut move_text = String::with_capacity(1024);
    let (winner, reason) = loop {
        if let Some(outcome) = state.outcome() {
            break (outcome.winner, Cow::Borrowed(outcome.reason));
        }
        if moves.len() >= max_plies as usize {
            break (None, Cow::Borrowed(PLY_CAP_REASON));
        }
        let side = state.to_move();
        let opponent_pieces = state.piece_count(side.opponent());
        let clock = Instant::now();
        let mut decision = seats[side].decide(&state);
        let nanos = clock.elapsed().as_nanos() as u64;
        let timed_out = move_time_limit.is_some_and(|limit| nanos > limit.as_nanos() as u64);
        if timed_out {
            if state.timeout_forfeits() {
                sides[side].nanos += nanos;
                break (Some(side.opponent()), Cow::Borrowed(TIMEOUT_REASON));
            }
            // The game's rule: a random legal move is played instead (seeded by game and ply).
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            let mut rng = seeds::rng(seeds::derive(job.seed, &[0x7469_6d65, moves.len() as u64]));
            decision.mv = legal[seeds::below(&mut rng, legal.len())];
            decision.value = None;
        }
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
            depth: decision.depth,
            timed_out,
        });
    };
    GameRecord {
        job,
        winner,
        reason,
        opening,
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

    /// A scheduled game that will not be played: its matchup was decided early.
    fn game_skipped(&mut self, _job: &GameJob) -> io::Result<()> {
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
    fn game_skipped(&mut self, job: &GameJob) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.game_skipped(job))
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.0.iter_mut().try_for_each(|r| r.ended(outcome))
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOutcome {
    /// Games played and reported (including games of an earlier, resumed run).
    pub played: usize,
    /// Games skipped because their matchup was decided early.
    pub skipped: usize,
    /// Games scheduled.
    pub total: usize,
    /// Whether the run stopped before every game was played or skipped.
    pub cancelled: bool,
}

/// Decides, game by game in schedule order, whether a matchup is over before its last
/// scheduled game (e.g. a sequential test reached a verdict).
pub trait Control {
    /// Called with each finished game in schedule order; `true` stops the game's matchup:
    /// its later games are not played, or are dropped if already played.
    fn matchup_decided(&mut self, record: &GameRecord) -> bool;
}

/// Plays every scheduled game.
pub struct NoControl;

impl Control for NoControl {
    fn matchup_decided(&mut self, _record: &GameRecord) -> bool {
        false
    }
}

/// What a run plays with.
pub struct RunConfig<'a, G: Game> {
    /// The start position.
    pub start: &'a G,
    /// Where games start.
    pub openings: &'a Openings<G>,
    /// Agent factories by agent index.
    pub factories: &'a [AgentFactory<G>],
    /// Plies after which a game is stopped as a draw.
    pub max_plies: u32,
    /// Worker threads.
    pub threads: usize,
    /// No game is started after this instant.
    pub deadline: Option<Instant>,
    /// No more than this many new games are started.
    pub max_games: Option<usize>,
    /// The per-move time limit, enforced with the game's forfeit rule.
    pub move_time_limit: Option<std::time::Duration>,
}

enum Finished {
    Played(Box<GameRecord>),
    Skipped,
}

/// Plays `jobs` on `config.threads` worker threads and reports them in schedule order.
/// Games in `done` (by id; from an interrupted run) are reported, not played again.
/// Setting `cancel` stops workers from starting new games; games in progress finish and
/// are reported.
///
/// # Errors
/// The first error a reporter returns (the run stops), or a thread pool that cannot start.
pub fn run<G: Game>(
    config: &RunConfig<'_, G>,
    jobs: &[GameJob],
    mut done: BTreeMap<u64, GameRecord>,
    cancel: &AtomicBool,
    control: &mut dyn Control,
    reporter: &mut dyn Reporter,
) -> io::Result<RunOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    reporter.started(jobs.len())?;
    let matchups = jobs.iter().map(|j| j.matchup + 1).max().unwrap_or(0);
    let decided: Vec<AtomicBool> = (0..matchups).map(|_| AtomicBool::new(false)).collect();
    let next_job = AtomicUsize::new(0);
    let started = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::sync_channel::<Vec<(usize, Finished)>>(64);
    let (mut position, mut played, mut skipped) = (0usize, 0usize, 0usize);
    let done_ids: std::collections::BTreeSet<u64> = done.keys().copied().collect();
    let mut pending: BTreeMap<usize, Finished> = jobs
        .iter()
        .enumerate()
        .filter_map(|(i, job)| {
            done.remove(&job.id)
                .map(|r| (i, Finished::Played(Box::new(r))))
        })
        .collect();
    let result = std::thread::scope(|scope| -> io::Result<()> {
        let (next_job, started, decided, done_ids) = (&next_job, &started, &decided, &done_ids);
        scope.spawn(move || {
            pool.broadcast(|_| {
                let sender = sender.clone();
                // Fast games travel in batches (one wake-up of the writer per batch);
                // a batch is sent as soon as it is full or has waited BATCH_WAIT.
                let mut batch = Vec::with_capacity(BATCH_GAMES);
                let mut batch_started = Instant::now();
                loop {
                    let out_of_time = config.deadline.is_some_and(|d| Instant::now() >= d);
                    if cancel.load(Ordering::Relaxed) || out_of_time {
                        break;
                    }
                    let index = next_job.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = jobs.get(index) else {
                        break;
                    };
                    if batch.is_empty() {
                        batch_started = Instant::now();
                    }
                    let finished = if done_ids.contains(&job.id) {
                        None
                    } else if decided[job.matchup].load(Ordering::Relaxed) {
                        Some(Finished::Skipped)
                    } else {
                        if config
                            .max_games
                            .is_some_and(|max| started.fetch_add(1, Ordering::Relaxed) >= max)
                        {
                            break;
                        }
                        let mut seats = ByPlayer([
                            config.factories[job.agent(Player::P1)](job.agent_seed(Player::P1)),
                            config.factories[job.agent(Player::P2)](job.agent_seed(Player::P2)),
                        ]);
                        let (opening, moves) = config.openings.position(config.start, &job);
                        Some(Finished::Played(Box::new(play_from(
                            opening,
                            moves,
                            job,
                            &mut seats,
                            config.max_plies,
                            config.move_time_limit,
                        ))))
                    };
                    if let Some(finished) = finished {
                        batch.push((index, finished));
                    }
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
        // Reorder: report each game once every game scheduled before it is reported.
        let mut deliver = |index: usize, finished: Finished| -> io::Result<()> {
            let job = &jobs[index];
            match finished {
                Finished::Played(record) if !decided[job.matchup].load(Ordering::Relaxed) => {
                    reporter.game_finished(&record)?;
                    played += 1;
                    if control.matchup_decided(&record) {
                        decided[job.matchup].store(true, Ordering::Relaxed);
                    }
                }
                // Played after its matchup was decided, or never played: skipped.
                _ => {
                    reporter.game_skipped(job)?;
                    skipped += 1;
                }
            }
            Ok(())
        };
        let mut flush = |pending: &mut BTreeMap<usize, Finished>| -> io::Result<()> {
            while let Some(finished) = pending.remove(&position) {
                deliver(position, finished)?;
                position += 1;
            }
            Ok(())
        };
        flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        for (index, finished) in receiver.iter().flatten() {
            pending.insert(index, finished);
            flush(&mut pending).inspect_err(|_| cancel.store(true, Ordering::Relaxed))?;
        }
        // Stopped early: games after a gap are finished too; keep them, still in order.
        for (index, finished) in pending {
            deliver(index, finished)?;
        }
        Ok(())
    });
    result?;
    let outcome = RunOutcome {
        played,
        skipped,
        total: jobs.len(),
        cancelled: played + skipped < jobs.len(),
    };
    reporter.ended(&outcome)?;
    Ok(outcome)
}

/// Plays `jobs` from the start position with every game played (no openings, no early
/// stopping, no limits): for tests, benchmarks and simple callers.
///
/// # Errors
/// As [`run`].
pub fn run_all<G: Game>(
    start: &G,
    jobs: &[GameJob],
    factories: &[AgentFactory<G>],
    threads: usize,
    cancel: &AtomicBool,
    reporter: &mut dyn Reporter,
) -> io::Result<RunOutcome> {
    let config = RunConfig {
        start,
        openings: &Openings::Start,
        factories,
        max_plies: 1000,
        threads,
        deadline: None,
        max_games: None,
        move_time_limit: None,
    };
    run(
        &config,
        jobs,
        BTreeMap::new(),
        cancel,
        &mut NoControl,
        reporter,
    )
}
