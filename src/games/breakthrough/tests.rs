use super::*;
use crate::core::Game;
use crate::games::testing::move_names;
use crate::games::{perft, replay, testing};

fn position(rules: Rules, dump: &str, to_move: Player) -> Breakthrough {
    Breakthrough::from_dump(rules, dump, to_move).expect("valid test position")
}

/// A deliberately naive move generator over a 2-D array, for cross-checking perft.
#[derive(Clone)]
struct Naive {
    rows: i32,
    cols: i32,
    cells: Vec<Vec<u8>>,
    to_move: u8,
    three_to_base: bool,
}

impl Naive {
    fn new(rules: Rules) -> Naive {
        let g = rules.geometry();
        let (rows, cols) = (g.rows as i32, g.cols as i32);
        let cells = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|_| match r {
                        0 | 1 => 1,
                        r if r >= rows - 2 => 2,
                        _ => 0,
                    })
                    .collect()
            })
            .collect();
        Naive {
            rows,
            cols,
            cells,
            to_move: 1,
            three_to_base: rules == Rules::ThreeToBase,
        }
    }

    fn finished(&self) -> bool {
        let mover = 3 - self.to_move;
        let goal = if mover == 1 { self.rows - 1 } else { 0 };
        let on_goal = self.cells[goal as usize]
            .iter()
            .filter(|&&c| c == mover)
            .count();
        let left = self
            .cells
            .iter()
            .flatten()
            .filter(|&&c| c == self.to_move)
            .count();
        if self.three_to_base {
            on_goal >= 3 || left < 3
        } else {
            on_goal >= 1 || left == 0
        }
    }

    fn moves(&self) -> Vec<(i32, i32, i32, i32)> {
        let mut out = Vec::new();
        if self.finished() {
            return out;
        }
        let dir = if self.to_move == 1 { 1 } else { -1 };
        for r in 0..self.rows {
            for c in 0..self.cols {
                if self.cells[r as usize][c as usize] != self.to_move {
                    continue;
                }
                let nr = r + dir;
                if nr < 0 || nr >= self.rows {
                    continue;
                }
                for dc in [-1, 0, 1] {
                    let nc = c + dc;
                    if nc < 0 || nc >= self.cols {
                        continue;
                    }
                    let target = self.cells[nr as usize][nc as usize];
                    let ok = if dc == 0 {
                        target == 0
                    } else {
                        target != self.to_move
                    };
                    if ok {
                        out.push((r, c, nr, nc));
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
                child.cells[r as usize][c as usize] = 0;
                child.cells[nr as usize][nc as usize] = self.to_move;
                child.to_move = 3 - self.to_move;
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn perft_standard_matches_published_counts() {
    let start = Breakthrough::new(Rules::Standard);
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, vec![22, 484, 11_132, 256_036]);
}

#[test]
fn perft_of_every_rule_set_matches_naive_generator() {
    for rules in Rules::ALL {
        let start = Breakthrough::new(rules);
        let naive = Naive::new(rules);
        for depth in 1..=4 {
            assert_eq!(
                perft(&start, depth),
                naive.perft(depth),
                "{rules} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_long_board_start() {
    // 28 first moves (spec worked example 1); the deeper counts are cross-checked
    // against the naive generator above and pinned here to catch regressions.
    let start = Breakthrough::new(Rules::Long);
    assert_eq!(perft(&start, 1), 28);
    // P2 answers with 28 moves, less the straight move of the piece facing P1's new one.
    assert_eq!(perft(&start, 2), 28 * 27);
}

#[test]
fn perft_small_board_start() {
    // 5x5, two rows each: the front row's corner pieces have two moves, the three inner
    // ones three (13); every reply but the straight move of the piece facing the new one
    // stays legal, and a diagonal onto it is now a capture (12 each).
    let start = Breakthrough::new(Rules::Small);
    assert_eq!(perft(&start, 1), 13);
    assert_eq!(perft(&start, 2), 13 * 12);
}

#[test]
fn perft_deeper_agrees_with_naive_on_random_midgame_positions() {
    for rules in Rules::ALL {
        let mut state = Breakthrough::new(rules);
        let mut naive = Naive::new(rules);
        let mut rng = crate::core::seeds::rng(5);
        let mut moves = Vec::new();
        for _ply in 0..30 {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[crate::core::seeds::below(&mut rng, moves.len())];
            let g = state.geometry();
            let (fr, fc) = (g.row_of[mv.from as usize], g.col_of[mv.from as usize]);
            let (tr, tc) = (g.row_of[mv.to as usize], g.col_of[mv.to as usize]);
            naive.cells[fr as usize][fc as usize] = 0;
            naive.cells[tr as usize][tc as usize] = naive.to_move;
            naive.to_move = 3 - naive.to_move;
            state.apply(mv);
            assert_eq!(perft(&state, 3), naive.perft(3), "{rules}");
        }
    }
}

#[test]
fn start_positions_and_dump() {
    let start = Breakthrough::new(Rules::Standard);
    assert_eq!(
        start.board_dump(),
        "11111111\n11111111\n00000000\n00000000\n00000000\n00000000\n22222222\n22222222\n"
    );
    let long = Breakthrough::new(Rules::Long);
    assert_eq!(
        long.board_dump(),
        "1111111111\n1111111111\n0000000000\n2222222222\n2222222222\n"
    );
    assert_eq!(long.piece_count(Player::P1), 20);
    assert_eq!(start.to_move(), Player::P1);
    let again = Breakthrough::from_dump(Rules::Standard, &start.board_dump(), Player::P1);
    assert_eq!(again, Ok(start));
}

#[test]
fn edge_pieces_capture_inward_and_never_wrap() {
    // P1 on a4 (row 3, col 0) and h4 (row 3, col 7); P2 on b5, g5 and a5-adjacent squares.
    let state = position(
        Rules::Standard,
        "00000000
         00000000
         00000000
         10000001
         02000020
         00000000
         22000000
         00000000",
        Player::P1,
    );
    assert_eq!(move_names(&state), vec!["a4-a5", "a4-b5", "h4-g5", "h4-h5"]);
    // P2 to move: b5 can take a4, g5 can take h4; nothing wraps from column 0 to 7.
    let state = position(Rules::Standard, &state.board_dump(), Player::P2);
    assert_eq!(
        move_names(&state),
        vec![
            "a7-a6", "a7-b6", "b5-a4", "b5-b4", "b5-c4", "b7-a6", "b7-b6", "b7-c6", "g5-f4",
            "g5-g4", "g5-h4"
        ]
    );
}

#[test]
fn blocked_piece_cannot_capture_straight_ahead() {
    let state = position(
        Rules::Standard,
        "00000000
         00000000
         00000000
         00010000
         00020000
         00000000
         00000000
         00000200",
        Player::P1,
    );
    assert_eq!(move_names(&state), vec!["d4-c5", "d4-e5"]);
    // The own piece in front blocks too, and a piece cannot take its own.
    let state = position(
        Rules::Standard,
        "00000000
         00000000
         00000000
         00111000
         00010000
         00000000
         00000000
         00000200",
        Player::P1,
    );
    assert_eq!(
        move_names(&state),
        vec![
            "c4-b5", "c4-c5", "d4-c5", "d4-e5", "d5-c6", "d5-d6", "d5-e6", "e4-e5", "e4-f5"
        ]
    );
}

#[test]
fn capture_removes_the_enemy_piece() {
    let mut state = position(
        Rules::Standard,
        "00000000
         00000000
         00010000
         00002000
         00000000
         00000000
         00002000
         00000000",
        Player::P1,
    );
    let mv = state.parse_move("d3-e4").expect("legal capture");
    state.apply(mv);
    assert_eq!(state.piece_count(Player::P2), 1);
    assert_eq!(state.pieces(Player::P1), 1 << (3 * 8 + 4));
    assert_eq!(state.to_move(), Player::P2);
}

#[test]
fn reaching_the_goal_row_wins_standard_and_long() {
    let mut state = position(
        Rules::Standard,
        "00000000
         00000000
         00000000
         00000000
         00000000
         00000000
         01000000
         00002000",
        Player::P1,
    );
    assert_eq!(state.outcome(), None);
    state.apply(state.parse_move("b7-b8").expect("legal"));
    let outcome = state.outcome().expect("finished");
    assert_eq!(outcome.winner, Some(Player::P1));
    assert_eq!(outcome.reason, "goal-row");
    assert_eq!(state.count_moves(), 0);

    let mut long = position(
        Rules::Long,
        "0000000000
         0000000002
         0000000000
         1000000000
         0000000000",
        Player::P2,
    );
    long.apply(long.parse_move("j2-j1").expect("legal"));
    assert_eq!(long.outcome().map(|o| o.winner), Some(Some(Player::P2)));
}

#[test]
fn capturing_every_enemy_piece_wins() {
    let mut state = position(
        Rules::Standard,
        "00000000
         00000000
         00000000
         00010000
         00001000
         00000000
         00000000
         00000000",
        Player::P2,
    );
    // P2 has no pieces: but the check is for the side that just moved (P1).
    let outcome = state.outcome().expect("finished");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P1), "all-captured")
    );
    state = position(
        Rules::Standard,
        &state.board_dump().replace("00001000\n", "00002000\n"),
        Player::P1,
    );
    state.apply(state.parse_move("d4-e5").expect("capture"));
    assert_eq!(state.outcome().map(|o| o.reason), Some("all-captured"));
}

#[test]
fn three_to_base_needs_three_on_the_goal_row() {
    // Worked example 5: P1 has b8 and g8; moving a third piece to d8 wins.
    let mut state = position(
        Rules::ThreeToBase,
        "00000000
         00000000
         22200000
         00000000
         00000000
         00000000
         00010000
         01000010",
        Player::P1,
    );
    assert_eq!(state.outcome(), None, "two on the goal row is not a win");
    // Pieces on the goal row have no moves.
    assert_eq!(move_names(&state), vec!["d7-c8", "d7-d8", "d7-e8"]);
    state.apply(state.parse_move("d7-d8").expect("legal"));
    let outcome = state.outcome().expect("three on goal row");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P1), "three-on-goal-row")
    );
}

#[test]
fn three_to_base_leaving_two_enemy_pieces_wins() {
    let mut state = position(
        Rules::ThreeToBase,
        "11100000
         00000000
         00000000
         00100000
         00020000
         00000000
         00000000
         00000022",
        Player::P1,
    );
    assert_eq!(state.outcome(), None);
    state.apply(state.parse_move("c4-d5").expect("capture"));
    let outcome = state.outcome().expect("P2 down to two");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P1), "fewer-than-three")
    );
}

