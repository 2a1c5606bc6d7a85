//! Why `grade class` failed: the kit, the store or the class's files, students to grade again
//! who cannot be, a report directory where the next run would grade it, or students not graded
//! (the run stopped, or the grader failed on them), each named with how to carry on.

use std::path::PathBuf;

use super::super::again::AgainError;
use super::super::interrupt::Signal;
use super::super::publish::{PublishError, Unreported};
use super::ClassRun;
use crate::commands::files::{OpenKitError, WriteError};
use crate::judge::class::{Outcome, SubmissionsError};
use crate::judge::Student;
use crate::kit::gradescope_download::FindError;
use crate::kit::roster::RosterError;
use crate::report::class::Standing;
use crate::report::inert::{self, names};
use crate::report::numbers::students;
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
        super::setup::suggested_reports(class).display()
    )]
    ReportInside {
        /// The report directory, as given.
        reports: PathBuf,
        /// The class folder, as given.
        class: PathBuf,
    },
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

/// The students of a run that were not graded, and why; the others are in the class's files.
#[derive(Clone, Debug, Default, PartialEq, Eq, thiserror::Error)]
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
        f.write_str(match self.again {
            true => "run the same command again to grade again those not graded",
            false => {
                "run the same command again to carry on: the students graded are kept, and \
                 only the others are graded (--restart grades everyone again)"
            }
        })
    }
}

/// The students of `graded` (in the order of `students`) not graded, and why; `None` when
/// every one of them was.
pub(super) fn stopped(
    run: &ClassRun,
    signal: Option<Signal>,
    students: &[Student],
    (outcomes, unreported): (&[Outcome], Vec<Unreported>),
    graded: (usize, usize),
) -> Option<Stopped> {
    let mut stopped = Stopped {
        signal,
        unreported,
        graded,
        csv: run.csv.clone(),
        again: run.again(),
        ..Stopped::default()
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
            unreported: vec![("ann".into(), "no page".into())],
            ..Stopped::default()
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
