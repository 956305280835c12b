//! `arbiter show`, `perft`, `replay` and `list`.

use crate::experiment::inspect;
use crate::experiment::launch::parse_game;
use crate::records::loaded::resolve_run_folder;
use crate::registry::GAMES;
use crate::search::Algorithm;
use anyhow::{Context, Result, anyhow};
use std::io::Read;
use std::path::Path;

/// `arbiter report`.
pub fn report(folder: &Path, game: Option<u64>) -> Result<()> {
    for path in inspect::report_files(folder, game)? {
        println!("{}", path.display());
    }
    Ok(())
}

/// `arbiter fit`.
pub fn fit(folder: &Path, from_ply: usize, iterations: usize) -> Result<()> {
    let folder = resolve_run_folder(folder).map_err(|e| anyhow!(e))?;
    let fitted =
        crate::records::fit::fit_run(&folder, from_ply, iterations).map_err(|e| anyhow!(e))?;
    let path = crate::records::fit::write_fit(&folder, &fitted).map_err(|e| anyhow!(e))?;
    let fit = &fitted.fit;
    println!(
        "{} positions of {} games (from ply {from_ply}): cross-entropy {:.4} against {:.4} for the base rate alone",
        fitted.positions, fitted.games, fit.loss, fit.base_loss
    );
    println!("weights (hundredths of a logit per unit, for the side to move):");
    for (name, w) in fitted.names.iter().zip(&fit.weights) {
        println!("  {name:<26} {:>10.2}", w * 100.0);
    }
    println!("heuristic: {}", fitted.heuristic());
    // The heuristic's form does not go into an agent spec as it is: a ready spec does.
    println!("agent: {}", fitted.agent());
    println!("{}", path.display());
    Ok(())
}

/// `arbiter show`.
pub fn show(folder: &Path, json: bool) -> Result<()> {
    if json {
        let summary = inspect::show_json(folder)?;
        println!("{}", serde_json::to_string_pretty(&summary)?);
        return Ok(());
    }
    // The header first: a run stopped before writing its tables still says what it is.
    let (header, run) = inspect::header_and_run(folder)?;
    print!("{header}");
    print!(
        "{}",
        run.and_then(|run| crate::documents::show::tables(&run))
            .map_err(|e| anyhow!(e))?
    );
    Ok(())
}

/// The leaves of the legal-move tree of `game` at depths 1 to `depth`.
///
/// # Errors
/// As [`crate::experiment::tools::perft_counts`].
pub fn perft_counts(game: &str, depth: u32, agents: Option<&Path>) -> Result<Vec<u64>> {
    Ok(crate::experiment::tools::perft_counts(game, depth, agents)?)
}

/// `arbiter perft`.
pub fn perft(game: &str, depth: u32, agents: Option<&Path>) -> Result<()> {
    for (depth, leaves) in perft_counts(game, depth, agents)?.iter().enumerate() {
        println!("perft({}) = {leaves}", depth + 1);
    }
    Ok(())
}

/// `arbiter replay`.
pub fn replay(
    game: &str,
    file: &Path,
    steps: Option<usize>,
    id: Option<u64>,
    agents: Option<&Path>,
) -> Result<()> {
    let (source, text) = if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("standard input")?;
        ("<stdin>".to_string(), text)
    } else {
        let text = crate::registry::read_input(file)?;
        (file.display().to_string(), text)
    };
    let replayed = crate::experiment::replay::replay(crate::experiment::replay::ReplayRequest {
        game: game.to_string(),
        source,
        text,
        steps,
        id,
        agents: agents.map(Path::to_path_buf),
    })?;
    for shown in &replayed.shown {
        if shown.ply == 0 {
            println!("ply 0 (start), {} to move", shown.mover);
        } else {
            println!("\nply {}: {} {}", shown.ply, shown.mover, shown.text);
        }
        print!("{}", shown.board);
    }
    match &replayed.last {
        Some(board) => print!("{board}"),
        None => println!(),
    }
    println!("result: {}", replayed.result);
    Ok(())
}

