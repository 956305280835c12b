//! The game viewer of index.html, in a real browser (headless Chromium): every embedded
//! game's board at every ply equals what `arbiter replay --steps` prints, with no script
//! errors; a screenshot of the viewer is kept in target/viewer-screenshots for a person to
//! look at. Skipped, loudly, only when no Chromium can be found (`.ci/run` installs it).

use crate::common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

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
        if words.len() > 4 {
            // `game <id> ply <k> seen by <seat>`: a seat's view, not the board.
            continue;
        }
        let (id, ply) = (
            words[1].parse().expect("id"),
            words[3].parse().expect("ply"),
        );
        let board: Vec<&str> = lines.collect();
        boards.insert((id, ply), board.join("\n"));
    }
    boards
}

/// The folder the screenshots go to for a person to look at (target/viewer-screenshots).
fn screenshots() -> PathBuf {
    let shots = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/viewer-screenshots");
    fs::create_dir_all(&shots).expect("screenshot folder");
    shots
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
    viewer_shot(browser, &profile, out, &shots.join(format!("{name}.png")));
}

/// A screenshot of the viewer section of `out`'s index.html alone, for a person to look at.
fn viewer_shot(browser: &str, profile: &Path, out: &Path, shot: &Path) {
    let page = fs::read_to_string(out.join("index.html")).expect("index.html");
    let start = page
        .find("<h2 id=\"watch\">Watch the games</h2>")
        .expect("viewer section");
    let end = page
        .find("<h2 id=\"files\">Files</h2>")
        .expect("files section");
    let body = page.find("<body>").expect("body") + 6;
    let alone = out.join("viewer.html");
    fs::write(
        &alone,
        format!("{}{}</body></html>", &page[..body], &page[start..end]),
    )
    .expect("viewer page");
    let status = headless(browser, profile)
        .arg("--window-size=1100,900")
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", alone.display()))
        .output()
        .expect("chromium runs");
    assert!(status.status.success(), "screenshot {}", shot.display());
    assert!(shot.is_file());
}

#[test]
fn the_viewer_replays_every_embedded_game_exactly_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let shots = screenshots();
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
        "game = \"breakthrough(rules=long)\"\ngames = 4\nseed = 3\nopenings = { random_plies = 2 }\nmatchups = [[\"random\", \"greedy(heuristic=offensive2)\"]]\n",
    );
    check_run(
        &browser,
        (&long, "breakthrough(rules=long)"),
        &dir.path().join("long"),
        &shots,
        "breakthrough-long",
    );
    // The other games: boards replayed by arbiter's rules, embedded ply by ply (games
    // from an experiment's openings too: the opening's moves come first).
    for (game, opponent) in [
        ("wights", "alphabeta(heuristic=material,depth=2)"),
        ("double-card", "greedy(heuristic=lines)"),
        ("chinese-checkers", "greedy(heuristic=report004)"),
        ("connect-four", "alphabeta(heuristic=windows,depth=3)"),
        ("othello", "greedy(heuristic=squares)"),
    ] {
        let experiment = write_experiment(
            dir.path(),
            &format!("{game}.toml"),
            &format!(
                "game = \"{game}\"\ngames = 4\nseed = 5\n{}matchups = [[\"random\", \"{opponent}\"]]\n",
                if game == "connect-four" || game == "othello" {
                    "openings = { random_plies = 2 }\n"
                } else {
                    ""
                }
            ),
        );
        // replay reads the game's full spec (with its rules) from games.pgn.
        check_run(
            &browser,
            (&experiment, game),
            &dir.path().join(game),
            &shots,
            game,
        );
    }
    // A game served by a program, drawn from its `render`: the repository's agents/
    // (read beside the experiment's own folder) declares tic-tac-toe.
    if python3().is_some() {
        let experiment = write_experiment(
            dir.path(),
            "ttt.toml",
            "game = \"tic-tac-toe\"\ngames = 6\nseed = 5\nmatchups = [[\"random\", \"alphabeta(depth=3)\"]]\n",
        );
        check_run(
            &browser,
            (&experiment, "tic-tac-toe"),
            &dir.path().join("ttt"),
            &shots,
            "tic-tac-toe",
        );
    }
}

