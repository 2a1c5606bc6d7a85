//! The supplied crate check. A Rust submission is a copy of the starter project, and with it of
//! the course's supplied crate (`connect_four_supplied`, in `supplied/`), which students must not
//! change. This finds a submission's copy, compares it byte for byte with the course's and lists
//! every file changed, added or removed, for the reports to show; before the kit builds a
//! submission, [`Course::restore`] puts the course's copy in place of a changed one (keeping the
//! submitted copy beside it), so that every program is built with the course's. The score does
//! not depend on the change itself: a grader decides.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// The supplied crate's package name, as its `Cargo.toml` gives it.
const PACKAGE: &str = "connect_four_supplied";
/// What is compared, below the crate's folder: the manifest and these folders, whole. Anything
/// else (a build's `target/`, a `Cargo.lock`) is not the crate's source and is left out.
const COMPARED: [&str; 4] = ["Cargo.toml", "src", "images", "tests"];
/// How deep below a submission a copy is looked for: `supplied/` is 1, `project/supplied/` 2.
const DEPTH: usize = 2;
/// What a submitted copy that [`Course::restore`] replaced is renamed to: its folder's name
/// with this added.
const SUBMITTED: &str = ".submitted";

/// A copy's files: each path below the crate's folder, `/`-separated, with its bytes (`None` when
/// it cannot be read, which differs from any contents).
type Files = BTreeMap<String, Option<Vec<u8>>>;

/// How one file of a submission's copy differs from the course's, by its path below the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// In both, with different bytes (or unreadable in the submission).
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
pub struct Comparison {
    /// Where the copy is, relative to the submission, `/`-separated (usually `supplied`).
    pub folder: String,
    /// Every file that differs, sorted by path; empty when the copy is the course's.
    pub changes: Vec<Change>,
    /// Whether the course's copy was put in place of it before the build (the submitted copy
    /// is kept as `FOLDER.submitted`).
    pub replaced: bool,
}

impl Comparison {
    /// Whether the copy differs from the course's.
    pub fn changed(&self) -> bool {
        !self.changes.is_empty()
    }
}

/// The course's copy of the supplied crate, read once and compared with every submission's.
#[derive(Clone, Debug)]
pub struct Course {
    files: Files,
}

impl Course {
    /// Reads the course's copy in `dir`. The error says why it cannot serve: no `Cargo.toml`
    /// naming the supplied crate there, or a file that cannot be read.
    pub fn load(dir: &Path) -> Result<Course, String> {
        if package_name(dir).as_deref() != Some(PACKAGE) {
            return Err(format!(
                "{}: no Cargo.toml of the package {PACKAGE}",
                dir.display()
            ));
        }
        let files = files(dir);
        match files.iter().find(|(_, bytes)| bytes.is_none()) {
            Some((path, _)) => Err(format!("{}: cannot read", dir.join(path).display())),
            None => Ok(Course { files }),
        }
    }

    /// Compares the copy in `submission` with the course's (the copy as submitted, if
    /// [`restore`](Self::restore) replaced it); `None` when the submission has no copy (a Java
    /// or Python one).
    pub fn compare(&self, submission: &Path) -> Option<Comparison> {
        let folder = find(submission)?;
        let submitted = submission.join(format!("{folder}{SUBMITTED}"));
        let replaced = submitted.is_dir();
        let theirs = files(&if replaced {
            submitted
        } else {
            submission.join(&folder)
        });
        Some(Comparison {
            folder,
            changes: changes(&self.files, &theirs),
            replaced,
        })
    }

    /// Before a build: if `submission`'s copy differs from the course's, renames it to
    /// `FOLDER.submitted` and writes the course's copy in its place, so that the program is
    /// built with the course's supplied crate. Returns the comparison (of the copy as
    /// submitted), or `None` for a submission without a copy. Running it again changes nothing.
    pub fn restore(&self, submission: &Path) -> Result<Option<Comparison>, String> {
        let Some(comparison) = self.compare(submission) else {
            return Ok(None);
        };
        let copy = submission.join(&comparison.folder);
        let submitted = submission.join(format!("{}{SUBMITTED}", comparison.folder));
        if !comparison.changed() || submitted.is_dir() {
            return Ok(Some(comparison));
        }
        let failed = |what: &str, path: &Path, e: std::io::Error| {
            format!("cannot {what} {}: {e}", path.display())
        };
        fs::rename(&copy, &submitted).map_err(|e| failed("rename", &copy, e))?;
        for (path, bytes) in &self.files {
            let target = copy.join(path);
            if let Some(parent) = target.parent() {
                fs::create_dir_all(parent).map_err(|e| failed("create", parent, e))?;
            }
            let bytes = bytes.as_deref().unwrap_or_default();
            fs::write(&target, bytes).map_err(|e| failed("write", &target, e))?;
        }
        Ok(Some(Comparison {
            replaced: true,
            ..comparison
        }))
    }
}

