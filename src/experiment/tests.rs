//! The pipeline's executor on real games: thread counts do not change results, a stop keeps
//! finished games in order, decided groups skip identically, finished jobs are handed in and
//! limits stop the run.

use super::pool::{Control, Earlier, Fresh, NoControl, Settings, Work, execute};
use crate::core::{Game, MOVE_SEPARATOR, Player};
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::games::replay;
use crate::records::{Reporter, RunOutcome};
use crate::registry::{AgentFactory, Colours};
use crate::tournament::{
    GameJob, GameRecord, MatchupPlan, Openings, PlayLimits, Schedule, play_from, schedule,
    seat_agents,
};
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

fn factories(specs: &[&str]) -> Vec<AgentFactory<Breakthrough>> {
    crate::registry::test_factories(
        &Breakthrough::new(crate::games::breakthrough::Rules::Standard),
        specs,
    )
}

#[derive(Default)]
struct Collect {
    records: Vec<GameRecord>,
    ended: Option<RunOutcome>,
}

impl Reporter<GameRecord> for Collect {
    fn finished(&mut self, record: &GameRecord) -> io::Result<()> {
        self.records.push(record.clone());
        Ok(())
    }
    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        self.ended = Some(*outcome);
        Ok(())
    }
}

fn without_timing(records: &[GameRecord]) -> Vec<GameRecord> {
    records
        .iter()
        .cloned()
        .map(|mut r| {
            r.sides.0.iter_mut().for_each(|s| s.nanos = 0);
            r.moves.iter_mut().for_each(|m| m.nanos = 0);
            r
        })
        .collect()
}

/// Games of a list of jobs, with openings, grouped by matchup.
struct Games<'a> {
    start: Breakthrough,
    jobs: &'a [GameJob],
    openings: Openings<Breakthrough>,
    agents: &'a [AgentFactory<Breakthrough>],
}

impl Work for Games<'_> {
    type Record = GameRecord;
    fn jobs(&self) -> u64 {
        self.jobs.len() as u64
    }
    fn groups(&self) -> usize {
        self.jobs.iter().map(|j| j.matchup + 1).max().unwrap_or(0)
    }
    fn group(&self, id: u64) -> usize {
        self.jobs[id as usize].matchup
    }
    fn execute(&self, id: u64) -> Option<GameRecord> {
        let job = self.jobs[id as usize];
        let mut seats = seat_agents(self.agents, &job);
        let (opening, moves) = self.openings.position(&self.start, &job);
        play_from(opening, moves, job, &mut seats, &PlayLimits::plies(1000))
    }
}

fn games<'a>(
    start: Breakthrough,
    jobs: &'a [GameJob],
    agents: &'a [AgentFactory<Breakthrough>],
) -> Games<'a> {
    Games {
        start,
        jobs,
        openings: Openings::Start,
        agents,
    }
}

/// Finished jobs held in memory.
impl<R: Clone + Send + Sync> Earlier<R> for BTreeMap<u64, R> {
    fn contains(&self, id: u64) -> bool {
        self.contains_key(&id)
    }
    fn next_from(&self, id: u64) -> Option<u64> {
        self.range(id..).next().map(|(&id, _)| id)
    }
    fn record(&self, id: u64) -> io::Result<R> {
        self.get(&id)
            .cloned()
            .ok_or_else(|| io::Error::other("not finished"))
    }
}

fn settings(threads: usize) -> Settings {
    Settings {
        threads,
        deadline: None,
        max_jobs: None,
    }
}

/// Runs every job with no control and nothing done.
fn run_all(
    work: &Games<'_>,
    threads: usize,
    cancel: &AtomicBool,
    reporter: &mut dyn Reporter<GameRecord>,
) -> io::Result<RunOutcome> {
    execute(
        work,
        &settings(threads),
        &Fresh,
        cancel,
        &mut NoControl,
        reporter,
    )
}

/// Stops matchup 0 after its third game.
struct StopThird;

impl Control<GameRecord> for StopThird {
    fn decided(&mut self, _id: u64, record: &GameRecord) -> bool {
        record.job.matchup == 0 && record.job.game_index == 2
    }
}

