//! The game viewer of index.html: a bounded sample of the run's games (the first
//! [`SAMPLE`] and the shortest and longest) with their moves and per-move figures, embedded
//! as JSON beside `viewer.js`, which replays them in the browser. Made from games.csv and
//! moves.csv alone. Breakthrough's boards are replayed by the script's own rules; the
//! other games' are replayed here, by arbiter's rules, and embedded as the lines of the
//! board (as `arbiter replay --steps` prints it) that each ply changes.

use crate::core::Player;
use crate::records::loaded::LoadedRun;
use crate::registry::InputError;
use crate::registry::{GameEntry, GameSpec, GameTask, dispatch};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// Games embedded from the start of games.csv.
pub const SAMPLE: usize = 200;

// A run's own report samples the rows its recorder kept, not games.csv read back, when
// they are enough.
const _: () = assert!(SAMPLE <= crate::records::sample::RunSample::KEPT);

/// Games embedded from the start of games.csv for the games whose boards are embedded
/// ply by ply (bigger than a move list).
pub const SAMPLE_WITH_BOARDS: usize = 60;

/// The games the viewer can draw.
const DRAWN: [&str; 5] = [
    "breakthrough",
    "wights",
    "double-card",
    "chinese-checkers",
    "chinese-checkers-star",
];

/// The games whose boards the script replays itself.
const REPLAYED_BY_SCRIPT: [&str; 1] = ["breakthrough"];

/// Replays a game's moves by arbiter's rules: the board as `replay --steps` prints it at
/// the start, then per ply the lines that changed (index, new text), and who made each
/// move (a seat's label, or `chance`).
struct Displays<'a> {
    moves: &'a [&'a str],
}

impl GameTask for Displays<'_> {
    type Output = Result<Value, InputError>;

    fn run<G: GameEntry>(self, start: G) -> Result<Value, InputError> {
        let first = start.board_display();
        let mut previous: Vec<String> = first.lines().map(str::to_string).collect();
        let mut state = start;
        let mut plies = Vec::with_capacity(self.moves.len());
        let mut movers = Vec::with_capacity(self.moves.len());
        for (index, text) in self.moves.iter().enumerate() {
            let mv = state
                .parse_move(text)
                .map_err(|e| InputError::new(format!("viewer: ply {}: {e}", index + 1)))?;
            movers.push(mover_label(&state));
            state.apply(mv);
            let lines: Vec<String> = state.board_display().lines().map(str::to_string).collect();
            let changed: Vec<Value> = lines
                .iter()
                .enumerate()
                .filter(|(i, line)| previous.get(*i) != Some(*line))
                .map(|(i, line)| json!([i, line]))
                .collect();
            plies.push(Value::Array(changed));
            previous = lines;
        }
        Ok(json!({"start": first.lines().collect::<Vec<_>>(), "plies": plies, "movers": movers}))
    }
}

/// Who makes the move in `state`: a seat's label, or `chance`.
fn mover_label<G: GameEntry>(state: &G) -> &'static str {
    if state.is_chance() {
        "chance"
    } else {
        state.to_move().label()
    }
}

/// A run's game served by a program, as meta.json recorded it: its name and a registry
/// that can start it again (to replay the games by its rules).
fn program_of(
    meta: Option<&crate::records::Meta>,
    folder: &Path,
) -> Option<(String, crate::registry::AgentRegistry)> {
    meta.and_then(|meta| meta.game_program.clone())
        .map(|(name, spec)| {
            let mut registry = crate::registry::AgentRegistry::default();
            registry.record_game(&name, spec, &folder.join("meta.json"));
            (name, registry)
        })
}

/// Replays a game's moves by its rules and keeps the board as the game renders it at every
/// ply (a game served by a program: rows of symbols, their colours and labels).
struct Grids<'a> {
    moves: &'a [&'a str],
}

