//! On a real Slurm cluster: tests/slurm/cluster.sh starts one on this machine, submits the
//! script `arbiter emit slurm` writes for matchups/quick.toml in 4 shards, checks that the
//! merged run equals the single-machine run, then that a failing shard makes
//! `job.sh --wait` exit non-zero naming the shard and its log.
//!
//! It starts daemons (munged, slurmctld, slurmd on ports 16817-16818) as root, so it runs
//! only when `ARBITER_TEST_SLURM=1` is set (`.ci/run` sets it, after installing Debian's
//! slurm-wlm and munge); otherwise it is skipped, loudly. It never installs anything, and
//! ends only the processes it started.

use crate::common;

use std::path::Path;
use std::process::Command;

#[test]
fn a_slurm_job_array_and_its_merge_equal_the_single_machine_run_and_a_failed_shard_is_reported() {
    if std::env::var_os("ARBITER_TEST_SLURM").is_none() {
        common::component(
            false,
            "ARBITER_TEST_SLURM=1 (the Slurm test starts munged, slurmctld and slurmd as root)",
            "install Debian's slurm-wlm and munge and set ARBITER_TEST_SLURM=1 to run it, as .ci/run does",
        );
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/cluster.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => {
            assert!(said.contains("CSV files of the merged run equal"), "{said}");
            assert!(said.contains("a failed shard is reported"), "{said}");
            assert!(
                said.contains("the script run again after the fix merged all shards"),
                "{said}"
            );
        }
        // Root, slurm-wlm or munge missing: a skip, unless CI requires every component.
        Some(77) => {
            common::component(false, "a Slurm cluster", &said);
        }
        code => panic!("{} failed ({code:?}):\n{said}", script.display()),
    }
}
