//! report.md and index.html: the header lines of a run, its sections, the game viewer and
//! the list of the folder's files, written as Markdown and as one HTML page.

use super::section::Section;
use super::table::escape;
use crate::records::RunKind;
use crate::records::loaded::LoadedRun;
use crate::registry::InputError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// An experiment file as a reader wants it: a relative path as it is, an absolute one from
/// its `matchups/` folder on (the project's), else its file name alone (the machine's
/// folders say nothing to a reader of the report).
fn shown_path(path: &str) -> String {
    let p = Path::new(path);
    if !p.is_absolute() {
        return path.to_string();
    }
    let parts: Vec<&std::ffi::OsStr> = p.iter().collect();
    if let Some(at) = parts.iter().rposition(|c| *c == "matchups") {
        return parts[at..]
            .iter()
            .map(|c| c.to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
    }
    p.file_name()
        .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn header_lines(run: &LoadedRun) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(meta) = &run.meta {
        lines.push(format!(
            "Experiment: {} ({})",
            meta.experiment,
            shown_path(&meta.experiment_file)
        ));
        if !meta.description.is_empty() {
            lines.push(meta.description.clone());
        }
        let status = meta.status_text();
        lines.push(match meta.kind {
            RunKind::Search => format!(
                "Game: {}; heuristic {}; {} positions ({status}); seed {}.",
                meta.game,
                meta.agents.first().map_or("", |a| a.1.as_str()),
                meta.games_total,
                meta.seed
            ),
            RunKind::Tune => format!(
                "Game: {}; {} games per SPSA iteration; {} games played of {} planned ({status}; the verification stops once its SPRT decides); seed {}; ply cap {}.",
                meta.game,
                meta.games_per_matchup,
                meta.games_played,
                meta.games_total,
                meta.seed,
                meta.max_plies
            ),
            RunKind::Tables => format!(
                "Game: {}; {} deals per table, each in every rotation of the seats; {} games played of {} ({status}); experiment seed {}; ply cap {}.",
                meta.game,
                meta.games_per_matchup,
                meta.games_played,
                meta.games_total,
                meta.seed,
                meta.max_plies
            ),
            RunKind::Puzzles => format!(
                "{} solves done of {} ({status}); {} per puzzle and solver; seed {}{}.",
                meta.games_played,
                meta.games_total,
                if meta.games_per_matchup == 1 {
                    "one run".to_string()
                } else {
                    format!("{} runs", meta.games_per_matchup)
                },
                meta.seed,
                if meta.deterministic {
                    ""
                } else {
                    "; a time limit was in force, so which solves end in `limit` can differ between runs"
                }
            ),
            RunKind::Tournament => match meta.format {
                Some(format) => format!(
                    "Game: {}; a {format} (pairings by round in rounds.csv), {} games played of at most {} ({status}); experiment seed {}; ply cap {}.",
                    meta.game,
                    meta.games_played,
                    meta.games_total,
                    meta.seed,
                    meta.max_plies
                ),
                None => format!(
                    "Game: {}; {} games per matchup, {} games played of {} ({status}); experiment seed {}; colours {}; ply cap {}.",
                    meta.game,
                    meta.games_per_matchup,
                    meta.games_played,
                    meta.games_total,
                    meta.seed,
                    meta.colours,
                    meta.max_plies
                ),
            },
        });
        lines.push(format!(
            "Machine: {}, {} threads; arbiter {}; started {}{}.",
            meta.host,
            meta.threads,
            meta.version,
            crate::records::utc_time(meta.started_unix),
            // Whole seconds of the clock: a run that ended within the second it started
            // took under a second (not "0 s").
            meta.ended_unix.map_or(String::new(), |e| {
                match e.saturating_sub(meta.started_unix) {
                    0 => ", took under a second".to_string(),
                    seconds => format!(", took {seconds} s"),
                }
            })
        ));
        if meta.kind == RunKind::Tables {
            lines.push(
                "Every game can be replayed alone: its deal's seed and its moves are in tables.csv."
                    .to_string(),
            );
        }
        if meta.kind == RunKind::Tournament {
            lines.push(
                "Every game can be replayed alone: its seed is in games.csv and its moves replay with `arbiter replay`."
                    .to_string(),
            );
        }
    }
    lines
}

/// Writes report.md and index.html for a run that holds no games (a search comparison, a
/// puzzle or tuning run): the header comes from its meta.json when there is one, and the
/// title is `<experiment>: <kind>` (just `kind` without meta.json).
///
/// # Errors
/// A file that cannot be written.
pub fn write_folder_documents(
    run: &LoadedRun,
    kind: &str,
    sections: &[Section],
) -> Result<Vec<PathBuf>, InputError> {
    let title = run
        .meta
        .as_ref()
        .map_or(kind.to_string(), |m| format!("{}: {kind}", m.experiment));
    write_documents(run, &title, sections)
}

/// Prose for HTML: escaped, with `code` spans (the Markdown form) set as code.
fn prose(text: &str) -> String {
    let mut out = String::new();
    for (index, part) in escape(text).split('`').enumerate() {
        if index % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
        } else {
            out.push_str(part);
        }
    }
    out
}

