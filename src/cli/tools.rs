//! `arbiter show`, `perft`, `replay` and `list`.

use crate::games::perft as count_leaves;
use crate::registry::{AgentRegistry, GAMES, GameEntry, GameSpec, GameTask, dispatch};
use crate::report::document::tournament_report;
use crate::report::load::RunData;
use crate::report::{Meta, format_summary, read_summary};
use crate::search::Algorithm;
use crate::tournament::MOVE_SEPARATOR;
use anyhow::{Context, Result, anyhow, bail};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Parses a game spec given on the command line.
pub fn parse_game(text: &str) -> Result<GameSpec> {
    text.parse::<GameSpec>()
        .map_err(|e| anyhow!("game '{text}': {e}"))
}

/// The run folder to show: `folder` itself, or its newest run (by name) when it is an
/// experiment's folder.
fn run_folder(folder: &Path) -> Result<PathBuf> {
    if !folder.is_dir() {
        bail!("{}: no such results folder", folder.display());
    }
    if folder.join("summary.csv").is_file() || folder.join("meta.json").is_file() {
        return Ok(folder.to_path_buf());
    }
    let mut runs: Vec<PathBuf> = std::fs::read_dir(folder)
        .with_context(|| folder.display().to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("meta.json").is_file())
        .collect();
    runs.sort();
    runs.pop().ok_or_else(|| {
        anyhow!(
            "{}: not a results folder (no summary.csv, meta.json or runs inside)",
            folder.display()
        )
    })
}

/// `arbiter report`.
pub fn report(folder: &Path) -> Result<()> {
    let folder = run_folder(folder)?;
    for path in write_report(&folder)? {
        println!("{}", path.display());
    }
    Ok(())
}

/// Charts, report.md and index.html for a run folder; returns the documents' paths.
pub fn write_report(folder: &Path) -> Result<Vec<PathBuf>> {
    if folder.join("search.csv").is_file() {
        return super::compare::write_search_report(folder);
    }
    if folder.join("solves.csv").is_file() {
        return super::puzzles::write_puzzle_report(folder);
    }
    let data = RunData::load(folder).map_err(|e| anyhow!(e))?;
    let written = tournament_report(&data).map_err(|e| anyhow!(e))?;
    Ok(written)
}

/// `arbiter show`.
pub fn show(folder: &Path) -> Result<()> {
    let folder = run_folder(folder)?;
    if let Ok(meta) = Meta::read(&folder) {
        println!(
            "{} ({}): {} of {} {}, seed {}, {} threads, {}",
            meta.experiment,
            meta.game,
            meta.games_played,
            meta.games_total,
            match meta.kind.as_str() {
                "puzzles" => "solves",
                "search" => "positions",
                _ => "games",
            },
            meta.seed,
            meta.threads,
            meta.status
        );
        if !meta.description.is_empty() {
            println!("{}", meta.description);
        }
        println!();
    }
    if folder.join("solves.csv").is_file() {
        let rows: Vec<super::puzzles::SolveRow> =
            crate::report::load::csv_rows(&folder.join("solves.csv")).map_err(|e| anyhow!(e))?;
        print!("{}", super::puzzles::summary_table(&rows).aligned());
        println!("\nmedian ms per puzzle:");
        print!("{}", super::puzzles::per_puzzle_table(&rows).aligned());
        return Ok(());
    }
    if folder.join("search.csv").is_file() {
        let rows = crate::report::search::read_search_csv(&folder).map_err(|e| anyhow!(e))?;
        let summary = crate::report::search::summarize(&rows);
        print!(
            "{}",
            crate::report::search::summary_table(&summary).markdown()
        );
        return Ok(());
    }
    let summary = folder.join("summary.csv");
    if !summary.is_file() {
        bail!(
            "{}: no summary.csv yet (the run is still going or stopped before its end)",
            folder.display()
        );
    }
    let rows = read_summary(&summary).map_err(|e| anyhow!(e))?;
    print!("{}", format_summary(&rows));
    if let Ok(data) = RunData::load_with(&folder, false)
        && let Some(ratings) = crate::report::document::ratings_table(&data)
    {
        println!("ratings (Bradley-Terry, Elo scale, all games):");
        print!("{}", ratings.aligned());
    }
    Ok(())
}

struct PerftTask {
    depth: u32,
}

