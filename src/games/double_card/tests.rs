use super::*;
use crate::games::{perft, replay, testing};

fn game(p1: Role) -> DoubleCard {
    DoubleCard::new(Params {
        p1,
        ..Params::default()
    })
}

fn play(start: &DoubleCard, moves: &[&str]) -> DoubleCard {
    replay(start, moves.iter().copied()).expect("legal moves").0
}

/// A card of the naive generator: type, anchor cell, other cell (row, column).
type NaiveCard = (u8, (usize, usize), (usize, usize));

/// A naive generator: a 12x8 grid of card numbers, rules straight from the spec.
#[derive(Clone)]
struct Naive {
    grid: [[u8; 8]; 12],
    cards: Vec<NaiveCard>,
    last: Option<u8>,
}

impl Naive {
    fn new() -> Naive {
        Naive {
            grid: [[0; 8]; 12],
            cards: Vec::new(),
            last: None,
        }
    }

    fn cells_of(t: u8, r: usize, c: usize) -> Option<((usize, usize), (usize, usize))> {
        let other = if !t.is_multiple_of(2) {
            (r, c + 1)
        } else {
            (r + 1, c)
        };
        (other.0 < 12 && other.1 < 8).then_some(((r, c), other))
    }

    fn placements(grid: &[[u8; 8]; 12]) -> Vec<(u8, usize, usize)> {
        let mut out = Vec::new();
        for r in 0..12 {
            for c in 0..8 {
                for t in 1..=8u8 {
                    let Some((a, b)) = Naive::cells_of(t, r, c) else {
                        continue;
                    };
                    let empty = grid[a.0][a.1] == 0 && grid[b.0][b.1] == 0;
                    let held = |(r, c): (usize, usize)| r == 0 || grid[r - 1][c] != 0;
                    if empty && held(a) && (t.is_multiple_of(2) || held(b)) {
                        out.push((t, r, c));
                    }
                }
            }
        }
        out
    }

