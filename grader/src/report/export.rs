//! The class's records put in the layouts learning platforms import, a row per student (each
//! of a group's students gets the group's grade), everyone on the roster among them:
//!
//! - **Canvas** (Grades, Import): `Student`, `ID`, `SIS User ID`, `SIS Login ID`, `Section`,
//!   then a column titled with the assignment's title, which Canvas makes a new manual-entry
//!   column (or, with Canvas's id, an existing assignment's); a `Points Possible` row first, as
//!   Canvas's own export has. Students are matched by SIS User ID (the student id) and SIS
//!   Login ID (the login, else the email); `ID`, Canvas's own number of the user, which no
//!   roster but Canvas's knows, is left blank: Canvas matches a row by the SIS ids when it is.
//! - **Moodle** (Import, CSV file): `Email address`, `ID number`, the assignment's title, and
//!   `Feedback` (the graders' comments, and the lateness); the import maps one of the first two
//!   ([`MoodleBy`]) to the user, and the grade and feedback columns to a grade item. No grade is
//!   `-`, which Moodle's loader reads as none for a new grade item and an existing one alike
//!   (an empty cell it takes as a grade for a new one).
//! - **Gradescope** (the manually graded questions' scores): `Name`, `SID`, `Email`, one
//!   column per category part graded by hand, and `Late penalty`, negative as Gradescope adds
//!   a penalty to a score.
//!
//! The grade column is out of [`Column::possible`]: the assignment's points, or fewer for a
//! class graded without its timing cases (the command decides); Canvas's may name an
//! existing assignment by its id (`Title (12345)`, as Canvas's own export heads it).
//!
//! The grade is the gradebook's `final total` (the total, less the late penalty), else its
//! `total` ([`gradebook`]); a student without one yet (hand scoring not done, a speed-up not counted) has no
//! grade, and a student on the roster who submitted nothing has the rubric's `missing` grade (0,
//! or none). A row whose identifier (the columns the platform maps a student by) is blank, or
//! the same as another row's, would put a grade on the wrong student or none: it is left out.
//! Those, and the students with no grade, are told in [`Layout`] for the command to say. Every
//! cell that came from a student or a grader is made inert ([`inert::cell`]).

use std::collections::BTreeMap;

use super::gradebook::{self, late_cells, write_rows};
use super::inert;
use super::numbers::points;
use crate::kit::late::{lateness, ExtraTime, Moment};
use crate::kit::roster::{assign, Member, Roster};
use crate::kit::rubric::Missing;
use crate::kit::Rubric;
use crate::store::{Late, Record};

/// One row of the gradebook, as the exports need it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graded {
    /// The submission folder (empty for a student who submitted nothing).
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
    /// Whether its timing cases were left out (`--skip-timing`): its total is out of less.
    pub timing_left_out: bool,
}

/// The grade column a platform's file gets: its title, the id Canvas gave an existing
/// assignment of that title (none: Canvas makes a new column), and the points it is out of.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// The assignment's title.
    pub title: String,
    /// Canvas's id of the assignment the grades go to, as its own export names it.
    pub canvas_id: Option<u64>,
    /// Points possible.
    pub possible: f64,
    /// The assignment's points, which a late policy's penalty is a share of (more than
    /// `possible` for a class exported out of what was graded, `--partial`).
    pub points: f64,
}

impl Column {
    /// The column of `rubric`'s title, out of its points, a new one in Canvas.
    pub fn of(rubric: &Rubric) -> Column {
        Column {
            title: rubric.title.clone(),
            canvas_id: None,
            possible: rubric.points(),
            points: rubric.points(),
        }
    }

    /// Its header in Canvas's file: `Title (12345)` for an existing assignment, as Canvas's
    /// export writes it, else the title.
    fn canvas_header(&self) -> String {
        match self.canvas_id {
            Some(id) => inert::cell(&format!("{} ({id})", self.title)),
            None => inert::cell(&self.title),
        }
    }
}

