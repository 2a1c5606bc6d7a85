//! `grade class DIR`: grades every submission in DIR, several at once with progress on standard
//! error, keeps each student's record in the class store as soon as they are graded, and then
//! writes the class's files from the records ([`publish`]): the gradebook, each student's
//! reports and the graders' gallery, the feedback of those whose hand grading is done, the
//! class summary with the similar pairs ([`super::similar`]), printed too. With `--only NAME` or
//! `--not-counted` it grades again only those students ([`again`]). With a roster, a Gradescope
//! export or a late policy, each record says who the submission is, when it came and how late
//! ([`super::who`]). DIR may be Gradescope's export as downloaded: its `.zip`, extracted for
//! the run, or the folder unzipped ([`gradescope_download::open`]).
//!
//! Nothing graded is lost: a panic while grading one student fails them alone, and one in a
//! reporter of a student's (their terminal line, a file, their gradebook row) costs that file
//! alone, which says "report failed: why" (both named at the end); Ctrl-C or `SIGTERM`
//! ([`interrupt`]) stops the run, writes the files of the students graded and names the
//! others; so does a full disk, writing what it can (the gradebook where `--csv` puts it) and
//! ending with [`error::DISK_FULL`]. The same command then carries the run on from the store.

mod asked;
mod error;
mod grading;
mod setup;

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::SystemTime;

pub use asked::ClassRun;
pub use error::{ClassError, Stopped};

use super::files::replace;
use super::interrupt;
use super::publish::Publication;
use super::similar;
use super::who::Joining;
use crate::judge::class::submissions;
use crate::judge::stop::Stop;
use crate::kit::gradescope_download::{self, Submissions};
use crate::kit::Kit;
use crate::report::{class, reconcile, similarity};
use crate::store::{Class, Store};

