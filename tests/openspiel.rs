//! OpenSpiel's games through the game protocol (clients/python/openspiel_game.py) and its
//! bots as agents (openspiel_bots.py), proven against OpenSpiel itself: perft through the
//! bridge equals OpenSpiel's own counts, and its Breakthrough, Connect Four and Othello agree with
//! arbiter's on perft and on 100 seeded random games each way; its EinStein wurfelt nicht!
//! lists the same moves and chance outcomes as arbiter's at every position of 300 games.
//!
//! Needs a Python with OpenSpiel: `$ARBITER_OPENSPIEL_PYTHON` (what `.ci/run` sets, to the
//! virtual environment it makes), else `python3` if it imports pyspiel; otherwise skipped,
//! loudly.

use crate::common::*;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A Python that imports pyspiel, or `None` after a loud skip.
fn openspiel_python() -> Option<String> {
    let candidates: Vec<String> = std::env::var("ARBITER_OPENSPIEL_PYTHON")
        .ok()
        .into_iter()
        .chain(python3().map(str::to_string))
        .collect();
    let found = candidates.into_iter().find(|python| {
        Command::new(python)
            .args(["-c", "import pyspiel"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    component(
        found.is_some(),
        "OpenSpiel's Python package",
        "make a virtual environment with `pip install open_spiel` and set ARBITER_OPENSPIEL_PYTHON=<venv>/bin/python, as .ci/run does",
    )
    .then(|| found.unwrap_or_default())
}

fn clients() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("clients/python")
}

/// The OpenSpiel bridge as a process to talk to over its stdin and stdout.
fn bridge(python: &str) -> std::process::Child {
    Command::new(python)
        .arg(clients().join("openspiel_game.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the bridge starts")
}

/// An agents folder declaring the bridge as `openspiel` and OpenSpiel's bots. The rules
/// program's time limits are raised from 10 s to a minute: on a loaded 2-core machine
/// (two runs of Python importing OpenSpiel at once, and a build beside them) three games
/// of one CI run ended as `rules_failure`, and what is tested here is the bridge, not the
/// machine's speed.
fn agents(dir: &Path, python: &str) -> PathBuf {
    let folder = dir.join("agents");
    fs::create_dir_all(&folder).expect("mkdir");
    let game = clients().join("openspiel_game.py");
    let bots = clients().join("openspiel_bots.py");
    fs::write(
        folder.join("openspiel.toml"),
        format!(
            "[[game]]\nname = \"openspiel\"\ncommand = [\"{python}\", \"{}\"]\nstartup_ms = 60000\nrequest_ms = 60000\n\n\
             [[agent]]\nname = \"os-mcts\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ bot = \"mcts\", simulations = 60 }}\n\n\
             [[agent]]\nname = \"os-alphabeta\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ bot = \"alphabeta\", depth = 2 }}\n\n\
             [[agent]]\nname = \"openspiel-cfr\"\ncommand = [\"{python}\", \"{}\"]\noptions = {{ bot = \"cfr\", iterations = 100 }}\n",
            game.display(),
            bots.display(),
            bots.display(),
            bots.display()
        ),
    )
    .expect("write agents");
    folder
}

/// The last line of `arbiter perft GAME --depth D`.
fn perft(game: &str, depth: u32, agents: &Path) -> String {
    let output = run(&[
        "perft",
        game,
        "--depth",
        &depth.to_string(),
        "--agents",
        text(agents),
    ]);
    assert!(output.status.success(), "{game}: {}", stderr(&output));
    stdout(&output).lines().last().unwrap_or("").to_string()
}

#[test]
fn perft_through_the_bridge_equals_openspiels_own_counts() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    for (name, depth) in [("connect_four", 7), ("othello", 6), ("breakthrough", 4)] {
        // OpenSpiel's own count, by OpenSpiel alone.
        let own = Command::new(&python)
            .args([
                "-c",
                "import sys, pyspiel\n\
                 def perft(s, d):\n    \
                     if s.is_terminal(): return 0\n    \
                     if d == 1: return len(s.legal_actions())\n    \
                     return sum(perft(s.child(a), d - 1) for a in s.legal_actions())\n\
                 print(perft(pyspiel.load_game(sys.argv[1]).new_initial_state(), int(sys.argv[2])))",
                name,
                &depth.to_string(),
            ])
            .output()
            .expect("python runs");
        assert!(
            own.status.success(),
            "{}",
            String::from_utf8_lossy(&own.stderr)
        );
        let own = String::from_utf8_lossy(&own.stdout).trim().to_string();
        let through = perft(&format!("openspiel(name={name})"), depth, &agents);
        assert_eq!(through, format!("perft({depth}) = {own}"), "{name}");
    }
    // Published counts, as a check on both.
    assert_eq!(
        perft("openspiel(name=othello)", 6, &agents),
        "perft(6) = 8200"
    );
    assert_eq!(
        perft("openspiel(name=connect_four)", 5, &agents),
        "perft(5) = 16807"
    );
}

/// OpenSpiel's `name` (through the bridge with `notation=arbiter`) and arbiter's `built_in`
/// agree on perft to `depth` and on 100 seeded random games each way: every game of one
/// replayed by the other, move by move, ending at the same ply with the same winner.
fn agree_with_openspiel(python: &str, name: &str, built_in: &str, depth: u32) {
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), python);
    let bridged = format!("openspiel(name={name},notation=arbiter)");
    assert_eq!(
        perft(&bridged, depth, &agents),
        perft(built_in, depth, &agents)
    );

    // 100 random games through the bridge, replayed by arbiter's own rules.
    let experiment = write_experiment(
        dir.path(),
        "through.toml",
        &format!(
            "game = \"{bridged}\"\ngames = 100\nseed = 11\nmatchups = [[\"random\", \"random\"]]\n"
        ),
    );
    let out = dir.path().join("through");
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (header, rows) = read_csv(&out.join("games.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    assert_eq!(rows.len(), 100);
    for row in &rows {
        let moves = dir.path().join("moves.txt");
        fs::write(&moves, &row[column("moves")]).expect("write moves");
        let replayed = run(&["replay", built_in, text(&moves)]);
        assert!(
            replayed.status.success(),
            "{name} game {}: {}",
            row[0],
            stderr(&replayed)
        );
        let said = stdout(&replayed);
        assert!(
            said.contains(&format!("result: {} (", row[column("winner")])),
            "{name} game {}: OpenSpiel's winner {}, arbiter's {said}",
            row[0],
            row[column("winner")]
        );
    }

    // 100 random games of arbiter's own, replayed in OpenSpiel.
    let experiment = write_experiment(
        dir.path(),
        "built-in.toml",
        &format!(
            "game = \"{built_in}\"\ngames = 100\nseed = 12\nmatchups = [[\"random\", \"random\"]]\n"
        ),
    );
    let out = dir.path().join("built-in");
    // Its own agents folder only: the repository's declares `openspiel` too.
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let replay = Command::new(python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/openspiel_replay.py"))
        .arg(name)
        .arg(out.join("games.csv"))
        .output()
        .expect("python runs");
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let said = String::from_utf8_lossy(&replay.stdout);
    let (_, rows) = read_csv(&out.join("games.csv"));
    assert_eq!(said.lines().count(), 100, "{said}");
    for (line, row) in said.lines().zip(&rows) {
        assert_eq!(
            line,
            format!(
                "{} {} {}",
                row[0],
                row[column("winner")],
                row[column("plies")]
            ),
            "OpenSpiel disagrees on {name}"
        );
    }
}

#[test]
fn openspiels_breakthrough_agrees_with_arbiters_on_perft_and_100_games_each_way() {
    let Some(python) = openspiel_python() else {
        return;
    };
    agree_with_openspiel(&python, "breakthrough", "breakthrough", 4);
}

#[test]
fn openspiels_othello_agrees_with_arbiters_on_perft_and_100_games_each_way() {
    let Some(python) = openspiel_python() else {
        return;
    };
    agree_with_openspiel(&python, "othello", "othello", 6);
}

#[test]
fn openspiels_connect_four_agrees_with_arbiters_on_perft_and_100_games_each_way() {
    let Some(python) = openspiel_python() else {
        return;
    };
    agree_with_openspiel(&python, "connect_four", "connect-four", 7);
}

#[test]
fn openspiels_bots_play_arbiters_agents_reproducibly_and_other_games_are_refused() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    let experiment = write_experiment(
        dir.path(),
        "bots.toml",
        "game = \"openspiel(name=connect_four)\"\ngames = 2\nseed = 5\n\
         matchups = [[\"os-mcts\", \"mcts(iterations=60)\"], [\"os-alphabeta\", \"alphabeta(depth=2)\"]]\n",
    );
    let mut played = Vec::new();
    for run_name in ["a", "b"] {
        let out = dir.path().join(run_name);
        let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let (header, rows) = read_csv(&out.join("games.csv"));
        let column = |name: &str| header.iter().position(|c| c == name).expect("column");
        assert_eq!(rows.len(), 4);
        for row in &rows {
            assert!(
                ["win", "draw"].contains(&row[column("reason")].as_str()),
                "{row:?}"
            );
        }
        played.push(
            rows.iter()
                .map(|r| r[column("moves")].clone())
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(played[0], played[1], "the same seeds give the same games");

    let refused = run(&[
        "perft",
        "openspiel(name=mfg_garnet)",
        "--agents",
        text(&agents),
    ]);
    assert_input_error(
        &refused,
        &[
            "game 'openspiel(name=mfg_garnet)'",
            "it is a mean-field game",
        ],
    );
    let refused = run(&[
        "perft",
        "openspiel(name=no_such_game)",
        "--agents",
        text(&agents),
    ]);
    assert_input_error(&refused, &["OpenSpiel has no game 'no_such_game'"]);
    let refused = run(&[
        "perft",
        "openspiel(name=hex,size=7)",
        "--agents",
        text(&agents),
    ]);
    assert_input_error(
        &refused,
        &["OpenSpiel's hex has no parameter 'size'", "board_size"],
    );
}

#[test]
fn openspiels_einstein_agrees_with_arbiters_at_every_position_of_300_random_games() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/einstein_openspiel.py");
    let output = Command::new(&python)
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["300", "17"])
        .output()
        .expect("python runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        said.lines().filter(|l| l.starts_with("game ")).count(),
        300,
        "{said}"
    );
    // Both ways a game ends are met (a side takes the other's last cube now and then).
    assert!(said.contains("reason corner"), "{said}");
}

#[test]
fn openspiels_dice_games_play_through_the_bridge_with_chance_drawn_from_the_seed() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    let experiment = write_experiment(
        dir.path(),
        "pig.toml",
        "game = \"openspiel(name=pig,winscore=20)\"\ngames = 6\nseed = 8\nmatchups = [[\"random\", \"random\"], [\"expectimax(heuristic=outcome,depth=1)\", \"mcts(iterations=20)\"]]\n",
    );
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    for (out, threads) in [(&one, "1"), (&two, "2")] {
        let output = run_experiment(
            &experiment,
            out,
            &["--agents", text(&agents), "--threads", threads],
        );
        assert!(output.status.success(), "{}", stderr(&output));
    }
    assert_same_csv(&one.join("games.csv"), &two.join("games.csv"), "games.csv");
    let (header, rows) = read_csv(&one.join("games.csv"));
    let column = |name: &str| header.iter().position(|c| c == name).expect("column");
    assert_eq!(rows.len(), 12);
    for row in &rows {
        // The die's faces are moves of the record, so the game replays exactly.
        assert!(row[column("moves")].contains("Roll "), "{row:?}");
        assert_ne!(row[column("reason")], "rules_failure", "{row:?}");
    }
    // The pairs share their dice as far as both games go.
    let rolls = |row: &Vec<String>| -> Vec<String> {
        row[column("moves")]
            .split(';')
            .filter(|m| m.starts_with("Roll "))
            .map(String::from)
            .collect()
    };
    for pair in rows[..6].chunks(2) {
        let (a, b) = (rolls(&pair[0]), rolls(&pair[1]));
        let shared = a.len().min(b.len());
        assert_eq!(a[..shared], b[..shared]);
    }
    // A search that assumes no chance is refused, naming the game.
    let refused = write_experiment(
        dir.path(),
        "refused.toml",
        "game = \"openspiel(name=pig,winscore=20)\"\ngames = 2\nmatchups = [[\"random\", \"alphabeta(heuristic=outcome,depth=2)\"]]\n",
    );
    let output = run_experiment(
        &refused,
        &dir.path().join("refused"),
        &["--agents", text(&agents)],
    );
    assert_input_error(
        &output,
        &[
            "alphabeta needs a game without chance; use expectimax or mcts for 'openspiel(name=pig,winscore=20)'",
        ],
    );
}

/// The table `openspiel_coverage.py` prints: every game OpenSpiel loads, served or why not.
fn coverage_table(python: &str) -> String {
    let output = Command::new(python)
        .arg(clients().join("openspiel_coverage.py"))
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// The games the coverage table says the bridge serves.
fn served_in(table: &str) -> Vec<&str> {
    table
        .lines()
        .filter(|l| l.contains("| served"))
        .filter_map(|l| l.split('`').nth(1))
        .collect()
}

#[test]
fn the_coverage_table_in_the_docs_is_the_bridges_own() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let table = coverage_table(&python);
    let docs = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games.md"))
        .expect("docs/games.md");
    assert!(
        docs.contains(table.trim_end()),
        "docs/games.md's OpenSpiel table is stale: put in the output of clients/python/openspiel_coverage.py:\n{table}"
    );
    // The dice games, the card games and the games of simultaneous moves are served.
    for served in ["pig", "backgammon", "einstein_wurfelt_nicht"] {
        assert!(
            table.contains(&format!("| `{served}` | served |")),
            "{table}"
        );
    }
    for served in [
        "kuhn_poker",
        "leduc_poker",
        "liars_dice",
        "phantom_ttt",
        "matrix_rps",
        "goofspiel",
        "matrix_pd",
    ] {
        assert!(
            table.contains(&format!("| `{served}` | served |")),
            "{table}"
        );
    }
    // Games of one and of three to six players are served; a mean-field game is refused
    // with its reason.
    for served in [
        "matching_pennies_3p",
        "oh_hell",
        "bridge",
        "social_deduction",
        "catch",
        "2048",
    ] {
        assert!(
            table.contains(&format!("| `{served}` | served |")),
            "{table}"
        );
    }
    assert!(
        table.contains("| `mfg_garnet` | it is a mean-field game"),
        "{table}"
    );
}

#[test]
fn ismcts_wins_chips_from_random_at_kuhn_and_leduc_poker_and_cfr_plays_from_what_it_is_told() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    for game in ["kuhn_poker", "leduc_poker"] {
        let experiment = write_experiment(
            dir.path(),
            &format!("{game}.toml"),
            &format!(
                "game = \"openspiel(name={game})\"\ngames = 100\nseed = 3\nmatchups = [[\"ismcts(iterations=300)\", \"random\"]]\n"
            ),
        );
        let out = dir.path().join(game);
        let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = csv_maps(&out.join("games.csv"));
        assert_eq!(rows.len(), 100);
        assert!(
            rows.iter().all(|r| r["reason"] != "rules_failure"),
            "{rows:?}"
        );
        // It plays for chips (the games' returns) and wins them: the pairs' interval,
        // each pair dealt the same cards, is clear of 0.
        let summary = csv_maps(&out.join("summary.csv"));
        let low: f64 = summary[0]["pair_return_low95"].parse().expect("returns");
        assert!(low > 0.0, "{game}: {:?}", summary[0]);
        // Pairs are dealt the same cards, seats swapped.
        for pair in rows.chunks(2) {
            let deal = |row: &std::collections::BTreeMap<String, String>| {
                row["moves"]
                    .split(';')
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(";")
            };
            assert_eq!(deal(&pair[0]), deal(&pair[1]));
        }
    }
    // OpenSpiel's CFR bot, told only its information state, plays the same games again
    // from the same seeds; OpenSpiel's MCTS bot, which needs the whole state, refuses to
    // move, saying why in its log.
    let experiment = write_experiment(
        dir.path(),
        "cfr.toml",
        "game = \"openspiel(name=leduc_poker)\"\ngames = 6\nseed = 4\nmatchups = [[\"ismcts(iterations=100)\", \"openspiel-cfr\"]]\n",
    );
    let mut played = Vec::new();
    for name in ["cfr-a", "cfr-b"] {
        let out = dir.path().join(name);
        let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        assert!(output.status.success(), "{}", stderr(&output));
        let rows = csv_maps(&out.join("games.csv"));
        assert!(
            rows.iter()
                .all(|r| r["reason"] == "win" || r["reason"] == "draw"),
            "{rows:?}"
        );
        played.push(rows.iter().map(|r| r["moves"].clone()).collect::<Vec<_>>());
        // The helper plays a random move when the bot fails, after its traceback.
        let log = logs(&out);
        assert!(!log.contains("Traceback"), "{log}");
    }
    assert_eq!(played[0], played[1]);
    // CFR's policy wins chips from random (about +0.76 a game in expectation).
    let experiment = write_experiment(
        dir.path(),
        "cfr-random.toml",
        "game = \"openspiel(name=leduc_poker)\"\ngames = 400\nseed = 5\nmatchups = [[\"openspiel-cfr\", \"random\"]]\n",
    );
    let out = dir.path().join("cfr-random");
    let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
    assert!(output.status.success(), "{}", stderr(&output));
    let summary = csv_maps(&out.join("summary.csv"));
    let low: f64 = summary[0]["pair_return_low95"].parse().expect("returns");
    assert!(low > 0.0, "{:?}", summary[0]);
    let out = dir.path().join("os-mcts");
    let output = run(&[
        "match",
        "os-mcts",
        "random",
        "--game",
        "openspiel(name=kuhn_poker)",
        "--games",
        "2",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    // (The helper answers a random legal move when `choose` fails, after its traceback.)
    let log = logs(&out);
    assert!(log.contains("needs the whole state"), "{log}");
}

/// A long random game of go (hundreds of plies), then a bridge that keeps 50 positions and
/// may recurse 60 calls deep asked for its positions in a random order: each equals the
/// game replayed in OpenSpiel, and the bridge never holds more than it may.
const LONG_GAME: &str = r#"
import random, sys
sys.path.insert(0, sys.argv[1])
import openspiel_game
openspiel_game.KEPT = 50
game = openspiel_game.Bridge({"name": "go"}).game
rng = random.Random(3)
state, actions = game.new_initial_state(), []
while not state.is_terminal():
    action = rng.choice(state.legal_actions())
    actions.append(action)
    state.apply_action(action)
assert len(actions) > 300, len(actions)
sys.setrecursionlimit(60)
bridge = openspiel_game.Bridge({"name": "go"})
for n in [len(actions)] + [rng.randrange(len(actions) + 1) for _ in range(100)]:
    replayed = game.new_initial_state()
    for action in actions[:n]:
        replayed.apply_action(action)
    got = bridge.state(" ".join(map(str, actions[:n])))
    assert str(got) == str(replayed), n
    assert len(bridge.states) <= 50, len(bridge.states)
print("ok", len(actions))
"#;

#[test]
fn the_bridge_keeps_few_positions_and_replays_a_long_game_without_recursing() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let output = Command::new(&python)
        .args(["-c", LONG_GAME, text(&clients())])
        .output()
        .expect("python runs");
    assert!(
        output.status.success() && String::from_utf8_lossy(&output.stdout).starts_with("ok"),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Every external agent's log of a run, one after another.
fn logs(out: &Path) -> String {
    fs::read_dir(out.join("logs"))
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|d| fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|f| fs::read_to_string(f.path()).unwrap_or_default())
        .collect()
}

#[test]
fn every_served_openspiel_game_plays_ten_games_of_random_against_a_tree_search() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let table = coverage_table(&python);
    let served = served_in(&table);
    assert!(served.len() >= 105, "{table}");
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    // A short game each (a ply cap of 30, shallow searches with short rollouts judged by
    // the result so far): what is tested is that every game plays through the bridge,
    // its hidden part drawn where the search needs it, not how well. (Played out, a few
    // games take minutes through a search: bridge 181 s, capture_the_flag over 6 minutes.
    // Every game's end is checked by the replay test above, whose random games are played
    // to the end: 24 s for all of them.)
    let check = |name: &str| -> Option<String> {
        let game = format!("openspiel(name={name})");
        let searcher = "mcts(iterations=4,heuristic=outcome,rollout_plies=4)";
        let experiment = write_experiment(
            dir.path(),
            &format!("{name}.toml"),
            &format!(
                "game = \"{game}\"\ngames = 10\nseed = 2\nmax_plies = 30\nmatchups = [[\"random\", \"{searcher}\"]]\n"
            ),
        );
        let out = dir.path().join(name);
        let mut output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        // More than two players: the searcher and random players at a table, every seat
        // rotated, about ten games.
        let seats = seats_of(&stderr(&output));
        if let Some(seats) = seats {
            // One player: random and the searcher each at a table of its own.
            let tables = if seats == 1 {
                format!("[\"random\"], [\"{searcher}\"]")
            } else {
                let mut table = vec!["\"random\"".to_string(); seats];
                table[1] = format!("\"{searcher}\"");
                format!("[{}]", table.join(", "))
            };
            fs::write(
                &experiment,
                format!(
                    "kind = \"tables\"\ngame = \"{game}\"\ndeals = {}\nseed = 2\nmax_plies = 30\ntables = [{tables}]\n",
                    10usize.div_ceil(seats.max(2))
                ),
            )
            .expect("write");
            output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        }
        if !output.status.success() && stderr(&output).contains("use ismcts or random") {
            // Hidden information: ismcts, or random where the bridge cannot draw positions.
            let hidden = if table.contains(&format!("`{name}` | served; ismcts cannot")) {
                "random".to_string()
            } else {
                searcher.replace("mcts(", "ismcts(")
            };
            let source = fs::read_to_string(&experiment).expect("read");
            fs::write(&experiment, source.replace(searcher, &hidden)).expect("write");
            output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        }
        if !output.status.success() {
            return Some(format!("{name}: {}", stderr(&output)));
        }
        let (rows, expected) = match seats {
            Some(seats) => (
                csv_maps(&out.join("tables.csv")),
                seats.max(2) * 10usize.div_ceil(seats.max(2)),
            ),
            None => (csv_maps(&out.join("games.csv")), 10),
        };
        let broken: Vec<&str> = rows
            .iter()
            .map(|r| r["reason"].as_str())
            .filter(|reason| {
                ["rules_failure", "illegal_move", "crash", "bad_output"].contains(reason)
            })
            .collect();
        (rows.len() != expected || !broken.is_empty()).then(|| {
            format!(
                "{name}: {} games, ended by {broken:?}; the run said: {}",
                rows.len(),
                stderr(&output)
            )
        })
    };
    // Each game is a run of its own (a process, mostly Python's start and OpenSpiel's
    // import): as many at once as the machine has cores, the games taken in turn.
    let mut failures = in_parallel(&served, |name| check(name).into_iter().collect());
    failures.sort();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `check` of every item, as many at once as the machine has cores, the items taken in
/// turn: what every check found, together.
fn in_parallel<T: Sync>(items: &[T], check: impl Fn(&T) -> Vec<String> + Sync) -> Vec<String> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    while let Some(item) =
                        items.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
                    {
                        found.extend(check(item));
                    }
                    found
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    })
}

