//! Tournaments in rounds: Swiss pairings (no pair twice, one bye each, the same on 1 and 2
//! threads, and after a stop and a resume) and a knockout (byes for the top seeds,
//! tie-breaks, the strongest wins), end to end; and their bad settings.

use crate::common::{
    assert_input_error, read_csv, run, run_experiment, stderr, stdout, text, without_timing,
    write_experiment,
};
use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

const PLAYERS: &str = "\"random\", \"greedy(heuristic=windows)\", \"alphabeta(heuristic=windows,depth=1)\", \"alphabeta(heuristic=windows,depth=2)\", \"alphabeta(heuristic=windows,depth=3)\", \"alphabeta(heuristic=threats,depth=2)\", \"alphabeta(heuristic=threats,depth=3)\"";

fn rounds(folder: &Path) -> Vec<Vec<String>> {
    read_csv(&folder.join("rounds.csv")).1
}

#[test]
fn swiss_rounds_pair_nobody_twice_and_are_the_same_on_one_or_two_threads_and_resumed() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "swiss.toml",
        &format!(
            "game = \"connect-four\"\nseed = 11\nswiss = {{ rounds = 5, games = 2, players = [{PLAYERS}] }}\n"
        ),
    );
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let output = run_experiment(&experiment, out, &["--threads", threads]);
        assert!(output.status.success(), "{}", stderr(&output));
    }
    for file in ["games.csv", "summary.csv"] {
        assert_eq!(
            without_timing(&one.join(file)),
            without_timing(&two.join(file)),
            "{file}"
        );
    }
    for file in ["rounds.csv", "standings.csv"] {
        assert_eq!(
            fs::read_to_string(one.join(file)).expect("one"),
            fs::read_to_string(two.join(file)).expect("two"),
            "{file}"
        );
    }
    // 7 players, 5 rounds: 3 boards and a bye each round, nobody paired twice, no second
    // bye, 2 games a board.
    let table = rounds(&one);
    let mut met = BTreeSet::new();
    let mut byes = Vec::new();
    for row in &table {
        if row[1] == "bye" {
            byes.push(row[2].clone());
        } else {
            let pair = if row[2] < row[3] {
                [row[2].clone(), row[3].clone()]
            } else {
                [row[3].clone(), row[2].clone()]
            };
            assert!(met.insert(pair.clone()), "{pair:?} met twice: {table:?}");
            assert_eq!(row[6], "2");
        }
    }
    assert_eq!(met.len(), 5 * 3);
    assert_eq!(byes.len(), 5);
    assert_eq!(byes.iter().collect::<BTreeSet<_>>().len(), 5, "{byes:?}");
    let (_, games) = read_csv(&one.join("games.csv"));
    assert_eq!(games.len(), 5 * 3 * 2);
    // The standings: every point counted (2 a board, 2 a bye), best first.
    let (_, standings) = read_csv(&one.join("standings.csv"));
    let total: f64 = standings
        .iter()
        .map(|r| r[2].parse::<f64>().expect("points"))
        .sum();
    assert_eq!(total, (5 * 3 * 2 + 5 * 2) as f64);
    let shown = stdout(&run(&["show", text(&one)]));
    assert!(shown.contains("swiss standings"), "{shown}");
    assert!(
        !shown.contains("not played"),
        "pairs never paired are not listed: {shown}"
    );
    // Stopped after 7 games (in round 2) and resumed: the same pairings and games.
    let stopped = dir.path().join("stopped");
    let output = run_experiment(
        &experiment,
        &stopped,
        &["--max-games", "7", "--threads", "2"],
    );
    assert_eq!(output.status.code(), Some(4), "{}", stderr(&output));
    let output = run(&["run", "--resume", text(&stopped), "--quiet"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        without_timing(&one.join("games.csv")),
        without_timing(&stopped.join("games.csv"))
    );
    assert_eq!(rounds(&one), rounds(&stopped));
    // Another seed draws other pairings.
    let other = write_experiment(
        dir.path(),
        "other.toml",
        &format!(
            "game = \"connect-four\"\nseed = 12\nswiss = {{ rounds = 5, games = 2, players = [{PLAYERS}] }}\n"
        ),
    );
    let out = dir.path().join("other");
    assert!(run_experiment(&other, &out, &[]).status.success());
    assert_ne!(rounds(&one)[..3], rounds(&out)[..3]);
}

#[test]
fn a_knockout_gives_the_top_seeds_byes_plays_tie_breaks_and_crowns_one() {
    let dir = tempfile::tempdir().expect("dir");
    let experiment = write_experiment(
        dir.path(),
        "knockout.toml",
        &format!(
            "game = \"connect-four\"\nseed = 5\nknockout = {{ games = 2, tiebreak = 3, players = [{PLAYERS}] }}\n"
        ),
    );
    let out = dir.path().join("out");
    let output = run_experiment(&experiment, &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    let table = rounds(&out);
    // 7 players in a bracket of 8: one bye in round 1, then 2 boards and the final.
    let per_round = |r: &str| table.iter().filter(|row| row[0] == r).count();
    assert_eq!(
        (per_round("1"), per_round("2"), per_round("3")),
        (4, 2, 1),
        "{table:?}"
    );
    assert_eq!(table.iter().filter(|row| row[1] == "bye").count(), 1);
    // Every match was decided: by points, or level after its tie-breaks (then the
    // higher seed went on); a decided match played no more games.
    for row in table.iter().filter(|row| row[1] != "bye") {
        let (a, b): (f64, f64) = (row[4].parse().expect("a"), row[5].parse().expect("b"));
        let games: u64 = row[6].parse().expect("games");
        assert!((1..=5).contains(&games), "{row:?}");
        if (2..5).contains(&games) {
            assert_ne!(a, b, "a level match stopped early: {row:?}");
        }
    }
    let (_, standings) = read_csv(&out.join("standings.csv"));
    assert_eq!(
        standings[0][2], "4",
        "the champion reached past round 3: {standings:?}"
    );
    let (_, games) = read_csv(&out.join("games.csv"));
    let played: u64 = table
        .iter()
        .map(|r| r[6].parse::<u64>().expect("games"))
        .sum();
    assert_eq!(games.len() as u64, played);
}

/// A PNG's width and height, from its header.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = fs::read(path).expect("png");
    let at = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    (at(16), at(20))
}

