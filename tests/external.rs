//! External agents as real subprocesses: the Python examples, deliberately broken
//! programs (tests/agents/broken.py), built-in agents served over the protocol, and
//! Ctrl-C; every failure recorded with its reason and no process left behind.

use crate::common;

use crate::common::{
    alive, arbiter, assert_none_left, jdk_or_skip, python3, read_csv, run, stderr, stdout, text,
    write_experiment,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A string no other process has on its command line.
fn marker(test: &str) -> String {
    format!("arbiter-test-{}-{test}", std::process::id())
}

fn broken_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/broken.py")
}

/// The interpreter, once a test has checked that there is one.
fn python() -> &'static str {
    python3().expect("checked at the test's start")
}

/// An agent entry running broken.py in `mode`, plus extra TOML lines.
fn broken_agent(name: &str, mode: &str, marker: &str, extra: &str) -> String {
    format!(
        "[[agent]]\nname = \"{name}\"\ncommand = [\"{}\", \"{}\", \"{mode}\", \"{marker}\"]\n{extra}\n",
        python(),
        broken_script().display()
    )
}

/// Runs `experiment` with the agent files of `agents` into `out`, which must succeed.
fn run_with_agents(experiment: &Path, agents: &Path, out: &Path) {
    let output = run(&[
        "run",
        text(experiment),
        "--agents",
        text(agents),
        "--out",
        text(out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// games.csv rows of a run folder as maps from column to value.
fn games(folder: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    common::csv_maps(&folder.join("games.csv"))
}

/// The games `agent` played, of `all`.
fn played_by<'a>(
    all: &'a [std::collections::BTreeMap<String, String>],
    agent: &str,
) -> Vec<&'a std::collections::BTreeMap<String, String>> {
    all.iter()
        .filter(|g| g["p1_agent"] == agent || g["p2_agent"] == agent)
        .collect()
}

fn reasons_of(folder: &Path, agent: &str) -> Vec<String> {
    played_by(&games(folder), agent)
        .into_iter()
        .map(|g| {
            assert_ne!(g["winner_agent"], agent, "{agent} cannot win: {g:?}");
            g["reason"].clone()
        })
        .collect()
}

#[test]
fn broken_agents_are_recorded_with_their_reason_and_leave_no_process() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("broken");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    let entries = [
        broken_agent("crash", "crash", &marker, ""),
        broken_agent("slow", "slow", &marker, ""),
        broken_agent("garbage", "garbage", &marker, ""),
        broken_agent("strict", "garbage", &marker, "strict = true"),
        broken_agent("illegal", "illegal", &marker, ""),
        broken_agent("orphan", "orphan", &marker, "hang_ms = 500"),
        broken_agent("crash-random", "crash", &marker, "on_failure = \"random\""),
        broken_agent("stray", "stray", &marker, ""),
        broken_agent("heir", "heir", &marker, ""),
        broken_agent("flood", "flood", &marker, ""),
    ];
    fs::write(agents.join("broken.toml"), entries.concat()).expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "broken.toml",
        r#"
game = "breakthrough"
games = 2
move_time_ms = 3000
matchups = [["crash", "random"], ["slow", "random"], ["garbage", "random"],
            ["strict", "random"], ["illegal", "random"], ["orphan", "random"],
            ["crash-random", "random"], ["stray", "random"], ["heir", "random"],
            ["flood", "random"]]
"#,
    );
    let out = dir.path().join("out");
    run_with_agents(&experiment, &agents, &out);
    assert_eq!(reasons_of(&out, "crash"), ["crash", "crash"]);
    // An agent that exits while a child of its own holds its stdout crashed: at once, not
    // a timeout at the deadline.
    assert_eq!(reasons_of(&out, "heir"), ["crash", "crash"]);
    assert_eq!(reasons_of(&out, "slow"), ["timeout", "timeout"]);
    assert_eq!(reasons_of(&out, "strict"), ["bad_output", "bad_output"]);
    assert_eq!(
        reasons_of(&out, "illegal"),
        ["illegal_move", "illegal_move"]
    );
    assert_eq!(reasons_of(&out, "orphan"), ["timeout", "timeout"]);
    // A 20 MB line (20x the 1 MiB limit) is bad output, at once (not read into memory, not a timeout).
    assert_eq!(reasons_of(&out, "flood"), ["bad_output", "bad_output"]);
    // Lines that are not JSON are logged, not fatal, unless strict.
    let all = games(&out);
    let garbage = played_by(&all, "garbage");
    assert!(
        garbage
            .iter()
            .all(|g| ["goal-row", "no-pieces"].contains(&g["reason"].as_str())),
        "{garbage:?}"
    );
    let log =
        fs::read_to_string(out.join(format!("logs/garbage/{}.stderr", garbage[0]["game_id"])))
            .expect("garbage log");
    assert!(
        log.contains("[arbiter] stdout line is not a message: thinking very hard..."),
        "{log}"
    );
    // JSON that is not a message (`print(score)`) is logged too, never taken as the move.
    let stray = played_by(&all, "stray");
    assert!(
        stray
            .iter()
            .all(|g| ["goal-row", "no-pieces"].contains(&g["reason"].as_str())),
        "{stray:?}"
    );
    let log = fs::read_to_string(out.join(format!("logs/stray/{}.stderr", stray[0]["game_id"])))
        .expect("stray log");
    assert!(
        log.contains("[arbiter] stdout line is not a message: -24"),
        "{log}"
    );
    assert!(
        log.contains("[arbiter] stdout line is not a message: {\"score\": 3}"),
        "{log}"
    );
    // A crash is logged with the program's own stderr and its exit code.
    let crash = all
        .iter()
        .find(|g| g["p1_agent"] == "crash")
        .expect("crash game");
    let log = fs::read_to_string(out.join(format!("logs/crash/{}.stderr", crash["game_id"])))
        .expect("crash log");
    assert!(
        log.contains("crashing on purpose") && log.contains("exit code 3"),
        "{log}"
    );
    // Under the random policy the game goes on, the failure marked on its moves.
    let random_games = played_by(&all, "crash-random");
    assert!(
        random_games
            .iter()
            .all(|g| ["goal-row", "no-pieces"].contains(&g["reason"].as_str())),
        "{random_games:?}"
    );
    let (header, moves) = read_csv(&out.join("moves.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    let (fault, game_id) = (column("fault"), column("game_id"));
    let faulted = moves
        .iter()
        .filter(|m| m[game_id] == random_games[0]["game_id"] && m[fault] == "crash")
        .count();
    assert!(
        faulted > 0,
        "no move marked crash in game {}",
        random_games[0]["game_id"]
    );
    // What the programs reported is marked as theirs.
    assert!(
        moves
            .iter()
            .any(|m| m[column("self_reported")] == "1" && m[column("expanded")] == "7")
    );
    // Results by how the games ended, per matchup (summary.csv) and per agent (show).
    let (header, summary) = read_csv(&out.join("summary.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    let by = |agent: &str, key: &str| -> String {
        let row = summary
            .iter()
            .find(|r| r[column("agent")] == agent)
            .expect("agent row");
        row[column(key)].clone()
    };
    assert_eq!(by("crash", "losses_by"), "crash=2");
    assert_eq!(by("slow", "losses_by"), "timeout=2");
    assert_eq!(by("illegal", "losses_by"), "illegal_move=2");
    assert_eq!(by("crash", "wins_by"), "");
    let shown = stdout(&run(&["show", text(&out)]));
    assert!(shown.contains("not by the rules (w/l/d)"), "{shown}");
    assert!(shown.contains("crash 0/2/0"), "{shown}");
    assert!(shown.contains("how the games ended, per agent:"), "{shown}");
    assert!(shown.contains("illegal_move w/l/d"), "{shown}");
    assert_none_left(&marker);
}

#[test]
fn an_agent_that_never_starts_stops_its_matchups_and_resumes_once_fixed() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("silent");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    let script = dir.path().join("agent.py");
    let broken = fs::read_to_string(broken_script()).expect("script");
    fs::write(
        &script,
        broken.replace("mode = sys.argv[1]", "mode = 'silent'"),
    )
    .expect("write");
    fs::write(
        agents.join("mine.toml"),
        format!(
            "[[agent]]\nname = \"mine\"\ncommand = [\"{}\", \"{}\", \"x\", \"{marker}\"]\nstartup_ms = 4000\nmax_startup_failures = 2\n",
            python(),
            script.display()
        ),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "silent.toml",
        "game = \"breakthrough\"\ngames = 6\nmatchups = [[\"mine\", \"random\"], [\"random\", \"greedy(heuristic=offensive2)\"]]\n",
    );
    let out = dir.path().join("out");
    let args = |extra: &[&str]| {
        let mut args = vec!["run", "--agents", text(&agents), "--threads", "1"];
        args.extend_from_slice(extra);
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let output = arbiter()
        .args(args(&[text(&experiment), "--out", text(&out), "--quiet"]))
        .output()
        .expect("runs");
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(3), "{err}");
    assert!(
        err.contains("stopped: agent 'mine' failed to start 2 times in a row (no `ready` within the startup timeout (4000 ms): did the program flush stdout after printing it?)"),
        "{err}"
    );
    assert!(err.contains("arbiter run --resume"), "{err}");
    let played = games(&out);
    let mine: Vec<_> = played.iter().filter(|g| g["matchup"] == "0").collect();
    assert_eq!(
        mine.len(),
        2,
        "two startup failures, then no more games: {mine:?}"
    );
    assert!(mine.iter().all(|g| g["reason"] == "startup_failure"));
    assert_eq!(played.iter().filter(|g| g["matchup"] == "1").count(), 6);
    assert_none_left(&marker);

    // Fixed: the rest of its games are played on resume.
    fs::write(&script, broken.replace("mode = sys.argv[1]", "mode = 'ok'")).expect("write");
    let output = arbiter()
        .args(args(&["--resume", text(&out), "--quiet"]))
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let played = games(&out);
    assert_eq!(played.len(), 12);
    assert_eq!(
        played
            .iter()
            .filter(|g| g["reason"] == "startup_failure")
            .count(),
        2
    );
    assert_none_left(&marker);
}

/// A built-in agent served over the protocol plays exactly the games it plays in-process.
#[test]
fn serve_agent_plays_the_same_games_as_the_agent_in_process() {
    for (game, agent, opponent) in [
        (
            "breakthrough",
            "alphabeta(heuristic=offensive2,depth=2)",
            "greedy(heuristic=offensive1)",
        ),
        ("wights", "alphabeta(heuristic=material,depth=3)", "random"),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let agents = dir.path().join("agents");
        fs::create_dir(&agents).expect("mkdir");
        fs::write(
            agents.join("served.toml"),
            format!(
                "[[agent]]\nname = \"served\"\ncommand = [\"{}\", \"serve-agent\", \"{agent}\", \"--game\", \"{game}\"]\n",
                env!("CARGO_BIN_EXE_arbiter")
            ),
        )
        .expect("write agents");
        let mut folders = Vec::new();
        for (name, first) in [("inprocess", agent), ("served", "served")] {
            let experiment = write_experiment(
                dir.path(),
                &format!("{name}.toml"),
                &format!(
                    "game = \"{game}\"\ngames = 6\nseed = 5\nmatchups = [[\"{first}\", \"{opponent}\"]]\n"
                ),
            );
            let out = dir.path().join(name);
            run_with_agents(&experiment, &agents, &out);
            folders.push(out);
        }
        let pick = |folder: &Path| -> Vec<(String, String, String)> {
            games(folder)
                .into_iter()
                .map(|g| (g["moves"].clone(), g["winner"].clone(), g["reason"].clone()))
                .collect()
        };
        assert_eq!(pick(&folders[0]), pick(&folders[1]), "{game}");
        // The served agent's counts come back as its own report.
        let (header, moves) = read_csv(&folders[1].join("moves.csv"));
        let reported = header
            .iter()
            .position(|c| c == "self_reported")
            .expect("column");
        assert!(moves.iter().any(|m| m[reported] == "1"));
        // ... with the nodes expanded and evaluated the same agent counts in process.
        let counts = |folder: &Path, name: &str| -> Vec<(String, String)> {
            let (header, moves) = read_csv(&folder.join("moves.csv"));
            let column = |c: &str| header.iter().position(|h| h == c).expect("column");
            moves
                .iter()
                .filter(|m| m[column("agent")] == name)
                .map(|m| {
                    (
                        m[column("expanded")].clone(),
                        m[column("evaluated")].clone(),
                    )
                })
                .collect()
        };
        let served = counts(&folders[1], "served");
        assert!(!served.is_empty(), "{game}");
        assert!(
            served.iter().any(|(_, evaluated)| evaluated != "0"),
            "{game}"
        );
        assert_eq!(served, counts(&folders[0], agent), "{game}");
    }
}

fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("clients/python/examples")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_python_examples_pass_check_agent_and_a_silent_program_fails_it() {
    if python3().is_none() {
        return;
    }
    for game in ["breakthrough", "wights", "double-card", "chinese-checkers"] {
        let output = run(&[
            "check-agent",
            "--game",
            game,
            "--tolerance-ms",
            "30000",
            python(),
            &example("random_agent.py"),
        ]);
        let out = stdout(&output);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{game}: {out}{}",
            stderr(&output)
        );
        assert!(
            out.contains("ok    handshake: `ready` as 'python random'"),
            "{out}"
        );
        assert!(out.contains("a game as P2 against random moves"), "{out}");
        assert!(out.contains("passed: 0 failed"), "{out}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("check");
    fs::write(
        dir.path().join("silent.toml"),
        broken_agent("silent", "silent", &marker, "startup_ms = 300"),
    )
    .expect("write agents");
    let output = run(&[
        "check-agent",
        "silent",
        "--game",
        "breakthrough",
        "--agents",
        text(dir.path()),
    ]);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{out}");
    assert!(
        out.contains("FAIL  handshake: no `ready` within the startup timeout (300 ms): did the program flush stdout after printing it?"),
        "{out}"
    );
    assert_none_left(&marker);
}

/// The Java example, run from its source file: it passes check-agent, and the same
/// experiment twice gives the same games (its generator is seeded from `new_game`).
#[test]
fn the_java_example_passes_check_agent_and_plays_reproducibly() {
    if !jdk_or_skip() {
        return;
    }
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/java/RandomAgent.java");
    // Generous: `java File.java` compiles the file first, seconds on a loaded machine.
    let output = run(&[
        "check-agent",
        "--game",
        "wights",
        "--startup-ms",
        "120000",
        "--tolerance-ms",
        "30000",
        "java",
        text(&source),
    ]);
    let out = stdout(&output);
    assert_eq!(output.status.code(), Some(0), "{out}{}", stderr(&output));
    assert!(
        out.contains("ok    handshake: `ready` as 'java random'"),
        "{out}"
    );
    assert!(out.contains("passed: 0 failed"), "{out}");

    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("java.toml"),
        format!(
            "[[agent]]\nname = \"java-random\"\ncommand = [\"java\", \"{}\"]\nstartup_ms = 120000\n",
            source.display()
        ),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "java.toml",
        "game = \"chinese-checkers\"\ngames = 2\nseed = 9\nmatchups = [[\"java-random\", \"random\"]]\n",
    );
    let moves_of = |out: &Path| -> Vec<String> {
        run_with_agents(&experiment, &agents, out);
        games(out).into_iter().map(|g| g["moves"].clone()).collect()
    };
    let first = moves_of(&dir.path().join("a"));
    assert_eq!(first.len(), 2);
    assert_eq!(first, moves_of(&dir.path().join("b")));
}

#[test]
fn the_python_alphabeta_example_keeps_its_deadline_and_reports_its_search() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("py.toml"),
        format!(
            "[[agent]]\nname = \"py-ab\"\ncommand = [\"{}\", \"{}\"]\ntolerance_ms = 5000\n",
            python(),
            example("alphabeta_agent.py")
        ),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "py.toml",
        "game = \"breakthrough\"\ngames = 2\nmove_time_ms = 60\nmatchups = [[\"py-ab\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    run_with_agents(&experiment, &agents, &out);
    for game in games(&out) {
        assert_eq!(game["winner_agent"], "py-ab", "{game:?}");
    }
    let (header, moves) = read_csv(&out.join("moves.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    let side_of_py = |m: &Vec<String>| m[column("self_reported")] == "1";
    let own: Vec<_> = moves.iter().filter(|m| side_of_py(m)).collect();
    assert!(!own.is_empty());
    assert!(
        own.iter()
            .all(|m| m[column("depth")].parse::<u32>().expect("depth") >= 1)
    );
    assert!(
        own.iter()
            .all(|m| m[column("timed_out")] == "0" && m[column("fault")].is_empty())
    );
}

/// The greedy and alpha-beta examples hold their own rules for every game; with
/// `check_rules` they compare their move list with arbiter's at every request and exit
/// (a crash in games.csv) on any difference. Rule sets that reach Double Card's recycling
/// and Chinese Checkers' short jumps and home rule are included.
#[test]
fn the_python_examples_rules_agree_with_arbiters_in_every_game() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("py.toml"),
        format!(
            "[[agent]]\nname = \"py-greedy\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ check_rules = 1 }}\n\n\
             [[agent]]\nname = \"py-ab\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ check_rules = 1 }}\ntime_ms = 40\ntolerance_ms = 30000\n",
            example("greedy_agent.py"),
            example("alphabeta_agent.py"),
            python = python(),
        ),
    )
    .expect("write agents");
    let specs = [
        "wights",
        "breakthrough(rules=three-to-base)",
        "breakthrough(rules=long)",
        "double-card(cards=4,moves=30)",
        "double-card(cards=8,moves=30,neighbours_only=1,p1=colors)",
        "chinese-checkers(max_plies=80,home_plies=60)",
        "chinese-checkers(jumps=short,max_plies=40)",
        "connect-four",
        "connect-four(rows=5,columns=4)",
        "othello",
    ];
    let mut recycled = false;
    for (index, spec) in specs.iter().enumerate() {
        let experiment = write_experiment(
            dir.path(),
            &format!("rules{index}.toml"),
            &format!(
                "game = \"{spec}\"\ngames = 2\nseed = {index}\n\
                 matchups = [[\"py-greedy\", \"random\"], [\"py-ab\", \"random\"]]\n"
            ),
        );
        let out = dir.path().join(format!("out{index}"));
        run_with_agents(&experiment, &agents, &out);
        let played = games(&out);
        assert_eq!(played.len(), 4, "{spec}");
        for game in &played {
            for fault in ["crash", "illegal_move", "bad_output", "timeout", "stall"] {
                assert_ne!(game["reason"], fault, "{spec}: {game:?}");
            }
        }
        let (header, moves) = read_csv(&out.join("moves.csv"));
        let column = |name: &str| header.iter().position(|c| c == name).expect("column");
        assert!(
            moves.iter().all(|m| m[column("fault")].is_empty()),
            "{spec}"
        );
        recycled |= moves
            .iter()
            .any(|m| m[column("move")].split(' ').count() == 7);
    }
    assert!(recycled, "no game reached Double Card's recycling");
}

/// `compare` takes registered programs beside the algorithms: the Python alpha-beta,
/// counting nodes as arbiter does, expands exactly what arbiter's alpha-beta expands at
/// depths 1 and 2; a program that fails stops the comparison with exit code 3.
#[test]
fn compare_searches_with_registered_programs_and_stops_on_a_failing_one() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker("compare");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("py.toml"),
        format!(
            "[[agent]]\nname = \"py-ab\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ check_rules = 1 }}\n\n{}",
            example("alphabeta_agent.py"),
            broken_agent("crash", "crash", &marker, ""),
            python = python(),
        ),
    )
    .expect("write agents");
    let out = dir.path().join("out");
    let compare = |algorithms: &str, positions: &str, out: &Path| {
        run(&[
            "compare",
            "breakthrough",
            "--heuristic",
            "offensive2",
            "--algorithms",
            algorithms,
            "--depths",
            "1..2",
            "--positions",
            positions,
            "--threads",
            "1",
            "--agents",
            text(&agents),
            "--out",
            text(out),
            "--quiet",
        ])
    };
    let output = compare("alphabeta,py-ab", "4", &out);
    assert!(output.status.success(), "{}", stderr(&output));
    let (header, rows) = read_csv(&out.join("search.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    let expanded = |position: usize, algorithm: &str, depth: &str| -> String {
        rows.iter()
            .find(|r| {
                r[column("position")] == position.to_string()
                    && r[column("algorithm")] == algorithm
                    && r[column("depth")] == depth
            })
            .map(|r| r[column("expanded")].clone())
            .unwrap_or_else(|| panic!("no row for {algorithm} at depth {depth}: {rows:?}"))
    };
    for position in 0..4 {
        assert_eq!(expanded(position, "py-ab", "1"), "1");
        assert_eq!(
            expanded(position, "py-ab", "2"),
            expanded(position, "alphabeta", "2")
        );
    }
    let shown = stdout(&run(&["show", text(&out)]));
    assert!(shown.contains("External programs: py-ab."), "{shown}");

    let broken = dir.path().join("broken");
    let output = compare("alphabeta,crash", "6", &broken);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let said = format!("{}{}", stdout(&output), stderr(&output));
    assert!(
        said.contains(
            "program 'crash' failed on position 2 at depth 1 (crash: see logs/crash/2.stderr)"
        ),
        "{said}"
    );
    let log = fs::read_to_string(broken.join("logs/crash/2.stderr")).expect("the program's log");
    assert!(log.contains("crashing on purpose"), "{log}");
    let (_, rows) = read_csv(&broken.join("search.csv"));
    assert_eq!(
        rows.len(),
        8,
        "positions 0 and 1, both algorithms at both depths"
    );
    let bad = run(&[
        "compare",
        "breakthrough",
        "--heuristic",
        "offensive2",
        "--algorithms",
        "alphabeta,nobody",
        "--agents",
        text(&agents),
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--algorithms: unknown algorithm 'nobody'"),
        "{}",
        stderr(&bad)
    );
    assert_none_left(&marker);
}

/// Ctrl-C (SIGINT) and SIGTERM (what Slurm and `kill` send) stop a run the same way.
#[test]
fn ctrl_c_or_sigterm_stops_external_agents_mid_move_and_leaves_no_process() {
    if python3().is_none() {
        return;
    }
    for (signal, name) in [(libc::SIGINT, "sigint"), (libc::SIGTERM, "sigterm")] {
        stop_mid_move(signal, name);
    }
}

fn stop_mid_move(signal: i32, name: &str) {
    let dir = tempfile::tempdir().expect("temp dir");
    let marker = marker(name);
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("slow.toml"),
        broken_agent("slow", "slow", &marker, "") + &broken_agent("orphan", "orphan", &marker, ""),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "slow.toml",
        "game = \"breakthrough\"\ngames = 1\nmatchups = [[\"slow\", \"random\"], [\"orphan\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    let child = arbiter()
        .args([
            "run",
            text(&experiment),
            "--agents",
            text(&agents),
            "--out",
            text(&out),
            "--quiet",
            "--threads",
            "2",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    // Both matchups are in progress: a slow move and an orphan-spawning hang. (Generous:
    // on a fully loaded machine a Python program starts in seconds.)
    let until = Instant::now() + Duration::from_secs(120);
    while alive(&marker).len() < 3 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(alive(&marker).len() >= 3, "{:?}", alive(&marker));
    // SAFETY: kill(2) on our own child.
    unsafe { libc::kill(child.id() as i32, signal) };
    let output = child.wait_with_output().expect("ends");
    assert_eq!(
        output.status.code(),
        Some(130),
        "{name}: {}",
        stderr(&output)
    );
    assert_none_left(&marker);
}

/// A typo in an agent's `command` is refused before any game is played (it used to show
/// only as lost games, with exit code 0 for short runs).
#[test]
fn a_typo_in_an_agents_command_is_refused_before_the_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("mine.toml"),
        "[[agent]]\nname = \"mine\"\ncommand = [\"pyhton3\", \"bot.py\"]\n\n\
         [[agent]]\nname = \"local\"\ncommand = [\"./bots/missing.py\"]\n",
    )
    .expect("write agents");
    for (agent, fragment) in [
        (
            "mine",
            "agent 'mine': program 'pyhton3' not found on PATH (a typo in command?)",
        ),
        (
            "local",
            "agent 'local': program './bots/missing.py' not found",
        ),
    ] {
        let experiment = write_experiment(
            dir.path(),
            "typo.toml",
            &format!(
                "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"{agent}\", \"random\"]]\n"
            ),
        );
        let out = dir.path().join("out");
        let output = run(&[
            "run",
            text(&experiment),
            "--agents",
            text(&agents),
            "--out",
            text(&out),
        ]);
        common::assert_input_error(&output, &["typo.toml: line 3:", fragment]);
        assert!(!out.join("games.csv").exists(), "no game is played");
    }
}

/// An agent that fails to start on its last game leaves nothing unplayed: the run is
/// complete (exit 0) and says nothing of games not played.
#[test]
fn an_agent_broken_on_its_last_game_leaves_a_complete_run_without_a_stopped_line() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("dead.toml"),
        format!(
            "[[agent]]\nname = \"dead\"\ncommand = [\"{python}\", \"-c\", \"import sys; sys.exit(1)\"]\nmax_startup_failures = 1\n"
        ),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "dead.toml",
        "game = \"breakthrough\"\ngames = 1\nmatchups = [[\"dead\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    let output = run(&[
        "run",
        text(&experiment),
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("stopped:"), "{}", stderr(&output));
    assert_eq!(games(&out)[0]["reason"], "startup_failure");
}

