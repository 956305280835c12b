//! A tournament in rounds' two tables, written at its end: rounds.csv (every board of
//! every round with its points) and standings.csv (the format's ranking, and the
//! submissions left out).

use crate::tournament::rounds::BoardRow;
use std::io;
use std::path::Path;

/// Every pairing of every round with its points.
pub const ROUNDS_CSV: &str = "rounds.csv";
/// The format's ranking.
pub const STANDINGS_CSV: &str = "standings.csv";

/// One ranked player of standings.csv.
pub struct Standing {
    /// The player's name.
    pub agent: String,
    /// Points (a Swiss) or rounds reached (a knockout); `None`: left out.
    pub score: Option<f64>,
    /// The sum of the opponents' scores.
    pub buchholz: f64,
    /// Why the player was left out (empty when it played on).
    pub left_out: String,
}

/// Writes rounds.csv into `folder`, naming player `i` as `name(i)`.
///
/// # Errors
/// The file could not be written.
pub fn write_rounds(
    folder: &Path,
    boards: &[BoardRow],
    name: &dyn Fn(usize) -> String,
) -> io::Result<()> {
    super::write_table(&folder.join(ROUNDS_CSV), |pairings| {
        pairings.write_record([
            "round",
            "board",
            "first",
            "second",
            "first_points",
            "second_points",
            "games",
        ])?;
        for row in boards {
            let [a, b] = row.players;
            let board = row
                .board
                .map_or("bye".to_string(), |board| (board + 1).to_string());
            let second = if a == b { String::new() } else { name(b) };
            pairings.write_record([
                (row.round + 1).to_string(),
                board,
                name(a),
                second,
                row.points[0].to_string(),
                row.points[1].to_string(),
                row.games.to_string(),
            ])?;
        }
        Ok(())
    })
    .map_err(io::Error::other)
}

/// Writes standings.csv into `folder`: the ranked players in order (their score column
/// named `measure`: `points` or `rounds_reached`), then the submissions that never
/// became players, unranked, with their reason.
///
/// # Errors
/// The file could not be written.
pub fn write_standings(
    folder: &Path,
    measure: &str,
    ranked: &[Standing],
    unplayed: &[(String, String)],
) -> io::Result<()> {
    super::write_table(&folder.join(STANDINGS_CSV), |standings| {
        standings.write_record(["rank", "agent", measure, "buchholz", "left_out"])?;
        for (place, standing) in ranked.iter().enumerate() {
            standings.write_record([
                (place + 1).to_string(),
                standing.agent.clone(),
                standing
                    .score
                    .map_or("left out".to_string(), |score| score.to_string()),
                standing.buchholz.to_string(),
                standing.left_out.clone(),
            ])?;
        }
        for (agent, reason) in unplayed {
            standings.write_record(["", agent, "", "", reason])?;
        }
        Ok(())
    })
    .map_err(io::Error::other)
}
