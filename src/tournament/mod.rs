//! The schedule (which games, with which seeds and colours), playing one game, and
//! searching one position for a comparison. May use core, games, search and registry;
//! knows no particular game, no file, no terminal and no thread pool (the experiment layer
//! runs many jobs).

pub mod compare;
pub mod rounds;
pub mod table;
#[cfg(test)]
mod tests;

use crate::core::seeds;
use crate::core::{
    Adjudication, Agent, ByPlayer, Clock, FaultReason, Game, GameContext, Limits, Player,
    SearchStats, TimeControl,
};
use crate::registry::{AgentFactory, Colours};
use std::borrow::Cow;
use std::time::{Duration, Instant};

pub use crate::core::MOVE_SEPARATOR;

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

    /// The seed of the agent in `player`'s seat, derived from its slot in the matchup
    /// (first or second listed), not from the seat: an agent keeps its stream across
    /// a colour-swapped pair, and the two games of a pair differ even when the two agents
    /// are one (self-play) or play alike. Seeded by seat, game 2k+1 of a self-play pair
    /// replayed game 2k move for move.
    pub fn agent_seed(&self, player: Player) -> u64 {
        seeds::derive(self.seed, &[self.slot(player) as u64])
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
    let schedule = Schedule::new(experiment_seed, matchups.to_vec(), colours);
    (0..schedule.len()).map(|id| schedule.job(id)).collect()
}

/// The games of an experiment, computed one at a time from their id: a plan of millions
/// of games costs one entry per matchup, not one per game.
#[derive(Clone, Debug)]
pub struct Schedule {
    seed: u64,
    plans: Vec<MatchupPlan>,
    /// The id of each matchup's first game, and after the last the total.
    starts: Vec<u64>,
    colours: Colours,
}

impl Schedule {
    /// The schedule of `plans` in order under the experiment seed.
    pub fn new(experiment_seed: u64, plans: Vec<MatchupPlan>, colours: Colours) -> Schedule {
        let mut starts = Vec::with_capacity(plans.len() + 1);
        let mut total = 0u64;
        for plan in &plans {
            starts.push(total);
            total = total.saturating_add(plan.games);
        }
        starts.push(total);
        Schedule {
            seed: experiment_seed,
            plans,
            starts,
            colours,
        }
    }

    /// Games scheduled.
    pub fn len(&self) -> u64 {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Whether no game is scheduled.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The matchup game `id` belongs to (`id` below [`Schedule::len`]).
    pub fn matchup_of(&self, id: u64) -> usize {
        self.starts
            .partition_point(|&start| start <= id)
            .saturating_sub(1)
    }

    /// Game `id` (below [`Schedule::len`]).
    pub fn job(&self, id: u64) -> GameJob {
        let matchup = self.matchup_of(id);
        let plan = &self.plans[matchup];
        let game_index = id - self.starts[matchup];
        let (pair, first_is_p1) = match self.colours {
            Colours::Alternate => (game_index / 2, game_index.is_multiple_of(2)),
            Colours::AsListed => (game_index, true),
        };
        GameJob {
            id,
            matchup,
            game_index,
            pair,
            seed: seeds::derive(self.seed, &[plan.seed_key, pair]),
            agents: plan.agents,
            first_is_p1,
        }
    }
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
        self.position_at(start, job.pair, job.seed)
    }

