//! `bench`: the speed figures docs/speed.md quotes, measured on this machine, given line
//! by line as they are measured.

mod bare;
mod bare_connect_four;
mod bare_einstein;
mod measure;
mod programs;
mod solver;

use super::Error;
use super::launch::parse_game;
use super::play_all;
use crate::core::{Evaluator, seeds};
use crate::csp::Limits;
use crate::csp::flow::{Puzzle, Solver, Status, solve};
use crate::games::{perft, random_positions};
use crate::records::{CsvRecorder, RunContext};
use crate::registry::Colours;
use crate::registry::puzzle_experiment::puzzle_files;
use crate::registry::{AgentSpec, GameEntry, GameTask, dispatch};
use crate::search::mcts::{Mcts, MctsConfig};
use crate::search::{Algorithm, Searcher};
use crate::tournament::{MatchupPlan, Schedule};
use measure::{alphabeta_each, alphabeta_on, per_second};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What `bench` measures (the cli's `arbiter bench` options, documented there).
pub struct BenchRequest {
    /// The game to measure.
    pub game: String,
    /// Perft depth (bulk-counted last ply), 1 to 12.
    pub perft_depth: u32,
    /// Alpha-beta depth, 1 to 8.
    pub depth: u32,
    /// Positions searched per heuristic.
    pub positions: usize,
    /// Random-vs-random games played through the scheduler with CSV output.
    pub games: u64,
    /// Threads for the scheduler part (`None`: all cores).
    pub threads: Option<usize>,
    /// A folder of Flow Free puzzles solved one by one (skipped when missing).
    pub flow: PathBuf,
    /// Games of an external random agent against an in-process one (0 skips it).
    pub external_games: u64,
    /// Requests sent to each rules program (0 skips it).
    pub rules_requests: u64,
    /// Folder of agent files.
    pub agents: Option<PathBuf>,
    /// A rules library of the same game, measured against the built-in game as
    /// `serve-game` is.
    pub rules_library: Option<PathBuf>,
    /// Connect Four positions solved by the exact solver and a dedicated one (0 skips it).
    pub solve_positions: usize,
    /// The plies into their random games of those positions, fewest and most.
    pub solve_plies: (usize, usize),
    /// Rounds of the comparisons with a bare kernel or a dedicated solver.
    pub rounds: u32,
    /// Also write the comparison with the bare kernel as JSON to this file (`-`: to the
    /// lines).
    pub json: Option<PathBuf>,
}

/// Where the bench's lines go, each as soon as it is measured.
type Say<'a> = &'a mut dyn FnMut(String);

type Result<T> = std::result::Result<T, Error>;

/// Returns an [`Error::Message`] made as `format!` makes text.
macro_rules! bail {
    ($($text:tt)*) => {
        return Err(Error::Message(format!($($text)*)))
    };
}

struct BenchTask<'a> {
    args: BenchRequest,
    threads: usize,
    say: Say<'a>,
}

/// A random agent against itself for `games` games, colours alternating: the scheduler's
/// load with the agents costing next to nothing.
fn random_self_play<G: GameEntry>(
    start: &G,
    games: u64,
) -> Result<(Vec<crate::registry::AgentFactory<G>>, Schedule)> {
    let random: AgentSpec = "random".parse::<AgentSpec>().map_err(|e| e.to_string())?;
    let factories = vec![random.factory(start).map_err(|e| e.to_string())?];
    let schedule = Schedule::new(
        1,
        vec![MatchupPlan {
            agents: [0, 0],
            seed_key: 0,
            games,
        }],
        Colours::Alternate,
    );
    Ok((factories, schedule))
}

/// What [`scheduled_self_play`] measured.
struct SelfPlay {
    played: u64,
    seconds: f64,
    /// The CPU time of the whole process meanwhile (every worker and the recording thread).
    cpu_seconds: f64,
    /// games.csv and moves.csv together.
    bytes: u64,
}

