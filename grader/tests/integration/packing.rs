//! `grade pack` and `grading/gradescope/make_zip.sh` make the students' kit and the Gradescope
//! zip from the same source, the working tree, and refuse changes that are not committed.
//!
//! What it proves, for each of them, in a small course repository made in a temporary folder
//! (its kit, supplied crate and Gradescope folder copied from this repository's working tree,
//! then committed):
//!
//! - **An uncommitted edit** is refused (exit status 1), the message naming the file as git
//!   status does, and nothing is packed;
//! - **with `--allow-uncommitted`** it is packed, the edit inside, with a warning naming it;
//! - **outside a git checkout** (the same folder without `.git`) the files are packed as they
//!   are, with a note that nothing could be checked, and no tar error; never `target/`, nor
//!   the secret seed in the students' kit.
//!
//! `grade pack` is given a stand-in for the students' `grade` (a script that answers
//! `--version` and has no `generate`), so that no students' build is needed.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{copy_dir, grade, small_kit, starter_supplied, QUICK_CASES};

/// A course repository in a temporary folder: `grading/` (a small kit with the repository's
/// Gradescope folder and a secret seed), `starter/supplied/`, a `target/` of build output, all
/// but what `.gitignore` leaves out committed.
struct Course {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Course {
    fn new() -> Course {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("course");
        small_kit(&root.join("grading"), &QUICK_CASES);
        copy_dir(
            &crate::support::repository().join("grading/gradescope"),
            &root.join("grading/gradescope"),
        );
        fs::write(root.join("grading/secret.toml"), "seed = 8675309\n").unwrap();
        copy_dir(&starter_supplied(), &root.join("starter/supplied"));
        fs::create_dir_all(root.join("target")).unwrap();
        fs::write(root.join("target/output"), "build output").unwrap();
        fs::write(
            root.join(".gitignore"),
            "/target\n/starter/target\n/grading/secret.toml\n",
        )
        .unwrap();
        let course = Course { _dir: dir, root };
        course.git(&["init", "-q"]);
        course.git(&["add", "."]);
        course.git(&["commit", "-qm", "the course"]);
        course
    }

    /// Runs `git ARGS` in the repository, which must succeed.
    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.root)
            .args([
                "-c",
                "user.name=Course",
                "-c",
                "user.email=course@example.org",
            ])
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Edits the rubric's title in the working tree, without committing it.
    fn edit(&self) {
        let rubric = self.root.join("grading/rubric.toml");
        let text = fs::read_to_string(&rubric).unwrap();
        fs::write(&rubric, format!("# Edited, not committed.\n{text}")).unwrap();
    }

    /// Makes it a folder outside any git checkout.
    fn leave_git(&self) {
        fs::remove_dir_all(self.root.join(".git")).unwrap();
    }

    /// Where the packed things go, beside the repository.
    fn out(&self, name: &str) -> PathBuf {
        self.root.parent().unwrap().join(name)
    }

    /// `grade pack` into `out`, with a stand-in students' `grade` and `extra` arguments.
    fn pack(&self, out: &Path, extra: &[&str]) -> Output {
        let stand_in = self.out("students-grade");
        fs::write(
            &stand_in,
            "#!/bin/sh\n[ \"$1\" = --version ] && echo 'grade 0.0.0' && exit 0\nexit 2\n",
        )
        .unwrap();
        fs::set_permissions(&stand_in, fs::Permissions::from_mode(0o755)).unwrap();
        grade()
            .arg("pack")
            .arg(out)
            .arg("--kit")
            .arg(self.root.join("grading"))
            .arg("--grade")
            .arg(&stand_in)
            .args(extra)
            .output()
            .unwrap()
    }

    /// `make_zip.sh` of this repository's working tree, run as the course's copy, into `zip`.
    fn make_zip(&self, zip: &Path, extra: &[&str]) -> Output {
        Command::new("bash")
            .arg(self.root.join("grading/gradescope/make_zip.sh"))
            .args(extra)
            .arg(zip)
            .output()
            .unwrap()
    }
}

