//! One external program: started in its own process group, fed lines on stdin, its stdout
//! read line by line with a time limit (poll), its stderr copied on another
//! thread into the current game's size-capped log file, and stopped so that nothing it
//! started survives (SIGTERM, then SIGKILL to the whole group).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::looking::{SPIN, looking_helps, readable_within};

/// The longest stdout line kept (a longer one is cut and is not valid JSON).
const MAX_LINE_BYTES: u64 = 1 << 20;
/// How often a wait looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(20);
/// How long a program has to exit after `quit`, and again after SIGTERM.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// How long a write to a program may wait for room in its stdin pipe, unless told
/// otherwise ([`Program::set_write_limit`]).
const WRITE_GRACE: Duration = Duration::from_secs(10);
/// What a write takes in of the program's output while it waits for room: beyond this,
/// the program's stdout is left unread and the write's deadline decides.
const MAX_PENDING_BYTES: usize = 64 << 20;

/// What a wait for the program's next line gave.
#[derive(Debug)]
pub enum Received {
    /// A line of stdout (without its end of line).
    Line(String),
    /// stdout closed: the program exited (or closed it).
    Closed,
    /// A line longer than the longest kept (1 MiB): its start is dropped, and the rest of
    /// it will be too. Never a reply: the program is out of step and is to be blamed.
    TooLong,
    /// Nothing before the instant waited for.
    TimedOut,
    /// The stop flag was raised.
    Stopped,
}

/// The most bytes of a program's latest stderr kept in memory (for error messages).
const TAIL_BYTES: usize = 2048;

/// Where the program's stderr goes: the current game's log file, created on first write,
/// and the last [`TAIL_BYTES`] kept in memory.
#[derive(Debug, Default)]
struct Sink {
    path: Option<PathBuf>,
    file: Option<File>,
    written: u64,
    cap: u64,
    capped: bool,
    /// Set once writing the current log failed (said once, on stderr).
    failed: bool,
    tail: Vec<u8>,
}

impl Sink {
    fn write(&mut self, bytes: &[u8]) {
        let keep = bytes.len().min(TAIL_BYTES);
        self.tail.extend_from_slice(&bytes[bytes.len() - keep..]);
        if self.tail.len() > TAIL_BYTES {
            let excess = self.tail.len() - TAIL_BYTES;
            self.tail.drain(..excess);
        }
        let Some(path) = &self.path else {
            return;
        };
        if self.capped {
            return;
        }
        if self.failed {
            return;
        }
        if self.file.is_none() {
            if let Some(parent) = path.parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            match File::options().create(true).append(true).open(path) {
                Ok(file) => self.file = Some(file),
                Err(e) => return self.fail(&e),
            }
        }
        let Some(file) = &mut self.file else {
            return;
        };
        let room = self.cap.saturating_sub(self.written);
        let take = bytes.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        if let Err(e) = file.write_all(&bytes[..take]) {
            return self.fail(&e);
        }
        self.written += take as u64;
        if take < bytes.len() {
            let _ = writeln!(
                file,
                "\n[arbiter] log capped at {} bytes; the rest is dropped",
                self.cap
            );
            self.capped = true;
        }
    }
}

impl Sink {
    /// A log that cannot be written (a full disk): said once, never lost in silence.
    fn fail(&mut self, error: &io::Error) {
        self.failed = true;
        self.file = None;
        if let Some(path) = &self.path {
            // Never a panic on a closed stderr.
            let _ = writeln!(
                io::stderr(),
                "warning: cannot write the program's log {}: {}; what it writes to stderr from here on is lost",
                path.display(),
                crate::core::one_line(&error.to_string())
            );
        }
    }
}

fn lock(sink: &Mutex<Sink>) -> MutexGuard<'_, Sink> {
    sink.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Makes a write to a program that has exited fail with an error instead of killing
/// arbiter (SIGPIPE's default, which `main` restores so `arbiter list | head` ends
/// quietly). Done once, when the first program starts.
fn ignore_broken_pipes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: setting a signal's disposition to "ignore" installs no handler code.
        unsafe {
            libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        }
    });
}