impl GameTask for Grids<'_> {
    type Output = Result<Value, InputError>;

    fn run<G: GameEntry>(self, start: G) -> Result<Value, InputError> {
        // A game that draws no board (its rules program offers no `render`): nothing to
        // show, which is no failure.
        let Some(first) = start.render_json() else {
            return Ok(Value::Null);
        };
        // A ply's board: its rows of symbols, or the text a game prints as its board.
        let rows = |rendered: &Value| -> Value {
            if let Some(text) = rendered["text"].as_str() {
                return Value::from(text);
            }
            let rows = rendered["rows"].as_array().cloned().unwrap_or_default();
            Value::Array(
                rows.iter()
                    .map(|row| {
                        Value::Array(
                            row.as_array()
                                .map(|cells| {
                                    cells
                                        .iter()
                                        .map(|c| {
                                            Value::from(crate::external::rules::cell_symbol(c))
                                        })
                                        .collect()
                                })
                                .unwrap_or_default(),
                        )
                    })
                    .collect(),
            )
        };
        let mut colors = first["colors"].as_object().cloned().unwrap_or_default();
        let mut plies = vec![rows(&first)];
        // In a game with hidden information, what each seat observed at every ply, for the
        // viewer's choice of whose view to show.
        let seats = Player::seats(start.players());
        let observed =
            |state: &G| -> Value { seats.iter().map(|&seat| state.observation(seat)).collect() };
        let hidden = start.has_hidden();
        let mut views = Vec::new();
        if hidden {
            views.push(observed(&start));
        }
        let mut state = start;
        let mut movers = Vec::with_capacity(self.moves.len());
        for (index, text) in self.moves.iter().enumerate() {
            let mv = state
                .parse_move(text)
                .map_err(|e| InputError::new(format!("viewer: ply {}: {e}", index + 1)))?;
            movers.push(mover_label(&state));
            state.apply(mv);
            let rendered = state
                .render_json()
                .ok_or_else(|| InputError::new(format!("viewer: ply {}: no board", index + 1)))?;
            if let Some(more) = rendered["colors"].as_object() {
                for (symbol, color) in more {
                    colors
                        .entry(symbol.clone())
                        .or_insert_with(|| color.clone());
                }
            }
            plies.push(rows(&rendered));
            if hidden {
                views.push(observed(&state));
            }
        }
        let seats: Vec<&str> = seats.iter().map(|seat| seat.label()).collect();
        Ok(json!({
            "plies": plies,
            "views": if hidden { Value::Array(views) } else { Value::Null },
            "seats": seats,
            "movers": movers,
            "colors": colors,
            "row_labels": first["row_labels"],
            "column_labels": first["column_labels"],
            "legend": first["legend"],
        }))
    }
}

/// Whether a game renders its board (see [`GameEntry::render_json`]).
struct Renders;

impl GameTask for Renders {
    type Output = bool;

    fn run<G: GameEntry>(self, start: G) -> bool {
        start.render_json().is_some()
    }
}

const SCRIPT: &str = include_str!("viewer.js");

