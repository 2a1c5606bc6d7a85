//! A student's path, end to end: the starter project as a student copies it on day one, built
//! and graded exactly as the course's graders do, first untouched and then completed.
//!
//! What it proves:
//!
//! - **Untouched**, the starter builds with `cargo build --release --no-default-features
//!   --locked` from its own shipped `Cargo.lock` (no window, so no FLTK: the graders' build),
//!   passes `cargo clippy -- -D warnings` and `cargo fmt --check` as shipped, and the grading kit
//!   gives it 0 automatic points quickly, every case failing with the starter's `todo!()` panic
//!   ("not yet implemented") in the report rather than a time-out, the same panic said once
//!   with the other cases named, so that the report stays short.
//! - **Completed** with a simple solution of its `todo!()`s (`tests/fixtures/starter_solution/`,
//!   copied over the project's `src/`, whose `main.rs` and `window.rs` stay as shipped), the
//!   same build, clippy (all targets) and rustfmt are clean, and the kit gives every automatic
//!   point. So the starter, the supplied crate and the grading kit fit together: what the handout
//!   asks for, written against the starter's API, earns full marks.
//! - Both are graded as a student grades them: with the kit students get (`grade pack`'s, its
//!   `grade` built without the reference engine), run by its path with no `--kit`, so that it
//!   finds its `grading/` and the course's supplied crate beside itself.
//!
//! The copies are made in fresh temporary directories outside the repository, as a student
//! copies `starter/` into an empty directory: the repository's workspace does not apply there.
//! Each is built once however many tests build it ([`built`], whose build directory the other
//! Rust fixtures share, so the registry dependencies are compiled once) and linted in a build
//! directory the two share, one at a time ([`SharedTarget`]); its program is copied into
//! `target/student-journey/<scenario>/release/` in this workspace's build directory (the parent
//! of `CARGO_TARGET_TMPDIR`, so `target/` unless `CARGO_TARGET_DIR` says otherwise), the
//! student's own build directory it is graded from, so the two tests (which run at the same
//! time) never overwrite each other's `connect_four` binary.
//!
//! Timing is not graded here (`--skip-timing`); the measured grading time is only a bound that
//! catches a hang, not a claim about speed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::support::{
    build_root, built, cargo_as_graders, copy_dir, describe, failures, graded, repository,
    starter_solution, students_kit, tests, SharedTarget, GRADERS_BUILD,
};

/// The longest the kit may take on the untouched starter, whose program panics at once in every
/// case: far more than it needs, far less than the 40 cases' time limits added up.
const UNTOUCHED_GRADING_BOUND: Duration = Duration::from_secs(60);

/// A student's project in a fresh temporary directory, and where it is built.
struct Project {
    /// Keeps the directory until the test ends.
    _dir: tempfile::TempDir,
    root: PathBuf,
    target: PathBuf,
    /// Which copy this is: `untouched` or `completed`.
    scenario: &'static str,
}

impl Project {
    /// Copies the repository's `starter/` (without any `target/`) into an empty directory, to be
    /// graded from `target/student-journey/<scenario>`.
    fn copy_starter(scenario: &'static str) -> Project {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().join("connect_four");
        copy_dir(&repository().join("starter"), &root);
        let target = build_root().join("student-journey").join(scenario);
        Project {
            _dir: dir,
            root,
            target,
            scenario,
        }
    }

