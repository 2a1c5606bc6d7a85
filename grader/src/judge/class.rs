//! Grading a whole class: one student per subdirectory of the submissions directory, several
//! graded at once, each start and end of a student told as an [`Event`] (the commands show
//! them as progress), the results returned in the students' order.

use std::fs;
use std::path::Path;
use std::sync::Mutex;

use crossbeam::channel::unbounded;

use super::job::Student;
use super::result::StudentResult;
use super::student::{grade_student, Options};
use crate::kit::{Kit, KitError};
use crate::process::Limits;

/// The students of `dir`: each subdirectory, sorted, with `{dir}` in `template` replaced by its
/// absolute path, each program to run under `limits`.
pub fn submissions(dir: &Path, template: &str, limits: Limits) -> Result<Vec<Student>, KitError> {
    let shown = dir.display();
    let entries = fs::read_dir(dir).map_err(|e| KitError(format!("{shown}: cannot read: {e}")))?;
    let mut dirs: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    if dirs.is_empty() {
        return Err(KitError(format!("{shown}: no submission directories")));
    }
    dirs.into_iter()
        .map(|path| {
            let path = path
                .canonicalize()
                .map_err(|e| KitError(format!("{}: {e}", path.display())))?;
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

/// What happens while a class is graded, in the order it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// A student's grading starts.
    Started(&'a Student),
    /// A student has been graded: how many of all have been, so far.
    Finished(&'a Student, usize),
}

/// Grades `students` on `jobs` threads, in any order, telling `tell` each start and end (one
/// call at a time), and returns their results in the order given.
pub fn grade_all(
    kit: &Kit,
    students: &[Student],
    options: &Options,
    jobs: usize,
    tell: impl Fn(Event) + Sync,
) -> Vec<StudentResult> {
    let (work, queue) = unbounded();
    for index in 0..students.len() {
        work.send(index).expect("the queue is open");
    }
    drop(work);
    // How many are done; locked while telling, so that events come one at a time.
    let done = Mutex::new(0);
    let results = Mutex::new(vec![None; students.len()]);
    crossbeam::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|_| {
                while let Ok(index) = queue.recv() {
                    let student = &students[index];
                    if let Ok(_done) = done.lock() {
                        tell(Event::Started(student));
                    }
                    let result = grade_student(kit, student, options);
                    if let Ok(mut all) = results.lock() {
                        all[index] = Some(result);
                    }
                    if let Ok(mut done) = done.lock() {
                        *done += 1;
                        tell(Event::Finished(student, *done));
                    }
                }
            });
        }
    })
    .expect("grading threads do not panic");
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}
