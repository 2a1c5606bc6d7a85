//! The gradebook: a CSV file with one row per student, one column per category part, and
//! columns for the automatic total, the build, the time grading took, the supplied crate
//! comparison, the speed-up measured, the thread design seen (for the grader of the pool), the
//! style facts and the hand scores typed in the gallery, for a spreadsheet or a learning
//! platform's import. The hand scores are merged into a gradebook already written too, as the
//! gallery saves them.
//!
//! A speed-up the machine could not judge (too few CPUs, busy) is never a zero: its category's
//! automatic cell is blank, the column beside it (`Threading: not counted`) says why, and the
//! automatic total and the total are blank too, as for a student who was not graded. A blank is
//! what a spreadsheet's AVERAGE, MIN and MAX leave out and what a platform's import takes as no
//! grade yet, where a mark such as `90*` would be text that a numeric column refuses (or that a
//! sum skips as if it were 0). Its rows are read back as written ([`records`]), so that a class
//! graded again in part keeps the others' rows byte for byte.
//!
//! The student's cell, the one a student chooses (their folder's name), is made inert and never
//! starts a formula ([`inert::cell`]), and is read back as their name.
//!
//! With a roster, a Gradescope export or a late policy, the class's gradebook is [`join`]ed:
//! after every other column come who each submission is (`student id`, `name`, `email`: a line
//! per student of a group, each inert), when it came in (`submitted`, with its source), how
//! late it was (`late`), what that costs (`late penalty`) and the `final total` (the total
//! less the penalty, once the total is known, never under 0), which [`merge`] keeps up to date
//! as the hand scores come. Every student on the roster who submitted nothing then has a row
//! of their own at the end, with no folder: `missing` in `submitted`, and the course's choice
//! of final total (0, or blank). Without them the gradebook is as it always was.

use std::collections::BTreeMap;

use super::inert;
use super::style;
use super::{self as words, numbers::points};
use crate::judge::result::hand::{HandScores, Marks};
use crate::judge::result::{CategoryScore, StudentResult};
use crate::kit::late::Lateness;
use crate::kit::roster::Member;
use crate::kit::rubric::{Missing, Part};
use crate::kit::submitted::{Source, Submitted};
use crate::kit::Rubric;

/// The column of the checklist items scored by hand: `7 of 11`.
const HAND_SCORED: &str = "hand-scored items";
/// The column of the whole total, once every item is scored by hand.
const TOTAL: &str = "total";
/// The column of the graders' comments.
const COMMENTS: &str = "hand comments";
/// The build column of a student whose sandbox could not be set up: none of their code ran,
/// and their automatic points are left blank.
const NOT_GRADED: &str = "not graded";
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

/// A part's column header: `GUI (15)`.
fn part_header(part: &Part) -> String {
    format!("{} ({})", part.name, points(part.points))
}

/// What the hand scores put in one student's row.
struct HandCells {
    /// Each hand-graded part's points, in rubric order; blank until each of its items is scored.
    parts: Vec<String>,
    /// `7 of 11`: the items scored of the whole checklist.
    scored: String,
    /// The automatic total and the hand scores together, once every item is scored.
    total: String,
    /// Each category's comment after its name, a line each.
    comments: String,
}

/// The cells of a student with `marks` whose automatic total is `automatic`.
fn hand_cells(rubric: &Rubric, marks: Option<&Marks>, automatic: Option<f64>) -> HandCells {
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
        total: sum.map_or(String::new(), points),
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
            header.push(part_header(&part));
            if part.automatic && timed.contains(&category.name) {
                header.push(format!("{}{NOT_COUNTED}", category.name));
            }
        }
    }
    header.extend(
        [
            AUTOMATIC_TOTAL,
            "build",
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
    results: &[StudentResult],
    hand: &HandScores,
) -> String {
    let mut rows = vec![header(rubric, timed)];
    for result in results {
        let mut row = vec![inert::cell(&result.student)];
        // A student none of whose code ran has no automatic points, not zero; one whose
        // speed-up was not counted has no automatic total yet.
        let graded = result.ungraded().is_none();
        let complete = graded && result.not_counted().next().is_none();
        let automatic = complete.then(|| result.total().0);
        let cells = hand_cells(rubric, hand.students.get(&result.student), automatic);
        let mut by_hand = cells.parts.into_iter();
        for CategoryScore { name, earned, .. } in result.categories(rubric) {
            let Some(earned) = earned else {
                row.push(by_hand.next().unwrap_or_default());
                continue;
            };
            let why = graded
                .then(|| words::category_not_counted(result, &name))
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
            None => result.build.as_ref().map_or("", words::build_word).into(),
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
            Some(speedup) => words::speedup_word(speedup),
            None if !result.left_out.is_empty() => SPEEDUP_LEFT_OUT.into(),
            None => String::new(),
        });
        row.push(speedup.map_or("", |s| words::design_word(s.design)).into());
        row.extend(style::cells(result.style.as_ref()));
        row.extend([cells.scored, cells.total, cells.comments]);
        rows.push(row);
    }
    write_rows(rows)
}

