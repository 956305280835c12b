use super::*;
use crate::core::Game;

fn heuristic(name: &str) -> Heuristic {
    let params: Vec<(String, String)> =
        if name == "offense" || name == "defense" || name == "material" {
            vec![]
        } else {
            vec![("noise".to_string(), "0".to_string())]
        };
    Heuristic::from_spec(name, &params).expect("known heuristic")
}

fn at(rules: Rules, dump: &str) -> Breakthrough {
    Breakthrough::from_dump(rules, dump, Player::P1).expect("valid")
}

#[test]
fn start_position_values_match_worked_example_2() {
    let start = Breakthrough::new(Rules::Standard);
    let expected = [
        ("defensive1", 32.0),
        ("offensive1", 28.0),
        ("offensive2", 24.0),
        ("defensive2", -24.0),
        ("offense", 1.0),
        ("defense", 799.0),
        ("material", 0.0),
    ];
    for (name, value) in expected {
        for root in Player::BOTH {
            assert_eq!(
                heuristic(name).evaluate(&start, root, 9),
                value,
                "{name} {root}"
            );
        }
    }
}

#[test]
fn random_term_is_in_unit_interval_and_pure() {
    let start = Breakthrough::new(Rules::Standard);
    let with_noise = Heuristic::from_spec("offensive2", &[]).expect("known");
    let a = with_noise.evaluate(&start, Player::P1, 1);
    assert!((24.0..25.0).contains(&a) && a != 24.0, "{a}");
    assert_eq!(a, with_noise.evaluate(&start, Player::P1, 1));
    assert_ne!(a, with_noise.evaluate(&start, Player::P1, 2));
}

#[test]
fn anti_capture_rule_matches_worked_example_3() {
    let values = PieceValues::default();
    // P1 on e4 (row 3, col 4), P2 on d5 and f5, one supporter on d3.
    let one = at(
        Rules::Standard,
        "00000000 00000000 00010000 00001000 00020200 00000000 00000000 00000000"
            .replace(' ', "\n")
            .as_str(),
    );
    assert_eq!(piece_value(&one, Player::P1, 3 * 8 + 4, &values), 0.0);
    let two = at(
        Rules::Standard,
        "00000000 00000000 00010100 00001000 00020200 00000000 00000000 00000000"
            .replace(' ', "\n")
            .as_str(),
    );
    assert_eq!(piece_value(&two, Player::P1, 3 * 8 + 4, &values), 8.0);
    // Without attackers the trap rule does not apply, even with no supporter.
    let free = at(
        Rules::Standard,
        &one.board_dump().replace("00020200", "00000000"),
    );
    assert_eq!(piece_value(&free, Player::P1, 3 * 8 + 4, &values), 8.0);
}

#[test]
fn almost_win_matches_worked_example_4_and_skips_edges() {
    let values = PieceValues::default();
    let state = at(
        Rules::Standard,
        "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n10010000\n00000000\n",
    );
    assert_eq!(
        piece_value(&state, Player::P1, 6 * 8 + 3, &values),
        10_064.0
    );
    assert_eq!(piece_value(&state, Player::P1, 6 * 8, &values), 64.0);
    let guarded = at(
        Rules::Standard,
        "00000000\n00000000\n00000000\n00000000\n00000000\n00000000\n00010000\n00002000\n",
    );
    // e8 holds a P2 piece: no bonus, and the trap rule (no supporter) drops the value.
    assert_eq!(piece_value(&guarded, Player::P1, 6 * 8 + 3, &values), 0.0);
    // three-to-base has no win or almost-win bonus.
    let three = at(Rules::ThreeToBase, &state.board_dump());
    assert_eq!(piece_value(&three, Player::P1, 6 * 8 + 3, &values), 64.0);
}

#[test]
fn long_board_adds_home_stage_and_uses_its_own_bounds() {
    let values = PieceValues::default();
    let start = Breakthrough::new(Rules::Long);
    // Home row pieces: 2^0 + 2 (the default home_stage); front row pieces: 2^1.
    assert_eq!(
        board_value(&start, Player::P1, &values),
        10.0 * 3.0 + 10.0 * 2.0
    );
    assert_eq!(board_value(&start, Player::P2, &values), 50.0);
    // A P1 piece on row 3 of the 5x10 board is one row before its goal.
    let near = at(
        Rules::Long,
        "0000000000\n0000000000\n0000000000\n0000010000\n0000000000\n",
    );
    assert_eq!(
        piece_value(&near, Player::P1, 3 * 10 + 5, &values),
        8.0 + 10_000.0
    );
}

#[test]
fn fast_board_value_equals_the_per_piece_sum() {
    let values = PieceValues::default();
    for rules in Rules::ALL {
        let start = Breakthrough::new(rules);
        for state in crate::games::random_positions(&start, 300, 5, 60, 17) {
            for side in Player::BOTH {
                assert_eq!(
                    board_value(&state, side, &values),
                    board_value_by_piece(&state, side, &values),
                    "{rules} {side}\n{}",
                    state.board_dump()
                );
            }
        }
    }
}

