//! `arbiter compare` and search experiments (`kind = "search"`): every algorithm and depth
//! on the same positions.

use super::run::run_folder;
use super::tools::{parse_game, read_moves};
use crate::core::seeds;
use crate::games::random_positions;
use crate::registry::search_experiment::{PositionSource, parse_depths};
use crate::registry::spec::Spec;
use crate::registry::{GameEntry, GameTask, SearchExperiment, dispatch};
use crate::report::Meta;
use crate::report::document::write_folder_documents;
use crate::report::search::{
    SearchRow, search_sections, summarize, summary_table, write_search_csv,
};
use crate::report::{unix_now, work_bar};
use crate::search::Algorithm;
use crate::tournament::compare::{SearchRun, compare as compare_positions};
use anyhow::{Result, anyhow, bail};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Arguments of `arbiter compare`.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The game, e.g. `breakthrough` or `wights`.
    game: String,
    /// Algorithms, comma-separated (minimax, alphabeta, alphabeta-ordered, alphabeta-killer).
    #[arg(long, default_value = "minimax,alphabeta")]
    algorithms: String,
    /// The heuristic, with parameters if any, e.g. `offensive2(almost_win=5000)`.
    #[arg(long)]
    heuristic: String,
    /// Depths: `3`, `1..5` or `1,3,5`.
    #[arg(long, default_value = "1..4")]
    depths: String,
    /// Number of positions (random playouts of 10-40 plies, seeded).
    #[arg(long, default_value_t = 100)]
    positions: usize,
    /// Seed of the positions and the searches.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long)]
    threads: Option<usize>,
    /// The run folder (new or empty) [default: results/compare-<game>/<UTC date-time>].
    #[arg(long)]
    out: Option<PathBuf>,
    /// Print no progress and no table.
    #[arg(long)]
    quiet: bool,
}

/// `arbiter compare`.
pub fn compare(args: CompareArgs) -> Result<()> {
    let game = parse_game(&args.game)?;
    let heuristic: Spec = args
        .heuristic
        .parse()
        .map_err(|e: String| anyhow!("--heuristic: {e}"))?;
    let depths = parse_depths(&args.depths).map_err(|e| anyhow!("--depths: {e}"))?;
    let mut algorithms = Vec::new();
    for name in args.algorithms.split(',') {
        let algorithm: Algorithm = name
            .trim()
            .parse()
            .map_err(|e: String| anyhow!("--algorithms: {e}"))?;
        if !algorithm.searches() {
            bail!("--algorithms: {algorithm} does not search to a depth");
        }
        algorithms.push(algorithm);
    }
    if args.positions == 0 {
        bail!("--positions 0: search at least one position");
    }
    let experiment = SearchExperiment {
        name: format!("compare-{}", args.game.split('(').next().unwrap_or("game")),
        description: String::new(),
        path: PathBuf::from("<command line>"),
        source: std::env::args().collect::<Vec<_>>().join(" "),
        game,
        heuristic,
        positions: args.positions,
        source_of_positions: PositionSource::Random {
            min_plies: 10,
            max_plies: 40,
        },
        seed: args.seed,
        runs: algorithms
            .iter()
            .flat_map(|&a| depths.iter().map(move |&d| (a, d)))
            .collect(),
    };
    run_search(
        experiment,
        super::resolve_threads(args.threads)?,
        args.out,
        args.quiet,
    )
}

/// Runs a search experiment into a results folder.
pub fn run_search(
    experiment: SearchExperiment,
    threads: usize,
    out: Option<PathBuf>,
    quiet: bool,
) -> Result<()> {
    dispatch(
        experiment.game,
        SearchTask {
            experiment,
            threads,
            out,
            quiet,
        },
    )
}

struct SearchTask {
    experiment: SearchExperiment,
    threads: usize,
    out: Option<PathBuf>,
    quiet: bool,
}

