//! The Python package (clients/python): its pytest suite, run by the Python of a virtual
//! environment where it is installed, against this build's `arbiter` binary (the files the
//! package writes must equal the command line's), and the notebook in docs/ executed.
//!
//! Needs `$ARBITER_PYTHON`: a Python where `pip install "./clients/python[test,notebook]"`
//! was done (what `.ci/run` sets, building the package in a fresh virtual environment);
//! otherwise skipped, loudly.

use crate::common::component;
use std::path::Path;
use std::process::Command;

/// The Python with the package installed, or `None` after a loud skip.
fn package_python() -> Option<String> {
    let python = std::env::var("ARBITER_PYTHON").ok();
    let imports = python.as_ref().is_some_and(|python| {
        Command::new(python)
            .args(["-c", "import arbiter, pytest"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    component(
        imports,
        "the arbiter Python package",
        "make a virtual environment, `pip install \"./clients/python[test,notebook]\"` in it and set ARBITER_PYTHON=<venv>/bin/python, as .ci/run does",
    )
    .then(|| python.unwrap_or_default())
}

#[test]
fn the_python_package_passes_its_tests_and_runs_the_notebook() {
    let Some(python) = package_python() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = Command::new(&python)
        .args([
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "clients/python/tests",
        ])
        .current_dir(root)
        .env("ARBITER_BIN", env!("CARGO_BIN_EXE_arbiter"))
        .output()
        .expect("start pytest");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "pytest failed:\n{text}");
    // Every test ran: none was skipped for want of the binary or a notebook kernel.
    assert!(text.contains(" passed"), "{text}");
    assert!(
        !text.contains("skipped"),
        "a Python test was skipped:\n{text}"
    );
}
