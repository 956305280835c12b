//! Game clocks (`time_control = "BASE+INCREMENT"`): flag fall, increments, both clocks in
//! every request to a program, built-in agents keeping to their share, CPU clocks; and
//! adjudication (`adjudicate`); with their bad settings.

use crate::common;

use crate::common::{assert_input_error, python3, run, stderr, text, write_experiment};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

type Row = BTreeMap<String, String>;

fn rows(path: &Path) -> Vec<Row> {
    common::csv_maps(path)
}

fn number(row: &Row, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} = '{}' in {row:?}", row[key]))
}

fn broken_agent(name: &str, mode: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/broken.py");
    format!(
        "[[agent]]\nname = \"{name}\"\ncommand = [\"{}\", \"{}\", \"{mode}\", \"arbiter-clock-test\"]\n",
        python3().expect("checked"),
        script.display()
    )
}

/// Runs `experiment_text` with `agents_text` as the only agent file; returns the folder.
fn play(dir: &Path, experiment_text: &str, agents_text: &str) -> PathBuf {
    let agents = dir.join("agents");
    fs::create_dir_all(&agents).expect("agents");
    fs::write(agents.join("a.toml"), agents_text).expect("agent file");
    let experiment = write_experiment(dir, "clock.toml", experiment_text);
    let out = dir.join("out");
    let output = run(&[
        "run",
        text(&experiment),
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    out
}

#[test]
fn each_clock_loses_each_move_and_gains_its_increment_and_built_in_agents_keep_their_share() {
    let dir = tempfile::tempdir().expect("dir");
    // Iterative deepening with a budget far beyond the clock: the clock decides.
    let out = play(
        dir.path(),
        "game = \"breakthrough\"\ngames = 2\nseed = 4\nmax_plies = 40\ntime_control = [\"2+0.05\", \"1+0.02\"]\nmatchups = [[\"alphabeta-tt(heuristic=offensive2,time_ms=60000)\", \"alphabeta(heuristic=defensive2,time_ms=60000)\"]]\n",
        "",
    );
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 2);
    for game in &games {
        assert_ne!(
            game["reason"], "timeout",
            "a built-in agent flagged: {game:?}"
        );
    }
    let moves = rows(&out.join("moves.csv"));
    // Per game and side: the clock after each move is the clock before it, less the
    // move's time, plus the increment (to the printed precision).
    let mut before: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut over = Vec::new();
    for mv in &moves {
        let first = mv["agent"].starts_with("alphabeta-tt");
        let (base, increment) = if first {
            (2000.0, 50.0)
        } else {
            (1000.0, 20.0)
        };
        let key = (mv["game_id"].clone(), mv["side"].clone());
        let left = *before.get(&key).unwrap_or(&base);
        let (ms, after) = (number(mv, "ms"), number(mv, "clock_ms"));
        assert!(
            (after - (left - ms + increment)).abs() < 0.01,
            "clock {left} - {ms} + {increment} != {after}: {mv:?}"
        );
        // Its share of the time left (a twentieth plus three quarters of the increment),
        // with room for the last iteration's check. A loaded machine can hold a thread
        // back past it now and then (wall time), so most moves, not all, are checked.
        let share = (left / 20.0 + increment * 0.75).min(left / 2.0);
        if ms > share + 40.0 {
            over.push(format!("{ms:.1} ms of a {share:.1} ms share"));
        }
        before.insert(key, after);
    }
    assert!(moves.len() >= 20, "{} moves", moves.len());
    // Without managing its clock an agent would spend its whole time left on a move (the
    // deadline) and lose on time at once: no timeout above says it did manage.
    assert!(over.len() * 5 <= moves.len(), "over their share: {over:?}");
}

#[test]
fn a_flag_that_falls_loses_on_time_and_programs_get_both_clocks_in_every_request() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let agents = broken_agent("sleepy", "sleepy") + &broken_agent("clocked", "clock");
    let out = play(
        dir.path(),
        "game = \"breakthrough\"\ngames = 2\nseed = 4\nmax_plies = 12\ntime_control = [\"0.2+0\", \"30+0.5\"]\nmatchups = [[\"sleepy\", \"clocked\"]]\n",
        &agents,
    );
    let games = rows(&out.join("games.csv"));
    // The sleepy program's 0.5 s first move is over its 0.2 s clock: it loses on time at
    // once, in both colours.
    for game in &games {
        assert_eq!(game["reason"], "timeout", "{game:?}");
        assert_eq!(game["winner_agent"], "clocked", "{game:?}");
    }
    // The clocked program moved first in one game and saw both clocks, full.
    let logs: String = fs::read_dir(out.join("logs/clocked"))
        .expect("logs")
        .flatten()
        .filter_map(|f| fs::read_to_string(f.path()).ok())
        .collect();
    let seen: Vec<serde_json::Value> = logs
        .lines()
        .filter_map(|l| l.strip_prefix("clock: "))
        .map(|l| serde_json::from_str(l).expect("clock JSON"))
        .collect();
    assert!(!seen.is_empty(), "{logs}");
    let first = &seen[0];
    assert_eq!(first["basis"], "wall");
    // It plays P1 in the game it opens: its own 30 s and the sleeper's 0.2 s.
    assert_eq!(
        (first["p1_ms"].as_u64(), first["p2_ms"].as_u64()),
        (Some(30000), Some(200)),
        "{first}"
    );
    assert_eq!(
        (
            first["p1_increment_ms"].as_u64(),
            first["p2_increment_ms"].as_u64()
        ),
        (Some(500), Some(0))
    );
}