/// The games of [`random_self_play`] through the scheduler on `threads`, recorded as `run`
/// records them (moves.csv only with `moves`) into fresh files in `folder`, which is
/// removed afterwards.
fn scheduled_self_play<G: GameEntry>(
    start: &G,
    game: &str,
    (factories, schedule): &(Vec<crate::registry::AgentFactory<G>>, Schedule),
    threads: usize,
    moves: bool,
    folder: &Path,
) -> Result<SelfPlay> {
    std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let context = RunContext::new(
        game.to_string(),
        String::new(),
        vec!["random".to_string()],
        vec![[0, 0]],
    );
    let played = CsvRecorder::create(folder, context, moves).and_then(|mut recorder| {
        let cpu = crate::core::cpu::process_nanos;
        let (clock, cpu_before) = (Instant::now(), cpu());
        let outcome = play_all(start, schedule, factories, threads, moves, &mut recorder)?;
        let seconds = clock.elapsed().as_secs_f64();
        let cpu_seconds = cpu().zip(cpu_before).map_or(seconds, |(after, before)| {
            after.saturating_sub(before) as f64 / 1e9
        });
        Ok((outcome, seconds, cpu_seconds))
    });
    let bytes = ["games.csv", "moves.csv"]
        .iter()
        .filter_map(|f| std::fs::metadata(folder.join(f)).ok())
        .map(|m| m.len())
        .sum();
    // Removed whether the games were played or not.
    let _ = std::fs::remove_dir_all(folder);
    let (outcome, seconds, cpu_seconds) =
        played.map_err(|e| format!("{}: {e}", folder.display()))?;
    Ok(SelfPlay {
        played: outcome.played as u64,
        seconds,
        cpu_seconds,
        bytes,
    })
}

/// One figure measured over rounds: its values, in the order measured.
struct Figure {
    name: String,
    unit: &'static str,
    values: Vec<f64>,
}

impl Figure {
    fn new(name: impl Into<String>, unit: &'static str) -> Figure {
        Figure {
            name: name.into(),
            unit,
            values: Vec::new(),
        }
    }

    /// Median, min and max.
    fn spread(&self) -> (f64, f64, f64) {
        let mut sorted = self.values.clone();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        (median, sorted[0], sorted[n - 1])
    }

    /// One line: median [min .. max] unit (a ratio: 0.68x), with a warning when the
    /// spread is large.
    fn line(&self) -> String {
        let (median, low, high) = self.spread();
        let wide = median > 0.0 && (high - low) / median > 0.2;
        let numbers = if self.unit == "x" {
            format!("{median:.3}x [{low:.3}x .. {high:.3}x]")
        } else if self.unit == "ns" {
            format!("{median:.1} [{low:.1} .. {high:.1}] ns")
        } else {
            format!("{median:.3e} [{low:.3e} .. {high:.3e}] {}", self.unit)
        };
        format!(
            "{}: {numbers}{}",
            self.name,
            if wide {
                " (spread over 20% of the median: a busy machine; quote the ratio)"
            } else {
                ""
            }
        )
    }

    fn json(&self) -> serde_json::Value {
        let (median, min, max) = self.spread();
        serde_json::json!({
            "name": self.name, "unit": self.unit, "median": median, "min": min, "max": max,
            "values": self.values,
        })
    }
}

