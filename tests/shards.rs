//! Runs spread over machines: `run --shard I/N` (and `auto`), `merge`, `emit slurm`.
//! The merged folder of any split equals the single-machine run, file by file.

use crate::common::{
    arbiter, assert_input_error, assert_same_csv, run, run_quietly, stderr, stdout, text,
    write_experiment,
};
use std::fs;
use std::path::{Path, PathBuf};

fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Runs shard `index` of `count` of `experiment` into `out`.
fn run_shard(experiment: &Path, index: u64, count: u64, out: &Path) {
    let output = run(&[
        "run",
        text(experiment),
        "--shard",
        &format!("{index}/{count}"),
        "--out",
        text(out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
}

fn merge(out: &Path, shards: &[PathBuf], extra: &[&str]) -> std::process::Output {
    let mut args = vec!["merge", text(out)];
    args.extend(shards.iter().map(|s| text(s)));
    args.extend(extra);
    args.push("--quiet");
    run(&args)
}

/// Every CSV file of `single` has its equal (timing aside) in `merged`.
fn assert_same_files(single: &Path, merged: &Path, what: &str) {
    let mut compared = 0;
    for entry in fs::read_dir(single).expect("run folder").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".csv") {
            assert_same_csv(
                &entry.path(),
                &merged.join(&name),
                &format!("{what}: {name}"),
            );
            compared += 1;
        }
    }
    assert!(compared >= 1, "{what}: no CSV file");
}

#[test]
fn every_split_merges_into_the_single_machine_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let flow = repository("matchups/puzzles/flow");
    let experiments = [
        (
            "games",
            "game = \"breakthrough\"\ngames = 5\nseed = 3\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"], [\"random\", \"alphabeta(heuristic=offense,depth=2)\"], [\"greedy(heuristic=offense)\", \"alphabeta(heuristic=offense,depth=2)\"]]\n".to_string(),
            // 9 colour-swapped pairs (and single games): 1 shard, 4, more shards than pairs.
            vec![1, 4, 11],
        ),
        (
            "search",
            "kind = \"search\"\ngame = \"wights\"\nheuristic = \"material\"\npositions = 7\nalgorithms = [\"minimax\", \"alphabeta\"]\ndepths = [1, 2]\n".to_string(),
            vec![3],
        ),
        (
            "puzzles",
            format!(
                "kind = \"puzzles\"\nsolvers = [\"smart\", \"sat\"]\npuzzles = [\"{}\", \"{}\", \"{}\"]\nrepetitions = 2\nseed = 5\n",
                flow.join("input55.txt").display(),
                flow.join("input77.txt").display(),
                flow.join("input88.txt").display()
            ),
            vec![2],
        ),
    ];
    for (name, source, splits) in experiments {
        let experiment = write_experiment(dir.path(), &format!("{name}.toml"), &source);
        let single = dir.path().join(format!("{name}-single"));
        run_quietly(&experiment, &single);
        for count in splits {
            let shards: Vec<PathBuf> = (0..count)
                .map(|i| dir.path().join(format!("{name}-{count}-shard{i}")))
                .collect();
            for (i, shard) in shards.iter().enumerate() {
                run_shard(&experiment, i as u64, count, shard);
            }
            let merged = dir.path().join(format!("{name}-{count}-merged"));
            let output = merge(&merged, &shards, &[]);
            assert!(output.status.success(), "{name}: {}", stderr(&output));
            assert_same_files(&single, &merged, &format!("{name} in {count} shards"));
            // Any order of the shard folders gives the same files.
            let reversed: Vec<PathBuf> = shards.iter().rev().cloned().collect();
            let again = dir.path().join(format!("{name}-{count}-merged-reversed"));
            assert!(merge(&again, &reversed, &[]).status.success());
            assert_same_files(&merged, &again, &format!("{name} merged in reverse"));
            let shown = stdout(&run(&["show", text(&merged)]));
            assert!(
                shown.contains(&format!("complete, merged from {count} shards")),
                "{shown}"
            );
        }
    }
}

