use super::*;
use crate::games::testing::move_names;
use crate::games::{perft, testing};
use std::collections::BTreeSet;

fn at(r: u32, c: u32) -> usize {
    cell(r, c).expect("on board")
}

/// The neighbour of (r, c) in direction d, by the spec's row/column rules (0 left,
/// 1 right, 2 up-left, 3 up-right, 4 down-left, 5 down-right).
fn spec_neighbour(r: i32, c: i32, d: usize) -> Option<(i32, i32)> {
    let (nr, nc) = match d {
        0 => (r, c - 1),
        1 => (r, c + 1),
        2 => (r - 1, if r <= 10 { c - 1 } else { c }),
        3 => (r - 1, if r <= 10 { c } else { c + 1 }),
        4 => (r + 1, if r < 10 { c } else { c - 1 }),
        _ => (r + 1, if r < 10 { c + 1 } else { c }),
    };
    let width = if nr <= 10 { nr } else { 20 - nr };
    ((1..=19).contains(&nr) && nc >= 1 && nc <= width).then_some((nr, nc))
}

/// A naive move generator on (row, col) cells, straight from the spec's wording.
#[derive(Clone)]
struct Naive {
    cells: std::collections::BTreeMap<(i32, i32), u8>,
    p1_to_move: bool,
}

impl Naive {
    fn start() -> Naive {
        let mut cells = std::collections::BTreeMap::new();
        for r in 1..=19 {
            let width = if r <= 10 { r } else { 20 - r };
            for c in 1..=width {
                let v = if r <= 4 {
                    2
                } else if r >= 16 {
                    1
                } else {
                    0
                };
                cells.insert((r, c), v);
            }
        }
        Naive {
            cells,
            p1_to_move: true,
        }
    }

    fn empty(&self, cell: (i32, i32), start: (i32, i32)) -> bool {
        cell == start || self.cells[&cell] == 0
    }

