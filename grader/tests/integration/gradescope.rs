//! The Gradescope autograder end to end: the real `grading/gradescope/run_autograder` run with
//! `AUTOGRADER_ROOT` on a temporary directory laid out as Gradescope's, on the submissions a
//! class hands in.
//!
//! The layout: `source/` is the kit as `setup.sh` leaves it (a copy of the repository's
//! `grading/`, so that a test can write its own configuration into `grading/gradescope/`; the
//! repository's `starter/`, linked, whose `supplied/` is the course's copy; and the `grade`
//! built for these tests, linked as `target/release/grade`), `submission/` the submission, and
//! `results/` where `results.json` appears. Every run but the `not-counted` one (on one CPU) uses
//! `--skip-timing` (the configuration file `options`), so that a loaded machine cannot decide a
//! test.
//!
//! What it proves:
//!
//! - **The completed starter** (the starter with `tests/fixtures/starter_solution/` copied over
//!   its `src/`), built with the default configuration (`cargo build --release
//!   --no-default-features --locked`, the program `{target}/release/connect_four`), gets every
//!   automatic point.
//! - **The same with a syntax error** in `src/game.rs` scores 0, and the compiler's error, with
//!   its file, is in `results.json` where the student sees it.
//! - **A Java submission as source only** (`tests/fixtures/java/`), with the Java build
//!   (`javac -d build *.java`) and command configured, gets every automatic point. Without
//!   `javac` and `java` this test is skipped with a note, except under CI (`CI` set), where it
//!   fails.
//! - **A broken autograder** (a `grade` that crashes) still leaves a `results.json`: score 0,
//!   with the reason the student is shown.
//! - **The `not-counted` setting**: the Python fixture student graded with the speed-up case
//!   under `taskset -c 0`, where it cannot be judged, and `not-counted` set to `full`, gets the
//!   case's 10 points, saying why; a setting that is none of `pending`, `full` and `zero` gives
//!   every submission 0 and the reason.
//! - **The report is named after the student** of Gradescope's `submission_metadata.json`
//!   (`Ann_Lee.md`), else after the submission's id, else (no metadata) after the command; a
//!   program that fails every case the same way has that failure said once in it.
//! - **Hostile students** (`tests/fixtures/hostile/`), with the instructor's secret seed in the
//!   kit: one that runs the reference in its place (the reference's binary where `setup.sh`
//!   leaves it) scores 0; one that replays the published answers loses the held-out cases,
//!   which Gradescope shows only after the due date; one that leaves a daemon to rewrite
//!   results.json finds it untouched after grading.
//!
//! The Rust builds go to `target/gradescope/<scenario>` in this workspace's build directory (the
//! parent of `CARGO_TARGET_TMPDIR`), passed as `CARGO_TARGET_DIR`, which `run_autograder`
//! honours: as on Gradescope, where `setup.sh` compiled the starter's dependencies into the
//! shared target directory, re-runs compile only the submission's own two crates, and the two
//! Rust scenarios (which run at the same time) never wait for each other's build lock.

use std::ffi::OsString;
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::support::{
    build_root, completed_starter, copy_dir, describe, failures, fixtures, java_available,
    java_sources, kit_cases, python_submission, reference, repository, tests, window_fixture,
    window_tools_present,
};

/// Gradescope's directory for one submission.
struct Autograder {
    /// Keeps the directory until the test ends.
    _dir: tempfile::TempDir,
    root: PathBuf,
    /// Which test this is; names its cargo target directory.
    scenario: &'static str,
}

/// What `run_autograder` left.
struct Run {
    /// `results/results.json`.
    results: serde_json::Value,
    /// What `run_autograder` printed, for messages.
    printed: String,
}

impl Autograder {
    /// A Gradescope directory with the kit in `source/` and an empty `submission/`.
    fn new(scenario: &'static str) -> Autograder {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().to_path_buf();
        let source = root.join("source");
        copy_dir(&repository().join("grading"), &source.join("grading"));
        symlink(repository().join("starter"), source.join("starter")).expect("a link");
        fs::create_dir_all(source.join("target/release")).expect("a directory");
        symlink(
            env!("CARGO_BIN_EXE_grade"),
            source.join("target/release/grade"),
        )
        .expect("a link");
        fs::create_dir_all(root.join("submission")).expect("a directory");
        let autograder = Autograder {
            _dir: dir,
            root,
            scenario,
        };
        autograder.configure("options", "--skip-timing");
        autograder
    }

