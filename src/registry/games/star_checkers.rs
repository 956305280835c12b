//! Chinese Checkers on the full star, for 2, 3, 4 or 6 players.

use super::{BuiltIn, GameSpec, number};
use crate::core::Player;
use crate::evals;
use crate::games::star_checkers::{self as star, StarCheckers};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for StarCheckers {
    type Params = star::Rules;

    const INFO: GameInfo = GameInfo {
        name: "chinese-checkers-star",
        params: "players=2|3|4|6 (default 2), max_plies (default 100 a player: the game then ends, the players placed by how far they came); moves are 'r1 c1 r2 c2', rows 1-17 from the top",
        heuristics: evals::star_checkers::HEURISTICS,
    };

    const KEYS: &'static str = "players, max_plies";

    const DEFAULT_OPPONENT: &'static str = "paranoid(heuristic=distance,depth=2)";

    fn params(spec: &mut Spec) -> Result<star::Rules, SpecError> {
        let mut rules = star::Rules::default();
        if let Some(text) = spec.take("players") {
            rules.players = text
                .parse::<u8>()
                .ok()
                .filter(|n| star::PLAYER_COUNTS.contains(&usize::from(*n)))
                .ok_or_else(|| {
                    SpecError::at(
                        "players",
                        format!(
                            "players={text}: the star seats 2, 3, 4 or 6 players (each on a point, facing the opposite one)"
                        ),
                    )
                })?;
        }
        if let Some(n) = number(
            spec,
            "max_plies",
            1..=u16::MAX,
            "a number of plies from 1 to 65535",
        )? {
            rules.max_plies = n;
        }
        Ok(rules)
    }

    fn start(rules: &star::Rules) -> StarCheckers {
        StarCheckers::new(*rules)
    }

    fn spec_text(rules: &star::Rules) -> String {
        format!("chinese-checkers-star({rules})")
    }

    fn variant(rules: &star::Rules) -> String {
        format!("star{}", rules.players)
    }
}

impl GameEntry for StarCheckers {
    heuristics_of!(star_checkers);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::star_checkers::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::StarCheckers(self.rules())
    }
}
