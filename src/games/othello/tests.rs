use super::*;
use crate::core::SearchCounts;
use crate::games::testing::minimax_margin;
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

/// A late position of a seeded random game: `empties` empty squares left (or the end).
fn late_position(seed: u64, empties: u32) -> Othello {
    let mut state = Othello::new();
    let mut moves = Vec::new();
    let mut ply = 0u64;
    while state.outcome().is_none() && (state.black | state.white).count_zeros() > empties {
        state.legal_moves(&mut moves);
        let pick = crate::core::seeds::mix64(seed ^ ply.wrapping_mul(0x9e37)) as usize;
        state.apply(moves[pick % moves.len()]);
        ply += 1;
    }
    state
}

/// The discs a move turns, walked square by square in each of the eight directions.
fn walked_flips(own: u64, other: u64, square: u8) -> u64 {
    let (row, column) = (i32::from(square / 8), i32::from(square % 8));
    let mut turned = 0;
    for (dr, dc) in [
        (0, 1),
        (0, -1),
        (1, 0),
        (-1, 0),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut r, mut c, mut line) = (row + dr, column + dc, 0u64);
        while (0..8).contains(&r) && (0..8).contains(&c) && other & (1 << (r * 8 + c)) != 0 {
            line |= 1 << (r * 8 + c);
            r += dr;
            c += dc;
        }
        if (0..8).contains(&r) && (0..8).contains(&c) && own & (1 << (r * 8 + c)) != 0 {
            turned |= line;
        }
    }
    turned
}

