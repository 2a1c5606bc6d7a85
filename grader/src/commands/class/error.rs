//! Why `grade class` failed: the kit, the store or the class's files, students to grade again
//! who cannot be, a report directory where the next run would grade it, or students not graded
//! (the run stopped by a signal or a full disk, or the grader failed on them), each named with
//! how to carry on.

use std::path::{Path, PathBuf};

use super::super::again::AgainError;
use super::super::interrupt::Signal;
use super::super::publish::{PublishError, Unreported};
use super::asked::ClassRun;
use crate::commands::files::{parent, OpenKitError, WriteError};
use crate::judge::class::{Outcome, SubmissionsError};
use crate::judge::Student;
use crate::kit::gradescope_download::FindError;
use crate::kit::roster::RosterError;
use crate::report::class::Standing;
use crate::report::inert::{self, names};
use crate::report::numbers::students;
use crate::report::unreported::REPORT_FAILED;
use crate::similarity::load::FolderError;
use crate::store::StoreError;

/// Why `grade class` failed.
#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    /// The submissions given are not a class's folder or a Gradescope export (its message
    /// made inert: it may name students' files).
    #[error("{}", inert::line(&.0.to_string()))]
    Export(FindError),
    /// The roster could not be read.
    #[error(transparent)]
    Roster(#[from] RosterError),
    /// The kit could not be found or loaded.
    #[error(transparent)]
    OpenKit(#[from] OpenKitError),
    /// The submissions folder could not be read.
    #[error(transparent)]
    Submissions(#[from] SubmissionsError),
    /// A file of the class could not be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The students to grade again could not be graded into the class's files.
    #[error(transparent)]
    Again(#[from] AgainError),
    /// The class's files could not all be written.
    #[error(transparent)]
    Publish(#[from] PublishError),
    /// The submissions could not be compared with each other.
    #[error(transparent)]
    Similar(#[from] FolderError),
    /// Some students were not graded: their sandbox could not be set up (each, and why), of
    /// `of` students.
    #[error(
        "{} of {of} students were not graded: their sandbox could not be set up, so none of \
         their code was run, and the gradebook leaves their points blank:\n  {}",
        .ungraded.len(),
        lines(.ungraded)
    )]
    Ungraded {
        /// Each student not graded, and why.
        ungraded: Vec<(String, String)>,
        /// How many students.
        of: usize,
    },
    /// The class store could not be read or written: what is graded from then on could be
    /// lost.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Some students were not graded: the run was stopped, or the grader failed on them.
    #[error(transparent)]
    Stopped(Box<Stopped>),
    /// This many findings of the reconciliation are open (its table said before grading and
    /// in the class summary): a grade could go to the wrong student or none.
    #[error(
        "{} open in the reconciliation of the roster, the submissions and the export (its \
         table above, and in the class summary): settle each (the roster, the export, or the \
         rubric's duplicates = \"latest\" or \"highest\"), or give --allow-missing to go \
         without those who have no graded submission",
        crate::report::numbers::counted(*.0, "finding")
    )]
    Unreconciled(usize),
    /// The report directory is inside the class folder (or is it), where the next run would
    /// take it for a student's submission (exit status 2).
    #[error(
        "--report {}: inside the class folder {}, where the next run would grade it as a \
         student's submission; write the reports beside the class folder instead (e.g. --report \
         {})",
        reports.display(),
        class.display(),
        suggested_reports(class).display()
    )]
    ReportInside {
        /// The report directory, as given.
        reports: PathBuf,
        /// The class folder, as given.
        class: PathBuf,
    },
}

/// The exit status of a run a full disk stopped: `EX_TEMPFAIL` of `sysexits.h`, a failure that
/// the same command again may not meet.
pub const DISK_FULL: u8 = 75;