    /// Runs `cargo ARGS` in the project with the build directory `target`; panics with cargo's
    /// standard error if it fails. Returns how long it took.
    fn cargo(&self, target: &Path, args: &[&str]) -> Duration {
        let started = Instant::now();
        let output = cargo_as_graders()
            .args(args)
            .current_dir(&self.root)
            .env("CARGO_TARGET_DIR", target)
            .output()
            .expect("cargo starts");
        let took = started.elapsed();
        assert!(
            output.status.success(),
            "`cargo {}` failed in {} ({}):\n{}{}",
            args.join(" "),
            self.root.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        took
    }

    /// Builds the program as the graders do ([`GRADERS_BUILD`], once: [`built`]), copies it
    /// into the project's build directory and returns it there and the build's duration.
    fn build(&self) -> (PathBuf, Duration) {
        let started = Instant::now();
        let built = built(&self.root, &GRADERS_BUILD);
        let took = started.elapsed();
        let program = self
            .target
            .join("release")
            .join(built.file_name().expect("a program's name"));
        fs::create_dir_all(program.parent().expect("a folder")).unwrap();
        fs::copy(&built, &program).unwrap_or_else(|e| panic!("{}: {e}", built.display()));
        (program, took)
    }

    /// What a grader does with the project: builds it, checks that clippy (all targets, with
    /// warnings denied) and rustfmt are clean, and grades the program. Prints how long each
    /// step took.
    fn check_and_grade(&self) -> Grading {
        let (program, build) = self.build();
        let lints = SharedTarget::hold("student-journey-clippy");
        lints.touch(&self.root);
        let clippy = self.cargo(
            &lints.dir,
            &[
                "clippy",
                "--all-targets",
                "--no-default-features",
                "--locked",
                "--",
                "-D",
                "warnings",
            ],
        );
        drop(lints);
        self.cargo(&self.target, &["fmt", "--check"]);
        let grading = grade_program(self, &program);
        eprintln!(
            "{}: build {:.1} s, clippy {:.1} s, grading {:.1} s",
            self.scenario,
            build.as_secs_f64(),
            clippy.as_secs_f64(),
            grading.took.as_secs_f64()
        );
        grading
    }
}

/// What the kit said about a program.
struct Grading {
    /// The Gradescope results.
    results: serde_json::Value,
    /// The Markdown report.
    report: String,
    /// What `grade` printed.
    printed: String,
    took: Duration,
}

/// Grades `program` with the students' kit's `grade` (from inside the student's project, as a
/// student runs it) and collects its Gradescope results and report.
fn grade_program(project: &Project, program: &Path) -> Grading {
    let out = tempfile::tempdir().expect("a temporary directory");
    let reports = out.path().join("reports");
    let started = Instant::now();
    let graded = graded(
        Command::new(students_kit().join("grade"))
            .arg("student")
            .arg(program)
            .arg("--skip-timing")
            .arg("--report")
            .arg(&reports)
            .current_dir(&project.root)
            // The student's own build directory, which the sandbox must let the program be run
            // from, as grade finds it in the student's environment.
            .env("CARGO_TARGET_DIR", &project.target),
    );
    let took = started.elapsed();
    // Beside the Markdown report, the student's page in the graders' gallery.
    let written: Vec<PathBuf> = fs::read_dir(&reports)
        .expect("grade wrote the report directory")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    assert_eq!(written.len(), 1, "one report: {written:?}");
    assert!(reports.join("gallery.html").is_file());
    let report = fs::read_to_string(&written[0]).expect("the report is readable");
    Grading {
        results: graded.results,
        report,
        printed: graded.printed,
        took,
    }
}

/// The score and maximum in Gradescope results.
fn score(results: &serde_json::Value) -> (f64, f64) {
    let number = |key: &str| {
        results[key]
            .as_f64()
            .unwrap_or_else(|| panic!("no {key} in {results}"))
    };
    (number("score"), number("max_score"))
}

#[test]
fn the_untouched_starter_builds_cleanly_and_scores_nothing_because_of_its_todos() {
    let project = Project::copy_starter("untouched");
    let grading = project.check_and_grade();

    let (score, max_score) = score(&grading.results);
    assert_eq!(score, 0.0, "{}", grading.printed);
    assert!(max_score > 0.0, "{}", grading.printed);
    // Every scored case fails, and the reason is the starter's todo!() panic, never a hang.
    let scored: Vec<&serde_json::Value> = tests(&grading.results)
        .iter()
        .filter(|t| t["max_score"].as_f64().is_some_and(|points| points > 0.0))
        .collect();
    assert!(scored.len() >= 37, "every case is run: {}", grading.printed);
    for test in scored {
        assert_ne!(test["status"], "passed", "{}", describe(test));
        assert!(
            describe(test).contains("not yet implemented"),
            "{}",
            describe(test)
        );
    }
    for test in tests(&grading.results) {
        assert!(!describe(test).contains("time limit"), "{}", describe(test));
    }
    assert!(
        grading.report.contains("not yet implemented"),
        "{}",
        grading.report
    );
    // The same panic in every case is said once, the other cases named: a short report (it
    // was over 400 lines).
    assert!(
        grading.report.contains("The same failure in") && grading.report.lines().count() < 150,
        "{}",
        grading.report
    );
    assert!(
        grading.took < UNTOUCHED_GRADING_BOUND,
        "grading took {:?}: a panicking program must fail fast\n{}",
        grading.took,
        grading.printed
    );
    let shown = handout_example();
    assert!(
        comparable(&grading.printed).starts_with(&comparable(&shown)),
        "the handout's example of the untouched starter's grading is not what the kit prints:\n\
         handout:\n{shown}\nkit:\n{}",
        grading.printed
    );
}

/// The handout's example of what `grade student` prints for the untouched starter (section 13).
fn handout_example() -> String {
    const BEFORE: &str =
        "On the untouched starter, every case fails, and the output begins like this:";
    let handout = fs::read_to_string(repository().join("handout.md")).expect("the handout");
    let after = &handout[handout.find(BEFORE).expect("the example's sentence") + BEFORE.len()..];
    let block = after
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```"))
        .expect("a text block after the sentence");
    block.0.to_string()
}

/// `text` without what changes from one run or machine to another: the program's path (here
/// in this workspace's build directory), a thread's number in a panic message, and the
/// sandbox's line (whether `grade` runs as root changes it).
fn comparable(text: &str) -> String {
    const TITLE: &str = "Connect Four (multicore minimax): ";
    text.lines()
        .map(|line| {
            if line.starts_with(TITLE) {
                format!("{TITLE}...")
            } else if line.trim_start().starts_with("Sandbox: ") {
                "  Sandbox: ...".to_string()
            } else if let Some((head, tail)) = line.split_once("thread 'main' (") {
                let rest = tail.split_once(')').map_or("", |(_, rest)| rest);
                format!("{head}thread 'main' (N){rest}")
            } else {
                line.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_completed_starter_gets_every_automatic_point() {
    let project = Project::copy_starter("completed");
    copy_dir(&starter_solution(), &project.root.join("src"));
    let grading = project.check_and_grade();

    assert!(
        tests(&grading.results).len() >= 39,
        "every case is run: {}",
        grading.printed
    );
    let failures = failures(&grading.results);
    assert!(
        failures.is_empty(),
        "{} test(s) failed:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
    let (score, max_score) = score(&grading.results);
    assert!(max_score > 0.0, "{}", grading.printed);
    assert_eq!(score, max_score, "{}", grading.printed);
}
