//! The heuristics of games served by programs: `outcome` (every game has it), `linear`
//! over the features the program names, and `program` (the program's own `evaluate`).

use super::rules::ProgramGame;
use crate::core::{ActionEvaluator, Evaluator, Game, Player, score_by_child};
use crate::evals::{HeuristicInfo, ParamError, resolve_params};
use std::sync::Arc;

/// The heuristics every program game lists (`linear` and `program` need the program to
/// offer `features` and `evaluate`).
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "outcome",
        formula: "the result where the game is over (search's win/loss), 0 elsewhere: the default, for any program game",
        params: &[],
    },
    HeuristicInfo {
        name: "linear",
        formula: "weights x the features the rules program names: own_<f>, own_<f>_sq, opp_<f>, opp_<f>_sq (all 0 by default)",
        params: &[],
    },
    HeuristicInfo {
        name: "program",
        formula: "the rules program's own `evaluate` of the position for the side evaluated",
        params: &[],
    },
];

/// A heuristic of a program game.
#[derive(Clone, Debug, PartialEq)]
pub enum ProgramHeuristic {
    /// 0 everywhere (search scores finished games itself).
    Outcome,
    /// Per feature, the weights of the side's value, its square, the opponent's value and
    /// its square.
    Linear(Arc<[[f64; 4]]>),
    /// The program's `evaluate`.
    Program,
}

impl ProgramHeuristic {
    /// Heuristic `name` with `params` for `game`'s program.
    ///
    /// # Errors
    /// An unknown heuristic or parameter, or one the program does not offer.
    pub fn new(
        game: &ProgramGame,
        name: &str,
        params: &[(String, String)],
    ) -> Result<ProgramHeuristic, ParamError> {
        let def = game.def();
        let none = |why: String| ParamError::Unavailable {
            heuristic: name.to_string(),
            why,
        };
        match name {
            "outcome" => {
                resolve_params(name, &[], params)?;
                Ok(ProgramHeuristic::Outcome)
            }
            "program" => {
                resolve_params(name, &[], params)?;
                if def.evaluate {
                    Ok(ProgramHeuristic::Program)
                } else {
                    Err(none(format!(
                        "the rules program of {def} offers no `evaluate` (its `ready` does not say \"evaluate\": true)"
                    )))
                }
            }
            "linear" => {
                if def.features.is_empty() {
                    return Err(none(format!(
                        "the rules program of {def} names no features (its `ready` has no \"features\" list)"
                    )));
                }
                let keys: Vec<String> = def
                    .features
                    .iter()
                    .flat_map(|f| {
                        [
                            format!("own_{f}"),
                            format!("own_{f}_sq"),
                            format!("opp_{f}"),
                            format!("opp_{f}_sq"),
                        ]
                    })
                    .collect();
                // The keys depend on the program: checked here rather than by resolve_params.
                let mut weights = vec![[0.0; 4]; def.features.len()];
                for (key, text) in params {
                    let index = keys.iter().position(|k| k == key).ok_or_else(|| {
                        ParamError::UnknownKey {
                            heuristic: name.to_string(),
                            key: key.clone(),
                            known: keys.join(", "),
                            hint: crate::core::closest(key, keys.iter().map(String::as_str))
                                .map_or(String::new(), |s| format!("; did you mean '{s}'?")),
                        }
                    })?;
                    let value = text
                        .trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|v| v.is_finite())
                        .ok_or_else(|| ParamError::NotANumber {
                            heuristic: name.to_string(),
                            key: key.clone(),
                            value: text.clone(),
                        })?;
                    weights[index / 4][index % 4] = value;
                }
                Ok(ProgramHeuristic::Linear(weights.into()))
            }
            other => {
                let known: Vec<&str> = HEURISTICS.iter().map(|h| h.name).collect();
                Err(ParamError::UnknownKey {
                    heuristic: format!("for {def}"),
                    key: other.to_string(),
                    known: known.join(", "),
                    hint: crate::core::closest(other, known.iter().copied())
                        .map_or(String::new(), |s| format!("; did you mean '{s}'?")),
                })
            }
        }
    }
}

impl Evaluator<ProgramGame> for ProgramHeuristic {
    fn evaluate(&self, state: &ProgramGame, root: Player, _noise_seed: u64) -> f64 {
        match self {
            ProgramHeuristic::Outcome => 0.0,
            ProgramHeuristic::Program => state.program_value(root).unwrap_or(0.0),
            ProgramHeuristic::Linear(weights) => state
                .with_features(|p1, p2| {
                    let (own, opp) = match root {
                        Player::P1 => (p1, p2),
                        _ => (p2, p1),
                    };
                    weights
                        .iter()
                        .zip(own.iter().zip(opp))
                        .map(|(w, (&o, &p))| w[0] * o + w[1] * o * o + w[2] * p + w[3] * p * p)
                        .sum()
                })
                .unwrap_or(0.0),
        }
    }
}

impl ActionEvaluator<ProgramGame> for ProgramHeuristic {
    fn score(&self, state: &ProgramGame, mv: <ProgramGame as Game>::Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}
