//! The supplied crate check. A Rust submission is a copy of the starter project, and with it of
//! the course's supplied crate (`connect_four_supplied`, in `supplied/`), which students must not
//! change. This finds a submission's copy, compares it byte for byte with the course's and lists
//! every file changed, added or removed, for the reports to show. Before the kit builds a
//! submission, [`Course::restore`] moves a changed copy aside, into a folder of the grader's, and
//! puts the course's copy in its place, so that every program is built with the course's; after
//! grading, [`Swap::put_back`] puts the submitted copy back, so that a submission ends as it was
//! handed in and grading it again finds the same. Nothing found in a submission is taken as the
//! grader's own doing: the copy compared is always the one that is built. The submission's files
//! are read through [`tree`], never following a link. The score does not depend on the change
//! itself: a grader decides.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::tree::{self, EntryKind, ReadError};

/// The supplied crate's package name, as its `Cargo.toml` gives it.
pub(crate) const PACKAGE: &str = "connect_four_supplied";
/// What is compared, below the crate's folder: the manifest and these folders, whole. Anything
/// else (a build's `target/`, a `Cargo.lock`) is not the crate's source and is left out.
const COMPARED: [&str; 5] = ["Cargo.toml", "src", "images", "sounds", "tests"];
/// How deep below a submission a copy is looked for: `supplied/` is 1, `project/supplied/` 2.
const DEPTH: usize = 2;
/// The largest file of the course's copy, and of a submission's `Cargo.toml` read for its
/// package name, in bytes. A submission's copy of a course file is read up to the course file's
/// own size: one byte more is a change.
const MAX_FILE: u64 = 16 << 20;
/// How the grader's folder that holds a changed copy while the course's is built begins.
const ASIDE: &str = ".grade-supplied-";

/// Why the course's copy cannot serve ([`Course::load`]).
#[derive(Debug, thiserror::Error)]
pub enum CourseError {
    /// The folder has no `Cargo.toml` naming the supplied crate.
    #[error("{}: no Cargo.toml of the package {PACKAGE}", .0.display())]
    NotTheCrate(PathBuf),
    /// One of its files cannot be read (or is not a regular file).
    #[error("{}: cannot read", .0.display())]
    Unreadable(PathBuf),
}

/// Why a submission's copy could not be swapped for the course's, or put back: what could not
/// be done (`move`, `remove`, ...) to which path.
#[derive(Debug, thiserror::Error)]
#[error("cannot {what} {}: {source}", .path.display())]
pub struct SwapError {
    /// What could not be done, a verb the message says.
    what: &'static str,
    /// To what.
    path: PathBuf,
    /// Why.
    #[source]
    source: std::io::Error,
}

/// How one file of a submission's copy differs from the course's, by its path below the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// In both, with different bytes (or, in the submission, not a regular file that can be
    /// read: a link, a FIFO, a file too large).
    Changed(String),
    /// Only in the submission.
    Added(String),
    /// Only in the course's copy.
    Removed(String),
}

impl Change {
    /// The file's path below the copy's folder.
    pub fn path(&self) -> &str {
        match self {
            Change::Changed(path) | Change::Added(path) | Change::Removed(path) => path,
        }
    }
}

/// A submission's copy of the supplied crate compared with the course's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuppliedCopy {
    /// Where the copy is, relative to the submission, `/`-separated (usually `supplied`).
    pub folder: String,
    /// Every file that differs, sorted by path; empty when the copy is the course's.
    pub changes: Vec<Change>,
    /// Whether the course's copy was put in place of it for the build.
    pub replaced: bool,
    /// When the submitted copy could not be put back after grading: why, and where it is
    /// (relative to the submission).
    pub not_put_back: Option<(String, String)>,
}

impl SuppliedCopy {
    /// Whether the copy differs from the course's.
    pub fn changed(&self) -> bool {
        !self.changes.is_empty()
    }
}

/// The course's copy of the supplied crate, read once and compared with every submission's.
#[derive(Clone, Debug)]
pub struct Course {
    /// Each file's path below the crate's folder, `/`-separated, with its bytes.
    files: BTreeMap<String, Vec<u8>>,
}

impl Course {
    /// Reads the course's copy in `dir`.
    pub fn load(dir: &Path) -> Result<Course, CourseError> {
        if package_name(dir, "Cargo.toml").as_deref() != Some(PACKAGE) {
            return Err(CourseError::NotTheCrate(dir.to_path_buf()));
        }
        let mut files = BTreeMap::new();
        for (path, regular) in entries(dir, "") {
            let bytes = regular
                .then(|| tree::read(dir, &path, MAX_FILE).ok())
                .flatten();
            let bytes = bytes.ok_or_else(|| CourseError::Unreadable(dir.join(&path)))?;
            files.insert(path, bytes);
        }
        Ok(Course { files })
    }

