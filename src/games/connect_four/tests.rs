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

/// Positions of seeded random games on `rows` x `columns`, every ply of `games` games.
fn random_game_positions(rows: u8, columns: u8, games: u64) -> Vec<ConnectFour> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for game in 0..games {
        let mut rng = crate::core::seeds::rng(game);
        let mut state = c4(rows, columns);
        while state.outcome().is_none() {
            positions.push(state);
            state.legal_moves(&mut moves);
            state.apply(moves[crate::core::seeds::below(&mut rng, moves.len())]);
        }
    }
    positions
}

#[test]
fn tactics_agree_with_playing_every_move_and_every_reply() {
    let mut seen = [0usize; 3];
    for (rows, columns) in [(6, 7), (4, 4), (8, 9), (5, 8)] {
        for state in random_game_positions(rows, columns, 300) {
            let mover = state.to_move();
            let (mut legal, mut listed, mut replies) = (Vec::new(), Vec::new(), Vec::new());
            state.legal_moves(&mut legal);
            // Each move: does it win at once, or let the opponent win at once?
            let mut wins = Vec::new();
            let mut safe = Vec::new();
            for &mv in &legal {
                let mut child = state;
                child.apply(mv);
                if child.outcome().is_some_and(|o| o.winner == Some(mover)) {
                    wins.push(mv);
                    continue;
                }
                child.legal_moves(&mut replies);
                let loses = replies.iter().any(|&reply| {
                    let mut after = child;
                    after.apply(reply);
                    after
                        .outcome()
                        .is_some_and(|o| o.winner == Some(mover.opponent()))
                });
                if !loses {
                    safe.push(mv);
                }
            }
            let context = format!("{rows}x{columns} after {:?}", state);
            match state.tactics(&mut listed) {
                Some(Tactics::Win(mv)) => {
                    assert!(wins.contains(&mv), "{context}: {mv} does not win");
                    seen[0] += 1;
                }
                Some(Tactics::Lost) => {
                    assert!(wins.is_empty() && safe.is_empty(), "{context}: not lost");
                    seen[1] += 1;
                }
                Some(Tactics::Moves) => {
                    assert!(wins.is_empty(), "{context}: a win at once was missed");
                    assert_eq!(listed, safe, "{context}: the moves that do not lose");
                    seen[2] += 1;
                }
                None => panic!("{context}: no tactics for a game going on"),
            }
        }
    }
    assert!(
        seen.iter().all(|&n| n > 100),
        "every case met often: {seen:?}"
    );
}

#[test]
fn a_board_and_its_mirror_image_hash_alike_and_moves_carry_over() {
    let mut mirrored_seen = 0;
    for (rows, columns) in [(6, 7), (4, 5), (8, 9)] {
        for state in random_game_positions(rows, columns, 50) {
            // The mirror image, played column for column from the same moves is not at
            // hand: build it from the cells.
            let mut mirror = c4(rows, columns);
            let height = u32::from(rows) + 1;
            for c in 0..u32::from(columns) {
                let column = (1u128 << height) - 1;
                let to = u32::from(columns) - 1 - c;
                mirror.p1 |= ((state.p1 >> (c * height)) & column) << (to * height);
                mirror.all |= ((state.all >> (c * height)) & column) << (to * height);
            }
            mirror.plies = state.plies;
            let (hash, symmetry) = state.symmetric_hash();
            let (mirror_hash, mirror_symmetry) = mirror.symmetric_hash();
            assert_eq!(hash, mirror_hash, "{rows}x{columns}: {state:?}");
            if state.all != mirror.all || state.p1 != mirror.p1 {
                assert_ne!(
                    symmetry, mirror_symmetry,
                    "one of the two is the mirrored one"
                );
                mirrored_seen += 1;
                // A move carried to the hashed position and back is itself, and a move
                // here is its mirror there.
                for mv in 0..columns {
                    let there = state.map_move(mv, symmetry, false);
                    assert_eq!(state.map_move(there, symmetry, true), mv);
                    assert_eq!(
                        there,
                        mirror.map_move(columns - 1 - mv, mirror_symmetry, false)
                    );
                }
            }
            // Different positions of the same size hash apart (the key is unique).
            let mut other = state;
            if other.outcome().is_none() {
                let mut moves = Vec::new();
                other.legal_moves(&mut moves);
                other.apply(moves[0]);
                assert_ne!(other.symmetric_hash().0, hash);
            }
        }
    }
    assert!(mirrored_seen > 100);
}