/// The seat count a refusal to seat a game at a match names (`'G' seats N players`).
fn seats_of(error: &str) -> Option<usize> {
    let (_, after) = error.split_once("' seats ")?;
    let (count, rest) = after.split_once(' ')?;
    rest.starts_with("player").then(|| count.parse().ok())?
}

/// Replays every game of a table run's tables.csv in OpenSpiel itself, move by move, and
/// prints one line a disagreement (nothing when all agree): the game ends where arbiter
/// ended it, with the returns arbiter recorded.
const REPLAY_TABLES: &str = r#"
import csv, sys
sys.path.insert(0, sys.argv[1])
import openspiel_game
name, path = sys.argv[2], sys.argv[3]
bridge = openspiel_game.Bridge({"name": name})
for row in csv.DictReader(open(path)):
    state = bridge.game.new_initial_state()
    moves = [m for m in row["moves"].split(";") if m]
    for ply, text in enumerate(moves):
        actions = dict(bridge.moves(state))
        if text not in actions:
            print("game %s ply %d: %s is not legal in OpenSpiel" % (row["game"], ply, text))
            break
        state = state.child(actions[text])
    else:
        capped = row["reason"] == "ply-cap"
        if state.is_terminal() == capped:
            print("game %s: OpenSpiel says terminal=%s after %d plies, arbiter %s" % (row["game"], state.is_terminal(), len(moves), row["reason"]))
        elif not capped:
            got = ["%.4f" % r for r in state.returns()]
            if not bridge.returns:
                # Two players with one stake of 1 between them: tables.csv holds their scores.
                got = ["%.4f" % ((r + 1) / 2) for r in state.returns()]
            want = [row["p%d_return" % (p + 1)] for p in range(len(got))]
            if got != want:
                print("game %s: returns %s in OpenSpiel, %s in tables.csv" % (row["game"], got, want))
