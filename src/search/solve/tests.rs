use super::*;
use crate::games::connect_four::{ConnectFour, Params};

/// The exact value by plain minimax with the same scoring, no table, no pruning.
fn plain<G: Game>(state: &G, ply: i32) -> i32 {
    if let Some(outcome) = state.outcome() {
        return match outcome.winner {
            None => 0,
            Some(w) if w == state.to_move() => WIN - ply,
            Some(_) => -(WIN - ply),
        };
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = state.clone();
            child.apply(m);
            -plain(&child, ply + 1)
        })
        .max()
        .expect("moves")
}

#[test]
fn the_solver_equals_plain_minimax_on_late_positions() {
    let params = Params {
        rows: 4,
        columns: 4,
    };
    let start = ConnectFour::new(params);
    let positions = crate::games::random_positions(&start, 60, 7, 11, 3);
    for state in &positions {
        let solved = solve(state, 1, Limits::NONE).expect("no limit");
        let score = plain(state, 0);
        let expected = score_value(score);
        assert_eq!(solved.value, expected, "{}", state.board_dump());
        // The value alone agrees, distance aside.
        let alone = Solver::new(1, Limits::NONE)
            .value_only()
            .solve(state)
            .expect("no limit");
        let sign = |v: Value| v.rank().signum();
        assert_eq!(sign(alone.value), sign(expected), "{}", state.board_dump());
        assert!(matches!(
            alone.value,
            Value::Win(None) | Value::Loss(None) | Value::Draw
        ));
        // Its move keeps the value: the child is worth the opposite to the opponent.
        let mut child = *state;
        child.apply(alone.best.expect("a position in play has a move"));
        let after = score_value(-plain(&child, 1));
        assert_eq!(sign(after), sign(expected), "{}", state.board_dump());
    }
}

#[test]
fn a_position_is_worth_its_best_move_one_ply_further() {
    let start = ConnectFour::new(Params {
        rows: 4,
        columns: 5,
    });
    let positions = crate::games::random_positions(&start, 20, 8, 12, 5);
    let mut solver = Solver::new(8, Limits::NONE);
    for state in &positions {
        let whole = solver.solve(state).expect("no limit");
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&m| {
                let mut child = *state;
                child.apply(m);
                solver.solve(&child).expect("no limit").value.before_move()
            })
            .max_by_key(|v| v.rank())
            .expect("moves");
        assert_eq!(whole.value, best, "{}", state.board_dump());
        // The move the solver names is worth the position's value.
        let mv = whole.best.expect("a move");
        let mut child = *state;
        child.apply(mv);
        assert_eq!(
            solver.solve(&child).expect("no limit").value.before_move(),
            whole.value
        );
    }
}

#[test]
fn a_pair_keeps_the_entry_of_most_work_and_the_latest_other() {
    let mut solver = Solver::<ConnectFour>::new(1, Limits::NONE);
    let size = solver.table_entries() as u64;
    let entry = |key: u64, work: u8| Entry {
        key,
        score: i32::from(work),
        bound: Bound::Exact,
        work,
        best: None,
    };
    // Four positions whose keys share pair 2.
    let [a, b, c, d] = [2, 3, 2 + size, 3 + size];
    let held = |solver: &Solver<ConnectFour>| -> Vec<Option<(u64, u8)>> {
        [2, 3]
            .map(|slot| solver.table[slot].map(|e| (e.key, e.work)))
            .to_vec()
    };
    solver.store(entry(a, 10));
    solver.store(entry(b, 2));
    assert_eq!(held(&solver), [Some((a, 10)), Some((b, 2))]);
    // Less work than the first: the second slot is replaced.
    solver.store(entry(c, 3));
    assert_eq!(held(&solver), [Some((a, 10)), Some((c, 3))]);
    assert!(solver.probe(b).is_none());
    // More work: the first slot's entry moves to the second.
    solver.store(entry(d, 12));
    assert_eq!(held(&solver), [Some((d, 12)), Some((a, 10))]);
    // A position searched again overwrites its own entry, keeping the most work.
    solver.store(entry(a, 1));
    assert_eq!(held(&solver), [Some((d, 12)), Some((a, 10))]);
    solver.store(entry(d, 4));
    assert_eq!(held(&solver), [Some((d, 12)), Some((a, 10))]);
    assert_eq!(solver.probe(d).map(|e| e.score), Some(4));
    assert_eq!(solver.probe(a).map(|e| e.score), Some(1));
}

#[test]
fn the_table_grows_as_it_fills_up_to_its_allowance_and_the_values_stay() {
    let small = ConnectFour::new(Params {
        rows: 4,
        columns: 5,
    });
    let start = ConnectFour::new(Params {
        rows: 5,
        columns: 5,
    });
    // A quick solve keeps its first table; a long one doubles it, at most to its
    // allowance; every size proves the known value (5x5 is a draw).
    let late = crate::games::random_positions(&small, 1, 12, 13, 9);
    let mut quick = Solver::<ConnectFour>::new(256, Limits::NONE);
    quick.solve(&late[0]).expect("no limit");
    assert_eq!(quick.table_entries(), FIRST_ENTRIES);
    let entry = std::mem::size_of::<Option<Entry<u8>>>();
    for megabytes in [1, 4, 256] {
        let mut solver = Solver::<ConnectFour>::new(megabytes, Limits::NONE);
        let largest = solver.largest;
        let solved = solver.solve(&start).expect("no limit");
        assert_eq!(solved.value, Value::Draw, "5x5 Connect Four is a draw");
        let entries = solver.table_entries();
        assert!(entries <= largest && largest * entry <= megabytes << 20);
        assert!(solver.taken <= entries);
        if largest > FIRST_ENTRIES {
            // Grown, and only as far as it filled.
            assert!(entries > FIRST_ENTRIES, "{entries}");
            assert!(solver.taken * 4 > entries, "{} of {entries}", solver.taken);
        } else {
            assert_eq!(entries, largest);
        }
    }
}

#[test]
fn a_win_in_one_is_found_and_played() {
    // P1 holds columns 1-3 of the bottom row, P2 sits on them: P1 wins by playing 4.
    let state = ConnectFour::from_moves(Params::default(), "112233").expect("legal");
    let solved = solve(&state, 4, Limits::NONE).expect("no limit");
    assert_eq!(solved.value, Value::Win(Some(1)));
    assert_eq!(solved.best.map(|m| state.format_move(m)), Some("4".into()));
}
