//! The window observer on fixture windows, each run in a sandbox under a private Xvfb as `grade
//! --window` runs it: a tkinter window of a student's own that does everything the assignment
//! asks (every step passes, none is taken for the supplied window), the same window with its
//! search on the GUI thread (only the redraw fails), a Java Swing window of a student's own,
//! compiled with `javac` by the window build (every step passes; with its search on the Event
//! Dispatch Thread the redraw fails, unless the window paints the player's move first, which
//! the check cannot see in Swing), and the completed starter,
//! which runs the supplied window, found and flagged as supplied.
//!
//! Each test keeps its screenshots in `target/window-shots/<test>/` to be looked at. The kit's
//! pictures of the supplied window (`grading/window/`) are written anew from the reference's
//! window when `UPDATE_WINDOW_REFERENCE` is set.
//!
//! They need Xvfb, xdotool, ImageMagick's `import` and the system's python3 with tkinter
//! (`scripts/setup.sh xvfb`), and the Swing window a JDK with AWT's X11 library
//! (`scripts/setup.sh jdk`); without them each test is skipped with a note, except under CI
//! (`CI` set), where it fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use connect_four_grader::judge::result::window::{
    Cell, Check, Measured, Observation, Step, StepResult, WindowResult,
};
use connect_four_grader::judge::window::{store_reference, WindowPlan, WindowRun};
use connect_four_grader::judge::{BuildCommand, Job, Student};
use connect_four_grader::process::display::Display;
use connect_four_grader::process::sandbox::{Prepared, Sandbox};

use crate::support::{
    build_root, built, completed_starter, copy_dir, describe, grade, graded, java_files,
    python_submission, repository, small_kit, swing_available, swing_fixture, tests,
    window_fixture, window_tools_present, QUICK_CASES,
};

/// `dir`'s sandbox, as a student's: the submission writable, a scratch folder, nothing else.
fn sandbox(dir: &Path, scratch: &Path) -> Prepared {
    Sandbox::new()
        .write(dir)
        .scratch(scratch)
        .processes(256)
        .prepare()
        .expect("the sandbox is prepared")
}

/// The kit's pictures of the supplied window.
fn reference_pictures() -> PathBuf {
    repository().join("grading/window")
}

/// Observes the window that `command` starts in `dir` at 4 x 5, its search at `search_depth`,
/// compared with the kit's pictures of the supplied window, as `grade --window command
/// --window-build build` does: `build` (if any) run first in `dir`, in the same sandbox, as the
/// window's build. Its screenshots are kept in `target/window-shots/<test>`.
fn observe_in(
    dir: &Path,
    command: &str,
    build: Option<&str>,
    search_depth: u32,
    test: &str,
) -> Observation {
    let shots = build_root().join("window-shots");
    if shots.join(test).exists() {
        fs::remove_dir_all(shots.join(test)).unwrap();
    }
    let scratch = tempfile::tempdir().unwrap();
    let prepared = sandbox(dir, scratch.path());
    // Named after the test, so that its screenshots go to `<shots>/<test>`.
    let student = Student {
        name: test.into(),
        command: command.into(),
        dir: Some(dir.to_path_buf()),
        limits: Default::default(),
    };
    let job = Job {
        student: &student,
        sandbox: Some(&prepared),
    };
    let run = WindowRun {
        command: command.into(),
        build: build.map(|template| BuildCommand {
            template: template.into(),
            timeout: Duration::from_secs(120),
            logs: None,
            name: "window-build",
        }),
        settings: WindowPlan {
            board: (4, 5),
            depth: 1,
            search_depth,
            screenshots: shots,
            reference: Some(reference_pictures()),
        },
    };
    match run.run(&job, dir) {
        WindowResult::Observed(observation) => *observation,
        WindowResult::Unobserved(why) => panic!("not observed: {why:?}"),
    }
}

