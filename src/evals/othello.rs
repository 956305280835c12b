//! Othello heuristics, each with its constants as parameters: `discs` (the disc count),
//! `mobility` (own and opponent move counts), `corners` (corners held, and the squares
//! next to a corner still empty, which give it away), `squares` (the widely taught
//! square-weight table: corners 100, next to them -20 and -50, edges 10 and 5, inner ring
//! -2, centre -1), and `linear` over [`FEATURES`].

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::othello::Othello;

/// The named features of an Othello position for a side.
pub const FEATURES: [&str; 5] = ["discs", "mobility", "corners", "corner_adjacent", "squares"];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 20] = linear_params!(
    "discs": "its discs",
    "mobility": "the squares it could play now",
    "corners": "its discs on corners",
    "corner_adjacent": "its discs next to a corner that is still empty",
    "squares": "its discs weighted by the square table at its default weights",
);

/// The named heuristics at their defaults as `linear` weights: equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[
    ("discs", &[("own_discs", "1"), ("opp_discs", "-1")]),
    ("mobility", &[("own_mobility", "1"), ("opp_mobility", "-1")]),
    (
        "corners",
        &[
            ("own_corners", "25"),
            ("opp_corners", "-25"),
            ("own_corner_adjacent", "-10"),
            ("opp_corner_adjacent", "10"),
        ],
    ),
    ("squares", &[("own_squares", "1"), ("opp_squares", "-1")]),
];

/// The square classes of the table, as masks: corners, C-squares (on an edge next to a
/// corner), A-squares (edge, two from a corner), B-squares (middle of an edge), X-squares
/// (diagonal to a corner), the inner ring next to the edges, and the centre.
const CORNERS: u64 = 0x8100_0000_0000_0081;
const C_SQUARES: u64 = 0x4281_0000_0000_8142;
const A_SQUARES: u64 = 0x2400_8100_0081_0024;
const B_SQUARES: u64 = 0x1800_0081_8100_0018;
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
const INNER_RING: u64 = 0x003c_4242_4242_3c00;
const CENTRE: u64 = 0x0000_3c3c_3c3c_0000;

/// The squares next to each corner (its C- and X-squares), corner by corner.
const NEXT_TO: [(u64, u64); 4] = [
    (1 << 0, (1 << 1) | (1 << 8) | (1 << 9)),
    (1 << 7, (1 << 6) | (1 << 15) | (1 << 14)),
    (1 << 56, (1 << 57) | (1 << 48) | (1 << 49)),
    (1 << 63, (1 << 62) | (1 << 55) | (1 << 54)),
];

/// The square table's weights, class by class (corner, C, A, B, X, inner ring, centre).
const TABLE: [f64; 7] = [100.0, -20.0, 10.0, 5.0, -50.0, -2.0, -1.0];

/// `discs` weighted by the table `weights` (class by class, as [`TABLE`]).
fn table_sum(discs: u64, weights: &[f64; 7]) -> f64 {
    let masks = [
        CORNERS, C_SQUARES, A_SQUARES, B_SQUARES, X_SQUARES, INNER_RING, CENTRE,
    ];
    masks
        .iter()
        .zip(weights)
        .map(|(mask, w)| w * f64::from((discs & mask).count_ones()))
        .sum()
}

/// `discs` on squares next to a corner that is still empty in `all`.
fn next_to_empty_corners(discs: u64, all: u64) -> u32 {
    NEXT_TO
        .iter()
        .filter(|(corner, _)| all & corner == 0)
        .map(|(_, next)| (discs & next).count_ones())
        .sum()
}

/// The value of [`FEATURES`] for `side`.
pub fn features(state: &Othello, side: Player) -> [f64; FEATURES.len()] {
    let own = state.discs(side);
    let all = own | state.discs(side.opponent());
    [
        f64::from(own.count_ones()),
        f64::from(state.mobility_of(side).count_ones()),
        f64::from((own & CORNERS).count_ones()),
        f64::from(next_to_empty_corners(own, all)),
        table_sum(own, &TABLE),
    ]
}

