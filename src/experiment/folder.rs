//! The results folder of a run: a new or empty `--out`, or `results/<experiment>/<UTC
//! date-time>` (with `-2`, `-3`... when that exists).

use crate::report::{unix_now, utc_stamp};
use std::path::{Path, PathBuf};

/// Creates the folder a new run writes: `out` (new or empty), else
/// `results/<experiment>/<UTC time>`.
///
/// # Errors
/// A message naming the folder: it exists and is not empty, or cannot be created.
pub fn create_run_folder(out: Option<&Path>, experiment: &str) -> Result<PathBuf, String> {
    if let Some(out) = out {
        if out.exists() {
            let empty = std::fs::read_dir(out)
                .map_err(|e| format!("--out {}: {e}", out.display()))?
                .next()
                .is_none();
            if !empty {
                return Err(format!(
                    "--out {}: the folder exists and is not empty (results are never overwritten)",
                    out.display()
                ));
            }
        }
        std::fs::create_dir_all(out).map_err(|e| format!("--out {}: {e}", out.display()))?;
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
    std::fs::create_dir_all(&folder)
        .map_err(|e| format!("cannot create {}: {e}", folder.display()))?;
    Ok(folder)
}