/// The tkinter fixture in a submission folder of its own, started with `options`.
fn tkinter_window(options: &str, test: &str) -> (tempfile::TempDir, Observation) {
    let dir = tempfile::tempdir().unwrap();
    fs::copy(window_fixture(), dir.path().join("window.py")).unwrap();
    // The fixture's computer thinks DEPTH / 2 seconds: 3 s.
    let command = format!("python3 window.py {options}");
    let observation = observe_in(dir.path(), &command, None, 6, test);
    (dir, observation)
}

/// The Swing fixture's sources in a submission folder of their own, compiled by a Java
/// student's window build (`javac`, in their sandbox) and started with `options`.
fn swing_window(options: &str, test: &str) -> (tempfile::TempDir, Observation) {
    let dir = tempfile::tempdir().unwrap();
    java_files(&swing_fixture(), dir.path());
    // Like the tkinter fixture's, its computer thinks DEPTH / 2 seconds: 3 s.
    let command = format!("java -cp {{dir}}/build ConnectFourWindow {options}");
    let build = "javac -d {dir}/build *.java";
    let observation = observe_in(dir.path(), &command, Some(build), 6, test);
    (dir, observation)
}

/// The redraw check's measurement: when the reply came, whether the window was held, and the
/// cells it lost.
fn redraw(observation: &Observation) -> (Option<Duration>, bool, &[Cell]) {
    match &check(observation, Step::Redraw).measured {
        Measured::Redraw {
            reply, held, lost, ..
        } => (*reply, *held, lost),
        other => panic!("the redraw measured {other:?}: {observation:#?}"),
    }
}

/// Each step's status, in order.
fn statuses(observation: &Observation) -> Vec<(Step, StepResult)> {
    observation
        .checks
        .iter()
        .map(|check| (check.step, check.status))
        .collect()
}

/// The check of `step`.
fn check(observation: &Observation, step: Step) -> &Check {
    observation
        .check(step)
        .unwrap_or_else(|| panic!("no {step:?} in {observation:#?}"))
}

/// Every screenshot a check names is a file.
fn screenshots_exist(observation: &Observation) {
    for check in &observation.checks {
        for shot in &check.screenshots {
            assert!(shot.is_file(), "{}: missing", shot.display());
        }
    }
}

/// Every step of `observation` (of a fixture window of a student's own) passed: the dialog
/// titled as the fixtures title it, the grid of 75 x 75 cells at 4 x 5 with room for the label
/// under it, the board drawn again while the computer thought its 3 s, and not the supplied
/// window.
fn every_step_passes(observation: &Observation) {
    screenshots_exist(observation);
    assert_eq!(
        statuses(observation),
        [
            (Step::Dialog, StepResult::Pass),
            (Step::Grid, StepResult::Pass),
            (Step::Drop, StepResult::Pass),
            (Step::FullColumn, StepResult::Pass),
            (Step::GameOver, StepResult::Pass),
            (Step::Redraw, StepResult::Pass),
            (Step::OwnWindow, StepResult::Pass),
        ],
        "{observation:#?}"
    );
    let Measured::Dialog { title, .. } = &check(observation, Step::Dialog).measured else {
        panic!("{observation:#?}")
    };
    assert_eq!(title, "Choose an opponent");
    let Measured::Grid {
        pitch, strip, grid, ..
    } = &check(observation, Step::Grid).measured
    else {
        panic!("{observation:#?}")
    };
    assert_eq!(*pitch, Some((75, 75)));
    assert_eq!(grid.map(|g| (g.width, g.height)), Some((375, 300)));
    assert!(strip.is_some_and(|s| s >= 20), "{strip:?}");
    let (reply, _, lost) = redraw(observation);
    assert!(lost.is_empty());
    assert!(reply.is_some_and(|r| r.as_secs_f64() >= 2.5), "{reply:?}");
}

#[test]
fn a_window_of_the_student_s_own_passes_every_step() {
    if !window_tools_present() {
        return;
    }
    let (_dir, observation) = tkinter_window("", "own");
    every_step_passes(&observation);
}

