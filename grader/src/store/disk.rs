//! The disk the store and the reports are written to: whether a write's error says it is full
//! (a class run then stops, and says to run it again when there is room), and, in a debug
//! build, a full disk the tests can make where they want one.

use std::io;
use std::path::Path;

/// The environment variable that, in a debug build, fills the disk: `DIR:NAME` makes every
/// write under `DIR` fail as a full disk does, from the first write of a file named `NAME`
/// there on (every process's writes elsewhere go on).
#[cfg(debug_assertions)]
pub const FULL_AT: &str = "CONNECT_FOUR_GRADER_TEST_DISK_FULL";

/// Whether `error` says the disk (or the user's quota on it) is full.
pub fn full(error: &io::Error) -> bool {
    matches!(error.raw_os_error(), Some(libc::ENOSPC | libc::EDQUOT))
}

/// Whether `path` may be written: always, but in a debug build told [`FULL_AT`], where it
/// fails as a full disk does once the disk it names has filled.
pub fn writable(path: &Path) -> io::Result<()> {
    #[cfg(debug_assertions)]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        static FILLED: AtomicBool = AtomicBool::new(false);
        let asked = std::env::var(FULL_AT).ok();
        if let Some((dir, name)) = asked.as_deref().and_then(|a| a.rsplit_once(':')) {
            let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
            if absolute(path).starts_with(absolute(Path::new(dir))) {
                if path.file_name().is_some_and(|n| n == name) {
                    FILLED.store(true, Ordering::SeqCst);
                }
                if FILLED.load(Ordering::SeqCst) {
                    return Err(io::Error::from_raw_os_error(libc::ENOSPC));
                }
            }
        }
    }
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_full_disk_or_quota_is_full() {
        assert!(full(&io::Error::from_raw_os_error(libc::ENOSPC)));
        assert!(full(&io::Error::from_raw_os_error(libc::EDQUOT)));
        assert!(!full(&io::Error::from_raw_os_error(libc::EACCES)));
        assert!(!full(&io::Error::other("no room")));
    }
}
