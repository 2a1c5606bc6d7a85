//! What a pack is made of: the files of a folder of the course's repository as they are in the
//! working tree, and whether any of them is not committed. `grade pack` and
//! `grading/gradescope/make_zip.sh` follow the same rule, so that the students' kit and the
//! Gradescope zip are made from the same source:
//!
//! - in a git checkout, the files git lists with `git ls-files --cached --others
//!   --exclude-standard` (tracked ones, and untracked ones that no `.gitignore` leaves out, so
//!   never `target/` nor `grading/secret.toml`), those that are not committed being the ones
//!   `git status --porcelain --untracked-files=all` lists;
//! - outside one, or in a folder git ignores, every file but the `target/` folders, and
//!   nothing can be checked.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The files of a folder to pack, and what could be checked of them.
#[derive(Debug, PartialEq, Eq)]
pub struct Manifest {
    /// Every file, relative to the folder, sorted.
    pub files: Vec<PathBuf>,
    /// Whether they are committed.
    pub state: GitState,
}

/// What git says of the files of a [`Manifest`].
#[derive(Debug, PartialEq, Eq)]
pub enum GitState {
    /// Each is as committed.
    Committed,
    /// These are not (lines of `git status --short`, paths from the repository's root).
    Uncommitted(Vec<String>),
    /// Nothing could be checked: the folder is not in a git checkout, or git could not say
    /// (why).
    Unchecked(String),
}

/// Why a folder's files could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    /// A folder could not be read.
    #[error("{}: cannot read: {}", .0.display(), .1)]
    Read(PathBuf, #[source] std::io::Error),
    /// git said it is a checkout, then failed to list it (its command and message).
    #[error("`{0}` failed: {1}")]
    Git(String, String),
}

/// The files of `dir` but those at its top named in `leave_out`, and whether they are committed.
pub fn files(dir: &Path, leave_out: &[&str]) -> Result<Manifest, ManifestError> {
    let inside = git(dir, &["rev-parse", "--is-inside-work-tree"]);
    match inside {
        Ok(out) if out.status.success() => {}
        Ok(out) => return walked(dir, leave_out, first_line(&out.stderr)),
        Err(e) => return walked(dir, leave_out, format!("git cannot run: {e}")),
    }
    // Pathspecs are relative to `dir`, where git runs.
    let mut pathspecs = vec![".".to_string()];
    pathspecs.extend(leave_out.iter().map(|name| format!(":(exclude){name}")));
    let listed = checked(
        dir,
        &[
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
            "--",
        ],
        &pathspecs,
    )?;
    let status = checked(
        dir,
        &["status", "--porcelain", "-z", "--untracked-files=all", "--"],
        &pathspecs,
    )?;
    // A tracked file deleted from the working tree is not packed (git status lists it).
    let mut files: Vec<PathBuf> = split(&listed)
        .map(PathBuf::from)
        .filter(|path| dir.join(path).symlink_metadata().is_ok())
        .collect();
    files.sort();
    // A folder git ignores (a kit copied under target/, say) is packed as outside a checkout.
    if files.is_empty() {
        return walked(dir, leave_out, "git lists no file of this folder".into());
    }
    let uncommitted = status_lines(&status);
    let state = match uncommitted.is_empty() {
        true => GitState::Committed,
        false => GitState::Uncommitted(uncommitted),
    };
    Ok(Manifest { files, state })
}

/// `git ARGS` run in `dir`, with git's own settings for the user left as they are.
fn git(dir: &Path, args: &[&str]) -> std::io::Result<Output> {
    Command::new("git").arg("-C").arg(dir).args(args).output()
}

/// `git ARGS PATHSPECS` run in `dir`, its standard output if it succeeded.
fn checked(dir: &Path, args: &[&str], pathspecs: &[String]) -> Result<Vec<u8>, ManifestError> {
    let shown = format!("git {} {}", args.join(" "), pathspecs.join(" "));
    let all: Vec<&str> = args
        .iter()
        .copied()
        .chain(pathspecs.iter().map(String::as_str))
        .collect();
    let out = git(dir, &all).map_err(|e| ManifestError::Git(shown.clone(), e.to_string()))?;
    match out.status.success() {
        true => Ok(out.stdout),
        false => Err(ManifestError::Git(shown, first_line(&out.stderr))),
    }
}

/// The first line of what a program said, or that it said nothing.
fn first_line(said: &[u8]) -> String {
    let text = String::from_utf8_lossy(said);
    text.lines()
        .next()
        .map_or("git said nothing".into(), |line| line.trim().to_string())
}

