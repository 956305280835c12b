//! Published values an experiment reproduces (`[[reference]]` tables): which row of the
//! run's summary they concern, which quantity, the value and its source. Read from the
//! experiment's text when it is checked and again when a run's documents are written (the
//! text is kept in meta.json), so a results folder carries its references with it.

use super::spec::SpecError;
use serde::Serialize;

/// The kind of experiment a reference belongs to, which decides its keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceKind {
    /// Games: `matchup` (0-based, as listed) and `agent` select a summary.csv row.
    Games,
    /// Searches: `algorithm` and `depth` select a search_summary.csv row.
    Search,
    /// Puzzles: `puzzle` (file name) and `solver` select the runs in solves.csv.
    Puzzles,
}

/// How a quantity is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Measure {
    /// A count of successes out of a sample (`games` or `runs`): interval and Fisher test.
    Rate,
    /// A count or mean: the ratio, within a tolerance (default 10%).
    Count,
    /// A time: the ratio, "not comparable" unless a tolerance is given (other machines,
    /// other languages).
    Time,
}

impl ReferenceKind {
    /// The quantities a reference of this kind may give, and how each is compared.
    pub fn quantities(self) -> &'static [(&'static str, Measure)] {
        match self {
            ReferenceKind::Games => &[
                ("wins", Measure::Rate),
                ("losses", Measure::Rate),
                ("draws", Measure::Rate),
                ("wins_as_p1", Measure::Rate),
                ("avg_expanded_per_move", Measure::Count),
                ("avg_evaluated_per_move", Measure::Count),
                ("avg_generated_per_move", Measure::Count),
                ("avg_captures", Measure::Count),
                ("avg_plies", Measure::Count),
                ("avg_ms_per_move", Measure::Time),
            ],
            ReferenceKind::Search => &[
                ("mean_expanded", Measure::Count),
                ("median_expanded", Measure::Count),
                ("mean_evaluated", Measure::Count),
                ("mean_generated", Measure::Count),
                ("effective_branching", Measure::Count),
                ("share_of_minimax_nodes", Measure::Count),
                ("mean_ms", Measure::Time),
            ],
            ReferenceKind::Puzzles => &[
                ("solved", Measure::Rate),
                ("placed", Measure::Count),
                ("assignments", Measure::Count),
                ("nodes", Measure::Count),
                ("backtracks", Measure::Count),
                ("ms", Measure::Time),
            ],
        }
    }

    /// The two keys that select a reference's row (and name reproduction.csv's first
    /// columns).
    pub fn selectors(self) -> [&'static str; 2] {
        match self {
            ReferenceKind::Games => ["matchup", "agent"],
            ReferenceKind::Search => ["algorithm", "depth"],
            ReferenceKind::Puzzles => ["puzzle", "solver"],
        }
    }

    /// The key giving a rate's published sample size.
    pub fn sample_key(self) -> &'static str {
        match self {
            ReferenceKind::Puzzles => "runs",
            _ => "games",
        }
    }
}

/// One published value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reference {
    /// The line of its table in the experiment file, if found.
    #[serde(skip)]
    pub line: Option<usize>,
    /// The two selector values (matchup and agent, algorithm and depth, puzzle and
    /// solver), as text.
    pub row: [String; 2],
    /// The quantity (a column name of the summary it is compared with).
    pub quantity: String,
    /// How it is compared.
    pub measure: Measure,
    /// The published value.
    pub value: f64,
    /// The published sample size (rates).
    pub sample: Option<u64>,
    /// The largest relative difference that still agrees (counts and times).
    pub tolerance: Option<f64>,
    /// False when the published number cannot be reproduced at all (the note says why).
    pub comparable: bool,
    /// Where the number was published.
    pub source: String,
    /// Why it differs, when that is known.
    pub note: String,
}

impl Reference {
    /// What the reference is about, in words: `matchup 0, ab4-offensive2: wins`.
    pub fn what(&self, kind: ReferenceKind) -> String {
        let [a, b] = &self.row;
        match kind {
            ReferenceKind::Games => format!("matchup {a}, {b}: {}", self.quantity),
            ReferenceKind::Search => format!("{a} depth {b}: {}", self.quantity),
            ReferenceKind::Puzzles => format!("{a}, {b}: {}", self.quantity),
        }
    }
}

/// The references of an experiment read from `path`, each checked against the experiment
/// by `problem` (what is wrong with its row, if anything).
///
/// # Errors
/// The first reference that is malformed or whose row the experiment does not have, with
/// the file and line.
pub fn checked_references(
    path: &std::path::Path,
    source: &str,
    kind: ReferenceKind,
    problem: impl Fn(&Reference) -> Option<String>,
) -> Result<Vec<Reference>, super::InputError> {
    let references = parse_references(source, kind)
        .map_err(|(line, message)| super::InputError::in_file(path, line, message))?;
    for (index, reference) in references.iter().enumerate() {
        if let Some(problem) = problem(reference) {
            return Err(super::InputError::in_file(
                path,
                reference.line,
                format!("reference {}: {problem}", index + 1),
            ));
        }
    }
    Ok(references)
}

