//! Search comparisons: the positions are the plan, a job searches one position with every
//! algorithm and depth, and search.csv and search_summary.csv are its files.

use super::games::LOGS_FOLDER;
use super::{Error, Finished, Kind, Task, Work, execute};
use crate::core::{GameContext, Limits, read_moves, seeds};
use crate::games::random_positions;
use crate::records::Meta;
use crate::records::Reporter;
use crate::records::search::{PositionRecord, SearchCsv, SearchRow};
use crate::registry::search_experiment::{PositionSource, at_depth};
use crate::registry::{AgentFactory, GameEntry, GameTask, SearchExperiment};
use crate::tournament::compare::{SearchRun, search_position};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

/// An external program asked to search one depth (its `depth` option), or an agent with
/// a budget and no depth (MCTS: `depth` is `None`, the row says how deep its tree grew).
struct Program<G> {
    name: String,
    depth: Option<u32>,
    factory: AgentFactory<G>,
}

/// A search comparison ready to run on game `G`.
struct Search<'a, G: GameEntry> {
    experiment: &'a SearchExperiment,
    positions: Vec<G>,
    heuristic: G::Heuristic,
    runs: Vec<SearchRun>,
    programs: Vec<Program<G>>,
    /// Why the external programs search no more positions, once one failed.
    broken: OnceLock<String>,
    /// Where the programs' stderr goes (`logs/` of the results folder).
    logs: Option<PathBuf>,
    /// Ctrl-C stops a search in progress.
    limits: Limits,
}

impl<G: GameEntry> Work for Search<'_, G> {
    type Record = PositionRecord;

    fn jobs(&self) -> u64 {
        self.positions.len() as u64
    }

    fn execute(&self, id: u64) -> Option<PositionRecord> {
        let position = id as usize;
        let records = search_position(
            &self.positions[position],
            position,
            &self.heuristic,
            &self.runs,
            self.experiment.seed,
            &self.limits,
        )?;
        let mut rows: Vec<SearchRow> = records.iter().map(SearchRow::from_record).collect();
        let position_seed = seeds::derive(self.experiment.seed, &[id]);
        for program in &self.programs {
            rows.push(self.ask(program, &self.positions[position], id, position_seed)?);
        }
        Some(PositionRecord { position: id, rows })
    }

    fn runnable(&self, _id: u64) -> bool {
        self.broken.get().is_none()
    }
}

impl<G: GameEntry> Search<'_, G> {
    /// `program`'s move in `state` (position `id`), as a row with the nodes it reported;
    /// `None` when stopped, or when it failed: then no program searches any more positions
    /// (the run ends incomplete, and resumes once the program is fixed).
    fn ask(&self, program: &Program<G>, state: &G, id: u64, seed: u64) -> Option<SearchRow> {
        let mut agent = (program.factory)(seed);
        let context = GameContext {
            id,
            seat: state.to_move(),
            seed,
            opening: "",
            move_time: None,
            logs: self.logs.as_deref(),
        };
        if let Some(reason) = crate::core::stuck(state) {
            let _ = self.broken.set(format!(
                "position {id} has no legal move though it is not over ({reason}: the game's rules program failed); no more positions are searched: fix it and resume"
            ));
            return None;
        }
        agent.start_game(state, &context);
        let clock = Instant::now();
        let decision = agent.decide(state, &self.limits);
        let nanos = clock.elapsed().as_nanos() as u64;
        agent.end_game(None, "compared");
        if self.limits.reached() {
            return None;
        }
        if let Some(why) = agent.broken() {
            let _ = self.broken.set(why);
            return None;
        }
        if let Some(fault) = decision.fault {
            let _ = self.broken.set(format!(
                "program '{}' failed on position {id} at depth {} ({}: see {LOGS_FOLDER}/{}/{id}.stderr); no more positions are searched: fix it and resume",
                program.name,
                program.depth.unwrap_or(0),
                fault.reason.name(),
                crate::external::log_folder_name(&program.name),
            ));
            return None;
        }
        let stats = &decision.stats;
        // A built-in agent's nodes per level, as for the other algorithms; a program
        // reports totals only.
        let nodes_by_level = match program.depth {
            Some(_) => String::new(),
            None => (0..stats.levels_used())
                .map(|l| (stats.expanded_by_level[l] + stats.evaluated_by_level[l]).to_string())
                .collect::<Vec<_>>()
                .join(";"),
        };
        Some(SearchRow {
            position: id as usize,
            algorithm: program.name.clone(),
            depth: program.depth.unwrap_or(decision.depth),
            mv: state.format_move(decision.mv),
            value: decision.value,
            expanded: stats.expanded,
            evaluated: stats.evaluated,
            generated: stats.generated,
            cache_hits: stats.cache_hits,
            nodes_by_level,
            ms: (nanos as f64 / 1e2).round() / 1e4,
        })
    }
}

