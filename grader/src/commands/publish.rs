//! The files made of the class store's records, written whole: each student's Markdown report,
//! gallery page and (once their hand grading is done) feedback; the class's gradebook, the
//! gallery's class page and the standings. `grade class` writes them after a run (and each
//! student's reports as soon as they are graded), `grade gallery` on each save, `grade
//! feedback` and `grade student` what is theirs. Nothing here reads a file the kit wrote: every
//! one of them is a function of the records. Every reporter of one student (their terminal
//! line, Markdown report, gallery page, feedback, gradebook row, class page row and standing)
//! runs under the same guard ([`guarded`]): a panic in one costs that file alone, which then
//! says "report failed: why" (never a missing row), and the student is named.

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
use crate::report::{gradebook, markdown, terminal, unreported};
use crate::store::{Class, Record};

/// The environment variable that makes reporters panic, in a debug build: `cy` for every one
/// of cy's, `cy:page` for one of them ([`Reporter::told`]), several separated by commas: how
/// the tests show that a reporter's bug costs that file alone.
#[cfg(debug_assertions)]
const PANIC_FOR: &str = "CONNECT_FOUR_GRADER_TEST_PANIC_REPORTING";

/// A student a reporter failed for (it panicked), and which reporter and why.
pub type Unreported = (String, String);

/// What a reporter makes of one student, or why it failed.
pub(crate) type Made<T> = Result<T, Unreported>;

/// The reporters of one student, each run under [`guarded`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reporter {
    /// Their summary on the terminal.
    Terminal,
    /// Their Markdown report.
    Markdown,
    /// Their gallery page.
    Page,
    /// Their feedback (its Markdown and its page).
    Feedback,
    /// Their gradebook row.
    Row,
    /// Their row on the gallery's class page.
    ClassRow,
    /// Their standing in the class summary.
    Standing,
}

impl Reporter {
    /// The file (or part of one) it makes, in messages.
    fn what(self) -> &'static str {
        match self {
            Reporter::Terminal => "their terminal line",
            Reporter::Markdown => "their Markdown report",
            Reporter::Page => "their gallery page",
            Reporter::Feedback => "their feedback",
            Reporter::Row => "their gradebook row",
            Reporter::ClassRow => "their row on the class page",
            Reporter::Standing => "their standing in the class summary",
        }
    }

    /// Whether [`PANIC_FOR`] tells it to panic for `student`: by their name alone, or their
    /// name and its word (`terminal`, `markdown`, `page`, `feedback`, `row`, `class-row`,
    /// `standing`).
    #[cfg(debug_assertions)]
    fn told(self, student: &str) -> bool {
        let word = match self {
            Reporter::Terminal => "terminal",
            Reporter::Markdown => "markdown",
            Reporter::Page => "page",
            Reporter::Feedback => "feedback",
            Reporter::Row => "row",
            Reporter::ClassRow => "class-row",
            Reporter::Standing => "standing",
        };
        let told = std::env::var(PANIC_FOR).unwrap_or_default();
        told.split(',').any(|one| match one.split_once(':') {
            Some((name, which)) => name == student && which == word,
            None => one == student,
        })
    }
}

/// What `reporter` makes of `student` (`make`), under the guard every reporter runs under: a
/// panic in it is caught, and said with the student and the file it cost.
pub(crate) fn guarded<T>(student: &str, reporter: Reporter, make: impl FnOnce() -> T) -> Made<T> {
    let made = panic::catch_unwind(AssertUnwindSafe(|| {
        #[cfg(debug_assertions)]
        if reporter.told(student) {
            panic!("a reporter failed ({PANIC_FOR})");
        }
        make()
    }));
    made.map_err(|payload| {
        let why = panic_message(payload.as_ref());
        (student.to_string(), format!("{}: {why}", reporter.what()))
    })
}

/// What `reporter` makes of `student`, or what stands in for it (`stand_in`, told why) when
/// it fails, the failure kept in `lost`.
fn or_stand_in<T>(
    student: &str,
    reporter: Reporter,
    lost: &mut Vec<Unreported>,
    make: impl FnOnce() -> T,
    stand_in: impl FnOnce(&str) -> T,
) -> T {
    guarded(student, reporter, make).unwrap_or_else(|failed| {
        let made = stand_in(&failed.1);
        lost.push(failed);
        made
    })
}

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

