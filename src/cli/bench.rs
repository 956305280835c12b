//! `arbiter bench`: its options, and its lines printed as they are measured.

use std::path::PathBuf;

/// Arguments of `arbiter bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// The game to measure.
    #[arg(long, default_value = "breakthrough")]
    game: String,
    /// Perft depth (bulk-counted last ply).
    #[arg(long, default_value_t = 6)]
    perft_depth: u32,
    /// Alpha-beta depth.
    #[arg(long, default_value_t = 4)]
    depth: u32,
    /// Positions searched per heuristic (random 10-40 ply playouts, seeded).
    #[arg(long, default_value_t = 40)]
    positions: usize,
    /// Random-vs-random games played through the scheduler with CSV output.
    #[arg(long, default_value_t = 20_000)]
    games: u64,
    /// Threads for the scheduler part, and for the kernel comparison's scheduler figure on
    /// all threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// A folder of Flow Free puzzles solved one by one with the `sat` solver (slowest and
    /// total time); skipped when the folder does not exist.
    #[arg(long, default_value = "matchups/puzzles/flow/public")]
    flow: PathBuf,
    /// Games of an external random agent (through `serve-agent`, and the Python example
    /// when python3 and clients/ are there) against an in-process one, on one thread: the
    /// protocol's cost per move. 0 skips it.
    #[arg(long, default_value_t = 200)]
    external_games: u64,
    /// Requests sent to each rules program (the game protocol: `arbiter serve-game` for the
    /// game, and the Python tic-tac-toe and Connect Four examples when python3 and clients/
    /// are there) in random playouts, one thread: the protocol's cost per request. 0 skips
    /// it.
    #[arg(long, default_value_t = 20_000)]
    rules_requests: u64,
    /// A rules library of the same game (docs/game-library.md; for connect-four, the one
    /// `clients/rust/connect-four-rules` builds): alpha-beta through it against the built-in
    /// game, beside the same through `serve-game`. Its `evaluate` must be the game's first
    /// heuristic at its defaults for the node counts to match.
    #[arg(long, value_name = "FILE")]
    rules_library: Option<PathBuf>,
    /// Folder of agent files, where games served by programs are declared [default:
    /// $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
    /// Connect Four only: positions from seeded random games (`--solve-plies` into them)
    /// solved exactly by `solve-game`'s solver and by a dedicated Connect Four solver in
    /// turn, values and distances compared, the time as a ratio. 0 skips it.
    #[arg(long, default_value_t = 12)]
    solve_positions: usize,
    /// The plies into their games of the positions `--solve-positions` solves, `MIN-MAX`
    /// (fewer plies take longer: `0-0` is the 6x7 start, about 2.5 minutes for
    /// `solve-game`'s solver on one core).
    #[arg(long, default_value = "8-16", value_name = "MIN-MAX", value_parser = parse_plies)]
    solve_plies: (usize, usize),
    /// Rounds of the comparisons with a bare kernel or a dedicated solver: each figure
    /// is measured this many times, arbiter's and the other's in turn, and shown as
    /// median, min and max.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    rounds: u32,
    /// Also write the comparison with the bare kernel as JSON to this file (`-`: standard
    /// output), to compare figures across commits.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
}

/// `8-16`: the fewest and most plies, the fewest first.
fn parse_plies(text: &str) -> Result<(usize, usize), crate::registry::InputError> {
    super::min_max(text, "plies")
}

/// `arbiter bench`.
pub fn bench(args: BenchArgs) -> anyhow::Result<()> {
    let request = crate::experiment::bench::BenchRequest {
        game: args.game,
        perft_depth: args.perft_depth,
        depth: args.depth,
        positions: args.positions,
        games: args.games,
        threads: args.threads,
        flow: args.flow,
        external_games: args.external_games,
        rules_requests: args.rules_requests,
        agents: args.agents,
        rules_library: args.rules_library,
        solve_positions: args.solve_positions,
        solve_plies: args.solve_plies,
        rounds: args.rounds,
        json: args.json,
    };
    crate::experiment::bench::bench(request, &mut |line| println!("{line}"))?;
    Ok(())
}
