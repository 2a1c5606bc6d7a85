//! The gradebook: a CSV file with one row per student, one column per category part, and
//! columns for the automatic total, the build, the time grading took, the supplied crate
//! comparison, the speed-up measured, the thread design seen (for the grader of the pool), the
//! style facts and the hand scores typed in the gallery, for a spreadsheet or a learning
//! platform's import: written whole from the class store's records ([`csv`]) after a run and
//! on each save of the gallery.
//!
//! A speed-up the machine could not judge (too few CPUs, busy) is never a zero: its category's
//! automatic cell is blank, the column beside it (`Threading: not counted`) says why, and the
//! automatic total and the total are blank too, as for a student who was not graded. A blank is
//! what a spreadsheet's AVERAGE, MIN and MAX leave out and what a platform's import takes as no
//! grade yet, where a mark such as `90*` would be text that a numeric column refuses (or that a
//! sum skips as if it were 0).
//!
//! The student's cell, the one a student chooses (their folder's name), is made inert and never
//! starts a formula ([`inert::cell`]), and is read back as their name ([`parse`]).
//!
//! With a roster, a Gradescope export or a late policy, after every other column come who each
//! submission is (`student id`, `name`, `email`: a line per student of a group, each inert),
//! when it came in (`submitted`, with its source), how late it was (`late`), what that costs
//! (`late penalty`) and the `final total` (the total less the penalty, once the total is known,
//! never under 0). Every student on the roster who submitted nothing then has a row of their
//! own at the end, with no folder: `missing` in `submitted`, and the course's choice of final
//! total (0, or blank). Without them the gradebook is as it always was.

use super::building::build_word;
use super::inert;
use super::numbers::{points, rounded};
use super::style;
use super::timing::{category_not_counted, speedup_word};
use super::workers::design_word;
use crate::judge::result::hand::Marks;
use crate::judge::result::CategoryScore;
use crate::kit::roster::Member;
use crate::kit::rubric::Missing;
use crate::kit::Rubric;
use crate::store::{Late, Record, Who};

/// The column of the checklist items scored by hand: `7 of 11`.
const HAND_SCORED: &str = "hand-scored items";
/// The column of the whole total, once every item is scored by hand.
const TOTAL: &str = "total";
/// The column of the graders' comments.
const COMMENTS: &str = "hand comments";
/// The build column of a student whose sandbox could not be set up: none of their code ran,
/// and their automatic points are left blank.
const NOT_GRADED: &str = "not graded";
/// The column of how the build went (or why the student has no points).
pub const BUILD: &str = "build";
/// The column of the automatic total.
const AUTOMATIC_TOTAL: &str = "automatic total";
/// What follows a timed category's name in the header of the column beside its automatic part
/// that says why its speed-up was not counted: `Threading: not counted`.
const NOT_COUNTED: &str = ": not counted";

/// The column of the speed-up measured.
pub const SPEEDUP: &str = "speed-up";
/// The speed-up cell of a student whose timing cases were left out (`--skip-timing`).
pub const SPEEDUP_LEFT_OUT: &str = "left out";

/// The columns of a student id, of a name and of an email: a line per student of a group.
pub const STUDENT_ID: &str = "student id";
/// The column of the students' names.
pub const NAME: &str = "name";
/// The column of the students' email addresses.
pub const EMAIL: &str = "email";
/// The column of the submission's time and its source.
const SUBMITTED: &str = "submitted";
/// The column of how late the submission was.
const LATE: &str = "late";
/// The column of the points the lateness costs.
pub const LATE_PENALTY: &str = "late penalty";
/// The column of the total less the late penalty.
pub const FINAL_TOTAL: &str = "final total";
/// The columns [`join`] adds, in their order.
const JOINED: [&str; 7] = [
    STUDENT_ID,
    NAME,
    EMAIL,
    SUBMITTED,
    LATE,
    LATE_PENALTY,
    FINAL_TOTAL,
];
/// The `submitted` cell of a student on the roster who submitted nothing.
pub const MISSING: &str = "missing";
/// What separates the students of a group in one cell.
pub const MEMBERS: char = '\n';

/// What follows the gradebook as it is read: a row of its own only when every quoted field
/// before it was closed, since the `csv` crate reads an unclosed quote to the end, leniently.
const END: &str = "end";

