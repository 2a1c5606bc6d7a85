//! The grading kit: runs a student's program through the grading protocol, compares it with the
//! reference and scores it by the rubric in `grading/`.
//!
//! The data lives in `grading/`: `rubric.toml` (categories, points, speed-up credit) and
//! `cases/**/*.toml` (one script of protocol commands each), with the reference's answers beside
//! each case in a `.solution` file written by [`solution::generate`]. Grading one student is
//! [`grade_student`]; the modules below each do one step. Beside the score, a Rust submission's
//! copy of the supplied crate is compared with the course's ([`supplied`]). A submission can be
//! built first ([`build`]), and a class's results are summed up for the instructor
//! ([`summary`]). Apart from grading, [`matchup`] plays matches between the reference and any
//! program that speaks the protocol (`grade match`).

pub mod batch;
pub mod build;
pub mod case;
pub mod gradescope;
pub mod limits;
pub mod matchup;
/// Running programs under limits and in a sandbox (to be merged with the process layer).
#[cfg(target_os = "linux")]
pub mod process {
    pub mod sandbox;
}
mod progress;
pub mod report;
pub mod requirement;
pub mod rubric;
pub mod runner;
pub mod score;
pub mod session;
pub mod solution;
pub mod summary;
pub mod supplied;
mod timing;

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use case::Case;
use rubric::Rubric;
use score::{CaseResult, StudentResult};
use solution::Solution;

/// Why the kit itself cannot go on: a missing or malformed file, or a stale solution. The message
/// names the file (and line, when there is one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KitError(pub String);

impl fmt::Display for KitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for KitError {}

/// Everything needed to grade: the rubric and every case with its stored answers.
#[derive(Debug, Clone)]
pub struct Kit {
    /// The categories and the speed-up credit.
    pub rubric: Rubric,
    /// The cases, sorted by name, each with its solution.
    pub cases: Vec<(Case, Solution)>,
    /// The course's copy of the supplied crate, which submissions' copies are compared with;
    /// `None` leaves that check out.
    pub supplied: Option<supplied::Course>,
}

impl Kit {
    /// Loads `DIR/rubric.toml` and `DIR/cases/`, checks them against each other and reads every
    /// case's solution (which must match its script). The course's copy of the supplied crate is
    /// not loaded: set [`Kit::supplied`] for that check.
    pub fn load(dir: &Path) -> Result<Kit, KitError> {
        let rubric = Rubric::load(&dir.join("rubric.toml"))?;
        let cases = case::load_all(&dir.join("cases"))?;
        rubric.check_cases(&cases)?;
        requirement::check_names(&cases)?;
        let cases = cases
            .into_iter()
            .map(|case| solution::read(&case).map(|s| (case, s)))
            .collect::<Result<_, _>>()?;
        Ok(Kit {
            rubric,
            cases,
            supplied: None,
        })
    }
}

/// How to start one student's program: a shell command (the grader appends
/// `ROWS COLS DEPTH THREADS --protocol`), the directory to run it in and its resource limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    /// A name for reports: the submission directory's name, or the command.
    pub name: String,
    /// The shell command that starts the program.
    pub command: String,
    /// The working directory, if not the grader's own.
    pub dir: Option<PathBuf>,
    /// The limits every run of the program is under: the kit's, or the command line's.
    pub limits: limits::Limits,
}

/// What to run beyond the correctness cases, and for how long.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// Leave out the speed-up cases (their points count neither way): for noisy machines and
    /// for tests that must not depend on timing.
    pub skip_timing: bool,
    /// Build each submission first; a failed build loses every case.
    pub build: Option<build::Step>,
    /// The longest one student's cases may take: once it has passed, the cases not yet started
    /// are lost, not run.
    pub student_deadline: Option<Duration>,
}

/// Builds one student (if `options` say so), grades them on every case of `kit`, one case after
/// another, and compares their copy of the supplied crate (in their directory, else the
/// grader's) with the kit's.
pub fn grade_student(kit: &Kit, student: &Student, options: &Options) -> StudentResult {
    let started = Instant::now();
    let dir = student.dir.as_deref().unwrap_or(Path::new("."));
    // A program the kit builds is built with the course's copy of the supplied crate.
    let restored = match (&options.build, &kit.supplied) {
        (Some(_), Some(course)) => course.restore(dir),
        _ => Ok(None),
    };
    let build = options.build.as_ref().map(|step| step.run(student));
    let graded = Instant::now();
    let mut cases = Vec::new();
    let mut not_run = Vec::new();
    for (case, solution) in &kit.cases {
        let out_of_time = options.student_deadline.filter(|d| graded.elapsed() >= *d);
        if options.skip_timing && case.is_timing() {
            not_run.push(case.name.clone());
        } else if let Some(why) = build.as_ref().and_then(build::Build::failure) {
            cases.push(CaseResult::lost(case, why));
        } else if let Some(deadline) = out_of_time {
            let why = format!(
                "not run: the student's overall time limit of {} s ran out",
                deadline.as_secs()
            );
            cases.push(CaseResult::lost(case, why));
        } else {
            cases.push(session::run_case(case, solution, student, &kit.rubric));
        }
    }
    requirement::apply(kit.cases.iter().map(|(case, _)| case), &mut cases);
    StudentResult {
        student: student.name.clone(),
        cases,
        not_run,
        elapsed: started.elapsed(),
        build,
        supplied: match restored {
            Ok(Some(comparison)) => Some(comparison),
            // Not restored (no build step, or it could not be): compare what is there.
            _ => kit.supplied.as_ref().and_then(|course| course.compare(dir)),
        },
    }
}

/// Reads a TOML file of the kit: its text (for line numbers) and its contents, errors naming it.
fn read_toml<T: serde::de::DeserializeOwned>(path: &Path) -> Result<(String, T), KitError> {
    let shown = path.display();
    let text =
        fs::read_to_string(path).map_err(|e| KitError(format!("{shown}: cannot read: {e}")))?;
    let value = toml::from_str(&text).map_err(|e| KitError(format!("{shown}: {e}")))?;
    Ok((text, value))
}

/// Seconds as the case files and reports write them.
pub fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}
