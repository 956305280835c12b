//! `arbiter ladder`: one rating list over real runs, the same whatever order the runs are
//! named in, anchored on request, with one-line errors for bad input.

use crate::common::{
    assert_input_error, read_csv, run, run_quietly, stderr, stdout, text, write_experiment,
};
use std::fs;
use std::path::Path;

fn two_runs(dir: &Path) -> [std::path::PathBuf; 2] {
    let runs = dir.join("runs");
    let mut out = Vec::new();
    for (week, seed) in [("week1", 1), ("week2", 2)] {
        let experiment = write_experiment(
            dir,
            &format!("{week}.toml"),
            &format!(
                "game = \"connect-four\"\ngames = 10\nseed = {seed}\nround_robin = [\"random\", \"greedy(heuristic=windows)\", \"alphabeta(heuristic=windows,depth=3)\"]\n"
            ),
        );
        let folder = runs.join(week);
        run_quietly(&experiment, &folder);
        out.push(folder);
    }
    [out[0].clone(), out[1].clone()]
}

#[test]
fn a_ladder_over_two_runs_is_the_same_in_any_order_and_anchors_on_request() {
    let dir = tempfile::tempdir().expect("dir");
    let [week1, week2] = two_runs(dir.path());
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    let output = run(&["ladder", text(&week1), text(&week2), "--out", text(&one)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let printed = stdout(&output);
    assert!(printed.contains("ladder over 2 runs:"), "{printed}");
    assert!(printed.contains("after run 2"), "{printed}");
    // Named the other way round, or as the folder holding both: the same files.
    let output = run(&["ladder", text(&week2), text(&week1), "--out", text(&two)]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in ["ladder.csv", "crosstable.csv", "history.csv", "ladder.md"] {
        assert_eq!(
            fs::read_to_string(one.join(file)).expect("one"),
            fs::read_to_string(two.join(file)).expect("two"),
            "{file}"
        );
    }
    let three = dir.path().join("three");
    let output = run(&[
        "ladder",
        text(&dir.path().join("runs")),
        "--out",
        text(&three),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert_eq!(
        fs::read_to_string(one.join("ladder.csv")).expect("one"),
        fs::read_to_string(three.join("ladder.csv")).expect("three")
    );
    // Every game of both runs counted: 3 matchups x 10 games each, 20 games an agent a run.
    let (header, rows) = read_csv(&one.join("ladder.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .all(|r| r[column("games")] == "40" && r[column("runs")] == "2")
    );
    // Alpha-beta at depth 3 is on top, random at the bottom.
    assert_eq!(
        rows[0][column("agent")],
        "alphabeta(heuristic=windows,depth=3)"
    );
    assert_eq!(rows[2][column("agent")], "random");
    let (_, history) = read_csv(&one.join("history.csv"));
    assert_eq!(history.len(), 6, "three agents after each of two runs");
    let html = fs::read_to_string(one.join("ladder.html")).expect("html");
    assert!(html.contains("<h2>Crosstable</h2>") && html.contains("<h2>History</h2>"));
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(one.join("ladder.json")).expect("json"))
            .expect("JSON");
    assert_eq!(json["rows"].as_array().expect("rows").len(), 3);
    // Anchored to random: its rating is 0 and the others keep their gaps.
    let anchored = dir.path().join("anchored");
    let output = run(&[
        "ladder",
        text(&week1),
        text(&week2),
        "--anchor",
        "random",
        "--out",
        text(&anchored),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, rows) = read_csv(&anchored.join("ladder.csv"));
    let random = rows
        .iter()
        .find(|r| r[column("agent")] == "random")
        .expect("random");
    assert_eq!(
        (
            random[column("elo")].as_str(),
            random[column("elo_low95")].as_str()
        ),
        ("0.0", "0.0")
    );
}

#[test]
fn bad_ladder_input_is_one_line() {
    let dir = tempfile::tempdir().expect("dir");
    let empty = dir.path().join("empty");
    fs::create_dir(&empty).expect("empty");
    let out = dir.path().join("out");
    assert_input_error(
        &run(&["ladder", text(&empty), "--out", text(&out)]),
        &["empty: no run in it"],
    );
    assert_input_error(
        &run(&[
            "ladder",
            text(&dir.path().join("nowhere")),
            "--out",
            text(&out),
        ]),
        &["nowhere: no such folder"],
    );
    // A games.csv with a bad row names its line.
    let broken = dir.path().join("broken");
    fs::create_dir(&broken).expect("broken");
    fs::write(
        broken.join("games.csv"),
        "game_id,p1_agent,p2_agent,winner,reason\n0,a,b,P1,goal\n1,a,b,P3,goal\n",
    )
    .expect("games");
    assert_input_error(
        &run(&["ladder", text(&broken), "--out", text(&out)]),
        &[
            "broken/games.csv: line 3",
            "winner 'P3' is not P1, P2 or draw",
        ],
    );
    fs::write(broken.join("games.csv"), "game_id,agent\n0,a\n").expect("games");
    assert_input_error(
        &run(&["ladder", text(&broken), "--out", text(&out)]),
        &["no 'p1_agent' column"],
    );
    let [week1, _] = two_runs(dir.path());
    assert_input_error(
        &run(&[
            "ladder",
            text(&week1),
            "--anchor",
            "zed",
            "--out",
            text(&out),
        ]),
        &["--anchor zed: no such agent in the runs"],
    );
    // The ladder never writes into a run.
    assert_input_error(
        &run(&["ladder", text(&week1), "--out", text(&week1)]),
        &["it holds a run"],
    );
}

/// A run that has just started (meta.json says running, games.csv still empty) is a run
/// with no game yet, and a run not ended is counted with a note saying so.
#[test]
fn a_run_that_has_not_ended_is_counted_with_a_note() {
    let dir = tempfile::tempdir().expect("dir");
    let [week1, week2] = two_runs(dir.path());
    let meta = fs::read_to_string(week2.join("meta.json")).expect("meta");
    let running = meta.replace("\"status\": \"complete\"", "\"status\": \"running\"");
    assert_ne!(meta, running, "meta.json holds its status");
    fs::write(week2.join("meta.json"), running).expect("meta");
    fs::write(week2.join("games.csv"), "").expect("empty");
    let out = dir.path().join("ladder");
    let output = run(&["ladder", text(&week1), text(&week2), "--out", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains(&format!(
            "note: {} has not ended (still running, or stopped): its 0 games so far are counted",
            week2.canonicalize().expect("week2").display()
        )),
        "{}",
        stderr(&output)
    );
    assert!(
        stdout(&output).contains("ladder over 2 runs"),
        "{}",
        stdout(&output)
    );
}
