//! `grade feedback DIR`: the feedback files returned to students, `DIR/feedback/<student>.md`
//! and `.html` (see [`crate::report::feedback`]), written from the results kept in the report
//! directory and the hand scores typed in the gallery, without grading again. Also what the
//! other commands do with them: `grade class` and `grade student` keep each student's whole
//! result as they are graded (`DIR/results/<student>.json`, [`keep`]), `grade class` writes the
//! feedback of each student whose hand grading is done, and `grade gallery` writes a student's
//! as soon as a save completes their checklist, and everyone's done at the press of a button.
//!
//! To return them, `grade feedback` also puts a copy of each page per student of its
//! submission (each student of a group gets one) in `DIR/feedback/students/`, named by the
//! student's name and SID (`Ann_Lee_000123.html`), with `index.csv` (file, submission,
//! student, email, SID) to mail or upload them by, from the gradebook's who-columns. Given a
//! Moodle assignment's grading worksheet (`--moodle-worksheet`), it also writes
//! `DIR/feedback/moodle-feedback.zip` for that assignment's "Upload multiple feedback files in
//! a zip": each student's page named by their participant id, found by their ID number or
//! email (never by name); a student with none is named and left out, and the command fails
//! unless told `--allow-missing`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::fs;
use std::io::{Cursor, Write as _};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::files::{find_kit, replace, replace_bytes};
use super::gallery::load_scores;
use crate::judge::file_stem;
use crate::judge::result::hand::{self, HandScores, Marks};
use crate::judge::result::kept::{self, KeptError};
use crate::judge::result::StudentResult;
use crate::kit::roster::Roster;
use crate::kit::{KitError, Rubric};
use crate::report::export::{self, Graded};
use crate::report::feedback::{self, Adjustment, FOLDER};
use crate::report::gradebook;
use crate::report::inert;
use crate::report::words::students;

/// The folder of the kept results in the report directory.
pub const RESULTS: &str = "results";
/// The folder, below the feedback's, of the copies named for each student.
pub const BY_STUDENT: &str = "students";
/// The index of the copies in [`BY_STUDENT`].
pub const INDEX: &str = "index.csv";
/// The zip for Moodle's "Upload multiple feedback files in a zip", in the feedback's folder.
pub const MOODLE_ZIP: &str = "moodle-feedback.zip";

/// What `grade feedback` was asked.
#[derive(Clone, Debug, Default)]
pub struct FeedbackRun {
    /// The report directory `grade class --report DIR` wrote.
    pub dir: PathBuf,
    /// The kit's directory, if given; else it is found as for grading.
    pub kit: Option<PathBuf>,
    /// Also write the feedback of students whose hand grading is not done (`--all`).
    pub all: bool,
    /// A Moodle assignment's grading worksheet: write [`MOODLE_ZIP`] for it.
    pub moodle_worksheet: Option<PathBuf>,
    /// Whether students left out of the zip (no participant id) still let the command succeed.
    pub allow_missing: bool,
}

/// Why the feedback could not be written.
#[derive(Debug)]
pub enum FeedbackError {
    /// The kit, the hand scores or a file could not be read or written.
    Kit(KitError),
    /// The report directory keeps no results: it was not written by `grade class --report`
    /// (or by a `grade` that did not keep them).
    NoResults(PathBuf),
    /// A kept result could not be read.
    Kept {
        /// Its file.
        path: PathBuf,
        /// Why.
        why: KeptError,
    },
    /// A Moodle zip was asked for, and no gradebook says who each submission's students are.
    NoGradebook(String),
    /// The files were written, but this many students are left out of the Moodle zip.
    LeftOut(usize),
}

impl std::fmt::Display for FeedbackError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeedbackError::Kit(error) => error.fmt(f),
            FeedbackError::NoResults(dir) => write!(
                f,
                "{}: no results kept there ({RESULTS}/ is missing): grade the class with \
                 --report {} first",
                dir.display(),
                dir.display()
            ),
            FeedbackError::Kept { path, why } => write!(f, "{}: {why}", path.display()),
            FeedbackError::NoGradebook(why) => write!(
                f,
                "{why}: the Moodle zip needs the gradebook grade class wrote with this report \
                 directory (--csv), whose who-columns match students to the worksheet"
            ),
            FeedbackError::LeftOut(count) => write!(
                f,
                "{} left out of {MOODLE_ZIP} (named above), so that no feedback reaches the \
                 wrong student: give them their ID number or email in the gradebook (grade \
                 class --roster), download the worksheet again if they joined since, or give \
                 --allow-missing to upload it without them",
                students(*count)
            ),
        }
    }
}

