//! Published values beside arbiter's: each `[[reference]]` of the run's experiment (kept
//! in meta.json) is looked up in the run's summary and given a verdict.
//!
//! * Counts out of a sample (wins, draws, puzzles solved): arbiter's 95% Wilson interval
//!   and a two-sided Fisher exact test of the two samples; "agrees" when the test does not
//!   reject equal rates at the 5% level (p >= 0.05), so a small published sample is not
//!   held to a precision it never had.
//! * Counts and means (nodes, assignments, captures, plies): the ratio arbiter/published;
//!   "agrees" within the reference's `tolerance` (default 10%).
//! * Times: the ratio, but "not comparable" unless the reference sets a tolerance: the
//!   reports ran other code on other machines.
//! * A number arbiter has no figure for (a matchup not played, a puzzle never solved) or
//!   marked `comparable = false` is "not comparable".

use super::section::Section;
use super::table::Table;
use crate::records::RunKind;
use crate::records::load::CsvCells;
use crate::records::loaded::{LoadedRun, RunTables};
use crate::records::rows::SolveRow;
use crate::registry::InputError;
use crate::registry::reference::{Measure, Reference, ReferenceKind, parse_references};
use crate::stats::{Z95, fisher_exact, wilson_interval};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The file of a run's reproduction checks.
pub const REPRODUCTION: &str = "reproduction.csv";

/// The significance level of the Fisher test.
const ALPHA: f64 = 0.05;

/// The default relative tolerance of counts.
const TOLERANCE: f64 = 0.10;

/// A verdict on one published number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// arbiter's figure agrees.
    Agrees,
    /// It differs beyond chance or tolerance.
    Differs,
    /// The two cannot be compared.
    NotComparable,
}

impl Verdict {
    /// `agrees`, `differs`, `not comparable`.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Agrees => "agrees",
            Verdict::Differs => "differs",
            Verdict::NotComparable => "not comparable",
        }
    }
}

/// arbiter's figure for a reference: the value, and for rates the count and sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observed {
    /// The value (for rates, the count).
    pub value: f64,
    /// For rates, the sample size.
    pub sample: Option<u64>,
}

/// Why arbiter has no figure for a reference (not played, no such row, never solved):
/// shown in the table instead of a verdict; not an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unobserved(pub String);

impl From<&str> for Unobserved {
    fn from(why: &str) -> Unobserved {
        Unobserved(why.to_string())
    }
}

impl From<String> for Unobserved {
    fn from(why: String) -> Unobserved {
        Unobserved(why)
    }
}

/// One published number checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The reference.
    pub reference: Reference,
    /// arbiter's figure, if it has one.
    pub observed: Option<Observed>,
    /// Rates: arbiter's 95% interval.
    pub interval: Option<(f64, f64)>,
    /// Rates: the Fisher exact test's p-value.
    pub fisher_p: Option<f64>,
    /// Counts and times: arbiter / published.
    pub ratio: Option<f64>,
    /// The verdict.
    pub verdict: Verdict,
    /// Why not comparable, when it is not.
    pub why: String,
}

/// The verdict on `reference` given arbiter's figure (or why there is none).
pub fn check(reference: &Reference, observed: Result<Observed, Unobserved>) -> Check {
    let mut result = Check {
        reference: reference.clone(),
        observed: observed.as_ref().ok().copied(),
        interval: None,
        fisher_p: None,
        ratio: None,
        verdict: Verdict::NotComparable,
        why: String::new(),
    };
    let observed = match observed {
        Ok(observed) => observed,
        Err(Unobserved(why)) => {
            result.why = why;
            return result;
        }
    };
    match reference.measure {
        Measure::Rate => {
            let (k, n) = (reference.value as u64, reference.sample.unwrap_or(0));
            let (ka, na) = (observed.value as u64, observed.sample.unwrap_or(0));
            if na == 0 {
                result.why = "no games or runs to compare".to_string();
            } else {
                result.interval = Some(wilson_interval(ka, na, Z95));
                let p = fisher_exact(k, n.saturating_sub(k), ka, na.saturating_sub(ka));
                result.fisher_p = Some(p);
                result.verdict = if p >= ALPHA {
                    Verdict::Agrees
                } else {
                    Verdict::Differs
                };
            }
        }
        Measure::Count | Measure::Time => {
            let ratio = if reference.value == 0.0 {
                if observed.value == 0.0 {
                    1.0
                } else {
                    f64::INFINITY
                }
            } else {
                observed.value / reference.value
            };
            result.ratio = Some(ratio);
            let tolerance = match (reference.measure, reference.tolerance) {
                (_, Some(t)) => Some(t),
                (Measure::Time, None) => None,
                _ => Some(TOLERANCE),
            };
            match tolerance {
                Some(t) => {
                    result.verdict = if (ratio - 1.0).abs() <= t + 1e-12 {
                        Verdict::Agrees
                    } else {
                        Verdict::Differs
                    };
                }
                None => {
                    result.why = "other code, other machine".to_string();
                }
            }
        }
    }
    if !reference.comparable {
        result.verdict = Verdict::NotComparable;
        if result.why.is_empty() {
            result.why = "see the note".to_string();
        }
    }
    result
}

