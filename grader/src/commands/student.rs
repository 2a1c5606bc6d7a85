//! `grade student COMMAND`: grades one program, built first if asked, and prints its report;
//! writes its Markdown report with its page in the graders' gallery (and keeps its result there,
//! for its feedback to be written later), and Gradescope's results.json (a speed-up not counted
//! shown as the course chose), where asked. A student whose sandbox could not be set up is not
//! graded: the report says why, and so does the exit status. The report is named after the
//! student: `--name`, else the current folder's name unless it is one that names no student
//! ([`GENERIC`]), else the command.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::files::{become_subreaper, parent, write, Grading, OpenKitError, WriteError};
use super::publish::{Publication, PublishError};
use crate::judge::{file_stem, grade_student, Student};
use crate::report::gallery::{page_name, CLASS_PAGE, FOLDER};
use crate::report::gradescope::{self, NotCountedAs};
use crate::report::{inert, terminal};
use crate::store::{Record, Store, StoreError};

/// Folder names that name no student: Gradescope's `submission`, the project's own names (a
/// student's copy of the starter), a build's folders, and the places one is often in.
const GENERIC: [&str; 10] = [
    "submission",
    "connect_four",
    "starter",
    "src",
    "target",
    "release",
    "debug",
    "build",
    "tmp",
    "home",
];

/// What `grade student` was asked.
#[derive(Clone, Debug, Default)]
pub struct StudentRun {
    /// The command that starts the program (`ROWS COLS DEPTH THREADS --protocol` appended).
    pub command: String,
    /// The student's name, for the report's title and file names (default: [`default_name`]).
    pub name: Option<String>,
    /// What every grading run takes.
    pub grading: Grading,
    /// Where to write Gradescope's results.json.
    pub gradescope: Option<PathBuf>,
    /// What results.json gives a speed-up the machine could not judge.
    pub not_counted: NotCountedAs,
    /// Print only the brief report, not the failed cases.
    pub quiet: bool,
}

/// Why `grade student` could not grade, or write what it was asked to.
#[derive(Debug, thiserror::Error)]
pub enum StudentError {
    /// The kit cannot be used.
    #[error(transparent)]
    Kit(#[from] OpenKitError),
    /// A report file cannot be written.
    #[error(transparent)]
    Write(#[from] WriteError),
    /// The result cannot be kept in the store.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The gallery's class page cannot be written.
    #[error(transparent)]
    Publish(#[from] PublishError),
    /// The sandbox could not be set up, so no case was run (why).
    #[error("not graded: the sandbox could not be set up, so no case was run: {why}")]
    NotGraded {
        /// Why, in the words the student's result keeps (free text of the sandbox's).
        why: String,
    },
}

/// Grades the program, prints its report and writes the files asked for.
pub fn run(run: &StudentRun) -> Result<(), StudentError> {
    let (kit, dir) = run.grading.kit()?;
    become_subreaper();
    let name = run.name.clone().unwrap_or_else(|| {
        let here = std::env::current_dir().ok();
        default_name(here.as_deref(), &run.command)
    });
    let student = Student {
        name,
        command: run.command.clone(),
        dir: None,
        limits: run.grading.limits(&kit),
    };
    let hidden: Vec<&Path> = run.gradescope.iter().map(|p| parent(p)).collect();
    run.grading.keep_build_directory_apart(&dir, &hidden);
    let options = run.grading.options(&dir, &hidden);
    let result = grade_student(&kit, &student, &options);
    let text = match run.quiet {
        true => terminal::brief(&kit.rubric, &result),
        false => terminal::full(&kit.rubric, &result),
    };
    // A closed pipe (`| head`) only means nobody reads the rest.
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    if let Some(reports) = &run.grading.report {
        let store = Store::of(reports);
        let record = Record::new(result.clone(), None, None, None);
        let record = store.put_graded(record)?;
        let publication = Publication {
            rubric: &kit.rubric,
            timed: &[],
            reports: Some(reports),
        };
        let mut lost = publication.student(&record)?;
        // A class's gallery already there keeps its class page; else one of this student.
        if !reports.join(CLASS_PAGE).is_file() {
            let (published, written) =
                publication.class(None, std::slice::from_ref(&record), None, None);
            written?;
            lost.extend(published.unreported);
        }
        lost.dedup();
        for (student, why) in &lost {
            eprintln!(
                "grade: the grader failed while writing the files of {}: {why}",
                inert::line(student)
            );
        }
        let path = reports.join(format!("{}.md", file_stem(&result.student)));
        let page = reports.join(FOLDER).join(page_name(&result.student));
        eprintln!(
            "grade: wrote {} and its page in the graders' gallery, {}",
            path.display(),
            page.display()
        );
    }
    if let Some(path) = &run.gradescope {
        let json = gradescope::results(&kit.rubric, &result, run.not_counted);
        write(path, format!("{json:#}\n"))?;
    }
    match result.ungraded() {
        Some(why) => Err(StudentError::NotGraded {
            why: why.to_string(),
        }),
        None => Ok(()),
    }
}

/// The name of a student graded in the folder `here` with `command`: the folder's name, unless
/// it names no student (one of [`GENERIC`], the home folder, the root), then the command, as a
/// name that at least says what was graded.
fn default_name(here: Option<&Path>, command: &str) -> String {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let named = here
        .filter(|here| home.as_deref() != Some(*here))
        .and_then(|here| here.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| !GENERIC.contains(&name.to_lowercase().as_str()));
    named.unwrap_or_else(|| command.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_student_is_named_after_their_folder_unless_it_names_nobody() {
        let command = "./target/release/connect_four";
        let name = |here: &str| default_name(Some(Path::new(here)), command);
        assert_eq!(name("/grading/class/ann_lee"), "ann_lee");
        assert_eq!(name("/autograder/submission"), command);
        assert_eq!(name("/home/ann/Connect_Four"), command);
        assert_eq!(name("/"), command);
        assert_eq!(default_name(None, command), command);
    }
}
