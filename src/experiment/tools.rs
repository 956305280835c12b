//! Commands of the library that are not runs: perft of a game named as the command line
//! and the Python package name it.

use super::Error;
use crate::games::perft_by_depth;
use crate::registry::{GameEntry, GameTask, dispatch, load_agents};
use std::path::Path;

struct PerftTask {
    depth: u32,
}

impl GameTask for PerftTask {
    type Output = Result<Vec<u64>, Error>;
    fn run<G: GameEntry>(self, start: G) -> Result<Vec<u64>, Error> {
        let before = start.rules_failures();
        let counts = perft_by_depth(&start, self.depth);
        let failures = start.rules_failures() - before;
        if failures > 0 {
            return Err(Error::Message(format!(
                "the game's rules program failed {failures} time{} while counting (see the warnings above): no count is given",
                if failures == 1 { "" } else { "s" }
            )));
        }
        Ok(counts)
    }
}

/// The leaves of the legal-move tree of `game` (a game spec, agents read from `agents`
/// as a run reads them) at depths 1 to `depth`.
///
/// # Errors
/// An unknown game, a bad agents folder, or a depth out of 1 to 12.
pub fn perft_counts(game: &str, depth: u32, agents: Option<&Path>) -> Result<Vec<u64>, Error> {
    let (registry, _) = load_agents(agents, None)?;
    let spec = registry.game(game).map_err(|e| {
        // A rules program's failure names the game already.
        if e.starts_with("game '") {
            Error::Message(e)
        } else {
            Error::Message(format!("game '{game}': {e}"))
        }
    })?;
    if !(1..=12).contains(&depth) {
        return Err(Error::Message(format!(
            "--depth {depth}: must be from 1 to 12"
        )));
    }
    dispatch(spec, PerftTask { depth })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::hosted::{game_names, host_game, start_game, unhost_game};
    use crate::external::library::{InProcess, InProcessError, Typed};
    use std::sync::Arc;

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

        fn request(&mut self, line: &str) -> Result<String, InProcessError> {
            let message: serde_json::Value =
                serde_json::from_str(line).map_err(|e| InProcessError::NotJson(e.to_string()))?;
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
        let counts = perft_counts("sticks-test", 5, None);
        unhost_game("sticks-test");
        assert_eq!(counts.unwrap(), [2, 4, 7, 5, 1]);
        assert!(
            calls.load(std::sync::atomic::Ordering::Relaxed) > 10,
            "typed calls made"
        );
        let error = start_game("sticks-test").err().unwrap();
        assert_eq!(error, InProcessError::NotHosted("sticks-test".to_string()));
        assert!(
            error
                .to_string()
                .contains("no game 'sticks-test' is hosted"),
            "{error}"
        );
        let error = perft_counts("sticks-test", 2, None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("sticks-test"), "{error}");
    }
}