/// The rows of `records` (a class's, in its order) for `rubric`, each one's students completed
/// or overridden by `roster`, then the class's `missing` students and the roster's students no
/// record has (missing, with the rubric's grade for them). A roster's extension takes its
/// students' late penalty again, from the submission's time, as `grade class` would have.
pub fn graded(
    rubric: &Rubric,
    records: &[Record],
    missing: Option<&[Member]>,
    roster: Option<&Roster>,
) -> Vec<Graded> {
    let missing = missing.unwrap_or_default();
    let known: Vec<&[Member]> = records
        .iter()
        .map(|r| r.who.as_ref().map_or(&[][..], |w| w.members.as_slice()))
        .collect();
    let mut submissions: Vec<(&str, &[Member])> = records
        .iter()
        .zip(&known)
        .map(|(record, known)| (record.student.as_str(), *known))
        .collect();
    submissions.extend(missing.iter().map(|m| ("", std::slice::from_ref(m))));
    let assigned = assign(roster, &submissions);
    let joined = records.iter().any(|r| r.who.is_some()) || !missing.is_empty();
    let missing_grade = (rubric.missing == Missing::Zero).then(|| points(0.0));
    let mut graded: Vec<Graded> = submissions
        .iter()
        .zip(assigned.submissions)
        .enumerate()
        .map(|(at, (&(folder, _), (members, extensions, _)))| {
            let Some(record) = records.get(at) else {
                return Graded {
                    folder: String::new(),
                    members,
                    grade: missing_grade.clone(),
                    ..Graded::default()
                };
            };
            let cells =
                gradebook::hand_cells(rubric, record.marks(), record.result.automatic_total());
            let who = record.who.as_ref();
            let (late, penalty) = who.map_or_else(Default::default, |w| late_cells(w.late));
            let grade = match joined {
                true => cells.total.map(|t| gradebook::final_total(t, who)),
                false => cells.total,
            };
            let mut graded = Graded {
                members,
                folder: folder.to_string(),
                grade: grade.map(points),
                penalty,
                late,
                hand: cells.parts,
                comments: cells.comments,
                timing_left_out: record.result.speedup().is_none()
                    && !record.result.left_out.is_empty(),
            };
            let submitted = who.and_then(|w| w.submitted);
            if let (Some(submitted), false) = (submitted, extensions.is_empty()) {
                late_again(rubric, &mut graded, submitted.at, cells.total, &extensions);
            }
            graded
        })
        .collect();
    let parts = rubric
        .categories
        .iter()
        .flat_map(|c| c.parts())
        .filter(|p| !p.automatic)
        .count();
    graded.extend(assigned.missing.into_iter().map(|member| Graded {
        members: vec![member],
        grade: missing_grade.clone(),
        ..Graded::default()
    }));
    for row in graded.iter_mut().filter(|g| g.folder.is_empty()) {
        row.hand.resize(parts, String::new());
    }
    graded
}

/// `graded` with its lateness, penalty and grade judged again under `rubric`'s late policy with
/// the roster's `extensions`, from when it was `submitted` and its `total`, if known.
fn late_again(
    rubric: &Rubric,
    graded: &mut Graded,
    submitted: Moment,
    total: Option<f64>,
    extensions: &[ExtraTime],
) {
    let Some(policy) = &rubric.late else {
        return;
    };
    let judged = lateness(policy, extensions, submitted.at, rubric.points());
    (graded.late, graded.penalty) = late_cells(Late::Judged(judged));
    if let Some(total) = total {
        graded.grade = Some(points((total - judged.penalty).max(0.0)));
    }
}

/// What of the gradebook a platform's file leaves out, so that no grade reaches the wrong
/// student.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeftOut {
    /// A row that names no student (its folder).
    Nobody(String),
    /// A student with no identifier the platform maps by (who).
    Blank(String),
    /// A student whose identifier another row has too (who, and the identifier).
    Repeated(String, String),
}

impl LeftOut {
    /// Who or what it leaves out (a folder, or a student), the same in every file.
    pub fn who(&self) -> String {
        match self {
            LeftOut::Nobody(folder) => folder.clone(),
            LeftOut::Blank(who) | LeftOut::Repeated(who, _) => who.clone(),
        }
    }
}

/// An export's text, and what the instructor should be told about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The CSV file.
    pub text: String,
    /// The students whose grade is blank: no final total yet.
    pub blank: Vec<String>,
    /// What is left out of it.
    pub left_out: Vec<LeftOut>,
}

/// Which of its columns Moodle's import is told to map to its users.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoodleBy {
    /// `Email address`, to the user's email.
    #[default]
    Email,
    /// `ID number`, to the user's ID number (the student id).
    IdNumber,
}

