fn main() {
    // Behave like other command-line tools when output goes to a closed pipe
    // (`arbiter list | head`): end quietly instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    std::process::exit(arbiter::cli::main());
}