/// Where `submission`'s copy is: its `supplied/` folder, else the first folder at most [`DEPTH`]
/// levels down (shallowest first, then by name) whose `Cargo.toml` names the supplied crate.
fn find(submission: &Path) -> Option<String> {
    if submission.join("supplied").is_dir() {
        return Some("supplied".into());
    }
    let mut level = vec![String::new()];
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for parent in &level {
            for name in subfolders(&submission.join(parent)) {
                let folder = if parent.is_empty() {
                    name
                } else {
                    format!("{parent}/{name}")
                };
                if package_name(&submission.join(&folder)).as_deref() == Some(PACKAGE) {
                    return Some(folder);
                }
                next.push(folder);
            }
        }
        level = next;
    }
    None
}

/// The folders directly in `dir`, sorted, without hidden ones and build output (`target`), and
/// without links (which could lead in circles).
fn subfolders(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.') && name != "target")
        .collect();
    names.sort();
    names
}

/// The package name in `dir/Cargo.toml`, if it has one.
fn package_name(dir: &Path) -> Option<String> {
    let text = fs::read_to_string(dir.join("Cargo.toml")).ok()?;
    let manifest: toml::Table = text.parse().ok()?;
    Some(manifest.get("package")?.get("name")?.as_str()?.to_string())
}

/// The compared files of the copy in `root`.
fn files(root: &Path) -> Files {
    let mut files = Files::new();
    for part in COMPARED {
        add(root, part, &mut files);
    }
    files
}

/// Adds `relative` below `root` to `files`: a file with its bytes, a folder with everything in
/// it; nothing if it is missing. A link is read as a file (a link to a folder is unreadable).
fn add(root: &Path, relative: &str, files: &mut Files) {
    let path = root.join(relative);
    match fs::symlink_metadata(&path) {
        Ok(meta) if meta.is_dir() => {
            let mut names: Vec<String> = fs::read_dir(&path)
                .into_iter()
                .flatten()
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            for name in names {
                add(root, &format!("{relative}/{name}"), files);
            }
        }
        Ok(_) => {
            files.insert(relative.to_string(), fs::read(&path).ok());
        }
        Err(_) => {}
    }
}

/// Every difference between the course's files and a submission's, sorted by path.
fn changes(course: &Files, theirs: &Files) -> Vec<Change> {
    let paths: BTreeSet<&String> = course.keys().chain(theirs.keys()).collect();
    paths
        .into_iter()
        .filter_map(|path| match (course.get(path), theirs.get(path)) {
            (Some(ours), Some(bytes)) if ours == bytes => None,
            (Some(_), Some(_)) => Some(Change::Changed(path.clone())),
            (Some(_), None) => Some(Change::Removed(path.clone())),
            (None, _) => Some(Change::Added(path.clone())),
        })
        .collect()
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

    #[test]
    fn restore_puts_the_course_copy_in_place_and_keeps_the_submitted_one() {
        let (_work, course, submission) = course_and_submission("supplied");
        fs::write(
            submission.join("supplied/src/protocol.rs"),
            "pub fn cheat() {}\n",
        )
        .unwrap();
        fs::write(submission.join("supplied/src/extra.rs"), "").unwrap();
        let restored = course.restore(&submission).unwrap().unwrap();
        assert_eq!(
            restored.changes,
            [
                Change::Added("src/extra.rs".into()),
                Change::Changed("src/protocol.rs".into())
            ]
        );
        assert_eq!(
            fs::read_to_string(submission.join("supplied/src/protocol.rs")).unwrap(),
            "pub fn answer() {}\n",
            "the course's copy is in place"
        );
        assert!(!submission.join("supplied/src/extra.rs").exists());
        assert_eq!(
            fs::read_to_string(submission.join("supplied.submitted/src/protocol.rs")).unwrap(),
            "pub fn cheat() {}\n",
            "the submitted copy is kept"
        );
        // The comparison still speaks of the copy as submitted, and a second restore is a no-op.
        assert!(restored.replaced);
        assert_eq!(course.compare(&submission).unwrap(), restored);
        assert_eq!(course.restore(&submission).unwrap().unwrap(), restored);
        assert!(!submission.join("supplied.submitted.submitted").exists());
    }

    #[test]
    fn restore_leaves_an_unchanged_copy_and_other_languages_alone() {
        let (_work, course, submission) = course_and_submission("supplied");
        let unchanged = course.restore(&submission).unwrap().unwrap();
        assert!(!unchanged.changed() && !unchanged.replaced);
        assert!(!submission.join("supplied.submitted").exists());
        let python = tempfile::tempdir().unwrap();
        assert_eq!(course.restore(python.path()).unwrap(), None);
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
        let error = Course::load(&work.path().join("nowhere")).unwrap_err();
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
