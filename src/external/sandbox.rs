//! Untrusted programs in a sandbox (Linux): bubblewrap (`bwrap`) gives the program a view
//! of the system of its own — no network (a network namespace with only its own
//! loopback), a read-only `/usr`, `/etc` and its own folder, a writable `/scratch` (its
//! `HOME`) and `/tmp` in memory of the box's own (`output_mb` each, gone with the box), no
//! view of other agents, of the results or of anyone's home — and a process namespace
//! whose end takes every process in it, including a child that called `setsid()`.
//! bubblewrap is told to die with arbiter, so arbiter killed with SIGKILL leaves nothing.
//!
//! Limits: where a cgroup controller can be written (cgroup v2 with `memory` and `pids`
//! delegated, or cgroup v1's `memory` and `pids` hierarchies, as root), the whole process
//! tree gets `memory_mb` and `processes`; otherwise each process gets `memory_mb` of
//! address space (RLIMIT_AS) and the sandbox user at most `processes` processes
//! (RLIMIT_NPROC). Every process also gets `cpu_seconds` of CPU (RLIMIT_CPU) and may write
//! files of at most `output_mb` (RLIMIT_FSIZE). A seccomp filter refuses the calls that
//! reach into another process (ptrace and kin). Run as root, arbiter starts the sandbox as
//! user `nobody` (65534), so a program cannot read root's files in the folders it sees.

use crate::core::FaultReason;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The user a sandbox runs as when arbiter runs as root.
const NOBODY: u32 = 65534;

/// The system calls a boxed program may not make, refused with EPERM: those that read or
/// write another process (ptrace, process_vm_readv/writev), take its open files
/// (pidfd_getfd) or watch it (perf_event_open). The box's process 1 is bubblewrap's reaper,
/// an ancestor running as the same user: without this filter the program could ptrace it.
const FORBIDDEN_CALLS: [libc::c_long; 5] = [
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_pidfd_getfd,
    libc::SYS_perf_event_open,
];

/// The audit architecture of this build's system calls (seccomp checks it first).
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

/// The seccomp filter (classic BPF, as bubblewrap's `--seccomp` reads it) that refuses
/// [`FORBIDDEN_CALLS`] with EPERM, and kills a process that makes system calls of another
/// architecture (32-bit or x32 calls, whose numbers differ) rather than let them through.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn seccomp_program() -> Vec<u8> {
    const LOAD_WORD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
    const JUMP_EQUAL: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
    const JUMP_AT_LEAST: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
    const RETURN: u16 = 0x06; // BPF_RET | BPF_K
    const KILL: u32 = 0x8000_0000; // SECCOMP_RET_KILL_PROCESS
    const ALLOW: u32 = 0x7fff_0000; // SECCOMP_RET_ALLOW
    const DENY: u32 = 0x0005_0000 | libc::EPERM as u32; // SECCOMP_RET_ERRNO | EPERM
    // x32's calls carry this bit on x86_64; no call of this architecture does.
    const FOREIGN_BIT: u32 = 0x4000_0000;
    let calls = FORBIDDEN_CALLS.len() as u8;
    let mut program: Vec<(u16, u8, u8, u32)> = vec![
        (LOAD_WORD, 0, 0, 4), // the architecture
        (JUMP_EQUAL, 1, 0, AUDIT_ARCH),
        (RETURN, 0, 0, KILL),
        (LOAD_WORD, 0, 0, 0), // the call's number
        (JUMP_AT_LEAST, 0, 1, FOREIGN_BIT),
        (RETURN, 0, 0, KILL),
    ];
    for (i, &call) in FORBIDDEN_CALLS.iter().enumerate() {
        // Equal: on to the DENY after the ALLOW below the list.
        program.push((JUMP_EQUAL, calls - i as u8, 0, call as u32));
    }
    program.push((RETURN, 0, 0, ALLOW));
    program.push((RETURN, 0, 0, DENY));
    program
        .iter()
        .flat_map(|&(code, jump_true, jump_false, k)| {
            let mut bytes = code.to_ne_bytes().to_vec();
            bytes.extend([jump_true, jump_false]);
            bytes.extend(k.to_ne_bytes());
            bytes
        })
        .collect()
}