/// Every step but the redraw passes, and the redraw fails.
fn redraw_alone_fails(observation: &Observation) {
    screenshots_exist(observation);
    let failed: Vec<(Step, StepResult)> = statuses(observation)
        .into_iter()
        .filter(|&(_, status)| status != StepResult::Pass)
        .collect();
    assert_eq!(
        failed,
        [(Step::Redraw, StepResult::Fail)],
        "{observation:#?}"
    );
}

#[test]
fn a_search_on_the_gui_thread_fails_the_redraw_alone() {
    if !window_tools_present() {
        return;
    }
    let (_dir, observation) = tkinter_window("--search-on-gui-thread", "gui-thread");
    redraw_alone_fails(&observation);
    let (_, _, lost) = redraw(&observation);
    assert!(lost.len() >= 10, "the board was not drawn again: {lost:?}");
}

#[test]
fn a_swing_window_built_with_javac_passes_every_step() {
    if !window_tools_present() || !swing_available() {
        return;
    }
    let (_dir, observation) = swing_window("", "swing");
    every_step_passes(&observation);
}

/// The usual Swing mistake: the search in a button's action listener, on the Event Dispatch
/// Thread. The player's move is then drawn only together with the computer's, seconds after
/// the click: the redraw fails, alone.
#[test]
fn a_swing_search_on_the_event_dispatch_thread_fails_the_redraw_alone() {
    if !window_tools_present() || !swing_available() {
        return;
    }
    let (_dir, observation) = swing_window("--search-on-gui-thread", "swing-gui-thread");
    redraw_alone_fails(&observation);
    let (reply, held, _) = redraw(&observation);
    assert!(held, "{observation:#?}");
    assert!(reply.is_some_and(|r| r.as_secs_f64() >= 2.5), "{reply:?}");
}

/// The redraw check's blind spot: a Swing window that paints the player's move at once
/// (`paintImmediately`) and then searches on the Event Dispatch Thread is drawn again, when
/// shown, from Swing's back buffer on AWT's toolkit thread (`swing.showFromDoubleBuffer`, on by
/// default), so it still looks drawn, and passes. Should the check learn to see it, this test
/// fails and says so.
#[test]
fn a_swing_search_on_the_event_dispatch_thread_painted_first_is_not_seen() {
    if !window_tools_present() || !swing_available() {
        return;
    }
    let (_dir, observation) = swing_window(
        "--search-on-gui-thread --paint-before-search",
        "swing-gui-thread-painted",
    );
    every_step_passes(&observation);
}

/// The completed starter ([`completed_starter`]), built with its window (the default features:
/// the supplied window, FLTK) once ([`built`]), its binary copied into `dir`; the command that
/// starts it there. The first build compiles FLTK (about 2.5 minutes), which needs CMake 3.28 or
/// newer (`scripts/setup.sh gui` puts one in `target/tools/cmake`) and the X11 headers.
fn completed_starter_window(dir: &Path) -> String {
    let project = tempfile::tempdir().unwrap();
    completed_starter(project.path());
    let program = built(project.path(), &["build", "--locked"]);
    fs::copy(program, dir.join("connect_four")).unwrap();
    "./connect_four".into()
}

#[test]
fn the_supplied_window_is_found_and_flagged() {
    if !window_tools_present() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let command = completed_starter_window(dir.path());
    // Its debug build searches 4 x 5 at depth 8 for about 8 s on one thread.
    let mut observation = observe_in(dir.path(), &command, None, 8, "supplied");
    if std::env::var_os("UPDATE_WINDOW_REFERENCE").is_some() {
        store_reference(&observation, &reference_pictures()).unwrap();
        observation = observe_in(dir.path(), &command, None, 8, "supplied");
    }
    screenshots_exist(&observation);
    assert_eq!(
        statuses(&observation),
        [
            (Step::Dialog, StepResult::Pass),
            (Step::Grid, StepResult::Pass),
            (Step::Drop, StepResult::Pass),
            (Step::FullColumn, StepResult::Pass),
            (Step::GameOver, StepResult::Pass),
            (Step::Redraw, StepResult::Pass),
            (Step::OwnWindow, StepResult::Fail),
        ],
        "{observation:#?}"
    );
    let Measured::Likeness { same, .. } = check(&observation, Step::OwnWindow).measured else {
        panic!("{observation:#?}")
    };
    assert!(same > 0.99, "{same}");
}