#[test]
fn a_side_that_cannot_move_loses() {
    // three-to-base: P1 has a8 and c8 on the goal row (no moves there, and two is not a
    // win), b7 blocked by P2 on b8 with its diagonals a8/c8 its own, a6 blocked by P2 on
    // a7 with its only diagonal b7 its own. P1 to move has no move and loses.
    let state = position(
        Rules::ThreeToBase,
        "00000000
         00000000
         00000000
         00000000
         00002000
         10000000
         21000000
         12100000",
        Player::P1,
    );
    let outcome = state.outcome().expect("no moves");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Player::P2), "no-moves")
    );
}

#[test]
fn notation_errors_say_why() {
    let state = Breakthrough::new(Rules::Standard);
    let reason = |t: &str| state.parse_move(t).expect_err("rejected").reason;
    assert!(reason("c2d3").contains("expected <from>-<to>"));
    assert!(reason("c2-z3").contains("not a square"));
    assert!(reason("c9-c10").contains("not a square"));
    assert!(reason("c3-c4").contains("no P1 piece on c3"));
    assert!(reason("c2-c4").contains("illegal for P1"));
    assert!(reason("c1-c2").contains("illegal"));
    assert_eq!(
        state.parse_move(" c2-d3 ").map(|m| state.format_move(m)),
        Ok("c2-d3".into())
    );
}

