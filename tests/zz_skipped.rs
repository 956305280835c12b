//! The last test binary of `cargo test` (binaries run in the order of their names): it
//! counts the tests of this run that skipped for want of a component (python3, a JDK,
//! Chromium, OpenSpiel, Slurm, bubblewrap) and says so where the run's output ends, so
//! that a skipped test is never read as a passed one. `.ci/run` sets
//! `ARBITER_REQUIRE_COMPONENTS`, which turns every skip into a failure instead.

mod common;

use std::io::Write;

#[test]
fn the_tests_skipped_in_this_run_are_counted() {
    let record = common::skips_file(std::os::unix::process::parent_id());
    let skips = std::fs::read_to_string(&record).unwrap_or_default();
    let _ = std::fs::remove_file(&record);
    let lines: Vec<&str> = skips.lines().filter(|l| !l.is_empty()).collect();
    let mut out = std::io::stderr().lock();
    if lines.is_empty() {
        let _ = writeln!(
            out,
            "\nno test of this run skipped for want of a component\n"
        );
        return;
    }
    let _ = writeln!(
        out,
        "\n*** {} test{} SKIPPED in this run for want of a component (each said what to install above):",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" }
    );
    for line in &lines {
        let _ = writeln!(out, "***   {line}");
    }
    let _ = writeln!(out);
}
