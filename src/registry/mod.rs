//! Names to things, using the layers above it but never tournament, report or later: game
//! specs (`breakthrough(rules=long)`), agent specs
//! (`alphabeta(heuristic=offensive2,depth=4)`), the agent files in `agents/` and the
//! experiment files in `matchups/`, each parsed into a validated value. Errors name the
//! file and line they come from.

mod agents;
pub mod experiment;
#[cfg(test)]
mod oracle;
pub mod puzzle_experiment;
pub mod reference;
pub mod search_experiment;
pub mod spec;
pub mod submissions;
pub mod tune_experiment;

#[cfg(test)]
pub use agents::test_factories;
pub use agents::{
    AgentRegistry, AgentSpec, DEFAULT_DEPTH, agent_identity, agents_folders, fits,
    is_external_spec, load_agents,
};
pub use experiment::{Colours, Experiment, MatchupSpec, OpeningSpec, SweepInfo};
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
}

impl AnyExperiment {
    /// The experiment's text as a run keeps it in meta.json.
    pub fn source(&self) -> &str {
        match self {
            AnyExperiment::Tournament(e) => &e.source,
            AnyExperiment::Search(e) => &e.source,
            AnyExperiment::Puzzles(e) => &e.source,
            AnyExperiment::Tune(e) => &e.source,
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
            _ => {
                let line = line_of_key(&source, "kind");
                Err(InputError::in_file(
                    path,
                    line,
                    "kind must be \"tournament\" (the default), \"search\", \"puzzles\" or \"tune\"",
                ))
            }
        }
    }
}

