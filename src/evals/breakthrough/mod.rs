//! Breakthrough heuristics from report 000 (`defensive1`, `offensive1`, `offensive2`,
//! `defensive2`) and report 001 (`offense`, `defense`), plus `material` (a cheap baseline
//! for benchmarks). Formulas follow the spec (`README.md`, "Heuristics"); every constant
//! is a parameter with the report's value as default.
//!
//! Choices written down here:
//! * U, report 000's random term in [0, 1), is `noise * unit_noise(position, agent seed)`:
//!   reproducible, and the same for minimax and alpha-beta. `noise=0` removes it.
//! * `three-to-base`: offensive2/defensive2 drop the win and almost-win bonuses (report
//!   000's text), keeping the distance and anti-capture terms.
//! * `long`: every piece still on its own home row adds `home_stage` to its side's board
//!   value, after the anti-capture rule. The report gives no number; the default, 2, is the
//!   value of 0, 1, 2, 4, 8 and 16 whose P1 win counts came nearest the report's long-board
//!   table (98, 97, 100 of 100), over three seeds (docs/games.md, "Rules and interpretations").
//! * Report 001's heuristics are used unchanged on every rule set, as the report says.

use super::{HeuristicInfo, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child, seeds::unit_noise};
use crate::games::breakthrough::{Breakthrough, Geometry, Rules};

const NOISE: ParamSpec = ParamSpec::new(
    "noise",
    1.0,
    "scale of the random term U in [0,1) (0: none)",
);
const WIN_VALUE: ParamSpec =
    ParamSpec::new("win_value", 500_000.0, "bonus of a piece on its goal row");
const ALMOST_WIN: ParamSpec = ParamSpec::new(
    "almost_win",
    10_000.0,
    "bonus of a piece one row before its goal row with no enemy on its diagonals",
);
const HOME_STAGE: ParamSpec = ParamSpec::new(
    "home_stage",
    2.0,
    "long board only: bonus of a piece still on its home row",
);

/// The named features of a Breakthrough position for a side, in the order of
/// [`LINEAR_PARAMS`] (each feature gives four weights: own, own squared, opponent,
/// opponent squared).
pub const FEATURES: [&str; 8] = [
    "pieces",
    "taken",
    "max_advance",
    "advance_sum",
    "threatened",
    "safe",
    "home_row",
    "runners",
];

