//! `grade class DIR`: grades every submission in DIR, several at once with progress on standard
//! error, prints each student's summary and the class summary, and writes the gradebook, the
//! class summary (with each student's standing beside it, in `class-summary.json`) and (where
//! asked) each student's Markdown report and the graders' gallery, with the hand scores typed
//! so far merged in again, each student's result kept for their feedback, the feedback of
//! those whose hand grading is done ([`super::feedback`]) and the class's similar pairs
//! ([`super::similar`]), ranked in the summary. With `--only NAME` or `--not-counted` it grades
//! again only those students into the files a class run wrote ([`super::again`]), keeping
//! everyone else's rows and reports as they were. Each student's build has a build directory
//! of its own: a shared `CARGO_TARGET_DIR` is left out. Students whose sandbox could not be set
//! up are named at the end, and the run fails; those whose speed-up was not counted are named
//! too. With a roster, a Gradescope export (its `submission_metadata.yml`) or a late policy,
//! the gradebook says who each submission is, when it came and how late ([`super::who`]). DIR
//! may be Gradescope's export as downloaded: its `.zip`, extracted for the run, or the folder
//! unzipped, at any of a few levels ([`gradescope_export::open`]).
//!
//! Nothing graded is lost: each student's reports and [`journal`] entry are written as soon as
//! they are graded, and the class's files from the journal. A panic while grading one student
//! fails them alone; Ctrl-C or `SIGTERM` ([`interrupt`]) stops the run, writes the files of the
//! students graded and names the others; the same command then carries the run on.

use std::collections::BTreeMap;
use std::env;
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, SystemTime};

use super::again::{AgainError, Earlier, Files};
use super::feedback;
use super::files::{become_subreaper, parent, replace, write, Grading};
use super::fingerprint::{self, Fingerprint};
use super::gallery;
use super::interrupt::{self, Signal};
use super::journal::{self, Class, Entry, Found, Journal, JournalError, Settings, StartOver};
use super::similar;
use super::who::Joining;
use crate::judge::class::{grade_all, panic_message, submissions, Event, Outcome};
use crate::judge::result::hand::HandScores;
use crate::judge::result::StudentResult;
use crate::judge::stop::Stop;
use crate::judge::{file_stem, Student};
use crate::kit::gradescope_export::{self, Submissions};
use crate::kit::{Kit, KitError, Rubric};
use crate::report::class::{Standing, Standings};
use crate::report::gradebook::Joined;
use crate::report::progress::Progress;
use crate::report::words::students;
use crate::report::{class, gradebook, inert, markdown, similarity, terminal};

/// Leaves `CARGO_TARGET_DIR` out of the students' builds, saying so: a build directory every
/// student's build could write would let one student's build overwrite another's program or
/// read it. Without it each submission builds into its own `target/`. Called before any thread
/// starts.
fn own_build_directories() {
    if let Some(shared) = env::var_os("CARGO_TARGET_DIR") {
        eprintln!(
            "grade: CARGO_TARGET_DIR ({}) is left out of the students' builds: each submission \
             builds into its own target/, where no other student's build can reach it",
            Path::new(&shared).display()
        );
        env::remove_var("CARGO_TARGET_DIR");
    }
}

/// What `grade class` was asked.
#[derive(Clone, Debug, Default)]
pub struct ClassRun {
    /// The folder of submissions, one subdirectory per student, or a Gradescope export: its
    /// `.zip`, or a folder holding it.
    pub submissions: PathBuf,
    /// The command for one student, `{dir}` standing for their directory.
    pub command: String,
    /// Students graded at once.
    pub jobs: usize,
    /// Where the gradebook goes.
    pub csv: PathBuf,
    /// What every grading run takes.
    pub grading: Grading,
    /// Grade again only these students, into the class's files (`--only`).
    pub only: Vec<String>,
    /// Grade again the students whose speed-up the gradebook says was not counted, into the
    /// class's files (`--not-counted`).
    pub not_counted: bool,
    /// Grade everyone, though an earlier run stopped part way could be carried on
    /// (`--restart`).
    pub restart: bool,
    /// The roster: who each submission folder is, and their extensions (`--roster`).
    pub roster: Option<PathBuf>,
    /// Whether lateness may be judged from the files' times where no trusted time is known
    /// (`--late-from-files`).
    pub late_from_files: bool,
}

impl ClassRun {
    /// Whether only some students are graded again, into the files a class run wrote.
    fn again(&self) -> bool {
        !self.only.is_empty() || self.not_counted
    }