const STYLE: &str = "#viewer .controls{margin:.5em 0}#viewer select{max-width:100%}#viewer .controls button{margin-right:.3em}#viewer .layout{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}table.board{border-collapse:collapse;margin:0}table.board td{width:34px;height:34px;padding:0;border:1px solid #999;text-align:center;vertical-align:middle}table.board th{border:none;color:#555;font-weight:normal;padding:0 4px}table.board td.dark{background:#b58863}table.board td.light{background:#f0d9b5}table.board td.last{box-shadow:inset 0 0 0 3px #2a7ae2}.piece{display:inline-block;width:24px;height:24px;border-radius:50%;border:2px solid #333}.piece.p1{background:#fafafa}.piece.p2{background:#222;border-color:#000}#viewer-moves{display:grid;grid-template-columns:repeat(4,max-content);gap:2px 1em;list-style:none;padding:0;margin:0;font-family:monospace;cursor:pointer}#viewer-moves li{max-width:24ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}#viewer-moves li.now{background:#ffe58a}#viewer-moves li.error{color:#b3261e;font-weight:bold}table.board tr:last-child th{text-align:center}table.board td.plain{background:#f4f1ea}table.board.double-card td{width:30px;height:30px}.piece.queen,.piece.dragon,.piece.wight{font:bold 14px/24px sans-serif}.piece.queen{background:#f2c230;color:#222}.piece.dragon{background:#b3261e;color:#fff}.piece.wight{background:#5b6770;color:#fff}.half{display:block;width:100%;height:100%;position:relative}.half.red{background:#d64541}.half.white{background:#fff}.half::after{content:'';position:absolute;left:50%;top:50%;width:12px;height:12px;margin:-6px 0 0 -6px;border-radius:50%;border:2px solid #222;box-sizing:border-box}.half.solid::after{background:#222}.star{font-family:sans-serif}.star-row{text-align:center;height:22px;position:relative}.star-label{position:absolute;left:0;color:#555;font-size:12px}.star-row span.hole,.star-row span.marble{display:inline-block;width:16px;height:16px;border-radius:50%;margin:2px 3px;vertical-align:middle;box-sizing:border-box}.hole{background:#ddd}.marble.p1{background:#2a7ae2;border:2px solid #174a8b}.marble.p2{background:#e2792a;border:2px solid #8b4617}.marble.p3{background:#2e9e4f;border:2px solid #1b5e2f}.marble.p4{background:#8e44ad;border:2px solid #5b2c6f}.marble.p5{background:#c0392b;border:2px solid #7b241c}.marble.p6{background:#f1c40f;border:2px solid #9a7d0a}.marble.special{box-shadow:0 0 0 3px #222}.star-row span.last{outline:3px solid #2a7ae2;outline-offset:1px}#viewer-board .star{min-width:330px}#viewer .legend{color:#555;font-size:90%;max-width:24em}#viewer pre.observation{background:#f4f1ea;padding:.6em;margin:0;max-width:36em;white-space:pre-wrap}#viewer pre.board-text{background:#f4f1ea;padding:.6em;margin:0;max-width:48em;overflow-x:auto;white-space:pre}.piece.symbol{font:bold 12px/24px sans-serif;color:#fff;text-shadow:0 0 2px #000}";

fn game_name(spec: &str) -> &str {
    spec.split('(').next().unwrap_or(spec)
}

/// The viewer section's HTML for the run in `folder`, if its games can be drawn.
///
/// # Errors
/// games.csv or moves.csv cannot be read.
pub fn html(run: &LoadedRun) -> Result<Option<Viewer>, InputError> {
    if run.kind == crate::records::RunKind::Tables {
        return tables_html(run);
    }
    let meta = run.meta.as_ref();
    if !moves_recorded(meta) {
        return Ok(None);
    }
    let kept = run.games().and_then(|data| data.sample.as_ref());
    let Sampled {
        games,
        total,
        first,
        left_out,
    } = sample(&run.folder, meta, None, kept)?;
    if games.is_empty() {
        return Ok(left_out.map(Viewer::Unavailable));
    }
    let shown = if games.len() < total {
        format!(
            "{} of the {total} games (the first {first}, the shortest and the longest); <code>arbiter report DIR --game N</code> writes a page for any game of games.csv.",
            games.len()
        )
    } else {
        format!("All {total} games.")
    };
    section(&games, &shown, FIGURES_OF_MOVES).map(|html| Some(Viewer::Games(html)))
}

/// Where a game run's per-move figures come from, as the viewer says.
const FIGURES_OF_MOVES: &str = "Figures per move come from moves.csv.";