impl GameTask for PerftTask {
    type Output = ();
    fn run<G: GameEntry>(self, start: G) {
        for depth in 1..=self.depth {
            println!("perft({depth}) = {}", count_leaves(&start, depth));
        }
    }
}

/// `arbiter perft`.
pub fn perft(game: &str, depth: u32) -> Result<()> {
    let spec = parse_game(game)?;
    if !(1..=12).contains(&depth) {
        bail!("--depth {depth}: must be from 1 to 12");
    }
    dispatch(spec, PerftTask { depth });
    Ok(())
}

/// Moves of a move file with their line numbers: one per line or separated by `;` (as in
/// games.csv), `#` starting a comment, blank lines ignored.
pub fn read_moves(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .flat_map(|(index, line)| {
            let line = line.split('#').next().unwrap_or("");
            line.split(MOVE_SEPARATOR)
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(move |m| (index + 1, m.to_string()))
                .collect::<Vec<_>>()
        })
        .collect()
}

struct ReplayTask {
    source: String,
    moves: Vec<(usize, String)>,
}

impl GameTask for ReplayTask {
    type Output = Result<()>;
    fn run<G: GameEntry>(self, start: G) -> Result<()> {
        let mut state = start;
        for (ply, (line, text)) in self.moves.iter().enumerate() {
            let mv = state
                .parse_move(text)
                .map_err(|e| anyhow!("{}: line {line}: ply {}: {e}", self.source, ply + 1))?;
            state.apply(mv);
        }
        print!("{}", state.board_dump());
        match state.outcome() {
            Some(outcome) => println!("result: {} ({})", outcome.winner_label(), outcome.reason),
            None => println!("result: unfinished"),
        }
        Ok(())
    }
}

/// `arbiter replay`.
pub fn replay(game: &str, file: &Path) -> Result<()> {
    let spec = parse_game(game)?;
    let (source, text) = if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("standard input")?;
        ("<stdin>".to_string(), text)
    } else {
        let text = std::fs::read_to_string(file)
            .map_err(|e| anyhow!("{}: cannot read: {e}", file.display()))?;
        (file.display().to_string(), text)
    };
    dispatch(
        spec,
        ReplayTask {
            moves: read_moves(&text),
            source,
        },
    )
}

/// `arbiter list`.
pub fn list(agents: &Path) -> Result<()> {
    println!("games:");
    for game in GAMES {
        println!("  {}  ({})", game.name, game.params);
    }
    println!("\nalgorithms:");
    for algorithm in Algorithm::ALL {
        let keys = if algorithm.searches() {
            "heuristic=H, depth=D (default 3, 1-12), time_ms=N (iterative deepening)"
        } else if algorithm == Algorithm::Beam {
            "heuristic=H, depth=D own moves (default 3, 0-12), k (default 4), gamma (default 1), time_ms=N"
        } else if algorithm.uses_heuristic() {
            "heuristic=H"
        } else {
            "no parameters"
        };
        println!(
            "  {:<17} {}; {keys}",
            algorithm.name(),
            algorithm.describe()
        );
    }
    for game in GAMES {
        println!(
            "\nheuristics for {} (extra keys of an agent spec set parameters):",
            game.name
        );
        for heuristic in game.heuristics {
            println!("  {}", heuristic);
            for param in heuristic.params {
                println!("      {}={}  {}", param.key, param.default, param.help);
            }
        }
    }
    println!("\nflow free solvers (arbiter solve, kind = \"puzzles\"):");
    for solver in crate::csp::flow::Solver::ALL {
        println!("  {:<9} {}", solver.name(), solver.describe());
    }
    println!("\nword sudoku solvers (arbiter solve --bank, word_solvers):");
    for solver in [
        crate::csp::word_sudoku::Solver::Heuristic,
        crate::csp::word_sudoku::Solver::Plain,
    ] {
        println!("  {:<9} {}", solver.name(), solver.describe());
    }
    println!(
        "  {:<9} as few words as possible (decoy banks): branch and bound to a proven minimum",
        "fewest"
    );
    let registry = AgentRegistry::load(agents)?;
    println!("\nregistered agents ({}):", agents.display());
    if registry.agents.is_empty() {
        println!("  none");
    }
    for (name, agent) in &registry.agents {
        println!(
            "  {name:<24} {}  [{}]",
            agent.spec.canonical(),
            agent.file.display()
        );
    }
    Ok(())
}
