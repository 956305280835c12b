//! Othello, 8x8: black (P1) first, a pass when forced.

use super::{BuiltIn, GameSpec, NoParams, grid_rows};
use crate::core::{Game, Player};
use crate::evals;
use crate::games::othello::Othello;
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for Othello {
    type Params = NoParams;

    const INFO: GameInfo = GameInfo {
        name: "othello",
        params: "no parameters; 8x8, black (P1) first, squares a1-h8 with row 1 at the top, pass when forced",
        heuristics: evals::othello::HEURISTICS,
    };

    const KEYS: &'static str = "none";

    const DEFAULT_OPPONENT: &'static str = "alphabeta-tt(heuristic=squares,depth=6)";

    fn params(_: &mut Spec) -> Result<NoParams, SpecError> {
        Ok(NoParams)
    }

    fn start(_: &NoParams) -> Othello {
        Othello::new()
    }

    fn spec_text(_: &NoParams) -> String {
        "othello".to_string()
    }

    fn variant(_: &NoParams) -> String {
        "8x8".to_string()
    }
}

impl GameEntry for Othello {
    heuristics_of!(othello);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::othello::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::Othello(NoParams)
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        Some(serde_json::json!({
            "rows": grid_rows(&self.board_dump()),
            "colors": {"X": "#222222", "O": "#f4f4f4"},
            "row_labels": (1..=8).map(|r| r.to_string()).collect::<Vec<_>>(),
            "column_labels": ["a", "b", "c", "d", "e", "f", "g", "h"],
            "legend": "X (black): P1, who moves first; O (white): P2.",
        }))
    }
}
