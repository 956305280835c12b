//! The Dragon Queen heuristic of report 002: material, with a Queen worth more as she
//! advances. `x` in the Queen's worth `300 + 10x` is her row, 1 (start) to 5 (goal); the
//! report never defines it, this is the spec's reading. Also `linear`, over
//! [`FEATURES`].

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::wights::Wights;

/// The named features of a Dragon Queen position for a side (the Queen's side holds the
/// Queen and the Dragons, the other the Wights; a feature of the other side's pieces is 0).
pub const FEATURES: [&str; 5] = ["wights", "dragons", "queen", "queen_row", "pieces"];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 20] = linear_params!(
    "wights": "its Wights on the board",
    "dragons": "its Dragons on the board",
    "queen": "1 while its Queen is on the board",
    "queen_row": "its Queen's row, 1 (start) to 5 (goal), 0 without her",
    "pieces": "its pieces on the board, the Queen included",
);

/// Report 002's heuristic as `linear` weights: equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[(
    "material",
    &[
        ("own_wights", "20"),
        ("own_dragons", "30"),
        ("own_queen", "300"),
        ("own_queen_row", "10"),
        ("opp_wights", "-20"),
        ("opp_dragons", "-30"),
        ("opp_queen", "-300"),
        ("opp_queen_row", "-10"),
    ],
)];

/// The value of [`FEATURES`] for `side` (P1 the Queen's side, P2 the Wights').
pub fn features(state: &Wights, side: Player) -> [f64; FEATURES.len()] {
    let count = |mask: u32| f64::from(mask.count_ones());
    match side {
        Player::P2 => {
            let wights = count(state.wights());
            [wights, 0.0, 0.0, 0.0, wights]
        }
        Player::P1 => {
            let dragons = count(state.dragons());
            let row = state.queen_row();
            let queen = if row.is_some() { 1.0 } else { 0.0 };
            [
                0.0,
                dragons,
                queen,
                row.map_or(0.0, f64::from),
                dragons + queen,
            ]
        }
    }
}

/// Every Dragon Queen heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "material",
        formula: "Wights' side: wight * #W - dragon * #D - (queen + queen_row * row(Q)); Queen's side: its negation   (report 002)",
        params: &[
            ParamSpec::new("wight", 20.0, "worth of a Wight"),
            ParamSpec::new("dragon", 30.0, "worth of a Dragon"),
            ParamSpec::new("queen", 300.0, "base worth of the Queen"),
            ParamSpec::new(
                "queen_row",
                10.0,
                "added to the Queen's worth per row (1-5, her start row is 1)",
            ),
        ],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_dragons=30,opp_queen=-300,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// A Dragon Queen heuristic with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// Report 002's material.
    Material(Material),
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<{ FEATURES.len() }>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        match name {
            "linear" => Ok(Heuristic::Linear(Linear::new(&lookup(
                "wights", HEURISTICS, name, params,
            )?))),
            _ => Material::from_spec(name, params).map(Heuristic::Material),
        }
    }
}

impl Evaluator<Wights> for Heuristic {
    fn evaluate(&self, state: &Wights, root: Player, noise_seed: u64) -> f64 {
        match self {
            Heuristic::Material(material) => material.evaluate(state, root, noise_seed),
            Heuristic::Linear(linear) => {
                linear.value(&features(state, root), &features(state, root.opponent()))
            }
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Wights> for Heuristic {
    fn score(&self, state: &Wights, mv: crate::games::wights::Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

/// Report 002's material evaluation with its weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Worth of a Wight.
    pub wight: f64,
    /// Worth of a Dragon.
    pub dragon: f64,
    /// Base worth of the Queen.
    pub queen: f64,
    /// Queen's worth per row.
    pub queen_row: f64,
}

impl Material {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Material, ParamError> {
        if name == "linear" {
            return Err(ParamError::UnknownKey {
                heuristic: "for wights".to_string(),
                key: name.to_string(),
                known: "material".to_string(),
            });
        }
        let v = lookup("wights", HEURISTICS, name, params)?;
        Ok(Material {
            wight: v[0],
            dragon: v[1],
            queen: v[2],
            queen_row: v[3],
        })
    }

    /// The score for the Wights' side (P2).
    pub fn wights_score(&self, state: &Wights) -> f64 {
        let queen = state
            .queen_row()
            .map_or(0.0, |row| self.queen + self.queen_row * f64::from(row));
        self.wight * f64::from(state.wights().count_ones())
            - self.dragon * f64::from(state.dragons().count_ones())
            - queen
    }
}

impl Evaluator<Wights> for Material {
    fn evaluate(&self, state: &Wights, root: Player, _noise_seed: u64) -> f64 {
        let score = self.wights_score(state);
        match root {
            Player::P2 => score,
            Player::P1 => -score,
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Wights> for Material {
    fn score(&self, state: &Wights, mv: crate::games::wights::Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_2() {
        let material = Material::from_spec("material", &[]).expect("known");
        let start = Wights::new();
        assert_eq!(material.evaluate(&start, Player::P2, 0), -300.0);
        assert_eq!(material.evaluate(&start, Player::P1, 0), 300.0);
        let advanced = Wights::from_dump(
            ". . . . .\n. D D D .\n. . Q . .\n. . . . .\nW W W W W\n",
            Player::P2,
            4,
        )
        .expect("valid");
        assert_eq!(material.evaluate(&advanced, Player::P2, 0), -320.0);
        let heavier =
            Material::from_spec("material", &[("queen".into(), "500".into())]).expect("valid");
        assert_eq!(heavier.evaluate(&start, Player::P1, 0), 500.0);
        assert!(Material::from_spec("mobility", &[]).is_err());
    }

    #[test]
    fn features_of_a_hand_set_position() {
        let state = Wights::from_dump(
            ". . . . .\n. D . D .\n. . . Q .\n. . . . .\nW W . W W\n",
            Player::P2,
            4,
        )
        .expect("valid");
        let row = state.queen_row().expect("queen") as f64;
        assert_eq!(features(&state, Player::P2), [4.0, 0.0, 0.0, 0.0, 4.0]);
        assert_eq!(features(&state, Player::P1), [0.0, 2.0, 1.0, row, 3.0]);
    }
}
