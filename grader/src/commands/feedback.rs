//! `grade feedback DIR`: the feedback files returned to students, `DIR/feedback/<student>.md`
//! and `.html` (see [`crate::report::feedback`]), written from the class store's records in the
//! report directory (each student's result, hand scores and lateness) without grading again.
//! `grade class` also writes the feedback of each student whose hand grading is done, and
//! `grade gallery` a student's as soon as a save completes their checklist, and everyone's done
//! at the press of a button ([`super::publish`]).
//!
//! To return them, `grade feedback` also puts a copy of each page per student of its
//! submission (each student of a group gets one) in `DIR/feedback/students/`, named by the
//! student's name and SID (`Ann_Lee_000123.html`), with `index.csv` (file, submission,
//! student, email, SID) to mail or upload them by, from who each submission is (a class graded
//! with a roster or an export). Given a Moodle assignment's grading worksheet
//! (`--moodle-worksheet`), it also writes `DIR/feedback/moodle-feedback.zip` for that
//! assignment's "Upload multiple feedback files in a zip": each student's page named by their
//! participant id, found by their ID number or email (never by name); a student with none is
//! named and left out, and the command fails unless told `--allow-missing`. The copies and the
//! zip hold the pages as this run made them, never read back from the disk; a student whose
//! feedback's reporter failed (their files say "report failed") is named and left out of both.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::io::{Cursor, Write as _};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use super::files::{find_kit, replace, FindKitError, WriteError};
use super::publish::{self, PublishError, Unreported};
use crate::judge::file_stem;
use crate::kit::roster::{Member, Roster, RosterError};
use crate::kit::rubric::RubricError;
use crate::kit::Rubric;
use crate::report::feedback::{self, FOLDER};
use crate::report::gradebook;
use crate::report::inert;
use crate::report::numbers::students;
use crate::report::unreported;
use crate::store::{Record, Store, StoreError};

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
#[derive(Debug, thiserror::Error)]
pub enum FeedbackError {
    /// The kit could not be found.
    #[error(transparent)]
    Find(#[from] FindKitError),
    /// The rubric could not be loaded.
    #[error(transparent)]
    Rubric(#[from] RubricError),
    /// The Moodle worksheet could not be read.
    #[error(transparent)]
    Worksheet(#[from] RosterError),
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The class's files could not be written again.
    #[error(transparent)]
    Publish(#[from] PublishError),
    /// The Moodle zip could not be written.
    #[error("{}: {source}", .path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The Moodle zip could not be made.
    #[error("{}: {source}", .path.display())]
    Zip {
        /// The zip.
        path: PathBuf,
        /// Why.
        #[source]
        source: zip::result::ZipError,
    },
    /// The class store could not be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The report directory holds no records: it was not written by `grade class --report`.
    #[error(
        "{}: no student graded there ({}/ is missing or empty): grade the class with --report {} \
         first",
        .0.display(),
        crate::store::FOLDER,
        .0.display()
    )]
    NoRecords(PathBuf),
    /// A Moodle zip was asked for, and nothing says who each submission's students are.
    #[error(
        "{}: the Moodle zip needs to know who each submission's students are: grade the class \
         with --roster (or from Gradescope's export) so that its records match students to the \
         worksheet",
        .0.display()
    )]
    NoRoster(PathBuf),
    /// The files were written, but this many students are left out of the Moodle zip.
    #[error(
        "{} left out of {MOODLE_ZIP} (named above), so that no feedback reaches the wrong \
         student: give them their ID number or email in the roster (grade class --roster), \
         download the worksheet again if they joined since, or give --allow-missing to upload \
         it without them",
        students(*.0)
    )]
    LeftOut(usize),
}

/// What [`write_all`] did: the students whose feedback it wrote (and each one's page, as
/// written), those it left out (their hand grading is not done), and those whose feedback's
/// reporter failed (their files say so).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// The students whose feedback was written.
    pub written: Vec<String>,
    /// The page written for each of them, by student: what is copied and zipped.
    pub pages: BTreeMap<String, String>,
    /// The students not completely scored, whose feedback was not written.
    pub unfinished: Vec<String>,
    /// The students whose feedback's reporter failed, and why.
    pub unreported: Vec<Unreported>,
}

impl Written {
    /// What was written, in words: `wrote the feedback of 2 students` and who is not finished
    /// (with `all`, written marked so; else left out).
    pub fn said(&self, all: bool) -> String {
        let mut said = format!("wrote the feedback of {}", students(self.written.len()));
        if self.unfinished.is_empty() {
            return said;
        }
        let names = inert::names(&self.unfinished);
        let _ = match all {
            true => write!(
                said,
                " ({} marked \"{}\": {names})",
                students(self.unfinished.len()),
                feedback::NOT_FINISHED,
            ),
            false => write!(
                said,
                "; hand grading not finished, no feedback yet: {names} (--all writes theirs too)",
            ),
        };
        said
    }
}

