//! `arbiter serve-game` (a game behind the game protocol) and `arbiter check-game` (a
//! compliance check of a rules program).

use crate::experiment::launch::parse_game;
use crate::registry::spec::Spec;
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
    /// The position in the game's own text, for games that read one (Othello: the 64
    /// squares a1 to h8 row by row, `X` black, `O` white, `-` empty, then the side to move:
    /// `O--OOOOX-OOOOOOX...-------- X`, as the FFO test positions are written); `--position`
    /// then plays its moves from there.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    board: Option<String>,
    /// Also solve every legal move and print its value.
    #[arg(long)]
    moves: bool,
    /// The value alone (win, loss or draw), not the plies to the end: stops at the first
    /// win it proves instead of looking for the fastest, so it is often much quicker.
    #[arg(long)]
    no_distance: bool,
    /// The exact final margin instead of the distance, for games that score one (Othello:
    /// the disc difference, the empty squares to the winner, as the FFO test positions are
    /// scored).
    #[arg(long, conflicts_with = "no_distance")]
    margin: bool,
    /// The most the transposition table may take, in MB (rounded down to a power of two
    /// of entries): it starts at about a megabyte and doubles whenever half full.
    #[arg(long, default_value_t = crate::experiment::solve_game::DEFAULT_TT_MB, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    tt_mb: u64,
    /// Give up after this many seconds (exit 4, no value).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter solve-game`: exit 0 with the value, 4 when `--time-limit` stopped it first.
pub fn solve_game(args: SolveGameArgs) -> Result<i32> {
    use crate::experiment::solve_game::{Scoring, SolveEnd, SolveGameRequest, solve_game};
    let megabytes = usize::try_from(args.tt_mb).unwrap_or(usize::MAX);
    let request = SolveGameRequest {
        game: args.game,
        board: args.board,
        position: args.position,
        moves: args.moves,
        scoring: if args.margin {
            Scoring::Margin
        } else if args.no_distance {
            Scoring::ValueOnly
        } else {
            Scoring::Distance
        },
        megabytes,
        time_limit: args.time_limit,
        agents: args.agents,
    };
    let (moves, scoring) = (request.moves, request.scoring);
    let end = solve_game(request, &mut |board| print!("{board}"))?;
    let proof = match end {
        SolveEnd::Over(result) => {
            println!("the game is over: {result}");
            return Ok(0);
        }
        SolveEnd::Interrupted(effort) => {
            println!(
                "interrupted (Ctrl-C): {} positions visited in {:.1} s of search, no value",
                effort.visited, effort.seconds
            );
            return Ok(130);
        }
        SolveEnd::TimedOut(effort) => {
            println!(
                "not solved within --time-limit {} s: {} positions visited in {:.1} s of search",
                args.time_limit.unwrap_or(0.0),
                effort.visited,
                effort.seconds
            );
            return Ok(crate::experiment::launch::PARTIAL);
        }
        SolveEnd::Solved(proof) => proof,
    };
    println!("value: {}", proof.value);
    if let Some(best) = &proof.best {
        println!("best move: {best}");
    }
    if moves {
        if !proof.every_move {
            println!("moves: stopped by --time-limit before every move was solved");
        }
        for (text, value) in &proof.move_values {
            println!("  {text:<8} {value}");
        }
    }
    let effort = &proof.effort;
    println!(
        "nodes: {} expanded, {} visited ({:.3e} visited/s)",
        effort.expanded,
        effort.visited,
        effort.visited as f64 / effort.seconds.max(1e-9)
    );
    println!("time: {:.3} s", effort.seconds);
    println!(
        "method: alpha-beta to the end of the game with a transposition table (grown to {} entries, at most {megabytes} MB), {}",
        proof.table_entries,
        match scoring {
            Scoring::Distance => "wins scored by their distance to the end",
            Scoring::ValueOnly => "every win scored alike (--no-distance)",
            Scoring::Margin =>
                "finished positions scored by their margin (--margin), small endgames by the game's own search where it has one",
        }
    );
    Ok(0)
}

/// Arguments of `arbiter grade`.
#[derive(clap::Args, Debug)]
pub struct GradeArgs {
    /// The results folder of a run (its games.csv), or a folder of runs: the newest.
    results_dir: PathBuf,
    /// The most positions the solver may visit for one position; a move whose position
    /// before or after needs more is not graded (raise it for longer games, or grade the
    /// ends of games only by keeping it low).
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    visits: u64,
    /// The most a game's transposition table may take, in MB (each game graded gets its
    /// own, kept from position to position of that game, so the grades do not depend on
    /// the number of threads).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    tt_mb: u64,
    /// Measure each position's plies to the end under perfect play too (more work for the
    /// solver), to see whether a winning agent wins the fastest way: grades.csv gets them,
    /// the table each agent's moves from won positions that kept the fastest win.
    #[arg(long)]
    distances: bool,
    /// Threads grading games at once [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// Folder of agent files, where program games are declared [default: $ARBITER_AGENTS,
    /// else ./agents].
    #[arg(long)]
    agents: Option<PathBuf>,
}