#[test]
fn moves_are_written_after_what_the_text_holds_on_every_board() {
    // The long board's last files: P1 on i4 moves to h5, i5 or j5.
    let long = position(
        Rules::Long,
        "0000000000
         0000000000
         0000000000
         0000000010
         2000000000",
        Player::P1,
    );
    assert_eq!(move_names(&long), ["i4-h5", "i4-i5", "i4-j5"]);
    // Appended after what the text holds, each cut to its length.
    let mut moves = Vec::new();
    long.legal_moves(&mut moves);
    let mut text = String::from("b2-b3;");
    for mv in moves {
        long.write_move(mv, &mut text);
        text.push(';');
    }
    assert_eq!(text.len(), "b2-b3;".len() + 3 * "i4-h5;".len(), "{text}");
    assert!(text.starts_with("b2-b3;i4-"), "{text}");
    for rules in Rules::ALL {
        let start = Breakthrough::new(rules);
        let geometry = rules.geometry();
        let last_file = char::from(b'a' + geometry.cols as u8 - 1);
        let names = move_names(&start);
        assert!(names.contains(&"a2-a3".to_string()), "{rules}: {names:?}");
        assert!(
            names.contains(&format!("{last_file}2-{last_file}3")),
            "{rules}: {names:?}"
        );
        assert!(names.iter().all(|n| n.len() == 5), "{rules}: {names:?}");
    }
}

