//! `arbiter check-agent`: a compliance check of an external agent against one game, with
//! the diagnosis a student needs ("no reply within the startup timeout: did you flush
//! stdout?").

use super::{ExternalSpec, PROTOCOL_VERSION, Program, Received, Shared, clip, start_program};
use crate::core::seeds;
use crate::core::{Agent, Game, GameContext, Limits, Player};
use serde_json::{Value, json};
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// Time per move in the check's positions when neither the agent nor `--move-ms` sets one.
pub const CHECK_MOVE_MS: u64 = 1_000;
/// Time per move in the check's whole games when neither the agent nor `--game-move-ms`
/// sets one.
pub const GAME_MOVE_MS: u64 = 200;

/// The time per move a check gives the agent, in ms.
#[derive(Clone, Copy, Debug)]
pub struct CheckTimes {
    /// In each of the check's positions.
    pub position_ms: u64,
    /// In the whole games against random moves.
    pub game_ms: u64,
    /// Whether the times are of CPU (a run on `clock = "cpu"`): a move is judged by the
    /// CPU it used, and a program starved of a core by a loaded machine is waited for
    /// while it computes, as in the run's games.
    pub cpu: bool,
}

/// What the check found.
pub struct Verdict {
    /// Steps that failed.
    pub failures: usize,
    /// Steps that passed with a warning.
    pub warnings: usize,
}

struct Steps<'a> {
    out: &'a mut dyn Write,
    failures: usize,
    warnings: usize,
}

impl Steps<'_> {
    fn ok(&mut self, text: &str) -> io::Result<()> {
        writeln!(self.out, "ok    {text}")
    }
    fn warn(&mut self, text: &str) -> io::Result<()> {
        self.warnings += 1;
        writeln!(self.out, "warn  {text}")
    }
    fn fail(&mut self, text: &str) -> io::Result<()> {
        self.failures += 1;
        writeln!(self.out, "FAIL  {text}")
    }
}

/// Positions `plies` random plies from `start` (seeded), not finished.
fn random_position<G: Game>(start: &G, plies: usize, seed: u64) -> (G, Vec<String>) {
    let mut rng = seeds::rng(seed);
    let mut state = start.clone();
    let mut history = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[seeds::below(&mut rng, moves.len())];
        let mut next = state.clone();
        next.apply(mv);
        if next.outcome().is_some() {
            break;
        }
        history.push(state.format_move(mv));
        state = next;
    }
    (state, history)
}

/// The next JSON line, by `until`; on CPU time (`cpu`: the program's CPU time when asked,
/// and what it may use), past `until` while the program computes within its budget.
fn read_line_on(
    program: &mut Program,
    mut until: Instant,
    cpu: Option<(u64, Duration)>,
) -> Result<Value, String> {
    let mut last = cpu.map(|(before, _)| before);
    loop {
        match read_line(program, until) {
            Err(why) if why.starts_with("no reply in time") => {
                if let (Some((before, budget)), Some(seen), Some(now)) =
                    (cpu, last, program.cpu_nanos())
                    && now > seen
                    && Duration::from_nanos(now - before) < budget
                {
                    last = Some(now);
                    until = Instant::now() + Duration::from_millis(250);
                    continue;
                }
                return Err(why);
            }
            other => return other,
        }
    }
}

fn read_line(program: &mut Program, until: Instant) -> Result<Value, String> {
    loop {
        match program.receive(until, &|| false) {
            Received::Line(line) => match serde_json::from_str::<Value>(&line) {
                Ok(value) => return Ok(value),
                Err(_) => program.garbage_lines += 1,
            },
            Received::Closed => return Err("the program exited".to_string()),
            Received::TooLong => return Err("a line longer than 1 MiB on stdout".to_string()),
            Received::TimedOut | Received::Stopped => {
                return Err("no reply in time: did the program flush stdout?".to_string());
            }
        }
    }
}