    /// Where the class summary and the standings go: beside the reports, else beside the
    /// gradebook.
    fn summary_dir(&self) -> &Path {
        self.grading
            .report
            .as_deref()
            .unwrap_or_else(|| self.csv.parent().unwrap_or(Path::new("")))
    }

    /// The class's files, as [`super::again`] reads them back.
    fn files(&self) -> Files {
        Files::new(
            &self.csv,
            self.summary_dir(),
            self.grading.report.as_deref(),
        )
    }
}

/// Why `grade class` failed.
#[derive(Debug)]
pub enum ClassError {
    /// The kit, the submissions or a file could not be read or written, or students could not
    /// be graded (exit status 1).
    Kit(KitError),
    /// The students to grade again could not be graded into the class's files.
    Again(AgainError),
    /// The journal could not be written: what is graded from then on could be lost.
    Journal(JournalError),
    /// Some students were not graded: the run was stopped, or the grader failed on them.
    Stopped(Box<Stopped>),
    /// The report directory is inside the class folder (or is it), where the next run would
    /// take it for a student's submission (exit status 2).
    ReportInside {
        /// The report directory, as given.
        reports: PathBuf,
        /// The class folder, as given.
        class: PathBuf,
    },
}

/// The students of a run that were not graded, and why; the others are in the class's files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The signal that stopped the run, if one did.
    pub signal: Option<Signal>,
    /// Those being graded when it came: their results were set aside.
    pub interrupted: Vec<String>,
    /// Those whose turn had not come.
    pub not_started: Vec<String>,
    /// Those the grader failed on (it panicked), with its message.
    pub failed: Vec<(String, String)>,
    /// Those graded whose reports the grader failed to write (it panicked), with its message.
    pub unreported: Vec<Unreported>,
    /// How many students the gradebook holds, and of how many.
    pub graded: (usize, usize),
    /// The gradebook.
    pub csv: PathBuf,
    /// Whether only some students were being graded again (`--only`, `--not-counted`).
    pub again: bool,
}

impl ClassError {
    /// The exit status it ends `grade` with: 2 for the command line's doing (as for a bad
    /// argument), 128 and the signal's number for a run a signal stopped (130 for Ctrl-C), 1
    /// for the rest.
    pub fn exit_status(&self) -> u8 {
        match self {
            ClassError::Again(again) if again.bad_arguments() => 2,
            ClassError::Stopped(stopped) => stopped.signal.map_or(1, Signal::exit_status),
            ClassError::ReportInside { .. } => 2,
            _ => 1,
        }
    }
}

impl std::fmt::Display for ClassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassError::Kit(error) => error.fmt(f),
            ClassError::Again(error) => error.fmt(f),
            ClassError::Journal(error) => error.fmt(f),
            ClassError::Stopped(stopped) => stopped.fmt(f),
            ClassError::ReportInside { reports, class } => write!(
                f,
                "--report {}: inside the class folder {}, where the next run would grade it as \
                 a student's submission; write the reports beside the class folder instead \
                 (e.g. --report {})",
                reports.display(),
                class.display(),
                suggested_reports(class).display()
            ),
        }
    }
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (graded, all) = self.graded;
        let csv = self.csv.display();
        if let Some(signal) = self.signal {
            let mut not = Vec::new();
            if !self.interrupted.is_empty() {
                not.push(format!("{} (interrupted)", names(&self.interrupted)));
            }
            if !self.not_started.is_empty() {
                not.push(format!("{} (not started)", names(&self.not_started)));
            }
            write!(
                f,
                "stopped ({}): {graded} of {all} students graded, in {csv}",
                signal.name()
            )?;
            if !not.is_empty() {
                write!(f, "; not graded: {}", not.join("; "))?;
            }
            writeln!(f)?;
        }
        if !self.failed.is_empty() {
            writeln!(
                f,
                "the grader failed while grading {} (a bug of grade's: please report it with \
                 this message); they are not graded and have no row in {csv}:",
                students(self.failed.len())
            )?;
            for (name, why) in &self.failed {
                writeln!(f, "  {name}: {why}")?;
            }
        }
        if !self.unreported.is_empty() {
            writeln!(
                f,
                "the grader failed while writing the reports of {} (a bug of grade's: please \
                 report it with this message); they are graded, but what was being written for \
                 them may be missing (grade them again with --only):",
                students(self.unreported.len())
            )?;
            for (name, why) in &self.unreported {
                writeln!(f, "  {name}: {why}")?;
            }
        }
        match self.again {
            true => write!(
                f,
                "run the same command again to grade again those not graded"
            ),
            false => write!(
                f,
                "run the same command again to carry on: the students graded are kept, and \
                 only the others are graded (--restart grades everyone again)"
            ),
        }
    }
}