/// `arbiter list`, of every game or of one (`only`: its name, or a spec).
pub fn list(agents: Option<&Path>, only: Option<&str>) -> Result<()> {
    // Read first: a bad agents folder or file is reported before anything is printed.
    let (registry, folder) = super::load_agents(agents, None)?;
    // One game: its name as specs write it, checked (a program game is declared).
    let only = match only {
        Some(text) => {
            let name = text.split('(').next().unwrap_or(text).trim().to_string();
            if !GAMES.iter().any(|g| g.name == name) && !registry.games.contains_key(&name) {
                parse_game(text, &registry)?;
            }
            Some(name)
        }
        None => None,
    };
    let shown = |name: &str| only.as_deref().is_none_or(|o| o == name);
    let program_game = only
        .as_deref()
        .is_some_and(|o| registry.games.contains_key(o));
    println!("games:");
    for game in GAMES.iter().filter(|g| shown(g.name)) {
        println!("  {}  ({})", game.name, game.params);
    }
    if registry.games.keys().any(|name| shown(name)) {
        println!(
            "\ngames served by programs ([[game]] in the agent files; docs/game-protocol.md):"
        );
    }
    for (name, game) in registry.games.iter().filter(|(name, _)| shown(name)) {
        println!(
            "  {name:<24} `{}`{}  [{}]",
            game.spec.command_line(),
            if game.description.is_empty() {
                String::new()
            } else {
                format!(": {}", game.description)
            },
            game.file.display()
        );
    }
    println!("\nalgorithms:");
    for algorithm in Algorithm::ALL {
        let keys = if algorithm == Algorithm::AlphaBetaTt {
            "heuristic=H, depth=D (default 3, 1-12), time_ms=N, nodes=N, tt_mb=MB (table size, default 4), aspiration=W (window half-width, default 0: off)"
        } else if algorithm.searches() {
            "heuristic=H, depth=D (default 3, 1-12), time_ms=N or nodes=N (iterative deepening)"
        } else if algorithm == Algorithm::Beam {
            "heuristic=H, depth=D own moves (default 3, 0-12), k (default 4), gamma (default 1), time_ms=N"
        } else if algorithm == Algorithm::Ismcts {
            "iterations=N (default 1000; 0 with time_ms: as many as fit), time_ms=N, c (default 1.414), rollout=random|heuristic, rollout_plies=N (0: to the end; then the heuristic's sign), epsilon (default 0.1), heuristic=H (for heuristic rollouts and cut-offs), rounds=decoupled|regret|turns (simultaneous moves: each player blind by UCT, the default, or by regret matching, or as moves in turn)"
        } else if algorithm.is_mcts() {
            "iterations=N (default 1000; 0 with time_ms: as many as fit), time_ms=N, c (default 1.414), rollout=random|heuristic, rollout_plies=N (0: to the end; then the heuristic's sign), epsilon (default 0.1), heuristic=H (for heuristic rollouts and cut-offs)"
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
    if only.is_none() || program_game {
        println!(
            "\nheuristics for games served by programs (the default is outcome; linear weighs the features the program names):"
        );
        for heuristic in crate::external::rules_heuristics::HEURISTICS {
            println!("  {heuristic}");
        }
    }
    for game in GAMES.iter().filter(|g| shown(g.name)) {
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
    if only.is_some() {
        // One game: its agents are below; the puzzle solvers belong to no game.
        print_agents(&registry, folder.as_deref());
        return Ok(());
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
    print_agents(&registry, folder.as_deref());
    Ok(())
}

/// The registered agents and named heuristics, for `list`.
fn print_agents(registry: &crate::registry::AgentRegistry, folder: Option<&Path>) {
    println!(
        "\nregistered agents ({}):",
        folder.map_or("no agents/ folder found".to_string(), |f| f
            .display()
            .to_string())
    );
    if registry.agents.is_empty() {
        println!("  none");
    }
    for (name, agent) in &registry.agents {
        println!(
            "  {name:<24} {}  [{}]",
            agent.spec.describe(),
            agent.file.display()
        );
    }
    if !registry.heuristics.is_empty() {
        println!(
            "
named heuristics ([[heuristic]] in the agent files; heuristic=NAME anywhere):"
        );
    }
    for (name, named) in &registry.heuristics {
        let base = crate::registry::spec::Spec {
            name: named.base.clone(),
            params: named.params.clone(),
        };
        println!(
            "  {name:<24} {base}{}{}  [{}]",
            named
                .game
                .as_ref()
                .map_or(String::new(), |g| format!(" for {g}")),
            if named.description.is_empty() {
                String::new()
            } else {
                format!(": {}", named.description)
            },
            named.file.display()
        );
    }
}
