//! Games served by a rules program (`[[game]]` in an agent file): a game spec holds the
//! program's declaration, and the registry sees its positions through the rules protocol.

use super::GameSpec;
use crate::core::Player;
use crate::evals::{HeuristicInfo, ParamError};
use crate::external::rules::{ProgramGame, ProgramGameDef};
use crate::external::rules_heuristics::{self, ProgramHeuristic};
use crate::registry::GameEntry;
use std::sync::Arc;

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

impl ProgramSpec {
    /// The variant written to games.csv: the parameters, or `default`.
    pub fn variant(&self) -> String {
        let params: Vec<String> = self
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
