//! Sandboxed agents (bubblewrap): hostile programs (tests/agents/hostile.py) that read
//! another agent's file, write outside their folder, connect to 127.0.0.1, fork without
//! end, fill memory, or leave a `setsid` child ignoring SIGTERM are each blocked or
//! contained, recorded with their reason, and leave no process behind, even when arbiter
//! itself is killed with SIGKILL. Nothing of arbiter's is reachable from a box: agents
//! that look for a variable of arbiter's in every process's environment and ptrace every
//! process they see (process 1 first) find nothing.

use crate::common;

use crate::common::{
    alive, arbiter, assert_input_error, assert_none_left, component, read_csv, run, stderr, text,
    write_experiment,
};
use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn marker(test: &str) -> String {
    format!("arbiter-sandbox-test-{}-{test}", std::process::id())
}

/// A copy of the hostile agents in a folder of `dir` that every user can read (the
/// sandbox runs as `nobody` when the tests run as root), whatever the checkout's own
/// permissions are.
fn agents_folder(dir: &Path) -> PathBuf {
    let folder = dir.join("code");
    fs::create_dir_all(&folder).expect("code folder");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/agents/hostile.py");
    fs::copy(source, folder.join("hostile.py")).expect("copy hostile.py");
    for (path, mode) in [(dir, 0o755), (folder.as_path(), 0o755)] {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
    }
    fs::set_permissions(folder.join("hostile.py"), fs::Permissions::from_mode(0o644))
        .expect("chmod");
    folder
}

/// bubblewrap and a system python3 (/usr/bin: the sandbox sees only the system's
/// folders), or a loud skip.
fn sandbox_or_skip() -> bool {
    let bwrap = common::runs("bwrap", &["--version"]);
    let python = Path::new("/usr/bin/python3").is_file();
    component(
        bwrap && python,
        "bubblewrap (bwrap) and /usr/bin/python3",
        "install them (Debian packages bubblewrap and python3), as .ci/run does",
    ) && {
        // The temporary folders the agents run in must be reachable by the sandbox user.
        let reachable = std::env::temp_dir()
            .ancestors()
            .all(|p| fs::metadata(p).is_ok_and(|m| m.permissions().mode() & 0o001 != 0));
        component(
            reachable,
            "a temporary folder reachable by all users (the sandbox runs as nobody)",
            "set TMPDIR to a folder such as /tmp",
        )
    }
}

/// Whether this machine gives sandboxes cgroup limits (then a breach has its own reason;
/// without, a fork bomb or a memory hog ends as a crash).
fn tree_limits() -> bool {
    let own = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let writable = |controller: &str| {
        own.lines().any(|line| {
            let parts: Vec<&str> = line.splitn(3, ':').collect();
            parts.len() == 3 && parts[1].split(',').any(|n| n == controller) && {
                let probe = Path::new("/sys/fs/cgroup")
                    .join(controller)
                    .join(parts[2].trim_start_matches('/'))
                    .join(format!("probe-{}", std::process::id()));
                let made = fs::create_dir(&probe).is_ok();
                if made {
                    let _ = fs::remove_dir(&probe);
                }
                made
            }
        })
    };
    writable("memory") && writable("pids")
}

fn hostile_agent(code: &Path, name: &str, mode: &str, marker: &str, target: &str) -> String {
    limited_agent(code, name, mode, marker, target, "")
}

/// A hostile agent with more sandbox limits (`, cpu_seconds = 2`, say).
fn limited_agent(
    code: &Path,
    name: &str,
    mode: &str,
    marker: &str,
    target: &str,
    limits: &str,
) -> String {
    format!(
        "[[agent]]\nname = \"{name}\"\ncommand = [\"python3\", \"hostile.py\", \"{mode}\", \"{marker}\", \"{target}\"]\ncwd = \"{}\"\nsandbox = {{ memory_mb = 256, processes = 32{limits} }}\nstartup_ms = 20000\n",
        code.display()
    )
}

fn games(folder: &Path) -> Vec<BTreeMap<String, String>> {
    common::csv_maps(&folder.join("games.csv"))
}

