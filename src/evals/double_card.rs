//! Double Card heuristics of report 003: `lines` (heuristic 1, line patterns with alive and
//! dead threes and twos, and combination bonuses) and `danger` (heuristic 2, danger and
//! goodness of every four-cell window with the 0.3 threshold). Both are
//! `Score(root side) - Score(other side)`; every constant is a parameter.

use super::{HeuristicInfo, Linear, ParamError, ParamSpec, lookup};
use crate::core::{ActionEvaluator, Evaluator, Player, score_by_child};
use crate::games::double_card::{COLS, DoubleCard, Move, ROWS, Role};
use std::sync::OnceLock;

/// Every Double Card heuristic.
pub const HEURISTICS: &[HeuristicInfo] = &[
    HeuristicInfo {
        name: "lines",
        formula: "heuristic 1: line patterns (four, alive/dead threes and twos, unavailable) + combination bonuses, own - opponent (report 003)",
        params: &[
            ParamSpec::new("four", 100_000.0, "OOOO"),
            ParamSpec::new("alive_three", 10_000.0, "XOOOX"),
            ParamSpec::new("dead_three", 1_000.0, "@ at one end, three O and one X"),
            ParamSpec::new(
                "alive_two",
                1_000.0,
                "X at both ends, two O and one X between",
            ),
            ParamSpec::new("dead_two", 500.0, "@ at one end, two O and two X"),
            ParamSpec::new("unavailable", -100.0, "@OOO@, @OO@, @O@"),
            ParamSpec::new(
                "combo",
                100_000.0,
                "double dead three, double alive two, dead three + alive two",
            ),
        ],
    },
    HeuristicInfo {
        name: "danger",
        formula: "heuristic 2: danger and goodness of every 4-cell window, counts over the threshold; own - opponent (report 003)",
        params: &[
            ParamSpec::new("danger_factor", 100.0, "DANGER_FACTOR"),
            ParamSpec::new("good_factor", 50.0, "GOOD_FACTOR"),
            ParamSpec::new(
                "threshold",
                0.3,
                "share of a window above which a count counts",
            ),
            ParamSpec::new("own_good", 5.0, "weight of own goodness"),
            ParamSpec::new(
                "opponent_danger",
                4.0,
                "weight of the danger to the opponent",
            ),
            ParamSpec::new("opponent_good", 2.0, "weight of the opponent's goodness"),
            ParamSpec::new("own_danger", 1.0, "weight of the danger to oneself"),
        ],
    },
    HeuristicInfo {
        name: "linear",
        formula: "sum of weight x feature over the features of both sides and their squares (own_four=100000,opp_alive_three=-10000,...; all 0 by default)",
        params: &LINEAR_PARAMS,
    },
];

/// The named features of a Double Card position for a side (its role's value: a colour
/// or a dot kind, both of its values counted): heuristic 1's line patterns and
/// combinations, heuristic 2's goodness and danger at the report's constants.
pub const FEATURES: [&str; 9] = [
    "four",
    "alive_three",
    "dead_three",
    "alive_two",
    "dead_two",
    "unavailable",
    "combos",
    "good",
    "danger",
];

/// The weights of the `linear` heuristic, 4 per feature, all 0 unless given.
pub const LINEAR_PARAMS: [ParamSpec; 36] = linear_params!(
    "four": "its fours (OOOO)",
    "alive_three": "its alive threes (XOOOX)",
    "dead_three": "its dead threes (@ at one end, three O and one X)",
    "alive_two": "its alive twos (X at both ends, two O and one X between)",
    "dead_two": "its dead twos (@ at one end, two O and two X)",
    "unavailable": "its walled-in runs (@OOO@, @OO@, @O@)",
    "combos": "its combinations (double dead three, double alive two, dead three + alive two), 0-3",
    "good": "heuristic 2's goodness of its windows (factors 100 and 50, threshold 0.3)",
    "danger": "heuristic 2's danger to it from the other role's windows (same constants)",
);

