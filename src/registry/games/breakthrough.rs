//! Breakthrough (report 000): rule sets standard, three-to-base, long and small.

use super::{BuiltIn, GameSpec};
use crate::core::Player;
use crate::evals::{self, HeuristicInfo, ParamError};
use crate::games::breakthrough::{Breakthrough, Rules};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for Breakthrough {
    type Params = Rules;

    const INFO: GameInfo = GameInfo {
        name: "breakthrough",
        params: "rules=standard|three-to-base|long|small (default standard; small: 5x5)",
        heuristics: evals::breakthrough::HEURISTICS,
    };

    const KEYS: &'static str = "rules";

    const DEFAULT_OPPONENT: &'static str = "alphabeta(heuristic=offensive2,depth=3)";

    fn params(spec: &mut Spec) -> Result<Rules, SpecError> {
        spec.take("rules")
            .map_or(Ok(Rules::Standard), |rules| rules.parse::<Rules>())
            .map_err(|e| SpecError::at("rules", e))
    }

    fn start(rules: &Rules) -> Breakthrough {
        Breakthrough::new(*rules)
    }

    fn spec_text(rules: &Rules) -> String {
        format!("breakthrough(rules={rules})")
    }

    fn variant(rules: &Rules) -> String {
        rules.name().to_string()
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
