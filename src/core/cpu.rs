//! CPU time as the system counts it: this thread's, this process's, and that of the child
//! processes that ended (what a move or a run cost in computing, beside the wall clock).

/// The thread's CPU time in nanoseconds (what a hosted agent's move costs is measured on
/// the thread that calls it).
pub fn thread_nanos() -> Option<u64> {
    clock_nanos(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The CPU time in nanoseconds of this whole process, every thread of it so far.
pub fn process_nanos() -> Option<u64> {
    clock_nanos(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// The reading of CPU clock `clock` in nanoseconds.
fn clock_nanos(clock: libc::clockid_t) -> Option<u64> {
    let mut time = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: writes only `time`, on this stack.
    let read = unsafe { libc::clock_gettime(clock, &mut time) == 0 };
    read.then(|| time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
}

/// The CPU time in nanoseconds of this process's children that have ended and been
/// waited for (a program's whole life: its start, its moves, its waits and its exit).
pub fn ended_children_nanos() -> Option<u64> {
    // SAFETY: an all-zero rusage is a valid value; getrusage writes only it.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: one valid rusage for the duration of the call.
    let read = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) == 0 };
    let nanos = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    read.then(|| nanos(usage.ru_utime) + nanos(usage.ru_stime))
}