    /// Whether some line of four cells has one colour or one dot type.
    fn finished(&self) -> bool {
        let mut halves = [[None; 8]; 12];
        for &(t, a, b) in &self.cards {
            let (first, second) = HALVES[usize::from(t - 1)];
            halves[a.0][a.1] = Some(first);
            halves[b.0][b.1] = Some(second);
        }
        for r in 0..12i32 {
            for c in 0..8i32 {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let run: Option<Vec<(bool, bool)>> = (0..4)
                        .map(|k| {
                            let (rr, cc) = (r + k * dr, c + k * dc);
                            if (0..12).contains(&rr) && (0..8).contains(&cc) {
                                halves[rr as usize][cc as usize]
                            } else {
                                None
                            }
                        })
                        .collect();
                    if let Some(run) = run
                        && (run.iter().all(|h| h.0 == run[0].0)
                            || run.iter().all(|h| h.1 == run[0].1))
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn moves(&self) -> Vec<(Option<u8>, u8, usize, usize)> {
        if self.finished() {
            return Vec::new();
        }
        if self.cards.len() < 24 {
            return Naive::placements(&self.grid)
                .into_iter()
                .map(|(t, r, c)| (None, t, r, c))
                .collect();
        }
        let mut out = Vec::new();
        for (id, t, a, b) in self
            .cards
            .iter()
            .enumerate()
            .map(|(i, &(t, a, b))| (i as u8, t, a, b))
        {
            if self.last == Some(id) {
                continue;
            }
            let covered = [a, b].iter().any(|&(r, c)| {
                r + 1 < 12 && self.grid[r + 1][c] != 0 && self.grid[r + 1][c] != id + 1
            });
            if covered {
                continue;
            }
            let mut grid = self.grid;
            grid[a.0][a.1] = 0;
            grid[b.0][b.1] = 0;
            for (nt, r, c) in Naive::placements(&grid) {
                if !(nt == t && (r, c) == a) {
                    out.push((Some(id), nt, r, c));
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
            .map(|(lift, t, r, c)| {
                let mut child = self.clone();
                let id = match lift {
                    Some(id) => {
                        let (_, a, b) = child.cards[id as usize];
                        child.grid[a.0][a.1] = 0;
                        child.grid[b.0][b.1] = 0;
                        id
                    }
                    None => {
                        child.cards.push((0, (0, 0), (0, 0)));
                        child.cards.len() as u8 - 1
                    }
                };
                let (a, b) = Naive::cells_of(t, r, c).expect("legal");
                child.grid[a.0][a.1] = id + 1;
                child.grid[b.0][b.1] = id + 1;
                child.cards[id as usize] = (t, a, b);
                child.last = Some(id);
                child.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn empty_board_has_sixty_placements() {
    let start = game(Role::Dots);
    assert_eq!(start.count_moves(), 60);
    let names = testing::move_names(&start);
    assert!(names.contains(&"0 1 A 1".to_string()) && names.contains(&"0 8 H 1".to_string()));
    assert!(!names.contains(&"0 1 H 1".to_string()));
}

#[test]
fn card_faces_follow_the_type_table() {
    let state = play(&game(Role::Dots), &["0 2 A 1"]);
    let dump = state.board_dump();
    assert!(dump.contains(" 2 RX .. .. .. .. .. .. ..\n"), "{dump}");
    assert!(dump.contains(" 1 WO .. .. .. .. .. .. ..\n"), "{dump}");
    assert!(dump.ends_with("   A  B  C  D  E  F  G  H\n"));
    let state = play(&game(Role::Dots), &["0 5 C 1", "0 8 A 1"]);
    let dump = state.board_dump();
    assert!(dump.contains(" 1 RO .. RO WX .. .. .. ..\n"), "{dump}");
    assert!(dump.contains(" 2 WX .. .. .. .. .. .. ..\n"), "{dump}");
}

#[test]
fn illegal_placements_say_why() {
    let start = game(Role::Dots);
    let reason = |s: &DoubleCard, t: &str| s.parse_move(t).expect_err(t).reason;
    assert!(reason(&start, "0 1 A 2").contains("hang"));
    assert!(reason(&start, "0 1 H 1").contains("off the board"));
    assert!(reason(&start, "0 9 A 1").contains("type '9'"));
    assert!(reason(&start, "0 1 J 1").contains("not a cell"));
    assert!(reason(&start, "A 1 A 2 3 B 1").contains("recycling starts"));
    assert!(reason(&start, "1 2").contains("expected '0 T C R'"));
    let one = play(&start, &["0 1 A 1"]);
    assert!(reason(&one, "0 2 B 1").contains("occupied"));
    assert!(
        reason(&one, "0 3 B 2").contains("hang"),
        "half of a horizontal card over nothing"
    );
    assert!(one.parse_move("0 3 A 2").is_ok(), "both halves supported");
}

#[test]
fn the_rule_6_sequences_give_the_stated_winners() {
    let cases: [(Role, &[&str], Player, &str); 4] = [
        (
            Role::Dots,
            &["0 1 B 1", "0 2 D 1", "0 2 E 1", "0 1 D 3", "0 2 F 1"],
            Player::P1,
            "both-lines",
        ),
        (
            Role::Dots,
            &["0 1 B 1", "0 2 D 1", "0 2 E 1", "0 8 F 1"],
            Player::P1,
            "dot-line",
        ),
        (
            Role::Colors,
            &[
                "0 1 B 1", "0 2 D 1", "0 2 E 1", "0 1 D 3", "0 1 D 4", "0 6 F 1",
            ],
            Player::P1,
            "colour-line",
        ),
        (
            Role::Dots,
            &[
                "0 5 A 1", "0 2 A 2", "0 6 D 1", "0 4 B 2", "0 8 C 1", "0 7 C 3", "0 1 A 4",
                "0 7 C 4", "0 6 C 5",
            ],
            Player::P1,
            "both-lines",
        ),
    ];
    for (role, moves, winner, reason) in cases {
        let (last, rest) = moves.split_last().expect("moves");
        let before = play(&game(role), rest);
        assert_eq!(
            before.outcome(),
            None,
            "{moves:?}: no result before the last move"
        );
        let after = play(&before, &[last]);
        let outcome = after.outcome().expect("finished");
        assert_eq!(
            (outcome.winner, outcome.reason),
            (Some(winner), reason),
            "{moves:?}"
        );
    }
}

#[test]
fn the_report_trace_blocks_and_hands_the_win() {
    let start = game(Role::Dots);
    let trace = play(&start, &["0 2 A 1", "0 6 B 1", "0 1 A 3", "0 2 C 1"]);
    // Player 1 (dots) playing 0 2 D 1 would complete a red line: colors wins.
    let handed = play(&trace, &["0 2 D 1"]);
    assert_eq!(handed.outcome().map(|o| o.winner), Some(Some(Player::P2)));
    // 0 4 D 1 blocks (white hollow on D2).
    let blocked = play(&trace, &["0 4 D 1"]);
    assert_eq!(blocked.outcome(), None);
}

/// Plays placements that never make a line (checked), to reach the recycling phase.
fn filled(role: Role) -> DoubleCard {
    game(role).quiet_filling(24, 7)
}

#[test]
fn after_24_cards_only_recycling_moves_and_their_rules() {
    let state = filled(Role::Dots);
    assert_eq!(state.moves_played(), 24);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert!(!moves.is_empty() && moves.iter().all(|m| m.lift.is_some()));
    let reason = |s: &DoubleCard, t: &str| s.parse_move(t).expect_err(t).reason;
    assert!(reason(&state, "0 1 A 1").contains("every move recycles"));
    // The card just placed cannot be lifted by the opponent.
    let last = state.last.expect("a card was just placed");
    let (a, b) = state.card_cells(last);
    let lift_last = format!(
        "{} {} {} {} 1 A 1",
        &cell_name(a)[..1],
        &cell_name(a)[1..],
        &cell_name(b)[..1],
        &cell_name(b)[1..]
    );
    assert!(reason(&state, &lift_last).contains("just placed or moved"));
    // A covered card cannot be lifted.
    let covered = (0..state.placed)
        .find(|&i| i != last && !state.liftable(i))
        .expect("some card is covered");
    let (a, b) = state.card_cells(covered);
    let text = format!(
        "{} {} {} {} 1 A 12",
        &cell_name(a)[..1],
        &cell_name(a)[1..],
        &cell_name(b)[..1],
        &cell_name(b)[1..]
    );
    assert!(reason(&state, &text).contains("on top"));
    // Same anchor and type is rejected; a lifted card's move round-trips through notation.
    let mv = moves[0];
    let index = mv.lift.expect("recycling");
    let (anchor, card_type) = state.cards[usize::from(index)];
    let (a, b) = state.card_cells(index);
    let same = format!(
        "{} {} {} {} {card_type} {}",
        &cell_name(a)[..1],
        &cell_name(a)[1..],
        &cell_name(b)[..1],
        &cell_name(b)[1..],
        {
            let n = cell_name(anchor);
            format!("{} {}", &n[..1], &n[1..])
        }
    );
    assert!(reason(&state, &same).contains("same anchor and type"));
    assert_eq!(state.parse_move(&state.format_move(mv)), Ok(mv));
}

#[test]
fn move_60_without_a_winner_is_a_draw() {
    let mut state = filled(Role::Colors);
    state.params.move_limit = 26;
    let mut moves = Vec::new();
    for _ in 0..2 {
        state.legal_moves(&mut moves);
        let quiet = moves.iter().copied().find(|&m| {
            let mut next = state;
            next.apply(m);
            next.decided().is_none_or(|o| o.winner.is_none())
        });
        state.apply(quiet.expect("a quiet recycling move"));
    }
    assert_eq!(
        state.outcome().map(|o| (o.winner, o.reason)),
        Some((None, "move-limit"))
    );
    assert_eq!(Params::default().move_limit, 60);
}

#[test]
fn perft_matches_the_naive_generator_from_the_start_and_while_recycling() {
    let start = game(Role::Dots);
    let naive = Naive::new();
    for depth in 1..=3 {
        assert_eq!(perft(&start, depth), naive.perft(depth), "depth {depth}");
    }
    // From a recycling position: rebuild the naive grid from the same cards.
    let state = filled(Role::Dots);
    let mut naive = Naive::new();
    for i in 0..state.placed {
        let (anchor, t) = state.cards[usize::from(i)];
        let (r, c) = (usize::from(anchor) / 8, usize::from(anchor) % 8);
        let (a, b) = Naive::cells_of(t, r, c).expect("on board");
        naive.grid[a.0][a.1] = i + 1;
        naive.grid[b.0][b.1] = i + 1;
        naive.cards.push((t, a, b));
    }
    naive.last = state.last;
    for depth in 1..=2 {
        assert_eq!(
            perft(&state, depth),
            naive.perft(depth),
            "recycling depth {depth}"
        );
    }
}

#[test]
fn random_playouts_satisfy_the_game_properties() {
    testing::check_random_playouts(&game(Role::Dots), 20, 60);
}

#[test]
fn neighbours_only_keeps_placements_touching_a_card() {
    let params = Params {
        neighbours_only: true,
        ..Params::default()
    };
    let start = DoubleCard::new(params);
    assert_eq!(start.count_moves(), 60, "an empty board is unrestricted");
    let one = play(&start, &["0 1 A 1"]);
    let names = testing::move_names(&one);
    assert!(names.contains(&"0 2 C 1".to_string()), "C1 touches B1");
    assert!(names.contains(&"0 1 A 2".to_string()), "on top of the card");
    assert!(!names.contains(&"0 2 E 1".to_string()), "isolated");
    let all = play(&game(Role::Dots), &["0 1 A 1"]);
    assert!(one.count_moves() < all.count_moves());
    assert_eq!(
        params.to_string(),
        "p1=dots,cards=24,moves=60,neighbours_only=1"
    );
}

#[test]
fn the_json_position_shows_each_card_and_its_cells() {
    let mut state = DoubleCard::new(Params::default());
    state.apply(state.parse_move("0 1 A 1").expect("legal"));
    let json = state.position_json();
    assert_eq!(json["to_move"], "P2");
    assert_eq!(json["moves"], 1);
    assert_eq!(json["cards"][0]["type"], 1);
    let cells = json["cards"][0]["cells"].as_array().expect("cells");
    assert!(cells.contains(&"A1".into()), "{json}");
    assert_eq!(json["board"][0][0].as_str().map(str::len), Some(2));
    assert_eq!(json["board"][0][7], "");
    assert_eq!(json["board"].as_array().map(Vec::len), Some(12));
    assert_eq!(json["roles"]["P1"], "dots");
    assert_eq!(json["rules"]["cards"], 24);
    assert_eq!(json["rules"]["moves"], 60);
}
