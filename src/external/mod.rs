//! Other programs arbiter talks to, over two line protocols: agents (this file, the
//! messages in `messages.rs`, docs/protocol.md; `serve.rs` serves a built-in agent,
//! `check.rs` checks one, `hosted.rs` runs the Python package's callables in process) and
//! games (`rules.rs`, docs/game-protocol.md; `rules_heuristics.rs`, `serve_game.rs`,
//! `check_game.rs`). Both run as child processes (`program.rs`), sandboxed when asked
//! (`sandbox.rs`). Uses core only: a game is any [`Game`], its position sent as
//! [`Game::position_json`].

pub mod check;
pub mod check_game;
pub mod hosted;
pub mod library;
mod looking;
mod messages;
mod move_line;
mod program;
pub mod rules;
pub mod rules_heuristics;
pub mod sandbox;
pub mod serve;
pub mod serve_game;

pub use looking::{LookingInput, looking_stdin};
pub use program::{Program, Received, describe_status};

use messages::{MoveInfo, MoveRequest, Reply, message_of, read_reply};

use crate::core::json;
use crate::core::seeds;
use crate::core::{
    Agent, ByPlayer, Clock, Decision, Fault, FaultReason, Game, GameContext, Limits, Player,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The protocol version arbiter speaks (`hello.protocol`). Version 2 added the game
/// clocks (`clock` in move requests); a version-1 program plays on, ignoring them.
pub const PROTOCOL_VERSION: u32 = 2;

/// What happens to a game when an external agent fails a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnFailure {
    /// The agent loses the game (the default).
    #[default]
    Forfeit,
    /// A seeded random legal move is played for it and the game goes on.
    Random,
}

/// How to run an external agent and how strictly to judge it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The folder it runs in (absolute once registered).
    pub cwd: PathBuf,
    /// Environment variables added to arbiter's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Sent in `hello.options`, for the program to read as it likes.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub options: serde_json::Map<String, Value>,
    /// Time to answer `hello` with `ready`, in ms.
    pub startup_ms: u64,
    /// How late after the deadline a move still counts, in ms.
    pub tolerance_ms: u64,
    /// How long after the deadline (after the request, without one) a silent program is
    /// killed, in ms.
    pub hang_ms: u64,
    /// Time to answer `ping` with `pong`, in ms.
    pub ping_ms: u64,
    /// The agent's own time per move in ms (the earlier of this and the experiment's
    /// `move_time_ms` is the deadline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Forfeit or random move on a failure.
    #[serde(default)]
    pub on_failure: OnFailure,
    /// Whether a stdout line that is not a message is a failure (`bad_output`) rather than
    /// counted and logged.
    #[serde(default)]
    pub strict: bool,
    /// Startup failures in a row after which the agent plays no more games.
    pub max_startup_failures: u32,
    /// The most bytes of stderr kept per game.
    pub stderr_bytes: u64,
    /// Run in a sandbox with these limits (a fresh program each game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<sandbox::SandboxSpec>,
    /// The name of an agent hosted by this process ([`hosted`]: a Python callable) that
    /// plays instead of a program; `command` then only describes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosted: Option<String>,
}

impl ExternalSpec {
    /// `command` in `cwd` with every setting at its default.
    pub fn new(command: Vec<String>, cwd: PathBuf) -> ExternalSpec {
        ExternalSpec {
            command,
            cwd,
            env: BTreeMap::new(),
            options: serde_json::Map::new(),
            startup_ms: 10_000,
            tolerance_ms: 50,
            hang_ms: 30_000,
            ping_ms: 5_000,
            time_ms: None,
            on_failure: OnFailure::Forfeit,
            strict: false,
            max_startup_failures: 3,
            stderr_bytes: 1 << 20,
            sandbox: None,
            hosted: None,
        }
    }

