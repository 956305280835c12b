//! The Dragon Queen (report 002): Wights against the Queen and her Dragons, 5x5.

use super::{BuiltIn, GameSpec, NoParams};
use crate::core::Player;
use crate::evals;
use crate::games::wights::Wights;
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for Wights {
    type Params = NoParams;

    const INFO: GameInfo = GameInfo {
        name: "wights",
        params: "no parameters; 5x5, P1 = Queen and Dragons, P2 = Wights (move first)",
        heuristics: evals::wights::HEURISTICS,
    };

    const KEYS: &'static str = "none";

    const DEFAULT_OPPONENT: &'static str = "alphabeta(heuristic=material,depth=4)";

    fn params(_: &mut Spec) -> Result<NoParams, SpecError> {
        Ok(NoParams)
    }

    fn start(_: &NoParams) -> Wights {
        Wights::new()
    }

    fn spec_text(_: &NoParams) -> String {
        "wights".to_string()
    }

    fn variant(_: &NoParams) -> String {
        "default".to_string()
    }
}

impl GameEntry for Wights {
    heuristics_of!(wights);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::wights::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Wights(NoParams)
    }
}