/// Report 003's heuristics as `linear` weights (danger at its default constants): equal
/// values, tested.
pub const LINEAR_FORMS: &[super::LinearForm] = &[
    (
        "lines",
        &[
            ("own_four", "100000"),
            ("own_alive_three", "10000"),
            ("own_dead_three", "1000"),
            ("own_alive_two", "1000"),
            ("own_dead_two", "500"),
            ("own_unavailable", "-100"),
            ("own_combos", "100000"),
            ("opp_four", "-100000"),
            ("opp_alive_three", "-10000"),
            ("opp_dead_three", "-1000"),
            ("opp_alive_two", "-1000"),
            ("opp_dead_two", "-500"),
            ("opp_unavailable", "100"),
            ("opp_combos", "-100000"),
        ],
    ),
    (
        "danger",
        &[
            ("own_good", "7"),
            ("opp_good", "-7"),
            ("own_danger", "-5"),
            ("opp_danger", "5"),
        ],
    ),
];

/// The value of [`FEATURES`] for `player` and for its opponent; `lines` and `windows`:
/// whether to compute the line patterns (the first seven) and the windows (the last two),
/// else left 0. The windows are scanned once for both sides.
pub fn features(
    state: &DoubleCard,
    player: Player,
    lines: bool,
    windows: bool,
) -> [[f64; FEATURES.len()]; 2] {
    let roles = [state.role(player), state.role(player.opponent())];
    let mut both = [[0.0; FEATURES.len()]; 2];
    if lines {
        for (all, &role) in both.iter_mut().zip(&roles) {
            all[..7].copy_from_slice(&line_counts(state, role));
        }
    }
    if windows {
        let (good_color, good_dot, danger_color, danger_dot) = danger_sums(state, 100.0, 50.0, 0.3);
        for (all, &role) in both.iter_mut().zip(&roles) {
            (all[7], all[8]) = match role {
                Role::Colors => (good_color, danger_color),
                Role::Dots => (good_dot, danger_dot),
            };
        }
    }
    both
}

/// A Double Card heuristic with its constants. `Linear` carries its 36 weights inline, as
/// Breakthrough's does: a heuristic is made once per agent, and a box would cost an
/// indirection on every evaluation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Heuristic {
    /// Heuristic 1.
    Lines {
        /// Pattern scores: four, alive three, dead three, alive two, dead two, unavailable.
        scores: [f64; 6],
        /// Combination bonus.
        combo: f64,
    },
    /// Heuristic 2.
    Danger {
        /// Factors and weights as in [`HEURISTICS`].
        values: [f64; 7],
    },
    /// A weighted sum of [`FEATURES`].
    Linear(Linear<{ FEATURES.len() }>),
}

impl Heuristic {
    /// The heuristic called `name` with parameters.
    ///
    /// # Errors
    /// An unknown name or parameter.
    pub fn from_spec(name: &str, params: &[(String, String)]) -> Result<Heuristic, ParamError> {
        let v = lookup("double-card", HEURISTICS, name, params)?;
        Ok(match name {
            "lines" => Heuristic::Lines {
                scores: [v[0], v[1], v[2], v[3], v[4], v[5]],
                combo: v[6],
            },
            "linear" => Heuristic::Linear(Linear::new(&v)),
            _ => Heuristic::Danger {
                values: [v[0], v[1], v[2], v[3], v[4], v[5], v[6]],
            },
        })
    }
}

/// Every row, column and diagonal with at least four cells, as cell lists.
fn lines() -> &'static Vec<Vec<u8>> {
    static LINES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let (rows, cols) = (ROWS as i32, COLS as i32);
        let mut all = Vec::new();
        let walk = |mut r: i32, mut c: i32, dr: i32, dc: i32| {
            let mut line = Vec::new();
            while (0..rows).contains(&r) && (0..cols).contains(&c) {
                line.push((r * cols + c) as u8);
                r += dr;
                c += dc;
            }
            line
        };
        for r in 0..rows {
            all.push(walk(r, 0, 0, 1));
        }
        for c in 0..cols {
            all.push(walk(0, c, 1, 0));
        }
        // Diagonals up-right start on the bottom row or the left column; up-left on the
        // bottom row or the right column.
        for c in 0..cols {
            all.push(walk(0, c, 1, 1));
            all.push(walk(0, c, 1, -1));
        }
        for r in 1..rows {
            all.push(walk(r, 0, 1, 1));
            all.push(walk(r, cols - 1, 1, -1));
        }
        all.retain(|line| line.len() >= 4);
        all
    })
}

