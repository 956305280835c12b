//! Chinese Checkers (report 004): two players on a diamond, with special marbles.

use super::{BuiltIn, GameSpec};
use crate::core::Player;
use crate::evals::{self, HeuristicInfo, ParamError};
use crate::games::chinese_checkers::{self as cc, ChineseCheckers};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for ChineseCheckers {
    type Params = cc::Rules;

    const INFO: GameInfo = GameInfo {
        name: "chinese-checkers",
        params: "max_plies=200, home_plies=100, jumps=long|short, timeout=loss|random (the per-move time limit's forfeit rule)",
        heuristics: evals::chinese_checkers::HEURISTICS,
    };

    const KEYS: &'static str = "max_plies, home_plies, jumps, timeout";

    const DEFAULT_OPPONENT: &'static str = "alphabeta(heuristic=distance,depth=3)";

    fn params(spec: &mut Spec) -> Result<cc::Rules, SpecError> {
        let mut rules = cc::Rules::default();
        let plies = |key: &str, text: String| -> Result<u16, SpecError> {
            text.parse::<u16>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                SpecError::at(
                    key,
                    format!("{key}={text}: expected a number of plies from 1 to 65535"),
                )
            })
        };
        if let Some(text) = spec.take("max_plies") {
            rules.max_plies = plies("max_plies", text)?;
        }
        if let Some(text) = spec.take("home_plies") {
            rules.home_plies = plies("home_plies", text)?;
        }
        if let Some(text) = spec.take("jumps") {
            rules.long_jumps = match text.as_str() {
                "long" => true,
                "short" => false,
                other => {
                    return Err(SpecError::at(
                        "jumps",
                        format!("jumps={other}: expected long or short"),
                    ));
                }
            };
        }
        if let Some(text) = spec.take("timeout") {
            rules.timeout = match text.as_str() {
                "loss" => cc::Timeout::Loss,
                "random" => cc::Timeout::Random,
                other => {
                    return Err(SpecError::at(
                        "timeout",
                        format!("timeout={other}: expected loss or random"),
                    ));
                }
            };
        }
        Ok(rules)
    }

    fn start(rules: &cc::Rules) -> ChineseCheckers {
        ChineseCheckers::new(*rules)
    }

    fn spec_text(rules: &cc::Rules) -> String {
        format!("chinese-checkers({rules})")
    }

    fn variant(rules: &cc::Rules) -> String {
        rules.to_string()
    }
}

impl GameEntry for ChineseCheckers {
    type Heuristic = evals::chinese_checkers::Heuristic;

    fn heuristics() -> &'static [HeuristicInfo] {
        evals::chinese_checkers::HEURISTICS
    }

    fn heuristic(
        &self,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Self::Heuristic, ParamError> {
        evals::chinese_checkers::Heuristic::from_spec(name, params)
    }

    fn linear_forms() -> &'static [evals::LinearForm] {
        evals::chinese_checkers::LINEAR_FORMS
    }

    fn feature_names(&self) -> Vec<String> {
        evals::chinese_checkers::FEATURES
            .iter()
            .map(|f| f.to_string())
            .collect()
    }

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::chinese_checkers::features(self, side, true).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::ChineseCheckers(self.rules())
    }
}