/// How a submission stands with the late policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Late {
    /// The rubric has no `[late]` table.
    NoPolicy,
    /// It has one, but the submission's time is not known.
    NoTime,
    /// Judged by it.
    Judged(Lateness),
}

/// Who a submission is, when it came in and how late, for its row of a joined gradebook.
#[derive(Clone, Debug, PartialEq)]
pub struct Who {
    /// Its students (several for a group; none when nothing names them).
    pub members: Vec<Member>,
    /// When it came in, if that is known.
    pub submitted: Option<Submitted>,
    /// How late.
    pub late: Late,
}

/// Who each submission of a class is, and who on the roster submitted nothing: what
/// [`join`] adds to a gradebook.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Joined {
    /// Each submission's row, by its folder.
    pub who: BTreeMap<String, Who>,
    /// The roster's students with no submission.
    pub missing: Vec<Member>,
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

/// `who`'s cells in the columns [`join`] adds, the final total left for [`merge`].
fn who_cells(who: Option<&Who>) -> [String; 7] {
    let Some(who) = who else {
        return Default::default();
    };
    let submitted = who
        .submitted
        .map_or(String::new(), |s| format!("{} ({})", s.at, s.source.word()));
    let (late, penalty) = late_cells(who.late);
    let [ids, names, emails] = member_cells(&who.members);
    [ids, names, emails, submitted, late, penalty, String::new()]
}

/// The gradebook's header for `rubric` and the `timed` categories once [`join`]ed.
pub fn joined_header(rubric: &Rubric, timed: &[String]) -> Vec<String> {
    let mut header = header(rubric, timed);
    header.extend(JOINED.map(String::from));
    header
}

/// The gradebook `text` (as [`csv`] wrote it, the hand scores merged or not) with the columns
/// of who each submission is and how late it came after every other, from `joined` by student
/// (blank for a student it lacks), then a row for each student `joined` says is missing, with
/// the final total `missing` says; [`merge`] then fills the final totals of the others.
pub fn join(text: &str, joined: &Joined, missing: Missing) -> Result<String, GradebookError> {
    let mut rows = parse(text)?;
    let width = rows.first().map_or(0, Vec::len);
    for (index, row) in rows.iter_mut().enumerate() {
        let student = row.first().cloned().unwrap_or_default();
        match index {
            0 => row.extend(JOINED.map(String::from)),
            _ => row.extend(who_cells(joined.who.get(&student))),
        }
        if let Some(student) = row.first_mut() {
            *student = inert::cell(student);
        }
    }
    let grade = match missing {
        Missing::Blank => String::new(),
        Missing::Zero => points(0.0),
    };
    for member in &joined.missing {
        let mut row = vec![String::new(); width];
        let [ids, names, emails] = member_cells(std::slice::from_ref(member));
        let (late, penalty) = (String::new(), String::new());
        row.extend([
            ids,
            names,
            emails,
            MISSING.into(),
            late,
            penalty,
            grade.clone(),
        ]);
        rows.push(row);
    }
    Ok(write_rows(&rows))
}

/// The final total of a row whose total is `total` and late penalty `penalty` (none when
/// blank): blank until the total is known, never under 0.
fn final_total(total: &str, penalty: &str) -> Result<String, String> {
    if total.is_empty() {
        return Ok(String::new());
    }
    let number = |cell: &str| {
        cell.parse::<f64>()
            .map_err(|_| format!("{cell:?} is not a number"))
    };
    let penalty = match penalty {
        "" => 0.0,
        penalty => number(penalty)?,
    };
    Ok(points((number(total)? - penalty).max(0.0)))
}

