//! Speaking to the rules: a running program or rules inside this process, the handshake,
//! a request and its reply (or many at once), and [`Session`] for `check-game`.

use super::*;

/// What a client speaks to: a running rules program, or rules inside this process (a
/// context of a rules library, a hosted game).
pub(super) enum Link {
    Program(Box<Program>),
    InProcess(Box<dyn InProcess>),
}

/// One running rules program (or library context) and its handshake.
pub(super) struct Connection {
    link: Link,
    /// The `ready` reply, until the definition has read it.
    pub(super) ready: Option<Value>,
}

impl Connection {
    /// Starts `def`'s program and waits for `ready`.
    pub(super) fn start(def: &ProgramGameDef) -> Result<Connection, String> {
        Connection::open(&def.spec, &def.name, &def.params)
    }

    /// Starts `spec`'s program for game `name` with `params` and waits for `ready`.
    fn open(
        spec: &RulesSpec,
        name: &str,
        params: &[(String, String)],
    ) -> Result<Connection, String> {
        let link = match (&spec.library, &spec.hosted) {
            (Some(path), _) => {
                let library = Arc::new(Library::load(path).map_err(|e| e.to_string())?);
                Link::InProcess(Box::new(
                    Context::open(&library).map_err(|e| e.to_string())?,
                ))
            }
            (None, Some(name)) => Link::InProcess(
                crate::external::hosted::start_game(name).map_err(|e| e.to_string())?,
            ),
            (None, None) => {
                let env: Vec<(String, String)> = spec
                    .env
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut program = Program::spawn(&spec.command, &spec.cwd, &env, None, 0, None)
                    .map_err(|e| {
                        format!(
                            "cannot start `{}` in {}: {e}",
                            spec.command_line(),
                            spec.cwd.display()
                        )
                    })?;
                program
                    .set_write_limit(Duration::from_millis(spec.request_ms.max(spec.startup_ms)));
                Link::Program(Box::new(program))
            }
        };
        let mut connection = Connection { link, ready: None };
        let params: serde_json::Map<String, Value> = params
            .iter()
            .map(|(k, v)| (k.clone(), param_value(v)))
            .collect();
        let hello = json!({
            "type": "hello", "protocol": GAME_PROTOCOL_VERSION, "game": name,
            "params": params,
        });
        let ready = connection.ask(&hello, "ready", spec.startup_ms)?;
        connection.ready = Some(ready);
        Ok(connection)
    }

    /// Sends `message` and returns the reply of type `expected`, waiting `timeout_ms`.
    /// Lines that are not JSON are skipped.
    pub(super) fn ask(
        &mut self,
        message: &Value,
        expected: &str,
        timeout_ms: u64,
    ) -> Result<Value, String> {
        let request = message["type"].as_str().unwrap_or("?").to_string();
        let program = match &mut self.link {
            Link::Program(program) => program,
            Link::InProcess(context) => {
                let line = context
                    .request(&message.to_string())
                    .map_err(|e| e.to_string())?;
                return match judge(&request, expected, &line) {
                    Some(judged) => judged,
                    None => Err(format!(
                        "answered `{request}` with {} (not a JSON object)",
                        clip(&line)
                    )),
                };
            }
        };
        if let Err(e) = program.send(message) {
            return Err(self.unsent(&request, &e));
        }
        self.reply(&request, expected, timeout_ms)
    }

    /// The running program, if it is one (not a library).
    pub(super) fn program(&mut self) -> Option<&mut Program> {
        match &mut self.link {
            Link::Program(program) => Some(program),
            Link::InProcess(_) => None,
        }
    }

    /// The rules inside this process, if they are.
    pub(super) fn in_process(&mut self) -> Option<&mut dyn InProcess> {
        match &mut self.link {
            Link::InProcess(context) => Some(&mut **context),
            Link::Program(_) => None,
        }
    }

    /// Ends the program (politely: `quit` and a grace period) or closes the context.
    pub(super) fn stop(self, politely: bool) {
        if let Link::Program(mut program) = self.link {
            program.stop(politely);
        }
    }