/// A pipe holding the seccomp filter, its read end for bubblewrap's `--seccomp`; `None`
/// where no filter is written for this architecture.
fn seccomp_pipe() -> io::Result<Option<OwnedFd>> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        use std::os::fd::FromRawFd;
        let program = seccomp_program();
        let mut ends = [0 as libc::c_int; 2];
        // SAFETY: pipe2(2) writes two descriptors into `ends`, which we then own.
        if unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just made by pipe2 and are owned by nobody else.
        let (read, write) =
            unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        // A few hundred bytes: the pipe holds them without a reader.
        let mut writer = File::from(write);
        io::Write::write_all(&mut writer, &program)?;
        drop(writer);
        Ok(Some(read))
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Ok(None)
    }
}

/// An agent's sandbox and its limits.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SandboxSpec {
    /// Memory of the process tree (or of each process, without cgroups), in MiB.
    pub memory_mb: u64,
    /// Processes (and threads) at once.
    pub processes: u64,
    /// CPU seconds of each process.
    pub cpu_seconds: u64,
    /// The largest file it may write, in MiB.
    pub output_mb: u64,
    /// Further folders it may read (an interpreter outside `/usr`, say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub read: Vec<PathBuf>,
}

impl Default for SandboxSpec {
    fn default() -> SandboxSpec {
        SandboxSpec {
            memory_mb: 1024,
            processes: 64,
            cpu_seconds: 600,
            output_mb: 64,
            read: Vec::new(),
        }
    }
}

/// The run's choice: 0 as each agent file says, 1 none, 2 all.
static MODE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The run's choice (`--sandbox`): every external agent sandboxed (`Some(true)`), none
/// (`Some(false)`), or as each agent's file says (`None`). Set before any game (again
/// for each run of a host program that makes several).
pub fn set_mode(mode: Option<bool>) {
    let code = match mode {
        None => 0,
        Some(false) => 1,
        Some(true) => 2,
    };
    MODE.store(code, std::sync::atomic::Ordering::SeqCst);
}

/// The run's choice, as set by [`set_mode`] (`None`: as each agent file says).
pub fn mode() -> Option<bool> {
    match MODE.load(std::sync::atomic::Ordering::SeqCst) {
        1 => Some(false),
        2 => Some(true),
        _ => None,
    }
}

/// The sandbox an agent with `asked` runs in under the run's choice.
pub fn effective(asked: Option<&SandboxSpec>) -> Option<SandboxSpec> {
    match mode() {
        Some(true) => Some(asked.cloned().unwrap_or_default()),
        Some(false) => None,
        None => asked.cloned(),
    }
}

/// Whether sandboxes can be started here: `Ok` once one was, or why not in one line
/// naming what to install. Tried once per process.
///
/// # Errors
/// bubblewrap is missing or cannot make a sandbox on this system.
pub fn available() -> Result<(), String> {
    static TRIED: OnceLock<Result<(), String>> = OnceLock::new();
    TRIED
        .get_or_init(|| {
            if !cfg!(target_os = "linux") {
                return Err("sandboxes need Linux (bubblewrap and namespaces)".to_string());
            }
            let Some(bwrap) = bwrap() else {
                return Err("bubblewrap (bwrap) is not installed: install it (`apt install bubblewrap`, `dnf install bubblewrap`)".to_string());
            };
            let mut command = Command::new(&bwrap);
            command.args(bwrap_args(1, Path::new("/"), &[], &[]));
            command.arg("true");
            drop_to_nobody(&mut command);
            match command.output() {
                Ok(out) if out.status.success() => Ok(()),
                Ok(out) => Err(format!(
                    "bubblewrap cannot make a sandbox here ({}): user namespaces may be turned off (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces)",
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
                Err(e) => Err(format!("cannot run {}: {e}", bwrap.display())),
            }
        })
        .clone()
}

fn bwrap() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|folder| folder.join("bwrap"))
        .find(|p| p.is_file())
}

fn is_root() -> bool {
    // SAFETY: geteuid(2) has no preconditions and touches no memory.
    unsafe { libc::geteuid() == 0 }
}

