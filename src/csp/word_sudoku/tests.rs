use super::*;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("matchups/puzzles/word-sudoku")
        .join(name)
}

fn input(n: u32) -> Puzzle {
    Puzzle::read(
        &data(&format!("grid{n}.txt")),
        &data(&format!("bank{n}.txt")),
    )
    .expect("readable")
}

fn reference(n: u32) -> [u8; 81] {
    let text = std::fs::read_to_string(data(&format!("solutions/grid{n}_solution.txt")))
        .expect("solution");
    let letters: Vec<u8> = text
        .lines()
        .take(9)
        .flat_map(|l| l.trim().bytes())
        .collect();
    letters.try_into().expect("81 letters")
}

#[test]
fn inputs_read_and_reference_solutions_check() {
    for (n, words, hints) in [(1, 19, 6), (2, 19, 0), (3, 22, 7)] {
        let puzzle = input(n);
        assert_eq!(puzzle.words.len(), words);
        assert_eq!(puzzle.hints.iter().filter(|&&h| h != 0).count(), hints);
        assert_eq!(puzzle.check(&reference(n), n == 3), Ok(()), "input {n}");
    }
}

#[test]
fn broken_inputs_are_named() {
    let grid = "_________\n".repeat(9);
    let err = |g: &str, b: &str| {
        Puzzle::parse("g.txt", g, "b.txt", b)
            .expect_err("broken")
            .to_string()
    };
    assert_eq!(err("", "abc"), "g.txt: empty file: no grid");
    assert!(err(&grid, "").contains("b.txt: empty bank"));
    assert!(
        err(&grid, "abc\nabcdefghij\n").starts_with("b.txt: line 2: 'abcdefghij' has 10 letters")
    );
    assert!(err(&grid, "ab-c\n").starts_with("b.txt: line 1: 'ab-c' is not a word"));
    assert!(err("___\n", "abc").contains("1 rows"));
    assert!(err(&"________\n".repeat(9), "abc").starts_with("g.txt: line 1: 8 cells"));
}

#[test]
fn the_checker_rejects_a_repeated_letter_and_a_missing_word() {
    let puzzle = input(2);
    let mut grid = reference(2);
    assert_eq!(puzzle.check(&grid, false), Ok(()));
    grid[1] = grid[0];
    assert!(
        puzzle
            .check(&grid, false)
            .expect_err("clash")
            .contains("twice")
    );
    let mut bank = puzzle.clone();
    bank.words.push(b"ZZZ".to_vec());
    assert!(
        bank.check(&reference(2), false)
            .expect_err("missing")
            .contains("ZZZ does not read")
    );
}

#[test]
fn the_heuristic_solver_solves_inputs_1_and_2() {
    for n in [1, 2] {
        let puzzle = input(n);
        let (status, solution, stats) = solve(
            &puzzle,
            Solver::Heuristic,
            Limits {
                max_nodes: Some(2_000_000),
                max_time: None,
                stop: None,
            },
        );
        assert_eq!(status.label(), "solved", "input {n}: {stats:?}");
        let solution = solution.expect("solution");
        assert_eq!(puzzle.check(&solution.grid, false), Ok(()));
        let text = solution.render(&puzzle);
        assert!(
            text.lines()
                .nth(9)
                .is_some_and(|l| l.starts_with('H') || l.starts_with('V')),
            "{text}"
        );
    }
}

#[test]
fn fewest_words_on_the_decoy_input_finds_a_valid_grid() {
    let puzzle = input(3);
    let (status, best, stats) = solve_fewest_words(
        &puzzle,
        Limits {
            max_nodes: Some(200_000),
            max_time: None,
            stop: None,
        },
    );
    let best = best.expect("a solution within the node limit");
    assert_eq!(puzzle.check(&best.grid, true), Ok(()));
    assert!(best.placed.len() <= 22);
    assert!(matches!(status.label(), "solved" | "limit"), "{stats:?}");
}
