//! The gradebook put in the layouts learning platforms import, a row per student (each of a
//! group's students gets the group's grade):
//!
//! - **Canvas** (Grades, Import): `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`,
//!   then a column titled with the assignment's title, which Canvas makes a new manual-entry
//!   column; a `Points Possible` row first, as Canvas's own export has. Students are matched by
//!   SIS User ID (the student id) and SIS Login ID (the email); `ID`, Canvas's own number, is
//!   left blank.
//! - **Moodle** (Import, CSV file): `Email address`, `ID number`, the assignment's title, and
//!   `Feedback` (the graders' comments, and the lateness); the import maps email or ID number
//!   to the user, and the grade and feedback columns to a grade item.
//! - **Gradescope** (the manually graded questions' scores): `Name`, `SID`, `Email`, one
//!   column per category part graded by hand, and `Late penalty`.
//!
//! The grade is the gradebook's `final total` (the total, less the late penalty), else its
//! `total`; a student without one yet (hand scoring not done, a speed-up not counted) has a
//! blank cell, which the platforms read as no grade. Those, and the rows that name nobody the
//! platform could match, are told in [`Layout`] for the command to say. Every cell that came
//! from a student or a grader is made inert ([`inert::cell`]).

use super::gradebook::{self, GradebookError, EMAIL, FINAL_TOTAL, LATE_PENALTY, MEMBERS, NAME};
use super::inert;
use super::words::points;
use crate::kit::roster::{members, Member, Roster};
use crate::kit::Rubric;

/// One row of the gradebook, as the exports need it.
#[derive(Clone, Debug, PartialEq)]
pub struct Graded {
    /// The submission folder.
    pub folder: String,
    /// Its students.
    pub members: Vec<Member>,
    /// The grade, if there is one yet.
    pub grade: Option<String>,
    /// The late penalty's points (blank without a late policy).
    pub penalty: String,
    /// How late it came (`1 day 3 h`, `on time`; blank without a late policy).
    pub late: String,
    /// Each hand-graded part's points, in rubric order (blank until scored).
    pub hand: Vec<String>,
    /// The graders' comments.
    pub comments: String,
}

/// The gradebook `text` (as `grade class` wrote it, the hand scores merged) for `rubric`, each
/// row's students completed or overridden by `roster` (which names the rows it has no
/// student for).
pub fn read(
    text: &str,
    rubric: &Rubric,
    roster: Option<&Roster>,
) -> Result<Vec<Graded>, GradebookError> {
    let rows = gradebook::parse(text)?;
    let Some((header, rows)) = rows.split_first() else {
        return Err(GradebookError("the gradebook is empty".into()));
    };
    let at = |name: &str| header.iter().position(|h| h == name);
    let need = |name: &str| {
        at(name).ok_or_else(|| {
            GradebookError(format!(
                "the gradebook has no column {name:?}: was it written by grade class?"
            ))
        })
    };
    let total = need("total")?;
    let comments = need("hand comments")?;
    let hand: Vec<usize> = rubric
        .categories
        .iter()
        .flat_map(|c| c.parts())
        .filter(|p| !p.automatic)
        .map(|p| need(&format!("{} ({})", p.name, points(p.points))))
        .collect::<Result<_, _>>()?;
    let (final_total, penalty, late) = (at(FINAL_TOTAL), at(LATE_PENALTY), at("late"));
    let lines = |row: &[String], column: Option<usize>| -> Vec<String> {
        match column.and_then(|c| row.get(c)).map(String::as_str) {
            None | Some("") => Vec::new(),
            Some(cell) => cell.split(MEMBERS).map(inert::uncell).collect(),
        }
    };
    let cell = |row: &[String], column: Option<usize>| {
        column.and_then(|c| row.get(c)).cloned().unwrap_or_default()
    };
    Ok(rows
        .iter()
        .map(|row| {
            let folder = row.first().cloned().unwrap_or_default();
            let (ids, names, emails) = (
                lines(row, at(gradebook::STUDENT_ID)),
                lines(row, at(NAME)),
                lines(row, at(EMAIL)),
            );
            let count = ids.len().max(names.len()).max(emails.len());
            let nth = |list: &[String], n: usize| list.get(n).cloned().unwrap_or_default();
            let known: Vec<Member> = (0..count)
                .map(|n| Member {
                    student_id: nth(&ids, n),
                    name: nth(&names, n),
                    email: nth(&emails, n),
                })
                .collect();
            let grade = match final_total {
                Some(column) => cell(row, Some(column)),
                None => cell(row, Some(total)),
            };
            Graded {
                members: members(&folder, roster, &known).0,
                folder,
                grade: Some(grade).filter(|g| !g.is_empty()),
                penalty: cell(row, penalty),
                late: cell(row, late),
                hand: hand.iter().map(|&c| cell(row, Some(c))).collect(),
                comments: cell(row, Some(comments)),
            }
        })
        .collect())
}

