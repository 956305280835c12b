//! A folder of submissions (`agents_dir = "submissions/"`): one folder per student, each
//! with a small manifest, `agent.toml`, naming the command that runs the agent. Every
//! folder with a valid manifest becomes an agent named by the folder; a folder without
//! one, a manifest that does not parse, names a file that is not there, or tries to set
//! what is the teacher's (another folder, a sandbox, a limit), and a folder whose name is
//! already an agent's, is reported in one line and left out, so one student's mistake
//! (or attack) never stops the class's tournament nor changes its rules.

use super::{AgentRegistry, InputError};
use std::path::{Path, PathBuf};

/// The manifest every submission folder holds.
pub const MANIFEST: &str = "agent.toml";

/// The agents found in a submissions folder, and the folders left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Submissions {
    /// The agents' names, in the order of their folders' names.
    pub agents: Vec<String>,
    /// The folders left out, each with why.
    pub left_out: Vec<LeftOut>,
}

/// A submission that does not play, and why: its folder failed to load, or its program
/// failed the checks before the games. Recorded in meta.json, shown by `show`, report.md
/// and index.html, and in standings.csv.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LeftOut {
    /// The submission (its folder's name).
    pub name: String,
    /// Why, in one line (naming the file and line where one is to blame).
    pub reason: String,
}

impl std::fmt::Display for LeftOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: left out", self.reason)
    }
}

