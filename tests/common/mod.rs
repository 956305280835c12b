//! What the end-to-end tests share: running the binary, reading its errors and CSV files.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn arbiter() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

pub fn run(args: &[&str]) -> Output {
    arbiter().args(args).output().expect("arbiter runs")
}

/// Runs arbiter with `input` on its standard input.
pub fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = arbiter()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write");
    child.wait_with_output().expect("wait")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Asserts exit code 2 and a single `error: ...` line containing every fragment.
pub fn assert_input_error(output: &Output, fragments: &[&str]) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(2), "stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected: {err}");
    assert!(lines[0].starts_with("error: "), "{err}");
    for fragment in fragments {
        assert!(lines[0].contains(fragment), "'{fragment}' not in: {err}");
    }
}

pub fn write_experiment(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, text).expect("write experiment");
    path
}

pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).expect("csv");
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("row").iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// Asserts two CSV files are equal apart from timing columns, naming the first
/// differing row (not dumping whole files).
pub fn assert_same_csv(a: &Path, b: &Path, what: &str) {
    let (left, right) = (without_timing(a), without_timing(b));
    if let Some(i) = (0..left.len().max(right.len())).find(|&i| left.get(i) != right.get(i)) {
        panic!(
            "{what}: row {i} differs: {:?} vs {:?}",
            left.get(i),
            right.get(i)
        );
    }
}

/// Runs an experiment quietly into `out` with `extra` options.
pub fn run_experiment(experiment: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", text(experiment), "--out", text(out), "--quiet"];
    args.extend_from_slice(extra);
    run(&args)
}

/// Runs an experiment quietly into `out` and asserts it succeeded.
pub fn run_quietly(experiment: &Path, out: &Path) {
    let output = run_experiment(experiment, out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// A CSV file's rows as maps from column to value.
pub fn csv_maps(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let (header, rows) = read_csv(path);
    rows.into_iter()
        .map(|row| header.iter().cloned().zip(row).collect())
        .collect()
}

/// The CSV without its timing columns.
pub fn without_timing(path: &Path) -> Vec<Vec<String>> {
    let (header, rows) = read_csv(path);
    let keep: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, name)| !name.contains("ms"))
        .map(|(i, _)| i)
        .collect();
    std::iter::once(header)
        .chain(rows)
        .map(|row| keep.iter().map(|&i| row[i].clone()).collect())
        .collect()
}

/// A path as a command-line argument.
pub fn text(path: &Path) -> &str {
    path.to_str().expect("utf8")
}

/// Whether a component a test needs (python3, a JDK, Chromium, Slurm) is here. Without it the
/// test is skipped, loudly, naming what to install; when `ARBITER_REQUIRE_COMPONENTS` is set
/// (`.ci/run` sets it after installing them) a missing component fails the test instead, so
/// CI never passes by skipping.
pub fn component(found: bool, what: &str, install: &str) -> bool {
    if found {
        return true;
    }
    assert!(
        std::env::var_os("ARBITER_REQUIRE_COMPONENTS").is_none(),
        "{what} is missing and ARBITER_REQUIRE_COMPONENTS is set: {install}"
    );
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!("*** SKIPPED: {test}: {what} is missing; {install} ***");
    // Written to the terminal itself: the test harness captures eprintln! of a test
    // that passes, which would make a skip look like a pass.
    {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "\n{line}\n");
    }
    // Counted for the end of the run (tests/zz_skipped.rs), by the cargo process that
    // runs every test binary of one `cargo test`.
    let record = skips_file(std::os::unix::process::parent_id());
    if let Some(folder) = record.parent() {
        let _ = std::fs::create_dir_all(folder);
    }
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&record)
    {
        use std::io::Write;
        let _ = writeln!(file, "{test}: {what}");
    }
    false
}

/// Where the skips of the `cargo test` run `cargo` (its process id) are counted.
pub fn skips_file(cargo: u32) -> std::path::PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("skipped-{cargo}.txt"))
}

