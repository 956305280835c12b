//! Breakthrough (report 000): rule sets standard, three-to-base, long and small.

use super::{BuiltIn, GameSpec};
use crate::core::Player;
use crate::evals;
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
    heuristics_of!(breakthrough);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::breakthrough::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Breakthrough(self.rules())
    }
}
