//! Rules served by a dynamic library (docs/game-library.md): the game protocol's requests
//! as function calls inside arbiter's process, and four typed calls for what a search asks
//! at every node (how many moves, the child of a move with its status, a move's text, the
//! program's value), so that a game in Rust or C runs at a small multiple of a built-in
//! game instead of a pipe's round trip per request.
//!
//! A library is trusted code: it runs in arbiter's process with arbiter's rights, outside
//! any sandbox, and a crash in it ends arbiter. `open` gives a context per worker thread;
//! calls on one context never overlap, calls on different contexts may run at once.

use std::ffi::{CStr, CString, c_char, c_void};
use std::path::{Path, PathBuf};

/// The version of the library interface this arbiter speaks.
pub const LIBRARY_ABI: u32 = 1;

/// The symbol a rules library exports: a function returning its [`RulesV1`] table.
pub const SYMBOL: &str = "arbiter_rules_v1";

/// The largest reply or position a library may write (as a program's line).
const MOST_BYTES: usize = 1 << 24;

/// A position's status as [`RulesV1::apply`] writes it.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct StatusV1 {
    /// The seat to move, from 0 (P1).
    pub to_move: i32,
    /// 1 when the game is over.
    pub over: i32,
    /// The winner's seat from 0, or -1 for a draw (when over).
    pub winner: i32,
    /// 1 when chance acts next (the legal moves are its outcomes).
    pub chance: i32,
    /// Why the game ended (when over): a NUL-terminated text valid until the next call on
    /// the context, or null (`over`).
    pub reason: *const c_char,
}

impl Default for StatusV1 {
    fn default() -> StatusV1 {
        StatusV1 {
            to_move: 0,
            over: 0,
            winner: -1,
            chance: 0,
            reason: std::ptr::null(),
        }
    }
}

/// The table a rules library's [`SYMBOL`] returns (every field as in
/// docs/game-library.md; the typed calls may be null, and then go through `request`).
#[repr(C)]
struct RulesV1 {
    abi: u32,
    open: Option<unsafe extern "C" fn() -> *mut c_void>,
    close: Option<unsafe extern "C" fn(*mut c_void)>,
    request: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize, *mut u8, usize) -> usize>,
    count: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize) -> i64>,
    apply: Option<
        unsafe extern "C" fn(
            *mut c_void,
            *const u8,
            usize,
            u32,
            *mut u8,
            usize,
            *mut StatusV1,
        ) -> i64,
    >,
    move_text:
        Option<unsafe extern "C" fn(*mut c_void, *const u8, usize, u32, *mut u8, usize) -> i64>,
    evaluate: Option<unsafe extern "C" fn(*mut c_void, *const u8, usize, u32, *mut f64) -> i32>,
}

/// A loaded rules library (never unloaded: its code may be running on any thread until
/// arbiter exits).
#[derive(Debug)]
pub struct Library {
    path: PathBuf,
    rules: &'static RulesV1,
}

impl std::fmt::Debug for RulesV1 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RulesV1(abi {})", self.abi)
    }
}

// SAFETY: the table is immutable and lives as long as the process (the library is never
// unloaded); the interface requires its functions to be callable from any thread, on
// different contexts at once.
unsafe impl Send for Library {}
// SAFETY: as for Send.
unsafe impl Sync for Library {}

/// The last `dlerror` text, or `fallback`.
fn dl_error(fallback: &str) -> String {
    // SAFETY: dlerror returns null or a NUL-terminated text owned by libc.
    let text = unsafe { libc::dlerror() };
    if text.is_null() {
        fallback.to_string()
    } else {
        // SAFETY: not null, NUL-terminated.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

/// Why rules inside this process could not be loaded, opened or asked, whoever serves
/// them (a rules library, a game class the Python package hosts): one line each, as
/// `Display` writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InProcessError {
    /// The library file at `path` cannot serve, for `fault`.
    Library {
        /// The file, as it was named.
        path: PathBuf,
        /// What is wrong with it.
        fault: LibraryFault,
    },
    /// No game of this name is hosted by this process (it was forgotten, or this is
    /// another process: a resume without the class).
    NotHosted(String),
    /// A reply longer than 16 MiB.
    TooLong,
    /// A reply that is not UTF-8.
    NotUtf8,
    /// A request line that is not JSON (a hosted game reads each one).
    NotJson(String),
    /// What the hosting code said when it failed (a Python class's exception, in one line).
    Failed(String),
}

/// What makes a library file unusable as rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibraryFault {
    /// The file does not exist.
    NoFile,
    /// The path holds a NUL byte (the loader cannot be given it).
    NulInPath,
    /// The loader refused it, with the loader's words.
    CannotLoad(String),
    /// It does not export [`SYMBOL`].
    NoSymbol,
    /// [`SYMBOL`] returned a null table.
    NoTable,
    /// Its table is of this interface version, not [`LIBRARY_ABI`].
    Version(u32),
    /// Its table lacks `open`, `close` or `request`.
    Incomplete,
    /// `open` returned no context.
    NoContext,
}

