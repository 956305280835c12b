use super::*;
use crate::games::testing::{check_random_playouts, move_names};
use std::process::Command;

fn start(players: u8) -> StarCheckers {
    StarCheckers::new(Rules {
        players,
        max_plies: 0,
    })
}

/// The output of the independent Python implementation in testdata/star.py, or `None`
/// (said loudly) when python3 is missing.
fn python(args: &[&str]) -> Option<String> {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/games/star_checkers/testdata/star.py"
    );
    match Command::new("python3").arg(script).args(args).output() {
        Ok(out) => {
            assert!(
                out.status.success(),
                "star.py {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            Some(String::from_utf8(out.stdout).expect("utf-8"))
        }
        Err(e) => {
            eprintln!(
                "SKIPPED: python3 could not run ({e}); install python3 to check the star against its independent implementation"
            );
            None
        }
    }
}

#[test]
fn the_star_has_121_cells_six_points_of_ten_and_rows_as_printed() {
    let geometry = geometry();
    let widths: Vec<u8> = geometry.rows.iter().map(|&(_, w)| w).collect();
    assert_eq!(
        widths,
        [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    );
    for point in geometry.points {
        assert_eq!(point.count_ones(), 10);
    }
    let all = geometry.points.iter().fold(0u128, |a, p| a | p);
    assert_eq!(all.count_ones(), 60, "the points do not overlap");
    assert_eq!(cell(1, 1), Some(0));
    assert_eq!(cell(17, 1), Some(120));
    assert_eq!(cell(5, 13), Some(22));
    assert_eq!(cell(1, 2), None);
    assert_eq!(cell(18, 1), None);
    assert_eq!(cell(0, 1), None);
    // The top tip is 16 steps from the bottom one.
    assert_eq!(geometry.to_tip[0][120], 16);
}

#[test]
fn seats_start_on_their_points_and_go_for_the_opposite_one() {
    let two = start(2);
    assert_eq!(two.players(), 2);
    assert_eq!((two.home(Player::P1), two.goal(Player::P1)), (3, 0));
    assert_eq!((two.home(Player::P2), two.goal(Player::P2)), (0, 3));
    let four = start(4);
    let homes: Vec<usize> = Player::seats(4).iter().map(|&p| four.home(p)).collect();
    assert_eq!(homes, [3, 4, 0, 1]);
    let six = start(6);
    assert_eq!(six.occupied.count_ones(), 60);
    for &seat in Player::seats(6) {
        assert_eq!(six.piece_count(seat), 10);
        assert_eq!(six.distance(seat), 120);
    }
    assert_eq!(
        start(3).board_dump(),
        "            .
           . .
          . . .
         . . . .
2 2 2 2 . . . . . 3 3 3 3
 2 2 2 . . . . . . 3 3 3
  2 2 . . . . . . . 3 3
   2 . . . . . . . . 3
    . . . . . . . . .
   . . . . . . . . . .
  . . . . . . . . . . .
 . . . . . . . . . . . .
. . . . . . . . . . . . .
         1 1 1 1
          1 1 1
           1 1
            1
"
    );
}

/// P1's 14 first moves at two players, counted by hand: each of the 4 marbles of the
/// front row steps to either cell ahead (8), each of the 3 behind jumps over either
/// marble ahead (6).
#[test]
fn the_first_moves_are_eight_steps_and_six_jumps() {
    let state = start(2);
    let names = move_names(&state);
    // Row 14's column c sits below row 13's columns c + 4 and c + 5 (row 13 reaches 4
    // cells further left); row 15's column c jumps to row 13's c + 4 and c + 6.
    let mut expected: Vec<String> = (1..=4)
        .flat_map(|c| {
            [
                format!("14 {c} 13 {}", c + 4),
                format!("14 {c} 13 {}", c + 5),
            ]
        })
        .chain((1..=3).flat_map(|c| {
            [
                format!("15 {c} 13 {}", c + 4),
                format!("15 {c} 13 {}", c + 6),
            ]
        }))
        .collect();
    expected.sort();
    assert_eq!(names, expected);
}

#[test]
fn a_chain_of_jumps_reaches_every_cell_it_can_once_and_never_its_own() {
    // One P1 marble at 9 5 (the centre) and P2 marbles to jump over around it.
    let mut state = start(2);
    let g = geometry();
    let centre = cell(9, 5).unwrap();
    state.marbles = [0; Player::MAX];
    state.marbles[0] = 1u128 << centre;
    let (q, r) = g.axial[centre];
    let at = |dq: i8, dr: i8| {
        (0..CELLS)
            .find(|&c| g.axial[c] == (q + dq, r + dr))
            .unwrap()
    };
    for &(dq, dr) in &[(1, 0), (3, 0), (4, -1), (2, -2)] {
        state.marbles[1] |= 1u128 << at(dq, dr);
    }
    state.occupied = state.marbles[0] | state.marbles[1];
    // The jumps (moves to a cell that is not a neighbour), relative to the centre.
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut jumps: Vec<(i8, i8)> = moves
        .iter()
        .filter(|m| !g.neighbours[usize::from(m.from)].contains(&m.to))
        .map(|m| g.axial[usize::from(m.to)])
        .map(|(a, b)| (a - q, b - r))
        .collect();
    // Over (1,0) to (2,0); from there over (3,0) to (4,0); from there over (4,-1) to
    // (4,-2); back over (1,0) lands on the marble's own cell, which is not a move; (2,-2)
    // stands beside no cell the chain reaches, so nothing jumps over it.
    jumps.sort_unstable();
    assert_eq!(jumps, [(2, 0), (4, -2), (4, 0)]);
}

#[test]
fn random_playouts_keep_the_game_s_invariants() {
    for players in PLAYER_COUNTS {
        check_random_playouts(&start(players as u8), 3, 700);
    }
}

#[test]
fn perft_matches_the_independent_implementation() {
    for (players, depth) in [(2u8, 4u32), (3, 3), (4, 3), (6, 3)] {
        let Some(out) = python(&["perft", &players.to_string(), &depth.to_string()]) else {
            return;
        };
        let expected: Vec<u64> = out.split_whitespace().map(|n| n.parse().unwrap()).collect();
        assert_eq!(
            crate::games::perft_by_depth(&start(players), depth),
            expected,
            "perft of {players} players"
        );
    }
}

#[test]
fn seeded_random_games_replay_move_for_move_in_the_independent_implementation() {
    for (players, seed) in [(2u8, 1u64), (3, 2), (4, 3), (6, 4)] {
        let Some(out) = python(&["playout", &players.to_string(), &seed.to_string(), "400"]) else {
            return;
        };
        let mut state = StarCheckers::new(Rules {
            players,
            max_plies: 1000,
        });
        for (ply, line) in out.lines().enumerate() {
            let (count, text) = line.split_once('\t').unwrap();
            if count == "won" {
                let outcome = state.outcome().expect("the game is over");
                assert_eq!(outcome.winner.map(Player::label), Some(text));
                break;
            }
            assert_eq!(
                state.count_moves(),
                count.parse::<u64>().unwrap(),
                "{players} players, ply {ply}:\n{}",
                state.board_dump()
            );
            let mv = state
                .parse_move(text)
                .unwrap_or_else(|e| panic!("ply {ply}: {e}"));
            state.apply(mv);
        }
    }
}

#[test]
fn a_full_goal_wins_only_with_a_marble_of_its_own() {
    let mut state = start(2);
    let g = geometry();
    // P1's goal (the top point) filled by P2's own marbles, which never left: no win.
    state.marbles[0] = 0;
    state.marbles[1] = g.points[0];
    state.occupied = g.points[0];
    assert!(!state.has_won(Player::P1));
    // Swap one for a P1 marble: P1 wins.
    let tip = cell(1, 1).unwrap();
    state.marbles[1] ^= 1u128 << tip;
    state.marbles[0] |= 1u128 << tip;
    assert!(state.has_won(Player::P1));
}

#[test]
fn a_finished_game_places_the_winner_first_and_the_others_by_their_way_home() {
    // Bring P1's marbles home one move at a time is long: set the end position directly.
    let mut state = start(3);
    let g = geometry();
    let goal = g.points[state.goal(Player::P1)];
    // The goal's last cell on its broad row, which has empty cells beside it.
    let last = cells_of(goal).last().unwrap();
    let from = cells_of(g.points[3]).next().unwrap();
    state.marbles[0] = (goal & !(1u128 << last)) | (1u128 << from);
    state.occupied = state.marbles.iter().fold(0, |a, m| a | m);
    // P1's last marble cannot reach in one move from its home: place it next door.
    let beside = g.neighbours[last]
        .iter()
        .copied()
        .find(|&n| n != NONE && state.occupied & (1u128 << n) == 0)
        .unwrap();
    state.marbles[0] ^= (1u128 << from) | (1u128 << beside);
    state.occupied = state.marbles.iter().fold(0, |a, m| a | m);
    let mv = Move {
        from: beside,
        to: last as u8,
    };
    assert!(state.is_legal(mv));
    state.apply(mv);
    let outcome = state.outcome().unwrap();
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P1), "goal-filled")
    );
    let returns = state.returns().unwrap();
    assert_eq!(returns.players(), 3);
    assert_eq!(returns[Player::P1], 1.0);
    assert_eq!(returns[Player::P2], 0.0);
    assert_eq!(&returns.places()[..3], &[1, 2, 2]);
    assert_eq!(state.count_moves(), 0);
}

