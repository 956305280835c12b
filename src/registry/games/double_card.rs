//! Double Card (report 003): cards of two colours and two dots on an 8x12 board.

use super::{BuiltIn, GameSpec, choice, number};
use crate::core::Player;
use crate::evals;
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
        let roles = [("colors", dc::Role::Colors), ("dots", dc::Role::Dots)];
        if let Some(role) = choice(spec, "p1", &roles, "colors or dots")? {
            params.p1 = role;
        }
        let most = dc::MAX_CARDS as u8;
        if let Some(n) = number(spec, "cards", 1..=most, &format!("1 to {most}"))? {
            params.cards = n;
        }
        let flags = [("1", true), ("true", true), ("0", false), ("false", false)];
        if let Some(only) = choice(spec, "neighbours_only", &flags, "0 or 1")? {
            params.neighbours_only = only;
        }
        if let Some(n) = number(spec, "moves", 1..=u8::MAX, "1 to 255")? {
            params.move_limit = n;
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
    heuristics_of!(double_card);

    fn features_of(&self, side: Player) -> Vec<f64> {
        let [own, _] = evals::double_card::features(self, side, true, true);
        own.to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::DoubleCard(self.params())
    }
}