/// The viewer section of a table run, from tables.csv, if its game is one the script draws
/// from arbiter's boards (the star) or a program that renders its board (replayed by the
/// program, started again).
///
/// # Errors
/// tables.csv cannot be read, or a game's moves do not replay.
fn tables_html(run: &LoadedRun) -> Result<Option<Viewer>, InputError> {
    let Some(meta) = run.meta.as_ref() else {
        return Ok(None);
    };
    let name = game_name(&meta.game);
    let program = program_of(Some(meta), &run.folder).filter(|(n, _)| n == name);
    if program.is_none() && (!DRAWN.contains(&name) || REPLAYED_BY_SCRIPT.contains(&name)) {
        return Ok(None);
    }
    let spec = match &program {
        // Its rules program is started here: one that cannot start says why.
        Some((_, registry)) => match registry.game(&meta.game) {
            Ok(spec) => spec,
            Err(why) => return Ok(Some(Viewer::Unavailable(why))),
        },
        None => match meta.game.parse::<GameSpec>() {
            Ok(spec) => spec,
            Err(_) => return Ok(None),
        },
    };
    let (rows, total) = crate::records::tables::sample_rows(&run.folder, SAMPLE_WITH_BOARDS)?;
    let mut games = Vec::with_capacity(rows.len());
    for row in &rows {
        let get = |k: &str| row.get(k).cloned().unwrap_or_default();
        let id = get("game");
        let split = |key: &str| -> Vec<&str> {
            row.get(key)
                .map(|m| m.split(';').filter(|m| !m.is_empty()).collect())
                .unwrap_or_default()
        };
        // The opening's moves (an experiment's `openings`) come first, by no seat's agent.
        let opening = split("opening").len();
        let moves: Vec<&str> = split("opening").into_iter().chain(split("moves")).collect();
        let seats: Vec<String> = (1..=crate::core::Player::MAX)
            .map_while(|s| row.get(&format!("p{s}_agent")).cloned())
            .collect();
        let (boards, grid) = if program.is_some() {
            // A program that draws no board (or cannot be started now) leaves the viewer
            // out, saying why; the rest of the report stands.
            let grid = match dispatch(spec.clone(), Grids { moves: &moves }) {
                Ok(Value::Null) => return Ok(None),
                Ok(grid) => grid,
                Err(why) => return Ok(Some(Viewer::Unavailable(why.message))),
            };
            (Value::Null, grid)
        } else {
            let boards = dispatch(spec.clone(), Displays { moves: &moves })
                .map_err(|e| InputError::new(format!("tables.csv: game {id}: {}", e.message)))?;
            (boards, Value::Null)
        };
        let movers = if grid.is_null() {
            &boards["movers"]
        } else {
            &grid["movers"]
        };
        let agent_of = |label: &str| {
            label
                .strip_prefix('P')
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|n| seats.get(n.wrapping_sub(1)))
                .cloned()
        };
        let stats: Vec<Value> = movers
            .as_array()
            .map(|movers| {
                movers
                    .iter()
                    .skip(opening)
                    .map(|m| {
                        let label = m.as_str().unwrap_or("");
                        json!({"agent": agent_of(label).unwrap_or_else(|| label.to_string())})
                    })
                    .collect()
            })
            .unwrap_or_default();
        let winner = get("winner");
        let winner_agent = agent_of(&winner).unwrap_or_default();
        let result = if winner_agent.is_empty() {
            "no one won alone".to_string()
        } else {
            format!("{winner_agent} won as {winner}")
        };
        games.push(json!({
            "id": id.parse::<u64>().unwrap_or(0),
            "matchup": get("table"),
            "game": name,
            "rules": "",
            "p1": seats.first().cloned().unwrap_or_default(),
            "p2": seats.get(1).cloned().unwrap_or_default(),
            "players": seats,
            "winner_agent": winner_agent,
            "reason": get("reason"),
            "result": result,
            "moves": moves,
            "opening": opening,
            "stats": stats,
            "boards": boards,
            "grid": grid,
        }));
    }
    if games.is_empty() {
        return Ok(None);
    }
    let shown = if games.len() < total {
        format!(
            "{} of the {total} games (the first {}, the shortest and the longest); the moves of every game are in tables.csv.",
            games.len(),
            SAMPLE_WITH_BOARDS.min(total)
        )
    } else {
        format!("All {total} games.")
    };
    section(
        &games,
        &shown,
        "Each move is shown with the agent in its seat; a table run keeps no per-move figures.",
    )
    .map(|html| Some(Viewer::Games(html)))
}