#[test]
fn the_ply_limit_ends_the_game_without_a_winner() {
    let mut state = StarCheckers::new(Rules {
        players: 4,
        max_plies: 4,
    });
    for _ in 0..4 {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        state.apply(moves[0]);
    }
    let outcome = state.outcome().unwrap();
    assert_eq!((outcome.winner, outcome.reason), (None, "ply-limit"));
    let returns = state.returns().unwrap();
    // Every player moved a marble one step forward: 1/120 of the way each.
    for &seat in Player::seats(4) {
        assert!(returns[seat] > 0.0 && returns[seat] < 0.05, "{returns:?}");
    }
    assert_eq!(state.to_move(), Player::P1);
}

#[test]
fn bad_moves_are_refused_in_one_line() {
    let state = start(2);
    let err = |text: &str| state.parse_move(text).unwrap_err().reason;
    assert_eq!(
        err("18 1 13 1"),
        "(18, 1) is not a cell of the star (rows 1-17, columns from 1)"
    );
    assert_eq!(err("1 1 2 1"), "no marble of P1 on the first cell");
    assert_eq!(
        err("17 1 16 1"),
        "the marble cannot step or jump to that cell"
    );
    assert_eq!(err("pass"), "P1 has a move and may not pass");
    assert_eq!(err("14 1"), "expected four numbers 'r1 c1 r2 c2'");
}
