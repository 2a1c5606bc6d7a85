//! The grading kit graded: the real `grade` binary run on the real reference binary (which must
//! get every automatic point), on a plain Python student (the same), and on deliberately wrong
//! Python students, each of which must lose points in exactly its mistake's category. Also the
//! stored solutions against the reference, the grader's own errors and exit codes, and a
//! submission folder whose name is full of shell characters.

use std::fs;
use std::path::Path;

use assert_cmd::prelude::*;
use predicates::prelude::*;

use crate::support::{
    column, copy_dir, failures, grade, graded, kit, python_submission, reference_submission, rows,
    small_kit, QUICK_CASES,
};

const CATEGORIES: [&str; 3] = ["Basic gameplay", "AI", "Threading"];

/// Grades a new submission, made in a folder of its own by `submission` (which returns the
/// command that starts it there), with the repository's kit and `extra` options, as
/// Gradescope's `grade student` does; its results.json.
fn gradescope(submission: impl FnOnce(&Path) -> String, extra: &[&str]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let command = submission(dir.path());
    graded(
        grade()
            .args(["student", &command, "--kit"])
            .arg(kit())
            .args(extra)
            .current_dir(dir.path()),
    )
    .results
}

/// A submission of the fixture student `name`, started by `sh run`.
fn python_student(name: &str) -> impl FnOnce(&Path) -> String + '_ {
    move |dir| {
        python_submission(dir, name);
        "sh run".into()
    }
}

#[test]
fn the_reference_gets_every_automatic_point() {
    let results = gradescope(reference_submission, &["--skip-timing"]);
    assert_eq!(failures(&results), Vec::<String>::new());
    assert_eq!(results["score"], 60.0);
    assert_eq!(results["max_score"], 60.0);
    let tests = results["tests"].as_array().unwrap();
    assert!(tests.len() >= 39);
    for key in [
        "name",
        "score",
        "max_score",
        "status",
        "output",
        "visibility",
    ] {
        assert!(tests.iter().all(|t| t.get(key).is_some()), "{key}");
    }
    let hidden = tests
        .iter()
        .find(|t| t["name"] == "AI: scores/depth6_4x4")
        .unwrap();
    assert_eq!(hidden["visibility"], "after_due_date");
    assert!(results["execution_time"].is_number());
}

/// The speed-up case's test in Gradescope results.
fn speedup_test(results: &serde_json::Value) -> serde_json::Value {
    results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "Threading: threads/speedup")
        .expect("the timing case ran")
        .clone()
}

#[test]
fn the_reference_speedup_is_measured_with_consistent_answers() {
    // The credit depends on the machine's load, so only the measurement itself is asserted: the
    // answers agreed, the pool was seen, and the speed-up was either judged (with the uneven
    // position measured for the hand grader) or not counted with the reason said.
    let results = gradescope(reference_submission, &[]);
    let speedup = speedup_test(&results);
    let output = results["output"].as_str().unwrap();
    assert!(
        output.contains("Thread design seen (for the hand grader): a pool: the same 2 threads"),
        "{output}"
    );
    let judged = output.contains("% credit.");
    // Timed (unless on 1 CPU): 7 rounds at least, up to 21 while the credit is unsettled.
    let rounds = output
        .split_once(" rounds: ")
        .and_then(|(before, _)| before.rsplit(' ').next()?.parse::<usize>().ok());
    assert!(
        output.contains("1 CPU") || rounds.is_some_and(|n| (7..=21).contains(&n)),
        "{rounds:?} rounds: {output}"
    );
    if judged {
        assert!(
            output.contains("speed-up")
                && output.contains("With columns 1, 3 and 5 full (not scored): `scores"),
            "{output}"
        );
    } else {
        assert!(
            output.contains("the machine was busy: grade again") || output.contains("1 CPU"),
            "{output}"
        );
    }
    assert_eq!(
        results["score"].as_f64().unwrap() - speedup["score"].as_f64().unwrap(),
        60.0
    );
    // Judged or not counted (pending, 0 of its points until graded again), it is worth its 10.
    assert_eq!(results["max_score"], 70.0, "{output}");
}

#[test]
fn stored_solutions_are_what_the_reference_says_now() {
    grade()
        .args(["check", "--kit"])
        .arg(kit())
        .assert()
        .success()
        .stderr(predicate::str::contains("match the reference"));
}

/// A copy of the kit with `from` replaced by `to` in its file `file`.
fn broken_kit(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    let copy = tempfile::tempdir().unwrap();
    copy_dir(&kit(), copy.path());
    let path = copy.path().join(file);
    let text = fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{file} holds {from:?}");
    fs::write(&path, text.replace(from, to)).unwrap();
    copy
}

#[test]
fn a_stale_solution_is_named() {
    let copy = broken_kit(
        "cases/heuristic/worked_example.solution",
        "\"= 19\"",
        "\"= 18\"",
    );
    grade()
        .args(["check", "--kit"])
        .arg(copy.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("worked_example.solution"));
}

