//! Reading input by looking before sleeping: when the other side answered quickly last
//! time, a read looks (poll(2) without a timeout, other threads let run between looks) for
//! up to [`SPIN`] before it sleeps. A program's output ([`super::Program::receive`]) and
//! the requests `serve-agent` and `serve-game` read on stdin are read this way.

use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

/// How long a wait for a line looks, without sleeping, whether one has come, when the
/// program's previous line came within that time. Waking a sleeping thread when the line
/// arrives costs tens of microseconds of CPU on a virtual machine (more than a fast
/// program's answer itself), so a quick answer is better caught by looking.
pub(super) const SPIN: Duration = Duration::from_micros(150);

/// Whether looking for input can catch it: not when this process may run on one core
/// only, where the other side cannot write while this one looks.
pub(super) fn looking_helps() -> bool {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get())) > 1
}

/// Whether `input` has something to read within `span`: looked at without sleeping
/// (poll(2) with no timeout), letting other threads run between looks.
pub fn readable_within(input: &impl AsRawFd, span: Duration) -> bool {
    let end = Instant::now() + span;
    loop {
        let mut poll = libc::pollfd {
            fd: input.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        if unsafe { libc::poll(&mut poll, 1, 0) } != 0 || Instant::now() >= end {
            return poll.revents != 0;
        }
        std::thread::yield_now();
    }
}

/// A program's input read the way [`Program::receive`] reads its output: when the previous
/// read found its bytes within [`SPIN`], the next looks for them (for SPIN at most) before
/// it sleeps. `serve-agent` and `serve-game` read their requests on stdin this way.
pub struct LookingInput<R> {
    inner: R,
    quick: bool,
}

impl<R: Read + AsRawFd> LookingInput<R> {
    /// Reads `inner`, looking first.
    pub fn new(inner: R) -> Self {
        LookingInput {
            inner,
            quick: looking_helps(),
        }
    }
}

impl<R: Read + AsRawFd> Read for LookingInput<R> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let began = Instant::now();
        if self.quick {
            readable_within(&self.inner, SPIN);
        }
        let read = self.inner.read(buffer)?;
        self.quick = began.elapsed() <= SPIN && looking_helps();
        Ok(read)
    }
}

/// Standard input, buffered, read as a [`LookingInput`] (the requests of `serve-agent` and
/// `serve-game`).
pub fn looking_stdin() -> io::BufReader<LookingInput<io::Stdin>> {
    // At least the size of Stdin's own buffer, which a read that large then bypasses.
    io::BufReader::with_capacity(1 << 16, LookingInput::new(io::stdin()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_read_by_looking_come_whole_and_in_order() {
        use std::io::{BufRead, Write};
        let (reader, mut writer) = std::io::pipe().expect("a pipe");
        let lines: Vec<String> = (0..400)
            .map(|i| format!("{i} {}", "y".repeat(i % 97)))
            .collect();
        let sent = lines.clone();
        let writing = std::thread::spawn(move || {
            for (i, line) in sent.iter().enumerate() {
                writer
                    .write_all(line.as_bytes())
                    .expect("the reader is open");
                writer.write_all(b"\n").expect("the reader is open");
                // Some requests come at once, some after a pause longer than the look.
                if i % 50 == 49 {
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            // The last one only after a long pause: the read before it sleeps.
            std::thread::sleep(Duration::from_millis(30));
            writer.write_all(b"last\n").expect("the reader is open");
        });
        let mut input = std::io::BufReader::new(LookingInput::new(reader));
        assert_eq!(input.get_ref().quick, looking_helps());
        let mut line = String::new();
        for expected in &lines {
            line.clear();
            input.read_line(&mut line).expect("a line");
            assert_eq!(line.strip_suffix('\n'), Some(expected.as_str()));
        }
        line.clear();
        input.read_line(&mut line).expect("a line");
        assert_eq!(line, "last\n");
        assert!(!input.get_ref().quick, "the last request took 30 ms");
        writing.join().expect("the writer ends");
        line.clear();
        assert_eq!(input.read_line(&mut line).expect("the end"), 0);
    }
}