impl From<KitError> for FeedbackError {
    fn from(error: KitError) -> Self {
        FeedbackError::Kit(error)
    }
}

/// Where `student`'s result is kept in the report directory `dir`.
fn kept_path(dir: &Path, student: &str) -> PathBuf {
    dir.join(RESULTS)
        .join(format!("{}.json", file_stem(student)))
}

/// Where `student`'s feedback page is in the report directory `dir` (the Markdown beside it).
pub fn page(dir: &Path, student: &str) -> PathBuf {
    dir.join(FOLDER).join(feedback::page_name(student))
}

/// Keeps `result` in the report directory `dir`, for its feedback to be written later.
pub(crate) fn keep(dir: &Path, result: &StudentResult) -> Result<(), KitError> {
    replace(&kept_path(dir, &result.student), &kept::to_json(result)).map_err(KitError::from)
}

/// Reads the kept result at `path`.
fn read(path: &Path) -> Result<StudentResult, FeedbackError> {
    let text = fs::read_to_string(path)
        .map_err(|e| KitError(format!("{}: cannot read: {e}", path.display())))?;
    kept::from_json(&text).map_err(|why| FeedbackError::Kept {
        path: path.to_path_buf(),
        why,
    })
}

/// The result kept for `student` in `dir`, if there is one (none from a `grade` that kept
/// none, or for another student whose name makes the same file name).
pub(crate) fn kept(dir: &Path, student: &str) -> Result<Option<StudentResult>, FeedbackError> {
    let path = kept_path(dir, student);
    if !path.is_file() {
        return Ok(None);
    }
    Ok(Some(read(&path)?).filter(|result| result.student == student))
}

/// Whether every checklist item of `rubric` is scored in `marks`: the student's feedback can
/// be returned.
pub(crate) fn done(rubric: &Rubric, marks: Option<&Marks>) -> bool {
    let (scored, items) = hand::scored(rubric, marks);
    scored == items
}

/// Each student's changes to their total beyond the rubric's points: their late penalty.
pub(crate) type Adjustments = BTreeMap<String, Vec<Adjustment>>;

/// The adjustments the gradebook at `csv` gives (its late penalties, explained by `rubric`'s
/// late policy); none without one.
pub(crate) fn adjustments(csv: Option<&Path>, rubric: &Rubric) -> Result<Adjustments, KitError> {
    let Some(csv) = csv else {
        return Ok(Adjustments::new());
    };
    let text = fs::read_to_string(csv)
        .map_err(|e| KitError(format!("{}: the gradebook: {e}", csv.display())))?;
    let penalties = gradebook::late_penalties(&text)
        .map_err(|why| KitError(format!("{}: {why}", csv.display())))?;
    Ok(penalties
        .into_iter()
        .map(|(student, penalty)| (student, vec![Adjustment::late(&penalty, rubric)]))
        .collect())
}

/// Writes `result`'s feedback files into the report directory `dir`, with their `marks` and
/// their `adjustments` (if any), and returns the page's path.
pub(crate) fn write(
    dir: &Path,
    rubric: &Rubric,
    result: &StudentResult,
    marks: Option<&Marks>,
    adjustments: &Adjustments,
) -> Result<PathBuf, KitError> {
    let theirs = adjustments
        .get(&result.student)
        .map_or(&[][..], Vec::as_slice);
    let text = feedback::markdown(rubric, result, marks, theirs);
    let page = page(dir, &result.student);
    replace(&page.with_extension("md"), &text)?;
    replace(&page, &feedback::html(rubric, result, &text))?;
    Ok(page)
}

/// What [`write_all`] did: the students whose feedback it wrote, and those it left out (their
/// hand grading is not done).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The students whose feedback was written.
    pub written: Vec<String>,
    /// The students not completely scored, whose feedback was not written.
    pub unfinished: Vec<String>,
}

impl Written {
    /// What was written, in words: `wrote the feedback of 2 students` and who is not finished
    /// (with `all`, written marked so; else left out).
    pub fn said(&self, all: bool) -> String {
        let mut said = format!("wrote the feedback of {}", students(self.written.len()));
        if self.unfinished.is_empty() {
            return said;
        }
        let names: Vec<String> = self.unfinished.iter().map(|n| inert::line(n)).collect();
        let _ = match all {
            true => write!(
                said,
                " ({} marked \"{}\": {})",
                students(names.len()),
                feedback::NOT_FINISHED,
                names.join(", ")
            ),
            false => write!(
                said,
                "; hand grading not finished, no feedback yet: {} (--all writes theirs too)",
                names.join(", ")
            ),
        };
        said
    }
}

