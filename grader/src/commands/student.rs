//! `grade student COMMAND`: grades one program, built first if asked, and prints its report;
//! writes its Markdown report with its page in the graders' gallery (and keeps its result there,
//! for its feedback to be written later), and Gradescope's results.json (a speed-up not counted
//! shown as the course chose), where asked. A student whose sandbox could not be set up is not
//! graded: the report says why, and so does the exit status.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::feedback;
use super::files::{become_subreaper, parent, write, Grading};
use super::gallery;
use crate::judge::{file_stem, grade_student, Student};
use crate::kit::KitError;
use crate::report::gradescope::{self, NotCountedAs};
use crate::report::{markdown, terminal};

/// What `grade student` was asked.
#[derive(Clone, Debug, Default)]
pub struct StudentRun {
    /// The command that starts the program (`ROWS COLS DEPTH THREADS --protocol` appended).
    pub command: String,
    /// What every grading run takes.
    pub grading: Grading,
    /// Where to write Gradescope's results.json.
    pub gradescope: Option<PathBuf>,
    /// What results.json gives a speed-up the machine could not judge.
    pub not_counted: NotCountedAs,
    /// Print only the brief report, not the failed cases.
    pub quiet: bool,
}

/// Grades the program, prints its report and writes the files asked for.
pub fn run(run: &StudentRun) -> Result<(), KitError> {
    let (kit, dir) = run.grading.kit()?;
    become_subreaper();
    let student = Student {
        name: run.command.clone(),
        command: run.command.clone(),
        dir: None,
        limits: run.grading.limits(&kit),
    };
    let hidden: Vec<&Path> = run.gradescope.iter().map(|p| parent(p)).collect();
    let options = run.grading.options(&dir, &hidden);
    let result = grade_student(&kit, &student, &options);
    let text = match run.quiet {
        true => terminal::brief(&kit.rubric, &result),
        false => terminal::full(&kit.rubric, &result),
    };
    // A closed pipe (`| head`) only means nobody reads the rest.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    if let Some(reports) = &run.grading.report {
        let path = reports.join(format!("{}.md", file_stem(&result.student)));
        write(&path, &markdown::student(&kit.rubric, &result))?;
        let page = gallery::write_student_page(reports, &kit.rubric, &result)?;
        feedback::keep(reports, &result)?;
        eprintln!(
            "grade: wrote {} and its page in the graders' gallery, {}",
            path.display(),
            page.display()
        );
    }
    if let Some(path) = &run.gradescope {
        let json = gradescope::results(&kit.rubric, &result, run.not_counted);
        write(path, &format!("{json:#}\n"))?;
    }
    match result.ungraded() {
        Some(why) => Err(KitError(format!(
            "not graded: the sandbox could not be set up, so no case was run: {why}"
        ))),
        None => Ok(()),
    }
}
