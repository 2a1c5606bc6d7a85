//! `grade class DIR`: grades every submission in DIR, several at once with progress on standard
//! error, prints each student's summary and the class summary, and writes the gradebook, the
//! class summary (with each student's standing beside it, in `class-summary.json`) and (where
//! asked) each student's Markdown report and the graders' gallery, with the hand scores typed
//! so far merged in again. With `--only NAME` or `--not-counted` it grades again only those
//! students into the files a class run wrote ([`super::again`]), keeping everyone else's rows
//! and reports as they were. Each student's build has a build directory of its own: a shared
//! `CARGO_TARGET_DIR` is left out. Students whose sandbox could not be set up are named at the
//! end, and the run fails; those whose speed-up was not counted are named too.

use std::env;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::again::{AgainError, Earlier, Files};
use super::files::{become_subreaper, parent, replace, write, Grading};
use super::gallery;
use crate::judge::class::{grade_all, submissions, Event};
use crate::judge::result::hand::HandScores;
use crate::judge::result::StudentResult;
use crate::judge::{file_stem, Student};
use crate::kit::{Kit, KitError};
use crate::report::class::{Standing, Standings};
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
    /// Grade again only these students, into the class's files (`--only`).
    pub only: Vec<String>,
    /// Grade again the students whose speed-up the gradebook says was not counted, into the
    /// class's files (`--not-counted`).
    pub not_counted: bool,
}

impl ClassRun {
    /// Whether only some students are graded again, into the files a class run wrote.
    fn again(&self) -> bool {
        !self.only.is_empty() || self.not_counted
    }

    /// Where the class summary and the standings go: beside the reports, else beside the
    /// gradebook.
    fn summary_dir(&self) -> &Path {
        self.grading
            .report
            .as_deref()
            .unwrap_or_else(|| self.csv.parent().unwrap_or(Path::new("")))
    }

    /// The class's files, as [`super::again`] reads them back.
    fn files(&self) -> Files {
        Files::new(
            &self.csv,
            self.summary_dir(),
            self.grading.report.as_deref(),
        )
    }
}

/// Why `grade class` failed.
#[derive(Debug)]
pub enum ClassError {
    /// The kit, the submissions or a file could not be read or written, or students could not
    /// be graded (exit status 1).
    Kit(KitError),
    /// The students to grade again could not be graded into the class's files.
    Again(AgainError),
}

impl ClassError {
    /// Whether it is the command line's doing (exit status 2, as for a bad argument).
    pub fn bad_arguments(&self) -> bool {
        match self {
            ClassError::Kit(_) => false,
            ClassError::Again(again) => again.bad_arguments(),
        }
    }
}

impl std::fmt::Display for ClassError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClassError::Kit(error) => error.fmt(f),
            ClassError::Again(error) => error.fmt(f),
        }
    }
}

impl From<KitError> for ClassError {
    fn from(error: KitError) -> Self {
        ClassError::Kit(error)
    }
}

impl From<AgainError> for ClassError {
    fn from(error: AgainError) -> Self {
        ClassError::Again(error)
    }
}

/// The hand scores typed so far in the report directory, if there is one.
fn hand_scores(run: &ClassRun, kit: &Kit) -> Result<HandScores, KitError> {
    match &run.grading.report {
        Some(reports) => gallery::load_scores(reports, &kit.rubric),
        None => Ok(HandScores::default()),
    }
}