/// `rows` as CSV: a field quoted only when it must be (a comma, a quote or a line break in it),
/// each row ended by `\n`, as spreadsheets read it.
pub fn write_rows<Row>(rows: impl IntoIterator<Item = Row>) -> String
where
    Row: IntoIterator,
    Row::Item: AsRef<[u8]>,
{
    const IN_MEMORY: &str = "CSV written into memory, rows of any length, cannot fail";
    let mut writer = csv::WriterBuilder::new()
        .flexible(true)
        .quote_style(csv::QuoteStyle::Necessary)
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    for row in rows {
        writer.write_record(row).expect(IN_MEMORY);
    }
    String::from_utf8(writer.into_inner().expect(IN_MEMORY)).expect("CSV of text is text")
}

/// What the hand scores put in one student's row.
pub struct HandCells {
    /// Each hand-graded part's points, in rubric order; blank until each of its items is scored.
    pub parts: Vec<String>,
    /// `7 of 11`: the items scored of the whole checklist.
    pub scored: String,
    /// The automatic total and the hand scores together, once every item is scored.
    pub total: Option<f64>,
    /// Each category's comment after its name, a line each.
    pub comments: String,
}

/// The cells of a student with `marks` whose automatic total is `automatic`.
pub fn hand_cells(rubric: &Rubric, marks: Option<&Marks>, automatic: Option<f64>) -> HandCells {
    let graded = rubric
        .categories
        .iter()
        .filter(|c| c.parts().iter().any(|p| !p.automatic));
    let (mut parts, mut comments) = (Vec::new(), Vec::new());
    let (mut scored, mut items, mut sum) = (0, 0, automatic);
    for category in graded {
        let given = marks.and_then(|m| m.get(&category.name));
        let part_sum = given.and_then(|g| g.sum());
        parts.push(part_sum.map_or(String::new(), points));
        sum = sum.zip(part_sum).map(|(a, b)| a + b);
        scored += given.map_or(0, |g| g.scored());
        items += category.manual.len();
        if let Some(comment) = given.map(|g| g.comment.trim()).filter(|c| !c.is_empty()) {
            comments.push(format!("{}: {comment}", category.name));
        }
    }
    HandCells {
        parts,
        scored: format!("{scored} of {items}"),
        total: sum,
        comments: comments.join("\n"),
    }
}

/// The gradebook's header for `rubric`: the student, each category's parts (the automatic
/// part of each of the `timed` categories, those with a speed-up case, followed by the column
/// that says why its speed-up was not counted), then the columns every student has.
pub fn header(rubric: &Rubric, timed: &[String]) -> Vec<String> {
    let mut header = vec!["student".to_string()];
    for category in &rubric.categories {
        for part in category.parts() {
            header.push(format!("{} ({})", part.name, points(part.points)));
            if part.automatic && timed.contains(&category.name) {
                header.push(format!("{}{NOT_COUNTED}", category.name));
            }
        }
    }
    header.extend(
        [
            AUTOMATIC_TOTAL,
            BUILD,
            "time (s)",
            "supplied_changed",
            SPEEDUP,
            "thread design",
            "header items missing",
            "lint",
            "longest function (lines)",
            HAND_SCORED,
            TOTAL,
            COMMENTS,
        ]
        .map(String::from),
    );
    header
}

/// The gradebook: [`header`], then per student each category's points (for the categories
/// graded by hand, the sum of the hand scores once each item is scored; blank, with the reason
/// in the column beside it, for a timed category whose speed-up was not counted), the automatic
/// total (blank while a speed-up is not counted), how their build went (`ok`, `failed`, `timed
/// out`; blank without a build step; `not graded`, with no automatic points, when their sandbox
/// could not be set up), how long grading them took in seconds, whether their copy of the
/// supplied crate was changed (`yes` or `no`; blank when they have none or it was not
/// checked), and, last so that the older columns keep their places, the speed-up (`1.89x of
/// 1.93x`: theirs and the machine's ceiling; or why it was not judged; `left out` with
/// `--skip-timing`), the thread design seen (`pool`, `new threads per search`, `one
/// worker`), and with `--style` the header items missing, the lints' counts and the longest
/// function's lines, and then the hand scores' columns: the items scored (`7 of 11`), the
/// total (once every item is scored and the automatic total is known) and the graders'
/// comments.
pub fn csv(
    rubric: &Rubric,
    timed: &[String],
    records: &[&Record],
    missing: Option<&[Member]>,
) -> String {
    let rows = records
        .iter()
        .map(|record| row(rubric, timed, record, missing.is_some()))
        .collect();
    table(rubric, timed, rows, missing)
}