#[test]
fn moves_and_turned_discs_equal_a_square_by_square_walk_on_random_positions() {
    let mut checked = 0;
    for seed in 0..40 {
        for empties in [50, 40, 30, 20, 10, 4] {
            let state = late_position(seed, empties);
            for (own, other) in [(state.black, state.white), (state.white, state.black)] {
                let mut walked_moves = 0u64;
                for square in 0..64u8 {
                    if (own | other) & (1 << square) != 0 {
                        continue;
                    }
                    let turned = walked_flips(own, other, square);
                    assert_eq!(
                        flips(own, other, square),
                        turned,
                        "seed {seed} square {square}"
                    );
                    if turned != 0 {
                        walked_moves |= 1 << square;
                    }
                }
                assert_eq!(moves_of(own, other), walked_moves, "seed {seed}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 480);
}

#[test]
fn the_last_squares_turns_are_counted_as_the_walk_turns_them() {
    // Random full boards with one square empty, every square in turn, both sides.
    let mut checked = 0;
    for seed in 0..200u64 {
        let discs = crate::core::seeds::mix64(seed);
        for square in 0..64u8 {
            let own = discs & !(1 << square);
            let other = !discs & !(1 << square);
            for (own, other) in [(own, other), (other, own)] {
                let walked = walked_flips(own, other, square).count_ones();
                assert_eq!(
                    endgame::last_turns(own, square),
                    walked,
                    "seed {seed} square {square}"
                );
                checked += u32::from(walked > 0);
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn the_final_margin_gives_the_empty_squares_to_the_winner() {
    // Black 3 discs, white 1, the rest empty and nobody can move (no line to close).
    let rows = "X X X . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . O\n";
    let over = Othello::from_rows(rows, Player::P1).expect("board");
    assert!(over.outcome().is_some());
    assert_eq!(over.final_margin(), Some(62));
    let mut white = over;
    white.to_move = Player::P2;
    assert_eq!(white.final_margin(), Some(-62));
    assert_eq!(Othello::new().final_margin(), None);
}

/// Seeded games' positions 8 empties from the end that are not over yet, with their
/// margin by plain minimax.
fn late_positions_with_margins() -> Vec<(u64, Othello, i32)> {
    (0..24)
        .map(|seed| (seed, late_position(seed, 8)))
        .filter(|(_, state)| state.outcome().is_none())
        .map(|(seed, state)| (seed, state, minimax_margin(&state)))
        .collect()
}

#[test]
fn the_endgame_search_equals_plain_minimax_on_late_positions() {
    let mut decided = 0;
    for (seed, state, exact) in late_positions_with_margins() {
        let (own, other) = state.sides();
        let mut counts = SearchCounts::default();
        assert_eq!(
            endgame::search(own, other, -65, 65, &mut counts),
            exact,
            "seed {seed}"
        );
        assert!(counts.visited > counts.expanded && counts.expanded > 0);
        // Null windows: fail-soft bounds on the right side of each test.
        for test in [exact - 2, exact - 1, exact, exact + 1, exact + 2] {
            let mut counts = SearchCounts::default();
            let bound = endgame::search(own, other, test - 1, test, &mut counts);
            if exact >= test {
                assert!(bound >= test && bound <= exact, "seed {seed} test {test}");
            } else {
                assert!(bound < test && bound >= exact, "seed {seed} test {test}");
            }
        }
        decided += 1;
    }
    assert!(decided >= 20, "{decided}");
}

#[test]
fn a_position_text_reads_as_the_ffo_writes_it_and_says_what_is_wrong() {
    let start = Othello::new();
    let text = "---------------------------OX------XO--------------------------- X";
    let read = start
        .read_position(text)
        .expect("reads texts")
        .expect("good");
    assert_eq!(read, start);
    let white = start
        .read_position(&text.replace(" X", " O"))
        .expect("reads")
        .expect("good");
    assert_eq!(white.to_move(), Player::P2);
    let error = |text: &str| {
        let error = start.read_position(text).expect("reads").expect_err("bad");
        error.to_string()
    };
    assert_eq!(
        error("OX X"),
        "3 squares and marks where 64 squares a1 to h8 (X black, O white, - empty) then the side to move (X or O) are wanted"
    );
    assert_eq!(
        error(&text.replacen('-', "Q", 1)),
        "square 1: 'Q' is not X, O or -"
    );
    assert_eq!(
        error(&text.replace(" X", " Z")),
        "side to move 'Z': expected X or O"
    );
}

#[test]
fn stable_discs_are_corners_and_what_leans_on_them_and_never_turn_in_any_game() {
    let rows = |text: &str| Othello::from_rows(text, Player::P1).expect("board");
    // Black a1-c1 along the top edge from the corner, black d4 alone in the middle: the
    // corner run is stable, the lone disc is not (white b1 would not matter: it is black).
    let state = rows(
        "X X X . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . X . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . .\n. . . . . . . O\n",
    );
    let filled = state.black | state.white;
    let a1_c1 = 0b111;
    assert_eq!(endgame::stable_discs(state.black, filled), a1_c1);
    assert_eq!(endgame::stable_discs(state.white, filled), 1 << 63);
    // A full board: every disc.
    let full = rows(&("X O X O X O X O\n".repeat(8)));
    assert_eq!(endgame::stable_discs(full.black, !0), full.black);
    // On random games, a disc called stable keeps its colour to the end.
    let mut called = 0;
    for seed in 0..30 {
        let mut state = late_position(seed, 24);
        let stable_black = endgame::stable_discs(state.black, state.black | state.white);
        let stable_white = endgame::stable_discs(state.white, state.black | state.white);
        called += (stable_black | stable_white).count_ones();
        let mut moves = Vec::new();
        let mut ply = 0u64;
        while state.outcome().is_none() {
            state.legal_moves(&mut moves);
            let pick = crate::core::seeds::mix64(seed.wrapping_mul(31) ^ ply) as usize;
            state.apply(moves[pick % moves.len()]);
            ply += 1;
            assert_eq!(state.black & stable_black, stable_black, "seed {seed}");
            assert_eq!(state.white & stable_white, stable_white, "seed {seed}");
        }
    }
    assert!(called >= 30, "{called} stable discs in 30 games");
    // The cut never claims less than the exact margin.
    for (seed, state, exact) in late_positions_with_margins() {
        let (own, other) = state.sides();
        for alpha in (-64..=64).step_by(4) {
            if let Some(bound) = endgame::stability_cut(own, other, alpha) {
                assert!(
                    bound <= alpha && exact <= bound,
                    "seed {seed} alpha {alpha}"
                );
            }
        }
    }
}