impl From<KitError> for ClassError {
    fn from(error: KitError) -> Self {
        ClassError::Kit(error)
    }
}

impl From<AgainError> for ClassError {
    fn from(error: AgainError) -> Self {
        ClassError::Again(error)
    }
}

impl From<JournalError> for ClassError {
    fn from(error: JournalError) -> Self {
        ClassError::Journal(error)
    }
}

/// The hand scores typed so far in the report directory, if there is one.
fn hand_scores(run: &ClassRun, kit: &Kit) -> Result<HandScores, KitError> {
    match &run.grading.report {
        Some(reports) => gallery::load_scores(reports, &kit.rubric),
        None => Ok(HandScores::default()),
    }
}

/// Grades the class, or again only some of it, and writes its files: each student's result is
/// kept in the journal and their reports written as soon as they are graded, and the class's
/// files are written from the journal at the end, or when the run is stopped. A class run
/// carries on an unfinished one (see [`journal`]).
pub fn run(run: &ClassRun) -> Result<(), ClassError> {
    // Kept to the end of the run: an archive's extraction is removed with it. Its errors may
    // name students' files.
    let found = gradescope_export::open(&run.submissions)
        .map_err(|e| KitError(inert::line(&e.to_string())))?;
    refuse_reports_inside(run, &found.dir)?;
    let (kit, dir) = run.grading.kit().map_err(KitError::from)?;
    own_build_directories();
    let timed = kit.timed_categories();
    // Read before grading, so that a broken file stops the run before hours of it.
    let hand = hand_scores(run, &kit)?;
    let joining = Joining::load(
        &run.submissions,
        &found,
        run.roster.as_deref(),
        &kit.rubric,
        run.late_from_files,
    )?;
    let all =
        submissions(&found.dir, &run.command, run.grading.limits(&kit)).map_err(KitError::from)?;
    let class = journal_class(run, &kit, &dir);
    // Who each is and when they submitted, taken before anything is built: the files changed
    // since the class was first graded are the grading's.
    let now = SystemTime::now();
    let before = Journal::started(run.summary_dir(), &class).map_or(now, |s| s.min(now));
    let who = joining.map(|joining| joining.who(&all, before));
    let (journal, students, carried) = match run.again() {
        false => {
            let current = all
                .iter()
                .map(|s| (s.name.clone(), submission(s)))
                .collect();
            let begun = Journal::begin(run.summary_dir(), class, run.restart, &current)?;
            say_begun(&begun.found, begun.entries.len(), all.len(), &begun.changed);
            let students: Vec<Student> = all
                .iter()
                .filter(|s| !begun.entries.contains_key(&s.name))
                .cloned()
                .collect();
            (Some(begun.journal), students, begun.entries)
        }
        true => {
            let earlier = Earlier::load(&run.files(), &kit.rubric, &timed)?;
            same_columns(run, &earlier, who.is_some())?;
            let chosen = earlier.chosen(&all, &run.only, run.not_counted, &run.submissions)?;
            if chosen.is_empty() {
                eprintln!(
                    "grade: nothing to grade again: {} names no student whose speed-up was not \
                     counted",
                    run.csv.display()
                );
                return Ok(());
            }
            let chosen_names: Vec<String> = chosen.iter().map(|s| s.name.clone()).collect();
            eprintln!(
                "grade: grading again {} of the class into {}: {}",
                chosen_names.len(),
                run.csv.display(),
                names(&chosen_names)
            );
            let students = chosen.into_iter().cloned().collect();
            (
                Journal::join(run.summary_dir(), &class),
                students,
                BTreeMap::new(),
            )
        }
    };
    let keeper = Keeper {
        run,
        kit: &kit,
        timed: &timed,
        hand: &hand,
        journal: journal.as_ref(),
        fresh: Mutex::new(BTreeMap::new()),
        error: Mutex::new(None),
        unreported: Mutex::new(Vec::new()),
    };
    let stop = Stop::default();
    let (outcomes, signal) = interrupt::watching(&stop, || {
        let keep = |student: &Student, result: &StudentResult| {
            if let Err(error) = keeper.keep(student, result) {
                // Nothing graded from now on could be kept: stop, and say why.
                stop.ask();
                keeper.failed(error);
            }
        };
        let lost = |student: &Student, why: &str| keeper.unreported(&student.name, why);
        grade(run, &kit, &dir, &students, &stop, keep, lost)
    });
    let Kept {
        fresh,
        error,
        unreported,
    } = keeper.into_parts();
    // The class's students with a result, in the class's order.
    let mut entries = carried;
    entries.extend(fresh);
    let written: Vec<&Entry> = all.iter().filter_map(|s| entries.get(&s.name)).collect();
    for entry in &written {
        let _ = write!(std::io::stdout().lock(), "{}", entry.brief);
    }
    let standings = write_class(run, &kit, &timed, &written, who.as_ref(), &found, &all)?;
    if let Some(error) = error {
        return Err(error);
    }
    if let Some(line) = class::grade_again_line(&standings) {
        eprintln!("grade: {line}");
    }
    let stopped = stopped(
        run,
        signal,
        &students,
        (&outcomes, unreported),
        (standings.len(), all.len()),
    );
    match (&journal, &stopped) {
        (Some(journal), None) if !run.again() => journal.finish()?,
        _ => {}
    }
    let ungraded = ungraded(&standings);
    match (stopped, ungraded) {
        (Some(stopped), Err(ungraded)) => {
            eprintln!("grade: {ungraded}");
            Err(ClassError::Stopped(Box::new(stopped)))
        }
        (Some(stopped), Ok(())) => Err(ClassError::Stopped(Box::new(stopped))),
        (None, ungraded) => ungraded.map_err(ClassError::from),
    }
}