/// The gradebook of `rows` (each [`row`]'s, with the columns of who when there are `missing`
/// students, none or some): the header, the rows, and a row for each missing student.
pub fn table(
    rubric: &Rubric,
    timed: &[String],
    rows: Vec<Vec<String>>,
    missing: Option<&[Member]>,
) -> String {
    let mut table = vec![match missing {
        Some(_) => joined_header(rubric, timed),
        None => header(rubric, timed),
    }];
    table.extend(rows);
    let grade = match rubric.missing {
        Missing::Blank => String::new(),
        Missing::Zero => points(0.0),
    };
    let width = header(rubric, timed).len();
    for member in missing.unwrap_or_default() {
        let mut row = vec![String::new(); width];
        let [ids, names, emails] = member_cells(std::slice::from_ref(member));
        row.extend([ids, names, emails, MISSING.into()]);
        row.extend([String::new(), String::new(), grade.clone()]);
        table.push(row);
    }
    write_rows(table)
}

/// `record`'s row of the gradebook, with the columns of who when `joined`.
pub fn row(rubric: &Rubric, timed: &[String], record: &Record, joined: bool) -> Vec<String> {
    let result = &record.result;
    let mut row = vec![inert::cell(&result.student)];
    // A student none of whose code ran has no automatic points, not zero; one whose speed-up
    // was not counted has no automatic total yet.
    let graded = result.ungraded().is_none();
    let automatic = result.automatic_total();
    let cells = hand_cells(rubric, record.marks(), automatic);
    let mut by_hand = cells.parts.into_iter();
    for CategoryScore { name, earned, .. } in result.categories(rubric) {
        let Some(earned) = earned else {
            row.push(by_hand.next().unwrap_or_default());
            continue;
        };
        let why = graded
            .then(|| category_not_counted(result, &name))
            .flatten();
        row.push(match graded && why.is_none() {
            true => points(earned),
            false => String::new(),
        });
        if timed.contains(&name) {
            row.push(why.unwrap_or_default());
        }
    }
    row.push(automatic.map_or(String::new(), points));
    row.push(match result.ungraded() {
        Some(_) => NOT_GRADED.into(),
        None => result.build.as_ref().map_or("", build_word).into(),
    });
    row.push(format!("{:.1}", result.elapsed.as_secs_f64()));
    row.push(
        match result.supplied.as_ref().map(|c| c.changed()) {
            Some(true) => "yes",
            Some(false) => "no",
            None => "",
        }
        .into(),
    );
    let speedup = result.speedup();
    row.push(match speedup {
        Some(speedup) => speedup_word(speedup),
        None if !result.left_out.is_empty() => SPEEDUP_LEFT_OUT.into(),
        None => String::new(),
    });
    row.push(speedup.map_or("", |s| design_word(s.design)).into());
    row.extend(style::cells(result.style.as_ref()));
    row.extend([
        cells.scored,
        cells.total.map_or(String::new(), points),
        cells.comments,
    ]);
    if joined {
        row.extend(who_cells(record.who.as_ref(), cells.total));
    }
    row
}

/// A duration in words, in its two largest units: `1 day 3 h`, `2 h 5 min`, `40 s`.
pub fn late_word(late: jiff::SignedDuration) -> String {
    let seconds = late.as_secs().max(0);
    let units = [(86400, "day"), (3600, "h"), (60, "min"), (1, "s")];
    let parts: Vec<String> = units
        .iter()
        .scan(seconds, |left, &(size, unit)| {
            let count = *left / size;
            *left %= size;
            Some((count, unit))
        })
        .skip_while(|(count, _)| *count == 0)
        .take(2)
        .filter(|(count, _)| *count > 0)
        .map(|(count, unit)| match (unit, count) {
            ("day", 1) => "1 day".to_string(),
            ("day", _) => format!("{count} days"),
            _ => format!("{count} {unit}"),
        })
        .collect();
    match parts.is_empty() {
        true => "0 s".into(),
        false => parts.join(" "),
    }
}