/// The references of the run in `folder` and their checks; `None` when its experiment
/// gives none (or the folder has no meta.json).
///
/// # Errors
/// A summary file that cannot be read, or references that no longer parse.
pub fn checks(run: &LoadedRun) -> Result<Option<(ReferenceKind, Vec<Check>)>, InputError> {
    let folder = &run.folder;
    let Some(meta) = &run.meta else {
        return Ok(None);
    };
    let kind = match meta.kind {
        RunKind::Puzzles => ReferenceKind::Puzzles,
        RunKind::Search => ReferenceKind::Search,
        // Tuning runs reproduce no published table.
        RunKind::Tune | RunKind::Tables => return Ok(None),
        RunKind::Tournament => ReferenceKind::Games,
    };
    let references = parse_references(&meta.experiment_source, kind)
        .map_err(|(line, e)| InputError::in_file(&meta.experiment_file, line, e))?;
    if references.is_empty() {
        return Ok(None);
    }
    let checks: Vec<Check> = match kind {
        ReferenceKind::Games => {
            let rows = run
                .summary_cells
                .as_ref()
                .map(CsvCells::maps)
                .ok_or_else(|| InputError::in_file(folder, None, "no summary.csv"))?;
            references
                .iter()
                .map(|r| check(r, games_figure(&rows, r)))
                .collect()
        }
        ReferenceKind::Search => {
            // A search run stopped before its summary has no figures yet.
            let rows = run
                .summary_cells
                .as_ref()
                .map(CsvCells::maps)
                .unwrap_or_default();
            references
                .iter()
                .map(|r| check(r, search_figure(&rows, r)))
                .collect()
        }
        ReferenceKind::Puzzles => {
            let rows = match &run.tables {
                RunTables::Puzzles(rows) => rows.as_slice(),
                RunTables::Games(_)
                | RunTables::Search(_)
                | RunTables::Tune(..)
                | RunTables::Tables(_) => &[],
            };
            references
                .iter()
                .map(|r| check(r, puzzle_figure(rows, r)))
                .collect()
        }
    };
    Ok(Some((kind, checks)))
}

fn number(row: &BTreeMap<String, String>, column: &str) -> Option<f64> {
    row.get(column)
        .and_then(|c| c.parse::<f64>().ok())
        .filter(|v| v.is_finite())
}

fn games_figure(rows: &[BTreeMap<String, String>], r: &Reference) -> Result<Observed, Unobserved> {
    let row = rows
        .iter()
        .find(|row| row.get("matchup") == Some(&r.row[0]) && row.get("agent") == Some(&r.row[1]))
        .ok_or("no such row in summary.csv")?;
    let games = number(row, "games").unwrap_or(0.0);
    if games == 0.0 {
        return Err("not played".into());
    }
    let value = number(row, &r.quantity).ok_or_else(|| format!("no {} figure", r.quantity))?;
    let sample = match r.measure {
        Measure::Rate if r.quantity == "wins_as_p1" => {
            Some(number(row, "games_as_p1").unwrap_or(0.0) as u64)
        }
        Measure::Rate => Some(games as u64),
        _ => None,
    };
    Ok(Observed { value, sample })
}

fn search_figure(rows: &[BTreeMap<String, String>], r: &Reference) -> Result<Observed, Unobserved> {
    let row = rows
        .iter()
        .find(|row| row.get("algorithm") == Some(&r.row[0]) && row.get("depth") == Some(&r.row[1]))
        .ok_or("not searched")?;
    let value = number(row, &r.quantity).ok_or_else(|| format!("no {} figure", r.quantity))?;
    Ok(Observed {
        value,
        sample: None,
    })
}

