//! Games served by programs (docs/game-protocol.md): a rules program in any language
//! answers JSON lines about positions it gave as opaque strings, and [`ProgramGame`]
//! implements core's [`Game`] by asking it. Search, tournament and reports play it like
//! any built-in game.
//!
//! One program per thread: each thread that touches a program game starts its own copy on
//! first use and keeps it (a thread-local client), so games on different worker threads
//! never wait for each other and a request needs no lock held by another thread. Each client
//! caches what it was told (legal moves, children, status, features, values) by position,
//! so a search does not ask twice.
//!
//! A failure (the program crashed, answered garbage or nothing in time, refused a legal
//! move) is never a panic: the position asked about becomes a finished game with reason
//! `rules_failure`, the program is restarted for the next request, and every position of a
//! game in progress on that thread reads as failed too (its client's failure count moved
//! past the one the position was made under), so the game is recorded as `rules_failure`
//! and the run goes on. Start positions (ply 0) never read as failed: the next game starts
//! afresh.

use super::clip;
use super::library::{Context, InProcess, Library};
use super::program::{Program, Received, describe_status};
use crate::core::{Game, MoveError, Outcome, Player, Returns, seeds};
use serde_json::{Value, json};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

/// The version of the game protocol this arbiter speaks.
pub const GAME_PROTOCOL_VERSION: u64 = 2;

/// The bits of a `sample` request's seed: 53, so that any JSON reader holds it exactly.
const SEED_MASK: u64 = (1 << 53) - 1;

/// The reason recorded for a game whose rules program failed.
pub const RULES_FAILURE: &str = "rules_failure";

/// Positions a client remembers before it forgets them all and starts again.
const CACHE_POSITIONS: usize = 100_000;

/// Failure messages printed per game before the rest are only counted.
const SHOWN_FAILURES: u64 = 10;

/// Distinct end-of-game reasons a program may name (more read as `other`).
const MAX_REASONS: usize = 64;

/// How to run a rules program (a `[[game]]` table of an agent file).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesSpec {
    /// The program and its arguments (empty for a library).
    pub command: Vec<String>,
    /// A rules library to load instead of a program (docs/game-library.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub library: Option<PathBuf>,
    /// A game hosted by this process instead (a Python game class, [`super::hosted`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosted: Option<String>,
    /// The folder it runs in (absolute once registered).
    pub cwd: PathBuf,
    /// Environment variables added to arbiter's.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// Time to answer `hello`, in ms.
    pub startup_ms: u64,
    /// Time to answer any other request, in ms.
    pub request_ms: u64,
}

impl RulesSpec {
    /// `command` in `cwd` with every setting at its default.
    pub fn new(command: Vec<String>, cwd: PathBuf) -> RulesSpec {
        RulesSpec {
            command,
            library: None,
            hosted: None,
            cwd,
            env: BTreeMap::new(),
            startup_ms: 10_000,
            request_ms: 10_000,
        }
    }

    /// The command line as one would type it (a library's path).
    pub fn command_line(&self) -> String {
        match (&self.library, &self.hosted) {
            (Some(path), _) => format!("library {}", path.display()),
            (None, Some(name)) => format!("Python game {name}"),
            (None, None) => self.command.join(" "),
        }
    }

    /// Whether its rules answer inside arbiter's process (a library or a hosted game).
    pub fn in_process(&self) -> bool {
        self.library.is_some() || self.hosted.is_some()
    }
}

/// Where a position stands: who moves, or how the game ended.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Status {
    to_move: Player,
    /// Whether chance acts here (`"chance": true`): the legal moves are its outcomes.
    chance: bool,
    /// `Some((winner, reason))` once the game is over (`winner`: `None` for a draw).
    over: Option<(Option<Player>, &'static str)>,
    /// Each player's return once the game is over, when the program gives them.
    returns: Option<Returns>,
    /// Whether the position is inside a round of simultaneous moves (the status names the
    /// position where the round began, `"round_start"`).
    round: bool,
}

/// A rules program with its game parameters, checked by starting it once: what it said in
/// `ready` and its start position. Shared by every position of its games.
pub struct ProgramGameDef {
    /// Tells the clients of different definitions apart.
    id: u64,
    /// The name it was declared under (`[[game]] name`).
    pub name: String,
    /// The parameters given with the name, in order.
    pub params: Vec<(String, String)>,
    /// How to run it.
    pub spec: RulesSpec,
    /// The name the program gave in `ready`.
    pub title: String,
    /// The names of the numbers `features` returns (empty: it offers none).
    pub features: Vec<String>,
    /// Whether it answers `render` (a board for people).
    pub render: bool,
    /// Whether it answers `evaluate` (its own heuristic).
    pub evaluate: bool,
    /// Whether it answers `view` (a JSON form of a position for agents).
    pub view: bool,
    /// Whether chance acts in its positions (`"chance": true` in `ready`).
    pub chance: bool,
    /// Whether some of a position is hidden from a player (`"hidden": true` in `ready`):
    /// agents are then sent its `observation` only.
    pub hidden: bool,
    /// Whether it answers `sample` (a position a player cannot tell from another, for
    /// information-set searches).
    pub sample: bool,
    /// Whether a finished position's status gives each player's return (`"returns": true`
    /// in `ready`).
    pub returns: bool,
    /// Its players, 1 to 6 (`"players"` in `ready`, 2 if it says nothing).
    pub players: usize,
    /// Whether a search's questions at every node (the moves' count, a child with its
    /// status, a move's text) go through a library's typed calls instead of requests: a
    /// library that offers them, for a game without hidden information or returns.
    typed: bool,
    /// Whether `evaluate` goes through a library's typed call.
    typed_evaluate: bool,
    initial: Arc<str>,
    initial_status: Status,
    /// Failures of its programs so far (all threads), for the messages.
    failures: AtomicU64,
}

impl fmt::Debug for ProgramGameDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProgramGameDef({self})")
    }
}

impl fmt::Display for ProgramGameDef {
    /// The spec it was named by: `connect4-py(rows=6)`, or the bare name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            let params: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", params.join(","))?;
        }
        Ok(())
    }
}

/// A parameter's value as sent in `hello`: a number or boolean when it reads as one, else
/// the text.
fn param_value(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(value @ (Value::Number(_) | Value::Bool(_))) => value,
        _ => Value::String(text.to_string()),
    }
}

impl ProgramGameDef {
    /// Starts `spec`'s program for game `name` with `params`, completes the handshake and
    /// reads the start position; the program stays as this thread's client.
    ///
    /// # Errors
    /// One line saying what went wrong, naming the program and the request.
    pub fn start(
        name: &str,
        params: Vec<(String, String)>,
        spec: RulesSpec,
    ) -> Result<Arc<ProgramGameDef>, String> {
        // One definition per game, parameters and program in a process: resolving the same
        // spec again (an experiment read twice, a resume) reuses it and its clients.
        static STARTED: Mutex<Vec<Arc<ProgramGameDef>>> = Mutex::new(Vec::new());
        let mut started = STARTED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(def) = started
            .iter()
            .find(|d| d.name == name && d.params == params && d.spec == spec)
        {
            return Ok(Arc::clone(def));
        }
        let def = Self::start_new(name, params, spec)?;
        started.push(Arc::clone(&def));
        Ok(def)
    }

