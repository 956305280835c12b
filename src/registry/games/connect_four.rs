//! Connect Four, of 4 to 8 rows and 4 to 9 columns.

use super::{BuiltIn, GameSpec, grid_rows, number};
use crate::core::{Game, Player};
use crate::evals;
use crate::games::connect_four::{self as c4, ConnectFour};
use crate::registry::spec::{Spec, SpecError};
use crate::registry::{GameEntry, GameInfo};

impl BuiltIn for ConnectFour {
    type Params = c4::Params;

    const INFO: GameInfo = GameInfo {
        name: "connect-four",
        params: "rows=4..8 (default 6), columns=4..9 (default 7); moves are column numbers from 1",
        heuristics: evals::connect_four::HEURISTICS,
    };

    const KEYS: &'static str = "rows, columns";

    const DEFAULT_OPPONENT: &'static str = "alphabeta-tt(heuristic=windows,depth=8)";

    fn params(spec: &mut Spec) -> Result<c4::Params, SpecError> {
        let mut params = c4::Params::default();
        for (key, range, slot) in [
            ("rows", c4::ROWS, &mut params.rows),
            ("columns", c4::COLUMNS, &mut params.columns),
        ] {
            let expected = format!("{} to {}", range.start(), range.end());
            if let Some(n) = number(spec, key, range, &expected)? {
                *slot = n;
            }
        }
        Ok(params)
    }

    fn start(params: &c4::Params) -> ConnectFour {
        ConnectFour::new(*params)
    }

    fn spec_text(params: &c4::Params) -> String {
        format!("connect-four({params})")
    }

    fn variant(params: &c4::Params) -> String {
        format!("{}x{}", params.rows, params.columns)
    }
}

impl GameEntry for ConnectFour {
    heuristics_of!(connect_four);

    fn features_of(&self, side: Player) -> Vec<f64> {
        evals::connect_four::features(self, side).to_vec()
    }

    fn game_spec(&self) -> GameSpec {
        GameSpec::ConnectFour(self.params())
    }

    fn render_json(&self) -> Option<serde_json::Value> {
        let rows = grid_rows(&self.board_dump());
        let columns: Vec<String> = (1..=self.params().columns).map(|c| c.to_string()).collect();
        Some(serde_json::json!({
            "rows": rows,
            "colors": {"X": "#c0392b", "O": "#f1c40f"},
            "column_labels": columns,
            "legend": "X (red): P1, who moves first; O (yellow): P2.",
        }))
    }
}