/// An export's text, and what the instructor should be told about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The CSV file.
    pub text: String,
    /// The students whose grade is blank: no final total yet.
    pub blank: Vec<String>,
    /// The gradebook's rows that name no student the platform could match (no student id
    /// and no email): left out.
    pub unmatched: Vec<String>,
}

/// Each student of `graded` that the platform can match (a student id or an email) with
/// their submission; the others told in the layout's lists.
fn students(graded: &[Graded]) -> (Vec<(&Member, &Graded)>, Vec<String>, Vec<String>) {
    let (mut rows, mut blank, mut unmatched) = (Vec::new(), Vec::new(), Vec::new());
    for submission in graded {
        let matched: Vec<&Member> = submission
            .members
            .iter()
            .filter(|m| !m.student_id.is_empty() || !m.email.is_empty())
            .collect();
        if matched.is_empty() {
            unmatched.push(submission.folder.clone());
        }
        for member in matched {
            if submission.grade.is_none() {
                blank.push(who(member));
            }
            rows.push((member, submission));
        }
    }
    (rows, blank, unmatched)
}

/// A student, as a message names them: their name, else id, else email.
fn who(member: &Member) -> String {
    [&member.name, &member.student_id, &member.email]
        .into_iter()
        .find(|f| !f.is_empty())
        .cloned()
        .unwrap_or_default()
}

/// Writes `rows` as CSV, quoted where needed, each ended by `\n`.
fn write(rows: Vec<Vec<String>>) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .flexible(true)
        .from_writer(Vec::new());
    for row in rows {
        writer
            .write_record(row)
            .expect("CSV written into memory cannot fail");
    }
    let bytes = writer
        .into_inner()
        .expect("CSV written into memory cannot fail");
    String::from_utf8(bytes).expect("CSV of text is text")
}

/// Canvas's gradebook import for a new column titled with `rubric`'s title.
pub fn canvas(rubric: &Rubric, graded: &[Graded]) -> Layout {
    let (students, blank, unmatched) = students(graded);
    let possible: f64 = rubric.categories.iter().map(|c| c.points).sum();
    let mut rows = vec![
        [
            "Student",
            "ID",
            "SIS User ID",
            "SIS Login ID",
            "Section",
            &inert::cell(&rubric.title),
        ]
        .map(String::from)
        .to_vec(),
        ["    Points Possible", "", "", "", "", &points(possible)]
            .map(String::from)
            .to_vec(),
    ];
    for (member, submission) in students {
        rows.push(vec![
            inert::cell(&member.name),
            String::new(),
            inert::cell(&member.student_id),
            inert::cell(&member.email),
            String::new(),
            submission.grade.clone().unwrap_or_default(),
        ]);
    }
    Layout {
        text: write(rows),
        blank,
        unmatched,
    }
}

/// The feedback Moodle shows a student: the graders' comments, then the lateness.
fn feedback(submission: &Graded) -> String {
    let mut parts: Vec<String> = submission
        .comments
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if !submission.late.is_empty() && submission.late != "on time" {
        parts.push(format!(
            "Late: {} ({} points off)",
            submission.late, submission.penalty
        ));
    }
    inert::cell(&parts.join(" | "))
}

/// Moodle's "Import grades: CSV file", a grade column titled with `rubric`'s title and the
/// feedback beside it.
pub fn moodle(rubric: &Rubric, graded: &[Graded]) -> Layout {
    let (students, blank, unmatched) = students(graded);
    let mut rows = vec![vec![
        "Email address".to_string(),
        "ID number".to_string(),
        inert::cell(&rubric.title),
        "Feedback".to_string(),
    ]];
    for (member, submission) in students {
        rows.push(vec![
            inert::cell(&member.email),
            inert::cell(&member.student_id),
            submission.grade.clone().unwrap_or_default(),
            feedback(submission),
        ]);
    }
    Layout {
        text: write(rows),
        blank,
        unmatched,
    }
}