/// Writes `game-<id>.html` into the run folder: the viewer with game `id` of games.csv
/// alone, self-contained like index.html; returns its path.
///
/// # Errors
/// No such game in games.csv, a game the viewer cannot draw, or a file that cannot be
/// read or written.
pub fn game_page(
    folder: &Path,
    meta: Option<&crate::records::Meta>,
    id: u64,
) -> Result<std::path::PathBuf, InputError> {
    let csv = folder.join("games.csv");
    if !csv.is_file() {
        return Err(InputError::in_file(
            folder,
            None,
            "no games.csv: --game N shows a game of a game run",
        ));
    }
    if !moves_recorded(meta) {
        return Err(InputError::in_file(
            folder,
            None,
            "the run was played with --no-moves: no moves were recorded to show",
        ));
    }
    let Sampled {
        games,
        total,
        left_out,
        ..
    } = sample(folder, meta, Some(id), None)?;
    if let Some(why) = left_out {
        return Err(InputError::in_file(
            &csv,
            None,
            format!("game {id} cannot be drawn: {why}"),
        ));
    }
    if games.is_empty() {
        return Err(InputError::in_file(
            &csv,
            None,
            format!(
                "no game {id} the viewer can draw (it holds {total} games of {}; ids count from 0)",
                DRAWN.join(", ")
            ),
        ));
    }
    let body = section(&games, &format!("Game {id} of the run."), FIGURES_OF_MOVES)?;
    let title = format!("game {id}: {}", folder.display());
    let page = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title><style>body{{font-family:sans-serif;margin:1em 2em}}</style></head><body>\n{body}</body></html>\n",
        super::table::escape(&title)
    );
    let path = folder.join(format!("game-{id}.html"));
    std::fs::write(&path, page).map_err(|e| InputError::in_file(&path, None, e.to_string()))?;
    Ok(path)
}

/// Whether the run recorded its games' moves (not `run --no-moves`).
fn moves_recorded(meta: Option<&crate::records::Meta>) -> bool {
    !meta.is_some_and(|m| m.no_moves_csv)
}

/// The viewer's HTML for `games`, with `shown` saying which games they are.
fn section(games: &[Value], shown: &str, figures: &str) -> Result<String, InputError> {
    // A graded run: say what the marks in the move lists mean.
    let graded = games
        .iter()
        .any(|g| g["errors"].as_array().is_some_and(|e| !e.is_empty()));
    let figures = if graded {
        format!(
            "{figures} Graded against perfect play (grades.csv): a move marked ? turned a win into a draw or a draw into a loss, ?? a win into a loss."
        )
    } else {
        figures.to_string()
    };
    let data = serde_json::to_string(games)
        .map_err(|e| InputError::new(format!("viewer: {e}")))?
        .replace("</", "<\\/");
    Ok(format!(
        "<h2 id=\"watch\">Watch the games</h2>\n<p>{shown} Buttons or the arrow keys step through a game (Home and End jump); the last move is outlined. {figures}</p>\n<style>{STYLE}</style>\n<div id=\"viewer\">\n<div class=\"controls\"><label>Show <select id=\"viewer-filter\"><option value=\"\">every game</option></select></label> <label>in <select id=\"viewer-order\"><option value=\"\">games.csv order</option><option value=\"shortest\">shortest first</option><option value=\"longest\">longest first</option></select></label> <label><select id=\"viewer-game\"></select></label> <label id=\"viewer-view-label\" hidden>as seen by <select id=\"viewer-view\"><option value=\"\">no one: all of it</option></select></label></div>\n<div class=\"controls\"><button id=\"viewer-start\">|&lt;</button><button id=\"viewer-back\">&lt;</button><button id=\"viewer-play\">play/pause</button><button id=\"viewer-forward\">&gt;</button><button id=\"viewer-end\">&gt;|</button> <label>ply <input id=\"viewer-ply\" type=\"number\" min=\"0\" value=\"0\" style=\"width:5em\"></label></div>\n<p id=\"viewer-info\"></p>\n<div class=\"layout\"><div id=\"viewer-board\"></div><ol id=\"viewer-moves\"></ol></div>\n</div>\n<script>window.ARBITER_GAMES = {data};</script>\n<script>{SCRIPT}</script>\n"
    ))
}