/// Refuses a report directory in the class folder `class` (or the folder itself): its
/// subdirectories are the students, and the reports would be graded as one on the next run.
/// Checked before anything is graded or written, on the paths as they resolve (links followed),
/// the report directory not yet made.
fn refuse_reports_inside(run: &ClassRun, class: &Path) -> Result<(), ClassError> {
    let Some(reports) = &run.grading.report else {
        return Ok(());
    };
    match (resolved(reports), class.canonicalize()) {
        (Some(inside), Ok(resolved)) if inside.starts_with(&resolved) => {
            Err(ClassError::ReportInside {
                reports: reports.clone(),
                class: class.to_path_buf(),
            })
        }
        _ => Ok(()),
    }
}

/// `path` made absolute with its links followed, as far as it exists: its nearest existing
/// ancestor canonical, the rest appended; `None` when no part of it can be resolved.
fn resolved(path: &Path) -> Option<PathBuf> {
    let absolute = env::current_dir().ok()?.join(path);
    let mut rest = Vec::new();
    let mut existing = absolute.as_path();
    loop {
        if let Ok(found) = existing.canonicalize() {
            return Some(rest.iter().rev().fold(found, |path, part| path.join(part)));
        }
        rest.push(existing.file_name()?);
        existing = existing.parent()?;
    }
}

/// A report directory beside the class folder `class`: `class-reports`.
fn suggested_reports(class: &Path) -> PathBuf {
    let name = class
        .file_name()
        .map_or_else(|| "class".into(), |n| n.to_string_lossy().into_owned());
    parent(class).join(format!("{name}-reports"))
}

/// What the journal records of a class run: the submissions folder, the kit and the settings
/// the results depend on.
fn journal_class(run: &ClassRun, kit: &Kit, dir: &Path) -> Class {
    let grading = &run.grading;
    let limits = grading.limits(kit);
    let absolute = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    Class {
        submissions: absolute(&run.submissions),
        kit: absolute(dir),
        kit_files: fingerprint::of(dir, &[]),
        settings: Settings {
            command: run.command.clone(),
            build: grading.build.clone(),
            supplied: grading.supplied.as_deref().map(absolute),
            skip_timing: grading.skip_timing,
            student_deadline: grading.student_deadline,
            limits: [
                limits.memory_mib,
                limits.processes,
                limits.cpu_seconds,
                limits.file_size_mib,
            ],
            job_memory: limits.job_memory_mib,
            disk: limits.disk_mib,
            sandbox: !grading.no_sandbox,
            style: grading.style,
            window: grading.window.as_ref().map(|ask| {
                let build = ask.build.as_ref().map(|(template, _)| template.clone());
                (ask.command.clone(), build, ask.depth)
            }),
            reports: grading.report.is_some(),
        },
    }
}

/// The fingerprint of `student`'s submission as it is now, its build's output left out.
fn submission(student: &Student) -> Fingerprint {
    match &student.dir {
        Some(dir) => fingerprint::of(dir, &["target"]),
        None => fingerprint::of(Path::new("."), &["target"]),
    }
}

