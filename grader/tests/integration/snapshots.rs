//! Snapshot tests (insta) of what the real `grade` binary shows people, pinned in `snapshots/`
//! beside this file so that a change of wording is a reviewed change: `grade --help` and each
//! subcommand's `--help`; for three students graded with `--skip-timing` on a small kit (the
//! reference, which passes everything; the fixture student `crash`, which crashes on `winner`
//! mid-game; `weights_123`, whose heuristic gives wrong answers), the terminal report, the
//! Markdown report and Gradescope's `results.json`; the same for the reference graded with the
//! speed-up case on one CPU (`taskset -c 0`), where it is not judged; and for the three as a
//! class, what `grade class` prints (each score table and the class summary) and its gradebook.
//!
//! What depends on the machine is masked by insta's filters: times, the machine's CPUs, and a
//! Python traceback up to its last line (its frames name this checkout's paths, and their layout changes with
//! Python's version). To accept a deliberate change, review it with `cargo insta review` (or run the
//! tests with `INSTA_UPDATE=always` and read the diff); under CI (`CI` set) nothing is written
//! and a difference fails.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::support::{
    copy_dir, grade, graded, python_submission, reference_submission, small_kit, starter_supplied,
    students_kit,
};

/// The small kit: a few cases of each automatic category, a hidden one, the consistency cases
/// and the timing case (which `--skip-timing` leaves out), so that every part of a report shows.
const CASES: [&str; 9] = [
    "rules/gravity_4x4",
    "wins/diagonal_down_corner_4x4",
    "heuristic/worked_example",
    "scores/depth1",
    "scores/depth6_4x4",
    "threads/same_scores_5x5",
    "threads/same_scores_6x7",
    "threads/same_scores_10x10",
    "threads/speedup",
];

/// The students, each a submission started by `sh {dir}/run`.
const STUDENTS: [&str; 3] = ["reference", "crash", "weights_123"];

/// Regular expressions for what changes from machine to machine, and what replaces them.
const FILTERS: [(&str, &str); 8] = [
    // Why the grader had one CPU: its affinity on a larger machine, or the machine's size.
    (
        r"1 CPU \((1 of the machine's \d+, by the grader's CPU affinity|all the machine has)\)",
        "1 CPU ([why])",
    ),
    // What the sandbox had in force: it depends on the kernel and on whether grade runs as
    // root (report/words.rs pins its wording).
    (
        r"Sandbox: [^\n\\]*",
        "Sandbox: [what this machine had in force]",
    ),
    // The class summary's grading times, and whose was the longest.
    (
        r"mean [0-9.]+ s, median [0-9.]+ s, longest [0-9.]+ s \([^)]*\)",
        "mean [t] s, median [t] s, longest [t] s ([student])",
    ),
    // The uneven position's search: its depth and how the threads split the work.
    (
        r"`scores [0-9]+` on 2 threads: 2 threads at work, the busiest ran [0-9]+% of the [0-9.]+ s",
        "`scores [d]` on 2 threads: 2 threads at work, the busiest ran [n]% of the [t] s",
    ),
    (
        r"still shared the work \(the busiest ran [0-9]+% of it\)",
        "still shared the work (the busiest ran [n]% of it)",
    ),
    // Gradescope's time.
    (r#""execution_time": [0-9.]+"#, r#""execution_time": [t]"#),
    // The gradebook's time (s), before supplied_changed, speed-up, thread design, the three
    // style columns and the three of the hand scores.
    (
        r"(?m),[0-9.]+,(yes|no|),((?:[^,\n]*,){7}[^,\n]*)$",
        ",[t],$1,$2",
    ),
    // The end of a Python traceback up to its last line, in text or in a JSON string: its
    // frames name this checkout's paths, and its layout changes with Python's version.
    (
        r"(?s)standard error ends: .*?(\n|\\n)( *)(\w+Error: )",
        "standard error ends: [a Python traceback]$1$2$3",
    ),
];

/// Asserts that `text` is the snapshot `name`, once masked.
pub(crate) fn assert_snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    for (pattern, replacement) in FILTERS {
        settings.add_filter(pattern, replacement);
    }
    settings.bind(|| insta::assert_snapshot!(name, text));
}

