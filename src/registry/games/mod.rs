//! The built-in games, one file each: a game's name, parameters, `list` entry, default
//! opponent and heuristics ([`BuiltIn`] and [`GameEntry`]). The list at the end of this
//! file makes [`GameSpec`], the names' table and [`dispatch`] from them: adding a game is
//! its file here and one line there.

/// The `GameEntry` items every built-in game takes from its module of `evals`: its
/// heuristic type, its heuristics by name, their linear forms and its features' names.
macro_rules! heuristics_of {
    ($evals:ident) => {
        type Heuristic = crate::evals::$evals::Heuristic;

        fn heuristics() -> &'static [crate::evals::HeuristicInfo] {
            crate::evals::$evals::HEURISTICS
        }

        fn heuristic(
            &self,
            name: &str,
            params: &[(String, String)],
        ) -> Result<Self::Heuristic, crate::evals::ParamError> {
            crate::evals::$evals::Heuristic::from_spec(name, params)
        }

        fn linear_forms() -> &'static [crate::evals::LinearForm] {
            crate::evals::$evals::LINEAR_FORMS
        }

        fn feature_names(&self) -> Vec<String> {
            crate::evals::$evals::FEATURES
                .iter()
                .map(|f| f.to_string())
                .collect()
        }
    };
}

mod breakthrough;
mod chinese_checkers;
mod connect_four;
mod double_card;
mod einstein;
mod othello;
mod program;
mod star_checkers;
mod wights;

pub use program::ProgramSpec;

use super::spec::{Spec, SpecError};
use super::{GameEntry, GameInfo, GameTask};
use crate::games::breakthrough::Breakthrough;
use crate::games::chinese_checkers::ChineseCheckers;
use crate::games::connect_four::ConnectFour;
use crate::games::double_card::DoubleCard;
use crate::games::einstein::Einstein;
use crate::games::othello::Othello;
use crate::games::star_checkers::StarCheckers;
use crate::games::wights::Wights;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A built-in game as the registry declares it: how its spec's parameters read, print
/// and start a game.
pub trait BuiltIn: GameEntry {
    /// The game's parameters (a rule set, a size); [`NoParams`] for a game without any.
    type Params: Clone + fmt::Debug + PartialEq + Eq;

    /// The game as `list` shows it.
    const INFO: GameInfo;

    /// The parameters' keys, for the message about an unknown one (`none` without any).
    const KEYS: &'static str;

    /// The opponent `arbiter play` chooses when none is given: alpha-beta with the
    /// game's own heuristic, as deep as answers within a blink.
    const DEFAULT_OPPONENT: &'static str;

    /// The parameters `spec` gives (each taken from it), the defaults for the others.
    ///
    /// # Errors
    /// A value out of range, naming the key.
    fn params(spec: &mut Spec) -> Result<Self::Params, SpecError>;

    /// The start position of the game with `params`.
    fn start(params: &Self::Params) -> Self;

    /// The spec's text, e.g. `breakthrough(rules=long)`.
    fn spec_text(params: &Self::Params) -> String;

    /// The rule-set or variant name written to games.csv.
    fn variant(params: &Self::Params) -> String;
}

/// The parameters of a game that has none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoParams;