#[test]
fn plain_play_all_equals_the_executor_on_a_lazy_schedule() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=offensive2)"]);
    let plan = MatchupPlan {
        agents: [0, 1],
        seed_key: 0,
        games: 8,
    };
    let lazy = Schedule::new(2, vec![plan], Colours::Alternate);
    let mut plain = Collect::default();
    super::play_all(&start, &lazy, &agents, 2, true, &mut plain).expect("run");
    let jobs = schedule(2, &[[0, 1]], 8, Colours::Alternate);
    let mut listed = Collect::default();
    run_all(
        &games(start, &jobs, &agents),
        1,
        &AtomicBool::new(false),
        &mut listed,
    )
    .expect("run");
    assert_eq!(
        without_timing(&plain.records),
        without_timing(&listed.records)
    );
}

#[test]
fn results_are_identical_on_one_and_many_threads() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&[
        "greedy(heuristic=offensive2)",
        "alphabeta(heuristic=defensive1,depth=2)",
        "random",
    ]);
    let jobs = schedule(3, &[[0, 1], [1, 2], [0, 2]], 6, Colours::Alternate);
    let cancel = AtomicBool::new(false);
    let mut one = Collect::default();
    run_all(&games(start, &jobs, &agents), 1, &cancel, &mut one).expect("run");
    let mut four = Collect::default();
    run_all(&games(start, &jobs, &agents), 4, &cancel, &mut four).expect("run");
    assert_eq!(one.records.len(), 18);
    assert_eq!(without_timing(&one.records), without_timing(&four.records));
    assert_eq!(
        one.ended,
        Some(RunOutcome {
            played: 18,
            skipped: 0,
            total: 18,
            cancelled: false
        })
    );
    // Different seeds give different games.
    let games: std::collections::HashSet<&str> =
        one.records.iter().map(|r| r.move_text.as_str()).collect();
    assert!(games.len() > 12, "{} distinct games", games.len());
}

#[test]
fn recorded_games_replay_to_their_result() {
    let start = Breakthrough::new(Rules::ThreeToBase);
    let agents = factories(&["random", "greedy(heuristic=offense)"]);
    let jobs = schedule(1, &[[0, 1]], 10, Colours::Alternate);
    let mut collect = Collect::default();
    run_all(
        &games(start, &jobs, &agents),
        2,
        &AtomicBool::new(false),
        &mut collect,
    )
    .expect("run");
    for record in &collect.records {
        let (state, outcome) = replay(&start, record.move_text.split(MOVE_SEPARATOR))
            .expect("recorded moves are legal");
        let outcome = outcome.expect("recorded games are finished");
        assert_eq!(outcome.winner, record.winner);
        assert_eq!(outcome.reason, record.reason);
        let moves = record.sides[Player::P1].moves + record.sides[Player::P2].moves;
        assert_eq!(moves, record.plies);
        assert_eq!(record.moves.len(), record.plies as usize);
        // Captures add up to the pieces missing at the end.
        for side in Player::BOTH {
            let lost = 16 - state.piece_count(side.opponent());
            assert_eq!(record.sides[side].captures, lost);
        }
    }
}

#[test]
fn cancelling_keeps_finished_games_in_order() {
    struct StopAfter<'a>(usize, &'a AtomicBool, Vec<u64>);
    impl Reporter<GameRecord> for StopAfter<'_> {
        fn finished(&mut self, record: &GameRecord) -> io::Result<()> {
            self.2.push(record.job.id);
            if self.2.len() == self.0 {
                self.1.store(true, Ordering::Relaxed);
            }
            Ok(())
        }
    }
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random"]);
    // Far more games than can finish in the moment between the flag and the workers
    // seeing it (at most the channel's capacity plus one game per worker).
    let jobs = schedule(1, &[[0, 0]], 50_000, Colours::Alternate);
    let cancel = AtomicBool::new(false);
    let mut reporter = StopAfter(5, &cancel, Vec::new());
    let outcome = run_all(&games(start, &jobs, &agents), 2, &cancel, &mut reporter).expect("run");
    assert!(outcome.cancelled);
    assert!((5..50_000).contains(&outcome.played), "{outcome:?}");
    assert_eq!(reporter.2.len(), outcome.played);
    assert!(reporter.2.windows(2).all(|w| w[0] < w[1]), "ids in order");
}

