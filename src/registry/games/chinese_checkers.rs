//! Chinese Checkers (report 004): two players on a diamond, with special marbles.

use super::{BuiltIn, GameSpec, choice, number};
use crate::core::Player;
use crate::evals;
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
        let plies = "a number of plies from 1 to 65535";
        if let Some(n) = number(spec, "max_plies", 1..=u16::MAX, plies)? {
            rules.max_plies = n;
        }
        if let Some(n) = number(spec, "home_plies", 1..=u16::MAX, plies)? {
            rules.home_plies = n;
        }
        let jumps = [("long", true), ("short", false)];
        if let Some(long) = choice(spec, "jumps", &jumps, "long or short")? {
            rules.long_jumps = long;
        }
        let timeouts = [("loss", cc::Timeout::Loss), ("random", cc::Timeout::Random)];
        if let Some(timeout) = choice(spec, "timeout", &timeouts, "loss or random")? {
            rules.timeout = timeout;
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
    heuristics_of!(chinese_checkers);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::chinese_checkers::features(self, side, true).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::ChineseCheckers(self.rules())
    }
}
