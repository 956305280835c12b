//! Double Card (report 003): cards of two colours and two dots on an 8x12 board.

use super::{BuiltIn, GameSpec};
use crate::core::Player;
use crate::evals::{self, HeuristicInfo, ParamError};
use crate::games::double_card::{self as dc, DoubleCard};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for DoubleCard {
    type Params = dc::Params;

    const INFO: GameInfo = GameInfo {
        name: "double-card",
        params: "p1=dots|colors (default dots), cards=24, moves=60, neighbours_only=0|1 (placements touching a card only)",
        heuristics: evals::double_card::HEURISTICS,
    };

    const KEYS: &'static str = "p1, cards, moves, neighbours_only";

    const DEFAULT_OPPONENT: &'static str = "alphabeta(heuristic=lines,depth=2)";

    fn params(spec: &mut Spec) -> Result<dc::Params, SpecError> {
        let mut params = dc::Params::default();
        if let Some(text) = spec.take("p1") {
            params.p1 = match text.as_str() {
                "colors" => dc::Role::Colors,
                "dots" => dc::Role::Dots,
                other => {
                    return Err(SpecError::at(
                        "p1",
                        format!("p1={other}: expected colors or dots"),
                    ));
                }
            };
        }
        if let Some(text) = spec.take("cards") {
            params.cards = text
                .parse::<u8>()
                .ok()
                .filter(|n| (1..=dc::MAX_CARDS as u8).contains(n))
                .ok_or_else(|| {
                    SpecError::at(
                        "cards",
                        format!("cards={text}: expected 1 to {}", dc::MAX_CARDS),
                    )
                })?;
        }
        if let Some(text) = spec.take("neighbours_only") {
            params.neighbours_only = match text.as_str() {
                "1" | "true" => true,
                "0" | "false" => false,
                other => {
                    return Err(SpecError::at(
                        "neighbours_only",
                        format!("neighbours_only={other}: expected 0 or 1"),
                    ));
                }
            };
        }
        if let Some(text) = spec.take("moves") {
            params.move_limit = text.parse::<u8>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                SpecError::at("moves", format!("moves={text}: expected 1 to 255"))
            })?;
        }
        Ok(params)
    }

    fn start(params: &dc::Params) -> DoubleCard {
        DoubleCard::new(*params)
    }

    fn spec_text(params: &dc::Params) -> String {
        format!("double-card({params})")
    }

    fn variant(params: &dc::Params) -> String {
        params.to_string()
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
