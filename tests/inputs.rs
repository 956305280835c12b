//! Numbers and names at their limits: every bad one gets one line naming the flag or the
//! file and line, exit code 2 and nothing written; huge plans cost nothing up front; big
//! puzzle grids do not overflow a solver's stack.

use crate::common::*;
use std::fs;
use std::path::Path;

const GAMES: &str = "game = \"breakthrough\"\nseed = 1\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n";

#[test]
fn huge_game_counts_are_planned_lazily() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "games.toml", GAMES);
    // More than an experiment file may ask for is refused, not saturated.
    for games in ["18446744073709551615", "9223372036854775808", "10000001"] {
        let out = dir.path().join(games);
        let output = run(&[
            "run",
            text(&experiment),
            "--games",
            games,
            "--out",
            text(&out),
        ]);
        assert_input_error(
            &output,
            &[&format!(
                "'{games}' is not a number of games from 1 to 10000000"
            )],
        );
        assert!(!out.exists());
    }
    // The most it may ask for is planned lazily: 3 games of ten million.
    let out = dir.path().join("most");
    let output = run(&[
        "run",
        text(&experiment),
        "--games",
        "10000000",
        "--max-games",
        "3",
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let (_, rows) = read_csv(&out.join("games.csv"));
    assert_eq!(rows.len(), 3);
    // Ten agents in a round robin, ten million games per matchup.
    let agents: Vec<String> = (1..=10)
        .map(|d| format!("\"greedy(heuristic=offensive2,almost_win={d})\""))
        .collect();
    let big = write_experiment(
        dir.path(),
        "big.toml",
        &format!(
            "game = \"breakthrough\"\ngames = 10000000\nround_robin = [{}]\n",
            agents.join(", ")
        ),
    );
    let out = dir.path().join("big");
    let output = run(&[
        "run",
        text(&big),
        "--max-games",
        "4",
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    // Matchups without a game are shown as not played, not as 0% / +0 Elo; the summary
    // says the run is partial, and summary.csv leaves their rates empty (NaN).
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["status"], "partial");
    let shown = run(&["show", text(&out)]);
    let shown = String::from_utf8_lossy(&shown.stdout).into_owned();
    assert!(shown.contains("4 of 450000000 games"), "{shown}");
    assert!(shown.contains(", partial\n"), "{shown}");
    assert!(
        shown.contains("Partial: 4 of 450000000 games played"),
        "{shown}"
    );
    assert_eq!(shown.matches(": not played\n").count(), 44, "{shown}");
    assert!(!shown.contains("0.0% (0.0-100.0)"), "{shown}");
    let (header, rows) = read_csv(&out.join("summary.csv"));
    let rate = header
        .iter()
        .position(|h| h == "win_rate")
        .expect("win_rate");
    let games = header.iter().position(|h| h == "games").expect("games");
    for row in &rows {
        assert_eq!(row[rate] == "NaN", row[games] == "0", "{row:?}");
    }
}

#[test]
fn bad_numbers_are_one_line_naming_the_flag_or_line_and_write_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "games.toml", GAMES);
    let out = dir.path().join("never");
    let flags: [(&[&str], &str); 5] = [
        (&["--time-limit", "1e300"], "--time-limit 1e300"),
        (&["--time-limit", "1e19"], "--time-limit 1e19"),
        (&["--time-limit", "NaN"], "--time-limit NaN"),
        (
            &["--threads", "100000"],
            "--threads 100000: use at most 1024",
        ),
        (
            &["--games", "0"],
            "'0' is not a number of games from 1 to 10000000",
        ),
    ];
    for (flag, message) in flags {
        let mut args = vec!["run", text(&experiment), "--out", text(&out)];
        args.extend_from_slice(flag);
        assert_input_error(&run(&args), &[message]);
        assert!(!out.exists(), "{flag:?} wrote {}", out.display());
    }
    let puzzle = dir.path().join("p.txt");
    fs::write(&puzzle, "a_b\n___\na_b\n").expect("puzzle");
    assert_input_error(
        &run(&["solve", text(&puzzle), "--time-limit", "1e300"]),
        &["--time-limit 1e300: give a positive number of seconds, at most 1000000000"],
    );

    let files = [
        (
            "game = \"breakthrough\"\nmove_time_ms = 18446744073710\nmatchups = [[\"random\", \"random\"]]\n",
            "line 2: move_time_ms = 18446744073710: give a whole number of milliseconds from 1 to 1000000000000",
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"alphabeta(heuristic=offense,time_ms=99999999999999999999)\"]]\n",
            "time_ms '99999999999999999999' must be a whole number of milliseconds from 1 to 1000000000000",
        ),
        (
            "kind = \"puzzles\"\nsolvers = [\"sat\"]\npuzzles = [\"p.txt\"]\ntime_limit = 1e300\n",
            "line 4: time_limit = 1e300: give a positive number of seconds",
        ),
    ];
    for (text_of_file, message) in files {
        let file = write_experiment(dir.path(), "bad.toml", text_of_file);
        assert_input_error(
            &run(&["run", text(&file), "--out", text(&out)]),
            &["bad.toml", message],
        );
        assert!(!out.exists());
    }
}

