use super::*;
use crate::core::seeds;
use crate::games::testing::{check_random_playouts, move_names};

/// The position after `moves` (`;`-separated) from the start.
fn after(moves: &str) -> Einstein {
    let mut state = Einstein::new();
    for text in moves.split(';') {
        let mv = state
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        state.apply(mv);
    }
    state
}

#[test]
fn the_720_placements_are_every_order_once_and_read_back() {
    let mut seen = std::collections::HashSet::new();
    for index in 0..PLACEMENTS {
        let numbers = placement(index);
        let mut sorted = numbers;
        sorted.sort_unstable();
        assert_eq!(sorted, [1, 2, 3, 4, 5, 6]);
        assert!(seen.insert(numbers));
        assert_eq!(placement_index(numbers), Some(index));
    }
    // OpenSpiel's first placement puts 1 on the highest home cell: a3 for P1.
    let mut state = Einstein::new();
    assert_eq!(state.format_move(0), "setup654321");
    assert_eq!(state.format_move(PLACEMENTS - 1), "setup123456");
    state.apply(0);
    assert_eq!(state.cube(10), Some((Player::P1, 1)));
    assert_eq!(state.cube(0), Some((Player::P1, 6)));
    assert_eq!(placement_index([1, 1, 2, 3, 4, 5]), None);
}

#[test]
fn chance_places_both_sides_then_rolls_before_every_move() {
    let start = Einstein::new();
    assert!(start.is_chance());
    let mut outcomes = Vec::new();
    start.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 720);
    let state = after("setup123456;setup123456");
    assert!(state.is_chance());
    assert_eq!(state.to_move(), Player::P1);
    state.chance_outcomes(&mut outcomes);
    let faces: Vec<u16> = outcomes.iter().map(|&(mv, _)| mv).collect();
    assert_eq!(faces, vec![1, 2, 3, 4, 5, 6]);
    let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert_eq!(
        move_names(&state),
        ["roll1", "roll2", "roll3", "roll4", "roll5", "roll6"]
    );
    let rolled = after("setup123456;setup123456;roll1");
    assert!(!rolled.is_chance());
    assert_eq!(rolled.die(), Some(1));
    // P2's cubes: 1 on e3, 2 on d4, 3 on e4, 4 on c5, 5 on d5, 6 on e5.
    assert_eq!(rolled.cube(14), Some((Player::P2, 1)));
    assert_eq!(rolled.cube(24), Some((Player::P2, 6)));
}

#[test]
fn the_die_picks_the_cube_and_a_step_may_take_an_own_cube() {
    // Cube 1 on a1 steps right, up or diagonally, onto P1's own cubes 2, 4 and 5.
    let state = after("setup123456;setup123456;roll1");
    assert_eq!(move_names(&state), ["a1-a2", "a1-b1", "a1-b2"]);
    // P1 takes its own cube 5; P2 rolls 6 and moves cube 6 from e5 left, down or diagonally.
    let state = after("setup123456;setup123456;roll1;a1-b2;roll6");
    assert_eq!(state.piece_count(Player::P1), 5);
    assert_eq!(move_names(&state), ["e5-d4", "e5-d5", "e5-e4"]);
    // Cube 5 is gone: a 5 lets P1 move the next lower (4, on a2) or higher (6, on a3).
    let state = after("setup123456;setup123456;roll1;a1-b2;roll6;e5-d5;roll5");
    assert_eq!(
        move_names(&state),
        ["a2-a3", "a2-b2", "a2-b3", "a3-a4", "a3-b3", "a3-b4"]
    );
    let error = state.parse_move("b1-c1").expect_err("cube 2 may not move");
    assert!(
        error
            .reason
            .contains("the die shows 5: P1 may move only cube 4 or 6"),
        "{}",
        error.reason
    );
    let error = after("setup123456;setup123456")
        .parse_move("roll7")
        .expect_err("no seventh face");
    assert!(error.reason.contains("roll1 to roll6"), "{}", error.reason);
}

