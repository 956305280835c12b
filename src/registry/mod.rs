//! Names to things, using the layers above it but never tournament, report or later: game
//! specs (`breakthrough(rules=long)`), agent specs
//! (`alphabeta(heuristic=offensive2,depth=4)`), the agent files in `agents/` and the
//! experiment files in `matchups/`, each parsed into a validated value. Errors name the
//! file and line they come from.

mod agents;
pub mod experiment;
mod games;
#[cfg(test)]
mod oracle;
pub mod puzzle_experiment;
pub mod reference;
pub mod search_experiment;
pub mod spec;
pub mod submissions;
pub mod table_experiment;
pub mod tune_experiment;

#[cfg(test)]
pub use agents::test_factories;
pub use agents::{
    AgentRegistry, AgentSpec, DEFAULT_DEPTH, agent_identity, agents_folders, fits,
    is_external_spec, load_agents,
};
pub use experiment::{Colours, Experiment, GradeSettings, MatchupSpec, OpeningSpec, SweepInfo};
pub use games::{BuiltIn, GAMES, GameSpec, NoParams, ProgramSpec, dispatch};
pub use search_experiment::SearchExperiment;

/// An experiment file of either kind.
#[derive(Clone, Debug)]
pub enum AnyExperiment {
    /// Games between agents (the default kind).
    Tournament(Box<Experiment>),
    /// Algorithms x depths on the same positions (`kind = "search"`).
    Search(SearchExperiment),
    /// Puzzle solvers x puzzles (`kind = "puzzles"`).
    Puzzles(puzzle_experiment::PuzzleExperiment),
    /// An agent's parameters tuned by SPSA (`kind = "tune"`).
    Tune(Box<tune_experiment::TuneExperiment>),
    /// Games of two to six players at tables, seats rotated (`kind = "tables"`).
    Tables(Box<table_experiment::TableExperiment>),
}

impl AnyExperiment {
    /// The experiment's text as a run keeps it in meta.json.
    pub fn source(&self) -> &str {
        match self {
            AnyExperiment::Tournament(e) => &e.source,
            AnyExperiment::Search(e) => &e.source,
            AnyExperiment::Puzzles(e) => &e.source,
            AnyExperiment::Tune(e) => &e.source,
            AnyExperiment::Tables(e) => &e.source,
        }
    }

    /// Reads an experiment file of either kind (`kind = "tournament"`, the default, or
    /// `kind = "search"`).
    ///
    /// # Errors
    /// An unreadable or malformed file, or a value that does not fit.
    pub fn load(path: &Path, registry: &AgentRegistry) -> Result<AnyExperiment, InputError> {
        let source = read_input(path)?;
        AnyExperiment::parse(path, source, registry)
    }