impl LeftOut {
    /// The reason with the path up to the submission's folder cut (`agent.toml: line 2:
    /// ...` rather than the whole path), for tables.
    pub fn short_reason(&self) -> &str {
        for marker in [format!("/{}/", self.name), format!("/{}: ", self.name)] {
            // Only a path the reason starts with (a file named later stays whole).
            if let Some(at) = self.reason.find(&marker)
                && !self.reason[..at].contains(char::is_whitespace)
            {
                return self.reason[at + marker.len()..].trim_start();
            }
        }
        &self.reason
    }
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

/// What a manifest may give: the program and what it is told. The folder it runs in
/// (beyond a folder inside its own), its sandbox, its limits and its name are the
/// teacher's: the class file and `--sandbox` decide them, and the folder names the agent.
const MANIFEST_KEYS: [&str; 7] = [
    "command",
    "options",
    "env",
    "startup_ms",
    "cwd",
    "description",
    "name",
];

/// Agent-file keys that set a limit or a rule of play: never a submission's to set.
const TEACHERS_KEYS: [&str; 9] = [
    "sandbox",
    "time_ms",
    "tolerance_ms",
    "hang_ms",
    "ping_ms",
    "on_failure",
    "strict",
    "max_startup_failures",
    "stderr_bytes",
];

/// Why a manifest's `key` is refused, in one line.
fn refused_key(key: &str) -> String {
    if key == "sandbox" {
        "sandbox: a submission cannot set its own sandbox or limits; the class file (sandbox = { ... }) and --sandbox decide them".to_string()
    } else if TEACHERS_KEYS.contains(&key) {
        format!(
            "{key}: a submission cannot set its own limits or rules of play; the class file decides them"
        )
    } else {
        format!(
            "unknown key '{key}': a manifest gives {}",
            "command, options, env, startup_ms, cwd (a folder inside its own), description and name (shown, not its agent's name)"
        )
    }
}

impl AgentRegistry {
    /// Registers an agent for every folder of `dir` holding a valid [`MANIFEST`]: the
    /// folder names it, it runs in its folder (or a folder inside it), it is told its
    /// manifest's `options` and `env`, and it runs in `sandbox` when the teacher gives one
    /// (`--sandbox` may add or remove it). Folders that fail, manifests that try to set
    /// what is the teacher's, and folders whose name is already an agent's are listed in
    /// [`Submissions::left_out`].
    ///
    /// # Errors
    /// `dir` is not a folder that can be read, or holds no valid submission at all.
    pub fn add_submissions(
        &mut self,
        dir: &Path,
        sandbox: Option<&crate::external::sandbox::SandboxSpec>,
    ) -> Result<Submissions, InputError> {
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
                    .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
            })
            .collect();
        folders.sort();
        let mut found = Submissions::default();
        for folder in folders {
            match self.add_submission(&folder, sandbox) {
                Ok(name) => found.agents.push(name),
                Err(why) => found.left_out.push(LeftOut {
                    name: folder
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                    reason: why.to_string(),
                }),
            }
        }
        if found.agents.is_empty() {
            let why = found
                .left_out
                .first()
                .map_or("it has no folders".to_string(), |first| {
                    format!("the first: {}", first.reason)
                });
            return Err(fail(format!(
                "no submission with a valid {MANIFEST} ({why}); each student's folder needs one, e.g. command = [\"python3\", \"agent.py\"]"
            )));
        }
        Ok(found)
    }

    /// Registers the agent of one submission folder; returns its name (the folder's).
    fn add_submission(
        &mut self,
        folder: &Path,
        sandbox: Option<&crate::external::sandbox::SandboxSpec>,
    ) -> Result<String, InputError> {
        let manifest = folder.join(MANIFEST);
        let name = submission_name(folder)?;
        // A resume plays the submissions as the run recorded them.
        if self.recorded && self.agents.contains_key(&name) {
            return Ok(name);
        }
        self.check_name_free(&name, folder)?;
        let (text, table) = read_manifest(folder, &manifest)?;
        let cwd = inside_folder(folder, table.get("cwd")).map_err(|why| {
            InputError::in_file(&manifest, super::line_of_key(&text, "cwd"), why.message)
        })?;
        // The manifest is an agent table: as one, under its header, with the folder's name
        // and the folder it runs in filled in (lines are told as the manifest's own).
        let mut agent = table.clone();
        agent.remove("name");
        agent.insert("name".into(), toml::Value::String(name.clone()));
        agent.insert(
            "cwd".into(),
            toml::Value::String(cwd.to_string_lossy().into_owned()),
        );
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
        let mut registered = single
            .agents
            .remove(&name)
            .ok_or_else(|| InputError::in_file(&manifest, None, "the manifest defines no agent"))?;
        if let Some(external) = &mut registered.spec.external {
            let line = super::line_of_key(&text, "command");
            let env = &external.env;
            if let Err(why) = crate::external::find_program(&external.command, &external.cwd, env) {
                return Err(InputError::in_file(&manifest, line, why));
            }
            if let Some(why) = missing_file(&external.command, &external.cwd) {
                return Err(InputError::in_file(&manifest, line, why));
            }
            external.sandbox = sandbox.cloned();
        }
        self.agents.insert(name.clone(), registered);
        Ok(name)
    }

    /// Refuses a submission whose name is already an agent's or a built-in algorithm's.
    fn check_name_free(&self, name: &str, folder: &Path) -> Result<(), InputError> {
        if let Some(taken) = self.agents.get(name) {
            return Err(InputError::in_file(
                folder,
                None,
                format!(
                    "the folder's name '{name}' is already an agent's (defined in {}): rename the folder",
                    taken.file.display()
                ),
            ));
        }
        if name.parse::<crate::search::Algorithm>().is_ok() {
            return Err(InputError::in_file(
                folder,
                None,
                format!(
                    "the folder's name '{name}' is arbiter's built-in agent '{name}': rename the folder"
                ),
            ));
        }
        Ok(())
    }
}

/// The agent name a submission folder gives: its own name, when it can name an agent.
fn submission_name(folder: &Path) -> Result<String, InputError> {
    let name = match folder.file_name().and_then(|n| n.to_str()) {
        Some(name) if super::agents::is_name(name) => name.to_string(),
        Some(name) => {
            return Err(InputError::in_file(
                folder,
                None,
                format!(
                    "the folder's name '{name}' cannot name an agent: rename it with letters, digits, '-', '_' and '.' only"
                ),
            ));
        }
        None => {
            return Err(InputError::in_file(
                folder,
                None,
                "the folder's name is not UTF-8 text and cannot name an agent: rename it with letters, digits, '-', '_' and '.' only",
            ));
        }
    };
    Ok(name)
}

