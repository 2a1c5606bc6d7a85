//! Grading a whole class: one student per subdirectory of the submissions directory, several
//! graded at once, each start and end of a student, and each step of their grading (the case
//! they are on), told as an [`Event`] (the commands show them as progress and keep each result
//! as it comes), the [`Outcome`]s returned in the
//! students' order. A panic while grading one student is caught and fails that student alone;
//! a panic while telling of a student (a reporter's) is caught and told as
//! [`Event::Unreported`]; a run asked to [`Stop`] starts no one more and sets the results cut
//! short aside.

use std::any::Any;
use std::fs;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use crossbeam::channel::unbounded;

use super::job::Student;
use super::result::StudentResult;
use super::stop::Stop;
use super::student::{grade_student_unless_stopped, Options, Stage};
use crate::kit::Kit;
use crate::process::Limits;

/// Why the folder of submissions cannot be graded.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionsError {
    /// The folder cannot be read.
    #[error("{}: cannot read: {source}", .dir.display())]
    Read {
        /// The folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// It holds no folder.
    #[error("{}: no submission directories", .dir.display())]
    Empty {
        /// The folder.
        dir: PathBuf,
    },
    /// A submission's folder has no absolute path.
    #[error("{}: {source}", .path.display())]
    Canonical {
        /// The submission's folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// The students of `dir`: each subdirectory, sorted, with `{dir}` in `template` replaced by its
/// absolute path, each program to run under `limits`.
pub fn submissions(
    dir: &Path,
    template: &str,
    limits: Limits,
) -> Result<Vec<Student>, SubmissionsError> {
    let entries = fs::read_dir(dir).map_err(|source| SubmissionsError::Read {
        dir: dir.to_path_buf(),
        source,
    })?;
    let mut dirs: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(SubmissionsError::Empty {
            dir: dir.to_path_buf(),
        });
    }
    dirs.into_iter()
        .map(|path| {
            let path = path
                .canonicalize()
                .map_err(|source| SubmissionsError::Canonical { path, source })?;
            Ok(Student {
                name: path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                command: Student::with_dir(template, &path),
                dir: Some(path),
                limits,
            })
        })
        .collect()
}

/// What became of one student of a class.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// They were graded.
    Graded(Box<StudentResult>),
    /// The grader panicked while grading them (its message): a bug of the grader's, caught so
    /// that the others are graded; they are not.
    Failed(String),
    /// They were being graded when the run was asked to stop: their result, cut short, was set
    /// aside.
    Interrupted,
    /// The run was asked to stop before their turn.
    NotStarted,
}

/// What happens while a class is graded, in the order it happens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event<'a> {
    /// A student's grading starts.
    Started(&'a Student),
    /// A step of a student's grading starts (their build, a case, ...).
    Step(&'a Student, Stage<'a>),
    /// A student's grading has ended (never [`Outcome::NotStarted`]): how many of all have
    /// ended, so far.
    Finished(&'a Student, &'a Outcome, usize),
    /// Telling a student's end panicked (the panic's message): what it was to keep of them
    /// (their reports) may not all be written; the run goes on.
    Unreported(&'a Student, &'a str),
}

/// Grades `students` on `jobs` threads, in any order, telling `tell` each start, step and end
/// (one call at a time), and returns their outcomes in the order given. Once `stop` is asked no
/// student starts, and those being graded are stopped.
pub fn grade_all(
    kit: &Kit,
    students: &[Student],
    options: &Options,
    jobs: usize,
    stop: &Stop,
    tell: impl Fn(Event) + Sync,
) -> Vec<Outcome> {
    each(
        students,
        jobs,
        stop,
        |student, step| grade_student_unless_stopped(kit, student, options, stop, step),
        tell,
    )
}

