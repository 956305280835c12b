//! Fault injection: runs killed (SIGKILL) at random moments and resumed again and again,
//! two writers on one results folder, a disk that fills up, hand-edited meta.json and
//! agents changed between a run and its resumption. Whatever happens, nothing recorded is
//! lost or duplicated and the files end as an uninterrupted run's.

use crate::common::*;
use std::fs;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

/// About two seconds of games on two threads, in two matchups of 2 x 600 games.
const EXPERIMENT: &str = r#"
game = "breakthrough"
games = 600
seed = 5
colours = "alternate"
matchups = [["alphabeta(heuristic=offensive2,depth=3)", "greedy(heuristic=defensive1)"], ["random", "minimax(heuristic=offense,depth=2)"]]
"#;

/// The files a finished game run writes that must not depend on interruptions.
const RECORDS: [&str; 4] = [
    "games.csv",
    "moves.csv",
    "summary.csv",
    "nodes_by_depth.csv",
];

fn spawn(args: &[&str]) -> Child {
    arbiter()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter starts")
}

/// Waits until `path` holds at least `lines` lines.
fn wait_for_lines(path: &Path, lines: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while fs::read_to_string(path).map_or(0, |t| t.lines().count()) < lines {
        assert!(Instant::now() < deadline, "{} stays short", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A small seeded generator for kill times (the test is the same on every machine).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

fn assert_same_records(run: &Path, reference: &Path) {
    for file in RECORDS {
        assert_same_csv(&run.join(file), &reference.join(file), file);
    }
}

/// Runs `experiment` uninterrupted into `dir/reference` and checks that `run` ended with
/// the same records.
fn assert_as_uninterrupted(experiment: &Path, run: &Path, dir: &Path) {
    let reference = dir.join("reference");
    run_quietly(experiment, &reference);
    assert_same_records(run, &reference);
}

fn meta(folder: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(folder.join("meta.json")).expect("meta.json"))
        .expect("json")
}

#[test]
fn repeated_sigkills_at_random_moments_lose_and_duplicate_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "crash.toml", EXPERIMENT);
    let reference = dir.path().join("reference");
    let started = Instant::now();
    run_quietly(&experiment, &reference);
    let whole_run = started.elapsed();

    let out = dir.path().join("killed");
    let mut rng = Lcg(2026);
    let (mut kills, mut takeovers) = (0, 0);
    // Anywhere from start-up to a sixth of the whole run (a resumed run also rewrites
    // every file before playing on, so it may finish first). The whole run was timed on
    // a machine as busy as it was then: a run that ends before six kills landed (the
    // machine got faster) starts again from nothing, with kills twice as early.
    let mut bound = whole_run.as_millis() as u64 / 6 + 20;
    let mut restarts = 0;
    loop {
        let resuming = out.join("meta.json").exists();
        let mut child = if resuming {
            spawn(&["run", "--resume", text(&out), "--threads", "2"])
        } else {
            // Killed before its meta.json was written: the same command starts afresh.
            spawn(&[
                "run",
                text(&experiment),
                "--out",
                text(&out),
                "--threads",
                "2",
            ])
        };
        // A kill that lands after the journal is removed (the documents are written by
        // then) leaves a complete run: resuming it says so, and there is nothing left to do.
        let finished_before =
            |output: &Output| resuming && stderr(output).contains("the run is already complete");
        if kills == 12 {
            let output = child.wait_with_output().expect("wait");
            assert!(
                output.status.success() || finished_before(&output),
                "{}",
                stderr(&output)
            );
            break;
        }
        let delay = rng.below(bound);
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill();
        let output = child.wait_with_output().expect("wait");
        takeovers += usize::from(stderr(&output).contains("took over the lock"));
        if output.status.success() || finished_before(&output) {
            if kills >= 6 || restarts == 4 {
                break;
            }
            restarts += 1;
            bound = bound / 2 + 10;
            kills = 0;
            std::fs::remove_dir_all(&out).expect("remove the finished run");
            continue;
        }
        kills += 1;
    }
    assert!(kills >= 6, "only {kills} kills landed");
    assert!(takeovers >= 1, "no stale lock was taken over");
    // Records go to the journal whole (one buffered write each), so a SIGKILL no longer
    // tears one; torn tails (a full disk, power loss) are cut on resume, as the journal's
    // unit tests and the full-disk test show.
    assert_same_records(&out, &reference);
    let (killed, whole) = (meta(&out), meta(&reference));
    assert_eq!(killed["status"], "complete");
    assert_eq!(killed["games_played"], whole["games_played"]);
    assert!(!out.join("journal.jsonl").exists() && !out.join("lock").exists());
    assert!(out.join("report.md").exists() && out.join("index.html").exists());
}

