//! The style facts (`--style`) through the real `grade`: a class of two graded on two small
//! cases, each submission's program the reference's binary (the facts are of the sources): the
//! completed starter, clean for clippy and rustfmt, whose `main.rs` and `window.rs` (which the
//! completion leaves as shipped) keep the starter's placeholders for name, course and date, and
//! the fixture `style/sloppy`, whose headers lack items or keep the starter's placeholders, with
//! a long function, three clippy warnings, two files rustfmt would change and a Python file no
//! lint is set for. The lints run in each student's sandbox, as the build would. What the
//! Markdown report says of the sloppy one is pinned by a snapshot; Gradescope's zero-point test
//! is checked on `grade student`.

use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use crate::support::{
    build_root, column, completed_starter, copy_dir, grade, graded, reference_submission, rows,
    small_kit, tests,
};

/// The small kit's cases: one of each category the held-out cases are of.
const CASES: [&str; 2] = ["rules/gravity_4x4", "scores/depth1"];

/// `grade ...` with the lints' cargo building into the directory `name` of this test's own
/// (one per test: the sandbox hands a writable build directory to its job's user, so two
/// gradings at once must not share one; `grade class` leaves it out, each student building in
/// their own), as the graders build, whatever flags this test run was given.
fn grade_with_lints(name: &str) -> Command {
    let mut grade = grade();
    grade
        .env(
            "CARGO_TARGET_DIR",
            build_root().join("style-facts").join(name),
        )
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("CARGO_BUILD_RUSTFLAGS");
    grade
}

/// The Markdown report's style section, up to the next section.
fn style_section(report: &str) -> &str {
    let start = report.find("## Style facts").expect("a style section");
    let rest = &report[start..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// The fixture student with the style mistakes.
fn sloppy() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/style/sloppy")
}

#[test]
fn a_class_s_style_facts_are_gathered_and_reported() {
    let work = tempfile::tempdir().unwrap();
    let (class, kit, reports) = (
        work.path().join("class"),
        work.path().join("kit"),
        work.path().join("reports"),
    );
    let completed = class.join("completed");
    completed_starter(&completed);
    copy_dir(&sloppy(), &class.join("sloppy"));
    for student in ["completed", "sloppy"] {
        reference_submission(&class.join(student));
    }
    small_kit(&kit, &CASES);
    let csv = work.path().join("gradebook.csv");
    let started = Instant::now();
    let output = grade_with_lints("class")
        .arg("class")
        .arg(&class)
        .args([
            "--command",
            "{dir}/connect_four",
            "--skip-timing",
            "--style",
        ])
        .arg("--kit")
        .arg(&kit)
        .arg("--report")
        .arg(&reports)
        .arg("--csv")
        .arg(&csv)
        .output()
        .expect("grade starts");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{printed}");
    eprintln!(
        "style facts: a class of two graded with --style in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // The shared build directory this test gave is left out: each student's lints built into
    // their own target/, on their own disk, gone with their sandbox.
    assert!(
        printed.contains("CARGO_TARGET_DIR") && printed.contains("is left out of the students"),
        "{printed}"
    );
    for student in ["completed", "sloppy"] {
        assert!(
            !class.join(student).join("target").exists(),
            "{student}: {printed}"
        );
    }

    let rows = rows(&csv);
    let cells = |row: &[String]| {
        ["header items missing", "lint", "longest function"].map(|name| {
            let cell = &row[column(&rows[0], name)];
            cell.clone()
        })
    };
    assert_eq!(
        cells(&rows[1])[..2],
        ["6", "cargo clippy 0; cargo fmt --check 0"],
        "{printed}"
    );
    assert_eq!(
        cells(&rows[2]),
        ["13", "cargo clippy 3; cargo fmt --check 2", "19"],
        "{printed}"
    );
    let report = fs::read_to_string(reports.join("sloppy.md")).unwrap();
    insta::assert_snapshot!("sloppy_style_md", style_section(&report));
    assert!(
        reports.join("sloppy.lint.cargo_clippy.log").is_file(),
        "the lint's log is kept beside the reports"
    );
}

#[test]
fn gradescope_shows_the_facts_as_a_zero_point_test() {
    let dir = tempfile::tempdir().unwrap();
    let submission = dir.path().join("sloppy");
    copy_dir(&sloppy(), &submission);
    let command = reference_submission(&submission);
    let kit = dir.path().join("kit");
    small_kit(&kit, &CASES);
    let graded = graded(
        grade_with_lints("gradescope")
            .current_dir(&submission)
            .args(["student", &command, "--skip-timing", "--style", "--kit"])
            .arg(&kit),
    );
    let facts = tests(&graded.results)
        .iter()
        .find(|t| t["name"] == "Programming style: facts (not scored)")
        .unwrap_or_else(|| panic!("no style test: {}", graded.printed));
    assert_eq!(facts["max_score"], 0.0);
    assert_eq!(facts["status"], "failed");
    let output = facts["output"].as_str().unwrap();
    assert!(output.contains("cargo clippy: 3 warnings."), "{output}");
    assert!(
        output.contains("src/helper.rs: missing what the file holds, name"),
        "{output}"
    );
    assert!(
        graded.stdout.contains("Style facts (not scored"),
        "{}",
        graded.stdout
    );
}
