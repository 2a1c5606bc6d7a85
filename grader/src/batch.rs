//! Grading a whole class: one student per subdirectory of the submissions directory, several
//! graded at once, a progress line on standard error, and a CSV gradebook with one row per
//! student, one column per category, and columns for the supplied crate check, the build and
//! the time grading took. The class summary is the `summary` module's.

use std::fs;
use std::path::Path;
use std::sync::Mutex;

use crossbeam::channel::unbounded;

use crate::limits::Limits;
use crate::progress::Progress;
use crate::rubric::Rubric;
use crate::score::{points, StudentResult};
use crate::{grade_student, Kit, KitError, Options, Student};

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
                command: with_dir(template, &path),
                dir: Some(path),
                limits,
            })
        })
        .collect()
}

/// `template` with `{dir}` replaced by `dir`.
pub(crate) fn with_dir(template: &str, dir: &Path) -> String {
    template.replace("{dir}", &dir.to_string_lossy())
}

/// What the progress line shows.
struct Counts {
    done: usize,
    running: Vec<String>,
}

/// Grades `students` on `jobs` threads, in any order, and returns their results in the order
/// given. Keeps a one-line count on standard error; when that is not a terminal (a log file),
/// it writes one plain line per student graded instead.
pub fn grade_all(
    kit: &Kit,
    students: &[Student],
    options: &Options,
    jobs: usize,
) -> Vec<StudentResult> {
    let (work, queue) = unbounded();
    for index in 0..students.len() {
        work.send(index).expect("the queue is open");
    }
    drop(work);
    let progress = Mutex::new(Counts {
        done: 0,
        running: Vec::new(),
    });
    let results = Mutex::new(vec![None; students.len()]);
    let out = Progress::new();
    let show = |progress: &Counts, finished: Option<&str>| match finished {
        Some(name) if !out.live() => {
            out.line(&format!(
                "graded {}/{}: {name}",
                progress.done,
                students.len()
            ));
        }
        _ => out.status(&format!(
            "graded {}/{}; running: {}",
            progress.done,
            students.len(),
            progress.running.join(", ")
        )),
    };
    crossbeam::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|_| {
                while let Ok(index) = queue.recv() {
                    let student = &students[index];
                    if let Ok(mut p) = progress.lock() {
                        p.running.push(student.name.clone());
                        show(&p, None);
                    }
                    let result = grade_student(kit, student, options);
                    if let Ok(mut all) = results.lock() {
                        all[index] = Some(result);
                    }
                    if let Ok(mut p) = progress.lock() {
                        p.done += 1;
                        p.running.retain(|name| name != &student.name);
                        show(&p, Some(&student.name));
                    }
                }
            });
        }
    })
    .expect("grading threads do not panic");
    out.finish();
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

/// One CSV field, quoted when it must be.
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The gradebook: a header, then per student each category's points (blank for the categories
/// graded by hand), the automatic total, how their build went (`ok`, `failed`, `timed out`;
/// blank without a build step), how long grading them took in seconds, and whether their copy
/// of the supplied crate was changed (`yes` or `no`; blank when they have none or it was not
/// checked).
pub fn gradebook(rubric: &Rubric, results: &[StudentResult]) -> String {
    let mut header = vec!["student".to_string()];
    header.extend(
        rubric
            .categories
            .iter()
            .flat_map(|c| c.parts())
            .map(|part| format!("{} ({})", part.name, points(part.points))),
    );
    header.push("automatic total".into());
    header.push("build".into());
    header.push("time (s)".into());
    header.push("supplied_changed".into());
    let mut out = header
        .iter()
        .map(|h| field(h))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for result in results {
        let mut row = vec![field(&result.student)];
        row.extend(
            result
                .categories(rubric)
                .iter()
                .map(|c| c.earned.map_or(String::new(), points)),
        );
        row.push(points(result.total().0));
        row.push(result.build.as_ref().map_or("", |b| b.word()).into());
        row.push(format!("{:.1}", result.elapsed.as_secs_f64()));
        row.push(
            match result.supplied.as_ref().map(|c| c.changed()) {
                Some(true) => "yes",
                Some(false) => "no",
                None => "",
            }
            .into(),
        );
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_commas_or_quotes_are_quoted() {
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
