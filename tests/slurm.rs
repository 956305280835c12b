//! On a real Slurm cluster: tests/slurm/cluster.sh starts one on this machine (installing
//! Debian's slurm-wlm and munge when missing), submits the script `arbiter emit slurm`
//! writes for matchups/quick.toml in 4 shards, and checks that the merged run equals the
//! single-machine run. Skipped, loudly, only where Slurm cannot be installed or run.

use std::path::Path;
use std::process::Command;

#[test]
fn a_slurm_job_array_and_its_merge_equal_the_single_machine_run() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/cluster.sh");
    let output = Command::new("bash")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => assert!(said.contains("CSV files of the merged run equal"), "{said}"),
        Some(77) => {
            eprintln!("\n=== SKIPPED: no Slurm cluster could be started here ===\n{said}\n")
        }
        code => panic!("{} failed ({code:?}):\n{said}", script.display()),
    }
}
