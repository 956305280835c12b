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