#[test]
fn merge_refuses_shards_that_do_not_belong_together() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = "game = \"breakthrough\"\ngames = 4\nseed = 1\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n";
    let experiment = write_experiment(dir.path(), "e.toml", source);
    let other = write_experiment(
        dir.path(),
        "o.toml",
        &source.replace("seed = 1", "seed = 2"),
    );
    let shard = |name: &str, experiment: &Path, index: u64, count: u64| -> PathBuf {
        let out = dir.path().join(name);
        run_shard(experiment, index, count, &out);
        out
    };
    let s0 = shard("s0", &experiment, 0, 2);
    let s1 = shard("s1", &experiment, 1, 2);
    let foreign = shard("foreign", &other, 1, 2);
    let of_three = shard("three", &experiment, 1, 3);
    let out = |name: &str| dir.path().join(name);

    assert_input_error(
        &merge(&out("m1"), &[s0.clone(), foreign.clone()], &[]),
        &["foreign: a shard of another experiment than", "s0"],
    );
    assert_input_error(
        &merge(&out("m2"), &[s0.clone(), of_three], &[]),
        &["three: shard 1/3, but", "is one of 2 shards"],
    );
    assert_input_error(
        &merge(&out("m3"), &[s0.clone(), s0.clone()], &[]),
        &["shard 0/2 given twice"],
    );
    assert_input_error(
        &merge(&out("m4"), std::slice::from_ref(&s0), &[]),
        &["shard 1 of 2 not given", "--partial"],
    );
    let single = out("single");
    run_quietly(&experiment, &single);
    assert_input_error(
        &merge(&out("m5"), &[s0.clone(), single], &[]),
        &["single: not a shard"],
    );
    // Another version of arbiter made one of them.
    let meta_path = s1.join("meta.json");
    let meta = fs::read_to_string(&meta_path).expect("meta");
    let older = dir.path().join("older");
    fs::create_dir(&older).expect("mkdir");
    for entry in fs::read_dir(&s1).expect("shard").flatten() {
        fs::copy(entry.path(), older.join(entry.file_name())).expect("copy");
    }
    let version = format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert!(meta.contains(&version), "{meta}");
    fs::write(
        older.join("meta.json"),
        meta.replace(&version, "\"version\": \"0.0.1\""),
    )
    .expect("write");
    assert_input_error(
        &merge(&out("m6"), &[s0.clone(), older], &[]),
        &[
            "older: made by arbiter 0.0.1",
            "merge shards of one version",
        ],
    );
    // Nothing was written by a refused merge.
    for name in ["m1", "m2", "m3", "m4", "m5", "m6"] {
        assert!(!out(name).exists(), "{name} written");
    }

    // An unfinished shard: refused, or merged with --partial, which names what is missing.
    let unfinished = out("unfinished");
    let output = run(&[
        "run",
        text(&experiment),
        "--shard",
        "1/2",
        "--out",
        text(&unfinished),
        "--max-games",
        "1",
        // One worker plays the shard's jobs in plan order, so the game left is always the
        // last one (on two, either game could finish first: a flaky missing id).
        "--threads",
        "1",
        "--quiet",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    assert_input_error(
        &merge(&out("m7"), &[s0.clone(), unfinished.clone()], &[]),
        &[
            "unfinished: shard 1/2 is partial (1 of 2 jobs done)",
            "arbiter run --resume",
        ],
    );
    let partial = out("partial");
    let output = merge(&partial, &[s0.clone(), unfinished.clone()], &["--partial"]);
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("shard 1/2: 1 games missing (ids 3)"),
        "{}",
        stderr(&output)
    );
    let shown = stdout(&run(&["show", text(&partial)]));
    assert!(
        shown.contains("PARTIAL: merged from 2 of 2 shards"),
        "{shown}"
    );
    let report = fs::read_to_string(partial.join("report.md")).expect("report");
    assert!(report.contains("PARTIAL"), "{report}");
    // Resumed here, the partial merge plays its missing game and is whole.
    let resumed = run(&["run", "--resume", text(&partial), "--quiet"]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    let shown = stdout(&run(&["show", text(&partial)]));
    assert!(
        shown.contains("complete, merged from 2 of 2 shards, 1 played here after the merge"),
        "{shown}"
    );
    assert_same_files(
        &single_run(&experiment, &out("single3")),
        &partial,
        "resumed partial",
    );

    // The same --out with an edited experiment is refused, the shard left as it was.
    let edited = run(&[
        "run",
        text(&other),
        "--shard",
        "1/2",
        "--out",
        text(&unfinished),
    ]);
    assert_input_error(
        &edited,
        &["it holds shard 1/2 of another version of", "o.toml"],
    );
    // The unfinished shard's task run again (a requeued Slurm task) resumes its folder;
    // once complete, running it again does nothing.
    run_shard(&experiment, 1, 2, &unfinished);
    let again = run(&[
        "run",
        text(&experiment),
        "--shard",
        "1/2",
        "--out",
        text(&unfinished),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("shard 1/2 is already complete"),
        "{}",
        stderr(&again)
    );
    let wrong = run(&[
        "run",
        text(&experiment),
        "--shard",
        "0/2",
        "--out",
        text(&unfinished),
    ]);
    assert_input_error(&wrong, &["it holds shard 1/2, not shard 0/2"]);
    let merged = out("merged");
    assert!(merge(&merged, &[unfinished, s0], &[]).status.success());
    assert_same_files(
        &single_run(&experiment, &out("single2")),
        &merged,
        "after resume",
    );
}

fn single_run(experiment: &Path, out: &Path) -> PathBuf {
    run_quietly(experiment, out);
    out.to_path_buf()
}

#[test]
fn shard_auto_reads_the_schedulers_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "e.toml",
        "game = \"wights\"\ngames = 6\nmatchups = [[\"random\", \"greedy(heuristic=material)\"]]\n",
    );
    let out = dir.path().join("task");
    let output = arbiter()
        .args([
            "run",
            text(&experiment),
            "--shard",
            "auto",
            "--out",
            text(&out),
            "--quiet",
        ])
        .env("SLURM_ARRAY_TASK_ID", "3")
        .env("SLURM_ARRAY_TASK_MIN", "2")
        .env("SLURM_ARRAY_TASK_COUNT", "3")
        .env("SLURM_CPUS_PER_TASK", "1")
        .output()
        .expect("runs");
    assert!(output.status.success(), "{}", stderr(&output));
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["shard"], serde_json::json!([1, 3]));
    assert_eq!(meta["experiment_checksum"].as_str().map(str::len), Some(16));
    assert!(meta["host"].as_str().is_some_and(|h| !h.is_empty()));
    assert_eq!(meta["threads"], 1);
    assert_eq!(meta["games_total"], 2);
    let none = arbiter()
        .args(["run", text(&experiment), "--shard", "auto", "--quiet"])
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .env_remove("ARBITER_SHARD")
        .output()
        .expect("runs");
    assert_input_error(&none, &["--shard auto: no SLURM_ARRAY_TASK_ID"]);
    assert_input_error(
        &run(&["run", text(&experiment), "--shard", "3/3"]),
        &["--shard 3/3", "from 0 to 2"],
    );
}

