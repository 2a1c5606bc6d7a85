//! Reports named after the student: `grade student --name NAME` puts the name in the report's
//! title, its file name and its gallery page; without it, the folder `grade` runs in names the
//! student, unless it names nobody (Gradescope's `submission`), when the command does, as
//! before. (`run_autograder` passes the name from Gradescope's metadata: see [`gradescope`].)
//!
//! [`gradescope`]: crate::gradescope

use std::fs;
use std::path::Path;

use crate::support::{grade, graded, python_submission, small_kit, QUICK_CASES};

/// Grades the Python submission in the folder `folder` of `work` with `extra` arguments,
/// writing its report into `work/reports`; returns the report folder's Markdown files.
fn reports_of(work: &Path, folder: &str, extra: &[&str]) -> Vec<String> {
    let (kit, dir, reports) = (work.join("kit"), work.join(folder), work.join("reports"));
    if !kit.exists() {
        small_kit(&kit, &QUICK_CASES);
    }
    python_submission(&dir, "connect_four");
    let _ = fs::remove_dir_all(&reports);
    graded(
        grade()
            .current_dir(&dir)
            .args(["student", "sh run", "--skip-timing", "--kit"])
            .arg(&kit)
            .arg("--report")
            .arg(&reports)
            .args(extra),
    );
    let mut names: Vec<String> = fs::read_dir(&reports)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_name_given_titles_the_report_and_names_its_files() {
    let work = tempfile::tempdir().unwrap();
    assert_eq!(
        reports_of(work.path(), "anything", &["--name", "Ann Lee"]),
        ["Ann_Lee.md"]
    );
    let reports = work.path().join("reports");
    let report = fs::read_to_string(reports.join("Ann_Lee.md")).unwrap();
    assert!(
        report.lines().next().unwrap().ends_with(": Ann Lee"),
        "{report}"
    );
    assert!(reports.join("gallery/Ann_Lee.html").is_file());
}

#[test]
fn without_a_name_the_folder_names_the_student_unless_it_names_nobody() {
    let work = tempfile::tempdir().unwrap();
    assert_eq!(reports_of(work.path(), "bob_ray", &[]), ["bob_ray.md"]);
    assert_eq!(reports_of(work.path(), "submission", &[]), ["sh_run.md"]);
}

#[test]
fn an_empty_name_is_refused() {
    let refused = grade()
        .args(["student", "true", "--name", ""])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
}
