use super::*;
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::registry::AgentSpec;

fn factories(specs: &[&str]) -> Vec<AgentFactory<Breakthrough>> {
    crate::registry::test_factories(
        &Breakthrough::new(crate::games::breakthrough::Rules::Standard),
        specs,
    )
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

#[test]
fn the_per_move_time_limit_forfeits_or_plays_a_random_move() {
    // A fixed-depth search against a 1 ms limit: cut by the deadline, it answers after it,
    // and Breakthrough forfeits at the first move. (An agent with a budget of its own aims
    // a little before the deadline instead.)
    let slow: AgentSpec = "alphabeta(heuristic=offensive2,depth=8)"
        .parse()
        .expect("valid");
    let agents = [
        slow.factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .expect("valid"),
        factories(&["random"]).remove(0),
    ];
    let jobs = schedule(1, &[[0, 1]], 1, Colours::AsListed);
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    let start = Breakthrough::new(Rules::Standard);
    let limit = Some(std::time::Duration::from_millis(1));
    let limits = PlayLimits {
        max_plies: 1000,
        move_time: limit,
        stop: None,
        logs: None,
        ..PlayLimits::default()
    };
    let record = play_from(start, String::new(), jobs[0], &mut seats, &limits).expect("no stop");
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
        slow.factory(&ChineseCheckers::new(Default::default()))
            .expect("valid"),
        quick
            .factory(&ChineseCheckers::new(Default::default()))
            .expect("valid"),
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
        &limits,
    )
    .expect("no stop");
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

#[test]
fn a_lazy_schedule_equals_the_listed_one() {
    let plans = vec![
        MatchupPlan {
            agents: [0, 1],
            seed_key: 0,
            games: 5,
        },
        MatchupPlan {
            agents: [2, 1],
            seed_key: 9,
            games: 0,
        },
        MatchupPlan {
            agents: [1, 2],
            seed_key: 1,
            games: 3,
        },
    ];
    for colours in [Colours::Alternate, Colours::AsListed] {
        let listed = schedule_plans(11, &plans, colours);
        let lazy = Schedule::new(11, plans.clone(), colours);
        assert_eq!(lazy.len(), 8);
        assert_eq!((0..8).map(|id| lazy.job(id)).collect::<Vec<_>>(), listed);
        assert_eq!(
            (0..8).map(|id| lazy.matchup_of(id)).collect::<Vec<_>>(),
            vec![0, 0, 0, 0, 0, 2, 2, 2]
        );
    }
    // A plan of a billion games costs nothing up front.
    let huge = Schedule::new(
        1,
        vec![MatchupPlan {
            agents: [0, 1],
            seed_key: 0,
            games: 1_000_000_000,
        }],
        Colours::Alternate,
    );
    assert_eq!(huge.job(999_999_999).game_index, 999_999_999);
}

#[test]
fn a_deep_search_obeys_the_move_limit_and_the_stop_flag_from_inside() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    // Minimax to depth 12 takes hours; a 50 ms limit must cut it, not wait for it.
    let deep: AgentSpec = "minimax(heuristic=offensive2,depth=12)"
        .parse()
        .expect("valid");
    let agents = [
        deep.factory(&Breakthrough::new(
            crate::games::breakthrough::Rules::Standard,
        ))
        .expect("valid"),
        factories(&["random"]).remove(0),
    ];
    let jobs = schedule(1, &[[0, 1]], 1, Colours::AsListed);
    let start = Breakthrough::new(Rules::Standard);
    let limits = PlayLimits {
        max_plies: 1000,
        move_time: Some(Duration::from_millis(50)),
        stop: None,
        logs: None,
        ..PlayLimits::default()
    };
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    let record = play_from(start, String::new(), jobs[0], &mut seats, &limits).expect("no stop");
    assert_eq!((record.reason.as_ref(), record.plies), (TIMEOUT_REASON, 0));
    let spent = Duration::from_nanos(record.sides[Player::P1].nanos);
    assert!(
        spent >= Duration::from_millis(50) && spent < Duration::from_secs(60),
        "{spent:?}"
    );
    // The stop flag, raised while the first move is being searched, abandons the game.
    let stop = Arc::new(AtomicBool::new(false));
    let limits = PlayLimits {
        max_plies: 1000,
        move_time: None,
        stop: Some(Arc::clone(&stop)),
        logs: None,
        ..PlayLimits::default()
    };
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::SeqCst);
    });
    let clock = Instant::now();
    let mut seats = ByPlayer([agents[0](1), agents[1](2)]);
    assert!(play_from(start, String::new(), jobs[0], &mut seats, &limits).is_none());
    // Far below the hours the search would take (generous for a loaded machine).
    assert!(clock.elapsed() < Duration::from_secs(60));
    raiser.join().expect("join");
}