/// Every Othello heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "discs",
        formula: "disc * (own discs - opponent's)",
        params: &[ParamSpec::new("disc", 1.0, "per disc")],
    },
    HeuristicInfo {
        name: "mobility",
        formula: "own * own moves - opp * the opponent's moves (squares each could play now)",
        params: &[
            ParamSpec::new("own", 1.0, "per own move"),
            ParamSpec::new("opp", 1.0, "per opponent move (subtracted)"),
        ],
    },
    HeuristicInfo {
        name: "corners",
        formula: "corner * (own corners - theirs) + adjacent * (own discs next to an empty corner - theirs)",
        params: &[
            ParamSpec::new("corner", 25.0, "per corner held"),
            ParamSpec::new("adjacent", -10.0, "per disc next to a corner still empty"),
        ],
    },
    HeuristicInfo {
        name: "squares",
        formula: "own discs weighted by the square table - the opponent's (corners 100, C -20, A 10, B 5, X -50, inner ring -2, centre -1)",
        params: &[
            ParamSpec::new("corner", 100.0, "a corner"),
            ParamSpec::new("c", -20.0, "an edge square next to a corner (C-square)"),
            ParamSpec::new("a", 10.0, "an edge square two from a corner (A-square)"),
            ParamSpec::new("b", 5.0, "a middle edge square (B-square)"),
            ParamSpec::new("x", -50.0, "the square diagonal to a corner (X-square)"),
            ParamSpec::new("ring", -2.0, "the inner ring next to the edges"),
            ParamSpec::new("centre", -1.0, "the sixteen centre squares"),
        ],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_mobility=1,opp_corners=-25,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// An Othello heuristic with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// Disc count.
    Discs(f64),
    /// Move counts: own and opponent's weights.
    Mobility(f64, f64),
    /// Corners and the squares next to empty corners.
    Corners(f64, f64),
    /// The square table, class by class.
    Squares([f64; 7]),
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<5>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("othello", HEURISTICS, name, params)?;
        Ok(match name {
            "discs" => Heuristic::Discs(v[0]),
            "mobility" => Heuristic::Mobility(v[0], v[1]),
            "corners" => Heuristic::Corners(v[0], v[1]),
            "squares" => Heuristic::Squares([v[0], v[1], v[2], v[3], v[4], v[5], v[6]]),
            _ => Heuristic::Linear(Linear::new(&v)),
        })
    }
}

impl Evaluator<Othello> for Heuristic {
    fn evaluate(&self, state: &Othello, root: Player, _noise_seed: u64) -> f64 {
        let (own, other) = (state.discs(root), state.discs(root.opponent()));
        let count = |bits: u64| f64::from(bits.count_ones());
        match self {
            Heuristic::Discs(disc) => disc * (count(own) - count(other)),
            Heuristic::Mobility(mine, theirs) => {
                mine * count(state.mobility_of(root))
                    - theirs * count(state.mobility_of(root.opponent()))
            }
            Heuristic::Corners(corner, adjacent) => {
                let all = own | other;
                corner * (count(own & CORNERS) - count(other & CORNERS))
                    + adjacent
                        * (f64::from(next_to_empty_corners(own, all))
                            - f64::from(next_to_empty_corners(other, all)))
            }
            Heuristic::Squares(weights) => table_sum(own, weights) - table_sum(other, weights),
            Heuristic::Linear(weights) => {
                weights.value(&features(state, root), &features(state, root.opponent()))
            }
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Othello> for Heuristic {
    fn score(&self, state: &Othello, mv: u8, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn the_square_classes_cover_the_board_once_and_weigh_the_taught_table() {
        let classes = [
            CORNERS, C_SQUARES, A_SQUARES, B_SQUARES, X_SQUARES, INNER_RING, CENTRE,
        ];
        let mut seen = 0u64;
        for class in classes {
            assert_eq!(seen & class, 0, "classes overlap");
            seen |= class;
        }
        assert_eq!(seen, u64::MAX, "every square in one class");
        // The table's first two rows, as taught.
        let weight = |square: u32| table_sum(1 << square, &TABLE);
        let row1: Vec<f64> = (0..8).map(weight).collect();
        let row2: Vec<f64> = (8..16).map(weight).collect();
        assert_eq!(row1, [100.0, -20.0, 10.0, 5.0, 5.0, 10.0, -20.0, 100.0]);
        assert_eq!(row2, [-20.0, -50.0, -2.0, -2.0, -2.0, -2.0, -50.0, -20.0]);
        assert_eq!(weight(27), -1.0);
        assert_eq!(weight(18), -1.0);
    }

    #[test]
    fn the_start_is_even_and_mobility_counts_both_sides() {
        let start = Othello::new();
        assert_eq!(features(&start, Player::P1), [2.0, 4.0, 0.0, 0.0, -2.0]);
        assert_eq!(features(&start, Player::P2), [2.0, 4.0, 0.0, 0.0, -2.0]);
        for name in ["discs", "mobility", "corners", "squares"] {
            let h = Heuristic::from_spec(name, &[]).expect("known");
            assert_eq!(h.evaluate(&start, Player::P1, 0), 0.0, "{name}");
        }
        let mut after = start;
        after.apply(after.parse_move("d3").expect("legal"));
        let discs = Heuristic::from_spec("discs", &[("disc".into(), "2".into())]).expect("valid");
        assert_eq!(discs.evaluate(&after, Player::P1, 0), 6.0);
    }
}