/// The sampled games as the viewer reads them, what keeps them out of the viewer, and how
/// many of them there are.
struct Sampled {
    /// The games, in games.csv order.
    games: Vec<Value>,
    /// How many games the viewer could draw in all.
    total: usize,
    /// How many were taken from the start.
    first: usize,
    /// Why the games of a program game were left out (its program could not draw them).
    left_out: Option<String>,
}

/// The sampled games as the viewer reads them, in games.csv order (only game `only`
/// when given); from the rows the run's recorder `kept`, when given, instead of
/// games.csv.
fn sample(
    folder: &Path,
    meta: Option<&crate::records::Meta>,
    only: Option<u64>,
    kept: Option<&crate::records::sample::RunSample>,
) -> Result<Sampled, InputError> {
    let path = folder.join("games.csv");
    let in_game = |id: &str, e: String| InputError::in_file(&path, None, format!("game {id}: {e}"));
    // A game served by a program is drawn from its `render`: the program as the run
    // recorded it (meta.json) is started again to replay the games.
    let program = program_of(meta, folder);
    // A built-in game the script has no drawing of its own for is drawn from the board
    // it renders (Connect Four), as a program's game is: asked once per spec.
    let mut renders: BTreeMap<String, bool> = BTreeMap::new();
    let mut drawn = |game: &str, spec: &str| {
        DRAWN.contains(&game)
            || program.as_ref().is_some_and(|(name, _)| name == game)
            || *renders.entry(spec.to_string()).or_insert_with(|| {
                spec.parse::<GameSpec>()
                    .is_ok_and(|spec| dispatch(spec, Renders))
            })
    };
    let sampled = crate::records::sample::sample_games(
        folder,
        only,
        SAMPLE,
        kept,
        |spec| drawn(game_name(spec), spec),
        |spec, first| {
            if REPLAYED_BY_SCRIPT.contains(&game_name(spec)) {
                first
            } else {
                SAMPLE_WITH_BOARDS
            }
        },
    )?;
    let (kept, total, first) = (sampled.rows, sampled.total, sampled.first);
    let ids: Vec<String> = kept
        .iter()
        .filter_map(|k| k.get("game_id").cloned())
        .collect();
    let stats = crate::records::sample::move_stats(folder, &ids)?;
    // The moves that lost value (grades.csv, when the run is graded), marked in the list.
    let errors = crate::records::grades::errors_by_game(folder)?;
    let mut left_out = None;
    let games = kept
        .iter()
        .map(|row| -> Result<Value, InputError> {
            let get = |k: &str| row.get(k).cloned().unwrap_or_default();
            let id = get("game_id");
            // The opening's moves (an experiment's `openings`) come first: the game was
            // played from the position they lead to.
            let split = |k: &str| -> Vec<&str> {
                row.get(k)
                    .map(|m| m.split(';').filter(|m| !m.is_empty()).collect())
                    .unwrap_or_default()
            };
            let opening = split("opening");
            let moves: Vec<&str> = opening.iter().copied().chain(split("moves")).collect();
            let winner = get("winner");
            let result = match winner.as_str() {
                "P1" | "P2" => format!("{} won as {winner}", get("winner_agent")),
                _ => "draw".to_string(),
            };
            let name = game_name(&get("game")).to_string();
            let mut grid = Value::Null;
            let boards = if REPLAYED_BY_SCRIPT.contains(&name.as_str()) {
                Value::Null
            } else if !DRAWN.contains(&name.as_str())
                && program.as_ref().is_none_or(|(n, _)| *n != name)
            {
                // A built-in game drawn from its render.
                let spec: GameSpec = get("game")
                    .parse()
                    .map_err(|e: crate::registry::spec::SpecError| in_game(&id, e.message))?;
                grid =
                    dispatch(spec, Grids { moves: &moves }).map_err(|e| in_game(&id, e.message))?;
                Value::Null
            } else if let Some((_, registry)) = program.as_ref().filter(|(n, _)| *n == name) {
                // A program that draws no board (or cannot be started now) leaves its games
                // out of the viewer; the rest of the report stands.
                match registry
                    .game(&get("game"))
                    .and_then(|spec| dispatch(spec, Grids { moves: &moves }).map_err(String::from))
                {
                    Ok(Value::Null) => return Ok(Value::Null),
                    Ok(drawn) => grid = drawn,
                    Err(why) => {
                        left_out.get_or_insert(why);
                        return Ok(Value::Null);
                    }
                }
                Value::Null
            } else {
                let spec: GameSpec = get("game")
                    .parse()
                    .map_err(|e: crate::registry::spec::SpecError| in_game(&id, e.message))?;
                dispatch(spec, Displays { moves: &moves }).map_err(|e| in_game(&id, e.message))?
            };
            Ok(json!({
                "id": id.parse::<u64>().unwrap_or(0),
                "matchup": get("matchup"),
                "game": name,
                "rules": get("rules"),
                "p1": get("p1_agent"),
                "p2": get("p2_agent"),
                "winner_agent": get("winner_agent"),
                "reason": get("reason"),
                "result": result,
                "moves": moves,
                "opening": opening.len(),
                "stats": stats.get(&id).cloned().unwrap_or_default(),
                "errors": id
                    .parse::<u64>()
                    .ok()
                    .and_then(|id| errors.get(&id))
                    .map_or_else(Vec::new, |moves| moves
                        .iter()
                        .map(|(ply, verdict)| json!([ply, verdict.name()]))
                        .collect()),
                "boards": boards,
                "grid": grid,
            }))
        })
        .collect::<Result<Vec<Value>, InputError>>()?;
    let games: Vec<Value> = games.into_iter().filter(|g| !g.is_null()).collect();
    Ok(Sampled {
        games,
        total,
        first,
        left_out,
    })
}