#[test]
fn bad_arguments_and_broken_kits_get_clean_errors() {
    // No subcommand: the usage, with the subcommands listed.
    grade().assert().code(2).stderr(
        predicate::str::contains("Usage: grade <COMMAND>")
            .and(predicate::str::contains("  student ").and(predicate::str::contains("  class "))),
    );
    // The old flags are refused, not taken for something else.
    grade()
        .args(["--student", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '--student'"));
    grade()
        .args(["class", "class/", "--command", "x", "--jobs", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '0' for '--jobs <JOBS>'",
        ));
    grade()
        .args(["student", "x", "--jobs", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unexpected argument '--jobs'"));
    grade()
        .args(["student", "x", "--kit", "/nonexistent"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("/nonexistent: not a kit"));
    // A report folder in the class folder would be graded as a student on the next run.
    let class = tempfile::tempdir().unwrap();
    std::fs::create_dir(class.path().join("ann")).unwrap();
    grade()
        .args(["class", "--command", "x", "--report"])
        .arg(class.path().join("reports"))
        .arg(class.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("inside the class folder"));
    assert!(!class.path().join("reports").exists());
    let copy = broken_kit("cases/rules/gravity_4x4.toml", "play 2\n", "plya 2\n");
    grade()
        .args(["student", "x", "--kit"])
        .arg(copy.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("gravity_4x4.toml:13: `plya 2`"));
}

/// Each fixture and the categories in which it must lose points (and nowhere else).
const STUDENTS: [(&str, &[&str]); 20] = [
    ("connect_four", &[]),
    ("no_diagonal", &["Basic gameplay"]),
    ("one_diagonal", &["Basic gameplay"]),
    ("no_gap_win", &["Basic gameplay"]),
    ("full_column", &["Basic gameplay"]),
    ("column_before_end", &["Basic gameplay"]),
    ("row_off_by_one", &["Basic gameplay"]),
    ("always_red", &["Basic gameplay"]),
    ("crash", &["Basic gameplay"]),
    ("garbage", &["Basic gameplay"]),
    ("answers_comments", &["Basic gameplay"]),
    ("no_room_rule", &["AI"]),
    ("weights_123", &["AI"]),
    ("no_negation", &["AI"]),
    ("depth_off_by_one", &["AI"]),
    ("hang", &["AI"]),
    ("tie_is_inf", &["AI"]),
    ("tie_before_win", &["AI"]),
    ("leftmost_best", &["AI"]),
    // Its Threading cases fail but are worth nothing by themselves: they take the speed-up's
    // points away (see `values_that_change_with_the_thread_count_forfeit_the_speedup`).
    ("thread_dependent", &[]),
];

#[test]
fn each_mutant_loses_points_in_exactly_its_category() {
    let work = tempfile::tempdir().unwrap();
    let submissions = work.path().join("class");
    for (name, _) in STUDENTS {
        python_submission(&submissions.join(name), name);
    }
    let csv = work.path().join("grades.csv");
    let reports = work.path().join("reports");
    grade()
        .arg("class")
        .arg(&submissions)
        .arg("--kit")
        .arg(kit())
        .args([
            "--command",
            "sh {dir}/run",
            "--jobs",
            "2",
            "--skip-timing",
            "--csv",
        ])
        .arg(&csv)
        .arg("--report")
        .arg(&reports)
        .assert()
        .success();
    let text = fs::read_to_string(&csv).unwrap();
    let rows = rows(&csv);
    assert_eq!(rows[0][0], "student");
    let full = [30.0, 30.0, 0.0];
    let mut problems = Vec::new();
    for cells in &rows[1..] {
        let (_, expected) = STUDENTS
            .iter()
            .find(|(n, _)| *n == cells[0])
            .expect("a known student");
        for (i, category) in CATEGORIES.iter().enumerate() {
            let score: f64 = cells[1 + i].parse().unwrap();
            let lost = score < full[i];
            if lost != expected.contains(category) {
                problems.push(format!("{}: {category} {score}", cells[0]));
            }
        }
        assert_eq!(cells[4], "", "GUI is graded by hand");
    }
    assert_eq!(text.lines().count(), STUDENTS.len() + 1);
    assert!(problems.is_empty(), "{problems:#?}\n{text}");
    // A four completed in its gap is missed on every kind of line with a gap: one case each, far
    // more than the half point that five in a row alone cost such a program.
    let gap = rows.iter().find(|cells| cells[0] == "no_gap_win").unwrap();
    let basic: f64 = gap[1].parse().unwrap();
    assert!(basic <= 28.0, "the gap costs little: {basic}\n{text}");
    for (name, reason) in [
        ("crash", "the program exited: exit status: 1"),
        ("hang", "no answer within the time limit"),
        ("garbage", "not a protocol response"),
        ("always_red", "not random, so the case earns no points"),
        ("always_red", "random_first_player (Basic gameplay): 0 of 2"),
        ("tie_before_win", "scores/last_cell_win (AI): 0 of 1 points"),
        ("no_gap_win", "wins/horizontal_gap_5x6"),
        ("no_gap_win", "wins/diagonal_up_gap_6x7"),
        ("no_gap_win", "wins/diagonal_down_gap_5x5"),
        (
            "leftmost_best",
            "the 12 random choices of genmove/random_among_best",
        ),
        ("no_diagonal", "skipped: depends on line"),
        ("full_column", "? column full"),
        ("column_before_end", "rules/failure_order"),
        ("tie_is_inf", "scores/board_filling_move"),
        ("answers_comments", "rules/protocol_errors"),
        ("thread_dependent", "threads/same_scores_6x7"),
    ] {
        let report = fs::read_to_string(reports.join(format!("{name}.md"))).unwrap();
        assert!(report.contains(reason), "{name}: {report}");
        assert!(
            report.contains("- [ ] (3) A click on any button of a column"),
            "the manual checklist"
        );
    }
}

#[test]
fn values_that_change_with_the_thread_count_forfeit_the_speedup() {
    // Whatever the machine measures, the speed-up earns nothing when the values differ between
    // thread counts: so this timing test does not depend on the load.
    let results = gradescope(python_student("thread_dependent"), &[]);
    let speedup = speedup_test(&results);
    assert_eq!(speedup["score"], 0.0, "{speedup}");
    let output = speedup["output"].as_str().unwrap();
    assert!(
        output.contains("No credit: this counts only when") && output.contains("same_scores"),
        "{output}"
    );
}

#[test]
fn a_folder_named_with_spaces_and_shell_characters_is_graded_as_any_other() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &QUICK_CASES);
    let name = "Ann Lee $(touch pwned)";
    python_submission(&work.path().join("class").join(name), "connect_four");
    let csv = work.path().join("grades.csv");
    grade()
        .current_dir(work.path())
        .args(["class", "class", "--kit", "kit", "--skip-timing", "--csv"])
        .arg(&csv)
        .args(["--command", "python3 {dir}/connect_four.py"])
        .assert()
        .success();
    let rows = rows(&csv);
    assert_eq!(rows[1][0], name, "{rows:?}");
    let total = column(&rows[0], "automatic total");
    assert_eq!(rows[1][total], "2", "{rows:?}");
    let made: Vec<_> = walk(work.path())
        .into_iter()
        .filter(|path| path.ends_with("pwned"))
        .collect();
    assert!(made.is_empty(), "the folder's name ran: {made:?}");
}

/// Every path under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .flat_map(|entry| {
            let path = entry.unwrap().path();
            let mut paths = if path.is_dir() {
                walk(&path)
            } else {
                Vec::new()
            };
            paths.push(path);
            paths
        })
        .collect()
}

