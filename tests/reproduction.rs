//! Published numbers beside arbiter's: an experiment's `[[reference]]` tables reach
//! `show`, report.md, index.html and reproduction.csv with their verdicts, survive
//! `arbiter report`, and bad ones are refused before anything runs.

use crate::common::*;
use std::fs;

/// Report 000's smart solver on its 7x7 and 8x8 (440 and 18,387 placed colours), one
/// number that is wrong on purpose, one time and one count out of a sample.
fn experiment(root: &str) -> String {
    format!(
        "kind = \"puzzles\"\nsolvers = [\"smart\", \"smart-fc\"]\npuzzles = [\"{root}/matchups/puzzles/flow/input77.txt\", \"{root}/matchups/puzzles/flow/input88.txt\"]\n\n\
[[reference]]\npuzzle = \"input77.txt\"\nsolver = \"smart\"\nplaced = 440\ntolerance = 0\nsource = \"report 000, table 1\"\n\n\
[[reference]]\npuzzle = \"input88.txt\"\nsolver = \"smart\"\nplaced = 18387\ntolerance = 0\nsource = \"report 000, table 1\"\n\n\
[[reference]]\npuzzle = \"input88.txt\"\nsolver = \"smart-fc\"\nplaced = 18387\nsource = \"made up\"\nnote = \"wrong on purpose\"\n\n\
[[reference]]\npuzzle = \"input88.txt\"\nsolver = \"smart\"\nms = 900\nsource = \"report 000, table 1\"\n\n\
[[reference]]\npuzzle = \"input77.txt\"\nsolver = \"smart-fc\"\nsolved = 1\nruns = 1\nsource = \"report 000\"\n"
    )
}

#[test]
fn references_get_verdicts_in_show_the_documents_and_reproduction_csv() {
    let dir = tempfile::tempdir().expect("dir");
    let root = env!("CARGO_MANIFEST_DIR");
    let path = write_experiment(dir.path(), "refs.toml", &experiment(root));
    let out = dir.path().join("run");
    run_quietly(&path, &out);

    let shown = stdout(&run(&["show", text(&out)]));
    assert!(
        shown.contains(
            "reproduction: 3 of 4 published numbers reproduced (1 differ; 1 more not comparable)."
        ),
        "{shown}"
    );
    assert!(shown.contains("Note 3: wrong on purpose"), "{shown}");

    let (header, rows) = read_csv(&out.join("reproduction.csv"));
    let column = |name: &str| header.iter().position(|h| h == name).expect(name);
    let verdicts: Vec<&str> = rows.iter().map(|r| r[column("verdict")].as_str()).collect();
    assert_eq!(
        verdicts,
        ["agrees", "agrees", "differs", "not comparable", "agrees"]
    );
    assert_eq!(rows[1][column("arbiter")], "18387");
    assert_eq!(rows[1][column("ratio")], "1");
    assert_eq!(rows[4][column("arbiter_sample")], "1");
    assert_eq!(rows[4][column("fisher_p")], "1");

    let markdown = fs::read_to_string(out.join("report.md")).expect("report.md");
    let html = fs::read_to_string(out.join("index.html")).expect("index.html");
    for document in [&markdown, &html] {
        assert!(document.contains("Reproduction of the published numbers"));
        assert!(document.contains("3 of 4 published numbers reproduced"));
        assert!(document.contains("18,387"));
        assert!(document.contains("reproduction.csv"));
    }

    // Rebuilt from the folder alone, the same verdicts.
    let before = fs::read_to_string(out.join("reproduction.csv")).expect("csv");
    fs::remove_file(out.join("reproduction.csv")).expect("remove");
    let output = run(&["report", text(&out)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(out.join("reproduction.csv")).expect("csv"),
        before
    );
}

#[test]
fn bad_references_are_refused_with_file_and_line_before_anything_runs() {
    let dir = tempfile::tempdir().expect("dir");
    let root = env!("CARGO_MANIFEST_DIR");
    let puzzles = format!(
        "kind = \"puzzles\"\nsolvers = [\"smart\"]\npuzzles = [\"{root}/matchups/puzzles/flow/input55.txt\"]\n\n"
    );
    let games =
        "game = \"breakthrough\"\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n\n";
    let cases: [(String, &[&str]); 5] = [
        (
            format!(
                "{puzzles}[[reference]]\npuzzle = \"input99.txt\"\nsolver = \"smart\"\nplaced = 3\nsource = \"s\"\n"
            ),
            &[
                "line 5: reference 1: puzzle 'input99.txt' is not one of the experiment's (input55.txt)",
            ],
        ),
        (
            format!(
                "{puzzles}[[reference]]\npuzzle = \"input55.txt\"\nsolver = \"smart\"\nsolved = 3\nsource = \"s\"\n"
            ),
            &["line 5: reference 1: solved = 3 needs runs"],
        ),
        (
            format!(
                "{games}[[reference]]\nmatchup = 1\nagent = \"random\"\nwins = 3\ngames = 10\nsource = \"s\"\n"
            ),
            &["line 4: reference 1: matchup = 1: the experiment has matchups 0 to 0"],
        ),
        (
            format!(
                "{games}[[reference]]\nmatchup = 0\nagent = \"greedy\"\nwins = 3\ngames = 10\nsource = \"s\"\n"
            ),
            &[
                "line 4: reference 1: agent 'greedy' does not play matchup 0 (random vs greedy(heuristic=offensive2))",
            ],
        ),
        (
            format!(
                "{games}[[reference]]\nmatchup = 0\nagent = \"random\"\nwins = 3\ngames = 10\n"
            ),
            &["line 4: reference 1: source is missing"],
        ),
    ];
    for (index, (text_of, expected)) in cases.iter().enumerate() {
        let path = write_experiment(dir.path(), &format!("bad{index}.toml"), text_of);
        let out = dir.path().join(format!("out{index}"));
        let output = run(&["run", text(&path), "--out", text(&out), "--quiet"]);
        let mut fragments = vec![format!("bad{index}.toml")];
        fragments.extend(expected.iter().map(|e| e.to_string()));
        let fragments: Vec<&str> = fragments.iter().map(String::as_str).collect();
        assert_input_error(&output, &fragments);
        assert!(!out.exists(), "nothing is written for a refused experiment");
    }
}
