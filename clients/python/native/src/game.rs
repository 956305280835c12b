//! Games written as Python classes, answering inside arbiter's process as a rules library
//! does (`arbiter::external::library::InProcess`): the game protocol's requests and, for
//! what a search asks at every node, direct calls of the class's methods, without a pipe or
//! JSON. docs/python.md says what the class offers:
//!
//! ```python
//! class MyGame:
//!     players = 2                      # optional, 2 by default
//!     def __init__(self, **params): ... # the game spec's parameters: my-game(size=5)
//!     def initial(self) -> str          # the start position, as text
//!     def moves(self, position) -> list # its legal moves' texts, in a fixed order
//!     def play(self, position, move) -> str
//!     def status(self, position)        # the seat to move (0 = P1), or (winner, reason)
//!     def evaluate(self, position, seat) -> float   # optional: the `program` heuristic
//!     def render(self, position) -> dict            # optional: a `render` reply's fields
//!     feature_names = ["threes", ...]               # optional, with features():
//!     def features(self, position) -> [[...], [...]]  # each seat's numbers: `linear`
//! ```
//!
//! One instance per worker thread's client, made at its `hello`. Each call takes the
//! interpreter lock; games on several threads take turns in Python.

use crate::keep_thread_state;
use arbiter::external::library::{InProcess, InProcessError, Typed};
use arbiter::external::rules::GAME_PROTOCOL_VERSION;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

/// Positions whose legal moves a context remembers before it forgets them all.
const CACHED_POSITIONS: usize = 100_000;

/// The instance's methods, found once at `hello`.
struct Methods {
    initial: Py<PyAny>,
    moves: Py<PyAny>,
    play: Py<PyAny>,
    status: Py<PyAny>,
    evaluate: Option<Py<PyAny>>,
    render: Option<Py<PyAny>>,
    /// `features`, when the class names its features (`feature_names`).
    features: Option<Py<PyAny>>,
}

/// What `status` returned.
enum Stat {
    ToMove(i64),
    Over(Option<i64>, String),
}

/// Reads a `status` result: an int (the seat to move) or a pair (winner seat or None,
/// reason).
fn read_status(value: &Bound<'_, PyAny>) -> PyResult<Stat> {
    if let Ok(seat) = value.extract::<i64>() {
        return Ok(Stat::ToMove(seat));
    }
    match value.extract::<(Option<i64>, String)>() {
        Ok((winner, reason)) => Ok(Stat::Over(winner, reason)),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "status() returned {}: it must return the seat to move (0 for P1) or, once the game is over, (winner seat or None for a draw, reason)",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))),
    }
}

/// A Python exception as one line: `ValueError: column 8 is full`.
fn line_of(error: &PyErr, py: Python<'_>) -> String {
    let text = error.value(py).to_string();
    let kind = error
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_string(), |n| n.to_string());
    let text = text.lines().next().unwrap_or("").to_string();
    if text.is_empty() {
        kind
    } else {
        format!("{kind}: {text}")
    }
}

/// One context of a game hosted as a Python class.
pub struct PythonGame {
    name: String,
    class: Arc<Py<PyAny>>,
    methods: Option<Methods>,
    players: usize,
    /// Legal moves of positions asked about (a search asks a position's count, then its
    /// moves one by one between its children's).
    moves: HashMap<String, Vec<String>>,
    /// The last child made, and its status's reason.
    child: String,
    reason: String,
    /// What the last typed call that failed raised.
    error: Option<String>,
}

impl PythonGame {
    /// A context of game `name`, played by instances of `class` (made at `hello`).
    pub fn new(name: &str, class: Arc<Py<PyAny>>) -> PythonGame {
        PythonGame {
            name: name.to_string(),
            class,
            methods: None,
            players: 2,
            moves: HashMap::new(),
            child: String::new(),
            reason: String::new(),
            error: None,
        }
    }

    /// A seat's label: `P1` for 0.
    fn label(&self, seat: i64) -> Result<String, String> {
        if (0..self.players as i64).contains(&seat) {
            Ok(format!("P{}", seat + 1))
        } else {
            Err(format!(
                "status() named seat {seat}, not one of 0 to {} (seats count from 0)",
                self.players - 1
            ))
        }
    }

    /// A status as the protocol's `status` object.
    fn status_json(&self, stat: Stat) -> Result<Value, String> {
        Ok(match stat {
            Stat::ToMove(seat) => json!({"type": "status", "to_move": self.label(seat)?}),
            Stat::Over(winner, reason) => {
                let winner = winner.map(|w| self.label(w)).transpose()?;
                json!({"type": "status", "over": true, "winner": winner, "reason": reason})
            }
        })
    }

    /// The instance's methods, once `hello` made it.
    fn methods(&self) -> Result<&Methods, String> {
        self.methods
            .as_ref()
            .ok_or_else(|| "no `hello` yet".to_string())
    }