    /// Hosted agent `name` (a Python callable of the process arbiter runs in) with every
    /// setting at its default: no time limit of its own, and its hang limit is the usual.
    pub fn hosted(name: &str) -> ExternalSpec {
        let mut spec = ExternalSpec::new(vec![format!("<python {name}>")], PathBuf::from("."));
        spec.hosted = Some(name.to_string());
        spec
    }

    /// The command line as one would type it.
    pub fn command_line(&self) -> String {
        self.command.join(" ")
    }

    /// Checks that the program can be started (before any game is played).
    ///
    /// # Errors
    /// As [`find_program`].
    pub fn check_program(&self) -> Result<PathBuf, String> {
        if let Some(name) = &self.hosted {
            hosted::check(name, sandbox::effective(self.sandbox.as_ref()).is_some())?;
            return Ok(PathBuf::from(&self.command[0]));
        }
        find_program(&self.command, &self.cwd, &self.env)
    }
}

/// Where `command`'s program is: a path (with a `/`, relative to `cwd`) to an executable
/// file, or a name found on `PATH` (`env`'s, else arbiter's).
///
/// # Errors
/// One line saying what is wrong: no program, not found, not executable.
pub fn find_program(
    command: &[String],
    cwd: &Path,
    env: &BTreeMap<String, String>,
) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let program = command.first().map(String::as_str).unwrap_or("");
    if program.trim().is_empty() {
        return Err("the command names no program".to_string());
    }
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        let path = cwd.join(program);
        return if executable(&path) {
            Ok(path)
        } else if path.exists() {
            Err(format!(
                "program '{program}' ({}) is not an executable file",
                path.display()
            ))
        } else {
            Err(format!(
                "program '{program}' not found (looked for {})",
                path.display()
            ))
        };
    }
    let search = env
        .get("PATH")
        .cloned()
        .or_else(|| std::env::var("PATH").ok())
        .unwrap_or_default();
    std::env::split_paths(&search)
        .map(|folder| folder.join(program))
        .find(|path| executable(path))
        .ok_or_else(|| format!("program '{program}' not found on PATH (a typo in command?)"))
}

/// A folder name for an agent's logs: its name with anything but letters, digits, `-`,
/// `_` and `.` replaced.
pub fn log_folder_name(agent: &str) -> String {
    let name: String = agent
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    name.trim_start_matches('.').to_string()
}

/// What every game of one external agent shares: its spec, its idle programs (one per
/// worker at most is ever started), and its run of startup failures.
pub struct Shared<G> {
    name: String,
    spec: ExternalSpec,
    game_name: Box<dyn Fn(&G) -> String + Send + Sync>,
    idle: Mutex<Vec<Program>>,
    startup_failures: AtomicU32,
    broken: OnceLock<String>,
}

impl<G> Drop for Shared<G> {
    fn drop(&mut self) {
        let idle = std::mem::take(self.idle.get_mut().unwrap_or_else(PoisonError::into_inner));
        // Ask them all to quit first, then wait: one grace period, not one per program.
        let mut idle = idle;
        for program in &mut idle {
            let _ = program.send(&json!({"type": "quit"}));
        }
        for mut program in idle {
            program.stop(true);
        }
    }
}

impl<G: Game> Shared<G> {
    /// The shared state of agent `name` run as `spec`; `game_name` gives the game spec
    /// sent in `hello` (e.g. `breakthrough(rules=long)`).
    pub fn new(
        name: String,
        spec: ExternalSpec,
        game_name: Box<dyn Fn(&G) -> String + Send + Sync>,
    ) -> Arc<Shared<G>> {
        Arc::new(Shared {
            name,
            spec,
            game_name,
            idle: Mutex::new(Vec::new()),
            startup_failures: AtomicU32::new(0),
            broken: OnceLock::new(),
        })
    }