#[test]
fn adjudication_resigns_when_both_agree_and_draws_in_a_band_after_its_ply() {
    use crate::core::ScoreRule;
    let rules = Adjudication {
        resign: Some(ScoreRule {
            score: 500.0,
            moves: 2,
        }),
        draw: Some(ScoreRule {
            score: 10.0,
            moves: 3,
        }),
        draw_after_ply: 8,
        oracle: None,
        oracle_after_ply: 0,
    };
    let (p1, p2) = (Player::P1, Player::P2);
    // P1 thinks it is lost twice, but P2 agrees only once: play on; then P2 agrees again.
    let mut streaks = Streaks::default();
    let moves = [
        (p1, Some(-600.0)),
        (p2, Some(400.0)),
        (p1, Some(-700.0)),
        (p2, Some(650.0)),
    ];
    let verdicts: Vec<_> = moves
        .iter()
        .enumerate()
        .map(|(ply, &(side, score))| streaks.after_move(&rules, side, score, ply as u32 + 1))
        .collect();
    assert_eq!(verdicts[..3], [None, None, None]);
    assert_eq!(verdicts[3], None, "P2 agreed on one move only");
    assert_eq!(
        streaks.after_move(&rules, p1, Some(-900.0), 5),
        None,
        "P1's third, P2's one"
    );
    assert_eq!(
        streaks.after_move(&rules, p2, Some(900.0), 6),
        Some((Some(p2), ADJUDICATED_RESIGN))
    );
    // A move without a score (a random agent) breaks the streak.
    let mut streaks = Streaks::default();
    for (ply, (side, score)) in [
        (p1, Some(-600.0)),
        (p2, Some(600.0)),
        (p1, None),
        (p2, Some(600.0)),
    ]
    .into_iter()
    .enumerate()
    {
        assert_eq!(
            streaks.after_move(&rules, side, score, ply as u32 + 1),
            None
        );
    }
    // Level scores: a draw once both sides held the band three moves and ply 8 is reached.
    let mut streaks = Streaks::default();
    let mut verdict = None;
    let mut ply = 0;
    while verdict.is_none() && ply < 20 {
        ply += 1;
        let side = if ply % 2 == 1 { p1 } else { p2 };
        verdict = streaks.after_move(&rules, side, Some(if ply == 3 { 50.0 } else { 2.0 }), ply);
    }
    // Ply 3's 50 broke P1's streak: P1 holds the band from ply 5, three moves at ply 9.
    assert_eq!((verdict, ply), (Some((None, ADJUDICATED_DRAW)), 9));
}

use crate::core::Decision;
use crate::games::breakthrough::Move;
use std::sync::{Arc, Mutex};

/// Plays like the agent it wraps and keeps the moves it is told, when it asks for them.
struct Watching {
    inner: Box<dyn Agent<Breakthrough>>,
    asks: bool,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Agent<Breakthrough> for Watching {
    fn decide(&mut self, state: &Breakthrough, limits: &Limits) -> Decision<Move> {
        self.inner.decide(state, limits)
    }
    fn observe(&mut self, mv: &str) {
        self.seen.lock().expect("not poisoned").push(mv.to_string());
    }
    fn observes(&self) -> bool {
        self.asks
    }
}

#[test]
fn without_moves_the_game_is_the_same_and_only_an_observer_is_told_them() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["alphabeta(heuristic=material,depth=2)", "random"]);
    let jobs = schedule(3, &[[0, 1]], 2, Colours::Alternate);
    let play = |no_moves: bool, asks: bool, job: GameJob| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let watching = Watching {
            inner: agents[job.agent(Player::P2)](job.agent_seed(Player::P2)),
            asks,
            seen: Arc::clone(&seen),
        };
        let mut seats = ByPlayer([
            agents[job.agent(Player::P1)](job.agent_seed(Player::P1)),
            Box::new(watching) as Box<dyn Agent<Breakthrough>>,
        ]);
        let limits = PlayLimits {
            max_plies: 1000,
            no_moves,
            ..PlayLimits::default()
        };
        let record = play_from(start, String::new(), job, &mut seats, &limits).expect("no stop");
        let seen = seen.lock().expect("not poisoned").clone();
        (record, seen)
    };
    for &job in &jobs {
        let (full, told) = play(false, true, job);
        assert_eq!(told.join(";"), full.move_text);
        assert_eq!(full.moves.len(), full.plies as usize);
        let (bare, told_bare) = play(true, true, job);
        assert_eq!(told_bare, told, "an observer is told every move either way");
        assert!(bare.moves.is_empty() && bare.move_text.is_empty());
        assert_eq!(
            (bare.winner, &bare.reason, bare.plies),
            (full.winner, &full.reason, full.plies)
        );
        for side in Player::BOTH {
            let (a, b) = (bare.sides[side], full.sides[side]);
            assert_eq!(
                (a.moves, a.stats.nodes(), a.captures),
                (b.moves, b.stats.nodes(), b.captures)
            );
        }
        let (_, unasked) = play(true, false, job);
        assert!(unasked.is_empty(), "no text is made for nobody");
    }
}

