//! A folder of submissions (`agents_dir = "submissions/"`): one folder per student, each
//! with a small manifest, `agent.toml`, naming the command that runs the agent. Every
//! folder with a valid manifest becomes an agent; a folder without one, a manifest that
//! does not parse, or one naming a file that is not there is reported in one line and
//! left out, so one student's mistake never stops the class's tournament.

use super::{AgentRegistry, InputError};
use std::path::{Path, PathBuf};

/// The manifest every submission folder holds.
pub const MANIFEST: &str = "agent.toml";

/// The agents found in a submissions folder, and the folders left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submissions {
    /// The agents' names, in the order of their folders' names.
    pub agents: Vec<String>,
    /// One line per folder left out: the folder (or manifest, with its line) and why.
    pub left_out: Vec<String>,
}

/// File extensions of programs and scripts a command may name beside its interpreter.
const PROGRAM_EXTENSIONS: [&str; 12] = [
    "py", "jar", "class", "js", "mjs", "rb", "pl", "sh", "lua", "php", "exe", "R",
];

/// A file the command names that is not in `cwd` (`python3 agent.py` without agent.py),
/// in one line; `None` when every named file is there.
fn missing_file(command: &[String], cwd: &Path) -> Option<String> {
    command.iter().skip(1).find_map(|arg| {
        let named = !arg.starts_with('-')
            && Path::new(arg)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| PROGRAM_EXTENSIONS.contains(&e));
        (named && !cwd.join(arg).exists())
            .then(|| format!("command names '{arg}', which is not in {}", cwd.display()))
    })
}