#[test]
fn a_resume_of_a_folder_that_is_no_run_says_so_and_leaves_nothing_in_it() {
    let dir = tempfile::tempdir().expect("dir");
    assert_input_error(
        &run(&["run", "--resume", text(dir.path())]),
        &["meta.json: cannot read: not a run folder (no meta.json)"],
    );
    let left: Vec<_> = fs::read_dir(dir.path()).expect("read").collect();
    assert!(left.is_empty(), "left {left:?}");
}

#[test]
fn names_cannot_leave_the_results_folder() {
    let dir = tempfile::tempdir().expect("dir");
    fs::write(dir.path().join("p.txt"), "a_b\n___\na_b\n").expect("puzzle");
    let kinds = [
        "game = \"breakthrough\"\nmatchups = [[\"random\", \"random\"]]\n",
        "kind = \"puzzles\"\nsolvers = [\"sat\"]\npuzzles = [\"p.txt\"]\n",
        "kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offensive2\"\npositions = 2\nalgorithms = [\"minimax\"]\ndepths = [1]\n",
    ];
    for body in kinds {
        for name in ["../escape", "/absolute", "..", "a/b", ".hidden", ""] {
            let file = write_experiment(
                dir.path(),
                "named.toml",
                &format!("name = \"{name}\"\n{body}"),
            );
            assert_input_error(
                &run(&["run", text(&file)]),
                &[
                    "named.toml: line 1",
                    &format!("name '{name}' must be letters"),
                ],
            );
        }
    }
    assert!(!Path::new("/absolute").exists());
}

#[test]
fn usage_errors_are_one_line_too() {
    assert_input_error(
        &run(&["run", "--bogus"]),
        &["unexpected argument '--bogus'", "--help"],
    );
    assert_input_error(&run(&["show"]), &["<RESULTS_DIR>", "--help"]);
    assert_input_error(&run(&["run", "--threads", "x"]), &["invalid value 'x'"]);
    assert_input_error(&run(&["nosuch"]), &["unrecognized subcommand 'nosuch'"]);
    let help = run(&["run", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("--resume"));
}

#[test]
fn big_flow_grids_run_on_a_stack_that_holds_them_and_bigger_ones_are_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let grid = |n: usize| -> String {
        let mut rows = vec![vec!['_'; n]; n];
        rows[0][0] = 'a';
        rows[n - 1][0] = 'a';
        rows[0][1] = 'b';
        rows[n - 1][n - 1] = 'b';
        rows.iter()
            .map(|r| r.iter().collect::<String>() + "\n")
            .collect()
    };
    fs::write(dir.path().join("g100.txt"), grid(100)).expect("grid");
    fs::write(dir.path().join("g101.txt"), grid(101)).expect("grid");
    // Row-major brute force and forward checking recurse once per cell: 60,000 nodes
    // reach thousands of frames deep (this aborted on a worker thread's default stack).
    let experiment = write_experiment(
        dir.path(),
        "big.toml",
        "kind = \"puzzles\"\nsolvers = [\"brute\", \"smart-fc\"]\npuzzles = [\"g100.txt\"]\nmax_nodes = 60000\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (header, rows) = read_csv(&out.join("solves.csv"));
    let status = header.iter().position(|h| h == "status").expect("status");
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|r| r[status] == "limit"), "{rows:?}");

    let too_big = dir.path().join("g101.txt");
    assert_input_error(
        &run(&["solve", text(&too_big)]),
        &[
            "g101.txt",
            "a 101 x 101 grid: at most 100 x 100 is supported",
        ],
    );
    let experiment = write_experiment(
        dir.path(),
        "bigger.toml",
        "kind = \"puzzles\"\nsolvers = [\"sat\"]\npuzzles = [\"g101.txt\"]\n",
    );
    assert_input_error(
        &run(&["run", text(&experiment)]),
        &["g101.txt", "at most 100 x 100"],
    );
}