    fn start_new(
        name: &str,
        params: Vec<(String, String)>,
        spec: RulesSpec,
    ) -> Result<Arc<ProgramGameDef>, String> {
        static IDS: AtomicU64 = AtomicU64::new(1);
        let mut def = ProgramGameDef {
            id: IDS.fetch_add(1, Ordering::Relaxed),
            name: name.to_string(),
            params,
            spec,
            title: String::new(),
            features: Vec::new(),
            render: false,
            evaluate: false,
            view: false,
            chance: false,
            hidden: false,
            sample: false,
            returns: false,
            players: 2,
            typed: false,
            typed_evaluate: false,
            initial: Arc::from(""),
            initial_status: Status {
                to_move: Player::P1,
                chance: false,
                over: None,
                returns: None,
                round: false,
            },
            failures: AtomicU64::new(0),
        };
        let who = format!("game '{def}' (`{}`)", def.spec.command_line());
        let mut connection = Connection::start(&def).map_err(|e| format!("{who}: {e}"))?;
        let ready = connection.ready.take().unwrap_or(Value::Null);
        def.title = ready["name"].as_str().unwrap_or(&def.name).to_string();
        if let Some(players) = ready.get("players") {
            match players.as_u64() {
                Some(n @ 1..=6) => def.players = n as usize,
                _ => {
                    return Err(format!(
                        "{who}: `ready` says players = {players}; arbiter plays games of 1 to 6 players"
                    ));
                }
            }
        }
        match &ready["features"] {
            Value::Null => {}
            Value::Array(names) => {
                for name in names {
                    let Some(name) = name.as_str().filter(|n| is_feature_name(n)) else {
                        return Err(format!(
                            "{who}: `ready`: features must be names of letters, digits and '_' (got {name})"
                        ));
                    };
                    def.features.push(name.to_string());
                }
            }
            other => {
                return Err(format!(
                    "{who}: `ready`: features must be a list of names (got {other})"
                ));
            }
        }
        let flag = |key: &str| ready[key].as_bool().unwrap_or(false);
        (def.render, def.evaluate, def.view) = (flag("render"), flag("evaluate"), flag("view"));
        def.chance = flag("chance");
        (def.hidden, def.sample) = (flag("hidden"), flag("sample"));
        def.returns = flag("returns");
        if let Some(rules) = connection.in_process() {
            def.typed = rules.has_typed_calls() && !def.hidden && !def.returns;
            def.typed_evaluate = rules.has_evaluate() && def.evaluate;
        }
        if def.players > 2 && !def.features.is_empty() {
            return Err(format!(
                "{who}: `ready` names features in a game of {} players: features are two sides' numbers, for two-player games",
                def.players
            ));
        }
        let reply = connection
            .ask(&json!({"type": "initial"}), "position", def.spec.request_ms)
            .map_err(|e| format!("{who}: {e}"))?;
        let position = position_of(&reply, "initial").map_err(|e| format!("{who}: {e}"))?;
        let mut reasons = Vec::new();
        let reply = connection
            .ask(
                &json!({"type": "status", "position": &*position}),
                "status",
                def.spec.request_ms,
            )
            .map_err(|e| format!("{who}: {e}"))?;
        def.initial_status = status_of(&reply, def.players, &mut reasons)
            .map_err(|e| format!("{who}: `status` of the start position: {e}"))?;
        def.initial = position;
        let def = Arc::new(def);
        let client = Client {
            def: Arc::clone(&def),
            connection: Some(connection),
            epoch: 0,
            cache: HashMap::new(),
            reasons,
            siblings: Vec::new(),
        };
        install(client);
        Ok(def)
    }

    /// The start position of its games.
    pub fn start_position(self: &Arc<Self>) -> ProgramGame {
        ProgramGame {
            def: Arc::clone(self),
            hash: hash_of(&self.initial),
            position: Arc::clone(&self.initial),
            status: self.initial_status,
            ply: 0,
            epoch: 0,
            in_game: false,
            failed: false,
        }
    }

    /// How many of its programs' requests failed so far (all threads).
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }
}

/// Whether `name` can name a feature (it becomes part of a `linear` weight's key).
fn is_feature_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The `position` string of a reply to `request`.
fn position_of(reply: &Value, request: &str) -> Result<Arc<str>, String> {
    reply["position"].as_str().map(Arc::from).ok_or_else(|| {
        format!(
            "answered `{request}` with {} (no \"position\" string)",
            clip(&reply.to_string())
        )
    })
}

/// A status reply read: `{"to_move": "P1"}` or `{"over": true, "winner": "P2" | null,
/// "reason": "..."}` of a game of `players`; reasons are kept (interned) in `reasons`.
fn status_of(
    reply: &Value,
    players: usize,
    reasons: &mut Vec<&'static str>,
) -> Result<Status, String> {
    let chance = reply["chance"].as_bool() == Some(true) && reply["over"].as_bool() != Some(true);
    if chance {
        let (to_move, _) = read_status(reply, players)?;
        return Ok(Status {
            to_move,
            chance,
            over: None,
            returns: None,
            round: false,
        });
    }
    let (to_move, over) = parse_status(reply, players)?;
    let returns = returns_in(reply, players, over.is_some()).map_err(|e| e.to_string())?;
    let round = match &reply["round_start"] {
        Value::Null => false,
        Value::String(_) => over.is_none(),
        other => {
            return Err(format!(
                "\"round_start\" must be the position string where the round began (got {})",
                clip(&other.to_string())
            ));
        }
    };
    Ok(Status {
        to_move,
        chance,
        over: over.map(|(winner, reason)| (winner, intern(reason, reasons))),
        returns,
        round,
    })
}

/// A status's `"returns"` that are not one finite number a player.
#[derive(Debug, thiserror::Error)]
#[error("\"returns\" must be {players} finite numbers, one a player from P1's (got {given})")]
struct BadReturns {
    players: usize,
    /// What the status gave, clipped.
    given: String,
}

/// A status's `"returns"`, read where the game is `over` (`None` where it is not, or where
/// the status gives none).
///
/// # Errors
/// Returns that are not a finite number a player.
fn returns_in(reply: &Value, players: usize, over: bool) -> Result<Option<Returns>, BadReturns> {
    match &reply["returns"] {
        Value::Null => Ok(None),
        _ if !over => Ok(None),
        given => returns_of(given, players)
            .map(Some)
            .ok_or_else(|| BadReturns {
                players,
                given: clip(&given.to_string()).to_string(),
            }),
    }
}

/// A finished position's `"returns"`: a finite number a player, P1's first (`None` for
/// anything else).
fn returns_of(given: &Value, players: usize) -> Option<Returns> {
    let numbers: Option<Vec<f64>> = given.as_array().and_then(|list| {
        list.iter()
            .map(|v| v.as_f64().filter(|x| x.is_finite()))
            .collect()
    });
    let numbers = numbers.filter(|n| n.len() == players)?;
    let mut returns = Returns::zeros(players);
    for (&seat, value) in Player::seats(players).iter().zip(numbers) {
        returns[seat] = value;
    }
    Some(returns)
}

/// The seat a label names in a game of `players` (`P1` to `P6`).
fn seat_named(value: &Value, players: usize) -> Option<Player> {
    let label = value.as_str()?;
    Player::seats(players)
        .iter()
        .copied()
        .find(|seat| seat.label() == label)
}

/// The labels of a game's seats, for messages: `"P1" or "P2"`, `"P1" to "P4"`.
fn seat_labels(players: usize) -> String {
    if players == 1 {
        "\"P1\"".to_string()
    } else if players == 2 {
        "\"P1\" or \"P2\"".to_string()
    } else {
        format!("\"P1\" to \"P{players}\"")
    }
}

/// The side to move, and the winner (`None`: a draw) and reason once the game is over.
type StatusReply<'a> = (Player, Option<(Option<Player>, &'a str)>);

/// A status reply of a game of `players` read, its reason borrowed from it.
fn parse_status(reply: &Value, players: usize) -> Result<StatusReply<'_>, String> {
    let player = |value: &Value| seat_named(value, players);
    if reply["over"].as_bool() == Some(true) {
        let winner = match &reply["winner"] {
            Value::Null => None,
            value => Some(player(value).ok_or_else(|| {
                format!(
                    "winner must be {} or null (got {value})",
                    seat_labels(players)
                )
            })?),
        };
        let reason = reply["reason"].as_str().unwrap_or("over");
        let to_move = player(&reply["to_move"]).unwrap_or(Player::P1);
        return Ok((to_move, Some((winner, reason))));
    }
    let to_move = player(&reply["to_move"]).ok_or_else(|| {
        format!(
            "expected \"to_move\": {}, or \"over\": true (got {})",
            seat_labels(players),
            clip(&reply.to_string())
        )
    })?;
    Ok((to_move, None))
}

/// What is wrong with chance's probabilities in a `legal` reply.
#[derive(Debug, thiserror::Error)]
enum ChanceError {
    /// Not a list of one number a move.
    #[error(
        "answered `legal` with \"chance\": {0} (expected a list of {1} probabilities, one per move)"
    )]
    Shape(String, usize),
    /// A number below 0 or not finite.
    #[error("`legal` gave chance probabilities {0} (each must be a number from 0 to 1)")]
    Range(String),
    /// Numbers that do not sum to 1.
    #[error("`legal` gave chance probabilities that sum to {0}, not 1")]
    Sum(f64),
}

