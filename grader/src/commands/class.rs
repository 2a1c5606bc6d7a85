//! `grade class DIR`: grades every submission in DIR, several at once with progress on standard
//! error, prints each student's summary and the class summary, and writes the gradebook, the
//! class summary and (where asked) each student's Markdown report and the graders' gallery,
//! with the hand scores typed so far merged in again. Each student's build has a build
//! directory of its own: a shared `CARGO_TARGET_DIR` is left out. Students whose sandbox could
//! not be set up are named at the end, and the run fails.

use std::env;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::files::{become_subreaper, parent, write, Grading};
use super::gallery;
use crate::judge::class::{grade_all, submissions, Event};
use crate::judge::file_stem;
use crate::judge::result::hand::HandScores;
use crate::judge::result::StudentResult;
use crate::kit::KitError;
use crate::report::progress::Progress;
use crate::report::{class, gradebook, markdown, terminal};

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
    /// The folder of submissions, one subdirectory per student.
    pub submissions: PathBuf,
    /// The command for one student, `{dir}` standing for their directory.
    pub command: String,
    /// Students graded at once.
    pub jobs: usize,
    /// Where the gradebook goes.
    pub csv: PathBuf,
    /// What every grading run takes.
    pub grading: Grading,
}

/// Grades the class and writes its files.
pub fn run(run: &ClassRun) -> Result<(), KitError> {
    let (kit, dir) = run.grading.kit()?;
    own_build_directories();
    // Read before grading, so that a broken file stops the run before hours of it.
    let hand = match &run.grading.report {
        Some(reports) => gallery::load_scores(reports, &kit.rubric)?,
        None => HandScores::default(),
    };
    become_subreaper();
    let students = submissions(&run.submissions, &run.command, run.grading.limits(&kit))?;
    let total = students.len();
    let out = Progress::stderr();
    // How many are graded, and who is being graded.
    let state = Mutex::new((0, Vec::<String>::new()));
    let options = run.grading.options(&dir, &[parent(&run.csv)]);
    let results = grade_all(&kit, &students, &options, run.jobs, |event| {
        let Ok(mut state) = state.lock() else {
            return;
        };
        let (done, running) = &mut *state;
        match event {
            Event::Started(student) => running.push(student.name.clone()),
            Event::Finished(student, graded) => {
                *done = graded;
                running.retain(|name| name != &student.name);
                if !out.live() {
                    out.line(&format!("graded {graded}/{total}: {}", student.name));
                }
            }
        }
        out.status(&format!(
            "graded {done}/{total}; running: {}",
            running.join(", ")
        ));
    });
    out.finish();
    for result in &results {
        let _ = writeln!(
            std::io::stdout().lock(),
            "{}",
            terminal::brief(&kit.rubric, result)
        );
        if let Some(reports) = &run.grading.report {
            let path = reports.join(format!("{}.md", file_stem(&result.student)));
            write(&path, &markdown::student(&kit.rubric, result))?;
        }
    }
    write(&run.csv, &gradebook::csv(&kit.rubric, &results, &hand))?;
    eprintln!("grade: wrote {}", run.csv.display());
    if let Some(reports) = &run.grading.report {
        gallery::write_pages(reports, &kit.rubric, &results, &hand, &run.csv)?;
        eprintln!(
            "grade: wrote the graders' gallery, {} (grade gallery {} serves it)",
            reports.join(crate::report::gallery::CLASS_PAGE).display(),
            reports.display()
        );
    }
    // Beside the reports, else beside the gradebook.
    let dir = run
        .grading
        .report
        .as_deref()
        .unwrap_or_else(|| run.csv.parent().unwrap_or(Path::new("")));
    let path = dir.join(class::FILE_NAME);
    let text = class::markdown(&kit.rubric, &results);
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    write(&path, &text)?;
    eprintln!("grade: wrote {}", path.display());
    ungraded(&results)
}

/// An error naming the students who were not graded (their sandbox could not be set up), if
/// any were: their rows are no grade.
fn ungraded(results: &[StudentResult]) -> Result<(), KitError> {
    let ungraded: Vec<String> = results
        .iter()
        .filter_map(|result| Some(format!("{}: {}", result.student, result.ungraded()?)))
        .collect();
    if ungraded.is_empty() {
        return Ok(());
    }
    Err(KitError(format!(
        "{} of {} students were not graded: their sandbox could not be set up, so none of \
         their code was run, and the gradebook leaves their points blank:\n  {}",
        ungraded.len(),
        results.len(),
        ungraded.join("\n  ")
    )))
}