impl PublishError {
    /// The file that could not be written because the disk is full, if that is why.
    pub fn disk_full(&self) -> Option<&Path> {
        match self {
            PublishError::Write(error) => error.disk_full(),
            PublishError::Standings(_) => None,
        }
    }
}

/// What [`Publication::class`] wrote.
#[derive(Debug, Default)]
pub(crate) struct Published {
    /// The standing of each student, in the class's order.
    pub standings: Vec<Standing>,
    /// The students a reporter failed for, and which and why: their files say so.
    pub unreported: Vec<Unreported>,
    /// How many students' feedback was written (their hand grading is done).
    pub feedback: usize,
    /// Whether the gradebook was written.
    pub gradebook: bool,
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

/// Writes `record`'s feedback files into the report directory `dir`, made under the guard, and
/// returns the page written; when its reporter fails, the stand-ins are written and why is
/// returned.
pub(crate) fn feedback(
    dir: &Path,
    rubric: &Rubric,
    record: &Record,
) -> Result<Made<String>, WriteError> {
    let result = &record.result;
    let made = guarded(&record.student, Reporter::Feedback, || {
        let adjustments = feedback_report::adjustments(rubric, record.who.as_ref());
        let text = feedback_report::markdown(rubric, result, record.marks(), &adjustments);
        let html = feedback_report::html(rubric, result, &text);
        (text, html)
    });
    let (text, html) = match &made {
        Ok(made) => made.clone(),
        Err((student, why)) => (
            unreported::markdown(student, why),
            unreported::page(student, why),
        ),
    };
    let page = feedback_page(dir, &result.student);
    replace(&page.with_extension("md"), &text)?;
    replace(&page, &html)?;
    Ok(made.map(|(_, html)| html))
}

/// Writes the class's files in the report directory `dir` again from `records` (the class's,
/// as the store holds them): each student's reports, the class page and, for a class, its
/// gradebook at `csv` (else where the class run wrote it). Returns the students a reporter
/// failed for (their files say so).
pub(crate) fn republish(
    dir: &Path,
    rubric: &Rubric,
    class: Option<&Class>,
    records: &[Record],
    csv: Option<&Path>,
) -> Result<Vec<Unreported>, PublishError> {
    let publication = Publication {
        rubric,
        timed: class.map_or(&[], |c| c.timed.as_slice()),
        // A class graded without --report keeps its store beside its gradebook, and no pages.
        reports: class.is_none_or(|c| c.setup.reports).then_some(dir),
    };
    let gradebook = csv.or(class.map(|c| c.gradebook.as_path()));
    let (published, written) = publication.class(class, records, gradebook, None);
    written?;
    Ok(published.unreported)
}

impl Publication<'_> {
    /// `record`'s summary for the terminal, made under the guard: what stands in for it when
    /// its reporter fails, and why.
    pub(crate) fn brief(&self, record: &Record) -> (String, Option<Unreported>) {
        let mut lost = Vec::new();
        let line = or_stand_in(
            &record.student,
            Reporter::Terminal,
            &mut lost,
            || terminal::brief(self.rubric, &record.result),
            |why| unreported::line(&record.student, why),
        );
        (line, lost.pop())
    }

    /// Writes `record`'s reports into the report directory, if there is one: their Markdown
    /// report, their gallery page and, once their hand grading is done, their feedback. Each
    /// is made under the guard: a file whose reporter fails says so, and the failures are
    /// returned.
    pub(crate) fn student(&self, record: &Record) -> Result<Vec<Unreported>, WriteError> {
        let mut lost = Vec::new();
        let Some(dir) = self.reports else {
            return Ok(lost);
        };
        let name = &record.student;
        let text = or_stand_in(
            name,
            Reporter::Markdown,
            &mut lost,
            || markdown::student(self.rubric, &record.result),
            |why| unreported::markdown(name, why),
        );
        write(&dir.join(format!("{}.md", file_stem(name))), text)?;
        lost.extend(self.page(record)?.err());
        if done(self.rubric, record) {
            lost.extend(feedback(dir, self.rubric, record)?.err());
        }
        Ok(lost)
    }

