use super::*;
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::games::replay;
use crate::registry::AgentSpec;
use std::time::Instant;

fn factories(specs: &[&str]) -> Vec<AgentFactory<Breakthrough>> {
    specs
        .iter()
        .map(|s| {
            s.parse::<AgentSpec>()
                .and_then(|a| a.factory::<Breakthrough>())
                .expect("valid agent")
        })
        .collect()
}

#[derive(Default)]
struct Collect {
    records: Vec<GameRecord>,
    ended: Option<RunOutcome>,
}

impl Reporter for Collect {
    fn game_finished(&mut self, record: &GameRecord) -> io::Result<()> {
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

#[test]
fn schedule_derives_seeds_and_alternates_colours() {
    let jobs = schedule(7, &[[0, 1], [1, 2]], 4, Colours::Alternate);
    assert_eq!(jobs.len(), 8);
    assert_eq!(
        jobs.iter().map(|j| j.id).collect::<Vec<_>>(),
        (0..8).collect::<Vec<_>>()
    );
    assert_eq!(jobs[5].matchup, 1);
    assert_eq!(jobs[5].game_index, 1);
    // Games 0-1 and 2-3 of a matchup are colour-swapped pairs sharing a seed.
    assert_eq!(jobs[5].seed, seeds::derive(7, &[1, 0]));
    assert_eq!(jobs[6].seed, seeds::derive(7, &[1, 1]));
    let p1_agents: Vec<usize> = jobs[..4].iter().map(|j| j.agent(Player::P1)).collect();
    assert_eq!(p1_agents, vec![0, 1, 0, 1]);
    assert_eq!(jobs[1].agent(Player::P2), 0);
    assert_ne!(
        jobs[0].agent_seed(Player::P1),
        jobs[0].agent_seed(Player::P2)
    );
    let listed = schedule(7, &[[0, 1]], 4, Colours::AsListed);
    assert!(listed.iter().all(|j| j.agent(Player::P1) == 0));
    assert_eq!(
        listed[3].seed,
        seeds::derive(7, &[0, 3]),
        "no pairs without swapping"
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
    run_all(&start, &jobs, &agents, 1, &cancel, &mut one).expect("run");
    let mut four = Collect::default();
    run_all(&start, &jobs, &agents, 4, &cancel, &mut four).expect("run");
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
        &start,
        &jobs,
        &agents,
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
fn ply_cap_ends_a_game_as_a_draw() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random"]);
    let jobs = schedule(1, &[[0, 0]], 1, Colours::Alternate);
    let mut seats = ByPlayer([agents[0](1), agents[0](2)]);
    let record = play_game(&start, jobs[0], &mut seats, 5);
    assert_eq!(
        (record.winner, record.reason.as_ref(), record.plies),
        (None, PLY_CAP_REASON, 5)
    );
}

#[test]
fn stats_are_summed_per_side() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["minimax(heuristic=material,depth=2)", "random"]);
    let jobs = schedule(4, &[[0, 1]], 1, Colours::AsListed);
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    let record = play_game(&start, jobs[0], &mut seats, 1000);
    let p1 = record.sides[Player::P1];
    let summed: u64 = record
        .moves
        .iter()
        .filter(|m| m.side == Player::P1)
        .map(|m| m.expanded)
        .sum();
    assert_eq!(p1.stats.expanded, summed);
    assert_eq!(p1.stats.expanded_by_level[0], u64::from(p1.moves));
    assert_eq!(record.sides[Player::P2].stats.expanded, 0);
}

#[test]
fn cancelling_keeps_finished_games_in_order() {
    struct StopAfter<'a>(usize, &'a AtomicBool, Vec<u64>);
    impl Reporter for StopAfter<'_> {
        fn game_finished(&mut self, record: &GameRecord) -> io::Result<()> {
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
    let outcome = run_all(&start, &jobs, &agents, 2, &cancel, &mut reporter).expect("run");
    assert!(outcome.cancelled);
    assert!((5..50_000).contains(&outcome.played), "{outcome:?}");
    assert_eq!(reporter.2.len(), outcome.played);
    assert!(reporter.2.windows(2).all(|w| w[0] < w[1]), "ids in order");
}

fn config<'a>(
    start: &'a Breakthrough,
    openings: &'a Openings<Breakthrough>,
    agents: &'a [AgentFactory<Breakthrough>],
    threads: usize,
) -> RunConfig<'a, Breakthrough> {
    RunConfig {
        start,
        openings,
        factories: agents,
        max_plies: 1000,
        threads,
        deadline: None,
        max_games: None,
        move_time_limit: None,
    }
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
    run(
        &config(&start, &openings, &agents, 2),
        &jobs,
        BTreeMap::new(),
        &AtomicBool::new(false),
        &mut NoControl,
        &mut collect,
    )
    .expect("run");
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
fn sweep_matchups_with_one_seed_key_play_the_same_seeds() {
    let plans = [
        MatchupPlan {
            agents: [0, 2],
            seed_key: 7,
            games: 4,
        },
        MatchupPlan {
            agents: [1, 2],
            seed_key: 7,
            games: 4,
        },
        MatchupPlan {
            agents: [0, 1],
            seed_key: 8,
            games: 3,
        },
    ];
    let jobs = schedule_plans(5, &plans, Colours::Alternate);
    assert_eq!(jobs.len(), 11);
    assert_eq!(
        jobs.iter().map(|j| j.id).collect::<Vec<_>>(),
        (0..11).collect::<Vec<_>>()
    );
    let seeds = |m: usize| {
        jobs.iter()
            .filter(|j| j.matchup == m)
            .map(|j| j.seed)
            .collect::<Vec<_>>()
    };
    assert_eq!(seeds(0), seeds(1));
    assert_ne!(seeds(0)[..3], seeds(2)[..]);
}