use crate::core::{ActionEvaluator, Agent, Evaluator, Game, Player};
use crate::evals::{self, HeuristicInfo, ParamError};
use crate::external::rules::{ProgramGame, ProgramGameDef};
use crate::external::rules_heuristics::{self, ProgramHeuristic};
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::games::chinese_checkers::{self as cc, ChineseCheckers};
use crate::games::connect_four::{self as c4, ConnectFour};
use crate::games::double_card::{self as dc, DoubleCard};
use crate::games::othello::Othello;
use crate::games::wights::Wights;
use spec::Spec;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

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
    pub fn in_file(file: &Path, line: Option<usize>, message: impl Into<String>) -> InputError {
        InputError {
            file: Some(file.to_path_buf()),
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
pub(crate) fn run_name(name: Option<String>, path: &Path, default: &str) -> Result<String, String> {
    let name = name.unwrap_or_else(|| {
        path.file_stem()
            .map_or(default.to_string(), |s| s.to_string_lossy().into_owned())
    });
    let allowed = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if name.is_empty() || name.starts_with('.') || !allowed {
        return Err(format!(
            "name '{name}' must be letters, digits, '-', '_' or '.', not starting with '.' (it names the results folder)"
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

/// A game chosen by name, with its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// Breakthrough with a rule set.
    Breakthrough(Rules),
    /// The Dragon Queen (Wights vs Dragons and Queen).
    Wights,
    /// Chinese Checkers, two-player diamond with special marbles.
    ChineseCheckers(cc::Rules),
    /// Double Card.
    DoubleCard(dc::Params),
    /// Connect Four, of a size.
    ConnectFour(c4::Params),
    /// Othello, 8x8.
    Othello,
    /// A game served by a rules program (`[[game]]` in an agent file), started and checked.
    Program(ProgramSpec),
}

/// A rules program's game with its parameters, as a [`GameSpec`] holds it: two are equal
/// when they name the same game with the same parameters and program.
#[derive(Clone, Debug)]
pub struct ProgramSpec(pub Arc<ProgramGameDef>);

impl PartialEq for ProgramSpec {
    fn eq(&self, other: &ProgramSpec) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.to_string() == other.0.to_string() && self.0.spec == other.0.spec)
    }
}

impl Eq for ProgramSpec {}

/// A game as `list` shows it.
pub struct GameInfo {
    /// Name in specs.
    pub name: &'static str,
    /// Parameters, e.g. `rules=standard|three-to-base|long|small`.
    pub params: &'static str,
    /// Heuristics.
    pub heuristics: &'static [HeuristicInfo],
}

/// Every game arbiter knows.
pub const GAMES: &[GameInfo] = &[
    GameInfo {
        name: "breakthrough",
        params: "rules=standard|three-to-base|long|small (default standard; small: 5x5)",
        heuristics: evals::breakthrough::HEURISTICS,
    },
    GameInfo {
        name: "chinese-checkers",
        params: "max_plies=200, home_plies=100, jumps=long|short, timeout=loss|random (the per-move time limit's forfeit rule)",
        heuristics: evals::chinese_checkers::HEURISTICS,
    },
    GameInfo {
        name: "connect-four",
        params: "rows=4..8 (default 6), columns=4..9 (default 7); moves are column numbers from 1",
        heuristics: evals::connect_four::HEURISTICS,
    },
    GameInfo {
        name: "othello",
        params: "no parameters; 8x8, black (P1) first, squares a1-h8 with row 1 at the top, pass when forced",
        heuristics: evals::othello::HEURISTICS,
    },
    GameInfo {
        name: "double-card",
        params: "p1=dots|colors (default dots), cards=24, moves=60, neighbours_only=0|1 (placements touching a card only)",
        heuristics: evals::double_card::HEURISTICS,
    },
    GameInfo {
        name: "wights",
        params: "no parameters; 5x5, P1 = Queen and Dragons, P2 = Wights (move first)",
        heuristics: evals::wights::HEURISTICS,
    },
];

impl FromStr for GameSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<GameSpec, String> {
        let mut spec: Spec = text.parse()?;
        let game = match spec.name.as_str() {
            "breakthrough" => {
                let rules = match spec.take("rules") {
                    Some(rules) => rules.parse::<Rules>()?,
                    None => Rules::Standard,
                };
                GameSpec::Breakthrough(rules)
            }
            "wights" => GameSpec::Wights,
            "chinese-checkers" => {
                let mut rules = cc::Rules::default();
                let plies = |key: &str, text: String| -> Result<u16, String> {
                    text.parse::<u16>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                        format!("{key}={text}: expected a number of plies from 1 to 65535")
                    })
                };
                if let Some(text) = spec.take("max_plies") {
                    rules.max_plies = plies("max_plies", text)?;
                }
                if let Some(text) = spec.take("home_plies") {
                    rules.home_plies = plies("home_plies", text)?;
                }
                if let Some(text) = spec.take("jumps") {
                    rules.long_jumps = match text.as_str() {
                        "long" => true,
                        "short" => false,
                        other => return Err(format!("jumps={other}: expected long or short")),
                    };
                }
                if let Some(text) = spec.take("timeout") {
                    rules.timeout = match text.as_str() {
                        "loss" => cc::Timeout::Loss,
                        "random" => cc::Timeout::Random,
                        other => return Err(format!("timeout={other}: expected loss or random")),
                    };
                }
                GameSpec::ChineseCheckers(rules)
            }
            "connect-four" => {
                let mut params = c4::Params::default();
                for (key, range, slot) in [
                    ("rows", c4::ROWS, &mut params.rows),
                    ("columns", c4::COLUMNS, &mut params.columns),
                ] {
                    if let Some(text) = spec.take(key) {
                        *slot = text
                            .parse::<u8>()
                            .ok()
                            .filter(|n| range.contains(n))
                            .ok_or_else(|| {
                                format!(
                                    "{key}={text}: expected {} to {}",
                                    range.start(),
                                    range.end()
                                )
                            })?;
                    }
                }
                GameSpec::ConnectFour(params)
            }
            "othello" => GameSpec::Othello,
            "double-card" => {
                let mut params = dc::Params::default();
                if let Some(text) = spec.take("p1") {
                    params.p1 = match text.as_str() {
                        "colors" => dc::Role::Colors,
                        "dots" => dc::Role::Dots,
                        other => return Err(format!("p1={other}: expected colors or dots")),
                    };
                }
                if let Some(text) = spec.take("cards") {
                    params.cards = text
                        .parse::<u8>()
                        .ok()
                        .filter(|n| (1..=dc::MAX_CARDS as u8).contains(n))
                        .ok_or_else(|| format!("cards={text}: expected 1 to {}", dc::MAX_CARDS))?;
                }
                if let Some(text) = spec.take("neighbours_only") {
                    params.neighbours_only = match text.as_str() {
                        "1" | "true" => true,
                        "0" | "false" => false,
                        other => return Err(format!("neighbours_only={other}: expected 0 or 1")),
                    };
                }
                if let Some(text) = spec.take("moves") {
                    params.move_limit = text
                        .parse::<u8>()
                        .ok()
                        .filter(|&n| n >= 1)
                        .ok_or_else(|| format!("moves={text}: expected 1 to 255"))?;
                }
                GameSpec::DoubleCard(params)
            }
            other => {
                let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
                return Err(format!(
                    "unknown game '{other}' (known: {}; a game served by a program is declared as [[game]] in an agent file)",
                    known.join(", ")
                ));
            }
        };
        if let Some((key, _)) = spec.params.first() {
            let known = match game {
                GameSpec::Breakthrough(_) => "rules",
                GameSpec::Wights => "none",
                GameSpec::ChineseCheckers(_) => "max_plies, home_plies, jumps, timeout",
                GameSpec::DoubleCard(_) => "p1, cards, moves, neighbours_only",
                GameSpec::ConnectFour(_) => "rows, columns",
                GameSpec::Othello => "none",
                GameSpec::Program(_) => "those of its program",
            };
            return Err(format!(
                "unknown parameter '{key}' for game {} (known: {known})",
                spec.name
            ));
        }
        Ok(game)
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Breakthrough(rules) => write!(f, "breakthrough(rules={rules})"),
            GameSpec::Wights => f.write_str("wights"),
            GameSpec::ChineseCheckers(rules) => write!(f, "chinese-checkers({rules})"),
            GameSpec::DoubleCard(params) => write!(f, "double-card({params})"),
            GameSpec::ConnectFour(params) => write!(f, "connect-four({params})"),
            GameSpec::Othello => f.write_str("othello"),
            GameSpec::Program(program) => write!(f, "{}", program.0),
        }
    }
}

