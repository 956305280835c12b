//! Table experiments (`kind = "tables"`): games of two to six players, each table's agents
//! seated in every rotation of the seats on the same deals, for standings by place, return
//! and Plackett-Luce rating.

use super::experiment::{Located, OpeningsTable, openings_spec};
use super::{AgentFactory, AgentRegistry, AgentSpec, GameEntry, GameSpec, InputError, OpeningSpec};
use super::{line_of_key, line_of_string, toml_error};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Deals per table when the file does not say.
pub const DEFAULT_DEALS: u64 = 10;
/// The most tables a `round_robin` may make.
pub const MAX_TABLES: usize = 10_000;

/// A validated table experiment.
#[derive(Clone, Debug)]
pub struct TableExperiment {
    /// Name (results folder).
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file.
    pub path: PathBuf,
    /// The file's text.
    pub source: String,
    /// The game.
    pub game: GameSpec,
    /// The experiment seed.
    pub seed: u64,
    /// Distinct agents, in order of first appearance.
    pub agents: Vec<AgentSpec>,
    /// Each agent as written in the file.
    pub agent_texts: Vec<String>,
    /// Each table's agents (indices into `agents`), in the order written: the first sits
    /// in seat P1 in rotation 0.
    pub tables: Vec<Vec<usize>>,
    /// Whether the tables are every group of the `round_robin` list (else listed).
    pub round_robin: bool,
    /// Deals per table: each deal is played once in every rotation of the seats.
    pub deals: u64,
    /// Plies after which the harness stops a game (all players tied).
    pub max_plies: u32,
    /// Time per move, if limited.
    pub move_time_ms: Option<u64>,
    /// Where the games start: a deal's opening serves all its rotations.
    pub openings: OpeningSpec,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TableFile {
    #[allow(dead_code)]
    kind: String,
    name: Option<String>,
    description: Option<String>,
    game: String,
    seed: Option<u64>,
    deals: Option<i64>,
    #[serde(default)]
    tables: Vec<Vec<String>>,
    #[serde(default)]
    round_robin: Vec<String>,
    max_plies: Option<i64>,
    move_time_ms: Option<i64>,
    openings: Option<OpeningsTable>,
}

impl TableExperiment {
    /// Validates a table experiment read from `path`. The seat count is the game's, known
    /// once the game is built: [`TableExperiment::seat`] checks the tables against it.
    ///
    /// # Errors
    /// A malformed file or a value that does not fit, naming the line.
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<TableExperiment, InputError> {
        let file: TableFile = toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let at = Located {
            path,
            source: &source,
        };
        let fail = |line: Option<usize>, message: String| at.fail(line, message);
        let at_key = |key: &str| at.key(key);
        let game = at.game(registry, &file.game)?;
        let deals = at.count("deals", file.deals, DEFAULT_DEALS, 1_000_000)?;
        let max_plies = at.count(
            "max_plies",
            file.max_plies,
            u64::from(super::experiment::DEFAULT_MAX_PLIES),
            1_000_000,
        )? as u32;
        let move_time_ms = at.move_time_ms(file.move_time_ms)?;
        let openings = openings_spec(file.openings.as_ref(), path)
            .map_err(|e| fail(at_key("openings"), e.message))?;
        let name = super::run_name(file.name.clone(), path, "experiment")
            .map_err(|e| fail(at_key("name"), e.message))?;
        let mut agents: Vec<AgentSpec> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        let mut index_of = |text: &str| -> Result<usize, InputError> {
            if let Some(i) = texts.iter().position(|t| t == text) {
                return Ok(i);
            }
            let spec = registry
                .resolve(text)
                .map_err(|e| fail(line_of_string(&source, text), e.message))?;
            if let Some(other) = agents.iter().find(|a| a.name == spec.name && **a != spec) {
                return Err(fail(
                    line_of_string(&source, text),
                    format!("two different agents are both named '{}'", other.name),
                ));
            }
            texts.push(text.to_string());
            agents.push(spec);
            Ok(agents.len() - 1)
        };
        let (tables, round_robin) = match (file.tables.is_empty(), file.round_robin.is_empty()) {
            (false, true) => {
                let mut tables = Vec::new();
                for table in &file.tables {
                    let seated: Vec<usize> = table
                        .iter()
                        .map(|t| index_of(t))
                        .collect::<Result<_, _>>()?;
                    tables.push(seated);
                }
                (tables, false)
            }
            (true, false) => {
                let members: Vec<usize> = file
                    .round_robin
                    .iter()
                    .map(|t| index_of(t))
                    .collect::<Result<_, _>>()?;
                // The groups are made once the game's seat count is known.
                (vec![members], true)
            }
            (false, false) => {
                return Err(fail(
                    at_key("round_robin"),
                    "give tables or round_robin, not both".to_string(),
                ));
            }
            (true, true) => {
                return Err(fail(
                    None,
                    "no tables: give tables = [[\"a\", \"b\", \"c\"], ...] (one agent a seat) or round_robin = [\"a\", \"b\", \"c\", ...] (every table of the game's seat count from them)".to_string(),
                ));
            }
        };
        Ok(TableExperiment {
            name,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source,
            game,
            seed: file.seed.unwrap_or(1),
            agents,
            agent_texts: texts,
            tables,
            round_robin,
            deals,
            max_plies,
            move_time_ms,
            openings,
        })
    }