#[test]
fn replay_reports_the_ply_of_an_illegal_move() {
    let start = Breakthrough::new(Rules::Standard);
    let (state, outcome) = replay(&start, ["c2-c3", "d7-d6"]).expect("legal moves");
    assert_eq!(outcome, None);
    assert_eq!(state.to_move(), Player::P1);
    let err = replay(&start, ["c2-c3", "d7-d6", "c3-c5"]).expect_err("illegal");
    assert_eq!(err.ply, 3);
    assert!(err.to_string().starts_with("ply 3: move 'c3-c5'"), "{err}");
}

#[test]
fn random_playouts_satisfy_the_game_properties() {
    for rules in Rules::ALL {
        testing::check_random_playouts(&Breakthrough::new(rules), 60, 400);
    }
}

#[test]
fn dump_parser_rejects_bad_boards() {
    assert!(Breakthrough::from_dump(Rules::Standard, "111", Player::P1).is_err());
    let bad = "11111111\n11111111\n00000000\n00000000\n00000000\n00000000\n22222222\n2222222x\n";
    let err = Breakthrough::from_dump(Rules::Standard, bad, Player::P1).expect_err("bad digit");
    assert!(err.contains("unexpected 'x'"), "{err}");
}

#[test]
fn the_json_position_lists_rows_from_row_one() {
    let mut state = Breakthrough::new(Rules::Long);
    state.apply(state.parse_move("a2-a3").expect("legal"));
    let json = state.position_json();
    assert_eq!(
        (json["rows"].clone(), json["cols"].clone()),
        (5.into(), 10.into())
    );
    assert_eq!(json["to_move"], "P2");
    assert_eq!(json["board"][0], "1111111111");
    assert_eq!(json["board"][1], "0111111111");
    assert_eq!(json["board"][2], "1000000000");
    assert_eq!(json["board"][4], "2222222222");
}

#[test]
fn perft_by_depth_counts_every_depth_in_one_walk_as_perft_does() {
    use crate::games::perft_by_depth;
    for rules in [Rules::Standard, Rules::Long] {
        let start = Breakthrough::new(rules);
        let each: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
        assert_eq!(perft_by_depth(&start, 4), each, "{rules:?}");
    }
    // Where games end inside the tree: the Dragon Queen's late positions.
    let wights = crate::games::wights::Wights::new();
    let each: Vec<u64> = (1..=6).map(|d| perft(&wights, d)).collect();
    assert_eq!(perft_by_depth(&wights, 6), each);
    assert!(perft_by_depth(&wights, 0).is_empty());
}

#[test]
fn random_positions_end_even_for_a_game_too_short_for_the_plies_asked() {
    use crate::games::random_positions;
    // Breakthrough's positions are as before: the fallback never applies.
    let start = Breakthrough::new(Rules::Standard);
    let positions = random_positions(&start, 30, 10, 40, 4);
    assert_eq!(positions.len(), 30);
    assert!(positions.iter().all(|p| p.outcome().is_none()));
    // A Dragon Queen game lasts at most 50 plies: asked for 60 to 80, it still answers,
    // with unfinished positions.
    let wights = crate::games::wights::Wights::new();
    let positions = random_positions(&wights, 5, 60, 80, 1);
    assert_eq!(positions.len(), 5);
    assert!(positions.iter().all(|p| p.outcome().is_none()));
}

