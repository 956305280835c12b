//! The files a run folder may hold, what each holds, which attribute the Python package
//! reads each CSV file into, and the kind of every column that is not read as a number:
//! one list for the documents' file list and the Python package's data frames.

/// One file (or folder) a run folder may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunFile {
    /// Its name in the run folder.
    pub name: &'static str,
    /// The Python package's attribute of a run that reads it as a data frame, for CSV
    /// files.
    pub frame: Option<&'static str>,
    /// What it holds, for a reader of the report's file list (empty: not described).
    pub holds: &'static str,
}

const fn file(name: &'static str, frame: Option<&'static str>, holds: &'static str) -> RunFile {
    RunFile { name, frame, holds }
}

/// Every file a run of any kind writes, in the order the Python package lists its frames.
pub const FILES: &[RunFile] = &[
    file(
        "games.csv",
        Some("games"),
        "one row per game (agents, seed, result, reason, counts, moves)",
    ),
    file(
        "moves.csv",
        Some("moves"),
        "one row per move (agent, ms, nodes, root value)",
    ),
    file(
        "summary.csv",
        Some("summary"),
        "one row per matchup and agent (the results table)",
    ),
    file(
        "nodes_by_depth.csv",
        Some("nodes_by_depth"),
        "nodes per search level per agent",
    ),
    file(
        "search.csv",
        Some("search"),
        "one row per position, algorithm and depth",
    ),
    file(
        "search_summary.csv",
        Some("search_summary"),
        "the comparison table",
    ),
    file(
        "search_levels.csv",
        Some("search_levels"),
        "nodes per position, search and level (search.csv's nodes_by_level, tidy)",
    ),
    file(
        "solves.csv",
        Some("solves"),
        "one row per solve (with its solution in one line)",
    ),
    file(
        "reproduction.csv",
        Some("reproduction"),
        "the published numbers beside arbiter's, with the check made and the verdict",
    ),
    file(
        "rounds.csv",
        Some("rounds"),
        "one row per board of each round (the two players, their points, games played)",
    ),
    file(
        "standings.csv",
        Some("standings"),
        "the final ranking (points or rounds reached, Buchholz, why a player was left out)",
    ),
    file(
        "tune.csv",
        Some("tune"),
        "the tuned parameters' values at the start of every iteration, and its result",
    ),
    file(
        "tune_games.csv",
        Some("tune_games"),
        "one row per game of the tuning run (stage, iteration, players, score)",
    ),
    file(
        "tables.csv",
        Some("table_games"),
        "one row per game at a table (table, deal, rotation, seed, each seat's agent, return, place, counts; the opening, with openings; the moves)",
    ),
    file(
        "table_summary.csv",
        Some("table_summary"),
        "the standings of a table run (win rate, mean place, mean return, rating)",
    ),
    file(
        "ahead.csv",
        Some("ahead"),
        "who finished ahead of whom at the tables (the row agent's share)",
    ),
    file(
        "seats.csv",
        Some("seats"),
        "each seat's win rate and mean return at the tables",
    ),
    file(
        "grades.csv",
        Some("grades"),
        "every move graded against perfect play (`arbiter grade`, `grade = true`)",
    ),
    file(
        "fit.csv",
        Some("fit"),
        "linear weights fitted to the games (`arbiter fit`)",
    ),
    file(
        "games.pgn",
        None,
        "every game as tags and moves (`arbiter replay GAME games.pgn --id N`)",
    ),
    file(
        "meta.json",
        None,
        "what was run (experiment, seed, agents, status)",
    ),
    file(
        "summary.json",
        None,
        "the summary table as JSON (`arbiter show --json`)",
    ),
    file(
        "journal.jsonl",
        None,
        "finished jobs of an unfinished run, for `--resume`",
    ),
    file(
        "records.jsonl",
        None,
        "a shard's finished jobs, for `arbiter merge`",
    ),
    file("logs", None, "external agents' stderr"),
];

/// The file named `name`, if a run writes one so named.
pub fn run_file(name: &str) -> Option<&'static RunFile> {
    FILES.iter().find(|f| f.name == name)
}

