//! A built-in agent behind the protocol: reads requests on one stream, answers on another,
//! so other harnesses can use arbiter's agents (`arbiter serve-agent`), and so the protocol
//! is tested against itself.

use super::PROTOCOL_VERSION;
use crate::core::{Agent, Game, GameContext, Limits, Player};
use serde_json::{Value, json};
use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

/// Builds the served agent for one game from its seed.
pub type MakeAgent<'a, G> = &'a dyn Fn(u64) -> Box<dyn Agent<G>>;

/// Answers requests from `input` on `output` until `quit` or the end of input, playing
/// `game_name` from `start` with agents made by `make` (a fresh one per `new_game`, seeded
/// as told). Problems with a request are reported on `log` (stderr), one line each, and
/// the request is skipped.
///
/// # Errors
/// Reading or writing fails.
pub fn serve<G: Game>(
    start: &G,
    game_name: &str,
    agent_name: &str,
    make: MakeAgent<'_, G>,
    input: impl BufRead,
    mut output: impl Write,
    log: &mut dyn Write,
) -> io::Result<()> {
    let mut agent: Option<Box<dyn Agent<G>>> = None;
    let mut moves = Vec::new();
    for (number, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = match serde_json::from_str(&line) {
            Ok(request) => request,
            Err(e) => {
                writeln!(log, "serve-agent: line {}: not JSON ({e})", number + 1)?;
                continue;
            }
        };
        let reply = match request["type"].as_str().unwrap_or("") {
            "hello" => {
                let version = request["protocol"].as_u64();
                if version != Some(u64::from(PROTOCOL_VERSION)) {
                    writeln!(
                        log,
                        "serve-agent: hello for protocol {version:?}, this is protocol {PROTOCOL_VERSION}"
                    )?;
                }
                if let Some(game) = request["game"].as_str()
                    && game != game_name
                {
                    writeln!(
                        log,
                        "serve-agent: hello is for game {game}, this agent plays {game_name}"
                    )?;
                }
                Some(json!({"type": "ready", "name": agent_name, "protocol": PROTOCOL_VERSION}))
            }
            "ping" => Some(json!({"type": "pong", "id": request["id"]})),
            "new_game" => {
                let seed = request["seed"].as_u64().unwrap_or(0);
                let mut fresh = make(seed);
                let seat = match request["seat"].as_str() {
                    Some("P2") => Player::P2,
                    _ => Player::P1,
                };
                let opening = strings(&request["opening"]).join(";");
                fresh.start_game(
                    start,
                    &GameContext {
                        id: request["game_id"].as_u64().unwrap_or(0),
                        seat,
                        seed,
                        opening: &opening,
                        move_time: None,
                        logs: None,
                    },
                );
                agent = Some(fresh);
                None
            }
            "move" => {
                let agent = agent.get_or_insert_with(|| make(0));
                match position(start, &request["moves"], &mut moves) {
                    Err(e) => {
                        writeln!(log, "serve-agent: line {}: {e}", number + 1)?;
                        None
                    }
                    Ok(state) => {
                        let limits = Limits {
                            deadline: request["time_ms"].as_u64().and_then(|ms| {
                                Instant::now().checked_add(Duration::from_millis(ms))
                            }),
                            stop: None,
                        };
                        let decision = agent.decide(&state, &limits);
                        Some(json!({
                            "type": "move",
                            "move": state.format_move(decision.mv),
                            "info": {
                                "depth": decision.depth,
                                "nodes": decision.stats.expanded,
                                "evaluated": decision.stats.evaluated,
                                "score": decision.value,
                            },
                        }))
                    }
                }
            }
            "game_over" => {
                if let Some(agent) = &mut agent {
                    let winner = match request["winner"].as_str() {
                        Some("P1") => Some(Player::P1),
                        Some("P2") => Some(Player::P2),
                        _ => None,
                    };
                    agent.end_game(winner, request["reason"].as_str().unwrap_or(""));
                }
                None
            }
            "quit" => return Ok(()),
            other => {
                writeln!(
                    log,
                    "serve-agent: line {}: unknown request type '{other}'",
                    number + 1
                )?;
                None
            }
        };
        if let Some(reply) = reply {
            serde_json::to_writer(&mut output, &reply)?;
            output.write_all(b"\n")?;
            output.flush()?;
        }
    }
    Ok(())
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The position after `history` (move texts) from `start`.
fn position<G: Game>(start: &G, history: &Value, buffer: &mut Vec<G::Move>) -> Result<G, String> {
    let mut state = start.clone();
    for (ply, text) in strings(history).iter().enumerate() {
        let mv = state
            .parse_move(text)
            .map_err(|e| format!("moves[{ply}]: {e}"))?;
        state.apply(mv);
    }
    state.legal_moves(buffer);
    if buffer.is_empty() {
        return Err("the position after `moves` has no legal move".to_string());
    }
    Ok(state)
}