#[test]
fn reaching_the_far_corner_or_taking_every_cube_wins() {
    let mut reasons = std::collections::BTreeMap::new();
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for game in 0..2000u64 {
        let mut rng = seeds::rng(seeds::derive(5, &[game]));
        let mut state = Einstein::new();
        while state.outcome().is_none() {
            if state.is_chance() {
                state.chance_outcomes(&mut outcomes);
                let mv = crate::core::chance_outcome(&outcomes, seeds::unit(&mut rng));
                state.apply(mv.expect("an outcome"));
            } else {
                state.legal_moves(&mut moves);
                assert!(!moves.is_empty(), "a side always has a step");
                state.apply(moves[seeds::below(&mut rng, moves.len())]);
            }
        }
        let outcome = state.outcome().expect("over");
        let winner = outcome.winner.expect("no draws");
        match outcome.reason {
            "corner" => {
                let goal = if winner == Player::P1 { 24 } else { 0 };
                assert_eq!(state.cube(goal).map(|(p, _)| p), Some(winner));
            }
            "all-removed" => assert_eq!(state.piece_count(winner.opponent()), 0),
            other => panic!("reason {other}"),
        }
        *reasons.entry(outcome.reason).or_insert(0) += 1;
    }
    assert!(
        reasons["corner"] > 1000 && reasons["all-removed"] > 0,
        "{reasons:?}"
    );
}

#[test]
fn random_playouts_keep_the_game_contract() {
    // Chance's outcomes are moves too: the contract holds at every position.
    check_random_playouts(&after("setup123456;setup654321"), 300, 200);
}

#[test]
fn the_board_shows_the_cubes_and_what_comes_next() {
    let state = after("setup123456;setup123456;roll1;a1-b2;roll6");
    assert_eq!(
        state.board_display(),
        "5 .. .. O4 O5 O6\n4 .. .. .. O2 O3\n3 X6 .. .. .. O1\n2 X4 X1 .. .. ..\n1 .. X2 X3 .. ..\n  a  b  c  d  e\nP2 rolled 6\n"
    );
    let json = state.position_json();
    assert_eq!(json["phase"], "move");
    assert_eq!(json["die"], 6);
    assert_eq!(json["board"][6], 1);
    assert_eq!(json["board"][24], -6);
}

#[test]
fn a_draw_picks_the_outcome_the_listed_probabilities_give() {
    // The game's own pick (every outcome alike) and the generic walk over the outcomes
    // agree on draws spread over [0, 1).
    let mut scratch = Vec::new();
    for state in [Einstein::new(), after("setup123456;setup654321")] {
        for k in 0..7200 {
            let u = (f64::from(k) + 0.5) / 7200.0;
            let mut outcomes = Vec::new();
            state.chance_outcomes(&mut outcomes);
            assert_eq!(
                state.chance_move(u, &mut scratch),
                crate::core::chance_outcome(&outcomes, u),
                "u = {u}"
            );
        }
    }
}

#[test]
fn the_playout_loop_plays_what_the_default_loop_plays() {
    // The same draws, the default loop (chance_move, pick_move, apply a ply at a time)
    // and the game's own: the same position after every ply limit, the same plies.
    let mut scratch = Vec::new();
    for game in 0..300u64 {
        for max_plies in [0, 1, 2, 3, 4, 5, 17, 40, u32::MAX] {
            let mut ours = Einstein::new();
            let mut rng = seeds::rng(seeds::derive(5, &[game]));
            let played =
                ours.random_playout(&mut scratch, |n| seeds::below(&mut rng, n), max_plies);
            let mut theirs = Einstein::new();
            let mut rng = seeds::rng(seeds::derive(5, &[game]));
            let expected = crate::core::pick_move_playout(
                &mut theirs,
                &mut scratch,
                |n| seeds::below(&mut rng, n),
                max_plies,
            );
            assert_eq!(played, expected, "game {game}, at most {max_plies} plies");
            assert_eq!(ours, theirs, "game {game}, at most {max_plies} plies");
        }
    }
}