/// Writes the feedback of each of `records` (those of the report directory `dir`) whose hand
/// grading is done (with `all`, of every one, the unfinished marked so at the top).
pub(crate) fn write_all(
    dir: &Path,
    rubric: &Rubric,
    records: &[Record],
    all: bool,
) -> Result<Written, WriteError> {
    let mut written = Written::default();
    for record in records {
        let finished = publish::done(rubric, record);
        if finished || all {
            match publish::feedback(dir, rubric, record)? {
                Ok(page) => {
                    written.written.push(record.student.clone());
                    written.pages.insert(record.student.clone(), page);
                }
                Err(lost) => written.unreported.push(lost),
            }
        }
        if !finished {
            written.unfinished.push(record.student.clone());
        }
    }
    Ok(written)
}

/// Writes the feedback files of the report directory `run.dir` and says what was written.
pub fn run(run: &FeedbackRun) -> Result<(), FeedbackError> {
    let rubric = Rubric::load(&find_kit(run.kit.as_deref())?.join("rubric.toml"))?;
    let worksheet = run
        .moodle_worksheet
        .as_deref()
        .map(Roster::load)
        .transpose()?;
    let store = Store::of(&run.dir);
    let (class, records) = store.class_records()?;
    for (student, why) in store.unread()? {
        eprintln!(
            "grade feedback: {}",
            unreported::unreadable(&student, &why.to_string())
        );
    }
    if records.is_empty() {
        return Err(FeedbackError::NoRecords(run.dir.clone()));
    }
    let mut written = write_all(&run.dir, &rubric, &records, run.all)?;
    let mut unreported = publish::republish(&run.dir, &rubric, class.as_ref(), &records, None)?;
    unreported.append(&mut written.unreported);
    unreported.sort();
    unreported.dedup();
    for (student, why) in &unreported {
        eprintln!(
            "grade: the grader failed while writing the files of {}: {why}",
            inert::line(student)
        );
    }
    let folder = run.dir.join(FOLDER);
    eprintln!("grade: {}, in {}", written.said(run.all), folder.display());
    // One copy per student: one in two submissions gets the one the rubric's rule keeps.
    let records = super::settle::records(&rubric, &records);
    let whose: Vec<Whose> = records
        .iter()
        .filter_map(|r| {
            let page = written.pages.get(&r.student)?;
            let members = &r.who.as_ref()?.members;
            Some((r.student.as_str(), members.as_slice(), page.as_str()))
        })
        .collect();
    if whose.is_empty() {
        return match worksheet {
            Some(_) => Err(FeedbackError::NoRoster(run.dir.clone())),
            None => Ok(()),
        };
    }
    let copies = by_student(&run.dir, &whose)?;
    eprintln!(
        "grade: a copy for each of {}, named by name and SID, in {} (its {INDEX}: file, \
         submission, student, email, SID)",
        students(copies),
        folder.join(BY_STUDENT).display()
    );
    let Some(worksheet) = worksheet else {
        return Ok(());
    };
    let zipped = moodle_zip(&run.dir, &whose, &worksheet)?;
    eprintln!(
        "grade: the pages of {} in {}, for the Moodle assignment's View all submissions > \
         Upload multiple feedback files in a zip",
        students(zipped.entries),
        folder.join(MOODLE_ZIP).display()
    );
    for who in &zipped.left_out {
        eprintln!(
            "grade: left out of {MOODLE_ZIP}: {}: no single row of the worksheet has their ID \
             number or email and an Identifier, or another student of the class matched it too",
            inert::line(who)
        );
    }
    match zipped.left_out.len() {
        0 => Ok(()),
        _ if run.allow_missing => Ok(()),
        count => Err(FeedbackError::LeftOut(count)),
    }
}

/// A submission whose feedback was written, by its folder, its students, and its page as
/// written.
type Whose<'a> = (&'a str, &'a [Member], &'a str);

/// What [`moodle_zip`] wrote: how many pages, and the students left out (no participant id).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Zipped {
    /// The pages in the zip.
    entries: usize,
    /// The students without a participant id, as messages name them.
    left_out: Vec<String>,
}

/// Writes [`MOODLE_ZIP`] in `dir`'s feedback folder: the feedback page of each submission of
/// `whose`, once per student of it that the Moodle `worksheet` gives a
/// participant id, named as Moodle's zip upload matches it ([`feedback::moodle_entry`]); the
/// pages as they were made, never read back.
fn moodle_zip(dir: &Path, whose: &[Whose], worksheet: &Roster) -> Result<Zipped, FeedbackError> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let path = dir.join(FOLDER).join(MOODLE_ZIP);
    let failed = |source| FeedbackError::Zip {
        path: path.clone(),
        source,
    };
    let mut zipped = Zipped::default();
    let mut zipped_ids = std::collections::BTreeSet::new();
    for (_, members, text) in whose {
        for member in members.iter() {
            // A participant already zipped (two of the class's students matched to one row)
            // is left out rather than failing the zip for everyone.
            let participant = worksheet.participant(member);
            let Some(participant) = participant.filter(|&id| zipped_ids.insert(id)) else {
                zipped.left_out.push(member.shown());
                continue;
            };
            zip.start_file(feedback::moodle_entry(&member.name, participant), options)
                .map_err(failed)?;
            zip.write_all(text.as_bytes())
                .map_err(|source| file_failed(&path, source))?;
            zipped.entries += 1;
        }
    }
    let bytes = zip.finish().map_err(failed)?.into_inner();
    replace(&path, &bytes)?;
    Ok(zipped)
}

