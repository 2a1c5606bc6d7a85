//! The grader never trusts a submission's file tree: hostile submissions built here, graded as
//! an instructor grades them (`grade class --jobs 2`, `grade student` for Gradescope) under an
//! address-space limit that reading `/dev/zero` would break at once. A supplied crate holding a
//! link to `/dev/zero` and a link to a secret no one but root may read, a changed supplied
//! crate beside an untouched decoy named `supplied.submitted/`, a FIFO: every student is
//! graded, quickly and in little memory; the change is found, reported and replaced for the
//! build (and found again on a second run); the special files are listed; no byte of the secret
//! comes out anywhere.

use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::support::{
    copy_dir, grade_copy, hand_to, ordinary_user, python_submission, rows, run_as, small_kit,
    starter_supplied,
};

/// What the secret file holds: no output or report may contain it.
const SECRET: &str = "seed = 8675309 # TREE-SECRET";
/// The address space `grade` is run in: enough to grade, far too little to read `/dev/zero`
/// into memory (or any file of a few hundred MiB).
const ADDRESS_SPACE: u64 = 512 << 20;
/// The most memory (resident, in KiB) `grade` or any process it waits for may have used: about
/// four times what it takes. A grader that reads `/dev/zero` until its address space is full
/// has used well over 100 MiB by the time an allocation fails.
const MAX_RESIDENT_KIB: u64 = 64 << 10;
/// Runs the command in its arguments and writes the largest resident size (KiB) of any process
/// it waited for into the file named first; exits as the command did.
const MEASURE: &str = "import resource, subprocess, sys
status = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(status)";
/// The "build": it shows the supplied crate it finds, as a real build would compile it, in its
/// log (what it writes in the submission is its job's own, gone with it).
const BUILD: &str = "cat supplied/src/lib.rs";

/// A class of hostile submissions, a small kit and the secret, in a folder of their own, with
/// the grader and the course's supplied crate copied in, all owned by the grading user.
struct Class {
    work: tempfile::TempDir,
    /// Who grades: an ordinary user, or the tests' own.
    user: Option<u32>,
}