    /// Makes the instance for `hello`'s parameters; the `ready` reply.
    fn hello(&mut self, py: Python<'_>, message: &Value) -> PyResult<Value> {
        let params = serde_json::to_string(&message["params"]).unwrap_or_default();
        let params = py
            .import("json")?
            .call_method1("loads", (params,))?
            .cast_into::<PyDict>()
            .ok();
        let class = self.class.bind(py);
        let object = class.call((), params.as_ref())?;
        let method = |name: &str| -> PyResult<Option<Py<PyAny>>> {
            Ok(object
                .getattr_opt(name)?
                .filter(|m| m.is_callable())
                .map(Bound::unbind))
        };
        let required = |name: &str| -> PyResult<Py<PyAny>> {
            method(name)?.ok_or_else(|| {
                pyo3::exceptions::PyTypeError::new_err(format!(
                    "the game class has no {name}() method (it needs initial, moves, play and status)"
                ))
            })
        };
        let methods = Methods {
            initial: required("initial")?,
            moves: required("moves")?,
            play: required("play")?,
            status: required("status")?,
            evaluate: method("evaluate")?,
            render: method("render")?,
            features: method("features")?,
        };
        let feature_names: Vec<String> = match object.getattr_opt("feature_names")? {
            Some(names) if methods.features.is_some() => names.extract()?,
            _ => Vec::new(),
        };
        self.players = match object.getattr_opt("players")? {
            Some(players) => players.extract::<usize>()?,
            None => 2,
        };
        let shown = match object.getattr_opt("name")? {
            Some(name) if !name.is_callable() => name.str()?.to_string(),
            _ => self.name.clone(),
        };
        let ready = json!({
            "type": "ready", "protocol": GAME_PROTOCOL_VERSION, "name": shown,
            "players": self.players, "evaluate": methods.evaluate.is_some(),
            "render": methods.render.is_some(), "features": feature_names,
        });
        self.methods = Some(methods);
        self.moves.clear();
        Ok(ready)
    }

    /// The reply to one request (an `error` reply for what the game raised).
    fn answer(&mut self, py: Python<'_>, message: &Value) -> Result<Value, String> {
        let kind = message["type"].as_str().unwrap_or("");
        if kind == "hello" {
            return self.hello(py, message).map_err(|e| line_of(&e, py));
        }
        let methods = self.methods()?;
        let python = |e: PyErr| line_of(&e, py);
        let position = message["position"].as_str().unwrap_or("");
        let status = |position: &str| -> Result<Value, String> {
            let stat = read_status(&methods.status.bind(py).call1((position,)).map_err(python)?)
                .map_err(python)?;
            self.status_json(stat)
        };
        let moves = |position: &str| -> Result<Vec<String>, String> {
            methods
                .moves
                .bind(py)
                .call1((position,))
                .and_then(|m| m.extract::<Vec<String>>())
                .map_err(python)
        };
        Ok(match kind {
            "initial" => {
                let start: String = methods
                    .initial
                    .bind(py)
                    .call0()
                    .and_then(|p| p.extract())
                    .map_err(python)?;
                json!({"type": "position", "position": start})
            }
            "status" => status(position)?,
            "legal" => json!({"type": "legal", "moves": moves(position)?}),
            "apply" => {
                let played = message["move"].as_str().unwrap_or("");
                if !moves(position)?.iter().any(|m| m == played) {
                    return Err(format!(
                        "move '{played}' is not legal in position '{position}'"
                    ));
                }
                let child: String = methods
                    .play
                    .bind(py)
                    .call1((position, played))
                    .and_then(|c| c.extract())
                    .map_err(python)?;
                let mut reply = json!({"type": "position", "position": &child});
                let mut status = status(&child)?;
                if let Some(fields) = status.as_object_mut() {
                    fields.remove("type");
                }
                reply["status"] = status;
                reply
            }
            "evaluate" => {
                let Some(evaluate) = &methods.evaluate else {
                    return Err("the game class has no evaluate() method".to_string());
                };
                let seat = message["player"]
                    .as_str()
                    .and_then(|p| p.strip_prefix('P'))
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|n| (1..=self.players).contains(n))
                    .ok_or("`player` must name a seat, P1 to P<players>")?;
                let value: f64 = evaluate
                    .bind(py)
                    .call1((position, seat - 1))
                    .and_then(|v| v.extract())
                    .map_err(python)?;
                json!({"type": "value", "value": value})
            }
            "features" => {
                let Some(features) = &methods.features else {
                    return Err("the game class has no features() method".to_string());
                };
                let values: Vec<Vec<f64>> = features
                    .bind(py)
                    .call1((position,))
                    .and_then(|v| v.extract())
                    .map_err(python)?;
                let mut reply = json!({"type": "features"});
                for (seat, numbers) in values.iter().enumerate() {
                    reply[format!("P{}", seat + 1)] = json!(numbers);
                }
                reply
            }
            "render" => {
                let Some(render) = &methods.render else {
                    return Err("the game class has no render() method".to_string());
                };
                let drawn = render.bind(py).call1((position,)).map_err(python)?;
                let text: String = py
                    .import("json")
                    .and_then(|json| json.call_method1("dumps", (drawn,)))
                    .and_then(|t| t.extract())
                    .map_err(python)?;
                let mut reply: Value = serde_json::from_str(&text)
                    .map_err(|e| format!("render() returned what JSON cannot hold: {e}"))?;
                if !reply.is_object() {
                    return Err("render() must return a dict (a `render` reply's fields)".into());
                }
                reply["type"] = json!("render");
                reply
            }
            other => {
                return Err(format!(
                    "a Python game class answers hello, initial, status, legal, apply, evaluate, features and render, not `{other}`"
                ));
            }
        })
    }

    /// The legal moves of `position`, asked once (`None`: `moves` raised).
    fn legal(&mut self, position: &str) -> Option<&[String]> {
        if !self.moves.contains_key(position) {
            let methods = self.methods.as_ref()?;
            keep_thread_state();
            let moves = Python::attach(|py| {
                methods
                    .moves
                    .bind(py)
                    .call1((position,))
                    .and_then(|m| m.extract::<Vec<String>>())
                    .map_err(|e| format!("moves() raised {}", line_of(&e, py)))
            });
            let moves = match moves {
                Ok(moves) => moves,
                Err(why) => {
                    self.error = Some(why);
                    return None;
                }
            };
            if self.moves.len() >= CACHED_POSITIONS {
                self.moves.clear();
            }
            self.moves.insert(position.to_string(), moves);
        }
        self.moves.get(position).map(Vec::as_slice)
    }
}

