//! Property-based robustness of every input parser: experiment files of every kind, agent
//! files, Flow Free and Word Sudoku puzzles, and move lists of every game are mutated at
//! random (characters inserted, deleted and replaced, tokens that broke parsers before:
//! huge and negative numbers, NaN, path separators, unbalanced brackets, NUL, non-ASCII)
//! and parsed. No input may panic, and every rejection is one line naming the input.

use arbiter::core::{read_moves, seeds};
use arbiter::csp::flow::Puzzle;
use arbiter::registry::{AgentRegistry, AnyExperiment, GameEntry, GameSpec, GameTask, dispatch};
use proptest::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};

/// Tokens spliced into inputs: the values that have broken parsers before, and syntax.
const TOKENS: &[&str] = &[
    "0",
    "-1",
    "1e300",
    "1e19",
    "nan",
    "inf",
    "18446744073709551615",
    "9223372036854775808",
    "-9223372036854775809",
    "4294967296",
    "\"",
    "'",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    "(",
    ")",
    "\n",
    "\r\n",
    "../",
    "/",
    "\u{0}",
    "é",
    "🂡",
    "[[sweep]]",
    "[[agent]]",
    "kind = \"search\"\n",
    "kind = \"puzzles\"\n",
    "depth=[1,2]",
    "games = 18446744073709551615\n",
    "move_time_ms = 18446744073710\n",
    "time_limit = 1e300\n",
    "max_nodes = -5\n",
    "_",
    ".",
    "a",
    "Z",
    ";",
    "#",
    "  ",
];

/// Values put in place of a number of the text (so that the file stays valid TOML and
/// the checks behind the syntax are reached).
const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1e300",
    "-1e300",
    "nan",
    "inf",
    "18446744073709551615",
    "9223372036854775807",
    "4294967296",
    "65536",
    "0.5",
    "1000000000",
];

/// Values put in place of a quoted string's contents.
const STRINGS: &[&str] = &[
    "",
    "../x",
    "/abs",
    "..",
    "random(",
    "alphabeta(heuristic=offensive2,depth=99)",
    "alphabeta(heuristic=nope)",
    "minimax(depth=18446744073709551615)",
    "beam(k=0,gamma=nan)",
    "greedy(heuristic=offense,capture_weight=[1,2])",
    "breakthrough(rules=nope)",
    "chinese-checkers(players=9)",
    "no-such-file.txt",
    "normalized",
    "é",
];

/// One change to a text.
#[derive(Clone, Debug)]
enum Edit {
    Number(usize, usize),
    Quoted(usize, usize),
    Insert(usize, usize),
    Delete(usize, usize),
    Replace(usize, usize, usize),
    Truncate(usize),
    Duplicate(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    let token = 0..TOKENS.len();
    prop_oneof![
        4 => (at, 0..NUMBERS.len()).prop_map(|(a, v)| Edit::Number(a, v)),
        3 => (at, 0..STRINGS.len()).prop_map(|(a, v)| Edit::Quoted(a, v)),
        3 => (at, token.clone()).prop_map(|(a, t)| Edit::Insert(a, t)),
        2 => (at, 1..12usize).prop_map(|(a, n)| Edit::Delete(a, n)),
        3 => (at, 1..6usize, token).prop_map(|(a, n, t)| Edit::Replace(a, n, t)),
        1 => at.prop_map(Edit::Truncate),
        1 => (at, 1..40usize).prop_map(|(a, n)| Edit::Duplicate(a, n)),
    ]
}

/// Changes of values only: the text stays well-formed TOML, so the checks of each value
/// are what gets exercised.
fn value_edit() -> impl Strategy<Value = Edit> {
    let at = any::<usize>();
    prop_oneof![
        (at, 0..NUMBERS.len()).prop_map(|(a, v)| Edit::Number(a, v)),
        (at, 0..STRINGS.len()).prop_map(|(a, v)| Edit::Quoted(a, v)),
    ]
}

/// The char boundary nearest below `at % (len + 1)`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for edit in edits {
        match *edit {
            Edit::Number(at, value) => {
                let runs = spans(&text, |c| c.is_ascii_digit() || c == '.');
                if !runs.is_empty() {
                    let (start, end) = runs[at % runs.len()];
                    text.replace_range(start..end, NUMBERS[value]);
                }
            }
            Edit::Quoted(at, value) => {
                let quotes: Vec<usize> = text.match_indices('"').map(|(i, _)| i).collect();
                let pairs: Vec<(usize, usize)> =
                    quotes.chunks_exact(2).map(|q| (q[0] + 1, q[1])).collect();
                if !pairs.is_empty() {
                    let (start, end) = pairs[at % pairs.len()];
                    text.replace_range(start..end, STRINGS[value]);
                }
            }
            Edit::Insert(at, token) => {
                let at = boundary(&text, at);
                text.insert_str(at, TOKENS[token]);
            }
            Edit::Delete(at, n) | Edit::Replace(at, n, _) => {
                let start = boundary(&text, at);
                let end = boundary(&text, (start + n).min(text.len()));
                let end = end.max(start);
                let with = match *edit {
                    Edit::Replace(_, _, token) => TOKENS[token],
                    _ => "",
                };
                text.replace_range(start..end, with);
            }
            Edit::Truncate(at) => {
                let at = boundary(&text, at);
                text.truncate(at);
            }
            Edit::Duplicate(at, n) => {
                let start = boundary(&text, at);
                let end = boundary(&text, (start + n).min(text.len())).max(start);
                let copy = text[start..end].to_string();
                text.insert_str(end, &copy);
            }
        }
    }
    text
}