impl Class {
    /// `zero` (a supplied crate whose `src/lib.rs` is a link to `/dev/zero`, with a link to
    /// the secret added, and a link inside the submission), `decoy` (a changed `supplied/` and
    /// an untouched `supplied.submitted/`) and `fifo` (named pipes where a source could be, in
    /// the submission and in its supplied crate).
    fn new(user: Option<u32>) -> Class {
        let work = tempfile::tempdir().unwrap();
        fs::set_permissions(work.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let class = Class { work, user };
        grade_copy(class.work.path());
        copy_dir(&starter_supplied(), &class.course_supplied());
        small_kit(&class.kit(), &["rules/board_1x1", "scores/depth1"]);
        // Mode 0000: only root may read it, and root may, as the grader runs.
        fs::write(class.secret(), SECRET).unwrap();
        fs::set_permissions(class.secret(), fs::Permissions::from_mode(0o000)).unwrap();

        let zero = class.student("zero");
        python_submission(&zero, "connect_four");
        copy_dir(&starter_supplied(), &zero.join("supplied"));
        fs::remove_file(zero.join("supplied/src/lib.rs")).unwrap();
        symlink("/dev/zero", zero.join("supplied/src/lib.rs")).unwrap();
        symlink(class.secret(), zero.join("supplied/src/secret.rs")).unwrap();
        symlink("connect_four.py", zero.join("game.py")).unwrap();

        let decoy = class.student("decoy");
        python_submission(&decoy, "connect_four");
        copy_dir(&starter_supplied(), &decoy.join("supplied"));
        copy_dir(&starter_supplied(), &decoy.join("supplied.submitted"));
        let lib = decoy.join("supplied/src/lib.rs");
        let mut text = fs::read(&lib).unwrap();
        text.extend_from_slice(b"// a change of my own\n");
        fs::write(&lib, text).unwrap();

        let fifo = class.student("fifo");
        python_submission(&fifo, "connect_four");
        copy_dir(&starter_supplied(), &fifo.join("supplied"));
        let made = Command::new("mkfifo")
            .arg(fifo.join("helper.py"))
            .arg(fifo.join("supplied/tests/pipe.rs"))
            .status()
            .unwrap();
        assert!(made.success());
        hand_to(user, class.work.path());
        // The secret stays root's alone: an ordinary grader cannot read it either.
        if user.is_some() {
            std::os::unix::fs::chown(class.secret(), Some(0), Some(0)).unwrap();
        }
        class
    }

    /// The course's supplied crate, as the grader is given it.
    fn course_supplied(&self) -> PathBuf {
        self.work.path().join("course-supplied")
    }

    fn kit(&self) -> PathBuf {
        self.work.path().join("kit")
    }

    fn secret(&self) -> PathBuf {
        self.work.path().join("secret.toml")
    }

    fn class(&self) -> PathBuf {
        self.work.path().join("class")
    }

    fn student(&self, name: &str) -> PathBuf {
        self.class().join(name)
    }

    fn reports(&self) -> PathBuf {
        self.work.path().join("reports")
    }

    /// `grade ARGS... --kit KIT --supplied STARTER`, in an address space of [`ADDRESS_SPACE`],
    /// in `dir`; its output, once it has succeeded within [`MAX_RESIDENT_KIB`] of memory.
    fn grade(&self, dir: &Path, args: &[&str]) -> Output {
        let resident = self.work.path().join("resident");
        let mut command = run_as(self.user, Path::new("/usr/bin/python3"));
        command
            .args(["-c", MEASURE])
            .arg(&resident)
            .arg("prlimit")
            .arg(format!("--as={ADDRESS_SPACE}"))
            .arg("--")
            .arg(self.work.path().join("grade"))
            .args(args)
            .arg("--kit")
            .arg(self.kit())
            .arg("--supplied")
            .arg(self.course_supplied())
            .current_dir(dir);
        let started = Instant::now();
        let output = command.output().unwrap();
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(output.status.success(), "grade {args:?}: {printed}");
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "graded in seconds, not stuck on a FIFO or /dev/zero: {printed}"
        );
        self.no_secret(&printed);
        let resident: u64 = fs::read_to_string(&resident).unwrap().parse().unwrap();
        assert!(
            resident < MAX_RESIDENT_KIB,
            "grade used {resident} KiB: it read something it must not"
        );
        output
    }

    /// Panics if `text` holds the secret.
    fn no_secret(&self, text: &str) {
        assert!(!text.contains("8675309"), "the secret came out: {text}");
    }

    /// Every file `grade` wrote (reports, logs, gradebook, results), checked for the secret.
    fn no_secret_written(&self) {
        for dir in [self.reports(), self.work.path().join("results")] {
            for entry in walk(&dir) {
                self.no_secret(&String::from_utf8_lossy(&fs::read(&entry).unwrap()));
            }
        }
    }
}

/// Every regular file below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let kind = entry.file_type().unwrap();
        if kind.is_dir() {
            files.extend(walk(&entry.path()));
        } else if kind.is_file() {
            files.push(entry.path());
        }
    }
    files
}

/// Runs `grade class` on the class with two students at once, building each.
fn grade_class(class: &Class) -> String {
    let csv = class.reports().join("grades.csv");
    let output = class.grade(
        class.work.path(),
        &[
            "class",
            class.class().to_str().unwrap(),
            "--command",
            "sh {dir}/run",
            "--jobs",
            "2",
            "--skip-timing",
            "--build",
            BUILD,
            "--csv",
            csv.to_str().unwrap(),
            "--report",
            class.reports().to_str().unwrap(),
        ],
    );
    let rows = rows(&csv);
    let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["decoy", "fifo", "zero"], "every student is graded");
    let build = rows[0].iter().position(|h| h == "build").unwrap();
    assert!(rows[1..].iter().all(|r| r[build] == "ok"), "{rows:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The Markdown report of `name`.
fn report(class: &Class, name: &str) -> String {
    fs::read_to_string(class.reports().join(format!("{name}.md"))).unwrap()
}

/// Whether grading left anything of its own in the submission `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".grade"))
        .collect()
}

#[test]
fn a_class_of_hostile_trees_is_graded_without_reading_them() {
    hostile_trees(None);
}

