//! Tuning runs end to end: a real SPSA run moves its parameters and ends stronger than its
//! start; its files do not depend on the thread count or on being stopped and resumed;
//! bad tuning files and options are refused with one line.

use crate::common;

use crate::common::*;
use std::fs;
use std::path::Path;

/// Forty iterations from weights that lose every game (pieces only, advancing penalised),
/// checkpoints against report 001's offense at depth 1, and a verification match.
const TUNE: &str = r#"
kind = "tune"
game = "breakthrough"
seed = 11
agent = "alphabeta(heuristic=linear,depth=1)"
iterations = 40
pairs = 2
openings = { random_plies = 2 }
checkpoints = 1
checkpoint_games = 20
yardstick = "alphabeta(heuristic=offense,depth=1)"
verify = { elo0 = 0, elo1 = 50, max_games = 200 }

[[param]]
name = "opp_pieces"
start = 0
min = -40
max = 40
step = 4

[[param]]
name = "own_advance_sum"
start = -2
min = -10
max = 10
step = 1
"#;

/// The files of a tuning run that must not depend on threads or interruptions.
const RECORDS: [&str; 2] = ["tune.csv", "tune_games.csv"];

fn tune(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let experiment = write_experiment(dir, "tune.toml", TUNE);
    run_experiment(&experiment, &dir.join(out), extra)
}