    fn moves(&self) -> Vec<((i32, i32), (i32, i32))> {
        let own = if self.p1_to_move { 1 } else { 2 };
        let mut out = BTreeSet::new();
        for (&from, &v) in &self.cells {
            if v != own {
                continue;
            }
            for d in 0..6 {
                if let Some(n) = spec_neighbour(from.0, from.1, d)
                    && self.cells[&n] == 0
                {
                    out.insert((from, n));
                }
            }
            // Jump chains: breadth-first over landing cells.
            let mut seen = BTreeSet::new();
            let mut queue = vec![from];
            while let Some(s) = queue.pop() {
                for d in 0..6 {
                    let mut line = Vec::new();
                    let mut at = s;
                    while let Some(n) = spec_neighbour(at.0, at.1, d) {
                        line.push(n);
                        at = n;
                    }
                    let Some(p) = line.iter().position(|&x| !self.empty(x, from)) else {
                        continue;
                    };
                    let landing = 2 * p + 1;
                    if landing < line.len()
                        && line[p + 1..=landing].iter().all(|&x| self.empty(x, from))
                        && seen.insert(line[landing])
                    {
                        queue.push(line[landing]);
                    }
                }
            }
            for to in seen {
                if to != from {
                    out.insert((from, to));
                }
            }
        }
        out.into_iter().collect()
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(from, to)| {
                let mut child = self.clone();
                let v = child.cells[&from];
                child.cells.insert(from, 0);
                child.cells.insert(to, v);
                child.p1_to_move = !self.p1_to_move;
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn coordinates_round_trip_and_count_100_cells() {
    let mut seen = BTreeSet::new();
    for index in 0..CELLS {
        let (r, c) = row_col(index);
        assert_eq!(cell(r, c), Some(index));
        seen.insert((r, c));
    }
    assert_eq!(seen.len(), 100);
    assert_eq!(cell(0, 1), None);
    assert_eq!(cell(5, 6), None);
    assert_eq!(cell(19, 2), None);
}

#[test]
fn neighbours_of_corner_edge_and_centre_cells_follow_the_spec() {
    let g = geometry();
    for index in 0..CELLS {
        let (r, c) = row_col(index);
        let expected: u128 = (0..6)
            .filter_map(|d| spec_neighbour(r as i32, c as i32, d))
            .map(|(nr, nc)| 1u128 << at(nr as u32, nc as u32))
            .sum();
        assert_eq!(g.neighbours[index], expected, "({r},{c})");
    }
    assert_eq!(g.neighbours[at(1, 1)].count_ones(), 2, "top corner");
    assert_eq!(g.neighbours[at(19, 1)].count_ones(), 2, "bottom corner");
    assert_eq!(g.neighbours[at(10, 1)].count_ones(), 3, "left corner");
    assert_eq!(g.neighbours[at(5, 1)].count_ones(), 4, "edge");
    assert_eq!(g.neighbours[at(10, 5)].count_ones(), 6, "centre");
    assert_eq!(g.home[Player::P1].count_ones(), 10);
}

#[test]
fn start_position_has_fourteen_moves_each() {
    let start = ChineseCheckers::new(Rules::default());
    let moves = move_names(&start);
    assert_eq!(moves.len(), 14);
    for expected in [
        "16 1 15 1",
        "16 4 15 5",
        "17 1 15 1",
        "17 1 15 3",
        "17 2 15 2",
        "17 2 15 4",
        "17 3 15 5",
    ] {
        assert!(
            moves.contains(&expected.to_string()),
            "{expected} in {moves:?}"
        );
    }
    let mut p2 = start;
    p2.apply(start.parse_move("16 1 15 1").expect("legal"));
    assert_eq!(p2.count_moves(), 14);
    assert!(
        start
            .board_dump()
            .starts_with("         2\n        4 4\n       2 4 2\n")
    );
    assert!(
        start
            .board_dump()
            .ends_with("\n      1 1 1 1\n       1 3 1\n        3 3\n         1\n"),
        "{}",
        start.board_dump()
    );
    let short = ChineseCheckers::new(Rules {
        long_jumps: false,
        ..Rules::default()
    });
    assert_eq!(short.count_moves(), 14);
}

fn lone(marbles: &[(u32, u32, char)], to_move: Player) -> ChineseCheckers {
    ChineseCheckers::from_marbles(marbles, to_move, 0)
}

#[test]
fn long_jumps_and_chains() {
    // A marble on (14,3) with a blocker two cells up-left at (12,3)... in axial terms:
    // the ray up-left of (14,3) is (13,3), (12,3), (11,3), (10,3): a marble on (12,3) with
    // (13,3) and (11,3) empty allows a long jump to (10,3).
    let state = lone(&[(14, 3, '1'), (12, 3, '2'), (1, 1, '2')], Player::P1);
    let to = |r, c| state.destinations(at(14, 3)) & (1u128 << at(r, c)) != 0;
    assert!(to(10, 3), "long symmetric jump");
    let short = ChineseCheckers {
        rules: Rules {
            long_jumps: false,
            ..Rules::default()
        },
        ..state
    };
    assert!(
        short.destinations(at(14, 3)) & (1u128 << at(10, 3)) == 0,
        "handout rule: no long jump"
    );
    // A chain: over (13,3) to (12,3), then over (11,3)... set up two marbles in a line.
    let chain = lone(
        &[(14, 3, '1'), (13, 3, '2'), (11, 3, '2'), (1, 1, '2')],
        Player::P1,
    );
    let reach = chain.destinations(at(14, 3));
    assert!(
        reach & (1u128 << at(12, 3)) != 0 && reach & (1u128 << at(10, 3)) != 0,
        "two jumps"
    );
    assert!(reach & (1u128 << at(14, 3)) == 0, "never back to the start");
}

#[test]
fn a_chain_can_return_next_to_its_start_and_counts_once() {
    // Jump out over (13,3) to (12,3), then back down over another marble to a cell beside
    // the start: that destination is also reachable by a step, and is one move.
    let state = lone(
        &[(14, 3, '1'), (13, 3, '2'), (13, 4, '2'), (1, 1, '2')],
        Player::P1,
    );
    let moves = move_names(&state);
    let unique: BTreeSet<&String> = moves.iter().collect();
    assert_eq!(unique.len(), moves.len(), "each (from, to) once");
    assert!(moves.iter().all(|m| !m.ends_with("14 3")));
}

#[test]
fn perft_matches_the_naive_generator() {
    let start = ChineseCheckers::new(Rules::default());
    let naive = Naive::start();
    for depth in 1..=3 {
        assert_eq!(perft(&start, depth), naive.perft(depth), "depth {depth}");
    }
}

#[test]
fn arrival_needs_the_specials_on_their_cells() {
    let g = geometry();
    let target = g.home[Player::P2];
    let mut state = ChineseCheckers::new(Rules::default());
    state.marbles = ByPlayer([target, g.home[Player::P1]]);
    state.specials = g.special_start[Player::P2] | g.special_start[Player::P1];
    state.to_move = Player::P2;
    state.plies = 60;
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Player::P1), "arrived"))
    );
    // Specials elsewhere in the triangle: not arrived.
    state.specials = (target & !g.special_start[Player::P2]).trailing_zeros() as u128;
    state.specials = (1u128 << state.specials) | g.special_start[Player::P1];
    assert!(!state.arrived(Player::P1));
}