/// arbiter against the bare kernel (Breakthrough 8x8 on two bitboards, no trait, no
/// records; `bench_bare.rs`), `rounds` times in turn: perft(6) leaves/s, MCTS simulations
/// against bare random playouts, and whole random games through the scheduler (games.csv
/// only, one thread by the wall clock and by the whole process's CPU time, then on the
/// bench's `threads`) against bare random playouts; each ratio
/// per round, then median, min and max. The ratios hold on any machine (the one on
/// `threads` grows with its cores). Two more split the scheduler's ratio: random
/// playouts through the game's own moves (no agent, clock or record) against the kernel's
/// (the game's share), and one reading of the move clock, which every ply of a game costs,
/// against a kernel ply.
fn kernel_comparison<G: GameEntry>(
    start: &G,
    rounds: u32,
    threads: usize,
    json: Option<&Path>,
    say: Say,
) -> Result<()> {
    const DEPTH: u32 = 6;
    const PLAYOUTS: u64 = 20_000;
    const SIMULATIONS: u64 = 20_000;
    const GAMES: u64 = 20_000;
    const CLOCK_READINGS: u64 = 2_000_000;
    let (mut figures, mut ratios) = kernel_figures(threads);
    let evaluator = start
        .heuristic(G::heuristics()[0].name, &[])
        .map_err(|e| e.to_string())?;
    if perft(start, 2) != bare::perft(2) {
        bail!("the bare kernel's perft differs from the game's");
    }
    let self_play = random_self_play(start, GAMES)?;
    // Alpha-beta with material to depth 4 on 40 seeded positions, arbiter's search and the
    // kernel's in the same root order: the same nodes (checked every round).
    let board =
        crate::games::breakthrough::Breakthrough::new(crate::games::breakthrough::Rules::Standard);
    let ab_positions = random_positions(&board, 40, 10, 40, 2024);
    let roots = bare::alphabeta_roots(&ab_positions);
    let material = board
        .heuristic("material", &[])
        .map_err(|e| e.to_string())?;
    let (ab_nodes, _, _) = alphabeta_on(&ab_positions, material, 4);
    let folder = std::env::temp_dir().join(format!("arbiter-kernel-{}", std::process::id()));
    // One searcher for every round, its node arena grown by a first search that is not
    // timed: an agent keeps its searcher from move to move, so only its first move grows
    // the arena (as the MCTS line further down measures too).
    let mut mcts = Mcts::new(
        MctsConfig {
            iterations: SIMULATIONS,
            ..MctsConfig::default()
        },
        evaluator.clone(),
        7,
    );
    let _ = mcts.search(start, &crate::core::Limits::NONE, &mut seeds::rng(6));
    for round in 0..rounds {
        let timed = |work: &mut dyn FnMut() -> u64| {
            let clock = Instant::now();
            let count = work();
            count as f64 / clock.elapsed().as_secs_f64().max(1e-9)
        };
        let leaves = timed(&mut || perft(start, DEPTH));
        let bare_leaves = timed(&mut || bare::perft(DEPTH));
        let mut rng = seeds::rng(7 + u64::from(round));
        let simulations = timed(&mut || {
            let _ = mcts.search(start, &crate::core::Limits::NONE, &mut rng);
            SIMULATIONS
        });
        let mut bare_plies = 0;
        let playouts = timed(&mut || {
            bare_plies = bare::random_playouts(PLAYOUTS, 11 + u64::from(round));
            PLAYOUTS
        });
        let game_playouts = timed(&mut || {
            crate::games::random_playouts(start, PLAYOUTS, 11 + u64::from(round));
            PLAYOUTS
        });
        // The move clock's cost: the readings a ply costs every game through the scheduler.
        let move_clock = crate::tournament::move_clock();
        let readings_per_second = timed(&mut || {
            let mut last = 0;
            for _ in 0..CLOCK_READINGS {
                last = std::hint::black_box(move_clock.raw());
            }
            std::hint::black_box(last);
            CLOCK_READINGS
        });
        let reading_nanos = 1e9 / readings_per_second;
        let bare_ply_nanos = 1e9 / (playouts * bare_plies as f64 / PLAYOUTS as f64);
        // The same games on one thread, then on all the bench's threads (what `run` uses by
        // default).
        let scheduled = |threads: usize| -> Result<(f64, f64)> {
            let run =
                scheduled_self_play(start, "breakthrough", &self_play, threads, false, &folder)?;
            if run.played != GAMES {
                bail!(
                    "the scheduler played {} of {GAMES} games on {}",
                    run.played,
                    threads_text(threads)
                );
            }
            Ok((
                run.played as f64 / run.seconds.max(1e-9),
                run.played as f64 / run.cpu_seconds.max(1e-9),
            ))
        };
        // On one thread, by the wall clock and by the process's CPU time: the recording
        // thread works beside the one worker, on the other core where there is one.
        let (games, games_per_cpu) = scheduled(1)?;
        let (games_on_threads, _) = scheduled(threads)?;
        // Each position searched by arbiter, then by the kernel: the machine's drift within
        // the round weighs on both alike.
        let (mut nodes, mut bare_nodes, mut seconds, mut bare_seconds) = (0, 0, 0.0, 0.0);
        alphabeta_each(
            &ab_positions,
            material,
            4,
            |index, stats, search_seconds| {
                nodes += stats.nodes();
                seconds += search_seconds;
                let (own, opp, up, moves) = &roots[index];
                let clock = Instant::now();
                bare_nodes += bare::alphabeta(*own, *opp, *up, moves, 4);
                bare_seconds += clock.elapsed().as_secs_f64();
            },
        );
        if nodes != ab_nodes || bare_nodes != ab_nodes {
            bail!(
                "alpha-beta nodes differ: arbiter {nodes} (first {ab_nodes}), bare kernel {bare_nodes}"
            );
        }
        let alphabeta = nodes as f64 / seconds.max(1e-9);
        let bare_alphabeta = bare_nodes as f64 / bare_seconds.max(1e-9);
        for (figure, value) in figures.iter_mut().zip([
            leaves,
            bare_leaves,
            simulations,
            playouts,
            games,
            games_per_cpu,
            alphabeta,
            bare_alphabeta,
            game_playouts,
            reading_nanos,
            games_on_threads,
        ]) {
            figure.values.push(value);
        }
        for (ratio, value) in ratios.iter_mut().zip([
            leaves / bare_leaves,
            simulations / playouts,
            games / playouts,
            games_per_cpu / playouts,
            alphabeta / bare_alphabeta,
            game_playouts / playouts,
            reading_nanos / bare_ply_nanos,
            games_on_threads / playouts,
        ]) {
            ratio.values.push(value);
        }
    }
    report_kernel_figures(&figures, &ratios, rounds, json, say)
}