#[test]
fn colour_swapped_pairs_share_seed_and_opening() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=offensive1)"]);
    let jobs = schedule(9, &[[0, 1]], 6, Colours::Alternate);
    assert_eq!(jobs[0].seed, jobs[1].seed);
    assert_ne!(jobs[1].seed, jobs[2].seed);
    assert_eq!((jobs[2].pair, jobs[3].pair), (1, 1));
    let openings = Openings::RandomPlies(4);
    let mut collect = Collect::default();
    let work = Games {
        start,
        jobs: &jobs,
        openings,
        agents: &agents,
    };
    run_all(&work, 2, &AtomicBool::new(false), &mut collect).expect("run");
    let records = &collect.records;
    assert_eq!(records.len(), 6);
    for pair in records.chunks(2) {
        assert_eq!(
            pair[0].opening, pair[1].opening,
            "a pair shares its opening"
        );
        assert_eq!(pair[0].opening.split(MOVE_SEPARATOR).count(), 4);
        // The opening and the moves replay together to the recorded result.
        for record in pair {
            let all = format!("{};{}", record.opening, record.move_text);
            let (_, outcome) = replay(&start, all.split(MOVE_SEPARATOR)).expect("legal");
            assert_eq!(outcome.map(|o| o.winner), Some(record.winner));
        }
    }
    assert_ne!(records[0].opening, records[2].opening);
}

#[test]
fn a_decided_matchup_skips_its_remaining_games_identically_on_any_thread_count() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=offensive2)"]);
    let jobs = schedule(3, &[[0, 1], [1, 0]], 40, Colours::Alternate);
    let mut results = Vec::new();
    for threads in [1, 3] {
        let mut collect = Collect::default();
        let outcome = execute(
            &games(start, &jobs, &agents),
            &settings(threads),
            &Fresh,
            &AtomicBool::new(false),
            &mut StopThird,
            &mut collect,
        )
        .expect("run");
        assert_eq!(
            (outcome.played, outcome.skipped, outcome.cancelled),
            (43, 37, false)
        );
        results.push(without_timing(&collect.records));
    }
    assert_eq!(results[0], results[1]);
    let first: Vec<u64> = results[0]
        .iter()
        .filter(|r| r.job.matchup == 0)
        .map(|r| r.job.game_index)
        .collect();
    assert_eq!(first, vec![0, 1, 2]);
}

#[test]
fn finished_games_are_reported_not_replayed_and_limits_stop_the_run() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=defensive1)"]);
    let jobs = schedule(4, &[[0, 1]], 30, Colours::Alternate);
    let cancel = AtomicBool::new(false);
    let mut full = Collect::default();
    let work = games(start, &jobs, &agents);
    run_all(&work, 2, &cancel, &mut full).expect("run");
    // Stop after 10 new games.
    let mut limited = settings(2);
    limited.max_jobs = Some(10);
    let mut first = Collect::default();
    let outcome =
        execute(&work, &limited, &Fresh, &cancel, &mut NoControl, &mut first).expect("run");
    assert!(outcome.cancelled);
    assert_eq!(outcome.played, 10);
    // Resume: the 10 are handed in, the rest played; the whole equals the full run.
    let done: BTreeMap<u64, GameRecord> = first
        .records
        .iter()
        .map(|r| (r.job.id, r.clone()))
        .collect();
    let mut resumed = Collect::default();
    let outcome = execute(
        &work,
        &settings(2),
        &done,
        &cancel,
        &mut NoControl,
        &mut resumed,
    )
    .expect("run");
    assert_eq!((outcome.played, outcome.cancelled), (30, false));
    assert_eq!(
        without_timing(&resumed.records),
        without_timing(&full.records)
    );
    // A deadline in the past starts nothing.
    let mut late = settings(2);
    late.deadline = Some(Instant::now());
    let mut none = Collect::default();
    let outcome = execute(&work, &late, &Fresh, &cancel, &mut NoControl, &mut none).expect("run");
    assert_eq!((outcome.played, outcome.cancelled), (0, true));
}