/// Chance's probabilities from a `legal` reply's `"chance"`: one number a move, none
/// negative, summing to 1.
fn chance_probabilities(given: &Value, moves: usize) -> Result<Vec<f64>, ChanceError> {
    let numbers: Option<Vec<f64>> = given
        .as_array()
        .and_then(|list| list.iter().map(Value::as_f64).collect());
    let Some(numbers) = numbers.filter(|n| n.len() == moves) else {
        return Err(ChanceError::Shape(clip(&given.to_string()), moves));
    };
    if numbers.iter().any(|p| !p.is_finite() || *p < 0.0) {
        return Err(ChanceError::Range(clip(&given.to_string())));
    }
    let total: f64 = numbers.iter().sum();
    if (total - 1.0).abs() > 1e-6 {
        return Err(ChanceError::Sum(total));
    }
    Ok(numbers)
}

/// `reason` as a `&'static str`: program reasons are few, each kept once per client
/// (beyond [`MAX_REASONS`] they read as `other`).
fn intern(reason: &str, reasons: &mut Vec<&'static str>) -> &'static str {
    if let Some(known) = reasons.iter().find(|r| **r == reason) {
        return known;
    }
    if reasons.len() >= MAX_REASONS || reason.len() > 64 {
        return "other";
    }
    let leaked: &'static str = Box::leak(reason.to_string().into_boxed_str());
    reasons.push(leaked);
    leaked
}

/// A 64-bit hash of a position string (FNV-1a, then mixed).
fn hash_of(position: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in position.as_bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    seeds::mix64(hash)
}

/// A reply line to `request` judged: `None` when it is not a JSON object (a program's
/// stray output, skipped), else the reply of type `expected` or why it is not one.
fn judge(request: &str, expected: &str, line: &str) -> Option<Result<Value, String>> {
    let reply = serde_json::from_str::<Value>(line)
        .ok()
        .filter(Value::is_object)?;
    Some(match reply["type"].as_str() {
        Some(kind) if kind == expected => Ok(reply),
        Some("error") => Err(format!(
            "`{request}` failed: {}",
            clip(reply["message"].as_str().unwrap_or("(no message)"))
        )),
        _ => Err(format!(
            "answered `{request}` with {} instead of a `{expected}` reply",
            clip(line)
        )),
    })
}

/// Whether move text `text` holds what records cannot keep in a move: `;` (it separates
/// moves) or a line break (docs/game-protocol.md).
fn unrecordable(text: &str) -> bool {
    text.bytes().any(|b| matches!(b, b';' | b'\n' | b'\r'))
}

/// The error for a move text records cannot keep, given by `request`.
fn unrecordable_message(request: &str, text: &str) -> String {
    format!(
        "`{request}` gave the move {}, which holds `;` or a line break (a move must hold neither: records separate moves by `;`, docs/game-protocol.md)",
        clip(&serde_json::to_string(text).unwrap_or_default())
    )
}

/// What a client speaks to: a running rules program, or rules inside this process (a
/// context of a rules library, a hosted game).
enum Link {
    Program(Box<Program>),
    InProcess(Box<dyn InProcess>),
}

/// One running rules program (or library context) and its handshake.
struct Connection {
    link: Link,
    /// The `ready` reply, until the definition has read it.
    ready: Option<Value>,
}

impl Connection {
    /// Starts `def`'s program and waits for `ready`.
    fn start(def: &ProgramGameDef) -> Result<Connection, String> {
        Connection::open(&def.spec, &def.name, &def.params)
    }

    /// Starts `spec`'s program for game `name` with `params` and waits for `ready`.
    fn open(
        spec: &RulesSpec,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Connection, String> {
        let link = match (&spec.library, &spec.hosted) {
            (Some(path), _) => {
                let library = Arc::new(Library::load(path).map_err(|e| e.to_string())?);
                Link::InProcess(Box::new(
                    Context::open(&library).map_err(|e| e.to_string())?,
                ))
            }
            (None, Some(name)) => {
                Link::InProcess(super::hosted::start_game(name).map_err(|e| e.to_string())?)
            }
            (None, None) => {
                let env: Vec<(String, String)> = spec
                    .env
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut program = Program::spawn(&spec.command, &spec.cwd, &env, None, 0, None)
                    .map_err(|e| {
                        format!(
                            "cannot start `{}` in {}: {e}",
                            spec.command_line(),
                            spec.cwd.display()
                        )
                    })?;
                program
                    .set_write_limit(Duration::from_millis(spec.request_ms.max(spec.startup_ms)));
                Link::Program(Box::new(program))
            }
        };
        let mut connection = Connection { link, ready: None };
        let params: serde_json::Map<String, Value> = params
            .iter()
            .map(|(k, v)| (k.clone(), param_value(v)))
            .collect();
        let hello = json!({
            "type": "hello", "protocol": GAME_PROTOCOL_VERSION, "game": name,
            "params": params,
        });
        let ready = connection.ask(&hello, "ready", spec.startup_ms)?;
        connection.ready = Some(ready);
        Ok(connection)
    }

    /// Sends `message` and returns the reply of type `expected`, waiting `timeout_ms`.
    /// Lines that are not JSON are skipped.
    fn ask(&mut self, message: &Value, expected: &str, timeout_ms: u64) -> Result<Value, String> {
        let request = message["type"].as_str().unwrap_or("?").to_string();
        let program = match &mut self.link {
            Link::Program(program) => program,
            Link::InProcess(context) => {
                let line = context
                    .request(&message.to_string())
                    .map_err(|e| e.to_string())?;
                return match judge(&request, expected, &line) {
                    Some(judged) => judged,
                    None => Err(format!(
                        "answered `{request}` with {} (not a JSON object)",
                        clip(&line)
                    )),
                };
            }
        };
        if let Err(e) = program.send(message) {
            return Err(self.unsent(&request, &e));
        }
        self.reply(&request, expected, timeout_ms)
    }

    /// The running program, if it is one (not a library).
    fn program(&mut self) -> Option<&mut Program> {
        match &mut self.link {
            Link::Program(program) => Some(program),
            Link::InProcess(_) => None,
        }
    }

    /// The rules inside this process, if they are.
    fn in_process(&mut self) -> Option<&mut dyn InProcess> {
        match &mut self.link {
            Link::InProcess(context) => Some(&mut **context),
            Link::Program(_) => None,
        }
    }

    /// Ends the program (politely: `quit` and a grace period) or closes the context.
    fn stop(self, politely: bool) {
        if let Link::Program(mut program) = self.link {
            program.stop(politely);
        }
    }

    /// Sends `messages` at once (one write: the program answers them in order without
    /// waiting for us in between) and returns their replies of type `expected`.
    /// On a failure, the error says which message's reply failed (its index) and why.
    fn ask_many(
        &mut self,
        messages: &[Value],
        expected: &str,
        timeout_ms: u64,
    ) -> Result<Vec<Value>, (usize, String)> {
        let Some(first) = messages.first() else {
            return Ok(Vec::new());
        };
        let request = first["type"].as_str().unwrap_or("?").to_string();
        if let Link::InProcess(_) = self.link {
            return messages
                .iter()
                .enumerate()
                .map(|(index, message)| {
                    self.ask(message, expected, timeout_ms)
                        .map_err(|why| (index, why))
                })
                .collect();
        }
        let mut text = String::with_capacity(messages.len() * 64);
        for (index, message) in messages.iter().enumerate() {
            if index > 0 {
                text.push('\n');
            }
            text.push_str(&message.to_string());
        }
        let sent = match &mut self.link {
            Link::Program(program) => program.send_raw(&text),
            Link::InProcess(_) => Ok(()),
        };
        if let Err(e) = sent {
            return Err((0, self.unsent(&request, &e)));
        }
        (0..messages.len())
            .map(|index| {
                self.reply(&request, expected, timeout_ms)
                    .map_err(|why| (index, why))
            })
            .collect()
    }

    /// The next reply, of type `expected`, to a `request` sent already.
    fn reply(&mut self, request: &str, expected: &str, timeout_ms: u64) -> Result<Value, String> {
        let until = Instant::now() + Duration::from_millis(timeout_ms);
        let Link::Program(program) = &mut self.link else {
            return Err(format!("`{request}`: a library answers at once"));
        };
        loop {
            match program.receive(until, &|| false) {
                Received::Line(line) => match judge(request, expected, &line) {
                    Some(judged) => return judged,
                    None => program.garbage_lines += 1,
                },
                Received::Closed => return Err(self.ended(request, "stdout closed")),
                Received::TooLong => {
                    return Err(format!(
                        "answered `{request}` with a line longer than 1 MiB"
                    ));
                }
                Received::TimedOut | Received::Stopped => {
                    return Err(format!(
                        "no reply to `{request}` within {timeout_ms} ms{}",
                        if request == "hello" {
                            ": did the program flush stdout after printing `ready`?"
                        } else {
                            ""
                        }
                    ));
                }
            }
        }
    }

    /// The message for a `request` that could not be sent: the program stopped reading
    /// (the write's deadline passed) or went away.
    fn unsent(&mut self, request: &str, error: &std::io::Error) -> String {
        if error.kind() == std::io::ErrorKind::TimedOut {
            format!("`{request}` could not be sent: {error}")
        } else {
            self.ended(request, &error.to_string())
        }
    }

    /// The message for a program that went away while asked `request`.
    fn ended(&mut self, request: &str, detail: &str) -> String {
        let Some(program) = self.program() else {
            return format!("ended while asked `{request}` ({detail})");
        };
        let status = program
            .exit_status(Duration::from_millis(300))
            .map_or(detail.to_string(), describe_status);
        let said = program
            .last_stderr_line()
            .map(|l| format!("; its stderr ends: {l}"))
            .unwrap_or_default();
        format!("exited while asked `{request}` ({status}){said}")
    }
}

/// A rules program spoken to directly, request by request, with nothing cached: what
/// `check-game` uses to see whether the program answers the same question the same way.
pub struct Session {
    connection: Connection,
    request_ms: u64,
}

impl Session {
    /// Starts `spec`'s program for game `name` with `params`; returns it with its `ready`.
    ///
    /// # Errors
    /// Why it did not start or answer `hello`.
    pub fn open(
        spec: &RulesSpec,
        name: &str,
        params: &[(String, String)],
    ) -> Result<(Session, Value), String> {
        let mut connection = Connection::open(spec, name, params)?;
        let ready = connection.ready.take().unwrap_or(Value::Null);
        Ok((
            Session {
                connection,
                request_ms: spec.request_ms,
            },
            ready,
        ))
    }

    /// Sends `message` and returns the reply of type `expected`.
    ///
    /// # Errors
    /// No reply in time, an `error` reply (its message), another reply, or an exit.
    pub fn ask(&mut self, message: &Value, expected: &str) -> Result<Value, String> {
        self.connection.ask(message, expected, self.request_ms)
    }

    /// Sends `messages` at once and returns their replies of type `expected`, in order
    /// (what a search's batched questions cost).
    ///
    /// # Errors
    /// As [`Session::ask`], for the first reply that fails.
    pub fn ask_many(&mut self, messages: &[Value], expected: &str) -> Result<Vec<Value>, String> {
        self.connection
            .ask_many(messages, expected, self.request_ms)
            .map_err(|(_, why)| why)
    }

    /// Lines on stdout so far that were not JSON objects.
    pub fn garbage_lines(&self) -> u64 {
        match &self.connection.link {
            Link::Program(program) => program.garbage_lines,
            Link::InProcess(_) => 0,
        }
    }

    /// Stops the program (`quit`, then signals).
    pub fn stop(self) {
        self.connection.stop(true);
    }
}

/// The side to move, and the winner (`None`: a draw) and reason once the game is over.
pub type ReadStatus = (Player, Option<(Option<Player>, String)>);

/// A `status` reply of a game of `players` read: the side to move, and the winner
/// (`None`: a draw) and reason once the game is over.
///
/// # Errors
/// A reply that is neither.
pub fn read_status(reply: &Value, players: usize) -> Result<ReadStatus, String> {
    if reply["chance"].as_bool() == Some(true) && reply["over"].as_bool() != Some(true) {
        // Chance acts: the side that moves after it, if the program says.
        let to_move = seat_named(&reply["to_move"], players).unwrap_or(Player::P1);
        return Ok((to_move, None));
    }
    let (to_move, over) = parse_status(reply, players)?;
    returns_in(reply, players, over.is_some()).map_err(|e| e.to_string())?;
    Ok((
        to_move,
        over.map(|(winner, reason)| (winner, reason.to_string())),
    ))
}

/// A child position as the cache keeps it.
#[derive(Clone, Debug)]
struct Child {
    position: Arc<str>,
    hash: u64,
    status: Status,
}

/// What a client knows of one position.
#[derive(Debug, Default)]
struct Entry {
    position: Option<Arc<str>>,
    legal: Option<Arc<[Box<str>]>>,
    /// Chance's probabilities of the legal moves, at a chance position.
    probabilities: Option<Arc<[f64]>>,
    children: Vec<Option<Child>>,
    features: Option<Arc<[f64]>>,
    values: [Option<f64>; Player::MAX],
    rendered: Option<Arc<Value>>,
    /// Each player's observation (games with hidden information).
    observations: [Option<Arc<str>>; Player::MAX],
}

/// A thread's program for one definition, with its cache.
struct Client {
    def: Arc<ProgramGameDef>,
    connection: Option<Connection>,
    /// Failures so far: a position made before the latest one reads as failed.
    epoch: u64,
    cache: HashMap<u64, Entry>,
    reasons: Vec<&'static str>,
    /// The children of the position whose children were last asked for together: a
    /// question about one of them (its legal moves, features, value) is asked about all
    /// that lack its answer at once, since a search asks it of each in turn.
    siblings: Vec<Child>,
}

/// A question about a position whose answer the cache keeps.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ask {
    Legal,
    Features,
    Value(Player),
}

impl Ask {
    fn message(self, position: &str) -> Value {
        match self {
            Ask::Legal => json!({"type": "legal", "position": position}),
            Ask::Features => json!({"type": "features", "position": position}),
            Ask::Value(player) => {
                json!({"type": "evaluate", "position": position, "player": player.label()})
            }
        }
    }

    fn expected(self) -> &'static str {
        match self {
            Ask::Legal => "legal",
            Ask::Features => "features",
            Ask::Value(_) => "value",
        }
    }

    fn known(self, entry: &Entry) -> bool {
        match self {
            Ask::Legal => entry.legal.is_some(),
            Ask::Features => entry.features.is_some(),
            Ask::Value(player) => entry.values[player.index()].is_some(),
        }
    }

    /// Reads `reply` into `entry`.
    ///
    /// # Errors
    /// What is wrong with the reply.
    fn store(self, entry: &mut Entry, reply: &Value, features: usize) -> Result<(), String> {
        match self {
            Ask::Legal => {
                let moves: Option<Vec<Box<str>>> = reply["moves"]
                    .as_array()
                    .and_then(|moves| moves.iter().map(|m| m.as_str().map(Box::from)).collect());
                let moves = moves.ok_or_else(|| {
                    format!(
                        "answered `legal` with {} (no \"moves\" list of strings)",
                        clip(&reply.to_string())
                    )
                })?;
                if moves.len() > usize::from(u16::MAX) {
                    return Err(format!(
                        "`legal` gave {} moves, more than {}",
                        moves.len(),
                        u16::MAX
                    ));
                }
                if moves.is_empty() {
                    return Err(
                        "`legal` gave no move in a position whose `status` says a side is to move"
                            .to_string(),
                    );
                }
                if let Some(bad) = moves.iter().find(|m| unrecordable(m)) {
                    return Err(unrecordable_message("legal", bad));
                }
                entry.probabilities = match &reply["chance"] {
                    Value::Null => None,
                    given => Some(
                        chance_probabilities(given, moves.len())
                            .map_err(|e| e.to_string())?
                            .into(),
                    ),
                };
                entry.children = vec![None; moves.len()];
                entry.legal = Some(moves.into());
            }
            Ask::Features => {
                let side = |key: &str| -> Option<Vec<f64>> {
                    let values = reply[key].as_array()?;
                    (values.len() == features)
                        .then(|| {
                            values
                                .iter()
                                .map(Value::as_f64)
                                .collect::<Option<Vec<f64>>>()
                        })
                        .flatten()
                        .filter(|v| v.iter().all(|x| x.is_finite()))
                };
                let (Some(p1), Some(p2)) = (side("P1"), side("P2")) else {
                    return Err(format!(
                        "answered `features` with {} (expected \"P1\" and \"P2\": lists of {features} numbers, one per feature named in `ready`)",
                        clip(&reply.to_string())
                    ));
                };
                entry.features = Some(p1.into_iter().chain(p2).collect::<Vec<_>>().into());
            }
            Ask::Value(player) => {
                let value = reply["value"]
                    .as_f64()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        format!(
                            "answered `evaluate` with {} (no finite \"value\")",
                            clip(&reply.to_string())
                        )
                    })?;
                entry.values[player.index()] = Some(value);
            }
        }
        Ok(())
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(connection) = self.connection.take() {
            connection.stop(true);
        }
    }
}

