use super::*;
use crate::games::{perft, testing};

fn c4(rows: u8, columns: u8) -> ConnectFour {
    ConnectFour::new(Params { rows, columns })
}

/// A deliberately plain Connect Four on a 2-D array, for cross-checking the bitboards.
#[derive(Clone)]
struct Plain {
    rows: usize,
    columns: usize,
    cells: Vec<Vec<u8>>,
    plies: usize,
    over: bool,
}

impl Plain {
    fn new(rows: usize, columns: usize) -> Plain {
        Plain {
            rows,
            columns,
            cells: vec![vec![0; columns]; rows],
            plies: 0,
            over: false,
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.over {
            return Vec::new();
        }
        (0..self.columns)
            .filter(|&c| self.cells[self.rows - 1][c] == 0)
            .collect()
    }

    fn play(&mut self, column: usize) {
        let side = 1 + (self.plies % 2) as u8;
        let row = (0..self.rows)
            .find(|&r| self.cells[r][column] == 0)
            .expect("room");
        self.cells[row][column] = side;
        self.plies += 1;
        let at = |r: i64, c: i64| -> u8 {
            if r < 0 || c < 0 || r >= self.rows as i64 || c >= self.columns as i64 {
                0
            } else {
                self.cells[r as usize][c as usize]
            }
        };
        for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [-1i64, 1] {
                let (mut r, mut c) = (row as i64 + sign * dr, column as i64 + sign * dc);
                while at(r, c) == side {
                    run += 1;
                    r += sign * dr;
                    c += sign * dc;
                }
            }
            if run >= 4 {
                self.over = true;
            }
        }
        if self.plies == self.rows * self.columns {
            self.over = true;
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn perft_counts_the_standard_board_and_agrees_with_a_plain_board_at_every_size() {
    // 7^d until the first possible win, at ply 7; OpenSpiel's connect_four counts the same
    // (tests/openspiel.rs checks it through the bridge).
    let start = c4(6, 7);
    let counts: Vec<u64> = (1..=8).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [7, 49, 343, 2401, 16807, 117649, 823536, 5673234]);
    for (rows, columns) in [(4, 4), (4, 5), (5, 4), (6, 7), (8, 9), (8, 4), (4, 9)] {
        let plain = Plain::new(rows as usize, columns as usize);
        for depth in 1..=6 {
            assert_eq!(
                perft(&c4(rows, columns), depth),
                plain.perft(depth),
                "{rows}x{columns} at depth {depth}"
            );
        }
    }
}

#[test]
fn games_end_with_four_in_any_direction_or_a_full_board() {
    let params = Params::default();
    let play = |moves: &str| ConnectFour::from_moves(params, moves).expect("legal");
    // Across the bottom row: P1 plays 1 2 3 4, P2 stacks on 1 2 3.
    let across = play("1122334");
    assert_eq!(across.outcome().map(|o| o.winner), Some(Some(Player::P1)));
    // Up column 7, P2: P1 wanders between columns 1 and 2, P2 stacks four.
    assert_eq!(play("1727172").outcome(), None);
    let up = play("17271727");
    assert_eq!(
        up.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Player::P2), "four-in-a-row"))
    );
    // A rising diagonal for P1, (row 1, column 1) to (4, 4).
    assert_eq!(play("1223433464").outcome(), None);
    let rising = play("12234334644");
    assert_eq!(rising.outcome().map(|o| o.winner), Some(Some(Player::P1)));
    // A falling diagonal for P1, (4, 1) to (1, 4).
    assert_eq!(play("4332122161").outcome(), None);
    let falling = play("43321221611");
    assert_eq!(falling.outcome().map(|o| o.winner), Some(Some(Player::P1)));
    // Three in a row is not four.
    assert_eq!(play("445566").outcome(), None);
    // A 4x4 board filled without four in a row (rows 1122 / 2211 / 1122 / 2211) is drawn.
    let small = Params {
        rows: 4,
        columns: 4,
    };
    let full = ConnectFour::from_moves(small, "1324314213243142").expect("legal");
    assert_eq!(
        full.outcome().map(|o| (o.winner, o.reason)),
        Some((None, "board-full"))
    );
    assert_eq!(full.count_moves(), 0);
}

#[test]
fn notation_is_the_column_number_and_a_full_column_is_refused() {
    let state = ConnectFour::from_moves(Params::default(), "444444").expect("legal");
    let error = state.parse_move("4").expect_err("full");
    assert_eq!(error.reason, "column 4 is full");
    let error = state.parse_move("8").expect_err("off the board");
    assert!(error.reason.contains("from 1 to 7"), "{}", error.reason);
    assert_eq!(
        state.format_move(state.parse_move("7").expect("legal")),
        "7"
    );
    assert_eq!(
        state.split_moves("4453"),
        Some(vec!["4".into(), "4".into(), "5".into(), "3".into()])
    );
    assert_eq!(state.split_moves("4"), None);
    assert_eq!(state.board_display().lines().last(), Some("1 2 3 4 5 6 7"));
}

#[test]
fn threats_are_the_empty_cells_that_complete_four() {
    let params = Params::default();
    let geometry = params.geometry();
    // P1 on 1, 2, 3 of the bottom row (P2 above them): the threat is column 4's bottom.
    let state = ConnectFour::from_moves(params, "112233").expect("legal");
    let found = threats(state.discs(Player::P1), state.occupied(), geometry);
    assert_eq!(found, 1 << (3 * geometry.height));
    // Its row is row 1: odd.
    assert_ne!(found & geometry.odd_rows, 0);
    // P2's three above them (row 2) threaten column 4, row 2: even.
    let p2 = threats(state.discs(Player::P2), state.occupied(), geometry);
    assert_eq!(p2, 1 << (3 * geometry.height + 1));
    assert_eq!(p2 & geometry.odd_rows, 0);
}

#[test]
fn random_playouts_keep_every_rule_consistent() {
    for (rows, columns) in [(6, 7), (4, 5), (8, 9)] {
        testing::check_random_playouts(&c4(rows, columns), 200, 100);
    }
}
