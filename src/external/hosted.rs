//! Agents and games hosted by the program arbiter runs inside (the Python package's
//! callables and game classes). An agent speaks the same protocol as a program, a line in
//! and reply lines out, by a function call on the worker's thread instead of a pipe;
//! everything else (the handshake, deadlines, faults, logs, the pool of idle programs) is
//! a program's. A game answers as a rules library does ([`InProcess`]): requests and the
//! typed calls a search makes at every node.

use super::library::{InProcess, InProcessError};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};

/// What a hosted agent answered to one line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Reply lines, as a program would print them.
    pub replies: Vec<String>,
    /// What it wrote to its log meanwhile (a program's stderr).
    pub log: String,
    /// Why it cannot go on, if it failed (as a program that crashed: the game is lost
    /// by `crash`, and the next game starts a new session).
    pub failure: Option<String>,
}

/// A `move` request's fields, as its line would give them (docs/protocol.md).
#[derive(Clone, Copy, Debug)]
pub struct MoveFields<'a> {
    /// The game's id.
    pub game_id: u64,
    /// Moves played so far.
    pub ply: usize,
    /// The seat to move (`P1`).
    pub seat: &'a str,
    /// The legal moves, in the game's notation.
    pub legal: &'a [String],
    /// The moves so far (none in a game with hidden information).
    pub history: &'a [String],
    /// The position as the seat sees it, as JSON.
    pub position: &'a [u8],
    /// The game clocks, as JSON, on a game clock.
    pub clock: Option<&'a [u8]>,
    /// Time for this move, in ms.
    pub time_ms: Option<u64>,
}

/// One hosted "program": the state of one protocol conversation (the host's agent object
/// for one worker).
pub trait Session: Send {
    /// Answers one protocol line (a request as a program would read it).
    fn handle(&mut self, line: &str) -> Answer;

    /// Answers a `move` request given as its fields, without writing and reading its
    /// line; `None` for a session that takes lines only (the line is sent instead).
    fn handle_move(&mut self, _fields: &MoveFields<'_>) -> Option<Answer> {
        None
    }
}

/// Starts a session of a hosted agent.
pub type Starter = Arc<dyn Fn() -> Result<Box<dyn Session>, String> + Send + Sync>;

/// Starters by name, agents' or games'.
struct Hosts<S>(Mutex<BTreeMap<String, S>>);

impl<S: Clone> Hosts<S> {
    const fn new() -> Hosts<S> {
        Hosts(Mutex::new(BTreeMap::new()))
    }

    fn map(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, S>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn names(&self) -> Vec<String> {
        self.map().keys().cloned().collect()
    }

    fn get(&self, name: &str) -> Option<S> {
        self.map().get(name).cloned()
    }
}

static HOSTED: Hosts<Starter> = Hosts::new();

/// Makes agent `name` a hosted agent started by `starter` (replacing one of that name):
/// every registry loaded from now on lists it (see [`names`]).
pub fn host(name: &str, starter: Starter) {
    HOSTED.map().insert(name.to_string(), starter);
}

/// Forgets hosted agent `name`.
pub fn unhost(name: &str) {
    HOSTED.map().remove(name);
}

/// The hosted agents' names.
pub fn names() -> Vec<String> {
    HOSTED.names()
}

/// A new session of hosted agent `name`.
///
/// # Errors
/// No such agent (it was forgotten, or this is another process), or its host failed.
pub fn start(name: &str) -> Result<Box<dyn Session>, String> {
    HOSTED.get(name).ok_or_else(|| not_hosted(name))?()
}

/// Checks, before any game, that hosted agent `name` can play: it is hosted now, and not
/// asked to run in a sandbox (it is this process).
///
/// # Errors
/// Either, in one line saying what to do.
pub fn check(name: &str, sandboxed: bool) -> Result<(), String> {
    if sandboxed {
        return Err(format!(
            "agent '{name}' is a Python callable: it plays inside this process and cannot be sandboxed (run it as a program for --sandbox)"
        ));
    }
    if HOSTED.get(name).is_some() {
        Ok(())
    } else {
        Err(not_hosted(name))
    }
}

fn not_hosted(name: &str) -> String {
    format!(
        "no agent '{name}' is hosted by this process (a Python callable must be passed again to play, e.g. on a resume)"
    )
}

/// Starts one context of a hosted game (each worker thread's client opens its own).
pub type GameStarter = Arc<dyn Fn() -> Result<Box<dyn InProcess>, InProcessError> + Send + Sync>;

static HOSTED_GAMES: Hosts<GameStarter> = Hosts::new();

/// Makes game `name` a hosted game whose contexts `starter` opens (replacing one of that
/// name): every registry loaded from now on lists it.
pub fn host_game(name: &str, starter: GameStarter) {
    HOSTED_GAMES.map().insert(name.to_string(), starter);
}

/// Forgets hosted game `name`.
pub fn unhost_game(name: &str) {
    HOSTED_GAMES.map().remove(name);
}

/// The hosted games' names.
pub fn game_names() -> Vec<String> {
    HOSTED_GAMES.names()
}

/// A new context of hosted game `name`.
///
/// # Errors
/// No such game (it was forgotten, or this is another process), or its host failed.
pub fn start_game(name: &str) -> Result<Box<dyn InProcess>, InProcessError> {
    let starter = HOSTED_GAMES
        .get(name)
        .ok_or_else(|| InProcessError::NotHosted(name.to_string()))?;
    starter()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Echoes every line's `type` back, and fails on "die".
    struct Echo;

    impl Session for Echo {
        fn handle(&mut self, line: &str) -> Answer {
            Answer {
                replies: vec![line.to_uppercase()],
                log: format!("saw {line}\n"),
                failure: (line == "die").then(|| "asked to".to_string()),
            }
        }
    }

    #[test]
    fn hosted_agents_start_sessions_until_forgotten() {
        host(
            "echo-test",
            Arc::new(|| Ok(Box::new(Echo) as Box<dyn Session>)),
        );
        assert_eq!(check("echo-test", false), Ok(()));
        assert!(
            check("echo-test", true)
                .unwrap_err()
                .contains("cannot be sandboxed")
        );
        assert!(names().contains(&"echo-test".to_string()));
        let mut session = start("echo-test").unwrap();
        let answer = session.handle("ping");
        assert_eq!(answer.replies, ["PING"]);
        assert_eq!(answer.log, "saw ping\n");
        assert_eq!(answer.failure, None);
        assert_eq!(session.handle("die").failure.as_deref(), Some("asked to"));
        unhost("echo-test");
        let error = start("echo-test").err().unwrap();
        assert!(error.contains("no agent 'echo-test' is hosted"), "{error}");
        assert_eq!(check("echo-test", false), Err(error));
    }
}