/// Makes `dir` the submission of `student`: the reference's binary (with an unchanged copy of
/// the supplied crate, as a Rust submission has) or a Python fixture student.
fn submission(dir: &Path, student: &str) {
    if student == "reference" {
        let program = reference_submission(dir);
        fs::write(
            dir.join("run"),
            format!("cd \"$(dirname \"$0\")\"\nexec {program} \"$@\"\n"),
        )
        .unwrap();
        copy_dir(&starter_supplied(), &dir.join("supplied"));
    } else {
        python_submission(dir, student);
    }
}

/// `grade COMMAND --help`'s standard output.
fn help(mut grade: Command, command: &[&str]) -> String {
    let output = grade.args(command).arg("--help").output().unwrap();
    assert!(output.status.success(), "{command:?} --help");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_help_of_grade_and_of_each_subcommand() {
    assert_snapshot("help", &help(grade(), &[]));
    for subcommand in [
        "student", "class", "gallery", "feedback", "generate", "check", "pack", "handout", "match",
        "export", "similar",
    ] {
        assert_snapshot(&format!("help_{subcommand}"), &help(grade(), &[subcommand]));
    }
    let students = || Command::new(students_kit().join("grade"));
    assert_snapshot("help_students_kit", &help(students(), &[]));
}

/// Grades `student` alone, as `grade student 'sh run' --skip-timing` in its directory on the
/// small kit, and pins its terminal report, Markdown report and Gradescope results.
fn student_reports(student: &str) {
    let mut command = grade();
    command.arg("student").arg("sh run").arg("--skip-timing");
    pinned_reports(student, &format!("{student}_"), command);
}

/// Runs `command` (a `grade student` command line) on the small kit in `student`'s submission
/// directory, and pins its terminal report, Markdown report and Gradescope results as
/// `{prefix}terminal` and so on.
fn pinned_reports(student: &str, prefix: &str, mut command: Command) {
    let work = tempfile::tempdir().unwrap();
    let (kit, dir, reports) = (
        work.path().join("kit"),
        work.path().join(student),
        work.path().join("reports"),
    );
    small_kit(&kit, &CASES);
    submission(&dir, student);
    let graded = graded(
        command
            .current_dir(&dir)
            .arg("--kit")
            .arg(&kit)
            .arg("--supplied")
            .arg(starter_supplied())
            .arg("--report")
            .arg(&reports),
    );
    assert_snapshot(&format!("{prefix}terminal"), &graded.stdout);
    // Named after the student's folder, where grade runs.
    let report = fs::read_to_string(reports.join(format!("{student}.md"))).unwrap();
    assert_snapshot(&format!("{prefix}report_md"), &report);
    let results = serde_json::to_string_pretty(&graded.results).unwrap();
    assert_snapshot(&format!("{prefix}results_json"), &results);
}

#[test]
fn the_reports_of_a_student_who_passes_everything() {
    student_reports("reference");
}

#[test]
fn the_reports_of_a_speedup_that_one_cpu_cannot_judge() {
    // Under `taskset -c 0` nothing is timed: the reports say why and what threads were seen.
    let mut command = Command::new("taskset");
    command
        .args(["-c", "0"])
        .arg(env!("CARGO_BIN_EXE_grade"))
        .args(["student", "sh run"]);
    pinned_reports("reference", "reference_one_cpu_", command);
}

#[test]
fn the_reports_of_a_student_whose_program_crashes() {
    student_reports("crash");
}

#[test]
fn the_reports_of_a_student_with_wrong_answers() {
    student_reports("weights_123");
}

#[test]
fn the_class_summary_and_gradebook() {
    let work = tempfile::tempdir().unwrap();
    let (kit, class, csv) = (
        work.path().join("kit"),
        work.path().join("class"),
        work.path().join("grades.csv"),
    );
    small_kit(&kit, &CASES);
    for student in STUDENTS {
        submission(&class.join(student), student);
    }
    let output = grade()
        .arg("class")
        .arg(&class)
        .args(["--command", "sh {dir}/run", "--skip-timing", "--jobs", "2"])
        .arg("--kit")
        .arg(&kit)
        .arg("--supplied")
        .arg(starter_supplied())
        .arg("--csv")
        .arg(&csv)
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_snapshot("class_stdout", &stdout);
    assert_snapshot("class_gradebook_csv", &fs::read_to_string(&csv).unwrap());
}