/// Runs `grade` on each of `students` on `jobs` threads (with what tells each step of theirs),
/// a panic in it caught and kept as the student's [`Outcome::Failed`], and a `None` (asked to
/// stop meanwhile) kept as [`Outcome::Interrupted`]; tells `tell` as [`grade_all`] does.
fn each(
    students: &[Student],
    jobs: usize,
    stop: &Stop,
    grade: impl Fn(&Student, &dyn Fn(Stage)) -> Option<StudentResult> + Sync,
    tell: impl Fn(Event) + Sync,
) -> Vec<Outcome> {
    let (work, queue) = unbounded();
    for index in 0..students.len() {
        work.send(index).expect("the queue is open");
    }
    drop(work);
    // How many have ended; locked while telling, so that events come one at a time. A panic
    // while telling (a reporter's) is caught inside the lock, so it is never poisoned.
    let done = Mutex::new(0);
    let outcomes = Mutex::new(vec![Outcome::NotStarted; students.len()]);
    let caught = |event: Event| {
        panic::catch_unwind(AssertUnwindSafe(|| tell(event))).map_err(|p| panic_message(p.as_ref()))
    };
    let told = |event: Event| {
        let _one_at_a_time = done.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = caught(event);
    };
    let finished = |student: &Student, outcome: &Outcome| {
        let mut done = done.lock().unwrap_or_else(PoisonError::into_inner);
        *done += 1;
        if let Err(why) = caught(Event::Finished(student, outcome, *done)) {
            let _ = caught(Event::Unreported(student, &why));
        }
    };
    crossbeam::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|_| {
                while let Ok(index) = queue.recv() {
                    if stop.asked() {
                        break;
                    }
                    let student = &students[index];
                    told(Event::Started(student));
                    let step = |step: Stage<'_>| told(Event::Step(student, step));
                    let graded = panic::catch_unwind(AssertUnwindSafe(|| grade(student, &step)));
                    let outcome = match graded {
                        Ok(Some(result)) => Outcome::Graded(Box::new(result)),
                        Ok(None) => Outcome::Interrupted,
                        Err(payload) => Outcome::Failed(panic_message(payload.as_ref())),
                    };
                    finished(student, &outcome);
                    outcomes.lock().unwrap_or_else(PoisonError::into_inner)[index] = outcome;
                }
            });
        }
    })
    .expect("grading threads do not panic: a student's grading and its telling are caught");
    outcomes
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
}