/// The line of the `index`-th `[[reference]]` header of `source` (0-based), if written so.
fn header_line(source: &str, index: usize) -> Option<usize> {
    source
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("[[reference]]"))
        .nth(index)
        .map(|(i, _)| i + 1)
}

/// The `[[reference]]` tables of an experiment's text, checked for shape: known keys, one
/// quantity, a source, a sample size for rates. Line numbers come with every error.
///
/// # Errors
/// `(line, message)` for the first table that is wrong.
pub fn parse_references(
    source: &str,
    kind: ReferenceKind,
) -> Result<Vec<Reference>, (Option<usize>, String)> {
    let value: toml::Table = toml::from_str(source).map_err(|e| (None, e.message().to_string()))?;
    let Some(list) = value.get("reference") else {
        return Ok(Vec::new());
    };
    let fallback = super::line_of_key(source, "reference");
    let Some(list) = list.as_array() else {
        return Err((
            fallback,
            "reference must be an array of tables ([[reference]])".to_string(),
        ));
    };
    let mut references = Vec::new();
    for (index, item) in list.iter().enumerate() {
        let line = header_line(source, index).or(fallback);
        let fail = |message: String| (line, format!("reference {}: {message}", index + 1));
        let Some(table) = item.as_table() else {
            return Err(fail("expected a table of keys".to_string()));
        };
        references.push(parse_one(table, kind, line).map_err(|e| fail(e.message))?);
    }
    Ok(references)
}

