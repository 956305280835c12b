//! `arbiter bench`'s figures for games and agents that are other programs: the price of
//! the game protocol against a built-in game, a rules program's answers per second, and
//! an external agent's moves per second.

use super::measure::{alphabeta_on, per_second};
use super::{Result, Say};
use crate::core::{Player, seeds};
use crate::external::ExternalSpec;
use crate::external::rules::RulesSpec;
use crate::games::random_positions;
use crate::registry::Colours;
use crate::registry::{AgentSpec, GameEntry, GameTask, dispatch};
use crate::tournament::{MatchupPlan, Schedule, play_game, seat_agents};
use std::path::Path;
use std::time::Instant;
/// The price of the game protocol: alpha-beta on the built-in game against the same game
/// served by `arbiter serve-game` (a program game, its heuristic answering `evaluate`), on
/// the same positions (the same seeded playouts: the served game lists its moves in the
/// built-in order) and the same depth, side by side; then, when given, against a rules
/// library of the same game (docs/game-library.md), whose `evaluate` must be the game's
/// first heuristic at its defaults for the nodes to be the same.
pub(super) fn protocol_price<G: GameEntry>(
    start: &G,
    game: &str,
    depth: u32,
    library: Option<&Path>,
    say: Say,
) -> Result<()> {
    let info = &G::heuristics()[0];
    let heuristic = info.name;
    // A heuristic's random tie-break noise would be drawn apart in the two processes.
    let params: Vec<(String, String)> = info
        .params
        .iter()
        .filter(|p| p.key == "noise")
        .map(|p| (p.key.to_string(), "0".to_string()))
        .collect();
    let served_heuristic = if params.is_empty() {
        heuristic.to_string()
    } else {
        format!("{heuristic}(noise=0)")
    };
    let exe = std::env::current_exe()
        .map_err(|e| format!("arbiter's own path: {e}"))?
        .display()
        .to_string();
    let here = std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?;
    let served = RulesSpec::new(
        vec![
            exe,
            "serve-game".into(),
            game.to_string(),
            "--heuristic".into(),
            served_heuristic,
        ],
        here.clone(),
    );
    // Through a pipe a search is hundreds of times slower: depth 3 at most there.
    let mut ways = vec![("through serve-game".to_string(), served, depth.min(3))];
    if let Some(path) = library {
        let mut spec = RulesSpec::new(Vec::new(), here.clone());
        spec.library = Some(std::path::absolute(path).unwrap_or(path.to_path_buf()));
        ways.push((
            format!("through the rules library {}", path.display()),
            spec,
            depth,
        ));
    }
    let positions = 10;
    for (way, spec, depth) in ways {
        let (built_in_nodes, built_in_seconds) = dispatch(
            start.game_spec(),
            AlphaBetaRate {
                heuristic: heuristic.to_string(),
                params: params.clone(),
                depth,
                positions,
            },
        )?;
        let built_in_rate = built_in_nodes as f64 / built_in_seconds.max(1e-9);
        let mut registry = crate::registry::AgentRegistry::default();
        registry.record_game("served", spec, &here);
        let served = registry
            .game("served")
            .map_err(|e| format!("{game} {way}: {e}"))?;
        let (served_nodes, served_seconds) = dispatch(
            served,
            AlphaBetaRate {
                heuristic: "program".to_string(),
                params: Vec::new(),
                depth,
                positions,
            },
        )?;
        let served_rate = served_nodes as f64 / served_seconds.max(1e-9);
        say(format!(
            "alphabeta depth {depth} {heuristic} {way}: {served_nodes} nodes on {positions} positions, {} nodes/s; built in {}: {:.1}x{} (1 thread)",
            per_second(served_nodes, served_seconds),
            per_second(built_in_nodes, built_in_seconds),
            built_in_rate / served_rate.max(1e-9),
            if served_nodes == built_in_nodes {
                ", the same nodes"
            } else {
                ", NOT the same nodes"
            }
        ));
    }
    Ok(())
}