/// Why a gradebook could not take the hand scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradebookError(pub String);

impl std::fmt::Display for GradebookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// One row of a gradebook as read: its cells, and its text as it was written, ended by its
/// line break (one is added to a last row that had none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Its cells, the first (the student's) read back to their name.
    pub cells: Vec<String>,
    /// Its text, from its first byte to the next row's.
    pub text: String,
}

/// The gradebook's rows, header first: the CSV that [`csv`] writes (and a spreadsheet's,
/// quoted the same way) read back, each with its text as written and its first cell read back
/// to the student's name; blank lines are skipped. A quoted field left open is refused: the
/// gradebook was cut short or mangled.
pub fn records(text: &str) -> Result<Vec<Record>, GradebookError> {
    let ended = format!("{text}\n{END}");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(ended.as_bytes());
    // Each row's cells and the byte it starts at.
    let (mut rows, mut line) = (Vec::new(), 0);
    for record in reader.records() {
        let record =
            record.map_err(|e| GradebookError(format!("the gradebook is not CSV: {e}")))?;
        line = record.position().map_or(line, |p| p.line());
        let start = record.position().map_or(0, |p| p.byte());
        let cells = record
            .iter()
            .enumerate()
            .map(|(at, cell)| match at {
                0 => inert::uncell(cell),
                _ => cell.to_string(),
            })
            .collect::<Vec<_>>();
        rows.push((cells, usize::try_from(start).unwrap_or(usize::MAX)));
    }
    match rows.pop() {
        Some((end, _)) if end == [END] => {}
        _ => {
            return Err(GradebookError(format!(
                "the row on line {line} opens a quoted field that is never closed"
            )))
        }
    }
    // A row starts where the reader says; its line break (the `\n` of a `\r\n` the reader
    // counts as the next row's) and the blank lines after it are its own.
    let starts: Vec<usize> = rows
        .iter()
        .enumerate()
        .map(|(index, (_, start))| {
            let start = (*start).min(text.len());
            let rest = text.get(start..).unwrap_or_default();
            match index {
                0 => start,
                _ => start + rest.len() - rest.trim_start_matches(['\r', '\n']).len(),
            }
        })
        .collect();
    let ends = starts.iter().skip(1).copied().chain([text.len()]);
    let records = rows
        .into_iter()
        .zip(starts.iter().copied().zip(ends))
        .map(|((cells, _), (start, end))| {
            let mut text = text
                .get(start..end.max(start))
                .unwrap_or_default()
                .to_string();
            if !text.ends_with('\n') {
                text.push('\n');
            }
            Record { cells, text }
        })
        .collect();
    Ok(records)
}

/// The gradebook's rows as cells, header first, as [`records`] reads them.
pub fn parse(text: &str) -> Result<Vec<Vec<String>>, GradebookError> {
    Ok(records(text)?.into_iter().map(|r| r.cells).collect())
}

/// Each student's lateness that costs points, as the gradebook `text` says it (the `late` and
/// `late penalty` columns [`join`] adds): what `late` says, the points taken off and whether
/// the time came from the files. Empty for a gradebook without those columns.
pub fn late_penalties(text: &str) -> Result<BTreeMap<String, LatePenalty>, GradebookError> {
    let rows = parse(text)?;
    let Some(header) = rows.first() else {
        return Ok(BTreeMap::new());
    };
    let columns = header
        .iter()
        .position(|h| h == LATE)
        .zip(header.iter().position(|h| h == LATE_PENALTY));
    let Some((late, penalty)) = columns else {
        return Ok(BTreeMap::new());
    };
    let submitted = header.iter().position(|h| h == SUBMITTED);
    let files = format!("({})", Source::Files.word());
    let mut penalties = BTreeMap::new();
    for row in rows.iter().skip(1) {
        let cell = |at: usize| row.get(at).map_or("", String::as_str);
        let Ok(points) = cell(penalty).parse::<f64>() else {
            continue;
        };
        let from_files = submitted.is_some_and(|at| cell(at).ends_with(&files));
        if points > 0.0 {
            let late = cell(late).to_string();
            let penalty = LatePenalty {
                late,
                points,
                from_files,
            };
            penalties.insert(row[0].clone(), penalty);
        }
    }
    Ok(penalties)
}