    /// Writes the configuration file `name` (`build`, `command`, `options`) of the kit.
    fn configure(&self, name: &str, line: &str) {
        let path = self.root.join("source/grading/gradescope").join(name);
        fs::write(&path, format!("# Written by the test.\n{line}\n")).expect("a config file");
    }

    fn submission(&self) -> PathBuf {
        self.root.join("submission")
    }

    /// Runs the repository's `run_autograder` on this directory; prints how long it took.
    fn run(&self) -> Run {
        self.run_under(&[])
    }

    /// [`Autograder::run`] under the command `before` (`taskset -c 0`), if any.
    fn run_under(&self, before: &[&str]) -> Run {
        let target = build_root().join("gradescope").join(self.scenario);
        // A program left by an earlier run must not stand in for one this run fails to build.
        let program = target.join("release/connect_four");
        if program.exists() {
            fs::remove_file(&program).expect("the old program can be removed");
        }
        let started = Instant::now();
        let mut command = match before.split_first() {
            Some((first, rest)) => {
                let mut command = Command::new(first);
                command.args(rest).arg("bash");
                command
            }
            None => Command::new("bash"),
        };
        let output = command
            .arg(repository().join("grading/gradescope/run_autograder"))
            .env("AUTOGRADER_ROOT", &self.root)
            .env("CARGO_TARGET_DIR", &target)
            .env("PATH", path_with_cargo())
            // Built as Gradescope builds it, whatever flags this test run was given.
            .env_remove("RUSTFLAGS")
            .env_remove("CARGO_ENCODED_RUSTFLAGS")
            .env_remove("CARGO_BUILD_RUSTFLAGS")
            .stdin(Stdio::null())
            .output()
            .expect("bash starts");
        let took = started.elapsed();
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        eprintln!(
            "{}: run_autograder took {:.1} s",
            self.scenario,
            took.as_secs_f64()
        );
        assert!(
            output.status.success(),
            "run_autograder failed ({}):\n{printed}",
            output.status
        );
        let path = self.root.join("results/results.json");
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}\n{printed}", path.display()));
        let results = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("results.json is not JSON: {e}\n{text}"));
        Run { results, printed }
    }
}