/// `arbiter grade`: the per-agent table, then where the moves went.
pub fn grade(args: GradeArgs) -> Result<()> {
    use crate::experiment::grade::{GradeRequest, grade};
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let request = GradeRequest {
        folder: args.results_dir,
        settings: crate::registry::GradeSettings {
            visits: args.visits,
            megabytes: usize::try_from(args.tt_mb).unwrap_or(usize::MAX),
            distances: args.distances,
        },
        threads,
        agents: args.agents,
        graded: Default::default(),
    };
    let grades = {
        let _watch = crate::records::Watch::start(request.graded.clone(), "games graded");
        grade(&request)?
    };
    let positions = grades.solved + grades.unsolved;
    println!(
        "{} games graded: {} of {} positions solved within {} visits each",
        grades.games, grades.solved, positions, request.settings.visits
    );
    print!(
        "{}",
        crate::documents::summary::grades_table(&grades.agents, &grades.scores).aligned()
    );
    if grades.unsolved > 0 {
        println!(
            "{} positions needed more than --visits {}: their moves are not graded",
            grades.unsolved, request.settings.visits
        );
    }
    println!("moves: {}", grades.file.display());
    // The report shows the grades now.
    for path in crate::experiment::inspect::report_files(&grades.folder, None)? {
        println!("report: {}", path.display());
    }
    Ok(())
}

/// Arguments of `arbiter train-order`.
#[derive(clap::Args, Debug)]
pub struct TrainOrderArgs {
    /// The game whose move order to train: `othello` (the only one with a pattern
    /// evaluation).
    game: String,
    /// The samples file: one solved position a line (`own,other,margin`: the discs of the
    /// side to move and of the other side in hexadecimal, the exact final margin). New
    /// samples are appended; the ones already there are kept and reused.
    #[arg(long, default_value = "othello-samples.csv")]
    samples: PathBuf,
    /// Solve positions until the samples file holds this many (0: fit what is there).
    #[arg(long, default_value_t = 0)]
    generate: u64,
    /// The empty squares of the positions solved, 1 to 40: each position's count drawn
    /// uniformly from `MIN-MAX`.
    #[arg(long, default_value = "12-18", value_name = "MIN-MAX", value_parser = parse_empties)]
    empties: (usize, usize),
    /// The seed of the positions' games (sample i's game derives from it and i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Conjugate-gradient steps of the fit.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    iterations: u32,
    /// Where to write the weights (the solver embeds src/games/othello/patterns.bin).
    #[arg(long, default_value = "patterns.bin")]
    out: PathBuf,
}

/// `12-18`: the fewest and most empty squares, within 1 to 40.
fn parse_empties(text: &str) -> Result<(usize, usize), crate::registry::InputError> {
    match super::min_max(text, "empties")? {
        (low, high) if low >= 1 && high <= 40 => Ok((low, high)),
        _ => Err(crate::registry::InputError::new(format!(
            "'{text}': empties from 1 to 40"
        ))),
    }
}

/// `arbiter train-order`: solve samples (resuming the file), fit, write the weights.
pub fn train_order(args: TrainOrderArgs) -> Result<()> {
    use crate::experiment::train_order::{TrainRequest, train};
    let request = TrainRequest {
        game: args.game,
        samples: args.samples,
        generate: args.generate,
        empties: (args.empties.0 as u32, args.empties.1 as u32),
        seed: args.seed,
        iterations: args.iterations as usize,
        out: args.out,
    };
    let mut bar = None;
    let trained = train(&request, |done, total| {
        bar.get_or_insert_with(|| {
            eprintln!(
                "solving {total} samples into {} ({}-{} empties, seed {})",
                request.samples.display(),
                request.empties.0,
                request.empties.1,
                request.seed
            );
            indicatif::ProgressBar::new(total)
        })
        .set_position(done);
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    println!(
        "{} samples: the fit's mean absolute error {:.2} discs on the 90% it was fitted to, {:.2} on the 10% held out",
        trained.samples, trained.train_error, trained.held_out_error
    );
    println!("{}", request.out.display());
    Ok(())
}