/// Checks `spec` on game `game_name` starting at `start`, printing one line per step to
/// `out`; the agent's stderr during the check is kept in `logs`.
///
/// # Errors
/// Writing to `out` fails.
pub fn check<G: Game>(
    name: &str,
    spec: &ExternalSpec,
    start: &G,
    game_name: &str,
    times: CheckTimes,
    logs: &Path,
    out: &mut dyn Write,
) -> io::Result<Verdict> {
    let mut steps = Steps {
        out,
        failures: 0,
        warnings: 0,
    };
    writeln!(
        steps.out,
        "checking `{}` (in {}) on {game_name}, protocol {PROTOCOL_VERSION}",
        spec.command_line(),
        spec.cwd.display()
    )?;
    let move_ms = times.position_ms;
    let hello = json!({
        "type": "hello", "protocol": PROTOCOL_VERSION, "game": game_name, "seat": "P1",
        "seed": 1, "time": {"move_ms": move_ms, "margin_ms": spec.tolerance_ms},
        "options": Value::Object(spec.options.clone()),
    });
    let clock = Instant::now();
    let log = logs.join("check.stderr");
    let (mut program, ready_name) = match start_program(spec, &hello, Some(log.clone())) {
        Ok(started) => started,
        Err(why) => {
            steps.fail(&format!("handshake: {why}"))?;
            tail(&log, steps.out)?;
            return Ok(Verdict {
                failures: steps.failures,
                warnings: steps.warnings,
            });
        }
    };
    steps.ok(&format!(
        "handshake: `ready` as '{ready_name}' in {} ms",
        clock.elapsed().as_millis()
    ))?;

    let ping = |program: &mut Program, id: u64| -> Result<u128, String> {
        let clock = Instant::now();
        program
            .send(&json!({"type": "ping", "id": id}))
            .map_err(|e| format!("cannot send: {e}"))?;
        let until = clock + Duration::from_millis(spec.ping_ms);
        loop {
            let reply = read_line(program, until)?;
            if reply["type"] == "pong" {
                return Ok(clock.elapsed().as_micros());
            }
        }
    };
    match ping(&mut program, 1) {
        Ok(micros) => steps.ok(&format!("ping: `pong` in {:.1} ms", micros as f64 / 1000.0))?,
        Err(why) => steps.fail(&format!("ping: {why}"))?,
    }

    check_positions(&mut steps, &mut program, start, spec, times)?;

    // Malformed requests must not kill the program: it skips them and answers the next.
    let survived = program.send_raw("this line is not JSON").is_ok()
        && program.send(&json!({"type": "no-such-request"})).is_ok()
        && ping(&mut program, 2).is_ok();
    if survived {
        steps.ok("malformed requests: skipped, `ping` still answered")?;
    } else {
        steps.warn(
            "malformed requests: no `pong` after a line that is not JSON and an unknown type (skip lines you cannot read)",
        )?;
    }
    let clock = Instant::now();
    let _ = program.send(&json!({"type": "quit"}));
    match program.exit_status(Duration::from_millis(1_000)) {
        Some(status) if status.success() => steps.ok(&format!(
            "quit: exited in {} ms",
            clock.elapsed().as_millis()
        ))?,
        Some(status) => steps.warn(&format!(
            "quit: exited with {}",
            super::describe_status(status)
        ))?,
        None => steps.warn("quit: still running 1 s after `quit` (it will be killed)")?,
    }
    program.stop(false);
    if program.garbage_lines > 0 {
        steps.warn(&format!(
            "{} stdout lines were not JSON (print debugging to stderr)",
            program.garbage_lines
        ))?;
    }

    // A whole game against a random player, through the harness's own agent code.
    let shared = Shared::new(
        name.to_string(),
        spec.clone(),
        Box::new({
            let game_name = game_name.to_string();
            move |_: &G| game_name.clone()
        }),
    );
    for seat in Player::BOTH {
        let game_ms = times.game_ms;
        let mut agent = shared.agent(11);
        let outcome = play_against_random(&mut agent, start, seat, game_ms, times.cpu, logs);
        match outcome {
            Ok((plies, result)) => steps.ok(&format!(
                "a game as {seat} against random moves ({game_ms} ms a move): {result} after {plies} plies"
            ))?,
            Err(why) => steps.fail(&format!("a game as {seat} against random moves: {why}"))?,
        }
    }
    if steps.failures > 0 {
        tail(&log, steps.out)?;
        writeln!(steps.out, "the agent's stderr is in {}", logs.display())?;
    }
    Ok(Verdict {
        failures: steps.failures,
        warnings: steps.warnings,
    })
}

/// The moves of the program checked at five positions of a random playout (0 to 30 plies
/// in): a legal move, within the time limit; a failure ends the check of positions.
fn check_positions<G: Game>(
    steps: &mut Steps<'_>,
    program: &mut Program,
    start: &G,
    spec: &ExternalSpec,
    times: CheckTimes,
) -> io::Result<()> {
    let move_ms = times.position_ms;
    let mut legal = Vec::new();
    for (index, plies) in [0usize, 3, 8, 15, 30].into_iter().enumerate() {
        let (state, history) = random_position(start, plies, 7 + index as u64);
        state.legal_moves(&mut legal);
        if legal.is_empty() {
            continue;
        }
        let names: Vec<String> = legal.iter().map(|&m| state.format_move(m)).collect();
        let request = json!({
            "type": "move", "game_id": 0, "ply": history.len(),
            "seat": state.to_move().label(), "position": state.position_json(),
            "moves": history, "legal": names, "time_ms": move_ms,
        });
        let clock = Instant::now();
        let what = format!("position after {} plies", history.len());
        let cpu_before = program.cpu_nanos().filter(|_| times.cpu);
        if let Err(e) = program.send(&request) {
            steps.fail(&format!("{what}: cannot send the request ({e})"))?;
            break;
        }
        let until = clock + Duration::from_millis(move_ms + spec.tolerance_ms + 1_000);
        let budget = Duration::from_millis(move_ms + spec.tolerance_ms);
        match read_line_on(program, until, cpu_before.map(|before| (before, budget))) {
            Err(why) => {
                steps.fail(&format!("{what}: {why}"))?;
                break;
            }
            Ok(reply) => {
                // On CPU time, the move is judged by the CPU it used.
                let ms = match (cpu_before, program.cpu_nanos()) {
                    (Some(before), Some(after)) => {
                        u128::from(after.saturating_sub(before) / 1_000_000)
                    }
                    _ => clock.elapsed().as_millis(),
                };
                match reply["move"].as_str() {
                    _ if reply["type"] != "move" => steps.fail(&format!(
                        "{what}: expected {{\"type\": \"move\", ...}}, got {}",
                        clip(&reply.to_string())
                    ))?,
                    None => steps.fail(&format!("{what}: the reply has no \"move\" string"))?,
                    Some(text) => match state.parse_move(text) {
                        Err(e) => steps.fail(&format!("{what}: {e}"))?,
                        Ok(_) if ms > u128::from(move_ms + spec.tolerance_ms) => steps.fail(
                            &format!("{what}: '{text}' after {ms} ms, over the {move_ms} ms limit"),
                        )?,
                        Ok(_) => steps.ok(&format!("{what}: '{text}' in {ms} ms"))?,
                    },
                }
            }
        }
    }
    Ok(())
}

