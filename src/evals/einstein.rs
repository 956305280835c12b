//! EinStein würfelt nicht! heuristics: `material` (cubes against cubes), `race` (how
//! near each side's next move brings it to its corner on average over the die, and the
//! cubes), and `linear` over [`FEATURES`].

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::einstein::Einstein;

/// The named features of a position for a side.
pub const FEATURES: [&str; 3] = ["cubes", "nearest", "expected"];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 12] = linear_params!(
    "cubes": "its cubes on the board",
    "nearest": "the steps its cube nearest its goal corner still has to go",
    "expected": "the steps to the goal corner of the best cube the die lets it move, averaged over the die's six faces",
);

/// `race` at its defaults as `linear` weights: equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[(
    "race",
    &[
        ("own_cubes", "0.5"),
        ("own_expected", "-1"),
        ("opp_cubes", "-0.5"),
        ("opp_expected", "1"),
    ],
)];

/// Every EinStein heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "race",
        formula: "step * (their expected steps - own expected steps) + cube * (own cubes - their cubes); expected steps: the steps to the corner of the best cube each face of the die lets the side move, averaged over the faces",
        params: &[
            ParamSpec::new("step", 1.0, "per step of expected distance to the corner"),
            ParamSpec::new("cube", 0.5, "per cube more than the other side"),
        ],
    },
    HeuristicInfo {
        name: "material",
        formula: "own cubes - their cubes",
        params: &[],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_expected=-1,opp_expected=1,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// Steps from `cell` to `side`'s goal corner (a step may be diagonal).
fn steps_to_goal(side: Player, cell: u8) -> u8 {
    let (row, column) = (cell / 5, cell % 5);
    match side {
        Player::P1 => (4 - row).max(4 - column),
        _ => row.max(column),
    }
}

/// The value of [`FEATURES`] for `side`.
pub fn features(state: &Einstein, side: Player) -> [f64; FEATURES.len()] {
    let cubes = state.cubes(side);
    let distance = |n: usize| cubes[n].map(|cell| steps_to_goal(side, cell));
    let on_board = cubes.iter().filter(|c| c.is_some()).count();
    let nearest = (0..6).filter_map(distance).min().unwrap_or(0);
    // For each face: the cube of that number, else the next lower and higher on board.
    let mut total = 0u32;
    for face in 0..6 {
        let best = match distance(face) {
            Some(d) => d,
            None => {
                let lower = (0..face).rev().find_map(distance);
                let higher = (face + 1..6).find_map(distance);
                lower.into_iter().chain(higher).min().unwrap_or(0)
            }
        };
        total += u32::from(best);
    }
    [on_board as f64, f64::from(nearest), f64::from(total) / 6.0]
}

/// An EinStein heuristic with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// Expected steps and cubes.
    Race {
        /// Per step of expected distance.
        step: f64,
        /// Per cube.
        cube: f64,
    },
    /// Cubes against cubes.
    Material,
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<3>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("einstein", HEURISTICS, name, params)?;
        Ok(match name {
            "race" => Heuristic::Race {
                step: v[0],
                cube: v[1],
            },
            "material" => Heuristic::Material,
            _ => Heuristic::Linear(Linear::new(&v)),
        })
    }
}

impl Evaluator<Einstein> for Heuristic {
    fn evaluate(&self, state: &Einstein, root: Player, _noise_seed: u64) -> f64 {
        match *self {
            Heuristic::Material => {
                f64::from(state.piece_count_of(root))
                    - f64::from(state.piece_count_of(root.opponent()))
            }
            Heuristic::Race { step, cube } => {
                let own = features(state, root);
                let opp = features(state, root.opponent());
                // Summed as `linear` sums its form: own terms, then the opponent's.
                (cube * own[0] + -step * own[2]) + (-cube * opp[0] + step * opp[2])
            }
            Heuristic::Linear(weights) => {
                weights.value(&features(state, root), &features(state, root.opponent()))
            }
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Einstein> for Heuristic {
    fn score(&self, state: &Einstein, mv: u16, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}