    /// A fresh agent for one game, with its seed.
    pub fn agent(self: &Arc<Self>, seed: u64) -> ExternalAgent<G> {
        ExternalAgent {
            shared: Arc::clone(self),
            seed,
            program: None,
            failed: None,
            late_until: None,
            clean: false,
            history: Vec::new(),
            history_json: Vec::new(),
            hidden: false,
            game_id: 0,
            seat: Player::P1,
            legal: Vec::new(),
            legal_texts: Vec::new(),
            position_json: Vec::new(),
            pings: 0,
            clock: None,
        }
    }

    /// Why the agent plays no more games (too many startup failures in a row), if so.
    pub fn broken(&self) -> Option<&str> {
        self.broken.get().map(String::as_str)
    }

    fn take_idle(&self) -> Option<Program> {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .pop()
    }
}

/// Starts `spec`'s program and completes the handshake: `hello`, then `ready` within the
/// startup timeout. Lines before `ready` that are not messages are logged and skipped.
///
/// # Errors
/// Why it did not start, in words a student can act on.
pub fn start_program(
    spec: &ExternalSpec,
    hello: &Value,
    log: Option<PathBuf>,
) -> Result<(Program, String), String> {
    let mut program = match &spec.hosted {
        Some(name) => {
            spec.check_program()?;
            Program::host(name, log, spec.stderr_bytes)
                .map_err(|e| format!("cannot start `{}`: {e}", spec.command_line()))?
        }
        None => {
            let env: Vec<(String, String)> = spec
                .env
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            let jail = match sandbox::effective(spec.sandbox.as_ref()) {
                Some(limits) => Some(sandbox::Jail::new(&limits)?),
                None => None,
            };
            Program::spawn(&spec.command, &spec.cwd, &env, log, spec.stderr_bytes, jail).map_err(
                |e| {
                    format!(
                        "cannot start `{}` in {}: {e}",
                        spec.command_line(),
                        spec.cwd.display()
                    )
                },
            )?
        }
    };
    let startup = Duration::from_millis(spec.startup_ms);
    if let Err(e) = program.send(hello) {
        let status = program.stop(false).map(describe_status).unwrap_or_default();
        return Err(format!(
            "`{}` exited before reading `hello` ({status}; {e})",
            spec.command_line()
        ));
    }
    let until = Instant::now() + startup;
    loop {
        match program.receive(until, &|| false) {
            Received::Line(line) => match message_of(&line).ok_or(()) {
                Ok(reply) if reply["type"] == "ready" => {
                    let name = reply["name"].as_str().unwrap_or("").to_string();
                    return Ok((program, name));
                }
                Ok(reply) => {
                    let text = format!(
                        "answered `hello` with {reply} instead of {{\"type\": \"ready\", \"name\": ...}}"
                    );
                    program.note(&text);
                    program.stop(false);
                    return Err(text);
                }
                Err(()) => {
                    program.garbage_lines += 1;
                    program.note(&format!("stdout line is not a message: {}", clip(&line)));
                }
            },
            Received::Closed => {
                let status = program
                    .exit_status(Duration::from_millis(500))
                    .map_or("no exit status".to_string(), describe_status);
                program.stop(false);
                return Err(format!(
                    "`{}` exited before answering `hello` ({status}); see its stderr",
                    spec.command_line()
                ));
            }
            Received::TooLong => {
                let text = "answered `hello` with a line longer than 1 MiB".to_string();
                program.note(&text);
                program.stop(false);
                return Err(text);
            }
            Received::TimedOut | Received::Stopped => {
                program.stop(false);
                return Err(format!(
                    "no `ready` within the startup timeout ({} ms): did the program flush stdout after printing it?",
                    spec.startup_ms
                ));
            }
        }
    }
}

/// At most 200 characters of `text`, for logs and messages.
pub fn clip(text: &str) -> String {
    let mut clipped: String = text.chars().take(200).collect();
    if clipped.len() < text.len() {
        clipped.push_str("...");
    }
    clipped
}