#[test]
fn home_rule_after_ply_100_and_its_check_order_and_the_tie() {
    // Both sides still have a marble at home after ply 100: player 1's check comes first.
    let mut state = lone(
        &[(19, 1, '1'), (10, 5, '1'), (1, 1, '2'), (10, 6, '2')],
        Player::P1,
    );
    state.plies = 100;
    assert_eq!(state.outcome(), None, "checked from ply 101 on");
    state.plies = 101;
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Player::P1), "home-rule"))
    );
    // Only player 1 at home: player 2 wins.
    let mut state = lone(
        &[(19, 1, '1'), (10, 5, '1'), (5, 1, '2'), (10, 6, '2')],
        Player::P1,
    );
    state.plies = 150;
    assert_eq!(state.outcome().map(|o| o.winner), Some(Some(Player::P2)));
    // Nobody at home at ply 200: a tie.
    let mut state = lone(&[(15, 1, '1'), (5, 1, '2')], Player::P1);
    state.plies = 200;
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((None, "ply-limit"))
    );
}

#[test]
fn notation_and_errors() {
    let start = ChineseCheckers::new(Rules::default());
    let mv = start.parse_move("17 2 15 2").expect("jump");
    assert_eq!(start.format_move(mv), "17 2 15 2");
    let reason = |t: &str| start.parse_move(t).expect_err(t).reason;
    assert!(reason("17 2").contains("four numbers"));
    assert!(reason("20 1 19 1").contains("not a cell"));
    assert!(reason("10 5 9 5").contains("no marble of P1"));
    assert!(reason("19 1 18 1").contains("cannot reach"));
}

#[test]
fn random_playouts_satisfy_the_game_properties() {
    testing::check_random_playouts(&ChineseCheckers::new(Rules::default()), 30, 200);
}

#[test]
fn the_json_position_has_the_rows_and_the_rules() {
    let rules = Rules {
        long_jumps: false,
        ..Rules::default()
    };
    let json = ChineseCheckers::new(rules).position_json();
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 19);
    assert_eq!(rows[1], "44");
    assert_eq!(rows[17], "33");
    assert_eq!(rows[9], "0000000000");
    assert_eq!(json["rules"]["jumps"], "short");
    assert_eq!(json["rules"]["home_plies"], 100);
    assert_eq!(json["to_move"], "P1");
}
