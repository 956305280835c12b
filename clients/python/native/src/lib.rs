//! `arbiter._native`: arbiter's own code called from Python. The commands are the
//! library's (`arbiter::experiment::launch`, which the command line calls too): their
//! options cross as JSON text read into the library's typed requests (so every option has
//! the command line's name, default and message), their results as JSON text, which the
//! Python half (`arbiter/__init__.py`) turns into objects and data frames.
//!
//! Nothing here panics into Python: a panic in arbiter becomes an `ArbiterError`, and a
//! run plays on a thread of its own while Python waits with the interpreter lock released
//! (so Python agents can move, and Ctrl-C reaches the notebook).

use arbiter::experiment::launch::{self, request_from_json};
use arbiter::experiment::{self, Finished};
use arbiter::external::hosted::{self, Answer, MoveFields, Session};
mod game;
mod objects;

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

create_exception!(
    _native,
    ArbiterError,
    PyException,
    "What arbiter refused or could not do, in the command line's one-line words."
);

/// Runs `work`, turning an error or a panic into its one-line message.
fn guarded<T>(work: impl FnOnce() -> anyhow::Result<T>) -> Result<T, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(arbiter::core::error_line(&*error)),
        Err(panic) => Err(format!(
            "internal error (a bug in arbiter): {}",
            panic_text(&panic)
        )),
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

fn raise(message: String) -> PyErr {
    ArbiterError::new_err(message)
}

/// A run's end as JSON.
fn finished_json(finished: &Finished) -> Value {
    json!({
        "folder": finished.folder,
        "documents": finished.documents,
        "played": finished.outcome.played,
        "skipped": finished.outcome.skipped,
        "total": finished.outcome.total,
        "complete": !finished.outcome.cancelled,
        "interrupted": finished.interrupted,
        "unit": finished.unit,
        "tables": finished.tables,
        "notes": finished.notes,
        "exit_code": finished.exit_code(),
    })
}

/// One command's work, given its options as a JSON object.
fn command(name: &str, options: &str) -> anyhow::Result<Value> {
    Ok(match name {
        "run" => launch::run(request_from_json(name, options)?)?
            .map_or(Value::Null, |f| finished_json(&f)),
        "match" => finished_json(&launch::play_match(request_from_json(name, options)?)?),
        "compare" => finished_json(&launch::compare(request_from_json(name, options)?)?),
        "solve" => serde_json::to_value(launch::solve(request_from_json(name, options)?)?)?,
        other => anyhow::bail!("no command '{other}'"),
    })
}

/// A command running on a thread of its own.
#[pyclass(module = "arbiter._native")]
struct Job {
    thread: Mutex<Option<JoinHandle<Result<String, String>>>>,
}

