/// mimalloc instead of glibc's allocator: a run's records are allocated by the worker that
/// plays a game and freed by the thread that writes it, and glibc's free of another
/// thread's memory takes that thread's arena lock (in a 50,000-game run, 20,000 futex
/// calls, most of them the worker waiting on its own arena, and the run's CPU time
/// varying by half from one run to the next).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // Behave like other command-line tools when output goes to a closed pipe
    // (`arbiter list | head`): end quietly instead of panicking on the failed write.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Commands that play programs or watch for Ctrl-C ignore SIGPIPE again (a program that
    // exits must not kill arbiter), and then `println!` panics on a closed standard output:
    // end as a shell reports a command its closed pipe ended (141), without a backtrace.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout")
            && message.ends_with(&format!("(os error {})", libc::EPIPE))
        {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    std::process::exit(arbiter::cli::main());
}
