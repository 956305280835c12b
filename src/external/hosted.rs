//! Agents and games hosted by the program arbiter runs inside (the Python package's
//! callables and game classes). An agent speaks the same protocol as a program, a line in
//! and reply lines out, by a function call on the worker's thread instead of a pipe;
//! everything else (the handshake, deadlines, faults, logs, the pool of idle programs) is
//! a program's. A game answers as a rules library does ([`InProcess`]): requests and the
//! typed calls a search makes at every node.

use super::library::InProcess;
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

/// One hosted "program": the state of one protocol conversation (the host's agent object
/// for one worker).
pub trait Session: Send {
    /// Answers one protocol line (a request as a program would read it).
    fn handle(&mut self, line: &str) -> Answer;
}

/// Starts a session of a hosted agent.
pub type Starter = Arc<dyn Fn() -> Result<Box<dyn Session>, String> + Send + Sync>;

static HOSTED: Mutex<BTreeMap<String, Starter>> = Mutex::new(BTreeMap::new());

/// Makes agent `name` a hosted agent started by `starter` (replacing one of that name):
/// every registry loaded from now on lists it (see [`names`]).
pub fn host(name: &str, starter: Starter) {
    HOSTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(name.to_string(), starter);
}

/// Forgets hosted agent `name`.
pub fn unhost(name: &str) {
    HOSTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(name);
}

/// The hosted agents' names.
pub fn names() -> Vec<String> {
    HOSTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .keys()
        .cloned()
        .collect()
}

/// A new session of hosted agent `name`.
///
/// # Errors
/// No such agent (it was forgotten, or this is another process), or its host failed.
pub fn start(name: &str) -> Result<Box<dyn Session>, String> {
    let starter = HOSTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(name)
        .cloned();
    starter.ok_or_else(|| not_hosted(name))?()
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
    let hosted = HOSTED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains_key(name);
    if hosted {
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
pub type GameStarter = Arc<dyn Fn() -> Result<Box<dyn InProcess>, String> + Send + Sync>;

static HOSTED_GAMES: Mutex<BTreeMap<String, GameStarter>> = Mutex::new(BTreeMap::new());

/// Makes game `name` a hosted game whose contexts `starter` opens (replacing one of that
/// name): every registry loaded from now on lists it.
pub fn host_game(name: &str, starter: GameStarter) {
    HOSTED_GAMES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(name.to_string(), starter);
}

/// Forgets hosted game `name`.
pub fn unhost_game(name: &str) {
    HOSTED_GAMES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(name);
}

/// The hosted games' names.
pub fn game_names() -> Vec<String> {
    HOSTED_GAMES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .keys()
        .cloned()
        .collect()
}

/// A new context of hosted game `name`.
///
/// # Errors
/// No such game (it was forgotten, or this is another process), or its host failed.
pub fn start_game(name: &str) -> Result<Box<dyn InProcess>, String> {
    let starter = HOSTED_GAMES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(name)
        .cloned();
    let starter = starter.ok_or_else(|| {
        format!(
            "no game '{name}' is hosted by this process (a Python game class must be passed again to play, e.g. on a resume)"
        )
    })?;
    starter()
}

/// The thread's CPU time in nanoseconds (what a hosted agent's move costs is measured on
/// the thread that calls it).
pub fn thread_cpu_nanos() -> Option<u64> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: writes only `time`, on this stack.
    let read = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut time) == 0 };
    read.then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
}

