//! A built-in game behind the game protocol (`arbiter serve-game`): any of arbiter's games
//! served as a rules program, so that the protocol is tested against itself (perft and
//! whole games through the bridge equal the built-in game's) and other harnesses can use
//! arbiter's rules.
//!
//! A position is the moves played from the start in the game's notation, joined by `;`
//! (the empty string is the start). Positions met recently are kept, so a request about a
//! child of a known position replays one move, not the whole game.

use super::rules::GAME_PROTOCOL_VERSION;
use crate::core::{Evaluator, Game, MOVE_SEPARATOR, Player};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

/// Positions kept before the cache is emptied.
const KEPT_POSITIONS: usize = 200_000;

/// A side's features in a position (for `features` requests).
pub type FeaturesOf<'a, G> = &'a dyn Fn(&G, Player) -> Vec<f64>;

/// What the served game offers besides its rules.
pub struct Served<'a, G: Game, E: Evaluator<G>> {
    /// The game's name in `ready`.
    pub name: &'a str,
    /// Feature names and a function giving a side's features (`linear` heuristics).
    pub features: (Vec<String>, FeaturesOf<'a, G>),
    /// A heuristic answering `evaluate`, if one was chosen.
    pub evaluator: Option<&'a E>,
}

struct Positions<G: Game> {
    start: G,
    known: HashMap<String, G>,
    moves: Vec<G::Move>,
}

impl<G: Game> Positions<G> {
    /// The position a string names, replayed from its longest known prefix.
    fn get(&mut self, text: &str) -> Result<G, String> {
        if text.is_empty() {
            return Ok(self.start.clone());
        }
        if let Some(state) = self.known.get(text) {
            return Ok(state.clone());
        }
        let (parent, last) = match text.rfind(MOVE_SEPARATOR) {
            Some(at) => (&text[..at], &text[at + MOVE_SEPARATOR.len_utf8()..]),
            None => ("", text),
        };
        let mut state = self.get(parent)?;
        let mv = state
            .parse_move(last)
            .map_err(|e| format!("position '{text}': {e}"))?;
        state.apply(mv);
        self.keep(text.to_string(), state.clone());
        Ok(state)
    }

    fn keep(&mut self, text: String, state: G) {
        if self.known.len() >= KEPT_POSITIONS {
            self.known.clear();
        }
        self.known.insert(text, state);
    }

    fn legal(&mut self, state: &G) -> Vec<String> {
        if state.outcome().is_some() {
            return Vec::new();
        }
        state.legal_moves(&mut self.moves);
        self.moves.iter().map(|&m| state.format_move(m)).collect()
    }
}

/// A position's status reply.
fn status<G: Game>(state: &G) -> Value {
    match state.outcome() {
        Some(outcome) => json!({
            "type": "status", "over": true, "to_move": state.to_move().label(),
            "winner": outcome.winner.map(Player::label), "reason": outcome.reason,
        }),
        None => json!({"type": "status", "to_move": state.to_move().label()}),
    }
}

/// The board as rows of cells for `render`: the game's board dump, a cell per character
/// (or per word, where the dump separates cells by spaces); `0` and `.` are empty.
fn render<G: Game>(state: &G) -> Value {
    const PALETTE: [&str; 6] = [
        "#c0392b", "#2c3e50", "#f1c40f", "#27ae60", "#8e44ad", "#e67e22",
    ];
    let dump = state.board_dump();
    let mut symbols: Vec<String> = Vec::new();
    let rows: Vec<Vec<String>> = dump
        .lines()
        .map(|line| {
            let cells: Vec<String> = if line.contains(' ') {
                line.split_whitespace().map(str::to_string).collect()
            } else {
                line.chars().map(String::from).collect()
            };
            cells
                .into_iter()
                .map(|c| {
                    if c == "0" || c == "." {
                        String::new()
                    } else {
                        c
                    }
                })
                .inspect(|c| {
                    if !c.is_empty() && !symbols.contains(c) {
                        symbols.push(c.clone());
                    }
                })
                .collect()
        })
        .collect();
    symbols.sort();
    let colors: serde_json::Map<String, Value> = symbols
        .iter()
        .enumerate()
        .map(|(i, s)| (s.clone(), Value::from(PALETTE[i % PALETTE.len()])))
        .collect();
    json!({"type": "render", "rows": rows, "colors": colors})
}