/// An external agent playing one game; its program goes back to the shared pool when the
/// game ended cleanly, and is stopped otherwise.
pub struct ExternalAgent<G: Game> {
    shared: Arc<Shared<G>>,
    seed: u64,
    program: Option<Program>,
    /// Set once the program cannot play on in this game.
    failed: Option<FaultReason>,
    /// A late reply may still arrive until then (after a timeout).
    late_until: Option<Instant>,
    /// Whether the game ended with the program in step (it may serve another game).
    clean: bool,
    history: Vec<String>,
    /// The same moves as the inside of a JSON list, each written once (a move request
    /// carries them all).
    history_json: Vec<u8>,
    /// Whether the game hides some of a position from a player: the program is then sent
    /// its seat's observation, never the position or the moves (`game_over` tells them).
    hidden: bool,
    game_id: u64,
    seat: Player,
    legal: Vec<G::Move>,
    /// The legal moves written out, the strings kept from move to move (written anew
    /// each move into the same memory, not allocated per move).
    legal_texts: Vec<String>,
    /// The position as JSON, for an agent hosted here that takes a move request as its
    /// fields.
    position_json: Vec<u8>,
    pings: u64,
    /// The game clocks before this move, when the game has them.
    clock: Option<Clock>,
}

impl<G: Game> ExternalAgent<G> {
    fn spec(&self) -> &ExternalSpec {
        &self.shared.spec
    }

    fn note(&self, text: &str) {
        if let Some(program) = &self.program {
            program.note(text);
        }
    }

    /// Ends the program's part in this game: it is stopped and the game goes on without
    /// it (`reason` for every later move).
    /// Stops the program after a failure; returns the failure's reason, or the sandbox
    /// limit the program ran into, which is what made it fail.
    fn lose_program(&mut self, reason: FaultReason) -> FaultReason {
        let mut reason = reason;
        if let Some(mut program) = self.program.take() {
            if let Some(breach) = program.breach() {
                program.note(&format!(
                    "sandbox: the program ran into its {} limit",
                    breach.name()
                ));
                reason = breach;
            }
            program.stop(false);
        }
        self.failed = Some(reason);
        reason
    }

    /// A program in step from the pool (it answered `ping`), or a new one.
    fn program_for(&mut self, start: &G, log: Option<PathBuf>) -> Result<Program, String> {
        while let Some(mut program) = self.shared.take_idle() {
            program.set_log(log.clone());
            self.pings += 1;
            let id = self.pings;
            if program.send(&json!({"type": "ping", "id": id})).is_ok()
                && wait_for_pong(&mut program, id, self.spec().ping_ms)
            {
                return Ok(program);
            }
            program.note("no `pong` to `ping` before a new game: the program is restarted");
            program.stop(false);
        }
        let hello = json!({
            "type": "hello",
            "protocol": PROTOCOL_VERSION,
            "game": (self.shared.game_name)(start),
            "seat": self.seat.label(),
            "seed": self.seed,
            "time": {
                "move_ms": self.spec().time_ms,
                "margin_ms": self.spec().tolerance_ms,
            },
            "options": Value::Object(self.spec().options.clone()),
        });
        start_program(self.spec(), &hello, log).map(|(program, _)| program)
    }

    /// A seeded random legal move (a failure under the `random` policy), or the first.
    fn fallback(&mut self, state: &G, reason: FaultReason) -> Decision<G::Move> {
        state.legal_moves(&mut self.legal);
        let forfeit = self.spec().on_failure == OnFailure::Forfeit;
        let mv = if forfeit {
            self.legal[0]
        } else {
            let ply = self.history.len() as u64;
            let mut rng = seeds::rng(seeds::derive(self.seed, &[0x6661_756c, ply]));
            self.legal[seeds::below(&mut rng, self.legal.len())]
        };
        Decision {
            fault: Some(Fault { reason, forfeit }),
            ..Decision::just(mv)
        }
    }