#[test]
fn a_second_writer_is_refused_with_the_holder_named() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "crash.toml", EXPERIMENT);
    let out = dir.path().join("run");
    let first = spawn(&["run", text(&experiment), "--out", text(&out), "--quiet"]);
    wait_for_lines(&out.join("journal.jsonl"), 5);
    let holder = format!("pid {}", first.id());

    let resume = run(&["run", "--resume", text(&out)]);
    assert_input_error(
        &resume,
        &[
            text(&out),
            "another arbiter is writing this folder",
            &holder,
        ],
    );
    assert_input_error(
        &run(&["run", text(&experiment), "--out", text(&out)]),
        &[text(&out), "not empty"],
    );
    let output: Output = first.wait_with_output().expect("wait");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(meta(&out)["status"], "complete");
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

/// Mounts a tmpfs of `size` at `at`; false where this machine does not allow it.
fn mount_tmpfs(at: &Path, size: &str) -> bool {
    std::process::Command::new("mount")
        .args([
            "-t",
            "tmpfs",
            "-o",
            &format!("size={size}"),
            "tmpfs",
            text(at),
        ])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn a_full_disk_stops_the_run_and_resume_finishes_it_once_there_is_room() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "crash.toml", EXPERIMENT);
    let disk = dir.path().join("disk");
    fs::create_dir(&disk).expect("mkdir");
    if !mount_tmpfs(&disk, "400k") {
        component(
            false,
            "a tmpfs mount (root and mount rights)",
            "run the tests as root, as CI does",
        );
        return;
    }
    struct Unmount<'a>(&'a Path);
    impl Drop for Unmount<'_> {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(self.0).status();
        }
    }
    let _unmount = Unmount(&disk);
    let out = disk.join("run");
    let full = run(&["run", text(&experiment), "--out", text(&out), "--quiet"]);
    let err = stderr(&full);
    assert_eq!(full.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(text(&out)) && err.contains("No space left"),
        "{err}"
    );
    assert!(
        err.contains(&format!("`arbiter run --resume {}` continues", text(&out))),
        "{err}"
    );
    // No half-written meta.json beside the old one, and `show` tells a stopped run from a
    // running one, with the games its journal holds.
    assert!(!out.join("meta.json.tmp").exists());
    let shown = run(&["show", text(&out)]);
    let header = String::from_utf8_lossy(&shown.stdout).to_string();
    let first = header.lines().next().unwrap_or_default().to_string();
    assert!(
        first.contains("stopped before its end") || first.contains("interrupted"),
        "{header}"
    );
    assert!(!first.contains(" 0 of 1200 games"), "{header}");

    let remount = std::process::Command::new("mount")
        .args(["-o", "remount,size=64m", text(&disk)])
        .status()
        .expect("mount");
    assert!(remount.success());
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

#[test]
fn resume_plays_the_recorded_agents_and_refuses_an_edited_meta_json() {
    let dir = tempfile::tempdir().expect("dir");
    let agents = dir.path().join("agents");
    fs::create_dir(&agents).expect("mkdir");
    let agent_file = agents.join("mine.toml");
    fs::write(
        &agent_file,
        "[[agent]]\nname = \"mine\"\nalgorithm = \"alphabeta\"\nheuristic = \"offensive2\"\ndepth = 2\n",
    )
    .expect("agent");
    let experiment = write_experiment(
        dir.path(),
        "mine.toml",
        "game = \"breakthrough\"\ngames = 40\nseed = 9\nmatchups = [[\"mine\", \"greedy(heuristic=defense)\"]]\n",
    );
    let args = |out: &Path| -> Vec<String> {
        vec![
            "run".into(),
            text(&experiment).into(),
            "--out".into(),
            text(out).into(),
            "--agents".into(),
            text(&agents).into(),
            "--quiet".into(),
        ]
    };
    let reference = dir.path().join("reference");
    let whole = arbiter().args(args(&reference)).output().expect("run");
    assert!(whole.status.success(), "{}", stderr(&whole));

    let out = dir.path().join("run");
    let mut half = args(&out);
    half.extend(["--max-games".into(), "15".into()]);
    let stopped = arbiter().args(&half).output().expect("run");
    assert_eq!(meta(&out)["status"], "partial", "{}", stderr(&stopped));

    // The agent file changes between the run and its resumption.
    fs::write(
        &agent_file,
        "[[agent]]\nname = \"mine\"\nalgorithm = \"random\"\n",
    )
    .expect("agent");
    let meta_path = out.join("meta.json");
    let original = fs::read_to_string(&meta_path).expect("meta");
    let edited = original.replace("\"seed\": 9,", "\"seed\": 10,");
    assert_ne!(edited, original);
    fs::write(&meta_path, &edited).expect("edit");
    assert_input_error(
        &run(&["run", "--resume", text(&out), "--agents", text(&agents)]),
        &["meta.json", "edited since the run started"],
    );
    fs::write(&meta_path, "{ \"kind\": ").expect("corrupt");
    assert_input_error(
        &run(&["run", "--resume", text(&out), "--agents", text(&agents)]),
        &["meta.json", "not arbiter's meta.json"],
    );
    fs::write(&meta_path, &original).expect("restore");
    let resumed = run(&["run", "--resume", text(&out), "--agents", text(&agents)]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains("note: agents changed since the run started (mine)"),
        "{}",
        stderr(&resumed)
    );
    for file in ["games.csv", "summary.csv"] {
        assert_same_csv(&out.join(file), &reference.join(file), file);
    }
}

