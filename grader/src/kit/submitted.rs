//! When a submission came in: the time Gradescope's metadata gives, else the roster's, else
//! (only when the instructor asks: the copies, unzips and checkouts a class goes through change
//! them) the newest modification time of its files. A class run takes the files' times before
//! it builds anything, and leaves out what changed since the class's first run began (the
//! builds' and the programs' own files), and the build folder `target/`. Links are not
//! followed: only their own times count.

use std::fs;
use std::path::Path;
use std::time::SystemTime;

use jiff::Timestamp;

use super::late::Moment;

/// Where a submission time comes from, as the gradebook says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Gradescope's `submission_metadata.yml`.
    Gradescope,
    /// The roster's `submitted` column.
    Roster,
    /// The newest modification time of the submission's files (`--late-from-files`): no
    /// trusted time.
    Files,
}

impl Source {
    /// The word the gradebook shows after the time.
    pub fn word(self) -> &'static str {
        match self {
            Source::Gradescope => "Gradescope",
            Source::Roster => "roster",
            Source::Files => FILE_TIMES,
        }
    }
}

/// The gradebook's word for a time from the files, which says it is not a trusted time.
pub const FILE_TIMES: &str = "file times, not a submission time";

/// A submission's time, and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Submitted {
    /// When.
    pub at: Moment,
    /// Whence.
    pub source: Source,
}

/// The most entries looked at in one submission.
const MAX_ENTRIES: usize = 100_000;

/// The newest modification time of the entries below `dir` (never following a link, `target/`
/// at the top left out) that is before `before`; `None` when there is none.
pub fn from_files(dir: &Path, before: SystemTime) -> Option<Submitted> {
    let mut newest: Option<SystemTime> = None;
    let mut folders = vec![dir.to_path_buf()];
    let mut seen = 0;
    while let Some(folder) = folders.pop() {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            seen += 1;
            if seen > MAX_ENTRIES {
                break;
            }
            if folder == dir && entry.file_name() == "target" {
                continue;
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                folders.push(entry.path());
                continue;
            }
            if let Ok(modified) = meta.modified() {
                if modified < before && newest.is_none_or(|n| modified > n) {
                    newest = Some(modified);
                }
            }
        }
    }
    let at = Timestamp::try_from(newest?).ok()?;
    Some(Submitted {
        at: Moment::utc(at),
        source: Source::Files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_newest_file_before_the_run_counts_and_the_build_folder_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let set = |name: &str, at: SystemTime| {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, "x").unwrap();
            fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(at)
                .unwrap();
        };
        let day = |n: u64| SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + n * 86400);
        set("main.py", day(1));
        set("src/deep/lib.py", day(2));
        set("target/debug/out", day(3));
        set("__pycache__/lib.pyc", day(5));
        let got = from_files(dir.path(), day(4)).unwrap();
        assert_eq!(got.source, Source::Files);
        assert_eq!(got.at.at, Timestamp::try_from(day(2)).unwrap());
        assert_eq!(from_files(dir.path(), day(0)), None);
        assert_eq!(from_files(&dir.path().join("none"), day(9)), None);
    }
}