/// The cells of `members` in the columns of who: a line per student, each inert.
fn member_cells(members: &[Member]) -> [String; 3] {
    let each = |field: fn(&Member) -> &str| {
        let cells: Vec<String> = members.iter().map(|m| inert::cell(field(m))).collect();
        cells.join(&MEMBERS.to_string())
    };
    [
        each(|m| &m.student_id),
        each(|m| &m.name),
        each(|m| &m.email),
    ]
}

/// The `late` and `late penalty` cells of a submission that stands with the late policy as
/// `late` says.
pub fn late_cells(late: Late) -> (String, String) {
    match late {
        Late::NoPolicy => (String::new(), String::new()),
        Late::NoTime => ("no submission time".into(), String::new()),
        Late::Judged(lateness) if lateness.periods == 0 => ("on time".into(), points(0.0)),
        Late::Judged(lateness) => (late_word(lateness.late), points(lateness.penalty)),
    }
}
/// The final total of the submission `who` is, whose total is `total`: the total less the late
/// penalty (as their cells say them, so that it is the difference of the two shown), never
/// under 0.
pub fn final_total(total: f64, who: Option<&Who>) -> f64 {
    let penalty = who.map_or(0.0, Who::penalty);
    (rounded(total) - rounded(penalty)).max(0.0)
}

/// `who`'s cells in the columns of who, and the final total of a submission whose total is
/// `total` ([`final_total`], blank until the total is known).
fn who_cells(who: Option<&Who>, total: Option<f64>) -> [String; 7] {
    let final_cell = total.map_or(String::new(), |t| points(final_total(t, who)));
    let Some(who) = who else {
        let mut cells: [String; 7] = Default::default();
        cells[6] = final_cell;
        return cells;
    };
    let submitted = who
        .submitted
        .map_or(String::new(), |s| format!("{} ({})", s.at, s.source.word()));
    let (late, penalty) = late_cells(who.late);
    let [ids, names, emails] = member_cells(&who.members);
    [ids, names, emails, submitted, late, penalty, final_cell]
}

/// The gradebook's header for `rubric` and the `timed` categories with the columns of who.
pub fn joined_header(rubric: &Rubric, timed: &[String]) -> Vec<String> {
    let mut header = header(rubric, timed);
    header.extend(JOINED.map(String::from));
    header
}