impl InProcess for PythonGame {
    fn describe(&self) -> String {
        format!("Python game {}", self.name)
    }

    fn request(&mut self, line: &str) -> Result<String, InProcessError> {
        let message: Value =
            serde_json::from_str(line).map_err(|e| InProcessError::NotJson(e.to_string()))?;
        keep_thread_state();
        let reply = Python::attach(|py| self.answer(py, &message));
        Ok(reply
            .unwrap_or_else(|message| json!({"type": "error", "message": message}))
            .to_string())
    }

    fn has_typed_calls(&self) -> bool {
        true
    }

    fn has_evaluate(&self) -> bool {
        self.methods.as_ref().is_some_and(|m| m.evaluate.is_some())
    }

    fn count(&mut self, position: &str) -> Option<usize> {
        self.legal(position).map(<[String]>::len)
    }

    fn apply(&mut self, position: &str, index: u16) -> Option<(&str, Typed<'_>)> {
        let played = self.legal(position)?.get(usize::from(index))?.clone();
        let methods = self.methods.as_ref()?;
        keep_thread_state();
        let made = Python::attach(|py| -> Result<(String, Stat), String> {
            let child: String = methods
                .play
                .bind(py)
                .call1((position, played.as_str()))
                .and_then(|c| c.extract())
                .map_err(|e| format!("play() raised {}", line_of(&e, py)))?;
            let stat = methods
                .status
                .bind(py)
                .call1((child.as_str(),))
                .and_then(|s| read_status(&s))
                .map_err(|e| format!("status() of '{child}' raised {}", line_of(&e, py)))?;
            Ok((child, stat))
        });
        let (child, stat) = match made {
            Ok(made) => made,
            Err(why) => {
                self.error = Some(why);
                return None;
            }
        };
        self.child = child;
        let seat = |n: i64| i32::try_from(n).unwrap_or(i32::MIN);
        let typed = match stat {
            Stat::ToMove(to_move) => Typed {
                to_move: seat(to_move),
                over: false,
                winner: -1,
                chance: false,
                reason: "",
            },
            Stat::Over(winner, reason) => {
                self.reason = reason;
                Typed {
                    to_move: 0,
                    over: true,
                    winner: winner.map_or(-1, seat),
                    chance: false,
                    reason: &self.reason,
                }
            }
        };
        Some((&self.child, typed))
    }

    fn move_text(&mut self, position: &str, index: u16) -> Option<&str> {
        self.legal(position)?
            .get(usize::from(index))
            .map(String::as_str)
    }

    fn evaluate(&mut self, position: &str, player: usize) -> Option<f64> {
        let evaluate = self.methods.as_ref()?.evaluate.as_ref()?;
        keep_thread_state();
        let value = Python::attach(|py| {
            evaluate
                .bind(py)
                .call1((position, player))
                .and_then(|v| v.extract::<f64>())
                .map_err(|e| format!("evaluate() raised {}", line_of(&e, py)))
        });
        value.map_err(|why| self.error = Some(why)).ok()
    }

    fn take_error(&mut self) -> Option<String> {
        self.error.take()
    }
}