fn parse_one(
    table: &toml::Table,
    kind: ReferenceKind,
    line: Option<usize>,
) -> Result<Reference, SpecError> {
    let selectors = kind.selectors();
    let sample_key = kind.sample_key();
    let quantities = kind.quantities();
    let mut quantity: Option<(&str, Measure, f64)> = None;
    for (key, value) in table {
        let known = selectors.contains(&key.as_str())
            || [sample_key, "tolerance", "comparable", "source", "note"].contains(&key.as_str());
        if known {
            continue;
        }
        let Some(&(name, measure)) = quantities.iter().find(|(q, _)| q == key) else {
            let names: Vec<&str> = quantities.iter().map(|(q, _)| *q).collect();
            return Err(SpecError::at(
                key.as_str(),
                format!(
                    "unknown key '{key}' (a reference takes {}, {}, one of {}, {sample_key} for counts, source, note, tolerance, comparable)",
                    selectors[0],
                    selectors[1],
                    names.join(", ")
                ),
            ));
        };
        let number = value
            .as_float()
            .or_else(|| value.as_integer().map(|i| i as f64))
            .filter(|n| n.is_finite() && *n >= 0.0)
            .ok_or_else(|| {
                SpecError::at(
                    key.as_str(),
                    format!("{key} must be a number of at least 0, found {value}"),
                )
            })?;
        if let Some((other, _, _)) = quantity {
            return Err(SpecError::new(format!(
                "gives both {other} and {key}: one published number per reference"
            )));
        }
        quantity = Some((name, measure, number));
    }
    let Some((name, measure, value)) = quantity else {
        let names: Vec<&str> = quantities.iter().map(|(q, _)| *q).collect();
        return Err(SpecError::new(format!(
            "no published number: give one of {}",
            names.join(", ")
        )));
    };
    let text = |key: &str| -> Result<Option<String>, SpecError> {
        match table.get(key) {
            None => Ok(None),
            Some(toml::Value::String(s)) => Ok(Some(s.clone())),
            Some(toml::Value::Integer(i)) => Ok(Some(i.to_string())),
            Some(other) => Err(SpecError::at(
                key,
                format!("{key} must be a string, found {other}"),
            )),
        }
    };
    let mut row = [String::new(), String::new()];
    for (slot, key) in row.iter_mut().zip(selectors) {
        *slot = text(key)?
            .ok_or_else(|| SpecError::new(format!("{key} is missing (which row it is)")))?;
    }
    if kind == ReferenceKind::Games && row[0].parse::<usize>().is_err() {
        return Err(SpecError::new(format!(
            "matchup = {}: the matchup's position in the list, from 0",
            row[0]
        )));
    }
    let source = text("source")?
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| {
            SpecError::at(
                "source",
                "source is missing (where the number was published)",
            )
        })?;
    let note = text("note")?.unwrap_or_default();
    let sample =
        match table.get(sample_key) {
            None => None,
            Some(v) => Some(v.as_integer().filter(|&n| n > 0).ok_or_else(|| {
                SpecError::new(format!("{sample_key} must be a whole number above 0"))
            })? as u64),
        };
    if measure == Measure::Rate {
        let Some(n) = sample else {
            return Err(SpecError::new(format!(
                "{name} = {value} needs {sample_key} (out of how many it was counted)"
            )));
        };
        if value.fract() != 0.0 || value > n as f64 {
            return Err(SpecError::new(format!(
                "{name} = {value} must be a whole number of at most {sample_key} = {n}"
            )));
        }
    } else if sample.is_some() {
        return Err(SpecError::new(format!(
            "{sample_key} applies to counts out of a sample ({}), not to {name}",
            quantities
                .iter()
                .filter(|(_, m)| *m == Measure::Rate)
                .map(|(q, _)| *q)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let tolerance = match table.get("tolerance") {
        None => None,
        Some(v) => Some(
            v.as_float()
                .or_else(|| v.as_integer().map(|i| i as f64))
                .filter(|t| (0.0..=10.0).contains(t))
                .ok_or_else(|| {
                    SpecError::at(
                        "tolerance",
                        "tolerance must be a relative difference from 0 to 10 (0.1 = 10%)",
                    )
                })?,
        ),
    };
    let comparable = match table.get("comparable") {
        None => true,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| SpecError::at("comparable", "comparable must be true or false"))?,
    };
    Ok(Reference {
        line,
        row,
        quantity: name.to_string(),
        measure,
        value,
        sample,
        tolerance,
        comparable,
        source,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str, kind: ReferenceKind) -> Result<Vec<Reference>, (Option<usize>, String)> {
        parse_references(text, kind)
    }

    #[test]
    fn references_parse_with_their_lines() {
        let text = "game = \"x\"\n\n[[reference]]\nmatchup = 0\nagent = \"a\"\nwins = 94\ngames = 100\nsource = \"report 000\"\n\n[[reference]]\nmatchup = 1\nagent = \"b\"\navg_ms_per_move = 2.5\nsource = \"r\"\nnote = \"Python\"\n";
        let refs = parse(text, ReferenceKind::Games).expect("valid");
        assert_eq!(refs.len(), 2);
        assert_eq!(refs[0].line, Some(3));
        assert_eq!(refs[0].row, ["0".to_string(), "a".to_string()]);
        assert_eq!(
            (refs[0].quantity.as_str(), refs[0].value, refs[0].sample),
            ("wins", 94.0, Some(100))
        );
        assert_eq!(refs[1].line, Some(10));
        assert_eq!(refs[1].measure, Measure::Time);
        assert_eq!(refs[1].note, "Python");
        assert!(
            parse("game = \"x\"\n", ReferenceKind::Games)
                .expect("none")
                .is_empty()
        );
    }

    #[test]
    fn bad_references_name_the_line_and_problem() {
        let cases: [(&str, ReferenceKind, &str); 9] = [
            (
                "[[reference]]\nmatchup = 0\nagent = \"a\"\nwins = 4\nsource = \"s\"\n",
                ReferenceKind::Games,
                "wins = 4 needs games",
            ),
            (
                "[[reference]]\nmatchup = 0\nagent = \"a\"\nwins = 4\ngames = 3\nsource = \"s\"\n",
                ReferenceKind::Games,
                "at most games = 3",
            ),
            (
                "[[reference]]\nmatchup = 0\nagent = \"a\"\nwins = 4\ngames = 10\n",
                ReferenceKind::Games,
                "source is missing",
            ),
            (
                "[[reference]]\nmatchup = 0\nagent = \"a\"\nwin = 4\nsource = \"s\"\n",
                ReferenceKind::Games,
                "unknown key 'win'",
            ),
            (
                "[[reference]]\nmatchup = 0\nagent = \"a\"\nsource = \"s\"\n",
                ReferenceKind::Games,
                "no published number",
            ),
            (
                "[[reference]]\nagent = \"a\"\nwins = 1\ngames = 2\nsource = \"s\"\n",
                ReferenceKind::Games,
                "matchup is missing",
            ),
            (
                "[[reference]]\npuzzle = \"p\"\nsolver = \"smart\"\nplaced = 1\nnodes = 2\nsource = \"s\"\n",
                ReferenceKind::Puzzles,
                "both",
            ),
            (
                "[[reference]]\npuzzle = \"p\"\nsolver = \"smart\"\nplaced = 1\nruns = 5\nsource = \"s\"\n",
                ReferenceKind::Puzzles,
                "runs applies to counts out of a sample (solved)",
            ),
            (
                "[[reference]]\nalgorithm = \"minimax\"\ndepth = 2\nmean_expanded = -1\nsource = \"s\"\n",
                ReferenceKind::Search,
                "at least 0",
            ),
        ];
        for (text, kind, expected) in cases {
            let (line, message) = parse(text, kind).expect_err(text);
            assert_eq!(line, Some(1), "{text}");
            assert!(message.starts_with("reference 1: "), "{message}");
            assert!(message.contains(expected), "{expected}: {message}");
        }
    }
}