/// What answers: a child process, or an agent hosted by this process.
enum Backend {
    Process {
        child: Child,
        stdin: Option<ChildStdin>,
        stdout: ChildStdout,
    },
    Hosted {
        /// `None` once it failed or was stopped.
        session: Option<Box<dyn super::hosted::Session>>,
        /// CPU time spent in its calls, on the calling threads.
        cpu_nanos: u64,
    },
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Backend::Process { child, .. } => write!(f, "process {}", child.id()),
            Backend::Hosted { session, .. } => {
                write!(
                    f,
                    "hosted ({})",
                    if session.is_some() { "on" } else { "ended" }
                )
            }
        }
    }
}

/// A running external program (or a hosted agent, which behaves as one).
#[derive(Debug)]
pub struct Program {
    backend: Backend,
    /// Bytes read from stdout and not yet handed out as lines.
    pending: Vec<u8>,
    /// Where the next search for an end of line starts in `pending`.
    scanned: usize,
    /// What one read(2) of stdout fills: made once, at the first read (zeroing 8 KiB on
    /// the stack at every read was the largest cost of a move's round trip in
    /// instructions).
    chunk: Vec<u8>,
    /// The line being sent, its memory kept from request to request.
    line: Vec<u8>,
    closed: bool,
    sink: Arc<Mutex<Sink>>,
    /// Lines on stdout that were not JSON, over the program's life.
    pub garbage_lines: u64,
    /// How it ended, once stopped.
    ended: Option<Option<ExitStatus>>,
    /// Its sandbox, if it runs in one.
    jail: Option<super::sandbox::Jail>,
    /// Whether its last line came within [`SPIN`] of the wait for it (so the next wait
    /// looks before it sleeps).
    quick: bool,
    /// The clock of its process's CPU time, found once (glibc checks a process's clock
    /// with a system call each time it is asked for it).
    cpu_clock: Option<libc::clockid_t>,
    /// How long a write may wait for room in its stdin pipe.
    write_limit: Duration,
    /// Whether the rest of a line too long to keep is being dropped.
    skipping: bool,
    /// The thread copying its stderr into the log (a process's; none when hosted).
    stderr_thread: Option<std::thread::JoinHandle<()>>,
}

/// How a program ended, in words: `exit code 1`, `killed by signal 9 (SIGKILL)`.
pub fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        format!("exit code {code}")
    } else if let Some(signal) = status.signal() {
        let name = match signal {
            libc::SIGKILL => " (SIGKILL)",
            libc::SIGTERM => " (SIGTERM)",
            libc::SIGSEGV => " (SIGSEGV)",
            libc::SIGABRT => " (SIGABRT)",
            libc::SIGINT => " (SIGINT)",
            _ => "",
        };
        format!("killed by signal {signal}{name}")
    } else {
        status.to_string()
    }
}