/// Each student of `graded` whose identifiers (`keys`: the values of the columns the platform
/// maps by) are not all blank and none another student's, with their submission; the others
/// are left out.
fn students(
    graded: &[Graded],
    keys: impl Fn(&Member) -> Vec<String>,
) -> (Vec<(&Member, &Graded)>, Vec<LeftOut>) {
    let all: Vec<(&Member, &Graded)> = graded
        .iter()
        .flat_map(|g| g.members.iter().map(move |m| (m, g)))
        .collect();
    // How many students have each identifier in each column (in any case).
    let mut count: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for (member, _) in &all {
        for (column, key) in keys(member).into_iter().enumerate() {
            if !key.is_empty() {
                *count.entry((column, key.to_lowercase())).or_default() += 1;
            }
        }
    }
    let mut left_out: Vec<LeftOut> = graded
        .iter()
        .filter(|g| g.members.is_empty())
        .map(|g| LeftOut::Nobody(g.folder.clone()))
        .collect();
    let mut rows = Vec::new();
    for (member, submission) in all {
        let keys = keys(member);
        let repeated = keys
            .iter()
            .enumerate()
            .find(|(column, key)| !key.is_empty() && count[&(*column, key.to_lowercase())] > 1);
        match (keys.iter().all(String::is_empty), repeated) {
            (true, _) => left_out.push(LeftOut::Blank(member.shown())),
            (false, Some((_, key))) => {
                left_out.push(LeftOut::Repeated(member.shown(), key.clone()))
            }
            (false, None) => rows.push((member, submission)),
        }
    }
    (rows, left_out)
}

/// A student's SIS Login ID for Canvas: their login, else their email.
fn canvas_login(member: &Member) -> &str {
    match member.login.is_empty() {
        true => &member.email,
        false => &member.login,
    }
}

/// The students of `rows` with no grade, by name.
fn no_grade(rows: &[(&Member, &Graded)]) -> Vec<String> {
    rows.iter()
        .filter(|(_, g)| g.grade.is_none())
        .map(|(m, _)| m.shown())
        .collect()
}

/// Canvas's gradebook import of `column` (a new column, or an existing assignment by its id).
pub fn canvas(column: &Column, graded: &[Graded]) -> Layout {
    let keys = |m: &Member| vec![m.student_id.clone(), canvas_login(m).to_string()];
    let (students, left_out) = students(graded, keys);
    // The header, then the points possible (under the grade column), as Canvas's export has.
    let header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"].map(String::from);
    let mut rows = vec![header.to_vec(), vec![String::new(); header.len()]];
    rows[0].push(column.canvas_header());
    rows[1][0] = "    Points Possible".into();
    rows[1].push(points(column.possible));
    for (member, submission) in &students {
        rows.push(vec![
            inert::cell(&member.name),
            String::new(),
            inert::cell(&member.student_id),
            inert::cell(canvas_login(member)),
            String::new(),
            submission.grade.clone().unwrap_or_default(),
        ]);
    }
    Layout {
        text: write_rows(rows),
        blank: no_grade(&students),
        left_out,
    }
}

/// The feedback Moodle shows a student: the graders' comments, then the lateness (its penalty
/// said as a share of the assignment's points when the grade is out of fewer).
fn feedback(column: &Column, submission: &Graded) -> String {
    let mut parts: Vec<String> = submission
        .comments
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    if !submission.late.is_empty() && submission.late != "on time" {
        let of = match column.points == column.possible {
            true => String::new(),
            false => format!(
                ", the late policy's share of the assignment's {} points; this grade is out of {}",
                points(column.points),
                points(column.possible)
            ),
        };
        parts.push(format!(
            "Late: {} ({} points off{of})",
            submission.late, submission.penalty
        ));
    }
    inert::cell(&parts.join(" | "))
}

/// Moodle's "Import grades: CSV file", a grade column titled with `column`'s title and the
/// feedback beside it, its students mapped `by` one of its columns.
pub fn moodle(column: &Column, graded: &[Graded], by: MoodleBy) -> Layout {
    let keys = |m: &Member| match by {
        MoodleBy::Email => vec![m.email.clone()],
        MoodleBy::IdNumber => vec![m.student_id.clone()],
    };
    let (students, left_out) = students(graded, keys);
    let mut rows = vec![vec![
        "Email address".to_string(),
        "ID number".to_string(),
        inert::cell(&column.title),
        "Feedback".to_string(),
    ]];
    for (member, submission) in &students {
        rows.push(vec![
            inert::cell(&member.email),
            inert::cell(&member.student_id),
            submission.grade.clone().unwrap_or_else(|| "-".into()),
            feedback(column, submission),
        ]);
    }
    Layout {
        text: write_rows(rows),
        blank: no_grade(&students),
        left_out,
    }
}

