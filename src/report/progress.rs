//! Progress on long runs: an indicatif bar on a terminal, plain periodic lines otherwise.

use crate::tournament::{GameJob, GameRecord, Reporter, RunOutcome};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

/// Shows games done, games per second and the time left, on standard error.
pub struct Progress {
    bar: Option<ProgressBar>,
    total: usize,
    done: usize,
    started: Instant,
    last_line: Instant,
    quiet: bool,
}

/// A bar counting `total` units of work on standard error, hidden when `quiet` or when
/// standard error is not a terminal (for runs that are not games).
pub fn work_bar(total: u64, quiet: bool) -> ProgressBar {
    if !quiet && io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::hidden()
    }
}

/// How often a plain progress line is printed when standard error is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(5);

impl Progress {
    /// A progress display; `quiet` prints nothing at all.
    pub fn new(quiet: bool) -> Progress {
        Progress {
            bar: None,
            total: 0,
            done: 0,
            started: Instant::now(),
            last_line: Instant::now(),
            quiet,
        }
    }

    fn line(&self) -> String {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            self.done as f64 / seconds
        } else {
            0.0
        };
        let left = if rate > 0.0 {
            self.total.saturating_sub(self.done) as f64 / rate
        } else {
            0.0
        };
        format!(
            "{}/{} games, {rate:.1} games/s, {left:.0}s left",
            self.done, self.total
        )
    }
}

impl Reporter for Progress {
    fn started(&mut self, total: usize) -> io::Result<()> {
        self.total = total;
        self.started = Instant::now();
        self.last_line = Instant::now();
        if !self.quiet && io::stderr().is_terminal() {
            let bar = ProgressBar::new(total as u64);
            let style = ProgressStyle::with_template(
                "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}",
            )
            .map_err(io::Error::other)?;
            bar.set_style(style);
            self.bar = Some(bar);
        }
        Ok(())
    }

    fn game_finished(&mut self, _record: &GameRecord) -> io::Result<()> {
        self.done += 1;
        if let Some(bar) = &self.bar {
            bar.inc(1);
        } else if !self.quiet && self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let _ = writeln!(io::stderr(), "{}", self.line());
        }
        Ok(())
    }

    /// A skipped game (its matchup was decided early) leaves the count of games to play,
    /// so the time left covers only the games still to be played in every matchup.
    fn game_skipped(&mut self, _job: &GameJob) -> io::Result<()> {
        self.total = self.total.saturating_sub(1);
        if let Some(bar) = &self.bar {
            bar.set_length(self.total as u64);
        }
        Ok(())
    }

    fn ended(&mut self, outcome: &RunOutcome) -> io::Result<()> {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if !self.quiet {
            let status = if outcome.cancelled { "stopped" } else { "done" };
            let _ = writeln!(io::stderr(), "{status}: {}", self.line());
        }
        Ok(())
    }
}