impl std::fmt::Display for LibraryFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LibraryFault::NoFile => write!(f, "no such file"),
            LibraryFault::NulInPath => write!(f, "the path holds a NUL byte"),
            LibraryFault::CannotLoad(why) => write!(f, "cannot load it: {why}"),
            LibraryFault::NoSymbol => {
                write!(f, "exports no `{SYMBOL}` (see docs/game-library.md)")
            }
            LibraryFault::NoTable => write!(f, "`{SYMBOL}` returned no table"),
            LibraryFault::Version(abi) => write!(
                f,
                "its table is of interface version {abi}, this arbiter speaks version {LIBRARY_ABI}"
            ),
            LibraryFault::Incomplete => write!(
                f,
                "its table lacks open, close or request (each is required)"
            ),
            LibraryFault::NoContext => write!(f, "`open` returned no context"),
        }
    }
}

impl std::fmt::Display for InProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InProcessError::Library { path, fault } => {
                write!(f, "library {}: {fault}", path.display())
            }
            InProcessError::NotHosted(name) => write!(
                f,
                "no game '{name}' is hosted by this process (a Python game class must be passed again to play, e.g. on a resume)"
            ),
            InProcessError::TooLong => write!(f, "answered with a reply longer than 16 MiB"),
            InProcessError::NotUtf8 => write!(f, "answered with a reply that is not UTF-8"),
            InProcessError::NotJson(why) => write!(f, "a request that is not JSON: {why}"),
            InProcessError::Failed(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for InProcessError {}

impl Library {
    /// Loads the library at `path` and checks its table.
    ///
    /// # Errors
    /// One line: the file cannot be loaded, lacks the symbol, or its table is of another
    /// version or lacks a required function.
    pub fn load(path: &Path) -> Result<Library, InProcessError> {
        let fault = |fault| InProcessError::Library {
            path: path.to_path_buf(),
            fault,
        };
        if !path.is_file() {
            return Err(fault(LibraryFault::NoFile));
        }
        let text = CString::new(path.as_os_str().as_encoded_bytes())
            .map_err(|_| fault(LibraryFault::NulInPath))?;
        // SAFETY: a NUL-terminated path; loading runs the library's initialisers, which is
        // what declaring a library game trusts it with.
        let handle = unsafe { libc::dlopen(text.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(fault(LibraryFault::CannotLoad(dl_error("dlopen failed"))));
        }
        let symbol = CString::new(SYMBOL).unwrap_or_default();
        // SAFETY: a valid handle and a NUL-terminated name.
        let found = unsafe { libc::dlsym(handle, symbol.as_ptr()) };
        if found.is_null() {
            return Err(fault(LibraryFault::NoSymbol));
        }
        // SAFETY: the interface defines the symbol as `const RulesV1 *arbiter_rules_v1(void)`.
        let table = unsafe {
            let entry: unsafe extern "C" fn() -> *const RulesV1 = std::mem::transmute(found);
            entry()
        };
        if table.is_null() {
            return Err(fault(LibraryFault::NoTable));
        }
        // SAFETY: the interface requires a table that lives as long as the library, which
        // is never unloaded. Only `abi` is read until it is checked.
        let rules: &'static RulesV1 = unsafe { &*table };
        if rules.abi != LIBRARY_ABI {
            return Err(fault(LibraryFault::Version(rules.abi)));
        }
        if rules.open.is_none() || rules.close.is_none() || rules.request.is_none() {
            return Err(fault(LibraryFault::Incomplete));
        }
        Ok(Library {
            path: path.to_path_buf(),
            rules,
        })
    }

    /// Where it was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether it offers the typed calls a search makes at every node (`count`, `apply`
    /// and `move_text`).
    pub fn has_typed_calls(&self) -> bool {
        self.rules.count.is_some() && self.rules.apply.is_some() && self.rules.move_text.is_some()
    }

    /// Whether it offers the typed `evaluate`.
    pub fn has_evaluate(&self) -> bool {
        self.rules.evaluate.is_some()
    }
}

/// A position's status as a typed `apply` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Typed<'a> {
    /// The seat to move, from 0 (P1).
    pub to_move: i32,
    /// Whether the game is over.
    pub over: bool,
    /// The winner's seat from 0, or -1 for a draw (when over).
    pub winner: i32,
    /// Whether chance acts next.
    pub chance: bool,
    /// Why the game ended (when over).
    pub reason: &'a str,
}

/// Rules answering inside arbiter's process: a context of a rules library, or a game the
/// Python package hosts ([`super::hosted`]). One per worker thread's client; calls on one
/// never overlap.
pub trait InProcess: Send {
    /// What it is, for messages (`library PATH`, `Python game NAME`).
    fn describe(&self) -> String;
    /// The reply line to one request line of the game protocol.
    ///
    /// # Errors
    /// It could not answer at all (not an `error` reply: a broken answer).
    fn request(&mut self, line: &str) -> Result<String, InProcessError>;
    /// Whether it offers the typed calls a search makes at every node (`count`, `apply`
    /// and `move_text`).
    fn has_typed_calls(&self) -> bool;
    /// Whether it offers the typed `evaluate`.
    fn has_evaluate(&self) -> bool;
    /// How many legal moves `position` has (`None`: it said it failed).
    fn count(&mut self, position: &str) -> Option<usize>;
    /// The position after legal move `index` of `position`, with its status.
    fn apply(&mut self, position: &str, index: u16) -> Option<(&str, Typed<'_>)>;
    /// The text of legal move `index` of `position`.
    fn move_text(&mut self, position: &str, index: u16) -> Option<&str>;
    /// Its value of `position` for seat `player` (from 0).
    fn evaluate(&mut self, position: &str, player: usize) -> Option<f64>;
    /// Why its last typed call failed, when it can say (a Python game: what it raised).
    fn take_error(&mut self) -> Option<String> {
        None
    }
}

/// One context of a library: what a worker thread's client speaks to.
pub struct Context {
    library: std::sync::Arc<Library>,
    context: *mut c_void,
    /// Written by the library (replies, positions, move texts).
    out: Vec<u8>,
}

// SAFETY: a context is used by one thread at a time (its client's lock), which the
// interface allows; it may be closed from another thread when arbiter exits.
unsafe impl Send for Context {}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Context({})", self.library.path.display())
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if let Some(close) = self.library.rules.close {
            // SAFETY: a context `open` made, closed once.
            unsafe { close(self.context) };
        }
    }
}

