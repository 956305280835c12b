//! The README's five-minute tour, run as written: the commands are read from the README,
//! run one after the other in a fresh copy of the repository's shipped files, and each
//! must exit 0 and print what its comment promises (the text in double quotes, if any).

use crate::common;

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

/// The tour's command lines (continuations joined), without the build line.
fn tour_commands(readme: &str) -> Vec<String> {
    let start = readme
        .find("## A five-minute tour")
        .expect("the README has a tour");
    let block = &readme[start..];
    let open = block.find("```sh\n").expect("the tour's code block") + "```sh\n".len();
    let close = open + block[open..].find("```").expect("the block ends");
    let mut commands = Vec::new();
    let mut pending = String::new();
    for line in block[open..close].lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("cargo build") {
            continue;
        }
        if let Some(head) = line.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(line);
        commands.push(std::mem::take(&mut pending));
    }
    commands
}

/// Splits a command line as the shell would (words, single quotes), and its comment.
fn split(line: &str) -> (Vec<String>, String) {
    let (code, comment) = match line.find("  #") {
        Some(at) => (&line[..at], line[at + 3..].trim()),
        None => (line, ""),
    };
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in code.chars() {
        match c {
            '\'' => quoted = !quoted,
            c if c.is_whitespace() && !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    (words, comment.to_string())
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create");
    for entry in fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn the_readme_tour_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    let commands = tour_commands(&readme);
    assert!(commands.len() >= 10, "the tour: {commands:?}");
    // A fresh copy: the shipped experiments, agents, docs and clients, and no results.
    let fresh = tempfile::tempdir().expect("temp dir");
    for folder in ["matchups", "agents", "docs", "clients"] {
        copy_tree(&root.join(folder), &fresh.path().join(folder));
    }
    for line in &commands {
        let (words, comment) = split(line);
        assert_eq!(words[0], "arbiter", "a tour line runs arbiter: {line}");
        // `play` gets a person who types `quit`.
        let output = {
            use std::io::Write;
            let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(&words[1..])
                .current_dir(fresh.path())
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("arbiter starts");
            let mut stdin = child.stdin.take().expect("stdin");
            let _ = stdin.write_all(b"quit\n");
            drop(stdin);
            child.wait_with_output().expect("wait")
        };
        let out = common::stdout(&output);
        assert!(
            output.status.success(),
            "`{line}` exited with {:?}: {}",
            output.status.code(),
            common::stderr(&output)
        );
        assert!(!out.trim().is_empty(), "`{line}` printed nothing");
        // The comment's promise in double quotes, e.g. "result: P1 (goal-row)".
        if let Some(open) = comment.find('"') {
            let rest = &comment[open + 1..];
            let promise = &rest[..rest.find('"').expect("closing quote")];
            assert!(out.contains(promise), "`{line}` promised {promise}: {out}");
        }
        match words[1].as_str() {
            "list" => assert!(
                out.contains("chinese-checkers") && out.contains("mcts"),
                "{out}"
            ),
            "perft" => assert!(out.contains("perft(4) = "), "{out}"),
            "replay" if words.iter().any(|w| w == "--steps") => {
                assert!(
                    out.contains("ply 70: ") && !out.contains("ply 69: "),
                    "{out}"
                );
            }
            "play" => assert!(out.contains(" to move; legal: "), "{out}"),
            "solve" => assert!(out.to_lowercase().contains("solved"), "{out}"),
            _ => {}
        }
    }
    // The runs went where `show` and `report` looked for them.
    for experiment in ["quick", "report000-part2.2-long", "puzzles-quick"] {
        let folder = fresh.path().join("results").join(experiment);
        let runs: Vec<_> = fs::read_dir(&folder).expect("results").collect();
        assert_eq!(runs.len(), 1, "{}", folder.display());
        let run = runs[0].as_ref().expect("entry").path();
        assert!(run.join("index.html").exists(), "{}", run.display());
    }
}

/// The five-minute agent of "Bring your own agent", written to `bots/my_bot.py` in a fresh
/// copy of the repository, passes `check-agent` when started from another folder.
#[test]
fn the_readme_agent_snippet_runs_from_any_folder() {
    let Some(python) = common::python3() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    let at = readme
        .find("1. Write `bots/my_bot.py`:")
        .expect("the agent snippet");
    let open = at + readme[at..].find("```python\n").expect("its code") + "```python\n".len();
    let close = open + readme[open..].find("```").expect("the block ends");
    let code: String = readme[open..close]
        .lines()
        .map(|line| format!("{}\n", line.strip_prefix("   ").unwrap_or(line)))
        .collect();
    let fresh = tempfile::tempdir().expect("temp dir");
    copy_tree(&root.join("clients"), &fresh.path().join("clients"));
    fs::create_dir_all(fresh.path().join("bots")).expect("bots");
    let bot = fresh.path().join("bots/my_bot.py");
    fs::write(&bot, code).expect("write the bot");
    let elsewhere = tempfile::tempdir().expect("another folder");
    let output = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "check-agent",
            "--game",
            "breakthrough",
            "--tolerance-ms",
            "30000",
        ])
        .arg(python)
        .arg(&bot)
        .current_dir(elsewhere.path())
        .output()
        .expect("arbiter runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        common::stdout(&output),
        common::stderr(&output)
    );
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim_start_matches('#')
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The README is a front page: every reference page of docs/ is linked from it, and every
/// relative link of the README and the pages reaches a file (and heading) that exists.
#[test]
fn the_readme_links_every_page_and_every_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(
        readme.lines().count() < 300,
        "the README is a front page: move reference text to docs/"
    );
    let mut pages = vec![root.join("README.md")];
    for entry in fs::read_dir(root.join("docs")).expect("docs") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .to_string();
            assert!(
                readme.contains(&format!("(docs/{name})")),
                "docs/{name} is not linked from the README"
            );
            pages.push(path);
        }
    }
    for page in &pages {
        let text = fs::read_to_string(page).expect("page");
        let mut rest = text.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').expect("a closed link");
            let target = &rest[..end];
            if target.starts_with("http") || target.contains(' ') {
                continue;
            }
            let (file, heading) = target.split_once('#').unwrap_or((target, ""));
            let file = if file.is_empty() {
                page.clone()
            } else {
                page.parent().expect("folder").join(file)
            };
            assert!(
                file.exists(),
                "{}: link to {target}: no such file",
                page.display()
            );
            if !heading.is_empty() {
                let linked = fs::read_to_string(&file).expect("linked page");
                assert!(
                    linked
                        .lines()
                        .filter(|l| l.starts_with('#'))
                        .any(|l| anchor(l) == heading),
                    "{}: link to {target}: no such heading",
                    page.display()
                );
            }
        }
    }
}