/// Whether `program --version` (or `args`) runs and succeeds.
pub fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The Python 3 interpreter's own path (its `sys.executable`), or `None` after a loud skip
/// (see `component`). Tests start it directly: a version manager's shell shim in front of
/// `python3` costs seconds per start on a loaded machine.
pub fn python3() -> Option<&'static str> {
    static PYTHON: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let found = PYTHON.get_or_init(|| {
        let output = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .stderr(Stdio::null())
            .output()
            .ok()?;
        let path = String::from_utf8(output.stdout).ok()?.trim().to_string();
        (output.status.success() && !path.is_empty()).then_some(path)
    });
    let install = "install Python 3 (Debian package python3), as .ci/run does";
    component(found.is_some(), "python3", install).then(|| found.as_deref().unwrap_or("python3"))
}

/// A JDK that runs a `.java` source file (`java File.java`), or `false` after a loud skip.
pub fn jdk_or_skip() -> bool {
    let compiler = Command::new("java")
        .arg("--list-modules")
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("jdk.compiler")
        });
    component(
        compiler,
        "a JDK (java with its compiler)",
        "install one (Debian package default-jdk-headless), as .ci/run does",
    )
}

/// Live (not zombie) processes whose command line contains `marker`.
pub fn alive(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("procfs").flatten() {
        let path = entry.path();
        let Ok(cmdline) = std::fs::read(path.join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        let zombie = std::fs::read_to_string(path.join("stat"))
            .ok()
            .and_then(|stat| {
                stat.rsplit(')')
                    .next()
                    .map(|s| s.trim_start().starts_with('Z'))
            })
            .unwrap_or(true);
        if cmdline.contains(marker) && !zombie {
            found.push(format!("{}: {cmdline}", path.display()));
        }
    }
    found
}

/// Waits (generously: a loaded machine ends processes slowly) for every process with
/// `marker` to be gone.
pub fn assert_none_left(marker: &str) {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let left = alive(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            std::time::Instant::now() < until,
            "processes left behind: {left:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

pub fn chromium() -> Option<String> {
    let candidates = [
        std::env::var("ARBITER_CHROMIUM").unwrap_or_default(),
        "chromium".to_string(),
        "chromium-browser".to_string(),
        "google-chrome".to_string(),
    ];
    candidates.into_iter().filter(|c| !c.is_empty()).find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// The browser, or `None` after saying loudly that the test is skipped.
pub fn chromium_or_skip() -> Option<String> {
    let browser = chromium();
    component(
        browser.is_some(),
        "Chromium (chromium, chromium-browser, google-chrome or $ARBITER_CHROMIUM)",
        "install Debian's chromium, as .ci/run does",
    );
    browser
}

pub fn headless(browser: &str, profile: &Path) -> Command {
    let mut command = Command::new(browser);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    // Chromium puts its singleton socket in a fresh folder under TMPDIR and leaves it there:
    // keep it inside the test's own folder rather than /tmp.
    std::fs::create_dir_all(profile).expect("make the browser's profile folder");
    command.env("TMPDIR", profile);
    command
}

/// The games a report's viewer embeds (`window.ARBITER_GAMES` of an index.html or a
/// game page), as JSON.
pub fn embedded_games(html: &str) -> serde_json::Value {
    let data = html
        .split("window.ARBITER_GAMES = ")
        .nth(1)
        .and_then(|rest| rest.split(";</script>").next())
        .expect("embedded games");
    serde_json::from_str(&data.replace("<\\/", "</")).expect("the embedded games are JSON")
}

/// A folder of agent files in `dir` declaring tests/games/nim3.py (Nim for three players)
/// as game `nim3`, and as `nim3-short`, whose status gives two returns instead of three.
pub fn nim3_agents(dir: &Path, python: &str) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/nim3.py");
    let agents = dir.join("agents");
    fs::create_dir_all(&agents).expect("mkdir");
    fs::write(
        agents.join("games.toml"),
        format!(
            "[[game]]\nname = \"nim3\"\ncommand = [\"{python}\", \"{}\"]\n\n\
             [[game]]\nname = \"nim3-short\"\ncommand = [\"{python}\", \"{}\", \"short-returns\"]\n",
            script.display(),
            script.display()
        ),
    )
    .expect("write agents");
    agents
}