/// The CPU time in nanoseconds of this process's children that have ended and been
/// waited for (a program's whole life: its start, its moves, its waits and its exit).
pub fn ended_children_cpu_nanos() -> Option<u64> {
    // SAFETY: an all-zero rusage is a valid value; getrusage writes only it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: one valid rusage for the duration of the call.
    let read = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) == 0 };
    let nanos = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    read.then(|| nanos(usage.ru_utime) + nanos(usage.ru_stime))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::library::Typed;

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

    /// Take one or two sticks of five; whoever takes the last wins. A position is the
    /// sticks left and the seat to move: `5:0`.
    #[derive(Default)]
    struct Sticks {
        child: String,
        calls: Arc<std::sync::atomic::AtomicU64>,
    }

    fn sticks(position: &str) -> Option<(u32, i32)> {
        let (left, seat) = position.split_once(':')?;
        Some((left.parse().ok()?, seat.parse().ok()?))
    }

    impl InProcess for Sticks {
        fn describe(&self) -> String {
            "sticks".to_string()
        }

        fn request(&mut self, line: &str) -> Result<String, String> {
            let message: serde_json::Value =
                serde_json::from_str(line).map_err(|e| e.to_string())?;
            let position = message["position"].as_str().unwrap_or("");
            let status = |position: &str| match sticks(position) {
                Some((0, seat)) => serde_json::json!({"type": "status", "over": true,
                    "winner": format!("P{}", 2 - seat), "reason": "last-stick"}),
                Some((_, seat)) => {
                    serde_json::json!({"type": "status", "to_move": format!("P{}", seat + 1)})
                }
                None => serde_json::json!({"type": "error", "message": "bad position"}),
            };
            let reply = match message["type"].as_str() {
                Some("hello") => serde_json::json!({"type": "ready", "protocol": 2, "players": 2}),
                Some("initial") => serde_json::json!({"type": "position", "position": "5:0"}),
                Some("status") => status(position),
                Some("legal") => {
                    let n = self.count(position).unwrap_or(0);
                    serde_json::json!({"type": "legal", "moves": (1..=n).map(|k| k.to_string()).collect::<Vec<_>>()})
                }
                _ => serde_json::json!({"type": "error", "message": "not asked in this test"}),
            };
            Ok(reply.to_string())
        }

        fn has_typed_calls(&self) -> bool {
            true
        }

        fn has_evaluate(&self) -> bool {
            false
        }

        fn count(&mut self, position: &str) -> Option<usize> {
            self.calls
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let (left, _) = sticks(position)?;
            Some(left.min(2) as usize)
        }

        fn apply(&mut self, position: &str, index: u16) -> Option<(&str, Typed<'_>)> {
            self.calls
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let (left, seat) = sticks(position)?;
            let left = left.checked_sub(u32::from(index) + 1)?;
            self.child = format!("{left}:{}", 1 - seat);
            let typed = Typed {
                to_move: 1 - seat,
                over: left == 0,
                winner: seat,
                chance: false,
                reason: "last-stick",
            };
            Some((&self.child, typed))
        }

        fn move_text(&mut self, _position: &str, index: u16) -> Option<&str> {
            ["1", "2"].get(usize::from(index)).copied()
        }

        fn evaluate(&mut self, _position: &str, _player: usize) -> Option<f64> {
            None
        }
    }

    #[test]
    fn a_hosted_game_plays_by_its_typed_calls_until_forgotten() {
        let calls = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let counted = Arc::clone(&calls);
        host_game(
            "sticks-test",
            Arc::new(move || {
                Ok(Box::new(Sticks {
                    calls: Arc::clone(&counted),
                    ..Sticks::default()
                }) as Box<dyn InProcess>)
            }),
        );
        assert!(game_names().contains(&"sticks-test".to_string()));
        // From 5: 5 -> {4, 3} -> {3, 2, 2, 1} -> {2, 1, 1, 0, 1, 0, 0} -> ...
        let counts = crate::experiment::tools::perft_counts("sticks-test", 5, None);
        unhost_game("sticks-test");
        assert_eq!(counts.unwrap(), [2, 4, 7, 5, 1]);
        assert!(
            calls.load(std::sync::atomic::Ordering::Relaxed) > 10,
            "typed calls made"
        );
        let error = start_game("sticks-test").err().unwrap();
        assert!(error.contains("no game 'sticks-test' is hosted"), "{error}");
        let error = crate::experiment::tools::perft_counts("sticks-test", 2, None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("sticks-test"), "{error}");
    }
}