/// The text and table of a submission's manifest, checked: a file of its own (no symbolic
/// link), only the keys a submission may set, a name that is text, a command that is a
/// list of words.
fn read_manifest(folder: &Path, manifest: &Path) -> Result<(String, toml::Table), InputError> {
    match std::fs::symlink_metadata(manifest) {
        Err(_) => {
            return Err(InputError::in_file(
                folder,
                None,
                format!("no {MANIFEST} (a manifest naming the command that runs the agent)"),
            ));
        }
        Ok(meta) if meta.file_type().is_symlink() => {
            return Err(InputError::in_file(
                manifest,
                None,
                "a symbolic link: the manifest must be a file of the submission's own",
            ));
        }
        Ok(_) => {}
    }
    let text = super::read_input(manifest)?;
    let table: toml::Table =
        toml::from_str(&text).map_err(|e| super::toml_error(manifest, &text, &e))?;
    if let Some(key) = table.keys().find(|k| !MANIFEST_KEYS.contains(&k.as_str())) {
        return Err(InputError::in_file(
            manifest,
            super::line_of_key(&text, key),
            refused_key(key),
        ));
    }
    if let Some(other) = table.get("name").filter(|v| !v.is_str()) {
        return Err(InputError::in_file(
            manifest,
            super::line_of_key(&text, "name"),
            format!("name = {other}: expected a string"),
        ));
    }
    match table.get("command") {
        None => {
            return Err(InputError::in_file(
                manifest,
                None,
                "no command: give command = [\"python3\", \"agent.py\"] (the program and its arguments, run in this folder)",
            ));
        }
        Some(toml::Value::Array(list)) if list.iter().all(toml::Value::is_str) => {}
        Some(other) => {
            return Err(InputError::in_file(
                manifest,
                super::line_of_key(&text, "command"),
                format!(
                    "command = {other}: expected a list of the program and its arguments, e.g. [\"python3\", \"agent.py\"]"
                ),
            ));
        }
    }
    Ok((text, table))
}