#[test]
fn a_cpu_clock_charges_a_program_its_cpu_not_its_naps() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    // 0.1 s of sleep a move against a 0.3 s clock: on wall time the napper would flag at
    // its third move; on CPU time it plays on.
    let out = play(
        dir.path(),
        "game = \"breakthrough\"\ngames = 1\nseed = 4\nmax_plies = 12\ntime_control = \"0.3+0\"\nclock = \"cpu\"\nmatchups = [[\"nap\", \"random\"]]\n",
        &broken_agent("nap", "nap"),
    );
    let games = rows(&out.join("games.csv"));
    assert_ne!(games[0]["reason"], "timeout", "{games:?}");
    let moves = rows(&out.join("moves.csv"));
    let napper: Vec<&Row> = moves.iter().filter(|m| m["agent"] == "nap").collect();
    assert_eq!(napper.len(), 6);
    let last = napper.last().expect("moves");
    assert!(number(last, "clock_ms") > 100.0, "{last:?}");
    assert!(number(last, "ms") >= 99.0, "{last:?}");
}

#[test]
fn bad_time_controls_are_one_line_errors_naming_the_line() {
    let dir = tempfile::tempdir().expect("dir");
    for (setting, fragments) in [
        (
            "time_control = \"fast\"",
            vec![
                "line 5",
                "time control 'fast': the base time 'fast' is not a number",
            ],
        ),
        (
            "time_control = \"0+1\"",
            vec!["line 5", "the base time must be positive"],
        ),
        (
            "time_control = \"60+-1\"",
            vec!["line 5", "the increment must be from 0"],
        ),
        (
            "time_control = [\"60\"]",
            vec!["line 5", "so two of them, not 1"],
        ),
        (
            "time_control = 60",
            vec![
                "line 5",
                "time_control = 60: expected a string such as \"60+0.5\"",
            ],
        ),
        (
            "clock = \"cpu\"",
            vec!["line 5", "clock: there is no time_control for it to run"],
        ),
        (
            "time_control = \"1\"\nclock = \"sundial\"",
            vec![
                "line 6",
                "clock = \"sundial\": expected \"wall\" (the default) or \"cpu\"",
            ],
        ),
    ] {
        let experiment = write_experiment(
            dir.path(),
            "bad.toml",
            &format!(
                "game = \"breakthrough\"\ngames = 2\nseed = 4\nmatchups = [[\"random\", \"random\"]]\n{setting}\n"
            ),
        );
        let output = run(&[
            "run",
            text(&experiment),
            "--out",
            text(&dir.path().join("out")),
        ]);
        let mut expected = vec!["bad.toml"];
        expected.extend(fragments);
        assert_input_error(&output, &expected);
    }
}