    /// Compares the copy in `submission` with the course's; `None` when the submission has no
    /// copy (a Java or Python one).
    pub fn compare(&self, submission: &Path) -> Option<SuppliedCopy> {
        let folder = find(submission)?;
        Some(SuppliedCopy {
            changes: self.changes(submission, &folder),
            folder,
            replaced: false,
            not_put_back: None,
        })
    }

    /// Before a build: compares `submission`'s copy with the course's and, if it differs, moves
    /// it aside into a new folder of the grader's (hidden, in the submission, made for this
    /// grading alone) and writes the course's copy in its place, so that the program is built
    /// with the course's supplied crate. Returns the comparison, with the [`Swap`] to undo once
    /// grading is over; `None` for a submission without a copy.
    pub fn restore(
        &self,
        submission: &Path,
    ) -> Result<Option<(SuppliedCopy, Option<Swap>)>, SwapError> {
        let Some(comparison) = self.compare(submission) else {
            return Ok(None);
        };
        if !comparison.changed() {
            return Ok(Some((comparison, None)));
        }
        let copy = submission.join(&comparison.folder);
        let aside = tempfile::Builder::new()
            .prefix(ASIDE)
            .tempdir_in(submission)
            .map_err(|e| failed("make a folder in", submission, e))?
            .keep();
        let kept = aside.join("supplied");
        if let Err(e) = fs::rename(&copy, &kept) {
            let _ = fs::remove_dir(&aside);
            return Err(failed("move", &copy, e));
        }
        // From here on, an error puts the submitted copy back as the swap is dropped.
        let swap = Swap {
            copy,
            aside,
            kept,
            done: false,
        };
        for (path, bytes) in &self.files {
            let target = swap.copy.join(path);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| failed("create", parent, e))?;
            }
            fs::write(&target, bytes).map_err(|e| failed("write", &target, e))?;
        }
        let comparison = SuppliedCopy {
            replaced: true,
            ..comparison
        };
        Ok(Some((comparison, Some(swap))))
    }

    /// How the copy in `folder` of `submission` differs from the course's.
    fn changes(&self, submission: &Path, folder: &str) -> Vec<Change> {
        if tree::kind(submission, folder) != Ok(EntryKind::Folder) {
            // Not a folder (a link to one, a file): nothing of it is the course's.
            return self.files.keys().cloned().map(Change::Changed).collect();
        }
        let theirs = entries(submission, folder);
        let paths: BTreeSet<&String> = self.files.keys().chain(theirs.keys()).collect();
        paths
            .into_iter()
            .filter_map(|path| match (self.files.get(path), theirs.get(path)) {
                (Some(ours), Some(true)) => {
                    let cap = ours.len() as u64;
                    let bytes = tree::read(submission, &format!("{folder}/{path}"), cap);
                    (bytes.as_ref() != Ok(ours)).then(|| Change::Changed(path.clone()))
                }
                (Some(_), Some(false)) => Some(Change::Changed(path.clone())),
                (Some(_), None) => Some(Change::Removed(path.clone())),
                (None, _) => Some(Change::Added(path.clone())),
            })
            .collect()
    }
}

/// A changed copy moved aside while the course's copy stands in its place; put back by
/// [`Swap::put_back`], or when dropped.
#[derive(Debug)]
#[must_use = "the submitted copy is put back once grading is over"]
pub struct Swap {
    /// Where the copy is built from, in the submission.
    copy: PathBuf,
    /// The grader's folder that holds the submitted copy.
    aside: PathBuf,
    /// The submitted copy, in it.
    kept: PathBuf,
    /// Whether it has been put back (or tried).
    done: bool,
}

impl Swap {
    /// Removes the course's copy and puts the submitted one back in its place. The error says
    /// why it could not, and where the submitted copy is, relative to `submission`, in the
    /// words the result keeps ([`SuppliedCopy::not_put_back`]).
    pub fn put_back(mut self, submission: &Path) -> Result<(), (String, String)> {
        let kept = self.kept.strip_prefix(submission).unwrap_or(&self.kept);
        let kept = kept.to_string_lossy().into_owned();
        self.undo().map_err(|why| (why.to_string(), kept))
    }

