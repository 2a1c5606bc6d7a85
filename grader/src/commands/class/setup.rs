//! What a class run settles before grading: the students' builds kept apart, the report
//! directory checked to be outside the class folder, what the store records of the run (the
//! submissions, the kit and the settings its results depend on, each submission's
//! stamp), what the store held for it, said, and the students to grade: those not
//! carried on, or those to grade again.

use std::env;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::asked::ClassRun;
use super::error::ClassError;
use crate::commands::again::{self, AgainError};
use crate::judge::Student;
use crate::kit::Kit;
use crate::report::inert::{self, names};
use crate::store::stamp;
use crate::store::{Class, Store};
use crate::store::{Found, Setup, Stamp, StartOver};

/// Leaves `CARGO_TARGET_DIR` out of the students' builds, saying so: a build directory every
/// student's build could write would let one student's build overwrite another's program or
/// read it. Without it each submission builds into its own `target/`. Called before any thread
/// starts.
pub(super) fn own_build_directories() {
    if let Some(shared) = env::var_os("CARGO_TARGET_DIR") {
        eprintln!(
            "grade: CARGO_TARGET_DIR ({}) is left out of the students' builds: each submission \
             builds into its own target/, where no other student's build can reach it",
            Path::new(&shared).display()
        );
        env::remove_var("CARGO_TARGET_DIR");
    }
}

/// Refuses a report directory in the class folder `class` (or the folder itself): its
/// subdirectories are the students, and the reports would be graded as one on the next run.
/// Checked before anything is graded or written, on the paths as they resolve (links followed),
/// the report directory not yet made.
pub(super) fn refuse_reports_inside(run: &ClassRun, class: &Path) -> Result<(), ClassError> {
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

/// What the store records of a class run: the submissions folder, the kit and the settings
/// the results depend on.
pub(super) fn setup(run: &ClassRun, kit: &Kit, dir: &Path) -> Setup {
    let grading = &run.grading;
    let limits = grading.limits(kit);
    let absolute = |path: &Path| path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    Setup {
        submissions: absolute(&run.submissions),
        kit: absolute(dir),
        kit_files: stamp::of(dir, &[]),

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
    }
}

/// The stamp of `student`'s submission as it is now, its build's output left out.
pub(super) fn submission(student: &Student) -> Stamp {
    stamp::of(
        student.dir.as_deref().unwrap_or(Path::new(".")),
        &["target"],
    )
}

/// Says on standard error what the store holds for this run: an earlier run carried on (with
/// `kept` of `all` students graded, those of `changed` to grade again), or set aside.
pub(super) fn say_begun(found: &Found, kept: usize, all: usize, changed: &[String]) {
    match found {
        Found::Nothing | Found::StartingOver(StartOver::Finished) => {}
        Found::StartingOver(why) => eprintln!(
            "grade: starting over, grading everyone: the run the store holds ({}/) is set \
             aside: {why}",
            crate::store::FOLDER
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

/// Begins the run of `class` (its submissions `all`) in `store`: the students to grade, and the
/// class as kept. A class run carries on an unfinished run of the same class; one grading
/// again in part takes the class the store holds. `None` when there is nothing to grade again.
pub(super) fn begin(
    run: &ClassRun,
    store: &Store,
    mut class: Class,
    all: &[Student],
) -> Result<Option<(Class, Vec<Student>)>, ClassError> {
    if !run.again() {
        let current = all
            .iter()
            .map(|s| (s.name.clone(), submission(s)))
            .collect();
        let begun = store.begin(class, run.restart, &current)?;
        for (student, why) in &begun.unread {
            eprintln!(
                "grade: {}'s record cannot be read, so they are graded again: {why}",
                inert::line(student)
            );
        }
        let kept = begun.carried.len();
        say_begun(&begun.found, kept, all.len(), &begun.changed);
        let students = all
            .iter()
            .filter(|s| !begun.carried.contains_key(&s.name))
            .cloned()
            .collect();
        return Ok(Some((begun.class, students)));
    }
    let earlier = store
        .class()?
        .ok_or_else(|| AgainError::NoClass(store.folder().to_path_buf()))?;
    let (_, records) = store.class_records()?;
    let asked = (run.only.as_slice(), run.not_counted);
    let joined = class.joined();
    let folder = run.submissions.clone();
    let chosen = again::chosen(&earlier, &records, all, asked, folder, joined)?;
    if chosen.is_empty() {
        eprintln!(
            "grade: nothing to grade again: {} names no student whose speed-up was not counted",
            run.csv.display()
        );
        return Ok(None);
    }
    let chosen_names: Vec<String> = chosen.iter().map(|s| s.name.clone()).collect();
    eprintln!(
        "grade: grading again {} of the class into {}: {}",
        chosen_names.len(),
        run.csv.display(),
        names(&chosen_names)
    );
    class.started = earlier.started;
    class.finished = earlier.finished;
    store.put_class(&class)?;
    Ok(Some((class, chosen.into_iter().cloned().collect())))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;
    use crate::commands::Grading;

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
}