#[test]
fn adjudication_ends_games_with_its_rule_as_the_reason() {
    let dir = tempfile::tempdir().expect("dir");
    // Every score is in a band this wide: each game is drawn once both sides held it four
    // moves and ply 12 is reached, so at ply 12 exactly.
    let out = play(
        dir.path(),
        "game = \"breakthrough\"\ngames = 4\nseed = 9\nmatchups = [[\"ab2-offensive2\", \"ab2-defensive2\"]]\nadjudicate = { draw_score = 1e12, draw_moves = 4, draw_after = 12 }\n",
        "[[agent]]\nname = \"ab2-offensive2\"\nalgorithm = \"alphabeta\"\nheuristic = \"offensive2\"\ndepth = 2\n[[agent]]\nname = \"ab2-defensive2\"\nalgorithm = \"alphabeta\"\nheuristic = \"defensive2\"\ndepth = 2\n",
    );
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 4);
    for game in &games {
        assert_eq!(
            (
                game["reason"].as_str(),
                game["winner"].as_str(),
                game["plies"].as_str()
            ),
            ("adjudicated-draw", "draw", "12"),
            "{game:?}"
        );
    }
    // Resigning when the scores agree: offensive2 at depth 4 against depth 2 sees its
    // win (and the loser its loss: 10,000 and more, -10,000 and less) a few plies before
    // the goal row; one move of agreement ends the game there.
    let dir = tempfile::tempdir().expect("dir");
    let out = play(
        dir.path(),
        "game = \"breakthrough\"\ngames = 4\nseed = 9\nmatchups = [[\"alphabeta(heuristic=offensive2,depth=4)\", \"alphabeta(heuristic=offensive2,depth=2)\"]]\nadjudicate = { resign_score = 10000, resign_moves = 1 }\n",
        "",
    );
    let games = rows(&out.join("games.csv"));
    assert!(
        games.iter().any(|g| g["reason"] == "adjudicated-resign"),
        "{games:?}"
    );
    let moves = rows(&out.join("moves.csv"));
    for game in games.iter().filter(|g| g["reason"] == "adjudicated-resign") {
        // The last two moves' scores: the loser's at most -10,000, the winner's at least
        // 10,000.
        let last: Vec<&Row> = moves
            .iter()
            .filter(|m| m["game_id"] == game["game_id"])
            .collect();
        let [before, at] = [last[last.len() - 2], last[last.len() - 1]];
        let winner = if number(at, "value") >= 10000.0 {
            at
        } else {
            before
        };
        let loser = if std::ptr::eq(winner, at) { before } else { at };
        assert_eq!(winner["side"], game["winner"], "{game:?}");
        assert!(number(winner, "value") >= 10000.0 && number(loser, "value") <= -10000.0);
    }
}

#[test]
fn bad_adjudication_settings_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("dir");
    for (setting, fragment) in [
        (
            "adjudicate = { resign_score = 100 }",
            "resign_score needs resign_moves",
        ),
        (
            "adjudicate = { draw_moves = 3 }",
            "draw_moves needs draw_score",
        ),
        (
            "adjudicate = { resign_score = 100, resign_moves = 0 }",
            "resign_moves = 0: give 1 to 100000 moves",
        ),
        (
            "adjudicate = { resign_score = 0, resign_moves = 2 }",
            "would end every game at once",
        ),
        (
            "adjudicate = { draw_after = 40 }",
            "draw_after without draw_score and draw_moves",
        ),
        (
            "adjudicate = { oracle = true, oracle_after = -1 }",
            "oracle_after = -1: give a ply from 0",
        ),
        (
            "adjudicate = {}",
            "give resign_score and resign_moves, draw_score and draw_moves (and draw_after), or oracle = true",
        ),
        ("adjudicate = { resign = 3 }", "unknown field `resign`"),
    ] {
        let experiment = write_experiment(
            dir.path(),
            "bad.toml",
            &format!(
                "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"random\", \"random\"]]\n{setting}\n"
            ),
        );
        let output = run(&[
            "run",
            text(&experiment),
            "--out",
            text(&dir.path().join("out")),
        ]);
        assert_input_error(&output, &["bad.toml", "line 4", fragment]);
    }
}