/// The reply to one request (`None` for `quit`).
fn answer<G: Game, E: Evaluator<G>>(
    request: &Value,
    positions: &mut Positions<G>,
    served: &Served<'_, G, E>,
) -> Option<Result<Value, String>> {
    let position = |positions: &mut Positions<G>| -> Result<G, String> {
        let text = request["position"]
            .as_str()
            .ok_or("no \"position\" string")?;
        positions.get(text)
    };
    Some(match request["type"].as_str().unwrap_or("") {
        "hello" => Ok(json!({
            "type": "ready", "protocol": GAME_PROTOCOL_VERSION, "name": served.name,
            "players": 2, "features": served.features.0, "render": true,
            "evaluate": served.evaluator.is_some(), "view": true,
        })),
        "initial" => Ok(json!({"type": "position", "position": ""})),
        "legal" => position(positions)
            .map(|state| json!({"type": "legal", "moves": positions.legal(&state)})),
        "status" => position(positions).map(|state| status(&state)),
        "apply" => (|| {
            let mut state = position(positions)?;
            let text = request["position"].as_str().unwrap_or("");
            let mv = request["move"].as_str().ok_or("no \"move\" string")?;
            let parsed = state.parse_move(mv).map_err(|e| e.to_string())?;
            state.apply(parsed);
            let child = if text.is_empty() {
                mv.to_string()
            } else {
                format!("{text}{MOVE_SEPARATOR}{mv}")
            };
            let reply = json!({"type": "position", "position": child, "status": status(&state)});
            positions.keep(child, state);
            Ok(reply)
        })(),
        "features" => position(positions).map(|state| {
            let of = served.features.1;
            json!({"type": "features", "P1": of(&state, Player::P1), "P2": of(&state, Player::P2)})
        }),
        "evaluate" => (|| {
            let evaluator = served
                .evaluator
                .ok_or("this game is served without --heuristic")?;
            let state = position(positions)?;
            let player = match request["player"].as_str() {
                Some("P2") => Player::P2,
                Some("P1") => Player::P1,
                _ => return Err("\"player\" must be \"P1\" or \"P2\"".to_string()),
            };
            Ok(json!({"type": "value", "value": evaluator.evaluate(&state, player, 0)}))
        })(),
        "render" => position(positions).map(|state| render(&state)),
        "view" => {
            position(positions).map(|state| json!({"type": "view", "view": state.position_json()}))
        }
        "quit" => return None,
        other => Err(format!("unknown request type '{other}'")),
    })
}

/// Answers game-protocol requests from `input` on `output` until `quit` or the end of
/// input, for game `served` starting at `start`. A request that cannot be answered gets an
/// `error` reply naming what is wrong.
///
/// # Errors
/// Reading or writing fails.
pub fn serve_game<G: Game, E: Evaluator<G>>(
    start: &G,
    served: &Served<'_, G, E>,
    input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut positions = Positions {
        start: start.clone(),
        known: HashMap::new(),
        moves: Vec::new(),
    };
    let mut line_out = Vec::with_capacity(4096);
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match serde_json::from_str::<Value>(&line) {
            Err(e) => Err(format!("not JSON: {e}")),
            Ok(request) => match answer(&request, &mut positions, served) {
                None => return Ok(()),
                Some(reply) => reply,
            },
        };
        let reply = reply.unwrap_or_else(|message| json!({"type": "error", "message": message}));
        line_out.clear();
        serde_json::to_writer(&mut line_out, &reply).map_err(io::Error::other)?;
        line_out.push(b'\n');
        output.write_all(&line_out)?;
        output.flush()?;
    }
    Ok(())
}