#[test]
fn a_student_whose_sandbox_cannot_be_set_up_is_not_graded_and_the_run_fails() {
    let work = tempfile::tempdir().unwrap();
    let kit = work.path().join("kit");
    small_kit(&kit, &QUICK_CASES);
    python_submission(&work.path().join("ann"), "connect_four");
    // The report directory inside the student's folder: the sandbox refuses to let them reach it.
    let output = grade()
        .current_dir(work.path().join("ann"))
        .args(["student", "python3 connect_four.py", "--kit", "../kit"])
        .args(["--skip-timing", "--report", "reports"])
        .output()
        .expect("grade starts");
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("not graded: the sandbox could not be set up, so no case was run")
            && said.contains("must be out of students' reach"),
        "{said}"
    );
    // A class whose gradebook is inside one student's folder: that student is named, the
    // others graded. (A report folder there is refused before anyone is graded.)
    python_submission(&work.path().join("class/bob"), "connect_four");
    fs::rename(work.path().join("ann"), work.path().join("class/ann")).unwrap();
    let csv = work.path().join("class/ann/grades.csv");
    let output = grade()
        .current_dir(work.path())
        .args(["class", "class", "--kit", "kit", "--skip-timing", "--csv"])
        .arg(&csv)
        .args(["--command", "python3 {dir}/connect_four.py"])
        .output()
        .expect("grade starts");
    assert_eq!(output.status.code(), Some(1));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("1 of 2 students were not graded") && said.contains("\n  ann: "),
        "{said}"
    );
    let rows = rows(&csv);
    let (total, build) = (
        column(&rows[0], "automatic total"),
        column(&rows[0], "build"),
    );
    assert_eq!(
        [&rows[1][total], &rows[1][build]],
        ["", "not graded"],
        "{rows:?}"
    );
    assert_eq!(rows[2][total], "2", "{rows:?}");
}