/// Grades the class, or again only some of it, and writes its files.
pub fn run(run: &ClassRun) -> Result<(), ClassError> {
    let (kit, dir) = run.grading.kit()?;
    own_build_directories();
    let timed = kit.timed_categories();
    // Read before grading, so that a broken file stops the run before hours of it.
    hand_scores(run, &kit)?;
    let all = submissions(&run.submissions, &run.command, run.grading.limits(&kit))?;
    let students: Vec<&Student> = match run.again() {
        false => all.iter().collect(),
        true => {
            let earlier = Earlier::load(&run.files(), &kit.rubric, &timed)?;
            earlier.chosen(&all, &run.only, run.not_counted, &run.submissions)?
        }
    };
    if students.is_empty() {
        eprintln!(
            "grade: nothing to grade again: {} names no student whose speed-up was not counted",
            run.csv.display()
        );
        return Ok(());
    }
    if run.again() {
        let names: Vec<&str> = students.iter().map(|s| s.name.as_str()).collect();
        eprintln!(
            "grade: grading again {} of the class into {}: {}",
            names.len(),
            run.csv.display(),
            names.join(", ")
        );
    }
    let students: Vec<Student> = students.into_iter().cloned().collect();
    let results = grade(run, &kit, &dir, &students);
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
    let standings = write_class(run, &kit, &timed, &results)?;
    if let Some(line) = class::grade_again_line(&standings) {
        eprintln!("grade: {line}");
    }
    ungraded(&results).map_err(ClassError::from)
}

/// Grades `students` on the run's jobs, with progress on standard error.
fn grade(run: &ClassRun, kit: &Kit, dir: &Path, students: &[Student]) -> Vec<StudentResult> {
    become_subreaper();
    let total = students.len();
    let out = Progress::stderr();
    // How many are graded, and who is being graded.
    let state = Mutex::new((0, Vec::<String>::new()));
    let options = run.grading.options(dir, &[parent(&run.csv)]);
    let results = grade_all(kit, students, &options, run.jobs, |event| {
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
    results
}

/// Writes the class's files for `results`: the gradebook, the gallery (with `--report`), the
/// class summary and the standings, with the hand scores typed by now; graded again in part,
/// everyone else's rows as the class run wrote them (read again now, so that hand scores saved
/// in the gallery meanwhile are kept). Prints the class summary and returns every student's
/// standing.
fn write_class(
    run: &ClassRun,
    kit: &Kit,
    timed: &[String],
    results: &[StudentResult],
) -> Result<Vec<Standing>, ClassError> {
    let rubric = &kit.rubric;
    let hand = hand_scores(run, kit)?;
    let fresh = gradebook::csv(rubric, timed, results, &hand);
    let standings: Vec<Standing> = results.iter().map(|r| Standing::of(rubric, r)).collect();
    let reports = run.grading.report.as_deref();
    let rows: Vec<(String, String)> = reports.map_or_else(Vec::new, |dir| {
        results
            .iter()
            .map(|r| {
                let row = crate::report::gallery::class_row(rubric, r, &hand, dir);
                (r.student.clone(), row)
            })
            .collect()
    });
    let (text, standings, rows) = match run.again() {
        false => (
            fresh,
            standings,
            rows.into_iter().map(|(_, row)| row).collect(),
        ),
        true => {
            let earlier = Earlier::load(&run.files(), rubric, timed)?;
            let rows = earlier.class_rows(rows).unwrap_or_default();
            (
                earlier.gradebook(&fresh)?,
                earlier.standings(standings),
                rows,
            )
        }
    };
    replace(&run.csv, &text)?;
    eprintln!("grade: wrote {}", run.csv.display());
    if let Some(reports) = reports {
        gallery::write_pages(reports, rubric, results, &hand, &run.csv, &rows)?;
        eprintln!(
            "grade: wrote the graders' gallery, {} (grade gallery {} serves it)",
            reports.join(crate::report::gallery::CLASS_PAGE).display(),
            reports.display()
        );
    }
    let dir = run.summary_dir();
    let text = class::markdown(rubric, &standings);
    let _ = writeln!(std::io::stdout().lock(), "{text}");
    let path = dir.join(class::FILE_NAME);
    replace(&path, &text)?;
    let kept = Standings {
        students: standings,
    };
    let json = serde_json::to_string_pretty(&kept)
        .map_err(|e| KitError(format!("the class's standings: {e}")))?;
    replace(&dir.join(class::STANDINGS), &format!("{json}\n"))?;
    eprintln!("grade: wrote {}", path.display());
    Ok(kept.students)
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