#[test]
fn a_tuning_run_moves_its_parameters_and_beats_its_start() {
    let dir = tempfile::tempdir().expect("dir");
    let output = tune(dir.path(), "two", &["--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = dir.path().join("two");
    let (header, rows) = read_csv(&run.join("tune.csv"));
    assert_eq!(
        header,
        [
            "iteration",
            "games",
            "result",
            "opp_pieces",
            "own_advance_sum"
        ]
    );
    // The values at the start of every iteration, then the final ones.
    assert_eq!(rows.len(), 41);
    assert_eq!(rows[0][3..], ["0.0000", "-2.0000"]);
    assert!(rows[..40].iter().all(|r| r[1] == "4"));
    assert_eq!(rows[40][2], "");
    // Capturing pays: the opponent's pieces count against it once tuned.
    let last: f64 = rows[40][3].parse().expect("number");
    assert!(last < -2.0, "opp_pieces ended at {last}");
    // Each iteration's step follows its result: no result, no move.
    for pair in rows.windows(2) {
        if pair[0][2] == "0" {
            assert_eq!(pair[0][3..], pair[1][3..], "iteration {}", pair[0][0]);
        }
    }
    let (games_header, games) = read_csv(&run.join("tune_games.csv"));
    let stage = games_header
        .iter()
        .position(|h| h == "stage")
        .expect("stage");
    let count = |s: &str| games.iter().filter(|g| g[stage] == s).count();
    assert_eq!(count("iteration"), 160);
    // Checkpoints at the start, the middle and the end against the yardstick.
    assert_eq!(count("checkpoint"), 60);
    let verify = count("verify");
    assert!(
        (2..200).contains(&verify),
        "the SPRT ends it early: {verify}"
    );
    let show = stdout(&common::run(&["show", text(&run)]));
    assert!(show.contains("H1 (LLR"), "{show}");
    assert!(show.contains("opp_pieces"), "{show}");
    for file in [
        "tune_parameters.png",
        "tune_elo.png",
        "report.md",
        "index.html",
    ] {
        assert!(run.join(file).is_file(), "{file}");
    }
    let report = fs::read_to_string(run.join("report.md")).expect("report");
    assert!(report.contains("Strength: checkpoints and verification"));
    // One thread gives the same files.
    let output = tune(dir.path(), "one", &["--threads", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in RECORDS {
        assert_same_csv(&run.join(file), &dir.path().join("one").join(file), file);
    }
}

#[test]
fn a_stopped_tuning_run_resumes_to_the_same_files() {
    let dir = tempfile::tempdir().expect("dir");
    let whole = tune(dir.path(), "whole", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let output = tune(dir.path(), "parts", &["--max-games", "37"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let parts = dir.path().join("parts");
    // Stopped inside iteration 4: its rows are the complete iterations'.
    let (_, rows) = read_csv(&parts.join("tune.csv"));
    assert!(rows.len() < 41 && !rows.is_empty(), "{} rows", rows.len());
    for _ in 0..3 {
        let output = common::run(&[
            "run",
            "--resume",
            text(&parts),
            "--quiet",
            "--max-games",
            "50",
        ]);
        assert!(
            matches!(output.status.code(), Some(0 | 4)),
            "{}",
            stderr(&output)
        );
    }
    let output = common::run(&["run", "--resume", text(&parts), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in RECORDS {
        assert_same_csv(
            &dir.path().join("whole").join(file),
            &parts.join(file),
            file,
        );
    }
}

#[test]
fn the_versions_can_play_the_current_values() {
    // Against "current", each nudged version plays the values of the iteration's start
    // (the current best) on the same seeds, colours swapped.
    let source = TUNE
        .replace(
            "iterations = 40",
            "opponents = [\"current\"]\niterations = 10",
        )
        .replace("checkpoints = 1", "checkpoints = 0");
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "current.toml", &source);
    for (out, threads) in [("two", "2"), ("one", "1")] {
        let output = run_experiment(&experiment, &dir.path().join(out), &["--threads", threads]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let run = dir.path().join("two");
    let (_, rows) = read_csv(&run.join("tune.csv"));
    assert_eq!(rows.len(), 11);
    // Two versions, each two colour-swapped pairs against the current values.
    assert!(rows[..10].iter().all(|r| r[1] == "8"), "{rows:?}");
    let (header, games) = read_csv(&run.join("tune_games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect("column");
    let (stage, iteration, first, second, seed) = (
        column("stage"),
        column("iteration"),
        column("first"),
        column("second"),
        column("seed"),
    );
    let first_iteration: Vec<&Vec<String>> = games
        .iter()
        .filter(|g| g[stage] == "iteration" && g[iteration] == "0")
        .collect();
    assert_eq!(first_iteration.len(), 8);
    assert!(first_iteration.iter().all(|g| g[second] == "current"));
    let seeds_of = |version: &str| -> Vec<&String> {
        first_iteration
            .iter()
            .filter(|g| g[first] == version)
            .map(|g| &g[seed])
            .collect()
    };
    assert_eq!(seeds_of("plus").len(), 4);
    assert_eq!(
        seeds_of("plus"),
        seeds_of("minus"),
        "paired on the same seeds"
    );
    // A result that is not 0 moves the values.
    let moved = rows
        .windows(2)
        .any(|pair| pair[0][2] != "0" && pair[0][3..] != pair[1][3..]);
    assert!(moved, "{rows:?}");
    for file in RECORDS {
        assert_same_csv(&run.join(file), &dir.path().join("one").join(file), file);
    }
}

#[test]
fn bad_tuning_files_and_options_are_refused_with_one_line() {
    let dir = tempfile::tempdir().expect("dir");
    let bad = |name: &str, source: &str, fragments: &[&str]| {
        let path = write_experiment(dir.path(), name, source);
        let out = dir.path().join(format!("{name}-out"));
        let output = common::run(&["run", text(&path), "--out", text(&out)]);
        assert_input_error(&output, fragments);
        assert!(!out.exists(), "nothing is written for {name}");
    };
    bad(
        "typo.toml",
        &TUNE.replace("\"opp_pieces\"", "\"opp_piece\""),
        &["typo.toml: line 15: param 'opp_piece' = 0", "opp_piece"],
    );
    bad(
        "range.toml",
        &TUNE.replace("start = -2", "start = -20"),
        &[
            "range.toml: line 22",
            "start (-20) must be within min (-10) and max (10)",
        ],
    );
    bad(
        "sprt.toml",
        &TUNE.replace("elo0 = 0, elo1 = 50", "elo0 = 50, elo1 = 0"),
        &["sprt.toml: line 12", "elo0 (50) must be below elo1 (0)"],
    );
    bad(
        "depth.toml",
        &TUNE.replace("\"own_advance_sum\"\nstart = -2", "\"depth\"\nstart = 1"),
        &["depth.toml: line 22: param 'depth' = -10"],
    );
    bad(
        "twice.toml",
        &TUNE.replace(
            "iterations = 40",
            "opponents = [\"current\", \"current\"]\niterations = 40",
        ),
        &["twice.toml: line 6", "opponents: 'current' is given twice"],
    );
    let experiment = write_experiment(dir.path(), "tune.toml", TUNE);
    let output = common::run(&["run", text(&experiment), "--shard", "0/2"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("--shard does not apply"),
        "{}",
        stderr(&output)
    );
    let output = common::run(&["emit", "slurm", text(&experiment), "--shards", "2"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("runs on one machine"),
        "{}",
        stderr(&output)
    );
    let output = common::run(&["run", text(&experiment), "--games", "10"]);
    assert!(
        stderr(&output).contains("--games does not apply"),
        "{}",
        stderr(&output)
    );
}