impl<G: GameEntry> Kind for Search<'_, G> {
    fn unit(&self) -> &'static str {
        "positions"
    }

    fn describe(&self) -> String {
        format!(
            "{} searches x {} positions of {}",
            self.runs.len() + self.programs.len(),
            self.positions.len(),
            self.experiment.game
        )
    }

    fn recorder(&self, folder: &Path) -> io::Result<Box<dyn Reporter<PositionRecord> + '_>> {
        Ok(Box::new(SearchCsv::create(folder)?))
    }

    fn notes(&self) -> Vec<String> {
        self.broken.get().cloned().into_iter().collect()
    }
}

/// Positions from an earlier run's games.csv: for each game in turn, the position after a
/// seeded number of its moves (within `min..=max` plies when the game is long enough).
fn positions_from_games<G: GameEntry>(
    start: &G,
    path: &std::path::Path,
    count: usize,
    seed: u64,
) -> Result<Vec<G>, String> {
    let games: Vec<Vec<String>> = crate::records::games_csv_moves(path)?
        .iter()
        .map(|moves| read_moves(moves).into_iter().map(|(_, m)| m).collect())
        .collect();
    if games.iter().all(|g| g.len() < 2) {
        return Err(format!(
            "{}: no game with moves to take positions from",
            path.display()
        ));
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
                .map_err(|e| format!("{}: a game's ply {}: {e}", path.display(), ply + 1))?;
            state.apply(mv);
        }
        if state.outcome().is_none() {
            positions.push(state);
        }
    }
    Ok(positions)
}

/// Runs a search comparison on the game type chosen by [`crate::registry::dispatch`].
impl GameTask for Task<'_, SearchExperiment> {
    type Output = Result<Finished, Error>;

    fn run<G: GameEntry>(self, start_position: G) -> Result<Finished, Error> {
        crate::registry::two_players(&start_position, "a search comparison")?;
        let Task {
            experiment,
            start,
            options,
        } = self;
        let heuristic = experiment.heuristic_for(&start_position)?;
        let positions = match &experiment.source_of_positions {
            PositionSource::Random {
                min_plies,
                max_plies,
            } => random_positions(
                &start_position,
                experiment.positions,
                *min_plies,
                *max_plies,
                experiment.seed,
            ),
            PositionSource::Games(path) => {
                positions_from_games(&start_position, path, experiment.positions, experiment.seed)?
            }
        };
        let runs: Vec<SearchRun> = experiment
            .runs
            .iter()
            .map(|&(algorithm, depth)| SearchRun { algorithm, depth })
            .collect();
        let mut programs = Vec::new();
        for (spec, depths) in &experiment.programs {
            for &depth in depths {
                programs.push(Program {
                    name: spec.name.clone(),
                    depth: Some(depth),
                    factory: at_depth(spec, depth)
                        .factory(&start_position)
                        .map_err(|e| Error::Message(format!("program '{}': {e}", spec.name)))?,
                });
            }
        }
        for spec in &experiment.mcts {
            programs.push(Program {
                name: spec.name.clone(),
                depth: None,
                factory: spec
                    .factory(&start_position)
                    .map_err(|e| Error::Message(e.message))?,
            });
        }
        let mut search = Search {
            experiment: &experiment,
            positions,
            heuristic,
            runs,
            programs,
            broken: OnceLock::new(),
            logs: None,
            limits: Limits {
                deadline: None,
                stop: Some(super::interrupt_flag()),
            },
        };
        let (folder, meta) = start.open(&experiment.name, options.quiet, || Meta {
            agents: search
                .runs
                .iter()
                .map(|r| {
                    (
                        format!("{} depth {}", r.algorithm, r.depth),
                        experiment.heuristic.to_string(),
                    )
                })
                // Programs as registered, so that a resume runs them as they were.
                .chain(
                    experiment
                        .programs
                        .iter()
                        .map(|(spec, _)| (spec.name.clone(), spec.canonical())),
                )
                .collect(),
            deterministic: experiment.programs.is_empty(),
            timing_columns: vec!["ms".to_string(), "mean_ms".to_string()],
            ..super::game_meta!(experiment, crate::records::RunKind::Search, options.threads)
        })?;
        search.logs = Some(folder.join(LOGS_FOLDER));
        execute(&search, &folder, meta, options)
    }
}