fn human_size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

/// What a known file of a run folder holds, as the file list says it (empty for others).
fn file_description(name: &str) -> String {
    crate::records::schema::run_file(name)
        .filter(|f| !f.holds.is_empty())
        .map_or(String::new(), |f| format!(": {}", f.holds))
}

/// Writes report.md and index.html for `sections` into the run folder.
///
/// # Errors
/// A file that cannot be written.
pub fn write_documents(
    run: &LoadedRun,
    title: &str,
    sections: &[Section],
) -> Result<Vec<PathBuf>, InputError> {
    let folder = &run.folder;
    let header = header_lines(run);
    let mut markdown = format!("# {title}\n\n");
    for line in &header {
        let _ = writeln!(markdown, "{line}\n");
    }
    let mut html = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title>\n<style>body{{font-family:sans-serif;max-width:1400px;margin:2em auto;padding:0 1em}}.table{{overflow-x:auto}}table{{border-collapse:collapse;margin:1em 0}}td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}}td:first-child,th:first-child,td:nth-child(2),th:nth-child(2){{text-align:left}}svg{{max-width:100%;height:auto}}</style></head><body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for line in &header {
        let _ = writeln!(html, "<p>{}</p>", prose(line));
    }
    // The body goes to its own buffer: the table of contents before it lists its sections.
    let top = std::mem::take(&mut html);
    let mut contents: Vec<(String, String)> = Vec::new();
    // The published numbers first, when the experiment reproduces some.
    let reproduction = super::reproduce::section(run)?;
    for (number, section) in reproduction.iter().chain(sections).enumerate() {
        let _ = write!(markdown, "## {}\n\n", section.title);
        let anchor = format!("section-{}", number + 1);
        let _ = writeln!(html, "<h2 id=\"{anchor}\">{}</h2>", escape(&section.title));
        contents.push((anchor, section.title.clone()));
        for text in &section.text {
            let _ = write!(markdown, "{text}\n\n");
            let _ = writeln!(html, "<p>{}</p>", prose(text));
        }
        for table in &section.tables {
            markdown.push_str(&table.markdown());
            markdown.push('\n');
            html.push_str("<div class=\"table\">");
            html.push_str(&table.html());
            html.push_str("</div>\n");
        }
        for figure in &section.charts {
            let (stem, caption, svg) = (&figure.stem, &figure.caption, &figure.svg);
            let _ = write!(markdown, "![{caption}]({stem}.svg) ([PNG]({stem}.png))\n\n");
            let _ = writeln!(
                html,
                "<figure>{svg}<figcaption>{}</figcaption></figure>",
                escape(caption)
            );
        }
        for text in &section.after {
            let _ = write!(markdown, "{text}\n\n");
            let _ = writeln!(html, "<p>{}</p>", prose(text));
        }
    }
    // The game viewer (index.html only: it is a script).
    if let Some(viewer) = super::viewer::html(run)? {
        let _ = write!(markdown, "## Watch the games\n\n{}\n\n", viewer.markdown());
        html.push_str(&viewer.html());
        contents.push(("watch".to_string(), "Watch the games".to_string()));
    }
    // Every file of the folder, linked (the documents themselves excepted).
    // A complete run's journal is removed once the documents are written.
    let complete = run
        .meta
        .as_ref()
        .is_some_and(|m| m.status == crate::records::RunStatus::Complete);
    let files: Vec<(String, u64)> = crate::records::schema::folder_files(folder)
        .into_iter()
        .filter(|(name, _)| !(complete && name == "journal.jsonl"))
        .collect();
    if !files.is_empty() {
        markdown.push_str("## Files\n\n");
        html.push_str("<h2 id=\"files\">Files</h2>\n<ul>\n");
        contents.push(("files".to_string(), "Files".to_string()));
        for (name, bytes) in &files {
            let size = human_size(*bytes);
            let what = file_description(name);
            let _ = writeln!(markdown, "- [{name}]({name}) ({size}){what}");
            let _ = writeln!(
                html,
                "<li><a href=\"{0}\">{0}</a> ({size}){1}</li>",
                escape(name),
                prose(&what)
            );
        }
        markdown.push('\n');
        html.push_str("</ul>\n");
    }
    html.push_str("</body></html>\n");
    let mut nav = String::from("<nav><b>Contents</b><ol>");
    for (anchor, title) in &contents {
        let _ = write!(nav, "<li><a href=\"#{anchor}\">{}</a></li>", escape(title));
    }
    nav.push_str("</ol></nav>\n");
    let html = format!("{top}{nav}{html}");
    let report = folder.join("report.md");
    let index = folder.join("index.html");
    std::fs::write(&report, markdown)
        .map_err(|e| InputError::in_file(&report, None, e.to_string()))?;
    std::fs::write(&index, html).map_err(|e| InputError::in_file(&index, None, e.to_string()))?;
    Ok(vec![report, index])
}