impl AgentRegistry {
    /// Registers an agent for every folder of `dir` holding a valid [`MANIFEST`]: its
    /// name is the manifest's `name` or the folder's, it runs in its folder unless the
    /// manifest says `cwd`, and every key of an agent file's `[[agent]]` table may be
    /// given. Folders that fail are listed in [`Submissions::left_out`].
    ///
    /// # Errors
    /// `dir` is not a folder that can be read, or holds no valid submission at all.
    pub fn add_submissions(&mut self, dir: &Path) -> Result<Submissions, InputError> {
        let fail = |message: String| InputError::in_file(dir, None, message);
        let entries = std::fs::read_dir(dir).map_err(|e| {
            fail(format!(
                "cannot read the submissions folder: {}",
                crate::core::one_line(&e.to_string())
            ))
        })?;
        let mut folders: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .filter(|p| {
                !p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with('.'))
            })
            .collect();
        folders.sort();
        let mut found = Submissions::default();
        for folder in folders {
            match self.add_submission(&folder) {
                Ok(name) => found.agents.push(name),
                Err(why) => found.left_out.push(format!("{why}: left out")),
            }
        }
        if found.agents.is_empty() {
            let why = found
                .left_out
                .first()
                .map_or("it has no folders".to_string(), |first| {
                    format!("the first: {first}")
                });
            return Err(fail(format!(
                "no submission with a valid {MANIFEST} ({why}); each student's folder needs one, e.g. command = [\"python3\", \"agent.py\"]"
            )));
        }
        Ok(found)
    }

    /// Registers the agent of one submission folder; returns its name.
    fn add_submission(&mut self, folder: &Path) -> Result<String, InputError> {
        let manifest = folder.join(MANIFEST);
        // A resume plays the submissions as the run recorded them.
        let recorded_name = folder.file_name().and_then(|n| n.to_str()).map(|n| {
            std::fs::read_to_string(&manifest)
                .ok()
                .and_then(|t| t.parse::<toml::Table>().ok())
                .and_then(|t| t.get("name").and_then(|v| v.as_str()).map(String::from))
                .unwrap_or_else(|| n.to_string())
        });
        if self.recorded
            && let Some(name) = recorded_name.filter(|n| self.agents.contains_key(n))
        {
            return Ok(name);
        }
        if !manifest.is_file() {
            return Err(InputError::in_file(
                folder,
                None,
                format!("no {MANIFEST} (a manifest naming the command that runs the agent)"),
            ));
        }
        let text = std::fs::read_to_string(&manifest).map_err(|e| {
            InputError::in_file(
                &manifest,
                None,
                format!("cannot read: {}", crate::core::one_line(&e.to_string())),
            )
        })?;
        let table: toml::Table =
            toml::from_str(&text).map_err(|e| super::toml_error(&manifest, &text, &e))?;
        let folder_name = folder
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("submission")
            .to_string();
        let name = match table.get("name") {
            Some(toml::Value::String(name)) => name.clone(),
            Some(other) => {
                return Err(InputError::in_file(
                    &manifest,
                    super::line_of_key(&text, "name"),
                    format!("name = {other}: expected a string"),
                ));
            }
            None => folder_name,
        };
        match table.get("command") {
            None => {
                return Err(InputError::in_file(
                    &manifest,
                    None,
                    "no command: give command = [\"python3\", \"agent.py\"] (the program and its arguments, run in this folder)",
                ));
            }
            Some(toml::Value::Array(list)) if list.iter().all(toml::Value::is_str) => {}
            Some(other) => {
                return Err(InputError::in_file(
                    &manifest,
                    super::line_of_key(&text, "command"),
                    format!(
                        "command = {other}: expected a list of the program and its arguments, e.g. [\"python3\", \"agent.py\"]"
                    ),
                ));
            }
        }
        // The manifest is an agent table: as one, under its header, with its name and its
        // folder filled in (lines are told as the manifest's own).
        let mut agent = table.clone();
        agent.insert("name".into(), toml::Value::String(name.clone()));
        if !agent.contains_key("cwd") {
            agent.insert("cwd".into(), toml::Value::String(".".into()));
        }
        let mut file = toml::Table::new();
        file.insert(
            "agent".into(),
            toml::Value::Array(vec![toml::Value::Table(agent)]),
        );
        let mut single = AgentRegistry {
            heuristics: self.heuristics.clone(),
            ..AgentRegistry::default()
        };
        single
            .add_text(&manifest, &toml::to_string(&file).unwrap_or_default())
            .map_err(|mut e| {
                // Lines of the rewritten table mean nothing in the manifest: point at the
                // key the message names, if any.
                e.line = e
                    .message
                    .split(['\'', ' ', '=', '.'])
                    .find(|w| !w.is_empty() && table.contains_key(*w))
                    .and_then(|key| super::line_of_key(&text, key));
                e
            })?;
        let registered = single
            .agents
            .remove(&name)
            .ok_or_else(|| InputError::in_file(&manifest, None, "the manifest defines no agent"))?;
        if let Some(external) = &registered.spec.external {
            let line = super::line_of_key(&text, "command");
            let env = &external.env;
            if let Err(why) = crate::external::find_program(&external.command, &external.cwd, env) {
                return Err(InputError::in_file(&manifest, line, why));
            }
            if let Some(why) = missing_file(&external.command, &external.cwd) {
                return Err(InputError::in_file(&manifest, line, why));
            }
        }
        if let Some(previous) = self.agents.get(&name) {
            return Err(InputError::in_file(
                &manifest,
                super::line_of_key(&text, "name"),
                format!(
                    "agent '{name}' is already defined in {}",
                    previous.file.display()
                ),
            ));
        }
        self.agents.insert(name.clone(), registered);
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn submission(dir: &Path, folder: &str, files: &[(&str, &str)]) {
        let folder = dir.join(folder);
        fs::create_dir_all(&folder).expect("folder");
        for (name, text) in files {
            fs::write(folder.join(name), text).expect("file");
        }
    }

    #[test]
    fn every_folder_with_a_manifest_is_an_agent_and_the_others_are_left_out_with_their_reason() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        let runs = "command = [\"sh\", \"agent.sh\"]\n";
        submission(root, "alice", &[(MANIFEST, runs), ("agent.sh", "")]);
        submission(
            root,
            "bob",
            &[
                (
                    MANIFEST,
                    "name = \"bobby\"\ncommand = [\"sh\", \"agent.sh\"]\noptions = { depth = 2 }\n",
                ),
                ("agent.sh", ""),
            ],
        );
        submission(root, "carol", &[("agent.sh", "")]);
        submission(root, "dave", &[(MANIFEST, runs)]);
        submission(
            root,
            "erin",
            &[(MANIFEST, "command = [\"no-such-program-x\"]\n")],
        );
        submission(
            root,
            "frank",
            &[(MANIFEST, "\ncommand = \"sh agent.sh\"\n")],
        );
        submission(
            root,
            "grace",
            &[
                (MANIFEST, "command = [\"sh\", \"agent.sh\"]\ntime_ms = 0\n"),
                ("agent.sh", ""),
            ],
        );
        submission(root, ".git", &[]);
        let mut registry = AgentRegistry::default();
        let found = registry.add_submissions(root).expect("found");
        assert_eq!(found.agents, ["alice", "bobby"]);
        let agent = &registry.agents["alice"];
        let external = agent.spec.external.as_ref().expect("a program");
        assert_eq!(
            external.cwd,
            root.join("alice").canonicalize().expect("cwd")
        );
        assert_eq!(
            registry.agents["bobby"]
                .spec
                .external
                .as_ref()
                .expect("program")
                .options["depth"],
            2
        );
        let left = found.left_out.join("\n");
        let line = |folder: &str| {
            found
                .left_out
                .iter()
                .find(|l| l.contains(&format!("/{folder}")))
                .cloned()
                .unwrap_or_else(|| panic!("{folder} not left out: {left}"))
        };
        assert!(line("carol").contains("no agent.toml"), "{left}");
        assert!(
            line("dave").contains("command names 'agent.sh', which is not in"),
            "{left}"
        );
        assert!(line("dave").contains("agent.toml: line 1"), "{left}");
        assert!(
            line("erin").contains("'no-such-program-x' not found on PATH"),
            "{left}"
        );
        assert!(line("frank").contains("agent.toml: line 2"), "{left}");
        assert!(line("grace").contains("time_ms"), "{left}");
        assert!(line("grace").contains("agent.toml: line 2"), "{left}");
        assert!(
            found.left_out.iter().all(|l| l.ends_with(": left out")),
            "{left}"
        );
        assert_eq!(found.left_out.len(), 5, "{left}");
    }

    #[test]
    fn a_folder_with_no_valid_submission_is_an_error() {
        let dir = tempfile::tempdir().expect("dir");
        submission(dir.path(), "carol", &[("agent.py", "")]);
        let error = AgentRegistry::default()
            .add_submissions(dir.path())
            .expect_err("nothing valid");
        assert!(
            error
                .to_string()
                .contains("no submission with a valid agent.toml"),
            "{error}"
        );
        let error = AgentRegistry::default()
            .add_submissions(&dir.path().join("missing"))
            .expect_err("no folder");
        assert!(
            error
                .to_string()
                .contains("cannot read the submissions folder"),
            "{error}"
        );
    }
}
