//! Everything made from a run read once ([`crate::records::loaded::LoadedRun`]): the
//! report's sections and tables, report.md and index.html, the charts, the game viewer,
//! summary.json, what `show` prints, the published numbers beside arbiter's, the ladder's
//! page. May use core, stats, games, search, csp, registry, tournament and records; never
//! experiment or cli.

pub mod charts;
mod drawings;
pub mod games;
pub mod ladder;
pub mod page;
pub mod puzzles;
pub mod reproduce;
mod scaling;
pub mod search;
pub mod section;
pub mod show;
pub mod summary;
pub mod table;
pub mod table_run;
pub mod tables;
pub mod tune;
pub mod viewer;

pub use summary::{format_summary, summary_table};

use crate::records::{Meta, RunKind, RunStatus};

/// What a reader must know about a game run's numbers besides the tables: colours never
/// swapped (the first-move advantage is in every Elo), or a run stopped before its end.
pub fn reading_notes(meta: &Meta) -> Vec<String> {
    let mut notes = Vec::new();
    if meta.colours == "as-listed" && meta.kind.plays_games() {
        notes.push("Colours as listed: the first agent of each matchup always moved first, so its win rate, Elo and the ratings include the first-move advantage (use colours = \"alternate\" to cancel it).".to_string());
    }
    let stopped = match meta.status {
        RunStatus::Partial => {
            Some("stopped by a game or time limit, or an agent that could not start")
        }
        RunStatus::Interrupted => Some("interrupted"),
        RunStatus::Running | RunStatus::Complete | RunStatus::Failed => None,
    };
    if let Some(how) = stopped {
        notes.push(format!(
            "Partial: {} of {} games played (the run was {how}); matchups without games are marked not played. `arbiter run --resume` on this folder plays the rest.",
            meta.games_played,
            meta.games_total,
        ));
    }
    notes
}

/// A sentence naming the run's external agents, whose counts are their own report, if any.
pub fn external_note(meta: &Meta) -> Option<String> {
    let names: Vec<&str> = meta
        .agents
        .iter()
        .filter(|(_, spec)| crate::registry::is_external_spec(spec))
        .map(|(name, _)| name.as_str())
        .collect();
    (!names.is_empty()).then(|| {
        let names = names.join(", ");
        if meta.kind == RunKind::Search {
            format!(
                "External programs: {names}. Their expanded nodes are what they reported, not counted by arbiter (nothing per level, so no evaluated count or branching factor); they evaluate positions their own way, so their values are not compared and 'same move' only says how often they chose the reference's move; their ms include the pipe and their stderr is in logs/."
            )
        } else {
            format!(
                "External programs: {names}. Their nodes and depth are what they reported (self_reported in moves.csv), not counted by arbiter; their ms per move include the pipe; their failures are game reasons (timeout, stall, crash, illegal_move, bad_output, startup_failure; memory, processes, cpu_time, output in a sandbox) and their stderr is in logs/."
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readers_are_told_of_fixed_colours_and_of_partial_runs() {
        let mut meta = super::Meta::starting(RunKind::Tournament, 1);
        meta.colours = "alternate".to_string();
        meta.status = RunStatus::Complete;
        assert!(super::reading_notes(&meta).is_empty());
        meta.colours = "as-listed".to_string();
        let notes = super::reading_notes(&meta);
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("first-move advantage"), "{notes:?}");
        meta.status = RunStatus::Partial;
        (meta.games_played, meta.games_total) = (3, 10);
        let notes = super::reading_notes(&meta);
        assert!(
            notes[1].starts_with("Partial: 3 of 10 games played"),
            "{notes:?}"
        );
        meta.status = RunStatus::Interrupted;
        assert!(super::reading_notes(&meta)[1].contains("was interrupted"));
        // Puzzle runs have no colours.
        meta.kind = RunKind::Puzzles;
        meta.status = RunStatus::Complete;
        assert!(super::reading_notes(&meta).is_empty());
    }
}