/// Run as root: the sandbox starts as `nobody`, with no supplementary groups.
fn drop_to_nobody(command: &mut Command) {
    if !is_root() {
        return;
    }
    // SAFETY: between fork and exec only async-signal-safe calls are made (setgroups,
    // setgid, setuid), on no memory of the parent's.
    unsafe {
        command.pre_exec(|| {
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setgid(NOBODY) != 0
                || libc::setuid(NOBODY) != 0
            {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// bubblewrap's arguments up to the command: the system read-only, `read` and `cwd`
/// read-only, `/scratch` and `/tmp` writable in memory of the box's own (`scratch_mb`
/// each at most: the kernel refuses a write past it), the environment `env` only.
fn bwrap_args(
    scratch_mb: u64,
    cwd: &Path,
    read: &[PathBuf],
    env: &[(String, String)],
) -> Vec<String> {
    let mut args: Vec<String> = [
        "--die-with-parent",
        "--new-session",
        "--unshare-all",
        "--clearenv",
        "--ro-bind",
        "/usr",
        "/usr",
    ]
    .map(String::from)
    .to_vec();
    for top in ["bin", "sbin", "lib", "lib32", "lib64", "libx32"] {
        let path = Path::new("/").join(top);
        match std::fs::read_link(&path) {
            Ok(target) => args.extend([
                "--symlink".to_string(),
                target.display().to_string(),
                path.display().to_string(),
            ]),
            Err(_) if path.is_dir() => args.extend([
                "--ro-bind".to_string(),
                path.display().to_string(),
                path.display().to_string(),
            ]),
            Err(_) => {}
        }
    }
    for (flag, path) in [
        ("--ro-bind", "/etc"),
        ("--proc", "/proc"),
        ("--dev", "/dev"),
    ] {
        args.push(flag.to_string());
        if flag == "--ro-bind" {
            args.push(path.to_string());
        }
        args.push(path.to_string());
    }
    let size = scratch_mb.saturating_mul(1 << 20).to_string();
    for folder in ["/tmp", "/scratch"] {
        args.extend([
            "--size".to_string(),
            size.clone(),
            "--tmpfs".to_string(),
            folder.to_string(),
        ]);
    }
    for folder in read.iter().chain([&cwd.to_path_buf()]) {
        if folder != Path::new("/") && folder.exists() {
            let folder = folder.display().to_string();
            args.extend(["--ro-bind".to_string(), folder.clone(), folder]);
        }
    }
    args.extend(["--chdir".to_string(), cwd.display().to_string()]);
    let mut vars: Vec<(String, String)> = vec![
        ("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()),
        ("HOME".into(), "/scratch".into()),
        ("TMPDIR".into(), "/tmp".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("PYTHONUNBUFFERED".into(), "1".into()),
    ];
    vars.extend(env.iter().cloned());
    for (key, value) in vars {
        args.extend(["--setenv".to_string(), key, value]);
    }
    args.push("--".to_string());
    args
}

/// Where this process's cgroups are: cgroup v2 (one folder with `memory` and `pids`) or
/// v1 (a folder in each of the `memory` and `pids` hierarchies); `None` when they cannot
/// be written.
fn cgroup_parents() -> Option<Vec<PathBuf>> {
    static FOUND: OnceLock<Option<Vec<PathBuf>>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
            let root = Path::new("/sys/fs/cgroup");
            let place = |controller: &str| -> Option<PathBuf> {
                own.lines().find_map(|line| {
                    let mut parts = line.splitn(3, ':');
                    let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
                    names
                        .split(',')
                        .any(|n| n == controller)
                        .then(|| root.join(controller).join(path.trim_start_matches('/')))
                })
            };
            let writable = |folder: &Path| -> bool {
                let probe = folder.join(format!("arbiter-probe-{}", std::process::id()));
                let made = std::fs::create_dir(&probe).is_ok();
                let usable = made && probe.join("cgroup.procs").is_file();
                if made {
                    let _ = std::fs::remove_dir(&probe);
                }
                usable
            };
            // cgroup v1: the memory and pids hierarchies.
            if let (Some(memory), Some(pids)) = (place("memory"), place("pids"))
                && writable(&memory)
                && writable(&pids)
            {
                return Some(vec![memory, pids]);
            }
            // cgroup v2: a folder of ours whose children get memory and pids.
            let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
            let unified = [root.to_path_buf(), root.join("unified")]
                .into_iter()
                .find(|r| r.join("cgroup.controllers").is_file())?;
            let folder = unified.join(path.trim_start_matches('/'));
            let controls = std::fs::read_to_string(folder.join("cgroup.subtree_control")).ok()?;
            (controls.contains("memory") && controls.contains("pids") && writable(&folder))
                .then(|| vec![folder])
        })
        .clone()
}

/// Where a cgroup v1 `cpuacct` folder can be made for a sandbox, to read its tree's CPU
/// time (cgroup v2 folders have `cpu.stat` of their own).
fn cpuacct_parent() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
            let path = own.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
                names.split(',').any(|n| n == "cpuacct").then_some(path)
            })?;
            let root = Path::new("/sys/fs/cgroup");
            let folder = ["cpuacct", "cpu,cpuacct", "cpuacct,cpu"]
                .iter()
                .map(|name| root.join(name).join(path.trim_start_matches('/')))
                .find(|f| f.join("cpuacct.usage").is_file())?;
            let probe = folder.join(format!("arbiter-probe-{}", std::process::id()));
            let made = std::fs::create_dir(&probe).is_ok();
            let usable = made && probe.join("cpuacct.usage").is_file();
            if made {
                let _ = std::fs::remove_dir(&probe);
            }
            usable.then_some(folder)
        })
        .clone()
}

