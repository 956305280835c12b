//! The shipped class example (matchups/class) as its README runs it: two weeks of a
//! sandboxed Swiss of fifteen students' agents in Python and Java, then the ladder.

use crate::common;

use crate::common::{component, jdk_or_skip, read_csv, run, stderr, stdout, text};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// A copy of `from` under `to`, every folder and file readable by all (the sandbox runs
/// as `nobody` when the tests run as root, whatever the checkout's permissions).
fn copy_readable(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("folder");
    fs::set_permissions(to, fs::Permissions::from_mode(0o755)).expect("chmod");
    for entry in fs::read_dir(from).expect("readable").flatten() {
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_readable(&source, &target);
        } else {
            fs::copy(&source, &target).expect("copy");
            fs::set_permissions(&target, fs::Permissions::from_mode(0o644)).expect("chmod");
        }
    }
}

#[test]
fn the_class_example_plays_two_weeks_sandboxed_and_rates_them_on_one_ladder() {
    let bwrap = common::runs("bwrap", &["--version"]);
    let python = Path::new("/usr/bin/python3").is_file();
    if !component(
        bwrap && python,
        "bubblewrap (bwrap) and /usr/bin/python3",
        "install them (Debian packages bubblewrap and python3), as .ci/run does",
    ) || !jdk_or_skip()
    {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).expect("chmod");
    let class = dir.path().join("class");
    copy_readable(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("matchups/class"),
        &class,
    );
    let weeks = dir.path().join("results");
    let mut folders = Vec::new();
    for week in ["week1", "week2"] {
        let out = weeks.join(week);
        let output = run(&[
            "run",
            text(&class.join(format!("{week}.toml"))),
            "--sandbox",
            "--out",
            text(&out),
        ]);
        assert!(output.status.success(), "{week}: {}", stderr(&output));
        folders.push((out, stderr(&output), stdout(&output)));
    }
    let (week1, notes, _) = &folders[0];
    // Left out, each in one line with its reason: two folders before the checks, two
    // agents by their check.
    for fragment in [
        "week1/kim: no agent.toml",
        "week1/lee/agent.toml: line 1: command names 'agnet.py'",
        "agent 'gus' failed its check before the games",
        "agent 'omar' failed its check before the games (position after 0 plies: move '0'",
    ] {
        assert!(notes.contains(fragment), "{fragment}: {notes}");
    }
    let (header, standings) = read_csv(&week1.join("standings.csv"));
    assert_eq!(header.last().map(String::as_str), Some("left_out"));
    let left: Vec<&str> = standings
        .iter()
        .filter(|r| r[2] == "left out")
        .map(|r| r[1].as_str())
        .collect();
    assert_eq!(left, ["gus", "omar"]);
    assert_eq!(
        standings.len(),
        16,
        "12 submissions that play, 2 left out by their checks, random, and 2 folders unranked"
    );
    // Every submission left out is recorded with its reason: standings.csv, meta.json
    // and report.md (index.html renders the same section).
    let why = |agent: &str| -> String {
        standings
            .iter()
            .find(|r| r[1] == agent)
            .map(|r| r[4].clone())
            .unwrap_or_else(|| panic!("{agent} not in standings.csv"))
    };
    assert!(why("kim").starts_with("no agent.toml"), "{}", why("kim"));
    assert!(
        why("lee").starts_with("agent.toml: line 1: command names 'agnet.py'"),
        "{}",
        why("lee")
    );
    assert!(why("gus").starts_with("failed its check before the games"));
    assert!(why("omar").contains("expected a column number from 1 to 7"));
    assert!(why("hana").is_empty(), "hana plays");
    let report = fs::read_to_string(week1.join("report.md")).expect("report.md");
    let section = report
        .split("## Submissions left out")
        .nth(1)
        .expect("a section of the submissions left out");
    for agent in ["kim", "lee", "gus", "omar"] {
        assert!(
            section.contains(&format!("| {agent} | ")),
            "{agent}: {section}"
        );
    }
    let meta = fs::read_to_string(week1.join("meta.json")).expect("meta.json");
    assert_eq!(meta.matches("\"reason\":").count(), 4, "{meta}");
    // jo's processes hit the sandbox's limit in the games (not in its check); ivan's
    // reading of cleo's file and its socket were blocked.
    let (header, games) = read_csv(&week1.join("games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let jo_lost: Vec<&str> = games
        .iter()
        .filter(|g| {
            (g[column("p1_agent")] == "jo" || g[column("p2_agent")] == "jo")
                && g[column("winner_agent")] != "jo"
        })
        .map(|g| g[column("reason")].as_str())
        .collect();
    assert!(jo_lost.contains(&"processes"), "{jo_lost:?}");
    let ivan: String = fs::read_dir(week1.join("logs/ivan"))
        .expect("ivan's logs")
        .flatten()
        .filter_map(|f| fs::read_to_string(f.path()).ok())
        .collect();
    assert!(
        ivan.contains("reading cleo's agent: blocked") && ivan.contains("connecting: blocked"),
        "{ivan}"
    );
    assert!(!ivan.contains("read cleo's agent:"), "{ivan}");
    // Java agents played.
    assert!(
        standings
            .iter()
            .any(|r| r[1] == "max" && r[2] != "left out")
    );
    // Week 2: every fix in, sixteen players.
    let (week2, notes, _) = &folders[1];
    assert!(!notes.contains("left out"), "{notes}");
    let (_, standings) = read_csv(&week2.join("standings.csv"));
    assert_eq!(standings.len(), 16);
    assert!(standings.iter().all(|r| r[4].is_empty()), "{standings:?}");
    let report = fs::read_to_string(week2.join("report.md")).expect("report.md");
    assert!(!report.contains("Submissions left out"));
    // The ladder over both weeks, random at 0.
    let ladder = dir.path().join("ladder");
    let output = run(&[
        "ladder",
        text(&weeks),
        "--anchor",
        "random",
        "--out",
        text(&ladder),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (header, rows) = read_csv(&ladder.join("ladder.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    assert_eq!(rows.len(), 16);
    let random = rows
        .iter()
        .find(|r| r[column("agent")] == "random")
        .expect("random");
    assert_eq!(random[column("elo")], "0.0");
    let kim = rows
        .iter()
        .find(|r| r[column("agent")] == "kim")
        .expect("kim");
    assert_eq!(kim[column("runs")], "1", "kim played in week 2 only");
}