/// Positions from an earlier run's games.csv: for each game in turn, the position after a
/// seeded number of its moves (within `min..=max` plies when the game is long enough).
fn positions_from_games<G: GameEntry>(
    start: &G,
    path: &std::path::Path,
    count: usize,
    seed: u64,
) -> Result<Vec<G>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| anyhow!("{}: cannot read: {e}", path.display()))?;
    let headers = reader
        .headers()
        .map_err(|e| anyhow!("{}: {e}", path.display()))?
        .clone();
    let column = headers.iter().position(|h| h == "moves").ok_or_else(|| {
        anyhow!(
            "{}: no 'moves' column (not an arbiter games.csv)",
            path.display()
        )
    })?;
    let mut games: Vec<Vec<String>> = Vec::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.map_err(|e| anyhow!("{}: line {}: {e}", path.display(), line + 2))?;
        games.push(
            read_moves(record.get(column).unwrap_or(""))
                .into_iter()
                .map(|(_, m)| m)
                .collect(),
        );
    }
    if games.iter().all(|g| g.len() < 2) {
        bail!(
            "{}: no game with moves to take positions from",
            path.display()
        );
    }
    let mut rng = seeds::rng(seed);
    let mut positions = Vec::with_capacity(count);
    let mut attempts = 0;
    while positions.len() < count && attempts < count * 20 {
        let moves = &games[attempts % games.len()];
        attempts += 1;
        if moves.len() < 2 {
            continue;
        }
        let plies = 1 + seeds::below(&mut rng, moves.len() - 1);
        let mut state = start.clone();
        for (ply, text) in moves[..plies].iter().enumerate() {
            let mv = state
                .parse_move(text)
                .map_err(|e| anyhow!("{}: a game's ply {}: {e}", path.display(), ply + 1))?;
            state.apply(mv);
        }
        if state.outcome().is_none() {
            positions.push(state);
        }
    }
    Ok(positions)
}

impl GameTask for SearchTask {
    type Output = Result<()>;

    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let SearchTask {
            experiment,
            threads,
            out,
            quiet,
        } = self;
        let heuristic = experiment.heuristic_for::<G>()?;
        let positions = match &experiment.source_of_positions {
            PositionSource::Random {
                min_plies,
                max_plies,
            } => random_positions(
                &start,
                experiment.positions,
                *min_plies,
                *max_plies,
                experiment.seed,
            ),
            PositionSource::Games(path) => {
                positions_from_games(&start, path, experiment.positions, experiment.seed)?
            }
        };
        let runs: Vec<SearchRun> = experiment
            .runs
            .iter()
            .map(|&(algorithm, depth)| SearchRun { algorithm, depth })
            .collect();
        let folder = run_folder(out, &experiment.name)?;
        let mut meta = Meta {
            experiment: experiment.name.clone(),
            description: experiment.description.clone(),
            experiment_file: experiment.path.display().to_string(),
            experiment_source: experiment.source.clone(),
            game: experiment.game.to_string(),
            seed: experiment.seed,
            agents: runs
                .iter()
                .map(|r| {
                    (
                        format!("{} depth {}", r.algorithm, r.depth),
                        experiment.heuristic.to_string(),
                    )
                })
                .collect(),
            games_total: positions.len(),
            deterministic: true,
            timing_columns: vec!["ms".to_string(), "mean_ms".to_string()],
            ..Meta::starting("search", threads)
        };
        meta.write(&folder)?;
        let bar = work_bar(positions.len() as u64, quiet);
        if !quiet {
            eprintln!(
                "{}: {} searches x {} positions of {} on {threads} threads -> {}",
                experiment.name,
                runs.len(),
                positions.len(),
                meta.game,
                folder.display()
            );
        }
        let records = compare_positions(
            &positions,
            &heuristic,
            &runs,
            experiment.seed,
            threads,
            &AtomicBool::new(false),
            &|| bar.inc(1),
        )?;
        bar.finish_and_clear();
        let rows: Vec<SearchRow> = records.iter().map(SearchRow::from_record).collect();
        write_search_csv(&folder, &rows).map_err(|e| anyhow!(e))?;
        meta.games_played = positions.len();
        meta.ended_unix = Some(unix_now());
        meta.status = "complete".to_string();
        meta.write(&folder)?;
        let documents = write_search_report(&folder)?;
        if !quiet {
            print!("{}", summary_table(&summarize(&rows)).markdown());
            println!("results: {}", folder.display());
            for document in documents {
                println!("report: {}", document.display());
            }
        }
        Ok(())
    }
}

/// Chart, report.md and index.html of a search-comparison folder, from search.csv.
pub fn write_search_report(folder: &std::path::Path) -> Result<Vec<PathBuf>> {
    let rows = crate::report::search::read_search_csv(folder).map_err(|e| anyhow!(e))?;
    let sections = search_sections(folder, &rows).map_err(|e| anyhow!(e))?;
    write_folder_documents(folder, "search comparison", &sections).map_err(|e| anyhow!(e))
}