#[test]
fn emit_slurm_prints_a_submission_script_for_a_valid_experiment() {
    let quick = repository("matchups/quick.toml");
    let output = run(&[
        "emit",
        "slurm",
        text(&quick),
        "--shards",
        "4",
        "--time",
        "0:10:00",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let script = stdout(&output);
    assert!(script.starts_with("#!/bin/bash\n"), "{script}");
    assert!(
        script.contains("--array=0-3 --cpus-per-task=1 --time=0:10:00"),
        "{script}"
    );
    assert!(
        script.contains(&format!("EXPERIMENT={}", quick.display())),
        "{script}"
    );
    let check = std::process::Command::new("bash")
        .args(["-n", "-c", &script])
        .output()
        .expect("bash");
    assert!(check.status.success(), "{}", stderr(&check));
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = write_experiment(dir.path(), "bad.toml", "game = \"chess\"\n");
    assert_input_error(
        &run(&["emit", "slurm", text(&bad), "--shards", "2"]),
        &["bad.toml", "unknown game 'chess'"],
    );
    assert_input_error(
        &run(&["emit", "slurm", text(&quick), "--shards", "0"]),
        &["--shards 0"],
    );
}

#[test]
fn a_merge_keeps_the_threads_its_shards_ran_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let experiment = write_experiment(
        dir.path(),
        "t.toml",
        "game = \"wights\"\ngames = 4\nseed = 3\nmatchups = [[\"random\", \"greedy(heuristic=material)\"]]\n",
    );
    let mut shards = Vec::new();
    for index in 0..2 {
        let folder = dir.path().join(format!("s{index}"));
        let output = run(&[
            "run",
            text(&experiment),
            "--shard",
            &format!("{index}/2"),
            "--threads",
            "1",
            "--out",
            text(&folder),
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        shards.push(folder);
    }
    let merged = dir.path().join("merged");
    let output = merge(&merged, &shards, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let meta: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(merged.join("meta.json")).expect("meta"))
            .expect("json");
    assert_eq!(meta["threads"], 1, "the shards ran on one thread each");
    let shown = stdout(&run(&["show", text(&merged)]));
    assert!(
        shown.contains("1 threads, complete, merged from 2 shards"),
        "{shown}"
    );
}
