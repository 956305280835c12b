//! Oracle sets: positions whose exact values were published, solved by arbiter's solver
//! and compared. Connect Four: John Tromp's 8-ply positions (the UCI Connect-4 data set,
//! `tests/oracles/connect-four-8ply.txt`). The FFO Othello endgames are in `cli.rs` (they
//! go through `solve-game` itself).

use std::collections::HashSet;
use std::path::Path;

use arbiter::core::{Game, Limits};
use arbiter::games::connect_four::{ConnectFour, Params, threats};
use arbiter::search::solve::{Solver, Value};

/// Tromp's set: 67,557 positions, of which the first player wins 44,473, loses 16,635 and
/// draws 6,449 (the UCI data set's published class counts).
const POSITIONS: usize = 67_557;

/// One line of the set: the position and the first player's value.
struct Oracle {
    line: usize,
    moves: String,
    state: ConnectFour,
    value: Value,
}

fn oracle_set() -> Vec<Oracle> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/connect-four-8ply.txt");
    let text = std::fs::read_to_string(&path).expect("tests/oracles/connect-four-8ply.txt");
    let mut set = Vec::with_capacity(POSITIONS);
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let at = format!("{}:{}", path.display(), index + 1);
        let (moves, value) = line
            .split_once(' ')
            .unwrap_or_else(|| panic!("{at}: {line}"));
        let state = ConnectFour::from_moves(Params::default(), moves)
            .unwrap_or_else(|e| panic!("{at}: {moves}: {e}"));
        let value = match value {
            "win" => Value::Win(None),
            "loss" => Value::Loss(None),
            "draw" => Value::Draw,
            other => panic!("{at}: value '{other}'"),
        };
        set.push(Oracle {
            line: index + 1,
            moves: moves.to_string(),
            state,
            value,
        });
    }
    set
}

/// Whether the side to move has a win at once or must block one: the positions Tromp's
/// set leaves out.
fn forced(state: &ConnectFour) -> bool {
    let geometry = state.params().geometry();
    let playable = state.playable();
    let all = state.occupied();
    let [mover, other] = [state.to_move(), state.to_move().opponent()];
    threats(state.discs(mover), all, geometry) & playable != 0
        || threats(state.discs(other), all, geometry) & playable != 0
}

