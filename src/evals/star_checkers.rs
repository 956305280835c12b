//! Heuristics for Chinese Checkers on the star, for any number of players: `distance`
//! (the steps the others still have to go, on average, less one's own: the course's race
//! count), `laggard` (the same, with a penalty for the marble left furthest behind), and
//! `linear` over [`FEATURES`], the opponents' features being their average.

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Game, Player, score_by_child};
use crate::games::star_checkers::{Move, StarCheckers, geometry};

/// The named features of a position for a player.
pub const FEATURES: [&str; 3] = ["distance", "laggard", "in_goal"];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 12] = linear_params!(
    "distance": "the hex steps its marbles still have to go to its goal's tip, less the 20 of a full goal",
    "laggard": "the steps its hindmost marble has to go to the tip",
    "in_goal": "its marbles in its goal",
);

/// `distance` as `linear` weights: equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] =
    &[("distance", &[("own_distance", "-1"), ("opp_distance", "1")])];

/// Every heuristic of the star.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "distance",
        formula: "the others' remaining steps (their average) - own remaining steps; steps: hex steps of every marble to its goal's tip, less the 20 of a full goal",
        params: &[],
    },
    HeuristicInfo {
        name: "laggard",
        formula: "distance - weight * (own hindmost marble's steps - the others' average hindmost steps)",
        params: &[ParamSpec::new(
            "weight",
            2.0,
            "per step of the marble furthest from the goal",
        )],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over own features, the others' average and their squares (own_distance=-1,opp_distance=1,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// The value of [`FEATURES`] for `player`.
pub fn features(state: &StarCheckers, player: Player) -> [f64; FEATURES.len()] {
    let g = geometry();
    let goal = state.goal(player);
    let marbles = state.marbles(player);
    let mut laggard = 0u8;
    let mut bits = marbles;
    while bits != 0 {
        let cell = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        laggard = laggard.max(g.to_tip[goal][cell]);
    }
    [
        f64::from(state.distance(player)),
        f64::from(laggard),
        f64::from((marbles & g.points[goal]).count_ones()),
    ]
}

/// The average of the other players' features.
fn others(state: &StarCheckers, player: Player) -> [f64; FEATURES.len()] {
    let mut sum = [0.0; FEATURES.len()];
    let seats = Player::seats(state.players());
    for &other in seats.iter().filter(|&&p| p != player) {
        for (total, value) in sum.iter_mut().zip(features(state, other)) {
            *total += value;
        }
    }
    let n = (seats.len() - 1).max(1) as f64;
    sum.map(|total| total / n)
}

/// A heuristic of the star with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// The race count.
    Distance,
    /// The race count with the hindmost marble.
    Laggard {
        /// Per step of the hindmost marble.
        weight: f64,
    },
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<3>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("chinese-checkers-star", HEURISTICS, name, params)?;
        Ok(match name {
            "laggard" => Heuristic::Laggard { weight: v[0] },
            "linear" => Heuristic::Linear(Linear::new(&v)),
            _ => Heuristic::Distance,
        })
    }
}

impl Evaluator<StarCheckers> for Heuristic {
    fn evaluate(&self, state: &StarCheckers, root: Player, _noise_seed: u64) -> f64 {
        let own = features(state, root);
        let opp = others(state, root);
        match *self {
            Heuristic::Distance => opp[0] - own[0],
            Heuristic::Laggard { weight } => (opp[0] - own[0]) - weight * (own[1] - opp[1]),
            Heuristic::Linear(weights) => weights.value(&own, &opp),
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<StarCheckers> for Heuristic {
    fn score(&self, state: &StarCheckers, mv: Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}
