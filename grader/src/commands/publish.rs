//! The files made of the class store's records, written whole: each student's Markdown report,
//! gallery page and (once their hand grading is done) feedback; the class's gradebook, the
//! gallery's class page and the standings. `grade class` writes them after a run (and each
//! student's reports as soon as they are graded), `grade gallery` on each save, `grade
//! feedback` and `grade student` what is theirs. Nothing here reads a file the kit wrote: every
//! one of them is a function of the records. A panic while one student's files are made costs
//! that student's alone: they are named, and everyone else's are written.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use super::files::{replace, write, WriteError};
use crate::judge::class::panic_message;
use crate::judge::file_stem;
use crate::judge::result::hand;
use crate::kit::Rubric;
use crate::report::class::{Standing, Standings, STANDINGS};
use crate::report::feedback as feedback_report;
use crate::report::gallery::{self, CLASS_PAGE, FOLDER, SCRIPT, STYLE};
use crate::report::{gradebook, markdown};
use crate::store::{Class, Record};

/// The environment variable that makes the reporters panic for the student it names, in a
/// debug build: how the tests show that a reporter's bug costs one student's files alone.
#[cfg(debug_assertions)]
const PANIC_FOR: &str = "CONNECT_FOUR_GRADER_TEST_PANIC_REPORTING";

/// A student whose files the grader failed to make (it panicked), and the panic's message.
pub type Unreported = (String, String);

/// What the files are made with, and where the reports go.
pub(crate) struct Publication<'a> {
    /// The rubric.
    pub rubric: &'a Rubric,
    /// The categories with a speed-up case.
    pub timed: &'a [String],
    /// The report directory (`--report`), for each student's reports and the gallery.
    pub reports: Option<&'a Path>,
}

/// Why the class's files could not all be written ([`Publication::class`]).
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// A file could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The standings could not be made JSON.
    #[error("the class's standings: {0}")]
    Standings(#[from] serde_json::Error),
}

/// What [`Publication::class`] wrote.
#[derive(Debug, Default)]
pub(crate) struct Published {
    /// The standing of each student whose files were written, in the class's order.
    pub standings: Vec<Standing>,
    /// The students whose files the grader failed to make.
    pub unreported: Vec<Unreported>,
    /// How many students' feedback was written (their hand grading is done).
    pub feedback: usize,
}

/// Whether `record`'s hand grading is done: every checklist item of `rubric` is scored, so
/// their feedback can be returned.
pub(crate) fn done(rubric: &Rubric, record: &Record) -> bool {
    let (scored, items) = hand::scored(rubric, record.marks());
    scored == items
}

/// Where `student`'s feedback page is in the report directory `dir` (the Markdown beside it).
pub fn feedback_page(dir: &Path, student: &str) -> PathBuf {
    dir.join(feedback_report::FOLDER)
        .join(gallery::page_name(student))
}

/// Writes `record`'s feedback files into the report directory `dir`, and returns the page.
pub(crate) fn feedback(
    dir: &Path,
    rubric: &Rubric,
    record: &Record,
) -> Result<PathBuf, WriteError> {
    let result = &record.result;
    let adjustments = feedback_report::adjustments(rubric, record.who.as_ref());
    let text = feedback_report::markdown(rubric, result, record.marks(), &adjustments);
    let page = feedback_page(dir, &result.student);
    replace(&page.with_extension("md"), &text)?;
    replace(&page, feedback_report::html(rubric, result, &text))?;
    Ok(page)
}

impl Publication<'_> {
    /// Writes `record`'s reports into the report directory, if there is one: their Markdown
    /// report, their gallery page and, once their hand grading is done, their feedback.
    pub(crate) fn student(&self, record: &Record) -> Result<(), WriteError> {
        let Some(dir) = self.reports else {
            return Ok(());
        };
        #[cfg(debug_assertions)]
        if std::env::var_os(PANIC_FOR).is_some_and(|name| name == record.student.as_str()) {
            panic!("a reporter failed ({PANIC_FOR})");
        }
        let result = &record.result;
        let markdown_path = dir.join(format!("{}.md", file_stem(&result.student)));
        write(&markdown_path, markdown::student(self.rubric, result))?;
        self.page(record)?;
        if done(self.rubric, record) {
            feedback(dir, self.rubric, record)?;
        }
        Ok(())
    }

    /// Writes `record`'s gallery page, and returns where (none without a report directory).
    pub(crate) fn page(&self, record: &Record) -> Result<Option<PathBuf>, WriteError> {
        let Some(dir) = self.reports else {
            return Ok(None);
        };
        let page = dir.join(FOLDER).join(gallery::page_name(&record.student));
        let html = gallery::student_page(self.rubric, &record.result, record.marks(), dir);
        write(&page, &html)?;
        Ok(Some(page))
    }

    /// Writes the class's files from `records` (the class's, in its order): each student's
    /// reports, the gradebook at `gradebook` (with the columns of who when `class` has them),
    /// the gallery's class page and the standings beside the class summary in `summary`. A
    /// student whose files panic is left out of every one of them and named. A student in two
    /// submissions is in the one the rubric's rule keeps ([`super::settle`]).
    pub(crate) fn class(
        &self,
        class: Option<&Class>,
        records: &[Record],
        gradebook_path: Option<&Path>,
        summary: Option<&Path>,
    ) -> Result<Published, PublishError> {
        // One row per student: one in two submissions is in the one the rubric's rule keeps.
        let records = &super::settle::records(self.rubric, records);
        let joined = class.is_some_and(Class::joined);
        let mut published = Published::default();
        let (mut rows, mut class_rows) = (Vec::new(), Vec::new());
        for record in records {
            let made = panic::catch_unwind(AssertUnwindSafe(|| {
                self.student(record)?;
                let row = gradebook::row(self.rubric, self.timed, record, joined);
                let class_row = self.reports.map(|dir| {
                    let written = feedback_page(dir, &record.student).is_file();
                    let marks = record.marks();
                    gallery::class_row(self.rubric, &record.result, marks, dir, written)
                });
                let standing = Standing::of(self.rubric, &record.result);
                Ok::<_, WriteError>((row, class_row, standing))
            }));
            match made {
                Ok(made) => {
                    let (row, class_row, standing) = made?;
                    rows.push(row);
                    class_rows.extend(class_row);
                    published.standings.push(standing);
                    published.feedback += usize::from(done(self.rubric, record));
                }
                Err(payload) => published
                    .unreported
                    .push((record.student.clone(), panic_message(payload.as_ref()))),
            }
        }
        if let Some(path) = gradebook_path {
            let missing = class.and_then(|c| c.missing.as_deref());
            replace(
                path,
                gradebook::table(self.rubric, self.timed, rows, missing),
            )?;
        }
        if let Some(dir) = self.reports {
            for (name, text) in [SCRIPT, STYLE] {
                write(&dir.join(FOLDER).join(name), text)?;
            }
            replace(
                &dir.join(CLASS_PAGE),
                gallery::class_page_of(self.rubric, &class_rows),
            )?;
        }
        if let Some(summary) = summary {
            let standings = Standings {
                students: published.standings.clone(),
            };
            let json = serde_json::to_string_pretty(&standings)?;
            replace(&summary.join(STANDINGS), format!("{json}\n"))?;
        }
        Ok(published)
    }
}