/// The viewer's section of a report: the games, or why they cannot be drawn now.
pub enum Viewer {
    /// The section with the games and the script that draws them (index.html only).
    Games(String),
    /// Why a program game's boards cannot be drawn now (its rules program does not start).
    Unavailable(String),
}

/// What a report says after why its games cannot be drawn (`DIR` as code in index.html).
const DRAWN_AGAIN: [&str; 2] = [
    "arbiter report DIR",
    " draws them again where the game's rules program starts.",
];

impl Viewer {
    /// The section in index.html.
    pub fn html(&self) -> String {
        match self {
            Viewer::Games(html) => html.clone(),
            Viewer::Unavailable(why) => format!(
                "<h2 id=\"watch\">Watch the games</h2>\n<p>The games cannot be drawn here: {}. <code>{}</code>{}</p>\n",
                super::table::escape(why.trim_end_matches('.')),
                DRAWN_AGAIN[0],
                DRAWN_AGAIN[1]
            ),
        }
    }

    /// The section in report.md.
    pub fn markdown(&self) -> String {
        match self {
            Viewer::Games(_) => "index.html replays the games move by move.".to_string(),
            Viewer::Unavailable(why) => format!(
                "The games cannot be drawn here: {}. {}{}",
                why.trim_end_matches('.'),
                DRAWN_AGAIN[0],
                DRAWN_AGAIN[1]
            ),
        }
    }
}