macro_rules! built_in_games {
    ($($variant:ident: $game:ty),* $(,)?) => {
        /// A game chosen by name, with its parameters.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum GameSpec {
            $(
                #[doc = concat!("The built-in game `", stringify!($game), "`, with its parameters.")]
                $variant(<$game as BuiltIn>::Params),
            )*
            /// A game served by a rules program (`[[game]]` in an agent file), started and
            /// checked.
            Program(ProgramSpec),
        }

        /// Every built-in game, in the order `list` shows them.
        pub const GAMES: &[GameInfo] = &[$(<$game as BuiltIn>::INFO),*];

        impl GameSpec {
            /// The built-in game called `name`, its parameters taken from `spec`; `None`
            /// for no such game.
            fn built_in(name: &str, spec: &mut Spec) -> Option<Result<GameSpec, SpecError>> {
                $(
                    if name == <$game as BuiltIn>::INFO.name {
                        return Some(<$game as BuiltIn>::params(spec).map(GameSpec::$variant));
                    }
                )*
                None
            }

            /// The parameters' keys, for the message about an unknown one.
            fn keys(&self) -> &'static str {
                match self {
                    $(GameSpec::$variant(_) => <$game as BuiltIn>::KEYS,)*
                    GameSpec::Program(_) => "those of its program",
                }
            }

            /// The opponent `arbiter play` chooses when none is given.
            pub fn default_opponent(&self) -> &'static str {
                match self {
                    $(GameSpec::$variant(_) => <$game as BuiltIn>::DEFAULT_OPPONENT,)*
                    GameSpec::Program(_) => "mcts(iterations=2000)",
                }
            }

            /// The rule-set or variant name written to games.csv.
            pub fn variant(&self) -> String {
                match self {
                    $(GameSpec::$variant(params) => <$game as BuiltIn>::variant(params),)*
                    GameSpec::Program(program) => program.variant(),
                }
            }
        }

        impl fmt::Display for GameSpec {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(GameSpec::$variant(params) => f.write_str(&<$game as BuiltIn>::spec_text(params)),)*
                    GameSpec::Program(program) => write!(f, "{}", program.0),
                }
            }
        }

        /// The one place a game name becomes a type.
        pub fn dispatch<T: GameTask>(game: GameSpec, task: T) -> T::Output {
            match game {
                $(GameSpec::$variant(params) => task.run(<$game as BuiltIn>::start(&params)),)*
                GameSpec::Program(program) => task.run(program.0.start_position()),
            }
        }
    };
}

built_in_games! {
    Breakthrough: Breakthrough,
    ChineseCheckers: ChineseCheckers,
    ConnectFour: ConnectFour,
    Othello: Othello,
    DoubleCard: DoubleCard,
    Wights: Wights,
    Einstein: Einstein,
    StarCheckers: StarCheckers,
}

impl std::str::FromStr for GameSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<GameSpec, SpecError> {
        let mut spec: Spec = text.parse()?;
        let name = spec.name.clone();
        let game = GameSpec::built_in(&name, &mut spec).unwrap_or_else(|| {
            let known: Vec<&str> = GAMES.iter().map(|g| g.name).collect();
            Err(SpecError::new(format!(
                "unknown game '{name}' (known: {}; a game served by a program is declared as [[game]] in an agent file)",
                known.join(", ")
            )))
        })?;
        if let Some((key, _)) = spec.params.first() {
            return Err(SpecError::at(
                key.as_str(),
                format!(
                    "unknown parameter '{key}' for game {name} (known: {})",
                    game.keys()
                ),
            ));
        }
        Ok(game)
    }
}

impl GameSpec {
    /// For a game served by a program: its declared name and how to run it (recorded in
    /// meta.json).
    pub fn program(&self) -> Option<(String, crate::external::rules::RulesSpec)> {
        match self {
            GameSpec::Program(program) => Some((program.0.name.clone(), program.0.spec.clone())),
            _ => None,
        }
    }
}

/// Parameter `key` of `spec` as a number in `range`, if given; `expected` ends the message
/// about a value outside it (`key=text: expected 1 to 255`).
fn number<T: FromStr + PartialOrd>(
    spec: &mut Spec,
    key: &str,
    range: RangeInclusive<T>,
    expected: &str,
) -> Result<Option<T>, SpecError> {
    spec.take(key)
        .map(|text| {
            text.parse::<T>()
                .ok()
                .filter(|n| range.contains(n))
                .ok_or_else(|| SpecError::at(key, format!("{key}={text}: expected {expected}")))
        })
        .transpose()
}

/// Parameter `key` of `spec` as one of `choices` (its text and value), if given; `expected`
/// ends the message about any other text.
fn choice<T: Copy>(
    spec: &mut Spec,
    key: &str,
    choices: &[(&str, T)],
    expected: &str,
) -> Result<Option<T>, SpecError> {
    spec.take(key)
        .map(|text| {
            choices
                .iter()
                .find(|(name, _)| *name == text)
                .map(|&(_, value)| value)
                .ok_or_else(|| SpecError::at(key, format!("{key}={text}: expected {expected}")))
        })
        .transpose()
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