impl GameSpec {
    /// The opponent `arbiter play` chooses when none is given: alpha-beta with the game's
    /// own heuristic, as deep as answers within a blink.
    pub fn default_opponent(&self) -> &'static str {
        match self {
            GameSpec::Breakthrough(_) => "alphabeta(heuristic=offensive2,depth=3)",
            GameSpec::Wights => "alphabeta(heuristic=material,depth=4)",
            GameSpec::ChineseCheckers(_) => "alphabeta(heuristic=distance,depth=3)",
            GameSpec::DoubleCard(_) => "alphabeta(heuristic=lines,depth=2)",
            GameSpec::ConnectFour(_) => "alphabeta-tt(heuristic=windows,depth=8)",
            GameSpec::Othello => "alphabeta-tt(heuristic=squares,depth=6)",
            GameSpec::Program(_) => "mcts(iterations=2000)",
        }
    }

    /// For a game served by a program: its declared name and how to run it (recorded in
    /// meta.json).
    pub fn program(&self) -> Option<(String, crate::external::rules::RulesSpec)> {
        match self {
            GameSpec::Program(program) => Some((program.0.name.clone(), program.0.spec.clone())),
            _ => None,
        }
    }

    /// The rule-set or variant name written to games.csv.
    pub fn variant(&self) -> String {
        match self {
            GameSpec::Breakthrough(rules) => rules.name().to_string(),
            GameSpec::Wights => "default".to_string(),
            GameSpec::ChineseCheckers(rules) => rules.to_string(),
            GameSpec::DoubleCard(params) => params.to_string(),
            GameSpec::ConnectFour(params) => format!("{}x{}", params.rows, params.columns),
            GameSpec::Othello => "8x8".to_string(),
            GameSpec::Program(program) => {
                let params: Vec<String> = program
                    .0
                    .params
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                if params.is_empty() {
                    "default".to_string()
                } else {
                    params.join(",")
                }
            }
        }
    }
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

impl GameEntry for Wights {
    type Heuristic = evals::wights::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::wights::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::wights::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::wights::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::wights::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::wights::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Wights
    }
}

impl GameEntry for ChineseCheckers {
    type Heuristic = evals::chinese_checkers::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::chinese_checkers::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::chinese_checkers::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::chinese_checkers::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::chinese_checkers::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::chinese_checkers::features(self, side, true).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::ChineseCheckers(self.rules())
    }
}

impl GameEntry for DoubleCard {
    type Heuristic = evals::double_card::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::double_card::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::double_card::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::double_card::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::double_card::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        let [own, _] = evals::double_card::features(self, side, true, true);
        own.to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::DoubleCard(self.params())
    }
}

