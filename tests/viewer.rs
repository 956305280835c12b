//! The game viewer of index.html, in a real browser (headless Chromium): every embedded
//! game's board at every ply equals what `arbiter replay --steps` prints, with no script
//! errors; a screenshot of the viewer is kept in target/viewer-screenshots for a person to
//! look at. Skipped, loudly, only when no Chromium can be found (`.ci/run` installs it).

mod common;

use common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<String> {
    let candidates = [
        std::env::var("ARBITER_CHROMIUM").unwrap_or_default(),
        "chromium".to_string(),
        "chromium-browser".to_string(),
        "google-chrome".to_string(),
    ];
    candidates.into_iter().filter(|c| !c.is_empty()).find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn headless(browser: &str, profile: &Path) -> Command {
    let mut command = Command::new(browser);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--enable-logging=stderr",
        "--v=0",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

/// `game <id> ply <k>` blocks of the page's `#dump` mode: board text by (id, ply).
fn page_boards(html_dump: &str) -> BTreeMap<(u64, usize), String> {
    let start = html_dump
        .find("<pre id=\"dump\">")
        .expect("the page wrote its dump")
        + 15;
    let end = start + html_dump[start..].find("</pre>").expect("dump closed");
    let mut boards = BTreeMap::new();
    for block in html_dump[start..end].split("\n\n") {
        let mut lines = block.lines();
        let Some(head) = lines.next() else { continue };
        let words: Vec<&str> = head.split_whitespace().collect();
        let (id, ply) = (
            words[1].parse().expect("id"),
            words[3].parse().expect("ply"),
        );
        let board: Vec<&str> = lines.collect();
        boards.insert((id, ply), board.join("\n"));
    }
    boards
}

/// `arbiter replay --steps` for one game: board text by ply.
fn replay_boards(game: &str, pgn: &Path, id: u64) -> BTreeMap<usize, String> {
    let output = run(&[
        "replay",
        game,
        text(pgn),
        "--id",
        &id.to_string(),
        "--steps",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut boards = BTreeMap::new();
    for block in stdout(&output).split("\n\n") {
        let mut lines = block.lines();
        let Some(head) = lines.next() else { continue };
        let Some(rest) = head.strip_prefix("ply ") else {
            continue;
        };
        let ply: usize = rest
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .expect("ply number");
        let board: Vec<&str> = lines.take_while(|l| !l.starts_with("result")).collect();
        boards.insert(ply, board.join("\n"));
    }
    boards
}

fn check_run(
    browser: &str,
    (experiment, game): (&Path, &str),
    out: &Path,
    shots: &Path,
    name: &str,
) {
    run_quietly(experiment, out);
    let index = out.join("index.html");
    let profile = out.join("chromium-profile");
    let output = headless(browser, &profile)
        .arg("--dump-dom")
        .arg(format!("file://{}#dump", index.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    let log = String::from_utf8_lossy(&output.stderr);
    for line in log.lines() {
        assert!(
            !(line.contains("CONSOLE") || line.contains("Uncaught")),
            "script error in {name}: {line}"
        );
    }
    let boards = page_boards(&dom);
    let ids: Vec<u64> = boards.keys().map(|(id, _)| *id).collect();
    assert!(!ids.is_empty(), "no games embedded in {name}");
    let pgn = out.join("games.pgn");
    let mut checked = 0;
    let mut last = None;
    for &id in &ids {
        if last == Some(id) {
            continue;
        }
        last = Some(id);
        let replayed = replay_boards(game, &pgn, id);
        for (ply, board) in &replayed {
            assert_eq!(
                boards.get(&(id, *ply)),
                Some(board),
                "{name}: game {id} at ply {ply}: the page's board differs from arbiter replay"
            );
            checked += 1;
        }
        assert_eq!(
            boards.range((id, 0)..(id + 1, 0)).count(),
            replayed.len(),
            "{name}: game {id} has as many positions in the page as in replay"
        );
    }
    assert!(checked > 20, "{name}: only {checked} positions compared");
    // The viewer itself, for a person to look at.
    let page = fs::read_to_string(&index).expect("index.html");
    let start = page
        .find("<h2>Watch the games</h2>")
        .expect("viewer section");
    let end = page.find("<h2>Files</h2>").expect("files section");
    let body = page.find("<body>").expect("body") + 6;
    let alone = out.join("viewer.html");
    fs::write(
        &alone,
        format!("{}{}</body></html>", &page[..body], &page[start..end]),
    )
    .expect("viewer page");
    let shot = shots.join(format!("{name}.png"));
    let status = headless(browser, &profile)
        .arg("--window-size=1100,650")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", alone.display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "screenshot of {name}");
    assert!(shot.is_file());
}

#[test]
fn the_viewer_replays_every_embedded_game_exactly_in_a_real_browser() {
    let Some(browser) = chromium() else {
        eprintln!(
            "\n*** SKIPPED: no Chromium found (chromium, chromium-browser, google-chrome or $ARBITER_CHROMIUM); .ci/run installs Debian's chromium ***\n"
        );
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/viewer-screenshots");
    fs::create_dir_all(&shots).expect("screenshot folder");
    let quick = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("matchups/quick.toml");
    check_run(
        &browser,
        (&quick, "breakthrough"),
        &dir.path().join("quick"),
        &shots,
        "breakthrough",
    );
    let long = write_experiment(
        dir.path(),
        "long.toml",
        "game = \"breakthrough(rules=long)\"\ngames = 4\nseed = 3\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n",
    );
    check_run(
        &browser,
        (&long, "breakthrough(rules=long)"),
        &dir.path().join("long"),
        &shots,
        "breakthrough-long",
    );
}