/// Sleeps for its time, then plays the first legal move; told a move, it takes 2 ms.
struct Slow(Duration);

impl Agent<Breakthrough> for Slow {
    fn decide(&mut self, state: &Breakthrough, _limits: &Limits) -> Decision<Move> {
        std::thread::sleep(self.0);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        Decision::just(moves[0])
    }

    fn observe(&mut self, _mv: &str) {
        std::thread::sleep(Duration::from_millis(2));
    }

    fn observes(&self) -> bool {
        true
    }
}

#[test]
fn move_times_run_as_a_chess_clock_covering_the_whole_game() {
    // One clock reading a ply: each side's time is at least its sleeps, the two add up to
    // no more than the game's wall time (no moment is counted twice), and the time spent
    // between two decisions (here 4 ms a ply telling both agents the move) falls to the
    // next mover instead of to no one.
    let start = Breakthrough::new(Rules::Standard);
    let jobs = schedule(1, &[[0, 1]], 1, Colours::AsListed);
    let (short, long) = (Duration::from_millis(1), Duration::from_millis(3));
    let mut seats: ByPlayer<Box<dyn Agent<Breakthrough>>> =
        ByPlayer([Box::new(Slow(short)), Box::new(Slow(long))]);
    let clock = std::time::Instant::now();
    let record = play_game(&start, jobs[0], &mut seats, 12);
    let wall = clock.elapsed();
    assert_eq!(record.plies, 12);
    let [p1, p2] = [Player::P1, Player::P2].map(|p| record.sides[p]);
    assert_eq!((p1.moves, p2.moves), (6, 6));
    assert!(Duration::from_nanos(p1.nanos) >= short * 6, "{p1:?}");
    assert!(Duration::from_nanos(p2.nanos) >= long * 6, "{p2:?}");
    let counted = Duration::from_nanos(p1.nanos + p2.nanos);
    assert!(counted <= wall, "{counted:?} counted in a {wall:?} game");
    // The last ply's telling (4 ms) comes after the last reading; 12 plies of it (48 ms)
    // would be missing if the clock ran only around each decision.
    assert!(
        wall - counted < Duration::from_millis(20),
        "{wall:?} {counted:?}"
    );
    assert!(Duration::from_nanos(p2.nanos) >= (long + Duration::from_millis(4)) * 6);
}

/// An agent's seed follows its slot in the matchup, not its seat: the games of a
/// colour-swapped pair differ when both agents are one stochastic agent (self-play) or
/// two variants that play alike, and an agent keeps its stream across the pair.
#[test]
fn the_two_games_of_a_colour_swapped_pair_differ_in_self_play() {
    let start = Breakthrough::new(Rules::Standard);
    for specs in [
        ["mcts(iterations=40)", "mcts(iterations=40)"],
        [
            "alphabeta(heuristic=offensive2,depth=2)",
            "alphabeta(heuristic=offensive2,depth=2,almost_win=10001)",
        ],
    ] {
        let agents = factories(&specs);
        let jobs = schedule(11, &[[0, 1]], 8, Colours::Alternate);
        let games: Vec<String> = jobs
            .iter()
            .map(|&job| {
                let mut seats = seat_agents(&agents, &job);
                play_game(&start, job, &mut seats, 1000).move_text
            })
            .collect();
        let distinct: std::collections::BTreeSet<&String> = games.iter().collect();
        assert_eq!(
            distinct.len(),
            games.len(),
            "{specs:?}: a game was replayed"
        );
        for pair in jobs.chunks(2) {
            let (first, second) = (pair[0], pair[1]);
            assert_eq!(first.seed, second.seed, "a pair shares its seed");
            // The first listed agent's stream is the same in both games, in either seat.
            assert_eq!(first.agent_seed(Player::P1), second.agent_seed(Player::P2));
            assert_ne!(first.agent_seed(Player::P1), first.agent_seed(Player::P2));
        }
    }
}

