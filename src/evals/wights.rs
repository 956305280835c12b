//! The Dragon Queen heuristic of report 002: material, with a Queen worth more as she
//! advances. `x` in the Queen's worth `300 + 10x` is her row, 1 (start) to 5 (goal); the
//! report never defines it, this is the spec's reading. Also `linear`, over
//! [`FEATURES`].

use super::{HeuristicInfo, ParamError, ParamSpec, lookup};
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
        _ => {
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
    Linear(LinearWeights),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        match name {
            "linear" => Ok(Heuristic::Linear(LinearWeights::new(&lookup(
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
            Heuristic::Linear(linear) => linear.value(state, root),
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
/// The `linear` heuristic's weights folded onto the position's own counts. A side's
/// features count only its own pieces (the other side's are 0: Wights for one side, Dragons
/// and the Queen for the other), so the weighted sum of both sides' features and squares is
/// a sum over the counts W (Wights), D (Dragons), Q (1 with the Queen), R (her row) and
/// their products, with coefficients that depend only on which side is evaluated: eight
/// products instead of twenty, the same value (`Q * Q = Q`, `pieces = D + Q`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearWeights {
    /// Per side evaluated (the Queen's, the Wights'): the coefficients of W, W^2, D, D^2,
    /// Q, R, R^2 and D * Q.
    coefficients: [[f64; 8]; 2],
}

impl LinearWeights {
    /// From the weights in the order of [`LINEAR_PARAMS`] (four per feature: own, own
    /// squared, opponent, opponent squared).
    pub fn new(values: &[f64]) -> LinearWeights {
        let weight =
            |feature: usize, kind: usize| values.get(4 * feature + kind).copied().unwrap_or(0.0);
        // `wights` and `queen` say which weights (0: own, 2: opponent's) each side's
        // features take.
        let fold = |wights: usize, queen: usize| {
            let (w, q) = (wights, queen);
            [
                weight(0, w) + weight(4, w),
                weight(0, w + 1) + weight(4, w + 1),
                weight(1, q) + weight(4, q),
                weight(1, q + 1) + weight(4, q + 1),
                weight(2, q) + weight(2, q + 1) + weight(4, q) + weight(4, q + 1),
                weight(3, q),
                weight(3, q + 1),
                2.0 * weight(4, q + 1),
            ]
        };
        LinearWeights {
            coefficients: [fold(2, 0), fold(0, 2)],
        }
    }

    /// The weighted sum for `root`.
    #[inline]
    pub fn value(&self, state: &Wights, root: Player) -> f64 {
        let coefficients = &self.coefficients[root.pair_index()];
        let count = |mask: u32| f64::from(mask.count_ones());
        let (w, d) = (count(state.wights()), count(state.dragons()));
        let (q, r) = state
            .queen_row()
            .map_or((0.0, 0.0), |row| (1.0, f64::from(row)));
        let counts = [w, w * w, d, d * d, q, r, r * r, d * q];
        // Four partial sums: independent additions run side by side.
        let mut sums = [0.0; 4];
        for (i, (c, x)) in coefficients.iter().zip(counts).enumerate() {
            sums[i % 4] += c * x;
        }
        (sums[0] + sums[1]) + (sums[2] + sums[3])
    }
}

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
                hint: String::new(),
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
            _ => -score,
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
    fn folded_weights_equal_the_sum_over_features() {
        // Any weights (squares included, not whole numbers), random positions, both sides:
        // the folded sum equals the weighted sum of every feature and its square.
        let mut rng = crate::core::seeds::rng(5);
        let positions = crate::games::random_positions(&Wights::new(), 300, 0, 40, 3);
        for _ in 0..20 {
            let values: Vec<f64> = (0..LINEAR_PARAMS.len())
                .map(|_| crate::core::seeds::below(&mut rng, 2001) as f64 / 10.0 - 100.0)
                .collect();
            let folded = LinearWeights::new(&values);
            let weighted = |own: [f64; 5], opp: [f64; 5]| -> f64 {
                (0..5)
                    .map(|i| {
                        values[4 * i] * own[i]
                            + values[4 * i + 1] * own[i] * own[i]
                            + values[4 * i + 2] * opp[i]
                            + values[4 * i + 3] * opp[i] * opp[i]
                    })
                    .sum()
            };
            for state in &positions {
                for root in [Player::P1, Player::P2] {
                    let expected =
                        weighted(features(state, root), features(state, root.opponent()));
                    let got = folded.value(state, root);
                    assert!(
                        (got - expected).abs() <= 1e-9 * expected.abs().max(1.0),
                        "{got} against {expected} for {values:?}"
                    );
                }
            }
        }
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
