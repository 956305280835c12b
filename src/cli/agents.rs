//! `arbiter serve-agent` (a built-in agent behind the protocol) and `arbiter check-agent`
//! (a compliance check of a program).

use crate::experiment::launch::parse_game;
use crate::external::ExternalSpec;
use crate::external::check::{CHECK_MOVE_MS, CheckTimes, GAME_MOVE_MS};
use anyhow::{Result, anyhow, bail};
use std::path::PathBuf;

/// Arguments of `arbiter serve-agent`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The agent: a registered name or an inline spec, e.g.
    /// `alphabeta(heuristic=offensive2,depth=3)`.
    agent: String,
    /// The game it plays, e.g. `breakthrough` or `wights`.
    #[arg(long)]
    game: String,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// Arguments of `arbiter check-agent`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// A registered external agent's name, or the program's command line (e.g.
    /// `python3 my_agent.py`, run in the current folder; put a command whose arguments
    /// start with `-` after `--`).
    #[arg(required = true, num_args = 1..)]
    agent: Vec<String>,
    /// The game to check it on.
    #[arg(long)]
    game: String,
    /// Folder of agent files [default: $ARBITER_AGENTS, else agents/ beside the experiment
    /// (its folder or the one above) together with ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
    /// Time per move in each checked position, in ms [default: the agent's `time_ms`, else
    /// 1000].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    move_ms: Option<u64>,
    /// Time per move in the two whole games against random moves, in ms [default: the
    /// agent's `time_ms`, else 200].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    game_move_ms: Option<u64>,
    /// Time to answer `hello`, in ms [default: the agent's `startup_ms`, else 10000].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    startup_ms: Option<u64>,
    /// How late after its time a move still counts, in ms [default: the agent's
    /// `tolerance_ms`, else 50]; raise it on a loaded machine.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    tolerance_ms: Option<u64>,
}

/// `arbiter serve-agent`.
pub fn serve_agent(args: ServeArgs) -> Result<()> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = parse_game(&args.game, &registry)?;
    let agent = registry.resolve(&args.agent).map_err(|e| anyhow!(e))?;
    let stdout = std::io::stdout();
    Ok(crate::experiment::serve::serve_agent(
        game,
        agent,
        crate::external::looking_stdin(),
        stdout.lock(),
        &mut std::io::stderr(),
    )?)
}

/// `arbiter check-agent`: exit 0 when every step passed, 1 when one failed.
pub fn check_agent(args: CheckArgs) -> Result<i32> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = parse_game(&args.game, &registry)?;
    let (name, mut spec) = match args.agent.as_slice() {
        [one] if registry.agents.contains_key(one.as_str()) => {
            let agent = registry.resolve(one).map_err(|e| anyhow!(e))?;
            match agent.external {
                Some(spec) => (agent.name, spec),
                None => bail!(
                    "agent '{one}' is a built-in agent; check-agent checks programs (give a registered external agent or a command line)"
                ),
            }
        }
        command => {
            let cwd = std::env::current_dir()?;
            let command: Vec<String> = if command.len() == 1 {
                command[0].split_whitespace().map(str::to_string).collect()
            } else {
                command.to_vec()
            };
            let name = command.join(" ");
            (name, ExternalSpec::new(command, cwd))
        }
    };
    if let Some(ms) = args.startup_ms {
        spec.startup_ms = ms;
    }
    if let Some(ms) = args.tolerance_ms {
        spec.tolerance_ms = ms;
    }
    let times = CheckTimes {
        position_ms: args.move_ms.or(spec.time_ms).unwrap_or(CHECK_MOVE_MS),
        game_ms: args.game_move_ms.or(spec.time_ms).unwrap_or(GAME_MOVE_MS),
        cpu: false,
    };
    let logs = std::env::temp_dir().join(format!("arbiter-check-{}", std::process::id()));
    let verdict = crate::experiment::serve::check_agent(
        game,
        &name,
        &spec,
        times,
        &logs,
        &mut std::io::stdout(),
    )?;
    let code = super::print_verdict(verdict.failures as u64, verdict.warnings as u64);
    if code == 0 {
        let _ = std::fs::remove_dir_all(&logs);
    }
    Ok(code)
}