fn puzzle_figure(rows: &[SolveRow], r: &Reference) -> Result<Observed, Unobserved> {
    let runs: Vec<&SolveRow> = rows
        .iter()
        .filter(|row| row.puzzle == r.row[0] && row.solver == r.row[1])
        .collect();
    if runs.is_empty() {
        return Err("not run".into());
    }
    let solved: Vec<&SolveRow> = runs
        .iter()
        .copied()
        .filter(|row| row.status == "solved")
        .collect();
    if r.quantity == "solved" {
        return Ok(Observed {
            value: solved.len() as f64,
            sample: Some(runs.len() as u64),
        });
    }
    if solved.is_empty() {
        return Err(format!("never solved ({})", runs[0].status).into());
    }
    let values: Vec<f64> = solved
        .iter()
        .map(|row| match r.quantity.as_str() {
            "placed" => row.placed as f64,
            "assignments" => row.assignments as f64,
            "nodes" => row.nodes as f64,
            "backtracks" => row.backtracks as f64,
            _ => row.ms,
        })
        .collect();
    // Times: the median of the solved runs; counts: their mean.
    let value = if r.quantity == "ms" {
        crate::records::load::five_numbers(&values).map_or(0.0, |f| f[2])
    } else {
        values.iter().sum::<f64>() / values.len() as f64
    };
    Ok(Observed {
        value,
        sample: None,
    })
}

/// A number as a reader wants it: whole numbers with thousands separators, others with
/// three significant decimals at most.
fn show(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        let digits = format!("{}", value.abs() as u64);
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(c);
        }
        out
    } else if value.abs() >= 100.0 {
        format!("{value:.1}")
    } else if value.abs() >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

/// One line: how many published numbers arbiter reproduced.
pub fn summary_line(checks: &[Check]) -> String {
    let count = |v: Verdict| checks.iter().filter(|c| c.verdict == v).count();
    let (agree, differ, other) = (
        count(Verdict::Agrees),
        count(Verdict::Differs),
        count(Verdict::NotComparable),
    );
    let mut line = format!(
        "{agree} of {} published numbers reproduced ({differ} differ",
        agree + differ
    );
    if other > 0 {
        let _ = write!(line, "; {other} more not comparable");
    }
    line.push_str(").");
    line
}

/// The checks as a table: what, published, arbiter, the check made, the verdict, source.
pub fn table(kind: ReferenceKind, checks: &[Check]) -> Table {
    let headers = [
        "#",
        "published number",
        "published",
        "arbiter",
        "check",
        "verdict",
        "source",
    ];
    let rows = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let r = &c.reference;
            let published = match r.sample {
                Some(n) => format!("{}/{n} ({:.2})", show(r.value), r.value / n as f64),
                None => show(r.value),
            };
            let arbiter = match c.observed {
                Some(Observed {
                    value,
                    sample: Some(n),
                }) if n > 0 => format!("{}/{n} ({:.2})", show(value), value / n as f64),
                Some(o) => show(o.value),
                None => "-".to_string(),
            };
            let mut made = Vec::new();
            if let Some((low, high)) = c.interval {
                made.push(format!("95% {low:.2}-{high:.2}"));
            }
            if let Some(p) = c.fisher_p {
                made.push(format!(
                    "Fisher p {}",
                    if p < 0.001 {
                        "< 0.001".to_string()
                    } else {
                        format!("{p:.3}")
                    }
                ));
            }
            if let Some(ratio) = c.ratio {
                made.push(format!(
                    "ratio {}",
                    if ratio.is_finite() {
                        format!("{ratio:.3}")
                    } else {
                        "inf".to_string()
                    }
                ));
            }
            if !c.why.is_empty() {
                made.push(c.why.clone());
            }
            let marker = if r.note.is_empty() { "" } else { " *" };
            vec![
                (i + 1).to_string(),
                r.what(kind),
                published,
                arbiter,
                made.join(", "),
                format!("{}{marker}", c.verdict.label()),
                r.source.clone(),
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows,
    }
}

/// The notes of the references that have one, each text once with the rows it belongs
/// to: `Note 3: why it differs`, `Notes 17, 19, 20: the same reason for three rows`.
pub fn notes(checks: &[Check]) -> Vec<String> {
    let mut grouped: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        let note = c.reference.note.as_str();
        if note.is_empty() {
            continue;
        }
        match grouped.iter_mut().find(|(text, _)| *text == note) {
            Some((_, rows)) => rows.push(i + 1),
            None => grouped.push((note, vec![i + 1])),
        }
    }
    grouped
        .into_iter()
        .map(|(note, rows)| {
            let list: Vec<String> = rows.iter().map(ToString::to_string).collect();
            let word = if rows.len() == 1 { "Note" } else { "Notes" };
            format!("{word} {}: {note}", list.join(", "))
        })
        .collect()
}