/// Compares every board of a table run's viewer (the page's `#dump` in Chromium, no
/// script error) with `arbiter replay --steps` of the same game's moves from tables.csv;
/// returns how many positions it compared. `extra`: arguments of `replay` (`--agents`).
fn table_boards_replay(
    browser: &str,
    profile: &Path,
    out: &Path,
    game: &str,
    extra: &[&str],
) -> usize {
    let output = headless(browser, profile)
        .arg("--dump-dom")
        .arg(format!("file://{}#dump", out.join("index.html").display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    for line in String::from_utf8_lossy(&output.stderr).lines() {
        assert!(
            !(line.contains("CONSOLE") || line.contains("Uncaught")),
            "script error: {line}"
        );
    }
    let boards = page_boards(&dom);
    let mut checked = 0;
    for row in &csv_maps(&out.join("tables.csv")) {
        let id: u64 = row["game"].parse().expect("id");
        let moves = out.join(format!("game-{id}.txt"));
        fs::write(&moves, row["moves"].replace(';', "\n")).expect("moves");
        let mut args = vec!["replay", game, text(&moves), "--steps"];
        args.extend_from_slice(extra);
        let output = run(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        let mut replayed = 0;
        for block in stdout(&output).split("\n\n") {
            let mut lines = block.lines();
            let Some(ply) = lines
                .next()
                .and_then(|h| h.strip_prefix("ply "))
                .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                .and_then(|n| n.parse::<usize>().ok())
            else {
                continue;
            };
            let board: Vec<&str> = lines.take_while(|l| !l.starts_with("result")).collect();
            assert_eq!(
                boards.get(&(id, ply)),
                Some(&board.join("\n")),
                "game {id} at ply {ply}: the page's board differs from arbiter replay"
            );
            replayed += 1;
        }
        assert_eq!(
            boards.range((id, 0)..(id + 1, 0)).count(),
            replayed,
            "game {id}"
        );
        checked += replayed;
    }
    checked
}

#[test]
fn the_viewer_replays_a_table_runs_star_games_in_six_colours_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let shots = screenshots();
    let game = "chinese-checkers-star(players=6,max_plies=120)";
    let experiment = write_experiment(
        dir.path(),
        "star.toml",
        &format!(
            "kind = \"tables\"\ngame = \"{game}\"\nseed = 5\ndeals = 1\n\
             tables = [[\"random\", \"greedy(heuristic=distance)\", \"random\", \"maxn(heuristic=distance,depth=1)\", \"random\", \"greedy(heuristic=laggard)\"]]\n"
        ),
    );
    let out = dir.path().join("star");
    run_quietly(&experiment, &out);
    let index = out.join("index.html");
    let profile = out.join("chromium-profile");
    let games = csv_maps(&out.join("tables.csv"));
    assert_eq!(games.len(), 6);
    let checked = table_boards_replay(&browser, &profile, &out, game, &[]);
    assert!(checked > 100, "only {checked} positions compared");
    // Six colours on the board, for a person to look at.
    let page = fs::read_to_string(&index).expect("index.html");
    for colour in [".marble.p3{", ".marble.p6{", "yellow P6"] {
        assert!(page.contains(colour), "{colour}");
    }
    viewer_shot(&browser, &profile, &out, &shots.join("star-six-seats.png"));
}

#[test]
fn a_board_a_game_prints_as_text_is_shown_as_that_text_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let shots = screenshots();
    // Nim for three, whose rules program renders its pile as text, not as rows of cells.
    let agents = nim3_agents(dir.path(), python);
    let game = "nim3(stones=8)";
    let experiment = write_experiment(
        dir.path(),
        "nim.toml",
        &format!(
            "kind = \"tables\"\ngame = \"{game}\"\nseed = 3\ndeals = 2\n\
             tables = [[\"random\", \"random\", \"random\"]]\n"
        ),
    );
    let out = dir.path().join("nim");
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let page = fs::read_to_string(out.join("index.html")).expect("index.html");
    let embedded = embedded_games(&page);
    assert_eq!(
        embedded[0]["grid"]["plies"][0],
        "pile: \u{25cf} \u{25cf} \u{25cf} \u{25cf} \u{25cf} \u{25cf} \u{25cf} \u{25cf} (8 left)\nply 0: P1 to take one or two\n",
        "the text the program printed, kept as it is"
    );
    let profile = out.join("chromium-profile");
    let checked = table_boards_replay(&browser, &profile, &out, game, &["--agents", text(&agents)]);
    assert!(checked > 20, "only {checked} positions compared");
    viewer_shot(&browser, &profile, &out, &shots.join("text-board.png"));
}

/// Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: the
/// browser reads NUL-terminated JSON commands on fd 3 and answers on fd 4).
struct DevTools {
    child: std::process::Child,
    to: std::fs::File,
    from: std::io::BufReader<std::fs::File>,
    next: u64,
    session: Option<String>,
}

/// A pipe whose ends close on exec (the child gets its copies through dup2).
fn pipe() -> (i32, i32) {
    let mut fds = [0; 2];
    // SAFETY: pipe2 writes two descriptors into the array it is given.
    let result = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(result, 0, "pipe: {}", std::io::Error::last_os_error());
    (fds[0], fds[1])
}

impl DevTools {
    fn start(browser: &str, profile: &Path) -> DevTools {
        use std::os::fd::FromRawFd;
        use std::os::unix::process::CommandExt;
        let (commands_read, commands_write) = pipe();
        let (answers_read, answers_write) = pipe();
        let mut command = headless(browser, profile);
        command
            .arg("--remote-debugging-pipe")
            .arg("--window-size=1100,900")
            .arg("about:blank")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        // SAFETY: only async-signal-safe calls (dup2, fcntl) between fork and exec.
        unsafe {
            command.pre_exec(move || {
                for (from, to) in [(commands_read, 3), (answers_write, 4)] {
                    if from == to {
                        // Already in place: keep it open across exec.
                        if libc::fcntl(to, libc::F_SETFD, 0) < 0 {
                            return Err(std::io::Error::last_os_error());
                        }
                    } else if libc::dup2(from, to) < 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
        let child = command.spawn().expect("chromium starts");
        // SAFETY: the descriptors come from pipe() above and are owned here alone.
        let (to, from) = unsafe {
            libc::close(commands_read);
            libc::close(answers_write);
            (
                std::fs::File::from_raw_fd(commands_write),
                std::fs::File::from_raw_fd(answers_read),
            )
        };
        DevTools {
            child,
            to,
            from: std::io::BufReader::new(from),
            next: 0,
            session: None,
        }
    }

    /// Sends `method` (to the attached page once there is one) and returns its result.
    fn call(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        use std::io::{BufRead, Write};
        self.next += 1;
        let mut message = serde_json::json!({"id": self.next, "method": method, "params": params});
        if let Some(session) = &self.session {
            message["sessionId"] = serde_json::Value::String(session.clone());
        }
        let mut bytes = serde_json::to_vec(&message).expect("json");
        bytes.push(0);
        self.to.write_all(&bytes).expect("send to chromium");
        loop {
            let mut answer = Vec::new();
            let read = self.from.read_until(0, &mut answer).expect("read chromium");
            assert!(read > 0, "chromium closed the pipe during {method}");
            answer.pop();
            let answer: serde_json::Value = serde_json::from_slice(&answer).expect("json answer");
            if answer["id"] == self.next {
                assert!(answer.get("error").is_none(), "{method}: {answer}");
                return answer["result"].clone();
            }
        }
    }

    /// Evaluates `expression` in the page and returns its value.
    fn eval(&mut self, expression: &str) -> serde_json::Value {
        let result = self.call(
            "Runtime.evaluate",
            serde_json::json!({"expression": expression, "returnByValue": true}),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// Opens `url` in a new page and waits until the viewer has drawn a board.
    fn open(&mut self, url: &str) {
        let target = self.call("Target.createTarget", serde_json::json!({"url": url}));
        let attached = self.call(
            "Target.attachToTarget",
            serde_json::json!({"targetId": target["targetId"], "flatten": true}),
        );
        self.session = attached["sessionId"].as_str().map(str::to_string);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.eval("document.readyState === 'complete' && !!document.querySelector('#viewer-board [data-cell]')") != serde_json::Value::Bool(true) {
            assert!(std::time::Instant::now() < deadline, "the viewer never drew a board");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    /// A real mouse click in the middle of the element `selector`.
    fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector('{selector}'); const r = e.getBoundingClientRect(); const x = r.x + r.width / 2, y = r.y + r.height / 2; const hit = document.elementFromPoint(x, y); return [x, y, hit ? hit.id : '']; }})()"
        ));
        assert_eq!(
            at[2],
            selector.trim_start_matches('#'),
            "{selector} is under the pointer"
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                serde_json::json!({"type": kind, "x": at[0], "y": at[1], "button": "left", "clickCount": 1}),
            );
        }
    }

    /// A real key press (`ArrowRight`, `Home`, ...).
    fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                serde_json::json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// The ply shown and the board drawn: per row, top first, its label and its cells'
    /// tokens.
    fn shown(&mut self) -> (usize, Vec<(String, Vec<String>)>) {
        let value = self.eval(
            "(() => ({ply: document.querySelector('#viewer-ply').value, rows: Array.from(document.querySelectorAll('#viewer-board tr, #viewer-board .star-row')).map((row) => [(row.querySelector('th, .star-label') || {}).textContent || '', Array.from(row.querySelectorAll('[data-cell]')).map((c) => c.dataset.cell)]).filter((row) => row[1].length > 0)}))()",
        );
        let ply = value["ply"]
            .as_str()
            .and_then(|p| p.parse().ok())
            .expect("ply");
        let rows = value["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|row| {
                let cells = row[1].as_array().expect("cells");
                (
                    row[0].as_str().unwrap_or("").to_string(),
                    cells
                        .iter()
                        .map(|c| c.as_str().unwrap_or("").to_string())
                        .collect(),
                )
            })
            .collect();
        (ply, rows)
    }
}

impl Drop for DevTools {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Rows as compared: by label where rows have labels (the page draws some boards top
/// first, replay prints them bottom first), in order where they have none.
fn in_order(mut rows: Vec<(String, Vec<String>)>) -> Vec<(String, Vec<String>)> {
    if rows.iter().all(|(label, _)| !label.is_empty()) {
        rows.sort();
    }
    rows
}

/// A board as `arbiter replay --steps` prints it, as rows, top first: label and cell
/// tokens (the column labels line left out: the first for Breakthrough, the Dragon Queen
/// and Chinese Checkers, the last for Double Card and the games drawn from their render
/// (Connect Four, Othello), whose empty cells, `.` in print, are drawn empty).
fn replay_rows(game: &str, board: &str) -> Vec<(String, Vec<String>)> {
    let lines: Vec<&str> = board.lines().collect();
    // Games drawn from their render: column labels below, `.` drawn as an empty cell;
    // Othello's rows carry their number in front.
    if game.starts_with("connect-four") || game == "othello" {
        return lines[..lines.len() - 1]
            .iter()
            .map(|line| {
                let mut words = line.split_whitespace();
                let label = if game == "othello" {
                    words.next().unwrap_or_default().to_string()
                } else {
                    String::new()
                };
                let cells = words
                    .map(|c| {
                        if c == "." {
                            String::new()
                        } else {
                            c.to_string()
                        }
                    })
                    .collect();
                (label, cells)
            })
            .collect();
    }
    let rows = if game.starts_with("double-card") {
        &lines[..lines.len() - 1]
    } else {
        &lines[1..]
    };
    rows.iter()
        .map(|line| {
            let mut words = line.split_whitespace().map(str::to_string);
            let label = words.next().unwrap_or_default();
            (label, words.collect())
        })
        .collect()
}

#[test]
fn clicks_and_keys_step_through_a_game_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    for (game, opponent) in [
        ("breakthrough", "greedy(heuristic=offensive2)"),
        ("wights", "alphabeta(heuristic=material,depth=2)"),
        ("double-card", "greedy(heuristic=lines)"),
        ("chinese-checkers", "greedy(heuristic=report004)"),
        ("connect-four", "alphabeta(heuristic=windows,depth=3)"),
        ("othello", "greedy(heuristic=squares)"),
    ] {
        let experiment = write_experiment(
            dir.path(),
            &format!("{game}.toml"),
            &format!(
                "game = \"{game}\"\ngames = 2\nseed = 8\nmatchups = [[\"random\", \"{opponent}\"], [\"{opponent}\", \"random\"]]\n"
            ),
        );
        let out = dir.path().join(game);
        run_quietly(&experiment, &out);
        // The page of one game (`report --game`): the viewer alone, no scrolling needed.
        let id = 1;
        let output = run(&["report", text(&out), "--game", "1"]);
        assert!(output.status.success(), "{}", stderr(&output));
        let page = out.join("game-1.html");
        assert_eq!(stdout(&output).trim(), text(&page));
        let mut tools = DevTools::start(&browser, &out.join("profile"));
        tools.open(&format!("file://{}", page.display()));
        assert_eq!(
            tools.eval("document.querySelector('#viewer-game').value"),
            serde_json::json!("1")
        );
        let replayed = replay_boards(game, &out.join("games.pgn"), id);
        let last = replayed.len() - 1;
        assert!(last >= 4, "{game}: game {id} is too short to step through");
        // Each step: what to do, and the ply the viewer must then show.
        let steps: Vec<(&str, usize)> = vec![
            ("click start", 0),
            ("key ArrowRight", 1),
            ("key ArrowRight", 2),
            ("click forward", 3),
            ("click forward", 4),
            ("key ArrowLeft", 3),
            ("click back", 2),
            ("key End", last),
            ("click back", last - 1),
            ("key Home", 0),
            ("click end", last),
        ];
        for (action, ply) in steps {
            match action.split_once(' ') {
                Some(("click", button)) => tools.click(&format!("#viewer-{button}")),
                Some(("key", key)) => {
                    let code = match key {
                        "ArrowLeft" => 37,
                        "ArrowRight" => 39,
                        "Home" => 36,
                        _ => 35,
                    };
                    tools.key(key, code);
                }
                _ => unreachable!("{action}"),
            }
            // Input events reach the page's handlers asynchronously: wait for the change.
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
            let (mut shown_ply, mut rows) = tools.shown();
            while shown_ply != ply && std::time::Instant::now() < deadline {
                std::thread::sleep(std::time::Duration::from_millis(20));
                (shown_ply, rows) = tools.shown();
            }
            assert_eq!(shown_ply, ply, "{game}: after {action}");
            assert_eq!(
                in_order(rows),
                in_order(replay_rows(game, &replayed[&ply])),
                "{game}: the board shown at ply {ply} (after {action}) differs from arbiter replay"
            );
        }
        // index.html: the games of one matchup, longest first.
        tools.open(&format!("file://{}", out.join("index.html").display()));
        let listed = tools.eval(
            "(() => { const f = document.querySelector('#viewer-filter'); f.value = 'matchup:1'; f.dispatchEvent(new Event('change')); const o = document.querySelector('#viewer-order'); o.value = 'longest'; o.dispatchEvent(new Event('change')); return Array.from(document.querySelector('#viewer-game').options).map((option) => { const g = window.ARBITER_GAMES.find((g) => String(g.id) === option.value); return [g.matchup, g.moves.length]; }); })()",
        );
        let listed: Vec<(String, u64)> = serde_json::from_value(listed).expect("pairs");
        assert_eq!(listed.len(), 2, "{game}: matchup 1's two games: {listed:?}");
        assert!(listed.iter().all(|(m, _)| m == "1"), "{game}: {listed:?}");
        assert!(
            listed[0].1 >= listed[1].1,
            "{game}: longest first: {listed:?}"
        );
    }
}

/// A graded run's viewer marks each move that lost value (`??` a win into a loss, `?` a
/// win into a draw or a draw into a loss), exactly the errors of grades.csv, and names
/// the first of them at ply 0.
#[test]
fn the_moves_that_lost_value_are_marked_in_the_viewer_in_a_real_browser() {
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "graded.toml",
        "game = \"connect-four(rows=4,columns=4)\"\ngames = 6\nseed = 3\nmatchups = [[\"random\", \"greedy(heuristic=windows)\"]]\ngrade = true\n",
    );
    let out = dir.path().join("graded");
    run_quietly(&experiment, &out);
    let grades = csv_maps(&out.join("grades.csv"));
    // The game with the most errors, and its errors as the move list must show them.
    let errors_of = |id: &str| -> Vec<String> {
        grades
            .iter()
            .filter(|g| g["game_id"] == id && g["verdict"] != "kept")
            .map(|g| {
                let mark = if g["verdict"] == "win-to-loss" {
                    "??"
                } else {
                    "?"
                };
                format!("{}. {}{mark}", g["ply"], g["move"])
            })
            .collect()
    };
    let games = csv_maps(&out.join("games.csv"));
    let game = games
        .iter()
        .map(|g| g["game_id"].as_str())
        .max_by_key(|id| errors_of(id).len())
        .expect("games");
    let expected = errors_of(game);
    assert!(!expected.is_empty(), "random play errs: {grades:?}");
    let output = run(&["report", text(&out), "--game", game]);
    assert!(output.status.success(), "{}", stderr(&output));
    let mut tools = DevTools::start(&browser, &out.join("profile"));
    tools.open(&format!(
        "file://{}",
        out.join(format!("game-{game}.html")).display()
    ));
    tools.click("#viewer-start");
    let marked = tools.eval(
        "Array.from(document.querySelectorAll('#viewer-moves li.error')).map((li) => li.textContent)",
    );
    let marked: Vec<String> = serde_json::from_value(marked).expect("strings");
    assert_eq!(marked, expected, "game {game}");
    let info = tools.eval("document.querySelector('#viewer-info').textContent");
    let first = expected[0].split('.').next().expect("ply");
    assert!(
        info.as_str()
            .is_some_and(|t| t.contains(&format!("the first move that lost value is ply {first}"))),
        "{info}"
    );
    // Unmarked moves carry no mark.
    let plain = tools.eval(
        "Array.from(document.querySelectorAll('#viewer-moves li:not(.error)')).filter((li) => li.textContent.endsWith('?')).length",
    );
    assert_eq!(plain, serde_json::json!(0));
    let shots = screenshots();
    drop(tools);
    viewer_shot(
        &browser,
        &out.join("profile"),
        &out,
        &shots.join("graded-connect-four.png"),
    );
}
