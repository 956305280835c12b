//! Experiment files (`matchups/*.toml`): a game, agents paired in matchups, how many
//! games, the seed and the colour policy.

use super::{AgentFactory, AgentRegistry, AgentSpec, GameEntry, GameSpec, InputError};
use super::{line_of_string, toml_error};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Games per matchup when the file does not say.
pub const DEFAULT_GAMES: u64 = 100;
/// The most games per matchup accepted.
pub const MAX_GAMES: u64 = 10_000_000;
/// The harness's safety cap on game length (adjudicated a draw) when the file does not say.
pub const DEFAULT_MAX_PLIES: u32 = 1000;

/// Who plays P1 in each game of a matchup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colours {
    /// The matchup's two agents take turns as P1: the first in even games, the second in
    /// odd games (so each plays P1 in half the games).
    Alternate,
    /// The first agent listed always plays P1, as in the reports' tables.
    AsListed,
}

impl Colours {
    /// The name in experiment files.
    pub fn name(self) -> &'static str {
        match self {
            Colours::Alternate => "alternate",
            Colours::AsListed => "as-listed",
        }
    }
}

/// One matchup: two agents (indices into [`Experiment::agents`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchupSpec {
    /// The two agents, in the order written.
    pub agents: [usize; 2],
}

/// A validated experiment.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The experiment's name (the file's stem unless `name` is set): the results folder.
    pub name: String,
    /// Free text.
    pub description: String,
    /// The file it was read from.
    pub path: PathBuf,
    /// The file's text, kept for meta.json.
    pub source: String,
    /// The game and its parameters.
    pub game: GameSpec,
    /// Games per matchup.
    pub games_per_matchup: u64,
    /// The experiment seed.
    pub seed: u64,
    /// The colour policy.
    pub colours: Colours,
    /// Plies after which a game is stopped and scored a draw.
    pub max_plies: u32,
    /// Distinct agents, in order of first appearance.
    pub agents: Vec<AgentSpec>,
    /// Each agent as written in the file (a registered name or an inline spec).
    pub agent_texts: Vec<String>,
    /// The matchups: explicit pairs first, then the round robin's pairs.
    pub matchups: Vec<MatchupSpec>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    name: Option<String>,
    description: Option<String>,
    game: String,
    games: Option<i64>,
    seed: Option<u64>,
    colours: Option<String>,
    max_plies: Option<i64>,
    #[serde(default)]
    matchups: Vec<Vec<String>>,
    #[serde(default)]
    round_robin: Vec<String>,
}

impl Experiment {
    /// Reads and validates an experiment file; agent names are looked up in `registry`.
    ///
    /// # Errors
    /// An unreadable or malformed file, or a value that does not fit, naming the line.
    pub fn load(path: &Path, registry: &AgentRegistry) -> Result<Experiment, InputError> {
        let source = std::fs::read_to_string(path)
            .map_err(|e| InputError::in_file(path, None, format!("cannot read: {e}")))?;
        Experiment::parse(path, source, registry)
    }

    /// Validates the text of an experiment file read from `path`.
    ///
    /// # Errors
    /// As [`Experiment::load`].
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<Experiment, InputError> {
        let file: ExperimentFile =
            toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        let at_key = |key: &str| {
            source
                .lines()
                .position(|l| l.trim_start().starts_with(key))
                .map(|i| i + 1)
        };
        let fail = |line: Option<usize>, message: String| InputError::in_file(path, line, message);
        let game: GameSpec = file
            .game
            .parse()
            .map_err(|e: String| fail(at_key("game"), e))?;
        let games = file.games.unwrap_or(DEFAULT_GAMES as i64);
        if games < 1 || games as u64 > MAX_GAMES {
            return Err(fail(
                at_key("games"),
                format!("games = {games}: must be from 1 to {MAX_GAMES} games per matchup"),
            ));
        }
        let max_plies = file.max_plies.unwrap_or(i64::from(DEFAULT_MAX_PLIES));
        if !(1..=100_000).contains(&max_plies) {
            return Err(fail(
                at_key("max_plies"),
                format!("max_plies = {max_plies}: must be from 1 to 100000"),
            ));
        }
        let colours = match file.colours.as_deref() {
            None | Some("alternate") => Colours::Alternate,
            Some("as-listed") => Colours::AsListed,
            Some(other) => {
                return Err(fail(
                    at_key("colours"),
                    format!("colours = '{other}': expected 'alternate' or 'as-listed'"),
                ));
            }
        };
        let name = match file.name {
            Some(name) => name,
            None => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "experiment".to_string()),
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
        {
            return Err(fail(
                at_key("name"),
                format!(
                    "name '{name}' must be letters, digits, '-', '_' or '.' (it names the results folder)"
                ),
            ));
        }

        let mut agents: Vec<AgentSpec> = Vec::new();
        let mut texts: Vec<String> = Vec::new();
        let mut index_of = |text: &str| -> Result<usize, InputError> {
            if let Some(i) = texts.iter().position(|t| t == text) {
                return Ok(i);
            }
            let spec = registry
                .resolve(text)
                .map_err(|e| fail(line_of_string(&source, text), e))?;
            texts.push(text.to_string());
            agents.push(spec);
            Ok(agents.len() - 1)
        };
        let mut matchups = Vec::new();
        for pair in &file.matchups {
            if pair.len() != 2 {
                return Err(fail(
                    at_key("matchups"),
                    format!(
                        "each matchup lists exactly two agents, found {}: {pair:?}",
                        pair.len()
                    ),
                ));
            }
            matchups.push(MatchupSpec {
                agents: [index_of(&pair[0])?, index_of(&pair[1])?],
            });
        }
        if file.round_robin.len() == 1 {
            return Err(fail(
                at_key("round_robin"),
                "a round robin needs at least two agents".to_string(),
            ));
        }
        let members: Vec<usize> = file
            .round_robin
            .iter()
            .map(|t| index_of(t))
            .collect::<Result<_, _>>()?;
        for (i, &a) in members.iter().enumerate() {
            for &b in &members[i + 1..] {
                if a == b {
                    return Err(fail(
                        at_key("round_robin"),
                        format!("agent '{}' is listed twice in round_robin", texts[a]),
                    ));
                }
                matchups.push(MatchupSpec { agents: [a, b] });
            }
        }
        if matchups.is_empty() {
            return Err(fail(
                None,
                "no matchups: give matchups = [[\"a\", \"b\"], ...] or round_robin = [\"a\", \"b\", ...]".to_string(),
            ));
        }
        // Agents with the same display name must be the same agent.
        for (i, a) in agents.iter().enumerate() {
            if let Some(b) = agents[..i].iter().find(|b| b.name == a.name && *b != a) {
                return Err(fail(
                    line_of_string(&source, &a.name),
                    format!("two different agents are both named '{}'", b.name),
                ));
            }
        }
        Ok(Experiment {
            name,
            description: file.description.unwrap_or_default(),
            path: path.to_path_buf(),
            source,
            game,
            games_per_matchup: games as u64,
            seed: file.seed.unwrap_or(1),
            colours,
            max_plies: max_plies as u32,
            agents,
            agent_texts: texts,
            matchups,
        })
    }