/// What the verdicts mean, for the documents.
const METHOD: &str = "Each number the experiment's reports published, beside arbiter's. Counts out of a sample (wins, draws, puzzles solved): arbiter's 95% Wilson interval and a two-sided Fisher exact test of the two samples, \"agrees\" when p >= 0.05. Counts and means: the ratio arbiter/published, \"agrees\" within 10% unless the reference sets its own tolerance. Times: the ratio only, not comparable (other code, other machines). A star marks a note below the table.";

/// The Reproduction section of the documents, if the run's experiment has references.
///
/// # Errors
/// A summary file that cannot be read.
pub fn section(run: &LoadedRun) -> Result<Option<Section>, InputError> {
    let Some((kind, checks)) = checks(run)? else {
        return Ok(None);
    };
    Ok(Some(Section {
        title: "Reproduction of the published numbers".to_string(),
        text: vec![summary_line(&checks), METHOD.to_string()],
        tables: vec![table(kind, &checks)],
        charts: vec![],
        after: notes(&checks),
    }))
}

/// The checks as `show` prints them: the summary line, the table and the notes.
///
/// # Errors
/// A summary file that cannot be read.
pub fn text(run: &LoadedRun) -> Result<Option<String>, InputError> {
    let Some((kind, checks)) = checks(run)? else {
        return Ok(None);
    };
    // The sources are in the documents; the terminal gets the narrower table.
    let mut table = table(kind, &checks);
    table.headers.pop();
    for row in &mut table.rows {
        row.pop();
    }
    let mut out = format!(
        "reproduction: {}\n{}",
        summary_line(&checks),
        table.aligned()
    );
    for note in notes(&checks) {
        let _ = writeln!(out, "  {note}");
    }
    Ok(Some(out))
}