/// A number at the top of the Gradescope results: `score` or `max_score`.
fn number(run: &Run, key: &str) -> f64 {
    run.results[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {}\n{}", run.results, run.printed))
}

/// Asserts that every case ran and passed, and the score is the maximum.
fn assert_every_automatic_point(run: &Run) {
    let failures = failures(&run.results);
    assert!(
        failures.is_empty(),
        "{} test(s) failed:\n\n{}\n{}",
        failures.len(),
        failures.join("\n"),
        run.printed
    );
    // Every case of the kit but the timing one (left out by --skip-timing) is a test.
    let names: Vec<&str> = tests(&run.results)
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for case in kit_cases() {
        let ran = names
            .iter()
            .any(|name| name.ends_with(&format!(": {}", case.name)));
        assert_eq!(ran, !case.is_timing(), "{}:\n{}", case.name, run.printed);
    }
    let max_score = number(run, "max_score");
    assert!(max_score > 0.0, "{}", run.printed);
    assert_eq!(number(run, "score"), max_score, "{}", run.printed);
}

#[test]
fn the_completed_starter_is_built_as_the_handout_says_and_gets_every_automatic_point() {
    let autograder = Autograder::new("completed");
    completed_starter(&autograder.submission());
    let run = autograder.run();
    assert_every_automatic_point(&run);
}

#[test]
fn a_syntax_error_scores_zero_and_the_student_sees_the_compilers_error() {
    let autograder = Autograder::new("syntax-error");
    completed_starter(&autograder.submission());
    let game = autograder.submission().join("src/game.rs");
    let mut source = fs::read_to_string(&game).expect("the starter has src/game.rs");
    source.push_str("\nlet forgotten = ;\n");
    fs::write(&game, source).expect("src/game.rs is writable");
    let run = autograder.run();

    assert_eq!(number(&run, "score"), 0.0, "{}", run.printed);
    let shown = tests(&run.results)
        .iter()
        .filter(|t| t["visibility"] == "visible")
        .map(describe)
        .find(|text| text.contains("error") && text.contains("src/game.rs"));
    let shown = shown.unwrap_or_else(|| {
        panic!(
            "no visible test shows the compiler's error:\n{:#}\n{}",
            run.results, run.printed
        )
    });
    assert!(shown.contains("expected"), "{shown}");
}

#[test]
fn a_java_submission_as_source_only_is_built_with_javac_and_gets_every_automatic_point() {
    if !java_available() {
        return;
    }
    let autograder = Autograder::new("java");
    autograder.configure("build", "javac -d build *.java");
    autograder.configure("command", "java -cp {dir}/build ConnectFour");
    java_sources(&autograder.submission());
    let run = autograder.run();
    assert_every_automatic_point(&run);
    // Built on the student's own disk, gone with their sandbox: the submission is as it came.
    assert!(
        !autograder.submission().join("build").exists(),
        "the build's output stayed in the submission:\n{}",
        run.printed
    );
}

#[test]
fn a_window_configured_is_observed_and_shown_to_the_student_as_a_test_worth_no_points() {
    if !window_tools_present() {
        return;
    }
    let autograder = Autograder::new("window");
    autograder.configure("build", "none");
    autograder.configure("command", "python3 {dir}/connect_four.py");
    autograder.configure("window", "python3 {dir}/window.py");
    let submission = autograder.submission();
    python_submission(&submission, "connect_four");
    fs::copy(window_fixture(), submission.join("window.py")).expect("the fixture window");
    let run = autograder.run();
    assert_every_automatic_point(&run);
    let gui = tests(&run.results)
        .iter()
        .find(|t| t["name"] == "GUI (graded by hand): the window observed")
        .unwrap_or_else(|| panic!("no GUI test:\n{:#}\n{}", run.results, run.printed));
    assert_eq!(gui["score"], 0.0, "{}", describe(gui));
    assert_eq!(gui["visibility"], "visible", "{}", describe(gui));
    for seen in [
        "Dialog first",
        "Grid of 75 x 75 cells",
        "Redraws while the computer thinks",
    ] {
        assert!(
            describe(gui).contains(seen),
            "{seen:?} not in {}",
            describe(gui)
        );
    }
    let shots = autograder.root.join("results/report/window");
    let students: Vec<PathBuf> = fs::read_dir(&shots)
        .unwrap_or_else(|e| {
            panic!(
                "no screenshots in {} ({e}): {}",
                shots.display(),
                run.printed
            )
        })
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(students.len(), 1, "{students:?}");
    assert!(students[0].join("move-1.png").is_file(), "{students:?}");
}

#[test]
fn a_speedup_the_machine_cannot_judge_shows_as_the_not_counted_setting_says() {
    let autograder = Autograder::new("not-counted");
    autograder.configure("build", "none");
    autograder.configure("command", "sh {dir}/run");
    // The speed-up case runs, on one CPU (`taskset -c 0`), where it cannot be judged.
    autograder.configure("options", "none");
    autograder.configure("not-counted", "full");
    python_submission(&autograder.submission(), "connect_four");
    let run = autograder.run_under(&["taskset", "-c", "0"]);
    assert!(
        run.printed.contains("--gradescope-not-counted full"),
        "{}",
        run.printed
    );
    let speedup = tests(&run.results)
        .iter()
        .find(|t| t["name"] == "Threading: threads/speedup")
        .unwrap_or_else(|| panic!("no speed-up test:\n{}", run.printed));
    assert_eq!(
        (&speedup["score"], &speedup["max_score"], &speedup["status"]),
        (&10.0.into(), &10.0.into(), &"passed".into()),
        "{}",
        describe(speedup)
    );
    assert!(
        describe(speedup).contains("Not counted (not judged on 1 CPU): given all its 10 points"),
        "{}",
        describe(speedup)
    );
    assert_eq!(number(&run, "score"), number(&run, "max_score"));

    // A setting that is none of the three: every submission is told why, and scores 0.
    autograder.configure("not-counted", "later");
    let run = autograder.run();
    assert_eq!(number(&run, "score"), 0.0, "{}", run.printed);
    let output = run.results["output"].as_str().unwrap_or_default();
    assert!(
        output.contains("not-counted says 'later': pending, full or zero"),
        "{output}"
    );
}

#[test]
fn a_grade_that_crashes_still_leaves_results_with_score_zero_and_the_reason() {
    let autograder = Autograder::new("broken-grade");
    // A stand-in for grade that fails at once, its message quoted so as to need JSON escapes.
    let grade = autograder.root.join("source/target/release/grade");
    fs::remove_file(&grade).expect("the link to grade");
    fs::write(
        &grade,
        "#!/bin/sh\nprintf '%s\\n' 'grade: \"src\\main.rs\" panicked' >&2\nexit 101\n",
    )
    .expect("a script");
    fs::set_permissions(&grade, fs::Permissions::from_mode(0o755)).expect("chmod");
    let run = autograder.run();

    assert_eq!(number(&run, "score"), 0.0, "{}", run.printed);
    let output = run.results["output"].as_str().unwrap_or_default();
    assert!(
        output.contains("exit status 101") && output.contains("grade: \"src\\main.rs\" panicked"),
        "{output}"
    );
    assert!(
        tests(&run.results)
            .iter()
            .any(|t| t["visibility"] == "visible" && describe(t).contains("exit status 101")),
        "{:#}",
        run.results
    );
}

#[test]
fn the_report_is_named_after_the_student_of_gradescope_s_metadata() {
    let autograder = Autograder::new("named");
    // A program that fails every case at once, the same way: quick, and said once in the report.
    autograder.configure("build", "none");
    autograder.configure("command", "false");
    let metadata = autograder.root.join("submission_metadata.json");
    let reports = autograder.root.join("results/report");
    let markdown = || -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(&reports)
            .expect("a report folder")
            .map(|e| {
                e.expect("an entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|name| name.ends_with(".md"))
            .collect();
        names.sort();
        names
    };
    fs::write(
        &metadata,
        r#"{"id": 123456, "users": [{"name": "Ann Lee", "id": 7, "email": "ann@example.org"}]}"#,
    )
    .expect("the metadata");
    let run = autograder.run();
    assert_eq!(markdown(), ["Ann_Lee.md"], "{}", run.printed);
    let report = fs::read_to_string(reports.join("Ann_Lee.md")).expect("the report");
    assert!(
        report.lines().next().unwrap_or("").ends_with(": Ann Lee"),
        "{report}"
    );
    assert!(report.contains("The same failure in"), "{report}");
    // Some forty cases failed, said in a few sections at most.
    assert!(report.matches("\n### ").count() < 5, "{report}");

    // No name: the submission's id; no metadata: the command, as grade names it.
    fs::remove_dir_all(&reports).expect("the old reports");
    fs::write(&metadata, r#"{"id": 123456, "users": []}"#).expect("the metadata");
    let run = autograder.run();
    assert_eq!(markdown(), ["123456.md"], "{}", run.printed);
    fs::remove_dir_all(&reports).expect("the old reports");
    fs::remove_file(&metadata).expect("the metadata");
    let run = autograder.run();
    assert_eq!(markdown(), ["false.md"], "{}", run.printed);
}

/// `PATH` with the directory of the cargo that runs these tests (cargo sets `CARGO` for them)
/// first, so that the submission is built by the same toolchain.
fn path_with_cargo() -> OsString {
    let cargo = std::env::var_os("CARGO").map(PathBuf::from);
    let first = cargo
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf);
    let rest = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(first.into_iter().chain(std::env::split_paths(&rest)))
        .expect("PATH holds no separator")
}

/// An autograder for a Python submission (no build) with the instructor's secret seed in the
/// kit, as the course runs it: held-out cases included.
fn hostile_autograder(scenario: &'static str) -> Autograder {
    let autograder = Autograder::new(scenario);
    autograder.configure("build", "none");
    autograder.configure("command", "python3 {dir}/run.py");
    fs::write(
        autograder.root.join("source/grading/secret.toml"),
        "seed = 31415\n",
    )
    .expect("a secret");
    fs::copy(
        fixtures().join("connect_four.py"),
        autograder.submission().join("connect_four.py"),
    )
    .expect("the honest game");
    autograder
}

/// The hostile fixture `name`.
fn hostile(name: &str) -> PathBuf {
    fixtures().join("../hostile").join(name)
}

#[test]
fn a_program_that_runs_the_reference_in_its_place_scores_nothing() {
    let autograder = hostile_autograder("exec-reference");
    // The reference where setup.sh builds it, and a student who knows the path.
    let program = autograder.root.join("source/target/release/connect_four");
    fs::copy(reference(), &program).expect("the reference");
    let submission = autograder.submission();
    fs::copy(hostile("exec_reference.sh"), submission.join("run.sh")).expect("the fixture");
    fs::write(
        submission.join("reference.txt"),
        program.display().to_string(),
    )
    .unwrap();
    autograder.configure("command", "sh {dir}/run.sh");
    let run = autograder.run();
    assert_eq!(number(&run, "score"), 0.0, "{}", run.printed);
}

#[test]
fn replaying_the_published_answers_loses_the_held_out_cases() {
    let autograder = hostile_autograder("memoriser");
    let submission = autograder.submission();
    fs::copy(hostile("memoriser.py"), submission.join("run.py")).expect("the fixture");
    copy_dir(
        &repository().join("grading/cases"),
        &submission.join("cases"),
    );
    let run = autograder.run();
    let held: Vec<&serde_json::Value> = tests(&run.results)
        .iter()
        .filter(|t| t["name"].as_str().is_some_and(|n| n.contains("held_out/")))
        .collect();
    assert_eq!(held.len(), 12, "{}", run.printed);
    // A held-out position may, by chance, begin as a published case on the same board does
    // (the gap cases on 5 x 6, say): the memoriser then answers that beginning, and no more.
    for test in &held {
        assert_eq!(test["visibility"], "after_due_date", "{}", describe(test));
        let (score, max) = (test["score"].as_f64(), test["max_score"].as_f64());
        assert!(
            score.zip(max).is_some_and(|(s, m)| s < 0.5 * m),
            "{}",
            describe(test)
        );
    }
    let (score, max) = (number(&run, "score"), number(&run, "max_score"));
    assert!(
        score <= 0.6 * max + 1e-9,
        "{score} of {max}\n{}",
        run.printed
    );
}

#[test]
fn a_daemon_cannot_rewrite_results_json_after_grading() {
    let autograder = hostile_autograder("daemon");
    let submission = autograder.submission();
    fs::copy(hostile("tricks.py"), submission.join("run.py")).expect("the fixture");
    let results = autograder.root.join("results/results.json");
    fs::write(submission.join("forge.txt"), results.display().to_string()).unwrap();
    let run = autograder.run();
    let written = fs::read_to_string(&results).unwrap();
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert_eq!(fs::read_to_string(&results).unwrap(), written);
    assert!(!written.contains("\"score\": 75"), "{written}");
    assert_eq!(
        number(&run, "score"),
        number(&run, "max_score"),
        "{}",
        run.printed
    );
}

/// The capabilities a Docker container has by default (no `CAP_SYS_ADMIN`, none of the others
/// Docker drops), as `setpriv --bounding-set` takes them: a root process keeps only these.
const DOCKER_CAPABILITIES: &str = "-all,+chown,+dac_override,+fowner,+fsetid,+kill,+setgid,\
    +setuid,+setpcap,+net_bind_service,+net_raw,+sys_chroot,+mknod,+audit_write,+setfcap";

#[test]
fn in_a_container_s_default_capabilities_an_honest_student_gets_every_point_and_is_told_what_fell_away(
) {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!(
            "not root: a container's capabilities cannot be emulated, nor are they Gradescope's"
        );
        return;
    }
    let autograder = hostile_autograder("container");
    fs::copy(
        fixtures().join("connect_four.py"),
        autograder.submission().join("run.py"),
    )
    .expect("the honest game");
    let run = autograder.run_under(&["setpriv", "--bounding-set", DOCKER_CAPABILITIES, "--"]);
    assert_eq!(
        number(&run, "score"),
        number(&run, "max_score"),
        "{}",
        run.printed
    );
    let sandbox = tests(&run.results)
        .iter()
        .find(|t| t["name"] == "Sandbox (not scored)")
        .and_then(|t| t["output"].as_str())
        .unwrap_or_default()
        .to_string();
    // Without CAP_SYS_ADMIN no namespace can be made: the report says what is lost, and why.
    assert!(
        sandbox
            .contains("own file tree (no named socket, FIFO or device outside it): not in force")
            && sandbox.contains("Operation not permitted"),
        "{sandbox}"
    );
    assert!(sandbox.contains("no network only in part"), "{sandbox}");
    assert!(sandbox.contains("own unprivileged user (uid"), "{sandbox}");
}