/// The weights of the `linear` heuristic: `own_<feature>`, `own_<feature>_sq`,
/// `opp_<feature>`, `opp_<feature>_sq` for every feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 32] = [
    ParamSpec::new("own_pieces", 0.0, "the side evaluated: pieces on the board"),
    ParamSpec::new(
        "own_pieces_sq",
        0.0,
        "the side evaluated: (pieces on the board)^2",
    ),
    ParamSpec::new("opp_pieces", 0.0, "its opponent: pieces on the board"),
    ParamSpec::new(
        "opp_pieces_sq",
        0.0,
        "its opponent: (pieces on the board)^2",
    ),
    ParamSpec::new(
        "own_taken",
        0.0,
        "the side evaluated: enemy pieces it has captured",
    ),
    ParamSpec::new(
        "own_taken_sq",
        0.0,
        "the side evaluated: (enemy pieces it has captured)^2",
    ),
    ParamSpec::new(
        "opp_taken",
        0.0,
        "its opponent: enemy pieces it has captured",
    ),
    ParamSpec::new(
        "opp_taken_sq",
        0.0,
        "its opponent: (enemy pieces it has captured)^2",
    ),
    ParamSpec::new(
        "own_max_advance",
        0.0,
        "the side evaluated: rows its most advanced piece has moved",
    ),
    ParamSpec::new(
        "own_max_advance_sq",
        0.0,
        "the side evaluated: (rows its most advanced piece has moved)^2",
    ),
    ParamSpec::new(
        "opp_max_advance",
        0.0,
        "its opponent: rows its most advanced piece has moved",
    ),
    ParamSpec::new(
        "opp_max_advance_sq",
        0.0,
        "its opponent: (rows its most advanced piece has moved)^2",
    ),
    ParamSpec::new(
        "own_advance_sum",
        0.0,
        "the side evaluated: rows moved, summed over its pieces",
    ),
    ParamSpec::new(
        "own_advance_sum_sq",
        0.0,
        "the side evaluated: (rows moved, summed over its pieces)^2",
    ),
    ParamSpec::new(
        "opp_advance_sum",
        0.0,
        "its opponent: rows moved, summed over its pieces",
    ),
    ParamSpec::new(
        "opp_advance_sum_sq",
        0.0,
        "its opponent: (rows moved, summed over its pieces)^2",
    ),
    ParamSpec::new(
        "own_threatened",
        0.0,
        "the side evaluated: (piece, enemy attacker) pairs: its pieces under attack, counted per attacker",
    ),
    ParamSpec::new(
        "own_threatened_sq",
        0.0,
        "the side evaluated: ((piece, enemy attacker) pairs: its pieces under attack, counted per attacker)^2",
    ),
    ParamSpec::new(
        "opp_threatened",
        0.0,
        "its opponent: (piece, enemy attacker) pairs: its pieces under attack, counted per attacker",
    ),
    ParamSpec::new(
        "opp_threatened_sq",
        0.0,
        "its opponent: ((piece, enemy attacker) pairs: its pieces under attack, counted per attacker)^2",
    ),
    ParamSpec::new(
        "own_safe",
        0.0,
        "the side evaluated: its pieces no enemy piece attacks",
    ),
    ParamSpec::new(
        "own_safe_sq",
        0.0,
        "the side evaluated: (its pieces no enemy piece attacks)^2",
    ),
    ParamSpec::new(
        "opp_safe",
        0.0,
        "its opponent: its pieces no enemy piece attacks",
    ),
    ParamSpec::new(
        "opp_safe_sq",
        0.0,
        "its opponent: (its pieces no enemy piece attacks)^2",
    ),
    ParamSpec::new(
        "own_home_row",
        0.0,
        "the side evaluated: its pieces still on their home row",
    ),
    ParamSpec::new(
        "own_home_row_sq",
        0.0,
        "the side evaluated: (its pieces still on their home row)^2",
    ),
    ParamSpec::new(
        "opp_home_row",
        0.0,
        "its opponent: its pieces still on their home row",
    ),
    ParamSpec::new(
        "opp_home_row_sq",
        0.0,
        "its opponent: (its pieces still on their home row)^2",
    ),
    ParamSpec::new(
        "own_runners",
        0.0,
        "the side evaluated: its pieces one row before the goal that no enemy piece attacks",
    ),
    ParamSpec::new(
        "own_runners_sq",
        0.0,
        "the side evaluated: (its pieces one row before the goal that no enemy piece attacks)^2",
    ),
    ParamSpec::new(
        "opp_runners",
        0.0,
        "its opponent: its pieces one row before the goal that no enemy piece attacks",
    ),
    ParamSpec::new(
        "opp_runners_sq",
        0.0,
        "its opponent: (its pieces one row before the goal that no enemy piece attacks)^2",
    ),
];

/// The reports' heuristics that are linear in [`FEATURES`], as `linear` weights (report
/// 001's offense and defense, and the material baseline): equal values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[
    (
        "offense",
        &[
            ("own_taken", "50"),
            ("own_threatened", "-10"),
            ("own_max_advance_sq", "1"),
        ],
    ),
    (
        "defense",
        &[
            ("own_taken", "10"),
            ("own_pieces", "50"),
            ("opp_max_advance_sq", "-1"),
            ("own_threatened", "-5"),
        ],
    ),
    ("material", &[("own_pieces", "1"), ("opp_pieces", "-1")]),
];

