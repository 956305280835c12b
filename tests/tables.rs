//! Table runs end to end: games of three players on the star, every agent in every seat
//! on shared deals, the same files on one and two threads and after a stop and resume,
//! standings and documents, and bad table files refused with one line.

use crate::common;

use crate::common::*;
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Four agents, every table of three of them (four tables), two deals each.
const STAR: &str = r#"
kind = "tables"
name = "star-three"
game = "chinese-checkers-star(players=3)"
seed = 9
deals = 2
round_robin = [
    "random",
    "greedy(heuristic=distance)",
    "maxn(heuristic=distance,depth=1)",
    "paranoid(heuristic=distance,depth=1)",
]
"#;

/// The files of a table run that must not depend on threads or interruptions.
const RECORDS: [&str; 4] = ["tables.csv", "table_summary.csv", "ahead.csv", "seats.csv"];

fn star(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let experiment = write_experiment(dir, "star.toml", STAR);
    run_experiment(&experiment, &dir.join(out), extra)
}

#[test]
fn every_agent_sits_in_every_seat_on_shared_deals_and_threads_change_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    let output = star(dir.path(), "two", &["--threads", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let run = dir.path().join("two");
    let games = csv_maps(&run.join("tables.csv"));
    // 4 tables x 2 deals x 3 rotations.
    assert_eq!(games.len(), 24);
    let mut seats: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut deal_seeds: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for game in &games {
        for seat in ["p1", "p2", "p3"] {
            *seats
                .entry((game[&format!("{seat}_agent")].clone(), seat.to_string()))
                .or_default() += 1;
        }
        deal_seeds
            .entry((game["table"].clone(), game["deal"].clone()))
            .or_default()
            .push(game["seed"].clone());
        // Places follow returns: the best return is first.
        let returns: Vec<f64> = ["p1", "p2", "p3"]
            .iter()
            .map(|s| game[&format!("{s}_return")].parse().expect("return"))
            .collect();
        let places: Vec<u8> = ["p1", "p2", "p3"]
            .iter()
            .map(|s| game[&format!("{s}_place")].parse().expect("place"))
            .collect();
        for i in 0..3 {
            let ahead = returns.iter().filter(|&&r| r > returns[i]).count() as u8;
            assert_eq!(places[i], ahead + 1, "game {}", game["game"]);
        }
    }
    // Each agent is at three tables of the four: 3 x 2 deals = 6 games in each seat.
    assert_eq!(seats.len(), 12, "{seats:?}");
    assert!(seats.values().all(|&n| n == 2 * 3), "{seats:?}");
    // A deal's three rotations share its seed; deals differ.
    assert_eq!(deal_seeds.len(), 8);
    for seeds in deal_seeds.values() {
        assert_eq!(seeds.len(), 3);
        assert!(seeds.iter().all(|s| *s == seeds[0]), "{seeds:?}");
    }
    let distinct: std::collections::BTreeSet<&String> =
        deal_seeds.values().map(|s| &s[0]).collect();
    assert_eq!(distinct.len(), 8);
    // Standings: every agent, random last by rating and place.
    let summary = csv_maps(&run.join("table_summary.csv"));
    assert_eq!(summary.len(), 4);
    let last = &summary[3];
    assert_eq!(last["agent"], "random");
    assert_eq!(last["games"], "18");
    assert_eq!(last["deals"], "6");
    let place: f64 = last["mean_place"].parse().expect("place");
    assert!(place > 2.5, "random's mean place {place}");
    let ahead = csv_maps(&run.join("ahead.csv"));
    let random = ahead.iter().find(|r| r["agent"] == "random").expect("row");
    assert_eq!(random["random"], "");
    let behind: f64 = random["greedy(heuristic=distance)"].parse().expect("share");
    assert!(behind < 0.5, "random ahead of greedy in {behind} of games");
    let (seat_header, seat_rows) = read_csv(&run.join("seats.csv"));
    assert_eq!(seat_header[0], "seat");
    assert_eq!(seat_rows.len(), 3);
    let report = fs::read_to_string(run.join("report.md")).expect("report");
    for part in ["## Standings", "Who finished ahead of whom", "## By seat"] {
        assert!(report.contains(part), "{part} not in report.md");
    }
    for file in ["table_win_rates.png", "table_ahead.png", "index.html"] {
        assert!(run.join(file).is_file(), "{file}");
    }
    let show = stdout(&common::run(&["show", text(&run)]));
    assert!(show.contains("finished ahead of"), "{show}");
    assert!(show.contains("Plackett-Luce"), "{show}");
    // One thread gives the same files.
    let output = star(dir.path(), "one", &["--threads", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in RECORDS {
        assert_same_csv(&run.join(file), &dir.path().join("one").join(file), file);
    }
    // The ladder counts a table's games pairwise: random met two others in each of its
    // 18 games.
    let ladder = dir.path().join("ladder");
    let output = common::run(&["ladder", text(&run), "--out", text(&ladder), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let rows = csv_maps(&ladder.join("ladder.csv"));
    assert_eq!(rows.len(), 4);
    let last = rows.last().expect("rows");
    assert_eq!(last["agent"], "random");
    assert_eq!(last["games"], "36");
    // The documents are drawn again from the files alone.
    fs::remove_file(run.join("report.md")).expect("remove");
    let output = common::run(&["report", text(&run)]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(run.join("report.md")).expect("report"),
        report
    );
}

#[test]
fn a_stopped_table_run_resumes_to_the_same_files() {
    let dir = tempfile::tempdir().expect("dir");
    let whole = star(dir.path(), "whole", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    // Stopped inside a deal (7 = two deals and one rotation).
    let output = star(dir.path(), "parts", &["--max-games", "7"]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let parts = dir.path().join("parts");
    let (_, rows) = read_csv(&parts.join("tables.csv"));
    assert_eq!(rows.len(), 7);
    let output = common::run(&[
        "run",
        "--resume",
        text(&parts),
        "--quiet",
        "--max-games",
        "8",
    ]);
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let output = common::run(&["run", "--resume", text(&parts), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in RECORDS {
        assert_same_csv(
            &dir.path().join("whole").join(file),
            &parts.join(file),
            file,
        );
    }
}

#[test]
fn table_files_that_do_not_fit_are_refused_with_their_line() {
    let dir = tempfile::tempdir().expect("dir");
    let cases: [(&str, &str, &[&str]); 4] = [
        (
            "two-player.toml",
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\ntables = [[\"random\", \"alphabeta(heuristic=distance,depth=2)\", \"mcts(iterations=20)\"]]\n",
            &[
                "two-player.toml: line 3",
                "alphabeta needs a two-player game",
                "seats 3",
            ],
        ),
        (
            "size.toml",
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=4)\"\ndeals = 1\ntables = [[\"random\", \"mcts\", \"greedy(heuristic=distance)\"]]\n",
            &[
                "size.toml: line 4",
                "seats 4 players, but table [random, mcts, greedy(heuristic=distance)] seats 3",
            ],
        ),
        (
            "few.toml",
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=6)\"\nround_robin = [\"random\", \"mcts\"]\n",
            &["few.toml: line 3", "needs at least 6 agents, found 2"],
        ),
        (
            "both.toml",
            "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\ntables = [[\"random\", \"mcts\", \"maxn\"]]\nround_robin = [\"random\", \"mcts\", \"maxn\"]\n",
            &["both.toml: line 4", "tables or round_robin, not both"],
        ),
    ];
    for (name, source, fragments) in cases {
        let experiment = write_experiment(dir.path(), name, source);
        let out = dir.path().join(format!("{name}.out"));
        let output = run_experiment(&experiment, &out, &[]);
        assert_input_error(&output, fragments);
        assert!(!out.exists(), "{name}: nothing is written");
    }
    // --no-moves has no moves.csv to leave out: the moves are tables.csv's.
    let out = dir.path().join("no-moves.out");
    let output = star(dir.path(), "no-moves.out", &["--no-moves"]);
    assert_input_error(
        &output,
        &["--no-moves does not apply to", "star.toml", "tables.csv"],
    );
    assert!(!out.exists(), "--no-moves: nothing is written");
}

#[test]
fn two_shards_merged_give_the_files_of_one_run() {
    let dir = tempfile::tempdir().expect("dir");
    let whole = star(dir.path(), "whole", &[]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    let experiment = dir.path().join("star.toml");
    let mut shards = Vec::new();
    for index in 0..2 {
        let out = dir.path().join(format!("shard{index}"));
        let output = common::run(&[
            "run",
            text(&experiment),
            "--shard",
            &format!("{index}/2"),
            "--out",
            text(&out),
            "--quiet",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let (_, rows) = read_csv(&out.join("tables.csv"));
        // A deal's rotations stay on one shard: whole deals of three games.
        assert_eq!(rows.len() % 3, 0, "shard {index}: {} games", rows.len());
        shards.push(out);
    }
    let merged = dir.path().join("merged");
    let output = common::run(&[
        "merge",
        text(&merged),
        text(&shards[0]),
        text(&shards[1]),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    for file in RECORDS {
        assert_same_csv(
            &dir.path().join("whole").join(file),
            &merged.join(file),
            file,
        );
    }
}

/// Perft of three-player Nim from `stones`, counted here by the rules alone.
fn nim_perft(stones: u32, depth: u32) -> u64 {
    if stones == 0 {
        return 0;
    }
    let takes = stones.min(2);
    if depth == 1 {
        return u64::from(takes);
    }
    (1..=takes).map(|t| nim_perft(stones - t, depth - 1)).sum()
}

/// A report remade where the game's rules program no longer starts keeps everything else
/// and says, where the viewer was, why the games cannot be drawn: for a table run and for
/// a game run; `--game N` refuses with the same reason.
#[test]
fn a_report_says_why_it_cannot_draw_a_program_games_boards() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Copies of two rules programs, removed after their runs.
    let nim = dir.path().join("nim3.py");
    let ttt = dir.path().join("ttt.py");
    fs::copy(root.join("tests/games/nim3.py"), &nim).expect("copy nim3");
    fs::copy(
        root.join("clients/python/examples/tic_tac_toe_game.py"),
        &ttt,
    )
    .expect("copy ttt");
    let agents = dir.path().join("agents");
    fs::create_dir_all(&agents).expect("mkdir");
    fs::write(
        agents.join("games.toml"),
        format!(
            "[[game]]\nname = \"nim3\"\ncommand = [\"{python}\", \"{}\"]\n\n\
             [[game]]\nname = \"ttt\"\ncommand = [\"{python}\", \"{}\"]\n",
            nim.display(),
            ttt.display()
        ),
    )
    .expect("write agents");
    let tables = write_experiment(
        dir.path(),
        "nim.toml",
        "kind = \"tables\"\ngame = \"nim3\"\nseed = 3\ndeals = 1\ntables = [[\"random\", \"random\", \"random\"]]\n",
    );
    let games = write_experiment(
        dir.path(),
        "ttt.toml",
        "game = \"ttt\"\ngames = 2\nseed = 3\nmatchups = [[\"random\", \"random\"]]\n",
    );
    for (experiment, out) in [(&tables, "nim"), (&games, "ttt")] {
        let out = dir.path().join(out);
        let output = run_experiment(experiment, &out, &["--agents", text(&agents)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let page = fs::read_to_string(out.join("index.html")).expect("index.html");
        assert!(
            page.contains("window.ARBITER_GAMES = "),
            "a viewer at first"
        );
    }
    fs::remove_file(&nim).expect("rm");
    fs::remove_file(&ttt).expect("rm");
    for out in ["nim", "ttt"] {
        let out = dir.path().join(out);
        let output = common::run(&["report", text(&out)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let page = fs::read_to_string(out.join("index.html")).expect("index.html");
        assert!(!page.contains("window.ARBITER_GAMES = "), "{out:?}");
        let said = page
            .split("The games cannot be drawn here: ")
            .nth(1)
            .unwrap_or_else(|| panic!("{out:?}: no reason in the page"));
        let reason = said.split("</p>").next().unwrap_or("");
        assert!(reason.contains("`hello`"), "{out:?}: {reason}");
        assert!(
            page.contains("win rate") || page.contains("Standings"),
            "the rest stands"
        );
    }
    let output = common::run(&["report", text(&dir.path().join("ttt")), "--game", "0"]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("game 0 cannot be drawn: "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_rules_program_for_three_players_counts_right_and_plays_at_a_table() {
    let Some(python) = python3() else {
        return;
    };
    let dir = tempfile::tempdir().expect("dir");
    let agents = nim3_agents(dir.path(), python);
    let output = common::run(&["check-game", "nim3", "--agents", text(&agents)]);
    assert_eq!(output.status.code(), Some(0), "{}", stdout(&output));
    for depth in 1..=6 {
        let output = common::run(&[
            "perft",
            "nim3(stones=9)",
            "--depth",
            &depth.to_string(),
            "--agents",
            text(&agents),
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let last = stdout(&output).lines().last().unwrap_or("").to_string();
        assert_eq!(
            last,
            format!("perft({depth}) = {}", nim_perft(9, depth)),
            "depth {depth}"
        );
    }
    // Three copies of random at one table: the one who took the last stone wins.
    let experiment = write_experiment(
        dir.path(),
        "nim.toml",
        "kind = \"tables\"\ngame = \"nim3(stones=8)\"\nseed = 3\ndeals = 4\ntables = [[\"random\", \"random\", \"random\"]]\n",
    );
    let out = dir.path().join("nim");
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = csv_maps(&out.join("tables.csv"));
    assert_eq!(games.len(), 12);
    for game in &games {
        let plies: usize = game["plies"].parse().expect("plies");
        let seat = (plies - 1) % 3 + 1;
        assert_eq!(game["reason"], "last-stone");
        assert_eq!(game["winner"], format!("P{seat}"), "{game:?}");
        for p in 1..=3 {
            let (place, ret) = if p == seat {
                ("1", "1.0000")
            } else {
                ("2", "0.0000")
            };
            assert_eq!(game[&format!("p{p}_place")], place, "{game:?}");
            assert_eq!(game[&format!("p{p}_return")], ret, "{game:?}");
        }
    }
    // A finished status with two returns in a game of three is caught.
    let output = common::run(&["check-game", "nim3-short", "--agents", text(&agents)]);
    assert_ne!(output.status.code(), Some(0));
    assert!(
        stdout(&output).contains("\"returns\" must be 3 finite numbers"),
        "{}",
        stdout(&output)
    );
}

/// `openings` at tables: a deal's opening (here four random plies drawn from its seed)
/// serves every rotation of its seats, goes to tables.csv's `opening` column ahead of the
/// agents' moves, and the viewer replays it first; without openings there is no such
/// column. A bad `openings` is refused with its line.
#[test]
fn a_deals_opening_serves_all_its_rotations_and_replays_first() {
    let dir = tempfile::tempdir().expect("dir");
    let body = "kind = \"tables\"\ngame = \"chinese-checkers-star(players=3)\"\nseed = 4\ndeals = 3\nopenings = { random_plies = 4 }\ntables = [[\"random\", \"random\", \"greedy(heuristic=distance)\"]]\n";
    let experiment = write_experiment(dir.path(), "open.toml", body);
    let out = dir.path().join("open");
    let output = run_experiment(&experiment, &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let games = csv_maps(&out.join("tables.csv"));
    assert_eq!(games.len(), 9);
    let mut by_deal: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for game in &games {
        let opening = &game["opening"];
        assert_eq!(opening.split(';').count(), 4, "{opening}");
        // The agents' moves come after it, not with it.
        assert!(!game["moves"].starts_with(opening.as_str()), "{game:?}");
        by_deal
            .entry(game["deal"].clone())
            .or_default()
            .push(opening.clone());
    }
    for openings in by_deal.values() {
        assert!(openings.iter().all(|o| *o == openings[0]), "{openings:?}");
    }
    let distinct: std::collections::BTreeSet<&String> = by_deal.values().map(|o| &o[0]).collect();
    assert!(distinct.len() > 1, "{by_deal:?}");
    // The viewer replays the opening's four moves before the agents'.
    let page = fs::read_to_string(out.join("index.html")).expect("index.html");
    assert!(
        page.contains("\"opening\":4"),
        "no opening in the viewer's games"
    );
    // Without openings, tables.csv has no opening column.
    let plain = dir.path().join("plain");
    let output = star(dir.path(), "plain", &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let header = fs::read_to_string(plain.join("tables.csv")).expect("tables.csv");
    assert!(!header.lines().next().unwrap_or("").contains("opening"));
    // A bad value names its line.
    let bad = write_experiment(
        dir.path(),
        "bad.toml",
        &body.replace("random_plies = 4", "random_plies = -2"),
    );
    let output = run_experiment(&bad, &dir.path().join("bad"), &[]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("bad.toml") && message.contains("line 5"),
        "{message}"
    );
    assert!(!dir.path().join("bad").join("tables.csv").exists());
}