/// The byte ranges of maximal runs of characters that satisfy `keep`.
fn spans(text: &str, keep: impl Fn(char) -> bool) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (keep(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        spans.push((s, text.len()));
    }
    spans
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file of `folder` ending in `extension`, with its text.
fn files(folder: &str, extension: &str) -> Vec<(PathBuf, String)> {
    let mut found: Vec<(PathBuf, String)> = fs::read_dir(repository().join(folder))
        .expect("folder")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(extension))
        .map(|p| {
            let text = fs::read_to_string(&p).expect("text");
            (p, text)
        })
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no {extension} files in {folder}");
    found
}

/// A rejection must be one line naming `input`.
fn assert_one_line_naming(message: &str, input: &str) {
    assert!(!message.contains('\n'), "more than one line: {message:?}");
    assert!(message.contains(input), "{input} not named in: {message}");
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(400),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn experiment_files_of_every_kind(file in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..6)) {
        check_experiment(file, &edits);
    }

    #[test]
    fn experiment_values_of_every_kind(file in any::<prop::sample::Index>(), edits in prop::collection::vec(value_edit(), 1..4)) {
        check_experiment(file, &edits);
    }

    #[test]
    fn agent_files(file in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..6)) {
        check_agents(file, &edits);
    }

    #[test]
    fn agent_values(file in any::<prop::sample::Index>(), edits in prop::collection::vec(value_edit(), 1..4)) {
        check_agents(file, &edits);
    }

    #[test]
    fn flow_puzzles(file in any::<prop::sample::Index>(), edits in prop::collection::vec(edit(), 0..6)) {
        let seeds = files("matchups/puzzles/flow", ".txt");
        let (path, text) = &seeds[file.index(seeds.len())];
        let mutated = apply(text, &edits);
        let name = path.display().to_string();
        if let Err(error) = Puzzle::parse(&name, &mutated) {
            assert_one_line_naming(&error.to_string(), &name);
        }
    }

    #[test]
    fn word_sudoku_grids_and_banks(pair in 1..4usize, grid_edits in prop::collection::vec(edit(), 0..4), bank_edits in prop::collection::vec(edit(), 0..4)) {
        let folder = repository().join("matchups/puzzles/word-sudoku");
        let grid_path = folder.join(format!("grid{pair}.txt"));
        let bank_path = folder.join(format!("bank{pair}.txt"));
        let grid = apply(&fs::read_to_string(&grid_path).expect("grid"), &grid_edits);
        let bank = apply(&fs::read_to_string(&bank_path).expect("bank"), &bank_edits);
        let (grid_name, bank_name) = (grid_path.display().to_string(), bank_path.display().to_string());
        if let Err(error) = arbiter::csp::word_sudoku::Puzzle::parse(&grid_name, &grid, &bank_name, &bank) {
            let message = error.to_string();
            assert!(!message.contains('\n'), "{message:?}");
            assert!(message.contains(&grid_name) || message.contains(&bank_name), "{message}");
        }
    }

    #[test]
    fn move_lists_of_every_game(game in 0..GAME_SPECS.len(), seed in any::<u64>(), edits in prop::collection::vec(edit(), 0..5)) {
        let spec: GameSpec = GAME_SPECS[game].parse().expect("game");
        dispatch(spec, MutatedReplay { seed, edits });
    }
}