/// Writes the feedback of every student with a result kept in `dir` whose hand grading is
/// done in `hand` (with `all`, of every one, the unfinished marked so at the top).
pub(crate) fn write_all(
    dir: &Path,
    rubric: &Rubric,
    hand: &HandScores,
    adjustments: &Adjustments,
    all: bool,
) -> Result<Written, FeedbackError> {
    let folder = dir.join(RESULTS);
    let listing = fs::read_dir(&folder).map_err(|_| FeedbackError::NoResults(dir.into()))?;
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut written = Written::default();
    for path in paths {
        let result = read(&path)?;
        let marks = hand.students.get(&result.student);
        let finished = done(rubric, marks);
        if finished || all {
            write(dir, rubric, &result, marks, adjustments)?;
            written.written.push(result.student.clone());
        }
        if !finished {
            written.unfinished.push(result.student);
        }
    }
    Ok(written)
}

/// Writes the feedback files of the report directory `run.dir` and says what was written.
pub fn run(run: &FeedbackRun) -> Result<(), FeedbackError> {
    let rubric = Rubric::load(
        &find_kit(run.kit.as_deref())
            .map_err(KitError::from)?
            .join("rubric.toml"),
    )
    .map_err(KitError::from)?;
    let worksheet = run
        .moodle_worksheet
        .as_deref()
        .map(Roster::load)
        .transpose()
        .map_err(KitError::from)?;
    let hand = load_scores(&run.dir, &rubric)?;
    let csv = super::gallery::recorded_gradebook(&run.dir);
    let csv = match (csv, &worksheet) {
        (Ok(csv), _) => Some(csv),
        (Err(why), Some(_)) => return Err(FeedbackError::NoGradebook(why.0)),
        (Err(_), None) => None,
    };
    let adjustments = adjustments(csv.as_deref(), &rubric)?;
    let written = write_all(&run.dir, &rubric, &hand, &adjustments, run.all)?;
    super::gallery::link_feedback(&run.dir, &rubric)?;
    let folder = run.dir.join(FOLDER);
    eprintln!("grade: {}, in {}", written.said(run.all), folder.display());
    let Some(csv) = csv else {
        return Ok(());
    };
    let text = fs::read_to_string(&csv)
        .map_err(|e| KitError(format!("{}: the gradebook: {e}", csv.display())))?;
    let graded = export::read(&text, &rubric, None)
        .map_err(|why| KitError(format!("{}: {why}", csv.display())))?;
    let copies = by_student(&run.dir, &graded, &written.written)?;
    eprintln!(
        "grade: a copy for each of {}, named by name and SID, in {} (its {INDEX}: file, \
         submission, student, email, SID)",
        students(copies),
        folder.join(BY_STUDENT).display()
    );
    let Some(worksheet) = worksheet else {
        return Ok(());
    };
    let zipped = moodle_zip(&run.dir, &graded, &written.written, &worksheet)?;
    eprintln!(
        "grade: the pages of {} in {}, for the Moodle assignment's View all submissions > \
         Upload multiple feedback files in a zip",
        students(zipped.entries),
        folder.join(MOODLE_ZIP).display()
    );
    for who in &zipped.left_out {
        eprintln!(
            "grade: left out of {MOODLE_ZIP}: {}: no single row of the worksheet has their ID \
             number or email and an Identifier",
            inert::line(who)
        );
    }
    match zipped.left_out.len() {
        0 => Ok(()),
        _ if run.allow_missing => Ok(()),
        count => Err(FeedbackError::LeftOut(count)),
    }
}

/// What [`moodle_zip`] wrote: how many pages, and the students left out (no participant id).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Zipped {
    /// The pages in the zip.
    entries: usize,
    /// The students without a participant id, as messages name them.
    left_out: Vec<String>,
}

/// Writes [`MOODLE_ZIP`] in `dir`'s feedback folder: the feedback page of each submission of
/// `graded` that was `written`, once per student of it that the Moodle `worksheet` gives a
/// participant id, named as Moodle's zip upload matches it ([`feedback::moodle_entry`]).
fn moodle_zip(
    dir: &Path,
    graded: &[Graded],
    written: &[String],
    worksheet: &Roster,
) -> Result<Zipped, KitError> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let path = dir.join(FOLDER).join(MOODLE_ZIP);
    let failed = |e: zip::result::ZipError| KitError(format!("{}: {e}", path.display()));
    let mut zipped = Zipped::default();
    for submission in graded.iter().filter(|g| written.contains(&g.folder)) {
        let page = page(dir, &submission.folder);
        let text = fs::read(&page).map_err(|e| KitError(format!("{}: {e}", page.display())))?;
        for member in &submission.members {
            let Some(participant) = worksheet.participant(member) else {
                zipped.left_out.push(member.shown());
                continue;
            };
            zip.start_file(feedback::moodle_entry(&member.name, participant), options)
                .map_err(failed)?;
            zip.write_all(&text)
                .map_err(|e| KitError(format!("{}: {e}", path.display())))?;
            zipped.entries += 1;
        }
    }
    let bytes = zip.finish().map_err(failed)?.into_inner();
    replace_bytes(&path, &bytes)?;
    Ok(zipped)
}