#[test]
fn hostile_agents_are_blocked_or_contained_and_recorded_and_leave_nothing() {
    if !sandbox_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    // Another agent's folder, open to everyone: only the sandbox keeps it out of reach.
    let other = dir.path().join("other-agent");
    fs::create_dir(&other).expect("other");
    fs::write(other.join("secret.txt"), "the other agent's opening book\n").expect("secret");
    for (path, mode) in [(dir.path(), 0o755), (other.as_path(), 0o777)] {
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).expect("chmod");
    }
    fs::set_permissions(other.join("secret.txt"), fs::Permissions::from_mode(0o644))
        .expect("chmod");
    let planted = other.join("planted.txt");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("listen");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener.local_addr().expect("port").port().to_string();
    let marker = marker("hostile");
    // A variable of arbiter's own environment: no process of a box may show it.
    let canary = format!("ARBITER_CANARY_{}", std::process::id());
    let code = agents_folder(dir.path());
    let secret = other.join("secret.txt");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("agents");
    let entries: String = [
        ("reader", "read", text(&secret)),
        ("writer", "write", text(&planted)),
        ("caller", "connect", port.as_str()),
        ("forker", "fork", ""),
        ("hog", "memory", ""),
        ("leaver", "setsid", ""),
        ("snoop", "environ", canary.as_str()),
        ("tracer", "ptrace", ""),
    ]
    .iter()
    .map(|(name, mode, target)| hostile_agent(&code, name, mode, &marker, target))
    .chain([
        limited_agent(&code, "burner", "cpu", &marker, "", ", cpu_seconds = 1"),
        limited_agent(&code, "filler", "spray", &marker, "", ", output_mb = 4"),
    ])
    .collect();
    fs::write(agents.join("hostile.toml"), entries).expect("agents");
    let experiment = write_experiment(
        dir.path(),
        "hostile.toml",
        "game = \"breakthrough\"\ngames = 2\nseed = 5\nmove_time_ms = 5000\nmatchups = [[\"reader\", \"random\"], [\"writer\", \"random\"], [\"caller\", \"random\"], [\"forker\", \"random\"], [\"hog\", \"random\"], [\"leaver\", \"random\"], [\"snoop\", \"random\"], [\"tracer\", \"random\"], [\"burner\", \"random\"], [\"filler\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    let output = arbiter()
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
        .env(&canary, "arbiter's secret")
        .output()
        .expect("arbiter runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let all = games(&out);
    assert_eq!(all.len(), 20, "every game was played");
    let reasons = |agent: &str| -> Vec<String> {
        all.iter()
            .filter(|g| g["p1_agent"] == agent || g["p2_agent"] == agent)
            .map(|g| g["reason"].clone())
            .collect()
    };
    // A CPU-time limit, and the limit on everything written (files of 1 MB each, 64 MB
    // in all, into boxes of 4 MB), are named as such, not as crashes.
    assert_eq!(reasons("burner"), ["cpu_time", "cpu_time"], "CPU time");
    assert_eq!(reasons("filler"), ["output", "output"], "file size");
    // Blocked: the attempt failed, the agent played on (an escape answers `escaped`).
    for agent in ["reader", "writer", "caller", "leaver", "snoop", "tracer"] {
        let reasons = reasons(agent);
        assert_eq!(reasons.len(), 2, "{agent}");
        assert!(
            reasons.iter().all(|r| r != "illegal_move" && r != "crash"),
            "{agent} got out of its sandbox: {reasons:?}"
        );
    }
    assert!(!planted.exists(), "a file was written outside the sandbox");
    assert!(
        listener.accept().is_err(),
        "a connection reached 127.0.0.1 from the sandbox"
    );
    let logs = out.join("logs");
    // Every log of the agent's games (named by game id), together.
    let log = |agent: &str| -> String {
        let mut files: Vec<PathBuf> = fs::read_dir(logs.join(agent))
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        files
            .iter()
            .filter_map(|f| fs::read_to_string(f).ok())
            .collect()
    };
    assert!(log("reader").contains("read blocked"), "{}", log("reader"));
    assert!(log("writer").contains("write blocked"), "{}", log("writer"));
    assert!(
        log("caller").contains("connect blocked"),
        "{}",
        log("caller")
    );
    // The snoop looked at every process of its box (itself alone), the tracer tried.
    assert!(
        log("snoop").contains("environ looked at processes 1 "),
        "{}",
        log("snoop")
    );
    assert!(
        log("tracer").contains("ptrace of 1 blocked: Operation not permitted"),
        "{}",
        log("tracer")
    );
    // Contained: the limit ended the agent, and the game says which.
    let (forker, hog) = (reasons("forker"), reasons("hog"));
    if tree_limits() {
        assert_eq!(forker, ["processes", "processes"], "fork bomb");
        assert_eq!(hog, ["memory", "memory"], "memory hog");
        assert!(
            log("hog").contains("ran into its memory limit"),
            "{}",
            log("hog")
        );
    } else {
        eprintln!(
            "*** no writable cgroups here: limits are per process, breaches end as crashes ***"
        );
        assert!(
            forker.iter().all(|r| r == "crash" || r == "processes"),
            "{forker:?}"
        );
        assert!(hog.iter().all(|r| r == "crash" || r == "memory"), "{hog:?}");
    }
    // CPU per move comes from the sandbox's cgroup (the whole tree) where there is one.
    if tree_limits() {
        let (header, rows) = read_csv(&out.join("moves.csv"));
        let column = |name: &str| header.iter().position(|h| h == name).expect(name);
        let (agent, cpu) = (column("agent"), column("cpu_ms"));
        let reader: Vec<&Vec<String>> = rows.iter().filter(|r| r[agent] == "reader").collect();
        assert!(!reader.is_empty());
        assert!(
            reader.iter().all(|r| r[cpu].parse::<f64>().is_ok()),
            "cpu_ms of a sandboxed program: {reader:?}"
        );
    }
    // Nothing outlives its game: the fork bomb's sleepers and the setsid child included.
    assert_none_left(&marker);
}

/// A class's hostile manifests: one runs in another student's folder, one reads it
/// through a sandbox of its own, one raises its limits, one takes another's name and one
/// a built-in's. Each is left out with its reason; the others play, named by their
/// folders, in the teacher's sandbox with the teacher's limits.
#[test]
fn a_class_manifest_cannot_widen_its_sandbox_or_take_a_name() {
    if !sandbox_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let marker = marker("class");
    let code = agents_folder(dir.path());
    let script = code.join("hostile.py");
    let subs = dir.path().join("subs");
    let student = |folder: &str, manifest: String| {
        let folder = subs.join(folder);
        fs::create_dir_all(&folder).expect("folder");
        fs::copy(&script, folder.join("hostile.py")).expect("copy");
        fs::write(folder.join("agent.toml"), manifest).expect("manifest");
        for path in [subs.as_path(), folder.as_path()] {
            fs::set_permissions(path, fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        for file in ["hostile.py", "agent.toml"] {
            fs::set_permissions(folder.join(file), fs::Permissions::from_mode(0o644))
                .expect("chmod");
        }
    };
    let command = |mode: &str, target: &str| {
        format!("command = [\"python3\", \"hostile.py\", \"{mode}\", \"{marker}\", \"{target}\"]\n")
    };
    let secret = subs.join("carol/secret.txt");
    student("carol", command("limits", ""));
    fs::write(&secret, "carol's opening book\n").expect("secret");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).expect("chmod");
    student(
        "aaa_dup",
        format!("name = \"carol\"\n{}", command("read", text(&secret))),
    );
    student(
        "eve_cwd",
        format!("{}cwd = \"../carol\"\n", command("read", "secret.txt")),
    );
    student(
        "eve_read",
        format!(
            "{}sandbox = {{ read = [\"../carol\"] }}\n",
            command("read", text(&secret))
        ),
    );
    student(
        "eve_limits",
        format!(
            "{}sandbox = {{ memory_mb = 8192, processes = 100000 }}\n",
            command("fork", "")
        ),
    );
    student("random", command("limits", ""));
    let experiment = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"breakthrough\"\ngames = 2\nseed = 5\nmove_time_ms = 5000\nagents_dir = \"subs\"\nround_robin = [\"random\"]\nsandbox = { memory_mb = 256, processes = 16, cpu_seconds = 77, output_mb = 3 }\n",
    );
    let out = dir.path().join("out");
    let output = run(&["run", text(&experiment), "--out", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let said = format!("{}{}", common::stdout(&output), stderr(&output));
    for (folder, why) in [
        (
            "eve_cwd",
            "cwd = \"../carol\" is outside the submission's folder",
        ),
        ("eve_read", "a submission cannot set its own sandbox"),
        ("eve_limits", "a submission cannot set its own sandbox"),
        ("random", "is arbiter's built-in agent 'random'"),
    ] {
        assert!(
            said.lines()
                .any(|l| l.contains(&format!("subs/{folder}")) && l.contains(why)),
            "{folder} not left out for its reason: {said}"
        );
    }
    let all = games(&out);
    let players: std::collections::BTreeSet<&str> = all
        .iter()
        .flat_map(|g| [g["p1_agent"].as_str(), g["p2_agent"].as_str()])
        .collect();
    assert_eq!(
        players.into_iter().collect::<Vec<_>>(),
        ["aaa_dup", "carol", "random"],
        "the agents are named by their folders, the built-in random is arbiter's own"
    );
    // aaa_dup named carol's secret by its path, outside its box: it could not read it.
    assert!(
        all.iter()
            .filter(|g| g["p1_agent"] == "aaa_dup" || g["p2_agent"] == "aaa_dup")
            .all(|g| g["reason"] != "illegal_move"),
        "aaa_dup read carol's secret"
    );
    // The teacher's limits, not a manifest's, rule every box.
    let logs: String = fs::read_dir(out.join("logs/carol"))
        .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .iter()
        .filter_map(|f| fs::read_to_string(f).ok())
        .collect();
    assert!(logs.contains("limits: cpu 77 s, files 3 MiB"), "{logs}");
    assert_none_left(&marker);
}

#[test]
fn a_hung_sandboxed_agent_and_its_setsid_child_die_with_arbiter_killed_by_sigkill() {
    if !sandbox_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let marker = marker("sigkill");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("agents");
    fs::write(
        agents.join("hung.toml"),
        hostile_agent(&agents_folder(dir.path()), "hung", "hang", &marker, ""),
    )
    .expect("agents");
    let experiment = write_experiment(
        dir.path(),
        "hung.toml",
        "game = \"breakthrough\"\ngames = 2\nseed = 5\nmatchups = [[\"hung\", \"random\"]]\n",
    );
    let mut child = arbiter()
        .args([
            "run",
            text(&experiment),
            "--agents",
            text(&agents),
            "--out",
            text(&dir.path().join("out")),
            "--quiet",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arbiter starts");
    // The agent hangs in its first move, its setsid child sleeping beside it.
    let until = Instant::now() + Duration::from_secs(60);
    while !alive(&marker).iter().any(|p| p.contains("os.setsid")) {
        assert!(
            Instant::now() < until,
            "the hung agent never started: {:?}",
            alive(&marker)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("SIGKILL our arbiter");
    child.wait().expect("reaped");
    assert_none_left(&marker);
}

#[test]
fn bad_sandbox_settings_and_a_missing_bubblewrap_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("agents");
    let experiment = write_experiment(
        dir.path(),
        "e.toml",
        "game = \"breakthrough\"\ngames = 1\nmatchups = [[\"boxed\", \"random\"]]\n",
    );
    let code = agents_folder(dir.path());
    let agent = |sandbox: &str| {
        format!(
            "[[agent]]\nname = \"boxed\"\ncommand = [\"python3\", \"hostile.py\", \"setsid\", \"x\"]\ncwd = \"{}\"\nsandbox = {sandbox}\n",
            code.display()
        )
    };
    let out = dir.path().join("out");
    let args = [
        "run",
        text(&experiment),
        "--agents",
        text(&agents),
        "--out",
        text(&out),
    ];
    for (sandbox, fragments) in [
        (
            "\"yes\"",
            vec![
                "hostile.toml",
                "line 5",
                "sandbox = \"yes\": expected true, false or a table",
            ],
        ),
        (
            "{ memory = 5 }",
            vec!["line 5", "sandbox.memory: unknown; expected memory_mb"],
        ),
        (
            "{ processes = 0 }",
            vec!["sandbox.processes = 0: expected a whole number from 1"],
        ),
    ] {
        fs::write(agents.join("hostile.toml"), agent(sandbox)).expect("agents");
        assert_input_error(&run(&args), &fragments);
    }
    fs::write(agents.join("hostile.toml"), agent("true")).expect("agents");
    let mut with_flag = args.to_vec();
    with_flag.push("--sandbox=maybe");
    assert_input_error(&run(&with_flag), &["--sandbox=maybe: expected on or off"]);
    // No bubblewrap on PATH: refused before any game, naming the agent and the package.
    let output = arbiter()
        .args(args)
        .env("PATH", "/nonexistent")
        .output()
        .expect("runs");
    assert_input_error(
        &output,
        &[
            "agent 'boxed' asks for a sandbox, but bubblewrap (bwrap) is not installed",
            "apt install bubblewrap",
            "--sandbox=off",
        ],
    );
    assert!(!out.join("games.csv").exists(), "nothing was played");
    // `--sandbox` for a whole match asks for one too; `--sandbox=off` is the way out.
    let output = arbiter()
        .args(["match", "boxed", "random", "--games", "1", "--sandbox"])
        .args(["--agents", text(&agents), "--out", text(&out)])
        .env("PATH", "/nonexistent")
        .output()
        .expect("runs");
    assert_input_error(&output, &["--sandbox: bubblewrap (bwrap) is not installed"]);
    assert!(!out.join("games.csv").exists(), "nothing was played");
    // A class file whose submissions are sandboxed: refused up front too, nothing written.
    let subs = dir.path().join("subs/ann");
    fs::create_dir_all(&subs).expect("subs");
    fs::write(subs.join("agent.sh"), "").expect("agent");
    fs::write(
        subs.join("agent.toml"),
        "command = [\"/bin/sh\", \"agent.sh\"]\n",
    )
    .expect("manifest");
    let class = write_experiment(
        dir.path(),
        "class.toml",
        "game = \"breakthrough\"\ngames = 1\nagents_dir = \"subs\"\nround_robin = [\"random\"]\nsandbox = true\n",
    );
    let class_out = dir.path().join("class-out");
    let output = arbiter()
        .args(["run", text(&class), "--out", text(&class_out)])
        .env("PATH", "/nonexistent")
        .output()
        .expect("runs");
    assert_input_error(
        &output,
        &[
            "the experiment's sandbox (for its submissions) is wanted, but bubblewrap (bwrap) is not installed",
        ],
    );
    assert!(!class_out.exists(), "nothing was written");
}

#[test]
fn a_run_started_with_sandbox_resumes_sandboxed() {
    if !sandbox_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().expect("dir");
    let code = agents_folder(dir.path());
    let other = dir.path().join("other-agent");
    fs::create_dir(&other).expect("other");
    fs::set_permissions(&other, fs::Permissions::from_mode(0o755)).expect("chmod");
    let secret = other.join("secret.txt");
    fs::write(&secret, "the other agent's opening book\n").expect("secret");
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o644)).expect("chmod");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("agents");
    // No `sandbox` in the agent file: only the run's --sandbox confines it.
    let marker = marker("resume");
    let entry = hostile_agent(&code, "reader", "read", &marker, text(&secret))
        .replace("sandbox = { memory_mb = 256, processes = 32 }\n", "");
    assert!(!entry.contains("sandbox ="));
    fs::write(agents.join("reader.toml"), entry).expect("agents");
    let experiment = write_experiment(
        dir.path(),
        "e.toml",
        "game = \"breakthrough\"\ngames = 4\nseed = 5\nmatchups = [[\"reader\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    let first = run(&[
        "run",
        text(&experiment),
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
        "--sandbox",
        "--max-games",
        "1",
        "--threads",
        "1",
    ]);
    assert_eq!(first.status.code(), Some(4), "{}", stderr(&first));
    let meta = fs::read_to_string(out.join("meta.json")).expect("meta");
    assert!(meta.contains("\"sandbox\": \"on\""), "{meta}");
    let resumed = run(&[
        "run",
        "--resume",
        text(&out),
        "--agents",
        text(&agents),
        "--quiet",
    ]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let reasons: Vec<String> = games(&out)
        .into_iter()
        .map(|g| g["reason"].clone())
        .collect();
    assert_eq!(reasons.len(), 4);
    assert!(
        reasons.iter().all(|r| r != "illegal_move"),
        "the resume ran the reader unconfined: {reasons:?}"
    );
    assert_none_left(&marker);
}