type SharedClient = Arc<Mutex<Client>>;

thread_local! {
    /// This thread's clients, one per definition used on it.
    static CLIENTS: RefCell<Vec<SharedClient>> = const { RefCell::new(Vec::new()) };
}

/// Every client of every thread, to stop their programs when arbiter ends.
static EVERY_CLIENT: Mutex<Vec<Weak<Mutex<Client>>>> = Mutex::new(Vec::new());

fn install(client: Client) -> SharedClient {
    let shared = Arc::new(Mutex::new(client));
    let mut every = EVERY_CLIENT.lock().unwrap_or_else(PoisonError::into_inner);
    every.retain(|c| c.strong_count() > 0);
    every.push(Arc::downgrade(&shared));
    CLIENTS.with(|clients| clients.borrow_mut().push(Arc::clone(&shared)));
    shared
}

/// Stops every rules program still running (arbiter is about to exit).
pub fn stop_rules_programs() {
    let every: Vec<SharedClient> = EVERY_CLIENT
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .filter_map(Weak::upgrade)
        .collect();
    let mut connections: Vec<Connection> = every
        .iter()
        .filter_map(|c| {
            c.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .connection
                .take()
        })
        .collect();
    // Ask them all to quit first, then wait: one grace period, not one per program.
    for program in connections.iter_mut().filter_map(Connection::program) {
        let _ = program.send(&json!({"type": "quit"}));
    }
    for connection in connections {
        connection.stop(true);
    }
}