/// Calls `call` with the buffer until what it writes fits (it returns the length it needs,
/// or a negative number for an error): the bytes written, or `None` on an error or a
/// length past [`MOST_BYTES`].
fn written(out: &mut Vec<u8>, mut call: impl FnMut(*mut u8, usize) -> i64) -> Option<usize> {
    loop {
        let wanted = call(out.as_mut_ptr(), out.len());
        let wanted = usize::try_from(wanted).ok()?;
        if wanted <= out.len() {
            return Some(wanted);
        }
        if wanted > MOST_BYTES {
            return None;
        }
        out.resize(wanted, 0);
    }
}

impl Context {
    /// A new context of `library`.
    ///
    /// # Errors
    /// `open` returned null.
    pub fn open(library: &std::sync::Arc<Library>) -> Result<Context, InProcessError> {
        let no_context = || InProcessError::Library {
            path: library.path.clone(),
            fault: LibraryFault::NoContext,
        };
        let open = library.rules.open.ok_or_else(no_context)?;
        // SAFETY: the interface's `open`.
        let context = unsafe { open() };
        if context.is_null() {
            return Err(no_context());
        }
        Ok(Context {
            library: std::sync::Arc::clone(library),
            context,
            out: vec![0; 4096],
        })
    }

    /// The library it is a context of.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The text a typed call writes into the buffer (as [`written`]), if it is UTF-8.
    fn text_written(&mut self, call: impl FnMut(*mut u8, usize) -> i64) -> Option<&str> {
        let length = written(&mut self.out, call)?;
        std::str::from_utf8(&self.out[..length]).ok()
    }
}

impl InProcess for Context {
    fn describe(&self) -> String {
        format!("library {}", self.library.path.display())
    }

    fn has_typed_calls(&self) -> bool {
        self.library.has_typed_calls()
    }

    fn has_evaluate(&self) -> bool {
        self.library.has_evaluate()
    }