/// A panic's message, from its payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::fixtures::{self, students};

    /// A result of `student`'s, graded.
    fn result(student: &Student) -> Option<StudentResult> {
        Some(fixtures::student(&student.name, Vec::new(), 1))
    }

    #[test]
    fn a_panic_while_grading_one_student_fails_them_alone() {
        let class = students(&["ann", "bob", "cy"]);
        let told = Mutex::new(Vec::new());
        let outcomes = each(
            &class,
            2,
            &Stop::default(),
            |student, _| match student.name.as_str() {
                "bob" => panic!("no case for bob"),
                _ => result(student),
            },
            |event| {
                if let Event::Finished(student, outcome, done) = event {
                    let failed = matches!(outcome, Outcome::Failed(_));
                    told.lock()
                        .unwrap()
                        .push((student.name.clone(), failed, done));
                }
            },
        );
        assert_eq!(
            outcomes[0],
            Outcome::Graded(Box::new(result(&class[0]).unwrap()))
        );
        assert_eq!(outcomes[1], Outcome::Failed("no case for bob".into()));
        assert_eq!(
            outcomes[2],
            Outcome::Graded(Box::new(result(&class[2]).unwrap()))
        );
        let mut told = told.into_inner().unwrap();
        told.sort();
        assert_eq!(
            told.iter()
                .map(|(name, failed, _)| (name.as_str(), *failed))
                .collect::<Vec<_>>(),
            [("ann", false), ("bob", true), ("cy", false)]
        );
        let mut counts: Vec<usize> = told.iter().map(|(_, _, done)| *done).collect();
        counts.sort();
        assert_eq!(counts, [1, 2, 3]);
    }

    #[test]
    fn a_panic_while_telling_of_one_student_is_told_and_the_others_are_kept() {
        let class = students(&["ann", "bob", "cy", "dee"]);
        let kept = Mutex::new(Vec::new());
        let outcomes = each(
            &class,
            2,
            &Stop::default(),
            |student, step| {
                step(Stage::Build);
                result(student)
            },
            |event| match event {
                Event::Step(student, _) if student.name == "cy" => panic!("no step for cy"),
                Event::Finished(student, _, _) if student.name == "bob" => {
                    panic!("no report for bob")
                }
                Event::Finished(student, _, done) => kept
                    .lock()
                    .unwrap()
                    .push(format!("{} {done}", student.name)),
                Event::Unreported(student, why) => kept
                    .lock()
                    .unwrap()
                    .push(format!("{}: {why}", student.name)),
                _ => {}
            },
        );
        assert!(outcomes.iter().all(|o| matches!(o, Outcome::Graded(_))));
        let mut kept = kept.into_inner().unwrap();
        kept.sort();
        assert_eq!(kept.len(), 4, "{kept:?}");
        assert!(kept[0].starts_with("ann "), "{kept:?}");
        assert_eq!(kept[1], "bob: no report for bob");
        assert!(
            kept[2].starts_with("cy ") && kept[3].starts_with("dee "),
            "{kept:?}"
        );
    }

    #[test]
    fn each_student_s_steps_are_told_between_their_start_and_their_end() {
        let class = students(&["ann", "bob"]);
        let told = Mutex::new(Vec::new());
        each(
            &class,
            1,
            &Stop::default(),
            |student, step| {
                step(Stage::Build);
                for number in 1..=2 {
                    let name = format!("{}/{number}", student.name);
                    step(Stage::Case {
                        number,
                        of: 2,
                        name: &name,
                    });
                }
                result(student)
            },
            |event| {
                let said = match event {
                    Event::Started(student) => format!("{} started", student.name),
                    Event::Step(student, Stage::Case { number, of, name }) => {
                        format!("{}: case {number} of {of}, {name}", student.name)
                    }
                    Event::Step(student, step) => format!("{}: {step:?}", student.name),
                    Event::Finished(student, _, done) => {
                        format!("{} finished, {done} done", student.name)
                    }
                    Event::Unreported(student, why) => format!("{}: {why}", student.name),
                };
                told.lock().unwrap().push(said);
            },
        );
        assert_eq!(
            told.into_inner().unwrap(),
            [
                "ann started",
                "ann: Build",
                "ann: case 1 of 2, ann/1",
                "ann: case 2 of 2, ann/2",
                "ann finished, 1 done",
                "bob started",
                "bob: Build",
                "bob: case 1 of 2, bob/1",
                "bob: case 2 of 2, bob/2",
                "bob finished, 2 done",
            ]
        );
    }

    #[test]
    fn a_formatted_panic_keeps_its_message() {
        let class = students(&["ann"]);
        let outcomes = each(
            &class,
            1,
            &Stop::default(),
            |student, _| panic!("{} has {} cases", student.name, 2),
            |_| {},
        );
        assert_eq!(outcomes, [Outcome::Failed("ann has 2 cases".into())]);
    }

    #[test]
    fn once_asked_to_stop_the_running_are_interrupted_and_no_one_starts() {
        let class = students(&["ann", "bob", "cy", "dee"]);
        let stop = Stop::default();
        // One job: ann is graded, bob is running when the stop is asked, and the rest wait.
        let outcomes = each(
            &class,
            1,
            &stop,
            |student, _| match student.name.as_str() {
                "bob" => {
                    stop.ask();
                    None
                }
                _ => result(student),
            },
            |_| {},
        );
        assert!(matches!(outcomes[0], Outcome::Graded(_)));
        assert_eq!(
            outcomes[1..],
            [
                Outcome::Interrupted,
                Outcome::NotStarted,
                Outcome::NotStarted
            ]
        );
    }
}