/// A late submission's penalty, as the gradebook has it.
#[derive(Clone, Debug, PartialEq)]
pub struct LatePenalty {
    /// How late, in words (`1 day 3 h`).
    pub late: String,
    /// The points taken off.
    pub points: f64,
    /// Whether its time is its files' (`--late-from-files`), not a submission time.
    pub from_files: bool,
}

/// The students (submission folders) a gradebook has rows for; a missing student's row has
/// none.
pub fn students(text: &str) -> Result<Vec<String>, GradebookError> {
    Ok(parse(text)?
        .into_iter()
        .skip(1)
        .filter_map(|row| row.into_iter().next())
        .filter(|folder| !folder.is_empty())
        .collect())
}

/// The students the gradebook of `rows` (as [`records`] reads them) has no automatic total
/// for yet: a speed-up not counted (a reason in a `<category>: not counted` column), a case or
/// build a busy machine starved of its time, or not graded at all (a blank `automatic total`).
pub fn not_counted(rows: &[Record]) -> Vec<String> {
    let Some((header, rows)) = rows.split_first() else {
        return Vec::new();
    };
    let columns: Vec<usize> = (0..header.cells.len())
        .filter(|&at| header.cells[at].ends_with(NOT_COUNTED))
        .collect();
    let total = header.cells.iter().position(|h| h == AUTOMATIC_TOTAL);
    rows.iter()
        .filter(|row| {
            let blank = |at: usize| row.cells.get(at).is_none_or(|cell| cell.is_empty());
            columns.iter().any(|&at| !blank(at)) || total.is_some_and(blank)
        })
        .filter_map(|row| row.cells.first().cloned())
        .filter(|folder| !folder.is_empty())
        .collect()
}