impl ClassError {
    /// The exit status it ends `grade` with: 2 for the command line's doing (as for a bad
    /// argument), [`DISK_FULL`] for a run a full disk stopped, 128 and the signal's number for
    /// a run a signal stopped (130 for Ctrl-C), 1 for the rest.
    pub fn exit_status(&self) -> u8 {
        match self {
            ClassError::Again(again) if again.bad_arguments() => 2,
            ClassError::Stopped(stopped) if stopped.full.is_some() => DISK_FULL,
            ClassError::Stopped(stopped) => stopped.signal.map_or(1, Signal::exit_status),
            ClassError::ReportInside { .. } => 2,
            _ => 1,
        }
    }

    /// The file that could not be written because the disk is full, if that is why it failed.
    pub(super) fn disk_full(&self) -> Option<&Path> {
        match self {
            ClassError::Write(error) => error.disk_full(),
            ClassError::Publish(error) => error.disk_full(),
            ClassError::Store(error) => error.disk_full(),
            _ => None,
        }
    }
}

/// The students of a run that were not graded, and why; the others are in the class's files.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
pub struct Stopped {
    /// The signal that stopped the run, if one did.
    pub signal: Option<Signal>,
    /// The file a full disk refused, if one stopped the run.
    pub full: Option<PathBuf>,
    /// Those being graded when it came: their results were set aside.
    pub interrupted: Vec<String>,
    /// Those whose turn had not come.
    pub not_started: Vec<String>,
    /// Those graded whose record could not be kept.
    pub unkept: Vec<String>,
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

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (graded, all) = self.graded;
        let csv = self.csv.display();
        let cause = match (&self.full, self.signal) {
            (Some(path), _) => Some(format!("disk full at {}", path.display())),
            (None, Some(signal)) => Some(format!("stopped ({})", signal.name())),
            (None, None) => None,
        };
        if let Some(cause) = cause {
            let mut not = Vec::new();
            if !self.interrupted.is_empty() {
                not.push(format!("{} (interrupted)", names(&self.interrupted)));
            }
            if !self.not_started.is_empty() {
                not.push(format!("{} (not started)", names(&self.not_started)));
            }
            if !self.unkept.is_empty() {
                not.push(format!(
                    "{} (graded, but their record could not be kept)",
                    names(&self.unkept)
                ));
            }
            write!(f, "{cause}: {graded} of {all} students graded, in {csv}")?;
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
                "the grader failed while writing files of {} (a bug of grade's: please report it \
                 with this message); they are graded and in {csv}, but each file named says \
                 \"{REPORT_FAILED}\" instead (the same command writes them again):",
                students(names_of(&self.unreported))
            )?;
            for (name, why) in &self.unreported {
                writeln!(f, "  {name}: {why}")?;
            }
        }
        if self.full.is_some() {
            f.write_str("run the same command again when there is room")?;
        }
        f.write_str(match (self.full.is_some(), self.again) {
            (false, true) => "run the same command again to grade again those not graded",
            (true, true) => " to grade again those not graded",
            (false, false) => "run the same command again to carry on",
            (true, false) => "",
        })?;
        if !self.again {
            f.write_str(
                ": the students graded are kept, and only the others are graded (--restart \
                 grades everyone again)",
            )?;
        }
        Ok(())
    }
}

/// The students of `graded` (in the order of `students`) not graded, and why; `None` when
/// every one of them was.
pub(super) fn stopped(
    run: &ClassRun,
    (signal, full): (Option<Signal>, Option<PathBuf>),
    students: &[Student],
    (outcomes, unkept, unreported): (&[Outcome], Vec<String>, Vec<Unreported>),
    graded: (usize, usize),
) -> Option<Stopped> {
    let stopped_by = signal.is_some() || full.is_some();
    let mut stopped = Stopped {
        signal,
        full,
        unreported,
        graded,
        csv: run.csv.clone(),
        again: run.again(),
        ..Stopped::default()
    };
    for (student, outcome) in students.iter().zip(outcomes) {
        let name = student.name.clone();
        match outcome {
            Outcome::Graded(_) if unkept.contains(&name) => stopped.unkept.push(name),
            Outcome::Graded(_) => {}
            Outcome::Failed(why) => stopped.failed.push((name, why.clone())),
            Outcome::Interrupted => stopped.interrupted.push(name),
            Outcome::NotStarted => stopped.not_started.push(name),
        }
    }
    let all_graded = stopped.failed.is_empty()
        && stopped.unreported.is_empty()
        && stopped.interrupted.is_empty()
        && stopped.not_started.is_empty()
        && stopped.unkept.is_empty();
    (stopped_by || !all_graded).then_some(stopped)
}

