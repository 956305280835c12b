//! Connect Four heuristics: `windows`, the classic window count (every four-cell line
//! holding only one side's discs, weighted by how many it holds, and discs in the centre
//! column), `threats` (Allis' odd and even threats: empty cells that would complete a
//! four, worth most on rows of the parity that favours their owner: odd rows for the first
//! player, even rows for the second), and `linear` over [`FEATURES`].

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::connect_four::{ConnectFour, Geometry, Params, threats};

/// The named features of a Connect Four position for a side.
pub const FEATURES: [&str; 6] = [
    "ones",
    "twos",
    "threes",
    "centre",
    "odd_threats",
    "even_threats",
];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 24] = linear_params!(
    "ones": "four-cell lines holding one of its discs and none of the other side's",
    "twos": "lines holding two of its discs and none of the other side's",
    "threes": "lines holding three of its discs and none of the other side's",
    "centre": "its discs in the centre column (the two middle ones on an even board)",
    "odd_threats": "empty cells on odd rows (row 1 is the bottom) that would complete its four",
    "even_threats": "empty cells on even rows that would complete its four",
);

/// `windows` at its defaults as `linear` weights: equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[(
    "windows",
    &[
        ("own_twos", "2"),
        ("own_threes", "5"),
        ("own_centre", "3"),
        ("opp_twos", "-0"),
        ("opp_threes", "-4"),
    ],
)];

/// Every Connect Four heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "windows",
        formula: "centre * own centre discs + two * own twos + three * own threes - opp_two * their twos - opp_three * their threes   (the window count)",
        params: &[
            ParamSpec::new("centre", 3.0, "per own disc in the centre column"),
            ParamSpec::new("two", 2.0, "per line holding two own discs and no other"),
            ParamSpec::new(
                "three",
                5.0,
                "per line holding three own discs and no other",
            ),
            ParamSpec::new(
                "opp_two",
                0.0,
                "subtracted per line holding two of the other side's",
            ),
            ParamSpec::new(
                "opp_three",
                4.0,
                "subtracted per line holding three of the other side's",
            ),
        ],
    },
    HeuristicInfo {
        name: "threats",
        formula: "good * own threats on its good rows + other * its other threats - the same for the other side + three * (own threes - theirs) + centre * (own centre - theirs); good rows: odd for P1, even for P2   (Allis)",
        params: &[
            ParamSpec::new(
                "good",
                20.0,
                "per threat on the owner's good rows (odd for P1, even for P2)",
            ),
            ParamSpec::new("other", 5.0, "per threat on the other rows"),
            ParamSpec::new(
                "three",
                2.0,
                "per line holding three own discs and no other",
            ),
            ParamSpec::new("centre", 1.0, "per disc in the centre column"),
        ],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_threes=5,opp_threes=-4,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// Lines of four counted by how many of `own`'s discs they hold, none of `other`'s:
/// `[ones, twos, threes]`.
pub fn windows(own: u128, other: u128, geometry: &Geometry) -> [u32; 3] {
    let h = geometry.height;
    let mut counts = [0; 3];
    for shift in [1, h, h - 1, h + 1] {
        let on_board = geometry.board
            & (geometry.board >> shift)
            & (geometry.board >> (2 * shift))
            & (geometry.board >> (3 * shift));
        let clean =
            on_board & !(other | other >> shift | other >> (2 * shift) | other >> (3 * shift));
        let (a, b, c, d) = (own, own >> shift, own >> (2 * shift), own >> (3 * shift));
        // The number of own discs in each line, as three bit planes.
        let (low1, carry1) = (a ^ b, a & b);
        let (low2, carry2) = (c ^ d, c & d);
        let low = low1 ^ low2;
        let carry = low1 & low2;
        let mid = carry1 ^ carry2 ^ carry;
        let high = (carry1 & carry2) | (carry & (carry1 ^ carry2));
        let none_high = clean & !high;
        counts[0] += (none_high & !mid & low).count_ones();
        counts[1] += (none_high & mid & !low).count_ones();
        counts[2] += (none_high & mid & low).count_ones();
    }
    counts
}

/// The centre column's cells (the two middle columns' on an even board).
fn centre(params: Params, geometry: &Geometry) -> u128 {
    let column_cells = (1u128 << params.rows) - 1;
    let middle = u32::from(params.columns - 1) / 2;
    let mut mask = column_cells << (middle * geometry.height);
    if params.columns.is_multiple_of(2) {
        mask |= column_cells << ((middle + 1) * geometry.height);
    }
    mask
}

/// The value of [`FEATURES`] for `side`.
pub fn features(state: &ConnectFour, side: Player) -> [f64; FEATURES.len()] {
    let params = state.params();
    let geometry = params.geometry();
    let (own, other) = (state.discs(side), state.discs(side.opponent()));
    let [ones, twos, threes] = windows(own, other, geometry);
    let found = threats(own, state.occupied(), geometry);
    [
        f64::from(ones),
        f64::from(twos),
        f64::from(threes),
        f64::from((own & centre(params, geometry)).count_ones()),
        f64::from((found & geometry.odd_rows).count_ones()),
        f64::from((found & !geometry.odd_rows).count_ones()),
    ]
}

/// A Connect Four heuristic with its parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// The window count.
    Windows {
        /// Per own centre disc.
        centre: f64,
        /// Per own two.
        two: f64,
        /// Per own three.
        three: f64,
        /// Per two of the other side's (subtracted).
        opp_two: f64,
        /// Per three of the other side's (subtracted).
        opp_three: f64,
    },
    /// Odd and even threats.
    Threats {
        /// Per threat on the owner's good rows.
        good: f64,
        /// Per other threat.
        other: f64,
        /// Per own three.
        three: f64,
        /// Per centre disc.
        centre: f64,
    },
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<6>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter, or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("connect-four", HEURISTICS, name, params)?;
        Ok(match name {
            "windows" => Heuristic::Windows {
                centre: v[0],
                two: v[1],
                three: v[2],
                opp_two: v[3],
                opp_three: v[4],
            },
            "threats" => Heuristic::Threats {
                good: v[0],
                other: v[1],
                three: v[2],
                centre: v[3],
            },
            _ => Heuristic::Linear(Linear::new(&v)),
        })
    }
}