/// Every Breakthrough heuristic, with its formula and parameters.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "defensive1",
        formula: "own_weight * own + U   (report 000)",
        params: &[
            ParamSpec::new("own_weight", 2.0, "weight of own pieces"),
            NOISE,
        ],
    },
    HeuristicInfo {
        name: "offensive1",
        formula: "opp_weight * (base - opp) + U   (report 000)",
        params: &[
            ParamSpec::new("opp_weight", 2.0, "weight of enemy pieces taken"),
            ParamSpec::new("base", 30.0, "constant the enemy count is taken from"),
            NOISE,
        ],
    },
    HeuristicInfo {
        name: "offensive2",
        formula: "own_weight * boardValue(me) - enemy_weight * boardValue(enemy) + U   (report 000)",
        params: &[
            ParamSpec::new("own_weight", 2.0, "weight of own board value"),
            ParamSpec::new("enemy_weight", 1.0, "weight of enemy board value"),
            WIN_VALUE,
            ALMOST_WIN,
            HOME_STAGE,
            NOISE,
        ],
    },
    HeuristicInfo {
        name: "defensive2",
        formula: "own_weight * boardValue(me) - enemy_weight * boardValue(enemy) + U   (report 000)",
        params: &[
            ParamSpec::new("own_weight", 1.0, "weight of own board value"),
            ParamSpec::new("enemy_weight", 2.0, "weight of enemy board value"),
            WIN_VALUE,
            ALMOST_WIN,
            HOME_STAGE,
            NOISE,
        ],
    },
    HeuristicInfo {
        name: "offense",
        formula: "50 * captured - 10 * threatened + maxAdv(me)^2   (report 001)",
        params: &[
            ParamSpec::new("capture_weight", 50.0, "weight of enemy pieces captured"),
            ParamSpec::new("threat_weight", 10.0, "weight of own pieces under attack"),
            ParamSpec::new("advance_weight", 1.0, "weight of maxAdv(me)^2"),
        ],
    },
    HeuristicInfo {
        name: "defense",
        formula: "10 * captured + 50 * own - maxAdv(enemy)^2 - 5 * threatened   (report 001)",
        params: &[
            ParamSpec::new("capture_weight", 10.0, "weight of enemy pieces captured"),
            ParamSpec::new("own_weight", 50.0, "weight of own pieces left"),
            ParamSpec::new("advance_weight", 1.0, "weight of maxAdv(enemy)^2"),
            ParamSpec::new("threat_weight", 5.0, "weight of own pieces under attack"),
        ],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_pieces=50,opp_max_advance_sq=-1,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
    HeuristicInfo {
        name: "material",
        formula: "own - opp   (baseline for benchmarks, no random term)",
        params: &[],
    },
];

/// report 000's per-piece value parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceValues {
    /// Bonus on the goal row.
    pub win_value: f64,
    /// Bonus one row before the goal row with both diagonals free of enemies.
    pub almost_win: f64,
    /// Long board: bonus on the home row.
    pub home_stage: f64,
}

impl Default for PieceValues {
    fn default() -> Self {
        PieceValues {
            win_value: WIN_VALUE.default,
            almost_win: ALMOST_WIN.default,
            home_stage: HOME_STAGE.default,
        }
    }
}

/// A Breakthrough heuristic with its parameters. `Linear` carries its 32 weights inline:
/// a heuristic is made once per agent and copied rarely, while a box would cost an
/// indirection on every evaluation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// `own_weight * own + U`.
    Defensive1 {
        /// Weight of own pieces.
        own_weight: f64,
        /// Scale of U.
        noise: f64,
    },
    /// `opp_weight * (base - opp) + U`.
    Offensive1 {
        /// Weight of enemy pieces taken.
        opp_weight: f64,
        /// Constant (30 in the report).
        base: f64,
        /// Scale of U.
        noise: f64,
    },
    /// offensive2 / defensive2: weighted board values.
    BoardValue {
        /// Weight of own board value.
        own_weight: f64,
        /// Weight of enemy board value.
        enemy_weight: f64,
        /// Piece value constants.
        values: PieceValues,
        /// Scale of U.
        noise: f64,
    },
    /// Report 001 offense.
    Offense {
        /// Per captured enemy piece.
        capture_weight: f64,
        /// Per threatened own piece.
        threat_weight: f64,
        /// Times maxAdv(me)^2.
        advance_weight: f64,
    },
    /// Report 001 defense.
    Defense {
        /// Per captured enemy piece.
        capture_weight: f64,
        /// Per own piece.
        own_weight: f64,
        /// Times maxAdv(enemy)^2.
        advance_weight: f64,
        /// Per threatened own piece.
        threat_weight: f64,
    },
    /// A weighted sum of [`FEATURES`] of both sides and their squares, weights in the
    /// order of [`LINEAR_PARAMS`].
    Linear {
        /// The weights.
        weights: [f64; 4 * FEATURES.len()],
        /// Per side (own, opponent), a bit per feature with a weight that is not 0: only
        /// those are computed.
        used: [u8; 2],
    },
    /// `own - opp`.
    Material,
}

