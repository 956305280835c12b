//! `arbiter ladder`: one rating list over any number of runs.

use crate::documents::ladder::Ladder;
use crate::records::ladder::{find_runs, read_run};
use anyhow::{Result, bail};
use std::path::PathBuf;

/// Arguments of `arbiter ladder`.
#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    /// Run folders (results/<experiment>/<run-id>), or folders holding runs (every run of
    /// results/<experiment>, or of results/); in any order. A table run's games count
    /// pairwise: every two seats, the better placed winning.
    #[arg(required = true, value_name = "DIR")]
    runs: Vec<PathBuf>,
    /// Rate this agent 0 (e.g. `random`), as Ordo and BayesElo anchor a reference;
    /// default: the agents average 0.
    #[arg(long, value_name = "AGENT")]
    anchor: Option<String>,
    /// The folder to write ladder.csv, crosstable.csv, history.csv, ladder.json, ladder.md
    /// and ladder.html into.
    #[arg(long, default_value = "results/ladder")]
    out: PathBuf,
    /// Print nothing but errors.
    #[arg(long)]
    quiet: bool,
}

/// Builds, writes and prints the ladder.
pub fn ladder(args: LadderArgs) -> Result<()> {
    if args.out.join("games.csv").exists() || args.out.join("meta.json").exists() {
        bail!(
            "--out {}: it holds a run; give a folder of its own for the ladder",
            args.out.display()
        );
    }
    let mut folders: Vec<PathBuf> = Vec::new();
    for dir in &args.runs {
        for folder in find_runs(dir).map_err(anyhow::Error::msg)? {
            let canonical = folder.canonicalize().unwrap_or(folder);
            if !folders.contains(&canonical) {
                folders.push(canonical);
            }
        }
    }
    let runs = folders
        .iter()
        .map(|folder| read_run(folder))
        .collect::<Result<Vec<_>, _>>()
        .map_err(anyhow::Error::msg)?;
    for run in runs.iter().filter(|r| r.unfinished) {
        // Said even with --quiet: the ladder counts fewer games than the run will have.
        crate::records::say(&format!(
            "note: {} has not ended (still running, or stopped): its {} game{} so far are counted",
            run.folder.display(),
            run.games(),
            if run.games() == 1 { "" } else { "s" }
        ));
    }
    let ladder = Ladder::build(runs, args.anchor.as_deref()).map_err(anyhow::Error::msg)?;
    let written = ladder.write(&args.out).map_err(anyhow::Error::msg)?;
    if !args.quiet {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "ladder over {} run{}{}:",
            ladder.runs.len(),
            if ladder.runs.len() == 1 { "" } else { "s" },
            ladder
                .anchor
                .as_ref()
                .map_or(String::new(), |a| format!(", {a} at 0"))
        );
        let _ = write!(out, "{}", ladder.table().aligned());
        if ladder.runs.len() > 1 {
            let _ = writeln!(out, "\nafter each run:");
            let _ = write!(out, "{}", ladder.history_table().aligned());
        }
        for file in written {
            let _ = writeln!(out, "written: {}", file.display());
        }
    }
    Ok(())
}
