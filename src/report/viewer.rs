//! The game viewer of index.html: a bounded sample of the run's games (the first
//! [`SAMPLE`] and the shortest and longest) with their moves and per-move figures, embedded
//! as JSON beside `viewer.js`, which replays them in the browser. Made from games.csv and
//! moves.csv alone. Breakthrough only for now; other games get no viewer section.

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Games embedded from the start of games.csv.
pub const SAMPLE: usize = 200;

/// The games the viewer can draw.
const DRAWN: [&str; 1] = ["breakthrough"];

const SCRIPT: &str = include_str!("viewer.js");

const STYLE: &str = "#viewer .controls{margin:.5em 0}#viewer .controls button{margin-right:.3em}#viewer .layout{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}table.board{border-collapse:collapse;margin:0}table.board td{width:34px;height:34px;padding:0;border:1px solid #999;text-align:center;vertical-align:middle}table.board th{border:none;color:#555;font-weight:normal;padding:0 4px}table.board td.dark{background:#b58863}table.board td.light{background:#f0d9b5}table.board td.last{box-shadow:inset 0 0 0 3px #2a7ae2}.piece{display:inline-block;width:24px;height:24px;border-radius:50%;border:2px solid #333}.piece.p1{background:#fafafa}.piece.p2{background:#222;border-color:#000}#viewer-moves{display:grid;grid-template-columns:repeat(4,7.5em);gap:2px 1em;list-style:none;padding:0;margin:0;font-family:monospace;cursor:pointer}#viewer-moves li.now{background:#ffe58a}table.board tr:last-child th{text-align:center}";

fn game_name(spec: &str) -> &str {
    spec.split('(').next().unwrap_or(spec)
}

/// The viewer section's HTML for the run in `folder`, if its games can be drawn.
///
/// # Errors
/// games.csv or moves.csv cannot be read.
pub fn html(folder: &Path) -> Result<Option<String>, String> {
    let (games, total) = sample(folder)?;
    if games.is_empty() {
        return Ok(None);
    }
    let data = serde_json::to_string(&games)
        .map_err(|e| format!("viewer: {e}"))?
        .replace("</", "<\\/");
    let shown = if games.len() < total {
        format!(
            "{} of the {total} games (the first {SAMPLE}, the shortest and the longest); <code>arbiter replay</code> plays any game of games.csv.",
            games.len()
        )
    } else {
        format!("All {total} games.")
    };
    Ok(Some(format!(
        "<h2>Watch the games</h2>\n<p>{shown} Buttons or the arrow keys step through a game (Home and End jump); the last move is outlined. Figures per move come from moves.csv.</p>\n<style>{STYLE}</style>\n<div id=\"viewer\">\n<div class=\"controls\"><label>Show <select id=\"viewer-filter\"><option value=\"\">every game</option></select></label> <label><select id=\"viewer-game\"></select></label></div>\n<div class=\"controls\"><button id=\"viewer-start\">|&lt;</button><button id=\"viewer-back\">&lt;</button><button id=\"viewer-play\">play/pause</button><button id=\"viewer-forward\">&gt;</button><button id=\"viewer-end\">&gt;|</button> <label>ply <input id=\"viewer-ply\" type=\"number\" min=\"0\" value=\"0\" style=\"width:5em\"></label></div>\n<p id=\"viewer-info\"></p>\n<div class=\"layout\"><div id=\"viewer-board\"></div><ol id=\"viewer-moves\"></ol></div>\n</div>\n<script>window.ARBITER_GAMES = {data};</script>\n<script>{SCRIPT}</script>\n"
    )))
}

/// The sampled games as the viewer reads them, in games.csv order, and how many games
/// the viewer could draw in all.
fn sample(folder: &Path) -> Result<(Vec<Value>, usize), String> {
    let path = folder.join("games.csv");
    if !path.is_file() {
        return Ok((Vec::new(), 0));
    }
    let mut reader =
        csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut kept: Vec<BTreeMap<String, String>> = Vec::new();
    let mut shortest: Option<BTreeMap<String, String>> = None;
    let mut longest: Option<BTreeMap<String, String>> = None;
    let mut total = 0;
    let plies = |row: &BTreeMap<String, String>| -> u64 {
        row.get("plies").and_then(|p| p.parse().ok()).unwrap_or(0)
    };
    for (index, row) in reader.deserialize::<BTreeMap<String, String>>().enumerate() {
        let row = row.map_err(|e| format!("{}: line {}: {e}", path.display(), index + 2))?;
        let game = row.get("game").map_or("", |g| game_name(g));
        if !DRAWN.contains(&game) {
            continue;
        }
        total += 1;
        if shortest.as_ref().is_none_or(|s| plies(&row) < plies(s)) {
            shortest = Some(row.clone());
        }
        if longest.as_ref().is_none_or(|l| plies(&row) > plies(l)) {
            longest = Some(row.clone());
        }
        if kept.len() < SAMPLE {
            kept.push(row);
        }
    }
    for extra in [shortest, longest].into_iter().flatten() {
        if !kept
            .iter()
            .any(|k| k.get("game_id") == extra.get("game_id"))
        {
            kept.push(extra);
        }
    }
    let ids: Vec<String> = kept
        .iter()
        .filter_map(|k| k.get("game_id").cloned())
        .collect();
    let stats = move_stats(folder, &ids)?;
    let games = kept
        .iter()
        .map(|row| {
            let get = |k: &str| row.get(k).cloned().unwrap_or_default();
            let id = get("game_id");
            let moves: Vec<&str> = row
                .get("moves")
                .map(|m| m.split(';').filter(|m| !m.is_empty()).collect())
                .unwrap_or_default();
            let winner = get("winner");
            let result = match winner.as_str() {
                "P1" | "P2" => format!("{} won as {winner}", get("winner_agent")),
                _ => "draw".to_string(),
            };
            json!({
                "id": id.parse::<u64>().unwrap_or(0),
                "matchup": get("matchup"),
                "game": game_name(&get("game")),
                "rules": get("rules"),
                "p1": get("p1_agent"),
                "p2": get("p2_agent"),
                "winner_agent": get("winner_agent"),
                "reason": get("reason"),
                "result": result,
                "moves": moves,
                "stats": stats.get(&id).cloned().unwrap_or_default(),
            })
        })
        .collect();
    Ok((games, total))
}

/// Per game id, each move's agent, ms, nodes expanded and root value (from moves.csv).
fn move_stats(folder: &Path, ids: &[String]) -> Result<BTreeMap<String, Vec<Value>>, String> {
    let ids: std::collections::BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let path = folder.join("moves.csv");
    let mut stats: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    if !path.is_file() {
        return Ok(stats);
    }
    let mut reader =
        csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    for (index, row) in reader.deserialize::<BTreeMap<String, String>>().enumerate() {
        let row = row.map_err(|e| format!("{}: line {}: {e}", path.display(), index + 2))?;
        let Some(id) = row.get("game_id") else {
            continue;
        };
        if !ids.contains(id.as_str()) {
            continue;
        }
        let number = |k: &str| -> Value {
            row.get(k)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|v| v.is_finite())
                .map_or(Value::Null, Value::from)
        };
        stats.entry(id.clone()).or_default().push(json!({
            "agent": row.get("agent").cloned().unwrap_or_default(),
            "ms": number("ms"),
            "expanded": number("expanded"),
            "value": number("value"),
        }));
    }
    Ok(stats)
}