impl Heuristic {
    /// The heuristic called `name` with `params` (key, value) overriding its defaults.
    ///
    /// # Errors
    /// An unknown name, key or a value that is not a number.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("breakthrough", HEURISTICS, name, params)?;
        Ok(match name {
            "defensive1" => Heuristic::Defensive1 {
                own_weight: v[0],
                noise: v[1],
            },
            "offensive1" => Heuristic::Offensive1 {
                opp_weight: v[0],
                base: v[1],
                noise: v[2],
            },
            "offensive2" | "defensive2" => Heuristic::BoardValue {
                own_weight: v[0],
                enemy_weight: v[1],
                values: PieceValues {
                    win_value: v[2],
                    almost_win: v[3],
                    home_stage: v[4],
                },
                noise: v[5],
            },
            "offense" => Heuristic::Offense {
                capture_weight: v[0],
                threat_weight: v[1],
                advance_weight: v[2],
            },
            "defense" => Heuristic::Defense {
                capture_weight: v[0],
                own_weight: v[1],
                advance_weight: v[2],
                threat_weight: v[3],
            },
            "linear" => {
                let mut weights = [0.0; 4 * FEATURES.len()];
                weights.copy_from_slice(&v);
                let mut used = [0u8; 2];
                for (feature, w) in weights.chunks_exact(4).enumerate() {
                    for (side, mask) in used.iter_mut().enumerate() {
                        if w[2 * side] != 0.0 || w[2 * side + 1] != 0.0 {
                            *mask |= 1 << feature;
                        }
                    }
                }
                Heuristic::Linear { weights, used }
            }
            _ => Heuristic::Material,
        })
    }
}

/// report 000's valueOfPiece for the piece of `side` on `square`.
pub fn piece_value(state: &Breakthrough, side: Player, square: u32, values: &PieceValues) -> f64 {
    let geometry = state.geometry();
    let own = state.pieces(side);
    let enemy = state.pieces(side.opponent());
    let advance = geometry.advance(side, square);
    let forward = geometry.forward_diagonals[side][square as usize];
    let on_goal_row = advance == geometry.rows - 1;
    let mut value = f64::from(1u32 << advance);
    if state.rules() != Rules::ThreeToBase {
        if on_goal_row {
            value += values.win_value;
        } else if advance == geometry.rows - 2 && forward.count_ones() == 2 && forward & enemy == 0
        {
            // Both diagonals must exist: edge columns never get the bonus (000's code).
            value += values.almost_win;
        }
    }
    let attackers = forward & enemy;
    if !on_goal_row && attackers != 0 {
        let supporters = geometry.backward_diagonals[side][square as usize] & own;
        if supporters.count_ones() < attackers.count_ones() {
            value = 0.0;
        }
    }
    if state.rules() == Rules::Long && advance == 0 {
        value += values.home_stage;
    }
    value
}

/// report 000's boardValue: the sum of [`piece_value`] over `side`'s pieces, computed for
/// all pieces at once with bitboards (equal to the per-piece sum; tested).
///
/// A piece's forward diagonals hold enemies exactly when the enemy attacks its square, and
/// its backward diagonals hold own pieces exactly when its own side defends it, so the
/// anti-capture rule (attackers > supporters: value 0) is a few masks.
pub fn board_value(state: &Breakthrough, side: Player, values: &PieceValues) -> f64 {
    let geometry = state.geometry();
    let own = state.pieces(side);
    let (enemy_up, enemy_down) = geometry.attacks(side.opponent(), state.pieces(side.opponent()));
    let (own_up, own_down) = geometry.attacks(side, own);
    let attacked = enemy_up | enemy_down;
    let trapped = own
        & (((enemy_up & enemy_down) & !(own_up & own_down))
            | ((enemy_up ^ enemy_down) & !(own_up | own_down)));
    let counted = own & !trapped;
    let rows = geometry.rows as usize;
    let mut total = 0.0;
    for row in 0..rows {
        let advance = match side {
            Player::P1 => row,
            _ => rows - 1 - row,
        };
        let pieces = (counted & geometry.row_masks[row]).count_ones();
        total += f64::from(pieces) * f64::from(1u32 << advance);
    }
    if state.rules() != Rules::ThreeToBase {
        let goal = geometry.goal_row[side];
        let before_goal = geometry.forward(side.opponent(), goal);
        let almost = counted & before_goal & geometry.inner_cols & !attacked;
        total += f64::from((counted & goal).count_ones()) * values.win_value;
        total += f64::from(almost.count_ones()) * values.almost_win;
    }
    if state.rules() == Rules::Long {
        total += f64::from((own & geometry.home_row[side]).count_ones()) * values.home_stage;
    }
    total
}