/// Every position `plies` into a 6x7 game that is not over, each once.
fn positions_at(plies: u8) -> Vec<ConnectFour> {
    let mut level = vec![ConnectFour::new(Params::default())];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for state in &level {
            state.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = *state;
                child.apply(mv);
                if child.outcome().is_none() && seen.insert(child) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    level
}

/// The set is the one Tromp describes, by arbiter's own rules: every position 8 plies in
/// with nobody's four in a row and no immediate win or forced block for the side to move,
/// one of each mirror pair (by the solver's symmetric key), and the file lists exactly
/// those, each once, with the published counts of each value.
#[test]
fn tromps_8_ply_set_is_every_unforced_8_ply_position_once_with_the_published_counts() {
    let set = oracle_set();
    assert_eq!(set.len(), POSITIONS);
    let count = |value: Value| set.iter().filter(|o| o.value == value).count();
    assert_eq!(
        [
            count(Value::Win(None)),
            count(Value::Loss(None)),
            count(Value::Draw)
        ],
        [44_473, 16_635, 6_449]
    );
    let mut listed = HashSet::new();
    for oracle in &set {
        assert_eq!(oracle.state.plies(), 8, "line {}", oracle.line);
        assert!(
            !forced(&oracle.state),
            "line {}: {} is forced",
            oracle.line,
            oracle.moves
        );
        let (key, _) = oracle.state.symmetric_hash();
        assert!(
            listed.insert(key),
            "line {}: {} or its mirror listed twice",
            oracle.line,
            oracle.moves
        );
    }
    let all = positions_at(8);
    assert_eq!(all.len(), 182_383, "positions 8 plies in, not over");
    let unforced: Vec<&ConnectFour> = all.iter().filter(|s| !forced(s)).collect();
    assert_eq!(unforced.len(), 134_934);
    let keys: HashSet<u64> = unforced.iter().map(|s| s.symmetric_hash().0).collect();
    assert_eq!(keys, listed, "the file's positions against the enumeration");
}

/// Solves the positions `pick` selects with one solver (its table kept from position to
/// position, as a book builder would) and checks each value against the set. The table
/// takes at most 64 MB, or `ARBITER_ORACLE_MB` (169 neighbouring positions: 20.6 s with
/// 64 MB, 24.6 s with 1,024).
fn solve_oracles(pick: impl Fn(usize) -> bool) -> usize {
    let megabytes = std::env::var("ARBITER_ORACLE_MB")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(64);
    let mut solver: Solver<ConnectFour> = Solver::new(megabytes, Limits::NONE).value_only();
    let mut solved = 0;
    for (index, oracle) in oracle_set().iter().enumerate().filter(|(i, _)| pick(*i)) {
        let found = solver.solve(&oracle.state).expect("no limit").value;
        assert_eq!(
            found, oracle.value,
            "tests/oracles/connect-four-8ply.txt:{}: {} (position {index})",
            oracle.line, oracle.moves
        );
        solved += 1;
        if solved % 100 == 0 {
            eprintln!(
                "tromp 8-ply: {solved} solved, to position {index}, {} positions visited",
                solver.visited()
            );
        }
    }
    solved
}

/// A spread of the set on every run of the tests: every 4,000th position (17: 11 won, 4
/// lost, 2 drawn), about 26 s of one core (the test command's 15 minutes leave no more).
#[test]
fn tromps_8_ply_positions_every_4000th_solved_equal_to_the_published_values() {
    assert_eq!(solve_oracles(|i| i % 4000 == 0), 17);
}

/// The whole set, every position solved, in the file's order: neighbours share most of
/// their moves, so the table kept from one to the next holds much of the next one's tree
/// (0.27 s of one core a position from index 33779 to 50668, about 0.6 s among the
/// file's first 8,000, where the first moves are in columns 1 and 2; every 40th position,
/// far apart, took 0.8 s each). Two settings split the set across cores or machines:
/// `ARBITER_ORACLE_RANGE=A..B` solves the positions whose index is in A..B, and
/// `ARBITER_ORACLE_PART=K/N` those whose index leaves K when divided by N (`K,L,M/N`: any of
/// them); progress on stderr with `--nocapture`:
/// `ARBITER_ORACLE_RANGE=0..33779 cargo test --release --test suite tromps -- --ignored --nocapture`.
/// All 67,557 were solved so by 1 December 2026, in stretches, every value equal
/// (docs/speed.md).
#[test]
#[ignore = "hours of one core: cargo test --release --test suite tromps -- --ignored"]
fn tromps_8_ply_positions_all_solved_equal_to_the_published_values() {
    let (residues, parts) = match std::env::var("ARBITER_ORACLE_PART") {
        Ok(text) => parse_part(&text).unwrap_or_else(|| {
            panic!(
                "ARBITER_ORACLE_PART={text}: give K/N or K,L,M/N, whole numbers each below N (0/40)"
            )
        }),
        Err(_) => (vec![0], 1),
    };
    let range = match std::env::var("ARBITER_ORACLE_RANGE") {
        Ok(text) => text
            .split_once("..")
            .and_then(|(a, b)| Some(a.parse::<usize>().ok()?..b.parse::<usize>().ok()?))
            .filter(|r| r.start < r.end)
            .unwrap_or_else(|| {
                panic!("ARBITER_ORACLE_RANGE={text}: give A..B, whole numbers with A below B")
            }),
        Err(_) => 0..POSITIONS,
    };
    let pick = |i: usize| residues.contains(&(i % parts)) && range.contains(&i);
    let expected = (0..POSITIONS).filter(|&i| pick(i)).count();
    assert_eq!(solve_oracles(pick), expected);
}

/// `K/N` or `K,L,M/N`: the residues, each below N, and N.
fn parse_part(text: &str) -> Option<(Vec<usize>, usize)> {
    let (residues, parts) = text.split_once('/')?;
    let parts: usize = parts.trim().parse().ok().filter(|&n| n > 0)?;
    let residues = residues
        .split(',')
        .map(|k| k.trim().parse::<usize>().ok().filter(|&k| k < parts))
        .collect::<Option<Vec<usize>>>()?;
    Some((residues, parts))
}

#[test]
fn an_oracle_part_is_read_as_residues_of_a_modulus() {
    assert_eq!(parse_part("3/40"), Some((vec![3], 40)));
    assert_eq!(parse_part("3,4, 6/40"), Some((vec![3, 4, 6], 40)));
    assert_eq!(parse_part("40/40"), None);
    assert_eq!(parse_part("1/0"), None);
    assert_eq!(parse_part("1,x/4"), None);
    assert_eq!(parse_part("3"), None);
}