/// Stops matchup 0 after its third game.
struct StopThird;

impl Control for StopThird {
    fn matchup_decided(&mut self, record: &GameRecord) -> bool {
        record.job.matchup == 0 && record.job.game_index == 2
    }
}

#[test]
fn a_decided_matchup_skips_its_remaining_games_identically_on_any_thread_count() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random", "greedy(heuristic=offensive2)"]);
    let jobs = schedule(3, &[[0, 1], [1, 0]], 40, Colours::Alternate);
    let mut results = Vec::new();
    for threads in [1, 3] {
        let mut collect = Collect::default();
        let outcome = run(
            &config(&start, &Openings::Start, &agents, threads),
            &jobs,
            BTreeMap::new(),
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
    run_all(&start, &jobs, &agents, 2, &cancel, &mut full).expect("run");
    // Stop after 10 new games.
    let mut limited_config = config(&start, &Openings::Start, &agents, 2);
    limited_config.max_games = Some(10);
    let mut first = Collect::default();
    let outcome = run(
        &limited_config,
        &jobs,
        BTreeMap::new(),
        &cancel,
        &mut NoControl,
        &mut first,
    )
    .expect("run");
    assert!(outcome.cancelled);
    assert_eq!(outcome.played, 10);
    // Resume: the 10 are handed in, the rest played; the whole equals the full run.
    let done: BTreeMap<u64, GameRecord> = first
        .records
        .iter()
        .map(|r| (r.job.id, r.clone()))
        .collect();
    let mut resumed = Collect::default();
    let outcome = run(
        &config(&start, &Openings::Start, &agents, 2),
        &jobs,
        done,
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
    let mut late = config(&start, &Openings::Start, &agents, 2);
    late.deadline = Some(Instant::now());
    let mut none = Collect::default();
    let outcome = run(
        &late,
        &jobs,
        BTreeMap::new(),
        &cancel,
        &mut NoControl,
        &mut none,
    )
    .expect("run");
    assert_eq!((outcome.played, outcome.cancelled), (0, true));
}

#[test]
fn the_per_move_time_limit_forfeits_or_plays_a_random_move() {
    // A 300 ms budget against a 1 ms limit: Breakthrough forfeits at the first move.
    let slow: AgentSpec = "alphabeta(heuristic=offensive2,time_ms=300)"
        .parse()
        .expect("valid");
    let agents = [
        slow.factory::<Breakthrough>().expect("valid"),
        factories(&["random"]).remove(0),
    ];
    let jobs = schedule(1, &[[0, 1]], 1, Colours::AsListed);
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    let start = Breakthrough::new(Rules::Standard);
    let limit = Some(std::time::Duration::from_millis(1));
    let record = play_from(start, String::new(), jobs[0], &mut seats, 1000, limit);
    assert_eq!(
        (record.winner, record.reason.as_ref(), record.plies),
        (Some(Player::P2), TIMEOUT_REASON, 0)
    );
    // Chinese Checkers with timeout=random: the slow side's moves are random, flagged.
    use crate::games::chinese_checkers::{ChineseCheckers, Rules as CcRules, Timeout};
    let slow: AgentSpec = "beam(heuristic=report004,depth=12,time_ms=50)"
        .parse()
        .expect("valid");
    let quick: AgentSpec = "simple-greedy".parse().expect("valid");
    let agents = [
        slow.factory::<ChineseCheckers>().expect("valid"),
        quick.factory::<ChineseCheckers>().expect("valid"),
    ];
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    let rules = CcRules {
        timeout: Timeout::Random,
        max_plies: 10,
        ..CcRules::default()
    };
    let record = play_from(
        ChineseCheckers::new(rules),
        String::new(),
        jobs[0],
        &mut seats,
        1000,
        limit,
    );
    assert_eq!(record.plies, 10);
    let p1: Vec<&MoveRecord> = record
        .moves
        .iter()
        .filter(|m| m.side == Player::P1)
        .collect();
    // The first decision searches for 50 ms: over the limit, replaced by a random move.
    // (Near the ply limit the search tree is tiny and may finish in time.)
    assert!(p1[0].timed_out, "{p1:?}");
    assert!(
        p1.iter()
            .all(|m| m.timed_out == m.value.is_none() && (m.nanos > 1_000_000) == m.timed_out),
        "{p1:?}"
    );
    assert!(
        record
            .moves
            .iter()
            .filter(|m| m.side == Player::P2)
            .all(|m| !m.timed_out)
    );
}
