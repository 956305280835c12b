//! Games served by programs (docs/game-protocol.md): the protocol against itself (every
//! built-in game through `serve-game` gives the built-in perft counts and, with the same
//! agents and seeds, the same games), the shipped Python games through `check-game`, perft
//! and a tournament of every algorithm, broken rules programs refused or recorded with no
//! process left behind, and a resume that needs no agent file.

use crate::common;

use crate::common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// An agents folder in `dir` holding `entries`.
fn agents_folder(dir: &Path, entries: &str) -> PathBuf {
    let agents = dir.join("agents");
    fs::create_dir_all(&agents).expect("mkdir");
    fs::write(agents.join("games.toml"), entries).expect("write agents");
    agents
}

/// A `[[game]]` entry serving built-in `game` through `arbiter serve-game`.
fn served(name: &str, game: &str, heuristic: Option<&str>) -> String {
    let mut command = vec![
        format!("\"{}\"", env!("CARGO_BIN_EXE_arbiter")),
        "\"serve-game\"".to_string(),
        format!("\"{game}\""),
    ];
    if let Some(heuristic) = heuristic {
        command.push("\"--heuristic\"".to_string());
        command.push(format!("\"{heuristic}\""));
    }
    format!(
        "[[game]]\nname = \"{name}\"\ncommand = [{}]\n\n",
        command.join(", ")
    )
}

fn perft(game: &str, depth: u32, agents: &Path) -> String {
    let output = run(&[
        "perft",
        game,
        "--depth",
        &depth.to_string(),
        "--agents",
        text(agents),
    ]);
    assert!(output.status.success(), "{game}: {}", stderr(&output));
    stdout(&output)
}

/// Runs experiment `text` (written as `name`.toml in `dir`) with `agents`, into `dir/name`,
/// and returns its games.csv rows with the run's stderr.
fn played(
    dir: &Path,
    name: &str,
    text: &str,
    agents: &Path,
) -> (Vec<BTreeMap<String, String>>, String) {
    let experiment = write_experiment(dir, &format!("{name}.toml"), text);
    let out = dir.join(name);
    let output = run_experiment(&experiment, &out, &["--agents", self::text(agents)]);
    let err = stderr(&output);
    assert!(output.status.success(), "{name}: {err}");
    (games(&out), err)
}

/// games.csv rows as maps.
fn games(folder: &Path) -> Vec<BTreeMap<String, String>> {
    let (header, rows) = read_csv(&folder.join("games.csv"));
    rows.into_iter()
        .map(|row| header.iter().cloned().zip(row).collect())
        .collect()
}

#[test]
fn every_built_in_game_through_serve_game_has_its_perft_counts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let games = [
        ("breakthrough", 3),
        ("breakthrough(rules=long)", 3),
        ("wights", 4),
        ("double-card", 2),
        ("chinese-checkers", 3),
    ];
    let entries: String = games
        .iter()
        .enumerate()
        .map(|(i, (game, _))| served(&format!("served{i}"), game, None))
        .collect();
    let agents = agents_folder(dir.path(), &entries);
    for (i, (game, depth)) in games.iter().enumerate() {
        let built_in = perft(game, *depth, &agents);
        let through = perft(&format!("served{i}"), *depth, &agents);
        assert_eq!(through, built_in, "{game}");
        assert!(built_in.lines().count() == *depth as usize, "{built_in}");
    }
}