/// [`check`]'s steps run on an agent before a tournament plays it: `None` when every step
/// passed, else the first failure in one line (its stderr is kept in `logs`).
pub fn preflight<G: Game>(
    name: &str,
    spec: &ExternalSpec,
    start: &G,
    game_name: &str,
    times: CheckTimes,
    logs: &Path,
) -> Option<String> {
    let mut out = Vec::new();
    match check(name, spec, start, game_name, times, logs, &mut out) {
        Err(e) => Some(format!("the check could not run: {e}")),
        Ok(verdict) if verdict.failures == 0 => None,
        Ok(_) => Some(
            String::from_utf8_lossy(&out)
                .lines()
                .find_map(|line| line.strip_prefix("FAIL  "))
                .unwrap_or("a step failed")
                .to_string(),
        ),
    }
}

/// Plays one game with `agent` in `seat` and uniformly random moves for the other side.
fn play_against_random<G: Game>(
    agent: &mut super::ExternalAgent<G>,
    start: &G,
    seat: Player,
    move_ms: u64,
    cpu: bool,
    logs: &Path,
) -> Result<(usize, String), String> {
    let context = GameContext {
        id: seat.index() as u64 + 1,
        seat,
        seed: 11,
        opening: "",
        move_time: Some(Duration::from_millis(move_ms)),
        logs: Some(logs),
    };
    agent.start_game(start, &context);
    let mut rng = seeds::rng(3);
    let mut state = start.clone();
    let mut moves = Vec::new();
    let mut plies = 0;
    while state.outcome().is_none() && plies < 1_000 {
        if let Some(reason) = crate::core::stuck(&state) {
            return Err(format!(
                "{reason} at ply {} (the game's rules program failed)",
                plies + 1
            ));
        }
        let mv = if state.to_move() == seat {
            let limits = Limits {
                deadline: Instant::now().checked_add(Duration::from_millis(move_ms)),
                stop: None,
            };
            if cpu {
                // A CPU-time clock of one move: the agent waits for a starved program.
                let each = Duration::from_millis(move_ms);
                agent.see_clock(&crate::core::Clock {
                    remaining: crate::core::ByPlayer([each, each]),
                    increment: crate::core::ByPlayer([Duration::ZERO; 2]),
                    cpu: true,
                });
            }
            let decision = agent.decide(&state, &limits);
            if let Some(fault) = decision.fault {
                return Err(format!("{} at ply {}", fault.reason.name(), plies + 1));
            }
            let allowed = move_ms + agent.spec().tolerance_ms;
            if let Some(used) = decision.cpu_nanos.filter(|_| cpu)
                && used / 1_000_000 > allowed
            {
                return Err(format!(
                    "timeout at ply {}: {} ms of CPU, over {move_ms} ms",
                    plies + 1,
                    used / 1_000_000
                ));
            }
            decision.mv
        } else {
            state.legal_moves(&mut moves);
            moves[seeds::below(&mut rng, moves.len())]
        };
        let text = state.format_move(mv);
        state.apply(mv);
        agent.observe(&text);
        plies += 1;
    }
    let (winner, reason) = state
        .outcome()
        .map_or((None, "move cap"), |o| (o.winner, o.reason));
    agent.end_game(winner, reason);
    let result = match winner {
        Some(w) if w == seat => format!("won ({reason})"),
        Some(_) => format!("lost ({reason})"),
        None => format!("draw ({reason})"),
    };
    Ok((plies, result))
}

/// The last lines of the agent's stderr, if any.
fn tail(log: &Path, out: &mut dyn Write) -> io::Result<()> {
    if let Ok(text) = std::fs::read_to_string(log) {
        let lines: Vec<&str> = text.lines().collect();
        if !lines.is_empty() {
            writeln!(out, "last lines of its stderr ({}):", log.display())?;
            for line in &lines[lines.len().saturating_sub(10)..] {
                writeln!(out, "    {line}")?;
            }
        }
    }
    Ok(())
}