/// The files of a run folder a reader may open, sorted, with their sizes: everything but
/// the documents being written, the lock and hidden files.
pub fn folder_files(folder: &std::path::Path) -> Vec<(String, u64)> {
    let mut files: Vec<(String, u64)> = std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|entry| {
                    let name = entry.file_name().into_string().ok()?;
                    let meta = entry.metadata().ok()?;
                    let skip = name.starts_with('.')
                        || ["report.md", "index.html", "lock"].contains(&name.as_str());
                    (!skip).then(|| (name, if meta.is_dir() { 0 } else { meta.len() }))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Columns of the CSV files that hold text, so a reader keeps them text even when every
/// cell is empty (the Python package reads them as pandas' "string" dtype).
pub const TEXT_COLUMNS: &[&str] = &[
    "game",
    "rules",
    "p1_agent",
    "p2_agent",
    "p3_agent",
    "p4_agent",
    "p5_agent",
    "p6_agent",
    "seat",
    "winner",
    "winner_agent",
    "reason",
    "opening",
    "moves",
    "side",
    "agent",
    "move",
    "fault",
    "opponent",
    "pairs",
    "sprt",
    "wins_by",
    "losses_by",
    "draws_by",
    "algorithm",
    "nodes_by_level",
    "reference",
    "solver",
    "puzzle",
    "status",
    "solution",
    "quantity",
    "verdict",
    "before",
    "after",
    "source",
    "note",
    "board",
    "first",
    "second",
    "parameter",
    "left_out",
];

/// Columns that hold fractions and may be empty (timings, values): read as floats.
pub const FLOAT_COLUMNS: &[&str] = &[
    "cpu_ms",
    "clock_ms",
    "value",
    "llr",
    "ms",
    "avg_ms_per_move",
    "p1_return",
    "p2_return",
    "p3_return",
    "p4_return",
    "p5_return",
    "p6_return",
    "mean_return",
    "mean_return_low95",
    "mean_return_high95",
    "pair_return_low95",
    "pair_return_high95",
    "error_rate",
    "error_rate_low95",
    "error_rate_high95",
    "fastest_rate",
    "fastest_rate_low95",
    "fastest_rate_high95",
    "avg_plies_added",
    "ratio",
];

/// Counts that may be empty (nothing measured: a grade without distances, a position the
/// oracle could not reach): read as nullable integers, not as floats.
pub const COUNT_COLUMNS: &[&str] = &[
    "graded_moves",
    "errors",
    "blunders",
    "winning_moves",
    "fastest_wins",
    "plies_left_before",
    "plies_left_after",
];

/// Columns of unsigned 64-bit numbers (seeds), beyond what a signed reader holds.
pub const UNSIGNED_COLUMNS: &[&str] = &["seed"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_says_what_it_holds() {
        let silent: Vec<&str> = FILES
            .iter()
            .filter(|f| f.holds.trim().is_empty())
            .map(|f| f.name)
            .collect();
        assert!(silent.is_empty(), "no description: {silent:?}");
    }

    #[test]
    fn every_file_is_listed_once_and_every_column_has_one_kind() {
        for (i, f) in FILES.iter().enumerate() {
            assert!(
                FILES[i + 1..].iter().all(|g| g.name != f.name),
                "{} twice",
                f.name
            );
            assert_eq!(f.frame.is_some(), f.name.ends_with(".csv"), "{}", f.name);
        }
        let kinds = [TEXT_COLUMNS, FLOAT_COLUMNS, UNSIGNED_COLUMNS, COUNT_COLUMNS];
        for (i, kind) in kinds.iter().enumerate() {
            for column in *kind {
                assert_eq!(
                    kinds.iter().filter(|k| k.contains(column)).count(),
                    1,
                    "{column} is of {} kinds",
                    kinds.len() - i
                );
            }
        }
    }

    /// The text columns of a real run's files are all listed: a column of words that is
    /// missing would be read as numbers (or floats when empty) by the Python package.
    #[test]
    fn the_text_columns_of_the_golden_run_are_listed() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/quick");
        for name in [
            "games.csv",
            "moves.csv",
            "summary.csv",
            "nodes_by_depth.csv",
        ] {
            let path = folder.join(name);
            let mut reader = csv::Reader::from_path(&path).expect("golden file");
            let headers = reader.headers().expect("header").clone();
            for record in reader.records() {
                let record = record.expect("row");
                for (column, cell) in headers.iter().zip(record.iter()) {
                    let numeric = cell.is_empty() || cell.parse::<f64>().is_ok();
                    assert!(
                        numeric || TEXT_COLUMNS.contains(&column),
                        "{name}: column {column} holds text ('{cell}') but is not in TEXT_COLUMNS"
                    );
                }
            }
        }
    }
}