#[test]
fn graded_by_an_ordinary_user_a_class_of_hostile_trees_is_not_read_either() {
    hostile_trees(ordinary_user());
}

/// Grades the class twice as `user` (or the tests' own) and checks every report.
fn hostile_trees(user: Option<u32>) {
    let class = Class::new(user);
    let course_lib = fs::read(starter_supplied().join("src/lib.rs")).unwrap();
    let submitted_lib = fs::read(class.student("decoy/supplied/src/lib.rs")).unwrap();
    for run in ["first", "second"] {
        let stdout = grade_class(&class);
        class.no_secret_written();

        // Links in the supplied crate: changes, never read, listed with their targets.
        let zero = report(&class, "zero");
        for text in [
            "- changed `src/lib.rs`",
            "- added `src/secret.rs`",
            "## Special files",
            "\"supplied/src/lib.rs\": a link to \"/dev/zero\", outside the submission",
            "\"game.py\": a link to \"connect_four.py\", inside the submission",
        ] {
            assert!(zero.contains(text), "{run} run: {text:?} in:\n{zero}");
        }
        let secret_link = format!(
            "\"supplied/src/secret.rs\": a link to {:?}, outside the submission",
            class.secret().display().to_string()
        );
        assert!(zero.contains(&secret_link), "{zero}");
        assert_eq!(
            fs::read(class.reports().join("zero.build.log")).unwrap(),
            course_lib,
            "{run} run: the build saw the course's copy, not /dev/zero"
        );

        // The decoy: the change is found and replaced, whatever supplied.submitted/ holds.
        let decoy = report(&class, "decoy");
        assert!(
            decoy.contains("1 file(s) of `supplied/` differ")
                && decoy.contains("- changed `src/lib.rs`")
                && decoy.contains("built with the course's copy"),
            "{run} run: {decoy}"
        );
        assert_eq!(
            fs::read(class.reports().join("decoy.build.log")).unwrap(),
            course_lib,
            "{run} run: the build saw the course's copy"
        );
        assert_eq!(
            fs::read(class.student("decoy/supplied/src/lib.rs")).unwrap(),
            submitted_lib,
            "{run} run: the submitted copy is put back"
        );
        assert!(leftovers(&class.student("decoy")).is_empty());

        // The FIFO: listed, not waited on.
        let fifo = report(&class, "fifo");
        for text in [
            "\"helper.py\": a FIFO (named pipe)",
            "\"supplied/tests/pipe.rs\": a FIFO (named pipe)",
            "- added `tests/pipe.rs`",
        ] {
            assert!(fifo.contains(text), "{run} run: {text:?} in:\n{fifo}");
        }
        assert!(stdout.contains("\"helper.py\": a FIFO"), "{stdout}");
    }
}

#[test]
fn gradescope_lists_the_special_files_and_never_reads_them() {
    let class = Class::new(None);
    let zero = class.student("zero");
    let results = class.work.path().join("results/results.json");
    fs::create_dir_all(results.parent().unwrap()).unwrap();
    let style = class.grade(
        &zero,
        &[
            "student",
            "sh run",
            "--skip-timing",
            "--style",
            "--build",
            BUILD,
            "--gradescope",
            results.to_str().unwrap(),
        ],
    );
    class.no_secret_written();
    let text = fs::read_to_string(&results).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let special = tests
        .iter()
        .find(|t| t["name"] == "Special files (not scored)")
        .unwrap_or_else(|| panic!("no special files test in {text}"));
    assert_eq!(special["status"], "failed");
    assert_eq!(special["max_score"], 0.0);
    let output = special["output"].as_str().unwrap();
    assert!(
        output.contains("\"supplied/src/lib.rs\": a link to \"/dev/zero\", outside"),
        "{output}"
    );
    let supplied = tests
        .iter()
        .find(|t| t["name"] == "Supplied crate (not scored)")
        .unwrap();
    assert_eq!(supplied["status"], "failed");
    assert!(json["score"].as_f64().unwrap() > 0.0, "graded: {text}");
    let stdout = String::from_utf8_lossy(&style.stdout);
    assert!(stdout.contains("Special files"), "{stdout}");
    assert!(leftovers(&zero).is_empty());
}