"#;

/// Every served game's name with its number of players, as OpenSpiel loads it.
const SEATS: &str = r#"
import sys, pyspiel
for name in sys.argv[1:]:
    print(name, pyspiel.load_game(name).num_players())
"#;

#[test]
fn every_served_openspiel_game_replays_in_openspiel_from_its_tables_to_the_end() {
    let Some(python) = openspiel_python() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    let table = coverage_table(&python);
    let served = served_in(&table);
    assert!(served.len() >= 100, "{table}");
    let listed = Command::new(&python)
        .args(["-c", SEATS])
        .args(&served)
        .output()
        .expect("python runs");
    let games: Vec<(String, usize)> = String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|l| {
            let (name, seats) = l.split_once(' ')?;
            Some((name.to_string(), seats.parse().ok()?))
        })
        .collect();
    assert_eq!(
        games.len(),
        served.len(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    // Each game's seeded random games played to their end (or 3,000 plies) at a table of
    // random players, one game in every rotation of seats, then replayed in OpenSpiel.
    let check = |name: &str, seats: usize| -> Vec<String> {
        let mut failures = Vec::new();
        let table = vec!["\"random\""; seats].join(", ");
        let experiment = write_experiment(
            dir.path(),
            &format!("{name}.toml"),
            &format!(
                "kind = \"tables\"\ngame = \"openspiel(name={name})\"\ndeals = 1\nseed = 4\nmax_plies = 3000\ntables = [[{table}]]\n"
            ),
        );
        let out = dir.path().join(name);
        let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
        if !output.status.success() {
            failures.push(format!("{name}: {}", stderr(&output)));
            return failures;
        }
        let (header, rows) = read_csv(&out.join("tables.csv"));
        assert!(header.contains(&format!("p{seats}_agent")), "{name}");
        assert!(!header.contains(&format!("p{}_agent", seats + 1)), "{name}");
        assert_eq!(rows.len(), seats, "{name}: one deal in every rotation");
        let replay = Command::new(&python)
            .args([
                "-c",
                REPLAY_TABLES,
                text(&clients()),
                name,
                text(&out.join("tables.csv")),
            ])
            .output()
            .expect("python runs");
        // Disagreements on stdout; stderr only when it failed (OpenSpiel warns of some
        // games there, quoridor's "known issues").
        let said = String::from_utf8_lossy(&replay.stdout);
        if !replay.status.success() || !said.trim().is_empty() {
            failures.push(format!(
                "{name}: {said}{}",
                String::from_utf8_lossy(&replay.stderr)
            ));
        }
        // The report's viewer draws each game as the bridge renders it, at every ply, each
        // move by the agent in its seat (or chance).
        let html = fs::read_to_string(out.join("index.html")).expect("index.html");
        if !html.contains("window.ARBITER_GAMES = ") {
            failures.push(format!("{name}: no viewer in index.html"));
            return failures;
        }
        let embedded = embedded_games(&html);
        let games = embedded.as_array().expect("a list");
        assert_eq!(games.len(), rows.len(), "{name}: every game in the viewer");
        for game in games {
            let moves = game["moves"].as_array().expect("moves").len();
            let boards = game["grid"]["plies"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(boards.len(), moves + 1, "{name}: a board at every ply");
            // Drawn one way all game long: a grid of cells, or the text OpenSpiel prints
            // (prose, a FEN, a drawing) where its boards are not grids.
            let text = matches!(
                name,
                "bargaining" | "chess" | "go" | "othello" | "kuhn_poker"
            );
            let grid = matches!(
                name,
                "connect_four" | "tic_tac_toe" | "breakthrough" | "hex"
            );
            for board in &boards {
                assert!(
                    board.is_string() == boards[0].is_string()
                        && (!text || board.is_string())
                        && (!grid || board.is_array()),
                    "{name}: drawn as {board}"
                );
            }
            assert_eq!(
                game["stats"].as_array().map_or(0, Vec::len),
                moves,
                "{name}: a mover at every ply"
            );
            assert_eq!(
                game["players"].as_array().map_or(0, Vec::len),
                seats,
                "{name}"
            );
        }
        failures
    };
    // Each game is a run of its own: as many at once as the machine has cores.
    let mut failures = in_parallel(&games, |(name, seats)| check(name, *seats));
    failures.sort();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A game of simultaneous moves: the bridge says where each round began, and `ismcts`
/// searches a round blind from there in each of its three ways, playing the same games
/// from the same seed and beating `random`.
#[test]
fn simultaneous_moves_are_searched_blind_from_where_the_round_began() {
    let Some(python) = openspiel_python() else {
        return;
    };
    // The protocol: inside a round, the status names the round's start; once the round
    // is over, it names none.
    let mut bridge = bridge(&python);
    {
        use std::io::Write;
        let mut stdin = bridge.stdin.take().expect("stdin");
        for request in [
            r#"{"type":"hello","protocol":2,"game":"oshi","params":{"name":"oshi_zumo","coins":4,"size":1,"horizon":6}}"#,
            r#"{"type":"apply","position":"","move":"[P0]Bid: 1"}"#,
            r#"{"type":"status","position":"1"}"#,
            r#"{"type":"apply","position":"1","move":"[P1]Bid: 2"}"#,
            r#"{"type":"quit"}"#,
        ] {
            writeln!(stdin, "{request}").expect("a request");
        }
    }
    let output = bridge.wait_with_output().expect("the bridge answers");
    let replies: Vec<serde_json::Value> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON reply"))
        .collect();
    assert_eq!(replies.len(), 4, "{replies:?}");
    assert_eq!(replies[1]["status"]["round_start"], "", "{replies:?}");
    assert_eq!(replies[2]["round_start"], "", "{replies:?}");
    assert_eq!(replies[2]["to_move"], "P2", "{replies:?}");
    assert!(
        replies[3]["status"].get("round_start").is_none(),
        "{replies:?}"
    );
    // Each way of searching a round plays whole games without a failure, the same ones
    // from the same seed, and beats random.
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    for rounds in ["decoupled", "regret", "turns"] {
        let experiment = write_experiment(
            dir.path(),
            &format!("{rounds}.toml"),
            &format!(
                "game = \"openspiel(name=oshi_zumo,coins=6,size=1,horizon=8)\"\ngames = 20\nseed = 8\nmatchups = [[\"ismcts(iterations=200,rounds={rounds})\", \"random\"]]\n"
            ),
        );
        let mut played = Vec::new();
        for run in ["a", "b"] {
            let out = dir.path().join(format!("{rounds}-{run}"));
            let output = run_experiment(&experiment, &out, &["--agents", text(&agents)]);
            assert!(output.status.success(), "{}", stderr(&output));
            let rows = csv_maps(&out.join("games.csv"));
            assert_eq!(rows.len(), 20);
            assert!(
                rows.iter().all(|r| r["reason"] != "rules_failure"),
                "{rounds}: {rows:?}"
            );
            played.push(rows.iter().map(|r| r["moves"].clone()).collect::<Vec<_>>());
            let summary = csv_maps(&out.join("summary.csv"));
            let (wins, losses): (u32, u32) = (
                summary[0]["wins"].parse().expect("wins"),
                summary[0]["losses"].parse().expect("losses"),
            );
            assert!(wins > losses, "{rounds}: {:?}", summary[0]);
        }
        assert_eq!(played[0], played[1], "{rounds}");
    }
}

/// The viewer of a game with hidden information shows, at every ply, what each seat was
/// told (the bridge's observation of that position), and the whole board by default.
#[test]
fn the_viewer_shows_each_seat_what_it_saw_of_a_poker_game_in_a_real_browser() {
    use std::io::{BufRead, BufReader, Write};
    let Some(python) = openspiel_python() else {
        return;
    };
    let Some(browser) = chromium_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let agents = agents(dir.path(), &python);
    let out = dir.path().join("kuhn");
    let output = run(&[
        "match",
        "ismcts(iterations=50)",
        "random",
        "--game",
        "openspiel(name=kuhn_poker)",
        "--games",
        "4",
        "--agents",
        text(&agents),
        "--out",
        text(&out),
        "--quiet",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = headless(&browser, &out.join("chromium-profile"))
        .arg("--dump-dom")
        .arg(format!("file://{}#dump", out.join("index.html").display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&output.stdout);
    let start = dom
        .find("<pre id=\"dump\">")
        .expect("the page wrote its dump")
        + 15;
    let end = start + dom[start..].find("</pre>").expect("dump closed");
    let unescape = |t: &str| {
        t.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    };
    // (game, ply, seat) -> what the page says that seat saw: the lines under each
    // `game <id> ply <k> seen by <seat>` head (an observation may be empty).
    let mut views = std::collections::BTreeMap::new();
    type Seen = (String, usize, String);
    let mut open: Option<(Seen, Vec<&str>)> = None;
    for line in dom[start..end].lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let head = words.first() == Some(&"game") && words.get(2) == Some(&"ply");
        if head {
            if let Some((key, text)) = open.take() {
                views.insert(key, unescape(text.join("\n").trim_end()));
            }
            if words.len() == 7 && words[4] == "seen" {
                let key = (
                    words[1].to_string(),
                    words[3].parse::<usize>().expect("ply"),
                    words[6].to_string(),
                );
                open = Some((key, Vec::new()));
            }
        } else if let Some((_, text)) = open.as_mut() {
            text.push(line);
        }
    }
    if let Some((key, text)) = open.take() {
        views.insert(key, unescape(text.join("\n").trim_end()));
    }
    // The bridge, asked position by position, says the same.
    let mut bridge = bridge(&python);
    let mut stdin = bridge.stdin.take().expect("stdin");
    let mut replies = BufReader::new(bridge.stdout.take().expect("stdout")).lines();
    let mut ask = move |request: serde_json::Value| -> serde_json::Value {
        writeln!(stdin, "{request}").expect("a request");
        let line = replies.next().expect("a reply").expect("a line");
        serde_json::from_str(&line).expect("JSON")
    };
    ask(
        serde_json::json!({"type": "hello", "protocol": 2, "game": "kuhn", "params": {"name": "kuhn_poker"}}),
    );
    let rows = csv_maps(&out.join("games.csv"));
    assert_eq!(rows.len(), 4);
    let mut compared = 0;
    let mut differ = 0;
    for row in &rows {
        let mut position = String::new();
        let moves: Vec<&str> = row["moves"].split(';').filter(|m| !m.is_empty()).collect();
        for ply in 0..=moves.len() {
            let mut seen = Vec::new();
            for seat in ["P1", "P2"] {
                let told = ask(
                    serde_json::json!({"type": "observation", "position": position, "player": seat}),
                );
                let page = &views[&(row["game_id"].clone(), ply, seat.to_string())];
                assert_eq!(
                    page.trim_end(),
                    told["observation"]
                        .as_str()
                        .expect("observation")
                        .trim_end(),
                    "game {} ply {ply} {seat}",
                    row["game_id"]
                );
                seen.push(page.clone());
                compared += 1;
            }
            differ += usize::from(seen[0] != seen[1]);
            if ply < moves.len() {
                let child = ask(
                    serde_json::json!({"type": "apply", "position": position, "move": moves[ply]}),
                );
                position = child["position"].as_str().expect("position").to_string();
            }
        }
    }
    drop(ask);
    let _ = bridge.wait();
    // Every ply of every game, both seats, and the seats' views differ once cards are dealt.
    assert!(compared >= 4 * 2 * 4, "{compared}");
    assert!(differ >= 4, "{differ}");
}
