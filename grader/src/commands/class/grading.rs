//! Grading the class's students on the run's jobs, with progress on standard error, and
//! keeping each as soon as they are graded: their record in the store first (synced to disk),
//! then their reports, each made under the guard of [`crate::commands::publish`].

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

use super::asked::ClassRun;
use super::{setup, ClassError};
use crate::commands::files::{become_subreaper, parent};
use crate::commands::publish::{Publication, Unreported};
use crate::judge::class::{grade_all, Event, Outcome};
use crate::judge::result::StudentResult;
use crate::judge::stop::Stop;
use crate::judge::Student;
use crate::kit::Kit;
use crate::report::progress::Progress;
use crate::store::{Class, Record, Store, Who};

/// What is kept of each student as they are graded: their record, then their reports.
pub(super) struct Keeper<'a> {
    pub store: &'a Store,
    pub class: &'a Class,
    /// Who each submission is, by folder (with a roster, an export or a late policy).
    pub who: &'a BTreeMap<String, Who>,
    pub publication: &'a Publication<'a>,
    /// The first error in keeping one.
    pub error: Mutex<Option<ClassError>>,
    /// The students graded whose record could not be kept.
    pub unkept: Mutex<Vec<String>>,
    /// The students a reporter failed for (it panicked), and which and why.
    pub unreported: Mutex<Vec<Unreported>>,
}

/// What a [`Keeper`] kept of the run's failures: the first error in keeping a student, the
/// students graded whose record could not be kept, and those a reporter failed for.
pub(super) type Failures = (Option<ClassError>, Vec<String>, Vec<Unreported>);

impl Keeper<'_> {
    /// Keeps `student`'s record in the store (synced to disk), and then writes their reports;
    /// a reporter that fails costs that file alone, kept as unreported.
    fn keep(&self, student: &Student, result: &StudentResult) -> Result<(), ClassError> {
        let record = Record::new(
            result.clone(),
            Some(setup::submission(student)),
            Some(self.class.started),
            self.who.get(&student.name).cloned(),
        );
        let record = self.store.put_graded(record).inspect_err(|_| {
            let mut unkept = self.unkept.lock().unwrap_or_else(PoisonError::into_inner);
            unkept.push(student.name.clone());
        })?;
        for (name, why) in self.publication.student(&record)? {
            self.lost(&name, &why);
        }
        Ok(())
    }

    /// Keeps that the grader failed (`why`) while writing the reports of the student `name`.
    fn lost(&self, name: &str, why: &str) {
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

    /// What it kept of the run's failures.
    pub(super) fn into_parts(self) -> Failures {
        (
            self.error.into_inner().unwrap_or_default(),
            self.unkept.into_inner().unwrap_or_default(),
            self.unreported.into_inner().unwrap_or_default(),
        )
    }
}

/// Grades `students` on the run's jobs, with progress on standard error, keeping each as soon
/// as they are graded; stops as `stop` says, or when a record cannot be kept.
pub(super) fn grade(
    run: &ClassRun,
    kit: &Kit,
    dir: &Path,
    students: &[Student],
    stop: &Stop,
    keeper: &Keeper,
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
                    if let Err(error) = keeper.keep(student, result) {
                        // Nothing graded from now on could be kept: stop, and say why.
                        stop.ask();
                        keeper.failed(error);
                    }
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
                keeper.lost(&student.name, why);
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