    /// Waits out a reply still due from a move that timed out, so that the program's next
    /// line answers the next request; a program silent past its hang deadline is stopped.
    fn drain_late_reply(&mut self, limits: &Limits) -> bool {
        let Some(until) = self.late_until.take() else {
            return true;
        };
        let Some(program) = &mut self.program else {
            return false;
        };
        loop {
            match program.receive(until, &|| limits.stopped()) {
                Received::Line(line) => {
                    let is_move = serde_json::from_str::<Value>(&line)
                        .is_ok_and(|reply| reply["type"] == "move");
                    program.note(&format!("late reply dropped: {}", clip(&line)));
                    if is_move {
                        return true;
                    }
                }
                Received::Stopped => return false,
                Received::TooLong => {
                    program.note("late reply dropped: a line longer than 1 MiB");
                }
                Received::Closed | Received::TimedOut => {
                    self.note("silent past the hang deadline after a timeout: stopped");
                    self.lose_program(FaultReason::Stall);
                    return false;
                }
            }
        }
    }
}

fn wait_for_pong(program: &mut Program, id: u64, ping_ms: u64) -> bool {
    let until = Instant::now() + Duration::from_millis(ping_ms);
    loop {
        match program.receive(until, &|| false) {
            Received::Line(line) => {
                if let Ok(reply) = serde_json::from_str::<Value>(&line)
                    && reply["type"] == "pong"
                    && (reply["id"] == id || reply["id"].is_null())
                {
                    return true;
                }
            }
            _ => return false,
        }
    }
}

impl<G: Game> Agent<G> for ExternalAgent<G> {
    fn start_game(&mut self, start: &G, game: &GameContext<'_>) {
        self.game_id = game.id;
        self.seat = game.seat;
        self.seed = game.seed;
        self.history = crate::core::read_moves(game.opening)
            .into_iter()
            .map(|(_, mv)| mv)
            .collect();
        self.hidden = start.has_hidden();
        self.history_json.clear();
        json::push_strings(
            &mut self.history_json,
            self.history.iter().map(String::as_str),
        );
        self.failed = None;
        self.late_until = None;
        self.clean = false;
        let log = game.logs.map(|logs| {
            logs.join(log_folder_name(&self.shared.name))
                .join(format!("{}.stderr", game.id))
        });
        if self.shared.broken().is_some() {
            self.failed = Some(FaultReason::StartupFailure);
            return;
        }
        let program = match self.program.take() {
            Some(program) => Ok(program),
            None => self.program_for(start, log.clone()),
        };
        match program {
            Ok(program) => {
                self.shared.startup_failures.store(0, Ordering::Relaxed);
                self.program = Some(program);
            }
            Err(why) => {
                write_note(log.as_deref(), &why);
                self.failed = Some(FaultReason::StartupFailure);
                let failures = self.shared.startup_failures.fetch_add(1, Ordering::Relaxed) + 1;
                if failures >= self.spec().max_startup_failures {
                    let _ = self.shared.broken.set(format!(
                        "agent '{}' failed to start {failures} times in a row ({why}); its remaining games were not played",
                        self.shared.name
                    ));
                }
                return;
            }
        }
        let message = json!({
            "type": "new_game",
            "game_id": game.id,
            "seat": game.seat.label(),
            "seed": game.seed,
            "position": view_json(start, game.seat),
            "opening": if self.hidden { &[][..] } else { &self.history[..] },
            "time": {
                "move_ms": deadline_ms(game.move_time, self.spec().time_ms),
                "margin_ms": self.spec().tolerance_ms,
            },
        });
        if let Some(program) = &mut self.program
            && program.send(&message).is_err()
        {
            self.crashed();
        }
    }