/// [`board_value`] one piece at a time, straight from the spec's wording (the reference
/// the fast version is tested against).
pub fn board_value_by_piece(state: &Breakthrough, side: Player, values: &PieceValues) -> f64 {
    let mut bits = state.pieces(side);
    let mut total = 0.0;
    while bits != 0 {
        let square = bits.trailing_zeros();
        bits &= bits - 1;
        total += piece_value(state, side, square, values);
    }
    total
}

/// Report 001's `threatened`: (own piece, enemy piece) pairs where the own piece stands on
/// one of the enemy piece's forward diagonals.
pub fn threatened(state: &Breakthrough, side: Player) -> u32 {
    let attacks = state
        .geometry()
        .attacks(side.opponent(), state.pieces(side.opponent()));
    attacked(state.pieces(side), attacks)
}

/// The (piece, attacker) pairs among `pieces` on the attacked squares `(up, down)`, the
/// squares attacked from either diagonal: a piece attacked from both counts twice.
#[inline]
fn attacked(pieces: u64, (up, down): (u64, u64)) -> u32 {
    (up & pieces).count_ones() + (down & pieces).count_ones()
}

/// The largest advance among `side`'s pieces (0 with no pieces).
pub fn max_advance(geometry: &Geometry, side: Player, pieces: u64) -> u32 {
    if pieces == 0 {
        return 0;
    }
    let square = match side {
        Player::P1 => 63 - pieces.leading_zeros(),
        _ => pieces.trailing_zeros(),
    };
    geometry.advance(side, square)
}

impl Evaluator<Breakthrough> for Heuristic {
    /// `material` inline in the search (two bit counts: the call and the dispatch of the
    /// other heuristics cost more than it does), the others through one call.
    #[inline]
    fn evaluate(&self, state: &Breakthrough, root: Player, noise_seed: u64) -> f64 {
        if let Heuristic::Material = self {
            return material(state, root);
        }
        self.evaluate_any(state, root, noise_seed)
    }
}

/// Own pieces minus the other side's, for `root`.
#[inline]
fn material(state: &Breakthrough, root: Player) -> f64 {
    f64::from(state.pieces(root).count_ones())
        - f64::from(state.pieces(root.opponent()).count_ones())
}

impl Heuristic {
    /// Every heuristic but `material`'s fast path, through one call.
    #[inline(never)]
    fn evaluate_any(&self, state: &Breakthrough, root: Player, noise_seed: u64) -> f64 {
        let me = root;
        let enemy = root.opponent();
        // Counted by the heuristics that use them (the linear one computes its own).
        let own = || f64::from(state.pieces(me).count_ones());
        let opp = || f64::from(state.pieces(enemy).count_ones());
        let u = || unit_noise(state_hash(state), noise_seed);
        match *self {
            Heuristic::Defensive1 { own_weight, noise } => own_weight * own() + noise * u(),
            Heuristic::Offensive1 {
                opp_weight,
                base,
                noise,
            } => opp_weight * (base - opp()) + noise * u(),
            Heuristic::BoardValue {
                own_weight,
                enemy_weight,
                ref values,
                noise,
            } => {
                own_weight * board_value(state, me, values)
                    - enemy_weight * board_value(state, enemy, values)
                    + noise * u()
            }
            Heuristic::Offense {
                capture_weight,
                threat_weight,
                advance_weight,
            } => {
                let geometry = state.geometry();
                let captured = f64::from(geometry.start[enemy].count_ones()) - opp();
                let advance = f64::from(max_advance(geometry, me, state.pieces(me)));
                capture_weight * captured - threat_weight * f64::from(threatened(state, me))
                    + advance_weight * advance * advance
            }
            Heuristic::Defense {
                capture_weight,
                own_weight,
                advance_weight,
                threat_weight,
            } => {
                let geometry = state.geometry();
                let captured = f64::from(geometry.start[enemy].count_ones()) - opp();
                let closest = f64::from(max_advance(geometry, enemy, state.pieces(enemy)));
                capture_weight * captured + own_weight * own()
                    - advance_weight * closest * closest
                    - threat_weight * f64::from(threatened(state, me))
            }
            Heuristic::Linear { ref weights, used } => {
                side_value(state, me, weights, 0, used[0])
                    + side_value(state, enemy, weights, 2, used[1])
            }
            Heuristic::Material => material(state, me),
        }
    }
}