/// An agent that never sends `info` has no node count: the tables say `-`, not 0.0, while
/// a program that reports its search shows its count, and a built-in random agent (which
/// searches nothing) 0.0.
#[test]
fn nodes_of_a_program_that_reports_nothing_are_shown_unknown() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    fs::write(
        agents.join("py.toml"),
        format!(
            "[[agent]]\nname = \"py-random\"\ncommand = [\"{0}\", \"{1}\"]\ntolerance_ms = 5000\n\n[[agent]]\nname = \"py-ab\"\ncommand = [\"{0}\", \"{2}\"]\ntolerance_ms = 5000\n",
            python(),
            example("random_agent.py"),
            example("alphabeta_agent.py")
        ),
    )
    .expect("write agents");
    let experiment = write_experiment(
        dir.path(),
        "py.toml",
        "game = \"breakthrough\"\ngames = 2\nmove_time_ms = 60\nmatchups = [[\"py-random\", \"py-ab\"], [\"py-random\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    run_with_agents(&experiment, &agents, &out);
    let shown = stdout(&run(&["show", text(&out)]));
    // A row ends with nodes/move, ms/move, captures and plies.
    let nodes_of = |agent: &str| -> Vec<String> {
        shown
            .lines()
            .map(|line| line.split_whitespace().collect::<Vec<_>>())
            .filter(|cells| cells.first() == Some(&agent))
            .map(|cells| cells[cells.len() - 4].to_string())
            .collect()
    };
    assert!(
        shown.contains("nodes/move  ms/move  captures  plies"),
        "{shown}"
    );
    assert_eq!(nodes_of("py-random"), vec!["-", "-"], "{shown}");
    assert_eq!(nodes_of("random"), vec!["0.0"], "{shown}");
    let reported = nodes_of("py-ab");
    assert_eq!(reported.len(), 1, "{shown}");
    assert!(
        reported[0].parse::<f64>().expect("a number") > 0.0,
        "{shown}"
    );
}