/// Says on standard error what the journal holds for this run: an earlier run carried on (with
/// `kept` of `all` students graded, those of `changed` to grade again), or set aside.
fn say_begun(found: &Found, kept: usize, all: usize, changed: &[String]) {
    match found {
        Found::Nothing | Found::StartingOver(StartOver::Finished) => {}
        Found::StartingOver(why) => eprintln!(
            "grade: starting over, grading everyone: the journal of an earlier run ({}) is set \
             aside: {why}",
            journal::FILE_NAME
        ),
        Found::CarryingOn(started) => {
            eprintln!(
                "grade: carrying on: {kept} of {all} students already graded in an earlier run \
                 (started {}); grading the other {} (--restart grades everyone again)",
                ago(*started),
                all - kept
            );
            if !changed.is_empty() {
                eprintln!(
                    "grade: graded again, their submission changed since: {}",
                    names(changed)
                );
            }
        }
    }
}

/// How long ago `time` was, in words: `4 min ago`.
fn ago(time: SystemTime) -> String {
    let elapsed = SystemTime::now()
        .duration_since(time)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    match elapsed {
        0..60 => format!("{elapsed} s ago"),
        60..3600 => format!("{} min ago", elapsed / 60),
        3600..86400 => format!("{} h {} min ago", elapsed / 3600, elapsed % 3600 / 60),
        _ => format!("{} days ago", elapsed / 86400),
    }
}

/// What is kept of each student as they are graded: their reports and journal entry.
struct Keeper<'a> {
    run: &'a ClassRun,
    kit: &'a Kit,
    timed: &'a [String],
    hand: &'a HandScores,
    journal: Option<&'a Journal>,
    /// The entries of the students graded in this run.
    fresh: Mutex<BTreeMap<String, Entry>>,
    /// The first error in keeping one.
    error: Mutex<Option<ClassError>>,
    /// The students whose reports the grader failed to write (it panicked), and why.
    unreported: Mutex<Vec<Unreported>>,
}

/// A student whose reports the grader failed to write, and the panic's message.
type Unreported = (String, String);

/// What a [`Keeper`] kept of a run.
struct Kept {
    /// The entries of the students graded in this run.
    fresh: BTreeMap<String, Entry>,
    /// The first error in keeping one.
    error: Option<ClassError>,
    /// The students whose reports the grader failed to write.
    unreported: Vec<Unreported>,
}

impl Keeper<'_> {
    /// Writes `result`'s reports and keeps their result (with `--report`), and then their
    /// entry into the journal. A panic while writing the reports costs those reports alone:
    /// it is kept as [`Keeper::unreported`], and the entry is still kept.
    fn keep(&self, student: &Student, result: &StudentResult) -> Result<(), ClassError> {
        let rubric = &self.kit.rubric;
        let reports = self.run.grading.report.as_deref();
        if let Some(reports) = reports {
            let write_reports = || -> Result<(), ClassError> {
                let path = reports.join(format!("{}.md", file_stem(&result.student)));
                write(&path, &markdown::student(rubric, result)).map_err(KitError::from)?;
                gallery::write_page(reports, rubric, result, self.hand)?;
                Ok(feedback::keep(reports, result)?)
            };
            match panic::catch_unwind(AssertUnwindSafe(write_reports)) {
                Ok(written) => written?,
                Err(payload) => self.unreported(&student.name, &panic_message(payload.as_ref())),
            }
        }
        let fresh = gradebook::csv(
            rubric,
            self.timed,
            std::slice::from_ref(result),
            &HandScores::default(),
        );
        let row = gradebook::records(&fresh)
            .ok()
            .and_then(|rows| rows.into_iter().nth(1))
            .map(|row| row.text)
            .unwrap_or_default();
        let entry = Entry {
            student: result.student.clone(),
            submission: submission(student),
            standing: Standing::of(rubric, result),
            row,
            class_row: reports
                .map(|dir| crate::report::gallery::class_row(rubric, result, self.hand, dir)),
            brief: format!("{}\n", terminal::brief(rubric, result)),
        };
        if let Some(journal) = self.journal {
            journal.record(&entry)?;
        }
        if let Ok(mut fresh) = self.fresh.lock() {
            fresh.insert(entry.student.clone(), entry);
        }
        Ok(())
    }

    /// Keeps that the grader failed (`why`) while writing the reports of the student `name`.
    fn unreported(&self, name: &str, why: &str) {
        let mut unreported = self
            .unreported
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        unreported.push((name.to_string(), why.to_string()));
    }

    /// Keeps `error`, if it is the first.
    fn failed(&self, error: ClassError) {
        if let Ok(mut first) = self.error.lock() {
            first.get_or_insert(error);
        }
    }

    /// The entries kept, the first error, and the students whose reports were not written.
    fn into_parts(self) -> Kept {
        Kept {
            fresh: self.fresh.into_inner().unwrap_or_default(),
            error: self.error.into_inner().unwrap_or_default(),
            unreported: self.unreported.into_inner().unwrap_or_default(),
        }
    }
}