/// Calls `check(position, its legal moves)` at every position of 20 random games of each
/// rule set, from the start to the end (the finished position included), the games drawn
/// from `seed`.
fn along_random_games(seed: u64, mut check: impl FnMut(&Breakthrough, &[Move])) {
    use crate::core::seeds;
    for rules in Rules::ALL {
        let mut rng = seeds::rng(seeds::derive(seed, &[rules as u64]));
        for _ in 0..20 {
            let mut state = Breakthrough::new(rules);
            let mut legal = Vec::new();
            loop {
                state.legal_moves(&mut legal);
                check(&state, &legal);
                if state.outcome().is_some() {
                    assert!(legal.is_empty(), "{rules:?}: a finished game has no move");
                    break;
                }
                state.apply(legal[seeds::below(&mut rng, legal.len())]);
            }
        }
    }
}

#[test]
fn pick_move_finds_the_kth_legal_move_without_listing_them() {
    // Every rule set, from the start and along random games to their ends: pick(n) = k
    // gives legal_moves' k-th move for every k, with n their number; none once it is over.
    let mut scratch = Vec::new();
    along_random_games(17, |state, legal| {
        for k in 0..legal.len() {
            let mut told = None;
            let picked = state.pick_move(&mut scratch, &mut |n| {
                told = Some(n);
                k
            });
            assert_eq!(picked, Some(legal[k]), "{:?} move {k}", state.rules());
            assert_eq!(told, Some(legal.len()));
        }
        if state.outcome().is_some() {
            assert_eq!(state.pick_move(&mut scratch, &mut |_| 0), None);
        }
    });
}