/// An agent that takes `nap` over every move and has a margin past its clock.
struct Overrunning {
    inner: Box<dyn Agent<Breakthrough>>,
    nap: Duration,
    margin: Duration,
}

impl Agent<Breakthrough> for Overrunning {
    fn decide(&mut self, state: &Breakthrough, limits: &Limits) -> Decision<Move> {
        std::thread::sleep(self.nap);
        self.inner.decide(state, limits)
    }
    fn time_margin(&self) -> Duration {
        self.margin
    }
}

/// Time used past the clock within the margin is owed: a side whose clock reached 0 by
/// a move within its margin cannot go on overrunning by its margin move after move (it
/// used to play on at 0 ms with the margin free every move).
#[test]
fn time_used_within_the_margin_is_owed_by_the_next_moves() {
    let start = Breakthrough::new(Rules::Standard);
    let agents = factories(&["random"]);
    let job = schedule(5, &[[0, 0]], 1, Colours::AsListed)[0];
    // 100 ms and no increment; 40 ms a move with a 50 ms margin: 100, 60, 20, then the
    // third move ends 20 ms past the clock (within the margin), and the fourth may use
    // only 50 - 20 = 30 ms: it loses on time there (later only if the machine is so slow
    // that a move overruns by more than the margin earlier).
    let mut seats = ByPlayer([
        Box::new(Overrunning {
            inner: agents[0](1),
            nap: Duration::from_millis(40),
            margin: Duration::from_millis(50),
        }) as Box<dyn Agent<Breakthrough>>,
        agents[0](2),
    ]);
    let control = TimeControl {
        base: Duration::from_millis(100),
        increment: Duration::ZERO,
    };
    let limits = PlayLimits {
        max_plies: 200,
        time_control: Some([control; 2]),
        ..PlayLimits::default()
    };
    let record = play_from(start, String::new(), job, &mut seats, &limits).expect("no stop");
    assert_eq!(
        (record.winner, record.reason.as_ref()),
        (Some(Player::P2), TIMEOUT_REASON),
        "{record:?}"
    );
    assert!(record.sides[Player::P1].moves <= 3, "{:?}", record.sides);
}

/// A move goes through a journal line and back unchanged in its compact form, whatever
/// fields it carries; a journal written before (moves as objects) still reads.
#[test]
fn moves_round_trip_through_the_compact_journal_form() {
    let plain = MoveRecord {
        side: Player::P2,
        expanded: 12,
        evaluated: 345,
        generated: 6789,
        peak_bytes: 1024,
        nanos: 123_456_789,
        value: Some(-0.125),
        depth: 4,
        timed_out: false,
        fault: None,
        self_reported: false,
        cpu_nanos: None,
        clock_nanos: None,
    };
    let variants = [
        plain,
        MoveRecord {
            value: None,
            timed_out: true,
            ..plain
        },
        MoveRecord {
            fault: Some(FaultReason::IllegalMove),
            ..plain
        },
        MoveRecord {
            self_reported: true,
            ..plain
        },
        MoveRecord {
            cpu_nanos: Some(77),
            ..plain
        },
        MoveRecord {
            side: Player::P1,
            clock_nanos: Some(5_000_000_000),
            fault: Some(FaultReason::CpuTime),
            value: Some(1e-9),
            ..plain
        },
    ];
    for mv in variants {
        let mut line = Vec::new();
        mv.write_compact(&mut line);
        let back: MoveRecord = serde_json::from_slice(&line).expect("reads back");
        assert_eq!(back, mv, "{}", String::from_utf8_lossy(&line));
        // The object form of older journals.
        let object = serde_json::to_string(&mv).expect("object");
        let old: MoveRecord = serde_json::from_str(&object).expect("old form");
        assert_eq!(old, mv, "{object}");
    }
    let mut line = Vec::new();
    plain.write_compact(&mut line);
    assert_eq!(
        String::from_utf8_lossy(&line),
        "[1,123456789,12,345,6789,1024,-0.125,4]",
        "the defaults at the end are left out"
    );
    let random = MoveRecord {
        expanded: 0,
        evaluated: 0,
        generated: 0,
        peak_bytes: 0,
        value: None,
        depth: 0,
        nanos: 801,
        ..plain
    };
    let mut line = Vec::new();
    random.write_compact(&mut line);
    assert_eq!(String::from_utf8_lossy(&line), "[1,801]");
    let back: MoveRecord = serde_json::from_slice(&line).expect("reads back");
    assert_eq!(back, random);
}