#[test]
fn serve_game_plays_the_same_games_as_the_built_in_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents_folder(
        dir.path(),
        &served("bt", "breakthrough", Some("offensive2(noise=0)")),
    );
    // The same searches, with the program's heuristic standing for the built-in one, and
    // linear weights over the served features.
    let linear = "own_pieces=10,opp_pieces=-12,own_max_advance=3";
    let pairs = |h: &str, lin: &str| -> String {
        format!(
            "matchups = [[\"alphabeta(heuristic={h},depth=2)\", \"greedy(heuristic={h})\"],\n\
             [\"minimax(heuristic={h},depth=2)\", \"random\"],\n\
             [\"alphabeta(heuristic=linear,{linear},depth=2)\", \"{lin}\"],\n\
             [\"mcts(iterations=60)\", \"random\"]]\n"
        )
    };
    let built_in = write_experiment(
        dir.path(),
        "built-in.toml",
        &format!(
            "game = \"breakthrough\"\ngames = 4\nseed = 3\n{}",
            pairs("offensive2,noise=0", "greedy(heuristic=offensive2,noise=0)")
        ),
    );
    let through = write_experiment(
        dir.path(),
        "served.toml",
        &format!(
            "game = \"bt\"\ngames = 4\nseed = 3\n{}",
            pairs("program", "greedy(heuristic=program)")
        ),
    );
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for (experiment, out) in [(&built_in, &a), (&through, &b)] {
        let output = run_experiment(experiment, out, &["--agents", text(&agents)]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    let (a, b) = (games(&a), games(&b));
    assert_eq!(a.len(), 16);
    for (x, y) in a.iter().zip(&b) {
        for column in [
            "moves",
            "winner",
            "reason",
            "plies",
            "p1_expanded",
            "p2_expanded",
            "p1_evaluated",
        ] {
            assert_eq!(x[column], y[column], "{column} of game {}", x["game_id"]);
        }
    }
    assert!(b.iter().all(|g| g["game"] == "bt"), "{:?}", b[0]);
}

#[test]
fn the_python_games_pass_check_game_count_right_and_play_every_algorithm() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/python/examples");
    let entries = format!(
        "[[game]]\nname = \"ttt\"\ncommand = [\"{python}\", \"{}\"]\n\n\
         [[game]]\nname = \"c4\"\ncommand = [\"{python}\", \"{}\"]\n",
        examples.join("tic_tac_toe_game.py").display(),
        examples.join("connect_four_game.py").display()
    );
    let agents = agents_folder(dir.path(), &entries);
    for game in ["ttt", "c4(rows=5,columns=4)"] {
        let output = run(&[
            "check-game",
            game,
            "--playouts",
            "10",
            "--agents",
            text(&agents),
        ]);
        let said = stdout(&output);
        assert_eq!(output.status.code(), Some(0), "{said}{}", stderr(&output));
        assert!(
            said.contains("every answer the same when asked twice"),
            "{said}"
        );
        assert!(said.contains("passed: 0 failed"), "{said}");
    }
    // An external agent plays a program game too: its requests carry the program's
    // position string and the legal moves.
    let output = run(&[
        "check-agent",
        "--game",
        "ttt",
        "--agents",
        text(&agents),
        "--tolerance-ms",
        "30000",
        python,
        &examples.join("random_agent.py").display().to_string(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    assert!(
        stdout(&output).contains("a game as P2 against random moves"),
        "{}",
        stdout(&output)
    );
    // Tic-tac-toe's counts (games end at three in a row) and Connect Four's 7^d.
    let counts = perft("ttt", 9, &agents);
    assert!(
        counts.ends_with("perft(8) = 200448\nperft(9) = 127872\n"),
        "{counts}"
    );
    assert!(
        counts.contains("perft(5) = 15120\nperft(6) = 54720\n"),
        "{counts}"
    );
    assert!(perft("c4", 5, &agents).ends_with("perft(5) = 16807\n"));

    // A full-depth alpha-beta with the default `outcome` heuristic plays tic-tac-toe
    // perfectly: it never loses.
    let out = dir.path().join("ttt");
    let output = run(&[
        "match",
        "alphabeta(depth=9)",
        "random",
        "--game",
        "ttt",
        "--games",
        "12",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let played = games(&out);
    assert_eq!(played.len(), 12);
    assert!(
        played.iter().all(|g| g["winner_agent"] != "random"
            && ["three-in-a-row", "board-full"].contains(&g["reason"].as_str())),
        "{played:?}"
    );

    // Every algorithm on a program game, with every kind of heuristic it offers.
    let round_robin = [
        "random",
        "greedy(heuristic=program)",
        "minimax(depth=2)",
        "alphabeta(heuristic=linear,own_threes=5,opp_threes=-6,own_twos=1,own_centre=2,depth=2)",
        "alphabeta-ordered(heuristic=program,depth=2)",
        "alphabeta-killer(heuristic=program,depth=2)",
        "alphabeta-sorted(heuristic=program,depth=2)",
        "alphabeta-cached(heuristic=program,depth=2)",
        "alphabeta-tt(heuristic=program,depth=3)",
        "beam(heuristic=program,depth=2,k=3)",
        "mcts(iterations=40)",
    ];
    let list: Vec<String> = round_robin.iter().map(|a| format!("\"{a}\"")).collect();
    let experiment = write_experiment(
        dir.path(),
        "every.toml",
        &format!(
            "game = \"c4(rows=4,columns=5)\"\ngames = 1\nseed = 7\nround_robin = [{}]\n",
            list.join(", ")
        ),
    );
    let out = dir.path().join("every");
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let played = games(&out);
    assert_eq!(played.len(), 11 * 10 / 2);
    for game in &played {
        assert!(
            ["four-in-a-row", "board-full"].contains(&game["reason"].as_str()),
            "{game:?}"
        );
    }
    // Searching agents counted nodes, as for built-in games (agents go by algorithm: the
    // recorded names put parameters in their own order).
    let algorithm = |name: &str| name.split('(').next().unwrap_or("").to_string();
    for agent in &round_robin[2..] {
        let expanded: u64 = played
            .iter()
            .flat_map(|g| {
                ["p1", "p2"]
                    .into_iter()
                    .filter(|side| algorithm(&g[&format!("{side}_agent")]) == algorithm(agent))
                    .map(|side| {
                        g[&format!("{side}_expanded")]
                            .parse::<u64>()
                            .expect("count")
                    })
                    .collect::<Vec<_>>()
            })
            .sum();
        assert!(expanded > 0, "{agent} expanded no node");
    }

    // The same games on 1 and 2 threads.
    let experiment = write_experiment(
        dir.path(),
        "threads.toml",
        "game = \"ttt\"\ngames = 6\nseed = 9\nround_robin = [\"random\", \"alphabeta(heuristic=linear,own_twos=3,opp_twos=-2,depth=2)\", \"mcts(iterations=30)\"]\n",
    );
    let mut folders = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.path().join(format!("threads{threads}"));
        let output = run_experiment(
            &experiment,
            &out,
            &["--agents", text(&agents), "--threads", threads],
        );
        assert!(output.status.success(), "{}", stderr(&output));
        folders.push(out);
    }
    assert_same_csv(
        &folders[0].join("games.csv"),
        &folders[1].join("games.csv"),
        "games.csv on 1 and 2 threads",
    );
}

fn broken(name: &str, mode: &str, marker: &str, python: &str, extra: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/broken_game.py");
    format!(
        "[[game]]\nname = \"{name}\"\ncommand = [\"{python}\", \"{}\", \"{mode}\", \"{marker}\"]\n{extra}\n",
        script.display()
    )
}

#[test]
fn broken_rules_programs_are_refused_or_recorded_and_leave_no_process() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = format!("arbiter-test-{}-games", std::process::id());
    let entries: String = [
        broken("b-exit", "exit", &marker, python, ""),
        broken("b-garbage", "garbage", &marker, python, ""),
        broken("b-silent", "silent", &marker, python, "startup_ms = 700"),
        broken(
            "b-nondeterministic",
            "nondeterministic",
            &marker,
            python,
            "",
        ),
        broken("b-endless", "endless", &marker, python, ""),
        broken("b-crash", "crash", &marker, python, ""),
        broken("b-refuse", "refuse", &marker, python, ""),
        broken("b-flicker", "flicker", &marker, python, ""),
        broken("b-many", "many", &marker, python, ""),
        broken("b-huge", "huge", &marker, python, ""),
        broken("b-stall", "stall", &marker, python, "request_ms = 300"),
        broken("b-slowstart", "slowstart", &marker, python, ""),
        broken("b-badchance", "badchance", &marker, python, ""),
        broken("b-badround", "badround", &marker, python, ""),
        broken("b-linebreak", "linebreak", &marker, python, ""),
    ]
    .concat();
    let agents = agents_folder(dir.path(), &entries);
    let refused = |game: &str, fragments: &[&str]| {
        let output = run(&["perft", game, "--depth", "2", "--agents", text(&agents)]);
        assert_input_error(&output, fragments);
    };
    refused(
        "b-exit",
        &[
            "game 'b-exit'",
            "exited while asked `hello` (exit code 4)",
            "its stderr ends: giving up before hello",
        ],
    );
    refused(
        "b-garbage",
        &[
            "game 'b-garbage'",
            "answered `hello` with {\"type\": \"hello-to-you-too\"} instead of a `ready` reply",
        ],
    );
    refused(
        "b-silent",
        &["game 'b-silent'", "no reply to `hello` within 700 ms"],
    );
    refused(
        "nonesuch",
        &[
            "unknown game 'nonesuch'",
            "declared: b-badchance, b-badround, b-crash",
        ],
    );

    let check = |game: &str, extra: &[&str]| -> String {
        let mut args = vec!["check-game", game, "--agents", text(&agents)];
        args.extend_from_slice(extra);
        let output = run(&args);
        assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
        stdout(&output)
    };
    let said = check("b-nondeterministic", &[]);
    assert!(
        said.contains("FAIL  `legal` of position '......... X' is not deterministic"),
        "{said}"
    );
    let said = check("b-endless", &["--max-plies", "30"]);
    assert!(
        said.contains("did not end within 30 plies (--max-plies)"),
        "{said}"
    );
    let said = check("b-badround", &[]);
    assert!(
        said.contains("names where a round of simultaneous moves began, but `ready` does not say \"hidden\": true"),
        "{said}"
    );
    let said = check("b-refuse", &[]);
    assert!(said.contains("FAIL  `apply` of legal move '5'"), "{said}");
    assert!(said.contains("I do not like the centre"), "{said}");

    // Mid-run: the game in progress is recorded as rules_failure, the run goes on.
    for (game, threads) in [("b-crash", "1"), ("b-refuse", "2")] {
        let experiment = write_experiment(
            dir.path(),
            &format!("{game}.toml"),
            &format!("game = \"{game}\"\ngames = 30\nmatchups = [[\"random\", \"random\"]]\n"),
        );
        let out = dir.path().join(game);
        let output = run_experiment(
            &experiment,
            &out,
            &["--agents", text(&agents), "--threads", threads],
        );
        let err = stderr(&output);
        assert!(output.status.success(), "{err}");
        let played = games(&out);
        assert_eq!(played.len(), 30, "{game}");
        let failed: Vec<_> = played
            .iter()
            .filter(|g| g["reason"] == "rules_failure")
            .collect();
        assert!(!failed.is_empty(), "{game}: no rules_failure in {played:?}");
        assert!(failed.iter().all(|g| g["winner"] == "draw"), "{failed:?}");
        assert!(
            played.iter().any(|g| g["reason"] != "rules_failure"),
            "{game}: every game failed"
        );
        assert!(
            err.contains(&format!("warning: rules program of game '{game}'")),
            "{err}"
        );
        assert!(
            err.contains("the game is recorded as rules_failure"),
            "{err}"
        );
        if game == "b-crash" {
            assert!(
                err.contains("its stderr ends: crashing on purpose"),
                "{err}"
            );
        } else {
            assert!(
                err.contains("`apply` failed: I do not like the centre (move '5'"),
                "{err}"
            );
        }
    }
    // Programs that contradict themselves, list more moves than a move index holds, or
    // answer with a 200 MB line: no panic, every game recorded, the program blamed.
    for (game, agents_played, said) in [
        (
            "b-flicker",
            ["alphabeta(depth=2)", "mcts(iterations=30)"],
            "",
        ),
        (
            "b-many",
            ["random", "alphabeta(depth=2)"],
            "`legal` gave 70000 moves, more than 65535",
        ),
        (
            "b-huge",
            ["alphabeta(depth=2)", "random"],
            "answered `legal` with a line longer than 1 MiB",
        ),
        (
            "b-badchance",
            ["random", "expectimax(depth=2)"],
            "`legal` gave chance probabilities that sum to 0.9, not 1",
        ),
        (
            "b-linebreak",
            ["random", "alphabeta(depth=2)"],
            "`legal` gave the move \"1\\n\", which holds `;` or a line break",
        ),
    ] {
        let out = dir.path().join(format!("{game}-match"));
        let output = run(&[
            "match",
            agents_played[0],
            agents_played[1],
            "--game",
            game,
            "--games",
            "4",
            "--agents",
            text(&agents),
            "--out",
            text(&out),
            "--quiet",
        ]);
        let err = stderr(&output);
        assert!(output.status.success(), "{game}: {err}");
        assert!(!err.contains("panicked"), "{game}: {err}");
        assert!(err.contains(said), "{game}: {err}");
        assert_eq!(games(&out).len(), 4, "{game}");
    }
    // A program that stops answering in the middle of a search at the first move: the
    // game ends at its first failure (one restart a game, not one per node searched).
    let out = dir.path().join("b-stall-match");
    let output = run(&[
        "match",
        "alphabeta(depth=3)",
        "alphabeta(depth=3)",
        "--game",
        "b-stall",
        "--games",
        "2",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert_eq!(
        err.matches("no reply to `apply` within 300 ms").count(),
        2,
        "one failure a game: {err}"
    );
    assert!(
        games(&out).iter().all(|g| g["reason"] == "rules_failure"),
        "{:?}",
        games(&out)
    );
    // A rules program that takes 1 s to start: no move is charged its start-up (each
    // worker thread's program starts before its first game's clock).
    let out = dir.path().join("b-slowstart-match");
    let output = run(&[
        "match",
        "random",
        "random",
        "--game",
        "b-slowstart",
        "--games",
        "4",
        "--threads",
        "2",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let slowest = common::csv_maps(&out.join("moves.csv"))
        .iter()
        .map(|m| m["ms"].parse::<f64>().expect("ms"))
        .fold(0.0, f64::max);
    assert!(
        slowest < 900.0,
        "a move took {slowest} ms: the start-up was charged to it"
    );
    let output = run(&["perft", "b-huge", "--depth", "3", "--agents", text(&agents)]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let last = stderr(&output)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.starts_with("error: the game's rules program failed")
            && last.ends_with("while counting (see the warnings above): no count is given"),
        "{last}"
    );
    assert!(!stdout(&output).contains("perft(3)"), "{}", stdout(&output));
    assert_none_left(&marker);
}

#[test]
fn a_program_game_run_resumes_without_its_agent_files() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/python/examples/tic_tac_toe_game.py");
    let agents = agents_folder(
        dir.path(),
        &format!(
            "[[game]]\nname = \"ttt\"\ncommand = [\"{python}\", \"{}\"]\n",
            script.display()
        ),
    );
    let experiment = write_experiment(
        dir.path(),
        "ttt.toml",
        "game = \"ttt\"\ngames = 10\nmatchups = [[\"alphabeta(depth=4)\", \"random\"], [\"mcts(iterations=50)\", \"greedy(heuristic=outcome)\"]]\n",
    );
    let whole = dir.path().join("whole");
    let output = run_experiment(&experiment, &whole, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let part = dir.path().join("part");
    let output = run_experiment(
        &experiment,
        &part,
        &["--agents", text(&agents), "--max-games", "7"],
    );
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    // The agent file goes (its folder stays: the program runs there).
    fs::remove_file(agents.join("games.toml")).expect("remove the agent file");
    let output = run(&["run", "--resume", text(&part), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_same_csv(
        &part.join("games.csv"),
        &whole.join("games.csv"),
        "games.csv",
    );
}

#[test]
fn solve_game_proves_tic_tac_toe_a_draw_through_its_rules_program() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/python/examples");
    let entries = format!(
        "[[game]]\nname = \"ttt\"\ncommand = [\"{python}\", \"{}\"]\n",
        examples.join("tic_tac_toe_game.py").display()
    );
    let agents = agents_folder(dir.path(), &entries);
    let output = run(&["solve-game", "ttt", "--moves", "--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(said.contains("value: draw\n"), "{said}");
    // Every opening move draws.
    assert_eq!(said.matches("        draw\n").count(), 9, "{said}");
    // X in the centre, O on an edge: X wins in 5 plies (threaten, then fork), by any move
    // but the one opposite O's edge (8), which lets O draw.
    let output = run(&[
        "solve-game",
        "ttt",
        "--position",
        "5;2",
        "--moves",
        "--agents",
        text(&agents),
    ]);
    let said = stdout(&output);
    assert!(
        said.contains("value: P1 (to move) wins in 5 plies\n"),
        "{said}"
    );
    assert!(said.contains("  8        draw\n"), "{said}");
    assert_eq!(said.matches("win in 5 plies\n").count(), 6, "{said}");
    // A move the program refuses is named with its ply.
    let output = run(&[
        "solve-game",
        "ttt",
        "--position",
        "5;5",
        "--agents",
        text(&agents),
    ]);
    assert_input_error(&output, &["--position: ply 2"]);
}

/// A rules program whose batched requests (a position's 64 children, 3,000 bytes each)
/// exceed its stdin pipe while its replies fill its stdout: arbiter reads the replies
/// while it writes, so perft, a search and a tournament finish instead of both sides
/// blocking in `write` for ever. Each command runs under a watchdog that kills it (by
/// its PID) and fails the test if it hangs.
#[test]
fn a_rules_program_with_long_positions_and_many_moves_never_deadlocks_a_run() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/wide_game.py");
    let agents = agents_folder(
        dir.path(),
        &format!(
            "[[game]]\nname = \"wide\"\ncommand = [\"{python}\", \"{}\"]\nrequest_ms = 20000\n",
            script.display()
        ),
    );
    let watched = |args: &[&str]| -> std::process::Output {
        let child = arbiter()
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("arbiter starts");
        let pid = child.id();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(child.wait_with_output());
        });
        match receiver.recv_timeout(std::time::Duration::from_secs(120)) {
            Ok(output) => output.expect("arbiter ran"),
            Err(_) => {
                // Our own child, by its PID.
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .status();
                panic!("arbiter {args:?} hung (a deadlock on the rules program's pipes)");
            }
        }
    };
    let output = watched(&["perft", "wide", "--depth", "2", "--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).ends_with("perft(2) = 4096\n"),
        "{}",
        stdout(&output)
    );
    let out = dir.path().join("out");
    let output = watched(&[
        "match",
        "alphabeta(depth=2)",
        "minimax(depth=2)",
        "--game",
        "wide",
        "--games",
        "2",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let played = games(&out);
    assert_eq!(played.len(), 2);
    assert!(played.iter().all(|g| g["reason"] == "plies"), "{played:?}");
}

/// check-game on a game of 20,000 legal moves a position: near the start every move of a
/// position is applied up to 1,000 of them, a seeded sample beyond (all 20,000 twice a
/// playout took minutes), and the game passes.
#[test]
fn check_game_samples_the_moves_of_a_very_wide_game() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/wide_game.py");
    let agents = agents_folder(
        dir.path(),
        &format!(
            "[[game]]\nname = \"huge-wide\"\ncommand = [\"{python}\", \"{}\", \"4\", \"10\", \"20000\"]\n",
            script.display()
        ),
    );
    let output = run(&["check-game", "huge-wide", "--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stdout(&output));
    // 20 playouts of 4 plies: 1,000 + 1,000 + 8 + 8 sampled, and the move played each ply.
    assert!(
        stdout(&output).contains("100 positions, 40320 moves applied"),
        "{}",
        stdout(&output)
    );
}

/// The chance outcomes of a games.csv `moves` cell, in order: the placements and rolls.
fn chance_moves(moves: &str) -> Vec<&str> {
    moves
        .split(';')
        .filter(|m| m.starts_with("setup") || m.starts_with("roll"))
        .collect()
}

#[test]
fn a_dice_game_replays_from_its_seed_on_any_threads_and_pairs_share_their_dice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "dice.toml",
        "game = \"einstein\"\ngames = 20\nseed = 9\nmatchups = [[\"expectimax(heuristic=race,depth=2)\", \"mcts(iterations=200)\"], [\"random\", \"greedy(heuristic=race)\"]]\n",
    );
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let output = run_experiment(&experiment, out, &["--threads", threads]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert_same_csv(&one.join("games.csv"), &two.join("games.csv"), "games.csv");
    assert_same_csv(&one.join("moves.csv"), &two.join("moves.csv"), "moves.csv");

    // Stopped after 13 games and resumed: the same files (chance's plies kept apart in the
    // journal too).
    let parts = dir.path().join("parts");
    let output = run_experiment(
        &experiment,
        &parts,
        &["--max-games", "13", "--threads", "1"],
    );
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let output = run(&["run", "--resume", text(&parts), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["games.csv", "moves.csv", "summary.csv"] {
        assert_same_csv(&one.join(file), &parts.join(file), file);
    }

    let rows = games(&one);
    assert_eq!(rows.len(), 40);
    // moves.csv has a row per agent's move only: chance's plies are left out.
    let (header, moves) = read_csv(&one.join("moves.csv"));
    let column = header
        .iter()
        .position(|c| c == "move")
        .expect("move column");
    assert!(moves.iter().all(|m| !m[column].starts_with("roll")));
    let agent_moves: usize = rows
        .iter()
        .map(|r| r["moves"].split(';').count() - chance_moves(&r["moves"]).len())
        .sum();
    assert_eq!(moves.len(), agent_moves);
    for pair in rows.chunks(2) {
        // The two games of a pair, colours swapped, get the same placements and dice
        // as far as both go.
        let (a, b) = (
            chance_moves(&pair[0]["moves"]),
            chance_moves(&pair[1]["moves"]),
        );
        let shared = a.len().min(b.len());
        assert!(shared >= 3, "{a:?}");
        assert_eq!(
            a[..shared],
            b[..shared],
            "games {} and {}",
            pair[0]["game_id"],
            pair[1]["game_id"]
        );
        assert_eq!(pair[0]["p1_agent"], pair[1]["p2_agent"]);
    }
    // With duplicate = false each game has its own dice.
    let own = write_experiment(
        dir.path(),
        "own.toml",
        "game = \"einstein\"\ngames = 8\nseed = 9\nduplicate = false\nmatchups = [[\"random\", \"greedy(heuristic=race)\"]]\n",
    );
    let output = run_experiment(&own, &dir.path().join("own"), &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let own_rows = games(&dir.path().join("own"));
    assert!(own_rows.chunks(2).all(|pair| {
        chance_moves(&pair[0]["moves"])[..2] != chance_moves(&pair[1]["moves"])[..2]
    }));

    // A game's moves, chance's included, replay to its result.
    for row in rows.iter().step_by(7) {
        let file = dir.path().join("game.txt");
        fs::write(&file, &row["moves"]).expect("write");
        let replayed = run(&["replay", "einstein", text(&file)]);
        assert!(replayed.status.success(), "{}", stderr(&replayed));
        let said = stdout(&replayed);
        assert!(
            said.contains(&format!("result: {} ({})", row["winner"], row["reason"])),
            "{said}"
        );
    }

    // The viewer puts each agent's figures at its own ply, chance's plies between them.
    let page = run(&["report", text(&one), "--game", "4"]);
    assert!(page.status.success(), "{}", stderr(&page));
    let html = fs::read_to_string(one.join("game-4.html")).expect("page");
    let embedded = embedded_games(&html);
    let game = &embedded[0];
    let plies: Vec<&str> = rows[4]["moves"].split(';').collect();
    let stats = game["stats"].as_array().expect("stats");
    assert_eq!(stats.len(), plies.len());
    for (ply, (text, stat)) in plies.iter().zip(stats).enumerate() {
        let chance = text.starts_with("setup") || text.starts_with("roll");
        assert_eq!(
            stat["agent"] == "chance",
            chance,
            "ply {}: {text} {stat}",
            ply + 1
        );
    }

    // Searches that assume no chance are refused, naming the agent and what to use.
    let refused = write_experiment(
        dir.path(),
        "refused.toml",
        "game = \"einstein\"\ngames = 2\nmatchups = [[\"random\", \"alphabeta(heuristic=race,depth=3)\"]]\n",
    );
    let output = run_experiment(&refused, &dir.path().join("refused"), &[]);
    assert_input_error(
        &output,
        &[
            "refused.toml: line 3",
            "alphabeta needs a game without chance; use expectimax or mcts for 'einstein'",
        ],
    );
    assert!(!dir.path().join("refused").join("games.csv").exists());
}

/// The agents file of the secret card game (tests/games/secret_game.py) and of the agent
/// that looks for what the game hides (tests/agents/peek.py).
fn secret_folder(dir: &Path, python: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (game, peek) = (
        root.join("tests/games/secret_game.py"),
        root.join("tests/agents/peek.py"),
    );
    agents_folder(
        dir,
        &format!(
            "[[game]]\nname = \"secret\"\ncommand = [\"{python}\", \"{}\"]\n\n[[agent]]\nname = \"peek\"\ncommand = [\"{python}\", \"{}\"]\n",
            game.display(),
            peek.display()
        ),
    )
}

#[test]
fn a_hidden_card_never_reaches_the_agent_it_is_hidden_from() {
    let Some(python) = python3() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = secret_folder(dir.path(), python);
    let play = |game: &str, out: &str| {
        let out = dir.path().join(out);
        let output = run(&[
            "match",
            "peek",
            "random",
            "--game",
            game,
            "--games",
            "30",
            "--agents",
            text(&agents),
            "--out",
            text(&out),
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        games(&out)
    };
    // Told only its own card: it folds below 5 and raises or calls from 5, never an
    // illegal move (what it answers when it sees a secret, or no card).
    let rows = play("secret", "hidden");
    assert!(
        rows.iter().all(|r| r["reason"] != "illegal_move"),
        "{rows:?}"
    );
    for row in &rows {
        let moves: Vec<&str> = row["moves"].split(';').collect();
        let seat = if row["p1_agent"] == "peek" { 0 } else { 1 };
        let card: u32 = moves[seat][4..].parse().expect("a card");
        let peek_moved = moves.get(2 + seat).copied();
        if let Some(mv) = peek_moved {
            assert_eq!(mv == "fold", card < 5, "{row:?}");
        }
    }
    // The same game declared without hidden information sends the position, and the
    // agent finds the secret in it: the check above can fail.
    let rows = play("secret(hidden=false)", "open");
    let caught = rows
        .iter()
        .filter(|r| r["reason"] == "illegal_move")
        .count();
    assert!(caught >= 10, "{rows:?}");
}

#[test]
fn ismcts_plays_a_hidden_card_game_and_the_searches_that_would_peek_are_refused() {
    let Some(python) = python3() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = secret_folder(dir.path(), python);
    let experiment = write_experiment(
        dir.path(),
        "cards.toml",
        "game = \"secret\"\ngames = 40\nseed = 5\nmatchups = [[\"ismcts(iterations=300)\", \"random\"]]\n",
    );
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let output = run_experiment(
            &experiment,
            out,
            &["--threads", threads, "--agents", text(&agents)],
        );
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert_same_csv(&one.join("games.csv"), &two.join("games.csv"), "games.csv");
    let output = run(&[
        "match",
        "random",
        "random",
        "--game",
        "connect-four",
        "--games",
        "4",
        "--out",
        text(&dir.path().join("plain")),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = games(&one);
    let wins = rows
        .iter()
        .filter(|r| r["winner_agent"] == "ismcts(iterations=300)")
        .count();
    let losses = rows
        .iter()
        .filter(|r| r["winner_agent"] == "random")
        .count();
    assert!(wins >= 2 * losses, "{wins} wins, {losses} losses");
    // Each game's returns (the stakes won and lost) sum to 0 and follow the winner, and
    // the summary's mean return per game is theirs.
    let mut total = 0.0;
    for row in &rows {
        let (p1, p2): (f64, f64) = (
            row["p1_return"].parse().expect("p1_return"),
            row["p2_return"].parse().expect("p2_return"),
        );
        assert_eq!(p1 + p2, 0.0, "{row:?}");
        let expected: f64 = match row["winner"].as_str() {
            "P1" => 1.0,
            "P2" => -1.0,
            _ => 0.0,
        };
        assert_eq!(p1.signum() * expected.abs(), expected, "{row:?}");
        total += if row["p1_agent"] == "random" { p2 } else { p1 };
    }
    let summary = csv_maps(&one.join("summary.csv"));
    let mean: f64 = summary[0]["mean_return"].parse().expect("mean_return");
    assert!(
        (mean - total / rows.len() as f64).abs() < 1e-4,
        "{mean} {total}"
    );
    let low: f64 = summary[0]["pair_return_low95"]
        .parse()
        .expect("pair interval");
    let high: f64 = summary[0]["pair_return_high95"]
        .parse()
        .expect("pair interval");
    assert!(low < mean && mean < high, "{low} {mean} {high}");
    let report = fs::read_to_string(one.join("report.md")).expect("report.md");
    assert!(report.contains("return/game (95%)"), "{report}");
    // A game scored by who won alone has no returns: empty cells, no column in the report.
    let plain = csv_maps(&dir.path().join("plain").join("games.csv"));
    assert!(
        plain
            .iter()
            .all(|r| r["p1_return"].is_empty() && r["p2_return"].is_empty())
    );
    // Pairs share their deal.
    for pair in rows.chunks(2) {
        let deal = |row: &BTreeMap<String, String>| {
            row["moves"]
                .split(';')
                .take(2)
                .collect::<Vec<_>>()
                .join(";")
        };
        assert_eq!(deal(&pair[0]), deal(&pair[1]));
    }
    for (agent, names) in [
        ("mcts", "mcts reads the whole position"),
        (
            "alphabeta(heuristic=outcome,depth=2)",
            "alphabeta reads the whole position",
        ),
        (
            "greedy(heuristic=outcome)",
            "greedy reads the whole position",
        ),
    ] {
        let output = run(&[
            "match",
            agent,
            "random",
            "--game",
            "secret",
            "--games",
            "2",
            "--agents",
            text(&agents),
            "--out",
            text(&dir.path().join("refused")),
        ]);
        assert_input_error(
            &output,
            &[
                names,
                "hidden from a player in 'secret'; use ismcts or random",
            ],
        );
    }
    assert!(!dir.path().join("refused").join("games.csv").exists());
}

#[test]
fn check_game_finds_an_observation_that_shows_what_is_hidden() {
    let Some(python) = python3() else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = secret_folder(dir.path(), python);
    let output = run(&["check-game", "secret", "--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("offers chance, hidden information, sample"));
    let output = run(&["check-game", "secret(leak=true)", "--agents", text(&agents)]);
    assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
    let said = stdout(&output);
    let fail: Vec<&str> = said.lines().filter(|l| l.starts_with("FAIL  ")).collect();
    assert_eq!(fail.len(), 1, "{said}");
    assert!(
        fail[0].contains("hidden information leaks:")
            && fail[0].contains("which `sample` drew as a position"),
        "{said}"
    );
}

/// The star seats 2, 3, 4 or 6: perft counts it at every table, and everything that seats
/// two agents refuses a bigger table in one line naming the game (the experiment's file
/// and line for a run), writing nothing.
#[test]
fn the_star_is_counted_at_every_table_and_two_seat_runs_refuse_a_bigger_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (players, counts) in [(2, "14 196"), (6, "14 199")] {
        let game = format!("chinese-checkers-star(players={players})");
        let output = run(&["perft", &game, "--depth", "2"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let leaves: Vec<String> = stdout(&output)
            .lines()
            .map(|line| {
                let after = line.split('=').nth(1).unwrap_or_default().trim();
                after
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect();
        assert_eq!(leaves.join(" "), counts, "{}", stdout(&output));
    }
    let four = "chinese-checkers-star(players=4)";
    let refused = "'chinese-checkers-star(players=4)' seats 4 players";
    let out = dir.path().join("match");
    let output = run(&[
        "match",
        "random",
        "random",
        "--game",
        four,
        "--out",
        text(&out),
    ]);
    assert_input_error(&output, &[refused, "a match seats two"]);
    assert!(!out.exists());
    let experiment = write_experiment(
        dir.path(),
        "four.toml",
        &format!(
            "seed = 1\ngame = \"{four}\"\nmatchups = [[\"random\", \"greedy(heuristic=distance)\"]]\n"
        ),
    );
    let out = dir.path().join("run");
    let output = run(&["run", text(&experiment), "--out", text(&out)]);
    assert_input_error(&output, &["four.toml: line 2: ", refused]);
    assert!(!out.exists());
    assert_input_error(&output, &["in an experiment of kind = \"tables\""]);
    // At the terminal the agent takes every seat but the person's.
    let output = run(&["play", four, "--agent", "random", "--side", "p5"]);
    assert_input_error(
        &output,
        &["--side 'p5': expected p1 to p4 ('chinese-checkers-star(players=4)' seats 4)"],
    );
    let output = run_with_input(
        &["play", four, "--agent", "random", "--side", "p3"],
        b"a1-b2\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(
        said.contains("You play P3 against 3 x random; P1 moves first."),
        "{said}"
    );
    let p1 = said.find("random (P1) plays").expect("P1 moved");
    let p2 = said.find("random (P2) plays").expect("P2 moved");
    let mine = said.find("P3 to move; legal:").expect("the person's turn");
    assert!(p1 < p2 && p2 < mine, "{said}");
    assert!(said.contains("(type help for commands)"), "{said}");
    let output = run(&["solve-game", four]);
    assert_input_error(&output, &[refused, "the solver seats two"]);
    let output = run(&["perft", "chinese-checkers-star(players=5)", "--depth", "1"]);
    assert_input_error(&output, &["players=5: the star seats 2, 3, 4 or 6 players"]);
}

/// The shipped Connect Four rules library and its program form
/// (clients/rust/connect-four-rules), built once for this test binary: the library's
/// path, the program's.
fn connect_four_rules() -> &'static (PathBuf, PathBuf) {
    static BUILT: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    BUILT.get_or_init(|| {
        let crate_dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/rust/connect-four-rules");
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("connect-four-rules");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        // Its crates are arbiter's own (its Cargo.lock pins the same versions): offline.
        let output = std::process::Command::new(cargo)
            .args([
                "build",
                "--release",
                "--offline",
                "--locked",
                "--manifest-path",
            ])
            .arg(crate_dir.join("Cargo.toml"))
            .arg("--target-dir")
            .arg(&target)
            .output()
            .expect("cargo runs");
        assert!(
            output.status.success(),
            "building clients/rust/connect-four-rules: {}",
            stderr(&output)
        );
        let release = target.join("release");
        let library = ["libconnect_four_rules.so", "libconnect_four_rules.dylib"]
            .iter()
            .map(|name| release.join(name))
            .find(|path| path.is_file())
            .expect("the library was built");
        (library, release.join("connect-four-rules"))
    })
}

#[test]
fn a_rules_library_counts_plays_and_checks_as_the_built_in_game_and_its_own_program() {
    let (library, program) = connect_four_rules();
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents_folder(
        dir.path(),
        &format!(
            "[[game]]\nname = \"c4-lib\"\nlibrary = \"{}\"\n\n[[game]]\nname = \"c4-prog\"\ncommand = [\"{}\"]\n",
            library.display(),
            program.display()
        ),
    );
    // Perft through the typed calls, through the protocol, and built in; on another board
    // too (its parameters reach the library through `hello`).
    for (lib, prog, built_in, depth) in [
        ("c4-lib", "c4-prog", "connect-four", 6),
        (
            "c4-lib(rows=4,columns=5)",
            "c4-prog(rows=4,columns=5)",
            "connect-four(rows=4,columns=5)",
            8,
        ),
    ] {
        let expected = perft(built_in, depth, &agents);
        assert_eq!(perft(lib, depth, &agents), expected, "{lib}");
        assert_eq!(perft(prog, depth, &agents), expected, "{prog}");
    }
    let output = run(&["check-game", "c4-lib", "--agents", text(&agents)]);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    // The same games as the built-in game with its `windows` heuristic, which the
    // library's `evaluate` is: moves, results and nodes.
    let pairs = |h: &str| -> String {
        format!(
            "matchups = [[\"alphabeta(heuristic={h},depth=3)\", \"greedy(heuristic={h})\"],\n\
             [\"alphabeta(heuristic={h},depth=4)\", \"minimax(heuristic={h},depth=2)\"],\n\
             [\"mcts(iterations=80)\", \"random\"]]\n"
        )
    };
    let mut folders = Vec::new();
    for (game, heuristic) in [
        ("connect-four", "windows"),
        ("c4-lib", "program"),
        ("c4-prog", "program"),
    ] {
        let text = format!(
            "game = \"{game}\"\ngames = 4\nseed = 11\n{}",
            pairs(heuristic)
        );
        folders.push(played(dir.path(), game, &text, &agents).0);
    }
    assert_eq!(folders[0].len(), 12);
    for other in &folders[1..] {
        for (x, y) in folders[0].iter().zip(other) {
            for column in [
                "moves",
                "winner",
                "reason",
                "plies",
                "p1_expanded",
                "p2_expanded",
            ] {
                assert_eq!(
                    x[column], y[column],
                    "{column} of game {} ({})",
                    x["game_id"], y["game"]
                );
            }
        }
    }
}

#[test]
fn a_rules_library_that_cannot_serve_is_refused_in_one_line() {
    let (library, program) = connect_four_rules();
    let dir = tempfile::tempdir().expect("temp dir");
    let not_a_library = dir.path().join("notes.so");
    fs::write(&not_a_library, "not a shared object\n").expect("write");
    // A shared library of the system's that exports no `arbiter_rules_v1`.
    let system = [
        "/lib/x86_64-linux-gnu/libm.so.6",
        "/usr/lib/x86_64-linux-gnu/libm.so.6",
        "/lib64/libm.so.6",
        "/usr/lib/libm.dylib",
    ]
    .iter()
    .map(Path::new)
    .find(|p| p.is_file());
    let mut cases: Vec<(String, Vec<String>)> = vec![
        (
            format!("library = \"{}\"", dir.path().join("missing.so").display()),
            vec!["missing.so".into(), "no such file".into()],
        ),
        (
            format!("library = \"{}\"", not_a_library.display()),
            vec!["notes.so".into(), "cannot load it".into()],
        ),
        (
            format!("library = \"{}\"", program.display()),
            vec!["connect-four-rules".into(), "cannot load it".into()],
        ),
        (
            format!("library = \"{}\"\nrequest_ms = 5", library.display()),
            vec![
                "agents/games.toml".into(),
                "a rules library runs inside arbiter".into(),
            ],
        ),
        (
            format!("library = \"{}\"\ncommand = [\"x\"]", library.display()),
            vec!["not both".into()],
        ),
    ];
    match system {
        Some(path) => cases.push((
            format!("library = \"{}\"", path.display()),
            vec!["exports no `arbiter_rules_v1`".into()],
        )),
        None => eprintln!("no system libm found: the missing-symbol case is not checked here"),
    }
    for (entry, fragments) in cases {
        let agents = agents_folder(dir.path(), &format!("[[game]]\nname = \"lib\"\n{entry}\n"));
        let output = run(&["perft", "lib", "--depth", "1", "--agents", text(&agents)]);
        let fragments: Vec<&str> = fragments.iter().map(String::as_str).collect();
        assert_input_error(&output, &fragments);
    }
    // A parameter the library refuses, in `hello`.
    let agents = agents_folder(
        dir.path(),
        &format!(
            "[[game]]\nname = \"lib\"\nlibrary = \"{}\"\n",
            library.display()
        ),
    );
    let output = run(&[
        "perft",
        "lib(rows=3)",
        "--depth",
        "1",
        "--agents",
        text(&agents),
    ]);
    assert_input_error(&output, &["lib(rows=3)", "rows must be from 4 to 8"]);
}

#[test]
fn a_rules_library_in_c_plays_and_a_broken_one_ends_its_games_as_rules_failures() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/count_rules.c");
    if !component(
        runs("cc", &["--version"]),
        "a C compiler (cc)",
        "install gcc or clang (Rust's linker is one already)",
    ) {
        return;
    }
    // The same source, sound and built to fail at a total of 5.
    let mut entries = String::new();
    for (name, defines) in [("count", None), ("count-broken", Some("-DFAIL_AT=5"))] {
        let library = dir.path().join(format!("lib{name}.so"));
        let mut cc = std::process::Command::new("cc");
        cc.args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&library)
            .arg(&source);
        if let Some(define) = defines {
            cc.arg(define);
        }
        let output = cc.output().expect("cc runs");
        assert!(output.status.success(), "cc: {}", stderr(&output));
        entries.push_str(&format!(
            "[[game]]\nname = \"{name}\"\nlibrary = \"{}\"\n\n",
            library.display()
        ));
    }
    let agents = agents_folder(dir.path(), &entries);
    // Counted by hand: no game ends before ply 5, and after five moves only 2-2-2-2-2
    // reaches ten.
    assert_eq!(
        perft("count", 6, &agents),
        "perft(1) = 2\nperft(2) = 4\nperft(3) = 8\nperft(4) = 16\nperft(5) = 32\nperft(6) = 62\n"
    );
    let output = run(&["check-game", "count", "--agents", text(&agents)]);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    // Full-depth alpha-beta plays count-to-ten perfectly: as the first player it can always
    // leave a total of 1, 4 or 7, and wins every game against random.
    let (games, _) = played(
        dir.path(),
        "count",
        "game = \"count\"\ngames = 6\nmatchups = [[\"alphabeta(depth=10)\", \"random\"]]\n",
        &agents,
    );
    assert_eq!(games.len(), 6);
    for game in &games {
        assert_eq!(game["winner_agent"], "alphabeta(depth=10)", "{game:?}");
        assert_eq!(game["reason"], "ten");
    }
    // The broken one: each game that reaches a total of 5 is recorded as rules_failure,
    // with the library's own message, and the run goes on.
    let (games, err) = played(
        dir.path(),
        "broken",
        "game = \"count-broken\"\ngames = 20\nmatchups = [[\"random\", \"random\"]]\n",
        &agents,
    );
    assert_eq!(games.len(), 20);
    let failed: Vec<&BTreeMap<String, String>> = games
        .iter()
        .filter(|g| g["reason"] == "rules_failure")
        .collect();
    assert!(!failed.is_empty() && failed.len() < 20, "{games:?}");
    for game in failed {
        let totals = game["moves"]
            .split(';')
            .map(|m| m.parse::<u32>().unwrap_or(0));
        let total: u32 = totals.sum();
        assert_eq!(total, 5, "a failed game stops at the total of 5: {game:?}");
    }
    assert!(
        err.contains("warning: rules library of game 'count-broken'")
            && err.contains("broken at the total the library was built to fail at"),
        "{err}"
    );
}