/// [`FeedbackError::File`]: `path` could not be written.
fn file_failed(path: &Path, source: std::io::Error) -> FeedbackError {
    FeedbackError::File {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the feedback page of each submission of `whose` once per student of it into `dir`'s
/// [`BY_STUDENT`] folder, named by their name and SID (a number added where two would share a
/// name), and writes its [`INDEX`]; returns how many.
fn by_student(dir: &Path, whose: &[Whose]) -> Result<usize, FeedbackError> {
    let out = dir.join(FOLDER).join(BY_STUDENT);
    let mut index = vec![["file", "submission", "student", "email", "SID"].map(String::from)];
    let mut used = std::collections::BTreeSet::new();
    for (folder, members, text) in whose {
        for member in members.iter() {
            let stem = file_stem(&format!("{} {}", member.name, member.student_id));
            let file = (1..)
                .map(|n| match n {
                    1 => format!("{stem}.html"),
                    n => format!("{stem}_{n}.html"),
                })
                .find(|file| !used.contains(file))
                .unwrap_or_default();
            replace(&out.join(&file), text)?;
            used.insert(file.clone());
            index.push([
                file,
                inert::cell(folder),
                inert::cell(&member.name),
                inert::cell(&member.email),
                inert::cell(&member.student_id),
            ]);
        }
    }
    replace(&out.join(INDEX), gradebook::write_rows(&index))?;
    Ok(index.len() - 1)
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::commands::publish::feedback_page as page;
    use crate::judge::fixtures::{hand_rubric, student};
    use crate::kit::roster::member;

    /// `class` as [`Whose`], the first `written` of them, each page its folder's name.
    fn whose(class: &[(&'static str, Vec<Member>)], written: usize) -> Vec<Whose<'static>> {
        class
            .iter()
            .take(written)
            .map(|(folder, members)| (*folder, members.clone().leak() as &[Member], *folder))
            .collect()
    }

    #[test]
    fn each_student_of_a_group_gets_a_copy_named_by_name_and_sid_and_the_index_says_whose() {
        let dir = tempfile::tempdir().unwrap();
        let member = |sid: &str, name: &str| member(sid, name, &format!("{sid}@x.edu"));
        let class = [
            (
                "submission_1",
                vec![member("000123", "Zoë Müller"), member("000124", "=Bo")],
            ),
            ("submission_2", vec![member("000125", "Cy")]),
            ("submission_3", vec![member("000126", "Dee")]),
        ];
        assert_eq!(by_student(dir.path(), &whose(&class, 2)).unwrap(), 3);
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
            (
                "submission_1",
                vec![
                    member("1001", "~Ann_Lee/", "ann@x.edu"),
                    member("", "Bo Ray", "BO@x.edu"),
                ],
            ),
            ("submission_2", vec![member("1003", "Cy", "cy@x.edu")]),
            ("submission_3", vec![member("1004", "Dee", "dee@x.edu")]),
        ];
        let worksheet = Roster::parse(
            Path::new("worksheet.csv"),
            "Identifier,\"Full name\",\"Email address\",Status,Grade\n\
             \"Participant 501\",\"Ann Lee\",ann@x.edu,Submitted,\n\
             \"Participant 502\",\"Bo Ray\",bo@x.edu,Submitted,\n\
             \"Participant 504\",Dee,dee@x.edu,Submitted,\n",
        )
        .unwrap();
        let zipped = moodle_zip(dir.path(), &whose(&class, 2), &worksheet).unwrap();
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
    fn only_students_whose_hand_grading_is_done_get_feedback_unless_all() {
        let dir = tempfile::tempdir().unwrap();
        let rubric = hand_rubric();
        let marked = |name: &str, marks: &str| {
            let mut record = Record::new(student(name, Vec::new(), 1), None, None, None);
            record.hand = serde_json::from_str(marks).unwrap();
            record
        };
        let records = [
            marked("ann", r#"{"GUI": {"items": [3, 2], "comment": "good"}}"#),
            marked("bob", r#"{"GUI": {"items": [3, null]}}"#),
        ];
        let written = write_all(dir.path(), &rubric, &records, false).unwrap();
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
        let written = write_all(dir.path(), &rubric, &records, true).unwrap();
        assert_eq!(written.written, ["ann", "bob"]);
        assert_eq!(
            written.said(true),
            "wrote the feedback of 2 students (1 student marked \"Hand grading not finished\": bob)"
        );
        let bob = fs::read_to_string(page(dir.path(), "bob").with_extension("md")).unwrap();
        assert!(bob.contains(feedback::NOT_FINISHED), "{bob}");
    }
}