/// Why a gradebook could not be read ([`parse`]).
#[derive(Debug, thiserror::Error)]
pub enum GradebookError {
    /// A row is not CSV.
    #[error("the gradebook is not CSV: {0}")]
    NotCsv(#[from] csv::Error),
    /// The row starting on `line` opens a quoted field that is never closed: the gradebook
    /// was cut short or mangled.
    #[error("the row on line {line} opens a quoted field that is never closed")]
    Unclosed {
        /// The row's first line.
        line: u64,
    },
}

/// A gradebook's rows as cells, header first: the CSV that [`csv`] writes (and a
/// spreadsheet's, quoted the same way) read back, its first cells read back to the students'
/// names; blank lines are skipped. A quoted field left open is refused: the gradebook was cut
/// short or mangled.
pub fn parse(text: &str) -> Result<Vec<Vec<String>>, GradebookError> {
    let ended = format!("{text}\n{END}");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(ended.as_bytes());
    let (mut rows, mut line) = (Vec::new(), 0);
    for record in reader.records() {
        let record = record?;
        line = record.position().map_or(line, |p| p.line());
        let cells = record
            .iter()
            .enumerate()
            .map(|(at, cell)| match at {
                0 => inert::uncell(cell),
                _ => cell.to_string(),
            })
            .collect::<Vec<_>>();
        rows.push(cells);
    }
    match rows.pop() {
        Some(end) if end == [END] => Ok(rows),
        _ => Err(GradebookError::Unclosed { line }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::{CaseResult, StudentResult};
    use crate::kit::late::Lateness;
    use crate::kit::roster::member;
    use crate::kit::submitted::{Source, Submitted};
    use std::collections::BTreeMap;

    /// Marks of `items` for GUI, with a comment that needs quoting.
    fn scores(items: &[Option<f64>]) -> Marks {
        crate::report::gui_marks(items, "Nice, \"tidy\"\ngrid")
    }

    /// Records of `results`, each with `marks`.
    fn records(results: &[StudentResult], marks: &Marks) -> Vec<Record> {
        results
            .iter()
            .map(|result| {
                let mut record = Record::new(result.clone(), None, None, None);
                record.hand = marks.clone();
                record
            })
            .collect()
    }

    /// The gradebook of `results`, each with `marks`, without the columns of who.
    fn book(rubric: &Rubric, timed: &[String], results: &[StudentResult], marks: &Marks) -> String {
        let records = records(results, marks);
        csv(rubric, timed, &records.iter().collect::<Vec<_>>(), None)
    }

    #[test]
    fn a_gradebook_reads_back_as_written() {
        let text = "a,\"b,c\",\"say \"\"hi\"\"\"\r\n,\"two\nlines\"\n";
        assert_eq!(
            parse(text).unwrap(),
            [vec!["a", "b,c", "say \"hi\""], vec!["", "two\nlines"]]
        );
        assert_eq!(parse("\n\na\n\n").unwrap(), [vec!["a"]]);
        assert_eq!(parse("").unwrap(), Vec::<Vec<String>>::new());
    }

    #[test]
    fn a_quoted_field_left_open_is_refused() {
        let open = parse("a,b\nc,\"open\nto the end\n").unwrap_err();
        assert!(
            matches!(open, GradebookError::Unclosed { line: 2 }),
            "{open:?}"
        );
        assert_eq!(
            open.to_string(),
            "the row on line 2 opens a quoted field that is never closed"
        );
        assert!(parse("\"open").is_err());
        assert!(parse("\"closed\"").is_ok());
    }

    #[test]
    fn hand_scores_fill_their_columns_and_the_total_once_complete() {
        let rubric = fixtures::hand_rubric();
        let students = [
            fixtures::student("ann, the first", Vec::new(), 1),
            fixtures::student("bob", Vec::new(), 1),
        ];
        let blank = book(&rubric, &[], &students, &Marks::new());
        let header = &parse(&blank).unwrap()[0];
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let cell = |text: &str, row: usize, name: &str| parse(text).unwrap()[row][at(name)].clone();
        assert_eq!(cell(&blank, 1, "GUI (5)"), "");
        assert_eq!(cell(&blank, 1, "hand-scored items"), "0 of 2");

        let partial = book(&rubric, &[], &students[..1], &scores(&[Some(3.0), None]));
        assert_eq!(cell(&partial, 1, "GUI (5)"), "");
        assert_eq!(cell(&partial, 1, "hand-scored items"), "1 of 2");
        assert_eq!(cell(&partial, 1, "total"), "");

        let whole = book(
            &rubric,
            &[],
            &students[..1],
            &scores(&[Some(3.0), Some(1.5)]),
        );
        assert_eq!(cell(&whole, 1, "GUI (5)"), "4.5");
        assert_eq!(cell(&whole, 1, "total"), "4.5");
        assert_eq!(
            cell(&whole, 1, "hand comments"),
            "GUI: Nice, \"tidy\"\ngrid"
        );
    }

    #[test]
    fn a_student_not_graded_has_blank_points_and_no_total() {
        let rubric = fixtures::hand_rubric();
        let mut ann = fixtures::student(
            "ann, the first",
            vec![fixtures::case_result("a", "AI", 0.0)],
            1,
        );
        ann.confinement = crate::judge::Confinement::Failed("the kit is inside".into());
        let whole = scores(&[Some(3.0), Some(1.5)]);
        let text = book(&rubric, &[], &[ann.clone()], &whole);
        let rows = parse(&text).unwrap();
        let cell = |name: &str| {
            let at = rows[0].iter().position(|h| h.starts_with(name)).unwrap();
            rows[1][at].clone()
        };
        assert_eq!(
            ["AI", "automatic total", "build", "GUI", "total"].map(cell),
            ["", "", "not graded", "4.5", ""]
        );
        assert_eq!(ann.automatic_total(), None);
    }

    #[test]
    fn a_case_a_busy_machine_starved_leaves_the_totals_blank_and_is_graded_again() {
        use crate::judge::result::{Fault, Verdict};
        use crate::process::Failure;
        use std::time::Duration;
        let starved = Failure::Starved {
            limit: Duration::from_secs(5),
            had: Duration::from_secs(1),
            wall: Duration::from_secs(15),
        };
        let verdict = Verdict::Fail(Fault::Program(starved));
        let ann = fixtures::student(
            "ann",
            vec![CaseResult {
                exchanges: vec![fixtures::exchange("scores 9", "= 1", None, verdict)],
                ..fixtures::case_result("a", "AI", 1.0)
            }],
            1,
        );
        let text = book(&fixtures::hand_rubric(), &[], &[ann], &Marks::new());
        let rows = parse(&text).unwrap();
        let cell =
            |name: &str| rows[1][rows[0].iter().position(|h| h.starts_with(name)).unwrap()].clone();
        assert_eq!(["AI", "automatic total", "total"].map(cell), ["", "", ""]);
    }

    #[test]
    fn a_speedup_not_counted_leaves_its_category_and_the_totals_blank_with_the_reason() {
        let rubric = fixtures::hand_rubric();
        let timed = ["AI".to_string()];
        let ann = fixtures::student(
            "ann",
            vec![
                CaseResult {
                    earned: 0.5,
                    ..fixtures::case_result("a", "AI", 0.5)
                },
                fixtures::not_counted("speedup", "AI", 0.5),
            ],
            1,
        );
        let bob = fixtures::student(
            "bob",
            vec![CaseResult {
                earned: 0.5,
                ..fixtures::case_result("a", "AI", 0.5)
            }],
            1,
        );
        let whole = scores(&[Some(3.0), Some(1.5)]);
        let text = book(&rubric, &timed, &[ann, bob], &whole);
        let rows = parse(&text).unwrap();
        assert_eq!(
            rows[0][..4],
            ["student", "AI (1)", "AI: not counted", "GUI (5)"]
        );
        let cells = |row: &[String]| {
            [
                "AI (1)",
                "AI: not counted",
                "automatic total",
                "total",
                "hand-scored items",
            ]
            .map(|name| row[rows[0].iter().position(|h| h == name).unwrap()].clone())
        };
        assert_eq!(
            cells(&rows[1]),
            ["", "not judged on 1 CPU", "", "", "2 of 2"]
        );
        assert_eq!(cells(&rows[2]), ["0.5", "", "0.5", "5", "2 of 2"]);
        assert_eq!(header(&rubric, &timed), rows[0]);
    }

    #[test]
    fn a_student_s_name_is_an_inert_cell_that_reads_back_as_their_name() {
        let rubric = fixtures::hand_rubric();
        let hostile = fixtures::hostile_student(false);
        let formula = fixtures::student("=HYPERLINK(\"http://x\",\"ok\")", Vec::new(), 1);
        let students = [hostile, formula];
        let text = book(&rubric, &[], &students, &scores(&[Some(3.0), Some(1.5)]));
        crate::report::inert::assert_inert(&text);
        assert!(text.contains("\n\"'=HYPERLINK("), "{text}");
        let rows = parse(&text).unwrap();
        let names: Vec<&str> = rows[1..].iter().map(|r| r[0].as_str()).collect();
        assert_eq!(names, [&students[0].student, &students[1].student]);
        let scored = rows[0].iter().position(|h| h == HAND_SCORED).unwrap();
        assert_eq!([&rows[1][scored], &rows[2][scored]], ["2 of 2", "2 of 2"]);
    }

    #[test]
    fn late_durations_read_in_their_two_largest_units() {
        let word = |s: i64| late_word(jiff::SignedDuration::from_secs(s));
        assert_eq!(word(86400 + 3 * 3600 + 59), "1 day 3 h");
        assert_eq!(word(2 * 86400 + 5), "2 days");
        assert_eq!(word(3600 + 5 * 60), "1 h 5 min");
        assert_eq!(word(40), "40 s");
        assert_eq!(word(0), "0 s");
    }

    #[test]
    fn a_joined_gradebook_says_who_when_how_late_and_the_final_total() {
        use crate::kit::late::Moment;
        let rubric = fixtures::hand_rubric();
        let students = [
            fixtures::student("team", vec![fixtures::case_result("a", "AI", 1.0)], 1),
            fixtures::student("=bob", vec![fixtures::case_result("a", "AI", 1.0)], 1),
            fixtures::student("cy", vec![fixtures::case_result("a", "AI", 1.0)], 1),
        ];
        let member = |id: &str, name: &str| member(id, name, &format!("{id}@x.edu"));
        let at = Moment::parse("2026-11-21T10:00:00-08:00").unwrap();
        let mut who = BTreeMap::new();
        who.insert(
            "team",
            Who {
                members: vec![
                    member("1", "Lee, \"Ann\""),
                    member("2", "=cmd|' /C calc'!A0"),
                ],
                submitted: Some(Submitted {
                    at,
                    source: Source::Gradescope,
                }),
                late: Late::Judged(Lateness {
                    late: jiff::SignedDuration::from_hours(27),
                    periods: 2,
                    penalty: 1.2,
                }),
            },
        );
        who.insert(
            "=bob",
            Who {
                members: vec![member("3", "Bob")],
                submitted: Some(Submitted {
                    at,
                    source: Source::Files,
                }),
                late: Late::Judged(Lateness {
                    late: jiff::SignedDuration::ZERO,
                    periods: 0,
                    penalty: 0.0,
                }),
            },
        );
        let book = |marks: &Marks, missing: Missing| {
            let mut records = records(&students, marks);
            for record in &mut records {
                record.who = who.get(record.student.as_str()).cloned();
            }
            let rubric = Rubric {
                missing,
                ..rubric.clone()
            };
            let records: Vec<&Record> = records.iter().collect();
            csv(&rubric, &[], &records, Some(&[member("4", "=Dee")]))
        };
        let joined = book(&Marks::new(), Missing::Zero);
        assert!(
            !joined.contains("\n=") && !joined.contains(",="),
            "{joined}"
        );
        let rows = parse(&joined).unwrap();
        assert_eq!(rows[0], joined_header(&rubric, &[]));
        // The older columns keep their places and their cells.
        let old = parse(&self::book(&rubric, &[], &students, &Marks::new())).unwrap();
        for (row, was) in rows.iter().zip(&old) {
            assert_eq!(row[..was.len()], was[..]);
        }
        let cells = |row: &[String]| row[old[0].len()..].to_vec();
        assert_eq!(
            cells(&rows[1]),
            [
                "1\n2",
                "Lee, \"Ann\"\n'=cmd|' /C calc'!A0",
                "1@x.edu\n2@x.edu",
                "2026-11-21T10:00:00-08:00 (Gradescope)",
                "1 day 3 h",
                "1.2",
                "",
            ]
        );
        assert_eq!(cells(&rows[2])[4..6], ["on time", "0"]);
        assert_eq!(cells(&rows[3]), vec![String::new(); 7]);
        // The missing student: no folder, nothing scored, and the course's 0.
        assert_eq!(rows[4][..old[0].len()], vec![String::new(); old[0].len()]);
        assert_eq!(
            cells(&rows[4]),
            ["4", "'=Dee", "4@x.edu", "missing", "", "", "0"]
        );
        let blank_missing = book(&Marks::new(), Missing::Blank);
        assert_eq!(parse(&blank_missing).unwrap()[4].last().unwrap(), "");
        // Once every item is scored, the total less the penalty; the missing row as it was.
        let scored = parse(&book(&scores(&[Some(3.0), Some(1.5)]), Missing::Zero)).unwrap();
        assert_eq!(scored[4], rows[4]);
        let last = scored[0].len() - 1;
        let total = column(&scored[0], TOTAL);
        assert_eq!(
            [1, 2, 3].map(|r| (scored[r][total].clone(), scored[r][last].clone())),
            [("4.5", "3.3"), ("4.5", "4.5"), ("4.5", "4.5")].map(|(a, b)| (a.into(), b.into()))
        );
    }

    /// The index of the column `name` of `header`.
    fn column(header: &[String], name: &str) -> usize {
        header.iter().position(|h| h == name).unwrap()
    }

    #[test]
    fn fields_with_commas_quotes_or_line_breaks_are_quoted() {
        assert_eq!(
            write_rows([
                ["plain", "", "a,b", "say \"hi\"", "two\nlines", "cr\r"],
                ["x"; 6]
            ]),
            "plain,,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\nx,x,x,x,x,x\n"
        );
    }
}
