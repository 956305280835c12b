use super::*;
use crate::games::testing::move_names;
use crate::games::{perft, testing};

fn position(dump: &str, to_move: Player, plies: u8) -> Wights {
    Wights::from_dump(dump, to_move, plies).expect("valid test position")
}

/// A deliberately naive generator over a 5x5 array of chars, for cross-checking perft.
#[derive(Clone)]
struct Naive {
    cells: [[char; 5]; 5],
    wights_to_move: bool,
    plies: u32,
}

impl Naive {
    fn start() -> Naive {
        let mut cells = [['.'; 5]; 5];
        cells[0][2] = 'Q';
        cells[1][1] = 'D';
        cells[1][2] = 'D';
        cells[1][3] = 'D';
        cells[4] = ['W'; 5];
        Naive {
            cells,
            wights_to_move: true,
            plies: 0,
        }
    }

    fn over(&self) -> bool {
        let queen = self.cells.iter().flatten().any(|&c| c == 'Q');
        !queen || self.cells[4].contains(&'Q') || self.plies >= 50
    }

    fn moves(&self) -> Vec<(usize, usize, usize, usize)> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        for r in 0..5i32 {
            for c in 0..5i32 {
                let piece = self.cells[r as usize][c as usize];
                for dr in -1..=1i32 {
                    for dc in -1..=1i32 {
                        if dr == 0 && dc == 0 {
                            continue;
                        }
                        let (nr, nc) = (r + dr, c + dc);
                        if !(0..5).contains(&nr) || !(0..5).contains(&nc) {
                            continue;
                        }
                        let target = self.cells[nr as usize][nc as usize];
                        let diagonal = dr != 0 && dc != 0;
                        let ok = if self.wights_to_move {
                            piece == 'W'
                                && if diagonal {
                                    target == 'Q' || target == 'D'
                                } else {
                                    target == '.'
                                }
                        } else {
                            (piece == 'Q' || piece == 'D') && (target == '.' || target == 'W')
                        };
                        if ok {
                            out.push((r as usize, c as usize, nr as usize, nc as usize));
                        }
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .into_iter()
            .map(|(r, c, nr, nc)| {
                let mut child = self.clone();
                child.cells[nr][nc] = child.cells[r][c];
                child.cells[r][c] = '.';
                child.wights_to_move = !self.wights_to_move;
                child.plies += 1;
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn start_position_dump_and_move_counts() {
    let start = Wights::new();
    assert_eq!(
        start.board_dump(),
        ". . Q . .\n. D D D .\n. . . . .\n. . . . .\nW W W W W\n"
    );
    assert_eq!(start.to_move(), Player::P2, "the Wights move first");
    assert_eq!(
        move_names(&start),
        vec!["5 1 4 1", "5 2 4 2", "5 3 4 3", "5 4 4 4", "5 5 4 5"]
    );
    // Worked example 1: 19 moves if the Queen's side were to move.
    let queen_side = position(&start.board_dump(), Player::P1, 0);
    let moves = move_names(&queen_side);
    assert_eq!(moves.len(), 19);
    let from = |sq: &str| moves.iter().filter(|m| m.starts_with(sq)).count();
    assert_eq!(
        (from("1 3"), from("2 2"), from("2 3"), from("2 4")),
        (2, 6, 5, 6)
    );
}

#[test]
fn material_start_values_match_the_counts() {
    let start = Wights::new();
    assert_eq!(start.piece_count(Player::P1), 4);
    assert_eq!(start.piece_count(Player::P2), 5);
    assert_eq!(start.queen_row(), Some(1));
}

#[test]
fn transcript_position_has_twelve_moves_and_the_winning_capture() {
    let state = position(
        ". . . . D
         . D D . .
         . . . . Q
         W . . W .
         . W W . .",
        Player::P2,
        20,
    );
    let moves = move_names(&state);
    assert_eq!(moves.len(), 12, "{moves:?}");
    let from = |sq: &str| moves.iter().filter(|m| m.starts_with(sq)).count();
    assert_eq!(
        (from("4 1"), from("4 4"), from("5 2"), from("5 3")),
        (3, 5, 2, 2)
    );
    let mut after = state;
    after.apply(state.parse_move("4 4 3 5").expect("the capture is legal"));
    let outcome = after.outcome().expect("queen captured");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P2), "queen-captured")
    );
    // The report's direction form of the same move: (4,4) forward-right.
    assert_eq!(state.parse_move("4 4 6"), state.parse_move("4 4 3 5"));
}

#[test]
fn perft_from_the_start_matches_a_naive_generator() {
    let start = Wights::new();
    let naive = Naive::start();
    assert_eq!(perft(&start, 1), 5);
    for depth in 1..=4 {
        assert_eq!(perft(&start, depth), naive.perft(depth), "depth {depth}");
    }
}

#[test]
fn wights_capture_only_diagonally_and_queen_side_only_wights() {
    let state = position(
        ". . . . .
         . . . . .
         . D W D .
         . . Q . .
         . . . . .",
        Player::P2,
        0,
    );
    // The Wight on (3,3): up to (2,3); sideways blocked by Dragons (no orthogonal capture);
    // down blocked by the Queen; diagonal captures none (diagonals empty).
    assert_eq!(move_names(&state), vec!["3 3 2 3"]);
    let state = position(
        ". . . . Q
         . D . . .
         . . W . .
         . W . D .
         . . . . .",
        Player::P2,
        0,
    );
    let wight_moves: Vec<String> = move_names(&state)
        .into_iter()
        .filter(|m| m.starts_with("3 3"))
        .collect();
    assert_eq!(
        wight_moves,
        vec![
            "3 3 2 2", "3 3 2 3", "3 3 3 2", "3 3 3 4", "3 3 4 3", "3 3 4 4"
        ]
    );
    // A Dragon takes a Wight in any direction but never its own side.
    let state = position(
        ". . . . .
         . . W . .
         . D D W .
         . Q . . .
         . . . . W",
        Player::P1,
        0,
    );
    let dragon: Vec<String> = move_names(&state)
        .into_iter()
        .filter(|m| m.starts_with("3 3"))
        .collect();
    assert_eq!(
        dragon,
        vec![
            "3 3 2 2", "3 3 2 3", "3 3 2 4", "3 3 3 4", "3 3 4 3", "3 3 4 4"
        ]
    );
    let err = state.parse_move("3 3 3 2").expect_err("own piece");
    assert!(err.reason.contains("illegal"), "{err}");
}

#[test]
fn end_rules_and_their_order() {
    // Queen reaches row 5.
    let mut state = position(
        ". . . . .
         . . . . .
         . . . . .
         . . Q . W
         . . . . .",
        Player::P1,
        10,
    );
    state.apply(state.parse_move("4 3 5 3").expect("legal"));
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Player::P1), "queen-home"))
    );
    // A win on the 50th ply is a win, not a draw.
    let mut state = position(
        ". . . . .
         . . . . .
         . . . . .
         . . Q . W
         . . . . .",
        Player::P1,
        49,
    );
    state.apply(state.parse_move("4 3 5 4").expect("legal"));
    assert_eq!(state.outcome().map(|o| o.reason), Some("queen-home"));
    // 50 plies without a result: draw.
    let mut state = position(
        ". . . . .
         . . Q . .
         . . . . .
         . . . . W
         . . . . .",
        Player::P1,
        49,
    );
    assert_eq!(state.outcome(), None);
    state.apply(state.parse_move("2 3 2 2").expect("legal"));
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((None, "ply-limit"))
    );
    assert_eq!(state.count_moves(), 0);
    // The side to move has no move: draw (here: all Wights captured).
    let state = position(
        ". . Q . .
         . . . . .
         . . D . .
         . . . . .
         . . . . .",
        Player::P2,
        7,
    );
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((None, "no-moves"))
    );
    // A blocked Wight: no orthogonal step free, no diagonal capture.
    let state = position(
        ". . Q . .
         . . . . .
         . . . . .
         . . . D .
         . . D W D",
        Player::P2,
        7,
    );
    assert_eq!(state.outcome().map(|o| o.reason), Some("no-moves"));
    // Queen captured beats everything else.
    let state = position(
        ". . . . .
         . . . . .
         . . . . .
         . . . . .
         W W . . .",
        Player::P1,
        50,
    );
    assert_eq!(state.outcome().map(|o| o.reason), Some("queen-captured"));
}

#[test]
fn notation_errors_say_why() {
    let start = Wights::new();
    let reason = |t: &str| start.parse_move(t).expect_err(t).reason;
    assert!(reason("a b c d").contains("expected 'r c r2 c2'"));
    assert!(
        reason("5 5 4").contains("that step leaves the board")
            || reason("5 5 4").contains("illegal")
    );
    assert!(reason("6 1 5 1").contains("rows and columns 1-5"));
    assert!(reason("5 5 9").contains("direction 9"));
    assert!(reason("1 3 2 3").contains("no piece of P2"));
    assert!(reason("5 5 4 4").contains("illegal for a Wight"));
    assert_eq!(
        start.parse_move("5 5 1").map(|m| start.format_move(m)),
        Ok("5 5 4 5".to_string())
    );
}

#[test]
fn random_playouts_satisfy_the_game_properties() {
    testing::check_random_playouts(&Wights::new(), 300, 50);
}
