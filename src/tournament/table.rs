//! Games at a table of two to six players: the schedule (tables x deals x rotations of the
//! seats) and playing one game with an agent in every seat.
//!
//! Rotations: in rotation `r` the agent listed `k`-th at its table sits in seat
//! `(k + r) mod N`, so over a deal's N games every agent sits in every seat once (a cyclic
//! Latin square; the order round the table stays the one written). The N games of a deal
//! share its seed: chance deals the same outcomes as far as the games go alike, and each
//! agent keeps its own stream (derived from its place in the table's list, not its seat).

use super::{CHANCE_STREAM, MoveTexts, PLY_CAP_REASON, TIMEOUT_REASON, play_move};
use crate::core::{Agent, Game, GameContext, Limits, Player, seeds};
use crate::registry::AgentFactory;
use std::borrow::Cow;
use std::time::{Duration, Instant};

/// The key the deals' seeds derive from (apart from a match's games).
const TABLES_STREAM: u64 = 0x7461_626c_6573;

/// One scheduled game at a table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableJob {
    /// The game's place in the schedule.
    pub id: u64,
    /// The table (index into the experiment's tables).
    pub table: usize,
    /// The deal, from 0.
    pub deal: u64,
    /// The rotation of the seats, from 0.
    pub rotation: usize,
    /// The deal's seed (the same in every rotation).
    pub seed: u64,
    /// The agent (index into the experiment's agents) in each seat, P1 first.
    pub seats: Vec<usize>,
}

impl TableJob {
    /// The place in the table's list (0 = written first) of the agent in `seat`.
    pub fn slot(&self, seat: usize) -> usize {
        let n = self.seats.len();
        (seat + n - self.rotation % n) % n
    }

    /// The seed of the agent in `seat`: from its place in the table's list, so an agent
    /// keeps its stream over a deal's rotations and two copies of one agent differ.
    pub fn agent_seed(&self, seat: usize) -> u64 {
        seeds::derive(self.seed, &[self.slot(seat) as u64])
    }
}

/// Every game of a table run, in order: table, then deal, then rotation.
#[derive(Clone, Debug)]
pub struct TableSchedule {
    seed: u64,
    tables: Vec<Vec<usize>>,
    deals: u64,
}

impl TableSchedule {
    /// The games of `tables` (each the same size), `deals` deals each, from the
    /// experiment's `seed`.
    pub fn new(seed: u64, tables: Vec<Vec<usize>>, deals: u64) -> TableSchedule {
        TableSchedule {
            seed,
            tables,
            deals,
        }
    }

    /// Seats at each table.
    pub fn seats(&self) -> usize {
        self.tables.first().map_or(0, Vec::len)
    }

    /// Games per table.
    fn per_table(&self) -> u64 {
        self.deals * self.seats() as u64
    }

    /// Games in all.
    pub fn len(&self) -> u64 {
        self.per_table() * self.tables.len() as u64
    }

    /// Whether there is no game.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The table of game `id`.
    pub fn table_of(&self, id: u64) -> usize {
        (id / self.per_table().max(1)) as usize
    }

    /// Game `id`.
    pub fn job(&self, id: u64) -> TableJob {
        let n = self.seats() as u64;
        let table = self.table_of(id);
        let within = id % self.per_table().max(1);
        let (deal, rotation) = (within / n, (within % n) as usize);
        let listed = &self.tables[table];
        let seats = (0..listed.len())
            .map(|seat| listed[(seat + listed.len() - rotation) % listed.len()])
            .collect();
        TableJob {
            id,
            table,
            deal,
            rotation,
            seed: seeds::derive(self.seed, &[TABLES_STREAM, table as u64, deal]),
            seats,
        }
    }
}

/// One seat's part of a game.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeatRecord {
    /// Its return (see [`TableRecord`]).
    #[serde(rename = "r")]
    pub ret: f64,
    /// Its place: 1 for the best; seats that tie share the best of their places.
    #[serde(rename = "p")]
    pub place: u8,
    /// Moves it played.
    #[serde(rename = "m")]
    pub moves: u32,
    /// Nodes its searches expanded.
    #[serde(rename = "n", default)]
    pub expanded: u64,
    /// Its decision time, in nanoseconds.
    #[serde(rename = "t", default)]
    pub nanos: u64,
}

