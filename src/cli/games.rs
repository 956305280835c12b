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

/// Arguments of `arbiter check-game`.
#[derive(clap::Args, Debug)]
pub struct CheckGameArgs {
    /// A game declared with `[[game]]` in an agent file, with its parameters
    /// (`connect-four-py(rows=5)`), or a rules program's command line (`python3 my_game.py`,
    /// run in the current folder; put a command whose arguments start with `-` after `--`).
    #[arg(required = true, num_args = 1..)]
    game: Vec<String>,
    /// Seeded random playouts from the start, every position checked.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    playouts: u64,
    /// A playout longer than this many plies fails the check (the game must end).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    max_plies: u64,
    /// The playouts' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter check-game`: exit 0 when every step passed, 1 when one failed.
pub fn check(args: CheckGameArgs) -> Result<i32> {
    use crate::external::check_game::{CheckGameOptions, check_game};
    use crate::external::rules::RulesSpec;
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let declared = match args.game.as_slice() {
        [one] => one.parse::<Spec>().ok().and_then(|spec| {
            registry
                .games
                .get(&spec.name)
                .map(|g| (spec, g.spec.clone()))
        }),
        _ => None,
    };
    let (name, params, spec) = match declared {
        Some((game, spec)) => (game.name, game.params, spec),
        None => {
            if let [one] = args.game.as_slice()
                && crate::registry::GAMES
                    .iter()
                    .any(|g| one.starts_with(g.name))
            {
                anyhow::bail!(
                    "{one} is built into arbiter; check-game checks rules programs (`arbiter serve-game {one}` serves it as one)"
                );
            }
            let command: Vec<String> = if args.game.len() == 1 {
                args.game[0]
                    .split_whitespace()
                    .map(str::to_string)
                    .collect()
            } else {
                args.game.clone()
            };
            (
                "game".to_string(),
                Vec::new(),
                RulesSpec::new(command, std::env::current_dir()?),
            )
        }
    };
    let options = CheckGameOptions {
        playouts: args.playouts,
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let verdict = check_game(&name, &params, &spec, options, &mut std::io::stdout())?;
    println!(
        "{}: {} failed, {} warnings",
        if verdict.failures == 0 {
            "passed"
        } else {
            "FAILED"
        },
        verdict.failures,
        verdict.warnings
    );
    Ok(if verdict.failures == 0 { 0 } else { 1 })
}
