//! The command line: parses arguments, calls one function of a lower layer, prints, and
//! chooses the exit code. The only layer that reads argv, prints results or exits; it holds
//! no domain logic.

mod agents;
mod bench;
mod cluster;
mod compare;
mod games;
mod ladder;
mod matchup;
mod play;
mod puzzle;
mod run;
mod tools;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// arbiter: tournaments and benchmarks for game-playing search agents.
///
/// Plays seeded batches of games between agents (heuristic x algorithm x depth) on all
/// cores and writes win rates, node counts and timings to CSV.
#[derive(Parser, Debug)]
#[command(
    name = "arbiter",
    version,
    about,
    long_about = None,
    max_term_width = 100,
    after_help = "Documentation: README.md (the two commands, the tour) and docs/: running.md, experiments.md, reproduction.md, statistics.md, tuning.md, agents.md (protocol.md), games.md (game-protocol.md), class.md (a class tournament), sandbox.md (untrusted programs), python.md (the Python package), cluster.md, results.md, speed.md."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run an experiment file (matchups/*.toml) and write results/<experiment>/<run-id>/.
    #[command(
        after_help = "More: docs/running.md (options, Ctrl-C, --resume) and docs/experiments.md (experiment files)."
    )]
    Run(run::RunArgs),
    /// Print a results folder's summary as tables (the newest run if given an
    /// experiment's folder).
    #[command(after_help = "More: docs/results.md (every file of a results folder).")]
    Show {
        /// A run folder (results/<experiment>/<run-id>) or an experiment folder.
        results_dir: PathBuf,
        /// Print the summary as JSON (what summary.json holds: the run, and the summary
        /// table's rows with summary.csv's numbers; NaN and infinities are null).
        #[arg(long)]
        json: bool,
    },
    /// One rating list over any number of runs (Bradley-Terry on the Elo scale, optionally
    /// anchored), with a crosstable and each agent's history across runs.
    #[command(after_help = "More: docs/class.md ('A ladder over many runs').")]
    Ladder(ladder::LadderArgs),
    /// Remake the charts, report.md and index.html of a results folder from its files.
    #[command(after_help = "More: docs/results.md (every file of a results folder).")]
    Report {
        /// A run folder (results/<experiment>/<run-id>) or an experiment folder (its
        /// newest run).
        results_dir: PathBuf,
        /// Write only game-N.html: the game viewer with game N of games.csv (its
        /// `game_id`), for a game the index.html sample leaves out.
        #[arg(long, value_name = "N")]
        game: Option<u64>,
    },
    /// Play one matchup without an experiment file: `arbiter match AGENT AGENT --game G
    /// --games N` (results/match/<run-id>, like `run`).
    #[command(after_help = "More: docs/running.md.")]
    Match(matchup::MatchArgs),
    /// Compare search algorithms on the same positions: nodes, time, chosen moves.
    #[command(
        after_help = "More: docs/experiments.md ('Search experiments') and docs/results.md ('How things are counted')."
    )]
    Compare(compare::CompareArgs),
    /// Solve a Flow Free or Word Sudoku puzzle and print the checked solution, the counters
    /// and the time (solvers: `arbiter list`).
    #[command(
        after_help = "More: docs/games.md (the puzzle solvers) and docs/experiments.md ('Puzzle experiments')."
    )]
    Solve(puzzle::SolveArgs),
    /// Count the leaves of the legal-move tree: one line `perft(d) = n` per depth.
    Perft {
        /// The game, e.g. `breakthrough` or `breakthrough(rules=long)`.
        game: String,
        /// Deepest depth to count, in plies.
        #[arg(long, default_value_t = 4)]
        depth: u32,
        /// Folder of agent files, where games served by programs are declared [default:
        /// $ARBITER_AGENTS, else ./agents].
        #[arg(long)]
        agents: Option<PathBuf>,
    },
    /// Play a move list from the start and print the final board and result.
    ///
    /// Moves are in the game's notation (`c2-d3`), one per line or separated by `;`;
    /// blank lines and `#` comments are ignored. A games.csv `moves` cell replays as is,
    /// and a run's games.pgn with `--id N`.
    Replay {
        /// The game, e.g. `breakthrough(rules=three-to-base)`.
        game: String,
        /// The move file, or `-` for standard input.
        file: PathBuf,
        /// Print every position, each after its move (from ply N when given; 0 is the
        /// start), not only the final one.
        #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "0")]
        steps: Option<usize>,
        /// In a record file (a run's games.pgn), the game to replay (its GameId).
        #[arg(long)]
        id: Option<u64>,
        /// Folder of agent files, where games served by programs are declared [default:
        /// $ARBITER_AGENTS, else ./agents].
        #[arg(long)]
        agents: Option<PathBuf>,
    },
    /// Fit `linear` weights to a run's recorded games (logistic regression of each game's
    /// result on the features of its positions, the "Texel" method); writes fit.csv.
    #[command(after_help = "More: docs/tuning.md.")]
    Fit {
        /// A game run's folder (or an experiment folder: its newest run).
        results_dir: PathBuf,
        /// Positions from this ply on (openings carry little of the result).
        #[arg(long, default_value_t = 4)]
        from_ply: usize,
        /// Gradient steps (Adam, full batch).
        #[arg(long, default_value_t = 400)]
        iterations: usize,
    },
    /// Play against an agent in the terminal.
    Play(play::PlayArgs),
    /// List games and their rule sets, algorithms, heuristics, puzzle solvers and registered
    /// agents.
    List {
        /// Folder of agent files [default: $ARBITER_AGENTS, else ./agents].
        #[arg(long)]
        agents: Option<PathBuf>,
        /// Only this game: its rule sets, the algorithms, its heuristics with their
        /// parameters, and the agents (e.g. `--game othello`).
        #[arg(long)]
        game: Option<String>,
    },
    /// Measure speed: perft leaves/s, alpha-beta nodes/s, games/s through the scheduler,
    /// Flow Free solve times.
    #[command(after_help = "More: docs/speed.md.")]
    Bench(bench::BenchArgs),
    /// Check that a program speaks arbiter's agent protocol (docs/protocol.md) on a game:
    /// handshake, ping, moves in several positions, malformed requests, whole games.
    /// Exit 0 if it passes, 1 if a step fails.
    #[command(after_help = "More: docs/agents.md and docs/protocol.md.")]
    CheckAgent(agents::CheckArgs),
    /// Serve a built-in agent over arbiter's agent protocol on stdin/stdout, for other
    /// harnesses (or another arbiter) to play against.
    #[command(after_help = "More: docs/agents.md and docs/protocol.md.")]
    ServeAgent(agents::ServeArgs),
    /// Serve a game's rules over arbiter's game protocol (docs/game-protocol.md) on
    /// stdin/stdout: any game as a rules program, for a `[[game]]` entry or another harness.
    #[command(
        after_help = "More: docs/games.md ('Bring your own game') and docs/game-protocol.md."
    )]
    ServeGame(games::ServeGameArgs),
    /// The exact value of a position (win, loss or draw for the side to move, and the plies
    /// to the end under perfect play, or with --margin the final margin: Othello's discs)
    /// by a complete search: alpha-beta to the end of the game with a transposition table.
    /// Any game, built-in or program; exit 4 when --time-limit stops it first.
    #[command(after_help = "More: docs/games.md ('Exact values').")]
    SolveGame(games::SolveGameArgs),
    /// Grade every move of a run's games against perfect play: each position is solved
    /// exactly (as solve-game does, within --visits positions), and a move that turned a
    /// win into a draw or a loss, or a draw into a loss, is an error. Prints each agent's
    /// moves graded, error rate with its 95% interval, blunders (win to loss) and errors by
    /// third of the game; writes every move to grades.csv in the run's folder, adds the
    /// figures to summary.csv and the report, and marks the errors in its game viewer.
    /// An experiment's `grade = true` does the same once its games are played.
    #[command(after_help = "More: docs/games.md ('Play graded against perfect play').")]
    Grade(games::GradeArgs),
    /// Train a game's move order for the exact solver: solve positions of seeded games
    /// exactly (appended to a samples file, resumable) and fit the weights of the game's
    /// pattern evaluation to their margins (Othello; the solver embeds the shipped weights).
    #[command(after_help = "More: docs/games.md ('Othello's pattern evaluation').")]
    TrainOrder(games::TrainOrderArgs),
    /// Check that a rules program speaks arbiter's game protocol (docs/game-protocol.md):
    /// handshake, deterministic answers, status and legal moves that agree, every legal move
    /// applying, random playouts that end. Exit 0 if it passes, 1 if a step fails.
    #[command(
        after_help = "More: docs/games.md ('Bring your own game') and docs/game-protocol.md."
    )]
    CheckGame(games::CheckGameArgs),
    /// Join the shards of a run spread over machines (`run --shard I/N`) into one results
    /// folder, equal to a single machine's run (timing columns aside).
    #[command(after_help = "More: docs/cluster.md.")]
    Merge(cluster::MergeArgs),
    /// Print a script that runs an experiment on a cluster.
    #[command(subcommand)]
    #[command(after_help = "More: docs/cluster.md.")]
    Emit(cluster::Emit),
}

/// The registered agents and the folder they were read from: `--agents` if given, else
/// `$ARBITER_AGENTS`, else `agents/` beside `experiment` or in the current folder.
///
/// # Errors
/// A given folder that does not exist, or a bad agent file.
pub fn load_agents(
    given: Option<&std::path::Path>,
    experiment: Option<&std::path::Path>,
) -> anyhow::Result<(crate::registry::AgentRegistry, Option<PathBuf>)> {
    Ok(crate::registry::load_agents(given, experiment)?)
}

/// clap's message about bad arguments in one line: its first paragraph, with its
/// "similar" suggestions.
fn usage_message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let message: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let message = message.join(" ");
    let message = message
        .strip_prefix("error: ")
        .unwrap_or(&message)
        .to_string();
    let tips: Vec<&str> = text
        .lines()
        .filter_map(|line| line.trim().strip_prefix("tip: "))
        .filter(|tip| tip.contains("similar"))
        .collect();
    if tips.is_empty() {
        message
    } else {
        format!("{message}; {}", tips.join("; "))
    }
}

/// Prints what clap found wrong with the arguments: help and version as asked (exit 0),
/// the command list when no command is given, else one line, like every other error
/// (exit 2).
fn usage_error(error: &clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = error.print();
            0
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // Not the whole help: its usage line, and what to do.
            let text = error.render().to_string();
            let usage = text
                .lines()
                .find(|line| line.starts_with("Usage:"))
                .unwrap_or("Usage: arbiter <COMMAND>");
            let command = usage
                .trim_start_matches("Usage:")
                .split('<')
                .next()
                .unwrap_or("arbiter")
                .trim();
            eprintln!("{usage}");
            eprintln!("error: no command given: `{command} --help` lists the commands");
            2
        }
        _ => {
            // clap's message is its first paragraph (a list of missing arguments runs on
            // over indented lines) and its suggestions; the usage block is left out.
            eprintln!(
                "error: {} (see --help)",
                crate::core::one_line(&usage_message(error))
            );
            2
        }
    }
}

/// Prints a compliance check's verdict line (`passed: 0 failed, 2 warnings`) and returns
/// its exit code: 0 when no step failed, else 1.
fn print_verdict(failures: u64, warnings: u64) -> i32 {
    println!(
        "{}: {failures} failed, {warnings} warnings",
        if failures == 0 { "passed" } else { "FAILED" }
    );
    i32::from(failures > 0)
}

/// Prints the end of a run (its tables, folder and documents unless `quiet`, and how to
/// continue a stopped run) and returns the exit code: 130 after Ctrl-C, else 0.
pub fn print_finished(finished: &crate::experiment::Finished, quiet: bool) -> i32 {
    if !quiet {
        // Written, not printed: with external agents SIGPIPE is ignored, and a closed
        // stdout (`arbiter run | head`) must not panic.
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{}", finished.tables);
        let _ = writeln!(out, "results: {}", finished.folder.display());
        for document in &finished.documents {
            let _ = writeln!(out, "report: {}", document.display());
        }
    }
    let outcome = &finished.outcome;
    let code = finished.exit_code();
    if !outcome.cancelled {
        // What the run had to leave out although it completed (a submission that failed
        // its check, in a tournament in rounds).
        for note in &finished.notes {
            crate::records::say(&format!("note: {note}"));
        }
    }
    if outcome.cancelled {
        // An agent that stopped playing after the last of its games left nothing unplayed:
        // nothing to say then.
        for note in &finished.notes {
            crate::records::say(&format!("stopped: {note}"));
        }
        crate::records::say(&format!(
            "stopped: {} of {} {} done{}; continue with: arbiter run --resume {}",
            outcome.played,
            outcome.total,
            finished.unit,
            if outcome.skipped > 0 {
                format!(", {} skipped", outcome.skipped)
            } else {
                String::new()
            },
            finished.folder.display()
        ));
    }
    code
}

/// Runs the command line; returns the process exit code (0 success, 2 any error, after
/// printing one line `error: ...` on standard error).
pub fn main() -> i32 {
    // `arbiter help --help` (or `-h`): the help of `arbiter` itself, as `arbiter help`.
    let mut words: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if words.len() == 3 && words[1] == "help" && (words[2] == "--help" || words[2] == "-h") {
        words.truncate(2);
    }
    let cli = match Cli::try_parse_from(words) {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    let result = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Show { results_dir, json } => tools::show(&results_dir, json).map(|()| 0),
        Command::Report { results_dir, game } => tools::report(&results_dir, game).map(|()| 0),
        Command::Match(args) => matchup::play_match(args),
        Command::Ladder(args) => ladder::ladder(args).map(|()| 0),
        Command::Compare(args) => compare::compare(args),
        Command::Solve(args) => puzzle::solve(args).map(|()| 0),
        Command::Perft {
            game,
            depth,
            agents,
        } => tools::perft(&game, depth, agents.as_deref()).map(|()| 0),
        Command::Replay {
            game,
            file,
            steps,
            id,
            agents,
        } => tools::replay(&game, &file, steps, id, agents.as_deref()).map(|()| 0),
        Command::Fit {
            results_dir,
            from_ply,
            iterations,
        } => tools::fit(&results_dir, from_ply, iterations).map(|()| 0),
        Command::Play(args) => play::play(args).map(|()| 0),
        Command::List { agents, game } => {
            tools::list(agents.as_deref(), game.as_deref()).map(|()| 0)
        }
        Command::Bench(args) => bench::bench(args).map(|()| 0),
        Command::CheckAgent(args) => agents::check_agent(args),
        Command::ServeAgent(args) => agents::serve_agent(args).map(|()| 0),
        Command::ServeGame(args) => games::serve(args).map(|()| 0),
        Command::CheckGame(args) => games::check(args),
        Command::SolveGame(args) => games::solve_game(args),
        Command::Grade(args) => games::grade(args).map(|()| 0),
        Command::TrainOrder(args) => games::train_order(args).map(|()| 0),
        Command::Merge(args) => cluster::merge(args),
        Command::Emit(what) => cluster::emit(what).map(|()| 0),
    };
    // Rules programs of program games live as long as their threads; none outlives us.
    crate::external::rules::stop_rules_programs();
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {}", crate::core::error_line(&*error));
            2
        }
    }
}

/// `MIN-MAX` (e.g. `8-16`) of `what`, the fewest first: an argument's range.
pub(crate) fn min_max(
    text: &str,
    what: &str,
) -> Result<(usize, usize), crate::registry::InputError> {
    let range = text.split_once('-').and_then(|(low, high)| {
        Some((
            low.trim().parse::<usize>().ok()?,
            high.trim().parse::<usize>().ok()?,
        ))
    });
    match range {
        Some((low, high)) if low <= high => Ok((low, high)),
        _ => Err(crate::registry::InputError::new(format!(
            "'{text}' is not MIN-MAX {what} with MIN <= MAX (e.g. 8-16)"
        ))),
    }
}