#[test]
fn grade_student_reports_the_window_beside_the_cases() {
    if !window_tools_present() {
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let (kit, submission, reports) = (
        work.path().join("kit"),
        work.path().join("ann"),
        work.path().join("reports"),
    );
    small_kit(&kit, &QUICK_CASES);
    copy_dir(&reference_pictures(), &kit.join("window"));
    python_submission(&submission, "connect_four");
    fs::copy(window_fixture(), submission.join("window.py")).unwrap();
    let graded = graded(
        grade()
            .current_dir(&submission)
            .args(["student", "sh run", "--skip-timing", "--kit"])
            .arg(&kit)
            .arg("--report")
            .arg(&reports)
            .args(["--window", "python3 {dir}/window.py", "--window-depth", "6"]),
    );
    let gui = tests(&graded.results)
        .iter()
        .find(|test| test["name"] == "GUI (graded by hand): the window observed")
        .unwrap_or_else(|| panic!("no GUI test: {}", graded.printed));
    assert_eq!(gui["status"], "passed", "{}", describe(gui));
    assert_eq!(gui["score"], 0.0);
    let report = fs::read_to_string(reports.join("ann.md")).unwrap();
    for step in [
        "- **seen**: Dialog first",
        "- **seen**: Grid of 75 x 75 cells",
        "- **seen**: Redraws while the computer thinks",
        "- **seen**: Own window, not the supplied one",
    ] {
        assert!(report.contains(step), "{step:?} not in {report}");
    }
    assert!(reports.join("window/ann/move-1.png").is_file());
    assert!(
        graded.stdout.contains("Window (observed under Xvfb"),
        "{}",
        graded.stdout
    );
}

#[test]
fn the_display_admits_only_the_clients_it_gave_its_cookie() {
    if !window_tools_present() {
        return;
    }
    let display = Display::start(320, 240).expect("Xvfb starts");
    let admitted = |authority: &Path| {
        std::process::Command::new("xdotool")
            .arg("getmouselocation")
            .env("DISPLAY", display.name())
            .env("XAUTHORITY", authority)
            .output()
            .expect("xdotool runs")
            .status
            .success()
    };
    let job = tempfile::tempdir().unwrap();
    assert!(admitted(&display.grant(job.path()).unwrap()));
    assert!(
        !admitted(Path::new("/dev/null")),
        "a client without the cookie"
    );
}

#[test]
fn a_failed_window_build_is_no_window_and_the_cases_still_count() {
    let work = tempfile::tempdir().unwrap();
    let (kit, submission, reports) = (
        work.path().join("kit"),
        work.path().join("bob"),
        work.path().join("reports"),
    );
    small_kit(&kit, &QUICK_CASES);
    python_submission(&submission, "connect_four");
    let graded = graded(
        grade()
            .current_dir(&submission)
            .args(["student", "sh run", "--skip-timing", "--kit"])
            .arg(&kit)
            .arg("--report")
            .arg(&reports)
            .args(["--window", "{dir}/no-window", "--window-build"])
            .arg("echo 'error: could not compile `connect_four`' >&2; exit 101"),
    );
    let gui = tests(&graded.results)
        .iter()
        .find(|test| test["name"] == "GUI (graded by hand): the window observed")
        .unwrap_or_else(|| panic!("no GUI test: {}", graded.printed));
    assert_eq!(gui["status"], "failed");
    let said = gui["output"].as_str().unwrap();
    assert!(
        said.starts_with("No window: the window's build did not succeed."),
        "{said}"
    );
    assert!(reports.join("bob.window-build.log").is_file());
    assert_eq!(graded.results["score"], graded.results["max_score"]);
}