/// On `clock = "cpu"`, a correct program that a loaded machine starves of its core (here:
/// 20 ms of CPU a move at 5% of a core, 0.4 s of wall time) passes a class's checks and
/// loses no game on time: the checks judge CPU as the run's clocks do, and the wall-clock
/// backstop (three times the time left: 0.15-0.2 s here) waits while it computes.
#[test]
fn a_starved_program_on_a_cpu_clock_passes_its_check_and_keeps_its_games() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let folder = dir.path().join("subs/starved");
    fs::create_dir_all(&folder).expect("submission");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/broken.py");
    fs::write(
        folder.join("agent.toml"),
        format!(
            "command = [\"{}\", \"{}\", \"starved\", \"arbiter-clock-test\"]\n",
            python3().expect("checked"),
            script.display()
        ),
    )
    .expect("manifest");
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"connect-four\"\ngames = 2\nseed = 4\nagents_dir = \"subs\"\nround_robin = [\"random\"]\ntime_control = \"0.05+0.03\"\nclock = \"cpu\"\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out)]);
    let err = stderr(&output);
    assert!(output.status.success(), "{err}");
    assert!(!err.contains("failed its check"), "{err}");
    let played = rows(&out.join("games.csv"));
    assert_eq!(played.len(), 2, "{err}");
    assert!(
        played.iter().all(|g| g["reason"] != "timeout"),
        "{played:?}"
    );
}

/// On a game clock a built-in agent with no depth limit (`depth=0`) or a depth past a
/// fixed search's (`depth=30`) and no budget of its own manages its time from the clock,
/// deepening as far as its share of each move allows; without a clock it is refused.
#[test]
fn an_agent_told_to_use_the_clock_deepens_within_its_share_and_never_flags() {
    let dir = tempfile::tempdir().expect("dir");
    let pair = "matchups = [[\"alphabeta-tt(heuristic=windows,depth=0)\", \"alphabeta(heuristic=windows,depth=30)\"]]\n";
    let out = play(
        dir.path(),
        &format!("game = \"connect-four\"\ngames = 2\nseed = 6\ntime_control = \"2+0.1\"\n{pair}"),
        "",
    );
    let games = rows(&out.join("games.csv"));
    assert_eq!(games.len(), 2);
    assert!(
        games.iter().all(|g| g["reason"] != "timeout"),
        "an agent lost on time: {games:?}"
    );
    let moves = rows(&out.join("moves.csv"));
    for agent in ["alphabeta-tt", "alphabeta("] {
        let depths: Vec<f64> = moves
            .iter()
            .filter(|m| m["agent"].starts_with(agent))
            .map(|m| number(m, "depth"))
            .collect();
        assert!(!depths.is_empty(), "{agent}");
        let deepest = depths.iter().copied().fold(0.0, f64::max);
        // A fixed search would be 30 plies (hours) or none at all; its share of a 2 s
        // clock reaches several plies (the end of the game, near it: at most 64).
        assert!((3.0..=64.0).contains(&deepest), "{agent}: {depths:?}");
    }
    let unclocked = write_experiment(
        dir.path(),
        "unclocked.toml",
        &format!("game = \"connect-four\"\ngames = 2\n{pair}"),
    );
    assert_input_error(
        &run(&[
            "run",
            text(&unclocked),
            "--out",
            text(&dir.path().join("none")),
        ]),
        &[
            "unclocked.toml",
            "depth 0 deepens until something stops it",
            "time_control",
        ],
    );
}
