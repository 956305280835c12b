//! The results folder of a run: a new or empty `--out`, or `results/<experiment>/<UTC
//! date-time>` (with `-2`, `-3`... when that exists).

use crate::records::{unix_now, utc_stamp};
use std::path::{Path, PathBuf};

/// Why a run folder could not be made or taken, with the folder or file it is about.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// `--out` names something that cannot take a new run.
    #[error("--out {}: {why}", .out.display())]
    Out {
        /// The folder given.
        out: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// A run folder that the system would not create.
    #[error("cannot create {}: {error}", .folder.display())]
    Create {
        /// The folder.
        folder: PathBuf,
        /// The system's reason.
        error: std::io::Error,
    },
    /// A lock file that the system refused.
    #[error("{}: cannot {what}: {error}", .path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// What was tried: `open` or `lock`.
        what: &'static str,
        /// The system's reason.
        error: std::io::Error,
    },
    /// Another process writes the folder, or its lock file keeps changing.
    #[error("{}: {why}", .path.display())]
    Held {
        /// The folder or its lock file.
        path: PathBuf,
        /// Who holds it, or why it cannot be taken.
        why: String,
    },
}

/// Creates the folder a new run writes: `out` (new or empty), else
/// `results/<experiment>/<UTC time>`.
///
/// # Errors
/// A message naming the folder: it exists and is not empty, or cannot be created.
pub fn create_run_folder(out: Option<&Path>, experiment: &str) -> Result<PathBuf, FolderError> {
    let bad_out = |out: &Path, why: String| FolderError::Out {
        out: out.to_path_buf(),
        why,
    };
    if let Some(out) = out {
        if out.exists() {
            // A lock file alone is left by a run killed before it wrote anything, and with
            // meta.json's temporary copy by one killed while it wrote its first meta.json
            // (the copy is written over by the next); the lock itself then tells whether
            // that run still goes.
            let empty = std::fs::read_dir(out)
                .map_err(|e| bad_out(out, e.to_string()))?
                .all(|entry| {
                    entry.is_ok_and(|e| {
                        e.file_name() == LOCK || e.file_name() == crate::records::META_TEMPORARY
                    })
                });
            if !empty {
                return Err(bad_out(
                    out,
                    "the folder exists and is not empty (results are never overwritten)"
                        .to_string(),
                ));
            }
        }
        std::fs::create_dir_all(out).map_err(|e| bad_out(out, e.to_string()))?;
        return Ok(out.to_path_buf());
    }
    let base = Path::new("results").join(experiment);
    let stamp = utc_stamp(unix_now());
    let mut folder = base.join(&stamp);
    let mut n = 2;
    while folder.exists() {
        folder = base.join(format!("{stamp}-{n}"));
        n += 1;
    }
    std::fs::create_dir_all(&folder).map_err(|error| FolderError::Create {
        folder: folder.clone(),
        error,
    })?;
    Ok(folder)
}

/// The lock file of a results folder: held (an advisory lock) by the one process writing
/// the folder, for the whole run, with the holder's pid, host and start time in it.
pub const LOCK: &str = "lock";

/// The right to write a results folder, released when dropped (or when the process dies:
/// the kernel drops the lock, so a killed run leaves no lock behind).
#[derive(Debug)]
pub struct FolderLock {
    file: std::fs::File,
    path: PathBuf,
}

impl FolderLock {
    /// Takes `folder`'s lock. A lock file left by a process that died is taken over, with
    /// a notice on standard error unless `quiet`.
    ///
    /// # Errors
    /// One line naming the folder and the process that holds it.
    pub fn acquire(folder: &Path, quiet: bool) -> Result<FolderLock, FolderError> {
        let path = folder.join(LOCK);
        // A lock file is removed by its holder when done; a process that opened it just
        // before may then lock a removed file, so the lock counts only on the file the
        // path still names.
        for _ in 0..100 {
            if let Some(lock) = FolderLock::try_once(folder, &path, quiet)? {
                return Ok(lock);
            }
        }
        Err(FolderError::Held {
            path,
            why: "cannot lock: the lock file keeps changing".to_string(),
        })
    }

    /// Whether a live process holds `folder`'s lock (a run is writing it). Changes nothing.
    pub fn is_held(folder: &Path) -> bool {
        let Ok(file) = std::fs::File::open(folder.join(LOCK)) else {
            return false;
        };
        match file.try_lock_shared() {
            Ok(()) => {
                let _ = file.unlock();
                false
            }
            Err(std::fs::TryLockError::WouldBlock) => true,
            Err(std::fs::TryLockError::Error(_)) => false,
        }
    }

    fn try_once(
        folder: &Path,
        path: &Path,
        quiet: bool,
    ) -> Result<Option<FolderLock>, FolderError> {
        use std::io::{Read, Seek, Write};
        use std::os::unix::fs::MetadataExt;
        let cannot = |what: &'static str, error: std::io::Error| FolderError::Io {
            path: path.to_path_buf(),
            what,
            error,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| cannot("open", e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let holder = std::fs::read_to_string(path).unwrap_or_default();
                let holder = holder.trim();
                return Err(FolderError::Held {
                    path: folder.to_path_buf(),
                    why: format!(
                        "another arbiter is writing this folder ({}); one writer per results folder",
                        if holder.is_empty() {
                            "holder unknown"
                        } else {
                            holder
                        }
                    ),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(cannot("lock", e)),
        }
        let same_file = match (std::fs::metadata(path), file.metadata()) {
            (Ok(named), Ok(held)) => named.dev() == held.dev() && named.ino() == held.ino(),
            _ => false,
        };
        if !same_file {
            return Ok(None);
        }
        let mut holder = String::new();
        let _ = file.read_to_string(&mut holder);
        let holder = holder.trim();
        if !holder.is_empty() && !quiet {
            crate::records::say(&format!(
                "note: {}: took over the lock of a process that ended without releasing it ({holder})",
                folder.display()
            ));
        }
        let me = format!(
            "pid {} on host {} since {}",
            std::process::id(),
            crate::records::host_name(),
            crate::records::utc_time(unix_now())
        );
        let mut write = || -> std::io::Result<()> {
            file.set_len(0)?;
            file.rewind()?;
            file.write_all(format!("{me}\n").as_bytes())?;
            file.sync_data()
        };
        write().map_err(|e| cannot("write", e))?;
        Ok(Some(FolderLock {
            file,
            path: path.to_path_buf(),
        }))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still held (see `acquire`); a lock file left with a holder in it
        // means a process that died.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}