/// An error naming the students who were not graded (their sandbox could not be set up), if
/// any were: their rows are no grade.
pub(super) fn ungraded(standings: &[Standing]) -> Result<(), ClassError> {
    let ungraded: Vec<(String, String)> = standings
        .iter()
        .filter_map(|s| Some((s.student.clone(), s.ungraded.clone()?)))
        .collect();
    if ungraded.is_empty() {
        return Ok(());
    }
    let of = standings.len();
    Err(ClassError::Ungraded { ungraded, of })
}

/// How many students `pairs` name (a student may have several).
fn names_of(pairs: &[(String, String)]) -> usize {
    let mut names: Vec<&str> = pairs.iter().map(|(name, _)| name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names.len()
}

/// A report directory beside the class folder `class`: `class-reports`.
pub(super) fn suggested_reports(class: &Path) -> PathBuf {
    let name = class
        .file_name()
        .map_or_else(|| "class".into(), |n| n.to_string_lossy().into_owned());
    parent(class).join(format!("{name}-reports"))
}

/// Each student and why, made inert, a line each, for a message.
fn lines(pairs: &[(String, String)]) -> String {
    let line =
        |(name, why): &(String, String)| format!("{}: {}", inert::line(name), inert::line(why));
    pairs.iter().map(line).collect::<Vec<_>>().join("\n  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_run_names_who_was_not_graded_and_how_to_carry_on() {
        let stopped = Stopped {
            signal: Some(Signal(libc::SIGINT)),
            full: None,
            interrupted: vec!["cy".into(), "dee".into()],
            not_started: vec!["eve".into()],
            unkept: Vec::new(),
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
            unreported: vec![
                ("ann".into(), "their gallery page: no page".into()),
                ("ann".into(), "their gradebook row: no row".into()),
            ],
            csv: "gradebook.csv".into(),
            ..Stopped::default()
        }));
        assert_eq!(unreported.exit_status(), 1);
        assert!(
            unreported.to_string().starts_with(
                "the grader failed while writing files of 1 student (a bug of grade's: please \
                 report it with this message); they are graded and in gradebook.csv, but each \
                 file named says \"report failed\" instead (the same command writes them \
                 again):\n  ann: their gallery page: no page\n  ann: their gradebook row: no row\n"
            ),
            "{unreported}"
        );
    }

    #[test]
    fn a_full_disk_names_where_and_who_was_not_graded_and_to_run_again_when_there_is_room() {
        let full = ClassError::Stopped(Box::new(Stopped {
            full: Some("reports/gallery/bob.html".into()),
            not_started: vec!["eve".into()],
            unkept: vec!["dee".into()],
            graded: (2, 4),
            csv: "/other/gradebook.csv".into(),
            ..Stopped::default()
        }));
        assert_eq!(full.exit_status(), DISK_FULL);
        assert_eq!(
            full.to_string(),
            "disk full at reports/gallery/bob.html: 2 of 4 students graded, in \
             /other/gradebook.csv; not graded: eve (not started); dee (graded, but their record \
             could not be kept)\n\
             run the same command again when there is room: the students graded are kept, and \
             only the others are graded (--restart grades everyone again)"
        );
        let again = ClassError::Stopped(Box::new(Stopped {
            full: Some("r/x".into()),
            again: true,
            ..Stopped::default()
        }));
        assert!(
            again.to_string().ends_with(
                "run the same command again when there is room to grade again those not graded"
            ),
            "{again}"
        );
    }
}