/// Standard error of `output`.
fn said(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The files of the zip at `zip`, as `unzip -Z1` lists them.
fn zipped(zip: &Path) -> Vec<String> {
    let out = Command::new("unzip").arg("-Z1").arg(zip).output().unwrap();
    assert!(out.status.success(), "{}", said(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// One file of the zip at `zip`.
fn unzipped(zip: &Path, file: &str) -> String {
    let out = Command::new("unzip")
        .arg("-p")
        .arg(zip)
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", said(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn pack_refuses_what_is_not_committed_unless_allowed_and_packs_the_working_tree() {
    let course = Course::new();
    course.edit();
    let out = course.out("kit");
    let refused = course.pack(&out, &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    for words in [" M grading/rubric.toml", "--allow-uncommitted"] {
        assert!(said(&refused).contains(words), "{}", said(&refused));
    }
    assert!(!out.exists(), "nothing packed");

    let allowed = course.pack(&out, &["--allow-uncommitted"]);
    assert!(allowed.status.success(), "{}", said(&allowed));
    assert!(said(&allowed).contains("warning"), "{}", said(&allowed));
    assert!(said(&allowed).contains(" M grading/rubric.toml"));
    let rubric = fs::read_to_string(out.join("grading/rubric.toml")).unwrap();
    assert!(rubric.starts_with("# Edited, not committed."), "{rubric}");
    assert!(out.join("starter/supplied/Cargo.toml").is_file());
    assert!(!out.join("grading/secret.toml").exists());
    assert!(!out.join("grading/gradescope").exists());
}

#[test]
fn pack_outside_git_packs_the_files_as_they_are_and_says_nothing_was_checked() {
    let course = Course::new();
    course.edit();
    course.leave_git();
    fs::create_dir_all(course.root.join("starter/supplied/target")).unwrap();
    fs::write(course.root.join("starter/supplied/target/junk"), "").unwrap();
    let out = course.out("kit");
    let packed = course.pack(&out, &[]);
    assert!(packed.status.success(), "{}", said(&packed));
    assert!(
        said(&packed).contains("no git checkout"),
        "{}",
        said(&packed)
    );
    assert!(said(&packed).contains("nothing could be checked"));
    let rubric = fs::read_to_string(out.join("grading/rubric.toml")).unwrap();
    assert!(rubric.starts_with("# Edited, not committed."), "{rubric}");
    assert!(!out.join("grading/secret.toml").exists());
    assert!(!out.join("starter/supplied/target").exists());
}

#[test]
fn make_zip_refuses_what_is_not_committed_unless_allowed_and_zips_the_working_tree() {
    let course = Course::new();
    course.edit();
    let zip = course.out("autograder.zip");
    let refused = course.make_zip(&zip, &[]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    for words in [" M grading/rubric.toml", "--allow-uncommitted"] {
        assert!(said(&refused).contains(words), "{}", said(&refused));
    }
    assert!(!zip.exists(), "nothing zipped");

    let allowed = course.make_zip(&zip, &["--allow-uncommitted"]);
    assert!(allowed.status.success(), "{}", said(&allowed));
    assert!(said(&allowed).contains("warning"), "{}", said(&allowed));
    assert!(said(&allowed).contains(" M grading/rubric.toml"));
    assert!(unzipped(&zip, "grading/rubric.toml").starts_with("# Edited, not committed."));
    let files = zipped(&zip);
    for file in [
        "setup.sh",
        "run_autograder",
        "grading/gradescope/command",
        "grading/secret.toml",
        "starter/supplied/Cargo.toml",
    ] {
        assert!(files.iter().any(|f| f == file), "{file} in {files:?}");
    }
    assert!(!files.iter().any(|f| f.starts_with("target")), "{files:?}");
}

#[test]
fn make_zip_outside_git_zips_the_files_as_they_are_and_says_nothing_was_checked() {
    let course = Course::new();
    course.edit();
    course.leave_git();
    let zip = course.out("autograder.zip");
    let made = course.make_zip(&zip, &[]);
    assert!(made.status.success(), "{}", said(&made));
    assert!(said(&made).contains("no git checkout"), "{}", said(&made));
    assert!(said(&made).contains("nothing could be checked"));
    assert!(!said(&made).contains("tar"), "{}", said(&made));
    assert!(unzipped(&zip, "grading/rubric.toml").starts_with("# Edited, not committed."));
    let files = zipped(&zip);
    assert!(
        files.iter().any(|f| f == "grading/secret.toml"),
        "{files:?}"
    );
    assert!(!files.iter().any(|f| f.starts_with("target")), "{files:?}");
}
