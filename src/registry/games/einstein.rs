//! EinStein würfelt nicht!, 5x5, the cubes placed by chance and a die rolled every turn.

use super::{BuiltIn, GameSpec, NoParams};
use crate::core::{Game, Player};
use crate::evals;
use crate::games::einstein::Einstein;
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for Einstein {
    type Params = NoParams;

    const INFO: GameInfo = GameInfo {
        name: "einstein",
        params: "no parameters; EinStein wurfelt nicht! on 5x5 as OpenSpiel plays it: chance places the cubes (setup654321) and rolls a die before every move (roll4); a move steps a cube the die allows (b2-c3)",
        heuristics: evals::einstein::HEURISTICS,
    };

    const KEYS: &'static str = "none";

    const DEFAULT_OPPONENT: &'static str = "expectimax(heuristic=race,depth=3)";

    fn params(_: &mut Spec) -> Result<NoParams, SpecError> {
        Ok(NoParams)
    }

    fn start(_: &NoParams) -> Einstein {
        Einstein::new()
    }

    fn spec_text(_: &NoParams) -> String {
        "einstein".to_string()
    }

    fn variant(_: &NoParams) -> String {
        "5x5".to_string()
    }
}

impl GameEntry for Einstein {
    heuristics_of!(einstein);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::einstein::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Einstein(NoParams)
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        let rows: Vec<Vec<String>> = self
            .board_dump()
            .lines()
            .take(5)
            .map(|line| {
                line.split_whitespace()
                    .map(|cell| {
                        if cell == ".." {
                            String::new()
                        } else {
                            cell.to_string()
                        }
                    })
                    .collect()
            })
            .collect();
        let mut colors = serde_json::Map::new();
        for n in 1..=6 {
            colors.insert(format!("X{n}"), "#c0392b".into());
            colors.insert(format!("O{n}"), "#2e86c1".into());
        }
        Some(serde_json::json!({
            "rows": rows,
            "colors": colors,
            "row_labels": (1..=5).rev().map(|r| r.to_string()).collect::<Vec<_>>(),
            "column_labels": ["a", "b", "c", "d", "e"],
            "legend": "X (red): P1, who moves first from a1 towards e5; O (blue): P2, from e5 towards a1; the number is the cube's.",
        }))
    }
}