/// Grades the class, or again only some of it, keeping each record in the store as it comes,
/// and writes the class's files from the store at the end, or when the run is stopped.
pub fn run(run: &ClassRun) -> Result<(), ClassError> {
    // Kept to the end of the run: an archive's extraction is removed with it. Its errors may
    // name students' files.
    let found = gradescope_download::open(&run.submissions).map_err(ClassError::Export)?;
    setup::refuse_reports_inside(run, &found.dir)?;
    let (kit, dir) = run.grading.kit()?;
    setup::own_build_directories();
    // Read before grading, so that a broken file stops the run before hours of it.
    let joining = Joining::load(
        &run.submissions,
        &found,
        run.roster.as_deref(),
        &kit.rubric,
        run.late_from_files,
    )?;
    let all = submissions(&found.dir, &run.command, run.grading.limits(&kit))?;
    let store = Store::of(run.summary_dir());
    let setup = setup::setup(run, &kit, &dir);
    // Who each is and when they submitted, taken before anything is built: the files changed
    // since the class was first graded are the grading's.
    let now = SystemTime::now();
    let before = store.started(&setup).map_or(now, |s| s.min(now));
    let joined = joining.map(|joining| joining.who(&all, before));
    let reconciliation = (joined.as_ref())
        .map(|j| j.reconciliation.clone())
        .unwrap_or_default();
    let table = reconcile::table(&reconciliation, run.allow_missing);
    if !table.is_empty() {
        eprintln!("grade: {}:\n{table}", reconcile::TITLE);
    }
    let gradebook = std::path::absolute(&run.csv).unwrap_or_else(|_| run.csv.clone());
    let mut class = Class::new(setup, kit.timed_categories(), gradebook);
    class.students = all.iter().map(|s| s.name.clone()).collect();
    class.missing = joined.as_ref().map(|j| j.missing.clone());
    class.no_folder = joined
        .as_ref()
        .map(|j| j.no_folder.clone())
        .unwrap_or_default();
    let Some((class, students)) = setup::begin(run, &store, class, &all)? else {
        return Ok(());
    };
    let who = joined.map(|j| j.who).unwrap_or_default();
    let publication = Publication {
        rubric: &kit.rubric,
        timed: &class.timed,
        reports: run.grading.report.as_deref(),
    };
    let keeper = grading::Keeper {
        store: &store,
        class: &class,
        who: &who,
        publication: &publication,
        error: Mutex::new(None),
        unkept: Mutex::new(Vec::new()),
        unreported: Mutex::new(Vec::new()),
    };
    let stop = Stop::default();
    let (outcomes, signal) = interrupt::watching(&stop, || {
        grading::grade(run, &kit, &dir, &students, &stop, &keeper)
    });
    let (kept, unkept, mut unreported) = keeper.into_parts();
    let (_, records) = store.class_records()?;
    // Each student's summary: those graded again alone, else the whole class's.
    let again = |record: &&crate::store::Record| students.iter().any(|s| s.name == record.student);
    for record in records.iter().filter(|r| !run.again() || again(r)) {
        let (brief, lost) = publication.brief(record);
        unreported.extend(lost);
        let _ = writeln!(std::io::stdout().lock(), "{brief}");
    }
    let summary = run.summary_dir();
    let (published, written) =
        publication.class(Some(&class), &records, Some(&run.csv), Some(summary));
    if published.gradebook {
        eprintln!("grade: wrote {}", run.csv.display());
    }
    if let (Some(reports), 1..) = (run.grading.report.as_deref(), published.feedback) {
        eprintln!(
            "grade: wrote the feedback of {} whose hand grading is done, in {}",
            crate::report::numbers::students(published.feedback),
            reports.join(crate::report::feedback::FOLDER).display()
        );
    }
    unreported.extend(published.unreported);
    unreported.sort();
    unreported.dedup();
    let text = reconcile::section(&reconciliation, run.allow_missing);
    let summarized = write_summary(run, &kit, &published.standings, &found, &class, &text);
    // Every file was tried: the first error stops the run now, unless a full disk explains it.
    let errors = [kept, written.err().map(ClassError::from), summarized.err()];
    let full = errors.iter().flatten().find_map(ClassError::disk_full);
    let full = full.map(Path::to_path_buf);
    if let (None, Some(error)) = (&full, errors.into_iter().flatten().next()) {
        return Err(error);
    }
    if let Some(line) = class::grade_again_line(&published.standings) {
        eprintln!("grade: {line}");
    }
    let graded = (published.standings.len(), all.len());
    let failures = (outcomes.as_slice(), unkept, unreported);
    let stopped = error::stopped(run, (signal, full), &students, failures, graded);
    if stopped.is_none() && !run.again() {
        let finished = Class {
            finished: Some(SystemTime::now()),
            ..class
        };
        store.put_class(&finished)?;
    }
    let open = reconciliation.open(run.allow_missing);
    let ungraded = error::ungraded(&published.standings).and(match open {
        0 => Ok(()),
        open => Err(ClassError::Unreconciled(open)),
    });
    match (stopped, ungraded) {
        (Some(stopped), Err(ungraded)) => {
            eprintln!("grade: {ungraded}");
            Err(ClassError::Stopped(Box::new(stopped)))
        }
        (Some(stopped), Ok(())) => Err(ClassError::Stopped(Box::new(stopped))),
        (None, ungraded) => ungraded,
    }
}

/// Writes and prints the class summary of `standings`, with what of the export `found` does
/// not match the class's folders, the reconciliation's section `reconciled` and, with
/// reports, the class's similar pairs.
fn write_summary(
    run: &ClassRun,
    kit: &Kit,
    standings: &[class::Standing],
    found: &Submissions,
    class: &Class,
    reconciled: &str,
) -> Result<(), ClassError> {
    let mut text = class::markdown(&kit.rubric, standings);
    text.push_str(reconciled);
    if let Some(metadata) = &found.metadata {
        text.push_str(&class::unmatched_section(
            &metadata.unmatched(&class.students),
        ));
    }
    if let Some(reports) = run.grading.report.as_deref() {
        let base = similar::course_starter(
            run.grading.kit.as_deref(),
            "grade similar --base DIR leaves out other given code",
        );
        let comparison = similar::compared(&found.dir, Vec::new(), &base)?;
        similar::write(reports, &comparison)?;
        text.push_str(&format!("\n{}", similarity::markdown(&comparison)));
        eprintln!(
            "grade: wrote the graders' gallery, {} (grade gallery {} serves it)",
            reports.join(crate::report::gallery::CLASS_PAGE).display(),
            reports.display()
        );
    }
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    let path = run.summary_dir().join(class::FILE_NAME);
    replace(&path, &text)?;
    eprintln!("grade: wrote {}", path.display());
    Ok(())
}