/// Runs `work` with this thread's client for `def`, made on first use.
fn with_client<T>(def: &Arc<ProgramGameDef>, work: impl FnOnce(&mut Client) -> T) -> T {
    let shared = CLIENTS.with(|clients| {
        clients
            .borrow()
            .iter()
            .find(|c| c.lock().unwrap_or_else(PoisonError::into_inner).def.id == def.id)
            .cloned()
    });
    let shared = shared.unwrap_or_else(|| {
        install(Client {
            def: Arc::clone(def),
            connection: None,
            epoch: 0,
            cache: HashMap::new(),
            reasons: Vec::new(),
            siblings: Vec::new(),
        })
    });
    let mut client = shared.lock().unwrap_or_else(PoisonError::into_inner);
    work(&mut client)
}

/// This thread's failure count for `def` (0 before its first failure).
fn epoch_of(def: &Arc<ProgramGameDef>) -> u64 {
    CLIENTS.with(|clients| {
        clients
            .borrow()
            .iter()
            .find_map(|c| {
                let c = c.lock().unwrap_or_else(PoisonError::into_inner);
                (c.def.id == def.id).then_some(c.epoch)
            })
            .unwrap_or(0)
    })
}

impl Client {
    /// Asks the program (started if need be); on a failure the program is stopped, the
    /// failure counted and said, and `None` returned.
    fn ask(&mut self, message: Value, expected: &str, about: &str) -> Option<Value> {
        let result = match &mut self.connection {
            Some(connection) => connection.ask(&message, expected, self.def.spec.request_ms),
            None => match Connection::start(&self.def) {
                Ok(mut connection) => {
                    connection.ready = None;
                    let reply = connection.ask(&message, expected, self.def.spec.request_ms);
                    self.connection = Some(connection);
                    reply
                }
                Err(e) => Err(e),
            },
        };
        match result {
            Ok(reply) => Some(reply),
            Err(why) => {
                self.fail(&format!("{why} ({about})"));
                None
            }
        }
    }

    /// Starts the program if it is not running (a failure is said and counted, and the
    /// next request tries again).
    fn start(&mut self) {
        if self.connection.is_some() {
            return;
        }
        match Connection::start(&self.def) {
            Ok(mut connection) => {
                connection.ready = None;
                self.connection = Some(connection);
            }
            Err(why) => self.fail(&why),
        }
    }

    /// Counts and says a failure; the program is restarted on the next request.
    fn fail(&mut self, why: &str) {
        if let Some(connection) = self.connection.take() {
            connection.stop(false);
        }
        self.epoch += 1;
        self.cache.clear();
        self.siblings.clear();
        let total = self.def.failures.fetch_add(1, Ordering::Relaxed) + 1;
        if total <= SHOWN_FAILURES {
            // Never a panic on a closed output (a run stops cleanly on its own then).
            let _ = writeln!(
                std::io::stderr(),
                "warning: rules {}of game '{}' (`{}`): {why}; the game is recorded as {RULES_FAILURE}{}",
                match (&self.def.spec.library, &self.def.spec.hosted) {
                    (Some(_), _) => "library ",
                    (None, Some(_)) => "",
                    (None, None) => "program ",
                },
                self.def,
                self.def.spec.command_line(),
                if total == SHOWN_FAILURES {
                    " (further failures are not shown)"
                } else {
                    ""
                }
            );
        }
    }

    fn entry(&mut self, state: &ProgramGame) -> &mut Entry {
        self.entry_at(state.hash, &state.position)
    }

    fn entry_at(&mut self, hash: u64, position: &Arc<str>) -> &mut Entry {
        if self.cache.len() >= CACHE_POSITIONS && !self.cache.contains_key(&hash) {
            self.cache.clear();
        }
        let entry = self.cache.entry(hash).or_default();
        match &entry.position {
            Some(known) if Arc::ptr_eq(known, position) || **known == **position => {}
            Some(_) => {
                // Two positions with one hash: the newer one takes the slot.
                *entry = Entry::default();
                entry.position = Some(Arc::clone(position));
            }
            None => entry.position = Some(Arc::clone(position)),
        }
        entry
    }

    /// Makes sure the cache holds `ask`'s answer about `state`: asked about it alone, or
    /// about every sibling that lacks it when `state` is one of the last children asked
    /// for together. `None` after a failure (said and counted).
    fn fetch(&mut self, state: &ProgramGame, ask: Ask) -> Option<&mut Entry> {
        if ask.known(self.entry(state)) {
            return Some(self.entry(state));
        }
        let mut targets: Vec<(u64, Arc<str>)> = Vec::new();
        if self
            .siblings
            .iter()
            .any(|c| c.hash == state.hash && *c.position == *state.position)
        {
            let siblings = std::mem::take(&mut self.siblings);
            for child in &siblings {
                // Finished positions have no legal moves to ask for.
                let wanted = !(ask == Ask::Legal && child.status.over.is_some());
                if wanted && !ask.known(self.entry_at(child.hash, &child.position)) {
                    targets.push((child.hash, Arc::clone(&child.position)));
                }
            }
            self.siblings = siblings;
        }
        if !targets.iter().any(|(h, _)| *h == state.hash) {
            targets = vec![(state.hash, Arc::clone(&state.position))];
        }
        let messages: Vec<Value> = targets.iter().map(|(_, p)| ask.message(p)).collect();
        let about = |position: &str| format!("position '{}'", clip(position));
        let replies = match &mut self.connection {
            Some(connection) => {
                connection.ask_many(&messages, ask.expected(), self.def.spec.request_ms)
            }
            None => {
                // Not started (after a failure): one request starts it.
                let reply =
                    self.ask(messages[0].clone(), ask.expected(), &about(&state.position))?;
                targets.truncate(1);
                Ok(vec![reply])
            }
        };
        let replies = match replies {
            Ok(replies) => replies,
            Err((at, why)) => {
                let position = targets.get(at).map_or(&state.position, |(_, p)| p);
                self.fail(&format!("{why} ({})", about(position)));
                return None;
            }
        };
        let features = self.def.features.len();
        for ((hash, position), reply) in targets.iter().zip(replies) {
            let entry = self.entry_at(*hash, position);
            if let Err(why) = ask.store(entry, &reply, features) {
                self.fail(&format!("{why} ({})", about(position)));
                return None;
            }
        }
        Some(self.entry(state))
    }

