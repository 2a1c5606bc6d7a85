//! Progress while a class is graded: on a terminal, the class's bar (students graded of all,
//! the time spent, an estimate of the time left) and each running student's case, n of m;
//! elsewhere only plain lines, as a log reads. The terminal is a pseudo-terminal made by
//! util-linux's `script`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{python_submission, small_kit, QUICK_CASES};

/// A class of two Python students and a kit of two cases, in `work`; the arguments of `grade`
/// that grade it.
fn class(work: &Path) -> Vec<String> {
    let (kit, class) = (work.join("kit"), work.join("class"));
    small_kit(&kit, &QUICK_CASES);
    for student in ["ann", "bob"] {
        python_submission(&class.join(student), "connect_four");
    }
    let path = |p: PathBuf| p.display().to_string();
    vec![
        "class".into(),
        path(class),
        "--command".into(),
        "sh {dir}/run".into(),
        "--kit".into(),
        path(kit),
        "--skip-timing".into(),
        "--csv".into(),
        path(work.join("gradebook.csv")),
    ]
}

#[test]
fn without_a_terminal_progress_is_plain_lines() {
    let work = tempfile::tempdir().unwrap();
    let output = crate::support::grade()
        .args(class(work.path()))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    assert!(!said.contains('\x1b') && !said.contains('\r'), "{said:?}");
    for line in ["graded 1/2: ann", "graded 2/2: bob"] {
        assert!(said.lines().any(|l| l == line), "{said}");
    }
}

#[test]
fn on_a_terminal_the_class_bar_and_each_student_s_case_are_shown() {
    let work = tempfile::tempdir().unwrap();
    let grade = shlex::try_join(
        std::iter::once(env!("CARGO_BIN_EXE_grade"))
            .chain(class(work.path()).iter().map(|a| a.as_str())),
    )
    .unwrap();
    // The class's summary goes to a file: only progress reaches the terminal.
    let summary = work.path().join("summary.txt");
    let command = format!(
        "{grade} > {}",
        shlex::try_quote(&summary.display().to_string()).unwrap()
    );
    let output = Command::new("script")
        .args(["-qefc", &command, "/dev/null"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown}");
    assert!(fs::read_to_string(&summary).unwrap().contains("ann"));
    for words in [
        "ann: case 1 of 2: rules/board_1x1",
        "bob: case 2 of 2: scores/depth1",
        "graded 2/2 [",
        "left",
    ] {
        assert!(shown.contains(words), "{words:?} not in {shown:?}");
    }
    assert!(!shown.contains("graded 1/2: ann"), "{shown:?}");
}