/// Grades `students` on the run's jobs, with progress on standard error, handing each result to
/// `keep` as soon as it is graded, and to `lost` a student whose keeping panicked; stops as
/// `stop` says.
fn grade(
    run: &ClassRun,
    kit: &Kit,
    dir: &Path,
    students: &[Student],
    stop: &Stop,
    keep: impl Fn(&Student, &StudentResult) + Sync,
    lost: impl Fn(&Student, &str) + Sync,
) -> Vec<Outcome> {
    become_subreaper();
    let total = students.len();
    let out = Progress::stderr();
    let bars = out.class(total);
    let options = run.grading.options(dir, &[parent(&run.csv)]);
    let outcomes = grade_all(
        kit,
        students,
        &options,
        run.jobs,
        stop,
        |event| match event {
            Event::Started(student) => bars.started(&student.name),
            Event::Step(student, step) => bars.step(&student.name, &step),
            Event::Finished(student, outcome, ended) => {
                if let Outcome::Graded(result) = outcome {
                    keep(student, result);
                }
                bars.finished(&student.name, ended);
                let name = &student.name;
                match outcome {
                    Outcome::Graded(_) if !out.live() => {
                        out.line(&format!("graded {ended}/{total}: {name}"))
                    }
                    Outcome::Graded(_) | Outcome::NotStarted => {}
                    Outcome::Failed(why) => out.line(&format!(
                        "not graded {ended}/{total}: {name}: the grader failed: {why}"
                    )),
                    Outcome::Interrupted => {
                        out.line(&format!("not graded {ended}/{total}: {name}: interrupted"))
                    }
                }
            }
            Event::Unreported(student, why) => {
                lost(student, why);
                let name = &student.name;
                out.line(&format!(
                    "{name}: the grader failed while keeping their result: {why}"
                ));
            }
        },
    );
    bars.finish();
    outcomes
}

/// The students of `graded` (in the order of `students`) not graded, and why; `None` when
/// every one of them was.
fn stopped(
    run: &ClassRun,
    signal: Option<Signal>,
    students: &[Student],
    (outcomes, unreported): (&[Outcome], Vec<Unreported>),
    graded: (usize, usize),
) -> Option<Stopped> {
    let mut stopped = Stopped {
        signal,
        interrupted: Vec::new(),
        not_started: Vec::new(),
        failed: Vec::new(),
        unreported,
        graded,
        csv: run.csv.clone(),
        again: run.again(),
    };
    for (student, outcome) in students.iter().zip(outcomes) {
        let name = student.name.clone();
        match outcome {
            Outcome::Graded(_) => {}
            Outcome::Failed(why) => stopped.failed.push((name, why.clone())),
            Outcome::Interrupted => stopped.interrupted.push(name),
            Outcome::NotStarted => stopped.not_started.push(name),
        }
    }
    let all_graded = stopped.failed.is_empty()
        && stopped.unreported.is_empty()
        && stopped.interrupted.is_empty()
        && stopped.not_started.is_empty();
    (signal.is_some() || !all_graded).then_some(stopped)
}

