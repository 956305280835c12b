//! Files a run rewrites whole when it resumes (games.csv, moves.csv, search.csv, ...).
//! A new run writes them in place, so they can be read while it plays; a resumed run
//! writes beside the old file (`NAME.tmp`) and moves the new one into place when it ends.
//! A resume killed half way (SIGKILL, power loss) therefore leaves the old file whole
//! rather than a truncated one: a file that held games never reads as empty.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A file being written, and where it goes when done.
#[derive(Debug)]
pub struct Staged {
    path: PathBuf,
    /// The file written instead of `path` while the old one stays (a resume).
    staging: Option<PathBuf>,
}

/// Creates `name` in `folder` (or, when a non-empty one is there, `name.tmp` beside it).
///
/// # Errors
/// The file cannot be created.
pub fn create(folder: &Path, name: &str) -> io::Result<(File, Staged)> {
    let path = folder.join(name);
    let keep_old = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() > 0);
    let staging = keep_old.then(|| folder.join(format!("{name}.tmp")));
    let file = File::create(staging.as_ref().unwrap_or(&path))?;
    Ok((file, Staged { path, staging }))
}

impl Staged {
    /// Moves the new file into place (a no-op when it was written in place). Flush the
    /// writer first.
    ///
    /// # Errors
    /// The rename fails.
    pub fn commit(&mut self) -> io::Result<()> {
        match self.staging.take() {
            Some(staging) => std::fs::rename(staging, &self.path),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_rewrite_keeps_the_old_file_until_it_is_committed() {
        let dir = std::env::temp_dir().join(format!("arbiter-staged-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("games.csv");
        let _ = std::fs::remove_file(&path);
        // A new file is written in place.
        let (mut file, mut staged) = create(&dir, "games.csv").expect("create");
        file.write_all(b"old\n").expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"old\n");
        staged.commit().expect("commit");
        // A rewrite goes beside it; the old text stays until the commit.
        let (mut file, mut staged) = create(&dir, "games.csv").expect("create");
        file.write_all(b"new\n").expect("write");
        assert_eq!(std::fs::read(&path).expect("read"), b"old\n");
        staged.commit().expect("commit");
        assert_eq!(std::fs::read(&path).expect("read"), b"new\n");
        assert!(!dir.join("games.csv.tmp").exists());
        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