/// A late penalty as Gradescope adds it to a score: negative points (`-6`), `0` on time,
/// blank without a late policy. Gradescope takes a late penalty off as a negative score on a
/// question whose floor is unchecked, or as a negative adjustment
/// (https://elearning.uq.edu.au/staff-guides-ultra/turnitin-ultra/apply-late-penalties-gradescope-ultra).
fn gradescope_penalty(penalty: &str) -> String {
    match penalty.parse::<f64>() {
        Ok(points) if points > 0.0 => format!("-{penalty}"),
        _ => penalty.to_string(),
    }
}

/// The scores of `rubric`'s parts graded by hand, and the late penalty (negative, as
/// Gradescope adds it), per student, for Gradescope's manually graded questions. A student is
/// blank here only when no hand score of theirs is typed yet.
pub fn gradescope(rubric: &Rubric, graded: &[Graded]) -> Layout {
    let keys = |m: &Member| vec![m.student_id.clone(), m.email.clone()];
    let (students, left_out) = students(graded, keys);
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
            blank.push(member.shown());
        }
        let mut row = vec![
            inert::cell(&member.name),
            inert::cell(&member.student_id),
            inert::cell(&member.email),
        ];
        row.extend(submission.hand.iter().cloned());
        row.push(gradescope_penalty(&submission.penalty));
        rows.push(row);
    }
    Layout {
        text: write_rows(rows),
        blank,
        left_out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::kit::late::Lateness;
    use crate::kit::roster::member;
    use crate::kit::submitted::{Source, Submitted};
    use crate::store::Who;
    use std::collections::BTreeMap;

    /// A class's records and the roster's students who submitted nothing.
    struct Records {
        records: Vec<Record>,
        missing: Vec<Member>,
    }

    /// [`graded`] of `class`.
    fn read(class: &Records, rubric: &Rubric, roster: Option<&Roster>) -> Vec<Graded> {
        graded(rubric, &class.records, Some(&class.missing), roster)
    }

    /// A class's gradebook: a group (one of it named as a formula) graded by hand and late,
    /// a student on time whose hand scoring is not done, and a folder nobody is named for.
    fn gradebook() -> (Rubric, Records) {
        let rubric = fixtures::hand_rubric();
        let students = ["team", "bob", "stray"]
            .map(|name| fixtures::student(name, vec![fixtures::case_result("a", "AI", 1.0)], 1));
        let member = |id: &str, name: &str| self::member(id, name, &format!("{id}@x.edu"));
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
        let marks = crate::report::gui_marks(
            &[Some(3.0), Some(1.5)],
            "Tidy grid,\nbut =SUM(A1) no dialog",
        );
        let records = students
            .into_iter()
            .map(|result| {
                let name = result.student.clone();
                let mut record = Record::new(result, None, None, who.get(&name).cloned());
                if name == "team" {
                    record.hand = marks.clone();
                }
                record
            })
            .collect();
        let class = Records {
            records,
            missing: vec![member("4", "Dee")],
        };
        (rubric, class)
    }

    #[test]
    fn each_layout_is_pinned() {
        let (rubric, text) = gradebook();
        let graded = read(&text, &rubric, None);
        for (name, layout) in [
            ("canvas", canvas(&Column::of(&rubric), &graded)),
            (
                "moodle",
                moodle(&Column::of(&rubric), &graded, MoodleBy::Email),
            ),
            ("gradescope", gradescope(&rubric, &graded)),
        ] {
            for start in ["\n=", ",=", "\"="] {
                assert!(!layout.text.contains(start), "{name}: {}", layout.text);
            }
            assert_eq!(layout.left_out, [LeftOut::Nobody("stray".into())], "{name}");
            // The student who submitted nothing has a row in every file.
            assert!(layout.text.contains("4@x.edu"), "{name}: {}", layout.text);
            insta::assert_snapshot!(format!("export_{name}"), layout.text);
        }
        assert_eq!(canvas(&Column::of(&rubric), &graded).blank, ["Bob", "Dee"]);
        assert_eq!(gradescope(&rubric, &graded).blank, ["Bob", "Dee"]);
    }

    #[test]
    fn a_roster_names_the_rows_the_gradebook_does_not() {
        let (rubric, text) = gradebook();
        let roster = Roster::parse(
            std::path::Path::new("r.csv"),
            "folder,student_id,name,email\nstray,9,Stray Cat,cat@x.edu\nbob,3,\"Bob, B.\",\n",
        )
        .unwrap();
        let graded = read(&text, &rubric, Some(&roster));
        let layout = canvas(&Column::of(&rubric), &graded);
        assert!(layout.left_out.is_empty());
        for row in ["\"Bob, B.\",,3,3@x.edu,,", "Stray Cat,,9,cat@x.edu,,\n"] {
            assert!(layout.text.contains(row), "{row:?} not in {}", layout.text);
        }
        assert_eq!(layout.blank, ["Bob, B.", "Stray Cat", "Dee"]);
    }

    /// A class of every kind of row: a group one of whom the platform cannot match, a student
    /// with no grade yet, two students given one student id, a student who submitted nothing
    /// and a folder that names no one.
    fn class() -> Vec<Graded> {
        let graded = |folder: &str, members: Vec<Member>, grade: Option<&str>| Graded {
            folder: folder.into(),
            members,
            grade: grade.map(String::from),
            penalty: String::new(),
            late: String::new(),
            hand: vec!["1".into()],
            comments: String::new(),
            timing_left_out: false,
        };
        vec![
            graded(
                "team",
                vec![member("1", "Ann", "ann@x.edu"), member("", "Cy", "")],
                Some("5"),
            ),
            graded("bob", vec![member("3", "Bob", "bob@x.edu")], None),
            graded("dan", vec![member("7", "Dan", "dan@x.edu")], Some("4")),
            graded("dana", vec![member("7", "Dana", "DANA@x.edu")], Some("2")),
            graded("", vec![member("8", "Eve", "eve@x.edu")], None),
            graded("stray", Vec::new(), Some("3")),
        ]
    }

    /// The identifiers of each student row of `text` in the columns `columns`, after the
    /// header and `skip` rows more.
    fn identifiers(text: &str, columns: &[usize], skip: usize) -> Vec<Vec<String>> {
        let rows = gradebook::parse(text).unwrap();
        rows[1 + skip..]
            .iter()
            .map(|row| columns.iter().map(|&c| row[c].to_lowercase()).collect())
            .collect()
    }

    /// Canvas's importer reads the header, then the `Points Possible` row, and matches each
    /// student by `SIS User ID` or `SIS Login ID` (else by name:
    /// https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807,
    /// https://teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades);
    /// Moodle's "Import grades: CSV file" maps one user column, keeps the previous row's user
    /// for a row whose mapped cell is blank, and stores any cell but `-` as a new grade item's
    /// grade (https://docs.moodle.org/311/en/Grade_import; its loader,
    /// grade/import/csv/classes/load_data.php). So no row may have a blank or repeated
    /// identifier, and no grade is `-`.
    #[test]
    fn no_file_has_a_row_with_a_blank_or_repeated_identifier_and_the_missing_are_in_each() {
        let rubric = fixtures::hand_rubric();
        let graded = class();
        let files = [
            (canvas(&Column::of(&rubric), &graded), vec![2, 3], 1),
            (
                moodle(&Column::of(&rubric), &graded, MoodleBy::Email),
                vec![0],
                0,
            ),
            (
                moodle(&Column::of(&rubric), &graded, MoodleBy::IdNumber),
                vec![1],
                0,
            ),
            (gradescope(&rubric, &graded), vec![1, 2], 0),
        ];
        for (layout, columns, skip) in &files {
            let ids = identifiers(&layout.text, columns, *skip);
            for (at, row) in ids.iter().enumerate() {
                assert!(row.iter().any(|id| !id.is_empty()), "{}", layout.text);
                for (column, id) in row.iter().enumerate().filter(|(_, id)| !id.is_empty()) {
                    let same = ids.iter().filter(|r| &r[column] == id);
                    assert_eq!(same.count(), 1, "row {at}: {}", layout.text);
                }
            }
            assert!(layout.text.contains("eve@x.edu"), "{}", layout.text);
            assert!(layout.left_out.contains(&LeftOut::Blank("Cy".into())));
            assert!(layout.left_out.contains(&LeftOut::Nobody("stray".into())));
        }
        let [canvas, by_email, by_id, gradescope] = files.map(|(layout, _, _)| layout);
        for name in ["Dan", "Dana"] {
            let repeated = LeftOut::Repeated(name.into(), "7".into());
            assert!(canvas.left_out.contains(&repeated));
        }
        assert_eq!(gradescope.left_out, canvas.left_out);
        assert_eq!(by_id.left_out, canvas.left_out);
        // Mapped by email, Dan and Dana are told apart; no grade is Moodle's `-`.
        assert_eq!(by_email.left_out.len(), 2);
        for (layout, row) in [
            (&by_email, "\nbob@x.edu,3,-,\n"),
            (&by_email, "\neve@x.edu,8,-,\n"),
            (&canvas, "\nEve,,8,eve@x.edu,,\n"),
        ] {
            assert!(layout.text.contains(row), "{row:?} not in {}", layout.text);
        }
        assert_eq!(canvas.blank, ["Bob", "Eve"]);
    }

    #[test]
    fn the_roster_s_students_with_no_row_are_missing_with_the_rubric_s_grade() {
        let (mut rubric, text) = gradebook();
        rubric.missing = Missing::Zero;
        let roster = Roster::parse(
            std::path::Path::new("r.csv"),
            "Student,ID,SIS User ID,SIS Login ID,Section\n\
             \"    Points Possible\",,,,\n\
             \"Zed, Zoe\",41,9,zoe,S1\n",
        )
        .unwrap();
        let graded = read(&text, &rubric, Some(&roster));
        let last = graded.last().unwrap();
        assert_eq!(
            (last.folder.as_str(), last.grade.as_deref()),
            ("", Some("0"))
        );
        assert!(canvas(&Column::of(&rubric), &graded)
            .text
            .ends_with("\n\"Zed, Zoe\",,9,zoe,,0\n"));
    }

    #[test]
    fn a_roster_s_extension_takes_the_late_penalty_again() {
        let (mut rubric, text) = gradebook();
        rubric.late = Some(
            toml::from_str("due = \"2026-11-20T10:00:00-08:00\"\npenalty = 10\nper = \"day\"\n")
                .unwrap(),
        );
        let roster = Roster::parse(
            std::path::Path::new("r.csv"),
            "student_id,extension\n1,48\n",
        )
        .unwrap();
        let graded = read(&text, &rubric, Some(&roster));
        assert_eq!(
            (graded[0].late.as_str(), graded[0].penalty.as_str()),
            ("on time", "0")
        );
        assert_eq!(graded[0].grade.as_deref(), Some("4.5"));
        // Without the roster, the gradebook's own.
        let graded = read(&text, &rubric, None);
        assert_eq!(graded[0].penalty, "1.2");
    }

    /// Canvas's own export heads an assignment's column with its name and its id, `Quiz 1
    /// (87568490)`, and its importer puts a column so headed into that assignment
    /// (https://nemogb-dev.github.io/nemogb-r/articles/detailed-canvas-export-info.html); the
    /// `Points Possible` row is read as the column's points
    /// (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807).
    #[test]
    fn canvas_s_column_names_an_existing_assignment_and_is_out_of_what_was_graded() {
        let (rubric, text) = gradebook();
        let graded = read(&text, &rubric, None);
        let column = Column {
            title: "Project 4".into(),
            canvas_id: Some(87568490),
            possible: 90.0,
            points: 100.0,
        };
        let rows = gradebook::parse(&canvas(&column, &graded).text).unwrap();
        assert_eq!(rows[0][5], "Project 4 (87568490)");
        assert_eq!(
            (rows[1][0].trim(), rows[1][5].as_str()),
            ("Points Possible", "90")
        );
        assert_eq!(
            moodle(&column, &graded, MoodleBy::Email)
                .text
                .lines()
                .next(),
            Some("Email address,ID number,Project 4,Feedback")
        );
        // Out of 90, a late penalty says what it is a share of.
        let moodle = moodle(&column, &graded, MoodleBy::Email).text;
        assert!(
            moodle.contains(
                "1.2 points off, the late policy's share of the assignment's 100 points; this \
                 grade is out of 90)"
            ),
            "{moodle}"
        );
        // The gradebook says which rows were graded without their timing cases.
        assert!(graded.iter().all(|g| !g.timing_left_out));
        let mut result = fixtures::student("ann", vec![], 1);
        result.left_out = vec!["threads/speedup".into()];
        let class = Records {
            records: vec![Record::new(result, None, None, None)],
            missing: Vec::new(),
        };
        assert!(read(&class, &rubric, None)[0].timing_left_out);
    }
}