    /// Fits the tables to a game of `seats` players: a round robin becomes every group of
    /// `seats` of its agents; listed tables must seat exactly `seats` (an agent may sit at
    /// a table more than once: each copy has its own seed).
    ///
    /// # Errors
    /// A table of another size, a round robin too small or too big, naming the line.
    pub fn seat(&mut self, seats: usize) -> Result<(), InputError> {
        let fail = |key: &str, message: String| {
            InputError::in_file(&self.path, line_of_key(&self.source, key), message)
        };
        let game = self.game.to_string();
        if self.round_robin {
            let members = self.tables[0].clone();
            if members.len() < seats {
                return Err(fail(
                    "round_robin",
                    format!(
                        "'{game}' seats {seats} players: the round robin needs at least {seats} agents, found {}",
                        members.len()
                    ),
                ));
            }
            let tables = groups(&members, seats, MAX_TABLES + 1);
            if tables.len() > MAX_TABLES {
                return Err(fail(
                    "round_robin",
                    format!(
                        "{} agents make more than {MAX_TABLES} tables of {seats}: list the tables instead",
                        members.len()
                    ),
                ));
            }
            self.tables = tables;
            return Ok(());
        }
        for table in &self.tables {
            let names: Vec<&str> = table
                .iter()
                .map(|&a| self.agent_texts[a].as_str())
                .collect();
            if table.len() != seats {
                return Err(fail(
                    "tables",
                    format!(
                        "'{game}' seats {seats} players, but table [{}] seats {}",
                        names.join(", "),
                        table.len()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A factory for each agent, each checked to play `game`.
    ///
    /// # Errors
    /// An agent that cannot play the game (a two-player search at a bigger table), naming
    /// the line that names it.
    pub fn factories<G: GameEntry>(&self, game: &G) -> Result<Vec<AgentFactory<G>>, InputError> {
        let at = Located {
            path: &self.path,
            source: &self.source,
        };
        at.factories(&self.agents, &self.agent_texts, game)
    }

    /// A table's agents by name, `a, b, c`.
    pub fn table_label(&self, table: usize) -> String {
        self.tables[table]
            .iter()
            .map(|&a| self.agents[a].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Every group of `size` of `members`, in order (at most `limit` of them).
fn groups(members: &[usize], size: usize, limit: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick: Vec<usize> = (0..size).collect();
    if size == 0 || size > members.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| members[i]).collect());
        if out.len() >= limit {
            return out;
        }
        // The next combination: the rightmost index that can move, moved, the rest after it.
        let Some(i) = (0..size)
            .rev()
            .find(|&i| pick[i] < members.len() - size + i)
        else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..size {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<TableExperiment, InputError> {
        let registry = AgentRegistry::default();
        TableExperiment::parse(Path::new("t.toml"), text.to_string(), &registry)
    }

    #[test]
    fn a_round_robin_makes_every_table_of_the_seat_count() {
        let mut e = parse(
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\nround_robin = [\"random\", \"greedy(heuristic=distance)\", \"mcts\", \"maxn(heuristic=distance)\"]\n",
        )
        .unwrap();
        e.seat(3).unwrap();
        assert_eq!(
            e.tables,
            vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]]
        );
        assert_eq!(e.deals, DEFAULT_DEALS);
        assert_eq!(groups(&[0, 1, 2, 3, 4, 5], 6, 100).len(), 1);
        assert_eq!(groups(&[0, 1, 2, 3, 4, 5, 6], 3, 100).len(), 35);
    }

    #[test]
    fn tables_that_do_not_fit_the_game_are_refused_with_their_line() {
        let text = "kind = \"tables\"\ngame = \"chinese-checkers-star(players=4)\"\ntables = [[\"random\", \"greedy\", \"mcts\"]]\n";
        let mut e = parse(text).unwrap();
        let error = e.seat(4).unwrap_err();
        assert_eq!(error.line, Some(3));
        assert!(
            error
                .message
                .contains("seats 4 players, but table [random, greedy, mcts] seats 3"),
            "{error}"
        );
        // One agent may take several seats: mcts against two copies of random.
        let text = "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\ntables = [[\"random\", \"mcts\", \"random\"]]\n";
        let mut e = parse(text).unwrap();
        e.seat(3).unwrap();
        assert_eq!(e.tables, vec![vec![0, 1, 0]]);
        let error =
            parse("kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\n").unwrap_err();
        assert!(error.message.starts_with("no tables"), "{error}");
        let error = parse(
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\nround_robin = [\"random\"]\ndeals = 0\n",
        )
        .unwrap_err();
        assert_eq!(error.line, Some(4));
        assert!(
            error.message.contains("deals = 0: must be from 1"),
            "{error}"
        );
        let mut e = parse(
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\nround_robin = [\"random\", \"greedy\"]\n",
        )
        .unwrap();
        let error = e.seat(3).unwrap_err();
        assert!(
            error.message.contains("needs at least 3 agents, found 2"),
            "{error}"
        );
        let error =
            parse("kind = \"tables\"\ngame = \"star\"\nround_robin = [\"random\"]\n").unwrap_err();
        assert_eq!(error.line, Some(2));
    }
}