    /// Writes `record`'s gallery page, made under the guard (what stands in for it when its
    /// reporter fails, and why), and returns where (none without a report directory).
    fn page(&self, record: &Record) -> Result<Made<Option<PathBuf>>, WriteError> {
        let Some(dir) = self.reports else {
            return Ok(Ok(None));
        };
        let name = &record.student;
        let page = dir.join(FOLDER).join(gallery::page_name(name));
        let made = guarded(name, Reporter::Page, || {
            gallery::student_page(self.rubric, &record.result, record.marks(), dir)
        });
        let html = match &made {
            Ok(html) => html.clone(),
            Err((_, why)) => unreported::page(name, why),
        };
        write(&page, &html)?;
        Ok(made.map(|_| Some(page)))
    }

    /// Writes the class's files from `records` (the class's, in its order): each student's
    /// reports, the gradebook at `gradebook` (with the columns of who when `class` has them),
    /// the gallery's class page and the standings beside the class summary in `summary`. Every
    /// student has their row and their files: where a reporter fails, what stands in for it
    /// says so, and they are named. A file that cannot be written does not stop the others:
    /// the students' files stop there, but the gradebook, the class page and the standings
    /// are each tried; the first such error is returned beside what was written. A student in
    /// two submissions is in the one the rubric's rule keeps ([`super::settle`]).
    pub(crate) fn class(
        &self,
        class: Option<&Class>,
        records: &[Record],
        gradebook_path: Option<&Path>,
        summary: Option<&Path>,
    ) -> (Published, Result<(), PublishError>) {
        // One row per student: one in two submissions is in the one the rubric's rule keeps.
        let records = &super::settle::records(self.rubric, records);
        let joined = class.is_some_and(Class::joined);
        let mut published = Published::default();
        let mut failed: Option<PublishError> = None;
        let (mut rows, mut class_rows) = (Vec::new(), Vec::new());
        for record in records {
            let name = &record.student;
            let lost = &mut published.unreported;
            if failed.is_none() {
                match self.student(record) {
                    Ok(files) => lost.extend(files),
                    Err(error) => failed = Some(error.into()),
                }
            }
            rows.push(or_stand_in(
                name,
                Reporter::Row,
                lost,
                || gradebook::row(self.rubric, self.timed, record, joined),
                |why| unreported::row(self.rubric, self.timed, joined, name, why),
            ));
            let finished = done(self.rubric, record);
            if let Some(dir) = self.reports {
                class_rows.push(or_stand_in(
                    name,
                    Reporter::ClassRow,
                    lost,
                    || {
                        let marks = record.marks();
                        gallery::class_row(self.rubric, &record.result, marks, dir, finished)
                    },
                    |why| unreported::class_row(name, why),
                ));
            }
            match guarded(name, Reporter::Standing, || {
                Standing::of(self.rubric, &record.result)
            }) {
                Ok(standing) => published.standings.push(standing),
                Err(why) => lost.push(why),
            }
            published.feedback += usize::from(finished);
        }
        let mut wrote = |written: Result<(), PublishError>| {
            if let Err(error) = written {
                failed.get_or_insert(error);
            }
        };
        if let Some(path) = gradebook_path {
            let missing = class.and_then(|c| c.missing.as_deref());
            let table = gradebook::table(self.rubric, self.timed, rows, missing);
            let written = replace(path, table);
            published.gradebook = written.is_ok();
            wrote(written.map_err(PublishError::from));
        }
        if let Some(dir) = self.reports {
            for (name, text) in [SCRIPT, STYLE] {
                wrote(write(&dir.join(FOLDER).join(name), text).map_err(PublishError::from));
            }
            let page = gallery::class_page_of(self.rubric, &class_rows);
            wrote(replace(&dir.join(CLASS_PAGE), page).map_err(PublishError::from));
        }
        if let Some(summary) = summary {
            let standings = Standings {
                students: published.standings.clone(),
            };
            wrote(
                serde_json::to_string_pretty(&standings)
                    .map_err(PublishError::from)
                    .and_then(|json| Ok(replace(&summary.join(STANDINGS), format!("{json}\n"))?)),
            );
        }
        (published, failed.map_or(Ok(()), Err))
    }
}