#[test]
fn earlier_jobs_after_a_gap_are_replayed_in_order_when_nothing_new_runs() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=defensive1)"]);
    let jobs = schedule(5, &[[0, 1]], 12, Colours::Alternate);
    let work = games(start, &jobs, &agents);
    let mut full = Collect::default();
    run_all(&work, 2, &AtomicBool::new(false), &mut full).expect("run");
    // A run killed with games 6 and 7 in progress, then resumed and stopped at once.
    let done: BTreeMap<u64, GameRecord> = full
        .records
        .iter()
        .filter(|r| ![6, 7].contains(&r.job.id))
        .map(|r| (r.job.id, r.clone()))
        .collect();
    let mut replayed = Collect::default();
    let outcome = execute(
        &work,
        &settings(2),
        &done,
        &AtomicBool::new(true),
        &mut NoControl,
        &mut replayed,
    )
    .expect("run");
    assert_eq!((outcome.played, outcome.cancelled), (10, true));
    let ids: Vec<u64> = replayed.records.iter().map(|r| r.job.id).collect();
    assert_eq!(ids, vec![0, 1, 2, 3, 4, 5, 8, 9, 10, 11]);
}

/// A plan in rounds of 4 jobs whose values depend on the previous round's total, as a
/// tuning iteration depends on the one before: the total is folded in plan order by the
/// control and read by the jobs after the barrier.
struct Chained {
    total: std::sync::Mutex<Vec<u64>>,
    rounds: u64,
}

impl Work for Chained {
    type Record = (u64, u64);
    fn jobs(&self) -> u64 {
        4 * self.rounds
    }
    fn barrier(&self, id: u64) -> u64 {
        id / 4 * 4
    }
    fn execute(&self, id: u64) -> Option<(u64, u64)> {
        // Slow and uneven, so that the workers would run ahead without the barrier.
        std::thread::sleep(std::time::Duration::from_millis((id * 7) % 5));
        let before = *self.total.lock().ok()?.get((id / 4) as usize)?;
        Some((id, before * 3 + id))
    }
}

struct Fold<'a>(&'a Chained, u64);

impl Control<(u64, u64)> for Fold<'_> {
    fn decided(&mut self, id: u64, record: &(u64, u64)) -> bool {
        self.1 = (self.1 + record.1) % 1_000_003;
        if id % 4 == 3
            && let Ok(mut total) = self.0.total.lock()
        {
            total.push(self.1);
        }
        false
    }
}

#[derive(Default)]
struct Values(Vec<(u64, u64)>);

impl Reporter<(u64, u64)> for Values {
    fn finished(&mut self, record: &(u64, u64)) -> io::Result<()> {
        self.0.push(*record);
        Ok(())
    }
}

fn chained(threads: usize, max_jobs: Option<u64>) -> (Vec<(u64, u64)>, RunOutcome) {
    let work = Chained {
        total: std::sync::Mutex::new(vec![1]),
        rounds: 6,
    };
    let mut values = Values::default();
    let outcome = execute(
        &work,
        &Settings {
            threads,
            deadline: None,
            max_jobs,
        },
        &Fresh,
        &AtomicBool::new(false),
        &mut Fold(&work, 0),
        &mut values,
    )
    .expect("run");
    (values.0, outcome)
}

#[test]
fn jobs_behind_a_barrier_see_every_earlier_result_on_any_thread_count() {
    let (one, outcome) = chained(1, None);
    assert_eq!((outcome.played, outcome.cancelled), (24, false));
    // Round 0 reads the initial 1; every later round the fold of all before it.
    assert_eq!(one[0], (0, 3));
    assert_eq!(one[5].1, 3 * (3 + 4 + 5 + 6) + 5);
    for threads in [2, 4] {
        assert_eq!(chained(threads, None).0, one, "{threads} threads");
    }
    // A job budget that ends inside a round stops the waiting workers too. The jobs that
    // ran need not be a prefix (a worker may drop the job it fetched when the budget ran
    // out while a later one finishes), but each has its uninterrupted value.
    let (some, outcome) = chained(4, Some(10));
    assert!(outcome.cancelled);
    assert!(!some.is_empty() && some.len() <= 10);
    for record in &some {
        assert_eq!(*record, one[record.0 as usize]);
    }
}
