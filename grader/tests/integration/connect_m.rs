//! The Connect-M extension graded: off in the repository's rubric (where nothing changes), on in
//! a kit of its own (two quick cases and the extension's): the reference and the plain Python
//! student earn every point of it, and a student that accepts `--connect M` but still plays
//! four in a row loses points there and nowhere else.

use std::fs;
use std::path::Path;

use crate::support::{
    copy_dir, failures, grade, graded, kit, python_submission, reference_submission, small_kit,
    tests, QUICK_CASES,
};

/// The extension's category, as the rubric names it.
const CONNECT_M: &str = "Connect M";

/// Makes `dir` a kit of the quick cases and the Connect-M extension, turned on.
fn connect_m_kit(dir: &Path) {
    small_kit(dir, &QUICK_CASES);
    copy_dir(&kit().join("extensions"), &dir.join("extensions"));
    let path = dir.join("rubric.toml");
    let mut rubric: toml::Table = toml::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let extension = rubric["extension"][0].as_table_mut().unwrap();
    assert_eq!(extension["name"].as_str(), Some(CONNECT_M));
    assert_eq!(extension["on"].as_bool(), Some(false), "off by default");
    extension.insert("on".into(), true.into());
    fs::write(&path, toml::to_string(&rubric).unwrap()).unwrap();
}

/// The results of grading the submission `submission` makes with the Connect-M kit.
fn graded_with_connect_m(submission: impl FnOnce(&Path) -> String) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let kit_dir = dir.path().join("kit");
    connect_m_kit(&kit_dir);
    let student = dir.path().join("student");
    let command = submission(&student);
    graded(
        grade()
            .args(["student", &command, "--skip-timing", "--kit"])
            .arg(&kit_dir)
            .current_dir(&student),
    )
    .results
}

/// The points earned, and those there were, in the tests of `category`.
fn points_in(results: &serde_json::Value, category: &str) -> (f64, f64) {
    let prefix = format!("{category}: ");
    tests(results)
        .iter()
        .filter(|t| t["name"].as_str().is_some_and(|n| n.starts_with(&prefix)))
        .fold((0.0, 0.0), |(earned, of), t| {
            (
                earned + t["score"].as_f64().unwrap(),
                of + t["max_score"].as_f64().unwrap(),
            )
        })
}

#[test]
fn the_reference_and_a_python_student_earn_every_point_of_connect_m() {
    for (who, results) in [
        ("reference", graded_with_connect_m(reference_submission)),
        (
            "connect_four.py",
            graded_with_connect_m(|dir| {
                python_submission(dir, "connect_four");
                "sh run".into()
            }),
        ),
    ] {
        assert_eq!(failures(&results), Vec::<String>::new(), "{who}");
        assert_eq!(points_in(&results, CONNECT_M), (10.0, 10.0), "{who}");
        assert_eq!(results["score"], results["max_score"], "{who}");
    }
}

#[test]
fn a_student_that_plays_four_in_a_row_loses_connect_m_points_only() {
    let results = graded_with_connect_m(|dir| {
        python_submission(dir, "four_in_a_row");
        "sh run".into()
    });
    let (earned, of) = points_in(&results, CONNECT_M);
    assert_eq!(of, 10.0);
    assert!(earned < 5.0, "four in a row earned {earned} of Connect M");
    let failed = failures(&results);
    assert!(!failed.is_empty());
    assert!(
        failed
            .iter()
            .all(|f| f.starts_with(&format!("\"{CONNECT_M}: "))),
        "{failed:#?}"
    );
}