#[test]
fn cpu_time_per_move_is_measured_from_the_program_beside_wall_time() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let marker = marker("cpu");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("agents");
    fs::write(
        agents.join("cpu.toml"),
        broken_agent("busy", "busy", &marker, "") + &broken_agent("nap", "nap", &marker, ""),
    )
    .expect("agents");
    let experiment = write_experiment(
        dir.path(),
        "cpu.toml",
        "game = \"breakthrough\"\ngames = 1\nseed = 3\nmax_plies = 12\nmatchups = [[\"busy\", \"nap\"]]\n",
    );
    let out = dir.path().join("out");
    run_with_agents(&experiment, &agents, &out);
    let (header, rows) = read_csv(&out.join("moves.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (agent, ms, cpu) = (column("agent"), column("ms"), column("cpu_ms"));
    assert_eq!(header[cpu - 1], "ms", "cpu_ms stands beside ms");
    let figures = |who: &str| -> Vec<(f64, f64)> {
        rows.iter()
            .filter(|r| r[agent] == who)
            .map(|r| (r[ms].parse().expect("ms"), r[cpu].parse().expect("cpu_ms")))
            .collect()
    };
    let (busy, nap) = (figures("busy"), figures("nap"));
    assert_eq!((busy.len(), nap.len()), (6, 6), "{rows:?}");
    // The busy program burns 100 ms of CPU a move: all of it is counted, however loaded
    // the machine is. The napping one takes 100 ms of wall time and almost no CPU.
    for (wall, cpu) in &busy {
        assert!(*cpu >= 95.0 && *cpu <= wall + 5.0, "busy: {busy:?}");
    }
    for (wall, cpu) in &nap {
        assert!(*wall >= 99.0 && *cpu < 50.0, "nap: {nap:?}");
    }
    assert_none_left(&marker);
}

/// The Python helper reads stdin from its file descriptor and looks for a quick request
/// before sleeping: through a real pipe, lines written whole, in pieces, several in one
/// write, after pauses that turn looking off and quick ones that turn it on again, and a
/// last line without its end come out exactly as `for line in sys.stdin` gives them.
#[test]
fn the_python_helper_reads_requests_as_python_reads_stdin() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let Some(python) = python3() else {
        return;
    };
    let helpers = Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/python");
    let mut writes: Vec<(String, u64)> = Vec::new();
    for i in 0..300 {
        let line = format!(
            "{{\"type\":\"move\",\"n\":{i},\"text\":\"é ✓ {}\"}}\n",
            "x".repeat(i % 7)
        );
        match i % 10 {
            // In two pieces, the second after a pause.
            3 => {
                let (a, b) = line.split_at(5);
                writes.push((a.to_string(), 0));
                writes.push((b.to_string(), 2));
            }
            // After a pause long enough to turn looking off.
            7 => writes.push((line, 25)),
            _ => writes.push((line, 0)),
        }
    }
    writes.push(("three\nin one\nwrite\n".to_string(), 0));
    writes.push(("\n  \nno end".to_string(), 1));
    let expected: String = writes.iter().map(|(text, _)| text.as_str()).collect();
    let script = format!(
        "import sys; sys.path.insert(0, {:?}); import arbiter_agent\n\
         for line in arbiter_agent._requests():\n    sys.stdout.write(repr(line) + '\\n')\n",
        helpers.display().to_string()
    );
    let mut child = Command::new(python)
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start python3");
    let mut stdin = child.stdin.take().expect("stdin");
    for (text, pause_ms) in &writes {
        std::thread::sleep(Duration::from_millis(*pause_ms));
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }
    drop(stdin);
    let output = child.wait_with_output().expect("python3 ends");
    assert!(output.status.success(), "{}", stderr(&output));
    // What Python's own line iteration gives for the same bytes.
    let reference = Command::new(python)
        .args([
            "-c",
            "import sys\nfor line in sys.stdin:\n    sys.stdout.write(repr(line) + '\\n')\n",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(expected.as_bytes())?;
            child.wait_with_output()
        })
        .expect("python3 reads");
    assert_eq!(stdout(&output), stdout(&reference));
    assert_eq!(stdout(&output).lines().count(), 300 + 3 + 3);
}