/// A finished game at a table.
///
/// Returns: a game's own ([`Game::returns`]) when it ended by its rules; otherwise (a
/// game that has none, a forfeit, the harness's ply cap) the score of the places, 1 for
/// first place shared by the seats that tie for it and 0 for the others (0 alone at a
/// table: a game for one scores only by its rules).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TableRecord {
    /// The scheduled game.
    pub job: TableJob,
    /// The seat that won alone, if one did.
    pub winner: Option<Player>,
    /// Why the game ended.
    pub reason: Cow<'static, str>,
    /// Plies played (chance's among them).
    pub plies: u32,
    /// Every seat's part, P1 first.
    pub seats: Vec<SeatRecord>,
    /// The moves in the game's notation, separated by [`super::MOVE_SEPARATOR`] (none
    /// with `--no-moves`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub move_text: String,
    /// The opening's moves (the experiment's `openings`), played before the agents' and
    /// not in `move_text`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub opening: String,
}

/// Places from each seat's score: 1 + the number of seats strictly ahead.
pub fn places_of(scores: &[f64]) -> Vec<u8> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|&&o| o > *s).count() as u8)
        .collect()
}

/// The score of places: 1 shared by the seats in first place, 0 for the others.
fn first_place_shares(places: &[u8]) -> Vec<f64> {
    let first = places.iter().filter(|&&p| p == 1).count().max(1) as f64;
    places
        .iter()
        .map(|&p| if p == 1 { 1.0 / first } else { 0.0 })
        .collect()
}

/// Fresh agents for every seat of `job`, each with its own seed.
pub fn seat_table<G: Game>(
    factories: &[AgentFactory<G>],
    job: &TableJob,
) -> Vec<Box<dyn Agent<G>>> {
    job.seats
        .iter()
        .enumerate()
        .map(|(seat, &agent)| factories[agent](job.agent_seed(seat)))
        .collect()
}

/// How long a table's game may go on and what may stop it.
#[derive(Clone, Debug, Default)]
pub struct TableLimits {
    /// Plies before the harness stops the game, every seat tied ([`PLY_CAP_REASON`]).
    pub max_plies: u32,
    /// Time per move: a later move loses the game (or, where the game says so, is
    /// replaced by a random legal move).
    pub move_time: Option<Duration>,
    /// Raised to abandon the game in progress (Ctrl-C).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Where agents keep per-game logs, if anywhere.
    pub logs: Option<std::path::PathBuf>,
    /// Keep no move text.
    pub no_moves: bool,
}