    /// Sends `messages` at once (one write: the program answers them in order without
    /// waiting for us in between) and returns their replies of type `expected`.
    /// On a failure, the error says which message's reply failed (its index) and why.
    pub(super) fn ask_many(
        &mut self,
        messages: &[Value],
        expected: &str,
        timeout_ms: u64,
    ) -> Result<Vec<Value>, (usize, String)> {
        let Some(first) = messages.first() else {
            return Ok(Vec::new());
        };
        let request = first["type"].as_str().unwrap_or("?").to_string();
        if let Link::InProcess(_) = self.link {
            return messages
                .iter()
                .enumerate()
                .map(|(index, message)| {
                    self.ask(message, expected, timeout_ms)
                        .map_err(|why| (index, why))
                })
                .collect();
        }
        let mut text = String::with_capacity(messages.len() * 64);
        for (index, message) in messages.iter().enumerate() {
            if index > 0 {
                text.push('\n');
            }
            text.push_str(&message.to_string());
        }
        let sent = match &mut self.link {
            Link::Program(program) => program.send_raw(&text),
            Link::InProcess(_) => Ok(()),
        };
        if let Err(e) = sent {
            return Err((0, self.unsent(&request, &e)));
        }
        (0..messages.len())
            .map(|index| {
                self.reply(&request, expected, timeout_ms)
                    .map_err(|why| (index, why))
            })
            .collect()
    }

    /// The next reply, of type `expected`, to a `request` sent already.
    pub(super) fn reply(
        &mut self,
        request: &str,
        expected: &str,
        timeout_ms: u64,
    ) -> Result<Value, String> {
        let until = Instant::now() + Duration::from_millis(timeout_ms);
        let Link::Program(program) = &mut self.link else {
            return Err(format!("`{request}`: a library answers at once"));
        };
        loop {
            match program.receive(until, &|| false) {
                Received::Line(line) => match judge(request, expected, &line) {
                    Some(judged) => return judged,
                    None => program.garbage_lines += 1,
                },
                Received::Closed => return Err(self.ended(request, "stdout closed")),
                Received::TooLong => {
                    return Err(format!(
                        "answered `{request}` with a line longer than 1 MiB"
                    ));
                }
                Received::TimedOut | Received::Stopped => {
                    return Err(format!(
                        "no reply to `{request}` within {timeout_ms} ms{}",
                        if request == "hello" {
                            ": did the program flush stdout after printing `ready`?"
                        } else {
                            ""
                        }
                    ));
                }
            }
        }
    }

    /// The message for a `request` that could not be sent: the program stopped reading
    /// (the write's deadline passed) or went away.
    fn unsent(&mut self, request: &str, error: &std::io::Error) -> String {
        if error.kind() == std::io::ErrorKind::TimedOut {
            format!("`{request}` could not be sent: {error}")
        } else {
            self.ended(request, &error.to_string())
        }
    }

    /// The message for a program that went away while asked `request`.
    pub(super) fn ended(&mut self, request: &str, detail: &str) -> String {
        let Some(program) = self.program() else {
            return format!("ended while asked `{request}` ({detail})");
        };
        let status = program
            .exit_status(Duration::from_millis(300))
            .map_or(detail.to_string(), describe_status);
        let said = program
            .last_stderr_line()
            .map(|l| format!("; its stderr ends: {l}"))
            .unwrap_or_default();
        format!("exited while asked `{request}` ({status}){said}")
    }
}

/// A rules program spoken to directly, request by request, with nothing cached: what
/// `check-game` uses to see whether the program answers the same question the same way.
pub struct Session {
    pub(super) connection: Connection,
    pub(super) request_ms: u64,
}

impl Session {
    /// Starts `spec`'s program for game `name` with `params`; returns it with its `ready`.
    ///
    /// # Errors
    /// Why it did not start or answer `hello`.
    pub fn open(
        spec: &RulesSpec,
        name: &str,
        params: &[(String, String)],
    ) -> Result<(Session, Value), String> {
        let mut connection = Connection::open(spec, name, params)?;
        let ready = connection.ready.take().unwrap_or(Value::Null);
        Ok((
            Session {
                connection,
                request_ms: spec.request_ms,
            },
            ready,
        ))
    }

    /// Sends `message` and returns the reply of type `expected`.
    ///
    /// # Errors
    /// No reply in time, an `error` reply (its message), another reply, or an exit.
    pub fn ask(&mut self, message: &Value, expected: &str) -> Result<Value, String> {
        self.connection.ask(message, expected, self.request_ms)
    }

    /// Sends `messages` at once and returns their replies of type `expected`, in order
    /// (what a search's batched questions cost).
    ///
    /// # Errors
    /// As [`Session::ask`], for the first reply that fails.
    pub fn ask_many(&mut self, messages: &[Value], expected: &str) -> Result<Vec<Value>, String> {
        self.connection
            .ask_many(messages, expected, self.request_ms)
            .map_err(|(_, why)| why)
    }

    /// Lines on stdout so far that were not JSON objects.
    pub fn garbage_lines(&self) -> u64 {
        match &self.connection.link {
            Link::Program(program) => program.garbage_lines,
            Link::InProcess(_) => 0,
        }
    }

    /// Stops the program (`quit`, then signals).
    pub fn stop(self) {
        self.connection.stop(true);
    }
}