/// The figures and ratios the kernel comparison measures, empty, in the order it prints
/// them.
fn kernel_figures(threads: usize) -> ([Figure; 11], [Figure; 8]) {
    let on_threads = threads_text(threads);
    let figures = [
        Figure::new("perft(6), arbiter", "leaves/s"),
        Figure::new("perft(6), bare kernel", "leaves/s"),
        Figure::new("mcts, arbiter", "simulations/s"),
        Figure::new("random playouts, bare kernel", "games/s"),
        Figure::new(
            "random games through the scheduler, games.csv only",
            "games/s",
        ),
        Figure::new(
            "random games through the scheduler, games.csv only, by the process's CPU time",
            "games/s",
        ),
        Figure::new("alphabeta depth 4 material, arbiter", "nodes/s"),
        Figure::new("alphabeta depth 4 material, bare kernel", "nodes/s"),
        Figure::new(
            "random playouts through the game's own moves (Game::random_playout), arbiter",
            "games/s",
        ),
        Figure::new("move clock, one reading", "ns"),
        Figure::new(
            format!("random games through the scheduler on {on_threads}, games.csv only"),
            "games/s",
        ),
    ];
    let ratios = [
        Figure::new("perft: arbiter / bare kernel", "x"),
        Figure::new("mcts simulations / bare random playouts", "x"),
        Figure::new("scheduler games (games.csv) / bare random playouts", "x"),
        Figure::new(
            "scheduler games (games.csv) by CPU time / bare random playouts",
            "x",
        ),
        Figure::new("alpha-beta nodes/s: arbiter / bare kernel", "x"),
        Figure::new("game's own random playouts / bare random playouts", "x"),
        Figure::new("move clock reading / bare kernel ply", "x"),
        Figure::new(
            format!(
                "scheduler games on {on_threads} (games.csv) / bare random playouts on 1 thread"
            ),
            "x",
        ),
    ];
    (figures, ratios)
}

/// EinStein's random playouts through the game's own moves (chance included) against the
/// bare kernel's (`bare_einstein.rs`), `rounds` times in turn: games/s each and the ratio,
/// median [min .. max].
fn dice_comparison<G: GameEntry>(start: &G, rounds: u32, say: Say) {
    const PLAYOUTS: u64 = 100_000;
    let mut figures = [
        Figure::new(
            "random playouts through the game's own moves, arbiter",
            "games/s",
        ),
        Figure::new("random playouts, bare kernel", "games/s"),
    ];
    let mut ratio = Figure::new("game's own random playouts / bare random playouts", "x");
    for round in 0..rounds {
        let seed = 11 + u64::from(round);
        let clock = Instant::now();
        std::hint::black_box(crate::games::random_playouts(start, PLAYOUTS, seed));
        let game = PLAYOUTS as f64 / clock.elapsed().as_secs_f64().max(1e-9);
        let clock = Instant::now();
        std::hint::black_box(bare_einstein::random_playouts(PLAYOUTS, seed));
        let bare = PLAYOUTS as f64 / clock.elapsed().as_secs_f64().max(1e-9);
        figures[0].values.push(game);
        figures[1].values.push(bare);
        ratio.values.push(game / bare);
    }
    say(format!(
        "against a bare kernel of the dice game ({rounds} rounds in turn; median [min .. max], 1 thread):"
    ));
    for figure in figures.iter().chain([&ratio]) {
        say(format!("  {}", figure.line()));
    }
}