    /// Why a library's typed call about `state` failed: the same question asked as a
    /// request, whose `error` reply says why (`otherwise` when the request succeeds).
    fn typed_failure(
        &mut self,
        call: &str,
        message: Value,
        expected: &str,
        otherwise: &str,
    ) -> String {
        let said = self
            .connection
            .as_mut()
            .and_then(Connection::in_process)
            .and_then(InProcess::take_error);
        if let Some(why) = said {
            return format!("`{call}` failed: {why}");
        }
        let asked = self
            .connection
            .as_mut()
            .map(|c| c.ask(&message, expected, self.def.spec.request_ms));
        match asked {
            Some(Err(why)) => format!("`{call}` failed; as a request: {why}"),
            _ => otherwise.to_string(),
        }
    }

    /// The library context of this thread, opened if need be.
    fn context(&mut self) -> Option<&mut dyn InProcess> {
        self.start();
        self.connection.as_mut()?.in_process()
    }

    /// The number of `state`'s legal moves, by the library's typed `count`.
    fn typed_count(&mut self, state: &ProgramGame) -> Option<usize> {
        let count = self.context()?.count(&state.position);
        let about = format!("position '{}'", clip(&state.position));
        match count {
            Some(n @ 1..=0xffff) => Some(n),
            Some(0) => {
                self.fail(&format!(
                    "`count` gave no move in a position whose status says a side is to move ({about})"
                ));
                None
            }
            Some(n) => {
                self.fail(&format!(
                    "`count` gave {n} moves, more than {} ({about})",
                    u16::MAX
                ));
                None
            }
            None => {
                let message = json!({"type": "legal", "position": &*state.position});
                let why = self.typed_failure(
                    "count",
                    message,
                    "legal",
                    "`count` failed (the same question as a request did not)",
                );
                self.fail(&format!("{why} ({about})"));
                None
            }
        }
    }

    /// The child of `state` after legal move `index`, by the library's typed `apply`.
    fn typed_child(&mut self, state: &ProgramGame, index: u16) -> Option<Child> {
        let players = self.def.players;
        self.start();
        let about = || format!("move #{index} of position '{}'", clip(&state.position));
        let context = self.connection.as_mut()?.in_process()?;
        let (position, status) = match context.apply(&state.position, index) {
            Some((text, status)) => (Arc::<str>::from(text), status),
            None => {
                let message = json!({"type": "legal", "position": &*state.position});
                let why = self.typed_failure(
                    "apply",
                    message,
                    "legal",
                    "`apply` failed on a move the legal moves hold",
                );
                self.fail(&format!("{why} ({})", about()));
                return None;
            }
        };
        let seat = |n: i32| {
            usize::try_from(n)
                .ok()
                .filter(|&n| n < players)
                .map(|n| Player::seats(players)[n])
        };
        let to_move = seat(status.to_move);
        let status = if status.over {
            let winner = match status.winner {
                -1 => Some(None),
                n => seat(n).map(Some),
            };
            let reason = if status.reason.is_empty() {
                "over"
            } else {
                status.reason
            };
            winner.map(|winner| Status {
                to_move: to_move.unwrap_or(Player::P1),
                chance: false,
                over: Some((winner, intern(reason, &mut self.reasons))),
                returns: None,
                round: false,
            })
        } else {
            to_move.map(|to_move| Status {
                to_move,
                chance: status.chance,
                over: None,
                returns: None,
                round: false,
            })
        };
        let Some(status) = status else {
            self.fail(&format!(
                "`apply` gave a status naming no seat of a game of {players} players ({})",
                about()
            ));
            return None;
        };
        Some(Child {
            hash: hash_of(&position),
            position,
            status,
        })
    }

    /// Calls `work` with the text of legal move `index` of `state`, by the library's typed
    /// `move_text` (`None` after a failure).
    fn typed_move_text<T>(
        &mut self,
        state: &ProgramGame,
        index: u16,
        work: impl FnOnce(&str) -> T,
    ) -> Option<T> {
        let mut bad = None;
        if let Some(text) = self.context()?.move_text(&state.position, index) {
            if !unrecordable(text) {
                return Some(work(text));
            }
            bad = Some(unrecordable_message("move_text", text));
        }
        if let Some(why) = bad {
            self.fail(&why);
            return None;
        }
        let message = json!({"type": "legal", "position": &*state.position});
        let why = self.typed_failure(
            "move_text",
            message,
            "legal",
            "`move_text` failed (the same question as a request did not)",
        );
        self.fail(&format!(
            "{why} (move #{index} of position '{}')",
            clip(&state.position)
        ));
        None
    }

    /// The library's value of `state` for `player`, by its typed `evaluate`.
    fn typed_value(&mut self, state: &ProgramGame, player: Player) -> Option<f64> {
        if let Some(value) = self.context()?.evaluate(&state.position, player.index()) {
            return Some(value);
        }
        let message = json!({"type": "evaluate", "position": &*state.position,
                             "player": player.label()});
        let why = self.typed_failure(
            "evaluate",
            message,
            "value",
            "`evaluate` failed (the same question as a request did not)",
        );
        self.fail(&format!(
            "{why} (position '{}'; a value must be finite)",
            clip(&state.position)
        ));
        None
    }

    /// The legal moves of `state`, asked once.
    fn legal(&mut self, state: &ProgramGame) -> Option<Arc<[Box<str>]>> {
        self.fetch(state, Ask::Legal)?.legal.clone()
    }

    /// Chance's probabilities of `state`'s legal moves, if the program gave them.
    fn probabilities(&mut self, state: &ProgramGame) -> Option<Arc<[f64]>> {
        self.fetch(state, Ask::Legal)?.probabilities.clone()
    }

    /// The position after legal move `index` of `state`, with its status. Once a second
    /// child of a position is wanted (a search, not a playout), every child not known yet
    /// is asked for at once: one round trip instead of one per move.
    fn child(&mut self, state: &ProgramGame, index: u16) -> Option<Child> {
        let legal = self.legal(state)?;
        let index = usize::from(index);
        let known = {
            let entry = self.entry(state);
            if let Some(Some(child)) = entry.children.get(index) {
                return Some(child.clone());
            }
            entry.children.iter().filter(|c| c.is_some()).count()
        };
        if index >= legal.len() {
            return None;
        }
        let wanted: Vec<usize> = if known == 0 {
            vec![index]
        } else {
            let entry = self.entry(state);
            (0..legal.len())
                .filter(|&i| entry.children.get(i).is_some_and(Option::is_none))
                .collect()
        };
        let messages: Vec<Value> = wanted
            .iter()
            .map(|&i| json!({"type": "apply", "position": &*state.position, "move": &*legal[i]}))
            .collect();
        let about = |i: usize| {
            format!(
                "move '{}' in position '{}'",
                clip(&legal[i]),
                clip(&state.position)
            )
        };
        let replies = match &mut self.connection {
            Some(connection) => {
                connection.ask_many(&messages, "position", self.def.spec.request_ms)
            }
            None => Err((0, String::new())),
        };
        let replies = match replies {
            Ok(replies) => replies,
            Err((_, why)) if why.is_empty() => {
                // Not started (after a failure): one request starts it.
                let reply = self.ask(messages[0].clone(), "position", &about(wanted[0]))?;
                let child = self.child_of(reply, &about(wanted[0]))?;
                if let Some(slot) = self.entry(state).children.get_mut(wanted[0]) {
                    *slot = Some(child.clone());
                }
                return (wanted[0] == index).then_some(child);
            }
            Err((at, why)) => {
                let at = about(wanted.get(at).copied().unwrap_or(wanted[0]));
                self.fail(&format!("{why} ({at})"));
                return None;
            }
        };
        let mut found = None;
        for (&i, reply) in wanted.iter().zip(replies) {
            let child = self.child_of(reply, &about(i))?;
            if i == index {
                found = Some(child.clone());
            }
            if let Some(slot) = self.entry(state).children.get_mut(i) {
                *slot = Some(child);
            }
        }
        if wanted.len() > 1 {
            self.siblings = self
                .entry(state)
                .children
                .iter()
                .flatten()
                .cloned()
                .collect();
        }
        found
    }

