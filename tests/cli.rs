//! End-to-end tests of the `arbiter` binary: files written, determinism across thread
//! counts, replay of recorded games, and one clear error line with exit code 2 for each
//! kind of bad input.

use crate::common;

use crate::common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const SMALL: &str = r#"
description = "test"
game = "breakthrough(rules=long)"
games = 6
seed = 42
matchups = [["greedy(heuristic=offensive2)", "ab3-defense"]]
round_robin = ["random", "minimax(heuristic=defensive2,depth=2)", "alphabeta(heuristic=offense,depth=2)"]
"#;

/// Replays every game of a run's games.csv (opening and moves) with `arbiter replay GAME`
/// and checks that each ends with its recorded result.
fn assert_games_replay(run_dir: &Path, game: &str) {
    let (header, games) = read_csv(&run_dir.join("games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let moves = run_dir.join("replay-moves.txt");
    for record in &games {
        let opening = &record[column("opening")];
        let all = if opening.is_empty() {
            record[column("moves")].clone()
        } else {
            format!("{opening};{}", record[column("moves")])
        };
        fs::write(&moves, all).expect("write");
        let replayed = run(&["replay", game, moves.to_str().expect("utf8")]);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
        let expected = format!(
            "result: {} ({})",
            record[column("winner")],
            record[column("reason")]
        );
        assert_eq!(
            stdout(&replayed).lines().last(),
            Some(expected.as_str()),
            "game {}",
            record[0]
        );
    }
    fs::remove_file(&moves).expect("remove");
    // games.pgn holds the same games, opening included: a few replay from it by id. It
    // is no larger than games.csv, which holds its moves and more.
    let records = run_dir.join("games.pgn");
    let size = |path: &Path| fs::metadata(path).expect("size").len();
    assert!(
        size(&records) <= size(&run_dir.join("games.csv")),
        "games.pgn {} bytes, games.csv {}",
        size(&records),
        size(&run_dir.join("games.csv"))
    );
    for record in games.iter().take(3) {
        let replayed = run(&[
            "replay",
            game,
            records.to_str().expect("utf8"),
            "--id",
            &record[column("game_id")],
        ]);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
        let expected = format!(
            "result: {} ({})",
            record[column("winner")],
            record[column("reason")]
        );
        assert_eq!(
            stdout(&replayed).lines().last(),
            Some(expected.as_str()),
            "games.pgn game {}",
            record[0]
        );
    }
}

#[test]
fn run_writes_every_file_and_threads_do_not_change_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(dir.path(), "small.toml", SMALL);
    let one = dir.path().join("one");
    let four = dir.path().join("four");
    for (out, threads) in [(&one, "1"), (&four, "4")] {
        let output = run(&[
            "run",
            experiment.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
            "--threads",
            threads,
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    for file in [
        "games.csv",
        "moves.csv",
        "summary.csv",
        "nodes_by_depth.csv",
    ] {
        assert_same_csv(&one.join(file), &four.join(file), file);
    }
    // The page links the data files and sets code as code, not as literal backticks.
    let page = fs::read_to_string(one.join("index.html")).expect("index.html");
    for file in ["games.csv", "moves.csv", "summary.csv", "meta.json"] {
        assert!(page.contains(&format!("<a href=\"{file}\">")), "{file}");
    }
    assert!(!page.contains('`') && page.contains("<code>"), "{page}");
    assert!(
        !page.contains("journal.jsonl"),
        "the finished run has no journal"
    );
    // summary.json and `show --json`: summary.csv's rows and numbers, as JSON.
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(one.join("summary.json")).expect("summary.json"))
            .expect("json");
    let shown = run(&["show", "--json", one.to_str().expect("utf8")]);
    assert_eq!(
        serde_json::from_slice::<serde_json::Value>(&shown.stdout).expect("show --json"),
        json
    );
    assert_eq!(json["kind"], "tournament");
    let (csv_header, csv_rows) = read_csv(&one.join("summary.csv"));
    let rows = json["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), csv_rows.len());
    for (row, csv_row) in rows.iter().zip(&csv_rows) {
        for (name, cell) in csv_header.iter().zip(csv_row) {
            let value = &row[name.as_str()];
            match name.as_str() {
                "agent" | "opponent" => assert_eq!(value, cell.as_str()),
                "pairs" => assert_eq!(value.as_array().expect("pairs").len(), 5),
                // Counts by ending: `goal=3;timeout=1` as {"goal": 3, "timeout": 1}.
                "wins_by" | "losses_by" | "draws_by" => {
                    let object = value.as_object().expect("an object");
                    let text: Vec<String> =
                        object.iter().map(|(k, n)| format!("{k}={n}")).collect();
                    let mut expected: Vec<&str> =
                        cell.split(';').filter(|p| !p.is_empty()).collect();
                    expected.sort_unstable();
                    assert_eq!(text, expected, "{name}");
                }
                // Empty cells, NaN and infinities (JSON has none) are null.
                _ => match cell.parse::<f64>() {
                    Ok(x) if x.is_finite() => assert_eq!(value.as_f64(), Some(x), "{name}"),
                    _ => assert!(value.is_null(), "{name}: {cell}"),
                },
            }
        }
    }
    let (header, games) = read_csv(&one.join("games.csv"));
    assert_eq!(games.len(), 4 * 6, "4 matchups x 6 games");
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let ids: Vec<u64> = games
        .iter()
        .map(|g| g[column("game_id")].parse().expect("id"))
        .collect();
    assert_eq!(ids, (0..24).collect::<Vec<_>>());
    assert!(games.iter().all(|g| g[column("rules")] == "long"));
    // Colours alternate within a matchup.
    assert_eq!(games[0][column("p1_agent")], "greedy(heuristic=offensive2)");
    assert_eq!(games[1][column("p1_agent")], "ab3-defense");
    let (_, moves) = read_csv(&one.join("moves.csv"));
    let plies: usize = games
        .iter()
        .map(|g| g[column("plies")].parse::<usize>().expect("plies"))
        .sum();
    assert_eq!(moves.len(), plies);
    let (summary_header, summary) = read_csv(&one.join("summary.csv"));
    assert_eq!(summary.len(), 8, "two rows per matchup");
    let wins = summary_header
        .iter()
        .position(|h| h == "wins")
        .expect("wins");
    let games_col = summary_header
        .iter()
        .position(|h| h == "games")
        .expect("games");
    assert!(summary.iter().all(|r| r[games_col] == "6"));
    let total_wins: u32 = summary
        .iter()
        .map(|r| r[wins].parse::<u32>().expect("n"))
        .sum();
    let draws = games
        .iter()
        .filter(|g| g[column("winner")] == "draw")
        .count() as u32;
    assert_eq!(total_wins + draws, 24);
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(one.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["status"], "complete");
    assert_eq!(meta["games_played"], 24);
    assert_eq!(meta["seed"], 42);
    assert_eq!(meta["threads"], 1);
    assert!(
        meta["experiment_source"]
            .as_str()
            .expect("text")
            .contains("round_robin")
    );
    let (levels_header, levels) = read_csv(&one.join("nodes_by_depth.csv"));
    assert_eq!(levels_header[2], "level");
    assert!(
        levels
            .iter()
            .any(|r| r[1] == "minimax(heuristic=defensive2,depth=2)" && r[2] == "2")
    );

    // `show` prints the same summary as tables.
    let shown = run(&["show", one.to_str().expect("utf8")]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let text = stdout(&shown);
    assert!(
        text.contains("matchup 0: greedy(heuristic=offensive2) vs ab3-defense"),
        "{text}"
    );
    assert!(
        text.contains("win rate (95%)") && text.contains("Elo (95%)") && text.contains("complete"),
        "{text}"
    );

    // --seed changes the games.
    let other = dir.path().join("other");
    let output = run(&[
        "run",
        experiment.to_str().expect("utf8"),
        "--out",
        other.to_str().expect("utf8"),
        "--seed",
        "43",
        "--games",
        "2",
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, other_games) = read_csv(&other.join("games.csv"));
    assert_eq!(other_games.len(), 8);
    assert_ne!(other_games[0][column("seed")], games[0][column("seed")]);
}

#[test]
fn recorded_games_replay_to_their_recorded_result() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "replay.toml",
        "game = \"breakthrough(rules=three-to-base)\"\ngames = 4\nmatchups = [[\"random\", \"greedy(heuristic=defensive2)\"]]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (header, games) = read_csv(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    for game in &games {
        let moves = dir.path().join("moves.txt");
        fs::write(
            &moves,
            format!("# game {}\n{}\n", game[0], game[column("moves")]),
        )
        .expect("write");
        let replayed = run(&[
            "replay",
            "breakthrough(rules=three-to-base)",
            moves.to_str().expect("utf8"),
        ]);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
        let expected = format!(
            "result: {} ({})",
            game[column("winner")],
            game[column("reason")]
        );
        let text = stdout(&replayed);
        assert_eq!(text.lines().last(), Some(expected.as_str()), "{text}");
        assert_eq!(
            text.lines().count(),
            10,
            "the file letters, 8 labelled rows and the result"
        );
    }
}

#[test]
fn replay_reads_standard_input_and_reports_illegal_moves() {
    let output = run_with_input(
        &["replay", "breakthrough", "-"],
        b"c2-c3\n\n# a comment\nd7-d6  # reply\n",
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "   a b c d e f g h\n 1 1 1 1 1 1 1 1 1\n 2 1 1 0 1 1 1 1 1\n 3 0 0 1 0 0 0 0 0\n"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            " 6 0 0 0 2 0 0 0 0\n 7 2 2 2 0 2 2 2 2\n 8 2 2 2 2 2 2 2 2\nresult: unfinished"
        ),
        "{text}"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let moves = dir.path().join("bad.txt");
    fs::write(&moves, "c2-c3\nd7-d6\n\nc3-c5\n").expect("write");
    let output = run(&["replay", "breakthrough", moves.to_str().expect("utf8")]);
    assert_input_error(
        &output,
        &["bad.txt: line 4: ply 3: move 'c3-c5'", "illegal for P1"],
    );
}

/// `replay --steps` prints the start and every position after its move; `--steps N` from
/// ply N; a ply past the end is an input error.
#[test]
fn replay_steps_prints_every_position() {
    let all = run_with_input(
        &["replay", "breakthrough", "-", "--steps"],
        b"c2-c3; d7-d6\n",
    );
    assert!(all.status.success(), "{}", stderr(&all));
    let text = stdout(&all);
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("ply ")).collect();
    assert_eq!(
        headers,
        [
            "ply 0 (start), P1 to move",
            "ply 1: P1 c2-c3",
            "ply 2: P2 d7-d6"
        ],
        "{text}"
    );
    // The position after ply 1 has the pawn on c3 and P2's pieces untouched.
    let after_first = text.split("ply 1: P1 c2-c3\n").nth(1).expect("ply 1");
    assert!(
        after_first
            .starts_with("   a b c d e f g h\n 1 1 1 1 1 1 1 1 1\n 2 1 1 0 1 1 1 1 1\n 3 0 0 1"),
        "{text}"
    );
    assert!(text.ends_with("\nresult: unfinished\n"), "{text}");

    let from_two = run_with_input(
        &["replay", "breakthrough", "-", "--steps", "2"],
        b"c2-c3; d7-d6\n",
    );
    let text = stdout(&from_two);
    assert_eq!(text.matches("ply ").count(), 1, "{text}");
    assert!(
        text.contains(" 6 0 0 0 2 0 0 0 0\n 7 2 2 2 0 2 2 2 2\n"),
        "{text}"
    );

    let past = run_with_input(
        &["replay", "breakthrough", "-", "--steps", "3"],
        b"c2-c3; d7-d6\n",
    );
    assert_input_error(&past, &["--steps 3: <stdin> has 2 moves"]);
}

#[test]
fn perft_prints_one_line_per_depth() {
    let output = run(&["perft", "breakthrough", "--depth", "3"]);
    assert!(output.status.success());
    assert_eq!(
        stdout(&output),
        "perft(1) = 22\nperft(2) = 484\nperft(3) = 11132\n"
    );
    let output = run(&["perft", "breakthrough(rules=long)", "--depth", "2"]);
    assert_eq!(stdout(&output), "perft(1) = 28\nperft(2) = 756\n");
    assert_input_error(
        &run(&["perft", "checkers"]),
        &["game 'checkers'", "unknown game"],
    );
    assert_input_error(
        &run(&["perft", "breakthrough(rules=wide)"]),
        &["unknown rule set 'wide'"],
    );
    assert_input_error(
        &run(&["perft", "breakthrough", "--depth", "0"]),
        &["--depth 0"],
    );
}

#[test]
fn list_shows_games_algorithms_heuristics_and_agents() {
    let output = run(&["list"]);
    assert!(output.status.success());
    let text = stdout(&output);
    for expected in [
        "breakthrough",
        "three-to-base",
        "alphabeta",
        "greedy",
        "offensive2",
        "almost_win=10000",
        "home_stage=2",
        "defense",
        "ab4-offensive2",
        "agents/breakthrough.toml",
        "smart-fc",
        "sat ",
        "mrv-lcv",
        "fewest",
    ] {
        assert!(
            text.contains(expected),
            "'{expected}' missing from list:\n{text}"
        );
    }
}

#[test]
fn play_shows_the_board_and_legal_moves_and_rejects_bad_moves() {
    let output = run_with_input(
        &[
            "play",
            "breakthrough",
            "--agent",
            "greedy(heuristic=offensive1)",
        ],
        b"c2-c5\nc2-c3\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("P1 to move; legal: "), "{text}");
    assert!(text.contains("move 'c2-c5': illegal for P1"), "{text}");
    assert!(
        text.contains("greedy(heuristic=offensive1) plays "),
        "{text}"
    );
    assert!(
        text.contains(" 2 1 1 0 1 1 1 1 1\n"),
        "the move was played:\n{text}"
    );
}

/// Each bad experiment gets one line naming the file (and line) and the problem, exit
/// code 2, and no results folder.
#[test]
fn bad_experiments_fail_cleanly_without_results() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "game = \"checkers\"\nmatchups = [[\"random\", \"random\"]]\n",
            "",
            &["line 1: unknown game 'checkers'"],
        ),
        (
            "game = \"breakthrough(rules=huge)\"\nmatchups = [[\"random\", \"random\"]]\n",
            "",
            &["line 1: unknown rule set 'huge'"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"nobody\"]]\n",
            "",
            &["line 2: unknown agent 'nobody'"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=chess,depth=2)\"]]\n",
            "",
            &["line 2:", "unknown heuristic 'chess'"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=offense,weight=2)\"]]\n",
            "",
            &[
                "line 2:",
                "unknown parameter 'weight' for heuristic offense",
            ],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"minimax(heuristic=offense,depth=0)\"]]\n",
            "",
            &["line 2:", "depth 0 deepens until something stops it"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"alphabeta(heuristic=offense,depth=40)\"]]\n",
            "",
            &["depth 40 deepens until something stops it"],
        ),
        (
            "game = \"breakthrough\"\ngames = 0\nmatchups = [[\"random\", \"random\"]]\n",
            "",
            &["line 2: games = 0"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"random\"]]\n",
            "--games=0",
            &["'0' is not a number of games from 1 to 10000000"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"random\"]\n",
            "",
            &["malformed TOML"],
        ),
        (
            "game = \"breakthrough\"\nrounds = 3\nmatchups = [[\"random\", \"random\"]]\n",
            "",
            &["line 2: malformed TOML: unknown field `rounds`"],
        ),
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"random\"]]\n",
            "--threads=0",
            &["--threads 0"],
        ),
        // An openings file that cannot be read is blamed on the line naming it.
        (
            "game = \"breakthrough\"\nopenings = { file = \"no-such-openings.txt\" }\nmatchups = [[\"random\", \"ab3-offense\"]]\n",
            "",
            &["line 2: openings file 'no-such-openings.txt': cannot read: No such file"],
        ),
        // Brackets of a sweep list that do not pair up are named as such.
        (
            "game = \"breakthrough\"\n[[sweep]]\nagent = \"alphabeta(heuristic=offense,depth=[2,3)\"\nopponents = [\"random\"]\n",
            "",
            &[
                "line 3: sweep:",
                "a '[' that is never closed (a sweep list is written key=[a,b,c])",
            ],
        ),
        // A carriage return inside a name is shown escaped, not echoed raw.
        (
            "game = \"breakthrough\"\nmatchups = [[\"random\", \"alpha\\rbeta\"]]\n",
            "",
            &["unknown agent 'alpha\\rbeta'"],
        ),
    ];
    for (index, (text, flag, fragments)) in cases.iter().enumerate() {
        let name = format!("bad{index}.toml");
        let path = write_experiment(dir.path(), &name, text);
        let out = dir.path().join(format!("out{index}"));
        let mut args = vec![
            "run".to_string(),
            path.to_string_lossy().into_owned(),
            "--out".to_string(),
            out.to_string_lossy().into_owned(),
        ];
        if !flag.is_empty() {
            args.push(flag.to_string());
        }
        let output = arbiter().args(&args).output().expect("runs");
        let mut expected: Vec<&str> = fragments.to_vec();
        if flag.is_empty() {
            expected.push(&name);
        }
        assert_input_error(&output, &expected);
        assert!(!out.exists(), "case {index} left a results folder");
    }
    let missing = run(&["run", "no/such/file.toml"]);
    assert_input_error(&missing, &["no/such/file.toml: cannot read"]);
}

#[test]
fn existing_results_are_never_overwritten() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "e.toml",
        "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"random\", \"random\"]]\n",
    );
    let out = dir.path().join("run");
    fs::create_dir(&out).expect("mkdir");
    fs::write(out.join("games.csv"), "precious\n").expect("write");
    let output = run(&[
        "run",
        experiment.to_str().expect("utf8"),
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert_input_error(&output, &["exists and is not empty"]);
    assert_eq!(
        fs::read_to_string(out.join("games.csv")).expect("read"),
        "precious\n"
    );
}

#[test]
fn a_bad_agent_file_is_named() {
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("mine.toml"),
        "[[agent]]\nname = \"x\"\nalgorithm = \"minimax\"\nheuristic = \"offense\"\ndepth = 99\n",
    )
    .expect("write");
    let output = run(&["list", "--agents", agents.to_str().expect("utf8")]);
    // Blamed on the line holding the bad value, not the agent's name line.
    assert_input_error(&output, &["mine.toml: line 5: agent 'x': depth '99'"]);
    fs::write(
        agents.join("mine.toml"),
        "[[agent]]\nname = \"x\"\nalgorithm = \"minimax\"\nheuristic = \"offense\"\nparams = { depth = 2, wieght = 3 }\n",
    )
    .expect("write");
    let output = run(&["list", "--agents", agents.to_str().expect("utf8")]);
    assert_input_error(
        &output,
        &["mine.toml: line 5: agent 'x': unknown parameter 'wieght'"],
    );
}

#[test]
fn interrupting_a_run_keeps_every_finished_game_and_resume_completes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // About 3 s of games on 2 cores: long enough to be interrupted after the first ones.
    let experiment = write_experiment(
        dir.path(),
        "long.toml",
        "game = \"breakthrough\"\ngames = 6000\nmatchups = [[\"minimax(heuristic=offensive2,depth=2)\", \"greedy(heuristic=defensive1)\"]]\n",
    );
    let out = dir.path().join("run");
    let child = arbiter()
        .args([
            "run",
            experiment.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
            "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // Wait until some games are on disk, then send Ctrl-C (SIGINT).
    let games = out.join("games.csv");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 20 {
        assert!(std::time::Instant::now() < deadline, "no games written");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(stderr(&output).contains("stopped:") && stderr(&output).contains("--resume"));
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["status"], "interrupted");
    let played = meta["games_played"].as_u64().expect("count") as usize;
    let (_, rows) = read_csv(&games);
    assert_eq!(rows.len(), played);
    assert!((19..6000).contains(&played));
    let ids: Vec<usize> = rows.iter().map(|r| r[0].parse().expect("id")).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]));
    let (_, summary) = read_csv(&out.join("summary.csv"));
    assert_eq!(
        summary[0][3],
        played.to_string(),
        "summary covers the finished games"
    );
    // Resume, and compare with the same experiment run without interruption.
    let output = run(&["run", "--resume", out.to_str().expect("utf8"), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let whole = dir.path().join("whole");
    run_quietly(&experiment, &whole);
    for file in [
        "games.csv",
        "moves.csv",
        "summary.csv",
        "nodes_by_depth.csv",
    ] {
        assert_same_csv(&whole.join(file), &out.join(file), file);
    }
}

#[test]
fn wights_runs_replays_and_counts_like_breakthrough() {
    let output = run(&["perft", "wights", "--depth", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("perft(1) = 5\nperft(2) = "));
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "w.toml",
        "game = \"wights\"\ngames = 4\nmatchups = [[\"dq-ab2\", \"random\"]]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (header, games) = read_csv(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    assert_eq!(games.len(), 4);
    for game in &games {
        // Wights moves contain spaces: the list is ';'-separated, and replays as is.
        assert!(
            game[column("moves")].starts_with("5 "),
            "{}",
            game[column("moves")]
        );
        let moves = dir.path().join("moves.txt");
        fs::write(&moves, &game[column("moves")]).expect("write");
        let replayed = run(&["replay", "wights", moves.to_str().expect("utf8")]);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
        let expected = format!(
            "result: {} ({})",
            game[column("winner")],
            game[column("reason")]
        );
        assert_eq!(stdout(&replayed).lines().last(), Some(expected.as_str()));
        let searcher = if game[column("p1_agent")] == "dq-ab2" {
            "p1"
        } else {
            "p2"
        };
        let peak: u64 = game[column(&format!("{searcher}_peak_bytes"))]
            .parse()
            .expect("bytes");
        assert!(peak > 0, "the searching side reports its memory");
        let other = if searcher == "p1" { "p2" } else { "p1" };
        assert_eq!(
            game[column(&format!("{other}_peak_bytes"))],
            "0",
            "random keeps no state"
        );
    }
    let (move_header, moves) = read_csv(&out.join("moves.csv"));
    let at = |name: &str| move_header.iter().position(|h| h == name).expect(name);
    assert!(
        moves
            .iter()
            .any(|m| m[at("side")] == "P2" && m[at("move")].split(' ').count() == 4)
    );
    // The report's direction codes are accepted when playing.
    let output = run_with_input(
        &["play", "wights", "--agent", "dq-ab1", "--side", "p2"],
        b"5 5 1\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("W W W W .\n") && text.contains("dq-ab1 plays"),
        "{text}"
    );
}

#[test]
fn play_has_an_opponent_for_every_game_and_takes_back_saves_and_ends_in_words() {
    // Every game starts without --agent: the default opponent uses that game's heuristic.
    // A move of the person's is played and answered, on a board with the notation's
    // coordinates (Wights: the agent moves first, the dragon steps down).
    for (game, first, coordinates) in [
        ("breakthrough", "c2-c3", "   a b c d e f g h\n 1 1 1 1"),
        ("wights", "2 2 3 2", "  1 2 3 4 5\n1 . . Q . .\n"),
        (
            "chinese-checkers",
            "16 4 15 5",
            "row (cells counted from the left of each row)\n 1 ",
        ),
        ("double-card", "0 1 A 1", "\n   A  B  C  D  E  F  G  H\n"),
    ] {
        let input = format!("help\n{first}\nquit\n");
        let output = run_with_input(&["play", game], input.as_bytes());
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        let text = stdout(&output);
        assert!(
            text.contains("against alphabeta(heuristic="),
            "{game}: {text}"
        );
        assert!(text.contains("undo (take back"), "{game}: {text}");
        assert!(text.contains(coordinates), "{game}: {text}");
        let replies = text.matches(" plays ").count();
        let agent_first = game == "wights";
        assert_eq!(
            replies,
            1 + usize::from(agent_first),
            "{game}: the person's move is answered: {text}"
        );
        assert!(!text.contains("illegal"), "{game}: {text}");
    }
    // A dice game: chance places the cubes and rolls the die itself, in words; the
    // person chooses among the steps the die allows, never among chance's outcomes.
    let output = run_with_input(&["play", "einstein", "--seed", "3"], b"moves\nquit\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("against expectimax(heuristic=race"), "{text}");
    assert_eq!(text.matches("chance: setup").count(), 2, "{text}");
    assert!(text.contains("chance: roll"), "{text}");
    let legal = text
        .lines()
        .find(|l| l.starts_with("P1 to move; legal: "))
        .expect("the person's turn");
    assert!(
        !legal.contains("setup") && !legal.contains("roll"),
        "{legal}"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let saved = dir.path().join("game.txt");
    let input = format!("C2-D3\nundo\nundo\nh2-h3\nsave {}\nquit\n", saved.display());
    let output = run_with_input(&["play", "breakthrough"], input.as_bytes());
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    // Upper case is read; the list is comma-separated; undo goes back to the start once.
    assert!(text.contains("legal: a2-a3, b2-b3,"), "{text}");
    assert!(
        text.contains("took back to ply 0") && text.contains("nothing to undo"),
        "{text}"
    );
    assert!(text.contains("saved 2 moves"), "{text}");
    let moves = fs::read_to_string(&saved).expect("saved file");
    let lines: Vec<&str> = moves.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{moves}");
    assert_eq!(lines[0], "h2-h3");
    let replayed = run(&["replay", "breakthrough", saved.to_str().expect("utf8")]);
    assert!(replayed.status.success(), "{}", stderr(&replayed));
    // A game to its end says who won in words. The person's lines are every forward
    // move, most advanced first, over and over: illegal ones are refused and the next
    // line is tried, so every turn some move is played until the game ends.
    let mut round = String::new();
    for rank in (2..8).rev() {
        for (f, file) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
            for to in [f as i32 - 1, f as i32, f as i32 + 1] {
                if (0..8).contains(&to) {
                    let target = (b'a' + to as u8) as char;
                    round.push_str(&format!("{file}{rank}-{target}{}\n", rank + 1));
                }
            }
        }
    }
    let output = run_with_input(
        &["play", "breakthrough", "--agent", "random"],
        round.repeat(40).as_bytes(),
    );
    let text = stdout(&output);
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    assert!(
        text.contains("You win (") || text.contains("random wins ("),
        "no result in words; last line: {last}"
    );
}

#[test]
fn agents_are_found_beside_the_experiment_from_any_folder_and_typos_get_a_suggestion() {
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // quick.toml names registered agents (ab2-offensive1, ...): found in the repository's
    // agents/, the folder above the experiment's, though the current folder is elsewhere.
    let out = elsewhere.path().join("run");
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(elsewhere.path())
        .env_remove("ARBITER_AGENTS")
        .args([
            "run",
            root.join("matchups/quick.toml").to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
            "--quiet",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr(&output));
    // $ARBITER_AGENTS names the folder for commands without an experiment file.
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(elsewhere.path())
        .env("ARBITER_AGENTS", root.join("agents"))
        .args(["list"])
        .output()
        .expect("runs");
    assert!(
        stdout(&output).contains("ab3-offensive2"),
        "{}",
        stdout(&output)
    );
    // A folder that does not exist is an error, before anything is printed.
    let output = run(&["list", "--agents", "no-such-folder"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).is_empty());
    assert!(
        stderr(&output).contains("--agents no-such-folder: no such folder"),
        "{}",
        stderr(&output)
    );
    let output = run(&["play", "breakthrough", "--agent", "ab3-ofensive2"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("did you mean 'ab3-offensive2'?"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn compare_writes_search_tables_and_agrees_with_minimax() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("cmp");
    let output = run(&[
        "compare",
        "breakthrough",
        "--heuristic",
        "offensive2(almost_win=5000)",
        "--depths",
        "1..3",
        "--positions",
        "6",
        "--algorithms",
        "minimax,alphabeta,alphabeta-killer",
        "--out",
        out.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (header, rows) = read_csv(&out.join("search.csv"));
    assert_eq!(rows.len(), 6 * 9);
    assert_eq!(header[..4], ["position", "algorithm", "depth", "move"]);
    let (summary_header, summary) = read_csv(&out.join("search_summary.csv"));
    let col = |name: &str| summary_header.iter().position(|h| h == name).expect(name);
    assert_eq!(summary.len(), 9);
    for row in &summary {
        if row[col("algorithm")] == "alphabeta" {
            assert_eq!(
                (
                    row[col("same_move")].as_str(),
                    row[col("same_value")].as_str()
                ),
                ("1.0", "1.0")
            );
        }
        if row[col("algorithm")] == "alphabeta-killer" {
            assert_eq!(row[col("same_value")], "1.0");
        }
    }
    for file in [
        "nodes_vs_depth.svg",
        "nodes_vs_depth.png",
        "report.md",
        "index.html",
        "meta.json",
    ] {
        assert!(out.join(file).is_file(), "{file}");
    }
    // `report` remakes the documents from the CSVs alone.
    fs::remove_file(out.join("report.md")).expect("rm");
    fs::remove_file(out.join("nodes_vs_depth.svg")).expect("rm");
    let output = run(&["report", out.to_str().expect("utf8")]);
    assert!(output.status.success(), "{}", stderr(&output));
    let markdown = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        markdown.contains("## Search comparison")
            && markdown.contains("| alphabeta-killer | 3 | 6 |"),
        "{markdown}"
    );
    assert!(out.join("nodes_vs_depth.svg").is_file());
    let shown = run(&["show", out.to_str().expect("utf8")]);
    assert!(
        stdout(&shown).contains("| minimax | 2 | 6 |"),
        "{}",
        stdout(&shown)
    );

    assert_input_error(
        &run(&[
            "compare",
            "breakthrough",
            "--heuristic",
            "nope",
            "--out",
            dir.path().join("x").to_str().expect("utf8"),
        ]),
        &["unknown heuristic 'nope'"],
    );
    assert_input_error(
        &run(&[
            "compare",
            "wights",
            "--heuristic",
            "material",
            "--depths",
            "0..2",
        ]),
        &["--depths", "from 1 to 12"],
    );
    assert_input_error(
        &run(&[
            "compare",
            "wights",
            "--heuristic",
            "material",
            "--algorithms",
            "minimax,random",
        ]),
        &["random does not search"],
    );
}

#[test]
fn search_experiments_take_positions_from_recorded_games() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games_run = dir.path().join("games");
    let experiment = write_experiment(
        dir.path(),
        "g.toml",
        "game = \"wights\"\ngames = 4\nmatchups = [[\"dq-ab2\", \"random\"]]\n",
    );
    run_quietly(&experiment, &games_run);
    let search = write_experiment(
        dir.path(),
        "s.toml",
        "kind = \"search\"\ngame = \"wights\"\nheuristic = \"material\"\npositions = 5\npositions_from = \"games/games.csv\"\nalgorithms = [\"minimax\", \"alphabeta-ordered\"]\ndepths = [2, 3]\n",
    );
    let out = dir.path().join("search");
    run_quietly(&search, &out);
    let (_, rows) = read_csv(&out.join("search.csv"));
    assert_eq!(rows.len(), 5 * 4);
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["kind"], "search");
    let bad = write_experiment(
        dir.path(),
        "bad.toml",
        "kind = \"search\"\ngame = \"wights\"\nheuristic = \"material\"\npositions_from = \"nowhere.csv\"\nalgorithms = [\"minimax\"]\ndepths = [2]\n",
    );
    let output = run(&[
        "run",
        bad.to_str().expect("utf8"),
        "--out",
        dir.path().join("b").to_str().expect("utf8"),
    ]);
    assert_input_error(&output, &["nowhere.csv: cannot read"]);
    let output = run(&["run", search.to_str().expect("utf8"), "--games", "3"]);
    assert_input_error(&output, &["--games does not apply to a search experiment"]);
}

const TUNING: &str = r#"
game = "breakthrough"
games = 8
seed = 11
openings = { random_plies = 2 }
gauntlet = { agent = "greedy(heuristic=offensive2)", opponents = ["random", "greedy(heuristic=defense)"] }

[[sweep]]
name = "off2"
agent = "greedy(heuristic=offensive2,almost_win=[100,10000])"
opponents = ["greedy(heuristic=defensive1)", "random"]
"#;

#[test]
fn a_stopped_run_resumes_to_the_same_files_as_an_uninterrupted_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(dir.path(), "tune.toml", TUNING);
    let whole = dir.path().join("whole");
    let parts = dir.path().join("parts");
    let path = experiment.to_str().expect("utf8");
    let output = run(&[
        "run",
        path,
        "--out",
        whole.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Stop after 13 games, then resume twice (the second time with a game limit again).
    let output = run(&[
        "run",
        path,
        "--out",
        parts.to_str().expect("utf8"),
        "--quiet",
        "--max-games",
        "13",
        "--threads",
        "1",
    ]);
    // Partial: exit code 4, so that a script can tell it from a complete run.
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stderr(&output).contains("--resume"), "{}", stderr(&output));
    let meta = |folder: &Path| -> serde_json::Value {
        serde_json::from_str(&fs::read_to_string(folder.join("meta.json")).expect("meta"))
            .expect("json")
    };
    assert_eq!(meta(&parts)["status"], "partial");
    assert_eq!(meta(&parts)["games_played"], 13);
    assert!(parts.join("journal.jsonl").is_file());
    let parts_text = parts.to_str().expect("utf8");
    let output = run(&[
        "run",
        "--resume",
        parts_text,
        "--quiet",
        "--max-games",
        "10",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert_eq!(meta(&parts)["games_played"], 23);
    let output = run(&["run", "--resume", parts_text, "--quiet", "--threads", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(meta(&parts)["status"], "complete");
    assert_eq!(meta(&parts)["resumed"], 2);
    assert!(
        !parts.join("journal.jsonl").exists(),
        "the journal goes once complete"
    );
    for file in [
        "games.csv",
        "moves.csv",
        "summary.csv",
        "nodes_by_depth.csv",
    ] {
        assert_same_csv(&whole.join(file), &parts.join(file), file);
    }
    let (header, games) = read_csv(&whole.join("games.csv"));
    assert_eq!(games.len(), 2 * 8 + 4 * 8);
    let opening = header
        .iter()
        .position(|h| h == "opening")
        .expect("opening column");
    assert_eq!(
        games[0][opening], games[1][opening],
        "a colour-swapped pair shares its opening"
    );
    assert_eq!(games[0][opening].split(';').count(), 2);
    // The sweep's chart and the ratings are in the report and in show.
    assert!(whole.join("sweep_1.svg").is_file() && whole.join("sweep_1.png").is_file());
    let report = fs::read_to_string(whole.join("report.md")).expect("report");
    assert!(
        report.contains("## Sweep of almost_win") && report.contains("## Ratings"),
        "{report}"
    );
    assert!(report.contains("| 100 | "), "{report}");
    let shown = stdout(&run(&["show", whole.to_str().expect("utf8")]));
    assert!(
        shown.contains("ratings (Bradley-Terry") && shown.contains("off2[almost_win=10000]"),
        "{shown}"
    );
    // The sweep is one table (a row per value, a column per opponent), not a table per
    // matchup; the gauntlet's matchups keep theirs.
    let sweep = shown
        .split("sweep of almost_win: ")
        .nth(1)
        .expect("the sweep's table");
    let sweep_lines: Vec<&str> = sweep.lines().take_while(|l| !l.is_empty()).collect();
    assert_eq!(sweep_lines.len(), 4, "title, header, 2 values: {shown}");
    assert!(
        sweep_lines[1].contains("vs greedy(heuristic=defensive1)")
            && sweep_lines[1].contains("vs random"),
        "{shown}"
    );
    assert!(sweep_lines[2].trim_start().starts_with("100 "), "{shown}");
    assert!(!shown.contains(": off2[almost_win=100] vs"), "{shown}");
    assert_eq!(
        shown.matches("\nmatchup ").count(),
        2,
        "the gauntlet's 2: {shown}"
    );
    let (summary_header, summary) = read_csv(&whole.join("summary.csv"));
    let pairs = summary_header
        .iter()
        .position(|h| h == "pairs")
        .expect("pairs");
    let total_pairs: u64 = summary[0][pairs]
        .split(';')
        .map(|c| c.parse::<u64>().expect("count"))
        .sum();
    assert_eq!(total_pairs, 4, "8 games, 4 colour-swapped pairs");

    // A complete run resumed: nothing to do, and no error (as a complete shard run again).
    let again = run(&["run", "--resume", parts_text]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("the run is already complete; nothing to do"),
        "{}",
        stderr(&again)
    );
    for bad in ["10000001", "18446744073709551615", "-1", "0", "many"] {
        let output = run(&["run", path, "--games", bad]);
        assert_input_error(
            &output,
            &[&format!(
                "'{bad}' is not a number of games from 1 to 10000000"
            )],
        );
    }
    assert_input_error(
        &run(&["run", path, "--resume", parts_text]),
        &["give no experiment file"],
    );
    assert_input_error(&run(&["run", path, "--max-games", "0"]), &["--max-games 0"]);
}

#[test]
fn sprt_stops_a_lopsided_matchup_early() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "sprt.toml",
        "game = \"breakthrough\"\nseed = 3\nsprt = { elo0 = 0, elo1 = 100, alpha = 0.05, beta = 0.05, max_games = 400 }\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (_, games) = read_csv(&out.join("games.csv"));
    assert!(
        games.len() < 400 && games.len() % 2 == 0,
        "stopped early after a whole pair: {}",
        games.len()
    );
    let (header, summary) = read_csv(&out.join("summary.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    assert_eq!(
        summary[0][col("sprt")],
        "H0",
        "random is not 100 Elo stronger"
    );
    // One test per matchup: the second agent's row repeats it, not a mirrored test.
    assert_eq!(summary[1][col("sprt")], "H0");
    assert_eq!(summary[1][col("llr")], summary[0][col("llr")]);
    let llr: f64 = summary[0][col("llr")].parse().expect("llr");
    assert!(llr <= -2.94, "{llr}");
    let report = fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("SPRT (LLR)")
            && report.contains("H0 (")
            && report
                .contains("one sequential test per matchup, of its first agent against its second"),
        "{report}"
    );
}

#[test]
fn chinese_checkers_runs_replays_and_rejects_bad_parameters() {
    let output = run(&["perft", "chinese-checkers", "--depth", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("perft(1) = 14\nperft(2) = 196\n"),
        "{}",
        stdout(&output)
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "cc.toml",
        "game = \"chinese-checkers(max_plies=60)\"\ngames = 2\nmatchups = [[\"cc-beam\", \"cc-simple-greedy\"]]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    assert_games_replay(&out, "chinese-checkers(max_plies=60)");
    let (moves_header, moves) = read_csv(&out.join("moves.csv"));
    let depth = moves_header
        .iter()
        .position(|h| h == "depth")
        .expect("depth column");
    assert!(
        moves.iter().any(|m| m[depth] == "3"),
        "the beam's depth is recorded"
    );
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["deterministic"], true);
    assert_input_error(
        &run(&["perft", "chinese-checkers(jumps=far)"]),
        &["jumps=far: expected long or short"],
    );
    assert_input_error(
        &run(&["run", write_experiment(dir.path(), "bad.toml", "game = \"chinese-checkers\"\nmatchups = [[\"beam(heuristic=report004,k=0)\", \"random\"]]\n").to_str().expect("utf8")]),
        &["bad.toml: line 2:", "k '0' must be a whole number from 1 to 100"],
    );
    // A clock in the experiment makes the run non-deterministic, and says so.
    let clocked = write_experiment(
        dir.path(),
        "clock.toml",
        "game = \"chinese-checkers(max_plies=20,timeout=random)\"\ngames = 1\nmove_time_ms = 1000\nmatchups = [[\"beam(heuristic=report004,depth=2,time_ms=5)\", \"cc-simple-greedy\"]]\n",
    );
    let out = dir.path().join("clock");
    run_quietly(&clocked, &out);
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["deterministic"], false);
}

#[test]
fn double_card_runs_and_replays() {
    let output = run(&["perft", "double-card", "--depth", "1"]);
    assert_eq!(stdout(&output), "perft(1) = 60\n");
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "dc.toml",
        "game = \"double-card(p1=colors)\"\ngames = 2\nmatchups = [[\"greedy(heuristic=lines)\", \"random\"]]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    assert_games_replay(&out, "double-card(p1=colors)");
    let moves = dir.path().join("bad.txt");
    fs::write(&moves, "0 2 A 1\n0 1 C 2\n").expect("write");
    assert_input_error(
        &run(&["replay", "double-card", moves.to_str().expect("utf8")]),
        &[
            "bad.txt: line 2: ply 2: move '0 1 C 2'",
            "hang over an empty cell",
        ],
    );
    assert_input_error(
        &run(&["perft", "double-card(p1=red)"]),
        &["p1=red: expected colors or dots"],
    );
}

#[test]
fn solve_prints_a_checked_solution_and_its_counters() {
    let output = run(&[
        "solve",
        "matchups/puzzles/flow/input55.txt",
        "--solver",
        "smart-fc",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with(
            "BRRRO\nBRYYO\nBRYOO\nBROOG\nBBGGG\nstatus: solved (smart-fc, 5x5, 5 colours)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("\nassignments: ") && text.contains("\nbacktracks: "),
        "{text}"
    );
    // The default solver (sat) on the public set's hardest puzzle.
    let output = run(&["solve", "matchups/puzzles/flow/public/jumbo_14x14_19.txt"]);
    let text = stdout(&output);
    assert!(
        text.contains("\nstatus: solved (sat, 14x14, 12 colours)\n"),
        "{text}"
    );
    assert_eq!(
        text.lines().take_while(|l| l.len() == 14).count(),
        14,
        "{text}"
    );
    let output = run(&[
        "solve",
        "matchups/puzzles/flow/public/unsolvable_cross.txt",
        "--solver",
        "paths",
    ]);
    assert!(
        stdout(&output).starts_with("status: unsolvable"),
        "{}",
        stdout(&output)
    );
    let output = run(&[
        "solve",
        "matchups/puzzles/flow/input1414.txt",
        "--solver",
        "brute",
        "--max-nodes",
        "1000",
    ]);
    assert!(
        stdout(&output).starts_with("status: limit"),
        "{}",
        stdout(&output)
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let broken = dir.path().join("broken.txt");
    fs::write(&broken, "A_B\n__A\n").expect("write");
    assert_input_error(
        &run(&["solve", broken.to_str().expect("utf8")]),
        &["broken.txt: colour 'B' has 1 endpoint"],
    );
    assert_input_error(
        &run(&[
            "solve",
            "matchups/puzzles/flow/input55.txt",
            "--solver",
            "magic",
        ]),
        &["unknown flow solver 'magic'"],
    );
}

#[test]
fn puzzle_experiments_write_solves_summaries_and_charts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = env!("CARGO_MANIFEST_DIR");
    let experiment = write_experiment(
        dir.path(),
        "p.toml",
        &format!(
            "kind = \"puzzles\"\nsolvers = [\"smart-fc\", \"paths\", \"dumb\"]\npuzzles = [\"{root}/matchups/puzzles/flow/input55.txt\", \"{root}/matchups/puzzles/flow/public/unsolvable_cross.txt\"]\nrepetitions = 2\nmax_nodes = 100000\n"
        ),
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (header, rows) = read_csv(&out.join("solves.csv"));
    assert_eq!(
        header[..7],
        [
            "puzzle", "rows", "cols", "colours", "solver", "seed", "status"
        ]
    );
    assert_eq!(rows.len(), 2 * 3 * 2);
    assert!(
        rows.iter()
            .filter(|r| r[0] == "input55.txt")
            .all(|r| r[6] == "solved")
    );
    assert!(
        rows.iter()
            .filter(|r| r[0] == "unsolvable_cross.txt")
            .all(|r| r[6] == "unsolvable")
    );
    for chart in [
        "time_by_size.svg",
        "assignments_by_size.svg",
        "cactus.svg",
        "report.md",
        "index.html",
    ] {
        assert!(out.join(chart).is_file(), "{chart}");
    }
    let shown = stdout(&run(&["show", out.to_str().expect("utf8")]));
    assert!(
        shown.contains("smart-fc") && shown.contains("unsolvable"),
        "{shown}"
    );
    assert!(
        shown.contains("median ms per puzzle") && shown.contains("input55.txt"),
        "{shown}"
    );
    let report = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("12 solves done of 12 (complete); 2 runs per puzzle and solver"),
        "{report}"
    );
    assert!(!report.contains("replay"), "no games to replay:\n{report}");
    let per_puzzle = report
        .lines()
        .find(|l| l.starts_with("| unsolvable_cross.txt | 5x5 |"))
        .expect("a row per puzzle");
    assert_eq!(per_puzzle.matches("unsolvable ").count(), 3, "{per_puzzle}");
    let bad = write_experiment(
        dir.path(),
        "bad.toml",
        "kind = \"puzzles\"\nsolvers = [\"magic\"]\npuzzles = [\"x.txt\"]\n",
    );
    assert_input_error(
        &run(&["run", bad.to_str().expect("utf8")]),
        &["bad.toml: line 2: unknown flow solver 'magic'"],
    );
    let missing = write_experiment(
        dir.path(),
        "missing.toml",
        "kind = \"puzzles\"\nsolvers = [\"paths\"]\npuzzles = [\"nowhere.txt\"]\n",
    );
    assert_input_error(
        &run(&["run", missing.to_str().expect("utf8")]),
        &["line 3: nowhere.txt: no such puzzle file"],
    );
}

#[test]
fn word_sudoku_solves_inputs_and_proves_the_decoy_minimum() {
    let dir = "matchups/puzzles/word-sudoku";
    let output = run(&[
        "solve",
        &format!("{dir}/grid1.txt"),
        "--bank",
        &format!("{dir}/bank1.txt"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        text.lines().count(),
        9 + 19 + 6,
        "grid, one line per word, status and five counters:\n{text}"
    );
    assert!(text.contains("status: solved (mrv-lcv"), "{text}");
    let output = run(&[
        "solve",
        &format!("{dir}/grid3.txt"),
        "--bank",
        &format!("{dir}/bank3.txt"),
        "--solver",
        "fewest",
    ]);
    let text = stdout(&output);
    assert!(
        text.contains("status: solved (fewest, 17 words placed)"),
        "{text}"
    );
    assert_eq!(
        text.matches("(N/A): ").count(),
        5,
        "22 words, 17 placed:\n{text}"
    );
    // Without --solver, the decoys are found (no placement holds every word) and fewest
    // solves it, saying so; with --solver mrv-lcv the answer stays unsolvable, with a hint.
    let grid = format!("{dir}/grid3.txt");
    let bank = format!("{dir}/bank3.txt");
    let text = stdout(&run(&["solve", &grid, "--bank", &bank]));
    assert!(
        text.starts_with(
            "note: no placement uses every one of the 22 bank words: the bank has decoys"
        ) && text.contains("status: solved (mrv-lcv, then fewest, 17 words placed)"),
        "{text}"
    );
    let text = stdout(&run(&[
        "solve", &grid, "--bank", &bank, "--solver", "mrv-lcv",
    ]));
    assert!(
        text.contains("--solver fewest") && text.contains("status: unsolvable (mrv-lcv)"),
        "{text}"
    );
    let output = run(&[
        "solve",
        &format!("{dir}/grid2.txt"),
        "--bank",
        &format!("{dir}/bank2.txt"),
        "--solver",
        "plain",
        "--max-nodes",
        "1000",
    ]);
    assert!(
        stdout(&output).starts_with("status: limit (plain)"),
        "{}",
        stdout(&output)
    );
    assert_input_error(
        &run(&[
            "solve",
            &format!("{dir}/grid1.txt"),
            "--bank",
            &format!("{dir}/grid1.txt"),
        ]),
        &["grid1.txt: line 1: '__G______' is not a word of letters"],
    );
}

#[test]
fn puzzle_experiments_take_word_sudoku_inputs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = format!(
        "{}/matchups/puzzles/word-sudoku",
        env!("CARGO_MANIFEST_DIR")
    );
    let experiment = write_experiment(
        dir.path(),
        "w.toml",
        &format!(
            "kind = \"puzzles\"\nword_solvers = [\"mrv-lcv\", \"fewest\"]\nword_sudoku = [\n  {{ grid = \"{root}/grid1.txt\", bank = \"{root}/bank1.txt\" }},\n  {{ grid = \"{root}/grid3.txt\", bank = \"{root}/bank3.txt\", decoys = true }},\n]\n"
        ),
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let (_, rows) = read_csv(&out.join("solves.csv"));
    let summary: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r[0].clone(), r[4].clone(), r[6].clone()))
        .collect();
    assert_eq!(
        summary,
        vec![
            (
                "grid1.txt".to_string(),
                "mrv-lcv".to_string(),
                "solved".to_string()
            ),
            (
                "grid3.txt".to_string(),
                "fewest".to_string(),
                "solved".to_string()
            ),
        ]
    );
    let bad = write_experiment(
        dir.path(),
        "bad.toml",
        "kind = \"puzzles\"\nword_solvers = [\"guess\"]\nword_sudoku = [{ grid = \"g.txt\", bank = \"b.txt\" }]\n",
    );
    assert_input_error(
        &run(&["run", bad.to_str().expect("utf8")]),
        &["bad.toml: line 3:", "no such file"],
    );
}

#[test]
fn no_moves_leaves_out_moves_csv_and_keeps_everything_else() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(dir.path(), "small.toml", SMALL);
    let full = dir.path().join("full");
    let lean = dir.path().join("lean");
    run_quietly(&experiment, &full);
    let output = run(&[
        "run",
        experiment.to_str().expect("utf8"),
        "--out",
        lean.to_str().expect("utf8"),
        "--no-moves",
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(full.join("moves.csv").is_file() && full.join("games.pgn").is_file());
    assert!(!lean.join("moves.csv").exists(), "moves.csv written anyway");
    assert!(!lean.join("games.pgn").exists(), "games.pgn written anyway");
    for file in ["summary.csv", "nodes_by_depth.csv"] {
        assert_same_csv(&full.join(file), &lean.join(file), file);
    }
    // games.csv: the same columns and games, the moves column left empty.
    let (full_games, lean_games) = (
        without_timing(&full.join("games.csv")),
        without_timing(&lean.join("games.csv")),
    );
    assert_eq!(full_games[0], lean_games[0], "columns");
    let moves = lean_games[0]
        .iter()
        .position(|c| c == "moves")
        .expect("moves");
    assert_eq!(full_games.len(), lean_games.len());
    for (mut kept, lean_row) in full_games.into_iter().zip(lean_games).skip(1) {
        assert!(!kept[moves].is_empty() && lean_row[moves].is_empty());
        kept[moves].clear();
        assert_eq!(kept, lean_row);
    }
    assert!(lean.join("report.md").is_file() && lean.join("index.html").is_file());
    // No moves, nothing to watch: the viewer is left out and a game page says why.
    let index = fs::read_to_string(lean.join("index.html")).expect("index.html");
    assert!(!index.contains("id=\"watch\""));
    let page = run(&["report", lean.to_str().expect("utf8"), "--game", "0"]);
    assert_eq!(page.status.code(), Some(2));
    assert!(
        stderr(&page).contains("played with --no-moves: no moves were recorded"),
        "{}",
        stderr(&page)
    );
    // The journal of a stopped lean run holds no moves either (empty move text is left
    // out of a record).
    let stopped = dir.path().join("stopped");
    let output = run(&[
        "run",
        experiment.to_str().expect("utf8"),
        "--out",
        stopped.to_str().expect("utf8"),
        "--no-moves",
        "--quiet",
        "--max-games",
        "4",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let journal = fs::read_to_string(stopped.join("journal.jsonl")).expect("journal");
    assert_eq!(journal.lines().count(), 4);
    for line in journal.lines() {
        assert!(
            !line.contains("],\"moves\":") && !line.contains("\"move_text\""),
            "{line}"
        );
    }

    let meta = fs::read_to_string(lean.join("meta.json")).expect("meta.json");
    assert!(meta.contains("\"no_moves_csv\": true"), "{meta}");
    // The same from the experiment file, and no such thing for a puzzle experiment.
    let keyed = write_experiment(
        dir.path(),
        "keyed.toml",
        &format!("{SMALL}moves_csv = false\n"),
    );
    let from_file = dir.path().join("from_file");
    run_quietly(&keyed, &from_file);
    assert!(!from_file.join("moves.csv").exists());
    let puzzles = write_experiment(
        dir.path(),
        "puzzles.toml",
        &format!(
            "kind = \"puzzles\"\nsolvers = [\"sat\"]\npuzzles = [\"{}/matchups/puzzles/flow/input55.txt\"]\n",
            env!("CARGO_MANIFEST_DIR")
        ),
    );
    assert_input_error(
        &run(&["run", puzzles.to_str().expect("utf8"), "--no-moves"]),
        &["--no-moves", "puzzles.toml", "not a game experiment"],
    );
}

/// Runs `args` with arbiter, waits until `journal` holds at least `lines` lines, sends
/// SIGINT and returns the output (exit code 130 and a line on how to resume expected).
/// Progress lines come every millisecond: a fast machine may reach `lines` within a
/// coarser interval, and the test reads the lines.
fn interrupt_after_journal_lines(args: &[&str], journal: &Path, lines: usize) -> Output {
    let child = arbiter()
        .args(args)
        .env("ARBITER_PROGRESS_EVERY", "0.001")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while fs::read_to_string(journal).map_or(0, |t| t.lines().count()) < lines {
        assert!(std::time::Instant::now() < deadline, "nothing journaled");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("stopped:") && stderr(&output).contains("--resume"),
        "{}",
        stderr(&output)
    );
    output
}

/// Runs `experiment` into `out`, interrupts it once `lines` jobs are journaled, checks
/// the progress lines (of `unit`, standard error not being a terminal) and meta.json, and
/// returns how many jobs it finished.
fn interrupted_run(experiment: &Path, out: &Path, lines: usize, unit: &str) -> usize {
    let output = interrupt_after_journal_lines(
        &[
            "run",
            experiment.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
        ],
        &out.join("journal.jsonl"),
        lines,
    );
    let err = stderr(&output);
    assert!(
        err.contains(&format!(" {unit}, ")) && err.contains(&format!(" {unit}/s, ")),
        "{err}"
    );
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["status"], "interrupted");
    meta["games_played"].as_u64().expect("count") as usize
}

#[test]
fn every_kind_of_run_writes_the_files_it_wrote_before() {
    let dir = tempfile::tempdir().expect("temp dir");
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    for (experiment, name, files) in [
        (
            "matchups/quick.toml",
            "quick",
            &[
                "games.csv",
                "moves.csv",
                "summary.csv",
                "nodes_by_depth.csv",
            ][..],
        ),
        (
            "matchups/search-double-card.toml",
            "search-double-card",
            &["search.csv", "search_summary.csv"][..],
        ),
        ("tests/golden/puzzles.toml", "puzzles", &["solves.csv"][..]),
    ] {
        let out = dir.path().join(name);
        run_quietly(Path::new(experiment), &out);
        for file in files {
            assert_same_csv(
                &golden.join(name).join(file),
                &out.join(file),
                &format!("{name}/{file}"),
            );
        }
    }
}

#[test]
fn search_runs_resume_after_ctrl_c_and_print_progress_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    // About 3 s of searches on 2 cores.
    let experiment = write_experiment(
        dir.path(),
        "search.toml",
        "kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"offensive2\"\npositions = 400\nseed = 3\nalgorithms = [\"minimax\", \"alphabeta\"]\ndepths = [1, 2, 3]\n",
    );
    let out = dir.path().join("parts");
    let done = interrupted_run(&experiment, &out, 30, "positions");
    assert!((30..400).contains(&done), "{done}");
    let (_, rows) = read_csv(&out.join("search.csv"));
    assert_eq!(rows.len(), done * 6, "six searches per finished position");
    let output = run(&["run", "--resume", out.to_str().expect("utf8")]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!("({done} already done)")),
        "{}",
        stderr(&output)
    );
    assert!(!out.join("journal.jsonl").exists());
    let whole = dir.path().join("whole");
    run_quietly(&experiment, &whole);
    for file in ["search.csv", "search_summary.csv"] {
        assert_same_csv(&whole.join(file), &out.join(file), file);
    }
    assert!(out.join("nodes_vs_depth.svg").is_file());
}

#[test]
fn compare_runs_mcts_at_its_iteration_budgets_reproducibly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let compare = |name: &str| {
        let out = dir.path().join(name);
        let output = run(&[
            "compare",
            "wights",
            "--heuristic",
            "material",
            "--depths",
            "1..2",
            "--positions",
            "5",
            "--algorithms",
            "alphabeta,mcts",
            "--iterations",
            "50,400",
            "--out",
            out.to_str().expect("utf8"),
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        out
    };
    let (first, second) = (compare("a"), compare("b"));
    let (header, rows) = read_csv(&first.join("search.csv"));
    let col = |name: &str| header.iter().position(|h| h == name).expect(name);
    // Two depths of alpha-beta and two budgets of MCTS on each of 5 positions.
    assert_eq!(rows.len(), 5 * 4);
    let mcts: Vec<&Vec<String>> = rows
        .iter()
        .filter(|r| r[col("algorithm")].starts_with("mcts(iterations="))
        .collect();
    assert_eq!(mcts.len(), 10);
    for row in &mcts {
        // One evaluated node per iteration; the depth is the tree's, its levels listed.
        let budget = if row[col("algorithm")].contains("=50)") {
            "50"
        } else {
            "400"
        };
        assert_eq!(row[col("evaluated")], budget);
        let levels = row[col("nodes_by_level")].split(';').count();
        assert_eq!(
            levels - 1,
            row[col("depth")].parse::<usize>().expect("depth")
        );
    }
    // A fixed iteration budget is seeded: the same comparison gives the same moves.
    assert_eq!(
        without_timing(&first.join("search.csv")),
        without_timing(&second.join("search.csv"))
    );
    let markdown = fs::read_to_string(first.join("report.md")).expect("report.md");
    assert!(
        markdown.contains("| alphabeta depth 2 |") && markdown.contains("iteration budget"),
        "{markdown}"
    );
    // The budgets are kept with the comparison, for --resume.
    let meta = fs::read_to_string(first.join("meta.json")).expect("meta");
    assert!(meta.contains("iterations = [50, 400]"), "{meta}");

    let bad = run(&[
        "compare",
        "wights",
        "--heuristic",
        "material",
        "--algorithms",
        "mcts",
        "--iterations",
        "many",
    ]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("--iterations: 'many'"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn equal_budget_matchups_get_a_scaling_chart_and_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "scaling.toml",
        "game = \"wights\"\ngames = 2\nseed = 3\nmatchups = [\n  [\"mcts(iterations=20)\", \"alphabeta(heuristic=material,nodes=20)\"],\n  [\"mcts(iterations=200)\", \"alphabeta(heuristic=material,nodes=200)\"],\n  [\"mcts(iterations=200)\", \"alphabeta(heuristic=material,depth=2)\"],\n]\n",
    );
    let out = dir.path().join("run");
    run_quietly(&experiment, &out);
    let markdown = fs::read_to_string(out.join("report.md")).expect("report.md");
    let section = markdown
        .split("## Win rate against nodes per move")
        .nth(1)
        .unwrap_or_else(|| panic!("no scaling section: {markdown}"));
    // One line (the pair without its budget) with a point per budget; the fixed-depth
    // matchup is not on it.
    assert!(
        section.contains("| nodes per move | mcts vs alphabeta(heuristic=material) |"),
        "{section}"
    );
    assert!(
        section.contains("\n| 20 | ") && section.contains("\n| 200 | "),
        "{section}"
    );
    assert!(!section.contains("depth=2"), "{section}");
    assert!(out.join("scaling_nodes.png").is_file() && out.join("scaling_nodes.svg").is_file());
    assert!(!out.join("scaling_time.png").exists());
}

#[test]
fn compare_resumes_from_its_own_command_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("parts");
    let args = [
        "compare",
        "breakthrough",
        "--heuristic",
        "defensive2",
        "--depths",
        "1..3",
        "--algorithms",
        "minimax,alphabeta",
        "--positions",
        "400",
        "--seed",
        "8",
    ];
    let mut interrupted: Vec<&str> = args.to_vec();
    let out_text = out.to_str().expect("utf8");
    interrupted.extend(["--out", out_text]);
    interrupt_after_journal_lines(&interrupted, &out.join("journal.jsonl"), 20);
    let output = run(&["run", "--resume", out_text, "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let whole = dir.path().join("whole");
    let mut complete: Vec<&str> = args.to_vec();
    let whole_text = whole.to_str().expect("utf8");
    complete.extend(["--out", whole_text, "--quiet"]);
    let output = run(&complete);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_same_csv(
        &whole.join("search.csv"),
        &out.join("search.csv"),
        "search.csv",
    );
}

#[test]
fn puzzle_runs_resume_after_ctrl_c_and_print_progress_lines() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flow = Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/puzzles/flow/input77.txt");
    // The dumb solver on a 7x7 stops at its node limit: about 0.1 s a solve, 120 solves.
    let experiment = write_experiment(
        dir.path(),
        "puzzles.toml",
        &format!(
            "kind = \"puzzles\"\nsolvers = [\"dumb\", \"smart-fc\"]\npuzzles = [{:?}]\nrepetitions = 60\nseed = 4\nmax_nodes = 100000\n",
            flow.display().to_string()
        ),
    );
    let out = dir.path().join("parts");
    let done = interrupted_run(&experiment, &out, 10, "solves");
    assert!((10..120).contains(&done), "{done}");
    let (_, rows) = read_csv(&out.join("solves.csv"));
    assert_eq!(rows.len(), done);
    let output = run(&["run", "--resume", out.to_str().expect("utf8"), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let whole = dir.path().join("whole");
    run_quietly(&experiment, &whole);
    assert_same_csv(
        &whole.join("solves.csv"),
        &out.join("solves.csv"),
        "solves.csv",
    );
    let shown = stdout(&run(&["show", out.to_str().expect("utf8")]));
    assert!(
        shown.contains("120 of 120 solves") && shown.contains("complete"),
        "{shown}"
    );
}

/// `arbiter match` plays one matchup without a file: the same games as `run` on the
/// equivalent experiment file, and agent mistakes named by argument.
#[test]
fn match_plays_a_matchup_without_a_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let matched = dir.path().join("matched");
    let output = run(&[
        "match",
        "ab3-offensive1",
        "greedy(heuristic=defense)",
        "--games",
        "4",
        "--seed",
        "7",
        "--out",
        matched.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let experiment = write_experiment(
        dir.path(),
        "same.toml",
        "game = \"breakthrough\"\ngames = 4\nseed = 7\nmatchups = [[\"ab3-offensive1\", \"greedy(heuristic=defense)\"]]\n",
    );
    let ran = dir.path().join("ran");
    let output = run(&[
        "run",
        experiment.to_str().expect("utf8"),
        "--out",
        ran.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["games.csv", "moves.csv", "summary.csv"] {
        assert_same_csv(&matched.join(file), &ran.join(file), file);
    }
    let meta = fs::read_to_string(matched.join("meta.json")).expect("meta");
    assert!(meta.contains("\"experiment\": \"match\""), "{meta}");
    // Live standings every 2 games, on standard error; the end prints show's tables.
    let live = dir.path().join("live");
    let output = run(&[
        "match",
        "ab3-offensive1",
        "greedy(heuristic=defense)",
        "--games",
        "4",
        "--seed",
        "7",
        "--standings",
        "2",
        "--out",
        live.to_str().expect("utf8"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let err = stderr(&output);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("standings")).collect();
    assert_eq!(
        lines,
        ["standings after 2 games:", "standings after 4 games:"],
        "{err}"
    );
    assert!(
        err.contains("  ab3-offensive1 vs greedy(heuristic=defense): "),
        "{err}"
    );
    let shown = run(&["show", live.to_str().expect("utf8")]);
    let tables = stdout(&shown);
    let body = tables.split_once("\n\n").expect("header").1;
    assert!(stdout(&output).starts_with(body), "{}", stdout(&output));

    let output = run(&["match", "ab3-ofensive1", "random"]);
    assert_input_error(&output, &["unknown agent 'ab3-ofensive1': did you mean"]);
    let output = run(&[
        "match",
        "alphabeta(heuristic=lines)",
        "random",
        "--games",
        "2",
    ]);
    assert_input_error(
        &output,
        &["agent 'alphabeta(heuristic=lines)' in breakthrough: unknown heuristic 'lines'"],
    );
}

#[test]
fn connect_four_replays_a_game_written_as_solvers_write_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let moves = dir.path().join("game.txt");
    // Columns 4-7 of the bottom row for P1, P2 on top of the first three.
    fs::write(&moves, "4455667\n").expect("write");
    let output = run(&["replay", "connect-four", text(&moves)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("result: P1 (four-in-a-row)"), "{said}");
    assert!(said.contains(". . . X X X X\n1 2 3 4 5 6 7\n"), "{said}");
    fs::write(&moves, "44444444\n").expect("write");
    let output = run(&["replay", "connect-four", text(&moves)]);
    assert_input_error(&output, &["line 1: ply 7", "column 4 is full"]);
    assert_eq!(
        stdout(&run(&[
            "perft",
            "connect-four(rows=4,columns=5)",
            "--depth",
            "3"
        ])),
        "perft(1) = 5\nperft(2) = 25\nperft(3) = 125\n"
    );
}

#[test]
fn games_from_openings_are_replayed_from_the_opening_in_the_viewer() {
    // The viewer replays a game by the rules from the start: the opening's moves first
    // (before, a Connect Four run with openings failed its report at the first game).
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "c4.toml",
        "game = \"connect-four\"\ngames = 4\nseed = 2\nopenings = { random_plies = 3 }\nmatchups = [[\"random\", \"greedy(heuristic=windows)\"]]\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let page = fs::read_to_string(out.join("index.html")).expect("index.html");
    assert_eq!(
        page.matches("\"opening\":3").count(),
        4,
        "every game starts with its opening"
    );
}

#[test]
fn solve_game_proves_values_with_distances_and_refuses_bad_positions() {
    // Small boards are draws under perfect play, every first move too on 4x4.
    let output = run(&["solve-game", "connect-four(rows=4,columns=4)", "--moves"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("value: draw\n"), "{said}");
    for column in 1..=4 {
        assert!(
            said.contains(&format!("  {column}        draw\n")),
            "{said}"
        );
    }
    assert!(said.contains("method: alpha-beta to the end"), "{said}");
    // P1 holds the bottom row's columns 1-3 under P2's discs: a win in one, at column 4,
    // and every other move lets P2 block (the solver finds how long P1 then lasts).
    let output = run(&[
        "solve-game",
        "connect-four(rows=4,columns=5)",
        "--position",
        "112233",
        "--moves",
    ]);
    let said = stdout(&output);
    assert!(
        said.contains("value: P1 (to move) wins in 1 ply\nbest move: 4\n"),
        "{said}"
    );
    assert!(said.contains("  4        win in 1 ply\n"), "{said}");
    // P1 has three in the middle of the bottom row with both ends open: whatever P2 does,
    // P1 wins next move.
    let output = run(&[
        "solve-game",
        "connect-four(rows=4,columns=5)",
        "--position",
        "2;2;3;3;4",
        "--moves",
    ]);
    let said = stdout(&output);
    assert!(
        said.contains("value: P2 (to move) loses in 2 plies\n"),
        "{said}"
    );
    assert_eq!(said.matches("loss in 2 plies\n").count(), 5, "{said}");
    // The value alone: no distance.
    let output = run(&[
        "solve-game",
        "connect-four(rows=4,columns=5)",
        "--position",
        "22334",
        "--no-distance",
    ]);
    assert!(stdout(&output).contains("value: P2 (to move) loses\n"));
    // A finished game is said to be over.
    let output = run(&["solve-game", "connect-four", "--position", "1212121"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("the game is over: P1 (four-in-a-row)"));
    // A search cut short by the time limit says so, with exit 4 and no value.
    let output = run(&["solve-game", "connect-four", "--time-limit", "0.2"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert!(stdout(&output).contains("not solved within --time-limit 0.2 s"));
    assert!(!stdout(&output).contains("value:"));
    assert_input_error(
        &run(&["solve-game", "connect-four(rows=4)", "--position", "11111"]),
        &["--position: ply 5", "column 1 is full"],
    );
    assert_input_error(
        &run(&["solve-game", "connect-four", "--position", "1;x"]),
        &["--position: ply 2", "'x'"],
    );
    assert_input_error(
        &run(&["solve-game", "connect-four", "--position", "1212121;3"]),
        &["--position: ply 8 (3): the game is already over"],
    );
    assert_input_error(
        &run(&["solve-game", "connect-four", "--time-limit=0"]),
        &["--time-limit 0: give a positive number of seconds"],
    );
    assert_input_error(&run(&["solve-game", "go"]), &["game 'go'", "unknown game"]);
}

/// The FFO endgame test positions (tests/oracles/ffo-40-59.txt), their published exact
/// disc margins and best moves: `first..=last` solved one by one with `--margin`, each
/// value checked, the solver's best move one of the published ones. Returns the positions
/// each visited.
fn check_ffo_positions(first: u32, last: u32) -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracles/ffo-40-59.txt");
    let text = fs::read_to_string(&path).expect("the FFO set");
    let mut visited_counts = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [number, board, side, margin, best] = fields[..] else {
            panic!("{}: bad line {line}", path.display());
        };
        let number: u32 = number.parse().expect("number");
        if !(first..=last).contains(&number) {
            continue;
        }
        let output = run(&[
            "solve-game",
            "othello",
            "--margin",
            "--board",
            &format!("{board} {side}"),
        ]);
        assert!(output.status.success(), "#{number}: {}", stderr(&output));
        let said = stdout(&output);
        let margin: i32 = margin.parse().expect("margin");
        let player = if side == "X" { "P1" } else { "P2" };
        let value = match margin {
            0 => "draw".to_string(),
            m if m > 0 => format!("{player} (to move) wins by {m}"),
            m => format!("{player} (to move) loses by {}", -m),
        };
        assert!(
            said.contains(&format!("value: {value}\n")),
            "FFO #{number}: expected {value}, the solver said:\n{said}"
        );
        let played = said
            .lines()
            .find_map(|l| l.strip_prefix("best move: "))
            .expect("a best move");
        assert!(
            best.split(',').any(|m| m == played),
            "FFO #{number}: best move {played}, published {best}"
        );
        let visited = said
            .lines()
            .find_map(|l| l.strip_prefix("nodes: "))
            .and_then(|l| {
                l.split(" expanded, ")
                    .nth(1)?
                    .split(' ')
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("FFO #{number}: no count of positions in:\n{said}"));
        visited_counts.push(visited);
    }
    assert_eq!(visited_counts.len() as u32, last - first + 1);
    visited_counts
}

/// The first FFO positions (20-23 empties) on every run of the tests, a few seconds each.
#[test]
fn ffo_endgame_positions_40_to_43_are_solved_to_their_published_disc_margins() {
    check_ffo_positions(40, 43);
}

/// FFO #59 (34 empties, the side to move wipes the opponent out: +64) in a few thousand
/// positions: a test that only a wipe-out passes is ordered fastest first (the mobility
/// estimate's order had visited 3.28e9 positions, 243 s).
#[test]
fn ffo_59_wipe_out_is_proven_in_a_few_thousand_positions() {
    let visited = check_ffo_positions(59, 59)[0];
    assert!(visited < 100_000, "FFO #59: {visited} positions visited");
}

/// The whole FFO set, #40-#59 (20-34 empties): about 24 minutes of one core (#55 alone
/// 11, docs/speed.md), so run by hand:
/// `cargo test --release --test suite ffo -- --ignored`.
#[test]
#[ignore = "24 minutes of one core: cargo test --release --test suite ffo -- --ignored"]
fn ffo_endgame_positions_40_to_59_are_all_solved_to_their_published_disc_margins() {
    check_ffo_positions(40, 59);
}

#[test]
fn solve_game_by_margin_and_from_a_board_text_refuses_what_a_game_cannot_do() {
    // Black's discs everywhere but h8: nobody can move, the game is over.
    let over = format!("{}- X", "X".repeat(63));
    let output = run(&["solve-game", "othello", "--margin", "--board", &over]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("the game is over"),
        "{}",
        stdout(&output)
    );
    // A board text, then moves from it: the FFO #40 position after its best move.
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let output = run(&[
        "solve-game",
        "othello",
        "--margin",
        "--board",
        ffo40,
        "--position",
        "a2",
        "--moves",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("value: P2 (to move) loses by 38\n"), "{said}");
    // Each of white's replies with its margin for white: none better than the value.
    assert!(said.contains(" loss by 38\n"), "{said}");
    assert!(
        !said.contains(" win by") && !said.contains("loss by 36\n"),
        "{said}"
    );
    assert!(said.contains("method: alpha-beta to the end"), "{said}");
    assert_input_error(
        &run(&["solve-game", "othello", "--board", "OX X"]),
        &["--board: 3 squares and marks where 64 squares"],
    );
    assert_input_error(
        &run(&[
            "solve-game",
            "othello",
            "--board",
            &ffo40.replace(" X", " Z"),
        ]),
        &["--board: side to move 'Z': expected X or O"],
    );
    assert_input_error(
        &run(&["solve-game", "connect-four", "--board", "x"]),
        &["--board: connect-four reads no position texts"],
    );
    assert_input_error(
        &run(&["solve-game", "connect-four", "--margin"]),
        &["--margin: connect-four scores a win, a loss or a draw, no margin"],
    );
}

/// Connect Four's 6x7 start, the published result (first proven in 1988 by James D. Allen
/// and by Victor Allis; John Tromp's database: the first player wins in 41 plies, with the
/// centre column): proven by the generic solver with its game hooks, from the empty board,
/// with no opening book, in about 2.5 minutes of one core on the 2-core machine (1.04e9
/// positions; docs/speed.md). The slowest test of the suite: it runs beside the others.
#[test]
fn connect_fours_start_is_proven_a_first_player_win_in_41_plies_without_a_book() {
    let output = run(&["solve-game", "connect-four"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(
        said.contains("value: P1 (to move) wins in 41 plies\nbest move: 4\n"),
        "{said}"
    );
}

/// tests/golden/perft.csv: perft counts with their sources, each one counted again.
#[test]
fn perft_equals_the_golden_counts_and_their_sources() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/perft.csv");
    let (header, rows) = read_csv(&path);
    assert_eq!(header, ["game", "depth", "leaves", "source"]);
    let mut deepest: BTreeMap<String, (u32, Vec<String>)> = BTreeMap::new();
    for row in &rows {
        assert!(!row[3].trim().is_empty(), "{row:?} has no source");
        let depth: u32 = row[1].parse().expect("depth");
        let entry = deepest.entry(row[0].clone()).or_default();
        entry.0 = entry.0.max(depth);
        entry.1.push(format!("perft({depth}) = {}", row[2]));
    }
    assert!(deepest.len() >= 4);
    for (game, (depth, lines)) in deepest {
        let output = run(&["perft", &game, "--depth", &depth.to_string()]);
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        let printed: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
        for line in lines {
            assert!(printed.contains(&line), "{game}: {line} not in {printed:?}");
        }
    }
}

#[test]
fn index_html_opens_with_its_contents_and_names_the_experiment_file_plainly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/quick.toml");
    let out = dir.path().join("out");
    // Given by its absolute path, the file is named from the project's matchups/ folder.
    let output = run(&["run", text(&quick), "--out", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let page = fs::read_to_string(out.join("index.html")).expect("index.html");
    assert!(
        page.contains("Experiment: quick (matchups/quick.toml)"),
        "header"
    );
    assert!(
        !page.contains(env!("CARGO_MANIFEST_DIR")),
        "no absolute path"
    );
    let nav = page.find("<nav>").expect("a table of contents");
    let first = page.find("<h2").expect("sections");
    assert!(nav < first, "the contents come before the first section");
    for anchor in ["section-1", "watch", "files"] {
        assert!(
            page.contains(&format!("<a href=\"#{anchor}\">")),
            "{anchor}"
        );
        assert!(page.contains(&format!("id=\"{anchor}\"")), "{anchor}");
    }
}

#[test]
fn the_last_progress_line_of_a_stopped_run_announces_no_time_left() {
    let dir = tempfile::tempdir().expect("temp dir");
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/quick.toml");
    let out = dir.path().join("out");
    let output = run(&["run", text(&quick), "--out", text(&out), "--max-games", "5"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let said = stderr(&output);
    let last = said
        .lines()
        .find(|l| l.starts_with("stopped: 5/"))
        .unwrap_or_else(|| panic!("no final progress line in {said}"));
    assert!(!last.contains("left"), "{last}");
}

#[test]
fn usage_errors_are_one_line_with_a_suggestion_and_no_command_gives_the_usage() {
    assert_input_error(
        &run(&["runn"]),
        &["unrecognized subcommand 'runn'", "'run'"],
    );
    assert_input_error(
        &run(&["run", "--gmaes", "3"]),
        &["unexpected argument '--gmaes'", "'--games'"],
    );
    // No command: the usage line and one line saying where the commands are, exit 2.
    let output = run(&[]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "Usage: arbiter <COMMAND>\nerror: no command given: `arbiter --help` lists the commands\n"
    );
    let output = run(&["emit"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).ends_with("`arbiter emit --help` lists the commands\n"));
    assert!(stdout(&output).is_empty());
}

#[test]
fn misspelt_heuristics_and_keys_are_named_with_a_suggestion() {
    assert_input_error(
        &run(&[
            "compare",
            "breakthrough",
            "--heuristic",
            "ofensive2",
            "--depths",
            "1",
        ]),
        &[
            "error: --heuristic: unknown heuristic 'ofensive2'",
            "did you mean 'offensive2'?",
        ],
    );
    // An algorithm key misspelt reaches the heuristic, which names both kinds of key.
    assert_input_error(
        &run(&[
            "match",
            "alphabeta(heuristic=offensive2,dept=3)",
            "random",
            "--games",
            "2",
        ]),
        &[
            "unknown parameter 'dept'",
            "depth, time_ms",
            "did you mean 'depth'?",
        ],
    );
}

#[test]
fn list_shows_one_game_when_asked() {
    let output = run(&["list", "--game", "othello"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("heuristics for othello"), "{said}");
    assert!(
        said.contains("squares:") && said.contains("alphabeta-tt"),
        "{said}"
    );
    for other in [
        "heuristics for breakthrough",
        "flow free solvers",
        "connect-four  (",
    ] {
        assert!(!said.contains(other), "{other} in {said}");
    }
    // A spec with parameters names its game too.
    let output = run(&["list", "--game", "connect-four(rows=5)"]);
    assert!(stdout(&output).contains("heuristics for connect-four"));
    assert_input_error(
        &run(&["list", "--game", "chess"]),
        &["game 'chess'", "unknown game"],
    );
}

#[test]
fn a_chart_that_cannot_be_written_is_named_in_one_line_of_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let quick = Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/quick.toml");
    let out = dir.path().join("out");
    let output = run(&["run", text(&quick), "--out", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // A folder where the chart goes: its writer fails as on a full disk.
    fs::remove_file(out.join("winrates.png")).expect("chart");
    fs::create_dir(out.join("winrates.png")).expect("folder");
    let output = run(&["report", text(&out)]);
    assert_input_error(
        &output,
        &["winrates.png: cannot draw the chart: Is a directory"],
    );
    assert!(!stderr(&output).contains("Os {"), "{}", stderr(&output));
}

#[test]
fn one_agent_under_two_names_is_rated_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The sweep's enemy_weight=1 is offensive2's default: ab3-offensive2 under another name.
    let experiment = write_experiment(
        dir.path(),
        "alike.toml",
        "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"ab3-offensive2\", \"random\"]]\n[[sweep]]\nagent = \"alphabeta(heuristic=offensive2,depth=3,enemy_weight=[1,2])\"\nopponents = [\"greedy(heuristic=offense)\"]\n",
    );
    let out = dir.path().join("out");
    let output = run(&[
        "run",
        text(&experiment),
        "--out",
        text(&out),
        "--quiet",
        "--agents",
        concat!(env!("CARGO_MANIFEST_DIR"), "/agents"),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let shown = stdout(&run(&["show", text(&out)]));
    let ratings = shown
        .split("ratings (Bradley-Terry")
        .nth(1)
        .unwrap_or_else(|| panic!("no ratings in {shown}"));
    assert!(
        ratings.contains("ab3-offensive2 = alphabeta(heuristic=offensive2,depth=3,enemy_weight=1)"),
        "{ratings}"
    );
    // Four players: the merged one, enemy_weight=2, random and greedy; one rank each.
    let ranks = ratings
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert_eq!(ranks, 4, "{ratings}");
}

#[test]
fn a_grid_sweep_is_grouped_in_its_chart_and_matrix() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "grid.toml",
        "game = \"breakthrough\"\ngames = 2\n[[sweep]]\nname = \"g\"\nagent = \"alphabeta(heuristic=offensive2,depth=[1,2],enemy_weight=[0.5,1,2])\"\nopponents = [\"greedy(heuristic=offense)\", \"random\"]\n",
    );
    let out = dir.path().join("out");
    run_quietly(&experiment, &out);
    let svg = fs::read_to_string(out.join("sweep_1.svg")).expect("sweep chart");
    // One line per opponent and depth, never joined across depths: 2 x 2.
    let lines = svg
        .match_indices("<polyline")
        .filter(|(at, _)| {
            svg[*at..]
                .split('>')
                .next()
                .is_some_and(|tag| tag.contains("stroke-width=\"2\""))
        })
        .count();
    assert_eq!(lines, 4, "{svg}");
    for label in ["depth=1", "depth=2", "enemy_weight, grouped by depth"] {
        assert!(svg.contains(label), "{label} not in the chart");
    }
    // The win-rate matrix numbers the six variants together, in their order, before
    // their opponents (which the summary lists after the first variant).
    let matrix = fs::read_to_string(out.join("winrate_matrix.svg")).expect("matrix");
    for (number, name) in [
        "g[depth=1,enemy_weight=0.5]",
        "g[depth=1,enemy_weight=1]",
        "g[depth=1,enemy_weight=2]",
        "g[depth=2,enemy_weight=0.5]",
        "g[depth=2,enemy_weight=1]",
        "g[depth=2,enemy_weight=2]",
    ]
    .iter()
    .enumerate()
    {
        let label = format!("{name} ({})", number + 1);
        assert!(matrix.contains(&label), "{label} not in the matrix");
    }
}

/// `arbiter bench` with every measurement as small as it goes (two rounds), then `extra`.
fn quick_bench<'a>(no_flow: &'a Path, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "bench",
        "--perft-depth",
        "2",
        "--positions",
        "2",
        "--depth",
        "1",
        "--games",
        "10",
        "--external-games",
        "0",
        "--rules-requests",
        "0",
        "--flow",
        text(no_flow),
        "--rounds",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn bench_compares_itself_with_the_bare_kernel_over_rounds_and_writes_json() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("bench.json");
    let output = run(&quick_bench(
        &dir.path().join("none"),
        &["--threads", "2", "--json", text(&json)],
    ));
    assert!(output.status.success(), "{}", stderr(&output));
    let shown = stdout(&output);
    for line in [
        "against the bare kernel (2 rounds in turn",
        "perft: arbiter / bare kernel: ",
        "alpha-beta nodes/s: arbiter / bare kernel: ",
        // What splits the scheduler's ratio: the game's own playouts and the clock's reading.
        "game's own random playouts / bare random playouts: ",
        "move clock, one reading: ",
        "move clock reading / bare kernel ply: ",
        // One thread by the process's CPU time: the recording thread counted too.
        "random games through the scheduler, games.csv only, by the process's CPU time: ",
        "scheduler games (games.csv) by CPU time / bare random playouts: ",
        // The scheduler on the bench's threads (all cores by default), as `run` plays.
        "random games through the scheduler on 2 threads, games.csv only: ",
        "scheduler games on 2 threads (games.csv) / bare random playouts on 1 thread: ",
    ] {
        assert!(shown.contains(line), "{line:?} not in:\n{shown}");
    }
    let value: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).expect("json")).expect("valid JSON");
    assert_eq!(value["rounds"], 2);
    let reading = value["figures"]
        .as_array()
        .expect("figures")
        .iter()
        .find(|figure| figure["name"] == "move clock, one reading")
        .expect("the clock's figure");
    assert_eq!(reading["unit"], "ns");
    // A reading of the time-stamp counter or the system's monotonic clock: well under a
    // microsecond, and not free.
    let nanos = reading["median"].as_f64().expect("median");
    assert!(0.1 < nanos && nanos < 1000.0, "{reading}");
    let ratios = value["ratios"].as_array().expect("ratios");
    assert_eq!(ratios.len(), 8);
    for ratio in ratios {
        let values = ratio["values"].as_array().expect("values");
        assert_eq!(values.len(), 2, "{ratio}");
        let (min, median, max) = (
            ratio["min"].as_f64().expect("min"),
            ratio["median"].as_f64().expect("median"),
            ratio["max"].as_f64().expect("max"),
        );
        assert!(0.0 < min && min <= median && median <= max, "{ratio}");
    }
    // Bad rounds: one line, exit 2.
    let bad = run(&["bench", "--rounds", "0"]);
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

#[test]
fn bench_solves_connect_four_positions_with_the_exact_and_a_dedicated_solver_alike() {
    let dir = tempfile::tempdir().expect("temp dir");
    let none = dir.path().join("none");
    let common = quick_bench(&none, &["--game", "connect-four(rows=5,columns=6)"]);
    let output = run(&[
        &common[..],
        &["--solve-positions", "6", "--solve-plies", "4-9"],
    ]
    .concat());
    assert!(output.status.success(), "{}", stderr(&output));
    let shown = stdout(&output);
    for line in [
        "exact solver against a dedicated Connect Four solver: 6 positions 4-9 plies into seeded random games, values and distances equal (2 rounds in turn",
        "  exact solver time / dedicated solver time: ",
        "  positions visited: ",
    ] {
        assert!(shown.contains(line), "{line:?} not in:\n{shown}");
    }
    // Skipped with 0 positions; a range upside down is one line and exit 2.
    let skipped = run(&[&common[..], &["--solve-positions", "0"]].concat());
    assert!(skipped.status.success(), "{}", stderr(&skipped));
    assert!(
        !stdout(&skipped).contains("dedicated"),
        "{}",
        stdout(&skipped)
    );
    let bad = run(&[&common[..], &["--solve-plies", "9-4"]].concat());
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(
        stderr(&bad).contains("'9-4' is not MIN-MAX plies with MIN <= MAX"),
        "{}",
        stderr(&bad)
    );
}

/// Self-play: a stochastic agent against itself plays as many distinct games as it is
/// given (the two games of a colour-swapped pair used to be one game twice), and `show`
/// and report.md say that the matchup's two agents are one.
#[test]
fn a_stochastic_agent_against_itself_plays_distinct_games_and_is_called_self_play() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("out");
    let agent = "mcts(iterations=100)";
    let output = run(&[
        "match",
        agent,
        agent,
        "--game",
        "connect-four",
        "--games",
        "6",
        "--out",
        out.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = common::csv_maps(&out.join("games.csv"));
    assert_eq!(games.len(), 6);
    let distinct: std::collections::BTreeSet<&str> =
        games.iter().map(|g| g["moves"].as_str()).collect();
    assert_eq!(distinct.len(), 6, "a game was played twice: {distinct:?}");
    let shown = run(&["show", out.to_str().expect("utf8")]);
    assert!(
        stdout(&shown).contains("one agent in both seats (self-play)"),
        "{}",
        stdout(&shown)
    );
    let report = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("Matchup 0: one agent in both seats (self-play)"),
        "{report}"
    );
}

/// `arbiter match --no-moves` writes no moves.csv, as `run --no-moves` does.
#[test]
fn match_without_moves_writes_no_moves_csv() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("out");
    let output = run(&[
        "match",
        "random",
        "greedy(heuristic=offense)",
        "--games",
        "4",
        "--no-moves",
        "--out",
        out.to_str().expect("utf8"),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(out.join("games.csv").is_file());
    assert!(!out.join("moves.csv").exists());
}

/// An experiment in a folder of its own with its own `agents/`: those agents and the
/// repository's (`./agents`, the shipped ones) are read together; a name in both is
/// refused, naming both files.
#[test]
fn agents_beside_an_experiment_add_to_the_repositorys() {
    let dir = tempfile::tempdir().expect("dir");
    let private = dir.path().join("private");
    fs::create_dir_all(private.join("agents")).expect("agents");
    fs::write(
        private.join("agents/mine.toml"),
        "[[agent]]\nname = \"mine\"\nalgorithm = \"greedy\"\nheuristic = \"offense\"\n",
    )
    .expect("agent file");
    let experiment = write_experiment(
        &private,
        "exp.toml",
        "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"mine\", \"ab3-offensive2\"]]\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(common::csv_maps(&out.join("games.csv")).len(), 2);
    // The same name in both folders: refused, both files named.
    fs::write(
        private.join("agents/mine.toml"),
        "[[agent]]\nname = \"ab3-offensive2\"\nalgorithm = \"greedy\"\nheuristic = \"offense\"\n",
    )
    .expect("agent file");
    let output = run(&[
        "run",
        text(&experiment),
        "--out",
        text(&dir.path().join("again")),
    ]);
    assert_input_error(
        &output,
        &[
            "agent 'ab3-offensive2' is already defined in",
            "breakthrough.toml",
        ],
    );
}

#[test]
fn grade_finds_no_error_in_perfect_play_and_the_errors_of_random_play() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("run");
    // On 4x4 Connect Four (a draw), alpha-beta to the end of the game plays perfectly.
    let perfect = "alphabeta-tt(heuristic=windows,depth=16,nodes=3000000)";
    let output = run(&[
        "match",
        perfect,
        "random",
        "--game",
        "connect-four(rows=4,columns=4)",
        "--games",
        "10",
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["grade", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("10 games graded"), "{said}");
    // The report shows the grades from now on.
    let report = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("## Play graded against perfect play"),
        "{report}"
    );
    assert!(report.contains(&format!("| {perfect} | ")), "{report}");
    let grades = csv_maps(&out.join("grades.csv"));
    let games = csv_maps(&out.join("games.csv"));
    let plies: usize = games
        .iter()
        .map(|g| g["plies"].parse::<usize>().unwrap_or(0))
        .sum();
    assert_eq!(grades.len(), plies, "one row a move");
    let mut errors: BTreeMap<&str, usize> = BTreeMap::new();
    for row in &grades {
        let (before, after, verdict) = (&row["before"], &row["after"], row["verdict"].as_str());
        // Every position of so small a board is solved.
        assert!(!before.is_empty() && !after.is_empty(), "{row:?}");
        let expected = match (before.as_str(), after.as_str()) {
            ("win", "draw") => "win-to-draw",
            ("win", "loss") => "win-to-loss",
            ("draw", "loss") => "draw-to-loss",
            _ => "kept",
        };
        assert_eq!(verdict, expected, "{row:?}");
        if verdict != "kept" {
            *errors
                .entry(if row["agent"] == perfect {
                    "perfect"
                } else {
                    "random"
                })
                .or_default() += 1;
        }
        // The start is a draw (4x4 Connect Four is drawn under perfect play).
        if row["ply"] == "1" {
            assert_eq!(before, "draw", "{row:?}");
        }
    }
    assert_eq!(errors.get("perfect"), None, "perfect play errs: {said}");
    // Perfect play never loses a drawn game: every decided game was won by it, after
    // random's error.
    for game in &games {
        assert_ne!(game["winner_agent"], "random", "{game:?}");
        if !game["winner_agent"].is_empty() {
            assert!(errors.get("random").is_some_and(|&n| n > 0), "{said}");
        }
    }
    // The last move of a won game leaves its mover a win.
    for game in games.iter().filter(|g| !g["winner_agent"].is_empty()) {
        let last = grades
            .iter()
            .rfind(|r| r["game_id"] == game["game_id"])
            .expect("moves");
        assert_eq!(last["after"], "win", "{last:?}");
        assert_eq!(last["agent"], game["winner_agent"], "{last:?}");
    }

    // With an opening (two random plies before the agents' moves, in games.csv's own
    // column), perfect play still errs nowhere: the positions are the games' own.
    let experiment = write_experiment(
        dir.path(),
        "opened.toml",
        &format!(
            "game = \"connect-four(rows=4,columns=4)\"\ngames = 6\nseed = 4\nopenings = {{ random_plies = 2 }}\nmatchups = [[\"{perfect}\", \"random\"]]\n"
        ),
    );
    let opened = dir.path().join("opened");
    let output = run_experiment(&experiment, &opened, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["grade", text(&opened)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let grades = csv_maps(&opened.join("grades.csv"));
    let games = csv_maps(&opened.join("games.csv"));
    assert!(
        games.iter().all(|g| g["opening"].split(';').count() == 2),
        "{games:?}"
    );
    let plies: usize = games
        .iter()
        .map(|g| g["plies"].parse::<usize>().unwrap_or(0))
        .sum();
    assert_eq!(grades.len(), plies);
    for row in grades.iter().filter(|r| r["agent"] == perfect) {
        assert_eq!(row["verdict"], "kept", "{row:?}");
    }
    assert!(grades.iter().any(|r| r["ply"] == "1" && r["seat"] == "P1"));
    // Each game's third move stands where solve-game, given the opening and the first two
    // moves, finds the same value for its mover.
    for game in &games {
        let moves: Vec<&str> = game["moves"].split(';').collect();
        let row = grades
            .iter()
            .find(|r| r["game_id"] == game["game_id"] && r["ply"] == "3")
            .expect("a third move");
        let position = format!("{};{}", game["opening"], moves[..2].join(";"));
        let output = run(&[
            "solve-game",
            "connect-four(rows=4,columns=4)",
            "--position",
            &position,
            "--no-distance",
        ]);
        let said = stdout(&output);
        let value = said
            .lines()
            .find_map(|l| l.strip_prefix("value: "))
            .expect("a value");
        let word = if value.ends_with("wins") {
            "win"
        } else if value.ends_with("loses") {
            "loss"
        } else {
            "draw"
        };
        assert_eq!(row["before"], word, "{position}: {value}; {row:?}");
    }

    // A budget too small for 6x7 grades nothing early and says so.
    let big = dir.path().join("big");
    let output = run(&[
        "match",
        "random",
        "random",
        "--game",
        "connect-four",
        "--games",
        "2",
        "--out",
        text(&big),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["grade", text(&big), "--visits", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("needed more than --visits 1"), "{said}");
    let grades = csv_maps(&big.join("grades.csv"));
    assert!(grades.iter().any(|r| r["verdict"] == "ungraded"), "{said}");
    assert!(
        grades
            .iter()
            .filter(|r| r["verdict"] == "ungraded")
            .all(|r| r["before"].is_empty() || r["after"].is_empty())
    );

    // Bad input, in one line each.
    let output = run(&["grade", text(&dir.path().join("nowhere"))]);
    assert_input_error(&output, &["nowhere", "no such results folder"]);
    let dice = dir.path().join("dice");
    let output = run(&[
        "match",
        "random",
        "random",
        "--game",
        "einstein",
        "--games",
        "2",
        "--out",
        text(&dice),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&["grade", text(&dice)]);
    assert_input_error(
        &output,
        &["games.csv", "two-player game without chance", "einstein"],
    );
    let csv = fs::read_to_string(out.join("games.csv")).expect("games.csv");
    let broken = dir.path().join("broken");
    fs::create_dir_all(&broken).expect("mkdir");
    fs::copy(out.join("meta.json"), broken.join("meta.json")).expect("meta.json");
    let mut lines: Vec<String> = csv.lines().map(str::to_string).collect();
    let last = lines.len() - 1;
    lines[last] = lines[last]
        .replacen(",1;", ",9;", 1)
        .replacen(",2;", ",9;", 1)
        .replacen(",3;", ",9;", 1)
        .replacen(",4;", ",9;", 1);
    fs::write(broken.join("games.csv"), lines.join("\n") + "\n").expect("write");
    let output = run(&["grade", text(&broken)]);
    assert_input_error(&output, &["games.csv", "game 9", "ply 1"]);
}

/// Output to a pipe whose reader has gone (`arbiter solve-game ... | head -1`) ends the
/// command as a closed pipe ends other tools (SIGPIPE, or exit 141 where arbiter ignores
/// SIGPIPE for its programs and Ctrl-C), never with a panic and its backtrace.
#[test]
fn a_closed_standard_output_ends_commands_quietly() {
    use std::os::unix::process::ExitStatusExt;
    for args in [
        &["solve-game", "connect-four(rows=4,columns=4)", "--moves"][..],
        &["list"][..],
    ] {
        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let output = arbiter()
            .args(args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .expect("run arbiter");
        let ended_by_pipe =
            output.status.code() == Some(141) || output.status.signal() == Some(libc::SIGPIPE);
        assert!(
            ended_by_pipe,
            "{args:?}: {:?}, stderr: {}",
            output.status,
            stderr(&output)
        );
        assert!(
            !stderr(&output).contains("panicked"),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// `grade = true` in an experiment grades every move once the games are played: grades.csv
/// with each move's matchup, summary.csv's grading columns per matchup and agent (the
/// run's own columns untouched), the report's section; and what grading cannot do is
/// refused before anything is played, naming the line.
/// Which positions fit in the budget depends on what the solver's table holds; each game
/// gets its own, so the grades are the same whatever thread graded which games (with a
/// table kept by each thread from game to game, 623 of these 1,240 positions were solved
/// on one thread and 610 on two; 601 now, both ways).
#[test]
fn grades_are_the_same_on_one_thread_and_on_two() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("run");
    let output = run(&[
        "match",
        "alphabeta(heuristic=offensive2,depth=3)",
        "alphabeta(heuristic=defensive1,depth=3)",
        "--game",
        "breakthrough(rules=small)",
        "--games",
        "60",
        "--seed",
        "5",
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut graded = Vec::new();
    for threads in ["1", "2"] {
        // Progress lines as often as the watch looks (every 100 ms): the games graded.
        let output = arbiter()
            .args([
                "grade",
                text(&out),
                "--visits",
                "20000",
                "--threads",
                threads,
            ])
            .env("ARBITER_PROGRESS_EVERY", "0.001")
            .output()
            .expect("grade");
        assert!(output.status.success(), "{}", stderr(&output));
        if threads == "1" {
            // About 0.7 s of grading on one thread: several lines.
            assert!(
                stderr(&output).contains(" games graded in "),
                "{}",
                stderr(&output)
            );
        }
        let said = stdout(&output);
        let solved = said
            .lines()
            .find(|l| l.contains("positions solved"))
            .unwrap_or_else(|| panic!("{said}"))
            .to_string();
        graded.push((
            solved,
            fs::read(out.join("grades.csv")).expect("grades.csv"),
        ));
    }
    assert_eq!(graded[0].0, graded[1].0);
    // Some positions are beyond the budget, so the table matters.
    let counts: Vec<u64> = graded[0]
        .0
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        counts.len() >= 3 && counts[1] < counts[2],
        "{}",
        graded[0].0
    );
    assert!(
        graded[0].1 == graded[1].1,
        "grades.csv differs between 1 and 2 threads"
    );
}

#[test]
fn an_experiment_with_grade_grades_its_moves_into_summary_and_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let perfect = "alphabeta-tt(heuristic=windows,depth=16,nodes=3000000)";
    let body = format!(
        "game = \"connect-four(rows=4,columns=4)\"\ngames = 6\nseed = 9\nmatchups = [[\"{perfect}\", \"random\"], [\"random\", \"greedy(heuristic=windows)\"]]\n"
    );
    let plain = write_experiment(dir.path(), "plain.toml", &body);
    let graded = write_experiment(dir.path(), "graded.toml", &format!("{body}grade = true\n"));
    let (plain_out, graded_out) = (dir.path().join("plain"), dir.path().join("graded"));
    run_quietly(&plain, &plain_out);
    run_quietly(&graded, &graded_out);

    let grades = csv_maps(&graded_out.join("grades.csv"));
    let games = csv_maps(&graded_out.join("games.csv"));
    let plies: usize = games
        .iter()
        .map(|g| g["plies"].parse::<usize>().unwrap_or(0))
        .sum();
    assert_eq!(grades.len(), plies, "one row a move");
    for row in &grades {
        let game = games
            .iter()
            .find(|g| g["game_id"] == row["game_id"])
            .expect("its game");
        assert_eq!(row["matchup"], game["matchup"], "{row:?}");
    }
    // The run's own columns are those of the same run without grading.
    let (plain_header, plain_rows) = read_csv(&plain_out.join("summary.csv"));
    let (header, rows) = read_csv(&graded_out.join("summary.csv"));
    assert_eq!(header[..plain_header.len()], plain_header[..]);
    assert_eq!(
        header[plain_header.len()..],
        [
            "graded_moves",
            "errors",
            "error_rate",
            "error_rate_low95",
            "error_rate_high95",
            "blunders",
            "winning_moves",
            "fastest_wins",
            "fastest_rate",
            "fastest_rate_low95",
            "fastest_rate_high95",
            "avg_plies_added"
        ]
    );
    let wins = plain_header.iter().position(|h| h == "wins").expect("wins");
    assert_eq!(rows.len(), plain_rows.len());
    for (row, plain_row) in rows.iter().zip(&plain_rows) {
        assert_eq!(row[wins], plain_row[wins], "the same games: {row:?}");
    }
    // Each summary row counts its own matchup's moves of its agent.
    for map in csv_maps(&graded_out.join("summary.csv")) {
        let mine: Vec<_> = grades
            .iter()
            .filter(|g| g["matchup"] == map["matchup"] && g["agent"] == map["agent"])
            .collect();
        let errors = mine.iter().filter(|g| g["verdict"] != "kept").count();
        assert_eq!(map["graded_moves"], mine.len().to_string(), "{map:?}");
        assert_eq!(map["errors"], errors.to_string(), "{map:?}");
        assert_eq!(
            map["blunders"],
            mine.iter()
                .filter(|g| g["verdict"] == "win-to-loss")
                .count()
                .to_string()
        );
        let rate: f64 = map["error_rate"].parse().expect("a rate");
        let (low, high): (f64, f64) = (
            map["error_rate_low95"].parse().expect("low"),
            map["error_rate_high95"].parse().expect("high"),
        );
        assert!(
            (rate - errors as f64 / mine.len() as f64).abs() < 1e-4,
            "{map:?}"
        );
        assert!(low <= rate && rate <= high, "{map:?}");
        if map["agent"] == perfect {
            assert_eq!(map["errors"], "0", "perfect play errs: {map:?}");
        }
    }
    let report = fs::read_to_string(graded_out.join("report.md")).expect("report.md");
    assert!(
        report.contains("## Play graded against perfect play"),
        "{report}"
    );
    // Graded again by hand, summary.csv's grading columns are replaced, not repeated.
    let output = run(&["grade", text(&graded_out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (again, _) = read_csv(&graded_out.join("summary.csv"));
    assert_eq!(again, header);

    // Refused before any game, naming the line of `grade`.
    let refused = |name: &str, text: &str, extra: &[&str], fragments: &[&str]| {
        refused_before_playing(dir.path(), name, text, extra, fragments);
    };
    refused(
        "word.toml",
        &format!("{body}grade = \"yes\"\n"),
        &[],
        &["word.toml: line 5", "grade = \"yes\""],
    );
    refused(
        "sized.toml",
        &format!("{body}grade = {{ visits = 0 }}\n"),
        &[],
        &["sized.toml: line 5", "visits = 0"],
    );
    refused(
        "unmoved.toml",
        &format!("{body}moves_csv = false\ngrade = true\n"),
        &[],
        &["unmoved.toml: line 6", "grade needs the games' moves"],
    );
    refused(
        "flag.toml",
        &format!("{body}grade = true\n"),
        &["--no-moves"],
        &["--no-moves", "grade"],
    );
    refused(
        "dice.toml",
        "game = \"einstein\"\ngames = 2\nmatchups = [[\"random\", \"random\"]]\ngrade = true\n",
        &[],
        &[
            "dice.toml: line 4",
            "grade needs a two-player game without chance",
        ],
    );
}

/// Graded with distances (`grade = { distances = true }`, `arbiter grade --distances`),
/// grades.csv holds each position's plies to the end under perfect play: a game's winning
/// move leaves a position won in 1 ply for a finished one, no move from a won position
/// wins faster than perfect play, and the table says how many moves kept the fastest win.
/// Without distances the columns are empty.
#[test]
fn grading_with_distances_measures_the_plies_to_the_end_of_every_won_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    let body = "game = \"connect-four(rows=4,columns=4)\"\ngames = 6\nseed = 4\nmatchups = [[\"random\", \"greedy(heuristic=windows)\"]]\n";
    let measured = write_experiment(
        dir.path(),
        "measured.toml",
        &format!("{body}grade = {{ distances = true }}\n"),
    );
    let out = dir.path().join("measured");
    // Not quiet: the tables are printed.
    let output = run(&["run", text(&measured), "--out", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("fastest wins"),
        "{}",
        stdout(&output)
    );
    let games = csv_maps(&out.join("games.csv"));
    let grades = csv_maps(&out.join("grades.csv"));
    let number =
        |row: &BTreeMap<String, String>, column: &str| -> Option<u32> { row[column].parse().ok() };
    let mut won = 0;
    for game in games.iter().filter(|g| g["winner"] != "draw") {
        let last = grades
            .iter()
            .rev()
            .find(|g| g["game_id"] == game["game_id"])
            .expect("its moves");
        // The winning move: from a win in 1 ply to a finished game.
        assert_eq!(last["before"], "win", "{last:?}");
        assert_eq!(number(last, "plies_left_before"), Some(1), "{last:?}");
        assert_eq!(number(last, "plies_left_after"), Some(0), "{last:?}");
        won += 1;
    }
    assert!(won > 0, "no game was won");
    let mut measured_wins = 0;
    for row in &grades {
        if row["before"] == "win" && row["verdict"] == "kept" {
            let (before, after) = (
                number(row, "plies_left_before").expect("measured"),
                number(row, "plies_left_after").expect("measured"),
            );
            // Never faster than perfect play; odd plies to a win for the side to move.
            assert!(after + 1 >= before, "{row:?}");
            assert_eq!(before % 2, 1, "{row:?}");
            measured_wins += 1;
        }
        if row["before"] == "draw" {
            assert_eq!(row["plies_left_before"], "", "{row:?}");
        }
    }
    assert!(measured_wins >= won);
    // summary.csv counts them per matchup and agent: the moves that kept a measured win,
    // those that kept the fastest, and what the others added on average.
    for map in csv_maps(&out.join("summary.csv")) {
        let (mut winning, mut fastest, mut added) = (0u32, 0u32, 0u32);
        for row in grades.iter().filter(|g| {
            g["matchup"] == map["matchup"]
                && g["agent"] == map["agent"]
                && g["before"] == "win"
                && g["verdict"] == "kept"
        }) {
            let extra = number(row, "plies_left_after").expect("after") + 1
                - number(row, "plies_left_before").expect("before");
            winning += 1;
            fastest += u32::from(extra == 0);
            added += extra;
        }
        assert_eq!(map["winning_moves"], winning.to_string(), "{map:?}");
        assert_eq!(map["fastest_wins"], fastest.to_string(), "{map:?}");
        if winning > fastest {
            let mean: f64 = map["avg_plies_added"].parse().expect("a mean");
            let expected = f64::from(added) / f64::from(winning - fastest);
            assert!((mean - expected).abs() < 0.01, "{map:?}");
        } else {
            assert_eq!(map["avg_plies_added"], "", "{map:?}");
        }
        if winning > 0 {
            let [rate, low, high] = ["fastest_rate", "fastest_rate_low95", "fastest_rate_high95"]
                .map(|c| map[c].parse::<f64>().expect("a rate"));
            assert!((rate - f64::from(fastest) / f64::from(winning)).abs() < 1e-4);
            assert!(low <= rate && rate <= high, "{map:?}");
        }
    }
    let report = fs::read_to_string(out.join("report.md")).expect("report.md");
    assert!(
        report.contains("fastest wins") && report.contains("Graded with distances"),
        "{report}"
    );
    // Graded again without distances: the columns are there, empty.
    let output = run(&["grade", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        !stdout(&output).contains("fastest wins"),
        "{}",
        stdout(&output)
    );
    for row in csv_maps(&out.join("grades.csv")) {
        assert_eq!(
            (
                row["plies_left_before"].as_str(),
                row["plies_left_after"].as_str()
            ),
            ("", ""),
            "{row:?}"
        );
    }
    for map in csv_maps(&out.join("summary.csv")) {
        assert_eq!(
            (map["winning_moves"].as_str(), map["fastest_rate"].as_str()),
            ("", ""),
            "{map:?}"
        );
    }
    // And with them from the command line: the same plies as the experiment's.
    let output = run(&["grade", "--distances", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(csv_maps(&out.join("grades.csv")), grades);
    refused_before_playing(
        dir.path(),
        "word.toml",
        &format!("{body}grade = {{ distances = 3 }}\n"),
        &[],
        &["word.toml: line 5", "distances = 3: give true or false"],
    );
}

/// A graded sweep draws each variant's error rate against the swept value and, graded
/// with distances, its share of winning moves that kept the fastest win: one point per
/// variant and opponent, from the same numbers as summary.csv.
#[test]
fn a_graded_sweep_charts_error_rates_and_with_distances_fastest_wins() {
    let dir = tempfile::tempdir().expect("temp dir");
    let body = "game = \"connect-four(rows=4,columns=4)\"\ngames = 4\nseed = 5\n[[sweep]]\nname = \"depth\"\nagent = \"alphabeta(heuristic=windows,depth=[1,3])\"\nopponents = [\"random\"]\n";
    for (name, grade, fastest) in [
        ("plain", "grade = true\n", false),
        ("far", "grade = { distances = true }\n", true),
    ] {
        let file = write_experiment(
            dir.path(),
            &format!("{name}.toml"),
            &format!("{grade}{body}"),
        );
        let out = dir.path().join(name);
        run_quietly(&file, &out);
        assert!(out.join("sweep_1_errors.png").is_file(), "{name}");
        assert_eq!(out.join("sweep_1_fastest.png").is_file(), fastest, "{name}");
        let report = fs::read_to_string(out.join("report.md")).expect("report.md");
        assert!(report.contains("Error rate against depth"), "{report}");
        assert_eq!(
            report.contains("Fastest wins against depth"),
            fastest,
            "{report}"
        );
        if fastest {
            // A variant kept a measured win, so the chart has a point.
            let svg = fs::read_to_string(out.join("sweep_1_fastest.svg")).expect("svg");
            let summary = csv_maps(&out.join("summary.csv"));
            let rates: Vec<&str> = summary
                .iter()
                .filter(|m| m["opponent"] == "random" && !m["fastest_rate"].is_empty())
                .map(|m| m["fastest_rate"].as_str())
                .collect();
            assert!(!rates.is_empty(), "no variant kept a measured win");
            assert!(svg.contains("vs random"), "{svg}");
        }
    }
}

/// `adjudicate = { oracle = true }` ends a game at the first position the exact solver
/// decides within its budget, with that position's value: played by perfect players both
/// ways, no result changes and the games get shorter. Bad settings are one line each.
#[test]
fn the_oracle_ends_games_early_without_changing_a_perfect_players_result() {
    let dir = tempfile::tempdir().expect("temp dir");
    // On 4x4 Connect Four alpha-beta to the end of the game plays perfectly.
    let body = "game = \"connect-four(rows=4,columns=4)\"\ngames = 8\nseed = 5\nopenings = { random_plies = 3 }\nmatchups = [[\"alphabeta-tt(heuristic=windows,depth=16,nodes=3000000)\", \"alphabeta-tt(heuristic=windows,depth=14,nodes=3000000)\"]]\n";
    let plain = write_experiment(dir.path(), "plain.toml", body);
    let judged = write_experiment(
        dir.path(),
        "judged.toml",
        &format!("{body}adjudicate = {{ oracle = true, oracle_visits = 300 }}\n"),
    );
    let (plain_out, judged_out) = (dir.path().join("plain"), dir.path().join("judged"));
    run_quietly(&plain, &plain_out);
    run_quietly(&judged, &judged_out);
    let played = csv_maps(&plain_out.join("games.csv"));
    let ended = csv_maps(&judged_out.join("games.csv"));
    assert_eq!(played.len(), ended.len());
    let plies = |g: &BTreeMap<String, String>| g["plies"].parse::<u64>().expect("plies");
    let mut adjudicated = 0;
    for (full, short) in played.iter().zip(&ended) {
        assert_eq!(full["game_id"], short["game_id"]);
        assert_eq!(full["opening"], short["opening"], "the same openings");
        assert_eq!(
            full["winner"], short["winner"],
            "the oracle changed a result: {full:?} against {short:?}"
        );
        assert!(plies(short) <= plies(full), "{short:?}");
        // The adjudicated game is the played game cut short.
        assert!(full["moves"].starts_with(&short["moves"]), "{short:?}");
        if short["reason"] == "adjudicated-oracle" {
            adjudicated += 1;
            assert!(plies(short) < plies(full), "{short:?}");
        } else {
            assert_eq!(short["reason"], full["reason"]);
        }
    }
    let (before, after): (u64, u64) = (
        played.iter().map(plies).sum(),
        ended.iter().map(plies).sum(),
    );
    assert!(
        adjudicated > 0 && after < before,
        "{adjudicated} adjudicated, {after} of {before} plies"
    );
    eprintln!(
        "oracle: {adjudicated} of {} games adjudicated, {after} plies played of {before} ({:.0}% shorter)",
        ended.len(),
        100.0 * (1.0 - after as f64 / before as f64)
    );
    // Asked from the sixth ply on: no game is ended before it, none changes its result, and
    // the games are longer than with the oracle from the start.
    let later = write_experiment(
        dir.path(),
        "later.toml",
        &format!("{body}adjudicate = {{ oracle = true, oracle_visits = 300, oracle_after = 6 }}\n"),
    );
    let later_out = dir.path().join("later");
    run_quietly(&later, &later_out);
    let later_games = csv_maps(&later_out.join("games.csv"));
    for (full, late) in played.iter().zip(&later_games) {
        assert_eq!(full["winner"], late["winner"], "{late:?}");
        assert!(
            late["reason"] != "adjudicated-oracle" || plies(late) >= 6,
            "adjudicated before ply 6: {late:?}"
        );
    }
    let later_plies: u64 = later_games.iter().map(plies).sum();
    assert!(
        after < later_plies,
        "{after} plies from the start, {later_plies} from ply 6"
    );
    let refused = |name: &str, text: &str, fragments: &[&str]| {
        refused_before_playing(dir.path(), name, text, &[], fragments);
    };
    refused(
        "after.toml",
        &format!("{body}adjudicate = {{ oracle_after = 6 }}\n"),
        &["after.toml: line 6", "oracle_after without oracle = true"],
    );
    refused(
        "zero.toml",
        &format!("{body}adjudicate = {{ oracle = true, oracle_visits = 0 }}\n"),
        &["zero.toml: line 6", "oracle_visits = 0"],
    );
    refused(
        "alone.toml",
        &format!("{body}adjudicate = {{ oracle_visits = 10 }}\n"),
        &["alone.toml: line 6", "oracle_visits without oracle = true"],
    );
    refused(
        "dice.toml",
        "game = \"einstein\"\ngames = 2\nmatchups = [[\"random\", \"random\"]]\nadjudicate = { oracle = true }\n",
        &[
            "dice.toml: line 4",
            "adjudicate's oracle needs a two-player game",
        ],
    );
}

/// Runs the experiment `text` written as `name` in `dir` with `extra` options: one error
/// line holding every fragment, exit 2, and no game played.
fn refused_before_playing(dir: &Path, name: &str, text: &str, extra: &[&str], fragments: &[&str]) {
    let experiment = write_experiment(dir, name, text);
    let out = dir.join(name.replace(".toml", ""));
    assert_input_error(&run_experiment(&experiment, &out, extra), fragments);
    assert!(!out.join("games.csv").exists(), "{name}: nothing played");
}

/// `train-order othello`: positions of seeded games solved into a samples file (the same
/// lines whether made at once or resumed), each the margin `solve-game` finds for it, the
/// pattern weights fitted and written, and bad input refused in one line.
#[test]
fn train_order_solves_samples_resumes_and_fits_weights() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (whole, resumed) = (dir.path().join("whole.csv"), dir.path().join("resumed.csv"));
    let weights = dir.path().join("w.bin");
    let train = |samples: &Path, count: &str| {
        run(&[
            "train-order",
            "othello",
            "--samples",
            samples.to_str().expect("utf-8"),
            "--generate",
            count,
            "--empties",
            "6-9",
            "--seed",
            "3",
            "--iterations",
            "20",
            "--out",
            weights.to_str().expect("utf-8"),
        ])
    };
    let output = train(&whole, "40");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("40 samples"),
        "{}",
        stdout(&output)
    );
    for count in ["25", "40"] {
        let output = train(&resumed, count);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let lines = fs::read_to_string(&whole).expect("samples");
    assert_eq!(lines, fs::read_to_string(&resumed).expect("samples"));
    assert_eq!(lines.lines().count(), 40);
    let mut empties_seen = std::collections::BTreeSet::new();
    for line in lines.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        let own = u64::from_str_radix(fields[0], 16).expect("hex");
        let other = u64::from_str_radix(fields[1], 16).expect("hex");
        let margin: i32 = fields[2].parse().expect("margin");
        assert_eq!(own & other, 0, "{line}");
        assert!((-64..=64).contains(&margin), "{line}");
        empties_seen.insert((own | other).count_zeros());
    }
    assert!(
        empties_seen.iter().all(|e| (6..=9).contains(e)),
        "{empties_seen:?}"
    );
    assert!(empties_seen.len() >= 3, "{empties_seen:?}");
    // The first three samples' margins are the ones solve-game finds for them.
    for line in lines.lines().take(3) {
        let fields: Vec<&str> = line.split(',').collect();
        let own = u64::from_str_radix(fields[0], 16).expect("hex");
        let other = u64::from_str_radix(fields[1], 16).expect("hex");
        let board: String = (0..64)
            .map(|s| match (own >> s & 1, other >> s & 1) {
                (1, _) => 'X',
                (_, 1) => 'O',
                _ => '-',
            })
            .collect();
        let output = run(&[
            "solve-game",
            "othello",
            "--margin",
            "--board",
            &format!("{board} X"),
        ]);
        let text = stdout(&output);
        let value = text.lines().find(|l| l.starts_with("value:")).expect(&text);
        let expected = match fields[2].parse::<i32>().expect("margin") {
            m if m > 0 => format!("wins by {m}"),
            m if m < 0 => format!("loses by {}", -m),
            _ => "draw".to_string(),
        };
        assert!(value.contains(&expected), "{line}: {value}");
    }
    let bytes = fs::read(&weights).expect("weights");
    assert_eq!(&bytes[..8], b"ARBPAT01");
    let count = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) as usize;
    assert_eq!(bytes.len(), 12 + 2 * count);
    assert!(bytes[12..].iter().any(|&b| b != 0), "every weight 0");
    // Bad input: one line each, exit 2, the samples file untouched.
    assert_input_error(
        &run(&["train-order", "chess", "--out", "x.bin"]),
        &["train-order", "chess", "othello"],
    );
    let refused = |extra: &[&str], fragments: &[&str]| {
        let mut args = vec!["train-order", "othello"];
        args.extend_from_slice(extra);
        assert_input_error(&run(&args), fragments);
    };
    let path = whole.to_str().expect("utf-8");
    refused(
        &["--samples", path, "--empties", "9-3"],
        &["--empties", "9-3"],
    );
    let bad = dir.path().join("bad.csv");
    let first = lines.lines().next().expect("a line");
    fs::write(&bad, format!("{first}\n0123,zz,4\n")).expect("write");
    refused(
        &["--samples", bad.to_str().expect("utf-8")],
        &["bad.csv: line 2: ", "'zz' is not a hexadecimal board"],
    );
    let nowhere = dir.path().join("missing").join("w.bin");
    refused(
        &["--samples", path, "--out", nowhere.to_str().expect("utf-8")],
        &["--out", "no folder", "missing"],
    );
    let none = dir.path().join("none.csv");
    refused(
        &["--samples", none.to_str().expect("utf-8")],
        &["none.csv", "no samples", "--generate"],
    );
    assert_eq!(lines, fs::read_to_string(&whole).expect("samples"));
}