    fn decide(&mut self, state: &G, limits: &Limits) -> Decision<G::Move> {
        if let Some(reason) = self.failed {
            return self.fallback(state, reason);
        }
        if !self.drain_late_reply(limits) {
            let reason = self.failed.unwrap_or(FaultReason::Stall);
            return self.fallback(state, reason);
        }
        let asked = Instant::now();
        let own = self
            .spec()
            .time_ms
            .and_then(|ms| asked.checked_add(Duration::from_millis(ms)));
        let deadline = match (own, limits.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        state.legal_moves(&mut self.legal);
        self.legal_texts.resize_with(self.legal.len(), String::new);
        for (&mv, text) in self.legal.iter().zip(&mut self.legal_texts) {
            text.clear();
            state.write_move(mv, text);
        }
        // On a CPU-time clock: the CPU this move may use, for a program the wall-clock
        // backstop would stop while the machine starves it of a core.
        let cpu_budget = self
            .clock
            .filter(|clock| clock.cpu)
            .map(|clock| clock.remaining[state.to_move()]);
        let request = MoveRequest {
            clock: self.clock.take().map(|clock| clock_json(&clock)),
            game_id: self.game_id,
            legal: &self.legal_texts,
            // A game with hidden information tells its moves through the observation only.
            moves: if self.hidden { b"" } else { &self.history_json },
            ply: self.history.len(),
            position: state,
            seat: state.to_move(),
            time_ms: deadline.map(|d| d.saturating_duration_since(asked).as_millis() as u64),
        };
        let margin = Duration::from_millis(self.spec().tolerance_ms);
        let hang = Duration::from_millis(self.spec().hang_ms);
        let (spec_strict, hang_after) = (self.spec().strict, deadline.map(|d| d + margin + hang));
        let Some(program) = &mut self.program else {
            return self.fallback(state, FaultReason::Crash);
        };
        let cpu_before = program.cpu_nanos();
        let sent = if program.hosted() {
            // Handed over as its fields: no line written here and read there.
            self.position_json.clear();
            state.write_view_json(request.seat, &mut self.position_json);
            let clock = request.clock.as_ref().map(Value::to_string);
            let fields = hosted::MoveFields {
                game_id: request.game_id,
                ply: request.ply,
                seat: request.seat.label(),
                legal: request.legal,
                history: if self.hidden { &[] } else { &self.history },
                position: &self.position_json,
                clock: clock.as_deref().map(str::as_bytes),
                time_ms: request.time_ms,
            };
            program.send_move(&fields, |line| request.write(line))
        } else {
            program.send_with(|line| request.write(line))
        };
        if sent.is_err() {
            let reason = self.crashed();
            return self.fallback(state, reason);
        }
        let until = deadline.map_or(asked + hang, |d| d + margin);
        let cpu = cpu_budget.zip(cpu_before).map(|(budget, before)| CpuWait {
            budget: budget + margin,
            before,
        });
        let mut decision =
            self.await_move(state, limits, until, asked, hang_after, spec_strict, cpu);
        // The CPU its process (tree) used between the request and the answer.
        if let (Some(before), Some(program)) = (cpu_before, &self.program) {
            decision.cpu_nanos = program
                .cpu_nanos()
                .map(|after| after.saturating_sub(before));
        }
        decision
    }

    fn observe(&mut self, mv: &str) {
        if !self.history.is_empty() {
            self.history_json.push(b',');
        }
        json::push_str(&mut self.history_json, mv);
        self.history.push(mv.to_string());
    }

    fn observes(&self) -> bool {
        true
    }

    fn see_clock(&mut self, clock: &Clock) {
        self.clock = Some(*clock);
    }

    fn end_game(&mut self, winner: Option<Player>, reason: &str) {
        let result = match winner {
            None => "draw",
            Some(w) if w == self.seat => "win",
            Some(_) => "loss",
        };
        let message = json!({
            "type": "game_over",
            "game_id": self.game_id,
            "winner": winner.map(Player::label),
            "reason": reason,
            "result": result,
            "moves": self.history,
        });
        let sent = self
            .program
            .as_mut()
            .is_some_and(|program| program.send(&message).is_ok());
        self.clean = sent && self.failed.is_none() && self.late_until.is_none();
    }

    fn time_margin(&self) -> Duration {
        Duration::from_millis(self.spec().tolerance_ms)
    }

    fn broken(&self) -> Option<String> {
        self.shared.broken().map(str::to_string)
    }
}

/// A move on a CPU-time clock: what the program may use, and its CPU time when asked.
#[derive(Clone, Copy, Debug)]
struct CpuWait {
    budget: Duration,
    before: u64,
}

/// How long a wait past the wall-clock deadline of a CPU-time move lasts before the
/// program's CPU time is looked at again.
const CPU_WAIT_SLICE: Duration = Duration::from_millis(250);

impl<G: Game> ExternalAgent<G> {
    /// Reads the program's lines until its move (or a failure) answers the request sent
    /// at `asked`. On a CPU-time clock (`cpu`), the wall-clock deadline `until` is only a
    /// backstop: past it, the wait goes on a slice at a time while the program computes
    /// (its CPU time grows) and has used less than its budget; a program that waits
    /// without computing, or has spent its budget, is out of time as on a wall clock.
    #[allow(clippy::too_many_arguments)]
    fn await_move(
        &mut self,
        state: &G,
        limits: &Limits,
        mut until: Instant,
        asked: Instant,
        hang_after: Option<Instant>,
        spec_strict: bool,
        cpu: Option<CpuWait>,
    ) -> Decision<G::Move> {
        let mut last_cpu = cpu.map(|c| c.before);
        loop {
            let Some(program) = &mut self.program else {
                return self.fallback(state, FaultReason::Crash);
            };
            match program.receive(until, &|| limits.stopped()) {
                Received::Line(line) => match read_reply(&line) {
                    Reply::Move(text, info) => {
                        return match state.parse_move(&text) {
                            Ok(mv) => decision_with_info(mv, info.as_ref()),
                            Err(e) => {
                                program.note(&format!(
                                    "illegal move at ply {}: {e}",
                                    self.history.len() + 1
                                ));
                                self.fallback(state, FaultReason::IllegalMove)
                            }
                        };
                    }
                    Reply::NotMessage => {
                        program.garbage_lines += 1;
                        program.note(&format!("stdout line is not a message: {}", clip(&line)));
                        if spec_strict {
                            let reason = self.lose_program(FaultReason::BadOutput);
                            return self.fallback(state, reason);
                        }
                    }
                    Reply::Other(what) if what == "pong" => {}
                    Reply::Other(what) => {
                        program.note(&format!("bad reply to a move request: {what}"));
                        let reason = self.lose_program(FaultReason::BadOutput);
                        return self.fallback(state, reason);
                    }
                },
                Received::Closed => {
                    let reason = self.crashed();
                    return self.fallback(state, reason);
                }
                Received::TooLong => {
                    program.note("a line longer than 1 MiB on stdout: bad output, stopped");
                    let reason = self.lose_program(FaultReason::BadOutput);
                    return self.fallback(state, reason);
                }
                Received::Stopped => {
                    // The game is abandoned; the program is out of step and is stopped.
                    self.lose_program(FaultReason::Stall);
                    state.legal_moves(&mut self.legal);
                    return Decision::just(self.legal[0]);
                }
                Received::TimedOut => {
                    if let (Some(wait), Some(last), Some(now)) =
                        (cpu, last_cpu, program.cpu_nanos())
                    {
                        let used = Duration::from_nanos(now.saturating_sub(wait.before));
                        if now > last && used < wait.budget {
                            // Starved, not slow: computing, within its CPU budget.
                            last_cpu = Some(now);
                            until = Instant::now() + CPU_WAIT_SLICE;
                            continue;
                        }
                    }
                    let late = asked.elapsed().as_millis();
                    match hang_after {
                        Some(hang_after) => {
                            program.note(&format!(
                                "no move within the deadline and its margin ({late} ms): timeout"
                            ));
                            self.late_until = Some(hang_after);
                            let reason = program.breach().unwrap_or(FaultReason::Timeout);
                            return self.fallback(state, reason);
                        }
                        None => {
                            program.note(&format!("no reply within {late} ms: stalled, stopped"));
                            let reason = self.lose_program(FaultReason::Stall);
                            return self.fallback(state, reason);
                        }
                    }
                }
            }
        }
    }