/// Requests per second answered by rules programs (the game protocol, nothing cached): a
/// Rust one (`serve-game` of `game`) and the shipped Python examples, in seeded random
/// playouts (`legal`, then `apply` of a random move, whose reply carries the status).
pub(super) fn rules_bench(game: &str, requests: u64, say: Say) -> Result<()> {
    use crate::external::rules::{Session, read_status};
    use serde_json::json;
    if requests == 0 {
        return Ok(());
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("arbiter's own path: {e}"))?
        .display()
        .to_string();
    let mut programs = vec![(
        format!("serve-game {game} (Rust)"),
        vec![exe, "serve-game".into(), game.to_string()],
    )];
    for (name, file) in [
        ("tic-tac-toe example (Python)", "tic_tac_toe_game.py"),
        ("connect four example (Python)", "connect_four_game.py"),
    ] {
        let path = Path::new("clients/python/examples").join(file);
        if path.is_file() {
            programs.push((
                name.to_string(),
                vec!["python3".into(), path.display().to_string()],
            ));
        }
    }
    for (name, command) in programs {
        let spec = RulesSpec::new(
            command,
            std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?,
        );
        let (mut session, _) =
            Session::open(&spec, "bench", &[]).map_err(|e| format!("{name}: {e}"))?;
        let mut rng = seeds::rng(5);
        let (mut sent, mut playouts) = (0u64, 0u64);
        let clock = Instant::now();
        'playouts: while sent < requests {
            let mut position = session
                .ask(&json!({"type": "initial"}), "position")
                .map_err(|e| format!("{name}: {e}"))?["position"]
                .as_str()
                .unwrap_or("")
                .to_string();
            sent += 1;
            playouts += 1;
            while sent < requests {
                let legal = session
                    .ask(&json!({"type": "legal", "position": position}), "legal")
                    .map_err(|e| format!("{name}: {e}"))?;
                sent += 1;
                let moves = legal["moves"].as_array().cloned().unwrap_or_default();
                if moves.is_empty() {
                    continue 'playouts;
                }
                let mv = &moves[seeds::below(&mut rng, moves.len())];
                let child = session
                    .ask(
                        &json!({"type": "apply", "position": position, "move": mv}),
                        "position",
                    )
                    .map_err(|e| format!("{name}: {e}"))?;
                sent += 1;
                position = child["position"].as_str().unwrap_or("").to_string();
                if child.get("status").is_none() {
                    let status = session
                        .ask(&json!({"type": "status", "position": position}), "status")
                        .map_err(|e| format!("{name}: {e}"))?;
                    sent += 1;
                    read_status(&status, crate::core::Player::MAX)
                        .map_err(|e| format!("{name}: {e}"))?;
                }
            }
        }
        let seconds = clock.elapsed().as_secs_f64();
        say(format!(
            "rules program {name}: {sent} requests one at a time in {playouts} random playouts, {} requests/s ({:.1} us a request; 1 thread)",
            per_second(sent, seconds),
            seconds * 1e6 / sent.max(1) as f64
        ));
        // As a search asks (arbiter's client batches a position's children, and then the
        // children's legal moves): every child of each position on the playouts at once.
        let (mut sent, mut batches) = (0u64, 0u64);
        let clock = Instant::now();
        let initial = session
            .ask(&json!({"type": "initial"}), "position")
            .map_err(|e| format!("{name}: {e}"))?["position"]
            .as_str()
            .unwrap_or("")
            .to_string();
        'walks: while sent < requests {
            let mut position = initial.clone();
            loop {
                let legal = session
                    .ask(&json!({"type": "legal", "position": position}), "legal")
                    .map_err(|e| format!("{name}: {e}"))?;
                let moves = legal["moves"].as_array().cloned().unwrap_or_default();
                sent += 1;
                if moves.is_empty() || sent >= requests {
                    continue 'walks;
                }
                let asks: Vec<serde_json::Value> = moves
                    .iter()
                    .map(|mv| json!({"type": "apply", "position": position, "move": mv}))
                    .collect();
                let children = session
                    .ask_many(&asks, "position")
                    .map_err(|e| format!("{name}: {e}"))?;
                sent += children.len() as u64;
                batches += 1;
                let pick = &children[seeds::below(&mut rng, children.len())];
                position = pick["position"].as_str().unwrap_or("").to_string();
                if pick["status"]["over"].as_bool() == Some(true) {
                    continue 'walks;
                }
            }
        }
        let seconds = clock.elapsed().as_secs_f64();
        session.stop();
        say(format!(
            "rules program {name}: {sent} requests as a search asks them ({batches} batches of a position's children), {} requests/s ({:.1} us a request; 1 thread)",
            per_second(sent, seconds),
            seconds * 1e6 / sent.max(1) as f64
        ));
    }
    Ok(())
}