#[pymethods]
impl Job {
    /// Waits up to `seconds` for the command to end, without the interpreter lock;
    /// whether it ended.
    fn wait(&self, py: Python<'_>, seconds: f64) -> bool {
        let until = Instant::now() + Duration::from_secs_f64(seconds.clamp(0.0, 3600.0));
        py.detach(|| {
            loop {
                let ended = self
                    .thread
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .as_ref()
                    .is_none_or(JoinHandle::is_finished);
                if ended {
                    return true;
                }
                if Instant::now() >= until {
                    return false;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    }

    /// The command's result as JSON text (after [`Job::wait`] said it ended).
    ///
    /// Raises `ArbiterError` with its message when it failed.
    fn result(&self, py: Python<'_>) -> PyResult<String> {
        let thread = self
            .thread
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .ok_or_else(|| raise("the result was already taken".to_string()))?;
        let joined = py.detach(|| thread.join());
        match joined {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(message)) => Err(raise(message)),
            Err(panic) => Err(raise(format!(
                "internal error (a bug in arbiter): {}",
                panic_text(&panic)
            ))),
        }
    }
}

/// Starts command `name` (`run`, `match`, `compare`, `solve`) with its options as a
/// JSON object (the command line's option names with `_` for `-`; a run's `source` is
/// its experiment's text in place of its file's).
#[pyfunction]
fn start(name: String, options: String) -> PyResult<Job> {
    let thread = std::thread::Builder::new()
        .name(format!("arbiter-{name}"))
        // The command line's main thread has 8 MB; searches recurse.
        .stack_size(64 << 20)
        .spawn(move || guarded(|| command(&name, &options)).map(|value| value.to_string()))
        .map_err(|e| raise(format!("cannot start a thread: {e}")))?;
    Ok(Job {
        thread: Mutex::new(Some(thread)),
    })
}

/// Stops the runs in progress as Ctrl-C does: cleanly, resumable.
#[pyfunction]
fn interrupt() {
    experiment::interrupt();
}

/// (jobs done, jobs planned) of the run in progress.
#[pyfunction]
fn progress() -> (u64, u64) {
    experiment::progress()
}

/// The leaves of the legal-move tree at depths 1 to `depth`.
#[pyfunction]
#[pyo3(signature = (game, depth, agents=None))]
fn perft(py: Python<'_>, game: String, depth: u32, agents: Option<String>) -> PyResult<Vec<u64>> {
    py.detach(|| {
        guarded(|| {
            Ok(experiment::tools::perft_counts(
                &game,
                depth,
                agents.as_deref().map(std::path::Path::new),
            )?)
        })
    })
    .map_err(raise)
}

/// The games, algorithms and registered agents, as JSON text.
#[pyfunction]
#[pyo3(signature = (agents=None))]
fn listing(agents: Option<String>) -> PyResult<String> {
    guarded(|| {
        let (registry, folder) =
            arbiter::registry::load_agents(agents.as_deref().map(std::path::Path::new), None)?;
        let mut games: Vec<Value> = arbiter::registry::GAMES
            .iter()
            .map(|g| {
                json!({
                    "name": g.name,
                    "kind": "built-in",
                    "params": g.params,
                    "heuristics": g.heuristics.iter().map(|h| h.name).collect::<Vec<_>>(),
                    "description": "",
                })
            })
            .collect();
        for (name, game) in &registry.games {
            games.push(json!({
                "name": name,
                "kind": if game.spec.hosted.is_some() {
                    "python"
                } else if game.spec.library.is_some() {
                    "library"
                } else {
                    "program"
                },
                "params": game.spec.command_line(),
                "heuristics": arbiter::external::rules_heuristics::HEURISTICS
                    .iter()
                    .map(|h| h.name)
                    .collect::<Vec<_>>(),
                "description": game.description,
            }));
        }
        let agents: Vec<Value> = registry
            .agents
            .iter()
            .map(|(name, agent)| {
                let kind = match &agent.spec.external {
                    Some(e) if e.hosted.is_some() => "python",
                    Some(_) => "program",
                    None => "built-in",
                };
                json!({
                    "name": name,
                    "kind": kind,
                    "spec": agent.spec.describe(),
                    "file": agent.file,
                })
            })
            .collect();
        let algorithms: Vec<Value> = arbiter::search::Algorithm::ALL
            .iter()
            .map(|a| json!({"name": a.name(), "description": a.describe()}))
            .collect();
        Ok(json!({
            "games": games,
            "agents": agents,
            "algorithms": algorithms,
            "agents_folder": folder,
        })
        .to_string())
    })
    .map_err(raise)
}

/// What `arbiter show` prints for a results folder.
#[pyfunction]
fn show(py: Python<'_>, folder: String) -> PyResult<String> {
    py.detach(|| {
        guarded(|| {
            Ok(experiment::inspect::show_text(std::path::Path::new(
                &folder,
            ))?)
        })
    })
    .map_err(raise)
}

/// Writes a results folder's charts and documents again (or only game `game`'s viewer
/// page); the files written.
#[pyfunction]
#[pyo3(signature = (folder, game=None))]
fn report(py: Python<'_>, folder: String, game: Option<u64>) -> PyResult<Vec<String>> {
    py.detach(|| {
        guarded(|| {
            let files = experiment::inspect::report_files(std::path::Path::new(&folder), game)?;
            Ok(files.iter().map(|p| p.display().to_string()).collect())
        })
    })
    .map_err(raise)
}

/// The run folder a path names: itself, or an experiment folder's newest run.
#[pyfunction]
fn run_folder(folder: String) -> PyResult<String> {
    arbiter::records::loaded::resolve_run_folder(std::path::Path::new(&folder))
        .map(|p| p.display().to_string())
        .map_err(|e| raise(e.to_string()))
}

/// An experiment given as a Python dict (JSON text) as TOML text, for `run`.
#[pyfunction]
fn toml_text(json_text: &str) -> PyResult<String> {
    let value: Value = serde_json::from_str(json_text)
        .map_err(|e| raise(format!("the experiment is not plain data: {e}")))?;
    if !value.is_object() {
        return Err(raise(
            "an experiment is a dict of its keys (name, game, games, matchups, ...)".to_string(),
        ));
    }
    if let Some(path) = null_path(&value, String::new()) {
        return Err(raise(format!(
            "experiment key '{path}' is None: leave the key out instead"
        )));
    }
    let table: toml::Table = serde_json::from_value(value)
        .map_err(|e| raise(format!("the experiment cannot be written as TOML: {e}")))?;
    toml::to_string(&table)
        .map_err(|e| raise(format!("the experiment cannot be written as TOML: {e}")))
}

/// Where `value` holds a null (TOML has none), as a dotted path.
fn null_path(value: &Value, at: String) -> Option<String> {
    match value {
        Value::Null => Some(at),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| null_path(v, format!("{at}[{i}]"))),
        Value::Object(map) => map.iter().find_map(|(k, v)| {
            let path = if at.is_empty() {
                k.clone()
            } else {
                format!("{at}.{k}")
            };
            null_path(v, path)
        }),
        _ => None,
    }
}

/// A Python object speaking the agent protocol a line at a time: `handle(line)` returns
/// (reply lines, log text, failure or None); a move request goes to its `move_fields`
/// as the request's fields instead (no line written and parsed), with only the moves it
/// was not given before.
struct PythonSession {
    session: Py<PyAny>,
    /// The game and the number of its moves the session was given so far.
    given: (u64, usize),
}

/// Gives the calling thread (one of arbiter's workers) a Python thread state that lives
/// as long as the thread: without it every call would create and destroy one (what
/// `Python::attach` does on a thread Python does not know), a large part of a hosted
/// agent's cost per move.
pub(crate) fn keep_thread_state() {
    thread_local! {
        static KEPT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    KEPT.with(|kept| {
        if !kept.get() {
            // SAFETY: called on a thread that does not hold the interpreter lock (a worker
            // of arbiter's, never Python's own thread). Ensure makes the thread state and
            // takes the lock; SaveThread gives the lock back and keeps the state, whose
            // count stays at one, so later attaches reuse it instead of making their own.
            unsafe {
                let _ = pyo3::ffi::PyGILState_Ensure();
                pyo3::ffi::PyEval_SaveThread();
            }
            kept.set(true);
        }
    });
}

/// The reply line of a move and the info given with it (JSON text; left out if it is not
/// JSON, as Python's `json.dumps` writes `NaN`), written as a program's would read.
fn move_line(mv: &str, info: Option<&str>) -> String {
    let mut line = Vec::with_capacity(32 + mv.len() + info.map_or(0, str::len));
    line.extend_from_slice(b"{\"type\":\"move\",\"move\":");
    arbiter::core::json::push_str(&mut line, mv);
    if let Some(info) = info.filter(|i| serde_json::from_str::<serde::de::IgnoredAny>(i).is_ok()) {
        line.extend_from_slice(b",\"info\":");
        line.extend_from_slice(info.as_bytes());
    }
    line.push(b'}');
    // Only UTF-8 went in: the move and the info were Rust strings.
    String::from_utf8(line).unwrap_or_default()
}

impl Session for PythonSession {
    fn handle_move(&mut self, fields: &MoveFields<'_>) -> Option<Answer> {
        keep_thread_state();
        let (game, given) = self.given;
        // The moves it has are a prefix of this game's (each move adds one): only the new
        // ones cross, as Python strings.
        let from = if game == fields.game_id && given <= fields.history.len() {
            given
        } else {
            0
        };
        let answer = Python::attach(|py| {
            // The position and the clock cross as Python objects, read from their JSON
            // text here (Python's json.loads was most of the Python side's time).
            let position = objects::from_json(py, fields.position)?;
            let clock = fields
                .clock
                .map(|clock| objects::from_json(py, clock))
                .transpose()?;
            self.session
                .bind(py)
                .call_method1(
                    pyo3::intern!(py, "move_fields"),
                    (
                        position,
                        fields.legal,
                        from,
                        &fields.history[from..],
                        fields.ply,
                        fields.seat,
                        fields.game_id,
                        clock,
                        fields.time_ms,
                    ),
                )
                .and_then(|answer| {
                    answer.extract::<(Option<String>, Option<String>, String, Option<String>)>()
                })
        });
        self.given = (fields.game_id, fields.history.len());
        Some(match answer {
            Ok((mv, info, log, failure)) => {
                let replies = mv
                    .map(|mv| move_line(&mv, info.as_deref()))
                    .into_iter()
                    .collect();
                Answer {
                    replies,
                    log,
                    failure,
                }
            }
            Err(e) => {
                self.given = (0, 0);
                Answer {
                    failure: Some(e.to_string()),
                    ..Answer::default()
                }
            }
        })
    }

    fn handle(&mut self, line: &str) -> Answer {
        // A line (`new_game` above all) may give the session a new list of moves: the
        // next move request sends them all.
        self.given = (u64::MAX, 0);
        keep_thread_state();
        Python::attach(|py| {
            let answer = self
                .session
                .bind(py)
                .call_method1("handle", (line,))
                .and_then(|answer| answer.extract::<(Vec<String>, String, Option<String>)>());
            match answer {
                Ok((replies, log, failure)) => Answer {
                    replies,
                    log,
                    failure,
                },
                Err(e) => Answer {
                    failure: Some(e.to_string()),
                    ..Answer::default()
                },
            }
        })
    }
}

/// Makes agent `name` play by the sessions `factory()` makes (objects with
/// `handle(line)`), in every run from now on.
#[pyfunction]
fn host(name: String, factory: Py<PyAny>) {
    let factory = Arc::new(factory);
    hosted::host(
        &name,
        Arc::new(move || {
            Python::attach(|py| {
                factory
                    .bind(py)
                    .call0()
                    .map(|session| {
                        Box::new(PythonSession {
                            session: session.unbind(),
                            given: (u64::MAX, 0),
                        }) as Box<dyn Session>
                    })
                    .map_err(|e| e.to_string())
            })
        }),
    );
}

/// Forgets hosted agent `name`.
#[pyfunction]
fn unhost(name: String) {
    hosted::unhost(&name);
}

/// Makes game `name` answer by instances of the Python class `class` (see
/// [`game::PythonGame`]), in every run from now on.
#[pyfunction]
fn host_game(name: String, class: Py<PyAny>) {
    let class = Arc::new(class);
    let shown = name.clone();
    hosted::host_game(
        &name,
        Arc::new(move || {
            Ok(Box::new(game::PythonGame::new(&shown, Arc::clone(&class)))
                as Box<dyn arbiter::external::library::InProcess>)
        }),
    );
}

/// Forgets hosted game `name`.
#[pyfunction]
fn unhost_game(name: String) {
    hosted::unhost_game(&name);
}

/// The schema of a run folder's files (arbiter's records::schema) as JSON text: each CSV
/// file's frame, and the columns read as text, floats, unsigned numbers and counts that
/// may be empty.
#[pyfunction]
fn schema() -> String {
    use arbiter::records::schema;
    let frames: serde_json::Map<String, Value> = schema::FILES
        .iter()
        .filter_map(|f| {
            f.frame
                .map(|frame| (frame.to_string(), Value::from(f.name)))
        })
        .collect();
    serde_json::json!({
        "frames": frames,
        "text": schema::TEXT_COLUMNS,
        "float": schema::FLOAT_COLUMNS,
        "unsigned": schema::UNSIGNED_COLUMNS,
        "count": schema::COUNT_COLUMNS,
    })
    .to_string()
}

/// The version of arbiter this module was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The Python objects of a JSON text as a hosted agent is handed its position (for the
/// package's tests: the same as `json.loads` gives).
#[pyfunction]
fn objects_of_json(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    objects::from_json(py, text.as_bytes())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    experiment::embed();
    m.add("ArbiterError", m.py().get_type::<ArbiterError>())?;
    m.add_class::<Job>()?;
    m.add_function(wrap_pyfunction!(start, m)?)?;
    m.add_function(wrap_pyfunction!(interrupt, m)?)?;
    m.add_function(wrap_pyfunction!(progress, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(listing, m)?)?;
    m.add_function(wrap_pyfunction!(toml_text, m)?)?;
    m.add_function(wrap_pyfunction!(host, m)?)?;
    m.add_function(wrap_pyfunction!(unhost, m)?)?;
    m.add_function(wrap_pyfunction!(host_game, m)?)?;
    m.add_function(wrap_pyfunction!(unhost_game, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(schema, m)?)?;
    m.add_function(wrap_pyfunction!(show, m)?)?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(run_folder, m)?)?;
    m.add_function(wrap_pyfunction!(objects_of_json, m)?)?;
    Ok(())
}