    /// The child an `apply` reply describes, with its status (asked for when the reply
    /// does not carry it).
    fn child_of(&mut self, reply: Value, about: &str) -> Option<Child> {
        let position = match position_of(&reply, "apply") {
            Ok(position) => position,
            Err(e) => {
                self.fail(&format!("{e} ({about})"));
                return None;
            }
        };
        // A program may give the new position's status with it, saving a request.
        let status_reply = match reply.get("status") {
            Some(status) if status.is_object() => status.clone(),
            _ => self.ask(
                json!({"type": "status", "position": &*position}),
                "status",
                &format!("position '{}'", clip(&position)),
            )?,
        };
        let status = match status_of(&status_reply, self.def.players, &mut self.reasons) {
            Ok(status) => status,
            Err(e) => {
                self.fail(&format!("`status`: {e} ({about})"));
                return None;
            }
        };
        Some(Child {
            hash: hash_of(&position),
            position,
            status,
        })
    }

    /// The program's features of `state`: both sides' numbers, P1's first.
    fn features(&mut self, state: &ProgramGame) -> Option<Arc<[f64]>> {
        self.fetch(state, Ask::Features)?.features.clone()
    }

    /// The program's own value of `state` for `player` (larger is better for `player`).
    fn value(&mut self, state: &ProgramGame, player: Player) -> Option<f64> {
        self.fetch(state, Ask::Value(player))?.values[player.index()]
    }

    /// What `player` observes of `state` (`observation`), asked once.
    fn observation(&mut self, state: &ProgramGame, player: Player) -> Option<Arc<str>> {
        if let Some(known) = &self.entry(state).observations[player.index()] {
            return Some(Arc::clone(known));
        }
        let about = format!("position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "observation", "position": &*state.position, "player": player.label()}),
            "observation",
            &about,
        )?;
        let Some(text) = reply["observation"].as_str() else {
            self.fail(&format!(
                "answered `observation` with {} (no \"observation\" string) ({about})",
                clip(&reply.to_string())
            ));
            return None;
        };
        let text: Arc<str> = Arc::from(text);
        self.entry(state).observations[player.index()] = Some(Arc::clone(&text));
        Some(text)
    }

    /// A position `player` cannot tell from `state`, drawn by the program from `seed`
    /// (`sample`); not kept, since each seed gives another.
    fn sample(&mut self, state: &ProgramGame, player: Player, seed: u64) -> Option<Child> {
        let about = format!("`sample` of position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "sample", "position": &*state.position, "player": player.label(),
                   "seed": seed & SEED_MASK}),
            "position",
            &about,
        )?;
        self.child_of(reply, &about)
    }

    /// The position where `state`'s round of simultaneous moves began: its status names it
    /// (`"round_start"`), and that position's own status is asked for.
    fn round_start(&mut self, state: &ProgramGame) -> Option<Child> {
        let about = format!("the round's start of position '{}'", clip(&state.position));
        let reply = self.ask(
            json!({"type": "status", "position": &*state.position}),
            "status",
            &about,
        )?;
        let Some(start) = reply["round_start"].as_str() else {
            self.fail(&format!(
                "its status no longer names where the round began (\"round_start\") ({about})"
            ));
            return None;
        };
        self.child_of(json!({"position": start}), &about)
    }

    /// Any other request about `state` whose whole reply is wanted (`render`, `view`),
    /// kept for `render`.
    fn reply(&mut self, state: &ProgramGame, request: &str) -> Option<Arc<Value>> {
        if request == "render"
            && let Some(rendered) = &self.entry(state).rendered
        {
            return Some(Arc::clone(rendered));
        }
        let about = format!("position '{}'", clip(&state.position));
        let reply = Arc::new(self.ask(
            json!({"type": request, "position": &*state.position}),
            request,
            &about,
        )?);
        if request == "render" {
            self.entry(state).rendered = Some(Arc::clone(&reply));
        }
        Some(reply)
    }
}

/// A position of a game served by a program: the program's opaque string, with what
/// arbiter must know without asking (who moves, whether it is over, a hash).
#[derive(Clone)]
pub struct ProgramGame {
    def: Arc<ProgramGameDef>,
    position: Arc<str>,
    hash: u64,
    status: Status,
    ply: u32,
    /// The thread's failure count when this position was made.
    epoch: u64,
    /// Whether it belongs to a game in play ([`Game::begin_game`], or a move made): a
    /// failure since `epoch` then ends it. The shared start position belongs to none.
    in_game: bool,
    /// Set when making this position failed.
    failed: bool,
}

impl fmt::Debug for ProgramGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.def, clip(&self.position))
    }
}

impl ProgramGame {
    /// The game's definition.
    pub fn def(&self) -> &Arc<ProgramGameDef> {
        &self.def
    }

    /// The program's string for this position.
    pub fn position(&self) -> &str {
        &self.position
    }

    /// Whether the program failed on the way to this position (or since, during its game).
    fn is_failed(&self) -> bool {
        self.failed || ((self.in_game || self.ply > 0) && epoch_of(&self.def) > self.epoch)
    }

    fn legal(&self) -> Option<Arc<[Box<str>]>> {
        if self.status.over.is_some() || self.is_failed() {
            return None;
        }
        with_client(&self.def, |client| client.legal(self))
    }

    /// The program's features of this position for `side` and its opponent (in the order
    /// of `def().features`); `None` when the program failed.
    pub fn features(&self, side: Player) -> Option<(Vec<f64>, Vec<f64>)> {
        let all = with_client(&self.def, |client| client.features(self))?;
        let count = self.def.features.len();
        let (p1, p2) = all.split_at(count);
        Some(match side {
            Player::P1 => (p1.to_vec(), p2.to_vec()),
            _ => (p2.to_vec(), p1.to_vec()),
        })
    }

    /// Calls `work` with both sides' features (P1's, then P2's) without copying them.
    pub fn with_features<T>(&self, work: impl FnOnce(&[f64], &[f64]) -> T) -> Option<T> {
        let all = with_client(&self.def, |client| client.features(self))?;
        let (p1, p2) = all.split_at(self.def.features.len());
        Some(work(p1, p2))
    }

    /// The program's own value of this position for `player`; `None` when it failed.
    pub fn program_value(&self, player: Player) -> Option<f64> {
        if self.def.typed_evaluate {
            return with_client(&self.def, |client| client.typed_value(self, player));
        }
        with_client(&self.def, |client| client.value(self, player))
    }

    /// How many legal moves this position has (0 once over or failed).
    fn count(&self) -> usize {
        if !self.def.typed {
            return self.legal().map_or(0, |legal| legal.len());
        }
        if self.status.over.is_some() || self.is_failed() {
            return 0;
        }
        with_client(&self.def, |client| client.typed_count(self)).unwrap_or(0)
    }

    /// The program's `render` of this position (`None`: it offers none, or failed).
    pub fn render(&self) -> Option<Arc<Value>> {
        if !self.def.render {
            return None;
        }
        with_client(&self.def, |client| client.reply(self, "render"))
    }

    /// The legal moves' texts, for a move's key.
    fn legal_text(&self, mv: u16) -> Option<Box<str>> {
        self.legal()?.get(usize::from(mv)).cloned()
    }

    fn fail(&mut self) {
        self.failed = true;
        self.status.over = Some((None, RULES_FAILURE));
    }
}

impl Game for ProgramGame {
    /// The index of the move in the position's legal list (programs give it in a fixed
    /// order).
    type Move = u16;

    const BROKEN_REASON: Option<&'static str> = Some(RULES_FAILURE);

    /// A program may declare chance (`"chance": true` in `ready`); [`Game::has_chance`]
    /// says whether this one did.
    const CHANCE: bool = true;

    fn has_chance(&self) -> bool {
        self.def.chance
    }

    #[inline]
    fn is_chance(&self) -> bool {
        self.status.chance && self.status.over.is_none() && !self.is_failed()
    }

