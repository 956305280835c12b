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
//!
//! Here: a game's definition ([`ProgramGameDef`]) and its positions as a [`Game`]
//! ([`ProgramGame`]); `connection` speaks to the rules (a program or rules inside the
//! process), `client` is each thread's cache and its typed calls, `replies` reads what the
//! rules answered.

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

mod client;
mod connection;
mod replies;

pub use client::stop_rules_programs;
use client::*;
pub use connection::Session;
use connection::*;
use replies::*;
pub use replies::{ReadStatus, read_status};

/// The version of the game protocol this arbiter speaks.
pub const GAME_PROTOCOL_VERSION: u64 = 2;

/// The bits of a `sample` request's seed: 53, so that any JSON reader holds it exactly.
const SEED_MASK: u64 = (1 << 53) - 1;

/// The reason recorded for a game whose rules program failed.
pub const RULES_FAILURE: &str = "rules_failure";

/// Positions a client remembers at most, in two generations of half as many: a position
/// of a long game with its legal moves takes a few KB (chess through OpenSpiel about 5 KB).
#[cfg(not(test))]
const CACHE_POSITIONS: usize = 40_000;
/// Small in unit tests, so that searches of a program game turn the generations over.
#[cfg(test)]
const CACHE_POSITIONS: usize = 8;

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
            older: HashMap::new(),
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

/// A `render` reply as text: the board's own text when the program prints it so (`text`),
/// else one line per row of symbols (`.` for an empty cell), with the row labels in front
/// and the column labels below when the program gives them.
pub fn render_text(rendered: &Value) -> String {
    if let Some(text) = rendered["text"].as_str() {
        let mut text = text.trim_end_matches('\n').to_string();
        text.push('\n');
        return text;
    }
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

#[cfg(test)]
mod tests {
    use super::render_text;
    use serde_json::json;

    #[test]
    fn a_board_renders_as_its_rows_or_as_the_text_the_game_prints() {
        let grid = json!({"rows": [["X", "", "O"], ["", {"symbol": "X"}, ""]],
                          "row_labels": ["2", "1"], "column_labels": ["a", "b", "c"]});
        assert_eq!(render_text(&grid), "2 X . O\n1 . X .\n  a b c\n");
        // Text as printed, one end of line at the end however many it had.
        let text = json!({"text": "Pool: Book 3, Hat 1\nP1 offers: Book 1\n\n"});
        assert_eq!(
            render_text(&text),
            "Pool: Book 3, Hat 1\nP1 offers: Book 1\n"
        );
        assert_eq!(render_text(&json!({"text": "7 stones"})), "7 stones\n");
        assert_eq!(render_text(&json!({})), "(no board)\n");
    }
}