    /// Puts the submitted copy back, once.
    fn undo(&mut self) -> Result<(), SwapError> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(());
        }
        // Without the submitted copy, the course's stays.
        fs::symlink_metadata(&self.kept).map_err(|e| failed("move back", &self.kept, e))?;
        // A link put in the course copy's place is removed itself, never followed.
        match fs::symlink_metadata(&self.copy) {
            Ok(meta) if meta.is_dir() => fs::remove_dir_all(&self.copy),
            Ok(_) => fs::remove_file(&self.copy),
            Err(_) => Ok(()),
        }
        .map_err(|e| failed("remove", &self.copy, e))?;
        fs::rename(&self.kept, &self.copy).map_err(|e| failed("move back", &self.kept, e))?;
        fs::remove_dir(&self.aside).map_err(|e| failed("remove", &self.aside, e))
    }
}

impl Drop for Swap {
    fn drop(&mut self) {
        let _ = self.undo();
    }
}

/// The [`SwapError`] of `what` done to `path`.
fn failed(what: &'static str, path: &Path, source: std::io::Error) -> SwapError {
    SwapError {
        what,
        path: path.to_path_buf(),
        source,
    }
}

/// Where `submission`'s copy is: whatever stands at `supplied` (a link or a file there is what
/// a build would take), else the first folder at most [`DEPTH`] levels down (shallowest first,
/// then by name) whose `Cargo.toml` names the supplied crate. Hidden folders (the grader's
/// among them) and build output (`target`) are not looked in, and no link is followed.
fn find(submission: &Path) -> Option<String> {
    if tree::kind(submission, "supplied") != Err(ReadError::Missing) {
        return Some("supplied".into());
    }
    let skip = |path: &str, name: &str| {
        name.starts_with('.') || name == "target" || path.matches('/').count() >= DEPTH
    };
    let listing = tree::walk(submission, "", &skip).ok()?;
    let mut manifests: Vec<&str> = listing
        .entries
        .iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .filter_map(|entry| entry.path.strip_suffix("/Cargo.toml"))
        .collect();
    manifests.sort_by_key(|folder| (folder.matches('/').count(), *folder));
    manifests
        .into_iter()
        .find(|folder| {
            package_name(submission, &format!("{folder}/Cargo.toml")).as_deref() == Some(PACKAGE)
        })
        .map(str::to_string)
}

/// The package name in the manifest `manifest` below `root`, if it has one.
fn package_name(root: &Path, manifest: &str) -> Option<String> {
    let bytes = tree::read(root, manifest, MAX_FILE).ok()?;
    let manifest: toml::Table = String::from_utf8(bytes).ok()?.parse().ok()?;
    Some(manifest.get("package")?.get("name")?.as_str()?.to_string())
}