/// The folder a submission runs in: its own, or `cwd` when that is a folder inside it
/// (symbolic links followed), as an absolute path.
fn inside_folder(folder: &Path, cwd: Option<&toml::Value>) -> Result<PathBuf, InputError> {
    let fail = |message: String| InputError::in_file(folder, None, message);
    let own = folder.canonicalize().map_err(|e| {
        fail(format!(
            "cannot read the folder: {}",
            crate::core::one_line(&e.to_string())
        ))
    })?;
    let Some(cwd) = cwd else {
        return Ok(own);
    };
    let Some(given) = cwd.as_str() else {
        return Err(fail(format!(
            "cwd = {cwd}: expected a folder inside the submission's own"
        )));
    };
    match own.join(given).canonicalize() {
        Ok(inside) if inside.starts_with(&own) && inside.is_dir() => Ok(inside),
        Ok(_) => Err(fail(format!(
            "cwd = \"{given}\" is outside the submission's folder: a submission runs in its own folder (or one inside it)"
        ))),
        Err(_) => Err(fail(format!(
            "cwd = \"{given}\": no such folder inside the submission's folder"
        ))),
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
            let path = folder.join(name);
            fs::create_dir_all(path.parent().expect("a parent")).expect("folder");
            fs::write(path, text).expect("file");
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
        let found = registry.add_submissions(root, None).expect("found");
        assert_eq!(found.agents, ["alice", "bob"], "named by their folders");
        let agent = &registry.agents["alice"];
        let external = agent.spec.external.as_ref().expect("a program");
        assert_eq!(
            external.cwd,
            root.join("alice").canonicalize().expect("cwd")
        );
        assert_eq!(
            registry.agents["bob"]
                .spec
                .external
                .as_ref()
                .expect("program")
                .options["depth"],
            2
        );
        let lines: Vec<String> = found.left_out.iter().map(ToString::to_string).collect();
        let left = lines.join("\n");
        let line = |folder: &str| {
            lines
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
        assert!(
            line("grace").contains("time_ms: a submission cannot set its own limits"),
            "{left}"
        );
        assert!(line("grace").contains("agent.toml: line 2"), "{left}");
        assert!(lines.iter().all(|l| l.ends_with(": left out")), "{left}");
        assert_eq!(found.left_out.len(), 5, "{left}");
    }

    #[test]
    fn a_folder_with_no_valid_submission_is_an_error() {
        let dir = tempfile::tempdir().expect("dir");
        submission(dir.path(), "carol", &[("agent.py", "")]);
        let error = AgentRegistry::default()
            .add_submissions(dir.path(), None)
            .expect_err("nothing valid");
        assert!(
            error
                .to_string()
                .contains("no submission with a valid agent.toml"),
            "{error}"
        );
        let error = AgentRegistry::default()
            .add_submissions(&dir.path().join("missing"), None)
            .expect_err("no folder");
        assert!(
            error
                .to_string()
                .contains("cannot read the submissions folder"),
            "{error}"
        );
    }

    /// The attacks of a class's manifests: another student's folder, a sandbox or limits
    /// of their own, another's name, an agent file that is no file.
    #[test]
    fn a_manifest_cannot_set_what_is_the_teachers_nor_take_a_name() {
        let dir = tempfile::tempdir().expect("dir");
        let root = dir.path();
        let runs = "command = [\"sh\", \"agent.sh\"]\n";
        let with = |extra: &str| format!("{runs}{extra}\n");
        submission(root, "carol", &[(MANIFEST, runs), ("agent.sh", "")]);
        submission(
            root,
            "aaa_dup",
            &[(MANIFEST, &with("name = \"carol\"")), ("agent.sh", "")],
        );
        submission(
            root,
            "cwd_out",
            &[(MANIFEST, &with("cwd = \"../carol\"")), ("agent.sh", "")],
        );
        submission(
            root,
            "cwd_in",
            &[(MANIFEST, &with("cwd = \"src\"")), ("src/agent.sh", "")],
        );
        submission(
            root,
            "reads",
            &[
                (MANIFEST, &with("sandbox = { read = [\"../carol\"] }")),
                ("agent.sh", ""),
            ],
        );
        submission(
            root,
            "greedy_limits",
            &[
                (
                    MANIFEST,
                    &with("sandbox = { memory_mb = 8192, processes = 100000 }"),
                ),
                ("agent.sh", ""),
            ],
        );
        submission(
            root,
            "slow",
            &[(MANIFEST, &with("tolerance_ms = 600000")), ("agent.sh", "")],
        );
        submission(
            root,
            "searcher",
            &[
                (MANIFEST, &with("algorithm = \"alphabeta\"")),
                ("agent.sh", ""),
            ],
        );
        submission(root, "random", &[(MANIFEST, runs), ("agent.sh", "")]);
        submission(root, "known", &[(MANIFEST, runs), ("agent.sh", "")]);
        submission(root, "bad name", &[(MANIFEST, runs), ("agent.sh", "")]);
        // A folder inside one's own that leads out of it.
        submission(
            root,
            "linked",
            &[(MANIFEST, &with("cwd = \"away\"")), ("agent.sh", "")],
        );
        std::os::unix::fs::symlink(root.join("carol"), root.join("linked/away")).expect("link");
        // Manifests that are no files: read, they would hang or fill memory.
        submission(root, "fifo", &[("agent.sh", "")]);
        let made = std::process::Command::new("mkfifo")
            .arg(root.join("fifo").join(MANIFEST))
            .status()
            .expect("mkfifo");
        assert!(made.success());
        submission(root, "zero", &[("agent.sh", "")]);
        std::os::unix::fs::symlink("/dev/zero", root.join("zero").join(MANIFEST)).expect("link");
        let mut registry = AgentRegistry::default();
        registry
            .add_text(
                &root.join("agents.toml"),
                "[[agent]]\nname = \"known\"\nalgorithm = \"random\"\n",
            )
            .expect("an agent file");
        let teachers = crate::external::sandbox::SandboxSpec {
            memory_mb: 300,
            processes: 12,
            ..Default::default()
        };
        let found = registry
            .add_submissions(root, Some(&teachers))
            .expect("found");
        let lines: Vec<String> = found.left_out.iter().map(ToString::to_string).collect();
        let left = lines.join("\n");
        assert_eq!(found.agents, ["aaa_dup", "carol", "cwd_in"], "{left}");
        let external = |name: &str| registry.agents[name].spec.external.clone().expect(name);
        assert_eq!(
            external("cwd_in").cwd,
            root.join("cwd_in/src").canonicalize().expect("src")
        );
        assert_eq!(
            external("carol").cwd,
            root.join("carol").canonicalize().expect("carol"),
            "the real carol keeps her name and folder"
        );
        for name in &found.agents {
            assert_eq!(external(name).sandbox.as_ref(), Some(&teachers), "{name}");
        }
        assert_eq!(registry.agents["known"].file, root.join("agents.toml"));
        let line = |folder: &str| {
            lines
                .iter()
                .find(|l| l.contains(&format!("/{folder}")))
                .cloned()
                .unwrap_or_else(|| panic!("{folder} not left out: {left}"))
        };
        for (folder, why) in [
            (
                "cwd_out",
                "cwd = \"../carol\" is outside the submission's folder",
            ),
            (
                "linked",
                "cwd = \"away\" is outside the submission's folder",
            ),
            ("reads", "sandbox: a submission cannot set its own sandbox"),
            (
                "greedy_limits",
                "sandbox: a submission cannot set its own sandbox",
            ),
            (
                "slow",
                "tolerance_ms: a submission cannot set its own limits",
            ),
            ("searcher", "unknown key 'algorithm'"),
            ("random", "is arbiter's built-in agent 'random'"),
            ("known", "is already an agent's (defined in"),
            ("bad name", "cannot name an agent"),
            ("fifo", "cannot read: it is a FIFO, not a regular file"),
            ("zero", "a symbolic link"),
        ] {
            assert!(line(folder).contains(why), "{folder}: {}", line(folder));
        }
        assert!(line("cwd_out").contains("agent.toml: line 2"), "{left}");
        assert_eq!(found.left_out.len(), 11, "{left}");
    }

    #[test]
    fn an_input_file_that_is_no_regular_file_is_refused_unread() {
        let dir = tempfile::tempdir().expect("dir");
        let fifo = dir.path().join("pipe.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let error = crate::registry::read_input(&fifo)
            .expect_err("a FIFO")
            .message;
        assert!(
            error.contains("it is a FIFO, not a regular file"),
            "{error}"
        );
        let error = crate::registry::read_input(Path::new("/dev/zero"))
            .expect_err("a device")
            .message;
        assert!(error.contains("it is a device"), "{error}");
        let error = crate::registry::read_input(dir.path())
            .expect_err("a folder")
            .message;
        assert!(error.contains("it is a folder"), "{error}");
        let big = dir.path().join("big.toml");
        let file = fs::File::create(&big).expect("big");
        file.set_len(crate::registry::MAX_INPUT_BYTES + 1)
            .expect("grow");
        let error = crate::registry::read_input(&big)
            .expect_err("too big")
            .message;
        assert!(error.contains("more than the 16 MB"), "{error}");
        // An agents folder holding a FIFO named like an agent file: refused, not hung.
        std::os::unix::fs::symlink(&fifo, dir.path().join("agents.toml")).expect("link");
        let error = AgentRegistry::load(dir.path()).expect_err("a FIFO agent file");
        assert!(
            error
                .to_string()
                .contains("agents.toml: cannot read: it is a FIFO"),
            "{error}"
        );
    }
}
