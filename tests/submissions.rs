//! A class's submissions (`agents_dir`): every folder with a manifest is an agent and joins
//! the round robin; folders without one, manifests naming a missing file, and agents that
//! fail check-agent's steps are reported in one line each and left out; a resume after the
//! fix plays their games.

use crate::common;

use crate::common::{assert_input_error, python3, read_csv, run, stderr, text, write_experiment};
use std::fs;
use std::path::Path;

/// A student folder running tests/agents/broken.py in `mode`, with its manifest unless
/// `manifest` is `None`.
fn student(root: &Path, name: &str, manifest: Option<&str>) {
    let folder = root.join(name);
    fs::create_dir_all(&folder).expect("folder");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/broken.py");
    fs::copy(script, folder.join("agent.py")).expect("copy");
    if let Some(manifest) = manifest {
        fs::write(folder.join("agent.toml"), manifest).expect("manifest");
    }
}

fn manifest(mode: &str) -> String {
    format!(
        "command = [\"{}\", \"agent.py\", \"{mode}\", \"arbiter-submissions-test\"]\n",
        python3().expect("checked")
    )
}

#[test]
fn submissions_join_the_round_robin_and_the_broken_ones_are_left_out_until_fixed() {
    if python3().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let subs = dir.path().join("subs");
    student(&subs, "ann", Some(&manifest("ok")));
    // ben's program answers illegal moves until its mode file says otherwise.
    student(&subs, "ben", None);
    fs::rename(subs.join("ben/agent.py"), subs.join("ben/broken.py")).expect("rename");
    fs::write(
        subs.join("ben/agent.py"),
        "import runpy, sys\nsys.argv = ['broken.py', open('mode.txt').read().strip(), 'arbiter-submissions-test']\nrunpy.run_path('broken.py', run_name='__main__')\n",
    )
    .expect("wrapper");
    fs::write(subs.join("ben/mode.txt"), "illegal").expect("mode");
    fs::write(subs.join("ben/agent.toml"), manifest("")).expect("manifest");
    student(&subs, "cat", None);
    student(
        &subs,
        "dan",
        Some(&manifest("ok").replace("agent.py", "agnet.py")),
    );
    student(
        &subs,
        "eve",
        Some(&format!("name = \"evelyn\"\n{}", manifest("ok"))),
    );
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"connect-four\"\ngames = 2\nseed = 3\nagents_dir = \"subs\"\nround_robin = [\"random\"]\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out), "--quiet"]);
    // ben fails its check: its games are not played, as an agent that cannot start.
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(
        err.contains("agent 'ben' failed its check before the games (position after"),
        "{err}"
    );
    assert!(err.contains("expected a column number"), "{err}");
    let (header, games) = read_csv(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let players: std::collections::BTreeSet<&str> = games
        .iter()
        .flat_map(|g| {
            [
                g[column("p1_agent")].as_str(),
                g[column("p2_agent")].as_str(),
            ]
        })
        .collect();
    assert_eq!(
        players.into_iter().collect::<Vec<_>>(),
        ["ann", "eve", "random"],
        "cat (no manifest), dan (a missing file) and ben (failed check) play no game; eve's manifest name does not rename her"
    );
    assert_eq!(
        games.len(),
        3 * 2,
        "three matchups of the four agents' six are played"
    );
    // Not quiet, the folders left out are named before the games, one line each.
    let out2 = dir.path().join("out2");
    let output = run(&["run", text(&experiment), "--out", text(&out2)]);
    let err = stderr(&output);
    assert!(
        err.contains("submission ") && err.contains("cat: no agent.toml"),
        "{err}"
    );
    assert!(
        err.contains("dan/agent.toml: line 1: command names 'agnet.py', which is not in"),
        "{err}"
    );
    // ben fixes the program: a resume checks again and plays its games.
    fs::write(subs.join("ben/mode.txt"), "ok").expect("fix");
    let output = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, games) = read_csv(&out.join("games.csv"));
    assert_eq!(games.len(), 6 * 2, "every matchup played after the fix");
}

#[test]
fn a_submissions_folder_with_nothing_valid_or_missing_is_one_line_naming_it() {
    let dir = tempfile::tempdir().expect("dir");
    let subs = dir.path().join("subs");
    fs::create_dir_all(subs.join("cat")).expect("folder");
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"connect-four\"\ngames = 2\nagents_dir = \"subs\"\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out)]);
    assert_input_error(
        &output,
        &[
            "class.toml: line 3",
            "agents_dir = \"subs\"",
            "no submission with a valid agent.toml",
            "cat: no agent.toml",
        ],
    );
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"connect-four\"\ngames = 2\nagents_dir = \"nowhere\"\n",
    );
    let output = run(&["run", text(&experiment), "--out", text(&out)]);
    assert_input_error(
        &output,
        &["class.toml: line 3", "cannot read the submissions folder"],
    );
    assert!(!out.exists(), "nothing written");
}

/// A class run killed (SIGKILL) while it checks the submissions, before any game, is a
/// run: `--resume` continues it and plays every game.
#[test]
fn a_class_run_killed_during_its_checks_resumes() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let subs = dir.path().join("subs");
    student(&subs, "ann", Some(&manifest("ok")));
    // cid's program says it started (a file in its folder), then takes 2 s to say hello.
    let cid = subs.join("cid");
    fs::create_dir_all(&cid).expect("cid");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/broken.py");
    fs::write(
        cid.join("agent.py"),
        format!(
            "import runpy, sys, time\nopen('started', 'w').close()\ntime.sleep(2)\nsys.argv = ['broken.py', 'ok', 'arbiter-submissions-test']\nrunpy.run_path({:?}, run_name='__main__')\n",
            script.display().to_string()
        ),
    )
    .expect("agent");
    fs::write(
        cid.join("agent.toml"),
        format!("command = [\"{python}\", \"agent.py\"]\n"),
    )
    .expect("manifest");
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"connect-four\"\ngames = 2\nseed = 3\nagents_dir = \"subs\"\nswiss = { rounds = 2, games = 2, players = [\"random\"] }\n",
    );
    let out = dir.path().join("out");
    let mut child = common::arbiter()
        .args(["run", text(&experiment), "--out", text(&out), "--quiet"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arbiter starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !cid.join("started").exists() {
        assert!(std::time::Instant::now() < deadline, "cid never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().expect("SIGKILL our arbiter");
    child.wait().expect("reaped");
    assert!(!out.join("games.csv").exists(), "killed before any game");
    let output = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (_, games) = read_csv(&out.join("games.csv"));
    assert_eq!(
        games.len(),
        4,
        "two rounds of one pairing of two games (and a bye)"
    );
}