/// The entries of a NUL-separated listing.
fn split(listing: &[u8]) -> impl Iterator<Item = String> + '_ {
    listing
        .split(|&b| b == 0)
        .filter(|entry| !entry.is_empty())
        .map(|entry| String::from_utf8_lossy(entry).into_owned())
}

/// `git status --porcelain -z` as `git status --short` shows it: `XY path`, a renamed file as
/// `R  new <- old` (the old path is the entry after the new one).
fn status_lines(status: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut entries = split(status);
    while let Some(entry) = entries.next() {
        let renamed = entry.starts_with('R') || entry.starts_with('C');
        match renamed.then(|| entries.next()).flatten() {
            Some(old) => lines.push(format!("{entry} <- {old}")),
            None => lines.push(entry),
        }
    }
    lines
}

/// The files of `dir` outside a git checkout: every one but `target/` folders and the entries
/// at its top named in `leave_out`, sorted; nothing checked, because of `why`.
fn walked(dir: &Path, leave_out: &[&str], why: String) -> Result<Manifest, ManifestError> {
    let mut files = Vec::new();
    walk(dir, Path::new(""), leave_out, &mut files)?;
    files.sort();
    Ok(Manifest {
        files,
        state: GitState::Unchecked(why),
    })
}

/// Adds the files under `dir/relative` to `files`, as paths relative to `dir`.
fn walk(
    dir: &Path,
    relative: &Path,
    leave_out: &[&str],
    files: &mut Vec<PathBuf>,
) -> Result<(), ManifestError> {
    let folder = dir.join(relative);
    let read = |e| ManifestError::Read(folder.clone(), e);
    for entry in fs::read_dir(&folder).map_err(read)? {
        let entry = entry.map_err(read)?;
        let name = entry.file_name();
        let top = relative.as_os_str().is_empty();
        if name == "target" || (top && leave_out.iter().any(|left| name == *left)) {
            continue;
        }
        let path = relative.join(&name);
        match entry.file_type().map_err(read)?.is_dir() {
            true => walk(dir, &path, leave_out, files)?,
            false => files.push(path),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `git ARGS` in `dir`, which must succeed.
    fn run(dir: &Path, args: &[&str]) {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A folder with `a.txt`, `sub/b.txt`, `left/c.txt` and `target/d`.
    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in ["a.txt", "sub/b.txt", "left/c.txt", "target/d"] {
            let path = dir.path().join(file);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, file).unwrap();
        }
        dir
    }

    #[test]
    fn outside_git_every_file_but_target_is_packed_and_nothing_is_checked() {
        let dir = tree();
        let source = files(dir.path(), &["left"]).unwrap();
        assert_eq!(
            source.files,
            [PathBuf::from("a.txt"), PathBuf::from("sub/b.txt")]
        );
        assert!(matches!(source.state, GitState::Unchecked(_)), "{source:?}");
    }

    #[test]
    fn in_git_what_is_not_committed_is_listed_and_what_is_ignored_never_packed() {
        let dir = tree();
        fs::write(dir.path().join(".gitignore"), "/target\n").unwrap();
        run(dir.path(), &["init", "-q"]);
        run(dir.path(), &["add", "."]);
        run(dir.path(), &["commit", "-qm", "first"]);
        let source = files(dir.path(), &["left"]).unwrap();
        assert_eq!(source.state, GitState::Committed);
        let ignored = files(&dir.path().join("target"), &[]).unwrap();
        assert_eq!(ignored.files, [PathBuf::from("d")]);
        assert!(
            matches!(ignored.state, GitState::Unchecked(_)),
            "{ignored:?}"
        );
        assert_eq!(
            source.files,
            [".gitignore", "a.txt", "sub/b.txt"].map(PathBuf::from)
        );
        fs::write(dir.path().join("sub/b.txt"), "edited").unwrap();
        fs::write(dir.path().join("new.txt"), "new").unwrap();
        fs::write(dir.path().join("left/c.txt"), "edited, not packed").unwrap();
        fs::remove_file(dir.path().join("a.txt")).unwrap();
        let source = files(&dir.path().join("sub"), &[]).unwrap();
        assert_eq!(source.files, [PathBuf::from("b.txt")]);
        assert_eq!(
            source.state,
            GitState::Uncommitted(vec![" M sub/b.txt".into()])
        );
        let source = files(dir.path(), &["left"]).unwrap();
        assert_eq!(
            source.files,
            [".gitignore", "new.txt", "sub/b.txt"].map(PathBuf::from)
        );
        assert_eq!(
            source.state,
            GitState::Uncommitted(vec![
                " D a.txt".into(),
                " M sub/b.txt".into(),
                "?? new.txt".into()
            ])
        );
    }
}