impl GameEntry for Breakthrough {
    type Heuristic = evals::breakthrough::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::breakthrough::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::breakthrough::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::breakthrough::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::breakthrough::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::breakthrough::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Breakthrough(self.rules())
    }
}

impl GameEntry for ConnectFour {
    type Heuristic = evals::connect_four::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::connect_four::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::connect_four::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::connect_four::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::connect_four::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::connect_four::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::ConnectFour(self.params())
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        let rows = grid_rows(&self.board_dump());
        let columns: Vec<String> = (1..=self.params().columns).map(|c| c.to_string()).collect();
        Some(serde_json::json!({
            "rows": rows,
            "colors": {"X": "#c0392b", "O": "#f1c40f"},
            "column_labels": columns,
            "legend": "X (red): P1, who moves first; O (yellow): P2.",
        }))
    }
}

impl GameEntry for Othello {
    type Heuristic = evals::othello::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::othello::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::othello::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::othello::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::othello::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::othello::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Othello
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "rows": grid_rows(&self.board_dump()),
            "colors": {"X": "#222222", "O": "#f4f4f4"},
            "row_labels": (1..=8).map(|r| r.to_string()).collect::<Vec<_>>(),
            "column_labels": ["a", "b", "c", "d", "e", "f", "g", "h"],
            "legend": "X (black): P1, who moves first; O (white): P2.",
        }))
    }
}

/// A board dump with cells separated by spaces as rows of symbols (`.` empty).
fn grid_rows(dump: &str) -> Vec<Vec<String>> {
    dump.lines()
        .map(|line| {
            line.split_whitespace()
                .map(|c| {
                    if c == "." {
                        String::new()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        })
        .collect()
}

impl GameEntry for ProgramGame {
    type Heuristic = ProgramHeuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        rules_heuristics::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        ProgramHeuristic::new(self, name, params)
    }

    fn feature_names(&self) -> Vec<String> {
        self.def().features.clone()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        self.features(side)
            .map_or_else(|| vec![0.0; self.def().features.len()], |(own, _)| own)
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Program(ProgramSpec(Arc::clone(self.def())))
    }

    fn default_heuristic() -> Option<&'static str> {
        Some("outcome")
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        self.render().map(|rendered| (*rendered).clone())
    }
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

/// The one place a game name becomes a type.
pub fn dispatch<T: GameTask>(game: GameSpec, task: T) -> T::Output {
    match game {
        GameSpec::Breakthrough(rules) => task.run(Breakthrough::new(rules)),
        GameSpec::Wights => task.run(Wights::new()),
        GameSpec::ChineseCheckers(rules) => task.run(ChineseCheckers::new(rules)),
        GameSpec::DoubleCard(params) => task.run(DoubleCard::new(params)),
        GameSpec::ConnectFour(params) => task.run(ConnectFour::new(params)),
        GameSpec::Othello => task.run(Othello::new()),
        GameSpec::Program(program) => task.run(program.0.start_position()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let err = |t: &str| t.parse::<GameSpec>().expect_err(t);
        assert!(err("chess").contains(
            "unknown game 'chess' (known: breakthrough, chinese-checkers, connect-four, othello, double-card, wights; a game served by a program is declared as [[game]] in an agent file)"
        ));
        let cc: GameSpec = "chinese-checkers(jumps=short,timeout=random,max_plies=300)"
            .parse()
            .expect("valid");
        assert_eq!(
            cc.to_string(),
            "chinese-checkers(max_plies=300,home_plies=100,jumps=short,timeout=random)"
        );
        assert_eq!(cc.to_string().parse::<GameSpec>(), Ok(cc));
        assert!(err("chinese-checkers(jumps=far)").contains("jumps=far"));
        let dc: GameSpec = "double-card(p1=colors,neighbours_only=1)"
            .parse()
            .expect("valid");
        assert_eq!(
            dc.to_string(),
            "double-card(p1=colors,cards=24,moves=60,neighbours_only=1)"
        );
        assert_eq!(dc.to_string().parse::<GameSpec>(), Ok(dc));
        assert!(err("double-card(neighbours_only=2)").contains("expected 0 or 1"));
        assert_eq!("wights".parse::<GameSpec>(), Ok(GameSpec::Wights));
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
