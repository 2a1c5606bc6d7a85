//! What a course checks before handing the assignment out, through the real `grade`: the
//! handout's placeholders are exactly the kit's list and grading/README.md's table, `grade
//! handout` names each one left in a copy and passes a filled-in one, and every document that
//! says what the students' `grade` holds says what the packed one really has.

use std::fs;
use std::process::Command;

use connect_four_grader::kit::handout::{left, PLACEHOLDERS};

use crate::support::{grade, repository, students_kit};

fn read(name: &str) -> String {
    let path = repository().join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of grading/README.md's placeholder table: (name, what to write there).
fn listed_in_the_guide() -> Vec<(String, String)> {
    let guide = read("grading/README.md");
    let table = guide
        .split("<!-- BEGIN placeholders")
        .nth(1)
        .and_then(|rest| rest.split("<!-- END placeholders").next())
        .expect("grading/README.md lists the placeholders between BEGIN and END marks");
    table
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split(" | ").collect();
            let name = cells.first()?.strip_prefix("| `[[")?.strip_suffix("]]`")?;
            let what = cells.get(1)?.strip_suffix(" |")?;
            Some((name.to_string(), what.to_string()))
        })
        .collect()
}

#[test]
fn the_handout_s_placeholders_are_the_kit_s_and_the_guide_s() {
    let kit: Vec<(String, String)> = PLACEHOLDERS
        .iter()
        .map(|p| (p.name.to_string(), p.what.to_string()))
        .collect();
    assert_eq!(listed_in_the_guide(), kit);
    let marks = left(&read("handout.md"));
    let unknown: Vec<String> = marks
        .iter()
        .filter(|m| m.what.is_none())
        .map(|m| format!("handout.md:{}: [[{}]]", m.line, m.name))
        .collect();
    assert!(unknown.is_empty(), "marks not in the list: {unknown:?}");
    for placeholder in PLACEHOLDERS {
        assert!(
            marks.iter().any(|m| m.name == placeholder.name),
            "[[{}]] is listed but not in handout.md",
            placeholder.name
        );
    }
}

#[test]
fn grade_handout_names_what_is_left_and_passes_a_filled_copy() {
    let work = tempfile::tempdir().unwrap();
    let copy = work.path().join("handout.md");
    let original = read("handout.md");
    fs::write(&copy, &original).unwrap();
    let output = grade().arg("handout").arg(&copy).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    for placeholder in PLACEHOLDERS {
        assert!(
            stderr.contains(&format!("[[{}]]: {}", placeholder.name, placeholder.what)),
            "{stderr}"
        );
    }
    let mut filled = original;
    for (placeholder, text) in PLACEHOLDERS.iter().zip([
        "12 January",
        "19 January",
        "26 January",
        "2 February, 23:59 (Eastern)",
        "10% of the points per day started, at most 50%.",
    ]) {
        filled = filled.replace(&format!("[[{}]]", placeholder.name), text);
    }
    fs::write(&copy, &filled).unwrap();
    let output = grade().arg("handout").arg(&copy).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A typo of a placeholder is left behind too.
    fs::write(&copy, format!("{filled}\nDue [[DUE DAET]].\n")).unwrap();
    let output = grade().arg("handout").arg(&copy).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("[[DUE DAET]]: not a placeholder"),
        "{stderr}"
    );
}

/// The subcommands of a `grade --help`, `help` left out.
fn subcommands(grade: &mut Command) -> Vec<String> {
    let help = grade.arg("--help").output().expect("grade runs");
    let mut found = crate::handout::subcommands(&String::from_utf8_lossy(&help.stdout));
    found.retain(|name| name != "help");
    found
}

#[test]
fn every_document_says_what_the_students_grade_really_holds() {
    let students = subcommands(&mut Command::new(students_kit().join("grade")));
    let course = subcommands(&mut grade());
    assert!(students.iter().all(|s| course.contains(s)));
    let named: Vec<String> = students.iter().map(|s| format!("`{s}`")).collect();
    let (last, first) = named
        .split_last()
        .expect("the students' grade has subcommands");
    let phrase = format!("has {} and {last} only", first.join(", "));
    for document in ["README.md", "grading/README.md", "handout.md"] {
        let text = read(document)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            text.contains(&phrase),
            "{document} does not say the students' grade {phrase}"
        );
    }
}