/// The value of [`FEATURES`] for `side`, in their order.
pub fn features(state: &Breakthrough, side: Player) -> [f64; FEATURES.len()] {
    let all = u8::MAX >> (8 - FEATURES.len());
    let mut values = [0.0; FEATURES.len()];
    for_each_feature(state, side, all, |index, count| {
        values[index] = f64::from(count);
    });
    values
}

/// The features of [`FEATURES`] that need the squares the other side attacks
/// (threatened, safe, runners).
const ATTACK_FEATURES: u8 = 1 << 4 | 1 << 5 | 1 << 7;

// A bit per feature in a `u8`.
const _: () = assert!(FEATURES.len() <= 8);

/// Calls `take(index, count)` for each feature of [`FEATURES`] in `used` (a bit per
/// feature), counted for `side`; the attacked squares are computed once, and only if a
/// feature needs them. Written out feature by feature: a loop dispatching on the index
/// measured 1.7-3x slower in the `linear` heuristic.
#[inline(always)]
fn for_each_feature(
    state: &Breakthrough,
    side: Player,
    used: u8,
    mut take: impl FnMut(usize, u32),
) {
    let own = state.pieces(side);
    if used & 1 != 0 {
        take(0, own.count_ones());
    }
    // Pieces alone (material) is the common cheap case: done.
    if used < 1 << 1 {
        return;
    }
    let geometry = state.geometry();
    let enemy = side.opponent();
    let theirs = state.pieces(enemy);
    let (up, down) = if used & ATTACK_FEATURES != 0 {
        geometry.attacks(enemy, theirs)
    } else {
        (0, 0)
    };
    if used & 1 << 1 != 0 {
        take(1, geometry.start[enemy].count_ones() - theirs.count_ones());
    }
    if used & 1 << 2 != 0 {
        take(2, max_advance(geometry, side, own));
    }
    if used & 1 << 3 != 0 {
        let sum = (0..geometry.rows)
            .map(|row| {
                let advance = geometry.advance(side, row * geometry.cols);
                (own & geometry.row_masks[row as usize]).count_ones() * advance
            })
            .sum();
        take(3, sum);
    }
    if used & 1 << 4 != 0 {
        take(4, attacked(own, (up, down)));
    }
    if used & 1 << 5 != 0 {
        take(5, (own & !(up | down)).count_ones());
    }
    if used & 1 << 6 != 0 {
        take(6, (own & geometry.home_row[side]).count_ones());
    }
    if used & 1 << 7 != 0 {
        let before_goal = geometry.forward(enemy, geometry.goal_row[side]);
        take(7, (own & before_goal & !(up | down)).count_ones());
    }
}

/// The `linear` heuristic's terms for `side`: the weights at `offset` (0 own, 2 opponent)
/// and after it (squares) of the features in `used`.
#[inline(always)]
fn side_value(
    state: &Breakthrough,
    side: Player,
    weights: &[f64; 4 * FEATURES.len()],
    offset: usize,
    used: u8,
) -> f64 {
    let mut total = 0.0;
    for_each_feature(state, side, used, |index, count| {
        let value = f64::from(count);
        total +=
            weights[4 * index + offset] * value + weights[4 * index + offset + 1] * value * value;
    });
    total
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<Breakthrough> for Heuristic {
    fn score(
        &self,
        state: &Breakthrough,
        mv: crate::games::breakthrough::Move,
        noise_seed: u64,
    ) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[inline]
fn state_hash(state: &Breakthrough) -> u64 {
    use crate::core::Game;
    state.position_hash()
}

#[cfg(test)]
mod tests;