    /// The opening of the `index`-th pair (or deal) of games, whose seed is `seed`: the
    /// list's openings in turn, or random plies drawn from the seed.
    pub fn position_at(&self, start: &G, index: u64, seed: u64) -> (G, String) {
        match self {
            Openings::Start => (start.clone(), String::new()),
            Openings::List(list) if !list.is_empty() => {
                list[(index % list.len() as u64) as usize].clone()
            }
            Openings::List(_) => (start.clone(), String::new()),
            Openings::RandomPlies(plies) => {
                let mut moves = Vec::new();
                // Redraw (deterministically) if a random line ends the game.
                for attempt in 0..100u64 {
                    let mut rng = seeds::rng(seeds::derive(seed, &[0x6f70_656e, attempt]));
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

/// One move as recorded. A journal line counts its game's moves (`move_rows`) and
/// moves.csv holds them; journals of earlier versions held them, as the compact arrays
/// of [`MoveForm`] or, before those, as objects, and both still read.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(from = "MoveForm")]
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
    /// Wall time of the move in nanoseconds (monotonic clock), as a chess clock runs: from
    /// the end of the previous decision (or the game's start) to the end of this one.
    pub nanos: u64,
    /// The search's root value for the mover, if it searched.
    pub value: Option<f64>,
    /// The depth the search completed.
    pub depth: u32,
    /// Whether the decision overran the per-move limit (and a random move was played).
    pub timed_out: bool,
    /// The agent's failure on this move, if any (the move played was then a seeded random
    /// one, or the game ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<FaultReason>,
    /// Whether the counts are the agent's own report (an external program's `info`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub self_reported: bool,
    /// CPU time of the decision in nanoseconds, where it was measured (external programs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_nanos: Option<u64>,
    /// Time left on the mover's clock after the move (its increment added), in
    /// nanoseconds, when the game has clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_nanos: Option<u64>,
}

/// A move as a journal of an earlier version holds it: an object, or (later) the compact
/// array `[side, nanos, expanded, evaluated, generated, peak_bytes, value, depth,
/// timed_out, fault, self_reported, cpu_nanos, clock_nanos]` (side 0 or 1, flags 0 or 1,
/// absent values null), its trailing defaults left out (a random move is `[0,801]`).
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum MoveForm {
    Compact(CompactMove),
    Full(FullMove),
}

#[derive(serde::Deserialize)]
struct CompactMove(
    u8,
    u64,
    #[serde(default)] u64,
    #[serde(default)] u64,
    #[serde(default)] u64,
    #[serde(default)] u64,
    #[serde(default)] Option<f64>,
    #[serde(default)] u32,
    #[serde(default)] u8,
    #[serde(default)] Option<FaultReason>,
    #[serde(default)] u8,
    #[serde(default)] Option<u64>,
    #[serde(default)] Option<u64>,
);

#[derive(serde::Deserialize)]
struct FullMove {
    side: Player,
    expanded: u64,
    evaluated: u64,
    generated: u64,
    peak_bytes: u64,
    nanos: u64,
    value: Option<f64>,
    depth: u32,
    timed_out: bool,
    #[serde(default)]
    fault: Option<FaultReason>,
    #[serde(default)]
    self_reported: bool,
    #[serde(default)]
    cpu_nanos: Option<u64>,
    #[serde(default)]
    clock_nanos: Option<u64>,
}

impl From<MoveForm> for MoveRecord {
    fn from(form: MoveForm) -> MoveRecord {
        match form {
            MoveForm::Compact(CompactMove(
                side,
                nanos,
                expanded,
                evaluated,
                generated,
                peak_bytes,
                value,
                depth,
                timed_out,
                fault,
                self_reported,
                cpu_nanos,
                clock_nanos,
            )) => MoveRecord {
                side: if side == 0 { Player::P1 } else { Player::P2 },
                expanded,
                evaluated,
                generated,
                peak_bytes,
                nanos,
                value,
                depth,
                timed_out: timed_out != 0,
                fault,
                self_reported: self_reported != 0,
                cpu_nanos,
                clock_nanos,
            },
            MoveForm::Full(m) => MoveRecord {
                side: m.side,
                expanded: m.expanded,
                evaluated: m.evaluated,
                generated: m.generated,
                peak_bytes: m.peak_bytes,
                nanos: m.nanos,
                value: m.value,
                depth: m.depth,
                timed_out: m.timed_out,
                fault: m.fault,
                self_reported: m.self_reported,
                cpu_nanos: m.cpu_nanos,
                clock_nanos: m.clock_nanos,
            },
        }
    }
}

impl MoveRecord {
    /// Appends the move as a compact JSON array, as journals of earlier versions hold it
    /// (the tests write them, to check that they still read).
    #[cfg(test)]
    pub fn write_compact(&self, out: &mut Vec<u8>) {
        use crate::core::json::{push_opt_u64, push_u64};
        // How many fields after side and nanos: up to the last not at its default.
        let fields = if self.clock_nanos.is_some() {
            11
        } else if self.cpu_nanos.is_some() {
            10
        } else if self.self_reported {
            9
        } else if self.fault.is_some() {
            8
        } else if self.timed_out {
            7
        } else if self.depth > 0 {
            6
        } else if self.value.is_some() {
            5
        } else if self.peak_bytes > 0 {
            4
        } else if self.generated > 0 {
            3
        } else if self.evaluated > 0 {
            2
        } else {
            usize::from(self.expanded > 0)
        };
        out.push(b'[');
        out.push(if self.side == Player::P1 { b'0' } else { b'1' });
        out.push(b',');
        push_u64(out, self.nanos);
        let counts = [
            self.expanded,
            self.evaluated,
            self.generated,
            self.peak_bytes,
        ];
        for &n in counts.iter().take(fields) {
            out.push(b',');
            push_u64(out, n);
        }
        if fields >= 5 {
            out.push(b',');
            match self.value {
                // serde_json's shortest round-trip form; a value that is not finite is
                // null, as serde_json writes it.
                Some(value) if value.is_finite() => {
                    let _ = serde_json::to_writer(&mut *out, &value);
                }
                _ => out.extend_from_slice(b"null"),
            }
        }
        if fields >= 6 {
            out.push(b',');
            push_u64(out, u64::from(self.depth));
        }
        if fields >= 7 {
            out.extend_from_slice(if self.timed_out { b",1" } else { b",0" });
        }
        if fields >= 8 {
            out.push(b',');
            match self.fault {
                Some(fault) => crate::core::json::push_str(out, fault.name()),
                None => out.extend_from_slice(b"null"),
            }
        }
        if fields >= 9 {
            out.extend_from_slice(if self.self_reported { b",1" } else { b",0" });
        }
        if fields >= 10 {
            out.push(b',');
            push_opt_u64(out, self.cpu_nanos);
        }
        if fields >= 11 {
            out.push(b',');
            push_opt_u64(out, self.clock_nanos);
        }
        out.push(b']');
    }
}

/// One side's totals over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SideRecord {
    /// Moves played.
    pub moves: u32,
    /// Search statistics summed over its moves (left out of the journal when all zero).
    #[serde(default, skip_serializing_if = "SearchStats::is_zero")]
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
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub opening: String,
    /// Moves played by both sides.
    pub plies: u32,
    /// Per-side totals.
    pub sides: ByPlayer<SideRecord>,
    /// Per-move records of the agents' moves, in order (none when the run writes no
    /// moves.csv).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MoveRecord>,
    /// How many rows of moves.csv hold this game's moves when `moves` does not: a journal
    /// line counts them instead of repeating them (the records' `moves_rows` finds
    /// them again on resume). 0 when `moves` holds them or none were recorded.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub move_rows: u32,
    /// The plies (from 0, in `move_text`) that were chance's outcomes, not an agent's
    /// move: none in a game without chance.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chance: Vec<u32>,
    /// Each seat's return, in a game that scores more than who won ([`Game::returns`])
    /// and ended by its rules (not a forfeit, the ply cap or an adjudication).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub returns: Option<ByPlayer<f64>>,
    /// The moves in the game's notation, separated by [`MOVE_SEPARATOR`] (none with
    /// `--no-moves`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub move_text: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Fresh agents for the two seats of `job`, each with its own seed.
pub fn seat_agents<G: Game>(
    factories: &[AgentFactory<G>],
    job: &GameJob,
) -> ByPlayer<Box<dyn Agent<G>>> {
    ByPlayer([
        factories[job.agent(Player::P1)](job.agent_seed(Player::P1)),
        factories[job.agent(Player::P2)](job.agent_seed(Player::P2)),
    ])
}

/// How long a game may go on and what may stop it.
#[derive(Clone, Debug, Default)]
pub struct PlayLimits {
    /// Plies before the game is scored a draw ([`PLY_CAP_REASON`]).
    pub max_plies: u32,
    /// Time per move: agents are told the deadline and a later move is a timeout.
    pub move_time: Option<std::time::Duration>,
    /// Raised to abandon the game in progress (Ctrl-C): agents stop thinking at once.
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Where agents keep per-game logs (external programs' stderr), if anywhere.
    pub logs: Option<std::path::PathBuf>,
    /// Game clocks: the time control of the first and the second listed agent of the
    /// matchup. A side whose clock runs out (past its agent's margin) loses on time.
    pub time_control: Option<[TimeControl; 2]>,
    /// Whether the clocks are charged the CPU time of each move where it was measured
    /// (external programs) instead of its wall time.
    pub cpu_clock: bool,
    /// Resign and draw rules from the agents' scores.
    pub adjudication: Adjudication,
    /// Keep no per-move records and no move text (`--no-moves`): the record's `moves` and
    /// `move_text` stay empty, and a move is written in notation only for an agent that
    /// is told the moves ([`Agent::observes`]).
    pub no_moves: bool,
    /// Chance's stream per game instead of per pair: no duplicate play.
    pub independent_chance: bool,
}

/// The reason of a game won by the resign rule of [`Adjudication`].
pub const ADJUDICATED_RESIGN: &str = "adjudicated-resign";
/// The reason of a game drawn by the draw rule of [`Adjudication`].
pub const ADJUDICATED_DRAW: &str = "adjudicated-draw";
/// The reason of a game ended by the oracle of [`Adjudication`] (its exact value).
pub const ADJUDICATED_ORACLE: &str = "adjudicated-oracle";

/// The most the oracle's table may take per game, in MB (it starts near one MB and
/// doubles as it fills).
const ORACLE_MEGABYTES: usize = 16;

/// Each side's scores in a row that held each adjudication rule.
#[derive(Clone, Copy, Debug, Default)]
struct Streaks {
    losing: ByPlayer<u32>,
    winning: ByPlayer<u32>,
    level: ByPlayer<u32>,
}

impl Streaks {
    /// Counts `side`'s score for its move; the verdict once a rule holds at `ply`.
    fn after_move(
        &mut self,
        rules: &Adjudication,
        side: Player,
        score: Option<f64>,
        ply: u32,
    ) -> Option<(Option<Player>, &'static str)> {
        let bump = |count: &mut u32, holds: bool| *count = if holds { *count + 1 } else { 0 };
        let score = score.filter(|s| s.is_finite());
        if let Some(rule) = rules.resign {
            bump(
                &mut self.losing[side],
                score.is_some_and(|s| s <= -rule.score),
            );
            bump(
                &mut self.winning[side],
                score.is_some_and(|s| s >= rule.score),
            );
            for loser in [side, side.opponent()] {
                if self.losing[loser] >= rule.moves && self.winning[loser.opponent()] >= rule.moves
                {
                    return Some((Some(loser.opponent()), ADJUDICATED_RESIGN));
                }
            }
        }
        if let Some(rule) = rules.draw {
            bump(
                &mut self.level[side],
                score.is_some_and(|s| s.abs() <= rule.score),
            );
            if ply >= rules.draw_after_ply
                && Player::BOTH.iter().all(|&p| self.level[p] >= rule.moves)
            {
                return Some((None, ADJUDICATED_DRAW));
            }
        }
        None
    }
}

impl PlayLimits {
    /// A ply cap alone.
    pub fn plies(max_plies: u32) -> PlayLimits {
        PlayLimits {
            max_plies,
            ..PlayLimits::default()
        }
    }
}

/// The clock that times moves: the processor's time-stamp counter scaled to nanoseconds
/// where it is invariant (otherwise the system's monotonic clock), calibrated once. Read
/// once a ply (`arbiter bench` shows what a reading costs).
pub(crate) fn move_clock() -> &'static quanta::Clock {
    static CLOCK: std::sync::OnceLock<quanta::Clock> = std::sync::OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

/// Plays one game from `start` between the agents in `seats`, stopping at `max_plies`
/// (scored a draw, reason [`PLY_CAP_REASON`]).
pub fn play_game<G: Game>(
    start: &G,
    job: GameJob,
    seats: &mut ByPlayer<Box<dyn Agent<G>>>,
    max_plies: u32,
) -> GameRecord {
    let limits = PlayLimits::plies(max_plies);
    play_from(start.clone(), String::new(), job, seats, &limits)
        .unwrap_or_else(|| unreachable!("without a stop flag every game ends"))
}

/// Plays one game from an opening position (`opening`: the moves that reach it); `None`
/// when the stop flag of `limits` was raised before it ended (the game is abandoned).
pub fn play_from<G: Game>(
    mut state: G,
    opening: String,
    job: GameJob,
    seats: &mut ByPlayer<Box<dyn Agent<G>>>,
    limits: &PlayLimits,
) -> Option<GameRecord> {
    let (max_plies, move_time_limit) = (limits.max_plies, limits.move_time);
    let mut agent_limits = Limits {
        deadline: None,
        stop: limits.stop.clone(),
    };
    let mut sides = ByPlayer([SideRecord::default(); 2]);
    state.begin_game();
    let record_moves = !limits.no_moves;
    let (mut moves, move_text) = if record_moves {
        (Vec::with_capacity(128), String::with_capacity(1024))
    } else {
        (Vec::new(), String::new())
    };
    // The move in notation is needed for the record or for an agent told the moves; the
    // last one grows at its first move written, if any is.
    let mut texts = MoveTexts {
        write: record_moves || Player::BOTH.iter().any(|&seat| seats[seat].observes()),
        record: record_moves,
        last: String::new(),
        moves: move_text,
    };
    let mut plies = 0u32;
    for seat in Player::BOTH {
        let context = GameContext {
            id: job.id,
            seat,
            seed: job.agent_seed(seat),
            opening: &opening,
            move_time: move_time_limit,
            logs: limits.logs.as_deref(),
        };
        seats[seat].start_game(&state, &context);
    }
    let mut clock = limits.time_control.map(|controls| {
        let control = |seat: Player| controls[job.slot(seat)];
        Clock {
            remaining: ByPlayer([control(Player::P1).base, control(Player::P2).base]),
            increment: ByPlayer([control(Player::P1).increment, control(Player::P2).increment]),
            cpu: limits.cpu_clock,
        }
    });
    // Time a side used past its clock within its margin: owed, and taken from its next
    // moves (an agent cannot overrun by its margin move after move).
    let mut overdraft = ByPlayer([Duration::ZERO; 2]);
    let mut streaks = Streaks::default();
    // Without a resign or draw rule no streak is kept (a call a ply saved).
    let adjudicating = limits.adjudication.scores();
    // The oracle's solver, its table kept from position to position of the game.
    let mut oracle = limits.adjudication.oracle.map(|visits| {
        (
            visits,
            crate::search::solve::Solver::<G>::new(ORACLE_MEGABYTES, Limits::NONE)
                .value_for(&state),
        )
    });
    // A move time or a game clock: deadlines to set and overruns to judge.
    let timed = move_time_limit.is_some() || clock.is_some();
    // A chess clock: one reading a ply, each move timed from the previous reading (the
    // end of the previous decision, or the game's start) to the end of its own decision.
    let clock_source = move_clock();
    let mut last_reading = clock_source.raw();
    // The game's end, tested once a ply (after each move).
    let mut ended = state.outcome();
    // Chance's stream and outcomes, made at its first act (never for most games).
    let mut chance_rng = None;
    let mut outcomes = Vec::new();
    let mut chance = Vec::new();
    let (winner, reason, returns) = loop {
        if let Some(outcome) = ended {
            break (
                outcome.winner,
                Cow::Borrowed(outcome.reason),
                state.returns().map(|returns| returns.pair()),
            );
        }
        if plies >= max_plies {
            break (None, Cow::Borrowed(PLY_CAP_REASON), None);
        }
        // Rules that broke (a rules program failed): no agent is asked to choose among
        // no moves. Nothing is checked for the built-in games.
        if let Some(reason) = crate::core::stuck(&state) {
            break (None, Cow::Borrowed(reason), None);
        }
        // A position the oracle decides within its budget ends the game with its value.
        if let Some((visits, solver)) = oracle.as_mut()
            && plies >= limits.adjudication.oracle_after_ply
        {
            solver.allow(*visits);
            if let Some(solved) = solver.solve(&state) {
                use crate::search::solve::Value;
                let winner = match solved.value {
                    Value::Win(_) => Some(state.to_move()),
                    Value::Loss(_) => Some(state.to_move().opponent()),
                    Value::Draw => None,
                };
                break (winner, Cow::Borrowed(ADJUDICATED_ORACLE), None);
            }
        }
        if G::CHANCE && state.is_chance() {
            // Chance acts from the game's own stream: the same seed (the two games of a
            // pair with colours swapped share it) gives the same outcomes, unless each game
            // is to have its own.
            let rng = chance_rng.get_or_insert_with(|| {
                seeds::rng(if limits.independent_chance {
                    seeds::derive(job.seed, &[CHANCE_STREAM, job.game_index])
                } else {
                    seeds::derive(job.seed, &[CHANCE_STREAM])
                })
            });
            let Some(mv) = state.chance_move(seeds::unit(rng), &mut outcomes) else {
                break (None, Cow::Borrowed("no-chance-outcome"), None);
            };
            if record_moves {
                chance.push(plies);
            }
            play_move(&mut state, mv, &mut texts, &mut seats.0);
            plies += 1;
            ended = state.outcome();
            continue;
        }
        let side = state.to_move();
        let opponent_pieces = state.piece_count(side.opponent());
        // The wall clock is read for deadlines only: a game without a time limit reads
        // one clock per move (the move's time), not two.
        let now = timed.then(Instant::now);
        agent_limits.deadline = move_time_limit
            .zip(now)
            .and_then(|(limit, now)| now.checked_add(limit));
        if let (Some(clock), Some(now)) = (&clock, now) {
            seats[side].see_clock(clock);
            // The clock's deadline; on CPU time, a program that waits instead of
            // computing is still stopped after three times its time left.
            let left = clock.remaining[side];
            let wall = if clock.cpu { left * 3 } else { left };
            let due = now.checked_add(wall);
            agent_limits.deadline = match (agent_limits.deadline, due) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        let mut decision = seats[side].decide(&state, &agent_limits);
        let reading = clock_source.raw();
        let nanos = clock_source.delta_as_nanos(last_reading, reading);
        last_reading = reading;
        if agent_limits.stopped() {
            return None;
        }
        if let Some(fault) = decision.fault
            && fault.forfeit
        {
            sides[side].nanos += nanos;
            break (
                Some(side.opponent()),
                Cow::Borrowed(fault.reason.name()),
                None,
            );
        }
        let margin = if timed {
            seats[side].time_margin()
        } else {
            Duration::ZERO
        };
        // The clock: charged the move's time, then given the increment; a flag that
        // falls (past the agent's margin) loses the game on time.
        let mut clock_nanos = None;
        if let Some(clock) = &mut clock {
            let charged = match (clock.cpu, decision.cpu_nanos) {
                (true, Some(cpu)) => Duration::from_nanos(cpu),
                _ => Duration::from_nanos(nanos),
            };
            let allowance = clock.remaining[side]
                .saturating_add(margin)
                .saturating_sub(overdraft[side]);
            if charged > allowance {
                sides[side].nanos += nanos;
                break (Some(side.opponent()), Cow::Borrowed(TIMEOUT_REASON), None);
            }
            // What it had and its increment, less the move and any time owed.
            let had = clock.remaining[side] + clock.increment[side];
            let spent = charged + overdraft[side];
            let left = had.saturating_sub(spent);
            overdraft[side] = spent.saturating_sub(had);
            clock.remaining[side] = left;
            clock_nanos = Some(u64::try_from(left.as_nanos()).unwrap_or(u64::MAX));
        }
        // Over the move's limit by its time, or past the deadline the agent was given by
        // the deadline's own clock: the move's time comes from the time-stamp counter,
        // calibrated against that clock at the start, and a search stopped by its
        // deadline must not be judged within the limit by a calibration's error.
        let timed_out = decision.fault.is_none()
            && move_time_limit.is_some_and(|limit| {
                let limit = limit.saturating_add(margin);
                Duration::from_nanos(nanos) > limit
                    || now
                        .and_then(|now| now.checked_add(limit))
                        .is_some_and(|deadline| Instant::now() > deadline)
            });
        if timed_out {
            if state.timeout_forfeits() {
                sides[side].nanos += nanos;
                break (Some(side.opponent()), Cow::Borrowed(TIMEOUT_REASON), None);
            }
            // The game's rule: a random legal move is played instead (seeded by game and ply).
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            let mut rng = seeds::rng(seeds::derive(job.seed, &[0x7469_6d65, u64::from(plies)]));
            decision.mv = legal[seeds::below(&mut rng, legal.len())];
            decision.value = None;
        }
        play_move(&mut state, decision.mv, &mut texts, &mut seats.0);
        plies += 1;
        let record = &mut sides[side];
        record.moves += 1;
        record.stats += &decision.stats;
        record.nanos += nanos;
        record.captures += opponent_pieces - state.piece_count(side.opponent());
        if record_moves {
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
                fault: decision.fault.map(|f| f.reason),
                self_reported: decision.self_reported,
                cpu_nanos: decision.cpu_nanos,
                clock_nanos,
            });
        }
        ended = state.outcome();
        if ended.is_none()
            && adjudicating
            && let Some((winner, reason)) =
                streaks.after_move(&limits.adjudication, side, decision.value, plies)
        {
            break (winner, Cow::Borrowed(reason), None);
        }
    };
    for seat in Player::BOTH {
        seats[seat].end_game(winner, &reason);
    }
    Some(GameRecord {
        job,
        winner,
        reason,
        opening,
        plies,
        sides,
        moves,
        move_rows: 0,
        chance,
        returns,
        move_text: texts.moves,
    })
}

/// A game's moves in notation: the last one, and all of them when recorded.
pub(crate) struct MoveTexts {
    /// Whether a move is written at all (for the record, or for an agent told the moves).
    pub(crate) write: bool,
    /// Whether the moves are recorded (`moves`).
    pub(crate) record: bool,
    /// The last move written.
    pub(crate) last: String,
    /// Every move, separated by [`MOVE_SEPARATOR`].
    pub(crate) moves: String,
}

/// Plays `mv` (an agent's or chance's): written in notation where needed, recorded, then
/// told to every seat.
#[inline]
pub(crate) fn play_move<G: Game>(
    state: &mut G,
    mv: G::Move,
    texts: &mut MoveTexts,
    seats: &mut [Box<dyn Agent<G>>],
) {
    if texts.write {
        texts.last.clear();
        state.write_move(mv, &mut texts.last);
    }
    if texts.record {
        if !texts.moves.is_empty() {
            texts.moves.push(MOVE_SEPARATOR);
        }
        texts.moves.push_str(&texts.last);
    }
    state.apply(mv);
    if texts.write {
        for seat in seats {
            seat.observe(&texts.last);
        }
    }
}

/// The key of chance's stream among a game's seeds (a game played by a person draws its
/// chance with it too).
pub const CHANCE_STREAM: u64 = 0x6368_616e_6365;