/// Parses one of the shipped experiment files, changed by `edits`.
fn check_experiment(file: prop::sample::Index, edits: &[Edit]) {
    let seeds = files("matchups", ".toml");
    let (path, text) = &seeds[file.index(seeds.len())];
    let registry = AgentRegistry::load(&repository().join("agents")).expect("agents");
    if let Err(error) = AnyExperiment::parse(path, apply(text, edits), &registry) {
        assert_one_line_naming(&error.to_string(), &file_name(path));
    }
}

/// Parses one of the shipped agent files, changed by `edits`.
fn check_agents(file: prop::sample::Index, edits: &[Edit]) {
    let seeds = files("agents", ".toml");
    let (path, text) = &seeds[file.index(seeds.len())];
    let mut registry = AgentRegistry::default();
    if let Err(error) = registry.add_text(path, &apply(text, edits)) {
        assert_one_line_naming(&error.to_string(), &file_name(path));
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned()
}

/// Every game and rule set a move list can be written for.
const GAME_SPECS: &[&str] = &[
    "breakthrough",
    "breakthrough(rules=long)",
    "breakthrough(rules=three-to-base)",
    "wights",
    "double-card",
    "chinese-checkers",
];

/// Plays random moves, writes them as a move list, mutates it and replays it.
struct MutatedReplay {
    seed: u64,
    edits: Vec<Edit>,
}

impl GameTask for MutatedReplay {
    type Output = ();

    fn run<G: GameEntry>(self, start: G) {
        let mut rng = seeds::rng(self.seed);
        let mut state = start.clone();
        let mut text = String::new();
        let mut moves = Vec::new();
        for _ in 0..40 {
            if state.outcome().is_some() {
                break;
            }
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[seeds::below(&mut rng, moves.len())];
            state.write_move(mv, &mut text);
            text.push('\n');
            state.apply(mv);
        }
        let mutated = apply(&text, &self.edits);
        let listed = read_moves(&mutated);
        if let Err(error) = arbiter::games::replay(&start, listed.iter().map(|(_, m)| m.as_str())) {
            let message = error.to_string();
            assert!(!message.contains('\n'), "{message:?}");
            assert!(message.contains("ply"), "{message}");
        }
    }
}

#[test]
fn the_mutations_reach_the_parsers_limits() {
    // The tokens above are what the property tests splice in; make sure a few of them,
    // placed where a number belongs, are rejected with the key named.
    let path = Path::new("probe.toml");
    let registry = AgentRegistry::default();
    for (text, key) in [
        (
            "game = \"breakthrough\"\ngames = -1\nmatchups = [[\"random\", \"random\"]]\n",
            "line 2",
        ),
        (
            "game = \"breakthrough\"\nmove_time_ms = 0\nmatchups = [[\"random\", \"random\"]]\n",
            "line 2",
        ),
        (
            "kind = \"puzzles\"\nsolvers = [\"sat\"]\npuzzles = []\ntime_limit = nan\n",
            "probe.toml",
        ),
    ] {
        let Err(error) = AnyExperiment::parse(path, text.to_string(), &registry) else {
            panic!("accepted: {text}");
        };
        assert_one_line_naming(&error.to_string(), key);
    }
}
