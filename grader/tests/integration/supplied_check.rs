//! The supplied crate check through the real `grade` binary: a class with a changed and an
//! unchanged copy of `starter/supplied` is told apart in the gradebook, the reports and the
//! summary without any change to the score; Gradescope shows the change as a test worth nothing;
//! a submission without a copy is not flagged; and without the course's copy the check is
//! skipped with one warning.

use std::fs;
use std::path::Path;

use crate::support::{
    column, copy_dir, grade, graded, kit, python_submission, rows, starter_supplied,
};

/// Puts a copy of the course's supplied crate in `dir/supplied` and changes it: one file edited,
/// one added, one removed.
fn changed_copy(dir: &Path) {
    let copy = dir.join("supplied");
    copy_dir(&starter_supplied(), &copy);
    let lib = copy.join("src/lib.rs");
    let mut text = fs::read(&lib).unwrap();
    text.extend_from_slice(b"// a fix of my own\n");
    fs::write(&lib, text).unwrap();
    fs::write(copy.join("src/extra.rs"), "").unwrap();
    fs::remove_file(copy.join("tests/window.rs")).unwrap();
}

#[test]
fn a_changed_copy_is_reported_in_the_gradebook_reports_and_summary_but_not_scored() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for name in ["changed", "same"] {
        python_submission(&class.join(name), "connect_four");
    }
    changed_copy(&class.join("changed"));
    copy_dir(&starter_supplied(), &class.join("same/supplied"));
    let csv = work.path().join("grades.csv");
    let reports = work.path().join("reports");
    let output = grade()
        .arg("class")
        .arg(&class)
        .arg("--kit")
        .arg(kit())
        .args(["--command", "sh {dir}/run", "--jobs", "2", "--skip-timing"])
        .arg("--csv")
        .arg(&csv)
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");

    let rows = rows(&csv);
    let column = rows[0].iter().position(|h| h == "supplied_changed");
    let column = column.expect("a supplied_changed column");
    let total = rows[0].iter().position(|h| h == "automatic total").unwrap();
    let cells: Vec<(&str, &str, &str)> = rows[1..]
        .iter()
        .map(|r| (r[0].as_str(), r[total].as_str(), r[column].as_str()))
        .collect();
    assert_eq!(cells, [("changed", "60", "yes"), ("same", "60", "no")]);

    let changed = fs::read_to_string(reports.join("changed.md")).unwrap();
    let head = changed.split("## Scores").next().unwrap();
    for text in [
        "The supplied crate was changed:** 3 file(s) of `supplied/`",
        "- added `src/extra.rs`\n- changed `src/lib.rs`\n- removed `tests/window.rs`\n",
        "a grader decides whether the change matters",
    ] {
        assert!(
            head.contains(text),
            "{text:?} before the scores in:\n{changed}"
        );
    }
    let same = fs::read_to_string(reports.join("same.md")).unwrap();
    assert!(
        same.contains("(`supplied/`) is the course's copy, unchanged")
            && !same.contains("changed:"),
        "{same}"
    );
    assert!(
        stdout.contains(
            "The supplied crate was changed: 3 file(s) of supplied/ differ from the course's \
             copy: added src/extra.rs, changed src/lib.rs, removed tests/window.rs."
        ),
        "{stdout}"
    );
}

#[test]
fn gradescope_shows_a_change_as_a_visible_test_worth_nothing() {
    let work = tempfile::tempdir().unwrap();
    changed_copy(work.path());
    // `false` fails every case at once: only the check is of interest here.
    let results = graded(
        grade()
            .current_dir(work.path())
            .args(["student", "false", "--skip-timing", "--kit"])
            .arg(kit()),
    )
    .results;
    let test = &results["tests"][0];
    assert_eq!(test["name"], "Supplied crate (not scored)");
    assert_eq!(test["max_score"], 0.0);
    assert_eq!(test["score"], 0.0);
    assert_eq!(test["status"], "failed");
    assert_eq!(test["visibility"], "visible");
    let output = test["output"].as_str().unwrap();
    assert!(output.contains("changed src/lib.rs"), "{output}");
    assert_eq!(results["max_score"], 60.0, "the check adds no points");
}

#[test]
fn no_copy_is_not_flagged_and_a_missing_course_copy_is_said_once() {
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    fs::create_dir_all(class.join("python")).unwrap();
    changed_copy(&class.join("rust"));
    let csv = work.path().join("grades.csv");
    let run = |extra: &[&str]| {
        let output = grade()
            .arg("class")
            .arg(&class)
            .arg("--kit")
            .arg(kit())
            .args(["--command", "false", "--skip-timing", "--csv"])
            .arg(&csv)
            .args(extra)
            .output()
            .unwrap();
        assert!(output.status.success());
        let rows = rows(&csv);
        let changed = column(&rows[0], "supplied_changed");
        let flags: Vec<String> = rows[1..]
            .iter()
            .map(|r| format!("{} {}", r[0], r[changed]))
            .collect();
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (flags, stdout, stderr)
    };
    let (flags, stdout, _) = run(&[]);
    assert_eq!(flags, ["python ", "rust yes"]);
    assert_eq!(stdout.matches("The supplied crate").count(), 1, "{stdout}");

    let nowhere = work.path().join("nowhere");
    let (flags, stdout, stderr) = run(&["--supplied", nowhere.to_str().unwrap()]);
    assert_eq!(flags, ["python ", "rust "]);
    assert!(!stdout.contains("supplied crate"), "{stdout}");
    let warning = "the course's copy of the supplied crate cannot be used";
    assert_eq!(stderr.matches(warning).count(), 1, "{stderr}");
    assert!(stderr.contains("nowhere"), "{stderr}");
}

#[test]
fn with_a_build_step_the_course_copy_is_built_and_the_submitted_one_put_back() {
    let work = tempfile::tempdir().unwrap();
    let student = work.path().join("class/changed");
    python_submission(&student, "connect_four");
    changed_copy(&student);
    let reports = work.path().join("reports");
    // The "build" shows the supplied crate it finds in its log, as a real build would compile it.
    let build = "cat supplied/src/lib.rs";
    let output = grade()
        .arg("class")
        .arg(student.parent().unwrap())
        .arg("--kit")
        .arg(kit())
        .args([
            "--command",
            "sh {dir}/run",
            "--skip-timing",
            "--build",
            build,
        ])
        .arg("--csv")
        .arg(work.path().join("grades.csv"))
        .arg("--report")
        .arg(&reports)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        fs::read(reports.join("changed.build.log")).unwrap(),
        fs::read(starter_supplied().join("src/lib.rs")).unwrap(),
        "the build saw the course's copy"
    );
    let back = fs::read_to_string(student.join("supplied/src/lib.rs")).unwrap();
    assert!(
        back.ends_with("// a fix of my own\n"),
        "the submitted copy is put back"
    );
    assert!(student.join("supplied/src/extra.rs").is_file());
    let report = fs::read_to_string(reports.join("changed.md")).unwrap();
    assert!(
        report.contains("The supplied crate was changed:** 3 file(s)")
            && report.contains("built with the course's copy")
            && report.contains("the submitted copy was put back"),
        "{report}"
    );
}