/// The gradebook `text` (as [`csv`] wrote it) with every student's hand scores put in its
/// columns, as [`csv`] would have put them: what the gallery does on each save, and `grade
/// class` when it grades a class again.
pub fn merge(text: &str, rubric: &Rubric, hand: &HandScores) -> Result<String, GradebookError> {
    let mut rows = parse(text)?;
    let Some(header) = rows.first() else {
        return Err(GradebookError("the gradebook is empty".into()));
    };
    let at = |name: &str| {
        header.iter().position(|h| h == name).ok_or_else(|| {
            GradebookError(format!(
                "the gradebook has no column {name:?}: was it written by this grade class?"
            ))
        })
    };
    let parts = rubric
        .categories
        .iter()
        .flat_map(|c| c.parts())
        .filter(|p| !p.automatic)
        .map(|p| at(&part_header(&p)))
        .collect::<Result<Vec<_>, _>>()?;
    let [automatic, scored, total, comments] =
        [AUTOMATIC_TOTAL, HAND_SCORED, TOTAL, COMMENTS].map(at);
    let (automatic, scored, total, comments) = (automatic?, scored?, total?, comments?);
    let late = header
        .iter()
        .position(|h| h == LATE_PENALTY)
        .zip(header.iter().position(|h| h == FINAL_TOTAL));
    let width = header.len();
    for row in rows.iter_mut().skip(1) {
        // A missing student's row (no folder) has nothing to score.
        let (Some(student), Some(auto)) = (row.first(), row.get(automatic)) else {
            continue;
        };
        if student.is_empty() {
            continue;
        }
        let auto = match auto.as_str() {
            "" => None,
            auto => Some(auto.parse().map_err(|_| {
                GradebookError(format!(
                    "{student}: the automatic total {auto:?} is not a number"
                ))
            })?),
        };
        let cells = hand_cells(rubric, hand.students.get(student), auto);
        row.resize(width.max(row.len()), String::new());
        for (&column, cell) in parts.iter().zip(cells.parts) {
            row[column] = cell;
        }
        row[scored] = cells.scored;
        row[total] = cells.total;
        row[comments] = cells.comments;
        if let Some((penalty, last)) = late {
            row[last] = final_total(&row[total], &row[penalty]).map_err(|why| {
                GradebookError(format!("{}: the late penalty {why}", inert::line(&row[0])))
            })?;
        }
    }
    for row in &mut rows {
        if let Some(student) = row.first_mut() {
            *student = inert::cell(student);
        }
    }
    Ok(write_rows(&rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures;
    use crate::judge::result::hand::CategoryMarks;
    use crate::judge::result::CaseResult;

    /// Ann's marks: `items` for GUI, with a comment that needs quoting.
    fn scores(items: &[Option<f64>]) -> HandScores {
        let mut scores = HandScores::default();
        let mut marks = crate::judge::result::hand::Marks::new();
        marks.insert(
            "GUI".into(),
            CategoryMarks {
                items: items.to_vec(),
                comment: "Nice, \"tidy\"\ngrid".into(),
            },
        );
        scores.students.insert("ann, the first".into(), marks);
        scores
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
        assert_eq!(
            parse("a,b\nc,\"open\nto the end\n"),
            Err(GradebookError(
                "the row on line 2 opens a quoted field that is never closed".into()
            ))
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
        let blank = csv(&rubric, &[], &students, &HandScores::default());
        let header = &parse(&blank).unwrap()[0];
        let at = |name: &str| header.iter().position(|h| h == name).unwrap();
        let cell = |text: &str, row: usize, name: &str| parse(text).unwrap()[row][at(name)].clone();
        assert_eq!(cell(&blank, 1, "GUI (5)"), "");
        assert_eq!(cell(&blank, 1, "hand-scored items"), "0 of 2");

        let partial = merge(&blank, &rubric, &scores(&[Some(3.0), None])).unwrap();
        assert_eq!(cell(&partial, 1, "GUI (5)"), "");
        assert_eq!(cell(&partial, 1, "hand-scored items"), "1 of 2");
        assert_eq!(cell(&partial, 1, "total"), "");

        let whole = scores(&[Some(3.0), Some(1.5)]);
        let merged = merge(&blank, &rubric, &whole).unwrap();
        assert_eq!(cell(&merged, 1, "GUI (5)"), "4.5");
        assert_eq!(cell(&merged, 1, "total"), "4.5");
        assert_eq!(
            cell(&merged, 1, "hand comments"),
            "GUI: Nice, \"tidy\"\ngrid"
        );
        assert_eq!(cell(&merged, 2, "hand-scored items"), "0 of 2");
        // Written at once with the scores, the same gradebook.
        assert_eq!(csv(&rubric, &[], &students, &whole), merged);
        // Merged again, nothing changes; merged with none, the scores are gone.
        assert_eq!(merge(&merged, &rubric, &whole).unwrap(), merged);
        assert_eq!(
            merge(&merged, &rubric, &HandScores::default()).unwrap(),
            blank
        );
        assert!(merge("student,AI (1)\nann,1\n", &rubric, &whole).is_err());
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
        let text = csv(&rubric, &[], &[ann], &whole);
        let rows = parse(&text).unwrap();
        let cell = |name: &str| {
            let at = rows[0].iter().position(|h| h.starts_with(name)).unwrap();
            rows[1][at].clone()
        };
        assert_eq!(
            ["AI", "automatic total", "build", "GUI", "total"].map(cell),
            ["", "", "not graded", "4.5", ""]
        );
        // Merged again, the blank automatic total stays blank, and so does the total.
        assert_eq!(merge(&text, &rubric, &whole).unwrap(), text);
        assert_eq!(not_counted(&records(&text).unwrap()), ["ann, the first"]);
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
        let text = csv(
            &fixtures::hand_rubric(),
            &[],
            &[ann],
            &HandScores::default(),
        );
        let rows = parse(&text).unwrap();
        let cell =
            |name: &str| rows[1][rows[0].iter().position(|h| h.starts_with(name)).unwrap()].clone();
        assert_eq!(["AI", "automatic total", "total"].map(cell), ["", "", ""]);
        assert_eq!(not_counted(&records(&text).unwrap()), ["ann"]);
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
        let mut whole = scores(&[Some(3.0), Some(1.5)]);
        let marks = whole.students["ann, the first"].clone();
        whole.students.insert("ann".into(), marks.clone());
        whole.students.insert("bob".into(), marks);
        let text = csv(&rubric, &timed, &[ann, bob], &whole);
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
        // The gallery's merge keeps the blanks blank, and the reason tells who to grade again.
        assert_eq!(merge(&text, &rubric, &whole).unwrap(), text);
        assert_eq!(not_counted(&records(&text).unwrap()), ["ann"]);
        assert_eq!(header(&rubric, &timed), rows[0]);
    }

    #[test]
    fn a_student_s_name_is_an_inert_cell_that_reads_back_as_their_name() {
        let rubric = fixtures::hand_rubric();
        let hostile = fixtures::hostile_student(false);
        let formula = fixtures::student("=HYPERLINK(\"http://x\",\"ok\")", Vec::new(), 1);
        let mut whole = scores(&[Some(3.0), Some(1.5)]);
        let marks = whole.students["ann, the first"].clone();
        whole
            .students
            .insert(hostile.student.clone(), marks.clone());
        whole.students.insert(formula.student.clone(), marks);
        let students = [hostile, formula];
        let blank = csv(&rubric, &[], &students, &HandScores::default());
        crate::report::inert::assert_inert(&blank);
        assert!(blank.contains("\n\"'=HYPERLINK("), "{blank}");
        let names: Vec<String> = students.iter().map(|s| s.student.clone()).collect();
        assert_eq!(self::students(&blank).unwrap(), names);
        // The hand scores saved under their names fill their rows, as when written at once.
        let merged = merge(&blank, &rubric, &whole).unwrap();
        assert_eq!(merged, csv(&rubric, &[], &students, &whole));
        let rows = parse(&merged).unwrap();
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
        use crate::kit::late::{Lateness, Moment};
        use crate::kit::submitted::{Source, Submitted};
        let rubric = fixtures::hand_rubric();
        let students = [
            fixtures::student("team", vec![fixtures::case_result("a", "AI", 1.0)], 1),
            fixtures::student("=bob", vec![fixtures::case_result("a", "AI", 1.0)], 1),
            fixtures::student("cy", vec![fixtures::case_result("a", "AI", 1.0)], 1),
        ];
        let member = |id: &str, name: &str| Member {
            student_id: id.into(),
            name: name.into(),
            email: format!("{id}@x.edu"),
            login: String::new(),
        };
        let at = Moment::parse("2026-11-21T10:00:00-08:00").unwrap();
        let mut who = BTreeMap::new();
        who.insert(
            "team".to_string(),
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
            "=bob".to_string(),
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
        let blank = csv(&rubric, &[], &students, &HandScores::default());
        let class = Joined {
            who,
            missing: vec![member("4", "=Dee")],
        };
        let joined = merge(
            &join(&blank, &class, Missing::Zero).unwrap(),
            &rubric,
            &HandScores::default(),
        )
        .unwrap();
        assert!(
            !joined.contains("\n=") && !joined.contains(",="),
            "{joined}"
        );
        let rows = parse(&joined).unwrap();
        assert_eq!(rows[0], joined_header(&rubric, &[]));
        // The older columns keep their places and their cells.
        let old = parse(&blank).unwrap();
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
        let blank_missing = join(&blank, &class, Missing::Blank).unwrap();
        assert_eq!(parse(&blank_missing).unwrap()[4].last().unwrap(), "");
        assert_eq!(self::students(&joined).unwrap(), ["team", "=bob", "cy"]);
        assert!(!not_counted(&records(&joined).unwrap()).contains(&String::new()));
        // Once every item is scored, the total less the penalty; the missing row as it was.
        let mut whole = scores(&[Some(3.0), Some(1.5)]);
        let marks = whole.students["ann, the first"].clone();
        for name in ["team", "=bob", "cy"] {
            whole.students.insert(name.into(), marks.clone());
        }
        let scored = parse(&merge(&joined, &rubric, &whole).unwrap()).unwrap();
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
    fn records_keep_each_row_s_text_as_written() {
        let text = "a,b\r\n\n\"x\ny\",2\nlast,row";
        let read = records(text).unwrap();
        let texts: Vec<&str> = read.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["a,b\r\n\n", "\"x\ny\",2\n", "last,row\n"]);
        assert_eq!(read[1].cells, ["x\ny", "2"]);
        assert!(records("").unwrap().is_empty());
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
