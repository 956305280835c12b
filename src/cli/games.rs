//! `arbiter serve-game` (a game behind the game protocol) and `arbiter check-game` (a
//! compliance check of a rules program).

use super::parse_game;
use crate::external::serve_game::{Served, serve_game};
use crate::registry::{GameEntry, GameTask, dispatch, spec::Spec};
use anyhow::{Result, anyhow};
use std::path::PathBuf;

/// Arguments of `arbiter serve-game`.
#[derive(clap::Args, Debug)]
pub struct ServeGameArgs {
    /// The game, e.g. `breakthrough` or `double-card(p1=colors)`.
    game: String,
    /// A heuristic of the game answering `evaluate` requests (the program game's `program`
    /// heuristic), e.g. `offensive2(noise=0)`; without it, `evaluate` is not offered.
    #[arg(long)]
    heuristic: Option<String>,
    /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

struct ServeGameTask {
    name: String,
    heuristic: Option<Spec>,
}

impl GameTask for ServeGameTask {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let evaluator = match &self.heuristic {
            Some(spec) => Some(
                start
                    .heuristic(&spec.name, &spec.params)
                    .map_err(|e| anyhow!("--heuristic: {e}"))?,
            ),
            None => None,
        };
        let features = |state: &G, side| state.features_of(side);
        let served = Served {
            name: &self.name,
            features: (start.feature_names(), &features),
            evaluator: evaluator.as_ref(),
        };
        let stdin = std::io::stdin();
        serve_game(&start, &served, stdin.lock(), std::io::stdout().lock())?;
        Ok(())
    }
}

/// `arbiter serve-game`.
pub fn serve(args: ServeGameArgs) -> Result<()> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = parse_game(&args.game, &registry)?;
    let heuristic = args
        .heuristic
        .as_deref()
        .map(|h| h.parse::<Spec>().map_err(|e| anyhow!("--heuristic: {e}")))
        .transpose()?;
    dispatch(
        game.clone(),
        ServeGameTask {
            name: game.to_string(),
            heuristic,
        },
    )
}