/// Starts `args`, interrupts it (SIGINT) once `out` holds a meta.json and a moment has
/// passed, and returns how long the process took to exit after the signal.
fn interrupt_when_started(args: &[&str], out: &Path) -> Duration {
    let child = spawn(args);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !out.join("meta.json").exists() {
        assert!(Instant::now() < deadline, "the run did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    let interrupted = Instant::now();
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let output = child.wait_with_output().expect("wait");
    let waited = interrupted.elapsed();
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    // Half a second is the goal (measured far below); the bound leaves room for a fully
    // loaded machine, and is still far below the hours the interrupted work would take.
    assert!(waited < Duration::from_secs(60), "Ctrl-C took {waited:?}");
    let meta = meta(out);
    assert_eq!(
        (meta["status"].as_str(), meta["games_played"].as_u64()),
        (Some("interrupted"), Some(0))
    );
    assert!(!out.join("lock").exists());
    waited
}

#[test]
fn ctrl_c_stops_a_deep_search_at_once_and_drops_its_game() {
    let dir = tempfile::tempdir().expect("dir");
    // Minimax to depth 12 on Breakthrough: hours per move.
    let experiment = write_experiment(
        dir.path(),
        "deep.toml",
        "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"minimax(heuristic=offensive2,depth=12)\", \"random\"]]\n",
    );
    let out = dir.path().join("run");
    let waited = interrupt_when_started(&["run", text(&experiment), "--out", text(&out)], &out);
    eprintln!("Ctrl-C in a depth-12 search: exit after {waited:?}");
}

#[test]
fn ctrl_c_stops_a_long_puzzle_solve_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    let mut rows = vec![vec!['_'; 60]; 60];
    rows[0][0] = 'a';
    rows[59][0] = 'a';
    rows[0][1] = 'b';
    rows[59][59] = 'b';
    let grid: String = rows
        .iter()
        .map(|r| r.iter().collect::<String>() + "\n")
        .collect();
    fs::write(dir.path().join("g.txt"), grid).expect("grid");
    // Brute force on a 60 x 60 grid, no limit: it would run for ages.
    let experiment = write_experiment(
        dir.path(),
        "slow.toml",
        "kind = \"puzzles\"\nsolvers = [\"brute\"]\npuzzles = [\"g.txt\"]\n",
    );
    let out = dir.path().join("run");
    let waited = interrupt_when_started(&["run", text(&experiment), "--out", text(&out)], &out);
    eprintln!("Ctrl-C in a brute-force solve: exit after {waited:?}");
}

/// `arbiter run ... 2>&1 | head -2`: the reader goes away after two lines. The run must not
/// die of SIGPIPE (meta.json left `running`, the lock held): it stops as after Ctrl-C,
/// exit code 141, and resumes to the same files as an uninterrupted run.
#[test]
fn a_closed_output_pipe_stops_the_run_cleanly_and_it_resumes() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "pipe.toml",
        "game = \"breakthrough\"\ngames = 300\nseed = 4\nmatchups = [[\"alphabeta(heuristic=offensive2,depth=3)\", \"alphabeta(heuristic=defensive2,depth=3)\"]]\n",
    );
    let out = dir.path().join("out");
    // One pipe for stdout and stderr, as `2>&1 |` makes.
    let (reader, writer) = std::io::pipe().expect("pipe");
    let mut child = arbiter()
        .args([
            "run",
            text(&experiment),
            "--out",
            text(&out),
            "--threads",
            "1",
        ])
        .env("ARBITER_PROGRESS_EVERY", "0.01")
        .stdout(writer.try_clone().expect("clone"))
        .stderr(writer)
        .spawn()
        .expect("starts");
    let mut lines = BufReader::new(reader);
    for _ in 0..2 {
        let mut line = String::new();
        lines.read_line(&mut line).expect("a line");
        assert!(!line.is_empty(), "the run said nothing");
    }
    drop(lines);
    let status = child.wait().expect("ends");
    assert_eq!(status.code(), Some(141), "{status:?}");
    let meta = meta(&out);
    assert_eq!(meta["status"], "interrupted", "{meta}");
    let played = meta["games_played"].as_u64().expect("count");
    assert!(played < 300, "stopped early, not after {played} games");
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let reference = dir.path().join("reference");
    run_quietly(&experiment, &reference);
    assert_same_csv(
        &out.join("games.csv"),
        &reference.join("games.csv"),
        "games.csv",
    );
}