    /// The program closed its stdout or stdin: record how it ended in its log; returns
    /// the reason (`crash`, or the sandbox limit that ended it).
    fn crashed(&mut self) -> FaultReason {
        if let Some(program) = &mut self.program {
            let status = program
                .exit_status(Duration::from_millis(500))
                .map_or("it closed its output".to_string(), describe_status);
            program.note(&format!("the program ended during the game: {status}"));
        }
        self.lose_program(FaultReason::Crash)
    }
}

impl<G: Game> Drop for ExternalAgent<G> {
    fn drop(&mut self) {
        if let Some(mut program) = self.program.take() {
            // A sandboxed program lives for one game: its scratch folder goes with it.
            if self.clean && !program.sandboxed() {
                self.shared
                    .idle
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(program);
            } else {
                program.stop(true);
            }
        }
    }
}

/// What `player` may see of `state` as a JSON value (a `new_game`'s `position`).
fn view_json<G: Game>(state: &G, player: Player) -> Value {
    let mut bytes = Vec::new();
    state.write_view_json(player, &mut bytes);
    serde_json::from_slice(&bytes).unwrap_or(Value::Null)
}

fn write_note(log: Option<&Path>, text: &str) {
    if let Some(log) = log {
        if let Some(parent) = log.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Ok(mut file) = std::fs::File::options().create(true).append(true).open(log) {
            use std::io::Write;
            let _ = writeln!(file, "[arbiter] {text}");
        }
    }
}

/// Both clocks as a move request gives them (protocol 2): milliseconds left and
/// increments, and what the clocks are charged.
pub fn clock_json(clock: &Clock) -> Value {
    let ms = |d: Duration| d.as_millis() as u64;
    json!({
        "p1_ms": ms(clock.remaining[Player::P1]),
        "p2_ms": ms(clock.remaining[Player::P2]),
        "p1_increment_ms": ms(clock.increment[Player::P1]),
        "p2_increment_ms": ms(clock.increment[Player::P2]),
        "basis": if clock.cpu { "cpu" } else { "wall" },
    })
}

/// A move request's `clock` object (protocol 2) as a [`Clock`] (`None` when a field is
/// missing or not a whole number of milliseconds).
pub fn clock_from(clock: &Value) -> Option<Clock> {
    let ms = |key: &str| clock[key].as_u64().map(Duration::from_millis);
    Some(Clock {
        remaining: ByPlayer([ms("p1_ms")?, ms("p2_ms")?]),
        increment: ByPlayer([ms("p1_increment_ms")?, ms("p2_increment_ms")?]),
        cpu: clock["basis"].as_str() == Some("cpu"),
    })
}

fn deadline_ms(move_time: Option<Duration>, own_ms: Option<u64>) -> Option<u64> {
    let harness = move_time.map(|d| d.as_millis() as u64);
    match (harness, own_ms) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A decision from a reply's move and `info` (`depth`, `nodes`, `evaluated`, `score`;
/// self-reported).
fn decision_with_info<M>(mv: M, info: Option<&MoveInfo>) -> Decision<M> {
    let mut decision = Decision::just(mv);
    if let Some(info) = info {
        decision.self_reported = true;
        decision.depth = info.depth.map_or(0, |d| d.min(u64::from(u32::MAX)) as u32);
        decision.stats.expanded = info.nodes.unwrap_or(0);
        decision.stats.evaluated = info.evaluated.unwrap_or(0);
        decision.value = info.score.filter(|v| v.is_finite());
    }
    decision
}
