//! Named heuristics (`[[heuristic]]` in agent files): usable by agents in files, inline
//! specs, sweeps and `compare`, equal to their base with the same parameters, listed, and
//! refused with one line when wrong.

use crate::common::*;
use std::fs;
use std::path::Path;

const HEURISTICS: &str = r#"
[[heuristic]]
name = "my-offense"
base = "linear"
game = "breakthrough"
description = "report 001's offense, as linear weights"
params = { own_taken = 50, own_threatened = -10, own_max_advance_sq = 1 }
"#;

const AGENTS: &str = r#"
[[agent]]
name = "ab2-mine"
algorithm = "alphabeta"
heuristic = "my-offense"
depth = 2
"#;

fn agents_folder(dir: &Path, heuristics: &str) -> String {
    let folder = dir.join("agents");
    fs::create_dir_all(&folder).expect("folder");
    // The agent's file sorts before the heuristic's: the order of files does not matter.
    fs::write(folder.join("a-agents.toml"), AGENTS).expect("write");
    fs::write(folder.join("b-heuristics.toml"), heuristics).expect("write");
    text(&folder).to_string()
}

#[test]
fn a_named_heuristic_plays_as_its_base_with_its_parameters() {
    let dir = tempfile::tempdir().expect("dir");
    let agents = agents_folder(dir.path(), HEURISTICS);
    let listed = stdout(&run(&["list", "--agents", &agents]));
    assert!(
        listed.contains("my-offense")
            && listed.contains(
                "linear(own_max_advance_sq=1,own_taken=50,own_threatened=-10) for breakthrough"
            ),
        "{listed}"
    );
    // The named heuristic, by a file agent and inline (with one weight given again), and
    // report 001's offense play the same games against the same opponent.
    let games_of = |agent: &str, name: &str| -> Vec<String> {
        let experiment = write_experiment(
            dir.path(),
            &format!("{name}.toml"),
            &format!(
                "game = \"breakthrough\"\ngames = 6\nseed = 4\nopenings = {{ random_plies = 2 }}\nmatchups = [[\"{agent}\", \"greedy(heuristic=defense)\"]]\n"
            ),
        );
        let out = dir.path().join(name);
        let output = run_experiment(&experiment, &out, &["--agents", &agents]);
        assert!(output.status.success(), "{}", stderr(&output));
        let (header, rows) = read_csv(&out.join("games.csv"));
        let moves = header.iter().position(|h| h == "moves").expect("moves");
        rows.iter().map(|r| r[moves].clone()).collect()
    };
    let offense = games_of("alphabeta(heuristic=offense,depth=2)", "offense");
    assert_eq!(offense.len(), 6);
    assert_eq!(games_of("ab2-mine", "file"), offense);
    assert_eq!(
        games_of(
            "alphabeta(heuristic=my-offense,depth=2,own_taken=50)",
            "inline"
        ),
        offense
    );
    // A weight given with it wins over the named one's.
    assert_ne!(
        games_of(
            "alphabeta(heuristic=my-offense,depth=2,own_max_advance_sq=-1)",
            "changed"
        ),
        offense
    );
    // compare takes it too, and counts the same nodes as offense.
    let nodes = |heuristic: &str| {
        let out = dir.path().join(format!("compare-{heuristic}"));
        let output = run(&[
            "compare",
            "breakthrough",
            "--heuristic",
            heuristic,
            "--algorithms",
            "alphabeta",
            "--depths",
            "2",
            "--positions",
            "5",
            "--out",
            text(&out),
            "--quiet",
            "--agents",
            &agents,
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let (header, rows) = read_csv(&out.join("search.csv"));
        let expanded = header
            .iter()
            .position(|h| h == "expanded")
            .expect("expanded");
        rows.iter().map(|r| r[expanded].clone()).collect::<Vec<_>>()
    };
    assert_eq!(nodes("my-offense"), nodes("offense"));
}

#[test]
fn bad_named_heuristics_are_refused_with_one_line() {
    let bad = |heuristics: &str, fragments: &[&str]| {
        let dir = tempfile::tempdir().expect("dir");
        let agents = agents_folder(dir.path(), heuristics);
        assert_input_error(&run(&["list", "--agents", &agents]), fragments);
    };
    bad(
        &HEURISTICS.replace("base = \"linear\"", "base = \"lineal\""),
        &[
            "b-heuristics.toml: line 3: heuristic 'my-offense'",
            "lineal",
        ],
    );
    bad(
        &HEURISTICS.replace("own_taken = 50", "own_takn = 50"),
        &[
            "line 3: heuristic 'my-offense'",
            "unknown parameter 'own_takn'",
        ],
    );
    bad(
        &HEURISTICS.replace("name = \"my-offense\"", "name = \"offense\""),
        &["heuristic 'offense': a built-in heuristic has this name"],
    );
    bad(
        &format!("{HEURISTICS}{HEURISTICS}"),
        &["heuristic 'my-offense': already defined in"],
    );
    bad(
        &HEURISTICS.replace("game = \"breakthrough\"", "game = \"wights\""),
        &["heuristic 'my-offense'", "linear"],
    );
}

#[test]
fn a_search_run_with_a_named_heuristic_resumes_without_the_agent_files() {
    let dir = tempfile::tempdir().expect("dir");
    let agents = agents_folder(dir.path(), HEURISTICS);
    let experiment = write_experiment(
        dir.path(),
        "s.toml",
        "kind = \"search\"\ngame = \"breakthrough\"\nheuristic = \"my-offense\"\npositions = 12\nseed = 2\nalgorithms = [\"alphabeta\"]\ndepths = [2]\n",
    );
    let out = dir.path().join("run");
    let output = run_experiment(
        &experiment,
        &out,
        &["--agents", &agents, "--max-games", "5"],
    );
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    // The agent files are gone: the run goes on with the heuristic it recorded.
    fs::remove_dir_all(dir.path().join("agents")).expect("remove");
    let output = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, rows) = read_csv(&out.join("search.csv"));
    assert_eq!(rows.len(), 12);
}

#[test]
fn fitted_weights_come_from_the_recorded_games_and_play() {
    let dir = tempfile::tempdir().expect("dir");
    let out = dir.path().join("quick");
    run_quietly(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/quick.toml"),
        &out,
    );
    let output = run(&["fit", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    // The fit explains the results far better than the base rate.
    let losses: Vec<f64> = printed
        .lines()
        .next()
        .expect("first line")
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(losses.len() >= 4, "{printed}");
    let (loss, base) = (losses[losses.len() - 2], losses[losses.len() - 1]);
    assert!(loss < 0.8 * base, "{loss} vs {base}: {printed}");
    let (header, rows) = read_csv(&out.join("fit.csv"));
    assert_eq!(header, ["parameter", "weight"]);
    assert_eq!(rows.len(), 16, "own and opponent forms of the 8 features");
    let weight = |name: &str| -> f64 {
        rows.iter()
            .find(|r| r[0] == name)
            .and_then(|r| r[1].parse().ok())
            .expect(name)
    };
    // A runner (one row before the goal, unattacked) wins games; the opponent's loses them.
    assert!(
        weight("own_runners") > 0.0 && weight("opp_runners") < 0.0,
        "{rows:?}"
    );
    // The printed heuristic is an agent spec that plays.
    let heuristic = printed
        .lines()
        .find_map(|l| l.strip_prefix("heuristic: linear("))
        .and_then(|h| h.strip_suffix(')'))
        .expect("heuristic line");
    let output = run(&[
        "match",
        &format!("alphabeta(heuristic=linear,depth=1,{heuristic})"),
        "random",
        "--game",
        "breakthrough",
        "--games",
        "4",
        "--out",
        text(&dir.path().join("match")),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // So is the ready agent line, as printed.
    let agent = printed
        .lines()
        .find_map(|l| l.strip_prefix("agent: "))
        .expect("agent line");
    assert!(
        agent.starts_with("alphabeta(heuristic=linear,depth=3,"),
        "{agent}"
    );
    let output = run(&[
        "match",
        agent,
        "random",
        "--game",
        "breakthrough",
        "--games",
        "2",
        "--out",
        text(&dir.path().join("agent")),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // Not a game run; no position that late.
    let tune = dir.path().join("tune");
    fs::create_dir_all(&tune).expect("folder");
    fs::write(tune.join("meta.json"), "{}").expect("meta");
    assert_input_error(&run(&["fit", text(&tune)]), &["no games.csv"]);
    assert_input_error(
        &run(&["fit", text(&out), "--from-ply", "5000"]),
        &["no positions from ply 5000 on"],
    );
}