/// The compared entries of the copy in `folder` below `root` (`""`: `root` itself), each by its
/// path below the copy, with whether it is a regular file. A folder that cannot be listed, and
/// where a walk stopped, count as entries that are not.
fn entries(root: &Path, folder: &str) -> BTreeMap<String, bool> {
    let below = |path: &str| match folder.is_empty() {
        true => path.to_string(),
        false => path
            .strip_prefix(&format!("{folder}/"))
            .unwrap_or(path)
            .to_string(),
    };
    let mut entries = BTreeMap::new();
    for part in COMPARED {
        let path = match folder.is_empty() {
            true => part.to_string(),
            false => format!("{folder}/{part}"),
        };
        match tree::kind(root, &path) {
            Err(ReadError::Missing) => {}
            Ok(EntryKind::Folder) => match tree::walk(root, &path, &|_, _| false) {
                Ok(listing) => {
                    for entry in listing.entries {
                        entries.insert(below(&entry.path), entry.kind == EntryKind::File);
                    }
                    let stopped = listing.stopped.map(|stopped| match stopped {
                        tree::Cutoff::TooDeep(path) => path,
                        tree::Cutoff::TooMany(_) => path.clone(),
                    });
                    for path in listing.unlisted.into_iter().chain(stopped) {
                        entries.insert(below(&path), false);
                    }
                }
                Err(_) => {
                    entries.insert(part.to_string(), false);
                }
            },
            Ok(kind) => {
                entries.insert(part.to_string(), kind == EntryKind::File);
            }
            Err(_) => {
                entries.insert(part.to_string(), false);
            }
        }
    }
    entries
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// Writes a small supplied crate into `dir` (with build output that must be ignored).
    fn write_crate(dir: &Path) {
        for (path, bytes) in [
            (
                "Cargo.toml",
                &b"[package]\nname = \"connect_four_supplied\"\n"[..],
            ),
            ("src/lib.rs", b"pub mod protocol;\n"),
            ("src/protocol.rs", b"pub fn answer() {}\n"),
            ("images/red.png", &[0x89, b'P', b'N', b'G', 0, 255]),
            ("tests/protocol.rs", b"#[test]\nfn t() {}\n"),
            ("target/debug/build.log", b"built"),
        ] {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, bytes).unwrap();
        }
    }

    /// The course's copy and a submission holding an identical copy in `folder`.
    fn course_and_submission(folder: &str) -> (tempfile::TempDir, Course, PathBuf) {
        let work = tempfile::tempdir().unwrap();
        let course = work.path().join("course");
        write_crate(&course);
        let submission = work.path().join("student");
        write_crate(&submission.join(folder));
        let course = Course::load(&course).unwrap();
        (work, course, submission)
    }

    fn compare(course: &Course, submission: &Path) -> Vec<String> {
        let comparison = course.compare(submission).expect("a copy is found");
        let word = |change: &Change| match change {
            Change::Changed(_) => "changed",
            Change::Added(_) => "added",
            Change::Removed(_) => "removed",
        };
        comparison
            .changes
            .iter()
            .map(|c| format!("{} {}", word(c), c.path()))
            .collect()
    }

    #[test]
    fn an_identical_copy_is_unchanged_whatever_its_build_output() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(submission.join("supplied/target/debug/build.log"), "other").unwrap();
        let comparison = course.compare(&submission).unwrap();
        assert_eq!(comparison.folder, "supplied");
        assert!(!comparison.changed(), "{comparison:?}");
    }

    #[test]
    fn one_byte_changed_is_named() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(
            submission.join("supplied/images/red.png"),
            [0x89, b'P', b'N', b'G', 0, 254],
        )
        .unwrap();
        assert_eq!(compare(&course, &submission), ["changed images/red.png"]);
    }

    #[test]
    fn a_file_added_or_removed_is_named() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(submission.join("supplied/src/extra.rs"), "").unwrap();
        assert_eq!(compare(&course, &submission), ["added src/extra.rs"]);
        fs::remove_file(submission.join("supplied/src/extra.rs")).unwrap();
        fs::remove_file(submission.join("supplied/tests/protocol.rs")).unwrap();
        assert_eq!(compare(&course, &submission), ["removed tests/protocol.rs"]);
    }

    #[test]
    fn a_copy_elsewhere_is_found_by_its_package_name() {
        let (_work, course, submission) = course_and_submission("project/course_crate");
        fs::write(submission.join("project/course_crate/src/lib.rs"), "").unwrap();
        let comparison = course.compare(&submission).unwrap();
        assert_eq!(comparison.folder, "project/course_crate");
        assert_eq!(comparison.changes, [Change::Changed("src/lib.rs".into())]);
    }

    /// Every file below `dir` with its bytes (a link as its target), to tell a folder is as
    /// it was.
    fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut found = Vec::new();
        let Ok(entries) = fs::read_dir(dir) else {
            return found;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            let name = path.display().to_string();
            if kind.is_symlink() {
                let target = fs::read_link(&path).unwrap();
                found.push((name, target.display().to_string().into_bytes()));
            } else if kind.is_dir() {
                found.extend(snapshot(&path));
            } else {
                found.push((name, fs::read(&path).unwrap()));
            }
        }
        found.sort();
        found
    }

    #[test]
    fn restore_puts_the_course_copy_in_place_until_it_is_put_back() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(
            submission.join("supplied/src/protocol.rs"),
            "pub fn cheat() {}\n",
        )
        .unwrap();
        fs::write(submission.join("supplied/src/extra.rs"), "").unwrap();
        let before = snapshot(&submission);
        let (restored, swap) = course.restore(&submission).unwrap().unwrap();
        assert_eq!(
            restored.changes,
            [
                Change::Added("src/extra.rs".into()),
                Change::Changed("src/protocol.rs".into())
            ]
        );
        assert!(restored.replaced);
        assert_eq!(
            fs::read_to_string(submission.join("supplied/src/protocol.rs")).unwrap(),
            "pub fn answer() {}\n",
            "the course's copy is in place"
        );
        assert!(!submission.join("supplied/src/extra.rs").exists());
        swap.unwrap().put_back(&submission).unwrap();
        assert_eq!(snapshot(&submission), before, "the submission is as it was");
        // Grading again finds the same, and replaces it again.
        let (again, swap) = course.restore(&submission).unwrap().unwrap();
        assert_eq!(again, restored);
        drop(swap);
        assert_eq!(
            snapshot(&submission),
            before,
            "dropped, the swap puts it back too"
        );
    }

    #[test]
    fn a_copy_that_cannot_be_put_back_is_said_with_where_it_is() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(submission.join("supplied/src/lib.rs"), "").unwrap();
        let (_, swap) = course.restore(&submission).unwrap().unwrap();
        let swap = swap.unwrap();
        // Its folder taken away while the course's copy was in place.
        let aside = swap.aside.clone();
        fs::rename(&aside, submission.join("moved")).unwrap();
        let (why, kept) = swap.put_back(&submission).unwrap_err();
        assert!(why.contains("cannot move back"), "{why}");
        assert!(
            submission.join("supplied/Cargo.toml").is_file(),
            "the course's copy stays"
        );
        assert!(
            kept.starts_with(ASIDE) && kept.ends_with("/supplied"),
            "{kept}"
        );
    }

    #[test]
    fn a_decoy_copy_beside_a_changed_one_is_never_taken_for_the_graders() {
        let (_work, course, submission) = course_and_submission("supplied");
        write_crate(&submission.join("supplied.submitted"));
        write_crate(&submission.join(".grade-supplied-decoy/supplied"));
        fs::write(
            submission.join("supplied/src/lib.rs"),
            "pub fn cheat() {}\n",
        )
        .unwrap();
        let changed = vec![Change::Changed("src/lib.rs".into())];
        assert_eq!(course.compare(&submission).unwrap().changes, changed);
        let (restored, swap) = course.restore(&submission).unwrap().unwrap();
        assert_eq!((restored.changes, restored.replaced), (changed, true));
        assert_eq!(
            fs::read_to_string(submission.join("supplied/src/lib.rs")).unwrap(),
            "pub mod protocol;\n"
        );
        swap.unwrap().put_back(&submission).unwrap();
        assert!(submission.join("supplied.submitted/Cargo.toml").is_file());
    }

    #[test]
    fn links_and_special_files_in_a_copy_are_changes_never_read() {
        let (work, course, submission) = course_and_submission("supplied");
        let copy = submission.join("supplied");
        fs::remove_file(copy.join("src/lib.rs")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", copy.join("src/lib.rs")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", copy.join("src/zero.rs")).unwrap();
        // A file the same size as the course's, then one byte longer.
        fs::write(copy.join("src/protocol.rs"), "pub fn answer() {}!").unwrap();
        assert_eq!(
            compare(&course, &submission),
            [
                "changed src/lib.rs",
                "changed src/protocol.rs",
                "added src/zero.rs"
            ]
        );
        // The whole copy a link to a folder elsewhere: nothing of it is the course's.
        let elsewhere = work.path().join("elsewhere");
        write_crate(&elsewhere);
        fs::remove_dir_all(&copy).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &copy).unwrap();
        let comparison = course.compare(&submission).unwrap();
        assert_eq!(comparison.folder, "supplied");
        assert_eq!(comparison.changes.len(), course.files.len());
        let (_, swap) = course.restore(&submission).unwrap().unwrap();
        assert!(fs::symlink_metadata(&copy).unwrap().is_dir(), "replaced");
        swap.unwrap().put_back(&submission).unwrap();
        assert!(
            fs::symlink_metadata(&copy).unwrap().is_symlink(),
            "put back"
        );
    }

    #[test]
    fn restore_leaves_an_unchanged_copy_and_other_languages_alone() {
        let (_work, course, submission) = course_and_submission("supplied");
        let (unchanged, swap) = course.restore(&submission).unwrap().unwrap();
        assert!(!unchanged.changed() && !unchanged.replaced && swap.is_none());
        let python = tempfile::tempdir().unwrap();
        assert!(course.restore(python.path()).unwrap().is_none());
    }

    #[test]
    fn a_submission_without_a_copy_is_not_compared() {
        let (_work, course, submission) = course_and_submission("too/deep/to/find");
        fs::write(submission.join("connect_four.py"), "print('=')\n").unwrap();
        assert_eq!(course.compare(&submission), None);
    }

    #[test]
    fn a_course_copy_that_is_missing_or_another_crate_is_an_error_naming_it() {
        let work = tempfile::tempdir().unwrap();
        let error = Course::load(&work.path().join("nowhere"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("nowhere") && error.contains(PACKAGE),
            "{error}"
        );
        let other = work.path().join("other");
        fs::create_dir_all(other.join("src")).unwrap();
        fs::write(
            other.join("Cargo.toml"),
            "[package]\nname = \"connect_four\"\n",
        )
        .unwrap();
        assert!(Course::load(&other).is_err());
    }
}