fn has(bits: u128, cell: u8) -> bool {
    bits & (1u128 << cell) != 0
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Symbol {
    Own,
    Blocked,
    Empty,
}

/// Heuristic 1's score of one side: its feature's two values, all lines.
fn lines_score(state: &DoubleCard, role: Role, scores: &[f64; 6], combo: f64) -> f64 {
    let counts = line_counts(state, role);
    scores
        .iter()
        .zip(&counts)
        .map(|(score, count)| score * count)
        .sum::<f64>()
        + combo * counts[6]
}

/// Heuristic 1's counts for one side: fours, alive threes, dead threes, alive twos, dead
/// twos, unavailable runs, and combinations (0-3).
fn line_counts(state: &DoubleCard, role: Role) -> [f64; 7] {
    let (occupied, red, solid) = state.masks();
    let feature = match role {
        Role::Colors => red,
        Role::Dots => solid,
    };
    // Indices into the counts.
    let (four, alive_three, dead_three, alive_two, dead_two, unavailable) = (0, 1, 2, 3, 4, 5);
    let mut counts = [0.0; 7];
    // The distinct sets of own cells of dead threes and alive twos (for the combination
    // bonuses, two windows over the same cells count once); only whether there are 0, 1
    // or 2+ matters, so two are kept.
    let mut dead_threes: [Option<u128>; 2] = [None; 2];
    let mut alive_twos: [Option<u128>; 2] = [None; 2];
    fn remember(found: &mut [Option<u128>; 2], cells: u128) {
        if found[0].is_none() {
            found[0] = Some(cells);
        } else if found[0] != Some(cells) && found[1].is_none() {
            found[1] = Some(cells);
        }
    }
    let mut padded: Vec<(Symbol, u8)> = Vec::with_capacity(16);
    for value in [true, false] {
        let own = occupied & if value { feature } else { !feature };
        for line in lines() {
            padded.clear();
            padded.push((Symbol::Blocked, 255));
            padded.extend(line.iter().map(|&cell| {
                let symbol = if has(own, cell) {
                    Symbol::Own
                } else if has(occupied, cell) {
                    Symbol::Blocked
                } else {
                    Symbol::Empty
                };
                (symbol, cell)
            }));
            padded.push((Symbol::Blocked, 255));
            let owned = |window: &[(Symbol, u8)]| -> u128 {
                window
                    .iter()
                    .filter(|w| w.0 == Symbol::Own)
                    .map(|w| 1u128 << w.1)
                    .sum()
            };
            let count =
                |window: &[(Symbol, u8)], symbol| window.iter().filter(|w| w.0 == symbol).count();
            for window in padded.windows(3) {
                if window
                    .iter()
                    .map(|w| w.0)
                    .eq([Symbol::Blocked, Symbol::Own, Symbol::Blocked])
                {
                    counts[unavailable] += 1.0;
                }
            }
            for window in padded.windows(4) {
                let s = [window[0].0, window[1].0, window[2].0, window[3].0];
                if s == [Symbol::Own; 4] {
                    counts[four] += 1.0;
                }
                if s == [Symbol::Blocked, Symbol::Own, Symbol::Own, Symbol::Blocked] {
                    counts[unavailable] += 1.0;
                }
            }
            for window in padded.windows(5) {
                let s = [
                    window[0].0,
                    window[1].0,
                    window[2].0,
                    window[3].0,
                    window[4].0,
                ];
                let (first, last) = (s[0], s[4]);
                if s == [
                    Symbol::Empty,
                    Symbol::Own,
                    Symbol::Own,
                    Symbol::Own,
                    Symbol::Empty,
                ] {
                    counts[alive_three] += 1.0;
                }
                if s == [
                    Symbol::Blocked,
                    Symbol::Own,
                    Symbol::Own,
                    Symbol::Own,
                    Symbol::Blocked,
                ] {
                    counts[unavailable] += 1.0;
                }
                if first == Symbol::Empty
                    && last == Symbol::Empty
                    && count(&window[1..4], Symbol::Own) == 2
                    && count(&window[1..4], Symbol::Empty) == 1
                {
                    counts[alive_two] += 1.0;
                    remember(&mut alive_twos, owned(window));
                }
                for (end, rest) in [(first, &window[1..5]), (last, &window[0..4])] {
                    if end != Symbol::Blocked {
                        continue;
                    }
                    let (o, x) = (count(rest, Symbol::Own), count(rest, Symbol::Empty));
                    if o == 3 && x == 1 {
                        counts[dead_three] += 1.0;
                        remember(&mut dead_threes, owned(window));
                    }
                    if o == 2 && x == 2 {
                        counts[dead_two] += 1.0;
                    }
                }
            }
        }
    }
    let distinct = |found: &[Option<u128>; 2]| found.iter().flatten().count();
    let combos = [
        distinct(&dead_threes) >= 2,
        distinct(&alive_twos) >= 2,
        distinct(&dead_threes) >= 1 && distinct(&alive_twos) >= 1,
    ];
    counts[6] = combos.iter().filter(|&&c| c).count() as f64;
    counts
}

/// Heuristic 2's four sums: (good_color, good_dot, danger_color, danger_dot).
pub fn danger_sums(
    state: &DoubleCard,
    factor: f64,
    good: f64,
    threshold: f64,
) -> (f64, f64, f64, f64) {
    let (occupied, red, solid) = state.masks();
    let n = 4.0;
    let max_allow = (n - 1.0) / n;
    let good_per = good / ((n - 1.0) * (n - 1.0));
    let (mut good_color, mut good_dot, mut danger_color, mut danger_dot) = (0.0, 0.0, 0.0, 0.0);
    for line in lines() {
        for window in line.windows(4) {
            let count = |bits: u128| window.iter().filter(|&&c| has(bits, c)).count() as f64;
            let colours = [count(occupied & red), count(occupied & !red)];
            let dots = [count(occupied & solid), count(occupied & !solid)];
            for c in colours {
                if c / n > threshold {
                    danger_dot += (c / n) * factor / max_allow;
                    good_color += c * c * good_per;
                }
            }
            for d in dots {
                if d / n > threshold {
                    danger_color += (d / n) * factor / max_allow;
                    good_dot += d * d * good_per;
                }
            }
        }
    }
    (good_color, good_dot, danger_color, danger_dot)
}

impl Evaluator<DoubleCard> for Heuristic {
    fn evaluate(&self, state: &DoubleCard, root: Player, _noise_seed: u64) -> f64 {
        let (me, them) = (state.role(root), state.role(root.opponent()));
        match *self {
            Heuristic::Lines { ref scores, combo } => {
                lines_score(state, me, scores, combo) - lines_score(state, them, scores, combo)
            }
            Heuristic::Linear(linear) => {
                let [own, opp] = features(state, root, linear.uses(0..7), linear.uses(7..9));
                linear.value(&own, &opp)
            }
            Heuristic::Danger { values } => {
                let [factor, good, threshold, w1, w2, w3, w4] = values;
                let (good_color, good_dot, danger_color, danger_dot) =
                    danger_sums(state, factor, good, threshold);
                let score = |role: Role| match role {
                    Role::Colors => {
                        w1 * good_color + w2 * danger_dot - w3 * good_dot - w4 * danger_color
                    }
                    Role::Dots => {
                        w1 * good_dot + w2 * danger_color - w3 * good_color - w4 * danger_dot
                    }
                };
                score(me) - score(them)
            }
        }
    }
}

/// A move scores the evaluation of the position it leads to, for the mover.
impl ActionEvaluator<DoubleCard> for Heuristic {
    fn score(&self, state: &DoubleCard, mv: Move, noise_seed: u64) -> f64 {
        score_by_child(self, state, mv, noise_seed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::double_card::Params;
    use crate::games::replay;

    fn board(p1: Role, moves: &[&str]) -> DoubleCard {
        replay(
            &DoubleCard::new(Params {
                p1,
                ..Params::default()
            }),
            moves.iter().copied(),
        )
        .expect("legal")
        .0
    }

    #[test]
    fn there_are_46_lines_of_four_or_more() {
        // 12 rows, 8 columns, and 13 diagonals of each direction with at least four cells.
        assert_eq!(lines().len(), 12 + 8 + 2 * 13);
    }

    #[test]
    fn danger_of_one_window_with_three_reds_matches_worked_example_4() {
        // Three red halves in the bottom row (A1, B1, C1 via types 1/4/4... use verticals).
        let state = board(Role::Colors, &["0 4 A 1", "0 4 B 1", "0 4 C 1"]);
        // Windows of row 1 containing A1..C1: A1-D1 has three reds (and three solids).
        let (good_color, _, _, danger_dot) = danger_sums(&state, 100.0, 50.0, 0.3);
        // Row 1: window A-D: 3 red -> danger_dot 100, good_color 50. Window B-E: 2 red ->
        // 66.7 and 22.2. Window C-F: 1 red: nothing. Row 2 holds three whites: the same
        // again (any equal colours threaten the dots player). Columns and diagonals never
        // hold two halves of one colour in a window here.
        let expected_danger = 2.0 * (100.0 + 200.0 / 3.0);
        assert!((danger_dot - expected_danger).abs() < 1e-9, "{danger_dot}");
        assert!(
            (good_color - 2.0 * (50.0 + 4.0 * 50.0 / 9.0)).abs() < 1e-9,
            "{good_color}"
        );
    }

    #[test]
    fn lines_sees_an_alive_three_and_blocks_the_report_trace() {
        let h = Heuristic::from_spec("lines", &[]).expect("known");
        // Red on A2, B2, C2 (the report's trace): colors (player 2) has a three in row 2.
        let state = board(Role::Dots, &["0 2 A 1", "0 6 B 1", "0 1 A 3", "0 2 C 1"]);
        let colors_view = h.evaluate(&state, Player::P2, 0);
        let blocked = board(
            Role::Dots,
            &["0 2 A 1", "0 6 B 1", "0 1 A 3", "0 2 C 1", "0 4 D 1"],
        );
        assert!(
            h.evaluate(&blocked, Player::P2, 0) < colors_view,
            "blocking lowers colors' value"
        );
        assert_eq!(
            h.evaluate(&state, Player::P1, 0),
            -colors_view,
            "zero-sum by construction"
        );
        let empty = DoubleCard::new(Params::default());
        assert_eq!(h.evaluate(&empty, Player::P1, 0), 0.0);
    }

    #[test]
    fn patterns_score_as_the_table_says() {
        // One red solid half on A1 (type 1 card: A1 red solid, B1 white hollow), for colors:
        // red value: row 1 padded '@ O @ X X X X X X @'... A1 red between the edge and B1 white:
        // '@O@' unavailable one (-100); column A: '@O X X ...' has no pattern with one O.
        let h = Heuristic::Lines {
            scores: [100_000.0, 10_000.0, 1_000.0, 1_000.0, 500.0, -100.0],
            combo: 100_000.0,
        };
        let state = board(Role::Colors, &["0 1 A 1"]);
        let (me, them) = (Role::Colors, Role::Dots);
        let colours = lines_score(
            &state,
            me,
            &[100_000.0, 10_000.0, 1_000.0, 1_000.0, 500.0, -100.0],
            100_000.0,
        );
        let dots = lines_score(
            &state,
            them,
            &[100_000.0, 10_000.0, 1_000.0, 1_000.0, 500.0, -100.0],
            100_000.0,
        );
        // Both sides see A1 walled in by the edge and B1 (other colour / other dot): -100 each.
        assert_eq!((colours, dots), (-100.0, -100.0));
        assert_eq!(h.evaluate(&state, Player::P1, 0), 0.0);
    }
}
