//! An agent file's entry for a program (`command = [...]`): its command, folder, options,
//! limits and sandbox, checked, as an [`ExternalSpec`].

use super::AgentEntry;
use crate::external::sandbox::SandboxSpec;
use crate::external::{ExternalSpec, OnFailure};
use crate::registry::spec::SpecError;
use std::path::Path;

/// A TOML value as JSON (for an external agent's `options`).
fn toml_to_json(value: &toml::Value) -> serde_json::Value {
    match value {
        toml::Value::String(s) => serde_json::Value::String(s.clone()),
        toml::Value::Integer(i) => serde_json::Value::from(*i),
        toml::Value::Float(f) => serde_json::Value::from(*f),
        toml::Value::Boolean(b) => serde_json::Value::Bool(*b),
        toml::Value::Datetime(d) => serde_json::Value::String(d.to_string()),
        toml::Value::Array(list) => list.iter().map(toml_to_json).collect(),
        toml::Value::Table(table) => serde_json::Value::Object(
            table
                .iter()
                .map(|(k, v)| (k.clone(), toml_to_json(v)))
                .collect(),
        ),
    }
}

/// A whole number of milliseconds (or bytes) from `low` to `high`, from an agent file.
pub(super) fn whole(key: &str, value: &toml::Value, low: u64, high: u64) -> Result<u64, SpecError> {
    value
        .as_integer()
        .and_then(|n| u64::try_from(n).ok())
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            SpecError::at(
                key,
                format!("{key} = {value}: expected a whole number from {low} to {high}"),
            )
        })
}

/// An external agent's spec from its agent-file entry; relative paths are relative to
/// `folder`, the agent file's folder.
pub(super) fn external_entry(entry: &AgentEntry, folder: &Path) -> Result<ExternalSpec, SpecError> {
    let command = entry.command.clone().unwrap_or_default();
    if command.is_empty() || command[0].trim().is_empty() {
        return Err(SpecError::at(
            "command",
            "command must list the program and its arguments, e.g. command = [\"python3\", \"bots/my_bot.py\"]",
        ));
    }
    let given = [
        ("algorithm", entry.algorithm.is_some()),
        ("heuristic", entry.heuristic.is_some()),
        ("depth", entry.depth.is_some()),
        ("params", !entry.params.is_empty()),
        ("k", entry.k.is_some()),
        ("gamma", entry.gamma.is_some()),
        ("nodes", entry.nodes.is_some()),
        ("tt_mb", entry.tt_mb.is_some()),
        ("aspiration", entry.aspiration.is_some()),
        ("iterations", entry.iterations.is_some()),
        ("c", entry.c.is_some()),
        ("rollout", entry.rollout.is_some()),
        ("rollout_plies", entry.rollout_plies.is_some()),
        ("epsilon", entry.epsilon.is_some()),
    ];
    if let Some((key, _)) = given.iter().find(|(_, set)| *set) {
        return Err(SpecError::at(
            *key,
            format!(
                "an external agent (command = ...) takes no {key}: its settings go in options = {{ ... }}"
            ),
        ));
    }
    let cwd = folder.join(entry.cwd.as_deref().unwrap_or("."));
    let cwd = std::path::absolute(&cwd).unwrap_or(cwd);
    let mut spec = ExternalSpec::new(command, cwd);
    spec.env = entry.env.clone();
    spec.options = entry
        .options
        .iter()
        .map(|(k, v)| (k.clone(), toml_to_json(v)))
        .collect();
    let most_ms = crate::core::MAX_SECONDS * 1000;
    for (key, value, target) in [
        ("startup_ms", &entry.startup_ms, &mut spec.startup_ms),
        ("tolerance_ms", &entry.tolerance_ms, &mut spec.tolerance_ms),
        ("hang_ms", &entry.hang_ms, &mut spec.hang_ms),
        ("ping_ms", &entry.ping_ms, &mut spec.ping_ms),
    ] {
        if let Some(value) = value {
            *target = whole(
                key,
                value,
                if key == "tolerance_ms" { 0 } else { 1 },
                most_ms,
            )?;
        }
    }
    if let Some(value) = &entry.time_ms {
        spec.time_ms = Some(whole("time_ms", value, 1, most_ms)?);
    }
    if let Some(value) = &entry.max_startup_failures {
        spec.max_startup_failures = whole("max_startup_failures", value, 1, 1_000_000)? as u32;
    }
    if let Some(value) = &entry.stderr_bytes {
        spec.stderr_bytes = whole("stderr_bytes", value, 0, 1 << 40)?;
    }
    spec.on_failure = match entry.on_failure.as_deref() {
        None | Some("forfeit") => OnFailure::Forfeit,
        Some("random") => OnFailure::Random,
        Some(other) => {
            return Err(SpecError::at(
                "on_failure",
                format!("on_failure = '{other}': expected 'forfeit' or 'random'"),
            ));
        }
    };
    spec.strict = entry.strict.unwrap_or(false);
    if let Some(value) = &entry.sandbox {
        spec.sandbox = sandbox_entry(value, folder)?;
    }
    Ok(spec)
}

/// `sandbox = true`, `false`, or a table of limits (`memory_mb`, `processes`,
/// `cpu_seconds`, `output_mb`, `read = [folders]`) from an agent file.
pub(in crate::registry) fn sandbox_entry(
    value: &toml::Value,
    folder: &Path,
) -> Result<Option<SandboxSpec>, SpecError> {
    let table = match value {
        toml::Value::Boolean(on) => return Ok(on.then(SandboxSpec::default)),
        toml::Value::Table(table) => table,
        other => {
            return Err(SpecError::at(
                "sandbox",
                format!(
                    "sandbox = {other}: expected true, false or a table such as {{ memory_mb = 512 }}"
                ),
            ));
        }
    };
    let mut spec = SandboxSpec::default();
    for (key, value) in table {
        let target = match key.as_str() {
            "memory_mb" => &mut spec.memory_mb,
            "processes" => &mut spec.processes,
            "cpu_seconds" => &mut spec.cpu_seconds,
            "output_mb" => &mut spec.output_mb,
            "read" => {
                let folders = value
                    .as_array()
                    .filter(|list| list.iter().all(toml::Value::is_str))
                    .ok_or_else(|| {
                        SpecError::at(
                            "sandbox",
                            format!("sandbox.read = {value}: expected a list of folders"),
                        )
                    })?;
                spec.read = folders
                    .iter()
                    .filter_map(toml::Value::as_str)
                    .map(|f| std::path::absolute(folder.join(f)).unwrap_or_else(|_| folder.join(f)))
                    .collect();
                continue;
            }
            other => {
                return Err(SpecError::at(
                    "sandbox",
                    format!(
                        "sandbox.{other}: unknown; expected memory_mb, processes, cpu_seconds, output_mb or read"
                    ),
                ));
            }
        };
        *target = whole(&format!("sandbox.{key}"), value, 1, 1 << 40).map_err(|e| SpecError {
            key: Some("sandbox".to_string()),
            ..e
        })?;
    }
    Ok(Some(spec))
}
