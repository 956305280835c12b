//! Progress on long runs of any kind: an indicatif bar on a terminal, plain periodic lines
//! otherwise.

use super::{Reporter, RunOutcome};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Set once a line could not be written because standard error's reader went away (a
/// closed pipe: `arbiter run ... 2>&1 | head -2`).
static OUTPUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// Writes `line` and a newline to standard error, never panicking: when the reader has
/// gone away (a closed pipe), nothing more is written and [`output_closed`] says so.
pub fn say(line: &str) {
    if OUTPUT_CLOSED.load(Ordering::Relaxed) {
        return;
    }
    if let Err(e) = writeln!(io::stderr(), "{line}")
        && e.kind() == io::ErrorKind::BrokenPipe
    {
        OUTPUT_CLOSED.store(true, Ordering::Relaxed);
    }
}

/// Whether standard error's reader went away during the run (see [`say`]).
pub fn output_closed() -> bool {
    OUTPUT_CLOSED.load(Ordering::Relaxed)
}

/// Shows jobs done, jobs per second and the time left, on standard error.
pub struct Progress {
    bar: Option<ProgressBar>,
    unit: &'static str,
    total: usize,
    done: usize,
    started: Instant,
    last_line: Instant,
    every: Duration,
    quiet: bool,
    /// Raised when the output's reader goes away: the run stops as after Ctrl-C.
    stop: Option<Arc<AtomicBool>>,
}

/// How often a plain progress line is printed when standard error is not a terminal,
/// unless the environment variable [`LINE_EVERY_VARIABLE`] gives another number of seconds.
const LINE_EVERY: Duration = Duration::from_secs(5);

/// The environment variable that sets the seconds between plain progress lines.
pub const LINE_EVERY_VARIABLE: &str = "ARBITER_PROGRESS_EVERY";

/// The interval between plain progress lines: [`LINE_EVERY_VARIABLE`] when it holds a
/// positive number of seconds, else [`LINE_EVERY`].
fn line_every() -> Duration {
    std::env::var(LINE_EVERY_VARIABLE)
        .ok()
        .and_then(|text| text.trim().parse::<f64>().ok())
        .filter(|seconds| *seconds > 0.0 && *seconds < 1e6)
        .map_or(LINE_EVERY, Duration::from_secs_f64)
}

impl Progress {
    /// A progress display counting `unit` (plural: `games`, `positions`, `solves`);
    /// `quiet` prints nothing at all.
    pub fn new(quiet: bool, unit: &'static str) -> Progress {
        Progress {
            bar: None,
            unit,
            total: 0,
            done: 0,
            started: Instant::now(),
            last_line: Instant::now(),
            every: line_every(),
            quiet,
            stop: None,
        }
    }

    /// Raises `stop` (the run's Ctrl-C flag) when a line cannot be written because the
    /// output's reader went away, so the run ends cleanly and can be resumed.
    pub fn stop_when_output_closes(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    fn print(&self, line: &str) {
        say(line);
        if output_closed()
            && let Some(stop) = &self.stop
        {
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Jobs per second so far.
    fn rate(&self) -> f64 {
        let seconds = self.started.elapsed().as_secs_f64();
        if seconds > 0.0 {
            self.done as f64 / seconds
        } else {
            0.0
        }
    }

    /// The counts and the rate, without the time left (for a run that has stopped).
    fn done_line(&self) -> String {
        format!(
            "{}/{} {unit}, {:.1} {unit}/s",
            self.done,
            self.total,
            self.rate(),
            unit = self.unit
        )
    }

    fn line(&self) -> String {
        let rate = self.rate();
        let left = if rate > 0.0 {
            self.total.saturating_sub(self.done) as f64 / rate
        } else {
            0.0
        };
        format!("{}, {left:.0}s left", self.done_line())
    }
}

impl<R> Reporter<R> for Progress {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.total = total;
        self.started = Instant::now();
        self.last_line = Instant::now();
        if !self.quiet && io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            let style = ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {}  {{per_sec}}  ETA {{eta}}  {{msg}}",
                self.unit
            ))
            .map_err(io::Error::other)?;
            bar.set_style(style);
            self.bar = Some(bar);
        }
        Ok(())
    }

    fn finished(&mut self, _record: &R) -> io::Result<()> {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        } else if !self.quiet && self.last_line.elapsed() >= self.every {
            self.last_line = Instant::now();
            self.print(&self.line());
        }
        Ok(())
    }

    /// A skipped job (its matchup was decided early) leaves the count of jobs to run, so
    /// the time left covers only the jobs still to be run.
    fn skipped(&mut self, _id: u64) -> io::Result<()> {
        self.total = self.total.saturating_sub(1);
        if let Some(bar) = &self.bar {
            bar.set_length(self.total as u64);
        }
        Ok(())
    }

    fn show_line(&mut self, line: &str) {
        if self.quiet {
            return;
        }
        match &self.bar {
            Some(bar) => bar.println(line),
            None => self.print(line),
        }
    }

    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if !self.quiet {
            let status = if outcome.cancelled { "stopped" } else { "done" };
            // A run that has ended has no time left to announce.
            self.print(&format!("{status}: {}", self.done_line()));
        }
        Ok(())
    }
}

/// A count shown while one long computation runs (a solve): a spinner with the count and
/// its rate on a terminal, a plain line every few seconds otherwise. Stops when dropped.
pub struct Watch {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Watches `count` (of `unit`, e.g. `positions`) from another thread.
    pub fn start(count: Arc<std::sync::atomic::AtomicU64>, unit: &'static str) -> Watch {
        let done = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&done);
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let bar = io::stderr().is_terminal().then(|| {
                let bar = ProgressBar::new_spinner();
                if let Ok(style) = ProgressStyle::with_template(&format!(
                    "{{spinner}} {{msg}} {unit}  {{elapsed}}"
                )) {
                    bar.set_style(style);
                }
                bar
            });
            let every = line_every();
            let mut last_line = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let n = count.load(Ordering::Relaxed);
                let seconds = started.elapsed().as_secs_f64();
                match &bar {
                    Some(bar) => {
                        bar.set_message(format!("{n}"));
                        bar.tick();
                    }
                    None if last_line.elapsed() >= every => {
                        last_line = Instant::now();
                        let rate = n as f64 / seconds.max(1e-9);
                        // Millions of positions a second read best as powers of ten, a
                        // few games a second as they are.
                        let rate = if rate >= 1e4 {
                            format!("{rate:.3e}")
                        } else {
                            format!("{rate:.2}")
                        };
                        say(&format!("{n} {unit} in {seconds:.0} s, {rate} {unit}/s"));
                    }
                    None => {}
                }
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        Watch {
            done,
            thread: Some(thread),
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