/// Writes the class's files for `entries` (each student's journal entry): the gradebook (joined
/// with `who`, when there is a roster, an export or a late policy), the gallery's class page
/// (with `--report`), the class summary (with what of the export `found` does not match its
/// folders, the students `all`) and the standings, with the hand scores typed by now; graded again in part, everyone else's rows as the class run wrote them
/// (read again now, so that hand scores saved in the gallery meanwhile are kept). Prints the
/// class summary and returns every student's standing.
fn write_class(
    run: &ClassRun,
    kit: &Kit,
    timed: &[String],
    entries: &[&Entry],
    who: Option<&Joined>,
    found: &Submissions,
    all: &[Student],
) -> Result<Vec<Standing>, ClassError> {
    let rubric = &kit.rubric;
    let hand = hand_scores(run, kit)?;
    let header = gradebook::csv(rubric, timed, &[], &HandScores::default());
    let rows: String = entries.iter().map(|e| e.row.as_str()).collect();
    let broken = |e: gradebook::GradebookError| KitError(format!("the gradebook: {e}"));
    let mut text = format!("{header}{rows}");
    if let Some(who) = who {
        text = gradebook::join(&text, who, rubric.missing).map_err(broken)?;
    }
    let fresh = gradebook::merge(&text, rubric, &hand).map_err(broken)?;
    let standings: Vec<Standing> = entries.iter().map(|e| e.standing.clone()).collect();
    let reports = run.grading.report.as_deref();
    let rows: Vec<(String, String)> = entries
        .iter()
        .filter_map(|e| Some((e.student.clone(), e.class_row.clone()?)))
        .collect();
    let (text, standings, rows) = match run.again() {
        false => (
            fresh,
            standings,
            rows.into_iter().map(|(_, row)| row).collect(),
        ),
        true => {
            let earlier = Earlier::load(&run.files(), rubric, timed)?;
            same_columns(run, &earlier, who.is_some())?;
            let rows = earlier.class_rows(rows).unwrap_or_default();
            (
                earlier.gradebook(&fresh)?,
                earlier.standings(standings),
                rows,
            )
        }
    };
    replace(&run.csv, &text).map_err(KitError::from)?;
    eprintln!("grade: wrote {}", run.csv.display());
    if let Some(reports) = reports {
        write_feedback(reports, rubric, &hand, &run.csv, entries)?;
        gallery::write_pages(reports, rubric, &run.csv, &rows)?;
        eprintln!(
            "grade: wrote the graders' gallery, {} (grade gallery {} serves it)",
            reports.join(crate::report::gallery::CLASS_PAGE).display(),
            reports.display()
        );
    }
    let dir = run.summary_dir();
    let mut text = class::markdown(rubric, &standings);
    if let Some(metadata) = &found.metadata {
        let folders: Vec<String> = all.iter().map(|s| s.name.clone()).collect();
        text.push_str(&class::unmatched_section(&metadata.unmatched(&folders)));
    }
    if let Some(reports) = reports {
        text.push_str(&similar_pairs(&found.dir, run, reports)?);
    }
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    let path = dir.join(class::FILE_NAME);
    replace(&path, &text).map_err(KitError::from)?;
    let kept = Standings {
        students: standings,
    };
    let json = serde_json::to_string_pretty(&kept)
        .map_err(|e| KitError(format!("the class's standings: {e}")))?;
    replace(&dir.join(class::STANDINGS), &format!("{json}\n")).map_err(KitError::from)?;
    eprintln!("grade: wrote {}", path.display());
    Ok(kept.students)
}

/// The class's submissions (the folders in `class`) compared with each other ([`similar`]), the
/// course's starter left out: the pages and the CSV written into the report directory
/// `reports`, and the class summary's section returned.
fn similar_pairs(class: &Path, run: &ClassRun, reports: &Path) -> Result<String, ClassError> {
    let base = similar::course_starter(run.grading.kit.as_deref());
    let comparison =
        similar::compared(class, Vec::new(), &base).map_err(|e| KitError(e.to_string()))?;
    similar::write(reports, &comparison).map_err(KitError::from)?;
    Ok(format!("\n{}", similarity::markdown(&comparison)))
}

/// Checks that the gradebook to grade again into is joined (who, when, how late) just when
/// this run joins it: the same `--roster`, export and late policy as the class run's.
fn same_columns(run: &ClassRun, earlier: &Earlier, joined: bool) -> Result<(), AgainError> {
    if earlier.joined() == joined {
        return Ok(());
    }
    let (it, this) = match joined {
        true => ("has no", "has"),
        false => ("has", "has no"),
    };
    Err(AgainError::Unreadable(
        run.csv.clone(),
        format!(
            "it {it} columns of who each student is and how late (student id ... final total), and this run {this} roster, export or [late]: give the class run's --roster"
        ),
    ))
}

/// Writes the feedback files of the students of `entries` whose hand grading is done in
/// `hand` (a rubric with no checklist, or marks typed before this run), from their results kept
/// in the report directory `reports`, with the late penalties of the gradebook `csv`; says how
/// many.
fn write_feedback(
    reports: &Path,
    rubric: &Rubric,
    hand: &HandScores,
    csv: &Path,
    entries: &[&Entry],
) -> Result<(), ClassError> {
    let adjustments = feedback::adjustments(Some(csv), rubric)?;
    let mut written = 0;
    for entry in entries {
        let marks = hand.students.get(&entry.student);
        if !feedback::done(rubric, marks) {
            continue;
        }
        let kept =
            feedback::kept(reports, &entry.student).map_err(|why| KitError(why.to_string()))?;
        if let Some(result) = kept {
            feedback::write(reports, rubric, &result, marks, &adjustments)?;
            written += 1;
        }
    }
    if written > 0 {
        eprintln!(
            "grade: wrote the feedback of {} whose hand grading is done, in {}",
            students(written),
            reports.join(crate::report::feedback::FOLDER).display()
        );
    }
    Ok(())
}