#[test]
fn for_each_child_makes_the_listed_moves_children_and_stops_when_told() {
    use std::ops::ControlFlow;
    // Every rule set along random games to their ends: the children come in legal_moves'
    // order, each equal to a copy with the move applied; the count is every legal move
    // even when the walk stops early; a finished game has none.
    let mut scratch = Vec::new();
    along_random_games(19, |state, legal| {
        let rules = state.rules();
        let mut seen = Vec::new();
        let count = state.for_each_child(&mut scratch, |mv, child| {
            let mut expected = *state;
            expected.apply(mv);
            assert_eq!(*child, expected, "{rules:?} {mv:?}");
            seen.push(mv);
            ControlFlow::Continue(())
        });
        assert_eq!(seen, legal, "{rules:?}");
        assert_eq!(count, legal.len() as u64);
        let stop = legal.len() / 2;
        let mut visited = 0;
        let count = state.for_each_child(&mut scratch, |_, _| {
            visited += 1;
            if visited > stop {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(count, legal.len() as u64);
        assert_eq!(visited, (stop + 1).min(legal.len()));
    });
}

#[test]
fn is_legal_agrees_with_the_listed_moves_for_every_pair_of_squares() {
    // Every rule set along random games to their ends (the finished positions included):
    // each (from, to) pair of the board's squares, and squares past it, is legal exactly
    // when legal_moves lists it.
    along_random_games(23, |state, legal| {
        let squares = state.geometry().rows * state.geometry().cols;
        let mut found = 0;
        for from in 0..squares as u8 + 2 {
            for to in 0..squares as u8 + 2 {
                let mv = Move { from, to };
                assert_eq!(
                    state.is_legal(mv),
                    legal.contains(&mv),
                    "{:?} {mv:?}",
                    state.rules()
                );
                found += usize::from(state.is_legal(mv));
            }
        }
        assert_eq!(found, legal.len());
    });
    // Past the 64 squares a bitboard holds: not legal, no overflow.
    let start = Breakthrough::new(Rules::Standard);
    assert!(!start.is_legal(Move { from: 8, to: 200 }));
}

#[test]
fn the_position_written_directly_is_the_bytes_of_its_json_tree() {
    // Every rule set (boards of 8, 10 and 5 columns) along random games to their ends.
    along_random_games(29, |state, _| {
        let mut written = Vec::new();
        state.write_position_json(&mut written);
        assert_eq!(
            String::from_utf8(written).expect("UTF-8"),
            serde_json::to_string(&state.position_json()).expect("serializes"),
            "{:?}",
            state.rules()
        );
    });
}

/// A random board of `rules`, each square holding a piece with chance `filled` in 10 (a
/// P1 or a P2 piece alike, goal rows included), `to_move` to move: from sparse to nearly
/// full boards, so that blocked sides come up.
fn random_board(
    rng: &mut crate::core::seeds::GameRng,
    rules: Rules,
    filled: usize,
    to_move: Player,
) -> Breakthrough {
    use crate::core::seeds;
    let geometry = rules.geometry();
    let mut pieces = ByPlayer([0u64; 2]);
    for square in 0..geometry.rows * geometry.cols {
        match seeds::below(rng, 10) {
            k if k >= filled => {}
            k if k % 2 == 0 => pieces[Player::P1] |= 1 << square,
            _ => pieces[Player::P2] |= 1 << square,
        }
    }
    Breakthrough {
        pieces,
        to_move,
        rules,
    }
}

#[test]
fn the_end_is_the_goal_test_or_no_legal_move_on_any_board() {
    // `outcome` looks at the moves only when the side to move has a piece on its goal
    // row. On random boards of every rule set (any mix of pieces, goal rows included,
    // either side to move), it must equal the rule: the goal conditions, else a loss for
    // a side without a legal move, else not over.
    use crate::core::seeds;
    let mut rng = seeds::rng(36);
    let mut legal = Vec::new();
    for rules in Rules::ALL {
        let (mut stuck, mut unfinished) = (0, 0);
        for board in 0..100_000 {
            let to_move = Player::BOTH[board % 2];
            let state = random_board(&mut rng, rules, 1 + board % 9, to_move);
            state.legal_moves(&mut legal);
            let expected = state.goal_reached().or_else(|| {
                legal.is_empty().then_some(Outcome {
                    winner: Some(to_move.opponent()),
                    reason: "no-moves",
                })
            });
            let outcome = state.outcome();
            assert_eq!(
                outcome.map(|o| (o.winner, o.reason)),
                expected.map(|o| (o.winner, o.reason)),
                "{rules:?}, {to_move:?} to move:\n{}",
                state.board_dump()
            );
            stuck += usize::from(outcome.is_some_and(|o| o.reason == "no-moves"));
            unfinished += usize::from(outcome.is_none());
        }
        // The boards reach both branches: unfinished games, and sides left without a
        // move (with pieces on their goal row: in play only three-to-base gets there).
        assert!(
            unfinished > 100,
            "{rules:?}: {unfinished} unfinished boards"
        );
        assert!(stuck > 0, "{rules:?}: no board without a move");
    }
}

#[test]
fn random_playout_plays_the_moves_pick_move_gives_one_by_one() {
    // The loop written per board size against the trait's default (`pick_move_playout`:
    // pick_move and apply a ply), on random boards of every rule set (either side to
    // move, sparse to nearly full, so that some sides are stuck at once), with ply limits
    // from none to beyond the game: the same picks, the same end position, plies and
    // reason for stopping.
    use crate::core::{pick_move_playout, seeds};
    let mut rng = seeds::rng(37);
    let mut scratch = Vec::new();
    for rules in Rules::ALL {
        let (mut ended, mut cut) = (0, 0);
        for board in 0..4_000 {
            let start = random_board(&mut rng, rules, 1 + board % 7, Player::BOTH[board % 2]);
            let max_plies = [0, 1, 2, 3, 8, u32::MAX][board % 6];
            let seed = seeds::derive(38, &[rules as u64, board as u64]);
            let mut expected = start;
            let mut picks = seeds::rng(seed);
            let by_move = pick_move_playout(
                &mut expected,
                &mut scratch,
                |n| seeds::below(&mut picks, n),
                max_plies,
            );
            let mut played = start;
            let playout =
                seeds::random_playout(&mut played, &mut scratch, &mut seeds::rng(seed), max_plies);
            let context = format!(
                "{rules:?}, limit {max_plies}, from\n{}{:?} to move",
                start.board_dump(),
                start.to_move
            );
            assert_eq!(played, expected, "{context}");
            assert_eq!(playout, by_move, "{context}");
            ended += usize::from(by_move.ended && by_move.plies > 0);
            cut += usize::from(!by_move.ended && by_move.plies > 0);
        }
        // Both ways of stopping come up after some plies.
        assert!(
            ended > 50 && cut > 50,
            "{rules:?}: {ended} ended, {cut} cut"
        );
    }
}