/// Copies the feedback page of each submission of `graded` that was `written` once per
/// student of it into `dir`'s [`BY_STUDENT`] folder, named by their name and SID (a number
/// added where two would share a name), and writes its [`INDEX`]; returns how many.
fn by_student(dir: &Path, graded: &[Graded], written: &[String]) -> Result<usize, KitError> {
    let out = dir.join(FOLDER).join(BY_STUDENT);
    let mut index = vec![["file", "submission", "student", "email", "SID"].map(String::from)];
    let mut used = std::collections::BTreeSet::new();
    for submission in graded.iter().filter(|g| written.contains(&g.folder)) {
        let page = page(dir, &submission.folder);
        let text =
            fs::read_to_string(&page).map_err(|e| KitError(format!("{}: {e}", page.display())))?;
        for member in &submission.members {
            let stem = file_stem(&format!("{} {}", member.name, member.student_id));
            let file = (1..)
                .map(|n| match n {
                    1 => format!("{stem}.html"),
                    n => format!("{stem}_{n}.html"),
                })
                .find(|file| !used.contains(file))
                .unwrap_or_default();
            replace(&out.join(&file), &text)?;
            used.insert(file.clone());
            index.push([
                file,
                inert::cell(&submission.folder),
                inert::cell(&member.name),
                inert::cell(&member.email),
                inert::cell(&member.student_id),
            ]);
        }
    }
    replace(&out.join(INDEX), &gradebook::write_rows(&index))?;
    Ok(index.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::{hand_rubric, student};

    fn member(sid: &str, name: &str, email: &str) -> crate::kit::roster::Member {
        crate::kit::roster::Member {
            student_id: sid.into(),
            name: name.into(),
            email: email.into(),
            login: String::new(),
        }
    }

    fn graded(folder: &str, members: Vec<crate::kit::roster::Member>) -> Graded {
        Graded {
            folder: folder.into(),
            members,
            grade: None,
            penalty: String::new(),
            late: String::new(),
            hand: Vec::new(),
            comments: String::new(),
            timing_left_out: false,
        }
    }

    #[test]
    fn each_student_of_a_group_gets_a_copy_named_by_name_and_sid_and_the_index_says_whose() {
        let dir = tempfile::tempdir().unwrap();
        let member = |sid: &str, name: &str| member(sid, name, &format!("{sid}@x.edu"));
        let class = [
            graded(
                "submission_1",
                vec![member("000123", "Zoë Müller"), member("000124", "=Bo")],
            ),
            graded("submission_2", vec![member("000125", "Cy")]),
            graded("submission_3", vec![member("000126", "Dee")]),
        ];
        for folder in ["submission_1", "submission_2"] {
            replace(&page(dir.path(), folder), folder).unwrap();
        }
        let written = ["submission_1".to_string(), "submission_2".to_string()];
        assert_eq!(by_student(dir.path(), &class, &written).unwrap(), 3);
        let out = dir.path().join(FOLDER).join(BY_STUDENT);
        let read = |file: &str| fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(read("Zoë_Müller_000123.html"), "submission_1");
        assert_eq!(read("Bo_000124.html"), "submission_1");
        assert_eq!(read("Cy_000125.html"), "submission_2");
        assert!(
            !out.join("Dee_000126.html").exists(),
            "not written: no copy"
        );
        assert_eq!(
            read(INDEX),
            "file,submission,student,email,SID\n\
             Zoë_Müller_000123.html,submission_1,Zoë Müller,000123@x.edu,000123\n\
             Bo_000124.html,submission_1,'=Bo,000124@x.edu,000124\n\
             Cy_000125.html,submission_2,Cy,000125@x.edu,000125\n"
        );
    }

    #[test]
    fn the_moodle_zip_names_each_student_s_page_by_their_participant_id_and_leaves_out_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let class = [
            graded(
                "submission_1",
                vec![
                    member("1001", "~Ann_Lee/", "ann@x.edu"),
                    member("", "Bo Ray", "BO@x.edu"),
                ],
            ),
            graded("submission_2", vec![member("1003", "Cy", "cy@x.edu")]),
            graded("submission_3", vec![member("1004", "Dee", "dee@x.edu")]),
        ];
        for folder in ["submission_1", "submission_2", "submission_3"] {
            replace(&page(dir.path(), folder), folder).unwrap();
        }
        let worksheet = Roster::parse(
            Path::new("worksheet.csv"),
            "Identifier,\"Full name\",\"Email address\",Status,Grade\n\
             \"Participant 501\",\"Ann Lee\",ann@x.edu,Submitted,\n\
             \"Participant 502\",\"Bo Ray\",bo@x.edu,Submitted,\n\
             \"Participant 504\",Dee,dee@x.edu,Submitted,\n",
        )
        .unwrap();
        let written = ["submission_1".to_string(), "submission_2".to_string()];
        let zipped = moodle_zip(dir.path(), &class, &written, &worksheet).unwrap();
        // Cy is on no row of the worksheet; Dee's feedback was not written.
        assert_eq!(zipped.entries, 2);
        assert_eq!(zipped.left_out, ["Cy"]);
        let file = fs::File::open(dir.path().join(FOLDER).join(MOODLE_ZIP)).unwrap();
        let mut archive = zip::ZipArchive::new(file).unwrap();
        let mut names: Vec<&str> = archive.file_names().collect();
        names.sort();
        // Named as Moodle matches them (report::feedback's tests pin the layout).
        assert_eq!(
            names,
            [
                "Ann Lee_501_assignfeedback_file_feedback.html",
                "Bo Ray_502_assignfeedback_file_feedback.html"
            ]
        );
        let mut page = String::new();
        std::io::Read::read_to_string(&mut archive.by_index(0).unwrap(), &mut page).unwrap();
        assert_eq!(page, "submission_1");
    }

    #[test]
    fn a_kept_result_is_read_back_for_its_student_only() {
        let dir = tempfile::tempdir().unwrap();
        let ann = student("ann lee", Vec::new(), 1);
        keep(dir.path(), &ann).unwrap();
        assert_eq!(kept(dir.path(), "ann lee").unwrap(), Some(ann));
        // Another name with the same file name, and a student never graded.
        assert_eq!(kept(dir.path(), "ann_lee").unwrap(), None);
        assert_eq!(kept(dir.path(), "bob").unwrap(), None);
        fs::write(kept_path(dir.path(), "bob"), "{\"version\": 9}").unwrap();
        let error = kept(dir.path(), "bob").unwrap_err();
        assert!(error.to_string().contains("version 9"), "{error}");
    }

    #[test]
    fn only_students_whose_hand_grading_is_done_get_feedback_unless_all() {
        let dir = tempfile::tempdir().unwrap();
        let rubric = hand_rubric();
        assert!(matches!(
            write_all(
                dir.path(),
                &rubric,
                &HandScores::default(),
                &Adjustments::new(),
                false
            ),
            Err(FeedbackError::NoResults(_))
        ));
        for name in ["ann", "bob"] {
            keep(dir.path(), &student(name, Vec::new(), 1)).unwrap();
        }
        let hand: HandScores = serde_json::from_str(
            r#"{"students": {"ann": {"GUI": {"items": [3, 2], "comment": "good"}},
                             "bob": {"GUI": {"items": [3, null]}}}}"#,
        )
        .unwrap();
        let written = write_all(dir.path(), &rubric, &hand, &Adjustments::new(), false).unwrap();
        assert_eq!(written.written, ["ann"]);
        assert_eq!(written.unfinished, ["bob"]);
        assert_eq!(
            written.said(false),
            "wrote the feedback of 1 student; hand grading not finished, no feedback yet: bob \
             (--all writes theirs too)"
        );
        assert!(page(dir.path(), "ann").is_file());
        assert!(page(dir.path(), "ann").with_extension("md").is_file());
        assert!(!page(dir.path(), "bob").exists());
        let written = write_all(dir.path(), &rubric, &hand, &Adjustments::new(), true).unwrap();
        assert_eq!(written.written, ["ann", "bob"]);
        assert_eq!(
            written.said(true),
            "wrote the feedback of 2 students (1 student marked \"Hand grading not finished\": bob)"
        );
        let bob = fs::read_to_string(page(dir.path(), "bob").with_extension("md")).unwrap();
        assert!(bob.contains(feedback::NOT_FINISHED), "{bob}");
    }
}