    /// An experiment of any kind from its text (`path` names it in errors and anchors the
    /// files it refers to).
    ///
    /// # Errors
    /// A malformed text, or a value that does not fit.
    pub fn parse(
        path: &Path,
        source: String,
        registry: &AgentRegistry,
    ) -> Result<AnyExperiment, InputError> {
        let value: toml::Table =
            toml::from_str(&source).map_err(|e| toml_error(path, &source, &e))?;
        match value.get("kind").map(|k| k.as_str()) {
            None | Some(Some("tournament")) => {
                let source = if value.contains_key("kind") {
                    source
                        .lines()
                        .map(|l| {
                            if l.trim_start().starts_with("kind") {
                                ""
                            } else {
                                l
                            }
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                } else {
                    source
                };
                Experiment::parse(path, source, registry)
                    .map(|e| AnyExperiment::Tournament(Box::new(e)))
            }
            Some(Some("search")) => {
                SearchExperiment::parse(path, source, registry).map(AnyExperiment::Search)
            }
            Some(Some("puzzles")) => {
                puzzle_experiment::PuzzleExperiment::parse(path, source).map(AnyExperiment::Puzzles)
            }
            Some(Some("tune")) => tune_experiment::TuneExperiment::parse(path, source, registry)
                .map(|e| AnyExperiment::Tune(Box::new(e))),
            Some(Some("tables")) => {
                table_experiment::TableExperiment::parse(path, source, registry)
                    .map(|e| AnyExperiment::Tables(Box::new(e)))
            }
            _ => {
                let line = line_of_key(&source, "kind");
                Err(InputError::in_file(
                    path,
                    line,
                    "kind must be \"tournament\" (the default), \"search\", \"puzzles\", \"tune\" or \"tables\"",
                ))
            }
        }
    }
}

use crate::core::{ActionEvaluator, Agent, Evaluator, Game, Player};
use crate::evals::{self, HeuristicInfo, ParamError};
use spec::SpecError;
use std::fmt;
use std::path::{Path, PathBuf};

/// Something wrong with user input, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file, if the input came from one.
    pub file: Option<PathBuf>,
    /// The 1-based line, if known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error not tied to a file (e.g. a command-line argument).
    pub fn new(message: impl Into<String>) -> InputError {
        InputError {
            file: None,
            line: None,
            message: message.into(),
        }
    }

    /// An error in `file`, at `line` if known.
    pub fn in_file(
        file: impl AsRef<Path>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> InputError {
        InputError {
            file: Some(file.as_ref().to_path_buf()),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Refuses a game of more than two players for `what` (a match between two agents, the
/// solver, a program's protocol), in one line naming the game.
///
/// # Errors
/// The refusal, when `game` seats more than two.
pub fn two_players<G: GameEntry>(game: &G, what: &str) -> Result<(), InputError> {
    let players = game.players();
    if players == 2 {
        return Ok(());
    }
    Err(InputError::new(format!(
        "'{}' seats {players} player{}, and {what} seats two; play it at tables of {players} in an experiment of kind = \"tables\" (docs/experiments.md)",
        game.game_spec(),
        if players == 1 { "" } else { "s" }
    )))
}

/// An error's line as the layers that still speak in text take it (the documents, the
/// cli's printing): the same words as its `Display`.
impl From<InputError> for String {
    fn from(error: InputError) -> String {
        error.to_string()
    }
}

/// The 1-based line of byte offset `offset` in `text`.
pub fn line_of_offset(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The line where `"needle"` (quoted, as TOML writes strings) first appears in `text`.
pub fn line_of_string(text: &str, needle: &str) -> Option<usize> {
    ["\"", "'"].iter().find_map(|quote| {
        text.find(&format!("{quote}{needle}{quote}"))
            .map(|offset| line_of_offset(text, offset))
    })
}

/// An experiment's name, from its `name` key or else its file's name (`default` when it
/// has none), checked: it names a folder under `results/`, so it is letters, digits, `-`,
/// `_` and `.` and does not start with `.` (no `..`, no path separators, not absolute).
///
/// # Errors
/// What is wrong with the name.
pub(crate) fn run_name(
    name: Option<String>,
    path: &Path,
    default: &str,
) -> Result<String, SpecError> {
    let name = name.unwrap_or_else(|| {
        path.file_stem()
            .map_or(default.to_string(), |s| s.to_string_lossy().into_owned())
    });
    let allowed = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if name.is_empty() || name.starts_with('.') || !allowed {
        return Err(SpecError::at(
            "name",
            format!(
                "name '{name}' must be letters, digits, '-', '_' or '.', not starting with '.' (it names the results folder)"
            ),
        ));
    }
    Ok(name)
}

/// The largest input file arbiter reads (an agent file, an experiment, a manifest).
pub const MAX_INPUT_BYTES: u64 = 16 << 20;

/// The text of an input file, checked before it is opened: a regular file (a symlink to
/// one is followed) of at most [`MAX_INPUT_BYTES`], UTF-8. A FIFO, a device such as
/// `/dev/zero` or a folder is refused in one line instead of hanging or filling memory.
///
/// # Errors
/// Not a regular file, too large, unreadable or not UTF-8: one line naming the file.
pub fn read_input(path: &Path) -> Result<String, InputError> {
    let fail = |why: String| InputError::in_file(path, None, why);
    use std::io::Read;
    let metadata = std::fs::metadata(path).map_err(|e| {
        fail(format!(
            "cannot read: {}",
            crate::core::one_line(&e.to_string())
        ))
    })?;
    if !metadata.is_file() {
        let kind = metadata.file_type();
        let what = {
            use std::os::unix::fs::FileTypeExt;
            if kind.is_dir() {
                "a folder"
            } else if kind.is_fifo() {
                "a FIFO"
            } else if kind.is_char_device() || kind.is_block_device() {
                "a device"
            } else if kind.is_socket() {
                "a socket"
            } else {
                "not a file"
            }
        };
        return Err(fail(format!(
            "cannot read: it is {what}, not a regular file"
        )));
    }
    if metadata.len() > MAX_INPUT_BYTES {
        return Err(fail(format!(
            "cannot read: {} bytes, more than the {} MB an input file may have",
            metadata.len(),
            MAX_INPUT_BYTES >> 20
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| {
        fail(format!(
            "cannot read: {}",
            crate::core::one_line(&e.to_string())
        ))
    })?;
    let mut bytes = Vec::new();
    // The file may have grown since it was measured: never more than the cap.
    file.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| {
            fail(format!(
                "cannot read: {}",
                crate::core::one_line(&e.to_string())
            ))
        })?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(fail(format!(
            "cannot read: more than the {} MB an input file may have",
            MAX_INPUT_BYTES >> 20
        )));
    }
    String::from_utf8(bytes).map_err(|_| fail("cannot read: it is not UTF-8 text".to_string()))
}

/// The first line of `text` that starts with `key` (a TOML key), if any.
pub fn line_of_key(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.trim_start().starts_with(key))
        .map(|i| i + 1)
}

/// A TOML syntax or shape error as one line: the line number and toml's message.
pub fn toml_error(file: &Path, text: &str, error: &toml::de::Error) -> InputError {
    let line = error.span().map(|span| line_of_offset(text, span.start));
    let message = error.message().replace('\n', " ").trim().to_string();
    InputError::in_file(file, line, format!("malformed TOML: {message}"))
}

/// A game as `list` shows it.
pub struct GameInfo {
    /// Name in specs.
    pub name: &'static str,
    /// Parameters, e.g. `rules=standard|three-to-base|long|small`.
    pub params: &'static str,
    /// Heuristics.
    pub heuristics: &'static [HeuristicInfo],
}

/// A game as the registry sees it: how to build its heuristics by name.
pub trait GameEntry: Game {
    /// The game's heuristic type (an enum over its heuristics, so search is
    /// monomorphised on it).
    type Heuristic: Evaluator<Self> + ActionEvaluator<Self> + Clone + Send + Sync + 'static;

    /// The game's heuristics, for messages and `list`.
    fn heuristics() -> &'static [HeuristicInfo];

    /// The heuristic called `name` with parameters, for the game this position belongs to
    /// (a program game's `linear` heuristic weighs the features its program names).
    ///
    /// # Errors
    /// An unknown heuristic, key or value.
    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError>;

    /// The game and rule set of this position, as a spec.
    fn game_spec(&self) -> GameSpec;

    /// The game's named heuristics that the `linear` heuristic can express, each with its
    /// weights (for tests and `arbiter bench`); none by default.
    fn linear_forms() -> &'static [evals::LinearForm] {
        &[]
    }

    /// The names of the features the game's `linear` heuristic weighs, in order.
    fn feature_names(&self) -> Vec<String>;

    /// The board drawn as a grid of cells (the game protocol's `render` reply: `rows` of
    /// symbols, `colors`, labels), for games the report's viewer has no drawing of its own
    /// for; `None` when the game draws none.
    fn render_json(&self) -> Option<serde_json::Value> {
        None
    }

    /// The heuristic an alpha-beta or minimax agent uses when it names none, if the game
    /// has one (a program game's `outcome`); built-in games want one named.
    fn default_heuristic() -> Option<&'static str> {
        None
    }

    /// This position's features for `side`, in the order of [`GameEntry::feature_names`].
    fn features_of(&self, side: Player) -> Vec<f64>;
}

/// Builds an agent for game `G` from a validated spec with its seed.
pub type AgentFactory<G> = Box<dyn Fn(u64) -> Box<dyn Agent<G>> + Send + Sync>;

/// Work to do on a game chosen by name at run time: [`dispatch`] calls `run` with the
/// concrete game type, so everything inside is monomorphised.
pub trait GameTask {
    /// What the work returns.
    type Output;
    /// Does the work on game `G`, starting from `start`.
    fn run<G: GameEntry>(self, start: G) -> Self::Output;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::breakthrough::Rules;

    /// Checks every game's `linear` forms against the named heuristics they stand for.
    struct LinearForms;

    impl GameTask for LinearForms {
        type Output = usize;

        /// The named heuristics and their `linear` forms give the same value (to rounding)
        /// on 3,000 random positions, for either side; returns the forms checked.
        fn run<G: GameEntry>(self, start: G) -> usize {
            let owned = |list: &[(&str, &str)]| -> Vec<(String, String)> {
                list.iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            };
            let positions = crate::games::random_positions(&start, 3000, 0, 80, 23);
            for &(name, weights) in G::linear_forms() {
                let named = start.heuristic(name, &[]).expect("named");
                let linear = start.heuristic("linear", &owned(weights)).expect("linear");
                for state in &positions {
                    for root in [Player::P1, Player::P2] {
                        let (a, b) = (
                            named.evaluate(state, root, 7),
                            linear.evaluate(state, root, 7),
                        );
                        assert!(
                            (a - b).abs() <= 1e-9 * a.abs().max(1.0),
                            "{name} {a} vs linear {b} for {root:?} on {}",
                            start.game_spec()
                        );
                    }
                }
            }
            G::linear_forms().len()
        }
    }

    #[test]
    fn every_game_writes_its_reports_heuristics_as_linear_weights() {
        let checked: Vec<usize> = [
            "breakthrough",
            "breakthrough(rules=long)",
            "wights",
            "chinese-checkers",
            "double-card",
            "connect-four",
            "connect-four(rows=4,columns=9)",
            "othello",
        ]
        .iter()
        .map(|game| dispatch(game.parse().expect("game"), LinearForms))
        .collect();
        assert_eq!(checked, vec![3, 3, 1, 1, 2, 1, 1, 4]);
    }

    #[test]
    fn game_specs_parse_and_print() {
        assert_eq!(
            "breakthrough".parse::<GameSpec>(),
            Ok(GameSpec::Breakthrough(Rules::Standard))
        );
        let long: GameSpec = "breakthrough(rules=long)".parse().expect("valid");
        assert_eq!(long, GameSpec::Breakthrough(Rules::Long));
        assert_eq!(long.to_string(), "breakthrough(rules=long)");
        assert_eq!(long.to_string().parse::<GameSpec>(), Ok(long));
        let err = |t: &str| t.parse::<GameSpec>().expect_err(t).message;
        assert!(err("chess").contains(
            "unknown game 'chess' (known: breakthrough, chinese-checkers, connect-four, othello, double-card, wights, einstein, chinese-checkers-star; a game served by a program is declared as [[game]] in an agent file)"
        ));
        let cc: GameSpec = "chinese-checkers(jumps=short,timeout=random,max_plies=300)"
            .parse()
            .expect("valid");
        assert_eq!(
            cc.to_string(),
            "chinese-checkers(max_plies=300,home_plies=100,jumps=short,timeout=random)"
        );
        assert_eq!(cc.to_string().parse::<GameSpec>(), Ok(cc));
        let star: GameSpec = "chinese-checkers-star(players=6,max_plies=900)"
            .parse()
            .expect("valid");
        assert_eq!(
            star.to_string(),
            "chinese-checkers-star(players=6,max_plies=900)"
        );
        assert_eq!(star.to_string().parse::<GameSpec>(), Ok(star));
        assert_eq!(
            "chinese-checkers-star"
                .parse::<GameSpec>()
                .map(|g| g.to_string()),
            Ok("chinese-checkers-star(players=2)".to_string())
        );
        assert!(err("chinese-checkers(jumps=far)").contains("jumps=far"));
        // A bad parameter's error carries its key, for a file's loader to point at it.
        for (text, key) in [
            ("connect-four(rows=99)", "rows"),
            ("chinese-checkers(max_plies=0)", "max_plies"),
            ("double-card(neighbours_only=2)", "neighbours_only"),
            ("breakthrough(rules=huge)", "rules"),
        ] {
            let error = text.parse::<GameSpec>().expect_err(text);
            assert_eq!(error.key.as_deref(), Some(key), "{text}: {error}");
        }
        assert_eq!(
            err("connect-four(rows=99)"),
            "rows=99: expected 4 to 8",
            "the words as before"
        );
        let dc: GameSpec = "double-card(p1=colors,neighbours_only=1)"
            .parse()
            .expect("valid");
        assert_eq!(
            dc.to_string(),
            "double-card(p1=colors,cards=24,moves=60,neighbours_only=1)"
        );
        assert_eq!(dc.to_string().parse::<GameSpec>(), Ok(dc));
        assert!(err("double-card(neighbours_only=2)").contains("expected 0 or 1"));
        assert_eq!("wights".parse::<GameSpec>(), Ok(GameSpec::Wights(NoParams)));
        assert!(err("wights(rules=long)").contains("unknown parameter 'rules' for game wights"));
        assert!(err("breakthrough(rules=huge)").contains("unknown rule set 'huge'"));
        assert!(err("breakthrough(size=9)").contains("unknown parameter 'size'"));
        let c4: GameSpec = "connect-four(columns=9,rows=4)".parse().expect("valid");
        assert_eq!(c4.to_string(), "connect-four(rows=4,columns=9)");
        assert_eq!(c4.to_string().parse::<GameSpec>(), Ok(c4));
        assert!(err("connect-four(rows=3)").contains("rows=3: expected 4 to 8"));
        assert!(err("connect-four(columns=10)").contains("columns=10: expected 4 to 9"));
        // Through the registry: a guess for a near miss; the declared games listed only
        // when the name is unknown, not beside a bad parameter of a built-in game.
        let registry = AgentRegistry::default();
        let said = registry.game("conect-four").expect_err("unknown");
        assert!(
            said.starts_with("unknown game 'conect-four': did you mean 'connect-four'?"),
            "{said}"
        );
        let said = registry.game("connect-four(rows=3)").expect_err("bad rows");
        assert_eq!(said, "rows=3: expected 4 to 8");
    }

    #[test]
    fn lines_are_found_for_offsets_and_strings() {
        let text = "a = 1\nb = \"x\"\nc = 'y'\n";
        assert_eq!(line_of_offset(text, 0), 1);
        assert_eq!(line_of_offset(text, 7), 2);
        assert_eq!(line_of_string(text, "x"), Some(2));
        assert_eq!(line_of_string(text, "y"), Some(3));
        assert_eq!(line_of_string(text, "z"), None);
    }
}
