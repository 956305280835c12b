use super::*;
use crate::games::{perft, testing};

#[test]
fn perft_from_the_start_counts_the_published_numbers() {
    // Passes count as moves; the counts OpenSpiel's othello gives too (tests/openspiel.rs).
    let start = Othello::new();
    let counts: Vec<u64> = (1..=7).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [4, 12, 56, 244, 1396, 8200, 55092]);
}

#[test]
fn black_opens_on_d3_c4_f5_e6_and_turns_the_bracketed_disc() {
    let start = Othello::new();
    assert_eq!(testing::move_names(&start), ["c4", "d3", "e6", "f5"]);
    let mut state = start;
    state.apply(state.parse_move("d3").expect("legal"));
    // d4 turns black: black d3 d4 d5 e4, white e5.
    assert_eq!(state.piece_count(Player::P1), 4);
    assert_eq!(state.piece_count(Player::P2), 1);
    assert_eq!(state.board_dump().lines().nth(3), Some(". . . X X . . ."));
    assert_eq!(state.to_move(), Player::P2);
    let error = state.parse_move("a1").expect_err("turns nothing");
    assert_eq!(error.reason, "that disc would turn nothing");
    assert_eq!(
        state.parse_move("d4").expect_err("taken").reason,
        "that square is taken"
    );
    assert!(state.parse_move("i9").is_err());
    assert_eq!(
        state.parse_move("pass").expect_err("has moves").reason,
        "P2 has a move, so it cannot pass"
    );
}

#[test]
fn a_side_without_a_move_passes_and_the_game_ends_when_neither_can_move() {
    // White a1, black b1, black to move: black brackets nothing, white can play c1.
    let rows = "O X . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n";
    let state = Othello::from_rows(rows, Player::P1).expect("board");
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert_eq!(moves, [PASS]);
    assert_eq!(state.format_move(PASS), "pass");
    assert_eq!(state.count_moves(), 1);
    assert_eq!(state.outcome(), None);
    let mut after = state;
    after.apply(after.parse_move("PASS").expect("forced"));
    assert_eq!(testing::move_names(&after), ["c1"]);
    after.apply(after.parse_move("c1").expect("legal"));
    // White took the only black disc: nobody can move, white wins 3-0.
    assert_eq!(
        after.outcome(),
        Some(Outcome {
            winner: Some(Player::P2),
            reason: "no-moves"
        })
    );
    assert_eq!(after.count_moves(), 0);
    // A full board split 32-32 is a draw.
    let half = "X X X X X X X X\n".repeat(4) + &"O O O O O O O O\n".repeat(4);
    let full = Othello::from_rows(&half, Player::P1).expect("board");
    assert_eq!(full.outcome().map(|o| o.winner), Some(None));
}

#[test]
fn random_playouts_keep_every_rule_consistent() {
    testing::check_random_playouts(&Othello::new(), 300, 130);
}

#[test]
fn games_written_as_one_token_split_into_squares() {
    let start = Othello::new();
    assert_eq!(
        start.split_moves("f5D6c3"),
        Some(vec!["f5".to_string(), "D6".into(), "c3".into()])
    );
    // One square, an odd length, or anything else is not a run of squares.
    assert_eq!(start.split_moves("f5"), None);
    assert_eq!(start.split_moves("f5d"), None);
    assert_eq!(start.split_moves("f5i6"), None);
    assert_eq!(start.split_moves("pass"), None);
}