/// `arbiter report DIR` takes the folder's lock: it refuses while a run writes the folder,
/// and works once the run is done.
#[test]
fn report_refuses_a_folder_a_run_is_writing_and_works_once_it_stopped() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "long.toml",
        "game = \"breakthrough\"\ngames = 2\nmatchups = [[\"minimax(heuristic=offensive2,depth=12)\", \"random\"]]\n",
    );
    let out = dir.path().join("out");
    let mut child = spawn(&["run", text(&experiment), "--out", text(&out)]);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !out.join("meta.json").exists() {
        assert!(Instant::now() < deadline, "the run did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_input_error(
        &run(&["report", text(&out)]),
        &[
            "another arbiter is writing this folder",
            "one writer per results folder",
        ],
    );
    // Our own child, by its PID: Ctrl-C, which leaves a run's files whole.
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let _ = child.wait();
    let report = run(&["report", text(&out)]);
    assert!(report.status.success(), "{}", stderr(&report));
    // Killed outright, a run has no tables yet: report says how to get them.
    let killed = dir.path().join("killed");
    let mut child = spawn(&["run", text(&experiment), "--out", text(&killed)]);
    while !killed.join("meta.json").exists() {
        assert!(Instant::now() < deadline, "the run did not start");
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_input_error(
        &run(&["report", text(&killed)]),
        &[
            "the run ended before writing its tables (it was killed)",
            "arbiter run --resume",
        ],
    );
}

#[test]
fn a_resume_killed_half_way_keeps_the_files_it_had() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "crash.toml", EXPERIMENT);
    let out = dir.path().join("run");
    run_experiment(&experiment, &out, &["--max-games", "200"]);
    assert_eq!(meta(&out)["status"], "partial");
    let before = fs::read(out.join("games.csv")).expect("games.csv");
    assert_eq!(read_csv(&out.join("games.csv")).1.len(), 200);
    // The resume rewrites games.csv beside the old one; killed while it plays on, the
    // old file is still there, whole.
    let mut child = spawn(&["run", "--resume", text(&out), "--threads", "1"]);
    wait_for_lines(&out.join("journal.jsonl"), 260);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(
        fs::read(out.join("games.csv")).expect("games.csv"),
        before,
        "games.csv changed while the killed resume played"
    );
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(!out.join("games.csv.tmp").exists() && !out.join("moves.csv.tmp").exists());
    assert!(!out.join("moves.resume.csv").exists());
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

#[test]
fn a_journal_counts_each_game_s_moves_and_a_game_whose_rows_were_lost_is_played_again() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "lost.toml", EXPERIMENT);
    let out = dir.path().join("run");
    run_experiment(&experiment, &out, &["--max-games", "300"]);
    // moves.csv holds the moves; each journal line only counts them, so the run needs
    // little more room while it plays than when it is done.
    let size = |name: &str| fs::metadata(out.join(name)).expect(name).len();
    let (journal, files) = (size("journal.jsonl"), size("games.csv") + size("moves.csv"));
    assert!(
        journal * 4 < files,
        "journal {journal} bytes beside {files} of CSV"
    );
    // A kill that landed between the last game's journal line and its rows.
    let moves = fs::read_to_string(out.join("moves.csv")).expect("moves.csv");
    let last = moves
        .lines()
        .last()
        .and_then(|row| row.split(',').next())
        .expect("a row")
        .to_string();
    let cut: String = moves
        .lines()
        .filter(|row| !row.starts_with(&format!("{last},")))
        .map(|row| format!("{row}\n"))
        .collect();
    fs::write(out.join("moves.csv"), cut).expect("write");
    let resumed = run(&["run", "--resume", text(&out)]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed)
            .contains("moves.csv lacked the moves of 1 of the 300 games in the journal"),
        "{}",
        stderr(&resumed)
    );
    assert!(!out.join("moves.resume.csv").exists());
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