/// Moves per second of a random agent behind the protocol (the pipe, JSON both ways, the
/// position and legal moves sent every move), one thread, against an in-process one.
pub(super) fn external_bench<G: GameEntry>(
    start: &G,
    game: &str,
    games: u64,
    say: Say,
) -> Result<()> {
    if games == 0 {
        return Ok(());
    }
    let exe = std::env::current_exe()
        .map_err(|e| format!("arbiter's own path: {e}"))?
        .display()
        .to_string();
    let example = Path::new("clients/python/examples/random_agent.py");
    let mut programs = vec![(
        "serve-agent random (Rust)",
        vec![
            exe,
            "serve-agent".into(),
            "random".into(),
            "--game".into(),
            game.to_string(),
        ],
    )];
    if example.is_file() {
        let path = example.display().to_string();
        programs.push(("python random example", vec!["python3".into(), path]));
    }
    let random: AgentSpec = "random".parse::<AgentSpec>().map_err(|e| e.to_string())?;
    for (name, command) in programs {
        let external = AgentSpec::external(
            Some(name.to_string()),
            ExternalSpec::new(
                command,
                std::env::current_dir().map_err(|e| format!("the current folder: {e}"))?,
            ),
        );
        let factories = vec![
            external.factory(start).map_err(|e| e.to_string())?,
            random.factory(start).map_err(|e| e.to_string())?,
        ];
        let schedule = Schedule::new(
            1,
            vec![MatchupPlan {
                agents: [0, 1],
                seed_key: 0,
                games,
            }],
            Colours::Alternate,
        );
        let (mut moves, mut nanos, mut faults) = (0u64, 0u64, 0u64);
        // CPU: this thread's (arbiter's side of the pipe, and the in-process agent) and
        // the program's whole life (counted once it has exited: what it does between
        // moves, waiting for the next request included).
        let thread_cpu = crate::core::cpu::thread_nanos;
        let children_cpu = crate::core::cpu::ended_children_nanos;
        let (cpu_before, children_before) = (thread_cpu(), children_cpu());
        let clock = Instant::now();
        for id in 0..schedule.len() {
            let job = schedule.job(id);
            let mut seats = seat_agents(&factories, &job);
            let record = play_game(start, job, &mut seats, 10_000);
            let side = if job.first_is_p1 {
                Player::P1
            } else {
                Player::P2
            };
            moves += u64::from(record.sides[side].moves);
            nanos += record.sides[side].nanos;
            faults += u64::from(record.reason.contains('_') || record.reason == "crash");
        }
        let wall = clock.elapsed().as_secs_f64();
        // The program quits and is waited for.
        drop(factories);
        let cpu_after = thread_cpu();
        say(format!(
            "{name}: {moves} moves in {games} games, {} moves/s through the pipe ({:.1} us a move; {wall:.2} s wall, {faults} failures; 1 thread)",
            per_second(moves, nanos as f64 / 1e9),
            nanos as f64 / 1e3 / moves.max(1) as f64
        ));
        // Per CPU-second of both processes: what the protocol costs the machine, whatever
        // the cores' scheduling adds to the wall time of a round trip.
        if let (Some(before), Some(after), Some(children_before), Some(children_after)) =
            (cpu_before, cpu_after, children_before, children_cpu())
        {
            let arbiter_cpu = after.saturating_sub(before);
            let program_cpu = children_after.saturating_sub(children_before);
            let cpu = (arbiter_cpu + program_cpu) as f64 / 1e9;
            say(format!(
                "{name}: {} agent moves per CPU-second ({:.1} us of arbiter's CPU + {:.1} us of the program's a move, its whole life)",
                per_second(moves, cpu),
                arbiter_cpu as f64 / 1e3 / moves.max(1) as f64,
                program_cpu as f64 / 1e3 / moves.max(1) as f64
            ));
        }
    }
    Ok(())
}

/// Alpha-beta on a few positions: nodes and seconds (one thread).
struct AlphaBetaRate {
    heuristic: String,
    params: Vec<(String, String)>,
    depth: u32,
    positions: usize,
}

impl GameTask for AlphaBetaRate {
    type Output = Result<(u64, f64)>;

    fn run<G: GameEntry>(self, start: G) -> Result<(u64, f64)> {
        let positions = random_positions(&start, self.positions, 10, 40, 2024);
        let evaluator = start
            .heuristic(&self.heuristic, &self.params)
            .map_err(|e| e.to_string())?;
        let (nodes, _, seconds) = alphabeta_on(&positions, evaluator, self.depth);
        Ok((nodes, seconds))
    }
}