    fn chance_outcomes(&self, out: &mut Vec<(u16, f64)>) {
        out.clear();
        let Some(legal) = self.legal() else {
            return;
        };
        match with_client(&self.def, |client| client.probabilities(self)) {
            Some(probabilities) => {
                out.extend((0..legal.len() as u16).zip(probabilities.iter().copied()))
            }
            None => {
                let p = 1.0 / legal.len().max(1) as f64;
                out.extend((0..legal.len() as u16).map(|mv| (mv, p)));
            }
        }
    }

    fn rules_failures(&self) -> u64 {
        self.def.failures()
    }

    /// A program may declare hidden information (`"hidden": true` in `ready`);
    /// [`Game::has_hidden`] says whether this one did.
    const HIDDEN: bool = true;

    fn has_hidden(&self) -> bool {
        self.def.hidden
    }

    fn has_returns(&self) -> bool {
        self.def.returns
    }

    fn players(&self) -> usize {
        self.def.players
    }

    fn returns(&self) -> Option<Returns> {
        if self.is_failed() || self.status.over.is_none() {
            return None;
        }
        self.status.returns
    }

    fn observation(&self, player: Player) -> String {
        if !self.def.hidden {
            return self.board_dump();
        }
        if self.is_failed() {
            return String::new();
        }
        with_client(&self.def, |client| client.observation(self, player))
            .map_or_else(String::new, |text| text.to_string())
    }

    fn determinize(&self, player: Player, seed: u64) -> Option<ProgramGame> {
        if !self.def.hidden || self.status.over.is_some() {
            return Some(self.clone());
        }
        if !self.def.sample || self.is_failed() {
            return None;
        }
        let child = with_client(&self.def, |client| client.sample(self, player, seed))?;
        Some(ProgramGame {
            position: child.position,
            hash: child.hash,
            status: child.status,
            ..self.clone()
        })
    }

    fn can_determinize(&self) -> bool {
        !self.def.hidden || self.def.sample
    }

    #[inline]
    fn in_round(&self) -> bool {
        self.status.round && self.status.over.is_none() && !self.is_failed()
    }

    fn round_start(&self) -> Option<ProgramGame> {
        if !self.in_round() {
            return None;
        }
        let start = with_client(&self.def, |client| client.round_start(self))?;
        Some(ProgramGame {
            position: start.position,
            hash: start.hash,
            status: start.status,
            ..self.clone()
        })
    }

    fn move_key(&self, mv: u16) -> u64 {
        if self.def.typed {
            return with_client(&self.def, |client| {
                client.typed_move_text(self, mv, hash_of)
            })
            .unwrap_or(u64::from(mv));
        }
        self.legal_text(mv)
            .map_or(u64::from(mv), |text| hash_of(&text))
    }

    fn write_view_json(&self, player: Player, out: &mut Vec<u8>) {
        if !self.def.hidden {
            self.write_position_json(out);
            return;
        }
        let view = json!({
            "to_move": self.status.to_move.label(),
            "observation": self.observation(player),
        });
        let _ = serde_json::to_writer(out, &view);
    }

    fn begin_game(&mut self) {
        // This thread's program starts now, before the first move's clock (its start-up
        // was charged to that move: 0.2 s with no node, per worker thread).
        with_client(&self.def, Client::start);
        // Failures before this game (another game's, on this thread) are not its own.
        self.epoch = epoch_of(&self.def);
        self.in_game = true;
    }

    fn to_move(&self) -> Player {
        self.status.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u16>) {
        out.clear();
        out.extend(0..self.count() as u16);
    }

    fn count_moves(&self) -> u64 {
        self.count() as u64
    }

    fn apply(&mut self, mv: u16) {
        let epoch = epoch_of(&self.def);
        let mover = self.status.to_move;
        let child = if self.is_failed() {
            None
        } else if self.def.typed {
            with_client(&self.def, |client| client.typed_child(self, mv))
        } else {
            with_client(&self.def, |client| client.child(self, mv))
        };
        self.ply += 1;
        match child {
            Some(child) => {
                self.position = child.position;
                self.hash = child.hash;
                self.status = child.status;
                // A finished position's side "to move" is the one that did not make the
                // last move (a status that says the game is over need not name it): what
                // a search or a solver scoring the end from that side's view relies on.
                if self.status.over.is_some() {
                    self.status.to_move = mover.next(self.def.players);
                }
                // A start position's child belongs to the game now being played.
                if self.ply == 1 {
                    self.epoch = epoch;
                }
            }
            None => self.fail(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.is_failed() {
            return Some(Outcome {
                winner: None,
                reason: RULES_FAILURE,
            });
        }
        self.status
            .over
            .map(|(winner, reason)| Outcome { winner, reason })
    }

    fn position_hash(&self) -> u64 {
        self.hash
    }

    fn piece_count(&self, _player: Player) -> u32 {
        0
    }

    fn write_move(&self, mv: u16, out: &mut String) {
        if self.def.typed && self.status.over.is_none() && !self.is_failed() {
            let written = with_client(&self.def, |client| {
                client.typed_move_text(self, mv, |text| out.push_str(text))
            });
            if written.is_none() {
                out.push('?');
            }
            return;
        }
        match self.legal() {
            Some(legal) if usize::from(mv) < legal.len() => out.push_str(&legal[usize::from(mv)]),
            _ => out.push('?'),
        }
    }

    fn parse_move(&self, text: &str) -> Result<u16, MoveError> {
        let error = |reason: String| MoveError {
            text: text.to_string(),
            reason,
        };
        if let Some(outcome) = self.outcome() {
            return Err(error(format!(
                "the game is over ({} won: {})",
                outcome.winner_label(),
                outcome.reason
            )));
        }
        let Some(legal) = self.legal() else {
            return Err(error(format!(
                "the rules program of {} failed (see the warning above)",
                self.def
            )));
        };
        let wanted = text.trim();
        match legal.iter().position(|m| &**m == wanted) {
            Some(index) => Ok(index as u16),
            None => {
                let shown: Vec<&str> = legal.iter().take(20).map(|m| &**m).collect();
                Err(error(format!(
                    "not a legal move here (legal: {}{})",
                    shown.join(", "),
                    if legal.len() > 20 { ", ..." } else { "" }
                )))
            }
        }
    }

    fn board_dump(&self) -> String {
        match self.render() {
            Some(rendered) => render_text(&rendered),
            None => format!("position: {}\n", self.position),
        }
    }

    fn position_json(&self) -> Value {
        let view = if self.def.view {
            with_client(&self.def, |client| client.reply(self, "view"))
                .map_or(Value::Null, |reply| reply["view"].clone())
        } else {
            Value::Null
        };
        json!({
            "to_move": self.status.to_move.label(),
            "position": &*self.position,
            "view": view,
        })
    }
}

/// A `render` reply as text: one line per row of symbols (`.` for an empty cell), with the
/// row labels in front and the column labels below when the program gives them.
pub fn render_text(rendered: &Value) -> String {
    let Some(rows) = rendered["rows"].as_array() else {
        return String::from("(no board)\n");
    };
    let labels = |key: &str| -> Vec<String> {
        rendered[key]
            .as_array()
            .map(|l| {
                l.iter()
                    .map(|v| v.as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let (row_labels, column_labels) = (labels("row_labels"), labels("column_labels"));
    let margin = row_labels.iter().map(String::len).max().unwrap_or(0);
    let mut text = String::new();
    for (index, row) in rows.iter().enumerate() {
        if margin > 0 {
            let label = row_labels.get(index).map_or("", String::as_str);
            text.push_str(&format!("{label:>margin$} "));
        }
        let cells: Vec<String> = row
            .as_array()
            .map(|cells| {
                cells
                    .iter()
                    .map(|cell| {
                        let symbol = cell_symbol(cell);
                        if symbol.is_empty() {
                            ".".to_string()
                        } else {
                            symbol
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    if !column_labels.is_empty() {
        let pad = if margin > 0 { margin + 1 } else { 0 };
        text.push_str(&" ".repeat(pad));
        text.push_str(&column_labels.join(" "));
        text.push('\n');
    }
    text
}

/// A cell's symbol: the cell itself when it is a string, or its `symbol`.
pub fn cell_symbol(cell: &Value) -> String {
    match cell {
        Value::String(symbol) => symbol.clone(),
        Value::Object(map) => map
            .get("symbol")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}
