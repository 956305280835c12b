//! The layers of `src/` use only the layers before them (DESIGN.md, docs/layout.md):
//! every `crate::<layer>` path in a layer's files, tests included, must name an earlier
//! layer or itself (so records never uses documents), every folder's `mod.rs` opens with
//! a line saying what it is for, and no document reads the run's folder: documents are
//! made from a run read once by records.

use std::fs;
use std::path::Path;

/// The layers in order: each may use only those before it.
const LAYERS: &[&str] = &[
    "core",
    "stats",
    "games",
    "evals",
    "search",
    "external",
    "csp",
    "registry",
    "tournament",
    "records",
    "documents",
    "experiment",
    "cli",
];

fn rust_files(folder: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in fs::read_dir(folder).expect("readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_layer_uses_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    for (rank, layer) in LAYERS.iter().enumerate() {
        let mut files = Vec::new();
        rust_files(&src.join(layer), &mut files);
        assert!(!files.is_empty(), "src/{layer} has no files");
        for file in files {
            let text = fs::read_to_string(&file).expect("utf8");
            for (number, line) in text.lines().enumerate() {
                for later in &LAYERS[rank + 1..] {
                    let uses = [
                        format!("crate::{later}::"),
                        format!("crate::{later};"),
                        format!("crate::{later}}}"),
                        format!("crate::{later},"),
                        format!("crate::{{{later}"),
                    ];
                    if uses.iter().any(|u| line.contains(u.as_str())) {
                        violations.push(format!(
                            "{}:{}: {layer} uses {later}",
                            file.display(),
                            number + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn every_folder_says_what_it_is_for() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in files.iter().filter(|f| f.ends_with("mod.rs")) {
        let text = fs::read_to_string(file).expect("utf8");
        assert!(
            text.starts_with("//! "),
            "{} does not open with a line on what the folder is for",
            file.display()
        );
    }
}

#[test]
fn no_document_reads_the_run_folder() {
    let documents = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/documents");
    let mut files = Vec::new();
    rust_files(&documents, &mut files);
    let reads = [
        "Meta::read",
        "read_meta",
        "csv::Reader",
        "csv_rows(",
        "read_to_string(",
        "fs::read(",
        "File::open",
        "read_dir(",
        "LoadedRun::read",
        "CsvCells::read",
    ];
    let mut violations = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).expect("utf8");
        // The code, not its tests (which read what the code wrote).
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            if let Some(read) = reads.iter().find(|r| line.contains(*r)) {
                violations.push(format!(
                    "{}:{}: reads the run folder ({read}): take it from the LoadedRun",
                    file.display(),
                    number + 1
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

#[test]
fn csv_files_are_opened_only_in_records() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let records = src.join("records");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let opens = [
        "csv::Reader::from",
        "csv::ReaderBuilder",
        "csv::Writer::from",
        "csv::WriterBuilder",
    ];
    let mut violations = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&records)) {
        let text = fs::read_to_string(file).expect("utf8");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (number, line) in code.lines().enumerate() {
            if let Some(open) = opens.iter().find(|o| line.contains(*o)) {
                violations.push(format!(
                    "{}:{}: opens a CSV file ({open}): read or write it through records",
                    file.display(),
                    number + 1
                ));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