impl Program {
    /// Starts `command` in `cwd` with `env` added, in a process group of its own, its
    /// stderr going to `log` (at most `log_cap` bytes per file); inside `jail` when given
    /// (then `env` is its whole environment).
    ///
    /// # Errors
    /// The program cannot be started (not found, not executable, no such folder).
    pub fn spawn(
        command: &[String],
        cwd: &Path,
        env: &[(String, String)],
        log: Option<PathBuf>,
        log_cap: u64,
        jail: Option<super::sandbox::Jail>,
    ) -> io::Result<Program> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::other("the command is empty"))?;
        ignore_broken_pipes();
        let mut plain;
        let command = match &jail {
            Some(jail) => {
                plain = jail.command(command, cwd, env)?;
                &mut plain
            }
            None => {
                plain = Command::new(program);
                plain
                    .args(args)
                    .current_dir(cwd)
                    .envs(env.iter().map(|(k, v)| (k, v)))
            }
        };
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group: Ctrl-C in the terminal does not reach it, and stopping it
            // reaches everything it started.
            .process_group(0)
            .spawn()?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io::Error::other("no stdout"))?;
        let stderr = child
            .stderr
            .take()
            .ok_or_else(|| io::Error::other("no stderr"))?;
        let sink = Arc::new(Mutex::new(Sink {
            path: log,
            cap: log_cap,
            ..Sink::default()
        }));
        let thread_sink = Arc::clone(&sink);
        let stderr_thread = std::thread::Builder::new()
            .name("agent-stderr".to_string())
            .spawn(move || {
                let mut stderr = stderr;
                let mut buffer = [0u8; 4096];
                while let Ok(n) = stderr.read(&mut buffer) {
                    if n == 0 {
                        return;
                    }
                    lock(&thread_sink).write(&buffer[..n]);
                }
            })?;
        let stdin = child.stdin.take();
        if let Some(stdin) = &stdin {
            // Writes never block: a full pipe is waited on with poll(2), reading the
            // program's replies meanwhile (a program that answers before it reads on
            // would otherwise fill its stdout while arbiter fills its stdin).
            // SAFETY: fcntl(2) on a descriptor we own; no memory is touched.
            unsafe {
                let fd = stdin.as_raw_fd();
                let flags = libc::fcntl(fd, libc::F_GETFL);
                if flags >= 0 {
                    libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
                }
            }
        }
        let cpu_clock = libc::pid_t::try_from(child.id()).ok().and_then(|pid| {
            let mut clock: libc::clockid_t = 0;
            // SAFETY: writes only `clock`, which lives on this stack.
            (unsafe { libc::clock_getcpuclockid(pid, &mut clock) } == 0).then_some(clock)
        });
        Ok(Program {
            backend: Backend::Process {
                child,
                stdin,
                stdout,
            },
            pending: Vec::with_capacity(4096),
            scanned: 0,
            chunk: Vec::new(),
            line: Vec::new(),
            closed: false,
            sink,
            garbage_lines: 0,
            ended: None,
            jail,
            quick: looking_helps(),
            cpu_clock,
            write_limit: WRITE_GRACE,
            skipping: false,
            stderr_thread: Some(stderr_thread),
        })
    }

    /// A session of hosted agent `name` (see [`super::hosted`]), its log as a program's
    /// stderr.
    ///
    /// # Errors
    /// The agent is not hosted here, or its host failed to start it.
    pub fn host(name: &str, log: Option<PathBuf>, log_cap: u64) -> io::Result<Program> {
        let session = super::hosted::start(name).map_err(io::Error::other)?;
        Ok(Program {
            backend: Backend::Hosted {
                session: Some(session),
                cpu_nanos: 0,
            },
            pending: Vec::new(),
            scanned: 0,
            chunk: Vec::new(),
            line: Vec::new(),
            closed: false,
            sink: Arc::new(Mutex::new(Sink {
                path: log,
                cap: log_cap,
                ..Sink::default()
            })),
            garbage_lines: 0,
            ended: None,
            jail: None,
            quick: false,
            cpu_clock: None,
            write_limit: WRITE_GRACE,
            skipping: false,
            stderr_thread: None,
        })
    }

    /// The program's process id (its process group's too); 0 for a hosted agent.
    pub fn id(&self) -> u32 {
        match &self.backend {
            Backend::Process { child, .. } => child.id(),
            Backend::Hosted { .. } => 0,
        }
    }

    /// Sends stderr (and arbiter's notes) to `log` from now on (a new file per game).
    pub fn set_log(&self, log: Option<PathBuf>) {
        let mut sink = lock(&self.sink);
        sink.path = log;
        sink.file = None;
        sink.written = 0;
        sink.capped = false;
        sink.failed = false;
    }

    /// The last non-empty line the program wrote to stderr (at most 200 characters), if
    /// any: what an error message quotes.
    pub fn last_stderr_line(&self) -> Option<String> {
        let sink = lock(&self.sink);
        let text = String::from_utf8_lossy(&sink.tail);
        text.lines()
            .rev()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("[arbiter]"))
            .map(|l| l.chars().take(200).collect())
    }

    /// Writes a note of arbiter's into the program's log (`[arbiter] ...`).
    pub fn note(&self, text: &str) {
        lock(&self.sink).write(format!("[arbiter] {text}\n").as_bytes());
    }

    /// Writes `message` and a newline to the program's stdin and flushes it.
    ///
    /// # Errors
    /// The program closed its stdin (it exited).
    pub fn send(&mut self, message: &impl serde::Serialize) -> io::Result<()> {
        self.send_with(|line| serde_json::to_writer(line, message))
    }

    /// Writes the JSON line `write` appends to an empty buffer, then a newline, to the
    /// program's stdin and flushes it.
    ///
    /// # Errors
    /// `write` fails, or the program closed its stdin (it exited).
    pub fn send_with(
        &mut self,
        write: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
    ) -> io::Result<()> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let sent = match write(&mut line) {
            Ok(()) => self.send_line(&mut line),
            Err(e) => Err(io::Error::other(e)),
        };
        self.line = line;
        sent
    }

    /// Writes a raw line (for compliance checks that send malformed requests).
    ///
    /// # Errors
    /// The program closed its stdin.
    pub fn send_raw(&mut self, text: &str) -> io::Result<()> {
        self.send_with(|line| {
            line.extend_from_slice(text.as_bytes());
            Ok(())
        })
    }

    /// Sends `line` (without its end): to a process's stdin in one piece, its end added,
    /// or to a hosted agent.
    fn send_line(&mut self, line: &mut Vec<u8>) -> io::Result<()> {
        match &mut self.backend {
            Backend::Process { stdin, stdout, .. } => {
                let stdin = stdin
                    .as_mut()
                    .ok_or_else(|| io::Error::from(io::ErrorKind::BrokenPipe))?;
                line.push(b'\n');
                let until = Instant::now() + self.write_limit;
                let mut written = 0;
                while written < line.len() {
                    match stdin.write(&line[written..]) {
                        Ok(0) => return Err(io::Error::from(io::ErrorKind::WriteZero)),
                        Ok(n) => written += n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                            let now = Instant::now();
                            if now >= until {
                                return Err(io::Error::new(
                                    io::ErrorKind::TimedOut,
                                    format!(
                                        "it read no more of its input for {} ms",
                                        self.write_limit.as_millis()
                                    ),
                                ));
                            }
                            let reading = !self.closed && self.pending.len() < MAX_PENDING_BYTES;
                            let mut polls = [
                                libc::pollfd {
                                    fd: stdin.as_raw_fd(),
                                    events: libc::POLLOUT,
                                    revents: 0,
                                },
                                libc::pollfd {
                                    fd: stdout.as_raw_fd(),
                                    events: if reading { libc::POLLIN } else { 0 },
                                    revents: 0,
                                },
                            ];
                            let millis = (until - now).as_millis().clamp(1, 1_000) as libc::c_int;
                            // SAFETY: two valid pollfds for the duration of the call.
                            unsafe { libc::poll(polls.as_mut_ptr(), 2, millis) };
                            if reading && polls[1].revents != 0 {
                                // Its replies so far wait in `pending`, as receive reads them.
                                if self.chunk.is_empty() {
                                    self.chunk = vec![0; 8192];
                                }
                                match stdout.read(&mut self.chunk) {
                                    Ok(0) => self.closed = true,
                                    Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
                                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                                    Err(_) => self.closed = true,
                                }
                            }
                        }
                        Err(e) => return Err(e),
                    }
                }
                Ok(())
            }
            Backend::Hosted { session, .. } => {
                let Some(agent) = session else {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                };
                let text = String::from_utf8_lossy(line);
                let before = crate::core::cpu::thread_nanos();
                let answer = agent.handle(&text);
                self.take_answer(answer, before)
            }
        }
    }

    /// Sends a `move` request: to a hosted agent that takes it as its fields, as those;
    /// otherwise as the line `write` writes (as [`Program::send_with`]).
    ///
    /// # Errors
    /// As [`Program::send_with`].
    pub fn send_move(
        &mut self,
        fields: &super::hosted::MoveFields<'_>,
        write: impl FnOnce(&mut Vec<u8>) -> serde_json::Result<()>,
    ) -> io::Result<()> {
        if let Backend::Hosted {
            session: Some(agent),
            ..
        } = &mut self.backend
        {
            let before = crate::core::cpu::thread_nanos();
            if let Some(answer) = agent.handle_move(fields) {
                return self.take_answer(answer, before);
            }
        }
        self.send_with(write)
    }

    /// Takes a hosted agent's answer as a program's output: its CPU since `before`
    /// counted, its log written, its replies waiting to be received as stdout lines, its
    /// failure ending it.
    fn take_answer(
        &mut self,
        answer: super::hosted::Answer,
        before: Option<u64>,
    ) -> io::Result<()> {
        let Backend::Hosted { session, cpu_nanos } = &mut self.backend else {
            return Ok(());
        };
        if let (Some(before), Some(after)) = (before, crate::core::cpu::thread_nanos()) {
            *cpu_nanos += after.saturating_sub(before);
        }
        if !answer.log.is_empty() {
            lock(&self.sink).write(answer.log.as_bytes());
        }
        // Its replies wait to be received as a program's stdout would.
        for reply in answer.replies {
            self.pending.extend_from_slice(reply.as_bytes());
            self.pending.push(b'\n');
        }
        match answer.failure {
            None => Ok(()),
            Some(e) => {
                *session = None;
                self.closed = true;
                lock(&self.sink).write(format!("[arbiter] the agent failed: {e}\n").as_bytes());
                Err(io::Error::from(io::ErrorKind::BrokenPipe))
            }
        }
    }

    /// The next stdout line, waiting until `until` at the latest and looking at `stopped`
    /// every few milliseconds. Read on the calling thread (poll(2), then read(2)): no
    /// hand-over between threads on the way of a move.
    pub fn receive(&mut self, until: Instant, stopped: &dyn Fn() -> bool) -> Received {
        // Set once the line is not already read: when the wait began.
        let mut began: Option<Instant> = None;
        loop {
            if self.skipping {
                // The rest of a line too long to keep, up to its end.
                match self.pending.iter().position(|&b| b == b'\n') {
                    Some(end) => {
                        self.pending.drain(..=end);
                        self.skipping = false;
                    }
                    None => self.pending.clear(),
                }
                self.scanned = 0;
            }
            if let Some(end) = self.pending[self.scanned..]
                .iter()
                .position(|&b| b == b'\n')
            {
                if let Some(began) = began {
                    self.quick = began.elapsed() <= SPIN && looking_helps();
                }
                let end = self.scanned + end;
                let line = String::from_utf8_lossy(&self.pending[..end])
                    .trim_end_matches('\r')
                    .to_string();
                self.pending.drain(..=end);
                self.scanned = 0;
                return Received::Line(line);
            }
            self.scanned = self.pending.len();
            if !self.skipping && self.pending.len() as u64 >= MAX_LINE_BYTES {
                // A runaway line: dropped, with the rest of it as it comes.
                self.pending.clear();
                self.scanned = 0;
                self.skipping = true;
                return Received::TooLong;
            }
            if self.closed {
                return Received::Closed;
            }
            if stopped() {
                return Received::Stopped;
            }
            let stdout = match &mut self.backend {
                Backend::Process { stdout, .. } => stdout,
                // A hosted agent answers within the call: nothing more will come.
                Backend::Hosted { .. } => return Received::TimedOut,
            };
            let now = Instant::now();
            if now >= until {
                return Received::TimedOut;
            }
            // A program that answered quickly last time: look for its line (for SPIN at
            // most) before sleeping in poll(2) as for any other.
            let ready = if began.is_none() && self.quick && readable_within(stdout, SPIN) {
                1
            } else {
                let mut poll = libc::pollfd {
                    fd: stdout.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                // Round up: a wait of 0.3 ms must not become a busy loop.
                let wait = (until - now).min(STOP_POLL);
                let millis = wait.as_micros().div_ceil(1000).min(1_000) as libc::c_int;
                // SAFETY: one valid pollfd for the duration of the call.
                unsafe { libc::poll(&mut poll, 1, millis) }
            };
            began.get_or_insert(now);
            if ready <= 0 {
                // A program that has exited while something it started still holds its
                // stdout will never answer: closed now, not at the deadline.
                if let Backend::Process { child, .. } = &mut self.backend
                    && matches!(child.try_wait(), Ok(Some(_)))
                {
                    self.closed = true;
                }
                continue;
            }
            if self.chunk.is_empty() {
                self.chunk = vec![0; 8192];
            }
            match stdout.read(&mut self.chunk) {
                Ok(0) => self.closed = true,
                Ok(n) => self.pending.extend_from_slice(&self.chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => self.closed = true,
            }
        }
    }

    /// How the program ended, waiting up to `grace` for it to exit (`None`: still running).
    pub fn exit_status(&mut self, grace: Duration) -> Option<ExitStatus> {
        let Backend::Process { child, .. } = &mut self.backend else {
            return None;
        };
        let until = Instant::now() + grace;
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Stops the program and everything it started: `quit` and a short wait if
    /// `politely`, then SIGTERM to its process group, a short wait, and SIGKILL to the
    /// group; the program is reaped. Returns how it ended.
    pub fn stop(&mut self, politely: bool) -> Option<ExitStatus> {
        if let Some(ended) = self.ended {
            return ended;
        }
        if let Backend::Hosted { session, .. } = &mut self.backend {
            if politely && let Some(agent) = session {
                let _ = agent.handle(r#"{"type":"quit"}"#);
            }
            *session = None;
            self.ended = Some(None);
            return None;
        }
        let group = -(self.id() as libc::pid_t);
        let mut status = None;
        if politely {
            let _ = self.send(&serde_json::json!({"type": "quit"}));
            self.close_stdin();
            status = self.exit_status(EXIT_GRACE);
        }
        self.close_stdin();
        if status.is_none() {
            // SAFETY: kill(2) with a negative pid signals our child's process group; it
            // touches no memory.
            unsafe { libc::kill(group, libc::SIGTERM) };
            status = self.exit_status(EXIT_GRACE);
        }
        // Whatever the leader did, children it left in the group (one ignoring SIGTERM)
        // go now. The group id cannot be reused while a member remains.
        // SAFETY: as above.
        unsafe { libc::kill(group, libc::SIGKILL) };
        let status = match (status, &mut self.backend) {
            (Some(status), _) => Some(status),
            (None, Backend::Process { child, .. }) => child.wait().ok(),
            (None, Backend::Hosted { .. }) => None,
        };
        if let Some(jail) = &self.jail {
            jail.kill_all();
        }
        self.ended = Some(status);
        status
    }

    /// Which of its sandbox's limits the program ran into, if it runs in one (see
    /// [`super::sandbox::Jail::breach`]).
    pub fn breach(&mut self) -> Option<crate::core::FaultReason> {
        let status = match (self.ended, &mut self.backend) {
            (Some(status), _) => status,
            (None, Backend::Process { child, .. }) => child.try_wait().ok().flatten(),
            (None, Backend::Hosted { .. }) => None,
        };
        self.jail.as_ref()?;
        if status.is_some() {
            // Ended: its last words (a Python traceback's last line, say) are read to the
            // end before they are judged; a descendant that holds stderr open is waited
            // for briefly only.
            let until = Instant::now() + Duration::from_millis(500);
            while self
                .stderr_thread
                .as_ref()
                .is_some_and(|thread| !thread.is_finished())
                && Instant::now() < until
            {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let last = self.last_stderr_line();
        self.jail.as_ref()?.breach(status, last.as_deref())
    }

    /// CPU time the program has used so far, in nanoseconds: its whole process tree in a
    /// sandbox with cgroups; otherwise the program's own process (all its threads, not
    /// its children). `None` where it cannot be read (a sandbox without cgroups, a
    /// program that ended).
    pub fn cpu_nanos(&self) -> Option<u64> {
        if let Some(jail) = &self.jail {
            return jail.cpu_nanos();
        }
        if let Backend::Hosted { cpu_nanos, .. } = &self.backend {
            return Some(*cpu_nanos);
        }
        let clock = self.cpu_clock?;
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: writes only `time`, which lives on this stack.
        let read = unsafe { libc::clock_gettime(clock, &mut time) == 0 };
        read.then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
    }

    /// How long a write may wait for room in the program's stdin pipe before it fails
    /// (10 s unless set): a rules program's requests wait no longer than its replies.
    pub fn set_write_limit(&mut self, limit: Duration) {
        self.write_limit = limit;
    }

    /// Closes the program's stdin (it reads the end of its input).
    fn close_stdin(&mut self) {
        if let Backend::Process { stdin, .. } = &mut self.backend {
            *stdin = None;
        }
    }

    /// Whether it is an agent hosted by this process.
    pub fn hosted(&self) -> bool {
        matches!(self.backend, Backend::Hosted { .. })
    }

    /// Whether it runs in a sandbox.
    pub fn sandboxed(&self) -> bool {
        self.jail.is_some()
    }
}

impl Drop for Program {
    /// A program is never left running: one not stopped yet is stopped now.
    fn drop(&mut self) {
        self.stop(false);
    }
}

#[cfg(test)]
mod tests {
    use super::{Program, Received};
    use std::time::{Duration, Instant};

    fn start(script: &str) -> Program {
        let command = ["sh", "-c", script].map(str::to_string);
        Program::spawn(&command, std::path::Path::new("."), &[], None, 0, None).expect("sh starts")
    }

    fn ask(program: &mut Program, line: &str) -> String {
        program.send_raw(line).expect("the program reads its stdin");
        match program.receive(Instant::now() + Duration::from_secs(10), &|| false) {
            Received::Line(answer) => answer,
            other => panic!("no answer to {line}: {other:?}"),
        }
    }

    #[test]
    fn answers_come_whole_and_in_order_whether_the_wait_looks_or_sleeps() {
        // `cat` answers at once: waits look for its lines before sleeping (given two cores).
        let mut echo = start("exec cat");
        assert_eq!(echo.quick, super::looking_helps());
        for i in 0..300 {
            let line = format!("{{\"n\":{i},\"pad\":\"{}\"}}", "x".repeat(i * 7));
            assert_eq!(ask(&mut echo, &line), line);
        }
        // A program that takes 20 ms: after one answer, waits for it sleep in poll(2).
        let mut slow = start("while read -r line; do sleep 0.02; echo \"$line\"; done");
        for i in 0..3 {
            let line = format!("slow {i}");
            assert_eq!(ask(&mut slow, &line), line);
            assert!(!slow.quick, "answer {i} took 20 ms, far more than the look");
        }
        // A wait that looks still ends at its deadline when nothing comes.
        let mut silent = start("exec sleep 5");
        assert_eq!(silent.quick, super::looking_helps());
        let asked = Instant::now();
        let until = asked + Duration::from_millis(30);
        assert!(matches!(
            silent.receive(until, &|| false),
            Received::TimedOut
        ));
        let waited = asked.elapsed();
        assert!(waited >= Duration::from_millis(30), "{waited:?}");
        assert!(waited < Duration::from_secs(3), "{waited:?}");
    }

    /// A write larger than the pipe to a program that answers each line before it
    /// reads the next (and whose answers fill its own stdout) completes, its answers kept
    /// in order; a write to a program that reads nothing fails at its deadline instead
    /// of blocking for ever.
    #[test]
    fn a_write_larger_than_the_pipe_reads_the_answers_meanwhile_and_has_a_deadline() {
        let mut echo = start("exec cat");
        let lines: Vec<String> = (0..100)
            .map(|i| format!("{i} {}", "z".repeat(3000)))
            .collect();
        echo.send_raw(&lines.join("\n"))
            .expect("300 KB written while cat answers");
        for line in &lines {
            match echo.receive(Instant::now() + Duration::from_secs(10), &|| false) {
                Received::Line(answer) => assert_eq!(&answer, line),
                other => panic!("{other:?}"),
            }
        }
        let mut deaf = start("exec sleep 30");
        deaf.set_write_limit(Duration::from_millis(200));
        let began = Instant::now();
        let error = deaf
            .send_raw(&"x".repeat(1 << 20))
            .expect_err("nobody reads");
        assert_eq!(error.kind(), std::io::ErrorKind::TimedOut, "{error}");
        assert!(
            error
                .to_string()
                .contains("read no more of its input for 200 ms")
        );
        assert!(
            began.elapsed() < Duration::from_secs(5),
            "{:?}",
            began.elapsed()
        );
    }

    /// A log on a full disk (/dev/full answers every write with ENOSPC) is said to be
    /// lost, once, instead of staying empty in silence; the next game's log is tried anew.
    #[test]
    fn a_log_that_cannot_be_written_is_said_to_be_lost() {
        let mut sink = super::Sink {
            path: Some("/dev/full".into()),
            cap: 1 << 20,
            ..super::Sink::default()
        };
        sink.write(b"a line of stderr\n");
        assert!(sink.failed, "the failure was noticed");
        sink.write(b"another line\n");
        assert!(sink.file.is_none(), "no more writes are tried");
        assert_eq!(
            sink.tail, b"a line of stderr\nanother line\n",
            "the tail is kept"
        );
        let dir = tempfile::tempdir().expect("dir");
        let log = dir.path().join("next.stderr");
        let program = start("exec cat");
        *super::lock(&program.sink) = sink;
        program.set_log(Some(log.clone()));
        program.note("written");
        assert!(
            std::fs::read_to_string(&log)
                .expect("log")
                .contains("written")
        );
    }
}
