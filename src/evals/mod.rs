//! Heuristics, one module per game, implementing [`crate::core::Evaluator`]; uses core and
//! games only. Every constant a heuristic uses is a named parameter with the report's value
//! as default.

pub mod breakthrough;
pub mod chinese_checkers;
pub mod double_card;
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

/// A heuristic parameter that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// A key the heuristic does not have.
    #[error("unknown parameter '{key}' for heuristic {heuristic} (known: {known})")]
    UnknownKey {
        /// The heuristic.
        heuristic: String,
        /// The key given.
        key: String,
        /// The keys it has.
        known: String,
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
            ParamError::UnknownKey {
                heuristic: heuristic.to_string(),
                key: key.clone(),
                known: if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                },
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
            })?;
    resolve_params(name, info.params, params)
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