impl Evaluator<ConnectFour> for Heuristic {
    fn evaluate(&self, state: &ConnectFour, root: Player, _noise_seed: u64) -> f64 {
        let params = state.params();
        let geometry = params.geometry();
        let (own, other) = (state.discs(root), state.discs(root.opponent()));
        let middle = centre(params, geometry);
        match *self {
            Heuristic::Windows {
                centre,
                two,
                three,
                opp_two,
                opp_three,
            } => {
                let [_, twos, threes] = windows(own, other, geometry);
                let [_, their_twos, their_threes] = windows(other, own, geometry);
                centre * f64::from((own & middle).count_ones())
                    + two * f64::from(twos)
                    + three * f64::from(threes)
                    - opp_two * f64::from(their_twos)
                    - opp_three * f64::from(their_threes)
            }
            Heuristic::Threats {
                good,
                other: other_weight,
                three,
                centre,
            } => {
                let side_value = |side: Player, mine: u128, theirs: u128| {
                    let found = threats(mine, state.occupied(), geometry);
                    let good_rows = match side {
                        Player::P1 => geometry.odd_rows,
                        _ => geometry.board & !geometry.odd_rows,
                    };
                    let [_, _, threes] = windows(mine, theirs, geometry);
                    good * f64::from((found & good_rows).count_ones())
                        + other_weight * f64::from((found & !good_rows).count_ones())
                        + three * f64::from(threes)
                        + centre * f64::from((mine & middle).count_ones())
                };
                side_value(root, own, other) - side_value(root.opponent(), other, own)
            }
            Heuristic::Linear(weights) => {
                weights.value(&features(state, root), &features(state, root.opponent()))
            }
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<ConnectFour> for Heuristic {
    fn score(&self, state: &ConnectFour, mv: u8, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn windows_count_lines_by_their_discs_and_threats_by_row_parity() {
        let params = Params::default();
        let geometry = params.geometry();
        let empty = ConnectFour::new(params);
        // 6x7: 24 lines across, 21 up, 12 + 12 diagonal: 69, all empty.
        assert_eq!(windows(0, 0, geometry), [0, 0, 0]);
        // One disc at the bottom of column 4: in 1 line up, 4 across and 1 + 1 diagonal.
        let one = ConnectFour::from_moves(params, "4").expect("legal");
        assert_eq!(windows(one.discs(Player::P1), 0, geometry), [7, 0, 0]);
        // P1 on 1, 2, 3 of the bottom row, P2 above them: P1 has one three (1-4 across).
        let three = ConnectFour::from_moves(params, "112233").expect("legal");
        let f = features(&three, Player::P1);
        assert_eq!((f[2], f[4], f[5]), (1.0, 1.0, 0.0), "{f:?}");
        let g = features(&three, Player::P2);
        assert_eq!((g[2], g[4], g[5]), (1.0, 0.0, 1.0), "{g:?}");
        assert_eq!(features(&empty, Player::P1), [0.0; 6]);
        // The first player's odd threat is worth more to it than the second's even one.
        let threats = Heuristic::from_spec("threats", &[]).expect("known");
        assert_eq!(threats.evaluate(&three, Player::P1, 0), 0.0);
        let windows = Heuristic::from_spec("windows", &[]).expect("known");
        // Own three (5) and two (columns 2-5 of row 1: 2), no centre disc; their three (4),
        // their two (not counted by default).
        assert_eq!(windows.evaluate(&three, Player::P1, 0), 5.0 + 2.0 - 4.0);
    }

    #[test]
    fn the_window_count_plays_the_centre_first() {
        let params = Params::default();
        let start = ConnectFour::new(params);
        let windows = Heuristic::from_spec("windows", &[]).expect("known");
        let mut moves = Vec::new();
        start.legal_moves(&mut moves);
        let best = moves
            .iter()
            .copied()
            .max_by(|&a, &b| {
                windows
                    .score(&start, a, 0)
                    .total_cmp(&windows.score(&start, b, 0))
            })
            .expect("moves");
        assert_eq!(start.format_move(best), "4");
    }
}