#[test]
fn a_swiss_of_many_players_summarises_the_pairs_that_met_and_charts_the_best_placed() {
    let dir = tempfile::tempdir().expect("dir");
    let players: Vec<String> = (1..=120)
        .map(|k| format!("\"mcts(iterations={k})\""))
        .collect();
    let experiment = write_experiment(
        dir.path(),
        "many.toml",
        &format!(
            "game = \"connect-four(rows=4,columns=4)\"\nseed = 3\nswiss = {{ rounds = 4, games = 2, players = [{}] }}\n",
            players.join(", ")
        ),
    );
    let out = dir.path().join("out");
    let output = run_experiment(&experiment, &out, &[]);
    assert!(output.status.success(), "{}", stderr(&output));
    // 60 boards a round: 240 pairs met, of the 7,140 that could have; summary.csv has
    // a row for each agent of each pair that met, and no other.
    let (header, rows) = read_csv(&out.join("summary.csv"));
    let games = header.iter().position(|h| h == "games").expect("games");
    assert_eq!(rows.len(), 2 * 240);
    assert!(rows.iter().all(|row| row[games] == "2"));
    // The charts show the best placed: a matrix of 24 agents, 60 matchups, not 120 and
    // 240 (whose bitmaps grew with the square of the players).
    let matrix = fs::read_to_string(out.join("winrate_matrix.svg")).expect("svg");
    assert!(matrix.contains("(the 24 best placed of 120 agents)"));
    let (width, height) = png_size(&out.join("winrate_matrix.png"));
    assert!(width < 3000 && height < 2000, "{width} x {height}");
    let winrates = fs::read_to_string(out.join("winrates.svg")).expect("svg");
    assert!(winrates.contains("(60 of 240 matchups: those of the best placed agents)"));
    let (_, height) = png_size(&out.join("winrates.png"));
    assert!(height < 3000, "{height}");
    let page = fs::read_to_string(out.join("index.html")).expect("page");
    assert!(page.len() < 2_000_000, "{} bytes", page.len());
}

#[test]
fn bad_round_settings_are_one_line_errors() {
    let dir = tempfile::tempdir().expect("dir");
    for (setting, fragment) in [
        (
            "swiss = { rounds = 7, players = [\"random\", \"greedy(heuristic=windows)\", \"ab\"] }",
            "unknown agent 'ab'",
        ),
        (
            "swiss = { rounds = 4, players = [\"random\", \"greedy(heuristic=windows)\", \"alphabeta(heuristic=windows,depth=2)\"] }",
            "swiss: rounds = 4: 3 players can play 1 to 3 rounds",
        ),
        (
            "swiss = { rounds = 1, players = [\"random\"] }",
            "give at least two players",
        ),
        (
            "swiss = { rounds = 1, players = [\"random\", \"random\"] }",
            "a player is listed twice",
        ),
        (
            "swiss = { rounds = 1, games = 0, players = [\"random\", \"greedy(heuristic=windows)\"] }",
            "games = 0: give 1 to 1000",
        ),
        (
            "knockout = { games = -1, players = [\"random\", \"greedy(heuristic=windows)\"] }",
            "games = -1: give 1 to 1000",
        ),
        (
            "swiss = { players = [\"random\", \"greedy(heuristic=windows)\"] }",
            "missing field `rounds`",
        ),
        (
            "knockout = { players = [\"random\", \"greedy(heuristic=windows)\"] }\nround_robin = [\"random\", \"greedy(heuristic=windows)\"]",
            "knockout: its players play alone",
        ),
        (
            "knockout = { tiebreak = -1, players = [\"random\", \"greedy(heuristic=windows)\"] }",
            "tiebreak = -1: give 0 to 1000",
        ),
    ] {
        let experiment = write_experiment(
            dir.path(),
            "bad.toml",
            &format!("game = \"connect-four\"\n{setting}\n"),
        );
        let output = run(&[
            "run",
            text(&experiment),
            "--out",
            text(&dir.path().join("out")),
        ]);
        assert_input_error(&output, &["bad.toml", fragment]);
    }
    let experiment = write_experiment(
        dir.path(),
        "sharded.toml",
        "game = \"connect-four\"\nswiss = { rounds = 1, players = [\"random\", \"greedy(heuristic=windows)\"] }\n",
    );
    let output = run(&[
        "run",
        text(&experiment),
        "--shard",
        "0/2",
        "--out",
        text(&dir.path().join("s")),
    ]);
    assert_input_error(
        &output,
        &["--shard does not apply", "a swiss's rounds are paired"],
    );
}
