//! Heuristics, one module per game, implementing [`crate::core::Evaluator`]; uses core and
//! games only. Every constant a heuristic uses is a named parameter with the report's value
//! as default.

/// The `linear` heuristic's parameters for features given as `"name": "what it counts"`:
/// per feature `own_<name>`, `own_<name>_sq`, `opp_<name>`, `opp_<name>_sq`, all 0.
macro_rules! linear_params {
    ($($name:literal: $help:literal),* $(,)?) => {
        [$(
            crate::evals::ParamSpec::new(concat!("own_", $name), 0.0, concat!("the side evaluated: ", $help)),
            crate::evals::ParamSpec::new(concat!("own_", $name, "_sq"), 0.0, concat!("the side evaluated: (", $help, ")^2")),
            crate::evals::ParamSpec::new(concat!("opp_", $name), 0.0, concat!("its opponent: ", $help)),
            crate::evals::ParamSpec::new(concat!("opp_", $name, "_sq"), 0.0, concat!("its opponent: (", $help, ")^2")),
        )*]
    };
}

pub mod breakthrough;
pub mod chinese_checkers;
pub mod connect_four;
pub mod double_card;
pub mod einstein;
pub mod othello;
pub mod star_checkers;
pub mod wights;

use std::fmt;

/// One named parameter of a heuristic.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The key used in agent specs, e.g. `almost_win`.
    pub key: &'static str,
    /// The value the report uses.
    pub default: f64,
    /// What it weighs.
    pub help: &'static str,
}

impl ParamSpec {
    /// A parameter `key` with the report's `default` value; `help` says what it weighs.
    pub const fn new(key: &'static str, default: f64, help: &'static str) -> Self {
        ParamSpec { key, default, help }
    }
}

/// The keys an agent spec's algorithm takes besides the heuristic's (`arbiter list` says
/// which algorithm takes which), named in messages about an unknown key.
pub const ALGORITHM_KEYS: [&str; 14] = [
    "heuristic",
    "bound",
    "depth",
    "time_ms",
    "nodes",
    "tt_mb",
    "aspiration",
    "iterations",
    "c",
    "rollout",
    "rollout_plies",
    "k",
    "gamma",
    "epsilon",
];

/// A heuristic parameter that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A key the heuristic does not have.
    #[error("unknown parameter '{key}' for heuristic {heuristic} (known: {known}){hint}")]
    UnknownKey {
        /// The heuristic.
        heuristic: String,
        /// The key given.
        key: String,
        /// The keys it has.
        known: String,
        /// What follows: the algorithm's own keys and a suggestion, or nothing.
        hint: String,
    },
    /// A heuristic the game cannot offer (a rules program that does not supply what it
    /// needs).
    #[error("heuristic {heuristic}: {why}")]
    Unavailable {
        /// The heuristic.
        heuristic: String,
        /// Why not.
        why: String,
    },
    /// A value that is not a finite number.
    #[error("parameter '{key}' of heuristic {heuristic}: '{value}' is not a number")]
    NotANumber {
        /// The heuristic.
        heuristic: String,
        /// The key.
        key: String,
        /// The text given.
        value: String,
    },
}

/// Resolves `given` (key, value) pairs against `specs`: the defaults with the given values
/// put in, in the order of `specs`.
///
/// # Errors
/// An unknown key or a value that is not a finite number.
pub fn resolve_params(
    heuristic: &str,
    specs: &[ParamSpec],
    given: &[(String, String)],
) -> Result<Vec<f64>, ParamError> {
    let mut values: Vec<f64> = specs.iter().map(|s| s.default).collect();
    for (key, text) in given {
        let index = specs.iter().position(|s| s.key == key).ok_or_else(|| {
            let known: Vec<&str> = specs.iter().map(|s| s.key).collect();
            // A key no heuristic took may be a misspelt algorithm key (`dept`).
            let suggestion = crate::core::closest(
                key,
                known.iter().copied().chain(ALGORITHM_KEYS.iter().copied()),
            );
            ParamError::UnknownKey {
                heuristic: heuristic.to_string(),
                key: key.clone(),
                known: if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                },
                hint: format!(
                    "; the algorithms take {}{}",
                    ALGORITHM_KEYS.join(", "),
                    suggestion.map_or(String::new(), |s| format!("; did you mean '{s}'?"))
                ),
            }
        })?;
        values[index] = text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| ParamError::NotANumber {
                heuristic: heuristic.to_string(),
                key: key.clone(),
                value: text.clone(),
            })?;
    }
    Ok(values)
}

/// Finds heuristic `name` among a game's `heuristics` and resolves its parameters.
///
/// # Errors
/// An unknown heuristic (naming the game and the known ones) or parameter.
pub fn lookup(
    game: &str,
    heuristics: &[HeuristicInfo],
    name: &str,
    params: &[(String, String)],
) -> Result<Vec<f64>, ParamError> {
    let info =
        heuristics
            .iter()
            .find(|h| h.name == name)
            .ok_or_else(|| ParamError::UnknownKey {
                heuristic: format!("for {game}"),
                key: name.to_string(),
                known: heuristics
                    .iter()
                    .map(|h| h.name)
                    .collect::<Vec<_>>()
                    .join(", "),
                hint: crate::core::closest(name, heuristics.iter().map(|h| h.name))
                    .map_or(String::new(), |s| format!("; did you mean '{s}'?")),
            })?;
    resolve_params(name, info.params, params)
}

/// The `linear` heuristic of a game with `N` features: per feature, the weights of the
/// side evaluated's value, of its square, of the opponent's value and of its square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Linear<const N: usize> {
    weights: [[f64; 4]; N],
}

impl<const N: usize> Linear<N> {
    /// The weights in the order of the game's `linear` parameters (4 per feature).
    pub fn new(values: &[f64]) -> Linear<N> {
        let mut weights = [[0.0; 4]; N];
        for (feature, chunk) in weights.iter_mut().zip(values.chunks_exact(4)) {
            feature.copy_from_slice(chunk);
        }
        Linear { weights }
    }

    /// The weighted sum for the side whose features are `own`, against `opp`'s.
    #[inline]
    pub fn value(&self, own: &[f64; N], opp: &[f64; N]) -> f64 {
        // Four sums, one per kind of weight, kept apart until the end: one running total
        // would chain every addition to the one before (floating point is not
        // reassociated), four independent ones run side by side (and as vectors).
        let mut sums = [0.0; 4];
        for (i, weights) in self.weights.iter().enumerate() {
            let terms = [own[i], own[i] * own[i], opp[i], opp[i] * opp[i]];
            for lane in 0..4 {
                sums[lane] += weights[lane] * terms[lane];
            }
        }
        (sums[0] + sums[1]) + (sums[2] + sums[3])
    }

    /// Whether any weight of a feature in `features` (indices) is not 0.
    pub fn uses(&self, features: std::ops::Range<usize>) -> bool {
        self.weights[features].iter().flatten().any(|&w| w != 0.0)
    }
}

/// A named heuristic written as the `linear` heuristic: its name and the weights
/// (`own_pieces`, `opp_max_advance_sq`, ...) that give the same value.
pub type LinearForm = (&'static str, &'static [(&'static str, &'static str)]);

/// A heuristic's name, one-line description and parameters, for `list`.
#[derive(Clone, Copy, Debug)]
pub struct HeuristicInfo {
    /// Name used in agent specs.
    pub name: &'static str,
    /// Formula in one line.
    pub formula: &'static str,
    /// Parameters with defaults.
    pub params: &'static [ParamSpec],
}

impl fmt::Display for HeuristicInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.formula)
    }
}
