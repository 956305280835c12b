//! The end-to-end tests, one test binary: each file of `tests/` is a module of it, so the
//! library and its dependencies are linked once instead of once per file, and the tests of
//! every file share one pool of test threads (a slow test of one file no longer holds the
//! next file back). `cargo test --test suite cli::` runs one file's tests.
//! `tests/zz_skipped.rs` stays a binary of its own: it runs after this one and counts the
//! tests that skipped for want of a component.

mod common;

mod class;
mod cli;
mod clock;
mod external;
mod games;
mod heuristics;
mod inputs;
mod ladder;
mod layers;
mod openspiel;
mod oracles;
mod parsers;
mod python;
mod readme;
mod reproduction;
mod resume;
mod rounds;
mod sandbox;
mod shards;
mod slurm;
mod submissions;
mod tables;
mod tune;
mod viewer;

/// With `autotests = false` a file of `tests/` that is not a module here would never be
/// built nor run: every one is.
#[test]
fn every_test_file_is_a_module_of_the_suite() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(folder.join("suite.rs")).expect("suite.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&folder).expect("tests/") {
        let path = entry.expect("an entry").path();
        let Some(stem) = path
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|_| path.extension().is_some_and(|e| e == "rs"))
        else {
            continue;
        };
        if !["suite", "zz_skipped"].contains(&stem) && !suite.contains(&format!("\nmod {stem};\n"))
        {
            missing.push(stem.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "not in tests/suite.rs (add `mod NAME;`): {missing:?}"
    );
}
