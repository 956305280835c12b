//! `arbiter serve-game` (a game behind the game protocol) and `arbiter check-game` (a
//! compliance check of a rules program).

use crate::experiment::launch::parse_game;
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

/// `arbiter serve-game`.
pub fn serve(args: ServeGameArgs) -> Result<()> {
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = parse_game(&args.game, &registry)?;
    let heuristic = args
        .heuristic
        .as_deref()
        .map(|h| h.parse::<Spec>().map_err(|e| anyhow!("--heuristic: {e}")))
        .transpose()?;
    Ok(crate::experiment::serve::serve_game(
        game,
        heuristic,
        crate::external::looking_stdin(),
        std::io::stdout().lock(),
    )?)
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
    Ok(super::print_verdict(verdict.failures, verdict.warnings))
}

/// Arguments of `arbiter solve-game`.
#[derive(clap::Args, Debug)]
pub struct SolveGameArgs {
    /// The game, e.g. `connect-four(rows=4,columns=5)`, `breakthrough(rules=small)` or a
    /// program game such as `tic-tac-toe` (agents/games.toml).
    game: String,
    /// The moves from the start to the position to solve, in the game's notation, separated
    /// by `;` (`c2-d3;f7-e6`; Connect Four also `4453`, Othello `f5d6c3`) [default: the
    /// start].
    #[arg(long, value_name = "MOVES")]
    position: Option<String>,
    /// Also solve every legal move and print its value.
    #[arg(long)]
    moves: bool,
    /// The value alone (win, loss or draw), not the plies to the end: stops at the first
    /// win it proves instead of looking for the fastest, so it is often much quicker.
    #[arg(long)]
    no_distance: bool,
    /// The transposition table's size in MB (rounded down to a power of two of entries).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    tt_mb: u64,
    /// Give up after this many seconds (exit 4, no value).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

struct SolveGameTask {
    position: Option<String>,
    moves: bool,
    distance: bool,
    megabytes: usize,
    limits: crate::core::Limits,
    time_limit: Option<f64>,
}

/// The position after `moves` (a move list as `--position` takes it) from `start`.
fn position_after<G: GameEntry>(start: G, moves: &str) -> Result<G> {
    let mut state = start;
    let mut ply = 0;
    for (_, token) in crate::core::read_moves(moves) {
        let parts = state.split_moves(&token).unwrap_or_else(|| vec![token]);
        for text in parts {
            ply += 1;
            if let Some(outcome) = state.outcome() {
                anyhow::bail!(
                    "--position: ply {ply} ({text}): the game is already over ({}, {})",
                    outcome.winner_label(),
                    outcome.reason
                );
            }
            let mv = state
                .parse_move(&text)
                .map_err(|e| anyhow!("--position: ply {ply}: {e}"))?;
            state.apply(mv);
        }
    }
    Ok(state)
}

fn plies_text(plies: u32) -> String {
    if plies == 1 {
        "1 ply".to_string()
    } else {
        format!("{plies} plies")
    }
}

/// A value for its side: `P1 wins in 13 plies`.
fn value_line(value: crate::search::solve::Value, side: crate::core::Player) -> String {
    use crate::search::solve::Value;
    match value {
        Value::Win(Some(plies)) => {
            format!("{} (to move) wins in {}", side.label(), plies_text(plies))
        }
        Value::Loss(Some(plies)) => {
            format!("{} (to move) loses in {}", side.label(), plies_text(plies))
        }
        Value::Win(None) => format!("{} (to move) wins", side.label()),
        Value::Loss(None) => format!("{} (to move) loses", side.label()),
        Value::Draw => "draw".to_string(),
    }
}

impl GameTask for SolveGameTask {
    type Output = Result<i32>;

    fn run<G: GameEntry>(self, start: G) -> Result<i32> {
        use crate::search::solve::Solver;
        let state = match &self.position {
            Some(moves) => position_after(start, moves)?,
            None => start,
        };
        print!("{}", state.board_display());
        if let Some(outcome) = state.outcome() {
            println!(
                "the game is over: {} ({})",
                outcome.winner_label(),
                outcome.reason
            );
            return Ok(0);
        }
        let mut solver = Solver::<G>::new(self.megabytes, self.limits.clone());
        if !self.distance {
            solver = solver.value_only();
        }
        let watch = crate::records::Watch::start(solver.progress(), "positions");
        let started = std::time::Instant::now();
        let failures_before = state.rules_failures();
        let solved = solver.solve(&state);
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        let mut move_values = Vec::new();
        if self.moves && solved.is_some() {
            for &mv in &legal {
                let mut child = state.clone();
                child.apply(mv);
                // A finished child is solved at once: a loss (or draw) in 0 for its side.
                let Some(value) = solver.solve(&child) else {
                    break;
                };
                move_values.push((state.format_move(mv), value.value.before_move()));
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        drop(watch);
        let failures = state.rules_failures() - failures_before;
        if failures > 0 {
            anyhow::bail!(
                "the game's rules program failed {failures} time{} while solving (see the warnings above): no value is given",
                if failures == 1 { "" } else { "s" }
            );
        }
        let Some(solved) = solved else {
            if self.limits.stopped() {
                println!(
                    "interrupted (Ctrl-C): {} positions visited in {seconds:.1} s of search, no value",
                    solver.visited()
                );
                return Ok(130);
            }
            println!(
                "not solved within --time-limit {} s: {} positions visited in {seconds:.1} s of search",
                self.time_limit.unwrap_or(0.0),
                solver.visited()
            );
            return Ok(crate::experiment::launch::PARTIAL);
        };
        println!("value: {}", value_line(solved.value, solved.to_move));
        if let Some(best) = solved.best {
            println!("best move: {}", state.format_move(best));
        }
        if self.moves {
            if move_values.len() < legal.len() {
                println!("moves: stopped by --time-limit before every move was solved");
            }
            for (text, value) in &move_values {
                println!("  {text:<8} {value}");
            }
        }
        println!(
            "nodes: {} expanded, {} visited ({:.3e} visited/s)",
            solver.expanded(),
            solver.visited(),
            solver.visited() as f64 / seconds.max(1e-9)
        );
        println!("time: {seconds:.3} s");
        println!(
            "method: alpha-beta to the end of the game with a transposition table ({} MB, {} entries), {}",
            self.megabytes,
            solver.table_entries(),
            if self.distance {
                "wins scored by their distance to the end"
            } else {
                "every win scored alike (--no-distance)"
            }
        );
        Ok(0)
    }
}

/// `arbiter solve-game`: exit 0 with the value, 4 when `--time-limit` stopped it first.
pub fn solve_game(args: SolveGameArgs) -> Result<i32> {
    let deadline = match args.time_limit {
        Some(s) if s.is_finite() && s > 0.0 && s < 1e9 => {
            Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(s))
        }
        Some(s) => anyhow::bail!("--time-limit {s}: give a positive number of seconds"),
        None => None,
    };
    let (registry, _) = super::load_agents(args.agents.as_deref(), None)?;
    let game = parse_game(&args.game, &registry)?;
    dispatch(
        game,
        SolveGameTask {
            position: args.position,
            moves: args.moves,
            distance: !args.no_distance,
            megabytes: usize::try_from(args.tt_mb).unwrap_or(usize::MAX),
            limits: crate::core::Limits {
                deadline,
                stop: Some(crate::experiment::ctrl_c_flag()),
            },
            time_limit: args.time_limit,
        },
    )
}