static SANDBOXES: AtomicU64 = AtomicU64::new(0);

/// One program's sandbox: its cgroups, removed when dropped (its scratch folders are in
/// the box's own memory and go with it).
#[derive(Debug)]
pub struct Jail {
    spec: SandboxSpec,
    /// The cgroup folders made for it (none: limits by rlimit only).
    cgroups: Vec<PathBuf>,
}

/// Removes the cgroup folders of sandboxes whose arbiter is gone (killed with SIGKILL,
/// it could not remove them): `arbiter-<pid>-<n>` folders of `parent` with no process
/// left, whose arbiter process no longer runs. Done once per process, at the first box.
fn remove_stale_cgroups(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("arbiter-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<libc::pid_t>().ok())
        else {
            continue;
        };
        // SAFETY: kill(2) with signal 0 only asks whether the process exists.
        let alive = pid == std::process::id() as libc::pid_t
            || unsafe { libc::kill(pid, 0) } == 0
            || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
        if !alive {
            // An empty cgroup goes; one with processes left is refused (EBUSY) and stays.
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

impl Jail {
    /// A new sandbox for a program: where possible, its cgroups with their limits.
    ///
    /// # Errors
    /// Sandboxes are not available here.
    pub fn new(spec: &SandboxSpec) -> Result<Jail, String> {
        available()?;
        let number = SANDBOXES.fetch_add(1, Ordering::Relaxed);
        let name = format!("arbiter-{}-{number}", std::process::id());
        let mut jail = Jail {
            spec: spec.clone(),
            cgroups: Vec::new(),
        };
        let parents = cgroup_parents().unwrap_or_default();
        let cpuacct = if parents.is_empty() {
            None
        } else {
            cpuacct_parent()
        };
        if number == 0 {
            for parent in parents.iter().chain(&cpuacct) {
                remove_stale_cgroups(parent);
            }
        }
        for parent in parents.into_iter().chain(cpuacct) {
            let folder = parent.join(&name);
            if std::fs::create_dir(&folder).is_err() {
                continue;
            }
            jail.cgroups.push(folder.clone());
            let bytes = (spec.memory_mb << 20).to_string();
            let processes = spec.processes.to_string();
            for (file, value) in [
                ("memory.max", &bytes),
                ("memory.swap.max", &"0".to_string()),
                ("memory.limit_in_bytes", &bytes),
                ("memory.memsw.limit_in_bytes", &bytes),
                ("pids.max", &processes),
            ] {
                let path = folder.join(file);
                if path.is_file() {
                    let _ = std::fs::write(path, value);
                }
            }
        }
        Ok(jail)
    }

    /// Whether the whole process tree is limited (cgroups), not each process.
    pub fn tree_limits(&self) -> bool {
        !self.cgroups.is_empty()
    }

    /// `command` run in `cwd` inside the sandbox, with `env` as its whole environment
    /// (besides PATH, HOME, TMPDIR and LANG), its limits set and its cgroups joined
    /// before bubblewrap starts.
    ///
    /// # Errors
    /// A cgroup cannot be opened, or `cwd` cannot be read by the sandbox user.
    pub fn command(
        &self,
        command: &[String],
        cwd: &Path,
        env: &[(String, String)],
    ) -> io::Result<Command> {
        let bwrap =
            bwrap().ok_or_else(|| io::Error::other("bubblewrap (bwrap) is not installed"))?;
        if is_root() && !readable_by_nobody(cwd) {
            return Err(io::Error::other(format!(
                "the sandbox user (nobody) cannot read {}: make the agent's folder and the folders above it readable by all (chmod o+rX)",
                cwd.display()
            )));
        }
        let mut wrapped = Command::new(bwrap);
        // bubblewrap itself starts from an empty environment: nothing of arbiter's is
        // carried into any process of the box (`--setenv` gives the program its own),
        // bubblewrap's reaper (the box's process 1) included.
        wrapped.env_clear();
        let filter = seccomp_pipe()?;
        let mut args = bwrap_args(self.spec.output_mb, cwd, &self.spec.read, env);
        if let Some(filter) = &filter {
            // Before the `--` that ends bubblewrap's own arguments.
            let at = args.len() - 1;
            args.splice(
                at..at,
                ["--seccomp".to_string(), filter.as_raw_fd().to_string()],
            );
        }
        wrapped.args(args);
        wrapped.args(command);

        let procs: Vec<OwnedFd> = self
            .cgroups
            .iter()
            .map(|folder| {
                File::options()
                    .write(true)
                    .open(folder.join("cgroup.procs"))
            })
            .map(|file| file.map(OwnedFd::from))
            .collect::<io::Result<_>>()?;
        let tree = self.tree_limits();
        let megabytes = |mb: u64| mb.saturating_mul(1 << 20) as libc::rlim_t;
        // CPU: SIGXCPU at the limit (a breach told apart by its signal), SIGKILL a second
        // later for a program that ignores it.
        let cpu = self.spec.cpu_seconds as libc::rlim_t;
        let limits = [
            (libc::RLIMIT_CPU, cpu, cpu.saturating_add(1)),
            (
                libc::RLIMIT_FSIZE,
                megabytes(self.spec.output_mb),
                megabytes(self.spec.output_mb),
            ),
            (libc::RLIMIT_CORE, 0, 0),
        ];
        let fallback = [
            (
                libc::RLIMIT_AS,
                megabytes(self.spec.memory_mb),
                megabytes(self.spec.memory_mb),
            ),
            (
                libc::RLIMIT_NPROC,
                self.spec.processes as libc::rlim_t,
                self.spec.processes as libc::rlim_t,
            ),
        ];
        let root = is_root();
        // SAFETY: between fork and exec only async-signal-safe calls are made (close_range,
        // fcntl, write, setrlimit, setgroups, setgid, setuid) on memory prepared before the
        // fork.
        unsafe {
            wrapped.pre_exec(move || {
                // No descriptor arbiter inherited without close-on-exec reaches the box
                // (marked, not closed: std's own exec-error pipe must stay open). A
                // kernel before 5.11 refuses the flag and the call does nothing.
                libc::syscall(
                    libc::SYS_close_range,
                    3u32,
                    u32::MAX,
                    libc::CLOSE_RANGE_CLOEXEC,
                );
                // The filter's pipe is the one descriptor bubblewrap is given (the closure
                // owns it: it stays open until the command is spawned).
                if let Some(fd) = &filter
                    && libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, 0) != 0
                {
                    return Err(io::Error::last_os_error());
                }
                for fd in &procs {
                    if libc::write(fd.as_raw_fd(), b"0".as_ptr().cast(), 1) != 1 {
                        return Err(io::Error::last_os_error());
                    }
                }
                let set = |(resource, soft, hard): (_, libc::rlim_t, libc::rlim_t)| {
                    let limit = libc::rlimit {
                        rlim_cur: soft,
                        rlim_max: hard,
                    };
                    libc::setrlimit(resource, &limit)
                };
                for limit in limits {
                    set(limit);
                }
                if !tree {
                    for limit in fallback {
                        set(limit);
                    }
                }
                if root
                    && (libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setgid(NOBODY) != 0
                        || libc::setuid(NOBODY) != 0)
                {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        Ok(wrapped)
    }

    /// Which limit the program ran into, judged from its cgroups' counters, how it ended
    /// and the last line of its stderr (`last_stderr`): `memory`, `processes`, `cpu_time`
    /// or `output`.
    pub fn breach(
        &self,
        status: Option<ExitStatus>,
        last_stderr: Option<&str>,
    ) -> Option<FaultReason> {
        let counted = |file: &str, key: &str| -> u64 {
            self.cgroups
                .iter()
                .filter_map(|folder| std::fs::read_to_string(folder.join(file)).ok())
                .flat_map(|text| {
                    text.lines()
                        .filter_map(|line| {
                            let (name, value) = line.split_once(' ')?;
                            (name == key).then(|| value.trim().parse::<u64>().ok())?
                        })
                        .collect::<Vec<_>>()
                })
                .sum()
        };
        // bubblewrap reports a program ended by a signal as exit code 128 + the signal.
        let signal = status.and_then(|s| {
            s.signal()
                .or_else(|| s.code().filter(|c| (129..160).contains(c)).map(|c| c - 128))
        });
        let read = |file: &str| -> Option<u64> {
            self.cgroups
                .iter()
                .find_map(|folder| std::fs::read_to_string(folder.join(file)).ok())
                .and_then(|text| text.trim().parse().ok())
        };
        // A tree at its memory limit (still running: the kernel reclaims before it kills,
        // which can take longer than a move's deadline) has run into the limit too.
        let limit = self.spec.memory_mb << 20;
        let at_limit = counted("memory.events", "max") > 0
            && read("memory.current").is_some_and(|used| used.saturating_mul(20) >= limit * 19);
        let cpu_spent = self
            .cpu_nanos()
            .is_some_and(|nanos| nanos >= self.spec.cpu_seconds.saturating_mul(1_000_000_000));
        if counted("memory.events", "oom_kill") + counted("memory.oom_control", "oom_kill") > 0
            || at_limit
            || self.cgroups.iter().any(|folder| {
                std::fs::read_to_string(folder.join("memory.failcnt"))
                    .is_ok_and(|n| n.trim() != "0")
            })
        {
            Some(FaultReason::Memory)
        } else if counted("pids.events", "max") > 0 {
            Some(FaultReason::Processes)
        } else if signal == Some(libc::SIGXCPU) || (signal == Some(libc::SIGKILL) && cpu_spent) {
            Some(FaultReason::CpuTime)
        } else if signal == Some(libc::SIGXFSZ)
            || (status.is_some()
                && last_stderr.is_some_and(|line| {
                    line.contains("No space left on device") || line.contains("File too large")
                }))
        {
            // A program that ignores SIGXFSZ (Python does) gets EFBIG, or ENOSPC from its
            // full scratch folders, and dies of it saying so.
            Some(FaultReason::Output)
        } else {
            None
        }
    }

    /// CPU time used so far by the whole process tree, in nanoseconds, from its cgroups
    /// (`cpuacct.usage` of cgroup v1, `cpu.stat` of v2); `None` without cgroups.
    pub fn cpu_nanos(&self) -> Option<u64> {
        self.cgroups.iter().find_map(|folder| {
            if let Ok(text) = std::fs::read_to_string(folder.join("cpuacct.usage")) {
                return text.trim().parse().ok();
            }
            let text = std::fs::read_to_string(folder.join("cpu.stat")).ok()?;
            text.lines()
                .find_map(|line| line.strip_prefix("usage_usec "))
                .and_then(|us| us.trim().parse::<u64>().ok())
                .map(|us| us.saturating_mul(1000))
        })
    }

    /// Kills every process left in its cgroups (by the pids they list), as a second line
    /// behind the process namespace.
    pub fn kill_all(&self) {
        for folder in &self.cgroups {
            let Ok(text) = std::fs::read_to_string(folder.join("cgroup.procs")) else {
                continue;
            };
            for pid in text
                .lines()
                .filter_map(|l| l.trim().parse::<libc::pid_t>().ok())
            {
                // SAFETY: kill(2) on a process of this sandbox's cgroup; no memory touched.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
    }
}

impl Drop for Jail {
    fn drop(&mut self) {
        self.kill_all();
        for folder in &self.cgroups {
            // A cgroup goes once its last process is reaped: a few tries.
            for _ in 0..50 {
                if std::fs::remove_dir(folder).is_ok() || !folder.exists() {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    }
}

/// Whether user `nobody` can reach and read `folder` (every folder above it searchable by
/// others, the folder itself readable).
fn readable_by_nobody(folder: &Path) -> bool {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let Ok(folder) = folder.canonicalize() else {
        return false;
    };
    let mut ancestors: Vec<&Path> = folder.ancestors().collect();
    ancestors.reverse();
    ancestors.iter().enumerate().all(|(i, path)| {
        std::fs::metadata(path).is_ok_and(|m| {
            let mode = m.permissions().mode();
            let owner = m.uid() == NOBODY;
            let search = if owner {
                mode & 0o100 != 0
            } else {
                mode & 0o001 != 0
            };
            let read = if owner {
                mode & 0o400 != 0
            } else {
                mode & 0o004 != 0
            };
            search && (i + 1 < ancestors.len() || read)
        })
    })
}