/// Plays one game of `job` from `state` (the start, or the position after `opening`'s
/// moves) with an agent in every seat; `None` when the stop flag was raised before it
/// ended.
pub fn play_table<G: Game>(
    mut state: G,
    opening: String,
    job: TableJob,
    seats: &mut [Box<dyn Agent<G>>],
    limits: &TableLimits,
) -> Option<TableRecord> {
    let n = seats.len();
    let mut records = vec![SeatRecord::default(); n];
    let mut agent_limits = Limits {
        deadline: None,
        stop: limits.stop.clone(),
    };
    state.begin_game();
    let mut texts = MoveTexts {
        write: !limits.no_moves || seats.iter().any(|s| s.observes()),
        record: !limits.no_moves,
        last: String::new(),
        moves: String::new(),
    };
    for (seat, agent) in seats.iter_mut().enumerate() {
        let context = GameContext {
            id: job.id,
            seat: Player::seat(seat).unwrap_or(Player::P1),
            seed: job.agent_seed(seat),
            opening: &opening,
            move_time: limits.move_time,
            logs: limits.logs.as_deref(),
        };
        agent.start_game(&state, &context);
    }
    let clock = super::move_clock();
    let mut chance_rng = None;
    let mut outcomes = Vec::new();
    let mut plies = 0u32;
    // The seat that lost by a fault or on time, if one did.
    let mut forfeited: Option<usize> = None;
    let (winner, reason, rules_returns) = loop {
        if let Some(outcome) = state.outcome() {
            break (
                outcome.winner,
                Cow::Borrowed(outcome.reason),
                state.returns(),
            );
        }
        if plies >= limits.max_plies {
            break (None, Cow::Borrowed(PLY_CAP_REASON), None);
        }
        if let Some(reason) = crate::core::stuck(&state) {
            break (None, Cow::Borrowed(reason), None);
        }
        if G::CHANCE && state.is_chance() {
            let rng = chance_rng
                .get_or_insert_with(|| seeds::rng(seeds::derive(job.seed, &[CHANCE_STREAM])));
            let Some(mv) = state.chance_move(seeds::unit(rng), &mut outcomes) else {
                break (None, Cow::Borrowed("no-chance-outcome"), None);
            };
            play_move(&mut state, mv, &mut texts, seats);
            plies += 1;
            continue;
        }
        let side = state.to_move();
        let seat = side.index();
        agent_limits.deadline = limits
            .move_time
            .and_then(|limit| Instant::now().checked_add(limit));
        let before = clock.raw();
        let mut decision = seats[seat].decide(&state, &agent_limits);
        let nanos = clock.delta_as_nanos(before, clock.raw());
        if agent_limits.stopped() {
            return None;
        }
        records[seat].nanos += nanos;
        if let Some(fault) = decision.fault
            && fault.forfeit
        {
            forfeited = Some(seat);
            break (None, Cow::Borrowed(fault.reason.name()), None);
        }
        let late = decision.fault.is_none()
            && limits.move_time.is_some_and(|limit| {
                Duration::from_nanos(nanos) > limit.saturating_add(seats[seat].time_margin())
            });
        if late {
            if state.timeout_forfeits() {
                forfeited = Some(seat);
                break (None, Cow::Borrowed(TIMEOUT_REASON), None);
            }
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            let mut rng = seeds::rng(seeds::derive(job.seed, &[0x7469_6d65, u64::from(plies)]));
            decision.mv = legal[seeds::below(&mut rng, legal.len())];
        }
        records[seat].moves += 1;
        records[seat].expanded += decision.stats.expanded;
        play_move(&mut state, decision.mv, &mut texts, seats);
        plies += 1;
    };
    for agent in seats.iter_mut() {
        agent.end_game(winner, &reason);
    }
    let scores: Vec<f64> = match (&rules_returns, winner, forfeited) {
        (Some(returns), _, _) => returns.as_slice()[..n].to_vec(),
        (None, Some(winner), _) => (0..n)
            .map(|s| f64::from(u8::from(s == winner.index())))
            .collect(),
        (None, None, Some(loser)) => (0..n).map(|s| f64::from(u8::from(s != loser))).collect(),
        (None, None, None) => vec![0.0; n],
    };
    let places = places_of(&scores);
    let returns = if rules_returns.is_some() {
        scores
    } else if n == 1 {
        // A game for one ended without its score (a failure, the ply cap): it scored 0.
        vec![0.0]
    } else {
        first_place_shares(&places)
    };
    for (seat, record) in records.iter_mut().enumerate() {
        record.ret = returns[seat];
        record.place = places[seat];
    }
    let winner = places
        .iter()
        .enumerate()
        .filter(|&(_, &p)| p == 1)
        .map(|(seat, _)| seat)
        .collect::<Vec<_>>();
    Some(TableRecord {
        job,
        // Alone at the table no one wins.
        winner: match winner.as_slice() {
            [seat] if n > 1 => Player::seat(*seat),
            _ => None,
        },
        reason,
        plies,
        seats: records,
        move_text: texts.moves,
        opening,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_sits_in_every_seat_once_a_deal_and_a_deal_keeps_its_seed() {
        let schedule = TableSchedule::new(7, vec![vec![4, 5, 6, 7], vec![0, 1, 2, 3]], 3);
        assert_eq!(schedule.len(), 24);
        let deal: Vec<TableJob> = (4..8).map(|id| schedule.job(id)).collect();
        assert!(
            deal.iter()
                .all(|j| j.table == 0 && j.deal == 1 && j.seed == deal[0].seed)
        );
        for seat in 0..4 {
            let mut agents: Vec<usize> = deal.iter().map(|j| j.seats[seat]).collect();
            agents.sort_unstable();
            assert_eq!(agents, vec![4, 5, 6, 7], "seat {seat}");
        }
        // Rotation 1: the agent listed first sits in seat P2, and keeps its seed.
        assert_eq!(deal[1].seats, vec![7, 4, 5, 6]);
        assert_eq!(deal[1].slot(1), 0);
        assert_eq!(deal[1].agent_seed(1), deal[0].agent_seed(0));
        assert_ne!(deal[0].agent_seed(0), deal[0].agent_seed(1));
        assert_ne!(schedule.job(0).seed, schedule.job(4).seed);
        assert_eq!(schedule.job(12).table, 1);
        assert_ne!(schedule.job(12).seed, schedule.job(0).seed);
    }

    #[test]
    fn places_share_the_best_place_and_first_place_shares_the_point() {
        assert_eq!(places_of(&[0.5, 1.0, 0.5, 0.2]), vec![2, 1, 2, 4]);
        assert_eq!(places_of(&[0.0, 0.0, 0.0]), vec![1, 1, 1]);
        assert_eq!(first_place_shares(&[1, 1, 3]), vec![0.5, 0.5, 0.0]);
        // A forfeit: the others share first place.
        assert_eq!(places_of(&[1.0, 0.0, 1.0]), vec![1, 3, 1]);
    }
}