/// Writes reproduction.csv (one row per published number, with the figures compared and
/// the verdict) when the run's experiment has references; returns its path.
///
/// # Errors
/// A file that cannot be read or written.
pub fn write_csv(run: &LoadedRun) -> Result<Option<std::path::PathBuf>, InputError> {
    let Some((kind, checks)) = checks(run)? else {
        return Ok(None);
    };
    let path = run.folder.join(REPRODUCTION);
    crate::records::write_table(&path, |writer| {
        let [a, b] = kind.selectors();
        writer.write_record([
            a,
            b,
            "quantity",
            "published",
            "published_sample",
            "arbiter",
            "arbiter_sample",
            "low95",
            "high95",
            "fisher_p",
            "ratio",
            "verdict",
            "source",
            "note",
        ])?;
        let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
        for c in &checks {
            let r = &c.reference;
            writer.write_record([
                r.row[0].clone(),
                r.row[1].clone(),
                r.quantity.clone(),
                r.value.to_string(),
                r.sample.map_or(String::new(), |n| n.to_string()),
                opt(c.observed.map(|o| o.value)),
                c.observed
                    .and_then(|o| o.sample)
                    .map_or(String::new(), |n| n.to_string()),
                opt(c.interval.map(|i| i.0)),
                opt(c.interval.map(|i| i.1)),
                opt(c.fisher_p),
                opt(c.ratio),
                c.verdict.label().to_string(),
                r.source.clone(),
                r.note.clone(),
            ])?;
        }
        Ok(())
    })?;
    Ok(Some(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(quantity: &str, measure: Measure, value: f64, sample: Option<u64>) -> Reference {
        Reference {
            line: None,
            row: ["0".to_string(), "a".to_string()],
            quantity: quantity.to_string(),
            measure,
            value,
            sample,
            tolerance: None,
            comparable: true,
            source: "s".to_string(),
            note: String::new(),
        }
    }

    fn rate(count: f64, sample: u64) -> Result<Observed, Unobserved> {
        Ok(Observed {
            value: count,
            sample: Some(sample),
        })
    }

    fn value(value: f64) -> Result<Observed, Unobserved> {
        Ok(Observed {
            value,
            sample: None,
        })
    }

    #[test]
    fn rates_agree_unless_the_fisher_test_rejects_them() {
        // 3 of 4 against 1 of 4: p = 34/70 (tables 1, 16, 36, 16, 1 of 70).
        let published = reference("wins", Measure::Rate, 3.0, Some(4));
        let c = check(&published, rate(1.0, 4));
        assert_eq!(c.verdict, Verdict::Agrees);
        assert!((c.fisher_p.expect("tested") - 34.0 / 70.0).abs() < 1e-12);
        assert_eq!(c.interval, Some(wilson_interval(1, 4, Z95)));
        // 10 of 10 against none of 10: p = 2 / C(20, 10), far below 0.05.
        let published = reference("wins", Measure::Rate, 10.0, Some(10));
        let c = check(&published, rate(0.0, 10));
        assert_eq!(c.verdict, Verdict::Differs);
        assert!((c.fisher_p.expect("tested") - 2.0 / 184_756.0).abs() < 1e-15);
        // A published rate inside arbiter's interval is still judged by the test.
        let c = check(
            &reference("draws", Measure::Rate, 50.0, Some(100)),
            rate(50.0, 100),
        );
        assert_eq!((c.verdict, c.fisher_p), (Verdict::Agrees, Some(1.0)));
        // No games: nothing to compare.
        let c = check(&published, rate(0.0, 0));
        assert_eq!(c.verdict, Verdict::NotComparable);
    }

    #[test]
    fn counts_agree_within_their_tolerance_and_times_only_when_given_one() {
        let nodes = reference("avg_expanded_per_move", Measure::Count, 100.0, None);
        assert_eq!(check(&nodes, value(109.0)).verdict, Verdict::Agrees);
        assert_eq!(check(&nodes, value(91.0)).verdict, Verdict::Agrees);
        let c = check(&nodes, value(111.0));
        assert_eq!(c.verdict, Verdict::Differs);
        assert!((c.ratio.expect("ratio") - 1.11).abs() < 1e-12);
        let exact = Reference {
            tolerance: Some(0.0),
            ..reference("placed", Measure::Count, 440.0, None)
        };
        assert_eq!(check(&exact, value(440.0)).verdict, Verdict::Agrees);
        assert_eq!(check(&exact, value(441.0)).verdict, Verdict::Differs);
        let zero = reference("backtracks", Measure::Count, 0.0, None);
        assert_eq!(check(&zero, value(0.0)).verdict, Verdict::Agrees);
        assert_eq!(check(&zero, value(1.0)).verdict, Verdict::Differs);
        let ms = reference("ms", Measure::Time, 900.0, None);
        let c = check(&ms, value(9.0));
        assert_eq!(c.verdict, Verdict::NotComparable);
        assert!((c.ratio.expect("ratio") - 0.01).abs() < 1e-12);
        let same_machine = Reference {
            tolerance: Some(0.5),
            ..ms
        };
        assert_eq!(check(&same_machine, value(1300.0)).verdict, Verdict::Agrees);
        assert_eq!(
            check(&same_machine, value(1400.0)).verdict,
            Verdict::Differs
        );
    }

    #[test]
    fn missing_figures_and_marked_numbers_are_not_comparable_and_counted_apart() {
        let nodes = reference("nodes", Measure::Count, 10.0, None);
        let missing = check(&nodes, Err("not played".into()));
        assert_eq!(
            (missing.verdict, missing.why.as_str()),
            (Verdict::NotComparable, "not played")
        );
        let marked = Reference {
            comparable: false,
            ..nodes.clone()
        };
        assert_eq!(check(&marked, value(10.0)).verdict, Verdict::NotComparable);
        let checks = [
            check(&nodes, value(10.0)),
            check(&nodes, value(10.5)),
            check(&nodes, value(20.0)),
            missing,
        ];
        assert_eq!(
            summary_line(&checks),
            "2 of 3 published numbers reproduced (1 differ; 1 more not comparable)."
        );
    }

    #[test]
    fn a_note_shared_by_several_rows_is_printed_once() {
        let with = |note: &str| {
            check(
                &Reference {
                    note: note.to_string(),
                    ..reference("nodes", Measure::Count, 1.0, None)
                },
                value(1.0),
            )
        };
        let checks = [with("a"), with(""), with("b"), with("a")];
        assert_eq!(notes(&checks), ["Notes 1, 4: a", "Note 3: b"]);
    }

    #[test]
    fn numbers_are_shown_as_people_write_them() {
        assert_eq!(show(30_682_633.0), "30,682,633");
        assert_eq!(show(440.0), "440");
        assert_eq!(show(15_006.54), "15006.5");
        assert_eq!(show(6.894), "6.89");
        assert_eq!(show(0.1049), "0.105");
    }
}
