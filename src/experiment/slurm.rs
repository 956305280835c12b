//! `arbiter emit slurm`: a submission script that runs an experiment as a Slurm job array
//! of shards (`run --shard auto`) and, once every task has succeeded, merges them.

use std::path::Path;

/// What the script runs and asks Slurm for.
#[derive(Clone, Debug)]
pub struct SlurmJob<'a> {
    /// arbiter's binary (absolute).
    pub arbiter: &'a Path,
    /// The experiment file (absolute).
    pub experiment: &'a Path,
    /// The agents folder (absolute), if any.
    pub agents: Option<&'a Path>,
    /// The experiment's name, for the job names.
    pub name: &'a str,
    /// Where the shards, logs and merged folder go (absolute).
    pub out: &'a Path,
    /// Array tasks.
    pub shards: u64,
    /// CPUs per task.
    pub cpus: u32,
    /// Slurm time limit per task (`--time`), if any.
    pub time: Option<&'a str>,
    /// Further `sbatch` options for both jobs, e.g. `--partition=short`.
    pub sbatch: &'a [String],
}

/// Quotes `text` for bash: as is when it is plainly safe, else in single quotes.
fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// The script's text.
pub fn script(job: &SlurmJob<'_>) -> String {
    let mut options = vec![format!("--cpus-per-task={}", job.cpus)];
    if let Some(time) = job.time {
        options.push(format!("--time={time}"));
    }
    options.extend(job.sbatch.iter().cloned());
    let options: Vec<String> = options.iter().map(|o| quote(o)).collect();
    let options = options.join(" ");
    let agents = job
        .agents
        .map(|a| format!(" --agents {}", quote(&a.display().to_string())))
        .unwrap_or_default();
    let out = quote(&job.out.display().to_string());
    let job_name = quote(&format!("arbiter-{}", job.name));
    let lines = [
        "#!/bin/bash".to_string(),
        format!(
            "# Runs {} as {} shards of a Slurm job array, then merges them into one results",
            job.name, job.shards
        ),
        "# folder (made by `arbiter emit slurm`). Submit it from a login node:".to_string(),
        "#     bash THIS_SCRIPT            # submit and return".to_string(),
        "#     bash THIS_SCRIPT --wait     # submit and wait for the merge: exit 0 once it is done,"
            .to_string(),
        "#                                 # 1 naming each failed shard and its log"
            .to_string(),
        format!(
            "# Each task writes {}/shards/shard-<i>; a task run again (requeued) resumes its shard.",
            job.out.display()
        ),
        format!(
            "# The merge starts once every task has succeeded: {}/merged.",
            job.out.display()
        ),
        "set -euo pipefail".to_string(),
        format!("ARBITER={}", quote(&job.arbiter.display().to_string())),
        format!("EXPERIMENT={}", quote(&job.experiment.display().to_string())),
        format!("OUT={out}"),
        "WAIT=()".to_string(),
        "if [ \"${1:-}\" = \"--wait\" ]; then WAIT=(--wait); fi".to_string(),
        "mkdir -p \"$OUT/shards\" \"$OUT/logs\"".to_string(),
        format!(
            "array=$(sbatch --parsable --job-name={job_name} --array=0-{} {options} \\",
            job.shards.saturating_sub(1)
        ),
        "    --output=\"$OUT/logs/shard-%a.out\" <<EOF".to_string(),
        "#!/bin/bash".to_string(),
        format!(
            "exec \"$ARBITER\" run \"$EXPERIMENT\"{agents} --shard auto --out \"$OUT/shards/shard-\\$SLURM_ARRAY_TASK_ID\""
        ),
        "EOF".to_string(),
        ")".to_string(),
        "array=${array%%;*}".to_string(),
        format!(
            "echo \"submitted the shards: job array $array ({} tasks); logs in $OUT/logs\"",
            job.shards
        ),
        "echo \"the merge runs once they have all succeeded, into $OUT/merged\"".to_string(),
        "merge_code=0".to_string(),
        format!(
            "merge=$(sbatch --parsable \"${{WAIT[@]}}\" --job-name={job_name}-merge --dependency=afterok:\"$array\" \\"
        ),
        format!("    --kill-on-invalid-dep=yes {options} --output=\"$OUT/logs/merge.out\" <<EOF"),
        "#!/bin/bash".to_string(),
        "exec \"$ARBITER\" merge \"$OUT/merged\" \"$OUT\"/shards/shard-*".to_string(),
        "EOF".to_string(),
        ") || merge_code=$?".to_string(),
        "merge=${merge%%;*}".to_string(),
        "if [ ${#WAIT[@]} -eq 0 ]; then".to_string(),
        "    echo \"the merge is job $merge: squeue shows the jobs\"".to_string(),
        "    exit 0".to_string(),
        "fi".to_string(),
        "# sbatch --wait also returns 0 for a merge Slurm cancelled unrun (a shard failed, so".to_string(),
        "# afterok could not be met): the merged folder, not the exit code, says it is done.".to_string(),
        "complete() { grep -qs '\"status\": \"complete\"' \"$1/meta.json\"; }".to_string(),
        "if [ \"$merge_code\" = 0 ] && complete \"$OUT/merged\"; then".to_string(),
        "    echo \"the merge (job $merge) is done: $OUT/merged\"".to_string(),
        "    exit 0".to_string(),
        "fi".to_string(),
        "failed=0".to_string(),
        format!("for ((i = 0; i < {}; i++)); do", job.shards),
        "    if ! complete \"$OUT/shards/shard-$i\"; then".to_string(),
        format!(
            "        echo \"shard $i of {} (array task ${{array}}_$i) failed: its log is $OUT/logs/shard-$i.out\" >&2",
            job.shards
        ),
        "        failed=$((failed + 1))".to_string(),
        "    fi".to_string(),
        "done".to_string(),
        "if [ \"$failed\" -gt 0 ]; then".to_string(),
        "    echo \"the merge (job $merge) did not run: $failed shard(s) failed. Fix the cause and run this script again: finished shards are kept, the others resume, then the merge runs\" >&2".to_string(),
        "else".to_string(),
        "    echo \"the merge (job $merge) failed (exit code $merge_code): its log is $OUT/logs/merge.out; merge by hand with: $ARBITER merge $OUT/merged $OUT/shards/shard-*\" >&2".to_string(),
        "fi".to_string(),
        "exit 1".to_string(),
    ];
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_submits_an_array_and_a_dependent_merge() {
        let extra = vec!["--partition=short".to_string()];
        let text = script(&SlurmJob {
            arbiter: Path::new("/opt/arbiter"),
            experiment: Path::new("/home/me/my exp.toml"),
            agents: Some(Path::new("/home/me/agents")),
            name: "quick",
            out: Path::new("/scratch/quick"),
            shards: 4,
            cpus: 2,
            time: Some("0:30:00"),
            sbatch: &extra,
        });
        assert!(text.starts_with("#!/bin/bash\n"));
        assert!(
            text.contains("EXPERIMENT='/home/me/my exp.toml'\n"),
            "{text}"
        );
        assert!(text.contains("--array=0-3 --cpus-per-task=2 --time=0:30:00 --partition=short"));
        assert!(text.contains(
            "--agents /home/me/agents --shard auto --out \"$OUT/shards/shard-\\$SLURM_ARRAY_TASK_ID\""
        ));
        assert!(text.contains("--dependency=afterok:\"$array\""));
        assert!(text.contains("merge \"$OUT/merged\" \"$OUT\"/shards/shard-*"));
        assert_eq!(quote("it's"), r"'it'\''s'");
        // --wait trusts the merged folder, not sbatch's exit code, and names failed shards.
        assert!(text.contains("if [ \"$merge_code\" = 0 ] && complete \"$OUT/merged\"; then"));
        assert!(text.contains("for ((i = 0; i < 4; i++)); do"));
        assert!(text.contains("its log is $OUT/logs/shard-$i.out"));
        assert!(text.trim_end().ends_with("exit 1"));
    }
}