/// An error naming the students who were not graded (their sandbox could not be set up), if
/// any were: their rows are no grade.
fn ungraded(standings: &[Standing]) -> Result<(), KitError> {
    let ungraded: Vec<String> = standings
        .iter()
        .filter_map(|s| {
            let why = s.ungraded.as_deref()?;
            Some(format!("{}: {}", inert::line(&s.student), inert::line(why)))
        })
        .collect();
    if ungraded.is_empty() {
        return Ok(());
    }
    Err(KitError(format!(
        "{} of {} students were not graded: their sandbox could not be set up, so none of \
         their code was run, and the gradebook leaves their points blank:\n  {}",
        ungraded.len(),
        standings.len(),
        ungraded.join("\n  ")
    )))
}

/// Students' folder names, made inert and joined by commas, for a message.
fn names(students: &[String]) -> String {
    let inert: Vec<String> = students.iter().map(|name| inert::line(name)).collect();
    inert.join(", ")
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn how_long_ago_reads_in_the_largest_unit_that_fits() {
        let ago_by = |seconds| ago(SystemTime::now() - Duration::from_secs(seconds));
        assert_eq!(ago_by(5), "5 s ago");
        assert_eq!(ago_by(125), "2 min ago");
        assert_eq!(ago_by(3 * 3600 + 7 * 60), "3 h 7 min ago");
        assert_eq!(ago_by(3 * 86400), "3 days ago");
        assert_eq!(ago(SystemTime::now() + Duration::from_secs(60)), "0 s ago");
    }

    #[test]
    fn a_report_folder_in_the_class_folder_is_refused_before_anything_runs() {
        let work = tempfile::tempdir().unwrap();
        let class = work.path().join("class");
        fs::create_dir_all(class.join("ann")).unwrap();
        std::os::unix::fs::symlink(&class, work.path().join("link")).unwrap();
        let asked = |reports: PathBuf| ClassRun {
            submissions: class.clone(),
            grading: Grading {
                report: Some(reports),
                ..Grading::default()
            },
            ..ClassRun::default()
        };
        for inside in [
            class.join("reports"),
            class.join("reports/deeper"),
            class.clone(),
            class.join("ann/../reports"),
            work.path().join("link/reports"),
        ] {
            let error = refuse_reports_inside(&asked(inside.clone()), &class).unwrap_err();
            assert_eq!(error.exit_status(), 2, "{}", inside.display());
            assert!(error.to_string().contains("class-reports"), "{error}");
        }
        for beside in [work.path().join("reports"), work.path().join("classy")] {
            assert!(refuse_reports_inside(&asked(beside), &class).is_ok());
        }
    }

    #[test]
    fn a_stopped_run_names_who_was_not_graded_and_how_to_carry_on() {
        let stopped = Stopped {
            signal: Some(Signal(libc::SIGINT)),
            interrupted: vec!["cy".into(), "dee".into()],
            not_started: vec!["eve".into()],
            failed: vec![("bob".into(), "no case".into())],
            unreported: Vec::new(),
            graded: (1, 5),
            csv: "gradebook.csv".into(),
            again: false,
        };
        let error = ClassError::Stopped(Box::new(stopped.clone()));
        assert_eq!(error.exit_status(), 130);
        assert_eq!(
            error.to_string(),
            "stopped (SIGINT, Ctrl-C): 1 of 5 students graded, in gradebook.csv; not graded: \
             cy, dee (interrupted); eve (not started)\n\
             the grader failed while grading 1 student (a bug of grade's: please report it \
             with this message); they are not graded and have no row in gradebook.csv:\n  \
             bob: no case\n\
             run the same command again to carry on: the students graded are kept, and only \
             the others are graded (--restart grades everyone again)"
        );
        let failed = ClassError::Stopped(Box::new(Stopped {
            signal: None,
            again: true,
            ..stopped
        }));
        assert_eq!(failed.exit_status(), 1);
        assert!(
            failed.to_string().starts_with("the grader failed"),
            "{failed}"
        );
        assert!(failed
            .to_string()
            .ends_with("to grade again those not graded"));
        let unreported = ClassError::Stopped(Box::new(Stopped {
            signal: None,
            interrupted: Vec::new(),
            not_started: Vec::new(),
            failed: Vec::new(),
            unreported: vec![("ann".into(), "no page".into())],
            graded: (5, 5),
            csv: "gradebook.csv".into(),
            again: false,
        }));
        assert_eq!(unreported.exit_status(), 1);
        assert!(
            unreported.to_string().starts_with(
                "the grader failed while writing the reports of 1 student (a bug of grade's: \
                 please report it with this message); they are graded, but what was being \
                 written for them may be missing (grade them again with --only):\n  ann: no page\n"
            ),
            "{unreported}"
        );
    }
}