#[test]
fn fast_board_value_equals_the_per_piece_sum_on_arbitrary_boards() {
    // Random boards, reachable or not: pieces on goal rows, edges, trapped pieces.
    let values = PieceValues {
        win_value: 500_000.0,
        almost_win: 10_000.0,
        home_stage: 16.0,
    };
    let mut rng = crate::core::seeds::rng(3);
    for rules in Rules::ALL {
        let geometry = rules.geometry();
        for _ in 0..2000 {
            let mut dump = String::new();
            for _row in 0..geometry.rows {
                for _col in 0..geometry.cols {
                    dump.push(match crate::core::seeds::below(&mut rng, 3) {
                        0 => '0',
                        1 => '1',
                        _ => '2',
                    });
                }
                dump.push('\n');
            }
            let state = at(rules, &dump);
            for side in Player::BOTH {
                assert_eq!(
                    board_value(&state, side, &values),
                    board_value_by_piece(&state, side, &values),
                    "{rules} {side}\n{dump}"
                );
            }
        }
    }
}

#[test]
fn report_001_terms() {
    // P1 pieces on c3 and e3; P2 pieces on d4 (attacks c3 and e3) and h7.
    let state = at(
        Rules::Standard,
        "11111111\n00000000\n00101000\n00020000\n00000000\n00000000\n00000002\n00000000\n",
    );
    assert_eq!(threatened(&state, Player::P1), 2);
    assert_eq!(
        threatened(&state, Player::P2),
        2,
        "c3 and e3 both attack d4"
    );
    let geometry = state.geometry();
    assert_eq!(
        max_advance(geometry, Player::P1, state.pieces(Player::P1)),
        2
    );
    assert_eq!(
        max_advance(geometry, Player::P2, state.pieces(Player::P2)),
        4
    );
    // offense for P1: captured 16-2=14 -> 700, threatened 2 -> -20, maxAdv 2 -> +4.
    assert_eq!(heuristic("offense").evaluate(&state, Player::P1, 0), 684.0);
    // defense for P1: 10*14 + 50*10 - 4^2 - 5*2 = 614.
    assert_eq!(heuristic("defense").evaluate(&state, Player::P1, 0), 614.0);
}

#[test]
fn parameters_override_defaults_and_bad_keys_are_named() {
    let h = Heuristic::from_spec(
        "defensive1",
        &[
            ("own_weight".into(), "3".into()),
            ("noise".into(), "0".into()),
        ],
    )
    .expect("valid");
    assert_eq!(
        h.evaluate(&Breakthrough::new(Rules::Standard), Player::P1, 0),
        48.0
    );
    let err = Heuristic::from_spec("offensive2", &[("almost".into(), "1".into())])
        .expect_err("unknown key");
    assert!(
        err.to_string()
            .contains("unknown parameter 'almost' for heuristic offensive2")
    );
    let err = Heuristic::from_spec("offensive2", &[("almost_win".into(), "x".into())])
        .expect_err("not a number");
    assert!(err.to_string().contains("'x' is not a number"));
    assert!(Heuristic::from_spec("nope", &[]).is_err());
}

#[test]
fn features_of_a_hand_set_position() {
    // Row 0 is P1's home row; P1 moves towards row 7.
    let state = at(
        Rules::Standard,
        "11000000\n00000000\n00000000\n00100000\n00020000\n00000000\n00000010\n20000000\n",
    );
    // P1: a1 b1 (home row), c4 (attacked by P2's d5), g7 (one row before its goal,
    // unattacked): 4 pieces, 14 taken, most advanced 6, 0+0+3+6 advanced, 1 threat,
    // 3 safe, 2 at home, 1 runner.
    assert_eq!(
        features(&state, Player::P1),
        [4.0, 14.0, 6.0, 9.0, 1.0, 3.0, 2.0, 1.0]
    );
    // P2: d5 (attacked by c4) and a8 (home row): 2 pieces, 12 taken, advance 3.
    assert_eq!(
        features(&state, Player::P2),
        [2.0, 12.0, 3.0, 3.0, 1.0, 1.0, 1.0, 0.0]
    );
}

/// The reports' heuristics that are linear in the features, written as `linear`, give
/// the same value on thousands of random positions of every rule set, for either side.
#[test]
fn linear_forms_equal_the_named_heuristics() {
    // (named heuristic, its parameters, the linear weights)
    type Case = (
        &'static str,
        &'static [(&'static str, &'static str)],
        &'static [(&'static str, &'static str)],
    );
    let mut pairs: Vec<Case> = LINEAR_FORMS
        .iter()
        .map(|&(name, weights)| (name, &[][..], weights))
        .collect();
    pairs.push(("defensive1", &[("noise", "0")], &[("own_pieces", "2")]));
    let owned = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    for rules in [Rules::Standard, Rules::ThreeToBase, Rules::Long] {
        let positions = crate::games::random_positions(&Breakthrough::new(rules), 1000, 0, 60, 11);
        for &(name, params, weights) in &pairs {
            let named = Heuristic::from_spec(name, &owned(params)).expect("named");
            let linear = Heuristic::from_spec("linear", &owned(weights)).expect("linear");
            for state in &positions {
                for root in [Player::P1, Player::P2] {
                    assert_eq!(
                        named.evaluate(state, root, 7),
                        linear.evaluate(state, root, 7),
                        "{name} on {rules:?} for {root:?}:\n{}",
                        state.board_dump()
                    );
                }
            }
        }
    }
    let err = Heuristic::from_spec("linear", &owned(&[("own_pices", "1")]))
        .expect_err("a misspelt feature");
    assert!(
        err.to_string().contains("unknown parameter 'own_pices'"),
        "{err}"
    );
}