    /// Checks every agent against game `G` and returns their factories, in agent order.
    ///
    /// # Errors
    /// The first agent whose heuristic or parameters do not fit the game, naming the line.
    pub fn factories<G: GameEntry>(&self) -> Result<Vec<AgentFactory<G>>, InputError> {
        self.agents
            .iter()
            .zip(&self.agent_texts)
            .map(|(agent, text)| {
                agent.factory::<G>().map_err(|e| {
                    InputError::in_file(
                        &self.path,
                        line_of_string(&self.source, text),
                        format!("agent '{text}': {e}"),
                    )
                })
            })
            .collect()
    }

    /// A matchup's label, e.g. `ab4-off2 vs ab4-def1`.
    pub fn matchup_label(&self, index: usize) -> String {
        let [a, b] = self.matchups[index].agents;
        format!("{} vs {}", self.agents[a].name, self.agents[b].name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Experiment, String> {
        Experiment::parse(
            Path::new("m.toml"),
            text.to_string(),
            &AgentRegistry::default(),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn explicit_pairs_and_round_robin_make_matchups() {
        let e = parse(
            "game = \"breakthrough(rules=long)\"\ngames = 4\nseed = 9\nmatchups = [[\"random\", \"greedy(heuristic=offense)\"]]\nround_robin = [\"random\", \"minimax(heuristic=defense,depth=2)\", \"alphabeta(heuristic=offense,depth=2)\"]\n",
        )
        .expect("valid");
        assert_eq!(e.name, "m");
        assert_eq!(e.games_per_matchup, 4);
        assert_eq!(e.seed, 9);
        assert_eq!(e.colours, Colours::Alternate);
        assert_eq!(e.agents.len(), 4);
        let pairs: Vec<[usize; 2]> = e.matchups.iter().map(|m| m.agents).collect();
        assert_eq!(pairs, vec![[0, 1], [0, 2], [0, 3], [2, 3]]);
        assert_eq!(e.matchup_label(0), "random vs greedy(heuristic=offense)");
        assert!(
            e.factories::<crate::games::breakthrough::Breakthrough>()
                .is_ok()
        );
    }

    #[test]
    fn bad_experiments_name_the_line_and_problem() {
        let ok = "matchups = [[\"random\", \"random\"]]\n";
        let err = |t: &str| parse(t).expect_err(t);
        assert!(err(&format!("game = \"go\"\n{ok}")).contains("m.toml: line 1: unknown game 'go'"));
        assert!(
            err(&format!("game = \"breakthrough\"\ngames = 0\n{ok}"))
                .contains("line 2: games = 0: must be from 1")
        );
        assert!(
            err(&format!("game = \"breakthrough\"\ncolours = \"x\"\n{ok}"))
                .contains("line 2: colours = 'x'")
        );
        assert!(err("game = \"breakthrough\"\n").contains("no matchups"));
        assert!(
            err("game = \"breakthrough\"\nmatchups = [[\"random\"]]\n")
                .contains("exactly two agents")
        );
        assert!(
            err("game = \"breakthrough\"\nround_robin = [\"random\"]\n").contains("at least two")
        );
        assert!(
            err("game = \"breakthrough\"\n\nmatchups = [[\"random\", \"nobody\"]]\n")
                .contains("line 3: unknown agent 'nobody'")
        );
        assert!(err("game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=offense,depth=0)\"]]\n")
            .contains("from 1 to 12"));
        assert!(err("game = \"breakthrough\nmatchups = 3\n").contains("line 1: malformed TOML"));
        assert!(
            err(&format!("game = \"breakthrough\"\ngame_count = 3\n{ok}"))
                .contains("line 2: malformed TOML: unknown field `game_count`")
        );
        let bad_heuristic = parse(
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=material2)\"]]\n",
        )
        .expect("syntax is fine");
        let message = bad_heuristic
            .factories::<crate::games::breakthrough::Breakthrough>()
            .err()
            .expect("unknown heuristic")
            .to_string();
        assert!(
            message.contains("m.toml: line 2: agent 'minimax(heuristic=material2)"),
            "{message}"
        );
    }
}