/// The scores of `rubric`'s parts graded by hand, and the late penalty, per student, for
/// Gradescope's manually graded questions. A student is blank here only when no hand score
/// of theirs is typed yet.
pub fn gradescope(rubric: &Rubric, graded: &[Graded]) -> Layout {
    let (students, _, unmatched) = students(graded);
    let mut header: Vec<String> = ["Name", "SID", "Email"].map(String::from).to_vec();
    header.extend(
        rubric
            .categories
            .iter()
            .flat_map(|c| c.parts())
            .filter(|p| !p.automatic)
            .map(|p| inert::cell(&p.name)),
    );
    header.push("Late penalty".into());
    let mut rows = vec![header];
    let mut blank = Vec::new();
    for (member, submission) in students {
        if submission.hand.iter().any(String::is_empty) {
            blank.push(who(member));
        }
        let mut row = vec![
            inert::cell(&member.name),
            inert::cell(&member.student_id),
            inert::cell(&member.email),
        ];
        row.extend(submission.hand.iter().cloned());
        row.push(submission.penalty.clone());
        rows.push(row);
    }
    Layout {
        text: write(rows),
        blank,
        unmatched,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::hand::{CategoryMarks, HandScores, Marks};
    use crate::kit::late::{Lateness, Moment};
    use crate::kit::submitted::{Source, Submitted};
    use crate::report::gradebook::{Late, Who};
    use std::collections::BTreeMap;

    /// A class's gradebook: a group (one of it named as a formula) graded by hand and late,
    /// a student on time whose hand scoring is not done, and a folder nobody is named for.
    fn gradebook() -> (Rubric, String) {
        let rubric = fixtures::hand_rubric();
        let students = ["team", "bob", "stray"]
            .map(|name| fixtures::student(name, vec![fixtures::case_result("a", "AI", 1.0)], 1));
        let member = |id: &str, name: &str| Member {
            student_id: id.into(),
            name: name.into(),
            email: format!("{id}@x.edu"),
        };
        let submitted = Some(Submitted {
            at: Moment::parse("2026-11-21T10:00:00-08:00").unwrap(),
            source: Source::Gradescope,
        });
        let late = |hours: i64, periods: i64, penalty: f64| {
            Late::Judged(Lateness {
                late: jiff::SignedDuration::from_hours(hours),
                periods,
                penalty,
            })
        };
        let mut who = BTreeMap::new();
        who.insert(
            "team".to_string(),
            Who {
                members: vec![
                    member("1", "Lee, \"Ann\""),
                    member("2", "=cmd|' /C calc'!A0"),
                ],
                submitted,
                late: late(27, 2, 1.2),
            },
        );
        who.insert(
            "bob".to_string(),
            Who {
                members: vec![member("3", "Bob")],
                submitted,
                late: late(0, 0, 0.0),
            },
        );
        let mut hand = HandScores::default();
        let mut marks = Marks::new();
        marks.insert(
            "GUI".into(),
            CategoryMarks {
                items: vec![Some(3.0), Some(1.5)],
                comment: "Tidy grid,\nbut =SUM(A1) no dialog".into(),
            },
        );
        hand.students.insert("team".into(), marks);
        let text = gradebook::csv(&rubric, &[], &students, &HandScores::default());
        let joined = gradebook::join(&text, &who).unwrap();
        (
            rubric.clone(),
            gradebook::merge(&joined, &rubric, &hand).unwrap(),
        )
    }

    #[test]
    fn each_layout_is_pinned() {
        let (rubric, text) = gradebook();
        let graded = read(&text, &rubric, None).unwrap();
        for (name, layout) in [
            ("canvas", canvas(&rubric, &graded)),
            ("moodle", moodle(&rubric, &graded)),
            ("gradescope", gradescope(&rubric, &graded)),
        ] {
            for start in ["\n=", ",=", "\"="] {
                assert!(!layout.text.contains(start), "{name}: {}", layout.text);
            }
            assert_eq!(layout.unmatched, ["stray"], "{name}");
            insta::assert_snapshot!(format!("export_{name}"), layout.text);
        }
        assert_eq!(canvas(&rubric, &graded).blank, ["Bob"]);
        assert_eq!(gradescope(&rubric, &graded).blank, ["Bob"]);
    }

    #[test]
    fn a_roster_names_the_rows_the_gradebook_does_not() {
        let (rubric, text) = gradebook();
        let roster = Roster::parse(
            std::path::Path::new("r.csv"),
            "folder,student_id,name,email\nstray,9,Stray Cat,cat@x.edu\nbob,3,\"Bob, B.\",\n",
        )
        .unwrap();
        let graded = read(&text, &rubric, Some(&roster)).unwrap();
        let layout = canvas(&rubric, &graded);
        assert!(layout.unmatched.is_empty());
        assert!(
            layout.text.contains("\"Bob, B.\",,3,3@x.edu,,"),
            "{}",
            layout.text
        );
        assert!(
            layout.text.contains("Stray Cat,,9,cat@x.edu,,\n"),
            "{}",
            layout.text
        );
        assert_eq!(layout.blank, ["Bob, B.", "Stray Cat"]);
    }

    #[test]
    fn a_gradebook_without_the_columns_it_needs_is_refused() {
        let rubric = fixtures::hand_rubric();
        let error = read("student,AI (1)\nann,1\n", &rubric, None).unwrap_err();
        assert!(error.0.contains("no column \"total\""), "{error}");
        assert!(read("", &rubric, None).is_err());
    }
}