/// Prints the kernel comparison's figures and ratios, and writes them as JSON to `json`
/// (`-`: standard output) when given.
fn report_kernel_figures(
    figures: &[Figure],
    ratios: &[Figure],
    rounds: u32,
    json: Option<&Path>,
    say: Say,
) -> Result<()> {
    say(format!(
        "against the bare kernel ({rounds} rounds in turn; median [min .. max], 1 thread unless said):"
    ));
    for figure in figures.iter().chain(ratios) {
        say(format!("  {}", figure.line()));
    }
    if let Some(path) = json {
        let value = serde_json::json!({
            "game": "breakthrough", "rounds": rounds,
            "figures": figures.iter().map(Figure::json).collect::<Vec<_>>(),
            "ratios": ratios.iter().map(Figure::json).collect::<Vec<_>>(),
        });
        let text = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n";
        if path == Path::new("-") {
            say(text.trim_end().to_string());
        } else {
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// "1 thread", "2 threads".
fn threads_text(threads: usize) -> String {
    match threads {
        1 => "1 thread".to_string(),
        n => format!("{n} threads"),
    }
}

/// Nanoseconds per call of `evaluator` over `positions` (about `calls` calls), the calls
/// made, and whether a NaN was returned.
fn evaluation_cost<G: GameEntry>(
    evaluator: &G::Heuristic,
    positions: &[G],
    calls: usize,
) -> (f64, usize, bool) {
    let rounds = (calls / positions.len().max(1)).max(1);
    let clock = Instant::now();
    let mut sink = 0.0;
    for _ in 0..rounds {
        for position in positions {
            sink += evaluator.evaluate(position, position.to_move(), 7);
        }
    }
    let calls = rounds * positions.len();
    let ns = clock.elapsed().as_secs_f64() * 1e9 / calls.max(1) as f64;
    (ns, calls, std::hint::black_box(sink).is_nan())
}

impl GameTask for BenchTask<'_> {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        crate::registry::two_players(&start, "the bench's games")?;
        let args = &self.args;
        let say = self.say;
        say(format!("game: {}", args.game));
        if start.game_spec()
            == crate::registry::GameSpec::Breakthrough(crate::games::breakthrough::Rules::Standard)
        {
            kernel_comparison(&start, args.rounds, self.threads, args.json.as_deref(), say)?;
        }
        if start.game_spec() == crate::registry::GameSpec::Einstein(crate::registry::NoParams) {
            dice_comparison(&start, args.rounds, say);
        }
        if let crate::registry::GameSpec::ConnectFour(params) = start.game_spec()
            && args.solve_positions > 0
        {
            solver::compare(
                params,
                args.solve_positions,
                args.solve_plies,
                args.rounds,
                say,
            )?;
        }

        let clock = Instant::now();
        let leaves = perft(&start, args.perft_depth);
        let seconds = clock.elapsed().as_secs_f64();
        say(format!(
            "perft({}) = {leaves}: {seconds:.3} s, {} leaves/s (1 thread, bulk-counted)",
            args.perft_depth,
            per_second(leaves, seconds)
        ));

        let positions = random_positions(&start, args.positions, 10, 40, 2024);
        // The cost of one call of every heuristic of the game, on the same positions.
        for info in G::heuristics() {
            let evaluator = start.heuristic(info.name, &[]).map_err(|e| e.to_string())?;
            let (ns, calls, nan) = evaluation_cost(&evaluator, &positions, 200_000);
            say(format!(
                "heuristic {}: {ns:.1} ns per call ({calls} calls{})",
                info.name,
                if nan { ", NaN seen" } else { "" }
            ));
        }
        // The named heuristics the linear heuristic expresses: both, on the same positions.
        for &(name, weights) in G::linear_forms() {
            let weights: Vec<(String, String)> = weights
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            let named = start.heuristic(name, &[]).map_err(|e| e.to_string())?;
            let linear = start
                .heuristic("linear", &weights)
                .map_err(|e| e.to_string())?;
            // In turns of a few thousand calls each, so that the machine's drift weighs on
            // both alike.
            let mut ns = [0.0; 2];
            for _ in 0..20 {
                for (slot, evaluator) in ns.iter_mut().zip([&named, &linear]) {
                    *slot += evaluation_cost(evaluator, &positions, 10_000).0 / 20.0;
                }
            }
            say(format!(
                "heuristic {name} as linear: {:.1} ns per call against {:.1} ns ({:.2}x)",
                ns[1],
                ns[0],
                ns[1] / ns[0]
            ));
        }
        // Report 000's and 002's heuristics where the game has them, else its first.
        let mut measured: Vec<&str> = ["offensive2", "material"]
            .into_iter()
            .filter(|name| G::heuristics().iter().any(|h| h.name == *name))
            .collect();
        if measured.is_empty() {
            measured.extend(G::heuristics().first().map(|h| h.name));
        }
        for heuristic in measured {
            let evaluator = start.heuristic(heuristic, &[]).map_err(|e| e.to_string())?;
            let (nodes, expanded, seconds) = alphabeta_on(&positions, evaluator, args.depth);
            say(format!(
                "alphabeta depth {} {heuristic}: {nodes} nodes ({expanded} expanded) on {} positions: {seconds:.3} s, {} nodes/s (1 thread)",
                args.depth,
                positions.len(),
                per_second(nodes, seconds)
            ));
        }

        table_killer_and_mcts(&start, &positions, args.depth, say)?;

        let self_play = random_self_play(&start, args.games)?;
        let folder = std::env::temp_dir().join(format!("arbiter-bench-{}", std::process::id()));
        // With moves.csv (the default) and without it (`run --no-moves`).
        for (moves, files) in [(true, "games.csv + moves.csv"), (false, "games.csv")] {
            let run =
                scheduled_self_play(&start, &args.game, &self_play, self.threads, moves, &folder)?;
            say(format!(
                "random vs random: {} games in {:.3} s, {} games/s ({}, {files}: {:.1} MB)",
                run.played,
                run.seconds,
                per_second(run.played, run.seconds),
                threads_text(self.threads),
                run.bytes as f64 / 1e6
            ));
        }
        if !matches!(start.game_spec(), crate::registry::GameSpec::Program(_)) {
            programs::protocol_price(
                &start,
                &args.game,
                args.depth,
                args.rules_library.as_deref(),
                say,
            )?;
        }
        programs::external_bench(&start, &args.game, args.external_games, say)?;
        programs::rules_bench(&args.game, args.rules_requests, say)
    }
}

/// The table variant against the killer variant: nodes and nodes/s on the same
/// positions, each position searched by both in turn (one searcher each, kept across
/// positions as an agent keeps it across moves), so a machine that slows down or speeds
/// up weighs on both alike; then MCTS's simulations/s from the start.
fn table_killer_and_mcts<G: GameEntry>(
    start: &G,
    positions: &[G],
    depth: u32,
    say: Say,
) -> Result<()> {
    let evaluator = start
        .heuristic(G::heuristics()[0].name, &[])
        .map_err(|e| e.to_string())?;
    let algorithms = [Algorithm::AlphaBetaKiller, Algorithm::AlphaBetaTt];
    let mut searchers = algorithms.map(|_| Searcher::new(evaluator.clone(), 7));
    let mut rngs = algorithms.map(|_| seeds::rng(7));
    let (mut nodes, mut expanded, mut seconds) = ([0u64; 2], [0u64; 2], [0f64; 2]);
    for (i, &algorithm) in algorithms.iter().enumerate() {
        // Warm-up (the table is allocated once per agent, not per move).
        let _ = searchers[i].search(&positions[0], algorithm, 1, &mut rngs[i]);
    }
    for position in positions {
        for (i, &algorithm) in algorithms.iter().enumerate() {
            let clock = Instant::now();
            let result = searchers[i].search(position, algorithm, depth, &mut rngs[i]);
            seconds[i] += clock.elapsed().as_secs_f64();
            if let Some(result) = result {
                nodes[i] += result.stats.nodes();
                expanded[i] += result.stats.expanded;
            }
        }
    }
    for (i, algorithm) in algorithms.iter().enumerate() {
        say(format!(
            "{algorithm} depth {} {}: {} nodes ({} expanded) on {} positions: {:.3} s, {} nodes/s (1 thread)",
            depth,
            G::heuristics()[0].name,
            nodes[i],
            expanded[i],
            positions.len(),
            seconds[i],
            per_second(nodes[i], seconds[i])
        ));
    }
    let rate = |i: usize| nodes[i] as f64 / seconds[i].max(1e-9);
    say(format!(
        "alphabeta-tt against alphabeta-killer: {:.2}x the nodes, {:.2}x the nodes/s, {:.2}x the time",
        nodes[1] as f64 / nodes[0].max(1) as f64,
        rate(1) / rate(0),
        seconds[1] / seconds[0].max(1e-9)
    ));
    // MCTS from the start position, random rollouts to the end: simulations/s.
    let iterations = 20_000;
    let mut mcts = Mcts::new(
        MctsConfig {
            iterations,
            ..MctsConfig::default()
        },
        evaluator,
        7,
    );
    let mut rng = seeds::rng(7);
    // Warm-up: the node arena grows once.
    let _ = mcts.search(start, &crate::core::Limits::NONE, &mut rng);
    let clock = Instant::now();
    let result = mcts.search(start, &crate::core::Limits::NONE, &mut rng);
    let seconds = clock.elapsed().as_secs_f64();
    say(format!(
        "mcts from the start: {iterations} simulations (random rollouts to the end, tree depth {}): {seconds:.3} s, {} simulations/s (1 thread)",
        result.map_or(0, |r| r.depth),
        per_second(iterations, seconds)
    ));
    Ok(())
}

/// Measures what `request` asks, giving each line to `say` as soon as it is measured.
///
/// # Errors
/// An unknown game, options out of range, a measurement whose counts disagree (the
/// kernel comparison checks its nodes), a program that cannot be started.
pub fn bench(request: BenchRequest, say: Say) -> Result<()> {
    let (registry, _) = crate::registry::load_agents(request.agents.as_deref(), None)?;
    let spec = parse_game(&request.game, &registry)?;
    if !(1..=12).contains(&request.perft_depth) || !(1..=8).contains(&request.depth) {
        bail!("--perft-depth must be from 1 to 12 and --depth from 1 to 8");
    }
    if request.games == 0 || request.positions == 0 {
        bail!("--games and --positions must be at least 1");
    }
    let threads = super::launch::resolve_threads(request.threads)?;
    let flow = request.flow.clone();
    dispatch(
        spec,
        BenchTask {
            args: request,
            threads,
            say: &mut *say,
        },
    )?;
    flow_bench(&flow, say)
}

/// Solves every puzzle in `folder` with `sat` on this thread: the slowest and the total.
fn flow_bench(folder: &Path, say: Say) -> Result<()> {
    if !folder.is_dir() {
        say(format!(
            "flow free: {} not found, skipped",
            folder.display()
        ));
        return Ok(());
    }
    let files = puzzle_files(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let (mut total, mut slowest, mut solved) = (0.0, (0.0, String::new()), 0);
    for file in &files {
        let puzzle = Puzzle::read(file)?;
        let clock = Instant::now();
        let (status, _) = solve(&puzzle, Solver::Sat, 1, Limits::default());
        let seconds = clock.elapsed().as_secs_f64();
        solved += usize::from(matches!(status, Status::Solved(_)));
        total += seconds;
        if seconds > slowest.0 {
            slowest = (seconds, file.display().to_string());
        }
    }
    say(format!(
        "flow free (sat): {} puzzles ({solved} solved) in {:.3} s; slowest {:.1} ms ({}) (1 thread)",
        files.len(),
        total,
        slowest.0 * 1e3,
        slowest.1
    ));
    Ok(())
}