    /// The reply line to one request line of the game protocol.
    ///
    /// # Errors
    /// A reply that is not UTF-8 or longer than 16 MiB.
    fn request(&mut self, line: &str) -> Result<String, InProcessError> {
        let request = self
            .library
            .rules
            .request
            .ok_or_else(|| InProcessError::Library {
                path: self.library.path.clone(),
                fault: LibraryFault::Incomplete,
            })?;
        let context = self.context;
        let length = written(&mut self.out, |out, cap| {
            // SAFETY: the line's bytes and a writable buffer of `cap` bytes.
            let needed = unsafe { request(context, line.as_ptr(), line.len(), out, cap) };
            i64::try_from(needed).unwrap_or(i64::MAX)
        })
        .ok_or(InProcessError::TooLong)?;
        std::str::from_utf8(&self.out[..length])
            .map(str::to_string)
            .map_err(|_| InProcessError::NotUtf8)
    }

    /// How many legal moves `position` has (`None`: the library said it failed).
    fn count(&mut self, position: &str) -> Option<usize> {
        let count = self.library.rules.count?;
        // SAFETY: the position's bytes.
        let n = unsafe { count(self.context, position.as_ptr(), position.len()) };
        usize::try_from(n).ok()
    }

    /// The position after legal move `index` of `position`, with its status.
    fn apply(&mut self, position: &str, index: u16) -> Option<(&str, Typed<'_>)> {
        let apply = self.library.rules.apply?;
        let context = self.context;
        let mut status = StatusV1::default();
        let child = self.text_written(|out, cap| {
            status = StatusV1::default();
            // SAFETY: the position's bytes, a writable buffer of `cap` bytes and a status.
            unsafe {
                apply(
                    context,
                    position.as_ptr(),
                    position.len(),
                    u32::from(index),
                    out,
                    cap,
                    &mut status,
                )
            }
        })?;
        // SAFETY: the interface keeps the reason valid until the next call.
        let reason = if status.over != 0 {
            unsafe { reason_text(status.reason) }
        } else {
            ""
        };
        let typed = Typed {
            to_move: status.to_move,
            over: status.over != 0,
            winner: status.winner,
            chance: status.chance != 0,
            reason,
        };
        Some((child, typed))
    }

    /// The text of legal move `index` of `position`.
    fn move_text(&mut self, position: &str, index: u16) -> Option<&str> {
        let move_text = self.library.rules.move_text?;
        let context = self.context;
        self.text_written(|out, cap| {
            // SAFETY: the position's bytes and a writable buffer of `cap` bytes.
            unsafe {
                move_text(
                    context,
                    position.as_ptr(),
                    position.len(),
                    u32::from(index),
                    out,
                    cap,
                )
            }
        })
    }

    /// The library's value of `position` for seat `player` (from 0).
    fn evaluate(&mut self, position: &str, player: usize) -> Option<f64> {
        let evaluate = self.library.rules.evaluate?;
        let mut value = 0.0;
        // SAFETY: the position's bytes and a place for the value.
        let status = unsafe {
            evaluate(
                self.context,
                position.as_ptr(),
                position.len(),
                player as u32,
                &mut value,
            )
        };
        (status == 0 && value.is_finite()).then_some(value)
    }
}

/// The reason a status names, as text (`over` when it names none or is not UTF-8).
///
/// # Safety
/// `reason` is null or a NUL-terminated text still valid.
unsafe fn reason_text<'a>(reason: *const c_char) -> &'a str {
    if reason.is_null() {
        return "over";
    }
    // SAFETY: the caller's promise.
    unsafe { CStr::from_ptr(reason) }.to_str().unwrap_or("over")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_library_that_cannot_serve_says_which_file_and_why() {
        let missing = Path::new("/nonexistent/rules.so");
        let error = Library::load(missing).err().unwrap();
        assert_eq!(
            error,
            InProcessError::Library {
                path: missing.to_path_buf(),
                fault: LibraryFault::NoFile
            }
        );
        assert_eq!(
            error.to_string(),
            "library /nonexistent/rules.so: no such file"
        );
        // A file that is no library at all: the loader's own words follow.
        let not_elf =
            std::env::temp_dir().join(format!("arbiter-not-a-library-{}.so", std::process::id()));
        std::fs::write(&not_elf, "not a library").unwrap();
        let error = Library::load(&not_elf).err().unwrap();
        std::fs::remove_file(&not_elf).unwrap();
        assert!(
            matches!(&error, InProcessError::Library { fault: LibraryFault::CannotLoad(why), .. } if !why.is_empty()),
            "{error:?}"
        );
        assert!(
            error
                .to_string()
                .starts_with(&format!("library {}: cannot load it: ", not_elf.display())),
            "{error}"
        );
        assert_eq!(
            InProcessError::Library {
                path: PathBuf::from("r.so"),
                fault: LibraryFault::Version(7)
            }
            .to_string(),
            "library r.so: its table is of interface version 7, this arbiter speaks version 1"
        );
    }
}