#[test]
fn a_journal_record_edited_by_hand_is_refused_on_resume() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(dir.path(), "crash.toml", EXPERIMENT);
    let out = dir.path().join("run");
    run_experiment(&experiment, &out, &["--max-games", "20"]);
    assert_eq!(meta(&out)["status"], "partial");
    let journal = out.join("journal.jsonl");
    let written = fs::read_to_string(&journal).expect("journal");
    // The third record's winner flipped, as a hand edit would.
    let mut lines: Vec<String> = written.lines().map(str::to_string).collect();
    let flipped = if lines[2].contains("\"winner\":\"P1\"") {
        lines[2].replace("\"winner\":\"P1\"", "\"winner\":\"P2\"")
    } else {
        lines[2].replace("\"winner\":\"P2\"", "\"winner\":\"P1\"")
    };
    assert_ne!(flipped, lines[2], "no winner in {}", lines[2]);
    lines[2] = flipped;
    fs::write(&journal, lines.join("\n") + "\n").expect("write");
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    let err = stderr(&resumed);
    assert_eq!(resumed.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("journal.jsonl: line 3: edited since it was written"),
        "{err}"
    );
    // Deleting the line plays that game again: the run ends as an untouched one.
    lines.remove(2);
    fs::write(&journal, lines.join("\n") + "\n").expect("write");
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

#[test]
fn a_run_of_agents_on_node_budgets_without_a_depth_resumes() {
    // Their canonical specs in meta.json say depth=0 (no depth limit), which resume must
    // read back.
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "budgets.toml",
        r#"
game = "breakthrough"
games = 8
seed = 3
matchups = [["alphabeta(heuristic=material,nodes=400)", "alphabeta-cached(heuristic=offense,nodes=300)"]]
"#,
    );
    let out = dir.path().join("run");
    run_experiment(&experiment, &out, &["--max-games", "3"]);
    assert_eq!(meta(&out)["status"], "partial");
    let resumed = run(&["run", "--resume", text(&out), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert_eq!(meta(&out)["status"], "complete");
    assert_as_uninterrupted(&experiment, &out, dir.path());
}

/// Ctrl-C on `solve-game` (the 6x7 start would take hours): it stops, says how far it
/// got and that there is no value, exit code 130.
#[test]
fn ctrl_c_stops_solve_game_and_says_so() {
    let child = spawn(&["solve-game", "connect-four"]);
    // Its board is printed before the search starts.
    std::thread::sleep(Duration::from_millis(800));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(130), "{}", stderr(&output));
    let said = stdout(&output);
    assert!(
        said.contains("interrupted (Ctrl-C):") && said.contains("positions visited"),
        "{said}"
    );
    assert!(!said.contains("value:"), "{said}");
}

/// A run killed while it wrote its first meta.json leaves the lock and meta.json's
/// temporary copy, nothing else: the same command starts it again (it cannot be resumed,
/// having no meta.json), while a folder holding anything more stays refused.
#[test]
fn a_run_killed_while_writing_its_first_meta_json_starts_again_with_the_same_command() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "small.toml",
        "game = \"breakthrough\"\ngames = 4\nseed = 5\nmatchups = [[\"random\", \"random\"]]\n",
    );
    let out = dir.path().join("killed");
    fs::create_dir_all(&out).expect("mkdir");
    fs::write(out.join("lock"), "").expect("lock");
    fs::write(out.join("meta.json.tmp"), "{\"kind\": \"ga").expect("torn copy");
    let args = ["run", text(&experiment), "--out", text(&out), "--quiet"];
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(meta(&out)["status"].as_str(), Some("complete"));
    assert!(!out.join("meta.json.tmp").exists());
    // Anything else in the folder: refused, nothing touched.
    let other = dir.path().join("other");
    fs::create_dir_all(&other).expect("mkdir");
    fs::write(other.join("meta.json.tmp"), "x").expect("copy");
    fs::write(other.join("notes.txt"), "mine").expect("notes");
    let args = ["run", text(&experiment), "--out", text(&other), "--quiet"];
    assert_input_error(&run(&args), &["is not empty"]);
    assert_eq!(
        fs::read_to_string(other.join("notes.txt")).expect("kept"),
        "mine"
    );
}
